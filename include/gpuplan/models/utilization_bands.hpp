// gpuplan/models/utilization_bands.hpp: where a utilisation sits (waste, low, healthy 70-90%,
// high, overload), the planning convention that the capacity planner (plan/capacity.hpp) and the
// utilisation analysis (plan/utilization.hpp) both judge against. Its own room so that neither
// reads the queueing model for it.
//
// Sources:
//   [Kleinrock] L. Kleinrock, "Queueing Systems, Volume 1: Theory", Wiley 1975, sec. 3.2 (M/M/1:
//               the mean wait rho / (1 - rho) E[S]).
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/units/quantity.hpp>

namespace gpuplan {

/// Where a utilisation sits. The planner's convention (gpuplan issue 12, the healthy band of
/// capacity planning), with each edge a named field so it can be changed.
enum class utilization_band : unsigned char {
  waste,     ///< below waste_below (30%): paying for idle GPUs
  low,       ///< 30-70%: room to consolidate
  healthy,   ///< 70-90%: busy, with headroom for bursts
  high,      ///< 90-95%: little headroom, queues lengthen fast
  overload,  ///< above 95%: waits grow without bound
};

/// The band edges as utilisation fractions. Why 70-90% is called healthy: under queueing the
/// wait grows as rho / (1 - rho) (M/M/1: E[W_q] = rho / (1 - rho) E[S], [Kleinrock sec. 3.2]):
/// 2.3 service times at 70%, 9 at 90%, 19 at 95%. Below 70% capacity is paid for and unused;
/// above 90% a 10% burst pushes the queue toward saturation. It is a planning convention, not a
/// law (the issue that specified this planner names the bands; operators' utilisation targets
/// cluster in the same range), which is why every edge is a field.
struct utilization_bands {
  double waste_below = 0.30;     ///< under 30%: waste
  double healthy_from = 0.70;    ///< 70%: start of the healthy band
  double healthy_to = 0.90;      ///< 90%: end of the healthy band
  double overload_above = 0.95;  ///< over 95%: overload

  constexpr void validate() const {
    detail::check_input(0.0 <= waste_below && waste_below <= healthy_from &&
                            healthy_from <= healthy_to && healthy_to <= overload_above &&
                            overload_above <= 1.0,
                        "utilization_bands: edges must rise: 0 <= waste_below <= healthy_from <= "
                        "healthy_to <= overload_above <= 1");
  }
  /// The band of a utilisation fraction (1.0 = 100%). An edge belongs to the band above it,
  /// except that exactly healthy_to (90%) is still healthy and exactly overload_above (95%) is
  /// still high: "over 95%" is overload.
  [[nodiscard]] constexpr utilization_band classify(double u) const {
    if (u < waste_below) return utilization_band::waste;
    if (u < healthy_from) return utilization_band::low;
    if (u <= healthy_to) return utilization_band::healthy;
    if (u <= overload_above) return utilization_band::high;
    return utilization_band::overload;
  }
};

inline constexpr enumerator<utilization_band> utilization_band_names[] = {
    {utilization_band::waste, "waste"},
    {utilization_band::low, "low"},
    {utilization_band::healthy, "healthy"},
    {utilization_band::high, "high"},
    {utilization_band::overload, "overload"}};
constexpr const auto& enumerators(utilization_band) { return utilization_band_names; }

/// A short name of a band: "waste", "low", "healthy", "high", "overload" (its table's name).
constexpr std::string_view band_name(utilization_band b) { return to_string(b); }

}  // namespace gpuplan
