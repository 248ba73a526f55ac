// The cost comparison `gpuplan cost` prints, got by one library call (plan/cost_report.hpp), and
// its JSON (io/cost_json.hpp). The expected figures are the published ones the CLI cases
// (tests/cli/cli_tests.py cost.*) and test_cost.cpp already check, or follow from the inputs by
// hand (GPU-hours x price), so the composition cannot add, drop or swap a factor unnoticed.
#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/io/cost_json.hpp>
#include <gpuplan/plan/cost_report.hpp>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "../catch.hpp"

using namespace gpuplan;
using Catch::Matchers::Contains;
namespace cat = gpuplan::catalog;

namespace {
double usd(money m) { return m.in(units::usd); }
constexpr double hours_per_month = 365.0 / 12.0 * 24.0;  // 730

/// 64 H100s for 240 h (15,360 GPU-hours), priced from the default book.
cost_report_inputs h100_run(int gpus = 64, double gpu_hours = 15360) {
  cost_report_inputs in;
  in.usage = {.gpu = cat::h100_sxm, .gpu_time = gpu_hours * units::h, .gpus = gpus};
  in.pricing.book = cat::default_prices;
  return in;
}
}  // namespace

TEST_CASE("The node around another GPU: the catalog server's chassis, its GPU replaced",
          "[cost][report][nodes]") {
  // node_carrying: the catalog server whose own GPU it is
  REQUIRE(cat::node_carrying(cat::h100_sxm) != nullptr);
  CHECK(cat::node_carrying(cat::h100_sxm)->name == cat::dgx_h100.name);
  CHECK(cat::node_carrying(cat::b200)->name == cat::dgx_b200.name);
  CHECK(cat::node_carrying(cat::l4) == nullptr);
  // its own GPU: the published maximum stands (DGX H100 datasheet, ~10.2 kW)
  CHECK(cat::node_around(cat::dgx_h100, cat::h100_sxm).max_power.in(units::kW) == Approx(10.2));
  // another GPU: the chassis keeps its count and fabric, the published maximum no longer applies
  const node_spec swapped = cat::node_around(cat::dgx_h100, cat::l4);
  CHECK(swapped.gpu.name == cat::l4.name);
  CHECK(swapped.gpus == 8);
  CHECK(swapped.max_power.value == 0);
  CHECK(swapped.name == cat::dgx_h100.name);
}

TEST_CASE("GPU time given: GPU-hours x the book's cheapest price, energy and carbon",
          "[cost][report]") {
  // 1,000 H100 GPU-hours at the default book's cheapest on-demand H100 (RunPod, $22.32 per
  // 8-GPU hour, 2026-04-30); power from the node model: 698 W GPU + 4.6 kW / 8 host (DGX H100),
  // PUE 1.56, grid 0.385 kg/kWh (the CLI case cost.book).
  cost_report_inputs in = h100_run(0, 1000);
  in.pricing.embodied = true;
  const cost_report r = report_cost(in);
  CHECK(r.workload == cost_workload::usage);
  REQUIRE(r.run.priced);
  CHECK(usd(r.run.cost) == Approx(1000 * 22.32 / 8));
  REQUIRE(r.run.price_entry != nullptr);
  CHECK(r.run.price_entry->provider.view() == "runpod");
  CHECK(r.run.power_per_gpu.in(units::W) == Approx(698 + 4600.0 / 8));
  CHECK(r.run.facility_energy().in(units::kWh) == Approx(1000 * (0.698 + 4.6 / 8) * 1.56));
  CHECK(r.run.carbon.operational.in(units::kgCO2e) ==
        Approx(r.run.facility_energy().in(units::kWh) * 0.385));
  // embodied: (150 kg GPU + 2,500 kg / 8 server share) over 6 years at 85% use
  CHECK(r.run.carbon.embodied.in(units::kgCO2e) ==
        Approx(1000 * (150 + 2500.0 / 8) / (6 * 8760 * 0.85)));
  // no GPU count: nothing to rack, nothing compared, no memory verdict to give
  CHECK_FALSE(r.racks.has_value());
  CHECK(r.racks_error.empty());
  CHECK_FALSE(r.comparison.has_value());
  CHECK(r.fits());
}

TEST_CASE("Llama 2 70B as its model card gives it: 291.42 t CO2e, the price unknown",
          "[cost][report]") {
  // arXiv:2307.09288 Table 2: 1,720,320 A100-80GB GPU-hours at 400 W per GPU; with the LLaMA
  // paper's PUE 1.1 and 0.385 kg CO2e/kWh, 291.42 t (the CLI case cost.model_card).
  cost_report_inputs in;
  in.usage = {.gpu = cat::a100_sxm_80gb, .gpu_time = 1720320 * units::h};
  in.pricing.book = cat::default_prices;
  in.pricing.provider = "aws";  // the default book has no AWS A100 80GB price
  in.pricing.power_per_gpu = 400 * units::W;
  in.pricing.site.pue = 1.1;
  in.pricing.site.grid = 0.385 * units::kgCO2e_per_kWh;
  // a comparison needs a price: without one, an error naming the GPU
  in.compare.onprem = true;
  CHECK_THROWS_WITH(report_cost(in), Contains("A100"));
  in.compare = {};
  CHECK_THROWS_WITH(report_cost(in), Contains("A100"));  // require_price defaults to true
  in.pricing.require_price = false;
  const cost_report r = report_cost(in);
  CHECK_FALSE(r.run.priced);
  CHECK(r.run.carbon.operational.in(units::tCO2e) == Approx(291.42).margin(0.005));
  const nlohmann::json j = io::to_json(r);
  CHECK(j["cost_usd"].is_null());
  CHECK(j["price"]["usd_per_gpu_hour"].is_null());
  CHECK(j["power_source"] == "given");
  CHECK(j["embodied_carbon_kg"].is_null());
}

TEST_CASE("Cloud against owning with the sourced defaults, as test_cost.cpp works it by hand",
          "[cost][report][onprem]") {
  // 64 H100 as 8 DGX H100 at the catalog's $270,000 (SemiAnalysis, May 2023) against AWS
  // p5.48xlarge on demand at $6.88 per GPU-hour, in use 70% of the time: break-even utilization
  // 0.3173, owning cheaper after 12.91 months (the hand computation in test_cost.cpp).
  cost_report_inputs in = h100_run();
  in.pricing.price_per_gpu_hour = cat::aws_p5_48xlarge.on_demand;
  in.fleet_utilization = 0.7;
  in.compare.onprem = true;
  const cost_report r = report_cost(in);
  REQUIRE(r.comparison.has_value());
  const cloud_onprem_comparison& c = *r.comparison;
  CHECK(usd(c.onprem_capex) == Approx(2445120));
  CHECK(c.break_even_utilization == Approx(0.3173).margin(0.00005));
  CHECK(c.break_even_months == Approx(12.91).margin(0.005));
  CHECK(usd(c.cloud_month) == Approx(0.7 * 64 * hours_per_month * 6.88));
  // the run on owned GPUs: its GPU-hours at the owned cost per GPU-hour used
  REQUIRE(r.onprem_run_cost.has_value());
  CHECK(usd(*r.onprem_run_cost) == Approx(15360 * r.onprem_gpu_hour.in(units::usd_per_h)));
  // the cumulative costs, month 0 to 36, cross at the break-even month
  const std::vector<cumulative_point> pts = cumulative_costs(c);
  REQUIRE(pts.size() == 37);
  CHECK(usd(pts.front().cloud) == 0);
  CHECK(usd(pts.front().onprem) == Approx(2445120));
  CHECK(usd(pts[12].cloud) < usd(pts[12].onprem));
  CHECK(usd(pts[13].cloud) > usd(pts[13].onprem));
}

TEST_CASE("Cloud against owning at $4.916: the CLI case cost.compare", "[cost][report][onprem]") {
  // 64 H100s used 70% of the time (kernel duty and fleet use) at $4.916 per GPU-hour (an AWS
  // capacity block, Dec 2024): break-even utilization 0.4464, capex 8 x 270,000 x 1.132.
  cost_report_inputs in = h100_run();
  in.pricing.price_per_gpu_hour = 4.916 * units::usd_per_h;
  in.pricing.utilization = 0.7;
  in.fleet_utilization = 0.7;
  in.compare.cloud = true;
  const cost_report r = report_cost(in);
  REQUIRE(r.comparison.has_value());
  CHECK(r.comparison->break_even_utilization == Approx(0.4464).margin(0.0001));
  CHECK(usd(r.comparison->onprem_capex) == Approx(8 * 270000 * 1.132));
  CHECK(usd(r.comparison->onprem.maintenance) == Approx(8 * 270000 * 1.132 * 0.06 / 12));
  CHECK(usd(r.run.cost) == Approx(15360 * 4.916));
  const nlohmann::json j = io::to_json(r);
  CHECK(j["break_even_utilization"].get<double>() == Approx(0.4464).margin(0.0001));
  CHECK(j["comparison"]["cumulative"].size() == 37);
  CHECK(j["price"]["source"] == "run_cost_inputs.price_per_gpu_hour");
  // the owned servers' costs a price book gives replace the catalog's
  onprem_costs book = cat::onprem_costs_for(cat::dgx_h100);
  book.server_price = 2 * book.server_price;
  in.owned_costs = book;
  const cost_report dear = report_cost(in);
  CHECK(usd(dear.comparison->onprem_capex) == Approx(2 * 8 * 270000 * 1.132));
  // a commitment bills every hour: no break-even utilization (null in the JSON)
  in.owned_costs.reset();
  in.pricing.term = price_term::commit_1yr;
  CHECK(io::to_json(report_cost(in))["break_even_utilization"].is_null());
}

TEST_CASE("Hybrid: all cloud is the demand's GPU-hours x price", "[cost][report][hybrid]") {
  const std::vector<double> demand = {64, 64,  64,  64,  64,  64,  64,  64,  64,  256, 256, 256,
                                      256, 256, 320, 256, 256, 256, 64, 64,  64,  64,  64,  64};
  cost_report_inputs in = h100_run(0, 1000);
  in.pricing.price_per_gpu_hour = 4.916 * units::usd_per_h;
  in.compare.hybrid = true;
  in.demand = demand;
  const cost_report r = report_cost(in);
  REQUIRE(r.hybrid.has_value());
  const double gpu_hours = std::accumulate(demand.begin(), demand.end(), 0.0);
  CHECK(r.hybrid->hours == 24);
  CHECK(r.hybrid->peak_gpus == 320);
  CHECK(usd(r.hybrid->all_cloud) == Approx(gpu_hours * 4.916));
  CHECK(r.hybrid->hybrid <= r.hybrid->all_cloud);
  CHECK(r.hybrid->hybrid <= r.hybrid->all_onprem);
  CHECK_FALSE(r.comparison.has_value());  // hybrid alone was asked
  // hybrid without a demand profile, or a profile without hybrid: an error naming the field
  in.demand.clear();
  CHECK_THROWS_WITH(report_cost(in), Contains("cost_report_inputs.demand"));
  in.compare.hybrid = false;
  in.demand = demand;
  CHECK_THROWS_WITH(report_cost(in), Contains("cost_report_inputs.demand"));
}

TEST_CASE("Racks: 64 H100 are 8 DGX H100 at 10.2 kW, two to a 30 kW rack", "[cost][report][power]") {
  // DGX H100 datasheet: ~10.2 kW maximum; the default site: 30 kW racks, air with containment,
  // PUE 1.56 (the CLI case cost.facility).
  const cost_report r = report_cost(h100_run(64, 640));
  REQUIRE(r.racks.has_value());
  CHECK(r.rack_node.name == cat::dgx_h100.name);
  CHECK_FALSE(r.rack_gpu_swapped);
  CHECK(r.racks->nodes == 8);
  CHECK(r.racks->node_power.in(units::kW) == Approx(10.2));
  CHECK(r.racks->nodes_per_rack == 2);
  CHECK(r.racks->racks == 4);
  CHECK(r.racks->it_power.in(units::kW) == Approx(81.6));
  CHECK(r.racks->facility_power.in(units::kW) == Approx(81.6 * 1.56));
  CHECK(io::to_json(r)["facility"]["node_power_basis"] == "published_maximum");

  // a node over the rack budget: not placed, said in the library's names, the rest stands
  cost_report_inputs small = h100_run(64, 640);
  small.pricing.site.rack_budget = 5 * units::kW;
  const cost_report refused = report_cost(small);
  CHECK_FALSE(refused.racks.has_value());
  CHECK(refused.racks_refused == rack_refusal::rack_budget);
  CHECK(refused.racks_error ==
        "one DGX-H100 draws 10.2 kW, more than the 5.0 kW rack budget (site_spec.rack_budget)");
  CHECK(io::to_json(refused)["facility"]["error"] == refused.racks_error);
  CHECK(refused.run.priced);

  // another GPU in the chassis: the published maximum no longer applies, the model's does
  cost_report_inputs l4 = h100_run(16, 160);
  l4.usage.gpu = cat::l4;
  l4.pricing.require_price = false;
  const cost_report swapped = report_cost(l4);
  REQUIRE(swapped.racks.has_value());
  CHECK(swapped.rack_gpu_swapped);
  CHECK(swapped.rack_node.gpu.name == cat::l4.name);
  CHECK(swapped.racks->node_power.in(units::kW) < 10.2);
  CHECK(io::to_json(swapped)["facility"]["node_power_basis"] == "modelled_maximum");
}

TEST_CASE("A modelled training run: the step-time model's GPU-hours x price, and its verdict",
          "[cost][report][training]") {
  // Llama 3.1 8B on one DGX H100 (DP 8, ZeRO-1, 8,192-token sequences, 64 per step), 1e10 tokens.
  training_plan p;
  p.model = cat::llama31_8b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 8, .zero = 1};
  p.config.micro_batch = 1;
  p.config.seq = 8192;
  p.config.global_batch = 64;
  cost_report_inputs in;
  in.training = training_workload{.plan = p, .tokens = 1e10 * units::token};
  in.pricing.book = cat::default_prices;
  in.pricing.price_per_gpu_hour = 2.5 * units::usd_per_h;
  in.pricing.node = cat::dgx_b200;  // the plan's node is the one the run ran on
  const cost_report r = report_cost(in);
  const modelled_training_run m = modelled_training(p, 1e10 * units::token);
  CHECK(r.workload == cost_workload::train);
  REQUIRE(r.training.has_value());
  CHECK(r.run.usage.gpus == 8);
  CHECK(r.run.usage.gpu_time.in(units::h) == Approx(m.usage.gpu_time.in(units::h)));
  CHECK(usd(r.run.cost) == Approx(m.usage.gpu_time.in(units::h) * 2.5));
  CHECK(r.inputs.pricing.node.name == cat::dgx_h100.name);
  CHECK(r.racks->nodes == 1);
  CHECK(r.model_name() == std::string(cat::llama31_8b.name.view()));
  // the memory verdict is the fit's (plan/fit.hpp training_verdict): without recompute the
  // activations of 8,192-token sequences do not fit an 80 GB H100; with full recompute they do
  const training_memory_verdict v = training_verdict(p.model, p.node.gpu, p.layout, p.config);
  REQUIRE(r.training_memory.has_value());
  CHECK(r.training_memory->per_gpu.total().in(units::B) == Approx(v.per_gpu.total().in(units::B)));
  CHECK_FALSE(r.fits());
  const nlohmann::json j = io::to_json(r);
  CHECK(j["workload"] == "train");
  CHECK(j["training"]["nodes"] == 1);
  CHECK(j["training"]["reliability"]["enabled"] == true);
  CHECK(j["fits"] == false);
  // whole bytes (io::bytes_value rounds)
  CHECK(j["per_gpu_bytes"].get<double>() == std::round(v.per_gpu.total().in(units::B)));
  in.training->plan.config.recompute = recompute_mode::full;
  const cost_report full = report_cost(in);
  CHECK(full.fits());
  CHECK(io::to_json(full)["fits"] == true);
  // recomputing the forward costs time: more GPU-hours, more money
  CHECK(full.run.cost > r.run.cost);
  // training and serving at once: an error naming both
  in.serving = serving_plan{};
  CHECK_THROWS_WITH(report_cost(in), Contains("training or serving"));
}

TEST_CASE("A serving deployment: a month of its GPUs, per million tokens", "[cost][report][serving]") {
  // Llama 3.1 70B, two replicas of TP 4 on DGX H100, 1,024 + 256 tokens at concurrency 32.
  serving_plan p;
  p.model = cat::llama31_70b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 2, .tp = 4};
  p.mix = request_mix::fixed(1024, 256);
  p.concurrency = 32;
  cost_report_inputs in;
  in.serving = p;
  in.pricing.book = cat::default_prices;
  in.pricing.price_per_gpu_hour = 2.5 * units::usd_per_h;
  const cost_report r = report_cost(in);
  CHECK(r.workload == cost_workload::serve);
  REQUIRE(r.serving.has_value());
  // 8 GPUs x 730 h x $2.5
  CHECK(r.run.usage.gpus == 8);
  CHECK(usd(r.run.cost) == Approx(8 * hours_per_month * 2.5));
  const double per_gpu = serve(p).output_tokens_per_s_per_gpu.in(units::tokens_per_s);
  CHECK(r.serving->cost_per_token().in(units::usd_per_Mtoken) ==
        Approx(2.5 / (per_gpu * 3600) * 1e6));
  REQUIRE(r.serving_memory.has_value());
  CHECK(r.fits());
  CHECK(r.racks->nodes == 1);
  const nlohmann::json j = io::to_json(r);
  CHECK(j["workload"] == "serve");
  CHECK(j["serving"]["input_len"] == 1024);
  CHECK(j["serving"]["output_len"] == 256);
  CHECK(j["cost_usd_per_month"].get<double>() == Approx(8 * hours_per_month * 2.5));
}

TEST_CASE("Over a horizon: the run on owned GPUs is its share of the owned total",
          "[cost][report][horizon]") {
  // 64 H100 busy 60% of 36 months (issue 26): the run is the fleet's busy GPU-hours, so renting
  // it costs the cloud total and owning it the owned total; the JSON's monthly lines add up.
  const double busy = 0.6 * 64 * 36 * hours_per_month;
  cost_report_inputs in = h100_run(64, busy);
  in.pricing.price_per_gpu_hour = 4.916 * units::usd_per_h;
  in.fleet_utilization = 0.6;
  in.horizon_months = 36;
  in.compare.onprem = true;
  const cost_report r = report_cost(in);
  REQUIRE(r.horizon.has_value());
  CHECK(r.horizon->months == 36);
  CHECK(r.comparison->horizon_months == 36);
  CHECK(usd(r.run.cost) == Approx(usd(r.horizon->cloud_total)));
  REQUIRE(r.onprem_run_cost.has_value());
  CHECK(usd(*r.onprem_run_cost) == Approx(usd(r.horizon->owned_total)));
  // half the run: half the owned total
  const cost_report half = report_cost([&] {
    cost_report_inputs h = in;
    h.usage.gpu_time = 0.5 * busy * units::h;
    return h;
  }());
  CHECK(usd(*half.onprem_run_cost) == Approx(0.5 * usd(r.horizon->owned_total)));
  // a run longer than the fleet's busy hours has no share to price
  cost_report_inputs over = in;
  over.usage.gpu_time = 2 * busy * units::h;
  CHECK_FALSE(report_cost(over).onprem_run_cost.has_value());
  const nlohmann::json j = io::to_json(r);
  const nlohmann::json& mo = j["horizon"]["monthly"];
  REQUIRE(mo.size() == 37);
  double owned = 0;
  for (const nlohmann::json& m : mo) owned += m["owned_usd"].get<double>();
  CHECK(owned == Approx(j["horizon"]["owned_total_usd"].get<double>()));
  // bad inputs name the field
  cost_report_inputs bad = in;
  bad.hybrid_owned_fraction = std::nan("");
  CHECK_THROWS_WITH(report_cost(bad), Contains("cost_report_inputs.hybrid_owned_fraction"));
  bad = in;
  bad.fleet_duty = 1.5;
  CHECK_THROWS_WITH(report_cost(bad), Contains("cost_report_inputs.fleet_duty"));
  bad = in;
  bad.finance.term_months = 0;
  CHECK_THROWS_WITH(report_cost(bad), Contains("owned_finance.term_months"));
}
