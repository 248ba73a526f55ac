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
//  [DSV3]    DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", arXiv:2412.19437, Sec. 4.2
//            (61 layers, hidden 7168, 128 heads, per-head 128, KV latent 512, query latent 1536,
//            rotary key 64, first 3 layers dense, 1 shared + 256 routed experts of 2048, 8
//            activated, MTP depth 1; "671B total parameters, of which 37B are activated for
//            each token"); HF deepseek-ai/DeepSeek-V3 config.json and README ("685B, which
//            includes 671B of the Main Model weights and 14B of the Multi-Token Prediction
//            (MTP) Module weights"; fp8 weights, weight_block_size [128, 128])
//  [QW3]     Qwen Team 2025, "Qwen3 Technical Report", arXiv:2505.09388, Tables 1 and 2; HF
//            Qwen/Qwen3-8B, Qwen3-32B, Qwen3-30B-A3B, Qwen3-235B-A22B config.json (head_dim 128,
//            q/k RMSNorm, untied) and their safetensors totals
//  [OSS]     OpenAI 2025, "gpt-oss-120b & gpt-oss-20b Model Card", Table 1 (total parameters
//            116.83B / 20.91B; active per token 5.13B / 3.61B, counting the unembedding and not
//            the embedding; checkpoint 60.8 GiB / 12.8 GiB with MXFP4 experts); HF
//            openai/gpt-oss-120b and gpt-oss-20b config.json
//  [G2]      Gemma Team 2024, "Gemma 2", arXiv:2408.00118, Table 1; HF google/gemma-2-9b and
//            gemma-2-27b config.json (head_dim 256 / 128, sliding window 4096 on every other
//            layer, tied embeddings) and their safetensors totals
//  [G3]      Gemma Team 2025, "Gemma 3 Technical Report", arXiv:2503.19786 (5 local layers to 1
//            global, window 1024, a 400M SigLIP vision encoder); HF google/gemma-3-27b-it
//            config.json and its safetensors total
//  [L4]      Meta 2025, Llama 4 model cards (HF meta-llama/Llama-4-Scout-17B-16E-Instruct and
//            Llama-4-Maverick-17B-128E-Instruct: "17B (Activated) 109B (Total)", "17B (Activated)
//            400B (Total)"); their config.json (Llama4ForConditionalGeneration: 48 layers, hidden
//            5120, 40 heads, 8 KV heads of 128, experts of 8192 and a shared one, dense FFN 16384,
//            16 / 128 experts top-1, MoE every layer / every 2nd, chunks of 8192 with a NoPE layer
//            every 4th, vocab 202,048, untied; a 34-layer 1408-wide vision tower); the
//            safetensors totals 108,641,793,536 and 401,583,781,376
//  [GLM45]   GLM-4.5 Team 2025, "GLM-4.5: Agentic, Reasoning, and Coding (ARC) Foundation Models",
//            arXiv:2508.06471 ("355B total parameters and 32B activated parameters", "GLM-4.5-Air
//            (106B parameters)"); the model README ("GLM-4.5-Air ... 106 billion total
//            parameters and 12 billion active parameters"); HF zai-org/GLM-4.5 and -Air config.json
//            (Glm4MoeForCausalLM) and their safetensors totals 358,337,791,296 and
//            110,468,824,832, which include the MTP layer
//  [K2]      MoonshotAI/Kimi-K2 README, Model Summary ("Total Parameters 1T", "Activated
//            Parameters 32B", 61 layers of which 1 dense, hidden 7168, experts of 2048, 64 heads,
//            384 experts, 8 selected, 1 shared); HF moonshotai/Kimi-K2-Instruct config.json
//            (model_type kimi_k2 on DeepSeek-V3's code, vocab 163,840, fp8 blocks of 128, no MTP
//            layer) and its safetensors total 1,026,408,235,864
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

// ---------------------------------------------------------------------------------- DeepSeek --

/// [DSV3] 671,026,419,200 parameters in the main model (671B), 37.55B active; with its MTP
/// module 684,489,845,504, the model page's 685B (which also counts the fp32 block scales).
inline constexpr transformer_spec deepseek_v3{
    .name = "DeepSeek-V3",
    .layers = 61,
    .hidden = 7168,
    .heads = 128,
    .kv_heads = 128,
    .head_dim = 192,  // qk_nope_head_dim + qk_rope_head_dim: the width of the scores
    .ffn = 18432,     // the three dense layers
    .ffn_type = ffn_kind::gated,
    .vocab = 129280,
    .tied_embeddings = false,
    .max_positions = 163840,
    .moe = {.experts = 256,
            .experts_per_token = 8,
            .shared_experts = 1,
            .expert_ffn = 2048,
            .first_dense_layers = 3,
            .router_bias = true},  // e_score_correction_bias (topk_method noaux_tc)
    .native_dtype = precision::bf16,
    .quantization = {.method = quant_method::fp8_block, .dtype = precision::fp8,
                     .group_size = 128},
    .mla = {.q_lora_rank = 1536,
            .kv_lora_rank = 512,
            .qk_nope_head_dim = 128,
            .qk_rope_head_dim = 64,
            .v_head_dim = 128},
    .mtp_layers = 1,
    .aliases = {"deepseek-v3", "deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-V3-0324",
                "deepseek-ai/DeepSeek-V3-Base"},
};

/// DeepSeek-R1: DeepSeek-V3's architecture and shape (HF deepseek-ai/DeepSeek-R1 config.json is
/// V3's), trained further.
inline constexpr transformer_spec deepseek_r1 = [] {
  transformer_spec t = deepseek_v3;
  t.name = "DeepSeek-R1";
  t.aliases = {"deepseek-r1", "deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-R1-0528", "r1"};
  return t;
}();

// ------------------------------------------------------------------------------------ Llama 4 --

/// A Llama 4 decoder [L4]: GQA of 40 heads and 8 KV heads of 128 without biases, RoPE layers
/// attending inside chunks of 8192 tokens and a NoPE layer with full attention every 4th, MoE
/// layers of `experts` experts of 8192 (top-1) and one shared expert, dense layers of 16384
/// between them when `interleave` > 1, untied embeddings of 202,048 tokens, and the vision tower
/// with its projector (871,932,416: io/hf_config.hpp llama4_vision_parameters of the published
/// vision_config, hidden 1408, 34 layers, MLP 5632, 336-pixel images of 14-pixel patches). Its
/// L2 Q/K norms have no weights.
constexpr transformer_spec llama4_decoder(name_string name, int experts, int interleave,
                                          int positions) {
  return {
      .name = name,
      .layers = 48,
      .hidden = 5120,
      .heads = 40,
      .kv_heads = 8,
      .head_dim = 128,
      .ffn = interleave > 1 ? 16384 : 0,
      .ffn_type = ffn_kind::gated,
      .vocab = 202048,
      .tied_embeddings = false,
      .max_positions = positions,
      .moe = {.experts = experts,
              .experts_per_token = 1,
              .shared_experts = 1,
              .expert_ffn = 8192,
              .layer_interval = interleave,
              .layer_phase = interleave - 1},
      .native_dtype = precision::bf16,
      .sliding_window = 8192,
      .global_every = 4,
      .window = window_kind::chunked,
      .extra_parameters = 871932416.0,
  };
}

/// [L4] 108,641,793,536 parameters; 17.17B active in the text model.
inline constexpr transformer_spec llama4_scout = [] {
  transformer_spec t = llama4_decoder("Llama-4-Scout-17B-16E", 16, 1, 10485760);
  t.aliases = {"llama4-scout", "meta-llama/Llama-4-Scout-17B-16E",
               "meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama-4-scout"};
  return t;
}();
/// [L4] 401,583,781,376 parameters; 17.18B active in the text model.
inline constexpr transformer_spec llama4_maverick = [] {
  transformer_spec t = llama4_decoder("Llama-4-Maverick-17B-128E", 128, 2, 1048576);
  t.aliases = {"llama4-maverick", "meta-llama/Llama-4-Maverick-17B-128E",
               "meta-llama/Llama-4-Maverick-17B-128E-Instruct", "llama-4-maverick"};
  return t;
}();

// ------------------------------------------------------------------------------------ GLM-4.5 --

/// A GLM-4.5 decoder [GLM45]: 96 query heads and 8 KV heads of 128 with biases on q, k and v,
/// first `dense` layers dense, then experts (top-8 of `experts`) and one shared expert, a router
/// with e_score_correction_bias, untied embeddings of 151,552 tokens, 131,072 positions and one
/// multi-token-prediction layer in DeepSeek's layout.
constexpr transformer_spec glm45_decoder(name_string name, int layers, int hidden, int ffn,
                                         int experts, int expert_ffn, int dense, bool qk_norm) {
  return {
      .name = name,
      .layers = layers,
      .hidden = hidden,
      .heads = 96,
      .kv_heads = 8,
      .head_dim = 128,
      .ffn = ffn,
      .ffn_type = ffn_kind::gated,
      .vocab = 151552,
      .tied_embeddings = false,
      .max_positions = 131072,
      .qkv_bias = true,
      .moe = {.experts = experts,
              .experts_per_token = 8,
              .shared_experts = 1,
              .expert_ffn = expert_ffn,
              .first_dense_layers = dense,
              .router_bias = true},
      .native_dtype = precision::bf16,
      .qk_norm = qk_norm,
      .mtp_layers = 1,
  };
}

/// [GLM45] 352,797,829,024 parameters, 358,337,791,296 with the MTP layer; 32.08B active
/// without the embedding and the output layer.
inline constexpr transformer_spec glm45 = [] {
  transformer_spec t = glm45_decoder("GLM-4.5", 92, 5120, 12288, 160, 1536, 3, true);
  t.aliases = {"glm-4.5", "zai-org/GLM-4.5", "zai-org/GLM-4.5-Base", "glm4.5"};
  return t;
}();
/// [GLM45] 106,852,251,264 parameters, 110,468,824,832 with the MTP layer; 12.18B active
/// without the embedding and the output layer.
inline constexpr transformer_spec glm45_air = [] {
  transformer_spec t = glm45_decoder("GLM-4.5-Air", 46, 4096, 10944, 128, 1408, 1, false);
  t.aliases = {"glm-4.5-air", "zai-org/GLM-4.5-Air", "zai-org/GLM-4.5-Air-Base", "glm4.5-air"};
  return t;
}();

// ------------------------------------------------------------------------------------ Kimi K2 --

/// [K2] 1,026,408,232,448 parameters (DeepSeek-V3's architecture: MLA, 384 experts of 2048 and a
/// shared one, top-8, the first layer dense); 32.86B active.
inline constexpr transformer_spec kimi_k2 = [] {
  transformer_spec t = deepseek_v3;
  t.name = "Kimi-K2";
  t.heads = 64;
  t.kv_heads = 64;
  t.vocab = 163840;
  t.max_positions = 131072;
  t.moe.experts = 384;
  t.moe.first_dense_layers = 1;
  t.mtp_layers = 0;
  t.aliases = {"kimi-k2", "moonshotai/Kimi-K2-Instruct", "moonshotai/Kimi-K2-Base",
               "moonshotai/Kimi-K2-Instruct-0905"};
  return t;
}();

// ------------------------------------------------------------------------------------- Qwen3 --

/// A Qwen3 decoder: GQA with 128-wide heads, RMSNorm on Q and K, SwiGLU, untied embeddings of
/// 151,936 tokens, 40,960 positions; MoE models route every layer to top-8 of 128 experts.
constexpr transformer_spec qwen3_decoder(name_string name, int layers, int hidden, int heads,
                                         int kv_heads, int ffn, int expert_ffn = 0) {
  transformer_spec t{
      .name = name,
      .layers = layers,
      .hidden = hidden,
      .heads = heads,
      .kv_heads = kv_heads,
      .head_dim = 128,
      .ffn = ffn,
      .ffn_type = ffn_kind::gated,
      .vocab = 151936,
      .tied_embeddings = false,
      .max_positions = 40960,
      .native_dtype = precision::bf16,
      .qk_norm = true,
  };
  if (expert_ffn > 0) t.moe = {.experts = 128, .experts_per_token = 8, .expert_ffn = expert_ffn};
  return t;
}

/// [QW3] 8,190,735,360 parameters.
inline constexpr transformer_spec qwen3_8b = [] {
  transformer_spec t = qwen3_decoder("Qwen3-8B", 36, 4096, 32, 8, 12288);
  t.aliases = {"qwen3-8b", "Qwen/Qwen3-8B", "Qwen/Qwen3-8B-Base", "Qwen/Qwen3-8B-FP8"};
  return t;
}();
/// [QW3] 32,762,123,264 parameters.
inline constexpr transformer_spec qwen3_32b = [] {
  transformer_spec t = qwen3_decoder("Qwen3-32B", 64, 5120, 64, 8, 25600);
  t.aliases = {"qwen3-32b", "Qwen/Qwen3-32B", "Qwen/Qwen3-32B-FP8"};
  return t;
}();
/// [QW3] 30,532,122,624 parameters, 3.35B active ("3.3B activated").
inline constexpr transformer_spec qwen3_30b_a3b = [] {
  transformer_spec t = qwen3_decoder("Qwen3-30B-A3B", 48, 2048, 32, 4, 0, 768);
  t.aliases = {"qwen3-30b-a3b", "Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B-Instruct-2507",
               "Qwen/Qwen3-30B-A3B-Base"};
  return t;
}();
/// [QW3] 235,093,634,560 parameters, 22.19B active ("22B activated").
inline constexpr transformer_spec qwen3_235b_a22b = [] {
  transformer_spec t = qwen3_decoder("Qwen3-235B-A22B", 94, 4096, 64, 4, 0, 1536);
  t.aliases = {"qwen3-235b-a22b", "Qwen/Qwen3-235B-A22B", "Qwen/Qwen3-235B-A22B-Instruct-2507",
               "Qwen/Qwen3-235B-A22B-Thinking-2507"};
  return t;
}();

// ----------------------------------------------------------------------------------- gpt-oss --

/// A gpt-oss decoder: 64 query heads of 64 and 8 KV heads with biases and a sink logit per
/// head, layers alternating a 128-token sliding window and full attention, experts of 2880
/// with biases (top-4), a router with a bias; the experts shipped in MXFP4.
constexpr transformer_spec gpt_oss(name_string name, int layers, int experts) {
  return {
      .name = name,
      .layers = layers,
      .hidden = 2880,
      .heads = 64,
      .kv_heads = 8,
      .head_dim = 64,
      .ffn = 0,
      .ffn_type = ffn_kind::gated,
      .vocab = 201088,
      .tied_embeddings = false,
      .max_positions = 131072,
      .qkv_bias = true,
      .out_bias = true,
      .mlp_bias = true,
      .moe = {.experts = experts, .experts_per_token = 4, .expert_ffn = 2880,
              .router_bias = true},
      .native_dtype = precision::bf16,
      .quantization = {.method = quant_method::mxfp4, .dtype = precision::fp4, .group_size = mxfp4_block,
                       .experts_only = true},
      .sliding_window = 128,
      .global_every = 2,
      .attention_sinks = true,
  };
}

/// [OSS] 116,829,156,672 parameters (116.83B).
inline constexpr transformer_spec gpt_oss_120b = [] {
  transformer_spec t = gpt_oss("gpt-oss-120b", 36, 128);
  t.aliases = {"openai/gpt-oss-120b", "gpt-oss-120B", "gptoss-120b"};
  return t;
}();
/// [OSS] 20,914,757,184 parameters (20.91B).
inline constexpr transformer_spec gpt_oss_20b = [] {
  transformer_spec t = gpt_oss("gpt-oss-20b", 24, 32);
  t.aliases = {"openai/gpt-oss-20b", "gpt-oss-20B", "gptoss-20b"};
  return t;
}();

// ------------------------------------------------------------------------------------- Gemma --

/// A Gemma 2 or 3 decoder: GQA, four RMSNorms per layer, GeGLU, 256k tied embeddings, local
/// (sliding-window) layers and a global one every `global_every` layers.
constexpr transformer_spec gemma_decoder(name_string name, int layers, int hidden, int heads,
                                         int kv_heads, int head_dim, int ffn, int vocab,
                                         int window, int global_every, int positions) {
  return {
      .name = name,
      .layers = layers,
      .hidden = hidden,
      .heads = heads,
      .kv_heads = kv_heads,
      .head_dim = head_dim,
      .ffn = ffn,
      .ffn_type = ffn_kind::gated,
      .vocab = vocab,
      .tied_embeddings = true,
      .max_positions = positions,
      .native_dtype = precision::bf16,
      .sliding_window = window,
      .global_every = global_every,
      .norms_per_layer = 4,
  };
}

/// [G2] 9,241,705,984 parameters.
inline constexpr transformer_spec gemma2_9b = [] {
  transformer_spec t =
      gemma_decoder("Gemma-2-9B", 42, 3584, 16, 8, 256, 14336, 256000, 4096, 2, 8192);
  t.aliases = {"gemma-2-9b", "google/gemma-2-9b", "google/gemma-2-9b-it", "gemma2-9b"};
  return t;
}();
/// [G2] 27,227,128,320 parameters.
inline constexpr transformer_spec gemma2_27b = [] {
  transformer_spec t =
      gemma_decoder("Gemma-2-27B", 46, 4608, 32, 16, 128, 36864, 256000, 4096, 2, 8192);
  t.aliases = {"gemma-2-27b", "google/gemma-2-27b", "google/gemma-2-27b-it", "gemma2-27b"};
  return t;
}();
/// [G3] 27,432,406,640 parameters: the text decoder (Q/K norms, window 1024, 5 local to 1
/// global) and the SigLIP tower with its projector, 423,060,336 (io/hf_config.hpp counts them
/// from vision_config: hidden 1152, 27 layers, MLP 4304, 896-pixel images of 14-pixel patches).
inline constexpr transformer_spec gemma3_27b = [] {
  transformer_spec t =
      gemma_decoder("Gemma-3-27B", 62, 5376, 32, 16, 128, 21504, 262208, 1024, 6, 131072);
  t.qk_norm = true;
  t.extra_parameters = 423060336.0;
  t.aliases = {"gemma-3-27b", "google/gemma-3-27b-it", "google/gemma-3-27b-pt", "gemma3-27b"};
  return t;
}();

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
    megatron_1t,       deepseek_v3,   deepseek_r1,   qwen3_8b,      qwen3_32b,
    qwen3_30b_a3b,     qwen3_235b_a22b, gpt_oss_120b, gpt_oss_20b,  gemma2_9b,
    gemma2_27b,        gemma3_27b,    llama4_scout,  llama4_maverick, glm45,
    glm45_air,         kimi_k2,
};

}  // namespace gpuplan::catalog
