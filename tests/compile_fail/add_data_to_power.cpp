// Adding bytes to watts: the first error names the left operand, the next the right one.
// first-error: gpuplan: cannot add data \(bytes\) and a quantity of another dimension
// expect: gpuplan: cannot add data \(bytes\) and a quantity of another dimension
// expect: gpuplan: the other operand is power \(watts\)
#include <gpuplan/units.hpp>

using namespace gpuplan::literals;

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  auto x = 80_GiB + 700_W;
#else
  auto x = 80_GiB + 700_MiB;
#endif
  return x.value > 0 ? 0 : 1;
}
