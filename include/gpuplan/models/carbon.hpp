// gpuplan/models/carbon.hpp: operational and embodied emissions of GPU time.
//
// Operational: facility energy x the grid's carbon intensity (location-based). Embodied: the
// emissions of making the hardware, spread over the hours it is used in its life, charged to a
// run by its share of those hours:
//
//   embodied per GPU-hour = (E_gpu + E_server / gpus_per_server) / (lifetime x use_share)
//
// the amortisation of Luccioni et al. (BLOOM) and of LLMCarbon (Faiz et al., ICLR 2024, which
// derives E_gpu from die area x carbon per area and amortises it the same way). The two are
// reported separately: embodied carbon is an option, and its inputs are far less certain.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// The embodied-carbon inputs. Defaults are BLOOM's (Luccioni, Viguier, Ligozat, "Estimating the
/// Carbon Footprint of BLOOM, a 176B Parameter Language Model", JMLR 24(253), 2023, sec. 4.1):
/// 150 kg CO2eq per A100 GPU and 2,500 kg per HPE Apollo 6500 server (8 GPUs), replaced every
/// 6 years, used 85% of the time; which gives its 11.2 t (7.57 t servers + 3.64 t GPUs) for
/// 1,082,990 GPU-hours.
struct embodied_assumptions {
  /// Emissions of making one GPU: 150 kg CO2eq per A100 (BLOOM, sec. 4.1).
  carbon_mass per_gpu = 150 * units::kgCO2e;
  /// Emissions of making one server without its GPUs: 2,500 kg CO2eq per HPE Apollo 6500
  /// (BLOOM, sec. 4.1).
  carbon_mass per_server = 2500 * units::kgCO2e;
  /// GPUs per server, over which its emissions are shared: 8 (BLOOM's Apollo 6500).
  int gpus_per_server = 8;
  /// Years the hardware is used before it is replaced: 6 (BLOOM, sec. 4.1).
  duration lifetime = 6 * units::yr;
  /// Share of its life the hardware runs jobs: 0.85 (BLOOM, sec. 4.1).
  double use_share = 0.85;

  constexpr void validate() const {
    detail::check_input(detail::finite_nonnegative(per_gpu.value),
                        "embodied_assumptions.per_gpu must be finite and not negative",
                        per_gpu.value);
    detail::check_input(detail::finite_nonnegative(per_server.value),
                        "embodied_assumptions.per_server must be finite and not negative",
                        per_server.value);
    detail::check_input(gpus_per_server > 0,
                        "embodied_assumptions.gpus_per_server must be positive");
    detail::check_input(detail::finite_positive(lifetime.value),
                        "embodied_assumptions.lifetime must be positive and finite",
                        lifetime.value);
    detail::check_input(detail::finite_positive(use_share) && use_share <= 1.0,
                        "embodied_assumptions.use_share must be in (0, 1]", use_share);
  }
};

/// Embodied carbon charged to one GPU-hour.
constexpr carbon_mass embodied_per_gpu_hour(const embodied_assumptions& a = {}) {
  a.validate();
  const carbon_mass per_gpu = a.per_gpu + a.per_server / (1.0 * a.gpus_per_server);
  const double used_hours = (a.use_share * a.lifetime).in(units::h);
  const carbon_mass out = per_gpu / used_hours;
  // each field is in range alone, their quotient need not be (a lifetime of 1e-308 years)
  detail::check_input(detail::finite(out.value),
                      "embodied_assumptions: the carbon per GPU-hour is not finite (lifetime x "
                      "use_share far too small)");
  return out;
}

/// Embodied carbon of `gpu_time` GPU-hours.
constexpr carbon_mass embodied_carbon(duration gpu_time, const embodied_assumptions& a = {}) {
  detail::check_input(detail::finite_nonnegative(gpu_time.value),
                      "gpu_time must be finite and not negative");
  return gpu_time.in(units::h)*embodied_per_gpu_hour(a);
}

/// Operational carbon of facility energy `e` at grid intensity `i`.
constexpr carbon_mass operational_carbon(energy e, carbon_intensity i) {
  detail::check_input(detail::finite_nonnegative(e.value),
                      "energy must be finite and not negative");
  detail::check_input(detail::finite_nonnegative(i.value),
                      "carbon intensity must be finite and not negative", i.value);
  return e * i;
}

/// Operational and embodied carbon, kept apart.
struct carbon_report {
  carbon_mass operational{};
  carbon_mass embodied{};  ///< zero when not asked for
  [[nodiscard]] constexpr carbon_mass total() const { return operational + embodied; }
};

}  // namespace gpuplan
