// The Boost.Units bridge: types match, conversions are exact both ways, known conversions hold.
#include "../catch.hpp"

#include <gpuplan/units.hpp>
#include <gpuplan/units/boost.hpp>

#include <boost/units/base_units/metric/hour.hpp>
#include <boost/units/systems/information/bit.hpp>
#include <boost/units/systems/si/energy.hpp>
#include <boost/units/systems/si/frequency.hpp>
#include <boost/units/systems/si/power.hpp>
#include <boost/units/systems/si/prefixes.hpp>
#include <boost/units/systems/si/time.hpp>

#include <limits>
#include <type_traits>

using namespace gpuplan;
using namespace gpuplan::literals;
namespace bu = boost::units;

TEST_CASE("gpuplan dimensions map to the matching Boost.Units types", "[boost]") {
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_s)), bu::quantity<bu::si::time>>);
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_J)), bu::quantity<bu::si::energy>>);
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_W)), bu::quantity<bu::si::power>>);
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_Hz)), bu::quantity<bu::si::frequency>>);
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_B)), bu::quantity<bu::information::info>>);
  STATIC_REQUIRE(
      std::is_same_v<decltype(to_boost(quantity<dims::data, float>{})), bu::quantity<bu::information::info, float>>);
  // FLOP, money, tokens and requests are base dimensions of their own.
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_FLOP)), bu::quantity<boost_units::flop_unit>>);
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_usd)), bu::quantity<boost_units::usd_unit>>);
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_tokens)), bu::quantity<boost_units::token_unit>>);
  STATIC_REQUIRE(std::is_same_v<decltype(to_boost(1_requests)), bu::quantity<boost_units::request_unit>>);
  // FLOP/s is not hertz, and tokens/s is not requests/s, in Boost.Units either.
  STATIC_REQUIRE(!std::is_same_v<boost_units::dimension_t<dims::compute_rate>,
                                 boost_units::dimension_t<dims::frequency>>);
  STATIC_REQUIRE(!std::is_same_v<boost_units::dimension_t<dims::token_rate>,
                                 boost_units::dimension_t<dims::request_rate>>);
  // The Boost dimension of every named gpuplan dimension reads back as the same dimension.
  STATIC_REQUIRE(boost_units::dimension_of<bu::si::power>() == dims::power);
  STATIC_REQUIRE(boost_units::dimension_of<bu::si::energy>() == dims::energy);
  STATIC_REQUIRE(boost_units::dimension_of<bu::information::hu::bit::info>() == dims::data);
  STATIC_REQUIRE(boost_units::dimension_of<boost_units::unit_t<dims::energy_price>>() == dims::energy_price);
  STATIC_REQUIRE(boost_units::dimension_of<boost_units::unit_t<dims::energy_per_compute>>() ==
                 dims::energy_per_compute);
}

TEST_CASE("to_boost keeps the number: it is exact and constexpr", "[boost]") {
  STATIC_REQUIRE(to_boost(1_kWh).value() == 3.6e6);  // 1 kWh = 3.6e6 J
  STATIC_REQUIRE(to_boost(80_GiB).value() == 85899345920.0);
  STATIC_REQUIRE(to_boost(3.35_TBps).value() == 3.35e12);
  STATIC_REQUIRE(to_boost(2_usd_per_h).value() == 2.0 / 3600.0);
}

TEST_CASE("known conversions through Boost.Units", "[boost]") {
  // 1 GiB = 8 x 2^30 bits, exactly.
  const bu::quantity<bu::information::hu::bit::info> bits(to_boost(1_GiB));
  CHECK(bits.value() == 8589934592.0);
  // 400 Gbit/s = 50 GB/s, exactly.
  const auto nic = from_boost(400e9 * bu::information::bits / bu::si::second);
  STATIC_REQUIRE(std::is_same_v<decltype(nic), const bandwidth>);
  CHECK(nic == 50_GBps);
  // 1 kWh = 3.6e6 J, in Boost's SI joules.
  const bu::quantity<bu::si::energy> joules = to_boost(1_kWh);
  CHECK(joules.value() == 3.6e6);
  // Boost's kilowatt, and Boost's hour, come back exactly.
  CHECK(from_boost(2.0 * bu::si::kilo * bu::si::watts) == 2_kW);
  const bu::metric::hour_base_unit::unit_type hour;
  CHECK(from_boost(1.5 * hour) == 1.5_h);
  // 700 W for 1 h, multiplied in Boost.Units, is 0.7 kWh in gpuplan.
  const auto e = from_boost(to_boost(700_W) * to_boost(1_h));
  STATIC_REQUIRE(std::is_same_v<decltype(e), const energy>);
  CHECK(e == 0.7_kWh);
  // Boost.Units arithmetic on bridged quantities agrees with gpuplan's.
  const auto t = from_boost(to_boost(80_GiB) / to_boost(3.35_TBps));
  STATIC_REQUIRE(std::is_same_v<decltype(t), const duration>);
  CHECK(t == 80_GiB / 3.35_TBps);
  const auto intensity_q = from_boost(to_boost(989_TFLOP) / to_boost(3.35_TB));
  CHECK(intensity_q == 989_TFLOP / 3.35_TB);
  const auto bill = from_boost(to_boost(0.085_usd_per_kWh) * to_boost(1_MWh));
  STATIC_REQUIRE(std::is_same_v<decltype(bill), const money>);
  CHECK(bill == 0.085_usd_per_kWh * 1_MWh);
}

namespace {
template <class Q>
void round_trips(Q q) {
  const auto back = from_boost(to_boost(q));
  STATIC_REQUIRE(std::is_same_v<decltype(back), const Q>);
  CHECK(back.value == q.value);  // bit-for-bit
}
}  // namespace

TEST_CASE("every named quantity round-trips bit for bit", "[boost]") {
  const double values[] = {0.0, 1.0, 0.1, -3.35e12, 1e25, 1.0 / 3.0,
                           std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::max()};
  for (const double v : values) {
    CAPTURE(v);
    round_trips(data_size::from_base(v));
    round_trips(duration::from_base(v));
    round_trips(compute_amount::from_base(v));
    round_trips(energy::from_base(v));
    round_trips(money::from_base(v));
    round_trips(token_count::from_base(v));
    round_trips(request_count::from_base(v));
    round_trips(frequency::from_base(v));
    round_trips(bandwidth::from_base(v));
    round_trips(compute_rate::from_base(v));
    round_trips(power::from_base(v));
    round_trips(intensity::from_base(v));
    round_trips(energy_per_compute::from_base(v));
    round_trips(money_rate::from_base(v));
    round_trips(energy_price::from_base(v));
    round_trips(token_rate::from_base(v));
    round_trips(request_rate::from_base(v));
    round_trips(data_per_token::from_base(v));
    round_trips(compute_per_token::from_base(v));
    round_trips(money_per_token::from_base(v));
    round_trips(quantity<dims::data * dims::time>::from_base(v));  // unnamed dimensions too
    round_trips(quantity<dims::none / dims::data>::from_base(v));
  }
  round_trips(quantity<dims::data, float>::from_base(0.1f));
  round_trips(quantity<dims::energy, long double>::from_base(0.1L));
}
