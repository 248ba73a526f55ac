// gpuplan/plan/fit_core.hpp: does it fit? The per-GPU breakdown of the most loaded GPU against its
// capacity, and, when it does not fit, concrete options ranked, each with the per-GPU memory it
// leads to. Everything is constexpr:
//
//   constexpr auto r = gpuplan::training_fit(model, gpu, layout, {.micro_batch = 1, .seq = 8192});
//   static_assert(r.fits());
//
// This header holds the fit without the GPU catalog (serving_fit, the generic workloads' fits,
// and the transformer fits with their advice's GPUs given): plan/fit.hpp adds training_fit and
// inference_fit whose advice looks through catalog::all_gpus by default. The plan headers that
// compose a fit include this one, so they do not compile the whole catalog.
#pragma once

#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/plan/advice.hpp>
#include <gpuplan/plan/candidates.hpp>
#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/framework_memory.hpp>
#include <gpuplan/models/inference_memory.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/models/serving_plan.hpp>
#include <gpuplan/models/training_memory.hpp>
#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/precision_regime.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

#include <array>
#include <cstddef>

#include <string_view>

namespace gpuplan {

/// Memory `need` within `capacity`: the comparison behind every fit verdict.
constexpr bool within_capacity(data_size need, data_size capacity) { return need <= capacity; }

/// The memory verdict of a training plan: the most loaded GPU's memory (framework_training_memory)
/// against the GPU's plannable memory. The one rule `training_fit`, the training search's pruning
/// and every command that takes a training plan (`gpuplan fit`, `train`, `cost`) apply.
struct training_memory_verdict {
  memory_breakdown per_gpu{};  ///< the most loaded GPU
  data_size capacity{};        ///< the GPU's plannable memory
  [[nodiscard]] constexpr bool fits() const { return within_capacity(per_gpu.total(), capacity); }
};

namespace detail {
/// Each input is checked against its own range, but not their sums: memory assumptions far out
/// of the ordinary (an NCCL buffer of 1e308 bytes, valid alone) overflow the total. Refused
/// rather than reported as inf.
constexpr void check_finite_memory(const memory_breakdown& m) {
  check_input(finite(m.total().value),
              "memory: the per-GPU total is not finite: an input or memory_assumptions field far "
              "out of range overflowed it");
}
}  // namespace detail

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

/// What every advice rule of a training plan reads: the memory function (layout, config ->
/// breakdown, and which layouts are valid), the plan, the capacity, and where the options go.
template <class Memory>
struct training_advice_context {
  const Memory& memory;
  const parallel_layout& l;
  const training_config& c;
  data_size capacity;
  advice_list& out;
  bool structured;  ///< the workload has matrix shapes (tensor/pipeline parallelism, LoRA)
  const candidate_bounds& b;

  [[nodiscard]] constexpr data_size total(const parallel_layout& nl,
                                          const training_config& nc) const {
    return memory(nl, nc).total();
  }
  /// The plan changed to (nl, nc) as one option.
  constexpr void consider(name_string what, const parallel_layout& nl, const training_config& nc,
                          advice_kind kind) const {
    const data_size t = total(nl, nc);
    out.add({what, t, capacity, nl.gpus(), t <= capacity, kind, nl});
  }
  [[nodiscard]] constexpr bool transformers() const {
    return c.framework == framework_kind::transformers;
  }
};

/// Sharding of model states over the data-parallel ranks: each higher ZeRO stage.
template <class Memory>
constexpr void sharding_advice(const training_advice_context<Memory>& x) {
  if (x.l.dp * x.l.cp <= 1) return;
  for (int z = x.l.zero + 1; z <= 3; ++z) {
    parallel_layout nl = x.l;
    nl.zero = z;
    x.consider(
        (name_builder{} << "ZeRO stage " << z << (z == 3 ? " (FSDP full shard)" : "")).out, nl,
        x.c, advice_kind::configuration);
  }
}

/// Whether the pure-bf16 lever applies: mixed precision, or 16-bit weights with an fp32 master.
constexpr bool pure_bf16_applies(const training_config& c) {
  return c.amp || (c.master_weights && c.dtype != precision::fp32);
}
/// Whether the LoRA lever applies: a transformer not already trained with an adapter.
constexpr bool lora_applies(const training_config& c, bool structured) {
  return structured && c.lora_rank == 0 && c.qlora_rank == 0;
}
/// LoRA rank 16 on all linear layers, PEFT's usual first setting.
inline constexpr int advice_lora_rank = 16;

/// The transformers profile's own levers, each alone: what Hugging Face users change first.
template <class Memory>
constexpr void transformers_levers(const training_advice_context<Memory>& x) {
  const training_config& c = x.c;
  if (c.recompute != recompute_mode::full) {
    training_config nc = c;
    nc.recompute = recompute_mode::full;
    x.consider("gradient checkpointing (gradient_checkpointing_enable)", x.l, nc,
               advice_kind::configuration);
  }
  if (!c.chunked_loss) {
    training_config nc = c;
    nc.chunked_loss = true;
    x.consider("chunked cross entropy (Liger fused linear CE)", x.l, nc,
               advice_kind::configuration);
  }
  if (pure_bf16_applies(c)) {
    training_config nc = c;
    set_regime(nc, precision_regime::pure);
    if (nc.dtype == precision::fp32) nc.dtype = precision::bf16;
    nc.grad_dtype = nc.dtype;
    x.consider("pure bf16 (params, grads, AdamW states in bf16)", x.l, nc,
               advice_kind::configuration);
  }
  if (lora_applies(c, x.structured)) {
    training_config nc = c;
    nc.lora_rank = advice_lora_rank;
    nc.lora_targets = lora_target::all_linear;
    x.consider("LoRA rank 16 on all linear layers (PEFT)", x.l, nc, advice_kind::configuration);
  }
}

/// The transformers levers together, least disruptive first, stopping as soon as the plan
/// fits: checkpointing, chunked loss, pure bf16, LoRA, then halving the micro-batch.
template <class Memory>
constexpr void transformers_levers_together(const training_advice_context<Memory>& x) {
  training_config nc = x.c;
  name_builder what{};
  what << "together:";
  int used = 0;
  data_size total = x.total(x.l, nc);
  auto apply = [&](bool applies, auto&& change, std::string_view label) {
    if (total <= x.capacity || !applies) return;
    change(nc);
    what << (used++ == 0 ? " " : " + ") << label;
    total = x.total(x.l, nc);
  };
  apply(nc.recompute != recompute_mode::full,
        [](training_config& y) { y.recompute = recompute_mode::full; }, "ckpt");
  apply(!nc.chunked_loss, [](training_config& y) { y.chunked_loss = true; }, "chunked CE");
  apply(pure_bf16_applies(nc),
        [](training_config& y) {
          set_regime(y, precision_regime::pure);
          y.grad_dtype = y.dtype;
        },
        "pure bf16");
  apply(lora_applies(nc, x.structured),
        [](training_config& y) {
          y.lora_rank = advice_lora_rank;
          y.lora_targets = lora_target::all_linear;
        },
        "LoRA 16");
  while (!(total <= x.capacity) && nc.micro_batch > 1) {
    nc.micro_batch /= 2;
    total = x.total(x.l, nc);
  }
  if (nc.micro_batch != x.c.micro_batch)
    what << (used++ == 0 ? " " : " + ") << "micro-batch " << nc.micro_batch;
  if (used >= 2)
    x.out.add({what.out, total, x.capacity, x.l.gpus(), total <= x.capacity,
               advice_kind::configuration, x.l});
}

/// Shorter micro-batches, the same tokens per step by gradient accumulation: the longest that
/// fits, or micro-batch 1.
template <class Memory>
constexpr void smaller_micro_batch(const training_advice_context<Memory>& x) {
  const training_config& c = x.c;
  for (int mb = c.micro_batch / 2; mb >= 1; mb /= 2) {
    training_config nc = c;
    nc.micro_batch = mb;
    if (nc.global_batch == 0 && nc.micro_batches > 0) nc.micro_batches *= c.micro_batch / mb;
    const data_size total = x.total(x.l, nc);
    if (total <= x.capacity || mb == 1) {
      x.out.add({(name_builder{} << "micro-batch " << mb << " (gradient accumulation x"
                                 << c.micro_batch / mb << ")")
                     .out,
                 total, x.capacity, x.l.gpus(), total <= x.capacity,
                 advice_kind::configuration, x.l});
      return;
    }
  }
}

/// Recomputation, optimizer-state quantisation, QLoRA and CPU offload (the offloads modelled
/// for the Megatron/DeepSpeed accounting only).
template <class Memory>
constexpr void configuration_advice(const training_advice_context<Memory>& x) {
  const training_config& c = x.c;
  const parallel_layout& l = x.l;
  const bool hf = x.transformers();
  if (!hf && x.structured && c.recompute == recompute_mode::none) {
    training_config nc = c;
    nc.recompute = recompute_mode::selective;
    x.consider("selective activation recomputation", l, nc, advice_kind::configuration);
  }
  if (!hf && c.recompute != recompute_mode::full) {
    training_config nc = c;
    nc.recompute = recompute_mode::full;
    x.consider("full activation recomputation", l, nc, advice_kind::configuration);
  }
  if (l.dp * l.cp > 1 && l.zero < 3 && c.recompute != recompute_mode::full) {
    parallel_layout nl = l;
    nl.zero = 3;
    training_config nc = c;
    nc.recompute = recompute_mode::full;
    x.consider("ZeRO stage 3 + full recomputation", nl, nc, advice_kind::configuration);
  }
  if (c.optimizer == optimizer_kind::adamw || c.optimizer == optimizer_kind::adam) {
    training_config nc = c;
    nc.optimizer = optimizer_kind::adamw8bit;
    x.consider("8-bit AdamW (bitsandbytes)", l, nc, advice_kind::configuration);
  }
  if (x.structured && c.lora_rank > 0) {
    training_config nc = c;
    nc.qlora_rank = c.lora_rank;
    nc.lora_rank = 0;
    x.consider((name_builder{} << "QLoRA (4-bit NF4 base, rank " << c.lora_rank << ")").out, l,
               nc, advice_kind::configuration);
  }
  if (!hf && c.offload == offload_kind::none) {
    parallel_layout nl = l;
    if (nl.zero < 2 && nl.dp * nl.cp > 1) nl.zero = 2;
    training_config nc = c;
    nc.offload = offload_kind::optimizer;
    x.consider("CPU offload of the optimizer (ZeRO-Offload)", nl, nc,
               advice_kind::configuration);
  }
  if (!hf && c.offload != offload_kind::params) {
    parallel_layout nl = l;
    nl.zero = 3;
    training_config nc = c;
    nc.offload = offload_kind::params;
    x.consider("CPU offload of parameters and optimizer (ZeRO-Infinity)", nl, nc,
               advice_kind::configuration);
  }
}

/// More GPUs along one dimension (ZeRO-3 over more data-parallel ranks, tensor or pipeline
/// parallelism), grown until the plan fits; the last layout tried is the option.
template <class Memory>
constexpr void grow_advice(const training_advice_context<Memory>& x, parallel_dim dim,
                           int growth, const char* what) {
  advice last{};
  bool any = false;
  for_each_growth(x.l, dim, growth, [&](parallel_layout nl) {
    if (dim == parallel_dim::dp) nl.zero = 3;
    if (dim == parallel_dim::tp) {
      if (nl.tp > x.b.max_tp) return true;
      nl.sequence_parallel = true;
    }
    if (!x.memory.valid(nl)) return false;
    const data_size total = x.total(nl, x.c);
    const int degree = dim == parallel_dim::dp ? nl.dp : dim == parallel_dim::tp ? nl.tp : nl.pp;
    last = {(name_builder{} << what << degree << " (" << nl.gpus() << " GPUs)").out, total,
            x.capacity, nl.gpus(), total <= x.capacity, advice_kind::more_gpus, nl};
    any = true;
    return last.fits;
  });
  if (any) x.out.add(last);
}

/// The smallest combined plan: ZeRO-3 and full recomputation with tensor (inside one NVLink
/// domain), pipeline and data parallelism grown by powers of two; fewest GPUs, then least
/// memory.
template <class Memory>
constexpr void combined_advice(const training_advice_context<Memory>& x) {
  advice found{};
  bool any = false;
  training_config nc = x.c;
  nc.recompute = recompute_mode::full;
  for_each_combined(x.l, x.b, [&](const parallel_layout& nl) {
    if (!x.memory.valid(nl)) return;
    if (any && nl.gpus() > found.gpus) return;
    const data_size total = x.total(nl, nc);
    if (!(total <= x.capacity)) return;
    if (any && nl.gpus() == found.gpus && !(total < found.total)) return;
    found = {(name_builder{} << "dp " << nl.dp << " x tp " << nl.tp << " x pp " << nl.pp
                             << (nl.zero == 3 ? ", ZeRO-3" : "") << ", full recompute")
                 .out,
             total, x.capacity, nl.gpus(), true, advice_kind::more_gpus, nl};
    any = true;
  });
  if (any) x.out.add(found);
}

/// Another GPU: the smallest catalog GPU with more memory than `own_memory` on which the plan
/// fits.
template <class Memory>
constexpr void other_gpu_advice(const training_advice_context<Memory>& x,
                                array_view<gpu_spec> gpus, data_size own_memory) {
  const gpu_spec* best = nullptr;
  const data_size need = x.total(x.l, x.c);
  for (const gpu_spec& g : gpus) {
    if (!(g.plannable_memory() > own_memory)) continue;
    if (need > g.plannable_memory()) continue;
    if (best == nullptr || g.plannable_memory() < best->plannable_memory()) best = &g;
  }
  if (best != nullptr)
    x.out.add({best->name, need, best->plannable_memory(), x.l.gpus(), true,
               advice_kind::other_gpu, x.l, best->name});
}

/// Every option for a training plan that does not fit, in this order (advice_list::rank sorts
/// them afterwards): sharding, the transformers levers, configuration changes, more GPUs,
/// another GPU.
template <class Memory>
constexpr void training_advice(const Memory& memory, const parallel_layout& l,
                               const training_config& c, data_size capacity,
                               array_view<gpu_spec> gpus, data_size own_memory,
                               advice_list& out, bool structured, const candidate_bounds& b) {
  const training_advice_context<Memory> x{memory, l, c, capacity, out, structured, b};
  sharding_advice(x);
  const bool hf = x.transformers();
  if (hf) {
    transformers_levers(x);
    transformers_levers_together(x);
    smaller_micro_batch(x);
  }
  configuration_advice(x);
  grow_advice(x, parallel_dim::dp, b.dp_growth, "ZeRO-3 over dp ");
  if (structured && !hf) {  // transformers alone has no tensor or pipeline parallelism
    grow_advice(x, parallel_dim::tp, b.tp_growth, "tensor parallel ");
    grow_advice(x, parallel_dim::pp, b.pp_growth, "pipeline parallel ");
  }
  if (structured && !hf) combined_advice(x);
  other_gpu_advice(x, gpus, own_memory);
}

}  // namespace detail

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

/// The one body of training_fit, for a transformer or a generic workload.
template <class Workload>
constexpr fit_report training_fit_of(const Workload& w, const gpu_spec& gpu,
                                     const parallel_layout& l, const training_config& c,
                                     const memory_assumptions& a,
                                     array_view<gpu_spec> candidate_gpus,
                                     const candidate_bounds& b) {
  gpu.validate_memory();  // a memory plan: the bandwidth and rates may be unknown
  fit_report r{};
  const training_memory_verdict v = training_verdict(w, gpu, l, c, a);
  r.per_gpu = v.per_gpu;
  r.gpu_memory = gpu.plannable_memory();
  r.capacity = v.capacity;
  r.gpus = l.gpus();
  if (!r.fits()) {
    struct memory_fn {
      const Workload& work;
      const memory_assumptions& assume;
      constexpr memory_breakdown operator()(const parallel_layout& nl,
                                            const training_config& nc) const {
        return gpuplan::framework_training_memory(work, nl, nc, assume);
      }
      constexpr bool valid(const parallel_layout& nl) const { return layout_ok(work, nl); }
    };
    advice_list list{};
    training_advice(memory_fn{w, a}, l, c, r.capacity, candidate_gpus, r.gpu_memory, list,
                    has_matrix_shapes(w), b);
    list.rank();
    r.options = list.items;
  }
  return r;
}

}  // namespace detail

namespace detail {

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

}  // namespace detail

namespace detail {

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
