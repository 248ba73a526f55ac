// Gb (a data unit) is not Gb/s: reading a bandwidth in a data unit is caught.
// first-error: gpuplan: cannot express bandwidth \(bytes/s\) in a unit of another dimension
// expect: gpuplan: cannot express bandwidth \(bytes/s\) in a unit of another dimension
// expect: gpuplan: the unit is a unit of data \(bytes\)
#include <gpuplan/units.hpp>

using namespace gpuplan::literals;

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  auto x = (400_Gbps).in(gpuplan::units::Gbit);
#else
  auto x = (400_Gbps).in(gpuplan::units::Gbps);
#endif
  return x > 0 ? 0 : 1;
}
