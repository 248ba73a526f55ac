// gpuplan/models/estimates.hpp: which inputs of a result are estimates rather than a datasheet
// figure or a published measurement, so that a report can say so (the CLI's `warnings`).
//
// Two kinds of input are estimates today:
//   usable memory      a GPU whose driver-reported total (gpu_spec::memory_usable) is unknown:
//                      the memory models plan on its full capacity, which overstates what the
//                      driver gives (81,089 of 81,920 MiB on an H100 SXM: 1% less).
//   kernel efficiency  a GPU whose achievable GEMM fraction nobody published: its catalog entry
//                      borrows a sibling's measurement (gpu_spec::kernels, measured false), or
//                      the step-time model takes 0.807 (unmeasured_matmul_fraction, the median
//                      of the NVIDIA measurements) when no figure covers it
//                      (default_matmul_efficiency in models/kernels.hpp); the serving roofline's
//                      GEMM, attention and HBM fractions were measured on an H100 SXM and are
//                      applied to every GPU, and its 4-bit GEMM fraction is the 8-bit one
//                      (models/kernels.hpp).
// A figure the caller set (a non-default assumption) is the caller's and is not listed.
#pragma once

#include <gpuplan/catalog/gpus.hpp>
#include <gpuplan/models/kernels.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/models/training_step.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/inplace_vector.hpp>
#include <gpuplan/specs/name.hpp>

#include <cstddef>

namespace gpuplan {

enum class estimate_kind : unsigned char {
  usable_memory,        ///< gpu_spec::memory_usable unknown: the capacity is planned on
  matmul_efficiency,    ///< the step model's GEMM fraction is not a measurement of this GPU
  serving_efficiency,   ///< the serving roofline's fractions were measured on another GPU
  fp4_gemm_efficiency,  ///< the serving roofline's 4-bit GEMM fraction is the 8-bit one
};
inline constexpr enumerator<estimate_kind> estimate_kind_names[] = {
    {estimate_kind::usable_memory, "usable_memory"},
    {estimate_kind::matmul_efficiency, "matmul_efficiency"},
    {estimate_kind::serving_efficiency, "serving_efficiency"},
    {estimate_kind::fp4_gemm_efficiency, "fp4_gemm_efficiency"}};
constexpr const auto& enumerators(estimate_kind) { return estimate_kind_names; }

/// One input that is an estimate: which, for which GPU, the figure used and where it comes from.
struct estimate_note {
  estimate_kind kind = estimate_kind::usable_memory;
  name_string gpu;
  double value = 0.0;          ///< bytes (usable_memory) or a fraction of the peak
  const char* source = "";     ///< where the figure used comes from
};

/// The estimates a result rests on (at most 8; the same note is listed once).
struct estimate_notes {
  inplace_vector<estimate_note, 8> items{};

  /// Adds n unless a note of its kind for its GPU is listed; past 8 notes, drops it.
  constexpr void add(const estimate_note& n) {
    for (const estimate_note& x : items)
      if (x.kind == n.kind && x.gpu == n.gpu) return;
    items.try_push_back(n);
  }
  constexpr void add_all(const estimate_notes& other) {
    for (const estimate_note& n : other) add(n);
  }
  /// Note i (0 <= i < size()).
  [[nodiscard]] constexpr const estimate_note& at(int i) const {
    return items[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] constexpr int size() const { return static_cast<int>(items.size()); }
  [[nodiscard]] constexpr bool empty() const { return items.empty(); }
  [[nodiscard]] constexpr const estimate_note* begin() const { return items.begin(); }
  [[nodiscard]] constexpr const estimate_note* end() const { return items.end(); }
};

/// What a memory result for GPU g rests on: its usable memory, when the driver figure is unknown.
constexpr estimate_notes memory_estimates(const gpu_spec& g) {
  estimate_notes n;
  if (!(g.memory_usable.value > 0.0))
    n.add({estimate_kind::usable_memory, g.name, g.plannable_memory().value,
           "the datasheet capacity: no driver-reported total is known for this GPU"});
  return n;
}

/// What the step-time model's answer for p rests on: the GEMM efficiency of its GPU, unless the
/// plan sets step_assumptions::matmul_peak_fraction itself.
constexpr estimate_notes step_estimates(const training_plan& p) {
  estimate_notes n;
  if (p.assumptions.matmul_peak_fraction > 0.0) return n;
  const matmul_efficiency e = default_matmul_efficiency(p.node.gpu, p.config.dtype);
  if (!e.measured)
    n.add({estimate_kind::matmul_efficiency, p.node.gpu.name, e.fraction, e.source});
  return n;
}

/// The GPU the serving roofline's default fractions were measured on (models/kernels.hpp).
inline constexpr const gpu_spec& roofline_measured_gpu = catalog::h100_sxm;

/// What a serving answer for p rests on: the KV cache's memory budget (usable memory), and the
/// roofline's kernel fractions when they are the defaults and p's GPU is not the one they were
/// measured on; the 4-bit GEMM fraction whenever fp4 math is used with its default.
constexpr estimate_notes serving_estimates(const serving_plan& p) {
  estimate_notes n = memory_estimates(p.gpu());
  const roofline_assumptions defaults{};
  const roofline_assumptions& k = p.assumptions.kernels;
  const bool default_fractions = k.gemm_fraction_16bit == defaults.gemm_fraction_16bit &&
                                 k.gemm_fraction_8bit == defaults.gemm_fraction_8bit &&
                                 k.attention_fraction == defaults.attention_fraction &&
                                 k.hbm_fraction == defaults.hbm_fraction;
  if (default_fractions && p.gpu().name.view() != roofline_measured_gpu.name.view())
    n.add({estimate_kind::serving_efficiency, p.gpu().name, k.gemm_fraction_16bit,
           "GEMM, attention and HBM efficiencies measured on an H100 SXM"});
  if (p.compute_dtype == precision::fp4 && k.gemm_fraction_4bit == defaults.gemm_fraction_4bit)
    n.add({estimate_kind::fp4_gemm_efficiency, p.gpu().name, k.gemm_fraction_4bit,
           "no fp4 GEMM measurement: the 8-bit fraction"});
  return n;
}

}  // namespace gpuplan
