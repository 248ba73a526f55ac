// Layout-search throughput on one core: configurations walked per second (every index of the
// space: pruned or timed) and step times computed per second, for the search the issue names:
// Llama 3.1 405B over up to 16,384 GPUs of three types. The space is printed first so that other
// tools (Calculon's llm-optimal-execution, bench/ side-by-side scripts) can mirror it.
//
//   search_405b_3_types   the whole space below in one call of search_training on one thread
//   search_405b_shard     one 1/64 shard of it (what one thread takes at a time in the CLI)
//   search_8b_transformers  a Hugging Face transformers fine-tuning search (data parallelism,
//                         the precision regimes and the chunked loss): the transformers memory
//                         profile prunes it
//   search_dsv3_nvl72/0|1  DeepSeek-V3 on 72 and 144 GB200 NVL72 GPUs: powers-of-two degrees
//                         (0) against the divisors of the GPU counts (1)
#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/search.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>

namespace {

using namespace gpuplan;

const node_spec nodes[] = {catalog::dgx_h100, catalog::hgx_h200, catalog::dgx_b200};
const int gpus[] = {1024, 2048, 4096, 8192, 16384};
const int tp[] = {1, 2, 4, 8};
const int pp[] = {1, 2, 4, 8, 16, 32, 64};
const int cp[] = {1, 2, 4};
const int ep[] = {1};
const int vs[] = {1, 2, 4};
const int mb[] = {1, 2, 4};
const int zero[] = {0, 1, 2, 3};

training_search_space space_405b() {
  training_search_space s;
  s.model = catalog::llama31_405b;
  s.config.framework = framework_kind::megatron;
  s.config.seq = 8192;
  s.config.global_batch = 2048;  // 16M tokens per step (Llama 3 paper, Sec. 3.4.1)
  s.tokens = 15.6e12 * units::token;
  s.cost.require_price = false;  // a GPU the book does not price is priced 0: speed unaffected
  s.nodes = nodes;
  s.gpus = gpus;
  s.tp = tp;
  s.pp = pp;
  s.cp = cp;
  s.ep = ep;
  s.virtual_stages = vs;
  s.micro_batch = mb;
  s.zero = zero;
  return s;  // recompute none/selective/full, sequence parallel off/on: the defaults
}

void print_space() {
  static bool done = false;
  if (done) return;
  done = true;
  const training_search_space s = space_405b();
  std::printf(
      "search space: Llama 3.1 405B, seq 8192, global batch 2048 sequences, 15.6T tokens, bf16, "
      "Megatron, InfiniBand\n"
      "  GPU types  DGX-H100, HGX-H200, DGX-B200\n"
      "  GPUs       1024 2048 4096 8192 16384 (dp = GPUs / (tp pp cp))\n"
      "  tp         1 2 4 8 (inside the node)   pp 1 2 4 8 16 32 64   cp 1 2 4   ep 1\n"
      "  virtual    1 2 4   micro-batch 1 2 4   ZeRO 0 1 2 3   recompute none selective full\n"
      "  sp         off on\n"
      "  = %llu configurations\n",
      static_cast<unsigned long long>(s.size()));
}

/// The whole space in one call per iteration, with its rates and counts as counters.
void run_whole(benchmark::State& state, const training_search_space& s, bool timed_rate) {
  search_counts counts{};
  for (auto _ : state) {
    const training_search_collector r = search_training(s, 10);
    benchmark::DoNotOptimize(r);
    counts = r.counts;
  }
  const auto iters = static_cast<double>(state.iterations());
  state.counters["configs_per_s"] =
      benchmark::Counter(iters * static_cast<double>(counts.visited), benchmark::Counter::kIsRate);
  if (timed_rate)
    state.counters["timed_per_s"] =
        benchmark::Counter(iters * static_cast<double>(counts.timed), benchmark::Counter::kIsRate);
  state.counters["configs"] = static_cast<double>(counts.visited);
  state.counters["over_memory"] = static_cast<double>(counts.over_memory);
  state.counters["timed"] = static_cast<double>(counts.timed);
}

void search_405b_3_types(benchmark::State& state) {
  print_space();
  run_whole(state, space_405b(), true);
}
BENCHMARK(search_405b_3_types)->Unit(benchmark::kMillisecond);

void search_405b_shard(benchmark::State& state) {
  const training_search_space s = space_405b();
  const std::uint64_t n = s.size(), begin = n / 2, end = begin + n / 64;
  std::uint64_t visited = 0;
  for (auto _ : state) {
    training_search_collector r;
    search_training(s, begin, end, r);
    benchmark::DoNotOptimize(r);
    visited = r.counts.visited;
  }
  state.counters["configs_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(visited),
      benchmark::Counter::kIsRate);
}
BENCHMARK(search_405b_shard)->Unit(benchmark::kMillisecond);

/// Llama 3.1 8B fine-tuned with Hugging Face transformers on 1 to 1,024 H100s, H200s or A100s:
/// the transformers space (use_framework), micro-batch 1 to 8.
void search_8b_transformers(benchmark::State& state) {
  static const node_spec hf_nodes[] = {catalog::dgx_h100, catalog::hgx_h200, catalog::dgx_a100};
  static const int hf_gpus[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  static const int hf_mb[] = {1, 2, 4, 8};
  training_search_space s{.model = catalog::llama31_8b,
                          .config = {.seq = 4096, .global_batch = 1024},
                          .tokens = 1e10 * units::token};
  s.use_framework(framework_kind::transformers);  // sets config.framework and its space
  s.nodes = hf_nodes;
  s.gpus = hf_gpus;
  s.micro_batch = hf_mb;
  run_whole(state, s, false);
}
BENCHMARK(search_8b_transformers)->Unit(benchmark::kMillisecond);

/// DeepSeek-V3 on GB200 NVL72 racks, 72 and 144 GPUs, Megatron's default space: arg 0 the
/// powers-of-two degrees (use_framework alone: what the search walked before it took divisors),
/// arg 1 the divisors of the GPU counts (use_divisor_degrees).
void search_dsv3_nvl72(benchmark::State& state) {
  static const node_spec racks[] = {catalog::gb200_nvl72};
  static const int rack_gpus[] = {72, 144};
  training_search_space s{.model = catalog::deepseek_v3,
                          .config = {.seq = 4096, .global_batch = 4608},
                          .tokens = 1e12 * units::token};
  s.cost.require_price = false;
  s.nodes = racks;
  s.gpus = rack_gpus;
  s.use_framework(framework_kind::megatron);
  search_degrees d;
  if (state.range(0) == 1) s.use_divisor_degrees(d);
  run_whole(state, s, true);
}
BENCHMARK(search_dsv3_nvl72)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
