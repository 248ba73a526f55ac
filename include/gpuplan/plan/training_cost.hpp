// gpuplan/plan/training_cost.hpp: the price, energy and carbon of a modelled training run.
//
// The step-time model (models/training_step.hpp) gives the run's steady-state wall time for a
// token budget. A real run reserves more: failures stop it (a restart, and the work since the last
// checkpoint is lost) and checkpoints pause it. The reliability model (models/reliability.hpp)
// turns the steady-state time into the expected reserved time, steady state / ETTR; it is on by
// default (reliability_assumptions{}) and `reliability_assumptions{.enabled = false}` prices the
// steady state alone. The run uses every GPU of the layout for all of its reserved time, so its
// GPU-time is GPUs x reserved wall time, and price_run (plan/cost.hpp) turns that into money
// (GPU-hours x price per GPU-hour), energy (GPU-hours x power per GPU x PUE, or the node power
// model) and carbon. The energy charges the reserved hours at the run's power: restarts and
// checkpoint writes draw less than training (a known overestimate, docs/models/cost.md).
#pragma once

#include <gpuplan/models/reliability.hpp>
#include <gpuplan/models/training_memory.hpp>
#include <gpuplan/models/training_step.hpp>
#include <gpuplan/plan/cost.hpp>

namespace gpuplan {

/// What the step-time model and the reliability model say a training run uses.
struct modelled_training_run {
  run_usage usage{};          ///< the node's GPU, GPUs x reserved wall time, the layout's GPUs
  duration wall{};            ///< steady state: time_to_train, whole steps, the last rounded up
  duration reserved_wall{};   ///< expected wall time with failures and checkpoints: wall / ETTR
  token_count tokens{};       ///< the budget
  token_rate tokens_per_s{};  ///< throughput of the whole cluster
  duration step{};            ///< one step of the global batch
  int nodes = 0;              ///< nodes the layout occupies
  double mfu = 0.0;           ///< model FLOPs utilisation of the step
  data_size checkpoint{};     ///< bytes of one checkpoint (checkpoint_size)
  reliability_estimate reliability{};  ///< ETTR, MTTF, interruptions, checkpoint interval
};

/// Bytes of one checkpoint of plan `p`: every parameter's weights as stored (fp8 training keeps
/// bf16 weights), its fp32 master copy when there is one, and its optimizer states, as the memory
/// models count them (detail::hf_regime_of's bytes; torch.optim's states in the parameters'
/// dtype under transformers without a master copy): 2 + 4 + 8 = 14 bytes per parameter for bf16
/// AdamW, as Megatron-LM and DeepSpeed save them. Gradients are not saved.
constexpr data_size checkpoint_size(const training_plan& p, const memory_assumptions& a = {}) {
  const training_config& c = p.config;
  const detail::hf_regime r = detail::hf_regime_of(c);
  const double state_scale =
      c.framework == framework_kind::transformers && c.optimizer != optimizer_kind::adamw8bit
          ? r.state_scale
          : 1.0;
  const double states = detail::optimizer_state_bytes(c.optimizer, a) * state_scale;
  return p.model.parameters() * (r.param + r.master + states) * units::B;
}

namespace detail {
/// modelled_training without its refusal: a run whose failures leave it no progress comes back
/// with reliability.feasible false (reserved wall and usage infinite), for a caller that names
/// its own error (plan/training_run.hpp).
constexpr modelled_training_run estimate_modelled_training(const training_plan& p,
                                                           token_count tokens,
                                                           const reliability_assumptions& rel) {
  const step_breakdown b = estimate_step(p);
  modelled_training_run r;
  r.wall = time_to_train(p, tokens);
  r.checkpoint = checkpoint_size(p);
  r.reliability = estimate_reliability(rel, p.layout.gpus(), r.wall, r.checkpoint);
  r.reserved_wall = r.reliability.wall;
  r.usage = run_usage::of(p.node.gpu, p.layout.gpus(), r.reserved_wall);
  r.tokens = tokens;
  r.tokens_per_s = b.tokens_per_s;
  r.step = b.total;
  r.nodes = b.nodes;
  r.mfu = b.mfu;
  return r;
}
}  // namespace detail

/// The usage of training `p` on `tokens` tokens: the step-time model's steady state, and the
/// reserved time the reliability assumptions `rel` give it. Throws invalid_input when failures
/// leave the run no progress (reliability_for).
constexpr modelled_training_run modelled_training(const training_plan& p, token_count tokens,
                                                  const reliability_assumptions& rel = {}) {
  const modelled_training_run r = detail::estimate_modelled_training(p, tokens, rel);
  detail::require_feasible(r.reliability);
  return r;
}

/// Prices the modelled run `m` of plan `p` over its reserved time: the plan's node replaces
/// in.node (the power model then sees the server the step-time model ran on). For a caller that
/// already holds the run (the training-run and cost reports).
constexpr run_cost_report price_training_run(const training_plan& p,
                                             const modelled_training_run& m, run_cost_inputs in) {
  in.node = p.node;
  return price_run(m.usage, in);
}

/// Prices a modelled training run (modelled_training of `p` on `tokens` under `rel`) over its
/// reserved time, as above.
constexpr run_cost_report price_training_run(const training_plan& p, token_count tokens,
                                             run_cost_inputs in,
                                             const reliability_assumptions& rel = {}) {
  return price_training_run(p, modelled_training(p, tokens, rel), in);
}

}  // namespace gpuplan
