// gpuplan/fwd.hpp: the library's vocabulary types, declared, for headers that only name them.
//
// Includes no other header. A header that passes quantities or specs by reference, or declares
// functions taking them, can include this instead of <gpuplan/gpuplan.hpp>; the translation unit
// that calls those functions includes the full headers.
#pragma once

namespace gpuplan {

// ---- the dimensions: every per-dimension fact is one row of these three lists ---------------
//
// GPUPLAN_BASE_DIMENSIONS(X): X(member, base unit symbol) for each base dimension: the exponent's
//   member in `dimension`, the symbol quantities of unnamed dimensions print with ("B*s").
// GPUPLAN_DERIVED_DIMENSIONS(X): X(name, expression) for each named dimension built from others.
// GPUPLAN_NAMED_DIMENSIONS(X): X(name, quantity type, description, display name) for every named
//   dimension: its constant dims::name, its type alias, the text of dimension-mismatch errors
//   ("cannot add data (bytes) and ...") and what dimension_name() returns.
// A new dimension is a row in the first or second list and a row in the third; its units are rows
// of GPUPLAN_UNITS (units/units.hpp), which make its constants, literals and print ladders.

#define GPUPLAN_BASE_DIMENSIONS(X) \
  X(data, "B")                     \
  X(time, "s")                     \
  X(compute, "FLOP")               \
  X(energy, "J")                   \
  X(money, "$")                    \
  X(tokens, "tok")                 \
  X(requests, "req")               \
  X(carbon, "kgCO2e")

#define GPUPLAN_DERIVED_DIMENSIONS(X)               \
  X(frequency, none / time)                         \
  X(bandwidth, data / time)                         \
  X(compute_rate, compute / time)                   \
  X(power, energy / time)                           \
  X(intensity, compute / data)                      \
  X(energy_per_compute, energy / compute)           \
  X(money_rate, money / time)                       \
  X(energy_price, money / energy)                   \
  X(token_rate, tokens / time)                      \
  X(request_rate, requests / time)                  \
  X(data_per_token, data / tokens)                  \
  X(compute_per_token, compute / tokens)            \
  X(money_per_token, money / tokens)                \
  X(carbon_intensity, carbon / energy)

#define GPUPLAN_NAMED_DIMENSIONS(X)                                                              \
  X(data, data_size, "data (bytes)", "data")                                                     \
  X(time, duration, "time (seconds)", "time")                                                    \
  X(compute, compute_amount, "compute (FLOP)", "compute")                                        \
  X(energy, energy, "energy (joules)", "energy")                                                 \
  X(money, money, "money (US dollars)", "money")                                                 \
  X(tokens, token_count, "tokens", "tokens")                                                     \
  X(requests, request_count, "requests", "requests")                                             \
  X(carbon, carbon_mass, "carbon mass (kg CO2e)", "carbon mass")                                 \
  X(frequency, frequency, "frequency (1/s)", "frequency")                                        \
  X(bandwidth, bandwidth, "bandwidth (bytes/s)", "bandwidth")                                    \
  X(compute_rate, compute_rate, "compute rate (FLOP/s)", "compute rate")                         \
  X(power, power, "power (watts)", "power")                                                      \
  X(intensity, intensity, "arithmetic intensity (FLOP/byte)", "arithmetic intensity")            \
  X(energy_per_compute, energy_per_compute, "energy per FLOP (joules/FLOP)", "energy per FLOP")  \
  X(money_rate, money_rate, "money per time (US dollars/s)", "money per time")                   \
  X(energy_price, energy_price, "money per energy (US dollars/joule)", "money per energy")       \
  X(token_rate, token_rate, "token rate (tokens/s)", "token rate")                               \
  X(request_rate, request_rate, "request rate (requests/s)", "request rate")                     \
  X(data_per_token, data_per_token, "data per token (bytes/token)", "data per token")            \
  X(compute_per_token, compute_per_token, "compute per token (FLOP/token)", "compute per token") \
  X(money_per_token, money_per_token, "money per token (US dollars/token)", "money per token")   \
  X(carbon_intensity, carbon_intensity, "carbon intensity (kg CO2e/joule)", "carbon intensity")

/// Exponents of the base dimensions (GPUPLAN_BASE_DIMENSIONS). Energy is a base dimension of its
/// own (not mass x length^2 / time^2): planning never needs mass or length, and keeping joules
/// primary makes watts = joules / second exact. Compute (FLOP) is a base dimension, so FLOP/s is
/// not hertz. Tokens and requests are counted dimensions so that tokens/s can never be mixed up
/// with requests/s; carbon (kg CO2e) is the emissions an energy use or a purchase stands for
/// (see docs/units.md for the reasoning).
struct dimension {
#define GPUPLAN_DETAIL_MEMBER(member, symbol) int member = 0;
  GPUPLAN_BASE_DIMENSIONS(GPUPLAN_DETAIL_MEMBER)
#undef GPUPLAN_DETAIL_MEMBER

  friend constexpr bool operator==(const dimension&, const dimension&) = default;

  friend constexpr dimension operator*(dimension a, dimension b) {
#define GPUPLAN_DETAIL_ADD(member, symbol) a.member += b.member;
    GPUPLAN_BASE_DIMENSIONS(GPUPLAN_DETAIL_ADD)
#undef GPUPLAN_DETAIL_ADD
    return a;
  }
  friend constexpr dimension operator/(dimension a, dimension b) {
#define GPUPLAN_DETAIL_SUB(member, symbol) a.member -= b.member;
    GPUPLAN_BASE_DIMENSIONS(GPUPLAN_DETAIL_SUB)
#undef GPUPLAN_DETAIL_SUB
    return a;
  }
  [[nodiscard]] constexpr bool dimensionless() const { return *this == dimension{}; }
};

/// The named dimensions of the library.
namespace dims {
inline constexpr dimension none{};
#define GPUPLAN_DETAIL_BASE(member, symbol) \
  inline constexpr dimension member = [] {  \
    dimension d{};                          \
    d.member = 1;                           \
    return d;                               \
  }();
GPUPLAN_BASE_DIMENSIONS(GPUPLAN_DETAIL_BASE)
#undef GPUPLAN_DETAIL_BASE
#define GPUPLAN_DETAIL_DERIVED(name, expression) inline constexpr dimension name = expression;
GPUPLAN_DERIVED_DIMENSIONS(GPUPLAN_DETAIL_DERIVED)
#undef GPUPLAN_DETAIL_DERIVED
}  // namespace dims

/// A value of dimension D stored in D's base unit. Rep must be a floating-point type (see
/// <gpuplan/units/quantity.hpp> for why).
template <dimension D, class Rep = double>
struct quantity;

// ---- the named quantity types (aliases of the computed types) ---------------------------------

#define GPUPLAN_DETAIL_ALIAS(name, type, description, display) using type = quantity<dims::name>;
GPUPLAN_NAMED_DIMENSIONS(GPUPLAN_DETAIL_ALIAS)
#undef GPUPLAN_DETAIL_ALIAS

template <dimension D>
struct unit;

// ---- specs (defined in <gpuplan/specs/*.hpp>) ----------------------------------------------------

enum class precision : unsigned char;
struct name_string;
struct gpu_spec;
struct transformer_spec;
struct parallel_layout;

}  // namespace gpuplan
