// The one memory verdict (plan/fit.hpp): training_verdict is what training_fit reports and what
// the training search prunes by; a serving plan fits only when its paged KV cache holds the batch
// asked for and one sequence of max_model_len (vLLM and SGLang refuse to start otherwise), at
// compile time and at run time alike.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/plan/search_training.hpp>  // not in the umbrella (heavy)

#include <array>
#include <cstdint>
#include <span>

using namespace gpuplan;

namespace {

constexpr std::span<const gpu_spec> no_candidates{};

/// Llama 3.1 8B served by SGLang on one H100 with --mem-fraction-static 0.1: the static share
/// (0.1 x 80 GB) is below the 16 GB of weights, so the KV pool gets nothing.
constexpr inference_config sglang_starved{.batch = 1,
                                          .context = 4096,
                                          .engine = serving_engine::sglang,
                                          .mem_fraction_static = 0.1};

}  // namespace

TEST_CASE("training_verdict is training_fit's verdict, on the fit's breakdown", "[fit][verdict]") {
  // 70B on one DGX H100 without sharding does not fit; with ZeRO-3 over 64 GPUs it does
  for (const parallel_layout& l :
       {parallel_layout{.dp = 8}, parallel_layout{.dp = 64, .zero = 3}}) {
    const training_config c{.seq = 4096};
    const training_memory_verdict v = training_verdict(catalog::llama31_70b, catalog::h100_sxm, l, c);
    const fit_report r = training_fit(catalog::llama31_70b, catalog::h100_sxm, l, c);
    CHECK(v.fits() == r.fits());
    CHECK(v.per_gpu.total() == r.per_gpu.total());
    CHECK(v.capacity == catalog::h100_sxm.plannable_memory());
    CHECK(v.per_gpu.total() ==
          framework_training_memory(catalog::llama31_70b, l, c).total());
  }
  CHECK_FALSE(training_verdict(catalog::llama31_70b, catalog::h100_sxm, {.dp = 8}, {}).fits());
  CHECK(training_verdict(catalog::llama31_70b, catalog::h100_sxm, {.dp = 64, .zero = 3}, {}).fits());
}

TEST_CASE("the training search prunes by training_verdict", "[fit][verdict][search]") {
  training_search_space s{};
  const std::array<node_spec, 2> nodes{catalog::dgx_h100, catalog::dgx_a100};
  const std::array<int, 2> gpus{8, 16};
  const std::array<int, 2> tp{1, 8};
  const std::array<int, 2> mb{1, 4};
  s.model = catalog::llama31_70b;
  s.config.framework = framework_kind::megatron;
  s.config.seq = 4096;
  s.config.global_batch = 256;
  s.tokens = 1e10 * units::token;
  s.nodes = nodes;
  s.gpus = gpus;
  s.tp = tp;
  s.micro_batch = mb;
  int over = 0, kept = 0;
  for (std::uint64_t i = 0; i < s.size(); ++i) {
    const search_evaluation e = evaluate_configuration(s, i);
    if (e.verdict == search_verdict::invalid) continue;
    training_config c = s.config;
    c.micro_batch = e.config.micro_batch;
    c.recompute = e.config.recompute;
    set_regime(c, e.config.regime);  // as evaluate() builds it (specs/precision_regime.hpp)
    c.chunked_loss = e.config.chunked_loss;
    const training_memory_verdict v =
        training_verdict(s.model, nodes[static_cast<std::size_t>(e.config.node)].gpu,
                         e.config.layout, c, s.memory);
    CHECK(v.fits() == (e.verdict != search_verdict::over_memory));
    CHECK(v.per_gpu.total() == e.memory_per_gpu);
    (v.fits() ? kept : over) += 1;
  }
  CHECK(over > 0);  // both verdicts occur: the check above could fail either way
  CHECK(kept > 0);
}

TEST_CASE("a serving plan whose KV cache holds nothing does not fit", "[fit][verdict][inference]") {
  const fit_report r = inference_fit(catalog::llama31_8b, catalog::h100_sxm, {}, sglang_starved);
  CHECK(r.kv.capacity_tokens.value == 0);
  CHECK(r.memory_fits());  // the old verdict: the total is within 0.9 of the GPU
  CHECK_FALSE(r.kv_fits());
  CHECK_FALSE(r.fits());
  // compile time agrees with run time
  static_assert(!inference_fit(catalog::llama31_8b, catalog::h100_sxm, {}, sglang_starved, {},
                               no_candidates)
                     .fits());
  // SGLang's default share for tp 1 (0.88) leaves room for the sequence
  inference_config c = sglang_starved;
  c.mem_fraction_static = 0.0;
  CHECK(inference_fit(catalog::llama31_8b, catalog::h100_sxm, {}, c).fits());
}

TEST_CASE("a serving plan fits only when its KV cache holds the batch", "[fit][verdict][inference]") {
  // SGLang with --mem-fraction-static 0.25 keeps 0.25 x 80 GiB for the 8B's 16 GB of weights and
  // its KV pool: a few sequences of 8192 tokens, while the memory total of 32 of them (~49 GiB)
  // is within 0.9 of the GPU
  inference_config c{.batch = 32, .context = 8192, .engine = serving_engine::sglang,
                     .mem_fraction_static = 0.25};
  const fit_report r = inference_fit(catalog::llama31_8b, catalog::h100_sxm, {}, c);
  const int held = r.kv.max_batch(c.context);
  REQUIRE(held >= 1);
  REQUIRE(held < c.batch);
  CHECK(r.memory_fits());
  CHECK_FALSE(r.fits());
  CHECK(r.kv_batch() == held);
  // the batch it holds fits; one more does not
  c.batch = held;
  CHECK(inference_fit(catalog::llama31_8b, catalog::h100_sxm, {}, c).fits());
  c.batch = held + 1;
  CHECK_FALSE(inference_fit(catalog::llama31_8b, catalog::h100_sxm, {}, c).kv_fits());
  // the advice offers the batch that fits, and it fits
  bool batch_option = false;
  for (const advice& a : r.advice_list())
    if (a.change.view().substr(0, 6) == "batch ") {
      batch_option = true;
      CHECK(a.fits);
    }
  CHECK(batch_option);
}

TEST_CASE("one sequence of max_model_len must fit; above the positions it is refused",
          "[fit][verdict][inference]") {
  const transformer_spec& m = catalog::llama31_8b;  // max_position_embeddings 131072
  inference_config c{.batch = 1, .context = 1024, .max_model_len = 131072,
                     .gpu_memory_utilization = 0.3};
  // a short batch fits the cache, the longest sequence allowed does not
  const fit_report r = inference_fit(m, catalog::h100_sxm, {}, c);
  CHECK(r.kv.max_batch(c.context) >= 1);
  CHECK(r.kv.max_batch(c.max_model_len) == 0);
  CHECK_FALSE(r.fits());
  c.max_model_len = m.max_positions + 1;
  CHECK_THROWS_AS(inference_memory(m, catalog::h100_sxm, {}, c), invalid_input);
  CHECK_THROWS_WITH(inference_fit(m, catalog::h100_sxm, {}, c),
                    Catch::Contains("max_model_len must not exceed"));
}

TEST_CASE("serving_fit: one sequence of the mix's longest request", "[fit][verdict][inference]") {
  serving_plan p{.model = catalog::llama31_8b, .node = catalog::dgx_h100};
  p.mix = request_mix::fixed(3000, 1000);
  const fit_report r = serving_fit(p);
  inference_config c = p.config;
  c.batch = 1;
  c.context = 4000;
  const fit_report f = inference_fit(catalog::llama31_8b, catalog::h100_sxm, {}, c);
  CHECK(r.fits());
  CHECK(r.per_gpu.total() == f.per_gpu.total());
  CHECK(r.kv_needed.context == 4000);
  serving_plan big = p;
  big.model = catalog::llama31_70b;  // 141 GB of bf16 weights on one 80 GB GPU
  CHECK_FALSE(serving_fit(big).fits());
}
