// A plain number has no unit, so it never adds to a quantity.
// first-error: gpuplan: cannot add a plain number and a quantity: give the number a unit
// expect: gpuplan: cannot add a plain number and a quantity: give the number a unit
#include <gpuplan/units.hpp>

using namespace gpuplan::literals;

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  auto x = 80_GiB + 2.0;
#else
  auto x = 80_GiB + 2.0_GiB;
#endif
  return x.value > 0 ? 0 : 1;
}
