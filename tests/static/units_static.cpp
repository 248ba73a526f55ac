// Compile-only checks of the quantity core: building this file is the test.
//
// Negative checks go through concepts. A mismatched +, -, comparison or .in() is not removed from
// overload resolution (then its error would be "no match for operator+" and a list of candidates);
// it is chosen, its body's static_assert says what is wrong, and it returns
// detail::dimension_mismatch, which is neither a quantity nor bool (though it converts to anything,
// so that the sentence is the only error). So the concepts below ask for the exact result type,
// `requires { { a + b } -> any_quantity; }`, `{ a < b } -> std::same_as<bool>`, which is
// SFINAE-visible and never instantiates the body (see docs/units.md, "Errors").
#include <gpuplan/fwd.hpp>
#include <gpuplan/units.hpp>

#include <concepts>
#include <type_traits>

namespace {
using namespace gpuplan;
using namespace gpuplan::literals;
using namespace gpuplan::units;

template <class A, class B>
concept addable = requires(A a, B b) {
  { a + b } -> any_quantity;
  { a - b } -> any_quantity;
};
template <class A, class B>
concept comparable = requires(A a, B b) {
  { a == b } -> std::same_as<bool>;
  { a != b } -> std::same_as<bool>;
  { a < b } -> std::same_as<bool>;
  { a <= b } -> std::same_as<bool>;
  { a > b } -> std::same_as<bool>;
  { a >= b } -> std::same_as<bool>;
  { a <=> b } -> std::same_as<std::partial_ordering>;
};
template <class Q, class U>
concept readable_in = requires(Q q, U u) {
  { q.in(u) } -> std::same_as<typename Q::rep>;
};
template <class A, class B>
concept add_assignable = requires(A a, B b) { a += b; };

// ---- positive ---------------------------------------------------------------------------------
static_assert(addable<data_size, data_size>);
static_assert(addable<quantity<dims::data, float>, data_size>);
static_assert(comparable<data_size, data_size>);
static_assert(comparable<duration, quantity<dims::time, long double>>);
static_assert(readable_in<data_size, unit<dims::data>>);
static_assert(readable_in<bandwidth, decltype(GB / s)>);

// ---- negative: mismatched dimensions ----------------------------------------------------------
static_assert(!addable<data_size, power>);
static_assert(!addable<power, data_size>);
static_assert(!addable<duration, data_size>);
static_assert(!addable<token_rate, request_rate>);   // tokens/s never mixes with requests/s
static_assert(!addable<compute_rate, frequency>);    // FLOP/s is not hertz
static_assert(!addable<bandwidth, compute_rate>);
static_assert(!addable<energy, power>);
static_assert(!addable<money, money_rate>);
// Carbon mass (kg CO2e) is its own base dimension: never money, energy or data.
static_assert(!addable<carbon_mass, money>);
static_assert(!addable<carbon_mass, energy>);
static_assert(!addable<carbon_mass, data_size>);
static_assert(!comparable<carbon_mass, money>);
static_assert(addable<carbon_mass, carbon_mass>);
static_assert(std::is_same_v<decltype(energy{} * carbon_intensity{}), carbon_mass>);
static_assert(std::is_same_v<decltype(carbon_mass{} / energy{}), carbon_intensity>);
static_assert((1500 * gCO2e).in(kgCO2e) == 1.5);
static_assert((2 * tCO2e).in(kgCO2e) == 2000.0);
static_assert(!comparable<duration, data_size>);
static_assert(!comparable<token_count, request_count>);
static_assert(!readable_in<data_size, unit<dims::time>>);
static_assert(!readable_in<bandwidth, unit<dims::data>>);
static_assert(!readable_in<compute_rate, unit<dims::frequency>>);
static_assert(!add_assignable<data_size&, power>);

// ---- negative: plain numbers have no unit -----------------------------------------------------
static_assert(!addable<data_size, double>);
static_assert(!addable<int, data_size>);
static_assert(!comparable<data_size, double>);
static_assert(!comparable<int, duration>);
static_assert(!add_assignable<data_size&, double>);
static_assert(!std::is_constructible_v<data_size, double>);
static_assert(!std::is_convertible_v<double, data_size>);
static_assert(!std::is_convertible_v<data_size, double>);
static_assert(!readable_in<data_size, double>);

// ---- representations --------------------------------------------------------------------------
static_assert(std::is_same_v<data_size::rep, double>);
static_assert(std::is_convertible_v<quantity<dims::data, float>, data_size>);
static_assert(!std::is_convertible_v<data_size, quantity<dims::data, float>>);

// ---- values -----------------------------------------------------------------------------------
static_assert((80_GiB).in(B) == 85899345920.0);
static_assert((400_Gbps).in(GBps) == 50.0);
static_assert((1_kWh).in(J) == 3.6e6);
static_assert(1_GiB > 1_GB);
static_assert(std::is_same_v<decltype(1_TB / 1_TBps), duration>);
static_assert(std::is_same_v<decltype(1_GB / 1_GB), double>);
static_assert(std::is_same_v<decltype(1_kWh / 1_h), power>);
static_assert(std::is_same_v<decltype(1_TFLOP / 1_s), compute_rate>);
static_assert(std::is_same_v<decltype(1_TFLOP / 1_GB), intensity>);
// A FLOP total of 1e25 (frontier training runs) is an ordinary double.
static_assert((1e25_FLOP / 1_EFLOPS).in(h) > 2777.7 && (1e25_FLOP / 1_EFLOPS).in(h) < 2777.8);

// The same alias whichever header declared it: fwd.hpp's aliases are the computed types.
static_assert(std::is_same_v<bandwidth, quantity<dims::data / dims::time>>);
static_assert(std::is_same_v<power, quantity<dims::energy / dims::time, double>>);

// Quantities are structural: they can be template arguments.
template <data_size X>
struct holds {
  static constexpr double gib = X.in(GiB);
};
static_assert(holds<80_GiB>::gib == 80.0);
static_assert(std::is_same_v<holds<80_GiB>, holds<80 * GiB>>);
}  // namespace
