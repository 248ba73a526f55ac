// gpuplan/specs/checks.hpp: the helpers the specs' validate() functions share.
#pragma once

#include <gpuplan/specs/error.hpp>

#include <type_traits>

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

/// Fails when `ok` is false. In a constant expression the throw makes the expression non-constant,
/// so the compiler stops with `message` (and the call's arguments) in its notes; at run time it
/// throws gpuplan::invalid_input("gpuplan: <message> (got <value>, <other>)").
constexpr void check_input(bool ok, const char* message, long long value = 0, long long other = 0) {
  if (ok) return;
  if (std::is_constant_evaluated()) throw invalid_input(message);
  throw_invalid_input(message, value, other);
}

}  // namespace gpuplan::detail

namespace gpuplan {

/// The outcome of a non-throwing check: empty when the input is valid, else the message naming
/// the field and the offending values. `raise()` turns it into the exception (or compile error)
/// the throwing validate() functions give, so both report the same sentence.
struct input_problem {
  const char* message = nullptr;
  long long value = 0;
  long long other = 0;

  [[nodiscard]] constexpr bool ok() const { return message == nullptr; }
  constexpr explicit operator bool() const { return !ok(); }
  /// Throws gpuplan::invalid_input (a compile error in a constant expression) unless ok().
  constexpr void raise() const {
    if (!ok()) detail::check_input(false, message, value, other);
  }
};

namespace detail {

/// The two ways a list of checks is run (see parallel_layout::each_check). A list is a chain
///   return s(dp >= 1, "layout.dp must be at least 1", dp) && s(...) && ...;
/// that stops at the first failure, so later conditions may assume the earlier ones.
/// raise_problem throws at the first failure (check_input: a compile error in a constant
/// expression, whose notes show the failing call with its message); record_problem keeps it.
struct raise_problem {
  constexpr bool operator()(bool ok, const char* message, long long value = 0,
                            long long other = 0) const {
    check_input(ok, message, value, other);
    return true;
  }
};
struct record_problem {
  input_problem found{};
  constexpr bool operator()(bool ok, const char* message, long long value = 0,
                            long long other = 0) {
    if (!ok) found = {message, value, other};
    return ok;
  }
};

}  // namespace detail

}  // namespace gpuplan
