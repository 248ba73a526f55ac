// tests/probe/probe_timing.cpp: how long probe_gpus() takes once the driver is loaded, on the
// fake libraries (no GPU needed). Usage: gpuplan_probe_timing [repetitions]. Prints the load time
// of the first call and min / median / max of the query time over the repetitions.
#include <gpuplan/probe/cuda.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  using namespace gpuplan;
  const int n = argc > 1 ? std::atoi(argv[1]) : 200;
  if (n <= 0) {
    std::fprintf(stderr, "repetitions must be a positive integer\n");
    return 2;
  }
  ::setenv("GPUPLAN_FAKE_GPU", "two", 1);
  const probe::probe_options o = probe::probe_options::in_directory(GPUPLAN_FAKE_DIR);
  std::vector<double> load_us, query_us;
  for (int i = 0; i < n; ++i) {
    const probe::probe_result r = probe::probe_gpus(o);
    if (!r.ok()) {
      std::fprintf(stderr, "probe failed: %s\n", r.message.c_str());
      return 1;
    }
    load_us.push_back(r.load_time.in(units::us));
    query_us.push_back(r.query_time.in(units::us));
  }
  const double first_load = load_us.front();
  std::sort(load_us.begin(), load_us.end());
  std::sort(query_us.begin(), query_us.end());
  const auto med = [](const std::vector<double>& v) { return v[v.size() / 2]; };
  std::printf("probe_gpus on the fake driver (2 devices), %d runs\n", n);
  std::printf("  load (dlopen+dlsym+cuInit+nvmlInit): first %.1f us, median %.1f us\n", first_load,
              med(load_us));
  std::printf("  query (all fields, both devices):    min %.1f us, median %.1f us, max %.1f us\n",
              query_us.front(), med(query_us), query_us.back());
  return 0;
}
