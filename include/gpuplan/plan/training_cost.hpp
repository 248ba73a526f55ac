// gpuplan/plan/training_cost.hpp: the price, energy and carbon of a modelled training run.
//
// The step-time model (models/training_step.hpp) gives the run's wall time for a token budget;
// the run uses every GPU of the layout for all of it, so its GPU-time is GPUs x wall time, and
// price_run (plan/cost.hpp) turns that into money (GPU-hours x price per GPU-hour), energy
// (GPU-hours x power per GPU x PUE, or the node power model) and carbon. Nothing here adds a
// factor of its own: the run is priced exactly as a given usage of the same GPU-hours.
#pragma once

#include <gpuplan/models/training_step.hpp>
#include <gpuplan/plan/cost.hpp>

namespace gpuplan {

/// What the step-time model says a training run uses.
struct modelled_training_run {
  run_usage usage{};         ///< the node's GPU, GPUs x wall time, the layout's GPU count
  duration wall{};           ///< time_to_train: whole steps, the last rounded up
  token_count tokens{};      ///< the budget
  token_rate tokens_per_s{};  ///< throughput of the whole cluster
  duration step{};           ///< one step of the global batch
  int nodes = 0;             ///< nodes the layout occupies
  double mfu = 0.0;          ///< model FLOPs utilisation of the step
};

/// The usage of training `p` on `tokens` tokens, from the step-time model.
constexpr modelled_training_run modelled_training(const training_plan& p, token_count tokens) {
  const step_breakdown b = estimate_step(p);
  modelled_training_run r;
  r.wall = time_to_train(p, tokens);
  r.usage = run_usage::of(p.node.gpu, p.layout.gpus(), r.wall);
  r.tokens = tokens;
  r.tokens_per_s = b.tokens_per_s;
  r.step = b.total;
  r.nodes = b.nodes;
  r.mfu = b.mfu;
  return r;
}

/// Prices a modelled training run: the run's node replaces in.node (the power model then sees the
/// server the step-time model ran on).
constexpr run_cost_report price_training_run(const training_plan& p, token_count tokens,
                                             run_cost_inputs in) {
  in.node = p.node;
  return price_run(modelled_training(p, tokens).usage, in);
}

}  // namespace gpuplan
