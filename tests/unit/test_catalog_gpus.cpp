// Catalog GPUs and nodes: datasheet figures cross-checked against an independent transcription,
// units conventions (GiB capacity, dense vs sparse, per-direction links, per-NIC bandwidth),
// lookup, validation.
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/models/collectives.hpp>
#include <gpuplan/plan/candidates.hpp>
#include <gpuplan/plan/fit.hpp>
#include <gpuplan/specs/network.hpp>

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

/// Whether find_gpu's answer (a pointer into all_gpus) is the entry `g`.
bool same_gpu(const gpu_spec* found, const gpu_spec& g) {
  return found != nullptr && found->name == g.name;
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

TEST_CASE("2026 parts carry their datasheet figures", "[catalog][gpus][2026]") {
  // Each row: the figures the source prints (per GPU; 8- or 72-GPU totals divided), written here
  // independently of the catalog entry. Dense tensor TFLOPS (the sparse headline halved), memory
  // bandwidth GB/s, board power W, GPU-link total GB/s (bidirectional), SMs or CUs.
  //  B300:    [HGX] HGX B300: BF16 36 PF* / 8 / 2, FP8 72 PF* / 8 / 2, 8 TB/s, NVLink 1.8 TB/s;
  //           [B300-GK] FP4 13,125 dense; [VERDA] 1.1 kW in HGX; driver: 148 SMs
  //  GB200:   [GB-GK] 2,500 / 5,000 / 10,000 dense at 1,200 W; [NVL72] 576 TB/s / 72; 152 SMs
  //  GB300:   [NVL72] FP4 1,080 PF dense / 72, FP8 720 PF* / 72 / 2; [VERDA] BF16 2.5 PF, 1.4 kW
  //  H800:    [H800-DS] BF16 1,979* / 2, FP8 3,958* / 2, 3.35 TB/s, 700 W, NVLink 400 GB/s
  //  H20:     [H20-SPEC] FP16 148 dense, FP8 296, 4.0 TB/s, 400 W, NVLink 900 GB/s, 78 SMs
  //  A800:    [A800-DS] BF16 312, 2,039 GB/s, 400 W, NVLink 400 GB/s, 108 SMs
  //  RTX PRO 6000 Blackwell: [RTXPRO-DB] BF16 503.8, FP8 1.01 P, FP4 2.02 P; 1,792 GB/s; 600 W
  //  RTX 5090: [RTX50] FP4 3,352* / 2; FP16 (FP32 accumulate) 209.5; 1,792 GB/s; 575 W; 170 SMs
  //  MI325X:  [MI325X-DS] BF16 1,307.4, FP8 2,614.9, 6 TB/s, 1,000 W, 7 x 128 GB/s, 304 CUs
  //  MI355X:  [MI355X] FP8 "5 PF" (256 CUs x 8,192 x 2.4 GHz), FP4 "10 PF", 8 TB/s, 1,400 W, 256 CUs
  //  L20:     [L20-SPEC] 864 GB/s, 275 W, 92 SMs; tensor rates unknown (0)
  // Tolerance 0.5% on rates: the sources print some to three figures (RTX PRO 6000 "1.01" and
  // "2.02" PF; MI355X "5" and "10" PF are checked against the per-CU arithmetic instead); exact
  // on the rest.
  struct row {
    const gpu_spec& gpu;
    double bf16, fp8, fp4, bandwidth_gbps, tdp_w, link_bidir_gbps;
    int sms;
  };
  const row rows[] = {
      {cat::b300, 2250, 4500, 13125, 8000, 1100, 1800, 148},
      {cat::gb200, 2500, 5000, 10000, 8000, 1200, 1800, 152},
      {cat::gb300, 2500, 5000, 15000, 8000, 1400, 1800, 0},
      {cat::h800_sxm, 989.5, 1979, 0, 3350, 700, 400, 132},
      {cat::h20, 148, 296, 0, 4000, 400, 900, 78},
      {cat::a800_sxm_80gb, 312, 0, 0, 2039, 400, 400, 108},
      {cat::rtx_pro_6000_blackwell, 503.8, 1010, 2020, 1792, 600, 0, 188},
      {cat::rtx_5090, 209.5, 419, 1676, 1792, 575, 0, 170},
      {cat::mi325x, 1307.4, 2614.9, 0, 6000, 1000, 896, 304},
      {cat::mi355x, 2516.6, 5033.2, 10066.3, 8000, 1400, 1071, 256},
      {cat::l20, 0, 0, 0, 864, 275, 0, 92},
  };
  for (const row& r : rows) {
    INFO(std::string(r.gpu.name.view()));
    CHECK_NOTHROW(r.gpu.validate());
    CHECK(r.gpu.peak.tensor(precision::bf16).in(u::TFLOPS) == Approx(r.bf16).epsilon(5e-3));
    CHECK(r.gpu.peak.tensor(precision::fp8).in(u::TFLOPS) == Approx(r.fp8).epsilon(5e-3));
    CHECK(r.gpu.peak.tensor(precision::fp4).in(u::TFLOPS) == Approx(r.fp4).epsilon(5e-3));
    CHECK(r.gpu.memory_bandwidth.in(u::GBps) == r.bandwidth_gbps);
    CHECK(r.gpu.tdp.in(u::W) == r.tdp_w);
    CHECK(r.gpu.gpu_link.bidirectional().in(u::GBps) == Approx(r.link_bidir_gbps).epsilon(1e-12));
    CHECK(r.gpu.sm_count == r.sms);
    CHECK(same_gpu(cat::find_gpu(r.gpu.name), r.gpu));
  }
  // Approx(0) accepts only zero: the parts without an FP8 or FP4 path report none.
  CHECK(cat::a800_sxm_80gb.peak.fp8_tensor.value == 0.0);
  CHECK(cat::h20.peak.fp4_tensor.value == 0.0);
}

TEST_CASE("2026 capacities: exact bytes and each datasheet's GB", "[catalog][gpus][2026]") {
  // B300: NVIDIA's "288 GB" is 270 GiB enabled (HGX B300: 2.1 TB over 8); the driver's 275,040
  // MiB is 288.4e9 bytes, between 270e9 and 270 GiB, as the B200's 182,631 MiB sits under 180 GiB.
  CHECK(cat::b300.memory.in(u::B) == 270.0 * 1073741824.0);  // 289,910,292,480 bytes
  CHECK(cat::b300.memory_usable.in(u::B) > 270e9);
  CHECK(cat::b300.memory_usable.in(u::B) < cat::b300.memory.in(u::B));
  // GB200: 13.4 TB / 72 = 186 "GB" (MLPerf's "GB200-186GB"), 189,471 MiB reported.
  CHECK(cat::gb200.memory.in(u::GiB) == 186.0);
  CHECK(cat::gb200.memory_usable.in(u::MiB) == 189471.0);
  // GB300: 288 GiB; the driver reports 284,208 MiB = 298.0e9 bytes, more than 288e9.
  CHECK(cat::gb300.memory.in(u::GiB) == 288.0);
  CHECK(cat::gb300.memory_usable.in(u::B) > 288e9);
  // HBM stacks and GDDR chips are binary: H20 96 GB = 6 x 16 GiB; MI325X 256 GB = 8 x 32 GiB;
  // MI355X 288 GB = 8 x 36 GiB; RTX PRO 6000 96 GB = 32 x 3 GiB GDDR7; RTX 5090 32 GB.
  CHECK(cat::h20.memory.in(u::B) == 96.0 * 1073741824.0);
  CHECK(cat::h20.memory_usable.in(u::MiB) == 97871.0);  // nvidia-smi, > 96e9 B
  CHECK(cat::h800_sxm.memory_usable.in(u::MiB) == 81559.0);  // nvidia-smi, as the H100's
  CHECK(cat::mi325x.memory.in(u::GiB) == 256.0);
  CHECK(cat::mi355x.memory.in(u::GiB) == 288.0);
  CHECK(cat::rtx_pro_6000_blackwell.memory.in(u::GiB) == 96.0);
  CHECK(cat::rtx_pro_6000_blackwell.plannable_memory().in(u::MiB) == 97343.0);  // torch total
  CHECK(cat::rtx_5090.plannable_memory().in(u::MiB) == 32607.0);                // nvidia-smi
  CHECK(cat::h800_sxm.memory.value == cat::h100_sxm.memory.value);
  CHECK(cat::a800_sxm_80gb.memory.value == cat::a100_sxm_80gb.memory.value);
}

TEST_CASE("2026 parts: sparse headlines, export cuts and unknown figures", "[catalog][gpus][2026]") {
  // [NVL72] GB200 NVL72: FP4 1,440 PF* and FP8 720 PF* over 72 GPUs = 20,000 and 10,000 sparse.
  CHECK(cat::gb200.peak.sparse_tensor(precision::fp4).in(u::TFLOPS) == 20000.0);
  CHECK(cat::gb200.peak.sparse_tensor(precision::fp8).in(u::TFLOPS) == 10000.0);
  // [H800-DS] and [MI325X-DS] sparse headlines.
  CHECK(cat::h800_sxm.peak.sparse_tensor(precision::bf16).in(u::TFLOPS) == 1979.0);
  CHECK(cat::mi325x.peak.sparse_tensor(precision::fp8).in(u::TFLOPS) == Approx(5229.8));
  // The export parts: H800 and A800 keep the tensor rates of the H100 and A100 and lose NVLink
  // (400 GB/s: 200 each way) and, on H800, FP64 (1 TFLOPS); H20 keeps NVLink and loses 85% of
  // the tensor rate (148 of 989.5).
  CHECK(cat::h800_sxm.peak.bf16_tensor.value == cat::h100_sxm.peak.bf16_tensor.value);
  CHECK(cat::h800_sxm.gpu_link.unidirectional().in(u::GBps) == 200.0);
  CHECK(cat::h800_sxm.peak.tensor(precision::fp64).in(u::TFLOPS) == 1.0);
  CHECK(cat::a800_sxm_80gb.gpu_link.unidirectional().in(u::GBps) == 200.0);
  CHECK(cat::a800_sxm_80gb.peak.bf16_tensor.value == cat::a100_sxm_80gb.peak.bf16_tensor.value);
  CHECK(cat::h20.gpu_link.bidirectional().value == cat::h100_sxm.gpu_link.bidirectional().value);
  CHECK(cat::h20.peak.bf16_tensor.in(u::TFLOPS) / cat::h100_sxm.peak.bf16_tensor.in(u::TFLOPS) ==
        Approx(0.15).epsilon(0.01));
  // Blackwell Ultra cut INT8 ([HGX] 2 POPS* over 8 GPUs) and FP64 (10 TFLOPS over 8).
  CHECK(cat::b300.peak.int8_tensor.in(u::TFLOPS) == 125.0);
  CHECK(cat::b300.peak.tensor(precision::fp64).in(u::TFLOPS) == 1.25);
  // GeForce halves FP32-accumulate tensor math; the professional RTX PRO does not.
  CHECK(cat::rtx_5090.peak.bf16_tensor.in(u::TFLOPS) * 8 ==
        cat::rtx_5090.peak.fp4_tensor.in(u::TFLOPS));
  CHECK(cat::rtx_pro_6000_blackwell.peak.bf16_tensor.in(u::TFLOPS) * 4 ==
        Approx(cat::rtx_pro_6000_blackwell.peak.fp4_tensor.in(u::TFLOPS)));
  // Figures no source gave are 0 (unknown), never borrowed.
  CHECK(cat::l20.peak.tensor(precision::bf16).value == 0.0);
  CHECK(cat::gb300.peak.tensor(precision::fp64).value == 0.0);
  CHECK(cat::mi355x.peak.tensor(precision::tf32).value == 0.0);
  CHECK(cat::a800_sxm_80gb.memory_usable.value == 0.0);
}

TEST_CASE("2026 parts are found by the names people type", "[catalog][lookup][2026]") {
  CHECK(same_gpu(cat::find_gpu("b300"), cat::b300));
  CHECK(same_gpu(cat::find_gpu("NVIDIA B300 SXM6 AC"), cat::b300));  // nvidia-smi's name
  CHECK(same_gpu(cat::find_gpu("gb200"), cat::gb200));
  CHECK(same_gpu(cat::find_gpu("NVIDIA GB300"), cat::gb300));
  CHECK(same_gpu(cat::find_gpu("h20"), cat::h20));
  CHECK(same_gpu(cat::find_gpu("H800"), cat::h800_sxm));
  CHECK(same_gpu(cat::find_gpu("a800"), cat::a800_sxm_80gb));
  CHECK(same_gpu(cat::find_gpu("rtx-5090"), cat::rtx_5090));
  CHECK(same_gpu(cat::find_gpu("RTX 5090"), cat::rtx_5090));
  CHECK(same_gpu(cat::find_gpu("NVIDIA GeForce RTX 5090"), cat::rtx_5090));
  CHECK(same_gpu(cat::find_gpu("rtx-pro-6000"), cat::rtx_pro_6000_blackwell));
  CHECK(same_gpu(cat::find_gpu("NVIDIA RTX PRO 6000 Blackwell Server Edition"),
                 cat::rtx_pro_6000_blackwell));
  CHECK(same_gpu(cat::find_gpu("mi355x"), cat::mi355x));
  CHECK(same_gpu(cat::find_gpu("MI325X"), cat::mi325x));
  CHECK(same_gpu(cat::find_gpu("l20"), cat::l20));
  CHECK(cat::nearest_gpu_names("b3000")[0] == "B300-SXM-288GB");
  CHECK(cat::find_node("gb200-nvl72") == &cat::all_nodes[6]);
  CHECK(cat::find_node("GB300 NVL72") == &cat::all_nodes[7]);
  CHECK(cat::find_node("hgx-b300") == &cat::all_nodes[5]);
}

TEST_CASE("an NVL72 rack is one 72-GPU NVLink domain", "[catalog][nodes][2026]") {
  // [NVL72] 72 GPUs, NVLink 5 at 1.8 TB/s per GPU bidirectional (900 GB/s each way): 130 TB/s.
  for (const node_spec* n : {&cat::gb200_nvl72, &cat::gb300_nvl72}) {
    INFO(std::string(n->name.view()));
    CHECK_NOTHROW(n->validate());
    CHECK(n->gpus == 72);
    CHECK(n->fabric == intra_node_fabric::nvswitch);
    CHECK(n->scale_up_per_gpu.in(u::GBps) == 900.0);
    CHECK(2.0 * n->gpus * n->scale_up_per_gpu.in(u::GBps) == Approx(130e3).epsilon(0.01));
    CHECK(n->gpu.gpu_link.max_peers == 71);
    // tensor and expert parallelism may span the rack: the planner's NVLink domain is 72
    CHECK(candidate_bounds::for_node(*n).nvlink_domain == 72);
    // NVLink SHARP inside the domain (Blackwell behind NVSwitch)
    CHECK(intra_node_tier(*n).reduction == in_network_reduction::nvls);
    CHECK(cat::node_carrying(n->gpu)->name == n->name);
  }
  // one NIC per GPU: 400 Gb/s on GB200 ([MLPERF-GB200]), 800 Gb/s on GB300 ([NVL72])
  CHECK(cat::gb200_nvl72.nic_per_gpu().in(u::Gbps) == 400.0);
  CHECK(cat::gb300_nvl72.nic_per_gpu().in(u::Gbps) == 800.0);
  CHECK(cat::gb300_nvl72.max_power.in(u::kW) == 142.0);  // [NVL72-RA]
  CHECK(cat::gb200_nvl72.gpu_memory().in(u::GiB) == 72 * 186.0);
  // HGX/DGX B300: 8 GPUs, 1.8 TB/s NVLink, ConnectX-8 at 800 Gb/s per GPU ([HGX] 1.6 TB/s).
  CHECK(cat::dgx_b300.gpus == 8);
  CHECK(cat::dgx_b300.nic_per_gpu().in(u::Gbps) == 800.0);
  CHECK(2.0 * cat::dgx_b300.nic_per_node().in(u::GBps) == 1600.0);
  CHECK(cat::node_carrying(cat::b300)->name == std::string_view("DGX-B300"));
  CHECK(candidate_bounds::for_node(cat::dgx_b300).nvlink_domain == 8);
  // The planner grows tensor parallelism to the widest power of two inside the domain: 64 of 72
  // on an NVL72, 8 (the defaults, unchanged) on an 8-GPU node.
  CHECK(candidate_bounds::for_node(cat::gb200_nvl72).tp_growth == 64);
  CHECK(candidate_bounds::for_node(cat::gb200_nvl72).combined_tp_growth == 64);
  CHECK(candidate_bounds::for_node(cat::dgx_b300).tp_growth == candidate_bounds{}.tp_growth);
  CHECK(candidate_bounds::for_node(cat::dgx_b200).combined_tp_growth ==
        candidate_bounds{}.combined_tp_growth);
}

TEST_CASE("the fit's advice may put tensor parallelism across an NVL72", "[catalog][nodes][2026]") {
  // Llama 3.1 405B, full training on one GB200: the tensor-parallel option grows to tp 8 with
  // the default bounds (one 8-GPU NVLink domain) and past it with the rack's.
  const training_config c{.recompute = recompute_mode::full, .micro_batch = 1, .seq = 4096};
  const fit_report eight = training_fit(cat::llama31_405b, cat::gb200, {}, c);
  const fit_report rack = training_fit(cat::llama31_405b, cat::gb200, {}, c, {}, cat::all_gpus,
                                       candidate_bounds::for_node(cat::gb200_nvl72));
  auto widest_tp = [](const fit_report& r) {
    int w = 1;
    for (const advice& a : r.advice_list())
      if (a.kind == advice_kind::more_gpus && a.layout.tp > w) w = a.layout.tp;
    return w;
  };
  CHECK(widest_tp(eight) == 8);
  CHECK(widest_tp(rack) > 8);
  CHECK(widest_tp(rack) <= 64);
}

TEST_CASE("expert all-to-all over 64 GPUs stays on NVLink inside an NVL72", "[catalog][nodes][2026]") {
  // 64 ranks: one rack of GB200 NVL72 (NVLink only) against 8 DGX B200 (InfiniBand between).
  const collective_group rack = make_group(cat::gb200_nvl72, 64);
  const collective_group hgx = make_group(cat::dgx_b200, 64);
  CHECK_FALSE(rack.crosses_nodes());
  CHECK(rack.nodes() == 1);
  CHECK(hgx.crosses_nodes());
  CHECK(hgx.nodes() == 8);
  const data_size payload = 256 * u::MiB;
  const collective_cost on_rack = collective_time(collective_kind::all_to_all, payload, rack);
  const collective_cost on_ib = collective_time(collective_kind::all_to_all, payload, hgx);
  CHECK_FALSE(on_rack.crosses_nodes);
  CHECK(on_rack.inter.value == 0.0);
  // NVLink (900 GB/s each way) against 50 GB/s of NIC per GPU: several times faster
  CHECK(on_rack.total.value * 4.0 < on_ib.total.value);
  // 73 GPUs spill onto a second rack
  CHECK(make_group(cat::gb200_nvl72, 73).nodes() == 2);
}

TEST_CASE("published prices of the 2026 parts", "[catalog][prices][2026]") {
  // kaelresearch.com "GPU Economics" (February 2026 CoreWeave on-demand list): GB200 NVL72 by
  // the 4-GPU slice $42.00/h, RTX PRO 6000 8x $20.00/h. Per GPU-hour: $10.50 and $2.50.
  CHECK(cat::coreweave_gb200_nvl72.on_demand.in(u::usd_per_h) == Approx(10.50).epsilon(1e-12));
  CHECK(cat::coreweave_rtx_pro_6000.on_demand.in(u::usd_per_h) == Approx(2.50).epsilon(1e-12));
  // each names a catalog GPU, so `gpuplan cost --gpu gb200` finds it
  CHECK(same_gpu(cat::find_gpu(cat::coreweave_gb200_nvl72.gpu.view()), cat::gb200));
  CHECK(same_gpu(cat::find_gpu(cat::coreweave_rtx_pro_6000.gpu.view()),
                 cat::rtx_pro_6000_blackwell));
}

TEST_CASE("the H100 NVL borrows the figures of its own die, the H100 SXM's") {
  // the same GH100 die with HBM3: its fp8 MAMF is the H100 SXM's, not the H200's (HBM3e)
  CHECK(catalog::h100_nvl.kernels.matmul_8bit.fraction ==
        catalog::h100_sxm.kernels.matmul_8bit.fraction);
  CHECK(catalog::h100_nvl.kernels.matmul_16bit.fraction ==
        catalog::h100_sxm.kernels.matmul_16bit.fraction);
  CHECK_FALSE(catalog::h100_nvl.kernels.matmul_8bit.measured);
  CHECK(std::string_view(catalog::h100_nvl.kernels.matmul_8bit.source) == "fp8 MAMF of the H100 SXM");
}
