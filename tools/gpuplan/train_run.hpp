// tools/gpuplan/train_run.hpp: a training run described by `gpuplan train`'s flags, shared by
// `gpuplan train` and `gpuplan cost` (which prices the run), so both read the same options the same
// way.
#pragma once

#include "fit_output.hpp"
#include "options.hpp"

#include <gpuplan/models/reliability.hpp>
#include <gpuplan/models/training_step.hpp>
#include <gpuplan/plan/fit.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <gpuplan/plan/training_run.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gpuplan::cli {

/// --tokens, --nodes, --fabric and the reliability model's flags (--failures-per-node-day,
/// --restart-minutes, --checkpoint-interval-hours, --checkpoint-write-seconds, --no-failures):
/// the run's own fields beside the shared groups.
std::span<const field> train_run_fields();

/// A training run: the model, the plan the step-time model reads, and the token budget.
struct run_description {
  model_choice model;
  training_plan plan;
  std::optional<token_count> tokens;
  std::string tokens_text;
  std::string framework_note;  ///< why the framework is what it is (settle_framework)
  /// With --power-limit: the limit and the SM clock share it leaves ("" without one).
  std::string power_note;
  /// Failures and checkpoints (models/reliability.hpp): the defaults, the flags over them.
  reliability_assumptions reliability;
  /// Every assumption as --set and the step flags left it (the step's are plan.assumptions, the
  /// reliability flags are applied over .reliability into `reliability`).
  assumption_set assumptions;
};

/// Expected interruptions for people: two significant digits below 10, whole above.
std::string interruptions_text(double n);

/// The node: --node, else the library's choice for the GPU (plan/training_run.hpp
/// training_node_for: the catalog node that carries it, else for one GPU the GPU alone);
/// usage_error when --node holds another GPU or no node fits (naming `command`). The catalog
/// lookup alone is the library's catalog::node_carrying.
node_spec choose_node(const settings& s, const gpu_choice& gpu, int gpus, std::string_view command);

/// The reliability model's assumptions from its flags (--failures-per-node-day, --restart-minutes,
/// --checkpoint-interval-hours, --checkpoint-write-seconds, --no-failures); usage_error naming
/// the flag for a value out of range.
/// `base` is where the flags start: the defaults, or what --set made of them (a flag and a --set
/// of the same assumption is refused).
reliability_assumptions reliability_from(const settings& s, const reliability_assumptions& base = {});

/// The run's modelled time and reserved time (plan/training_cost.hpp) for d.tokens; usage_error
/// naming the reliability flags when failures leave the run no progress.
modelled_training_run modelled_run(const run_description& d);

/// The message for a run whose failures leave it no progress (plan/training_run.hpp
/// infeasible_training_run), naming the reliability flags.
std::string infeasible_run_message(const infeasible_training_run& e);

/// The reliability model's figures for people: "expected with failures and checkpoints: ..."
/// (one line, no newline), or "" when it is off.
std::string reliability_text(const reliability_estimate& e);


/// Reads the model, GPU, node, layout, training and train-run fields into a plan; throws
/// usage_error naming the flag on what the step-time model does not cover. `command` names the
/// subcommand in messages.
run_description training_run_from(const settings& s, std::string_view command);

}  // namespace gpuplan::cli
