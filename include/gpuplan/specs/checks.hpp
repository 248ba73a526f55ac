// gpuplan/specs/checks.hpp: how the library checks its inputs: one finiteness test, one checking
// helper with one message format, and the non-throwing form the planner uses.
//
// Every failed check reads "gpuplan: <field> must ... (got <values>)": the field as a C++ user
// spells it (`layout.tp`, `gpu_spec.memory`), what it must be, and the offending values.
#pragma once

#include <gpuplan/specs/error.hpp>

#include <type_traits>

namespace gpuplan::detail {

/// x is a finite number (not NaN, not infinite); usable in constant expressions, unlike
/// std::isfinite before C++23. The library's one finiteness test.
constexpr bool finite(double x) { return x == x && x - x == 0.0; }
/// x is finite and at least zero.
constexpr bool finite_nonnegative(double x) { return finite(x) && x >= 0.0; }
/// x is finite and above zero.
constexpr bool finite_positive(double x) { return finite(x) && x > 0.0; }
/// x is a share of one: in [0, 1].
constexpr bool unit_interval(double x) { return finite(x) && x >= 0.0 && x <= 1.0; }
/// x is a fraction that cannot be zero: in (0, 1].
constexpr bool positive_fraction(double x) { return finite(x) && x > 0.0 && x <= 1.0; }

/// Appends " (got v1, v2, ...)" to e; integers print exactly, floating-point values with six
/// significant digits.
template <class... V>
void append_values(invalid_input& e, V... values) {
  if constexpr (sizeof...(V) > 0) {
    e.append(" (got ");
    bool first = true;
    auto one = [&](auto v) {
      if (!first) e.append(", ");
      first = false;
      if constexpr (std::is_floating_point_v<decltype(v)>)
        e.append(static_cast<double>(v));
      else if constexpr (std::is_same_v<decltype(v), bool>)
        e.append(v ? "true" : "false");
      else
        e.append(static_cast<long long>(v));
    };
    (one(values), ...);
    e.append(")");
  }
}

/// Throws invalid_input("gpuplan: <message> (got <values>)"). Not constexpr (the exception is not
/// a literal type in C++20); constexpr callers reach it only at run time.
template <class... V>
[[noreturn]] void throw_invalid_input(const char* message, V... values) {
  invalid_input error("gpuplan: ");
  error.append(message);
  append_values(error, values...);
  throw error;
}

/// The library's one checking helper: fails when `ok` is false, naming the field in `message`
/// ("layout.tp must divide model.heads") with the offending values (integers or floating point).
/// In a constant expression the throw makes the expression non-constant, and both compilers show
/// the failing call with its message in their notes:
///   g++:     in 'constexpr' expansion of 'gpuplan::detail::check_input(false, "layout.tp ...",
///   ...)' clang++: note: in call to 'check_input(false, &"layout.tp must divide ..."[0], 3, 64)'
/// At run time it throws gpuplan::invalid_input("gpuplan: <message> (got <values>)").
template <class... V>
constexpr void check_input(bool ok, const char* message, V... values) {
  if (ok) return;
  if (std::is_constant_evaluated()) throw invalid_input(message);
  throw_invalid_input(message, values...);
}

}  // namespace gpuplan::detail

namespace gpuplan {

/// The outcome of a non-throwing check: empty when the input is valid, else the message naming
/// the field and up to two offending integers. `raise()` turns it into the exception (or compile
/// error) the throwing validate() functions give, so both report the same sentence.
struct input_problem {
  const char* message = nullptr;
  long long value = 0;
  long long other = 0;
  int values = 0;  ///< how many of value and other were given

  [[nodiscard]] constexpr bool ok() const { return message == nullptr; }
  constexpr explicit operator bool() const { return !ok(); }
  /// Throws gpuplan::invalid_input (a compile error in a constant expression) unless ok().
  constexpr void raise() const {
    if (values == 0) detail::check_input(ok(), message);
    else if (values == 1) detail::check_input(ok(), message, value);
    else detail::check_input(ok(), message, value, other);
  }
};

namespace detail {

/// The two ways a list of checks is run (see parallel_layout::each_check). A list is a chain
///   return s(dp >= 1, "layout.dp must be at least 1", dp) && s(...) && ...;
/// that stops at the first failure, so later conditions may assume the earlier ones.
/// raise_problem throws at the first failure (check_input: a compile error in a constant
/// expression, whose notes show the failing call with its message); record_problem keeps it.
struct raise_problem {
  template <class... V>
  constexpr bool operator()(bool ok, const char* message, V... values) const {
    check_input(ok, message, values...);
    return true;
  }
};
struct record_problem {
  input_problem found{};
  template <class... V>
  constexpr bool operator()(bool ok, const char* message, V... values) {
    static_assert(sizeof...(V) <= 2, "a recorded problem keeps at most two values");
    if (!ok) {
      const long long v[] = {static_cast<long long>(values)..., 0, 0};
      found = {message, v[0], v[1], static_cast<int>(sizeof...(V))};
    }
    return ok;
  }
};

}  // namespace detail

}  // namespace gpuplan
