// What `gpuplan search serve --model llama-3.1-70b --gpu h100,h200 --input-len 1024
// --output-len 256 --ttft-slo 2 --tpot-slo 0.05` prints, got by one library call: every replica
// layout (TP 1-8) and weight precision (bf16, fp8) of Llama 3.1 70B on H100 and H200 nodes, each
// at the largest concurrency that meets the SLO, ranked by cost per million tokens. It includes
// only the serving search's report, not the training search: the serving model and the memory
// verdict it needs, nothing of the step-time model.
#include <gpuplan/catalog/dgx_h100.hpp>
#include <gpuplan/catalog/models.hpp>
#include <gpuplan/catalog/nodes.hpp>
#include <gpuplan/plan/serving_search_report.hpp>

#include <cstdio>
#include <string>

int main() {
  using namespace gpuplan;
  const node_spec nodes[] = {catalog::dgx_h100, catalog::hgx_h200};
  serving_search_space s;
  s.base.model = catalog::llama31_70b;
  s.base.mix = request_mix::fixed(1024, 256);
  s.slo = {.ttft = 2.0 * units::s, .tpot = 0.05 * units::s};
  s.nodes = nodes;

  const serving_search_summary r = report_serving_search(s, 5);

  std::printf("searched %llu configurations: %llu invalid, %llu over memory, %llu missed the SLO\n",
              static_cast<unsigned long long>(r.found.visited),
              static_cast<unsigned long long>(r.found.invalid),
              static_cast<unsigned long long>(r.found.over_memory),
              static_cast<unsigned long long>(r.found.missed_slo));
  std::printf("best by cost per million tokens:\n");
  for (const serving_search_result& x : r.found.view())
    std::printf("  %-15s TP %d  %-4s  %4.0f sequences  TTFT %4.0f ms  TPOT %4.1f ms: %6.0f tok/s "
                "per GPU, $%.3f per million tokens\n",
                std::string(r.node_of(x).gpu.name.view()).c_str(), x.layout.tp,
                std::string(to_string(x.weights)).c_str(), x.point.concurrency,
                x.point.ttft.in(units::ms), x.point.tpot.in(units::ms), x.tokens_per_s_per_gpu,
                x.cost_per_million_tokens);
  return r.found.view().empty() ? 1 : 0;
}
