// gpuplan/specs/precision.hpp: number formats of weights, activations, KV cache and arithmetic.
#pragma once

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

constexpr std::string_view to_string(precision p) {
  switch (p) {
    case precision::fp64: return "fp64";
    case precision::fp32: return "fp32";
    case precision::tf32: return "tf32";
    case precision::bf16: return "bf16";
    case precision::fp16: return "fp16";
    case precision::fp8: return "fp8";
    case precision::int8: return "int8";
    case precision::fp4: return "fp4";
    case precision::int4: return "int4";
  }
  return "?";
}

/// The precision named by s ("bf16", "FP8", ...); false if s names none.
constexpr bool parse_precision(std::string_view s, precision& out) {
  constexpr precision all[] = {precision::fp64, precision::fp32, precision::tf32,
                               precision::bf16, precision::fp16, precision::fp8,
                               precision::int8, precision::fp4,  precision::int4};
  for (precision p : all) {
    const std::string_view n = to_string(p);
    if (n.size() != s.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < n.size(); ++i) {
      char c = s[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != n[i]) same = false;
    }
    if (same) {
      out = p;
      return true;
    }
  }
  return false;
}

}  // namespace gpuplan
