// The torchtitan memory profile (models/torchtitan_memory.hpp) against the peak memory torchtitan
// publishes with its throughput: pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md
// (torch 1963fc8, torchao eab345c, torchtitan 9dec370, December 2024; H100 96GB HBM2e). Its
// "Memory(GiB)" column is torch.cuda.memory_stats()["reserved_bytes.all.peak"] / 2^30
// (train.py logs DeviceMemStats.max_reserved_gib, torchtitan/metrics.py): the caching
// allocator's peak reservation, compared here with memory_breakdown::phases.reserved (the
// breakdown's total() adds the CUDA context, which the column does not count).
// Tolerance: 5% where the profile models the run's mechanisms (the project's memory tests hold
// measured allocated peaks to 3% and the transformers profile's process peaks to 7% median, 20%
// max: tests/unit/test_framework_memory.cpp); rows it does not explain are held in a bracket
// with the missing mechanism named.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

using namespace gpuplan;

namespace {

constexpr double GiB = 1073741824.0;
double gib(data_size x) { return x.in(units::B) / GiB; }

/// A torchtitan run of the benchmark file: FSDP2 over dp (x cp), TP with sequence parallelism,
/// bf16 compute with fp32 gradient reduction, AdamW, `local_batch` sequences of `seq` tokens.
struct titan_run {
  transformer_spec model;
  parallel_layout layout;
  training_config config;
};

titan_run titan(const transformer_spec& m, int dp, int tp, int cp, int local_batch, int seq,
                recompute_mode rc, bool compile, bool float8) {
  titan_run r{m, {.dp = dp, .tp = tp, .zero = 3, .sequence_parallel = tp > 1}, {}};
  r.layout.cp = cp;
  r.config.framework = framework_kind::torchtitan;
  r.config.compile = compile;
  r.config.dtype = float8 ? precision::fp8 : precision::bf16;
  r.config.grad_dtype = precision::fp32;
  r.config.recompute = rc;
  r.config.micro_batch = local_batch;
  r.config.seq = seq;
  r.config.global_batch = local_batch * dp;
  return r;
}

double reserved_gib(const titan_run& r) {
  return gib(framework_training_memory(r.model, r.layout, r.config).phases.reserved);
}

}  // namespace

TEST_CASE("torchtitan memory: op-level SAC keeps the odd mms, SDPA's outputs, the block input",
          "[torchtitan][activations]") {
  // Llama 3.1 8B (h 4096, 32 heads of 128, 8 KV heads, FFN 14336), no TP: the block input (h),
  // wq (4096), wv (1024), w1 (14336), w2 (4096), SDPA's output (4096) in bf16 and its fp32
  // log-sum-exp (32): 2 x 31744 + 128 = 63616 bytes per token.
  const parallel_layout one{.dp = 8, .zero = 3};
  CHECK(detail::titan_op_sac_bytes_per_token(catalog::llama31_8b, one, 2.0) == 63616.0);
  // TP 8 with SP: the input and the two reduce_scatter outputs over 8, the column-parallel
  // outputs over 8, w2's output the full-width partial sum, one KV head per rank.
  const parallel_layout tp{.dp = 8, .tp = 8, .zero = 3, .sequence_parallel = true};
  const double h = 4096, per_rank = 2.0 * (h / 8 + 512 + 128 + 14336.0 / 8 + h + 512 + 2 * h / 8) +
                                    4.0 * 4;
  CHECK(detail::titan_op_sac_bytes_per_token(catalog::llama31_8b, tp, 2.0) == per_rank);
}

TEST_CASE("torchtitan memory: Llama 3.1 8B FSDP, Tables 1 and 3 (op SAC, local batch 2)",
          "[torchtitan][published]") {
  // Published reserved peaks (GiB): 8 GPUs FSDP 82.4, + torch.compile 77.0, + Float8 76.8;
  // 128 GPUs 67.0, 62.0, 61.8. Local batch 2 x 8192 tokens, op-level selective AC.
  // Model: compiled 76.28 (-0.9%) and 62.26 (+0.4%); the Megatron accounting read 99.9 and 83.3.
  // The float8 rows get the same figure: the profile counts bf16 saved tensors (torchao's
  // Float8Linear runs _scaled_mm, not aten.mm, and saves abs/max outputs; how compile's
  // partitioner keeps them is not modelled): -0.7%, +0.7%. Within 5%.
  // [Known residual: eager reads 5.4 and 5.0 GiB above compile; the model gives eager the
  // compiled figure (-7.4%, -7.1%): what eager SAC holds beyond the policy's saved outputs is
  // not located. Held in [-10%, 0].]
  struct row {
    int gpus;
    double eager, compiled, float8;
  };
  for (const row& r : {row{8, 82.4, 77.0, 76.8}, row{128, 67.0, 62.0, 61.8}}) {
    const auto at = [&](bool compile, bool float8) {
      return reserved_gib(titan(catalog::llama31_8b, r.gpus, 1, 1, 2, 8192,
                                recompute_mode::selective, compile, float8));
    };
    const double e = at(false, false), c = at(true, false), f = at(true, true);
    INFO(r.gpus << " GPUs: eager " << e << " vs " << r.eager << ", compiled " << c << " vs "
                << r.compiled << ", float8 " << f << " vs " << r.float8);
    CHECK(std::abs(c / r.compiled - 1.0) <= 0.05);
    CHECK(std::abs(f / r.float8 - 1.0) <= 0.05);
    CHECK(e <= r.eager);
    CHECK(e >= 0.90 * r.eager);
  }
  // 8 -> 128 GPUs: published -15.0 GiB (compiled); the model's difference is the fp32 shards
  // (parameters, gradients on the reduce-scatter stream, AdamW moments: 16 B/param over 8 vs
  // 128), -14.0 GiB. Without the gradients' reserved segments it would be -10.5.
  const auto compiled = [](int gpus) {
    return reserved_gib(titan(catalog::llama31_8b, gpus, 1, 1, 2, 8192, recompute_mode::selective,
                              true, false));
  };
  CHECK(std::abs((compiled(8) - compiled(128)) - 15.0) <= 1.5);
}

TEST_CASE("torchtitan memory: Llama 3.1 8B FSDP x CP, Table 2 (full AC, local batch 1)",
          "[torchtitan][published]") {
  // FSDP 8 / CP 1 at 32768 tokens, 4 x 2 at 65536, 2 x 4 at 131072, 1 x 8 at 262144; compile,
  // Float8, full AC: 83.9, 84.2, 84.0, 84.5 GiB. Every GPU holds 32768 tokens and FSDP shards
  // over dp x cp = 8, so the model reads the same 81.12 for all four (-3.3% to -4.0%), set by
  // the cross entropy over 32768 x 128256 fp32 logits. CP's ring-attention buffers are not
  // modelled. Within 5%. (The model was not fitted to these rows: they check the loss terms.)
  const double published[] = {83.9, 84.2, 84.0, 84.5};
  for (int i = 0; i < 4; ++i) {
    const int cp = 1 << i;
    const double got = reserved_gib(titan(catalog::llama31_8b, 8 / cp, 1, cp, 1, 32768 * cp,
                                          recompute_mode::full, true, true));
    INFO("CP " << cp << ": " << got << " vs " << published[i]);
    CHECK(std::abs(got / published[i] - 1.0) <= 0.05);
  }
}

TEST_CASE("torchtitan memory: Llama 3.1 70B FSDP 32 x TP 8, Table 4 (known residual)",
          "[torchtitan][published]") {
  // 256 GPUs, local batch 16, full AC, compile, Float8: 2D 71.9 GiB. Model 62.77 (-12.7%): fp32
  // shards 4.1, 80 block inputs (SP) 20.0, the loss-parallel backward over 131072 x 16032 fp32
  // logits 31.3, the stranded bf16 logits 3.9, the root and last block 3.6. Without the
  // loss-parallel backward's third tensor it read 54.9 (-23.6%), the Megatron accounting 40.3.
  // [Known residual: ~9 GiB not located; candidates are float8's per-linear casts and amax
  // buffers under full AC, and the TP all-gather / reduce-scatter buffers of SP on the
  // compute stream. Held in [-15%, -10%].]
  const double got = reserved_gib(
      titan(catalog::llama31_70b, 32, 8, 1, 16, 8192, recompute_mode::full, true, true));
  INFO("70B 2D: " << got << " vs 71.9");
  CHECK(got >= 0.85 * 71.9);
  CHECK(got <= 0.90 * 71.9);
}

TEST_CASE("torchtitan memory: Llama 3.1 405B 3D with PP, Table 5 (known residual)",
          "[torchtitan][published]") {
  // FSDP 8 x TP 8 x PP 8, local batch 32 as 8 micro-batches of 4 (pipeline_parallel_
  // microbatches defaults to the PP degree at 9dec370), full AC, compile, Float8, AsyncTP:
  // 1F1B 82.5, Interleaved 1F1B 72.7 GiB (the maximum over the PP ranks). 126 layers as
  // 15 / 16 x 6 / 15 (generate_split_points). Under PP the profile holds every parameter of the
  // stage unsharded in bf16 (reshard_after_forward = False: 11.9 GiB on a 16-layer stage), its
  // unsharded fp32 gradient accumulators (23.7 GiB) and the in-flight micro-batches' block
  // inputs with PipelineStage's buffers. Model: 1F1B 65.84 (-20.2%, stage 1: 7 in flight x 16
  // layers; stage 0 65.83), interleaved 55.97 (-23.0%). Before, the Megatron accounting's
  // total read 36.61 and 38.06 (44% and 52%, the interleaved schedule higher).
  // The schedules' difference is the mechanism the profile names: with one round of
  // micro-batches the interleaved rank frees its last chunk's fp32 gradients (8 of its 16
  // layers) before its first chunk's backward allocates them: model -9.87, published -9.8 GiB.
  // Held within 10% of the published difference.
  // [Known residual: ~16.7 GiB on both schedules, not located (the 70B 2D row's ~9 GiB is the
  // same kind). Candidates: float8's per-linear casts and amax buffers, async TP's and SP's
  // collective buffers on the compute stream, the caching allocator's fragmentation between the
  // 134 MB block inputs freed in backward and the fp32 accumulators; torchao's float8
  // all-gather (llama3_405b.toml) would hold the linears unsharded in 1 byte, not 2, which the
  // profile does not model (it would widen the gap by ~6 GiB). Held in [-25%, -15%].]
  titan_run r = titan(catalog::llama31_405b, 8, 8, 1, 4, 8192, recompute_mode::full, true, true);
  r.layout.pp = 8;
  r.layout.first_stage_layers = 15;
  r.layout.last_stage_layers = 15;
  r.config.global_batch = 256;
  double got[2] = {};
  const double published[2] = {82.5, 72.7};
  for (int v = 1; v <= 2; ++v) {
    r.layout.virtual_stages = v;
    const memory_breakdown b = framework_training_memory(r.model, r.layout, r.config);
    got[v - 1] = gib(b.phases.reserved);
    INFO("405B v " << v << ": " << got[v - 1] << " vs " << published[v - 1] << " (stage "
                   << b.pipeline_stage << ")");
    CHECK(got[v - 1] >= 0.75 * published[v - 1]);
    CHECK(got[v - 1] <= 0.85 * published[v - 1]);
    // the profile's own terms: every stage's parameters unsharded, fp32 accumulators
    CHECK(b.gradients > b.weights);
  }
  INFO("1F1B - interleaved: " << got[0] - got[1] << " vs 9.8");
  CHECK(std::abs((got[0] - got[1]) / 9.8 - 1.0) <= 0.10);
}

TEST_CASE("torchtitan memory: Llama 3.1 405B 4D with PP and CP, Table 6 (known residual)",
          "[torchtitan][published]") {
  // FSDP x CP = 8, TP 8, PP 8, 1F1B, local batch 8 as 8 micro-batches of 1 sequence of 32768 x
  // CP tokens, full AC, compile, Float8, AsyncTP: CP 1, 2, 4, 8: 75.3, 75.9, 77.1, 84.9 GiB.
  // Every GPU holds 32768 tokens a micro-batch (as in Table 5's 4 x 8192) and shards over 8:
  // the model reads 65.84 for all four (-12.6%, -13.3%, -14.6%, -22.4%); the Megatron
  // accounting's phases were empty (no reserved figure).
  // [Known residual: as Table 5's, smaller (9.5 GiB at CP 1 against 16.7 there at the same
  // tokens per micro-batch: what differs between 1 x 32768 and 4 x 8192 is not located), and
  // CP's ring-attention buffers are not modelled (the CP 8 row's extra 7.8 GiB). Held in
  // [-25%, -10%].]
  const double published[] = {75.3, 75.9, 77.1, 84.9};
  for (int i = 0; i < 4; ++i) {
    const int cp = 1 << i;
    titan_run r = titan(catalog::llama31_405b, 8 / cp, 8, cp, 1, 32768 * cp,
                        recompute_mode::full, true, true);
    r.layout.pp = 8;
    r.layout.first_stage_layers = 15;
    r.layout.last_stage_layers = 15;
    r.config.global_batch = 8 * (8 / cp);
    const double got = reserved_gib(r);
    INFO("405B 4D CP " << cp << ": " << got << " vs " << published[i]);
    CHECK(got >= 0.75 * published[i]);
    CHECK(got <= 0.90 * published[i]);
  }
}

TEST_CASE("torchtitan memory: under PP the stages hold what their schedule keeps",
          "[torchtitan][pipeline]") {
  // Llama 3.1 8B (32 layers), FSDP 8 x PP 4, 1F1B, full AC, micro-batch 1 of 8192 tokens,
  // 8 micro-batches (global batch 64). Stage k holds pp - k micro-batches' block inputs
  // (Schedule1F1B's warm-up); every stage 8 layers, so stages 1 and 2 differ by one micro-batch:
  // 7 block inputs (the first block's is a receive buffer, held for every micro-batch) and the
  // cached stage output (bf16, 8192 x 4096 x 2 B each).
  titan_run r = titan(catalog::llama31_8b, 8, 1, 1, 1, 8192, recompute_mode::full, true, false);
  r.layout.pp = 4;
  r.config.global_batch = 64;
  const memory_breakdown s1 = torchtitan_training_memory_stage(r.model, r.layout, r.config, 1);
  const memory_breakdown s2 = torchtitan_training_memory_stage(r.model, r.layout, r.config, 2);
  const double input = 8192.0 * 4096 * 2;
  CHECK(s1.phases.reserved.value - s2.phases.reserved.value == Approx(8.0 * input));
  // the unsharded fp32 accumulators of the stage: 4 B per parameter of its 8 layers
  const double layer = catalog::llama31_8b.layer_parameters(0);
  CHECK(s1.gradients.value - 4.0 * 8 * layer / 8 == Approx(4.0 * 8 * layer).epsilon(1e-9));
  // the dispatching per-stage call (gpuplan fit's stage table) gives the profile's stage
  CHECK(framework_training_memory_stage(r.model, r.layout, r.config, 1).phases.reserved.value ==
        s1.phases.reserved.value);
  // the most loaded stage is reported, and the Megatron accounting is not used
  const memory_breakdown most = framework_training_memory(r.model, r.layout, r.config);
  CHECK(most.phases.reserved.value >= s1.phases.reserved.value);
  CHECK(most.phases.reserved.value > 0.0);
}

TEST_CASE("torchtitan memory: the named mechanisms move the peak they name",
          "[torchtitan][mechanisms]") {
  const titan_run r =
      titan(catalog::llama31_8b, 8, 1, 1, 2, 8192, recompute_mode::selective, true, false);
  const memory_assumptions a{};
  // the assumptions with one switch of memory_assumptions::torchtitan turned off
  const auto off = [&a](bool torchtitan_memory_profile::*field) {
    memory_assumptions o = a;
    o.torchtitan.*field = false;
    return o;
  };
  const memory_breakdown base = torchtitan_training_memory(r.model, r.layout, r.config, a);
  const double params = 8030261248.0;  // Llama 3.1 8B
  // gradients_stay_reserved: the 4 B/param fp32 gradient shards
  const memory_breakdown no_grads =
      torchtitan_training_memory(r.model, r.layout, r.config,
                                 off(&torchtitan_memory_profile::gradients_stay_reserved));
  CHECK(gib(base.phases.reserved - no_grads.phases.reserved) ==
        Approx(4.0 * params / 8 / GiB).epsilon(0.001));
  // the switches live in memory_assumptions::torchtitan: the dispatching call honours them
  CHECK(framework_training_memory(r.model, r.layout, r.config,
                                  off(&torchtitan_memory_profile::gradients_stay_reserved))
            .phases.reserved.value == no_grads.phases.reserved.value);
  // stranded_logits_segment: the bf16 logits, 16384 x 128256 x 2 bytes
  const memory_breakdown no_strand =
      torchtitan_training_memory(r.model, r.layout, r.config,
                                 off(&torchtitan_memory_profile::stranded_logits_segment));
  CHECK(gib(base.phases.reserved - no_strand.phases.reserved) ==
        Approx(16384.0 * 128256 * 2 / GiB).epsilon(1e-9));
  CHECK(gib(base.phases.allocator_reserve) == Approx(16384.0 * 128256 * 2 / GiB).epsilon(1e-9));
  // the breakdown's total is the reservation plus the CUDA context and NCCL's buffers
  CHECK(gib(base.total()) > gib(base.phases.reserved));
  // loss parallel applies under TP only: one more fp32 logit tensor
  titan_run t = titan(catalog::llama31_70b, 32, 8, 1, 16, 8192, recompute_mode::full, true, false);
  const memory_breakdown lp = torchtitan_training_memory(t.model, t.layout, t.config, a);
  const memory_breakdown aten =
      torchtitan_training_memory(t.model, t.layout, t.config,
                                 off(&torchtitan_memory_profile::loss_parallel_backward));
  CHECK(gib(lp.phases.reserved - aten.phases.reserved) ==
        Approx(131072.0 * 128256 / 8 * 4 / GiB).epsilon(1e-9));
  // op SAC between none and full
  titan_run none = r, full = r;
  none.config.recompute = recompute_mode::none;
  full.config.recompute = recompute_mode::full;
  CHECK(reserved_gib(full) < reserved_gib(r));
  CHECK(reserved_gib(r) < reserved_gib(none));
}

TEST_CASE("torchtitan memory: what the profile does not model is refused or falls back",
          "[torchtitan][errors]") {
  titan_run r = titan(catalog::llama31_8b, 8, 1, 1, 2, 8192, recompute_mode::selective, true, false);
  r.layout.pp = 2;
  r.config.global_batch = 2 * 8 * 2;
  CHECK_NOTHROW(torchtitan_training_memory(r.model, r.layout, r.config));  // FSDP2 under PP
  CHECK_THROWS_AS(torchtitan_training_memory_stage(r.model, r.layout, r.config, 2), invalid_input);
  r.layout.zero = 1;  // torchtitan's only data parallelism is FSDP2
  CHECK_THROWS_AS(torchtitan_training_memory(r.model, r.layout, r.config), invalid_input);
  CHECK_NOTHROW(framework_training_memory(r.model, r.layout, r.config));  // Megatron's
  titan_run bad = titan(catalog::llama31_8b, 8, 1, 1, 2, 8192, recompute_mode::selective, true,
                        false);
  bad.config.seq = 0;
  CHECK_THROWS_AS(framework_training_memory(bad.model, bad.layout, bad.config), invalid_input);
}
