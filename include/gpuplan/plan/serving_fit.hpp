// gpuplan/plan/serving_fit.hpp: the fit report (the most loaded GPU's memory against its
// capacity, the paged KV cache against what the plan asks of it, and ranked options when it does
// not fit) and the serving and inference fits that fill it, without the catalog. plan/fit_core.hpp
// adds the training fit and its advice; plan/fit.hpp the defaults that look through the catalog.
// The serving search (plan/search_serving.hpp) includes this one, not the training memory models.
#pragma once

#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/inference_memory.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/models/serving_plan.hpp>
#include <gpuplan/plan/advice.hpp>
#include <gpuplan/plan/candidates.hpp>
#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/inplace_vector.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// What a serving plan's paged KV cache must hold for the engine to serve the plan as asked:
/// `batch` sequences of `context` tokens, and at least one sequence of `model_len` tokens (vLLM
/// refuses to start when max_model_len tokens do not fit its KV cache: "ValueError: The model's
/// max seq len (...) is larger than the maximum number of tokens that can be stored in KV cache";
/// SGLang likewise refuses a KV pool below one request). All 0 when no KV cache is modelled
/// (training, a generic workload).
struct kv_demand {
  int batch = 0;
  int context = 0;
  int model_len = 0;
  [[nodiscard]] constexpr bool none() const { return batch == 0; }
};

struct fit_report {
  memory_breakdown per_gpu{};  ///< the most loaded GPU
  /// Memory the plan may use per GPU: the GPU's plannable memory for training; times
  /// gpu_memory_utilization for inference (vLLM's budget).
  data_size capacity{};
  data_size gpu_memory{};      ///< the GPU's plannable memory
  int gpus = 0;                ///< GPUs in the layout
  bool inference = false;
  kv_cache_info kv{};          ///< inference only: the paged KV cache
  kv_demand kv_needed{};       ///< inference of a transformer: what the KV cache must hold
  /// ranked: fitting first, least disruptive first
  inplace_vector<advice, max_advice> options{};

  /// The most loaded GPU's memory within capacity (training: training_memory_verdict::fits).
  [[nodiscard]] constexpr bool memory_fits() const {
    return within_capacity(per_gpu.total(), capacity);
  }
  /// Sequences of kv_needed.context tokens the paged KV cache holds (kv_cache_info::max_batch).
  [[nodiscard]] constexpr int kv_batch() const { return kv.max_batch(kv_needed.context); }
  /// The KV cache holds the batch asked for and one sequence of the longest length allowed;
  /// true when no KV cache is modelled.
  [[nodiscard]] constexpr bool kv_fits() const {
    return kv_needed.none() ||
           (kv_batch() >= kv_needed.batch && kv.max_batch(kv_needed.model_len) >= 1);
  }
  /// The verdict: the memory within capacity and, serving, the KV cache holding the batch.
  [[nodiscard]] constexpr bool fits() const { return memory_fits() && kv_fits(); }
  /// Capacity minus the per-GPU total; negative when it does not fit.
  [[nodiscard]] constexpr data_size headroom() const { return capacity - per_gpu.total(); }
  [[nodiscard]] constexpr array_view<advice> advice_list() const {
    return {options.data(), options.size()};
  }
};

namespace detail {

/// Whether the planner may offer layout l: parallel_layout::check against the model (no throw).
/// A generic workload has no matrix shapes, so it takes data parallelism only (the advice keeps
/// to data parallelism, ZeRO/FSDP, offload and other GPUs).
constexpr bool layout_ok(const transformer_spec& m, const parallel_layout& l) {
  return l.check(m).ok();
}
constexpr bool layout_ok(const generic_workload&, const parallel_layout& l) {
  return l.check().ok() && l.tp == 1 && l.pp == 1 && l.cp == 1 && l.ep == 1;
}
constexpr bool has_matrix_shapes(const transformer_spec&) { return true; }
constexpr bool has_matrix_shapes(const generic_workload&) { return false; }

/// `kv`: whether the workload has a KV cache (a transformer), so kv_needed applies.
constexpr fit_report make_inference_report(const inference_memory_result& r, const gpu_spec& gpu,
                                           const parallel_layout& l, const inference_config& c,
                                           bool kv) {
  detail::check_finite_memory(r.per_gpu);
  fit_report out{};
  out.inference = true;
  out.per_gpu = r.per_gpu;
  out.kv = r.kv;
  if (kv) out.kv_needed = {c.batch, c.context, c.model_len()};
  out.gpu_memory = gpu.plannable_memory();
  out.capacity = c.gpu_memory_utilization * out.gpu_memory;
  out.gpus = l.gpus();
  return out;
}

/// The transformer's serving report (with its KV cache demand).
constexpr fit_report inference_report(const transformer_spec& m, const gpu_spec& gpu,
                                      const parallel_layout& l, const inference_config& c,
                                      const memory_assumptions& a) {
  return make_inference_report(inference_memory(m, gpu, l, c, a), gpu, l, c, true);
}

/// inference_fit (plan/fit.hpp) with the GPUs its advice may suggest given: the fit without
/// the catalog, for the plan headers that compose it.
constexpr fit_report inference_fit_of(const transformer_spec& m, const gpu_spec& gpu,
                                      const parallel_layout& l, const inference_config& c,
                                      const memory_assumptions& a,
                                      array_view<gpu_spec> candidate_gpus,
                                      const candidate_bounds& b) {
  fit_report r = detail::inference_report(m, gpu, l, c, a);
  if (r.fits()) return r;
  detail::advice_list list{};
  auto consider = [&](name_string what, const gpu_spec& g, const parallel_layout& nl,
                      const inference_config& nc, advice_kind kind) {
    const fit_report x = detail::inference_report(m, g, nl, nc, a);
    list.add({what, x.per_gpu.total(), x.capacity, nl.gpus(), x.fits(), kind, nl,
              kind == advice_kind::other_gpu ? g.name : name_string{}});
  };
  // Quantisation of weights and of the KV cache.
  constexpr precision weight_options[] = {precision::fp8, precision::int8, precision::int4};
  for (precision p : weight_options) {
    if (!(bytes_per_element(p) < bytes_per_element(c.weight_dtype))) continue;
    inference_config nc = c;
    nc.weight_dtype = p;
    consider((detail::name_builder{} << to_string(p) << " weights").out, gpu, l, nc,
             advice_kind::configuration);
  }
  if (bytes_per_element(c.kv_dtype) > bytes_per_element(precision::fp8)) {
    inference_config nc = c;
    nc.kv_dtype = precision::fp8;
    consider("fp8 KV cache", gpu, l, nc, advice_kind::configuration);
  }
  // Fewer sequences at once.
  if (r.kv.max_batch(c.context) >= 1 && r.kv.max_batch(c.context) < c.batch) {
    inference_config nc = c;
    nc.batch = r.kv.max_batch(c.context);
    consider((detail::name_builder{} << "batch " << nc.batch << " at context " << c.context).out,
             gpu, l, nc, advice_kind::configuration);
  }
  // Tensor or pipeline parallelism over more GPUs, grown until the plan fits.
  for (const parallel_dim dim : {parallel_dim::tp, parallel_dim::pp}) {
    advice last{};
    bool any = false;
    for_each_growth(l, dim, b.serving_growth, [&](const parallel_layout& nl) {
      if (nl.tp > b.max_tp) return true;
      if (!detail::layout_ok(m, nl)) return false;
      const fit_report x = detail::inference_report(m, gpu, nl, c, a);
      const bool tp = dim == parallel_dim::tp;
      last = {(detail::name_builder{} << (tp ? "tensor parallel " : "pipeline parallel ")
                                      << (tp ? nl.tp : nl.pp) << " (" << nl.gpus() << " GPUs)")
                  .out,
              x.per_gpu.total(), x.capacity, nl.gpus(), x.fits(), advice_kind::more_gpus, nl};
      any = true;
      return last.fits;
    });
    if (any) list.add(last);
  }
  // Another GPU.
  const gpu_spec* best = nullptr;
  for (const gpu_spec& g : candidate_gpus) {
    if (!(g.plannable_memory() > gpu.plannable_memory())) continue;
    const fit_report x = detail::inference_report(m, g, l, c, a);
    if (!x.fits()) continue;
    if (best == nullptr || g.plannable_memory() < best->plannable_memory()) best = &g;
  }
  if (best != nullptr) consider(best->name, *best, l, c, advice_kind::other_gpu);
  list.rank();
  r.options = list.items;
  return r;
}

}  // namespace detail

/// The longest sequence serving_fit takes (inference_config::context is an int).
inline constexpr long long max_sequence_tokens = 2147483647;

/// The memory verdict of a serving deployment (`gpuplan serve`, `capacity`, `cost`): the serving
/// fit of one replica's GPUs holding one sequence of the mix's longest request (prompt + output
/// tokens), and one of max_model_len when it is set: what the engine needs to start. The load is
/// no part of it: concurrency beyond what the KV cache holds queues (serve() caps it at
/// kv_capacity_sequences). No advice is computed (`gpuplan fit --infer` gives it).
constexpr fit_report serving_fit(const serving_plan& p) {
  p.validate();
  inference_config c = p.config;
  c.batch = 1;
  long long longest = 0;  // int + int can overflow
  for (int i = 0; i < p.mix.size(); ++i) {
    const long long n = 1LL * p.mix.at(i).input_tokens + p.mix.at(i).output_tokens;
    if (n > longest) longest = n;
  }
  detail::check_input(longest <= max_sequence_tokens,
                      "serving_fit: a request's prompt + output tokens must be at most 2^31 - 1",
                      static_cast<double>(longest));
  c.context = static_cast<int>(longest);
  const parallel_layout l = detail::memory_layout(p);
  return detail::inference_report(p.model, p.node.gpu, l, c, p.memory);
}

/// Serving fit of a generic workload.
constexpr fit_report inference_fit(const generic_workload& g, const gpu_spec& gpu,
                                   const parallel_layout& l, const inference_config& c,
                                   const memory_assumptions& a = {}) {
  return detail::make_inference_report(inference_memory(g, gpu, l, c, a), gpu, l, c, false);
}

}  // namespace gpuplan
