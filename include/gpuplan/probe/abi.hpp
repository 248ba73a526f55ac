// gpuplan/probe/abi.hpp: the few CUDA driver and NVML entry points the probe calls, declared here
// so that gpuplan builds without the CUDA toolkit or NVML headers.
//
// Only the binary interface matters: integer result codes, attribute numbers, struct layouts and
// function signatures, copied from the driver's public headers (cuda.h of CUDA 13.0, nvml.h of
// NVML API version 12). These values are part of NVIDIA's stable ABI: an attribute number or a
// struct layout never changes once published (new layouts get new versioned entry points, such
// as nvmlDeviceGetPciInfo_v3). The probe loads the functions with dlsym by the names below.
// Constants carry the headers' names in lower case (CUDA_ERROR_NO_DEVICE -> cuda_error_no_device),
// so that a program that also includes cuda.h or nvml.h (where some are macros) still compiles.
#pragma once

#include <cstddef>
#include <string_view>

namespace gpuplan::probe::abi {

// ---- CUDA driver API (libcuda.so.1) -------------------------------------------------------------

/// CUresult: 0 is CUDA_SUCCESS, anything else an error.
using cu_result = int;
/// CUdevice: an ordinal handle.
using cu_device = int;
/// CUuuid: 16 raw bytes.
struct cu_uuid {
  char bytes[16];
};

inline constexpr cu_result cuda_success = 0;
inline constexpr cu_result cuda_error_stub_library = 34;
inline constexpr cu_result cuda_error_no_device = 100;

/// CUdevice_attribute values the probe reads (cuda.h, enum CUdevice_attribute_enum).
enum cu_attribute : int {
  cu_device_attribute_clock_rate = 13,               ///< peak SM clock, kHz
  cu_device_attribute_multiprocessor_count = 16,     ///< SMs
  cu_device_attribute_integrated = 18,               ///< 1: shares host memory (Jetson, GB10)
  cu_device_attribute_ecc_enabled = 32,              ///< 1: ECC on
  cu_device_attribute_pci_bus_id = 33,
  cu_device_attribute_pci_device_id = 34,
  cu_device_attribute_memory_clock_rate = 36,        ///< peak memory clock, kHz
  cu_device_attribute_global_memory_bus_width = 37,  ///< bits
  cu_device_attribute_l2_cache_size = 38,            ///< bytes
  cu_device_attribute_pci_domain_id = 50,
  cu_device_attribute_compute_capability_major = 75,
  cu_device_attribute_compute_capability_minor = 76,
};

using cuInit_t = cu_result (*)(unsigned int flags);
using cuDriverGetVersion_t = cu_result (*)(int* version);
using cuDeviceGetCount_t = cu_result (*)(int* count);
using cuDeviceGet_t = cu_result (*)(cu_device* device, int ordinal);
using cuDeviceGetName_t = cu_result (*)(char* name, int len, cu_device device);
using cuDeviceGetUuid_t = cu_result (*)(cu_uuid* uuid, cu_device device);  // also _v2
using cuDeviceTotalMem_v2_t = cu_result (*)(std::size_t* bytes, cu_device device);
using cuDeviceGetAttribute_t = cu_result (*)(int* value, int attribute, cu_device device);
using cuGetErrorName_t = cu_result (*)(cu_result error, const char** name);

/// The name of a CUresult the probe may meet while loading and querying (cuda.h); empty if the
/// code is not one of them (the probe then asks the driver's cuGetErrorName).
constexpr std::string_view cu_error_name(cu_result r) {
  switch (r) {
    case 0: return "CUDA_SUCCESS";
    case 1: return "CUDA_ERROR_INVALID_VALUE";
    case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 4: return "CUDA_ERROR_DEINITIALIZED";
    case 34: return "CUDA_ERROR_STUB_LIBRARY";
    case 36: return "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER";
    case 46: return "CUDA_ERROR_DEVICE_UNAVAILABLE";
    case 100: return "CUDA_ERROR_NO_DEVICE";
    case 101: return "CUDA_ERROR_INVALID_DEVICE";
    case 102: return "CUDA_ERROR_DEVICE_NOT_LICENSED";
    case 304: return "CUDA_ERROR_OPERATING_SYSTEM";
    case 500: return "CUDA_ERROR_NOT_FOUND";
    case 800: return "CUDA_ERROR_NOT_PERMITTED";
    case 801: return "CUDA_ERROR_NOT_SUPPORTED";
    case 802: return "CUDA_ERROR_SYSTEM_NOT_READY";
    case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
    case 999: return "CUDA_ERROR_UNKNOWN";
    default: return {};
  }
}

// ---- NVML (libnvidia-ml.so.1) -------------------------------------------------------------------

/// nvmlReturn_t: 0 is NVML_SUCCESS.
using nvml_return = int;
/// nvmlDevice_t: an opaque pointer.
struct nvml_device_st;
using nvml_device = nvml_device_st*;

inline constexpr nvml_return nvml_success = 0;
inline constexpr nvml_return nvml_error_invalid_argument = 2;
inline constexpr nvml_return nvml_error_not_supported = 3;
inline constexpr nvml_return nvml_error_not_found = 6;
inline constexpr nvml_return nvml_error_driver_not_loaded = 9;

inline constexpr unsigned nvml_device_name_v2_buffer_size = 96;
inline constexpr unsigned nvml_device_uuid_v2_buffer_size = 96;
inline constexpr unsigned nvml_system_driver_version_buffer_size = 80;
inline constexpr unsigned nvml_nvlink_max_links = 18;  ///< nvml.h of API 12; newer drivers: more

/// nvmlClockType_t
enum nvml_clock_type : int { nvml_clock_graphics = 0, nvml_clock_sm = 1, nvml_clock_mem = 2 };
/// nvmlTemperatureSensors_t
enum nvml_temperature_sensor : int { nvml_temperature_gpu = 0 };
/// nvmlEnableState_t
enum nvml_enable_state : int { nvml_feature_disabled = 0, nvml_feature_enabled = 1 };
/// nvmlDeviceGetMigMode's modes
inline constexpr unsigned nvml_device_mig_disable = 0;
inline constexpr unsigned nvml_device_mig_enable = 1;

/// nvmlMemory_t (v1): bytes.
struct nvml_memory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
/// nvmlPciInfo_t, as filled by nvmlDeviceGetPciInfo_v3.
struct nvml_pci_info {
  char busIdLegacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pciDeviceId;
  unsigned pciSubSystemId;
  char busId[32];
};
/// nvmlUtilization_t: percent.
struct nvml_utilization {
  unsigned gpu;
  unsigned memory;
};

static_assert(sizeof(nvml_memory) == 24, "nvmlMemory_t is three unsigned long long");
static_assert(sizeof(nvml_pci_info) == 16 + 5 * 4 + 32, "nvmlPciInfo_t layout");
static_assert(offsetof(nvml_pci_info, busId) == 36, "nvmlPciInfo_t.busId offset");
static_assert(sizeof(nvml_utilization) == 8, "nvmlUtilization_t is two unsigned int");

using nvmlInit_v2_t = nvml_return (*)();
using nvmlShutdown_t = nvml_return (*)();
using nvmlErrorString_t = const char* (*)(nvml_return);
using nvmlSystemGetDriverVersion_t = nvml_return (*)(char* version, unsigned length);
using nvmlSystemGetCudaDriverVersion_t = nvml_return (*)(int* version);
using nvmlDeviceGetCount_v2_t = nvml_return (*)(unsigned* count);
using nvmlDeviceGetHandleByIndex_v2_t = nvml_return (*)(unsigned index, nvml_device* device);
using nvmlDeviceGetHandleByPciBusId_v2_t = nvml_return (*)(const char* bus_id, nvml_device* device);
using nvmlDeviceGetName_t = nvml_return (*)(nvml_device device, char* name, unsigned length);
using nvmlDeviceGetUUID_t = nvml_return (*)(nvml_device device, char* uuid, unsigned length);
using nvmlDeviceGetPciInfo_v3_t = nvml_return (*)(nvml_device device, nvml_pci_info* pci);
using nvmlDeviceGetMemoryInfo_t = nvml_return (*)(nvml_device device, nvml_memory* memory);
using nvmlDeviceGetClockInfo_t = nvml_return (*)(nvml_device device, int type, unsigned* mhz);
using nvmlDeviceGetMaxClockInfo_t = nvml_return (*)(nvml_device device, int type, unsigned* mhz);
using nvmlDeviceGetNvLinkState_t = nvml_return (*)(nvml_device device, unsigned link, int* active);
using nvmlDeviceGetPowerManagementLimit_t = nvml_return (*)(nvml_device device, unsigned* mw);
using nvmlDeviceGetPowerUsage_t = nvml_return (*)(nvml_device device, unsigned* mw);
using nvmlDeviceGetTemperature_t = nvml_return (*)(nvml_device device, int sensor, unsigned* c);
using nvmlDeviceGetUtilizationRates_t = nvml_return (*)(nvml_device device, nvml_utilization* u);
using nvmlDeviceGetMigMode_t = nvml_return (*)(nvml_device device, unsigned* current,
                                               unsigned* pending);
using nvmlDeviceGetMaxPcieLinkGeneration_t = nvml_return (*)(nvml_device device, unsigned* gen);
using nvmlDeviceGetMaxPcieLinkWidth_t = nvml_return (*)(nvml_device device, unsigned* width);

/// The name of an nvmlReturn_t (nvml.h); empty if unknown (the probe then asks nvmlErrorString).
constexpr std::string_view nvml_error_name(nvml_return r) {
  switch (r) {
    case 0: return "NVML_SUCCESS";
    case 1: return "NVML_ERROR_UNINITIALIZED";
    case 2: return "NVML_ERROR_INVALID_ARGUMENT";
    case 3: return "NVML_ERROR_NOT_SUPPORTED";
    case 4: return "NVML_ERROR_NO_PERMISSION";
    case 6: return "NVML_ERROR_NOT_FOUND";
    case 7: return "NVML_ERROR_INSUFFICIENT_SIZE";
    case 9: return "NVML_ERROR_DRIVER_NOT_LOADED";
    case 12: return "NVML_ERROR_LIBRARY_NOT_FOUND";
    case 13: return "NVML_ERROR_FUNCTION_NOT_FOUND";
    case 15: return "NVML_ERROR_GPU_IS_LOST";
    case 17: return "NVML_ERROR_OPERATING_SYSTEM";
    case 18: return "NVML_ERROR_LIB_RM_VERSION_MISMATCH";
    case 999: return "NVML_ERROR_UNKNOWN";
    default: return {};
  }
}

}  // namespace gpuplan::probe::abi
