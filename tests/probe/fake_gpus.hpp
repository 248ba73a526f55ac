// tests/probe/fake_gpus.hpp: the machines the fake libcuda.so.1 and libnvidia-ml.so.1 pretend to
// be, chosen by the environment variable GPUPLAN_FAKE_GPU (read on every call, so one test
// process can switch scenarios between probes).
//
// Values are what the real driver reports for these parts, with sources, so the mapping from a
// probe to the catalog and the estimates are tested on realistic input:
//  [WP-H100]  NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): 132 SMs (SXM5), 5120-bit
//             HBM3 interface (5 stacks x 1024 bit), 50 MB L2, 18 NVLink4 links, cc 9.0.
//  [SMI-H100] nvidia-smi on H100 80GB HBM3 machines: "81559MiB" total, "700W" power cap; nvidia-smi
//             -q "Max Clocks: SM 1980 MHz, Memory 2619 MHz".
//  [TORCH-H100] stas00/ml-engineering, network benchmark header: _CudaDeviceProperties(name='NVIDIA
//             H100 80GB HBM3', major=9, minor=0, total_memory=81089MB, multi_processor_count=132,
//             L2_cache_size=50MB).
//  [WP-A100]  NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020): 108 SMs, 5120-bit HBM2,
//             40 MB L2, 1410 MHz boost, 12 NVLink3 links; A100 40GB datasheet: 1555 GB/s, which is
//             2 x 1215 MHz x 5120 bit / 8.
//  [SMI-A100] nvidia-smi (recent drivers) on NVIDIA A100-SXM4-40GB: "40960MiB" total, "400W" cap;
//             torch total_memory=40536MB (as cited in the catalog).
//  [L4]       NVIDIA L4 datasheet: 58 SMs (AD104), 2040 MHz boost, 24 GB GDDR6 at 300 GB/s on a
//             192-bit bus (so a 6251 MHz memory clock), 48 MB L2, 72 W; nvidia-smi total 23034 MiB.
#pragma once

#include <cstdlib>
#include <cstring>

namespace fake {

struct gpu {
  const char* name;
  unsigned char uuid[16];
  int pci_domain, pci_bus, pci_device;
  int cc_major, cc_minor;
  int sm_count;
  unsigned long long cuda_total;  ///< cuDeviceTotalMem_v2, bytes
  unsigned long long nvml_total;  ///< nvmlDeviceGetMemoryInfo total, bytes
  unsigned long long nvml_used;
  int bus_width_bits;
  int memory_clock_khz;
  int sm_clock_max_khz;
  unsigned sm_clock_now_mhz;
  int l2_bytes;
  unsigned nvlinks, nvlinks_active;
  unsigned power_limit_mw, power_draw_mw;
  unsigned temperature_c;
  unsigned util_gpu, util_mem;
  unsigned mig;  ///< 0 off, 1 on, 2: NVML answers NOT_SUPPORTED
  unsigned pcie_gen, pcie_width;
};

inline constexpr unsigned long long MiB = 1024ull * 1024ull;

// [WP-H100] [SMI-H100] [TORCH-H100]; idle clocks, draw and temperature as in the nvidia-smi table.
inline constexpr gpu h100_sxm{
    "NVIDIA H100 80GB HBM3",
    {0x4d, 0xbf, 0xbb, 0x99, 0x98, 0x3a, 0x79, 0xaf,
     0x85, 0x27, 0xca, 0x9f, 0x0c, 0x13, 0x94, 0x26},
    0, 0x18, 0, 9, 0, 132, 81089 * MiB, 81559 * MiB, 1 * MiB, 5120, 2619000, 1980000, 345,
    50 * 1024 * 1024, 18, 18, 700000, 70123, 26, 0, 0, 0, 5, 16};

// [WP-A100] [SMI-A100]
inline constexpr gpu a100_sxm_40gb{
    "NVIDIA A100-SXM4-40GB",
    {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
     0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01},
    0, 0x07, 0, 8, 0, 108, 40536 * MiB, 40960 * MiB, 4 * MiB, 5120, 1215000, 1410000,
    1410, 40 * 1024 * 1024, 12, 12, 400000, 250000, 45, 87, 40, 1, 4, 16};

// A name that states neither size nor form factor, on a 94 GiB, 132-SM part: only the memory
// size tells the H100 NVL entry from the H100 SXM one.
inline constexpr gpu h100_unsized{
    "NVIDIA H100",
    {0xa7, 0xbf, 0xde, 0x5d, 0x81, 0x51, 0x8a, 0x6d,
     0xfd, 0xfc, 0xb3, 0x1d, 0x02, 0x0c, 0xf2, 0xd5},
    0, 0x2a, 0, 9, 0, 132, 95830 * MiB, 96000 * MiB, 1 * MiB, 6144, 2619000, 1785000, 345,
    50 * 1024 * 1024, 18, 6, 400000, 60000, 30, 0, 0, 0, 5, 16};

// An H100 SXM under a name no catalog entry carries: exercises the estimate.
inline constexpr gpu hopper_unknown{
    "gpuplan test Hopper part",
    {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
     0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10},
    0, 0x19, 0, 9, 0, 132, 81089 * MiB, 81559 * MiB, 1 * MiB, 5120, 2619000, 1980000, 345,
    50 * 1024 * 1024, 18, 18, 700000, 70000, 26, 0, 0, 0, 5, 16};

// An L4 under a name no catalog entry carries, NVML saying it has no NVLink and no MIG. [L4]
inline constexpr gpu ada_unknown{
    "gpuplan test Ada part",
    {0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03,
     0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b},
    0, 0x41, 0, 8, 9, 58, 22699 * MiB, 23034 * MiB, 0 * MiB, 192, 6251000, 2040000, 210,
    48 * 1024 * 1024, 0, 0, 72000, 16000, 40, 0, 0, 2, 4, 16};

// Compute capability 10.0 (Blackwell), which has no per-SM table: rates stay unavailable. The
// other figures have a B200's shape but are not asserted against anything.
inline constexpr gpu blackwell_unknown{
    "gpuplan test Blackwell part",
    {0xb2, 0x00, 0xb2, 0x00, 0xb2, 0x00, 0xb2, 0x00,
     0xb2, 0x00, 0xb2, 0x00, 0xb2, 0x00, 0xb2, 0x00},
    0, 0x1b, 0, 10, 0, 148, 182631 * MiB, 183359 * MiB, 1 * MiB, 8192, 3996000, 1965000, 120,
    126 * 1024 * 1024, 18, 18, 1000000, 140000, 30, 0, 0, 0, 6, 16};

/// The scenario: which devices exist, and which calls fail.
struct scenario {
  const gpu* cuda_order[2];   ///< devices in CUDA's order
  const gpu* nvml_order[2];   ///< the same devices in NVML's order (PCI order)
  int count;
  int cu_init_result;         ///< what cuInit returns
  int cu_count_result;        ///< what cuDeviceGetCount returns
  int nvml_init_result;       ///< what nvmlInit_v2 returns
  bool attribute_errors;      ///< memory clock and L2 attributes answer CUDA_ERROR_INVALID_VALUE
  int failing_ordinal = -1;   ///< cuDeviceGet for this ordinal answers failing_result
  int failing_result = 0;
};

/// GPUPLAN_FAKE_GPU: h100 (default), a100_40gb, h100_unsized, hopper_unknown, ada_unknown,
/// blackwell_unknown, two (A100 then H100 for CUDA, the other order for NVML), zero (no devices),
/// no_device (cuInit: CUDA_ERROR_NO_DEVICE), odd_init (cuInit: an unlisted code 4242),
/// count_error (cuDeviceGetCount: CUDA_ERROR_NOT_INITIALIZED), nvml_init_error (nvmlInit_v2:
/// NVML_ERROR_DRIVER_NOT_LOADED), attribute_errors (H100 with failing attributes),
/// mid_listing_error (two devices; cuDeviceGet(1) answers CUDA_ERROR_DEVICE_UNAVAILABLE, as for a
/// GPU another process holds in exclusive mode), all_failing (cuDeviceGet(0) fails likewise).
inline scenario current() {
  const char* e = std::getenv("GPUPLAN_FAKE_GPU");
  const auto is = [e](const char* s) { return e != nullptr && std::strcmp(e, s) == 0; };
  scenario s{{&h100_sxm, nullptr}, {&h100_sxm, nullptr}, 1, 0, 0, 0, false};
  const auto one = [&s](const gpu* g) {
    s.cuda_order[0] = g;
    s.nvml_order[0] = g;
  };
  if (is("a100_40gb")) one(&a100_sxm_40gb);
  if (is("h100_unsized")) one(&h100_unsized);
  if (is("hopper_unknown")) one(&hopper_unknown);
  if (is("ada_unknown")) one(&ada_unknown);
  if (is("blackwell_unknown")) one(&blackwell_unknown);
  if (is("two")) {
    s = {{&a100_sxm_40gb, &h100_sxm}, {&h100_sxm, &a100_sxm_40gb}, 2, 0, 0, 0, false};
  }
  if (is("zero")) s.count = 0;
  if (is("no_device")) s.cu_init_result = 100;
  if (is("odd_init")) s.cu_init_result = 4242;
  if (is("count_error")) s.cu_count_result = 3;
  if (is("nvml_init_error")) s.nvml_init_result = 9;
  if (is("attribute_errors")) s.attribute_errors = true;
  if (is("mid_listing_error")) {
    s = {{&a100_sxm_40gb, &h100_sxm}, {&h100_sxm, &a100_sxm_40gb}, 2, 0, 0, 0, false, 1, 46};
  }
  if (is("all_failing")) s = {{&h100_sxm, nullptr}, {&h100_sxm, nullptr}, 1, 0, 0, 0, false, 0, 46};
  return s;
}

}  // namespace fake
