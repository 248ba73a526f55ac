// gpuplan/catalog/nodes.hpp: reference servers.
//
// NIC figures are the compute (east-west) fabric only: storage and management NICs are left
// out. Each NIC's line rate is stored per NIC; node_spec::nic_per_gpu() divides the node's total
// by its GPUs.
//
// Sources:
//  [DGXA100-DS] NVIDIA DGX A100 datasheet (DGX A100 640GB column) and DGX A100 User Guide,
//               "Hardware Overview": 8x single-port ConnectX-6 HDR 200 Gb/s for compute
//  [DGXH100-DS] NVIDIA DGX H100 datasheet and DGX H100/H200 User Guide, "Hardware Overview":
//               4 OSFP ports serving 8x single-port ConnectX-7 VPI, up to 400 Gb/s each
//  [HGX]        nvidia.com/en-us/data-center/hgx (HGX H200 8-GPU: NVLink 900 GB/s per GPU,
//               networking up to 400 Gb/s per GPU with ConnectX-7 / BlueField-3)
//  [DGXB200-DS] NVIDIA DGX B200 datasheet: 8x B200, 1,440 GB GPU memory, NVLink 14.4 TB/s total,
//               4 OSFP ports serving 8x single-port ConnectX-7 VPI up to 400 Gb/s, 2 TB system
//               memory, 8x 3.84 TB NVMe U.2 internal storage, ~14.3 kW
//  [ERA]        NVIDIA Enterprise Reference Architecture, "PCIe Optimized 2-8-5-200": 2 CPU
//               sockets, 8 PCIe GPUs, 5 network adapters (4 east-west for compute at 400 Gb/s,
//               1 north-south), 200 Gb/s of east-west bandwidth per GPU
//  [NVCERT]     NVIDIA-Certified Systems Configuration Guide: system memory at least twice the
//               total GPU memory
//  [HGX]        (B300) nvidia.com/en-us/data-center/hgx, HGX B300: 8 Blackwell Ultra GPUs through
//               NVLink 5 switches, 1.8 TB/s per GPU (14.4 TB/s in all), networking 1.6 TB/s
//               (fibermall.com transcription); acecloud.ai "NVIDIA HGX B300": 8x ConnectX-8
//               SuperNICs on the baseboard, up to 800 Gb/s per GPU
//  [DSV3-HW]    DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", arXiv:2412.19437, Sec. 3.1 and
//               3.2.2: H800 nodes of 8 GPUs on NVLink and NVSwitch, nodes joined by InfiniBand,
//               "IB (50 GB/s)" per GPU across nodes; the H800's NVLink is 400 GB/s bidirectional
//               (its datasheet; Sec. 3.2.2 counts 160 GB/s achieved)
//  [NVL72]      nvidia.com GB200 NVL72 / GB300 NVL72: 72 GPUs and 36 Grace CPUs in one rack, one
//               NVLink 5 domain through 9 NVLink switch trays, 130 TB/s (= 72 x 1.8 TB/s), 17 TB
//               LPDDR5X (36 x 480 GB, fibermall.com "In-depth analysis for NVIDIA GB200";
//               vendordeep.com for GB300); GB300: a ConnectX-8 SuperNIC at 800 Gb/s per GPU
//               (vendordeep.com; glennklockwood.com: "72 ConnectX-8 NICs")
//  [NVL72-RA]   docs.nvidia.com enterprise-reference-architectures nvl72-ai-factory,
//               "System Hardware & Components": GB300 NVL72 compute tray of 4 GPUs and 2 Grace
//               CPUs with 4 ConnectX-8 HCAs; 9 NVSwitch trays; "Full rack requiring up to 142 kW"
//  [MLPERF-GB200] MLPerf Inference v6.1, Crusoe GB200-NVL72_GB200-186GB system description:
//               per 4-GPU compute tray, 4 BlueField-3 / ConnectX-7 adapters on InfiniBand (one per
//               GPU); ConnectX-7 runs at most 400 Gb/s (NDR)
#pragma once

#include <gpuplan/catalog/dgx_h100.hpp>
#include <gpuplan/catalog/gpus.hpp>
#include <gpuplan/specs/node.hpp>

#include <array>

namespace gpuplan::catalog {

inline constexpr node_spec dgx_a100{
    .name = "DGX-A100",
    .aliases = {"dgx-a100-640gb", "dgxa100"},
    .gpu = a100_sxm_80gb,  // [DGXA100-DS] 8x A100 80GB (640 GB total)
    .gpus = 8,
    .fabric = intra_node_fabric::nvswitch,  // [DGXA100-DS] 6x NVSwitch
    .scale_up_per_gpu = 300 * units::GBps,  // 600 GB/s bidirectional NVLink3 per GPU, halved
    .nics = {.count = 8, .per_nic = 200 * units::Gbps, .model = "ConnectX-6 HDR 200G"},
    .host_memory = 2 * units::TB,       // [DGXA100-DS] 2 TB system memory
    .local_storage = 30 * units::TB,    // [DGXA100-DS] 30 TB (8x 3.84 TB) U.2 NVMe
    .max_power = 6500 * units::W,       // [DGXA100-DS] 6.5 kW max
};

// dgx_h100, the default server of the cost models: catalog/dgx_h100.hpp (included above).


inline constexpr node_spec hgx_h200{
    .name = "HGX-H200",
    .aliases = {"hgx-h200-8gpu", "hgxh200", "dgx-h200"},
    .gpu = h200_sxm,  // [HGX] HGX H200 8-GPU
    .gpus = 8,
    .fabric = intra_node_fabric::nvswitch,
    .scale_up_per_gpu = 450 * units::GBps,  // [HGX] 900 GB/s bidirectional NVLink per GPU, halved
    .nics = {.count = 8, .per_nic = 400 * units::Gbps, .model = "ConnectX-7 / BlueField-3 400G"},
    .host_memory = {},    // set by the OEM server around the baseboard: unknown here
    .local_storage = {},  // likewise
    .max_power = {},
};

inline constexpr node_spec hgx_h800{
    .name = "HGX-H800",
    .aliases = {"hgx-h800-8gpu", "hgxh800", "dgx-h800"},
    .gpu = h800_sxm,  // [DSV3-HW] 8x H800 SXM5 80GB per node
    .gpus = 8,
    .fabric = intra_node_fabric::nvswitch,  // [DSV3-HW] NVLink and NVSwitch within nodes
    .scale_up_per_gpu = 200 * units::GBps,  // 400 GB/s bidirectional NVLink per GPU, halved
    // [DSV3-HW] 50 GB/s of InfiniBand per GPU: one 400 Gb/s NIC each
    .nics = {.count = 8, .per_nic = 400 * units::Gbps, .model = "InfiniBand 400G"},
    .host_memory = {},    // not published: unknown
    .local_storage = {},  // likewise
    .max_power = {},
};

inline constexpr node_spec dgx_b200{
    .name = "DGX-B200",
    .aliases = {"dgxb200", "hgx-b200", "dgx-b200-1440gb"},
    .gpu = b200,  // [DGXB200-DS] 8x B200, 1,440 GB total
    .gpus = 8,
    .fabric = intra_node_fabric::nvswitch,  // [DGXB200-DS] 2x NVSwitch (fifth-generation NVLink)
    .scale_up_per_gpu = 900 * units::GBps,  // 14.4 TB/s / 8 = 1.8 TB/s bidirectional, halved
    .nics = {.count = 8, .per_nic = 400 * units::Gbps, .model = "ConnectX-7 NDR 400G"},
    .host_memory = 2 * units::TB,        // [DGXB200-DS] 2 TB, configurable to 4 TB
    .local_storage = 30.72 * units::TB,  // [DGXB200-DS] 8x 3.84 TB NVMe U.2
    .max_power = 14300 * units::W,       // [DGXB200-DS] ~14.3 kW max
};

/// A generic 8-GPU PCIe server (NVIDIA-Certified "2-8-5-200" pattern) with L40S cards: GPUs
/// talk over PCIe through the CPUs' root ports, no NVLink.
inline constexpr node_spec pcie_8x_l40s{
    .name = "PCIe-8xL40S",
    .aliases = {"pcie-server-8x-l40s", "8x-l40s", "ovx-l40s"},
    .gpu = l40s,
    .gpus = 8,
    .fabric = intra_node_fabric::pcie,
    .scale_up_per_gpu = l40s.pcie.per_direction(),  // PCIe Gen4 x16: 31.5 GB/s each way
    .nics = {.count = 4, .per_nic = 400 * units::Gbps, .model = "ConnectX-7 / BlueField-3 400G"},
    .host_memory = 2 * 8 * 48 * units::GiB,  // [NVCERT] twice the GPU memory: 768 GiB
    .local_storage = {},                     // depends on the server: unknown here
    .max_power = {},
    .pcie_islands = 2,  // [ERA] 2 CPU sockets: the 8 GPUs 4 + 4 behind the two CPUs
};

/// DGX B300 / HGX B300: 8 B300 through NVLink 5 switches, one ConnectX-8 per GPU. The host
/// (CPUs, memory, storage, power) of the DGX was not in the sources read: left unknown.
inline constexpr node_spec dgx_b300{
    .name = "DGX-B300",
    .aliases = {"hgx-b300", "dgxb300", "hgx-b300-8gpu", "dgx-b300-2300gb"},
    .gpu = b300,  // [HGX] 8x Blackwell Ultra
    .gpus = 8,
    .fabric = intra_node_fabric::nvswitch,  // [HGX] NVLink 5 switch
    .scale_up_per_gpu = 900 * units::GBps,  // [HGX] 1.8 TB/s bidirectional per GPU, halved
    // [HGX] 8 ConnectX-8 SuperNICs, 800 Gb/s per GPU (networking 1.6 TB/s: 8 x 800 Gb/s, both
    // directions)
    .nics = {.count = 8, .per_nic = 800 * units::Gbps, .model = "ConnectX-8 SuperNIC 800G"},
    .host_memory = {},    // not in the sources read
    .local_storage = {},  // not in the sources read
    .max_power = {},      // not in the sources read
};

/// GB200 NVL72: one rack of 18 compute trays (4 GPUs, 2 Grace CPUs each) joined by 9 NVLink
/// switch trays into one 72-GPU NVLink domain. As a node_spec the rack is the node: its GPUs are
/// the scale-up domain (tensor and expert parallelism may span all 72), its NICs the scale-out.
inline constexpr node_spec gb200_nvl72{
    .name = "GB200-NVL72",
    .aliases = {"dgx-gb200", "gb200-rack", "gb200-nvl72-rack"},
    .gpu = gb200,
    .gpus = 72,
    .fabric = intra_node_fabric::nvswitch,  // [NVL72] NVLink 5 through the NVLink switch trays
    .scale_up_per_gpu = 900 * units::GBps,  // [NVL72] 1.8 TB/s bidirectional per GPU, halved
    // [MLPERF-GB200] one ConnectX-7 class adapter per GPU at 400 Gb/s
    .nics = {.count = 72, .per_nic = 400 * units::Gbps, .model = "ConnectX-7 / BlueField-3 400G"},
    .host_memory = 36 * 480 * units::GB,  // [NVL72] 36 Grace CPUs x 480 GB LPDDR5X (17 TB)
    .local_storage = {},                  // not in the sources read
    .max_power = {},  // no NVIDIA figure read (secondary sources say ~120 kW): the power models
                      // use their node model (models/energy.hpp)
};

/// GB300 NVL72: the GB200 NVL72 rack with Blackwell Ultra GPUs and a ConnectX-8 per GPU.
inline constexpr node_spec gb300_nvl72{
    .name = "GB300-NVL72",
    .aliases = {"dgx-gb300", "gb300-rack", "gb300-nvl72-rack"},
    .gpu = gb300,
    .gpus = 72,
    .fabric = intra_node_fabric::nvswitch,  // [NVL72-RA] 9 NVSwitch trays, all 72 GPUs
    .scale_up_per_gpu = 900 * units::GBps,  // [NVL72-RA] 130 TB/s / 72 = 1.8 TB/s, halved
    // [NVL72-RA] 4 ConnectX-8 per 4-GPU tray; [NVL72] 800 Gb/s per GPU
    .nics = {.count = 72, .per_nic = 800 * units::Gbps, .model = "ConnectX-8 SuperNIC 800G"},
    .host_memory = 36 * 480 * units::GB,  // [NVL72] 36 Grace CPUs, 17 TB LPDDR5X
    .local_storage = {},                  // [NVL72-RA] 4 E1.S per tray, capacity not given
    .max_power = 142000 * units::W,       // [NVL72-RA] "Full rack requiring up to 142 kW"
};

/// Every node of the catalog.
inline constexpr std::array all_nodes{dgx_a100, dgx_h100,    hgx_h200,   dgx_b200,
                                       pcie_8x_l40s, dgx_b300, gb200_nvl72, gb300_nvl72,
                                       hgx_h800};

/// The catalog server that carries `gpu` as its own (DGX A100, DGX H100, HGX H200, DGX B200,
/// 8x L40S, DGX B300, and the GB200 / GB300 NVL72 racks for their GPUs): its catalog entry, or
/// nullptr when no catalog server carries it (as catalog::find answers a name).
constexpr const node_spec* node_carrying(const gpu_spec& gpu) {
  for (const node_spec& n : all_nodes)
    if (n.gpu.name == gpu.name) return &n;
  return nullptr;
}

/// The server `chassis` around another GPU: gpuplan::node_around (specs/node.hpp), named here too.
using gpuplan::node_around;

}  // namespace gpuplan::catalog
