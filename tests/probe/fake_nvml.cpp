// tests/probe/fake_nvml.cpp: a fake libnvidia-ml.so.1 for the probe's tests, answering with the
// devices of the scenario GPUPLAN_FAKE_GPU selects (fake_gpus.hpp), in NVML's own (PCI) order.
// Built twice: as fake/libnvidia-ml.so.1, and with GPUPLAN_FAKE_NVML_PARTIAL as
// fake-nvml-partial/libnvidia-ml.so.1, which lacks nvmlDeviceGetHandleByPciBusId_v2 (so the probe
// must pair devices by UUID), nvmlDeviceGetPowerUsage, nvmlDeviceGetNvLinkState and
// nvmlDeviceGetMigMode, as an old or cut-down NVML does.
#include <gpuplan/probe/abi.hpp>

#include "fake_gpus.hpp"

#include <cstdio>
#include <cstring>
#include <type_traits>

namespace abi = gpuplan::probe::abi;

namespace {

int init_count = 0;

abi::nvml_device handle(const fake::gpu* g) {
  return reinterpret_cast<abi::nvml_device>(const_cast<fake::gpu*>(g));
}
const fake::gpu* gpu_of(abi::nvml_device h) {
  if (init_count == 0 || h == nullptr) return nullptr;
  const fake::scenario s = fake::current();
  for (int i = 0; i < s.count; ++i)
    if (handle(s.nvml_order[i]) == h) return s.nvml_order[i];
  return nullptr;
}

// Independent of the probe's own formatting, so the tests compare two implementations.
void uuid_string(const fake::gpu& g, char* out, unsigned len) {
  const unsigned char* u = g.uuid;
  std::snprintf(out, len,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                u[14], u[15]);
}

}  // namespace

#define FAKE_DEVICE(h)                                        \
  const fake::gpu* g = gpu_of(h);                             \
  if (init_count == 0) return 1; /* UNINITIALIZED */          \
  if (g == nullptr) return abi::nvml_error_invalid_argument

extern "C" {

abi::nvml_return nvmlInit_v2() {
  const int r = fake::current().nvml_init_result;
  if (r == 0) ++init_count;
  return r;
}

abi::nvml_return nvmlShutdown() {
  if (init_count == 0) return 1;
  --init_count;
  return 0;
}

const char* nvmlErrorString(abi::nvml_return r) { return r == 0 ? "Success" : "Fake NVML error"; }

abi::nvml_return nvmlSystemGetDriverVersion(char* version, unsigned length) {
  if (init_count == 0) return 1;
  if (version == nullptr || length < 10) return 7;  // INSUFFICIENT_SIZE
  std::snprintf(version, length, "%s", "550.54.15");
  return 0;
}

abi::nvml_return nvmlSystemGetCudaDriverVersion(int* v) {
  if (v == nullptr) return 2;
  *v = 12040;
  return 0;
}

abi::nvml_return nvmlDeviceGetCount_v2(unsigned* count) {
  if (init_count == 0) return 1;
  if (count == nullptr) return 2;
  *count = static_cast<unsigned>(fake::current().count);
  return 0;
}

abi::nvml_return nvmlDeviceGetHandleByIndex_v2(unsigned index, abi::nvml_device* device) {
  if (init_count == 0) return 1;
  const fake::scenario s = fake::current();
  if (device == nullptr || index >= static_cast<unsigned>(s.count)) return 2;
  *device = handle(s.nvml_order[index]);
  return 0;
}

#if !defined(GPUPLAN_FAKE_NVML_PARTIAL)
abi::nvml_return nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, abi::nvml_device* device) {
  if (init_count == 0) return 1;
  if (bus_id == nullptr || device == nullptr) return 2;
  unsigned domain = 0, bus = 0, dev = 0;
  if (std::sscanf(bus_id, "%x:%x:%x", &domain, &bus, &dev) != 3) return 2;
  const fake::scenario s = fake::current();
  for (int i = 0; i < s.count; ++i) {
    const fake::gpu* g = s.nvml_order[i];
    if (static_cast<unsigned>(g->pci_domain) == domain &&
        static_cast<unsigned>(g->pci_bus) == bus && static_cast<unsigned>(g->pci_device) == dev) {
      *device = handle(g);
      return 0;
    }
  }
  return abi::nvml_error_not_found;
}
#endif

abi::nvml_return nvmlDeviceGetName(abi::nvml_device h, char* name, unsigned length) {
  FAKE_DEVICE(h);
  if (name == nullptr) return 2;
  std::snprintf(name, length, "%s", g->name);
  return 0;
}

abi::nvml_return nvmlDeviceGetUUID(abi::nvml_device h, char* uuid, unsigned length) {
  FAKE_DEVICE(h);
  if (uuid == nullptr || length < 41) return 7;
  uuid_string(*g, uuid, length);
  return 0;
}

abi::nvml_return nvmlDeviceGetPciInfo_v3(abi::nvml_device h, abi::nvml_pci_info* pci) {
  FAKE_DEVICE(h);
  if (pci == nullptr) return 2;
  std::memset(pci, 0, sizeof *pci);
  pci->domain = static_cast<unsigned>(g->pci_domain);
  pci->bus = static_cast<unsigned>(g->pci_bus);
  pci->device = static_cast<unsigned>(g->pci_device);
  std::snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", pci->domain, pci->bus,
                pci->device);
  return 0;
}

abi::nvml_return nvmlDeviceGetMemoryInfo(abi::nvml_device h, abi::nvml_memory* m) {
  FAKE_DEVICE(h);
  if (m == nullptr) return 2;
  m->total = g->nvml_total;
  m->used = g->nvml_used;
  m->free = g->nvml_total - g->nvml_used;
  return 0;
}

abi::nvml_return nvmlDeviceGetClockInfo(abi::nvml_device h, int type, unsigned* mhz) {
  FAKE_DEVICE(h);
  if (mhz == nullptr) return 2;
  if (type == abi::nvml_clock_sm || type == abi::nvml_clock_graphics) {
    *mhz = g->sm_clock_now_mhz;
    return 0;
  }
  if (type == abi::nvml_clock_mem) {
    *mhz = static_cast<unsigned>(g->memory_clock_khz / 1000);
    return 0;
  }
  return 2;
}

abi::nvml_return nvmlDeviceGetMaxClockInfo(abi::nvml_device h, int type, unsigned* mhz) {
  FAKE_DEVICE(h);
  if (mhz == nullptr) return 2;
  if (type == abi::nvml_clock_sm || type == abi::nvml_clock_graphics) {
    *mhz = static_cast<unsigned>(g->sm_clock_max_khz / 1000);
    return 0;
  }
  if (type == abi::nvml_clock_mem) {
    *mhz = static_cast<unsigned>(g->memory_clock_khz / 1000);
    return 0;
  }
  return 2;
}

#if !defined(GPUPLAN_FAKE_NVML_PARTIAL)
abi::nvml_return nvmlDeviceGetNvLinkState(abi::nvml_device h, unsigned link, int* active) {
  FAKE_DEVICE(h);
  if (active == nullptr) return 2;
  if (g->nvlinks == 0) return abi::nvml_error_not_supported;
  if (link >= g->nvlinks) return abi::nvml_error_invalid_argument;
  *active = link < g->nvlinks_active ? abi::nvml_feature_enabled : abi::nvml_feature_disabled;
  return 0;
}

abi::nvml_return nvmlDeviceGetPowerUsage(abi::nvml_device h, unsigned* mw) {
  FAKE_DEVICE(h);
  if (mw == nullptr) return 2;
  *mw = g->power_draw_mw;
  return 0;
}

abi::nvml_return nvmlDeviceGetMigMode(abi::nvml_device h, unsigned* current, unsigned* pending) {
  FAKE_DEVICE(h);
  if (current == nullptr || pending == nullptr) return 2;
  if (g->mig == 2) return abi::nvml_error_not_supported;
  *current = *pending = g->mig;
  return 0;
}
#endif

abi::nvml_return nvmlDeviceGetPowerManagementLimit(abi::nvml_device h, unsigned* mw) {
  FAKE_DEVICE(h);
  if (mw == nullptr) return 2;
  *mw = g->power_limit_mw;
  return 0;
}

abi::nvml_return nvmlDeviceGetTemperature(abi::nvml_device h, int sensor, unsigned* c) {
  FAKE_DEVICE(h);
  if (c == nullptr || sensor != abi::nvml_temperature_gpu) return 2;
  *c = g->temperature_c;
  return 0;
}

abi::nvml_return nvmlDeviceGetUtilizationRates(abi::nvml_device h, abi::nvml_utilization* u) {
  FAKE_DEVICE(h);
  if (u == nullptr) return 2;
  u->gpu = g->util_gpu;
  u->memory = g->util_mem;
  return 0;
}

abi::nvml_return nvmlDeviceGetMaxPcieLinkGeneration(abi::nvml_device h, unsigned* gen) {
  FAKE_DEVICE(h);
  if (gen == nullptr) return 2;
  *gen = g->pcie_gen;
  return 0;
}

abi::nvml_return nvmlDeviceGetMaxPcieLinkWidth(abi::nvml_device h, unsigned* width) {
  FAKE_DEVICE(h);
  if (width == nullptr) return 2;
  *width = g->pcie_width;
  return 0;
}

}  // extern "C"

static_assert(std::is_same_v<decltype(&nvmlInit_v2), abi::nvmlInit_v2_t>);
static_assert(std::is_same_v<decltype(&nvmlShutdown), abi::nvmlShutdown_t>);
static_assert(std::is_same_v<decltype(&nvmlErrorString), abi::nvmlErrorString_t>);
static_assert(std::is_same_v<decltype(&nvmlSystemGetDriverVersion),
                             abi::nvmlSystemGetDriverVersion_t>);
static_assert(std::is_same_v<decltype(&nvmlSystemGetCudaDriverVersion),
                             abi::nvmlSystemGetCudaDriverVersion_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetCount_v2), abi::nvmlDeviceGetCount_v2_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetHandleByIndex_v2),
                             abi::nvmlDeviceGetHandleByIndex_v2_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetName), abi::nvmlDeviceGetName_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetUUID), abi::nvmlDeviceGetUUID_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetPciInfo_v3), abi::nvmlDeviceGetPciInfo_v3_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetMemoryInfo), abi::nvmlDeviceGetMemoryInfo_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetClockInfo), abi::nvmlDeviceGetClockInfo_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetMaxClockInfo),
                             abi::nvmlDeviceGetMaxClockInfo_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetPowerManagementLimit),
                             abi::nvmlDeviceGetPowerManagementLimit_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetTemperature), abi::nvmlDeviceGetTemperature_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetUtilizationRates),
                             abi::nvmlDeviceGetUtilizationRates_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetMaxPcieLinkGeneration),
                             abi::nvmlDeviceGetMaxPcieLinkGeneration_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetMaxPcieLinkWidth),
                             abi::nvmlDeviceGetMaxPcieLinkWidth_t>);
#if !defined(GPUPLAN_FAKE_NVML_PARTIAL)
static_assert(std::is_same_v<decltype(&nvmlDeviceGetHandleByPciBusId_v2),
                             abi::nvmlDeviceGetHandleByPciBusId_v2_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetNvLinkState), abi::nvmlDeviceGetNvLinkState_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetPowerUsage), abi::nvmlDeviceGetPowerUsage_t>);
static_assert(std::is_same_v<decltype(&nvmlDeviceGetMigMode), abi::nvmlDeviceGetMigMode_t>);
#endif
