// gpuplan/plan/capacity.hpp: how many replicas a demand needs at a waiting-time target, the
// utilisation they run at, month-by-month growth and the options ranked. The GPUs a training run
// needs to meet a deadline are plan/training_capacity.hpp's (the training step and scaling
// models are not read here).
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
#include <gpuplan/models/serving.hpp>
#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/units.hpp>

#include <cstddef>

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

/// Orders the n option results at `out` as rank_options does: by cost when every one is priced,
/// else by physical GPUs, then by peak utilisation closest to the healthy band's middle (stable).
constexpr void sort_options(option_result* out, std::size_t n, const capacity_assumptions& a = {}) {
  bool all_priced = true;
  for (std::size_t i = 0; i < n; ++i) all_priced = all_priced && out[i].priced;
  const double mid = (a.bands.healthy_from + a.bands.healthy_to) / 2.0;
  auto before = [&](const option_result& l, const option_result& r) {
    if (all_priced && l.cost != r.cost) return l.cost < r.cost;
    if (l.gpus != r.gpus) return l.gpus < r.gpus;
    const double dl = l.peak_utilization - mid, dr = r.peak_utilization - mid;
    return (dl < 0 ? -dl : dl) < (dr < 0 ? -dr : dr);
  };
  for (std::size_t i = 1; i < n; ++i)  // insertion sort: constexpr, stable, n is small
    for (std::size_t j = i; j > 0 && before(out[j], out[j - 1]); --j) {
      const option_result t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
}

/// sort_options over a whole array of option results.
template <std::size_t N>
constexpr void sort_options(option_result (&out)[N], const capacity_assumptions& a = {}) {
  sort_options(out, N, a);
}
/// sort_options over a contiguous container of option results (std::array, std::vector).
template <class Options>
  requires requires(Options& o) { o.data(); o.size(); }
constexpr void sort_options(Options& out, const capacity_assumptions& a = {}) {
  sort_options(out.data(), out.size(), a);
}

/// The options for one demand and SLO, each sized with plan_capacity, ranked: by cost when every
/// option has a price, else by physical GPUs, then by peak utilisation closest to the healthy
/// band's middle. Writes one result per option into `out` (at least as long as `options`);
/// returns how many.
constexpr int rank_options(const capacity_request& q, array_view<capacity_option> options,
                           option_result* out, std::size_t out_size,
                           const capacity_assumptions& a = {}) {
  detail::check_input(out_size >= options.size(),
                      "rank_options: out must hold one result per option",
                      static_cast<long long>(out_size), static_cast<long long>(options.size()));
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
  sort_options(out, n, a);
  return static_cast<int>(n);
}

/// rank_options into a whole array of results, at least as long as `options`.
template <std::size_t N>
constexpr int rank_options(const capacity_request& q, array_view<capacity_option> options,
                           option_result (&out)[N], const capacity_assumptions& a = {}) {
  return rank_options(q, options, out, N, a);
}
/// rank_options into a contiguous container of results (std::array, std::vector).
template <class Results>
  requires requires(Results& r) { r.data(); r.size(); }
constexpr int rank_options(const capacity_request& q, array_view<capacity_option> options,
                           Results& out, const capacity_assumptions& a = {}) {
  return rank_options(q, options, out.data(), out.size(), a);
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
  r.cost = plan_hybrid(array_view<double>(gpus), f, cloud_per_gpu_hour,
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

}  // namespace gpuplan
