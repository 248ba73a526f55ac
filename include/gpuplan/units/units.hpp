// gpuplan/units/units.hpp: named units of every gpuplan dimension, and the literals.
//
// A unit is a dimension, a factor to the base unit and a symbol. Multiply a number by a unit to
// make a quantity (`80 * GiB`), read a quantity in a unit with `q.in(GiB)`. Decimal (SI) and
// binary (IEC) prefixes are distinct units: 1 GB = 1e9 bytes, 1 GiB = 2^30 bytes. Bits are data:
// 1 bit = 1/8 byte, so 400 Gb/s = 50 GB/s.
#pragma once

#include <gpuplan/units/quantity.hpp>

namespace gpuplan {

template <dimension D>
struct unit {
  static constexpr dimension dim = D;
  double factor;           ///< how many base units one of this unit is
  text_view symbol;  ///< how it prints ("GiB", "TB/s"); empty for unnamed products
};

template <dimension D, detail::scalar S>
constexpr quantity<D> operator*(S n, unit<D> u) {
  return quantity<D>::from_base(static_cast<double>(n) * u.factor);
}
template <dimension D, detail::scalar S>
constexpr quantity<D> operator*(unit<D> u, S n) {
  return quantity<D>::from_base(u.factor * static_cast<double>(n));
}
/// A quantity times or over a unit: `2 * units::usd / units::Mtoken`, `5 * units::GB / units::s`.
template <dimension A, class R, dimension B>
constexpr auto operator*(quantity<A, R> q, unit<B> u) {
  return detail::make<A * B, R>(q.value * static_cast<R>(u.factor));
}
template <dimension A, class R, dimension B>
constexpr auto operator/(quantity<A, R> q, unit<B> u) {
  return detail::make<A / B, R>(q.value / static_cast<R>(u.factor));
}
template <dimension A, dimension B>
constexpr unit<A * B> operator*(unit<A> a, unit<B> b) {
  return {a.factor * b.factor, {}};
}
template <dimension A, dimension B>
constexpr unit<A / B> operator/(unit<A> a, unit<B> b) {
  return {a.factor / b.factor, {}};
}

/// The unit constants live in their own namespace so that short symbols (s, h, B, W) never shadow
/// or collide with names in user code: write `gpuplan::units::GiB`, or `using namespace
/// gpuplan::units;` and then `GiB`.
namespace units {

// ---- data ---------------------------------------------------------------------------------------
inline constexpr unit<dims::data> bit{0.125, "bit"};
inline constexpr unit<dims::data> kbit{1e3 / 8, "kbit"};
inline constexpr unit<dims::data> Mbit{1e6 / 8, "Mbit"};
inline constexpr unit<dims::data> Gbit{1e9 / 8, "Gbit"};
inline constexpr unit<dims::data> Tbit{1e12 / 8, "Tbit"};
inline constexpr unit<dims::data> B{1.0, "B"};
inline constexpr unit<dims::data> kB{1e3, "kB"};
inline constexpr unit<dims::data> MB{1e6, "MB"};
inline constexpr unit<dims::data> GB{1e9, "GB"};
inline constexpr unit<dims::data> TB{1e12, "TB"};
inline constexpr unit<dims::data> PB{1e15, "PB"};
inline constexpr unit<dims::data> EB{1e18, "EB"};
inline constexpr unit<dims::data> KiB{1024.0, "KiB"};
inline constexpr unit<dims::data> MiB{1048576.0, "MiB"};
inline constexpr unit<dims::data> GiB{1073741824.0, "GiB"};
inline constexpr unit<dims::data> TiB{1099511627776.0, "TiB"};
inline constexpr unit<dims::data> PiB{1125899906842624.0, "PiB"};
inline constexpr unit<dims::data> EiB{1152921504606846976.0, "EiB"};

// ---- time ---------------------------------------------------------------------------------------
inline constexpr unit<dims::time> ns{1e-9, "ns"};
inline constexpr unit<dims::time> us{1e-6, "us"};
inline constexpr unit<dims::time> ms{1e-3, "ms"};
inline constexpr unit<dims::time> s{1.0, "s"};
inline constexpr unit<dims::time> minute{60.0, "min"};
inline constexpr unit<dims::time> h{3600.0, "h"};
inline constexpr unit<dims::time> d{86400.0, "d"};
inline constexpr unit<dims::time> day{86400.0, "d"};  ///< the same as d, spelled out
inline constexpr unit<dims::time> yr{365.0 * 86400.0, "yr"};  ///< a 365-day year

// ---- compute ------------------------------------------------------------------------------------
inline constexpr unit<dims::compute> FLOP{1.0, "FLOP"};
inline constexpr unit<dims::compute> kFLOP{1e3, "kFLOP"};
inline constexpr unit<dims::compute> MFLOP{1e6, "MFLOP"};
inline constexpr unit<dims::compute> GFLOP{1e9, "GFLOP"};
inline constexpr unit<dims::compute> TFLOP{1e12, "TFLOP"};
inline constexpr unit<dims::compute> PFLOP{1e15, "PFLOP"};
inline constexpr unit<dims::compute> EFLOP{1e18, "EFLOP"};
inline constexpr unit<dims::compute> ZFLOP{1e21, "ZFLOP"};
inline constexpr unit<dims::compute> YFLOP{1e24, "YFLOP"};
/// A petaFLOP/s-day (8.64e19 FLOP), the unit of the GPT-3 paper's compute tables.
inline constexpr unit<dims::compute> PFLOP_s_day{1e15 * 86400.0, "PF-days"};

// ---- energy and power ---------------------------------------------------------------------------
inline constexpr unit<dims::energy> J{1.0, "J"};
inline constexpr unit<dims::energy> kJ{1e3, "kJ"};
inline constexpr unit<dims::energy> MJ{1e6, "MJ"};
inline constexpr unit<dims::energy> GJ{1e9, "GJ"};
inline constexpr unit<dims::energy> Wh{3600.0, "Wh"};
inline constexpr unit<dims::energy> kWh{3.6e6, "kWh"};
inline constexpr unit<dims::energy> MWh{3.6e9, "MWh"};
inline constexpr unit<dims::energy> GWh{3.6e12, "GWh"};
inline constexpr unit<dims::power> W{1.0, "W"};
inline constexpr unit<dims::power> kW{1e3, "kW"};
inline constexpr unit<dims::power> MW{1e6, "MW"};
inline constexpr unit<dims::power> GW{1e9, "GW"};

// ---- money --------------------------------------------------------------------------------------
/// The US dollar. gpuplan has one currency: other currencies are not modelled, so nothing ever
/// converts between currencies implicitly (or at all).
inline constexpr unit<dims::money> usd{1.0, "$"};

// ---- carbon ---------------------------------------------------------------------------------------
/// Greenhouse-gas emissions in mass of CO2 equivalent (GHG Protocol; IPCC AR6 100-year global
/// warming potentials). The base unit is the kilogram: grid intensities are published in
/// g CO2e/kWh, embodied emissions of hardware in kg CO2e, annual totals in tonnes. The names carry
/// "CO2e": one-letter names (g, t) would shadow every local `g` and `t` of code that writes
/// `using namespace gpuplan::units;` (-Wshadow).
inline constexpr unit<dims::carbon> gCO2e{1e-3, "gCO2e"};
inline constexpr unit<dims::carbon> kgCO2e{1.0, "kgCO2e"};
inline constexpr unit<dims::carbon> tCO2e{1e3, "tCO2e"};  ///< tonne
inline constexpr unit<dims::carbon> ktCO2e{1e6, "ktCO2e"};
inline constexpr unit<dims::carbon> MtCO2e{1e9, "MtCO2e"};
/// Grid carbon intensity, as grid operators and the IEA publish it.
inline constexpr unit<dims::carbon_intensity> gCO2e_per_kWh{1e-3 / 3.6e6, "gCO2e/kWh"};
inline constexpr unit<dims::carbon_intensity> kgCO2e_per_kWh{1.0 / 3.6e6, "kgCO2e/kWh"};

// ---- tokens and requests ------------------------------------------------------------------------
inline constexpr unit<dims::tokens> token{1.0, "tok"};
inline constexpr unit<dims::tokens> ktoken{1e3, "ktok"};
inline constexpr unit<dims::tokens> Mtoken{1e6, "Mtok"};
inline constexpr unit<dims::tokens> Btoken{1e9, "Btok"};
inline constexpr unit<dims::tokens> Ttoken{1e12, "Ttok"};
inline constexpr unit<dims::requests> request{1.0, "req"};

// ---- derived ------------------------------------------------------------------------------------
inline constexpr unit<dims::frequency> Hz{1.0, "Hz"};
inline constexpr unit<dims::frequency> kHz{1e3, "kHz"};
inline constexpr unit<dims::frequency> MHz{1e6, "MHz"};
inline constexpr unit<dims::frequency> GHz{1e9, "GHz"};

inline constexpr unit<dims::bandwidth> Bps{1.0, "B/s"};
inline constexpr unit<dims::bandwidth> kBps{1e3, "kB/s"};
inline constexpr unit<dims::bandwidth> MBps{1e6, "MB/s"};
inline constexpr unit<dims::bandwidth> GBps{1e9, "GB/s"};
inline constexpr unit<dims::bandwidth> TBps{1e12, "TB/s"};
inline constexpr unit<dims::bandwidth> KiBps{1024.0, "KiB/s"};
inline constexpr unit<dims::bandwidth> MiBps{1048576.0, "MiB/s"};
inline constexpr unit<dims::bandwidth> GiBps{1073741824.0, "GiB/s"};
inline constexpr unit<dims::bandwidth> bps{0.125, "b/s"};
inline constexpr unit<dims::bandwidth> Mbps{1e6 / 8, "Mb/s"};
inline constexpr unit<dims::bandwidth> Gbps{1e9 / 8, "Gb/s"};
inline constexpr unit<dims::bandwidth> Tbps{1e12 / 8, "Tb/s"};

inline constexpr unit<dims::compute_rate> FLOPS{1.0, "FLOP/s"};
inline constexpr unit<dims::compute_rate> GFLOPS{1e9, "GFLOP/s"};
inline constexpr unit<dims::compute_rate> TFLOPS{1e12, "TFLOP/s"};
inline constexpr unit<dims::compute_rate> PFLOPS{1e15, "PFLOP/s"};
inline constexpr unit<dims::compute_rate> EFLOPS{1e18, "EFLOP/s"};

inline constexpr unit<dims::intensity> FLOP_per_B{1.0, "FLOP/B"};
inline constexpr unit<dims::energy_per_compute> pJ_per_FLOP{1e-12, "pJ/FLOP"};
inline constexpr unit<dims::money_rate> usd_per_h{1.0 / 3600.0, "$/h"};
inline constexpr unit<dims::energy_price> usd_per_kWh{1.0 / 3.6e6, "$/kWh"};
inline constexpr unit<dims::token_rate> tokens_per_s{1.0, "tok/s"};
inline constexpr unit<dims::request_rate> requests_per_s{1.0, "req/s"};
inline constexpr unit<dims::data_per_token> B_per_token{1.0, "B/tok"};
inline constexpr unit<dims::compute_per_token> FLOP_per_token{1.0, "FLOP/tok"};
inline constexpr unit<dims::money_per_token> usd_per_Mtoken{1e-6, "$/Mtok"};

}  // namespace units

/// User-defined literals: `80_GiB`, `3.35_TBps`. The namespace is inline, as std::literals is:
/// `using namespace gpuplan;` brings them, and `using namespace gpuplan::literals;` brings only
/// them.
inline namespace literals {
#define GPUPLAN_DEFINE_LITERAL(suffix, unit_name)                                     \
  constexpr auto operator""_##suffix(long double v) {                                \
    return static_cast<double>(v) * ::gpuplan::units::unit_name;                            \
  }                                                                                  \
  constexpr auto operator""_##suffix(unsigned long long v) {                         \
    return static_cast<double>(v) * ::gpuplan::units::unit_name;                            \
  }

GPUPLAN_DEFINE_LITERAL(bit, bit)
GPUPLAN_DEFINE_LITERAL(kbit, kbit)
GPUPLAN_DEFINE_LITERAL(Mbit, Mbit)
GPUPLAN_DEFINE_LITERAL(Gbit, Gbit)
GPUPLAN_DEFINE_LITERAL(Tbit, Tbit)
GPUPLAN_DEFINE_LITERAL(B, B)
GPUPLAN_DEFINE_LITERAL(kB, kB)
GPUPLAN_DEFINE_LITERAL(MB, MB)
GPUPLAN_DEFINE_LITERAL(GB, GB)
GPUPLAN_DEFINE_LITERAL(TB, TB)
GPUPLAN_DEFINE_LITERAL(PB, PB)
GPUPLAN_DEFINE_LITERAL(KiB, KiB)
GPUPLAN_DEFINE_LITERAL(MiB, MiB)
GPUPLAN_DEFINE_LITERAL(GiB, GiB)
GPUPLAN_DEFINE_LITERAL(TiB, TiB)
GPUPLAN_DEFINE_LITERAL(PiB, PiB)
GPUPLAN_DEFINE_LITERAL(EB, EB)
GPUPLAN_DEFINE_LITERAL(EiB, EiB)
GPUPLAN_DEFINE_LITERAL(MBps, MBps)
GPUPLAN_DEFINE_LITERAL(GBps, GBps)
GPUPLAN_DEFINE_LITERAL(TBps, TBps)
GPUPLAN_DEFINE_LITERAL(GiBps, GiBps)
GPUPLAN_DEFINE_LITERAL(Mbps, Mbps)
GPUPLAN_DEFINE_LITERAL(Gbps, Gbps)
GPUPLAN_DEFINE_LITERAL(Tbps, Tbps)
GPUPLAN_DEFINE_LITERAL(FLOP, FLOP)
GPUPLAN_DEFINE_LITERAL(GFLOP, GFLOP)
GPUPLAN_DEFINE_LITERAL(TFLOP, TFLOP)
GPUPLAN_DEFINE_LITERAL(PFLOP, PFLOP)
GPUPLAN_DEFINE_LITERAL(EFLOP, EFLOP)
GPUPLAN_DEFINE_LITERAL(ZFLOP, ZFLOP)
GPUPLAN_DEFINE_LITERAL(GFLOPS, GFLOPS)
GPUPLAN_DEFINE_LITERAL(TFLOPS, TFLOPS)
GPUPLAN_DEFINE_LITERAL(PFLOPS, PFLOPS)
GPUPLAN_DEFINE_LITERAL(EFLOPS, EFLOPS)
GPUPLAN_DEFINE_LITERAL(ns, ns)
GPUPLAN_DEFINE_LITERAL(us, us)
GPUPLAN_DEFINE_LITERAL(ms, ms)
GPUPLAN_DEFINE_LITERAL(s, s)
GPUPLAN_DEFINE_LITERAL(min, minute)
GPUPLAN_DEFINE_LITERAL(h, h)
GPUPLAN_DEFINE_LITERAL(d, d)
GPUPLAN_DEFINE_LITERAL(yr, yr)
GPUPLAN_DEFINE_LITERAL(W, W)
GPUPLAN_DEFINE_LITERAL(kW, kW)
GPUPLAN_DEFINE_LITERAL(MW, MW)
GPUPLAN_DEFINE_LITERAL(GW, GW)
GPUPLAN_DEFINE_LITERAL(J, J)
GPUPLAN_DEFINE_LITERAL(kJ, kJ)
GPUPLAN_DEFINE_LITERAL(GJ, GJ)
GPUPLAN_DEFINE_LITERAL(MJ, MJ)
GPUPLAN_DEFINE_LITERAL(Wh, Wh)
GPUPLAN_DEFINE_LITERAL(kWh, kWh)
GPUPLAN_DEFINE_LITERAL(MWh, MWh)
GPUPLAN_DEFINE_LITERAL(GWh, GWh)
GPUPLAN_DEFINE_LITERAL(usd, usd)
GPUPLAN_DEFINE_LITERAL(usd_per_h, usd_per_h)
GPUPLAN_DEFINE_LITERAL(usd_per_kWh, usd_per_kWh)
GPUPLAN_DEFINE_LITERAL(tokens, token)
GPUPLAN_DEFINE_LITERAL(ktokens, ktoken)
GPUPLAN_DEFINE_LITERAL(Mtokens, Mtoken)
GPUPLAN_DEFINE_LITERAL(Btokens, Btoken)
GPUPLAN_DEFINE_LITERAL(Ttokens, Ttoken)
GPUPLAN_DEFINE_LITERAL(requests, request)
GPUPLAN_DEFINE_LITERAL(gCO2e, gCO2e)
GPUPLAN_DEFINE_LITERAL(kgCO2e, kgCO2e)
GPUPLAN_DEFINE_LITERAL(tCO2e, tCO2e)
GPUPLAN_DEFINE_LITERAL(gCO2e_per_kWh, gCO2e_per_kWh)
GPUPLAN_DEFINE_LITERAL(Hz, Hz)
GPUPLAN_DEFINE_LITERAL(MHz, MHz)
GPUPLAN_DEFINE_LITERAL(GHz, GHz)

#undef GPUPLAN_DEFINE_LITERAL
}  // namespace literals

}  // namespace gpuplan
