// Catalog models: parameter counts against the published totals, lookup by name, validation.
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>

#include <stdexcept>
#include <utility>
#include <string>
#include <string_view>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

std::string thrown_message(const transformer_spec& m) {
  try {
    m.validate();
  } catch (const gpuplan::invalid_input& e) {
    return e.what();
  }
  return {};
}

}  // namespace

// Exact totals, tolerance zero: the count is integer arithmetic in doubles (exact below 2^53).
// Sources: the Hugging Face model API field `safetensors.total` (the parameter count shown on each
// model page) for the repositories named below, and transformers' model.num_parameters().
TEST_CASE("parameter counts equal the published Hugging Face totals exactly", "[catalog][models]") {
  // meta-llama/Llama-3.1-8B, -70B, -405B: safetensors.total 8,030,261,248; 70,553,706,496;
  // 405,853,388,800.
  CHECK(cat::llama31_8b.parameters() == 8030261248.0);
  CHECK(cat::llama31_70b.parameters() == 70553706496.0);
  CHECK(cat::llama31_405b.parameters() == 405853388800.0);
  // mistralai/Mistral-7B-v0.1: 7,241,732,096.
  CHECK(cat::mistral_7b.parameters() == 7241732096.0);
  // mistralai/Mixtral-8x7B-v0.1 (and -Instruct-v0.1): 46,702,792,704.
  CHECK(cat::mixtral_8x7b.parameters() == 46702792704.0);
  // mistral-community/Mixtral-8x22B-v0.1: 140,620,634,112.
  CHECK(cat::mixtral_8x22b.parameters() == 140620634112.0);
  // Qwen/Qwen2.5-7B-Instruct and -72B-Instruct (same shapes as the base models): 7,615,616,512;
  // 72,706,203,648.
  CHECK(cat::qwen25_7b.parameters() == 7615616512.0);
  CHECK(cat::qwen25_72b.parameters() == 72706203648.0);
  // Qwen/Qwen3-8B, Qwen3-32B, Qwen3-30B-A3B, Qwen3-235B-A22B: 8,190,735,360; 32,762,123,264;
  // 30,532,122,624; 235,093,634,560 (q/k norms of 128 per layer included).
  CHECK(cat::qwen3_8b.parameters() == 8190735360.0);
  CHECK(cat::qwen3_32b.parameters() == 32762123264.0);
  CHECK(cat::qwen3_30b_a3b.parameters() == 30532122624.0);
  CHECK(cat::qwen3_235b_a22b.parameters() == 235093634560.0);
  // google/gemma-2-9b, gemma-2-27b: 9,241,705,984; 27,227,128,320 (four norms a layer).
  CHECK(cat::gemma2_9b.parameters() == 9241705984.0);
  CHECK(cat::gemma2_27b.parameters() == 27227128320.0);
  // google/gemma-3-27b-it: 27,432,406,640, of which the SigLIP tower and projector
  // 423,060,336 (computed by io/hf_config.hpp from vision_config; test_hf_config).
  CHECK(cat::gemma3_27b.parameters() == 27432406640.0);
}

TEST_CASE("the 2026 models against their papers and model cards", "[catalog][models]") {
  // DeepSeek-V3 (arXiv:2412.19437 Sec. 4.2, "671B total parameters, of which 37B are activated
  // for each token"; model page: 685B with the 14B MTP module). The main model's count is exact
  // from the shapes; the published figures are rounded to 1B: tolerance 0.5B, and 2% for the
  // active count (the paper's 37B; the shapes give 37.55B, embeddings and head included).
  CHECK(cat::deepseek_v3.parameters() == 671026419200.0);
  CHECK(cat::deepseek_v3.parameters() == Approx(671e9).margin(0.5e9));
  CHECK(cat::deepseek_v3.checkpoint_parameters() == Approx(685e9).margin(1e9));
  CHECK(cat::deepseek_v3.active_parameters() == Approx(37e9).epsilon(0.02));
  // R1 shares V3's shape; its Hugging Face ids find it, not V3
  const transformer_spec* r1 = cat::find_model("deepseek-ai/DeepSeek-R1-0528");
  REQUIRE(r1 != nullptr);
  CHECK(r1->name == std::string_view("DeepSeek-R1"));
  // gpt-oss model card Table 1: 116.83B and 20.91B total; 5.13B and 3.61B active per token,
  // counting the unembedding but not the embedding (printed to 0.01B: margin 0.005B).
  CHECK(cat::gpt_oss_120b.parameters() == Approx(116.83e9).margin(0.005e9));
  CHECK(cat::gpt_oss_20b.parameters() == Approx(20.91e9).margin(0.005e9));
  const auto active_without_embedding = [](const transformer_spec& m) {
    return m.active_parameters() - m.embedding_parameters();
  };
  CHECK(active_without_embedding(cat::gpt_oss_120b) == Approx(5.13e9).margin(0.005e9));
  CHECK(active_without_embedding(cat::gpt_oss_20b) == Approx(3.61e9).margin(0.005e9));
  // Qwen3 technical report Table 2: "30B / 3B activated" and "235B / 22B activated"; the
  // model names' A3B and A22B. Shapes give 3.35B and 22.19B.
  CHECK(cat::qwen3_30b_a3b.active_parameters() == Approx(3.3e9).margin(0.1e9));
  CHECK(cat::qwen3_235b_a22b.active_parameters() == Approx(22e9).margin(0.5e9));
}

// Llama 4, GLM-4.5 and Kimi K2 (issue 24). Exact totals: the safetensors.total of
// meta-llama/Llama-4-Scout-17B-16E(-Instruct) 108,641,793,536 and
// Llama-4-Maverick-17B-128E(-Instruct) 401,583,781,376 (vision tower included); zai-org/GLM-4.5
// 358,337,791,296 and GLM-4.5-Air 110,468,824,832 (the MTP layer included:
// checkpoint_parameters). Active counts against the cards, each as the card counts it (source
// and margin beside each line).
TEST_CASE("Llama 4, GLM-4.5 and Kimi K2 against their checkpoints and cards", "[catalog][models]") {
  CHECK(cat::llama4_scout.parameters() == 108641793536.0);
  CHECK(cat::llama4_maverick.parameters() == 401583781376.0);
  // Model cards: "17B (Activated) 109B (Total)" and "17B (Activated) 400B (Total)"; the text
  // model's active count (embeddings and head included, the vision tower not) is 17.17B and
  // 17.18B: margin 0.5B (the card rounds to 1B).
  CHECK(cat::llama4_scout.parameters() == Approx(109e9).margin(0.5e9));
  CHECK(cat::llama4_maverick.parameters() == Approx(400e9).epsilon(0.005));  // 401.6B
  for (const transformer_spec* m : {&cat::llama4_scout, &cat::llama4_maverick})
    CHECK(m->active_parameters() - m->extra_parameters == Approx(17e9).margin(0.5e9));
  CHECK(cat::glm45.checkpoint_parameters() == 358337791296.0);
  CHECK(cat::glm45_air.checkpoint_parameters() == 110468824832.0);
  CHECK(cat::glm45_air.parameters() == 106852251264.0);
  // arXiv:2508.06471: "355B total parameters and 32B activated parameters"; the README: Air
  // "106 billion total parameters and 12 billion active parameters". The activated figures count
  // neither the embedding nor the output layer (the shapes give 32.08B and 12.18B; margin 0.5B).
  const auto activated = [](const transformer_spec& m) {
    return m.active_parameters() - m.embedding_parameters() - m.lm_head_parameters();
  };
  CHECK(activated(cat::glm45) == Approx(32e9).margin(0.5e9));
  CHECK(activated(cat::glm45_air) == Approx(12e9).margin(0.5e9));
  CHECK(cat::glm45_air.parameters() == Approx(106e9).margin(1e9));
  // Kimi K2: the shapes give 1,026,408,232,448; moonshotai/Kimi-K2-Instruct's safetensors.total
  // is 1,026,408,235,864, 3,416 more (tensors the shapes do not name: test_hf_config). README:
  // "Total Parameters 1T", "Activated Parameters 32B" (32.86B: 3%).
  CHECK(cat::kimi_k2.parameters() == 1026408232448.0);
  CHECK(cat::kimi_k2.parameters() == Approx(1026408235864.0).margin(3416.0));
  CHECK(cat::kimi_k2.active_parameters() == Approx(32e9).epsilon(0.03));
  // Every Hugging Face id finds its entry, the -Instruct ids included.
  const std::pair<const char*, const transformer_spec*> ids[] = {
      {"meta-llama/Llama-4-Scout-17B-16E-Instruct", &cat::llama4_scout},
      {"meta-llama/Llama-4-Scout-17B-16E", &cat::llama4_scout},
      {"llama4-scout", &cat::llama4_scout},
      {"meta-llama/Llama-4-Maverick-17B-128E-Instruct", &cat::llama4_maverick},
      {"Llama-4-Maverick", &cat::llama4_maverick},
      {"zai-org/GLM-4.5", &cat::glm45},
      {"zai-org/GLM-4.5-Air", &cat::glm45_air},
      {"glm-4.5-air", &cat::glm45_air},
      {"moonshotai/Kimi-K2-Instruct", &cat::kimi_k2},
      {"moonshotai/Kimi-K2-Base", &cat::kimi_k2},
      {"kimi-k2", &cat::kimi_k2}};
  for (const auto& [id, model] : ids) {
    INFO(id);
    const transformer_spec* found = cat::find_model(id);
    REQUIRE(found != nullptr);
    CHECK(found->name == model->name);
  }
}

TEST_CASE("KV bytes per token against the engines' formulas", "[catalog][models]") {
  // vLLM (v1/attention/backends/mla) and SGLang (MLATokenToKVPool) cache kv_lora_rank +
  // qk_rope_head_dim = 576 elements per token and layer: 61 x 576 x 2 bytes in bf16.
  CHECK(cat::deepseek_v3.kv_bytes_per_token(precision::bf16).in(units::B_per_token) ==
        61.0 * 576 * 2);
  // Standard GQA: 2 x layers x kv_heads x head_dim x bytes (vLLM's FullAttentionSpec page).
  CHECK(cat::qwen3_235b_a22b.kv_bytes_per_token(precision::fp8).in(units::B_per_token) ==
        2.0 * 94 * 4 * 128 * 1);
  // Gemma 3 27B at 32k tokens: 10 global layers hold 32,768 tokens, 52 local ones 1,024
  // (vLLM's SlidingWindowSpec); 2 x 16 x 128 x 2 = 8,192 bytes per token and layer.
  CHECK(cat::gemma3_27b.kv_bytes(32768, precision::bf16).in(units::B) ==
        (10.0 * 32768 + 52.0 * 1024) * 8192);
  // Within the window every layer holds every token.
  CHECK(cat::gemma3_27b.kv_bytes(512, precision::bf16).in(units::B) ==
        512.0 * cat::gemma3_27b.kv_bytes_per_token(precision::bf16).in(units::B_per_token));
}

// The dense models of 2024-2025 the transformer shape describes exactly (issue 24). Same source:
// safetensors.total of the repositories named, each also the parameter count transformers and
// llama.cpp (GGUF general.parameter_count) report for the checkpoint.
TEST_CASE("Llama 3.2/3.3, Qwen2.5, Mistral Small 3 and Phi-4 counts equal the published totals",
          "[catalog][models]") {
  // meta-llama/Llama-3.2-1B(-Instruct): 1,235,814,400; Llama-3.2-3B(-Instruct): 3,212,749,824.
  // Both tie the output layer to the embedding (tie_word_embeddings true): untied they would
  // count 128,256 x hidden more.
  CHECK(cat::llama32_1b.parameters() == 1235814400.0);
  CHECK(cat::llama32_3b.parameters() == 3212749824.0);
  CHECK(cat::llama32_1b.tied_embeddings);
  CHECK(cat::llama32_3b.tied_embeddings);
  // meta-llama/Llama-3.3-70B-Instruct: 70,553,706,496 (Llama 3.1 70B's shape and count).
  CHECK(cat::llama33_70b.parameters() == 70553706496.0);
  CHECK(cat::llama33_70b.parameters() == cat::llama31_70b.parameters());
  // Qwen/Qwen2.5-0.5B: 494,032,768; -1.5B: 1,543,714,304; -3B: 3,085,938,688 (tied);
  // -14B: 14,770,033,664; -32B: 32,763,876,352 (untied). The -Instruct repositories hold the same
  // shapes and counts.
  CHECK(cat::qwen25_0_5b.parameters() == 494032768.0);
  CHECK(cat::qwen25_1_5b.parameters() == 1543714304.0);
  CHECK(cat::qwen25_3b.parameters() == 3085938688.0);
  CHECK(cat::qwen25_14b.parameters() == 14770033664.0);
  CHECK(cat::qwen25_32b.parameters() == 32763876352.0);
  CHECK(cat::qwen25_0_5b.tied_embeddings);
  CHECK(cat::qwen25_1_5b.tied_embeddings);
  CHECK(cat::qwen25_3b.tied_embeddings);
  CHECK_FALSE(cat::qwen25_14b.tied_embeddings);
  CHECK_FALSE(cat::qwen25_32b.tied_embeddings);
  // mistralai/Mistral-Small-24B-Instruct-2501 (and -Base-2501): 23,572,403,200; head_dim 128 is
  // not hidden / heads (160), which would count 40 x 5120 x (2 x 32 + 2 x 8) x 32 = 524,288,000
  // more.
  CHECK(cat::mistral_small_24b.parameters() == 23572403200.0);
  const transformer_spec& ms = cat::mistral_small_24b;
  CHECK(ms.heads * ms.head_dim != ms.hidden);
  // microsoft/phi-4: 14,659,507,200.
  CHECK(cat::phi4.parameters() == 14659507200.0);
}

TEST_CASE("Llama 2 counts match once stored rotary buffers are set aside", "[catalog][models]") {
  // The Llama-2-*-hf checkpoints also store each layer's `rotary_emb.inv_freq` buffer (head_dim/2
  // = 64 numbers per layer), which safetensors.total counts but which is not a parameter:
  //   Llama-2-7b-hf  safetensors.total 6,738,417,664 = 6,738,415,616 + 32 x 64
  //   Llama-2-13b-hf safetensors.total 13,015,866,880 = 13,015,864,320 + 40 x 64
  //   Llama-2-70b-hf safetensors.total 68,976,653,312 = 68,976,648,192 + 80 x 64
  // transformers' num_parameters() for Llama-2-7b reports 6,738,415,616 ("all params:
  // 6738415616" in PEFT's print_trainable_parameters output).
  struct row {
    const transformer_spec& model;
    double safetensors_total;
  };
  const row rows[] = {{cat::llama2_7b, 6738417664.0},
                      {cat::llama2_13b, 13015866880.0},
                      {cat::llama2_70b, 68976653312.0}};
  for (const row& r : rows) {
    INFO(std::string(r.model.name.view()));
    const double inv_freq = r.model.layers * (r.model.head_dim / 2.0);
    CHECK(r.model.parameters() == r.safetensors_total - inv_freq);
  }
  CHECK(cat::llama2_7b.parameters() == 6738415616.0);
}

TEST_CASE("MoE active parameters match the papers' rounded figures", "[catalog][models]") {
  // Mixtral paper (arXiv:2401.04088) Sec. 2: "47B parameters ... only uses 13B active parameters
  // during inference". Printed to two significant digits: tolerance +-0.5B.
  CHECK(cat::mixtral_8x7b.parameters() == Approx(47e9).margin(0.5e9));
  CHECK(cat::mixtral_8x7b.active_parameters() == Approx(13e9).margin(0.5e9));
  CHECK(cat::mixtral_8x7b.active_parameters() == 12879925248.0);  // 2 of 8 experts, exact
  // Mistral AI's Mixtral 8x22B announcement: "141B parameters ... 39B active".
  CHECK(cat::mixtral_8x22b.parameters() == Approx(141e9).margin(0.5e9));
  CHECK(cat::mixtral_8x22b.active_parameters() == Approx(39e9).margin(0.5e9));
  // A dense model's active parameters are all of them.
  CHECK(cat::llama31_70b.active_parameters() == cat::llama31_70b.parameters());
}

TEST_CASE("Megatron GPT configurations follow Narayanan et al. Eq. 2", "[catalog][models]") {
  // Narayanan et al. 2021 (arXiv:2104.04473) Eq. 2: P = 12 l h^2 (1 + 13/12h + (V + s)/12lh),
  // V = 51,200, s = 2,048. Eq. 2 leaves out the final LayerNorm (2h parameters: weight and bias),
  // which the model has; so the catalog count is Eq. 2 + 2h exactly (tolerance: 1 parameter of
  // floating-point rounding in evaluating Eq. 2's fractions).
  const transformer_spec* models[] = {&cat::megatron_22b, &cat::megatron_175b,
                                      &cat::megatron_530b, &cat::megatron_1t};
  for (const transformer_spec* m : models) {
    INFO(std::string(m->name.view()));
    const double l = m->layers, h = m->hidden, V = 51200, s = 2048;
    const double eq2 = 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h));
    CHECK(m->parameters() - eq2 == Approx(2 * h).margin(1.0));
    CHECK(m->vocab == 51200);
    CHECK(m->max_positions == 2048);
  }
  // Narayanan Table 1 prints the counts to 0.1B: 529.6B (h 20480, 105 layers, 128 heads) and
  // 1008.0B (h 25600, 128 layers, 160 heads). Tolerance: half the last printed digit.
  CHECK(cat::megatron_530b.parameters() == Approx(529.6e9).margin(0.05e9));
  CHECK(cat::megatron_1t.parameters() == Approx(1008.0e9).margin(0.05e9));
  // Korthikanti Table 3 names the smallest "22B": 22.07B.
  CHECK(cat::megatron_22b.parameters() == Approx(22e9).margin(0.5e9));
}

TEST_CASE("GPT-3 175B has 174.6B parameters", "[catalog][models]") {
  // GPT-3 paper (arXiv:2005.14165) Table D.1: 174,600M. Printed to 0.1B: tolerance 0.05B.
  CHECK(cat::gpt3_175b.parameters() == Approx(174.6e9).margin(0.05e9));
  CHECK(cat::gpt3_175b.heads * cat::gpt3_175b.head_dim == cat::gpt3_175b.hidden);
}

TEST_CASE("every catalog model validates and has a unique name", "[catalog][models]") {
  for (const transformer_spec& m : cat::all_models) {
    INFO(std::string(m.name.view()));
    CHECK_NOTHROW(m.validate());
    // Every name and alias finds this very entry (no alias is shared between two entries).
    CHECK(cat::find_model(m.name) == &m);
    for (const name_string& a : m.aliases) {
      if (a.empty()) continue;
      CHECK(cat::find_model(a) == &m);
      // a Hugging Face id's bare name ("Meta-Llama-3.1-70B") finds it too
      const std::string_view id = a.view();
      if (id.find('/') != std::string_view::npos)
        CHECK(cat::find_model(id.substr(id.rfind('/') + 1)) == &m);
    }
  }
}

TEST_CASE("models are found by canonical name, alias or Hugging Face id", "[catalog][lookup]") {
  const transformer_spec* m = cat::find_model("llama3.1-70b");
  REQUIRE(m != nullptr);
  CHECK(m->name == std::string_view("Llama-3.1-70B"));
  CHECK(cat::find_model("Llama-3.1-70B") == m);
  CHECK(cat::find_model("meta-llama/Llama-3.1-70B") == m);
  CHECK(cat::find_model("LLAMA 3.1 70B") == m);  // case and separators are ignored
  CHECK(cat::find_model("meta-llama/Llama-3.1-71B") == nullptr);
  // An organisation prefix not in the aliases still finds the bare name.
  const transformer_spec* mixtral = cat::find_model("Mixtral-8x7B-v0.1");
  REQUIRE(mixtral != nullptr);
  CHECK(mixtral->name == std::string_view("Mixtral-8x7B-v0.1"));
  CHECK(cat::find_model("someone/Mixtral-8x7B-v0.1") == mixtral);
  CHECK(cat::find_model("mixtral") == mixtral);
  CHECK(cat::find_model("") == nullptr);
  CHECK(cat::find_model("llama-9") == nullptr);
}

TEST_CASE("an -Instruct id finds its base model's entry", "[catalog][lookup]") {
  // Meta's 3.1 repositories were renamed from Meta-Llama-3.1-*; both spellings, base and Instruct.
  const transformer_spec* l70 = cat::find_model("Llama-3.1-70B");
  REQUIRE(l70 != nullptr);
  CHECK(cat::find_model("meta-llama/Meta-Llama-3.1-70B-Instruct") == l70);
  CHECK(cat::find_model("meta-llama/Llama-3.1-70B-Instruct") == l70);
  CHECK(cat::find_model("Meta-Llama-3.1-70B-Instruct") == l70);
  CHECK(cat::find_model("meta-llama/Meta-Llama-3.1-8B-Instruct") ==
        cat::find_model("Llama-3.1-8B"));
  CHECK(cat::find_model("meta-llama/Meta-Llama-3.1-405B-Instruct") ==
        cat::find_model("Llama-3.1-405B"));
  // any case and separator before the suffix
  CHECK(cat::find_model("qwen/qwen2.5-14b_INSTRUCT") == cat::find_model("Qwen2.5-14B"));
  CHECK(cat::find_model("Qwen/Qwen2.5-32B-Instruct") == cat::find_model("Qwen2.5-32B"));
  CHECK(cat::find_model("meta-llama/Llama-3.2-1B-Instruct") == cat::find_model("Llama-3.2-1B"));
  CHECK(cat::find_model("meta-llama/Llama-3.3-70B-Instruct")->name ==
        std::string_view("Llama-3.3-70B-Instruct"));
  CHECK(cat::find_model("mistralai/Mistral-Small-24B-Instruct-2501")->name ==
        std::string_view("Mistral-Small-24B-2501"));
  CHECK(cat::find_model("microsoft/phi-4")->name == std::string_view("Phi-4"));
  // the suffix alone, or a longer word, names nothing
  CHECK(cat::find_model("-Instruct") == nullptr);
  CHECK(cat::find_model("Instruct") == nullptr);
  CHECK(cat::find_model("Qwen2.5-14B-Instructor") == nullptr);
  CHECK(cat::find_model("meta-llama/Llama-3.1-71B-Instruct") == nullptr);
  // constexpr: a lookup can be checked at compile time
  static_assert(cat::find_model("Qwen/Qwen2.5-3B-Instruct") != nullptr);
}

TEST_CASE("nearest model names suggest what the user meant", "[catalog][lookup]") {
  const auto near = cat::nearest_model_names("llama3.1-7b");
  CHECK(near[0] == "Llama-3.1-8B");  // one edit away ("7" -> "8") once separators are folded
  // A misspelt Hugging Face id is compared without its organisation prefix too.
  const auto qwen = cat::nearest_model_names("Qwen/Qwen2.5-72B-Instuct");
  CHECK(qwen[0] == "Qwen2.5-72B");
  CHECK(qwen[1] == "Qwen2.5-7B");
  for (std::string_view n : qwen) CHECK(!n.empty());
}

TEST_CASE("transformer_spec.validate names the offending field", "[catalog][validate]") {
  transformer_spec m = cat::llama31_8b;
  m.kv_heads = 5;
  CHECK(thrown_message(m) == "gpuplan: transformer_spec.kv_heads must divide heads (got 5, 32)");
  m = cat::llama31_8b;
  m.heads = 0;
  CHECK(thrown_message(m) == "gpuplan: transformer_spec.heads must be positive (got 0)");
  m = cat::llama31_8b;
  m.layers = -1;
  CHECK(thrown_message(m) == "gpuplan: transformer_spec.layers must be positive (got -1)");
  m = cat::llama31_8b;
  m.kv_heads = 64;
  CHECK(thrown_message(m) ==
        "gpuplan: transformer_spec.kv_heads must not exceed heads (got 64, 32)");
  m = cat::mixtral_8x7b;
  m.moe.experts_per_token = 9;
  CHECK(thrown_message(m) ==
        "gpuplan: transformer_spec.moe.experts_per_token must be between 1 and moe.experts "
        "(got 9, 8)");
  m = cat::gpt3_175b;
  m.max_positions = 0;
  CHECK(thrown_message(m) ==
        "gpuplan: transformer_spec.max_positions must be positive with learned positions "
        "(got 0)");
  m = cat::mistral_7b;
  m.sliding_window = -4;
  CHECK(thrown_message(m) ==
        "gpuplan: transformer_spec.sliding_window must not be negative (0: none) (got -4)");
}

TEST_CASE("a checkpoint's quantisation must be what its method stores", "[catalog][validate]") {
  transformer_spec m = cat::gpt_oss_120b;
  m.quantization.dtype = precision::bf16;  // MXFP4 stores fp4
  CHECK_THROWS_WITH(m.validate(), Catch::Contains("transformer_spec.quantization.dtype"));
  m = cat::gpt_oss_120b;
  m.quantization.group_size = 0;  // MXFP4 scales blocks of 32
  CHECK_THROWS_WITH(m.validate(),
                    Catch::Contains("transformer_spec.quantization.group_size must be positive"));
  m = cat::deepseek_v3;
  m.quantization.group_size = -128;
  CHECK_THROWS_WITH(m.validate(), Catch::Contains("quantization.group_size"));
  m.quantization = {.method = quant_method::gptq, .dtype = precision::int8, .group_size = 0};
  CHECK_NOTHROW(m.validate());  // per-channel GPTQ in 8 bits
}
