// Google Benchmark: how fast `gpuplan utilization` reads and analyses a monitoring export. A
// month of one 8-GPU node sampled every 5 s (`nvidia-smi -l 5`) is 4.1 million rows, near
// monitoring_limits::max_rows (5 million): the CLI draws a progress bar while a read takes over a
// second. Figures and the command: docs/performance.md, "Monitoring exports".
#include <gpuplan/io/monitoring.hpp>
#include <gpuplan/plan/utilization.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

namespace {

/// A plain CSV of `rows` readings: 8 GPUs every 5 s, utilisation, memory and power varying
/// with a fixed linear congruential sequence (the same text every run).
std::string export_of(std::int64_t rows) {
  std::string text = "timestamp,gpu,utilization,memory_used,power\n";
  std::uint32_t x = 12345;
  for (std::int64_t i = 0; i < rows; ++i) {
    x = x * 1664525u + 1013904223u;
    text += std::to_string(1795442400 + 5 * (i / 8)) + "," + std::to_string(i % 8) + "," +
            std::to_string(x % 101) + "," + std::to_string(x % 80000) + "," +
            std::to_string(60 + x % 640) + "\n";
  }
  return text;
}

void read_csv(benchmark::State& state) {
  const std::string text = export_of(state.range(0));
  for (auto _ : state) {
    gpuplan::io::monitoring_data d = gpuplan::io::read_monitoring(text, "bench.csv");
    benchmark::DoNotOptimize(d);
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                benchmark::Counter::kIsIterationInvariantRate);
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(text.size()) / 1e6,
                                              benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(read_csv)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void analyze(benchmark::State& state) {
  const gpuplan::io::monitoring_data d =
      gpuplan::io::read_monitoring(export_of(state.range(0)), "bench.csv");
  for (auto _ : state) {
    gpuplan::usage_report r = gpuplan::analyze_usage(d.samples);
    benchmark::DoNotOptimize(r);
  }
  state.counters["rows/s"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(analyze)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
