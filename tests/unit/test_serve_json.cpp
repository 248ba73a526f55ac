// `gpuplan serve --json` keys (docs/json-schema.md): an operating point, a curve, an SLO result
// and disaggregated pools, with the values the models computed.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/io/serve_json.hpp>

using namespace gpuplan;

TEST_CASE("serve JSON: the operating point and the curve", "[json][serving]") {
  const serving_plan p{.model = catalog::llama31_8b,
                       .node = catalog::dgx_h100,
                       .layout = {.tp = 1},
                       .mix = request_mix::fixed(512, 128),
                       .concurrency = 16};
  const serving_point s = serve(p);
  const nlohmann::json j = io::to_json(s);
  for (const char* key : {"ttft_s", "tpot_s", "itl_s", "e2e_s", "output_tokens_per_s",
                          "requests_per_s", "concurrency", "kv_capacity_sequences", "step"})
    CHECK(j.contains(key));
  CHECK(j["ttft_s"].get<double>() == s.ttft.in(units::s));
  CHECK(j["output_tokens_per_s"].get<double>() == s.output_tokens_per_s.in(units::tokens_per_s));
  CHECK(j["step"]["total_s"].get<double>() == s.step.total().in(units::s));
  const serving_curve c = throughput_latency_curve(p, 5);
  const nlohmann::json cj = io::to_json(c);
  REQUIRE(cj.is_array());
  CHECK(static_cast<int>(cj.size()) == c.size());
  CHECK(cj[0]["concurrency"].get<double>() == 1.0);
  const nlohmann::json none = io::to_json(best_under_slo(p, {.tpot = 0.001 * units::ms}));
  CHECK_FALSE(none["found"].get<bool>());
  CHECK(none["best"].is_null());
  CHECK(io::to_json(serving_slo{.ttft = 1 * units::s})["tpot_s"].is_null());
  serving_plan dec = p;
  dec.concurrency = 64;
  CHECK(io::to_json(disaggregate(p, dec)).contains("prefill_gpus_per_decode_gpu"));
}
