// gpuplan/units/quantity.hpp: the dependency-free quantity core.
//
// A quantity is a floating-point number stored in the base unit of its dimension (byte, second,
// FLOP, joule, US dollar, token, request) and tagged at compile time with the dimension's
// exponents. Everything here is constexpr and structural: a quantity, and any aggregate made of
// quantities, can be a constant expression and a template argument.
//
// Mistakes fail to compile with a sentence. Every operation that needs equal dimensions (+, -,
// ==, <=>, <, .in(unit)) has a second overload for the mismatched case; it is chosen, and its
// body's static_assert names both sides in words ("gpuplan: cannot add data (bytes) and a quantity
// of another dimension", "gpuplan: the other operand is power (watts)"). That overload returns
// detail::dimension_mismatch, which is neither a quantity nor a bool, so concepts can still test
// validity without tripping the assertion: `requires { { a + b } -> any_quantity; }` and
// `requires { { a < b } -> std::same_as<bool>; }` are false for data and power. See docs/units.md,
// "Errors".
#pragma once

#include <gpuplan/fwd.hpp>

#include <compare>
#include <concepts>
#include <cstddef>
#include <limits>
#include <type_traits>

namespace gpuplan {

/// A view of constant text: a unit's symbol, a dimension's name. It stands in for
/// std::string_view, whose header costs more to compile than the rest of the units core
/// (docs/performance.md): it compares with string literals, and converts to std::string_view,
/// std::string, fmt::string_view or any type constructible from (const char*, std::size_t).
class text_view {
 public:
  constexpr text_view() noexcept = default;
  /// From a string literal (or any character array holding text and a terminating NUL).
  template <std::size_t N>
  constexpr text_view(const char (&s)[N]) noexcept  // NOLINT(google-explicit-constructor)
      : data_(s), size_(N - 1) {}

  [[nodiscard]] constexpr const char* data() const noexcept { return data_; }
  [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] constexpr const char* begin() const noexcept { return data_; }
  [[nodiscard]] constexpr const char* end() const noexcept { return data_ + size_; }

  template <class S>
    requires std::is_constructible_v<S, const char*, std::size_t>
  constexpr operator S() const {  // NOLINT(google-explicit-constructor)
    return S(data_, size_);
  }

  friend constexpr bool operator==(text_view a, text_view b) noexcept {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i)
      if (a.data_[i] != b.data_[i]) return false;
    return true;
  }

 private:
  const char* data_ = "";
  std::size_t size_ = 0;
};

/// A readable name for a named dimension ("data", "power"), or an empty view for other ones.
constexpr text_view dimension_name(dimension d) {
  struct entry {
    dimension dim;
    text_view name;
  };
  constexpr entry table[] = {
      {dims::none, "dimensionless"},
#define GPUPLAN_DETAIL_NAME(name, type, description, display) {dims::name, display},
      GPUPLAN_NAMED_DIMENSIONS(GPUPLAN_DETAIL_NAME)
#undef GPUPLAN_DETAIL_NAME
  };
  for (const auto& e : table)
    if (e.dim == d) return e.name;
  return {};
}

namespace detail {

template <class T>
inline constexpr bool is_quantity = false;
template <dimension D, class R>
inline constexpr bool is_quantity<quantity<D, R>> = true;

template <class S>
concept scalar = std::is_arithmetic_v<S> && !std::is_same_v<S, bool>;

/// Anything with a dimension and a factor to the base unit: gpuplan::unit<D> and products of them.
template <class U>
concept unit_like = requires(const U& u) {
  { U::dim } -> std::convertible_to<dimension>;
  { u.factor } -> std::convertible_to<double>;
};

/// What a mismatched operation returns (after its static_assert has fired). It is not a quantity
/// and not bool, so a concept that checks the result type (`-> any_quantity`, `-> std::same_as<bool>`)
/// sees the operation as invalid. It converts to anything, so that `bool b = t < bytes;` or
/// `double x = q.in(wrong_unit);` reports the static_assert sentence and nothing else (g++ would
/// otherwise report "cannot convert dimension_mismatch to bool" first).
struct dimension_mismatch {
  template <class T>
  constexpr operator T() const noexcept {  // NOLINT(google-explicit-constructor)
    return T();
  }
};

// The type of a product or quotient: a plain number where the dimensions cancel, otherwise the
// quantity of the computed dimension. One alias, whatever the translation unit includes.
template <dimension D, class Rep>
using make_t = std::conditional_t<D.dimensionless(), Rep, quantity<D, Rep>>;

template <dimension D, class Rep>
constexpr make_t<D, Rep> make(Rep v) {
  if constexpr (D.dimensionless())
    return v;
  else
    return quantity<D, Rep>::from_base(v);
}

enum class op { add, subtract, compare, convert };

// The static_asserts of a mismatched operation. Only the branch for the operation and the left
// dimension is instantiated, so exactly one sentence names the left side and one the right side.
// The condition is a local named `same_dimension` so that clang's "due to requirement" reads
// "due to requirement 'same_dimension'".
#define GPUPLAN_DETAIL_LEFT(DIM, TYPE, TEXT, NAME)                                                          \
  if constexpr (L == dims::DIM) {                                                                 \
    if constexpr (O == op::add)                                                                   \
      static_assert(same_dimension, "gpuplan: cannot add " TEXT " and a quantity of another dimension"); \
    else if constexpr (O == op::subtract)                                                         \
      static_assert(same_dimension, "gpuplan: cannot subtract a quantity of another dimension from " TEXT); \
    else if constexpr (O == op::compare)                                                          \
      static_assert(same_dimension, "gpuplan: cannot compare " TEXT " with a quantity of another dimension"); \
    else                                                                                          \
      static_assert(same_dimension, "gpuplan: cannot express " TEXT " in a unit of another dimension"); \
  }
#define GPUPLAN_DETAIL_RIGHT(DIM, TYPE, TEXT, NAME)                                                          \
  if constexpr (R == dims::DIM) {                                                                 \
    if constexpr (O == op::convert)                                                               \
      static_assert(same_dimension, "gpuplan: the unit is a unit of " TEXT);                      \
    else                                                                                          \
      static_assert(same_dimension, "gpuplan: the other operand is " TEXT);                       \
  }
#define GPUPLAN_DETAIL_IS_LEFT(DIM, TYPE, TEXT, NAME) || L == dims::DIM
#define GPUPLAN_DETAIL_ALL(X) GPUPLAN_NAMED_DIMENSIONS(X)

template <op O, dimension L, dimension R>
constexpr void require_same_dimension() {
  constexpr bool same_dimension = L == R;
  if constexpr (!same_dimension) {
    constexpr bool left_named = false GPUPLAN_DETAIL_ALL(GPUPLAN_DETAIL_IS_LEFT);
    GPUPLAN_DETAIL_ALL(GPUPLAN_DETAIL_LEFT)
    if constexpr (!left_named) {
      if constexpr (O == op::convert)
        static_assert(same_dimension, "gpuplan: cannot express a quantity in a unit of another dimension");
      else
        static_assert(same_dimension, "gpuplan: cannot add, subtract or compare quantities of different dimensions");
    }
    GPUPLAN_DETAIL_ALL(GPUPLAN_DETAIL_RIGHT)
  }
}
#undef GPUPLAN_DETAIL_ALL
#undef GPUPLAN_DETAIL_IS_LEFT
#undef GPUPLAN_DETAIL_RIGHT
#undef GPUPLAN_DETAIL_LEFT

template <op O, class S>
constexpr void reject_plain_number() {
  constexpr bool number_has_a_unit = !scalar<S>;
  if constexpr (O == op::add)
    static_assert(number_has_a_unit, "gpuplan: cannot add a plain number and a quantity: give the number a unit (3 * gpuplan::units::GiB, 3_GiB)");
  else if constexpr (O == op::subtract)
    static_assert(number_has_a_unit, "gpuplan: cannot subtract a plain number and a quantity: give the number a unit (3 * gpuplan::units::GiB, 3_GiB)");
  else
    static_assert(number_has_a_unit, "gpuplan: cannot compare a plain number with a quantity: give the number a unit (3 * gpuplan::units::GiB, 3_GiB), or compare q.in(unit)");
}

template <class Rep>
inline constexpr bool floating_point_rep = std::is_floating_point_v<Rep>;

}  // namespace detail

/// A value of dimension D, stored in D's base unit (byte, second, FLOP, joule, US dollar, token,
/// request, or their products). Structural: `value` is public so that quantities and aggregates
/// of them are valid template arguments; construct through units (`80 * GiB`), literals
/// (`80_GiB`) or `from_base`, never from a bare number.
///
/// Rep is float, double (the default) or long double. Integers are rejected: FLOP totals reach
/// 1e25 and overflow a 64-bit integer (9.2e18), and with floating point alone no conversion
/// between units or representations can truncate.
template <dimension D, class Rep>
struct quantity {
  static_assert(detail::floating_point_rep<Rep>,
                "gpuplan: a quantity's representation must be float, double or long double, not an "
                "integer: FLOP totals reach 1e25 and overflow 64-bit integers, and integer unit "
                "conversions would truncate (see docs/units.md)");

  using rep = Rep;
  static constexpr dimension dim = D;

  /// The value in the base unit. Public so the type is structural; prefer `in(unit)` to read it.
  Rep value{};

  constexpr quantity() = default;

  /// Widening conversion between representations (float to double) is implicit; narrowing
  /// (double to float) is explicit.
  template <class R2>
    requires(detail::floating_point_rep<R2> && !std::is_same_v<R2, Rep>)
  constexpr explicit(sizeof(R2) > sizeof(Rep)) quantity(quantity<D, R2> other)
      : value(static_cast<Rep>(other.value)) {}

  /// The quantity whose value in the base unit is v.
  [[nodiscard]] static constexpr quantity from_base(Rep v) {
    quantity q;
    q.value = v;
    return q;
  }

  /// The value expressed in unit u (of the same dimension), as a plain number.
  template <detail::unit_like U>
    requires(U::dim == D)
  [[nodiscard]] constexpr Rep in(const U& u) const {
    return value / static_cast<Rep>(u.factor);
  }
  /// A unit of another dimension: does not compile, and says so.
  template <detail::unit_like U>
    requires(U::dim != D)
  constexpr detail::dimension_mismatch in(const U&) const {
    detail::require_same_dimension<detail::op::convert, D, U::dim>();
    return {};
  }

  constexpr quantity operator+() const { return *this; }
  constexpr quantity operator-() const { return from_base(-value); }

  constexpr quantity& operator+=(quantity o) {
    value += o.value;
    return *this;
  }
  constexpr quantity& operator-=(quantity o) {
    value -= o.value;
    return *this;
  }
  template <detail::scalar S>
  constexpr quantity& operator*=(S s) {
    value *= static_cast<Rep>(s);
    return *this;
  }
  template <detail::scalar S>
  constexpr quantity& operator/=(S s) {
    value /= static_cast<Rep>(s);
    return *this;
  }
};

// ---- addition, subtraction, comparison: same dimension only -----------------------------------

template <dimension A, class R1, class R2>
constexpr quantity<A, std::common_type_t<R1, R2>> operator+(quantity<A, R1> a, quantity<A, R2> b) {
  using R = std::common_type_t<R1, R2>;
  return quantity<A, R>::from_base(static_cast<R>(a.value) + static_cast<R>(b.value));
}
template <dimension A, class R1, class R2>
constexpr quantity<A, std::common_type_t<R1, R2>> operator-(quantity<A, R1> a, quantity<A, R2> b) {
  using R = std::common_type_t<R1, R2>;
  return quantity<A, R>::from_base(static_cast<R>(a.value) - static_cast<R>(b.value));
}
template <dimension A, class R1, class R2>
constexpr bool operator==(quantity<A, R1> a, quantity<A, R2> b) {
  using R = std::common_type_t<R1, R2>;
  return static_cast<R>(a.value) == static_cast<R>(b.value);
}
template <dimension A, class R1, class R2>
constexpr std::partial_ordering operator<=>(quantity<A, R1> a, quantity<A, R2> b) {
  using R = std::common_type_t<R1, R2>;
  return static_cast<R>(a.value) <=> static_cast<R>(b.value);
}
// The relational operators are spelt out rather than rewritten from <=>: a comparison through
// std::partial_ordering costs a compare and two branches where `a.value < b.value` is one
// instruction, and gpuplan::max on quantities must compile to the same maxsd as on doubles
// (bench/compare_codegen.sh checks it).
#define GPUPLAN_DETAIL_RELATION(OP)                                                                \
  template <dimension A, class R1, class R2>                                                       \
  constexpr bool operator OP(quantity<A, R1> a, quantity<A, R2> b) {                               \
    using R = std::common_type_t<R1, R2>;                                                          \
    return static_cast<R>(a.value) OP static_cast<R>(b.value);                                     \
  }
GPUPLAN_DETAIL_RELATION(!=)
GPUPLAN_DETAIL_RELATION(<)
GPUPLAN_DETAIL_RELATION(<=)
GPUPLAN_DETAIL_RELATION(>)
GPUPLAN_DETAIL_RELATION(>=)
#undef GPUPLAN_DETAIL_RELATION

// The mismatched overloads: chosen when the dimensions differ, so the error is a sentence. Each
// comparison is declared explicitly (not left to C++20's rewritten candidates) so that `a < b`
// reaches a static_assert rather than an error about the result of <=>.
#define GPUPLAN_DETAIL_MISMATCH(OP, KIND)                                                          \
  template <dimension A, class R1, dimension B, class R2>                                          \
    requires(A != B)                                                                               \
  constexpr detail::dimension_mismatch operator OP(quantity<A, R1>, quantity<B, R2>) {             \
    detail::require_same_dimension<detail::op::KIND, A, B>();                                      \
    return {};                                                                                     \
  }                                                                                                \
  template <dimension A, class R, detail::scalar S>                                               \
  constexpr detail::dimension_mismatch operator OP(quantity<A, R>, S) {                            \
    detail::reject_plain_number<detail::op::KIND, S>();                                            \
    return {};                                                                                     \
  }                                                                                                \
  template <dimension A, class R, detail::scalar S>                                               \
  constexpr detail::dimension_mismatch operator OP(S, quantity<A, R>) {                            \
    detail::reject_plain_number<detail::op::KIND, S>();                                            \
    return {};                                                                                     \
  }
GPUPLAN_DETAIL_MISMATCH(+, add)
GPUPLAN_DETAIL_MISMATCH(-, subtract)
GPUPLAN_DETAIL_MISMATCH(==, compare)
GPUPLAN_DETAIL_MISMATCH(!=, compare)
GPUPLAN_DETAIL_MISMATCH(<, compare)
GPUPLAN_DETAIL_MISMATCH(<=, compare)
GPUPLAN_DETAIL_MISMATCH(>, compare)
GPUPLAN_DETAIL_MISMATCH(>=, compare)
GPUPLAN_DETAIL_MISMATCH(<=>, compare)
#undef GPUPLAN_DETAIL_MISMATCH

// ---- multiplication and division: dimensions combine ------------------------------------------

template <dimension A, class R1, dimension B, class R2>
constexpr auto operator*(quantity<A, R1> a, quantity<B, R2> b) {
  using R = std::common_type_t<R1, R2>;
  return detail::make<A * B, R>(static_cast<R>(a.value) * static_cast<R>(b.value));
}
template <dimension A, class R1, dimension B, class R2>
constexpr auto operator/(quantity<A, R1> a, quantity<B, R2> b) {
  using R = std::common_type_t<R1, R2>;
  return detail::make<A / B, R>(static_cast<R>(a.value) / static_cast<R>(b.value));
}
template <dimension A, class R, detail::scalar S>
constexpr quantity<A, R> operator*(quantity<A, R> a, S s) {
  return quantity<A, R>::from_base(a.value * static_cast<R>(s));
}
template <dimension A, class R, detail::scalar S>
constexpr quantity<A, R> operator*(S s, quantity<A, R> a) {
  return quantity<A, R>::from_base(static_cast<R>(s) * a.value);
}
template <dimension A, class R, detail::scalar S>
constexpr quantity<A, R> operator/(quantity<A, R> a, S s) {
  return quantity<A, R>::from_base(a.value / static_cast<R>(s));
}
template <dimension A, class R, detail::scalar S>
constexpr quantity<dims::none / A, R> operator/(S s, quantity<A, R> a) {
  return quantity<dims::none / A, R>::from_base(static_cast<R>(s) / a.value);
}

// ---- helpers ------------------------------------------------------------------------------------

template <dimension A, class R>
constexpr quantity<A, R> abs(quantity<A, R> q) {
  return quantity<A, R>::from_base(q.value < R{0} ? -q.value : q.value);
}
/// True when the value is neither NaN nor infinite (usable in constant expressions).
template <dimension A, class R>
constexpr bool is_finite(quantity<A, R> q) {
  const R v = q.value;
  return v == v && (v < R{0} ? -v : v) <= std::numeric_limits<R>::max();
}
template <dimension A, class R>
constexpr quantity<A, R> min(quantity<A, R> a, quantity<A, R> b) {
  // On the values, not the quantities: g++ 12 turns a conditional over two class lvalues into a
  // store, a pointer select and a load, where this compiles to one minsd (as std::min on doubles).
  return quantity<A, R>::from_base(b.value < a.value ? b.value : a.value);
}
template <dimension A, class R>
constexpr quantity<A, R> max(quantity<A, R> a, quantity<A, R> b) {
  return quantity<A, R>::from_base(a.value < b.value ? b.value : a.value);
}

template <class T>
concept any_quantity = detail::is_quantity<std::remove_cvref_t<T>>;

/// True when T is a quantity of dimension D (of any representation).
template <class T, dimension D>
concept quantity_of = any_quantity<T> && std::remove_cvref_t<T>::dim == D;

}  // namespace gpuplan
