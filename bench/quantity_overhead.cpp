// Zero overhead: gpuplan quantity arithmetic against the same arithmetic on raw doubles.
//
// Two pairs of benchmarks on the same data (1024 layers of bytes and FLOPs):
//   *_inline    the kernel inlined into the timing loop (what user code gets)
//   *_call      the out-of-line kernel from kernels.cpp (an opaque call, same code both sides)
// and a scalar pair that chains dependent quantity operations (latency, not throughput).
// benchmark::DoNotOptimize on the inputs' and outputs' addresses after each pass, with
// ClobberMemory, keeps either side from folding away or hoisting work out of the loop.
// bench/run_overhead.sh runs these with repetitions and prints the quantity/double ratios.
#include "kernels.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <random>
#include <vector>

namespace {
using namespace gpuplan;
using namespace gpuplan::literals;
using namespace gpuplan_bench;

constexpr std::size_t layers = 1024;

struct inputs {
  std::vector<double> bytes, flops;
  std::vector<data_size> qbytes;
  std::vector<compute_amount> qflops;
  inputs() {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> b(1e6, 1e9), f(1e9, 1e13);
    for (std::size_t i = 0; i < layers; ++i) {
      bytes.push_back(b(rng));
      flops.push_back(f(rng));
      qbytes.push_back(data_size::from_base(bytes.back()));
      qflops.push_back(compute_amount::from_base(flops.back()));
    }
  }
};
const inputs& data() {
  static const inputs in;
  return in;
}

// Run-time values, so the compiler cannot fold the divisors into constants on one side only.
double hbm_value = 3.35e12, peak_value = 989e12, board_value = 700.0, price_value = 0.085 / 3.6e6;

void BM_roofline_double_inline(benchmark::State& state) {
  const inputs& in = data();
  std::vector<double> t(layers), c(layers);
  for (auto _ : state) {
    roofline_double_inline(in.bytes.data(), in.flops.data(), layers, hbm_value, peak_value,
                           board_value, price_value, t.data(), c.data());
    benchmark::DoNotOptimize(t.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(layers));
}
void BM_roofline_quantity_inline(benchmark::State& state) {
  const inputs& in = data();
  std::vector<duration> t(layers);
  std::vector<money> c(layers);
  const bandwidth hbm = bandwidth::from_base(hbm_value);
  const compute_rate peak = compute_rate::from_base(peak_value);
  const power board = power::from_base(board_value);
  const energy_price price = energy_price::from_base(price_value);
  for (auto _ : state) {
    roofline_quantity_inline(in.qbytes.data(), in.qflops.data(), layers, hbm, peak, board, price,
                             t.data(), c.data());
    benchmark::DoNotOptimize(t.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(layers));
}
void BM_roofline_double_call(benchmark::State& state) {
  const inputs& in = data();
  std::vector<double> t(layers), c(layers);
  for (auto _ : state) {
    roofline_double(in.bytes.data(), in.flops.data(), layers, hbm_value, peak_value, board_value,
                    price_value, t.data(), c.data());
    benchmark::DoNotOptimize(t.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(layers));
}
void BM_roofline_quantity_call(benchmark::State& state) {
  const inputs& in = data();
  std::vector<duration> t(layers);
  std::vector<money> c(layers);
  const bandwidth hbm = bandwidth::from_base(hbm_value);
  const compute_rate peak = compute_rate::from_base(peak_value);
  const power board = power::from_base(board_value);
  const energy_price price = energy_price::from_base(price_value);
  for (auto _ : state) {
    roofline_quantity(in.qbytes.data(), in.qflops.data(), layers, hbm, peak, board, price,
                      t.data(), c.data());
    benchmark::DoNotOptimize(t.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(layers));
}

// A chain of dependent operations on scalars: each iteration's result feeds the next.
void BM_chain_double(benchmark::State& state) {
  double bytes = 140e9, hbm = hbm_value, watts = board_value, price = price_value;
  for (auto _ : state) {
    benchmark::DoNotOptimize(bytes);
    const double t = bytes / hbm + 1e-6;
    const double cost = watts * t * price;
    bytes = bytes + cost * 1e-3;
    benchmark::DoNotOptimize(bytes);
  }
}
void BM_chain_quantity(benchmark::State& state) {
  data_size bytes = 140_GB;
  const bandwidth hbm = bandwidth::from_base(hbm_value);
  const power watts = power::from_base(board_value);
  const energy_price price = energy_price::from_base(price_value);
  const data_size per_dollar = 1e-3_B / 1_usd * 1_usd;  // 1e-3 bytes, as the raw side
  for (auto _ : state) {
    benchmark::DoNotOptimize(bytes.value);
    const duration t = bytes / hbm + 1_us;
    const money cost = watts * t * price;
    bytes = bytes + cost.in(units::usd) * per_dollar;
    benchmark::DoNotOptimize(bytes.value);
  }
}

BENCHMARK(BM_roofline_double_inline);
BENCHMARK(BM_roofline_quantity_inline);
BENCHMARK(BM_roofline_double_call);
BENCHMARK(BM_roofline_quantity_call);
BENCHMARK(BM_chain_double);
BENCHMARK(BM_chain_quantity);
}  // namespace

BENCHMARK_MAIN();
