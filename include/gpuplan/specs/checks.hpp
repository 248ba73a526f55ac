// gpuplan/specs/checks.hpp: the helpers the specs' validate() functions share.
#pragma once

#include <gpuplan/specs/error.hpp>

namespace gpuplan::detail {

/// x is a finite number (not NaN, not infinite); usable in constant expressions, unlike
/// std::isfinite before C++23.
constexpr bool finite(double x) { return x == x && x - x == 0.0; }
/// x is finite and at least zero.
constexpr bool finite_nonnegative(double x) { return finite(x) && x >= 0.0; }

/// Throws gpuplan::invalid_input(what). Called in a constant expression it makes the expression
/// non-constant, and both compilers print the call with its message in the diagnostic:
///   g++:     in 'constexpr' expansion of 'gpuplan::detail::fail(... "gpu_spec.memory must ...")'
///   clang++: note: in call to 'fail(&"gpu_spec.memory must be positive and finite"[0], true)'
/// (`raise` exists so that the function can be constant for some argument, as C++20 requires.)
constexpr bool fail(const char* what, bool raise = true) {
  if (raise) throw invalid_input(what);
  return false;
}

}  // namespace gpuplan::detail
