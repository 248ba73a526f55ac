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

#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/io/capacity_json.hpp>
#include <gpuplan/io/kubernetes_yaml.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/estimates.hpp>
#include <gpuplan/models/inference_memory.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/plan/capacity.hpp>
#include <gpuplan/plan/capacity_report.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
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
     "Print only a Kubernetes manifest named NAME: with a serving plan (--model), a Deployment "
     "running --engine with the plan's arguments, a Service and a HorizontalPodAutoscaler; else "
     "a Deployment with the plan's replicas and GPU requests"},
    {"image", "--image", ft::text, "output",
     "Container image for --kubernetes (default with a serving plan: the engine's public image)"},
    {"chart", "--chart", ft::text, "output",
     "Draw demand against capacity over the horizon into FILE (.svg or .png, through gnuplot)"},
};

struct capacity_command {
  settings s;
  bool json = false;
  bool require_fit = false;
};

request_rate req_per_s(double v) { return v * units::request / units::s; }

/// A wait or latency in capacity's report: whole milliseconds below a second, "0 s" for none and
/// "unbounded" for an overloaded queue's infinite wait. Not secs() (cli.hpp): that one prints
/// tenths of a millisecond and has no "unbounded", and capacity's report and its tests
/// (tests/cli, doc/cli.md.in) print these waits in this form.
std::string wait_text(duration d) {
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

/// One item of --compare, 'NAME:RATE:SERVICE[:PER_GPU[:PRICE]]' (the replica's CV is the main
/// one's); usage_error naming the flag and the item.
capacity_option compare_item(const settings& s, const capacity_request& q, const std::string& item) {
  auto fail = [&](const std::string& why) {
    throw usage_error(fmt::format("{} '{}': {} (expected NAME:RATE:SERVICE[:PER_GPU[:PRICE]])",
                                  s.name("compare"), item, why));
  };
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
  return o;
}

/// --compare 'NAME:RATE:SERVICE[:PER_GPU[:PRICE]];...': none when the flag is not given (given,
/// the report ranks the plan's own replica among them).
std::optional<std::vector<capacity_option>> compare_options(const settings& s,
                                                            const capacity_request& q) {
  const std::optional<std::string> text = s.text("compare");
  if (!text) return std::nullopt;
  std::vector<capacity_option> out;
  std::string item;
  for (char ch : *text + ";") {
    if (ch != ';') {
      item += ch;
      continue;
    }
    if (item.find_first_not_of(' ') != std::string::npos) out.push_back(compare_item(s, q, item));
    item.clear();
  }
  return out;
}

/// The replica a serving plan describes (the `gpuplan serve` flags with --model): the flags'
/// setup, for the model's name and lengths, and the library's replica (plan/capacity_report.hpp
/// serving_replica: the memory verdict, the best point under the SLO, the book's price).
struct serving_input {
  serve_setup setup;
  capacity_serving replica;
};

/// A replica is a serving plan (--model ...) or a capacity (--replica-rate ...), not both.
void check_replica_flags(const settings& s) {
  if (!s.has("model")) {
    for (const char* key : {"node", "power_limit", "tp", "pp", "input_len", "output_len", "ttft_slo", "tpot_slo",
                            "batching", "dtype", "engine", "decode_attention", "moe_all_to_all"})
      if (s.has(key))
        throw usage_error(fmt::format(
            "{} belongs to a serving plan: give --model too (or describe the replica with "
            "--replica-rate and --service-time alone)",
            s.name(key)));
    return;
  }
  for (const char* key : {"replica_rate", "service_time", "gpus_per_replica"})
    if (s.has(key))
      throw usage_error(fmt::format(
          "{} describes a replica directly; with --model the serving plan gives it: use one or "
          "the other",
          s.name(key)));
}

/// `require_fit`: a plan that does not fit comes back at once, without its operating point.
std::optional<serving_input> serving_input_from(const settings& s, bool require_fit) {
  check_replica_flags(s);
  if (!s.has("model")) return std::nullopt;
  serving_input r{.setup = serve_setup_from(s, "capacity"), .replica = {}};
  const serve_setup& u = r.setup;
  if (u.plan.layout.dp != 1)
    throw usage_error(fmt::format(
        "capacity plans the number of replicas itself: give a replica's tp and pp, not dp {} "
        "(or --gpus beyond tp x pp)",
        u.plan.layout.dp));
  if (!u.want_slo())
    throw usage_error(
        "capacity with a serving plan needs the replica's latency target: --ttft-slo and/or "
        "--tpot-slo (seconds)");
  r.replica = serving_replica(u.plan, u.slo, u.node, require_fit);
  if (require_fit && !r.replica.memory.fits()) return r;
  if (!r.replica.best.found)
    throw usage_error(fmt::format(
        "no concurrency of {} on {} x {} (tp {} pp {}) meets the SLO (TTFT <= {:g} s, TPOT <= "
        "{:g} s): relax it or give the replica more GPUs",
        u.model.name(), u.gpus_per_replica(), u.plan.node.gpu.name.view(), u.plan.layout.tp,
        u.plan.layout.pp, u.slo.ttft.in(units::s), u.slo.tpot.in(units::s)));
  return r;
}

/// --compare-gpus (each GPU resolved and checked) and --compare-mig (a one-GPU replica on a GPU
/// with MIG profiles), both needing a serving plan.
void read_serving_alternatives(const settings& s, const std::optional<serving_input>& serving,
                               capacity_question& x) {
  const bool gpus = s.has("compare_gpus"), mig = s.flag("compare_mig").value_or(false);
  if (!gpus && !mig) return;
  if (!serving)
    throw usage_error(s.name(gpus ? "compare_gpus" : "compare_mig") +
                      " needs a serving plan (--model and the `gpuplan serve` flags); for other "
                      "replicas give their capacities with --compare");
  if (gpus) {
    for (const std::string& item : list_items(*s.text("compare_gpus"), s.name("compare_gpus"))) {
      const gpu_choice choice = resolve_gpu(item);
      check_gpu(choice, gpu_use::rates);  // each is served: the serving model times it
      x.compare_gpus.push_back(choice.spec);
    }
  }
  if (mig) {
    if (serving->replica.gpus_per_replica() != 1)
      throw usage_error(fmt::format("{} needs tp 1 and pp 1 (a MIG slice is one device; NCCL does "
                                    "not run tensor parallelism across slices)",
                                    s.name("compare_mig")));
    const gpu_spec& g = serving->replica.plan.node.gpu;
    if (catalog::mig_profiles(g).empty())
      throw usage_error(fmt::format("{}: {} has no MIG profiles", s.name("compare_mig"),
                                    g.name.view()));
    x.compare_mig = true;
  }
}

/// --hourly: 24 comma-separated rates, each a non-negative number.
demand_profile hourly_demand(const settings& s, const std::string& hourly, double arrival_cv) {
  if (s.has("rate") || s.has("peak_factor"))
    throw usage_error(fmt::format("{} replaces --rate and --peak-factor: give one or the other",
                                  s.name("hourly")));
  std::vector<double> v;
  for (const std::string& cur : list_items(hourly, s.name("hourly"))) {
    double x = 0;
    const auto [end, ec] = std::from_chars(cur.data(), cur.data() + cur.size(), x);
    if (ec != std::errc{} || end != cur.data() + cur.size() || !std::isfinite(x) || x < 0)
      throw usage_error(fmt::format("{}: '{}' is not a rate (requests/s, not negative)",
                                    s.name("hourly"), cur));
    v.push_back(x);
  }
  if (v.size() != 24)
    throw usage_error(fmt::format("{} needs 24 comma-separated rates (got {})", s.name("hourly"),
                                  v.size()));
  request_rate hours[24]{};
  for (std::size_t h = 0; h < 24; ++h) hours[h] = req_per_s(v[h]);
  const demand_profile d = demand_profile::from_hourly(hours, arrival_cv);
  if (!(d.mean.value > 0)) throw usage_error(s.name("hourly") + ": the rates are all zero");
  return d;
}

/// The demand: --hourly, or --rate and --peak-factor; --arrival-cv.
demand_profile read_demand(const settings& s) {
  const double arrival_cv = in_range(s, "arrival_cv", s.number("arrival_cv").value_or(1.0), 0.0,
                                     queue_model::max_cv, cv_why);
  if (const std::optional<std::string> hourly = s.text("hourly"))
    return hourly_demand(s, *hourly, arrival_cv);
  demand_profile d{};
  d.mean = req_per_s(positive(
      s, "rate", need(s, "rate", "give the demand with --rate (requests/s) or --hourly")));
  d.peak_factor = at_least(s, "peak_factor", s.number("peak_factor").value_or(1.0), 1.0);
  d.arrival_cv = arrival_cv;
  return d;
}

/// The replica: the serving plan's, or --replica-rate, --service-time and --gpus-per-replica;
/// --service-cv overrides the serving model's spread.
replica_capacity read_replica(const settings& s, const std::optional<serving_input>& serving) {
  replica_capacity r{};
  if (serving) {
    // The replica serves best.concurrency requests at once (Little's law: rate x e2e), each in
    // service for the end-to-end latency of the best point under the SLO, spread as the mix and
    // the prefill queue spread it (replica_from_serving).
    r = replica_from_serving(serving->replica.plan, serving->replica.best.best);
  } else {
    const char* replica_why =
        "give one replica's capacity with --replica-rate (requests/s at its latency SLO) and "
        "--service-time (seconds per request), or a serving plan (--model with the `gpuplan "
        "serve` flags and --ttft-slo/--tpot-slo)";
    const double rate = positive(s, "replica_rate", need(s, "replica_rate", replica_why));
    const double service = positive(s, "service_time", need(s, "service_time", replica_why));
    check_slots(rate, service, s.name("replica_rate") + " x " + s.name("service_time"));
    r.rate = req_per_s(rate);
    r.mean_service = service * units::s;
    r.gpus = s.count("gpus_per_replica").value_or(1);
    if (r.gpus > replica_capacity::max_gpus)
      throw usage_error(fmt::format("{} must be at most {} (got {}; replica_capacity::max_gpus, "
                                    "the largest GPU count the models are defined for)",
                                    s.name("gpus_per_replica"), replica_capacity::max_gpus,
                                    r.gpus));
  }
  if (!serving || s.has("service_cv"))
    r.service_cv = in_range(s, "service_cv", s.number("service_cv").value_or(1.0), 0.0,
                            queue_model::max_cv, cv_why);
  return r;
}

/// The largest demand of the horizon (the last month's peak) must stay within the fleet the
/// plan searches: capacity_assumptions::max_fleet_slots requests in service at once.
void check_horizon(const settings& s, const capacity_request& q) {
  const capacity_assumptions limits{};
  const double last_peak = q.demand.peak().in(units::requests_per_s) *
                           std::pow(1.0 + q.monthly_growth, std::max(q.months, 0));
  const double held = last_peak * q.replica.slot_service().in(units::s);
  if (held < limits.max_fleet_slots) return;
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

/// The question's demand, wait target, replica, growth, today's fleet and price, from the flags.
capacity_request build(const settings& s, const std::optional<serving_input>& serving) {
  capacity_request q{};
  q.demand = read_demand(s);
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
  q.replica = read_replica(s, serving);
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
  check_horizon(s, q);
  if (const std::optional<double> price = s.number("price")) {
    if (!(*price <= 1e9))  // a billion dollars an hour per replica: anything above is a typo
      throw usage_error(fmt::format("{} must be at most 1e9 USD per hour (got {})", s.name("price"),
                                    *price));
    q.replica_price = at_least(s, "price", *price, 0.0) * units::usd_per_h;
  } else if (serving && serving->replica.price != nullptr) {
    q.replica_price = serving->replica.price->on_demand * static_cast<double>(q.replica.gpus);
  }
  return q;
}

/// --mig PROFILE of --gpu: the replicas are MIG slices.
std::optional<mig_profile> mig_profile_of(const settings& s) {
  const std::optional<std::string> mig_name = s.text("mig");
  if (!mig_name) return std::nullopt;
  const std::optional<std::string> gpu_name = s.text("gpu");
  if (!gpu_name) throw usage_error(s.name("mig") + " needs --gpu (the GPU whose MIG profile it is)");
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
  return *prof;
}

/// --hybrid: the owned servers (like --node, default DGX H100, at the price book's on-prem costs)
/// and the cloud's $/GPU-hour (--price over the replica's GPUs, else the book's on-demand).
std::optional<capacity_hybrid_input> hybrid_of(const settings& s, const capacity_request& q,
                                               const std::optional<serving_input>& serving) {
  if (!s.flag("hybrid").value_or(false)) return std::nullopt;
  if (!q.demand.has_hourly)
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
  money_rate cloud_gpu_hour{};
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
  const node_spec node = serving && serving->setup.node ? *serving->setup.node : catalog::dgx_h100;
  return capacity_hybrid_input{
      .fleet = owned_fleet(node, *gpu, 1, io::default_price_book(), site_spec{},
                           node_power_assumptions{}),
      .cloud_per_gpu_hour = cloud_gpu_hour};
}

/// Everything the report needs, from the flags, checked in the order the flags are read.
capacity_question question_from(const settings& s, const std::optional<serving_input>& serving) {
  capacity_question x{};
  x.request = build(s, serving);
  if (serving) x.serving = serving->replica;
  x.service_cv_given = s.has("service_cv");
  x.price_given = s.has("price");
  x.mig = mig_profile_of(s);
  x.compare = compare_options(s, x.request);
  read_serving_alternatives(s, serving, x);
  x.hybrid = hybrid_of(s, x.request, serving);
  return x;
}

/// The autoscaler's bounds from the plan: at most the replicas at the peak (or the horizon's
/// largest month, when demand grows), at least those off-peak (the smallest hour of --hourly, else
/// the count at the mean rate: the report's "an autoscaler needs N"), never below 1.
std::pair<int, int> autoscaler_bounds(const capacity_plan& p) {
  int hi = p.replicas;
  for (int m = 0; m < p.growth_rows; ++m) hi = std::max(hi, p.growth[m].replicas);
  int lo = p.replicas_at_mean;
  if (p.has_hours) {
    lo = p.hours[0].replicas;
    for (const hour_row& h : p.hours) lo = std::min(lo, h.replicas);
  }
  hi = std::max(hi, 1);
  return {std::clamp(lo, 1, hi), hi};
}

/// The model the engine loads: a Hugging Face repository id, as `vllm serve`, SGLang's
/// --model-path and trtllm-serve take it. A catalog model given by its short name
/// (`Llama-3.1-70B`) is its first alias that is a repository id (`meta-llama/Llama-3.1-70B`); a
/// config.json file is its folder (the checkpoint's); anything else as given.
std::string served_model_id(const std::string& given, const model_choice& m) {
  if (m.source == "catalog" && given.find('/') == std::string::npos && m.transformer)
    for (const name_string& alias : m.transformer->aliases)
      if (alias.view().find('/') != std::string_view::npos) return std::string(alias.view());
  if (m.source == "hf-config" || m.source == "file") {
    const std::filesystem::path p(given);
    if (p.filename() == "config.json")
      return p.has_parent_path() ? p.parent_path().string() : std::string(".");
  }
  return given;
}

/// The serving plan's engine arguments: the model's repository id (served_model_id), tp and pp, the longest sequence the
/// KV cache was sized for, the engine's own memory share (SGLang's default by tp size when not
/// given) and the replica's request slots (requests it serves at once, as planned).
io::kubernetes_engine_args engine_args_of(const settings& s, const serving_input& serving,
                                          const capacity_report& r) {
  const serving_plan& sp = serving.setup.plan;
  const inference_config& c = sp.config;
  io::kubernetes_engine_args a{};
  a.engine = c.engine;
  a.model = served_model_id(s.text("model").value_or(serving.setup.model.name()),
                            serving.setup.model);
  a.tp = sp.layout.tp;
  a.pp = sp.layout.pp;
  a.max_model_len = c.model_len();
  a.memory_fraction = c.engine == serving_engine::sglang
                          ? (c.mem_fraction_static > 0.0
                                 ? c.mem_fraction_static
                                 : gpuplan::detail::sglang_mem_fraction_static(sp.layout.tp))
                      : c.engine == serving_engine::trtllm ? c.free_gpu_memory_fraction
                                                           : c.gpu_memory_utilization;
  a.max_num_seqs = r.plan.slots_per_replica;
  return a;
}

/// --kubernetes NAME [--image IMAGE]: with a serving plan, the complete manifest (Deployment
/// running --engine with the plan's arguments, Service, HorizontalPodAutoscaler); with a replica
/// given by --replica-rate and --service-time, the Deployment with its replicas and GPUs.
std::string kubernetes_of(const settings& s, const capacity_report& r,
                          const std::optional<serving_input>& serving) {
  const std::optional<std::string> name = s.text("kubernetes");
  if (!name) return {};
  // An image reference never holds a control character (a newline would have started a new
  // key in the manifest); the manifest quotes it in any case (io::yaml_quoted).
  const std::string image = s.text("image").value_or("");
  if (std::any_of(image.begin(), image.end(),
                  [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; }))
    throw usage_error(s.name("image") + ": the image name holds a control character");
  if (!serving)
    return io::kubernetes_resources(*name, r.plan.replicas, r.request.replica.gpus, r.mig, image,
                                    s.name("image"));  // io::error naming the flag: not UTF-8
  io::kubernetes_plan k{};
  k.name = *name;
  k.replicas = std::max(r.plan.replicas, 1);
  std::tie(k.min_replicas, k.max_replicas) = autoscaler_bounds(r.plan);
  // Little's law: the queue one replica holds when its requests wait the SLO on average is its
  // rate x wait (lenient for a percentile SLO, as the manifest's comment says)
  k.waiting_target = r.request.replica.rate.in(units::requests_per_s) *
                     r.request.slo.max_wait.in(units::s);
  k.gpus_per_replica = r.request.replica.gpus;
  k.mig = r.mig;
  k.image = image;
  k.args = engine_args_of(s, *serving, r);
  return io::kubernetes_manifest(k, s.name("image"), s.name("model"));
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

/// What the command prints beside the report: the serving flags, the manifest, the chart file
/// and the estimates the serving model's figures rest on.
struct capacity_output {
  const capacity_report& report;
  const std::optional<serving_input>& serving;
  const settings& s;
  std::string yaml;
  std::optional<chart::file_result> drawn;
  estimate_notes notes;
};

void print_capacity_json(const capacity_output& o) {
  nlohmann::json j = io::to_json(o.report);
  if (o.serving) {
    const serve_setup& u = o.serving->setup;
    j["serving"]["model"] = u.model.name();
    j["serving"]["input_len"] = u.input_len;
    j["serving"]["output_len"] = u.output_len;
    add_memory_verdict(j, o.serving->replica.memory);
  }
  if (!o.yaml.empty()) j["kubernetes"] = o.yaml;
  if (o.drawn) j["chart"] = o.drawn->drawn ? o.drawn->image.string() : o.drawn->script.string();
  add_warnings(j, o.notes);
  print_json(std::move(j));
}

/// The serving plan's lines: its best point under the SLO, its memory verdict and its price.
void print_serving(const capacity_output& o) {
  const capacity_request& q = o.report.request;
  const serve_setup& u = o.serving->setup;
  const capacity_serving& c = o.serving->replica;
  const serving_plan& sp = u.plan;
  const serving_point& b = c.best.best;
  fmt::print("  serving plan: {} on {} x {} (tp {} pp {}), {} + {} tokens\n"
             "  best under TTFT <= {}, TPOT <= {}: concurrency {:.1f}, TTFT {}, TPOT {}, "
             "end-to-end {}\n",
             u.model.name(), q.replica.gpus, sp.node.gpu.name.view(), sp.layout.tp, sp.layout.pp,
             u.input_len, u.output_len, u.slo.ttft.value > 0 ? wait_text(u.slo.ttft) : "any",
             u.slo.tpot.value > 0 ? wait_text(u.slo.tpot) : "any", b.concurrency,
             wait_text(b.ttft), wait_text(b.tpot), wait_text(b.e2e));
  fmt::print("  {}\n", memory_verdict_text(c.memory));
  if (!o.report.price_from_book) {
    // the user's price per replica-hour replaces the book
  } else if (c.price != nullptr) {
    fmt::print("  price: {} {} on demand, ${:.2f}/GPU-h x {} GPUs = ${:.2f}/replica-h\n",
               c.price->provider.view(), c.price->instance.view(),
               c.price->on_demand.in(units::usd_per_h), q.replica.gpus,
               q.replica_price.in(units::usd_per_h));
  } else {
    fmt::print("  price: the default price book has no {} entry (give --price)\n",
               sp.node.gpu.name.view());
  }
}

/// The plan at the peak: replicas, utilisation against the bands, waits, cost, the hours, the
/// hybrid.
void print_peak(const capacity_report& r) {
  const capacity_plan& p = r.plan;
  const capacity_request& q = r.request;
  fmt::print("Replicas at the peak: {} ({} GPUs{})\n", p.replicas, p.gpus,
             r.mig ? fmt::format("; {} per GPU as {}: {} GPUs", r.mig->max_instances,
                                 r.mig->name.view(), r.physical_gpus)
                   : std::string());
  fmt::print("  utilisation: mean {} ({}), peak {} ({})\n", pct(p.mean_utilization),
             band_name(p.mean_band).data(), pct(p.peak_utilization), band_name(p.peak_band).data());
  fmt::print("  at the peak: P(wait) {:.3f}, mean wait {}, p99 wait {}{}\n", p.at_peak.p_wait,
             wait_text(p.at_peak.mean_wait), wait_text(p.at_peak.wait_percentile(0.99)),
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
  if (r.hybrid) {
    const hybrid_plan& h = r.hybrid->cost;
    fmt::print("  owned base + cloud burst (cost model; cloud ${:.2f}/GPU-h): own {} GPUs ({} "
               "replicas), rent up to {} replicas ({:.0f} GPU-hours a day): ${:.0f}/day (all "
               "cloud ${:.0f}, all owned ${:.0f} for {} GPUs)\n",
               r.cloud_per_gpu_hour.in(units::usd_per_h), h.base_gpus, r.hybrid->base_replicas,
               r.hybrid->peak_cloud_replicas, h.burst_gpu_time.in(units::h), h.hybrid.in(units::usd),
               h.all_cloud.in(units::usd), h.all_onprem.in(units::usd), h.peak_gpus);
  }
}

/// The alternatives, ranked, and those that could not be.
void print_options(const capacity_report& r) {
  if (!r.options.empty()) {
    bool priced = true;
    for (const option_result& x : r.options) priced = priced && x.priced;
    fmt::print("\nOptions for the same demand and target, ranked ({}){}:\n",
               priced ? "by cost" : "by GPUs, then utilisation nearest 80%",
               r.hybrid ? "; the hybrid's $/h is its day's cost over 24 h, its GPUs the owned ones"
                        : "");
    table t;
    t.header = {"option", "replicas", "GPUs", "peak util", "band", "wait at target", "$/h"};
    t.numeric = {false, true, true, true, false, true, true};
    for (const option_result& x : r.options)
      t.rows.push_back({std::string(x.name.view()), std::to_string(x.replicas),
                        std::to_string(x.gpus), pct(x.peak_utilization),
                        std::string(band_name(x.peak_band)), wait_text(x.wait_at_percentile),
                        x.priced ? fmt::format("{:.2f}", x.cost.in(units::usd_per_h)) : "-"});
    fmt::print("{}", t.render("  "));
  }
  for (const std::string& n : r.option_notes) fmt::print("  not ranked: {}\n", n);
}

/// Growth month by month, when today's fleet leaves the band and runs out, and the chart.
void print_growth(const capacity_report& r) {
  const capacity_plan& p = r.plan;
  const capacity_request& q = r.request;
  if (q.months <= 0) return;
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

void print_capacity_text(const capacity_output& o) {
  const capacity_report& r = o.report;
  const capacity_request& q = r.request;
  if (!o.yaml.empty()) {  // only the manifest, so that it pipes into kubectl or a file
    fmt::print("{}", o.yaml);
    if (o.drawn) fmt::print(stderr, "{}\n", o.drawn->message);
    print_warnings(o.notes);
    return;
  }
  fmt::print("Demand: mean {:.4g} req/s, peak {:.4g} req/s (x{:.3g}), arrival CV {:.3g}\n",
             q.demand.mean.in(units::requests_per_s), q.demand.peak().in(units::requests_per_s),
             q.demand.peak_factor, q.demand.arrival_cv);
  fmt::print("Replica: {:.4g} req/s at its SLO, {} per request (CV {:.3g}{}): {} request slot{}, "
             "{} GPU{}\n",
             q.replica.rate.in(units::requests_per_s), wait_text(q.replica.mean_service),
             q.replica.service_cv,
             o.serving && !o.s.has("service_cv") ? " from the serving model" : "",
             r.plan.slots_per_replica, r.plan.slots_per_replica > 1 ? "s" : "", q.replica.gpus,
             q.replica.gpus > 1 ? "s" : "");
  if (o.serving) print_serving(o);
  fmt::print("Target: p{:g} wait <= {}\n\n", q.slo.percentile * 100, wait_text(q.slo.max_wait));
  print_peak(r);
  print_options(r);
  print_growth(r);
  if (o.drawn) fmt::print("\n{}\n", o.drawn->message);
  print_warnings(o.notes);
}

/// Read the flags, make the report (plan_capacity_report, plan/capacity_report.hpp), print it.
int run_capacity(capacity_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  const std::optional<serving_input> serving = serving_input_from(s, cmd.require_fit);
  if (serving && cmd.require_fit && !serving->replica.memory.fits())
    return print_unfit_serving(serving->setup, serving->replica.memory, cmd.json);
  const capacity_report report = plan_capacity_report(question_from(s, serving));
  capacity_output out{.report = report, .serving = serving, .s = s, .yaml = kubernetes_of(s, report, serving),
                      .drawn = std::nullopt, .notes = {}};
  if (const std::optional<std::string> file = s.text("chart"))
    out.drawn = chart::render_file(horizon_chart(report.plan, report.request), *file,
                                   s.name("chart"));
  // A serving plan's replica rests on the serving model's estimates for its GPU.
  out.notes = serving ? serving_estimates(serving->setup.plan) : estimate_notes{};
  if (cmd.json)
    print_capacity_json(out);
  else
    print_capacity_text(out);
  return 0;
}

}  // namespace

command add_capacity_command(CLI::App& app) {
  auto cmd = std::make_shared<capacity_command>();
  CLI::App* sub = &app;
  cmd->s.add(sub, {model_fields(), gpu_fields(), node_fields(), layout_fields(), serving_fields(),
                   serve_load_fields(), capacity_table, assumption_fields()});
  // As serve: fit's --batch/--context and the training-only layout fields are not a serving
  // plan's (they were read and ignored); unlisted and refused.
  for (const char* key : {"batch", "context"})
    cmd->s.refuse(sub, key,
                  "is fit's; capacity takes --rate or --hourly, --input-len and --output-len");
  cmd->s.refuse(sub, field_use::train, "is a training setting; capacity does not take it");
  cmd->s.add_plan_option(sub);
  sub->add_flag("--json", cmd->json, "Print the plan as JSON (schema: docs/json-schema.md)");
  add_require_fit_flag(sub, cmd->require_fit);
  return {sub, [cmd] { return run_capacity(*cmd); }, [cmd] { return &cmd->s; }};
}

}  // namespace gpuplan::cli
