// tools/gpuplan/cmd_probe.cpp: `gpuplan probe` (this machine's GPUs) and `--gpu local`.
#include "cli.hpp"

#include <gpuplan/io/json.hpp>
#include <gpuplan/probe/cuda.hpp>
#include <gpuplan/probe/spec.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

namespace gpuplan::cli {

namespace {

/// A probed field as JSON: {"value": v, "source": "measured"}, or null when unavailable.
template <class T, class F>
nlohmann::json field(const probe::probed<T>& p, F to_value) {
  if (!p.known()) return nullptr;
  return {{"value", to_value(p.value)}, {"source", std::string(probe::to_string(p.source))}};
}
template <class T>
nlohmann::json field(const probe::probed<T>& p) {
  return field(p, [](const T& v) { return v; });
}

/// The device's fields as JSON, named as probe::visit_fields names them, with the unit in the key
/// for quantities ("memory_total_bytes", "sm_clock_max_hz").
nlohmann::json device_json(const probe::device_info& d) {
  nlohmann::json j = {{"index", d.index}, {"notes", d.notes}};
  probe::visit_fields(d, [&j](std::string_view name, const auto& p) {
    using T = std::decay_t<decltype(p.value)>;
    const std::string key(name);
    if constexpr (std::is_same_v<T, data_size>)
      j[key + "_bytes"] = field(p, [](data_size v) { return io::bytes_value(v); });
    else if constexpr (std::is_same_v<T, frequency>)
      j[key + "_hz"] = field(p, [](frequency v) { return v.in(units::Hz); });
    else if constexpr (std::is_same_v<T, bandwidth>)
      j[key + "_bytes_per_s"] = field(p, [](bandwidth v) { return v.in(units::Bps); });
    else if constexpr (std::is_same_v<T, power>)
      j[key + "_watts"] = field(p, [](power v) { return v.in(units::W); });
    else
      j[key] = field(p);
  });
  const probe::gpu_spec_with_provenance s = probe::to_gpu_spec(d);
  j["gpu_spec"] = io::to_json(s.spec);
  j["catalog_match"] = s.matched() ? nlohmann::json(std::string(s.catalog_entry->name.view()))
                                   : nlohmann::json(nullptr);
  j["gpu_spec_notes"] = s.notes;
  if (!s.usable()) j["gpu_spec_invalid"] = s.invalid_reason;
  return j;
}

template <class T, class F>
std::string cell(const probe::probed<T>& p, F show_value) {
  return p.known() ? show_value(p.value) : std::string("-");
}

/// The exit status of `gpuplan probe` on a machine with no usable NVIDIA GPU (no driver, the
/// toolkit's stub driver, a driver that fails or reports no device): not 2, which says the
/// command line was wrong, so that a script can tell "no GPU here" from a typo (main.cpp lists
/// the statuses; docs/cli.md).
constexpr int exit_no_gpu = 4;

int run_probe(bool json) {
  const probe::probe_result r = probe::probe_gpus();
  if (!r.ok()) {
    if (json) {
      // The same "devices" key as a machine with GPUs, empty, and why.
      print_json({{"devices", nlohmann::json::array()},
                  {"error", std::string(probe::to_string(r.error))},
                  {"reason", r.message},
                  {"warnings", r.warnings}});
      return exit_no_gpu;
    }
    throw status_error("probe: " + r.message, exit_no_gpu);
  }
  if (json) {
    nlohmann::json out = {
        {"cuda_driver_version",
         field(r.cuda_driver_version, [](int v) { return probe::cuda_version_string(v); })},
        {"driver_version", field(r.driver_version)},
        {"nvml_loaded", r.nvml_loaded},
        {"load_time_s", r.load_time.in(units::s)},
        {"query_time_s", r.query_time.in(units::s)},
        {"warnings", r.warnings},
        {"devices", nlohmann::json::array()}};
    for (const auto& d : r.devices) out["devices"].push_back(device_json(d));
    print_json(out);
    return 0;
  }
  fmt::print("driver {}, CUDA {}; probed in {} after loading ({} to load)\n\n",
             r.driver_version.value_or("unknown"),
             r.cuda_driver_version.known() ? probe::cuda_version_string(r.cuda_driver_version.value)
                                           : "unknown",
             r.query_time, r.load_time);
  table t;
  t.header = {"#",      "name",         "CC",          "SMs",    "memory (CUDA)", "free (NVML)",
              "mem BW", "SM clock max", "power limit", "NVLink", "catalog match"};
  t.numeric = {true, false, false, true, true, true, true, true, true, true, false};
  const auto show_any = [](const auto& v) { return fmt::format("{}", v); };
  for (const auto& d : r.devices) {
    const probe::gpu_spec_with_provenance s = probe::to_gpu_spec(d);
    t.rows.push_back(
        {fmt::format("{}", d.index), d.name.value_or("?"),
         d.compute_capability_major.known() ? fmt::format("{}.{}", d.compute_capability_major.value,
                                                          d.compute_capability_minor.value)
                                            : "-",
         cell(d.sm_count, show_any), cell(d.memory_total, show_any), cell(d.memory_free, show_any),
         cell(d.memory_bandwidth, show_any), cell(d.sm_clock_max, show_any),
         cell(d.power_limit, show_any),
         d.nvlink_links.known()
             ? fmt::format("{}/{}", d.nvlink_links_active.value_or(0), d.nvlink_links.value)
             : "-",
         s.matched() ? std::string(s.catalog_entry->name.view()) : "none (estimated)"});
  }
  fmt::print("{}", t.render());
  for (const auto& w : r.warnings) fmt::print("note: {}\n", w);
  return 0;
}

}  // namespace

gpu_choice probe_local_gpu() {
  const probe::probe_result r = probe::probe_gpus();
  if (!r.ok()) throw usage_error("--gpu local: " + r.message);
  const probe::gpu_spec_with_provenance s = probe::to_gpu_spec(r.devices.front());
  if (!s.usable())
    throw usage_error("--gpu local: the probed GPU cannot be planned on: " + s.invalid_reason);
  return {s.spec, s.matched() ? "probe (catalog match)" : "probe (estimated)"};
}

command add_probe_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* sub = &app;
  sub->add_flag("--json", *json, "Print every probed field with its source as JSON");
  return {sub, [json] { return run_probe(*json); }};
}

}  // namespace gpuplan::cli
