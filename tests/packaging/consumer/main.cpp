// A program that uses gpuplan the way a downstream project does. Built by the packaging tests
// against an installed gpuplan (find_package), through add_subdirectory and through FetchContent.
// Each optional part is used only when the consumer's CMake linked it (GPUPLAN_CONSUMER_<PART>).
#include <gpuplan/gpuplan.hpp>

#include <cstdio>

#if defined(GPUPLAN_CONSUMER_FORMAT)
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>
#endif

using namespace gpuplan::literals;

// The core is constexpr: a planning figure checked by the compiler.
constexpr gpuplan::duration read_all_memory = 80_GiB / 3.35_TBps;
static_assert(read_all_memory > 25_ms && read_all_memory < 26_ms);

int main() {
  // 80 GiB = 85899345920 bytes at 3.35e12 bytes/s: 25.64 ms.
  std::printf("core: reading 80 GiB at 3.35 TB/s takes %.2f ms\n",
              read_all_memory.in(gpuplan::units::ms));
#if defined(GPUPLAN_CONSUMER_FORMAT)
  fmt::print("format: {} at {} in {:.2}\n", 80_GiB, 3.35_TBps, read_all_memory);
#endif
  return 0;
}
