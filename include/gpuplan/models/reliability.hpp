// gpuplan/models/reliability.hpp: the time a training run loses to failures and checkpoints, so
// that the wall time a run reserves can be set beside the steady-state time of the step model.
//
// The mechanism is the first-order checkpoint/restart model of Young (1974) and Daly (2006), the
// one Kokolis et al. use for their expected effective training time ratio ("Revisiting Reliability
// in Large-Scale Machine Learning Research Clusters", arXiv:2410.21680, HPCA 2025, Sec. IV,
// "Analytical approximation of E[ETTR]"):
//
//   - a synchronous job stops when any of its nodes fails, so its failures arrive at
//     r_f x (node-equivalents) per day and its mean time to failure is M = 1 / (N_nodes r_f)
//     (Kokolis et al. Sec. IV, "MTTF decreases with scale": MTTF = (N_nodes r_f)^-1);
//   - every checkpoint interval tau of productive time pays one checkpoint write W;
//   - every failure costs the restart overhead R (detect, reschedule, reload the checkpoint, warm
//     up) plus the work done since the last checkpoint, tau / 2 on average.
//
// Over a wall time T with productive time P: T = P (1 + W / tau) + (T / M) (R + tau / 2), so
//
//   ETTR = P / T = (1 - (R + tau / 2) / M) / (1 + W / tau),
//
// and the interval that maximises it is sqrt(W^2 + 2 W (M - R)) - W, Young's sqrt(2 W M) to first
// order (young_daly_interval). Everything the model assumes is a field of reliability_assumptions.
#pragma once

#include <gpuplan/models/cmath.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

struct reliability_assumptions {
  /// false: the run reserves exactly its steady-state time (no failures, no checkpoints).
  bool enabled = true;

  /// Job-stopping failures per node and per day of a synchronous training job, counted on nodes of
  /// `gpus_per_node` GPUs. Default: Llama 3's 405B pre-training, 419 unexpected interruptions in a
  /// 54-day snapshot on 16,384 H100 GPUs = 2,048 nodes of 8 (Grattafiori et al., "The Llama 3
  /// Herd of Models", arXiv:2407.21783, Sec. 3.3.4 and Table 5, July 2024):
  /// 419 / (54 x 2,048) = 3.79 per 1,000 node-days. It lies between the two Meta A100 research
  /// clusters of Kokolis et al. (Sec. IV, jobs over 128 GPUs, 11 months to 2024): RSC-1 6.50 and
  /// RSC-2 2.34 per 1,000 node-days. The 47 planned interruptions of the same snapshot
  /// (maintenance, which stops after a checkpoint) are not counted.
  double failures_per_node_day = 419.0 / (54.0 * 2048.0);

  /// GPUs per node of the failure rate's measurement: Llama 3's Grand Teton servers and the RSC
  /// clusters' DGX A100 both hold 8 GPUs (Llama 3 Sec. 3.3.1; Kokolis et al. Sec. II-B). A job of
  /// G GPUs is G / gpus_per_node node-equivalents whatever its own servers hold.
  int gpus_per_node = 8;

  /// Time from a failure to training again, besides the lost work: detection, rescheduling,
  /// process start, checkpoint load and warm-up. ESTIMATE: 10 min, the middle of the 5-20 min
  /// Kokolis et al. give for the RSC clusters' initialisation u_0 (Sec. IV, "Analytical
  /// approximation of E[ETTR]"); their comparison with measured jobs (Fig. 9) used 5 min.
  duration restart = 10.0 * units::minute;

  /// Productive time between checkpoints; 0: the optimum of the model, young_daly_interval, Young's
  /// sqrt(2 x checkpoint_write x MTTF) to first order (Young, "A first order approximation to the
  /// optimum checkpoint interval", CACM 17(9), 1974).
  duration checkpoint_interval{};

  /// Time one checkpoint stops training; 0: derived as the checkpoint's bytes over
  /// storage_write_per_gpu x the job's GPUs (reliability_for's `checkpoint`).
  duration checkpoint_write{};

  /// Storage write bandwidth per GPU of the job, for a checkpoint_write derived from its bytes.
  /// Default: Llama 3's Tectonic file system sustains 2 TB/s (peak 7 TB/s) for the 16,384-GPU run
  /// (Llama 3 Sec. 3.3.1): 2 TB/s / 16,384 = 122 MB/s per GPU, about 1 GB/s per 8-GPU node.
  bandwidth storage_write_per_gpu = 2.0 * units::TBps / 16384.0;

  /// Throws gpuplan::invalid_input naming the field (a compile error in a constant expression).
  constexpr void validate() const {
    detail::check_input(detail::finite_nonnegative(failures_per_node_day),
                        "reliability_assumptions.failures_per_node_day must be finite and not "
                        "negative",
                        failures_per_node_day);
    detail::check_input(gpus_per_node >= 1,
                        "reliability_assumptions.gpus_per_node must be at least 1", gpus_per_node);
    detail::check_input(detail::finite_nonnegative(restart.value),
                        "reliability_assumptions.restart must be finite and not negative",
                        restart.value);
    detail::check_input(detail::finite_nonnegative(checkpoint_interval.value),
                        "reliability_assumptions.checkpoint_interval must be finite and not "
                        "negative (0: Young's optimum)",
                        checkpoint_interval.value);
    detail::check_input(detail::finite_nonnegative(checkpoint_write.value),
                        "reliability_assumptions.checkpoint_write must be finite and not negative "
                        "(0: from the checkpoint's bytes)",
                        checkpoint_write.value);
    detail::check_input(detail::finite_positive(storage_write_per_gpu.value),
                        "reliability_assumptions.storage_write_per_gpu must be finite and positive",
                        storage_write_per_gpu.value);
  }
};

/// Mean time to failure of a synchronous job of `gpus` GPUs: 1 / (gpus / gpus_per_node x
/// failures_per_node_day); infinite when the rate is 0.
constexpr duration job_mttf(const reliability_assumptions& a, double gpus) {
  a.validate();
  detail::check_input(detail::finite_positive(gpus), "job_mttf: gpus must be positive", gpus);
  const double per_day = a.failures_per_node_day * gpus / a.gpus_per_node;
  if (per_day == 0.0) return duration::from_base(__builtin_huge_val());
  return (1.0 / per_day) * units::d;
}

/// The checkpoint interval that maximises the first-order ETTR below:
/// tau = sqrt(W^2 + 2 W (M - R)) - W (setting d ETTR / d tau = 0). To first order in W / M and
/// R / M it is Young's sqrt(2 W M) (Young, CACM 17(9), 1974), and with R = 0 it is Daly's higher
/// order sqrt(2 W M) - W up to a W^2 term (Daly, "A higher order estimate of the optimum
/// checkpoint interval for restart dumps", FGCS 22(3), 2006). Infinite when M is (no failures); 0
/// when W is, or when M <= R (then no interval helps).
constexpr duration young_daly_interval(duration checkpoint_write, duration restart,
                                       duration mttf) {
  detail::check_input(detail::finite_nonnegative(checkpoint_write.value),
                      "young_daly_interval: checkpoint_write must be finite and not negative",
                      checkpoint_write.value);
  detail::check_input(detail::finite_nonnegative(restart.value),
                      "young_daly_interval: restart must be finite and not negative",
                      restart.value);
  detail::check_input(mttf.value > 0.0, "young_daly_interval: mttf must be positive", mttf.value);
  if (!detail::finite(mttf.value)) return mttf;
  const double w = checkpoint_write.value, spare = mttf.value - restart.value;
  if (!(spare > 0.0) || w == 0.0) return duration{};
  // sqrt(W^2 + 2 W S) - W written as 2 W S / (sqrt(W^2 + 2 W S) + W): no cancellation when W is
  // small against S, and no overflow of W^2 for a huge W (the root taken of W (W + 2 S))
  const double root = detail::csqrt(w) * detail::csqrt(w + 2.0 * spare);
  return duration::from_base(2.0 * w * spare / (root + w));
}

namespace detail {
/// The first-order ETTR, (1 - (restart + interval / 2) / mttf) / (1 + write / interval), without
/// its checks; computed directly (not as 1 - a lost fraction, which rounds a tiny ETTR to 0).
constexpr double first_order_ettr(double interval, double write, double restart, double mttf) {
  const double failures = finite(mttf) ? (restart + 0.5 * interval) / mttf : 0.0;
  const double writes = finite(interval) && interval > 0.0 ? write / interval : 0.0;
  return (1.0 - failures) / (1.0 + writes);
}
}  // namespace detail

/// Expected effective training time ratio (productive time / wall time) of the first-order model:
/// (1 - (restart + interval / 2) / mttf) / (1 + write / interval). An infinite interval writes no
/// checkpoint (valid only without failures). Throws invalid_input when the failures leave no
/// productive time (restart + interval / 2 >= mttf), where the first-order model does not hold.
constexpr double expected_ettr(duration interval, duration write, duration restart,
                               duration mttf) {
  detail::check_input(interval.value > 0.0 && interval.value == interval.value,
                      "expected_ettr: the checkpoint interval must be positive", interval.value);
  detail::check_input(detail::finite_nonnegative(write.value),
                      "expected_ettr: the checkpoint write must be finite and not negative",
                      write.value);
  detail::check_input(detail::finite_nonnegative(restart.value),
                      "expected_ettr: the restart must be finite and not negative", restart.value);
  detail::check_input(mttf.value > 0.0, "expected_ettr: the MTTF must be positive", mttf.value);
  if (detail::finite(mttf.value)) {
    detail::check_input(detail::finite(interval.value),
                        "expected_ettr: a job that fails needs a finite checkpoint interval",
                        interval.value);
    detail::check_input(restart.value + 0.5 * interval.value < mttf.value,
                        "reliability: the job's MTTF is shorter than a restart plus half a checkpoint "
                        "interval, which leaves no productive time in the first-order model; "
                        "checkpoint more often or restart faster (MTTF, restart, interval in s)",
                        mttf.value, restart.value, interval.value);
  }
  return detail::first_order_ettr(interval.value, write.value, restart.value, mttf.value);
}

/// What the reliability model says of one run.
struct reliability_estimate {
  bool enabled = false;           ///< false: everything below is the steady state (ETTR 1)
  double node_equivalents = 0.0;  ///< the job's GPUs / gpus_per_node
  duration mttf{};                ///< the job's mean time to failure (infinite without failures)
  duration checkpoint_interval{};  ///< productive time between checkpoints (infinite: none)
  duration checkpoint_write{};     ///< time one checkpoint stops training
  duration restart{};              ///< per interruption, besides the lost work
  double ettr = 1.0;               ///< productive / wall
  duration productive{};           ///< the steady-state time (the step model's)
  duration wall{};                 ///< expected wall time reserved: productive / ettr
  double interruptions = 0.0;      ///< expected failures during `wall`: wall / mttf
  duration lost_to_failures{};     ///< interruptions x (restart + interval / 2)
  duration lost_to_checkpoints{};  ///< productive / interval x checkpoint_write
  /// false: the job fails faster than it restarts and redoes half an interval, which leaves no
  /// productive time in the first-order model (ETTR 0, wall infinite; estimate_reliability only:
  /// reliability_for throws instead)
  bool feasible = true;
};

/// The expected wall time of a run of `gpus` GPUs that computes for `productive` (the step
/// model's steady-state time), writing checkpoints of `checkpoint` bytes (used when
/// a.checkpoint_write is 0). With a.enabled false the run reserves its productive time. A job
/// that fails faster than it can make progress comes back with `feasible` false (ETTR 0, wall
/// infinite), for callers that weigh many sizes (the layout search, the deadline planner);
/// invalid inputs throw invalid_input naming the field.
constexpr reliability_estimate estimate_reliability(const reliability_assumptions& a, int gpus,
                                                    duration productive, data_size checkpoint) {
  a.validate();
  detail::check_input(gpus >= 1, "reliability: gpus must be at least 1", gpus);
  detail::check_input(detail::finite_nonnegative(productive.value),
                      "reliability: the productive time must be finite and not negative",
                      productive.value);
  detail::check_input(detail::finite_nonnegative(checkpoint.value),
                      "reliability: the checkpoint size must be finite and not negative",
                      checkpoint.value);
  reliability_estimate e;
  e.productive = productive;
  e.wall = productive;
  e.node_equivalents = 1.0 * gpus / a.gpus_per_node;
  e.mttf = duration::from_base(__builtin_huge_val());
  e.checkpoint_interval = duration::from_base(__builtin_huge_val());
  if (!a.enabled) return e;
  e.enabled = true;
  e.restart = a.restart;
  e.mttf = job_mttf(a, gpus);
  e.checkpoint_write = a.checkpoint_write.value > 0.0
                           ? a.checkpoint_write
                           : checkpoint / (a.storage_write_per_gpu * (1.0 * gpus));
  e.checkpoint_interval = a.checkpoint_interval.value > 0.0
                              ? a.checkpoint_interval
                              : young_daly_interval(e.checkpoint_write, a.restart, e.mttf);
  const bool fails = detail::finite(e.mttf.value);
  if (e.checkpoint_interval.value == 0.0) {
    // Writes that cost nothing and an optimum of 0: checkpoint every step at no cost; the
    // first-order model's limit is a failure losing only the restart.
    e.checkpoint_interval = duration{};
    e.ettr = fails ? 1.0 - a.restart.value / e.mttf.value : 1.0;
  } else if (fails && !(a.restart.value + 0.5 * e.checkpoint_interval.value < e.mttf.value)) {
    e.ettr = 0.0;
  } else {
    e.ettr = expected_ettr(e.checkpoint_interval, e.checkpoint_write, a.restart, e.mttf);
  }
  if (!(e.ettr > 0.0)) {
    e.feasible = false;
    e.ettr = 0.0;
    e.wall = duration::from_base(__builtin_huge_val());
    return e;
  }
  e.wall = productive / e.ettr;
  if (detail::finite(e.mttf.value)) {
    e.interruptions = e.wall.value / e.mttf.value;
    e.lost_to_failures = e.interruptions * (a.restart + 0.5 * e.checkpoint_interval);
  }
  if (detail::finite(e.checkpoint_interval.value) && e.checkpoint_interval.value > 0.0)
    e.lost_to_checkpoints = (productive.value / e.checkpoint_interval.value) * e.checkpoint_write;
  return e;
}

/// estimate_reliability for one run: a job that fails faster than it can make progress throws
/// invalid_input (checkpoint more often, restart faster, or use fewer GPUs).
namespace detail {
/// Throws invalid_input when the estimate `e` leaves the job no productive time.
constexpr void require_feasible(const reliability_estimate& e) {
  check_input(e.feasible,
              "reliability: the job's MTTF is shorter than a restart plus half a "
              "checkpoint interval, which leaves no productive time in the first-order "
              "model; checkpoint more often, restart faster or use fewer GPUs (MTTF, "
              "restart, interval in s)",
              e.mttf.value, e.restart.value, e.checkpoint_interval.value);
}
}  // namespace detail

constexpr reliability_estimate reliability_for(const reliability_assumptions& a, int gpus,
                                               duration productive, data_size checkpoint) {
  const reliability_estimate e = estimate_reliability(a, gpus, productive, checkpoint);
  detail::require_feasible(e);
  return e;
}

}  // namespace gpuplan
