// gpuplan/specs/kernel_efficiency.hpp: the fractions of its datasheet peaks that a GPU's kernels
// were measured to reach (largest GEMMs, streaming copies), as data of the GPU (gpu_spec::kernels),
// and the published measurements they come from, each once.
//
// The catalog (catalog/gpus.hpp) fills gpu_spec::kernels from the constants below: a GPU
// measured itself carries its figure with `measured` set; a GPU with none borrows a sibling's
// (same architecture) with `measured` false, which models/estimates.hpp reports as an estimate;
// a GPU with no figure at all (fraction 0: most GPUs read from a user's JSON file) gets the
// model's named default (models/kernels.hpp: unmeasured_matmul_fraction, unmeasured_hbm_fraction).
#pragma once

#include <gpuplan/specs/checks.hpp>

namespace gpuplan {

/// Maximum achievable matmul FLOPS (MAMF) as fractions of the dense tensor peak, from
/// stas00/ml-engineering, compute/accelerator/README.md ("Maximum Achievable Matmul FLOPS
/// comparison table": the best TFLOP/s of a sweep of GEMM shapes, PyTorch + cuBLAS/hipBLASLt).
/// Each is TFLOP/s measured / dense datasheet peak; the 16-bit ones are bf16.
namespace mamf {
/// A100 SXM bf16: 271.2 of 312 TFLOP/s = 0.869.
inline constexpr double a100_sxm_bf16 = 0.869;
/// A100 PCIe bf16: 252.9 of 312 TFLOP/s.
inline constexpr double a100_pcie_bf16 = 252.9 / 312.0;
/// H100 SXM bf16: 794.5 of 989.5 TFLOP/s = 0.803. The one H100 16-bit GEMM fraction of the
/// project: this project's own cuBLAS table (docs/models/serving.md) agrees, 733-818 TFLOP/s at
/// m >= 1024 (0.74-0.83).
inline constexpr double h100_sxm_bf16 = 0.803;
/// H100 SXM fp8: 1402.6 of 1979 TFLOP/s.
inline constexpr double h100_sxm_fp8 = 1402.6 / 1979.0;
/// H200 SXM fp8: 1453.4 of 1979 TFLOP/s.
inline constexpr double h200_sxm_fp8 = 1453.4 / 1979.0;
/// B200 bf16: 1745 of 2250 TFLOP/s = 0.776.
inline constexpr double b200_bf16 = 0.776;
/// B200 fp8: 3432.5 of 4500 TFLOP/s.
inline constexpr double b200_fp8 = 3432.5 / 4500.0;
/// MI300X bf16: 668.4 of 1307.4 TFLOP/s = 0.511.
inline constexpr double mi300x_bf16 = 0.511;
}  // namespace mamf

/// The engines' grouped MoE kernels (one launch for the experts a step touches, each expert's
/// tokens gathered into tiles) at prefill batches, as fractions of the dense tensor peak of their
/// math. They reach far less than a dense GEMM of the same work: the tokens are gathered row by
/// row, each expert's weights serve only its few row tiles, and the dequantising kernels are
/// bound by the instructions that unpack the weights, not by the tensor cores. Each is measured
/// at a few hundred tokens per expert, with the kernel's own tile padding taken out
/// (models/kernels.hpp, padded_expert_rows) and at a microbenchmark's clocks (the serving model
/// applies the sustained-load factor on top, as it does to MAMF).
namespace grouped_moe {
/// H100 SXM, bf16 experts, vLLM's Triton fused_moe: Mixtral 8x7B at TP 2 (E 8, hidden 4096,
/// expert slice 7168, top 2), `benchmark_moe.py` with the tuned config (vLLM PR #24700, 2025-09):
/// 833.72 us for 1024 tokens, 1122.93 us for 1536. The 512 tokens more route 1024 rows through
/// 176.2 MFLOP each, 180.4 GFLOP in 289.2 us: 624 TFLOP/s of 989.5 (the weights' read, common to
/// both, drops out of the difference; 256 to 384 rows per expert, so the padding too).
inline constexpr double h100_sxm_bf16 = 180.4 / 289.21 / 0.9895;
/// H100 SXM, fp8 experts (W8A8, per-tensor scales), vLLM's Triton fused_moe: Qwen3-30B-A3B (E
/// 128, hidden 2048, expert 768, top 8), `benchmark_moe.py --dtype fp8_w8a8` on main (vLLM PR
/// #24700, 2025-09): 911.64, 1279.17 and 1647.57 us for 2048, 3072 and 4096 tokens. Each 1024
/// tokens more route 8192 rows through 9.437 MFLOP, 77.3 GFLOP in 367.5-368.4 us: 210 TFLOP/s of
/// 1979 (128 to 256 rows per expert: padding and weights drop out of the difference).
inline constexpr double h100_sxm_fp8 = 77.31 / 368.40 / 1.979;
/// H100 SXM, 4-bit weights dequantised in the kernel, bf16 math (W4A16: Marlin MoE, MXFP4
/// experts): an nsys capture of a serving SGLang process (sgl-project/sglang PR #38884,
/// 2026-09), 16384-token prefill chunks: "1.237 TFLOP per layer per GPU in 4.863 ms is 254
/// TFLOPS, 25.7% of H100 BF16 peak ... issue-bound, not bandwidth-bound: the SASS inner loop
/// spends 64 of 220 instructions per 32-K step on HMMA, the rest on dequant, scale and pack".
/// The shape (256 experts, hidden 4096, expert 2048, top 6, split 4 ways: the 1.237 TFLOP and
/// the 856 MB of MXFP4 weights per layer and GPU) gives 384 tokens per expert, padded to 64-row
/// tiles 415.1 (padded_expert_rows): 254 x 415.1 / 384 = 274.6 TFLOP/s, under serving load,
/// so / 0.87 (sustained_matmul_fraction) at a microbenchmark's clocks: 0.319.
inline constexpr double h100_sxm_w4a16 = 254.0 * (415.1 / 384.0) / 0.87 / 989.5;
}  // namespace grouped_moe

/// Fraction of the datasheet HBM bandwidth a streaming kernel reaches on one H100 SXM: copies of
/// 256 MiB to 4 GiB ran at 2981-3028 GB/s of 3350 (0.89-0.90; PyTorch 2.11, this project's
/// kernel table, docs/models/serving.md); 0.90. The only HBM measurement in the project.
inline constexpr double h100_sxm_hbm_copy_fraction = 0.90;

/// One achievable fraction of a datasheet peak, and whose measurement it is.
struct efficiency_figure {
  /// Fraction of the peak; 0: no figure (the kernel model's named default applies).
  double fraction = 0.0;
  /// Measured on this GPU; false: borrowed from another GPU (an estimate for this one).
  bool measured = false;
  /// Whose measurement, in words ("bf16 MAMF of the H100 SXM").
  const char* source = "";

  [[nodiscard]] constexpr bool known() const { return fraction > 0.0; }
  /// A figure measured on this GPU.
  static constexpr efficiency_figure of_this_gpu(double f, const char* src) {
    return {f, true, src};
  }
  /// A figure borrowed from another GPU.
  static constexpr efficiency_figure borrowed(double f, const char* src) { return {f, false, src}; }
};

/// The least kernel fraction taken as a figure (0 aside, which means unknown): the lowest in the
/// catalog is the H100's fp8 grouped-MoE figure, 0.106 (the lowest MAMF the MI300X's 16-bit,
/// 0.511), and a GEMM or a copy at under 5% of its peak is a
/// mistake in the input (a percent written as a fraction, 0.8 as 0.008), which would slow every
/// kernel twentyfold or more without a word. A bound on the input, not a measurement.
inline constexpr double min_kernel_fraction = 0.05;

namespace detail {
/// A kernel fraction as a GPU file or an assumption gives it: 0 (unknown, or "the GPU's own
/// figure" for an assumption) or in [min_kernel_fraction, 1]. The one rule both follow.
constexpr bool kernel_fraction_or_zero(double x) {
  return finite(x) && (x == 0.0 || (x >= min_kernel_fraction && x <= 1.0));
}
}  // namespace detail

/// What fraction of its peaks a GPU's kernels reach (gpu_spec::kernels). Zero fractions: unknown.
struct kernel_efficiency {
  /// Largest-GEMM fraction of the dense 16-bit (bf16 / fp16) tensor peak.
  efficiency_figure matmul_16bit{};
  /// Largest-GEMM fraction of the dense fp8 tensor peak.
  efficiency_figure matmul_8bit{};
  /// Streaming-kernel fraction of the datasheet memory bandwidth.
  efficiency_figure hbm{};
  /// Grouped MoE kernel (the engines' fused MoE at prefill batches) fraction of the dense 16-bit
  /// tensor peak: bf16 / fp16 experts (namespace grouped_moe).
  efficiency_figure moe_16bit{};
  /// The same for fp8 experts (W8A8), of the dense fp8 tensor peak.
  efficiency_figure moe_8bit{};
  /// The same for experts whose weights the kernel dequantises to 16-bit math (W4A16, W8A16:
  /// Marlin MoE), of the dense 16-bit peak, the dequantisation included.
  efficiency_figure moe_dequant{};

  /// Throws gpuplan::invalid_input naming the field when a fraction is neither 0 (unknown) nor in
  /// [min_kernel_fraction, 1].
  constexpr void validate() const {
    struct field {
      const efficiency_figure& figure;
      const char* message;
    };
    const field fields[] = {
        {matmul_16bit, "gpu_spec.kernels.matmul_16bit must be 0 (unknown) or in [0.05, 1] (min_kernel_fraction)"},
        {matmul_8bit, "gpu_spec.kernels.matmul_8bit must be 0 (unknown) or in [0.05, 1] (min_kernel_fraction)"},
        {hbm, "gpu_spec.kernels.hbm must be 0 (unknown) or in [0.05, 1] (min_kernel_fraction)"},
        {moe_16bit, "gpu_spec.kernels.moe_16bit must be 0 (unknown) or in [0.05, 1] (min_kernel_fraction)"},
        {moe_8bit, "gpu_spec.kernels.moe_8bit must be 0 (unknown) or in [0.05, 1] (min_kernel_fraction)"},
        {moe_dequant, "gpu_spec.kernels.moe_dequant must be 0 (unknown) or in [0.05, 1] (min_kernel_fraction)"}};
    for (const field& f : fields)
      detail::check_input(detail::kernel_fraction_or_zero(f.figure.fraction), f.message,
                          f.figure.fraction);
  }
};

}  // namespace gpuplan
