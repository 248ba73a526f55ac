// Subtracting seconds from bytes.
// first-error: gpuplan: cannot subtract a quantity of another dimension from data \(bytes\)
// expect: gpuplan: cannot subtract a quantity of another dimension from data \(bytes\)
// expect: gpuplan: the other operand is time \(seconds\)
#include <gpuplan/units.hpp>

using namespace gpuplan::literals;

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  auto x = 80_GiB - 3_s;
#else
  auto x = 80_GiB - 3_GiB;
#endif
  return x.value > 0 ? 0 : 1;
}
