// gpuplan/specs/layout.hpp: how a job is laid out over GPUs.
#pragma once

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

  [[nodiscard]] constexpr int gpus() const { return dp * tp * pp * cp; }
};

}  // namespace gpuplan
