// Integer representations are rejected with the reason.
// first-error: gpuplan: a quantity's representation must be float, double or long double, not an integer
// expect: gpuplan: a quantity's representation must be float, double or long double, not an integer
#include <gpuplan/units.hpp>

#include <cstdint>

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  gpuplan::quantity<gpuplan::dims::compute, std::int64_t> flops{};
#else
  gpuplan::quantity<gpuplan::dims::compute, double> flops{};
#endif
  return flops.value > 0 ? 1 : 0;
}
