// expect: gpuplan: the deployment misses its latency target
// A serving plan whose SLO is checked by the compiler: Llama 3.1 70B in bf16 on 4 H100s (tp 4)
// with 256 requests in flight cannot stream a token every 30 ms, so the build stops. The passing
// twin runs 16 requests on 8 GPUs (tp 8).
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/serving.hpp>

using namespace gpuplan;

#if defined(GPUPLAN_COMPILE_FAIL)
constexpr serving_plan plan{.model = catalog::llama31_70b, .node = catalog::dgx_h100,
                            .layout = {.tp = 4}, .concurrency = 256};
#else
constexpr serving_plan plan{.model = catalog::llama31_70b, .node = catalog::dgx_h100,
                            .layout = {.tp = 8}, .concurrency = 16};
#endif
static_assert(serving_slo{.ttft = 2 * units::s, .tpot = 30 * units::ms}.met(serve(plan)),
              "gpuplan: the deployment misses its latency target");

int main() { return 0; }
