// Serving performance: the kernel roofline against H100 measurements, the FasterTransformer
// calibration points, and published serving measurements (TensorRT-LLM, NVIDIA NIM, vLLM) with
// each source and tolerance beside it; then the mechanisms (MoE, quantisation, KV dtype, GQA,
// batching, KV capacity, SLO search, disaggregation, engines) and input errors.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/serving.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <tuple>
#include <vector>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

double err(double got, double want) { return got / want - 1.0; }

double median_abs(std::vector<double> v) {
  for (double& x : v) x = std::fabs(x);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// A C++ runtime's plan (no Python host time per step).
serving_plan cpp_runtime(serving_plan p) {
  p.assumptions.step_overhead = 0.0 * units::ms;
  return p;
}

/// The plan of TensorRT-LLM's gptSessionBenchmark (a static batch, the TensorRT-LLM KV rule at
/// memory fraction 0.95, no host time per step) with the release's decode attention kernel:
/// per query head before XQA (v0.5 to v0.7), grouped from v0.8.
serving_plan trtllm_session(const transformer_spec& m, const gpu_spec& g, precision dtype,
                            precision kv, int batch, int tp, int in, int out,
                            decode_attention_kernel kernel) {
  serving_plan p = cpp_runtime({.model = m,
                                .node = single_gpu_node(g),
                                .layout = {.tp = tp},
                                .config = {.weight_dtype = dtype,
                                           .kv_dtype = kv,
                                           .gpu_memory_utilization = 0.95,
                                           .max_num_seqs = 4096,
                                           .engine = serving_engine::trtllm,
                                           .free_gpu_memory_fraction = 0.95},
                                .compute_dtype = dtype,
                                .mix = request_mix::fixed(in, out),
                                .concurrency = batch,
                                .batching = batching_mode::static_batch});
  p.assumptions.decode_attention = kernel;
  return p;
}

}  // namespace

TEST_CASE("Roofline: bf16 GEMMs against the H100 cuBLAS table", "[serving][roofline]") {
  // This project's H100 SXM measurement (PyTorch/cuBLAS bf16, TFLOP/s = 2mnk / time, mean of 20):
  // weights n x k = 8192 x 8192 and 4096 x 14336, rows m. These set the GEMM assumptions
  // (calibration), so the tolerance is what the two-parameter size model leaves: 25% from
  // m = 32 up, where the kernels are past their launch ramp.
  struct row {
    double n, k, m, tflops;
  };
  // one kernel at a time, mean of 20 runs: boost clocks, no sustained-load factor
  roofline_assumptions burst{};
  burst.gemm_sustained_fraction = 1.0;
  const row rows[] = {{8192, 8192, 32, 86},    {8192, 8192, 128, 339},  {8192, 8192, 256, 621},
                      {8192, 8192, 512, 695},  {8192, 8192, 1024, 789}, {8192, 8192, 4096, 798},
                      {4096, 14336, 32, 80},   {4096, 14336, 256, 583}, {4096, 14336, 1024, 796},
                      {4096, 14336, 4096, 817}};
  for (const row& r : rows) {
    const kernel_time t =
        gemm_time(r.m, r.k, r.n, precision::bf16, 2.0, 2.0, false, cat::h100_sxm, burst);
    const double got = 2.0 * r.m * r.n * r.k / t.total.in(units::s) / 1e12;
    INFO(r.n << " x " << r.k << " m " << r.m << ": " << got << " vs " << r.tflops);
    CHECK(std::fabs(err(got, r.tflops)) < 0.25);
  }
  // Batch 1 is bandwidth-bound: 8192 x 28672 bf16 weights (470 MB) at 3 TFLOP/s measured.
  const kernel_time gemv =
      gemm_time(1, 8192, 28672, precision::bf16, 2.0, 2.0, false, cat::h100_sxm, burst);
  CHECK_FALSE(gemv.compute_bound());
  CHECK(2.0 * 8192 * 28672 / gemv.total.in(units::s) / 1e12 == Approx(3.0).epsilon(0.25));
  // fp8 (torch._scaled_mm e4m3) at m >= 1024: 1352-1443 TFLOP/s; tolerance 10%.
  for (double m : {1024.0, 4096.0, 8192.0}) {
    const kernel_time t = gemm_time(m, 8192, 8192, precision::fp8, 1.0, 2.0, false,
                                    cat::h100_sxm, burst);
    CHECK(2.0 * m * 8192 * 8192 / t.total.in(units::s) / 1e12 == Approx(1400).epsilon(0.10));
  }
  // Flash attention forward (bf16, head dim 128): 548, 603, 634 TFLOP/s at 2048, 4096, 8192.
  CHECK(attention_fraction(1024, {}) * 989.5 == Approx(548).epsilon(0.02));
  CHECK(attention_fraction(2048, {}) * 989.5 == Approx(603).epsilon(0.02));
  CHECK(attention_fraction(4096, {}) * 989.5 == Approx(634).epsilon(0.02));
}

TEST_CASE("Calibration: FasterTransformer 13B on one and two A100-40GB", "[serving][accuracy]") {
  // kipply, "Transformer Inference Arithmetic" (2022), FasterTransformer benchmarks as used by
  // cli99/llm-analysis: a 13B GPT (40 layers, d_model 5120, 40 heads), fp16, context 512,
  // batch 1. TP1: prefill 63.17 ms, decode 22.0 ms/token; TP2: 45.45 ms, 13.5 ms/token.
  // Calibration points; tolerance 16%. (The model is lower on all four: docs/models/serving.md.)
  const transformer_spec m = cat::gpt_decoder("FT-13B", 40, 5120, 40, 50257, 2048);
  serving_plan p = cpp_runtime({.model = m,
                                .node = single_gpu_node(cat::a100_sxm_40gb),
                                .config = {.weight_dtype = precision::fp16,
                                           .kv_dtype = precision::fp16},
                                .compute_dtype = precision::fp16,
                                .chunked_prefill = false});
  struct point {
    int tp;
    double prefill_ms, decode_ms;
  };
  for (const point& x : {point{1, 63.17, 22.0}, point{2, 45.45, 13.5}}) {
    p.layout.tp = x.tp;
    const double pre = forward_step(p, {.prefill_tokens = 512, .prefill_keys = 256.5,
                                        .prefill_sequences = 1})
                           .total()
                           .in(units::ms);
    const double dec = decode_step(p, 1, 512).in(units::ms);
    WARN("FT 13B TP" << x.tp << ": prefill " << pre << " ms (" << 100 * err(pre, x.prefill_ms)
                     << "%), decode " << dec << " ms (" << 100 * err(dec, x.decode_ms) << "%)");
    CHECK(std::fabs(err(pre, x.prefill_ms)) < 0.16);
    CHECK(std::fabs(err(dec, x.decode_ms)) < 0.16);
  }
}

namespace {

struct static_case {
  const char* what;
  const transformer_spec* model;
  const gpu_spec* gpu;
  precision dtype;
  int batch, tp, in, out;
  double tokens_per_s_per_gpu;
  double tolerance;
};

}  // namespace

namespace {

/// Runs static cases with one decode attention kernel; returns the signed errors.
std::vector<double> run_static(const static_case* cases, std::size_t n,
                               decode_attention_kernel kernel) {
  std::vector<double> errors;
  for (std::size_t i = 0; i < n; ++i) {
    const static_case& c = cases[i];
    const precision kv = c.dtype == precision::fp8 ? precision::fp8 : precision::fp16;
    const serving_point r = serve(trtllm_session(*c.model, *c.gpu, c.dtype, kv, c.batch, c.tp,
                                                 c.in, c.out, kernel));
    const double got = r.output_tokens_per_s_per_gpu.in(units::tokens_per_s);
    const double e = err(got, c.tokens_per_s_per_gpu);
    errors.push_back(e);
    WARN(c.what << ": " << got << " tok/s/GPU vs " << c.tokens_per_s_per_gpu << " ("
                << 100 * e << "%)");
    CHECK(std::fabs(e) < c.tolerance);
  }
  return errors;
}

}  // namespace

TEST_CASE("Static batching: TensorRT-LLM v0.5, v0.6.1 and v0.8 published throughput",
          "[serving][accuracy]") {
  // NVIDIA/TensorRT-LLM docs/source/performance.md ("This data has been updated for v0.6.1"):
  // gptSessionBenchmark (a batch prefilled, then decoded to the end), Llama 2 7B / 70B,
  // A100 SXM 80GB fp16 and H100 SXM fp8 (fp8 weights, activations and KV cache), output
  // tokens/s per GPU. Those releases decode with the masked multi-head attention kernel, one
  // thread block per query head (XQA came in v0.8: docs/source/blogs/XQA-kernel.md), so Llama 2
  // 70B's 8-way grouped KV heads are loaded once per query head. Tolerances: 20%, 40% for the
  // rows the model misses by more (docs/models/serving.md, known weaknesses).
  const static_case v061[] = {
      {"A100 7B b384 128/128", &cat::llama2_7b, &cat::a100_sxm_80gb, precision::fp16, 384, 1,
       128, 128, 5586, 0.20},
      {"A100 7B b60 128/2048", &cat::llama2_7b, &cat::a100_sxm_80gb, precision::fp16, 60, 1, 128,
       2048, 1928, 0.20},
      {"A100 7B b52 2048/128", &cat::llama2_7b, &cat::a100_sxm_80gb, precision::fp16, 52, 1,
       2048, 128, 591, 0.20},
      {"A100 7B b64 tp2 2048/2048", &cat::llama2_7b, &cat::a100_sxm_80gb, precision::fp16, 64, 2,
       2048, 2048, 782, 0.20},
      {"A100 70B b1280 tp4 128/128", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16,
       1280, 4, 128, 128, 670, 0.20},
      {"A100 70B b240 tp4 128/2048", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16, 240,
       4, 128, 2048, 525, 0.40},
      {"A100 70B b120 tp4 2048/128", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16, 120,
       4, 2048, 128, 79, 0.20},
      {"H100 7B b768 128/128", &cat::llama2_7b, &cat::h100_sxm, precision::fp8, 768, 1, 128, 128,
       19694, 0.40},
      {"H100 7B b112 128/2048", &cat::llama2_7b, &cat::h100_sxm, precision::fp8, 112, 1, 128,
       2048, 6818, 0.20},
      {"H100 7B b80 2048/128", &cat::llama2_7b, &cat::h100_sxm, precision::fp8, 80, 1, 2048, 128,
       2244, 0.20},
      {"H100 7B b48 2048/2048", &cat::llama2_7b, &cat::h100_sxm, precision::fp8, 48, 1, 2048,
       2048, 2740, 0.20},
      {"H100 70B b1024 tp2 128/128", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 1024, 2,
       128, 128, 2657, 0.20},
      {"H100 70B b480 tp4 128/2048", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 480, 4,
       128, 2048, 1486, 0.20},
      {"H100 70B b96 tp2 2048/128", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 96, 2, 2048,
       128, 306, 0.20},
      {"H100 70B b64 tp2 2048/2048", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 64, 2,
       2048, 2048, 547, 0.20},
  };
  const std::vector<double> e061 =
      run_static(v061, std::size(v061), decode_attention_kernel::per_query_head);
  // NVIDIA/TensorRT-LLM docs/source/blogs/H200launch.md on the release/0.5.0 branch
  // ("TensorRT-LLM v0.5.0, TensorRT v9.1.0.4", preliminary): H200 fp8 max throughput, "largest
  // batch supported on given TP configuration by power of 2", total out tok/s; divided here by
  // the GPUs. (The copy on main lists the same per-GPU figures with the TP of two 70B rows
  // halved, 4 -> 2 and 2 -> 1, which contradicts its own footnote: b64 and b32 at TP1 for the
  // same lengths. The release branch's TP is used.) The same per-query-head kernel. Tolerance
  // 35%; the 13B rows (MHA) 60%: the model is 30-50% above them (docs/models/serving.md).
  const static_case v05[] = {
      {"H200 13B b1024 128/128", &cat::llama2_13b, &cat::h200_sxm, precision::fp8, 1024, 1, 128,
       128, 11819, 0.6},
      {"H200 13B b128 128/2048", &cat::llama2_13b, &cat::h200_sxm, precision::fp8, 128, 1, 128,
       2048, 4750, 0.6},
      {"H200 13B b64 2048/128", &cat::llama2_13b, &cat::h200_sxm, precision::fp8, 64, 1, 2048,
       128, 1349, 0.4},
      {"H200 70B b512 128/128", &cat::llama2_70b, &cat::h200_sxm, precision::fp8, 512, 1, 128,
       128, 3014, 0.35},
      {"H200 70B b512 tp4 128/2048", &cat::llama2_70b, &cat::h200_sxm, precision::fp8, 512, 4, 128,
       2048, 6616.0 / 4, 0.35},
      {"H200 70B b64 tp2 2048/128", &cat::llama2_70b, &cat::h200_sxm, precision::fp8, 64, 2, 2048,
       128, 682.0 / 2, 0.35},
      {"H200 70B b32 2048/128", &cat::llama2_70b, &cat::h200_sxm, precision::fp8, 32, 1, 2048,
       128, 303, 0.35},
  };
  const std::vector<double> e05 =
      run_static(v05, std::size(v05), decode_attention_kernel::per_query_head);
  // The same table regenerated with v0.8.0 ("All data was generated using version 0.8.0",
  // docs/source/performance.md at the v0.8.0 release): same benchmark and GPUs, XQA decoding
  // (the grouped kernel). Llama 2 70B rows: the decode-heavy ones nearly doubled against v0.6.1
  // while the MHA 7B rows moved a few per cent, which is the kernel change the model carries.
  // Tolerance 40%.
  const static_case v08[] = {
      {"v0.8 H100 70B b1024 tp2 128/128", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 1024,
       2, 128, 128, 3269, 0.4},
      {"v0.8 H100 70B b512 tp4 128/2048", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 512,
       4, 128, 2048, 2718, 0.4},
      {"v0.8 H100 70B b96 tp2 2048/128", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 96, 2,
       2048, 128, 347, 0.4},
      {"v0.8 H100 70B b64 tp2 2048/2048", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 64,
       2, 2048, 2048, 1020, 0.4},
      {"v0.8 H200 70B b512 128/128", &cat::llama2_70b, &cat::h200_sxm, precision::fp8, 512, 1,
       128, 128, 3844, 0.4},
      {"v0.8 H200 70B b512 tp2 128/2048", &cat::llama2_70b, &cat::h200_sxm, precision::fp8, 512,
       2, 128, 2048, 4008, 0.4},
      {"v0.8 H200 70B b64 2048/128", &cat::llama2_70b, &cat::h200_sxm, precision::fp8, 64, 1,
       2048, 128, 421, 0.4},
      {"v0.8 H200 70B b64 2048/2048", &cat::llama2_70b, &cat::h200_sxm, precision::fp8, 64, 1,
       2048, 2048, 1461, 0.4},
      {"v0.8 A100 70B b256 tp4 128/128", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16,
       256, 4, 128, 128, 565, 0.4},
      {"v0.8 A100 70B b128 tp4 128/2048", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16,
       128, 4, 128, 2048, 595, 0.4},
      {"v0.8 A100 70B b32 tp4 2048/128", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16,
       32, 4, 2048, 128, 66, 0.4},
      {"v0.8 A100 70B b32 tp4 2048/2048", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16,
       32, 4, 2048, 2048, 185, 0.4},
  };
  const std::vector<double> e08 = run_static(v08, std::size(v08), decode_attention_kernel::grouped);
  std::vector<double> all = e061;
  all.insert(all.end(), e05.begin(), e05.end());
  all.insert(all.end(), e08.begin(), e08.end());
  double worst = 0.0;
  for (double e : all) worst = std::max(worst, std::fabs(e));
  WARN("TensorRT-LLM static throughput: median |error| v0.6.1 " << 100 * median_abs(e061)
       << "%, v0.5 H200 " << 100 * median_abs(e05) << "%, v0.8 " << 100 * median_abs(e08)
       << "%; all " << all.size() << ": " << 100 * median_abs(all) << "%, max " << 100 * worst
       << "%");
  // The goal: median within 15%, no case off by more than 2x.
  CHECK(median_abs(all) < 0.15);
  CHECK(worst < 1.0);
}

TEST_CASE("Decode attention kernel: TensorRT-LLM's XQA speed-up on Llama 2 70B",
          "[serving][accuracy]") {
  // NVIDIA/TensorRT-LLM docs/source/blogs/XQA-kernel.md (TensorRT-LLM v0.8a, preliminary):
  // Llama 2 70B, one H200, fp8, 128/2048, 1,227 tok/s/GPU without XQA and 2,941 with it (2.4x);
  // the batch, 192, is the one docs/source/blogs/Falcon180B-H200.md lists for the 2,941 row.
  // The ratio is the mechanism's test (tolerance 20%); the absolute rows are reported (the
  // model is 65-90% above both: the batch of 192 is at the model's KV capacity for 2176-token
  // sequences, and what the engine allocated is not published).
  const auto plan = [](decode_attention_kernel k) {
    return trtllm_session(cat::llama2_70b, cat::h200_sxm, precision::fp8, precision::fp8, 192, 1,
                          128, 2048, k);
  };
  const double with = serve(plan(decode_attention_kernel::grouped))
                          .output_tokens_per_s_per_gpu.in(units::tokens_per_s);
  const double without = serve(plan(decode_attention_kernel::per_query_head))
                             .output_tokens_per_s_per_gpu.in(units::tokens_per_s);
  WARN("XQA: " << with << " vs 2941 (" << 100 * err(with, 2941) << "%), without " << without
               << " vs 1227 (" << 100 * err(without, 1227) << "%), speed-up " << with / without
               << " vs 2.4");
  CHECK(with / without == Approx(2941.0 / 1227.0).epsilon(0.20));
  // MHA (Llama 2 7B: as many KV heads as query heads) loads each KV head once either way.
  const auto mha = [](decode_attention_kernel k) {
    return decode_step(trtllm_session(cat::llama2_7b, cat::h100_sxm, precision::fp8,
                                      precision::fp8, 64, 1, 128, 2048, k),
                       64, 2048);
  };
  CHECK(mha(decode_attention_kernel::per_query_head).in(units::ms) ==
        Approx(mha(decode_attention_kernel::grouped).in(units::ms)).epsilon(0.05));
  // The per-query-head kernel's arithmetic rate is a named bound: halving it slows the step no
  // more than the compute share (the cache loads bound it), and a GPU without an fp32 CUDA-core
  // peak is refused with the field named rather than timed at a zero rate.
  serving_plan slow = plan(decode_attention_kernel::per_query_head);
  const duration base = decode_step(slow, 192, 2176);
  slow.assumptions.per_query_head_vector_fraction = 0.5;
  const duration halved = decode_step(slow, 192, 2176);
  CHECK(halved > base);  // the fraction is read: its arithmetic is on the critical path
  CHECK(halved.in(units::ms) < 2.0 * base.in(units::ms));
  slow.assumptions.per_query_head_vector_fraction = 0.0;
  CHECK_THROWS_WITH(decode_step(slow, 192, 2176),
                    Catch::Contains("per_query_head_vector_fraction"));
  serving_plan no_vector = plan(decode_attention_kernel::per_query_head);
  no_vector.node.gpu.peak.fp32_vector = compute_rate{};
  CHECK_THROWS_WITH(decode_step(no_vector, 192, 2176), Catch::Contains("fp32_vector"));
  no_vector.assumptions.decode_attention = decode_attention_kernel::grouped;
  CHECK(decode_step(no_vector, 192, 2176).value > 0.0);  // the grouped kernel does not need it
}

TEST_CASE("Prefill: TensorRT-LLM v0.5 batch-1 first-token latency", "[serving][accuracy]") {
  // NVIDIA/TensorRT-LLM docs/source/performance.md, "Low Latency" (data from v0.5): batch 1,
  // first-token latency, Llama 2 7B and 70B; H100 fp8, A100 fp16. Tolerance 35% (short
  // prompts: the fixed per-request cost dominates and is an estimate; long ones within 15%).
  struct row {
    const char* what;
    const transformer_spec* model;
    const gpu_spec* gpu;
    precision dtype;
    int tp, in;
    double ms, tolerance;
  };
  const row rows[] = {
      {"H100 7B 128", &cat::llama2_7b, &cat::h100_sxm, precision::fp8, 1, 128, 7, 0.35},
      {"H100 7B 2048", &cat::llama2_7b, &cat::h100_sxm, precision::fp8, 1, 2048, 36, 0.35},
      {"H100 70B tp4 128", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 4, 128, 26, 0.15},
      {"H100 70B tp4 2048", &cat::llama2_70b, &cat::h100_sxm, precision::fp8, 4, 2048, 109, 0.15},
      {"A100 7B 128", &cat::llama2_7b, &cat::a100_sxm_80gb, precision::fp16, 1, 128, 16, 0.15},
      {"A100 7B 2048", &cat::llama2_7b, &cat::a100_sxm_80gb, precision::fp16, 1, 2048, 133, 0.15},
      {"A100 70B tp4 128", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16, 4, 128, 47,
       0.15},
      {"A100 70B tp4 2048", &cat::llama2_70b, &cat::a100_sxm_80gb, precision::fp16, 4, 2048, 377,
       0.15},
  };
  std::vector<double> errors;
  for (const row& x : rows) {
    const bool fp8 = x.dtype == precision::fp8;
    const serving_plan p = cpp_runtime(
        {.model = *x.model,
         .node = single_gpu_node(*x.gpu),
         .layout = {.tp = x.tp},
         .config = {.weight_dtype = x.dtype, .kv_dtype = fp8 ? precision::fp8 : precision::fp16},
         .compute_dtype = x.dtype,
         .mix = request_mix::fixed(x.in, 1),
         .batching = batching_mode::static_batch});
    const double got = serve(p).ttft.in(units::ms);
    const double e = err(got, x.ms);
    errors.push_back(e);
    WARN(x.what << ": TTFT " << got << " ms vs " << x.ms << " (" << 100 * e << "%)");
    CHECK(std::fabs(e) < x.tolerance);
  }
  WARN("TensorRT-LLM v0.5 TTFT: median |error| " << 100 * median_abs(errors) << "%");
  CHECK(median_abs(errors) < 0.15);
}

TEST_CASE("Continuous batching: NVIDIA NIM Llama 3.3 70B fp8 on two H100s", "[serving][accuracy]") {
  // docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance, "Llama-3.3-70b-instruct Results",
  // version 1.8.0, 2 x H100 80G, fp8, TP2 (a TensorRT-LLM engine), AIPerf at fixed concurrency:
  // TTFT, ITL and total output tokens/s. Tolerances: ITL and throughput 25%, TTFT 40% (under
  // load the measured TTFT holds queueing the mean-value model only approximates; at
  // concurrency 100 the clients outnumber the sequences the KV cache admits and the wait is
  // (100 - capacity) / request rate: the measured 8 s implies about 86 sequences).
  struct row {
    int in, out, concurrency;
    double ttft_ms, itl_ms, tokens_per_s;
  };
  const row rows[] = {{5000, 500, 1, 406.77, 18.58, 51.67},    {5000, 500, 5, 546.7, 21.83, 218.48},
                      {5000, 500, 25, 688.69, 38.75, 623.4},   {5000, 500, 50, 834.51, 59.73, 814.37},
                      {5000, 500, 100, 7996.25, 92.91, 917.26}, {500, 2000, 1, 47.77, 18.91, 52.85}};
  std::vector<double> ttft_e, itl_e, thr_e;
  for (const row& x : rows) {
    const serving_plan p{.model = cat::llama31_70b,
                         .node = cat::dgx_h100,
                         .layout = {.tp = 2},
                         .config = {.weight_dtype = precision::fp8,
                                    .kv_dtype = precision::fp8,
                                    .engine = serving_engine::trtllm},
                         .compute_dtype = precision::fp8,
                         .mix = request_mix::fixed(x.in, x.out),
                         .concurrency = x.concurrency,
                         // TensorRT-LLM schedules a prompt in a step of its own unless chunked
                         // context is enabled (LLM API enable_chunked_prefill, False by default).
                         .chunked_prefill = false};
    const serving_point r = serve(p);
    const double t = err(r.ttft.in(units::ms), x.ttft_ms);
    const double i = err(r.itl.in(units::ms), x.itl_ms);
    const double k = err(r.output_tokens_per_s.in(units::tokens_per_s), x.tokens_per_s);
    ttft_e.push_back(t);
    itl_e.push_back(i);
    thr_e.push_back(k);
    WARN("NIM 70B " << x.in << "/" << x.out << " c" << x.concurrency << ": TTFT " << 100 * t
                    << "%, ITL " << 100 * i << "%, tokens/s " << 100 * k << "%");
    CHECK(std::fabs(i) < 0.25);
    CHECK(std::fabs(k) < 0.25);
    CHECK(std::fabs(t) < 0.4);
  }
  WARN("NIM: median |error| TTFT " << 100 * median_abs(ttft_e) << "%, ITL "
                                   << 100 * median_abs(itl_e) << "%, throughput "
                                   << 100 * median_abs(thr_e) << "%");
  CHECK(median_abs(itl_e) < 0.15);
  CHECK(median_abs(thr_e) < 0.15);
}

TEST_CASE("vLLM latency benchmark on an H200 (batch 8, 32 in, 128 out)", "[serving][accuracy]") {
  // vLLM's performance dashboard (buildkite.com/vllm/performance-benchmark, build 9515),
  // "Latency tests": input 32, output 128, batch 8, bf16, mean end-to-end latency: Llama 3.1 8B
  // TP1 833.42 ms, Llama 3 70B TP4 2077.53 ms, Mixtral 8x7B TP2 1917.44 ms. vLLM's offline
  // generate runs the batch like a static batch. Tolerance 20%.
  struct row {
    const char* what;
    const transformer_spec* model;
    int tp;
    double ms;
  };
  const row rows[] = {{"Llama 3.1 8B TP1", &cat::llama31_8b, 1, 833.421},
                      {"Llama 3 70B TP4", &cat::llama31_70b, 4, 2077.53},
                      {"Mixtral 8x7B TP2", &cat::mixtral_8x7b, 2, 1917.44}};
  for (const row& x : rows) {
    const serving_plan p{.model = *x.model,
                         .node = cat::hgx_h200,
                         .layout = {.tp = x.tp},
                         .mix = request_mix::fixed(32, 128),
                         .concurrency = 8,
                         .batching = batching_mode::static_batch};
    const double got = serve(p).e2e.in(units::ms);
    WARN("vLLM " << x.what << ": " << got << " ms vs " << x.ms << " (" << 100 * err(got, x.ms)
                 << "%)");
    CHECK(std::fabs(err(got, x.ms)) < 0.20);
  }
}

TEST_CASE("Decode mechanisms: quantisation, KV dtype, GQA, MoE, ridge", "[serving][decode]") {
  const serving_plan base =
      cpp_runtime({.model = cat::llama31_8b, .node = single_gpu_node(cat::h100_sxm)});
  // int4 weight-only (Marlin-style) decodes faster than bf16 at batch 1 (a quarter of the weight
  // bytes plus scales), and loses its edge at large batch (dequantised once per 64 rows).
  serving_plan w4 = base;
  w4.config.weight_dtype = precision::int4;
  const double small = decode_step(base, 1, 1024) / decode_step(w4, 1, 1024);
  const double large = decode_step(base, 1024, 1024) / decode_step(w4, 1024, 1024);
  WARN("int4 / bf16 decode speed-up: batch 1 " << small << ", batch 1024 " << large);
  CHECK(small > 2.0);
  CHECK(large < 1.2);
  // fp8 KV halves the attention's KV reads: decode at long context gets faster.
  serving_plan kv8 = base;
  kv8.config.kv_dtype = precision::fp8;
  CHECK(decode_step(kv8, 64, 8192) < decode_step(base, 64, 8192));
  // GQA: Llama 2 7B (32 KV heads) reads 4x the KV of Llama 3.1 8B (8 KV heads) per token, so a
  // long-context batch decodes much slower.
  serving_plan mha = base;
  mha.model = cat::llama2_7b;
  CHECK(decode_step(mha, 64, 4000) > 1.5 * decode_step(base, 64, 4000));
  // The ridge: the linear layers turn compute-bound between batch 64 and 512 on an H100 in bf16
  // (989.5 TFLOP/s x 0.8 / (3.35 TB/s x 0.9) = 263 FLOP/B: about 260 rows for 2-byte weights,
  // a little more with the activations' traffic); fp8 weights and math move it little (twice
  // the rate, half the bytes); int4 weight-only with 16-bit math brings it down to tens of rows.
  const int ridge = ridge_batch(base);
  CHECK(ridge > 64);
  CHECK(ridge < 512);
  const serving_step below = forward_step(base, {.decode_sequences = ridge - 1.0, .decode_context = 1});
  const serving_step at = forward_step(base, {.decode_sequences = 1.0 * ridge, .decode_context = 1});
  CHECK(below.gemm_math <= below.gemm_memory);
  CHECK(at.gemm_math > at.gemm_memory);
  serving_plan fp8w = base;
  fp8w.config.weight_dtype = precision::fp8;
  fp8w.compute_dtype = precision::fp8;
  CHECK(std::abs(ridge_batch(fp8w) - ridge) < ridge / 4);
  CHECK(ridge_batch(w4) < ridge / 3);
  // At a long context the whole step stays bandwidth-bound past the ridge: the KV reads grow
  // with the batch.
  CHECK_FALSE(forward_step(base, {.decode_sequences = 2.0 * ridge, .decode_context = 8000})
                  .compute_bound());
  // MoE: expected distinct experts touched, E (1 - (1 - k/E)^B): 8 experts, top-2.
  CHECK(detail::experts_touched(8, 2, 1) == Approx(2.0));
  CHECK(detail::experts_touched(8, 2, 2) == Approx(8 * (1 - 0.75 * 0.75)));
  CHECK(detail::experts_touched(8, 2, 1000) == Approx(8.0));
  // Mixtral at batch 1 reads 2 of 8 experts' weights: well under the full model's bytes.
  const serving_plan moe{.model = cat::mixtral_8x7b, .node = cat::hgx_h200, .layout = {.tp = 2}};
  const serving_step one = forward_step(moe, {.decode_sequences = 1, .decode_context = 512});
  const serving_step many = forward_step(moe, {.decode_sequences = 256, .decode_context = 512});
  CHECK(many.memory_floor > 2.0 * one.memory_floor);
}

TEST_CASE("Continuous batching: steady state, KV cap, rate, curve, SLO", "[serving][batching]") {
  serving_plan p{.model = cat::llama31_70b,
                 .node = cat::dgx_h100,
                 .layout = {.dp = 2, .tp = 4},
                 .mix = request_mix::fixed(2000, 500),
                 .concurrency = 32};
  const serving_point a = serve(p);
  CHECK(a.tpot == a.itl);
  CHECK(a.e2e.in(units::s) == Approx((a.ttft + 499.0 * a.tpot).in(units::s)).epsilon(1e-9));
  // Little's law: requests/s = concurrency / time per request (decode part), two replicas.
  CHECK(a.requests_per_s.value == Approx(2 * 32 / (500 * a.tpot.value)).epsilon(1e-9));
  CHECK(a.output_tokens_per_s.value == Approx(500 * a.requests_per_s.value).epsilon(1e-9));
  CHECK(a.output_tokens_per_s_per_gpu.value * 4 == Approx(a.output_tokens_per_s_per_replica.value));
  // More concurrency: more throughput, slower tokens.
  p.concurrency = 128;
  const serving_point b = serve(p);
  CHECK(b.output_tokens_per_s > a.output_tokens_per_s);
  CHECK(b.tpot > a.tpot);
  // Beyond the KV cache: capped, flagged, and the excess waits in the queue.
  p.concurrency = 100000;
  const serving_point c = serve(p);
  CHECK(c.kv_limited);
  CHECK(c.concurrency == c.kv_capacity);
  CHECK(c.ttft > b.ttft);
  // Rate: the concurrency that serves a rate reproduces it (Little's law, by bisection).
  p.concurrency = 1;
  p.rate = b.requests_per_s;
  const serving_point d = serve(p);
  CHECK(d.concurrency == Approx(128).epsilon(0.01));
  p.rate = 10.0 * c.requests_per_s;
  CHECK(serve(p).saturated);
  p.rate = {};
  // A mix: percentiles over the classes.
  p.concurrency = 32;
  p.mix = {.classes = {request_class{200, 200, 3}, request_class{8000, 500, 1}}};
  const serving_point m = serve(p);
  CHECK(m.ttft_p50 < m.ttft_p99);
  CHECK(m.ttft_p50 <= m.ttft);
  CHECK(m.e2e_p50 < m.e2e_p99);
  // One class under load: the queue spreads TTFT around its mean (an arrival that finds the
  // prefill path idle waits nothing), p50 <= mean <= p99.
  p.mix = request_mix::fixed(4000, 200);
  p.concurrency = 64;
  const serving_point q = serve(p);
  CHECK(q.ttft_p50 <= q.ttft);
  CHECK(q.ttft < q.ttft_p99);
  CHECK(q.ttft_p90 < q.ttft_p99);
  // The curve rises in throughput and latency over concurrency; the SLO point is the largest
  // concurrency that meets both targets.
  p.mix = request_mix::fixed(2000, 500);
  const serving_curve curve = throughput_latency_curve(p, 12);
  REQUIRE(curve.size() >= 8);
  for (int i = 1; i < curve.size(); ++i) {
    CHECK(curve.at(i).concurrency > curve.at(i - 1).concurrency);
    CHECK(curve.at(i).output_tokens_per_s >= curve.at(i - 1).output_tokens_per_s);
    CHECK(curve.at(i).tpot >= curve.at(i - 1).tpot);
  }
  const serving_slo slo{.ttft = 2.0 * units::s, .tpot = 50.0 * units::ms};
  const slo_result best = best_under_slo(p, slo);
  REQUIRE(best.found);
  CHECK(slo.met(best.best));
  serving_plan more = p;
  more.concurrency = static_cast<int>(best.best.concurrency) + 1;
  if (more.concurrency <= best.best.kv_capacity) CHECK_FALSE(slo.met(serve(more)));
  CHECK_FALSE(best_under_slo(p, {.tpot = 1.0 * units::ms}).found);
  // Without chunked prefill the prompts stall the decoders: slower tokens on average.
  serving_plan v0 = p;
  v0.chunked_prefill = false;
  CHECK(serve(v0).tpot > serve(p).tpot);
}

TEST_CASE("Static batching and pipeline parallelism", "[serving][batching]") {
  serving_plan p{.model = cat::llama31_70b,
                 .node = cat::dgx_h100,
                 .layout = {.tp = 8},
                 .mix = request_mix::fixed(1024, 128),
                 .concurrency = 16,
                 .batching = batching_mode::static_batch,
                 .chunked_prefill = false};  // a static batch is prefilled in one pass
  const serving_point s = serve(p);
  CHECK(s.ttft.in(units::s) == Approx((prefill_time(p, 1024, 16) +
                                       p.assumptions.request_overhead)
                                          .in(units::s))
                                   .epsilon(1e-9));
  CHECK(s.e2e.in(units::s) == Approx((s.ttft + 127.0 * s.tpot).in(units::s)).epsilon(1e-6));
  // pp = 2 x tp = 4: the same GPUs; a lone request's step runs both stages one after the other
  // and pays a hand-off.
  serving_plan pp = p;
  pp.layout = {.tp = 4, .pp = 2};
  CHECK(decode_step(pp, 1, 1024) > 0.0 * units::s);
  const serving_step two = forward_step(pp, {.decode_sequences = 1, .decode_context = 1024});
  CHECK(two.slowest_stage < two.total());
}

TEST_CASE("Disaggregated prefill and decode pools", "[serving][disaggregated]") {
  const serving_plan pre{.model = cat::llama31_70b,
                         .node = cat::dgx_h100,
                         .layout = {.tp = 4},
                         .mix = request_mix::fixed(4000, 250)};
  serving_plan dec = pre;
  dec.concurrency = 64;
  const disaggregated_result r = disaggregate(pre, dec);
  // Long prompts and short outputs need more prefill than decode capacity.
  CHECK(r.prefill_per_decode_replica > 1.0);
  CHECK(r.prefill_gpus_per_decode_gpu == Approx(r.prefill_per_decode_replica));
  CHECK(r.kv_transfer > 0.0 * units::s);
  CHECK(r.ttft > r.kv_transfer);
  // Short prompts, long outputs: the other way round.
  serving_plan pre2 = pre, dec2 = dec;
  pre2.mix = dec2.mix = request_mix::fixed(200, 2000);
  CHECK(disaggregate(pre2, dec2).prefill_per_decode_replica < 1.0);
}

TEST_CASE("Engines' KV budgets", "[serving][engines]") {
  // vllm-project/vllm PR #2031 "Fix peak memory profiling" (v0.2.5): Llama 2 7B, TP1, one
  // A100-80GB: "# GPU blocks" 7449 before (torch peak only) and 7351 after (mem_get_info).
  // The model's blocks under the two rules, tolerance 3%; and the order (before > after).
  const inference_config before{.context = 2048,
                                .max_num_batched_tokens = 2048,
                                .engine = serving_engine::vllm_v0_torch_peak};
  inference_config after = before;
  after.engine = serving_engine::vllm_v0_mem_get_info;
  const double b0 = inference_memory(cat::llama2_7b, cat::a100_sxm_80gb, {}, before).kv.blocks;
  const double b1 = inference_memory(cat::llama2_7b, cat::a100_sxm_80gb, {}, after).kv.blocks;
  WARN("vLLM PR #2031 blocks: " << b0 << " (7449), " << b1 << " (7351)");
  CHECK(b0 > b1);
  CHECK(std::fabs(err(b0, 7449)) < 0.03);
  CHECK(std::fabs(err(b1, 7351)) < 0.03);
  // The same PR, Llama 2 70B, TP 4 on four A100-80GB: 31615 blocks before, 20865 after. The
  // "after" build is v0.2.5 (serving_engine::vllm_v0_record_stream): total - free, and the
  // profile run's all-reduce inputs held by record_stream until PR #2151 (v0.2.6) freed them.
  // max_num_batched_tokens: vLLM v0.2.x's default max(max_model_len, 2048) = 4096 for Llama 2;
  // max_num_seqs 256, gpu_memory_utilization 0.9 (defaults). Tolerance 5% (the TP 1 pair's 3%
  // plus the NCCL buffers, an estimate).
  const inference_config before4{.context = 4096,
                                 .max_num_batched_tokens = 4096,
                                 .engine = serving_engine::vllm_v0_torch_peak};
  inference_config after4 = before4;
  after4.engine = serving_engine::vllm_v0_record_stream;
  const double c0 = inference_memory(cat::llama2_70b, cat::a100_sxm_80gb, {.tp = 4}, before4).kv.blocks;
  const double c1 = inference_memory(cat::llama2_70b, cat::a100_sxm_80gb, {.tp = 4}, after4).kv.blocks;
  inference_config later4 = before4;  // v0.2.6 on: the inputs freed, the rest as v0.2.5
  later4.engine = serving_engine::vllm_v0_mem_get_info;
  const double c2 = inference_memory(cat::llama2_70b, cat::a100_sxm_80gb, {.tp = 4}, later4).kv.blocks;
  WARN("vLLM PR #2031 TP 4 blocks: " << c0 << " (31615), v0.2.5 " << c1 << " (20865), v0.2.6+ "
                                     << c2);
  CHECK(std::fabs(err(c0, 31615)) < 0.05);
  CHECK(std::fabs(err(c1, 20865)) < 0.05);
  CHECK(c2 > c1);
  // At TP 1 nothing is all-reduced: v0.2.5 differs from the snapshot rule by the CUDA context
  // only, and reads the TP 1 "after" figure as well.
  inference_config v025 = after;
  v025.engine = serving_engine::vllm_v0_record_stream;
  const inference_memory_result r025 = inference_memory(cat::llama2_7b, cat::a100_sxm_80gb, {}, v025);
  CHECK(std::fabs(err(r025.kv.blocks, 7351)) < 0.03);
  CHECK((inference_memory(cat::llama2_7b, cat::a100_sxm_80gb, {}, after).kv.available -
         r025.kv.available)
            .in(units::MiB) == Approx(memory_assumptions{}.cuda_context.in(units::MiB)));
  // SGLang: KV = total x mem_fraction_static - context - weights (0.88 by default at tp 1,
  // 0.81 at tp 8); TensorRT-LLM: 0.9 of what is free.
  const gpu_spec& g = cat::h100_sxm;
  const inference_config sg{.engine = serving_engine::sglang};
  const inference_memory_result s = inference_memory(cat::llama31_8b, g, {}, sg);
  const memory_assumptions a{};
  CHECK(s.kv.available.in(units::B) ==
        Approx((0.88 * g.plannable_memory() - a.cuda_context - s.per_gpu.weights).in(units::B)));
  const inference_memory_result s8 = inference_memory(cat::llama31_70b, g, {.tp = 8}, sg);
  CHECK(s8.kv.available.in(units::B) ==
        Approx((0.81 * g.plannable_memory() - a.cuda_context - s8.per_gpu.weights).in(units::B)));
  const inference_config trt{.engine = serving_engine::trtllm};
  const inference_memory_result t = inference_memory(cat::llama31_8b, g, {}, trt);
  CHECK(t.kv.available.in(units::B) ==
        Approx(0.9 * (g.plannable_memory() - t.per_gpu.total() + t.per_gpu.kv_cache).in(units::B)));
  // vLLM with the CUDA-graph pool charged has less.
  inference_config graphs{};
  graphs.engine = serving_engine::vllm_cudagraph_profiled;
  CHECK(inference_memory(cat::llama31_8b, g, {}, graphs).kv.available <
        inference_memory(cat::llama31_8b, g, {}, {}).kv.available);
  serving_engine e{};
  CHECK(parse_enum("sglang", e));
  CHECK(e == serving_engine::sglang);
  CHECK_FALSE(parse_enum("tgi", e));
}

namespace {
serving_plan ok_with_mix(serving_plan p, int in, int out) {
  p.mix = request_mix::fixed(in, out);
  return p;
}
}  // namespace

TEST_CASE("Serving input errors name the field", "[serving][errors]") {
  const serving_plan ok{.model = cat::llama31_8b, .node = single_gpu_node(cat::h100_sxm)};
  serving_plan p = ok;
  p.concurrency = 0;
  CHECK_THROWS_WITH(serve(p), Catch::Contains("serving_plan.concurrency"));
  p = ok;
  p.node = single_gpu_node(cat::a100_sxm_80gb);
  p.compute_dtype = precision::fp8;
  CHECK_THROWS_WITH(serve(p), Catch::Contains("compute_dtype"));
  p = ok;
  p.mix = request_mix::fixed(0, 10);
  CHECK_THROWS_WITH(serve(p), Catch::Contains("input_tokens"));
  p = ok;
  p.layout.tp = 3;
  CHECK_THROWS_AS(serve(p), gpuplan::invalid_input);
  p = ok;
  p.model = cat::llama31_405b;  // 810 GB of bf16 weights on one GPU: no KV cache at all
  CHECK_THROWS_WITH(serve(p), Catch::Contains("KV cache holds no sequence"));
  p = ok;
  p.assumptions.kernels.hbm_fraction = 1.5;
  CHECK_THROWS_WITH(serve(p), Catch::Contains("hbm_fraction"));
  p = ok;
  p.assumptions.prefill_queue_max_load = 1.0;  // an M/G/1 queue at load 1 has no steady state
  CHECK_THROWS_WITH(serve(p), Catch::Contains("prefill_queue_max_load"));
  // a share near double's range overflowed share x tokens to an infinite mean length (an int
  // context of -2^31, refused as "inference_config.context"): the share is refused by name
  p = ok;
  p.mix = request_mix::fixed(512, 128);
  p.mix.classes[0].share = 1e308;
  CHECK_THROWS_WITH(serve(p), Catch::Contains("request_mix: share"));
  p.mix.classes[0].share = max_request_share;  // the bound itself is a mix like any other
  CHECK(serve(p).ttft.value == Approx(serve(ok_with_mix(ok, 512, 128)).ttft.value));
}

TEST_CASE("Expert parallelism for MoE serving", "[serving][moe]") {
  // Mixtral 8x7B (8 experts, top-2, expert FFN 14336, hidden 4096, 32 layers) on eight H200s.
  serving_plan tp{.model = cat::mixtral_8x7b, .node = cat::hgx_h200, .layout = {.tp = 8}};
  tp.assumptions.step_overhead = 0.0 * units::ms;
  serving_plan ep = tp;
  ep.layout.ep = 8;  // one expert per GPU, attention still split eight ways
  // The same weights per GPU (8 experts / 8 ranks = 8 experts x 1/8 each): the same KV budget.
  CHECK(kv_capacity_sequences(ep) == kv_capacity_sequences(tp));
  // Hand computation of one decode token (batch 1): it touches k = 2 experts. Under TP every GPU
  // reads 1/8 of both (2 x 3 x 4096 x 14336 / 8 bf16 weights = 88.1 MB per layer); under EP the
  // busiest GPU holds one of them whole (3 x 4096 x 14336 x 2 B = 352.3 MB per layer): 4x the
  // expert bytes, 264.2 MB more per layer, 32 layers.
  const serving_step a = forward_step(tp, {.decode_sequences = 1, .decode_context = 512});
  const serving_step b = forward_step(ep, {.decode_sequences = 1, .decode_context = 512});
  const double extra = 32 * (3.0 * 4096 * 14336 * 2 - 2 * 3.0 * 4096 * 14336 / 8 * 2);
  const duration more = extra * units::B / (0.9 * cat::h200_sxm.memory_bandwidth);
  CHECK((b.gemm_memory - a.gemm_memory).in(units::s) == Approx(more.in(units::s)).epsilon(0.01));
  CHECK(decode_step(ep, 1, 512) > decode_step(tp, 1, 512));
  // A large batch touches all 8 experts: each GPU reads its whole expert under EP and 1/8 of
  // all 8 under TP, the same bytes; EP's GEMMs are 8x larger (n = 2 x 14336 instead of
  // 2 x 1792). (The weight bytes are equal; the activations' reads and writes differ by a few
  // per cent: 5%.) But under EP the step waits for the GPU of the busiest expert: 1,024 routed
  // rows over 8 experts, 128 each on average, the most loaded 128 + 1.4236 sigma (sigma^2 =
  // 512 x 2 x 1/8 x 7/8 x 6/7 = 96; 1.4236 the expected largest of 8 standard normals): 1.109x
  // the mean (detail::ep_busiest_rank_factor), where TP splits every expert evenly. EP's GEMMs
  // are slower than TP's, by at most that factor.
  CHECK(detail::experts_touched(8, 2, 512) == Approx(8.0).epsilon(1e-6));
  const serving_step c = forward_step(tp, {.decode_sequences = 512, .decode_context = 512});
  const serving_step d = forward_step(ep, {.decode_sequences = 512, .decode_context = 512});
  CHECK(d.gemm_memory.in(units::s) == Approx(c.gemm_memory.in(units::s)).epsilon(0.05));
  const double busiest = detail::ep_busiest_rank_factor(512, 2, 8, 8, 1.0);
  CHECK(busiest == Approx((128 + 1.4236 * std::sqrt(96.0)) / 128).epsilon(1e-4));
  CHECK(d.gemm > c.gemm);
  CHECK(d.gemm.in(units::s) <= busiest * c.gemm.in(units::s));
  // All-to-all dispatch: per MoE layer two all-to-alls of tokens x k x hidden x 2 B / ep per
  // rank, times the busiest rank's share (it receives `busiest` times the mean), replace the
  // layer's all-reduce of tokens x hidden x 2 B (hand computation through the collective model:
  // NCCL's all-to-all, moe_a2a automatic with tensor-parallel attention).
  serving_plan a2a = ep;
  a2a.assumptions.moe_all_to_all = true;
  const double tokens = 512;
  const serving_step e = forward_step(a2a, {.decode_sequences = tokens, .decode_context = 512});
  const collective_group g8 = make_group(cat::hgx_h200, 8, 1, inter_node_fabric::infiniband, {});
  const duration ar = collective_time(collective_kind::all_reduce, tokens * 4096 * 2.0 * units::B,
                                      g8, {})
                          .total;
  const duration x = collective_time(collective_kind::all_to_all,
                                     busiest * tokens * 2 * 4096 * 2.0 / 8 * units::B, g8, {})
                         .total;
  CHECK((e.communication - d.communication).in(units::s) ==
        Approx((32.0 * (2.0 * x - ar)).in(units::s)).epsilon(1e-6));
  // Bad layouts name the field.
  serving_plan bad = ep;
  bad.layout.ep = 3;
  CHECK_THROWS_WITH(serve(bad), Catch::Contains("layout.ep"));
  bad = ep;
  bad.model = cat::llama31_8b;
  CHECK_THROWS_WITH(serve(bad), Catch::Contains("MoE"));
  bad = ep;
  bad.layout.expert_tp = 2;
  CHECK_THROWS_WITH(serve(bad), Catch::Contains("expert_tp"));
  // Without ep, an expert_tp other than tp was dropped by the memory model but split the expert
  // GEMMs: refused by name too.
  bad = tp;
  bad.layout.expert_tp = 2;
  CHECK_THROWS_WITH(serve(bad), Catch::Contains("expert_tp"));
  bad.layout.expert_tp = 8;  // the same as 0
  CHECK(serve(bad).tpot == serve(tp).tpot);
}

TEST_CASE("gpt-oss-120b on one H100: MXFP4 experts, alternating 128-token windows",
          "[serving][accuracy][2026]") {
  // GPUStack performance lab, "Optimizing GPT-OSS-120B Throughput on NVIDIA H100 GPUs"
  // (docs.gpustack.ai, performance-lab/gpt-oss-120b/h100; vLLM v0.10.2, `vllm serve
  // openai/gpt-oss-120b --max-model-len 32768`, bf16 KV cache): ShareGPT, "Maximum request
  // concurrency: 4", 100 prompts: output 453.04 tok/s, mean TPOT 8.31 ms, mean TTFT 49.00 ms.
  // ShareGPT's mean lengths in the same lab's 1000-prompt run: 215,312 / 1000 prompt and
  // 195,544 / 1000 output tokens. The checkpoint as shipped: MXFP4 experts, the rest bf16, math
  // in bf16 on Hopper (the weights dequantised). Tolerances: TPOT 15%, throughput 20%; the TTFT
  // (through the chat endpoint, tokenisation included) is reported, not checked.
  const transformer_spec& m = cat::gpt_oss_120b;
  serving_plan p{.model = m,
                 .node = single_gpu_node(cat::h100_sxm),
                 .config = checkpoint_weights(m, {.max_model_len = 32768}),
                 .compute_dtype = checkpoint_compute_dtype(m, cat::h100_sxm),
                 .mix = request_mix::fixed(215, 196),
                 .concurrency = 4};
  CHECK(p.compute_dtype == precision::bf16);
  const serving_point r = serve(p);
  const double tpot = err(r.tpot.in(units::ms), 8.31);
  const double thr = err(r.output_tokens_per_s.in(units::tokens_per_s), 453.04);
  WARN("gpt-oss-120b H100 c4: TPOT " << 100 * tpot << "%, tokens/s " << 100 * thr << "%, TTFT "
                                     << r.ttft.in(units::ms) << " ms vs 49.00");
  CHECK(std::fabs(tpot) < 0.15);
  CHECK(std::fabs(thr) < 0.20);
  // The same run's percentiles (vLLM's "Median ITL (ms): 7.99", "P99 ITL (ms): 23.32", "Median
  // TPOT (ms): 8.24", "P99 TPOT (ms): 10.12"): about one step in 50 also prefills a new prompt
  // (4 sequences of 196 tokens), 19 ms longer, so the P99 gap is such a step. Tolerances: the
  // median ITL and TPOT 10%; P99 ITL 20% (one prompt of the mean length prefilled; ShareGPT's
  // prompts vary); P99 TPOT 20%: ShareGPT's outputs vary too, and a short answer counts its few
  // prefill-carrying steps over fewer tokens, which the fixed mix (the means) leaves out.
  const double itl50 = err(r.itl_p50.in(units::ms), 7.99), itl99 = err(r.itl_p99.in(units::ms), 23.32);
  const double tpot50 = err(r.tpot_p50.in(units::ms), 8.24);
  const double tpot99 = err(r.tpot_p99.in(units::ms), 10.12);
  WARN("gpt-oss-120b H100 c4 percentiles: ITL p50 " << 100 * itl50 << "%, p99 " << 100 * itl99
                                                    << "%, TPOT p50 " << 100 * tpot50 << "%, p99 "
                                                    << 100 * tpot99 << "%");
  CHECK(std::fabs(itl50) < 0.10);
  CHECK(std::fabs(itl99) < 0.20);
  CHECK(std::fabs(tpot50) < 0.10);
  CHECK(std::fabs(tpot99) < 0.20);
}

TEST_CASE("TPOT and ITL percentiles: the steps that also prefill", "[serving]") {
  using gpuplan::detail::binomial_quantile;
  // Binomial quantiles, exact: Binomial(195, 0.0204) has mean 3.98; P(K <= 3) = 0.43, P(K <= 4)
  // = 0.63 (the median 4); P(K <= 8) = 0.986, P(K <= 9) = 0.995 (P99 9)
  CHECK(binomial_quantile(195, 0.0204, gpuplan::detail::median_percentile) == 4);
  CHECK(binomial_quantile(195, 0.0204, gpuplan::detail::p99_percentile) == 9);
  // the normal's past a variance of 25: Binomial(10000, 0.5) median 5000, P99 ceil(5000 + 2.326 x 50
  // - 0.5) = 5116 (continuity corrected)
  CHECK(binomial_quantile(10000, 0.5, gpuplan::detail::median_percentile) == 5000);
  CHECK(binomial_quantile(10000, 0.5, gpuplan::detail::p99_percentile) == 5116);
  // by symmetry above 1/2: Binomial(100, 0.99)'s P99 is 100, its median 99
  CHECK(binomial_quantile(100, 0.99, gpuplan::detail::p99_percentile) == 100);
  CHECK(binomial_quantile(100, 0.99, gpuplan::detail::median_percentile) == 99);
  CHECK(binomial_quantile(50, 0.0, gpuplan::detail::p99_percentile) == 0);
  // Llama 3.1 8B on one H100: the mean stays the model's, the median gap is the decode-only one
  // below it, P99 a step that also prefills; a request's TPOT lies between them
  serving_plan p{.model = cat::llama31_8b,
                 .node = single_gpu_node(cat::h100_sxm),
                 .mix = request_mix::fixed(1024, 256),
                 .concurrency = 32};
  const serving_point r = serve(p);
  CHECK(r.itl_p50 < r.itl);
  CHECK(r.itl_p99 > 2.0 * r.itl);  // a 1024-token prefill beside 32 decodes: several steps' work
  CHECK(r.tpot_p50 <= r.tpot_p99);
  CHECK(r.tpot_p50 > r.itl_p50);
  CHECK(r.tpot_p99 < r.itl_p99);
  // the share of steps carrying prefill is below 1%: P99 ITL is a decode-only step
  p.mix = request_mix::fixed(128, 16384);
  p.concurrency = 1;
  const serving_point quiet = serve(p);
  CHECK(quiet.itl_p99 == quiet.itl_p50);
  // prefill-first (no chunking): the prefill step falls between two decode steps
  p.mix = request_mix::fixed(1024, 256);
  p.concurrency = 32;
  p.chunked_prefill = false;
  const serving_point first = serve(p);
  CHECK(first.itl_p99 > first.itl_p50);
  // a static batch: one TPOT for all; its gaps grow with the context
  p.batching = batching_mode::static_batch;
  const serving_point batch = serve(p);
  CHECK(batch.tpot_p50 == batch.tpot);
  CHECK(batch.tpot_p99 == batch.tpot);
  CHECK(batch.itl_p99 > batch.itl_p50);
}

TEST_CASE("DeepSeek-R1 on 8 H200: MLA, 256 experts, fp8 blocks", "[serving][accuracy][2026]") {
  // GPUStack performance lab, "Optimizing DeepSeek-R1 Throughput on NVIDIA H200 GPUs"
  // (docs.gpustack.ai, performance-lab/deepseek-r1/h200; vLLM v0.11.0, `vllm serve
  // deepseek-ai/DeepSeek-R1-0528 -tp 8`, the FP8 checkpoint, bf16 KV cache): ShareGPT,
  // "Maximum request concurrency: 4": output 196.81 tok/s, mean TPOT 19.36 ms. ShareGPT's mean
  // lengths in that lab's run: 219,171 / 1000 prompt and 200,752 / 1000 output tokens.
  // Tolerance 35%: at the same concurrency SGLang v0.5.7 on 8 H200 (SemiAnalysis InferenceX
  // issue 870, 1k in / 8k out) reports a TPOT of 10.93 ms, so engines differ by 1.8x here; the
  // model sits between them. Its throughput is checked against that bracket.
  const transformer_spec& m = cat::deepseek_r1;
  serving_plan p{.model = m,
                 .node = cat::hgx_h200,
                 .layout = {.tp = 8},
                 .config = checkpoint_weights(m, {}),
                 .compute_dtype = checkpoint_compute_dtype(m, cat::h200_sxm),
                 .mix = request_mix::fixed(219, 201),
                 .concurrency = 4};
  CHECK(p.compute_dtype == precision::fp8);
  const serving_point r = serve(p);
  const double tpot = err(r.tpot.in(units::ms), 19.36);
  const double thr = err(r.output_tokens_per_s.in(units::tokens_per_s), 196.81);
  WARN("DeepSeek-R1 8xH200 c4: TPOT " << 100 * tpot << "%, tokens/s " << 100 * thr << "%");
  CHECK(std::fabs(tpot) < 0.35);
  // Throughput at concurrency 4 follows the TPOT: between vLLM's 196.81 tok/s and SGLang's
  // 8 x 45.0 = 360 tok/s (InferenceX, 1k/8k), within 10% of either end.
  const double tokens_per_s = r.output_tokens_per_s.in(units::tokens_per_s);
  CHECK(tokens_per_s > 0.9 * 196.81);
  CHECK(tokens_per_s < 1.1 * 8 * 45.0);
}

TEST_CASE("Prefill-heavy MoE serving: the experts at the engines' grouped-kernel rates",
          "[serving][accuracy][2026][moe]") {
  // GPUStack performance lab, `vllm bench serve --dataset-name random` with all prompts sent at
  // once (500 prompts of 2000 / 100 and 4000 / 200 tokens, 100 of 32000 / 100): total tokens/s
  // (prompt + output) of the deployment, each run's "Total Token throughput (tok/s)". Steps
  // carry 8192 prompt tokens (vLLM's default max_num_batched_tokens), so the expert GEMMs set
  // the pace: 256 tokens per expert and step for all three models. Before the grouped-kernel
  // figures (specs/kernel_efficiency.hpp grouped_moe) the model ran the experts as one dense
  // GEMM at cuBLAS's MAMF: gpt-oss-120b +179%, DeepSeek-R1 +121% at 2000 / 100.
  // The engine's max_num_seqs is 1024: vLLM's default for `vllm serve` on a GPU of 70 GiB or
  // more other than the A100 (vllm/engine/arg_utils.py, vllm-project/vllm PR #17073, 2025-04,
  // and PR #17885, 2025-05, before v0.10.2 and v0.11.0), not the 256 of older releases. The
  // profile run samples that many rows of vocabulary-sized logits, which leaves less memory to
  // the KV cache, and every run here is KV-bound: at 256 rows the model held 74 / 38 / 5
  // gpt-oss-120b and 132 / 66 / 8 Qwen3-235B sequences and read them 62% / 38% / 27% and 36% /
  // 6.0% / 9.6% fast (issue 24); at 1024 it holds 46 / 23 / 3 and 115 / 57 / 7.
  struct run {
    const char* name;
    int in, out, prompts;
    double measured;  // total tok/s
  };
  auto total = [](serving_plan p, const run& r) {
    p.mix = request_mix::fixed(r.in, r.out);
    p.concurrency = r.prompts;
    return serve(p).requests_per_s.value * (r.in + r.out);
  };
  auto plan = [](const transformer_spec& m, const gpu_spec& g, const node_spec& n, int tp) {
    return serving_plan{.model = m,
                        .node = n,
                        .layout = {.tp = tp},
                        .config = checkpoint_weights(m, {.max_model_len = 32768,
                                                         .max_num_seqs = 1024}),
                        .compute_dtype = checkpoint_compute_dtype(m, g)};
  };
  SECTION("DeepSeek-R1-0528 on 8 H200, vLLM v0.11.0 TP 8, fp8 blocks (performance-lab/deepseek-r1/h200)") {
    // the experts through the Triton fused_moe at fp8 (moe_8bit: 210 TFLOP/s on an H100, from
    // Qwen3-30B-A3B's kernel benchmark), the tile's padding rows masked out of its loads
    // (moe_row_factor). Tolerance 15% (the fp8 figure is per-tensor scaled; DeepSeek's weights
    // carry 128 x 128 block scales). The 32000 / 100 run (one 8192-token chunk after another) is
    // checked here; the 2000 / 100 and 4000 / 200 runs of the same page are 17-19% fast and are
    // checked in the next case, which may fail (docs/validation.md).
    const serving_plan p = plan(cat::deepseek_r1, cat::h200_sxm, cat::hgx_h200, 8);
    const run r{"32000/100", 32000, 100, 100, 15514.57};
    const double e = err(total(p, r), r.measured);
    WARN("DeepSeek-R1 8xH200 " << r.name << ": total tok/s " << 100 * e << "%");
    CHECK(std::fabs(e) < 0.15);
  }
  SECTION("Qwen3-235B-A22B (bf16) on 8 H100, vLLM v0.11.0 TP 8 (performance-lab/qwen3-235b-a22b/h100)") {
    // Used to derive nothing: bf16 experts (moe_16bit, from Mixtral's kernel benchmark), 128
    // experts of 1536 split 8 ways. Tolerance 15% at 4000 / 200 and 32000 / 100 (-2.6% and
    // +5.0%). At 2000 / 100 the model is 29% fast (23,858.69 measured; +36% at 256 sequences,
    // +39% before the grouped-kernel figures): a residual DeepSeek shares (next case), bounded
    // at 35%.
    const serving_plan p = plan(cat::qwen3_235b_a22b, cat::h100_sxm, cat::dgx_h100, 8);
    for (const run& r : {run{"4000/200", 4000, 200, 500, 21113.53},
                         run{"32000/100", 32000, 100, 100, 22657.51}}) {
      const double e = err(total(p, r), r.measured);
      WARN("Qwen3-235B-A22B 8xH100 " << r.name << ": total tok/s " << 100 * e << "%");
      CHECK(std::fabs(e) < 0.15);
    }
    const double e = err(total(p, {"2000/100", 2000, 100, 500, 23858.69}), 23858.69);
    WARN("Qwen3-235B-A22B 8xH100 2000/100: total tok/s " << 100 * e << "%");
    CHECK(e > 0.0);
    CHECK(e < 0.35);
  }
  SECTION("gpt-oss-120b on 1 H100, vLLM v0.10.2, MXFP4 experts (performance-lab/gpt-oss-120b/h100)") {
    // W4A16 experts at Marlin MoE's measured rate (moe_dequant: 254 TFLOP/s in a 2026 SGLang
    // server, sgl-project/sglang PR #38884; before the grouped-kernel figures 2.8x at 2000 /
    // 100). One H100 leaves gpt-oss a small KV cache, so the runs are the most KV-bound here:
    // +6.8%, -8.6% and -13.8% with vLLM's 1024 sampled rows, +62%, +38% and +27% with 256 (the
    // bracket (0, +70%) this case held before issue 24). Tolerance 15%.
    const serving_plan p = plan(cat::gpt_oss_120b, cat::h100_sxm, single_gpu_node(cat::h100_sxm), 1);
    for (const run& r : {run{"2000/100", 2000, 100, 500, 14385.69},
                         run{"4000/200", 4000, 200, 500, 14247.47},
                         run{"32000/100", 32000, 100, 100, 16136.57}}) {
      const double e = err(total(p, r), r.measured);
      WARN("gpt-oss-120b 1xH100 " << r.name << ": total tok/s " << 100 * e << "%");
      CHECK(std::fabs(e) < 0.15);
    }
  }
}

TEST_CASE("Prefill-heavy DeepSeek-R1 on 8 H200 at 2000 / 100 and 4000 / 200: a known residual",
          "[serving][accuracy][2026][moe]") {
  // GPUStack performance lab (performance-lab/deepseek-r1/h200, vLLM v0.11.0 TP 8), total
  // tok/s 17,690.89 at 2000 / 100 and 15,808.55 at 4000 / 200, 500 prompts sent at once,
  // max_num_seqs 1024 (previous case). The model is +18.2% and +18.2% (+17.0% and +18.6% at 256
  // sequences; before the grouped-kernel figures +121%), over the 15% the other prefill-heavy
  // runs meet. Branch h-moe met it (+7.4%) by charging every expert's padding rows
  // at the grouped kernel's rate, which made serving throughput a sawtooth in the concurrency
  // (the property test failed); with the padding masked, as the kernels load it, the residual
  // shows. Qwen3-235B's 2000 / 100 run shares it (+29% against -2.6% and +5.0% at 4000 / 200
  // and 32000 / 100); DeepSeek's 32000 / 100 run, with the fewest decode sequences per step, is
  // +3.9% (checked above). Not explained yet: the larger max_num_seqs moves DeepSeek's KV cache
  // little (294 / 147 sequences against 256 / 152), and a step-by-step replay of the burst
  // (docs/validation.md) takes only 4-6 points off. Also untested: vLLM v0.11.0 ran DeepSeek's block-fp8 MoE on DeepGEMM at TP 8
  // (vllm-project/vllm PR #29346 switched TP 8 back to the Triton kernel as the faster), a
  // kernel and shape (N 256 per rank) no figure here measures. Held to the residual as the other
  // models' 2000 / 100 runs are (their brackets above): not below -15% (the other runs'
  // tolerance) and not above +25% (the residual, +18% and +18%, with room for the MoE padding
  // figures' spread; it fails if the grouped kernels' figures are lost again: +121% and +99%).
  const transformer_spec& m = cat::deepseek_r1;
  serving_plan p{.model = m,
                 .node = cat::hgx_h200,
                 .layout = {.tp = 8},
                 .config = checkpoint_weights(m, {.max_model_len = 32768, .max_num_seqs = 1024}),
                 .compute_dtype = checkpoint_compute_dtype(m, cat::h200_sxm)};
  for (const auto& [in, out, measured] : {std::tuple{2000, 100, 17690.89},
                                          std::tuple{4000, 200, 15808.55}}) {
    p.mix = request_mix::fixed(in, out);
    p.concurrency = 500;
    const double e = err(serve(p).requests_per_s.value * (in + out), measured);
    WARN("DeepSeek-R1 8xH200 " << in << "/" << out << ": total tok/s " << 100 * e << "%");
    CHECK(e > -0.15);
    CHECK(e < 0.25);
  }
}

TEST_CASE("Gemma 2 27B: the sliding-window layers' smaller cache admits more sequences",
          "[serving][accuracy][2026][window]") {
  // vLLM PR #11938 (V1 hybrid allocator), on an H100: `benchmark_throughput.py --model
  // google/gemma-2-27b-it --input-len 6144 --output-len 1024 --num-prompts 50`: 177.14 output
  // tokens/s with windowed layers holding only their window, 153.87 on main, where every layer
  // held the whole context: a gain of 15.1%. The run is KV-bound (a few sequences fit beside
  // 54 GB of weights), so the gain is the windowed layers' memory. Tolerance 5% on the gain.
  // The same setup's control, Llama 3.1 8B, gave 1515.62 tokens/s: the absolute figures of
  // that early V1 engine are a third below the model's for both, so the ratio of the two
  // models is checked (25%).
  auto run = [](const transformer_spec& m) {
    const serving_plan p{.model = m,
                         .node = single_gpu_node(cat::h100_sxm),
                         .mix = request_mix::fixed(6144, 1024),
                         .concurrency = 50};
    return serve(p).output_tokens_per_s.in(units::tokens_per_s);
  };
  transformer_spec all_global = cat::gemma2_27b;
  all_global.global_every = 1;  // every layer caches the whole context
  const double hybrid = run(cat::gemma2_27b), full = run(all_global);
  WARN("Gemma 2 27B windows: gain " << 100 * (hybrid / full - 1) << "% vs 15.1%");
  CHECK(hybrid / full == Approx(177.14 / 153.87).epsilon(0.05));
  const double ratio = hybrid / run(cat::llama31_8b);
  WARN("Gemma 2 27B / Llama 3.1 8B: " << ratio << " vs " << 177.14 / 1515.62);
  CHECK(std::fabs(err(ratio, 177.14 / 1515.62)) < 0.25);
}

TEST_CASE("Speculative decoding with DeepSeek-V3's MTP module", "[serving][speculative][2026]") {
  // DeepSeek-V3 technical report (arXiv:2412.19437) Sec. 5.4.3: "the acceptance rate of the
  // second token prediction ranges between 85% and 90% ... enables DeepSeek-V3 to achieve a
  // significantly improved decoding speed, delivering 1.8 times TPS (Tokens Per Second)". The
  // conditions are not given beyond DeepSeek's deployment, which decodes large batches per GPU
  // (Sec. 3.4.2). The gain depends on the batch: the verified second token touches more
  // experts, and the draft adds one layer and the head; on 8 H200 the model gives 1.73x at
  // concurrency 1, 1.64x at 64 and 1.34x at 256 (acceptance 0.85: at 256 the verified tokens
  // make the experts compute-bound at vLLM's fp8 fused_moe rate, kernels.moe_8bit; DeepSeek's
  // own deployment runs DeepGEMM). At a large batch (64 sequences per replica) the ratio of
  // output tokens per second with one draft token at acceptance 0.85 to 0.90 is checked
  // against 1.8 (10%), and never above 1 + a.
  auto run = [](speculative_decoding s) {
    const transformer_spec& m = cat::deepseek_v3;
    serving_plan p{.model = m,
                   .node = cat::hgx_h200,
                   .layout = {.tp = 8},
                   .config = checkpoint_weights(m, {}),
                   .compute_dtype = checkpoint_compute_dtype(m, cat::h200_sxm),
                   .mix = request_mix::fixed(1024, 1024),
                   .concurrency = 64,
                   .speculation = s};
    return serve(p);
  };
  const serving_point base = run({});
  for (double a : {0.85, 0.90}) {
    const serving_point r = run({.draft_tokens = 1, .acceptance = a});
    const double ratio = r.output_tokens_per_s.value / base.output_tokens_per_s.value;
    WARN("DeepSeek-V3 MTP, acceptance " << a << ": " << ratio << "x tokens/s vs 1.8x");
    CHECK(ratio == Approx(1.8).epsilon(0.10));
    CHECK(ratio < 1.0 + a);
    // a step yields 1 + a tokens per sequence; TPOT is the step over them, and a request's
    // output tokens come that far apart (its end-to-end latency was once summed over steps)
    CHECK(r.tpot.value == Approx(r.step.total().value / (1.0 + a)).epsilon(1e-9));
    CHECK(r.e2e.value == Approx(r.ttft.value + 1023.0 * r.tpot.value).epsilon(1e-9));
  }
  // more draft tokens: 1 + a + a^2 + a^3 per step at acceptance a
  CHECK(speculative_decoding{.draft_tokens = 3, .acceptance = 0.5}.tokens_per_step() == 1.875);
  // The MTP module's weights are held on each GPU for drafting: 13,463,426,304 parameters, of
  // which its own embedding and head (2 x 129,280 x 7,168) in bf16 and the rest in fp8 with
  // block scales, split over tp 8.
  const inference_config c = checkpoint_weights(cat::deepseek_v3, {});
  inference_config cd = c;
  cd.draft_modules = 1;
  const double extra = (inference_weights(cat::deepseek_v3, {.tp = 8}, cd) -
                        inference_weights(cat::deepseek_v3, {.tp = 8}, c))
                           .in(units::B);
  const double head = 2.0 * 129280 * 7168;
  CHECK(extra == Approx(((13463426304.0 - head) * (1.0 + 4.0 / 16384) + 2.0 * head) / 8));
  // a model without MTP modules cannot draft with them
  serving_plan bad{.model = cat::llama31_8b,
                   .node = single_gpu_node(cat::h100_sxm),
                   .speculation = {.draft_tokens = 1, .acceptance = 0.8}};
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("needs a model with multi-token-prediction"));
}

namespace {
/// Llama 3.1 70B over TP 8 on the catalog's 8-L40S PCIe server, 1024 in / 128 out, 8 at once.
serving_plan l40s_70b_tp8() {
  return {.model = cat::llama31_70b,
          .node = cat::pcie_8x_l40s,
          .layout = {.tp = 8},
          .mix = request_mix::fixed(1024, 128),
          .concurrency = 8};
}
}  // namespace

TEST_CASE("TP 8 over an L40S server's PCIe: NCCL's protocols, not the NVLink ramp",
          "[serving][pcie]") {
  // Issue 25: the all-reduces of TP 8 on eight L40S (PCIe Gen4, no NVLink) were timed with the
  // ramp fitted on an NVSwitch A100 node, ~0.48 ms for a decode step's 128 KiB; NCCL runs LL
  // there at tens of microseconds (models/collectives.hpp pcie_protocols). No published vLLM
  // TTFT on 8 L40S was found to test against; this checks the mechanism and prints the change
  // (docs/validation.md).
  serving_plan p = l40s_70b_tp8();
  serving_plan ramp = p;
  ramp.assumptions.collectives.pcie_protocols = false;
  const serving_point now = serve(p), before = serve(ramp);
  WARN("Llama 3.1 70B, TP 8 on 8 L40S, 1024 in / 128 out, 8 at once: TTFT "
       << now.ttft.in(units::ms) << " ms (ramp: " << before.ttft.in(units::ms) << "), TPOT "
       << now.tpot.in(units::ms) << " ms (ramp: " << before.tpot.in(units::ms) << ")");
  CHECK(now.ttft < before.ttft);
  CHECK(now.tpot < before.tpot);
  // a decode step of 8 sequences: 80 layers x 2 all-reduces of 8 x 8192 x 2 B = 128 KiB each
  const serving_step d = forward_step(p, {.decode_sequences = 8, .decode_context = 1024});
  const serving_step r = forward_step(ramp, {.decode_sequences = 8, .decode_context = 1024});
  CHECK(d.communication.in(units::ms) < 160 * 0.05);  // under 50 us per all-reduce
  CHECK(r.communication.in(units::ms) > 160 * 0.40);  // the ramp's ~0.48 ms each
}

TEST_CASE("TP 8 over an L40S server's two CPU sockets: the socket link slows its all-reduces",
          "[serving][pcie]") {
  // Issue 25: the catalog's PCIe-8xL40S is a 2-socket server (NVIDIA's 2-8-5-200 reference),
  // its GPUs 4 + 4. TP 8's rings cross the socket link (network_assumptions::
  // socket_link_per_flow, 22 GB/s) where one island's PCIe hop gives 24.9 GB/s; TP 4 stays in
  // one socket and keeps its time. No published serving run on such a server was found; this
  // checks the mechanism and prints the change (docs/validation.md).
  serving_plan p = l40s_70b_tp8();
  REQUIRE(p.node.pcie_islands == 2);
  serving_plan one = p;
  one.node.pcie_islands = 1;
  const serving_point two_sockets = serve(p), one_socket = serve(one);
  WARN("Llama 3.1 70B, TP 8 on 8 L40S, 1024 in / 128 out, 8 at once: TTFT "
       << two_sockets.ttft.in(units::ms) << " ms on 2 sockets (" << one_socket.ttft.in(units::ms)
       << " on 1), TPOT " << two_sockets.tpot.in(units::ms) << " ms ("
       << one_socket.tpot.in(units::ms) << ")");
  CHECK(two_sockets.ttft > one_socket.ttft);
  CHECK(two_sockets.tpot >= one_socket.tpot);
  // prefill's all-reduces are bandwidth-bound: their time grows by at most 24.9 / 22
  const step_work prefill{.prefill_tokens = 8192, .prefill_keys = 4096, .prefill_sequences = 8};
  const serving_step a = forward_step(p, prefill), b = forward_step(one, prefill);
  CHECK(a.communication > b.communication);
  CHECK(a.communication.value < b.communication.value * (0.79 * 31.5 / 22.0) * 1.0001);
  // TP 4 inside one socket: the same time on either node
  serving_plan four = p, four_one = one;
  four.layout.tp = four_one.layout.tp = 4;
  CHECK(serve(four).ttft.value == serve(four_one).ttft.value);
}

TEST_CASE("EP 8 over an L40S server's two CPU sockets: the dispatch crosses the socket link",
          "[serving][pcie][moe]") {
  // Mixtral 8x7B, TP 8 with EP 8 and the all-to-all dispatch on the 4 + 4 L40S server: 16 of the
  // 56 GPU pairs sit on different sockets and share the socket link (NCCL's SRP_QPI_BW,
  // 22 GB/s), so a bandwidth-bound all-to-all takes S / 11 GB/s where each GPU's PCIe link
  // alone allows 7/8 S / 24.9 GB/s: 2.59x (models/collectives.hpp all_to_all_node_seconds).
  // No published EP serving run on such a server was found; this checks the mechanism.
  serving_plan p{.model = cat::mixtral_8x7b,
                 .node = cat::pcie_8x_l40s,
                 .layout = {.tp = 8, .ep = 8},
                 .mix = request_mix::fixed(1024, 128),
                 .concurrency = 8};
  p.assumptions.moe_all_to_all = true;
  REQUIRE(p.node.pcie_islands == 2);
  serving_plan one = p;
  one.node.pcie_islands = 1;
  const double tokens = 8192;  // a prefill step: bandwidth-bound all-to-alls
  const double two_sockets = detail::dispatch_combine_time(p, tokens, true).value;
  const double one_socket = detail::dispatch_combine_time(one, tokens, true).value;
  INFO("dispatch + combine of 8192 tokens: " << two_sockets * 1e3 << " ms on 2 sockets, "
                                              << one_socket * 1e3 << " ms on 1");
  CHECK(two_sockets / one_socket > 2.4);
  CHECK(two_sockets / one_socket < 0.79 * 31.5 / (7.0 / 8) / 11.0 * 1.0001);
  const serving_point a = serve(p), b = serve(one);
  CHECK(a.ttft > b.ttft);
  CHECK(a.tpot >= b.tpot);
  // Without the all-to-all (EP's tokens reach the experts by the TP all-reduce) the socket
  // link enters only through the rings, as before.
  serving_plan reduce = p, reduce_one = one;
  reduce.assumptions.moe_all_to_all = reduce_one.assumptions.moe_all_to_all = false;
  CHECK(detail::dispatch_combine_time(reduce, tokens, true).value == Approx(two_sockets));
  CHECK((serve(p).ttft - serve(reduce).ttft).value >
        (serve(one).ttft - serve(reduce_one).ttft).value);
}
