// tools/gpuplan/cmd_train.cpp: `gpuplan train`, how long does a training run take, and what do
// more GPUs buy?
//
// The options are a contract (docs/cli.md, docs/json-schema.md): the shared groups of options.hpp
// (model, GPU, node, layout, training) plus train's own: --tokens, --nodes, --fabric,
// --scaling FROM..TO, --scaling-mode, --chart FILE, --json. The model is the step-time model of
// <gpuplan/models/training_step.hpp> (docs/models/training-time.md).
#include "chart.hpp"
#include "cli.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "train_run.hpp"

#include <gpuplan/models/estimates.hpp>
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/scaling.hpp>
#include <gpuplan/models/training_step.hpp>
#include <gpuplan/plan/capacity.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

/// The memory verdict of each point of the curve: its plan as scale_plan builds it (the layout
/// at that data-parallel degree: ZeRO shards over it).
/// A point scale_plan marks invalid (the batch does not divide) has no plan whose memory the
/// framework model can evaluate (it throws), so it has no verdict.
std::vector<std::optional<training_memory_verdict>> scaling_verdicts(const training_plan& base,
                                                                     const scaling_curve& c) {
  std::vector<std::optional<training_memory_verdict>> out;
  for (const scaling_point& p : c) {
    if (p.valid) out.emplace_back(memory_verdict_of(scale_plan(base, p.dp, c.mode).plan));
    else out.emplace_back(std::nullopt);
  }
  return out;
}

nlohmann::json scaling_json(const scaling_curve& c,
                            const std::vector<std::optional<training_memory_verdict>>& verdicts) {
  nlohmann::json pts = nlohmann::json::array();
  std::size_t i = 0;
  for (const scaling_point& p : c) {
    nlohmann::json j{{"gpus", p.gpus}, {"dp", p.dp}, {"global_batch", p.global_batch},
                     {"valid", p.valid}, {"limit", std::string(to_string(p.limit))}};
    if (const auto& v = verdicts[i++]) add_memory_verdict(j, *v);
    if (p.valid) {
      j["micro_batches"] = p.micro_batches;
      j["step_time_s"] = p.step.in(units::s);
      j["tokens_per_s"] = p.tokens_per_s.in(units::tokens_per_s);
      j["tokens_per_s_per_gpu"] = p.tokens_per_s_per_gpu.in(units::tokens_per_s);
      j["mfu"] = p.mfu;
      j["efficiency"] = p.efficiency;
      j["communication_share"] = p.communication_share;
      j["bubble_share"] = p.bubble_share;
      j["compute_share"] = p.compute_share;
      j["bottleneck"] = std::string(to_string(p.bottleneck));
    }
    pts.push_back(j);
  }
  return {{"mode", std::string(to_string(c.mode))}, {"points", pts}};
}

/// A point's memory for the table: "75.2 GiB" when it fits, "1184.3 GiB (no fit)" otherwise.
std::string memory_cell(const training_memory_verdict& v) {
  return fmt::format("{:.1GiB}{}", v.per_gpu.total(), v.fits() ? "" : " (no fit)");
}

std::string scaling_text(const scaling_curve& c,
                         const std::vector<std::optional<training_memory_verdict>>& verdicts) {
  table t;
  t.header = {"GPUs", "DP", "batch", "micro", "step", "tokens/s", "tok/s/GPU", "MFU", "effic.",
              "comm", "bubble", "memory/GPU", "returns diminish because"};
  t.numeric = {true, true, true, true, true, true, true, true, true, true, true, true, false};
  std::size_t i = 0;
  for (const scaling_point& p : c) {
    const auto& v = verdicts[i++];
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
  for (const scaling_point& p : c)
    if (p.valid) line.points.emplace_back(p.gpus, p.tokens_per_s_per_gpu.in(units::tokens_per_s));
  chart::chart_spec spec;
  spec.title = title;
  spec.x_label = "GPUs";
  spec.y_label = "tokens/s per GPU";
  spec.log_x = true;
  spec.y_min = 0.0;
  spec.data.push_back(std::move(line));
  return spec;
}

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

int run_train(train_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  const run_description d = training_run_from(s, "train");
  if (s.has("goodput"))
    throw usage_error(s.name("goodput") +
                      " was removed: --deadline now counts failures and checkpoints with the "
                      "reliability model; set --failures-per-node-day, --restart-minutes, "
                      "--checkpoint-interval-hours or --no-failures instead");
  if (s.has("rampup_batch_size") && (s.has("scaling") || s.has("deadline")))
    throw usage_error(s.name("rampup_batch_size") + " goes with one layout: the ramp's batches "
                      "are multiples of its micro-batch x dp, which --scaling and --deadline vary");

  const step_breakdown b = estimate_step(d.plan);
  // the memory verdict of `gpuplan fit`: a plan that does not fit is timed, and says so
  const training_memory_verdict memory = memory_verdict_of(d.plan);
  // a token budget the library refuses (past 2^53 steps), or failures that leave the run no
  // progress, fail before anything is printed
  std::optional<modelled_training_run> run;
  if (d.tokens) run = modelled_run(d);
  std::optional<scaling_curve> curve;
  std::vector<std::optional<training_memory_verdict>> curve_memory;
  std::string chart_note, chart_title;
  if (auto r = s.text("scaling")) {
    const auto [from, to] = parse_range(*r, s.name("scaling"));
    if (auto file = s.text("chart")) chart::check_file_name(*file, s.name("chart"));  // before the sweep
    scaling_mode mode = scaling_mode::strong;
    if (auto m = s.text("scaling_mode")) {
      mode = enum_named<scaling_mode>(*m, s.name("scaling_mode"));
    }
    // a progress bar on stderr if the sweep outlasts half a second (a terminal only)
    progress::bar bar(static_cast<std::size_t>(scaling_points(from, to)), {.unit = "configs"});
    curve = scaling(d.plan, from, to, mode,
                    [&bar](int done, int) { bar.update(static_cast<std::size_t>(done)); });
    bar.finish();
    curve_memory = scaling_verdicts(d.plan, *curve);
    chart_title = fmt::format("{} on {}, {} scaling", d.model.name(), d.plan.node.name.view(),
                              to_string(mode));
    if (auto file = s.text("chart")) {
      const std::string ext = std::filesystem::path(*file).extension().string();
      if (ext != ".svg" && ext != ".png")
        throw usage_error(s.name("chart") + " " + *file + ": the file must end in .svg or .png");
      chart_note = chart::render_file(scaling_chart(*curve, chart_title), *file, s.name("chart")).message;
    }
  } else if (s.has("chart") || (s.has("scaling_mode") && !s.has("deadline"))) {
    throw usage_error(s.name(s.has("chart") ? "chart" : "scaling_mode") + " needs --scaling FROM..TO");
  }
  std::optional<training_gpus> needed;
  duration deadline{};
  if (const std::optional<double> days = s.number("deadline")) {
    if (!d.tokens) throw usage_error(s.name("deadline") + " needs --tokens (the budget to train)");
    if (!(*days > 0) || !std::isfinite(*days) || *days > 36500)
      throw usage_error(fmt::format("{} must be a positive number of days (got {})",
                                    s.name("deadline"), *days));
    training_capacity_assumptions a{};
    a.reliability = d.reliability;  // failures and checkpoints at each GPU count
    const scaling_mode mode = s.has("scaling_mode")
                                  ? enum_named<scaling_mode>(*s.text("scaling_mode"),
                                                             s.name("scaling_mode"))
                                  : scaling_mode::strong;
    deadline = *days * units::d;
    needed = plan_training_gpus(d.plan, *d.tokens, deadline, mode, a);
  }
  std::optional<training_memory_verdict> needed_memory;
  if (needed && needed->gpus > 0) needed_memory = memory_verdict_of(needed->plan);

  const int seq = d.plan.config.seq;
  if (cmd.json) {
    nlohmann::json j{
        {"model", d.model.name()},
        {"node", std::string(d.plan.node.name.view())},
        {"gpu", std::string(d.plan.node.gpu.name.view())},
        {"gpus", b.gpus},
        {"nodes", b.nodes},
        {"layout", {{"dp", d.plan.layout.dp}, {"tp", d.plan.layout.tp}, {"pp", d.plan.layout.pp},
                    {"cp", d.plan.layout.cp}, {"ep", d.plan.layout.ep},
                    {"zero", d.plan.layout.zero},
                    {"virtual_stages", d.plan.layout.virtual_stages},
                    {"sequence_parallel", d.plan.layout.sequence_parallel}}},
        {"framework", std::string(to_string(d.plan.config.framework))},
        {"global_batch", b.global_batch},
        {"seq", seq},
        {"micro_batches", b.micro_batches},
        {"step_time_s", b.total.in(units::s)},
        {"tokens_per_s", b.tokens_per_s.in(units::tokens_per_s)},
        {"samples_per_s", b.samples_per_s},
        {"mfu", b.mfu},
        {"hfu", b.hfu},
        {"bottleneck", std::string(to_string(b.bottleneck))},
        {"breakdown", breakdown_json(b)},
        {"crosses_nodes", {{"tp", b.tp_crosses_nodes}, {"cp", b.cp_crosses_nodes},
                           {"ep", b.ep_crosses_nodes}, {"dp", b.dp_crosses_nodes},
                           {"pp", b.pp_crosses_nodes}}},
        {"flops_per_step", {{"model", b.model_flops.in(units::FLOP)},
                            {"hardware", b.hardware_flops.in(units::FLOP)},
                            {"six_nd", b.six_nd.in(units::FLOP)}}},
    };
    add_memory_verdict(j, memory);
    if (d.tokens) {
      const duration t = time_to_train(d.plan, *d.tokens);
      const budget_flops f = training_budget_flops(d.plan, *d.tokens);
      j["tokens"] = d.tokens->in(units::token);
      j["time_to_train_s"] = t.in(units::s);
      if (d.plan.config.rampup_start > 0)
        j["rampup"] = {{"start", d.plan.config.rampup_start},
                       {"increment", d.plan.config.rampup_increment},
                       {"samples", d.plan.config.rampup_samples}};
      j["gpu_hours"] = gpu_time_to_train(d.plan, *d.tokens).in(units::h);
      const modelled_training_run& m = *run;
      j["expected_time_to_train_s"] = m.reserved_wall.in(units::s);
      j["expected_gpu_hours"] = m.usage.gpu_time.in(units::h);
      j["reliability"] = reliability_json(m.reliability, d.reliability);
      j["budget_flops"] = {{"model", f.model.in(units::FLOP)},
                           {"hardware", f.hardware.in(units::FLOP)},
                           {"six_nd", f.six_nd.in(units::FLOP)}};
    }
    if (curve) j["scaling"] = scaling_json(*curve, curve_memory);
    if (needed) {
      j["deadline"] = {{"days", deadline.in(units::d)},
                       {"met", needed->met},
                       {"gpus", needed->gpus},
                       {"nodes", needed->nodes},
                       {"dp", needed->dp},
                       {"global_batch", needed->global_batch},
                       {"wall_time_s", needed->wall_time.in(units::s)},
                       {"ettr", needed->reliability.ettr},
                       {"tokens_per_s", needed->tokens_per_s.in(units::tokens_per_s)},
                       {"mfu", needed->mfu}};
      if (needed_memory) add_memory_verdict(j["deadline"], *needed_memory);
    }
    add_warnings(j, step_estimates(d.plan));
    print_json(j);
  } else {
    fmt::print("{} on {} x {} ({} x {}), {}\n", d.model.name(), b.nodes, d.plan.node.name.view(),
               b.gpus, d.plan.node.gpu.name.view(), layout_text(d.plan.layout));
    fmt::print("global batch {} x {} tokens, {} micro-batches of {} per pipeline\n",
               b.global_batch, seq, b.micro_batches, d.plan.config.micro_batch);
    fmt::print("framework {}{}\n\n", to_string(d.plan.config.framework), d.framework_note);
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
    fmt::print("{}", t.render("  "));
    fmt::print("\nbottleneck: {}\n", describe(b.bottleneck));
    fmt::print("throughput: {} tokens/s, {:.2f} sequences/s\n",
               show_count(b.tokens_per_s.in(units::tokens_per_s)), b.samples_per_s);
    fmt::print("MFU {:.1f}%, HFU {:.1f}%\n", 100 * b.mfu, 100 * b.hfu);
    fmt::print("{}\n", memory_verdict_text(memory));
    std::string crossing;
    for (auto [on, name] : {std::pair{b.tp_crosses_nodes, "TP"}, {b.cp_crosses_nodes, "CP"},
                            {b.ep_crosses_nodes, "EP"}, {b.pp_crosses_nodes, "PP"},
                            {b.dp_crosses_nodes, "DP"}})
      if (on) crossing += (crossing.empty() ? "" : ", ") + std::string(name);
    if (!crossing.empty()) fmt::print("groups crossing nodes: {}\n", crossing);
    if (b.tp_crosses_nodes)
      fmt::print("warning: the tensor-parallel group spans nodes; its all-reduces run at the "
                 "NIC rate\n");
    if (d.tokens) {
      const budget_flops f = training_budget_flops(d.plan, *d.tokens);
      fmt::print("\n{} tokens: {}, {} GPU-hours\n", d.tokens_text,
                 secs(time_to_train(d.plan, *d.tokens)),
                 show_count(gpu_time_to_train(d.plan, *d.tokens).in(units::h)));
      const modelled_training_run& m = *run;
      if (m.reliability.enabled)
        fmt::print("{}, {} GPU-hours\n", reliability_text(m.reliability),
                   show_count(m.usage.gpu_time.in(units::h)));
      fmt::print("FLOPs: {:.3g} (with recompute {:.3g}; 6ND {:.3g})\n", f.model.in(units::FLOP),
                 f.hardware.in(units::FLOP), f.six_nd.in(units::FLOP));
    }
    if (needed) {
      const training_gpus& n = *needed;
      if (n.met)
        fmt::print("\nto train {} tokens within {:g} days: {} GPUs ({} nodes), {}, global batch "
                   "{}: {} at {} tokens/s, MFU {:.1f}%{}\n",
                   d.tokens_text, deadline.in(units::d), n.gpus, n.nodes,
                   layout_text(n.plan.layout), n.global_batch, secs(n.wall_time),
                   show_count(n.tokens_per_s.in(units::tokens_per_s)), 100 * n.mfu,
                   n.reliability.enabled ? " (failures and checkpoints counted)"
                                         : " (steady state: --no-failures)");
      else
        fmt::print("\nno GPU count meets {:g} days for {} tokens: the fastest tried, {} GPUs ({}), "
                   "takes {}\n",
                   deadline.in(units::d), d.tokens_text, n.gpus, layout_text(n.plan.layout),
                   secs(n.wall_time));
      if (needed_memory) fmt::print("  at that size, {}\n", memory_verdict_text(*needed_memory));
    }
    if (curve) {
      fmt::print("\n{} scaling\n{}", to_string(curve->mode), scaling_text(*curve, curve_memory));
      if (std::any_of(curve->begin(), curve->end(), [](const scaling_point& p) { return p.valid; }))
        fmt::print("\n{}", chart::render_text(scaling_chart(*curve, chart_title)));
    }
  }
  flush_output();
  if (!chart_note.empty()) std::fprintf(stderr, "%s\n", chart_note.c_str());
  if (!cmd.json) print_warnings(step_estimates(d.plan));
  // --require-fit: the plan, and the size a deadline answers with, must fit
  const bool fits = memory.fits() && (!needed_memory || needed_memory->fits());
  return cmd.require_fit && !fits ? 1 : 0;
}

}  // namespace

command add_train_command(CLI::App& app) {
  auto cmd = std::make_shared<train_command>();
  CLI::App* t = &app;
  settings& s = cmd->s;
  s.add(t, {model_fields(), gpu_fields(), node_fields(), layout_fields(), training_fields(),
            train_run_fields(), train_table});
  s.add_plan_option(t);
  t->add_flag("--json", cmd->json, "Print the result as JSON (schema: docs/json-schema.md)");
  add_require_fit_flag(t, cmd->require_fit);
  return {t, [cmd] { return run_train(*cmd); }, [cmd] { return &cmd->s; }};
}

}  // namespace gpuplan::cli
