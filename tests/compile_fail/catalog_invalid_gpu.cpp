// A GPU with no memory, validated in a constant expression: a compile error naming the field.
// expect: gpu_spec\.memory must be positive and finite
#include <gpuplan/catalog.hpp>

constexpr gpuplan::gpu_spec my_gpu = [] {
  gpuplan::gpu_spec g = gpuplan::catalog::l40s;
  g.name = "my-gpu";
  g.aliases = {};
#if defined(GPUPLAN_COMPILE_FAIL)
  g.memory = {};
#else
  g.memory = 24 * gpuplan::units::GiB;
#endif
  g.memory_usable = {};
  g.validate();
  return g;
}();

int main() { return my_gpu.memory.value > 0 ? 0 : 1; }
