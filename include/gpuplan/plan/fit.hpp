// gpuplan/plan/fit.hpp: does it fit? The per-GPU breakdown of the most loaded GPU against its
// capacity, and, when it does not fit, concrete options ranked, each with the per-GPU memory it
// leads to. Everything is constexpr:
//
//   constexpr auto r = gpuplan::training_fit(model, gpu, layout, {.micro_batch = 1, .seq = 8192});
//   static_assert(r.fits());
#pragma once

#include <gpuplan/catalog/gpus.hpp>
#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/inference_memory.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/models/training_memory.hpp>
#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace gpuplan {

/// One way to make a plan fit, and where it lands.
struct advice {
  name_string change;    ///< what to change, in words: "ZeRO stage 3", "tp 8 (64 GPUs)"
  data_size total{};     ///< per-GPU memory of the most loaded GPU after the change
  data_size capacity{};  ///< the capacity it is compared with (another GPU's, for a GPU change)
  int gpus = 0;          ///< GPUs the changed plan uses
  bool fits = false;
  /// 0: a configuration change on the same GPUs; 1: more GPUs; 2: another GPU model.
  int category = 0;
  /// The changed plan's layout, and for another GPU model that GPU's name (empty: the same GPU).
  parallel_layout layout{};
  name_string gpu{};

  /// Whether o leads to the same plan: the same layout on the same GPU with the same per-GPU
  /// memory (two changes that land there are one option; a change that leaves the memory
  /// unchanged is no option). The configurations are not stored: clang 14's constant evaluator
  /// gives up on fit reports that carry a training_config and an inference_config per option.
  [[nodiscard]] constexpr bool same_plan(const advice& o) const {
    return layout == o.layout && gpu == o.gpu && total == o.total && capacity == o.capacity;
  }
};

inline constexpr std::size_t max_advice = 16;

struct fit_report {
  memory_breakdown per_gpu{};  ///< the most loaded GPU
  /// Memory the plan may use per GPU: the GPU's plannable memory for training; times
  /// gpu_memory_utilization for inference (vLLM's budget).
  data_size capacity{};
  data_size gpu_memory{};      ///< the GPU's plannable memory
  int gpus = 0;                ///< GPUs in the layout
  bool inference = false;
  kv_cache_info kv{};          ///< inference only: the paged KV cache
  std::array<advice, max_advice> options{};  ///< ranked: fitting first, least disruptive first
  int option_count = 0;

  [[nodiscard]] constexpr bool fits() const { return per_gpu.total() <= capacity; }
  /// Capacity minus the per-GPU total; negative when it does not fit.
  [[nodiscard]] constexpr data_size headroom() const { return capacity - per_gpu.total(); }
  [[nodiscard]] constexpr std::span<const advice> advice_list() const {
    return {options.data(), static_cast<std::size_t>(option_count)};
  }
};

namespace detail {

/// A name_string built from pieces at compile time: text and integers.
struct name_builder {
  name_string out{};
  std::size_t n = 0;
  constexpr name_builder& operator<<(std::string_view s) {
    for (char c : s)
      if (n < name_string::capacity) out.chars[n++] = c;
    return *this;
  }
  constexpr name_builder& operator<<(int v) {
    char digits[12]{};
    int len = 0;
    long long x = v;
    if (x < 0) {
      *this << "-";
      x = -x;
    }
    do {
      digits[len++] = static_cast<char>('0' + x % 10);
      x /= 10;
    } while (x > 0 && len < 12);
    while (len > 0)
      if (n < name_string::capacity) out.chars[n++] = digits[--len];
      else --len;
    return *this;
  }
};

struct advice_list {
  std::array<advice, max_advice> items{};
  int count = 0;
  /// Adds a unless an option already listed leads to the same plan (the first name stays).
  constexpr void add(const advice& a) {
    for (int i = 0; i < count; ++i)
      if (items[static_cast<std::size_t>(i)].same_plan(a)) return;
    if (count < static_cast<int>(max_advice)) items[static_cast<std::size_t>(count++)] = a;
  }
  /// Fitting first; then configuration changes before more GPUs before another GPU; then the
  /// smaller per-GPU total first.
  constexpr void rank() {
    auto before = [](const advice& x, const advice& y) {
      if (x.fits != y.fits) return x.fits;
      if (x.category != y.category) return x.category < y.category;
      if (x.gpus != y.gpus) return x.gpus < y.gpus;
      return x.total < y.total;
    };
    for (int i = 1; i < count; ++i)
      for (int j = i; j > 0 && before(items[static_cast<std::size_t>(j)],
                                       items[static_cast<std::size_t>(j - 1)]);
           --j) {
        const advice tmp = items[static_cast<std::size_t>(j)];
        items[static_cast<std::size_t>(j)] = items[static_cast<std::size_t>(j - 1)];
        items[static_cast<std::size_t>(j - 1)] = tmp;
      }
  }
};

template <class Memory>
constexpr void training_advice(const Memory& memory, const parallel_layout& l,
                               const training_config& c, data_size capacity,
                               std::span<const gpu_spec> gpus, data_size own_memory,
                               advice_list& out, bool structured) {
  auto consider = [&](name_string what, const parallel_layout& nl, const training_config& nc,
                      int category) {
    const data_size total = memory(nl, nc).total();
    out.add({what, total, capacity, nl.gpus(), total <= capacity, category, nl});
  };
  // Sharding of model states over the data-parallel ranks.
  if (l.dp * l.cp > 1)
    for (int z = l.zero + 1; z <= 3; ++z) {
      parallel_layout nl = l;
      nl.zero = z;
      consider(
          (detail::name_builder{} << "ZeRO stage " << z << (z == 3 ? " (FSDP full shard)" : ""))
              .out,
          nl, c, 0);
    }
  // Recomputation.
  if (structured && c.recompute == recompute_kind::none) {
    training_config nc = c;
    nc.recompute = recompute_kind::selective;
    consider("selective activation recomputation", l, nc, 0);
  }
  if (c.recompute != recompute_kind::full) {
    training_config nc = c;
    nc.recompute = recompute_kind::full;
    consider("full activation recomputation", l, nc, 0);
  }
  if (l.dp * l.cp > 1 && l.zero < 3 && c.recompute != recompute_kind::full) {
    parallel_layout nl = l;
    nl.zero = 3;
    training_config nc = c;
    nc.recompute = recompute_kind::full;
    consider("ZeRO stage 3 + full recomputation", nl, nc, 0);
  }
  // Optimizer-state quantisation.
  if (c.optimizer == optimizer_kind::adamw || c.optimizer == optimizer_kind::adam) {
    training_config nc = c;
    nc.optimizer = optimizer_kind::adamw8bit;
    consider("8-bit AdamW (bitsandbytes)", l, nc, 0);
  }
  if (structured && c.lora_rank > 0) {
    training_config nc = c;
    nc.qlora_rank = c.lora_rank;
    nc.lora_rank = 0;
    consider((detail::name_builder{} << "QLoRA (4-bit NF4 base, rank " << c.lora_rank << ")").out,
             l, nc, 0);
  }
  // CPU offload.
  if (c.offload == offload_kind::none) {
    parallel_layout nl = l;
    if (nl.zero < 2 && nl.dp * nl.cp > 1) nl.zero = 2;
    training_config nc = c;
    nc.offload = offload_kind::optimizer;
    consider("CPU offload of the optimizer (ZeRO-Offload)", nl, nc, 0);
  }
  if (c.offload != offload_kind::params) {
    parallel_layout nl = l;
    nl.zero = 3;
    training_config nc = c;
    nc.offload = offload_kind::params;
    consider("CPU offload of parameters and optimizer (ZeRO-Infinity)", nl, nc, 0);
  }
  // More GPUs: FSDP over more data-parallel ranks; tensor or pipeline parallelism.
  {
    advice last{};
    bool any = false;
    for (int d = l.dp * 2; d <= l.dp * 64; d *= 2) {
      parallel_layout nl = l;
      nl.dp = d;
      nl.zero = 3;
      if (!memory.valid(nl)) continue;
      const data_size total = memory(nl, c).total();
      last = {(name_builder{} << "ZeRO-3 over dp " << d << " (" << nl.gpus() << " GPUs)").out,
              total, capacity, nl.gpus(), total <= capacity, 1, nl};
      any = true;
      if (last.fits) break;
    }
    if (any) out.add(last);
  }
  if (structured) {
    for (int dim = 0; dim < 2; ++dim) {
      advice last{};
      bool any = false;
      for (int n = 2; n <= (dim == 0 ? 8 : 128); n *= 2) {
        parallel_layout nl = l;
        if (dim == 0) {
          nl.tp = l.tp * n;
          if (nl.tp > 8 * l.tp || nl.tp > 64) break;
          nl.sequence_parallel = true;
        } else {
          nl.pp = l.pp * n;
        }
        if (!memory.valid(nl)) continue;
        const data_size total = memory(nl, c).total();
        last = {(name_builder{} << (dim == 0 ? "tensor parallel " : "pipeline parallel ")
                                << (dim == 0 ? nl.tp : nl.pp) << " (" << nl.gpus() << " GPUs)")
                    .out,
                total, capacity, nl.gpus(), total <= capacity, 1, nl};
        any = true;
        if (last.fits) break;
      }
      if (any) out.add(last);
    }
  }
  // The smallest combined plan: ZeRO-3 and full recomputation with tensor (up to 8, one NVLink
  // domain), pipeline and data parallelism grown by powers of two; fewest GPUs, then least
  // memory.
  if (structured) {
    advice found{};
    bool any = false;
    training_config nc = c;
    nc.recompute = recompute_kind::full;
    for (int dm = 1; dm <= 8; dm *= 2)
      for (int tm = 1; tm <= 8; tm *= 2)
        for (int pm = 1; pm <= 16; pm *= 2) {
          parallel_layout nl = l;
          nl.dp = l.dp * dm;
          nl.tp = l.tp * tm;
          nl.pp = l.pp * pm;
          nl.sequence_parallel = nl.tp > 1;
          if (nl.dp * nl.cp > 1) nl.zero = 3;
          if (nl.tp > 8 && tm > 1) continue;
          if (dm * tm * pm == 1 || !memory.valid(nl)) continue;
          if (any && nl.gpus() > found.gpus) continue;
          const data_size total = memory(nl, nc).total();
          if (!(total <= capacity)) continue;
          if (any && nl.gpus() == found.gpus && !(total < found.total)) continue;
          found = {(name_builder{} << "dp " << nl.dp << " x tp " << nl.tp << " x pp " << nl.pp
                                   << (nl.zero == 3 ? ", ZeRO-3" : "") << ", full recompute")
                       .out,
                   total, capacity, nl.gpus(), true, 1, nl};
          any = true;
        }
    if (any) out.add(found);
  }
  // Another GPU: the smallest catalog GPU with more memory on which the plan fits.
  const gpu_spec* best = nullptr;
  data_size best_total{};
  const data_size need = memory(l, c).total();
  for (const gpu_spec& g : gpus) {
    if (!(g.plannable_memory() > own_memory)) continue;
    if (need > g.plannable_memory()) continue;
    if (best == nullptr || g.plannable_memory() < best->plannable_memory()) {
      best = &g;
      best_total = need;
    }
  }
  if (best != nullptr)
    out.add({best->name, best_total, best->plannable_memory(), l.gpus(), true, 2, l, best->name});
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
                                     std::span<const gpu_spec> candidate_gpus) {
  gpu.validate();
  fit_report r{};
  r.per_gpu = gpuplan::training_memory(w, l, c, a);
  r.gpu_memory = gpu.plannable_memory();
  r.capacity = r.gpu_memory;
  r.gpus = l.gpus();
  if (!r.fits()) {
    struct memory_fn {
      const Workload& work;
      const memory_assumptions& assume;
      constexpr memory_breakdown operator()(const parallel_layout& nl,
                                            const training_config& nc) const {
        return gpuplan::training_memory(work, nl, nc, assume);
      }
      constexpr bool valid(const parallel_layout& nl) const { return layout_ok(work, nl); }
    };
    advice_list list{};
    training_advice(memory_fn{w, a}, l, c, r.capacity, candidate_gpus, r.gpu_memory, list,
                    has_matrix_shapes(w));
    list.rank();
    r.options = list.items;
    r.option_count = list.count;
  }
  return r;
}

}  // namespace detail

/// Training fit of a transformer on `gpu` GPUs laid out as `l`. `candidate_gpus` are the GPUs
/// the advice may suggest instead (without the argument: every GPU of catalog::all_gpus).
constexpr fit_report training_fit(const transformer_spec& m, const gpu_spec& gpu,
                                  const parallel_layout& l, const training_config& c,
                                  const memory_assumptions& a,
                                  std::span<const gpu_spec> candidate_gpus) {
  return detail::training_fit_of(m, gpu, l, c, a, candidate_gpus);
}

constexpr fit_report training_fit(const transformer_spec& m, const gpu_spec& gpu,
                                  const parallel_layout& l, const training_config& c,
                                  const memory_assumptions& a = {}) {
  return training_fit(m, gpu, l, c, a, std::span<const gpu_spec>{catalog::all_gpus});
}

/// Training fit of a generic workload (data parallelism and ZeRO/FSDP only).
constexpr fit_report training_fit(const generic_workload& g, const gpu_spec& gpu,
                                  const parallel_layout& l, const training_config& c,
                                  const memory_assumptions& a,
                                  std::span<const gpu_spec> candidate_gpus) {
  return detail::training_fit_of(g, gpu, l, c, a, candidate_gpus);
}

constexpr fit_report training_fit(const generic_workload& g, const gpu_spec& gpu,
                                  const parallel_layout& l, const training_config& c,
                                  const memory_assumptions& a = {}) {
  return training_fit(g, gpu, l, c, a, std::span<const gpu_spec>{catalog::all_gpus});
}

namespace detail {

constexpr fit_report make_inference_report(const inference_memory_result& r, const gpu_spec& gpu,
                                           const parallel_layout& l, const inference_config& c) {
  fit_report out{};
  out.inference = true;
  out.per_gpu = r.per_gpu;
  out.kv = r.kv;
  out.gpu_memory = gpu.plannable_memory();
  out.capacity = c.gpu_memory_utilization * out.gpu_memory;
  out.gpus = l.gpus();
  return out;
}

}  // namespace detail

/// Serving fit: weights, KV cache for c.batch sequences of c.context tokens, workspace and
/// overhead against gpu_memory_utilization of the GPU; the paged KV cache's capacity in `kv`.
constexpr fit_report inference_fit(const transformer_spec& m, const gpu_spec& gpu,
                                   const parallel_layout& l, const inference_config& c,
                                   const memory_assumptions& a,
                                   std::span<const gpu_spec> candidate_gpus) {
  fit_report r = detail::make_inference_report(inference_memory(m, gpu, l, c, a), gpu, l, c);
  if (r.fits()) return r;
  detail::advice_list list{};
  auto consider = [&](name_string what, const gpu_spec& g, const parallel_layout& nl,
                      const inference_config& nc, int category) {
    const fit_report x =
        detail::make_inference_report(inference_memory(m, g, nl, nc, a), g, nl, nc);
    list.add({what, x.per_gpu.total(), x.capacity, nl.gpus(), x.fits(), category, nl,
              category == 2 ? g.name : name_string{}});
  };
  // Quantisation of weights and of the KV cache.
  constexpr precision weight_options[] = {precision::fp8, precision::int8, precision::int4};
  for (precision p : weight_options) {
    if (!(bytes_per_element(p) < bytes_per_element(c.weight_dtype))) continue;
    inference_config nc = c;
    nc.weight_dtype = p;
    consider((detail::name_builder{} << to_string(p) << " weights").out, gpu, l, nc, 0);
  }
  if (bytes_per_element(c.kv_dtype) > bytes_per_element(precision::fp8)) {
    inference_config nc = c;
    nc.kv_dtype = precision::fp8;
    consider("fp8 KV cache", gpu, l, nc, 0);
  }
  // Fewer sequences at once.
  if (r.kv.max_batch(c.context) >= 1 && r.kv.max_batch(c.context) < c.batch) {
    inference_config nc = c;
    nc.batch = r.kv.max_batch(c.context);
    consider((detail::name_builder{} << "batch " << nc.batch << " at context " << c.context).out,
             gpu, l, nc, 0);
  }
  // Tensor or pipeline parallelism over more GPUs.
  for (int dim = 0; dim < 2; ++dim) {
    advice last{};
    bool any = false;
    for (int n = 2; n <= 64; n *= 2) {
      parallel_layout nl = l;
      if (dim == 0) nl.tp = l.tp * n;
      else nl.pp = l.pp * n;
      if (nl.tp > 64) break;
      if (!detail::layout_ok(m, nl)) continue;
      const fit_report x =
          detail::make_inference_report(inference_memory(m, gpu, nl, c, a), gpu, nl, c);
      last = {(detail::name_builder{} << (dim == 0 ? "tensor parallel " : "pipeline parallel ")
                                      << (dim == 0 ? nl.tp : nl.pp) << " (" << nl.gpus()
                                      << " GPUs)")
                  .out,
              x.per_gpu.total(), x.capacity, nl.gpus(), x.fits(), 1, nl};
      any = true;
      if (last.fits) break;
    }
    if (any) list.add(last);
  }
  // Another GPU.
  const gpu_spec* best = nullptr;
  for (const gpu_spec& g : candidate_gpus) {
    if (!(g.plannable_memory() > gpu.plannable_memory())) continue;
    const fit_report x = detail::make_inference_report(inference_memory(m, g, l, c, a), g, l, c);
    if (!x.fits()) continue;
    if (best == nullptr || g.plannable_memory() < best->plannable_memory()) best = &g;
  }
  if (best != nullptr) consider(best->name, *best, l, c, 2);
  list.rank();
  r.options = list.items;
  r.option_count = list.count;
  return r;
}

constexpr fit_report inference_fit(const transformer_spec& m, const gpu_spec& gpu,
                                   const parallel_layout& l, const inference_config& c,
                                   const memory_assumptions& a = {}) {
  return inference_fit(m, gpu, l, c, a, std::span<const gpu_spec>{catalog::all_gpus});
}

/// Serving fit of a generic workload.
constexpr fit_report inference_fit(const generic_workload& g, const gpu_spec& gpu,
                                   const parallel_layout& l, const inference_config& c,
                                   const memory_assumptions& a = {}) {
  return detail::make_inference_report(inference_memory(g, gpu, l, c, a), gpu, l, c);
}

}  // namespace gpuplan
