// gpuplan/specs/transformer.hpp: what a transformer model is, and the counts that follow from its
// shape alone (parameters, KV bytes per token).
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/units.hpp>

#include <array>

namespace gpuplan {

enum class ffn_kind : unsigned char {
  mlp,    ///< up and down projections (GPT-2/3, NeoX): 2 matrices of hidden x ffn
  gated,  ///< SwiGLU / GeGLU (Llama, Mistral, Qwen): gate, up and down, 3 matrices
};
enum class norm_kind : unsigned char {
  layernorm,  ///< weight and bias: 2 x hidden parameters
  rmsnorm,    ///< weight only: hidden parameters
};
enum class position_kind : unsigned char {
  rotary,   ///< RoPE: no parameters
  learned,  ///< a learned table of max_positions x hidden (GPT-2, GPT-3)
};

/// The names of ffn_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<ffn_kind> ffn_kind_names[] = {
    {ffn_kind::gated, "gated"},
    {ffn_kind::mlp, "mlp"},
};
constexpr const auto& enumerators(ffn_kind) { return ffn_kind_names; }
/// The names of norm_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<norm_kind> norm_kind_names[] = {
    {norm_kind::rmsnorm, "rmsnorm"},
    {norm_kind::layernorm, "layernorm"},
};
constexpr const auto& enumerators(norm_kind) { return norm_kind_names; }
/// The names of position_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<position_kind> position_kind_names[] = {
    {position_kind::rotary, "rotary"},
    {position_kind::learned, "learned"},
};
constexpr const auto& enumerators(position_kind) { return position_kind_names; }

/// Mixture of experts. experts == 0 means a dense model.
struct moe_spec {
  int experts = 0;             ///< routed experts per MoE layer
  int experts_per_token = 0;   ///< top-k
  int shared_experts = 0;      ///< always-active experts (DeepSeek/Qwen-MoE style)
  int expert_ffn = 0;          ///< FFN size of one routed expert
  int shared_expert_ffn = 0;   ///< FFN size of one shared expert (defaults to expert_ffn if 0)
  int first_dense_layers = 0;  ///< leading layers that keep a dense FFN
  int layer_interval = 1;      ///< every n-th layer after those is MoE (1: all of them)
};

struct transformer_spec {
  name_string name;
  int layers = 0;
  int hidden = 0;
  int heads = 0;
  int kv_heads = 0;  ///< == heads: MHA; 1: MQA; in between: GQA
  int head_dim = 0;  ///< usually hidden / heads
  int ffn = 0;       ///< dense FFN inner size
  ffn_kind ffn_type = ffn_kind::gated;
  int vocab = 0;
  bool tied_embeddings = false;
  int max_positions = 0;
  position_kind positions = position_kind::rotary;
  norm_kind norm = norm_kind::rmsnorm;
  bool qkv_bias = false;   ///< biases on Q, K and V (Qwen2, GPT)
  bool out_bias = false;   ///< bias on the attention output projection (GPT)
  bool mlp_bias = false;   ///< biases on the FFN projections (GPT)
  moe_spec moe{};
  precision native_dtype = precision::bf16;  ///< dtype the published weights are stored in
  /// Sliding-window attention span in tokens (Mistral 7B v0.1: 4096); 0 means every layer
  /// attends to the whole context. Bounds the attention FLOPs (flops.hpp).
  int sliding_window = 0;
  /// Other accepted names: Hugging Face repository ids, short forms ("llama3.1-70b").
  std::array<name_string, 4> aliases{};

  [[nodiscard]] constexpr bool is_moe() const { return moe.experts > 0; }

  /// Throws gpuplan::invalid_input naming the first field that is missing or inconsistent. In a
  /// constant expression the throw is a compile error that shows the message.
  constexpr void validate() const {
    detail::check_input(!name.empty(), "transformer_spec.name must not be empty");
    detail::check_input(layers > 0, "transformer_spec.layers must be positive", layers);
    detail::check_input(hidden > 0, "transformer_spec.hidden must be positive", hidden);
    detail::check_input(heads > 0, "transformer_spec.heads must be positive", heads);
    detail::check_input(kv_heads > 0, "transformer_spec.kv_heads must be positive", kv_heads);
    detail::check_input(kv_heads <= heads, "transformer_spec.kv_heads must not exceed heads",
                        kv_heads, heads);
    detail::check_input(heads % kv_heads == 0, "transformer_spec.kv_heads must divide heads",
                        kv_heads, heads);
    detail::check_input(head_dim > 0, "transformer_spec.head_dim must be positive", head_dim);
    detail::check_input(vocab > 0, "transformer_spec.vocab must be positive", vocab);
    detail::check_input(max_positions >= 0, "transformer_spec.max_positions must not be negative",
                        max_positions);
    detail::check_input(positions != position_kind::learned || max_positions > 0,
                        "transformer_spec.max_positions must be positive with learned positions",
                        max_positions);
    detail::check_input(sliding_window >= 0,
                        "transformer_spec.sliding_window must not be negative (0: none)",
                        sliding_window);
    detail::check_input(moe.experts >= 0, "transformer_spec.moe.experts must not be negative",
                        moe.experts);
    if (moe.experts == 0) {
      detail::check_input(ffn > 0, "transformer_spec.ffn must be positive", ffn);
      detail::check_input(
          moe.experts_per_token == 0 && moe.shared_experts == 0 && moe.expert_ffn == 0,
          "transformer_spec.moe.experts must be positive when other moe fields are set",
          moe.experts);
      return;
    }
    detail::check_input(moe.experts_per_token >= 1 && moe.experts_per_token <= moe.experts,
                        "transformer_spec.moe.experts_per_token must be between 1 and moe.experts",
                        moe.experts_per_token, moe.experts);
    detail::check_input(moe.expert_ffn > 0, "transformer_spec.moe.expert_ffn must be positive",
                        moe.expert_ffn);
    detail::check_input(
        moe.shared_experts >= 0 && moe.shared_expert_ffn >= 0,
        "transformer_spec.moe.shared_experts and shared_expert_ffn must not be negative",
        moe.shared_experts, moe.shared_expert_ffn);
    detail::check_input(
        moe.first_dense_layers >= 0 && moe.first_dense_layers < layers,
        "transformer_spec.moe.first_dense_layers must be at least 0 and below layers",
        moe.first_dense_layers, layers);
    detail::check_input(moe.layer_interval > 0,
                        "transformer_spec.moe.layer_interval must be positive", moe.layer_interval);
    detail::check_input((moe.first_dense_layers == 0 && moe.layer_interval == 1) || ffn > 0,
                        "transformer_spec.ffn must be positive when some layers keep a dense FFN",
                        ffn);
  }

  /// Whether layer i (0-based) has a routed-expert FFN.
  [[nodiscard]] constexpr bool is_moe_layer(int i) const {
    if (!is_moe() || i < moe.first_dense_layers) return false;
    const int interval = moe.layer_interval > 0 ? moe.layer_interval : 1;
    return (i - moe.first_dense_layers) % interval == 0;
  }
  [[nodiscard]] constexpr int moe_layers() const {
    int n = 0;
    for (int i = 0; i < layers; ++i) n += is_moe_layer(i) ? 1 : 0;
    return n;
  }

  // ---- parameter counts (exact; doubles hold integers exactly up to 2^53) -------------------
  [[nodiscard]] constexpr double norm_parameters() const {
    return norm == norm_kind::layernorm ? 2.0 * hidden : 1.0 * hidden;
  }
  /// The attention's weight matrices: Q (hidden x heads x head_dim), K and V (hidden x kv_heads x
  /// head_dim each) and the output projection; no biases. What the FLOP count multiplies through.
  [[nodiscard]] constexpr double attention_weights() const {
    const double h = hidden, q = 1.0 * heads * head_dim, kv = 1.0 * kv_heads * head_dim;
    return h * q + 2.0 * h * kv + q * h;
  }
  [[nodiscard]] constexpr double attention_parameters() const {
    const double h = hidden, q = 1.0 * heads * head_dim, kv = 1.0 * kv_heads * head_dim;
    double p = attention_weights();
    if (qkv_bias) p += q + 2.0 * kv;
    if (out_bias) p += h;
    return p;
  }
  /// The weight matrices of one FFN of inner size f: gate, up and down (gated) or up and down.
  [[nodiscard]] constexpr double ffn_weights(double f) const {
    return (ffn_type == ffn_kind::gated ? 3.0 : 2.0) * hidden * f;
  }
  /// One dense FFN of inner size f.
  [[nodiscard]] constexpr double ffn_parameters(int f) const {
    const double h = hidden;
    double p = ffn_weights(f);
    if (mlp_bias) p += (ffn_type == ffn_kind::gated ? 2.0 * f : 1.0 * f) + h;
    return p;
  }
  [[nodiscard]] constexpr double router_parameters() const { return 1.0 * hidden * moe.experts; }
  [[nodiscard]] constexpr double shared_expert_parameters() const {
    return moe.shared_experts *
           ffn_parameters(moe.shared_expert_ffn > 0 ? moe.shared_expert_ffn : moe.expert_ffn);
  }
  /// Parameters of layer i: attention, its FFN (dense or all experts) and two norms.
  [[nodiscard]] constexpr double layer_parameters(int i) const {
    double p = attention_parameters() + 2.0 * norm_parameters();
    if (is_moe_layer(i))
      p += router_parameters() + moe.experts * ffn_parameters(moe.expert_ffn) +
           shared_expert_parameters();
    else
      p += ffn_parameters(ffn);
    return p;
  }
  [[nodiscard]] constexpr double embedding_parameters() const {
    double p = 1.0 * vocab * hidden;
    if (positions == position_kind::learned) p += 1.0 * max_positions * hidden;
    return p;
  }
  /// The output projection (LM head); zero when tied to the input embedding.
  [[nodiscard]] constexpr double lm_head_parameters() const {
    return tied_embeddings ? 0.0 : 1.0 * vocab * hidden;
  }
  /// All parameters: embeddings, every layer, the final norm and the LM head.
  [[nodiscard]] constexpr double parameters() const {
    double p = embedding_parameters() + norm_parameters() + lm_head_parameters();
    for (int i = 0; i < layers; ++i) p += layer_parameters(i);
    return p;
  }
  /// Parameters a token passes through: routed experts count top-k of them, not all.
  [[nodiscard]] constexpr double active_parameters() const {
    double p = parameters();
    if (is_moe())
      p -= moe_layers() * (moe.experts - moe.experts_per_token) * ffn_parameters(moe.expert_ffn);
    return p;
  }

  /// KV-cache bytes per token for the whole model (all layers, K and V) in dtype kv.
  [[nodiscard]] constexpr data_per_token kv_bytes_per_token(precision kv) const {
    return 2.0 * layers * kv_heads * head_dim * bytes_per_element(kv) / (1.0 * units::token);
  }
};

}  // namespace gpuplan
