// gpuplan/specs/layout.hpp: how a job is laid out over GPUs, and the checks that a layout fits a
// model and a GPU count.
#pragma once

#include <gpuplan/specs/error.hpp>
#include <gpuplan/specs/transformer.hpp>

#include <type_traits>

namespace gpuplan {

namespace detail {

/// Fails when `ok` is false. In a constant expression the throw makes the expression non-constant,
/// so the compiler stops with `message` (and the call's arguments) in its notes; at run time it
/// throws gpuplan::invalid_input with the message and the offending values.
constexpr void check_input(bool ok, const char* message, long long value = 0, long long other = 0) {
  if (ok) return;
  if (std::is_constant_evaluated()) throw invalid_input(message);
  throw_invalid_input(message, value, other);
}

}  // namespace detail

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

  [[nodiscard]] constexpr int gpus() const { return dp * tp * pp * cp; }
  [[nodiscard]] constexpr int expert_tensor_parallel() const { return expert_tp > 0 ? expert_tp : tp; }
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
  /// hybrid-shard group dividing dp. Throws gpuplan::invalid_input naming the field (a compile
  /// error in a constant expression).
  constexpr void validate() const {
    detail::check_input(dp >= 1, "layout.dp must be at least 1", dp);
    detail::check_input(tp >= 1, "layout.tp must be at least 1", tp);
    detail::check_input(pp >= 1, "layout.pp must be at least 1", pp);
    detail::check_input(cp >= 1, "layout.cp must be at least 1", cp);
    detail::check_input(ep >= 1, "layout.ep must be at least 1", ep);
    detail::check_input(expert_tp >= 0, "layout.expert_tp must be 0 (same as tp) or positive",
                        expert_tp);
    detail::check_input(zero >= 0 && zero <= 3, "layout.zero must be a ZeRO stage from 0 to 3",
                        zero);
    detail::check_input(shard_group >= 0, "layout.shard_group must be 0 (all dp) or positive",
                        shard_group);
    detail::check_input(shard_group == 0 || dp % shard_group == 0,
                        "layout.shard_group must divide layout.dp", shard_group, dp);
    detail::check_input(virtual_stages >= 1, "layout.virtual_stages must be at least 1",
                        virtual_stages);
    detail::check_input(virtual_stages == 1 || pp > 1,
                        "layout.virtual_stages > 1 needs pipeline parallelism (layout.pp > 1)",
                        virtual_stages, pp);
    detail::check_input((dp * cp) % ep == 0, "layout.ep must divide layout.dp x layout.cp", ep,
                        dp * cp);
    detail::check_input((dp * cp * tp) % (ep * expert_tensor_parallel()) == 0,
                        "layout.ep x layout.expert_tp must divide dp x cp x tp", ep, expert_tp);
  }

  /// validate() and the GPU count: dp x tp x pp x cp must equal `gpu_count`.
  constexpr void validate(int gpu_count) const {
    validate();
    detail::check_input(gpus() == gpu_count,
                        "layout.dp x layout.tp x layout.pp x layout.cp must equal the GPU count",
                        gpus(), gpu_count);
  }

  /// validate() against a transformer: tp divides the attention heads; the KV heads divide tp
  /// or tp divides them (replicated KV heads when tp > kv_heads); pp no larger than the layers;
  /// the virtual stages divide the layers of a stage; ep divides the experts; expert_tp divides
  /// the expert FFN; cp divides nothing here (the sequence: see training_config).
  constexpr void validate(const transformer_spec& m) const {
    m.validate();
    validate();
    detail::check_input(m.layers >= 1, "model.layers must be at least 1", m.layers);
    detail::check_input(m.heads >= 1, "model.heads must be at least 1", m.heads);
    detail::check_input(m.kv_heads >= 1, "model.kv_heads must be at least 1", m.kv_heads);
    detail::check_input(m.heads % m.kv_heads == 0, "model.kv_heads must divide model.heads",
                        m.kv_heads, m.heads);
    detail::check_input(m.heads % tp == 0, "layout.tp must divide model.heads (the attention heads)",
                        tp, m.heads);
    detail::check_input(m.kv_heads % tp == 0 || tp % m.kv_heads == 0,
                        "layout.tp and model.kv_heads must divide one another (KV heads are "
                        "split, or replicated when tp > kv_heads)",
                        tp, m.kv_heads);
    detail::check_input(pp <= m.layers, "layout.pp must not exceed model.layers", pp,
                        m.layers);
    detail::check_input(m.layers % (pp * virtual_stages) == 0 || virtual_stages == 1,
                        "layout.pp x layout.virtual_stages must divide model.layers",
                        pp * virtual_stages, m.layers);
    detail::check_input(m.ffn % tp == 0 || m.ffn == 0, "layout.tp must divide model.ffn",
                        tp, m.ffn);
    if (m.is_moe()) {
      detail::check_input(m.moe.experts % ep == 0, "layout.ep must divide model.moe.experts", ep,
                          m.moe.experts);
      detail::check_input(m.moe.expert_ffn % expert_tensor_parallel() == 0,
                          "layout.expert_tp must divide model.moe.expert_ffn",
                          expert_tensor_parallel(), m.moe.expert_ffn);
    } else {
      detail::check_input(ep == 1, "layout.ep must be 1 for a dense model", ep);
    }
  }

  /// Both: the model checks and the GPU count.
  constexpr void validate(const transformer_spec& m, int gpu_count) const {
    validate(m);
    validate(gpu_count);
  }
};

}  // namespace gpuplan
