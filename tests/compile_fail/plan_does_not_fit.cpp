// expect: the plan does not fit in GPU memory
// A tool that checks its training plan at compile time: Llama 3.1 70B full fine-tuning on 8 H100s
// without sharding needs about 16 bytes per parameter (1.1 TB) per GPU, so the build stops. The
// passing twin shards the model states with ZeRO-3 over 64 GPUs and recomputes activations.
#include <gpuplan/gpuplan.hpp>

using namespace gpuplan;

constexpr training_config cfg{.recompute = recompute_mode::full, .micro_batch = 1, .seq = 4096};
#if defined(GPUPLAN_COMPILE_FAIL)
constexpr parallel_layout layout{.dp = 8, .zero = 0};
#else
constexpr parallel_layout layout{.dp = 64, .zero = 3};
#endif
constexpr fit_report plan = training_fit(catalog::llama31_70b, catalog::h100_sxm, layout, cfg);
static_assert(plan.fits(), "gpuplan: the plan does not fit in GPU memory");

int main() { return plan.fits() ? 0 : 1; }
