// Hugging Face config.json -> transformer_spec. The config files in tests/data/hf were written from
// the published architectures (the models' config.json on the Hugging Face Hub); each test checks
// the parameter count against the published one, exactly (no tolerance: the count is an integer).
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/hf_config.hpp>

#include <filesystem>
#include <string>

using namespace gpuplan;

namespace {
std::string data(const std::string& rel) { return std::string(GPUPLAN_TEST_DATA_DIR) + "/" + rel; }

/// The error message io::load_hf_config throws for a file, or "" if it does not throw.
std::string load_error(const std::string& rel) {
  try {
    (void)io::load_hf_config(data(rel));
  } catch (const io::error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("Llama 3.1 configs give the published parameter counts", "[hf]") {
  // Source: Hugging Face Hub safetensors metadata for meta-llama/Llama-3.1-8B (8,030,261,248) and
  // Llama-3.1-70B (70,553,706,496); architecture in the Llama 3 paper, arXiv:2407.21783 Table 3.
  const transformer_spec m8 = io::load_hf_config(data("hf/llama-3.1-8b/config.json"));
  CHECK(m8.name == std::string_view("llama-3.1-8b"));
  CHECK(m8.layers == 32);
  CHECK(m8.hidden == 4096);
  CHECK(m8.heads == 32);
  CHECK(m8.kv_heads == 8);
  CHECK(m8.head_dim == 128);
  CHECK(m8.ffn == 14336);
  CHECK(m8.vocab == 128256);
  CHECK(m8.ffn_type == ffn_kind::gated);
  CHECK(m8.norm == norm_kind::rmsnorm);
  CHECK(m8.positions == position_kind::rotary);
  CHECK_FALSE(m8.tied_embeddings);
  CHECK(m8.native_dtype == precision::bf16);
  CHECK(m8.max_positions == 131072);
  CHECK(m8.parameters() == 8030261248.0);

  // A folder holding config.json is accepted too.
  const transformer_spec m70 = io::load_hf_config(data("hf/llama-3.1-70b"));
  CHECK(m70.parameters() == 70553706496.0);
  // KV cache: 2 x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680 bytes per token in bf16.
  CHECK(m70.kv_bytes_per_token(precision::bf16).in(units::B_per_token) == 327680.0);
}

TEST_CASE("Mistral and Mixtral configs", "[hf]") {
  // Mistral-7B-v0.1: 7,241,732,096 (Hub safetensors metadata); Mixtral-8x7B-v0.1: 46,702,792,704
  // total, 12,879,925,248 active (2 of 8 experts per token; Mistral AI quotes "12.9B active").
  const transformer_spec mistral = io::load_hf_config(data("hf/mistral-7b-v0.1/config.json"));
  CHECK(mistral.parameters() == 7241732096.0);
  CHECK(mistral.sliding_window == 4096);  // config.json sliding_window
  CHECK_FALSE(mistral.is_moe());
  const transformer_spec mixtral = io::load_hf_config(data("hf/mixtral-8x7b-v0.1/config.json"));
  CHECK(mixtral.is_moe());
  CHECK(mixtral.sliding_window == 0);  // "sliding_window": null
  CHECK(mixtral.moe.experts == 8);
  CHECK(mixtral.moe.experts_per_token == 2);
  CHECK(mixtral.moe.expert_ffn == 14336);
  CHECK(mixtral.moe_layers() == 32);
  CHECK(mixtral.parameters() == 46702792704.0);
  CHECK(mixtral.active_parameters() == 12879925248.0);
}

TEST_CASE("Qwen2 configs: q/k/v biases and tied embeddings", "[hf]") {
  // Qwen2.5-7B: 7,615,616,512; Qwen2.5-0.5B: 494,032,768 (Hub safetensors metadata; the Qwen2.5
  // technical report, arXiv:2412.15115 Table 1, lists 7.61B and 0.49B, the 0.5B with tied
  // embeddings).
  const transformer_spec q7 = io::load_hf_config(data("hf/qwen2.5-7b/config.json"));
  CHECK(q7.qkv_bias);
  CHECK_FALSE(q7.out_bias);
  CHECK_FALSE(q7.mlp_bias);
  CHECK(q7.kv_heads == 4);
  CHECK(q7.parameters() == 7615616512.0);
  CHECK(q7.sliding_window == 0);  // use_sliding_window: false
  const transformer_spec q05 = io::load_hf_config(data("hf/qwen2.5-0.5b/config.json"));
  CHECK(q05.tied_embeddings);
  CHECK(q05.head_dim == 64);
  CHECK(q05.parameters() == 494032768.0);
}

TEST_CASE("Phi3 configs: Llama keys, fused projections counted as separate ones", "[hf]") {
  // Phi3ForCausalLM (configuration_phi3.py): no biases; qkv_proj holds q, k and v and
  // gate_up_proj gate and up, the same weights as separate projections.
  // microsoft/phi-4: safetensors.total 14,659,507,200 (also the GGUF general.parameter_count of
  // its conversions).
  const transformer_spec phi4 = io::load_hf_config(data("hf/phi-4/config.json"));
  CHECK(phi4.parameters() == 14659507200.0);
  CHECK(phi4.kv_heads == 10);
  CHECK(phi4.head_dim == 128);  // hidden_size / num_attention_heads: Phi3Config has no head_dim
  CHECK_FALSE(phi4.qkv_bias);
  CHECK_FALSE(phi4.out_bias);
  CHECK_FALSE(phi4.mlp_bias);
  CHECK_FALSE(phi4.tied_embeddings);
  CHECK(phi4.ffn_type == ffn_kind::gated);
  CHECK(phi4.norm == norm_kind::rmsnorm);
  CHECK(phi4.sliding_window == 0);  // "sliding_window": null
  CHECK(phi4.max_positions == 16384);
  // microsoft/Phi-3-mini-4k-instruct: 3,821,079,552 (keras-hub's phi3_mini_4k_instruct_en preset
  // "params": 3821079552, counted from the converted checkpoint); its attention is windowed
  // (sliding_window 2047, which Phi3's attention applies).
  const transformer_spec mini = io::load_hf_config(data("hf/phi-3-mini-4k-instruct/config.json"));
  CHECK(mini.parameters() == 3821079552.0);
  CHECK(mini.kv_heads == 32);
  CHECK(mini.sliding_window == 2047);
  // model_type alone names the family too
  const nlohmann::json by_type = {{"model_type", "phi3"},          {"hidden_size", 64},
                                  {"num_hidden_layers", 2},        {"num_attention_heads", 4},
                                  {"intermediate_size", 128},      {"vocab_size", 100}};
  const transformer_spec t = io::from_hf_config(by_type, {"inline", ""});
  CHECK(t.kv_heads == 4);  // num_key_value_heads absent: MHA
  CHECK_FALSE(t.tied_embeddings);
}

TEST_CASE("GPT-2 configs: n_embd, n_inner absent or null = 4h, learned positions, tied", "[hf]") {
  // GPT-2 (124M): 124,439,808; GPT-2 XL: 1,557,611,200 (transformers' num_parameters() on the
  // Hub checkpoints; Radford et al. 2019 round them to 117M and 1542M).
  const transformer_spec small = io::load_hf_config(data("hf/gpt2/config.json"));
  CHECK(small.hidden == 768);
  CHECK(small.ffn == 3072);  // n_inner absent
  CHECK(small.ffn_type == ffn_kind::mlp);
  CHECK(small.norm == norm_kind::layernorm);
  CHECK(small.positions == position_kind::learned);
  CHECK(small.max_positions == 1024);
  CHECK(small.tied_embeddings);
  CHECK(small.qkv_bias);
  CHECK(small.out_bias);
  CHECK(small.mlp_bias);
  CHECK(small.native_dtype == precision::fp32);  // no torch_dtype: transformers loads float32
  CHECK(small.parameters() == 124439808.0);
  const transformer_spec xl = io::load_hf_config(data("hf/gpt2-xl/config.json"));
  CHECK(xl.ffn == 6400);  // n_inner: null
  CHECK(xl.parameters() == 1557611200.0);
}

TEST_CASE("GPT-NeoX configs: untied, biased, rotary", "[hf]") {
  // GPT-NeoX-20B: 20,554,567,680 (Black et al. 2022, arXiv:2204.06745); Pythia-1.4B:
  // 1,414,647,808 (Biderman et al. 2023, arXiv:2304.01373, Table 1 total parameters).
  const transformer_spec neox = io::load_hf_config(data("hf/gpt-neox-20b/config.json"));
  CHECK(neox.native_dtype == precision::fp16);
  CHECK_FALSE(neox.tied_embeddings);
  CHECK(neox.positions == position_kind::rotary);
  CHECK(neox.parameters() == 20554567680.0);
  const transformer_spec pythia = io::load_hf_config(data("hf/pythia-1.4b/config.json"));
  CHECK(pythia.parameters() == 1414647808.0);
}

TEST_CASE("model_type stands in for a missing architectures list", "[hf]") {
  const nlohmann::json cfg = {{"model_type", "gpt2"}, {"n_embd", 768},       {"n_layer", 12},
                              {"n_head", 12},         {"n_positions", 1024}, {"vocab_size", 50257}};
  CHECK(io::from_hf_config(cfg, {"inline", ""}, "gpt2").parameters() == 124439808.0);
}

TEST_CASE("bad configs name the file and the key", "[hf][errors]") {
  SECTION("missing file") {
    CHECK_THAT(load_error("hf/no-such-model/config.json"),
               Catch::Matchers::Contains("config.json: no such file"));
  }
  SECTION("malformed JSON gives line and column") {
    // Line 4 lacks its comma; the parser stops at the end of the next key, the closing quote
    // of "num_attention_heads" on line 5, column 23.
    CHECK_THAT(load_error("bad/malformed.json"),
               Catch::Matchers::Contains("malformed.json:5:23: malformed JSON"));
  }
  SECTION("unsupported architecture is named, with the supported list") {
    const std::string e = load_error("bad/unsupported_arch.json");
    CHECK_THAT(e, Catch::Matchers::Contains("unsupported architecture 'BertForMaskedLM'"));
    CHECK_THAT(e, Catch::Matchers::Contains("LlamaForCausalLM"));
  }
  SECTION("a missing key is named") {
    CHECK_THAT(load_error("bad/missing_hidden_size.json"),
               Catch::Matchers::Contains("key 'hidden_size' is missing"));
    CHECK_THAT(load_error("bad/missing_experts.json"),
               Catch::Matchers::Contains("key 'num_local_experts' is missing"));
  }
  SECTION("a negative size is named") {
    CHECK_THAT(load_error("bad/negative_layers.json"),
               Catch::Matchers::Contains("key 'num_hidden_layers' must be positive (got -4)"));
  }
  SECTION("KV heads that do not divide the heads") {
    const nlohmann::json cfg = {{"architectures", {"LlamaForCausalLM"}},
                                {"hidden_size", 4096},
                                {"num_hidden_layers", 32},
                                {"num_attention_heads", 32},
                                {"num_key_value_heads", 5},
                                {"intermediate_size", 14336},
                                {"vocab_size", 32000}};
    CHECK_THROWS_WITH(io::from_hf_config(cfg, {"cfg.json", ""}),
                      Catch::Matchers::Contains("'num_key_value_heads' (5) must divide"));
  }
  SECTION("max_position_embeddings: 0 is no model (absent is unknown)") {
    nlohmann::json cfg = {{"architectures", {"LlamaForCausalLM"}},
                          {"hidden_size", 4096},
                          {"num_hidden_layers", 32},
                          {"num_attention_heads", 32},
                          {"num_key_value_heads", 8},
                          {"intermediate_size", 14336},
                          {"vocab_size", 32000}};
    CHECK(io::from_hf_config(cfg, {"cfg.json", ""}).max_positions == 0);
    cfg["max_position_embeddings"] = 0;
    CHECK_THROWS_WITH(io::from_hf_config(cfg, {"cfg.json", ""}),
                      Catch::Matchers::Contains("'max_position_embeddings' must be positive (got 0)"));
  }
  SECTION("a wrong type is named") {
    const nlohmann::json cfg = {{"architectures", {"GPT2LMHeadModel"}}, {"n_embd", "768"}};
    CHECK_THROWS_WITH(io::from_hf_config(cfg, {"cfg.json", ""}),
                      Catch::Matchers::Contains("key 'n_embd' must be an integer, not a string"));
  }
}

TEST_CASE("config.json files and the catalog describe the same models", "[hf][catalog]") {
  // The catalog entries were written from the same published config.json files: shapes and exact
  // parameter counts must agree.
  struct pair {
    const char* file;
    const char* catalog_name;
  };
  const pair pairs[] = {{"hf/llama-3.1-8b/config.json", "Llama-3.1-8B"},
                        {"hf/llama-3.1-70b/config.json", "Llama-3.1-70B"},
                        {"hf/mistral-7b-v0.1/config.json", "Mistral-7B-v0.1"},
                        {"hf/mixtral-8x7b-v0.1/config.json", "Mixtral-8x7B-v0.1"},
                        {"hf/qwen2.5-7b/config.json", "Qwen2.5-7B"},
                        {"hf/deepseek-v3/config.json", "DeepSeek-V3"},
                        {"hf/qwen3-8b/config.json", "Qwen3-8B"},
                        {"hf/qwen3-235b-a22b/config.json", "Qwen3-235B-A22B"},
                        {"hf/gpt-oss-120b/config.json", "gpt-oss-120b"},
                        {"hf/gemma-2-27b/config.json", "Gemma-2-27B"},
                        {"hf/gemma-3-27b-it/config.json", "Gemma-3-27B"},
                        {"hf/qwen2.5-0.5b/config.json", "Qwen2.5-0.5B"},
                        {"hf/llama-3.2-1b/config.json", "Llama-3.2-1B"},
                        {"hf/phi-4/config.json", "microsoft/phi-4"},
                        {"hf/llama-4-scout-17b-16e-instruct/config.json", "Llama-4-Scout-17B-16E"},
                        {"hf/llama-4-maverick-17b-128e-instruct/config.json",
                         "meta-llama/Llama-4-Maverick-17B-128E-Instruct"},
                        {"hf/glm-4.5/config.json", "zai-org/GLM-4.5"},
                        {"hf/glm-4.5-air/config.json", "GLM-4.5-Air"},
                        {"hf/kimi-k2-instruct/config.json", "moonshotai/Kimi-K2-Instruct"}};
  for (const pair& p : pairs) {
    INFO(p.file);
    const transformer_spec f = io::load_hf_config(data(p.file));
    const transformer_spec* c = catalog::find_model(p.catalog_name);
    REQUIRE(c != nullptr);
    CHECK(f.parameters() == c->parameters());
    CHECK(f.active_parameters() == c->active_parameters());
    CHECK(f.layers == c->layers);
    CHECK(f.hidden == c->hidden);
    CHECK(f.heads == c->heads);
    CHECK(f.kv_heads == c->kv_heads);
    CHECK(f.head_dim == c->head_dim);
    CHECK(f.ffn == c->ffn);
    CHECK(f.vocab == c->vocab);
    CHECK(f.tied_embeddings == c->tied_embeddings);
    CHECK(f.qkv_bias == c->qkv_bias);
    CHECK(f.sliding_window == c->sliding_window);
    CHECK(f.kv_bytes_per_token(precision::bf16) == c->kv_bytes_per_token(precision::bf16));
    CHECK(f.checkpoint_parameters() == c->checkpoint_parameters());
    CHECK(f.global_every == c->global_every);
    CHECK(f.is_mla() == c->is_mla());
    CHECK(f.moe.layer_phase == c->moe.layer_phase);
    CHECK(f.moe_layers() == c->moe_layers());
    CHECK(f.quantization.method == c->quantization.method);
    CHECK(f.quantization.group_size == c->quantization.group_size);
    CHECK(f.quantization.experts_only == c->quantization.experts_only);
    CHECK(f.kv_bytes(65536, precision::bf16) == c->kv_bytes(65536, precision::bf16));
    CHECK(f.window == c->window);
    CHECK(f.qk_norm == c->qk_norm);
    CHECK(f.moe.shared_experts == c->moe.shared_experts);
    CHECK(f.moe.router_bias == c->moe.router_bias);
    CHECK(f.extra_parameters == c->extra_parameters);
  }
}

TEST_CASE("the models of 2026: MLA, MoE shapes, windows, quantised checkpoints", "[hf]") {
  // DeepSeek-V3 (HF deepseek-ai/DeepSeek-V3 config.json; arXiv:2412.19437 Sec. 4.2): 671B in
  // the main model, 37B activated, 14B more in the MTP module ("685B" on the model page).
  const transformer_spec v3 = io::load_hf_config(data("hf/deepseek-v3/config.json"));
  CHECK(v3.is_mla());
  CHECK(v3.mla.kv_lora_rank == 512);
  CHECK(v3.head_dim == 192);
  CHECK(v3.moe.first_dense_layers == 3);
  CHECK(v3.moe_layers() == 58);
  CHECK(v3.moe.router_bias);
  CHECK(v3.mtp_layers == 1);
  CHECK(v3.parameters() == 671026419200.0);
  CHECK(v3.active_parameters() / 1e9 == Approx(37.0).epsilon(0.02));  // "37B activated"
  CHECK(v3.mtp_parameters() / 1e9 == Approx(14.0).epsilon(0.04));     // "14B of ... MTP"
  CHECK(v3.quantization.method == quant_method::fp8_block);
  CHECK(v3.quantization.group_size == 128);
  // vLLM's and SGLang's MLA cache: kv_lora_rank + qk_rope_head_dim = 576 elements per token
  // and layer, 2 bytes each in bf16: 61 x 1152 = 70,272 bytes per token.
  CHECK(v3.kv_bytes_per_token(precision::bf16).in(units::B_per_token) == 70272.0);

  // Qwen3 (HF Qwen/Qwen3-8B and Qwen3-235B-A22B config.json; safetensors totals
  // 8,190,735,360 and 235,093,634,560; "22B activated", arXiv:2505.09388 Table 2).
  const transformer_spec q8 = io::load_hf_config(data("hf/qwen3-8b/config.json"));
  CHECK(q8.qk_norm);
  CHECK(q8.sliding_window == 0);  // use_sliding_window false
  CHECK(q8.parameters() == 8190735360.0);
  const transformer_spec q235 = io::load_hf_config(data("hf/qwen3-235b-a22b/config.json"));
  CHECK(q235.moe.experts == 128);
  CHECK(q235.moe_layers() == 94);
  CHECK(q235.parameters() == 235093634560.0);
  CHECK(q235.active_parameters() / 1e9 == Approx(22.0).epsilon(0.01));

  // gpt-oss-120b (model card Table 1: 116.83B total, 5.13B active counting the unembedding but
  // not the embedding; alternating 128-token windows; MXFP4 experts).
  const transformer_spec oss = io::load_hf_config(data("hf/gpt-oss-120b/config.json"));
  CHECK(oss.parameters() / 1e9 == Approx(116.83).margin(0.005));
  CHECK((oss.active_parameters() - oss.embedding_parameters()) / 1e9 ==
        Approx(5.13).margin(0.005));
  CHECK(oss.sliding_window == 128);
  CHECK(oss.global_every == 2);
  CHECK(oss.global_layers() == 18);
  CHECK(oss.quantization.method == quant_method::mxfp4);
  CHECK(oss.quantization.experts_only);
  // The KV cache of a 131,072-token sequence: 18 full layers hold all of it, 18 windowed ones
  // 128 tokens; K and V of 8 heads of 64 in bf16 are 2,048 bytes per token and layer.
  CHECK(oss.kv_bytes(131072, precision::bf16).in(units::B) ==
        (18.0 * 131072 + 18.0 * 128) * 2048.0);

  // Gemma 2 27B (HF google/gemma-2-27b: 27,227,128,320) and Gemma 3 27B (google/gemma-3-27b-it:
  // 27,432,406,640 with its SigLIP tower): four norms a layer, windows on 1 of 2 / 5 of 6.
  const transformer_spec g2 = io::load_hf_config(data("hf/gemma-2-27b/config.json"));
  CHECK(g2.tied_embeddings);
  CHECK(g2.global_every == 2);
  CHECK(g2.is_windowed_layer(0));
  CHECK_FALSE(g2.is_windowed_layer(1));
  CHECK(g2.parameters() == 27227128320.0);
  const transformer_spec g3 = io::load_hf_config(data("hf/gemma-3-27b-it/config.json"));
  CHECK(g3.vocab == 262208);  // Gemma3TextConfig's default: the config leaves it out
  CHECK(g3.global_every == 6);
  CHECK(g3.global_layers() == 10);
  CHECK(g3.extra_parameters == 423060336.0);
  CHECK(g3.parameters() == 27432406640.0);
}

// Llama 4 (HF meta-llama/Llama-4-Scout-17B-16E-Instruct and Llama-4-Maverick-17B-128E-Instruct
// config.json, trimmed to the keys the reader reads, values as published). The exact totals are
// the Hugging Face safetensors.total of the two repositories (the parameter count on each model
// page): 108,641,793,536 and 401,583,781,376; the model cards print "17B (Activated) 109B
// (Total)" and "17B (Activated) 400B (Total)".
TEST_CASE("Llama 4 configs: nested text model, chunked attention, interleaved MoE, vision", "[hf]") {
  const transformer_spec scout =
      io::load_hf_config(data("hf/llama-4-scout-17b-16e-instruct/config.json"));
  CHECK(scout.layers == 48);
  CHECK(scout.moe.experts == 16);
  CHECK(scout.moe.experts_per_token == 1);
  CHECK(scout.moe.shared_experts == 1);
  CHECK(scout.moe.expert_ffn == 8192);
  CHECK(scout.moe_layers() == 48);
  CHECK(scout.ffn == 0);  // every layer MoE: intermediate_size_mlp unused
  CHECK_FALSE(scout.moe.router_bias);
  CHECK_FALSE(scout.qk_norm);  // Llama4TextL2Norm: no weights
  CHECK(scout.sliding_window == 8192);
  CHECK(scout.window == window_kind::chunked);
  CHECK(scout.global_every == 4);  // no_rope_layers empty: a NoPE layer every 4th
  CHECK(scout.global_layers() == 12);
  CHECK(scout.max_positions == 10485760);
  // The vision tower and projector, from the shapes of transformers' Llama4VisionModel
  // (hidden 1408, 34 layers, MLP 5632, 336-pixel images of 14-pixel patches, adapter 5632 x
  // 4096 and 4096 x 4096) and Llama4MultiModalProjector (4096 x 5120).
  CHECK(scout.extra_parameters == 871932416.0);
  CHECK(scout.parameters() == 108641793536.0);
  // "17B (Activated)": the text model's active count, embeddings and head included, is 17.17B
  // (the card rounds to 1B: margin 0.5B).
  CHECK(scout.active_parameters() - scout.extra_parameters == Approx(17e9).margin(0.5e9));

  const transformer_spec maverick =
      io::load_hf_config(data("hf/llama-4-maverick-17b-128e-instruct/config.json"));
  CHECK(maverick.moe.experts == 128);
  CHECK(maverick.moe.layer_interval == 2);
  CHECK(maverick.moe.layer_phase == 1);  // moe_layers = 1, 3, ..., 47
  CHECK_FALSE(maverick.is_moe_layer(0));
  CHECK(maverick.is_moe_layer(1));
  CHECK(maverick.moe_layers() == 24);
  CHECK(maverick.ffn == 16384);  // intermediate_size_mlp, the dense layers'
  CHECK(maverick.parameters() == 401583781376.0);
  CHECK(maverick.active_parameters() - maverick.extra_parameters ==
        Approx(17e9).margin(0.5e9));

  // The KV cache of a 131,072-token sequence: the 12 NoPE layers hold every token, the 36
  // chunked ones at most a chunk of 8192 (vLLM's ChunkedLocalAttentionSpec); K and V of 8 heads
  // of 128 in bf16 are 4,096 bytes per token and layer.
  CHECK(scout.kv_bytes(131072, precision::bf16).in(units::B) ==
        (12.0 * 131072 + 36.0 * 8192) * 4096.0);
  // Within a chunk every layer holds every token.
  CHECK(scout.kv_bytes(4096, precision::bf16).in(units::B) == 48.0 * 4096 * 4096);

  nlohmann::json cfg = io::read_json_file(data("hf/llama-4-maverick-17b-128e-instruct/config.json"));
  const io::json_source src{"l4.json", ""};
  SECTION("an explicit no_rope_layers list, and layer_types, give the same period") {
    nlohmann::json rope = nlohmann::json::array();
    for (int i = 0; i < 48; ++i) rope.push_back((i + 1) % 4 == 0 ? 0 : 1);
    cfg["text_config"]["no_rope_layers"] = rope;
    CHECK(io::from_hf_config(cfg, src).global_every == 4);
    nlohmann::json types = nlohmann::json::array();
    for (int i = 0; i < 48; ++i)
      types.push_back((i + 1) % 4 == 0 ? "full_attention" : "chunked_attention");
    cfg["text_config"]["layer_types"] = types;
    CHECK(io::from_hf_config(cfg, src).global_every == 4);
    rope[5] = 0;
    cfg["text_config"].erase("layer_types");
    cfg["text_config"]["no_rope_layers"] = rope;
    CHECK_THROWS_WITH(io::from_hf_config(cfg, src),
                      Catch::Contains("'text_config.no_rope_layers' is not periodic"));
  }
  SECTION("moe_layers must be the interleave pattern") {
    nlohmann::json layers = nlohmann::json::array();
    for (int i = 1; i < 48; i += 2) layers.push_back(i);
    cfg["text_config"]["moe_layers"] = layers;
    CHECK(io::from_hf_config(cfg, src).parameters() == 401583781376.0);
    layers[3] = 6;
    cfg["text_config"]["moe_layers"] = layers;
    CHECK_THROWS_WITH(io::from_hf_config(cfg, src),
                      Catch::Contains("'text_config.moe_layers' is not every 2-th layer"));
  }
  SECTION("attention_chunk_size null: full attention everywhere") {
    cfg["text_config"]["attention_chunk_size"] = nullptr;
    const transformer_spec m = io::from_hf_config(cfg, src);
    CHECK(m.sliding_window == 0);
    CHECK(m.global_layers() == 48);
  }
  SECTION("the text model alone (Llama4ForCausalLM) has no vision tower") {
    nlohmann::json text = cfg["text_config"];
    text["architectures"] = {"Llama4ForCausalLM"};
    const transformer_spec m = io::from_hf_config(text, src);
    CHECK(m.extra_parameters == 0.0);
    CHECK(m.parameters() == 401583781376.0 - 871932416.0);
  }
  SECTION("a missing text_config is named") {
    cfg.erase("text_config");
    CHECK_THROWS_WITH(io::from_hf_config(cfg, src),
                      Catch::Contains("'text_config' is missing (Llama4ForConditionalGeneration"));
  }
}

// GLM-4.5 and GLM-4.5-Air (HF zai-org/GLM-4.5 and GLM-4.5-Air config.json). Their safetensors
// totals, 358,337,791,296 and 110,468,824,832, hold the main model and one MTP layer
// (num_nextn_predict_layers 1) stored as DeepSeek-V3 stores its own: without it the Air is
// 106,852,251,264 (the safetensors total of PrimeIntellect/INTELLECT-3, a GLM-4.5-Air
// fine-tune without the MTP layer). arXiv:2508.06471: "355B total parameters and 32B activated
// parameters"; the README: Air "106 billion total parameters and 12 billion active parameters";
// both activated figures count neither the embedding nor the output layer.
TEST_CASE("GLM-4.5 configs: biases on q/k/v, Q/K norms, shared expert, MTP layer", "[hf]") {
  const transformer_spec glm = io::load_hf_config(data("hf/glm-4.5/config.json"));
  CHECK(glm.qkv_bias);
  CHECK_FALSE(glm.out_bias);
  CHECK(glm.qk_norm);
  CHECK(glm.head_dim == 128);
  CHECK(glm.heads * glm.head_dim != glm.hidden);  // 96 x 128 = 12,288 > 5,120
  CHECK(glm.moe.first_dense_layers == 3);
  CHECK(glm.moe_layers() == 89);
  CHECK(glm.moe.router_bias);
  CHECK(glm.mtp_layers == 1);
  CHECK(glm.parameters() == 352797829024.0);
  CHECK(glm.checkpoint_parameters() == 358337791296.0);
  const auto activated = [](const transformer_spec& m) {
    return m.active_parameters() - m.embedding_parameters() - m.lm_head_parameters();
  };
  CHECK(activated(glm) == Approx(32e9).margin(0.5e9));
  CHECK(glm.parameters() == Approx(355e9).epsilon(0.01));  // the paper's "355B" (352.8B)

  const transformer_spec air = io::load_hf_config(data("hf/glm-4.5-air/config.json"));
  CHECK_FALSE(air.qk_norm);
  CHECK(air.moe.first_dense_layers == 1);
  CHECK(air.parameters() == 106852251264.0);
  CHECK(air.checkpoint_parameters() == 110468824832.0);
  CHECK(activated(air) == Approx(12e9).margin(0.5e9));
  // GQA: K and V of 8 heads of 128 on every layer, 4,096 bytes per token and layer in bf16
  CHECK(air.kv_bytes_per_token(precision::bf16).in(units::B_per_token) == 46.0 * 4096);

  nlohmann::json cfg = io::read_json_file(data("hf/glm-4.5-air/config.json"));
  cfg["first_k_dense_replace"] = 46;
  CHECK_THROWS_WITH(io::from_hf_config(cfg, {"glm.json", ""}),
                    Catch::Contains("'first_k_dense_replace' must be below num_hidden_layers"));
  cfg["first_k_dense_replace"] = 1;
  cfg.erase("moe_intermediate_size");
  CHECK_THROWS_WITH(io::from_hf_config(cfg, {"glm.json", ""}),
                    Catch::Contains("'moe_intermediate_size' is missing"));
}

// Kimi K2 (HF moonshotai/Kimi-K2-Instruct config.json: model_type kimi_k2 on DeepSeek-V3's
// architecture). Its safetensors total, 1,026,408,235,864, is 3,416 more than the shapes'
// 1,026,408,232,448: tensors the shapes do not name (61 x 56; Kimi-K2-Base's total,
// 1,026,470,731,056, is the shapes, the fp8 block scales and the same 3,416). The README: "Total
// Parameters 1T", "Activated Parameters 32B".
TEST_CASE("Kimi K2 reads through DeepSeek-V3's path", "[hf]") {
  const transformer_spec k2 = io::load_hf_config(data("hf/kimi-k2-instruct/config.json"));
  CHECK(k2.is_mla());
  CHECK(k2.heads == 64);
  CHECK(k2.moe.experts == 384);
  CHECK(k2.moe_layers() == 60);
  CHECK(k2.moe.router_bias);  // topk_method noaux_tc: e_score_correction_bias
  CHECK(k2.mtp_layers == 0);
  CHECK(k2.quantization.method == quant_method::fp8_block);
  CHECK(k2.parameters() == 1026408232448.0);
  CHECK(k2.parameters() == Approx(1026408235864.0).margin(3416.0));
  CHECK(k2.active_parameters() == Approx(32e9).epsilon(0.03));  // 32.86B
  // The MLA cache: 61 layers of 576 elements, 2 bytes each in bf16 (as DeepSeek-V3's).
  CHECK(k2.kv_bytes_per_token(precision::bf16).in(units::B_per_token) == 61.0 * 576 * 2);
  // model_type alone names the family too
  nlohmann::json cfg = io::read_json_file(data("hf/kimi-k2-instruct/config.json"));
  cfg.erase("architectures");
  CHECK(io::from_hf_config(cfg, {"k2.json", ""}).parameters() == 1026408232448.0);
}

TEST_CASE("quantization_config of the common formats", "[hf]") {
  nlohmann::json cfg = io::read_json_file(data("hf/qwen3-8b/config.json"));
  const io::json_source src{"q.json", ""};
  auto read = [&](nlohmann::json q) {
    cfg["quantization_config"] = std::move(q);
    return io::from_hf_config(cfg, src).quantization;
  };
  // AutoAWQ: {"bits": 4, "group_size": 128, "quant_method": "awq", "zero_point": true}
  const checkpoint_quantization awq = read({{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}});
  CHECK(awq.method == quant_method::awq);
  CHECK(awq.dtype == precision::int4);
  CHECK(awq.group_size == 128);
  const checkpoint_quantization gptq = read({{"quant_method", "gptq"}, {"bits", 8}, {"group_size", -1}});
  CHECK(gptq.dtype == precision::int8);
  CHECK(gptq.group_size == 0);
  CHECK(read({{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}}).method ==
        quant_method::bnb_nf4);
  CHECK(read({{"quant_method", "modelopt"}, {"quant_algo", "NVFP4"}}).method ==
        quant_method::nvfp4);
  CHECK(read({{"quant_method", "fp8"}}).method == quant_method::fp8);
  CHECK_THROWS_WITH(read({{"quant_method", "hqq"}}),
                    Catch::Contains("quantization_config.quant_method': 'hqq'"));
  CHECK_THROWS_WITH(read({{"quant_method", "gptq"}, {"bits", 3}}),
                    Catch::Contains("'quantization_config.bits' must be 4 or 8 (got 3)"));
  CHECK_THROWS_WITH(read({{"quant_method", "fp8"}, {"weight_block_size", {128, 64}}}),
                    Catch::Contains("weight_block_size' must be two equal positive integers"));
}

TEST_CASE("an unknown architecture is refused in one line naming the way to describe it",
          "[hf][errors]") {
  nlohmann::json cfg = {{"architectures", {"BloomForCausalLM"}}, {"hidden_size", 4096}};
  try {
    (void)io::from_hf_config(cfg, {"bloom.json", ""});
    FAIL("accepted");
  } catch (const io::error& e) {
    const std::string what = e.what();
    CHECK(what.find("unsupported architecture 'BloomForCausalLM'") != std::string::npos);
    CHECK(what.find("gpuplan model JSON") != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
  }
  // layer_types that do not repeat are refused, naming the key
  nlohmann::json g = io::read_json_file(data("hf/gpt-oss-120b/config.json"));
  g["layer_types"][2] = "full_attention";
  CHECK_THROWS_WITH(io::from_hf_config(g, {"oss.json", ""}),
                    Catch::Contains("'layer_types' is not periodic"));
}

TEST_CASE("A config file is named by its own name unless it is config.json", "[hf]") {
  // The defect: models/llama-3.2-1b.json was named "models" after its folder.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "gpuplan_test_hf_name";
  fs::create_directories(dir);
  const fs::path file = dir / "llama-3.2-1b.json";
  fs::copy_file(data("hf/llama-3.2-1b/config.json"), file, fs::copy_options::overwrite_existing);
  CHECK(io::load_hf_config(file).name == std::string_view("llama-3.2-1b"));
  CHECK(io::hf_config_model_name("a/b/config.json") == "b");
  CHECK(io::hf_config_model_name("config.json") == "config");
  CHECK(io::hf_config_model_name("models/x.json") == "x");
  // llama-3.2-1b: 16 x (2 x 2048^2 + 2 x 2048 x 512 + 3 x 2048 x 8192 + 2 x 2048) + 128256 x 2048
  // (tied) + 2048 = 1,235,814,400 (Hugging Face Hub safetensors metadata of
  // meta-llama/Llama-3.2-1B: 1,235,814,400).
  CHECK(io::load_hf_config(file).parameters() == 1235814400.0);
  fs::remove_all(dir);
}
