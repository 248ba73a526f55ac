// expect: the training run is over its \$2M budget
// A team keeps its training budget in code: the compiler prices the run from the price book. 1,024
// H100s for 30 days (737,280 GPU-hours) at the cheapest on-demand price in the default book
// (about $2.06M) is over $2M; the passing twin runs 512 GPUs for the same 30 days.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/catalog/prices.hpp>  // not in the umbrella (dated market data)

using namespace gpuplan;

#if defined(GPUPLAN_COMPILE_FAIL)
constexpr int gpus = 1024;
#else
constexpr int gpus = 512;
#endif
constexpr run_usage run = run_usage::of(catalog::h100_sxm, gpus, 30 * units::d);
static_assert(run_cost(run, catalog::default_prices) < 2'000'000 * units::usd,
              "gpuplan: the training run is over its $2M budget");

int main() { return 0; }
