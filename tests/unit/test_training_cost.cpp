// A modelled training run priced: the step-time model's GPU-hours times the price is the cost,
// and the model's wall time times the power is the energy. The expected figures are recomputed
// here from the step-time model's own outputs and the published DGX H100 figures, so a change that
// adds a factor to the pricing of a modelled run (or loses the GPU count) fails here.
#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/plan/training_cost.hpp>

#include "../catch.hpp"

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {
training_plan llama8b_one_dgx() {
  training_plan p;
  p.model = cat::llama31_8b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 8, .zero = 1};
  p.config.micro_batch = 1;
  p.config.seq = 8192;
  p.config.global_batch = 64;
  return p;
}
}  // namespace

TEST_CASE("A modelled run uses every GPU of the layout for its reserved wall time",
          "[cost][training]") {
  const training_plan p = llama8b_one_dgx();
  const token_count tokens = 1e10 * units::token;
  const modelled_training_run m = modelled_training(p, tokens);
  CHECK(m.usage.gpus == 8);
  CHECK(m.nodes == 1);
  CHECK(m.usage.gpu.name == cat::h100_sxm.name);
  CHECK(m.wall.in(units::s) == Approx(time_to_train(p, tokens).in(units::s)));
  // the reserved time is the steady state over the reliability model's ETTR (on by default)
  CHECK(m.reserved_wall.in(units::s) == Approx(m.wall.in(units::s) / m.reliability.ettr));
  CHECK(m.reliability.ettr < 1.0);
  CHECK(m.usage.gpu_time.in(units::h) == Approx(8 * m.reserved_wall.in(units::h)));
  // without it, the step model's GPU-hours
  CHECK(modelled_training(p, tokens, {.enabled = false}).usage.gpu_time.in(units::h) ==
        Approx(gpu_time_to_train(p, tokens).in(units::h)));
  // whole steps: the wall time is ceil(tokens / (64 x 8192)) steps of the step time
  CHECK(m.wall.in(units::s) == Approx(std::ceil(1e10 / (64.0 * 8192)) * m.step.in(units::s)));
  // the throughput behind it is the step model's
  CHECK(m.tokens_per_s.in(units::tokens_per_s) ==
        Approx(64.0 * 8192 / m.step.in(units::s)));
}

TEST_CASE("GPU-hours x price is the cost; time x power x PUE is the energy", "[cost][training]") {
  const training_plan p = llama8b_one_dgx();
  const token_count tokens = 1e10 * units::token;
  const modelled_training_run m = modelled_training(p, tokens);
  const double gpu_hours = m.usage.gpu_time.in(units::h);  // reserved: steady state / ETTR
  REQUIRE(gpu_hours > gpu_time_to_train(p, tokens).in(units::h));

  SECTION("a given price and all-in power") {
    const run_cost_inputs in{.price_per_gpu_hour = 2.5 * units::usd_per_h,
                             .power_per_gpu = 1000 * units::W,
                             .site = {.pue = 1.2, .grid = 0.4 * units::kgCO2e_per_kWh}};
    const run_cost_report r = price_training_run(p, tokens, in);
    CHECK(r.cost.in(units::usd) == Approx(gpu_hours * 2.5));
    CHECK(r.facility_energy().in(units::kWh) == Approx(gpu_hours * 1.0 * 1.2));
    CHECK(r.carbon.operational.in(units::kgCO2e) == Approx(gpu_hours * 1.0 * 1.2 * 0.4));
  }
  SECTION("the book's price and the DGX H100 power model") {
    // DGX H100 at full use: 8 x 698 W GPUs + 4.6 kW of host (10.2 kW published maximum), the
    // same per-GPU figure the cost tests check; PUE 1.56 is the book's default site.
    const run_cost_inputs in{.book = cat::default_prices, .node = cat::dgx_a100};
    const run_cost_report r = price_training_run(p, tokens, in);
    REQUIRE(r.price_entry != nullptr);
    CHECK(r.cost.in(units::usd) == Approx(gpu_hours * r.price.in(units::usd_per_h)));
    // the run's node (DGX H100) replaces the node given in the inputs
    CHECK(r.power_per_gpu.in(units::W) == Approx(698 + 4600.0 / 8));
    CHECK(r.facility_energy().in(units::kWh) ==
          Approx(m.reserved_wall.in(units::h) * (8 * 0.698 + 4.6) * 1.56));
  }
}
