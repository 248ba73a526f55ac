// The quantity core: storage in base units, every literal, every derived alias, comparisons,
// compound assignment, representation conversions, helpers, and structural (NTTP) use.
#include "../catch.hpp"

#include <gpuplan/units.hpp>

#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

using namespace gpuplan;
using namespace gpuplan::literals;
using namespace gpuplan::units;

TEST_CASE("data units keep decimal and binary prefixes apart", "[units]") {
  CHECK((80_GiB).in(B) == 85899345920.0);
  CHECK((80_GB).in(B) == 80e9);
  CHECK((1_GiB).in(GB) == Approx(1.073741824));
  CHECK((8_bit).in(B) == 1.0);
}

TEST_CASE("bits per second and bytes per second differ by eight", "[units]") {
  CHECK((400_Gbps).in(GBps) == 50.0);
  CHECK((3.35_TBps).in(Gbps) == Approx(26800.0));
}

TEST_CASE("every literal stores its value in the base unit", "[units][literals]") {
  // data: bytes
  CHECK((1_B).value == 1.0);
  CHECK((1_kB).value == 1e3);
  CHECK((1_MB).value == 1e6);
  CHECK((1_GB).value == 1e9);
  CHECK((1_TB).value == 1e12);
  CHECK((1_PB).value == 1e15);
  CHECK((1_EB).value == 1e18);
  CHECK((1_KiB).value == 1024.0);
  CHECK((1_MiB).value == 1048576.0);
  CHECK((1_GiB).value == 1073741824.0);
  CHECK((1_TiB).value == 1099511627776.0);
  CHECK((1_PiB).value == 1125899906842624.0);
  CHECK((1_EiB).value == 1152921504606846976.0);
  CHECK((1_bit).value == 0.125);
  CHECK((1_kbit).value == 125.0);
  CHECK((1_Mbit).value == 125e3);
  CHECK((1_Gbit).value == 125e6);
  CHECK((1_Tbit).value == 125e9);
  // bandwidth: bytes per second
  CHECK((1_MBps).value == 1e6);
  CHECK((1_GBps).value == 1e9);
  CHECK((1_TBps).value == 1e12);
  CHECK((1_GiBps).value == 1073741824.0);
  CHECK((1_Mbps).value == 125e3);
  CHECK((1_Gbps).value == 125e6);
  CHECK((1_Tbps).value == 125e9);
  // compute: FLOP
  CHECK((1_FLOP).value == 1.0);
  CHECK((1_GFLOP).value == 1e9);
  CHECK((1_TFLOP).value == 1e12);
  CHECK((1_PFLOP).value == 1e15);
  CHECK((1_EFLOP).value == 1e18);
  CHECK((1_ZFLOP).value == 1e21);
  CHECK((1_GFLOPS).value == 1e9);
  CHECK((1_TFLOPS).value == 1e12);
  CHECK((1_PFLOPS).value == 1e15);
  CHECK((1_EFLOPS).value == 1e18);
  // time: seconds
  CHECK((1_ns).value == 1e-9);
  CHECK((1_us).value == 1e-6);
  CHECK((1_ms).value == 1e-3);
  CHECK((1_s).value == 1.0);
  CHECK((1_min).value == 60.0);
  CHECK((1_h).value == 3600.0);
  CHECK((1_d).value == 86400.0);
  CHECK((1_yr).value == 31536000.0);
  // power and energy: watts and joules
  CHECK((1_W).value == 1.0);
  CHECK((1_kW).value == 1e3);
  CHECK((1_MW).value == 1e6);
  CHECK((1_GW).value == 1e9);
  CHECK((1_J).value == 1.0);
  CHECK((1_kJ).value == 1e3);
  CHECK((1_MJ).value == 1e6);
  CHECK((1_GJ).value == 1e9);
  CHECK((1_Wh).value == 3600.0);
  CHECK((1_kWh).value == 3.6e6);
  CHECK((1_MWh).value == 3.6e9);
  CHECK((1_GWh).value == 3.6e12);
  // money, prices, counts, frequency
  CHECK((1_usd).value == 1.0);
  CHECK((3600_usd_per_h).value == Approx(1.0));
  CHECK((3.6e6_usd_per_kWh).value == Approx(1.0));
  CHECK((1_tokens).value == 1.0);
  CHECK((1_ktokens).value == 1e3);
  CHECK((1_Mtokens).value == 1e6);
  CHECK((1_Btokens).value == 1e9);
  CHECK((1_Ttokens).value == 1e12);
  CHECK((1_requests).value == 1.0);
  CHECK((1_Hz).value == 1.0);
  CHECK((1_MHz).value == 1e6);
  CHECK((1_GHz).value == 1e9);
  // integer and floating literals agree
  CHECK(80_GiB == 80.0_GiB);
  CHECK(3.35_TBps == 3350_GBps);
}

TEST_CASE("every literal has the named type of its dimension", "[units][literals]") {
  STATIC_REQUIRE(std::is_same_v<decltype(1_GiB), data_size>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_Gbit), data_size>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_ms), duration>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_TFLOP), compute_amount>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_kWh), energy>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_usd), money>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_tokens), token_count>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_requests), request_count>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_GHz), frequency>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_Gbps), bandwidth>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_TFLOPS), compute_rate>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_kW), power>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_usd_per_h), money_rate>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_usd_per_kWh), energy_price>);
}

TEST_CASE("dimensional algebra gives the computed types", "[units]") {
  const duration t = 1_TB / 2_TBps;
  CHECK(t.in(ms) == 500.0);
  const power p = 1_kWh / 1_h;
  CHECK(p.in(W) == Approx(1000.0));
  const double ratio = 1_GiB / 1_MiB;
  CHECK(ratio == 1024.0);
  const compute_rate r = 989_TFLOP / 1_s;
  CHECK(r.in(TFLOPS) == Approx(989.0));

  STATIC_REQUIRE(std::is_same_v<decltype(1_GB / 1_s), bandwidth>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_TFLOP / 1_s), compute_rate>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_J / 1_s), power>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_W * 1_h), energy>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_TFLOP / 1_GB), intensity>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_J / 1_FLOP), energy_per_compute>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_usd / 1_h), money_rate>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_usd / 1_kWh), energy_price>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_tokens / 1_s), token_rate>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_requests / 1_s), request_rate>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_GB / 1_tokens), data_per_token>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_GFLOP / 1_tokens), compute_per_token>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_usd / 1_Mtokens), money_per_token>);
  STATIC_REQUIRE(std::is_same_v<decltype(1 / 1_s), frequency>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_TBps * 1_s), data_size>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_usd_per_kWh * 1_kWh), money>);
  STATIC_REQUIRE(std::is_same_v<decltype(1_W * 1_s / 1_J), double>);
  // tokens/s and requests/s are different types: a rate of one cannot be passed as the other
  STATIC_REQUIRE(!std::is_same_v<token_rate, request_rate>);
  STATIC_REQUIRE(!std::is_convertible_v<token_rate, request_rate>);

  // known conversions
  CHECK((1_kWh).in(J) == 3.6e6);
  CHECK((0.085_usd_per_kWh * 1_MWh).in(usd) == Approx(85.0));
  CHECK((700_W * 1_h).in(kWh) == Approx(0.7));
  CHECK((2_usd / 1_Mtokens * 1_Btokens).in(usd) == Approx(2000.0));
  CHECK((1_PFLOPS * 1_d).in(PFLOP_s_day) == Approx(1.0));
  CHECK((5 * GB / s).in(GBps) == 5.0);
  CHECK((2 * usd / Mtoken).in(usd_per_Mtoken) == Approx(2.0));
  CHECK((80 * GiB).in(GiB) == 80.0);
  CHECK((GiB * 80).in(GiB) == 80.0);
  CHECK((1_GB).in(GB / s * s) == 1.0);  // products of units work as units
}

TEMPLATE_TEST_CASE("arithmetic, comparison and compound assignment", "[units][rep]", float, double,
                   long double) {
  using T = TestType;
  using data_t = quantity<dims::data, T>;
  using time_t_ = quantity<dims::time, T>;
  const data_t a = data_t::from_base(T(1024));
  const data_t b = data_t::from_base(T(512));

  SECTION("addition and subtraction keep the dimension and representation") {
    STATIC_REQUIRE(std::is_same_v<decltype(a + b), data_t>);
    CHECK((a + b).value == T(1536));
    CHECK((a - b).value == T(512));
    CHECK((-a).value == T(-1024));
    CHECK((+a).value == T(1024));
  }
  SECTION("scaling by a number") {
    CHECK((a * 2).value == T(2048));
    CHECK((2 * a).value == T(2048));
    CHECK((a / 4).value == T(256));
    CHECK((T(1) / time_t_::from_base(T(4))).value == T(0.25));
  }
  SECTION("comparisons") {
    CHECK(a > b);
    CHECK(b < a);
    CHECK(a >= a);
    CHECK(b <= a);
    CHECK(a == a);
    CHECK(a != b);
    CHECK((a <=> b) == std::partial_ordering::greater);
  }
  SECTION("compound assignment") {
    data_t c = a;
    c += b;
    CHECK(c.value == T(1536));
    c -= a;
    CHECK(c.value == T(512));
    c *= 3;
    CHECK(c.value == T(1536));
    c /= 2;
    CHECK(c.value == T(768));
    CHECK((c += b).value == T(1280));  // returns the object
  }
  SECTION("products and quotients") {
    const auto r = a / time_t_::from_base(T(2));
    STATIC_REQUIRE(std::is_same_v<decltype(r), const quantity<dims::bandwidth, T>>);
    CHECK(r.value == T(512));
    STATIC_REQUIRE(std::is_same_v<decltype(a / b), T>);
    CHECK(a / b == T(2));
  }
  SECTION("helpers") {
    CHECK(abs(-a) == a);
    CHECK(abs(a) == a);
    CHECK(min(a, b) == b);
    CHECK(max(a, b) == a);
    CHECK(is_finite(a));
    CHECK_FALSE(is_finite(data_t::from_base(std::numeric_limits<T>::infinity())));
    CHECK_FALSE(is_finite(data_t::from_base(-std::numeric_limits<T>::infinity())));
    CHECK_FALSE(is_finite(data_t::from_base(std::numeric_limits<T>::quiet_NaN())));
  }
  SECTION("constexpr") {
    STATIC_REQUIRE((data_t::from_base(T(3)) + data_t::from_base(T(4))).value == T(7));
    STATIC_REQUIRE(max(data_t::from_base(T(3)), data_t::from_base(T(4))).value == T(4));
    STATIC_REQUIRE(!is_finite(data_t::from_base(std::numeric_limits<T>::infinity())));
  }
}

TEST_CASE("representations: widening is implicit, narrowing explicit, mixing widens", "[units][rep]") {
  using fdata = quantity<dims::data, float>;
  using ldata = quantity<dims::data, long double>;
  STATIC_REQUIRE(std::is_convertible_v<fdata, data_size>);
  STATIC_REQUIRE(std::is_convertible_v<data_size, ldata>);
  STATIC_REQUIRE(!std::is_convertible_v<data_size, fdata>);
  STATIC_REQUIRE(std::is_constructible_v<fdata, data_size>);
  STATIC_REQUIRE(!std::is_constructible_v<data_size, duration>);
  const fdata f = fdata::from_base(1.5f);
  const data_size widened = f;
  CHECK(widened.value == 1.5);
  const fdata back{80_GiB};
  CHECK(back.value == 85899345920.0f);
  STATIC_REQUIRE(std::is_same_v<decltype(f + 1_GiB), data_size>);
  STATIC_REQUIRE(std::is_same_v<decltype(ldata{} + 1_GiB), ldata>);
  CHECK(f < 1_GiB);
  CHECK(f == data_size::from_base(1.5));
}

TEST_CASE("unit objects", "[units]") {
  STATIC_REQUIRE(GiB.dim == dims::data);
  STATIC_REQUIRE(GiB.factor == 1073741824.0);
  CHECK(GiB.symbol == "GiB");
  CHECK(usd_per_h.symbol == "$/h");
  CHECK((GB / s).symbol.empty());  // products have no symbol of their own
  STATIC_REQUIRE((GB / s).factor == 1e9);
  STATIC_REQUIRE(std::is_same_v<decltype(GB / s), unit<dims::bandwidth>>);
  CHECK(dimension_name(dims::bandwidth) == "bandwidth");
  CHECK(dimension_name(dims::data * dims::data).empty());
}

TEST_CASE("text_view compares with literals and converts to standard strings", "[units]") {
  STATIC_REQUIRE(GiB.symbol == "GiB");
  STATIC_REQUIRE(GiB.symbol != "GB");
  STATIC_REQUIRE(GiB.symbol.size() == 3);
  STATIC_REQUIRE(text_view{}.empty());
  STATIC_REQUIRE(dimension_name(dims::power) == "power");
  const std::string_view sv = TBps.symbol;
  CHECK(sv == "TB/s");
  const std::string str = usd_per_Mtoken.symbol;
  CHECK(str == "$/Mtok");
  CHECK(std::string(dimension_name(dims::token_rate)) == "token rate");
  std::size_t n = 0;
  for (const char c : GiB.symbol) n += c == 'i' ? 1 : 0;
  CHECK(n == 1);
}

namespace {
// A whole configuration as a template argument: quantities are structural.
struct link_config {
  bandwidth per_direction;
  duration latency;
};
template <link_config C>
constexpr duration transfer_time(data_size bytes) {
  return C.latency + bytes / C.per_direction;
}
template <data_size Limit>
constexpr bool fits(data_size x) {
  return x <= Limit;
}
}  // namespace

TEST_CASE("quantities and aggregates of them are template arguments", "[units][structural]") {
  constexpr link_config nvlink4{.per_direction = 450_GBps, .latency = 2_us};
  STATIC_REQUIRE(transfer_time<nvlink4>(450_MB) > 1001_us);
  STATIC_REQUIRE(transfer_time<nvlink4>(450_MB) < 1003_us);
  STATIC_REQUIRE(fits<80_GiB>(80_GB));
  STATIC_REQUIRE(!fits<80_GB>(80_GiB));
  CHECK(transfer_time<nvlink4>(450_GB).in(s) == Approx(1.000002));
}

TEST_CASE("NaN compares unordered", "[units]") {
  const data_size n = data_size::from_base(std::numeric_limits<double>::quiet_NaN());
  CHECK_FALSE(n == n);
  CHECK_FALSE(n < 1_B);
  CHECK_FALSE(n > 1_B);
  CHECK((n <=> 1_B) == std::partial_ordering::unordered);
}
