// gpuplan/specs/source.hpp: where a figure comes from and when it was true.
//
// Prices and grid carbon intensities change from month to month, so every catalog entry of them
// carries the date the figure was published (or read) and the source it was read from. Both are
// structural (fixed-capacity arrays, no pointers), so an entry stays a constant expression and
// an entry read from a user's JSON file owns its text.
#pragma once

#include <cstddef>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/name.hpp>
#include <string_view>

namespace gpuplan {

/// A calendar date (proleptic Gregorian). Compared as (year, month, day).
struct calendar_date {
  int year = 0;
  int month = 0;
  int day = 0;

  friend constexpr bool operator==(const calendar_date&, const calendar_date&) = default;
  friend constexpr bool operator<(const calendar_date& a, const calendar_date& b) {
    if (a.year != b.year) return a.year < b.year;
    if (a.month != b.month) return a.month < b.month;
    return a.day < b.day;
  }

  /// Whether the fields name a real day between 1990 and 2100.
  [[nodiscard]] constexpr bool valid() const {
    if (year < 1990 || year > 2100 || month < 1 || month > 12 || day < 1) return false;
    constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    const int last = days[month - 1] + (month == 2 && leap ? 1 : 0);
    return day <= last;
  }

  /// Parses "YYYY-MM-DD" (exactly that shape); false when s is not a valid date.
  static constexpr bool parse(std::string_view s, calendar_date& out) {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    auto digits = [&](std::size_t from, std::size_t n, int& v) {
      v = 0;
      for (std::size_t i = from; i < from + n; ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
      }
      return true;
    };
    calendar_date d;
    if (!digits(0, 4, d.year) || !digits(5, 2, d.month) || !digits(8, 2, d.day)) return false;
    if (!d.valid()) return false;
    out = d;
    return true;
  }
};

/// Text of a citation: a URL, a paper and table. Longer than a name (up to 191 characters);
/// text past the capacity is cut when built from run-time text, and does not compile from a
/// literal.
struct source_text : fixed_text<source_text, 191> {
  using fixed_text::fixed_text;
};

}  // namespace gpuplan
