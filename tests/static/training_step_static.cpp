// Compile-time step time: the step-time model runs in the compiler, so a training budget can be
// a static_assert. Building this file is the test.
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/training_step.hpp>

namespace {

using namespace gpuplan;
namespace cat = gpuplan::catalog;

// Llama 3.1 8B pre-training on 8 DGX H100 nodes (64 GPUs), data parallel with the distributed
// optimizer, 8k sequences, 64 sequences (512k tokens) per step.
constexpr training_plan plan{
    .model = cat::llama31_8b,
    .node = cat::dgx_h100,
    .layout = {.dp = 64, .zero = 1},
    .config = {.micro_batch = 1, .seq = 8192, .global_batch = 64},
};

static_assert(step_time(plan) < 2 * units::s);
static_assert(step_time(plan) > 0.2 * units::s);  // and not absurdly fast
static_assert(time_to_train(plan, 1.0 * units::Ttoken) < 30 * units::d);
static_assert(time_to_train(plan, 1.0 * units::Ttoken) < 30 * units::day);  // issue 10's spelling
static_assert(estimate_step(plan).nodes == 8);
static_assert(estimate_step(plan).mfu > 0.3 && estimate_step(plan).mfu < 0.8);

// The same budget on a quarter of the GPUs takes more than three times as long.
constexpr training_plan small = [] {
  training_plan p = plan;
  p.layout.dp = 16;
  return p;
}();
static_assert(time_to_train(small, 1.0 * units::Ttoken) > 3 * time_to_train(plan, 1.0 * units::Ttoken));

// A tensor-parallel group of 16 on 8-GPU nodes spills over the NICs, and the model says so.
constexpr training_plan spill = [] {
  training_plan p = plan;
  p.layout = {.dp = 4, .tp = 16, .sequence_parallel = true};
  return p;
}();
static_assert(estimate_step(spill).tp_crosses_nodes);
static_assert(!estimate_step(plan).tp_crosses_nodes);

// Collectives are constant expressions too: 1 GiB all-reduce on one DGX A100 node, ring, about
// 8 ms (234.89 GB/s busbw in nccl-tests).
static_assert(collective_time(collective_kind::all_reduce, 1.0 * units::GiB,
                              make_group(cat::dgx_a100, 8))
                  .total < 9 * units::ms);

}  // namespace
