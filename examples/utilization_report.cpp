// The utilisation report `gpuplan utilization` prints, from C++ in one library call
// (plan/utilization.hpp analyze_usage) over samples read by io/monitoring.hpp: time in each
// utilisation band, mean, p95 and peak per GPU and for the fleet, idle GPUs, and advice.
//
//   gpuplan_example_utilization_report FILE [MONTHLY_GROWTH]
//
// FILE is an nvidia-smi CSV log, a DCGM range query (Prometheus JSON) or a plain CSV; the
// command line equivalent is `gpuplan utilization FILE --growth MONTHLY_GROWTH`.
#include <gpuplan/io/monitoring.hpp>
#include <gpuplan/plan/utilization.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>

using namespace gpuplan;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [MONTHLY_GROWTH]\n", argv[0]);
    return 2;
  }
  try {
    const usage_report r = analyze_usage(io::read_monitoring_file(argv[1]).samples,
                                         {.monthly_growth = argc > 2 ? std::atof(argv[2]) : 0.0});
    std::printf("%-12s %6s %6s %6s %8s\n", "GPU", "mean", "p95", "peak", "70-90%");
    for (const gpu_usage& g : r.gpus)
      std::printf("%-12s %5.0f%% %5.0f%% %5.0f%% %7.0f%%\n", g.id.c_str(), g.mean * 100,
                  g.p95 * 100, g.peak * 100, g.bands.b70_90 * 100);
    std::printf("%-12s %5.0f%% %5.0f%% %5.0f%% %7.0f%%\n", "fleet", r.fleet.mean * 100,
                r.fleet.p95 * 100, r.fleet.peak * 100, r.fleet.bands.b70_90 * 100);
    for (const std::string& a : r.advice) std::printf("- %s\n", a.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
