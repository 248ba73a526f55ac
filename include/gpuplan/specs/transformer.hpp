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

/// How the windowed layers of a model with `sliding_window` > 0 bound what a token attends to.
enum class window_kind : unsigned char {
  /// A token attends to the `sliding_window` tokens before it and itself (Mistral 7B v0.1, Gemma
  /// 2 and 3, gpt-oss): the KV cache of the layer never holds more than the window.
  sliding,
  /// The sequence is cut into chunks of `sliding_window` tokens and a token attends only inside
  /// its own chunk (Llama 4's `attention_chunk_size`): on average half a chunk of keys.
  chunked,
};
/// The names of window_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<window_kind> window_kind_names[] = {
    {window_kind::sliding, "sliding"},
    {window_kind::chunked, "chunked"},
};
constexpr const auto& enumerators(window_kind) { return window_kind_names; }

/// Multi-head latent attention (DeepSeek-V2 arXiv:2405.04434 Sec. 2.1, DeepSeek-V3
/// arXiv:2412.19437 Sec. 2.1.1; Kimi K2). kv_lora_rank == 0 means standard attention. Per layer:
///   Q:  hidden -> q_lora_rank (q_a_proj, then an RMSNorm of q_lora_rank) -> heads x (nope + rope)
///       (q_b_proj); q_lora_rank == 0: one hidden -> heads x (nope + rope) matrix (V2-Lite);
///   KV: hidden -> kv_lora_rank + rope (kv_a_proj_with_mqa; an RMSNorm of kv_lora_rank), then
///       kv_lora_rank -> heads x (nope + v_head_dim) (kv_b_proj);
///   O:  heads x v_head_dim -> hidden.
/// The KV cache holds the latent and the rotary key, kv_lora_rank + qk_rope_head_dim elements per
/// token and layer, whole on every tensor-parallel rank (vLLM's and SGLang's MLA backends).
struct mla_spec {
  int q_lora_rank = 0;       ///< 0: Q is projected from the hidden state directly
  int kv_lora_rank = 0;      ///< the compressed latent the cache holds (512 in V2/V3)
  int qk_nope_head_dim = 0;  ///< per-head query/key width without rotary positions (128)
  int qk_rope_head_dim = 0;  ///< the decoupled rotary key, shared by the heads and cached (64)
  int v_head_dim = 0;        ///< per-head value width (128)
};

/// The recurrent (linear-time) token mixer of a hybrid model's non-attention layers: a constant
/// state per sequence in place of a KV cache. Shapes as transformers' modeling files build them.
enum class linear_mixer_kind : unsigned char {
  /// Mamba (arXiv:2312.00752; Jamba's JambaMambaMixer): inner = expand x hidden channels, each
  /// with a state of state_size; in_proj (hidden -> 2 inner), a depthwise conv of conv_kernel,
  /// x_proj (inner -> dt_rank + 2 state_size), dt_proj (dt_rank -> inner, with bias), A_log
  /// (inner x state_size), D (inner), out_proj (inner -> hidden).
  mamba,
  /// Mamba-2 (arXiv:2405.21060; Nemotron-H's NemotronHMamba2Mixer): heads x head_dim = inner,
  /// B and C in `groups` groups of state_size; in_proj (hidden -> inner + conv_dim + heads), a
  /// depthwise conv over conv_dim = inner + 2 groups x state_size, dt_bias, A_log and D per
  /// head, a gated RMSNorm of inner, out_proj (inner -> hidden).
  mamba2,
  /// Gated DeltaNet (arXiv:2412.06464; Qwen3-Next's Qwen3NextGatedDeltaNet): `groups` key heads
  /// of state_size (q and k), heads value heads of head_dim (v and the output gate z);
  /// in_proj_qkvz (hidden -> 2 groups x state_size + 2 inner), in_proj_ba (hidden -> 2 heads),
  /// a bias-free depthwise conv over conv_dim = 2 groups x state_size + inner, dt_bias and
  /// A_log per head, a gated RMSNorm of head_dim, out_proj (inner -> hidden).
  gated_deltanet,
};
/// The names of linear_mixer_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<linear_mixer_kind> linear_mixer_kind_names[] = {
    {linear_mixer_kind::mamba, "mamba"},
    {linear_mixer_kind::mamba2, "mamba2"},
    {linear_mixer_kind::gated_deltanet, "gated-deltanet"},
};
constexpr const auto& enumerators(linear_mixer_kind) { return linear_mixer_kind_names; }

/// The shape of a linear mixer (linear_mixer_kind). conv_kernel == 0: the model has none.
struct linear_mixer_spec {
  linear_mixer_kind kind = linear_mixer_kind::mamba2;
  int heads = 0;        ///< Mamba-2: mamba_num_heads; Gated DeltaNet: value heads; Mamba: 0
  int head_dim = 0;     ///< Mamba-2: mamba_head_dim; Gated DeltaNet: value head width
  int groups = 0;       ///< Mamba-2: n_groups of B and C; Gated DeltaNet: key heads
  int state_size = 0;   ///< Mamba's d_state, Mamba-2's ssm_state_size, GDN's key head width
  int conv_kernel = 0;  ///< the depthwise causal convolution's width (4)
  int inner = 0;        ///< Mamba: expand x hidden; the others: heads x head_dim
  int dt_rank = 0;      ///< Mamba: the rank of the time-step projection (mamba_dt_rank)
  bool conv_bias = false;  ///< a bias on the convolution (Mamba, Mamba-2: use_conv_bias)
  bool proj_bias = false;  ///< biases on in_proj and out_proj (use_bias / mamba_proj_bias)
  /// RMSNorms on the time step (dt_rank) and on B and C (state_size each): Jamba's
  /// dt_layernorm, b_layernorm and c_layernorm.
  bool dt_bc_norms = false;

  [[nodiscard]] constexpr bool present() const { return conv_kernel > 0; }
  /// Channels of the convolution: inner (Mamba), inner + 2 groups x state_size (the others).
  [[nodiscard]] constexpr double conv_dim() const {
    return kind == linear_mixer_kind::mamba ? 1.0 * inner
                                            : inner + 2.0 * groups * state_size;
  }
  /// The recurrent state of one sequence, elements: inner x state_size (Mamba), heads x
  /// head_dim x state_size (Mamba-2, and Gated DeltaNet's value x key matrix per head).
  [[nodiscard]] constexpr double ssm_state_elements() const {
    return kind == linear_mixer_kind::mamba ? 1.0 * inner * state_size
                                            : 1.0 * heads * head_dim * state_size;
  }
  /// The convolution's state of one sequence, elements: the last conv_kernel - 1 inputs.
  [[nodiscard]] constexpr double conv_state_elements() const {
    return (conv_kernel - 1.0) * conv_dim();
  }
};

/// What one layer of a hybrid model holds (transformer_spec::pattern, one character a
/// layer). A layer is a token mixer (attention or the linear mixer), a feed-forward block (dense
/// or MoE by transformer_spec::moe's placement), or both, each after its own norm.
///   'A' attention + FFN (every layer of a transformer; an empty pattern means all 'A')
///   'L' linear mixer + FFN (Jamba's Mamba layers, Qwen3-Next's Gated DeltaNet layers)
///   'a' attention alone, 'l' linear mixer alone, 'F' FFN alone (Nemotron-H's '*', 'M', '-')
struct layer_pattern : fixed_text<layer_pattern, 255> {
  using fixed_text::fixed_text;
};

/// How a published checkpoint stores its linear weights: config.json's `quantization_config`.
enum class quant_method : unsigned char {
  none,       ///< every weight in native_dtype
  fp8,        ///< fp8 (e4m3) with one scale per tensor or channel (vLLM's FP8 checkpoints)
  fp8_block,  ///< fp8 with an fp32 scale per group_size x group_size tile (DeepSeek-V3: 128)
  mxfp4,      ///< OCP MX fp4 (e2m1): an 8-bit power-of-two scale per 32 weights (gpt-oss)
  nvfp4,      ///< NVIDIA fp4 (e2m1): an fp8 (e4m3) scale per 16 weights
  awq,        ///< int4 with an fp16 scale and a 4-bit zero point per group_size weights
  gptq,       ///< int4 or int8 (dtype) with an fp16 scale and a zero point per group
  bnb_int8,   ///< bitsandbytes LLM.int8(): int8 with an fp32 scale per row
  bnb_nf4,    ///< bitsandbytes NF4: 4 bits, an 8-bit absmax per 64 weights (double quant)
};
/// The names of quant_method, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<quant_method> quant_method_names[] = {
    {quant_method::none, "none"},         {quant_method::fp8, "fp8"},
    {quant_method::fp8_block, "fp8-block"}, {quant_method::mxfp4, "mxfp4"},
    {quant_method::nvfp4, "nvfp4"},       {quant_method::awq, "awq"},
    {quant_method::gptq, "gptq"},         {quant_method::bnb_int8, "bnb-int8"},
    {quant_method::bnb_nf4, "bnb-nf4"},
};
constexpr const auto& enumerators(quant_method) { return quant_method_names; }

/// Weights per scale of the fixed-block formats: OCP Microscaling Formats (MX) v1.0 Sec. 5.1
/// (MXFP4: a shared 8-bit exponent per 32 elements); NVIDIA's NVFP4 (an E4M3 scale per 16);
/// bitsandbytes' 4-bit default blocksize (64, bitsandbytes.functional.quantize_4bit).
inline constexpr int mxfp4_block = 32;
inline constexpr int nvfp4_block = 16;
inline constexpr int nf4_block = 64;
/// NF4 double quantisation: the absmax constants quantised in blocks of 256, one fp32 constant
/// each (bitsandbytes quantize_4bit(compress_statistics=True) calls quantize_blockwise(absmax,
/// blocksize=256), bitsandbytes/functional.py; QLoRA, Dettmers et al. 2023, Sec. 3).
inline constexpr int nf4_absmax_block = 256;

/// A quantised checkpoint's linear weights (embeddings, the LM head, norms and routers stay in
/// 16 bits in every format above: each method's `modules_to_not_convert` / `ignore` defaults).
struct checkpoint_quantization {
  quant_method method = quant_method::none;
  precision dtype = precision::bf16;  ///< the stored element: fp8, fp4, int4 or int8
  int group_size = 0;        ///< weights per scale; fp8_block: the tile's edge (128)
  bool experts_only = false; ///< only the routed experts are quantised (gpt-oss's MXFP4)

  /// The element each method stores (gptq: int4 or int8).
  [[nodiscard]] constexpr bool dtype_fits() const {
    switch (method) {
      case quant_method::none: return true;
      case quant_method::fp8:
      case quant_method::fp8_block: return dtype == precision::fp8;
      case quant_method::mxfp4:
      case quant_method::nvfp4: return dtype == precision::fp4;
      case quant_method::awq:
      case quant_method::bnb_nf4: return dtype == precision::int4;
      case quant_method::gptq: return dtype == precision::int4 || dtype == precision::int8;
      case quant_method::bnb_int8: return dtype == precision::int8;
    }
    return false;
  }
  /// Throws gpuplan::invalid_input naming the field: a dtype the method does not store, or a
  /// block method without its block (fp8_block's tile edge, MXFP4's 32, NVFP4's 16, NF4's 64).
  constexpr void validate() const {
    detail::check_input(dtype_fits(),
                        "transformer_spec.quantization.dtype is not what its method stores "
                        "(fp8 for fp8/fp8-block, fp4 for mxfp4/nvfp4, int4 for awq/bnb-nf4, "
                        "int4 or int8 for gptq, int8 for bnb-int8)");
    const bool blocked = method == quant_method::fp8_block || method == quant_method::mxfp4 ||
                         method == quant_method::nvfp4 || method == quant_method::bnb_nf4;
    detail::check_input(group_size >= 0 && (!blocked || group_size > 0),
                        "transformer_spec.quantization.group_size must be positive for a block "
                        "method (0: per channel, awq/gptq/bnb-int8 only)",
                        group_size);
  }
};

/// Mixture of experts. experts == 0 means a dense model.
struct moe_spec {
  int experts = 0;             ///< routed experts per MoE layer
  int experts_per_token = 0;   ///< top-k
  int shared_experts = 0;      ///< always-active experts (DeepSeek/Qwen-MoE style)
  int expert_ffn = 0;          ///< FFN size of one routed expert
  int shared_expert_ffn = 0;   ///< FFN size of one shared expert (defaults to expert_ffn if 0)
  int first_dense_layers = 0;  ///< leading layers that keep a dense FFN
  int layer_interval = 1;      ///< every n-th layer after those is MoE (1: all of them)
  /// Which of each `layer_interval` layers after the dense ones is MoE: layer i is MoE when
  /// (i - first_dense_layers) % layer_interval == layer_phase. Qwen2-MoE's decoder_sparse_step
  /// and Llama 4's interleave_moe_layer_step k make layers k-1, 2k-1, ... MoE: phase k - 1.
  int layer_phase = 0;
  /// A bias of `experts` values on the router: gpt-oss's router bias, DeepSeek-V3's
  /// e_score_correction_bias (both held in the checkpoint).
  bool router_bias = false;
  /// A hidden -> 1 sigmoid gate on the shared experts' output (Qwen2-MoE's and Qwen3-Next's
  /// shared_expert_gate): hidden parameters per MoE layer.
  bool shared_expert_gate = false;
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
  /// The published checkpoint's quantisation of its linear weights (none: all native_dtype).
  checkpoint_quantization quantization{};
  /// Sliding-window attention span in tokens (Mistral 7B v0.1: 4096); 0 means every layer
  /// attends to the whole context. Bounds the attention FLOPs (flops.hpp) and the KV cache of
  /// the windowed layers.
  int sliding_window = 0;
  /// With sliding_window > 0, which layers attend to the whole context instead: 0, none (every
  /// layer windowed, Mistral 7B v0.1); n, layer i (0-based) when (i + 1) % n == 0 (Gemma 2 and
  /// gpt-oss: 2, alternating local and global; Gemma 3: 6, five local to one global; Llama 4: 4,
  /// its NoPE layers).
  int global_every = 0;
  window_kind window = window_kind::sliding;  ///< how the windowed layers bound attention
  mla_spec mla{};  ///< multi-head latent attention; kv_lora_rank == 0: standard (MHA/GQA/MQA)
  bool qk_norm = false;          ///< RMSNorm of head_dim on Q and on K per layer (Qwen3, Gemma 3)
  bool attention_sinks = false;  ///< a learned sink logit per head per layer (gpt-oss)
  /// Norms per transformer layer: 2 (before attention and before the FFN), 4 in Gemma 2 and 3
  /// (before and after each).
  int norms_per_layer = 2;
  /// Multi-token-prediction modules the checkpoint holds after the layers (DeepSeek-V3's
  /// num_nextn_predict_layers). Each is DeepSeek's layout: two norms, a 2 hidden x hidden
  /// projection, one transformer layer (MoE when the last layer is), a norm, and its own copies
  /// of the embedding and the output head. Counted in checkpoint_parameters(), not parameters():
  /// engines load them only to draft tokens (speculative decoding).
  int mtp_layers = 0;
  /// Parameters outside the text decoder that the weights hold: a multimodal model's vision
  /// tower and projector (Gemma 3, Llama 4). Counted in parameters() and memory; no text token
  /// passes through them.
  double extra_parameters = 0.0;
  /// Hybrid models: what each layer holds, one character a layer (layer_pattern); empty: every
  /// layer is attention + FFN.
  layer_pattern pattern{};
  /// The linear mixer of the pattern's 'L' and 'l' layers (Mamba, Mamba-2, Gated DeltaNet).
  linear_mixer_spec linear{};
  /// A sigmoid gate on the attention output, projected with the query (Qwen3-Next's gated
  /// attention: q_proj emits 2 x heads x head_dim).
  bool attention_output_gate = false;
  /// The multi-token-prediction modules use the model's own embedding and output head (Qwen3-
  /// Next's mtp.* tensors hold none); false: each module has its copies (DeepSeek-V3).
  bool mtp_shared_vocab = false;
  /// Other accepted names: Hugging Face repository ids, short forms ("llama3.1-70b").
  std::array<name_string, 4> aliases{};

  [[nodiscard]] constexpr bool is_moe() const { return moe.experts > 0; }
  [[nodiscard]] constexpr bool is_mla() const { return mla.kv_lora_rank > 0; }
  /// Whether the layers differ in kind (a layer_pattern is given).
  [[nodiscard]] constexpr bool is_hybrid() const { return !pattern.empty(); }
  /// Layer i's character in the pattern ('A', attention + FFN, without one).
  [[nodiscard]] constexpr char layer_code(int i) const {
    if (pattern.empty() || i < 0 || i >= static_cast<int>(layer_pattern::capacity)) return 'A';
    return pattern.chars[i];
  }
  /// Whether layer i mixes tokens by attention (and holds a KV cache).
  [[nodiscard]] constexpr bool is_attention_layer(int i) const {
    const char c = layer_code(i);
    return c == 'A' || c == 'a';
  }
  /// Whether layer i mixes tokens by the linear mixer (and holds a recurrent state).
  [[nodiscard]] constexpr bool is_linear_layer(int i) const {
    const char c = layer_code(i);
    return c == 'L' || c == 'l';
  }
  /// Whether layer i has a feed-forward block (dense or MoE).
  [[nodiscard]] constexpr bool has_ffn(int i) const {
    const char c = layer_code(i);
    return c == 'A' || c == 'L' || c == 'F';
  }
  /// Of the `count` layers from `first` (all by default), those with attention.
  [[nodiscard]] constexpr int attention_layers(int first = 0, int count = -1) const {
    const int end = count < 0 ? layers : first + count;
    int n = 0;
    for (int i = first; i < end; ++i) n += is_attention_layer(i) ? 1 : 0;
    return n;
  }
  /// Of the `count` layers from `first` (all by default), those with the linear mixer.
  [[nodiscard]] constexpr int linear_layers(int first = 0, int count = -1) const {
    const int end = count < 0 ? layers : first + count;
    int n = 0;
    for (int i = first; i < end; ++i) n += is_linear_layer(i) ? 1 : 0;
    return n;
  }

  /// Whether layer i (0-based) attends through a window (sliding or chunked) rather than to the
  /// whole context.
  [[nodiscard]] constexpr bool is_windowed_layer(int i) const {
    if (sliding_window <= 0) return false;
    return global_every <= 0 || (i + 1) % global_every != 0;
  }
  /// Keys the cache of layer i must hold for a sequence of `context` tokens: the context, or at
  /// most the window (a chunk) on a windowed layer.
  [[nodiscard]] constexpr double cached_tokens(int i, double context) const {
    return is_windowed_layer(i) && context > sliding_window ? 1.0 * sliding_window : context;
  }
  /// The width of a query (and key) head in the attention scores: head_dim, or nope + rope for
  /// MLA (as prefill computes them; decode with absorbed weights scores against the latent).
  [[nodiscard]] constexpr int score_head_dim() const {
    return is_mla() ? mla.qk_nope_head_dim + mla.qk_rope_head_dim : head_dim;
  }
  /// The width of a value head: head_dim, or v_head_dim for MLA.
  [[nodiscard]] constexpr int value_head_dim() const {
    return is_mla() ? mla.v_head_dim : head_dim;
  }
  /// KV-cache elements per token of one layer: K and V of kv_heads heads, or MLA's latent plus
  /// its rotary key (kv_lora_rank + qk_rope_head_dim; DeepSeek-V3: 576).
  [[nodiscard]] constexpr double kv_elements_per_layer() const {
    return is_mla() ? 1.0 * (mla.kv_lora_rank + mla.qk_rope_head_dim)
                    : 2.0 * kv_heads * head_dim;
  }

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
    detail::check_input(global_every >= 0,
                        "transformer_spec.global_every must not be negative (0: none)",
                        global_every);
    detail::check_input(norms_per_layer >= 0,
                        "transformer_spec.norms_per_layer must not be negative", norms_per_layer);
    detail::check_input(mtp_layers >= 0, "transformer_spec.mtp_layers must not be negative",
                        mtp_layers);
    quantization.validate();
    validate_layers();
    detail::check_input(extra_parameters >= 0.0 && extra_parameters < 1e15,
                        "transformer_spec.extra_parameters must be in [0, 1e15)",
                        extra_parameters);
    if (is_mla()) {
      detail::check_input(mla.q_lora_rank >= 0,
                          "transformer_spec.mla.q_lora_rank must not be negative (0: none)",
                          mla.q_lora_rank);
      detail::check_input(mla.qk_nope_head_dim > 0 && mla.qk_rope_head_dim > 0,
                          "transformer_spec.mla.qk_nope_head_dim and qk_rope_head_dim must be "
                          "positive",
                          mla.qk_nope_head_dim, mla.qk_rope_head_dim);
      detail::check_input(mla.v_head_dim > 0, "transformer_spec.mla.v_head_dim must be positive",
                          mla.v_head_dim);
    } else {
      detail::check_input(mla.kv_lora_rank == 0,
                          "transformer_spec.mla.kv_lora_rank must not be negative",
                          mla.kv_lora_rank);
    }
    detail::check_input(moe.experts >= 0, "transformer_spec.moe.experts must not be negative",
                        moe.experts);
    if (moe.experts == 0) {
      detail::check_input(ffn > 0 || ffn_layers() == 0, "transformer_spec.ffn must be positive",
                          ffn);
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
    detail::check_input(moe.layer_phase >= 0 && moe.layer_phase < moe.layer_interval,
                        "transformer_spec.moe.layer_phase must be at least 0 and below "
                        "moe.layer_interval",
                        moe.layer_phase, moe.layer_interval);
    detail::check_input((moe.first_dense_layers == 0 && moe.layer_interval == 1) || ffn > 0,
                        "transformer_spec.ffn must be positive when some layers keep a dense FFN",
                        ffn);
  }

  /// Layers with a feed-forward block.
  [[nodiscard]] constexpr int ffn_layers() const {
    int n = 0;
    for (int i = 0; i < layers; ++i) n += has_ffn(i) ? 1 : 0;
    return n;
  }
  /// The checks of a hybrid model's layer pattern and linear mixer (validate calls it).
  constexpr void validate_layers() const {
    const int n = static_cast<int>(pattern.view().size());
    detail::check_input(n == 0 || n == layers,
                        "transformer_spec.pattern must hold one character per layer (or none)", n,
                        layers);
    for (char c : pattern.view())
      detail::check_input(c == 'A' || c == 'L' || c == 'a' || c == 'l' || c == 'F',
                          "transformer_spec.pattern holds only A, L, a, l and F (attention + FFN, "
                          "linear mixer + FFN, attention, linear mixer, FFN)");
    detail::check_input(!attention_output_gate || !is_mla(),
                        "transformer_spec.attention_output_gate is not modelled with MLA");
    if (!is_hybrid()) return;
    detail::check_input(sliding_window == 0 && !is_mla(),
                        "transformer_spec.pattern is not modelled with sliding_window or MLA");
    if (linear_layers() == 0) return;
    const linear_mixer_spec& x = linear;
    detail::check_input(x.conv_kernel >= 1 && x.conv_kernel <= 64,
                        "transformer_spec.linear.conv_kernel must be in [1, 64]", x.conv_kernel);
    detail::check_input(x.state_size > 0 && x.inner > 0,
                        "transformer_spec.linear.state_size and inner must be positive",
                        x.state_size, x.inner);
    if (x.kind == linear_mixer_kind::mamba) {
      detail::check_input(x.dt_rank > 0, "transformer_spec.linear.dt_rank must be positive",
                          x.dt_rank);
      return;
    }
    detail::check_input(x.heads > 0 && x.head_dim > 0 && x.groups > 0,
                        "transformer_spec.linear.heads, head_dim and groups must be positive",
                        x.heads, x.head_dim, x.groups);
    detail::check_input(1.0 * x.heads * x.head_dim == x.inner,
                        "transformer_spec.linear.inner must be heads x head_dim", x.inner);
    detail::check_input(x.heads % x.groups == 0,
                        "transformer_spec.linear.groups must divide heads", x.groups, x.heads);
  }

  /// Whether layer i (0-based) has a routed-expert FFN.
  [[nodiscard]] constexpr bool is_moe_layer(int i) const {
    if (!is_moe() || i < moe.first_dense_layers || !has_ffn(i)) return false;
    const int interval = moe.layer_interval > 0 ? moe.layer_interval : 1;
    return (i - moe.first_dense_layers) % interval == moe.layer_phase;
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
  /// head_dim each) and the output projection; no biases. For MLA, its five matrices (mla_spec).
  /// What the FLOP count multiplies through.
  [[nodiscard]] constexpr double attention_weights() const {
    const double h = hidden;
    if (is_mla()) {
      const double qk = 1.0 * heads * score_head_dim();
      const double q = mla.q_lora_rank > 0 ? h * mla.q_lora_rank + 1.0 * mla.q_lora_rank * qk
                                           : h * qk;
      const double kv = h * (mla.kv_lora_rank + mla.qk_rope_head_dim) +
                        1.0 * mla.kv_lora_rank * heads * (mla.qk_nope_head_dim + mla.v_head_dim);
      return q + kv + 1.0 * heads * mla.v_head_dim * h;
    }
    const double q = 1.0 * heads * head_dim, kv = 1.0 * kv_heads * head_dim;
    const double q_out = attention_output_gate ? 2.0 * q : q;  // the gate projected with Q
    return h * q_out + 2.0 * h * kv + q * h;
  }
  /// The attention's parameters: its matrices, biases, the norms inside it (MLA's latent norms,
  /// Q/K norms) and sink logits.
  [[nodiscard]] constexpr double attention_parameters() const {
    const double h = hidden, q = 1.0 * heads * head_dim, kv = 1.0 * kv_heads * head_dim;
    double p = attention_weights();
    if (is_mla()) {
      p += mla.q_lora_rank + mla.kv_lora_rank;  // q_a_layernorm, kv_a_layernorm (RMSNorm)
    } else if (qkv_bias) {
      p += q + 2.0 * kv;
    }
    if (out_bias) p += h;
    if (qk_norm) p += 2.0 * score_head_dim();
    if (attention_sinks) p += heads;
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
  [[nodiscard]] constexpr double router_parameters() const {
    return (hidden + (moe.router_bias ? 1.0 : 0.0)) * moe.experts;
  }
  [[nodiscard]] constexpr double shared_expert_parameters() const {
    return moe.shared_experts *
           ffn_parameters(moe.shared_expert_ffn > 0 ? moe.shared_expert_ffn : moe.expert_ffn);
  }
  /// The linear mixer's input projection width: Mamba 2 inner (x and z); Mamba-2 inner + conv
  /// channels + heads (z, x B C, dt); Gated DeltaNet q, k, v, z, then b and a per head.
  [[nodiscard]] constexpr double linear_in_width() const {
    const linear_mixer_spec& x = linear;
    switch (x.kind) {
      case linear_mixer_kind::mamba: return 2.0 * x.inner;
      case linear_mixer_kind::mamba2: return x.inner + x.conv_dim() + x.heads;
      case linear_mixer_kind::gated_deltanet: return x.conv_dim() + x.inner + 2.0 * x.heads;
    }
    return 0.0;
  }
  /// The linear mixer's weight matrices (what the FLOP count multiplies through): in_proj,
  /// out_proj and Mamba's x_proj and dt_proj.
  [[nodiscard]] constexpr double linear_mixer_weights() const {
    const linear_mixer_spec& x = linear;
    double w = hidden * linear_in_width() + 1.0 * x.inner * hidden;
    if (x.kind == linear_mixer_kind::mamba)
      w += 1.0 * x.inner * (x.dt_rank + 2.0 * x.state_size) + 1.0 * x.dt_rank * x.inner;
    return w;
  }
  /// The linear mixer's parameters: its matrices, the convolution, biases, the per-channel or
  /// per-head A, D and time-step bias, and its norms (linear_mixer_kind says which).
  [[nodiscard]] constexpr double linear_mixer_parameters() const {
    const linear_mixer_spec& x = linear;
    double p = linear_mixer_weights() + x.conv_dim() * x.conv_kernel;
    if (x.conv_bias) p += x.conv_dim();
    if (x.proj_bias) p += linear_in_width() + hidden;
    switch (x.kind) {
      case linear_mixer_kind::mamba:  // dt_proj's bias, A_log, D; dt, B and C norms
        p += 1.0 * x.inner + 1.0 * x.inner * x.state_size + x.inner;
        if (x.dt_bc_norms) p += x.dt_rank + 2.0 * x.state_size;
        break;
      case linear_mixer_kind::mamba2: p += 3.0 * x.heads + x.inner; break;  // dt_bias, A, D; norm
      case linear_mixer_kind::gated_deltanet: p += 2.0 * x.heads + x.head_dim; break;
    }
    return p;
  }
  /// One MoE block: the router, every routed expert, the shared experts and their gate.
  [[nodiscard]] constexpr double moe_block_parameters() const {
    return router_parameters() + moe.experts * ffn_parameters(moe.expert_ffn) +
           shared_expert_parameters() + (moe.shared_expert_gate ? 1.0 * hidden : 0.0);
  }
  /// Parameters of layer i: its mixer (attention or the linear mixer), its FFN (dense or all
  /// experts) and its norms (norms_per_layer; half of them for a layer of one part).
  [[nodiscard]] constexpr double layer_parameters(int i) const {
    double p = 0.0;
    if (is_attention_layer(i)) p += attention_parameters();
    if (is_linear_layer(i)) p += linear_mixer_parameters();
    if (has_ffn(i)) p += is_moe_layer(i) ? moe_block_parameters() : ffn_parameters(ffn);
    return p + layer_norms(i) * norm_parameters();
  }
  /// Norms of layer i: norms_per_layer, or half of them for a hybrid's layer of one part (a
  /// mixer or an FFN alone: Nemotron-H's blocks have one).
  [[nodiscard]] constexpr double layer_norms(int i) const {
    return norms_per_layer * layer_parts(i) / 2.0;
  }
  /// The parts of layer i, each after its own norm and followed by a residual add: its mixer
  /// (attention or the linear mixer) and its FFN; 2 in a transformer.
  [[nodiscard]] constexpr int layer_parts(int i) const {
    return (is_attention_layer(i) || is_linear_layer(i) ? 1 : 0) + (has_ffn(i) ? 1 : 0);
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
  /// All parameters: embeddings, every layer, the final norm, the LM head and
  /// extra_parameters (a vision tower); not the multi-token-prediction modules.
  [[nodiscard]] constexpr double parameters() const {
    double p = embedding_parameters() + norm_parameters() + lm_head_parameters() + extra_parameters;
    for (int i = 0; i < layers; ++i) p += layer_parameters(i);
    return p;
  }
  /// One multi-token-prediction module's own copies of the embedding and the output head.
  [[nodiscard]] constexpr double mtp_vocab_parameters() const {
    return mtp_shared_vocab ? 0.0 : 2.0 * vocab * hidden;
  }
  /// The multi-token-prediction modules' parameters (mtp_layers, DeepSeek's layout).
  [[nodiscard]] constexpr double mtp_parameters() const {
    const double h = hidden;
    const double module = 2.0 * norm_parameters() + 2.0 * h * h + layer_parameters(layers - 1) +
                          norm_parameters() + mtp_vocab_parameters();
    return mtp_layers * module;
  }
  /// Everything the published checkpoint holds: parameters() and the MTP modules (DeepSeek-V3:
  /// 671B + 14B, "685B" on its model page).
  [[nodiscard]] constexpr double checkpoint_parameters() const {
    return parameters() + mtp_parameters();
  }
  /// Parameters a token passes through: routed experts count top-k of them, not all.
  [[nodiscard]] constexpr double active_parameters() const {
    double p = parameters();
    if (is_moe())
      p -= moe_layers() * (moe.experts - moe.experts_per_token) * ffn_parameters(moe.expert_ffn);
    return p;
  }

  /// KV-cache bytes per token for the whole model (all layers, K and V; MLA's latent) in dtype
  /// kv, while the context is within every window. Past a window, a windowed layer holds no more
  /// than the window: kv_bytes(context, kv) is the cache of a whole sequence.
  [[nodiscard]] constexpr data_per_token kv_bytes_per_token(precision kv) const {
    return attention_layers() * kv_elements_per_layer() * bytes_per_element(kv) /
           (1.0 * units::token);
  }
  /// KV-cache bytes of one sequence of `context` tokens, windowed layers capped at the window.
  [[nodiscard]] constexpr data_size kv_bytes(double context, precision kv) const {
    double tokens = 0.0;
    for (int i = 0; i < layers; ++i)
      tokens += is_attention_layer(i) ? cached_tokens(i, context) : 0.0;
    return tokens * kv_elements_per_layer() * bytes_per_element(kv);
  }
  /// Of the `count` layers from `first` (all of them by default), those that attend to the
  /// whole context (all of them without a window).
  [[nodiscard]] constexpr int global_layers(int first = 0, int count = -1) const {
    const int end = count < 0 ? layers : first + count;
    int n = 0;
    for (int i = first; i < end; ++i) n += is_attention_layer(i) && !is_windowed_layer(i) ? 1 : 0;
    return n;
  }
  /// The recurrent state of one sequence over every linear layer (conv state in `conv`, the SSM
  /// or delta-rule state in `ssm`): what vLLM allocates per sequence for them
  /// (MambaStateShapeCalculator), whatever the context.
  [[nodiscard]] constexpr data_size state_bytes(precision conv, precision ssm) const {
    return linear_layers() * (linear.conv_state_elements() * bytes_per_element(conv) +
                              linear.ssm_state_elements() * bytes_per_element(ssm));
  }
};

}  // namespace gpuplan
