// gpuplan/plan/training_capacity.hpp: the GPUs a training run needs to meet a deadline, from a
// measured per-GPU rate (plan_training_capacity) or from the training step-time model with the
// data-parallel degree scaled as the scaling curve scales it and the failures of the reliability
// model (plan_training_gpus). Serving capacity, replicas at a wait SLO, is plan/capacity.hpp's.
#pragma once

#include <gpuplan/models/reliability.hpp>
#include <gpuplan/models/scaling.hpp>
#include <gpuplan/models/training_step.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

// ---- training capacity ---------------------------------------------------------------------------

struct training_capacity_assumptions {
  /// plan_training_capacity only (it has a per-GPU rate, not a plan to model failures on): share
  /// of wall-clock time spent making training progress (the rest: failures, restarts,
  /// checkpoints, evaluation). Meta reports "higher than 90% effective training time" for Llama 3
  /// 405B on 16K H100s (Llama Team, "The Llama 3 Herd of Models", 2024, sec. 3.3.4).
  double goodput = 0.90;
  /// plan_training_gpus: the failures and checkpoints of the run at each GPU count
  /// (models/reliability.hpp, as `gpuplan cost` prices a run): larger jobs fail more often.
  reliability_assumptions reliability{};
  /// Round the GPU count up to a multiple of this (whole nodes; 8 GPUs per HGX node).
  int gpu_multiple = 8;
};

struct training_capacity {
  int gpus = 0;                 ///< rounded up to a multiple of gpu_multiple
  double exact_gpus = 0;        ///< before rounding
  duration time_to_train{};     ///< with `gpus` GPUs, goodput included
  token_rate cluster_rate{};    ///< gpus x per-GPU rate
};

namespace detail {
/// The checks both training-capacity planners make of their target.
constexpr void check_training_target(token_count tokens, duration deadline) {
  check_input(tokens.value > 0.0 && is_finite(tokens),
              "training capacity: tokens must be positive and finite");
  check_input(deadline.value > 0.0 && is_finite(deadline),
              "training capacity: deadline must be positive and finite");
}
}  // namespace detail

/// GPUs needed to train `tokens` within `deadline`, given the tokens/s one GPU achieves in the
/// target configuration (from the training model or a measurement at that scale: the per-GPU
/// rate already carries the parallel efficiency at that size).
constexpr training_capacity plan_training_capacity(token_count tokens, duration deadline,
                                                   token_rate per_gpu,
                                                   const training_capacity_assumptions& a = {}) {
  detail::check_training_target(tokens, deadline);
  detail::check_input(a.goodput > 0.0 && a.goodput <= 1.0,
                      "training_capacity_assumptions.goodput must be in (0, 1]");
  detail::check_input(per_gpu.value > 0.0 && is_finite(per_gpu),
                      "training capacity: per-GPU throughput must be positive and finite");
  detail::check_input(a.gpu_multiple >= 1,
                      "training_capacity_assumptions.gpu_multiple must be at least 1",
                      a.gpu_multiple);
  training_capacity r{};
  r.exact_gpus = tokens / (per_gpu * deadline * a.goodput);
  const long long whole = static_cast<long long>(r.exact_gpus);
  long long n = static_cast<double>(whole) < r.exact_gpus ? whole + 1 : whole;
  n = (n + a.gpu_multiple - 1) / a.gpu_multiple * a.gpu_multiple;
  detail::check_input(n <= 100000000, "training capacity: more than 1e8 GPUs needed");
  r.gpus = static_cast<int>(n);
  r.cluster_rate = per_gpu * static_cast<double>(n);
  r.time_to_train = tokens / (r.cluster_rate * a.goodput);
  return r;
}

/// The smallest data-parallel degree of `base` (its tp x pp x cp kept) whose modelled time to
/// train `tokens`, with the failures and checkpoints of the reliability model, meets `deadline`.
struct training_gpus {
  bool met = false;       ///< false: no dp up to max_gpus meets it (the fastest tried is reported)
  int gpus = 0;           ///< dp x tp x pp x cp
  int dp = 0;
  int nodes = 0;          ///< whole servers of base.node
  int global_batch = 0;
  duration wall_time{};   ///< time_to_train / ETTR (reliability_for)
  reliability_estimate reliability{};  ///< ETTR, MTTF, interruptions at that count
  token_rate tokens_per_s{};
  double mfu = 0.0;
  training_plan plan{};   ///< the plan at that dp
};

/// GPUs needed to train `tokens` by `deadline` with the training step-time model
/// (models/training_step.hpp), the data-parallel degree scaled as the scaling curve scales it
/// (models/scaling.hpp: scale_plan). Strong (default): the global batch stays the plan's, so dp
/// runs over its divisors; weak: the batch grows with dp. Wall time = time_to_train / ETTR, the
/// reliability model's expected reserved time (a.reliability; its failures grow with the GPUs).
/// The per-GPU throughput is assumed not to rise with dp (it falls with communication and
/// bubbles), so the first dp meeting the deadline is the smallest; weak scaling is searched by
/// doubling and then bisection, which also assumes the wall time falls as dp grows. With the
/// reliability model it rises again past the size where failures dominate: a window of counts
/// meeting the deadline narrower than a doubling step can be missed (reported not met).
constexpr training_gpus plan_training_gpus(const training_plan& base, token_count tokens,
                                           duration deadline,
                                           scaling_mode mode = scaling_mode::strong,
                                           const training_capacity_assumptions& a = {},
                                           int max_gpus = 1000000) {
  detail::check_training_target(tokens, deadline);
  a.reliability.validate();
  detail::check_input(base.config.rampup_start == 0,
                      "training capacity: training_config.rampup_start must be 0 (the ramp's "
                      "batches are multiples of micro_batch x dp, which the planner varies)");
  base.layout.validate();  // tp, pp, cp at least 1: max_gpus is divided by their product below
  base.config.validate();  // a batch of at least 1: dp runs over its divisors below
  const int mp = base.layout.tp * base.layout.pp * base.layout.cp;
  detail::check_input(max_gpus >= mp, "training capacity: max_gpus below tp x pp x cp", max_gpus,
                      mp);
  int max_dp = max_gpus / mp;
  if (mode == scaling_mode::weak) {  // the weak-scaled batch must stay an int (scale_plan)
    const double batch_fits = max_global_batch * base.layout.dp / plan_global_batch(base);
    if (batch_fits < max_dp) max_dp = static_cast<int>(batch_fits);
  }
  training_gpus best{};
  auto eval = [&](int dp, training_gpus& out) {
    const scaled_plan sp = scale_plan(base, dp, mode);
    out.met = false;
    if (!sp.valid) return false;
    const step_breakdown b = estimate_step(sp.plan);
    out.plan = sp.plan;
    out.dp = dp;
    out.gpus = sp.plan.layout.gpus();
    out.nodes = plan_nodes(sp.plan);
    out.global_batch = sp.global_batch;
    // a count whose failures outpace its progress never finishes: infinite wall, not met
    out.reliability = estimate_reliability(a.reliability, out.gpus,
                                           time_to_train(sp.plan, tokens),
                                           checkpoint_size(sp.plan));
    out.wall_time = out.reliability.wall;
    out.tokens_per_s = b.tokens_per_s;
    out.mfu = b.mfu;
    out.met = !(out.wall_time > deadline);
    return true;
  };
  training_gpus t{};
  if (mode == scaling_mode::strong) {
    const int batch = plan_global_batch(base);
    for (int dp = 1; dp <= max_dp && dp <= batch; ++dp) {
      if (!eval(dp, t)) continue;
      if (best.dp == 0 || t.wall_time < best.wall_time) best = t;
      if (t.met) return t;
    }
    return best;
  }
  int lo = 0, hi = 1;  // lo: largest dp known to miss (0: none)
  while (true) {
    eval(hi, t);  // weak scaling keeps micro_batch x dp dividing the batch: always valid
    if (t.met) break;
    // the fastest miss: past some size failures outpace the gain (reliability model)
    if (best.dp == 0 || t.wall_time < best.wall_time) best = t;
    lo = hi;
    if (hi == max_dp) return best;
    hi = hi > max_dp / 2 ? max_dp : hi * 2;
  }
  best = t;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    eval(mid, t);
    if (t.met) {
      hi = mid;
      best = t;
    } else {
      lo = mid;
    }
  }
  return best;
}

}  // namespace gpuplan
