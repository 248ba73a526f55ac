// gpuplan/models/training_step.hpp: the time of one training iteration, its breakdown, MFU and
// time to train, for a transformer on a cluster under a parallel layout.
//
// The model follows one micro-batch through one pipeline stage, then the pipeline schedule, then
// what comes after the last backward (gradient reduction, optimizer step). Every rate is a
// mechanism with a named parameter (step_assumptions), not a fitted efficiency per case.
//
// Per layer and micro-batch, per GPU (T = micro_batch x seq / cp tokens):
//   GEMMs        Q/K/V, output, FFN (or the routed experts' share under uniform routing), at the
//                GPU's dense peak for the precision x its measured max achievable matmul fraction
//                (gpu_spec::kernels) x the wave-quantisation efficiency of the GEMM's tiles over
//                the SMs; or the bytes the GEMM moves over HBM, whichever is slower, + the launch
//                time (models/kernels.hpp, the kernel layer serving uses too). Backward = 2x
//                forward (data and weight gradients, same shapes).
//   attention    fused (flash) kernels: 4 T keys q / tp FLOP forward at a sequence-dependent
//                fraction of peak (measured); without flash: two batched GEMMs per head, plus the
//                softmax / mask / dropout passes over the b x heads x s x s scores through HBM.
//   memory-bound norms, (bias-dropout-)residual adds, activation, rotary, and without flash the
//                softmax and dropout over the scores: the bytes each fused kernel reads and
//                writes, forward and backward, over the achievable HBM bandwidth.
//   tensor-par.  without sequence parallelism 2 all-reduces forward and 2 backward of T x h
//                elements; with it all-gathers and reduce-scatters of the same volume
//                (Korthikanti et al. 2022, Sec. 4.2.2), minus the `tp_overlap` fraction hidden.
//   context-par. ring attention: cp - 1 KV exchanges forward, 2x backward, overlapped with the
//                attention kernels; only what exceeds them is exposed. torchtitan: PyTorch's
//                ring attention (torch_ring_attention_comm / _bytes): K/V at the query heads,
//                dK/dV in fp32, exposed under compile, the fp32 merge as memory-bound bytes.
//   expert-par.  dispatch and combine all-to-all forward and backward.
//   recompute    selective: the attention core forward again; full: the whole layer forward
//                again, including its tensor-parallel communication.
//   LoRA, QLoRA  a frozen base: forward and data-gradient GEMMs only; the adapters' GEMMs and
//                (transformers) PEFT's eager kernels per adapter; QLoRA's NF4 dequantisation of
//                each base weight before its forward and data-gradient GEMMs; only the adapters
//                reduced and updated (docs/models/training-time.md, "LoRA and QLoRA").
// Pipeline (Narayanan et al. 2021, Sec. 2.2): with m micro-batches, v virtual stages and stage
// times t_i (the first stage holds the embedding, the last the LM head and loss),
//   pipeline = m x max_i t_i + (sum_i t_i - max_i t_i) / v
// which is (m + (p - 1)/v) t for even stages; the excess over m x max is the bubble. Point-to-
// point activations (T x h / tp elements, Megatron's scatter-gather) cross between stages
// forward and backward for every micro-batch and virtual stage.
// After the pipeline: the dense gradients of the stage reduced over dp x cp (all-reduce, or
// reduce-scatter with the distributed optimizer / ZeRO), bucketed and overlapped with the last
// micro-batch's backward except for the last bucket; the distributed optimizer's parameter
// all-gather overlapped with the next forward; ZeRO-3 gathers per micro-batch, prefetched
// behind compute (torchtitan's FSDP2 under PP: once a step, its gradients reduced after the
// stage's last backward). The optimizer step: Adam's bytes per local parameter over HBM, or with
// CPU offload the gradients and parameters over PCIe and the step at the CPU's rate. Data: the
// step's tokens read from storage, prefetched behind the step.
#pragma once

#include <gpuplan/models/collectives.hpp>
#include <gpuplan/models/kernels.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/models/placement.hpp>
#include <gpuplan/models/scan_kernels.hpp>
#include <gpuplan/models/flops.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/network.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/units.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace gpuplan {

/// How context parallelism exchanges keys and values.
enum class context_parallel_kind : unsigned char {
  /// Ring attention (Megatron-Core / Transformer Engine): cp - 1 point-to-point KV exchanges
  /// forward and twice that backward, overlapped with the attention kernels.
  ring,
  /// All-gather of K and V before attention and reduce-scatter of their gradients after it, not
  /// overlapped (Llama 3 paper, Sec. 3.3.2: chosen for simplicity and masks, its latency exposed).
  all_gather,
};
inline constexpr enumerator<context_parallel_kind> context_parallel_kind_names[] = {
    {context_parallel_kind::ring, "ring"},
    {context_parallel_kind::all_gather, "all_gather"},
};
constexpr const auto& enumerators(context_parallel_kind) { return context_parallel_kind_names; }

/// How the gradients of a step's micro-batches are summed, and what that costs per micro-batch.
enum class grad_accumulation_kind : unsigned char {
  /// By training_config::framework: megatron -> fused, transformers -> autograd.
  automatic,
  /// No pass of its own: the weight-gradient GEMM accumulates into the gradient buffer
  /// (Megatron-LM's --gradient-accumulation-fusion, on by default: fused_weight_gradient_mlp_cuda
  /// writes into main_grad).
  fused,
  /// Autograd adds each micro-batch's gradient into param.grad: read both, write one, for every
  /// micro-batch after the first (PyTorch's AccumulateGrad; Hugging Face Trainer's
  /// gradient_accumulation_steps).
  autograd,
  /// DeepSpeed's BF16_Optimizer in its pipeline engine (Megatron-DeepSpeed with bf16, as BLOOM
  /// trained): after every micro-batch's backward, `hp_grad.add_(lp.grad.to(fp32))` for each
  /// parameter (deepspeed/runtime/pipe/engine.py _exec_backward_pass calls
  /// optimizer.update_hp_grads; deepspeed/runtime/bf16_optimizer.py): read the bf16 gradient (2 B),
  /// write its fp32 copy (4), read it and the fp32 accumulator (8), write the accumulator (4).
  deepspeed_bf16,
};
inline constexpr enumerator<grad_accumulation_kind> grad_accumulation_kind_names[] = {
    {grad_accumulation_kind::automatic, "automatic"},
    {grad_accumulation_kind::fused, "fused"},
    {grad_accumulation_kind::autograd, "autograd"},
    {grad_accumulation_kind::deepspeed_bf16, "deepspeed_bf16"},
};
constexpr const auto& enumerators(grad_accumulation_kind) { return grad_accumulation_kind_names; }

/// The knobs of the step-time model. Each default says where it comes from.
///
/// The software that runs the step is not an assumption here: it is `training_config::framework`
/// (specs/training.hpp), the same setting the memory model reads. megatron: Megatron-LM /
/// Megatron-Core with Transformer Engine (fused norms, bias-dropout-add, activations and QKV;
/// kernels large enough that launch cost hides behind them). transformers: eager PyTorch as
/// Hugging Face transformers runs it (every elementwise op its own kernel, separate Q, K, V
/// projections, fp32 logits and loss, every kernel at least `eager_op_floor` long).
struct step_assumptions {
  /// Shortest time of one kernel in eager PyTorch (Python dispatch and launch): a 1 MiB
  /// `copy_` on one H100 SXM under PyTorch 2.11 took about 10.7 us (195 GB/s for 2 MiB moved)
  /// where HBM would need 0.7 us.
  duration eager_op_floor = 10.0 * units::us;
  /// Backward kernels and bytes of an elementwise op relative to its forward (autograd's
  /// backward of a unary op reads the saved input and the gradient and writes one gradient;
  /// binary ops write two).
  double eager_backward_factor = 2.0;
  /// Forward kernels of one compiled transformer block's elementwise work
  /// (training_config::compile): Inductor fuses pointwise ops and reductions over the same
  /// iteration space and stops at GEMMs and attention (extern kernels). A torchtitan Llama block
  /// (torchtitan/models/llama3/model.py TransformerBlock: attention_norm, wq/wk/wv, rotary on xq
  /// and xk, SDPA, wo, residual add, ffn_norm, w1/w3, silu(w1) * w3, w2, residual add) leaves
  /// seven such regions: the first RMSNorm, rotary on xq, rotary on xk, the attention output's
  /// transpose to contiguous, the residual add fused with ffn_norm, silu x w3, the last residual
  /// add. ESTIMATE: counted from the block and Inductor's fusion rules, not from a trace. Each is
  /// at least kernel_overhead long; the backward eager_backward_factor times as many.
  double compiled_layer_kernels = 7.0;
  // ---- compute -------------------------------------------------------------------------------
  /// Largest fraction of the dense tensor peak a GEMM reaches. 0: the GPU's own figure, its
  /// maximum achievable matmul FLOPS (MAMF) from gpu_spec::kernels (default_matmul_efficiency in
  /// models/kernels.hpp; the measurements in specs/kernel_efficiency.hpp), or
  /// unmeasured_matmul_fraction (0.807) for a GPU without one.
  double matmul_peak_fraction = 0.0;
  /// Sustained-load factor on that fraction: MAMF is the best of a short sweep, but a training
  /// step keeps the GPU at its power limit and the clocks drop: sustained_matmul_fraction (0.87,
  /// models/kernels.hpp: the H100 SXM's seven largest bf16 products, mean 713 TFLOP/s, against
  /// 818 for the best mid-size one), which serving applies too.
  double sustained_fraction = sustained_matmul_fraction;
  /// Output tile of a GEMM kernel (rows x columns) used for wave quantisation: cuBLAS' common
  /// 128 x 128 CTA tile on Ampere and Hopper (CUTLASS default GEMM configurations).
  int gemm_tile_m = 128;
  int gemm_tile_n = 128;
  /// Split-K: a GEMM with few tiles and a deep K is split in slices of at least this depth so
  /// that more SMs work (cuBLAS heuristics do this for narrow products).
  int split_k_min_depth = 1024;
  /// Fixed cost per GEMM kernel (launch, prologue, epilogue): kernel_launch_time, 4 us
  /// (models/kernels.hpp).
  duration kernel_overhead = kernel_launch_time;
  /// Host (CPU) time to launch one Triton kernel from Python, as mamba_ssm's SSD and fla's gated
  /// delta rule launch theirs (JITFunction.run and the autotuner: binding the arguments, the cache
  /// key, the C launcher). The host enqueues while the GPU runs earlier kernels, so a chunked
  /// scan's kernel sequence takes the longer of its GPU time and its launches
  /// (detail::launch_bound), never their sum. Default: Triton 3.5.0's JIT path, 13.2 us wall time
  /// a launch of a kernel of 19 arguments (meta-pytorch/tritonbench pull request #669,
  /// 2025-11-25, nop_triton_kernel at x_val 19; 5.7 us without arguments). mamba_ssm's kernels
  /// take more (_state_passing_fwd_kernel about 20, _chunk_scan_fwd_kernel over 50: pointers,
  /// sizes and every stride), so this is a low figure. Triton 2.2, shipped with PyTorch 2.2 (the
  /// spring-2024 stack), took 40 us a launch for a kernel of a few arguments and 62 us for one of
  /// many (triton-lang/triton pull request #3503, 2024-03-29).
  duration triton_launch_time = 13.2 * units::us;
  /// Fraction of the HBM datasheet bandwidth a streaming kernel reaches. 0: the GPU's own figure
  /// (gpu_spec::kernels.hbm: the H100 SXM's copies, 0.90, specs/kernel_efficiency.hpp), else the
  /// named default unmeasured_hbm_fraction (0.90, the same measurement) (hbm_fraction in
  /// models/kernels.hpp). A value set replaces it on every GPU, as matmul_peak_fraction does.
  double memory_bandwidth_fraction = 0.0;
  /// Fused (flash) attention forward + backward speed, as a fraction of the dense peak with the
  /// work counted as 3.5x the forward FLOPs (detail::flash_fwd_bwd_work): f(s) = max_fraction x
  /// s / (s + half_seq) (saturating_fraction, models/kernels.hpp). Fitted to
  /// PyTorch SDPA flash on one H100 SXM, head dim 128: 356, 454, 516 TFLOP/s at s = 2048, 4096,
  /// 8192 (0.36, 0.46, 0.52 of 989.5).
  double flash_attention_max_fraction = 0.61;
  double flash_attention_half_seq = 1423.0;
  /// torchtitan's attention kernel, the same f(s) with its own constants: its Attention calls
  /// F.scaled_dot_product_attention(is_causal=True), and PyTorch's flash backend is
  /// FlashAttention-2 (the torch of torchtitan's December 2024 benchmarks; their op policy saves
  /// _scaled_dot_product_flash_attention and _efficient_attention, not cuDNN's). FA2's causal
  /// forward on an H100 SXM5, head dim 128 (FlashAttention-3 paper, arXiv:2407.08608, Fig. 5):
  /// 191, 260, 298, 319, 333, 335 TFLOP/s at s = 512 to 16k; least squares: 0.352 of 989.5, half
  /// at 384. The forward's rate; the backward's is sdpa_flash2_backward_ratio of it.
  double sdpa_flash2_max_fraction = 0.352;
  double sdpa_flash2_half_seq = 384.0;
  /// FlashAttention-2's backward rate over its forward rate (FLOPs counted as 2.5x the
  /// forward's, detail::flash_fwd_bwd_work). The same paper on the same H100 SXM5, head dim 128,
  /// without the causal mask: FA2's backward (the backward-pass figure) 310, 318, 322 TFLOP/s
  /// against its forward (the forward figure without the mask) 368, 370, 370 at s = 4k, 8k, 16k:
  /// 0.84, 0.86, 0.87; 0.86 (lower at short sequences: 214 / 309 = 0.69 at 512). ESTIMATE: the
  /// causal backward at the same share of the causal forward (the paper times the backward
  /// without the mask only).
  double sdpa_flash2_backward_ratio = 0.86;
  /// Under fp8 training, run the attention core (QK^T, softmax, PV) in fp8 too. false: in 16
  /// bits at the 16-bit tensor rate, as Transformer Engine does by default (its recipes' fp8_dpa
  /// and Megatron-LM's --fp8-dot-product-attention are off unless asked for).
  bool fp8_attention = false;

  // ---- communication -------------------------------------------------------------------------
  /// How each collective is timed (models/collectives.hpp collective_assumptions).
  collective_assumptions collectives{};
  /// The fabrics' achievable rates and latencies (specs/network.hpp network_assumptions).
  network_assumptions network{};
  /// How ranks map to GPUs: Megatron-LM's order, tensor-parallel innermost (tp, cp, ep, dp, pp
  /// from the fastest-varying; megatron/core/parallel_state.py RankGenerator order "tp-cp-ep-dp-pp").
  rank_order order = rank_order::megatron;
  /// Context parallelism's attention exchange: ring (Megatron-Core's default, point-to-point K/V
  /// passing overlapped with attention) or all_gather (Llama 3's, arXiv:2407.21783 Sec. 3.3.2).
  /// Under torchtitan, PyTorch's ring attention's rotate method: all_gather is "allgather"
  /// (torchtitan's default), ring "alltoall" (detail::torch_ring_attention_comm).
  context_parallel_kind cp_kind = context_parallel_kind::ring;
  /// Fraction of tensor-parallel communication hidden behind GEMMs (Megatron's
  /// --tp-comm-overlap with Transformer Engine userbuffers). 0: off, Megatron-LM's default.
  double tp_overlap = 0.0;
  /// PyTorch's micro-pipelined async TP (torchtitan's --parallelism.enable_async_tensor_parallel,
  /// Inductor's micro_pipeline_tp pass): each sequence-parallel all-gather feeding matmuls and
  /// each reduce-scatter of one matmul's output run decomposed into tp steps of copy-engine pulls
  /// over symmetric memory and chunk GEMMs of M / tp rows (async_tp_exposed). false: NCCL
  /// collectives, exposed (off by default, as in torchtitan).
  bool async_tp = false;
  /// torchao's float8 all-gather under FSDP2 (torchtitan's --float8.enable_fsdp_float8_all_gather,
  /// off by default; on in train_configs/llama3_405b.toml at 9dec370, with
  /// precompute_float8_dynamic_scale_for_fsdp): each float8 linear's weight is cast to fp8 on its
  /// shard and all-gathered as 1 byte per element (and one fp32 scale per tensor) instead of
  /// bf16's 2, and FSDP2's copy-out moves those bytes. The root's embedding and output layer
  /// stay bf16 (the output is not converted). Needs dtype fp8 under torchtitan (refused else).
  bool fsdp_float8_all_gather = false;
  /// Megatron's fused cross entropy (--cross-entropy-loss-fusion; megatron_loss_bytes_fused
  /// instead of megatron_loss_bytes_unfused). Off: Megatron-LM's default (a store_true flag in
  /// megatron/training/arguments.py); NeMo's GPTConfig sets cross_entropy_loss_fusion = True.
  bool cross_entropy_fusion = false;
  /// Gradient reduction overlapped with the backward pass (--overlap-grad-reduce, on in
  /// Megatron-LM's recommended configurations and in PyTorch DDP / FSDP by default).
  bool overlap_grad_reduce = true;
  /// With a sharded optimizer (ZeRO-1/2), reduce the gradients with an all-reduce instead of a
  /// reduce-scatter (twice the bytes on the wire). DeepSpeed's BF16_Optimizer, which shards the
  /// optimizer itself under ZeRO stage 0, does so in its pipeline engine: _exec_reduce_grads ->
  /// _bf16_reduce_grads -> buffered_allreduce_fallback over the fp32 gradients
  /// (deepspeed/runtime/pipe/engine.py). false: reduce-scatter (Megatron's distributed optimizer,
  /// DeepSpeed ZeRO-1/2).
  bool sharded_grad_all_reduce = false;
  /// Distributed-optimizer parameter all-gather overlapped with the next forward
  /// (--overlap-param-gather).
  bool overlap_param_gather = true;
  /// Gradient bucket size in elements: Megatron-LM's default max(40M, 1M x dp)
  /// (megatron/core/distributed/distributed_data_parallel_config.py bucket_size).
  double grad_bucket_elements = 40e6;
  /// ZeRO-3 / FSDP parameter gathers and gradient reduce-scatters happen in buckets of these many
  /// elements: DeepSpeed's defaults stage3_prefetch_bucket_size = 5e7 and reduce_bucket_size =
  /// 5e8 (deepspeed.ai/docs/config-json). PyTorch FSDP gathers one wrapped module (usually one
  /// transformer layer) at a time: set both to a layer's parameters.
  double zero3_gather_elements = 5e7;
  double zero3_reduce_elements = 5e8;
  /// ZeRO-3 / FSDP: one collective per parameter tensor instead of per bucket (each paying its
  /// ring latency over the whole group). DeepSpeed up to v0.4.0 gathered and reduce-scattered
  /// parameter by parameter (deepspeed/runtime/zero/partition_parameters.py `_allgather_param`,
  /// `_reduce_scatter_gradient`, at commit 112ebff of April 2021); coalesced gathers came with
  /// PR #1188 (June 2021). false: the bucket sizes above.
  bool zero3_per_tensor = false;
  /// Fraction of a ZeRO-3 micro-batch's compute that its parameter gathers and gradient
  /// reduce-scatters can run under. 1: prefetched on a side stream (PyTorch FSDP forward and
  /// backward prefetch; DeepSpeed's prefetch since v0.4.x). 0: every gather waits for the GPU
  /// and the GPU waits for it: DeepSpeed <= v0.4.0 called torch.cuda.synchronize() before each
  /// parameter's all-gather and waited for it in fetch_sub_module (PR #1188: "the async version
  /// is not async at all").
  double zero3_overlap = 1.0;
  /// ZeRO-3 collectives through torch.distributed's list API (all_gather into a list of
  /// per-rank tensors, reduce_scatter from one): PyTorch's ProcessGroupNCCL copies each rank's
  /// slice out of / into a flat buffer, one copy_ per rank (torch/csrc/distributed/c10d/
  /// ProcessGroupNCCL.cpp, allgather and reduce_scatter), each costing at least eager_op_floor.
  /// DeepSpeed <= v0.4.0 used it (`_allgather_param`, `_reduce_scatter_gradient`); FSDP and
  /// later DeepSpeed use the flat _all_gather_base / _reduce_scatter_base. false: flat.
  bool zero3_list_copies = false;
  /// Fraction of pipeline point-to-point time hidden behind compute (--overlap-p2p-comm with the
  /// interleaved schedule). 0: Megatron-LM's default for 1F1B.
  double p2p_overlap = 0.0;
  /// Fraction of a layer's compute (GEMMs, attention, recompute) under which its expert-parallel
  /// all-to-all can run: what exceeds it stays exposed. 0: none (Megatron-LM's default 1F1B).
  /// 1: DeepSeek-V3's DualPipe, which overlaps one micro-batch's dispatch and combine with
  /// another's computation ("full overlap of forward and backward computation-communication
  /// phases", arXiv:2412.19437 Sec. 3.2.1), as Megatron-Core's
  /// --overlap-moe-expert-parallel-comm does for 1F1B.
  double ep_overlap = 0.0;
  /// Pipeline sends split across the tensor-parallel ranks and all-gathered on the far side
  /// (Megatron-LM's scatter/gather optimisation, Narayanan et al. 2021 Sec. 4.1): each rank sends
  /// 1/tp of the activation. false: every tensor-parallel rank sends the whole activation
  /// (DeepSpeed's PipelineEngine, as in Megatron-DeepSpeed).
  bool p2p_scatter_gather = true;

  /// How gradients are summed over micro-batches (a memory pass per micro-batch unless fused).
  grad_accumulation_kind grad_accumulation = grad_accumulation_kind::automatic;

  // ---- LoRA and QLoRA (training_config::lora_rank, qlora_rank) --------------------------------
  /// Under the transformers profile, the adapters are fp32 while the base computes in 16 bits:
  /// PEFT's get_peft_model(autocast_adapter_dtype=True), its default, casts bf16/fp16 adapter
  /// weights to float32. PEFT's lora.Linear.forward then casts its 16-bit input to the adapter's
  /// dtype (`x = self._cast_input_dtype(x, lora_A.weight.dtype)`, peft/tuners/lora/layer.py) and
  /// autocast casts it back to 16 bits for lora_A's GEMM: two casts of the input per adapter,
  /// and their two backward casts. false: adapters in the activations' dtype, no casts.
  bool lora_adapters_fp32 = true;
  /// PEFT's LoraConfig.lora_dropout > 0: an nn.Dropout on each adapter's input (forward: read,
  /// write and a 1-byte mask; backward likewise). false: PEFT's default 0.0, an nn.Identity
  /// (no kernel).
  bool lora_dropout = false;
  /// QLoRA's dequantisation as one kernel per matrix that reads the NF4 weight as stored (codes
  /// and constants, memory_assumptions::nf4_block) and writes the 16-bit weight: torchao's
  /// NF4Tensor inside a torch.compile'd block (torchtune's QLoRA with compile: LinearNF4 runs
  /// `weight.to(input.dtype)`, NF4Tensor.get_original_weight's shifts, NF4 table lookup and
  /// scaler dequantisation are pointwise, and Inductor fuses them; torchao/dtypes/nf4tensor.py
  /// v0.5.0, v0.6.1). false: bitsandbytes' dequantize_4bit, and with double quantisation its two
  /// kernels restoring the fp32 absmax first (bitsandbytes/functional.py).
  bool nf4_dequant_fused = false;

  // ---- optimizer, offload, data --------------------------------------------------------------
  /// Global gradient-norm clipping reads every gradient once more (Megatron-LM --clip-grad 1.0,
  /// its default).
  bool clip_grad_norm = true;
  /// CPU Adam throughput with optimizer offload, parameters per second per GPU's share of the
  /// host. Rough: ZeRO-Offload (Ren et al. 2021, Sec. 5) reports its CPU-Adam updating a 1B-
  /// parameter model in about 0.5 s on a 2-socket server shared by its GPUs: 2e9 / s per node,
  /// taken per GPU here. A placeholder order of magnitude, flagged as weak in the docs.
  double cpu_optimizer_params_per_s = 2e9 / 8;
  /// Fraction of the GPU's PCIe link offload transfers reach (pinned host memory copies reach
  /// about 0.8-0.9 of PCIe Gen4/Gen5 per direction: NVIDIA bandwidthTest results).
  double pcie_fraction = 0.85;
  /// Aggregate storage read rate for the training data; zero: not limiting (not modelled).
  bandwidth storage_read{};
  /// Bytes per stored token (uint32 token ids in Megatron's indexed datasets for vocabularies
  /// above 65,535; uint16 below).
  data_per_token stored_token_bytes = 4.0 * units::B / units::token;
  /// FLOP convention of MFU: attention counted over all s keys (Megatron's formulas,
  /// Korthikanti Eq. 7, Narayanan Eq. 3) or the causal half.
  attention_mask mfu_attention = attention_mask::full;

  /// Throws gpuplan::invalid_input naming the first field out of range.
  constexpr void validate() const {
    constexpr auto fraction = detail::positive_fraction;
    constexpr auto share = detail::unit_interval;
    // the GPU file's rule (kernel_efficiency::validate): 0 or at least min_kernel_fraction
    detail::check_input(detail::kernel_fraction_or_zero(matmul_peak_fraction),
                        "step_assumptions.matmul_peak_fraction must be 0 (the GPU's own figure) or "
                        "in [0.05, 1] (min_kernel_fraction)", matmul_peak_fraction);
    detail::check_input(fraction(sustained_fraction),
                        "step_assumptions.sustained_fraction must be in (0, 1]");
    detail::check_input(detail::kernel_fraction_or_zero(memory_bandwidth_fraction),
                        "step_assumptions.memory_bandwidth_fraction must be 0 (the GPU's own "
                        "figure) or in [0.05, 1] (min_kernel_fraction)", memory_bandwidth_fraction);
    detail::check_input(fraction(flash_attention_max_fraction),
                        "step_assumptions.flash_attention_max_fraction must be in (0, 1]");
    detail::check_input(fraction(sdpa_flash2_max_fraction),
                        "step_assumptions.sdpa_flash2_max_fraction must be in (0, 1]");
    detail::check_input(detail::finite_nonnegative(sdpa_flash2_half_seq),
                        "step_assumptions.sdpa_flash2_half_seq must not be negative");
    detail::check_input(fraction(sdpa_flash2_backward_ratio),
                        "step_assumptions.sdpa_flash2_backward_ratio must be in (0, 1]");
    detail::check_input(fraction(pcie_fraction), "step_assumptions.pcie_fraction must be in (0, 1]");
    detail::check_input(share(tp_overlap), "step_assumptions.tp_overlap must be in [0, 1]");
    detail::check_input(share(p2p_overlap), "step_assumptions.p2p_overlap must be in [0, 1]");
    detail::check_input(share(ep_overlap), "step_assumptions.ep_overlap must be in [0, 1]");
    detail::check_input(share(zero3_overlap), "step_assumptions.zero3_overlap must be in [0, 1]");
    detail::check_input(detail::finite_nonnegative(flash_attention_half_seq),
                        "step_assumptions.flash_attention_half_seq must not be negative");
    detail::check_input(gemm_tile_m >= 1 && gemm_tile_n >= 1 && split_k_min_depth >= 1,
                        "step_assumptions.gemm_tile_m, gemm_tile_n and split_k_min_depth must be "
                        "positive");
    detail::check_input(detail::finite_nonnegative(kernel_overhead.value) &&
                            detail::finite_nonnegative(eager_op_floor.value),
                        "step_assumptions.kernel_overhead and eager_op_floor must not be negative");
    detail::check_input(detail::finite_nonnegative(triton_launch_time.value),
                        "step_assumptions.triton_launch_time must not be negative",
                        triton_launch_time.value);
    detail::check_input(detail::finite_nonnegative(compiled_layer_kernels),
                        "step_assumptions.compiled_layer_kernels must not be negative");
    detail::check_input(detail::finite_nonnegative(eager_backward_factor),
                        "step_assumptions.eager_backward_factor must not be negative");
    detail::check_input(grad_bucket_elements > 0.0 && zero3_gather_elements > 0.0 &&
                            zero3_reduce_elements > 0.0,
                        "step_assumptions.grad_bucket_elements, zero3_gather_elements and "
                        "zero3_reduce_elements must be positive");
    detail::check_input(cpu_optimizer_params_per_s > 0.0,
                        "step_assumptions.cpu_optimizer_params_per_s must be positive");
    detail::check_input(detail::finite_nonnegative(storage_read.value),
                        "step_assumptions.storage_read must not be negative (0: not limiting)");
    detail::check_input(stored_token_bytes.value > 0.0,
                        "step_assumptions.stored_token_bytes must be positive");
    detail::check_input(collectives.half_bandwidth_payload.value > 0.0 &&
                            collectives.ramp_exponent > 0.0,
                        "collective_assumptions.half_bandwidth_payload and ramp_exponent must be "
                        "positive");
    detail::check_input(fraction(collectives.nvls_efficiency),
                        "collective_assumptions.nvls_efficiency must be in (0, 1]");
    detail::check_input(fraction(network.nvlink_achievable) && fraction(network.nic_achievable) &&
                            fraction(network.pcie_achievable) &&
                            fraction(network.ethernet_achievable),
                        "network_assumptions: achievable fractions must be in (0, 1]");
  }
};

/// What one iteration is made of.
struct training_plan {
  transformer_spec model{};
  node_spec node{};
  /// Nodes in the cluster; 0: as many as the layout needs.
  int nodes = 0;
  inter_node_fabric fabric = inter_node_fabric::infiniband;
  /// The fabric's bisection as a fraction of injection (cluster_spec::bisection_fraction; 1: a
  /// non-blocking fat tree). Expert all-to-all is held to it.
  double bisection_fraction = 1.0;
  parallel_layout layout{};
  /// Precision, recompute, micro-batch, sequence, global batch (sequences per step), flash
  /// attention, dropout, offload. global_batch 0 means micro_batch x dp x micro_batches (or one
  /// micro-batch per pipeline stage when neither is given).
  training_config config{};
  step_assumptions assumptions{};
};

/// The part of the step that bounds it.
enum class step_bottleneck : unsigned char {
  compute,
  memory_bound,
  tensor_parallel,
  context_parallel,
  expert_parallel,
  pipeline_bubble,
  pipeline_p2p,
  data_parallel,
  optimizer,
  offload,
  data_loading,
};

/// The names of step_bottleneck, as the CLI and JSON spell them (specs/enum_names.hpp).
inline constexpr enumerator<step_bottleneck> step_bottleneck_names[] = {
    {step_bottleneck::compute, "compute"},
    {step_bottleneck::memory_bound, "memory_bound"},
    {step_bottleneck::tensor_parallel, "tensor_parallel"},
    {step_bottleneck::context_parallel, "context_parallel"},
    {step_bottleneck::expert_parallel, "expert_parallel"},
    {step_bottleneck::pipeline_bubble, "pipeline_bubble"},
    {step_bottleneck::pipeline_p2p, "pipeline_p2p"},
    {step_bottleneck::data_parallel, "data_parallel"},
    {step_bottleneck::optimizer, "optimizer"},
    {step_bottleneck::offload, "offload"},
    {step_bottleneck::data_loading, "data_loading"},
};
constexpr const auto& enumerators(step_bottleneck) { return step_bottleneck_names; }

/// A sentence-case description of the bottleneck, for people.
constexpr std::string_view describe(step_bottleneck b) {
  switch (b) {
    case step_bottleneck::compute: return "compute";
    case step_bottleneck::memory_bound: return "memory-bound kernels";
    case step_bottleneck::tensor_parallel: return "tensor-parallel communication";
    case step_bottleneck::context_parallel: return "context-parallel communication";
    case step_bottleneck::expert_parallel: return "expert-parallel all-to-all";
    case step_bottleneck::pipeline_bubble: return "pipeline bubble";
    case step_bottleneck::pipeline_p2p: return "pipeline point-to-point";
    case step_bottleneck::data_parallel: return "data-parallel gradient reduction";
    case step_bottleneck::optimizer: return "optimizer step";
    case step_bottleneck::offload: return "CPU offload over PCIe";
    case step_bottleneck::data_loading: return "data loading";
  }
  return "?";
}

/// One iteration: its time, where it goes, and what it yields. The parts add up to `total`.
struct step_breakdown {
  duration total{};
  duration compute{};          ///< GEMMs and attention kernels on the critical path
  duration memory_bound{};     ///< norms, activations, dropout, softmax, loss
  duration tensor_parallel{};  ///< exposed TP collectives
  duration context_parallel{}; ///< exposed ring-attention exchanges
  duration expert_parallel{};  ///< exposed MoE all-to-all
  duration bubble{};           ///< pipeline fill and drain
  duration pipeline_p2p{};     ///< exposed stage-to-stage sends
  duration data_parallel{};    ///< exposed gradient reduction and parameter gathers
  duration optimizer{};        ///< the optimizer step on the GPU
  duration offload{};          ///< PCIe transfers and the CPU step with optimizer offload
  duration data_loading{};     ///< exposed storage reads

  step_bottleneck bottleneck = step_bottleneck::compute;
  int micro_batches = 1;       ///< per pipeline per step
  int global_batch = 1;        ///< sequences per step
  int gpus = 1;
  int nodes = 1;
  token_count tokens_per_step{};
  token_rate tokens_per_s{};
  double samples_per_s = 0.0;
  compute_amount model_flops{};     ///< per step, no recompute (MFU's numerator)
  compute_amount hardware_flops{};  ///< per step, with recompute (HFU's numerator)
  compute_amount six_nd{};          ///< 6 x parameters x tokens, per step (Kaplan's estimate)
  double mfu = 0.0;
  double hfu = 0.0;
  bool tp_crosses_nodes = false, cp_crosses_nodes = false, ep_crosses_nodes = false,
       dp_crosses_nodes = false, pp_crosses_nodes = false;
};

namespace detail {

/// Parameter tensors of one dense layer as Megatron-style code holds them (fused QKV, fused
/// gate and up projections): two norms (weight, and bias for LayerNorm), QKV and output
/// projection, two FFN matrices, and their biases where the model has them. A GPT layer: 12.
constexpr double parameter_tensors_per_layer(const transformer_spec& m) {
  const double norm = m.norm == norm_kind::layernorm ? 2.0 : 1.0;
  return 2.0 * norm + 2.0 + (m.qkv_bias ? 1.0 : 0.0) + (m.out_bias ? 1.0 : 0.0) + 2.0 +
         (m.mlp_bias ? 2.0 : 0.0);
}

/// Parameter tensors outside the layers on the stage that holds the most of them: the word
/// embedding and a learned position table on the first stage; the final norm (weight, and bias
/// for LayerNorm) and an untied LM head on the last; all of them when pp == 1.
constexpr double parameter_tensors_outside_layers(const transformer_spec& m, int pp) {
  const double first = 1.0 + (m.positions == position_kind::learned ? 1.0 : 0.0);
  const double last = (m.norm == norm_kind::layernorm ? 2.0 : 1.0) + (m.tied_embeddings ? 0.0 : 1.0);
  return pp == 1 ? first + last : (first > last ? first : last);
}

constexpr int moe_layer_count(const transformer_spec& m) { return m.moe_layers(); }

/// Times of one layer for one micro-batch on one GPU, by part (seconds).
struct layer_time {
  double compute = 0.0, memory = 0.0, tp = 0.0, cp = 0.0, ep = 0.0;
  double bwd_compute = 0.0;  // backward part of compute + memory (the DP overlap window)
  [[nodiscard]] constexpr double total() const { return compute + memory + tp + cp + ep; }
};

struct layer_inputs {
  const transformer_spec* m = nullptr;
  const training_config* c = nullptr;
  const parallel_layout* l = nullptr;
  const step_assumptions* a = nullptr;
  const placement* p = nullptr;
  gemm_ctx g{};
  gemm_ctx attn{};      // the attention core's rates: 16-bit under fp8 GEMMs unless fp8_attention
  gemm_ctx adapter{};   // LoRA adapters' GEMMs: 16-bit under fp8 GEMMs (plain linears, not fp8)
  double act_e = 2.0;   // bytes per activation element (16-bit under fp8 GEMMs)
  double slots = 0.0;   // FP32 lane slots a second on the CUDA cores (fp32_vector / 2)
  double sfu = 0.0;     // FP32 lane slots a special function takes (special_function_slots)
  double tokens = 0.0;  // T = b s / cp
  // LoRA / QLoRA: the base is frozen (no weight-gradient GEMMs), adapters of this rank
  bool frozen = false;
  bool qlora = false;
  double lora_rank = 0.0;
};

constexpr double coll(collective_kind k, double bytes, const collective_group& g,
                      const collective_assumptions& a) {
  return collective_time(k, bytes * units::B, g, a).total.value;
}

// ---- the step model's counting constants, each with its source ---------------------------------

// fp32_bytes (logits and loss, master weights, Adam's moments, autocast copies): specs/precision.hpp
/// Bytes of a 16-bit element: activations and communication under fp8 GEMMs (Transformer
/// Engine keeps them in bf16), and autocast's 16-bit weight copies.
inline constexpr double half_bytes = bytes_per_element(precision::bf16).value;
/// Bytes of dropout's mask per element: PyTorch stores it as one byte (bool / uint8).
inline constexpr double dropout_mask_bytes = 1.0;
/// Forward + backward GEMM work of a layer relative to its forward: the backward computes the
/// data gradient and the weight gradient, each a GEMM of the forward's size (Narayanan et al.
/// 2021, Sec. 3.2: backward = 2x forward); 1 + 2 = 3.
inline constexpr double fwd_bwd_gemm_passes = 3.0;
/// Fused (flash) attention's forward + backward work relative to its forward FLOPs: the backward
/// recomputes the scores and runs four GEMMs (dV, dP, dQ, dK), 2.5x the forward's two
/// (FlashAttention-2, Dao 2023, Sec. 4: "the backward pass has 2.5x the FLOPs of the forward
/// pass"); 1 + 2.5 = 3.5. The flash fraction of step_assumptions was fitted with this count.
inline constexpr double flash_fwd_bwd_work = 3.5;
/// Bytes Megatron-LM's vocab-parallel cross entropy moves per logit element, beyond the LM head
/// GEMM that writes the logits in `act_e` bytes, counted from megatron/core/tensor_parallel/
/// cross_entropy.py (_VocabParallelCrossEntropy, one kernel per line, 2024-07 and since).
/// Forward: .float() (read act_e, write 4), max (read 4), the in-place subtraction of the max
/// (read 4, write 4), exp (read 4, write 4), sum (read 4), the in-place division by the sum
/// (read 4, write 4). Backward: grad_input.mul_(grad_output) (read 4, write 4) and autograd's
/// cast of the fp32 gradient back to the logits' type (read 4, write act_e). 48 + 2 act_e.
constexpr double megatron_loss_bytes_unfused(double act_e) { return 48.0 + 2.0 * act_e; }
/// The same with --cross-entropy-loss-fusion (megatron/core/fusions/fused_cross_entropy.py: the
/// four steps under jit_fuser, torch.compile since PyTorch 2.2): the cast fused with the max
/// (read act_e, write 4); subtraction, exp and sum in one kernel (read 4, write 4); the division
/// (read 4, write 4); the backward's multiply writing back the mutated fp32 softmax and the cast
/// (read 4, write 4 + act_e). 28 + 2 act_e.
constexpr double megatron_loss_bytes_fused(double act_e) { return 28.0 + 2.0 * act_e; }
/// Passes of the embedding over its activations: read the rows, write the activations, and the
/// backward's scatter of the gradient rows; 3.
inline constexpr double embedding_passes = 3.0;
/// All-reduces of T fp32 values in the vocab-parallel loss: the max logit, the sum of the
/// exponentials and the target logit (Megatron-LM _VocabParallelCrossEntropy.forward); 3.
inline constexpr double vocab_parallel_loss_all_reduces = 3.0;
/// Bytes Transformer Engine's fp8 cast moves per GEMM operand element: read 2 (bf16), write 1
/// (fp8) and 1 (its fp8 transpose for the weight gradient); 4.
inline constexpr double fp8_cast_bytes_per_element =
    half_bytes + 2.0 * bytes_per_element(precision::fp8).value;
/// Bytes torchao's float8 tensorwise dynamic scaling moves per GEMM operand element in eager
/// mode: the scale needs the amax of the current tensor (torchao's tensor_to_amax, a reduction
/// over the whole 16-bit tensor: read 2) before the cast (read 2, write 1) and the fp8 transpose
/// the weight gradient's _scaled_mm takes (write 1); 6. Under torch.compile Inductor fuses the
/// amax into the kernel that produces the tensor, which leaves Transformer Engine's 4
/// (fp8_cast_bytes_per_element; torchtitan's float8.md: float8 "requires" compile to be fast).
inline constexpr double torchao_eager_cast_bytes_per_element =
    half_bytes + fp8_cast_bytes_per_element;
/// Bytes per parameter torch.optim's foreach AdamW (_multi_tensor_adamw, capturable off) moves
/// besides reading the gradient, every tensor fp32: _foreach_mul_ of the parameters by the
/// weight decay (read, write), _foreach_lerp_ of exp_avg (read, write), _foreach_mul_ of
/// exp_avg_sq (read, write), _foreach_addcmul_ into it (read, write), _foreach_sqrt into a new
/// list (read, write), _foreach_div_ and _foreach_add_ on it (read, write each) and
/// _foreach_addcdiv_ into the parameters (read three, write one): 18 x 4 = 72 B.
inline constexpr double foreach_adamw_fp32_bytes = 18.0 * fp32_bytes;
/// Passes over a gradient to accumulate it under autograd (AccumulateGrad: read both the new
/// gradient and param.grad, write param.grad); 3.
inline constexpr double autograd_accumulation_passes = 3.0;
/// FSDP2 without gradient sync (torchtitan under PP: the pipeline stage sets
/// requires_gradient_sync false until its last backward) keeps an unsharded gradient accumulator
/// in the reduce dtype when it differs from the parameters' (FSDPParam.to_accumulated_grad_if_
/// needed, accumulate_unsharded_grad_if_needed, torch/distributed/_composable/fsdp/
/// _fsdp_param.py): after the first micro-batch's backward the gradient is upcast (read it, write
/// the accumulator); after each later one it is added (read it and the accumulator, write the
/// accumulator). Mean bytes per unsharded parameter and micro-batch over `micro` of them; with
/// equal dtypes autograd accumulates into param.grad (autograd_accumulation_passes).
constexpr double fsdp2_unsharded_accumulation_bytes(double param_e, double reduce_e, int micro) {
  if (micro <= 1) return 0.0;
  if (param_e == reduce_e) return autograd_accumulation_passes * param_e * (micro - 1.0) / micro;
  return ((param_e + reduce_e) + (micro - 1.0) * (param_e + 2.0 * reduce_e)) / micro;
}
/// Linear layers of a Hugging Face attention block, each its own weight and kernel: q_proj,
/// k_proj, v_proj, o_proj (transformers' LlamaAttention); the FFN adds gate + 1.
inline constexpr double hf_attention_projections = 4.0;
/// Bytes read per element of an NF4 weight by bitsandbytes' dequantize_4bit: 4 bits (0.5 B).
inline constexpr double nf4_packed_bytes = 0.5;
/// Bytes the dequantisation kernel of one NF4 weight element moves: the packed 4 bits and its
/// share of the fp32 absmax (one per nf4_block weights) read, the 16-bit weight written.
/// bitsandbytes' MatMul4Bit.forward runs `linear(A, F.dequantize_4bit(B, state).to(A.dtype).t())`
/// and its backward `matmul(grad_output, F.dequantize_4bit(B, state).to(...).t())`
/// (bitsandbytes/autograd/_functions.py): a whole bf16 copy of the weight each time.
inline constexpr double nf4_dequantize_bytes = nf4_packed_bytes + fp32_bytes / nf4_block + half_bytes;
/// Bytes per weight element of double quantisation's two extra kernels (dequantize_4bit with
/// quant_state.nested: `absmax = dequantize_blockwise(absmax, state2)` reads the 8-bit absmax
/// and its fp32 constants and writes fp32; `absmax += offset` reads and writes it).
inline constexpr double nf4_absmax_dequantize_bytes =
    (1.0 + fp32_bytes / nf4_absmax_block + fp32_bytes) / nf4_block;
inline constexpr double nf4_absmax_offset_bytes = 2.0 * fp32_bytes / nf4_block;

/// A frozen linear layer (the base of LoRA / QLoRA: requires_grad=False): its forward and the
/// backward's data gradient only; autograd computes no weight gradient for a tensor that does
/// not require one.
constexpr linear_seconds frozen_linear(const gemm_ctx& c, double m, double n, double k,
                                       double batch = 1.0) {
  return {gemm_seconds(c, m, n, k, batch), gemm_seconds(c, m, k, n, batch)};
}

/// What one layer holds (transformer_spec::pattern): its token mixer (attention, the linear
/// mixer, or none) and its FFN (dense, MoE, or none). A transformer's layer: attention + FFN.
struct layer_kind {
  bool attention = true, linear = false, ffn = true, moe = false;
  [[nodiscard]] constexpr double parts() const {
    return (attention || linear ? 1.0 : 0.0) + (ffn ? 1.0 : 0.0);
  }
  [[nodiscard]] constexpr int code() const {
    return (attention ? 1 : 0) + (linear ? 2 : 0) + (ffn ? 4 : 0) + (moe ? 8 : 0);
  }
};

constexpr layer_kind kind_of_layer(const transformer_spec& m, int i) {
  return {m.is_attention_layer(i), m.is_linear_layer(i), m.has_ffn(i), m.is_moe_layer(i)};
}

/// The sizes of one layer on one GPU that every part of its cost reads.
struct layer_dims {
  double T = 0.0;           // tokens of the micro-batch on this GPU (b s / cp)
  double h = 0.0, tp = 1.0, e = 2.0;
  double q = 0.0, kv_local = 0.0;  // query and (replicated) key/value widths on this GPU x tp
  double s = 0.0;           // the sequence
  bool sp = false;          // sequence parallelism in effect
  double seq_shard = 1.0;   // tp under sequence parallelism, else 1
  double heads_local = 0.0;
};

constexpr layer_dims dims_of(const layer_inputs& in) {
  const transformer_spec& m = *in.m;
  const parallel_layout& l = *in.l;
  layer_dims d;
  d.T = in.tokens;
  d.h = m.hidden;
  d.tp = l.tp;
  d.e = in.act_e;
  d.q = 1.0 * m.heads * m.head_dim;
  const double kv = 1.0 * m.kv_heads * m.head_dim;
  d.kv_local = kv / d.tp > m.head_dim ? kv / d.tp : 1.0 * m.head_dim;  // replicated KV
  d.s = in.c->seq;
  d.sp = l.sequence_parallel && l.tp > 1;
  d.seq_shard = d.sp ? d.tp : 1.0;
  d.heads_local = m.heads / d.tp;
  return d;
}

/// A linear mixer's projections on one tensor-parallel rank, as Megatron-Core's MambaMixer
/// splits them (megatron/core/ssm/mamba_mixer.py: in_proj column-parallel, out_proj
/// row-parallel) and with the shapes the parameter count uses (transformer_spec::
/// linear_in_width, linear_mixer_weights): in_proj hidden -> linear_in_width / tp (Mamba-2: z,
/// x, B, C, dt; Gated DeltaNet: q, k, v, z, b, a), out_proj inner / tp -> hidden; Mamba-1's
/// x_proj (inner / tp -> dt_rank + 2 state) and dt_proj (dt_rank -> inner / tp) besides.
constexpr linear_seconds linear_mixer_gemms(const layer_inputs& in, const layer_dims& d) {
  const transformer_spec& m = *in.m;
  const linear_mixer_spec& x = m.linear;
  const double T = d.T, h = d.h, tp = d.tp, inner = x.inner / tp;
  linear_seconds lin = linear(in.g, T, m.linear_in_width() / tp, h);  // in_proj
  lin += linear(in.g, T, h, inner);                                     // out_proj
  if (x.kind == linear_mixer_kind::mamba) {
    lin += linear(in.g, T, x.dt_rank + 2.0 * x.state_size, inner);  // x_proj
    lin += linear(in.g, T, inner, x.dt_rank);                         // dt_proj
  }
  return lin;
}

/// The GEMMs of one layer (forward and backward seconds) and the FFN activation elements per
/// token on this GPU.
struct layer_gemms {
  linear_seconds lin{};
  double gate = 1.0;       // 2 for a gated FFN (gate and up projections)
  double ffn_inner = 0.0;  // elements of FFN activations per token per GPU
};

constexpr layer_gemms gemms_of_layer(const layer_inputs& in, const layer_dims& d,
                                     const layer_kind& kind) {
  const bool moe = kind.moe;
  const transformer_spec& m = *in.m;
  const parallel_layout& l = *in.l;
  const double T = d.T, h = d.h, tp = d.tp, q = d.q, kv_local = d.kv_local;
  // a frozen base (LoRA, QLoRA) computes only the data gradients of its GEMMs
  auto linear = [&in](double rows, double n, double k, double batch = 1.0) {
    return in.frozen ? frozen_linear(in.g, rows, n, k, batch)
                     : gpuplan::detail::linear(in.g, rows, n, k, batch);
  };
  layer_gemms r;
  linear_seconds& lin = r.lin;
  if (!kind.attention) {
    if (kind.linear) lin += linear_mixer_gemms(in, d);
  } else if (m.is_mla()) {
    // MLA's five projections (transformer_spec::mla; Megatron-Core MLASelfAttention): the
    // down-projections to the latents whole on every rank, the up-projections and the output
    // split by heads
    const double heads = m.heads / tp, ql = m.mla.q_lora_rank, kvl = m.mla.kv_lora_rank;
    if (ql > 0) {
      lin += linear(T, ql, h);
      lin += linear(T, heads * m.score_head_dim(), ql);
    } else {
      lin += linear(T, heads * m.score_head_dim(), h);
    }
    lin += linear(T, kvl + m.mla.qk_rope_head_dim, h);
    lin += linear(T, heads * (m.mla.qk_nope_head_dim + m.mla.v_head_dim), kvl);
    lin += linear(T, h, heads * m.mla.v_head_dim);
  } else if (in.c->framework != framework_kind::megatron) {  // Hugging Face's q/k/v_proj,
    lin += linear(T, q / tp, h);                             // torchtitan's wq, wk, wv
    lin += linear(T, kv_local, h, 2.0);
    lin += linear(T, h, q / tp);  // output projection
  } else {
    // fused QKV, and the output gate where the model has one (Qwen3-Next's attention)
    lin += linear(T, (m.attention_output_gate ? 2.0 : 1.0) * q / tp + 2.0 * kv_local, h);
    lin += linear(T, h, q / tp);  // output projection
  }
  r.gate = m.ffn_type == ffn_kind::gated ? 2.0 : 1.0;
  const double gate = r.gate;
  if (!kind.ffn) return r;
  if (!moe) {
    lin += linear(T, gate * m.ffn / tp, h);
    lin += linear(T, h, m.ffn / tp);
    r.ffn_inner = m.ffn / tp;
    return r;
  }
  const double etp = l.expert_tensor_parallel();
  const double local_experts = 1.0 * m.moe.experts / l.ep;
  // tokens this GPU's experts see under uniform routing: T x top-k x (tp / etp) spread over
  // the ep ranks' experts; per expert GEMM rows:
  const double routed = T * m.moe.experts_per_token * (tp / etp);
  const double rows = routed / local_experts;
  lin += linear(T, m.moe.experts, h);  // router
  lin += linear(rows, gate * m.moe.expert_ffn / etp, h, local_experts);
  lin += linear(rows, h, m.moe.expert_ffn / etp, local_experts);
  r.ffn_inner = routed * m.moe.expert_ffn / etp / T;
  if (m.moe.shared_experts > 0) {
    const double sf = m.moe.shared_experts *
                      (m.moe.shared_expert_ffn > 0 ? m.moe.shared_expert_ffn : m.moe.expert_ffn);
    lin += linear(T, gate * sf / tp, h);
    lin += linear(T, h, sf / tp);
    r.ffn_inner += sf / tp;
  }
  return r;
}

/// The attention core (QK^T, softmax, PV) of one layer: its forward and forward + backward
/// seconds, and without flash the bytes of the scores' fused softmax (and dropout) forward.
struct attention_times {
  double fwd = 0.0, fwd_bwd = 0.0, scores_bytes = 0.0;
};

constexpr attention_times attention_core(const layer_inputs& in, const layer_dims& d) {
  const transformer_spec& m = *in.m;
  const training_config& c = *in.c;
  const step_assumptions& a = *in.a;
  const double T = d.T, s = d.s, e = d.e, heads_local = d.heads_local;
  const double keys_full = s;  // a rank's queries attend over the whole sequence (all cp chunks)
  attention_times r;
  if (c.flash_attention) {
    // keys per attention layer (a hybrid's linear-mixer layers have no attention core)
    const double keys =
        detail::keys_attended(m, c.seq, attention_mask::causal) / m.attention_layers();
    // 2 GEMMs x 2 FLOP per MAC, over the score and the value widths (head_dim each, or MLA's)
    const double f_fwd = 2.0 * T * keys * heads_local * (m.score_head_dim() + m.value_head_dim());
    const bool fa2 = c.framework == framework_kind::torchtitan;  // PyTorch SDPA's flash: FA2
    if (fa2) {
      // FA2's forward at its fit, its backward (2.5x the forward's FLOPs) slower by its ratio
      const double frac = saturating_fraction(s, a.sdpa_flash2_max_fraction, a.sdpa_flash2_half_seq);
      r.fwd = f_fwd / (in.attn.peak * frac);
      r.fwd_bwd = r.fwd * (1.0 + (flash_fwd_bwd_work - 1.0) / a.sdpa_flash2_backward_ratio);
      return r;
    }
    const double frac =
        saturating_fraction(s, a.flash_attention_max_fraction, a.flash_attention_half_seq);
    r.fwd_bwd = flash_fwd_bwd_work * f_fwd / (in.attn.peak * frac);
    r.fwd = r.fwd_bwd / flash_fwd_bwd_work;
    return r;
  }
  const double b_heads = c.micro_batch * heads_local;
  const double rows = T / c.micro_batch;  // query rows per sequence on this rank
  r.fwd = gemm_seconds(in.attn, rows, keys_full, m.score_head_dim(), b_heads) +
          gemm_seconds(in.attn, rows, m.value_head_dim(), keys_full, b_heads);
  // backward: dS = dO V^T, dV = P^T dO, dQ = dS K, dK = dS^T Q: twice the forward's GEMMs
  r.fwd_bwd = fwd_bwd_gemm_passes * r.fwd;
  const double scores = T * heads_local * keys_full;  // elements
  // fused scale-mask-softmax reads and writes the scores; dropout reads, writes, and stores a
  // 1-byte mask
  r.scores_bytes =
      2.0 * scores * e + (c.dropout ? (2.0 * e + dropout_mask_bytes) * scores : 0.0);
  return r;
}

/// A linear mixer's kernels besides its projections on one tensor-parallel rank (seconds):
/// the causal conv1d and the gated norm, memory-bound, and the chunked scan.
struct mixer_times {
  double scan_fwd = 0.0, scan_fwd_bwd = 0.0, mem_fwd = 0.0, mem_bwd = 0.0;
};

/// Backward kernels' work relative to the forward's for the chunked scan: its backward
/// computes the gradients of every product of the forward (twice the forward's FLOPs, as
/// training_flops_per_token counts it), and reads the inputs and dy and writes the input
/// gradients (twice the forward's bytes). Counted in mamba_ssm's SSD backward
/// (ssd_combined.py _mamba_chunk_scan_combined_bwd): the chunk-state products B^T X and C h get
/// four gradient products (dstates, dx through the states, dB, dC), the masked C B^T X two (dx,
/// dCB) and C B^T two (bmm_chunk_bwd for dB and dC): 2x each forward product. Its decay is
/// computed again in three of them (dx, dCB, ddA_cumsum): about 3x the forward's exps, which
/// this factor undercounts.
inline constexpr double scan_backward_factor = 2.0;

/// Gradient kernels of Mamba-2's SSD backward (mamba_ssm/ops/triton/ssd_combined.py
/// _mamba_chunk_scan_combined_bwd, without z): chunk_scan_bwd_dstates, state_passing_bwd,
/// chunk_scan_chunk_state_bwd_dx, chunk_state_bwd_db, chunk_scan_bwd_dC, chunk_scan_bwd_dcb,
/// bmm_chunk_bwd twice, chunk_scan_bwd_ddAcs_stable, chunk_cumsum_bwd: 10. Before them it
/// recomputes the forward's first four kernels (cumsum, bmm, chunk_state, state_passing).
inline constexpr double ssd_backward_kernels = 10.0;

/// Seconds of `tokens` tokens' work w in one kernel: its tensor FLOPs at the attention core's
/// sustained 16-bit rate plus its CUDA-core slots (the same warps issue both: Triton's Ampere
/// and Hopper code does not specialise warps), or its bytes over HBM, whichever is slower; plus
/// the kernel overhead, at least the floor (gemm_seconds' rule).
constexpr double mixer_kernel_seconds(const layer_inputs& in, double tokens, scan_kernel_work w,
                                      double slots_per_s) {
  const gemm_ctx& c = in.attn;
  const double compute = tokens * (w.tensor / (c.peak * c.frac) +
                                   (slots_per_s > 0.0 ? w.slots / slots_per_s : 0.0));
  const double memory = tokens * w.bytes / in.g.hbm;
  const double t = (compute > memory ? compute : memory) + c.overhead;
  return t > c.floor ? t : c.floor;
}

/// Seconds of a chunked scan's kernels on one rank, each at mixer_kernel_seconds (one without
/// work is not launched): all of them, those marked `marked`, how many were launched, and how
/// many of those (and of the marked ones) are Triton kernels.
struct kernels_time {
  double all = 0.0, marked = 0.0, launched = 0.0, triton = 0.0, marked_triton = 0.0;
};
template <std::size_t N>
constexpr kernels_time scan_kernels_time(const layer_inputs& in, const layer_dims& d,
                                         const std::array<scan_kernel_work, N>& k,
                                         const std::array<bool, N>& marked) {
  kernels_time r;
  for (std::size_t i = 0; i < N; ++i) {
    if (!launched(k[i])) continue;
    const double t = mixer_kernel_seconds(in, d.T, k[i], in.slots);
    r.all += t;
    r.launched += 1.0;
    r.triton += k[i].triton ? 1.0 : 0.0;
    if (marked[i]) {
      r.marked += t;
      r.marked_triton += k[i].triton ? 1.0 : 0.0;
    }
  }
  return r;
}

/// Seconds of a kernel sequence of `gpu` seconds on the GPU whose `triton` Triton kernels the
/// host launches from Python (step_assumptions::triton_launch_time each): the host enqueues a
/// kernel while the GPU runs the ones before it, so the sequence takes the longer of the two,
/// not their sum. Launch-bound when the GPU's kernels are shorter than their launches (short
/// sequences, few tokens a rank).
constexpr double launch_bound(const layer_inputs& in, double gpu, double triton) {
  const double host = triton * in.a->triton_launch_time.value;
  return gpu > host ? gpu : host;
}

/// Mamba-2's SSD forward and forward + backward on one rank (seconds): its five forward kernels
/// (ssd_forward_kernels, scan_kernels_time); the backward recomputes the first four, then runs
/// ssd_backward_kernels gradient kernels whose work is scan_backward_factor x the forward
/// kernels' (each product's two gradients; the inputs and dy read, the gradients written), each
/// gradient kernel with its own overhead. Forward and backward each at least their Triton
/// kernels' launches from the host (launch_bound).
constexpr std::array<double, 2> ssd_scan_seconds(const layer_inputs& in, const layer_dims& d) {
  const kernels_time f = scan_kernels_time<5>(in, d, ssd_forward_kernels(in.m->linear, d.tp, d.e, in.sfu),
                                              {true, true, true, true, false});
  const double o = in.attn.overhead;
  const double fwd = launch_bound(in, f.all, f.triton);
  const double bwd = launch_bound(
      in, f.marked + scan_backward_factor * (f.all - f.launched * o) + ssd_backward_kernels * o,
      f.marked_triton + ssd_backward_kernels);
  return {fwd, fwd + bwd};
}

/// Gated DeltaNet's chunked gated delta rule forward and forward + backward on one rank
/// (seconds): Megatron-Core's and fla's forward kernels (gated_delta_forward_kernels); the
/// backward recomputes recompute_w_u_fwd and chunk_gated_delta_rule_fwd_h, then runs its
/// gradient kernels (gated_delta_gradient_kernels), each timed as it is (scan_kernels_time).
/// Forward and backward each at least their Triton kernels' launches (launch_bound).
constexpr std::array<double, 2> gated_delta_scan_seconds(const layer_inputs& in,
                                                         const layer_dims& d) {
  const linear_mixer_spec& x = in.m->linear;
  const kernels_time f = scan_kernels_time<11>(
      in, d, gated_delta_forward_kernels(x, d.tp, d.e, in.sfu),
      {false, false, false, false, false, false, false, false, true, true, false});
  const kernels_time b =
      scan_kernels_time<11>(in, d, gated_delta_gradient_kernels(x, d.tp, d.e, in.sfu), {});
  const double fwd = launch_bound(in, f.all, f.triton);
  return {fwd, fwd + launch_bound(in, f.marked + b.all, f.marked_triton + b.triton)};
}

/// The linear mixer's non-GEMM kernels of one layer on one GPU.
///   causal conv1d (Dao-AILab causal-conv1d, the SiLU fused): depthwise, conv_kernel taps per
///     channel, memory-bound: forward reads and writes conv_dim / tp channels per token,
///     backward reads x and dy and writes dx;
///   chunked scan:
///     Mamba-2's SSD: its five Triton kernels as they run, or their launches from the host
///       when longer (ssd_scan_seconds);
///     Mamba-1's selective scan (one fused CUDA kernel, no tensor cores): its recurrence on the
///       CUDA cores, selective_scan_slots per channel, state and token, or its bytes (reads x,
///       delta, z, B and C, writes y), whichever is slower, plus one kernel overhead; backward
///       scan_backward_factor x the forward;
///     Gated DeltaNet: fla's chunked gated delta rule as its kernels run, or their launches
///       (gated_delta_scan_seconds);
///   gated norm (Mamba-2's RMSNormGated, Gated DeltaNet's gated RMSNorm): reads y and z, writes
///     the output; backward reads y, z and dy and writes dy and dz (Mamba-1 gates inside its scan).
constexpr mixer_times linear_mixer_kernels(const layer_inputs& in, const layer_dims& d) {
  const transformer_spec& m = *in.m;
  const linear_mixer_spec& x = m.linear;
  const double T = d.T, tp = d.tp, e = d.e;
  const double conv = x.conv_dim() / tp, inner = x.inner / tp;
  mixer_times r;
  r.mem_fwd = T * (conv1d_forward_bytes(x, tp, e) + gated_norm_forward_bytes(x, tp, e));
  r.mem_bwd = 3.0 * e * T * conv;
  if (x.kind != linear_mixer_kind::mamba) r.mem_bwd += 5.0 * e * T * inner;
  r.mem_fwd /= in.g.hbm;
  r.mem_bwd /= in.g.hbm;
  detail::check_input(in.slots > 0.0,
                      "gpu.peak.fp32_vector is unknown: a linear mixer's scan runs on the CUDA "
                      "cores (Mamba's recurrence, the SSD's and the gated delta rule's decays)");
  if (x.kind != linear_mixer_kind::mamba) {
    const std::array<double, 2> scan = x.kind == linear_mixer_kind::mamba2
                                           ? ssd_scan_seconds(in, d)
                                           : gated_delta_scan_seconds(in, d);
    r.scan_fwd = scan[0];
    r.scan_fwd_bwd = scan[1];
    return r;
  }
  r.scan_fwd = mixer_kernel_seconds(in, T, selective_scan_work(x, tp, e, in.sfu), in.slots);
  r.scan_fwd_bwd = (1.0 + scan_backward_factor) * r.scan_fwd;
  return r;
}

/// Memory-bound seconds of one layer, forward and backward, and autocast's weight casts.
struct memory_times {
  double fwd = 0.0, bwd = 0.0, amp_casts = 0.0;
};

/// Megatron's fused kernels (Apex/TE fused layer norm, fused bias-dropout-add, fused bias-GeLU /
/// SwiGLU): the bytes each reads and writes, over the achievable HBM bandwidth.
constexpr memory_times fused_memory(const layer_inputs& in, const layer_dims& d,
                                    const layer_gemms& gm, const attention_times& at,
                                    const layer_kind& k = {}) {
  const training_config& c = *in.c;
  const double T = d.T, h = d.h, tp = d.tp, e = d.e, q = d.q, kv_local = d.kv_local;
  const double gate = gm.gate, ffn_inner = gm.ffn_inner;
  const double th = T * h / d.seq_shard;  // sequence-sharded activation elements
  const double dm = c.dropout ? dropout_mask_bytes : 0.0;
  double fwd_b = 0.0, bwd_b = 0.0;
  const double parts = k.parts();         // a norm and a residual add per part (2: a transformer)
  fwd_b += parts * 2.0 * e * th;          // norms: read x, write y
  bwd_b += parts * 3.0 * e * th;          //   read x and dy, write dx
  fwd_b += parts * (3.0 * e + dm) * th;   // (bias-dropout-)adds: read x and residual, write
  bwd_b += parts * (3.0 * e + dm) * th;   //   read dy (and mask), accumulate into the residual
  const double f_el = T * ffn_inner;      // FFN activation elements on this GPU
  fwd_b += (gate + 1.0) * e * f_el;       // activation: read gate (and up), write
  bwd_b += (2.0 * gate + 1.0) * e * f_el; //   read inputs and dy, write the input gradients
  const double qk = k.attention ? q / tp + kv_local : 0.0;
  fwd_b += 2.0 * e * T * qk;  // rotary (or bias) on Q and K: read, write
  bwd_b += 2.0 * e * T * qk;
  if (k.attention && !c.flash_attention) {
    fwd_b += at.scores_bytes;
    // softmax backward reads y and dy and writes dx; dropout backward reads dy and the mask
    const double scores = T * d.heads_local * d.s;
    bwd_b += 3.0 * e * scores + (c.dropout ? (2.0 * e + dropout_mask_bytes) * scores : 0.0);
  }
  if (c.dtype == precision::fp8) {
    // Transformer Engine casts each GEMM's 16-bit input to fp8 with its transpose for the weight
    // gradient forward, and each output gradient likewise backward
    // QKV, O, FC1, FC2 inputs (a linear mixer: in_proj's and out_proj's)
    const double mixer_in = k.attention ? h + q / tp : k.linear ? h + in.m->linear.inner / tp : 0.0;
    const double mixer_out = k.attention ? q / tp + 2.0 * kv_local + h
                             : k.linear  ? in.m->linear_in_width() / tp + h
                                         : 0.0;
    const double inputs = T * (mixer_in + (k.ffn ? h + ffn_inner : 0.0));
    const double outputs = T * (mixer_out + (k.ffn ? gate * ffn_inner + h : 0.0));
    fwd_b += fp8_cast_bytes_per_element * inputs;
    bwd_b += fp8_cast_bytes_per_element * outputs;
  }
  return {fwd_b / in.g.hbm, bwd_b / in.g.hbm, 0.0};
}

/// Eager PyTorch as Hugging Face transformers runs a layer: every op its own kernel of the bytes
/// it moves, none shorter than the eager floor; the backward eager_backward_factor x the forward.
constexpr memory_times eager_memory(const layer_inputs& in, const layer_dims& d,
                                    const layer_gemms& gm, const attention_times& at) {
  const training_config& c = *in.c;
  const gemm_ctx& g = in.g;
  const double T = d.T, h = d.h, tp = d.tp, e = d.e, q = d.q, kv_local = d.kv_local;
  const double gate = gm.gate, ffn_inner = gm.ffn_inner;
  auto ops = [&](double n, double bytes) { return eager_ops_seconds(g, n, bytes); };
  // the residual stream has the embedding's dtype: fp32 under amp (fp32 parameters), else
  // the parameters' (specs/training.hpp: hf_regime_of, as the memory profile reads it)
  const detail::hf_regime regime = detail::hf_regime_of(c);
  const double r = regime.residual > e ? regime.residual : e;
  const double Eh = T * h, Eq = T * q / tp, Ekv = T * kv_local, Ef = T * ffn_inner;
  const double f32 = fp32_bytes;
  double f = 0.0;
  // RMSNorm / LayerNorm, twice: cast up, pow, mean, rsqrt, multiply, cast, weight multiply
  f += 2.0 * (ops(1, (r + f32) * Eh) + ops(1, 2.0 * f32 * Eh) + ops(1, f32 * Eh) +
              ops(1, 2.0 * f32 * T) + ops(1, 2.0 * f32 * Eh) + ops(1, (f32 + e) * Eh) +
              ops(1, 2.0 * e * Eh));
  // rotary on Q and K: neg, cat, multiply, multiply, add
  f += ops(4, 2.0 * e * Eq) + ops(1, 3.0 * e * Eq) + ops(4, 2.0 * e * Ekv) + ops(1, 3.0 * e * Ekv);
  f += ops(1, 2.0 * e * Eq);                        // attention output made contiguous
  f += ops(2, (2.0 * r + e) * Eh);                  // two residual adds
  f += ops(1, 2.0 * e * Ef) + ops(gate - 1.0, 3.0 * e * Ef);  // activation (x up)
  if (c.dropout) f += ops(2, (2.0 * e + dropout_mask_bytes) * Eh);
  if (!c.flash_attention) f += ops(c.dropout ? 3 : 2, at.scores_bytes / (c.dropout ? 3.0 : 2.0));
  memory_times t{f, in.a->eager_backward_factor * f, 0.0};
  if (c.dtype == precision::fp8 && c.framework == framework_kind::torchtitan) {
    // torchao's Float8Linear on each of wq, wk, wv, wo, w1, w3, w2 casts its own input forward
    // and its output gradient backward: an amax kernel (read) and a cast kernel (read, write
    // fp8 and its transpose) per operand (torchao_eager_cast_bytes_per_element)
    const double inputs = 3.0 * Eh + Eq + (gate > 1.0 ? 2.0 : 1.0) * Eh + Ef;
    const double outputs = Eq + 2.0 * Ekv + Eh + gate * Ef + Eh;
    const double n = 4.0 + gate + 1.0;
    const double amax = half_bytes, cast = torchao_eager_cast_bytes_per_element - half_bytes;
    t.fwd += ops(n, amax * inputs) + ops(n, cast * inputs);
    t.bwd += ops(n, amax * outputs) + ops(n, cast * outputs);
  }
  if (regime.autocast && regime.param == f32 && e < f32) {
    // autocast casts each fp32 weight to 16 bits once per forward; its 16-bit gradient is
    // cast back into the fp32 .grad: (4 + 2) bytes per parameter each way
    const double w = (q / tp + 2.0 * kv_local) * h + h * q / tp + (gate + 1.0) * ffn_inner * h;
    const double gemms = hf_attention_projections + (gate + 1.0);
    // (a frozen base has no gradient to cast back)
    t.amp_casts = (in.frozen ? 1.0 : 2.0) * ops(gemms, (f32 + half_bytes) * w / gemms);
  }
  return t;
}

/// torch.compile per block (training_config::compile): the elementwise work as the bytes of
/// fused kernels over HBM (fused_memory: Inductor fuses each chain between GEMMs and attention
/// into one kernel, as Megatron's fused kernels do; under fp8 torchao's casts with the amax
/// fused into the producer, Transformer Engine's bytes), but never shorter than the compiled
/// block's kernels (step_assumptions::compiled_layer_kernels) at kernel_overhead each. Autocast's
/// weight casts stay as eager_memory counts them (transformers --compile --amp).
constexpr memory_times compiled_memory(const layer_inputs& in, const layer_dims& d,
                                       const layer_gemms& gm, const attention_times& at) {
  memory_times t = fused_memory(in, d, gm, at);
  const step_assumptions& a = *in.a;
  const double k = a.compiled_layer_kernels * a.kernel_overhead.value;
  if (t.fwd < k) t.fwd = k;
  if (t.bwd < a.eager_backward_factor * k) t.bwd = a.eager_backward_factor * k;
  if (in.c->amp) t.amp_casts = eager_memory(in, d, gm, at).amp_casts;
  return t;
}

/// torchtitan's op-level selective checkpointing (activation_checkpoint mode selective,
/// selective_ac_option "op"): its policy saves the outputs of matmuls, SDPA, reduce-scatters and
/// max, "except every second mm" (torchtitan/models/llama/parallelize_llama.py _save_list and
/// _custom_policy at 9dec370, torchtitan's December 2024 benchmarks' commit; today
/// torchtitan/distributed/activation_checkpoint.py SelectiveAC), and recomputes everything else.
/// In a Llama block's forward the matmuls run wq, wk, wv, wo, w1, w3, w2, so the second, fourth
/// and sixth (wk, wo, w3) run again, with all the elementwise work; attention does not.
/// Forward seconds of those GEMMs; for MoE and MLA blocks (not in the policy's Llama order) half
/// of the layer's forward GEMMs (ESTIMATE).
constexpr double op_sac_gemms(const layer_inputs& in, const layer_dims& d, bool moe,
                              const linear_seconds& lin) {
  const transformer_spec& m = *in.m;
  if (moe || m.is_mla()) return 0.5 * lin.fwd;
  const double T = d.T, h = d.h, tp = d.tp;
  double t = gemm_seconds(in.g, T, d.kv_local, h) + gemm_seconds(in.g, T, h, d.q / tp);
  if (m.ffn_type == ffn_kind::gated) t += gemm_seconds(in.g, T, m.ffn / tp, h);
  return t;
}

// ---- async TP (step_assumptions::async_tp) -------------------------------------------------------
// PyTorch's symmetric-memory async TP at torchtitan's async-TP benchmark (torch 38410cf, 2025-06;
// torch/distributed/_symmetric_memory/__init__.py), for a TP group inside one node:
//  - fused_all_gather_matmul (_pipelined_all_gather_and_consume): first the local shard copied
//    into its symmetric buffer and a barrier, not overlapped ("we are giving up the chance to
//    overlap \"mv\" and \"b\" with the first shard_consumer"); the current stream runs the
//    local shard's GEMMs; step s = 1 .. tp-1 then, on the backend stream for odd s and the
//    current one for even s, pulls shard s from its peer with a copy (the copy engine, over
//    NVLink) and runs that shard's GEMMs, M / tp rows each.
//  - fused_matmul_reduce_scatter (_pipelined_produce_and_all2all): step s computes the chunk for
//    one peer into a symmetric buffer, a barrier, the peer's partial pulled, a barrier, on the
//    two streams alternately ("p2p copies from different streams cannot overlap"); the local
//    chunk last; then one kernel reduces the tp partials (reading tp chunks, writing one).
//  Both end in a barrier.
// Timed as the two streams over two shared resources, the SMs (one GEMM at a time, each at the
// rate of its own M / tp size and waves: gemm_seconds) and the copy engine's link (one pull at a
// time at the intra-node tier's achievable rate), so the first shard's pull (all-gather) or the
// last partial's (reduce-scatter) is exposed, and a GEMM shorter than a pull waits for it.
// A GEMM runs under the copies' HBM traffic (each step writes a pulled shard and serves a peer's
// pull of one): its memory time counts those bytes too. Each pull costs a launch
// (step_assumptions::kernel_overhead) and, for the reduce-scatter, two barriers of the tier's
// latency. Not counted: the two streams' GEMMs overlapping each other (which the source says
// reduces wave quantisation: the chunk GEMMs are taken one after another, a bound from below on
// that benefit), the all-gather output's local-shard copy (overlapped with the last GEMM).

/// One decomposed step: its chunk GEMMs' seconds (`gemm`), a pull's seconds (`pull`).
struct async_tp_step {
  double gemm = 0.0, pull = 0.0;
};

/// Seconds of fused_all_gather_matmul over `tp` ranks (the two-stream schedule above).
constexpr double pipelined_all_gather_matmul(int tp, async_tp_step st) {
  double stream[2] = {st.gemm, 0.0};  // current stream: the local shard's GEMMs
  double sm = st.gemm, link = 0.0;
  for (int s = 1; s < tp; ++s) {
    double& free = stream[s % 2];
    link = (free > link ? free : link) + st.pull;
    sm = (link > sm ? link : sm) + st.gemm;
    free = sm;
  }
  return sm;
}

/// Seconds of fused_matmul_reduce_scatter over `tp` ranks, before its reduction kernel.
constexpr double pipelined_matmul_reduce_scatter(int tp, async_tp_step st) {
  double stream[2] = {0.0, 0.0};
  double sm = 0.0, link = 0.0;
  for (int s = 1; s < tp; ++s) {
    double& free = stream[s % 2];
    sm = (free > sm ? free : sm) + st.gemm;
    link = (sm > link ? sm : link) + st.pull;
    free = link;
  }
  sm = (stream[0] > sm ? stream[0] : sm) + st.gemm;  // the local chunk, on the current stream
  return sm > stream[1] ? sm : stream[1];
}

/// One GEMM shape of a decomposed collective: `copies` products of rows x width x depth (wk and
/// wv, w1 and w3), each its own kernel per chunk; undecomposed, as gemms_of_layer counts them in
/// the layer's compute: one product `copies` x as wide when `wide` (the FFN's w1 and w3), else
/// a batch of `copies`.
struct async_tp_gemm {
  double width = 0.0, depth = 0.0, copies = 1.0;
  bool wide = false;
};

/// The GEMMs of one decomposed collective (up to two shapes).
struct async_tp_gemms {
  async_tp_gemm g[2]{};
  int n = 1;
};

/// Seconds a fused collective adds to its GEMMs' undecomposed time (counted in t.compute): the
/// decomposed schedule less the whole GEMMs, at least 0. `all_gather`: a gather feeding the
/// GEMMs; else the reduce-scatter of the GEMM's output (n = 1) with its reduction kernel.
constexpr double async_tp_exposed(const layer_inputs& in, const layer_dims& d,
                                  const async_tp_gemms& gm, bool all_gather) {
  const gemm_ctx& g = in.g;
  const network_tier& link = in.p->tp.intra;
  const int tp = in.l->tp;
  const double rows = d.T / d.tp, shard = rows * d.h * d.e;  // a shard or a partial, bytes
  async_tp_step st;
  st.pull = shard / link.effective().value + in.a->kernel_overhead.value +
            (all_gather ? 0.0 : 2.0 * link.latency.value);
  // a step's GEMMs, or their operands' bytes with the step's pulled shard written and a peer's
  // pull of one read over HBM, whichever is slower
  double whole = 0.0, mem = 2.0 * shard / g.hbm;
  for (int i = 0; i < gm.n; ++i) {
    const async_tp_gemm& x = gm.g[i];
    const double m = rows, n = x.width, k = x.depth;
    st.gemm += x.copies * gemm_seconds(g, m, n, k);
    mem += x.copies * (g.e * (m * k + k * n + m * n) / g.hbm + g.overhead);
    whole += x.wide ? gemm_seconds(g, d.T, x.copies * n, k) : gemm_seconds(g, d.T, n, k, x.copies);
  }
  if (mem > st.gemm) st.gemm = mem;
  // the gather's prologue (the local shard copied, read and written, and a barrier) or the
  // reduce-scatter's reduction kernel; the closing barrier
  double t = all_gather ? memory_seconds(g, 2.0 * shard) + g.overhead + link.latency.value +
                              pipelined_all_gather_matmul(tp, st)
                        : pipelined_matmul_reduce_scatter(tp, st) +
                              memory_seconds(g, (d.tp + 1.0) * shard) + g.overhead;
  t += link.latency.value - whole;
  return t > 0.0 ? t : 0.0;
}

/// Whether async TP times this layer's TP collectives: asked for, sequence parallelism (the
/// fused patterns are its gathers and reduce-scatters), the TP group inside one node (symmetric
/// memory's peers), and a dense block with multi-head or grouped-query attention (the shapes
/// async_tp_layer knows; MoE and MLA layers keep NCCL's exposed collectives: not modelled).
constexpr bool async_tp_applies(const layer_inputs& in, const layer_dims& d, bool moe) {
  const collective_group& g = in.p->tp;
  return in.a->async_tp && d.sp && in.l->tp > 1 && !g.crosses_nodes() && !moe && !in.m->is_mla();
}

/// Tensor-parallel seconds of one dense layer under async TP (the fusions Inductor's
/// micro_pipeline_tp pass makes, torch/_inductor/fx_passes/micro_pipeline_tp.py): forward, and
/// each recomputed forward, all four collectives fused (the attention's and the FFN's input
/// gathers with wq, wk, wv and w1, w3; wo's and w2's reduce-scatters); backward, the gathers of
/// wo's and w2's output gradients fused with their data-gradient GEMMs (the gathered tensor is
/// their left operand; the weight gradients take it transposed, not matched), while the
/// reduce-scatters of the attention's and the FFN's input gradients stay NCCL's: their input is
/// a sum of matmuls (wq + wk + wv, w1 + w3), and only a single producer matmul is fused.
/// `n_fwd`: forward passes (1 + recomputed); `regathers`: op-SAC's re-gathered inputs (0 or 1).
constexpr double async_tp_layer(const layer_inputs& in, const layer_dims& d, double n_fwd,
                                double regathers, double act) {
  const transformer_spec& m = *in.m;
  const double h = d.h, qw = d.q / d.tp, kv = d.kv_local, f = m.ffn / d.tp;
  const bool gated = m.ffn_type == ffn_kind::gated;
  const double gate = gated ? 2.0 : 1.0;
  const async_tp_gemms qkv{{{qw, h}, {kv, h, 2.0}}, 2}, wo{{{h, qw}}};
  const async_tp_gemms up{{{f, h, gate, true}}}, down{{{h, f}}};
  const double fwd = async_tp_exposed(in, d, qkv, true) + async_tp_exposed(in, d, wo, false) +
                     async_tp_exposed(in, d, up, true) + async_tp_exposed(in, d, down, false);
  // backward: dY gathered into wo's (T x h by h x q/tp) and w2's data gradients
  const async_tp_gemms wo_dx{{{qw, h}}}, down_dx{{{f, h}}};
  const double bwd = async_tp_exposed(in, d, wo_dx, true) + async_tp_exposed(in, d, down_dx, true) +
                     2.0 * coll(collective_kind::reduce_scatter, act, in.p->tp, in.a->collectives);
  // op SAC's recomputed forward gathers wk's and w3's inputs again
  const async_tp_gemms wk{{{kv, h}}}, w3{{{f, h}}};
  const double again = gated ? async_tp_exposed(in, d, w3, true)
                             : coll(collective_kind::all_gather, act, in.p->tp, in.a->collectives);
  return n_fwd * fwd + bwd + regathers * (async_tp_exposed(in, d, wk, true) + again);
}

// PyTorch's ring attention, what torchtitan's context parallelism runs
// (torch.distributed.tensor.experimental.context_parallel; _attention.py at the torch of
// torchtitan's December 2024 benchmarks, 1963fc8): every SDPA call on the rank's sequence chunk
// becomes cp calls, one per K/V chunk, with load balancing (two round-robin half chunks per rank,
// each call on a half of the queries or of the keys), merged by _SDPAMerger in fp32.
//  - K and V as SDPA sees them: torchtitan's Attention repeats the KV heads to the query heads
//    before F.scaled_dot_product_attention (models/llama/model.py repeat_kv), so the chunk that
//    travels has the local query width, not the KV heads'.
//  - Forward (and the recomputed forward): K and V concatenated into one buffer, then all-gathered
//    once (_AllGatherRotater, rotate_method "allgather") or passed to the next rank at each of the
//    cp - 1 steps (_AllToAllRotater: ft_c.permute_tensor, a point-to-point exchange).
//  - Backward (_templated_ring_attention_backward): K and V again through a fresh rotater of the
//    same kind, and dK, dV in fp32 accumulators (convert_to_f32) passed to the next rank at every
//    one of the cp steps by an _AllToAllRotater whatever rotate_method says.
//  - When they wait: eager, the functional collectives return an AsyncCollectiveTensor that waits
//    at first use, behind the SDPA of one step (the all-gather behind the first step's, the dK/dV
//    of step i behind step i + 1's, the last exposed). Under torch.compile (torchtitan compiles
//    every block, fullgraph, the ring traced into it) a traced collective is followed at once by
//    wait_tensor (_functional_collectives.py _maybe_wrap_tensor: "if _are_we_tracing(): return
//    wait_tensor(self)"), and Inductor leaves it there unless reorder_for_compute_comm_overlap is
//    set (torch/_inductor/config.py, False by default): every exchange is exposed.
//  - The merge and the accumulators (torch_ring_attention_bytes below) are memory-bound kernels.
/// Elements of one rank's K and V chunk as torchtitan's SDPA sees them (the local query width).
constexpr double torch_ring_kv_elements(const layer_dims& d) { return 2.0 * d.T * d.q / d.tp; }

/// HBM bytes of one layer's ring-attention bookkeeping (see above), one forward pass and the
/// backward, counted as Inductor fuses them (read every input once, write every output once;
/// eager runs each op of the merge as a kernel of its own, more passes, not counted apart). Per
/// element of the rank's attention output, n = T x the local query width: the merge of each
/// step after the first reads the running fp32 output and the call's 16-bit output and writes
/// the fp32 output (a partial step's _partial_update concatenates the whole tensor again), and
/// the result is cast back; backward, dQ and (2n elements) dK, dV are accumulated the same way,
/// from the first call's gradients into fp32 and, every later step, from the buffer received and
/// the call's gradients into the buffer sent on; cast back at the end. The K, V concatenation
/// feeding the exchange: once per pass with the all-gather, every exchanging step with the
/// point-to-point rotater. The log-sum-exp (T x heads, 1/head_dim of these) is left out.
struct ring_bytes {
  double fwd = 0.0, bwd = 0.0;
};
constexpr ring_bytes torch_ring_attention_bytes(const layer_inputs& in, const layer_dims& d) {
  const double cp = in.l->cp, e = d.e, n = d.T * d.q / d.tp;
  const double cats = in.a->cp_kind == context_parallel_kind::all_gather ? 1.0 : cp - 1.0;
  const double kv_cat = cats * torch_ring_kv_elements(d) * 2.0 * e;
  const double merge = 2.0 * fp32_bytes + e, first = e + fp32_bytes, cast_back = fp32_bytes + e;
  ring_bytes r;
  r.fwd = kv_cat + n * ((cp - 1.0) * merge + cast_back);
  r.bwd = kv_cat + 3.0 * n * (first + (cp - 1.0) * merge + cast_back);  // dQ, dK, dV
  return r;
}

/// Exposed seconds of one layer's PyTorch ring-attention exchanges (see above).
constexpr double torch_ring_attention_comm(const layer_inputs& in, const layer_dims& d,
                                           const attention_times& at) {
  const training_config& c = *in.c;
  const step_assumptions& a = *in.a;
  const collective_group& g = in.p->cp;
  const double cp = in.l->cp;
  const double kv = torch_ring_kv_elements(d) * d.e;
  const double dkv_step = coll(collective_kind::send_recv, torch_ring_kv_elements(d) * fp32_bytes,
                               g, a.collectives);
  const bool gather = a.cp_kind == context_parallel_kind::all_gather;
  const double kv_step = gather ? 0.0 : coll(collective_kind::send_recv, kv, g, a.collectives);
  const double kv_once = gather ? coll(collective_kind::all_gather, kv * cp, g, a.collectives) : 0.0;
  // forward passes: the forward and, under full recompute, its rerun (every recompute_every-th)
  const double passes = c.recompute == recompute_mode::full ? 1.0 + 1.0 / c.recompute_every : 1.0;
  if (c.compile) {
    const double one_pass = kv_once + (cp - 1.0) * kv_step;
    return passes * one_pass + one_pass + cp * dkv_step;
  }
  const double fwd_call = at.fwd / cp, bwd_call = (at.fwd_bwd - at.fwd) / cp;
  auto exposed = [](double comm, double under) { return comm > under ? comm - under : 0.0; };
  const double fwd = exposed(kv_once, fwd_call) + (cp - 1.0) * exposed(kv_step, fwd_call);
  const double bwd = exposed(kv_once, bwd_call) +
                     (cp - 1.0) * exposed(kv_step + dkv_step, bwd_call) + dkv_step;
  return passes * fwd + bwd;
}

/// Tensor-, context- and expert-parallel communication of one layer (into t.tp, t.cp, t.ep).
constexpr void layer_communication(const layer_inputs& in, const layer_dims& d,
                                   const layer_kind& k, const attention_times& at, layer_time& t) {
  const double attn_fwd_bwd = at.fwd_bwd;
  const bool moe = k.moe;
  const transformer_spec& m = *in.m;
  const training_config& c = *in.c;
  const parallel_layout& l = *in.l;
  const step_assumptions& a = *in.a;
  const double T = d.T, h = d.h, e = d.e;
  // ---- tensor parallel: an all-reduce (or AG + RS pair) per part forward, one backward; a
  // linear mixer as an attention block (in_proj column-, out_proj row-parallel: MambaMixer) ----
  if (l.tp > 1) {
    const double act = T * h * e, parts = k.parts();
    const double fwd_comm = d.sp ? parts * (coll(collective_kind::all_gather, act, in.p->tp, a.collectives) +
                                            coll(collective_kind::reduce_scatter, act, in.p->tp, a.collectives))
                                 : parts * coll(collective_kind::all_reduce, act, in.p->tp, a.collectives);
    const double n_fwd = c.recompute == recompute_mode::full ? 1.0 + 1.0 / c.recompute_every : 1.0;
    t.tp = (n_fwd + 1.0) * fwd_comm;
    const bool regather = d.sp && c.recompute == recompute_mode::selective &&
                          c.framework == framework_kind::torchtitan;
    if (regather) {
      // torchtitan's op policy saves reduce_scatter_tensor's outputs but not all_gather's
      // (op_sac_gemms): the recomputed forward gathers the sequence-parallel input of the
      // attention and of the FFN again (compiled too: AOTAutograd's partitioner recomputes every
      // node the policy marks PREFER_RECOMPUTE, torch/_functorch/partitioners.py must_recompute)
      t.tp += 2.0 * coll(collective_kind::all_gather, act, in.p->tp, a.collectives);
    }
    if (async_tp_applies(in, d, moe)) t.tp = async_tp_layer(in, d, n_fwd, regather ? 1.0 : 0.0, act);
    t.tp *= 1.0 - a.tp_overlap;
  }
  // ---- context parallel: ring attention KV exchange ----
  if (l.cp > 1 && k.attention) {
    const double kv_bytes = 2.0 * T * d.kv_local * e;  // this rank's K and V chunk
    if (c.framework == framework_kind::torchtitan) {
      t.cp = torch_ring_attention_comm(in, d, at);
    } else if (a.cp_kind == context_parallel_kind::ring) {
      const double step = coll(collective_kind::send_recv, kv_bytes, in.p->cp, a.collectives);
      const double comm = (l.cp - 1.0) * step * 3.0;  // forward, and 2x backward (KV and dKV)
      const double hidden = attn_fwd_bwd;
      t.cp = comm > hidden ? comm - hidden : 0.0;
    } else {
      // all-gather K, V forward (and again when recomputed), reduce-scatter dK, dV backward;
      // nccl sizes are the gathered buffers
      const double full = kv_bytes * l.cp;
      const double n_ag = c.recompute == recompute_mode::full ? 2.0 : 1.0;
      t.cp = n_ag * coll(collective_kind::all_gather, full, in.p->cp, a.collectives) +
             coll(collective_kind::reduce_scatter, full, in.p->cp, a.collectives);
    }
  }
  // ---- expert parallel: dispatch + combine, forward and backward ----
  if (moe && l.ep > 1) {
    const double routed_bytes = T / d.seq_shard * m.moe.experts_per_token * h * e;
    t.ep = 4.0 * coll(collective_kind::all_to_all, routed_bytes, in.p->ep, a.collectives);
    // hidden under the layer's compute up to ep_overlap of it (t.compute is set by the caller)
    const double hidden = a.ep_overlap * t.compute;
    t.ep = t.ep > hidden ? t.ep - hidden : 0.0;
  }
}

/// What LoRA's adapters and QLoRA's dequantisation add to one layer: the adapters' GEMMs
/// (forward, data and weight gradients) and their memory-bound kernels, forward and backward.
struct lora_times {
  linear_seconds lin{};
  double mem_fwd = 0.0, mem_bwd = 0.0;
};

/// One adapter on a linear layer x[rows, k] W[k, n] (`copies` of them: the local experts), as
/// PEFT's lora.Linear.forward runs it: `result = result + lora_B(lora_A(dropout(x))) * scaling`
/// after casting x to the adapter's dtype (peft/tuners/lora/layer.py). Each op is its own
/// kernel under the transformers profile (none shorter than the eager floor); under Megatron
/// the same bytes without the floor and without casts (its adapters are in the model's dtype).
constexpr void add_adapter(const layer_inputs& in, double rows, double k, double n,
                           double copies, lora_times& r) {
  const gemm_ctx& g = in.adapter;
  const step_assumptions& a = *in.a;
  const training_config& c = *in.c;
  const double rank = in.lora_rank, e = in.act_e, f32 = fp32_bytes;
  r.lin += linear(g, rows, rank, k, copies);  // lora_A: x[rows, k] -> [rows, rank]
  r.lin += linear(g, rows, n, rank, copies);  // lora_B: [rows, rank] -> [rows, n]
  auto ops = [&](double kernels, double bytes) { return eager_ops_seconds(g, kernels * copies, bytes); };
  const bool cast = c.framework == framework_kind::transformers && a.lora_adapters_fp32 &&
                    hf_regime_of(c).autocast && e < f32;
  const double X = rows * k, Y = rows * n;  // elements of the adapter's input and output
  double f = 0.0, b = 0.0;
  if (cast) {
    // x.to(float32), then autocast's cast of that input back to 16 bits for lora_A's GEMM, and
    // autocast's 16-bit copies of the fp32 A and B (cached once per forward)
    f += ops(2, (e + f32) * X) + ops(1, (f32 + half_bytes) * rank * k) +
         ops(1, (f32 + half_bytes) * rank * n);
    // backward: both casts of the input gradient, and dA, dB cast back to fp32
    b += ops(2, (e + f32) * X) + ops(1, (f32 + half_bytes) * rank * k) +
         ops(1, (f32 + half_bytes) * rank * n);
  }
  if (a.lora_dropout) {  // nn.Dropout on the adapter's input: read, write, 1-byte mask
    const double xb = cast ? f32 : e;
    f += ops(1, (2.0 * xb + dropout_mask_bytes) * X);
    b += ops(1, (2.0 * xb + dropout_mask_bytes) * X);
  }
  f += ops(1, 2.0 * e * Y) + ops(1, 3.0 * e * Y);  // * scaling; result + (read both, write)
  b += ops(1, 2.0 * e * Y);                         // the scaling's backward
  b += ops(1, 3.0 * e * X);  // autograd adds the adapter's input gradient to the base's
  r.mem_fwd += f;
  r.mem_bwd += b;
}

/// QLoRA: bitsandbytes dequantises each NF4 base weight (`elements` of it, `matrices` kernels)
/// to 16 bits before its GEMM, in the forward and again for the backward's data gradient; with
/// double quantisation two small kernels first restore the fp32 absmax. Every linear layer of
/// the decoder is quantised (transformers' BitsAndBytesConfig skips only the LM head).
constexpr double nf4_dequantize_seconds(const layer_inputs& in, double elements, double matrices) {
  if (!(elements > 0.0 && matrices > 0.0)) return 0.0;
  const double per = elements / matrices;
  // torchao's NF4Tensor under torch.compile (step_assumptions::nf4_dequant_fused): the weight as
  // stored read once, the 16-bit weight written, one kernel
  if (in.a->nf4_dequant_fused)
    return eager_ops_seconds(
        in.g, matrices, (nf4_bytes(memory_assumptions{}, in.c->qlora_double_quant) + half_bytes) * per);
  double t = eager_ops_seconds(in.g, matrices, nf4_dequantize_bytes * per);
  // double quantisation (training_config::qlora_double_quant): bitsandbytes' dequantize_4bit
  // first dequantises the 8-bit absmax (dequantize_blockwise, then `absmax += offset`: two more
  // kernels before each weight's dequantisation; bitsandbytes/functional.py)
  if (in.c->qlora_double_quant)
    t += eager_ops_seconds(in.g, matrices, nf4_absmax_dequantize_bytes * per) +
         eager_ops_seconds(in.g, matrices, nf4_absmax_offset_bytes * per);
  return t;
}

/// The adapters of one layer on their targets (training_config::lora_targets), and QLoRA's
/// dequantisation of every base weight. The transformers profile adapts Q, K, V, O and the FFN
/// matrices one by one (PEFT target_modules q_proj, ..., down_proj); Megatron adapts its fused
/// modules (linear_qkv, linear_proj, linear_fc1, linear_fc2: Megatron-Bridge / NeMo LoRA's
/// target_modules), so attention_qv adapts the fused QKV there. MLA's projections are taken as
/// a standard attention block of the same heads (ESTIMATE: not checked against a run).
constexpr lora_times lora_layer(const layer_inputs& in, const layer_dims& d, bool moe) {
  lora_times r;
  if (!in.frozen || !(in.lora_rank > 0.0)) return r;
  const transformer_spec& m = *in.m;
  const training_config& c = *in.c;
  const parallel_layout& l = *in.l;
  const double T = d.T, h = d.h, tp = d.tp, q = d.q / d.tp, kv = d.kv_local;
  const bool hf = c.framework == framework_kind::transformers;
  const bool gated = m.ffn_type == ffn_kind::gated;
  const lora_target t = c.lora_targets;
  const bool attn_all = t != lora_target::attention_qv;
  const bool ffn = t == lora_target::all_linear;
  // ---- attention ----
  if (hf) {
    add_adapter(in, T, h, q, 1.0, r);                   // q_proj
    add_adapter(in, T, h, kv, 1.0, r);                  // v_proj
    if (attn_all) {
      add_adapter(in, T, h, kv, 1.0, r);                // k_proj
      add_adapter(in, T, q, h, 1.0, r);                 // o_proj
    }
  } else {
    add_adapter(in, T, h, q + 2.0 * kv, 1.0, r);        // linear_qkv
    if (attn_all) add_adapter(in, T, q, h, 1.0, r);     // linear_proj
  }
  // ---- FFN: the dense one, or the routed experts (their rows under uniform routing) and the
  // shared ones ----
  auto ffn_adapters = [&](double rows, double width, double copies) {
    if (hf && gated) {
      add_adapter(in, rows, h, width, 2.0 * copies, r);  // gate_proj, up_proj
    } else {
      add_adapter(in, rows, h, (gated ? 2.0 : 1.0) * width, copies, r);  // linear_fc1 / fc1
    }
    add_adapter(in, rows, width, h, copies, r);           // down_proj / linear_fc2
  };
  double ffn_weights = 0.0;  // this GPU's FFN weight elements (for QLoRA)
  const double gate = gated ? 2.0 : 1.0;
  if (!moe) {
    if (ffn) ffn_adapters(T, m.ffn / tp, 1.0);
    ffn_weights = (gate + 1.0) * m.ffn / tp * h;
  } else {
    const double etp = l.expert_tensor_parallel();
    const double local_experts = 1.0 * m.moe.experts / l.ep;
    const double rows = T * m.moe.experts_per_token * (tp / etp) / local_experts;
    if (ffn) ffn_adapters(rows, m.moe.expert_ffn / etp, local_experts);
    ffn_weights = local_experts * (gate + 1.0) * m.moe.expert_ffn / etp * h;
    if (m.moe.shared_experts > 0) {
      const double sf = m.moe.shared_experts *
                        (m.moe.shared_expert_ffn > 0 ? m.moe.shared_expert_ffn : m.moe.expert_ffn);
      if (ffn) ffn_adapters(T, sf / tp, 1.0);
      ffn_weights += (gate + 1.0) * sf / tp * h;
    }
  }
  if (in.qlora) {
    // matrices: Q, K, V, O and gate, up, down one by one (transformers), or Megatron's fused four
    const double matrices = hf ? hf_attention_projections + gate + 1.0 : 4.0;
    const double weights = (q + 2.0 * kv) * h + q * h + ffn_weights;
    const double deq = nf4_dequantize_seconds(in, weights, matrices);
    r.mem_fwd += deq;  // before the forward GEMMs (and again in a recomputed forward)
    r.mem_bwd += deq;  // before the data-gradient GEMMs
  }
  return r;
}

/// One layer for one micro-batch on one GPU: its GEMMs, attention core, memory-bound kernels,
/// what recompute runs again, and its communication. A hybrid's layer (layer_kind): attention
/// only where it has attention; a linear mixer's projections with the GEMMs, its scan with
/// the attention core, its conv1d and gated norm with the memory-bound kernels.
constexpr layer_time one_layer(const layer_inputs& in, const layer_kind& k) {
  const bool moe = k.moe;
  const training_config& c = *in.c;
  const layer_dims d = dims_of(in);
  const layer_gemms gm = gemms_of_layer(in, d, k);
  const attention_times at = k.attention ? attention_core(in, d) : attention_times{};
  memory_times mem = c.framework == framework_kind::megatron ? fused_memory(in, d, gm, at, k)
                     : c.compile                            ? compiled_memory(in, d, gm, at)
                                                            : eager_memory(in, d, gm, at);
  // LoRA / QLoRA: the adapters' GEMMs and kernels, the dequantisation of the NF4 base
  const lora_times lora = lora_layer(in, d, moe);
  linear_seconds lin = gm.lin;
  lin += lora.lin;
  mem.fwd += lora.mem_fwd;
  mem.bwd += lora.mem_bwd;
  // a linear mixer's scan, conv1d and gated norm: full recompute runs their forward again,
  // selective recompute (core attention only) does not
  const mixer_times mx = k.linear ? linear_mixer_kernels(in, d) : mixer_times{};
  mem.fwd += mx.mem_fwd;
  mem.bwd += mx.mem_bwd;
  if (k.attention && in.l->cp > 1 && c.framework == framework_kind::torchtitan) {
    const ring_bytes ring = torch_ring_attention_bytes(in, d);  // PyTorch's ring attention
    mem.fwd += ring.fwd / in.g.hbm;
    mem.bwd += ring.bwd / in.g.hbm;
  }
  // ---- recompute: what it recomputes, at the same rates ----
  double re_compute = 0.0, re_memory = 0.0;
  if (c.recompute == recompute_mode::selective && c.framework == framework_kind::torchtitan) {
    re_compute = op_sac_gemms(in, d, moe, lin);  // op-level: every second matmul
    re_memory = mem.fwd;                        // and all the elementwise work
  } else if (c.recompute == recompute_mode::selective) {
    re_compute = at.fwd;
    re_memory = at.scores_bytes / in.g.hbm;
  } else if (c.recompute == recompute_mode::full) {
    // every recompute_every-th layer (torchtitan's selective_ac_option = k), averaged
    re_compute = (lin.fwd + at.fwd + mx.scan_fwd) / c.recompute_every;
    re_memory = mem.fwd / c.recompute_every;
  }
  layer_time t;
  t.compute = lin.fwd + lin.bwd + at.fwd_bwd + mx.scan_fwd_bwd + re_compute;
  t.memory = mem.fwd + mem.bwd + re_memory + mem.amp_casts;
  t.bwd_compute = lin.bwd + (at.fwd_bwd - at.fwd) + (mx.scan_fwd_bwd - mx.scan_fwd) + mem.bwd +
                  re_compute + re_memory;
  layer_communication(in, d, k, at, t);
  return t;
}

}  // namespace detail

/// Nodes the plan uses: plan.nodes, or as many as the layout's GPUs need.
constexpr int plan_nodes(const training_plan& p) {
  if (p.nodes > 0) return p.nodes;
  const int g = p.node.gpus > 0 ? p.node.gpus : 1;
  return (p.layout.gpus() + g - 1) / g;
}

/// Sequences per step: config.global_batch, else micro_batch x dp x micro-batches (0
/// micro-batches: one per pipeline stage).
constexpr int plan_global_batch(const training_plan& p) {
  if (p.config.global_batch > 0) return p.config.global_batch;
  const int mb = p.config.micro_batches > 0 ? p.config.micro_batches : p.layout.pp;
  // in double first: three ints near their limits multiply past int's (and long long's) range
  const double batch = 1.0 * p.config.micro_batch * p.layout.dp * mb;
  detail::check_input(batch <= 2147483647.0,
                      "training_config.micro_batch x layout.dp x micro-batches must stay below "
                      "2^31 sequences per step",
                      batch);
  return static_cast<int>(batch);
}

namespace detail {

/// What the step models of a hybrid (transformer_spec::pattern): Megatron-LM's MambaMixer
/// path (framework megatron), without context parallelism (the linear mixer's sequence split
/// is not modelled), and what training_memory models (check_trainable_memory: tp dividing the
/// mixer's heads and groups, no LoRA).
constexpr void check_trainable_step(const transformer_spec& m, const parallel_layout& l,
                                    const training_config& c) {
  if (!m.is_hybrid()) return;
  check_input(c.framework == framework_kind::megatron,
              "training a hybrid (linear-attention / state-space layers): the step time models "
              "Megatron-LM's kernels only (--framework megatron)");
  check_input(l.cp == 1, "training a hybrid: context parallelism over linear-mixer layers is "
                         "not modelled (layout.cp must be 1)", l.cp);
  check_trainable_memory(m, l, c);
}

/// How the layers split over the pipeline stages (step_assumptions::first/last_stage_layers).
struct stage_split {
  int first_layers = 0, last_layers = 0;  // 0: the even split
  double mid_layers = 0.0;                // layers of every other stage
};

/// How the layers of m split over the layout's pipeline stages (parallel_layout's
/// first_stage_layers / last_stage_layers; checked by its validate(m)).
constexpr stage_split split_stages(const transformer_spec& m, const parallel_layout& l) {
  stage_split s;
  if (!l.uneven_stages()) {
    s.mid_layers = 1.0 * m.layers / l.pp;
    return s;
  }
  s.first_layers = l.first_stage_layers;
  s.last_layers = l.last_stage_layers;
  s.mid_layers = l.middle_stage_layers(m.layers);
  return s;
}

/// Checks the plan (throws gpuplan::invalid_input naming the field) and returns its stage split.
constexpr stage_split validate_plan(const training_plan& p, const training_config& c) {
  const parallel_layout& l = p.layout;
  l.validate(p.model);
  check_trainable_step(p.model, l, c);
  const stage_split s = split_stages(p.model, l);
  p.node.validate();
  c.validate(l.dp);
  check_input(c.seq % l.cp == 0, "training_config.seq must be a multiple of layout.cp", c.seq,
              l.cp);
  const int nodes = plan_nodes(p);
  // in long long: nodes = 2^31 - 1 wrapped the product negative (gpuplan issue 22)
  check_input(1LL * nodes * p.node.gpus >= l.gpus(),
              "training_plan.nodes x node.gpus must hold layout.gpus()", 1LL * nodes * p.node.gpus,
              l.gpus());
  check_input(1LL * nodes * p.node.gpus <= parallel_layout::max_gpus,
              "training_plan.nodes x node.gpus must be at most 2^24 GPUs "
              "(parallel_layout::max_gpus)",
              1LL * nodes * p.node.gpus);
  check_input(nodes == 1 || p.node.nics.count > 0,
              "training_plan.node has no NICs but the layout spans several nodes", nodes);
  check_input(p.node.gpu.peak.tensor(c.dtype).value > 0.0,
              "training_config.dtype has no tensor-core rate on this GPU (peak is zero)");
  check_input(!p.assumptions.fsdp_float8_all_gather ||
                  (c.framework == framework_kind::torchtitan && c.dtype == precision::fp8),
              "step_assumptions.fsdp_float8_all_gather needs framework torchtitan and dtype fp8 "
              "(torchao's float8 linears)");
  check_input(p.bisection_fraction > 0.0 && p.bisection_fraction <= 1.0,
              "training_plan.bisection_fraction must be in (0, 1]");
  return s;
}

/// The rates the layers run at on the plan's GPU (models/kernels.hpp): the GEMMs' peak for the
/// precision at the sustained fraction of the GPU's MAMF, the achievable HBM bandwidth, the
/// launch overhead, and the attention core's own rates.
constexpr layer_inputs make_layer_inputs(const training_plan& p, const training_config& c,
                                         const placement& pl) {
  const parallel_layout& l = p.layout;
  const step_assumptions& a = p.assumptions;
  const gpu_spec& gpu = p.node.gpu;
  layer_inputs in;
  in.m = &p.model;
  in.c = &c;
  in.l = &l;
  in.a = &a;
  in.p = &pl;
  in.g.peak = gpu.peak.tensor(c.dtype).value;
  in.g.hbm = achievable_bandwidth(gpu, a.memory_bandwidth_fraction).value;
  // the sustained fraction of the tensor peak at precision `prec`: the assumption when set,
  // else the GPU's measured MAMF (matmul_fraction: the one rule serving follows too)
  auto sustained = [&](precision prec) {
    return matmul_fraction(gpu, prec, a.matmul_peak_fraction) * a.sustained_fraction;
  };
  in.g.frac = sustained(c.dtype);
  in.g.overhead = a.kernel_overhead.value;
  // eager PyTorch (transformers; torchtitan, compiled or not: its GEMMs are launched one by one
  // as in eager mode, torch.compile per block without CUDA graphs)
  in.g.floor = c.framework != framework_kind::megatron ? a.eager_op_floor.value : 0.0;
  in.g.e = bytes_per_element(c.dtype).value;
  in.g.sms = gpu.sm_count;
  in.g.tm = a.gemm_tile_m;
  in.g.tn = a.gemm_tile_n;
  in.g.split_depth = a.split_k_min_depth;
  in.attn = in.g;
  in.adapter = in.g;
  const double bf16_peak = gpu.peak.tensor(precision::bf16).value;
  if (c.dtype == precision::fp8 && bf16_peak > 0.0) {
    // Transformer Engine runs the attention core in 16 bits unless fp8 attention is asked for;
    // LoRA's adapters are plain 16-bit linears (Megatron-Bridge's ParallelLinearAdapter)
    in.adapter.peak = bf16_peak;
    in.adapter.frac = sustained(precision::bf16);
    in.adapter.e = half_bytes;
    if (!a.fp8_attention) in.attn = in.adapter;
  }
  in.slots = gpu.peak.fp32_vector.value / 2.0;  // an FMA counts 2 FLOPs in the datasheet's
  in.sfu = special_function_slots(gpu);
  in.tokens = 1.0 * c.micro_batch * c.seq / l.cp;
  in.qlora = c.qlora_rank > 0;
  in.frozen = c.lora_rank > 0 || in.qlora;
  in.lora_rank = in.qlora ? c.qlora_rank : c.lora_rank;
  // activations and communication stay 16-bit under fp8 GEMMs (Transformer Engine)
  in.act_e = c.dtype == precision::fp8 ? half_bytes : in.g.e;
  return in;
}

/// The layers of a stage: dense and MoE layer times, and their mean weighted by their counts.
struct layer_mix {
  int n_dense = 0, n_moe = 0;
  double share_dense = 0.0, share_moe = 0.0;
  layer_time avg{};
  [[nodiscard]] constexpr double mix(double dense, double moe) const {
    return share_dense * dense + share_moe * moe;
  }
};

/// The mean layer: every kind of layer the model holds (transformer_spec::pattern; a
/// transformer's dense and MoE layers) timed once and weighted by its count.
constexpr layer_mix average_layer(const layer_inputs& in) {
  const transformer_spec& m = *in.m;
  layer_mix s;
  s.n_moe = moe_layer_count(m);
  s.n_dense = m.layers - s.n_moe;
  s.share_dense = 1.0 * s.n_dense / m.layers;
  s.share_moe = 1.0 * s.n_moe / m.layers;
  int count[16] = {};
  layer_kind kinds[16] = {};
  for (int i = 0; i < m.layers; ++i) {
    const layer_kind k = kind_of_layer(m, i);
    ++count[k.code()];
    kinds[k.code()] = k;
  }
  for (int code = 0; code < 16; ++code) {
    if (count[code] == 0) continue;
    const layer_time t = one_layer(in, kinds[code]);
    const double w = 1.0 * count[code] / m.layers;
    s.avg.compute += w * t.compute;
    s.avg.memory += w * t.memory;
    s.avg.tp += w * t.tp;
    s.avg.cp += w * t.cp;
    s.avg.ep += w * t.ep;
    s.avg.bwd_compute += w * t.bwd_compute;
  }
  return s;
}

/// What the first and the last stage do beyond their layers (seconds per micro-batch).
struct stage_ends {
  double head_compute = 0.0;  // LM head GEMM forward + backward (last stage)
  double head_memory = 0.0;   // the loss over the logits (last stage)
  double embed_memory = 0.0;  // the embedding lookup and its backward scatter (first stage)
  double tp_head = 0.0;       // the vocab-parallel loss's all-reduces (last stage)
};

constexpr stage_ends head_and_embedding(const layer_inputs& in) {
  const transformer_spec& m = *in.m;
  const parallel_layout& l = *in.l;
  const gemm_ctx& g = in.g;
  const double T = in.tokens, h = m.hidden, tp = l.tp, act_e = in.act_e;
  stage_ends r;
  // last stage: LM head GEMM forward + 2x backward, and the loss over fp32 logits (write,
  // softmax read + write, backward read + write)
  // (a frozen head, under LoRA: its data gradient only)
  // (torchtitan converts every nn.Linear to float8 but the output layer: torchao's
  // convert_to_float8_training with filter_fqns ["output"], torchtitan's float8 default)
  const gemm_ctx& hg = in.c->framework == framework_kind::torchtitan ? in.adapter : g;
  const linear_seconds head =
      in.frozen ? frozen_linear(hg, T, m.vocab / tp, h) : linear(hg, T, m.vocab / tp, h);
  r.head_compute = head.fwd + head.bwd;
  const double logits = T * m.vocab / tp;
  r.head_memory = (in.a->cross_entropy_fusion ? megatron_loss_bytes_fused(act_e)
                                              : megatron_loss_bytes_unfused(act_e)) *
                  logits / g.hbm;
  if (in.c->framework != framework_kind::megatron) {
    // logits.float(), log_softmax, nll_loss (torchtitan's cross_entropy_loss too:
    // F.cross_entropy(pred.float(), labels), torchtitan/components/loss.py, outside the
    // compiled blocks); backward: nll (fill + scatter), log_softmax, cast
    // back to 16 bits; and the embedding's dense gradient (zero-filled, then scattered)
    auto op = [&](double bytes) { return bytes / g.hbm > g.floor ? bytes / g.hbm : g.floor; };
    const double f32 = fp32_bytes;
    r.head_memory = op((act_e + f32) * logits) + op(2.0 * f32 * logits) + op(f32 * T) +
                    op(f32 * logits) + op(3.0 * f32 * logits) + op((f32 + act_e) * logits) +
                    (in.frozen ? 0.0 : 2.0 * op(f32 * m.vocab * h / tp));
  }
  // first stage: the embedding lookup (read rows, write activations; backward scatters, unless
  // the embedding is frozen: LoRA)
  r.embed_memory = (in.frozen ? embedding_passes - 1.0 : embedding_passes) * T * h * act_e / g.hbm;
  if (in.c->framework == framework_kind::megatron && !in.frozen)
    // the word embedding's gradient is a dense vocab x h tensor (PyTorch's embedding backward
    // zero-fills it, then scatters the rows), which Megatron's DDP hook adds into the fp32
    // main_grad (param.main_grad.add_(param.grad), megatron/core/distributed/
    // distributed_data_parallel.py): write act_e, then read act_e and 4, write 4, every micro-batch
    r.embed_memory += (2.0 * act_e + 2.0 * fp32_bytes) * m.vocab / tp * h / g.hbm;
  if (l.tp > 1)  // vocab-parallel loss: all-reduces of T floats (max, sum, target logit)
    r.tp_head = vocab_parallel_loss_all_reduces *
                coll(collective_kind::all_reduce, T * fp32_bytes, in.p->tp, in.a->collectives);
  return r;
}

/// Parameters of a layer (all its GPUs together), and the bytes of a gradient and a parameter as
/// the framework stores them (and accumulates, reduces, gathers and updates them): Megatron's
/// grad_dtype and dtype; the transformers regime (fp32 under amp).
struct step_parameters {
  double dense_layer = 0.0, moe_nonexpert = 0.0, moe_expert = 0.0;
  bool hf = false;
  bool titan = false;  // torchtitan: autograd accumulates, FSDP2 gathers block by block
  hf_regime hf_bytes{};
  double grad_e = 0.0, param_e = 0.0;
};

constexpr step_parameters parameters_of(const transformer_spec& m, const training_config& c,
                                        const step_assumptions& a, int n_moe) {
  step_parameters r;
  r.hf = c.framework == framework_kind::transformers;
  r.titan = c.framework == framework_kind::torchtitan;
  r.hf_bytes = hf_regime_of(c);
  r.grad_e = r.hf ? r.hf_bytes.grad : bytes_per_element(c.grad_dtype).value;
  r.param_e = r.hf ? r.hf_bytes.param
                   : bytes_per_element(c.dtype == precision::fp8 ? precision::bf16 : c.dtype).value;
  const int rank = c.lora_rank > 0 ? c.lora_rank : c.qlora_rank;
  if (rank > 0) {
    // LoRA / QLoRA: only the adapters train, so only they are reduced, clipped and updated:
    // rank x (k + n) per adapted k x n matrix, as lora_layer places them
    const double q = 1.0 * m.heads * m.head_dim, kv = 1.0 * m.kv_heads * m.head_dim, h = m.hidden;
    const bool gated = m.ffn_type == ffn_kind::gated;
    const lora_target t = c.lora_targets;
    double attn = r.hf ? (h + q) + (h + kv) : h + q + 2.0 * kv;  // q_proj, v_proj | linear_qkv
    if (t != lora_target::attention_qv) attn += r.hf ? (h + kv) + (q + h) : q + h;
    auto ffn = [&](double f) {
      if (t != lora_target::all_linear) return 0.0;
      return (r.hf && gated ? 2.0 * (h + f) : h + (gated ? 2.0 : 1.0) * f) + (f + h);
    };
    r.dense_layer = rank * (attn + ffn(m.ffn));
    if (n_moe > 0) {
      const double sf = m.moe.shared_experts *
                        (m.moe.shared_expert_ffn > 0 ? m.moe.shared_expert_ffn : m.moe.expert_ffn);
      r.moe_nonexpert = rank * (attn + (m.moe.shared_experts > 0 ? ffn(sf) : 0.0));
      r.moe_expert = rank * m.moe.experts * ffn(m.moe.expert_ffn);
    }
    if (r.hf) {
      // PEFT's fp32 adapters (lora_adapters_fp32) train in fp32 with fp32 gradients and no master
      // copy; else in the activations' dtype
      const double adapter_e = a.lora_adapters_fp32 && r.hf_bytes.autocast ? fp32_bytes : r.hf_bytes.act;
      r.grad_e = r.param_e = adapter_e;
      r.hf_bytes.master = 0.0;
    }
    return r;
  }
  const double attn = m.attention_parameters() + 2.0 * m.norm_parameters();
  r.dense_layer = attn + m.ffn_parameters(m.ffn > 0 ? m.ffn : 1);
  if (n_moe > 0) {
    r.moe_nonexpert = attn + m.router_parameters() + m.shared_expert_parameters();
    r.moe_expert = m.moe.experts * m.ffn_parameters(m.moe.expert_ffn);
  }
  if (m.is_hybrid()) {
    // a hybrid's layers differ: the mean parameters of its dense layers and of its MoE layers'
    // non-expert parts (transformer_spec::layer_parameters)
    double dense = 0.0, moe = 0.0;
    for (int i = 0; i < m.layers; ++i) {
      if (m.is_moe_layer(i)) moe += m.layer_parameters(i) - r.moe_expert;
      else dense += m.layer_parameters(i);
    }
    r.dense_layer = m.layers > n_moe ? dense / (m.layers - n_moe) : 0.0;
    r.moe_nonexpert = n_moe > 0 ? moe / n_moe : 0.0;
  }
  return r;
}

/// torchtitan's FSDP2 with pipeline parallelism (memory_common.hpp fsdp2_pipelined: parameters
/// unsharded from the stage's first forward to its last backward): the stage's parameters are
/// gathered once a step and its gradients reduce-scattered once, after its last backward
/// (fsdp2_pipeline_exposed). Bucketed (per tensor is DeepSpeed's).
constexpr bool fsdp2_under_pipeline(const training_config& c, const parallel_layout& l,
                                    const step_assumptions& a) {
  return fsdp2_pipelined(l, c) && !a.zero3_per_tensor;
}

/// Gradient accumulation: a memory pass over the stage's local gradients per micro-batch (after
/// the first, under autograd), unless the weight-gradient GEMMs accumulate in place; added to
/// the layers' memory time and the two end stages'. LoRA's trainable adapters are a negligible
/// fraction of the parameters: no pass.
constexpr void add_grad_accumulation(const layer_inputs& in, const step_parameters& sp, int micro,
                                     layer_mix& layers, stage_ends& ends) {
  const transformer_spec& m = *in.m;
  const parallel_layout& l = *in.l;
  const step_assumptions& a = *in.a;
  const double tp = l.tp, hbm = in.g.hbm;
  grad_accumulation_kind acc = a.grad_accumulation;
  if (acc == grad_accumulation_kind::automatic)
    acc = sp.hf || sp.titan ? grad_accumulation_kind::autograd : grad_accumulation_kind::fused;
  double bytes_per_param = 0.0;
  // torchtitan's FSDP2 under PP: no reduce-scatter until the last backward, every micro-batch
  // accumulates into the unsharded reduce-dtype gradients (fsdp2_under_pipeline)
  const bool unsharded = fsdp2_under_pipeline(*in.c, l, a);
  if (unsharded && acc == grad_accumulation_kind::autograd)
    bytes_per_param = fsdp2_unsharded_accumulation_bytes(sp.param_e, sp.grad_e, micro);
  else if (acc == grad_accumulation_kind::autograd && micro > 1 && !sp.hf_bytes.lora)
    // averaged over the micro-batches
    bytes_per_param = autograd_accumulation_passes * sp.grad_e * (micro - 1.0) / micro;
  else if (acc == grad_accumulation_kind::deepspeed_bf16 && !sp.hf_bytes.lora)
    // read lp, write its fp32 copy, read both, write the accumulator
    bytes_per_param = sp.param_e + fp32_bytes + 2.0 * fp32_bytes + fp32_bytes;
  if (!(bytes_per_param > 0.0)) return;
  // ZeRO-3 / FSDP reduce-scatter every micro-batch's gradients (as the data-parallel part
  // charges them) and accumulate the shard; ZeRO-1/2 sum whole gradients and reduce once a step
  // (the data-parallel part's one reduction)
  const bool sharded = l.zero >= 3 && !unsharded;
  const double dense_bytes = sharded ? bytes_per_param / l.shard_degree() : bytes_per_param;
  const double expert_bytes = sharded ? bytes_per_param / l.expert_shard_degree() : bytes_per_param;
  const double moe_time =
      layers.n_moe > 0
          ? (sp.moe_nonexpert / tp * dense_bytes +
             sp.moe_expert / (1.0 * l.ep * l.expert_tensor_parallel()) * expert_bytes) /
                hbm
          : 0.0;
  layers.avg.memory += layers.mix(sp.dense_layer / tp * dense_bytes / hbm, moe_time);
  // the embedding's gradients on the first stage (and the untied head's, or the tied copy's,
  // on the last)
  const double embed_acc = m.embedding_parameters() / tp * dense_bytes / hbm;
  ends.embed_memory += embed_acc;
  ends.head_memory += m.tied_embeddings && l.pp > 1
                          ? embed_acc  // the last stage's copy of the tied embedding
                          : m.lm_head_parameters() / tp * dense_bytes / hbm;
}

/// The pipeline schedule (Narayanan et al. 2021, Sec. 2.2): stage times, the slowest, and
/// m x max_i t_i + (sum_i t_i - max_i t_i) / v.
struct pipeline_times {
  double first = 0.0, last = 0.0, body = 0.0;  // seconds per micro-batch
  double t_max = 0.0, sum_stages = 0.0, v = 1.0, pipeline = 0.0;
  bool middle_is_max = false;
  double first_n = 0.0, last_n = 0.0, layers_per_stage = 0.0;
};

constexpr pipeline_times schedule(const parallel_layout& l, const stage_split& split,
                                  const layer_time& avg, const stage_ends& ends, int micro) {
  pipeline_times r;
  r.layers_per_stage = split.mid_layers;
  r.first_n = split.first_layers > 0 ? split.first_layers : split.mid_layers;
  r.last_n = split.last_layers > 0 ? split.last_layers : split.mid_layers;
  r.body = r.layers_per_stage * avg.total();
  r.first = r.first_n * avg.total() + ends.embed_memory;
  r.last = r.last_n * avg.total() + ends.head_compute + ends.head_memory + ends.tp_head;
  if (l.pp == 1)
    r.first = r.last =
        r.body + ends.embed_memory + ends.head_compute + ends.head_memory + ends.tp_head;
  r.t_max = r.first > r.last ? r.first : r.last;
  r.middle_is_max = l.pp > 2 && r.body > r.t_max;
  if (r.middle_is_max) r.t_max = r.body;
  r.sum_stages = l.pp == 1 ? r.first : r.first + r.last + (l.pp - 2.0) * r.body;
  r.v = l.virtual_stages;
  r.pipeline = micro * r.t_max + (r.sum_stages - r.t_max) / r.v;
  return r;
}

/// Parameters on the GPU of the heaviest stage (the first or the last holds the embedding / head).
struct local_parameters {
  double dense = 0.0, expert = 0.0;
};

constexpr local_parameters local_parameters_of(const transformer_spec& m, const parallel_layout& l,
                                               const layer_mix& layers,
                                               const step_parameters& sp) {
  const double tp = l.tp;
  // the embedding and the LM head are frozen under LoRA
  const double embed_p = sp.hf_bytes.lora ? 0.0 : m.embedding_parameters() + m.lm_head_parameters();
  const double stage_dense = (layers.n_dense * sp.dense_layer + layers.n_moe * sp.moe_nonexpert) / l.pp;
  const double stage_embed = l.pp == 1 || sp.hf_bytes.lora
                                 ? embed_p
                                 : (m.tied_embeddings ? m.embedding_parameters() : embed_p / 2.0);
  return {(stage_dense + stage_embed) / tp,
          layers.n_moe * sp.moe_expert / l.pp / (l.ep * l.expert_tensor_parallel())};
}

/// The share of a dense block's parameters in torchao's float8 linears (wq, wk, wv, wo and the
/// FFN's: all but the two norms); 0 when training does not gather them in fp8
/// (step_assumptions::fsdp_float8_all_gather under torchtitan with dtype fp8, dense models).
constexpr double float8_gathered_share(const transformer_spec& m, const training_config& c,
                                       const step_assumptions& a, const step_parameters& sp) {
  if (!a.fsdp_float8_all_gather || !sp.titan || c.dtype != precision::fp8 || m.is_moe() ||
      m.is_hybrid() || !(sp.dense_layer > 0.0))
    return 0.0;
  return (m.attention_parameters() + m.ffn_parameters(m.ffn)) / sp.dense_layer;
}

/// Mean bytes per gathered block parameter: the 16-bit parameter, or 1 byte for the float8
/// linears' weights (float8_gathered_share).
constexpr double block_gather_bytes(const transformer_spec& m, const training_config& c,
                                    const step_assumptions& a, const step_parameters& sp) {
  const double f8 = float8_gathered_share(m, c, a, sp);
  return f8 * bytes_per_element(precision::fp8).value + (1.0 - f8) * sp.param_e;
}

/// torchtitan's FSDP2 under PP (fsdp2_under_pipeline): once a step, each block and the root
/// gathered ahead of the stage's first forward (prefetched one unit ahead: hidden behind about
/// one micro-batch's forward, zero3_overlap of it; ESTIMATE, as the distributed optimizer's
/// gather_params) and copied out on the compute stream (read and write); after the stage's last
/// backward every unit's gradients reduce-scattered in the reduce dtype, with nothing left to
/// run beside them on the first stage, whose last backward ends the pipeline. With v chunks per
/// rank (interleaved 1F1B) the other chunks finish their backward earlier and reduce under the
/// remaining backwards: only the last chunk's 1/v is exposed (ESTIMATE).
constexpr double fsdp2_pipeline_exposed(const training_plan& p, const training_config& c,
                                        const placement& pl, const step_parameters& sp,
                                        const local_parameters& local, const pipeline_times& pt,
                                        const layer_time& avg) {
  const transformer_spec& m = p.model;
  const step_assumptions& a = p.assumptions;
  if (pl.dp_cp.ranks <= 1 || !(local.dense > 0.0)) return 0.0;
  const double tp = p.layout.tp;
  const double root =
      (m.tied_embeddings ? m.embedding_parameters()
                         : (m.embedding_parameters() + m.lm_head_parameters()) / 2.0) / tp;
  const double blocks = local.dense > root ? local.dense - root : 0.0;
  const double units = pt.layers_per_stage + 1.0;
  const double gathered_bytes = blocks * block_gather_bytes(m, c, a, sp) + root * sp.param_e;
  const double gathers =
      units * coll(collective_kind::all_gather, gathered_bytes / units, pl.dp_cp, a.collectives);
  const double window = a.zero3_overlap * pt.layers_per_stage * (avg.compute + avg.memory) /
                        fwd_bwd_gemm_passes;
  const double hbm = achievable_bandwidth(p.node.gpu, a.memory_bandwidth_fraction).value;
  const double copy_out = 2.0 * gathered_bytes / hbm;
  const double reduce = units / pt.v *
                        coll(collective_kind::reduce_scatter, local.dense * sp.grad_e / units,
                             pl.dp_cp, a.collectives);
  return (gathers > window ? gathers - window : 0.0) + copy_out + reduce;
}

/// ZeRO-3 / FSDP: every micro-batch gathers the stage's parameters forward and backward (and
/// again in the recomputed forward under full recompute: the gathered copy is freed after each
/// module's forward), in buckets or tensor by tensor, and reduce-scatters the gradients; what runs
/// under the micro-batch's compute (zero3_overlap of it) is hidden. Each collective pays its
/// latency (ring steps grow with the group), which makes ZeRO-3 latency-bound on large groups.
constexpr double zero3_exposed(const training_plan& p, const training_config& c,
                               const placement& pl, const step_parameters& sp,
                               const local_parameters& local, const pipeline_times& pt,
                               const layer_time& avg, int micro) {
  const transformer_spec& m = p.model;
  const step_assumptions& a = p.assumptions;
  if (fsdp2_under_pipeline(c, p.layout, a))
    return fsdp2_pipeline_exposed(p, c, pl, sp, local, pt, avg);
  auto buckets = [](double params, double per) {
    const double n = params / (per > 0.0 ? per : params);
    return n < 1.0 ? 1.0 : static_cast<double>(ceil_div(n, 1.0));
  };
  const double tensors = pt.layers_per_stage * parameter_tensors_per_layer(m) +
                         parameter_tensors_outside_layers(m, p.layout.pp);
  // what is gathered: the parameters, or under LoRA the frozen base as well (FSDP and ZeRO-3
  // shard every parameter; only the adapters' gradients are reduced), in its stored bytes
  double gathered = local.dense, gathered_e = sp.param_e;
  if (sp.hf_bytes.lora) {
    training_config base = c;
    base.lora_rank = 0;
    base.qlora_rank = 0;
    const step_parameters sb = parameters_of(m, base, a, moe_layer_count(m));
    layer_mix mix;
    mix.n_moe = moe_layer_count(m);
    mix.n_dense = m.layers - mix.n_moe;
    const double base_params = local_parameters_of(m, p.layout, mix, sb).dense;
    gathered = base_params + local.dense;
    // QLoRA's base as bitsandbytes stores it: 4 bits and an fp32 absmax per nf4_block
    const double base_e = c.qlora_rank > 0 ? nf4_packed_bytes + fp32_bytes / nf4_block : sb.param_e;
    gathered_e = (base_params * base_e + local.dense * sp.param_e) / gathered;
  }
  // torchtitan's FSDP2: fully_shard on each TransformerBlock and once on the root (embedding,
  // final norm, output): one all-gather and one reduce-scatter per block
  // (torchtitan/parallelisms/parallelize_llama.py apply_fsdp at 9dec370; today
  // torchtitan/models/llama3/parallelize.py). Without PP the root is resharded after the
  // forward (reshard_after_forward = not pp_enabled) and nothing runs beside its collectives:
  // it is gathered before the embedding's forward and again before the output layer's
  // backward, and its gradients are reduce-scattered after the embedding's backward, the last
  // work of the step. Those three are exposed; the blocks' are prefetched behind compute.
  double root_exposed = 0.0, units = pt.layers_per_stage + 1.0;
  double local_dense = local.dense;
  double block_e = gathered_e;  // the blocks' gathered bytes (1 under float8 all-gather)
  if (sp.titan && !a.zero3_per_tensor && !sp.hf_bytes.lora && p.layout.pp == 1) {
    const double root =
        (m.embedding_parameters() + m.lm_head_parameters()) / p.layout.tp + 1.0 * m.hidden;
    // FSDP2 copies each all-gather's output into the unsharded parameters
    // (foreach_all_gather_copy_out, FSDPParamGroup.wait_for_unshard) on the compute stream, so
    // it is not hidden: every gathered byte read and written once per unshard. Each unshard:
    // every block before its forward and again before its backward, except the last block,
    // which is not resharded after its forward (reshard_after_forward = layer_id < n_layers - 1,
    // apply_fsdp); the root twice.
    if (root < gathered) {
      block_e = block_gather_bytes(m, c, a, sp);
      const double hbm = achievable_bandwidth(p.node.gpu, a.memory_bandwidth_fraction).value;
      const double unshards = 2.0 * pt.layers_per_stage - 1.0;
      if (pl.dp_cp.ranks > 1)
        root_exposed = 2.0 *
                       (block_e * (gathered - root) / pt.layers_per_stage * unshards +
                        gathered_e * 2.0 * root) / hbm;
      root_exposed += 2.0 * coll(collective_kind::all_gather, root * gathered_e, pl.dp_cp,
                                 a.collectives) +
                      coll(collective_kind::reduce_scatter, root * sp.grad_e, pl.dp_cp,
                           a.collectives);
      gathered -= root;
      local_dense -= root;
      units = pt.layers_per_stage;
    }
  }
  const double fsdp2_units = units;
  const double n_ag = a.zero3_per_tensor ? tensors
                      : sp.titan         ? fsdp2_units
                                         : buckets(gathered, a.zero3_gather_elements);
  const double n_rs = a.zero3_per_tensor ? tensors
                      : sp.titan         ? fsdp2_units
                                         : buckets(local_dense, a.zero3_reduce_elements);
  const double gathers =
      c.recompute == recompute_mode::full ? 2.0 + 1.0 / c.recompute_every : 2.0;
  // the list API copies every rank's slice out of (all-gather) or into (reduce-scatter) the
  // flat buffer: one copy_ per rank, each at least eager_op_floor; the all-gather's copies are
  // launched while it runs, the reduce-scatter's before it starts
  const double copies = a.zero3_list_copies ? pl.dp_cp.ranks * a.eager_op_floor.value : 0.0;
  const double one_ag = coll(collective_kind::all_gather, gathered / n_ag * block_e,
                             pl.dp_cp, a.collectives);
  const double one_rs = coll(collective_kind::reduce_scatter, local_dense / n_rs * sp.grad_e,
                             pl.dp_cp, a.collectives);
  const double per_mb = gathers * n_ag * (one_ag > copies ? one_ag : copies) +
                        n_rs * (one_rs + copies);
  const double window = a.zero3_overlap * pt.layers_per_stage * (avg.compute + avg.memory);
  return micro * ((per_mb > window ? per_mb - window : 0.0) + root_exposed);
}

/// The exposed data-parallel time: the gradient reduction over dp x cp, bucketed and overlapped
/// with the backward except for the last bucket; the distributed optimizer's parameter all-gather
/// overlapped with the next forward; or ZeRO-3's per-micro-batch gathers (zero3_exposed).
constexpr double data_parallel_exposed(const training_plan& p, const training_config& c,
                                       const placement& pl, const step_parameters& sp,
                                       const local_parameters& local, const pipeline_times& pt,
                                       const layer_time& avg, int micro) {
  const parallel_layout& l = p.layout;
  const step_assumptions& a = p.assumptions;
  if (l.zero > 2) return zero3_exposed(p, c, pl, sp, local, pt, avg, micro);
  const bool dist_opt = l.zero >= 1;
  const double bwd_window = pt.layers_per_stage * avg.bwd_compute;
  auto reduce_grads = [&](double params, const collective_group& grp) {
    if (grp.ranks <= 1 || !(params > 0.0)) return 0.0;
    const double bytes = params * sp.grad_e;
    const double buckets_n = params / a.grad_bucket_elements;
    const double n_buckets = buckets_n < 1.0 ? 1.0 : static_cast<double>(ceil_div(buckets_n, 1.0));
    const collective_kind k = dist_opt && !a.sharded_grad_all_reduce
                                  ? collective_kind::reduce_scatter
                                  : collective_kind::all_reduce;
    const double per_bucket = coll(k, bytes / n_buckets, grp, a.collectives);
    const double all = n_buckets * per_bucket;
    if (!a.overlap_grad_reduce) return all;
    const double hidden_part = all - per_bucket;
    return per_bucket + (hidden_part > bwd_window ? hidden_part - bwd_window : 0.0);
  };
  auto gather_params = [&](double params, const collective_group& grp) {
    if (grp.ranks <= 1 || !(params > 0.0)) return 0.0;
    const double t = coll(collective_kind::all_gather, params * sp.param_e, grp, a.collectives);
    if (!a.overlap_param_gather) return t;
    // ~ one forward. ESTIMATE: the layers' compute outside their backward, divided by the
    // fwd_bwd_gemm_passes of a GEMM's forward and backward
    const double window = pt.layers_per_stage * (avg.compute - avg.bwd_compute) / fwd_bwd_gemm_passes;
    return t > window ? t - window : 0.0;
  };
  double exposed = 0.0;
  exposed += reduce_grads(local.dense, pl.dp_cp);
  exposed += reduce_grads(local.expert, pl.expert_dp);
  if (dist_opt) {
    exposed += gather_params(local.dense, pl.dp_cp);
    exposed += gather_params(local.expert, pl.expert_dp);
  }
  return exposed;
}

/// The optimizer step on the GPU, or with CPU offload the PCIe transfers and the CPU's step.
struct optimizer_times {
  double optimizer = 0.0, offload = 0.0;
};

constexpr optimizer_times optimizer_step(const training_plan& p, const training_config& c,
                                         const step_parameters& sp, const local_parameters& local,
                                         double hbm) {
  const parallel_layout& l = p.layout;
  const step_assumptions& a = p.assumptions;
  const bool dist_opt = l.zero >= 1;
  const double shard = dist_opt ? 1.0 * l.shard_degree() : 1.0;
  const double opt_params =
      local.dense / shard + local.expert / (dist_opt ? l.expert_shard_degree() : 1.0);
  const bool has_master = sp.hf ? sp.hf_bytes.master > 0.0
                                : c.master_weights && c.dtype != precision::fp32;
  const double grad_e = sp.grad_e, param_e = sp.param_e;
  // Adam: read and write both fp32 moments (16 B) and the fp32 master copy (8 B); read the
  // gradient; copy the master into the working weights (read 4, write param_e). Around it, per
  // gradient element: the found-inf check of fp16 loss scaling (read), the global-norm clipping
  // (read) and zeroing the gradient buffer for the next step (write) -- Megatron's
  // MixedPrecisionOptimizer.step / DistributedOptimizer.
  double opt_bytes = 2.0 * 2.0 * fp32_bytes +
                     (has_master ? 2.0 * fp32_bytes + fp32_bytes : 0.0) + grad_e + param_e +
                     (c.dtype == precision::fp16 ? grad_e : 0.0) +
                     (a.clip_grad_norm ? grad_e : 0.0) + grad_e;
  if (sp.titan) {
    // torchtitan: AdamW with foreach=True (optimizer.fused false by default, torchtitan/
    // optimizer.py at 9dec370) over FSDP2's fp32 sharded parameters, which are the master copy;
    // torch.optim's _multi_tensor_adamw runs one pass per foreach op (foreach_adamw_fp32_bytes),
    // reading the gradient twice (lerp_ into exp_avg, addcmul_ into exp_avg_sq); clipping
    // (clip_grad_norm_ with foreach) reads every gradient for its norm, then multiplies each by
    // the clamped coefficient (read, write); zero_grad sets them to None (no pass)
    opt_bytes = foreach_adamw_fp32_bytes + 2.0 * grad_e + (a.clip_grad_norm ? 3.0 * grad_e : 0.0);
    // float8 all-gather: precompute_float8_dynamic_scale_for_fsdp after the step reads every
    // float8 linear's fp32 shard for its amax (torch._foreach_norm, ord inf; torchao
    // float8/fsdp_utils.py), its all-reduce of one float per tensor latency only
    opt_bytes += fp32_bytes * float8_gathered_share(p.model, c, a, sp);
  }
  optimizer_times r;
  if (c.offload == offload_kind::none) {
    r.optimizer = opt_params * opt_bytes / hbm;
  } else {
    const double pcie = a.pcie_fraction * p.node.gpu.pcie.per_direction().value;
    check_input(pcie > 0.0, "node.gpu.pcie is unknown: CPU offload needs the PCIe link");
    r.offload = opt_params * (grad_e + param_e) / pcie + opt_params / a.cpu_optimizer_params_per_s;
  }
  return r;
}

/// The part of the step that takes longest (the bottleneck the report names).
constexpr step_bottleneck largest_part(const step_breakdown& r) {
  struct {
    duration d;
    step_bottleneck b;
  } parts[] = {{r.compute, step_bottleneck::compute},
               {r.memory_bound, step_bottleneck::memory_bound},
               {r.tensor_parallel, step_bottleneck::tensor_parallel},
               {r.context_parallel, step_bottleneck::context_parallel},
               {r.expert_parallel, step_bottleneck::expert_parallel},
               {r.bubble, step_bottleneck::pipeline_bubble},
               {r.pipeline_p2p, step_bottleneck::pipeline_p2p},
               {r.data_parallel, step_bottleneck::data_parallel},
               {r.optimizer, step_bottleneck::optimizer},
               {r.offload, step_bottleneck::offload},
               {r.data_loading, step_bottleneck::data_loading}};
  duration most{};
  step_bottleneck which = r.bottleneck;
  for (const auto& part : parts)
    if (part.d > most) {
      most = part.d;
      which = part.b;
    }
  return which;
}

/// The step's model FLOPs (no recomputation: what MFU counts) and hardware FLOPs (with it: HFU),
/// for r.tokens_per_step tokens; LoRA's frozen base computes no weight gradients.
constexpr void step_flops(const transformer_spec& m, const training_config& c,
                          const step_assumptions& a, step_breakdown& r) {
  r.model_flops = training_flops_per_token(m, c.seq, recompute_mode::none, a.mfu_attention) *
                  r.tokens_per_step;
  r.hardware_flops = training_flops_per_token(m, c.seq, c.recompute, a.mfu_attention) *
                     r.tokens_per_step;
  if (c.recompute == recompute_mode::full && c.recompute_every > 1)  // 1 in k layers recomputed
    r.hardware_flops = r.model_flops + (r.hardware_flops - r.model_flops) / c.recompute_every;
  if (c.recompute == recompute_mode::selective && c.framework == framework_kind::torchtitan) {
    // op-level SAC recomputes wk, wo and w3 (detail::op_sac_gemms), not the attention core;
    // MoE and MLA blocks: half the layers' forward matmuls, as the step time counts them
    const double q = 1.0 * m.heads * m.head_dim, kv = 1.0 * m.kv_heads * m.head_dim;
    const double gated = m.ffn_type == ffn_kind::gated ? 1.0 * m.ffn : 0.0;
    const compute_per_token again =
        m.is_moe() || m.is_mla()
            ? 0.5 * forward_flops_per_token(m, c.seq, a.mfu_attention).layers_matmul
            : 2.0 * m.layers * (kv + q + gated) * m.hidden * units::FLOP_per_token;
    r.hardware_flops = r.model_flops + again * r.tokens_per_step;
  }
  if (c.lora_rank > 0 || c.qlora_rank > 0) {
    // a frozen base computes no weight gradients: one forward's weight FLOPs less (the
    // attention core has no weights; its backward stays). NVIDIA counts LoRA's model FLOPs so:
    // 4N per token (NeMo performance summary, LoRA rows: model TFLOP/s / tokens/s)
    const forward_flops f = forward_flops_per_token(m, c.seq, a.mfu_attention);
    const compute_amount wgrad = (f.total() - f.attention) * r.tokens_per_step;
    r.model_flops = r.model_flops - wgrad;
    r.hardware_flops = r.hardware_flops - wgrad;
  }
}

/// The step's parts on the critical stage, its bottleneck, and its yields (MFU, HFU, tokens/s).
constexpr step_breakdown assemble_step(const training_plan& p, const training_config& c,
                                       const placement& pl, const pipeline_times& pt,
                                       const layer_time& avg, const stage_ends& ends,
                                       double p2p, double dp_exposed, const optimizer_times& opt,
                                       double data, int micro, int nodes) {
  const transformer_spec& m = p.model;
  const parallel_layout& l = p.layout;
  const step_assumptions& a = p.assumptions;
  const double before_data = pt.pipeline + p2p + dp_exposed + opt.optimizer + opt.offload;
  step_breakdown r;
  r.total = (before_data + data) * units::s;
  // the critical stage's micro-batch work, m times; the rest is bubble
  const bool last_is_max = !pt.middle_is_max && pt.last >= pt.first;
  const bool first_is_max = !pt.middle_is_max && !last_is_max;
  const double crit_n = l.pp == 1 ? pt.layers_per_stage
                        : pt.middle_is_max ? pt.layers_per_stage
                        : last_is_max      ? pt.last_n
                                           : pt.first_n;
  const double extra_c = l.pp == 1 || last_is_max ? ends.head_compute : 0.0;
  const double extra_m = l.pp == 1 ? ends.head_memory + ends.embed_memory
                         : last_is_max ? ends.head_memory
                         : first_is_max ? ends.embed_memory
                                        : 0.0;
  const double extra_tp = (l.pp == 1 || last_is_max) ? ends.tp_head : 0.0;
  r.compute = micro * (crit_n * avg.compute + extra_c) * units::s;
  r.memory_bound = micro * (crit_n * avg.memory + extra_m) * units::s;
  r.tensor_parallel = micro * (crit_n * avg.tp + extra_tp) * units::s;
  r.context_parallel = micro * crit_n * avg.cp * units::s;
  r.expert_parallel = micro * crit_n * avg.ep * units::s;
  r.bubble = ((pt.sum_stages - pt.t_max) / pt.v) * units::s;
  r.pipeline_p2p = p2p * units::s;
  r.data_parallel = dp_exposed * units::s;
  r.optimizer = opt.optimizer * units::s;
  r.offload = opt.offload * units::s;
  r.data_loading = data * units::s;

  r.bottleneck = largest_part(r);

  r.micro_batches = micro;
  r.global_batch = c.global_batch;
  r.gpus = l.gpus();
  r.nodes = nodes;
  const double tokens = 1.0 * c.global_batch * c.seq;
  r.tokens_per_step = tokens * units::token;
  r.tokens_per_s = r.tokens_per_step / r.total;
  r.samples_per_s = c.global_batch / r.total.value;
  step_flops(m, c, a, r);
  r.six_nd = 6.0 * m.active_parameters() * tokens * units::FLOP;
  const double capacity = r.total.value * l.gpus() * p.node.gpu.peak.tensor(c.dtype).value;
  r.mfu = r.model_flops.value / capacity;
  r.hfu = r.hardware_flops.value / capacity;
  r.tp_crosses_nodes = pl.tp_crosses_nodes();
  r.cp_crosses_nodes = pl.cp_crosses_nodes();
  r.ep_crosses_nodes = pl.ep_crosses_nodes();
  r.dp_crosses_nodes = pl.dp_cp.crosses_nodes();
  r.pp_crosses_nodes = pl.pp_crosses_nodes();
  return r;
}

}  // namespace detail

/// The step's time and breakdown. Throws gpuplan::invalid_input naming the field for an invalid
/// model, node, layout, batch, or a layout that needs more GPUs than the nodes hold (a compile
/// error in a constant expression).
constexpr step_breakdown estimate_step(const training_plan& p) {
  const parallel_layout& l = p.layout;
  const step_assumptions& a = p.assumptions;
  a.validate();
  training_config c = p.config;
  c.global_batch = plan_global_batch(p);
  const detail::stage_split split = detail::validate_plan(p, c);
  const int nodes = plan_nodes(p);
  network_topology topo = topology(p.node, nodes, p.fabric, a.network);
  topo.bisection_fraction = p.bisection_fraction;
  const placement pl = place(l, topo, a.order);
  const int micro = c.global_batch / (c.micro_batch * l.dp);

  const detail::layer_inputs in = detail::make_layer_inputs(p, c, pl);
  detail::layer_mix layers = detail::average_layer(in);
  detail::stage_ends ends = detail::head_and_embedding(in);
  const detail::step_parameters sp = detail::parameters_of(p.model, c, a, layers.n_moe);
  detail::add_grad_accumulation(in, sp, micro, layers, ends);
  const detail::pipeline_times pt = detail::schedule(l, split, layers.avg, ends, micro);

  // ---- pipeline point-to-point: forward and backward, every micro-batch and virtual stage ----
  double p2p = 0.0;
  if (l.pp > 1) {
    // Megatron scatter-gather: 1/tp of the activation per rank; without it, all of it
    const double bytes = in.tokens * p.model.hidden * in.act_e / (a.p2p_scatter_gather ? 1.0 * l.tp : 1.0);
    const double one = detail::coll(collective_kind::send_recv, bytes, pl.pp_pair, a.collectives);
    p2p = 2.0 * pt.v * micro * one * (1.0 - a.p2p_overlap);
  }

  const detail::local_parameters local = detail::local_parameters_of(p.model, l, layers, sp);
  const double dp_exposed =
      detail::data_parallel_exposed(p, c, pl, sp, local, pt, layers.avg, micro);
  const detail::optimizer_times opt = detail::optimizer_step(p, c, sp, local, in.g.hbm);

  // ---- data: the step's tokens from storage, prefetched behind the step ----
  const double before_data = pt.pipeline + p2p + dp_exposed + opt.optimizer + opt.offload;
  double data = 0.0;
  if (a.storage_read.value > 0.0) {
    const double bytes = 1.0 * c.global_batch * c.seq * (a.stored_token_bytes * units::token).value;
    const double read = bytes / a.storage_read.value;
    data = read > before_data ? read - before_data : 0.0;
  }
  const step_breakdown b = detail::assemble_step(p, c, pl, pt, layers.avg, ends, p2p, dp_exposed,
                                                 opt, data, micro, nodes);
  // Every input is checked against its own range, but their products are not: assumptions far
  // out of the ordinary (a kernel overhead of 1e308 s, a GEMM fraction of 1e-308, both valid
  // alone) overflow the step. Refused rather than reported as inf.
  detail::check_input(detail::finite_positive(b.total.value),
                      "training step: the step time is not a finite positive number: an input "
                      "or step_assumptions field far out of range overflowed it");
  return b;
}

/// Seconds of one iteration of the global batch.
constexpr duration step_time(const training_plan& p) { return estimate_step(p).total; }

/// Time to train on `tokens` tokens at the step `s`: whole steps of the global batch, the last
/// one rounded up (for callers that already hold the step, as the layout search does).
constexpr duration time_to_train(const step_breakdown& s, token_count tokens) {
  detail::check_input(detail::finite_nonnegative(tokens.value), "tokens must be finite and not negative");
  detail::check_input(s.tokens_per_step.value > 0.0 && is_finite(s.tokens_per_step),
                      "time_to_train: step_breakdown.tokens_per_step must be positive (a step "
                      "from estimate_step)");
  const double steps = tokens.value / s.tokens_per_step.value;
  // whole steps are counted in a long long (ceil_div): beyond 2^53 a double no longer holds
  // every whole number, and beyond 2^63 the conversion is undefined
  detail::check_input(steps <= 9007199254740992.0,
                      "tokens: more than 2^53 steps of the global batch", tokens.value);
  return static_cast<double>(detail::ceil_div(steps, 1.0)) * s.total;
}

/// Time to train on `tokens` tokens: whole steps of the global batch, the last one rounded up.
/// With a batch-size ramp-up (training_config::rampup_start), the ramp's steps at their smaller
/// batches first (each level's step from the step model: fewer micro-batches fill the pipeline
/// less and amortise the gradient reduction over fewer sequences), then the rest at global_batch.
constexpr duration time_to_train(const training_plan& p, token_count tokens) {
  detail::check_input(detail::finite_nonnegative(tokens.value), "tokens must be finite and not negative");
  const step_breakdown full = estimate_step(p);
  const training_config& c = p.config;
  if (c.rampup_start == 0) return time_to_train(full, tokens);
  // Megatron-LM's RampupBatchsizeNumMicroBatches: (global - start) / increment levels, each
  // consuming rampup_samples / levels sequences; a step that crosses a level's end runs at the
  // old batch
  // level k runs while the consumed sequences are below (k + 1) x per_level: its steps start
  // where the previous level's last step ended (past its boundary by up to one batch)
  const int levels = (full.global_batch - c.rampup_start) / c.rampup_increment;
  const double per_level = c.rampup_samples / levels;
  const double total = tokens.value / c.seq;  // sequences
  double consumed = 0.0;
  double seconds = 0.0;
  for (int k = 0; k < levels && consumed < total; ++k) {
    const double boundary = (k + 1) * per_level < total ? (k + 1) * per_level : total;
    if (consumed >= boundary) continue;  // the previous level's last step went past this one
    training_plan q = p;
    q.config.global_batch = c.rampup_start + k * c.rampup_increment;
    q.config.rampup_start = 0;
    const double batch = q.config.global_batch;
    const double steps = static_cast<double>(detail::ceil_div((boundary - consumed) / batch, 1.0));
    seconds += steps * estimate_step(q).total.value;
    consumed += steps * batch;
  }
  if (consumed < total)
    seconds += time_to_train(full, (total - consumed) * c.seq * units::token).value;
  return seconds * units::s;
}

/// GPU-hours to train on `tokens` tokens (all GPUs of the layout, for the whole time).
constexpr duration gpu_time_to_train(const training_plan& p, token_count tokens) {
  return (1.0 * p.layout.gpus()) * time_to_train(p, tokens);
}

/// The FLOPs of a token budget: exact (Megatron's count, with the plan's recompute: the work the
/// GPUs do) and Kaplan's 6 N D.
struct budget_flops {
  compute_amount model{};     ///< no recompute
  compute_amount hardware{};  ///< with the plan's recompute
  compute_amount six_nd{};
};

constexpr budget_flops training_budget_flops(const training_plan& p, token_count tokens) {
  const int seq = p.config.seq;
  return {training_flops_per_token(p.model, seq, recompute_mode::none, p.assumptions.mfu_attention) * tokens,
          training_flops_per_token(p.model, seq, p.config.recompute, p.assumptions.mfu_attention) * tokens,
          6.0 * p.model.active_parameters() * tokens.value * units::FLOP};
}

}  // namespace gpuplan
