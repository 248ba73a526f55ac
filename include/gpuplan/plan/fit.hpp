// gpuplan/plan/fit.hpp: does it fit? The per-GPU breakdown of the most loaded GPU against its
// capacity, and, when it does not fit, concrete options ranked, each with the per-GPU memory it
// leads to. Everything is constexpr:
//
//   constexpr auto r = gpuplan::training_fit(model, gpu, layout, {.micro_batch = 1, .seq = 8192});
//   static_assert(r.fits());
//
// The fits themselves are plan/fit_core.hpp's; this header adds the transformer fits whose advice
// suggests another GPU of catalog::all_gpus by default.
#pragma once

#include <gpuplan/catalog/gpus.hpp>
#include <gpuplan/plan/fit_core.hpp>

namespace gpuplan {

/// Training fit of a transformer on `gpu` GPUs laid out as `l`. `candidate_gpus` are the GPUs
/// the advice may suggest instead (without the argument: every GPU of catalog::all_gpus);
/// `b` how far its layouts grow (candidate_bounds::for_node(node) for a node's NVLink domain).
constexpr fit_report training_fit(const transformer_spec& m, const gpu_spec& gpu,
                                  const parallel_layout& l, const training_config& c,
                                  const memory_assumptions& a = {},
                                  array_view<gpu_spec> candidate_gpus = catalog::all_gpus,
                                  const candidate_bounds& b = {}) {
  return detail::training_fit_of(m, gpu, l, c, a, candidate_gpus, b);
}

/// Training fit of a generic workload (data parallelism and ZeRO/FSDP only).
constexpr fit_report training_fit(const generic_workload& g, const gpu_spec& gpu,
                                  const parallel_layout& l, const training_config& c,
                                  const memory_assumptions& a = {},
                                  array_view<gpu_spec> candidate_gpus = catalog::all_gpus,
                                  const candidate_bounds& b = {}) {
  return detail::training_fit_of(g, gpu, l, c, a, candidate_gpus, b);
}

/// Serving fit: weights, KV cache for c.batch sequences of c.context tokens, workspace and
/// overhead against gpu_memory_utilization of the GPU; the paged KV cache's capacity in `kv`. It
/// fits when that memory is within capacity and the KV cache the engine's rule leaves
/// (engine_kv_budget) holds the c.batch sequences of c.context tokens and one of
/// c.model_len() (kv_demand): an engine whose cache holds fewer refuses to start or cannot serve
/// the batch asked for.
constexpr fit_report inference_fit(const transformer_spec& m, const gpu_spec& gpu,
                                   const parallel_layout& l, const inference_config& c,
                                   const memory_assumptions& a = {},
                                   array_view<gpu_spec> candidate_gpus = catalog::all_gpus,
                                   const candidate_bounds& b = {}) {
  return detail::inference_fit_of(m, gpu, l, c, a, candidate_gpus, b);
}

}  // namespace gpuplan
