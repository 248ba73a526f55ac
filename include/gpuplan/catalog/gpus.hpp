// gpuplan/catalog/gpus.hpp: datasheet figures of common training and inference GPUs.
//
// Conventions (see docs/catalog.md):
//  - Peak rates are DENSE. NVIDIA's datasheets headline 2:4-sparse figures (marked "*" there),
//    which are exactly 2x dense; the catalog stores dense and sets peak.sparsity_factor = 2.
//  - bf16/fp16 tensor rates are with FP32 accumulate (what training and inference use); on
//    GeForce cards the FP16-accumulate figure is twice that and is not used.
//  - Memory capacity is in exact bytes. HBM and GDDR capacities that vendors write as "80GB" are
//    binary: 80 GiB (5 HBM2e stacks of 16 GiB). memory_usable is the total the driver reports
//    (nvidia-smi "Total" / cudaMemGetInfo total, in MiB) with its source; zero where unknown.
//  - Memory bandwidth uses decimal units as the datasheets do (2,039 GB/s = 2.039e12 B/s).
//  - GPU-to-GPU links: datasheets quote the bidirectional total; link_spec stores per direction.
//
// Sources, cited by tag beside each figure:
//  [A100-DS]   NVIDIA A100 Tensor Core GPU datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4)
//  [GA100-WP]  NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), Table 1 and 3
//  [H100-DS]   NVIDIA H100 Tensor Core GPU datasheet (2023/2024 edition, SXM / PCIe / NVL columns)
//  [GH100-WP]  NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), Table 3
//  [H200-DS]   NVIDIA H200 Tensor Core GPU datasheet / nvidia.com/en-us/data-center/h200 (SXM, NVL)
//  [DGXB200-DS] NVIDIA DGX B200 datasheet (8-GPU totals, divided by 8 here) and
//              nvidia.com/en-us/data-center/hgx (HGX B200 column, 8-GPU totals)
//  [L4-DS]     NVIDIA L4 Tensor Core GPU datasheet
//  [L40S-DS]   NVIDIA L40S datasheet (lists dense and sparse figures side by side)
//  [A10-DS]    NVIDIA A10 Tensor Core GPU datasheet
//  [T4-DS]     NVIDIA T4 Tensor Core GPU datasheet
//  [V100-DS]   NVIDIA Tesla V100 GPU datasheet (SXM2 and PCIe columns)
//  [GA102-WP]  NVIDIA Ampere GA102 GPU Architecture whitepaper, Table 9 (GeForce RTX 3090)
//  [AD102-WP]  NVIDIA Ada GPU Architecture whitepaper, Appendix A Table 2 (GeForce RTX 4090)
//  [RTX6KADA-DS] NVIDIA RTX 6000 Ada Generation datasheet
//  [MI250X]    AMD Instinct MI250X product page / data sheet (amd.com)
//  [MI300X-DS] AMD Instinct MI300X data sheet (amd.com)
//  [MLE]       stas00/ml-engineering compute/accelerator/README.md (cross-check of the above)
#pragma once

#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/units.hpp>

#include <array>

namespace gpuplan::catalog {

// ------------------------------------------------------------------------------------ Ampere --

inline constexpr gpu_spec a100_sxm_40gb{
    .name = "A100-SXM4-40GB",
    .aliases = {"a100-40gb", "a100-sxm-40gb", "NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::sxm,
    .memory = 40 * units::GiB,  // [A100-DS] "40GB HBM2": 5 stacks x 8 GiB
    .memory_usable = {},
    .memory_type = "HBM2",
    .memory_bandwidth = 1555 * units::GBps,  // [A100-DS] 1,555 GB/s
    .peak =
        {
            .fp64_vector = 9.7 * units::TFLOPS,   // [A100-DS]
            .fp64_tensor = 19.5 * units::TFLOPS,  // [A100-DS]
            .fp32_vector = 19.5 * units::TFLOPS,  // [A100-DS]
            .tf32_tensor = 156 * units::TFLOPS,   // [A100-DS] 156 | 312*
            .bf16_tensor = 312 * units::TFLOPS,   // [A100-DS] 312 | 624*
            .fp16_tensor = 312 * units::TFLOPS,   // [A100-DS] 312 | 624*
            .fp8_tensor = {},                     // Ampere has no FP8
            .int8_tensor = 624 * units::TFLOPS,   // [A100-DS] 624 | 1,248* TOPS
            .fp4_tensor = {},
            .sparsity_factor = 2.0,  // [A100-DS] "* With sparsity"
        },
    .tdp = 400 * units::W,  // [A100-DS] SXM 400 W
    // [A100-DS] NVLink 600 GB/s (bidirectional); [GA100-WP] 12 third-generation NVLinks
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 12, 600 * units::GBps, 7),
    .pcie = {.generation = 4, .lanes = 16},  // [A100-DS] PCIe Gen4: 64 GB/s
    .sm_count = 108,                         // [GA100-WP] Table 1
    .boost_clock = 1410 * units::MHz,        // [GA100-WP] Table 1
};

inline constexpr gpu_spec a100_sxm_80gb{
    .name = "A100-SXM4-80GB",
    .aliases = {"a100", "a100-80gb", "a100-sxm", "a100-sxm-80gb", "NVIDIA A100-SXM4-80GB",
                "a100-sxm4-80gb"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::sxm,
    .memory = 80 * units::GiB,  // [A100-DS] "80GB HBM2e": 5 stacks x 16 GiB
    .memory_usable = {},
    .memory_type = "HBM2e",
    .memory_bandwidth = 2039 * units::GBps,  // [A100-DS] 2,039 GB/s
    .peak =
        {
            .fp64_vector = 9.7 * units::TFLOPS,   // [A100-DS]
            .fp64_tensor = 19.5 * units::TFLOPS,  // [A100-DS]
            .fp32_vector = 19.5 * units::TFLOPS,  // [A100-DS]
            .tf32_tensor = 156 * units::TFLOPS,   // [A100-DS] 156 | 312*
            .bf16_tensor = 312 * units::TFLOPS,   // [A100-DS] 312 | 624*
            .fp16_tensor = 312 * units::TFLOPS,   // [A100-DS] 312 | 624*
            .fp8_tensor = {},
            .int8_tensor = 624 * units::TFLOPS,  // [A100-DS] 624 | 1,248* TOPS
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 400 * units::W,  // [A100-DS] SXM 400 W
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 12, 600 * units::GBps, 7),
    .pcie = {.generation = 4, .lanes = 16},
    .sm_count = 108,
    .boost_clock = 1410 * units::MHz,
};

inline constexpr gpu_spec a100_pcie_40gb{
    .name = "A100-PCIe-40GB",
    .aliases = {"a100-pcie-40gb", "NVIDIA A100-PCIE-40GB", "a100-pcie4-40gb"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::pcie,
    .memory = 40 * units::GiB,  // [A100-DS] 40GB HBM2
    .memory_usable = {},
    .memory_type = "HBM2",
    .memory_bandwidth = 1555 * units::GBps,  // [A100-DS] 1,555 GB/s
    .peak =
        {
            .fp64_vector = 9.7 * units::TFLOPS,
            .fp64_tensor = 19.5 * units::TFLOPS,
            .fp32_vector = 19.5 * units::TFLOPS,
            .tf32_tensor = 156 * units::TFLOPS,
            .bf16_tensor = 312 * units::TFLOPS,
            .fp16_tensor = 312 * units::TFLOPS,
            .fp8_tensor = {},
            .int8_tensor = 624 * units::TFLOPS,
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },  // [A100-DS] same peak column as SXM
    .tdp = 250 * units::W,  // [A100-DS] PCIe 40GB 250 W
    // [A100-DS] "NVIDIA NVLink Bridge for 2 GPUs: 600 GB/s" (bidirectional), 12 links
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink_bridge, 12, 600 * units::GBps, 1),
    .pcie = {.generation = 4, .lanes = 16},  // [A100-DS] PCIe Gen4: 64 GB/s
    .sm_count = 108,
    .boost_clock = 1410 * units::MHz,  // [GA100-WP]
};

inline constexpr gpu_spec a100_pcie_80gb{
    .name = "A100-PCIe-80GB",
    .aliases = {"a100-pcie", "a100-pcie-80gb", "NVIDIA A100 80GB PCIe", "a100-80gb-pcie"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::pcie,
    .memory = 80 * units::GiB,  // [A100-DS] 80GB HBM2e
    .memory_usable = {},
    .memory_type = "HBM2e",
    .memory_bandwidth = 1935 * units::GBps,  // [A100-DS] PCIe 80GB: 1,935 GB/s
    .peak =
        {
            .fp64_vector = 9.7 * units::TFLOPS,
            .fp64_tensor = 19.5 * units::TFLOPS,
            .fp32_vector = 19.5 * units::TFLOPS,
            .tf32_tensor = 156 * units::TFLOPS,
            .bf16_tensor = 312 * units::TFLOPS,
            .fp16_tensor = 312 * units::TFLOPS,
            .fp8_tensor = {},
            .int8_tensor = 624 * units::TFLOPS,
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },  // [A100-DS]
    .tdp = 300 * units::W,  // [A100-DS] PCIe 80GB 300 W
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink_bridge, 12, 600 * units::GBps, 1),
    .pcie = {.generation = 4, .lanes = 16},
    .sm_count = 108,
    .boost_clock = 1410 * units::MHz,
};

// ------------------------------------------------------------------------------------ Hopper --

inline constexpr gpu_spec h100_sxm{
    .name = "H100-SXM5-80GB",
    .aliases = {"h100", "h100-sxm", "h100-sxm5", "NVIDIA H100 80GB HBM3", "h100-80gb"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::sxm,
    .memory = 80 * units::GiB,  // [H100-DS] "80GB" HBM3: 5 active stacks x 16 GiB
    .memory_usable = {},
    .memory_type = "HBM3",
    .memory_bandwidth = 3350 * units::GBps,  // [H100-DS] 3.35 TB/s
    .peak =
        {
            .fp64_vector = 34 * units::TFLOPS,     // [H100-DS] FP64 34
            .fp64_tensor = 67 * units::TFLOPS,     // [H100-DS] FP64 Tensor Core 67
            .fp32_vector = 67 * units::TFLOPS,     // [H100-DS] FP32 67
            .tf32_tensor = 494.5 * units::TFLOPS,  // [H100-DS] 989* / 2
            .bf16_tensor = 989.5 * units::TFLOPS,  // [H100-DS] 1,979* / 2
            .fp16_tensor = 989.5 * units::TFLOPS,  // [H100-DS] 1,979* / 2
            .fp8_tensor = 1979 * units::TFLOPS,    // [H100-DS] 3,958* / 2
            .int8_tensor = 1979 * units::TFLOPS,   // [H100-DS] 3,958* TOPS / 2
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 700 * units::W,  // [H100-DS] "Up to 700W (configurable)"
    // [H100-DS] NVLink 900 GB/s (bidirectional); [GH100-WP] 18 fourth-generation links
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 18, 900 * units::GBps, 7),
    .pcie = {.generation = 5, .lanes = 16},  // [H100-DS] PCIe Gen5: 128 GB/s
    .sm_count = 132,                         // [GH100-WP] Table 3, H100 SXM5
    .boost_clock = 1980 * units::MHz,        // [GH100-WP] Table 3 (max boost, non-tensor)
};

inline constexpr gpu_spec h100_pcie{
    .name = "H100-PCIe-80GB",
    .aliases = {"h100-pcie", "NVIDIA H100 PCIe", "h100-pcie-80gb"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::pcie,
    .memory = 80 * units::GiB,  // [H100-DS] 80GB HBM2e
    .memory_usable = {},
    .memory_type = "HBM2e",
    .memory_bandwidth = 2000 * units::GBps,  // [H100-DS] 2 TB/s
    .peak =
        {
            .fp64_vector = 26 * units::TFLOPS,     // [H100-DS]
            .fp64_tensor = 51 * units::TFLOPS,     // [H100-DS]
            .fp32_vector = 51 * units::TFLOPS,     // [H100-DS]
            .tf32_tensor = 378 * units::TFLOPS,    // [H100-DS] 756* / 2
            .bf16_tensor = 756.5 * units::TFLOPS,  // [H100-DS] 1,513* / 2
            .fp16_tensor = 756.5 * units::TFLOPS,  // [H100-DS] 1,513* / 2
            .fp8_tensor = 1513 * units::TFLOPS,    // [H100-DS] 3,026* / 2
            .int8_tensor = 1513 * units::TFLOPS,   // [H100-DS] 3,026* TOPS / 2
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 350 * units::W,  // [H100-DS] 300-350 W (configurable)
    // [H100-DS] NVLink bridge: 600 GB/s (bidirectional), pairs of cards
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink_bridge, 12, 600 * units::GBps, 1),
    .pcie = {.generation = 5, .lanes = 16},  // [H100-DS] PCIe Gen5: 128 GB/s
    .sm_count = 114,                         // [GH100-WP] Table 3, H100 PCIe
    .boost_clock = 1755 * units::MHz,        // [GH100-WP] Table 3
};

inline constexpr gpu_spec h100_nvl{
    .name = "H100-NVL-94GB",
    .aliases = {"h100-nvl", "NVIDIA H100 NVL", "h100nvl"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::nvl,
    .memory = 94 * units::GiB,  // [H100-DS] 94GB HBM3 (6 stacks x 16 GiB, 94 GiB enabled)
    .memory_usable = {},
    .memory_type = "HBM3",
    .memory_bandwidth = 3900 * units::GBps,  // [H100-DS] 3.9 TB/s
    .peak =
        {
            .fp64_vector = 30 * units::TFLOPS,       // [H100-DS]
            .fp64_tensor = 60 * units::TFLOPS,       // [H100-DS]
            .fp32_vector = 60 * units::TFLOPS,       // [H100-DS]
            .tf32_tensor = 417.5 * units::TFLOPS,    // [H100-DS] 835* / 2
            .bf16_tensor = 835.5 * units::TFLOPS,    // [H100-DS] 1,671* / 2
            .fp16_tensor = 835.5 * units::TFLOPS,    // [H100-DS] 1,671* / 2
            .fp8_tensor = 1670.5 * units::TFLOPS,    // [H100-DS] 3,341* / 2
            .int8_tensor = 1670.5 * units::TFLOPS,   // [H100-DS] 3,341* TOPS / 2
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 400 * units::W,  // [H100-DS] 350-400 W (configurable)
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink_bridge, 12, 600 * units::GBps, 1),
    .pcie = {.generation = 5, .lanes = 16},  // [H100-DS] PCIe Gen5: 128 GB/s
    .sm_count = 132,                         // full GH100 SXM5 configuration per [MLE]
    .boost_clock = 1785 * units::MHz,        // [MLE] / NVIDIA H100 NVL product brief
};

inline constexpr gpu_spec h200_sxm{
    .name = "H200-SXM-141GB",
    .aliases = {"h200", "h200-sxm", "NVIDIA H200", "h200-141gb"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::sxm,
    .memory = 141 * units::GiB,  // [H200-DS] 141GB HBM3e (6 stacks x 24 GiB, 141 GiB enabled)
    .memory_usable = {},
    .memory_type = "HBM3e",
    .memory_bandwidth = 4800 * units::GBps,  // [H200-DS] 4.8 TB/s
    .peak =
        {
            .fp64_vector = 34 * units::TFLOPS,     // [H200-DS]
            .fp64_tensor = 67 * units::TFLOPS,     // [H200-DS]
            .fp32_vector = 67 * units::TFLOPS,     // [H200-DS]
            .tf32_tensor = 494.5 * units::TFLOPS,  // [H200-DS] 989* / 2
            .bf16_tensor = 989.5 * units::TFLOPS,  // [H200-DS] 1,979* / 2
            .fp16_tensor = 989.5 * units::TFLOPS,  // [H200-DS] 1,979* / 2
            .fp8_tensor = 1979 * units::TFLOPS,    // [H200-DS] 3,958* / 2
            .int8_tensor = 1979 * units::TFLOPS,   // [H200-DS] 3,958* TOPS / 2
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 700 * units::W,  // [H200-DS] up to 700 W
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 18, 900 * units::GBps, 7),
    .pcie = {.generation = 5, .lanes = 16},  // [H200-DS] PCIe Gen5: 128 GB/s
    .sm_count = 132,
    .boost_clock = 1980 * units::MHz,
};

inline constexpr gpu_spec h200_nvl{
    .name = "H200-NVL-141GB",
    .aliases = {"h200-nvl", "NVIDIA H200 NVL"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::nvl,
    .memory = 141 * units::GiB,  // [H200-DS] 141GB HBM3e
    .memory_usable = {},
    .memory_type = "HBM3e",
    .memory_bandwidth = 4800 * units::GBps,  // [H200-DS] 4.8 TB/s
    .peak =
        {
            .fp64_vector = 30 * units::TFLOPS,       // [H200-DS]
            .fp64_tensor = 60 * units::TFLOPS,       // [H200-DS]
            .fp32_vector = 60 * units::TFLOPS,       // [H200-DS]
            .tf32_tensor = 417.5 * units::TFLOPS,    // [H200-DS] 835* / 2
            .bf16_tensor = 835.5 * units::TFLOPS,    // [H200-DS] 1,671* / 2
            .fp16_tensor = 835.5 * units::TFLOPS,    // [H200-DS] 1,671* / 2
            .fp8_tensor = 1670.5 * units::TFLOPS,    // [H200-DS] 3,341* / 2
            .int8_tensor = 1670.5 * units::TFLOPS,   // [H200-DS] 3,341* TOPS / 2
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 600 * units::W,  // [H200-DS] up to 600 W (configurable)
    // [H200-DS] "2- or 4-way NVIDIA NVLink bridge: 900GB/s per GPU" (bidirectional)
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink_bridge, 18, 900 * units::GBps, 3),
    .pcie = {.generation = 5, .lanes = 16},  // [H200-DS] PCIe Gen5: 128 GB/s
    .sm_count = 132,
    .boost_clock = {},
};

}  // namespace gpuplan::catalog

namespace gpuplan::catalog {

/// Every GPU of the catalog, in the order docs/catalog.md lists them.
inline constexpr std::array all_gpus{
    a100_sxm_40gb, a100_sxm_80gb, a100_pcie_40gb, a100_pcie_80gb, h100_sxm,
    h100_pcie,     h100_nvl,      h200_sxm,       h200_nvl,
};

}  // namespace gpuplan::catalog
