// The GPU, node and run energy models. The GPU power model is checked against the H100 power
// measurement it was calibrated on (one H100 SXM 80GB HBM3, 700 W limit, driver 580.159.04, bf16
// 8192^3 products in 200 ms duty cycles, nvidia-smi power.draw every 500 ms, phase means; measured
// 2026-11-23): idle with clocks up 126 W and 134 W, 24% utilization 326 W, 64% 548 W, 99% 698 W,
// 75 W before any work.
#include <gpuplan/gpuplan.hpp>

#include "../catch.hpp"

using namespace gpuplan;
using Catch::Matchers::Contains;
namespace cat = gpuplan::catalog;

namespace {
constexpr gpu_power_assumptions duty_cycle{.burst_period = 200 * units::ms};
double watts(power p) { return p.in(units::W); }
}  // namespace

TEST_CASE("H100 draw against utilization, 200 ms duty cycles", "[energy][calibration]") {
  // Calibration points: within 1% (24%: -0.9%, 64%: +0.4%, 99%: 0%). The two partial-duty
  // phases set the 20 ms hold; these checks fail if the mechanism or a default changes.
  CHECK(watts(gpu_power(cat::h100_sxm, 0.24, duty_cycle)) == Approx(326).epsilon(0.01));
  CHECK(watts(gpu_power(cat::h100_sxm, 0.64, duty_cycle)) == Approx(548).epsilon(0.01));
  CHECK(watts(gpu_power(cat::h100_sxm, 0.99, duty_cycle)) == Approx(698).epsilon(0.002));
  // Idle between the two measured idle phases (126 W, 134 W), deep idle at the 75 W reading.
  CHECK(watts(gpu_power(cat::h100_sxm, 0.0, duty_cycle)) >= 126);
  CHECK(watts(gpu_power(cat::h100_sxm, 0.0, duty_cycle)) <= 134);
  CHECK(watts(gpu_deep_idle_power(cat::h100_sxm)) == Approx(75));
}

TEST_CASE("Without the hold a straight line misses the measurement", "[energy][calibration]") {
  // The mechanism matters: a linear idle-to-busy line (no hold) is 18% low at 24% utilization.
  const gpu_power_assumptions linear{.hold_after_burst = 0 * units::ms,
                                     .burst_period = 200 * units::ms};
  CHECK(watts(gpu_power(cat::h100_sxm, 0.24, linear)) < 0.85 * 326);
  // Long phases (no burst period): the hold does not apply.
  CHECK(watts(gpu_power(cat::h100_sxm, 0.5)) == Approx(130 + 0.5 * (698 - 130)));
}

TEST_CASE("The model scales with TDP for other GPUs", "[energy]") {
  // A100 SXM, 400 W: busy 0.997 x 400 W, idle 0.186 x 400 W.
  CHECK(watts(gpu_power(cat::a100_sxm_80gb, 1.0)) == Approx(400 * 698.0 / 700.0));
  CHECK(watts(gpu_power(cat::a100_sxm_80gb, 0.0)) == Approx(400 * 130.0 / 700.0));
}

TEST_CASE("Node power: GPUs plus host from the published maximum", "[energy][power]") {
  // DGX H100: 10.2 kW maximum, 8 x 700 W of GPUs, so 4.6 kW of host.
  CHECK(host_power(cat::dgx_h100).in(units::kW) == Approx(4.6));
  CHECK(node_max_power(cat::dgx_h100).in(units::kW) == Approx(10.2));
  const node_power_breakdown busy = node_power(cat::dgx_h100, 1.0);
  CHECK(busy.gpus.in(units::W) == Approx(8 * 698));
  CHECK(busy.total().in(units::W) == Approx(8 * 698 + 4600));
  // A node without a published maximum: host = share x GPUs' TDP.
  node_spec bare = cat::hgx_h200;
  CHECK(host_power(bare).in(units::W) == Approx(4.6 / 5.6 * 8 * 700));
  // Network and storage shares are added when set.
  const node_power_assumptions extra{.network_per_node = 300 * units::W,
                                     .storage_per_node = 100 * units::W};
  CHECK(node_power(cat::dgx_h100, 1.0, extra).total().in(units::W) == Approx(8 * 698 + 4600 + 400));
  CHECK(per_gpu_power(cat::dgx_h100, 1.0).in(units::W) == Approx((8 * 698 + 4600) / 8.0));
}

TEST_CASE("Run energy and its breakdown", "[energy]") {
  // 8,000 GPU-hours on DGX H100s (1,000 node-hours) at full use, PUE 1.2.
  const site_spec site{.pue = 1.2};
  const run_energy_breakdown e = run_energy(cat::dgx_h100, 8000 * units::h, 1.0, site);
  CHECK(e.gpus.in(units::kWh) == Approx(8000 * 0.698));
  CHECK(e.host.in(units::kWh) == Approx(1000 * 4.6));
  CHECK(e.facility_overhead.in(units::kWh) == Approx(0.2 * (8000 * 0.698 + 4600)));
  CHECK(e.total().in(units::kWh) == Approx(1.2 * (8000 * 0.698 + 4600)));
  // The model-card formula.
  CHECK(run_energy(1000 * units::h, 400 * units::W, 1.1).in(units::kWh) == Approx(440));
}

TEST_CASE("Energy per token and tokens per joule", "[energy]") {
  // 1 kW all-in per GPU serving 2,500 tok/s at PUE 1.2: 0.48 J per token, 133 Wh per Mtok.
  const auto per_token = energy_per_token(1000 * units::W, 2500 * units::tokens_per_s, 1.2);
  CHECK((per_token * (1 * units::token)).in(units::J) == Approx(0.48));
  CHECK((per_token * (1 * units::Mtoken)).in(units::Wh) == Approx(133.333).epsilon(1e-4));
  const token_efficiency eff = tokens_per_joule(1000 * units::W, 2500 * units::tokens_per_s, 1.2);
  CHECK((eff * (1 * units::J)).in(units::token) == Approx(1 / 0.48));
}

TEST_CASE("Bad input names the field", "[energy][errors]") {
  CHECK_THROWS_WITH(gpu_power(cat::h100_sxm, 1.5), Contains("utilization"));
  CHECK_THROWS_WITH(gpu_power(cat::h100_sxm, 0.5, {.idle_fraction = 2.0}),
                    Contains("idle_fraction"));
  CHECK_THROWS_WITH(run_energy(1 * units::h, 1 * units::W, 0.9), Contains("pue"));
  CHECK_THROWS_WITH(run_energy(cat::dgx_h100, 1 * units::h, 1.0, site_spec{.pue = 0.5}),
                    Contains("site_spec.pue"));
  gpu_spec no_tdp = cat::h100_sxm;
  no_tdp.tdp = {};
  CHECK_THROWS_WITH(gpu_power(no_tdp, 0.5), Contains("gpu_spec.tdp"));
}
