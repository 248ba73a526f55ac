// expect: cannot add, subtract or compare data \(bytes\)
// expect: the other operand is power \(watts\)
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
