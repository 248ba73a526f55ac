// gpuplan/plan/training_run.hpp: the training-run report `gpuplan train` prints, by one call.
//
// A training run is a plan (model, node, layout, configuration; models/training_step.hpp) and,
// optionally, a token budget. plan_training_run composes what the library says about it:
//   - the step: the step-time model's breakdown (estimate_step), MFU, bottleneck;
//   - the memory verdict: the fit's rule (plan/training_verdict.hpp training_verdict) on the
//     plan's GPU;
//   - with a budget: the steady-state time and GPU-time to train it, its FLOPs, and the reserved
//     time with failures and checkpoints (models/reliability.hpp, plan/training_cost.hpp);
//   - with prices: the run priced over its reserved time (plan/training_cost.hpp
//     price_training_run);
//   - with a sweep: the scaling curve (models/scaling.hpp) and each point's memory verdict;
//   - with a deadline: the fewest GPUs that train the budget within it (plan/training_capacity.hpp
//     plan_training_gpus) and that size's memory verdict;
//   - the estimate notes (models/estimates.hpp) of the plan's GPU.
// Its JSON is io/training_run_json.hpp (`gpuplan train --json`, docs/json-schema.md).
//
// Also here: the node a training run on a GPU runs on when only the GPU is given
// (training_node_for), the rule `gpuplan train`, `cost` and `search` apply.
//
// Not pulled in by the umbrella <gpuplan/gpuplan.hpp> (a composition of the plan headers, for the
// command-line tool and programs that want its reports; it would only add to every user's compile
// time): include it by name.
#pragma once

#include <gpuplan/catalog/nodes.hpp>
#include <gpuplan/models/estimates.hpp>
#include <gpuplan/models/reliability.hpp>
#include <gpuplan/models/scaling.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/models/training_step.hpp>
#include <gpuplan/plan/training_capacity.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/training_verdict.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <gpuplan/specs/error.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace gpuplan {

/// The node a training run of `gpus` GPUs of type `gpu` runs on when no node is given: the
/// catalog server carrying the GPU (catalog::node_carrying), else, for one GPU, the GPU alone
/// (models/serving.hpp single_gpu_node of one GPU: no peers, so its fabric carries nothing);
/// none (nullopt) for more GPUs than one of a GPU no catalog server carries: the step-time model
/// needs the node's NVLink and NICs, which only a node spec gives.
constexpr std::optional<node_spec> training_node_for(const gpu_spec& gpu, int gpus) {
  if (const node_spec* n = catalog::node_carrying(gpu)) return *n;
  if (gpus == 1) return single_gpu_node(gpu, 1);
  return std::nullopt;
}

/// A scaling sweep: throughput from `from_gpus` to `to_gpus` GPUs, the data-parallel degree
/// doubled each point (models/scaling.hpp scaling).
struct training_sweep {
  int from_gpus = 0;
  int to_gpus = 0;
  scaling_mode mode = scaling_mode::strong;
};

/// A deadline: the fewest GPUs that train the budget within `within` (plan_training_gpus).
struct training_deadline {
  duration within{};
  scaling_mode mode = scaling_mode::strong;
};

/// What plan_training_run reads.
struct training_run_inputs {
  training_plan plan{};
  /// The token budget; without it the report has the step alone (no budget, cost or deadline).
  std::optional<token_count> tokens{};
  /// Failures and checkpoints over the run (on by default; {.enabled = false}: steady state).
  reliability_assumptions reliability{};
  /// The memory model's overheads, for every memory verdict of the report.
  memory_assumptions memory{};
  std::optional<training_sweep> scaling{};
  /// Needs tokens. The run's reliability assumptions apply at each GPU count tried.
  std::optional<training_deadline> deadline{};
  /// Needs tokens: the run priced over its reserved time (the plan's node replaces pricing.node).
  std::optional<run_cost_inputs> pricing{};
};

/// The budget's part of the report.
struct training_budget_report {
  token_count tokens{};
  budget_flops flops{};        ///< model (no recompute), hardware (with it), 6ND
  /// Steady-state wall (run.wall: time_to_train), reserved wall and GPU-time, reliability
  /// estimate.
  modelled_training_run run{};
  reliability_assumptions assumptions{};  ///< the failures and checkpoints assumed

  /// time_to_train: whole steps, no failures.
  [[nodiscard]] constexpr duration steady_wall() const { return run.wall; }
  /// gpu_time_to_train: the layout's GPUs x steady_wall().
  [[nodiscard]] constexpr duration steady_gpu_time() const {
    return (1.0 * run.usage.gpus) * run.wall;
  }
};

/// The sweep's part: the curve and, for each of its points with a plan, that plan's verdict.
struct training_scaling_report {
  scaling_curve curve{};
  /// One per point of the curve; none for a point scale_plan marks invalid (its batch does not
  /// divide: no plan whose memory the framework model can evaluate).
  std::vector<std::optional<training_memory_verdict>> memory{};
  /// Whether any point of the curve is valid (has a step time).
  [[nodiscard]] bool any_valid() const {
    for (const scaling_point& p : curve)
      if (p.valid) return true;
    return false;
  }
};

/// The deadline's part: the answer and the memory verdict of the plan at that size.
struct training_deadline_report {
  duration deadline{};
  training_gpus answer{};
  /// The verdict of answer.plan; none when no GPU count was tried (answer.gpus 0).
  std::optional<training_memory_verdict> memory{};
};

/// The training-run report (`gpuplan train`).
struct training_run_report {
  training_plan plan{};
  step_breakdown step{};
  training_memory_verdict memory{};  ///< the plan's (a plan that does not fit is still timed)
  std::optional<training_budget_report> budget{};
  std::optional<run_cost_report> cost{};
  std::optional<training_scaling_report> scaling{};
  std::optional<training_deadline_report> deadline{};
  estimate_notes estimates{};  ///< what of the plan's GPU is estimated, not published

  /// The plan fits, and so does the size a deadline answers with (`--require-fit`).
  [[nodiscard]] bool fits() const {
    return memory.fits() && (!deadline || !deadline->memory || deadline->memory->fits());
  }
};

/// Thrown by plan_training_run when the run's GPUs fail faster than it can make progress (the
/// reliability model's MTTF below a restart plus half a checkpoint interval): the estimate says
/// by how much, so a caller can name its own inputs.
class infeasible_training_run : public invalid_input {
 public:
  infeasible_training_run(const reliability_estimate& e, int gpus_) noexcept
      : invalid_input("training run: the job's MTTF is shorter than a restart plus half a "
                      "checkpoint interval, which leaves no productive time; checkpoint more "
                      "often, restart faster or use fewer GPUs (GPUs, MTTF, restart, interval in "
                      "s): "),
        estimate(e),
        gpus(gpus_) {
    append(static_cast<double>(gpus_)).append(", ").append(e.mttf.value).append(", ");
    append(e.restart.value).append(", ").append(e.checkpoint_interval.value);
  }
  reliability_estimate estimate;
  int gpus = 0;
};

/// The memory verdict of a training plan: the fit's rule (plan/training_verdict.hpp
/// training_verdict) on its node's GPU, as `gpuplan fit` and the search apply it.
constexpr training_memory_verdict training_verdict(const training_plan& p,
                                                   const memory_assumptions& a = {}) {
  return training_verdict(p.model, p.node.gpu, p.layout, p.config, a);
}

namespace detail {

/// The budget's part; throws infeasible_training_run when failures leave no progress.
inline training_budget_report training_budget_of(const training_plan& p, token_count tokens,
                                                 const reliability_assumptions& rel) {
  training_budget_report b;
  b.tokens = tokens;
  b.run = estimate_modelled_training(p, tokens, rel);  // the time to train and its estimate, once
  if (!b.run.reliability.feasible)
    throw infeasible_training_run(b.run.reliability, p.layout.gpus());
  b.flops = training_budget_flops(p, tokens);
  b.assumptions = rel;
  return b;
}

/// The sweep's part: the curve and each valid point's verdict (its plan as scale_plan builds
/// it: ZeRO shards over that data-parallel degree).
template <class OnPoint>
training_scaling_report training_scaling_of(const training_plan& p, const training_sweep& s,
                                            const memory_assumptions& a, OnPoint& on_point) {
  training_scaling_report r;
  r.curve = scaling(p, s.from_gpus, s.to_gpus, s.mode, on_point);
  r.memory.reserve(r.curve.points.size());
  for (const scaling_point& pt : r.curve) {
    if (pt.valid) r.memory.emplace_back(training_verdict(scale_plan(p, pt.dp, s.mode).plan, a));
    else r.memory.emplace_back(std::nullopt);
  }
  return r;
}

/// The deadline's part: plan_training_gpus with the run's reliability assumptions.
inline training_deadline_report training_deadline_of(const training_plan& p, token_count tokens,
                                                     const training_deadline& d,
                                                     const reliability_assumptions& rel,
                                                     const memory_assumptions& memory) {
  training_capacity_assumptions a{};
  a.reliability = rel;  // failures and checkpoints at each GPU count
  training_deadline_report r;
  r.deadline = d.within;
  r.answer = plan_training_gpus(p, tokens, d.within, d.mode, a);
  if (r.answer.gpus > 0) r.memory = training_verdict(r.answer.plan, memory);
  return r;
}

}  // namespace detail

/// The training-run report of `in` (see the top of this header). `on_point(done, total)` is
/// called after each point of a scaling sweep (a progress bar). Throws invalid_input naming the
/// field on bad input (infeasible_training_run when failures leave the run no progress).
template <class OnPoint = detail::no_scaling_progress>
training_run_report plan_training_run(const training_run_inputs& in, OnPoint on_point = {}) {
  detail::check_input(in.tokens.has_value() || (!in.deadline && !in.pricing),
                      "training run: a deadline or prices need a token budget (tokens)");
  training_run_report r;
  r.plan = in.plan;
  r.step = estimate_step(in.plan);
  r.memory = training_verdict(in.plan, in.memory);
  if (in.tokens) r.budget = detail::training_budget_of(in.plan, *in.tokens, in.reliability);
  if (in.scaling) r.scaling = detail::training_scaling_of(in.plan, *in.scaling, in.memory, on_point);
  if (in.deadline)
    r.deadline = detail::training_deadline_of(in.plan, *in.tokens, *in.deadline, in.reliability,
                                              in.memory);
  if (in.pricing) r.cost = price_training_run(in.plan, r.budget->run, *in.pricing);
  r.estimates = step_estimates(in.plan);
  return r;
}

}  // namespace gpuplan
