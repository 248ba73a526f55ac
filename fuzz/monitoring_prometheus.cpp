// fuzz/monitoring_prometheus.cpp: a Prometheus range-query result of dcgm-exporter metrics
// (/api/v1/query_range, resultType "matrix"), as `gpuplan utilization FILE.json` reads it;
// io/monitoring.hpp's Prometheus reader, then the analysis. The oracle is in
// monitoring_support.hpp.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "monitoring_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpuplan::fuzz::check_monitoring(text, "fuzz/dcgm.json",
                                  gpuplan::io::detail::read_prometheus_text);
  return 0;
}
