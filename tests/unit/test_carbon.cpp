// Carbon: units, grid regions, operational and embodied carbon, and bad input.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/catalog/sites.hpp>  // not in the umbrella (dated market data)

#include "../catch.hpp"

using namespace gpuplan;
using Catch::Matchers::Contains;
namespace cat = gpuplan::catalog;

TEST_CASE("Carbon units and energy x intensity", "[carbon]") {
  CHECK((1 * units::tCO2e).in(units::kgCO2e) == Approx(1000));
  CHECK((385 * units::gCO2e_per_kWh).in(units::kgCO2e_per_kWh) == Approx(0.385));
  // 1 MWh at 385 g/kWh: 385 kg.
  CHECK(((1 * units::MWh) * (385 * units::gCO2e_per_kWh)).in(units::kgCO2e) == Approx(385));
  CHECK((385 * units::kgCO2e / (1 * units::MWh)).in(units::gCO2e_per_kWh) == Approx(385));
}

TEST_CASE("Grid regions: valid, dated, found by name or alias", "[carbon][catalog]") {
  for (const grid_region& g : cat::all_grids) {
    INFO(g.name.view());
    CHECK_NOTHROW(g.validate());
    CHECK(g.year >= 2020);
  }
  REQUIRE(cat::find_grid("FR") != nullptr);
  CHECK(cat::find_grid("FR")->name == std::string_view("france"));
  CHECK(cat::find_grid("united states")->name == cat::grid_us.name);
  CHECK(cat::find_grid("atlantis") == nullptr);
  CHECK(cat::find_grid("") == nullptr);
}

TEST_CASE("Embodied carbon per GPU-hour and its inputs", "[carbon]") {
  // (150 + 2500 / 8) kg over 6 years x 85% of 8,760 h: 10.35 g per GPU-hour.
  CHECK(embodied_per_gpu_hour().in(units::gCO2e) ==
        Approx((150 + 2500 / 8.0) * 1000 / (6 * 8760 * 0.85)));
  // A longer life, fewer grams.
  CHECK(embodied_per_gpu_hour({.lifetime = 8 * units::yr}) < embodied_per_gpu_hour());
  CHECK_THROWS_WITH(embodied_per_gpu_hour({.use_share = 0}), Contains("use_share"));
  CHECK_THROWS_WITH(embodied_per_gpu_hour({.gpus_per_server = 0}), Contains("gpus_per_server"));
  CHECK_THROWS_WITH(operational_carbon(-1 * units::kWh, cat::grid_us.intensity),
                    Contains("energy"));
  site_spec s;
  s.grid = 5000 * units::gCO2e_per_kWh;
  CHECK_THROWS_WITH(s.validate(), Contains("site_spec.grid"));
}
