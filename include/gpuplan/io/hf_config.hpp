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
// `torch_dtype` (or `dtype`, its newer name) sets native_dtype; absent means float32 (what
// transformers loads by default). Every missing key is named in the error.
#pragma once

#include <gpuplan/io/json.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/transformer.hpp>

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

namespace gpuplan::io {

/// The architectures from_hf_config understands.
inline constexpr std::array<std::string_view, 7> hf_architectures = {
    "LlamaForCausalLM", "MistralForCausalLM", "MixtralForCausalLM", "Qwen2ForCausalLM",
    "GPT2LMHeadModel",  "GPTNeoXForCausalLM", "Phi3ForCausalLM"};

namespace detail {

enum class hf_family : unsigned char { llama, mistral, mixtral, qwen2, gpt2, gpt_neox, phi3 };
/// Each family by its config.json "model_type".
inline constexpr enumerator<hf_family> hf_family_names[] = {
    {hf_family::llama, "llama"},     {hf_family::mistral, "mistral"},
    {hf_family::mixtral, "mixtral"}, {hf_family::qwen2, "qwen2"},
    {hf_family::gpt2, "gpt2"},       {hf_family::gpt_neox, "gpt_neox"},
    {hf_family::phi3, "phi3"}};
constexpr const auto& enumerators(hf_family) { return hf_family_names; }

inline std::string supported_list() {
  std::string s;
  for (auto a : hf_architectures) s += (s.empty() ? "" : ", ") + std::string(a);
  return s;
}

inline hf_family hf_family_of(const nlohmann::json& cfg, const json_source& src) {
  struct entry {
    std::string_view architecture;
    hf_family family;
  };
  constexpr entry table[] = {{"LlamaForCausalLM", hf_family::llama},
                             {"MistralForCausalLM", hf_family::mistral},
                             {"MixtralForCausalLM", hf_family::mixtral},
                             {"Qwen2ForCausalLM", hf_family::qwen2},
                             {"GPT2LMHeadModel", hf_family::gpt2},
                             {"GPTNeoXForCausalLM", hf_family::gpt_neox},
                             {"Phi3ForCausalLM", hf_family::phi3}};
  if (has(cfg, "architectures")) {
    const auto& a = cfg.at("architectures");
    if (!a.is_array() || a.empty() || !a[0].is_string())
      throw error(src.where("architectures") + " must be a non-empty array of strings");
    const std::string arch = a[0].get<std::string>();
    for (const auto& e : table)
      if (e.architecture == arch) return e.family;
    throw error(src.file + ": unsupported architecture '" + arch +
                "' (supported: " + supported_list() + ")");
  }
  if (has(cfg, "model_type")) {
    const std::string type = get_string(cfg, "model_type", src);
    for (const enumerator<hf_family>& e : hf_family_names)  // as written: HF's are lower case
      if (e.name == type) return e.value;
    throw error(src.file + ": unsupported model_type '" + type +
                "' (supported: " + supported_list() + ")");
  }
  throw error(src.file +
              ": key 'architectures' is missing (and no 'model_type'); cannot tell the "
              "architecture (supported: " +
              supported_list() + ")");
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

}  // namespace detail

/// The transformer a Hugging Face config describes. `name` names the model (e.g. the folder the
/// config came from); when empty, the config's `_name_or_path` or its architecture is used.
inline transformer_spec from_hf_config(const nlohmann::json& cfg, const json_source& src,
                                       std::string_view name = {}) {
  using detail::hf_family;
  if (!cfg.is_object()) throw error(src.file + ": a config.json must hold a JSON object");
  const hf_family family = detail::hf_family_of(cfg, src);
  transformer_spec m;

  // The label: `name`, else _name_or_path (up to a NUL, which would end the name early), else
  // the architecture. `architectures` may be present but null: model_type named the family then.
  std::string label(name);
  if (label.empty()) label = get_string_or(cfg, "_name_or_path", src, "");
  label = label.substr(0, label.find('\0'));
  if (label.empty())
    label = has(cfg, "architectures") ? cfg.at("architectures")[0].get<std::string>()
                                      : get_string(cfg, "model_type", src);
  if (label.size() > name_string::capacity) label.resize(name_string::capacity);
  m.name = name_string::from(label);
  m.native_dtype = detail::hf_dtype(cfg, src);

  if (family == hf_family::gpt2) {
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
    return m;
  }

  m.hidden = get_count(cfg, "hidden_size", src);
  m.layers = get_layer_count(cfg, "num_hidden_layers", src);
  m.heads = get_count(cfg, "num_attention_heads", src);
  m.kv_heads = get_count_or(cfg, "num_key_value_heads", src, m.heads);
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    throw error(src.where("num_key_value_heads") + " (" + std::to_string(m.kv_heads) +
                ") must divide num_attention_heads (" + std::to_string(m.heads) + ")");
  if (!has(cfg, "head_dim") && m.hidden % m.heads != 0)
    throw error(src.where("num_attention_heads") + " (" + std::to_string(m.heads) +
                ") does not divide hidden_size (" + std::to_string(m.hidden) +
                ") and 'head_dim' is missing");
  m.head_dim = get_count_or(cfg, "head_dim", src, m.hidden / m.heads);
  m.ffn = get_count(cfg, "intermediate_size", src);
  m.vocab = get_count(cfg, "vocab_size", src);
  // Absent: unknown (0). Given, at least 1: a model whose context holds no token is no model
  // (max_position_embeddings: 0 was accepted; gpuplan issue 22).
  m.max_positions = get_count_or(cfg, "max_position_embeddings", src, 0);
  m.positions = position_kind::rotary;

  if (family == hf_family::gpt_neox) {
    m.ffn_type = ffn_kind::mlp;
    m.norm = norm_kind::layernorm;
    m.qkv_bias = m.out_bias = get_bool_or(cfg, "attention_bias", src, true);
    m.mlp_bias = true;
    m.tied_embeddings = get_bool_or(cfg, "tie_word_embeddings", src, false);
    return m;
  }

  // The Llama family: RMSNorm, SwiGLU, rotary.
  m.ffn_type = ffn_kind::gated;
  m.norm = norm_kind::rmsnorm;
  m.tied_embeddings = get_bool_or(cfg, "tie_word_embeddings", src, false);
  // Sliding-window attention: Mistral's `sliding_window` (null: none); Qwen2 only when
  // `use_sliding_window` is true (its configs carry a window they do not use).
  if (family == hf_family::mistral || family == hf_family::mixtral || family == hf_family::phi3 ||
      (family == hf_family::qwen2 && get_bool_or(cfg, "use_sliding_window", src, false)))
    m.sliding_window = get_count_or(cfg, "sliding_window", src, 0, true);
  switch (family) {
    case hf_family::llama:
      m.qkv_bias = m.out_bias = get_bool_or(cfg, "attention_bias", src, false);
      m.mlp_bias = get_bool_or(cfg, "mlp_bias", src, false);
      break;
    case hf_family::qwen2:
      m.qkv_bias = true;  // Qwen2Attention: q_proj, k_proj, v_proj with bias; o_proj without
      break;
    case hf_family::mixtral: {
      m.moe.experts = get_count(cfg, "num_local_experts", src);
      m.moe.experts_per_token = get_count(cfg, "num_experts_per_tok", src);
      if (m.moe.experts_per_token > m.moe.experts)
        throw error(src.where("num_experts_per_tok") + " (" +
                    std::to_string(m.moe.experts_per_token) + ") exceeds num_local_experts (" +
                    std::to_string(m.moe.experts) + ")");
      m.moe.expert_ffn = m.ffn;
      break;
    }
    default:
      break;
  }
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
