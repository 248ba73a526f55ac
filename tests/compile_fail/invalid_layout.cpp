// expect: layout.tp must divide model.heads
// A layout checked in a constant expression: tensor parallelism of 3 cannot split Llama 3.1 70B's
// 64 attention heads, and the compiler says so, naming the field. The passing twin uses tp = 8.
#include <gpuplan/gpuplan.hpp>

using namespace gpuplan;

#if defined(GPUPLAN_COMPILE_FAIL)
constexpr parallel_layout layout{.dp = 2, .tp = 3};
constexpr int gpus = 6;
#else
constexpr parallel_layout layout{.dp = 2, .tp = 8};
constexpr int gpus = 16;
#endif

constexpr bool checked(const parallel_layout& l) {
  l.validate(catalog::llama31_70b, gpus);
  return true;
}
static_assert(checked(layout));

int main() { return 0; }
