// What `gpuplan search --model llama-3.1-8b --gpu h100,h200 --gpus 8,16,32 --seq 4096
// --global-batch 256 --tokens 100B` prints, got by one library call: every data-parallel layout
// Hugging Face transformers runs (ZeRO 0-3, micro-batch, recomputation, precision regime, chunked
// loss) on 8 to 32 H100s or H200s in their catalog nodes, the Pareto front of reserved time against
// cost, the fastest five, and why the fastest wins.
#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/search_report.hpp>

#include <cstdio>
#include <string>

int main() {
  using namespace gpuplan;
  const node_spec nodes[] = {catalog::dgx_h100, catalog::hgx_h200};
  const int gpus[] = {8, 16, 32};
  training_search_space s;
  s.model = catalog::llama31_8b;
  s.config.seq = 4096;
  s.config.global_batch = 256;  // sequences: layouts are compared at one global batch
  s.tokens = 100e9 * units::token;
  s.nodes = nodes;
  s.gpus = gpus;
  s.use_framework(framework_kind::transformers);  // its dimensions: data parallelism only

  const training_search_report r = report_search(s, search_objective::time, 5);

  const auto text = [](const auto& name) { return std::string(name.view()); };
  std::printf("searched %llu configurations: %llu invalid, %llu over memory, %llu timed\n",
              static_cast<unsigned long long>(r.counts.visited),
              static_cast<unsigned long long>(r.counts.invalid),
              static_cast<unsigned long long>(r.counts.over_memory),
              static_cast<unsigned long long>(r.counts.timed));
  std::printf("Pareto front: %zu configurations, fastest first\n", r.front.size());
  std::printf("best by time:\n");
  for (const search_evaluation& e : r.top)
    std::printf("  %-15s %3d GPUs  ZeRO %d  mb %d  %-6s %s%s: %.2f days, $%.0f, %.1f%% MFU\n",
                text(r.node_of(e).gpu.name).c_str(), e.config.layout.gpus(), e.config.layout.zero,
                e.config.micro_batch, std::string(to_string(e.config.regime)).c_str(),
                std::string(to_string(e.config.recompute)).c_str(),
                e.config.chunked_loss ? " + chunked CE" : "", e.reserved_time().in(units::h) / 24.0,
                e.cost.cost.in(units::usd), 100.0 * e.step.mfu);
  if (r.margin)
    std::printf("#1 wins over #%zu by %.2f%% in time; #%zu is bound by %s\n", r.runner_up + 1,
                100.0 * (r.margin->ratio - 1.0), r.runner_up + 1,
                std::string(to_string(r.margin->runner_up_bottleneck)).c_str());
  return r.front.empty() ? 1 : 0;
}
