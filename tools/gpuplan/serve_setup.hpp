// tools/gpuplan/serve_setup.hpp: the serving plan that `gpuplan serve` flags describe, built
// once for every command that takes them (`gpuplan serve`, `gpuplan capacity`).
//
// The flags are the shared groups of options.hpp (model, GPU, node, layout, serving engine) plus
// serve_load_fields(): --input-len, --output-len, --mix, --ttft-slo, --tpot-slo, --batching,
// --dtype, --chunked-prefill, --decode-attention, --moe-all-to-all. The load itself
// (--concurrency or --rate) is the command's own.
#pragma once

#include "fit_output.hpp"
#include "options.hpp"

#include <gpuplan/models/serving.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gpuplan::cli {

/// --input-len --output-len --mix --ttft-slo --tpot-slo --batching --dtype --chunked-prefill
/// --decode-attention --moe-all-to-all
std::span<const field> serve_load_fields();

/// What the serve flags describe: the plan (load left at its defaults), the SLO and the lengths.
struct serve_setup {
  model_choice model;
  serving_plan plan{};
  std::optional<node_spec> node;  ///< the --node given, if any
  serving_slo slo{};
  int input_len = 1024;   ///< the mix's mean prompt, rounded
  int output_len = 256;   ///< the mix's mean output, rounded
  /// Every assumption as --set left it (plan.assumptions and plan.memory are its serving and
  /// memory groups, with the engine flags over them).
  assumption_set assumptions{};
  [[nodiscard]] bool want_slo() const { return slo.ttft.value > 0 || slo.tpot.value > 0; }
  [[nodiscard]] int gpus_per_replica() const { return plan.layout.tp * plan.layout.pp; }
  /// The assumptions the plan runs with, for the report's echo: --set's, with the plan's serving
  /// and memory groups (the engine flags applied).
  [[nodiscard]] assumption_set used_assumptions() const {
    assumption_set a = assumptions;
    a.serving = plan.assumptions;
    a.memory = plan.memory;
    return a;
  }
};

/// Builds the serving plan from the settings; usage_error naming the field on bad input.
/// `command` names the command in messages ("serve", "capacity").
serve_setup serve_setup_from(const settings& s, std::string_view command);

/// --require-fit on a serving deployment that does not fit (plan/fit.hpp serving_fit): nothing
/// to time or price (its operating point needs a KV cache that holds a request), so the verdict
/// alone (--json: model, gpu, fits, per_gpu_bytes, capacity_bytes), and exit status 1.
int print_unfit_serving(const serve_setup& setup, const fit_report& f, bool json);

/// A request mix from 'IN:OUT:SHARE,...' (--mix); usage_error naming `flag` on bad input.
request_mix mix_from(std::string_view text, const std::string& flag);
/// The request mix the flags give: --mix, or --input-len/--output-len (defaults 1024 and 256) as
/// one class; usage_error naming the flag when both are given.
request_mix mix_of(const settings& s);

/// A positive number given for key (0 when absent); usage_error naming the field otherwise.
double positive_or_zero(const settings& s, std::string_view key);
/// A latency target (--ttft-slo, --tpot-slo) in seconds: positive_or_zero, and at most a day
/// (max_latency_slo_s in serve_setup.cpp).
double slo_seconds(const settings& s, std::string_view key);

/// --concurrency, --rate: the load a deployment serves (`gpuplan serve`, `gpuplan cost`).
std::span<const field> serve_point_fields();

/// The engine's behaviour flags into p (config.engine already set): --batching,
/// --chunked-prefill (default: on, off for TensorRT-LLM), --decode-attention, --moe-all-to-all.
void set_engine_behaviour(const settings& s, serving_plan& p);

/// Sets the plan's load from --concurrency (default 1) or --rate (requests/s of the whole
/// deployment); usage_error when both are given.
void set_serve_point(const settings& s, serving_plan& p);

}  // namespace gpuplan::cli
