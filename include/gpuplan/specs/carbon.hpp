// gpuplan/specs/carbon.hpp: carbon dioxide equivalent (CO2e) as a typed quantity, and grid
// carbon intensity.
//
// TEMPORARY WRAPPER. The units core (gpuplan/units/) is to gain a carbon-mass dimension; until it
// does, carbon is this small typed wrapper with the quantity interface the cost and energy models
// use (construction by unit, .in(unit), +, -, scalar * and /, comparison, energy x intensity).
// When the dimension lands, carbon_mass and carbon_intensity become aliases of quantities and
// this header keeps only the intensity helpers; code written against it does not change.
//
// Emissions are reported in CO2 equivalent mass (kg CO2e), the unit of the GHG Protocol and of
// every source in catalog/sites.hpp. Intensity is stored per joule and read in g/kWh or kg/kWh.
#pragma once

#include <gpuplan/units.hpp>

namespace gpuplan {

/// A mass of CO2 equivalent, stored in kilograms.
struct carbon_mass;
/// CO2 equivalent emitted per unit of energy, stored in kilograms per joule.
struct carbon_intensity;

/// A unit of carbon mass or intensity: a factor to the base unit and a symbol.
template <class Q>
struct carbon_unit {
  double factor;
  text_view symbol;
};

struct carbon_mass {
  double value{};  ///< kilograms of CO2e

  static constexpr carbon_mass from_base(double kg) { return carbon_mass{kg}; }
  [[nodiscard]] constexpr double in(carbon_unit<carbon_mass> u) const { return value / u.factor; }

  constexpr carbon_mass& operator+=(carbon_mass o) {
    value += o.value;
    return *this;
  }
  constexpr carbon_mass& operator-=(carbon_mass o) {
    value -= o.value;
    return *this;
  }
  friend constexpr carbon_mass operator+(carbon_mass a, carbon_mass b) { return {a.value + b.value}; }
  friend constexpr carbon_mass operator-(carbon_mass a, carbon_mass b) { return {a.value - b.value}; }
  friend constexpr carbon_mass operator*(double s, carbon_mass a) { return {s * a.value}; }
  friend constexpr carbon_mass operator*(carbon_mass a, double s) { return {a.value * s}; }
  friend constexpr carbon_mass operator/(carbon_mass a, double s) { return {a.value / s}; }
  friend constexpr double operator/(carbon_mass a, carbon_mass b) { return a.value / b.value; }
  friend constexpr bool operator==(carbon_mass a, carbon_mass b) { return a.value == b.value; }
  friend constexpr bool operator<(carbon_mass a, carbon_mass b) { return a.value < b.value; }
  friend constexpr bool operator<=(carbon_mass a, carbon_mass b) { return a.value <= b.value; }
  friend constexpr bool operator>(carbon_mass a, carbon_mass b) { return a.value > b.value; }
  friend constexpr bool operator>=(carbon_mass a, carbon_mass b) { return a.value >= b.value; }
};

struct carbon_intensity {
  double value{};  ///< kilograms of CO2e per joule

  static constexpr carbon_intensity from_base(double kg_per_J) { return carbon_intensity{kg_per_J}; }
  [[nodiscard]] constexpr double in(carbon_unit<carbon_intensity> u) const {
    return value / u.factor;
  }
  friend constexpr carbon_intensity operator*(double s, carbon_intensity a) { return {s * a.value}; }
  friend constexpr carbon_intensity operator*(carbon_intensity a, double s) { return {a.value * s}; }
  friend constexpr bool operator==(carbon_intensity a, carbon_intensity b) { return a.value == b.value; }
  friend constexpr bool operator<(carbon_intensity a, carbon_intensity b) { return a.value < b.value; }
  friend constexpr bool operator>(carbon_intensity a, carbon_intensity b) { return a.value > b.value; }
};

template <class Q>
constexpr Q operator*(double n, carbon_unit<Q> u) {
  return Q::from_base(n * u.factor);
}
template <class Q>
constexpr Q operator*(carbon_unit<Q> u, double n) {
  return Q::from_base(u.factor * n);
}

/// Emissions of `e` at intensity `i`.
constexpr carbon_mass operator*(energy e, carbon_intensity i) {
  return carbon_mass{e.value * i.value};
}
constexpr carbon_mass operator*(carbon_intensity i, energy e) { return e * i; }
/// The intensity at which energy e emitted m.
constexpr carbon_intensity intensity_of(carbon_mass m, energy e) {
  return carbon_intensity{m.value / e.value};
}

namespace units {
inline constexpr carbon_unit<carbon_mass> gCO2e{1e-3, "gCO2e"};
inline constexpr carbon_unit<carbon_mass> kgCO2e{1.0, "kgCO2e"};
inline constexpr carbon_unit<carbon_mass> tCO2e{1e3, "tCO2e"};  ///< metric tonnes
inline constexpr carbon_unit<carbon_intensity> gCO2e_per_kWh{1e-3 / 3.6e6, "gCO2e/kWh"};
inline constexpr carbon_unit<carbon_intensity> kgCO2e_per_kWh{1.0 / 3.6e6, "kgCO2e/kWh"};
}  // namespace units

}  // namespace gpuplan
