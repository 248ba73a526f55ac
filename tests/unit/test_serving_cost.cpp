// A serving deployment priced: the serving model's operating point (output tokens/s per GPU) turns
// the price per GPU-hour into a price per token, the power per GPU into energy per token, and the
// fleet held for a month into a monthly bill. The expected figures are recomputed by hand from the
// operating point and the inputs, so a change that adds a factor to the pricing, loses replicas or
// GPUs per replica, or prices tokens against the wrong rate fails here.
#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/plan/serving_cost.hpp>

#include "../catch.hpp"

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {
serving_plan llama70b_two_replicas() {
  serving_plan p;
  p.model = cat::llama31_70b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 2, .tp = 4};
  p.mix = request_mix::fixed(1024, 256);
  p.concurrency = 32;
  return p;
}
}  // namespace

TEST_CASE("A serving deployment holds replicas x tp x pp GPUs every hour of a month",
          "[cost][serving]") {
  const serving_plan p = llama70b_two_replicas();
  const run_cost_inputs in{.price_per_gpu_hour = 2.5 * units::usd_per_h,
                           .power_per_gpu = 1000 * units::W,
                           .site = {.pue = 1.2, .grid = 0.4 * units::kgCO2e_per_kWh}};
  const serving_cost_report r = price_serving(p, in);
  const serving_point pt = serve(p);
  const double per_gpu = pt.output_tokens_per_s_per_gpu.in(units::tokens_per_s);
  REQUIRE(per_gpu > 0);
  CHECK(r.replicas == 2);
  CHECK(r.gpus == 8);
  CHECK(r.month.usage.gpus == 8);
  // A month is 730 h (365/12 days): 8 GPUs x 730 h x $2.5.
  CHECK(r.period.in(units::h) == Approx(730));
  CHECK(r.month.usage.gpu_time.in(units::h) == Approx(8 * 730.0));
  CHECK(r.month.cost.in(units::usd) == Approx(8 * 730 * 2.5));
  // The month's energy: GPU-hours x 1 kW x PUE 1.2; carbon x 0.4 kg/kWh.
  CHECK(r.month.facility_energy().in(units::kWh) == Approx(8 * 730 * 1.0 * 1.2));
  CHECK(r.month.carbon.operational.in(units::kgCO2e) == Approx(8 * 730 * 1.2 * 0.4));
  // The deployment's tokens are the per-GPU rate times its 8 GPUs, for the month.
  CHECK(r.output_tokens.in(units::token) == Approx(per_gpu * 8 * 730 * 3600));
  CHECK(r.requests.in(units::request) ==
        Approx(pt.requests_per_s.in(units::requests_per_s) * 730 * 3600));

  // Per million output tokens, by hand: $2.5 / 3600 s / per_gpu x 1e6.
  CHECK(r.cost_per_token().in(units::usd_per_Mtoken) == Approx(2.5 / 3600 / per_gpu * 1e6));
  // The same as the models' one-GPU formulas (models/cost.hpp, models/energy.hpp).
  CHECK(r.cost_per_token().in(units::usd_per_Mtoken) ==
        Approx(cost_per_token(2.5 * units::usd_per_h, pt.output_tokens_per_s_per_gpu)
                   .in(units::usd_per_Mtoken)));
  // Energy: 1000 W x 1.2 / per_gpu J per token; 1e6 tokens in kWh.
  const double joules_per_token = 1000 * 1.2 / per_gpu;
  CHECK(r.energy_per_token().in(units::J / units::token) == Approx(joules_per_token));
  CHECK(r.energy_per_token().in(units::kWh / units::Mtoken) ==
        Approx(joules_per_token * 1e6 / 3.6e6));
  CHECK(r.tokens_per_joule().in(units::token / units::J) == Approx(1 / joules_per_token));
  CHECK(r.tokens_per_joule().in(units::token / units::J) ==
        Approx(tokens_per_joule(1000 * units::W, pt.output_tokens_per_s_per_gpu, 1.2)
                   .in(units::token / units::J)));
  CHECK(r.carbon_per_token().in(units::kgCO2e / units::Mtoken) ==
        Approx(joules_per_token * 1e6 / 3.6e6 * 0.4));
  // Per request: the month's cost over the month's requests.
  CHECK(r.cost_per_request().in(units::usd / units::request) ==
        Approx(2.5 * 8 / 3600 / pt.requests_per_s.in(units::requests_per_s)));
}

TEST_CASE("Serving energy from the node power model: the plan's node, at full kernel duty",
          "[cost][serving]") {
  serving_plan p = llama70b_two_replicas();
  // The book's price and the DGX H100 power model: 698 W per GPU at full duty plus a 4.6 kW host
  // shared by 8 GPUs (energy.md), PUE 1.56 the default site's. The plan's node replaces in.node.
  const run_cost_inputs in{.book = cat::default_prices, .node = cat::dgx_a100};
  const serving_cost_report r = price_serving(p, in);
  REQUIRE(r.month.price_entry != nullptr);
  const double per_gpu = r.point.output_tokens_per_s_per_gpu.in(units::tokens_per_s);
  CHECK(r.month.power_per_gpu.in(units::W) == Approx(698 + 4600.0 / 8));
  CHECK(r.energy_per_token().in(units::J / units::token) ==
        Approx((698 + 4600.0 / 8) * 1.56 / per_gpu));
  CHECK(r.cost_per_token().in(units::usd_per_Mtoken) ==
        Approx(r.month.price.in(units::usd_per_h) / 3600 / per_gpu * 1e6));

  SECTION("more load, more tokens per GPU: cheaper and more efficient tokens") {
    serving_plan light = p;
    light.concurrency = 1;
    const serving_cost_report l = price_serving(light, in);
    CHECK(l.cost_per_token() > r.cost_per_token());
    CHECK(l.tokens_per_joule() < r.tokens_per_joule());
    CHECK(l.month.cost.in(units::usd) == Approx(r.month.cost.in(units::usd)));
  }
  SECTION("an arrival rate sets the operating point") {
    serving_plan rated = p;
    rated.rate = 2.0 * units::request / units::s;
    const serving_cost_report q = price_serving(rated, in);
    CHECK(q.point.requests_per_s.in(units::requests_per_s) == Approx(2.0).epsilon(1e-6));
    // 256 output tokens per request
    CHECK(q.point.output_tokens_per_s.in(units::tokens_per_s) == Approx(512).epsilon(1e-6));
    CHECK(q.cost_per_request().in(units::usd / units::request) ==
          Approx(q.month.price.in(units::usd_per_h) * 8 / 3600 / 2.0).epsilon(1e-6));
  }
}

TEST_CASE("A book without the GPU's price: energy and carbon, cost unknown", "[cost][serving]") {
  serving_plan p = llama70b_two_replicas();
  run_cost_inputs in{.book = cat::default_prices, .provider = "nobody"};
  CHECK_THROWS_AS(price_serving(p, in), invalid_input);
  in.require_price = false;
  const serving_cost_report r = price_serving(p, in);
  CHECK_FALSE(r.month.priced);
  CHECK(r.cost_per_token().value == 0.0);
  CHECK(r.tokens_per_joule().value > 0.0);
}
