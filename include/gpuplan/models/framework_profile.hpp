// gpuplan/models/framework_profile.hpp: the named, overridable parameters of the Hugging Face
// transformers + PyTorch profile (framework_kind::transformers) and of the torchtitan profile
// (framework_kind::torchtitan): what each stack does that decides its memory, each with its
// default and where that default comes from. The mechanisms that use them are
// models/framework_memory.hpp and models/torchtitan_memory.hpp; docs/models/framework-memory.md
// explains each term. Override any of them:
// memory_assumptions{.transformers = {.chunk_tokens = 1024}},
// memory_assumptions{.torchtitan = {.gradients_stay_reserved = false}}, or by name from the CLI
// (`--set memory.torchtitan.gradients_stay_reserved=false`).
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

/// The named mechanisms of the torchtitan profile (training_config::framework = torchtitan,
/// models/torchtitan_memory.hpp), each with its default and source.
struct torchtitan_memory_profile {
  /// FSDP2 allocates each block's reduce-scatter output (the sharded fp32 gradients, of which
  /// param.grad are views) on its reduce-scatter stream (torch/distributed/_composable/fsdp/
  /// _fsdp_collectives.py foreach_reduce: `with device_handle.stream(reduce_scatter_stream):
  /// reduce_output = reduce_scatter_input.new_empty(...)`), and the caching allocator reuses a
  /// freed block only on the stream that allocated it (c10/cuda/CUDACachingAllocator.cpp: free
  /// blocks are looked up by (stream, size)). zero_grad(set_to_none) frees the gradients before
  /// the forward pass, but their segments stay reserved for the next backward: the reserved peak
  /// holds them. false: the gradients are not counted at the forward/loss peak.
  bool gradients_stay_reserved = true;
  /// The caching allocator never merges separate segments: the bf16 logits' segment, freed by
  /// `del pred` before loss.backward() (torchtitan train.py), is too small for the fp32
  /// gradients of the cross entropy's backward and stays reserved beside them (the same
  /// mechanism as transformers_profile::stranded_logits_segment).
  bool stranded_logits_segment = true;
  /// Under TP the output layer keeps the logits sharded over the vocabulary and the cross entropy
  /// runs as DTensor's loss parallel (torchtitan 9dec370: loss_parallel_enabled unless
  /// --training.disable_loss_parallel; torch/distributed/tensor/parallel/loss.py). Its fused
  /// backward, _nll_loss_and_log_softmax_backward, returns (grad_input + torch.exp(x)) *
  /// grad_output with grad_input = zeros_like(x): beside the saved log_softmax output x it holds
  /// three fp32 logit-sized tensors at once (grad_input, exp(x), their sum, then the product),
  /// one more than ATen's nll_loss_backward + _log_softmax_backward_data. false: ATen's two.
  bool loss_parallel_backward = true;
};

}  // namespace gpuplan
