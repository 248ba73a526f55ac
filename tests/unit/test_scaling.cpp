// Strong and weak scaling curves: shapes that must hold, and the reasons named.
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/scaling.hpp>

#include "../catch.hpp"

using namespace gpuplan;

namespace {
training_plan gpt175_ptd() {
  // Narayanan et al. 2021 Table 2 setting: 175B, TP 8 x PP 12, batch 1536, micro-batch 1.
  training_plan p;
  p.model = catalog::megatron_175b;
  p.node = catalog::dgx_a100;
  p.layout = {.dp = 4, .tp = 8, .pp = 12};
  p.config.dtype = precision::fp16;
  p.config.micro_batch = 1;
  p.config.global_batch = 1536;
  p.config.flash_attention = false;
  p.config.dropout = true;
  p.config.recompute = recompute_mode::full;
  return p;
}
}  // namespace

TEST_CASE("strong scaling: throughput grows, per-GPU efficiency falls, the bubble says why") {
  const scaling_curve c = scaling(gpt175_ptd(), 384, 98304, scaling_mode::strong);
  REQUIRE(c.size() == 9);  // 384, 768, ..., 98304
  CHECK(c[0].gpus == 384);
  CHECK(c[0].efficiency == Approx(1.0));
  for (int i = 1; i < c.size(); ++i) {
    const scaling_point& a = c[i - 1];
    const scaling_point& b = c[i];
    if (!b.valid) continue;
    CHECK(b.tokens_per_s > a.tokens_per_s);           // more GPUs still help...
    CHECK(b.efficiency < a.efficiency);               // ...with diminishing returns
    CHECK(b.bubble_share > a.bubble_share);           // fewer micro-batches per pipeline
    CHECK(b.limit != scaling_limit::none);
  }
  // at 12288 GPUs (dp 128) the 12-stage pipeline gets 12 micro-batches: the bubble is the reason
  CHECK(c[5].micro_batches == 12);
  CHECK(c[5].limit == scaling_limit::pipeline_bubble);
  // at 24576 (dp 256) 6 micro-batches for 12 stages: the batch is too small per GPU
  CHECK(c[6].micro_batches == 6);
  CHECK(c[6].limit == scaling_limit::small_batch);
  // 1536 sequences over 1024 data-parallel ranks (98304 GPUs) do not divide: marked, not faked
  CHECK_FALSE(c[8].valid);
  CHECK(c[8].limit == scaling_limit::batch_too_small);
}

TEST_CASE("weak scaling keeps the per-GPU throughput nearly flat") {
  const scaling_curve c = scaling(gpt175_ptd(), 384, 6144, scaling_mode::weak);
  REQUIRE(c.size() == 5);
  for (const scaling_point& p : c) {
    CHECK(p.valid);
    CHECK(p.efficiency > 0.9);
    CHECK(p.global_batch == 1536 / 4 * p.dp);
  }
}

TEST_CASE("pure data parallelism on a small model is limited by communication") {
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  p.layout = {.dp = 8};
  p.config.micro_batch = 1;
  p.config.seq = 2048;
  p.config.global_batch = 512;
  p.assumptions.overlap_grad_reduce = false;
  const scaling_curve c = scaling(p, 8, 512, scaling_mode::strong);
  bool saw_comm = false;
  for (const scaling_point& pt : c)
    if (pt.limit == scaling_limit::communication) saw_comm = true;
  CHECK(saw_comm);
  CHECK(c[c.size() - 1].communication_share > c[0].communication_share);
}

TEST_CASE("scaling bounds are checked") {
  CHECK_THROWS_AS(scaling(gpt175_ptd(), 100, 1000), invalid_input);
  CHECK_THROWS_AS(scaling(gpt175_ptd(), 768, 384), invalid_input);
}

TEST_CASE("scale_plan names a base micro-batch or dp of 0 instead of dividing by it") {
  training_plan p = gpt175_ptd();
  p.config.micro_batch = 0;  // was a division by zero (SIGFPE) in the batch-split check
  CHECK_THROWS_WITH(scale_plan(p, 8, scaling_mode::strong),
                    Catch::Contains("training_config.micro_batch"));
  CHECK_THROWS_WITH(scaling(p, 384, 768), Catch::Contains("training_config.micro_batch"));
  p = gpt175_ptd();
  p.layout.dp = 0;  // weak scaling divides the batch by the base's dp
  CHECK_THROWS_WITH(scale_plan(p, 8, scaling_mode::weak), Catch::Contains("layout.dp"));
  p = gpt175_ptd();
  p.config.micro_batch = 1 << 30;  // micro_batch x dp past an int: not a valid split, no overflow
  CHECK_FALSE(scale_plan(p, 8, scaling_mode::strong).valid);
}
