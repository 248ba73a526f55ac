// gpuplan/models/flops.hpp: floating-point operations of a transformer, per token.
//
// The count is the one Megatron-LM's papers use (Narayanan et al. 2021, arXiv:2104.04473, Sec.
// 5.1 and Appendix; Korthikanti et al. 2022, arXiv:2205.05198, Sec. 6): only matrix multiplies,
// 2 FLOP per multiply-add.
//
//   forward, per token = 2 x (weights of every matmul the token passes through: Q, K, V, O
//                             projections, the FFN or its top-k experts and shared experts, the
//                             MoE router)
//                      + 4 x heads x head_dim x keys attended, per layer (Q K^T and scores x V;
//                        MLA: 2 x heads x (nope + rope + v_head_dim), and with the absorbed
//                        weights in decode 2 x heads x (2 kv_lora_rank + rope); windowed layers
//                        attend to at most their window)
//                      + 2 x vocab x hidden (the LM head / logits)
//                      + per linear-mixer layer of a hybrid (transformer_spec::pattern), its
//                        recurrence: 2 x multiply-adds per state element x the state's elements
//                        (Mamba, Mamba-2: 3, the decay, the input and the read-out; Gated
//                        DeltaNet: 4, the decay, the delta rule's S k and rank-one update, the
//                        read-out S q) + the depthwise convolution, 2 x conv_dim x conv_kernel.
//                        A linear layer's matmuls (in_proj, out_proj, Mamba's x_proj and
//                        dt_proj) count with the weights; it attends to no keys.
//
// Element-wise work (norms, softmax, activations, biases, the embedding lookup) is left out, as
// in the papers; it is well under 1% of the matmul FLOPs for the models in the catalog.
//
// The backward pass costs twice the forward (a gradient for the activations and one for the
// weights), so training without recomputation is 3x forward. Recomputation adds forward work:
//   full      the transformer layers' forward again (not the LM head, whose activations are
//             kept): Narayanan Eq. 3, 96 B s l h^2 (1 + s/6h + V/16lh) per iteration;
//   selective only the attention core (Q K^T, softmax, scores x V) again: + 4 s h per token and
//             layer (Korthikanti Sec. 4.2 names what is recomputed). Note: Korthikanti's Eq. 8,
//             72 B s L h^2 (1 + s/3h + V/12hL), charges 12 B s^2 h per layer for it, three times
//             the forward cost of what is recomputed (its HFU figures use Eq. 8); gpuplan counts
//             the recomputed work itself, Eq. 7 + 4 B s^2 h L.
// Without recomputation the count is Korthikanti Eq. 7, 72 B s L h^2 (1 + s/6h + V/12hL), exactly.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

#include <string_view>

namespace gpuplan {

/// Which keys a token's attention scores are computed against.
enum class attention_mask : unsigned char {
  /// Every query against all `context` keys. Megatron's formulas count attention this way (the
  /// kernels of the time computed the whole s x s score matrix), and a decoding token attends
  /// to its whole KV cache this way.
  full,
  /// Causal self-attention over a sequence of `context` tokens processed together (training,
  /// prefill): token i attends to i keys, on average (context + 1) / 2. Fused causal kernels
  /// (FlashAttention) skip the masked half, so this is the work they do.
  causal,
};

/// The names of attention_mask, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<attention_mask> attention_mask_names[] = {
    {attention_mask::full, "full"},
    {attention_mask::causal, "causal"},
};
constexpr const auto& enumerators(attention_mask) { return attention_mask_names; }

/// Forward FLOPs per token, by part.
struct forward_flops {
  compute_per_token layers_matmul{};  ///< Q, K, V, O, FFN / active experts, router
  compute_per_token attention{};      ///< Q K^T and scores x V
  compute_per_token lm_head{};        ///< logits
  compute_per_token recurrence{};     ///< linear mixers' state updates and convolutions

  [[nodiscard]] constexpr compute_per_token total() const {
    return layers_matmul + attention + lm_head + recurrence;
  }
};

namespace detail {

/// Weights of every matmul in one layer that a token passes through (biases and norms excluded).
constexpr double layer_matmul_weights(const transformer_spec& m, int layer) {
  const double attention = m.is_attention_layer(layer) ? m.attention_weights()
                           : m.is_linear_layer(layer)  ? m.linear_mixer_weights()
                                                       : 0.0;
  if (!m.has_ffn(layer)) return attention;
  if (!m.is_moe_layer(layer)) return attention + m.ffn_weights(m.ffn);
  const int shared_ffn = m.moe.shared_expert_ffn > 0 ? m.moe.shared_expert_ffn : m.moe.expert_ffn;
  return attention + m.router_parameters()                                    // router
         + m.ffn_weights(1.0 * m.moe.experts_per_token * m.moe.expert_ffn)     // top-k experts
         + m.ffn_weights(1.0 * m.moe.shared_experts * shared_ffn);             // shared experts
}

/// Keys one query of layer `layer` attends to, averaged over the queries, for `context` tokens:
/// the whole context on a global layer; on a windowed one (transformer_spec::is_windowed_layer)
/// at most the sliding window, or the keys of the query's own chunk (chunked attention).
constexpr double keys_attended(const transformer_spec& m, int layer, int context,
                               attention_mask mask) {
  const double s = context;
  const bool windowed = m.is_windowed_layer(layer);
  const double w = windowed ? m.sliding_window : s;
  if (windowed && m.window == window_kind::chunked) {
    // query i (1-based) sees ((i - 1) mod w) + 1 keys: the last (decoding) token, or the
    // average over i = 1..s (whole chunks of w(w+1)/2, then the partial one)
    const double n = static_cast<double>(static_cast<long long>((s - 1.0) / w));
    if (mask == attention_mask::full) return s - n * w;
    const double whole = static_cast<double>(static_cast<long long>(s / w));
    const double r = s - whole * w;
    return (whole * w * (w + 1.0) / 2.0 + r * (r + 1.0) / 2.0) / s;
  }
  if (mask == attention_mask::full) return s < w ? s : w;
  // causal: query i (1-based) sees min(i, w) keys; average over i = 1..s
  if (s <= w) return (s + 1.0) / 2.0;
  const double inside = w * (w + 1.0) / 2.0;  // queries 1..w
  return (inside + (s - w) * w) / s;
}

/// Keys attended per query, summed over the layers (every layer alike without windows).
constexpr double keys_attended(const transformer_spec& m, int context, attention_mask mask) {
  if (m.sliding_window <= 0) return m.attention_layers() * keys_attended(m, 0, context, mask);
  double k = 0.0;
  for (int i = 0; i < m.layers; ++i)
    k += m.is_attention_layer(i) ? keys_attended(m, i, context, mask) : 0.0;
  return k;
}

/// FLOPs per key attended per query in one layer: Q K^T over the score width and scores x V
/// over the value width, 2 FLOP per multiply-add: 2 x heads x (score + value) = 4 x heads x
/// head_dim for standard attention. MLA as prefill runs it: 2 x heads x (nope + rope + v).
constexpr double attention_flops_per_key(const transformer_spec& m) {
  return 2.0 * m.heads * (m.score_head_dim() + m.value_head_dim());
}

/// MLA's decode with the up-projections absorbed into the query and the output (DeepSeek-V2
/// Sec. 2.1.2; vLLM's and SGLang's MLA decode kernels): scores against the cached latent and
/// rotary key, kv_lora_rank + qk_rope_head_dim wide, and values kv_lora_rank wide, for every
/// head. Per key: 2 x heads x (2 kv_lora_rank + qk_rope_head_dim). Standard attention: as
/// attention_flops_per_key.
constexpr double decode_attention_flops_per_key(const transformer_spec& m) {
  if (!m.is_mla()) return attention_flops_per_key(m);
  return 2.0 * m.heads * (2.0 * m.mla.kv_lora_rank + m.mla.qk_rope_head_dim);
}

/// Multiply-adds per state element per token of a linear mixer's recurrence (its recurrent
/// form, as decode runs it): Mamba (arXiv:2312.00752 Alg. 2) and Mamba-2 (arXiv:2405.21060
/// Sec. 3) h = exp(dt A) h + dt B x and y = C h: the decay, the input and the read-out, 3;
/// Gated DeltaNet (arXiv:2412.06464 Eq. 10) S = alpha S (I - beta k k^T) + beta v k^T and o = S q:
/// the decay, S k, the rank-one update and the read-out, 4.
constexpr double recurrence_multiply_adds(linear_mixer_kind k) {
  return k == linear_mixer_kind::gated_deltanet ? 4.0 : 3.0;
}

/// FLOPs per token of one linear-mixer layer's recurrence and depthwise convolution.
constexpr double recurrence_flops_per_layer(const transformer_spec& m) {
  const linear_mixer_spec& x = m.linear;
  return 2.0 * recurrence_multiply_adds(x.kind) * x.ssm_state_elements() +
         2.0 * x.conv_dim() * x.conv_kernel;
}

/// Tokens per chunk of the chunked training kernels: Mamba-2's SSD as Nemotron-H trains it
/// (config.json chunk_size 128, Megatron-Core's MambaMixer default chunk_size = 128) and
/// flash-linear-attention's chunked gated delta rule (fla/ops/gated_delta_rule/chunk.py: BT = 64).
inline constexpr double ssd_chunk_tokens = 128.0;
inline constexpr double gated_delta_chunk_tokens = 64.0;

/// FLOPs per token of one linear-mixer layer's recurrence as the training (and prefill) kernels
/// compute it, by chunks of Q tokens (a token sees on average Qc = (Q + 1) / 2 tokens of its own
/// chunk, the causal half of each block), 2 FLOP per multiply-add, plus the depthwise conv:
///   Mamba-2's SSD (Dao & Gu 2024, arXiv:2405.21060, Sec. 6 and Listing 1 ssd_minimal): C B^T
///     within the chunk per group (groups x Qc x N), its masked product with X per head
///     (heads x Qc x P), the chunk states B^T X and the read-out C h (2 x heads x N x P);
///   Gated DeltaNet's chunked delta rule with the WY representation (Yang et al. 2024,
///     arXiv:2412.06464, Sec. 3.3; fla chunk_gated_delta_rule): per value head, K K^T and Q K^T
///     within the chunk (2 x Qc x d_k), the WY products A (beta K) and A (beta V) (Qc x (d_k +
///     d_v)), the masked scores times the corrected values (Qc x d_v), and per token the state's
///     W S, K^T U and Q S products (3 x d_k x d_v);
///   Mamba-1's selective scan (arXiv:2312.00752 Sec. 3.3): the recurrent form itself, a
///     work-efficient parallel scan (recurrence_flops_per_layer).
constexpr double chunked_recurrence_flops_per_layer(const transformer_spec& m) {
  const linear_mixer_spec& x = m.linear;
  const double conv = 2.0 * x.conv_dim() * x.conv_kernel;
  const double heads = x.heads, n = x.state_size, p = x.head_dim;
  switch (x.kind) {
    case linear_mixer_kind::mamba: return recurrence_flops_per_layer(m);
    case linear_mixer_kind::mamba2: {
      const double qc = (ssd_chunk_tokens + 1.0) / 2.0;
      return 2.0 * (x.groups * qc * n + heads * qc * p + 2.0 * heads * n * p) + conv;
    }
    case linear_mixer_kind::gated_deltanet: {
      const double qc = (gated_delta_chunk_tokens + 1.0) / 2.0;
      return 2.0 * heads * (2.0 * qc * n + qc * (n + p) + qc * p + 3.0 * n * p) + conv;
    }
  }
  return recurrence_flops_per_layer(m);
}

constexpr void check_context(int context) {
  detail::check_input(context > 0, "flops: context (tokens) must be positive", context);
}

}  // namespace detail

/// Weights a token multiplies through in the transformer layers (all layers, top-k experts for
/// MoE; no embeddings, LM head, biases or norms). 2x this is the layers' matmul FLOPs per token.
constexpr double active_matmul_weights(const transformer_spec& m) {
  double p = 0.0;
  for (int i = 0; i < m.layers; ++i) p += detail::layer_matmul_weights(m, i);
  return p;
}

/// Forward FLOPs per token, by part, for a token attending to `context` keys (full) or for a
/// sequence of `context` tokens processed together (causal). Sliding-window attention caps the
/// keys at the window. Throws gpuplan::invalid_input for context <= 0.
constexpr forward_flops forward_flops_per_token(const transformer_spec& m, int context,
                                                attention_mask mask = attention_mask::causal) {
  detail::check_context(context);
  const auto per_token = units::FLOP_per_token;
  return {
      .layers_matmul = 2.0 * active_matmul_weights(m) * per_token,
      .attention = detail::attention_flops_per_key(m) * detail::keys_attended(m, context, mask) *
                   per_token,
      .lm_head = 2.0 * m.vocab * m.hidden * per_token,
      .recurrence = m.linear_layers() * detail::recurrence_flops_per_layer(m) * per_token,
  };
}

/// Training FLOPs per token (forward + backward + recomputation) for sequences of `seq` tokens.
/// A hybrid's linear mixers count as their chunked training kernels compute them
/// (detail::chunked_recurrence_flops_per_layer), the backward twice the forward as for GEMMs.
/// The default mask is `full`, the convention of the Megatron papers' formulas; pass
/// attention_mask::causal for the work a fused causal kernel does.
constexpr compute_per_token training_flops_per_token(const transformer_spec& m, int seq,
                                                     recompute_mode r = recompute_mode::none,
                                                     attention_mask mask = attention_mask::full) {
  forward_flops f = forward_flops_per_token(m, seq, mask);
  // a hybrid's linear mixers train with the chunked kernels: their FLOPs, not the recurrent form
  f.recurrence = m.linear_layers() * detail::chunked_recurrence_flops_per_layer(m) *
                 units::FLOP_per_token;
  compute_per_token t = 3.0 * f.total();  // forward + backward (2x forward)
  switch (r) {
    case recompute_mode::none: break;
    case recompute_mode::selective: t = t + f.attention; break;
    case recompute_mode::full: t = t + f.layers_matmul + f.attention + f.recurrence; break;
  }
  return t;
}

/// Training FLOPs for `tokens` tokens in sequences of `seq`.
constexpr compute_amount training_flops(const transformer_spec& m, token_count tokens, int seq,
                                        recompute_mode r = recompute_mode::none,
                                        attention_mask mask = attention_mask::full) {
  return training_flops_per_token(m, seq, r, mask) * tokens;
}

/// FLOPs to prefill a prompt of `prompt` tokens (causal attention over the prompt).
constexpr compute_amount prefill_flops(const transformer_spec& m, int prompt) {
  return forward_flops_per_token(m, prompt, attention_mask::causal).total() *
         (1.0 * prompt * units::token);
}

/// FLOPs to decode one token with `context` tokens already in the KV cache (it attends to them
/// and to itself). MLA decodes with absorbed weights (detail::decode_attention_flops_per_key).
constexpr compute_per_token decode_flops_per_token(const transformer_spec& m, int context) {
  detail::check_input(context >= 0, "flops: context (tokens) must not be negative", context);
  forward_flops f = forward_flops_per_token(m, context + 1, attention_mask::full);
  if (m.is_mla())
    f.attention = detail::decode_attention_flops_per_key(m) *
                  detail::keys_attended(m, context + 1, attention_mask::full) *
                  units::FLOP_per_token;
  return f.total();
}

}  // namespace gpuplan
