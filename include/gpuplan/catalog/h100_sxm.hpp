// gpuplan/catalog/h100_sxm.hpp: the H100 SXM5 80GB, alone.
//
// The GPU most of the models' measured figures were taken on (models/estimates.hpp's
// roofline_measured_gpu) and the GPU of the default server (catalog/dgx_h100.hpp). It has a
// header of its own so that a model or plan header that needs it does not compile the other 34
// GPUs of catalog/gpus.hpp (which includes this one; all_gpus lists it as before). Conventions
// are catalog/gpus.hpp's.
//
// Sources, cited by tag beside each figure (the same tags as catalog/gpus.hpp):
//  [H100-DS]   NVIDIA H100 Tensor Core GPU datasheet (2023/2024 edition, SXM / PCIe / NVL columns)
//  [GH100-WP]  NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), Table 3
//  [MLE]       stas00/ml-engineering compute/accelerator/README.md (its MAMF table gives
//              gpu_spec::kernels)
//  [DRV]       memory the CUDA runtime reports as the device total:
//              torch.cuda.get_device_properties(i).total_memory, printed in MiB
//              ("total_memory=81089MB"), as published in public logs and docs; nvidia-smi's
//              "Total" column can be larger (it may include memory the driver reserves)
#pragma once

#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/kernel_efficiency.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan::catalog {

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
    .compute_capability = {9, 0},            // NVIDIA's CUDA GPU list (developer.nvidia.com/cuda-gpus)
    // [MLE] MAMF table: H100 SXM measured (bf16, fp8); HBM: this project's copies
    .kernels =
        {
            .matmul_16bit = efficiency_figure::of_this_gpu(mamf::h100_sxm_bf16, "bf16 MAMF of the H100 SXM"),
            .matmul_8bit = efficiency_figure::of_this_gpu(mamf::h100_sxm_fp8, "fp8 MAMF of the H100 SXM"),
            .hbm = efficiency_figure::of_this_gpu(h100_sxm_hbm_copy_fraction, "streaming copies on the H100 SXM"),
            .moe_16bit = efficiency_figure::of_this_gpu(grouped_moe::h100_sxm_bf16, "vLLM fused_moe bf16 on the H100 SXM"),
            .moe_8bit = efficiency_figure::of_this_gpu(grouped_moe::h100_sxm_fp8, "vLLM fused_moe fp8 on the H100 SXM"),
            .moe_dequant = efficiency_figure::of_this_gpu(grouped_moe::h100_sxm_w4a16, "Marlin MoE W4A16 on the H100 SXM"),
        },
};

}  // namespace gpuplan::catalog
