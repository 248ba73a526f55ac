// tools/gpuplan/cmd_serve.cpp: `gpuplan serve`, how fast does a deployment serve, and at what
// latency?
//
// The options are a contract (docs/cli.md): the shared groups of options.hpp (model, GPU, node,
// layout, serving engine) plus serve's own: --input-len, --output-len, --concurrency or --rate,
// --ttft-slo, --tpot-slo, --batching, --dtype, --chunked-prefill, --sweep, --chart, --json. The
// model is models/serving.hpp (docs/models/serving.md).
#include "chart.hpp"
#include "cli.hpp"
#include "options.hpp"
#include "serve_setup.hpp"

#include <gpuplan/models/estimates.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/io/serve_json.hpp>
#include <gpuplan/models/serving.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
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
  for (int i = 0; i < c.count; ++i)
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

int run_serve(serve_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  for (const char* key : {"batch", "context"})
    if (s.has(key))
      throw usage_error(fmt::format(
          "{} is fit's; serve takes --concurrency, --input-len and --output-len", s.name(key)));
  serve_setup setup = serve_setup_from(s, "serve");
  const model_choice& model = setup.model;
  serving_plan& p = setup.plan;
  const int per_replica = setup.gpus_per_replica();
  const std::optional<node_spec>& node = setup.node;
  const int in = setup.input_len, out = setup.output_len;
  set_serve_point(s, p);
  const serving_slo slo = setup.slo;
  const bool want_slo = setup.want_slo();
  const int sweep = s.count("sweep").value_or(cmd.chart.empty() ? 0 : 16);
  if (sweep > max_curve_points)
    throw usage_error(
        fmt::format("{} must be at most {} (got {})", s.name("sweep"), max_curve_points, sweep));

  // the memory verdict of `gpuplan fit --infer` (one sequence of the longest request)
  const fit_report memory = serving_fit(p);
  if (cmd.require_fit && !memory.fits()) return print_unfit_serving(setup, memory, cmd.json);
  const serving_point point = serve(p);
  const slo_result best = want_slo ? best_under_slo(p, slo) : slo_result{};
  const serving_curve curve = sweep > 0 ? throughput_latency_curve(p, sweep) : serving_curve{};
  const std::string title = fmt::format("{} on {} x {}, {} / {} tokens", model.name(), per_replica,
                                        p.node.gpu.name.view(), in, out);
  std::optional<chart::file_result> drawn;
  if (!cmd.chart.empty())
    drawn = chart::render_file(curve_chart(curve, title), cmd.chart, "--chart");

  if (cmd.json) {
    nlohmann::json j = io::to_json(point);
    j["model"] = model.name();
    j["gpu"] = std::string(p.node.gpu.name.view());
    j["node"] = std::string(p.node.name.view());
    j["layout"] = io::to_json(p.layout);
    j["engine"] = std::string(to_string(p.config.engine));
    j["batching"] = std::string(to_string(p.batching));
    j["chunked_prefill"] = p.chunked_prefill && p.batching == batching_mode::continuous;
    j["decode_attention"] = std::string(to_string(p.assumptions.decode_attention));
    j["moe_all_to_all"] = p.assumptions.moe_all_to_all && p.layout.ep > 1;
    j["dtype"] = std::string(to_string(p.compute_dtype));
    j["weight_dtype"] = std::string(to_string(p.config.weight_dtype));
    j["kv_dtype"] = std::string(to_string(p.config.kv_dtype));
    j["input_len"] = in;
    j["output_len"] = out;
    if (p.mix.count > 1) j["mix"] = io::to_json(p.mix);
    j["ridge_batch"] = ridge_batch(p);
    add_memory_verdict(j, memory);
    if (want_slo) {
      j["slo"] = io::to_json(slo);
      j["best"] = io::to_json(best)["best"];
      j["slo_met"] = best.found;
    }
    if (sweep > 0) j["curve"] = io::to_json(curve);
    if (drawn) j["chart"] = drawn->drawn ? drawn->image.string() : drawn->script.string();
    add_warnings(j, serving_estimates(p));
    print_json(j);
    if (drawn) fmt::print(stderr, "{}\n", drawn->message);
    return 0;
  }
  const bool chunked = p.chunked_prefill && p.batching == batching_mode::continuous;
  fmt::print("{} on {} x {}{}, tp {}{} pp {}, {} replica(s); engine {}, {} batching{}\n",
             model.name(), per_replica * p.layout.dp, p.node.gpu.name.view(),
             node ? fmt::format(" ({})", p.node.name.view()) : std::string(), p.layout.tp,
             p.layout.ep > 1 ? fmt::format(" (experts: ep {})", p.layout.ep) : std::string(),
             p.layout.pp, p.layout.dp, to_string(p.config.engine), to_string(p.batching),
             chunked ? ", chunked prefill" : "");
  fmt::print("weights {}, KV cache {}, math {}; requests of {}{} prompt + {} output tokens\n\n",
             to_string(p.config.weight_dtype), to_string(p.config.kv_dtype),
             to_string(p.compute_dtype),
             p.mix.count > 1 ? fmt::format("a {}-class mix, mean ", p.mix.count) : std::string(),
             in, out);
  table t = point_table();
  t.rows.push_back(row_of(point));
  fmt::print("{}", t.render("  "));
  const int ridge = ridge_batch(p);
  fmt::print("\n  The engine admits {} sequences per replica (KV cache, max_num_seqs){}{}.\n",
             point.kv_capacity,
             point.kv_limited ? "; the concurrency was capped and the rest queue" : "",
             point.saturated ? "; the rate exceeds what the deployment serves" : "");
  fmt::print("  {}\n", memory_verdict_text(memory));
  if (ridge > 0)
    fmt::print("  The linear layers turn compute-bound at a decode batch of {}; this step is {}.\n",
               ridge, point.step.compute_bound() ? "compute-bound" : "bandwidth-bound");
  if (want_slo) {
    if (best.found) {
      fmt::print("\nBest under the SLO (TTFT <= {}, TPOT <= {}):\n",
                 slo.ttft.value > 0 ? ms(slo.ttft) : "any",
                 slo.tpot.value > 0 ? ms(slo.tpot) : "any");
      table b = point_table();
      b.rows.push_back(row_of(best.best));
      fmt::print("{}", b.render("  "));
    } else {
      fmt::print("\nNo concurrency meets the SLO (TTFT <= {}, TPOT <= {}).\n",
                 slo.ttft.value > 0 ? ms(slo.ttft) : "any",
                 slo.tpot.value > 0 ? ms(slo.tpot) : "any");
    }
  }
  if (sweep > 0) {
    fmt::print("\nThroughput-latency curve:\n");
    table c = point_table();
    for (int i = 0; i < curve.count; ++i) c.rows.push_back(row_of(curve.at(i)));
    if (curve.count >= 2)
      fmt::print("{}\n{}", c.render("  "), chart::render_text(curve_chart(curve, title)));
    else
      fmt::print("{}", c.render("  "));
  }
  if (drawn) fmt::print("\n{}\n", drawn->message);
  print_warnings(serving_estimates(p));
  return 0;
}

}  // namespace

command add_serve_command(CLI::App& app) {
  auto cmd = std::make_shared<serve_command>();
  CLI::App* f = &app;
  settings& s = cmd->s;
  s.add(f, {model_fields(), gpu_fields(), node_fields(), layout_fields(), serving_fields(),
            serve_load_fields(), serve_point_fields(), serve_table});
  s.add_plan_option(f);
  f->add_flag("--json", cmd->json, "Print the result as JSON (schema: docs/json-schema.md)");
  add_require_fit_flag(f, cmd->require_fit);
  f->add_option("--chart", cmd->chart,
                "Draw the throughput-latency curve into FILE.svg or FILE.png with gnuplot "
                "(16 points unless --sweep says)");
  return {f, [cmd] { return run_serve(*cmd); }, [cmd] { return &cmd->s; }};
}

}  // namespace gpuplan::cli
