// training_budget: a training budget checked by the compiler. The plan's step time and the time
// to train its token budget are static_asserts: edit the plan so that the run no longer finishes
// within the budget (fewer nodes, a smaller global batch that starves the pipeline) and the build
// stops. The same functions run at run time to print the numbers.
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/training_step.hpp>

#include <cstdio>

namespace {

using namespace gpuplan;
namespace cat = gpuplan::catalog;

// Llama 3.1 70B continued pre-training on 32 DGX H100 nodes (256 GPUs): TP 8 within the node,
// 4 pipeline stages with 2 interleaved chunks, 8-way data parallel with the distributed
// optimizer, 8k sequences, 512 sequences (4M tokens) per step, 200B tokens.
constexpr training_plan plan{
    .model = cat::llama31_70b,
    .node = cat::dgx_h100,
    .layout = {.dp = 8, .tp = 8, .pp = 4, .zero = 1, .sequence_parallel = true,
               .virtual_stages = 2},
    .config = {.recompute = recompute_mode::selective, .micro_batch = 1, .seq = 8192,
               .global_batch = 512},
};
constexpr token_count budget = 200.0 * units::Btoken;

static_assert(step_time(plan) < 20 * units::s, "one step of 4M tokens must take under 20 s");
static_assert(time_to_train(plan, budget) < 30 * units::d, "200B tokens must train within 30 days");
static_assert(!estimate_step(plan).tp_crosses_nodes, "tensor parallelism must stay in the node");

}  // namespace

int main() {
  const step_breakdown b = estimate_step(plan);
  std::printf("step %.2f s (bottleneck: %.*s), %.0f tokens/s, MFU %.1f%%\n", b.total.in(units::s),
              static_cast<int>(to_string(b.bottleneck).size()), to_string(b.bottleneck).data(),
              b.tokens_per_s.in(units::tokens_per_s), 100.0 * b.mfu);
  std::printf("200B tokens: %.1f days, %.0f GPU-hours\n", time_to_train(plan, budget).in(units::d),
              gpu_time_to_train(plan, budget).in(units::h));
  return 0;
}
