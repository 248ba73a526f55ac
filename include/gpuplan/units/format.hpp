// gpuplan/units/format.hpp: {fmt} and std::format formatters for every gpuplan::quantity.
//
//   fmt::format("{}", 80_GiB)             "80 GiB"       auto-scaled, 3 significant digits
//   fmt::format("{}", 3.35_TBps)          "3.35 TB/s"
//   fmt::format("{:.2}", 3.35_TBps)       "3.35 TB/s"    .N: N digits after the point
//   fmt::format("{:GB}", 80_GiB)          "85.9 GB"      a fixed unit
//   fmt::format("{:>12.1GiB}", x)         fill, align, width, precision and unit together
//   fmt::format("{:si}", 80_GiB)          "85.9 GB"      decimal prefixes (data defaults to IEC)
//
// Spec grammar: [[fill]align][width][.precision][unit | si | iec | bits]; see docs/units.md.
//
// One formatting core (detail::qfmt: spec parsing, unit choice, number layout, with
// std::to_chars) and two thin front ends that only move characters: fmt::formatter where {fmt} is
// available, std::formatter where the standard library has <format> (__cpp_lib_format).
// Neither {fmt} nor <format> is included by the core headers.
#pragma once

#include <gpuplan/units.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string_view>
#include <system_error>
#include <version>

#if __has_include(<fmt/format.h>) && !defined(GPUPLAN_NO_FMT)
#include <fmt/format.h>
#define GPUPLAN_HAS_FMT 1
#endif
#if defined(__cpp_lib_format) && __cpp_lib_format >= 201907L
#include <format>
#define GPUPLAN_HAS_STD_FORMAT 1
#endif

namespace gpuplan::detail::qfmt {

/// One unit a quantity can be printed in. `name` is what a format spec names it by, `factor` its
/// size in base units, `shown` what is printed after the number ("GiB"; for money the text after
/// the digits: "k", "/h", "k/h", "/Mtok"). `cents`: a money unit printed with at least two decimals.
struct row {
  std::string_view name;
  double factor;
  std::string_view shown;
  bool cents = false;
};

// ---- the unit tables ----------------------------------------------------------------------------
// Ladders list units in increasing size; auto-scaling picks the largest unit not bigger than the
// value. Extra rows are accepted as fixed units only (and aliases such as "Gbps" for "Gb/s").

#define GPUPLAN_ROW(sym, f) row{sym, f, sym}
#define GPUPLAN_SI_UP(base, f)                                                                  \
  GPUPLAN_ROW(base, 1.0 * (f)), GPUPLAN_ROW("k" base, 1e3 * (f)), GPUPLAN_ROW("M" base, 1e6 * (f)), \
      GPUPLAN_ROW("G" base, 1e9 * (f)), GPUPLAN_ROW("T" base, 1e12 * (f)),                       \
      GPUPLAN_ROW("P" base, 1e15 * (f)), GPUPLAN_ROW("E" base, 1e18 * (f))
#define GPUPLAN_IEC(base, f)                                                                    \
  GPUPLAN_ROW(base, 1.0 * (f)), GPUPLAN_ROW("Ki" base, 1024.0 * (f)),                           \
      GPUPLAN_ROW("Mi" base, 1048576.0 * (f)), GPUPLAN_ROW("Gi" base, 1073741824.0 * (f)),       \
      GPUPLAN_ROW("Ti" base, 1099511627776.0 * (f)),                                            \
      GPUPLAN_ROW("Pi" base, 1125899906842624.0 * (f)),                                         \
      GPUPLAN_ROW("Ei" base, 1152921504606846976.0 * (f))
#define GPUPLAN_ALIAS_SI_UP(alias, base, f)                                                     \
  row{alias, 1.0 * (f), base}, row{"k" alias, 1e3 * (f), "k" base},                             \
      row{"M" alias, 1e6 * (f), "M" base}, row{"G" alias, 1e9 * (f), "G" base},                 \
      row{"T" alias, 1e12 * (f), "T" base}, row{"P" alias, 1e15 * (f), "P" base},               \
      row{"E" alias, 1e18 * (f), "E" base}

inline constexpr row data_iec[] = {GPUPLAN_IEC("B", 1.0)};
inline constexpr row data_si[] = {GPUPLAN_SI_UP("B", 1.0)};
inline constexpr row data_bits[] = {GPUPLAN_SI_UP("bit", 0.125)};
inline constexpr row data_extra[] = {GPUPLAN_ROW("Z" "B", 1e21), GPUPLAN_ROW("Y" "B", 1e24)};

inline constexpr row bandwidth_si[] = {GPUPLAN_SI_UP("B/s", 1.0)};
inline constexpr row bandwidth_iec[] = {GPUPLAN_IEC("B/s", 1.0)};
inline constexpr row bandwidth_bits[] = {GPUPLAN_SI_UP("b/s", 0.125)};
inline constexpr row bandwidth_extra[] = {
    GPUPLAN_ALIAS_SI_UP("Bps", "B/s", 1.0), GPUPLAN_ALIAS_SI_UP("bps", "b/s", 0.125),
    row{"KiBps", 1024.0, "KiB/s"},           row{"MiBps", 1048576.0, "MiB/s"},
    row{"GiBps", 1073741824.0, "GiB/s"},     row{"TiBps", 1099511627776.0, "TiB/s"}};

inline constexpr row time_ladder[] = {
    GPUPLAN_ROW("ns", 1e-9), GPUPLAN_ROW("us", 1e-6),   GPUPLAN_ROW("ms", 1e-3),
    GPUPLAN_ROW("s", 1.0),   GPUPLAN_ROW("min", 60.0),  GPUPLAN_ROW("h", 3600.0),
    GPUPLAN_ROW("d", 86400.0), GPUPLAN_ROW("yr", 365.0 * 86400.0)};
inline constexpr row time_extra[] = {GPUPLAN_ROW("ps", 1e-12)};

inline constexpr row compute_ladder[] = {GPUPLAN_SI_UP("FLOP", 1.0), GPUPLAN_ROW("ZFLOP", 1e21),
                                         GPUPLAN_ROW("YFLOP", 1e24)};
inline constexpr row compute_extra[] = {GPUPLAN_ROW("PF-days", 1e15 * 86400.0)};

inline constexpr row compute_rate_ladder[] = {GPUPLAN_SI_UP("FLOP/s", 1.0)};
inline constexpr row compute_rate_extra[] = {GPUPLAN_ALIAS_SI_UP("FLOPS", "FLOP/s", 1.0)};

inline constexpr row frequency_ladder[] = {GPUPLAN_ROW("Hz", 1.0), GPUPLAN_ROW("kHz", 1e3),
                                           GPUPLAN_ROW("MHz", 1e6), GPUPLAN_ROW("GHz", 1e9),
                                           GPUPLAN_ROW("THz", 1e12)};

inline constexpr row power_ladder[] = {GPUPLAN_ROW("mW", 1e-3), GPUPLAN_ROW("W", 1.0),
                                       GPUPLAN_ROW("kW", 1e3),  GPUPLAN_ROW("MW", 1e6),
                                       GPUPLAN_ROW("GW", 1e9),  GPUPLAN_ROW("TW", 1e12)};

// Energy prints in joules below one watt-hour, and in watt-hours (kWh, MWh, ...) above: the units
// power is bought and billed in.
inline constexpr row energy_ladder[] = {GPUPLAN_ROW("J", 1.0),      GPUPLAN_ROW("Wh", 3600.0),
                                        GPUPLAN_ROW("kWh", 3.6e6),  GPUPLAN_ROW("MWh", 3.6e9),
                                        GPUPLAN_ROW("GWh", 3.6e12), GPUPLAN_ROW("TWh", 3.6e15)};
inline constexpr row energy_si[] = {GPUPLAN_SI_UP("J", 1.0)};

inline constexpr row intensity_ladder[] = {GPUPLAN_ROW("FLOP/B", 1.0)};
inline constexpr row energy_per_compute_ladder[] = {
    GPUPLAN_ROW("fJ/FLOP", 1e-15), GPUPLAN_ROW("pJ/FLOP", 1e-12), GPUPLAN_ROW("nJ/FLOP", 1e-9),
    GPUPLAN_ROW("uJ/FLOP", 1e-6),  GPUPLAN_ROW("mJ/FLOP", 1e-3),  GPUPLAN_ROW("J/FLOP", 1.0)};

inline constexpr row tokens_ladder[] = {GPUPLAN_ROW("tok", 1.0), GPUPLAN_ROW("ktok", 1e3),
                                        GPUPLAN_ROW("Mtok", 1e6), GPUPLAN_ROW("Btok", 1e9),
                                        GPUPLAN_ROW("Ttok", 1e12)};
inline constexpr row requests_ladder[] = {GPUPLAN_ROW("req", 1.0), GPUPLAN_ROW("kreq", 1e3),
                                          GPUPLAN_ROW("Mreq", 1e6), GPUPLAN_ROW("Breq", 1e9)};
inline constexpr row token_rate_ladder[] = {GPUPLAN_ROW("tok/s", 1.0), GPUPLAN_ROW("ktok/s", 1e3),
                                            GPUPLAN_ROW("Mtok/s", 1e6)};
inline constexpr row request_rate_ladder[] = {GPUPLAN_ROW("req/s", 1.0),
                                              GPUPLAN_ROW("kreq/s", 1e3)};
inline constexpr row request_rate_extra[] = {GPUPLAN_ROW("req/min", 1.0 / 60.0),
                                             GPUPLAN_ROW("req/h", 1.0 / 3600.0)};
inline constexpr row data_per_token_iec[] = {GPUPLAN_IEC("B/tok", 1.0)};
inline constexpr row data_per_token_si[] = {GPUPLAN_SI_UP("B/tok", 1.0)};
inline constexpr row compute_per_token_ladder[] = {GPUPLAN_SI_UP("FLOP/tok", 1.0)};

// Money: "$" before the digits, a k/M/B/T suffix after them ("$1.2k"), cents below a thousand.
inline constexpr row money_ladder[] = {{"$", 1.0, "", true},   {"k$", 1e3, "k"},
                                       {"M$", 1e6, "M"},       {"B$", 1e9, "B"},
                                       {"T$", 1e12, "T"}};
inline constexpr row money_extra[] = {{"usd", 1.0, "", true}, {"USD", 1.0, "", true}};
// Cloud prices are quoted per hour.
inline constexpr row money_rate_ladder[] = {{"$/h", 1.0 / 3600.0, "/h", true},
                                            {"k$/h", 1e3 / 3600.0, "k/h"},
                                            {"M$/h", 1e6 / 3600.0, "M/h"}};
inline constexpr row money_rate_extra[] = {{"$/s", 1.0, "/s", true},
                                           {"$/min", 1.0 / 60.0, "/min", true},
                                           {"$/d", 1.0 / 86400.0, "/d", true},
                                           {"$/yr", 1.0 / (365.0 * 86400.0), "/yr", true},
                                           {"k$/yr", 1e3 / (365.0 * 86400.0), "k/yr"},
                                           {"M$/yr", 1e6 / (365.0 * 86400.0), "M/yr"}};
// Electricity is priced per kWh, and served tokens per million.
inline constexpr row energy_price_ladder[] = {{"$/kWh", 1.0 / 3.6e6, "/kWh", true}};
inline constexpr row energy_price_extra[] = {{"$/MWh", 1.0 / 3.6e9, "/MWh", true},
                                             {"$/J", 1.0, "/J", true}};
inline constexpr row money_per_token_ladder[] = {{"$/Mtok", 1e-6, "/Mtok", true}};
inline constexpr row money_per_token_extra[] = {{"$/tok", 1.0, "/tok", true},
                                                {"$/ktok", 1e-3, "/ktok", true},
                                                {"$/Btok", 1e-9, "/Btok", true}};

// Carbon: grams to megatonnes of CO2 equivalent; grid intensity in g CO2e/kWh.
inline constexpr row carbon_ladder[] = {GPUPLAN_ROW("gCO2e", 1e-3), GPUPLAN_ROW("kgCO2e", 1.0),
                                        GPUPLAN_ROW("tCO2e", 1e3), GPUPLAN_ROW("ktCO2e", 1e6),
                                        GPUPLAN_ROW("MtCO2e", 1e9)};
inline constexpr row carbon_intensity_ladder[] = {GPUPLAN_ROW("gCO2e/kWh", 1e-3 / 3.6e6)};
inline constexpr row carbon_intensity_extra[] = {GPUPLAN_ROW("kgCO2e/kWh", 1.0 / 3.6e6),
                                                 GPUPLAN_ROW("kgCO2e/MWh", 1.0 / 3.6e9),
                                                 GPUPLAN_ROW("tCO2e/MWh", 1e3 / 3.6e9)};

#undef GPUPLAN_ALIAS_SI_UP
#undef GPUPLAN_IEC
#undef GPUPLAN_SI_UP
#undef GPUPLAN_ROW

enum class ladder_kind : unsigned char { deflt, si, iec, bits };

/// How one dimension prints: its ladders (the default, and alternatives named in a spec by `si`,
/// `iec`, `bits`), fixed-only rows, whether it is money, and the unit zero and NaN print in.
struct table {
  std::span<const row> deflt;
  std::span<const row> si;
  std::span<const row> iec;
  std::span<const row> bits;
  std::span<const row> extra;
  bool money = false;
  std::size_t home = 0;  ///< index in `deflt` of the unit for 0, NaN and infinity
};

/// The table of a named dimension; an empty table for the others (printed generically).
constexpr table table_for(dimension d) {
  if (d == dims::data) return {data_iec, data_si, data_iec, data_bits, data_extra, false, 0};
  if (d == dims::bandwidth)
    return {bandwidth_si, bandwidth_si, bandwidth_iec, bandwidth_bits, bandwidth_extra, false, 0};
  if (d == dims::time) return {time_ladder, {}, {}, {}, time_extra, false, 3};
  if (d == dims::compute) return {compute_ladder, {}, {}, {}, compute_extra, false, 0};
  if (d == dims::compute_rate) return {compute_rate_ladder, {}, {}, {}, compute_rate_extra, false, 0};
  if (d == dims::frequency) return {frequency_ladder, {}, {}, {}, {}, false, 0};
  if (d == dims::power) return {power_ladder, {}, {}, {}, {}, false, 1};
  if (d == dims::energy) return {energy_ladder, energy_si, {}, {}, {}, false, 0};
  if (d == dims::intensity) return {intensity_ladder, {}, {}, {}, {}, false, 0};
  if (d == dims::energy_per_compute) return {energy_per_compute_ladder, {}, {}, {}, {}, false, 1};
  if (d == dims::tokens) return {tokens_ladder, {}, {}, {}, {}, false, 0};
  if (d == dims::requests) return {requests_ladder, {}, {}, {}, {}, false, 0};
  if (d == dims::token_rate) return {token_rate_ladder, {}, {}, {}, {}, false, 0};
  if (d == dims::request_rate) return {request_rate_ladder, {}, {}, {}, request_rate_extra, false, 0};
  if (d == dims::data_per_token)
    return {data_per_token_iec, data_per_token_si, data_per_token_iec, {}, {}, false, 0};
  if (d == dims::compute_per_token) return {compute_per_token_ladder, {}, {}, {}, {}, false, 0};
  if (d == dims::money) return {money_ladder, {}, {}, {}, money_extra, true, 0};
  if (d == dims::money_rate) return {money_rate_ladder, {}, {}, {}, money_rate_extra, true, 0};
  if (d == dims::energy_price) return {energy_price_ladder, {}, {}, {}, energy_price_extra, true, 0};
  if (d == dims::money_per_token)
    return {money_per_token_ladder, {}, {}, {}, money_per_token_extra, true, 0};
  if (d == dims::carbon) return {carbon_ladder, {}, {}, {}, {}, false, 1};
  if (d == dims::carbon_intensity)
    return {carbon_intensity_ladder, {}, {}, {}, carbon_intensity_extra, false, 0};
  return {};
}

/// A parsed format spec: [[fill]align][width][.precision][unit | si | iec | bits].
struct spec {
  char fill = ' ';
  char align = '>';  ///< '<', '>' or '^'; numbers align right by default
  int width = 0;
  int precision = -1;         ///< digits after the point; -1: three significant digits
  ladder_kind ladder = ladder_kind::deflt;
  const row* fixed = nullptr;  ///< a fixed unit, or null for auto-scaling
};

constexpr bool is_align(char c) { return c == '<' || c == '>' || c == '^'; }

/// Parses the text between ':' and '}' for a quantity of dimension d. Throws Error (the front
/// end's format_error) with a sentence on bad input; in fmt's compile-time checked format strings
/// that is a compile error.
template <class Error>
constexpr spec parse(std::string_view s, dimension d) {
  spec out;
  std::size_t i = 0;
  if (s.size() >= 2 && is_align(s[1])) {
    if (s[0] == '{' || s[0] == '}') throw Error("gpuplan: invalid fill character in a quantity format spec");
    out.fill = s[0];
    out.align = s[1];
    i = 2;
  } else if (!s.empty() && is_align(s[0])) {
    out.align = s[0];
    i = 1;
  }
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    out.width = out.width * 10 + (s[i] - '0');
    if (out.width > 1000) throw Error("gpuplan: quantity format width is larger than 1000");
    ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (i == s.size() || s[i] < '0' || s[i] > '9')
      throw Error("gpuplan: '.' in a quantity format spec must be followed by a number of digits");
    out.precision = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      out.precision = out.precision * 10 + (s[i] - '0');
      if (out.precision > 30) throw Error("gpuplan: quantity format precision is larger than 30");
      ++i;
    }
  }
  const std::string_view name = s.substr(i);
  if (name.empty()) return out;
  const table t = table_for(d);
  if (name == "si" || name == "iec" || name == "bits") {
    const std::span<const row> l = name == "si" ? t.si : name == "iec" ? t.iec : t.bits;
    if (l.empty())
      throw Error("gpuplan: 'si', 'iec' and 'bits' apply only to data, bandwidth and data per token (and 'si' to energy)");
    out.ladder = name == "si" ? ladder_kind::si : name == "iec" ? ladder_kind::iec : ladder_kind::bits;
    return out;
  }
  for (std::span<const row> l : {t.deflt, t.si, t.iec, t.bits, t.extra})
    for (const row& r : l)
      if (r.name == name) {
        out.fixed = &r;
        return out;
      }
  if (t.deflt.empty())
    throw Error("gpuplan: this quantity's dimension has no named units; a format spec may only set fill, align, width and precision");
  throw Error("gpuplan: unknown unit in a quantity format spec, or a unit of another dimension (see docs/units.md for the units of each dimension)");
}

/// Characters produced by `format`: the text fits a fixed buffer (no allocation).
struct text {
  char buf[192];
  std::size_t size = 0;
  constexpr void put(char c) {
    if (size < sizeof buf) buf[size++] = c;
  }
  constexpr void put(std::string_view s) {
    for (char c : s) put(c);
  }
  [[nodiscard]] constexpr std::string_view view() const { return {buf, size}; }
};

// Appends x (finite, >= 0) with `decimals` digits after the point, or in scientific notation with
// `decimals` digits after the point when `scientific`; strips trailing zeros when `strip`, but
// keeps `keep` decimals.
inline void put_number(text& t, double x, int decimals, bool scientific, bool strip, int keep = 0) {
  char b[80];
  const auto r = std::to_chars(b, b + sizeof b, x,
                               scientific ? std::chars_format::scientific : std::chars_format::fixed,
                               decimals);
  std::string_view n(b, r.ec == std::errc{} ? static_cast<std::size_t>(r.ptr - b) : 0);
  if (n.empty()) n = "?";
  std::string_view mantissa = n, exponent;
  if (scientific) {
    const auto e = n.find('e');
    if (e != std::string_view::npos) {
      mantissa = n.substr(0, e);
      exponent = n.substr(e);
    }
  }
  if (const auto point = mantissa.find('.'); strip && point != std::string_view::npos) {
    const std::size_t min_size = point + 1 + static_cast<std::size_t>(keep);
    while (mantissa.size() > min_size && mantissa.ends_with('0')) mantissa.remove_suffix(1);
    if (mantissa.ends_with('.')) mantissa.remove_suffix(1);
  }
  t.put(mantissa);
  t.put(exponent);
}

inline constexpr int default_significant_digits = 3;

// The digits after the point for x (> 0) shown by default: three significant digits, or for money
// below a thousand (row.cents) whole cents, with two significant digits for amounts under $1.
inline int default_decimals(double x, bool cents) {
  const int magnitude = x > 0 ? static_cast<int>(std::floor(std::log10(x))) : 0;
  if (cents) return magnitude >= 0 ? 2 : (1 - magnitude > 2 ? 1 - magnitude : 2);
  const int d = default_significant_digits - 1 - magnitude;
  return d > 0 ? d : 0;
}

inline double round_to(double x, int decimals) {
  const double p = std::pow(10.0, decimals);
  return std::round(x * p) / p;
}

// The unit string of a dimension without a table: base symbols with exponents ("B*s", "1/B",
// "$/(B*s)", "B^2").
inline void put_generic_unit(text& t, dimension d) {
  struct base {
    int exp;
    std::string_view sym;
  };
#define GPUPLAN_DETAIL_BASE(member, symbol) {d.member, symbol},
  const base bases[] = {GPUPLAN_BASE_DIMENSIONS(GPUPLAN_DETAIL_BASE)};
#undef GPUPLAN_DETAIL_BASE
  auto put_exp = [&t](int e) {
    if (e == 1) return;
    t.put('^');
    char b[12];
    const auto r = std::to_chars(b, b + sizeof b, e);
    t.put(std::string_view(b, static_cast<std::size_t>(r.ptr - b)));
  };
  int num = 0, den = 0;
  for (const base& b : bases) {
    if (b.exp > 0) ++num;
    if (b.exp < 0) ++den;
  }
  if (num == 0 && den == 0) return;
  t.put(' ');
  if (num == 0) t.put('1');
  bool first = true;
  for (const base& b : bases)
    if (b.exp > 0) {
      if (!first) t.put('*');
      first = false;
      t.put(b.sym);
      put_exp(b.exp);
    }
  if (den == 0) return;
  t.put('/');
  if (den > 1) t.put('(');
  first = true;
  for (const base& b : bases)
    if (b.exp < 0) {
      if (!first) t.put('*');
      first = false;
      t.put(b.sym);
      put_exp(-b.exp);
    }
  if (den > 1) t.put(')');
}

/// The text of a quantity of dimension d whose value in base units is v, before padding.
inline text format(double v, dimension d, const spec& sp) {
  text t;
  const table tab = table_for(d);
  std::span<const row> ladder = tab.deflt;
  if (sp.ladder == ladder_kind::si) ladder = tab.si;
  if (sp.ladder == ladder_kind::iec) ladder = tab.iec;
  if (sp.ladder == ladder_kind::bits) ladder = tab.bits;

  const bool negative = std::signbit(v) && !std::isnan(v);
  const double a = std::fabs(v);

  // Choose the unit.
  const row* u = sp.fixed;
  double x = a;
  int decimals = sp.precision;
  if (!ladder.empty() && u == nullptr) {
    std::size_t i = tab.home < ladder.size() ? tab.home : 0;
    if (sp.ladder != ladder_kind::deflt) i = 0;
    if (std::isfinite(a) && a > 0) {
      i = 0;
      while (i + 1 < ladder.size() && ladder[i + 1].factor <= a) ++i;
      // Rounding may carry into the next unit (999.7 GB prints as 1 TB, not 1000 GB).
      for (;;) {
        const double xi = a / ladder[i].factor;
        const int di = sp.precision >= 0 ? sp.precision : default_decimals(xi, ladder[i].cents);
        if (i + 1 < ladder.size() && round_to(xi, di) * ladder[i].factor >= ladder[i + 1].factor)
          ++i;
        else
          break;
      }
    }
    u = &ladder[i];
  }
  if (u != nullptr) x = a / u->factor;
  const bool cents = u != nullptr && u->cents;

  if (negative) t.put('-');
  if (tab.money) t.put('$');
  if (std::isnan(v)) {
    t.put("NaN");
  } else if (std::isinf(v)) {
    t.put("inf");
  } else {
    bool scientific = false;
    bool strip = false;
    if (decimals < 0) {
      strip = true;
      if (x != 0 && (x >= 1e15 || x < 1e-6)) {
        scientific = true;
        decimals = default_significant_digits - 1;
      } else {
        decimals = x == 0 ? (cents ? 2 : 0) : default_decimals(x, cents);
      }
    } else if (x != 0 && x >= 1e15) {
      scientific = true;
    }
    put_number(t, x, decimals, scientific, strip, cents ? 2 : 0);
  }
  if (u == nullptr) {
    put_generic_unit(t, d);
  } else if (tab.money) {
    t.put(u->shown);
  } else {
    t.put(' ');
    t.put(u->shown);
  }
  return t;
}

/// Writes s to out padded to sp.width with sp.fill and sp.align.
template <class Out>
Out write_padded(Out out, std::string_view s, const spec& sp) {
  const std::size_t w = sp.width > 0 ? static_cast<std::size_t>(sp.width) : 0;
  const std::size_t pad = w > s.size() ? w - s.size() : 0;
  const std::size_t left = sp.align == '<' ? 0 : sp.align == '^' ? pad / 2 : pad;
  for (std::size_t k = 0; k < left; ++k) *out++ = sp.fill;
  for (char c : s) *out++ = c;
  for (std::size_t k = left; k < pad; ++k) *out++ = sp.fill;
  return out;
}

/// The body of both front ends' formatters. Error is fmt::format_error or std::format_error.
template <dimension D, class Rep, class Error>
struct formatter_base {
  spec spec_{};

  template <class ParseContext>
  constexpr auto parse(ParseContext& ctx) {
    auto it = ctx.begin();
    auto stop = it;
    while (stop != ctx.end() && *stop != '}') ++stop;
    spec_ = qfmt::parse<Error>(std::string_view(it, stop), D);
    return stop;
  }

  template <class FormatContext>
  auto format(const quantity<D, Rep>& q, FormatContext& ctx) const {
    const text t = qfmt::format(static_cast<double>(q.value), D, spec_);
    return write_padded(ctx.out(), t.view(), spec_);
  }
};

}  // namespace gpuplan::detail::qfmt

#if defined(GPUPLAN_HAS_FMT)
template <gpuplan::dimension D, class Rep>
struct fmt::formatter<gpuplan::quantity<D, Rep>, char>
    : gpuplan::detail::qfmt::formatter_base<D, Rep, fmt::format_error> {};
/// A unit's symbol or a dimension's name, with the string spec.
template <>
struct fmt::formatter<gpuplan::text_view, char> : fmt::formatter<std::string_view, char> {
  template <class FormatContext>
  auto format(gpuplan::text_view t, FormatContext& ctx) const {
    return fmt::formatter<std::string_view, char>::format(std::string_view(t), ctx);
  }
};
#endif

#if defined(GPUPLAN_HAS_STD_FORMAT)
template <gpuplan::dimension D, class Rep>
struct std::formatter<gpuplan::quantity<D, Rep>, char>
    : gpuplan::detail::qfmt::formatter_base<D, Rep, std::format_error> {};
template <>
struct std::formatter<gpuplan::text_view, char> : std::formatter<std::string_view, char> {
  template <class FormatContext>
  auto format(gpuplan::text_view t, FormatContext& ctx) const {
    return std::formatter<std::string_view, char>::format(std::string_view(t), ctx);
  }
};
#endif
