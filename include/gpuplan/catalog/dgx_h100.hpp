// gpuplan/catalog/dgx_h100.hpp: the DGX H100, alone.
//
// The default server of the cost and energy models (plan/cost.hpp's run_cost_inputs::node). It
// has a header of its own so that those headers do not compile every server and GPU of the
// catalog; catalog/nodes.hpp includes it and all_nodes lists it as before.
//
// Sources:
//  [DGXH100-DS] NVIDIA DGX H100 datasheet and DGX H100/H200 User Guide, "Hardware Overview":
//               4 OSFP ports serving 8x single-port ConnectX-7 VPI, up to 400 Gb/s each
#pragma once

#include <gpuplan/catalog/h100_sxm.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan::catalog {

inline constexpr node_spec dgx_h100{
    .name = "DGX-H100",
    .aliases = {"dgxh100", "dgx-h100-640gb"},
    .gpu = h100_sxm,  // [DGXH100-DS] 8x H100 SXM5 80GB
    .gpus = 8,
    .fabric = intra_node_fabric::nvswitch,  // [DGXH100-DS] 4x NVSwitch (third generation)
    .scale_up_per_gpu = 450 * units::GBps,  // 900 GB/s bidirectional NVLink4 per GPU, halved
    .nics = {.count = 8, .per_nic = 400 * units::Gbps, .model = "ConnectX-7 NDR 400G"},
    .host_memory = 2 * units::TB,       // [DGXH100-DS] 2 TB system memory
    .local_storage = 30 * units::TB,    // [DGXH100-DS] 30 TB (8x 3.84 TB) U.2 NVMe
    .max_power = 10200 * units::W,      // [DGXH100-DS] ~10.2 kW max
};

}  // namespace gpuplan::catalog
