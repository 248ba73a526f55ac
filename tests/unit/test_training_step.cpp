// Step time against published iteration times. Every reference number carries its source and
// the tolerance it is held to.
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/power_limit.hpp>
#include <gpuplan/models/training_step.hpp>

#include "../catch.hpp"
#include "../published_runs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace gpuplan;

namespace {

/// Korthikanti et al. 2022 (arXiv:2205.05198), Tables 3 and 5: GPT models on Selene (DGX A100
/// 80GB, 8x HDR 200 Gb/s), s = 2048, V = 51200, TP 8, no data parallelism, fp16, interleaved
/// schedule with 3 model chunks for 175B and 530B. Iteration times in seconds with full
/// recomputation (no sequence parallelism) and with sequence parallelism + selective recompute.
struct kor_case {
  const transformer_spec* model;
  int pp, gpus, global_batch, micro_batch, chunks;
  double full_s, selective_s;
};
const kor_case kor_table5[] = {
    {&catalog::megatron_22b, 1, 8, 4, 4, 1, 1.42, 1.10},
    {&catalog::megatron_175b, 8, 64, 64, 1, 3, 18.13, 13.75},
    {&catalog::megatron_530b, 35, 280, 280, 1, 3, 49.05, 37.83},
    {&catalog::megatron_1t, 64, 512, 512, 1, 1, 94.42, 71.49},
};

training_plan kor_plan(const kor_case& k, bool selective) {
  training_plan p;
  p.model = *k.model;
  p.node = catalog::dgx_a100;
  p.layout = {.dp = 1, .tp = 8, .pp = k.pp, .sequence_parallel = selective,
              .virtual_stages = k.chunks};
  p.config.dtype = precision::fp16;
  p.config.grad_dtype = precision::fp32;  // Megatron accumulates gradients in fp32
  p.config.micro_batch = k.micro_batch;
  p.config.seq = 2048;
  p.config.global_batch = k.global_batch;
  p.config.flash_attention = false;  // 2022 Megatron: fused softmax, no flash attention
  p.config.dropout = true;
  p.config.recompute = selective ? recompute_mode::selective : recompute_mode::full;
  return p;
}

}  // namespace

TEST_CASE("Korthikanti et al. 2022 Table 5: 8 iteration times, mean error <= 3.65%, max <= 8.87%") {
  // Goal from Calculon (Isaev et al. SC23), which reports 3.65% mean and 8.87% max on this table.
  double sum = 0.0, worst = 0.0;
  int n = 0;
  for (const kor_case& k : kor_table5) {
    for (bool sel : {false, true}) {
      const step_breakdown b = estimate_step(kor_plan(k, sel));
      const double want = sel ? k.selective_s : k.full_s;
      const double err = std::abs(b.total.in(units::s) / want - 1.0);
      INFO(k.model->name.view() << (sel ? " selective+SP" : " full") << ": " << b.total.in(units::s)
                                << " s, published " << want << " s");
      CHECK(b.total.in(units::s) == Approx(want).epsilon(0.0887));
      CHECK(b.gpus == k.gpus);
      sum += err;
      worst = err > worst ? err : worst;
      ++n;
    }
  }
  INFO("mean " << sum / n << " max " << worst);
  CHECK(sum / n <= 0.0365);
  CHECK(worst <= 0.0887);
}

TEST_CASE("Korthikanti Table 5: MFU of the selective runs within 4 points") {
  // Published MFU (same table): 22B 41.5%, 175B 51.4%, 530B 56.0%, 1T 56.3%.
  const double mfu[] = {0.415, 0.514, 0.560, 0.563};
  for (int i = 0; i < 4; ++i) {
    const step_breakdown b = estimate_step(kor_plan(kor_table5[i], true));
    INFO(kor_table5[i].model->name.view() << " MFU " << b.mfu);
    CHECK(std::abs(b.mfu - mfu[i]) < 0.04);
    CHECK(b.hfu > b.mfu);
  }
}

TEST_CASE("Korthikanti: 530B on 2240 GPUs with 8-way data parallelism") {
  // Korthikanti et al. 2022 Sec. 6.3: 530B, TP 8, PP 35, DP 8 (2240 GPUs), global batch 2240:
  // 39.15 s per iteration, MFU 54.2%. Tolerance 8%.
  training_plan p = kor_plan(kor_table5[2], true);
  p.layout.dp = 8;
  p.config.global_batch = 2240;
  const step_breakdown b = estimate_step(p);
  CHECK(b.gpus == 2240);
  CHECK(b.dp_crosses_nodes);
  CHECK(b.total.in(units::s) == Approx(39.15).epsilon(0.08));
  CHECK(std::abs(b.mfu - 0.542) < 0.05);
}

TEST_CASE("breakdown parts add up to the total and name the largest") {
  const step_breakdown b = estimate_step(kor_plan(kor_table5[1], true));
  const duration sum = b.compute + b.memory_bound + b.tensor_parallel + b.context_parallel +
                       b.expert_parallel + b.bubble + b.pipeline_p2p + b.data_parallel +
                       b.optimizer + b.offload + b.data_loading;
  CHECK(sum.in(units::s) == Approx(b.total.in(units::s)).epsilon(1e-9));
  CHECK(b.bottleneck == step_bottleneck::compute);
  CHECK(b.micro_batches == 64);
  CHECK(b.tokens_per_s.in(units::tokens_per_s) ==
        Approx(64.0 * 2048 / b.total.in(units::s)));
  CHECK(b.samples_per_s == Approx(64.0 / b.total.in(units::s)));
  // the model FLOPs are Korthikanti Eq. 7: 72 B s L h^2 (1 + s/6h + V/12hL)
  const double B = 64, s = 2048, L = 96, h = 12288, V = 51200;
  CHECK(b.model_flops.in(units::FLOP) ==
        Approx(72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * h * L))).epsilon(1e-6));
}

TEST_CASE("mechanisms move the time the right way") {
  const training_plan base = kor_plan(kor_table5[1], true);
  const double t0 = step_time(base).in(units::s);
  SECTION("fewer micro-batches: a bigger bubble share") {
    training_plan p = base;
    p.config.global_batch = 8;
    const step_breakdown b = estimate_step(p);
    const step_breakdown b0 = estimate_step(base);
    CHECK(b.bubble / b.total > 3 * (b0.bubble / b0.total));
  }
  SECTION("interleaving shrinks the bubble") {
    training_plan p = base;
    p.layout.virtual_stages = 1;
    CHECK(estimate_step(p).bubble > estimate_step(base).bubble);
  }
  SECTION("TP 16 spills out of the node and pays for it") {
    training_plan p = base;
    p.layout.tp = 16;
    p.layout.pp = 4;
    p.layout.virtual_stages = 1;
    const step_breakdown b = estimate_step(p);
    CHECK(b.tp_crosses_nodes);
    CHECK(b.tensor_parallel > 2 * estimate_step(base).tensor_parallel);
  }
  SECTION("a faster GPU is faster") {
    training_plan p = base;
    p.node = catalog::dgx_h100;
    p.config.dtype = precision::bf16;
    CHECK(step_time(p).in(units::s) < 0.6 * t0);
  }
  SECTION("fp8 GEMMs: faster than bf16, well short of the 2x peak ratio") {
    training_plan p = base;
    p.node = catalog::dgx_h100;
    p.config.dtype = precision::bf16;
    const double bf16 = step_time(p).in(units::s);
    p.config.dtype = precision::fp8;
    const double fp8 = step_time(p).in(units::s);
    CHECK(fp8 < bf16);
    CHECK(fp8 > 0.5 * bf16);
  }
  SECTION("full recompute costs more than selective") {
    training_plan p = base;
    p.config.recompute = recompute_mode::full;
    CHECK(step_time(p).in(units::s) > 1.2 * t0);
  }
  SECTION("slow storage becomes the bottleneck") {
    training_plan p = base;
    p.assumptions.storage_read = 1.0 * units::kBps;
    const step_breakdown b = estimate_step(p);
    CHECK(b.bottleneck == step_bottleneck::data_loading);
  }
  SECTION("CPU offload pays PCIe and the CPU step") {
    training_plan p = base;
    p.config.offload = offload_kind::optimizer;
    const step_breakdown b = estimate_step(p);
    CHECK(b.offload.in(units::s) > 0.0);
    CHECK(b.optimizer.in(units::s) == 0.0);
  }
}

TEST_CASE("ZeRO-3 and data parallelism on a small model") {
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  p.layout = {.dp = 16, .zero = 3};
  p.config.micro_batch = 1;
  p.config.seq = 8192;
  p.config.global_batch = 64;
  const step_breakdown z3 = estimate_step(p);
  CHECK(z3.nodes == 2);
  CHECK(z3.dp_crosses_nodes);
  CHECK(z3.mfu > 0.2);
  CHECK(z3.mfu < 0.75);
  // long sequences: the per-micro-batch gathers hide behind compute; short ones do not, and
  // ZeRO-3 then exposes more than ZeRO-1's one gradient reduction per step
  p.config.seq = 512;
  const step_breakdown z3s = estimate_step(p);
  p.layout.zero = 1;
  const step_breakdown z1s = estimate_step(p);
  CHECK(z3s.data_parallel > 2 * z1s.data_parallel);
  CHECK(z3s.bottleneck == step_bottleneck::data_parallel);
  // without the distributed optimizer every rank runs the whole optimizer step
  p.layout.zero = 0;
  CHECK(estimate_step(p).optimizer > 10 * z1s.optimizer);
}

TEST_CASE("time to train and GPU-hours") {
  const training_plan p = kor_plan(kor_table5[1], true);
  const step_breakdown b = estimate_step(p);
  const token_count budget = 300.0 * units::Btoken;
  const duration t = time_to_train(p, budget);
  const double steps = std::ceil(300e9 / (64.0 * 2048));
  CHECK(t.in(units::s) == Approx(steps * b.total.in(units::s)));
  CHECK(gpu_time_to_train(p, budget).in(units::h) == Approx(64 * t.in(units::h)));
  const budget_flops f = training_budget_flops(p, budget);
  CHECK(f.hardware > f.model);
  CHECK(f.six_nd.in(units::FLOP) == Approx(6 * catalog::megatron_175b.parameters() * 300e9));
}

TEST_CASE("time to train with a batch-size ramp-up (Megatron --rampup-batch-size)") {
  // kor_plan: dp 1, micro-batch 1, global batch 64, pp 8 (Korthikanti Table 5 row 2). Ramp from
  // 16 by 16 over 4,800 sequences: three levels (16, 32, 48) of 1,600 sequences each.
  training_plan p = kor_plan(kor_table5[1], true);
  const duration steady = time_to_train(p, 300.0 * units::Btoken);
  p.config.rampup_start = 16;
  p.config.rampup_increment = 16;
  p.config.rampup_samples = 4800;
  // the step itself is the global batch's
  CHECK(estimate_step(p).total == estimate_step(kor_plan(kor_table5[1], true)).total);
  // Megatron switches levels at 1600, 3200 and 4800 sequences consumed: 100 steps of 16, 50 of
  // 32, then 34 of 48 (to 4832: the last step crosses the boundary)
  const double seq = p.config.seq;
  double expected = 0.0, left = 300e9 / seq;
  for (auto [batch, steps] : {std::pair{16, 100}, {32, 50}, {48, 34}}) {
    training_plan q = kor_plan(kor_table5[1], true);
    q.config.global_batch = batch;
    expected += steps * estimate_step(q).total.in(units::s);
    left -= steps * batch;
  }
  CHECK(left == 300e9 / seq - 4832);
  expected += std::ceil(left / 64) * estimate_step(kor_plan(kor_table5[1], true)).total.in(units::s);
  const duration ramped = time_to_train(p, 300.0 * units::Btoken);
  CHECK(ramped.in(units::s) == Approx(expected).epsilon(1e-12));
  // smaller batches fill the 8-stage pipeline less: the ramp costs time
  CHECK(ramped > steady);
  // a budget inside the ramp: only its first level
  training_plan q = kor_plan(kor_table5[1], true);
  q.config.global_batch = 16;
  CHECK(time_to_train(p, 800 * seq * units::token).in(units::s) ==
        Approx(50 * estimate_step(q).total.in(units::s)));
  // bad ramps name the field
  training_plan bad = p;
  bad.config.rampup_increment = 20;  // does not divide 64 - 16
  CHECK_THROWS_WITH(estimate_step(bad), Catch::Matchers::Contains("rampup_increment"));
  bad = p;
  bad.config.rampup_start = 64;
  CHECK_THROWS_WITH(estimate_step(bad), Catch::Matchers::Contains("rampup_start"));
  bad = p;
  bad.config.rampup_samples = 0;
  CHECK_THROWS_WITH(estimate_step(bad), Catch::Matchers::Contains("rampup_samples"));
  bad = p;
  bad.layout.dp = 2;  // 16 is still a multiple of 2, 64 too; now make the start not one
  bad.config.rampup_start = 8;
  bad.config.rampup_increment = 8;
  bad.config.micro_batch = 16;
  bad.config.global_batch = 64;
  CHECK_THROWS_WITH(estimate_step(bad), Catch::Matchers::Contains("multiples of micro_batch"));
}

TEST_CASE("gradient accumulation: the memory pass each micro-batch costs") {
  // One GPU, no pipeline: the difference between DeepSpeed's BF16_Optimizer accumulation and
  // Megatron's fused one is one pass of 2 + 4 + 8 + 4 = 18 bytes per parameter per micro-batch
  // (read bf16 gradient, write its fp32 copy, read it and the accumulator, write the accumulator)
  // at the modelled HBM rate.
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  p.layout = {.dp = 1, .zero = 0};
  p.config.micro_batch = 1;
  p.config.seq = 2048;
  p.config.global_batch = 4;
  p.assumptions.grad_accumulation = grad_accumulation_kind::fused;
  const step_breakdown fused = estimate_step(p);
  CHECK(estimate_step([&] {
          training_plan a = p;
          a.assumptions.grad_accumulation = grad_accumulation_kind::automatic;
          return a;
        }()).total == fused.total);  // Megatron: fused by default
  p.assumptions.grad_accumulation = grad_accumulation_kind::deepspeed_bf16;
  const step_breakdown ds = estimate_step(p);
  const double hbm = hbm_fraction(catalog::h100_sxm, p.assumptions.memory_bandwidth_fraction) *
                     catalog::h100_sxm.memory_bandwidth.in(units::GBps) * 1e9;
  const double params = catalog::llama31_8b.parameters() - catalog::llama31_8b.norm_parameters();
  CHECK((ds.total - fused.total).in(units::s) == Approx(4 * params * 18 / hbm).epsilon(1e-3));
  CHECK((ds.memory_bound - fused.memory_bound).in(units::s) ==
        Approx((ds.total - fused.total).in(units::s)));
  // autograd (transformers' Trainer): 3 x gradient bytes for each micro-batch after the first;
  // with one micro-batch there is nothing to sum
  p.assumptions.grad_accumulation = grad_accumulation_kind::autograd;
  const step_breakdown ag = estimate_step(p);
  CHECK((ag.total - fused.total).in(units::s) == Approx(3 * params * 3 * 2 / hbm).epsilon(1e-3));
  p.config.global_batch = 1;
  const step_breakdown one = estimate_step(p);
  p.assumptions.grad_accumulation = grad_accumulation_kind::fused;
  CHECK(estimate_step(p).total == one.total);
}

TEST_CASE("time to train: a token budget past 2^53 steps, or a step with no tokens, is refused") {
  // 1e30 tokens at 131,072 tokens a step is 7.6e24 steps: counted in a long long, the conversion
  // overflowed (undefined) and came back as a negative time that met any deadline
  const training_plan p = kor_plan(kor_table5[1], true);
  const step_breakdown b = estimate_step(p);
  CHECK_THROWS_WITH(time_to_train(b, 1e30 * units::token), Catch::Matchers::Contains("tokens"));
  CHECK_THROWS_AS(time_to_train(p, 1e308 * units::token), invalid_input);
  CHECK(time_to_train(b, 1e20 * units::token).value > 0.0);  // 7.6e14 steps: still counted
  CHECK_THROWS_WITH(time_to_train(step_breakdown{}, 1e9 * units::token),
                    Catch::Matchers::Contains("tokens_per_step"));
}

TEST_CASE("bad plans are refused, naming the field") {
  {
    // micro_batch x dp x micro-batches past int's range: refused, not an overflowed int
    training_plan big = kor_plan(kor_table5[1], true);
    big.config.global_batch = 0;
    big.config.micro_batch = 65536;
    big.config.micro_batches = 65536;
    CHECK_THROWS_WITH(plan_global_batch(big), Catch::Matchers::Contains("2^31 sequences"));
  }
  training_plan p = kor_plan(kor_table5[1], true);
  p.config.global_batch = 63;  // not a multiple of micro_batch x dp... with dp 2
  p.layout.dp = 2;
  CHECK_THROWS_AS(estimate_step(p), invalid_input);
  p = kor_plan(kor_table5[1], true);
  p.nodes = 2;  // 64 GPUs on 16 GPUs
  CHECK_THROWS_AS(estimate_step(p), invalid_input);
  p = kor_plan(kor_table5[1], true);
  p.nodes = 2147483647;  // x 8 GPUs wrapped int negative ("must hold" with -8); now refused
  CHECK_THROWS_WITH(estimate_step(p), Catch::Matchers::Contains("at most 2^24 GPUs"));
  p = kor_plan(kor_table5[1], true);
  p.layout.cp = 3;  // 2048 not a multiple of 3
  CHECK_THROWS_AS(estimate_step(p), invalid_input);
}

// ---- published measurements beyond the calibration table ---------------------------------------

namespace {

/// A 2021 Megatron-LM run on Selene: fp16, fp32 gradients, full recomputation, no sequence
/// parallelism, no flash attention, dropout, gradient all-reduce after the backward pass (the
/// overlap came to Megatron-LM later), V = 51200, s = 2048, micro-batch 1, 1F1B.
training_plan narayanan_plan(const transformer_spec& m, int tp, int pp, int gpus, int batch) {
  training_plan p;
  p.model = m;
  p.node = catalog::dgx_a100;
  p.layout = {.dp = gpus / (tp * pp), .tp = tp, .pp = pp};
  p.config.dtype = precision::fp16;
  p.config.grad_dtype = precision::fp32;
  p.config.micro_batch = 1;
  p.config.seq = 2048;
  p.config.global_batch = batch;
  p.config.flash_attention = false;
  p.config.dropout = true;
  p.config.recompute = recompute_mode::full;
  p.assumptions.overlap_grad_reduce = false;
  return p;
}

/// Narayanan's "achieved teraFLOP/s per GPU": Eq. 3 FLOPs (with the recomputed forward) per
/// second per GPU, which is gpuplan's hardware FLOPs under full recomputation.
double achieved_tflops(const step_breakdown& b) {
  return b.hardware_flops.in(units::TFLOP) / b.total.in(units::s) / b.gpus;
}

/// One published throughput and gpuplan's figure for it (same unit: TFLOP/s or tokens/s per GPU).
struct published_row {
  std::string name;
  double published = 0.0, got = 0.0;
  [[nodiscard]] double error() const { return got / published - 1.0; }
};

/// arXiv:2104.04473 Table 1 (Selene, DGX A100 80GB), TFLOP/s per GPU. Rows with pipeline
/// parallelism; the rows without it (1.7B-18.4B) are left out because their micro-batch size is
/// not published and their tensor-parallel all-reduces depend on it
/// (docs/models/training-time.md).
std::vector<published_row> narayanan_table1() {
  const struct {
    int layers, hidden, heads, tp, pp, gpus, batch;
    double tflops;
  } rows[] = {{48, 8192, 64, 8, 2, 512, 1536, 138},     {60, 10240, 80, 8, 4, 1024, 1792, 140},
              {80, 12288, 96, 8, 8, 1536, 2304, 148},   {96, 16384, 128, 8, 16, 1920, 2160, 155},
              {105, 20480, 128, 8, 35, 2520, 2520, 163}, {128, 25600, 160, 8, 64, 3072, 3072, 163}};
  std::vector<published_row> out;
  for (const auto& r : rows) {
    const transformer_spec m = catalog::gpt_decoder("gpt", r.layers, r.hidden, r.heads, 51200, 2048);
    out.push_back({"Narayanan T1 " + std::to_string(r.layers) + "x" + std::to_string(r.hidden) +
                       ", " + std::to_string(r.gpus) + " GPUs",
                   r.tflops,
                   achieved_tflops(estimate_step(narayanan_plan(m, r.tp, r.pp, r.gpus, r.batch)))});
  }
  return out;
}

/// arXiv:2104.04473 Table 2, PTD rows, TFLOP/s per GPU: 175B (TP 8 x PP 12, batch 1536) on
/// 384 / 768 / 1536 GPUs: 153 / 149 / 141; 530B (TP 8 x PP 35, batch 2240) on 560 / 1120 /
/// 2240 GPUs: 171 / 167 / 159. Micro-batch 1.
std::vector<published_row> narayanan_table2_ptd() {
  const struct {
    const transformer_spec* m;
    int pp, batch, gpus[3];
    double tflops[3];
  } rows[] = {{&catalog::megatron_175b, 12, 1536, {384, 768, 1536}, {153, 149, 141}},
              {&catalog::megatron_530b, 35, 2240, {560, 1120, 2240}, {171, 167, 159}}};
  std::vector<published_row> out;
  for (const auto& r : rows)
    for (int i = 0; i < 3; ++i)
      out.push_back({"Narayanan T2 PTD " + std::string(r.m->name.view()) + ", " +
                         std::to_string(r.gpus[i]) + " GPUs",
                     r.tflops[i],
                     achieved_tflops(estimate_step(narayanan_plan(*r.m, 8, r.pp, r.gpus[i], r.batch)))});
  return out;
}

/// Llama 3 paper (arXiv:2407.21783) Table 4, BF16 on H100 (Meta's Grand Teton, 8 x 400 Gb/s
/// RoCE per node), TP 8, PP 16, 16M tokens per batch, TFLOP/s per GPU:
///   8,192 GPUs,  CP 1,  seq 8,192:   430 (43% MFU)
///   16,384 GPUs, CP 1,  seq 8,192:   400 (41%)
///   16,384 GPUs, CP 16, seq 131,072: 380 (38%)
/// Sec. 3.3.2: interleaved 1F1B with one layer fewer on the first and last stages, FSDP
/// sharding optimizer states and gradients (ZeRO-2), all-gather context parallelism,
/// micro-batch 1. Not published: the number of interleaved chunks; assumed 4 (two layers per
/// chunk). The FLOP convention is taken as causal attention.
std::vector<published_row> llama3_rows() {
  const struct {
    int gpus, cp, seq;
    double tflops;
  } rows[] = {{8192, 1, 8192, 430}, {16384, 1, 8192, 400}, {16384, 16, 131072, 380}};
  std::vector<published_row> out;
  for (const auto& r : rows) {
    training_plan p;
    p.model = catalog::llama31_405b;
    p.node = catalog::dgx_h100;
    p.fabric = inter_node_fabric::roce;
    p.layout = {.dp = r.gpus / (8 * 16 * r.cp), .tp = 8, .pp = 16, .cp = r.cp, .zero = 2,
                .sequence_parallel = true, .virtual_stages = 4};
    p.config.micro_batch = 1;
    p.config.seq = r.seq;
    p.config.global_batch = 16 * 1024 * 1024 / r.seq;
    p.layout.first_stage_layers = 7;
    p.layout.last_stage_layers = 7;
    p.assumptions.cp_kind = context_parallel_kind::all_gather;
    p.assumptions.mfu_attention = attention_mask::causal;
    const step_breakdown b = estimate_step(p);
    out.push_back({"Llama 3 405B, " + std::to_string(r.gpus) + " GPUs, CP " + std::to_string(r.cp),
                   r.tflops, b.model_flops.in(units::TFLOP) / b.total.in(units::s) / b.gpus});
  }
  return out;
}

/// arXiv:2104.04473 Table 2, ZeRO-3 without model parallelism (DeepSpeed, Selene), one
/// micro-batch per GPU per step, TFLOP/s per GPU:
///   175B, batch 1536, on 384 / 768 / 1536 GPUs (micro-batch 4 / 2 / 1): 144 / 88 / 44
///   530B on 640 GPUs (batch 2560, micro-batch 4), 1120 / 2240 (batch 2240, 2 / 1): 138 / 98 / 48
/// The DeepSpeed of the time (v0.3.x, commit 112ebff, April 2021) gathered parameter by
/// parameter, called torch.cuda.synchronize() before each gather (no overlap) and went through
/// torch.distributed's list API (one copy per rank); those three documented behaviours are the
/// plan's settings, nothing else differs from the PTD rows.
training_plan zero3_2021_plan(const transformer_spec& m, int gpus, int batch, int micro_batch) {
  training_plan p = narayanan_plan(m, 1, 1, gpus, batch);
  p.layout.zero = 3;
  p.config.micro_batch = micro_batch;
  p.assumptions.zero3_per_tensor = true;
  p.assumptions.zero3_overlap = 0.0;
  p.assumptions.zero3_list_copies = true;
  return p;
}
struct zero3_case {
  const transformer_spec* m;
  int gpus, batch, micro_batch;
  double tflops;
  int ptd_pp, ptd_gpus;  ///< the PTD row it is compared with
};
const zero3_case zero3_table2[] = {{&catalog::megatron_175b, 384, 1536, 4, 144, 12, 384},
                                   {&catalog::megatron_175b, 768, 1536, 2, 88, 12, 768},
                                   {&catalog::megatron_175b, 1536, 1536, 1, 44, 12, 1536},
                                   {&catalog::megatron_530b, 640, 2560, 4, 138, 35, 560},
                                   {&catalog::megatron_530b, 1120, 2240, 2, 98, 35, 1120},
                                   {&catalog::megatron_530b, 2240, 2240, 1, 48, 35, 2240}};
std::vector<published_row> zero3_rows() {
  std::vector<published_row> out;
  for (const zero3_case& r : zero3_table2)
    out.push_back({"Narayanan T2 ZeRO-3 " + std::string(r.m->name.view()) + ", " +
                       std::to_string(r.gpus) + " GPUs",
                   r.tflops,
                   achieved_tflops(estimate_step(zero3_2021_plan(*r.m, r.gpus, r.batch, r.micro_batch)))});
  return out;
}


/// OPT-175B (Zhang et al. 2022, arXiv:2205.01068, Sec. 2.4 and Table 1): 992 A100 80GB
/// (Azure, 8 x HDR 200 Gb/s per node), Megatron tensor parallelism with fully sharded data
/// parallelism (FairScale FSDP), fp16 weights, "up to 147 TFLOP/s per GPU"; 96 layers x 12288,
/// 2048-token sequences, 2M-token batches. Not published, and assumed: TP 8 (so DP 124),
/// micro-batch 8 with no accumulation (124 x 8 = 992 sequences = 2.03M tokens), activation
/// checkpointing, one-layer FSDP wrapping, and the FLOP count without recomputation (model
/// FLOPs: gpuplan -6%; counted with the recomputed forward it would read +25%).
training_plan opt_plan() {
  transformer_spec opt = catalog::gpt_decoder("opt-175b", 96, 12288, 96, 50272, 2048);
  opt.tied_embeddings = true;
  training_plan q;
  q.model = opt;
  q.node = catalog::dgx_a100;
  q.layout = {.dp = 124, .tp = 8, .zero = 3};
  q.config.dtype = precision::fp16;
  q.config.grad_dtype = precision::fp16;
  q.config.micro_batch = 8;
  q.config.seq = 2048;
  q.config.global_batch = 992;
  q.config.flash_attention = false;
  q.config.dropout = true;
  q.config.recompute = recompute_mode::full;
  q.assumptions.zero3_gather_elements = opt.layer_parameters(0) / 8;
  q.assumptions.zero3_reduce_elements = opt.layer_parameters(0) / 8;
  return q;
}

/// NVIDIA Megatron-Bridge performance summary, NeMo 25.11 container, "System: DGX-H100", FP8-CS
/// (NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md), tokens/s per GPU:
///   LLAMA3_70B,    64 GPUs, GBS 128, MBS 1, seq 8192, TP 4, PP 8, VP 5, DDP:        1602
///   LLAMA3.1_405B, 1024 GPUs, GBS 512, MBS 1, seq 8192, TP 8, PP 8, CP 2, VP 8, DDP: 292
///   LLAMA3_8B,     8 GPUs, GBS 128, MBS 1, seq 8192, FSDP:                           14451
/// Megatron-Core with Transformer Engine fp8 GEMMs, sequence parallelism with TP, the
/// distributed optimizer. Not in the table, and assumed: no recomputation, gpuplan's default
/// tp_overlap = 0 (with full TP overlap the 70B and 405B rows read +15% and +19%), and for 405B's
/// 126 layers the embedding and the loss counted as a layer each in the pipeline split
/// (Megatron-Bridge's account_for_embedding/loss_in_pipeline_split): 15 layers on the first and
/// last stages, 16 on the others.
std::vector<published_row> nemo_h100_rows() {
  training_plan p70;
  p70.model = catalog::llama31_70b;
  p70.node = catalog::dgx_h100;
  p70.layout = {.dp = 2, .tp = 4, .pp = 8, .zero = 1, .sequence_parallel = true, .virtual_stages = 5};
  p70.config.dtype = precision::fp8;
  p70.config.micro_batch = 1;
  p70.config.seq = 8192;
  p70.config.global_batch = 128;
  // NeMo's GPTConfig: cross_entropy_loss_fusion = True (nemo/collections/llm/gpt/model/base.py)
  p70.assumptions.cross_entropy_fusion = true;
  training_plan p405 = p70;
  p405.model = catalog::llama31_405b;
  p405.layout = {.dp = 8, .tp = 8, .pp = 8, .cp = 2, .zero = 1, .sequence_parallel = true,
                 .virtual_stages = 8};
  p405.config.global_batch = 512;
  p405.layout.first_stage_layers = 15;
  p405.layout.last_stage_layers = 15;
  training_plan p8 = p70;
  p8.model = catalog::llama31_8b;
  p8.layout = {.dp = 8, .zero = 3};
  p8.config.framework = framework_kind::megatron;
  auto per_gpu = [](const training_plan& p) {
    const step_breakdown b = estimate_step(p);
    return b.tokens_per_s.in(units::tokens_per_s) / b.gpus;
  };
  return {{"NeMo 25.11 Llama 3 70B fp8, 64 H100 (tokens/s per GPU)", 1602, per_gpu(p70)},
          {"NeMo 25.11 Llama 3.1 405B fp8, 1024 H100", 292, per_gpu(p405)},
          {"NeMo 25.11 Llama 3 8B fp8 FSDP, 8 H100", 14451, per_gpu(p8)}};
}

std::vector<published_row> bloom_opt_rows() {
  const step_breakdown b = estimate_step(test::bloom_plan());
  const step_breakdown o = estimate_step(opt_plan());
  return {{"BLOOM 176B, 384 GPUs (tokens/s per GPU)", 2048.0 * 2048.0 / 104.70 / 384.0,
           b.tokens_per_s.in(units::tokens_per_s) / b.gpus},
          {"OPT-175B, 992 GPUs (model TFLOP/s)", 147.0,
           o.model_flops.in(units::TFLOP) / o.total.in(units::s) / o.gpus}};
}

}  // namespace

TEST_CASE("Narayanan et al. 2021 Table 1: weak scaling with pipeline parallelism, within 8%") {
  double sum = 0.0;
  for (const published_row& r : narayanan_table1()) {
    INFO(r.name << ": " << r.got << " TFLOP/s per GPU, published " << r.published);
    CHECK(r.got == Approx(r.published).epsilon(0.08));
    sum += std::abs(r.error());
  }
  CHECK(sum / 6 < 0.05);
}

TEST_CASE("Narayanan et al. 2021 Table 2: PTD parallelism strong scaling, and its ranking") {
  // Tolerance 8% per row; the per-GPU throughput must fall as GPUs are added, as published.
  const std::vector<published_row> rows = narayanan_table2_ptd();
  REQUIRE(rows.size() == 6);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO(rows[i].name << ": " << rows[i].got << ", published " << rows[i].published);
    CHECK(rows[i].got == Approx(rows[i].published).epsilon(0.08));
    if (i % 3 != 0) CHECK(rows[i].got < rows[i - 1].got);
  }
}

TEST_CASE("Llama 3 405B on 8k and 16k H100s: TFLOP/s per GPU and the ranking of layouts") {
  // Tolerance 10% per row; ranking reproduced: 8k > 16k > 16k with CP 16 at 128k.
  const std::vector<published_row> rows = llama3_rows();
  REQUIRE(rows.size() == 3);
  for (const published_row& r : rows) {
    INFO(r.name << ": " << r.got << " TFLOP/s, published " << r.published);
    CHECK(r.got == Approx(r.published).epsilon(0.10));
  }
  CHECK(rows[0].got > rows[1].got);
  CHECK(rows[1].got > rows[2].got);
}

TEST_CASE("eager PyTorch (Hugging Face) on one H100: measured step times, within 15%") {
  // Measured by the project on one H100 SXM 80GB (driver 580.159, CUDA 13.0, PyTorch 2.11,
  // transformers 5.17, SDPA flash attention, fused AdamW), median of 3 steps after 2 warm-ups:
  // Llama 3.2 1B bf16 (parameters, gradients, AdamW states in bf16) 8 x 2048: 0.343 s;
  // 4 x 8192 with gradient checkpointing: 0.947 s; the same model under autocast with fp32
  // parameters (amp) 8 x 2048: 0.379 s; Mistral 7B bf16 1 x 4096 with checkpointing: 0.632 s.
  // Small, launch-bound steps are predicted too fast (docs/models/training-time.md).
  const struct {
    const transformer_spec* m;
    int micro_batch, seq;
    bool checkpointing, amp;
    double seconds;
  } runs[] = {{&catalog::llama32_1b, 8, 2048, false, false, 0.343},
              {&catalog::llama32_1b, 4, 8192, true, false, 0.947},
              {&catalog::llama32_1b, 8, 2048, false, true, 0.379},
              {&catalog::mistral_7b, 1, 4096, true, false, 0.632}};
  for (const auto& r : runs) {
    training_plan p;
    p.model = *r.m;
    p.node = catalog::dgx_h100;
    p.config.framework = framework_kind::transformers;
    p.config.micro_batch = r.micro_batch;
    p.config.seq = r.seq;
    p.config.global_batch = r.micro_batch;
    p.config.recompute = r.checkpointing ? recompute_mode::full : recompute_mode::none;
    p.config.amp = r.amp;             // Trainer(bf16=True): fp32 parameters under autocast
    p.config.master_weights = r.amp;  // else pure bf16: parameters, gradients, states in bf16
    const step_breakdown b = estimate_step(p);
    INFO(r.m->name.view() << " " << r.micro_batch << " x " << r.seq << ": " << b.total.in(units::s));
    CHECK(b.total.in(units::s) == Approx(r.seconds).epsilon(0.15));
    // the same step under Megatron's fused kernels is faster
    p.config.framework = framework_kind::megatron;
    p.config.amp = false;  // Megatron's mixed precision: 16-bit weights, fp32 master copy
    CHECK(step_time(p) < b.total);
  }
}

TEST_CASE("LoRA under eager PyTorch + PEFT on one H100: measured step times, median within 15%") {
  // Measured by the project on one H100 SXM 80GB (driver 580.159, CUDA 13.0, PyTorch 2.11,
  // transformers 5.17, PEFT, SDPA flash attention, fused AdamW), median of 3 steps after 2
  // warm-ups: a bf16 base with PEFT LoRA rank 16 (alpha 32, no dropout) on q, k, v, o, gate, up
  // and down, the adapters in fp32, under autocast bf16. Llama 3.2 1B 8 x 2048: 0.395 s; 16 x
  // 2048 with gradient checkpointing: 1.047 s; Mistral 7B 4 x 2048: 0.785 s; 8 x 4096 with
  // checkpointing: 5.306 s. Held to the target, the median error within 15%, and every
  // run within 20%: the base model already reads the full fine-tuning runs of the same table
  // 5-7% fast, and the longest run (5.3 s of sustained load) most (docs/models/training-time.md).
  const struct {
    const transformer_spec* m;
    int micro_batch, seq;
    bool checkpointing;
    double seconds;
  } runs[] = {{&catalog::llama32_1b, 8, 2048, false, 0.395},
              {&catalog::llama32_1b, 16, 2048, true, 1.047},
              {&catalog::mistral_7b, 4, 2048, false, 0.785},
              {&catalog::mistral_7b, 8, 4096, true, 5.306}};
  std::vector<double> errors;
  for (const auto& r : runs) {
    training_plan p;
    p.model = *r.m;
    p.node = catalog::dgx_h100;
    p.config.framework = framework_kind::transformers;
    p.config.micro_batch = r.micro_batch;
    p.config.seq = r.seq;
    p.config.global_batch = r.micro_batch;
    p.config.recompute = r.checkpointing ? recompute_mode::full : recompute_mode::none;
    p.config.lora_rank = 16;
    p.config.lora_targets = lora_target::all_linear;
    const step_breakdown b = estimate_step(p);
    const double err = b.total.in(units::s) / r.seconds - 1.0;
    errors.push_back(std::fabs(err));
    INFO(r.m->name.view() << " " << r.micro_batch << " x " << r.seq << " ckpt "
                          << r.checkpointing << ": " << b.total.in(units::s) << " s against "
                          << r.seconds << " s, error " << 100.0 * err << "%");
    CHECK(std::fabs(err) < 0.20);
    // the frozen base trains no weights: no optimizer over it, far less than full fine-tuning's
    training_plan full = p;
    full.config.lora_rank = 0;
    CHECK(b.optimizer.in(units::s) < 0.05 * estimate_step(full).optimizer.in(units::s));
    // QLoRA adds the NF4 dequantisation of every base weight, forward and backward
    training_plan q = p;
    q.config.lora_rank = 0;
    q.config.qlora_rank = 16;
    CHECK(estimate_step(q).total > b.total);
    // Megatron's fused kernels and bf16 adapters run the same step faster
    p.config.framework = framework_kind::megatron;
    CHECK(step_time(p) < b.total);
  }
  std::sort(errors.begin(), errors.end());
  const double median = (errors[1] + errors[2]) / 2.0;
  INFO("median |error| " << 100.0 * median << "%");
  CHECK(median < 0.15);
}

TEST_CASE("torchtune's published A100 table: full, LoRA and QLoRA of Llama 3.2 3B within 10%") {
  // torchtune README, "Optimization flags" (pytorch/torchtune 1814feb17, 2024-11-18, "add flags to
  // readme" #2003): Llama 3.2 3B on one A100 (80 GB: the packed baseline peaks at 60.0 GiB), bf16
  // parameters (no fp32 master copy), batch 2, max sequence length 4096, packed alpaca,
  // torch.compile, chunked cross entropy, each technique added on the previous row's. Tokens per
  // second: "+ Activation Checkpointing" (full_finetune_single_device, AdamW) 7210; "LoRA" 8210 and
  // "QLoRA" 8035 (lora_finetune_single_device, configs llama3_2/3B_lora_single_device and
  // 3B_qlora_single_device: rank 64, alpha 128, no dropout, on q_proj, v_proj, output_proj and
  // the MLP; bf16 adapters, fused AdamW, activation checkpointing and offloading; the README's
  // command for the QLoRA row). Described as: transformers profile (eager PyTorch blocks, each
  // compiled) with compile, master_weights false, recompute full, bf16 adapters
  // (lora_adapters_fp32 false: torchtune builds the whole model, adapters included, in bf16 with
  // no autocast), all_linear targets (k_proj's rank-64 adapter, which torchtune's config leaves
  // out, counted too). QLoRA's dequantisation as torchao's (nf4_dequant_fused):
  // NF4Tensor.get_original_weight (torchao/dtypes/nf4tensor.py, v0.5.0 and v0.6.1) is pointwise
  // work and a 16-entry table lookup, which Inductor fuses inside the compiled block into one
  // kernel per matrix reading the stored weight (4 bits, an int8 scaler per 64 weights, a factor
  // per 256 scalers: double quantisation's layout) and writing bf16. Not modelled: activation
  // offloading (-0.11% in the same table) and torchtune's chunked output projection (+1.96%).
  // gpuplan reads 6826 / 7536 / 7456: -5.3%, -8.2%, -7.2%; held within 10% each.
  const struct {
    const char* row;
    int lora_rank, qlora_rank;
    double tokens_per_s;
  } rows[] = {{"full + checkpointing", 0, 0, 7210.0},
              {"LoRA", 64, 0, 8210.0},
              {"QLoRA", 0, 64, 8035.0}};
  double read[3] = {};
  for (int i = 0; i < 3; ++i) {
    training_plan p;
    p.model = catalog::llama32_3b;
    p.node = catalog::dgx_a100;  // A100 SXM 80GB
    p.config.framework = framework_kind::transformers;
    p.config.compile = true;
    p.config.master_weights = false;
    p.config.micro_batch = 2;
    p.config.seq = 4096;
    p.config.global_batch = 2;
    p.config.recompute = recompute_mode::full;
    p.config.lora_rank = rows[i].lora_rank;
    p.config.qlora_rank = rows[i].qlora_rank;
    p.assumptions.lora_adapters_fp32 = false;
    p.assumptions.nf4_dequant_fused = true;
    const double tokens_per_s = 2.0 * 4096.0 / estimate_step(p).total.in(units::s);
    read[i] = tokens_per_s;
    const double err = tokens_per_s / rows[i].tokens_per_s - 1.0;
    INFO(rows[i].row << ": " << tokens_per_s << " tokens/s against " << rows[i].tokens_per_s
                     << ", error " << 100.0 * err << "%");
    CHECK(std::fabs(err) < 0.10);
  }
  // the orders the table shows: LoRA (no base weight gradients) faster than the full
  // fine-tune, QLoRA (the dequantisation) a little slower than LoRA
  CHECK(read[1] > read[0]);
  CHECK(read[2] < read[1]);
  // torchao's fused kernel is quicker than bitsandbytes' dequantize_4bit with double
  // quantisation's two absmax kernels, and slower than no dequantisation
  training_plan q;
  q.model = catalog::llama32_3b;
  q.node = catalog::dgx_a100;
  q.config.framework = framework_kind::transformers;
  q.config.qlora_rank = 64;
  const duration bnb = estimate_step(q).total;
  q.assumptions.nf4_dequant_fused = true;
  const duration fused = estimate_step(q).total;
  CHECK(fused < bnb);
  q.config.qlora_rank = 0;
  q.config.lora_rank = 64;
  CHECK(estimate_step(q).total < fused);
}

TEST_CASE("LoRA: the mechanisms move the step the right way") {
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  p.config.framework = framework_kind::transformers;
  p.config.micro_batch = 2;
  p.config.seq = 2048;
  p.config.global_batch = 2;
  p.config.lora_rank = 16;
  const step_breakdown all = estimate_step(p);
  // fewer adapted matrices: fewer adapter kernels
  p.config.lora_targets = lora_target::attention_qv;
  const step_breakdown qv = estimate_step(p);
  CHECK(qv.total < all.total);
  // adapter dropout adds a kernel per adapter forward and backward
  p.config.lora_targets = lora_target::all_linear;
  p.assumptions.lora_dropout = true;
  CHECK(estimate_step(p).total > all.total);
  p.assumptions.lora_dropout = false;
  // adapters in bf16 skip PEFT's casts of each input to fp32 and back
  p.assumptions.lora_adapters_fp32 = false;
  CHECK(estimate_step(p).memory_bound < all.memory_bound);
  p.assumptions.lora_adapters_fp32 = true;
  // a higher rank: more adapter work
  p.config.lora_rank = 256;
  CHECK(estimate_step(p).compute > all.compute);
  // QLoRA without double quantisation: two fewer kernels per dequantisation
  p.config.lora_rank = 0;
  p.config.qlora_rank = 16;
  const step_breakdown ql = estimate_step(p);
  p.config.qlora_double_quant = false;
  CHECK(estimate_step(p).total < ql.total);
  // with data parallelism only the adapters' gradients are reduced: far less than a full model's
  p.config.qlora_double_quant = true;
  p.layout = {.dp = 8};
  p.config.seq = 256;
  p.config.global_batch = 8 * 2;
  p.config.qlora_rank = 0;
  p.config.lora_rank = 16;
  const step_breakdown lora_dp = estimate_step(p);
  p.config.lora_rank = 0;
  const step_breakdown full_dp = estimate_step(p);
  CHECK(lora_dp.data_parallel < full_dp.data_parallel);
  // and the frozen base runs no weight-gradient GEMMs: MFU counts its model FLOPs without them,
  // 4N per token instead of 6N plus the attention (NeMo's LoRA rows count 4N)
  CHECK(lora_dp.compute < full_dp.compute);
  // ZeRO-3 / FSDP still gathers the frozen base every micro-batch: exposed without overlap
  p.config.lora_rank = 16;
  p.layout = {.dp = 8, .zero = 3};
  p.assumptions.zero3_overlap = 0.0;
  CHECK(estimate_step(p).data_parallel > 10.0 * lora_dp.data_parallel);
  const double flops_ratio = lora_dp.model_flops.value / full_dp.model_flops.value;
  CHECK(flops_ratio > 0.66);
  CHECK(flops_ratio < 0.70);
}

namespace {
/// Mixtral 8x7B with EP 8 and ZeRO-1 on `node`: dp ranks, sequences of 4096, micro-batch 1.
training_plan mixtral_ep8(const node_spec& node, int dp, int global_batch) {
  training_plan p;
  p.model = catalog::mixtral_8x7b;
  p.node = node;
  p.layout = {.dp = dp, .ep = 8, .zero = 1};
  p.config.micro_batch = 1;
  p.config.seq = 4096;
  p.config.global_batch = global_batch;
  return p;
}
}  // namespace

TEST_CASE("MoE: the expert all-to-all is charged, and more when EP spans nodes") {
  // Mixtral 8x7B, EP 8 (expert-parallel ranks adjacent: expert_tp = 1): on 8-GPU DGX H100 nodes
  // the 8 ranks share a node; on 4-GPU nodes of the same GPUs and NICs they span two.
  training_plan p = mixtral_ep8(catalog::dgx_h100, 32, 256);
  const step_breakdown in_node = estimate_step(p);
  CHECK(in_node.expert_parallel.in(units::s) > 0.0);
  CHECK_FALSE(in_node.ep_crosses_nodes);
  p.node.gpus = 4;
  p.node.nics.count = 4;
  const step_breakdown across = estimate_step(p);
  CHECK(across.ep_crosses_nodes);
  CHECK(across.expert_parallel > 2 * in_node.expert_parallel);
  // without expert parallelism there is no all-to-all
  p.layout = {.dp = 32, .zero = 1};
  CHECK(estimate_step(p).expert_parallel.in(units::s) == 0.0);
}

TEST_CASE("Narayanan Table 2, ZeRO-3 rows (DeepSpeed 2021): TFLOP/s per GPU and the ranking") {
  // Against PTD's 153 / 149 / 141 (175B, 384 / 768 / 1536 GPUs) and 171 / 167 / 159 (530B,
  // 560 / 1120 / 2240). Tolerance 30% per row, mean within 16% (measured: 15.3%); PTD must beat
  // ZeRO-3 at every size, as published.
  const std::vector<published_row> rows = zero3_rows();
  double sum = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const zero3_case& z = zero3_table2[i];
    const step_breakdown b = estimate_step(zero3_2021_plan(*z.m, z.gpus, z.batch, z.micro_batch));
    const double ptd = achieved_tflops(estimate_step(
        narayanan_plan(*z.m, 8, z.ptd_pp, z.ptd_gpus, z.batch == 2560 ? 2240 : z.batch)));
    INFO(rows[i].name << ": " << rows[i].got << " TFLOP/s per GPU, published " << rows[i].published
                      << "; PTD " << ptd);
    CHECK(rows[i].got == Approx(rows[i].published).epsilon(0.30));
    CHECK(ptd > rows[i].got);
    CHECK(b.dp_crosses_nodes);
    if (z.micro_batch == 1) CHECK(b.bottleneck == step_bottleneck::data_parallel);
    sum += std::abs(rows[i].error());
  }
  INFO("mean error " << sum / 6);
  CHECK(sum / 6 < 0.16);
  // the same runs with prefetching, flat collectives and buckets (today's FSDP / DeepSpeed) hide
  // the gathers behind the 384-GPU run's compute: the 2021 software, not ZeRO-3, was the limit
  training_plan modern = narayanan_plan(catalog::megatron_175b, 1, 1, 384, 1536);
  modern.layout.zero = 3;
  modern.config.micro_batch = 4;
  CHECK(estimate_step(modern).data_parallel.in(units::s) == 0.0);
}

TEST_CASE("BLOOM 176B and OPT-175B: throughput per GPU of the published runs") {
  // BLOOM within 15% (measured +5.6%); OPT within 30% (its settings are partly assumed).
  const std::vector<published_row> rows = bloom_opt_rows();
  REQUIRE(rows.size() == 2);
  INFO(rows[0].name << ": " << rows[0].got << ", published " << rows[0].published);
  INFO(rows[1].name << ": " << rows[1].got << ", published " << rows[1].published);
  CHECK(rows[0].got == Approx(rows[0].published).epsilon(0.15));
  CHECK(rows[1].got == Approx(rows[1].published).epsilon(0.30));
  const step_breakdown b = estimate_step(test::bloom_plan());
  CHECK(b.gpus == 384);
  CHECK(achieved_tflops(b) == Approx(149.77).epsilon(0.15));
  CHECK(estimate_step(opt_plan()).gpus == 992);
}

TEST_CASE("NeMo 25.11 on DGX H100 (fp8): tokens/s per GPU of the published recipes") {
  // Tolerance 30% per row (measured -10%, -9%, +13%).
  for (const published_row& r : nemo_h100_rows()) {
    INFO(r.name << ": " << r.got << ", published " << r.published);
    CHECK(r.got == Approx(r.published).epsilon(0.30));
  }
}

TEST_CASE("published end-to-end runs beyond the calibration: mean error on throughput per GPU") {
  // Every row above that reports a throughput per GPU: Narayanan Table 1 (6) and Table 2 PTD (6)
  // and ZeRO-3 (6), Llama 3 (3), BLOOM, OPT, NeMo on H100 (3). Goal (issue 10): mean within 10%. The table is
  // printed by `gpuplan_test_training_step "published end-to-end*" -s` and copied into
  // docs/validation.md.
  std::vector<published_row> all;
  for (auto rows : {narayanan_table1(), narayanan_table2_ptd(), zero3_rows(), llama3_rows(),
                    bloom_opt_rows(), nemo_h100_rows()})
    all.insert(all.end(), rows.begin(), rows.end());
  double sum = 0.0, worst = 0.0;
  for (const published_row& r : all) {
    const double e = std::abs(r.error());
    sum += e;
    worst = e > worst ? e : worst;
    std::printf("| %s | %.1f | %.1f | %+.1f%% |\n", r.name.c_str(), r.published, r.got, 100.0 * r.error());
  }
  const double mean = sum / static_cast<double>(all.size());
  std::printf("rows %zu, mean %.1f%%, max %.1f%%\n", all.size(), 100.0 * mean, 100.0 * worst);
  CHECK(all.size() == 26);
  CHECK(mean < 0.10);
}

TEST_CASE("Narayanan et al. 2021 Figs. 12-15: gpuplan orders the layouts as the paper does") {
  // arXiv:2104.04473 Sec. 5.3-5.4 (Selene, DGX A100 80GB, 64 or 96 GPUs, 2021 Megatron-LM:
  // narayanan_plan's settings). Published conclusions, each asserted for every batch size the
  // figure shows:
  //  Fig. 13, 161B GPT (32 layers x 20480, 128 heads) on 64 GPUs, (t, p) from (2, 32) to
  //    (32, 2), batch 32 and 128: peak throughput at t = 8, the GPUs of one node.
  //  Fig. 14, 5.9B GPT (32 layers x 3840, 32 heads) on 64 GPUs, t = 1, (p, d) from (2, 32) to
  //    (32, 2), batch 32, 128, 512: throughput falls as the pipeline-parallel size grows.
  //  Fig. 15, the same model, p = 1, (t, d) from (2, 32) to (32, 2): throughput falls as the
  //    tensor-parallel size grows.
  //  Fig. 12, GPT-3 175B on 96 GPUs (t = 8, p = 12): the interleaved schedule beats 1F1B, by
  //    less as the batch grows.
  const transformer_spec m161 = catalog::gpt_decoder("gpt-161b", 32, 20480, 128, 51200, 2048);
  const transformer_spec m59 = catalog::gpt_decoder("gpt-5.9b", 32, 3840, 32, 51200, 2048);
  auto tflops = [](const transformer_spec& m, int t, int pp, int gpus, int batch, int chunks = 1) {
    training_plan p = narayanan_plan(m, t, pp, gpus, batch);
    p.layout.virtual_stages = chunks;
    return achieved_tflops(estimate_step(p));
  };
  for (int batch : {32, 128}) {
    const double at8 = tflops(m161, 8, 8, 64, batch);
    for (int t : {2, 4, 16, 32}) {
      INFO("Fig. 13, batch " << batch << ": t = " << t << " vs t = 8");
      CHECK(tflops(m161, t, 64 / t, 64, batch) < at8);
    }
  }
  for (int batch : {32, 128, 512}) {
    for (int k = 2; k < 32; k *= 2) {
      INFO("Figs. 14/15, batch " << batch << ": size " << k << " vs " << 2 * k);
      CHECK(tflops(m59, 1, 2 * k, 64, batch) < tflops(m59, 1, k, 64, batch));
      CHECK(tflops(m59, 2 * k, 1, 64, batch) < tflops(m59, k, 1, 64, batch));
    }
  }
  double prev_gain = 1e9;
  for (int batch : {12, 24, 36, 48, 60}) {
    const double plain = tflops(catalog::megatron_175b, 8, 12, 96, batch);
    const double interleaved = tflops(catalog::megatron_175b, 8, 12, 96, batch, 2);
    INFO("Fig. 12, batch " << batch << ": 1F1B " << plain << ", interleaved " << interleaved);
    CHECK(interleaved > plain);
    CHECK(interleaved / plain < prev_gain);
    prev_gain = interleaved / plain;
  }
}

TEST_CASE("MosaicML llm-foundry MPT benchmarks on H100 (FSDP, eager PyTorch): MFU, mean within 12%") {
  // mosaicml/llm-foundry scripts/train/benchmarking/README.md, "H100 80GB BF16": MPT models
  // (GeLU MLP 4h, LayerNorm, ALiBi, tied embeddings, vocabulary 50368) trained with Composer +
  // PyTorch FSDP FULL_SHARD, flash attention, amp_bf16, on 8-64 H100 80GB; MFU counts attention
  // over the full sequence (their formula, as gpuplan's default). Eager PyTorch is the matching
  // stack; FSDP gathers one layer at a time. Per-row tolerance 35%, mean 12% (largest: MPT-1B at
  // 8k sequences, +31%).
  const struct {
    int layers, hidden, heads, seq, gpus, micro_batch, grad_accum;
    bool checkpointing;
    double mfu_percent;
  } rows[] = {{24, 1536, 12, 2048, 8, 24, 2, false, 34.90}, {24, 2048, 16, 2048, 8, 14, 1, false, 41.82},
              {32, 2560, 20, 4096, 8, 5, 6, false, 42.31},  {32, 4096, 32, 2048, 8, 6, 1, false, 46.44},
              {40, 5120, 40, 2048, 8, 2, 1, false, 39.79},  {40, 5120, 40, 2048, 64, 2, 1, false, 39.86},
              {32, 4096, 32, 4096, 8, 16, 2, true, 40.42},  {32, 4096, 32, 8192, 8, 8, 2, true, 37.14},
              {48, 7168, 64, 2048, 8, 3, 21, true, 38.11},  {48, 7168, 64, 2048, 32, 14, 3, true, 43.92},
              {80, 8192, 64, 2048, 64, 8, 4, true, 42.57},  {40, 5120, 40, 4096, 8, 10, 3, true, 41.60},
              {24, 2048, 16, 8192, 8, 3, 4, false, 37.73}};
  double sum = 0.0;
  for (const auto& r : rows) {
    transformer_spec m = catalog::gpt_decoder("mpt", r.layers, r.hidden, r.heads, 50368, 2048);
    m.positions = position_kind::rotary;  // ALiBi: no position parameters
    m.qkv_bias = m.out_bias = m.mlp_bias = false;
    training_plan p;
    p.model = m;
    p.node = catalog::dgx_h100;
    p.layout = {.dp = r.gpus, .zero = 3};
    p.config.micro_batch = r.micro_batch;
    p.config.seq = r.seq;
    p.config.global_batch = r.micro_batch * r.grad_accum * r.gpus;
    p.config.recompute = r.checkpointing ? recompute_mode::full : recompute_mode::none;
    p.config.framework = framework_kind::transformers;
    p.config.amp = true;  // Composer's amp_bf16: fp32 parameters, compute under autocast
    p.assumptions.zero3_gather_elements = m.layer_parameters(0);
    p.assumptions.zero3_reduce_elements = m.layer_parameters(0);
    const double got = 100.0 * estimate_step(p).mfu;
    INFO("MPT " << r.layers << " x " << r.hidden << ", seq " << r.seq << ", " << r.gpus << " GPUs");
    CHECK(got == Approx(r.mfu_percent).epsilon(0.35));
    sum += std::abs(got / r.mfu_percent - 1.0);
  }
  CHECK(sum / 13 < 0.12);
}

TEST_CASE("transformers: the step model reads the precision regime the memory profile reads") {
  // Trainer(bf16=True) (amp) keeps fp32 parameters and gradients: DDP reduces 4-byte gradients,
  // twice the bytes of a 16-bit model with an fp32 master copy (the default regime). Both models
  // take the bytes from hf_regime_of (specs/training.hpp).
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  p.layout = {.dp = 16};
  p.config.framework = framework_kind::transformers;
  p.config.micro_batch = 1;
  p.config.seq = 256;  // short: the reduction is exposed, not hidden behind the backward pass
  p.config.global_batch = 16;
  const step_breakdown bf16 = estimate_step(p);
  p.config.amp = true;
  const step_breakdown amp = estimate_step(p);
  REQUIRE(bf16.data_parallel.in(units::s) > 0.0);
  CHECK(amp.data_parallel.in(units::s) > 1.8 * bf16.data_parallel.in(units::s));
  CHECK(detail::hf_regime_of(p.config).grad == 4.0);
  // and amp's autocast copies of the fp32 weights cost memory-bound time the default does not pay
  CHECK(amp.memory_bound > bf16.memory_bound);
}

TEST_CASE("out-of-range assumptions are refused, naming the field") {
  training_plan p = kor_plan(kor_table5[0], true);
  p.assumptions.sustained_fraction = 1.5;
  CHECK_THROWS_WITH(estimate_step(p), Catch::Matchers::Contains("sustained_fraction"));
  p = kor_plan(kor_table5[0], true);
  p.assumptions.storage_read = -1.0 * units::GBps;
  CHECK_THROWS_WITH(estimate_step(p), Catch::Matchers::Contains("storage_read"));
  p = kor_plan(kor_table5[0], true);
  p.assumptions.collectives.nvls_efficiency = 0.0;
  CHECK_THROWS_WITH(estimate_step(p), Catch::Matchers::Contains("nvls_efficiency"));
}

TEST_CASE("DeepSeek-V3 pre-training on 2048 H800: MLA, 256 experts, EP 64, fp8",
          "[step][published][2026]") {
  // DeepSeek-V3 Technical Report (arXiv:2412.19437): "each trillion tokens ... 180K H800 GPU
  // hours, i.e., 3.7 days on our cluster with 2048 H800 GPUs" (Sec. 1); 16-way pipeline, 64-way
  // expert parallelism spanning 8 nodes, ZeRO-1 data parallelism, no tensor parallelism (Sec.
  // 3.2); FP8 GEMMs (Sec. 3.3); sequences of 4K, batch 15,360 (Sec. 4.2); DualPipe overlapping
  // the all-to-all with computation (Sec. 3.2.1); recomputation of RMSNorm and the MLA
  // up-projections (taken here as selective recomputation). 180K GPU-hours per 1e12 tokens is
  // 1,543 tokens/s per GPU: a step of 15,360 x 4,096 tokens in 19.9 s.
  // Not modelled, so the model is slower: node-limited routing (each token to at most 4 nodes,
  // sent once per node over InfiniBand and forwarded over NVLink), fp8 dispatch. Tolerance 25%.
  training_plan p;
  p.model = catalog::deepseek_v3;
  p.node = catalog::hgx_h800;
  p.layout = {.dp = 128, .pp = 16, .ep = 64, .zero = 1};
  p.config.dtype = precision::fp8;
  p.config.recompute = recompute_mode::selective;
  p.config.micro_batch = 1;
  p.config.seq = 4096;
  p.config.global_batch = 15360;
  const double published = 15360.0 * 4096 / (1e12 / (180e3 * 3600.0) * 2048);
  const step_breakdown without = estimate_step(p);
  p.assumptions.ep_overlap = 1.0;  // DualPipe
  const step_breakdown with = estimate_step(p);
  WARN("DeepSeek-V3 2048 H800: step " << with.total.in(units::s) << " s with the all-to-all "
                                       "overlapped, "
                                       << without.total.in(units::s) << " s without, published "
                                       << published << " s");
  CHECK(with.total.in(units::s) == Approx(published).epsilon(0.25));
  CHECK(with.total < without.total);  // the overlap hides part of the expert all-to-all
}

// ---- torchtitan (framework_kind::torchtitan) ----------------------------------------------------

namespace {

/// The Grand Teton hosts of torchtitan's benchmarks (pytorch/torchtitan,
/// benchmarks/llama3_h100_202412_torchtitan.md, "Hardware"): 8 H100s "fully connected with
/// NVLink", each "96GB HBM2e with 2.4 TB/sec peak memory bandwidth", "400 Gb/s per GPU" RDMA, at
/// "the default 500W power limit" (models/power_limit.hpp). The GPU's math rates are the H100
/// SXM5's (the file's footnote 2: "the actual peak TFLOPs number is between SXM and NVL").
node_spec grand_teton_500w() {
  node_spec n = catalog::dgx_h100;
  n.name = "Grand-Teton-H100-96GB";
  n.gpu.memory = 96e9 * units::B;
  n.gpu.memory_usable = data_size{};
  n.gpu.memory_bandwidth = 2.4e12 * units::Bps;
  return power_limited(n, 500.0 * units::W);
}

/// A torchtitan run of those benchmark files: FSDP2 (ZeRO-3) over dp, TP with sequence
/// parallelism, seq 8192 (its llama3 train configs' seq_len), bf16 with FSDP2's fp32 gradient
/// reduction (mixed_precision_reduce = "float32", its default), AdamW, flash SDPA, one
/// micro-batch of `local_batch` sequences per step.
training_plan titan_plan(const transformer_spec& m, int dp, int tp, int local_batch, bool compile,
                         bool float8, recompute_mode rc, bool async_tp = false) {
  training_plan p;
  p.model = m;
  p.node = grand_teton_500w();
  p.layout = {.dp = dp, .tp = tp, .zero = 3, .sequence_parallel = tp > 1};
  p.config.framework = framework_kind::torchtitan;
  p.config.compile = compile;
  p.config.dtype = float8 ? precision::fp8 : precision::bf16;
  p.config.grad_dtype = precision::fp32;
  p.config.recompute = rc;
  p.config.micro_batch = local_batch;
  p.config.seq = 8192;
  p.config.global_batch = local_batch * dp;
  p.assumptions.async_tp = async_tp;
  return p;
}

double titan_tps_per_gpu(const training_plan& p) {
  return estimate_step(p).tokens_per_s.value / p.layout.gpus();
}

}  // namespace

TEST_CASE("torchtitan: Llama 3.1 8B FSDP on 8 and 128 H100s, eager, compiled, float8") {
  // benchmarks/llama3_h100_202412_torchtitan.md Tables 1 and 3 (torchtitan 9dec370): local
  // batch 2, op-level selective activation checkpointing (train_configs/llama3_8b.toml: mode
  // 'selective', selective_ac_option 'op'); TPS/GPU.
  // Tolerance: the model reads above every row (8 GPUs +5.5%, +9.3%, +9.9%; 128 GPUs +10.0%,
  // +13.7%, +14.2%): 0.15-0.21 s per step missing on 8 GPUs whatever compile and float8 change
  // (published 2.84 / 2.46 / 1.92 s per step against 2.69 / 2.25 / 1.75), 0.24-0.30 s on 128.
  // Counted: FlashAttention-2's slower backward (sdpa_flash2_backward_ratio, 0.05 s), FSDP2's
  // all-gather copy-out on the compute stream (0.03 s), the foreach AdamW and clipping passes
  // (0.04 s on 8 GPUs), FSDP2's root unit (exposed: 0.8% on 8 GPUs, 1.0% on 128), the eager fp32
  // loss (~40 ms). Before the first three the rows read +9.8% to +20.0%; with the attention at
  // step_assumptions::flash_attention_* (forward and backward) instead of FlashAttention-2's
  // sdpa_flash2_* they read +14% to +30%. The rest is a known residual
  // (docs/models/training-time.md): held to [0, +18%]. What compile and float8 change is held tighter below.
  struct row {
    int gpus;
    double eager, compiled, float8;  // TPS/GPU: FSDP, + torch.compile, + Float8
  };
  const row rows[] = {{8, 5762.0, 6667.0, 8532.0}, {128, 5605.0, 6514.0, 8380.0}};
  for (const row& r : rows) {
    const auto tps = [&](bool compile, bool float8) {
      return titan_tps_per_gpu(titan_plan(catalog::llama31_8b, r.gpus, 1, 2, compile, float8,
                                          recompute_mode::selective));
    };
    const double e = tps(false, false), c = tps(true, false), f = tps(true, true);
    INFO(r.gpus << " GPUs: eager " << e << " vs " << r.eager << ", compiled " << c << " vs "
                << r.compiled << ", float8 " << f << " vs " << r.float8);
    for (const auto& [model, published] :
         {std::pair{e, r.eager}, std::pair{c, r.compiled}, std::pair{f, r.float8}}) {
      CHECK(model >= published);
      CHECK(model <= 1.18 * published);
    }
    // torch.compile's speed-up (published 1.157 on 8 GPUs, 1.162 on 128; model 1.198, 1.202)
    // within 5%; torchao float8's over compile (published 1.280, 1.286; model 1.286, 1.292)
    // within 2%
    CHECK(std::abs((c / e) / (r.compiled / r.eager) - 1.0) <= 0.05);
    CHECK(std::abs((f / c) / (r.float8 / r.compiled) - 1.0) <= 0.02);
  }
  // The same residual on 64 GPUs with TP: benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md,
  // Llama 3 8B, FSDP 8 x TP 8, torch.compile, per op SAC, local batch 12, vanilla TP: bf16 4378,
  // float8 tensorwise 5078.1 TPS/GPU (model +17.9%, +15.1%; +27.7%, +26.0% before the op
  // policy's recomputed sequence-parallel all-gathers were counted); held to [0, +25%].
  for (const auto& [float8, published] : {std::pair{false, 4378.0}, std::pair{true, 5078.1}}) {
    const double tps = titan_tps_per_gpu(titan_plan(catalog::llama31_8b, 8, 8, 12, true, float8,
                                                    recompute_mode::selective));
    INFO("8B FSDP 8 x TP 8, float8 " << float8 << ": " << tps << " vs " << published);
    CHECK(tps >= published);
    CHECK(tps <= 1.25 * published);
  }
}

TEST_CASE("torchtitan: Llama 3.1 70B FSDP 32 x TP 8 with compile, bf16 and float8, async TP") {
  // 256 H100s (FSDP 32, TP 8), local batch 16, full activation checkpointing, torch.compile.
  // benchmarks/llama3_h100_202412_torchtitan.md Table 4 (float8): 2D 829, 2D + AsyncTP 876;
  // benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md: bf16 597.3 / 652.4, float8 tensorwise
  // 809.8 / 942.4 (vanilla / async TP) TPS/GPU.
  struct row {
    bool float8;
    double vanilla, async;
    const char* source;
  };
  const row rows[] = {{true, 829.0, 876.0, "2024-12 Table 4"},
                      {false, 597.3, 652.4, "2025-06 bf16"},
                      {true, 809.8, 942.4, "2025-06 float8 tensorwise"}};
  for (const row& r : rows) {
    const double v = titan_tps_per_gpu(
        titan_plan(catalog::llama31_70b, 32, 8, 16, true, r.float8, recompute_mode::full));
    const double a = titan_tps_per_gpu(
        titan_plan(catalog::llama31_70b, 32, 8, 16, true, r.float8, recompute_mode::full, true));
    INFO(r.source << ": vanilla TP " << v << " vs " << r.vanilla << ", async TP " << a << " vs "
                  << r.async);
    // vanilla TP (exposed TP collectives): -0.6%, +7.0%, +1.8%; within 10%
    CHECK(std::abs(v / r.vanilla - 1.0) <= 0.10);
    // async TP (step_assumptions::async_tp: the decomposed all-gather / reduce-scatter GEMMs,
    // copy-engine pulls, the unfused backward reduce-scatters): +7.8%, +12.0%, +0.2% (with every
    // TP collective hidden, tp_overlap = 1, they read +27.9%, +23.2%, +18.9%), the bf16 row on
    // top of vanilla's +7.0%; within 15%. The speed-up over vanilla (published 1.057, 1.092,
    // 1.164; model 1.146, 1.143, 1.146, +8.5%, +4.6%, -1.5%; hiding all read 1.36, 1.26, 1.36)
    // within 10%: the 2024-12 row ran December 2024's torch, before the two-stream schedule the
    // model times.
    CHECK(std::abs(a / r.async - 1.0) <= 0.15);
    CHECK(std::abs((a / v) / (r.async / r.vanilla) - 1.0) <= 0.10);
  }
}

namespace {

/// benchmarks/llama3_h100_202412_torchtitan.md Table 5's run: Llama 3.1 405B on 512 H100s,
/// FSDP 8 x TP 8 x PP 8, torch.compile, Float8, AsyncTP, full AC, local batch 32 (global 256).
/// torchtitan 9dec370: pipeline_parallel_microbatches unset -> the PP degree, 8 micro-batches
/// of 4 (parallelisms/pipelining_utils.py build_pipeline_schedule); no split points -> the
/// generated ones (generate_split_points): 126 layers over 8 stages, the first and last 15, the
/// others 16; over 16 stages for Interleaved1F1B (2 per rank), 7, fourteen of 8, 7: ranks 0 and
/// 7 again hold 15. train_configs/llama3_405b.toml: seq_len 8192, enable_fsdp_float8_all_gather.
training_plan titan_405b_3d(int virtual_stages) {
  training_plan p = titan_plan(catalog::llama31_405b, 8, 8, 4, true, true, recompute_mode::full,
                               true);
  p.layout.pp = 8;
  p.layout.virtual_stages = virtual_stages;
  p.layout.first_stage_layers = 15;
  p.layout.last_stage_layers = 15;
  p.config.global_batch = 256;
  p.assumptions.fsdp_float8_all_gather = true;
  return p;
}

}  // namespace

TEST_CASE("torchtitan: Llama 3.1 405B 3D (FSDP 8 x TP 8 x PP 8), 1F1B and interleaved 1F1B") {
  // benchmarks/llama3_h100_202412_torchtitan.md Table 5: 1F1B 100, Interleaved 1F1B 128 TPS/GPU.
  // Model: +11.1%, +13.2% (before FSDP2's pipeline behaviour was modelled, with ZeRO-3's
  // per-micro-batch gathers hidden and no end-of-step reduce-scatter: +13.8%, +15.4%); the
  // interleaved schedule's speed-up 1.304 against 1.28 (+1.9%).
  // [Known residual: the same +10-14% the 8B rows show (docs/models/training-time.md, "The
  // stacks"), not located.] Held within 15%, the speed-up within 5%.
  const double one = titan_tps_per_gpu(titan_405b_3d(1));
  const double interleaved = titan_tps_per_gpu(titan_405b_3d(2));
  INFO("1F1B " << one << " vs 100, interleaved " << interleaved << " vs 128");
  CHECK(std::abs(one / 100.0 - 1.0) <= 0.15);
  CHECK(std::abs(interleaved / 128.0 - 1.0) <= 0.15);
  CHECK(std::abs((interleaved / one) / (128.0 / 100.0) - 1.0) <= 0.05);
}

TEST_CASE("torchtitan: context parallelism, 8B FSDP x CP and 405B 4D (long-sequence residual)") {
  // benchmarks/llama3_h100_202412_torchtitan.md Table 2 (Llama 3.1 8B, 8 GPUs, FSDP x CP = 8,
  // compile, Float8, full AC, local batch 1) and Table 6 (405B on 512 GPUs, TP 8, PP 8 1F1B,
  // FSDP x CP = 8, compile, Float8, AsyncTP, full AC, local batch 8: 8 micro-batches of 1).
  // torchtitan 9dec370's context_parallel_rotate_method "allgather" (config_manager.py):
  // PyTorch's ring attention all-gathers K and V (_AllGatherRotater): cp_kind all_gather. FSDP
  // shards over dp x cp (its dp_shard_cp mesh), as layout.zero 3 with cp does.
  struct row {
    int cp, seq;
    double published;
    bool residual;  // [known residual] below
  };
  auto run_8b = [](const row& r) {
    training_plan p = titan_plan(catalog::llama31_8b, 8 / r.cp, 1, 1, true, true,
                                 recompute_mode::full);
    p.layout.cp = r.cp;
    p.config.seq = r.seq;
    p.assumptions.cp_kind = context_parallel_kind::all_gather;
    return titan_tps_per_gpu(p);
  };
  auto run_405b = [](const row& r) {
    training_plan p = titan_405b_3d(1);
    p.layout.dp = 8 / r.cp;
    p.layout.cp = r.cp;
    p.config.micro_batch = 1;
    p.config.seq = r.seq;
    p.config.global_batch = 8 * p.layout.dp;
    p.assumptions.cp_kind = context_parallel_kind::all_gather;
    return titan_tps_per_gpu(p);
  };
  // Model: 8B +12.0%, -0.1%, +32.0%, +36.7%; 405B +7.3%, +9.8%, +1.5%, +10.6%. PyTorch's ring
  // attention (detail::torch_ring_attention_comm and _bytes): K and V with the query heads
  // (torchtitan repeats the KV heads before SDPA), all-gathered in the forward, its rerun and
  // the backward, dK and dV passed on in fp32 at every step, all exposed under torch.compile
  // (a traced functional collective waits at once; Inductor does not reorder it by default),
  // and the fp32 merge and accumulators. The 405B's CP groups cross hosts (TP 8 fills one), so
  // its exchanges run over the 400 Gb/s NICs: before they were counted (GQA-sized K/V, an
  // all-gather and a reduce-scatter) the rows read +27.2%, +26.1%, +44.5%, the 8B rows +4.4%,
  // +39.0%, +44.8%.
  // [Known residual: the 8B at CP 4 and 8 (128k and 256k tokens, attention 87-93% of the step)
  // still read +32% and +37%; its CP group stays in one host, where the exchanges are short
  // (1.9 s of 43.7 at CP 8). Each ring call has the same shape at CP 2, 4 and 8 (a 32k-token
  // chunk against a 16k half), so neither the calls' lengths nor their count explains CP 4 and
  // 8 against CP 2's -0.1%: the mechanism is not located (docs/models/training-time.md, note
  // (5)).] The 8B CP 1 row is held as Table 1 ([0, +18%]); CP 2 in [-5%, +18%] (it reads
  // -0.1%: on the published figure, the 8B rows' common +10-14% not showing there); the 405B
  // rows within 15% as Table 5; the residual rows in [0, +40%].
  const row rows_8b[] = {{1, 32768, 3890.0, false},
                         {2, 65536, 2540.0, false},
                         {4, 131072, 1071.0, true},
                         {8, 262144, 548.0, true}};
  const row rows_405b[] = {{1, 32768, 76.0, false},
                           {2, 65536, 47.0, false},
                           {4, 131072, 31.0, false},
                           {8, 262144, 16.0, false}};
  auto check_row = [](const char* what, const row& r, double tps, bool either_way) {
    INFO(what << " CP " << r.cp << ": " << tps << " vs " << r.published);
    if (either_way) {
      CHECK(std::abs(tps / r.published - 1.0) <= 0.15);
      return;
    }
    CHECK(tps >= (r.cp == 2 ? 0.95 : 1.0) * r.published);
    CHECK(tps <= (r.residual ? 1.40 : 1.18) * r.published);
  };
  for (const row& r : rows_8b) check_row("8B", r, run_8b(r), false);
  for (const row& r : rows_405b) check_row("405B", r, run_405b(r), true);
}

TEST_CASE("torchtitan: PyTorch's ring attention, K/V at the query heads, exposed under compile") {
  // detail::torch_ring_attention_comm: torchtitan repeats the KV heads before SDPA, so the chunk
  // the ring moves has the query heads whatever the KV heads are; a traced collective waits at
  // once (compile), an eager one behind the next SDPA call. Llama 3.1 8B, FSDP 1 x CP 8, 256k.
  auto plan = [](bool compile, int kv_heads, framework_kind fw) {
    training_plan p = titan_plan(catalog::llama31_8b, 1, 1, 1, compile, true, recompute_mode::full);
    p.layout.cp = 8;
    p.config.seq = 262144;
    p.config.global_batch = 1;
    p.config.framework = fw;
    p.model.kv_heads = kv_heads;
    p.assumptions.cp_kind = context_parallel_kind::all_gather;
    return p;
  };
  auto cp_s = [](const training_plan& p) { return estimate_step(p).context_parallel.in(units::s); };
  const double gqa = cp_s(plan(true, 8, framework_kind::torchtitan));
  const double mha = cp_s(plan(true, 32, framework_kind::torchtitan));
  CHECK(gqa > 0.0);
  CHECK(gqa == Approx(mha).epsilon(1e-12));  // the query heads travel either way
  // Megatron's all-gather CP (Llama 3's) moves the KV heads: 4x more with 32 of them
  training_plan mg = plan(true, 8, framework_kind::megatron);
  mg.config.compile = false;
  training_plan mg_mha = mg;
  mg_mha.model.kv_heads = 32;
  CHECK(cp_s(mg_mha) > 3.0 * cp_s(mg));
  // eager: the exchanges wait behind the ring's SDPA calls, only the last dK/dV is exposed
  const double eager = cp_s(plan(false, 8, framework_kind::torchtitan));
  CHECK(eager > 0.0);
  CHECK(eager < 0.25 * gqa);
  // the merge and the fp32 accumulators are memory-bound time that grows with the ring's steps
  training_plan cp1 = plan(true, 8, framework_kind::torchtitan);
  cp1.layout.cp = 1;
  cp1.layout.dp = 8;
  cp1.config.seq = 32768;
  cp1.config.global_batch = 8;
  CHECK(estimate_step(plan(true, 8, framework_kind::torchtitan)).memory_bound >
        estimate_step(cp1).memory_bound * 2.0);
}

TEST_CASE("torchtitan: FSDP2 under PP gathers and reduces once a step; float8 all-gather") {
  // reshard_after_forward = False under PP and no gradient sync before the last backward: the
  // data-parallel time does not grow with the micro-batches (ZeRO-3 elsewhere gathers per
  // micro-batch)
  auto dp_time = [](training_plan p) { return estimate_step(p).data_parallel.in(units::s); };
  training_plan p = titan_405b_3d(1);
  p.config.dtype = precision::bf16;
  p.assumptions.fsdp_float8_all_gather = false;
  p.assumptions.zero3_overlap = 0.0;  // every collective exposed: gathers, copy-out, reduce
  training_plan twice = p;
  twice.config.global_batch = 512;  // 16 micro-batches
  CHECK(dp_time(twice) == Approx(dp_time(p)).epsilon(1e-12));
  training_plan mega = p;
  mega.config.framework = framework_kind::megatron;
  mega.config.compile = false;
  mega.assumptions.async_tp = false;
  training_plan mega_twice = mega;
  mega_twice.config.global_batch = 512;
  CHECK(dp_time(mega_twice) > 1.5 * dp_time(mega));
  // the copy-out once a step: the bytes of the stage's gathered parameters read and written,
  // the part of data_parallel that scales with the HBM bandwidth (bf16: 2 B each; the heaviest
  // stage's share of the layers, 126 / 8, and half the embedding and output, over TP 8)
  const transformer_spec& m = catalog::llama31_405b;
  const double root = m.embedding_parameters() + m.lm_head_parameters();
  const double layer = (m.parameters() - root - m.norm_parameters()) / m.layers;
  const double local = (m.layers / 8.0 * layer + root / 2.0) / 8.0;
  auto copy_out_of = [&](training_plan q) {
    training_plan half = q;
    half.assumptions.memory_bandwidth_fraction = 0.45;
    return dp_time(half) - dp_time(q);
  };
  const double hbm = 0.90 * 2.4e12;
  CHECK(copy_out_of(p) == Approx(2.0 * 2.0 * local / hbm).epsilon(1e-5));
  // float8 all-gather: the float8 linears' weights (every block parameter but the two norms)
  // move 1 byte, the root's and the norms' 2
  training_plan f8 = p;
  f8.config.dtype = precision::fp8;
  f8.assumptions.fsdp_float8_all_gather = true;
  const double norms = 2.0 * m.norm_parameters();
  const double blocks = local - root / 2.0 / 8.0;
  const double f8_bytes = blocks * (1.0 - norms / layer) * 1.0 + blocks * norms / layer * 2.0 +
                          root / 2.0 / 8.0 * 2.0;
  CHECK(copy_out_of(f8) == Approx(2.0 * f8_bytes / hbm).epsilon(1e-5));
  training_plan f8_off = f8;
  f8_off.assumptions.fsdp_float8_all_gather = false;
  CHECK(dp_time(f8) < dp_time(f8_off));
  // interleaved 1F1B: only the last chunk's reduce-scatter is exposed
  training_plan v2 = p;
  v2.layout.virtual_stages = 2;
  CHECK(dp_time(v2) < dp_time(p));
  // without PP, float8 all-gather shrinks FSDP2's per-block gathers too (Llama 3.1 8B, FSDP 128)
  training_plan flat = titan_plan(catalog::llama31_8b, 128, 1, 2, true, true,
                                  recompute_mode::selective);
  flat.assumptions.zero3_overlap = 0.0;
  training_plan flat_f8 = flat;
  flat_f8.assumptions.fsdp_float8_all_gather = true;
  CHECK(dp_time(flat_f8) < dp_time(flat));
  // it needs torchao's float8 linears: bf16 or another framework is refused naming the field
  training_plan bad = p;
  bad.assumptions.fsdp_float8_all_gather = true;
  CHECK_THROWS_WITH(estimate_step(bad), Catch::Contains("fsdp_float8_all_gather"));
}

TEST_CASE("torchtitan: async TP's two-stream schedule and where it applies") {
  using detail::async_tp_step;
  // GEMM-bound steps (a pull shorter than a chunk's GEMMs): the tp chunks back to back, the
  // pulls hidden; pull-bound: all-gather the local chunk then every pull with the last GEMM,
  // reduce-scatter every pull after the first GEMM, then nothing (the local chunk under the last)
  CHECK(detail::pipelined_all_gather_matmul(8, async_tp_step{1.0, 0.5}) == Approx(8.0));
  CHECK(detail::pipelined_all_gather_matmul(8, async_tp_step{1.0, 2.0}) == Approx(7.0 * 2.0 + 1.0));
  CHECK(detail::pipelined_matmul_reduce_scatter(8, async_tp_step{1.0, 0.5}) == Approx(8.0));
  CHECK(detail::pipelined_matmul_reduce_scatter(8, async_tp_step{1.0, 2.0}) ==
        Approx(1.0 + 7.0 * 2.0));
  CHECK(detail::pipelined_all_gather_matmul(2, async_tp_step{1.0, 0.0}) == Approx(2.0));
  // the 70B bf16 row: async TP between NCCL's exposed collectives and all of them hidden
  auto tps = [](training_plan p) { return titan_tps_per_gpu(p); };
  training_plan p = titan_plan(catalog::llama31_70b, 32, 8, 16, true, false, recompute_mode::full);
  const double vanilla = tps(p);
  p.assumptions.async_tp = true;
  const double async = tps(p);
  p.assumptions.async_tp = false;
  p.assumptions.tp_overlap = 1.0;
  const double hidden = tps(p);
  INFO("vanilla " << vanilla << ", async " << async << ", all hidden " << hidden);
  CHECK(async > vanilla);
  CHECK(async < hidden);
  // without sequence parallelism (no gathers to decompose) or with a TP group across nodes (no
  // symmetric memory between them) async TP changes nothing
  for (const bool sp : {false, true}) {
    training_plan q = titan_plan(catalog::llama31_70b, 32, 8, 16, true, false, recompute_mode::full);
    q.layout.sequence_parallel = sp;
    if (sp) q.layout.tp = 16, q.layout.dp = 16;
    const double off = tps(q);
    q.assumptions.async_tp = true;
    CHECK(tps(q) == off);
  }
}

TEST_CASE("torchtitan: every-k-th-layer checkpointing lies between none and full") {
  // selective_ac_option = k: one block in k wrapped in full AC (torchtitan's _apply_ac_to_
  // transformer_block: `if ac_freq > 0 and ptr_id % ac_freq == 0`)
  auto step = [](recompute_mode rc, int every) {
    training_plan p = titan_plan(catalog::llama31_8b, 8, 1, 1, true, false, rc);
    p.config.recompute_every = every;
    return estimate_step(p).total.value;
  };
  const double none = step(recompute_mode::none, 1), full = step(recompute_mode::full, 1);
  const double every2 = step(recompute_mode::full, 2);
  CHECK(none < every2);
  CHECK(every2 < full);
  // half the layers recompute: the recompute's cost halves (its memory-bound work, GEMMs and
  // the third ZeRO-3 gather are all linear in the recomputed share)
  CHECK(every2 == Approx(none + (full - none) / 2.0).epsilon(1e-9));
  training_plan bad = titan_plan(catalog::llama31_8b, 8, 1, 1, true, false, recompute_mode::none);
  bad.config.recompute_every = 2;
  CHECK_THROWS_WITH(estimate_step(bad), Catch::Contains("recompute_every"));
  training_plan meg = titan_plan(catalog::llama31_8b, 8, 1, 1, true, false, recompute_mode::none);
  meg.config.framework = framework_kind::megatron;
  CHECK_THROWS_WITH(estimate_step(meg), Catch::Contains("training_config.compile"));
}

TEST_CASE("torchtitan: op-level selective AC recomputes wk, wo and w3, not attention") {
  // its hardware FLOPs: the model FLOPs plus those three matmuls' forward, 2 x (kv + q + ffn) x h
  // per layer and token (Llama 3.1 8B: kv 1024, q 4096, ffn 14336, h 4096, 32 layers)
  training_plan p = titan_plan(catalog::llama31_8b, 8, 1, 1, true, false, recompute_mode::selective);
  const step_breakdown r = estimate_step(p);
  const double again = 2.0 * 32 * (1024.0 + 4096.0 + 14336.0) * 4096.0 * r.tokens_per_step.value;
  CHECK(r.hardware_flops.value == Approx(r.model_flops.value + again).epsilon(1e-12));
  const double none = estimate_step(titan_plan(catalog::llama31_8b, 8, 1, 1, true, false,
                                               recompute_mode::none)).total.value;
  const double full = estimate_step(titan_plan(catalog::llama31_8b, 8, 1, 1, true, false,
                                               recompute_mode::full)).total.value;
  CHECK(none < r.total.value);
  CHECK(r.total.value < full);
}

TEST_CASE("torchtitan: FA2's backward, FSDP2's copy-out, foreach AdamW, re-gathered SP inputs") {
  // Llama 3.1 8B, FSDP 8, compile, op SAC, local batch 2 (the Table 1 row): each mechanism's
  // time against the count it is modelled by
  const training_plan p = titan_plan(catalog::llama31_8b, 8, 1, 2, true, false,
                                     recompute_mode::selective);
  const step_breakdown r = estimate_step(p);
  const double hbm = 0.90 * 2.4e12;  // the H100's streaming fraction of Grand Teton's 2.4 TB/s
  const transformer_spec& m = catalog::llama31_8b;
  const double params = m.parameters();
  // the foreach AdamW (72 B besides the gradient, read twice) and foreach clipping (read, then
  // read and write) over the fp32 shard: 92 B per parameter of 1/8 of the model
  CHECK(r.optimizer.in(units::s) == Approx((72.0 + 8.0 + 12.0) * params / 8.0 / hbm));
  // FSDP2's copy-out: bf16 bytes read and written, each block twice but the last, the root twice.
  // It is the part of data_parallel that scales with the HBM bandwidth.
  training_plan half = p;
  half.assumptions.memory_bandwidth_fraction = 0.45;
  const double root = m.embedding_parameters() + m.lm_head_parameters() + m.hidden;
  const double copy_out = 2.0 * 2.0 * ((params - root) * 63.0 / 32.0 + 2.0 * root) / hbm;
  // (to 1e-5: the step model's parameter count leaves out the final norm's 4,096)
  CHECK(estimate_step(half).data_parallel.in(units::s) - r.data_parallel.in(units::s) ==
        Approx(copy_out).epsilon(1e-5));
  // FlashAttention-2's backward at sdpa_flash2_backward_ratio of its forward's rate: at 1 the
  // attention's backward time (2.5 / 3.5 of the attention at one rate) shrinks by 1 - 0.86
  training_plan same = p;
  same.assumptions.sdpa_flash2_backward_ratio = 1.0;
  const double saved = (r.compute - estimate_step(same).compute).in(units::s);
  const double keys = 8192.0 / 2.0 + 0.5;  // a causal query's mean keys, (s + 1) / 2
  const double f_fwd = 2.0 * 16384 * keys * 32 * 256 * 32;  // forward FLOPs, 32 layers
  const double rate = p.node.gpu.peak.bf16_tensor.value * 0.352 * 8192 / (8192 + 384);
  CHECK(saved == Approx(2.5 * f_fwd / rate * (1.0 / 0.86 - 1.0)).epsilon(1e-3));
  same.assumptions.sdpa_flash2_backward_ratio = 0.0;
  CHECK_THROWS_WITH(estimate_step(same), Catch::Contains("sdpa_flash2_backward_ratio"));
  // With TP and sequence parallelism the op policy does not save all-gathers: the recomputed
  // forward gathers the attention's and the FFN's inputs again, two all-gathers beside the four
  // collectives of the forward and the four of the backward (all-gathers and reduce-scatters of
  // the same bytes on NVLink, about equal)
  const double sel = estimate_step(titan_plan(m, 8, 8, 12, true, false, recompute_mode::selective))
                         .tensor_parallel.in(units::s);
  const double none = estimate_step(titan_plan(m, 8, 8, 12, true, false, recompute_mode::none))
                          .tensor_parallel.in(units::s);
  CHECK(sel / none == Approx(1.25).epsilon(0.02));
}

TEST_CASE("MoE on an L40S server's two CPU sockets: EP 8's all-to-all crosses the socket link") {
  // Mixtral 8x7B, EP 8 on the 4 + 4 PCIe L40S node (catalog pcie_8x_l40s, pcie_islands 2): the
  // dispatch and combine cross the socket link (models/collectives.hpp all_to_all_node_seconds)
  // and are slower than on a one-socket node; EP 4 stays in one socket and keeps its time. No
  // published MoE training run on such a server was found; this checks the mechanism.
  training_plan p = mixtral_ep8(catalog::pcie_8x_l40s, 8, 64);
  p.assumptions.ep_overlap = 0.0;  // the whole all-to-all exposed, to compare it
  REQUIRE(p.node.pcie_islands == 2);
  training_plan one = p;
  one.node.pcie_islands = 1;
  const step_breakdown two_sockets = estimate_step(p), one_socket = estimate_step(one);
  INFO("expert all-to-all per step: " << two_sockets.expert_parallel.in(units::s) << " s on 2 "
                                       << "sockets, " << one_socket.expert_parallel.in(units::s)
                                       << " s on 1");
  CHECK(two_sockets.expert_parallel > 2.0 * one_socket.expert_parallel);
  CHECK(two_sockets.total > one_socket.total);
  p.layout.ep = one.layout.ep = 4;
  CHECK(estimate_step(p).expert_parallel.value == estimate_step(one).expert_parallel.value);
}
