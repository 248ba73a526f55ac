// gpuplan/models/roofline.hpp: the time of one kernel on one GPU from its work (FLOPs) and its
// traffic (bytes), at achievable fractions of the GPU's peaks.
//
//   compute time  t_c = FLOPs / (peak x fraction x W / (W + W_half))
//   memory time   t_m = bytes / (HBM bandwidth x hbm_fraction)
//   kernel time   max(t_c, t_m) x (1 + (min / max)^p)^(1/p), and never below one kernel's floor
//
// The first line is the size-dependent achievable fraction: a GEMM of W FLOPs reaches half of
// the large-GEMM fraction at W_half (too few tiles to fill the SMs, the prologue and epilogue of
// each tile). The third is a smooth maximum: a kernel near the ridge point neither overlaps its
// loads and its math perfectly (the plain max) nor serialises them (the sum). Every constant is
// a field of roofline_assumptions with its source; models/serving.hpp builds on these.
#pragma once

#include <gpuplan/models/cmath.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

struct roofline_assumptions {
  // ---- matrix multiplies (cuBLAS / CUTLASS GEMMs) ---------------------------------------------

  /// Large-GEMM fraction of the dense 16-bit tensor peak. Measured on an H100 SXM (bf16,
  /// PyTorch/cuBLAS, this project's kernel table, docs/models/serving.md): 733-818 TFLOP/s of
  /// 989.5 for Llama-shaped products with m >= 1024 (0.74-0.83); stas00/ml-engineering's
  /// maximum achievable matmul FLOPS table: H100 SXM 794.5 of 989.5 (0.80), A100 SXM 271.2 of
  /// 312 (0.87). 0.80: the H100 median.
  double gemm_fraction_16bit = 0.80;
  /// Large-GEMM fraction of the dense 8-bit (fp8 / int8) tensor peak: H100 fp8 e4m3
  /// torch._scaled_mm 1352-1443 TFLOP/s of 1979 at m >= 1024 (0.68-0.73, this project's table);
  /// ml-engineering: H100 fp8 1402.6 (0.71), H200 1453.4 (0.73). 0.72.
  double gemm_fraction_8bit = 0.72;
  /// Large-GEMM fraction of the 4-bit (fp4) tensor peak. ESTIMATE: the 8-bit figure; no fp4 GEMM
  /// measurement is in the project yet.
  double gemm_fraction_4bit = 0.72;
  /// Work of one GEMM at which it reaches half its large-GEMM fraction. Calibrated on the H100
  /// bf16 table, 4096 x 4096 weights: m = 512 (17.2 GFLOP) runs at 652 TFLOP/s = 0.826 of the
  /// m = 8192 rate (789), so W_half = 17.2 x 0.174 / 0.826 = 3.6 GFLOP.
  compute_amount gemm_half_work = 3.6 * units::GFLOP;
  /// Exponent p of the smooth maximum of compute and memory time. Calibrated on the H100 bf16
  /// table at the ridge (8192 x 8192 weights, m = 128-512: 339, 621, 695 TFLOP/s measured; p = 3
  /// gives 371, 589, 735; the plain max, p -> infinity, gives 384, 768, 789).
  double roofline_sharpness = 3.0;

  // ---- memory -----------------------------------------------------------------------------------

  /// Fraction of the datasheet HBM bandwidth a streaming kernel reaches: H100 SXM copy of 256 MiB
  /// to 4 GiB, 2981-3028 GB/s of 3350 (0.89-0.90, this project's table); 0.90.
  double hbm_fraction = 0.90;

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

  // ---- fixed costs ------------------------------------------------------------------------------

  /// Least time of any kernel (launch, ramp-up, tail), captured in a CUDA graph or issued by a C++
  /// runtime. ESTIMATE: 4 us. For scale: a PyTorch eager launch of a 1 MiB copy takes about
  /// 10 us on an H100 (this project's kernel table), and NCCL's own base latency is 3.6 us
  /// (collectives.hpp).
  duration kernel_floor = 4.0 * units::us;

  constexpr void validate() const {
    auto fraction = [](double x) { return detail::finite(x) && x > 0.0 && x <= 1.0; };
    detail::check_input(fraction(gemm_fraction_16bit),
                        "roofline_assumptions.gemm_fraction_16bit must be in (0, 1]");
    detail::check_input(fraction(gemm_fraction_8bit),
                        "roofline_assumptions.gemm_fraction_8bit must be in (0, 1]");
    detail::check_input(fraction(gemm_fraction_4bit),
                        "roofline_assumptions.gemm_fraction_4bit must be in (0, 1]");
    detail::check_input(fraction(hbm_fraction),
                        "roofline_assumptions.hbm_fraction must be in (0, 1]");
    detail::check_input(fraction(attention_fraction),
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

/// The large-kernel fraction of peak for tensor math in precision p.
constexpr double gemm_fraction(precision p, const roofline_assumptions& a) {
  switch (p) {
    case precision::fp8:
    case precision::int8: return a.gemm_fraction_8bit;
    case precision::fp4:
    case precision::int4: return a.gemm_fraction_4bit;
    default: return a.gemm_fraction_16bit;
  }
}

/// A kernel's time from its FLOPs at `rate` (already the achievable rate) and its bytes.
constexpr kernel_time roofline(compute_amount flops, compute_rate rate, data_size bytes,
                               const gpu_spec& gpu, const roofline_assumptions& a) {
  kernel_time k{};
  k.compute = rate.value > 0.0 ? flops / rate : duration{};
  k.memory = bytes / (a.hbm_fraction * gpu.memory_bandwidth);
  k.total = smooth_max(k.compute, k.memory, a.roofline_sharpness);
  if (k.total < a.kernel_floor) k.total = a.kernel_floor;
  return k;
}

/// A GEMM of m x k activations by k x n weights, `weight_bytes` per weight element and
/// `act_bytes` per activation element, with math in `math` precision; `dequant` adds the
/// unpacking of weight-only quantised weights on the vector units (once per dequant_tile_rows
/// rows of activations).
constexpr kernel_time gemm_time(double m, double k, double n, precision math, double weight_bytes,
                                double act_bytes, bool dequant, const gpu_spec& gpu,
                                const roofline_assumptions& a) {
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
  const compute_rate rate = gemm_fraction(math, a) * size * gpu.peak.tensor(math);
  const data_size bytes = (k * n * weight_bytes + m * (k + n) * act_bytes) * units::B;
  kernel_time t = roofline(flops, rate, bytes, gpu, a);
  const compute_rate large = gemm_fraction(math, a) * gpu.peak.tensor(math);
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

/// Attention's achievable fraction for a mean of `keys` keys per query.
constexpr double attention_fraction(double keys, const roofline_assumptions& a) {
  return keys > 0.0 ? a.attention_fraction * keys / (keys + a.attention_half_keys) : 0.0;
}

}  // namespace gpuplan
