// Compile-time cost, energy and power: every check here is a static_assert, so building this file
// is the test. The same functions the CLI calls, evaluated by the compiler.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/catalog/sites.hpp>  // not in the umbrella (dated market data)
#include <gpuplan/catalog/prices.hpp>  // not in the umbrella (dated market data)

namespace {

using namespace gpuplan;
namespace cat = gpuplan::catalog;

// A budget the compiler checks: 256 H100s for 20 days (122,880 GPU-hours) at the cheapest
// on-demand H100 price in the default book stays under $2M.
constexpr run_usage plan = run_usage::of(cat::h100_sxm, 256, 20 * units::d);
static_assert(run_cost(plan, cat::default_prices) < 2'000'000 * units::usd);
static_assert(plan.gpu_time == 122880 * units::h);
// The cheapest H100 on-demand entry is RunPod's $22.32 / 8 = $2.79 per GPU-hour.
static_assert(cloud_rate(cat::default_prices, cat::h100_sxm, price_term::on_demand) ==
              22.32 / 8 * units::usd_per_h);
// Spot: only the Vast.ai floor lists one for the H100.
static_assert(cheapest_price(cat::default_prices, cat::h100_sxm, price_term::spot)->provider ==
              std::string_view("vast.ai"));
// A provider filter, and a GPU name matched through its aliases ("H100 SXM5" folds to the same).
static_assert(cloud_rate(cat::default_prices, cat::h100_sxm, price_term::on_demand, "AWS") ==
              39.33 / 8 * units::usd_per_h);
static_assert(cheapest_price(cat::default_prices, cat::mi300x, price_term::on_demand) == nullptr);

// The B200 (catalog name B200-SXM-180GB) is priced: CoreWeave's HGX B200, $68.80 / 8 per
// GPU-hour (February 2026), is the cheapest on demand; AWS's p6-b200.48xlarge the only spot.
static_assert(cheapest_price(cat::default_prices, cat::b200, price_term::on_demand)->provider ==
              std::string_view("coreweave"));
static_assert(cloud_rate(cat::default_prices, cat::b200, price_term::spot) ==
              37.872 / 8 * units::usd_per_h);
// AWS p5.48xlarge Reserved Instances (2025-11-30): 3-year < 1-year < on demand.
static_assert(cat::aws_p5_48xlarge_reserved_spot.commit_3yr <
              cat::aws_p5_48xlarge_reserved_spot.commit_1yr);
static_assert(cat::aws_p5_48xlarge_reserved_spot.commit_1yr < cat::aws_p5_48xlarge.on_demand);

// Every entry of the default book is valid and dated no later than the book.
constexpr bool book_valid() {
  for (const cloud_price& p : cat::default_prices) {
    p.validate();
    if (cat::price_book_date < p.date) return false;
  }
  return true;
}
static_assert(book_valid());

// The GPU power model at its calibration points (H100 SXM, 200 ms duty cycles).
constexpr gpu_power_assumptions duty{.burst_period = 200 * units::ms};
static_assert(gpu_power(cat::h100_sxm, 0.0, duty) == 130 * units::W);
static_assert(gpu_power(cat::h100_sxm, 1.0, duty) == 698 * units::W);
static_assert(gpu_deep_idle_power(cat::h100_sxm) == 75 * units::W);

// Model-card energy: 1,000 GPU-hours at 700 W and PUE 1.1 is 770 kWh.
static_assert(abs(run_energy(1000 * units::h, 700 * units::W, 1.1) - 770 * units::kWh) <
              1 * units::Wh);

// The DGX H100's published 10.2 kW; two to a 30 kW rack with air containment.
static_assert(planned_node_power(cat::dgx_h100) == 10.2 * units::kW);
static_assert(plan_racks(cat::dgx_h100, 32, site_spec{}).nodes_per_rack == 2);
static_assert(plan_racks(cat::dgx_h100, 32, site_spec{}).racks == 16);
static_assert(cooling_needed(40.8 * units::kW) == cooling_kind::liquid);

// Owning 64 H100s at the default book's list price and full use pays back within a year.
constexpr onprem_fleet fleet{.node = cat::dgx_h100, .gpus = 64};
static_assert(compare_cloud_onprem(fleet, 98.32 / 8 * units::usd_per_h, price_term::on_demand, 1.0)
                  .break_even_months < 12.0);

}  // namespace

namespace {
using namespace gpuplan;
namespace cat = gpuplan::catalog;

// An emissions budget the compiler checks: the same 122,880 H100-hours on DGX H100s in France
// (56 g/kWh) stay under 20 t CO2e; on the US average (385 g/kWh) they do not.
constexpr run_cost_inputs in_france{.book = cat::default_prices,
                                    .site = {.grid = cat::grid_france.intensity}};
static_assert(price_run(plan, in_france).carbon.operational < 20 * units::tCO2e);
static_assert(!(price_run(plan, {.book = cat::default_prices}).carbon.operational < 20 * units::tCO2e));
// Llama 2 70B's published 291.42 t from its model-card inputs.
constexpr run_cost_report llama2_70b =
    price_run({.gpu = cat::a100_sxm_80gb, .gpu_time = 1720320 * units::h},
              {.price_per_gpu_hour = 1 * units::usd_per_h,
               .power_per_gpu = 400 * units::W,
               .site = {.pue = 1.1, .grid = cat::grid_us.intensity}});
static_assert(llama2_70b.carbon.operational > 291.42 * units::tCO2e);
static_assert(llama2_70b.carbon.operational < 291.43 * units::tCO2e);
}  // namespace
