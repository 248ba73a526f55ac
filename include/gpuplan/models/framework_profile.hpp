// gpuplan/models/framework_profile.hpp: the named, overridable parameters of the Hugging Face
// transformers + PyTorch profile (framework_kind::transformers): what the stack does that decides
// its memory, each with its default and where that default comes from. The mechanism that uses
// them is models/framework_memory.hpp; docs/models/framework-memory.md explains each term.
// Override any of them: memory_assumptions{.transformers = {.chunk_tokens = 1024}}.
#pragma once

#include <gpuplan/specs/layout.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

struct transformers_profile {
  /// Device memory the CUDA context, loaded kernels and libraries (cuBLAS, cuDNN) hold outside
  /// PyTorch's caching allocator. Measured: a process that has run one bf16 matrix product holds
  /// 0.756 GiB of device memory of which 0.096 GiB is in the allocator (H100 80GB HBM3, driver
  /// 580.159.04, CUDA 13.0, PyTorch 2.11, 2026-11-23, gpuplan's calibration set; nvmlDevice-
  /// GetComputeRunningProcesses minus torch.cuda.memory_reserved()).
  data_size cuda_context = 0.66 * units::GiB;

  /// The loss upcasts the logits to fp32 before the cross entropy: transformers'
  /// ForCausalLMLoss does `logits = logits.float()` (src/transformers/loss/loss_utils.py), so
  /// the forward pass holds the bf16 logits, their fp32 copy and log_softmax's fp32 output.
  bool loss_upcast_fp32 = true;

  /// torch.autocast caches the low-precision copy of every leaf tensor that requires grad until
  /// the autocast region exits (cache_enabled=True is the default; aten/src/ATen/autocast_mode.cpp
  /// cached_cast): under amp every weight has a bf16 copy during the forward pass.
  bool autocast_weight_cache = true;

  /// The caching allocator never merges separate cudaMalloc segments
  /// (c10/cuda/CUDACachingAllocator.cpp: blocks are split and merged only inside a segment):
  /// the bf16 logits' segment, freed at the end of the forward pass, is too small for the fp32
  /// b x s x vocab gradients of the cross entropy's backward, which take new segments, and
  /// stays reserved. Off: no reserve beyond the allocations.
  bool stranded_logits_segment = true;

  /// sdpa gets K and V with their own kv_heads (enable_gqa, PyTorch >= 2.5 and no attention
  /// mask: transformers' use_gqa_in_sdpa). false: repeat_kv expands K and V to all heads first
  /// and sdpa saves the expanded copies (older PyTorch, or a padding mask).
  bool sdpa_native_gqa = true;

  /// Tokens per chunk of the fused linear cross entropy (training_config::chunked_loss). 0:
  /// Liger Kernel's rule, next_power_of_2(ceil(b*s / ceil(vocab / hidden)))
  /// (liger_kernel/ops/fused_linear_cross_entropy.py), which keeps one chunk's logits about the
  /// size of the hidden states.
  int chunk_tokens = 0;

  /// DistributedDataParallel's gradient buckets are copies of the gradients unless
  /// gradient_as_bucket_view=True (PyTorch DistributedDataParallel documentation: the default
  /// False keeps both; True "can reduce peak memory usage, where the saved memory size will be
  /// equal to the total gradients size"). Applies with dp > 1 and no ZeRO/FSDP sharding.
  bool ddp_bucket_copy = true;

  /// Throws gpuplan::invalid_input naming the field (a compile error in a constant expression).
  constexpr void validate() const {
    detail::check_input(cuda_context.value >= 0.0 && cuda_context.value - cuda_context.value == 0.0,
                        "memory_assumptions.transformers.cuda_context must be finite and not "
                        "negative");
    detail::check_input(chunk_tokens >= 0,
                        "memory_assumptions.transformers.chunk_tokens must not be negative",
                        chunk_tokens);
  }
};

}  // namespace gpuplan
