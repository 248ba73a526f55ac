// expect: the price book has no price for this GPU, term and provider
// Pricing a run on a GPU the price book does not list is a compile error that says so, not a
// zero. The default book lists no MI300X; the passing twin prices the run on H100s.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/catalog/prices.hpp>  // not in the umbrella (dated market data)

using namespace gpuplan;

#if defined(GPUPLAN_COMPILE_FAIL)
constexpr const gpu_spec& gpu = catalog::mi300x;
#else
constexpr const gpu_spec& gpu = catalog::h100_sxm;
#endif
constexpr money cost = run_cost(run_usage::of(gpu, 8, 1 * units::d), catalog::default_prices);
static_assert(cost > 0 * units::usd);

int main() { return 0; }
