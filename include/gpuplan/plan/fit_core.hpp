// gpuplan/plan/fit_core.hpp: does it fit? The per-GPU breakdown of the most loaded GPU against its
// capacity, and, when it does not fit, concrete options ranked, each with the per-GPU memory it
// leads to. Everything is constexpr:
//
//   constexpr auto r = gpuplan::training_fit(model, gpu, layout, {.micro_batch = 1, .seq = 8192});
//   static_assert(r.fits());
//
// This header holds the transformer and generic fits with their advice's GPUs given, without the
// GPU catalog: plan/fit.hpp adds training_fit and inference_fit whose advice looks through
// catalog::all_gpus by default. It is the two halves a search needs apart, plus the advice: the
// training verdict (plan/training_verdict.hpp) and the fit report with the serving fit
// (plan/serving_fit.hpp). The plan headers that compose a fit include this one, so they do not
// compile the whole catalog.
#pragma once

#include <gpuplan/plan/serving_fit.hpp>
#include <gpuplan/plan/training_verdict.hpp>
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

}  // namespace gpuplan
