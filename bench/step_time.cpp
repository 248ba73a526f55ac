// Step-time evaluations per second on one core: the search that comes after issue 10 sweeps
// millions of layouts, so estimate_step must stay in the microsecond range.
//
//   step_time_405b_3d     Llama 3.1 405B, TP 8 x PP 16 x DP 8 (1024 GPUs, 128 DGX H100 nodes),
//                         interleaved (2 chunks), 7-layer first and last stages, sequence
//                         parallel, distributed optimizer, selective recompute
//   step_time_405b_sweep  the same model over 16 layouts (tp, pp, dp, micro-batch) in turn,
//                         so that nothing is hoisted out of the loop
//   collective_all_reduce one all-reduce on 16 nodes (the building block)
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/training_step.hpp>

#include <benchmark/benchmark.h>

#include <array>

namespace {

using namespace gpuplan;

training_plan plan_405b() {
  training_plan p;
  p.model = catalog::llama31_405b;
  p.node = catalog::dgx_h100;
  p.layout = {.dp = 8, .tp = 8, .pp = 16, .zero = 1, .sequence_parallel = true,
              .virtual_stages = 2};
  p.config.micro_batch = 1;
  p.config.seq = 8192;
  p.config.global_batch = 512;
  p.config.recompute = recompute_mode::selective;
  p.layout.first_stage_layers = 7;  // 7 + 14 x 8 + 7 = 126 layers (Llama 3's split)
  p.layout.last_stage_layers = 7;
  return p;
}

void step_time_405b_3d(benchmark::State& state) {
  training_plan p = plan_405b();
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    const step_breakdown b = estimate_step(p);
    benchmark::DoNotOptimize(b);
  }
  state.counters["evals_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(step_time_405b_3d);

void step_time_405b_sweep(benchmark::State& state) {
  std::array<training_plan, 16> plans{};
  const int tps[] = {4, 8};
  const int pps[] = {9, 18};  // 126 layers: 9 and 18 stages divide them
  const int mbs[] = {1, 2};
  const int dps[] = {8, 16};
  std::size_t i = 0;
  for (int tp : tps)
    for (int pp : pps)
      for (int mb : mbs)
        for (int dp : dps) {
          training_plan p = plan_405b();
          p.layout.first_stage_layers = 0;
          p.layout.last_stage_layers = 0;
          p.layout = {.dp = dp, .tp = tp, .pp = pp, .zero = 1, .sequence_parallel = true};
          p.config.micro_batch = mb;
          p.config.global_batch = 1024;
          plans[i++] = p;
        }
  std::size_t k = 0;
  for (auto _ : state) {
    const step_breakdown b = estimate_step(plans[k]);
    benchmark::DoNotOptimize(b);
    k = (k + 1) % plans.size();
  }
  state.counters["evals_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(step_time_405b_sweep);

void collective_all_reduce(benchmark::State& state) {
  const collective_group g = make_group(catalog::dgx_h100, 128, 1);
  data_size s = 256.0 * units::MiB;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    const collective_cost c = collective_time(collective_kind::all_reduce, s, g);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(collective_all_reduce);

}  // namespace

BENCHMARK_MAIN();
