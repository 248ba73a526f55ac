// tools/gpuplan/cmd_capacity.cpp: `gpuplan capacity`: replicas for a demand at a wait SLO,
// the utilisation they run at, growth month by month, and Kubernetes resource requests.
//
//   gpuplan capacity --rate 30 --peak-factor 1.6 --growth 0.1 --months 12
//       --wait-slo 2 --replica-rate 2 --service-time 4 [--json] [--chart plan.svg]
//   gpuplan capacity --rate 20 --wait-slo 1 --model llama-3-70b --node dgx-h100 --tp 8
//       --input-len 1024 --output-len 256 --ttft-slo 1 --tpot-slo 0.05 [--json]
#include "chart.hpp"
#include "cli.hpp"
#include "cost_output.hpp"
#include "options.hpp"
#include "serve_setup.hpp"

#include <gpuplan/models/estimates.hpp>
#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/io/capacity_json.hpp>
#include <gpuplan/io/kubernetes_yaml.hpp>
#include <gpuplan/io/serve_json.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/plan/capacity.hpp>
#include <gpuplan/plan/sharing.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

namespace {

using ft = field_type;

// The command's own settings (flags and --plan keys). A replica is described either by a serving
// plan (the `gpuplan serve` flags: the shared groups of options.hpp and serve_load_fields(), with
// --model) or by --replica-rate and --service-time given directly, for workloads that are not LLMs.
constexpr field capacity_table[] = {
    {"rate", "--rate", ft::number, "demand", "Mean demand, requests/s"},
    {"peak_factor", "--peak-factor", ft::number, "demand", "Peak / mean demand (default 1)"},
    {"hourly", "--hourly", ft::text, "demand",
     "24 comma-separated hourly rates, requests/s (instead of --rate and --peak-factor)"},
    {"arrival_cv", "--arrival-cv", ft::number, "demand",
     "Coefficient of variation of inter-arrival times (1: Poisson, the default)"},
    {"growth", "--growth", ft::number, "demand",
     "Demand growth per month, compounding, as a fraction (0.1 = 10%; default 0)"},
    {"months", "--months", ft::count0, "demand", "Months of growth to plan (default 12, at most 120)"},
    {"wait_slo", "--wait-slo", ft::number, "slo",
     "Longest queueing wait before service starts, seconds, at --wait-percentile"},
    {"wait_percentile", "--wait-percentile", ft::number, "slo",
     "Percentile of the wait target (default 99)"},
    {"replica_rate", "--replica-rate", ft::number, "replica",
     "Requests/s one replica sustains at its latency SLO"},
    {"service_time", "--service-time", ft::number, "replica",
     "Mean time one request is in service, seconds"},
    {"service_cv", "--service-cv", ft::number, "replica",
     "Coefficient of variation of the service time (default 1, exponential; with a serving plan "
     "the default is the serving model's spread of the end-to-end latency over the request mix "
     "(--mix) and its prefill queue, and this overrides it)"},
    {"gpus_per_replica", "--gpus-per-replica", ft::count, "replica",
     "GPUs per replica (a TP x PP group; default 1)"},
    {"current_replicas", "--current-replicas", ft::count0, "replica",
     "Replicas running today, to say when they run out (default: the plan's)"},
    {"price", "--price", ft::number, "replica",
     "$ per replica-hour (optional: a cost column; with a serving plan the default is the "
     "cheapest on-demand $/GPU-hour of the default price book for the GPU, times tp x pp)"},
    {"compare", "--compare", ft::text, "options",
     "Other replica types to rank for the same demand: 'NAME:RATE:SERVICE[:PER_GPU[:PRICE]]', "
     "';'-separated (PER_GPU: replicas sharing one GPU, e.g. 7 for 1g slices; PRICE: $/replica-h)"},
    {"compare_gpus", "--compare-gpus", ft::text, "options",
     "With a serving plan: rank the same plan (model, tp x pp, lengths, SLO) on these GPUs too, "
     "comma-separated (a bigger GPU); each replica from the serving model, priced from the book"},
    {"compare_mig", "--compare-mig", ft::flag, "options",
     "With a serving plan at tp 1: rank every MIG slice of the GPU the model fits on (its replica "
     "from the serving model on the slice, the GPU's price shared by its slices)"},
    {"hybrid", "--hybrid", ft::flag, "options",
     "With --hourly: rank an owned base for the baseline plus cloud burst for the peaks, priced by "
     "the cost model (owned servers like --node, default DGX H100, at the price book's on-prem "
     "costs; cloud at the replica's $/GPU-hour)"},
    {"mig", "--mig", ft::text, "replica", "Replicas are MIG slices of this profile (3g.40gb)"},
    {"kubernetes", "--kubernetes", ft::text, "output",
     "Print only a Kubernetes Deployment named NAME with the plan's replicas and GPU requests"},
    {"image", "--image", ft::text, "output", "Container image for --kubernetes"},
    {"chart", "--chart", ft::text, "output",
     "Draw demand against capacity over the horizon into FILE (.svg or .png, through gnuplot)"},
};

struct capacity_command {
  settings s;
  bool json = false;
  bool require_fit = false;
};

request_rate req_per_s(double v) { return v * units::request / units::s; }

std::string pct(double x) { return fmt::format("{:.0f}%", x * 100); }
std::string secs(duration d) {
  if (!std::isfinite(d.value)) return "unbounded";
  const double s = d.in(units::s);
  if (s == 0) return "0 s";
  if (s < 1) return fmt::format("{:.0f} ms", s * 1e3);
  return fmt::format("{:.2f} s", s);
}

double need(const settings& s, std::string_view key, const char* why) {
  const std::optional<double> v = s.number(key);
  if (!v) throw usage_error(std::string("capacity: ") + why);
  return *v;
}

double positive(const settings& s, std::string_view key, double v) {
  if (!(v > 0) || !std::isfinite(v))
    throw usage_error(fmt::format("{} must be positive (got {})", s.name(key), v));
  return v;
}

double at_least(const settings& s, std::string_view key, double v, double lo) {
  if (!(v >= lo) || !std::isfinite(v))
    throw usage_error(fmt::format("{} must be at least {} (got {})", s.name(key), lo, v));
  return v;
}

/// v in [lo, hi], or a usage error naming the flag and the bound's name (`why`).
double in_range(const settings& s, std::string_view key, double v, double lo, double hi,
                const char* why) {
  if (!(v >= lo && v <= hi))
    throw usage_error(fmt::format("{} must be in [{:g}, {:g}] ({}; got {:g})", s.name(key), lo, hi,
                                  why, v));
  return v;
}

/// Longest wait SLO the planner takes: a day. A queueing wait target is for requests someone
/// waits on (interactive: milliseconds to seconds; batch: minutes to hours); a backlog held longer
/// than a day is a batch schedule, not a queue.
constexpr double max_wait_slo_s = 86400.0;

constexpr const char* cv_why =
    "queue_model::max_cv, the variability the Allen-Cunneen approximation is used for; burstier "
    "traffic is a varying rate: --hourly or --peak-factor";

/// The request slots of a replica of `rate` requests/s and `service` s each (rate x service),
/// at most replica_capacity::max_slots; `who` names the flags in the message.
void check_slots(double rate, double service, const std::string& who) {
  if (!(rate * service <= replica_capacity::max_slots))
    throw usage_error(fmt::format(
        "{}: {:g} requests/s x {:g} s = {:.3g} requests in service at once per replica, more than "
        "{:g} (replica_capacity::max_slots; serving engines hold hundreds to thousands)",
        who, rate, service, rate * service, replica_capacity::max_slots));
}

/// --compare 'NAME:RATE:SERVICE[:PER_GPU[:PRICE]];...' (the replica's CV is the main one's).
std::vector<capacity_option> compare_options(const settings& s, const capacity_request& q) {
  std::vector<capacity_option> out;
  const std::optional<std::string> text = s.text("compare");
  if (!text) return out;
  // the plan's own replica first, so the ranking places it among the others
  out.push_back({.name = "this replica", .replica = q.replica, .replica_price = q.replica_price});
  std::string item;
  auto fail = [&](const std::string& why) {
    throw usage_error(fmt::format("{} '{}': {} (expected NAME:RATE:SERVICE[:PER_GPU[:PRICE]])",
                                  s.name("compare"), item, why));
  };
  for (char ch : *text + ";") {
    if (ch != ';') {
      item += ch;
      continue;
    }
    if (item.find_first_not_of(' ') == std::string::npos) {
      item.clear();
      continue;
    }
    std::vector<std::string> parts;
    std::string cur;
    for (char c : item + ":") {
      if (c == ':') {
        parts.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (parts.size() < 3 || parts.size() > 5) fail("3 to 5 ':'-separated fields");
    auto num = [&](const std::string& t, const char* what) {
      double v = 0;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.empty() || ec != std::errc{} || end != t.data() + t.size() || !std::isfinite(v) || v < 0)
        fail(fmt::format("{} '{}' is not a non-negative number", what, t));
      return v;
    };
    capacity_option o{};
    if (parts[0].empty() || parts[0].size() > name_string::capacity) fail("the name must be 1-63 characters");
    o.name = name_string::from(parts[0]);
    o.replica = q.replica;
    const double rate = num(parts[1], "RATE"), service = num(parts[2], "SERVICE");
    o.replica.rate = req_per_s(rate);
    o.replica.mean_service = service * units::s;
    if (!(o.replica.rate.value > 0) || !(o.replica.mean_service.value > 0))
      fail("RATE and SERVICE must be positive");
    if (!(rate * service <= replica_capacity::max_slots))
      fail(fmt::format("RATE x SERVICE = {:.3g} requests in service at once, more than {:g} "
                       "(replica_capacity::max_slots)",
                       rate * service, replica_capacity::max_slots));
    if (parts.size() > 3) {
      const double per = num(parts[3], "PER_GPU");
      if (per != std::floor(per) || per < 1 || per > 7) fail("PER_GPU must be a whole number 1-7");
      o.replicas_per_gpu = static_cast<int>(per);
      if (o.replicas_per_gpu > 1) o.replica.gpus = 1;
    }
    if (parts.size() > 4) o.replica_price = num(parts[4], "PRICE") * units::usd_per_h;
    if (const double held = (q.demand.peak() * o.replica.slot_service()).in(units::request);
        !(held < capacity_assumptions{}.max_fleet_slots))
      fail(fmt::format("the peak keeps {:.3g} requests in service at once on these replicas, more "
                       "than the {} the plan searches (capacity_assumptions::max_fleet_slots)",
                       held, capacity_assumptions{}.max_fleet_slots));
    out.push_back(o);
    item.clear();
  }
  return out;
}

/// The options a serving plan implies: the same plan on other GPUs (--compare-gpus) and on the
/// MIG slices of its GPU (--compare-mig), each replica from the serving model at the same SLO.
/// Each option that no concurrency serves within the SLO is skipped with a note in `notes`.
struct serving_compare {
  std::vector<capacity_option> options;
  std::vector<std::string> notes;
};

/// The replica-hour price of `gpus` GPUs of `gpu` shared by `sharing` replicas: the default
/// book's cheapest on-demand $/GPU-hour; 0 (unpriced) when the book has none.
money_rate book_replica_price(const gpu_spec& gpu, int gpus, int sharing) {
  const cloud_price* c = cheapest_price(catalog::default_prices, gpu, price_term::on_demand);
  return c == nullptr ? money_rate{} : c->on_demand * (1.0 * gpus) / (1.0 * sharing);
}

std::optional<replica_capacity> serving_option(const serving_plan& p, const serving_slo& slo) {
  // A plan that does not fit (plan/fit.hpp serving_fit: weights, KV room for the longest request
  // and for one max_model_len sequence, as serve --require-fit judges it) is "not an option".
  if (!serving_fit(p).fits()) return std::nullopt;
  const slo_result best = best_under_slo(p, slo);
  if (!best.found) return std::nullopt;
  return replica_from_serving(p, best.best);
}

/// The replica a serving plan describes: its best operating point under the TTFT/TPOT SLO.
struct serving_replica {
  serve_setup setup;
  slo_result best{};
  const cloud_price* price = nullptr;  ///< the default price book's entry used; null: none
  fit_report memory{};  ///< the plan's memory verdict (plan/fit.hpp serving_fit)
};

/// `require_fit`: a plan that does not fit comes back at once, without its operating point.
std::optional<serving_replica> serving_replica_from(const settings& s, bool require_fit) {
  if (!s.has("model")) {
    for (const char* key : {"node", "tp", "pp", "input_len", "output_len", "ttft_slo", "tpot_slo",
                            "batching", "dtype", "engine", "decode_attention", "moe_all_to_all"})
      if (s.has(key))
        throw usage_error(fmt::format(
            "{} belongs to a serving plan: give --model too (or describe the replica with "
            "--replica-rate and --service-time alone)",
            s.name(key)));
    return std::nullopt;
  }
  for (const char* key : {"replica_rate", "service_time", "gpus_per_replica"})
    if (s.has(key))
      throw usage_error(fmt::format(
          "{} describes a replica directly; with --model the serving plan gives it: use one or "
          "the other",
          s.name(key)));
  serving_replica r{
      .setup = serve_setup_from(s, "capacity"), .best = {}, .price = nullptr, .memory = {}};
  if (r.setup.plan.layout.dp != 1)
    throw usage_error(fmt::format(
        "capacity plans the number of replicas itself: give a replica's tp and pp, not dp {} "
        "(or --gpus beyond tp x pp)",
        r.setup.plan.layout.dp));
  if (!r.setup.want_slo())
    throw usage_error(
        "capacity with a serving plan needs the replica's latency target: --ttft-slo and/or "
        "--tpot-slo (seconds)");
  r.memory = serving_fit(r.setup.plan);
  if (require_fit && !r.memory.fits()) return r;
  r.best = best_under_slo(r.setup.plan, r.setup.slo);
  if (!r.best.found)
    throw usage_error(fmt::format(
        "no concurrency of {} on {} x {} (tp {} pp {}) meets the SLO (TTFT <= {:g} s, TPOT <= "
        "{:g} s): relax it or give the replica more GPUs",
        r.setup.model.name(), r.setup.gpus_per_replica(), r.setup.plan.node.gpu.name.view(),
        r.setup.plan.layout.tp, r.setup.plan.layout.pp, r.setup.slo.ttft.in(units::s),
        r.setup.slo.tpot.in(units::s)));
  r.price = cheapest_price(catalog::default_prices, r.setup.plan.node.gpu, price_term::on_demand);
  return r;
}

serving_compare serving_compare_options(const settings& s,
                                        const std::optional<serving_replica>& serving) {
  serving_compare r;
  const bool gpus = s.has("compare_gpus"), mig = s.flag("compare_mig").value_or(false);
  if (!gpus && !mig) return r;
  if (!serving)
    throw usage_error(s.name(gpus ? "compare_gpus" : "compare_mig") +
                      " needs a serving plan (--model and the `gpuplan serve` flags); for other "
                      "replicas give their capacities with --compare");
  const serving_plan& base = serving->setup.plan;
  const serving_slo& slo = serving->setup.slo;
  const int per = base.gpus_per_replica();
  if (gpus) {
    std::string item;
    for (char ch : *s.text("compare_gpus") + ",") {
      if (ch != ',') {
        if (ch != ' ') item += ch;
        continue;
      }
      if (item.empty()) continue;
      serving_plan p = base;
      const gpu_choice choice = resolve_gpu(item);
      check_gpu(choice, gpu_use::rates);  // each is served: the serving model times it
      const gpu_spec& g = choice.spec;
      if (serving->setup.node && serving->setup.node->gpu.name == g.name)
        p.node = *serving->setup.node;
      else
        p.node = single_gpu_node(g, std::max(8, per));
      const std::string name = fmt::format("{} x{}", g.name.view(), per);
      if (const std::optional<replica_capacity> rep = serving_option(p, slo))
        r.options.push_back({.name = name_string::from(name.substr(0, name_string::capacity)),
                             .replica = *rep,
                             .replicas_per_gpu = 1,
                             .replica_price = book_replica_price(g, per, 1)});
      else
        r.notes.push_back(fmt::format("{}: no concurrency meets the SLO (or the model does not "
                                      "fit)", name));
      item.clear();
    }
  }
  if (mig) {
    if (per != 1)
      throw usage_error(fmt::format("{} needs tp 1 and pp 1 (a MIG slice is one device; NCCL does "
                                    "not run tensor parallelism across slices)",
                                    s.name("compare_mig")));
    const gpu_spec& g = base.node.gpu;
    if (catalog::mig_profiles(g).empty())
      throw usage_error(fmt::format("{}: {} has no MIG profiles", s.name("compare_mig"),
                                    g.name.view()));
    for (const mig_profile& m : catalog::mig_profiles(g)) {
      const std::string name = fmt::format("{} MIG {}", g.name.view(), m.name.view());
      serving_plan p = base;
      p.node = single_gpu_node(mig_slice(g, m), 1);
      // the serving plan's verdict (plan/fit.hpp serving_fit) on the slice as on a GPU
      if (!serving_fit(p).fits()) {
        r.notes.push_back(fmt::format("{}: the model does not fit", name));
        continue;
      }
      if (const std::optional<replica_capacity> rep = serving_option(p, slo))
        r.options.push_back({.name = name_string::from(name.substr(0, name_string::capacity)),
                             .replica = *rep,
                             .replicas_per_gpu = m.max_instances,
                             .replica_price = book_replica_price(g, 1, m.max_instances)});
      else
        r.notes.push_back(fmt::format("{}: no concurrency meets the SLO", name));
    }
  }
  return r;
}

capacity_request build(const settings& s, const std::optional<serving_replica>& serving) {
  capacity_request q{};
  const double arrival_cv = in_range(s, "arrival_cv", s.number("arrival_cv").value_or(1.0), 0.0,
                                     queue_model::max_cv, cv_why);
  if (const std::optional<std::string> hourly = s.text("hourly")) {
    if (s.has("rate") || s.has("peak_factor"))
      throw usage_error(fmt::format("{} replaces --rate and --peak-factor: give one or the other",
                                    s.name("hourly")));
    std::vector<double> v;
    std::string cur;
    for (char ch : *hourly + ",") {
      if (ch != ',') {
        cur += ch;
        continue;
      }
      double x = 0;
      const char* b = cur.data();
      while (*b == ' ') ++b;
      const auto [end, ec] = std::from_chars(b, cur.data() + cur.size(), x);
      if (ec != std::errc{} || end != cur.data() + cur.size() || !std::isfinite(x) || x < 0)
        throw usage_error(fmt::format("{}: '{}' is not a rate (requests/s, not negative)",
                                      s.name("hourly"), cur));
      v.push_back(x);
      cur.clear();
    }
    if (v.size() != 24)
      throw usage_error(fmt::format("{} needs 24 comma-separated rates (got {})",
                                    s.name("hourly"), v.size()));
    request_rate hours[24]{};
    for (std::size_t h = 0; h < 24; ++h) hours[h] = req_per_s(v[h]);
    q.demand = demand_profile::from_hourly(hours, arrival_cv);
    if (!(q.demand.mean.value > 0)) throw usage_error(s.name("hourly") + ": the rates are all zero");
  } else {
    q.demand.mean = req_per_s(positive(
        s, "rate", need(s, "rate", "give the demand with --rate (requests/s) or --hourly")));
    q.demand.peak_factor = at_least(s, "peak_factor", s.number("peak_factor").value_or(1.0), 1.0);
    q.demand.arrival_cv = arrival_cv;
  }
  q.slo.max_wait =
      in_range(s, "wait_slo",
               need(s, "wait_slo", "give the waiting-time target with --wait-slo (seconds)"), 0.0,
               max_wait_slo_s, "seconds; at most a day, max_wait_slo_s") *
      units::s;
  const double p = s.number("wait_percentile").value_or(99.0);
  if (!(p > 0 && p < 100))
    throw usage_error(fmt::format("{} must be in (0, 100), e.g. 99 (got {})",
                                  s.name("wait_percentile"), p));
  q.slo.percentile = p / 100.0;
  if (serving) {
    // The replica serves best.concurrency requests at once (Little's law: rate x e2e), each in
    // service for the end-to-end latency of the best point under the SLO, spread as the mix and
    // the prefill queue spread it (replica_from_serving).
    q.replica = replica_from_serving(serving->setup.plan, serving->best.best);
  } else {
    const char* replica_why =
        "give one replica's capacity with --replica-rate (requests/s at its latency SLO) and "
        "--service-time (seconds per request), or a serving plan (--model with the `gpuplan "
        "serve` flags and --ttft-slo/--tpot-slo)";
    const double rate = positive(s, "replica_rate", need(s, "replica_rate", replica_why));
    const double service = positive(s, "service_time", need(s, "service_time", replica_why));
    check_slots(rate, service, s.name("replica_rate") + " x " + s.name("service_time"));
    q.replica.rate = req_per_s(rate);
    q.replica.mean_service = service * units::s;
    q.replica.gpus = s.count("gpus_per_replica").value_or(1);
    if (q.replica.gpus > replica_capacity::max_gpus)
      throw usage_error(fmt::format("{} must be at most {} (got {}; replica_capacity::max_gpus, "
                                    "the largest GPU count the models are defined for)",
                                    s.name("gpus_per_replica"), replica_capacity::max_gpus,
                                    q.replica.gpus));
  }
  if (!serving || s.has("service_cv"))
    q.replica.service_cv = in_range(s, "service_cv", s.number("service_cv").value_or(1.0), 0.0,
                                    queue_model::max_cv, cv_why);
  q.monthly_growth = s.number("growth").value_or(0.0);
  if (!(q.monthly_growth > -1.0) || !std::isfinite(q.monthly_growth))
    throw usage_error(fmt::format("{} must be a fraction above -1 (0.1 = 10% a month; got {})",
                                  s.name("growth"), q.monthly_growth));
  q.months = s.count0("months").value_or(12);
  if (q.months < 0 || q.months > capacity_plan::max_months)
    throw usage_error(fmt::format("{} must be in [0, {}] (got {})", s.name("months"),
                                  capacity_plan::max_months, q.months));
  q.current_replicas = s.count0("current_replicas").value_or(0);
  if (q.current_replicas < 0)
    throw usage_error(fmt::format("{} must not be negative", s.name("current_replicas")));
  // The largest demand of the horizon (the last month's peak) must stay within the fleet the
  // plan searches: capacity_assumptions::max_fleet_slots requests in service at once.
  {
    const capacity_assumptions limits{};
    const double last_peak = q.demand.peak().in(units::requests_per_s) *
                             std::pow(1.0 + q.monthly_growth, std::max(q.months, 0));
    const double held = last_peak * q.replica.slot_service().in(units::s);
    if (!(held < limits.max_fleet_slots)) {
      // every setting the peak's requests in service follow from, as the user gave them
      std::string who = s.has("hourly") ? s.name("hourly") : s.name("rate");
      for (const std::string_view key : {"peak_factor", "growth", "replica_rate", "service_time"})
        if (s.has(key) && (key != "growth" || (q.monthly_growth > 0 && q.months > 0)))
          who += ", " + s.name(key);
      // past a double's range the product is inf: say "over 1e308", not "inf"
      auto figure = [](double v) {
        return std::isfinite(v) ? fmt::format("{:.3g}", v) : std::string("over 1e308");
      };
      throw usage_error(fmt::format(
          "{}: a peak of {} requests/s{} keeps {} requests in service at once, more than the {} "
          "the plan searches (capacity_assumptions::max_fleet_slots); plan a share of the demand",
          who, figure(last_peak),
          q.monthly_growth > 0 && q.months > 0 ? fmt::format(" by month {}", q.months) : std::string(),
          figure(held), limits.max_fleet_slots));
    }
  }
  if (const std::optional<double> price = s.number("price"))
  {
    if (!(*price <= 1e9))  // a billion dollars an hour per replica: anything above is a typo
      throw usage_error(fmt::format("{} must be at most 1e9 USD per hour (got {})", s.name("price"),
                                    *price));
    q.replica_price = at_least(s, "price", *price, 0.0) * units::usd_per_h;
  }
  else if (serving && serving->price != nullptr)
    q.replica_price = serving->price->on_demand * static_cast<double>(q.replica.gpus);
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

int run_capacity(capacity_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  const std::optional<serving_replica> serving = serving_replica_from(s, cmd.require_fit);
  if (serving && cmd.require_fit && !serving->memory.fits())
    return print_unfit_serving(serving->setup, serving->memory, cmd.json);
  const capacity_request q = build(s, serving);
  std::optional<mig_profile> mig;
  if (const std::optional<std::string> mig_name = s.text("mig")) {
    const std::optional<std::string> gpu_name = s.text("gpu");
    if (!gpu_name)
      throw usage_error(s.name("mig") + " needs --gpu (the GPU whose MIG profile it is)");
    const gpu_choice g = resolve_gpu(*gpu_name);
    const mig_profile* prof = catalog::find_mig_profile(g.spec, *mig_name);
    if (prof == nullptr) {
      std::string names;
      for (const mig_profile& m : catalog::mig_profiles(g.spec))
        names += (names.empty() ? "" : ", ") + std::string(m.name.view());
      throw usage_error(fmt::format("{} '{}': {} has {}", s.name("mig"), *mig_name,
                                    g.spec.name.view(),
                                    names.empty() ? std::string("no MIG profiles")
                                                  : "the profiles " + names));
    }
    mig = *prof;
  }
  const capacity_plan p = plan_capacity(q);
  std::vector<capacity_option> options = compare_options(s, q);
  const serving_compare implied = serving_compare_options(s, serving);
  if (!implied.options.empty() && options.empty())
    options.push_back(
        {.name = "this replica", .replica = q.replica, .replica_price = q.replica_price});
  options.insert(options.end(), implied.options.begin(), implied.options.end());
  std::vector<option_result> ranked(options.size());
  if (!options.empty()) rank_options(q, options, ranked);
  std::optional<hybrid_capacity> hybrid;
  money_rate cloud_gpu_hour{};
  if (s.flag("hybrid").value_or(false)) {
    if (!p.has_hours)
      throw usage_error(s.name("hybrid") + " needs a 24-hour profile (--hourly) to split an owned "
                        "base from cloud burst");
    std::optional<gpu_spec> gpu;
    if (serving)
      gpu = serving->setup.plan.node.gpu;
    else if (const std::optional<std::string> g = s.text("gpu"))
      gpu = resolve_gpu(*g).spec;
    else
      throw usage_error(s.name("hybrid") + " needs the GPU the replicas run on: a serving plan "
                        "(--model ...) or --gpu");
    if (s.has("price")) {
      cloud_gpu_hour = q.replica_price / (1.0 * q.replica.gpus);
    } else {
      const cloud_price* c = cheapest_price(catalog::default_prices, *gpu, price_term::on_demand);
      if (c == nullptr)
        throw usage_error(fmt::format("{}: the default price book has no on-demand {} price; give "
                                      "--price ($ per replica-hour in the cloud)",
                                      s.name("hybrid"), gpu->name.view()));
      cloud_gpu_hour = c->on_demand;
    }
    const node_spec node =
        serving && serving->setup.node ? *serving->setup.node : catalog::dgx_h100;
    hybrid = plan_hybrid_capacity(p, q,
                                  owned_fleet(node, *gpu, 1, io::default_price_book(), site_spec{},
                                              node_power_assumptions{}),
                                  cloud_gpu_hour);
    // Rank it against this replica rented in the cloud for the peak all day, at its price (the
    // cloud $/GPU-hour x GPUs when none was given).
    const money_rate rented =
        q.replica_price.value > 0 ? q.replica_price : cloud_gpu_hour * (1.0 * q.replica.gpus);
    if (ranked.empty())
      ranked.push_back({.name = name_string::from("this replica"),
                        .replicas = p.replicas,
                        .gpus = p.gpus,
                        .peak_utilization = p.peak_utilization,
                        .mean_utilization = p.mean_utilization,
                        .peak_band = p.peak_band,
                        .wait_at_percentile = p.at_peak.wait_percentile(q.slo.percentile),
                        .cost = p.replicas * rented,
                        .priced = true});
    ranked.push_back(hybrid->option);
    sort_options(ranked);
  }
  std::string yaml;
  if (const std::optional<std::string> name = s.text("kubernetes")) {
    // An image reference never holds a control character (a newline would have started a new
    // key in the manifest); the manifest quotes it in any case (io::yaml_quoted).
    const std::string image = s.text("image").value_or("");
    if (std::any_of(image.begin(), image.end(),
                    [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; }))
      throw usage_error(s.name("image") + ": the image name holds a control character");
    yaml = io::kubernetes_resources(*name, p.replicas, q.replica.gpus, mig, image,
                                    s.name("image"));  // io::error naming the flag: not UTF-8
  }
  std::optional<chart::file_result> drawn;
  if (const std::optional<std::string> file = s.text("chart"))
    drawn = chart::render_file(horizon_chart(p, q), *file, s.name("chart"));

  // A serving plan's replica rests on the serving model's estimates for its GPU.
  const estimate_notes notes = serving ? serving_estimates(serving->setup.plan) : estimate_notes{};
  if (cmd.json) {
    nlohmann::json j = io::to_json(p, q);
    j["gpus_per_replica"] = q.replica.gpus;
    j["total_gpus"] = p.gpus;
    if (serving) {
      const serving_plan& sp = serving->setup.plan;
      nlohmann::json sj = io::to_json(serving->best.best);
      sj["model"] = serving->setup.model.name();
      sj["gpu"] = std::string(sp.node.gpu.name.view());
      sj["node"] = std::string(sp.node.name.view());
      sj["layout"] = io::to_json(sp.layout);
      sj["engine"] = std::string(to_string(sp.config.engine));
      sj["input_len"] = serving->setup.input_len;
      sj["output_len"] = serving->setup.output_len;
      sj["slo"] = io::to_json(serving->setup.slo);
      j["serving"] = sj;
      add_memory_verdict(j, serving->memory);
    }
    if (serving && !s.has("price")) {
      if (serving->price != nullptr)
        j["price_entry"] = {
            {"provider", std::string(serving->price->provider.view())},
            {"instance", std::string(serving->price->instance.view())},
            {"term", "on_demand"},
            {"usd_per_gpu_hour", serving->price->on_demand.in(units::usd_per_h)},
            {"usd_per_replica_hour", q.replica_price.in(units::usd_per_h)}};
      else
        j["price_entry"] = nullptr;
    }
    if (mig) {
      j["mig_profile"] = std::string(mig->name.view());
      j["replicas_per_gpu"] = mig->max_instances;
      j["physical_gpus"] = (p.replicas + mig->max_instances - 1) / mig->max_instances;
    }
    if (!yaml.empty()) j["kubernetes"] = yaml;
    if (!ranked.empty()) {
      j["options"] = nlohmann::json::array();
      for (const option_result& r : ranked) {
        nlohmann::json o = {{"name", std::string(r.name.view())},
                            {"replicas", r.replicas},
                            {"gpus", r.gpus},
                            {"utilization", r.mean_utilization},
                            {"peak_utilization", r.peak_utilization},
                            {"peak_band", std::string(band_name(r.peak_band))},
                            {"wait_at_percentile_s", r.wait_at_percentile.in(units::s)}};
        if (r.priced) o["cost_per_hour_usd"] = r.cost.in(units::usd_per_h);
        j["options"].push_back(o);
      }
    }
    if (hybrid) {
      const hybrid_plan& h = hybrid->cost;
      j["hybrid"] = {{"owned_gpus", h.base_gpus},
                     {"owned_replicas", hybrid->base_replicas},
                     {"peak_cloud_replicas", hybrid->peak_cloud_replicas},
                     {"burst_gpu_hours_per_day", h.burst_gpu_time.in(units::h)},
                     {"cloud_usd_per_gpu_hour", cloud_gpu_hour.in(units::usd_per_h)},
                     {"daily_cost_usd", h.hybrid.in(units::usd)},
                     {"all_cloud_daily_cost_usd", h.all_cloud.in(units::usd)},
                     {"all_owned_daily_cost_usd", h.all_onprem.in(units::usd)},
                     {"all_owned_gpus", h.peak_gpus}};
    }
    if (!implied.notes.empty()) j["option_notes"] = implied.notes;
    if (drawn) j["chart"] = drawn->drawn ? drawn->image.string() : drawn->script.string();
    add_warnings(j, notes);
    print_json(j);
    return 0;
  }
  if (!yaml.empty()) {  // only the manifest, so that it pipes into kubectl or a file
    fmt::print("{}", yaml);
    if (drawn) fmt::print(stderr, "{}\n", drawn->message);
    print_warnings(notes);
    return 0;
  }
  fmt::print("Demand: mean {:.4g} req/s, peak {:.4g} req/s (x{:.3g}), arrival CV {:.3g}\n",
             q.demand.mean.in(units::requests_per_s), q.demand.peak().in(units::requests_per_s),
             q.demand.peak_factor, q.demand.arrival_cv);
  fmt::print("Replica: {:.4g} req/s at its SLO, {} per request (CV {:.3g}{}): {} request slot{}, "
             "{} GPU{}\n",
             q.replica.rate.in(units::requests_per_s), secs(q.replica.mean_service),
             q.replica.service_cv,
             serving && !s.has("service_cv") ? " from the serving model" : "",
             p.slots_per_replica, p.slots_per_replica > 1 ? "s" : "",
             q.replica.gpus, q.replica.gpus > 1 ? "s" : "");
  if (serving) {
    const serving_plan& sp = serving->setup.plan;
    const serving_point& b = serving->best.best;
    fmt::print("  serving plan: {} on {} x {} (tp {} pp {}), {} + {} tokens\n"
               "  best under TTFT <= {}, TPOT <= {}: concurrency {:.1f}, TTFT {}, TPOT {}, "
               "end-to-end {}\n",
               serving->setup.model.name(), q.replica.gpus, sp.node.gpu.name.view(),
               sp.layout.tp, sp.layout.pp, serving->setup.input_len, serving->setup.output_len,
               serving->setup.slo.ttft.value > 0 ? secs(serving->setup.slo.ttft) : "any",
               serving->setup.slo.tpot.value > 0 ? secs(serving->setup.slo.tpot) : "any",
               b.concurrency, secs(b.ttft), secs(b.tpot), secs(b.e2e));
    fmt::print("  {}\n", memory_verdict_text(serving->memory));
    if (s.has("price")) {
      // the user's price per replica-hour replaces the book
    } else if (serving->price != nullptr) {
      fmt::print("  price: {} {} on demand, ${:.2f}/GPU-h x {} GPUs = ${:.2f}/replica-h\n",
                 serving->price->provider.view(), serving->price->instance.view(),
                 serving->price->on_demand.in(units::usd_per_h), q.replica.gpus,
                 q.replica_price.in(units::usd_per_h));
    } else {
      fmt::print("  price: the default price book has no {} entry (give --price)\n",
                 sp.node.gpu.name.view());
    }
  }
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
  if (p.has_hours) {
    int lo = p.hours[0].replicas, hi = lo;
    for (const hour_row& h : p.hours) {
      lo = std::min(lo, h.replicas);
      hi = std::max(hi, h.replicas);
    }
    fmt::print("  hour by hour an autoscaler runs {} to {} replicas\n", lo, hi);
  }
  if (hybrid) {
    const hybrid_plan& h = hybrid->cost;
    fmt::print("  owned base + cloud burst (cost model; cloud ${:.2f}/GPU-h): own {} GPUs ({} "
               "replicas), rent up to {} replicas ({:.0f} GPU-hours a day): ${:.0f}/day (all "
               "cloud ${:.0f}, all owned ${:.0f} for {} GPUs)\n",
               cloud_gpu_hour.in(units::usd_per_h), h.base_gpus, hybrid->base_replicas,
               hybrid->peak_cloud_replicas, h.burst_gpu_time.in(units::h), h.hybrid.in(units::usd),
               h.all_cloud.in(units::usd), h.all_onprem.in(units::usd), h.peak_gpus);
  }
  if (!ranked.empty()) {
    bool priced = true;
    for (const option_result& r : ranked) priced = priced && r.priced;
    fmt::print("\nOptions for the same demand and target, ranked ({}){}:\n",
               priced ? "by cost" : "by GPUs, then utilisation nearest 80%",
               hybrid ? "; the hybrid's $/h is its day's cost over 24 h, its GPUs the owned ones"
                      : "");
    table t;
    t.header = {"option", "replicas", "GPUs", "peak util", "band", "wait at target", "$/h"};
    t.numeric = {false, true, true, true, false, true, true};
    for (const option_result& r : ranked)
      t.rows.push_back({std::string(r.name.view()), std::to_string(r.replicas),
                        std::to_string(r.gpus), pct(r.peak_utilization),
                        std::string(band_name(r.peak_band)), secs(r.wait_at_percentile),
                        r.priced ? fmt::format("{:.2f}", r.cost.in(units::usd_per_h)) : "-"});
    fmt::print("{}", t.render("  "));
  }
  for (const std::string& n : implied.notes) fmt::print("  not ranked: {}\n", n);
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
  print_warnings(notes);
  return 0;
}

}  // namespace

command add_capacity_command(CLI::App& app) {
  auto cmd = std::make_shared<capacity_command>();
  CLI::App* sub = app.add_subcommand(
      "capacity",
      "Replicas for a demand at a waiting-time target (Erlang C / Allen-Cunneen), their "
      "utilisation against the 70-90% band, growth month by month");
  cmd->s.add(sub, {model_fields(), gpu_fields(), node_fields(), layout_fields(), serving_fields(),
                   serve_load_fields(), capacity_table});
  cmd->s.add_plan_option(sub);
  sub->add_flag("--json", cmd->json, "Print the plan as JSON (schema: docs/json-schema.md)");
  add_require_fit_flag(sub, cmd->require_fit);
  return {sub, [cmd] { return run_capacity(*cmd); }, [cmd] { return &cmd->s; }};
}

}  // namespace gpuplan::cli
