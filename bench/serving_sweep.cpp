// Google Benchmark: the serving model's speed. One full sweep is 64 operating points of
// continuous batching (each: the KV capacity, the steady-state step, the chunked-prefill TTFT
// of the prompt and its M/G/1 queue) for Llama 3.1 70B on a DGX H100, tp 8. Goal: under 1 ms per
// sweep on one core (issue 11). Figures and the command: docs/performance.md.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/serving.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace gpuplan;

serving_plan plan_70b(batching_mode b) {
  return {.model = catalog::llama31_70b,
          .node = catalog::dgx_h100,
          .layout = {.tp = 8},
          .mix = request_mix::fixed(2048, 512),
          .concurrency = 64,
          .batching = b};
}

void sweep_64_continuous(benchmark::State& state) {
  const serving_plan p = plan_70b(batching_mode::continuous);
  for (auto _ : state) {
    serving_curve c = throughput_latency_curve(p, 64);
    benchmark::DoNotOptimize(c);
  }
  state.counters["points"] = 64;
}
BENCHMARK(sweep_64_continuous)->Unit(benchmark::kMicrosecond);

void sweep_64_static(benchmark::State& state) {
  const serving_plan p = plan_70b(batching_mode::static_batch);
  for (auto _ : state) {
    serving_curve c = throughput_latency_curve(p, 64);
    benchmark::DoNotOptimize(c);
  }
  state.counters["points"] = 64;
}
BENCHMARK(sweep_64_static)->Unit(benchmark::kMicrosecond);

void sweep_64_mixtral_ep8(benchmark::State& state) {
  // MoE with expert parallelism: Mixtral 8x7B on an HGX H200, tp 8 with the experts over ep 8,
  // all-to-all dispatch (the expected experts touched per step, the EP collectives).
  serving_plan p{.model = catalog::mixtral_8x7b,
                 .node = catalog::hgx_h200,
                 .layout = {.tp = 8, .ep = 8},
                 .mix = request_mix::fixed(2048, 512),
                 .concurrency = 64};
  p.assumptions.moe_all_to_all = true;
  for (auto _ : state) {
    serving_curve c = throughput_latency_curve(p, 64);
    benchmark::DoNotOptimize(c);
  }
  state.counters["points"] = 64;
}
BENCHMARK(sweep_64_mixtral_ep8)->Unit(benchmark::kMicrosecond);

void one_decode_step(benchmark::State& state) {
  const serving_plan p = plan_70b(batching_mode::continuous);
  for (auto _ : state) {
    duration t = decode_step(p, 64, 2304);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(one_decode_step)->Unit(benchmark::kNanosecond);

void best_under_slo_70b(benchmark::State& state) {
  const serving_plan p = plan_70b(batching_mode::continuous);
  const serving_slo slo{.ttft = 1 * units::s, .tpot = 40 * units::ms};
  for (auto _ : state) {
    slo_result r = best_under_slo(p, slo);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(best_under_slo_70b)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
