// The search's report in one call (plan/search_report.hpp) and its JSON (io/search_json.hpp):
// the figures `gpuplan search` and `gpuplan search serve` are tested for in tests/cli
// (cli_tests.py: search.json_contract, search.top_and_objective, search.serve), asserted here on
// the library's report for the same spaces, and the report composed from merged shards (the
// CLI's threads) equal to the one-call report.
#include <gpuplan/catalog.hpp>
#include <gpuplan/io/search_json.hpp>
#include <gpuplan/plan/search_report.hpp>

#include "../catch.hpp"

#include <cstdint>
#include <string>
#include <vector>

using namespace gpuplan;

namespace {

/// cli_tests.py's SEARCH_8B: Llama 3.1 8B on 8..32 H100s or H200s (each in its catalog node),
/// sequences of 4096, a global batch of 256, 100B tokens, transformers (the CLI's default).
struct search_8b {
  node_spec nodes[2] = {catalog::dgx_h100, catalog::hgx_h200};
  int gpus[3] = {8, 16, 32};
  training_search_space space{};
  explicit search_8b(framework_kind f = framework_kind::transformers) {
    space.model = catalog::llama31_8b;
    space.config.seq = 4096;
    space.config.global_batch = 256;
    space.tokens = 100e9 * units::token;
    space.nodes = nodes;
    space.gpus = gpus;
    space.use_framework(f);
  }
};

bool dominates(const nlohmann::json& a, const nlohmann::json& b) {
  const double ta = a["reserved_time_s"], tb = b["reserved_time_s"];
  const double ca = a["cost_usd"], cb = b["cost_usd"];
  return ta <= tb && ca <= cb && (ta < tb || ca < cb);
}

/// check_search_json of cli_tests.py, on io::to_json of the library's report.
void check_search_json(const nlohmann::json& j) {
  for (const char* key : {"front", "configurations_evaluated", "seconds", "top", "space", "pruned",
                          "configurations_per_s", "threads", "front_truncated", "reliability",
                          "model", "tokens", "seq", "global_batch", "objective", "framework"})
    CHECK(j.contains(key));
  CHECK(j["complete"] == true);
  CHECK(j["configurations_evaluated"] == j["space"]["size"]);
  CHECK(j["space"]["gpus"] == nlohmann::json({8, 16, 32}));
  const nlohmann::json& p = j["pruned"];
  CHECK(p["invalid"].get<std::uint64_t>() + p["over_memory"].get<std::uint64_t>() +
            j["timed"].get<std::uint64_t>() ==
        j["configurations_evaluated"].get<std::uint64_t>());
  const nlohmann::json& front = j["front"];
  REQUIRE(front.size() >= 1);
  for (const nlohmann::json& e : front) {
    for (const char* key : {"layout", "step_time_s", "cost_usd", "time_to_train_s", "gpu", "gpus",
                            "micro_batch", "recompute", "precision", "chunked_loss", "breakdown",
                            "energy_kwh", "bottleneck", "node", "index", "nodes", "micro_batches",
                            "memory_per_gpu_gib", "tokens_per_s", "mfu", "ettr", "gpu_hours",
                            "price_per_gpu_hour", "reserved_time_s"})
      CHECK(e.contains(key));
    const nlohmann::json& l = e["layout"];
    for (const char* key : {"dp", "tp", "pp", "cp", "ep", "zero", "virtual_stages", "sequence_parallel"})
      CHECK(l.contains(key));
    CHECK(l["dp"].get<int>() * l["tp"].get<int>() * l["pp"].get<int>() * l["cp"].get<int>() ==
          e["gpus"].get<int>());
    double parts = 0;
    for (const nlohmann::json& seconds : e["breakdown"]) parts += seconds.get<double>();
    CHECK(parts == Approx(e["step_time_s"].get<double>()).epsilon(1e-9));
    const double cost = e["cost_usd"], gpu_hours = e["gpu_hours"], price = e["price_per_gpu_hour"];
    const double reserved = e["reserved_time_s"], steady = e["time_to_train_s"], ettr = e["ettr"];
    CHECK(cost == Approx(gpu_hours * price).epsilon(1e-6));
    CHECK(gpu_hours == Approx(e["gpus"].get<double>() * reserved / 3600).epsilon(1e-9));
    CHECK(reserved == Approx(steady / ettr).epsilon(1e-9));
    CHECK(ettr > 0);
    CHECK(ettr < 1);  // failures and checkpoints cost time
  }
  for (const nlohmann::json& a : front)
    for (const nlohmann::json& b : front) CHECK((&a == &b || !dominates(a, b)));
  for (const nlohmann::json& t : j["top"]) {
    bool on_or_behind = false;
    for (const nlohmann::json& f : front)
      on_or_behind = on_or_behind || f["index"] == t["index"] || dominates(f, t) ||
                     (f["reserved_time_s"].get<double>() <= t["reserved_time_s"].get<double>() &&
                      f["cost_usd"].get<double>() <= t["cost_usd"].get<double>());
    CHECK(on_or_behind);
  }
  REQUIRE(!j["top"].empty());
  CHECK(j["top"][0].contains("why"));
  CHECK(j["top"][0]["why"].contains("runner_up_bottleneck"));
}

std::vector<std::uint64_t> indices(const std::vector<search_evaluation>& v) {
  std::vector<std::uint64_t> out;
  for (const search_evaluation& e : v) out.push_back(e.config.index);
  return out;
}

}  // namespace

TEST_CASE("search report: the JSON contract of gpuplan search, transformers and megatron") {
  search_8b hf;
  const training_search_report r = report_search(hf.space, search_objective::time, 5);
  // timed on a monotonic clock (detail::wall_seconds): a duration, never negative
  CHECK(r.seconds >= 0.0);
  CHECK(r.seconds < 600.0);
  const nlohmann::json j = io::to_json(r);
  check_search_json(j);
  CHECK(j["framework"] == "transformers");
  const nlohmann::json& sp = j["space"];
  CHECK(sp["tp"] == nlohmann::json({1}));
  CHECK(sp["pp"] == nlohmann::json({1}));
  CHECK(sp["sequence_parallel"] == nlohmann::json({false}));
  CHECK(sp["recompute"] == nlohmann::json({"none", "full"}));
  CHECK(sp["precision"] == nlohmann::json({"master", "amp", "pure"}));
  CHECK(sp["chunked_loss"] == nlohmann::json({false, true}));
  // GPU types x counts x micro-batch x ZeRO x recompute x regimes x loss
  CHECK(sp["size"] == 2 * 3 * 3 * 4 * 2 * 3 * 2);
  CHECK(r.counts.visited == 864);
  for (const search_evaluation& e : r.front) {
    CHECK(e.config.layout.tp == 1);
    CHECK(e.config.layout.pp == 1);
    CHECK(e.config.layout.dp == e.config.layout.gpus());
  }
  // the report's own figures are the JSON's
  CHECK(j["top"].size() == r.top.size());
  CHECK(j["top"][0]["index"] == r.top[0].config.index);
  CHECK(j["top"][0]["step_time_s"] == r.top[0].step.total.in(units::s));
  CHECK(j["threads"] == 1);
  REQUIRE(r.margin);
  CHECK(r.margin->runner_up == r.top[r.runner_up].config.index);
  CHECK(r.margin->ratio >= 1.0);

  search_8b megatron(framework_kind::megatron);
  const nlohmann::json m = io::to_json(report_search(megatron.space, search_objective::time, 5));
  check_search_json(m);
  CHECK(m["framework"] == "megatron");
  CHECK(m["space"]["tp"] == nlohmann::json({1, 2, 4, 8}));
  CHECK(m["space"]["precision"] == nlohmann::json({"master"}));
  CHECK(m["space"]["chunked_loss"] == nlohmann::json({false}));
}

TEST_CASE("search report: top lists by each objective, shards agree, a deadline prunes") {
  search_8b hf;
  for (int n : {1, 3, 7}) {
    const training_search_report r = report_search(hf.space, search_objective::cost, n);
    CHECK(r.top.size() == static_cast<std::size_t>(n));
    for (std::size_t k = 1; k < r.top.size(); ++k) CHECK(r.top[k - 1].cost.cost <= r.top[k].cost.cost);
    CHECK(io::to_json(r)["objective"] == "cost");
  }
  const training_search_report e = report_search(hf.space, search_objective::energy_used, 4);
  for (std::size_t k = 1; k < e.top.size(); ++k) CHECK(e.top[k - 1].run_energy() <= e.top[k].run_energy());
  CHECK(io::to_json(e)["objective"] == "energy");

  // the CLI's threads: shards searched apart and merged compose the same report
  const training_search_report one = report_search(hf.space, search_objective::time, 5);
  const std::uint64_t n = hf.space.size();
  training_search_collector a, b;
  a.top_k = b.top_k = 5;
  search_training(hf.space, 0, n / 3, a);
  search_training(hf.space, n / 3, n, b);
  b.merge(a);
  const training_search_report merged = search_report_of(hf.space, b, search_objective::time);
  CHECK(indices(merged.top) == indices(one.top));
  CHECK(indices(merged.front) == indices(one.front));
  CHECK(merged.runner_up == one.runner_up);
  CHECK(merged.complete);
  // a shard alone is not the whole space
  CHECK_FALSE(search_report_of(hf.space, a, search_objective::time).complete);

  // a deadline keeps only runs within it
  hf.space.deadline = 5.0 * 24.0 * units::h;
  const training_search_report d = report_search(hf.space, search_objective::time, 5);
  for (const auto* list : {&d.front, &d.top})
    for (const search_evaluation& x : *list) CHECK(x.reserved_time() <= hf.space.deadline);
  CHECK(d.counts.over_limits > 0);
}

TEST_CASE("search report: gpuplan search serve's ranking and JSON") {
  const node_spec nodes[] = {catalog::dgx_h100, catalog::hgx_h200};
  serving_search_space s;
  s.base.model = catalog::llama31_70b;
  s.base.mix = request_mix::fixed(1024, 256);
  s.slo = {.ttft = 2.0 * units::s, .tpot = 0.05 * units::s};
  s.nodes = nodes;
  const serving_search_summary r = report_serving_search(s, 6);
  CHECK(r.seconds >= 0.0);
  CHECK(r.seconds < 600.0);
  const nlohmann::json j = io::to_json(r);
  for (const char* key : {"results", "configurations_evaluated", "pruned", "seconds", "objective", "model"})
    CHECK(j.contains(key));
  CHECK(j["configurations_evaluated"] == 2 * 4 * 1 * 2);  // h100,h200 x tp 1,2,4,8 x pp 1 x bf16,fp8
  const nlohmann::json& res = j["results"];
  REQUIRE(res.size() >= 1);
  CHECK(res.size() <= 6);
  double prev = 0;
  for (const nlohmann::json& x : res) {
    const double cost = x["cost_per_million_tokens"];
    CHECK(cost >= prev);
    prev = cost;
    CHECK(x["ttft_s"].get<double>() <= 2.0);
    CHECK(x["tpot_s"].get<double>() <= 0.05);
    CHECK(cost == Approx(x["price_per_gpu_hour"].get<double>() / 3600 /
                         x["output_tokens_per_s_per_gpu"].get<double>() * 1e6)
                      .epsilon(1e-9));
    // 70B in bf16 does not fit one 80 GB GPU
    CHECK_FALSE((x["gpu"].get<std::string>().rfind("H100", 0) == 0 && x["tp"] == 1 &&
                 x["weight_dtype"] == "bf16"));
    CHECK(x["gpus_per_replica"] == x["tp"].get<int>() * x["pp"].get<int>());
  }
  CHECK(r.node_of(r.found.view()[0]).gpu.name.view() == res[0]["gpu"].get<std::string>());
}
