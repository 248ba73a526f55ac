#include "../catch.hpp"

#include <gpuplan/units.hpp>

using namespace gpuplan;
using namespace gpuplan::literals;
using namespace gpuplan::units;

TEST_CASE("data units keep decimal and binary prefixes apart", "[units]") {
  CHECK((80_GiB).in(B) == 85899345920.0);
  CHECK((80_GB).in(B) == 80e9);
  CHECK((1_GiB).in(GB) == Approx(1.073741824));
  CHECK((8_bit).in(B) == 1.0);
}

TEST_CASE("bits per second and bytes per second differ by eight", "[units]") {
  CHECK((400_Gbps).in(GBps) == 50.0);
  CHECK((3.35_TBps).in(Gbps) == Approx(26800.0));
}

TEST_CASE("dimensional algebra gives the computed types", "[units]") {
  const duration t = 1_TB / 2_TBps;
  CHECK(t.in(ms) == 500.0);
  const power p = 1_kWh / 1_h;
  CHECK(p.in(W) == Approx(1000.0));
  const double ratio = 1_GiB / 1_MiB;
  CHECK(ratio == 1024.0);
  const compute_rate r = 989_TFLOP / 1_s;
  CHECK(r.in(TFLOPS) == Approx(989.0));
}
