// Formatting of quantities and spec types: auto-scaled defaults, fixed units, precision, padding,
// special values, the generic fallback, and spec errors.
#include "../catch.hpp"

#include <gpuplan/models/flops.hpp>
#include <gpuplan/specs/format.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <limits>
#include <string>

using namespace gpuplan;
using namespace gpuplan::literals;

namespace {
template <class Q>
std::string rt(std::string_view spec, Q q) {
  return fmt::format(fmt::runtime(spec), q);
}
}  // namespace

TEST_CASE("every named dimension prints auto-scaled with three significant digits", "[format]") {
  CHECK(fmt::format("{}", 80_GiB) == "80 GiB");
  CHECK(fmt::format("{}", 80_GB) == "74.5 GiB");  // data defaults to binary (IEC) prefixes
  CHECK(fmt::format("{}", 512_B) == "512 B");
  CHECK(fmt::format("{}", 3.35_TBps) == "3.35 TB/s");  // bandwidth defaults to decimal
  CHECK(fmt::format("{}", 989_TFLOPS) == "989 TFLOP/s");
  CHECK(fmt::format("{}", 3.14e23_FLOP) == "314 ZFLOP");
  CHECK(fmt::format("{}", 700_W) == "700 W");
  CHECK(fmt::format("{}", 10.2_kW) == "10.2 kW");
  CHECK(fmt::format("{}", 1.5_kWh) == "1.5 kWh");
  CHECK(fmt::format("{}", 5.4_MJ) == "1.5 kWh");  // energy prints in watt-hours from 1 Wh up
  CHECK(fmt::format("{}", 500_J) == "500 J");
  CHECK(fmt::format("{}", 12_ms) == "12 ms");
  CHECK(fmt::format("{}", 1.2_h) == "1.2 h");
  CHECK(fmt::format("{}", 90_s) == "1.5 min");
  CHECK(fmt::format("{}", 250_ns) == "250 ns");
  CHECK(fmt::format("{}", 3_d) == "3 d");
  CHECK(fmt::format("{}", 1410_MHz) == "1.41 GHz");
  CHECK(fmt::format("{}", 15_Ttokens) == "15 Ttok");
  CHECK(fmt::format("{}", 120_requests) == "120 req");
  CHECK(fmt::format("{}", 1500_tokens / 1_s) == "1.5 ktok/s");
  CHECK(fmt::format("{}", 2_requests / 1_s) == "2 req/s");
  CHECK(fmt::format("{}", 989_TFLOP / 3.35_TB) == "295 FLOP/B");
  CHECK(fmt::format("{}", 700_J / 1_TFLOP) == "700 pJ/FLOP");
  CHECK(fmt::format("{}", 320_KiB / 1_tokens) == "320 KiB/tok");
  CHECK(fmt::format("{}", 140_GFLOP / 1_tokens) == "140 GFLOP/tok");
}

TEST_CASE("money prints with a dollar sign, cents below a thousand, k/M/B above", "[format]") {
  CHECK(fmt::format("{}", 1200_usd) == "$1.2k");
  CHECK(fmt::format("{}", 2.5_usd) == "$2.50");
  CHECK(fmt::format("{}", 4.6e6_usd) == "$4.6M");
  CHECK(fmt::format("{}", 1.25e9_usd) == "$1.25B");
  CHECK(fmt::format("{}", 2.5_usd_per_h) == "$2.50/h");
  CHECK(fmt::format("{}", 1234_usd / 1_h) == "$1.23k/h");
  CHECK(fmt::format("{}", 0.085_usd_per_kWh) == "$0.085/kWh");
  CHECK(fmt::format("{}", 2.5_usd / 1_Mtokens) == "$2.50/Mtok");
  CHECK(fmt::format("{}", 0.5_usd) == "$0.50");
  CHECK(fmt::format("{}", -5_usd) == "-$5.00");
  CHECK(fmt::format("{}", 999.996_usd) == "$1k");  // rounding carries into the next unit
}

TEST_CASE("rounding never prints 1000 of a unit when the next one fits", "[format]") {
  CHECK(fmt::format("{}", 999.7_GBps) == "1 TB/s");
  CHECK(fmt::format("{}", 1023.9_MiB) == "1 GiB");
  CHECK(fmt::format("{}", 59.9999_s) == "1 min");
  CHECK(fmt::format("{}", 999.4_W) == "999 W");
}

TEST_CASE("a precision sets the digits after the point", "[format]") {
  CHECK(fmt::format("{:.2}", 3.35_TBps) == "3.35 TB/s");
  CHECK(fmt::format("{:.2}", 80_GiB) == "80.00 GiB");
  CHECK(fmt::format("{:.0}", 3.35_TBps) == "3 TB/s");
  CHECK(fmt::format("{:.3}", 1200_usd) == "$1.200k");
  CHECK(fmt::format("{:.1}", 12_ms) == "12.0 ms");
}

TEST_CASE("a unit in the spec fixes the unit", "[format]") {
  CHECK(fmt::format("{:GB}", 80_GiB) == "85.9 GB");
  CHECK(fmt::format("{:.1GiB}", 80_GB) == "74.5 GiB");
  CHECK(fmt::format("{:MiB}", 80_GiB) == "81920 MiB");
  CHECK(fmt::format("{:.0B}", 80_GiB) == "85899345920 B");
  CHECK(fmt::format("{:B}", 80_GiB) == "85899345920 B");  // all the integer digits below 1e15
  CHECK(fmt::format("{:Gbit}", 1_GB) == "8 Gbit");
  CHECK(fmt::format("{:Gbps}", 50_GBps) == "400 Gb/s");  // alias: prints the canonical symbol
  CHECK(fmt::format("{:Gb/s}", 50_GBps) == "400 Gb/s");
  CHECK(fmt::format("{:GBps}", 400_Gbps) == "50 GB/s");
  CHECK(fmt::format("{:GiB/s}", 1_TBps) == "931 GiB/s");
  CHECK(fmt::format("{:TFLOPS}", 1.979_PFLOPS) == "1979 TFLOP/s");
  CHECK(fmt::format("{:PF-days}", 3.14e23_FLOP) == "3634 PF-days");
  CHECK(fmt::format("{:kW}", 700_W) == "0.7 kW");
  CHECK(fmt::format("{:MJ}", 1.5_kWh) == "5.4 MJ");
  CHECK(fmt::format("{:J}", 1_kWh) == "3600000 J");
  CHECK(fmt::format("{:h}", 90_min) == "1.5 h");
  CHECK(fmt::format("{:us}", 12_ms) == "12000 us");
  CHECK(fmt::format("{:$}", 1200_usd) == "$1200.00");
  CHECK(fmt::format("{:$/s}", 36_usd_per_h) == "$0.01/s");
  CHECK(fmt::format("{:$/yr}", 1_usd_per_h) == "$8760.00/yr");
  CHECK(fmt::format("{:$/MWh}", 0.085_usd_per_kWh) == "$85.00/MWh");
  CHECK(fmt::format("{:$/tok}", 2_usd / 1_Mtokens) == "$0.000002/tok");
  CHECK(fmt::format("{:req/h}", 1_requests / 1_s) == "3600 req/h");
}

TEST_CASE("si, iec and bits choose the auto-scaled ladder", "[format]") {
  CHECK(fmt::format("{:si}", 80_GiB) == "85.9 GB");
  CHECK(fmt::format("{:iec}", 80_GB) == "74.5 GiB");
  CHECK(fmt::format("{:bits}", 50_GBps) == "400 Gb/s");
  CHECK(fmt::format("{:iec}", 3.35_TBps) == "3.05 TiB/s");
  CHECK(fmt::format("{:bits}", 1_MB) == "8 Mbit");
  CHECK(fmt::format("{:si}", 1.5_kWh) == "5.4 MJ");
  CHECK(fmt::format("{:.1si}", 80_GiB) == "85.9 GB");
}

TEST_CASE("fill, alignment and width pad the whole text", "[format]") {
  CHECK(fmt::format("[{:>12}]", 80_GiB) == "[      80 GiB]");
  CHECK(fmt::format("[{:12}]", 80_GiB) == "[      80 GiB]");  // numbers align right by default
  CHECK(fmt::format("[{:<12}]", 80_GiB) == "[80 GiB      ]");
  CHECK(fmt::format("[{:*^12.1GB}]", 1_GB) == "[***1.0 GB***]");
  CHECK(fmt::format("[{:3}]", 80_GiB) == "[80 GiB]");  // never truncated
}

TEST_CASE("zero, negatives, NaN and infinity", "[format]") {
  CHECK(fmt::format("{}", 0_B) == "0 B");
  CHECK(fmt::format("{}", 0_s) == "0 s");
  CHECK(fmt::format("{}", 0_W) == "0 W");
  CHECK(fmt::format("{}", 0_usd) == "$0.00");
  CHECK(fmt::format("{}", -80_GiB) == "-80 GiB");
  CHECK(fmt::format("{}", -12_ms) == "-12 ms");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(fmt::format("{}", data_size::from_base(nan)) == "NaN B");
  CHECK(fmt::format("{}", duration::from_base(inf)) == "inf s");
  CHECK(fmt::format("{}", duration::from_base(-inf)) == "-inf s");
  CHECK(fmt::format("{:GiB}", data_size::from_base(inf)) == "inf GiB");
  CHECK(fmt::format("{}", money::from_base(nan)) == "$NaN");
  CHECK(fmt::format("{}", 1e-12_s) == "0.001 ns");
  CHECK(fmt::format("{}", 1e30_FLOP) == "1000000 YFLOP");
  CHECK(fmt::format("{:FLOP}", 1e30_FLOP) == "1e+30 FLOP");  // scientific from 1e15 up
  CHECK(fmt::format("{:s}", 1e-9_ns) == "1e-18 s");           // and below 1e-6
}

TEST_CASE("float and long double quantities print the same way", "[format]") {
  const quantity<dims::data, float> f{80_GiB};
  const quantity<dims::data, long double> l{80_GiB};
  CHECK(fmt::format("{}", f) == "80 GiB");
  CHECK(fmt::format("{}", l) == "80 GiB");
}

TEST_CASE("unnamed dimensions print in base units with the exponents spelt out", "[format]") {
  CHECK(fmt::format("{}", 1_GB * 1_s) == "1000000000 B*s");
  CHECK(fmt::format("{}", 3_B * 4_B) == "12 B^2");
  CHECK(fmt::format("{}", 1 / 4_B) == "0.25 1/B");
  CHECK(fmt::format("{}", 2_usd / (1_B * 1_s)) == "2 $/(B*s)");
  CHECK(fmt::format("{}", 1_W * 1_W) == "1 J^2/s^2");
  CHECK(fmt::format("{:.2}", 3_B * 4_B) == "12.00 B^2");
}

TEST_CASE("a bad spec is an error naming the problem", "[format]") {
  CHECK_THROWS_WITH(rt("{:GiB}", 1_s), Catch::Contains("unknown unit"));
  CHECK_THROWS_WITH(rt("{:W}", 1_kWh), Catch::Contains("unknown unit"));
  CHECK_THROWS_WITH(rt("{:iec}", 1_s), Catch::Contains("'si', 'iec' and 'bits'"));
  CHECK_THROWS_WITH(rt("{:.}", 1_s), Catch::Contains("followed by a number"));
  CHECK_THROWS_WITH(rt("{:B}", 1_B * 1_s), Catch::Contains("no named units"));
  CHECK(rt("{:ms}", 1_s) == "1000 ms");
}

TEST_CASE("unit symbols and dimension names print as text", "[format]") {
  CHECK(fmt::format("{}", units::GiB.symbol) == "GiB");
  CHECK(fmt::format("[{:>6}]", units::TBps.symbol) == "[  TB/s]");
  CHECK(fmt::format("{}", dimension_name(dims::compute_rate)) == "compute rate");
}

TEST_CASE("precision and name_string print as text", "[format]") {
  CHECK(fmt::format("{}", precision::bf16) == "bf16");
  CHECK(fmt::format("[{:>5}]", precision::fp8) == "[  fp8]");
  CHECK(fmt::format("{}", name_string("H100 SXM")) == "H100 SXM");
  CHECK(fmt::format("[{:<6}]", name_string("A100")) == "[A100  ]");
}

TEST_CASE("every enum with a name table prints its name", "[format][enum]") {
  CHECK(fmt::format("{}", precision::int4) == "int4");
  CHECK(fmt::format("{}", recompute_mode::selective) == "selective");
  CHECK(fmt::format("[{:>5}]", ffn_kind::mlp) == "[  mlp]");
}

TEST_CASE("carbon mass and grid intensity print in CO2-equivalent units", "[format][carbon]") {
  CHECK(fmt::format("{}", 1500_kgCO2e) == "1.5 tCO2e");
  CHECK(fmt::format("{}", 250_gCO2e) == "250 gCO2e");
  CHECK(fmt::format("{}", 400_gCO2e_per_kWh) == "400 gCO2e/kWh");
  CHECK(fmt::format("{:kgCO2e/MWh}", 400_gCO2e_per_kWh) == "400 kgCO2e/MWh");
  CHECK(fmt::format("{:.1tCO2e}", 2345_kgCO2e) == "2.3 tCO2e");
  // 1 MWh at 400 g/kWh: 400 kg (energy x intensity is a carbon mass).
  CHECK(fmt::format("{}", 1_MWh * 400_gCO2e_per_kWh) == "400 kgCO2e");
  CHECK(fmt::format("{}", dimension_name(dims::carbon)) == "carbon mass");
  CHECK(fmt::format("{}", 1_kgCO2e * 1_s) == "1 s*kgCO2e");
}

// The constants, the literals and the print ladders are generated from one list (GPUPLAN_UNITS):
// every unit must print as its own symbol when a spec names it by symbol or by constant, equal its
// literal, and, on a ladder, be what auto-scaling picks for exactly one of it. A unit whose
// symbol, factor or ladder drifted (or whose symbol two units of one dimension share) fails here.
TEST_CASE("every unit prints as itself, by symbol and by constant name, and equals its literal",
          "[format]") {
  std::size_t count = 0;
  const auto check = [&count](auto u, auto from_literal, std::string_view constant,
                              std::string_view symbol, bool on_default_ladder) {
    ++count;
    INFO(constant << " \"" << symbol << "\"");
    const auto one = 1 * u;
    CHECK(from_literal == one);
    CHECK(std::string_view(u.symbol) == symbol);
    const bool money = decltype(u)::dim.money != 0;
    std::string printed(symbol);
    if (money) {  // "$" before the digits, cents below a thousand: "$1.00/h", "$1k", "$1.00"
      const auto dollar = printed.find('$');
      printed.erase(dollar, 1);
      printed = (symbol.starts_with('$') ? "$1.00" : "$1") + printed;
    } else {
      printed = "1 " + printed;
    }
    CHECK(rt("{:" + std::string(symbol) + "}", one) == printed);
    CHECK(rt("{:" + std::string(constant) + "}", one) == printed);
    if (on_default_ladder) CHECK(fmt::format("{}", one) == printed);
  };
#define GPUPLAN_TEST_UNIT(constant, literal, dim, factor, symbol, ladders)              \
  check(units::constant, 1.0_##literal, #constant, symbol, ([] {                         \
          using namespace detail::qfmt::ladder_bits;                                    \
          return (static_cast<unsigned>(ladders) & detail::qfmt::ladder_bits::dflt) != 0; \
        }()));
  GPUPLAN_UNITS(GPUPLAN_TEST_UNIT)
#undef GPUPLAN_TEST_UNIT
  CHECK(count == detail::qfmt::unit_count);
}
