// Catalog GPUs and nodes: datasheet figures cross-checked against an independent transcription,
// units conventions (GiB capacity, dense vs sparse, per-direction links, per-NIC bandwidth),
// lookup, validation.
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

using namespace gpuplan;
namespace cat = gpuplan::catalog;
namespace u = gpuplan::units;

namespace {

template <class Spec>
std::string thrown_message(const Spec& s) {
  try {
    s.validate();
  } catch (const gpuplan::invalid_input& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("catalog figures agree with a second transcription of datasheets", "[catalog][gpus]") {
  // An independent transcription of the vendor datasheets (dense tensor TFLOPS, the sparse
  // datasheet headline halved), cross-checked there against stas00/ml-engineering's accelerator
  // table: nominal memory (vendor "GB"), bandwidth GB/s, dense BF16 (FP16 for T4/V100) TFLOPS,
  // TDP W. Tolerance 0.1%: both sides copy the same printed figures; the only slack is the
  // halving of odd sparse figures (1,979 / 2 = 989.5 vs 989).
  struct row {
    const gpu_spec& gpu;
    double nominal_gb, bandwidth_gbps, bf16_tflops, tdp_w;
  };
  const row rows[] = {
      {cat::a100_sxm_40gb, 40, 1555, 312, 400},      {cat::a100_sxm_80gb, 80, 2039, 312, 400},
      {cat::a100_pcie_40gb, 40, 1555, 312, 250},     {cat::a100_pcie_80gb, 80, 1935, 312, 300},
      {cat::h100_sxm, 80, 3350, 989.5, 700},         {cat::h100_pcie, 80, 2000, 756, 350},
      {cat::h100_nvl, 94, 3900, 835.5, 400},         {cat::h200_sxm, 141, 4800, 989.5, 700},
      {cat::h200_nvl, 141, 4800, 835.5, 600},        {cat::b200, 180, 8000, 2250, 1000},
      {cat::l4, 24, 300, 121, 72},                   {cat::l40s, 48, 864, 362.05, 350},
      {cat::t4, 16, 320, 65, 70},                    {cat::v100_sxm2_32gb, 32, 900, 125, 300},
      {cat::v100_pcie_32gb, 32, 900, 112, 250},      {cat::rtx_4090, 24, 1008, 165.2, 450},
      {cat::mi300x, 192, 5300, 1307.4, 750},         {cat::mi250x, 128, 3276.8, 383, 560},
  };
  for (const row& r : rows) {
    INFO(std::string(r.gpu.name.view()));
    CHECK(r.gpu.memory.in(u::GiB) == r.nominal_gb);  // vendor "GB" of HBM/GDDR is GiB
    CHECK(r.gpu.memory_bandwidth.in(u::GBps) == Approx(r.bandwidth_gbps).epsilon(1e-3));
    const precision p = r.gpu.peak.bf16_tensor.value > 0 ? precision::bf16 : precision::fp16;
    CHECK(r.gpu.peak.tensor(p).in(u::TFLOPS) == Approx(r.bf16_tflops).epsilon(1e-3));
    CHECK(r.gpu.tdp.in(u::W) == r.tdp_w);
  }
}

TEST_CASE("capacities are binary bytes, as the driver's totals show", "[catalog][gpus]") {
  // An "80GB" A100 has 80 GiB = 85,899,345,920 bytes.
  CHECK(cat::a100_sxm_80gb.memory.in(u::B) == 85899345920.0);
  CHECK(cat::h100_sxm.memory.in(u::B) == 85899345920.0);
  // Where the CUDA total is known for an HBM part it exceeds the decimal reading of the vendor's
  // "GB" (H100: 81,089 MiB = 85.03e9 B > 80e9 B; H200: 143,156 MiB > 141e9 B; B200: 182,631 MiB
  // > 180e9 B), so that reading cannot be the capacity. It stays below the binary one.
  for (const gpu_spec& g : cat::all_gpus) {
    INFO(std::string(g.name.view()));
    if (g.memory_usable.value == 0) continue;
    CHECK(g.memory_usable.value < g.memory.value);
    // GDDR6 parts with ECC on give up 1/16 of the memory to it (T4: 15,109 of 16,384 MiB), and
    // the driver reserves a little more; nothing reserves more than 10%.
    CHECK(g.memory_usable.value > 0.9 * g.memory.value);
    const std::string_view type = g.memory_type.view();
    if (type.substr(0, 3) == "HBM") CHECK(g.memory_usable.in(u::B) > g.memory.in(u::GiB) * 1e9);
    CHECK(g.plannable_memory().value == g.memory_usable.value);
  }
  CHECK(cat::h100_nvl.plannable_memory().value == cat::h100_nvl.memory.value);  // total unknown
}

TEST_CASE("sparse figures are the dense ones times the sparsity factor", "[catalog][gpus]") {
  // The datasheets headline the 2:4-sparse figure: H100 SXM BF16 "1,979 TFLOPS*", FP8 "3,958*";
  // A100 BF16 "624*"; L40S FP8 "1,466*". Dense fields are half; the factor is separate.
  CHECK(cat::h100_sxm.peak.sparse_tensor(precision::bf16).in(u::TFLOPS) == 1979.0);
  CHECK(cat::h100_sxm.peak.sparse_tensor(precision::fp8).in(u::TFLOPS) == 3958.0);
  CHECK(cat::a100_sxm_80gb.peak.sparse_tensor(precision::bf16).in(u::TFLOPS) == 624.0);
  CHECK(cat::l40s.peak.sparse_tensor(precision::fp8).in(u::TFLOPS) == 1466.0);
  // No structured sparsity before Ampere, and none for FP32/FP64 vector math.
  CHECK(cat::v100_sxm2_32gb.peak.sparsity_factor == 1.0);
  CHECK(cat::h100_sxm.peak.sparse_tensor(precision::fp32).in(u::TFLOPS) == 67.0);
  // Tensor-core and vector rates are distinct: H100 FP64 vector 34, FP64 tensor 67.
  CHECK(cat::h100_sxm.peak.fp64_vector.in(u::TFLOPS) == 34.0);
  CHECK(cat::h100_sxm.peak.tensor(precision::fp64).in(u::TFLOPS) == 67.0);
  // Parts without a format report zero, never a borrowed figure.
  CHECK(cat::a100_sxm_80gb.peak.tensor(precision::fp8).value == 0.0);
  CHECK(cat::t4.peak.tensor(precision::bf16).value == 0.0);
  CHECK(cat::b200.peak.tensor(precision::fp4).in(u::TFLOPS) == 9000.0);
}

TEST_CASE("links store the per-direction figure of the bidirectional datasheet total",
          "[catalog][gpus]") {
  // NVLink figures in datasheets are bidirectional totals per GPU: A100 600, H100 900, B200 1,800
  // GB/s; one direction is half (ml-engineering's peer-to-peer table: 300, 450, 900 GB/s).
  CHECK(cat::a100_sxm_80gb.gpu_link.unidirectional().in(u::GBps) == 300.0);
  CHECK(cat::h100_sxm.gpu_link.unidirectional().in(u::GBps) == 450.0);
  CHECK(cat::h100_sxm.gpu_link.bidirectional().in(u::GBps) == 900.0);
  CHECK(cat::b200.gpu_link.unidirectional().in(u::GBps) == 900.0);
  CHECK(cat::h100_sxm.gpu_link.links == 18);
  // MI300X: 7 xGMI links x 128 GB/s bidirectional = 896; 64 GB/s each way per peer.
  CHECK(cat::mi300x.gpu_link.unidirectional().in(u::GBps) == 448.0);
  CHECK(cat::mi300x.gpu_link.unidirectional().in(u::GBps) / cat::mi300x.gpu_link.links == 64.0);
  CHECK(cat::l40s.gpu_link.kind == link_kind::none);
  // PCIe: "PCIe Gen5 128 GB/s" (H100) and "Gen4 64 GB/s" (A100) are bidirectional x16 totals
  // before encoding; after 128b/130b the per-direction rate is 63.0 and 31.5 GB/s (2% below).
  CHECK(cat::h100_sxm.pcie.bidirectional().in(u::GBps) == Approx(128.0).epsilon(0.02));
  CHECK(cat::a100_sxm_80gb.pcie.per_direction().in(u::GBps) == Approx(31.5).epsilon(0.001));
}

TEST_CASE("every catalog GPU validates and is found by each of its names", "[catalog][gpus]") {
  for (const gpu_spec& g : cat::all_gpus) {
    INFO(std::string(g.name.view()));
    CHECK_NOTHROW(g.validate());
    CHECK(cat::find_gpu(g.name) == &g);
    for (const name_string& a : g.aliases)
      if (!a.empty()) CHECK(cat::find_gpu(a) == &g);  // no alias is shared between two GPUs
    CHECK(g.peak.tensor(precision::fp32).value > 0.0);
  }
}

TEST_CASE("GPUs are found by short names and by the driver's product names", "[catalog][lookup]") {
  CHECK(cat::find_gpu("h100") == cat::find_gpu("H100-SXM5-80GB"));
  CHECK(cat::find_gpu("H100 SXM") == cat::find_gpu("h100-sxm"));
  CHECK(cat::find_gpu("NVIDIA H100 80GB HBM3")->name == std::string_view("H100-SXM5-80GB"));
  CHECK(cat::find_gpu("NVIDIA A100-SXM4-80GB")->memory.in(u::GiB) == 80.0);
  CHECK(cat::find_gpu("a100")->name == std::string_view("A100-SXM4-80GB"));
  CHECK(cat::find_gpu("Tesla T4")->architecture == std::string_view("Turing"));
  // Older drivers drop the "NVIDIA " prefix ("A100-SXM4-40GB", "GeForce RTX 3090").
  CHECK(cat::find_gpu("A100-SXM4-40GB") == &cat::all_gpus[0]);
  CHECK(cat::find_gpu("GeForce RTX 3090")->sm_count == 82);
  CHECK(cat::find_gpu("mi300x")->maker == vendor::amd);
  CHECK(cat::find_gpu("h1000") == nullptr);
  CHECK(cat::find_gpu("") == nullptr);
  const auto near = cat::nearest_gpu_names("h1000");
  CHECK(near[0] == "H100-SXM5-80GB");
  const auto l40 = cat::nearest_gpu_names("L40X");
  CHECK(l40[0] == "L40S-48GB");
}

TEST_CASE("gpu_spec.validate names the offending field", "[catalog][validate]") {
  gpu_spec g = cat::h100_sxm;
  g.memory = 0 * u::B;
  CHECK(thrown_message(g) == "gpuplan: gpu_spec.memory must be positive and finite (got 0)");
  g = cat::h100_sxm;
  g.memory = std::nan("") * u::B;
  CHECK(thrown_message(g) == "gpuplan: gpu_spec.memory must be positive and finite (got nan)");
  g = cat::h100_sxm;
  g.memory_usable = 81 * u::GiB;
  CHECK(thrown_message(g) ==
        "gpuplan: gpu_spec.memory_usable must not exceed gpu_spec.memory (got 86973087744, "
        "85899345920)");
  g = cat::h100_sxm;
  g.memory_bandwidth = -1 * u::GBps;
  CHECK(thrown_message(g) ==
        "gpuplan: gpu_spec.memory_bandwidth must be positive and finite (got -1000000000)");
  g = cat::h100_sxm;
  g.peak.bf16_tensor = -989 * u::TFLOPS;
  CHECK(thrown_message(g) ==
        "gpuplan: gpu_spec.peak.bf16_tensor must be finite and not negative (got "
        "-989000000000000)");
  g = cat::h100_sxm;
  g.peak.sparsity_factor = 0.5;
  CHECK(thrown_message(g) ==
        "gpuplan: gpu_spec.peak.sparsity_factor must be at least 1 (1: none) (got 0.5)");
  g = cat::h100_sxm;
  g.pcie.generation = 7;
  CHECK(thrown_message(g) ==
        "gpuplan: pcie_spec.generation must be 3, 4, 5 or 6 (0: unknown) (got 7)");
  g = cat::h100_sxm;
  g.gpu_link.per_direction = {};
  CHECK(thrown_message(g) ==
        "gpuplan: link_spec.per_direction must be positive for a link (got 0)");
  g = cat::h100_sxm;
  g.name = {};
  CHECK(thrown_message(g) == "gpuplan: gpu_spec.name must not be empty");
}

TEST_CASE("nodes keep per-NIC and per-GPU network bandwidth apart", "[catalog][nodes]") {
  // DGX H100: 8 single-port ConnectX-7 at 400 Gb/s for compute = 3.2 Tb/s per node = 400 GB/s;
  // one NIC per GPU, 50 GB/s each way per GPU.
  const node_spec& h = cat::dgx_h100;
  CHECK(h.nics.per_nic.in(u::Gbps) == 400.0);
  CHECK(h.nic_per_node().in(u::Gbps) == 3200.0);
  CHECK(h.nic_per_node().in(u::GBps) == 400.0);
  CHECK(h.nic_per_gpu().in(u::GBps) == 50.0);
  CHECK(h.per_gpu().in(u::GBps) == 50.0);
  // DGX A100: 8 x 200 Gb/s HDR: 25 GB/s per GPU.
  CHECK(cat::dgx_a100.nic_per_gpu().in(u::GBps) == 25.0);
  // The 2-8-5-200 PCIe pattern: 200 Gb/s east-west per GPU from 4 x 400 Gb/s NICs.
  CHECK(cat::pcie_8x_l40s.nic_per_gpu().in(u::Gbps) == 200.0);
  CHECK(cat::pcie_8x_l40s.fabric == intra_node_fabric::pcie);
  // Scale-up per GPU is NVLink per direction (H100: 450 GB/s), about 9x the NIC share.
  CHECK(h.scale_up_per_gpu.in(u::GBps) == 450.0);
  CHECK(h.gpu_memory().in(u::GiB) == 640.0);
  for (const node_spec& n : cat::all_nodes) {
    INFO(std::string(n.name.view()));
    CHECK_NOTHROW(n.validate());
    CHECK(cat::find_node(n.name) == &n);
    CHECK(n.scale_up_per_gpu.value > 0.0);
  }
  CHECK(cat::find_node("DGX H100") == &cat::all_nodes[1]);
  CHECK(cat::find_node("dgx-h200") == &cat::all_nodes[2]);
  CHECK(cat::nearest_node_names("dgx-b2000")[0] == "DGX-B200");
}

TEST_CASE("clusters multiply nodes and check their fabric", "[catalog][nodes]") {
  cluster_spec c{.node = cat::dgx_h100, .nodes = 32};
  CHECK(c.gpus() == 256);
  CHECK(c.injection_per_gpu().in(u::GBps) == 50.0);
  // Non-blocking fat tree: half the nodes' injection crosses the bisection.
  CHECK(c.bisection().in(u::GBps) == 16 * 400.0);
  CHECK_NOTHROW(c.validate());
  c.nodes = 0;
  CHECK(thrown_message(c) == "gpuplan: cluster_spec.nodes must be positive (got 0)");
  c.nodes = 2;
  c.fabric = inter_node_fabric::none;
  CHECK(thrown_message(c) ==
        "gpuplan: cluster_spec.fabric must not be none with more than one node (got 2)");
  node_spec n = cat::dgx_a100;
  n.gpus = 0;
  CHECK(thrown_message(n) == "gpuplan: node_spec.gpus must be positive (got 0)");
  n = cat::dgx_a100;
  n.nics.per_nic = {};
  CHECK(thrown_message(n) ==
        "gpuplan: node_spec.nics.per_nic must be positive when nics.count > 0 (got 0)");
}
