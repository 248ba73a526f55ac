// plan/training_run.hpp: the training-run report `gpuplan train` prints, by one library call,
// against the figures the command publishes (docs/cli.md, tests/cli/cases_verdict.py) and the
// published iteration time it is calibrated on (Korthikanti et al. 2022).
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/training_run.hpp>

#include <cmath>
#include <optional>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

/// `gpuplan train --model Llama-3.1-70B --gpus 8`: one DGX H100, data parallelism only, no
/// sharding; the framework the command settles on for a data-parallel run within one node,
/// Hugging Face transformers (its "framework" key), the library's defaults otherwise.
training_plan llama70b_on_8() {
  training_plan p;
  p.model = cat::llama31_70b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 8};
  p.config.framework = framework_kind::transformers;
  return p;
}

/// docs/cli.md's --deadline example: Llama 3.1 8B on DGX H100s, seq 8192, global batch 512,
/// ZeRO-1, full recompute, under transformers (the command's "framework"); one GPU as given
/// (dp 1; the deadline scales dp).
training_plan llama8b_deadline_plan() {
  training_plan p;
  p.model = cat::llama31_8b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 1, .zero = 1};
  p.config.framework = framework_kind::transformers;
  p.config.seq = 8192;
  p.config.global_batch = 512;
  p.config.recompute = recompute_mode::full;
  return p;
}

}  // namespace

TEST_CASE("training run: Llama 3.1 70B on 8 H100s does not fit (1184.3 GiB per GPU), is timed") {
  // docs/cli.md, `gpuplan train --model Llama-3.1-70B --gpus 8 --tokens 1B | grep '^memory'`:
  // "memory: 1184.3 GiB per GPU of 79.2 GiB: does NOT fit" (tests/cli/cases_verdict.py
  // verdict.train_unfit). The text prints one decimal: within 0.05 GiB.
  const training_run_report r =
      plan_training_run({.plan = llama70b_on_8(), .tokens = 1e9 * units::token});
  CHECK(r.memory.per_gpu.total().in(units::B) / GiB == Approx(1184.3).margin(0.05));
  CHECK(r.memory.capacity.in(units::B) / GiB == Approx(79.2).margin(0.05));
  CHECK_FALSE(r.memory.fits());
  CHECK_FALSE(r.fits());
  // the verdict is the fit's rule on the plan
  const training_memory_verdict fit = training_verdict(r.plan);
  CHECK(fit.per_gpu.total().value == r.memory.per_gpu.total().value);
  // a plan that does not fit is still timed, and its budget modelled
  CHECK(r.step.total.value > 0.0);
  REQUIRE(r.budget.has_value());
  CHECK(r.budget->steady_wall().value == time_to_train(r.plan, 1e9 * units::token).value);
  CHECK(r.budget->steady_gpu_time().in(units::h) ==
        Approx(8 * r.budget->steady_wall().in(units::h)).epsilon(1e-12));
  CHECK(!r.scaling.has_value());
  CHECK(!r.deadline.has_value());
  CHECK(!r.cost.has_value());
}

TEST_CASE("training run: Korthikanti 530B on 2240 A100s, 39.15 s per iteration within 8%") {
  // Korthikanti et al. 2022 (arXiv:2205.05198) Sec. 6.3: 530B, TP 8, PP 35 (3 chunks), DP 8,
  // global batch 2240, seq 2048, fp16, sequence parallelism + selective recompute: 39.15 s per
  // iteration. Tolerance 8%, as tests/unit/test_training_step.cpp holds estimate_step to it.
  training_plan p;
  p.model = cat::megatron_530b;
  p.node = cat::dgx_a100;
  p.layout = {.dp = 8, .tp = 8, .pp = 35, .sequence_parallel = true, .virtual_stages = 3};
  p.config.dtype = precision::fp16;
  p.config.grad_dtype = precision::fp32;
  p.config.micro_batch = 1;
  p.config.seq = 2048;
  p.config.global_batch = 2240;
  p.config.flash_attention = false;
  p.config.dropout = true;
  p.config.recompute = recompute_mode::selective;
  const token_count tokens = 270e9 * units::token;  // the run's 270B tokens (MT-NLG, Sec. 3)
  const training_run_report steady = plan_training_run(
      {.plan = p, .tokens = tokens, .reliability = {.enabled = false}});
  CHECK(steady.step.gpus == 2240);
  CHECK(steady.step.total.in(units::s) == Approx(39.15).epsilon(0.08));
  REQUIRE(steady.budget.has_value());
  // without failures the reserved time is the steady state
  CHECK(steady.budget->run.reserved_wall.value == steady.budget->steady_wall().value);
  CHECK(steady.budget->flops.six_nd.in(units::FLOP) ==
        Approx(6 * cat::megatron_530b.parameters() * 270e9).epsilon(1e-12));
  // with the default failure rate the run reserves more: ETTR below one
  const training_run_report failing = plan_training_run({.plan = p, .tokens = tokens});
  REQUIRE(failing.budget.has_value());
  CHECK(failing.budget->run.reliability.ettr < 1.0);
  CHECK(failing.budget->run.reserved_wall > failing.budget->steady_wall());
  CHECK(failing.budget->steady_wall().value == steady.budget->steady_wall().value);
}

TEST_CASE("training run: the deadline of docs/cli.md, 1T tokens of Llama 3.1 8B in 30 days") {
  // docs/cli.md, `gpuplan train --model Llama-3.1-8B --node dgx-h100 --seq 8192 --global-batch
  // 512 --zero 1 --recompute full --tokens 1T --deadline 30 --json`: 64 GPUs on 8 nodes, dp 64,
  // met, fits at 36181930916 bytes per GPU (tests/cli/cases_verdict.py verdict.train_deadline).
  const training_run_report r = plan_training_run(
      {.plan = llama8b_deadline_plan(),
       .tokens = 1e12 * units::token,
       .deadline = training_deadline{.within = 30.0 * units::d}});
  REQUIRE(r.deadline.has_value());
  const training_gpus& n = r.deadline->answer;
  CHECK(n.met);
  CHECK(n.gpus == 64);
  CHECK(n.nodes == 8);
  CHECK(n.dp == 64);
  CHECK(n.global_batch == 512);
  CHECK(n.wall_time.in(units::d) <= 30.0);
  REQUIRE(r.deadline->memory.has_value());
  CHECK(r.deadline->memory->fits());
  CHECK(r.deadline->memory->per_gpu.total().in(units::B) == Approx(36181930916.0).margin(1.0));
  CHECK(r.deadline->deadline.in(units::d) == Approx(30.0));
}

TEST_CASE("training run: a scaling sweep carries each point's memory verdict") {
  // tests/cli/cases_verdict.py verdict.train_scaling_rows: Llama 3.1 70B, ZeRO-3, full
  // recompute, global batch 512: 8 GPUs do not fit, 64 do (ZeRO-3 shards over dp).
  training_plan p = llama70b_on_8();
  p.layout.zero = 3;
  p.config.recompute = recompute_mode::full;
  p.config.global_batch = 512;
  const training_run_report r =
      plan_training_run({.plan = p, .scaling = training_sweep{.from_gpus = 8, .to_gpus = 64}});
  REQUIRE(r.scaling.has_value());
  const training_scaling_report& s = *r.scaling;
  REQUIRE(s.curve.size() == 4);
  REQUIRE(s.memory.size() == 4);
  CHECK(s.curve[0].gpus == 8);
  CHECK(s.curve[3].gpus == 64);
  REQUIRE(s.memory[0].has_value());
  REQUIRE(s.memory[3].has_value());
  CHECK_FALSE(s.memory[0]->fits());
  CHECK(s.memory[3]->fits());
  CHECK(s.memory[0]->per_gpu.total() > s.memory[3]->per_gpu.total());
  CHECK(s.any_valid());
  CHECK(!r.budget.has_value());

  // verdict.train_scaling_invalid_rows: a global batch of 64 does not divide over dp 128 or
  // 256: those points have no plan and so no verdict
  training_plan small;
  small.model = cat::llama31_8b;
  small.node = cat::dgx_h100;
  small.layout = {.dp = 8};
  small.config.global_batch = 64;
  const training_run_report q =
      plan_training_run({.plan = small, .scaling = training_sweep{.from_gpus = 8, .to_gpus = 256}});
  REQUIRE(q.scaling.has_value());
  int invalid = 0;
  for (int i = 0; i < q.scaling->curve.size(); ++i) {
    const bool valid = q.scaling->curve[i].valid;
    CHECK(q.scaling->memory[static_cast<std::size_t>(i)].has_value() == valid);
    if (!valid) ++invalid;
  }
  CHECK(invalid > 0);
  CHECK(q.scaling->memory[0].has_value());
}

TEST_CASE("training run: failures faster than progress throw infeasible_training_run") {
  // 1000 failures per node per day on 8 nodes: an MTTF of about 11 s, below a 10-minute restart
  training_plan p = llama8b_deadline_plan();
  p.layout.dp = 64;
  reliability_assumptions rel;
  rel.failures_per_node_day = 1000.0;
  try {
    (void)plan_training_run({.plan = p, .tokens = 1e12 * units::token, .reliability = rel});
    FAIL("no exception");
  } catch (const infeasible_training_run& e) {
    CHECK_FALSE(e.estimate.feasible);
    CHECK(e.gpus == 64);
    CHECK(e.estimate.mttf < e.estimate.restart);
  }
  // a deadline or prices without a token budget name it
  CHECK_THROWS_AS(plan_training_run({.plan = p, .deadline = training_deadline{30.0 * units::d}}),
                  invalid_input);
}

TEST_CASE("training run: priced over its reserved time") {
  // A given price per GPU-hour: the cost is the run's reserved GPU-hours at that price.
  run_cost_inputs prices;
  prices.price_per_gpu_hour = 2.0 * units::usd / units::h;
  const training_run_report r = plan_training_run(
      {.plan = llama8b_deadline_plan(), .tokens = 1e11 * units::token, .pricing = prices});
  REQUIRE(r.cost.has_value());
  REQUIRE(r.budget.has_value());
  CHECK(r.cost->priced);
  CHECK(r.cost->usage.gpu_time.value == r.budget->run.usage.gpu_time.value);
  CHECK(r.cost->cost.in(units::usd) ==
        Approx(2.0 * r.budget->run.usage.gpu_time.in(units::h)).epsilon(1e-12));
}

TEST_CASE("training_node_for: the catalog server carrying the GPU, else one GPU on PCIe") {
  const std::optional<node_spec> h100 = training_node_for(cat::h100_sxm, 64);
  REQUIRE(h100.has_value());
  CHECK(h100->name == cat::dgx_h100.name);
  REQUIRE(cat::node_carrying(cat::a100_sxm_80gb) != nullptr);
  CHECK(cat::node_carrying(cat::a100_sxm_80gb)->name == cat::dgx_a100.name);
  // no catalog server carries an L4: one alone (no NVLink: PCIe); eight need a node spec
  CHECK(cat::node_carrying(cat::l4) == nullptr);
  const std::optional<node_spec> one = training_node_for(cat::l4, 1);
  REQUIRE(one.has_value());
  CHECK(one->gpus == 1);
  CHECK(one->name == cat::l4.name);
  CHECK(one->fabric == intra_node_fabric::pcie);
  CHECK(one->scale_up_per_gpu.value == cat::l4.pcie.per_direction().value);
  CHECK(!training_node_for(cat::l4, 8).has_value());
  // a GPU no catalog server carries, alone: its step is its own compute, no communication
  training_plan p;
  p.model = cat::llama31_8b;
  p.node = *training_node_for(cat::a100_sxm_40gb, 1);
  p.config.framework = framework_kind::transformers;
  const step_breakdown b = plan_training_run({.plan = p}).step;
  CHECK(b.gpus == 1);
  CHECK(b.tensor_parallel.value == 0.0);
  CHECK(b.data_parallel.value == 0.0);
}
