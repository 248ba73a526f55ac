// tools/gpuplan/cmd_serve.cpp: `gpuplan serve`, how fast does a deployment serve, and at what
// latency?
//
// The options are a contract (docs/cli.md): the shared groups of options.hpp (model, GPU, node,
// layout, serving engine) plus serve's own: --input-len, --output-len, --concurrency or --rate,
// --ttft-slo, --tpot-slo, --batching, --dtype, --chunked-prefill, --sweep, --chart, --json. The
// command reads the flags into serving_deployment_inputs, gets the report by one call
// (plan/serving_deployment.hpp plan_serving_deployment) and prints it: as text here, as JSON by
// io/serving_deployment_json.hpp.
#include "chart.hpp"
#include "cli.hpp"
#include "options.hpp"
#include "serve_setup.hpp"

#include <gpuplan/io/serving_deployment_json.hpp>
#include <gpuplan/plan/serving_deployment.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpuplan::cli {

namespace {

using ft = field_type;

// serve's own fields; the rest of the serving flags are serve_load_fields() and
// serve_point_fields() (serve_setup.hpp).
constexpr field serve_table[] = {
    {"sweep", "--sweep", ft::count, "serve-load",
     "Also report the throughput-latency curve at this many concurrencies (<= 64)"},
};

struct serve_command {
  settings s;
  bool json = false;
  bool require_fit = false;
  std::string chart;  ///< --chart FILE.svg|FILE.png: the curve drawn by gnuplot (chart.hpp)
};

std::string ms(duration d) { return fmt::format("{:.1f} ms", d.in(units::ms)); }
std::string per_s(double v) {
  return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.2f}", v);
}

std::vector<std::string> row_of(const serving_point& p) {
  return {fmt::format("{:g}", std::round(p.concurrency * 10) / 10),
          ms(p.ttft),
          ms(p.tpot),
          fmt::format("{:.2f} s", p.e2e.in(units::s)),
          per_s(p.output_tokens_per_s.in(units::tokens_per_s)),
          per_s(p.output_tokens_per_s_per_gpu.in(units::tokens_per_s)),
          per_s(p.requests_per_s.in(units::requests_per_s))};
}

table point_table() {
  return {{"concurrency", "TTFT", "TPOT", "end-to-end", "tok/s", "tok/s/GPU", "req/s"},
          {true, true, true, true, true, true, true},
          {}};
}

/// The throughput-latency curve as a chart: output tokens/s per GPU against TPOT.
chart::chart_spec curve_chart(const serving_curve& c, const std::string& title) {
  chart::series line{"output tokens/s per GPU", {}, chart::style::lines};
  for (int i = 0; i < c.size(); ++i)
    line.points.emplace_back(c.at(i).tpot.in(units::ms),
                             c.at(i).output_tokens_per_s_per_gpu.in(units::tokens_per_s));
  chart::chart_spec spec;
  spec.title = title;
  spec.x_label = "time per output token (ms)";
  spec.y_label = "output tokens/s per GPU";
  spec.data = {line};
  spec.y_min = 0.0;
  return spec;
}

std::string curve_title(const serve_setup& setup) {
  return fmt::format("{} on {} x {}, {} / {} tokens", setup.model.name(),
                     setup.gpus_per_replica(), setup.plan.node.gpu.name.view(), setup.input_len,
                     setup.output_len);
}

/// The flags into the library's inputs: the plan with its load, the SLO, the curve's points
/// (--sweep, 16 with --chart), and --require-fit's "time only a deployment that fits".
serving_deployment_inputs serve_inputs(const serve_command& cmd, serve_setup& setup) {
  const settings& s = cmd.s;
  setup = serve_setup_from(s, "serve");
  set_serve_point(s, setup.plan);
  const int sweep = s.count("sweep").value_or(cmd.chart.empty() ? 0 : 16);
  if (sweep > max_curve_points)
    throw usage_error(
        fmt::format("{} must be at most {} (got {})", s.name("sweep"), max_curve_points, sweep));
  return {.plan = setup.plan,
          .slo = setup.slo,
          .curve_points = sweep,
          .time_only_if_fits = cmd.require_fit,
          .pricing = std::nullopt};
}

/// The deployment's two header lines: model, GPUs, layout, engine; dtypes and the requests.
void print_deployment(const serve_setup& setup, const serving_deployment_report& r) {
  const serving_plan& p = r.plan;
  fmt::print("{} on {} x {}{}, tp {}{} pp {}, {} replica(s); engine {}, {} batching{}\n",
             setup.model.name(), setup.gpus_per_replica() * p.layout.dp, p.node.gpu.name.view(),
             setup.node ? fmt::format(" ({})", p.node.name.view()) : std::string(), p.layout.tp,
             p.dp_attention  ? fmt::format(" (attention data-parallel, experts: ep {})", p.layout.ep)
             : p.layout.ep > 1 ? fmt::format(" (experts: ep {})", p.layout.ep)
                               : std::string(),
             p.layout.pp, p.layout.dp, to_string(p.config.engine), to_string(p.batching),
             r.chunked_prefill() ? ", chunked prefill" : "");
  fmt::print("weights {}, KV cache {}, math {}; requests of {}{} prompt + {} output tokens\n\n",
             to_string(p.config.weight_dtype), to_string(p.config.kv_dtype),
             to_string(p.compute_dtype),
             p.mix.size() > 1 ? fmt::format("a {}-class mix, mean ", p.mix.size()) : std::string(),
             setup.input_len, setup.output_len);
  if (const std::string a = assumptions_text(setup.used_assumptions()); !a.empty())
    fmt::print("{}\n\n", a);
  if (p.speculation.on())
    fmt::print("speculative decoding with the model's MTP: {} draft token(s) a step, acceptance "
               "{:g}: {:.2f} tokens a step per sequence\n\n",
               p.speculation.draft_tokens, p.speculation.acceptance,
               p.speculation.tokens_per_step());
}

/// The point's latencies in the layout of vLLM's benchmark_serving ("Mean TTFT (ms)", "Median
/// TTFT (ms)", "P99 TTFT (ms)", then TPOT, ITL and end-to-end), so a run of it reads against
/// this line by line. TTFT and end-to-end percentiles come from the request mix and the prefill
/// queue's wait; TPOT and ITL percentiles from the steps that also carry prefill work
/// (models/serving.hpp, decode_gap_spread).
void print_latency_percentiles(const serving_point& p) {
  // one block of vLLM's output: its rule, then the mean, median and P99 of one latency
  auto block = [](const char* rule, const char* name, duration mean, duration p50, duration p99) {
    fmt::print("  {}\n", rule);
    const std::pair<const char*, duration> rows[] = {{"Mean", mean}, {"Median", p50}, {"P99", p99}};
    for (const auto& [what, d] : rows)
      fmt::print("  {:<34}{:.2f}\n", fmt::format("{} {} (ms):", what, name), d.in(units::ms));
  };
  fmt::print("\n  Latency as vLLM's benchmark_serving reports it (model):\n");
  block("---------------Time to First Token----------------", "TTFT", p.ttft, p.ttft_p50,
        p.ttft_p99);
  block("-----Time per Output Token (excl. 1st token)------", "TPOT", p.tpot, p.tpot_p50,
        p.tpot_p99);
  block("---------------Inter-token Latency----------------", "ITL", p.itl, p.itl_p50, p.itl_p99);
  block("----------------End-to-end Latency----------------", "E2EL", p.e2e, p.e2e_p50, p.e2e_p99);
  fmt::print("  TPOT and ITL spread from the steps that also carry a prompt's prefill (a share of "
             "them, each longer by that prefill); TTFT and E2EL percentiles from the request mix "
             "and the prefill queue's wait.\n");
}

/// The operating point, the engine's admission limit, the memory verdict, the ridge.
void print_point(const serving_deployment_report& r) {
  table t = point_table();
  t.rows.push_back(row_of(r.point));
  fmt::print("{}", t.render("  "));
  print_latency_percentiles(r.point);
  fmt::print("\n  The engine admits {} sequences per replica (KV cache, max_num_seqs){}{}.\n",
             r.point.kv_capacity,
             r.point.kv_limited ? "; the concurrency was capped and the rest queue" : "",
             r.point.saturated ? "; the rate exceeds what the deployment serves" : "");
  fmt::print("  {}\n", memory_verdict_text(r.memory));
  if (r.ridge_batch > 0)
    fmt::print("  The linear layers turn compute-bound at a decode batch of {}; this step is {}.\n",
               r.ridge_batch, r.point.step.compute_bound() ? "compute-bound" : "bandwidth-bound");
}

/// The best point under the SLO, or that none meets it.
void print_slo(const serving_slo& slo, const slo_result& best) {
  const std::string ttft = slo.ttft.value > 0 ? ms(slo.ttft) : "any";
  const std::string tpot = slo.tpot.value > 0 ? ms(slo.tpot) : "any";
  if (!best.found) {
    fmt::print("\nNo concurrency meets the SLO (TTFT <= {}, TPOT <= {}).\n", ttft, tpot);
    return;
  }
  fmt::print("\nBest under the SLO (TTFT <= {}, TPOT <= {}):\n", ttft, tpot);
  table b = point_table();
  b.rows.push_back(row_of(best.best));
  fmt::print("{}", b.render("  "));
}

/// The throughput-latency curve as a table, and as a chart when it has two points or more.
void print_curve(const serving_curve& curve, const std::string& title) {
  fmt::print("\nThroughput-latency curve:\n");
  table c = point_table();
  for (int i = 0; i < curve.size(); ++i) c.rows.push_back(row_of(curve.at(i)));
  if (curve.size() >= 2)
    fmt::print("{}\n{}", c.render("  "), chart::render_text(curve_chart(curve, title)));
  else
    fmt::print("{}", c.render("  "));
}

void print_serve_text(const serve_setup& setup, const serving_deployment_report& r,
                      const std::optional<chart::file_result>& drawn) {
  print_deployment(setup, r);
  print_point(r);
  if (r.best) print_slo(r.slo, *r.best);
  if (r.curve) print_curve(*r.curve, curve_title(setup));
  if (drawn) fmt::print("\n{}\n", drawn->message);
  print_warnings(r.estimates);
}

int run_serve(serve_command& cmd) {
  cmd.s.read_plan();
  serve_setup setup;
  const serving_deployment_report r = plan_serving_deployment(serve_inputs(cmd, setup));
  if (!r.timed) return print_unfit_serving(setup, r.memory, cmd.json);
  std::optional<chart::file_result> drawn;
  if (!cmd.chart.empty())
    drawn = chart::render_file(curve_chart(r.curve.value_or(serving_curve{}), curve_title(setup)),
                               cmd.chart, "--chart");
  if (!cmd.json) {
    print_serve_text(setup, r, drawn);
    return 0;
  }
  nlohmann::json j = io::to_json(r);
  j["assumptions"] = assumptions_json(setup.used_assumptions());
  if (drawn) j["chart"] = drawn->drawn ? drawn->image.string() : drawn->script.string();
  add_warnings(j, r.estimates);
  print_json(std::move(j));
  if (drawn) fmt::print(stderr, "{}\n", drawn->message);
  return 0;
}

}  // namespace

command add_serve_command(CLI::App& app) {
  auto cmd = std::make_shared<serve_command>();
  CLI::App* f = &app;
  settings& s = cmd->s;
  s.add(f, {model_fields(), gpu_fields(), node_fields(), layout_fields(), serving_fields(),
            serve_load_fields(), serve_point_fields(), serve_table, assumption_fields()});
  // Not serve's, though a user of fit or train may reach for them: unlisted and refused. A
  // serving plan has no ZeRO, context parallelism, sequence parallelism, interleaved pipeline
  // schedule or FSDP shard groups (models/serving.hpp reads none of them).
  for (const char* key : {"batch", "context"})
    s.refuse(f, key, "is fit's; serve takes --concurrency, --input-len and --output-len");
  s.refuse(f, field_use::train, "is a training setting; serve does not take it");
  s.add_plan_option(f);
  f->add_flag("--json", cmd->json, "Print the result as JSON (schema: docs/json-schema.md)");
  add_require_fit_flag(f, cmd->require_fit);
  f->add_option("--chart", cmd->chart,
                "Draw the throughput-latency curve into FILE.svg or FILE.png with gnuplot "
                "(16 points unless --sweep says)");
  return {f, [cmd] { return run_serve(*cmd); }, [cmd] { return &cmd->s; }};
}

}  // namespace gpuplan::cli
