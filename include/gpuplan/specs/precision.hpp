// gpuplan/specs/precision.hpp: number formats of weights, activations, KV cache and arithmetic.
#pragma once

#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/units.hpp>

#include <string_view>

namespace gpuplan {

enum class precision : unsigned char { fp64, fp32, tf32, bf16, fp16, fp8, int8, fp4, int4 };

/// Storage size of one element. tf32 is a compute format stored in 32 bits.
constexpr data_size bytes_per_element(precision p) {
  switch (p) {
    case precision::fp64: return 8 * units::B;
    case precision::fp32:
    case precision::tf32: return 4 * units::B;
    case precision::bf16:
    case precision::fp16: return 2 * units::B;
    case precision::fp8:
    case precision::int8: return 1 * units::B;
    case precision::fp4:
    case precision::int4: return 0.5 * units::B;
  }
  return 0 * units::B;
}

/// Bytes of an fp32 element (IEEE 754 binary32), as a plain number for byte counts: fp32 master
/// weights, optimizer states and gradients, upcast logits and loss, log-sum-exp rows, router
/// logits. The one name for the models' "4 bytes"; bytes_per_element(precision::fp32) as a double.
inline constexpr double fp32_bytes = bytes_per_element(precision::fp32).in(units::B);

/// The names of precision, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<precision> precision_names[] = {
    {precision::fp64, "fp64"},
    {precision::fp32, "fp32"},
    {precision::tf32, "tf32"},
    {precision::bf16, "bf16"},
    {precision::fp16, "fp16"},
    {precision::fp8, "fp8"},
    {precision::int8, "int8"},
    {precision::fp4, "fp4"},
    {precision::int4, "int4"},
};
constexpr const auto& enumerators(precision) { return precision_names; }

/// The precision named by s ("bf16", "FP8", ...); false if s names none.
constexpr bool parse_precision(std::string_view s, precision& out) { return parse_enum(s, out); }

}  // namespace gpuplan
