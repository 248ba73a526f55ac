// expect: serving_plan.concurrency must be at least 1
// A serving plan with no requests in flight is rejected in a constant expression, and the
// compiler names the field. The passing twin serves one request.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/serving.hpp>

using namespace gpuplan;

#if defined(GPUPLAN_COMPILE_FAIL)
constexpr int requests = 0;
#else
constexpr int requests = 1;
#endif
constexpr serving_plan plan{.model = catalog::llama31_8b, .node = catalog::dgx_h100,
                            .concurrency = requests};
static_assert(decode_step(plan) > 0 * units::s);

int main() { return 0; }
