// gpuplan/models/kernels.hpp: the time of one kernel on one GPU, for the training step
// (models/training_step.hpp) and serving (models/serving.hpp) alike: GEMMs, attention and
// memory-bound work, at achievable fractions of the GPU's peaks, and never below a launch floor.
//
//   memory-bound  t_m = bytes / (HBM bandwidth x achievable fraction)
//   GEMM, serving (gemm_time): t_c = FLOPs / (peak x MAMF x sustained x W / (W + W_half)),
//                 the kernel max(t_c, t_m) x (1 + (min / max)^p)^(1/p), at least the floor
//   GEMM, training (detail::gemm_seconds): t_c = FLOPs / (peak x MAMF x sustained x wave), where
//                 wave is the wave-quantisation efficiency of the output tiles over the SMs
//                 (with split-K for narrow, deep products), max(t_c, t_m) + the launch time
//   attention     FLOPs at a fraction of the tensor peak that saturates with the keys per query
//                 (or the sequence): max x K / (K + K_half)
//
// The serving GEMM's size-dependent fraction: a GEMM of W FLOPs reaches half of the large-GEMM
// fraction at W_half (too few tiles to fill the SMs, each tile's prologue and epilogue); its
// smooth maximum: a kernel near the ridge point neither overlaps its loads and its math
// perfectly (the plain max) nor serialises them (the sum). The training GEMM resolves the same
// effect by the tiles of its shapes, which its step-level validation was fitted with; the two
// share the facts below and the GPU's measured fractions (gpu_spec::kernels).
//
// The measured facts, each once: the per-GPU largest-GEMM and HBM fractions are data of the GPU
// (specs/kernel_efficiency.hpp, filled in catalog/gpus.hpp); for a GPU without them the named
// defaults unmeasured_matmul_fraction and unmeasured_hbm_fraction; the load factor under which
// a GPU sustains less than its best GEMM rate, sustained_matmul_fraction; the launch time of a
// kernel, kernel_launch_time.
//
// One override rule, for the training step and serving alike: an assumption field for one of
// these fractions (step_assumptions::matmul_peak_fraction and memory_bandwidth_fraction,
// roofline_assumptions::gemm_fraction_16bit/8bit/4bit and hbm_fraction) is 0 by default, which
// means the GPU's own figure (matmul_fraction, hbm_fraction below), else the named default; a
// value the caller sets replaces the GPU's figure.
#pragma once

#include <gpuplan/models/cmath.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/kernel_efficiency.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

// ---- measured facts and named defaults ---------------------------------------------------------

/// Fixed time of one kernel launched from a CUDA graph or a C++ runtime (launch, prologue,
/// epilogue, tail). In a bf16 GEMM sweep on one H100 SXM (PyTorch 2.11, cuBLAS), products with
/// m = 512 and 1024 against 4096 x 4096 weights ran 3.6-4.7 us over their roofline; 4 us. For
/// scale: a PyTorch eager launch of a 1 MiB copy takes about 10 us on an H100 (this project's
/// kernel table), and NCCL's own base latency is 3.6 us (collectives.hpp). The training step adds
/// it to every GEMM (step_assumptions::kernel_overhead); serving takes it as the least time of any
/// kernel (roofline_assumptions::kernel_floor).
inline constexpr duration kernel_launch_time = 4.0 * units::us;

/// Sustained-load factor on a GPU's largest-GEMM fraction: MAMF is the best of a short sweep, but a
/// training step or a serving engine under a benchmark's load keeps the GPU at its power limit and
/// the clocks drop. In a bf16 GEMM sweep on one H100 SXM (PyTorch 2.11, cuBLAS, mean of 20 runs),
/// the seven largest products (m = 16384) ran at 780, 720, 718, 697, 603, 710, 762 TFLOP/s, mean
/// 713, against 818 for the best mid-size product: 0.87. The training step applies it
/// (step_assumptions::sustained_fraction) and so does serving (roofline_assumptions::
/// gemm_sustained_fraction); a single short kernel, as in a microbenchmark, runs at 1.
inline constexpr double sustained_matmul_fraction = 0.87;

/// The largest-GEMM fraction for a GPU no published measurement covers (gpu_spec::kernels
/// .matmul_16bit unknown: Ada, Turing, Volta, CDNA2, a GPU from a JSON file without the key): the
/// median of the four NVIDIA bf16 MAMF fractions of the catalog (B200 0.776, H100 SXM 0.803, A100
/// PCIe 252.9 / 312 = 0.811, A100 SXM 0.869), (0.803 + 0.811) / 2 = 0.807. An estimate for any
/// GPU it applies to (models/estimates.hpp lists it).
inline constexpr double unmeasured_matmul_fraction = (mamf::h100_sxm_bf16 + mamf::a100_pcie_bf16) / 2.0;

/// The streaming fraction of the datasheet HBM bandwidth for a GPU without a figure of its own
/// (gpu_spec::kernels.hbm unknown): the H100 SXM's copies, 0.90 (specs/kernel_efficiency.hpp),
/// the only HBM measurement in the project.
inline constexpr double unmeasured_hbm_fraction = h100_sxm_hbm_copy_fraction;

/// The largest-GEMM fraction of the tensor peak that the step model uses by default for a GPU
/// (step_assumptions::matmul_peak_fraction = 0), and where it comes from: measured on this GPU,
/// or borrowed (a sibling's, or unmeasured_matmul_fraction for an architecture no published
/// measurement covers). `measured` is false for a borrowed figure, which is then an estimate for
/// this GPU (models/estimates.hpp reports it).
struct matmul_efficiency {
  double fraction = unmeasured_matmul_fraction;
  const char* source = "the median of the published NVIDIA bf16 MAMF fractions: no measurement "
                       "covers this architecture";
  bool measured = false;
};

/// The GPU's largest-GEMM fraction at precision p, from its kernel efficiencies
/// (gpu_spec::kernels): fp8 its 8-bit figure where it has one; bf16 and fp16 (the same tensor
/// cores at the same peak) its 16-bit figure; int8, fp4 and int4 (the tensor cores' other
/// low-precision paths, no measurement in the project) borrow the fp8 figure as an estimate, or
/// the 16-bit one where the GPU has no fp8 figure; any other precision (fp8 without a figure,
/// tf32, fp32) borrows the 16-bit one as an estimate; no figure: unmeasured_matmul_fraction.
constexpr matmul_efficiency default_matmul_efficiency(const gpu_spec& g,
                                                      precision p = precision::bf16) {
  const efficiency_figure& f8 = g.kernels.matmul_8bit;
  if (p == precision::fp8 && f8.known()) return {f8.fraction, f8.source, f8.measured};
  const bool low = p == precision::int8 || p == precision::fp4 || p == precision::int4;
  if (low && f8.known())
    return {f8.fraction, "an fp8 MAMF figure: no measurement at this precision", false};
  if (p != precision::bf16 && p != precision::fp16) {
    matmul_efficiency e = default_matmul_efficiency(g, precision::bf16);
    e.measured = false;
    e.source = "a bf16 MAMF figure: no measurement at this precision";
    return e;
  }
  const efficiency_figure& f16 = g.kernels.matmul_16bit;
  if (f16.known()) return {f16.fraction, f16.source, f16.measured};
  return {};
}

/// The largest-GEMM fraction a model applies at precision p on GPU g, by the one override rule:
/// `assumed` > 0 (a figure the caller set) wins; 0 (every assumption's default) is the GPU's own
/// figure, default_matmul_efficiency.
constexpr double matmul_fraction(const gpu_spec& g, precision p, double assumed) {
  return assumed > 0.0 ? assumed : default_matmul_efficiency(g, p).fraction;
}

/// The streaming fraction of its HBM bandwidth that the models use for a GPU by default, and
/// whose it is: the GPU's own figure (gpu_spec::kernels.hbm, measured or borrowed), else
/// unmeasured_hbm_fraction (an estimate: not measured on this GPU).
constexpr efficiency_figure default_hbm_efficiency(const gpu_spec& g) {
  if (g.kernels.hbm.known()) return g.kernels.hbm;
  return efficiency_figure::borrowed(unmeasured_hbm_fraction,
                                     "the H100 SXM's streaming copies: no measurement of this GPU");
}

/// The achievable fraction of the GPU's memory bandwidth, by the one override rule: `assumed` > 0
/// (a figure the caller set) wins; 0 (the assumptions' default) is the GPU's own figure, else
/// unmeasured_hbm_fraction (default_hbm_efficiency).
constexpr double hbm_fraction(const gpu_spec& g, double assumed) {
  return assumed > 0.0 ? assumed : default_hbm_efficiency(g).fraction;
}

/// The bandwidth a streaming kernel reaches on the GPU (hbm_fraction x the datasheet's).
constexpr bandwidth achievable_bandwidth(const gpu_spec& g, double assumed) {
  return hbm_fraction(g, assumed) * g.memory_bandwidth;
}

/// Time of memory-bound work: `bytes` read and written at the achievable bandwidth.
constexpr duration memory_time(data_size bytes, const gpu_spec& g, double assumed) {
  return bytes / achievable_bandwidth(g, assumed);
}

// ---- the CUDA cores' special functions, by compute capability -----------------------------------

/// Native arithmetic results per clock per SM (multiprocessor) of one compute capability, from
/// the CUDA C++ Programming Guide's "Arithmetic Instructions" throughput table: `fp32` 32-bit
/// floating-point add, multiply and multiply-add; `special` 32-bit reciprocal, reciprocal square
/// root, base-2 logarithm and exponential (exp2f), sine and cosine, the multi-function unit
/// (MUFU) that also converts between 32-bit floats and the 16-bit types ("all other type
/// conversions", the same 16 on every row here).
struct sm_arithmetic_rate {
  int major = 0, minor = 0;
  double fp32 = 0.0, special = 0.0;
};
/// The guide's columns 7.x, 8.0, 8.6, 8.9 and 9.0 (Volta and Turing 64 FP32 lanes an SM, GA100
/// 64, GA10x and Ada 128, Hopper 128; 16 special-function results on all of them). Hopper's row
/// agrees with FlashAttention-3 (Shah et al., arXiv:2407.08608, Sec. 3.1): "the H100 SXM5 GPU
/// has 989 TFLOPS of FP16 matmul but only 3.9 TFLOPS of special functions", 16 an SM per clock
/// at 132 SMs and 1.83 GHz. Blackwell (10.x, 12.x) and AMD parts are not listed: no row read.
inline constexpr sm_arithmetic_rate sm_arithmetic_rates[] = {
    {7, 0, 64.0, 16.0},  {7, 5, 64.0, 16.0},  {8, 0, 64.0, 16.0},
    {8, 6, 128.0, 16.0}, {8, 9, 128.0, 16.0}, {9, 0, 128.0, 16.0},
};
/// FP32 lane slots one special-function result takes on a GPU whose compute capability has no
/// row above (or is unknown): compute capability 8.0's 64 / 16, the figure the step model took for
/// every GPU before the table. ESTIMATE for Blackwell and AMD.
inline constexpr double unlisted_special_function_slots = 64.0 / 16.0;

/// FP32 lane slots (one FP32 add, multiply or FMA a lane a clock) an exp2 or a 32-to-16-bit
/// conversion takes on GPU g: its compute capability's FP32 results per clock per SM over its
/// special-function results (sm_arithmetic_rates), else unlisted_special_function_slots.
constexpr double special_function_slots(const gpu_spec& g) {
  for (const sm_arithmetic_rate& r : sm_arithmetic_rates)
    if (r.major == g.compute_capability.major && r.minor == g.compute_capability.minor)
      return r.fp32 / r.special;
  return unlisted_special_function_slots;
}

/// max_fraction x x / (x + half): a fraction of peak that saturates with the size x of the work
/// (attention's keys per query, or its sequence), half of it at x = half; 0 for no work.
constexpr double saturating_fraction(double x, double max_fraction, double half) {
  return x > 0.0 ? max_fraction * x / (x + half) : 0.0;
}

// ---- serving: one kernel on the roofline ---------------------------------------------------

struct roofline_assumptions {
  // ---- matrix multiplies (cuBLAS / CUTLASS GEMMs) ---------------------------------------------

  /// Large-GEMM fraction of the dense 16-bit (bf16 / fp16) tensor peak. 0: the GPU's own figure,
  /// its bf16 maximum achievable matmul FLOPS (gpu_spec::kernels.matmul_16bit, the measurements
  /// in specs/kernel_efficiency.hpp: H100 SXM 0.803, which this project's own cuBLAS table agrees
  /// with, 733-818 of 989.5 TFLOP/s at m >= 1024; A100 SXM 0.869; B200 0.776; MI300X 0.511), or
  /// unmeasured_matmul_fraction (0.807) for a GPU without one; the same figure the step model
  /// reads (matmul_fraction, default_matmul_efficiency). A value set replaces it on every GPU.
  /// Each GEMM fraction, the GPU's or the caller's, runs at gemm_sustained_fraction of itself, as
  /// the step model's matmul_peak_fraction runs at its sustained_fraction.
  double gemm_fraction_16bit = 0.0;
  /// Large-GEMM fraction of the dense 8-bit (fp8 / int8) tensor peak. 0: the GPU's own fp8 MAMF
  /// (gpu_spec::kernels.matmul_8bit: H100 SXM 1402.6 / 1979 = 0.709, H200 0.734, B200 0.763;
  /// stas00/ml-engineering; the H100's agrees with this project's torch._scaled_mm table, 1352-1443
  /// TFLOP/s at m >= 1024), else its 16-bit figure as an estimate (default_matmul_efficiency).
  double gemm_fraction_8bit = 0.0;
  /// Large-GEMM fraction of the 4-bit (fp4 / int4) tensor peak. 0: ESTIMATE, the GPU's fp8 figure
  /// (default_matmul_efficiency); no fp4 GEMM measurement is in the project yet.
  double gemm_fraction_4bit = 0.0;
  /// Sustained-load factor on the large-GEMM fraction: sustained_matmul_fraction (0.87, the H100
  /// SXM's largest products under sustained load against its best; the step model's factor too).
  /// The published serving runs are benchmarks that keep the GPU busy step after step; 1 for a
  /// single kernel at boost clocks (the H100 microbenchmark tables the ramp was fitted on).
  double gemm_sustained_fraction = sustained_matmul_fraction;
  /// Work of one GEMM at which it reaches half its large-GEMM fraction. Calibrated on the H100
  /// bf16 table, 4096 x 4096 weights: m = 512 (17.2 GFLOP) runs at 652 TFLOP/s = 0.826 of the
  /// m = 8192 rate (789), so W_half = 17.2 x 0.174 / 0.826 = 3.6 GFLOP.
  compute_amount gemm_half_work = 3.6 * units::GFLOP;
  /// Exponent p of the smooth maximum of compute and memory time. Calibrated on the H100 bf16
  /// table at the ridge (8192 x 8192 weights, m = 128-512: 339, 621, 695 TFLOP/s measured; p = 3
  /// gives 371, 589, 735; the plain max, p -> infinity, gives 384, 768, 789).
  double roofline_sharpness = 3.0;

  // ---- memory -----------------------------------------------------------------------------------

  /// Fraction of the datasheet HBM bandwidth a streaming kernel reaches. 0: the GPU's own figure
  /// (gpu_spec::kernels.hbm: the H100 SXM's copies, 0.90), else the named default
  /// unmeasured_hbm_fraction (0.90, the same measurement) (hbm_fraction, default_hbm_efficiency).
  /// A value set replaces it on every GPU.
  double hbm_fraction = 0.0;

  // ---- attention (FlashAttention-class kernels) ----------------------------------------------

  /// Large-context fraction of the 16-bit tensor peak for causal attention's forward pass, and
  /// the mean keys per query at which half of it is reached. Calibrated on the H100 table
  /// (F.scaled_dot_product_attention, flash backend, bf16, head dim 128): 548, 603 and 634
  /// TFLOP/s at sequence 2048, 4096 and 8192 (mean keys 1024, 2048, 4096) fit
  /// 0.676 x K / (K + 227) within 1%.
  double attention_fraction = 0.676;
  double attention_half_keys = 227.0;

  // ---- weight-only quantisation (W4A16 / W8A16: Marlin, AWQ, GPTQ kernels) -------------------

  /// Vector operations to unpack, convert and scale one quantised weight. ESTIMATE: Marlin's
  /// dequantisation is a few bit operations (lop3), one conversion and one fused multiply-add
  /// per weight pair or weight (Frantar et al. 2024, "MARLIN", arXiv:2408.11743, sec. 4); 4.
  double dequant_ops_per_weight = 4.0;
  /// Activation rows that share one dequantised weight tile. Marlin tiles 16 rows per warp and
  /// up to 4 such tiles per thread block (64 rows): the weights are dequantised again for every
  /// 64 rows of a large batch, which is why its speed-up fades above batch 32-64 (MARLIN,
  /// arXiv:2408.11743, figs. 1 and 9).
  int dequant_tile_rows = 64;

  // ---- grouped MoE GEMMs (vLLM fused_moe, Marlin MoE, DeepGEMM grouped) ------------------------

  /// Fraction of the dense 16-bit tensor peak the engine's grouped MoE kernel reaches for bf16 /
  /// fp16 experts. 0: the GPU's own figure (gpu_spec::kernels.moe_16bit: H100 SXM 0.630, vLLM's
  /// Triton fused_moe, specs/kernel_efficiency.hpp grouped_moe), else the GPU's large-GEMM
  /// fraction (gemm_fraction_16bit), as for a dense GEMM. Runs at gemm_sustained_fraction too.
  double moe_fraction_16bit = 0.0;
  /// The same for fp8 experts (W8A8), of the fp8 peak. 0: the GPU's own figure
  /// (gpu_spec::kernels.moe_8bit: H100 SXM 0.106, vLLM's Triton fused_moe at fp8), else its
  /// large-GEMM fraction (gemm_fraction_8bit).
  double moe_fraction_8bit = 0.0;
  /// The same for experts whose weights the kernel dequantises (W4A16, W8A16: Marlin MoE), of the
  /// 16-bit peak, the dequantisation included. 0: the GPU's own figure
  /// (gpu_spec::kernels.moe_dequant: H100 SXM 0.319, Marlin MoE with MXFP4 weights), else the
  /// large-GEMM fraction with the dequantisation on the vector units (dequant_ops_per_weight).
  double moe_fraction_dequant = 0.0;
  /// The fp8 grouped kernel's fraction of the fp8 peak behind DeepEP's dispatch (SGLang's
  /// data-parallel attention with wide expert parallelism runs DeepGEMM's grouped GEMMs, not the
  /// Triton fused_moe of moe_8bit), where moe_fraction_8bit is not set. DeepGEMM's README,
  /// "Grouped GEMMs for MoE models (contiguous layout)" on an H800 SXM5 (NVCC 12.8): 1297, 1099,
  /// 1288 and 1093 TFLOPS for 4 x 8192 and 8 x 4096 rows (N 4096 K 7168, N 7168 K 2048); their
  /// mean 1194 over the H800's dense fp8 peak 1979: 0.603. Runs at gemm_sustained_fraction too.
  double deepep_moe_fraction_8bit = (1297.0 + 1099.0 + 1288.0 + 1093.0) / 4.0 / 1979.0;
  /// Largest rows of one tile of a grouped MoE kernel: each expert's tokens are padded up to a
  /// multiple of its tile (vLLM's moe_align_block_size), so an expert with 65 tokens takes two
  /// 64-row tiles. vLLM's fused_moe takes BLOCK_SIZE_M 64 for more tokens than experts and for
  /// fp8 block scales (get_default_config); its Marlin MoE at most 64 (fused_moe.py, v0.10 to
  /// v0.11); DeepGEMM's contiguous layout aligns to 128. 64.
  int moe_block_rows = 64;
  /// Smallest tile rows of the Triton fused_moe, which it takes while the step's tokens are no
  /// more than the experts (get_default_config: BLOCK_SIZE_M 16 for M <= E, else 64; the least
  /// M of Triton's tl.dot). 16.
  int moe_min_block_rows = 16;
  /// Smallest tile rows of a kernel that dequantises its weights (Marlin MoE): it takes the
  /// smallest of 8, 16, 32, 64 (8 x 2^i, at most moe_block_rows) that the mean tokens per expert
  /// fill to under 0.9 (fused_marlin_moe's block_size_m rule, vLLM v0.10 to v0.11). 8.
  int moe_dequant_min_block_rows = 8;

  // ---- fixed costs ------------------------------------------------------------------------------

  /// Least time of any kernel (launch, ramp-up, tail), captured in a CUDA graph or issued by a C++
  /// runtime: kernel_launch_time (4 us).
  duration kernel_floor = kernel_launch_time;

  constexpr void validate() const {
    // the GPU file's rule (kernel_efficiency::validate): 0 or at least min_kernel_fraction
    using detail::positive_fraction;
    struct setting {
      double value;
      const char* message;
    };
    const setting by_gpu[] = {
        {gemm_fraction_16bit, "roofline_assumptions.gemm_fraction_16bit must be 0 (the GPU's own "
                              "figure) or in [0.05, 1] (min_kernel_fraction)"},
        {gemm_fraction_8bit, "roofline_assumptions.gemm_fraction_8bit must be 0 (the GPU's own "
                             "figure) or in [0.05, 1] (min_kernel_fraction)"},
        {gemm_fraction_4bit, "roofline_assumptions.gemm_fraction_4bit must be 0 (the GPU's own "
                             "figure) or in [0.05, 1] (min_kernel_fraction)"},
        {hbm_fraction, "roofline_assumptions.hbm_fraction must be 0 (the GPU's own figure) or in "
                       "[0.05, 1] (min_kernel_fraction)"},
        {moe_fraction_16bit, "roofline_assumptions.moe_fraction_16bit must be 0 (the GPU's own "
                             "figure) or in [0.05, 1] (min_kernel_fraction)"},
        {moe_fraction_8bit, "roofline_assumptions.moe_fraction_8bit must be 0 (the GPU's own "
                            "figure) or in [0.05, 1] (min_kernel_fraction)"},
        {moe_fraction_dequant, "roofline_assumptions.moe_fraction_dequant must be 0 (the GPU's "
                               "own figure) or in [0.05, 1] (min_kernel_fraction)"}};
    for (const setting& f : by_gpu)
      detail::check_input(detail::kernel_fraction_or_zero(f.value), f.message, f.value);
    detail::check_input(positive_fraction(gemm_sustained_fraction),
                        "roofline_assumptions.gemm_sustained_fraction must be in (0, 1]");
    detail::check_input(positive_fraction(attention_fraction),
                        "roofline_assumptions.attention_fraction must be in (0, 1]");
    detail::check_input(detail::finite_nonnegative(gemm_half_work.value),
                        "roofline_assumptions.gemm_half_work must be finite and not negative");
    detail::check_input(detail::finite_nonnegative(attention_half_keys),
                        "roofline_assumptions.attention_half_keys must be finite and not negative");
    detail::check_input(detail::finite(roofline_sharpness) && roofline_sharpness >= 1.0,
                        "roofline_assumptions.roofline_sharpness must be at least 1");
    detail::check_input(detail::finite_nonnegative(dequant_ops_per_weight),
                        "roofline_assumptions.dequant_ops_per_weight must not be negative");
    detail::check_input(dequant_tile_rows >= 1,
                        "roofline_assumptions.dequant_tile_rows must be at least 1",
                        dequant_tile_rows);
    detail::check_input(moe_min_block_rows >= 1 && moe_dequant_min_block_rows >= 1 &&
                            moe_block_rows >= moe_min_block_rows &&
                            moe_block_rows >= moe_dequant_min_block_rows,
                        "roofline_assumptions.moe_min_block_rows and moe_dequant_min_block_rows "
                        "must be at least 1 and moe_block_rows at least both",
                        moe_min_block_rows, moe_dequant_min_block_rows, moe_block_rows);
    detail::check_input(detail::kernel_fraction_or_zero(deepep_moe_fraction_8bit) &&
                            deepep_moe_fraction_8bit > 0.0,
                        "roofline_assumptions.deepep_moe_fraction_8bit must be in [0.05, 1] "
                        "(min_kernel_fraction)", deepep_moe_fraction_8bit);
    detail::check_input(detail::finite_nonnegative(kernel_floor.value),
                        "roofline_assumptions.kernel_floor must be finite and not negative");
  }
};

/// One kernel's cost: its compute and memory times and the time it takes.
struct kernel_time {
  duration compute{};  ///< FLOPs at the achievable compute rate
  duration memory{};   ///< bytes at the achievable bandwidth
  duration total{};    ///< the smooth maximum, at least the kernel floor
  /// The math at the large-kernel fraction, without the small-kernel penalty (the classic
  /// roofline's compute time; GEMMs only, zero elsewhere).
  duration math{};
  [[nodiscard]] constexpr bool compute_bound() const { return compute > memory; }
};

/// max(a, b) x (1 + (min / max)^p)^(1/p): the smooth maximum of two times.
constexpr duration smooth_max(duration a, duration b, double p) {
  const duration hi = a > b ? a : b, lo = a > b ? b : a;
  if (!(hi.value > 0.0)) return hi;
  const double r = lo.value / hi.value;
  if (!(r > 0.0)) return hi;
  return hi * detail::cpow(1.0 + detail::cpow(r, p), 1.0 / p);
}

/// The width of the assumption field that sets tensor math in precision p
/// (roofline_assumptions::gemm_fraction_16bit, _8bit, _4bit): 8 for fp8 and int8, 4 for fp4 and
/// int4, 16 otherwise. The one mapping the kernels and the estimate notes read.
constexpr int gemm_fraction_bits(precision p) {
  switch (p) {
    case precision::fp8:
    case precision::int8: return 8;
    case precision::fp4:
    case precision::int4: return 4;
    default: return 16;
  }
}

/// The assumption field that sets the large-GEMM fraction for tensor math in precision p (0: the
/// GPU's own figure).
constexpr double gemm_fraction_assumed(precision p, const roofline_assumptions& a) {
  switch (gemm_fraction_bits(p)) {
    case 8: return a.gemm_fraction_8bit;
    case 4: return a.gemm_fraction_4bit;
    default: return a.gemm_fraction_16bit;
  }
}

/// The large-kernel fraction of peak for tensor math in precision p on `gpu` under sustained load:
/// the assumption when set, else the GPU's own figure (matmul_fraction: the one rule of the step
/// model too), times the sustained-load factor (as the step model's).
constexpr double gemm_fraction(precision p, const gpu_spec& gpu, const roofline_assumptions& a) {
  return matmul_fraction(gpu, p, gemm_fraction_assumed(p, a)) * a.gemm_sustained_fraction;
}

/// A kernel's time from its math's time and its bytes: their smooth maximum, at least the floor.
/// roofline() below for one rate; directly for a kernel whose math runs on two units (a chunked
/// scan's tensor-core products and its CUDA-core decays, the same warps issuing both).
constexpr kernel_time roofline_time(duration compute, data_size bytes, const gpu_spec& gpu,
                                    const roofline_assumptions& a) {
  kernel_time k{};
  k.compute = compute;
  k.memory = memory_time(bytes, gpu, a.hbm_fraction);
  k.total = smooth_max(k.compute, k.memory, a.roofline_sharpness);
  if (k.total < a.kernel_floor) k.total = a.kernel_floor;
  return k;
}

/// A kernel's time from its FLOPs at `rate` (already the achievable rate) and its bytes.
constexpr kernel_time roofline(compute_amount flops, compute_rate rate, data_size bytes,
                               const gpu_spec& gpu, const roofline_assumptions& a) {
  return roofline_time(rate.value > 0.0 ? flops / rate : duration{}, bytes, gpu, a);
}

/// A GEMM of m x k activations by k x n weights, `weight_bytes` per weight element and
/// `act_bytes` per activation element, with math in `math` precision; `dequant` adds the
/// unpacking of weight-only quantised weights on the vector units (once per dequant_tile_rows
/// rows of activations); `large_fraction` > 0 replaces the large-GEMM fraction (gemm_fraction,
/// already under sustained load) with a kernel's own (moe_gemm_fraction).
constexpr kernel_time gemm_time(double m, double k, double n, precision math, double weight_bytes,
                                double act_bytes, bool dequant, const gpu_spec& gpu,
                                const roofline_assumptions& a, double large_fraction = 0.0) {
  const compute_amount flops = 2.0 * m * k * n * units::FLOP;
  const double w = flops.value;
  // The ramp (tiles too few to fill the SMs, each tile's prologue and epilogue) is a time: at a
  // precision with a faster peak the same shape reaches half its rate at proportionally more
  // work (H100 fp8 at m = 1024: 0.94 and 0.96 of the m = 8192 rate, W_half 5-9 GFLOP, about
  // twice bf16's; this project's kernel table).
  const compute_rate base = gpu.peak.tensor(precision::bf16);
  const double scale = base.value > 0.0 && gpu.peak.tensor(math).value > base.value
                           ? gpu.peak.tensor(math).value / base.value
                           : 1.0;
  const double size = w / (w + a.gemm_half_work.value * scale);
  const double fraction = large_fraction > 0.0 ? large_fraction : gemm_fraction(math, gpu, a);
  const compute_rate rate = fraction * size * gpu.peak.tensor(math);
  const data_size bytes = (k * n * weight_bytes + m * (k + n) * act_bytes) * units::B;
  kernel_time t = roofline(flops, rate, bytes, gpu, a);
  const compute_rate large = fraction * gpu.peak.tensor(math);
  t.math = large.value > 0.0 ? flops / large : duration{};
  if (dequant && gpu.peak.fp32_vector.value > 0.0) {
    const double tiles = static_cast<double>(static_cast<long long>(
        (m + a.dequant_tile_rows - 1) / a.dequant_tile_rows));
    const duration extra =
        k * n * (tiles < 1.0 ? 1.0 : tiles) * a.dequant_ops_per_weight * units::FLOP /
        gpu.peak.fp32_vector;
    t.compute = t.compute + extra;
    t.math = t.math + extra;
    t.total = smooth_max(t.compute, t.memory, a.roofline_sharpness);
    if (t.total < a.kernel_floor) t.total = a.kernel_floor;
  }
  return t;
}

/// Expected rows a grouped MoE kernel computes for one expert that receives X tokens, X Poisson
/// with mean `tokens` (tokens routed at random; the binomial of experts_touched for many tokens
/// and experts): E[ceil(X / block) x block], an expert with no token costing nothing. From the
/// distribution's mode outwards until its terms vanish; past block^2 tokens (a spread of at
/// least a block) the remainder is uniform and the padding its mean, (block - 1) / 2.
constexpr double padded_expert_rows(double tokens, int block) {
  if (!(tokens > 0.0)) return 0.0;
  const double b = block;
  if (block <= 1) return tokens;
  if (tokens >= b * b) return tokens + (b - 1.0) / 2.0;
  auto padded = [b](double x) {
    const double q = x / b;
    const double f = static_cast<double>(static_cast<long long>(q));
    return (f < q ? f + 1.0 : f) * b;
  };
  // weights relative to the mode's: p(x + 1) / p(x) = tokens / (x + 1)
  const double mode = static_cast<double>(static_cast<long long>(tokens));
  double sum = 0.0, mean = 0.0, w = 1.0;
  for (double x = mode; x >= 0.0 && w > 1e-16; x -= 1.0) {
    sum += w;
    mean += w * padded(x);
    w *= x / tokens;
  }
  w = tokens / (mode + 1.0);
  for (double x = mode + 1.0; w > 1e-16; x += 1.0) {
    sum += w;
    mean += w * padded(x);
    w *= tokens / (x + 1.0);
  }
  return mean / sum;
}

/// The tile rows of a grouped MoE kernel for a mean of `tokens` tokens per expert, each token
/// routed to `experts_per_token` experts. A kernel that dequantises (Marlin MoE): the smallest of
/// moe_dequant_min_block_rows x 2^i, at most moe_block_rows, that the mean fills to under 0.9
/// (fused_marlin_moe). Else the Triton fused_moe's default: moe_min_block_rows while the step's
/// tokens are no more than the experts (tokens per expert <= experts_per_token), else
/// moe_block_rows (get_default_config).
constexpr int moe_block(double tokens, double experts_per_token, bool dequant,
                        const roofline_assumptions& a) {
  if (!dequant) return tokens <= experts_per_token ? a.moe_min_block_rows : a.moe_block_rows;
  int b = a.moe_dequant_min_block_rows;
  while (b < a.moe_block_rows && tokens / b >= 0.9)
    b = b > a.moe_block_rows / 2 ? a.moe_block_rows : 2 * b;  // no overflow past INT_MAX / 2
  return b;
}

/// Rows' worth of work a grouped MoE kernel does per routed row, for a mean of `tokens` tokens
/// per expert (Poisson, padded_expert_rows), timed at the kernel's grouped fraction `grouped`.
///  - Dequantising kernels (Marlin MoE, `dequant`) are bound by the instructions that unpack,
///    scale and multiply each tile (sgl-project/sglang PR #38884): the padded rows, at the
///    grouped fraction (measured with the padding taken out).
///  - The others (Triton fused_moe, DeepGEMM) load only the routed rows: vLLM's fused_moe_kernel
///    loads each tile's activations under its token mask (padding rows read nothing) and runs
///    the whole tile through tl.dot; DeepGEMM's contiguous layout skips the tiles of padding
///    (m_indices -1). The padded rows at the dense tensor-core fraction `dense` bound the time
///    from below, the routed rows at the grouped fraction `grouped` otherwise (the grouped
///    kernels reach 0.106 to 0.63 of the peak, so the MMA has the padding to spare once an
///    expert fills a fifth of a tile or so).
/// 1 with no tokens.
constexpr double moe_row_factor(double tokens, double experts_per_token, bool dequant,
                                double grouped, double dense, const roofline_assumptions& a) {
  if (!(tokens > 0.0)) return 1.0;
  const int b = moe_block(tokens, experts_per_token, dequant, a);
  const double padded = padded_expert_rows(tokens, b);
  if (dequant) return padded / tokens;
  const double mma = dense > 0.0 ? padded / tokens * grouped / dense : 0.0;
  return mma > 1.0 ? mma : 1.0;
}

/// The grouped MoE kernel figure for experts multiplied in `math` (`dequant`: weights unpacked in
/// the kernel): the GPU's own (gpu_spec::kernels.moe_16bit, moe_8bit, moe_dequant; null for fp4
/// math, which has none), the assumption that replaces it, and that assumption's `--set` name.
struct moe_figure {
  const efficiency_figure* own = nullptr;
  double assumed = 0.0;
  const char* field = "";
};
constexpr moe_figure moe_kernel_figure(precision math, bool dequant, const gpu_spec& gpu,
                                       const roofline_assumptions& a) {
  const kernel_efficiency& k = gpu.kernels;
  if (dequant)
    return {&k.moe_dequant, a.moe_fraction_dequant, "serving.kernels.moe_fraction_dequant"};
  if (gemm_fraction_bits(math) == 8)
    return {&k.moe_8bit, a.moe_fraction_8bit, "serving.kernels.moe_fraction_8bit"};
  if (gemm_fraction_bits(math) == 16)
    return {&k.moe_16bit, a.moe_fraction_16bit, "serving.kernels.moe_fraction_16bit"};
  return {};
}

/// The grouped MoE kernel's large-GEMM fraction of the tensor peak, under sustained load, by the
/// one override rule: the assumption when set, else the GPU's own figure (moe_kernel_figure); 0
/// where neither is known (the caller then times the experts as dense GEMMs: gemm_fraction and,
/// for `dequant`, the unpacking on the vector units).
constexpr double moe_gemm_fraction(precision math, bool dequant, const gpu_spec& gpu,
                                   const roofline_assumptions& a) {
  const moe_figure f = moe_kernel_figure(math, dequant, gpu, a);
  const double own = f.own ? f.own->fraction : 0.0;
  return (f.assumed > 0.0 ? f.assumed : own) * a.gemm_sustained_fraction;
}

/// Attention's achievable fraction for a mean of `keys` keys per query.
constexpr double attention_fraction(double keys, const roofline_assumptions& a) {
  return saturating_fraction(keys, a.attention_fraction, a.attention_half_keys);
}


// ---- training: GEMMs by their tiles ------------------------------------------------------------

namespace detail {

constexpr long long ceil_div(double a, double b) {
  const double q = a / b;
  const long long i = static_cast<long long>(q);
  return (static_cast<double>(i) < q) ? i + 1 : i;
}

/// The rates a training GEMM runs at (raw doubles: the step model's inner loop).
struct gemm_ctx {
  double peak = 0.0;      // FLOP/s, the dense tensor peak for the precision
  double hbm = 0.0;       // bytes/s achievable (achievable_bandwidth)
  double frac = 0.0;      // sustained largest-GEMM fraction of the peak
  double overhead = 0.0;  // s per kernel (kernel_launch_time by default)
  double floor = 0.0;     // s, shortest kernel (eager PyTorch)
  double e = 2.0;         // bytes per element
  int sms = 0, tm = 128, tn = 128, split_depth = 1024;
};

/// Seconds for `batch` GEMMs of m x n x k: the FLOPs at the sustained fraction of the peak times
/// the wave-quantisation efficiency of the tm x tn output tiles over the SMs (split-K slices of
/// at least split_depth when the tiles are fewer than the SMs), or the bytes of the operands and
/// the result over the achievable bandwidth, whichever is slower, plus the per-kernel overhead;
/// at least the floor.
constexpr double gemm_seconds(const gemm_ctx& c, double m, double n, double k, double batch = 1.0) {
  if (!(m > 0.0 && n > 0.0 && k > 0.0 && batch > 0.0)) return 0.0;
  const double flops = 2.0 * m * n * k * batch;
  double wave = 1.0;
  if (c.sms > 0) {
    const double tiles = static_cast<double>(ceil_div(m, c.tm) * ceil_div(n, c.tn)) * batch;
    double split = 1.0;
    if (tiles < c.sms) {
      const double want = static_cast<double>(c.sms / static_cast<long long>(tiles > 1 ? tiles : 1));
      const double deep = static_cast<double>(static_cast<long long>(k / c.split_depth));
      split = want < deep ? want : deep;
      if (split < 1.0) split = 1.0;
    }
    const double work = tiles * split;
    const double waves = static_cast<double>(ceil_div(work, c.sms));
    wave = work / (waves * c.sms);
  }
  const double t_compute = flops / (c.peak * c.frac * wave);
  const double t_memory = c.e * (m * k + k * n + m * n) * batch / c.hbm;
  const double t = (t_compute > t_memory ? t_compute : t_memory) + c.overhead;
  return t > c.floor ? t : c.floor;
}

/// A linear layer y[m, n] = x[m, k] W[k, n], `batch` of them: forward, and the backward's data
/// gradient dx[m, k] = dy[m, n] W^T and weight gradient dW[k, n] = x^T dy (reduction over m).
struct linear_seconds {
  double fwd = 0.0, bwd = 0.0;
  constexpr linear_seconds& operator+=(const linear_seconds& o) {
    fwd += o.fwd;
    bwd += o.bwd;
    return *this;
  }
};
constexpr linear_seconds linear(const gemm_ctx& c, double m, double n, double k,
                                double batch = 1.0) {
  return {gemm_seconds(c, m, n, k, batch),
          gemm_seconds(c, m, k, n, batch) + gemm_seconds(c, k, n, m, batch)};
}

/// Seconds of memory-bound work of `bytes` at the gemm_ctx's achievable bandwidth.
constexpr double memory_seconds(const gemm_ctx& c, double bytes) { return bytes / c.hbm; }

/// Seconds of `n` eager kernels of `bytes` each, none shorter than the floor.
constexpr double eager_ops_seconds(const gemm_ctx& c, double n, double bytes) {
  const double one = bytes / c.hbm;
  return n * (one > c.floor ? one : c.floor);
}

}  // namespace detail

}  // namespace gpuplan
