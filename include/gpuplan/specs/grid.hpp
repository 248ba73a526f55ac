// gpuplan/specs/grid.hpp: an electricity grid's carbon intensity, dated and sourced.
#pragma once

#include <array>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/source.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// The average (location-based) carbon intensity of a grid's electricity over a year.
struct grid_region {
  name_string name;                      ///< "france", "us", "world"
  std::array<name_string, 3> aliases{};  ///< "fr", "fra"
  carbon_intensity intensity{};
  int year = 0;  ///< the year the figure averages
  source_text source;

  constexpr void validate() const {
    detail::check_input(!name.empty(), "grid_region.name must not be empty");
    detail::check_input(detail::finite(intensity.value) && intensity.value >= 0.0 &&
                            intensity.in(units::gCO2e_per_kWh) <= 2000.0,
                        "grid_region.intensity must be between 0 and 2000 gCO2e/kWh",
                        intensity.in(units::gCO2e_per_kWh));
    detail::check_input(year >= 1990 && year <= 2100,
                        "grid_region.year must be between 1990 and 2100");
    detail::check_input(!source.empty(), "grid_region.source must not be empty");
  }
};

}  // namespace gpuplan
