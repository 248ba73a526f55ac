// gpuplan/probe/cuda.hpp: read the GPUs of this machine from the NVIDIA driver and NVML.
//
// Not part of the umbrella header; include it by name and link gpuplan::probe (which links the
// platform's dynamic loader). Nothing here needs the CUDA toolkit or NVML headers: libcuda.so.1
// and libnvidia-ml.so.1 are loaded with dlopen when probe_gpus() runs, and the few entry points
// used are declared in gpuplan/probe/abi.hpp.
//
//   #include <gpuplan/probe/cuda.hpp>
//   const auto r = gpuplan::probe::probe_gpus();
//   if (!r.ok()) { std::puts(r.message.c_str()); return 4; }   // "0 CUDA devices", ...
//   for (const auto& d : r.devices) {
//     const auto s = gpuplan::probe::to_gpu_spec(d);            // a gpu_spec the models accept
//   }
//
// No exception escapes for "no driver", "stub driver", "no device" or "NVML missing": those are
// error values (probe_result::error and ::message) or warnings. Only std::bad_alloc can escape.
#pragma once

#include <gpuplan/probe/abi.hpp>
#include <gpuplan/probe/result.hpp>
#include <gpuplan/probe/spec.hpp>

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace gpuplan::probe {

/// Where to find the driver libraries, and what to read.
struct probe_options {
  /// libcuda: a bare soname is searched on the loader's path (LD_LIBRARY_PATH, ld.so.cache), a
  /// name with a '/' is opened as that file. The default is what every CUDA program loads.
  std::string cuda_library = "libcuda.so.1";
  /// NVML, likewise. Free memory, power, temperature, utilisation, NVLink and MIG come from it.
  std::string nvml_library = "libnvidia-ml.so.1";
  /// Read NVML at all. Off: only the CUDA driver's static attributes are read.
  bool use_nvml = true;
  /// Leave libcuda loaded when the probe returns. The driver keeps process-wide state from
  /// cuInit on and registers exit handlers, so unloading it after cuInit is unsafe; every CUDA
  /// runtime (cudart, PyTorch) keeps it loaded too. NVML is always shut down and unloaded.
  bool keep_driver_loaded = true;

  /// The defaults, overridden by the environment variables GPUPLAN_CUDA_LIBRARY and
  /// GPUPLAN_NVML_LIBRARY where set and non-empty (a driver outside the loader path, or the test
  /// suite's fake libraries under a command-line tool). Nothing reads the environment unless a
  /// program calls this.
  static probe_options from_environment() {
    probe_options o;
    if (const char* c = std::getenv("GPUPLAN_CUDA_LIBRARY"); c != nullptr && *c != '\0')
      o.cuda_library = c;
    if (const char* n = std::getenv("GPUPLAN_NVML_LIBRARY"); n != nullptr && *n != '\0')
      o.nvml_library = n;
    return o;
  }

  /// Both libraries from one directory (a driver installed outside the loader path, or the test
  /// suite's fakes).
  static probe_options in_directory(std::string_view dir) {
    probe_options o;
    std::string d(dir);
    if (!d.empty() && d.back() != '/') d += '/';
    o.cuda_library = d + "libcuda.so.1";
    o.nvml_library = d + "libnvidia-ml.so.1";
    return o;
  }
};

namespace detail {

/// A dlopen()ed library, closed on destruction unless released.
class shared_library {
 public:
  shared_library() = default;
  shared_library(const shared_library&) = delete;
  shared_library& operator=(const shared_library&) = delete;
  shared_library(shared_library&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  shared_library& operator=(shared_library&& o) noexcept {
    if (this != &o) {
      close();
      handle_ = std::exchange(o.handle_, nullptr);
    }
    return *this;
  }
  ~shared_library() { close(); }

  /// Opens `name`; on failure returns an empty library and sets `why` to the loader's reason.
  static shared_library open(const std::string& name, std::string& why) {
    shared_library lib;
    ::dlerror();  // clear a stale error
    lib.handle_ = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib.handle_ == nullptr) {
      const char* e = ::dlerror();
      why = e != nullptr ? e : "dlopen failed";
    }
    return lib;
  }

  [[nodiscard]] bool loaded() const { return handle_ != nullptr; }

  /// The entry point `name` as a function pointer of type F, or nullptr if the library lacks it.
  template <class F>
  [[nodiscard]] F symbol(const char* name) const {
    if (handle_ == nullptr) return nullptr;
    void* p = ::dlsym(handle_, name);
    if (p == nullptr) return nullptr;
    F f = nullptr;
    static_assert(sizeof(F) == sizeof(void*), "function and data pointers have one size (POSIX)");
    std::memcpy(&f, &p, sizeof f);  // POSIX guarantees a dlsym result converts to a function
    return f;
  }

  /// Keeps the library loaded for the rest of the process.
  void release() { handle_ = nullptr; }

 private:
  void close() {
    if (handle_ != nullptr) ::dlclose(handle_);
    handle_ = nullptr;
  }
  void* handle_ = nullptr;
};

inline std::string hex(unsigned long long v, int digits) {
  static constexpr char d[] = "0123456789abcdef";
  std::string s(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = d[v & 0xFu];
  return s;
}

inline std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

/// "GPU-" + 8-4-4-4-12 lower-case hex digits: nvidia-smi's and NVML's form of the UUID.
inline std::string format_uuid(const abi::cu_uuid& u) {
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += hex(static_cast<unsigned char>(u.bytes[i]), 2);
  }
  return s;
}

/// "00000000:18:00.0": nvidia-smi's and NVML's form of the PCI address (function 0).
inline std::string format_pci_bus_id(int domain, int bus, int device) {
  return upper(hex(static_cast<unsigned>(domain), 8) + ":" + hex(static_cast<unsigned>(bus), 2) +
               ":" + hex(static_cast<unsigned>(device), 2) + ".0");
}

inline std::string code_text(std::string_view name, int code) {
  std::string s = name.empty() ? std::string("error") : std::string(name);
  return s + " (" + std::to_string(code) + ")";
}

/// The copied text of a fixed-size, possibly unterminated buffer.
inline std::string from_buffer(const char* b, std::size_t n) {
  std::size_t len = 0;
  while (len < n && b[len] != '\0') ++len;
  return std::string(b, len);
}

inline duration seconds_since(std::chrono::steady_clock::time_point t0) {
  const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
  return dt.count() * units::s;
}

/// The CUDA driver entry points the probe uses: X(member of cuda_api, type abi::TYPE_t, symbol,
/// required). cuDeviceGetUuid_v2 falls back to the original cuDeviceGetUuid (load()).
#define GPUPLAN_DETAIL_CUDA_API(X)                                           \
  X(init, cuInit, cuInit, true)                                              \
  X(driver_get_version, cuDriverGetVersion, cuDriverGetVersion, true)        \
  X(device_get_count, cuDeviceGetCount, cuDeviceGetCount, true)              \
  X(device_get, cuDeviceGet, cuDeviceGet, true)                              \
  X(device_get_name, cuDeviceGetName, cuDeviceGetName, true)                 \
  X(device_get_uuid, cuDeviceGetUuid, cuDeviceGetUuid_v2, false)             \
  X(device_total_mem, cuDeviceTotalMem_v2, cuDeviceTotalMem_v2, true)        \
  X(device_get_attribute, cuDeviceGetAttribute, cuDeviceGetAttribute, true)  \
  X(get_error_name, cuGetErrorName, cuGetErrorName, false)

/// The NVML entry points: X(member of nvml_api, symbol, whose type is abi::SYMBOL_t). All optional.
#define GPUPLAN_DETAIL_NVML_API(X)                                           \
  X(init, nvmlInit_v2)                                                       \
  X(shutdown, nvmlShutdown)                                                  \
  X(error_string, nvmlErrorString)                                           \
  X(system_get_driver_version, nvmlSystemGetDriverVersion)                   \
  X(system_get_cuda_driver_version, nvmlSystemGetCudaDriverVersion)          \
  X(device_get_count, nvmlDeviceGetCount_v2)                                 \
  X(device_get_handle_by_index, nvmlDeviceGetHandleByIndex_v2)               \
  X(device_get_handle_by_pci_bus_id, nvmlDeviceGetHandleByPciBusId_v2)       \
  X(device_get_name, nvmlDeviceGetName)                                      \
  X(device_get_uuid, nvmlDeviceGetUUID)                                      \
  X(device_get_pci_info, nvmlDeviceGetPciInfo_v3)                            \
  X(device_get_memory_info, nvmlDeviceGetMemoryInfo)                         \
  X(device_get_clock_info, nvmlDeviceGetClockInfo)                           \
  X(device_get_max_clock_info, nvmlDeviceGetMaxClockInfo)                    \
  X(device_get_nvlink_state, nvmlDeviceGetNvLinkState)                       \
  X(device_get_power_management_limit, nvmlDeviceGetPowerManagementLimit)    \
  X(device_get_power_usage, nvmlDeviceGetPowerUsage)                         \
  X(device_get_temperature, nvmlDeviceGetTemperature)                        \
  X(device_get_utilization_rates, nvmlDeviceGetUtilizationRates)             \
  X(device_get_mig_mode, nvmlDeviceGetMigMode)                               \
  X(device_get_max_pcie_link_generation, nvmlDeviceGetMaxPcieLinkGeneration) \
  X(device_get_max_pcie_link_width, nvmlDeviceGetMaxPcieLinkWidth)

/// The CUDA driver entry points the probe uses.
struct cuda_api {
#define GPUPLAN_DETAIL_MEMBER(member, type, name, required) abi::type##_t member = nullptr;
  GPUPLAN_DETAIL_CUDA_API(GPUPLAN_DETAIL_MEMBER)
#undef GPUPLAN_DETAIL_MEMBER

  /// "CUDA_ERROR_NO_DEVICE (100)"
  [[nodiscard]] std::string error_text(abi::cu_result r) const {
    std::string_view n = abi::cu_error_name(r);
    const char* s = nullptr;
    if (n.empty() && get_error_name != nullptr && get_error_name(r, &s) == abi::cuda_success &&
        s != nullptr)
      n = s;
    return code_text(n, r);
  }
};

/// The NVML entry points; any may be missing from an old or partial library.
struct nvml_api {
#define GPUPLAN_DETAIL_MEMBER(member, name) abi::name##_t member = nullptr;
  GPUPLAN_DETAIL_NVML_API(GPUPLAN_DETAIL_MEMBER)
#undef GPUPLAN_DETAIL_MEMBER

  /// "NVML_ERROR_NOT_SUPPORTED (3)"
  [[nodiscard]] std::string error_text(abi::nvml_return r) const {
    std::string_view n = abi::nvml_error_name(r);
    if (n.empty() && error_string != nullptr) {
      const char* s = error_string(r);
      if (s != nullptr) n = s;
    }
    return code_text(n, r);
  }
};

inline void load(const shared_library& lib, cuda_api& a) {
#define GPUPLAN_DETAIL_LOAD(member, type, name, required) a.member = lib.symbol<abi::type##_t>(#name);
  GPUPLAN_DETAIL_CUDA_API(GPUPLAN_DETAIL_LOAD)
#undef GPUPLAN_DETAIL_LOAD
  if (a.device_get_uuid == nullptr)
    a.device_get_uuid = lib.symbol<abi::cuDeviceGetUuid_t>("cuDeviceGetUuid");
}

/// The first required CUDA entry point the library lacks, or nullptr if it has them all.
inline const char* missing_required(const cuda_api& a) {
#define GPUPLAN_DETAIL_REQUIRED(member, type, name, required) \
  if (required && a.member == nullptr) return #name;
  GPUPLAN_DETAIL_CUDA_API(GPUPLAN_DETAIL_REQUIRED)
#undef GPUPLAN_DETAIL_REQUIRED
  return nullptr;
}

inline void load(const shared_library& lib, nvml_api& a) {
#define GPUPLAN_DETAIL_LOAD(member, name) a.member = lib.symbol<abi::name##_t>(#name);
  GPUPLAN_DETAIL_NVML_API(GPUPLAN_DETAIL_LOAD)
#undef GPUPLAN_DETAIL_LOAD
}

/// Reads one CUDA attribute into `out`; on failure leaves it unavailable and notes why.
inline void read_attribute(const cuda_api& cu, abi::cu_device dev, int attribute,
                           std::string_view field, probed<int>& out, device_info& d) {
  int v = 0;
  const abi::cu_result r = cu.device_get_attribute(&v, attribute, dev);
  if (r == abi::cuda_success)
    out = probed<int>::measured(v);
  else
    d.notes.push_back(std::string(field) + ": cuDeviceGetAttribute(" + std::to_string(attribute) +
                      ") returned " + cu.error_text(r));
}

/// Calls an NVML query if the library has it, noting a missing entry point or an error.
template <class F, class... Args>
bool nvml_call(const nvml_api& nv, F fn, const char* fn_name, std::string_view field,
               device_info& d, Args... args) {
  if (fn == nullptr) {
    d.notes.push_back(std::string(field) + ": " + fn_name + " not in NVML");
    return false;
  }
  const abi::nvml_return r = fn(args...);
  if (r != abi::nvml_success) {
    d.notes.push_back(std::string(field) + ": " + fn_name + " returned " + nv.error_text(r));
    return false;
  }
  return true;
}

/// The NVML handle of the device at `pci_bus_id` (else the one with the same UUID), or nullptr.
/// CUDA and NVML number devices differently (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER), so the
/// index is never used to pair them.
inline abi::nvml_device nvml_handle(const nvml_api& nv, const device_info& d) {
  abi::nvml_device h = nullptr;
  if (d.pci_bus_id.known() && nv.device_get_handle_by_pci_bus_id != nullptr &&
      nv.device_get_handle_by_pci_bus_id(d.pci_bus_id.value.c_str(), &h) == abi::nvml_success)
    return h;
  if (!d.uuid.known() || nv.device_get_count == nullptr ||
      nv.device_get_handle_by_index == nullptr || nv.device_get_uuid == nullptr)
    return nullptr;
  unsigned n = 0;
  if (nv.device_get_count(&n) != abi::nvml_success) return nullptr;
  for (unsigned i = 0; i < n; ++i) {
    char buf[abi::nvml_device_uuid_v2_buffer_size] = {};
    if (nv.device_get_handle_by_index(i, &h) == abi::nvml_success &&
        nv.device_get_uuid(h, buf, sizeof buf) == abi::nvml_success &&
        from_buffer(buf, sizeof buf) == d.uuid.value)
      return h;
  }
  return nullptr;
}

/// NVML's fields of one device into `d`. (Over 100 lines, on purpose: a flat list of independent
/// queries, one per field, each its own call and unit.)
inline void read_nvml(const nvml_api& nv, abi::nvml_device h, device_info& d) {
  if (!d.name.known()) {
    char buf[abi::nvml_device_name_v2_buffer_size] = {};
    if (nvml_call(nv, nv.device_get_name, "nvmlDeviceGetName", "name", d, h, buf,
                  static_cast<unsigned>(sizeof buf)))
      d.name = probed<std::string>::measured(from_buffer(buf, sizeof buf));
  }
  if (!d.uuid.known()) {
    char buf[abi::nvml_device_uuid_v2_buffer_size] = {};
    if (nvml_call(nv, nv.device_get_uuid, "nvmlDeviceGetUUID", "uuid", d, h, buf,
                  static_cast<unsigned>(sizeof buf)))
      d.uuid = probed<std::string>::measured(from_buffer(buf, sizeof buf));
  }

  abi::nvml_memory mem{};
  if (nvml_call(nv, nv.device_get_memory_info, "nvmlDeviceGetMemoryInfo", "memory_free", d, h,
                &mem)) {
    d.memory_total_nvml = probed<data_size>::measured(static_cast<double>(mem.total) * units::B);
    d.memory_free = probed<data_size>::measured(static_cast<double>(mem.free) * units::B);
    d.memory_used = probed<data_size>::measured(static_cast<double>(mem.used) * units::B);
  }

  unsigned mhz = 0;
  if (nvml_call(nv, nv.device_get_clock_info, "nvmlDeviceGetClockInfo", "sm_clock_current", d, h,
                int{abi::nvml_clock_sm}, &mhz))
    d.sm_clock_current = probed<frequency>::measured(mhz * units::MHz);
  if (nvml_call(nv, nv.device_get_max_clock_info, "nvmlDeviceGetMaxClockInfo", "sm_clock_max", d,
                h, int{abi::nvml_clock_sm}, &mhz))
    d.sm_clock_max = probed<frequency>::measured(mhz * units::MHz);
  if (!d.memory_clock_max.known() &&
      nvml_call(nv, nv.device_get_max_clock_info, "nvmlDeviceGetMaxClockInfo", "memory_clock_max",
                d, h, int{abi::nvml_clock_mem}, &mhz))
    d.memory_clock_max = probed<frequency>::measured(mhz * units::MHz);

  // NVLink: query links 0, 1, ... A device without NVLink answers NOT_SUPPORTED for link 0; past
  // the device's last link NVML answers INVALID_ARGUMENT (or NOT_SUPPORTED on some drivers).
  if (nv.device_get_nvlink_state == nullptr) {
    d.notes.push_back("nvlink_links: nvmlDeviceGetNvLinkState not in NVML");
  } else {
    int links = 0;
    int active = 0;
    abi::nvml_return first = abi::nvml_success;
    for (unsigned link = 0; link < abi::nvml_nvlink_max_links; ++link) {
      int state = abi::nvml_feature_disabled;
      const abi::nvml_return r = nv.device_get_nvlink_state(h, link, &state);
      if (link == 0) first = r;
      if (r != abi::nvml_success) continue;
      ++links;
      if (state == abi::nvml_feature_enabled) ++active;
    }
    if (links > 0 || first == abi::nvml_error_not_supported ||
        first == abi::nvml_error_invalid_argument) {
      d.nvlink_links = probed<int>::measured(links);
      d.nvlink_links_active = probed<int>::measured(active);
    } else {
      d.notes.push_back("nvlink_links: nvmlDeviceGetNvLinkState returned " + nv.error_text(first));
    }
  }

  unsigned mw = 0;
  if (nvml_call(nv, nv.device_get_power_management_limit, "nvmlDeviceGetPowerManagementLimit",
                "power_limit", d, h, &mw))
    d.power_limit = probed<power>::measured(mw * 1e-3 * units::W);
  if (nvml_call(nv, nv.device_get_power_usage, "nvmlDeviceGetPowerUsage", "power_draw", d, h, &mw))
    d.power_draw = probed<power>::measured(mw * 1e-3 * units::W);

  unsigned c = 0;
  if (nvml_call(nv, nv.device_get_temperature, "nvmlDeviceGetTemperature", "temperature_c", d, h,
                int{abi::nvml_temperature_gpu}, &c))
    d.temperature_c = probed<int>::measured(static_cast<int>(c));

  abi::nvml_utilization u{};
  if (nvml_call(nv, nv.device_get_utilization_rates, "nvmlDeviceGetUtilizationRates",
                "utilization", d, h, &u)) {
    d.utilization_gpu_pct = probed<int>::measured(static_cast<int>(u.gpu));
    d.utilization_memory_pct = probed<int>::measured(static_cast<int>(u.memory));
  }

  // MIG is a data-centre feature: a GPU without it answers NOT_SUPPORTED, which means "off".
  if (nv.device_get_mig_mode != nullptr) {
    unsigned current = 0;
    unsigned pending = 0;
    const abi::nvml_return r = nv.device_get_mig_mode(h, &current, &pending);
    if (r == abi::nvml_success)
      d.mig_enabled = probed<bool>::measured(current == abi::nvml_device_mig_enable);
    else if (r == abi::nvml_error_not_supported)
      d.mig_enabled = probed<bool>::measured(false);
    else
      d.notes.push_back("mig_enabled: nvmlDeviceGetMigMode returned " + nv.error_text(r));
  } else {
    d.notes.push_back("mig_enabled: nvmlDeviceGetMigMode not in NVML");
  }

  unsigned gen = 0;
  unsigned width = 0;
  if (nvml_call(nv, nv.device_get_max_pcie_link_generation, "nvmlDeviceGetMaxPcieLinkGeneration",
                "pcie_generation_max", d, h, &gen))
    d.pcie_generation_max = probed<int>::measured(static_cast<int>(gen));
  if (nvml_call(nv, nv.device_get_max_pcie_link_width, "nvmlDeviceGetMaxPcieLinkWidth",
                "pcie_width_max", d, h, &width))
    d.pcie_width_max = probed<int>::measured(static_cast<int>(width));
}

inline void read_cuda(const cuda_api& cu, abi::cu_device dev, device_info& d) {
  char name[256] = {};
  abi::cu_result r = cu.device_get_name(name, static_cast<int>(sizeof name - 1), dev);
  if (r == abi::cuda_success)
    d.name = probed<std::string>::measured(from_buffer(name, sizeof name));
  else
    d.notes.push_back("name: cuDeviceGetName returned " + cu.error_text(r));

  if (cu.device_get_uuid != nullptr) {
    abi::cu_uuid u{};
    r = cu.device_get_uuid(&u, dev);
    if (r == abi::cuda_success)
      d.uuid = probed<std::string>::measured(format_uuid(u));
    else
      d.notes.push_back("uuid: cuDeviceGetUuid returned " + cu.error_text(r));
  }

  std::size_t bytes = 0;
  r = cu.device_total_mem(&bytes, dev);
  if (r == abi::cuda_success)
    d.memory_total = probed<data_size>::measured(static_cast<double>(bytes) * units::B);
  else
    d.notes.push_back("memory_total: cuDeviceTotalMem_v2 returned " + cu.error_text(r));

  read_attribute(cu, dev, abi::cu_device_attribute_compute_capability_major,
                 "compute_capability_major", d.compute_capability_major, d);
  read_attribute(cu, dev, abi::cu_device_attribute_compute_capability_minor,
                 "compute_capability_minor", d.compute_capability_minor, d);
  read_attribute(cu, dev, abi::cu_device_attribute_multiprocessor_count, "sm_count", d.sm_count, d);
  read_attribute(cu, dev, abi::cu_device_attribute_global_memory_bus_width,
                 "memory_bus_width_bits", d.memory_bus_width_bits, d);

  probed<int> khz;
  read_attribute(cu, dev, abi::cu_device_attribute_memory_clock_rate, "memory_clock_max", khz, d);
  if (khz.known()) d.memory_clock_max = probed<frequency>::measured(khz.value * units::kHz);
  khz = {};
  read_attribute(cu, dev, abi::cu_device_attribute_clock_rate, "sm_clock_max", khz, d);
  if (khz.known()) d.sm_clock_max = probed<frequency>::measured(khz.value * units::kHz);

  probed<int> l2;
  read_attribute(cu, dev, abi::cu_device_attribute_l2_cache_size, "l2_cache", l2, d);
  if (l2.known()) d.l2_cache = probed<data_size>::measured(l2.value * units::B);

  probed<int> domain;
  probed<int> bus;
  probed<int> device;
  read_attribute(cu, dev, abi::cu_device_attribute_pci_domain_id, "pci_bus_id", domain, d);
  read_attribute(cu, dev, abi::cu_device_attribute_pci_bus_id, "pci_bus_id", bus, d);
  read_attribute(cu, dev, abi::cu_device_attribute_pci_device_id, "pci_bus_id", device, d);
  if (domain.known() && bus.known() && device.known())
    d.pci_bus_id = probed<std::string>::measured(
        format_pci_bus_id(domain.value, bus.value, device.value));

  probed<int> flag;
  read_attribute(cu, dev, abi::cu_device_attribute_integrated, "integrated", flag, d);
  if (flag.known()) d.integrated = probed<bool>::measured(flag.value != 0);
  flag = {};
  read_attribute(cu, dev, abi::cu_device_attribute_ecc_enabled, "ecc_enabled", flag, d);
  if (flag.known()) d.ecc_enabled = probed<bool>::measured(flag.value != 0);
}

/// Peak DRAM bandwidth from the memory clock and bus width: 2 transfers per clock (DDR) x width
/// in bytes. Matches the datasheets: H100 SXM 2619 MHz x 5120 bit -> 3.35 TB/s; A100 80GB
/// 1593 MHz x 5120 bit -> 2.04 TB/s; L4 6251 MHz x 192 bit -> 300 GB/s (GDDR6: the driver reports
/// the clock that makes the same formula hold).
inline void derive(device_info& d) {
  if (d.memory_clock_max.known() && d.memory_bus_width_bits.known() &&
      d.memory_clock_max.value.value > 0 && d.memory_bus_width_bits.value > 0) {
    const double transfers_per_clock = 2.0;  // double data rate
    d.memory_bandwidth = probed<bandwidth>::with(
        transfers_per_clock * d.memory_clock_max.value.value *
            (d.memory_bus_width_bits.value / 8.0) * units::Bps,
        provenance::derived);
  }
}

/// Loads and starts NVML for probe_gpus into `lib` and `nv`; sets res.nvml_loaded, or says in a
/// warning why NVML is not available (the probe goes on without its fields).
inline void open_nvml(const probe_options& opt, shared_library& lib, nvml_api& nv,
                      probe_result& res) {
  std::string why;
  if (opt.nvml_library.empty())
    why = "probe_options.nvml_library is empty";
  else
    lib = shared_library::open(opt.nvml_library, why);
  if (!lib.loaded()) {
    res.warnings.push_back("NVML not available; memory and power fields unavailable (" + why +
                           ")");
    return;
  }
  load(lib, nv);
  if (nv.init == nullptr) {
    res.warnings.push_back("NVML not available; memory and power fields unavailable (" +
                           opt.nvml_library + " lacks nvmlInit_v2)");
  } else if (const abi::nvml_return r = nv.init(); r != abi::nvml_success) {
    res.warnings.push_back("NVML not available; memory and power fields unavailable "
                           "(nvmlInit_v2 failed: " + nv.error_text(r) + ")");
  } else {
    res.nvml_loaded = true;
    res.nvml_library = opt.nvml_library;
  }
}

/// Reads the `count` devices the driver reports into res.devices, NVML's fields where it is
/// loaded. False (res.error and res.message set) when not one device could be read.
inline bool read_devices(const cuda_api& cu, const nvml_api& nv, int count, probe_result& res) {
  res.devices.reserve(static_cast<std::size_t>(count));
  std::string first_failure;
  abi::cu_result first_code = abi::cuda_success;
  for (int i = 0; i < count; ++i) {
    abi::cu_device dev = 0;
    if (const abi::cu_result r = cu.device_get(&dev, i); r != abi::cuda_success) {
      // One device the driver will not hand out (unavailable, fallen off the bus) does not hide
      // the others: it is skipped with a warning; only when none can be read is it an error.
      const std::string what =
          "cuDeviceGet(" + std::to_string(i) + ") failed: " + cu.error_text(r);
      if (first_failure.empty()) {
        first_failure = what;
        first_code = r;
      }
      res.warnings.push_back(what + "; CUDA device " + std::to_string(i) + " not listed");
      continue;
    }
    device_info d;
    d.index = i;
    read_cuda(cu, dev, d);
    if (res.nvml_loaded) {
      if (abi::nvml_device h = nvml_handle(nv, d))
        read_nvml(nv, h, d);
      else
        d.notes.push_back("NVML has no device at PCI bus id " + d.pci_bus_id.value_or("?") +
                          "; NVML fields unavailable");
    }
    derive(d);
    res.devices.push_back(std::move(d));
  }
  if (res.devices.empty()) {
    res.driver_code = first_code;
    res.error = probe_error::query_failed;
    res.message = first_failure;
    res.warnings.clear();
    return false;
  }
  return true;
}

}  // namespace detail

/// Reads every GPU the CUDA driver exposes on this machine (after CUDA_VISIBLE_DEVICES), with
/// NVML for the run-time fields. Never throws for a missing or broken driver: see
/// probe_result::error and ::message.
inline probe_result probe_gpus(const probe_options& opt = {}) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  probe_result res;
  res.cuda_library = opt.cuda_library;

  if (opt.cuda_library.empty()) {
    res.error = probe_error::driver_not_found;
    res.message = "no NVIDIA driver: probe_options.cuda_library is empty";
    return res;
  }
  std::string why;
  detail::shared_library cuda_lib = detail::shared_library::open(opt.cuda_library, why);
  if (!cuda_lib.loaded()) {
    res.error = probe_error::driver_not_found;
    // The loader's reason names the library and says it was not found: said once.
    res.message = "no NVIDIA driver: " + why;
    return res;
  }
  detail::cuda_api cu;
  detail::load(cuda_lib, cu);
  if (const char* missing = detail::missing_required(cu)) {
    res.error = probe_error::driver_incomplete;
    res.message = opt.cuda_library + " lacks " + missing + " (driver too old or not a driver)";
    return res;
  }

  const abi::cu_result init = cu.init(0);
  if (init != abi::cuda_success) {
    res.driver_code = init;
    res.error = init == abi::cuda_error_stub_library ? probe_error::stub_library
                                                     : probe_error::init_failed;
    res.message = "cuInit failed: " + cu.error_text(init);
    if (init == abi::cuda_error_stub_library)
      res.message += ": " + opt.cuda_library + " is the CUDA toolkit's stub, not a driver";
    return res;
  }
  if (opt.keep_driver_loaded) cuda_lib.release();

  int version = 0;
  if (cu.driver_get_version(&version) == abi::cuda_success)
    res.cuda_driver_version = probed<int>::measured(version);

  // NVML is optional: without it the static attributes are still read.
  detail::shared_library nvml_lib;
  detail::nvml_api nv;
  if (opt.use_nvml) detail::open_nvml(opt, nvml_lib, nv, res);
  res.load_time = detail::seconds_since(t0);
  const auto t1 = clock::now();

  // Shut NVML down on every return path below.
  struct nvml_session {
    const detail::nvml_api& api;
    bool active;
    ~nvml_session() {
      if (active && api.shutdown != nullptr) api.shutdown();
    }
  } session{nv, res.nvml_loaded};

  if (res.nvml_loaded && nv.system_get_driver_version != nullptr) {
    char buf[abi::nvml_system_driver_version_buffer_size] = {};
    if (nv.system_get_driver_version(buf, sizeof buf) == abi::nvml_success)
      res.driver_version = probed<std::string>::measured(detail::from_buffer(buf, sizeof buf));
  }

  int count = 0;
  if (const abi::cu_result r = cu.device_get_count(&count); r != abi::cuda_success) {
    res.driver_code = r;
    res.error = probe_error::query_failed;
    res.message = "cuDeviceGetCount failed: " + cu.error_text(r);
    return res;
  }
  if (count <= 0) {
    res.error = probe_error::no_devices;
    res.message = "0 CUDA devices";
    return res;
  }

  if (!detail::read_devices(cu, nv, count, res)) return res;
  res.query_time = detail::seconds_since(t1);
  return res;
}

}  // namespace gpuplan::probe
