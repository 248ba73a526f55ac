// Tokens per second and requests per second are different dimensions.
// first-error: gpuplan: cannot add token rate \(tokens/s\) and a quantity of another dimension
// expect: gpuplan: cannot add token rate \(tokens/s\) and a quantity of another dimension
// expect: gpuplan: the other operand is request rate \(requests/s\)
#include <gpuplan/units.hpp>

using namespace gpuplan::literals;

int main() {
#if defined(GPUPLAN_COMPILE_FAIL)
  auto x = 1500_tokens / 1_s + 3_requests / 1_s;
#else
  auto x = 1500_tokens / 1_s + 300_tokens / 1_s;
#endif
  return x.value > 0 ? 0 : 1;
}
