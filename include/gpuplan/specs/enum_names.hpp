// gpuplan/specs/enum_names.hpp: the names of gpuplan's enumerations, read back and written out.
//
// Each enum E keeps its names beside its declaration, in one table found by argument-dependent
// lookup:
//
//   enum class offload_kind : unsigned char { none, optimizer, params };
//   inline constexpr enumerator<offload_kind> offload_kind_names[] = {
//       {offload_kind::none, "none"}, {offload_kind::optimizer, "optimizer"},
//       {offload_kind::params, "params"}};
//   constexpr const auto& enumerators(offload_kind) { return offload_kind_names; }
//
// to_string, parse_enum, the JSON reader (gpuplan/io), the command-line tool and the {fmt}
// formatter (gpuplan/specs/format.hpp) all read that table, so a new enumerator is one new row.
#pragma once

#include <gpuplan/specs/name.hpp>

#include <concepts>
#include <cstddef>
#include <string_view>

namespace gpuplan {

/// One row of an enum's name table: the enumerator and how the CLI, JSON and text spell it.
template <class E>
struct enumerator {
  E value;
  std::string_view name;
};

/// An enum with a name table: `enumerators(E{})` (found by argument-dependent lookup) returns a
/// reference to an array of enumerator<E>.
template <class E>
concept named_enum = requires(E e) {
  { enumerators(e)[0].name } -> std::convertible_to<std::string_view>;
};

/// The number of enumerators in E's name table.
template <named_enum E>
constexpr std::size_t enum_count() {
  return sizeof(enumerators(E{})) / sizeof(enumerators(E{})[0]);
}

/// The enumerator's name, as the CLI and JSON spell it ("?" for a value outside the table).
template <named_enum E>
constexpr std::string_view to_string(E e) {
  for (const enumerator<E>& x : enumerators(e))
    if (x.value == e) return x.name;
  return "?";
}

/// The enumerator named s, ignoring ASCII case ("bf16", "BF16"); false if s names none.
template <named_enum E>
constexpr bool parse_enum(std::string_view s, E& out) {
  for (const enumerator<E>& x : enumerators(E{}))
    if (same_ignoring_case(x.name, s)) {
      out = x.value;
      return true;
    }
  return false;
}

}  // namespace gpuplan
