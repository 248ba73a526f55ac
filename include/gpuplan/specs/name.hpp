// gpuplan/specs/name.hpp: a fixed-capacity, structural name string.
//
// std::string_view is not a structural type, so a spec holding one could not be a template
// argument. name_string keeps its characters in a public array: specs stay structural.
#pragma once

#include <cstddef>
#include <string_view>

namespace gpuplan {

struct name_string {
  static constexpr std::size_t capacity = 63;
  char chars[capacity + 1]{};

  constexpr name_string() = default;
  /// From a string literal; a literal longer than `capacity` does not compile.
  template <std::size_t N>
  constexpr name_string(const char (&s)[N]) {  // NOLINT(google-explicit-constructor)
    static_assert(N - 1 <= capacity, "gpuplan: a name is at most 63 characters");
    for (std::size_t i = 0; i + 1 < N; ++i) chars[i] = s[i];
  }
  /// From run-time text (a probed GPU name, a config file); longer text is cut at `capacity`.
  static constexpr name_string from(std::string_view s) {
    name_string n;
    for (std::size_t i = 0; i < s.size() && i < capacity; ++i) n.chars[i] = s[i];
    return n;
  }

  [[nodiscard]] constexpr std::string_view view() const {
    std::size_t n = 0;
    while (n < capacity && chars[n] != '\0') ++n;
    return {chars, n};
  }
  [[nodiscard]] constexpr bool empty() const { return chars[0] == '\0'; }
  constexpr operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)

  friend constexpr bool operator==(const name_string& a, const name_string& b) {
    return a.view() == b.view();
  }
  friend constexpr bool operator==(const name_string& a, std::string_view b) { return a.view() == b; }
};

}  // namespace gpuplan
