// gpuplan/io/cost_json.hpp: the cost comparison (plan/cost_report.hpp) as JSON, the
// `gpuplan cost --json` contract (docs/json-schema.md). Keys may be added, never renamed: scripts
// read them. Money is in US dollars (`_usd`), energy in kWh, carbon in kg CO2e, power in kW or W
// as the key says; a figure that is not known (no price) is null.
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <gpuplan/io/fit_json.hpp>
#include <gpuplan/io/prices_json.hpp>
#include <gpuplan/io/reliability_json.hpp>
#include <gpuplan/plan/cost_report.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace gpuplan::io {

namespace detail {

/// A money figure, or null when the run has no price.
inline nlohmann::json priced_usd(bool priced, double usd) {
  return priced ? nlohmann::json(usd) : nlohmann::json(nullptr);
}

inline std::string date_text(calendar_date d) {
  const auto two = [](int v) { return (v < 10 ? "0" : "") + std::to_string(v); };
  std::string y = std::to_string(d.year);
  while (y.size() < 4) y.insert(0, "0");
  return y + "-" + two(d.month) + "-" + two(d.day);
}

/// "training": the modelled run (step-time and reliability models), or null.
inline nlohmann::json training_json(const cost_report& r) {
  if (!r.training) return nullptr;
  const modelled_training_run& m = *r.training;
  const training_config& c = r.inputs.training->plan.config;
  return {{"model", r.model_name()},
          {"node", std::string(r.inputs.pricing.node.name.view())},
          {"nodes", m.nodes},
          {"gpus", m.usage.gpus},
          {"tokens", m.tokens.in(units::token)},
          {"tokens_per_s", m.tokens_per_s.in(units::tokens_per_s)},
          {"step_time_s", m.step.in(units::s)},
          {"mfu", m.mfu},
          {"wall_time_s", m.wall.in(units::s)},
          {"wall_time_hours", m.wall.in(units::h)},
          {"gpu_hours", m.wall.in(units::h) * m.usage.gpus},
          {"expected_wall_time_s", m.reserved_wall.in(units::s)},
          {"expected_wall_time_hours", m.reserved_wall.in(units::h)},
          {"expected_gpu_hours", m.usage.gpu_time.in(units::h)},
          {"checkpoint_bytes", m.checkpoint.in(units::B)},
          {"rampup", c.rampup_start > 0 ? nlohmann::json{{"start", c.rampup_start},
                                                         {"increment", c.rampup_increment},
                                                         {"samples", c.rampup_samples}}
                                        : nlohmann::json(nullptr)},
          {"reliability", to_json(m.reliability, r.inputs.training->reliability)},
          {"source", "step-time model (docs/models/training-time.md)"}};
}

/// "facility": the nodes in racks, or {"error": why not}, or null (no GPU count).
inline nlohmann::json facility_json(const cost_report& r) {
  if (!r.racks) {
    if (r.racks_error.empty()) return nullptr;
    return {{"error", r.racks_error}};
  }
  const rack_plan& k = *r.racks;
  const site_spec& site = r.inputs.pricing.site;
  return {{"node", std::string(r.rack_node.name.view())},
          {"gpu", std::string(r.rack_node.gpu.name.view())},
          {"node_power_kw", k.node_power.in(units::kW)},
          {"node_power_basis",
           r.rack_node.max_power.value > 0 ? "published_maximum" : "modelled_maximum"},
          {"nodes", k.nodes},
          {"rack_budget_kw", site.rack_budget.in(units::kW)},
          {"site_cooling", to_string(site.cooling)},
          {"nodes_per_rack", k.nodes_per_rack},
          {"cooling_bound", k.cooling_bound},
          {"racks", k.racks},
          {"rack_power_kw", k.rack_power.in(units::kW)},
          {"rack_heat_btu_per_h", k.rack_heat_btu_per_h()},
          {"rack_cooling", to_string(k.rack_cooling)},
          {"it_power_kw", k.it_power.in(units::kW)},
          {"heat_btu_per_h", k.heat_btu_per_h()},
          {"facility_power_kw", k.facility_power.in(units::kW)}};
}

/// "serving": the deployment at its operating point, or null.
inline nlohmann::json serving_json(const cost_report& r) {
  if (!r.serving) return nullptr;
  const serving_cost_report& v = *r.serving;
  const serving_plan& p = *r.inputs.serving;
  return {{"model", r.model_name()},
          {"node", std::string(p.node.name.view())},
          {"replicas", v.replicas},
          {"tp", p.layout.tp},
          {"pp", p.layout.pp},
          {"gpus", v.gpus},
          {"input_len", std::lround(p.mix.mean_input())},
          {"output_len", std::lround(p.mix.mean_output())},
          {"dtype", std::string(to_string(p.compute_dtype))},
          {"concurrency", v.point.concurrency},
          {"rate", p.rate.value > 0 ? nlohmann::json(p.rate.in(units::requests_per_s)) : nullptr},
          {"output_tokens_per_s", v.point.output_tokens_per_s.in(units::tokens_per_s)},
          {"output_tokens_per_s_per_gpu",
           v.point.output_tokens_per_s_per_gpu.in(units::tokens_per_s)},
          {"requests_per_s", v.point.requests_per_s.in(units::requests_per_s)},
          {"ttft_s", v.point.ttft.in(units::s)},
          {"tpot_s", v.point.tpot.in(units::s)},
          {"period_hours", v.period.in(units::h)},
          {"output_tokens", v.output_tokens.in(units::token)},
          {"source", "serving model (docs/models/serving.md)"}};
}

/// A serving deployment's figures per month, per million output tokens and per request.
inline void add_serving_rates(nlohmann::json& j, const cost_report& r) {
  const serving_cost_report& v = *r.serving;
  const bool priced = r.run.priced;
  j["cost_usd_per_month"] = priced_usd(priced, r.run.cost.in(units::usd));
  j["cost_per_million_tokens_usd"] = priced_usd(priced, v.cost_per_token().in(units::usd_per_Mtoken));
  j["cost_per_request_usd"] =
      priced_usd(priced, v.cost_per_request().in(units::usd / units::request));
  j["energy_kwh_per_million_tokens"] = v.energy_per_token().in(units::kWh / units::Mtoken);
  j["carbon_kg_per_million_tokens"] = v.carbon_per_token().in(units::kgCO2e / units::Mtoken);
  j["tokens_per_joule"] = v.tokens_per_joule().in(units::token / units::J);
}

/// "price": the price per GPU-hour and where it came from (the book entry of `book`, or given).
inline nlohmann::json price_json(const cost_report& r, const price_book& book) {
  const run_cost_report& run = r.run;
  nlohmann::json price;
  price["usd_per_gpu_hour"] = priced_usd(run.priced, run.price.in(units::usd_per_h));
  price["term"] = to_string(r.inputs.pricing.term);
  if (run.price_entry != nullptr) {
    price["provider"] = std::string(run.price_entry->provider.view());
    price["instance"] = std::string(run.price_entry->instance.view());
    price["date"] = date_text(run.price_entry->date);
    price["source"] = std::string(run.price_entry->source.view());
    price["book"] = price_origin(book, *run.price_entry);
  } else if (run.priced) {
    price["source"] = r.inputs.sources.price;
  } else {
    price["source"] = nullptr;
  }
  return price;
}

/// The run's cost, power, energy lines and carbon.
inline void add_energy_and_carbon(nlohmann::json& j, const cost_report& r) {
  const run_cost_report& run = r.run;
  const site_spec& site = r.inputs.pricing.site;
  j["cost_usd"] = priced_usd(run.priced, run.cost.in(units::usd));
  j["power_per_gpu_watts"] = run.power_per_gpu.in(units::W);
  j["power_source"] = run.power_given ? "given" : "model";
  j["pue"] = site.pue;
  j["energy_kwh"] = run.facility_energy().in(units::kWh);
  j["energy_lines_kwh"] = {
      {"gpus", run.energy_lines.gpus.in(units::kWh)},
      {"host", run.energy_lines.host.in(units::kWh)},
      {"network", run.energy_lines.network.in(units::kWh)},
      {"storage", run.energy_lines.storage.in(units::kWh)},
      {"facility_overhead", run.energy_lines.facility_overhead.in(units::kWh)}};
  j["carbon_intensity_kg_per_kwh"] = site.grid.in(units::kgCO2e_per_kWh);
  j["carbon_intensity_source"] = r.inputs.sources.grid;
  j["carbon_kg"] = run.carbon.operational.in(units::kgCO2e);
  j["embodied_carbon_kg"] =
      r.inputs.pricing.embodied ? nlohmann::json(run.carbon.embodied.in(units::kgCO2e)) : nullptr;
}

/// "comparison": cloud against owning, with the cumulative costs month by month.
inline nlohmann::json comparison_json(const cost_report& r) {
  const cloud_onprem_comparison& k = *r.comparison;
  nlohmann::json cmp;
  cmp["gpus"] = k.gpus;
  cmp["owned_gpus"] = k.owned_gpus;
  cmp["utilization"] = k.utilization;
  cmp["horizon_months"] = k.horizon_months;
  cmp["cloud"] = {{"usd_per_gpu_hour", k.cloud_price.in(units::usd_per_h)},
                  {"term", to_string(k.term)},
                  {"usd_per_month", k.cloud_month.in(units::usd)},
                  {"total_usd", k.cloud_total().in(units::usd)}};
  cmp["onprem"] = {
      {"capex_usd", k.onprem_capex.in(units::usd)},
      {"amortisation_usd_per_month", k.onprem.amortisation.in(units::usd)},
      {"maintenance_usd_per_month", k.onprem.maintenance.in(units::usd)},
      {"colocation_usd_per_month", k.onprem.colocation.in(units::usd)},
      {"staff_usd_per_month", k.onprem.staff.in(units::usd)},
      {"electricity_usd_per_month", k.onprem.electricity(k.utilization).in(units::usd)},
      {"running_usd_per_month", k.onprem.running(k.utilization).in(units::usd)},
      {"total_usd", k.onprem_total().in(units::usd)}};
  if (r.onprem_run_cost) {
    cmp["onprem"]["run_cost_usd"] = r.onprem_run_cost->in(units::usd);
    cmp["onprem"]["usd_per_gpu_hour_used"] = r.onprem_gpu_hour.in(units::usd_per_h);
  }
  nlohmann::json months = nlohmann::json::array();
  for (const cumulative_point& p : cumulative_costs(k))
    months.push_back({{"month", p.month},
                      {"cloud_usd", p.cloud.in(units::usd)},
                      {"onprem_usd", p.onprem.in(units::usd)}});
  cmp["cumulative"] = months;
  return cmp;
}

/// "horizon": cloud, owned and hybrid over the same months at the same occupancy, with the
/// monthly lines ("monthly") each total is the sum of.
inline nlohmann::json horizon_json(const horizon_costs& h) {
  const auto usd = [](money m) { return m.in(units::usd); };
  nlohmann::json monthly = nlohmann::json::array();
  for (const horizon_month& m : h.monthly)
    monthly.push_back({{"month", m.month},
                       {"cloud_usd", usd(m.cloud)},
                       {"owned_usd", usd(m.owned)},
                       {"hybrid_usd", usd(m.hybrid)},
                       {"cloud_cumulative_usd", usd(m.cloud_cumulative)},
                       {"owned_cumulative_usd", usd(m.owned_cumulative)},
                       {"hybrid_cumulative_usd", usd(m.hybrid_cumulative)}});
  const owned_finance& f = h.finance;
  return {{"months", h.months},
          {"occupancy", h.occupancy},
          {"gpus", h.gpus},
          {"owned_gpus", h.owned_gpus},
          {"cloud_total_usd", usd(h.cloud_total)},
          {"owned_total_usd", usd(h.owned_total)},
          {"hybrid_total_usd", usd(h.hybrid_total)},
          {"break_even_occupancy", finite_or_null(h.break_even_occupancy)},
          {"cloud_usd_per_month", usd(h.cloud_month)},
          {"owned",
           {{"capex_usd", usd(h.capex)},
            {"running_usd_per_month", usd(h.owned_running)},
            {"payment_usd_per_month", usd(h.payment)},
            {"payoff_usd", usd(h.payoff)},
            {"residual_usd", usd(h.residual)}}},
          {"hybrid",
           {{"owned_fraction", h.hybrid_owned_fraction},
            {"owned_gpus", h.hybrid_owned_gpus},
            {"burst_gpus", h.hybrid_burst_gpus},
            {"capex_usd", usd(h.hybrid_capex)},
            {"running_usd_per_month", usd(h.hybrid_running)},
            {"payment_usd_per_month", usd(h.hybrid_payment)},
            {"payoff_usd", usd(h.hybrid_payoff)},
            {"residual_usd", usd(h.hybrid_residual)},
            {"burst_usd_per_month", usd(h.burst_month)}}},
          {"finance",
           {{"financed", f.financed},
            {"annual_rate", f.financed ? nlohmann::json(f.annual_rate) : nullptr},
            {"term_months", f.financed ? nlohmann::json(f.term_months) : nullptr},
            {"residual_fraction", h.residual_share},
            {"residual_basis", f.residual_fraction ? "given" : "straight_line"},
            {"useful_life_years", f.useful_life_years}}},
          {"owned_energy_kwh", h.owned_energy.in(units::kWh)},
          {"busy_energy_kwh", h.busy_energy.in(units::kWh)},
          {"monthly", monthly}};
}

inline nlohmann::json hybrid_json(const hybrid_plan& h) {
  return {{"hours", h.hours},
          {"peak_gpus", h.peak_gpus},
          {"base_gpus", h.base_gpus},
          {"burst_gpu_hours", h.burst_gpu_time.in(units::h)},
          {"hybrid_usd", h.hybrid.in(units::usd)},
          {"all_cloud_usd", h.all_cloud.in(units::usd)},
          {"all_onprem_usd", h.all_onprem.in(units::usd)}};
}

}  // namespace detail

/// The report as `gpuplan cost --json` prints it (docs/json-schema.md), less the command's own
/// "warnings" and "chart". `book` names the book a price entry came from (price_origin).
inline nlohmann::json to_json(const cost_report& r, const price_book& book = default_price_book()) {
  const run_usage& u = r.run.usage;
  nlohmann::json j;
  j["gpu"] = std::string(u.gpu.name.view());
  j["gpu_source"] = r.inputs.sources.gpu;
  j["gpu_hours"] = u.gpu_time.in(units::h);
  j["gpus"] = u.gpus > 0 ? nlohmann::json(u.gpus) : nlohmann::json(nullptr);
  j["workload"] = std::string(to_string(r.workload));
  j["training"] = detail::training_json(r);
  j["facility"] = detail::facility_json(r);
  j["serving"] = detail::serving_json(r);
  if (r.serving) detail::add_serving_rates(j, r);
  j["price"] = detail::price_json(r, book);
  detail::add_energy_and_carbon(j, r);
  if (r.comparison) {
    j["break_even_utilization"] = finite_or_null(r.comparison->break_even_utilization);
    j["break_even_months"] = finite_or_null(r.comparison->break_even_months);
    j["comparison"] = detail::comparison_json(r);
  }
  if (r.horizon) j["horizon"] = detail::horizon_json(*r.horizon);
  if (r.hybrid) j["hybrid"] = detail::hybrid_json(*r.hybrid);
  if (r.training_memory) add_memory_verdict(j, *r.training_memory);
  if (r.serving_memory) add_memory_verdict(j, *r.serving_memory);
  return j;
}

}  // namespace gpuplan::io
