#include <gpuplan/gpuplan.hpp>

#include <cstdio>

#if defined(GPUPLAN_TEST_FORMAT)
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>
#endif

using namespace gpuplan::literals;

int main() {
  constexpr gpuplan::duration t = 80_GiB / 3.35_TBps;
  static_assert(t > 25_ms && t < 26_ms);
  std::printf("gpuplan test_package: 80 GiB at 3.35 TB/s in %.2f ms\n", t.in(gpuplan::units::ms));
#if defined(GPUPLAN_TEST_FORMAT)
  fmt::print("gpuplan test_package (format): {} at {} in {:.2}\n", 80_GiB, 3.35_TBps, t);
#endif
  return 0;
}
