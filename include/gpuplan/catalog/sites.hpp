// gpuplan/catalog/sites.hpp: grid carbon intensities by region, each with its year and source.
//
// Location-based averages of electricity generation (lifecycle CO2e per kWh generated). Market-
// based figures (after renewable purchases) can be far lower (Meta reports 0 t market-based for
// Llama 3.1); pass your own with --carbon-intensity.
//
// Sources:
//  [OWID-EMBER] Our World in Data, "Carbon intensity of electricity generation, 1990 to 2023",
//               from Ember and the Energy Institute (ourworldindata.org/grapher/
//               carbon-intensity-electricity, table view, 2023 column)
//  [STATISTA-EMBER] Statista, "Electricity generation emission intensity in selected countries
//               worldwide in 2023", from Ember (2024-07-03): world 481, India 713, Norway 30
//  [LLAMA]      Touvron et al. 2023, "LLaMA: Open and Efficient Foundation Language Models",
//               arXiv:2302.13971, sec. 6.3: "the US national average carbon intensity factor of
//               0.385 kg CO2eq/KWh" (also behind the Llama 2 model card's figures)
//  [PATTERSON]  Patterson et al. 2021, "Carbon Emissions and Large Neural Network Training",
//               arXiv:2104.10350, Table 4: GPT-3 at 0.429 kg CO2e/kWh (US average, 2020)
//  [BLOOM]      Luccioni, Viguier, Ligozat 2023, "Estimating the Carbon Footprint of BLOOM",
//               JMLR 24(253): French grid 57 gCO2eq/kWh (Jean Zay, 2022)
#pragma once

#include <array>
#include <cstddef>
#include <gpuplan/specs/grid.hpp>
#include <string_view>

namespace gpuplan::catalog {

inline constexpr grid_region grid_world{.name = "world",
                                        .aliases = {"global"},
                                        .intensity = 481 * units::gCO2e_per_kWh,
                                        .year = 2023,
                                        .source = "[STATISTA-EMBER] world 2023"};
inline constexpr grid_region grid_us{
    .name = "us",
    .aliases = {"usa", "united-states"},
    .intensity = 385 * units::gCO2e_per_kWh,
    .year = 2023,
    .source = "[LLAMA] US national average factor, 0.385 kg CO2eq/kWh"};
inline constexpr grid_region grid_us_2020{
    .name = "us-2020",
    .aliases = {"us-patterson"},
    .intensity = 429 * units::gCO2e_per_kWh,
    .year = 2020,
    .source = "[PATTERSON] Table 4, GPT-3: 0.429 kg CO2e/kWh"};
inline constexpr grid_region grid_france{.name = "france",
                                         .aliases = {"fr", "fra"},
                                         .intensity = 56 * units::gCO2e_per_kWh,
                                         .year = 2023,
                                         .source = "[OWID-EMBER] France 2023"};
inline constexpr grid_region grid_france_2022{.name = "france-2022",
                                              .aliases = {"fr-bloom"},
                                              .intensity = 57 * units::gCO2e_per_kWh,
                                              .year = 2022,
                                              .source = "[BLOOM] French grid, 57 gCO2eq/kWh"};
inline constexpr grid_region grid_germany{.name = "germany",
                                          .aliases = {"de", "deu"},
                                          .intensity = 381 * units::gCO2e_per_kWh,
                                          .year = 2023,
                                          .source = "[OWID-EMBER] Germany 2023"};
inline constexpr grid_region grid_ireland{.name = "ireland",
                                          .aliases = {"ie", "irl"},
                                          .intensity = 291 * units::gCO2e_per_kWh,
                                          .year = 2023,
                                          .source = "[OWID-EMBER] Ireland 2023"};
inline constexpr grid_region grid_finland{.name = "finland",
                                          .aliases = {"fi", "fin"},
                                          .intensity = 79 * units::gCO2e_per_kWh,
                                          .year = 2023,
                                          .source = "[OWID-EMBER] Finland 2023"};
inline constexpr grid_region grid_denmark{.name = "denmark",
                                          .aliases = {"dk", "dnk"},
                                          .intensity = 152 * units::gCO2e_per_kWh,
                                          .year = 2023,
                                          .source = "[OWID-EMBER] Denmark 2023"};
inline constexpr grid_region grid_belgium{.name = "belgium",
                                          .aliases = {"be", "bel"},
                                          .intensity = 138 * units::gCO2e_per_kWh,
                                          .year = 2023,
                                          .source = "[OWID-EMBER] Belgium 2023"};
inline constexpr grid_region grid_austria{.name = "austria",
                                          .aliases = {"at", "aut"},
                                          .intensity = 111 * units::gCO2e_per_kWh,
                                          .year = 2023,
                                          .source = "[OWID-EMBER] Austria 2023"};
inline constexpr grid_region grid_norway{.name = "norway",
                                         .aliases = {"no", "nor"},
                                         .intensity = 30 * units::gCO2e_per_kWh,
                                         .year = 2023,
                                         .source = "[STATISTA-EMBER] Norway 2023"};
inline constexpr grid_region grid_canada{.name = "canada",
                                         .aliases = {"ca", "can"},
                                         .intensity = 170 * units::gCO2e_per_kWh,
                                         .year = 2023,
                                         .source = "[OWID-EMBER] Canada 2023"};
inline constexpr grid_region grid_brazil{.name = "brazil",
                                         .aliases = {"br", "bra"},
                                         .intensity = 98 * units::gCO2e_per_kWh,
                                         .year = 2023,
                                         .source = "[OWID-EMBER] Brazil 2023"};
inline constexpr grid_region grid_china{.name = "china",
                                        .aliases = {"cn", "chn"},
                                        .intensity = 582 * units::gCO2e_per_kWh,
                                        .year = 2023,
                                        .source = "[OWID-EMBER] China 2023"};
inline constexpr grid_region grid_india{.name = "india",
                                        .aliases = {"in", "ind"},
                                        .intensity = 713 * units::gCO2e_per_kWh,
                                        .year = 2023,
                                        .source = "[OWID-EMBER] India 2023"};
inline constexpr grid_region grid_australia{.name = "australia",
                                            .aliases = {"au", "aus"},
                                            .intensity = 549 * units::gCO2e_per_kWh,
                                            .year = 2023,
                                            .source = "[OWID-EMBER] Australia 2023"};

inline constexpr std::array all_grids{
    grid_world,   grid_us,      grid_us_2020, grid_france,  grid_france_2022, grid_germany,
    grid_ireland, grid_finland, grid_denmark, grid_belgium, grid_austria,     grid_norway,
    grid_canada,  grid_brazil,  grid_china,   grid_india,   grid_australia,
};

/// The region named `name` (canonical name or alias, ignoring case and '-', '_', ' '), or nullptr.
constexpr const grid_region* find_grid(std::string_view name) {
  auto same = [](std::string_view a, std::string_view b) {
    auto sep = [](char c) { return c == '-' || c == '_' || c == ' '; };
    auto low = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
    std::size_t i = 0, j = 0;
    while (true) {
      while (i < a.size() && sep(a[i])) ++i;
      while (j < b.size() && sep(b[j])) ++j;
      if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
      if (low(a[i]) != low(b[j])) return false;
      ++i;
      ++j;
    }
  };
  if (name.empty()) return nullptr;
  for (const grid_region& g : all_grids) {
    if (same(g.name.view(), name)) return &g;
    for (const name_string& a : g.aliases)
      if (!a.empty() && same(a.view(), name)) return &g;
  }
  return nullptr;
}

}  // namespace gpuplan::catalog
