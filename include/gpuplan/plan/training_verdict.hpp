// gpuplan/plan/training_verdict.hpp: the memory verdict of a training plan, the one rule every
// training fit, the training search's pruning and every command that takes a training plan apply.
// Without the advice (plan/fit_core.hpp) or the serving fit (plan/serving_fit.hpp), so the
// training search (plan/search_training.hpp) compiles only the training memory models.
#pragma once

#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/framework_memory.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {


/// The memory verdict of a training plan: the most loaded GPU's memory (framework_training_memory)
/// against the GPU's plannable memory. The one rule `training_fit`, the training search's pruning
/// and every command that takes a training plan (`gpuplan fit`, `train`, `cost`) apply.
struct training_memory_verdict {
  memory_breakdown per_gpu{};  ///< the most loaded GPU
  data_size capacity{};        ///< the GPU's plannable memory
  [[nodiscard]] constexpr bool fits() const { return within_capacity(per_gpu.total(), capacity); }
};

/// The verdict on a per-GPU breakdown already computed (the search caches it across GPUs).
constexpr training_memory_verdict training_verdict(const memory_breakdown& per_gpu,
                                                   const gpu_spec& gpu) {
  detail::check_finite_memory(per_gpu);
  return {per_gpu, gpu.plannable_memory()};
}

/// The verdict of training a transformer on `gpu` GPUs laid out as `l`.
constexpr training_memory_verdict training_verdict(const transformer_spec& m, const gpu_spec& gpu,
                                                   const parallel_layout& l,
                                                   const training_config& c,
                                                   const memory_assumptions& a = {}) {
  return training_verdict(framework_training_memory(m, l, c, a), gpu);
}

/// The verdict of training a generic workload (data parallelism and ZeRO/FSDP only).
constexpr training_memory_verdict training_verdict(const generic_workload& g, const gpu_spec& gpu,
                                                   const parallel_layout& l,
                                                   const training_config& c,
                                                   const memory_assumptions& a = {}) {
  return training_verdict(framework_training_memory(g, l, c, a), gpu);
}

}  // namespace gpuplan
