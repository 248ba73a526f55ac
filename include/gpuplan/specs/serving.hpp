// gpuplan/specs/serving.hpp: how a serving engine is configured: weight and KV-cache precision,
// batch and context, vLLM's memory and scheduler limits, the engine whose KV-cache rule applies. What every serving model (memory,
// latency, throughput, cost) reads; the models themselves live in gpuplan/models/.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/precision.hpp>

namespace gpuplan {

/// The serving engine whose KV-cache sizing rule applies (models/inference_memory.hpp). Each rule
/// was read from the engine's source at the version named; docs/models/serving.md quotes them.
enum class serving_engine : unsigned char {
  /// Today's vLLM: V1 (the default engine since v0.8) and V0 since the profiling overhaul
  /// (v0.6.5, vllm-project/vllm PR #10511; polished in PR #12126): available = total x
  /// gpu_memory_utilization - (weights + the profiling forward pass's peak torch allocation
  /// over max_num_batched_tokens + the non-torch memory). The default.
  vllm,
  /// As `vllm`, and the CUDA-graph pool is charged before the KV cache is sized
  /// (memory_assumptions::cuda_graph_memory); for vLLM builds that profile graph capture.
  vllm_cudagraph_profiled,
  /// vLLM V0 from PR #2031 "Fix peak memory profiling" (v0.2.5, Dec 2023) to v0.6.3
  /// (`Worker.determine_num_available_blocks`): peak = free memory when the worker started
  /// - free memory after the profiling run (torch.cuda.mem_get_info), so NCCL buffers and the
  /// caching allocator's reserve are charged but the CUDA context created before the start-up
  /// snapshot is not; available = total x gpu_memory_utilization - peak.
  vllm_v0_mem_get_info,
  /// vLLM V0 before PR #2031 (up to v0.2.4): peak = torch.cuda.max_memory_allocated() after the
  /// profiling run, weights and activations only; NCCL's and the CUDA context's memory and
  /// allocator fragmentation are not charged (why TP > 1 ran past the budget, PR #2031).
  vllm_v0_torch_peak,
  /// vLLM v0.2.5 alone (PR #2031 merged, PR #2151 not yet): as vllm_v0_mem_get_info, and
  /// peak = total - free (torch.cuda.mem_get_info after the profile run, no start-up snapshot:
  /// the CUDA context is charged too), and with TP > 1 the profile run's all-reduce inputs stay
  /// allocated until the end of the pass: torch.distributed.all_reduce records them on NCCL's
  /// stream and frees none until the synchronisation (PR #2151 "Fix all-reduce memory usage",
  /// v0.2.6, set TORCH_NCCL_AVOID_RECORD_STREAMS=1: Llama 2 70B TP 8 peak 25.5 -> 19.5 GiB).
  /// Two per layer of max_num_batched_tokens x hidden 16-bit values are charged
  /// (models/inference_memory.hpp retained_all_reduce_inputs).
  vllm_v0_record_stream,
  /// SGLang (`ModelRunner.profile_max_num_token`): the KV pool is the memory free after the
  /// weights are loaded minus total x (1 - mem_fraction_static); activations and CUDA graphs
  /// live in that reserve.
  sglang,
  /// TensorRT-LLM (`KvCacheConfig.free_gpu_memory_fraction`, 0.9 by default): that fraction of
  /// the memory free after the weights and the runtime's activation buffers.
  trtllm,
};

/// The names of serving_engine, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<serving_engine> serving_engine_names[] = {
    {serving_engine::vllm, "vllm"},
    {serving_engine::vllm_cudagraph_profiled, "vllm-cudagraph-profiled"},
    {serving_engine::vllm_v0_mem_get_info, "vllm-v0-mem-get-info"},
    {serving_engine::vllm_v0_torch_peak, "vllm-v0-torch-peak"},
    {serving_engine::vllm_v0_record_stream, "vllm-v0-record-stream"},
    {serving_engine::sglang, "sglang"},
    {serving_engine::trtllm, "trtllm"},
};
constexpr const auto& enumerators(serving_engine) { return serving_engine_names; }

/// How requests share the engine.
enum class batching_mode : unsigned char {
  continuous,    ///< iteration-level scheduling (vLLM, SGLang, TensorRT-LLM in-flight batching)
  static_batch,  ///< a batch is prefilled, then decoded together to its end (gptSessionBenchmark)
};

/// The names of batching_mode (specs/enum_names.hpp).
inline constexpr enumerator<batching_mode> batching_mode_names[] = {
    {batching_mode::continuous, "continuous"},
    {batching_mode::static_batch, "static"},
};
constexpr const auto& enumerators(batching_mode) { return batching_mode_names; }

struct inference_config {
  /// Weights of the transformer layers' linear layers. int8/int4: weight-only quantisation
  /// (GPTQ/AWQ style) with one scale per `quant_group_size` weights; fp8: per-tensor scales.
  /// Embeddings, the LM head and norms stay in 16 bits (AWQ, GPTQ and vLLM's FP8 checkpoints
  /// keep them unquantised).
  precision weight_dtype = precision::bf16;
  precision kv_dtype = precision::bf16;
  /// A hybrid model's recurrent state per sequence (its linear layers' convolution and SSM or
  /// delta-rule state): vLLM's --mamba-cache-dtype and --mamba-ssm-cache-dtype, both "auto" by
  /// default, which is the model's dtype (bf16 for the hybrids in the catalog's readers;
  /// vllm/model_executor/layers/mamba/mamba_utils.py MambaStateDtypeCalculator).
  precision state_dtype = precision::bf16;
  int batch = 1;         ///< concurrent sequences
  int context = 4096;    ///< tokens per sequence (prompt + generated)
  int max_model_len = 0; ///< vLLM --max-model-len for the concurrency figure; 0: = context
  /// vLLM --gpu-memory-utilization: the share of the GPU's memory the engine may use (0.9).
  double gpu_memory_utilization = 0.9;
  int block_size = 16;   ///< vLLM KV-cache block (page) in tokens (16 by default)
  int quant_group_size = 128;  ///< weights per scale for int8/int4 (GPTQ/AWQ default 128)
  precision quant_scale_dtype = precision::fp16;  ///< dtype of each group's scale
  bool quant_zero_point = false;  ///< asymmetric quantisation: a zero point per group (AWQ)
  /// fp8 weights with one fp32 scale per fp8_block_size x fp8_block_size tile (DeepSeek-V3's
  /// checkpoint: 128, `weight_block_size` [128, 128]); 0: one scale per tensor.
  int fp8_block_size = 0;
  /// Only the routed experts' weights are in weight_dtype; attention, shared experts and dense
  /// FFNs stay 16-bit (gpt-oss ships its experts in MXFP4 and the rest in bf16).
  bool quant_experts_only = false;
  /// Multi-token-prediction modules held for speculative decoding (transformer_spec::
  /// mtp_layers; serving_plan::speculation): their weights on the last pipeline stage.
  int draft_modules = 0;
  /// Tokens of the largest forward pass the engine runs: vLLM profiles its activation peak
  /// with --max-num-batched-tokens (8192 for `vllm serve`, vLLM EngineArgs default for the
  /// OpenAI server with chunked prefill; version-dependent).
  int max_num_batched_tokens = 8192;
  /// Sequences sampled at once: vLLM --max-num-seqs; the sampler holds this many rows of
  /// vocabulary-sized logits. 256: vLLM's default before PR #17073 (2025-04) and, after it, on
  /// GPUs under 70 GiB or an A100 (PR #17885); `vllm serve` on an H100 or H200 since then uses
  /// 1024 (vllm/engine/arg_utils.py), which a plan of such a run sets.
  int max_num_seqs = 256;
  /// The engine whose KV-cache sizing rule applies (vLLM by default).
  serving_engine engine = serving_engine::vllm;
  /// SGLang --mem-fraction-static: the share of the GPU for weights and the KV pool. 0 means
  /// SGLang's default for the tensor-parallel size (python/sglang/srt/server_args.py, v0.4
  /// series: 0.88 for tp 1, 0.87 for tp >= 2, 0.85 for >= 4, 0.81 for >= 8, 0.79 for >= 16;
  /// later releases derive it from the GPU's memory instead).
  double mem_fraction_static = 0.0;
  /// TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction: the share of the memory free after
  /// the weights and runtime buffers given to the KV cache (0.9 by default: tensorrt_llm
  /// llmapi KvCacheConfig).
  double free_gpu_memory_fraction = 0.9;

  [[nodiscard]] constexpr int model_len() const {
    return max_model_len > 0 ? max_model_len : context;
  }

  /// Throws gpuplan::invalid_input naming the field (a compile error in a constant expression).
  constexpr void validate() const {
    detail::check_input(batch >= 1, "inference_config.batch must be at least 1", batch);
    detail::check_input(context >= 1, "inference_config.context must be at least 1", context);
    detail::check_input(max_model_len >= 0, "inference_config.max_model_len must not be negative",
                        max_model_len);
    detail::check_input(gpu_memory_utilization > 0.0 && gpu_memory_utilization <= 1.0,
                        "inference_config.gpu_memory_utilization must be in (0, 1]",
                        gpu_memory_utilization);
    detail::check_input(block_size >= 1, "inference_config.block_size must be at least 1",
                        block_size);
    detail::check_input(quant_group_size >= 1,
                        "inference_config.quant_group_size must be at least 1", quant_group_size);
    detail::check_input(draft_modules >= 0 && draft_modules <= 64,
                        "inference_config.draft_modules must be in [0, 64]", draft_modules);
    detail::check_input(fp8_block_size >= 0,
                        "inference_config.fp8_block_size must not be negative (0: per tensor)",
                        fp8_block_size);
    detail::check_input(max_num_batched_tokens >= 1,
                        "inference_config.max_num_batched_tokens must be at least 1",
                        max_num_batched_tokens);
    detail::check_input(max_num_seqs >= 1, "inference_config.max_num_seqs must be at least 1",
                        max_num_seqs);
    detail::check_input(mem_fraction_static >= 0.0 && mem_fraction_static <= 1.0,
                        "inference_config.mem_fraction_static must be in [0, 1] (0: SGLang's "
                        "default)",
                        mem_fraction_static);
    detail::check_input(free_gpu_memory_fraction > 0.0 && free_gpu_memory_fraction <= 1.0,
                        "inference_config.free_gpu_memory_fraction must be in (0, 1]",
                        free_gpu_memory_fraction);
    detail::check_input(weight_dtype != precision::tf32,
                        "inference_config.weight_dtype cannot be tf32 (a compute format)");
    detail::check_input(kv_dtype == precision::fp32 || kv_dtype == precision::bf16 ||
                            kv_dtype == precision::fp16 || kv_dtype == precision::fp8 ||
                            kv_dtype == precision::int8,
                        "inference_config.kv_dtype must be fp32, bf16, fp16, fp8 or int8");
    detail::check_input(state_dtype == precision::fp32 || state_dtype == precision::bf16 ||
                            state_dtype == precision::fp16,
                        "inference_config.state_dtype must be fp32, bf16 or fp16 (vLLM's "
                        "mamba cache dtypes)");
  }

  friend constexpr bool operator==(const inference_config&, const inference_config&) = default;
};

}  // namespace gpuplan
