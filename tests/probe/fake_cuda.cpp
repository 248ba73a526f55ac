// tests/probe/fake_cuda.cpp: a fake libcuda.so.1 for the probe's tests. It exports the driver
// entry points the probe uses, with the driver's C signatures (gpuplan/probe/abi.hpp), and answers
// with the devices of the scenario GPUPLAN_FAKE_GPU selects (fake_gpus.hpp). Built twice: as
// fake/libcuda.so.1, and with GPUPLAN_FAKE_OLD_DRIVER as fake-cuda-partial/libcuda.so.1, which
// lacks cuDeviceTotalMem_v2 and cuDeviceGetUuid_v2, as drivers older than CUDA 3.2 / 11.4 do.
#include <gpuplan/probe/abi.hpp>

#include "fake_gpus.hpp"

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace abi = gpuplan::probe::abi;

namespace {

bool initialised = false;

const fake::gpu* device(abi::cu_device d) {
  const fake::scenario s = fake::current();
  if (d < 0 || d >= s.count) return nullptr;
  return s.cuda_order[d];
}

}  // namespace

extern "C" {

abi::cu_result cuInit(unsigned int flags) {
  if (flags != 0) return 1;  // CUDA_ERROR_INVALID_VALUE: the only valid flags value is 0
  const int r = fake::current().cu_init_result;
  initialised = r == 0;
  return r;
}

abi::cu_result cuDriverGetVersion(int* version) {
  if (version == nullptr) return 1;
  *version = 12040;  // CUDA 12.4, the version driver 550.54.15 reports
  return 0;
}

abi::cu_result cuDeviceGetCount(int* count) {
  if (!initialised) return 3;  // CUDA_ERROR_NOT_INITIALIZED
  if (count == nullptr) return 1;
  const fake::scenario s = fake::current();
  if (s.cu_count_result != 0) return s.cu_count_result;
  *count = s.count;
  return 0;
}

abi::cu_result cuDeviceGet(abi::cu_device* device_out, int ordinal) {
  if (!initialised) return 3;
  if (device_out == nullptr) return 1;
  if (device(ordinal) == nullptr) return 101;  // CUDA_ERROR_INVALID_DEVICE
  const fake::scenario s = fake::current();
  if (ordinal == s.failing_ordinal) return s.failing_result;
  *device_out = ordinal;
  return 0;
}

abi::cu_result cuDeviceGetName(char* name, int len, abi::cu_device d) {
  const fake::gpu* g = device(d);
  if (g == nullptr) return 101;
  if (name == nullptr || len <= 0) return 1;
  std::strncpy(name, g->name, static_cast<std::size_t>(len));
  name[len - 1] = '\0';
  return 0;
}

#if !defined(GPUPLAN_FAKE_OLD_DRIVER)
abi::cu_result cuDeviceGetUuid_v2(abi::cu_uuid* uuid, abi::cu_device d) {
  const fake::gpu* g = device(d);
  if (g == nullptr) return 101;
  if (uuid == nullptr) return 1;
  std::memcpy(uuid->bytes, g->uuid, 16);
  return 0;
}
#endif

abi::cu_result cuDeviceGetUuid(abi::cu_uuid* uuid, abi::cu_device d) {
  const fake::gpu* g = device(d);
  if (g == nullptr) return 101;
  if (uuid == nullptr) return 1;
  std::memcpy(uuid->bytes, g->uuid, 16);
  return 0;
}

#if !defined(GPUPLAN_FAKE_OLD_DRIVER)
abi::cu_result cuDeviceTotalMem_v2(std::size_t* bytes, abi::cu_device d) {
  const fake::gpu* g = device(d);
  if (g == nullptr) return 101;
  if (bytes == nullptr) return 1;
  *bytes = static_cast<std::size_t>(g->cuda_total);
  return 0;
}
#endif

abi::cu_result cuDeviceGetAttribute(int* value, int attribute, abi::cu_device d) {
  const fake::gpu* g = device(d);
  if (g == nullptr) return 101;
  if (value == nullptr) return 1;
  const bool failing = fake::current().attribute_errors;
  switch (attribute) {
    case abi::cu_device_attribute_clock_rate: *value = g->sm_clock_max_khz; return 0;
    case abi::cu_device_attribute_multiprocessor_count: *value = g->sm_count; return 0;
    case abi::cu_device_attribute_integrated: *value = 0; return 0;
    case abi::cu_device_attribute_ecc_enabled: *value = 1; return 0;
    case abi::cu_device_attribute_pci_bus_id: *value = g->pci_bus; return 0;
    case abi::cu_device_attribute_pci_device_id: *value = g->pci_device; return 0;
    case abi::cu_device_attribute_pci_domain_id: *value = g->pci_domain; return 0;
    case abi::cu_device_attribute_memory_clock_rate:
      if (failing) return 1;
      *value = g->memory_clock_khz;
      return 0;
    case abi::cu_device_attribute_global_memory_bus_width: *value = g->bus_width_bits; return 0;
    case abi::cu_device_attribute_l2_cache_size:
      if (failing) return 1;
      *value = g->l2_bytes;
      return 0;
    case abi::cu_device_attribute_compute_capability_major: *value = g->cc_major; return 0;
    case abi::cu_device_attribute_compute_capability_minor: *value = g->cc_minor; return 0;
    default: return 1;  // CUDA_ERROR_INVALID_VALUE for attributes the fake does not know
  }
}

abi::cu_result cuGetErrorName(abi::cu_result error, const char** name) {
  if (name == nullptr) return 1;
  if (error == 4242) {
    *name = "CUDA_ERROR_FAKE_4242";
    return 0;
  }
  *name = nullptr;
  return 1;
}

}  // extern "C"

// The fake's functions have exactly the types the probe calls them through (this matters under
// UBSan's -fsanitize=function, which checks the callee's type on every indirect call).
static_assert(std::is_same_v<decltype(&cuInit), abi::cuInit_t>);
static_assert(std::is_same_v<decltype(&cuDriverGetVersion), abi::cuDriverGetVersion_t>);
static_assert(std::is_same_v<decltype(&cuDeviceGetCount), abi::cuDeviceGetCount_t>);
static_assert(std::is_same_v<decltype(&cuDeviceGet), abi::cuDeviceGet_t>);
static_assert(std::is_same_v<decltype(&cuDeviceGetName), abi::cuDeviceGetName_t>);
static_assert(std::is_same_v<decltype(&cuDeviceGetUuid), abi::cuDeviceGetUuid_t>);
static_assert(std::is_same_v<decltype(&cuDeviceGetAttribute), abi::cuDeviceGetAttribute_t>);
static_assert(std::is_same_v<decltype(&cuGetErrorName), abi::cuGetErrorName_t>);
#if !defined(GPUPLAN_FAKE_OLD_DRIVER)
static_assert(std::is_same_v<decltype(&cuDeviceTotalMem_v2), abi::cuDeviceTotalMem_v2_t>);
#endif
