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

/// Every unit of the library, one row each: X(constant, literal, dimension, factor, symbol, ladders).
///
///   constant   the name in gpuplan::units (`GiB`); a format spec names the unit by it too ("GBps")
///   literal    the literal's suffix (`_GiB`; `_min` for `minute`, `_tokens` for `token`)
///   dimension  the dimension's name in dims::
///   factor     how many base units one of this unit is
///   symbol     how it prints ("GiB", "TB/s"); money: "$" goes before the digits, the rest after
///   ladders    which auto-scaled print ladders of its dimension (units/format.hpp) hold it:
///              dflt (the default), si, iec, bits (named in a spec), home (the unit zero, NaN and
///              infinity print in); `fixed`: a spec may name it, auto-scaling never picks it
///
/// The units::constants, the literals and the formatter's ladders are all generated from these
/// rows: a new unit, or the units of a new dimension, are rows here and nowhere else.
#define GPUPLAN_UNITS(X)                                                                        \
  /* data: bits, decimal (SI) and binary (IEC) bytes */                                         \
  X(bit, bit, data, 0.125, "bit", bits)                                                         \
  X(kbit, kbit, data, 1e3 / 8, "kbit", bits)                                                    \
  X(Mbit, Mbit, data, 1e6 / 8, "Mbit", bits)                                                    \
  X(Gbit, Gbit, data, 1e9 / 8, "Gbit", bits)                                                    \
  X(Tbit, Tbit, data, 1e12 / 8, "Tbit", bits)                                                   \
  X(Pbit, Pbit, data, 1e15 / 8, "Pbit", bits)                                                   \
  X(Ebit, Ebit, data, 1e18 / 8, "Ebit", bits)                                                   \
  X(B, B, data, 1.0, "B", dflt | si | iec | home)                                               \
  X(kB, kB, data, 1e3, "kB", si)                                                                \
  X(MB, MB, data, 1e6, "MB", si)                                                                \
  X(GB, GB, data, 1e9, "GB", si)                                                                \
  X(TB, TB, data, 1e12, "TB", si)                                                               \
  X(PB, PB, data, 1e15, "PB", si)                                                               \
  X(EB, EB, data, 1e18, "EB", si)                                                               \
  X(ZB, ZB, data, 1e21, "ZB", fixed)                                                            \
  X(YB, YB, data, 1e24, "YB", fixed)                                                            \
  X(KiB, KiB, data, 1024.0, "KiB", dflt | iec)                                                  \
  X(MiB, MiB, data, 1048576.0, "MiB", dflt | iec)                                               \
  X(GiB, GiB, data, 1073741824.0, "GiB", dflt | iec)                                            \
  X(TiB, TiB, data, 1099511627776.0, "TiB", dflt | iec)                                         \
  X(PiB, PiB, data, 1125899906842624.0, "PiB", dflt | iec)                                      \
  X(EiB, EiB, data, 1152921504606846976.0, "EiB", dflt | iec)                                   \
  /* time (yr: a 365-day year) */                                                               \
  X(ps, ps, time, 1e-12, "ps", fixed)                                                           \
  X(ns, ns, time, 1e-9, "ns", dflt)                                                             \
  X(us, us, time, 1e-6, "us", dflt)                                                             \
  X(ms, ms, time, 1e-3, "ms", dflt)                                                             \
  X(s, s, time, 1.0, "s", dflt | home)                                                          \
  X(minute, min, time, 60.0, "min", dflt)                                                       \
  X(h, h, time, 3600.0, "h", dflt)                                                              \
  X(d, d, time, 86400.0, "d", dflt)                                                             \
  X(day, day, time, 86400.0, "d", fixed) /* d, spelled out */                                   \
  X(yr, yr, time, 365.0 * 86400.0, "yr", dflt)                                                  \
  /* compute (PFLOP_s_day: a petaFLOP/s-day, the GPT-3 paper's unit) */                         \
  X(FLOP, FLOP, compute, 1.0, "FLOP", dflt | home)                                              \
  X(kFLOP, kFLOP, compute, 1e3, "kFLOP", dflt)                                                  \
  X(MFLOP, MFLOP, compute, 1e6, "MFLOP", dflt)                                                  \
  X(GFLOP, GFLOP, compute, 1e9, "GFLOP", dflt)                                                  \
  X(TFLOP, TFLOP, compute, 1e12, "TFLOP", dflt)                                                 \
  X(PFLOP, PFLOP, compute, 1e15, "PFLOP", dflt)                                                 \
  X(EFLOP, EFLOP, compute, 1e18, "EFLOP", dflt)                                                 \
  X(ZFLOP, ZFLOP, compute, 1e21, "ZFLOP", dflt)                                                 \
  X(YFLOP, YFLOP, compute, 1e24, "YFLOP", dflt)                                                 \
  X(PFLOP_s_day, PFLOP_s_day, compute, 1e15 * 86400.0, "PF-days", fixed)                        \
  X(FLOPS, FLOPS, compute_rate, 1.0, "FLOP/s", dflt | home)                                     \
  X(kFLOPS, kFLOPS, compute_rate, 1e3, "kFLOP/s", dflt)                                         \
  X(MFLOPS, MFLOPS, compute_rate, 1e6, "MFLOP/s", dflt)                                         \
  X(GFLOPS, GFLOPS, compute_rate, 1e9, "GFLOP/s", dflt)                                         \
  X(TFLOPS, TFLOPS, compute_rate, 1e12, "TFLOP/s", dflt)                                        \
  X(PFLOPS, PFLOPS, compute_rate, 1e15, "PFLOP/s", dflt)                                        \
  X(EFLOPS, EFLOPS, compute_rate, 1e18, "EFLOP/s", dflt)                                        \
  /* energy and power */                                                                        \
  X(J, J, energy, 1.0, "J", dflt | si | home)                                                   \
  X(kJ, kJ, energy, 1e3, "kJ", si)                                                              \
  X(MJ, MJ, energy, 1e6, "MJ", si)                                                              \
  X(GJ, GJ, energy, 1e9, "GJ", si)                                                              \
  X(TJ, TJ, energy, 1e12, "TJ", si)                                                             \
  X(PJ, PJ, energy, 1e15, "PJ", si)                                                             \
  X(EJ, EJ, energy, 1e18, "EJ", si)                                                             \
  X(Wh, Wh, energy, 3600.0, "Wh", dflt)                                                         \
  X(kWh, kWh, energy, 3.6e6, "kWh", dflt)                                                       \
  X(MWh, MWh, energy, 3.6e9, "MWh", dflt)                                                       \
  X(GWh, GWh, energy, 3.6e12, "GWh", dflt)                                                      \
  X(TWh, TWh, energy, 3.6e15, "TWh", dflt)                                                      \
  X(mW, mW, power, 1e-3, "mW", dflt)                                                            \
  X(W, W, power, 1.0, "W", dflt | home)                                                         \
  X(kW, kW, power, 1e3, "kW", dflt)                                                             \
  X(MW, MW, power, 1e6, "MW", dflt)                                                             \
  X(GW, GW, power, 1e9, "GW", dflt)                                                             \
  X(TW, TW, power, 1e12, "TW", dflt)                                                            \
  /* money: the US dollar, the one currency */                                                  \
  X(usd, usd, money, 1.0, "$", dflt | home)                                                     \
  X(kusd, kusd, money, 1e3, "k$", dflt)                                                         \
  X(Musd, Musd, money, 1e6, "M$", dflt)                                                         \
  X(Busd, Busd, money, 1e9, "B$", dflt)                                                         \
  X(Tusd, Tusd, money, 1e12, "T$", dflt)                                                        \
  X(usd_per_s, usd_per_s, money_rate, 1.0, "$/s", fixed)                                        \
  X(usd_per_min, usd_per_min, money_rate, 1.0 / 60.0, "$/min", fixed)                           \
  X(usd_per_h, usd_per_h, money_rate, 1.0 / 3600.0, "$/h", dflt | home)                         \
  X(kusd_per_h, kusd_per_h, money_rate, 1e3 / 3600.0, "k$/h", dflt)                             \
  X(Musd_per_h, Musd_per_h, money_rate, 1e6 / 3600.0, "M$/h", dflt)                             \
  X(usd_per_d, usd_per_d, money_rate, 1.0 / 86400.0, "$/d", fixed)                              \
  X(usd_per_yr, usd_per_yr, money_rate, 1.0 / (365.0 * 86400.0), "$/yr", fixed)                 \
  X(kusd_per_yr, kusd_per_yr, money_rate, 1e3 / (365.0 * 86400.0), "k$/yr", fixed)              \
  X(Musd_per_yr, Musd_per_yr, money_rate, 1e6 / (365.0 * 86400.0), "M$/yr", fixed)              \
  X(usd_per_J, usd_per_J, energy_price, 1.0, "$/J", fixed)                                      \
  X(usd_per_kWh, usd_per_kWh, energy_price, 1.0 / 3.6e6, "$/kWh", dflt | home)                  \
  X(usd_per_MWh, usd_per_MWh, energy_price, 1.0 / 3.6e9, "$/MWh", fixed)                        \
  X(usd_per_token, usd_per_token, money_per_token, 1.0, "$/tok", fixed)                         \
  X(usd_per_ktoken, usd_per_ktoken, money_per_token, 1e-3, "$/ktok", fixed)                     \
  X(usd_per_Mtoken, usd_per_Mtoken, money_per_token, 1e-6, "$/Mtok", dflt | home)               \
  X(usd_per_Btoken, usd_per_Btoken, money_per_token, 1e-9, "$/Btok", fixed)                     \
  /* carbon: kg CO2e (GHG Protocol, IPCC AR6 GWP100) */                                         \
  X(gCO2e, gCO2e, carbon, 1e-3, "gCO2e", dflt)                                                  \
  X(kgCO2e, kgCO2e, carbon, 1.0, "kgCO2e", dflt | home)                                         \
  X(tCO2e, tCO2e, carbon, 1e3, "tCO2e", dflt)                                                   \
  X(ktCO2e, ktCO2e, carbon, 1e6, "ktCO2e", dflt)                                                \
  X(MtCO2e, MtCO2e, carbon, 1e9, "MtCO2e", dflt)                                                \
  X(gCO2e_per_kWh, gCO2e_per_kWh, carbon_intensity, 1e-3 / 3.6e6, "gCO2e/kWh", dflt | home)     \
  X(kgCO2e_per_kWh, kgCO2e_per_kWh, carbon_intensity, 1.0 / 3.6e6, "kgCO2e/kWh", fixed)         \
  X(kgCO2e_per_MWh, kgCO2e_per_MWh, carbon_intensity, 1.0 / 3.6e9, "kgCO2e/MWh", fixed)         \
  X(tCO2e_per_MWh, tCO2e_per_MWh, carbon_intensity, 1e3 / 3.6e9, "tCO2e/MWh", fixed)            \
  /* tokens and requests */                                                                     \
  X(token, tokens, tokens, 1.0, "tok", dflt | home)                                             \
  X(ktoken, ktokens, tokens, 1e3, "ktok", dflt)                                                 \
  X(Mtoken, Mtokens, tokens, 1e6, "Mtok", dflt)                                                 \
  X(Btoken, Btokens, tokens, 1e9, "Btok", dflt)                                                 \
  X(Ttoken, Ttokens, tokens, 1e12, "Ttok", dflt)                                                \
  X(request, requests, requests, 1.0, "req", dflt | home)                                       \
  X(krequest, krequests, requests, 1e3, "kreq", dflt)                                           \
  X(Mrequest, Mrequests, requests, 1e6, "Mreq", dflt)                                           \
  X(Brequest, Brequests, requests, 1e9, "Breq", dflt)                                           \
  X(tokens_per_s, tokens_per_s, token_rate, 1.0, "tok/s", dflt | home)                          \
  X(ktokens_per_s, ktokens_per_s, token_rate, 1e3, "ktok/s", dflt)                              \
  X(Mtokens_per_s, Mtokens_per_s, token_rate, 1e6, "Mtok/s", dflt)                              \
  X(requests_per_h, requests_per_h, request_rate, 1.0 / 3600.0, "req/h", fixed)                 \
  X(requests_per_min, requests_per_min, request_rate, 1.0 / 60.0, "req/min", fixed)             \
  X(requests_per_s, requests_per_s, request_rate, 1.0, "req/s", dflt | home)                    \
  X(krequests_per_s, krequests_per_s, request_rate, 1e3, "kreq/s", dflt)                        \
  /* frequency */                                                                               \
  X(Hz, Hz, frequency, 1.0, "Hz", dflt | home)                                                  \
  X(kHz, kHz, frequency, 1e3, "kHz", dflt)                                                      \
  X(MHz, MHz, frequency, 1e6, "MHz", dflt)                                                      \
  X(GHz, GHz, frequency, 1e9, "GHz", dflt)                                                      \
  X(THz, THz, frequency, 1e12, "THz", dflt)                                                     \
  /* bandwidth: Bps bytes, bps bits per second */                                               \
  X(bps, bps, bandwidth, 0.125, "b/s", bits)                                                    \
  X(kbps, kbps, bandwidth, 1e3 / 8, "kb/s", bits)                                               \
  X(Mbps, Mbps, bandwidth, 1e6 / 8, "Mb/s", bits)                                               \
  X(Gbps, Gbps, bandwidth, 1e9 / 8, "Gb/s", bits)                                               \
  X(Tbps, Tbps, bandwidth, 1e12 / 8, "Tb/s", bits)                                              \
  X(Pbps, Pbps, bandwidth, 1e15 / 8, "Pb/s", bits)                                              \
  X(Ebps, Ebps, bandwidth, 1e18 / 8, "Eb/s", bits)                                              \
  X(Bps, Bps, bandwidth, 1.0, "B/s", dflt | si | iec | home)                                    \
  X(kBps, kBps, bandwidth, 1e3, "kB/s", dflt | si)                                              \
  X(MBps, MBps, bandwidth, 1e6, "MB/s", dflt | si)                                              \
  X(GBps, GBps, bandwidth, 1e9, "GB/s", dflt | si)                                              \
  X(TBps, TBps, bandwidth, 1e12, "TB/s", dflt | si)                                             \
  X(PBps, PBps, bandwidth, 1e15, "PB/s", dflt | si)                                             \
  X(EBps, EBps, bandwidth, 1e18, "EB/s", dflt | si)                                             \
  X(KiBps, KiBps, bandwidth, 1024.0, "KiB/s", iec)                                              \
  X(MiBps, MiBps, bandwidth, 1048576.0, "MiB/s", iec)                                           \
  X(GiBps, GiBps, bandwidth, 1073741824.0, "GiB/s", iec)                                        \
  X(TiBps, TiBps, bandwidth, 1099511627776.0, "TiB/s", iec)                                     \
  X(PiBps, PiBps, bandwidth, 1125899906842624.0, "PiB/s", iec)                                  \
  X(EiBps, EiBps, bandwidth, 1152921504606846976.0, "EiB/s", iec)                               \
  /* per token, per byte, per FLOP */                                                           \
  X(B_per_token, B_per_token, data_per_token, 1.0, "B/tok", dflt | si | iec | home)             \
  X(kB_per_token, kB_per_token, data_per_token, 1e3, "kB/tok", si)                              \
  X(MB_per_token, MB_per_token, data_per_token, 1e6, "MB/tok", si)                              \
  X(GB_per_token, GB_per_token, data_per_token, 1e9, "GB/tok", si)                              \
  X(TB_per_token, TB_per_token, data_per_token, 1e12, "TB/tok", si)                             \
  X(PB_per_token, PB_per_token, data_per_token, 1e15, "PB/tok", si)                             \
  X(EB_per_token, EB_per_token, data_per_token, 1e18, "EB/tok", si)                             \
  X(KiB_per_token, KiB_per_token, data_per_token, 1024.0, "KiB/tok", dflt | iec)                \
  X(MiB_per_token, MiB_per_token, data_per_token, 1048576.0, "MiB/tok", dflt | iec)             \
  X(GiB_per_token, GiB_per_token, data_per_token, 1073741824.0, "GiB/tok", dflt | iec)          \
  X(TiB_per_token, TiB_per_token, data_per_token, 1099511627776.0, "TiB/tok", dflt | iec)       \
  X(PiB_per_token, PiB_per_token, data_per_token, 1125899906842624.0, "PiB/tok", dflt | iec)    \
  X(EiB_per_token, EiB_per_token, data_per_token, 1152921504606846976.0, "EiB/tok", dflt | iec) \
  X(FLOP_per_token, FLOP_per_token, compute_per_token, 1.0, "FLOP/tok", dflt | home)            \
  X(kFLOP_per_token, kFLOP_per_token, compute_per_token, 1e3, "kFLOP/tok", dflt)                \
  X(MFLOP_per_token, MFLOP_per_token, compute_per_token, 1e6, "MFLOP/tok", dflt)                \
  X(GFLOP_per_token, GFLOP_per_token, compute_per_token, 1e9, "GFLOP/tok", dflt)                \
  X(TFLOP_per_token, TFLOP_per_token, compute_per_token, 1e12, "TFLOP/tok", dflt)               \
  X(PFLOP_per_token, PFLOP_per_token, compute_per_token, 1e15, "PFLOP/tok", dflt)               \
  X(EFLOP_per_token, EFLOP_per_token, compute_per_token, 1e18, "EFLOP/tok", dflt)               \
  X(FLOP_per_B, FLOP_per_B, intensity, 1.0, "FLOP/B", dflt | home)                              \
  X(fJ_per_FLOP, fJ_per_FLOP, energy_per_compute, 1e-15, "fJ/FLOP", dflt)                       \
  X(pJ_per_FLOP, pJ_per_FLOP, energy_per_compute, 1e-12, "pJ/FLOP", dflt | home)                \
  X(nJ_per_FLOP, nJ_per_FLOP, energy_per_compute, 1e-9, "nJ/FLOP", dflt)                        \
  X(uJ_per_FLOP, uJ_per_FLOP, energy_per_compute, 1e-6, "uJ/FLOP", dflt)                        \
  X(mJ_per_FLOP, mJ_per_FLOP, energy_per_compute, 1e-3, "mJ/FLOP", dflt)                        \
  X(J_per_FLOP, J_per_FLOP, energy_per_compute, 1.0, "J/FLOP", dflt)

/// The unit constants live in their own namespace so that short symbols (s, h, B, W) never shadow
/// or collide with names in user code: write `gpuplan::units::GiB`, or `using namespace
/// gpuplan::units;` and then `GiB`.
namespace units {
#define GPUPLAN_DETAIL_UNIT(constant, literal, dim, factor, symbol, ladders) \
  inline constexpr unit<dims::dim> constant{factor, symbol};
GPUPLAN_UNITS(GPUPLAN_DETAIL_UNIT)
#undef GPUPLAN_DETAIL_UNIT
}  // namespace units

/// User-defined literals: `80_GiB`, `3.35_TBps`, one for every unit. The namespace is inline, as
/// std::literals is: `using namespace gpuplan;` brings them, and `using namespace
/// gpuplan::literals;` brings only them.
inline namespace literals {
#define GPUPLAN_DETAIL_LITERAL(constant, literal, dim, factor, symbol, ladders) \
  constexpr auto operator""_##literal(long double v) {                          \
    return static_cast<double>(v) * ::gpuplan::units::constant;                 \
  }                                                                             \
  constexpr auto operator""_##literal(unsigned long long v) {                   \
    return static_cast<double>(v) * ::gpuplan::units::constant;                 \
  }
GPUPLAN_UNITS(GPUPLAN_DETAIL_LITERAL)
#undef GPUPLAN_DETAIL_LITERAL
}  // namespace literals

}  // namespace gpuplan
