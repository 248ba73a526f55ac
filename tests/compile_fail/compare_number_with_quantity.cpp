// Comparing a quantity with a bare number (is 0 bytes? seconds?) does not compile.
// first-error: gpuplan: cannot compare a plain number with a quantity
// expect: gpuplan: cannot compare a plain number with a quantity
#include <gpuplan/units.hpp>

using namespace gpuplan::literals;

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  const bool empty = 80_GiB == 0;
#else
  const bool empty = 80_GiB == 0_B;
#endif
  return empty ? 1 : 0;
}
