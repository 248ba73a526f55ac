// gpuplan/io/capacity_json.hpp: a capacity plan as JSON (the CLI's `capacity --json`). The
// Kubernetes manifest of a replica plan is io/kubernetes_yaml.hpp.
//
// An edge of the library (target gpuplan::json): never included by the umbrella header. Keys
// carry their unit (`_s`, `_req_per_s`); utilisation is a fraction (0.87 = 87%).
#pragma once

#include <gpuplan/io/json.hpp>
#include <gpuplan/plan/capacity.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace gpuplan::io {

namespace detail {

inline nlohmann::json queue_json(const queue_metrics& m, double percentile) {
  nlohmann::json j;
  j["servers"] = m.servers;
  j["utilization"] = m.utilization;
  j["stable"] = m.stable;
  j["exact"] = m.exact;
  j["p_wait"] = m.p_wait;
  // Infinite waits (an unstable queue) are written as null: JSON has no infinity.
  auto seconds = [](duration d) -> nlohmann::json {
    return std::isfinite(d.value) ? nlohmann::json(d.in(units::s)) : nlohmann::json(nullptr);
  };
  j["mean_wait_s"] = seconds(m.mean_wait);
  j["wait_p95_s"] = seconds(m.wait_percentile(0.95));
  j["wait_p99_s"] = seconds(m.wait_percentile(0.99));
  j["wait_at_percentile_s"] = seconds(m.wait_percentile(percentile));
  return j;
}

}  // namespace detail

/// The plan: {"replicas", "gpus", "utilization" (mean), "peak_utilization", "p_wait" and
/// "wait_p99_s" (at the peak, where the SLO is judged), "mean_band", "peak_band",
/// "replicas_in_band", "replicas_at_mean", "slots_per_replica", "at_peak" / "at_mean" (queue
/// figures), "growth" (one row per month), "fleet_runs_out_month", "fleet_leaves_band_month"
/// (null when not within the horizon), "hours" (with a 24-hour profile), "cost_per_hour_usd"
/// (with a price)}.
inline nlohmann::json to_json(const capacity_plan& p, const capacity_request& q) {
  nlohmann::json j;
  j["replicas"] = p.replicas;
  j["gpus"] = p.gpus;
  j["utilization"] = p.mean_utilization;
  j["peak_utilization"] = p.peak_utilization;
  j["p_wait"] = p.at_peak.p_wait;
  j["wait_p99_s"] = p.at_peak.wait_percentile(0.99).in(units::s);
  j["mean_band"] = std::string(band_name(p.mean_band));
  j["peak_band"] = std::string(band_name(p.peak_band));
  j["replicas_in_band"] = p.replicas_in_band;
  j["replicas_at_mean"] = p.replicas_at_mean;
  j["slots_per_replica"] = p.slots_per_replica;
  j["demand"] = {{"mean_req_per_s", q.demand.mean.in(units::requests_per_s)},
                 {"peak_req_per_s", q.demand.peak().in(units::requests_per_s)},
                 {"peak_factor", q.demand.peak_factor},
                 {"arrival_cv", q.demand.arrival_cv},
                 {"monthly_growth", q.monthly_growth}};
  j["replica"] = {{"rate_req_per_s", q.replica.rate.in(units::requests_per_s)},
                  {"mean_service_s", q.replica.mean_service.in(units::s)},
                  {"service_cv", q.replica.service_cv},
                  {"gpus", q.replica.gpus}};
  j["slo"] = {{"max_wait_s", q.slo.max_wait.in(units::s)}, {"percentile", q.slo.percentile}};
  j["at_peak"] = detail::queue_json(p.at_peak, q.slo.percentile);
  j["at_mean"] = detail::queue_json(p.at_mean, q.slo.percentile);
  j["growth"] = nlohmann::json::array();
  for (int m = 0; m < p.growth_rows; ++m) {
    const growth_row& g = p.growth[m];
    j["growth"].push_back({{"month", g.month},
                           {"mean_req_per_s", g.mean.in(units::requests_per_s)},
                           {"peak_req_per_s", g.peak.in(units::requests_per_s)},
                           {"replicas", g.replicas},
                           {"utilization", g.mean_utilization},
                           {"peak_utilization", g.peak_utilization},
                           {"fleet_peak_utilization", g.fleet_peak_utilization},
                           {"fleet_meets_slo", g.fleet_meets_slo}});
  }
  j["current_replicas"] = q.current_replicas > 0 ? q.current_replicas : p.replicas;
  j["fleet_runs_out_month"] =
      p.fleet_runs_out_month >= 0 ? nlohmann::json(p.fleet_runs_out_month) : nlohmann::json(nullptr);
  j["fleet_leaves_band_month"] = p.fleet_leaves_band_month >= 0
                                     ? nlohmann::json(p.fleet_leaves_band_month)
                                     : nlohmann::json(nullptr);
  if (p.has_hours) {
    j["hours"] = nlohmann::json::array();
    for (int h = 0; h < 24; ++h)
      j["hours"].push_back({{"hour", h},
                            {"rate_req_per_s", p.hours[h].rate.in(units::requests_per_s)},
                            {"replicas", p.hours[h].replicas},
                            {"fleet_utilization", p.hours[h].fleet_utilization}});
  }
  if (q.replica_price.value > 0)
    j["cost_per_hour_usd"] = p.cost_at_peak.in(units::usd_per_h);
  return j;
}

}  // namespace gpuplan::io
