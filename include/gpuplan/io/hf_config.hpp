// gpuplan/io/hf_config.hpp: a Hugging Face `config.json` -> transformer_spec.
//
// Supported architectures (the `architectures` list, or `model_type` when that list is absent),
// each with its own key names and defaults, as the transformers library's configuration classes
// define them (transformers/models/<family>/configuration_<family>.py):
//
//   LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM, MixtralForCausalLM
//       hidden_size, num_hidden_layers, num_attention_heads, intermediate_size, vocab_size;
//       num_key_value_heads absent or null = MHA; head_dim absent or null = hidden / heads;
//       RMSNorm, SwiGLU, rotary positions, tie_word_embeddings default false.
//       Llama: attention_bias (q, k, v and o) and mlp_bias, both default false.
//       Qwen2: biases on q, k and v (not o), none in the MLP.
//       Mixtral: num_local_experts, num_experts_per_tok; every layer is MoE with experts of
//       intermediate_size, a bias-free router.
//       sliding_window (Mistral, Mixtral, Phi3; Qwen2 only with use_sliding_window): the
//       attention span.
//   Phi3ForCausalLM (Phi-3, Phi-4; configuration_phi3.py)
//       the Llama keys and defaults (num_key_value_heads absent or null = MHA, tie_word_embeddings
//       default false, sliding_window default null); no biases; q, k and v fused into one
//       qkv_proj and gate and up into one gate_up_proj, which hold the same weights as the
//       separate projections, so the count is the Llama one.
//   GPT2LMHeadModel
//       n_embd, n_layer, n_head, vocab_size, n_positions (n_ctx in old files); n_inner absent or
//       null = 4 x n_embd; LayerNorm, a plain GELU MLP, learned positions, biases everywhere,
//       tie_word_embeddings default true.
//   GPTNeoXForCausalLM
//       hidden_size, num_hidden_layers, num_attention_heads, intermediate_size, vocab_size;
//       LayerNorm, plain MLP, rotary positions (rotary_pct has no parameters), attention_bias
//       default true (q, k, v and dense), MLP biases, tie_word_embeddings default false.
//
//   Qwen3ForCausalLM, Qwen3MoeForCausalLM
//       the Llama keys plus head_dim; RMSNorm of head_dim on Q and K (q_norm, k_norm); no
//       biases. MoE: num_experts, num_experts_per_tok, moe_intermediate_size; layer i is MoE
//       when (i + 1) % decoder_sparse_step == 0 and it is not in mlp_only_layers (which must be
//       empty here: no published Qwen3 MoE lists one).
//   DeepseekV2ForCausalLM, DeepseekV3ForCausalLM (and model_type kimi_k2, which uses V3's code)
//       multi-head latent attention: q_lora_rank (null: none), kv_lora_rank, qk_nope_head_dim,
//       qk_rope_head_dim, v_head_dim; MoE: n_routed_experts, num_experts_per_tok,
//       n_shared_experts, moe_intermediate_size, first_k_dense_replace, moe_layer_freq (layer i
//       is MoE when i >= first_k_dense_replace and i % moe_layer_freq == 0); topk_method
//       "noaux_tc" (V3) keeps a bias per expert in the router (e_score_correction_bias);
//       num_nextn_predict_layers: the multi-token-prediction modules the checkpoint holds.
//   GptOssForCausalLM
//       head_dim, num_local_experts, num_experts_per_tok (or experts_per_token), experts of
//       intermediate_size with biases, a router with a bias, biases on q, k, v and o, a sink
//       logit per head; `layer_types` alternating sliding_attention (window sliding_window) and
//       full_attention.
//   Gemma2ForCausalLM, Gemma3ForCausalLM, Gemma3ForConditionalGeneration
//       head_dim, four RMSNorms per layer, tied embeddings (default true); sliding_window on
//       every other layer (Gemma 2) or five of six (Gemma 3's sliding_window_pattern 6), or
//       as `layer_types` lists them; Gemma 3 normalises Q and K. Gemma3ForConditionalGeneration
//       nests the text model in `text_config` (missing keys take Gemma3TextConfig's defaults:
//       vocab_size 262208, head_dim 256, num_key_value_heads 4, sliding_window 4096) and counts
//       its SigLIP vision tower (`vision_config`) and projector in extra_parameters.
//   Llama4ForConditionalGeneration, Llama4ForCausalLM (configuration_llama4.py)
//       the text model nested in `text_config` (Llama4ForCausalLM: at the top); head_dim,
//       attention_bias (default false) on q, k, v and o; use_qk_norm is an L2 norm without
//       weights (no parameters); attention_chunk_size (default 8192, null: none): RoPE layers
//       attend inside chunks, the NoPE layers (0 in no_rope_layers, or every
//       no_rope_layer_interval-th, default 4, when that list is empty; `layer_types`
//       "chunked_attention" / "full_attention" where given) to the whole context;
//       num_local_experts of intermediate_size, num_experts_per_tok, one shared expert of
//       intermediate_size, a bias-free router; layer i is MoE when (i + 1) %
//       interleave_moe_layer_step == 0 (`moe_layers`, where given, must be that pattern), the
//       others dense of intermediate_size_mlp; the vision tower (`vision_config`, missing keys
//       Llama4VisionConfig's defaults), its pixel-shuffle adapter and the projector in
//       extra_parameters.
//   Glm4MoeForCausalLM (GLM-4.5; modeling_glm4_moe.py)
//       the Llama keys plus head_dim; attention_bias on q, k and v (not o); use_qk_norm (default
//       false): RMSNorm of head_dim on Q and K; partial_rotary_factor has no parameters;
//       n_routed_experts of moe_intermediate_size, num_experts_per_tok, n_shared_experts
//       (default 1), first_k_dense_replace dense layers (default 1), a router with
//       e_score_correction_bias; num_nextn_predict_layers (absent: 0) MTP layers, stored as
//       DeepSeek-V3 stores its own (mtp_layers).
//
// `layer_types`, where given, must repeat with a period (its global layers every n-th): the
// layer pattern transformer_spec describes. `quantization_config` (quant_method fp8 with or
// without weight_block_size, mxfp4, awq, gptq, bitsandbytes, modelopt, compressed-tensors)
// sets transformer_spec::quantization.
//
// `torch_dtype` (or `dtype`, its newer name) sets native_dtype; absent means float32 (what
// transformers loads by default). Every missing key is named in the error. An architecture not
// listed is refused in one line that names it and the gpuplan model JSON that describes any
// transformer (io/json.hpp transformer_from_json).
#pragma once

#include <gpuplan/io/json.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/transformer.hpp>

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

namespace gpuplan::io {

namespace detail {

enum class hf_family : unsigned char {
  llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, deepseek_v2, deepseek_v3, gpt_oss, gemma2,
  gemma3, gemma3_text, phi3, gpt2, gpt_neox, llama4, llama4_text, glm4_moe
};
/// Each family by its config.json "model_type".
inline constexpr enumerator<hf_family> hf_family_names[] = {
    {hf_family::llama, "llama"},         {hf_family::mistral, "mistral"},
    {hf_family::mixtral, "mixtral"},     {hf_family::qwen2, "qwen2"},
    {hf_family::qwen3, "qwen3"},         {hf_family::qwen3_moe, "qwen3_moe"},
    {hf_family::deepseek_v2, "deepseek_v2"}, {hf_family::deepseek_v3, "deepseek_v3"},
    {hf_family::gpt_oss, "gpt_oss"},
    {hf_family::gemma2, "gemma2"},       {hf_family::gemma3, "gemma3"},
    {hf_family::gemma3_text, "gemma3_text"}, {hf_family::phi3, "phi3"},
    {hf_family::gpt2, "gpt2"},           {hf_family::gpt_neox, "gpt_neox"},
    {hf_family::llama4, "llama4"},       {hf_family::llama4_text, "llama4_text"},
    {hf_family::glm4_moe, "glm4_moe"}};
constexpr const auto& enumerators(hf_family) { return hf_family_names; }

/// Each family by its config.json `architectures[0]`: the one list of what the reader knows.
struct hf_architecture {
  std::string_view name;
  hf_family family;
};
inline constexpr hf_architecture hf_architecture_table[] = {
    {"LlamaForCausalLM", hf_family::llama},
    {"MistralForCausalLM", hf_family::mistral},
    {"MixtralForCausalLM", hf_family::mixtral},
    {"Qwen2ForCausalLM", hf_family::qwen2},
    {"Qwen3ForCausalLM", hf_family::qwen3},
    {"Qwen3MoeForCausalLM", hf_family::qwen3_moe},
    {"DeepseekV2ForCausalLM", hf_family::deepseek_v2},
    {"DeepseekV3ForCausalLM", hf_family::deepseek_v3},
    {"GptOssForCausalLM", hf_family::gpt_oss},
    {"Gemma2ForCausalLM", hf_family::gemma2},
    {"Gemma3ForCausalLM", hf_family::gemma3_text},
    {"Gemma3ForConditionalGeneration", hf_family::gemma3},
    {"Phi3ForCausalLM", hf_family::phi3},
    {"GPT2LMHeadModel", hf_family::gpt2},
    {"GPTNeoXForCausalLM", hf_family::gpt_neox},
    {"Llama4ForConditionalGeneration", hf_family::llama4},
    {"Llama4ForCausalLM", hf_family::llama4_text},
    {"Glm4MoeForCausalLM", hf_family::glm4_moe}};

}  // namespace detail

/// The architectures from_hf_config understands (detail::hf_architecture_table's names).
inline constexpr auto hf_architectures = [] {
  std::array<std::string_view, std::size(detail::hf_architecture_table)> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = detail::hf_architecture_table[i].name;
  return names;
}();

namespace detail {

inline std::string supported_list() {
  std::string s;
  for (auto a : hf_architectures) s += (s.empty() ? "" : ", ") + std::string(a);
  return s;
}

/// What the refusal of an unknown architecture says: the supported list, and the way to any
/// other transformer.
inline std::string unsupported_hint() {
  return " (supported: " + supported_list() +
         "; describe any other transformer as a gpuplan model JSON: name, layers, hidden, "
         "heads, kv_heads, head_dim, ffn, vocab, and moe, mla, sliding_window, global_every "
         "where they apply, docs/models/architectures.md)";
}

inline hf_family hf_family_of(const nlohmann::json& cfg, const json_source& src) {
  if (has(cfg, "architectures")) {
    const auto& a = cfg.at("architectures");
    if (!a.is_array() || a.empty() || !a[0].is_string())
      throw error(src.where("architectures") + " must be a non-empty array of strings");
    const std::string arch = a[0].get<std::string>();
    for (const hf_architecture& e : hf_architecture_table)
      if (e.name == arch) return e.family;
    throw error(src.file + ": unsupported architecture '" + arch + "'" + unsupported_hint());
  }
  if (has(cfg, "model_type")) {
    const std::string type = get_string(cfg, "model_type", src);
    for (const enumerator<hf_family>& e : hf_family_names)  // as written: HF's are lower case
      if (e.name == type) return e.value;
    if (type == "kimi_k2") return hf_family::deepseek_v3;  // Kimi K2 runs DeepSeek-V3's code
    throw error(src.file + ": unsupported model_type '" + type + "'" + unsupported_hint());
  }
  throw error(src.file +
              ": key 'architectures' is missing (and no 'model_type'); cannot tell the "
              "architecture" + unsupported_hint());
}

inline precision hf_dtype(const nlohmann::json& cfg, const json_source& src) {
  const char* key =
      has(cfg, "torch_dtype") ? "torch_dtype" : (has(cfg, "dtype") ? "dtype" : nullptr);
  if (key == nullptr) return precision::fp32;
  const std::string s = get_string(cfg, key, src);
  if (s == "bfloat16") return precision::bf16;
  if (s == "float16" || s == "half") return precision::fp16;
  if (s == "float32" || s == "float") return precision::fp32;
  if (s == "float64") return precision::fp64;
  throw error(src.where(key) + ": unknown dtype '" + s +
              "' (expected bfloat16, float16, float32 or float64)");
}

/// The MoE expert count check every reader shares.
inline void check_top_k(const transformer_spec& m, const json_source& src, std::string_view key,
                        std::string_view experts_key) {
  if (m.moe.experts_per_token > m.moe.experts)
    throw error(src.where(key) + " (" + std::to_string(m.moe.experts_per_token) + ") exceeds " +
                std::string(experts_key) + " (" + std::to_string(m.moe.experts) + ")");
}

/// The global-layer period of a `layer_types` list ("full_attention" and `windowed`:
/// "sliding_attention", or Llama 4's "chunked_attention"): n when layer i is full exactly when
/// (i + 1) % n == 0; 0 when every layer is windowed. Any other pattern is refused:
/// transformer_spec describes periodic ones.
inline int global_period(const nlohmann::json& cfg, const json_source& src, int layers,
                         std::string_view windowed = "sliding_attention") {
  const auto& t = cfg.at("layer_types");
  if (!t.is_array() || static_cast<int>(t.size()) != layers)
    throw error(src.where("layer_types") + " must list one type per layer (" +
                std::to_string(layers) + ")");
  std::size_t first_full = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t[i].is_string()) throw error(src.where("layer_types") + " must hold strings");
    const std::string v = t[i].get<std::string>();
    if (v != "full_attention" && v != windowed)
      throw error(src.where("layer_types") + ": layer " + std::to_string(i) + " is '" + v +
                  "' (this reader knows full_attention and " + std::string(windowed) + ")");
    if (v == "full_attention" && first_full == 0) first_full = i + 1;
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool full = t[i].get<std::string>() == "full_attention";
    if (full != (first_full > 0 && (i + 1) % first_full == 0))
      throw error(src.where("layer_types") + " is not periodic (full attention every n-th layer)"
                  "; describe the model as a gpuplan model JSON");
  }
  return static_cast<int>(first_full);
}

inline void read_qwen3(const nlohmann::json& cfg, const json_source& src, transformer_spec& m,
                       bool moe) {
  m.qk_norm = true;  // Qwen3Attention: q_norm and k_norm, RMSNorm of head_dim
  m.qkv_bias = m.out_bias = get_bool_or(cfg, "attention_bias", src, false);
  if (!moe) return;
  m.moe.experts = get_count(cfg, "num_experts", src);
  m.moe.experts_per_token = get_count(cfg, "num_experts_per_tok", src);
  check_top_k(m, src, "num_experts_per_tok", "num_experts");
  m.moe.expert_ffn = get_count(cfg, "moe_intermediate_size", src);
  m.moe.layer_interval = get_count_or(cfg, "decoder_sparse_step", src, 1);
  m.moe.layer_phase = m.moe.layer_interval - 1;  // (i + 1) % step == 0
  if (has(cfg, "mlp_only_layers") &&
      (!cfg.at("mlp_only_layers").is_array() || !cfg.at("mlp_only_layers").empty()))
    throw error(src.where("mlp_only_layers") +
                " lists dense layers: not described here (give the model as gpuplan model JSON)");
  if (m.moe.layer_interval > 1 && m.ffn == 0)
    throw error(src.where("intermediate_size") + " is missing (dense layers need it)");
  if (m.moe.layer_interval == 1) m.ffn = 0;  // no dense FFN: intermediate_size is unused
}

/// DeepSeek's MoE keys, which GLM-4.5 shares: n_routed_experts of moe_intermediate_size, top
/// num_experts_per_tok, n_shared_experts (absent: `shared`), the first first_k_dense_replace
/// layers dense (absent: `dense`).
inline void read_routed_experts(const nlohmann::json& cfg, const json_source& src,
                                transformer_spec& m, int shared, int dense) {
  m.moe.experts = get_count(cfg, "n_routed_experts", src);
  m.moe.experts_per_token = get_count(cfg, "num_experts_per_tok", src);
  check_top_k(m, src, "num_experts_per_tok", "n_routed_experts");
  m.moe.shared_experts = get_count_or(cfg, "n_shared_experts", src, shared, true);
  m.moe.expert_ffn = get_count(cfg, "moe_intermediate_size", src);
  m.moe.first_dense_layers = get_count_or(cfg, "first_k_dense_replace", src, dense, true);
  if (m.moe.first_dense_layers >= m.layers)
    throw error(src.where("first_k_dense_replace") + " must be below num_hidden_layers");
}

inline void read_deepseek(const nlohmann::json& cfg, const json_source& src, transformer_spec& m,
                          hf_family family) {
  m.mla.q_lora_rank = get_count_or(cfg, "q_lora_rank", src, 0, true);  // null: none (V2-Lite)
  m.mla.kv_lora_rank = get_count(cfg, "kv_lora_rank", src);
  m.mla.qk_nope_head_dim = get_count(cfg, "qk_nope_head_dim", src);
  m.mla.qk_rope_head_dim = get_count(cfg, "qk_rope_head_dim", src);
  m.mla.v_head_dim = get_count(cfg, "v_head_dim", src);
  m.head_dim = m.score_head_dim();
  m.kv_heads = m.heads;  // every head has its own K and V after the up-projection
  if (get_bool_or(cfg, "attention_bias", src, false))
    throw error(src.where("attention_bias") + " is true: MLA with biases is not modelled");
  if (!has(cfg, "n_routed_experts")) return;  // null: a dense model
  read_routed_experts(cfg, src, m, 0, 0);
  const int freq = get_count_or(cfg, "moe_layer_freq", src, 1);
  m.moe.layer_interval = freq;  // i % freq == 0, counted from layer 0
  m.moe.layer_phase = (freq - m.moe.first_dense_layers % freq) % freq;
  // DeepSeek-V3's auxiliary-loss-free balancing keeps a bias per expert (arXiv:2412.19437
  // Sec. 2.1.2), stored in the checkpoint as e_score_correction_bias
  m.moe.router_bias = get_string_or(cfg, "topk_method", src, "") == "noaux_tc";
  if (family == hf_family::deepseek_v3)
    m.mtp_layers = get_count_or(cfg, "num_nextn_predict_layers", src, 0, true);
}

inline void read_gpt_oss(const nlohmann::json& cfg, const json_source& src, transformer_spec& m) {
  // GptOssAttention: q, k, v and o with bias (attention_bias, true in the published configs),
  // a sink logit per head; GptOssExperts: gate_up and down with biases; a router with a bias
  m.qkv_bias = m.out_bias = get_bool_or(cfg, "attention_bias", src, true);
  m.attention_sinks = true;
  m.mlp_bias = true;
  m.moe.experts = get_count(cfg, "num_local_experts", src);
  const char* k = has(cfg, "num_experts_per_tok") ? "num_experts_per_tok" : "experts_per_token";
  m.moe.experts_per_token = get_count(cfg, k, src);
  check_top_k(m, src, k, "num_local_experts");
  m.moe.expert_ffn = get_count(cfg, "intermediate_size", src);
  m.ffn = 0;  // every layer is MoE: intermediate_size is the experts'
  m.moe.router_bias = true;
  m.sliding_window = get_count(cfg, "sliding_window", src);
  m.global_every = has(cfg, "layer_types") ? global_period(cfg, src, m.layers) : 2;
}

/// A ViT encoder's shape, as a vision_config gives it.
struct vit_shape {
  int hidden, layers, mlp, patch, image, channels;

  /// Patches along one side of the image.
  [[nodiscard]] double side() const { return static_cast<double>(image / patch); }
  /// One pre-LayerNorm encoder layer (SigLIP's and Llama 4's): two LayerNorms, q, k, v and o
  /// with biases, a two-matrix GELU MLP with biases.
  [[nodiscard]] double layer_parameters() const {
    const double h = hidden, f = mlp;
    return 2.0 * 2.0 * h + 4.0 * (h * h + h) + (h * f + f) + (f * h + h);
  }
};

/// vit_shape from `vision_config`'s hidden_size, num_hidden_layers, intermediate_size,
/// patch_size, image_size and num_channels; a key left out takes `fallback`'s value (the config
/// class's default).
inline vit_shape read_vit_shape(const nlohmann::json& v, const json_source& vs,
                                const vit_shape& fallback) {
  return {get_count_or(v, "hidden_size", vs, fallback.hidden),
          get_count_or(v, "num_hidden_layers", vs, fallback.layers),
          get_count_or(v, "intermediate_size", vs, fallback.mlp),
          get_count_or(v, "patch_size", vs, fallback.patch),
          get_count_or(v, "image_size", vs, fallback.image),
          get_count_or(v, "num_channels", vs, fallback.channels)};
}

/// SigLIP's parameters (transformers SiglipVisionModel without its pooling head, as Gemma 3
/// uses it): a patch convolution with bias, a position table of (image / patch)^2, the encoder
/// layers (vit_shape::layer_parameters) and a final LayerNorm; then Gemma 3's projector (a
/// vision_hidden x text_hidden matrix and an RMSNorm of vision_hidden). Keys a vision_config
/// leaves out take SiglipVisionConfig's defaults (transformers configuration_siglip.py: hidden
/// 768, 12 layers, MLP 3072, 16-pixel patches of 224-pixel images, 3 channels).
inline double gemma3_vision_parameters(const nlohmann::json& cfg, const json_source& src,
                                       int text_hidden) {
  if (!has(cfg, "vision_config")) return 0.0;
  const nlohmann::json& v = cfg.at("vision_config");
  const json_source vs{src.file, src.key_prefix + "vision_config."};
  const vit_shape t = read_vit_shape(v, vs, {768, 12, 3072, 16, 224, 3});
  if (get_bool_or(v, "vision_use_head", vs, true))
    throw error(vs.where("vision_use_head") + " must be false (Gemma 3's tower has no head)");
  const double h = t.hidden;
  const double embeddings =
      1.0 * t.channels * t.patch * t.patch * h + h + t.side() * t.side() * h;
  const double projector = h * text_hidden + h;
  return embeddings + t.layers * t.layer_parameters() + 2.0 * h + projector;
}

inline void read_gemma(const nlohmann::json& cfg, const nlohmann::json& tc, const json_source& ts,
                       transformer_spec& m, hf_family family) {
  m.norms_per_layer = 4;  // input, post_attention, pre_feedforward, post_feedforward
  const bool gemma3 = family != hf_family::gemma2;
  m.qk_norm = gemma3;
  m.sliding_window = gemma3 ? get_count_or(tc, "sliding_window", ts, 4096)
                            : get_count(tc, "sliding_window", ts);
  if (has(tc, "layer_types"))
    m.global_every = global_period(tc, ts, m.layers);
  else  // Gemma 2: layers alternate from a local one; Gemma 3: sliding_window_pattern (6)
    m.global_every = gemma3 ? get_count_or(tc, "sliding_window_pattern", ts, 6) : 2;
  if (family == hf_family::gemma3)
    m.extra_parameters = gemma3_vision_parameters(cfg, json_source{ts.file, ""}, m.hidden);
}

/// Llama 4's vision tower and projector (transformers modeling_llama4.py Llama4VisionModel and
/// Llama4MultiModalProjector): a bias-free patch projection (Llama4UnfoldConvolution), a class
/// embedding and a position table of (image / patch)^2 + 1 rows, LayerNorms before and after
/// the encoder, the encoder layers (vit_shape::layer_parameters); the pixel-shuffle adapter's
/// two bias-free matrices (intermediate_size x projector_input_dim, projector_output_dim
/// squared) and the projector's bias-free vision_output_dim x text hidden matrix. Keys a
/// vision_config leaves out take Llama4VisionConfig's defaults (configuration_llama4.py:
/// hidden 768, 34 layers, MLP 5632, 14-pixel patches of 448-pixel images, 3 channels,
/// projector 4096 x 4096, output 7680).
inline double llama4_vision_parameters(const nlohmann::json& cfg, const json_source& src,
                                       int text_hidden) {
  if (!has(cfg, "vision_config")) return 0.0;
  const nlohmann::json& v = cfg.at("vision_config");
  const json_source vs{src.file, src.key_prefix + "vision_config."};
  const vit_shape t = read_vit_shape(v, vs, {768, 34, 5632, 14, 448, 3});
  const double adapter_in = get_count_or(v, "projector_input_dim", vs, 4096);
  const double adapter_out = get_count_or(v, "projector_output_dim", vs, 4096);
  const double output = get_count_or(v, "vision_output_dim", vs, 7680);
  const double h = t.hidden;
  const double embeddings =
      1.0 * t.channels * t.patch * t.patch * h + h + (t.side() * t.side() + 1.0) * h;
  const double adapter = 1.0 * t.mlp * adapter_in + adapter_out * adapter_out;
  return embeddings + 2.0 * 2.0 * h + t.layers * t.layer_parameters() + adapter +
         output * text_hidden;
}

/// Llama 4's full-attention period: `layer_types` where given ("chunked_attention" /
/// "full_attention"), else the NoPE layers of `no_rope_layers` (0: no rotary positions, full
/// attention; 1: rotary, chunked; Llama4TextConfig) or, when that list is absent or empty,
/// every `no_rope_layer_interval`-th layer (default 4).
inline int llama4_global_period(const nlohmann::json& tc, const json_source& ts, int layers) {
  if (has(tc, "layer_types")) return global_period(tc, ts, layers, "chunked_attention");
  const bool listed = has(tc, "no_rope_layers") && !(tc.at("no_rope_layers").is_array() &&
                                                     tc.at("no_rope_layers").empty());
  if (!listed) return get_count_or(tc, "no_rope_layer_interval", ts, 4);
  const auto& r = tc.at("no_rope_layers");
  if (!r.is_array() || static_cast<int>(r.size()) < layers)
    throw error(ts.where("no_rope_layers") + " must list 0 or 1 for each of the " +
                std::to_string(layers) + " layers");
  const auto n = static_cast<std::size_t>(layers);
  std::size_t first_nope = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!r[i].is_number_integer() || (r[i] != 0 && r[i] != 1))
      throw error(ts.where("no_rope_layers") + ": layer " + std::to_string(i) +
                  " must be 0 (NoPE) or 1 (RoPE)");
    if (r[i] == 0 && first_nope == 0) first_nope = i + 1;
  }
  for (std::size_t i = 0; i < n; ++i)
    if ((r[i] == 0) != (first_nope > 0 && (i + 1) % first_nope == 0))
      throw error(ts.where("no_rope_layers") + " is not periodic (a NoPE layer every n-th)"
                  "; describe the model as a gpuplan model JSON");
  return static_cast<int>(first_nope);
}

/// Llama 4's experts (Llama4TextMoe): num_local_experts of intermediate_size, top
/// num_experts_per_tok, one shared expert of intermediate_size, a bias-free router; layer i is
/// MoE when (i + 1) % interleave_moe_layer_step == 0, or as `moe_layers` lists them (which must
/// be that pattern). Dense layers have an FFN of intermediate_size_mlp.
inline void read_llama4_moe(const nlohmann::json& tc, const json_source& ts, transformer_spec& m) {
  const int expert_ffn = get_count(tc, "intermediate_size", ts);
  m.ffn = get_count(tc, "intermediate_size_mlp", ts);
  const int step = get_count_or(tc, "interleave_moe_layer_step", ts, 1);
  if (has(tc, "moe_layers")) {
    const auto& l = tc.at("moe_layers");
    if (!l.is_array()) throw error(ts.where("moe_layers") + " must be an array of layer indices");
    if (l.empty()) return;  // every layer dense
    for (std::size_t i = 0; i < l.size(); ++i)
      if (!l[i].is_number_integer() || l[i] != static_cast<int>(i) * step + step - 1)
        throw error(ts.where("moe_layers") + " is not every " + std::to_string(step) +
                    "-th layer (interleave_moe_layer_step); describe the model as a gpuplan "
                    "model JSON");
    if (static_cast<int>(l.size()) != m.layers / step)
      throw error(ts.where("moe_layers") + " does not reach the last MoE layer");
  }
  m.moe.experts = get_count(tc, "num_local_experts", ts);
  m.moe.experts_per_token = get_count(tc, "num_experts_per_tok", ts);
  check_top_k(m, ts, "num_experts_per_tok", "num_local_experts");
  m.moe.expert_ffn = expert_ffn;
  m.moe.shared_experts = 1;  // Llama4TextMoe.shared_expert, a Llama4TextMLP of intermediate_size
  m.moe.layer_interval = step;
  m.moe.layer_phase = step - 1;  // moe_layers = range(step - 1, layers, step)
  if (step == 1) m.ffn = 0;      // no dense layer: intermediate_size_mlp is unused
}

/// Llama 4 (Llama4TextConfig, nested in `text_config` by Llama4ForConditionalGeneration):
/// attention_bias (default false) on q, k, v and o; use_qk_norm is Llama4TextL2Norm, an L2
/// norm without weights (no parameters, so qk_norm stays false); RoPE layers attend inside
/// chunks of attention_chunk_size (default 8192; null: the whole context), NoPE layers to the
/// whole context; the vision tower counts in extra_parameters.
inline void read_llama4(const nlohmann::json& cfg, const nlohmann::json& tc, const json_source& ts,
                        transformer_spec& m, hf_family family) {
  m.qkv_bias = m.out_bias = get_bool_or(tc, "attention_bias", ts, false);
  read_llama4_moe(tc, ts, m);
  const bool chunk_given = tc.contains("attention_chunk_size");
  m.sliding_window = !chunk_given ? 8192 : get_count_or(tc, "attention_chunk_size", ts, 0, true);
  if (m.sliding_window > 0) {
    m.window = window_kind::chunked;
    m.global_every = llama4_global_period(tc, ts, m.layers);
  }
  if (family == hf_family::llama4)
    m.extra_parameters = llama4_vision_parameters(cfg, json_source{ts.file, ""}, m.hidden);
}

/// GLM-4.5 (Glm4MoeForCausalLM; transformers modeling_glm4_moe.py): q, k and v with biases when
/// attention_bias (o without), q_norm and k_norm (RMSNorm of head_dim) when use_qk_norm, partial
/// rotary positions (no parameters); n_routed_experts of moe_intermediate_size, top
/// num_experts_per_tok, n_shared_experts (default 1), the first first_k_dense_replace (default 1)
/// layers dense, a router with e_score_correction_bias (a buffer the checkpoint holds);
/// num_nextn_predict_layers MTP layers stored as DeepSeek-V3 stores them (model.layers.<L>:
/// enorm, hnorm, eh_proj, a decoder layer, shared_head's norm and head, its own embedding).
inline void read_glm4_moe(const nlohmann::json& cfg, const json_source& src, transformer_spec& m) {
  m.qkv_bias = get_bool_or(cfg, "attention_bias", src, false);
  m.qk_norm = get_bool_or(cfg, "use_qk_norm", src, false);
  read_routed_experts(cfg, src, m, 1, 1);  // Glm4MoeConfig's defaults
  m.moe.router_bias = true;
  m.mtp_layers = get_count_or(cfg, "num_nextn_predict_layers", src, 0, true);
}

/// transformer_spec::quantization from `quantization_config` (absent: none).
inline void read_quantization(const nlohmann::json& cfg, const json_source& src,
                              transformer_spec& m) {
  if (!has(cfg, "quantization_config")) return;
  const nlohmann::json& q = cfg.at("quantization_config");
  const json_source qs{src.file, src.key_prefix + "quantization_config."};
  if (!q.is_object()) throw error(src.where("quantization_config") + " must be an object");
  const std::string method = get_string(q, "quant_method", qs);
  checkpoint_quantization& out = m.quantization;
  auto bits = [&](const char* key, int fallback) {
    const int b = get_count_or(q, key, qs, fallback);
    if (b != 4 && b != 8) throw error(qs.where(key) + " must be 4 or 8 (got " +
                                      std::to_string(b) + ")");
    return b == 4 ? precision::int4 : precision::int8;
  };
  if (method == "fp8") {
    out.dtype = precision::fp8;
    out.method = quant_method::fp8;
    if (has(q, "weight_block_size")) {
      const auto& b = q.at("weight_block_size");
      if (!b.is_array() || b.size() != 2 || !b[0].is_number_integer() || b[0] != b[1] ||
          b[0].get<long long>() < 1 || b[0].get<long long>() > 65536)
        throw error(qs.where("weight_block_size") + " must be two equal positive integers");
      out.method = quant_method::fp8_block;
      out.group_size = b[0].get<int>();
    }
  } else if (method == "mxfp4") {
    // transformers' Mxfp4HfQuantizer converts only the MoE experts (gpt-oss)
    out = {quant_method::mxfp4, precision::fp4, mxfp4_block, m.is_moe()};
  } else if (method == "awq") {
    out = {quant_method::awq, bits(has(q, "bits") ? "bits" : "w_bit", 4),
           get_count_or(q, has(q, "group_size") ? "group_size" : "q_group_size", qs, 128), false};
  } else if (method == "gptq") {
    // group_size -1: one scale per output channel
    const bool per_channel = has(q, "group_size") && q.at("group_size") == -1;
    out = {quant_method::gptq, bits("bits", 4),
           per_channel ? 0 : get_count_or(q, "group_size", qs, 128), false};
  } else if (method == "bitsandbytes") {
    if (get_bool_or(q, "load_in_4bit", qs, false))
      out = {quant_method::bnb_nf4, precision::int4, nf4_block, false};
    else if (get_bool_or(q, "load_in_8bit", qs, false))
      out = {quant_method::bnb_int8, precision::int8, 0, false};
    else
      throw error(qs.where("load_in_4bit") + " or load_in_8bit must be true");
  } else if (method == "modelopt") {
    const std::string algo = get_string(q, "quant_algo", qs);
    if (algo == "NVFP4") out = {quant_method::nvfp4, precision::fp4, nvfp4_block, false};
    else if (algo == "FP8") out = {quant_method::fp8, precision::fp8, 0, false};
    else throw error(qs.where("quant_algo") + ": '" + algo + "' (known: NVFP4, FP8)");
  } else if (method == "compressed-tensors") {
    const std::string format = get_string_or(q, "format", qs, "");
    if (format == "nvfp4-pack-quantized") out = {quant_method::nvfp4, precision::fp4, nvfp4_block, false};
    else if (format == "float-quantized") out = {quant_method::fp8, precision::fp8, 0, false};
    else throw error(qs.where("format") + ": '" + format +
                     "' (known: nvfp4-pack-quantized, float-quantized)");
  } else {
    throw error(qs.where("quant_method") + ": '" + method +
                "' (known: fp8, mxfp4, awq, gptq, bitsandbytes, modelopt, compressed-tensors)");
  }
}

}  // namespace detail

namespace detail {

/// The model's label: `name`, else _name_or_path (up to a NUL, which would end the name early),
/// else the architecture. `architectures` may be present but null: model_type named the family
/// then.
inline name_string hf_label(const nlohmann::json& cfg, const json_source& src,
                            std::string_view name) {
  std::string label(name);
  if (label.empty()) label = get_string_or(cfg, "_name_or_path", src, "");
  label = label.substr(0, label.find('\0'));
  if (label.empty())
    label = has(cfg, "architectures") ? cfg.at("architectures")[0].get<std::string>()
                                      : get_string(cfg, "model_type", src);
  if (label.size() > name_string::capacity) label.resize(name_string::capacity);
  return name_string::from(label);
}

/// GPT-2's keys (n_embd, n_layer, n_head, ...): LayerNorm, a GELU MLP, learned positions, biases.
inline void read_gpt2(const nlohmann::json& cfg, const json_source& src, transformer_spec& m) {
  m.hidden = get_count(cfg, "n_embd", src);
  m.layers = get_layer_count(cfg, "n_layer", src);
  m.heads = get_count(cfg, "n_head", src);
  m.kv_heads = m.heads;
  if (m.hidden % m.heads != 0)
    throw error(src.where("n_head") + " (" + std::to_string(m.heads) +
                ") does not divide n_embd (" + std::to_string(m.hidden) + ")");
  m.head_dim = m.hidden / m.heads;
  m.ffn = get_count_or(cfg, "n_inner", src, 4 * m.hidden);
  m.ffn_type = ffn_kind::mlp;
  m.vocab = get_count(cfg, "vocab_size", src);
  m.max_positions =
      has(cfg, "n_positions") ? get_count(cfg, "n_positions", src) : get_count(cfg, "n_ctx", src);
  m.positions = position_kind::learned;
  m.norm = norm_kind::layernorm;
  m.qkv_bias = m.out_bias = m.mlp_bias = true;
  m.tied_embeddings = get_bool_or(cfg, "tie_word_embeddings", src, true);
}

/// The shape keys every rotary family shares (hidden_size, num_hidden_layers, the heads, the FFN,
/// the vocabulary and the context), read from `tc` (the text model's keys).
inline void read_rotary_shape(const nlohmann::json& tc, const json_source& ts, hf_family family,
                              transformer_spec& m) {
  const bool gemma3 = family == hf_family::gemma3 || family == hf_family::gemma3_text;
  m.hidden = get_count(tc, "hidden_size", ts);
  m.layers = get_layer_count(tc, "num_hidden_layers", ts);
  m.heads = get_count(tc, "num_attention_heads", ts);
  // Gemma3TextConfig's defaults (transformers configuration_gemma3.py) for keys its published
  // configs leave out
  m.kv_heads = get_count_or(tc, "num_key_value_heads", ts, gemma3 ? 4 : m.heads);
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    throw error(ts.where("num_key_value_heads") + " (" + std::to_string(m.kv_heads) +
                ") must divide num_attention_heads (" + std::to_string(m.heads) + ")");
  if (gemma3 && !has(tc, "head_dim")) {
    m.head_dim = 256;
  } else {
    if (!has(tc, "head_dim") && m.hidden % m.heads != 0)
      throw error(ts.where("num_attention_heads") + " (" + std::to_string(m.heads) +
                  ") does not divide hidden_size (" + std::to_string(m.hidden) +
                  ") and 'head_dim' is missing");
    m.head_dim = get_count_or(tc, "head_dim", ts, m.hidden / m.heads);
  }
  const bool moe_only_ffn = family == hf_family::qwen3_moe || family == hf_family::gpt_oss;
  m.ffn = moe_only_ffn ? get_count_or(tc, "intermediate_size", ts, 0, true)
                       : get_count(tc, "intermediate_size", ts);
  m.vocab = gemma3 ? get_count_or(tc, "vocab_size", ts, 262208) : get_count(tc, "vocab_size", ts);
  // Absent: unknown (0). Given, at least 1: a model whose context holds no token is no model
  // (max_position_embeddings: 0 was accepted; gpuplan issue 22).
  m.max_positions = get_count_or(tc, "max_position_embeddings", ts, gemma3 ? 131072 : 0);
  m.positions = position_kind::rotary;
}

/// Mixtral's experts: num_local_experts of the FFN's size, num_experts_per_tok of them a token.
inline void read_mixtral(const nlohmann::json& cfg, const json_source& src, transformer_spec& m) {
  m.moe.experts = get_count(cfg, "num_local_experts", src);
  m.moe.experts_per_token = get_count(cfg, "num_experts_per_tok", src);
  if (m.moe.experts_per_token > m.moe.experts)
    throw error(src.where("num_experts_per_tok") + " (" +
                std::to_string(m.moe.experts_per_token) + ") exceeds num_local_experts (" +
                std::to_string(m.moe.experts) + ")");
  m.moe.expert_ffn = m.ffn;
}

/// The Llama family and its descendants (RMSNorm, SwiGLU, rotary): the keys beyond the shape,
/// each family's own. `tc`/`ts`: the text model's keys (Gemma 3's multimodal config nests them).
inline void read_llama_family(const nlohmann::json& cfg, const json_source& src,
                              const nlohmann::json& tc, const json_source& ts, hf_family family,
                              transformer_spec& m) {
  const bool nested = family == hf_family::gemma3 || family == hf_family::llama4;
  m.ffn_type = ffn_kind::gated;
  m.norm = norm_kind::rmsnorm;
  const bool gemma = family == hf_family::gemma2 || family == hf_family::gemma3 ||
                     family == hf_family::gemma3_text;
  m.tied_embeddings = get_bool_or(nested ? cfg : tc, "tie_word_embeddings", src, gemma);
  if (nested) m.tied_embeddings = get_bool_or(tc, "tie_word_embeddings", ts, m.tied_embeddings);
  // Sliding-window attention: Mistral's and Phi-3's `sliding_window` (null: none); Qwen2 and
  // Qwen3 only when `use_sliding_window` is true (their configs carry a window they do not use).
  const bool qwen = family == hf_family::qwen2 || family == hf_family::qwen3 ||
                    family == hf_family::qwen3_moe;
  if (family == hf_family::mistral || family == hf_family::mixtral || family == hf_family::phi3 ||
      (qwen && get_bool_or(cfg, "use_sliding_window", src, false)))
    m.sliding_window = get_count_or(cfg, "sliding_window", src, 0, true);
  switch (family) {
    case hf_family::llama:
      m.qkv_bias = m.out_bias = get_bool_or(cfg, "attention_bias", src, false);
      m.mlp_bias = get_bool_or(cfg, "mlp_bias", src, false);
      break;
    case hf_family::qwen2:
      m.qkv_bias = true;  // Qwen2Attention: q_proj, k_proj, v_proj with bias; o_proj without
      break;
    case hf_family::qwen3:
    case hf_family::qwen3_moe: read_qwen3(cfg, src, m, family == hf_family::qwen3_moe); break;
    case hf_family::mixtral: read_mixtral(cfg, src, m); break;
    case hf_family::deepseek_v2:
    case hf_family::deepseek_v3: read_deepseek(cfg, src, m, family); break;
    case hf_family::gpt_oss: read_gpt_oss(cfg, src, m); break;
    case hf_family::gemma2:
    case hf_family::gemma3:
    case hf_family::gemma3_text: read_gemma(cfg, tc, ts, m, family); break;
    case hf_family::llama4:
    case hf_family::llama4_text: read_llama4(cfg, tc, ts, m, family); break;
    case hf_family::glm4_moe: read_glm4_moe(cfg, src, m); break;
    default:
      break;
  }
}

}  // namespace detail

/// The transformer a Hugging Face config describes. `name` names the model (e.g. the folder the
/// config came from); when empty, the config's `_name_or_path` or its architecture is used.
inline transformer_spec from_hf_config(const nlohmann::json& cfg, const json_source& src,
                                       std::string_view name = {}) {
  using detail::hf_family;
  if (!cfg.is_object()) throw error(src.file + ": a config.json must hold a JSON object");
  const hf_family family = detail::hf_family_of(cfg, src);
  transformer_spec m;
  m.name = detail::hf_label(cfg, src, name);
  m.native_dtype = detail::hf_dtype(cfg, src);
  if (family == hf_family::gpt2) {
    detail::read_gpt2(cfg, src, m);
    return m;
  }
  // Gemma 3's and Llama 4's multimodal configs nest the text model; their vision towers count
  // in the weights.
  const bool nested = family == hf_family::gemma3 || family == hf_family::llama4;
  if (nested && !(has(cfg, "text_config") && cfg.at("text_config").is_object()))
    throw error(src.where("text_config") + " is missing (" +
                (family == hf_family::gemma3 ? "Gemma3" : "Llama4") +
                "ForConditionalGeneration keeps the text model's keys there)");
  const nlohmann::json& tc = nested ? cfg.at("text_config") : cfg;
  const json_source ts{src.file, src.key_prefix + (nested ? "text_config." : "")};
  detail::read_rotary_shape(tc, ts, family, m);
  if (family == hf_family::gpt_neox) {
    m.ffn_type = ffn_kind::mlp;
    m.norm = norm_kind::layernorm;
    m.qkv_bias = m.out_bias = get_bool_or(cfg, "attention_bias", src, true);
    m.mlp_bias = true;
    m.tied_embeddings = get_bool_or(cfg, "tie_word_embeddings", src, false);
    return m;
  }
  detail::read_llama_family(cfg, src, tc, ts, family, m);
  detail::read_quantization(cfg, src, m);
  return m;
}

/// The name a config file gives its model: the folder's for a `config.json` (the Hugging Face
/// layout, models/llama-3.1-8b/config.json), the file's own stem otherwise
/// (models/llama-3.1-8b.json names llama-3.1-8b, not "models").
inline std::string hf_config_model_name(const std::filesystem::path& file) {
  std::string name;
  if (file.filename() == "config.json") name = file.parent_path().filename().string();
  if (name.empty() || name == "." || name == "..") name = file.stem().string();
  return name;
}

/// Reads a config.json (or a model folder holding one), named by hf_config_model_name.
inline transformer_spec load_hf_config(const std::filesystem::path& path) {
  std::filesystem::path file = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) file = path / "config.json";
  const nlohmann::json cfg = read_json_file(file);
  const std::string name = hf_config_model_name(file);
  return from_hf_config(cfg, json_source{file.string(), ""}, name);
}

}  // namespace gpuplan::io
