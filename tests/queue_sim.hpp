// tests/queue_sim.hpp: a small discrete-event simulation of a first-come-first-served G/G/c queue,
// the independent check of gpuplan's queueing formulas and capacity plans.
//
// With FCFS and identical servers a request starts at max(its arrival, the earliest time a
// server frees up) (the Kiefer-Wolfowitz recursion), so the simulation keeps the servers' free
// times in a min-heap and needs no event list. Seeded (std::mt19937_64, whose output the standard
// fixes), with its own samplers rather than <random>'s distributions (whose algorithms differ
// between standard libraries), so every platform draws the same numbers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

namespace gpuplan_test {

/// A positive random variable with the given mean and coefficient of variation:
///   cv = 0   deterministic;
///   cv < 1   shifted exponential: mean (1 - cv) + exponential of mean cv (standard deviation cv);
///   cv = 1   exponential;
///   cv > 1   two-phase hyperexponential with balanced means (Whitt 1982), matching mean and cv.
class sampler {
 public:
  sampler(double mean, double cv) : mean_(mean), cv_(cv) {
    if (cv > 1.0) {
      const double c2 = cv * cv;
      p_ = 0.5 * (1.0 + std::sqrt((c2 - 1.0) / (c2 + 1.0)));
      m1_ = mean / (2.0 * p_);
      m2_ = mean / (2.0 * (1.0 - p_));
    }
  }
  double operator()(std::mt19937_64& rng) const {
    if (cv_ == 0.0) return mean_;
    if (cv_ < 1.0) return mean_ * (1.0 - cv_) + exponential(rng, mean_ * cv_);
    if (cv_ == 1.0) return exponential(rng, mean_);
    return uniform(rng) < p_ ? exponential(rng, m1_) : exponential(rng, m2_);
  }
  static double uniform(std::mt19937_64& rng) {  // (0, 1), 53 random bits
    return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
  }
  static double exponential(std::mt19937_64& rng, double mean) {
    return -mean * std::log(uniform(rng));
  }

 private:
  double mean_, cv_, p_ = 0, m1_ = 0, m2_ = 0;
};

struct sim_result {
  double p_wait = 0;       ///< share of requests that waited at all
  double mean_wait = 0;    ///< seconds
  double p95_wait = 0;     ///< seconds
  double p99_wait = 0;     ///< seconds
  double utilization = 0;  ///< busy server-time / (servers x simulated time)
  long long requests = 0;  ///< measured requests (after the warm-up)
};

/// Draws one service time (seconds).
using service_sampler = std::function<double(std::mt19937_64&)>;

/// Simulates `requests` arrivals (plus `warmup` discarded ones) at `rate` per second to `servers`
/// servers whose service times `service` draws.
inline sim_result simulate_queue(double rate, const service_sampler& service, int servers,
                                 double arrival_cv, long long requests, std::uint64_t seed,
                                 long long warmup = 20000) {
  std::mt19937_64 rng(seed);
  const sampler gap(1.0 / rate, arrival_cv);
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (int i = 0; i < servers; ++i) free_at.push(0.0);
  std::vector<double> waits;
  waits.reserve(static_cast<std::size_t>(requests));
  double now = 0, busy = 0, start_time = 0, waited = 0, sum = 0;
  for (long long n = 0; n < warmup + requests; ++n) {
    now += gap(rng);
    if (n == warmup) start_time = now;
    const double earliest = free_at.top();
    free_at.pop();
    const double start = std::max(now, earliest);
    const double s = service(rng);
    free_at.push(start + s);
    if (n >= warmup) {
      const double w = start - now;
      waits.push_back(w);
      sum += w;
      if (w > 0) waited += 1;
      busy += s;
    }
  }
  sim_result r;
  r.requests = requests;
  r.p_wait = waited / static_cast<double>(requests);
  r.mean_wait = sum / static_cast<double>(requests);
  r.utilization = busy / (servers * (now - start_time));
  auto quantile = [&](double p) {
    const auto k = static_cast<std::size_t>(p * static_cast<double>(waits.size() - 1));
    std::nth_element(waits.begin(), waits.begin() + static_cast<std::ptrdiff_t>(k), waits.end());
    return waits[k];
  };
  r.p95_wait = quantile(0.95);
  r.p99_wait = quantile(0.99);
  return r;
}

/// The same with service times of the given mean and variability (sampler above).
inline sim_result simulate_queue(double rate, double mean_service, int servers, double arrival_cv,
                                 double service_cv, long long requests, std::uint64_t seed,
                                 long long warmup = 20000) {
  const sampler service(mean_service, service_cv);
  return simulate_queue(
      rate, [&](std::mt19937_64& rng) { return service(rng); }, servers, arrival_cv, requests,
      seed, warmup);
}

/// The mean of `replicas` independent runs (seeds seed, seed + 1, ...) and the standard error of
/// each mean (the spread of the runs / sqrt(replicas)). Waits in one run are strongly correlated
/// near saturation, so independent replications, not the run's sample count, measure the
/// simulation's own uncertainty.
struct sim_estimate {
  sim_result mean;
  sim_result stderr_;
};

inline sim_estimate replicate_queue(double rate, const service_sampler& service, int servers,
                                    double arrival_cv, long long requests, std::uint64_t seed,
                                    int replicas) {
  std::vector<sim_result> runs;
  for (int i = 0; i < replicas; ++i)
    runs.push_back(simulate_queue(rate, service, servers, arrival_cv, requests,
                                  seed + static_cast<std::uint64_t>(i)));
  sim_estimate e;
  auto stat = [&](double sim_result::*field, double& mean, double& se) {
    double s = 0, s2 = 0;
    for (const sim_result& r : runs) s += r.*field;
    mean = s / replicas;
    for (const sim_result& r : runs) s2 += (r.*field - mean) * (r.*field - mean);
    se = std::sqrt(s2 / (replicas - 1) / replicas);
  };
  stat(&sim_result::p_wait, e.mean.p_wait, e.stderr_.p_wait);
  stat(&sim_result::mean_wait, e.mean.mean_wait, e.stderr_.mean_wait);
  stat(&sim_result::p95_wait, e.mean.p95_wait, e.stderr_.p95_wait);
  stat(&sim_result::p99_wait, e.mean.p99_wait, e.stderr_.p99_wait);
  stat(&sim_result::utilization, e.mean.utilization, e.stderr_.utilization);
  e.mean.requests = requests * replicas;
  return e;
}

inline sim_estimate replicate_queue(double rate, double mean_service, int servers,
                                    double arrival_cv, double service_cv, long long requests,
                                    std::uint64_t seed, int replicas) {
  const sampler service(mean_service, service_cv);
  return replicate_queue(
      rate, [&](std::mt19937_64& rng) { return service(rng); }, servers, arrival_cv, requests,
      seed, replicas);
}

}  // namespace gpuplan_test
