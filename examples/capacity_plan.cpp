// The capacity report `gpuplan capacity` prints, from C++ in one library call
// (plan/capacity_report.hpp plan_capacity_report): Llama 3.1 8B served on one H100 at TTFT <= 2 s
// and TPOT <= 50 ms, 40 requests/s at a peak of 1.5x, a p99 wait of at most 1 s; the same plan
// ranked on an H200 and an A100 80GB and on the MIG slices of the H100. The command line
// equivalent:
//
//   gpuplan capacity --rate 40 --peak-factor 1.5 --wait-slo 1 --months 0 --model Llama-3.1-8B
//       --gpu h100 --ttft-slo 2 --tpot-slo 0.05 --compare-gpus h200,a100-80gb --compare-mig
#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/capacity_report.hpp>

#include <cstdio>
#include <string>

using namespace gpuplan;
using namespace gpuplan::literals;

int main() {
  serving_plan plan{.model = catalog::llama31_8b, .node = single_gpu_node(catalog::h100_sxm)};
  capacity_question q{};
  q.request.demand = {.mean = 40.0 * units::request / units::s, .peak_factor = 1.5};
  q.request.slo = {.max_wait = 1.0 * units::s, .percentile = 0.99};
  q.request.months = 0;
  q.serving = serving_replica(plan, {.ttft = 2.0 * units::s, .tpot = 0.05 * units::s});
  q.compare_gpus = {catalog::h200_sxm, catalog::a100_sxm_80gb};
  q.compare_mig = true;

  const capacity_report r = plan_capacity_report(q);

  std::printf("%d replicas of %s on one %s: peak utilisation %.0f%% (%s), p99 wait %.0f ms\n",
              r.plan.replicas, std::string(plan.model.name.view()).c_str(),
              std::string(plan.node.gpu.name.view()).c_str(), r.plan.peak_utilization * 100,
              std::string(band_name(r.plan.peak_band)).c_str(),
              r.plan.at_peak.wait_percentile(0.99).in(units::s) * 1e3);
  std::printf("alternatives for the same demand, ranked:\n");
  for (const option_result& o : r.options)
    std::printf("  %-28s %4d replicas %4lld GPUs  peak %3.0f%%  $%.2f/h\n",
                std::string(o.name.view()).c_str(), o.replicas, o.gpus,
                o.peak_utilization * 100, o.cost.in(units::usd_per_h));
  for (const std::string& n : r.option_notes) std::printf("  not ranked: %s\n", n.c_str());
  return 0;
}
