// gpuplan/fwd.hpp: the library's vocabulary types, declared, for headers that only name them.
//
// Includes no other header. A header that passes quantities or specs by reference, or declares
// functions taking them, can include this instead of <gpuplan/gpuplan.hpp>; the translation unit
// that calls those functions includes the full headers.
#pragma once

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

/// A value of dimension D stored in D's base unit. Rep must be a floating-point type (see
/// <gpuplan/units/quantity.hpp> for why).
template <dimension D, class Rep = double>
struct quantity;

// ---- the named quantity types (aliases of the computed types) ---------------------------------

using data_size = quantity<dims::data>;                         ///< bytes
using duration = quantity<dims::time>;                          ///< seconds
using compute_amount = quantity<dims::compute>;                 ///< FLOP
using energy = quantity<dims::energy>;                          ///< joules
using money = quantity<dims::money>;                            ///< US dollars
using token_count = quantity<dims::tokens>;                     ///< tokens
using request_count = quantity<dims::requests>;                 ///< requests
using frequency = quantity<dims::frequency>;                    ///< 1/s (Hz)
using bandwidth = quantity<dims::bandwidth>;                    ///< bytes/s
using compute_rate = quantity<dims::compute_rate>;              ///< FLOP/s
using power = quantity<dims::power>;                            ///< watts
using intensity = quantity<dims::intensity>;                    ///< FLOP/byte
using energy_per_compute = quantity<dims::energy_per_compute>;  ///< joules/FLOP
using money_rate = quantity<dims::money_rate>;                  ///< US dollars/s
using energy_price = quantity<dims::energy_price>;              ///< US dollars/joule
using token_rate = quantity<dims::token_rate>;                  ///< tokens/s
using request_rate = quantity<dims::request_rate>;              ///< requests/s
using data_per_token = quantity<dims::data_per_token>;          ///< bytes/token
using compute_per_token = quantity<dims::compute_per_token>;    ///< FLOP/token
using money_per_token = quantity<dims::money_per_token>;        ///< US dollars/token

template <dimension D>
struct unit;

// ---- specs (defined in <gpuplan/specs/*.hpp>) ----------------------------------------------------

enum class precision : unsigned char;
struct name_string;
struct gpu_spec;
struct transformer_spec;
struct parallel_layout;

}  // namespace gpuplan
