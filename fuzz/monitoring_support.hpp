// fuzz/monitoring_support.hpp: the oracle the monitoring targets share (monitoring_csv.cpp,
// monitoring_prometheus.cpp): what io/monitoring.hpp must give for any input, and what
// `gpuplan utilization` then computes from it.
//
// Accepted outcomes: an io::error keeping the message promises (fuzz_support.hpp), or samples
// whose times are finite and not negative, whose utilisation lies in [0, 1], whose memory and
// power are finite and not negative; and whose analysis (analyze_usage) gives finite figures
// (mean, peak and p95 in [0, 1], band shares summing to 1, observed time, energy), a JSON report
// with no null (nlohmann writes a NaN as null) and no "nan"/"inf" in the advice.
#pragma once

#include <cmath>
#include <gpuplan/io/monitoring.hpp>
#include <gpuplan/plan/utilization.hpp>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"

namespace gpuplan::fuzz {

inline void check_fraction(double v, std::string_view what) {
  check_finite(v, what);
  if (v > 1.0 + 1e-12) fail("a utilisation is at most 1", what);
}

inline void check_usage(const gpu_usage& u) {
  check_fraction(u.mean, "usage.mean");
  check_fraction(u.peak, "usage.peak");
  check_fraction(u.p95, "usage.p95");
  check_finite(u.peak_to_average, "usage.peak_to_average");
  check_finite(u.observed.value, "usage.observed");
  const double bands = u.bands.sum();
  check_finite(bands, "usage.bands.sum()");
  if (u.observed.value > 0 && std::abs(bands - 1.0) > 1e-9)
    fail("the band shares of an observed GPU sum to 1", std::to_string(bands));
  check_finite(u.memory_mean.value, "usage.memory_mean");
  check_finite(u.memory_peak.value, "usage.memory_peak");
  check_finite(u.power_mean.value, "usage.power_mean");
  check_finite(u.power_peak.value, "usage.power_peak");
  check_finite(u.energy_used.value, "usage.energy_used");
}

inline void has_no_null(const nlohmann::json& j, const std::string& path) {
  if (j.is_null()) fail("the utilization JSON report has no null (a NaN)", path);
  if (j.is_number_float()) check_finite(j.get<double>(), path, false);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) has_no_null(*it, path + "." + it.key());
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i) has_no_null(j[i], path + "[" + std::to_string(i) + "]");
}

/// Reads `text` with `read` and checks the samples and their analysis.
template <class Read>
void check_monitoring(std::string_view text, const std::string& source, Read read) {
  io::monitoring_data d;
  try {
    d = read(std::string(text), source, io::read_options{});
  } catch (const io::error& e) {
    check_message(e.what(), text, source);
    return;
  }
  if (d.samples.empty()) fail("a monitoring export read has samples", source);
  for (const gpu_sample& s : d.samples) {
    if (s.gpu.empty()) fail("every sample names its GPU", "(empty id)");
    check_finite(s.time, "sample.time");
    check_fraction(s.utilization, "sample.utilization");
    if (s.memory_used) check_finite(s.memory_used->value, "sample.memory_used");
    if (s.power_draw) check_finite(s.power_draw->value, "sample.power_draw");
  }
  usage_options o;
  o.monthly_growth = 0.1;  // the advice's growth branch too
  usage_report r;
  try {
    r = analyze_usage(d.samples, o);
  } catch (const invalid_input& e) {
    fail("what the monitoring reader accepts, analyze_usage analyses", e.what());
  }
  if (r.gpus.empty()) fail("an analysis has GPUs", source);
  for (const gpu_usage& u : r.gpus) check_usage(u);
  check_usage(r.fleet);
  check_finite(r.start_time, "report.start_time");
  check_finite(r.end_time, "report.end_time");
  for (const std::string& a : r.advice)
    if (shows_non_finite(a)) fail("advice shows no NaN or infinity", a);
  has_no_null(io::to_json(r), "report");
}

}  // namespace gpuplan::fuzz
