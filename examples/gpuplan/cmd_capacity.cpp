// examples/gpuplan/cmd_capacity.cpp: `gpuplan capacity`: replicas for a demand at a wait SLO,
// the utilisation they run at, growth month by month, and Kubernetes resource requests.
//
//   gpuplan capacity --rate 30 --peak-factor 1.6 --growth 10% --months 12
//       --wait-slo 2 --replica-rate 2 --service-time 4 [--json] [--chart plan.svg]
#include "chart.hpp"
#include "cli.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/io/capacity_json.hpp>
#include <gpuplan/plan/capacity.hpp>

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

namespace {

struct capacity_flags {
  std::string rate, peak_factor = "1", hourly, arrival_cv = "1", growth = "0", months = "12";
  std::string wait_slo, wait_percentile = "99";
  std::string replica_rate, service_time, service_cv = "1", gpus_per_replica = "1";
  std::string current_replicas = "0", price;
  std::string gpu, mig, kubernetes, image;
  std::string chart;
  bool json = false;
};

double number(const std::string& text, const std::string& flag) {
  std::string_view t = text;
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc{} || end != t.data() + t.size() || !std::isfinite(v))
    throw usage_error(fmt::format("{} '{}' is not a number", flag, text));
  return v;
}

double positive(const std::string& text, const std::string& flag) {
  const double v = number(text, flag);
  if (!(v > 0)) throw usage_error(fmt::format("{} must be positive (got {})", flag, text));
  return v;
}

/// "10%" -> 0.10, "0.1" -> 0.1.
double fraction(const std::string& text, const std::string& flag) {
  if (!text.empty() && text.back() == '%')
    return number(text.substr(0, text.size() - 1), flag) / 100.0;
  return number(text, flag);
}

/// A duration: "2", "2s", "200ms", "1.5 min".
duration seconds(const std::string& text, const std::string& flag) {
  std::string t = text;
  double scale = 1;
  auto ends = [&](std::string_view suffix) {
    if (t.size() > suffix.size() && t.compare(t.size() - suffix.size(), suffix.size(), suffix) == 0) {
      t.resize(t.size() - suffix.size());
      return true;
    }
    return false;
  };
  if (ends("ms")) scale = 1e-3;
  else if (ends("min")) scale = 60;
  else if (ends("s")) scale = 1;
  else if (ends("h")) scale = 3600;
  const double v = number(t, flag) * scale;
  if (v < 0) throw usage_error(fmt::format("{} must not be negative (got {})", flag, text));
  return v * units::s;
}

int integer(const std::string& text, const std::string& flag, int lo, int hi) {
  const double v = number(text, flag);
  if (v != std::floor(v) || v < lo || v > hi)
    throw usage_error(fmt::format("{} must be a whole number in [{}, {}] (got {})", flag, lo, hi, text));
  return static_cast<int>(v);
}

request_rate req_per_s(double v) { return v * units::request / units::s; }

std::string pct(double x) { return fmt::format("{:.0f}%", x * 100); }
std::string secs(duration d) {
  if (!std::isfinite(d.value)) return "unbounded";
  const double s = d.in(units::s);
  if (s == 0) return "0 s";
  if (s < 1) return fmt::format("{:.0f} ms", s * 1e3);
  return fmt::format("{:.2f} s", s);
}

capacity_request build(const capacity_flags& f) {
  capacity_request q{};
  if (!f.hourly.empty()) {
    if (!f.rate.empty()) throw usage_error("--rate and --hourly: give one of them");
    std::vector<double> v;
    std::string cur;
    for (char ch : f.hourly + ",") {
      if (ch == ',') {
        v.push_back(number(cur, "--hourly"));
        cur.clear();
      } else {
        cur += ch;
      }
    }
    if (v.size() != 24)
      throw usage_error(fmt::format("--hourly needs 24 comma-separated rates (got {})", v.size()));
    request_rate hours[24]{};
    for (int h = 0; h < 24; ++h) {
      if (v[static_cast<std::size_t>(h)] < 0)
        throw usage_error(fmt::format("--hourly: hour {} is negative", h));
      hours[h] = req_per_s(v[static_cast<std::size_t>(h)]);
    }
    q.demand = demand_profile::from_hourly(hours, number(f.arrival_cv, "--arrival-cv"));
    if (!(q.demand.mean.value > 0)) throw usage_error("--hourly: the rates are all zero");
  } else {
    if (f.rate.empty()) throw usage_error("capacity: give the demand with --rate (requests/s) or --hourly");
    q.demand.mean = req_per_s(positive(f.rate, "--rate"));
    q.demand.peak_factor = number(f.peak_factor, "--peak-factor");
    if (q.demand.peak_factor < 1)
      throw usage_error(fmt::format("--peak-factor must be at least 1 (peak / mean; got {})", f.peak_factor));
    q.demand.arrival_cv = number(f.arrival_cv, "--arrival-cv");
  }
  if (f.wait_slo.empty()) throw usage_error("capacity: give the waiting-time target with --wait-slo (seconds)");
  q.slo.max_wait = seconds(f.wait_slo, "--wait-slo");
  const double p = number(f.wait_percentile, "--wait-percentile");
  if (!(p > 0 && p < 100))
    throw usage_error(fmt::format("--wait-percentile must be in (0, 100), e.g. 99 (got {})", f.wait_percentile));
  q.slo.percentile = p / 100.0;
  if (f.replica_rate.empty() || f.service_time.empty())
    throw usage_error("capacity: give one replica's capacity with --replica-rate (requests/s at the "
                      "latency SLO) and --service-time (seconds per request)");
  q.replica.rate = req_per_s(positive(f.replica_rate, "--replica-rate"));
  q.replica.mean_service = seconds(f.service_time, "--service-time");
  if (!(q.replica.mean_service.value > 0)) throw usage_error("--service-time must be positive");
  q.replica.service_cv = number(f.service_cv, "--service-cv");
  q.replica.gpus = integer(f.gpus_per_replica, "--gpus-per-replica", 1, 4096);
  q.monthly_growth = fraction(f.growth, "--growth");
  q.months = integer(f.months, "--months", 0, capacity_plan::max_months);
  q.current_replicas = integer(f.current_replicas, "--current-replicas", 0, 100000000);
  if (!f.price.empty()) q.replica_price = number(f.price, "--price") * units::usd_per_h;
  return q;
}

chart::chart_spec horizon_chart(const capacity_plan& p, const capacity_request& q) {
  chart::chart_spec c;
  c.title = "Capacity plan: peak demand against capacity";
  c.x_label = "month";
  c.y_label = "requests/s";
  chart::series demand{"peak demand", {}, chart::style::lines};
  chart::series needed{"capacity of the planned replicas", {}, chart::style::steps};
  chart::series fleet{"capacity of today's fleet", {}, chart::style::lines};
  const int today = q.current_replicas > 0 ? q.current_replicas : p.replicas;
  const double per = q.replica.rate.in(units::requests_per_s);
  for (int m = 0; m < p.growth_rows; ++m) {
    const double x = m;
    demand.points.push_back({x, p.growth[m].peak.in(units::requests_per_s)});
    needed.points.push_back({x, p.growth[m].replicas * per});
    fleet.points.push_back({x, today * per});
  }
  c.data = {demand, needed, fleet};
  c.y_min = 0;
  return c;
}

int run_capacity(const capacity_flags& f) {
  const capacity_request q = build(f);
  std::optional<mig_profile> mig;
  if (!f.mig.empty()) {
    if (f.gpu.empty()) throw usage_error("--mig needs --gpu (the GPU whose MIG profile it is)");
    const gpu_choice g = resolve_gpu(f.gpu);
    const mig_profile* prof = catalog::find_mig_profile(g.spec, f.mig);
    if (prof == nullptr) {
      std::string names;
      for (const mig_profile& m : catalog::mig_profiles(g.spec))
        names += (names.empty() ? "" : ", ") + std::string(m.name.view());
      throw usage_error(fmt::format("--mig '{}': {} has {}", f.mig, g.spec.name.view(),
                                    names.empty() ? std::string("no MIG profiles")
                                                  : "the profiles " + names));
    }
    mig = *prof;
  }
  const capacity_plan p = plan_capacity(q);
  std::string yaml;
  if (!f.kubernetes.empty())
    yaml = io::kubernetes_resources(f.kubernetes, p.replicas, q.replica.gpus, mig, f.image);
  std::optional<chart::file_result> drawn;
  if (!f.chart.empty()) drawn = chart::render_file(horizon_chart(p, q), f.chart);

  if (f.json) {
    nlohmann::json j = io::to_json(p, q);
    if (mig) {
      j["mig_profile"] = std::string(mig->name.view());
      j["replicas_per_gpu"] = mig->max_instances;
      j["physical_gpus"] = (p.replicas + mig->max_instances - 1) / mig->max_instances;
    }
    if (!yaml.empty()) j["kubernetes"] = yaml;
    if (drawn) j["chart"] = drawn->drawn ? drawn->image.string() : drawn->script.string();
    print_json(j);
    return 0;
  }
  if (!yaml.empty()) {  // only the manifest, so that it pipes into kubectl or a file
    fmt::print("{}", yaml);
    if (drawn) fmt::print(stderr, "{}\n", drawn->message);
    return 0;
  }
  fmt::print("Demand: mean {:.4g} req/s, peak {:.4g} req/s (x{:.3g}), arrival CV {:.3g}\n",
             q.demand.mean.in(units::requests_per_s), q.demand.peak().in(units::requests_per_s),
             q.demand.peak_factor, q.demand.arrival_cv);
  fmt::print("Replica: {:.4g} req/s at its SLO, {} per request (CV {:.3g}): {} request slot{}, {} GPU{}\n",
             q.replica.rate.in(units::requests_per_s), secs(q.replica.mean_service),
             q.replica.service_cv, p.slots_per_replica, p.slots_per_replica > 1 ? "s" : "",
             q.replica.gpus, q.replica.gpus > 1 ? "s" : "");
  fmt::print("Target: p{:g} wait <= {}\n\n", q.slo.percentile * 100, secs(q.slo.max_wait));
  fmt::print("Replicas at the peak: {} ({} GPUs{})\n", p.replicas, p.gpus,
             mig ? fmt::format("; {} per GPU as {}: {} GPUs", mig->max_instances,
                               mig->name.view(),
                               (p.replicas + mig->max_instances - 1) / mig->max_instances)
                 : std::string());
  fmt::print("  utilisation: mean {} ({}), peak {} ({})\n", pct(p.mean_utilization),
             band_name(p.mean_band).data(), pct(p.peak_utilization), band_name(p.peak_band).data());
  fmt::print("  at the peak: P(wait) {:.3f}, mean wait {}, p99 wait {}{}\n", p.at_peak.p_wait,
             secs(p.at_peak.mean_wait), secs(p.at_peak.wait_percentile(0.99)),
             p.at_peak.exact ? " (M/M/c, exact)" : " (Allen-Cunneen)");
  if (p.replicas_in_band > p.replicas)
    fmt::print("  to keep the peak within the healthy band (<= 90%): {} replicas\n",
               p.replicas_in_band);
  fmt::print("  off-peak (at the mean rate) an autoscaler needs {}\n", p.replicas_at_mean);
  if (q.replica_price.value > 0)
    fmt::print("  cost at the peak: ${:.2f}/h\n", p.cost_at_peak.in(units::usd_per_h));
  if (q.months > 0) {
    fmt::print("\nGrowth {}/month:\n", pct(q.monthly_growth));
    table t;
    t.header = {"month", "peak req/s", "replicas", "peak util", "today's fleet util", "fleet meets SLO"};
    t.numeric = {true, true, true, true, true, false};
    for (int m = 0; m < p.growth_rows; ++m) {
      const growth_row& g = p.growth[m];
      t.rows.push_back({std::to_string(m), fmt::format("{:.4g}", g.peak.in(units::requests_per_s)),
                        std::to_string(g.replicas), pct(g.peak_utilization),
                        pct(g.fleet_peak_utilization), g.fleet_meets_slo ? "yes" : "no"});
    }
    fmt::print("{}", t.render("  "));
    const int today = q.current_replicas > 0 ? q.current_replicas : p.replicas;
    if (p.fleet_leaves_band_month >= 0)
      fmt::print("Today's {} replicas pass 90% at the peak in month {}", today,
                 p.fleet_leaves_band_month);
    else
      fmt::print("Today's {} replicas stay within 90% at the peak for {} months", today, q.months);
    if (p.fleet_runs_out_month >= 0)
      fmt::print(" and miss the SLO in month {}: add capacity before then.\n", p.fleet_runs_out_month);
    else
      fmt::print(" and meet the SLO throughout.\n");
    fmt::print("\n{}", chart::render_text(horizon_chart(p, q)));
  }
  if (drawn) fmt::print("\n{}\n", drawn->message);
  return 0;
}

}  // namespace

command add_capacity_command(CLI::App& app) {
  auto f = std::make_shared<capacity_flags>();
  CLI::App* sub = app.add_subcommand(
      "capacity",
      "Replicas for a demand at a waiting-time target (Erlang C / Allen-Cunneen), their "
      "utilisation against the 70-90% band, growth month by month");
  sub->add_option("--rate", f->rate, "Mean demand, requests/s");
  sub->add_option("--peak-factor", f->peak_factor, "Peak / mean demand (default 1)");
  sub->add_option("--hourly", f->hourly, "24 comma-separated hourly rates (req/s) instead of --rate");
  sub->add_option("--arrival-cv", f->arrival_cv, "Inter-arrival time CV (1: Poisson; default 1)");
  sub->add_option("--growth", f->growth, "Demand growth per month, compounding (0.1 or 10%)");
  sub->add_option("--months", f->months, "Months of growth to plan (default 12)");
  sub->add_option("--wait-slo", f->wait_slo, "Longest queueing wait at the percentile, s (or 200ms)");
  sub->add_option("--wait-percentile", f->wait_percentile, "Percentile of the wait target (default 99)");
  sub->add_option("--replica-rate", f->replica_rate, "Requests/s one replica sustains at the latency SLO");
  sub->add_option("--service-time", f->service_time, "Mean time a request is in service, s");
  sub->add_option("--service-cv", f->service_cv, "Service time CV (1: exponential; default 1)");
  sub->add_option("--gpus-per-replica", f->gpus_per_replica, "GPUs per replica (TP x PP; default 1)");
  sub->add_option("--current-replicas", f->current_replicas, "Replicas running today (when they run out)");
  sub->add_option("--price", f->price, "$ per replica-hour (optional)");
  sub->add_option("--gpu", f->gpu, "GPU of the replicas (with --mig)");
  sub->add_option("--mig", f->mig, "Replicas are MIG slices of this profile (e.g. 3g.40gb)");
  sub->add_option("--kubernetes", f->kubernetes, "Print only a Kubernetes Deployment named NAME with the plan's replicas and GPU requests");
  sub->add_option("--image", f->image, "Container image for --kubernetes");
  sub->add_option("--chart", f->chart, "Draw demand against capacity over the horizon (.svg or .png)");
  sub->add_flag("--json", f->json, "Print the plan as JSON");
  return {sub, [f] { return run_capacity(*f); }};
}

}  // namespace gpuplan::cli
