// Reading bytes in hours.
// first-error: gpuplan: cannot express data \(bytes\) in a unit of another dimension
// expect: gpuplan: cannot express data \(bytes\) in a unit of another dimension
// expect: gpuplan: the unit is a unit of time \(seconds\)
#include <gpuplan/units.hpp>

using namespace gpuplan::literals;

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  auto x = (80_GiB).in(gpuplan::units::h);
#else
  auto x = (80_GiB).in(gpuplan::units::GiB);
#endif
  return x > 0 ? 0 : 1;
}
