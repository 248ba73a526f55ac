// gpuplan/probe/result.hpp: what the probe found, field by field, with where each value came from.
//
// Plain data, no driver code: a program can build, copy and print these without loading anything.
// Every field is a probed<T>: a value and its provenance. A field the driver did not answer is
// `unavailable` with a value of zero, never a plausible guess.
#pragma once

#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/units.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::probe {

/// Where a value came from.
enum class provenance : unsigned char {
  unavailable,  ///< not known: the driver did not answer and nothing else supplies it
  measured,     ///< read from the driver (libcuda) or NVML on this machine
  derived,      ///< computed from measured fields by a documented formula (peak DRAM bandwidth)
  catalog,      ///< taken from the gpuplan catalog entry the device was matched to
  estimated,    ///< estimated from architecture, SM count and clocks (no catalog entry matched)
};

inline constexpr enumerator<provenance> provenance_names[] = {
    {provenance::unavailable, "unavailable"},
    {provenance::measured, "measured"},
    {provenance::derived, "derived"},
    {provenance::catalog, "catalog"},
    {provenance::estimated, "estimated"}};
constexpr const auto& enumerators(provenance) { return provenance_names; }
// The names are read by gpuplan's to_string and parse_enum (specs/enum_names.hpp), found here too.
using gpuplan::parse_enum;
using gpuplan::to_string;

/// A value and where it came from. `known()` is false for unavailable fields, whose value is T{}.
template <class T>
struct probed {
  T value{};
  provenance source = provenance::unavailable;

  [[nodiscard]] constexpr bool known() const { return source != provenance::unavailable; }
  /// The value if known, else `fallback`.
  [[nodiscard]] constexpr T value_or(T fallback) const { return known() ? value : fallback; }

  static constexpr probed measured(T v) { return {v, provenance::measured}; }
  static constexpr probed with(T v, provenance p) { return {v, p}; }
};

/// One GPU as the driver and NVML describe it. Clocks are frequencies, memory sizes data_size,
/// power in watts; percentages and degrees Celsius are plain ints (0-100, and degrees).
struct device_info {
  int index = 0;                                ///< CUDA device ordinal (cuDeviceGet)
  probed<std::string> name;                     ///< "NVIDIA H100 80GB HBM3"
  probed<std::string> uuid;                     ///< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  probed<std::string> pci_bus_id;               ///< "00000000:18:00.0" (nvidia-smi's form)
  probed<int> compute_capability_major;         ///< 9 for Hopper
  probed<int> compute_capability_minor;         ///< 0
  probed<int> sm_count;                         ///< streaming multiprocessors
  /// Memory the CUDA driver reports (cuDeviceTotalMem_v2), the figure PyTorch's total_memory shows:
  /// what a process can plan on. Slightly below the NVML total (firmware reservations).
  probed<data_size> memory_total;
  probed<data_size> memory_total_nvml;          ///< NVML total (nvidia-smi "FB Memory Usage Total")
  probed<data_size> memory_free;                ///< NVML free, now
  probed<data_size> memory_used;                ///< NVML used, now
  probed<int> memory_bus_width_bits;            ///< global memory bus width
  probed<frequency> memory_clock_max;           ///< peak memory clock (attribute 36)
  /// Peak DRAM bandwidth = 2 x memory clock x bus width / 8 (double data rate: the driver's memory
  /// clock is the command clock and data moves on both edges). Derived.
  probed<bandwidth> memory_bandwidth;
  probed<frequency> sm_clock_current;           ///< NVML SM clock now
  probed<frequency> sm_clock_max;               ///< NVML max SM clock, else CUDA attribute 13
  probed<data_size> l2_cache;
  probed<int> nvlink_links;                     ///< NVLink links the device reports (active or not)
  probed<int> nvlink_links_active;              ///< of those, links that are up
  probed<power> power_limit;                    ///< enforced board power limit, now
  probed<power> power_draw;                     ///< current draw
  probed<int> temperature_c;                    ///< GPU die, degrees Celsius
  probed<int> utilization_gpu_pct;              ///< % of the last sample period a kernel ran
  probed<int> utilization_memory_pct;           ///< % of the period device memory was read/written
  probed<bool> mig_enabled;                     ///< Multi-Instance GPU mode (current)
  probed<int> pcie_generation_max;              ///< PCIe link generation, maximum for device+system
  probed<int> pcie_width_max;                   ///< PCIe lanes, maximum
  probed<bool> integrated;                      ///< shares host memory (Jetson, GB10)
  probed<bool> ecc_enabled;
  /// Fields the device could not answer, and why ("power_draw: NVML_ERROR_NOT_SUPPORTED (3)").
  std::vector<std::string> notes;
};

/// Calls f(name, field) for every probed field of d, in a fixed order (the order of the
/// struct), so that printers and serialisers (the CLI's table and --json) share one list of names.
/// `field` is a probed<T> with T one of std::string, int, bool, data_size, frequency, bandwidth,
/// power.
template <class F>
void visit_fields(const device_info& d, F&& f) {
  f("name", d.name);
  f("uuid", d.uuid);
  f("pci_bus_id", d.pci_bus_id);
  f("compute_capability_major", d.compute_capability_major);
  f("compute_capability_minor", d.compute_capability_minor);
  f("sm_count", d.sm_count);
  f("memory_total", d.memory_total);
  f("memory_total_nvml", d.memory_total_nvml);
  f("memory_free", d.memory_free);
  f("memory_used", d.memory_used);
  f("memory_bus_width_bits", d.memory_bus_width_bits);
  f("memory_clock_max", d.memory_clock_max);
  f("memory_bandwidth", d.memory_bandwidth);
  f("sm_clock_current", d.sm_clock_current);
  f("sm_clock_max", d.sm_clock_max);
  f("l2_cache", d.l2_cache);
  f("nvlink_links", d.nvlink_links);
  f("nvlink_links_active", d.nvlink_links_active);
  f("power_limit", d.power_limit);
  f("power_draw", d.power_draw);
  f("temperature_c", d.temperature_c);
  f("utilization_gpu_pct", d.utilization_gpu_pct);
  f("utilization_memory_pct", d.utilization_memory_pct);
  f("mig_enabled", d.mig_enabled);
  f("pcie_generation_max", d.pcie_generation_max);
  f("pcie_width_max", d.pcie_width_max);
  f("integrated", d.integrated);
  f("ecc_enabled", d.ecc_enabled);
}

/// Why a probe failed. `none` means it found at least one device.
enum class probe_error : unsigned char {
  none,
  driver_not_found,   ///< libcuda.so.1 could not be loaded (no NVIDIA driver)
  driver_incomplete,  ///< libcuda.so.1 loaded but lacks an entry point the probe needs
  stub_library,       ///< the toolkit's stub libcuda was loaded instead of a driver
  init_failed,        ///< cuInit returned an error
  query_failed,       ///< a driver call needed to enumerate devices returned an error
  no_devices,         ///< the driver works and reports 0 CUDA devices
};

inline constexpr enumerator<probe_error> probe_error_names[] = {
    {probe_error::none, "none"},
    {probe_error::driver_not_found, "driver_not_found"},
    {probe_error::driver_incomplete, "driver_incomplete"},
    {probe_error::stub_library, "stub_library"},
    {probe_error::init_failed, "init_failed"},
    {probe_error::query_failed, "query_failed"},
    {probe_error::no_devices, "no_devices"}};
constexpr const auto& enumerators(probe_error) { return probe_error_names; }

/// Everything one probe_gpus() call found. Check ok() first: on failure `error` says why in one
/// line and `devices` is empty.
struct probe_result {
  probe_error error = probe_error::none;
  int driver_code = 0;          ///< the CUresult behind init_failed / query_failed / stub_library
  std::string message;          ///< one line: "cuInit failed: CUDA_ERROR_NO_DEVICE (100)"

  probed<int> cuda_driver_version;    ///< cuDriverGetVersion: 12040 means CUDA 12.4
  probed<std::string> driver_version; ///< NVML: "550.54.15"
  bool nvml_loaded = false;           ///< NVML loaded and initialised
  std::string cuda_library;           ///< the path or name libcuda was loaded from
  std::string nvml_library;           ///< the path or name NVML was loaded from ("" if not)

  std::vector<device_info> devices;
  /// Things the caller should know that are not errors: "NVML not available; memory and power
  /// fields unavailable (libnvidia-ml.so.1: cannot open shared object file)".
  std::vector<std::string> warnings;

  duration load_time{};   ///< dlopen + dlsym + cuInit + nvmlInit (first call pays driver start-up)
  duration query_time{};  ///< reading every field of every device, after loading

  [[nodiscard]] bool ok() const { return error == probe_error::none; }
};

/// "12.4" for 12040 (cuDriverGetVersion's encoding: 1000 x major + 10 x minor).
inline std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace gpuplan::probe
