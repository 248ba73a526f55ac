// gpuplan/models/queueing.hpp: waiting time of requests queued for c identical servers.
//
//   M/M/c   Poisson arrivals, exponential service: exact (Erlang C).
//   G/G/c   any arrival and service variability: the Allen-Cunneen approximation.
//   M/G/1   one server, any service-time distribution: Pollaczek-Khinchine's mean wait, the
//           G/G/c formula with c = 1 and c_a = 1 (detail::mg1_wait, models/serving.hpp's prefill queue).
//
// Erlang C is computed from the Erlang B recursion B(k) = a B(k-1) / (k + a B(k-1)), which stays
// in [0, 1] for any load and server count (no a^c / c! overflow), in O(c) steps; the smallest
// server count meeting a wait target reuses the recursion incrementally.
//
// Sources:
//   [Kleinrock] L. Kleinrock, "Queueing Systems, Volume 1: Theory", Wiley 1975, sec. 3.5
//               (M/M/m: the probability of queueing, eq. 3.40, and the waiting-time distribution).
//   [GH]        D. Gross, J. Shortle, J. Thompson, C. Harris, "Fundamentals of Queueing Theory",
//               4th ed., Wiley 2008, sec. 2.3 (M/M/c) and sec. 7.2 (approximations for G/G/c).
//   [Allen]     A. O. Allen, "Probability, Statistics, and Queueing Theory with Computer Science
//               Applications", 2nd ed., Academic Press 1990, sec. 6.4: the Allen-Cunneen
//               approximation W_q(G/G/c) ~ W_q(M/M/c) (c_a^2 + c_s^2) / 2.
//   [Kingman]   J. F. C. Kingman, "The single server queue in heavy traffic", Proc. Cambridge
//               Philosophical Society 57(4), 1961: W_q(G/G/1) ~ rho/(1-rho) (c_a^2+c_s^2)/2 E[S],
//               the c = 1 case of Allen-Cunneen.
//   [PK]        the Pollaczek-Khinchine formula, W_q(M/G/1) = lambda E[S^2] / (2 (1 - rho)):
//               [Kleinrock] sec. 5.6, eq. 5.73; [GH] sec. 5.1.1.
#pragma once

#include <gpuplan/models/cmath.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/units.hpp>

#include <limits>
#include <type_traits>

namespace gpuplan {

// ---- Erlang B and C ------------------------------------------------------------------------------

/// Erlang B: the probability that a request finding all `servers` busy is lost (M/M/c/c), for an
/// offered load of `load` erlangs (arrival rate x mean service time). Recursion over k = 1..c.
constexpr double erlang_b(double load, int servers) {
  detail::check_input(load >= 0.0 && detail::finite(load),
                      "erlang_b: load (erlangs) must be finite and not negative");
  detail::check_input(servers >= 0, "erlang_b: servers must not be negative", servers);
  double b = 1.0;
  for (int k = 1; k <= servers; ++k) b = load * b / (k + load * b);
  return b;
}

/// Erlang C: the probability that an arriving request waits (all servers busy) in M/M/c, for an
/// offered load below the server count. C = c B / (c - a (1 - B)) [Kleinrock eq. 3.40].
/// Returns 1 when load >= servers (the queue grows without bound: every request waits).
constexpr double erlang_c(double load, int servers) {
  detail::check_input(servers >= 1, "erlang_c: servers must be at least 1", servers);
  const double b = erlang_b(load, servers);
  if (load >= servers) return 1.0;
  return servers * b / (servers - load * (1.0 - b));
}

// ---- one queue -----------------------------------------------------------------------------------

/// A multi-server queue: requests arrive at `arrival_rate` and are served first come, first
/// served by `servers` identical servers, each taking `mean_service` on average. The coefficients
/// of variation (standard deviation / mean) describe the inter-arrival and service times:
/// 1 and 1 is M/M/c (Poisson arrivals, exponential service), service_cv 0 is deterministic
/// service (M/D/c).
struct queue_model {
  request_rate arrival_rate{};
  duration mean_service{};
  int servers = 1;
  /// Inter-arrival time CV. 1: Poisson arrivals, the usual model of many independent users.
  double arrival_cv = 1.0;
  /// Service time CV. 1: exponential. LLM requests, whose length varies with the prompt and the
  /// output, are often near or above 1; fixed-size inference (one image) is well below.
  double service_cv = 1.0;

  /// Largest coefficient of variation (of inter-arrival or service times) the model accepts: 10,
  /// ten times a Poisson process's. Allen-Cunneen scales the M/M/c wait by (c_a^2 + c_s^2) / 2
  /// and keeps the tail exponential [Allen sec. 6.4]; its error is studied for CVs of a few
  /// ([GH] sec. 7.2 tabulates c^2 up to 4), and past 10 the factor (above 50) swamps the Erlang
  /// term: CV 1e9 gave a mean wait of 1e14 s beside a p99 of 0 (gpuplan issue 22). Traffic that
  /// bursty is a varying rate (an hourly profile, a peak factor), not one CV.
  static constexpr double max_cv = 10.0;

  constexpr void validate() const {
    detail::check_input(arrival_rate.value >= 0.0 && is_finite(arrival_rate),
                        "queue_model.arrival_rate must be finite and not negative");
    detail::check_input(mean_service.value > 0.0 && is_finite(mean_service),
                        "queue_model.mean_service must be positive and finite");
    detail::check_input(servers >= 1, "queue_model.servers must be at least 1", servers);
    detail::check_input(arrival_cv >= 0.0 && arrival_cv <= max_cv,
                        "queue_model.arrival_cv must be in [0, 10] (queue_model::max_cv)");
    detail::check_input(service_cv >= 0.0 && service_cv <= max_cv,
                        "queue_model.service_cv must be in [0, 10] (queue_model::max_cv)");
  }
  /// Offered load a = lambda x E[S] in erlangs: the mean number of busy servers.
  [[nodiscard]] constexpr double offered_load() const { return (arrival_rate * mean_service).in(units::request); }
  /// Utilisation rho = a / c: the share of time a server is busy.
  [[nodiscard]] constexpr double utilization() const { return offered_load() / servers; }
  /// True for M/M/c, where the results are exact rather than the Allen-Cunneen approximation.
  [[nodiscard]] constexpr bool markovian() const { return arrival_cv == 1.0 && service_cv == 1.0; }
};

/// What a queue_model gives: the probability of waiting, the mean wait and its tail.
struct queue_metrics {
  int servers = 0;
  double offered_load = 0;    ///< erlangs
  double utilization = 0;     ///< offered_load / servers
  bool stable = false;        ///< utilisation below 1; otherwise the waits below are infinite
  bool exact = false;         ///< M/M/c (exact); false: the Allen-Cunneen approximation
  double p_wait = 0;          ///< P(W > 0): Erlang C
  /// (c_a^2 + c_s^2) / 2: the Allen-Cunneen factor on the M/M/c wait (1 for M/M/c).
  double variability = 1;
  duration mean_wait{};       ///< E[W_q], time in the queue before service starts
  duration mean_response{};   ///< E[W_q] + E[S]
  double mean_queue_length = 0;  ///< L_q = lambda E[W_q] (Little's law)
  /// Decay rate of the wait tail: P(W > t) = p_wait exp(-t x decay). M/M/c: c mu - lambda
  /// [Kleinrock sec. 3.5]. G/G/c: (c mu - lambda) / variability, which keeps the waits of the
  /// requests that wait exponential with the Allen-Cunneen mean (an approximation: the same
  /// assumption the Allen-Cunneen mean rests on; checked against simulation in the tests).
  frequency decay{};

  /// P(W > t), the share of requests that wait longer than t.
  [[nodiscard]] constexpr double wait_exceeds(duration t) const {
    if (!stable) return 1.0;
    if (!(t.value > 0.0)) return p_wait;
    return p_wait * detail::cexp(-(t * decay));
  }
  /// The wait that a share p (0 <= p < 1) of requests do not exceed, e.g. p = 0.99 for p99:
  /// ln(p_wait / (1 - p)) / decay, or 0 when at least a share p is served at once.
  [[nodiscard]] constexpr duration wait_percentile(double p) const {
    detail::check_input(p >= 0.0 && p < 1.0, "wait_percentile: p must be in [0, 1)");
    if (!stable) return std::numeric_limits<double>::infinity() * units::s;
    if (p_wait <= 1.0 - p) return 0.0 * units::s;
    return detail::clog(p_wait / (1.0 - p)) / decay;
  }
};

namespace detail {

constexpr queue_metrics queue_metrics_from(const queue_model& q, double b) {
  queue_metrics r{};
  r.servers = q.servers;
  r.offered_load = q.offered_load();
  r.utilization = q.utilization();
  r.exact = q.markovian();
  r.variability = (q.arrival_cv * q.arrival_cv + q.service_cv * q.service_cv) / 2.0;
  r.stable = r.offered_load < q.servers;
  if (!r.stable) {
    const double inf = std::numeric_limits<double>::infinity();
    r.p_wait = 1.0;
    r.mean_wait = inf * units::s;
    r.mean_response = inf * units::s;
    r.mean_queue_length = inf;
    r.decay = frequency{};
    return r;
  }
  const double c = q.servers, a = r.offered_load;
  r.p_wait = c * b / (c - a * (1.0 - b));
  const frequency spare = (c - a) / q.mean_service;  // c mu - lambda
  if (r.variability > 0.0) {
    r.decay = spare / r.variability;
    r.mean_wait = r.p_wait / r.decay;
  } else {  // deterministic arrivals and service: nobody waits below saturation
    r.p_wait = 0.0;
    r.decay = spare;
    r.mean_wait = 0.0 * units::s;
  }
  r.mean_response = r.mean_wait + q.mean_service;
  r.mean_queue_length = (q.arrival_rate * r.mean_wait).in(units::request);
  return r;
}

}  // namespace detail

/// The waiting time of a queue: exact for M/M/c, Allen-Cunneen for other variabilities.
///   p_wait = Erlang C(a, c);  E[W_q] = p_wait / (c mu - lambda) x (c_a^2 + c_s^2) / 2
/// [Kleinrock sec. 3.5; Allen sec. 6.4]. With c_a = 0 and c_s = 0 nobody waits.
constexpr queue_metrics analyze_queue(const queue_model& q) {
  q.validate();
  return detail::queue_metrics_from(q, erlang_b(q.offered_load(), q.servers));
}

/// A waiting-time target: the share `percentile` of requests wait at most `max_wait` in the
/// queue (p99 wait <= 200 ms: {200 * units::ms, 0.99}).
struct wait_slo {
  duration max_wait{};
  double percentile = 0.99;

  constexpr void validate() const {
    detail::check_input(max_wait.value >= 0.0 && is_finite(max_wait),
                        "wait_slo.max_wait must be finite and not negative");
    detail::check_input(percentile >= 0.0 && percentile < 1.0,
                        "wait_slo.percentile must be in [0, 1), e.g. 0.99");
  }
  [[nodiscard]] constexpr bool met_by(const queue_metrics& m) const {
    return m.stable && m.wait_percentile(percentile) <= max_wait;
  }
};

/// The smallest server count c (at least `q.servers`) whose queue meets the SLO, and its metrics.
/// The Erlang B recursion runs once, upward from c = 1, so the search is O(c). Servers are
/// capped at `max_servers`; past that it throws (the target is unreachable or the load absurd).
constexpr queue_metrics min_servers(queue_model q, const wait_slo& slo, int max_servers = 10000000) {
  q.validate();
  slo.validate();
  const double a = q.offered_load();
  double b = 1.0;  // Erlang B with k servers
  for (int k = 1; k <= max_servers; ++k) {
    b = a * b / (k + a * b);
    if (k < q.servers || !(a < k)) continue;
    queue_model at = q;
    at.servers = k;
    const queue_metrics m = detail::queue_metrics_from(at, b);
    if (slo.met_by(m)) return m;
  }
  detail::check_input(false, "min_servers: no server count up to max_servers meets the wait SLO",
                      max_servers);
  return {};
}

// ---- M/G/1: one server, any service-time distribution -------------------------------------------

namespace detail {

/// The wait of an M/G/1 queue: its mean (Pollaczek-Khinchine: lambda E[S^2] / (2 (1 - rho)),
/// rho = lambda E[S], arrivals at `lambda` per second, service times of mean s1 and mean square
/// s2 in seconds) and its load, held at most max_load (serving_assumptions::
/// prefill_queue_max_load): at load 1 there is no steady state.
struct queue_wait {
  duration mean{};
  double rho = 0.0;
  /// P(wait <= x): an arrival finds the server idle with probability 1 - rho; the wait of the
  /// others is taken as exponential with the mean above (the heavy-traffic form of the M/G/1
  /// wait, Kingman 1961: P(W > x) = rho exp(-rho x / E[W])).
  [[nodiscard]] constexpr double cdf(double x) const {
    if (x < 0.0) return 0.0;
    if (!(mean.value > 0.0) || !(rho > 0.0)) return 1.0;
    return 1.0 - rho * cexp(-rho * x / mean.value);
  }
};

/// The M/G/1 wait as the general queue computes it: one server, Poisson arrivals (c_a = 1) and
/// c_s^2 = E[S^2] / E[S]^2 - 1, where Allen-Cunneen is Pollaczek-Khinchine exactly (Erlang C of
/// one server is rho, so E[W_q] = rho E[S] / (1 - rho) (1 + c_s^2) / 2 = lambda E[S^2] /
/// (2 (1 - rho)) [Kingman; PK]). Past max_load the queue is the one at max_load, its wait
/// scaled back to the offered arrivals (lambda E[S^2] / (2 (1 - max_load))). The service CV is
/// not held to queue_model::max_cv: a request mix's prefill times may spread wider, and the
/// formula is exact at any CV.
constexpr queue_wait mg1_wait(double lambda, double s1, double s2, double max_load) {
  const double offered = lambda * s1;
  const double rho = offered > max_load ? max_load : offered;
  if (!(rho > 0.0)) return {0.0 * units::s, rho};  // no arrivals or no service: nobody waits
  queue_model q;
  q.arrival_rate = rho / s1 * units::request / units::s;
  q.mean_service = s1 * units::s;
  q.servers = 1;
  q.arrival_cv = 1.0;
  q.service_cv = csqrt(s2 / (s1 * s1) - 1.0);  // 0 for a single service time (csqrt of <= 0)
  const queue_metrics m = queue_metrics_from(q, erlang_b(q.offered_load(), 1));
  return {m.mean_wait * (offered / rho), rho};
}

}  // namespace detail

}  // namespace gpuplan
