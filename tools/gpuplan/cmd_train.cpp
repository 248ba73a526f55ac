// tools/gpuplan/cmd_train.cpp: `gpuplan train`, how long does a training run take, and what do
// more GPUs buy?
//
// The options are a contract (docs/cli.md, docs/json-schema.md): the shared groups of options.hpp
// (model, GPU, node, layout, training) plus train's own: --tokens, --nodes, --fabric,
// --scaling FROM..TO, --scaling-mode, --deadline, --chart FILE, --json. The command reads the
// flags into training_run_inputs, gets the report by one call (plan/training_run.hpp
// plan_training_run) and prints it: as text here, as JSON by io/training_run_json.hpp.
#include "chart.hpp"
#include "cli.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "train_run.hpp"

#include <gpuplan/io/training_run_json.hpp>
#include <gpuplan/models/scaling.hpp>
#include <gpuplan/plan/training_run.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace gpuplan::cli {

namespace {

constexpr field train_table[] = {
    {"scaling", "--scaling", field_type::text, "train-time",
     "Throughput against the GPU count, FROM..TO GPUs (data-parallel degree doubled each step)"},
    {"scaling_mode", "--scaling-mode", field_type::text, "train-time",
     "strong (fixed global batch, the default) or weak (the batch grows with the GPUs)"},
    {"chart", "--chart", field_type::text, "train-time",
     "With --scaling: draw the curve into FILE (.svg or .png) with gnuplot"},
    {"deadline", "--deadline", field_type::number, "train-time",
     "With --tokens: the fewest GPUs (data-parallel degree of the layout; --scaling-mode) that "
     "train the tokens within this many days"},
    {"goodput", "--goodput", field_type::number, "train-time",
     "Removed: the deadline now counts failures and checkpoints with the reliability model "
     "(--failures-per-node-day, --restart-minutes, --checkpoint-interval-hours, --no-failures)"},
};

struct train_command {
  settings s;
  bool json = false;
  bool require_fit = false;
};

/// What `gpuplan train` read from its flags: the run, the library's inputs, the chart file.
struct train_request {
  run_description run;
  training_run_inputs inputs;
  std::optional<std::string> chart;  ///< --chart FILE (with --scaling)
};

// ---- flags --------------------------------------------------------------------------------------

std::pair<int, int> parse_range(const std::string& text, const std::string& who) {
  const auto dots = text.find("..");
  if (dots == std::string::npos)
    throw usage_error(who + " '" + text + "' must be FROM..TO (GPU counts, e.g. 64..4096)");
  const double from = parse_count(text.substr(0, dots), who);
  const double to = parse_count(text.substr(dots + 2), who);
  if (from > to) throw usage_error(who + " '" + text + "': FROM must not exceed TO");
  if (to > 1e8) throw usage_error(who + " '" + text + "': TO must be at most 100000000");
  return {static_cast<int>(from), static_cast<int>(to)};
}

/// --rampup-batch-size goes with one layout.
void check_train_flags(const settings& s) {
  if (s.has("rampup_batch_size") && (s.has("scaling") || s.has("deadline")))
    throw usage_error(s.name("rampup_batch_size") + " goes with one layout: the ramp's batches "
                      "are multiples of its micro-batch x dp, which --scaling and --deadline vary");
}

scaling_mode scaling_mode_from(const settings& s) {
  if (auto m = s.text("scaling_mode")) return enum_named<scaling_mode>(*m, s.name("scaling_mode"));
  return scaling_mode::strong;
}

/// --scaling FROM..TO and --scaling-mode into a sweep, --chart checked with it (before the sweep,
/// so a bad file name costs nothing); usage_error for --chart or --scaling-mode without it.
std::optional<training_sweep> sweep_from(const settings& s) {
  const std::optional<std::string> r = s.text("scaling");
  if (!r) {
    if (s.has("chart") || (s.has("scaling_mode") && !s.has("deadline")))
      throw usage_error(s.name(s.has("chart") ? "chart" : "scaling_mode") +
                        " needs --scaling FROM..TO");
    return std::nullopt;
  }
  const auto [from, to] = parse_range(*r, s.name("scaling"));
  if (auto file = s.text("chart")) {
    chart::check_file_name(*file, s.name("chart"));
    const std::string ext = std::filesystem::path(*file).extension().string();
    if (ext != ".svg" && ext != ".png")
      throw usage_error(s.name("chart") + " " + *file + ": the file must end in .svg or .png");
  }
  return training_sweep{.from_gpus = from, .to_gpus = to, .mode = scaling_mode_from(s)};
}

/// --deadline DAYS (with --tokens) and --scaling-mode into a deadline.
std::optional<training_deadline> deadline_from(const settings& s, const run_description& d) {
  const std::optional<double> days = s.number("deadline");
  if (!days) return std::nullopt;
  if (!d.tokens) throw usage_error(s.name("deadline") + " needs --tokens (the budget to train)");
  if (!(*days > 0) || !std::isfinite(*days) || *days > 36500)
    throw usage_error(
        fmt::format("{} must be a positive number of days (got {})", s.name("deadline"), *days));
  return training_deadline{.within = *days * units::d, .mode = scaling_mode_from(s)};
}

train_request train_request_from(const settings& s) {
  train_request r{.run = training_run_from(s, "train"), .inputs = {}, .chart = s.text("chart")};
  check_train_flags(s);
  training_run_inputs& in = r.inputs;
  in.plan = r.run.plan;
  in.tokens = r.run.tokens;
  in.reliability = r.run.reliability;
  in.memory = r.run.assumptions.memory;
  in.scaling = sweep_from(s);
  in.deadline = deadline_from(s, r.run);
  return r;
}

/// The report, with a progress bar on stderr while a sweep outlasts half a second (a terminal
/// only); failures that leave the run no progress name the reliability flags.
training_run_report train_report(const train_request& r) {
  std::optional<progress::bar> bar;
  if (const std::optional<training_sweep>& w = r.inputs.scaling)
    bar.emplace(static_cast<std::size_t>(scaling_points(w->from_gpus, w->to_gpus)),
                progress::options{.unit = "configs"});
  try {
    training_run_report report = plan_training_run(r.inputs, [&bar](int done, int) {
      if (bar) bar->update(static_cast<std::size_t>(done));
    });
    if (bar) bar->finish();
    return report;
  } catch (const infeasible_training_run& e) {
    throw usage_error(infeasible_run_message(e));
  }
}

// ---- text ---------------------------------------------------------------------------------------

/// A point's memory for the table: "75.2 GiB" when it fits, "1184.3 GiB (no fit)" otherwise.
std::string memory_cell(const training_memory_verdict& v) {
  return fmt::format("{:.1GiB}{}", v.per_gpu.total(), v.fits() ? "" : " (no fit)");
}

std::string scaling_text(const training_scaling_report& s) {
  table t;
  t.header = {"GPUs", "DP", "batch", "micro", "step", "tokens/s", "tok/s/GPU", "MFU", "effic.",
              "comm", "bubble", "memory/GPU", "returns diminish because"};
  t.numeric = {true, true, true, true, true, true, true, true, true, true, true, true, false};
  std::size_t i = 0;
  for (const scaling_point& p : s.curve) {
    const auto& v = s.memory[i++];
    const std::string memory = v ? memory_cell(*v) : "-";
    if (!p.valid) {
      t.rows.push_back({std::to_string(p.gpus), std::to_string(p.dp), std::to_string(p.global_batch),
                        "-", "-", "-", "-", "-", "-", "-", "-", memory,
                        std::string(describe(p.limit))});
      continue;
    }
    t.rows.push_back({std::to_string(p.gpus), std::to_string(p.dp), std::to_string(p.global_batch),
                      std::to_string(p.micro_batches), secs(p.step),
                      show_count(p.tokens_per_s.in(units::tokens_per_s)),
                      fmt::format("{:.0f}", p.tokens_per_s_per_gpu.in(units::tokens_per_s)),
                      fmt::format("{:.1f}%", 100 * p.mfu), fmt::format("{:.0f}%", 100 * p.efficiency),
                      fmt::format("{:.0f}%", 100 * p.communication_share),
                      fmt::format("{:.0f}%", 100 * p.bubble_share), memory,
                      std::string(describe(p.limit))});
  }
  return t.render("  ");
}

/// The scaling curve as a chart (the shared facility of chart.hpp): tokens/s per GPU against
/// the GPU count, log-scaled in GPUs as the curve doubles them.
chart::chart_spec scaling_chart(const scaling_curve& c, const std::string& title) {
  chart::series line{"tokens/s per GPU", {}, chart::style::lines};
  chart::chart_spec spec;
  for (const scaling_point& p : c)
    if (p.valid) {
      line.points.emplace_back(p.gpus, p.tokens_per_s_per_gpu.in(units::tokens_per_s));
      spec.x_ticks.push_back(p.gpus);  // a tick at each GPU count of the sweep
    }
  spec.title = title;
  spec.x_label = "GPUs";
  spec.y_label = "tokens/s per GPU";
  spec.log_x = true;
  spec.y_min = 0.0;
  spec.data.push_back(std::move(line));
  return spec;
}

std::string scaling_title(const run_description& d, const training_sweep& w) {
  return fmt::format("{} on {}, {} scaling", d.model.name(), d.plan.node.name.view(),
                     to_string(w.mode));
}

/// The step's parts as a table of time and share of the step.
std::string step_table(const step_breakdown& b) {
  table t;
  t.header = {"step time", "", "share"};
  t.numeric = {false, true, true};
  auto row = [&](std::string_view name, duration v) {
    if (v.value <= 0.0) return;
    t.rows.push_back({std::string(name), secs(v), fmt::format("{:.1f}%", 100.0 * (v / b.total))});
  };
  row("compute (GEMMs, attention)", b.compute);
  row("memory-bound kernels", b.memory_bound);
  row("tensor-parallel comm.", b.tensor_parallel);
  row("context-parallel comm.", b.context_parallel);
  row("expert all-to-all", b.expert_parallel);
  row("pipeline bubble", b.bubble);
  row("pipeline send/recv", b.pipeline_p2p);
  row("data-parallel comm.", b.data_parallel);
  row("optimizer step", b.optimizer);
  row("CPU offload", b.offload);
  row("data loading", b.data_loading);
  t.rows.push_back({"total", secs(b.total), "100.0%"});
  return t.render("  ");
}

/// The plan, the step table, throughput, MFU, the memory verdict and the groups crossing nodes.
void print_step(const run_description& d, const training_run_report& r) {
  const step_breakdown& b = r.step;
  fmt::print("{} on {} x {} ({} x {}), {}\n", d.model.name(), b.nodes, r.plan.node.name.view(),
             b.gpus, r.plan.node.gpu.name.view(), layout_text(r.plan.layout));
  fmt::print("global batch {} x {} tokens, {} micro-batches of {} per pipeline\n",
             b.global_batch, r.plan.config.seq, b.micro_batches, r.plan.config.micro_batch);
  fmt::print("framework {}{}\n", to_string(r.plan.config.framework), d.framework_note);
  const training_config& c = r.plan.config;
  if (c.lora_rank > 0 || c.qlora_rank > 0)
    fmt::print("{} rank {} on {} (frozen {} base: no weight gradients, adapters trained)\n",
               c.qlora_rank > 0 ? "QLoRA" : "LoRA", c.qlora_rank > 0 ? c.qlora_rank : c.lora_rank,
               to_string(c.lora_targets), c.qlora_rank > 0 ? "NF4" : "16-bit");
  if (!d.power_note.empty()) fmt::print("{}\n", d.power_note);
  fmt::print("\n{}", step_table(b));
  fmt::print("\nbottleneck: {}\n", describe(b.bottleneck));
  fmt::print("throughput: {} tokens/s, {:.2f} sequences/s\n",
             show_count(b.tokens_per_s.in(units::tokens_per_s)), b.samples_per_s);
  fmt::print("MFU {:.1f}%, HFU {:.1f}%\n", 100 * b.mfu, 100 * b.hfu);
  fmt::print("{}\n", memory_verdict_text(r.memory));
  if (const std::string a = assumptions_text(d.assumptions); !a.empty()) fmt::print("{}\n", a);
  std::string crossing;
  for (auto [on, name] : {std::pair{b.tp_crosses_nodes, "TP"}, {b.cp_crosses_nodes, "CP"},
                          {b.ep_crosses_nodes, "EP"}, {b.pp_crosses_nodes, "PP"},
                          {b.dp_crosses_nodes, "DP"}})
    if (on) crossing += (crossing.empty() ? "" : ", ") + std::string(name);
  if (!crossing.empty()) fmt::print("groups crossing nodes: {}\n", crossing);
  if (b.tp_crosses_nodes)
    fmt::print("warning: the tensor-parallel group spans nodes; its all-reduces run at the "
               "NIC rate\n");
}

/// The budget: steady-state time and GPU-hours, the reliability model's, the FLOPs.
void print_budget(const run_description& d, const training_budget_report& b) {
  fmt::print("\n{} tokens: {}, {} GPU-hours\n", d.tokens_text, secs(b.steady_wall()),
             show_count(b.steady_gpu_time().in(units::h)));
  const modelled_training_run& m = b.run;
  if (m.reliability.enabled)
    fmt::print("{}, {} GPU-hours\n", reliability_text(m.reliability),
               show_count(m.usage.gpu_time.in(units::h)));
  fmt::print("FLOPs: {:.3g} (with recompute {:.3g}; 6ND {:.3g})\n", b.flops.model.in(units::FLOP),
             b.flops.hardware.in(units::FLOP), b.flops.six_nd.in(units::FLOP));
}

/// The deadline's answer: the GPUs that meet it, or the fastest tried; its memory verdict.
void print_deadline(const run_description& d, const training_deadline_report& r) {
  const training_gpus& n = r.answer;
  if (n.met)
    fmt::print("\nto train {} tokens within {:g} days: {} GPUs ({} nodes), {}, global batch "
               "{}: {} at {} tokens/s, MFU {:.1f}%{}\n",
               d.tokens_text, r.deadline.in(units::d), n.gpus, n.nodes,
               layout_text(n.plan.layout), n.global_batch, secs(n.wall_time),
               show_count(n.tokens_per_s.in(units::tokens_per_s)), 100 * n.mfu,
               n.reliability.enabled ? " (failures and checkpoints counted)"
                                     : " (steady state: --no-failures)");
  else
    fmt::print("\nno GPU count meets {:g} days for {} tokens: the fastest tried, {} GPUs ({}), "
               "takes {}\n",
               r.deadline.in(units::d), d.tokens_text, n.gpus, layout_text(n.plan.layout),
               secs(n.wall_time));
  if (r.memory) fmt::print("  at that size, {}\n", memory_verdict_text(*r.memory));
}

void print_train_text(const train_request& q, const training_run_report& r) {
  const run_description& d = q.run;
  print_step(d, r);
  if (r.budget) print_budget(d, *r.budget);
  if (r.deadline) print_deadline(d, *r.deadline);
  if (r.scaling) {
    fmt::print("\n{} scaling\n{}", to_string(r.scaling->curve.mode), scaling_text(*r.scaling));
    if (r.scaling->any_valid())
      fmt::print("\n{}", chart::render_text(scaling_chart(r.scaling->curve,
                                                          scaling_title(d, *q.inputs.scaling))));
  }
}

int run_train(train_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  const train_request q = train_request_from(s);
  const training_run_report r = train_report(q);
  std::string chart_note;
  if (r.scaling && q.chart)
    chart_note = chart::render_file(scaling_chart(r.scaling->curve,
                                                  scaling_title(q.run, *q.inputs.scaling)),
                                    *q.chart, s.name("chart"))
                     .message;
  if (cmd.json) {
    nlohmann::json j = io::to_json(r);
    j["assumptions"] = assumptions_json(q.run.assumptions);
    add_warnings(j, r.estimates);
    print_json(std::move(j));
  } else {
    print_train_text(q, r);
  }
  flush_output();
  if (!chart_note.empty()) std::fprintf(stderr, "%s\n", chart_note.c_str());
  if (!cmd.json) print_warnings(r.estimates);
  // --require-fit: the plan, and the size a deadline answers with, must fit
  return cmd.require_fit && !r.fits() ? 1 : 0;
}

}  // namespace

command add_train_command(CLI::App& app) {
  auto cmd = std::make_shared<train_command>();
  CLI::App* t = &app;
  settings& s = cmd->s;
  s.add(t, {model_fields(), gpu_fields(), node_fields(), layout_fields(), training_fields(),
            step_assumption_fields(), train_run_fields(), train_table, assumption_fields()});
  // --goodput is gone: parsed only to say what replaced it, and not listed by --help.
  s.refuse(t, "goodput",
           "was removed: --deadline now counts failures and checkpoints with the reliability "
           "model; set --failures-per-node-day, --restart-minutes, --checkpoint-interval-hours or "
           "--no-failures instead");
  s.add_plan_option(t);
  t->add_flag("--json", cmd->json, "Print the result as JSON (schema: docs/json-schema.md)");
  add_require_fit_flag(t, cmd->require_fit);
  return {t, [cmd] { return run_train(*cmd); }, [cmd] { return &cmd->s; }};
}

}  // namespace gpuplan::cli
