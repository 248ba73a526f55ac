// gpuplan/units/boost.hpp: exact conversions between gpuplan quantities and Boost.Units.
//
//   auto b = gpuplan::to_boost(80_GiB);          // quantity<boost::units::information::info>
//   auto e = gpuplan::to_boost(1_kWh);           // quantity<boost::units::si::energy>, 3.6e6 J
//   auto g = gpuplan::from_boost(3.0 * boost::units::si::watt);   // gpuplan::power
//
// The matching Boost.Units types:
//   time, energy, power, frequency (and any product of time and energy)  SI (si::time, si::energy,
//                                                                         si::power, si::frequency)
//   data                                       boost::units::information bytes (information::info)
//   everything else (bandwidth, FLOP, FLOP/s, money, $/h, tokens/s ...)  gpuplan::boost_units::
//                                              system: SI metre, kilogram, second, the information
//                                              byte, and four base units of gpuplan's own: FLOP,
//                                              US dollar, token, request (each on a base dimension
//                                              of its own, so FLOP/s is not hertz)
//
// to_boost stores the same number (gpuplan and these systems share base units), so it is exact.
// from_boost accepts any Boost.Units quantity whose dimension gpuplan has (energy must appear as
// mass x length^2 / time^2, as it does in SI) and converts it with Boost's own conversion factors
// to gpuplan's base units: exact for bits (x 1/8), prefixes of 2 and the SI base units.
//
// Target gpuplan::boost (Boost 1.74 or later, header-only parts).
#pragma once

#include <gpuplan/units.hpp>

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/mpl/times.hpp>
#include <boost/units/dimension.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/static_constant.hpp>
#include <boost/units/static_rational.hpp>
#include <boost/units/unit.hpp>

#include <boost/units/base_units/si/kilogram.hpp>
#include <boost/units/base_units/si/meter.hpp>
#include <boost/units/base_units/si/second.hpp>
#include <boost/units/physical_dimensions/information.hpp>
#include <boost/units/physical_dimensions/length.hpp>
#include <boost/units/physical_dimensions/mass.hpp>
#include <boost/units/physical_dimensions/time.hpp>
#include <boost/units/systems/information/byte.hpp>
#include <boost/units/systems/si/base.hpp>

#include <type_traits>

namespace gpuplan::boost_units {

// Order numbers of gpuplan's base dimensions and base units. Boost.Units' own are negative; these
// only need to be unique within a program.
struct compute_base_dimension : boost::units::base_dimension<compute_base_dimension, 31001> {};
struct money_base_dimension : boost::units::base_dimension<money_base_dimension, 31002> {};
struct tokens_base_dimension : boost::units::base_dimension<tokens_base_dimension, 31003> {};
struct requests_base_dimension : boost::units::base_dimension<requests_base_dimension, 31004> {};

using compute_dimension = compute_base_dimension::dimension_type;
using money_dimension = money_base_dimension::dimension_type;
using tokens_dimension = tokens_base_dimension::dimension_type;
using requests_dimension = requests_base_dimension::dimension_type;

struct flop_base_unit : boost::units::base_unit<flop_base_unit, compute_dimension, 31001> {
  static const char* name() { return "floating-point operation"; }
  static const char* symbol() { return "FLOP"; }
};
struct usd_base_unit : boost::units::base_unit<usd_base_unit, money_dimension, 31002> {
  static const char* name() { return "US dollar"; }
  static const char* symbol() { return "USD"; }
};
struct token_base_unit : boost::units::base_unit<token_base_unit, tokens_dimension, 31003> {
  static const char* name() { return "token"; }
  static const char* symbol() { return "tok"; }
};
struct request_base_unit : boost::units::base_unit<request_base_unit, requests_dimension, 31004> {
  static const char* name() { return "request"; }
  static const char* symbol() { return "req"; }
};

/// The Boost.Units system of gpuplan's base units (with SI metre and kilogram, so that energy,
/// which Boost derives from mass and length, converts to and from SI with a factor of exactly 1).
using system =
    boost::units::make_system<boost::units::si::meter_base_unit,
                              boost::units::si::kilogram_base_unit,
                              boost::units::si::second_base_unit,
                              boost::units::information::byte_base_unit, flop_base_unit,
                              usd_base_unit, token_base_unit, request_base_unit>::type;

using flop_unit = boost::units::unit<compute_dimension, system>;
using usd_unit = boost::units::unit<money_dimension, system>;
using token_unit = boost::units::unit<tokens_dimension, system>;
using request_unit = boost::units::unit<requests_dimension, system>;

BOOST_UNITS_STATIC_CONSTANT(flop, flop_unit);
BOOST_UNITS_STATIC_CONSTANT(usd, usd_unit);
BOOST_UNITS_STATIC_CONSTANT(token, token_unit);
BOOST_UNITS_STATIC_CONSTANT(request, request_unit);

namespace detail {
// Acc times Base^N, with no entry at all for N == 0 (Boost's canonical dimension lists hold only
// non-zero exponents, and two lists are the same dimension only if they are the same type).
template <class Acc, class Base, long N>
struct times_power {
  using type = typename boost::mpl::times<
      Acc, typename boost::units::static_power<typename Base::dimension_type,
                                               boost::units::static_rational<N>>::type>::type;
};
template <class Acc, class Base>
struct times_power<Acc, Base, 0> {
  using type = Acc;
};
template <class Acc, class Base, long N>
using times_power_t = typename times_power<Acc, Base, N>::type;
}  // namespace detail

/// The Boost.Units dimension of a gpuplan dimension: energy as mass x length^2 / time^2.
template <dimension D>
using dimension_t = detail::times_power_t<
    detail::times_power_t<
        detail::times_power_t<
            detail::times_power_t<
                detail::times_power_t<
                    detail::times_power_t<
                        detail::times_power_t<
                            detail::times_power_t<boost::units::dimensionless_type,
                                                  boost::units::length_base_dimension,
                                                  2 * D.energy>,
                            boost::units::mass_base_dimension, D.energy>,
                        boost::units::time_base_dimension, D.time - 2 * D.energy>,
                    boost::units::information_base_dimension, D.data>,
                compute_base_dimension, D.compute>,
            money_base_dimension, D.money>,
        tokens_base_dimension, D.tokens>,
    requests_base_dimension, D.requests>;

namespace detail {

inline constexpr bool only_si(dimension d) {
  return d.data == 0 && d.compute == 0 && d.money == 0 && d.tokens == 0 && d.requests == 0;
}

template <dimension D>
struct unit_for {
  using type = boost::units::unit<dimension_t<D>, system>;
};
template <dimension D>
  requires(only_si(D))
struct unit_for<D> {
  using type = boost::units::unit<dimension_t<D>, boost::units::si::system>;
};
template <>
struct unit_for<dims::data> {
  using type = boost::units::information::info;
};

// The exponents of a Boost.Units dimension list, read base dimension by base dimension.
struct exponents {
  long length = 0, mass = 0, time = 0, info = 0, compute = 0, money = 0, tokens = 0, requests = 0;
  bool fractional = false;
  bool foreign = false;  ///< a base dimension gpuplan has no equivalent for (current, angle ...)
};

template <class List>
struct read_exponents;
template <>
struct read_exponents<boost::units::dimensionless_type> {
  static constexpr exponents value{};
};
template <class Tag, long N, long Den, class Rest>
struct read_exponents<boost::units::list<boost::units::dim<Tag, boost::units::static_rational<N, Den>>, Rest>> {
  static constexpr exponents make() {
    exponents e = read_exponents<Rest>::value;
    if (Den != 1) e.fractional = true;
    if constexpr (std::is_same_v<Tag, boost::units::length_base_dimension>) e.length = N;
    else if constexpr (std::is_same_v<Tag, boost::units::mass_base_dimension>) e.mass = N;
    else if constexpr (std::is_same_v<Tag, boost::units::time_base_dimension>) e.time = N;
    else if constexpr (std::is_same_v<Tag, boost::units::information_base_dimension>) e.info = N;
    else if constexpr (std::is_same_v<Tag, compute_base_dimension>) e.compute = N;
    else if constexpr (std::is_same_v<Tag, money_base_dimension>) e.money = N;
    else if constexpr (std::is_same_v<Tag, tokens_base_dimension>) e.tokens = N;
    else if constexpr (std::is_same_v<Tag, requests_base_dimension>) e.requests = N;
    else e.foreign = true;
    return e;
  }
  static constexpr exponents value = make();
};

}  // namespace detail

/// The Boost.Units unit a gpuplan quantity of dimension D converts to (see the table above).
template <dimension D>
using unit_t = typename detail::unit_for<D>::type;

/// The gpuplan dimension of a Boost.Units unit (a compile error where there is none).
template <class BoostUnit>
constexpr dimension dimension_of() {
  constexpr detail::exponents e =
      detail::read_exponents<typename BoostUnit::dimension_type>::value;
  static_assert(!e.fractional, "gpuplan: a Boost.Units quantity with a fractional exponent has no gpuplan equivalent");
  static_assert(!e.foreign, "gpuplan: this Boost.Units quantity has a base dimension gpuplan does not model (only length and mass as parts of energy, time, information, FLOP, money, tokens and requests)");
  static_assert(e.length == 2 * e.mass, "gpuplan: mass and length appear in gpuplan only as energy (kg m^2 s^-2); this Boost.Units quantity has another combination");
  return {.data = static_cast<int>(e.info),
          .time = static_cast<int>(e.time + 2 * e.mass),
          .compute = static_cast<int>(e.compute),
          .energy = static_cast<int>(e.mass),
          .money = static_cast<int>(e.money),
          .tokens = static_cast<int>(e.tokens),
          .requests = static_cast<int>(e.requests)};
}

}  // namespace gpuplan::boost_units

namespace gpuplan {

/// The Boost.Units quantity holding the same value: exact (the same number, in the same base units).
/// Carbon mass (kg CO2e) has no Boost.Units counterpart in this bridge; such quantities are refused.
template <dimension D, class Rep>
constexpr boost::units::quantity<boost_units::unit_t<D>, Rep> to_boost(quantity<D, Rep> q) {
  static_assert(D.carbon == 0,
                "gpuplan: carbon mass (kg CO2e) has no Boost.Units dimension in this bridge");
  return boost::units::quantity<boost_units::unit_t<D>, Rep>::from_value(q.value);
}

/// The gpuplan quantity of a Boost.Units quantity, converted to gpuplan's base units by Boost's
/// conversion factors (bits to bytes x 1/8, kilowatt to watt x 1000, SI to SI x 1).
template <class BoostUnit, class Rep>
quantity<boost_units::dimension_of<BoostUnit>(), Rep> from_boost(
    const boost::units::quantity<BoostUnit, Rep>& bq) {
  constexpr dimension D = boost_units::dimension_of<BoostUnit>();
  using target = boost::units::unit<boost_units::dimension_t<D>, boost_units::system>;
  const boost::units::quantity<target, Rep> in_base(bq);
  return quantity<D, Rep>::from_base(in_base.value());
}

}  // namespace gpuplan
