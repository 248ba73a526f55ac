// gpuplan/models/inference_memory.hpp: serving memory per GPU: weights (bf16 ... int4 with
// group-wise scales), KV cache split over tensor-parallel ranks, the forward pass's workspace, and
// vLLM's paged KV-cache arithmetic (blocks, capacity in tokens, maximum concurrency).
#pragma once

#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/specs/serving.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// The KV cache of one GPU, after vLLM's paged allocator.
struct kv_cache_info {
  data_per_token bytes_per_token{};  ///< this GPU's KV bytes per token (its layers and heads)
  data_size page_size{};  ///< one block of one layer: 2 x block x kv_heads x head_dim x dtype
  int block_size = 16;
  double blocks = 0;                 ///< floor(available / page_size / layers)
  data_size available{};             ///< memory left for the KV cache
  token_count capacity_tokens{};     ///< blocks x block_size
  /// With windows, blocks / admission_blocks(max_model_len, max_num_batched_tokens) (vLLM's
  /// hybrid KV-cache manager); without, capacity_tokens / max_model_len.
  double max_concurrency = 0;
  /// Sliding-window attention span (0: none): a windowed layer never holds more than
  /// ceil(window / block_size) + 1 blocks of a sequence.
  int window = 0;
  /// Of this GPU's layers, how many attend to the whole context (the rest are windowed when
  /// window > 0). 0 with window > 0: every layer windowed (Mistral 7B v0.1); Gemma 3 keeps one
  /// global layer in six, gpt-oss one in two (vLLM V1's hybrid KV-cache manager gives each
  /// group its own blocks).
  int global_layers = 0;
  int layers = 0;  ///< this GPU's layers (0: all windowed when window > 0)
  /// The windowed layers attend inside chunks of `window` tokens (Llama 4) rather than to the
  /// `window` tokens before each query.
  bool chunked = false;
  /// Blocks one sequence of `context` tokens holds, averaged over this GPU's layers (the unit
  /// of `blocks`): ceil(context / block_size) on a global layer; on a windowed layer, blocks
  /// wholly outside the window are freed (vLLM V1 SlidingWindowManager), leaving at most
  /// ceil(window / block_size) + 1; on a chunked layer, those wholly before the current chunk
  /// (ChunkedLocalAttentionManager skips floor(computed / chunk) x chunk tokens), leaving at
  /// most ceil(chunk / block_size), and one more when a chunk does not start on a block.
  [[nodiscard]] constexpr double blocks_per_sequence(int context) const {
    if (context <= 0 || block_size <= 0) return 0;
    const int full = (context + block_size - 1) / block_size;
    if (window > 0 && context > window) {
      const bool aligned = chunked && window % block_size == 0;
      const int capped_blocks = (window + block_size - 1) / block_size + (aligned ? 0 : 1);
      const int capped = capped_blocks < full ? capped_blocks : full;
      if (layers <= 0 || global_layers <= 0) return capped;
      return (1.0 * global_layers * full + 1.0 * (layers - global_layers) * capped) / layers;
    }
    return full;
  }
  /// Blocks vLLM reserves for one request of `max_model_len` tokens, `batched` of them scheduled
  /// a step (max_num_batched_tokens), averaged over this GPU's layers: what its "Maximum
  /// concurrency" divides the pool by (v1/core/kv_cache_utils.py
  /// get_max_concurrency_for_kv_cache_config over each group's max_memory_usage_bytes):
  /// ceil(max_model_len / block_size) on a global layer; ceil(min(window - 1 + batched,
  /// max_model_len) / block_size) + 1 on a windowed one (SlidingWindowSpec); ceil(min(chunk +
  /// batched, max_model_len) / block_size) on a chunked one (ChunkedLocalAttentionSpec). vLLM
  /// pads its layer groups to one size (Gemma 3's 52 windowed layers count as 60); the average
  /// here does not.
  [[nodiscard]] constexpr double admission_blocks(int max_model_len, int batched) const {
    if (max_model_len <= 0 || block_size <= 0) return 0;
    const auto blocks_of = [this](long long tokens) {
      return static_cast<double>((tokens + block_size - 1) / block_size);
    };
    const double full = blocks_of(max_model_len);
    if (window <= 0) return full;
    const long long held = (chunked ? 0LL + window : window - 1LL) + batched;
    const double capped =
        blocks_of(held < max_model_len ? held : max_model_len) + (chunked ? 0.0 : 1.0);
    if (layers <= 0 || global_layers <= 0) return capped;
    return (1.0 * global_layers * full + 1.0 * (layers - global_layers) * capped) / layers;
  }
  /// Largest batch of sequences of `context` tokens whose blocks fit.
  [[nodiscard]] constexpr int max_batch(int context) const {
    const double per_seq = blocks_per_sequence(context);
    return per_seq > 0 ? static_cast<int>(blocks / per_seq) : 0;
  }
  /// Longest context that `batch` sequences can each have.
  [[nodiscard]] constexpr int max_context(int batch) const {
    if (batch <= 0) return 0;
    const double per_seq_blocks = static_cast<double>(static_cast<long long>(blocks / batch));
    return static_cast<int>(per_seq_blocks * block_size);
  }
};

namespace detail {

/// Bytes per weight of a quantised linear layer: the element plus its group's scale (and zero
/// point) spread over the group.
constexpr double quantised_weight_bytes(const inference_config& c) {
  const double elem = bytes_per_element(c.weight_dtype).in(units::B);
  if (c.weight_dtype == precision::int8 || c.weight_dtype == precision::int4 ||
      c.weight_dtype == precision::fp4) {
    const double scale = bytes_per_element(c.quant_scale_dtype).in(units::B);
    const double zero = c.quant_zero_point ? elem : 0.0;
    return elem + (scale + zero) / c.quant_group_size;
  }
  if (c.weight_dtype == precision::fp8 && c.fp8_block_size > 0)
    return elem + fp32_bytes / (1.0 * c.fp8_block_size * c.fp8_block_size);
  return elem;
}

/// Bytes of the non-linear parameters (embeddings, LM head, norms): 16-bit unless the whole
/// model is served in fp32.
constexpr double unquantised_weight_bytes(const inference_config& c) {
  return c.weight_dtype == precision::fp32 || c.weight_dtype == precision::fp64
             ? bytes_per_element(c.weight_dtype).in(units::B)
             : 2.0;
}


}  // namespace detail

/// `c` with the weight format of m's published checkpoint (transformer_spec::quantization):
/// what an engine serving the checkpoint as published holds. Unquantised checkpoints leave c
/// as it is. Scale layouts: DeepSeek-V3 `weight_block_size` (fp32 per 128 x 128 tile); OCP MX
/// v1.0 (E8M0 per 32, one byte: precision::int8 stands for it here); NVFP4 (E4M3 per 16);
/// AWQ/GPTQ `group_size` with fp16 scales and packed zero points; bitsandbytes (LLM.int8 fp32
/// per row of `hidden`; NF4 absmax per 64, double-quantised to 8 bits).
constexpr inference_config checkpoint_weights(const transformer_spec& m, inference_config c) {
  const checkpoint_quantization& q = m.quantization;
  if (q.method == quant_method::none) return c;
  c.weight_dtype = q.dtype;  // the element the method stores (checkpoint_quantization::validate)
  c.quant_experts_only = q.experts_only;
  c.quant_zero_point = false;
  c.fp8_block_size = 0;
  switch (q.method) {
    case quant_method::none:
    case quant_method::fp8: break;
    case quant_method::fp8_block: c.fp8_block_size = q.group_size; break;
    case quant_method::mxfp4:  // an E8M0 exponent: one byte (int8 stands for it)
    case quant_method::bnb_nf4:  // an absmax double-quantised to 8 bits
      c.quant_group_size = q.group_size;
      c.quant_scale_dtype = precision::int8;
      break;
    case quant_method::nvfp4:
      c.quant_group_size = q.group_size;
      c.quant_scale_dtype = precision::fp8;
      break;
    case quant_method::awq:
    case quant_method::gptq:
      c.quant_group_size = q.group_size > 0 ? q.group_size : m.hidden;  // 0: per channel
      c.quant_scale_dtype = precision::fp16;
      c.quant_zero_point = true;
      break;
    case quant_method::bnb_int8:
      c.quant_group_size = m.hidden;  // one fp32 scale per row of the input width
      c.quant_scale_dtype = precision::fp32;
      break;
  }
  return c;
}

/// Weights of pipeline stage k's GPUs at the serving precision.
constexpr data_size inference_weights(const transformer_spec& m, const parallel_layout& l,
                                      const inference_config& c, int k = 0) {
  const detail::rank_params p = detail::stage_params(m, l, k);
  const double all = p.dense + p.expert;
  const double quantised = c.quant_experts_only ? p.linear_expert : p.linear;
  double bytes = quantised * detail::quantised_weight_bytes(c) +
                 (all - quantised) * detail::unquantised_weight_bytes(c);
  if (p.last_stage && c.draft_modules > 0 && m.mtp_layers > 0) {
    // MTP modules for speculative decoding, split over tp like the layers: their own embedding
    // and output head in 16 bits, the rest (a layer and the 2h x h projection) as the
    // quantised linear layers (its norms and router counted with them: under 0.1%)
    const double per_module = m.mtp_parameters() / m.mtp_layers;
    const double vocab = m.mtp_vocab_parameters();
    bytes += c.draft_modules *
             ((per_module - vocab) * detail::quantised_weight_bytes(c) +
              vocab * detail::unquantised_weight_bytes(c)) /
             l.tp;
  }
  return bytes * units::B;
}

/// vLLM's block count: floor(available / page_size / layers) (vllm `v1/core/kv_cache_utils.py`).
constexpr double paged_kv_blocks(data_size available, data_size page_size, int layers) {
  const double per_block = page_size.value * layers;
  if (!(per_block > 0.0) || !(available.value > 0.0)) return 0.0;
  return static_cast<double>(static_cast<long long>(available.value / per_block));
}

/// vLLM's "Maximum concurrency for L tokens per request": blocks x block_size / L (PR #13596).
constexpr double paged_max_concurrency(double blocks, int block_size, int max_model_len) {
  return max_model_len > 0 ? blocks * block_size / max_model_len : 0.0;
}

/// vLLM's page: one block of one layer, K and V (MLA: the latent and the rotary key).
constexpr data_size kv_page_size(const transformer_spec& m, const parallel_layout& l,
                                 const inference_config& c) {
  return c.block_size * detail::kv_elements_per_rank(m, l) * bytes_per_element(c.kv_dtype);
}

/// The forward pass's peak intermediates over max_num_batched_tokens tokens (the profile run vLLM
/// subtracts as "peak activation"): the residual stream and the hidden state, plus the larger of
/// the attention projections' outputs and the FFN's gate/up output with its activation; plus the
/// sampler's fp32 logits, probabilities and log-probabilities for max_num_seqs rows.
constexpr data_size inference_workspace(const transformer_spec& m, const parallel_layout& l,
                                        const inference_config& c) {
  const double tokens = c.max_num_batched_tokens, e = 2.0, t = l.tp, h = m.hidden;
  const double q = 1.0 * m.heads * m.head_dim / t;
  const double kv = detail::kv_elements_per_rank(m, l) / 2.0;
  const double attn = e * tokens * (q + 2.0 * kv) + e * tokens * q;
  double f = m.ffn / t;
  if (m.is_moe()) {
    const double fe = 1.0 * m.moe.expert_ffn / l.expert_tensor_parallel();
    const double routed = fe * m.moe.experts_per_token;
    if (routed > f) f = routed;
  }
  const double ffn =
      m.ffn_type == ffn_kind::gated ? e * tokens * 3.0 * f : e * tokens * 2.0 * f;
  const double layer_peak = attn > ffn ? attn : ffn;
  const double residual = 2.0 * e * tokens * h;
  const double sampler = c.max_num_seqs * 1.0 * m.vocab * (2.0 + 3.0 * fp32_bytes);
  return (residual + layer_peak + sampler) * units::B;
}

/// Memory of one GPU (the most loaded one, from inference_memory) when serving, and the KV-cache
/// capacity of vLLM's paged allocator on the given GPU.
struct inference_memory_result {
  memory_breakdown per_gpu{};
  kv_cache_info kv{};
};

namespace detail {

constexpr void check_inference(const transformer_spec& m, const gpu_spec& gpu,
                               const parallel_layout& l, const inference_config& c,
                               const memory_assumptions& a) {
  l.validate(m);
  c.validate();
  a.validate();
  gpu.validate_memory();  // memory only: serve() validates the rates through its node
  check_input(l.cp == 1 && l.zero == 0,
              "inference: layout.cp must be 1 and layout.zero 0 (not modelled)", l.cp, l.zero);
  // vLLM refuses a --max-model-len above the model's max_position_embeddings ("User-specified
  // max_model_len ... is greater than the derived max_model_len"); 0: positions unknown
  check_input(m.max_positions == 0 || c.max_model_len <= m.max_positions,
              "inference_config.max_model_len must not exceed the model's max_positions "
              "(max_position_embeddings)",
              c.max_model_len, m.max_positions);
}

/// SGLang's default mem_fraction_static for a tensor-parallel size (server_args.py, v0.4).
constexpr double sglang_mem_fraction_static(int tp) {
  return tp >= 16 ? 0.79 : tp >= 8 ? 0.81 : tp >= 4 ? 0.85 : tp >= 2 ? 0.87 : 0.88;
}

/// The all-reduce inputs vLLM v0.2.5's profile run held until its end with TP > 1
/// (serving_engine::vllm_v0_record_stream): two per layer (after attention and after the FFN)
/// of max_num_batched_tokens x hidden 16-bit values, on every rank (the whole hidden state).
constexpr data_size retained_all_reduce_inputs(const transformer_spec& m, int layers,
                                               const parallel_layout& l,
                                               const inference_config& c) {
  if (l.tp <= 1) return 0.0 * units::B;
  return 2.0 * layers * c.max_num_batched_tokens * m.hidden * 2.0 * units::B;
}

/// Memory the engine gives its KV cache on one GPU, by the engine's own rule (serving_engine).
/// `m` holds the weights, workspace and overhead of that GPU; `retained` the all-reduce inputs
/// vLLM v0.2.5 held through its profile run (retained_all_reduce_inputs; charged by that
/// engine only).
constexpr data_size engine_kv_budget(const memory_breakdown& m, const gpu_spec& gpu,
                                     const inference_config& c, const memory_assumptions& a,
                                     int tp, data_size retained = 0.0 * units::B) {
  const data_size total = gpu.plannable_memory();
  const data_size zero = 0.0 * units::B;
  auto left = [&](data_size budget, data_size used) { return budget > used ? budget - used : zero; };
  switch (c.engine) {
    case serving_engine::vllm:
      // available = total x utilisation - (weights + peak activation + non-torch memory).
      return left(c.gpu_memory_utilization * total, m.weights + m.workspace + m.overhead);
    case serving_engine::vllm_cudagraph_profiled:
      return left(c.gpu_memory_utilization * total,
                  m.weights + m.workspace + m.overhead + a.cuda_graph_memory);
    case serving_engine::vllm_v0_mem_get_info:
      // The CUDA context existed before the start-up snapshot, so it is not charged.
      return left(c.gpu_memory_utilization * total,
                  m.weights + m.workspace + m.overhead - a.cuda_context);
    case serving_engine::vllm_v0_torch_peak:
      return left(c.gpu_memory_utilization * total, m.weights + m.workspace);
    case serving_engine::vllm_v0_record_stream:
      // total - free after the profile run: the context charged, the held all-reduce inputs too
      return left(c.gpu_memory_utilization * total,
                  m.weights + m.workspace + m.overhead + retained);
    case serving_engine::sglang: {
      // free after weights - total x (1 - mem_fraction_static)
      const double f = c.mem_fraction_static > 0.0 ? c.mem_fraction_static
                                                    : sglang_mem_fraction_static(tp);
      return left(total - a.cuda_context - m.weights, (1.0 - f) * total);
    }
    case serving_engine::trtllm:
      return c.free_gpu_memory_fraction * left(total, m.weights + m.workspace + m.overhead);
  }
  return zero;
}

/// inference_memory_stage on checked inputs.
constexpr inference_memory_result inference_stage(const transformer_spec& m, const gpu_spec& gpu,
                                                  const parallel_layout& l,
                                                  const inference_config& c, int k,
                                                  const memory_assumptions& a) {
  const detail::rank_params p = detail::stage_params(m, l, k);
  inference_memory_result r{};
  r.per_gpu.pipeline_stage = k;
  r.per_gpu.weights = inference_weights(m, l, c, k);
  r.per_gpu.workspace = inference_workspace(m, l, c);
  const data_size page = kv_page_size(m, l, c);
  r.kv.page_size = page;
  r.kv.block_size = c.block_size;
  r.kv.bytes_per_token = p.layers * page / (c.block_size * units::token);
  r.kv.window = m.sliding_window;
  r.kv.chunked = m.window == window_kind::chunked;
  r.kv.layers = p.layers;
  r.kv.global_layers = m.global_layers(p.first_layer, p.layers);
  const double blocks_per_seq = r.kv.blocks_per_sequence(c.context);
  r.per_gpu.kv_cache = c.batch * blocks_per_seq * p.layers * page;
  r.per_gpu.overhead = a.cuda_context + detail::nccl_buffers(l, a) +
                       a.allocator_fragmentation * (r.per_gpu.weights + r.per_gpu.workspace);
  r.kv.available = engine_kv_budget(r.per_gpu, gpu, c, a, l.tp,
                                    retained_all_reduce_inputs(m, p.layers, l, c));
  r.kv.blocks = paged_kv_blocks(r.kv.available, page, p.layers);
  r.kv.capacity_tokens = r.kv.blocks * c.block_size * units::token;
  const double admitted = r.kv.admission_blocks(c.model_len(), c.max_num_batched_tokens);
  r.kv.max_concurrency = m.sliding_window <= 0 || !(admitted > 0)
                             ? paged_max_concurrency(r.kv.blocks, c.block_size, c.model_len())
                             : r.kv.blocks / admitted;
  return r;
}

}  // namespace detail

/// Memory of pipeline stage k's GPUs when serving (0-based k), and the KV-cache capacity that
/// stage's memory leaves: its layers' pages of every block.
constexpr inference_memory_result inference_memory_stage(const transformer_spec& m,
                                                         const gpu_spec& gpu,
                                                         const parallel_layout& l,
                                                         const inference_config& c, int k,
                                                         const memory_assumptions& a = {}) {
  detail::check_inference(m, gpu, l, c, a);
  detail::check_input(k >= 0 && k < l.pp, "pipeline stage must be in [0, layout.pp)", k, l.pp);
  return detail::inference_stage(m, gpu, l, c, k, a);
}

/// Memory of the most loaded GPU when serving `c.batch` sequences of `c.context` tokens, and the
/// KV-cache capacity of vLLM's paged allocator on the given GPU: the smallest of the stages'
/// (every stage must hold its layers' pages of every block).
constexpr inference_memory_result inference_memory(const transformer_spec& m,
                                                   const gpu_spec& gpu, const parallel_layout& l,
                                                   const inference_config& c,
                                                   const memory_assumptions& a = {}) {
  detail::check_inference(m, gpu, l, c, a);
  inference_memory_result best = detail::inference_stage(m, gpu, l, c, 0, a);
  for (int k = 1; k < l.pp; ++k) {
    const inference_memory_result r = detail::inference_stage(m, gpu, l, c, k, a);
    if (r.kv.blocks < best.kv.blocks) best.kv = r.kv;
    if (r.per_gpu.total() > best.per_gpu.total()) best.per_gpu = r.per_gpu;
  }
  return best;
}

/// A generic workload served: weights in the serving dtype (all of them quantisable), and the
/// workspace per sample the user gave; no KV cache.
constexpr inference_memory_result inference_memory(const generic_workload& g,
                                                   const gpu_spec& gpu, const parallel_layout& l,
                                                   const inference_config& c,
                                                   const memory_assumptions& a = {}) {
  l.validate();
  c.validate();
  a.validate();
  gpu.validate_memory();  // memory only
  g.validate();
  detail::check_input(l.tp == 1 && l.pp == 1 && l.cp == 1 && l.ep == 1,
                      "a generic workload supports only data parallelism: layout.tp, pp, cp and "
                      "ep must be 1");
  inference_memory_result r{};
  r.per_gpu.weights = g.parameters * detail::quantised_weight_bytes(c) * units::B;
  r.per_gpu.workspace = c.batch * g.inference_workspace_per_sample;
  r.per_gpu.overhead = a.cuda_context + detail::nccl_buffers(l, a) +
                       a.allocator_fragmentation * (r.per_gpu.weights + r.per_gpu.workspace);
  const data_size budget = c.gpu_memory_utilization * gpu.plannable_memory();
  r.kv.available = budget > r.per_gpu.total() ? budget - r.per_gpu.total() : 0.0 * units::B;
  return r;
}

}  // namespace gpuplan
