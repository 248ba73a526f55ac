// gpuplan/catalog/models.hpp: published transformer architectures.
//
// Each shape is copied from the model's Hugging Face config.json (num_hidden_layers, hidden_size,
// num_attention_heads, num_key_value_heads, intermediate_size, vocab_size, tie_word_embeddings,
// max_position_embeddings, sliding_window, num_local_experts, num_experts_per_tok) or, where no
// config.json exists, from the paper's table. tests/unit/test_catalog_models.cpp checks every
// parameter count against the published total.
//
// Sources, cited by tag beside each entry:
//  [L2]      Touvron et al. 2023, "Llama 2", arXiv:2307.09288, Table 1; HF meta-llama/Llama-2-*-hf
//            config.json
//  [L3]      Llama Team 2024, "The Llama 3 Herd of Models", arXiv:2407.21783, Table 3; HF
//            meta-llama/Llama-3.1-*/config.json (vocab 128,256; rope_theta 500,000)
//  [MIS]     Jiang et al. 2023, "Mistral 7B", arXiv:2310.06825, Table 1; HF
//            mistralai/Mistral-7B-v0.1/config.json (sliding_window 4096)
//  [MIX]     Jiang et al. 2024, "Mixtral of Experts", arXiv:2401.04088, Table 1; HF
//            mistralai/Mixtral-8x7B-v0.1 and Mixtral-8x22B-v0.1 config.json
//  [QW]      Qwen Team 2024, "Qwen2.5 Technical Report", arXiv:2412.15115, Table 1; HF
//            Qwen/Qwen2.5-7B and Qwen/Qwen2.5-72B config.json (qkv bias, untied embeddings)
//  [L32]     HF meta-llama/Llama-3.2-1B and Llama-3.2-3B config.json (LlamaForCausalLM; head_dim
//            64 and 128; tie_word_embeddings true; vocab 128,256; max_position_embeddings 131,072)
//  [L33]     HF meta-llama/Llama-3.3-70B-Instruct: the Llama 3.1 70B shape (80 layers, hidden 8192,
//            64 heads, 8 KV heads, intermediate 28,672, vocab 128,256, 128K context), whose
//            safetensors.total (70,553,706,496) equals Llama-3.1-70B's
//  [QW-S]    HF Qwen/Qwen2.5-{0.5B,1.5B,3B,14B,32B} config.json (Qwen2ForCausalLM, qkv bias);
//            tie_word_embeddings true for 0.5B, 1.5B and 3B (Qwen2.5 report Table 1, "Tie
//            Embedding: Yes"), false for 14B and 32B
//  [MS3]     HF mistralai/Mistral-Small-24B-Instruct-2501 and -Base-2501 config.json
//            (MistralForCausalLM, head_dim 128 with hidden 5120 / 32 heads, sliding_window null,
//            vocab 131,072)
//  [PHI4]    HF microsoft/phi-4 config.json (Phi3ForCausalLM: fused qkv_proj and gate_up_proj, no
//            biases, RMSNorm, SwiGLU; 40 heads, 10 KV heads, intermediate 17,920, vocab 100,352,
//            untied, max_position_embeddings 16,384); Abdin et al. 2024, arXiv:2412.08905
//  [GPT3]    Brown et al. 2020, "Language Models are Few-Shot Learners", arXiv:2005.14165, Table
//            2.1 (n_layers 96, d_model 12288, n_heads 96, d_head 128, n_ctx 2048) and Sec. 2.1
//            ("the same model and architecture as GPT-2"): learned positions, LayerNorm, biases,
//            4x MLP, GPT-2 BPE vocabulary of 50,257 tied to the output layer.
//  [KOR]     Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
//            Models", arXiv:2205.05198, Table 3 (heads, hidden, layers; s = 2048, v = 51,200);
//            the same shapes as Narayanan et al. 2021, arXiv:2104.04473, Table 1.
#pragma once

#include <gpuplan/specs/transformer.hpp>

#include <array>

namespace gpuplan::catalog {

// ------------------------------------------------------------------------------------ Llama 2 --

/// [L2] 6,738,415,616 parameters (HF safetensors total of meta-llama/Llama-2-7b-hf).
inline constexpr transformer_spec llama2_7b{
    .name = "Llama-2-7B",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 32,
    .head_dim = 128,
    .ffn = 11008,
    .ffn_type = ffn_kind::gated,
    .vocab = 32000,
    .tied_embeddings = false,
    .max_positions = 4096,
    .positions = position_kind::rotary,
    .norm = norm_kind::rmsnorm,
    .native_dtype = precision::fp16,  // HF config.json torch_dtype "float16"
    .aliases = {"llama2-7b", "meta-llama/Llama-2-7b-hf", "llama-2-7b-hf", "meta-llama/Llama-2-7b"},
};

/// [L2] 13,015,864,320 parameters.
inline constexpr transformer_spec llama2_13b{
    .name = "Llama-2-13B",
    .layers = 40,
    .hidden = 5120,
    .heads = 40,
    .kv_heads = 40,
    .head_dim = 128,
    .ffn = 13824,
    .ffn_type = ffn_kind::gated,
    .vocab = 32000,
    .tied_embeddings = false,
    .max_positions = 4096,
    .native_dtype = precision::fp16,
    .aliases = {"llama2-13b", "meta-llama/Llama-2-13b-hf", "llama-2-13b-hf",
                "meta-llama/Llama-2-13b"},
};

/// [L2] 68,976,648,192 parameters; GQA with 8 KV heads (Llama 2 Table 1: "GQA" for 70B only).
inline constexpr transformer_spec llama2_70b{
    .name = "Llama-2-70B",
    .layers = 80,
    .hidden = 8192,
    .heads = 64,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 28672,
    .ffn_type = ffn_kind::gated,
    .vocab = 32000,
    .tied_embeddings = false,
    .max_positions = 4096,
    .native_dtype = precision::fp16,
    .aliases = {"llama2-70b", "meta-llama/Llama-2-70b-hf", "llama-2-70b-hf",
                "meta-llama/Llama-2-70b"},
};

// ---------------------------------------------------------------------------------- Llama 3.1 --

/// [L3] 8,030,261,248 parameters.
inline constexpr transformer_spec llama31_8b{
    .name = "Llama-3.1-8B",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 14336,
    .ffn_type = ffn_kind::gated,
    .vocab = 128256,
    .tied_embeddings = false,
    .max_positions = 131072,
    .native_dtype = precision::bf16,
    .aliases = {"llama3.1-8b", "meta-llama/Llama-3.1-8B", "meta-llama/Meta-Llama-3.1-8B",
                "meta-llama/Llama-3.1-8B-Instruct"},
};

/// [L3] 70,553,706,496 parameters.
inline constexpr transformer_spec llama31_70b{
    .name = "Llama-3.1-70B",
    .layers = 80,
    .hidden = 8192,
    .heads = 64,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 28672,
    .ffn_type = ffn_kind::gated,
    .vocab = 128256,
    .tied_embeddings = false,
    .max_positions = 131072,
    .native_dtype = precision::bf16,
    .aliases = {"llama3.1-70b", "meta-llama/Llama-3.1-70B", "meta-llama/Meta-Llama-3.1-70B",
                "meta-llama/Llama-3.1-70B-Instruct"},
};

/// [L3] 405,853,388,800 parameters.
inline constexpr transformer_spec llama31_405b{
    .name = "Llama-3.1-405B",
    .layers = 126,
    .hidden = 16384,
    .heads = 128,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 53248,
    .ffn_type = ffn_kind::gated,
    .vocab = 128256,
    .tied_embeddings = false,
    .max_positions = 131072,
    .native_dtype = precision::bf16,
    .aliases = {"llama3.1-405b", "meta-llama/Llama-3.1-405B", "meta-llama/Meta-Llama-3.1-405B",
                "meta-llama/Llama-3.1-405B-Instruct"},
};

// ---------------------------------------------------------------------------- Llama 3.2 / 3.3 --

/// [L32] 1,235,814,400 parameters; the output layer tied to the token embedding.
inline constexpr transformer_spec llama32_1b{
    .name = "Llama-3.2-1B",
    .layers = 16,
    .hidden = 2048,
    .heads = 32,
    .kv_heads = 8,
    .head_dim = 64,
    .ffn = 8192,
    .ffn_type = ffn_kind::gated,
    .vocab = 128256,
    .tied_embeddings = true,
    .max_positions = 131072,
    .native_dtype = precision::bf16,
    .aliases = {"llama3.2-1b", "meta-llama/Llama-3.2-1B", "meta-llama/Llama-3.2-1B-Instruct"},
};

/// [L32] 3,212,749,824 parameters; tied embeddings.
inline constexpr transformer_spec llama32_3b{
    .name = "Llama-3.2-3B",
    .layers = 28,
    .hidden = 3072,
    .heads = 24,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 8192,
    .ffn_type = ffn_kind::gated,
    .vocab = 128256,
    .tied_embeddings = true,
    .max_positions = 131072,
    .native_dtype = precision::bf16,
    .aliases = {"llama3.2-3b", "meta-llama/Llama-3.2-3B", "meta-llama/Llama-3.2-3B-Instruct"},
};

/// [L33] 70,553,706,496 parameters: Llama 3.1 70B's shape, released as an Instruct model only.
inline constexpr transformer_spec llama33_70b{
    .name = "Llama-3.3-70B-Instruct",
    .layers = 80,
    .hidden = 8192,
    .heads = 64,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 28672,
    .ffn_type = ffn_kind::gated,
    .vocab = 128256,
    .tied_embeddings = false,
    .max_positions = 131072,
    .native_dtype = precision::bf16,
    .aliases = {"llama3.3-70b", "meta-llama/Llama-3.3-70B-Instruct", "Llama-3.3-70B"},
};

/// Convenience names for the Llama 3.1 entries, whose shapes equal Llama 3's apart from the
/// context length (Llama 3: 8,192 positions).
inline constexpr const transformer_spec& llama3_8b = llama31_8b;
inline constexpr const transformer_spec& llama3_70b = llama31_70b;
inline constexpr const transformer_spec& llama3_405b = llama31_405b;

// -------------------------------------------------------------------------------- Mistral AI --

/// [MIS] 7,241,732,096 parameters; sliding-window attention over 4,096 tokens.
inline constexpr transformer_spec mistral_7b{
    .name = "Mistral-7B-v0.1",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 14336,
    .ffn_type = ffn_kind::gated,
    .vocab = 32000,
    .tied_embeddings = false,
    .max_positions = 32768,
    .native_dtype = precision::bf16,
    .sliding_window = 4096,  // [MIS] Table 1 window_size 4096; config.json sliding_window 4096
    .aliases = {"mistral-7b", "mistralai/Mistral-7B-v0.1", "mistral-7b-v0.1"},
};

/// [MIX] 46,702,792,704 parameters, 12,879,925,248 active (top-2 of 8 experts); the paper
/// rounds them to 47B and 13B.
inline constexpr transformer_spec mixtral_8x7b{
    .name = "Mixtral-8x7B-v0.1",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 14336,  // config.json intermediate_size: the size of each expert
    .ffn_type = ffn_kind::gated,
    .vocab = 32000,
    .tied_embeddings = false,
    .max_positions = 32768,
    .moe = {.experts = 8, .experts_per_token = 2, .expert_ffn = 14336},
    .native_dtype = precision::bf16,
    .aliases = {"mixtral-8x7b", "mistralai/Mixtral-8x7B-v0.1", "mixtral",
                "mistralai/Mixtral-8x7B-Instruct-v0.1"},
};

/// [MIX] 140,620,634,112 parameters, 39,152,031,744 active (Mistral AI: "141B, 39B active").
/// v0.1 keeps the 32,000-token vocabulary; the v0.3 / Instruct release uses 32,768.
inline constexpr transformer_spec mixtral_8x22b{
    .name = "Mixtral-8x22B-v0.1",
    .layers = 56,
    .hidden = 6144,
    .heads = 48,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 16384,
    .ffn_type = ffn_kind::gated,
    .vocab = 32000,
    .tied_embeddings = false,
    .max_positions = 65536,
    .moe = {.experts = 8, .experts_per_token = 2, .expert_ffn = 16384},
    .native_dtype = precision::bf16,
    .aliases = {"mixtral-8x22b", "mistralai/Mixtral-8x22B-v0.1"},
};

// ------------------------------------------------------------------------------------ Qwen2.5 --

/// [QW] 7,615,616,512 parameters (Qwen reports 7.61B); biases on Q, K and V.
inline constexpr transformer_spec qwen25_7b{
    .name = "Qwen2.5-7B",
    .layers = 28,
    .hidden = 3584,
    .heads = 28,
    .kv_heads = 4,
    .head_dim = 128,
    .ffn = 18944,
    .ffn_type = ffn_kind::gated,
    .vocab = 152064,
    .tied_embeddings = false,
    .max_positions = 131072,
    .qkv_bias = true,
    .native_dtype = precision::bf16,
    .aliases = {"qwen2.5-7b", "Qwen/Qwen2.5-7B", "Qwen/Qwen2.5-7B-Instruct"},
};

/// [QW] 72,706,203,648 parameters (Qwen reports 72.7B).
inline constexpr transformer_spec qwen25_72b{
    .name = "Qwen2.5-72B",
    .layers = 80,
    .hidden = 8192,
    .heads = 64,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 29568,
    .ffn_type = ffn_kind::gated,
    .vocab = 152064,
    .tied_embeddings = false,
    .max_positions = 131072,
    .qkv_bias = true,
    .native_dtype = precision::bf16,
    .aliases = {"qwen2.5-72b", "Qwen/Qwen2.5-72B", "Qwen/Qwen2.5-72B-Instruct"},
};

/// [QW-S] 494,032,768 parameters; tied embeddings.
inline constexpr transformer_spec qwen25_0_5b{
    .name = "Qwen2.5-0.5B",
    .layers = 24,
    .hidden = 896,
    .heads = 14,
    .kv_heads = 2,
    .head_dim = 64,
    .ffn = 4864,
    .ffn_type = ffn_kind::gated,
    .vocab = 151936,
    .tied_embeddings = true,
    .max_positions = 32768,
    .qkv_bias = true,
    .native_dtype = precision::bf16,
    .aliases = {"qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B", "Qwen/Qwen2.5-0.5B-Instruct"},
};

/// [QW-S] 1,543,714,304 parameters; tied embeddings.
inline constexpr transformer_spec qwen25_1_5b{
    .name = "Qwen2.5-1.5B",
    .layers = 28,
    .hidden = 1536,
    .heads = 12,
    .kv_heads = 2,
    .head_dim = 128,
    .ffn = 8960,
    .ffn_type = ffn_kind::gated,
    .vocab = 151936,
    .tied_embeddings = true,
    .max_positions = 131072,
    .qkv_bias = true,
    .native_dtype = precision::bf16,
    .aliases = {"qwen2.5-1.5b", "Qwen/Qwen2.5-1.5B", "Qwen/Qwen2.5-1.5B-Instruct"},
};

/// [QW-S] 3,085,938,688 parameters; tied embeddings.
inline constexpr transformer_spec qwen25_3b{
    .name = "Qwen2.5-3B",
    .layers = 36,
    .hidden = 2048,
    .heads = 16,
    .kv_heads = 2,
    .head_dim = 128,
    .ffn = 11008,
    .ffn_type = ffn_kind::gated,
    .vocab = 151936,
    .tied_embeddings = true,
    .max_positions = 32768,
    .qkv_bias = true,
    .native_dtype = precision::bf16,
    .aliases = {"qwen2.5-3b", "Qwen/Qwen2.5-3B", "Qwen/Qwen2.5-3B-Instruct"},
};

/// [QW-S] 14,770,033,664 parameters; untied.
inline constexpr transformer_spec qwen25_14b{
    .name = "Qwen2.5-14B",
    .layers = 48,
    .hidden = 5120,
    .heads = 40,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 13824,
    .ffn_type = ffn_kind::gated,
    .vocab = 152064,
    .tied_embeddings = false,
    .max_positions = 131072,
    .qkv_bias = true,
    .native_dtype = precision::bf16,
    .aliases = {"qwen2.5-14b", "Qwen/Qwen2.5-14B", "Qwen/Qwen2.5-14B-Instruct"},
};

/// [QW-S] 32,763,876,352 parameters; untied.
inline constexpr transformer_spec qwen25_32b{
    .name = "Qwen2.5-32B",
    .layers = 64,
    .hidden = 5120,
    .heads = 40,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 27648,
    .ffn_type = ffn_kind::gated,
    .vocab = 152064,
    .tied_embeddings = false,
    .max_positions = 131072,
    .qkv_bias = true,
    .native_dtype = precision::bf16,
    .aliases = {"qwen2.5-32b", "Qwen/Qwen2.5-32B", "Qwen/Qwen2.5-32B-Instruct"},
};

// ------------------------------------------------------------------ Mistral Small 3, Phi-4 --

/// [MS3] 23,572,403,200 parameters; head_dim 128 although hidden / heads is 160; full attention
/// (sliding_window null).
inline constexpr transformer_spec mistral_small_24b{
    .name = "Mistral-Small-24B-2501",
    .layers = 40,
    .hidden = 5120,
    .heads = 32,
    .kv_heads = 8,
    .head_dim = 128,
    .ffn = 32768,
    .ffn_type = ffn_kind::gated,
    .vocab = 131072,
    .tied_embeddings = false,
    .max_positions = 32768,
    .native_dtype = precision::bf16,
    .aliases = {"mistral-small-24b", "mistralai/Mistral-Small-24B-Instruct-2501",
                "mistralai/Mistral-Small-24B-Base-2501", "mistral-small-3"},
};

/// [PHI4] 14,659,507,200 parameters. Phi3ForCausalLM fuses q, k and v into one qkv_proj and gate
/// and up into one gate_up_proj: the same weights as separate projections, so the Llama shape
/// counts them exactly.
inline constexpr transformer_spec phi4{
    .name = "Phi-4",
    .layers = 40,
    .hidden = 5120,
    .heads = 40,
    .kv_heads = 10,
    .head_dim = 128,
    .ffn = 17920,
    .ffn_type = ffn_kind::gated,
    .vocab = 100352,
    .tied_embeddings = false,
    .max_positions = 16384,
    .native_dtype = precision::bf16,
    .aliases = {"phi4", "microsoft/phi-4"},
};

// ---------------------------------------------------------------------------------------- GPT --

/// A GPT-2/GPT-3-style decoder: LayerNorm with bias, biases on every projection, a 4h MLP,
/// learned positions and the output layer tied to the token embedding.
constexpr transformer_spec gpt_decoder(name_string name, int layers, int hidden, int heads,
                                       int vocab, int positions) {
  return {
      .name = name,
      .layers = layers,
      .hidden = hidden,
      .heads = heads,
      .kv_heads = heads,
      .head_dim = hidden / heads,
      .ffn = 4 * hidden,
      .ffn_type = ffn_kind::mlp,
      .vocab = vocab,
      .tied_embeddings = true,
      .max_positions = positions,
      .positions = position_kind::learned,
      .norm = norm_kind::layernorm,
      .qkv_bias = true,
      .out_bias = true,
      .mlp_bias = true,
      .native_dtype = precision::fp16,
  };
}

/// [GPT3] 174,604,259,328 parameters (Table D.1: 174,600M).
inline constexpr transformer_spec gpt3_175b = [] {
  transformer_spec t = gpt_decoder("GPT-3-175B", 96, 12288, 96, 50257, 2048);
  t.aliases = {"gpt3-175b", "gpt-3", "davinci"};
  return t;
}();

/// [KOR] Table 3 / Narayanan Table 1: 22B (64 heads, hidden 6144, 48 layers), s 2048, V 51,200.
inline constexpr transformer_spec megatron_22b = [] {
  transformer_spec t = gpt_decoder("Megatron-GPT-22B", 48, 6144, 64, 51200, 2048);
  t.aliases = {"megatron-22b", "gpt-22b"};
  return t;
}();

/// [KOR] Table 3: 175B (96 heads, hidden 12288, 96 layers) with Megatron's padded vocabulary
/// 51,200 (GPT-3 itself is gpt3_175b, with 50,257).
inline constexpr transformer_spec megatron_175b = [] {
  transformer_spec t = gpt_decoder("Megatron-GPT-175B", 96, 12288, 96, 51200, 2048);
  t.aliases = {"megatron-175b", "gpt-175b"};
  return t;
}();

/// [KOR] Table 3: 530B (128 heads, hidden 20480, 105 layers), the MT-NLG shape.
inline constexpr transformer_spec megatron_530b = [] {
  transformer_spec t = gpt_decoder("Megatron-GPT-530B", 105, 20480, 128, 51200, 2048);
  t.aliases = {"megatron-530b", "gpt-530b", "mt-nlg-530b"};
  return t;
}();

/// [KOR] Table 3: 1T (160 heads, hidden 25600, 128 layers).
inline constexpr transformer_spec megatron_1t = [] {
  transformer_spec t = gpt_decoder("Megatron-GPT-1T", 128, 25600, 160, 51200, 2048);
  t.aliases = {"megatron-1t", "gpt-1t"};
  return t;
}();

/// Every model of the catalog, in the order docs/catalog.md lists them.
inline constexpr std::array all_models{
    llama2_7b,         llama2_13b,    llama2_70b,    llama31_8b,    llama31_70b,
    llama31_405b,      llama32_1b,    llama32_3b,    llama33_70b,   mistral_7b,
    mixtral_8x7b,      mixtral_8x22b, qwen25_7b,     qwen25_72b,    qwen25_0_5b,
    qwen25_1_5b,       qwen25_3b,     qwen25_14b,    qwen25_32b,    mistral_small_24b,
    phi4,              gpt3_175b,     megatron_22b,  megatron_175b, megatron_530b,
    megatron_1t,
};

}  // namespace gpuplan::catalog
