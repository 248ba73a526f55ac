// `using namespace gpuplan;` brings the literals, as `using namespace std;` brings std::literals:
// the first program a new user writes against the library (issue 9) failed on `80_GiB` here.
// `gpuplan::literals` still names them alone.
#include <gpuplan/units.hpp>

namespace first_program {
using namespace gpuplan;
static_assert(80_GiB == 80 * units::GiB);
static_assert((3.35_TBps).in(units::TBps) == 3.35);
}  // namespace first_program

namespace only_literals {
using namespace gpuplan::literals;
static_assert(1_s == 1000 * gpuplan::units::ms);
}  // namespace only_literals
