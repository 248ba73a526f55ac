// tests/probe/test_probe.cpp: the probe on a machine without a driver, with the toolkit's stub
// driver, and with the fake libcuda.so.1 / libnvidia-ml.so.1 this directory builds (fake_gpus.hpp
// lists their scenarios and the sources of their values); then the mapping to gpu_spec and the
// architecture estimates against published datasheet figures.
#include <gpuplan/probe/cuda.hpp>

#include "../catch.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

using namespace gpuplan;
using namespace gpuplan::probe;

namespace {

/// Options that load the fakes of `dir` in scenario `scenario`. The fakes are unloaded after each
/// probe so that later tests (and the "no driver" test) see a clean process.
probe_options fake(const char* scenario, const char* dir = GPUPLAN_FAKE_DIR) {
  ::setenv("GPUPLAN_FAKE_GPU", scenario, 1);
  probe_options o = probe_options::in_directory(dir);
  o.keep_driver_loaded = false;
  return o;
}

bool has(const std::vector<std::string>& lines, const std::string& needle) {
  for (const auto& l : lines)
    if (l.find(needle) != std::string::npos) return true;
  return false;
}

double rel(double a, double b) { return (a - b) / b; }

std::string str(const name_string& n) { return std::string(n.view()); }

/// The name of the catalog entry s was matched to, or "" (the catalog's lookup returns an element
/// of catalog::all_gpus, a copy of the named entry, so names are compared, not addresses).
std::string entry_name(const gpu_spec_with_provenance& s) {
  return std::string(s.catalog_entry != nullptr ? s.catalog_entry->name.view() : "");
}


}  // namespace

// ---- no driver, stub driver ---------------------------------------------------------------------

// First in the file: later tests load fake libraries named libcuda.so.1 (and unload them).
TEST_CASE("without a driver the default probe says libcuda.so.1 was not found",
          "[probe][nodriver]") {
  if (void* h = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    ::dlclose(h);
    WARN("a libcuda.so.1 is on this machine's loader path: the no-driver case is untestable here");
    return;
  }
  const probe_result r = probe_gpus();
  CHECK_FALSE(r.ok());
  CHECK(r.error == probe_error::driver_not_found);
  // Once: "no NVIDIA driver: libcuda.so.1: cannot open shared object file: ..." (the loader's
  // reason names the library; it was said twice).
  CHECK(r.message.rfind("no NVIDIA driver: ", 0) == 0);
  CHECK(r.message.find("libcuda.so.1") == r.message.rfind("libcuda.so.1"));
  CHECK(r.devices.empty());
  CHECK(r.warnings.empty());
}

TEST_CASE("an explicit library path that does not exist gives the same error, naming the path",
          "[probe][nodriver]") {
  probe_options o;
  o.cuda_library = std::string(GPUPLAN_FAKE_DIR) + "/no-such-dir/libcuda.so.1";
  const probe_result r = probe_gpus(o);
  CHECK(r.error == probe_error::driver_not_found);
  CHECK(r.message.rfind("no NVIDIA driver: ", 0) == 0);
  CHECK(r.message.find("no-such-dir/libcuda.so.1") != std::string::npos);
}

TEST_CASE("empty library names are errors naming the option", "[probe][nodriver]") {
  probe_options o;
  o.cuda_library.clear();
  const probe_result r = probe_gpus(o);
  CHECK(r.error == probe_error::driver_not_found);
  CHECK(r.message.find("probe_options.cuda_library is empty") != std::string::npos);

  probe_options n = fake("h100");
  n.nvml_library.clear();
  const probe_result rn = probe_gpus(n);
  REQUIRE(rn.ok());
  REQUIRE(rn.warnings.size() == 1);
  CHECK(rn.warnings[0].find("probe_options.nvml_library is empty") != std::string::npos);
}

TEST_CASE("probe_options::from_environment reads GPUPLAN_CUDA_LIBRARY / GPUPLAN_NVML_LIBRARY",
          "[probe][nodriver]") {
  ::unsetenv("GPUPLAN_CUDA_LIBRARY");
  ::unsetenv("GPUPLAN_NVML_LIBRARY");
  CHECK(probe_options::from_environment().cuda_library == "libcuda.so.1");
  CHECK(probe_options::from_environment().nvml_library == "libnvidia-ml.so.1");
  const std::string dir = GPUPLAN_FAKE_DIR;
  ::setenv("GPUPLAN_CUDA_LIBRARY", (dir + "/libcuda.so.1").c_str(), 1);
  ::setenv("GPUPLAN_NVML_LIBRARY", (dir + "/libnvidia-ml.so.1").c_str(), 1);
  probe_options o = probe_options::from_environment();
  ::unsetenv("GPUPLAN_CUDA_LIBRARY");
  ::unsetenv("GPUPLAN_NVML_LIBRARY");
  CHECK(o.cuda_library == dir + "/libcuda.so.1");
  ::setenv("GPUPLAN_FAKE_GPU", "h100", 1);
  o.keep_driver_loaded = false;
  const probe_result r = probe_gpus(o);
  CHECK(r.ok());
  CHECK(r.nvml_loaded);
}

TEST_CASE("the CUDA toolkit's stub libcuda gives a clear error, not a crash", "[probe][stub]") {
  const std::string dir = GPUPLAN_CUDA_STUB_DIR;
  if (dir.empty()) {
    WARN("no CUDA toolkit stub libcuda.so found at configure time; stub test skipped");
    return;
  }
  const probe_result r = probe_gpus(probe_options::in_directory(dir));
  CHECK(r.error == probe_error::stub_library);
  CHECK(r.driver_code == 34);
  CHECK(r.message.rfind("cuInit failed: CUDA_ERROR_STUB_LIBRARY (34)", 0) == 0);
  CHECK(r.message.find("stub") != std::string::npos);
  CHECK(r.devices.empty());
}

// Run by CTest with LD_LIBRARY_PATH pointing at the stub directory (see CMakeLists.txt): the
// default options then load the stub through the loader path, as a misconfigured machine would.
TEST_CASE("the stub found through LD_LIBRARY_PATH", "[.][probe][stub_on_path]") {
  const probe_result r = probe_gpus();
  CHECK(r.error == probe_error::stub_library);
  CHECK(r.message.rfind("cuInit failed: CUDA_ERROR_STUB_LIBRARY (34)", 0) == 0);
}

// ---- fake H100 SXM: every field ----------------------------------------------------------------

TEST_CASE("fake H100 SXM: every field read, with its provenance", "[probe][fake]") {
  const probe_result r = probe_gpus(fake("h100"));
  REQUIRE(r.ok());
  CHECK(r.message.empty());
  CHECK(r.warnings.empty());
  CHECK(r.nvml_loaded);
  CHECK(r.cuda_driver_version.value == 12040);
  CHECK(cuda_version_string(r.cuda_driver_version.value) == "12.4");
  CHECK(r.driver_version.value == "550.54.15");
  REQUIRE(r.devices.size() == 1);

  const device_info& d = r.devices[0];
  INFO("notes: " << d.notes.size());
  CHECK(d.notes.empty());
  CHECK(d.index == 0);
  CHECK(d.name.value == "NVIDIA H100 80GB HBM3");
  CHECK(d.name.source == provenance::measured);
  // The UUID PyTorch printed for this GPU (stas00/ml-engineering), in nvidia-smi's form.
  CHECK(d.uuid.value == "GPU-4dbfbb99-983a-79af-8527-ca9f0c139426");
  CHECK(d.pci_bus_id.value == "00000000:18:00.0");
  CHECK(d.compute_capability_major.value == 9);
  CHECK(d.compute_capability_minor.value == 0);
  CHECK(d.sm_count.value == 132);
  CHECK(d.memory_total.value.in(units::MiB) == 81089.0);
  CHECK(d.memory_total_nvml.value.in(units::MiB) == 81559.0);
  CHECK(d.memory_used.value.in(units::MiB) == 1.0);
  CHECK(d.memory_free.value.in(units::MiB) == 81558.0);
  CHECK(d.memory_bus_width_bits.value == 5120);
  CHECK(d.memory_clock_max.value.in(units::MHz) == Approx(2619.0));
  CHECK(d.sm_clock_max.value.in(units::MHz) == Approx(1980.0));
  CHECK(d.sm_clock_current.value.in(units::MHz) == Approx(345.0));
  CHECK(d.l2_cache.value.in(units::MiB) == 50.0);
  CHECK(d.nvlink_links.value == 18);
  CHECK(d.nvlink_links_active.value == 18);
  CHECK(d.power_limit.value.in(units::W) == Approx(700.0));
  CHECK(d.power_draw.value.in(units::W) == Approx(70.123));
  CHECK(d.temperature_c.value == 26);
  CHECK(d.utilization_gpu_pct.value == 0);
  CHECK(d.utilization_memory_pct.value == 0);
  CHECK(d.mig_enabled.known());
  CHECK_FALSE(d.mig_enabled.value);
  CHECK(d.pcie_generation_max.value == 5);
  CHECK(d.pcie_width_max.value == 16);
  CHECK(d.ecc_enabled.value);
  CHECK_FALSE(d.integrated.value);

  // Peak DRAM bandwidth, derived: 2 x 2619 MHz x 5120 bit / 8 = 3.352 TB/s. H100 SXM datasheet:
  // 3.35 TB/s. Tolerance 0.1% (the datasheet rounds to three digits).
  CHECK(d.memory_bandwidth.source == provenance::derived);
  CHECK(d.memory_bandwidth.value.in(units::TBps) == Approx(3.35232));
  CHECK(std::abs(rel(d.memory_bandwidth.value.in(units::TBps), 3.35)) < 1e-3);

  CHECK(r.load_time.value >= 0.0);
  CHECK(r.query_time.value >= 0.0);

  // visit_fields lists every field once; on this fake every one of them is known.
  int fields = 0;
  std::string unknown;
  visit_fields(d, [&](std::string_view name, const auto& field) {
    ++fields;
    if (!field.known()) unknown += std::string(name) + " ";
  });
  CHECK(fields == 28);
  CHECK(unknown.empty());
}

TEST_CASE("fake H100 SXM maps to the catalog's H100-SXM5-80GB", "[probe][fake][spec]") {
  const probe_result r = probe_gpus(fake("h100"));
  REQUIRE(r.devices.size() == 1);
  const gpu_spec_with_provenance s = to_gpu_spec(r.devices[0]);
  REQUIRE(s.matched());
  CHECK(entry_name(s) == str(catalog::h100_sxm.name));
  CHECK(s.usable());
  CHECK(str(s.spec.name) == "H100-SXM5-80GB");
  CHECK(s.source.name == provenance::catalog);
  // Peak rates from the catalog: H100 SXM datasheet 1,979 TFLOPS bf16 with sparsity = 989.5 dense.
  CHECK(s.source.peak == provenance::catalog);
  CHECK(s.spec.peak.bf16_tensor.in(units::TFLOPS) == Approx(989.5));
  CHECK(s.source.tdp == provenance::catalog);
  CHECK(s.spec.tdp.in(units::W) == Approx(700.0));
  CHECK(s.source.gpu_link == provenance::catalog);
  // Memory and bandwidth from the measurement.
  CHECK(s.spec.memory.in(units::GiB) == 80.0);
  CHECK(s.source.memory_usable == provenance::measured);
  CHECK(s.spec.memory_usable.in(units::MiB) == 81089.0);
  CHECK(s.spec.plannable_memory().in(units::MiB) == 81089.0);
  CHECK(s.source.memory_bandwidth == provenance::derived);
  CHECK(s.spec.memory_bandwidth.in(units::TBps) == Approx(3.35232));
  CHECK(s.source.sm_count == provenance::measured);
  CHECK(s.spec.sm_count == 132);
  CHECK(s.spec.boost_clock.in(units::MHz) == Approx(1980.0));
  // the compute capability the device reports (9.0), as the catalog has it
  CHECK(s.source.compute_capability == provenance::measured);
  CHECK(s.spec.compute_capability == cuda_capability{9, 0});
  int fields = 0;
  int unavailable = 0;
  visit_fields(s.source, [&](std::string_view, provenance p) {
    ++fields;
    if (p == provenance::unavailable) ++unavailable;
  });
  CHECK(fields == 14);
  CHECK(unavailable == 0);
}

TEST_CASE("fake A100-SXM4-40GB maps to the 40 GB entry, not the 80 GB one", "[probe][fake][spec]") {
  const probe_result r = probe_gpus(fake("a100_40gb"));
  REQUIRE(r.devices.size() == 1);
  const device_info& d = r.devices[0];
  CHECK(d.mig_enabled.value);
  CHECK(d.utilization_gpu_pct.value == 87);
  CHECK(d.utilization_memory_pct.value == 40);
  CHECK(d.nvlink_links.value == 12);
  // A100 40GB datasheet: 1,555 GB/s = 2 x 1215 MHz x 5120 bit / 8. Tolerance 0.1%.
  CHECK(std::abs(rel(d.memory_bandwidth.value.in(units::GBps), 1555.0)) < 1e-3);
  const auto s = to_gpu_spec(d);
  CHECK(entry_name(s) == str(catalog::a100_sxm_40gb.name));
  CHECK(s.spec.memory.in(units::GiB) == 40.0);
  CHECK(s.spec.peak.bf16_tensor.in(units::TFLOPS) == Approx(312.0));  // A100 datasheet
}

TEST_CASE("a name without size or form: the measured memory picks H100 NVL over H100 SXM",
          "[probe][fake][spec]") {
  const probe_result r = probe_gpus(fake("h100_unsized"));
  REQUIRE(r.devices.size() == 1);
  const auto s = to_gpu_spec(r.devices[0]);
  REQUIRE(s.matched());
  CHECK(entry_name(s) == str(catalog::h100_nvl.name));
  // The alias "H100" names the SXM entry first; the memory check rejects it, and says so.
  CHECK(has(s.notes, "H100-SXM5-80GB named by \"H100\" rejected: H100-SXM5-80GB has 80.0 GiB, "
                     "93.8 GiB measured"));
  CHECK(has(s.notes, "chosen by family \"H100\""));
  CHECK(r.devices[0].nvlink_links.value == 18);
  CHECK(r.devices[0].nvlink_links_active.value == 6);
}

// ---- estimates when no catalog entry matches ----------------------------------------------------

TEST_CASE("an H100 under an unknown name is estimated from cc 9.0, SMs and clock",
          "[probe][fake][estimate]") {
  const probe_result r = probe_gpus(fake("hopper_unknown"));
  REQUIRE(r.devices.size() == 1);
  const auto s = to_gpu_spec(r.devices[0]);
  CHECK_FALSE(s.matched());
  CHECK(s.usable());
  CHECK(str(s.spec.name) == "gpuplan test Hopper part");
  CHECK(s.source.name == provenance::measured);
  CHECK(str(s.spec.architecture) == "Hopper");
  CHECK(s.source.peak == provenance::estimated);
  CHECK(has(s.notes, "peak rates estimated: 132 SMs x 1980 MHz x Hopper FMA per SM per clock x 2"));
  // H100 SXM datasheet (dense): FP64 34, FP64 tensor 67, FP32 67 TFLOPS at the 1980 MHz max clock:
  // tolerance 2%. Tensor rates (BF16 989.5, TF32 494.5, FP8 1979) correspond to 1830 MHz, so the
  // estimate from the max clock reads 1980/1830 - 1 = 8.2% high: tolerance 9%, and above.
  const peak_rates& p = s.spec.peak;
  CHECK(std::abs(rel(p.fp64_vector.in(units::TFLOPS), 34.0)) < 0.02);
  CHECK(std::abs(rel(p.fp64_tensor.in(units::TFLOPS), 67.0)) < 0.02);
  CHECK(std::abs(rel(p.fp32_vector.in(units::TFLOPS), 67.0)) < 0.02);
  for (auto [est, sheet] : {std::pair{p.bf16_tensor, 989.5}, std::pair{p.tf32_tensor, 494.5},
                            std::pair{p.fp8_tensor, 1979.0}, std::pair{p.int8_tensor, 1979.0}}) {
    const double e = rel(est.in(units::TFLOPS), sheet);
    CHECK(e > 0.0);
    CHECK(e < 0.09);
  }
  CHECK(p.sparsity_factor == 2.0);
  // Measured: TDP from the power limit, memory from NVML, usable memory from CUDA.
  CHECK(s.source.tdp == provenance::measured);
  CHECK(s.spec.tdp.in(units::W) == Approx(700.0));
  CHECK(s.source.memory == provenance::measured);
  CHECK(s.spec.memory.in(units::MiB) == 81559.0);
  CHECK(s.spec.memory_usable.in(units::MiB) == 81089.0);
  // 18 active NVLink4 links x 25 GB/s each way = the datasheet's 900 GB/s bidirectional.
  CHECK(s.source.gpu_link == provenance::estimated);
  CHECK(s.spec.gpu_link.links == 18);
  CHECK(s.spec.gpu_link.bidirectional().in(units::GBps) == Approx(900.0));
  CHECK(s.spec.pcie.generation == 5);
  CHECK(s.source.pcie == provenance::measured);
}

TEST_CASE("an L4 under an unknown name: estimates match the L4 datasheet",
          "[probe][fake][estimate]") {
  const probe_result r = probe_gpus(fake("ada_unknown"));
  REQUIRE(r.devices.size() == 1);
  const device_info& d = r.devices[0];
  // L4 datasheet: 300 GB/s = 2 x 6251 MHz x 192 bit / 8. Tolerance 0.1%.
  CHECK(std::abs(rel(d.memory_bandwidth.value.in(units::GBps), 300.0)) < 1e-3);
  CHECK(d.nvlink_links.value == 0);  // NVML: NOT_SUPPORTED on link 0 = no NVLink
  CHECK(d.nvlink_links.source == provenance::measured);
  CHECK(d.mig_enabled.known());  // NOT_SUPPORTED = no MIG
  CHECK_FALSE(d.mig_enabled.value);
  const auto s = to_gpu_spec(d);
  CHECK_FALSE(s.matched());
  CHECK(s.usable());
  CHECK(str(s.spec.architecture) == "Ada");
  // L4 datasheet, sparse figures halved: BF16 121 (242*), FP8 242.5 (485*), TF32 60 (120*),
  // FP32 30.3 TFLOPS; INT8 242.5 (485*) TOPS. Tolerance 1.5% (the datasheet rounds TF32 to 120).
  const peak_rates& p = s.spec.peak;
  CHECK(std::abs(rel(p.bf16_tensor.in(units::TFLOPS), 121.0)) < 0.015);
  CHECK(std::abs(rel(p.fp16_tensor.in(units::TFLOPS), 121.0)) < 0.015);
  CHECK(std::abs(rel(p.fp8_tensor.in(units::TFLOPS), 242.5)) < 0.015);
  CHECK(std::abs(rel(p.int8_tensor.in(units::TFLOPS), 242.5)) < 0.015);
  CHECK(std::abs(rel(p.tf32_tensor.in(units::TFLOPS), 60.0)) < 0.015);
  CHECK(std::abs(rel(p.fp32_vector.in(units::TFLOPS), 30.3)) < 0.015);
  CHECK(s.spec.gpu_link.kind == link_kind::none);
  CHECK(s.source.gpu_link == provenance::measured);
  CHECK(s.spec.tdp.in(units::W) == Approx(72.0));  // L4 datasheet: 72 W
}

TEST_CASE("compute capability 10.0 has no per-SM table: rates unavailable, said so",
          "[probe][fake][estimate]") {
  const probe_result r = probe_gpus(fake("blackwell_unknown"));
  REQUIRE(r.devices.size() == 1);
  const auto s = to_gpu_spec(r.devices[0]);
  CHECK_FALSE(s.matched());
  CHECK(s.source.peak == provenance::unavailable);
  CHECK(s.spec.peak.bf16_tensor.value == 0.0);
  CHECK(has(s.notes, "no per-SM throughput table for compute capability 10.0"));
  CHECK(str(s.spec.architecture) == "Blackwell");
  // Memory and bandwidth are still measured, so the spec is valid for memory planning.
  CHECK(s.usable());
}

TEST_CASE("to_gpu_spec with the catalog switched off estimates even a known part",
          "[probe][fake][estimate]") {
  const probe_result r = probe_gpus(fake("h100"));
  REQUIRE(r.devices.size() == 1);
  spec_options o;
  o.use_catalog = false;
  const auto s = to_gpu_spec(r.devices[0], o);
  CHECK_FALSE(s.matched());
  CHECK(s.source.peak == provenance::estimated);
  CHECK(str(s.spec.name) == "NVIDIA H100 80GB HBM3");
}

// ---- several devices, and the pairing of CUDA and NVML devices ----------------------------------

TEST_CASE("two devices, numbered differently by CUDA and NVML, are paired by PCI bus id",
          "[probe][fake]") {
  const probe_result r = probe_gpus(fake("two"));
  REQUIRE(r.ok());
  REQUIRE(r.devices.size() == 2);
  CHECK(r.devices[0].name.value == "NVIDIA A100-SXM4-40GB");
  CHECK(r.devices[0].pci_bus_id.value == "00000000:07:00.0");
  CHECK(r.devices[0].power_limit.value.in(units::W) == Approx(400.0));
  CHECK(r.devices[0].temperature_c.value == 45);
  CHECK(r.devices[1].name.value == "NVIDIA H100 80GB HBM3");
  CHECK(r.devices[1].power_limit.value.in(units::W) == Approx(700.0));
  CHECK(r.devices[1].temperature_c.value == 26);
  CHECK(entry_name(to_gpu_spec(r.devices[0])) == str(catalog::a100_sxm_40gb.name));
  CHECK(entry_name(to_gpu_spec(r.devices[1])) == str(catalog::h100_sxm.name));
}

TEST_CASE("an NVML without the PCI lookup pairs by UUID; missing functions leave fields "
          "unavailable with a note", "[probe][fake][nvml]") {
  probe_options o = fake("two");
  o.nvml_library = std::string(GPUPLAN_FAKE_NVML_PARTIAL_DIR) + "/libnvidia-ml.so.1";
  const probe_result r = probe_gpus(o);
  REQUIRE(r.ok());
  REQUIRE(r.devices.size() == 2);
  const device_info& a100 = r.devices[0];
  CHECK(a100.power_limit.value.in(units::W) == Approx(400.0));  // paired by UUID
  CHECK(a100.memory_free.known());
  CHECK_FALSE(a100.power_draw.known());
  CHECK(has(a100.notes, "power_draw: nvmlDeviceGetPowerUsage not in NVML"));
  CHECK_FALSE(a100.mig_enabled.known());
  CHECK(has(a100.notes, "mig_enabled: nvmlDeviceGetMigMode not in NVML"));
  CHECK_FALSE(a100.nvlink_links.known());
  CHECK(r.devices[1].power_limit.value.in(units::W) == Approx(700.0));
}

// ---- error values ------------------------------------------------------------------------------

TEST_CASE("zero devices: the error says so", "[probe][fake][errors]") {
  const probe_result r = probe_gpus(fake("zero"));
  CHECK(r.error == probe_error::no_devices);
  CHECK(r.message == "0 CUDA devices");
  CHECK(r.devices.empty());
}

TEST_CASE("cuInit failing names the CUresult", "[probe][fake][errors]") {
  SECTION("a code the probe knows") {
    const probe_result r = probe_gpus(fake("no_device"));
    CHECK(r.error == probe_error::init_failed);
    CHECK(r.driver_code == 100);
    CHECK(r.message == "cuInit failed: CUDA_ERROR_NO_DEVICE (100)");
  }
  SECTION("a code only the driver can name (cuGetErrorName)") {
    const probe_result r = probe_gpus(fake("odd_init"));
    CHECK(r.error == probe_error::init_failed);
    CHECK(r.message == "cuInit failed: CUDA_ERROR_FAKE_4242 (4242)");
  }
}

TEST_CASE("cuDeviceGetCount failing is a query error", "[probe][fake][errors]") {
  const probe_result r = probe_gpus(fake("count_error"));
  CHECK(r.error == probe_error::query_failed);
  CHECK(r.message == "cuDeviceGetCount failed: CUDA_ERROR_NOT_INITIALIZED (3)");
}

TEST_CASE("a device the driver refuses mid-listing is skipped with a warning, not the whole list",
          "[probe][fake][errors]") {
  // Before: cuDeviceGet(1) failing cleared the devices already read and failed the probe, so one
  // GPU held by another process in exclusive mode hid every GPU of the machine.
  const probe_result r = probe_gpus(fake("mid_listing_error"));
  REQUIRE(r.ok());
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0].index == 0);
  CHECK(r.devices[0].name.value == "NVIDIA A100-SXM4-40GB");
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0] ==
        "cuDeviceGet(1) failed: CUDA_ERROR_DEVICE_UNAVAILABLE (46); CUDA device 1 not listed");
}

TEST_CASE("no device readable is a query error naming the first failure",
          "[probe][fake][errors]") {
  const probe_result r = probe_gpus(fake("all_failing"));
  CHECK(r.error == probe_error::query_failed);
  CHECK(r.driver_code == 46);
  CHECK(r.message == "cuDeviceGet(0) failed: CUDA_ERROR_DEVICE_UNAVAILABLE (46)");
  CHECK(r.devices.empty());
}

TEST_CASE("a driver lacking a required entry point is reported, not called",
          "[probe][fake][errors]") {
  const probe_result r = probe_gpus(fake("h100", GPUPLAN_FAKE_CUDA_PARTIAL_DIR));
  CHECK(r.error == probe_error::driver_incomplete);
  CHECK(r.message.find("lacks cuDeviceTotalMem_v2") != std::string::npos);
}

TEST_CASE("NVML missing or failing: a warning, CUDA fields still read, spec still matched",
          "[probe][fake][nvml]") {
  SECTION("no libnvidia-ml.so.1") {
    probe_options o = fake("h100");
    o.nvml_library = std::string(GPUPLAN_FAKE_DIR) + "/no-such-dir/libnvidia-ml.so.1";
    const probe_result r = probe_gpus(o);
    REQUIRE(r.ok());
    CHECK_FALSE(r.nvml_loaded);
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0].rfind("NVML not available; memory and power fields unavailable (", 0) == 0);
    const device_info& d = r.devices[0];
    CHECK_FALSE(d.memory_free.known());
    CHECK_FALSE(d.power_draw.known());
    CHECK_FALSE(r.driver_version.known());
    CHECK(d.memory_total.known());
  }
  SECTION("nvmlInit_v2 fails") {
    const probe_result r = probe_gpus(fake("nvml_init_error"));
    REQUIRE(r.ok());
    CHECK_FALSE(r.nvml_loaded);
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0] ==
          "NVML not available; memory and power fields unavailable (nvmlInit_v2 failed: "
          "NVML_ERROR_DRIVER_NOT_LOADED (9))");
    const device_info& d = r.devices[0];
    CHECK(d.memory_total.known());
    CHECK_FALSE(d.power_limit.known());
    const auto s = to_gpu_spec(d);
    CHECK(entry_name(s) == str(catalog::h100_sxm.name));
    CHECK(s.usable());
  }
}

TEST_CASE("failing attributes leave their fields unavailable, with the CUresult in a note",
          "[probe][fake][errors]") {
  SECTION("with NVML, the memory clock comes from NVML's max memory clock") {
    const probe_result r = probe_gpus(fake("attribute_errors"));
    REQUIRE(r.ok());
    const device_info& d = r.devices[0];
    CHECK_FALSE(d.l2_cache.known());
    CHECK(has(d.notes, "l2_cache: cuDeviceGetAttribute(38) returned CUDA_ERROR_INVALID_VALUE (1)"));
    CHECK(d.memory_clock_max.known());
    CHECK(d.memory_bandwidth.known());
  }
  SECTION("without NVML, bandwidth is unavailable and the spec takes the catalog's") {
    probe_options o = fake("attribute_errors");
    o.use_nvml = false;
    const probe_result r = probe_gpus(o);
    REQUIRE(r.ok());
    CHECK(r.warnings.empty());  // NVML was not asked for
    const device_info& d = r.devices[0];
    CHECK_FALSE(d.memory_clock_max.known());
    CHECK_FALSE(d.memory_bandwidth.known());
    const auto s = to_gpu_spec(d);
    CHECK(entry_name(s) == str(catalog::h100_sxm.name));
    CHECK(s.source.memory_bandwidth == provenance::catalog);
    CHECK(s.spec.memory_bandwidth.in(units::TBps) == Approx(3.35));
  }
}

TEST_CASE("repeated probes load, read and unload cleanly", "[probe][fake]") {
  for (int i = 0; i < 50; ++i) {
    const probe_result r = probe_gpus(fake(i % 2 == 0 ? "two" : "h100"));
    REQUIRE(r.ok());
    REQUIRE(r.devices.size() == (i % 2 == 0 ? 2u : 1u));
  }
  // Keeping the driver loaded (the default) also works, and a second probe reuses it.
  probe_options o = fake("h100");
  o.keep_driver_loaded = true;
  CHECK(probe_gpus(o).ok());
  CHECK(probe_gpus(o).ok());
}

// ---- the mapping on hand-made device records ----------------------------------------------------

namespace {
device_info named(const char* name, int sms, double mib) {
  device_info d;
  d.name = probed<std::string>::measured(name);
  if (sms > 0) d.sm_count = probed<int>::measured(sms);
  if (mib > 0) d.memory_total = probed<data_size>::measured(mib * units::MiB);
  return d;
}
}  // namespace

TEST_CASE("driver names map to catalog entries", "[probe][spec]") {
  const auto match = [](const char* name, int sms, double mib) {
    return entry_name(to_gpu_spec(named(name, sms, mib)));
  };
  // Names as drivers print them, with the SM counts and totals they report (catalog [DRV] notes).
  CHECK(match("NVIDIA H100 PCIe", 114, 81008) == "H100-PCIe-80GB");
  CHECK(match("NVIDIA A100-SXM4-80GB", 108, 81251) == "A100-SXM4-80GB");
  CHECK(match("A100-SXM4-40GB", 108, 40536) == "A100-SXM4-40GB");  // drivers before R510
  CHECK(match("NVIDIA L4", 58, 23034) == "L4-24GB");
  CHECK(match("Tesla T4", 40, 15109) == "T4-16GB");
  CHECK(match("NVIDIA GeForce RTX 4090", 128, 24563) == "RTX-4090-24GB");
  // Unknown SM count and memory (a driver that answered only the name) still match by name.
  CHECK(match("NVIDIA H200", 0, 0) == "H200-SXM-141GB");
}

TEST_CASE("a catalog entry whose SM count or memory disagrees is rejected", "[probe][spec]") {
  SECTION("an SXM name with a PCIe part's 114 SMs falls to the H100 family's PCIe entry") {
    const auto s = to_gpu_spec(named("NVIDIA H100 80GB HBM3", 114, 81008));
    CHECK(entry_name(s) == str(catalog::h100_pcie.name));
    CHECK(has(s.notes, "H100-SXM5-80GB has 132 SMs, 114 measured"));
  }
  SECTION("a MIG slice's 10 GiB never takes the 80 GB entry") {
    const auto s = to_gpu_spec(named("NVIDIA A100-SXM4-80GB", 14, 9856));
    CHECK_FALSE(s.matched());
    CHECK(str(s.spec.name) == "NVIDIA A100-SXM4-80GB");
  }
  SECTION("the tolerance is a named option") {
    spec_options o;
    o.memory_match_tolerance = 0.001;  // tighter than the 1% the driver hides
    CHECK_FALSE(to_gpu_spec(named("NVIDIA H100 80GB HBM3", 132, 81089), o).matched());
  }
}

TEST_CASE("a bad spec option is gpuplan's invalid_input naming it", "[probe][spec]") {
  spec_options o;
  o.memory_match_tolerance = -0.1;
  CHECK_THROWS_WITH(to_gpu_spec(named("NVIDIA L4", 58, 23034), o),
                    "gpuplan: spec_options.memory_match_tolerance must be at least 0 and below 1 "
                    "(a fraction) (got -0.1)");
  o.memory_match_tolerance = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(to_gpu_spec(named("NVIDIA L4", 58, 23034), o), gpuplan::invalid_input);
}

TEST_CASE("a record with no measured memory or bandwidth is not usable, and says why",
          "[probe][spec]") {
  const auto s = to_gpu_spec(named("gpuplan test part", 0, 0));
  CHECK_FALSE(s.matched());
  CHECK_FALSE(s.usable());
  CHECK(s.invalid_reason == "gpuplan: gpu_spec.memory must be positive and finite (got 0)");
}

// ---- the per-SM table against the datasheets ----------------------------------------------------

TEST_CASE("per-SM throughput x SMs x boost clock reproduces each architecture's datasheet",
          "[probe][estimate]") {
  const auto est = [](int major, int minor, int sms, double mhz) {
    const sm_throughput* t = find_sm_throughput(major, minor);
    REQUIRE(t != nullptr);
    return estimate_peak_rates(*t, sms, mhz * units::MHz);
  };
  const auto tf = [](compute_rate r) { return r.in(units::TFLOPS); };
  // Tolerance 1.5% throughout: datasheets round to three significant digits.
  const double tol = 0.015;
  SECTION("Volta: V100 SXM2, 80 SMs at 1530 MHz (V100 datasheet: 125 / 15.7 / 7.8)") {
    const peak_rates p = est(7, 0, 80, 1530);
    CHECK(std::abs(rel(tf(p.fp16_tensor), 125.0)) < tol);
    CHECK(std::abs(rel(tf(p.fp32_vector), 15.7)) < tol);
    CHECK(std::abs(rel(tf(p.fp64_vector), 7.8)) < tol);
    CHECK(p.bf16_tensor.value == 0.0);  // Volta has no BF16
  }
  SECTION("Turing: T4, 40 SMs at 1590 MHz (T4 datasheet: 65 FP16, 130 INT8, 8.1 FP32)") {
    const peak_rates p = est(7, 5, 40, 1590);
    CHECK(std::abs(rel(tf(p.fp16_tensor), 65.0)) < tol);
    CHECK(std::abs(rel(tf(p.int8_tensor), 130.0)) < tol);
    CHECK(std::abs(rel(tf(p.fp32_vector), 8.1)) < tol);
  }
  SECTION("Ampere GA100: A100, 108 SMs at 1410 MHz (A100 datasheet)") {
    const peak_rates p = est(8, 0, 108, 1410);
    CHECK(std::abs(rel(tf(p.bf16_tensor), 312.0)) < tol);
    CHECK(std::abs(rel(tf(p.tf32_tensor), 156.0)) < tol);
    CHECK(std::abs(rel(tf(p.fp64_tensor), 19.5)) < tol);
    CHECK(std::abs(rel(tf(p.fp64_vector), 9.7)) < tol);
    CHECK(std::abs(rel(tf(p.fp32_vector), 19.5)) < tol);
    CHECK(std::abs(rel(tf(p.int8_tensor), 624.0)) < tol);
    CHECK(p.fp8_tensor.value == 0.0);
  }
  SECTION("Ampere GA10x: A10, 72 SMs at 1695 MHz (A10 datasheet: 125 / 62.5 / 31.2 / 250)") {
    const peak_rates p = est(8, 6, 72, 1695);
    CHECK(std::abs(rel(tf(p.bf16_tensor), 125.0)) < tol);
    CHECK(std::abs(rel(tf(p.tf32_tensor), 62.5)) < tol);
    CHECK(std::abs(rel(tf(p.fp32_vector), 31.2)) < tol);
    CHECK(std::abs(rel(tf(p.int8_tensor), 250.0)) < tol);
  }
  SECTION("Ada: L40S, 142 SMs at 2520 MHz (L40S datasheet: 362.05 BF16, 733 FP8, 91.6 FP32)") {
    const peak_rates p = est(8, 9, 142, 2520);
    CHECK(std::abs(rel(tf(p.bf16_tensor), 362.05)) < tol);
    CHECK(std::abs(rel(tf(p.fp8_tensor), 733.0)) < tol);
    CHECK(std::abs(rel(tf(p.fp32_vector), 91.6)) < tol);
  }
  SECTION("Hopper: H100 SXM, 132 SMs at the 1830 MHz its tensor figures use (H100 datasheet)") {
    const peak_rates p = est(9, 0, 132, 1830);
    CHECK(std::abs(rel(tf(p.bf16_tensor), 989.5)) < tol);
    CHECK(std::abs(rel(tf(p.tf32_tensor), 494.5)) < tol);
    CHECK(std::abs(rel(tf(p.fp8_tensor), 1979.0)) < tol);
  }
  SECTION("no table for Pascal, Orin or Blackwell") {
    CHECK(find_sm_throughput(6, 0) == nullptr);
    CHECK(find_sm_throughput(8, 7) == nullptr);
    CHECK(find_sm_throughput(10, 0) == nullptr);
  }
}

// ---- small pieces -------------------------------------------------------------------------------

TEST_CASE("names, versions and error texts", "[probe]") {
  STATIC_REQUIRE(abi::cu_error_name(34) == "CUDA_ERROR_STUB_LIBRARY");
  STATIC_REQUIRE(abi::cu_error_name(100) == "CUDA_ERROR_NO_DEVICE");
  STATIC_REQUIRE(abi::cu_error_name(12345).empty());
  STATIC_REQUIRE(abi::nvml_error_name(9) == "NVML_ERROR_DRIVER_NOT_LOADED");
  STATIC_REQUIRE(gpuplan::probe::detail::strip_brand("NVIDIA GeForce RTX 4090") == "RTX 4090");
  STATIC_REQUIRE(gpuplan::probe::detail::strip_brand("Tesla V100-SXM2-32GB") == "V100-SXM2-32GB");
  STATIC_REQUIRE(gpuplan::probe::detail::family("A100-SXM4-80GB") == "A100");
  STATIC_REQUIRE(architecture_name(9, 0) == "Hopper");
  STATIC_REQUIRE(architecture_name(8, 9) == "Ada");
  CHECK(cuda_version_string(12040) == "12.4");
  CHECK(cuda_version_string(13000) == "13.0");
  CHECK(std::string(to_string(provenance::derived)) == "derived");
  CHECK(std::string(to_string(probe_error::stub_library)) == "stub_library");
  const abi::cu_uuid u{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, static_cast<char>(0xff)}};
  CHECK(gpuplan::probe::detail::format_uuid(u) == "GPU-00010203-0405-0607-0809-0a0b0c0d0eff");
  CHECK(gpuplan::probe::detail::format_pci_bus_id(1, 0xab, 3) == "00000001:AB:03.0");
}
