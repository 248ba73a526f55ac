// gpuplan/plan/capacity.hpp: how many replicas a demand needs at a waiting-time target, the
// utilisation they run at, month-by-month growth, the options ranked, and the GPUs a training run
// needs to meet a deadline.
//
// A replica is whatever serves requests as one unit: a TP/PP group of GPUs, one GPU, a MIG slice,
// or a CPU process. The plan takes its capacity as input (requests/s it sustains at the latency
// SLO, the mean time a request spends in service, and that time's variability), so it works for
// any workload; the serving model supplies these figures for LLMs.
//
// Mechanism: a replica that serves `rate` requests/s while each takes `mean_service` holds
// rate x mean_service requests at once (Little's law), so it is modelled as that many parallel
// slots (at least one), each serving one request at a time. The fleet is a G/G/(replicas x slots)
// queue (models/queueing.hpp): M/M/c exact for Poisson arrivals and exponential service,
// Allen-Cunneen otherwise. The smallest replica count whose queue meets the wait SLO at the peak
// rate is the plan.
#pragma once

#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/queueing.hpp>
#include <gpuplan/models/utilization_bands.hpp>
#include <gpuplan/models/scaling.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/units.hpp>

#include <cstddef>
#include <span>

namespace gpuplan {

// ---- inputs --------------------------------------------------------------------------------------

/// What one replica can do.
struct replica_capacity {
  /// Requests per second one replica sustains while meeting the latency SLO (its throughput at
  /// the SLO: the serving model's per-replica capacity, or a load test's knee).
  request_rate rate{};
  /// Mean time a request spends being served (without queueing), e.g. end-to-end latency at
  /// that load.
  duration mean_service{};
  /// Coefficient of variation of the service time (1: exponential).
  double service_cv = 1.0;
  /// GPUs one replica occupies (a TP x PP group), for GPU counts. A MIG slice is 1 here and
  /// counted in slices; see catalog/mig.hpp for slices per GPU.
  int gpus = 1;

  /// Most requests one replica may hold at once (its slots, rate x mean_service): 65,536. The
  /// fleet is solved as a queue with replicas x slots servers by a recursion over the servers
  /// (models/queueing.hpp), so the plan's time grows with the slots; serving engines hold
  /// hundreds to a few thousand requests at once (vLLM's --max-num-seqs defaults to 256), and
  /// 65,536 is far above them. --replica-rate 1e8 with --service-time 4 (4e8 slots) ran for
  /// minutes, and 2^31 slots wrapped int into a division by zero (gpuplan issue 22).
  static constexpr double max_slots = 65536.0;
  /// Most GPUs one replica may span: parallel_layout::max_gpus (2^24), the largest GPU count the
  /// models are defined for.
  static constexpr int max_gpus = 1 << 24;

  constexpr void validate() const {
    detail::check_input(rate.value > 0.0 && is_finite(rate),
                        "replica_capacity.rate must be positive and finite");
    detail::check_input(mean_service.value > 0.0 && is_finite(mean_service),
                        "replica_capacity.mean_service must be positive and finite");
    detail::check_input((rate * mean_service).in(units::request) <= max_slots,
                        "replica_capacity: rate x mean_service (requests held at once) must be "
                        "at most 65536 (replica_capacity::max_slots)");
    detail::check_input(service_cv >= 0.0 && service_cv <= queue_model::max_cv,
                        "replica_capacity.service_cv must be in [0, 10] (queue_model::max_cv)");
    detail::check_input(gpus >= 1 && gpus <= max_gpus,
                        "replica_capacity.gpus must be in [1, 2^24]", gpus);
  }
  /// Requests served at once: rate x mean_service (Little's law), rounded down, at least 1, at
  /// most max_slots (validate() refuses more).
  [[nodiscard]] constexpr int slots() const {
    const double n = (rate * mean_service).in(units::request);
    if (!(n < max_slots)) return static_cast<int>(max_slots);
    const int k = static_cast<int>(n + 1e-9);
    return k < 1 ? 1 : k;
  }
  /// Service time of one slot such that slots / slot_service = rate exactly. Equals
  /// mean_service when rate x mean_service is a whole number; longer when it was rounded down
  /// (the replica's throughput, not its latency, is what the plan must preserve).
  [[nodiscard]] constexpr duration slot_service() const {
    return (slots() * units::request) / rate;
  }
};

/// One replica of a serving plan at an operating point (best_under_slo's `best`, or serve()):
/// its requests/s (the point's over the plan's dp replicas), its mean end-to-end latency as the
/// service time, the spread of that latency over the request mix (the classes' input and output
/// lengths, and the prefill queue's wait: serving_point::e2e_sd) as the service CV, and tp x pp
/// GPUs.
constexpr replica_capacity replica_from_serving(const serving_plan& plan,
                                                const serving_point& at) {
  detail::check_input(at.e2e.value > 0.0 && at.requests_per_s.value > 0.0,
                      "replica_from_serving: the operating point serves no request");
  return {.rate = at.requests_per_s / (1.0 * plan.layout.dp),
          .mean_service = at.e2e,
          .service_cv = at.e2e_sd / at.e2e,
          .gpus = plan.gpus_per_replica()};
}

/// Demand: a mean arrival rate and a peak, either as a factor or from 24 hourly rates.
struct demand_profile {
  request_rate mean{};
  /// Peak rate / mean rate (>= 1). Set by from_hourly when an hourly profile is given.
  double peak_factor = 1.0;
  /// Coefficient of variation of the inter-arrival times: 1 for Poisson arrivals (many
  /// independent users), above 1 for bursty traffic (batch jobs submitting together).
  double arrival_cv = 1.0;
  /// Rates for the 24 hours of a day (has_hourly true), else unused.
  request_rate hourly[24]{};
  bool has_hourly = false;

  /// A profile from 24 hourly rates: mean = their average, peak = their maximum.
  static constexpr demand_profile from_hourly(const request_rate (&hours)[24],
                                              double arrival_cv = 1.0) {
    demand_profile d{};
    request_rate sum{}, top{};
    for (int h = 0; h < 24; ++h) {
      detail::check_input(hours[h].value >= 0.0 && is_finite(hours[h]),
                          "demand_profile.hourly: rates must be finite and not negative", h);
      d.hourly[h] = hours[h];
      sum += hours[h];
      if (hours[h] > top) top = hours[h];
    }
    d.has_hourly = true;
    d.mean = sum / 24.0;
    d.arrival_cv = arrival_cv;
    d.peak_factor = d.mean.value > 0.0 ? top / d.mean : 1.0;
    return d;
  }

  constexpr void validate() const {
    detail::check_input(mean.value > 0.0 && is_finite(mean),
                        "demand_profile.mean must be positive and finite");
    detail::check_input(peak_factor >= 1.0 && detail::finite(peak_factor),
                        "demand_profile.peak_factor must be at least 1 (peak / mean)");
    detail::check_input(arrival_cv >= 0.0 && arrival_cv <= queue_model::max_cv,
                        "demand_profile.arrival_cv must be in [0, 10] (queue_model::max_cv)");
  }
  [[nodiscard]] constexpr request_rate peak() const { return mean * peak_factor; }
};

struct capacity_assumptions {
  utilization_bands bands{};
  /// Search cap for the replica count (a target that needs more is reported as an error).
  int max_replicas = 1000000;
  /// Search cap for the fleet's slots (replicas x slots, the queue's servers), for the same
  /// reason as max_replicas and at the same scale: the Erlang recursion is O(servers) and runs
  /// once per month of growth and per hour of the profile, so 10^6 servers keep a 121-month plan
  /// within seconds. A demand that needs more is refused (plan a share of it).
  int max_fleet_slots = 1000000;
};

/// The question: this demand, this replica, this wait target; growth over a horizon; today's
/// fleet (to say when it runs out).
struct capacity_request {
  demand_profile demand{};
  replica_capacity replica{};
  wait_slo slo{.max_wait = 0.0 * units::s, .percentile = 0.99};
  /// Monthly demand growth, compounding (0.10 = +10% a month).
  double monthly_growth = 0.0;
  /// Months of growth to plan (0 = today only). At most capacity_plan::max_months.
  int months = 12;
  /// Replicas running today; 0: assume the plan's month-0 replica count is bought now.
  int current_replicas = 0;
  /// Optional: price of one replica-hour (0: no cost column; the cost model supplies prices).
  money_rate replica_price{};

  constexpr void validate() const;
};

// ---- results -------------------------------------------------------------------------------------

struct growth_row {
  int month = 0;
  request_rate mean{};
  request_rate peak{};
  int replicas = 0;              ///< smallest count meeting the SLO at this month's peak
  double mean_utilization = 0;   ///< at that count
  double peak_utilization = 0;
  /// Today's fleet (current_replicas) at this month's peak: its utilisation and whether it meets
  /// the SLO.
  double fleet_peak_utilization = 0;
  bool fleet_meets_slo = false;
};

struct hour_row {
  request_rate rate{};
  int replicas = 0;            ///< needed this hour (autoscaled)
  double fleet_utilization = 0;  ///< of the peak-sized fleet this hour
};

struct capacity_plan {
  static constexpr int max_months = 120;

  int replicas = 0;       ///< at the peak, meeting the SLO (month 0)
  long long gpus = 0;     ///< replicas x replica.gpus (long long: 10^6 replicas x 2^24 GPUs)
  int slots_per_replica = 1;
  queue_metrics at_peak{};  ///< the fleet's queue at the peak rate
  queue_metrics at_mean{};  ///< the same fleet at the mean rate
  double mean_utilization = 0;
  double peak_utilization = 0;
  utilization_band mean_band = utilization_band::waste;
  utilization_band peak_band = utilization_band::waste;
  /// Smallest count meeting the SLO at the mean rate (what an autoscaler would run off-peak).
  int replicas_at_mean = 0;
  /// Smallest count keeping the peak utilisation at or below the healthy band's top (90%):
  /// ceil(peak / (rate x healthy_to)). A large fleet meets a loose wait SLO at 95%+ (pooling);
  /// this is the count that also leaves the headroom the band asks for.
  int replicas_in_band = 0;
  money_rate cost_at_peak{};  ///< replicas x replica_price (0 when no price was given)

  growth_row growth[max_months + 1]{};
  int growth_rows = 0;
  /// First month in which today's fleet no longer meets the SLO at the peak (-1: not within the
  /// horizon). 0 means it does not meet it today.
  int fleet_runs_out_month = -1;
  /// First month in which today's fleet's peak utilisation passes the healthy band's top (90%):
  /// the month to have added capacity by (-1: not within the horizon).
  int fleet_leaves_band_month = -1;

  hour_row hours[24]{};
  bool has_hours = false;
};

// ---- the plan ------------------------------------------------------------------------------------

constexpr void capacity_request::validate() const {
  demand.validate();
  replica.validate();
  slo.validate();
  detail::check_input(monthly_growth > -1.0 && detail::finite(monthly_growth),
                      "capacity_request.monthly_growth must be finite and above -1 (-100%)");
  detail::check_input(months >= 0 && months <= capacity_plan::max_months,
                      "capacity_request.months must be in [0, 120]", months);
  detail::check_input(current_replicas >= 0,
                      "capacity_request.current_replicas must not be negative", current_replicas);
  detail::check_input(replica_price.value >= 0.0 && is_finite(replica_price),
                      "capacity_request.replica_price must be finite and not negative");
}

namespace detail {

/// The fleet of n replicas as a queue at arrival rate r.
constexpr queue_model fleet_queue(const replica_capacity& rep, double arrival_cv, request_rate r,
                                  int n) {
  return {.arrival_rate = r,
          .mean_service = rep.slot_service(),
          .servers = n * rep.slots(),
          .arrival_cv = arrival_cv,
          .service_cv = rep.service_cv};
}

/// Smallest replica count meeting the SLO at rate r, searching up to max_replicas replicas and
/// max_fleet_slots servers (capacity_assumptions).
constexpr int replicas_for(const replica_capacity& rep, double arrival_cv, request_rate r,
                           const wait_slo& slo, const capacity_assumptions& a) {
  if (!(r.value > 0.0)) return 0;
  check_input(is_finite(r), "capacity: the demand must be finite");
  const int k = rep.slots();
  const long long by_replicas = 1LL * a.max_replicas * k;
  const int max_servers =
      static_cast<int>(by_replicas < a.max_fleet_slots ? by_replicas : a.max_fleet_slots);
  queue_model q = fleet_queue(rep, arrival_cv, r, 1);
  check_input(q.offered_load() < max_servers,
              "capacity: the demand keeps more requests in service at once than the plan "
              "searches (capacity_assumptions::max_fleet_slots, 10^6)",
              static_cast<long long>(max_servers));
  const queue_metrics m = min_servers(q, slo, max_servers);
  return (m.servers + k - 1) / k;
}

constexpr double fleet_utilization(const replica_capacity& rep, request_rate r, int n) {
  return n > 0 ? r / (n * rep.rate) : 0.0;
}

}  // namespace detail

/// Replicas at the peak meeting the wait SLO, utilisation at mean and peak judged against the
/// bands, replicas month by month under compounding growth, and when today's fleet runs out.
constexpr capacity_plan plan_capacity(const capacity_request& q,
                                      const capacity_assumptions& a = {}) {
  q.validate();
  a.bands.validate();
  const replica_capacity& rep = q.replica;
  const double cv = q.demand.arrival_cv;
  capacity_plan p{};
  p.slots_per_replica = rep.slots();
  detail::check_input(a.max_replicas >= 1 && a.max_fleet_slots >= 1,
                      "capacity_assumptions: max_replicas and max_fleet_slots must be positive");
  p.replicas = detail::replicas_for(rep, cv, q.demand.peak(), q.slo, a);
  p.gpus = 1LL * p.replicas * rep.gpus;
  p.replicas_at_mean = detail::replicas_for(rep, cv, q.demand.mean, q.slo, a);
  p.at_peak = analyze_queue(detail::fleet_queue(rep, cv, q.demand.peak(), p.replicas));
  p.at_mean = analyze_queue(detail::fleet_queue(rep, cv, q.demand.mean, p.replicas));
  p.peak_utilization = detail::fleet_utilization(rep, q.demand.peak(), p.replicas);
  p.mean_utilization = detail::fleet_utilization(rep, q.demand.mean, p.replicas);
  p.peak_band = a.bands.classify(p.peak_utilization);
  {
    const double n = q.demand.peak() / (rep.rate * a.bands.healthy_to);
    const long long whole = static_cast<long long>(n);
    p.replicas_in_band = static_cast<int>(static_cast<double>(whole) < n ? whole + 1 : whole);
    if (p.replicas_in_band < 1) p.replicas_in_band = 1;
  }
  p.mean_band = a.bands.classify(p.mean_utilization);
  p.cost_at_peak = p.replicas * q.replica_price;

  const int fleet = q.current_replicas > 0 ? q.current_replicas : p.replicas;
  double scale = 1.0;
  for (int m = 0; m <= q.months; ++m) {
    growth_row& g = p.growth[m];
    g.month = m;
    g.mean = q.demand.mean * scale;
    g.peak = q.demand.peak() * scale;
    g.replicas = detail::replicas_for(rep, cv, g.peak, q.slo, a);
    g.mean_utilization = detail::fleet_utilization(rep, g.mean, g.replicas);
    g.peak_utilization = detail::fleet_utilization(rep, g.peak, g.replicas);
    g.fleet_peak_utilization = detail::fleet_utilization(rep, g.peak, fleet);
    g.fleet_meets_slo = g.replicas <= fleet;
    if (!g.fleet_meets_slo && p.fleet_runs_out_month < 0) p.fleet_runs_out_month = m;
    if (g.fleet_peak_utilization > a.bands.healthy_to && p.fleet_leaves_band_month < 0)
      p.fleet_leaves_band_month = m;
    scale *= 1.0 + q.monthly_growth;
  }
  p.growth_rows = q.months + 1;

  if (q.demand.has_hourly) {
    p.has_hours = true;
    for (int h = 0; h < 24; ++h) {
      p.hours[h].rate = q.demand.hourly[h];
      p.hours[h].replicas =
          detail::replicas_for(rep, cv, q.demand.hourly[h], q.slo, a);
      p.hours[h].fleet_utilization =
          detail::fleet_utilization(rep, q.demand.hourly[h], p.replicas);
    }
  }
  return p;
}

// ---- options ranked ------------------------------------------------------------------------------

/// One way to serve the demand: a replica type (the same GPU, a bigger GPU, a MIG slice, a
/// smaller GPU), how many of it share one physical GPU, and optionally its price.
struct capacity_option {
  name_string name{};
  replica_capacity replica{};
  /// Replicas that share one GPU: 1 for whole GPUs (or TP groups: replica.gpus GPUs each),
  /// up to 7 for MIG slices (catalog/mig.hpp: mig_replicas_per_gpu).
  int replicas_per_gpu = 1;
  money_rate replica_price{};  ///< per replica-hour; 0 when unknown
};

struct option_result {
  name_string name{};
  int replicas = 0;
  long long gpus = 0;            ///< physical GPUs: ceil(replicas / replicas_per_gpu) x gpus
  double peak_utilization = 0;
  double mean_utilization = 0;
  utilization_band peak_band = utilization_band::waste;
  duration wait_at_percentile{};  ///< at the peak
  money_rate cost{};              ///< replicas x price (0 when no price)
  bool priced = false;
};

namespace detail {
/// The fields of an option's result that its capacity plan sets (rank_options and
/// plan_hybrid_capacity set the GPUs and the price themselves).
constexpr option_result option_from_plan(const name_string& name, const capacity_plan& p,
                                         const capacity_request& q) {
  option_result x{};
  x.name = name;
  x.replicas = p.replicas;
  x.peak_utilization = p.peak_utilization;
  x.mean_utilization = p.mean_utilization;
  x.peak_band = p.peak_band;
  x.wait_at_percentile = p.at_peak.wait_percentile(q.slo.percentile);
  return x;
}
}  // namespace detail

/// Orders option results as rank_options does: by cost when every one is priced, else by
/// physical GPUs, then by peak utilisation closest to the healthy band's middle (stable).
constexpr void sort_options(std::span<option_result> out, const capacity_assumptions& a = {}) {
  bool all_priced = true;
  for (const option_result& x : out) all_priced = all_priced && x.priced;
  const double mid = (a.bands.healthy_from + a.bands.healthy_to) / 2.0;
  auto before = [&](const option_result& l, const option_result& r) {
    if (all_priced && l.cost != r.cost) return l.cost < r.cost;
    if (l.gpus != r.gpus) return l.gpus < r.gpus;
    const double dl = l.peak_utilization - mid, dr = r.peak_utilization - mid;
    return (dl < 0 ? -dl : dl) < (dr < 0 ? -dr : dr);
  };
  for (std::size_t i = 1; i < out.size(); ++i)  // insertion sort: constexpr, stable, n is small
    for (std::size_t j = i; j > 0 && before(out[j], out[j - 1]); --j) {
      const option_result t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
}

/// The options for one demand and SLO, each sized with plan_capacity, ranked: by cost when every
/// option has a price, else by physical GPUs, then by peak utilisation closest to the healthy
/// band's middle. Writes one result per option into `out` (at least as long as `options`);
/// returns how many.
constexpr int rank_options(const capacity_request& q, std::span<const capacity_option> options,
                           std::span<option_result> out, const capacity_assumptions& a = {}) {
  detail::check_input(out.size() >= options.size(),
                      "rank_options: out must hold one result per option",
                      static_cast<long long>(out.size()), static_cast<long long>(options.size()));
  const std::size_t n = options.size();
  for (std::size_t i = 0; i < n; ++i) {
    const capacity_option& o = options[i];
    detail::check_input(o.replicas_per_gpu >= 1,
                        "capacity_option.replicas_per_gpu must be at least 1",
                        o.replicas_per_gpu);
    capacity_request r = q;
    r.replica = o.replica;
    r.replica_price = o.replica_price;
    r.months = 0;
    r.current_replicas = 0;
    const capacity_plan p = plan_capacity(r, a);
    option_result& x = out[i] = detail::option_from_plan(o.name, p, q);
    x.gpus = 1LL * ((p.replicas + o.replicas_per_gpu - 1) / o.replicas_per_gpu) * o.replica.gpus;
    x.priced = o.replica_price.value > 0.0;
    x.cost = p.cost_at_peak;
  }
  sort_options(out.first(n), a);
  return static_cast<int>(n);
}

template <std::size_t N>
constexpr int rank_options(const capacity_request& q, const capacity_option (&options)[N],
                           option_result (&out)[N], const capacity_assumptions& a = {}) {
  return rank_options(q, std::span<const capacity_option>(options), std::span<option_result>(out),
                      a);
}

// ---- owned base + cloud burst --------------------------------------------------------------------

/// Owned GPUs for the baseline, cloud GPUs rented for the hours above it, priced with the cost
/// model (models/cost.hpp: plan_hybrid over the hourly GPU demand).
struct hybrid_capacity {
  hybrid_plan cost{};  ///< base_gpus owned, burst GPU-hours, the day's cost against all-cloud/owned
  int base_replicas = 0;  ///< owned replicas: base_gpus / replica.gpus
  int peak_cloud_replicas = 0;  ///< most replicas rented at once
  option_result option{};  ///< the split as a ranked option (cost: the day's average per hour)
};

namespace detail {
/// The least common multiple of two positive counts (std::lcm without <numeric>, which the
/// umbrella header would pay for in every translation unit: docs/performance.md).
constexpr int lcm_positive(int a, int b) {
  int x = a, y = b;
  while (y != 0) {
    const int t = x % y;
    x = y;
    y = t;
  }
  return a / x * b;
}
}  // namespace detail

/// The cheapest owned base for plan_capacity(q)'s 24-hour profile (it needs one): each hour needs
/// hours[h].replicas x replica.gpus GPUs; owned GPUs cost the on-prem fleet's amortisation,
/// maintenance, colocation and energy every hour (onprem_fleet: the server, onprem_costs, the
/// site), rented ones `cloud_per_gpu_hour` for the hours used. `fleet.gpus` is ignored (sized
/// to the peak). Owned GPUs are bought as whole servers and hold whole replicas, so the base is
/// a multiple of both the server's GPUs and the replica's (a 16-GPU replica on 8-GPU servers:
/// 16; a 2-GPU replica: 8).
constexpr hybrid_capacity plan_hybrid_capacity(const capacity_plan& p, const capacity_request& q,
                                               const onprem_fleet& fleet,
                                               money_rate cloud_per_gpu_hour) {
  detail::check_input(p.has_hours, "plan_hybrid_capacity: the demand needs a 24-hour profile");
  const replica_capacity& rep = q.replica;
  rep.validate();
  double gpus[24]{};
  for (int h = 0; h < 24; ++h) gpus[h] = 1.0 * p.hours[h].replicas * rep.gpus;
  onprem_fleet f = fleet;
  f.gpus = 1;  // plan_hybrid sizes it to the peak
  hybrid_capacity r{};
  const int server = f.node.gpus > 0 ? f.node.gpus : 1;
  r.cost = plan_hybrid(std::span<const double>(gpus), f, cloud_per_gpu_hour,
                       detail::lcm_positive(server, rep.gpus));
  r.base_replicas = r.cost.base_gpus / rep.gpus;  // whole: the base is a multiple of rep.gpus
  for (const hour_row& h : p.hours)
    if (h.replicas - r.base_replicas > r.peak_cloud_replicas)
      r.peak_cloud_replicas = h.replicas - r.base_replicas;
  option_result& o = r.option =
      detail::option_from_plan(name_string::from("owned base + cloud burst"), p, q);
  o.gpus = r.cost.base_gpus;
  o.cost = r.cost.hybrid / (static_cast<double>(r.cost.hours) * units::h);
  o.priced = true;
  return r;
}

// ---- training capacity ---------------------------------------------------------------------------

struct training_capacity_assumptions {
  /// plan_training_capacity only (it has a per-GPU rate, not a plan to model failures on): share
  /// of wall-clock time spent making training progress (the rest: failures, restarts,
  /// checkpoints, evaluation). Meta reports "higher than 90% effective training time" for Llama 3
  /// 405B on 16K H100s (Llama Team, "The Llama 3 Herd of Models", 2024, sec. 3.3.4).
  double goodput = 0.90;
  /// plan_training_gpus: the failures and checkpoints of the run at each GPU count
  /// (models/reliability.hpp, as `gpuplan cost` prices a run): larger jobs fail more often.
  reliability_assumptions reliability{};
  /// Round the GPU count up to a multiple of this (whole nodes; 8 GPUs per HGX node).
  int gpu_multiple = 8;
};

struct training_capacity {
  int gpus = 0;                 ///< rounded up to a multiple of gpu_multiple
  double exact_gpus = 0;        ///< before rounding
  duration time_to_train{};     ///< with `gpus` GPUs, goodput included
  token_rate cluster_rate{};    ///< gpus x per-GPU rate
};

namespace detail {
/// The checks both training-capacity planners make of their target.
constexpr void check_training_target(token_count tokens, duration deadline) {
  check_input(tokens.value > 0.0 && is_finite(tokens),
              "training capacity: tokens must be positive and finite");
  check_input(deadline.value > 0.0 && is_finite(deadline),
              "training capacity: deadline must be positive and finite");
}
}  // namespace detail

/// GPUs needed to train `tokens` within `deadline`, given the tokens/s one GPU achieves in the
/// target configuration (from the training model or a measurement at that scale: the per-GPU
/// rate already carries the parallel efficiency at that size).
constexpr training_capacity plan_training_capacity(token_count tokens, duration deadline,
                                                   token_rate per_gpu,
                                                   const training_capacity_assumptions& a = {}) {
  detail::check_training_target(tokens, deadline);
  detail::check_input(a.goodput > 0.0 && a.goodput <= 1.0,
                      "training_capacity_assumptions.goodput must be in (0, 1]");
  detail::check_input(per_gpu.value > 0.0 && is_finite(per_gpu),
                      "training capacity: per-GPU throughput must be positive and finite");
  detail::check_input(a.gpu_multiple >= 1,
                      "training_capacity_assumptions.gpu_multiple must be at least 1",
                      a.gpu_multiple);
  training_capacity r{};
  r.exact_gpus = tokens / (per_gpu * deadline * a.goodput);
  const long long whole = static_cast<long long>(r.exact_gpus);
  long long n = static_cast<double>(whole) < r.exact_gpus ? whole + 1 : whole;
  n = (n + a.gpu_multiple - 1) / a.gpu_multiple * a.gpu_multiple;
  detail::check_input(n <= 100000000, "training capacity: more than 1e8 GPUs needed");
  r.gpus = static_cast<int>(n);
  r.cluster_rate = per_gpu * static_cast<double>(n);
  r.time_to_train = tokens / (r.cluster_rate * a.goodput);
  return r;
}

/// The smallest data-parallel degree of `base` (its tp x pp x cp kept) whose modelled time to
/// train `tokens`, with the failures and checkpoints of the reliability model, meets `deadline`.
struct training_gpus {
  bool met = false;       ///< false: no dp up to max_gpus meets it (the fastest tried is reported)
  int gpus = 0;           ///< dp x tp x pp x cp
  int dp = 0;
  int nodes = 0;          ///< whole servers of base.node
  int global_batch = 0;
  duration wall_time{};   ///< time_to_train / ETTR (reliability_for)
  reliability_estimate reliability{};  ///< ETTR, MTTF, interruptions at that count
  token_rate tokens_per_s{};
  double mfu = 0.0;
  training_plan plan{};   ///< the plan at that dp
};

/// GPUs needed to train `tokens` by `deadline` with the training step-time model
/// (models/training_step.hpp), the data-parallel degree scaled as the scaling curve scales it
/// (models/scaling.hpp: scale_plan). Strong (default): the global batch stays the plan's, so dp
/// runs over its divisors; weak: the batch grows with dp. Wall time = time_to_train / ETTR, the
/// reliability model's expected reserved time (a.reliability; its failures grow with the GPUs).
/// The per-GPU throughput is assumed not to rise with dp (it falls with communication and
/// bubbles), so the first dp meeting the deadline is the smallest; weak scaling is searched by
/// doubling and then bisection, which also assumes the wall time falls as dp grows. With the
/// reliability model it rises again past the size where failures dominate: a window of counts
/// meeting the deadline narrower than a doubling step can be missed (reported not met).
constexpr training_gpus plan_training_gpus(const training_plan& base, token_count tokens,
                                           duration deadline,
                                           scaling_mode mode = scaling_mode::strong,
                                           const training_capacity_assumptions& a = {},
                                           int max_gpus = 1000000) {
  detail::check_training_target(tokens, deadline);
  a.reliability.validate();
  detail::check_input(base.config.rampup_start == 0,
                      "training capacity: training_config.rampup_start must be 0 (the ramp's "
                      "batches are multiples of micro_batch x dp, which the planner varies)");
  base.layout.validate();  // tp, pp, cp at least 1: max_gpus is divided by their product below
  base.config.validate();  // a batch of at least 1: dp runs over its divisors below
  const int mp = base.layout.tp * base.layout.pp * base.layout.cp;
  detail::check_input(max_gpus >= mp, "training capacity: max_gpus below tp x pp x cp", max_gpus,
                      mp);
  int max_dp = max_gpus / mp;
  if (mode == scaling_mode::weak) {  // the weak-scaled batch must stay an int (scale_plan)
    const double batch_fits = max_global_batch * base.layout.dp / plan_global_batch(base);
    if (batch_fits < max_dp) max_dp = static_cast<int>(batch_fits);
  }
  training_gpus best{};
  auto eval = [&](int dp, training_gpus& out) {
    const scaled_plan sp = scale_plan(base, dp, mode);
    out.met = false;
    if (!sp.valid) return false;
    const step_breakdown b = estimate_step(sp.plan);
    out.plan = sp.plan;
    out.dp = dp;
    out.gpus = sp.plan.layout.gpus();
    out.nodes = plan_nodes(sp.plan);
    out.global_batch = sp.global_batch;
    // a count whose failures outpace its progress never finishes: infinite wall, not met
    out.reliability = estimate_reliability(a.reliability, out.gpus,
                                           time_to_train(sp.plan, tokens),
                                           checkpoint_size(sp.plan));
    out.wall_time = out.reliability.wall;
    out.tokens_per_s = b.tokens_per_s;
    out.mfu = b.mfu;
    out.met = !(out.wall_time > deadline);
    return true;
  };
  training_gpus t{};
  if (mode == scaling_mode::strong) {
    const int batch = plan_global_batch(base);
    for (int dp = 1; dp <= max_dp && dp <= batch; ++dp) {
      if (!eval(dp, t)) continue;
      if (best.dp == 0 || t.wall_time < best.wall_time) best = t;
      if (t.met) return t;
    }
    return best;
  }
  int lo = 0, hi = 1;  // lo: largest dp known to miss (0: none)
  while (true) {
    eval(hi, t);  // weak scaling keeps micro_batch x dp dividing the batch: always valid
    if (t.met) break;
    // the fastest miss: past some size failures outpace the gain (reliability model)
    if (best.dp == 0 || t.wall_time < best.wall_time) best = t;
    lo = hi;
    if (hi == max_dp) return best;
    hi = hi > max_dp / 2 ? max_dp : hi * 2;
  }
  best = t;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    eval(mid, t);
    if (t.met) {
      hi = mid;
      best = t;
    } else {
      lo = mid;
    }
  }
  return best;
}

}  // namespace gpuplan
