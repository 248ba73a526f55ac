// The reliability model (models/reliability.hpp): the published MTTF projections and expected
// ETTRs of Kokolis et al. (arXiv:2410.21680, HPCA 2025) from their own failure rates, Llama 3's
// interruptions and effective training time (arXiv:2407.21783 Sec. 3.3.4), the model's
// properties, and its use in the cost of a modelled training run (plan/training_cost.hpp).
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/reliability.hpp>
#include <gpuplan/plan/training_cost.hpp>

#include <cmath>

#include "../catch.hpp"
#include "../published_runs.hpp"

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

// Kokolis et al. Sec. IV: r_f from every job over 128 GPUs that ended in NODE_FAIL or a failed
// health check, per node-day. RSC-1: 6.50 per 1,000 node-days; RSC-2: 2.34.
constexpr double rsc1_rate = 6.50e-3;
constexpr double rsc2_rate = 2.34e-3;

reliability_assumptions with_rate(double per_node_day) {
  reliability_assumptions a;
  a.failures_per_node_day = per_node_day;
  return a;
}

double hours(duration d) { return d.in(units::h); }

}  // namespace

TEST_CASE("Kokolis et al.'s projected MTTF from RSC-1's failure rate", "[reliability]") {
  const reliability_assumptions rsc1 = with_rate(rsc1_rate);
  // Sec. IV ("MTTF decreases with scale", Fig. 7): "we project the MTTF of 16,384-GPU jobs to be
  // 1.8 hours and 131,072-GPU jobs to be 0.23 hours", from MTTF = (N_nodes r_f)^-1 with RSC-1's
  // r_f. Tolerance: half a unit of the paper's last printed digit.
  CHECK(hours(job_mttf(rsc1, 16384)) == Approx(1.8).margin(0.05));
  CHECK(hours(job_mttf(rsc1, 131072)) == Approx(0.23).margin(0.005));
  // Their measured MTTF of 1,024-GPU jobs, 7.9 h (Fig. 7), is NOT what the per-node rate gives:
  // 1 / (128 x 6.5e-3) days = 28.8 h. The rate is fitted on all jobs over 128 GPUs and their
  // projections (above) use it; jobs of ~1,000 GPUs fail 3.6x more often than it says. Pinned so
  // that the weakness stays written down (docs/models/cost.md, "Reliability").
  CHECK(hours(job_mttf(rsc1, 1024)) == Approx(24.0 / (128 * 6.5e-3)).epsilon(1e-12));
  CHECK(hours(job_mttf(rsc1, 1024)) > 3.0 * 7.9);
}

TEST_CASE("Kokolis et al.'s expected ETTR of hypothetical RSC-1 jobs", "[reliability]") {
  // Sec. IV ("Expected ETTR results", Fig. 9 and Fig. 10): a 16,000-GPU job taking all of RSC-1
  // has E[ETTR] 0.7 with a 60-minute checkpoint interval and 0.93 with 5 minutes; checkpoint
  // writes are assumed not to block (W = 0) and u_0 = 5 min (their comparison with jobs). Their
  // E[ETTR] also counts queueing after each interruption, taken as 0 here (a dedicated cluster).
  // Tolerance: the paper's printed digits (0.7: +-0.05; 0.93: +-0.005).
  const duration mttf = job_mttf(with_rate(rsc1_rate), 16000);
  const duration u0 = 5.0 * units::minute;
  CHECK(expected_ettr(60.0 * units::minute, duration{}, u0, mttf) == Approx(0.7).margin(0.05));
  CHECK(expected_ettr(5.0 * units::minute, duration{}, u0, mttf) == Approx(0.93).margin(0.005));
  // Insight 10: 8,000 GPUs (half of RSC-1) reach ETTR 0.9 with a 30-minute interval and one minute
  // of queueing per interruption (restart 5 + 1 min). Tolerance: +-0.01 (one printed digit).
  const duration half = job_mttf(with_rate(rsc1_rate), 8000);
  CHECK(expected_ettr(30.0 * units::minute, duration{}, 6.0 * units::minute, half) ==
        Approx(0.9).margin(0.01));
}

TEST_CASE("Llama 3 405B: 419 unexpected interruptions in 54 days, above 90% ETTR",
          "[reliability]") {
  // Llama 3 Sec. 3.3.4 and Table 5: "During a 54-day snapshot period of pre-training, we
  // experienced a total of 466 job interruptions", 47 planned and 419 unexpected, on 16,384 H100
  // GPUs (2,048 servers of 8); "we achieved higher than 90% effective training time".
  const reliability_assumptions a{};
  const duration snapshot = 54.0 * units::d;
  // The default rate is this run's: the count comes back exactly (a check of the node and day
  // arithmetic, not of the rate). Tolerance 1e-9 relative.
  CHECK(snapshot.value / job_mttf(a, 16384).value == Approx(419).epsilon(1e-9));
  // "one failure every three hours" (54 x 24 / 419 = 3.09 h).
  CHECK(hours(job_mttf(a, 16384)) == Approx(3.09).margin(0.01));
  // Independently, Kokolis et al.'s two A100 clusters bracket it: RSC-2's rate predicts 259, RSC-1's
  // 719 (the H100 run sits between the two clusters).
  const double low = snapshot.value / job_mttf(with_rate(rsc2_rate), 16384).value;
  const double high = snapshot.value / job_mttf(with_rate(rsc1_rate), 16384).value;
  CHECK(low == Approx(259).margin(0.5));
  CHECK(high == Approx(719).margin(0.5));
  CHECK(low < 419);
  CHECK(419 < high);

  // The ETTR of the defaults on the 405B run: its checkpoint (405B x 14 bytes, bf16 weights +
  // fp32 master + AdamW states) over 16,384 x 122 MB/s takes 2.9 s; the optimal interval is then
  // 4.0 min, and with 10-minute restarts the expected ETTR is 0.92: above Llama 3's "higher than
  // 90%", with the restart as the main loss. Tolerance: the bound the paper states.
  training_plan p;
  p.model = cat::llama31_405b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 128, .tp = 8, .pp = 16};
  const data_size ckpt = checkpoint_size(p);
  CHECK(ckpt.in(units::TB) == Approx(cat::llama31_405b.parameters() * 14 / 1e12).epsilon(1e-12));
  const reliability_estimate e = reliability_for(a, 16384, snapshot, ckpt);
  CHECK(e.checkpoint_write.in(units::s) == Approx(2.9).margin(0.1));
  CHECK(e.checkpoint_interval.in(units::minute) == Approx(4.0).margin(0.1));
  CHECK(e.ettr > 0.90);
  CHECK(e.ettr < 0.95);
  // A 5-minute blocking checkpoint write at a one-hour interval (Kokolis et al.'s RSC jobs) would
  // not reach 90% at this failure rate: the model does not grant Llama 3's figure for free.
  reliability_assumptions slow = a;
  slow.checkpoint_write = 5.0 * units::minute;
  slow.checkpoint_interval = 1.0 * units::h;
  CHECK(reliability_for(slow, 16384, snapshot, ckpt).ettr < 0.85);
}

TEST_CASE("ETTR is in (0, 1], falls with job size, and the Young/Daly interval maximises it",
          "[reliability][properties]") {
  const reliability_assumptions a{};
  const data_size ckpt = 1e12 * units::B;
  double previous = 1.0;
  for (int gpus : {1, 8, 64, 512, 4096, 16384, 32768}) {
    const reliability_estimate e = reliability_for(a, gpus, 30.0 * units::d, ckpt);
    CHECK(e.ettr > 0.0);
    CHECK(e.ettr <= 1.0);
    CHECK(e.ettr < previous);  // more GPUs, more failures (and a smaller share of storage each)
    previous = e.ettr;
    // every second of the wall is productive, lost to failures or writing checkpoints
    CHECK((e.productive + e.lost_to_failures + e.lost_to_checkpoints).value ==
          Approx(e.wall.value).epsilon(1e-12));
    CHECK(e.interruptions == Approx(e.wall.value / e.mttf.value).epsilon(1e-12));
  }
  for (double write_s : {1.0, 30.0, 300.0}) {
    for (double mttf_h : {0.5, 3.0, 24.0, 2000.0}) {
      const duration w = write_s * units::s, m = mttf_h * units::h, r = 1.0 * units::minute;
      const duration tau = young_daly_interval(w, r, m);
      const double best = expected_ettr(tau, w, r, m);
      for (double k : {0.5, 0.8, 0.95, 0.99, 1.01, 1.05, 1.25, 2.0})
        if (0.5 * k * tau.value + r.value < m.value)
          CHECK(best > expected_ettr(k * tau, w, r, m));
      // Young's sqrt(2 W M) to first order: within sqrt(W / M) + R / M of it
      const double young = std::sqrt(2.0 * w.value * m.value);
      CHECK(std::abs(tau.value / young - 1.0) <
            std::sqrt(w.value / m.value) + r.value / m.value);
    }
  }
  // No failures: no restarts, Young's interval is infinite and nothing is lost.
  const reliability_estimate none = reliability_for(with_rate(0.0), 4096, 1.0 * units::d, ckpt);
  CHECK(none.ettr == 1.0);
  CHECK(none.interruptions == 0.0);
  CHECK(none.wall.value == none.productive.value);
}

TEST_CASE("The reliability model is constexpr and checks its inputs", "[reliability]") {
  constexpr reliability_estimate e =
      reliability_for(reliability_assumptions{}, 8, 1.0 * units::d, 1.12e11 * units::B);
  static_assert(e.ettr > 0.99 && e.ettr <= 1.0);
  static_assert(e.interruptions > 0.0 && e.interruptions < 0.01);
  // the compile-time square root agrees with the run-time one
  const reliability_estimate r =
      reliability_for(reliability_assumptions{}, 8, 1.0 * units::d, 1.12e11 * units::B);
  CHECK(e.checkpoint_interval.value == Approx(r.checkpoint_interval.value).epsilon(1e-14));

  auto fails_with = [](const reliability_assumptions& a, const char* field) {
    try {
      (void)reliability_for(a, 8, 1.0 * units::d, 1e9 * units::B);
    } catch (const invalid_input& ex) {
      return std::string(ex.what()).find(field) != std::string::npos;
    }
    return false;
  };
  CHECK(fails_with(with_rate(-1e-3), "failures_per_node_day"));
  CHECK(fails_with(with_rate(std::nan("")), "failures_per_node_day"));
  reliability_assumptions a;
  a.gpus_per_node = 0;
  CHECK(fails_with(a, "gpus_per_node"));
  a = {};
  a.restart = -1.0 * units::s;
  CHECK(fails_with(a, "restart"));
  a = {};
  a.checkpoint_interval = duration::from_base(std::nan(""));
  CHECK(fails_with(a, "checkpoint_interval"));
  a = {};
  a.checkpoint_write = -2.0 * units::s;
  CHECK(fails_with(a, "checkpoint_write"));
  a = {};
  a.storage_write_per_gpu = bandwidth{};
  CHECK(fails_with(a, "storage_write_per_gpu"));
  // failures faster than a restart plus half an interval: no productive time, said so
  a = with_rate(1.0);  // one failure per node-day: a 1,024-GPU job fails every 11 minutes
  a.checkpoint_interval = 1.0 * units::h;
  CHECK_THROWS_WITH(reliability_for(a, 1024, 1.0 * units::d, 1e9 * units::B),
                    Catch::Contains("no productive time"));
  // ... which estimate_reliability reports instead, for callers weighing many sizes
  const reliability_estimate none = estimate_reliability(a, 1024, 1.0 * units::d, 1e9 * units::B);
  CHECK_FALSE(none.feasible);
  CHECK(none.ettr == 0.0);
  CHECK_FALSE(detail::finite(none.wall.value));
  // the same job on 8 GPUs fails once a day and makes progress
  const reliability_estimate small = estimate_reliability(a, 8, 1.0 * units::d, 1e9 * units::B);
  CHECK(small.feasible);
  CHECK(small.ettr > 0.0);
  CHECK(small.wall.value == reliability_for(a, 8, 1.0 * units::d, 1e9 * units::B).wall.value);
  // without checkpoint cost (an optimum of 0): only the restart is lost; a job failing more
  // often than it restarts is infeasible too
  a = with_rate(1.0);
  a.checkpoint_write = 1e-30 * units::s;
  a.restart = 10.0 * units::minute;
  CHECK_FALSE(estimate_reliability(a, 1024 * 8, 1.0 * units::d, 1e9 * units::B).feasible);
}

TEST_CASE("A modelled training run reserves its steady state / ETTR", "[reliability][cost]") {
  training_plan p;
  p.model = cat::llama31_8b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 8, .zero = 1};
  p.config.micro_batch = 1;
  p.config.seq = 8192;
  p.config.global_batch = 64;
  const token_count tokens = 1e10 * units::token;
  const modelled_training_run m = modelled_training(p, tokens);
  // bf16 AdamW with an fp32 master copy: 2 + 4 + 8 bytes per parameter
  CHECK(m.checkpoint.in(units::B) == Approx(cat::llama31_8b.parameters() * 14).epsilon(1e-12));
  CHECK(m.wall.in(units::s) == Approx(time_to_train(p, tokens).in(units::s)).epsilon(1e-12));
  REQUIRE(m.reliability.enabled);
  CHECK(m.reliability.ettr < 1.0);
  CHECK(m.reserved_wall.value == Approx(m.wall.value / m.reliability.ettr).epsilon(1e-12));
  CHECK(m.usage.gpu_time.value == Approx(8 * m.reserved_wall.value).epsilon(1e-12));
  // one node: a node-day rate of 3.79e-3 is an MTTF of 264 days
  CHECK(m.reliability.mttf.in(units::d) == Approx(54.0 * 2048 / 419).epsilon(1e-12));

  // switched off, the run reserves its steady state: the step model's GPU-hours
  const modelled_training_run off = modelled_training(p, tokens, {.enabled = false});
  CHECK(off.reserved_wall.value == off.wall.value);
  CHECK(off.usage.gpu_time.in(units::h) ==
        Approx(gpu_time_to_train(p, tokens).in(units::h)).epsilon(1e-12));

  // priced over the reserved hours
  run_cost_inputs in{.price_per_gpu_hour = 2.0 * units::usd_per_h,
                     .power_per_gpu = 1000 * units::W};
  CHECK(price_training_run(p, tokens, in).cost.in(units::usd) ==
        Approx(2.0 * m.usage.gpu_time.in(units::h)).epsilon(1e-12));
  CHECK(price_training_run(p, tokens, in, {.enabled = false}).cost.in(units::usd) ==
        Approx(2.0 * off.usage.gpu_time.in(units::h)).epsilon(1e-12));
}

TEST_CASE("BLOOM's checkpoints every 100 steps cost it under 2% of its time", "[reliability]") {
  // BLOOM (tr11-176B-ml README): a checkpoint every 100 iterations (--save-interval 100) of
  // 104.7 s; 48 nodes. Not a reproduction: BLOOM's published 1,082,990 GPU-hours (Luccioni et
  // al. 2022) are 117.5 days of 384 GPUs, about 11% above its steady state, and the failures
  // and checkpoints of the defaults explain under 2 points of it (docs/models/cost.md).
  const training_plan p = test::bloom_plan();
  reliability_assumptions a;
  a.checkpoint_interval = 100 * 104.7 * units::s;
  const reliability_estimate e = reliability_for(a, 384, 106.0 * units::d, checkpoint_size(p));
  CHECK(e.ettr > 0.97);
  CHECK(e.ettr < 0.99);
  CHECK(e.mttf.in(units::d) == Approx(54.0 * 2048 / 419 / 48).epsilon(1e-12));
}
