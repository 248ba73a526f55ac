// tools/gpuplan/cmd_fit.cpp: `gpuplan fit`, does a model fit on these GPUs?
//
// The options are a contract (scripts depend on their names): see docs/cli.md. They are the shared
// groups of options.hpp (model, GPU, layout, training, serving) plus fit's own: --train/--infer
// (plan key "mode"), --json and --require-fit. A plan file (--plan FILE) holds the same fields in
// JSON, snake_case ("micro_batch") or as the flags spell them ("micro-batch"); flags given beside
// it override it.
#include "cli.hpp"
#include "fit_output.hpp"
#include "options.hpp"

#include <gpuplan/catalog/nodes.hpp>
#include <gpuplan/models/estimates.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/plan/candidates.hpp>
#include <gpuplan/plan/fit.hpp>

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <span>

namespace gpuplan::cli {

namespace {

constexpr field fit_table[] = {
    {"mode", "--train/--infer", field_type::custom, "fit", "train (the default) or infer"},
};

struct fit_command {
  settings s;
  bool json = false;
  bool require_fit = false;
};

/// The mode, and options that belong to the other one. An option given for the wrong mode is a
/// conflict, never silently ignored; a plan's keys for the other mode are dropped when the mode was
/// switched on the command line (a training plan run with --infer keeps its model, GPU and layout,
/// not its ZeRO stage or sequence length).
bool choose_mode(settings& s) {
  if (s.from_plan("mode") && !s.from_flags("mode")) {
    const std::string m = *s.text("mode");
    if (m != "train" && m != "infer")
      throw io::error(s.plan_file() + ": key 'mode' must be \"train\" or \"infer\" (got \"" + m +
                      "\")");
  }
  const bool mode_explicit = s.has("mode");
  const bool infer = s.text("mode").value_or("train") == "infer";
  const field_use other = infer ? field_use::train : field_use::serve;
  for (const field* f : s.given()) {
    if (f->use != other) continue;
    if (s.from_plan(f->key) && !s.from_flags(f->key) && s.from_flags("mode")) {
      s.forget_plan_value(f->key);
      continue;
    }
    if (infer)
      throw usage_error(
          fmt::format("{} is a training option; it conflicts with --infer", s.name(f->key)));
    throw usage_error(
        mode_explicit
            ? fmt::format("{} is an inference option; it conflicts with --train", s.name(f->key))
            : fmt::format("{} is an inference option: add --infer", s.name(f->key)));
  }
  return infer;
}

/// How far the advice grows layouts: the defaults (one 8-GPU NVLink domain), or, for a GPU whose
/// catalog node is a wider NVLink domain (the GB200 and GB300 NVL72 racks: 72 GPUs), that
/// node's bounds, so tensor parallelism may grow across the rack.
candidate_bounds advice_bounds(const gpu_spec& gpu) {
  const candidate_bounds defaults{};
  if (const node_spec* n = catalog::node_carrying(gpu)) {
    const candidate_bounds b = candidate_bounds::for_node(*n);
    if (b.nvlink_domain > defaults.nvlink_domain) return b;
  }
  return defaults;
}

fit_report compute(const fit_description& d, const memory_assumptions& a = {}) {
  const candidate_bounds b = advice_bounds(d.gpu.spec);
  const auto gpus = std::span<const gpu_spec>(catalog::all_gpus);
  if (d.infer) {
    if (d.model.transformer)
      return inference_fit(*d.model.transformer, d.gpu.spec, d.layout, d.serve, a, gpus, b);
    return inference_fit(*d.model.generic, d.gpu.spec, d.layout, d.serve, a);  // no advice
  }
  if (d.model.transformer)
    return training_fit(*d.model.transformer, d.gpu.spec, d.layout, d.train, a, gpus, b);
  return training_fit(*d.model.generic, d.gpu.spec, d.layout, d.train, a, gpus, b);
}

int run_fit(fit_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  fit_description d;
  d.infer = choose_mode(s);
  d.model = model_from(s, "fit");
  d.gpu = gpu_from(s, gpu_use::memory);  // a memory plan: the rates may be unknown
  d.layout = layout_from(s, d.model);
  if (d.infer)
    d.serve = serving_from(s, d.model);
  else {
    d.train = training_from(s);
    d.framework_note = settle_framework(s, d.model, d.layout, d.train);
  }
  d.memory = assumptions_from(s).memory;
  d.stages = stage_memory(d);
  const fit_report r = compute(d, d.memory);
  if (cmd.json)
    print_json(fit_json(d, r));
  else {
    fmt::print("{}", fit_text(d, r));
    print_warnings(memory_estimates(d.gpu.spec));
  }
  return (cmd.require_fit && !r.fits()) ? 1 : 0;
}

}  // namespace

command add_fit_command(CLI::App& app) {
  auto cmd = std::make_shared<fit_command>();
  CLI::App* f = &app;
  settings& s = cmd->s;
  s.add(f, {model_fields(), gpu_fields(), fit_table});
  auto* train = f->add_flag_callback(
      "--train", [cmd] { cmd->s.set_flag("mode", "train"); }, "Training memory (the default)");
  auto* infer = f->add_flag_callback(
      "--infer", [cmd] { cmd->s.set_flag("mode", "infer"); },
      "Serving memory: weights, KV cache, workspace");
  train->excludes(infer);
  s.add(f, {layout_fields(), training_fields(), serving_fields(), assumption_fields()});
  s.add_plan_option(f);
  f->add_flag("--json", cmd->json, "Print the result as JSON (schema: docs/json-schema.md)");
  f->add_flag("--require-fit", cmd->require_fit, "Exit with status 1 when it does not fit");
  return {f, [cmd] { return run_fit(*cmd); }, [cmd] { return &cmd->s; }};
}

}  // namespace gpuplan::cli
