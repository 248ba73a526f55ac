// Compile-only checks of the quantity core: building this file is the test.
#include <gpuplan/units.hpp>

#include <type_traits>

namespace {
using namespace gpuplan;
using namespace gpuplan::literals;
using namespace gpuplan::units;

static_assert((80_GiB).in(B) == 85899345920.0);
static_assert((400_Gbps).in(GBps) == 50.0);
static_assert(std::is_same_v<decltype(1_TB / 1_TBps), duration>);
static_assert(std::is_same_v<decltype(1_GB / 1_GB), double>);
static_assert(std::is_same_v<decltype(1_kWh / 1_h), power>);
static_assert(std::is_same_v<decltype(1_TFLOP / 1_s), compute_rate>);
static_assert(std::is_same_v<decltype(1_TFLOP / 1_GB), intensity>);

// Quantities are structural: they can be template arguments.
template <data_size X>
struct holds {
  static constexpr double gib = X.in(GiB);
};
static_assert(holds<80_GiB>::gib == 80.0);

// Mixing dimensions, or a quantity and a plain number, does not form a valid expression.
template <class A, class Bq>
concept addable = requires(A a, Bq b) {
  { a + b } -> std::same_as<A>;
};
static_assert(addable<data_size, data_size>);
}  // namespace
