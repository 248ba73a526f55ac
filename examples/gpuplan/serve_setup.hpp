// examples/gpuplan/serve_setup.hpp: the serving plan that `gpuplan serve` flags describe, built
// once for every command that takes them (`gpuplan serve`, `gpuplan capacity`).
//
// The flags are the shared groups of options.hpp (model, GPU, node, layout, serving engine) plus
// serve_load_fields(): --input-len, --output-len, --ttft-slo, --tpot-slo, --batching, --dtype,
// --chunked-prefill, --decode-attention, --moe-all-to-all. The load itself (--concurrency or --rate) is the command's own.
#pragma once

#include "options.hpp"

#include <gpuplan/models/serving.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gpuplan::cli {

/// --input-len --output-len --ttft-slo --tpot-slo --batching --dtype --chunked-prefill
/// --decode-attention --moe-all-to-all
std::span<const field> serve_load_fields();

/// What the serve flags describe: the plan (load left at its defaults), the SLO and the lengths.
struct serve_setup {
  model_choice model;
  serving_plan plan{};
  std::optional<node_spec> node;  ///< the --node given, if any
  serving_slo slo{};
  int input_len = 1024;
  int output_len = 256;
  [[nodiscard]] bool want_slo() const { return slo.ttft.value > 0 || slo.tpot.value > 0; }
  [[nodiscard]] int gpus_per_replica() const { return plan.layout.tp * plan.layout.pp; }
};

/// Builds the serving plan from the settings; usage_error naming the field on bad input.
/// `command` names the command in messages ("serve", "capacity").
serve_setup serve_setup_from(const settings& s, std::string_view command);

/// A positive number given for key (0 when absent); usage_error naming the field otherwise.
double positive_or_zero(const settings& s, std::string_view key);

/// --concurrency, --rate: the load a deployment serves (`gpuplan serve`, `gpuplan cost`).
std::span<const field> serve_point_fields();

/// Sets the plan's load from --concurrency (default 1) or --rate (requests/s of the whole
/// deployment); usage_error when both are given.
void set_serve_point(const settings& s, serving_plan& p);

}  // namespace gpuplan::cli
