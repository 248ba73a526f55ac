// gpuplan/specs/format.hpp: {fmt} and std::format formatters for the spec vocabulary types:
// every enum with a name table (specs/enum_names.hpp: precision, optimizer_kind, ...) prints its
// name ("bf16"), gpuplan::name_string its text ("H100 SXM"). Both accept the standard string spec
// (fill, align, width, precision): fmt::format("{:>8}", p).
#pragma once

#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/units/format.hpp>

#include <string_view>

#if defined(GPUPLAN_HAS_FMT)
template <gpuplan::named_enum E>
struct fmt::formatter<E, char> : fmt::formatter<std::string_view, char> {
  template <class FormatContext>
  auto format(E p, FormatContext& ctx) const {
    return fmt::formatter<std::string_view, char>::format(gpuplan::to_string(p), ctx);
  }
};
template <>
struct fmt::formatter<gpuplan::name_string, char> : fmt::formatter<std::string_view, char> {
  template <class FormatContext>
  auto format(const gpuplan::name_string& n, FormatContext& ctx) const {
    return fmt::formatter<std::string_view, char>::format(n.view(), ctx);
  }
};
#endif

#if defined(GPUPLAN_HAS_STD_FORMAT)
template <gpuplan::named_enum E>
struct std::formatter<E, char> : std::formatter<std::string_view, char> {
  template <class FormatContext>
  auto format(E p, FormatContext& ctx) const {
    return std::formatter<std::string_view, char>::format(gpuplan::to_string(p), ctx);
  }
};
template <>
struct std::formatter<gpuplan::name_string, char> : std::formatter<std::string_view, char> {
  template <class FormatContext>
  auto format(const gpuplan::name_string& n, FormatContext& ctx) const {
    return std::formatter<std::string_view, char>::format(n.view(), ctx);
  }
};
#endif
