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

/// One unit a quantity can be printed in: a row of GPUPLAN_UNITS (units/units.hpp). A format spec
/// names it by `symbol` or by `constant` ("GB/s" or "GBps"). `cents`: a money unit printed with at
/// least two decimals (the units whose symbol starts with "$").
struct row {
  std::string_view symbol;
  std::string_view constant;
  double factor;
  dimension dim;
  unsigned ladders;
  bool cents;
};

/// The ladders column of GPUPLAN_UNITS.
namespace ladder_bits {
inline constexpr unsigned fixed = 0, dflt = 1, si = 2, iec = 4, bits = 8, home = 16;
}

constexpr bool is_cents(dimension d, std::string_view symbol) {
  return d.money != 0 && symbol.starts_with('$');
}

// ---- the unit tables, from GPUPLAN_UNITS -----------------------------------------------------
// Built by two constant evaluations (no template per dimension: this header's compile time).

#define GPUPLAN_DETAIL_COUNT(...) +1
/// How many units there are.
inline constexpr std::size_t unit_count = 0 GPUPLAN_UNITS(GPUPLAN_DETAIL_COUNT);
#undef GPUPLAN_DETAIL_COUNT

#define GPUPLAN_DETAIL_NAMED(name, type, description, display) dims::name,
/// The named dimensions, in GPUPLAN_NAMED_DIMENSIONS order.
inline constexpr dimension named_dims[] = {GPUPLAN_NAMED_DIMENSIONS(GPUPLAN_DETAIL_NAMED)};
#undef GPUPLAN_DETAIL_NAMED
inline constexpr std::size_t named_count = sizeof named_dims / sizeof named_dims[0];

struct unit_rows {
  row r[unit_count];
};
constexpr unit_rows make_rows() {
  using namespace ladder_bits;  // the ladders column's names
#define GPUPLAN_DETAIL_ROW(constant_, literal, dim_, factor_, symbol_, ladders_)             \
  row{units::constant_.symbol, #constant_, units::constant_.factor, dims::dim_,              \
      static_cast<unsigned>(ladders_), is_cents(dims::dim_, units::constant_.symbol)},
  return {{GPUPLAN_UNITS(GPUPLAN_DETAIL_ROW)}};
#undef GPUPLAN_DETAIL_ROW
}
/// Every unit, in GPUPLAN_UNITS order.
inline constexpr unit_rows all_rows = make_rows();

/// Every ladder of every named dimension, each in increasing size (auto-scaling picks the largest
/// unit not bigger than the value), one after another; `index[k][b]` is where the ladder with bit
/// 1 << b of named_dims[k] starts and how long it is.
struct ladder_rows {
  struct slice {
    std::size_t begin = 0, size = 0;
  };
  row r[4 * unit_count]{};
  slice index[named_count][4]{};
};
constexpr ladder_rows make_ladders() {
  ladder_rows out{};
  std::size_t n = 0;
  for (std::size_t k = 0; k < named_count; ++k) {
    std::size_t mine[unit_count]{}, count = 0;  // the units of this dimension
    for (std::size_t u = 0; u < unit_count; ++u)
      if (all_rows.r[u].dim == named_dims[k]) mine[count++] = u;
    for (unsigned b = 0; b < 4; ++b) {
      const std::size_t begin = n;
      for (std::size_t j = 0; j < count; ++j) {
        const row& u = all_rows.r[mine[j]];
        if ((u.ladders & (1u << b)) == 0) continue;
        std::size_t i = n++;
        for (; i > begin && out.r[i - 1].factor > u.factor; --i) out.r[i] = out.r[i - 1];
        out.r[i] = u;
      }
      out.index[k][b] = {begin, n - begin};
    }
  }
  return out;
}
inline constexpr ladder_rows all_ladders = make_ladders();

enum class ladder_kind : unsigned char { deflt, si, iec, bits };

/// The names a spec gives the alternative ladders (`{:si}`, `{:iec}`, `{:bits}`): the units
/// layer's name table of ladder_kind (deflt is the ladder named by no name). The parser reads it.
struct ladder_name {
  ladder_kind kind;
  std::string_view name;
};
inline constexpr ladder_name ladder_names[] = {
    {ladder_kind::si, "si"}, {ladder_kind::iec, "iec"}, {ladder_kind::bits, "bits"}};

/// How one dimension prints: its ladders (the default, and alternatives named in a spec by `si`,
/// `iec`, `bits`), whether it is money, and the unit zero and NaN print in.
struct table {
  std::span<const row> deflt;
  std::span<const row> si;
  std::span<const row> iec;
  std::span<const row> bits;
  bool money = false;
  std::size_t home = 0;  ///< index in `deflt` of the unit for 0, NaN and infinity

  /// The ladder of kind k.
  [[nodiscard]] constexpr std::span<const row> ladder(ladder_kind k) const {
    switch (k) {
      case ladder_kind::si: return si;
      case ladder_kind::iec: return iec;
      case ladder_kind::bits: return bits;
      case ladder_kind::deflt: break;
    }
    return deflt;
  }
};

/// The table of a named dimension; an empty table for the others (printed generically).
constexpr table table_for(dimension d) {
  for (std::size_t k = 0; k < named_count; ++k) {
    if (named_dims[k] != d) continue;
    const auto ladder = [k](unsigned b) {
      const ladder_rows::slice s = all_ladders.index[k][b];
      return std::span<const row>(all_ladders.r + s.begin, s.size);
    };
    table t{ladder(0), ladder(1), ladder(2), ladder(3), d.money != 0, 0};
    for (std::size_t i = 0; i < t.deflt.size(); ++i)
      if ((t.deflt[i].ladders & ladder_bits::home) != 0) t.home = i;
    return t;
  }
  return {};
}

/// The unit of dimension d a format spec names (by symbol or constant), or null.
constexpr const row* find_row(dimension d, std::string_view name) {
  for (const row& r : all_rows.r)
    if (r.dim == d && r.symbol == name) return &r;
  for (const row& r : all_rows.r)
    if (r.dim == d && r.constant == name) return &r;
  return nullptr;
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
  for (const ladder_name& l : ladder_names) {
    if (name != l.name) continue;
    if (t.ladder(l.kind).empty())
      throw Error("gpuplan: 'si', 'iec' and 'bits' apply only to data, bandwidth and data per token (and 'si' to energy)");
    out.ladder = l.kind;
    return out;
  }
  if (const row* r = find_row(d, name)) {
    out.fixed = r;
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
  const std::span<const row> ladder = tab.ladder(sp.ladder);

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
    const std::size_t dollar = u->symbol.find('$');  // "k$/h": "k/h" after the digits
    t.put(u->symbol.substr(0, dollar));
    if (dollar != std::string_view::npos) t.put(u->symbol.substr(dollar + 1));
  } else {
    t.put(' ');
    t.put(u->symbol);
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
