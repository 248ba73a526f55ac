// fuzz/monitoring_csv.cpp: GPU monitoring CSV, as `gpuplan utilization FILE` reads it: an
// nvidia-smi --query-gpu log (with or without units and header repeats) or the plain CSV
// (timestamp,gpu,utilization,memory_used,power); io/monitoring.hpp's CSV reader, then the
// analysis. The oracle is in monitoring_support.hpp.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "monitoring_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpuplan::fuzz::check_monitoring(text, "fuzz/util.csv", gpuplan::io::detail::read_csv_text);
  return 0;
}
