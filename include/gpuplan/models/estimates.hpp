// gpuplan/models/estimates.hpp: which inputs of a result are estimates rather than a datasheet
// figure or a published measurement, so that a report can say so (the CLI's `warnings`).
//
// Two kinds of input are estimates today:
//   usable memory      a GPU whose driver-reported total (gpu_spec::memory_usable) is unknown:
//                      the memory models plan on its full capacity, which overstates what the
//                      driver gives (81,089 of 81,920 MiB on an H100 SXM: 1% less).
//   kernel efficiency  a GPU whose achievable GEMM fraction nobody published: its catalog entry
//                      borrows a sibling's measurement (gpu_spec::kernels, measured false), or
//                      the models take 0.807 (unmeasured_matmul_fraction, the median of the
//                      NVIDIA measurements) when no figure covers it (default_matmul_efficiency
//                      in models/kernels.hpp): the training step and serving alike, at each
//                      precision their GEMMs run in; the serving roofline's attention fraction
//                      was measured on an H100 SXM and is applied to every GPU; the HBM fraction
//                      of both is the GPU's own figure or the H100 SXM's copies
//                      (default_hbm_efficiency); the 4-bit GEMM fraction is the GPU's fp8 one.
// One note per assumption field still at its default whose figure is not a measurement of the
// GPU (estimate_note::field names it); a figure the caller set (a non-default assumption) is the
// caller's and is not listed.
#pragma once

#include <gpuplan/catalog/h100_sxm.hpp>
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
  matmul_efficiency,    ///< a GEMM fraction (step or serving) is not a measurement of this GPU
  serving_efficiency,   ///< the serving roofline's attention fraction was measured elsewhere
  fp4_gemm_efficiency,  ///< the serving roofline's 4-bit GEMM fraction is the fp8 one
  hbm_efficiency,       ///< a streaming (HBM) fraction (step or serving) was measured elsewhere
};
inline constexpr enumerator<estimate_kind> estimate_kind_names[] = {
    {estimate_kind::usable_memory, "usable_memory"},
    {estimate_kind::matmul_efficiency, "matmul_efficiency"},
    {estimate_kind::serving_efficiency, "serving_efficiency"},
    {estimate_kind::fp4_gemm_efficiency, "fp4_gemm_efficiency"},
    {estimate_kind::hbm_efficiency, "hbm_efficiency"}};
constexpr const auto& enumerators(estimate_kind) { return estimate_kind_names; }

/// One input that is an estimate: which, for which GPU, the figure used and where it comes from.
struct estimate_note {
  estimate_kind kind = estimate_kind::usable_memory;
  name_string gpu;
  double value = 0.0;          ///< bytes (usable_memory) or a fraction of the peak
  const char* source = "";     ///< where the figure used comes from
  /// The assumption a caller sets to replace the figure ("step.matmul_peak_fraction",
  /// "serving.kernels.attention_fraction": the names `--set` takes); empty for usable memory.
  const char* field = "";
};

/// The estimates a result rests on (at most 8; the same note is listed once).
struct estimate_notes {
  inplace_vector<estimate_note, 8> items{};

  /// Adds n unless a note of its kind, for its GPU and its field, is listed; past 8 notes, drops
  /// it.
  constexpr void add(const estimate_note& n) {
    for (const estimate_note& x : items)
      if (x.kind == n.kind && x.gpu == n.gpu &&
          std::string_view(x.field) == std::string_view(n.field))
        return;
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
/// plan sets step_assumptions::matmul_peak_fraction itself, and its HBM efficiency (the
/// memory-bound kernels' bandwidth), unless it sets step_assumptions::memory_bandwidth_fraction.
constexpr estimate_notes step_estimates(const training_plan& p) {
  estimate_notes n;
  const gpu_spec& g = p.node.gpu;
  if (!(p.assumptions.matmul_peak_fraction > 0.0)) {
    const matmul_efficiency e = default_matmul_efficiency(g, p.config.dtype);
    if (!e.measured)
      n.add({estimate_kind::matmul_efficiency, g.name, e.fraction, e.source,
             "step.matmul_peak_fraction"});
  }
  if (!(p.assumptions.memory_bandwidth_fraction > 0.0)) {
    const efficiency_figure h = default_hbm_efficiency(g);
    if (!h.measured)
      n.add({estimate_kind::hbm_efficiency, g.name, h.fraction, h.source,
             "step.memory_bandwidth_fraction"});
  }
  return n;
}

/// The GPU the serving roofline's attention fraction was measured on (models/kernels.hpp).
inline constexpr const gpu_spec& roofline_measured_gpu = catalog::h100_sxm;

/// What a serving answer for p rests on: the KV cache's memory budget (usable memory), and one
/// note for each kernel fraction p uses that is still at its default (0: the GPU's figure) and is
/// not a measurement of p's GPU: the GEMM fraction of each precision its GEMMs run in (the compute
/// precision; 16 bits for the output head and the router), the attention fraction away from the
/// GPU it was measured on, the HBM fraction where the GPU has no measurement of its own; the 4-bit
/// GEMM fraction whenever fp4 math is used with its default; an MoE model's grouped-kernel figure
/// where the GPU borrows it.
constexpr estimate_notes serving_estimates(const serving_plan& p) {
  const gpu_spec& g = p.gpu();
  estimate_notes n = memory_estimates(g);
  const roofline_assumptions& k = p.assumptions.kernels;
  auto gemm = [&](precision math) {
    if (gemm_fraction_assumed(math, k) > 0.0) return;  // the caller's figure
    const int bits = gemm_fraction_bits(math);
    const bool bit4 = bits == 4;
    const char* field = bit4        ? "serving.kernels.gemm_fraction_4bit"
                        : bits == 8 ? "serving.kernels.gemm_fraction_8bit"
                                    : "serving.kernels.gemm_fraction_16bit";
    const matmul_efficiency e = default_matmul_efficiency(g, math);
    if (bit4)  // no fp4 GEMM measurement: the GPU's fp8 figure (else its 16-bit one)
      n.add({estimate_kind::fp4_gemm_efficiency, g.name, e.fraction, e.source, field});
    else if (!e.measured)
      n.add({estimate_kind::matmul_efficiency, g.name, e.fraction, e.source, field});
  };
  gemm(precision::bf16);  // the output head (lm_head_time) and the router
  gemm(p.compute_dtype);
  if (p.model.is_moe()) {  // the experts' grouped kernel, where its figure is borrowed
    const detail::gemm_path x = detail::linear_path(p, true);
    const moe_figure f = moe_kernel_figure(x.math, x.dequant, g, k);
    if (!(f.assumed > 0.0) && f.own && f.own->known() && !f.own->measured)
      n.add({estimate_kind::serving_efficiency, g.name, f.own->fraction, f.own->source, f.field});
  }
  const roofline_assumptions defaults{};
  if (k.attention_fraction == defaults.attention_fraction &&
      g.name.view() != roofline_measured_gpu.name.view())
    n.add({estimate_kind::serving_efficiency, g.name, k.attention_fraction,
           "FlashAttention forward measured on an H100 SXM", "serving.kernels.attention_fraction"});
  if (!(k.hbm_fraction > 0.0)) {
    const efficiency_figure h = default_hbm_efficiency(g);
    if (!h.measured)
      n.add({estimate_kind::hbm_efficiency, g.name, h.fraction, h.source,
             "serving.kernels.hbm_fraction"});
  }
  return n;
}

}  // namespace gpuplan
