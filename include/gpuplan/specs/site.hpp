// gpuplan/specs/site.hpp: what a data-centre site is, for energy, cost and facility figures.
//
// A site is where GPUs run: how much facility power each watt of IT power costs (PUE), what a
// kilowatt-hour costs, what a kilowatt-hour emits, how much power a rack may draw and how the
// racks are cooled. Defaults here are a typical 2023-2024 US colocation site; catalog/sites.hpp
// holds dated, cited grid intensities of other regions.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// How a rack's heat leaves it.
enum class cooling_kind : unsigned char {
  air,              ///< room air through raised floor or CRAH units, no aisle containment
  air_containment,  ///< air with hot- or cold-aisle containment (or rear-door heat exchangers)
  liquid,           ///< direct-to-chip liquid cooling (cold plates), the rest by air
};

inline constexpr enumerator<cooling_kind> cooling_kind_names[] = {
    {cooling_kind::air, "air"},
    {cooling_kind::air_containment, "air_containment"},
    {cooling_kind::liquid, "liquid"}};
constexpr const auto& enumerators(cooling_kind) { return cooling_kind_names; }

/// The most IT power one rack can shed by each kind of cooling. Named assumptions, not physics:
/// the limit depends on airflow paths, inlet temperature and containment.
struct cooling_limits {
  /// Room air without containment. "Most mainstream data centres are hard pressed or unable to
  /// support more than 10-15 kW per rack" (Data Center Frontier, quoted in RACA Journal,
  /// "Pushing the boundaries of air cooling in high density environments",
  /// refrigerationandaircon.co.za); the top of that range.
  power air = 15 * units::kW;
  /// Air with containment: "15-30 kW per rack with optimized air cooling", beyond which racks
  /// need the "liquid cooling transition" (M. Bommarito, "Rack density evolution",
  /// michaelbommarito.com/wiki/datacenters/technology/rack-density); Uptime Institute's 2024
  /// survey: "most installations do not have racks exceeding 30 kW".
  power air_containment = 30 * units::kW;
  /// Direct-to-chip liquid: GB200 NVL72 racks draw about 120 kW, 100% liquid-cooled (NVIDIA
  /// GB200 NVL72 specifications, as summarised by Servnet's "AI Servers: The 2026 Data Study").
  power liquid = 120 * units::kW;

  [[nodiscard]] constexpr power limit(cooling_kind k) const {
    switch (k) {
      case cooling_kind::air:
        return air;
      case cooling_kind::air_containment:
        return air_containment;
      case cooling_kind::liquid:
        return liquid;
    }
    return air;
  }

  constexpr void validate() const {
    detail::check_input(detail::finite_positive(air.value),
                        "cooling_limits.air must be positive and finite", air.value);
    detail::check_input(
        detail::finite(air_containment.value) && air_containment.value >= air.value,
        "cooling_limits.air_containment must be finite and at least cooling_limits.air",
        air_containment.value);
    detail::check_input(detail::finite(liquid.value) && liquid.value >= air_containment.value,
                        "cooling_limits.liquid must be finite and at least air_containment",
                        liquid.value);
  }
};

/// A site's facility parameters.
struct site_spec {
  name_string name = "default";
  /// Power usage effectiveness: facility power / IT power. Default 1.56, the average annual PUE
  /// that operators reported for their largest data centre in the Uptime Institute Global Data
  /// Center Survey 2024 (1.58 in 2023; Uptime Intelligence update 221, Nov 2023).
  double pue = 1.56;
  /// What one kilowatt-hour costs the site. Default 8.95 cents: the average commercial-sector
  /// revenue per kWh in Virginia (the largest US data-centre market) in 2023, EIA Electric Power
  /// Annual 2023, released 2024-10-17 (eia.gov/electricity/annual/secrev-map.php).
  energy_price electricity = 0.0895 * units::usd_per_kWh;
  /// Location-based carbon intensity of the site's electricity. Default 0.385 kg CO2e/kWh, the
  /// "US national average carbon intensity factor" of Touvron et al. 2023 (LLaMA,
  /// arXiv:2302.13971, sec. 6.3), the factor behind the Llama 2 model card's emissions
  /// (catalog::grid_us).
  carbon_intensity grid = 0.385 * units::kgCO2e_per_kWh;
  /// IT power one rack may draw (the power distributed to it). Default 30 kW: the top of the
  /// optimized-air band (cooling_limits::air_containment), which a DGX H100 (10.2 kW) fills with
  /// two nodes.
  power rack_budget = 30 * units::kW;
  cooling_kind cooling = cooling_kind::air_containment;
  cooling_limits limits{};

  /// Facility power drawn for `it` watts of IT load.
  [[nodiscard]] constexpr power facility_power(power it) const { return pue * it; }

  /// Throws gpuplan::invalid_input naming the first field out of range.
  constexpr void validate() const {
    detail::check_input(detail::finite(pue) && pue >= 1.0 && pue <= 5.0,
                        "site_spec.pue must be between 1 and 5 (facility power / IT power)", pue);
    detail::check_input(detail::finite_nonnegative(electricity.value),
                        "site_spec.electricity must be finite and not negative");
    detail::check_input(
        detail::finite(grid.value) && grid.value >= 0.0 && grid.in(units::gCO2e_per_kWh) <= 2000.0,
        "site_spec.grid must be between 0 and 2000 gCO2e/kWh", grid.in(units::gCO2e_per_kWh));
    detail::check_input(detail::finite_positive(rack_budget.value),
                        "site_spec.rack_budget must be positive and finite", rack_budget.value);
    limits.validate();
  }
};

}  // namespace gpuplan
