// gpuplan/io/capacity_json.hpp: a capacity plan and the capacity report (plan/capacity_report.hpp)
// as JSON (the CLI's `capacity --json`, schema in docs/json-schema.md). The Kubernetes manifest of
// a replica plan is io/kubernetes_yaml.hpp.
//
// An edge of the library (target gpuplan::json): never included by the umbrella header. Keys
// carry their unit (`_s`, `_req_per_s`); utilisation is a fraction (0.87 = 87%).
#pragma once

#include <gpuplan/io/json.hpp>
#include <gpuplan/io/serve_json.hpp>
#include <gpuplan/plan/capacity.hpp>
#include <gpuplan/plan/capacity_report.hpp>

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
  auto seconds = [](duration d) { return finite_or_null(d.in(units::s)); };
  j["mean_wait_s"] = seconds(m.mean_wait);
  j["wait_p95_s"] = seconds(m.wait_percentile(0.95));
  j["wait_p99_s"] = seconds(m.wait_percentile(0.99));
  j["wait_at_percentile_s"] = seconds(m.wait_percentile(percentile));
  return j;
}

}  // namespace detail

/// The plan: {"replicas", "gpus", "utilization" (mean), "peak_utilization", "p_wait" and
/// "wait_p99_s" (at the peak, where the SLO is judged; always the 99th percentile),
/// "wait_at_percentile_s" (the wait at the SLO's percentile, "slo.percentile"), "mean_band", "peak_band",
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
  j["wait_p99_s"] = p.at_peak.wait_percentile(0.99).in(units::s);  // always p99 (contract)
  // the percentile the SLO asked for (slo.percentile, a fraction: 0.95 = p95) and its wait
  j["wait_at_percentile_s"] = finite_or_null(p.at_peak.wait_percentile(q.slo.percentile).in(units::s));
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


/// One ranked alternative: {"name", "replicas", "gpus", "utilization" (mean),
/// "peak_utilization", "peak_band", "wait_at_percentile_s", "cost_per_hour_usd" (when priced)}.
inline nlohmann::json to_json(const option_result& r) {
  nlohmann::json o = {{"name", std::string(r.name.view())},
                      {"replicas", r.replicas},
                      {"gpus", r.gpus},
                      {"utilization", r.mean_utilization},
                      {"peak_utilization", r.peak_utilization},
                      {"peak_band", std::string(band_name(r.peak_band))},
                      {"wait_at_percentile_s", r.wait_at_percentile.in(units::s)}};
  if (r.priced) o["cost_per_hour_usd"] = r.cost.in(units::usd_per_h);
  return o;
}

/// The owned base + cloud burst: {"owned_gpus", "owned_replicas", "peak_cloud_replicas",
/// "burst_gpu_hours_per_day", "cloud_usd_per_gpu_hour", "daily_cost_usd",
/// "all_cloud_daily_cost_usd", "all_owned_daily_cost_usd", "all_owned_gpus"}.
inline nlohmann::json to_json(const hybrid_capacity& hybrid, money_rate cloud_per_gpu_hour) {
  const hybrid_plan& h = hybrid.cost;
  return {{"owned_gpus", h.base_gpus},
          {"owned_replicas", hybrid.base_replicas},
          {"peak_cloud_replicas", hybrid.peak_cloud_replicas},
          {"burst_gpu_hours_per_day", h.burst_gpu_time.in(units::h)},
          {"cloud_usd_per_gpu_hour", cloud_per_gpu_hour.in(units::usd_per_h)},
          {"daily_cost_usd", h.hybrid.in(units::usd)},
          {"all_cloud_daily_cost_usd", h.all_cloud.in(units::usd)},
          {"all_owned_daily_cost_usd", h.all_onprem.in(units::usd)},
          {"all_owned_gpus", h.peak_gpus}};
}

/// The serving plan behind the replica: its best point under the SLO (serve_json.hpp's
/// serving_point keys) with "gpu", "node", "layout", "engine" and "slo". The caller adds what the
/// plan does not hold: "model" (the name the user gave), "input_len" and "output_len".
inline nlohmann::json to_json(const capacity_serving& s) {
  nlohmann::json j = to_json(s.best.best);
  j["gpu"] = std::string(s.plan.node.gpu.name.view());
  j["node"] = std::string(s.plan.node.name.view());
  j["layout"] = to_json(s.plan.layout);
  j["engine"] = std::string(to_string(s.plan.config.engine));
  j["slo"] = to_json(s.slo);
  return j;
}

/// The capacity report: the plan's keys (to_json(plan, request)) with "gpus_per_replica",
/// "total_gpus"; with a serving plan "serving" (to_json(capacity_serving)) and, when the price
/// came from the book, "price_entry" ({"provider", "instance", "term", "usd_per_gpu_hour",
/// "usd_per_replica_hour"}, null when the book has none); with MIG replicas "mig_profile",
/// "replicas_per_gpu", "physical_gpus"; with alternatives "options" (ranked) and "option_notes";
/// with the hybrid "hybrid".
inline nlohmann::json to_json(const capacity_report& r) {
  const capacity_request& q = r.request;
  nlohmann::json j = to_json(r.plan, q);
  j["gpus_per_replica"] = q.replica.gpus;
  j["total_gpus"] = r.plan.gpus;
  if (r.serving) j["serving"] = to_json(*r.serving);
  if (r.serving && r.price_from_book) {
    if (const cloud_price* price = r.serving->price)
      j["price_entry"] = {{"provider", std::string(price->provider.view())},
                          {"instance", std::string(price->instance.view())},
                          {"term", "on_demand"},
                          {"usd_per_gpu_hour", price->on_demand.in(units::usd_per_h)},
                          {"usd_per_replica_hour", q.replica_price.in(units::usd_per_h)}};
    else
      j["price_entry"] = nullptr;
  }
  if (r.mig) {
    j["mig_profile"] = std::string(r.mig->name.view());
    j["replicas_per_gpu"] = r.mig->max_instances;
    j["physical_gpus"] = r.physical_gpus;
  }
  if (!r.options.empty()) {
    j["options"] = nlohmann::json::array();
    for (const option_result& o : r.options) j["options"].push_back(to_json(o));
  }
  if (r.hybrid) j["hybrid"] = to_json(*r.hybrid, r.cloud_per_gpu_hour);
  if (!r.option_notes.empty()) j["option_notes"] = r.option_notes;
  return j;
}

}  // namespace gpuplan::io
