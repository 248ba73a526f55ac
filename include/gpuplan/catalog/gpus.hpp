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
//  - Kernel efficiencies (gpu_spec::kernels): the published MAMF, HBM-copy and grouped-MoE kernel
//    measurements of specs/kernel_efficiency.hpp, marked measured on the GPU they were measured on and borrowed
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
//  [CUDA-GPUS] NVIDIA's CUDA GPU compute capability list (developer.nvidia.com/cuda-gpus): 7.0
//              V100, 7.5 T4, 8.0 A100 / A800, 8.6 A10 / RTX 3090, 8.9 Ada (L4, L40S, L20, RTX 6000
//              Ada, RTX 4090), 9.0 Hopper (H100, H200, H800, H20), 10.0 B200 / GB200, 10.3 B300 /
//              GB300 (sm_103), 12.0 RTX PRO 6000 Blackwell / RTX 5090
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
//
// 2026 parts. Several of them have no datasheet that could be read where this catalog was
// compiled (the export-market parts H20, H800, A800 and L20 were published on nvidia.cn or only
// to partners); their figures come from the secondary sources below, each named beside its
// figure, and a figure no source gave is left 0 (unknown) with a comment saying so.
//  [HGX]       nvidia.com/en-us/data-center/hgx, HGX B300 and HGX B200 columns (8-GPU totals,
//              "*" sparse), as transcribed by fibermall.com/blog/?p=17161 (its FP4 row repeats
//              the sparse figure in the dense cell; the dense FP4 figure is taken from [B300-GK])
//  [B300-GK]   glennklockwood.com/garden/processors/B300: HGX B300 per-GPU dense/sparse table
//              (FP64 1.25, FP32 75, TF32 1,125, BF16 2,250, FP8 4,500, FP4 13,125 | 18,000 TFLOPS),
//              288 GB HBM3e in 8 stacks of 12-high, PCIe Gen6 host interface
//  [GB-GK]     glennklockwood.com/garden/processors/B200: the GB200 variant at 1,200 W (FP64 45,
//              FP32 90, TF32 1,250, BF16 2,500, FP8 5,000, FP4 10,000, INT8 5,000 dense TFLOPS)
//  [VERDA]     verda.com/blog/gb300-nvl72-architecture: per-GPU dense table of GB300, GB200,
//              B300 and B200 (GB300: FP4 15, FP8 5, INT8 0.165 P, BF16 2.5, TF32 1.25, FP32
//              0.080 PFLOPS; 279 GB, 8 TB/s, 1.4 kW; B300: FP4 14 PF, 270 GB, 1.1 kW)
//  [NVL72]     nvidia.com GB200 NVL72 and GB300 NVL72 pages (72-GPU rack totals, "*" sparse),
//              as summarised by vendordeep.com (GB300: FP4 1,440 | 1,080 PF, FP8 720 PF*, INT8
//              24 POPS*, 20 TB HBM3e at 576 TB/s, ConnectX-8 800 Gb/s per GPU) and aiwiki.ai
//              (GB200: 1.4 EF FP4*, 720 PF FP8*, 13.4 TB HBM3e, 130 TB/s NVLink)
//  [H800-DS]   NVIDIA H800 Tensor Core GPU datasheet (nvidia.cn): the H100 SXM column with FP64
//              1 TFLOPS and NVLink 400 GB/s, as compared in philisun.com "NVIDIA H800 vs H100"
//              and aiwiki.ai/wiki/nvidia_h800
//  [A800-DS]   NVIDIA A800 Tensor Core GPU datasheet (nvidia.cn): the A100 80GB SXM column with
//              NVLink 400 GB/s
//  [H20-SPEC]  the HGX H20 specification NVIDIA gave partners in November 2023, as reported by
//              1cnz.cn/d/2353773.html and zangshuxian.com (96 GB HBM3 at 4.0 TB/s, FP8 296,
//              "FP16 dense 148", TF32 74, FP32 44, FP64 1 TFLOPS, INT8 296 TOPS, NVLink
//              900 GB/s, SXM for 8-way HGX; 78 SMs from a Geekbench 6 listing) and
//              willitrunai.com (400 W)
//  [L20-SPEC]  technical.city/pl/video/L20 and topcpu.net (L20: AD102, 92 SMs, boost 2,520 MHz,
//              48 GB GDDR6 at 864 GB/s, PCIe 4.0 x16, 275 W, FP32 59.35 TFLOPS); no source read
//              gave its tensor rates (export-limited, so they cannot be scaled from the L40S)
//  [RTXPRO-DB] hmc-tech.com RTX PRO 6000 Blackwell specification page (dense | sparse: FP4
//              2.02 | 4.03 PF, FP8 1.01 | 2.02 PF with FP16 or FP32 accumulate, BF16/FP16 503.8
//              | 1,008, TF32 251.9 | 503.8 TFLOPS, INT8 1.01 POPS, FP32 125.95, FP64 1.97 TFLOPS,
//              boost 2,617 MHz, 600 W); cross-checked against NVIDIA's headline "4,000 AI TOPS"
//              (FP4 sparse) and "125 TFLOPS" FP32, 24,064 CUDA cores in 188 SMs, 96 GB GDDR7 at
//              1,792 GB/s (the same memory on all three editions)
//  [RTX50]     NVIDIA GeForce RTX 50 series page: RTX 5090 3,352 AI TOPS (FP4 sparse); Tom's
//              Hardware's RTX 5090 specification box (J. Walton; 170 SMs, 2,407 MHz boost, 32 GB
//              GDDR7 at 1,792 GB/s, 104 TFLOPS FP32, 838 TFLOPS FP16 and 3,352 FP8/FP4, sparse
//              with FP16 accumulate, 575 W); GeForce Blackwell halves FP32-accumulate tensor
//              rates as Ada did (hmc-tech.com's RTX 5050 page: FP16 52.63 with FP16 accumulate,
//              26.32 with FP32 accumulate, FP4 210.5 dense)
//  [MI325X-DS] AMD Instinct MI325X data sheet, as transcribed by awesomeagents.ai (256 GB HBM3E,
//              6 TB/s, FP8 2,614.9 | 5,229.8*, BF16/FP16 1,307.4, TF32 653.7, FP32 163.4 TFLOPS,
//              1,000 W) and wiaix.com (PCIe Gen5 x16, seven Infinity Fabric links joining eight
//              GPUs); the CDNA3 compute die of the MI300X (304 CUs)
//  [MI355X]    AMD Instinct MI355X: 288 GB HBM3E at 8 TB/s and 1,400 W (aiwiki.ai, The Register
//              2025-06-12: "10 petaFLOPS" FP4, "double that" with sparsity); 2.4 GHz peak clock
//              (wccftech, Hot Chips 2025); 8 XCDs of 32 CUs (256) and 8,192 FP8 FLOP per CU per
//              clock (AMD at ISSCC 2026, world-today-news.com); FP64 78.6 TFLOPS and ~153 GB/s
//              per Infinity Fabric link (humeconsulting.co); PCIe Gen5 x16 (AMD's MLPerf
//              Inference v6.0 system description)
//  [PUBLOG]    device totals and SM counts printed by the driver in public logs and code:
//              nvidia-smi "NVIDIA B300 SXM6 AC, 275040 MiB" (148 SMs, 2,032 MHz max SM clock),
//              "NVIDIA GB200, 189471 MiB" (152 SMs), "NVIDIA GB300, 284208 MiB", "NVIDIA
//              GeForce RTX 5090, 32607 MiB", "NVIDIA H800, 81559 MiB", "NVIDIA H20, 97871 MiB",
//              "NVIDIA A800-SXM4-80GB, 81920 MiB" (= 80 GiB: the capacity itself); torch "NVIDIA
//              RTX PRO 6000 Blackwell Server Edition" total_memory_mb 97343, multi_processor_count
//              188
#pragma once

#include <gpuplan/catalog/h100_sxm.hpp>
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
    .compute_capability = {8, 0},  // [CUDA-GPUS]
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
    .compute_capability = {8, 0},  // [CUDA-GPUS]
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
    .compute_capability = {8, 0},  // [CUDA-GPUS]
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
    .compute_capability = {8, 0},  // [CUDA-GPUS]
    // [MLE] MAMF table: A100 PCIe measured
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::a100_pcie_bf16, "bf16 MAMF of the A100 PCIe"),
        },
};

/// A800 SXM 80GB: the A100 80GB SXM for the Chinese market (2022), NVLink cut to 400 GB/s.
inline constexpr gpu_spec a800_sxm_80gb{
    .name = "A800-SXM4-80GB",
    .aliases = {"a800", "a800-80gb", "a800-sxm", "NVIDIA A800-SXM4-80GB", "a800-sxm4-80gb"},
    .maker = vendor::nvidia,
    .architecture = "Ampere",
    .form = form_factor::sxm,
    // [A800-DS] 80GB HBM2e; nvidia-smi prints "NVIDIA A800-SXM4-80GB, 81920 MiB" ([PUBLOG]):
    // exactly 80 GiB, the capacity itself, not what a program may allocate
    .memory = 80 * units::GiB,
    .memory_usable = {},  // no published CUDA total found
    .memory_type = "HBM2e",
    .memory_bandwidth = 2039 * units::GBps,  // [A800-DS] 2,039 GB/s
    .peak =
        {
            .fp64_vector = 9.7 * units::TFLOPS,   // [A800-DS] the A100 80GB SXM column
            .fp64_tensor = 19.5 * units::TFLOPS,  // [A800-DS]
            .fp32_vector = 19.5 * units::TFLOPS,  // [A800-DS]
            .tf32_tensor = 156 * units::TFLOPS,   // [A800-DS] 156 | 312*
            .bf16_tensor = 312 * units::TFLOPS,   // [A800-DS] 312 | 624*
            .fp16_tensor = 312 * units::TFLOPS,   // [A800-DS]
            .fp8_tensor = {},
            .int8_tensor = 624 * units::TFLOPS,  // [A800-DS] 624 | 1,248* TOPS
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 400 * units::W,  // [A800-DS] 400 W
    // [A800-DS] NVLink 400 GB/s (bidirectional): 8 NVLink3 links of 50 GB/s ([GA100-WP])
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 8, 400 * units::GBps, 7),
    .pcie = {.generation = 4, .lanes = 16},  // [A800-DS] PCIe Gen4: 64 GB/s
    .sm_count = 108,                         // the A100's GA100 configuration, as the rates are
    .boost_clock = 1410 * units::MHz,        // [GA100-WP]
    .compute_capability = {8, 0},  // [CUDA-GPUS]
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::a100_sxm_bf16, "bf16 MAMF of the A100 SXM"),
        },
};

// ------------------------------------------------------------------------------------ Hopper --

// h100_sxm, the GPU the models' measured figures come from: catalog/h100_sxm.hpp (included
// above), so that a model or plan header needing it alone does not compile the whole catalog.

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
    .compute_capability = {9, 0},  // [CUDA-GPUS]
    // no measurement of its own: the H100 SXM's figures (same GH100 die)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::h100_sxm_fp8, "fp8 MAMF of the H100 SXM"),
            .moe_16bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_bf16, "vLLM fused_moe bf16 on the H100 SXM"),
            .moe_8bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_fp8, "vLLM fused_moe fp8 on the H100 SXM"),
            .moe_dequant = efficiency_figure::borrowed(grouped_moe::h100_sxm_w4a16, "Marlin MoE W4A16 on the H100 SXM"),
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
    .compute_capability = {9, 0},  // [CUDA-GPUS]
    // no measurement of its own: the H100 SXM's figures, bf16 and fp8 (the same GH100 die, 132
    // SMs [GH100-WP], with HBM3 as on the SXM; the H200's fp8 figure, which an earlier rule on
    // memory size gave it, was measured on another memory system, HBM3e)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::h100_sxm_fp8, "fp8 MAMF of the H100 SXM"),
            .moe_16bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_bf16, "vLLM fused_moe bf16 on the H100 SXM"),
            .moe_8bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_fp8, "vLLM fused_moe fp8 on the H100 SXM"),
            .moe_dequant = efficiency_figure::borrowed(grouped_moe::h100_sxm_w4a16, "Marlin MoE W4A16 on the H100 SXM"),
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
    .compute_capability = {9, 0},  // [CUDA-GPUS]
    // [MLE] MAMF table: H200 fp8 measured; bf16 borrowed from the H100 SXM (same die)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::of_this_gpu(mamf::h200_sxm_fp8, "fp8 MAMF of the H200 SXM"),
            .moe_16bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_bf16, "vLLM fused_moe bf16 on the H100 SXM"),
            .moe_8bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_fp8, "vLLM fused_moe fp8 on the H100 SXM"),
            .moe_dequant = efficiency_figure::borrowed(grouped_moe::h100_sxm_w4a16, "Marlin MoE W4A16 on the H100 SXM"),
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
    .compute_capability = {9, 0},  // [CUDA-GPUS]
    // no measurement of its own: the H100 SXM's bf16 and the H200 SXM's fp8 figures
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::h200_sxm_fp8, "fp8 MAMF of the H200 SXM"),
            .moe_16bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_bf16, "vLLM fused_moe bf16 on the H100 SXM"),
            .moe_8bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_fp8, "vLLM fused_moe fp8 on the H100 SXM"),
            .moe_dequant = efficiency_figure::borrowed(grouped_moe::h100_sxm_w4a16, "Marlin MoE W4A16 on the H100 SXM"),
        },
};

/// H800 SXM: the H100 SXM for the Chinese market (2023), FP64 and NVLink cut.
inline constexpr gpu_spec h800_sxm{
    .name = "H800-SXM5-80GB",
    .aliases = {"h800", "h800-sxm", "NVIDIA H800", "h800-80gb", "h800-sxm5"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::sxm,
    .memory = 80 * units::GiB,  // [H800-DS] 80GB HBM3, as the H100 SXM
    .memory_usable = 81559 * units::MiB,  // [PUBLOG] nvidia-smi "NVIDIA H800, 81559 MiB"
    .memory_type = "HBM3",
    .memory_bandwidth = 3350 * units::GBps,  // [H800-DS] 3.35 TB/s
    .peak =
        {
            .fp64_vector = 1 * units::TFLOPS,      // [H800-DS] FP64 1 TFLOPS
            .fp64_tensor = 1 * units::TFLOPS,      // [H800-DS] FP64 Tensor Core 1 TFLOPS
            .fp32_vector = 67 * units::TFLOPS,     // [H800-DS]
            .tf32_tensor = 494.5 * units::TFLOPS,  // [H800-DS] 989* / 2
            .bf16_tensor = 989.5 * units::TFLOPS,  // [H800-DS] 1,979* / 2
            .fp16_tensor = 989.5 * units::TFLOPS,  // [H800-DS] 1,979* / 2
            .fp8_tensor = 1979 * units::TFLOPS,    // [H800-DS] 3,958* / 2
            .int8_tensor = 1979 * units::TFLOPS,   // [H800-DS] 3,958* TOPS / 2
            .fp4_tensor = {},
            .sparsity_factor = 2.0,
        },
    .tdp = 700 * units::W,  // [H800-DS] up to 700 W
    // [H800-DS] NVLink 400 GB/s (bidirectional): 8 NVLink4 links of 50 GB/s ([GH100-WP])
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 8, 400 * units::GBps, 7),
    .pcie = {.generation = 5, .lanes = 16},  // [H800-DS] PCIe Gen5: 128 GB/s
    .sm_count = 132,  // the H100 SXM5's: same GH100 configuration (philisun.com; FP32 67 TFLOPS)
    .boost_clock = 1980 * units::MHz,  // the H100 SXM5's ([GH100-WP]), as the rates are
    .compute_capability = {9, 0},  // [CUDA-GPUS]
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::h100_sxm_fp8, "fp8 MAMF of the H100 SXM"),
            .moe_16bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_bf16, "vLLM fused_moe bf16 on the H100 SXM"),
            .moe_8bit = efficiency_figure::borrowed(grouped_moe::h100_sxm_fp8, "vLLM fused_moe fp8 on the H100 SXM"),
            .moe_dequant = efficiency_figure::borrowed(grouped_moe::h100_sxm_w4a16, "Marlin MoE W4A16 on the H100 SXM"),
        },
};

/// H20 (HGX H20): the Hopper part for the Chinese market after October 2023, its tensor rates
/// cut to 15% of the H100's and its memory raised to 96 GB.
inline constexpr gpu_spec h20{
    .name = "H20-96GB",
    .aliases = {"h20", "NVIDIA H20", "hgx-h20", "h20-sxm"},
    .maker = vendor::nvidia,
    .architecture = "Hopper",
    .form = form_factor::sxm,               // [H20-SPEC] SXM, for 8-way HGX
    .memory = 96 * units::GiB,              // [H20-SPEC] 96 GB HBM3 (6 stacks x 16 GiB)
    .memory_usable = 97871 * units::MiB,    // [PUBLOG] nvidia-smi "NVIDIA H20, 97871 MiB"
    .memory_type = "HBM3",
    .memory_bandwidth = 4000 * units::GBps,  // [H20-SPEC] 4.0 TB/s
    .peak =
        {
            .fp64_vector = 1 * units::TFLOPS,    // [H20-SPEC] FP64 1 TFLOPS
            .fp64_tensor = {},                   // not given
            .fp32_vector = 44 * units::TFLOPS,   // [H20-SPEC]
            .tf32_tensor = 74 * units::TFLOPS,   // [H20-SPEC]
            .bf16_tensor = 148 * units::TFLOPS,  // [H20-SPEC] "FP16 dense 148" (BF16 the same path)
            .fp16_tensor = 148 * units::TFLOPS,  // [H20-SPEC]
            .fp8_tensor = 296 * units::TFLOPS,   // [H20-SPEC]
            .int8_tensor = 296 * units::TFLOPS,  // [H20-SPEC] 296 TOPS
            .fp4_tensor = {},
            // the sources give dense figures; the tensor cores are Hopper's, with 2:4 sparsity
            .sparsity_factor = 2.0,
        },
    .tdp = 400 * units::W,  // [H20-SPEC] (willitrunai.com) 400 W
    // [H20-SPEC] NVLink 900 GB/s (bidirectional): the H100's 18 NVLink4 links
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 18, 900 * units::GBps, 7),
    .pcie = {.generation = 5, .lanes = 16},  // [H20-SPEC] PCIe Gen5 x16
    .sm_count = 78,                          // [H20-SPEC] Geekbench 6 listing: 78 SMs
    .boost_clock = {},                       // not in the sources read
    .compute_capability = {9, 0},  // [CUDA-GPUS]
    // no measurement of its own: the H100 SXM's fractions (the same Hopper SMs, fewer of them)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::h100_sxm_fp8, "fp8 MAMF of the H100 SXM"),
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
    .compute_capability = {10, 0},  // [CUDA-GPUS]
    // [MLE] MAMF table: B200 measured (bf16, fp8)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::b200_bf16, "bf16 MAMF of the B200"),
            .matmul_8bit = efficiency_figure::of_this_gpu(mamf::b200_fp8, "fp8 MAMF of the B200"),
        },
};

/// HGX B300 (Blackwell Ultra, SXM, 8 per baseboard, configured at 1,100 W).
inline constexpr gpu_spec b300{
    .name = "B300-SXM-288GB",
    .aliases = {"b300", "b300-sxm", "NVIDIA B300 SXM6 AC", "b300-288gb", "blackwell-ultra",
                "hgx-b300-gpu"},
    .maker = vendor::nvidia,
    .architecture = "Blackwell",
    .form = form_factor::sxm,
    // NVIDIA markets "288 GB" ([B300-GK]: 8 stacks of 12-high HBM3e, 288 GiB physical); [HGX]
    // totals 2.1 TB over 8 GPUs (270 per GPU; [VERDA] 270 GB). The driver's total, 275,040 MiB
    // ([PUBLOG], nvidia-smi), is 288.4e9 bytes: above 270e9 and below 270 GiB, so, as on the
    // B200, the enabled capacity is binary: 270 GiB (= 289.9e9 B, the "288 GB" read decimally).
    .memory = 270 * units::GiB,
    .memory_usable = 275040 * units::MiB,  // [PUBLOG] nvidia-smi "B300 SXM6 AC, 275040 MiB"
    .memory_type = "HBM3e",
    .memory_bandwidth = 8000 * units::GBps,  // [B300-GK] 8 TB/s ([VERDA] lists 7.7)
    .peak =
        {
            .fp64_vector = 1.25 * units::TFLOPS,  // [B300-GK]; [HGX] 10 TFLOPS / 8
            .fp64_tensor = 1.25 * units::TFLOPS,  // [HGX] "FP64/FP64 Tensor Core 10 TFLOPS" / 8
            .fp32_vector = 75 * units::TFLOPS,    // [HGX] 600 TFLOPS / 8
            .tf32_tensor = 1125 * units::TFLOPS,  // [HGX] 18 PF* / 8 / 2; [B300-GK] 1,125
            .bf16_tensor = 2250 * units::TFLOPS,  // [HGX] 36 PF* / 8 / 2; [B300-GK] 2,250
            .fp16_tensor = 2250 * units::TFLOPS,  // [HGX] 36 PF* / 8 / 2
            .fp8_tensor = 4500 * units::TFLOPS,   // [HGX] 72 PF* / 8 / 2; [B300-GK] 4,500
            // [HGX] "INT8 Tensor Core 2 POPS*" / 8 / 2: Blackwell Ultra cut INT8 (B200: 4,500).
            // [B300-GK] prints 4,500 (the B200 figure) and [VERDA] 150: the vendor's table wins.
            .int8_tensor = 125 * units::TFLOPS,
            // [B300-GK] 13,125 dense | 18,000 sparse ([VERDA]: 14,000 dense). FP4's sparse
            // figure is 1.37x dense, not sparsity_factor x dense: peak.sparse_tensor(fp4)
            // overstates it (26,250); nothing in the models reads sparse rates.
            .fp4_tensor = 13125 * units::TFLOPS,
            .sparsity_factor = 2.0,  // [HGX] "* With sparsity" (TF32 to FP8)
        },
    .tdp = 1100 * units::W,  // [VERDA] 1.1 kW in HGX; [PUBLOG] power cap 1,100 W
    // [HGX] NVLink 5 through NVSwitch: 1.8 TB/s per GPU (bidirectional), 14.4 TB/s over 8; 18 links
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 18, 1800 * units::GBps, 7),
    .pcie = {.generation = 6, .lanes = 16},  // [B300-GK] PCIe Gen6
    .sm_count = 148,                         // [PUBLOG] "B300 SXM6 AC (sm_103a, 148 SMs)"
    .boost_clock = 2032 * units::MHz,        // [PUBLOG] nvidia-smi max SM clock 2,032 MHz
    .compute_capability = {10, 3},  // [CUDA-GPUS]
    // no measurement of its own: the B200's figures (Blackwell tensor cores of the same kind)
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::b200_bf16, "bf16 MAMF of the B200"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::b200_fp8, "fp8 MAMF of the B200"),
        },
};

/// The Blackwell GPU of a GB200 superchip (GB200 NVL72), configured at 1,200 W: faster than the
/// HGX B200 (1,000 W) and with 186 GB enabled.
inline constexpr gpu_spec gb200{
    .name = "GB200-186GB",
    .aliases = {"gb200", "NVIDIA GB200", "gb200-gpu", "b200-gb200"},
    .maker = vendor::nvidia,
    .architecture = "Blackwell",
    .form = form_factor::other,  // on the Grace Blackwell superchip board, not an SXM module
    // [NVL72] 13.4 TB over 72 GPUs = 186 "GB", binary: the driver's 189,471 MiB ([PUBLOG]) is
    // 198.7e9 B, above 186e9 B and below 186 GiB (190,464 MiB)
    .memory = 186 * units::GiB,
    .memory_usable = 189471 * units::MiB,  // [PUBLOG] nvidia-smi "NVIDIA GB200, 189471 MiB"
    .memory_type = "HBM3e",
    .memory_bandwidth = 8000 * units::GBps,  // [NVL72] 576 TB/s over 72 GPUs
    .peak =
        {
            .fp64_vector = 45 * units::TFLOPS,     // [GB-GK]
            .fp64_tensor = 45 * units::TFLOPS,     // [GB-GK]
            .fp32_vector = 90 * units::TFLOPS,     // [GB-GK]
            .tf32_tensor = 1250 * units::TFLOPS,   // [GB-GK] 1,250 | 2,500*
            .bf16_tensor = 2500 * units::TFLOPS,   // [GB-GK] 2,500 | 5,000*
            .fp16_tensor = 2500 * units::TFLOPS,   // [GB-GK]
            .fp8_tensor = 5000 * units::TFLOPS,    // [GB-GK] 5,000 | 10,000*; [NVL72] 720 PF* / 72
            .int8_tensor = 5000 * units::TFLOPS,   // [GB-GK] 5,000 | 10,000*
            .fp4_tensor = 10000 * units::TFLOPS,   // [GB-GK] 10,000 | 20,000*; [NVL72] 1.44 EF* / 72
            .sparsity_factor = 2.0,
        },
    .tdp = 1200 * units::W,  // [GB-GK] the GB200 variant configured at 1,200 W
    // NVLink 5: 1.8 TB/s per GPU (bidirectional), 18 links, to all 71 others through the
    // NVLink switch trays of the rack ([NVL72] 130 TB/s = 72 x 1.8 TB/s)
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 18, 1800 * units::GBps, 71),
    .pcie = {.generation = 6, .lanes = 16},  // [BW-TB] PCIe Gen6 (the CPU link is NVLink-C2C)
    .sm_count = 152,                         // [PUBLOG] "NVIDIA GB200, 152 SMs"
    .boost_clock = {},                       // not in the sources read
    .compute_capability = {10, 0},  // [CUDA-GPUS]
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::b200_bf16, "bf16 MAMF of the B200"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::b200_fp8, "fp8 MAMF of the B200"),
        },
};

/// The Blackwell Ultra GPU of a GB300 superchip (GB300 NVL72), at 1,400 W.
inline constexpr gpu_spec gb300{
    .name = "GB300-288GB",
    .aliases = {"gb300", "NVIDIA GB300", "gb300-gpu", "b300-gb300"},
    .maker = vendor::nvidia,
    .architecture = "Blackwell",
    .form = form_factor::other,
    // 288 "GB" ([NVL72] 20.7 TB / 72; [VERDA] lists 279), binary: the driver's 284,208 MiB
    // ([PUBLOG]) is 298.0e9 B, above 288e9 B and below 288 GiB (294,912 MiB)
    .memory = 288 * units::GiB,
    .memory_usable = 284208 * units::MiB,  // [PUBLOG] nvidia-smi "NVIDIA GB300, 284208 MiB"
    .memory_type = "HBM3e",
    .memory_bandwidth = 8000 * units::GBps,  // [NVL72] 576 TB/s over 72; [VERDA] 8 TB/s
    .peak =
        {
            .fp64_vector = {},  // not in the sources read ([B300-GK]: "essentially no FP64")
            .fp64_tensor = {},
            .fp32_vector = 80 * units::TFLOPS,     // [VERDA] 0.080 PFLOPS
            .tf32_tensor = 1250 * units::TFLOPS,   // [VERDA] 1.25 PFLOPS dense
            .bf16_tensor = 2500 * units::TFLOPS,   // [VERDA] 2.5 PFLOPS dense
            .fp16_tensor = 2500 * units::TFLOPS,   // [VERDA]
            .fp8_tensor = 5000 * units::TFLOPS,    // [NVL72] 720 PF* / 72 / 2; [VERDA] 5 PF
            .int8_tensor = 24000.0 / 72.0 / 2.0 * units::TFLOPS,  // [NVL72] 24 POPS* ([VERDA] 165)
            // [NVL72] 1,080 PF dense / 72 (1,440 PF sparse: 1.33x, not sparsity_factor x)
            .fp4_tensor = 15000 * units::TFLOPS,
            .sparsity_factor = 2.0,  // [NVL72] "*" sparse figures, FP8 and above
        },
    .tdp = 1400 * units::W,  // [VERDA] max TDP 1.4 kW; [B300-GK] 1,400 W
    .gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 18, 1800 * units::GBps, 71),
    .pcie = {.generation = 6, .lanes = 16},  // [B300-GK] PCIe Gen6
    .sm_count = 0,                           // not in the sources read
    .boost_clock = {},
    .compute_capability = {10, 3},  // [CUDA-GPUS]
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::b200_bf16, "bf16 MAMF of the B200"),
            .matmul_8bit = efficiency_figure::borrowed(mamf::b200_fp8, "fp8 MAMF of the B200"),
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
    .compute_capability = {8, 9},  // [CUDA-GPUS]
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
    .compute_capability = {8, 9},  // [CUDA-GPUS]
};

/// L20: the L40S-class AD102 card for the Chinese market (2023); its tensor rates are unknown
/// here (see [L20-SPEC]), so the timing models refuse it until they are given.
inline constexpr gpu_spec l20{
    .name = "L20-48GB",
    .aliases = {"l20", "NVIDIA L20"},
    .maker = vendor::nvidia,
    .architecture = "Ada Lovelace",
    .form = form_factor::pcie,
    .memory = 48 * units::GiB,              // [L20-SPEC] 48 GB GDDR6
    .memory_usable = {},
    .memory_type = "GDDR6",
    .memory_bandwidth = 864 * units::GBps,  // [L20-SPEC] 864 GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 59.35 * units::TFLOPS,  // [L20-SPEC] 92 SMs x 128 x 2 x 2.52 GHz
            // tensor rates: not found in any source read (reported as about a third of the
            // L40S's); 0 = unknown
            .tf32_tensor = {},
            .bf16_tensor = {},
            .fp16_tensor = {},
            .fp8_tensor = {},
            .int8_tensor = {},
            .fp4_tensor = {},
            .sparsity_factor = 2.0,  // Ada tensor cores (2:4 sparsity)
        },
    .tdp = 275 * units::W,  // [L20-SPEC] 275 W
    .gpu_link = {},         // no NVLink on Ada
    .pcie = {.generation = 4, .lanes = 16},  // [L20-SPEC] PCIe 4.0 x16
    .sm_count = 92,                          // [L20-SPEC]
    .boost_clock = 2520 * units::MHz,        // [L20-SPEC]
    .compute_capability = {8, 9},  // [CUDA-GPUS]
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
    .compute_capability = {8, 9},  // [CUDA-GPUS]
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
    .compute_capability = {8, 9},  // [CUDA-GPUS]
};

// ------------------------------------------------------------------------ Blackwell (PCIe) --

/// RTX PRO 6000 Blackwell: Server Edition (passive, data-centre) and Workstation Edition, the
/// same GB202 configuration and memory; Max-Q (300 W) is slower and not this entry.
inline constexpr gpu_spec rtx_pro_6000_blackwell{
    .name = "RTX-PRO-6000-Blackwell-96GB",
    .aliases = {"rtx-pro-6000", "rtx-pro-6000-blackwell", "NVIDIA RTX PRO 6000 Blackwell Server Edition",
                "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "rtx-pro-6000-se",
                "rtx6000-blackwell"},
    .maker = vendor::nvidia,
    .architecture = "Blackwell",
    .form = form_factor::pcie,
    .memory = 96 * units::GiB,  // [RTXPRO-DB] 96 GB GDDR7 with ECC (32 x 3 GiB, clamshell)
    .memory_usable = 97343 * units::MiB,  // [PUBLOG] torch total_memory_mb 97343 (Server Ed.)
    .memory_type = "GDDR7",
    .memory_bandwidth = 1792 * units::GBps,  // [RTXPRO-DB] 1,792 GB/s (512-bit, 28 Gbps)
    .peak =
        {
            .fp64_vector = 1.97 * units::TFLOPS,    // [RTXPRO-DB]
            .fp64_tensor = {},
            .fp32_vector = 125.95 * units::TFLOPS,  // [RTXPRO-DB]; NVIDIA "125 TFLOPS"
            .tf32_tensor = 251.9 * units::TFLOPS,   // [RTXPRO-DB] 251.9 | 503.8*
            // [RTXPRO-DB] 503.8 | 1,008*, FP32 accumulate at the FP16-accumulate rate on this
            // professional part
            .bf16_tensor = 503.8 * units::TFLOPS,
            .fp16_tensor = 503.8 * units::TFLOPS,
            .fp8_tensor = 1007.6 * units::TFLOPS,   // [RTXPRO-DB] "1.01 PFLOPS" = 2 x 503.8
            .int8_tensor = 1007.6 * units::TFLOPS,  // [RTXPRO-DB] "1.01 POPS"
            .fp4_tensor = 2015.2 * units::TFLOPS,   // [RTXPRO-DB] "2.02" = 4 x 503.8; NVIDIA 4,000*
            .sparsity_factor = 2.0,
        },
    .tdp = 600 * units::W,  // [RTXPRO-DB] 600 W (Workstation; Server Edition up to 600 W)
    .gpu_link = {},         // no NVLink on RTX PRO Blackwell
    .pcie = {.generation = 5, .lanes = 16},  // [RTXPRO-DB] PCIe 5.0 x16
    .sm_count = 188,                         // [PUBLOG] multi_processor_count 188
    .boost_clock = 2617 * units::MHz,        // [RTXPRO-DB]
    .compute_capability = {12, 0},  // [CUDA-GPUS]
};

inline constexpr gpu_spec rtx_5090{
    .name = "RTX-5090-32GB",
    .aliases = {"rtx-5090", "5090", "NVIDIA GeForce RTX 5090", "GeForce RTX 5090"},
    .maker = vendor::nvidia,
    .architecture = "Blackwell",
    .form = form_factor::pcie,
    .memory = 32 * units::GiB,            // [RTX50] 32 GB GDDR7
    .memory_usable = 32607 * units::MiB,  // [PUBLOG] nvidia-smi 32607 MiB
    .memory_type = "GDDR7",
    .memory_bandwidth = 1792 * units::GBps,  // [RTX50] 1,792 GB/s
    .peak =
        {
            .fp64_vector = {},
            .fp64_tensor = {},
            .fp32_vector = 104.75 * units::TFLOPS,  // [RTX50] 21,760 cores x 2 x 2.407 GHz ("104")
            .tf32_tensor = 104.75 * units::TFLOPS,  // the FP32 rate, as on the RTX 5050 and 4090
            // [RTX50] FP4 3,352* = 1,676 dense; FP16 with FP16 accumulate a quarter (838* / 2 =
            // 419) and with FP32 accumulate half that on GeForce: 209.5
            .bf16_tensor = 209.5 * units::TFLOPS,
            .fp16_tensor = 209.5 * units::TFLOPS,
            .fp8_tensor = 419 * units::TFLOPS,    // FP32 accumulate (FP16 accumulate: 838)
            .int8_tensor = 838 * units::TFLOPS,   // FP4 / 2, as on the RTX 5050 page
            .fp4_tensor = 1676 * units::TFLOPS,   // [RTX50] 3,352 AI TOPS* / 2
            .sparsity_factor = 2.0,
        },
    .tdp = 575 * units::W,  // [RTX50] total board power 575 W
    .gpu_link = {},         // no NVLink on GeForce Blackwell
    .pcie = {.generation = 5, .lanes = 16},  // [RTX50] PCIe 5.0 x16
    .sm_count = 170,                         // [RTX50]
    .boost_clock = 2407 * units::MHz,        // [RTX50]
    .compute_capability = {12, 0},  // [CUDA-GPUS]
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
    .compute_capability = {8, 6},  // [CUDA-GPUS]
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
    .compute_capability = {8, 6},  // [CUDA-GPUS]
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
    .compute_capability = {7, 5},  // [CUDA-GPUS]
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
      .compute_capability = {7, 0},                      // [CUDA-GPUS]
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

inline constexpr gpu_spec mi325x{
    .name = "MI325X-256GB",
    .aliases = {"mi325x", "AMD Instinct MI325X", "mi325"},
    .maker = vendor::amd,
    .architecture = "CDNA3",
    .form = form_factor::oam,
    .memory = 256 * units::GiB,  // [MI325X-DS] 256 GB HBM3E (8 stacks of 12-high, 32 GiB each)
    .memory_usable = {},         // no published driver total found
    .memory_type = "HBM3e",
    .memory_bandwidth = 6000 * units::GBps,  // [MI325X-DS] 6 TB/s
    .peak =
        {
            // the MI300X's FP64 figures: the same compute die, CUs and clock ([MI325X-DS] gives
            // the MI300X's figures for every rate it lists); not in the transcription read
            .fp64_vector = 81.7 * units::TFLOPS,
            .fp64_tensor = 163.4 * units::TFLOPS,
            .fp32_vector = 163.4 * units::TFLOPS,    // [MI325X-DS]
            .tf32_tensor = 653.7 * units::TFLOPS,    // [MI325X-DS]
            .bf16_tensor = 1307.4 * units::TFLOPS,   // [MI325X-DS]
            .fp16_tensor = 1307.4 * units::TFLOPS,   // [MI325X-DS]
            .fp8_tensor = 2614.9 * units::TFLOPS,    // [MI325X-DS] 2,614.9 | 5,229.8*
            .int8_tensor = 2614.9 * units::TFLOPS,   // the MI300X's (the same die)
            .fp4_tensor = {},
            .sparsity_factor = 2.0,  // [MI325X-DS] "FP8 with sparsity 5,229.8"
        },
    .tdp = 1000 * units::W,  // [MI325X-DS] 1,000 W
    // [MI325X-DS] seven Infinity Fabric links, as the MI300X's: 7 x 128 GB/s (bidirectional)
    .gpu_link = link_spec::from_bidirectional(link_kind::xgmi, 7, 896 * units::GBps, 7),
    .pcie = {.generation = 5, .lanes = 16},  // [MI325X-DS] PCIe Gen5 x16
    .sm_count = 304,                         // [MI325X-DS] 304 compute units
    .boost_clock = 2100 * units::MHz,  // the MI300X's: 1,307.4 TFLOPS = 304 CUs x 2,048 x 2.1 GHz
    .kernels =
        {
            .matmul_16bit = efficiency_figure::borrowed(mamf::mi300x_bf16, "bf16 MAMF of the MI300X"),
        },
};

inline constexpr gpu_spec mi355x{
    .name = "MI355X-288GB",
    .aliases = {"mi355x", "AMD Instinct MI355X", "mi355"},
    .maker = vendor::amd,
    .architecture = "CDNA4",
    .form = form_factor::oam,
    .memory = 288 * units::GiB,  // [MI355X] 288 GB HBM3E (8 stacks of 12-high, 36 GiB each)
    .memory_usable = {},
    .memory_type = "HBM3e",
    .memory_bandwidth = 8000 * units::GBps,  // [MI355X] 8 TB/s
    .peak =
        {
            .fp64_vector = 78.6 * units::TFLOPS,  // [MI355X] 78.6 TFLOPS
            .fp64_tensor = 78.6 * units::TFLOPS,  // CDNA4 runs FP64 matrices at the vector rate
            // twice FP64 as on every CDNA part (MI300X 81.7 / 163.4): not in the sources read
            .fp32_vector = 157.3 * units::TFLOPS,
            .tf32_tensor = {},  // not in the sources read
            // [MI355X] 256 CUs x 8,192 FP8 FLOP/clk x 2.4 GHz = 5,033 TFLOPS ("five petaflops");
            // 16-bit at half the FP8 rate as on CDNA3 (1,307.4 vs 2,614.9); FP4 twice FP8
            // ("10 petaFLOPS")
            .bf16_tensor = 2516.6 * units::TFLOPS,
            .fp16_tensor = 2516.6 * units::TFLOPS,
            .fp8_tensor = 5033.2 * units::TFLOPS,
            .int8_tensor = {},  // not in the sources read
            .fp4_tensor = 10066.3 * units::TFLOPS,
            .sparsity_factor = 2.0,  // [MI355X] The Register: "double that" with sparsity
        },
    .tdp = 1400 * units::W,  // [MI355X] 1,400 W total board power (liquid cooled)
    // [MI355X] ~153 GB/s per Infinity Fabric link (bidirectional), 7 links to the 7 peers of an
    // 8-GPU board
    .gpu_link = link_spec::from_bidirectional(link_kind::xgmi, 7, 7 * 153 * units::GBps, 7),
    .pcie = {.generation = 5, .lanes = 16},  // [MI355X] PCIe Gen5 x16
    .sm_count = 256,                         // [MI355X] 8 XCDs x 32 CUs
    .boost_clock = 2400 * units::MHz,        // [MI355X] 2.4 GHz peak
};

/// Every GPU of the catalog, in the order docs/catalog.md lists them (h100_sxm stays all_gpus[4],
/// as tests/static/catalog_static.cpp and the docs use it).
inline constexpr std::array all_gpus{
    a100_sxm_40gb,  a100_sxm_80gb,  a100_pcie_40gb, a100_pcie_80gb, h100_sxm,
    h100_pcie,      h100_nvl,       h200_sxm,       h200_nvl,       h800_sxm,
    h20,            a800_sxm_80gb,  b200,           b300,           gb200,
    gb300,          l4,             l40s,           l20,            rtx_6000_ada,
    rtx_4090,       rtx_pro_6000_blackwell,         rtx_5090,       a10,
    rtx_3090,       t4,             v100_sxm2_16gb, v100_sxm2_32gb, v100_pcie_16gb,
    v100_pcie_32gb, mi250x,         mi300x,         mi325x,         mi355x,
};

}  // namespace gpuplan::catalog
