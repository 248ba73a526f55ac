// gpuplan/specs/layout.hpp: how a job is laid out over GPUs, and the checks that a layout fits a
// model and a GPU count.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/transformer.hpp>

namespace gpuplan {

/// Data, tensor, pipeline, context and expert parallel degrees, and the sharding of model state.
/// GPUs = dp x tp x pp x cp. Expert parallelism is carved out of the data- and context-parallel
/// ranks (Megatron-Core's convention): ep divides dp x cp, and it does not add GPUs.
struct parallel_layout {
  int dp = 1;
  int tp = 1;
  int pp = 1;
  int cp = 1;
  int ep = 1;
  /// ZeRO stage 0-3 over the data-parallel group (FSDP full shard = 3, SHARD_GRAD_OP = 2).
  int zero = 0;
  /// FSDP hybrid shard / ZeRO++ hpZ: shard over groups of this many data-parallel ranks and
  /// replicate across groups; 0 means shard over all dp ranks.
  int shard_group = 0;
  bool sequence_parallel = false;  ///< Megatron sequence parallelism (needs tp > 1 to matter)
  int virtual_stages = 1;          ///< interleaved 1F1B model chunks per pipeline rank
  /// Tensor-parallel degree inside the experts (Megatron-Core --expert-tensor-parallel-size);
  /// 0 means "the same as tp", Megatron-Core's default.
  int expert_tp = 0;
  /// Transformer layers on the first and on the last pipeline stage; 0: the even split
  /// (Megatron-LM --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers).
  /// The other stages share the rest evenly. The Llama 3 paper (arXiv:2407.21783 Sec. 3.3.2)
  /// removes one layer from each end stage to balance the embedding and the LM head: 7 + 14 x 8
  /// + 7 = 126 layers over pp 16.
  int first_stage_layers = 0;
  int last_stage_layers = 0;

  /// Most GPUs (and pipeline chunks) a layout may span: 2^24, 16.7 million, two orders of
  /// magnitude beyond the largest clusters built (about 10^5 GPUs). The checks compute the
  /// degrees' products in long long and refuse them past this bound, so that the int products
  /// below (gpus(), shard and expert degrees) are exact: dp = tp = 2^31 - 1 would wrap.
  static constexpr long long max_gpus = 1LL << 24;

  [[nodiscard]] constexpr int gpus() const { return dp * tp * pp * cp; }
  /// Whether the first or the last pipeline stage holds a layer count of its own.
  [[nodiscard]] constexpr bool uneven_stages() const {
    return pp > 1 && (first_stage_layers > 0 || last_stage_layers > 0);
  }
  /// Pipeline stages that share the layers evenly (all but the uneven end stages).
  [[nodiscard]] constexpr int middle_stages() const {
    return pp - (pp > 1 && first_stage_layers > 0 ? 1 : 0) -
           (pp > 1 && last_stage_layers > 0 ? 1 : 0);
  }
  /// Layers of each middle stage of a model of `layers` layers (the even share without uneven
  /// end stages); 0 when the end stages leave none.
  [[nodiscard]] constexpr int middle_stage_layers(int layers) const {
    if (!uneven_stages()) return layers / pp;
    const int rest = layers - first_stage_layers - last_stage_layers;
    return middle_stages() > 0 && rest > 0 ? rest / middle_stages() : 0;
  }
  /// Layers of pipeline stage k (0-based): the end stages' own counts where set; otherwise the
  /// even split, the first layers mod pp stages one more (Megatron-LM's default split).
  [[nodiscard]] constexpr int stage_layers(int layers, int k) const {
    if (!uneven_stages()) return layers / pp + (k < layers % pp ? 1 : 0);
    if (k == 0 && first_stage_layers > 0) return first_stage_layers;
    if (k == pp - 1 && last_stage_layers > 0) return last_stage_layers;
    return middle_stage_layers(layers);
  }
  /// The first layer of pipeline stage k.
  [[nodiscard]] constexpr int stage_first_layer(int layers, int k) const {
    if (!uneven_stages()) {
      const int base = layers / pp, rem = layers % pp;
      return k * base + (k < rem ? k : rem);
    }
    if (k == 0) return 0;
    const int first = first_stage_layers > 0 ? first_stage_layers : middle_stage_layers(layers);
    return first + (k - 1) * middle_stage_layers(layers);
  }
  [[nodiscard]] constexpr int expert_tensor_parallel() const {
    return expert_tp > 0 ? expert_tp : tp;
  }
  /// KV heads a tensor-parallel rank holds: kv_heads / tp, or one (replicated) when
  /// tp > kv_heads (Megatron-LM and vLLM replicate KV heads rather than split one).
  [[nodiscard]] constexpr int kv_heads_per_rank(const transformer_spec& m) const {
    return m.kv_heads >= tp ? m.kv_heads / tp : 1;
  }
  /// Ranks over which ZeRO / FSDP shards non-expert state: the data-parallel ranks times the
  /// context-parallel ranks (which hold the same weights; Megatron-Core's distributed optimizer
  /// shards over this group), or the hybrid-shard group.
  [[nodiscard]] constexpr int shard_degree() const {
    return shard_group > 0 ? shard_group * cp : dp * cp;
  }
  /// Ranks over which expert state is sharded: the expert data-parallel group,
  /// dp x cp x tp / (ep x expert_tp) (Megatron-Core), cut to the hybrid-shard group where set.
  [[nodiscard]] constexpr int expert_shard_degree() const {
    const int edp = dp * cp * tp / (ep * expert_tensor_parallel());
    const int n = shard_group > 0 ? (edp < shard_group * cp ? edp : shard_group * cp) : edp;
    return n > 0 ? n : 1;
  }

  /// The structural checks that need no model: every degree positive, ZeRO stage 0-3, the
  /// hybrid-shard group dividing dp, expert parallelism carved out of dp x cp. `s` is called as
  /// s(condition, message, value, other) for each, stopping at the first that fails (see
  /// detail::raise_problem and detail::record_problem).
  template <class Sink>
  constexpr bool each_check(Sink&& s) const {
    return s(dp >= 1, "layout.dp must be at least 1", dp) &&
           s(tp >= 1, "layout.tp must be at least 1", tp) &&
           s(pp >= 1, "layout.pp must be at least 1", pp) &&
           s(cp >= 1, "layout.cp must be at least 1", cp) &&
           s(ep >= 1, "layout.ep must be at least 1", ep) &&
           s(expert_tp >= 0, "layout.expert_tp must be 0 (same as tp) or positive", expert_tp) &&
           s(zero >= 0 && zero <= 3, "layout.zero must be a ZeRO stage from 0 to 3", zero) &&
           s(shard_group >= 0, "layout.shard_group must be 0 (all dp) or positive",
             shard_group) &&
           s(shard_group == 0 || dp % shard_group == 0,
             "layout.shard_group must divide layout.dp", shard_group, dp) &&
           s(virtual_stages >= 1, "layout.virtual_stages must be at least 1", virtual_stages) &&
           s(first_stage_layers >= 0 && last_stage_layers >= 0,
             "layout.first_stage_layers and last_stage_layers must not be negative",
             first_stage_layers, last_stage_layers) &&
           s(!uneven_stages() || pp > 2,
             "layout.first_stage_layers and last_stage_layers need layout.pp > 2", pp) &&
           // Products in long long, each factor at most 2^31 and each partial product at most
           // max_gpus = 2^24 once checked, so none of them overflows: 2^24 x 2^31 < 2^63.
           s(1LL * dp * tp <= max_gpus, "layout.dp x layout.tp must be at most 16777216 GPUs",
             1LL * dp * tp) &&
           s(1LL * dp * tp * pp <= max_gpus,
             "layout.dp x layout.tp x layout.pp must be at most 16777216 GPUs",
             1LL * dp * tp * pp) &&
           s(1LL * dp * tp * pp * cp <= max_gpus,
             "layout.dp x layout.tp x layout.pp x layout.cp must be at most 16777216 GPUs",
             1LL * dp * tp * pp * cp) &&
           s(1LL * ep * expert_tensor_parallel() <= max_gpus,
             "layout.ep x layout.expert_tp must be at most 16777216 GPUs",
             1LL * ep * expert_tensor_parallel()) &&
           s(1LL * pp * virtual_stages <= max_gpus,
             "layout.pp x layout.virtual_stages must be at most 16777216 pipeline chunks",
             1LL * pp * virtual_stages) &&
           s(virtual_stages == 1 || pp > 1,
             "layout.virtual_stages > 1 needs pipeline parallelism (layout.pp > 1)",
             virtual_stages, pp) &&
           s((dp * cp) % ep == 0, "layout.ep must divide layout.dp x layout.cp", ep, dp * cp) &&
           s((dp * cp * tp) % (ep * expert_tensor_parallel()) == 0,
             "layout.ep x layout.expert_tp must divide dp x cp x tp", ep, expert_tp);
  }

  /// The structural checks and those against a transformer (whose own validate() the caller
  /// has run): tp divides the attention heads; the KV heads divide tp or tp divides them
  /// (replicated KV heads when tp > kv_heads); pp no larger than the layers; the virtual stages
  /// divide the layers of a stage; tp divides the FFN; for MoE, ep divides the experts and
  /// expert_tp the expert FFN; for a dense model ep is 1. cp divides nothing here (the
  /// sequence: see training_config).
  template <class Sink>
  constexpr bool each_check(const transformer_spec& m, Sink&& s) const {
    return each_check(s) && s(m.layers >= 1, "model.layers must be at least 1", m.layers) &&
           s(m.heads >= 1, "model.heads must be at least 1", m.heads) &&
           s(m.kv_heads >= 1, "model.kv_heads must be at least 1", m.kv_heads) &&
           s(m.heads % m.kv_heads == 0, "model.kv_heads must divide model.heads", m.kv_heads,
             m.heads) &&
           s(m.heads % tp == 0, "layout.tp must divide model.heads (the attention heads)", tp,
             m.heads) &&
           s(m.kv_heads % tp == 0 || tp % m.kv_heads == 0,
             "layout.tp and model.kv_heads must divide one another (KV heads are split, or "
             "replicated when tp > kv_heads)",
             tp, m.kv_heads) &&
           s(pp <= m.layers, "layout.pp must not exceed model.layers", pp, m.layers) &&
           s(!uneven_stages() ||
                 (m.layers - first_stage_layers - last_stage_layers > 0 &&
                  (m.layers - first_stage_layers - last_stage_layers) % middle_stages() == 0),
             "layout.first_stage_layers and last_stage_layers must leave a whole number of "
             "layers for every other stage",
             m.layers - first_stage_layers - last_stage_layers, middle_stages()) &&
           s(virtual_stages == 1 ||
                 (uneven_stages() ? middle_stage_layers(m.layers) % virtual_stages == 0
                                  : m.layers % (pp * virtual_stages) == 0),
             "layout.pp x layout.virtual_stages must divide model.layers (with uneven end "
             "stages, virtual_stages must divide a middle stage's layers)",
             pp * virtual_stages, m.layers) &&
           s(m.ffn == 0 || m.ffn % tp == 0, "layout.tp must divide model.ffn", tp, m.ffn) &&
           (m.is_moe()
                ? s(m.moe.experts % ep == 0, "layout.ep must divide model.moe.experts", ep,
                    m.moe.experts) &&
                      s(m.moe.expert_ffn % expert_tensor_parallel() == 0,
                        "layout.expert_tp must divide model.moe.expert_ffn",
                        expert_tensor_parallel(), m.moe.expert_ffn)
                : s(ep == 1, "layout.ep must be 1 for a dense model", ep));
  }

  /// The first problem each_check() finds, without throwing (the planner skips such layouts);
  /// empty when the layout is valid.
  [[nodiscard]] constexpr input_problem check() const {
    detail::record_problem r;
    each_check(r);
    return r.found;
  }
  [[nodiscard]] constexpr input_problem check(const transformer_spec& m) const {
    detail::record_problem r;
    each_check(m, r);
    return r.found;
  }

  /// Throws gpuplan::invalid_input naming the field (a compile error in a constant expression)
  /// when check() finds a problem.
  constexpr void validate() const { each_check(detail::raise_problem{}); }

  /// validate() and the GPU count: dp x tp x pp x cp must equal `gpu_count`.
  constexpr void validate(int gpu_count) const {
    validate();
    detail::check_input(gpus() == gpu_count,
                        "layout.dp x layout.tp x layout.pp x layout.cp must equal the GPU count",
                        gpus(), gpu_count);
  }

  /// The model's own validate(), then check(m), raising what it finds.
  constexpr void validate(const transformer_spec& m) const {
    m.validate();
    each_check(m, detail::raise_problem{});
  }

  /// Both: the model checks and the GPU count.
  constexpr void validate(const transformer_spec& m, int gpu_count) const {
    validate(m);
    validate(gpu_count);
  }

  friend constexpr bool operator==(const parallel_layout&, const parallel_layout&) = default;
};

}  // namespace gpuplan
