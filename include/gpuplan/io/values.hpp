// gpuplan/io/values.hpp: numbers, byte counts and counts written as JSON: integers while a double holds them
// exactly, never a wrapped-around 64-bit integer.
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <gpuplan/units.hpp>

#include <nlohmann/json.hpp>

#include <cmath>

namespace gpuplan::io {

/// A number as JSON: an integer when it is a whole number a double holds exactly (parameter
/// counts, bytes, FLOP/s, blocks), else a floating-point number.
inline nlohmann::json number(double v) {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15)
    return static_cast<long long>(v);
  return v;
}

/// A size in bytes, rounded to whole bytes (int4 halves aside): a JSON integer while a double
/// holds it exactly, else a floating-point number (never a wrapped-around 64-bit integer).
inline nlohmann::json bytes_value(data_size d) {
  const double v = d.in(units::B);
  if (!std::isfinite(v)) return nullptr;
  return number(std::round(v));
}

/// A count as JSON: an integer when it is a whole number that a double holds exactly (parameter
/// counts, blocks, tokens), else a number.
inline nlohmann::json count_value(double v) { return number(v); }

/// A JSON number, or null for NaN and infinity (JSON has neither): an unstable queue's wait, the
/// MTTF of a run without failures, a break-even that never comes.
inline nlohmann::json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}


}  // namespace gpuplan::io
