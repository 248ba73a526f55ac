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
//  - Kernel efficiencies (gpu_spec::kernels): the published MAMF and HBM-copy measurements of
//    specs/kernel_efficiency.hpp, marked measured on the GPU they were measured on and borrowed
//    on its siblings; GPUs no measurement covers (Ada, Turing, Volta, CDNA2) leave them zero and
//    the models use their named defaults (models/kernels.hpp).
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
//  [MLE]       stas00/ml-engineering compute/accelerator/README.md (cross-check of the above;
//              its MAMF table gives gpu_spec::kernels)
//  [BW-TB]     NVIDIA Blackwell Architecture Technical Brief, HGX B200 column (per GPU, 1,000 W),
//              as tabulated at glennklockwood.com/garden/processors/B200
//  [DRV]       memory the CUDA runtime reports as the device total:
//              torch.cuda.get_device_properties(i).total_memory, printed in MiB
//              ("total_memory=81089MB"), as published in public logs and docs (it moves by a
//              few MiB with the driver version). nvidia-smi's "Total" column can be larger:
//              it may include memory the driver reserves. Where only nvidia-smi's figure is
//              published it is marked so.
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
    .memory_usable = 40536 * units::MiB,  // [DRV] torch/paddle total_memory=40536MB
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
    // [MLE] MAMF table (specs/kernel_efficiency.hpp): A100 SXM measured
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::a100_sxm_bf16, "bf16 MAMF of the A100 SXM"),
        },
};

inline constexpr gpu_spec a100_sxm_80gb{
    .name = "A100-SXM4-80GB",
    .aliases = {"a100", "a100-80gb", "a100-sxm", "a100-sxm-80gb", "NVIDIA A100-SXM4-80GB",
                "a100-sxm4-80gb"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::sxm,
    .memory = 80 * units::GiB,  // [A100-DS] "80GB HBM2e": 5 stacks x 16 GiB
    .memory_usable = 81251 * units::MiB,  // [DRV] total_memory 81251 MiB (torch, in a YOLOv5 log)
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
    // [MLE] MAMF table (specs/kernel_efficiency.hpp): A100 SXM measured
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::a100_sxm_bf16, "bf16 MAMF of the A100 SXM"),
        },
};

inline constexpr gpu_spec a100_pcie_40gb{
    .name = "A100-PCIe-40GB",
    .aliases = {"a100-pcie-40gb", "NVIDIA A100-PCIE-40GB", "a100-pcie4-40gb"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::pcie,
    .memory = 40 * units::GiB,  // [A100-DS] 40GB HBM2
    .memory_usable = 40326 * units::MiB,  // [DRV] total_memory=40326MB
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
    // [MLE] MAMF table: A100 PCIe measured
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::a100_pcie_bf16, "bf16 MAMF of the A100 PCIe"),
        },
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
    // [MLE] MAMF table: A100 PCIe measured
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::a100_pcie_bf16, "bf16 MAMF of the A100 PCIe"),
        },
};

// ------------------------------------------------------------------------------------ Hopper --

inline constexpr gpu_spec h100_sxm{
    .name = "H100-SXM5-80GB",
    .aliases = {"h100", "h100-sxm", "h100-sxm5", "NVIDIA H100 80GB HBM3", "h100-80gb"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::sxm,
    .memory = 80 * units::GiB,  // [H100-DS] "80GB" HBM3: 5 active stacks x 16 GiB
    .memory_usable = 81089 * units::MiB,  // [DRV] total_memory=81089MB (nvidia-smi: 81559)
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
    // [MLE] MAMF table: H100 SXM measured (bf16, fp8); HBM: this project's copies
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::of_this_gpu(mamf::h100_sxm_fp8, "fp8 MAMF of the H100 SXM"),
            .hbm = efficiency_figure::of_this_gpu(h100_sxm_hbm_copy_fraction, "streaming copies on the H100 SXM"),
        },
};

inline constexpr gpu_spec h100_pcie{
    .name = "H100-PCIe-80GB",
    .aliases = {"h100-pcie", "NVIDIA H100 PCIe", "h100-pcie-80gb"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::pcie,
    .memory = 80 * units::GiB,  // [H100-DS] 80GB HBM2e
    .memory_usable = 81008 * units::MiB,  // [DRV] total_memory=81008MB
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
    // no measurement of its own: the H100 SXM's figures (same GH100 die)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::h100_sxm_fp8, "fp8 MAMF of the H100 SXM"),
        },
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
    .sm_count = 132,    // the H100 SXM5 configuration ([GH100-WP]) on a PCIe card
    .boost_clock = {},  // not on the datasheet
    // no measurement of its own: the H100 SXM's bf16 figure and the H200's fp8 figure
    // (the step model's earlier rule, Hopper above 100 GB of memory, gave it this one)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::h200_sxm_fp8, "fp8 MAMF of the H200 SXM"),
        },
};

inline constexpr gpu_spec h200_sxm{
    .name = "H200-SXM-141GB",
    .aliases = {"h200", "h200-sxm", "NVIDIA H200", "h200-141gb"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::sxm,
    .memory = 141 * units::GiB,  // [H200-DS] 141GB HBM3e (6 stacks x 24 GiB, 141 GiB enabled)
    .memory_usable = 143156 * units::MiB,  // [DRV] total_memory=143156MB
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
    // [MLE] MAMF table: H200 fp8 measured; bf16 borrowed from the H100 SXM (same die)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::of_this_gpu(mamf::h200_sxm_fp8, "fp8 MAMF of the H200 SXM"),
        },
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
    // no measurement of its own: the H100 SXM's bf16 and the H200 SXM's fp8 figures
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::h200_sxm_fp8, "fp8 MAMF of the H200 SXM"),
        },
};

// ------------------------------------------------------------------------------------ Blackwell --

inline constexpr gpu_spec b200{
    .name = "B200-SXM-180GB",
    .aliases = {"b200", "b200-sxm", "NVIDIA B200", "b200-180gb"},
    .maker = vendor::nvidia,
    .architecture = "Blackwell",
    .form = form_factor::sxm,
    // [DGXB200-DS] 1,440 GB over 8 GPUs = 180 "GB" each, binary: the CUDA total below (182,631
    // MiB) exceeds 180e9 bytes (171,661 MiB), so 180 GiB are enabled of 192 GiB physical
    .memory = 180 * units::GiB,
    .memory_usable = 182631 * units::MiB,  // [DRV] total_memory=182631MB
    .memory_type = "HBM3e",
    .memory_bandwidth = 8000 * units::GBps,  // [DGXB200-DS] 64 TB/s over 8 GPUs
    .peak =
        {
            .fp64_vector = 40 * units::TFLOPS,    // [BW-TB]
            .fp64_tensor = 40 * units::TFLOPS,    // [BW-TB]
            .fp32_vector = 80 * units::TFLOPS,    // [BW-TB]
            .tf32_tensor = 1100 * units::TFLOPS,  // [BW-TB] 1.1 | 2.2* PF
            .bf16_tensor = 2250 * units::TFLOPS,  // [BW-TB] 2.25 | 4.5* PF
            .fp16_tensor = 2250 * units::TFLOPS,  // [BW-TB]
            .fp8_tensor = 4500 * units::TFLOPS,   // [BW-TB] 4.5 | 9* PF; [DGXB200-DS] 72 PF*/8
            .int8_tensor = 4500 * units::TFLOPS,  // [BW-TB] 4.5 | 9* POPS
            .fp4_tensor = 9000 * units::TFLOPS,   // [BW-TB] 9 | 18* PF; [DGXB200-DS] 144 PF*/8
            .sparsity_factor = 2.0,
        },
    .tdp = 1000 * units::W,  // [BW-TB] HGX B200 configured at 1,000 W
    // [DGXB200-DS] NVLink 5: 1.8 TB/s per GPU (bidirectional), 18 links
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 18, 1800 * units::GBps, 7),
    .pcie = {.generation = 6, .lanes = 16},  // [BW-TB] PCIe Gen6 host interface
    .sm_count = 148,                         // [DRV] multi_processor_count=148
    .boost_clock = {},
    // [MLE] MAMF table: B200 measured (bf16, fp8)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::b200_bf16, "bf16 MAMF of the B200"),
            .matmul_8bit = efficiency_figure::of_this_gpu(mamf::b200_fp8, "fp8 MAMF of the B200"),
        },
};

// ---------------------------------------------------------------------- Ada Lovelace (PCIe) --

inline constexpr gpu_spec l4{
    .name = "L4-24GB",
    .aliases = {"l4", "NVIDIA L4"},
    .maker = vendor::nvidia,
    .architecture = "Ada Lovelace",
    .form = form_factor::pcie,
    .memory = 24 * units::GiB,              // [L4-DS] 24GB GDDR6
    .memory_usable = 23034 * units::MiB,    // [DRV] nvidia-smi Total 23034MiB (ECC on)
    .memory_type = "GDDR6",
    .memory_bandwidth = 300 * units::GBps,  // [L4-DS] 300 GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 30.3 * units::TFLOPS,   // [L4-DS]
            .tf32_tensor = 60 * units::TFLOPS,     // [L4-DS] 120* / 2
            .bf16_tensor = 121 * units::TFLOPS,    // [L4-DS] 242* / 2
            .fp16_tensor = 121 * units::TFLOPS,    // [L4-DS] 242* / 2
            .fp8_tensor = 242.5 * units::TFLOPS,   // [L4-DS] 485* / 2
            .int8_tensor = 242.5 * units::TFLOPS,  // [L4-DS] 485* TOPS / 2
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 72 * units::W,  // [L4-DS] 72 W
    .gpu_link = {},        // [L4-DS] no NVLink
    .pcie = {.generation = 4, .lanes = 16},  // [L4-DS] PCIe Gen4 x16: 64 GB/s
    .sm_count = 58,                          // [AD102-WP]-family AD104 in the L4 configuration
    .boost_clock = 2040 * units::MHz,        // [L4-DS] max boost (product brief)
};

inline constexpr gpu_spec l40s{
    .name = "L40S-48GB",
    .aliases = {"l40s", "NVIDIA L40S"},
    .maker = vendor::nvidia,
    .architecture = "Ada Lovelace",
    .form = form_factor::pcie,
    .memory = 48 * units::GiB,              // [L40S-DS] 48GB GDDR6 with ECC
    .memory_usable = 45589 * units::MiB,    // [DRV] total_memory=45589MB
    .memory_type = "GDDR6",
    .memory_bandwidth = 864 * units::GBps,  // [L40S-DS] 864 GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 91.6 * units::TFLOPS,    // [L40S-DS]
            .tf32_tensor = 183 * units::TFLOPS,     // [L40S-DS] 183 | 366*
            .bf16_tensor = 362.05 * units::TFLOPS,  // [L40S-DS] 362.05 | 733*
            .fp16_tensor = 362.05 * units::TFLOPS,  // [L40S-DS] 362.05 | 733*
            .fp8_tensor = 733 * units::TFLOPS,      // [L40S-DS] 733 | 1,466*
            .int8_tensor = 733 * units::TFLOPS,     // [L40S-DS] 733 | 1,466* TOPS
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 350 * units::W,  // [L40S-DS] max power 350 W
    .gpu_link = {},         // [L40S-DS] no NVLink
    .pcie = {.generation = 4, .lanes = 16},  // [L40S-DS] PCIe Gen4 x16: 64 GB/s bidirectional
    .sm_count = 142,                         // [DRV] multi_processor_count=142
    .boost_clock = 2520 * units::MHz,        // [L40S-DS]
};

inline constexpr gpu_spec rtx_6000_ada{
    .name = "RTX-6000-Ada-48GB",
    .aliases = {"rtx-6000-ada", "rtx6000ada", "NVIDIA RTX 6000 Ada Generation"},
    .maker = vendor::nvidia,
    .architecture = "Ada Lovelace",
    .form = form_factor::pcie,
    .memory = 48 * units::GiB,  // [RTX6KADA-DS] 48GB GDDR6 with ECC
    .memory_usable = 48622 * units::MiB,  // [DRV] total_memory=48622MB
    .memory_type = "GDDR6",
    .memory_bandwidth = 960 * units::GBps,  // [RTX6KADA-DS] 960 GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 91.1 * units::TFLOPS,  // [RTX6KADA-DS] single precision 91.1
            // [RTX6KADA-DS] gives one tensor figure, 1,457.0 TFLOPS (FP8, sparse). Dense FP8 is
            // half; Ada tensor cores run BF16/FP16 (FP32 accumulate on this professional part)
            // at half the FP8 rate and TF32 at a quarter ([AD102-WP] per-SM ratios).
            .tf32_tensor = 182.1 * units::TFLOPS,
            .bf16_tensor = 364.25 * units::TFLOPS,
            .fp16_tensor = 364.25 * units::TFLOPS,
            .fp8_tensor = 728.5 * units::TFLOPS,
            .int8_tensor = 728.5 * units::TFLOPS,
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 300 * units::W,  // [RTX6KADA-DS] 300 W
    .gpu_link = {},         // no NVLink on Ada
    .pcie = {.generation = 4, .lanes = 16},  // [RTX6KADA-DS] PCIe 4.0 x16
    .sm_count = 142,                         // [RTX6KADA-DS] 18,176 CUDA cores / 128 per SM
    .boost_clock = 2505 * units::MHz,        // [RTX6KADA-DS]
};

inline constexpr gpu_spec rtx_4090{
    .name = "RTX-4090-24GB",
    .aliases = {"rtx-4090", "4090", "rtx4090", "NVIDIA GeForce RTX 4090"},
    .maker = vendor::nvidia,
    .architecture = "Ada Lovelace",
    .form = form_factor::pcie,
    .memory = 24 * units::GiB,              // [AD102-WP] 24 GB GDDR6X
    .memory_usable = 24563 * units::MiB,    // [DRV] total_memory=24563MB
    .memory_type = "GDDR6X",
    .memory_bandwidth = 1008 * units::GBps,  // [AD102-WP] 1,008 GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 82.6 * units::TFLOPS,   // [AD102-WP]
            .tf32_tensor = 82.6 * units::TFLOPS,   // [AD102-WP] 82.6 | 165.2*
            .bf16_tensor = 165.2 * units::TFLOPS,  // [AD102-WP] FP32 accumulate 165.2 | 330.4*
            .fp16_tensor = 165.2 * units::TFLOPS,  // [AD102-WP] FP32 accumulate (FP16 acc.: 330.3)
            .fp8_tensor = 330.3 * units::TFLOPS,   // [AD102-WP] FP32 accumulate (FP16 acc.: 660.6)
            .int8_tensor = 660.6 * units::TFLOPS,  // [AD102-WP] 660.6 | 1,321.2* TOPS
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 450 * units::W,  // [AD102-WP] total graphics power 450 W
    .gpu_link = {},         // no NVLink on Ada GeForce
    .pcie = {.generation = 4, .lanes = 16},
    .sm_count = 128,                   // [AD102-WP]
    .boost_clock = 2520 * units::MHz,  // [AD102-WP]
};

// --------------------------------------------------------------------------- Ampere (PCIe) --

inline constexpr gpu_spec a10{
    .name = "A10-24GB",
    .aliases = {"a10", "NVIDIA A10"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::pcie,
    .memory = 24 * units::GiB,  // [A10-DS] 24GB GDDR6
    .memory_usable = 23028 * units::MiB,  // [DRV] nvidia-smi Total 23028MiB (ECC on)
    .memory_type = "GDDR6",
    .memory_bandwidth = 600 * units::GBps,  // [A10-DS] 600 GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 31.2 * units::TFLOPS,  // [A10-DS]
            .tf32_tensor = 62.5 * units::TFLOPS,  // [A10-DS] 62.5 | 125*
            .bf16_tensor = 125 * units::TFLOPS,   // [A10-DS] 125 | 250*
            .fp16_tensor = 125 * units::TFLOPS,   // [A10-DS] 125 | 250*
            .fp8_tensor = {},
            .int8_tensor = 250 * units::TFLOPS,  // [A10-DS] 250 | 500* TOPS
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 150 * units::W,  // [A10-DS] 150 W
    .gpu_link = {},
    .pcie = {.generation = 4, .lanes = 16},  // [A10-DS] PCIe Gen4: 64 GB/s
    .sm_count = 72,                          // [GA102-WP] GA102 in the A10 configuration
    .boost_clock = 1695 * units::MHz,        // [A10-DS] / NVIDIA A10 product brief
    // no measurement of its own: the A100 PCIe's bf16 figure (an Ampere PCIe card)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::a100_pcie_bf16, "bf16 MAMF of the A100 PCIe"),
        },
};

inline constexpr gpu_spec rtx_3090{
    .name = "RTX-3090-24GB",
    .aliases = {"rtx-3090", "3090", "rtx3090", "NVIDIA GeForce RTX 3090", "GeForce RTX 3090"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::pcie,
    .memory = 24 * units::GiB,              // [GA102-WP] 24 GB GDDR6X
    .memory_usable = 24268 * units::MiB,    // [DRV] total_memory=24268MB
    .memory_type = "GDDR6X",
    .memory_bandwidth = 936 * units::GBps,  // [GA102-WP] 936 GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 35.6 * units::TFLOPS,  // [GA102-WP] Table 9
            .tf32_tensor = 35.6 * units::TFLOPS,  // [GA102-WP] 35.6 | 71*
            .bf16_tensor = 71 * units::TFLOPS,    // [GA102-WP] FP32 accumulate 71 | 142*
            .fp16_tensor = 71 * units::TFLOPS,    // [GA102-WP] FP32 accumulate (FP16 acc.: 142)
            .fp8_tensor = {},
            .int8_tensor = 284 * units::TFLOPS,  // [GA102-WP] 284 | 568* TOPS
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 350 * units::W,  // [GA102-WP] total graphics power 350 W
    // [GA102-WP] NVLink 3, 4 x4 links: 112.5 GB/s total bidirectional, pairs of cards
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink_bridge, 4, 112.5 * units::GBps, 1),
    .pcie = {.generation = 4, .lanes = 16},
    .sm_count = 82,                    // [GA102-WP]
    .boost_clock = 1695 * units::MHz,  // [GA102-WP]
    // no measurement of its own: the A100 PCIe's bf16 figure (an Ampere PCIe card)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::a100_pcie_bf16, "bf16 MAMF of the A100 PCIe"),
        },
};

// ---------------------------------------------------------------------------- Turing, Volta --

inline constexpr gpu_spec t4{
    .name = "T4-16GB",
    .aliases = {"t4", "Tesla T4"},
    .maker = vendor::nvidia,
    .architecture = "Turing",
    .form = form_factor::pcie,
    .memory = 16 * units::GiB,            // [T4-DS] 16 GB GDDR6
    .memory_usable = 15109 * units::MiB,  // [DRV] total_memory=15109MB (ECC on)
    .memory_type = "GDDR6",
    .memory_bandwidth = 320 * units::GBps,  // [T4-DS] 320+ GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 8.1 * units::TFLOPS,  // [T4-DS] single precision 8.1
            .tf32_tensor = {},                   // Turing has no TF32 or BF16
            .bf16_tensor = {},
            .fp16_tensor = 65 * units::TFLOPS,    // [T4-DS] mixed precision (FP16/FP32) 65
            .fp8_tensor = {},
            .int8_tensor = 130 * units::TFLOPS,  // [T4-DS] INT8 130 TOPS (INT4 260)
            .fp4_tensor = {},
            .sparsity_factor = 1.0,  // no structured sparsity before Ampere
        },
    .tdp = 70 * units::W,  // [T4-DS] 70 W
    .gpu_link = {},
    .pcie = {.generation = 3, .lanes = 16},  // [T4-DS] PCIe Gen3 x16
    .sm_count = 40,                          // [DRV] multi_processor_count=40
    .boost_clock = 1590 * units::MHz,        // [T4-DS] / Turing whitepaper Appendix
};

/// One V100 in SXM2 or PCIe form with 16 or 32 GiB; the rates depend only on the form.
constexpr gpu_spec v100(bool sxm2, int gib, name_string name,
                        std::array<name_string, 6> aliases, data_size usable) {
  return {
      .name = name,
      .aliases = aliases,
      .maker = vendor::nvidia,
      .architecture = "Volta",
      .form = sxm2 ? form_factor::sxm : form_factor::pcie,
      .memory = gib * units::GiB,  // [V100-DS] 16 or 32 GB HBM2
      .memory_usable = usable,
      .memory_type = "HBM2",
      .memory_bandwidth = 900 * units::GBps,  // [V100-DS] 900 GB/s
      .peak =
          {
              .fp64_vector = (sxm2 ? 7.8 : 7.0) * units::TFLOPS,    // [V100-DS]
              .fp64_tensor = {},
              .fp32_vector = (sxm2 ? 15.7 : 14.0) * units::TFLOPS,  // [V100-DS]
              .tf32_tensor = {},
              .bf16_tensor = {},
              .fp16_tensor = (sxm2 ? 125.0 : 112.0) * units::TFLOPS,  // [V100-DS] tensor
              .fp8_tensor = {},
              .int8_tensor = {},
              .fp4_tensor = {},
              .sparsity_factor = 1.0,
          },
      .tdp = (sxm2 ? 300 : 250) * units::W,  // [V100-DS]
      // [V100-DS] SXM2: NVLink 300 GB/s (bidirectional), 6 NVLink2 links; PCIe cards: none
      .gpu_link = sxm2 ? link_spec::from_bidirectional(link_kind::nvlink, 6, 300 * units::GBps, 7)
                       : link_spec{},
      .pcie = {.generation = 3, .lanes = 16},  // [V100-DS] PCIe Gen3: 32 GB/s
      .sm_count = 80,                          // Volta whitepaper, Tesla V100
      .boost_clock = (sxm2 ? 1530 : 1380) * units::MHz,  // Volta whitepaper, Table 1
  };
}

inline constexpr gpu_spec v100_sxm2_16gb =
    v100(true, 16, "V100-SXM2-16GB", {"v100-16gb", "v100-sxm2-16gb", "Tesla V100-SXM2-16GB"},
         16160 * units::MiB);  // [DRV] total_memory=16160MB
inline constexpr gpu_spec v100_sxm2_32gb =
    v100(true, 32, "V100-SXM2-32GB",
         {"v100", "v100-32gb", "v100-sxm2-32gb", "Tesla V100-SXM2-32GB"},
         32510 * units::MiB);  // [DRV] nvidia-smi 32510 MiB (= the CUDA total on V100-PCIE-32GB)
inline constexpr gpu_spec v100_pcie_16gb =
    v100(false, 16, "V100-PCIe-16GB", {"v100-pcie-16gb", "Tesla V100-PCIE-16GB"}, {});
inline constexpr gpu_spec v100_pcie_32gb =
    v100(false, 32, "V100-PCIe-32GB", {"v100-pcie", "v100-pcie-32gb", "Tesla V100-PCIE-32GB"},
         32510 * units::MiB);  // [DRV] total_memory=32510MB

// ------------------------------------------------------------------------------------- AMD --

inline constexpr gpu_spec mi250x{
    .name = "MI250X-128GB",
    .aliases = {"mi250x", "AMD Instinct MI250X"},
    .maker = vendor::amd,
    .architecture = "CDNA2",
    .form = form_factor::oam,
    // [MI250X] 128 GB HBM2e (8 stacks x 16 GiB). Note: the package holds two GCDs, and software
    // sees each as a separate GPU with 64 GiB and half of every rate below.
    .memory = 128 * units::GiB,
    .memory_usable = {},
    .memory_type = "HBM2e",
    .memory_bandwidth = 3276.8 * units::GBps,  // [MI250X] 3.2768 TB/s
    .peak =
        {
            .fp64_vector = 47.9 * units::TFLOPS,  // [MI250X]
            .fp64_tensor = 95.7 * units::TFLOPS,  // [MI250X] FP64 matrix
            .fp32_vector = 47.9 * units::TFLOPS,  // [MI250X] (FP32 matrix: 95.7)
            .tf32_tensor = {},                    // CDNA2 has no TF32
            .bf16_tensor = 383 * units::TFLOPS,   // [MI250X]
            .fp16_tensor = 383 * units::TFLOPS,   // [MI250X]
            .fp8_tensor = {},
            .int8_tensor = 383 * units::TFLOPS,  // [MI250X] 383 TOPS
            .fp4_tensor = {},
            .sparsity_factor = 1.0,
        },
    .tdp = 560 * units::W,  // [MI250X] 500 W TDP, 560 W peak
    // [MI250X] up to 8 Infinity Fabric links, 800 GB/s aggregate peer bandwidth (bidirectional);
    // some links join the package's two GCDs to each other
    .gpu_link = link_spec::from_bidirectional(link_kind::xgmi, 8, 800 * units::GBps, 7),
    .pcie = {.generation = 4, .lanes = 16},  // [MI250X] PCIe Gen4 x16
    .sm_count = 220,                         // [MI250X] 220 compute units
    .boost_clock = 1700 * units::MHz,        // [MI250X] peak engine clock
};

inline constexpr gpu_spec mi300x{
    .name = "MI300X-192GB",
    .aliases = {"mi300x", "AMD Instinct MI300X", "mi300"},
    .maker = vendor::amd,
    .architecture = "CDNA3",
    .form = form_factor::oam,
    .memory = 192 * units::GiB,            // [MI300X-DS] 192 GB HBM3 (8 stacks x 24 GiB)
    .memory_usable = 196592 * units::MiB,  // [DRV] ROCm torch total_memory=196592MB
    .memory_type = "HBM3",
    .memory_bandwidth = 5300 * units::GBps,  // [MI300X-DS] 5.3 TB/s
    .peak =
        {
            .fp64_vector = 81.7 * units::TFLOPS,     // [MI300X-DS]
            .fp64_tensor = 163.4 * units::TFLOPS,    // [MI300X-DS] FP64 matrix
            .fp32_vector = 163.4 * units::TFLOPS,    // [MI300X-DS]
            .tf32_tensor = 653.7 * units::TFLOPS,    // [MI300X-DS] 653.7 | 1,307.4*
            .bf16_tensor = 1307.4 * units::TFLOPS,   // [MI300X-DS] 1,307.4 | 2,614.9*
            .fp16_tensor = 1307.4 * units::TFLOPS,   // [MI300X-DS]
            .fp8_tensor = 2614.9 * units::TFLOPS,    // [MI300X-DS] 2,614.9 | 5,229.8*
            .int8_tensor = 2614.9 * units::TFLOPS,   // [MI300X-DS] TOPS
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 750 * units::W,  // [MI300X-DS] 750 W
    // [MI300X-DS] 7 Infinity Fabric links x 128 GB/s peak (bidirectional): 896 GB/s, that is 64
    // GB/s each way to each of the 7 peers on an 8-GPU board
    .gpu_link = link_spec::from_bidirectional(link_kind::xgmi, 7, 896 * units::GBps, 7),
    .pcie = {.generation = 5, .lanes = 16},  // [MI300X-DS] PCIe Gen5 x16: 128 GB/s
    .sm_count = 304,                         // [MI300X-DS] 304 compute units
    .boost_clock = 2100 * units::MHz,        // [MI300X-DS] peak engine clock
    // [MLE] MAMF table: MI300X measured (bf16)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::mi300x_bf16, "bf16 MAMF of the MI300X"),
        },
};

/// Every GPU of the catalog, in the order docs/catalog.md lists them.
inline constexpr std::array all_gpus{
    a100_sxm_40gb,  a100_sxm_80gb,  a100_pcie_40gb, a100_pcie_80gb, h100_sxm,
    h100_pcie,      h100_nvl,       h200_sxm,       h200_nvl,       b200,
    l4,             l40s,           rtx_6000_ada,   rtx_4090,       a10,
    rtx_3090,       t4,             v100_sxm2_16gb, v100_sxm2_32gb, v100_pcie_16gb,
    v100_pcie_32gb, mi250x,         mi300x,
};

}  // namespace gpuplan::catalog
