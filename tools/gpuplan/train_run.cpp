// tools/gpuplan/train_run.cpp: the training run of `gpuplan train`'s flags (train_run.hpp).
#include "train_run.hpp"

#include "cli.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/training_run_json.hpp>

#include <fmt/format.h>

#include <cmath>

namespace gpuplan::cli {

namespace {

constexpr field run_table[] = {
    {"tokens", "--tokens", field_type::text, "train-time",
     "Token budget: time, GPU-hours and FLOPs to train on it (15T, 2e12, 300B)"},
    {"nodes", "--nodes", field_type::count, "train-time",
     "Nodes in the cluster (default: as many as the GPUs need)"},
    {"fabric", "--fabric", field_type::text, "train-time",
     with_values<"Network between nodes: ", fabric_choices, " (default infiniband)">},
    {"failures_per_node_day", "--failures-per-node-day", field_type::number, "train-time",
     "Job-stopping failures per 8-GPU node per day (default 0.00379, Llama 3's 419 in 54 days on "
     "2,048 nodes; docs/models/cost.md)"},
    {"restart_minutes", "--restart-minutes", field_type::number, "train-time",
     "Minutes from a failure to training again, besides the lost work (default 10)"},
    {"checkpoint_interval_hours", "--checkpoint-interval-hours", field_type::number, "train-time",
     "Hours of training between checkpoints (default: the Young/Daly optimum)"},
    {"checkpoint_write_seconds", "--checkpoint-write-seconds", field_type::number, "train-time",
     "Seconds one checkpoint stops training (default: its bytes at 122 MB/s per GPU)"},
    {"no_failures", "--no-failures", field_type::flag, "train-time",
     "Reserve the steady-state time: no failures, restarts or checkpoints"},
    {"rampup_batch_size", "--rampup-batch-size", field_type::text, "train-time",
     "Batch-size ramp-up as Megatron's --rampup-batch-size: 'START INCREMENT SAMPLES' (e.g. '192 "
     "16 9765625'; commas also work): the time to train runs those steps first"},
};

/// A reliability flag's value: finite, not negative (and not zero unless `zero_ok`), at most
/// `max` (beyond it a typo, and the model's figures lose their meaning).
double reliability_number(const settings& s, std::string_view key, bool zero_ok, double max) {
  const double v = *s.number(key);
  if (!std::isfinite(v) || v < 0.0 || (!zero_ok && v == 0.0) || v > max)
    throw usage_error(fmt::format("{} must be a {} number of at most {:g} (got {:g})", s.name(key),
                                  zero_ok ? "non-negative" : "positive", max, v));
  return v;
}

/// Shortest checkpoint interval taken, in hours: a second. No run checkpoints more often than it
/// takes a step, and a training step takes a second or more at the scales the reliability model
/// is for; --checkpoint-interval-hours 1e-308 made the checkpoint count infinite ("inf days", a
/// JSON null; gpuplan issue 22).
constexpr double min_checkpoint_interval_hours = 1.0 / 3600.0;

/// --rampup-batch-size "START INCREMENT SAMPLES" into the plan's config, each checked against
/// the batch and the layout with the flag named.
void set_rampup(const settings& s, const std::string& text, training_plan& p) {
  const std::string flag = s.name("rampup_batch_size");
  std::string spaced = text;
  for (char& ch : spaced)
    if (ch == ',') ch = ' ';
  double v[3]{};
  int n = 0;
  std::size_t at = 0;
  while (at < spaced.size()) {
    while (at < spaced.size() && spaced[at] == ' ') ++at;
    if (at == spaced.size()) break;
    std::size_t end = spaced.find(' ', at);
    if (end == std::string::npos) end = spaced.size();
    const std::string word = spaced.substr(at, end - at);
    std::string digits;
    for (char ch : word)
      if (ch != '_') digits += ch;  // Megatron's scripts write 9_765_625
    if (n == 3 || digits.empty() ||
        digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 15)
      throw usage_error(fmt::format("{} takes three whole numbers, START INCREMENT SAMPLES (got "
                                    "'{}')",
                                    flag, text));
    v[n++] = std::stod(digits);
    at = end;
  }
  if (n != 3)
    throw usage_error(fmt::format("{} takes three whole numbers, START INCREMENT SAMPLES (got '{}')",
                                  flag, text));
  training_config& c = p.config;
  const int batch = plan_global_batch(p);
  if (c.global_batch == 0)
    throw usage_error(flag + " needs --global-batch (the batch the ramp ends at)");
  if (!(v[0] >= 1 && v[0] < batch))
    throw usage_error(fmt::format("{}: START ({:g}) must be at least 1 and below --global-batch "
                                  "({})",
                                  flag, v[0], batch));
  if (!(v[1] >= 1) || static_cast<long long>(batch - v[0]) % static_cast<long long>(v[1]) != 0)
    throw usage_error(fmt::format("{}: INCREMENT ({:g}) must divide --global-batch - START ({:g})",
                                  flag, v[1], batch - v[0]));
  if (!(v[2] >= 1))
    throw usage_error(fmt::format("{}: SAMPLES must be at least 1", flag));
  const long long unit = 1LL * c.micro_batch * p.layout.dp;
  if (static_cast<long long>(v[0]) % unit != 0 || static_cast<long long>(v[1]) % unit != 0)
    throw usage_error(fmt::format("{}: START and INCREMENT must be multiples of --micro-batch x dp "
                                  "({})",
                                  flag, unit));
  if (c.micro_batches > 0)
    throw usage_error(flag + " changes the micro-batches per step: drop --micro-batches");
  c.rampup_start = static_cast<int>(v[0]);
  c.rampup_increment = static_cast<int>(v[1]);
  c.rampup_samples = v[2];
}

}  // namespace

reliability_assumptions reliability_from(const settings& s, const reliability_assumptions& base) {
  reliability_assumptions a = base;
  // a flag and a --set (or the plan's "assumptions") of the same assumption: give one
  for (auto [key, name] : {std::pair{"no_failures", "reliability.enabled"},
                           {"failures_per_node_day", "reliability.failures_per_node_day"},
                           {"restart_minutes", "reliability.restart"},
                           {"checkpoint_interval_hours", "reliability.checkpoint_interval"},
                           {"checkpoint_write_seconds", "reliability.checkpoint_write"}}) {
    if (!s.has(key)) continue;
    assumption_set set;
    set.reliability = base;
    for (const io::changed_assumption& c : io::changed_assumptions(set))
      if (c.name == name)
        throw usage_error(fmt::format("{} and the assumption {} both set it: give one", s.name(key),
                                      name));
  }
  if (s.flag("no_failures").value_or(false)) {
    for (const char* other : {"failures_per_node_day", "restart_minutes",
                              "checkpoint_interval_hours", "checkpoint_write_seconds"})
      if (s.has(other))
        throw usage_error(fmt::format("{} turns the reliability model off; {} has no effect then",
                                      s.name("no_failures"), s.name(other)));
    a.enabled = false;
    return a;
  }
  // Bounds: a node failing every 86 s; a restart, an interval or a write of a year
  if (s.has("failures_per_node_day"))
    a.failures_per_node_day = reliability_number(s, "failures_per_node_day", true, 1000.0);
  if (s.has("restart_minutes"))
    a.restart = reliability_number(s, "restart_minutes", true, 525960.0) * units::minute;
  if (s.has("checkpoint_interval_hours")) {
    const double h = reliability_number(s, "checkpoint_interval_hours", false, 8766.0);
    if (h < min_checkpoint_interval_hours)
      throw usage_error(fmt::format("{} must be at least {:.3g} (a second, "
                                    "min_checkpoint_interval_hours; got {:g})",
                                    s.name("checkpoint_interval_hours"),
                                    min_checkpoint_interval_hours, h));
    a.checkpoint_interval = h * units::h;
  }
  if (s.has("checkpoint_write_seconds"))
    a.checkpoint_write =
        reliability_number(s, "checkpoint_write_seconds", false, 31557600.0) * units::s;
  return a;
}

std::string infeasible_run_message(const infeasible_training_run& e) {
  return fmt::format(
      "{} GPUs fail every {:.3g} min on average, less than a restart ({:.3g} min) plus half a "
      "checkpoint interval ({:.3g} min): the run makes no progress; check "
      "--failures-per-node-day, --restart-minutes and --checkpoint-interval-hours (or "
      "--no-failures)",
      e.gpus, e.estimate.mttf.in(units::minute), e.estimate.restart.in(units::minute),
      e.estimate.checkpoint_interval.in(units::minute));
}

modelled_training_run modelled_run(const run_description& d) {
  try {
    return plan_training_run({.plan = d.plan, .tokens = d.tokens, .reliability = d.reliability})
        .budget->run;
  } catch (const infeasible_training_run& e) {
    throw usage_error(infeasible_run_message(e));
  }
}

std::string interruptions_text(double n) {
  return n < 10 ? fmt::format("{:.2g}", n) : fmt::format("{:.0f}", n);
}

node_spec choose_node(const settings& s, const gpu_choice& gpu, int gpus, std::string_view command) {
  if (auto n = node_from(s)) {
    if (s.has("gpu") && n->gpu.name != gpu.spec.name)
      throw usage_error(fmt::format("{} holds {} GPUs; {} asks for {}", s.name("node"),
                                    n->gpu.name.view(), s.name("gpu"), gpu.spec.name.view()));
    return *n;
  }
  // the catalog server of a GPU under --power-limit holds the GPU as catalogued: limit it too
  if (const std::optional<node_spec> n = training_node_for(gpu.spec, gpus))
    return with_power_limit(s, *n);
  throw usage_error(fmt::format(
      "no catalog node carries {}: give --node NODE.json, a node JSON (GPUs per node, NVLink "
      "domain, NICs; docs/json-schema.md) that describes the server for {} GPUs (gpuplan {} "
      "needs the node's NVLink and NICs)",
      gpu.spec.name.view(), gpus, command));
}

std::span<const field> train_run_fields() { return run_table; }

std::string reliability_text(const reliability_estimate& e) {
  if (!e.enabled) return "";
  const bool fails = std::isfinite(e.mttf.value);
  const std::string interval = std::isfinite(e.checkpoint_interval.value)
                                   ? fmt::format("checkpoint every {} ({} each)",
                                                 secs(e.checkpoint_interval),
                                                 secs(e.checkpoint_write))
                                   : std::string("no checkpoints");
  if (!fails)
    return fmt::format("expected with checkpoints: {} (ETTR {:.3f}; no failures; {})", secs(e.wall),
                       e.ettr, interval);
  return fmt::format(
      "expected with failures and checkpoints: {} (ETTR {:.3f}; MTTF {}, {} interruptions; {})",
      secs(e.wall), e.ettr, secs(e.mttf),
      interruptions_text(e.interruptions),
      interval);
}

run_description training_run_from(const settings& s, std::string_view command) {
  run_description d;
  d.assumptions = assumptions_from(s);
  d.model = model_from(s, command);
  if (!d.model.transformer)
    throw usage_error(s.name("model") +
                      fmt::format(": gpuplan {} needs the model's architecture (a catalog name or "
                                  "a config.json), not a parameter count",
                                  command));
  const gpu_choice gpu = gpu_from(s);
  d.plan.model = *d.model.transformer;
  d.plan.layout = layout_from(s, d.model);
  d.plan.config = training_from(s);
  d.plan.assumptions = d.assumptions.step;
  // --framework/--amp/--master-weights/--chunked-loss as fit reads them: the step-time model
  // and the memory model follow the same training_config::framework
  d.framework_note = settle_framework(s, d.model, d.plan.layout, d.plan.config);
  if (d.plan.config.offload == offload_kind::params)
    throw usage_error(s.name("offload") +
                      " params: the step-time model covers optimizer offload only");
  d.plan.node = choose_node(s, gpu, d.plan.layout.gpus(), command);
  if (const std::optional<double> w = s.number("power_limit"))
    d.power_note = fmt::format(
        "power limit {:g} W: math rates at the SM clock the limit allows, draw at most the limit "
        "(docs/models/energy.md)\n",
        *w);
  if (auto n = s.count("nodes")) {
    // the cluster's GPUs within the largest count the models are defined for (an int product
    // in the models: --nodes 2147483647 wrapped it negative)
    if (1LL * *n * d.plan.node.gpus > parallel_layout::max_gpus)
      throw usage_error(fmt::format("{} {} x {} GPUs per node is more than {} GPUs "
                                    "(parallel_layout::max_gpus, the most the models are "
                                    "defined for)",
                                    s.name("nodes"), *n, d.plan.node.gpus,
                                    parallel_layout::max_gpus));
    d.plan.nodes = *n;
  }
  if (auto f = s.text("fabric")) {
    d.plan.fabric = enum_named<inter_node_fabric>(*f, s.name("fabric"), fabric_choices);
  }
  if (auto t = s.text("tokens")) {
    d.tokens = parse_count(*t, s.name("tokens")) * units::token;
    d.tokens_text = *t;
  }
  d.reliability = reliability_from(s, d.assumptions.reliability);
  if (auto r = s.text("rampup_batch_size")) set_rampup(s, *r, d.plan);
  return d;
}

}  // namespace gpuplan::cli
