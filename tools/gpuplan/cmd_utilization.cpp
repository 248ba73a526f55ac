// tools/gpuplan/cmd_utilization.cpp: `gpuplan utilization FILE...`: how the fleet actually
// ran, from nvidia-smi CSV logs, DCGM metrics (a Prometheus range query) or a plain CSV.
#include "chart.hpp"
#include "cli.hpp"
#include "options.hpp"
#include "progress.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/monitoring.hpp>
#include <gpuplan/plan/utilization.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace gpuplan::cli {

namespace {

constexpr field utilization_table[] = {
    {"growth", "--growth", field_type::number, "demand",
     "Demand growth per month as a fraction (0.05 = 5%), for the 'add capacity by' advice"},
    {"gpu", "--gpu", field_type::text, "fleet",
     "The monitored GPUs' model (catalog name or alias, H100-SXM5-80GB; default: the one model "
     "an nvidia-smi log's name column gives): sharing advice names the smallest MIG slice that "
     "holds a GPU's peak memory (GPU unknown: time-slicing only)"},
    {"chart", "--chart", field_type::text, "output",
     "Draw utilisation over time with the bands into FILE (.svg or .png, through gnuplot)"},
    {"throughput_chart", "--throughput-chart", field_type::text, "output",
     "Draw throughput over time (the files' tokens_per_s or requests_per_s column) into FILE"},
};

struct utilization_command {
  settings s;
  std::vector<std::string> files;
  bool json = false;
};

/// What the charts' times are: UTC, unless a reading's timestamp had no zone (nvidia-smi writes
/// the host's local time without one), which is kept as written.
std::string time_zone_of(const io::monitoring_files& in) {
  return in.times_without_zone > 0 ? "local time as logged (no zone in the file)" : "UTC";
}

/// The utilisation axis runs from usage_axis_below to usage_axis_above percent, not 0 to 100: a
/// GPU idle at 0% (or saturated at 100%) then draws just inside the plot, not on its border where
/// the axis line hid it.
constexpr double usage_axis_below = -4.0;
constexpr double usage_axis_above = 104.0;

chart::chart_spec usage_chart(const io::monitoring_files& in, const usage_report& r) {
  const std::vector<gpu_sample>& samples = in.samples;
  chart::chart_spec c;
  c.title = "GPU utilisation";
  c.x_label = "time";
  c.y_label = "utilisation (%)";
  c.x_is_time = true;
  c.time_zone = time_zone_of(in);
  c.y_min = usage_axis_below;
  c.y_max = usage_axis_above;
  const utilization_bands b{};
  c.bands = {{b.healthy_from * 100, b.healthy_to * 100, "healthy 70-90%"},
             {b.waste_below * 100, b.waste_below * 100, "waste below 30%"},
             {b.overload_above * 100, b.overload_above * 100, "overload above 95%"}};
  // One series per GPU (at most 8 drawn: the markers of the text chart).
  std::size_t shown = 0;
  for (const gpu_usage& g : r.gpus) {
    if (shown++ == 8) break;
    chart::series s{"GPU " + g.id, {}, chart::style::steps};
    for (const gpu_sample& x : samples)
      if (x.gpu == g.id) s.points.push_back({x.time, x.utilization * 100});
    c.data.push_back(std::move(s));
  }
  return c;
}

/// The throughput graph: each GPU's throughput over time and the fleet's total.
chart::chart_spec throughput_chart(const io::monitoring_files& in, const usage_report& r,
                                   const std::string& unit) {
  const std::vector<gpu_sample>& samples = in.samples;
  chart::chart_spec c;
  c.title = "Throughput";
  c.x_label = "time";
  c.y_label = unit;
  c.x_is_time = true;
  c.time_zone = time_zone_of(in);
  c.y_min = 0;
  std::size_t shown = 0;
  for (const gpu_usage& g : r.gpus) {
    if (!g.has_throughput) continue;
    if (shown++ == 7) break;  // the fleet total takes the eighth marker
    chart::series s{"GPU " + g.id, {}, chart::style::steps};
    for (const gpu_sample& x : samples)
      if (x.gpu == g.id && x.throughput) s.points.push_back({x.time, *x.throughput});
    c.data.push_back(std::move(s));
  }
  if (r.gpus.size() > 1) {
    // The fleet total at each sample time: every GPU's latest reading at or before it.
    std::vector<const gpu_sample*> v;
    for (const gpu_sample& x : samples)
      if (x.throughput) v.push_back(&x);
    std::sort(v.begin(), v.end(), [](const gpu_sample* a, const gpu_sample* b) {
      return a->time < b->time;
    });
    std::map<std::string, double> latest;
    chart::series total{"fleet total", {}, chart::style::steps};
    for (std::size_t k = 0; k < v.size(); ++k) {
      latest[v[k]->gpu] = *v[k]->throughput;
      if (k + 1 < v.size() && v[k + 1]->time == v[k]->time) continue;
      double sum = 0;
      for (const auto& [id, t] : latest) sum += t;
      total.points.push_back({v[k]->time, sum});
    }
    c.data.push_back(std::move(total));
  }
  return c;
}

/// --growth: a fraction, not negative, at most max_monthly_growth.
double read_growth(const settings& s) {
  const double g = s.number("growth").value_or(0.0);
  if (!(g >= 0) || !std::isfinite(g))
    throw usage_error(fmt::format("{} must be a fraction, not negative (0.05 = 5% a month)",
                                  s.name("growth")));
  // Fastest growth taken: 10 (+1000% a month). Demand that grows elevenfold a month for long is
  // unheard of (ChatGPT's record launch: about 100 million users in its first two months); a
  // larger figure is a percentage typed as a fraction, and 1e308 printed a wrapped negative %.
  constexpr double max_monthly_growth = 10.0;
  if (g > max_monthly_growth)
    throw usage_error(fmt::format("{} must be at most {:g} (+{:g}% a month, max_monthly_growth; "
                                  "0.05 = 5%; got {:g})",
                                  s.name("growth"), max_monthly_growth, max_monthly_growth * 100,
                                  g));
  return g;
}

/// The chart files asked for (--chart, --throughput-chart), drawn.
struct drawn_charts {
  std::optional<chart::file_result> usage, throughput;
};

drawn_charts draw_charts(const settings& s, const io::monitoring_files& in,
                         const usage_report& r) {
  drawn_charts d;
  if (const std::optional<std::string> file = s.text("chart"))
    d.usage = chart::render_file(usage_chart(in, r), *file, s.name("chart"));
  if (const std::optional<std::string> file = s.text("throughput_chart")) {
    if (in.throughput_unit.empty())
      throw usage_error(s.name("throughput_chart") +
                        ": the files have no throughput column (tokens_per_s or requests_per_s "
                        "in a plain CSV)");
    d.throughput = chart::render_file(throughput_chart(in, r, in.throughput_unit), *file,
                                      s.name("throughput_chart"));
  }
  return d;
}

void print_usage_json(const io::monitoring_files& in, const usage_report& r,
                      const drawn_charts& d) {
  nlohmann::json j = io::to_json(r, in);
  if (d.usage) j["chart"] = d.usage->drawn ? d.usage->image.string() : d.usage->script.string();
  if (d.throughput)
    j["throughput_chart"] =
        d.throughput->drawn ? d.throughput->image.string() : d.throughput->script.string();
  print_json(std::move(j));
}

void print_usage_text(const io::monitoring_files& in, const usage_report& r,
                      const drawn_charts& d) {
  // within the files and across them (DCGM exports of one host)
  const int duplicates = in.duplicate_readings + r.fleet.duplicates;
  table t;
  t.header = {"GPU", "mean", "p95", "peak", "peak/avg", "<30%", "30-70%", "70-90%", "90-95%",
              ">95%", "memory peak", "power mean", "samples", "gaps"};
  t.numeric = {false, true, true, true, true, true, true, true, true, true, true, true, true, true};
  auto row = [&](const gpu_usage& g) {
    t.rows.push_back({g.id + (g.idle ? " (idle)" : ""), pct(g.mean), pct(g.p95), pct(g.peak),
                      fmt::format("{:.2f}", g.peak_to_average), pct(g.bands.under_30),
                      pct(g.bands.b30_70), pct(g.bands.b70_90), pct(g.bands.b90_95),
                      pct(g.bands.over_95), g.has_memory ? show(g.memory_peak) : "-",
                      g.has_power ? show(g.power_mean) : "-", std::to_string(g.samples),
                      std::to_string(g.gaps)});
  };
  for (const gpu_usage& g : r.gpus) row(g);
  row(r.fleet);
  fmt::print("{} GPU{} from {} ({}); time-weighted, shares of observed time\n\n", r.gpus.size(),
             r.gpus.size() == 1 ? "" : "s", fmt::join(in.files, ", "), fmt::join(in.formats, ", "));
  fmt::print("{}", t.render());
  if (in.missing_readings > 0)
    fmt::print("{} utilisation reading{} missing ([N/A], NaN) and left out\n", in.missing_readings,
               in.missing_readings == 1 ? " was" : "s were");
  if (duplicates > 0)
    fmt::print("{} duplicate reading{} (a GPU at a time it already had a reading for) averaged "
               "in\n",
               duplicates, duplicates == 1 ? "" : "s");
  fmt::print("\nAdvice:\n");
  for (const std::string& a : r.advice) fmt::print("  - {}\n", a);
  fmt::print("\n{}", chart::render_text(usage_chart(in, r)));
  if (!in.throughput_unit.empty()) {
    fmt::print("\nThroughput ({}): fleet mean {:.4g}, peak {:.4g}", in.throughput_unit,
               r.fleet.throughput_mean, r.fleet.throughput_peak);
    fmt::print("\n\n{}", chart::render_text(throughput_chart(in, r, in.throughput_unit)));
  }
  if (d.usage) fmt::print("\n{}\n", d.usage->message);
  if (d.throughput) fmt::print("\n{}\n", d.throughput->message);
}

/// The files read (io::read_monitoring_files) under a progress bar of kilobytes read, drawn
/// when reading takes over a second (a month of nvidia-smi logs, 4 million rows, takes several);
/// `slow` says whether it was drawn.
io::monitoring_files read_with_progress(const std::vector<std::string>& files, bool& slow) {
  std::uintmax_t total = 0;  // the regular files' sizes; a pipe's is unknown (not counted)
  for (const std::string& file : files) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(file, ec)) {
      const std::uintmax_t size = std::filesystem::file_size(file, ec);
      if (!ec) total += size;
    }
  }
  progress::bar bar(static_cast<std::size_t>(total / 1000),
                    {.unit = "kB", .delay = 1.0, .stride = 1});
  std::map<std::string, std::uintmax_t> read;  // bytes read of each file so far
  std::uintmax_t done = 0;
  io::read_options o;
  o.on_read = [&](const std::string& file, std::uintmax_t bytes) {
    std::uintmax_t& last = read[file];
    done += bytes - last;
    last = bytes;
    bar.update(static_cast<std::size_t>(std::min(done, total) / 1000));
  };
  io::monitoring_files in = io::read_monitoring_files(files, o);
  slow = bar.shown();
  bar.finish();
  return in;
}

/// Read the files (io::read_monitoring_files), analyse them (analyze_usage,
/// plan/utilization.hpp), print the report.
int run_utilization(utilization_command& f) {
  f.s.read_plan();
  if (f.files.empty()) throw usage_error("utilization: give one or more monitoring files");
  usage_options o;
  o.monthly_growth = read_growth(f.s);
  bool slow = false;
  const io::monitoring_files in = read_with_progress(f.files, slow);
  // The GPU model for the MIG check: --gpu, else the one model the files name (nvidia-smi's
  // `name` column) when the catalog knows it; a mixed fleet without --gpu gets time-slicing only.
  if (const std::optional<std::string> gpu = f.s.text("gpu"))
    o.gpu = resolve_gpu(*gpu).spec;
  else if (in.gpu_models.size() == 1)
    if (const gpu_spec* g = catalog::find_gpu(in.gpu_models.front())) o.gpu = *g;
  // Reading took over a second: the analysis of as many readings takes a while too (a third of
  // the reading's time; docs/performance.md), said on stderr while it runs, then erased.
  constexpr std::string_view erase = "\r                                                  \r";
  if (slow) fmt::print(stderr, "analysing {} readings...", in.samples.size());
  std::fflush(stderr);
  const usage_report r = analyze_usage(in.samples, o);
  if (slow) fmt::print(stderr, "{}", erase);
  const drawn_charts d = draw_charts(f.s, in, r);
  if (f.json)
    print_usage_json(in, r, d);
  else
    print_usage_text(in, r, d);
  return 0;
}

}  // namespace

command add_utilization_command(CLI::App& app) {
  auto f = std::make_shared<utilization_command>();
  CLI::App* sub = &app;
  sub->add_option("files", f->files, "Monitoring files (the format is recognised from the content)")
      ->required();
  f->s.add(sub, std::span<const field>(utilization_table));
  f->s.add_plan_option(sub);
  sub->add_flag("--json", f->json, "Print the analysis as JSON (schema: docs/json-schema.md)");
  return {sub, [f] { return run_utilization(*f); }, [f] { return &f->s; }};
}

}  // namespace gpuplan::cli
