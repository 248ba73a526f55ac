// gpuplan/models/assumptions.hpp: every multiplier the memory models use that is not a property
// of the model, the GPU or the layout. Each is a named field with a default and the source of that
// default; where no published measurement backs a default it is marked ESTIMATE. Override any of
// them: `memory_assumptions{.cuda_context = 300 * units::MiB}`.
#pragma once

#include <gpuplan/models/framework_profile.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

struct memory_assumptions {
  // ---- run-time overhead outside PyTorch's tensors (reported as `overhead`) -------------------

  /// CUDA context, loaded kernels and library handles (cuBLAS, cuDNN, NCCL init) per process.
  /// ESTIMATE: about 0.5 GiB with CUDA >= 11.7 lazy module loading (CUDA_MODULE_LOADING=LAZY,
  /// the default since CUDA 12.2), inside the range vLLM's start-up logs report as
  /// "non_torch_memory" beyond the tensors: 0.16-1.79 GiB (vllm-project/vllm PR #10511 and
  /// PR #12126). Not yet measured by this project (docs/validation.md). Eager
  /// module loading (CUDA_MODULE_LOADING=EAGER) loads every kernel and costs 1-2 GiB more.
  data_size cuda_context = 512 * units::MiB;

  /// Fraction of the tensor memory the PyTorch caching allocator keeps reserved but unusable
  /// (fragmentation: max_memory_reserved / max_memory_allocated - 1). ESTIMATE: no published
  /// cross-workload measurement; vLLM's authors expect it "small, since most weight/activation
  /// tensors are pretty big" (vllm-project/vllm PR #2031). Set it from your own
  /// max_memory_reserved / max_memory_allocated.
  double allocator_fragmentation = 0.05;

  /// NCCL's buffer per channel per direction: NCCL_BUFFSIZE, 4 MiB by default (NCCL
  /// documentation, "Environment Variables", NCCL_BUFFSIZE).
  data_size nccl_buffsize = 4 * units::MiB;
  /// NCCL channels per communicator. ESTIMATE: NCCL chooses 2-32 by topology (NCCL_MIN_NCHANNELS
  /// / NCCL_MAX_NCHANNELS, NCCL documentation); 16 is typical of an 8-GPU NVLink node.
  int nccl_channels = 16;

  /// vLLM's CUDA-graph pool, charged before the KV cache is sized only by engines that profile
  /// it (serving_engine::vllm_cudagraph_profiled). ESTIMATE: vLLM's start-up log line "Graph
  /// capturing finished in N secs, took X GiB" reports 0.1-1 GiB for 7B-70B models with the
  /// default capture sizes (up to 512 sequences); 0.5 GiB is the middle of that range.
  data_size cuda_graph_memory = 512 * units::MiB;

  // ---- training working sets (reported as `workspace`) -----------------------------------------

  /// ZeRO-3 / FSDP full shard: layers whose parameters are gathered at once (the layer computing
  /// and the one being prefetched). PyTorch FSDP's default forward/backward prefetch of one unit
  /// (BackwardPrefetch.BACKWARD_PRE, Zhao et al., "PyTorch FSDP", VLDB 2023, sec. 3.3) gives 2.
  int zero3_live_layers = 2;

  /// Full recomputation: the layer being recomputed in backward holds its full (no-recompute)
  /// activations while its gradients are computed (Chen et al. 2016, "Training Deep Nets with
  /// Sublinear Memory Cost", sec. 3: the peak is checkpoints plus one segment). On by default.
  bool full_recompute_working_layer = true;

  // ---- quantisation formats ---------------------------------------------------------------------

  /// bitsandbytes 8-bit optimizers quantise each state block-wise with one fp32 absmax per block
  /// of 2048 values (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization",
  /// sec. 2: block size 2048).
  int adam8bit_block = 2048;

  /// QLoRA NF4: one absmax per 64 weights (Dettmers et al. 2023, "QLoRA", sec. 3: blocksize 64;
  /// the constant nf4_block of specs/transformer.hpp).
  int nf4_block = gpuplan::nf4_block;
  /// QLoRA double quantisation (training_config::qlora_double_quant): one fp32 constant per 256
  /// 8-bit absmax constants (QLoRA, sec. 3; nf4_absmax_block of specs/transformer.hpp).
  int nf4_second_block = nf4_absmax_block;

  /// FP8 training with NVIDIA Transformer Engine keeps the bf16 (or fp32) parameter and caches
  /// FP8 copies of each GEMM weight across micro-batches: the FP8 weight and, on Hopper, its
  /// transpose for the backward GEMMs (Transformer Engine `Linear(..., is_first_microbatch)`,
  /// Float8Tensor transpose cache). 2 one-byte copies per linear-layer parameter.
  int fp8_weight_copies = 2;

  // ---- framework profiles -----------------------------------------------------------------------

  /// What the Hugging Face transformers + PyTorch stack does (training_config::framework =
  /// transformers): models/framework_profile.hpp.
  transformers_profile transformers{};

  /// What torchtitan (FSDP2) does (training_config::framework = torchtitan, dense attention
  /// models without pipeline parallelism): models/framework_profile.hpp, used by
  /// models/torchtitan_memory.hpp.
  torchtitan_memory_profile torchtitan{};

  /// Throws gpuplan::invalid_input naming the field (a compile error in a constant expression).
  constexpr void validate() const {
    detail::check_input(detail::finite_nonnegative(cuda_context.value),
                        "memory_assumptions.cuda_context must be finite and not negative",
                        cuda_context.value);
    detail::check_input(detail::finite_nonnegative(cuda_graph_memory.value),
                        "memory_assumptions.cuda_graph_memory must be finite and not negative",
                        cuda_graph_memory.value);
    detail::check_input(
        detail::finite_nonnegative(allocator_fragmentation) && allocator_fragmentation < 1.0,
        "memory_assumptions.allocator_fragmentation must be in [0, 1)", allocator_fragmentation);
    detail::check_input(detail::finite_nonnegative(nccl_buffsize.value),
                        "memory_assumptions.nccl_buffsize must be finite and not negative",
                        nccl_buffsize.value);
    detail::check_input(nccl_channels >= 0, "memory_assumptions.nccl_channels must not be negative",
                        nccl_channels);
    detail::check_input(zero3_live_layers >= 1,
                        "memory_assumptions.zero3_live_layers must be at least 1",
                        zero3_live_layers);
    detail::check_input(adam8bit_block >= 1, "memory_assumptions.adam8bit_block must be positive",
                        adam8bit_block);
    detail::check_input(nf4_block >= 1 && nf4_second_block >= 1,
                        "memory_assumptions.nf4_block and nf4_second_block must be positive",
                        nf4_block, nf4_second_block);
    detail::check_input(fp8_weight_copies >= 0,
                        "memory_assumptions.fp8_weight_copies must not be negative",
                        fp8_weight_copies);
    transformers.validate();
  }
};

}  // namespace gpuplan
