// gpuplan/specs/name.hpp: a fixed-capacity, structural name string.
//
// std::string_view is not a structural type, so a spec holding one could not be a template
// argument. name_string keeps its characters in a public array: specs stay structural.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace gpuplan {

/// Fixed-capacity text in a public character array, so that a type holding it stays structural:
/// the one implementation behind name_string (names) and source_text (citations). Self is the
/// derived type (what `from` returns).
template <class Self, std::size_t Capacity>
struct fixed_text {
  static constexpr std::size_t capacity = Capacity;
  char chars[capacity + 1]{};

  constexpr fixed_text() = default;
  /// From a string literal; a literal longer than `capacity` does not compile.
  template <std::size_t N>
  constexpr fixed_text(const char (&s)[N]) {  // NOLINT(google-explicit-constructor)
    static_assert(N - 1 <= capacity,
                  "gpuplan: text longer than its capacity (a name is at most 63 characters, a "
                  "source citation at most 191)");
    for (std::size_t i = 0; i + 1 < N; ++i) chars[i] = s[i];
  }
  /// From run-time text (a probed GPU name, a config file); longer text is cut at `capacity`.
  static constexpr Self from(std::string_view s) {
    Self t;
    for (std::size_t i = 0; i < s.size() && i < capacity; ++i) t.chars[i] = s[i];
    return t;
  }

  [[nodiscard]] constexpr std::string_view view() const {
    std::size_t n = 0;
    while (n < capacity && chars[n] != '\0') ++n;
    return {chars, n};
  }
  [[nodiscard]] constexpr bool empty() const { return chars[0] == '\0'; }
  constexpr operator std::string_view() const {  // NOLINT(google-explicit-constructor)
    return view();
  }

  friend constexpr bool operator==(const Self& a, const Self& b) { return a.view() == b.view(); }
  friend constexpr bool operator==(const Self& a, std::string_view b) { return a.view() == b; }
};

/// A name (of a GPU, a model, a site): at most 63 characters.
struct name_string : fixed_text<name_string, 63> {
  using fixed_text::fixed_text;
};

// ---- comparing names: the one case folding and the one edit distance of the library ----------

/// c in lower case (ASCII only: names are ASCII).
constexpr char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Whether a and b are equal ignoring ASCII case ("BF16" and "bf16"): how enum names are read.
constexpr bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

/// A name reduced for comparison: lower case, the separators '-', '_' and ' ' dropped, at most
/// 64 characters ("H100 SXM5 80GB", "h100_sxm5_80gb" and "H100-SXM5-80GB" fold alike).
struct folded_name {
  std::array<char, 64> chars{};
  std::size_t size = 0;
  constexpr explicit folded_name(std::string_view s) {
    for (char c : s) {
      if (c == '-' || c == '_' || c == ' ') continue;
      if (size == chars.size()) break;
      chars[size++] = ascii_lower(c);
    }
  }
  [[nodiscard]] constexpr std::string_view view() const { return {chars.data(), size}; }
};

/// Whether a and b are the same name, ignoring case and separators.
constexpr bool same_name(std::string_view a, std::string_view b) {
  return folded_name(a).view() == folded_name(b).view();
}

/// Levenshtein distance between the folded forms of a and b (each cut at 64 characters): how
/// "did you mean" suggestions are ranked, for catalog names and plan-file keys alike.
constexpr int edit_distance(std::string_view a_raw, std::string_view b_raw) {
  const folded_name fa(a_raw), fb(b_raw);
  const std::string_view a = fa.view(), b = fb.view();
  std::array<int, 65> prev{}, cur{};
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      const int erase = prev[j] + 1;
      const int insert = cur[j - 1] + 1;
      const int best = substitute < erase ? substitute : erase;
      cur[j] = best < insert ? best : insert;
    }
    prev = cur;
  }
  return prev[b.size()];
}

}  // namespace gpuplan
