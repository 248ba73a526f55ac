// gpuplan/specs/serving.hpp: how a serving engine is configured: weight and KV-cache precision,
// batch and context, vLLM's memory and scheduler limits. What every serving model (memory,
// latency, throughput, cost) reads; the models themselves live in gpuplan/models/.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/precision.hpp>

namespace gpuplan {

struct inference_config {
  /// Weights of the transformer layers' linear layers. int8/int4: weight-only quantisation
  /// (GPTQ/AWQ style) with one scale per `quant_group_size` weights; fp8: per-tensor scales.
  /// Embeddings, the LM head and norms stay in 16 bits (AWQ, GPTQ and vLLM's FP8 checkpoints
  /// keep them unquantised).
  precision weight_dtype = precision::bf16;
  precision kv_dtype = precision::bf16;
  int batch = 1;         ///< concurrent sequences
  int context = 4096;    ///< tokens per sequence (prompt + generated)
  int max_model_len = 0; ///< vLLM --max-model-len for the concurrency figure; 0: = context
  /// vLLM --gpu-memory-utilization: the share of the GPU's memory the engine may use (0.9).
  double gpu_memory_utilization = 0.9;
  int block_size = 16;   ///< vLLM KV-cache block (page) in tokens (16 by default)
  int quant_group_size = 128;  ///< weights per scale for int8/int4 (GPTQ/AWQ default 128)
  precision quant_scale_dtype = precision::fp16;  ///< dtype of each group's scale
  bool quant_zero_point = false;  ///< asymmetric quantisation: a zero point per group (AWQ)
  /// Tokens of the largest forward pass the engine runs: vLLM profiles its activation peak
  /// with --max-num-batched-tokens (8192 for `vllm serve`, vLLM EngineArgs default for the
  /// OpenAI server with chunked prefill; version-dependent).
  int max_num_batched_tokens = 8192;
  /// Sequences sampled at once: vLLM --max-num-seqs (256 by default); the sampler holds this
  /// many rows of vocabulary-sized logits.
  int max_num_seqs = 256;

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
    detail::check_input(max_num_batched_tokens >= 1,
                        "inference_config.max_num_batched_tokens must be at least 1",
                        max_num_batched_tokens);
    detail::check_input(max_num_seqs >= 1, "inference_config.max_num_seqs must be at least 1",
                        max_num_seqs);
    detail::check_input(weight_dtype != precision::tf32,
                        "inference_config.weight_dtype cannot be tf32 (a compute format)");
    detail::check_input(kv_dtype == precision::fp32 || kv_dtype == precision::bf16 ||
                            kv_dtype == precision::fp16 || kv_dtype == precision::fp8 ||
                            kv_dtype == precision::int8,
                        "inference_config.kv_dtype must be fp32, bf16, fp16, fp8 or int8");
  }

  friend constexpr bool operator==(const inference_config&, const inference_config&) = default;
};

}  // namespace gpuplan
