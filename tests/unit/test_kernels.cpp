// The kernel-cost layer (models/kernels.hpp) against the measurements it is built on: the
// published maximum achievable matmul FLOPS (MAMF) of the H100 SXM, this project's H100 copy
// bandwidth, the launch floor; and the per-GPU efficiencies as data of the GPU.
#include <gpuplan/catalog.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/models/estimates.hpp>
#include <gpuplan/models/kernels.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/models/training_step.hpp>

#include <cmath>
#include <string_view>

#include "../catch.hpp"

using namespace gpuplan;

namespace {

/// The training GEMM's rates on one GPU at its unsustained MAMF (sustained factor 1).
detail::gemm_ctx rates_of(const gpu_spec& g, precision p) {
  detail::gemm_ctx c;
  c.peak = g.peak.tensor(p).value;
  c.hbm = achievable_bandwidth(g, 0.0).value;
  c.frac = default_matmul_efficiency(g, p).fraction;
  c.overhead = kernel_launch_time.value;
  c.e = bytes_per_element(p).value;
  c.sms = g.sm_count;
  return c;
}

}  // namespace

TEST_CASE("kernels: a large bf16 GEMM on the H100 SXM runs at its published MAMF") {
  // stas00/ml-engineering's MAMF table: H100 SXM bf16 794.5 TFLOP/s, the best of a shape sweep.
  // A shape whose 128 x 128 tiles fill whole waves of the 132 SMs (132 x 32 tiles) has no
  // quantisation loss, so the training GEMM reaches the MAMF itself (less the 4 us launch).
  const double m = 128.0 * 132.0, n = 128.0 * 32.0, k = 8192.0;
  const double t = detail::gemm_seconds(rates_of(catalog::h100_sxm, precision::bf16), m, n, k);
  const double tflops = 2.0 * m * n * k / t / 1e12;
  CHECK(tflops == Approx(794.5).epsilon(0.005));
  // 8192^3 has 4096 tiles: 32 waves of which the last is 31% full, 3% slower
  const double t2 =
      detail::gemm_seconds(rates_of(catalog::h100_sxm, precision::bf16), 8192, 8192, 8192);
  CHECK(2.0 * 8192.0 * 8192.0 * 8192.0 / t2 / 1e12 == Approx(794.5 * 4096 / (32 * 132)).epsilon(0.005));
  // The serving GEMM at the same fact (its size ramp: 8192^3 is 1.1 TFLOP, far past W_half), as
  // one kernel at boost clocks (sustained factor 1): within 1% of the MAMF
  roofline_assumptions burst{};
  burst.gemm_sustained_fraction = 1.0;
  const kernel_time s =
      gemm_time(8192, 8192, 8192, precision::bf16, 2.0, 2.0, false, catalog::h100_sxm, burst);
  CHECK(2.0 * 8192.0 * 8192.0 * 8192.0 / s.total.in(units::s) / 1e12 ==
        Approx(794.5).epsilon(0.01));
  // under sustained load, as in the training step: the same 0.87 of it in both models
  const kernel_time sl =
      gemm_time(8192, 8192, 8192, precision::bf16, 2.0, 2.0, false, catalog::h100_sxm, {});
  CHECK(2.0 * 8192.0 * 8192.0 * 8192.0 / sl.total.in(units::s) / 1e12 ==
        Approx(794.5 * sustained_matmul_fraction).epsilon(0.01));
  CHECK(step_assumptions{}.sustained_fraction == roofline_assumptions{}.gemm_sustained_fraction);
  // fp8: 1402.6 TFLOP/s (same table)
  const double t8 = detail::gemm_seconds(rates_of(catalog::h100_sxm, precision::fp8), m, n, k);
  CHECK(2.0 * m * n * k / t8 / 1e12 == Approx(1402.6).epsilon(0.005));
}

TEST_CASE("kernels: one H100 16-bit GEMM fraction for training and serving") {
  // the issue: 0.80 in the serving roofline, 0.803 in the step model; one fact now, the GPU's
  CHECK(gemm_fraction(precision::bf16, catalog::h100_sxm, {}) ==
        mamf::h100_sxm_bf16 * sustained_matmul_fraction);
  CHECK(default_matmul_efficiency(catalog::h100_sxm).fraction == mamf::h100_sxm_bf16);
  CHECK(mamf::h100_sxm_bf16 == Approx(794.5 / 989.5).epsilon(1e-3));
  // every fraction assumption defaults to 0: the GPU's own figure (the one override rule)
  CHECK(roofline_assumptions{}.gemm_fraction_16bit == 0.0);
  CHECK(roofline_assumptions{}.gemm_fraction_8bit == 0.0);
  CHECK(roofline_assumptions{}.gemm_fraction_4bit == 0.0);
  CHECK(roofline_assumptions{}.hbm_fraction == 0.0);
  CHECK(step_assumptions{}.matmul_peak_fraction == 0.0);
  CHECK(step_assumptions{}.memory_bandwidth_fraction == 0.0);
  // one launch time, one HBM default, one load factor
  CHECK(roofline_assumptions{}.kernel_floor == kernel_launch_time);
  CHECK(step_assumptions{}.kernel_overhead == kernel_launch_time);
  CHECK(kernel_launch_time.in(units::us) == 4.0);
  CHECK(hbm_fraction(catalog::a100_sxm_80gb, 0.0) == unmeasured_hbm_fraction);
  CHECK(roofline_assumptions{}.gemm_sustained_fraction == sustained_matmul_fraction);
  CHECK(step_assumptions{}.sustained_fraction == sustained_matmul_fraction);
}

TEST_CASE("kernels: serving reads the GPU's own GEMM figures, as the training step does") {
  // a fraction serving applied on every GPU would give the same ratio to the tensor peak on each;
  // the GPU's own MAMF gives its own (stas00/ml-engineering: MI300X bf16 0.511, B200 fp8 0.763)
  roofline_assumptions burst{};
  burst.gemm_sustained_fraction = 1.0;
  auto tflops = [&](const gpu_spec& g, precision p, const roofline_assumptions& a) {
    const double w = 1 << 14;
    const kernel_time t = gemm_time(w, w, w, p, 1.0, 2.0, false, g, a);
    return 2.0 * w * w * w / t.total.in(units::s) / g.peak.tensor(p).value;
  };
  CHECK(tflops(catalog::mi300x, precision::bf16, burst) == Approx(mamf::mi300x_bf16).epsilon(0.005));
  CHECK(tflops(catalog::b200, precision::fp8, burst) == Approx(mamf::b200_fp8).epsilon(0.005));
  CHECK(tflops(catalog::b200, precision::bf16, burst) == Approx(mamf::b200_bf16).epsilon(0.005));
  CHECK(tflops(catalog::h200_sxm, precision::fp8, burst) == Approx(mamf::h200_sxm_fp8).epsilon(0.005));
  CHECK(tflops(catalog::a100_sxm_80gb, precision::fp16, burst) ==
        Approx(mamf::a100_sxm_bf16).epsilon(0.005));
  // MI300X has no fp8 figure: its bf16 one, borrowed (an estimate)
  CHECK(tflops(catalog::mi300x, precision::fp8, burst) == Approx(mamf::mi300x_bf16).epsilon(0.005));
  // fp4 on the B200: its fp8 figure (no fp4 measurement); int8 on the H100: its fp8 one
  CHECK(gemm_fraction(precision::fp4, catalog::b200, burst) == mamf::b200_fp8);
  CHECK(gemm_fraction(precision::int8, catalog::h100_sxm, burst) == mamf::h100_sxm_fp8);
  CHECK_FALSE(default_matmul_efficiency(catalog::b200, precision::fp4).measured);
  // and a whole serving answer follows the GPU's figure: the MI300X with the H100's 0.803 in place
  // of its own 0.511 would prefill faster
  serving_plan sp;
  sp.model = catalog::llama31_8b;
  sp.node = single_gpu_node(catalog::mi300x);
  const duration own = serve(sp).ttft;
  gpu_spec faster = catalog::mi300x;
  faster.kernels.matmul_16bit = efficiency_figure::of_this_gpu(mamf::h100_sxm_bf16, "test");
  sp.node = single_gpu_node(faster);
  CHECK(serve(sp).ttft < own);
  // the training step's large-GEMM rate on the same GPU: the same fraction of the same peak
  for (const gpu_spec* g : {&catalog::mi300x, &catalog::b200, &catalog::a100_sxm_80gb}) {
    INFO(g->name.view());
    detail::gemm_ctx c = rates_of(*g, precision::bf16);
    c.sms = 0;  // no wave quantisation: the large-GEMM rate itself
    c.overhead = 0.0;
    const double w = 1 << 14;
    const double train = 2.0 * w * w * w / detail::gemm_seconds(c, w, w, w) /
                         g->peak.tensor(precision::bf16).value;
    CHECK(tflops(*g, precision::bf16, burst) == Approx(train).epsilon(0.005));
  }
}

TEST_CASE("kernels: one override rule, training and serving alike") {
  // 0 (the default): the GPU's own figure; a value set: that value, on every GPU
  roofline_assumptions set{};
  set.gemm_sustained_fraction = 1.0;
  CHECK(gemm_fraction(precision::bf16, catalog::mi300x, set) == mamf::mi300x_bf16);
  set.gemm_fraction_16bit = 0.6;
  CHECK(gemm_fraction(precision::bf16, catalog::mi300x, set) == 0.6);
  CHECK(gemm_fraction(precision::bf16, catalog::h100_sxm, set) == 0.6);
  CHECK(gemm_fraction(precision::fp8, catalog::b200, set) == mamf::b200_fp8);  // 8-bit: the GPU's
  set.gemm_fraction_8bit = 0.5;
  CHECK(gemm_fraction(precision::fp8, catalog::b200, set) == 0.5);
  CHECK(gemm_fraction(precision::fp4, catalog::b200, set) == mamf::b200_fp8);
  set.gemm_fraction_4bit = 0.4;
  CHECK(gemm_fraction(precision::fp4, catalog::b200, set) == 0.4);
  // HBM: the same direction now (the GPU's figure won over a set value before)
  CHECK(hbm_fraction(catalog::h100_sxm, 0.0) == h100_sxm_hbm_copy_fraction);
  CHECK(hbm_fraction(catalog::h100_sxm, 0.5) == 0.5);
  CHECK(hbm_fraction(catalog::mi300x, 0.0) == unmeasured_hbm_fraction);
  roofline_assumptions half{};
  half.hbm_fraction = 0.5;
  const kernel_time k =
      roofline(compute_amount{}, compute_rate{}, 1.0 * units::GiB, catalog::h100_sxm, half);
  CHECK(k.memory.in(units::s) == Approx(1073741824.0 / (0.5 * 3350e9)).epsilon(1e-12));
  // the training step: a set matmul fraction and HBM fraction replace the GPU's
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  p.layout.dp = 8;
  const duration by_gpu = estimate_step(p).total;
  p.assumptions.matmul_peak_fraction = mamf::h100_sxm_bf16;  // the GPU's figure, set: the same
  p.assumptions.memory_bandwidth_fraction = h100_sxm_hbm_copy_fraction;
  CHECK(estimate_step(p).total == by_gpu);
  p.assumptions.memory_bandwidth_fraction = 0.5;  // set: replaces the H100's 0.90
  const duration slow_hbm = estimate_step(p).total;
  CHECK(slow_hbm > by_gpu);
  p.assumptions.matmul_peak_fraction = 0.5;
  CHECK(estimate_step(p).total > slow_hbm);
  // and serving: the same rule on the whole answer
  serving_plan s;
  s.model = catalog::llama31_8b;
  s.node = single_gpu_node(catalog::h100_sxm);
  const duration tpot = serve(s).tpot;
  s.assumptions.kernels.hbm_fraction = 0.5;
  CHECK(serve(s).tpot > tpot);
  s.assumptions.kernels.hbm_fraction = 0.0;
  s.assumptions.kernels.gemm_fraction_16bit = mamf::h100_sxm_bf16;
  CHECK(serve(s).tpot == tpot);
}

TEST_CASE("kernels: memory-bound time at the H100's measured copy bandwidth") {
  // this project's H100 SXM copies: 2981-3028 GB/s of 3350 for 256 MiB to 4 GiB (0: by GPU)
  const double gbps = achievable_bandwidth(catalog::h100_sxm, 0.0).in(units::GBps);
  CHECK(gbps >= 2981.0);
  CHECK(gbps <= 3028.0);
  CHECK(catalog::h100_sxm.kernels.hbm.measured);
  // 4 GiB copied: 8 GiB moved
  const duration copy = memory_time(8.0 * units::GiB, catalog::h100_sxm, 0.0);
  CHECK(copy.in(units::ms) == Approx(8.0 * 1073741824.0 / 3015e9 * 1e3).epsilon(1e-9));
  // a GPU with no figure of its own: the named default, unless the caller sets one
  CHECK_FALSE(catalog::a100_sxm_80gb.kernels.hbm.known());
  CHECK(hbm_fraction(catalog::a100_sxm_80gb, 0.0) == unmeasured_hbm_fraction);
  CHECK_FALSE(default_hbm_efficiency(catalog::a100_sxm_80gb).measured);
  CHECK(hbm_fraction(catalog::a100_sxm_80gb, 0.75) == 0.75);
  CHECK(memory_time(2039e9 * 0.75 * units::B, catalog::a100_sxm_80gb, 0.75).in(units::s) ==
        Approx(1.0).epsilon(1e-12));
  // the serving roofline's memory time is the same function
  const kernel_time k =
      roofline(compute_amount{}, compute_rate{}, 1.0 * units::GiB, catalog::h100_sxm, {});
  CHECK(k.memory == memory_time(1.0 * units::GiB, catalog::h100_sxm, 0.0));
}

TEST_CASE("kernels: no kernel is shorter than the launch floor") {
  // serving: a kernel of one byte and one FLOP takes the floor
  const kernel_time tiny =
      roofline(1.0 * units::FLOP, 1.0 * units::TFLOPS, 1.0 * units::B, catalog::h100_sxm, {});
  CHECK(tiny.total == kernel_launch_time);
  // training: a one-element GEMM costs the launch time and a hair
  const double g = detail::gemm_seconds(rates_of(catalog::h100_sxm, precision::bf16), 1, 1, 1);
  CHECK(g == Approx(kernel_launch_time.value).epsilon(1e-6));
  CHECK(g > kernel_launch_time.value);
  // eager PyTorch: every op at least its floor
  detail::gemm_ctx eager = rates_of(catalog::h100_sxm, precision::bf16);
  eager.floor = 10e-6;
  CHECK(detail::eager_ops_seconds(eager, 3.0, 1.0) == Approx(30e-6));
  CHECK(detail::eager_ops_seconds(eager, 1.0, 1e9) == Approx(1e9 / eager.hbm));
  CHECK(detail::gemm_seconds(eager, 1, 1, 1) == 10e-6);
}

TEST_CASE("kernels: the GPU's efficiencies are its data, with a named default") {
  // a GPU read from a user's file carries no figure: the named defaults
  gpu_spec mine = catalog::h100_sxm;
  mine.name = "MyHopper-80GB";
  mine.kernels = {};
  const matmul_efficiency e = default_matmul_efficiency(mine);
  CHECK(e.fraction == unmeasured_matmul_fraction);
  CHECK_FALSE(e.measured);
  CHECK(hbm_fraction(mine, 0.0) == unmeasured_hbm_fraction);
  // its own measurement is used as given
  mine.kernels.matmul_16bit = efficiency_figure::of_this_gpu(0.75, "my sweep");
  mine.kernels.matmul_8bit = efficiency_figure::of_this_gpu(0.65, "my fp8 sweep");
  CHECK(default_matmul_efficiency(mine).fraction == 0.75);
  CHECK(default_matmul_efficiency(mine).measured);
  CHECK(std::string_view(default_matmul_efficiency(mine, precision::fp16).source) == "my sweep");
  CHECK(default_matmul_efficiency(mine, precision::fp8).fraction == 0.65);
  // tf32 borrows the 16-bit figure, as an estimate
  CHECK(default_matmul_efficiency(mine, precision::tf32).fraction == 0.75);
  CHECK_FALSE(default_matmul_efficiency(mine, precision::tf32).measured);
  // and the step model runs on it: a lower fraction is a slower step
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  p.layout.dp = 8;
  const duration catalog_step = estimate_step(p).total;
  p.node.gpu = mine;
  CHECK(estimate_step(p).total > catalog_step);
  // out of range: named
  mine.kernels.hbm.fraction = 1.5;
  CHECK_THROWS_WITH(mine.validate(), Catch::Contains("gpu_spec.kernels.hbm"));
  mine.kernels.hbm.fraction = 0.01;  // under min_kernel_fraction: a typo, not a figure
  CHECK_THROWS_WITH(mine.validate(), Catch::Contains("gpu_spec.kernels.hbm"));
  // every catalog figure is a fraction, and measured ones carry their source
  for (const gpu_spec& g : catalog::all_gpus) {
    INFO(g.name.view());
    CHECK_NOTHROW(g.kernels.validate());
    for (const efficiency_figure* f : {&g.kernels.matmul_16bit, &g.kernels.matmul_8bit, &g.kernels.hbm,
                                       &g.kernels.moe_16bit, &g.kernels.moe_8bit, &g.kernels.moe_dequant})
      CHECK(f->known() == !std::string_view(f->source).empty());
  }
}

TEST_CASE("kernels: attention's fraction saturates with the keys") {
  CHECK(saturating_fraction(0.0, 0.6, 100.0) == 0.0);
  CHECK(saturating_fraction(100.0, 0.6, 100.0) == Approx(0.3));
  CHECK(attention_fraction(227.0, {}) == Approx(0.676 / 2.0));
}

TEST_CASE("kernels: a GPU file carries the efficiencies, old files keep working") {
  // what `gpuplan gpus --json` writes reads back with the same figures
  const gpu_spec back = io::gpu_from_json(io::to_json(catalog::h200_sxm), {"g.json", ""});
  CHECK(back.kernels.matmul_16bit.fraction == catalog::h200_sxm.kernels.matmul_16bit.fraction);
  CHECK_FALSE(back.kernels.matmul_16bit.measured);  // borrowed from the H100 SXM, still so
  CHECK(back.kernels.matmul_8bit.fraction == mamf::h200_sxm_fp8);
  CHECK(back.kernels.matmul_8bit.measured);
  CHECK_FALSE(back.kernels.hbm.known());
  CHECK(back.kernels.moe_dequant.fraction == grouped_moe::h100_sxm_w4a16);  // borrowed, still so
  CHECK_FALSE(back.kernels.moe_dequant.measured);
  CHECK(io::gpu_from_json(io::to_json(catalog::h100_sxm), {"g.json", ""}).kernels.moe_8bit.measured);
  // a file without the key (every GPU file before it existed): the named defaults
  nlohmann::json old = io::to_json(catalog::h100_sxm);
  old.erase("kernel_efficiency");
  const gpu_spec plain = io::gpu_from_json(old, {"g.json", ""});
  CHECK(default_matmul_efficiency(plain).fraction == unmeasured_matmul_fraction);
  CHECK(hbm_fraction(plain, 0.0) == unmeasured_hbm_fraction);
  // a bare number is a measurement of the GPU the file describes
  old["kernel_efficiency"] = {{"matmul_16bit", 0.7}};
  const gpu_spec mine = io::gpu_from_json(old, {"g.json", ""});
  CHECK(default_matmul_efficiency(mine).fraction == 0.7);
  CHECK(default_matmul_efficiency(mine).measured);
  old["kernel_efficiency"] = {{"hbm", 1.2}};
  CHECK_THROWS_WITH(io::gpu_from_json(old, {"g.json", ""}),
                    "g.json: key 'kernel_efficiency.hbm' must be 0 (unknown) or in [0.05, 1] "
                    "(min_kernel_fraction: under 5% of the peak is a typo)");
  // a percent written as a fraction (0.8% for 80%) would slow every kernel 100-fold: refused
  old["kernel_efficiency"] = {{"matmul_16bit", 0.008}};
  CHECK_THROWS_WITH(io::gpu_from_json(old, {"g.json", ""}),
                    Catch::Contains("'kernel_efficiency.matmul_16bit' must be 0 (unknown) or in "
                                    "[0.05, 1]"));
  old["kernel_efficiency"] = {{"moe_8bit", 0.02}};
  CHECK_THROWS_WITH(io::gpu_from_json(old, {"g.json", ""}),
                    Catch::Contains("'kernel_efficiency.moe_8bit' must be 0 (unknown) or in "
                                    "[0.05, 1]"));
  old["kernel_efficiency"] = {{"matmul_8bit", {{"fraction", -0.1}}}};
  CHECK_THROWS_WITH(io::gpu_from_json(old, {"g.json", ""}),
                    "g.json: key 'kernel_efficiency.matmul_8bit.fraction' must be 0 (unknown) or "
                    "in [0.05, 1] (min_kernel_fraction: under 5% of the peak is a typo)");
}

TEST_CASE("kernels: a grouped MoE kernel pads each expert's tokens to its tile") {
  // E[ceil(X / b) x b] for X Poisson: one token routed now and then costs a whole tile
  CHECK(padded_expert_rows(0.0, 64) == 0.0);
  CHECK(padded_expert_rows(10.0, 1) == 10.0);  // no tile: no padding
  // tiny means: P(X > 0) x b = (1 - e^-0.01) x 64
  CHECK(padded_expert_rows(0.01, 64) == Approx((1.0 - std::exp(-0.01)) * 64.0).epsilon(1e-3));
  // at 384 tokens per expert (six tiles of 64) the spread costs a seventh tile half the time: 415.1 rows, the figure the W4A16 constant takes out (grouped_moe)
  CHECK(padded_expert_rows(384.0, 64) == Approx(415.1).epsilon(1e-3));
  CHECK(padded_expert_rows(256.0, 64) == Approx(286.9).epsilon(1e-3));
  // past b^2 the remainder is uniform: the mean plus (b - 1) / 2, continuous with the sum
  CHECK(padded_expert_rows(4096.0, 64) == 4096.0 + 31.5);
  CHECK(padded_expert_rows(4095.0, 64) == Approx(4095.0 + 31.5).epsilon(1e-3));
  // the padding never removes rows and never adds more than a tile
  for (double t : {0.5, 3.0, 17.0, 63.0, 64.0, 65.0, 500.0, 3000.0}) {
    INFO(t);
    CHECK(padded_expert_rows(t, 64) >= t);
    CHECK(padded_expert_rows(t, 64) <= t + 64.0);
  }
  // the tile: the Triton fused_moe's default, 16 while the tokens are no more than the experts
  // (mean per expert <= top-k), else 64 (get_default_config); Marlin's, the smallest of 8 x 2^i
  // up to 64 that the tokens fill to under 0.9 (fused_marlin_moe)
  const roofline_assumptions a{};
  CHECK(moe_block(2.0, 8.0, false, a) == 16);
  CHECK(moe_block(8.0, 8.0, false, a) == 16);
  CHECK(moe_block(9.0, 8.0, false, a) == 64);
  CHECK(moe_block(2.0, 8.0, true, a) == 8);
  CHECK(moe_block(7.0, 8.0, true, a) == 8);
  CHECK(moe_block(7.3, 8.0, true, a) == 16);
  CHECK(moe_block(20.0, 8.0, true, a) == 32);
  CHECK(moe_block(256.0, 8.0, true, a) == 64);
  roofline_assumptions bad{};
  bad.moe_block_rows = 8;  // below the 16-row least tile
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("moe_block_rows"));
}

TEST_CASE("kernels: a grouped MoE kernel's tiles cost work where the engines' kernels show it") {
  const roofline_assumptions a{};
  const gpu_spec& h100 = catalog::h100_sxm;
  const double s = a.gemm_sustained_fraction;
  // Triton fused_moe at fp8: the padding rows are masked out of the loads and the MMA has
  // 0.709 / 0.106 to spare: no padding shows from a fifth of a 64-row tile up; below, a mostly
  // empty tile's MMA does
  const double fp8 = moe_gemm_fraction(precision::fp8, false, h100, a);
  const double fp8_dense = gemm_fraction(precision::fp8, h100, a);
  CHECK(moe_row_factor(1.0, 8.0, false, fp8, fp8_dense, a) ==
        Approx(padded_expert_rows(1.0, 16) * fp8 / fp8_dense));
  for (double t : {12.0, 20.0, 64.0, 65.0, 256.0, 3000.0}) {
    INFO(t);
    CHECK(moe_row_factor(t, 8.0, false, fp8, fp8_dense, a) == 1.0);
  }
  // bf16 (0.630 of a dense 0.803): a mostly empty tile shows, its padded rows at the dense rate
  const double bf16 = grouped_moe::h100_sxm_bf16 * s, bf16_dense = mamf::h100_sxm_bf16 * s;
  CHECK(moe_row_factor(20.0, 8.0, false, bf16, bf16_dense, a) ==
        Approx(padded_expert_rows(20.0, 64) / 20.0 * bf16 / bf16_dense));
  CHECK(moe_row_factor(384.0, 8.0, false, bf16, bf16_dense, a) == 1.0);
  // Marlin MoE: the padded rows (at the figure's own point, 384 tokens per expert, 415.1 / 384)
  const double dq = grouped_moe::h100_sxm_w4a16 * s;
  CHECK(moe_row_factor(384.0, 6.0, true, dq, 0.0, a) == Approx(415.1 / 384.0).epsilon(1e-3));
  CHECK(moe_row_factor(0.01, 8.0, true, dq, 0.0, a) ==
        Approx(padded_expert_rows(0.01, 8) / 0.01));
  roofline_assumptions bad{};
  bad.deepep_moe_fraction_8bit = 0.0;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("deepep_moe_fraction_8bit"));
  // DeepGEMM's contiguous-layout grouped GEMMs on an H800 (README): 1297, 1099, 1288, 1093 of 1979
  CHECK(a.deepep_moe_fraction_8bit == Approx(0.6035).epsilon(1e-3));
}

TEST_CASE("kernels: grouped MoE GEMMs run at the engines' measured kernel rates") {
  const gpu_spec& h100 = catalog::h100_sxm;
  const roofline_assumptions a{};
  // the published kernel benchmarks (specs/kernel_efficiency.hpp), under the sustained factor
  CHECK(h100.kernels.moe_16bit.fraction == Approx(0.630).epsilon(1e-3));
  CHECK(h100.kernels.moe_8bit.fraction == Approx(0.106).epsilon(1e-2));
  CHECK(h100.kernels.moe_dequant.fraction == Approx(0.319).epsilon(1e-2));
  CHECK(moe_gemm_fraction(precision::bf16, false, h100, a) == Approx(0.630 * 0.87).epsilon(1e-3));
  CHECK(moe_gemm_fraction(precision::fp8, false, h100, a) ==
        Approx(grouped_moe::h100_sxm_fp8 * 0.87));
  CHECK(moe_gemm_fraction(precision::bf16, true, h100, a) ==
        Approx(grouped_moe::h100_sxm_w4a16 * 0.87));
  // fp4 math has no figure; a GPU without one neither: the dense GEMM's rules apply (0)
  CHECK(moe_gemm_fraction(precision::fp4, false, catalog::b200, a) == 0.0);
  CHECK(moe_gemm_fraction(precision::bf16, false, catalog::a100_sxm_80gb, a) == 0.0);
  // the GH100 siblings borrow the H100 SXM's, as estimates; the H20 (tensor rates cut) does not
  CHECK(catalog::h200_sxm.kernels.moe_8bit.fraction == h100.kernels.moe_8bit.fraction);
  CHECK_FALSE(catalog::h200_sxm.kernels.moe_8bit.measured);
  CHECK_FALSE(catalog::h20.kernels.moe_8bit.known());
  // the one override rule: a set assumption wins on every GPU
  roofline_assumptions mine{};
  mine.moe_fraction_8bit = 0.5;
  CHECK(moe_gemm_fraction(precision::fp8, false, h100, mine) == Approx(0.5 * 0.87));
  CHECK(moe_gemm_fraction(precision::fp8, false, catalog::a100_sxm_80gb, mine) ==
        Approx(0.5 * 0.87));
  mine.moe_fraction_8bit = 0.01;  // a percent written as a fraction
  CHECK_THROWS_WITH(mine.validate(), Catch::Contains("moe_fraction_8bit"));
  // a borrowed figure is reported as an estimate, by the name that replaces it
  auto notes_for = [](const gpu_spec& g, const roofline_assumptions& k) {
    const transformer_spec& m = catalog::deepseek_r1;
    serving_plan p{.model = m,
                   .node = single_gpu_node(g),
                   .layout = {.tp = 8},
                   .config = checkpoint_weights(m, {}),
                   .compute_dtype = checkpoint_compute_dtype(m, g)};
    p.assumptions.kernels = k;
    int moe = 0;
    for (const estimate_note& n : serving_estimates(p))
      moe += std::string_view(n.field) == "serving.kernels.moe_fraction_8bit" ? 1 : 0;
    return moe;
  };
  CHECK(notes_for(catalog::h200_sxm, a) == 1);
  CHECK(notes_for(catalog::h100_sxm, a) == 0);  // measured on this GPU
  roofline_assumptions set{};
  set.moe_fraction_8bit = 0.3;
  CHECK(notes_for(catalog::h200_sxm, set) == 0);  // the caller's figure
}
