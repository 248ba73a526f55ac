// gpuplan/units/quantity.hpp: the dependency-free quantity core.
//
// A quantity is a floating-point number stored in the base unit of its dimension (byte, second,
// FLOP, joule, US dollar, token, request) and tagged at compile time with the dimension's
// exponents. Everything here is constexpr and structural: a quantity, and any aggregate made of
// quantities, can be a constant expression and a template argument.
#pragma once

#include <compare>
#include <concepts>
#include <string_view>
#include <type_traits>

namespace gpuplan {

/// Exponents of the seven base dimensions. Energy is a base dimension of its own (not mass x
/// length^2 / time^2): planning never needs mass or length, and keeping joules primary makes
/// watts = joules / second exact. Compute (FLOP) is a base dimension, so FLOP/s is not hertz.
/// Tokens and requests are counted dimensions so that tokens/s can never be mixed up with
/// requests/s (see docs/units.md for the reasoning).
struct dimension {
  int data = 0;
  int time = 0;
  int compute = 0;
  int energy = 0;
  int money = 0;
  int tokens = 0;
  int requests = 0;

  friend constexpr bool operator==(const dimension&, const dimension&) = default;

  friend constexpr dimension operator*(dimension a, dimension b) {
    return {a.data + b.data,     a.time + b.time,     a.compute + b.compute,
            a.energy + b.energy, a.money + b.money,   a.tokens + b.tokens,
            a.requests + b.requests};
  }
  friend constexpr dimension operator/(dimension a, dimension b) {
    return {a.data - b.data,     a.time - b.time,     a.compute - b.compute,
            a.energy - b.energy, a.money - b.money,   a.tokens - b.tokens,
            a.requests - b.requests};
  }
  [[nodiscard]] constexpr bool dimensionless() const { return *this == dimension{}; }
};

/// The named dimensions of the library.
namespace dims {
inline constexpr dimension none{};
inline constexpr dimension data{.data = 1};
inline constexpr dimension time{.time = 1};
inline constexpr dimension compute{.compute = 1};
inline constexpr dimension energy{.energy = 1};
inline constexpr dimension money{.money = 1};
inline constexpr dimension tokens{.tokens = 1};
inline constexpr dimension requests{.requests = 1};

inline constexpr dimension frequency = none / time;
inline constexpr dimension bandwidth = data / time;
inline constexpr dimension compute_rate = compute / time;
inline constexpr dimension power = energy / time;
inline constexpr dimension intensity = compute / data;
inline constexpr dimension energy_per_compute = energy / compute;
inline constexpr dimension money_rate = money / time;
inline constexpr dimension energy_price = money / energy;
inline constexpr dimension token_rate = tokens / time;
inline constexpr dimension request_rate = requests / time;
inline constexpr dimension data_per_token = data / tokens;
inline constexpr dimension compute_per_token = compute / tokens;
inline constexpr dimension money_per_token = money / tokens;
}  // namespace dims

/// A readable name for a named dimension ("data", "power"), or an empty view for other ones.
constexpr std::string_view dimension_name(dimension d) {
  struct entry {
    dimension dim;
    std::string_view name;
  };
  constexpr entry table[] = {
      {dims::none, "dimensionless"},
      {dims::data, "data"},
      {dims::time, "time"},
      {dims::compute, "compute"},
      {dims::energy, "energy"},
      {dims::money, "money"},
      {dims::tokens, "tokens"},
      {dims::requests, "requests"},
      {dims::frequency, "frequency"},
      {dims::bandwidth, "bandwidth"},
      {dims::compute_rate, "compute rate"},
      {dims::power, "power"},
      {dims::intensity, "arithmetic intensity"},
      {dims::energy_per_compute, "energy per FLOP"},
      {dims::money_rate, "money per time"},
      {dims::energy_price, "money per energy"},
      {dims::token_rate, "token rate"},
      {dims::request_rate, "request rate"},
      {dims::data_per_token, "data per token"},
      {dims::compute_per_token, "compute per token"},
      {dims::money_per_token, "money per token"},
  };
  for (const auto& e : table)
    if (e.dim == d) return e.name;
  return {};
}

template <dimension D, std::floating_point Rep = double>
struct quantity;

namespace detail {

template <class T>
inline constexpr bool is_quantity = false;
template <dimension D, class R>
inline constexpr bool is_quantity<quantity<D, R>> = true;

template <class S>
concept scalar = std::is_arithmetic_v<S> && !std::is_same_v<S, bool>;

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

// Called by every operation that needs equal dimensions. When they differ, the first error line
// names the left operand's dimension and the next one the right's, in words.
template <dimension L, dimension R>
constexpr void require_same_dimension() {
  if constexpr (L != R) {
    static_assert(L != dims::data, "gpuplan: cannot add, subtract or compare data (bytes) with a quantity of another dimension");
    static_assert(L != dims::time, "gpuplan: cannot add, subtract or compare time (seconds) with a quantity of another dimension");
    static_assert(L != dims::compute, "gpuplan: cannot add, subtract or compare compute (FLOP) with a quantity of another dimension");
    static_assert(L != dims::energy, "gpuplan: cannot add, subtract or compare energy (joules) with a quantity of another dimension");
    static_assert(L != dims::money, "gpuplan: cannot add, subtract or compare money (US dollars) with a quantity of another dimension");
    static_assert(L != dims::tokens, "gpuplan: cannot add, subtract or compare tokens with a quantity of another dimension");
    static_assert(L != dims::requests, "gpuplan: cannot add, subtract or compare requests with a quantity of another dimension");
    static_assert(L != dims::bandwidth, "gpuplan: cannot add, subtract or compare bandwidth (bytes/s) with a quantity of another dimension");
    static_assert(L != dims::compute_rate, "gpuplan: cannot add, subtract or compare compute rate (FLOP/s) with a quantity of another dimension");
    static_assert(L != dims::power, "gpuplan: cannot add, subtract or compare power (watts) with a quantity of another dimension");
    static_assert(L != dims::frequency, "gpuplan: cannot add, subtract or compare frequency (1/s) with a quantity of another dimension");
    static_assert(R != dims::data, "gpuplan: the other operand is data (bytes)");
    static_assert(R != dims::time, "gpuplan: the other operand is time (seconds)");
    static_assert(R != dims::compute, "gpuplan: the other operand is compute (FLOP)");
    static_assert(R != dims::energy, "gpuplan: the other operand is energy (joules)");
    static_assert(R != dims::money, "gpuplan: the other operand is money (US dollars)");
    static_assert(R != dims::tokens, "gpuplan: the other operand is tokens");
    static_assert(R != dims::requests, "gpuplan: the other operand is requests");
    static_assert(R != dims::bandwidth, "gpuplan: the other operand is bandwidth (bytes/s)");
    static_assert(R != dims::compute_rate, "gpuplan: the other operand is compute rate (FLOP/s)");
    static_assert(R != dims::power, "gpuplan: the other operand is power (watts)");
    static_assert(R != dims::frequency, "gpuplan: the other operand is frequency (1/s)");
    static_assert(L == R, "gpuplan: cannot add, subtract or compare quantities of different dimensions");
  }
}

template <class S>
constexpr void reject_plain_number() {
  static_assert(!scalar<S>,
                "gpuplan: cannot add, subtract or compare a plain number and a quantity: give the number a unit (3 * gpuplan::units::GiB, 3_GiB)");
}

}  // namespace detail

/// A value of dimension D, stored in D's base unit (byte, second, FLOP, joule, US dollar, token,
/// request, or their products). Structural: `value` is public so that quantities and aggregates
/// of them are valid template arguments; construct through units (`80 * GiB`), literals
/// (`80_GiB`) or `from_base`, never from a bare number.
template <dimension D, std::floating_point Rep>
struct quantity {
  using rep = Rep;
  static constexpr dimension dim = D;

  /// The value in the base unit. Public so the type is structural; prefer `in(unit)` to read it.
  Rep value{};

  constexpr quantity() = default;

  /// Widening conversion between representations (float to double) is implicit; narrowing is
  /// explicit.
  template <std::floating_point R2>
    requires(!std::is_same_v<R2, Rep>)
  constexpr explicit(sizeof(R2) > sizeof(Rep)) quantity(quantity<D, R2> other)
      : value(static_cast<Rep>(other.value)) {}

  /// The quantity whose value in the base unit is v.
  [[nodiscard]] static constexpr quantity from_base(Rep v) {
    quantity q;
    q.value = v;
    return q;
  }

  /// The value expressed in unit u (of the same dimension), as a plain number.
  template <class U>
    requires requires { U::dim; }
  [[nodiscard]] constexpr Rep in(const U& u) const {
    detail::require_same_dimension<D, U::dim>();
    return value / static_cast<Rep>(u.factor);
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

template <dimension A, class R1, dimension B, class R2>
constexpr auto operator+(quantity<A, R1> a, quantity<B, R2> b) {
  detail::require_same_dimension<A, B>();
  using R = std::common_type_t<R1, R2>;
  return quantity<A, R>::from_base(static_cast<R>(a.value) + static_cast<R>(b.value));
}
template <dimension A, class R1, dimension B, class R2>
constexpr auto operator-(quantity<A, R1> a, quantity<B, R2> b) {
  detail::require_same_dimension<A, B>();
  using R = std::common_type_t<R1, R2>;
  return quantity<A, R>::from_base(static_cast<R>(a.value) - static_cast<R>(b.value));
}
template <dimension A, class R1, dimension B, class R2>
constexpr bool operator==(quantity<A, R1> a, quantity<B, R2> b) {
  detail::require_same_dimension<A, B>();
  return a.value == b.value;
}
template <dimension A, class R1, dimension B, class R2>
constexpr auto operator<=>(quantity<A, R1> a, quantity<B, R2> b) {
  detail::require_same_dimension<A, B>();
  return a.value <=> b.value;
}

// A plain number never adds to or compares with a quantity: it has no unit.
template <dimension A, class R, detail::scalar S>
constexpr quantity<A, R> operator+(quantity<A, R>, S) {
  detail::reject_plain_number<S>();
  return {};
}
template <dimension A, class R, detail::scalar S>
constexpr quantity<A, R> operator+(S, quantity<A, R>) {
  detail::reject_plain_number<S>();
  return {};
}
template <dimension A, class R, detail::scalar S>
constexpr quantity<A, R> operator-(quantity<A, R>, S) {
  detail::reject_plain_number<S>();
  return {};
}
template <dimension A, class R, detail::scalar S>
constexpr quantity<A, R> operator-(S, quantity<A, R>) {
  detail::reject_plain_number<S>();
  return {};
}
template <dimension A, class R, detail::scalar S>
constexpr bool operator==(quantity<A, R>, S) {
  detail::reject_plain_number<S>();
  return false;
}
template <dimension A, class R, detail::scalar S>
constexpr std::partial_ordering operator<=>(quantity<A, R>, S) {
  detail::reject_plain_number<S>();
  return std::partial_ordering::unordered;
}

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
  return q.value < R{0} ? -q : q;
}
/// True when the value is neither NaN nor infinite (usable in constant expressions).
template <dimension A, class R>
constexpr bool is_finite(quantity<A, R> q) {
  const R v = q.value;
  return v == v && v - v == R{0};
}
template <dimension A, class R>
constexpr quantity<A, R> min(quantity<A, R> a, quantity<A, R> b) {
  return b < a ? b : a;
}
template <dimension A, class R>
constexpr quantity<A, R> max(quantity<A, R> a, quantity<A, R> b) {
  return a < b ? b : a;
}

template <class T>
concept any_quantity = detail::is_quantity<std::remove_cvref_t<T>>;

// ---- the named quantity types (aliases of the computed types) ---------------------------------

using data_size = quantity<dims::data>;               ///< bytes
using duration = quantity<dims::time>;                ///< seconds
using compute_amount = quantity<dims::compute>;       ///< FLOP
using energy = quantity<dims::energy>;                ///< joules
using money = quantity<dims::money>;                  ///< US dollars
using token_count = quantity<dims::tokens>;           ///< tokens
using request_count = quantity<dims::requests>;       ///< requests
using frequency = quantity<dims::frequency>;          ///< 1/s (Hz)
using bandwidth = quantity<dims::bandwidth>;          ///< bytes/s
using compute_rate = quantity<dims::compute_rate>;    ///< FLOP/s
using power = quantity<dims::power>;                  ///< watts
using intensity = quantity<dims::intensity>;          ///< FLOP/byte
using energy_per_compute = quantity<dims::energy_per_compute>;  ///< joules/FLOP
using money_rate = quantity<dims::money_rate>;        ///< US dollars/s
using energy_price = quantity<dims::energy_price>;    ///< US dollars/joule
using token_rate = quantity<dims::token_rate>;        ///< tokens/s
using request_rate = quantity<dims::request_rate>;    ///< requests/s
using data_per_token = quantity<dims::data_per_token>;        ///< bytes/token
using compute_per_token = quantity<dims::compute_per_token>;  ///< FLOP/token
using money_per_token = quantity<dims::money_per_token>;      ///< US dollars/token

}  // namespace gpuplan
