// Comparing seconds with bytes, through a C++20 relational operator.
// first-error: gpuplan: cannot compare time \(seconds\) with a quantity of another dimension
// expect: gpuplan: cannot compare time \(seconds\) with a quantity of another dimension
// expect: gpuplan: the other operand is data \(bytes\)
#include <gpuplan/units.hpp>

using namespace gpuplan::literals;

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  const bool late = 3_s < 80_GiB;
#else
  const bool late = 3_s < 80_ms;
#endif
  return late ? 1 : 0;
}
