// plan/serving_deployment.hpp: the serving-deployment report `gpuplan serve` prints, by one
// library call, against the published benchmark `gpuplan serve` is held to (NVIDIA NIM) and the
// figures its tests establish (tests/cli/cli_tests.py serve.*, cases_verdict.py).
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/serving_deployment.hpp>

#include <cmath>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

/// `gpuplan serve --model llama3.1-70b --node dgx-h100 --tp 8` (tests/cli SERVE_70B).
serving_plan llama70b_tp8() {
  return {.model = cat::llama31_70b, .node = cat::dgx_h100, .layout = {.tp = 8}};
}

}  // namespace

TEST_CASE("serving deployment: NIM Llama 3.3 70B fp8 on two H100s, concurrency 25") {
  // NVIDIA NIM 1.8.0 benchmark (docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance):
  // Llama 3.3 70B fp8 on 2 x H100 TP2 (TensorRT-LLM, no chunked prefill), 5000 input / 500
  // output tokens, concurrency 25: TTFT 688.69 ms, ITL 38.75 ms, 623.4 output tokens/s.
  // Tolerances as tests/unit/test_serving.cpp and tests/cli serve.nim_70b hold the model to:
  // ITL and throughput 25%, TTFT 40%.
  const serving_plan p{.model = cat::llama31_70b,
                       .node = cat::dgx_h100,
                       .layout = {.tp = 2},
                       .config = {.weight_dtype = precision::fp8,
                                  .kv_dtype = precision::fp8,
                                  .engine = serving_engine::trtllm},
                       .compute_dtype = precision::fp8,
                       .mix = request_mix::fixed(5000, 500),
                       .concurrency = 25,
                       .chunked_prefill = false};
  const serving_deployment_report r = plan_serving_deployment({.plan = p});
  REQUIRE(r.timed);
  CHECK(r.point.tpot.in(units::ms) == Approx(38.75).epsilon(0.25));
  CHECK(r.point.output_tokens_per_s.in(units::tokens_per_s) == Approx(623.4).epsilon(0.25));
  CHECK(r.point.ttft.in(units::ms) == Approx(688.69).epsilon(0.40));
  // the report's point is the serving model's at the plan's load
  CHECK(r.point.tpot.value == serve(p).tpot.value);
  CHECK(r.ridge_batch == ridge_batch(p));
  CHECK(r.memory.fits());
  CHECK_FALSE(r.chunked_prefill());
  CHECK_FALSE(r.best.has_value());
  CHECK_FALSE(r.curve.has_value());
  CHECK_FALSE(r.cost.has_value());
  CHECK(rounded_mean_input(r.plan.mix) == 5000);
  CHECK(rounded_mean_output(r.plan.mix) == 500);
}

TEST_CASE("serving deployment: the best point under an SLO and the curve") {
  // tests/cli serve.slo: a 70B on 8 H100s meets TTFT 1 s / TPOT 50 ms, and the best point
  // serves at least what concurrency 1 does; 1 ms per token is out of reach.
  const serving_slo slo{.ttft = 1.0 * units::s, .tpot = 0.05 * units::s};
  const serving_deployment_report r =
      plan_serving_deployment({.plan = llama70b_tp8(), .slo = slo, .curve_points = 6});
  REQUIRE(r.best.has_value());
  CHECK(r.wants_slo());
  CHECK(r.best->found);
  CHECK(r.best->best.ttft.in(units::s) <= 1.0);
  CHECK(r.best->best.tpot.in(units::s) <= 0.05);
  CHECK(r.best->best.output_tokens_per_s.value >= r.point.output_tokens_per_s.value);
  // tests/cli serve.json_contract: 6 points, concurrency, throughput and TPOT rising
  REQUIRE(r.curve.has_value());
  REQUIRE(r.curve->size() == 6);
  for (int i = 1; i < r.curve->size(); ++i) {
    CHECK(r.curve->at(i).concurrency > r.curve->at(i - 1).concurrency);
    CHECK(r.curve->at(i).output_tokens_per_s.value >=
          r.curve->at(i - 1).output_tokens_per_s.value);
  }
  const serving_deployment_report none = plan_serving_deployment(
      {.plan = llama70b_tp8(), .slo = {.tpot = 0.001 * units::s}});
  REQUIRE(none.best.has_value());
  CHECK_FALSE(none.best->found);
  CHECK_THROWS_AS(plan_serving_deployment({.plan = llama70b_tp8(), .curve_points = 65}),
                  invalid_input);
}

TEST_CASE("serving deployment: one that does not fit is not timed when asked") {
  // tests/cli serve_too_big: Llama 3.1 405B on one H100 (the default node of one GPU) leaves
  // the KV cache no sequence: the serving model refuses to time it ("KV cache holds no
  // sequence"); with time_only_if_fits (--require-fit) the report is the verdict alone.
  const serving_plan p{.model = cat::llama31_405b, .node = single_gpu_node(cat::h100_sxm)};
  const serving_deployment_report r =
      plan_serving_deployment({.plan = p, .time_only_if_fits = true});
  CHECK_FALSE(r.timed);
  CHECK_FALSE(r.memory.fits());
  CHECK(r.memory.per_gpu.total() > r.memory.capacity);
  CHECK_THROWS_AS(plan_serving_deployment({.plan = p}), invalid_input);
}

TEST_CASE("serving deployment: priced for a month at its operating point") {
  run_cost_inputs prices;
  prices.price_per_gpu_hour = 3.0 * units::usd / units::h;
  const serving_deployment_report r =
      plan_serving_deployment({.plan = llama70b_tp8(), .pricing = prices});
  REQUIRE(r.cost.has_value());
  CHECK(r.cost->gpus == 8);
  // 8 GPUs for a month (730 h) at $3 per GPU-hour
  CHECK(r.cost->month.cost.in(units::usd) == Approx(8 * 730 * 3.0).epsilon(1e-9));
  CHECK(r.cost->point.output_tokens_per_s.value == r.point.output_tokens_per_s.value);
}
