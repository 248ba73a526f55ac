// tools/gpuplan/cost_output.cpp: `gpuplan cost`'s computation and report.
#include "cost_output.hpp"

#include "cli.hpp"
#include "train_run.hpp"

#include <gpuplan/catalog/prices.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace gpuplan::cli {

namespace {

/// The compared fleet when the run's GPU count is unknown (--gpu-hours alone): one 8-GPU server,
/// the DGX/HGX H100 whose price is onprem_costs' default (specs/pricing.hpp).
constexpr int unknown_fleet_gpus = 8;

std::string energy_text(energy e) {
  const double kwh = e.in(units::kWh);
  if (kwh >= 1e6) return fmt::format("{:.2f} GWh", kwh / 1e6);
  if (kwh >= 1e3) return fmt::format("{:.1f} MWh", kwh / 1e3);
  return fmt::format("{:.1f} kWh", kwh);
}
std::string carbon_text(carbon_mass m) {
  const double kg = m.in(units::kgCO2e);
  if (kg >= 1e3) return fmt::format("{:.2f} t CO2e", kg / 1e3);
  return fmt::format("{:.1f} kg CO2e", kg);
}
std::string date_text(calendar_date d) {
  return fmt::format("{:04}-{:02}-{:02}", d.year, d.month, d.day);
}
/// A JSON number, or null for NaN and infinity (JSON has neither).
nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

onprem_fleet fleet_of(const cost_request& r, int gpus) {
  return owned_fleet(r.inputs.node, r.usage.gpu, gpus, r.book, r.inputs.site,
                     r.inputs.power_model);
}

}  // namespace

std::string money_text(money m) {
  const double v = m.in(units::usd);
  if (std::abs(v) >= 1e6) return fmt::format("${:.2f}M", v / 1e6);
  if (std::abs(v) >= 1e4) return fmt::format("${:.0f}", v);
  return fmt::format("${:.2f}", v);
}

onprem_fleet owned_fleet(const node_spec& node, const gpu_spec& gpu, int gpus,
                         const io::price_book& book, const site_spec& site,
                         const node_power_assumptions& power_model) {
  onprem_fleet f;
  f.node = node;
  // The book's owning costs when a --prices file set them; otherwise the defaults with the
  // server's own catalog price (DGX H100, DGX A100) when the GPU is the server's.
  const bool own_gpu = f.node.gpu.name == gpu.name;
  f.costs = book.onprem_from_file ? book.onprem
            : own_gpu             ? catalog::onprem_costs_for(f.node)
                                  : onprem_costs{};
  if (!own_gpu) {
    // The owned server is the node around the GPU; its published maximum was for another.
    f.node.gpu = gpu;
    f.node.max_power = {};
  }
  f.gpus = gpus;
  f.site = site;
  f.power_model = power_model;
  return f;
}

cost_result evaluate(cost_request& r) {
  r.inputs.book = r.book.cloud;
  // Energy and carbon need no price: without one, the cost is reported unknown, unless a
  // comparison needs it.
  r.inputs.require_price = r.compare.any();
  cost_result c;
  if (r.serving) {
    c.serving = price_serving(*r.serving, r.inputs);
    r.usage = c.serving->month.usage;
    c.run = c.serving->month;
  } else {
    c.run = price_run(r.usage, r.inputs);
  }
  if (r.compare.onprem || r.compare.cloud || r.compare.hybrid) {
    const int gpus = r.usage.gpus > 0 ? r.usage.gpus : unknown_fleet_gpus;
    const onprem_fleet f = fleet_of(r, gpus);
    if (r.compare.onprem || r.compare.cloud) {
      c.comparison = compare_cloud_onprem(f, c.run.price, r.inputs.term, r.utilization);
      if (r.utilization > 0) {
        c.onprem_gpu_hour = onprem_cost_per_gpu_hour(f, r.utilization);
        c.onprem_run_cost = run_cost(r.usage, c.onprem_gpu_hour);
      }
    }
    if (r.compare.hybrid) c.hybrid = plan_hybrid(r.demand, f, c.run.price);
  }
  if (r.usage.gpus > 0) {
    // Racks, heat and facility power of the run's nodes: each node at its published maximum
    // (DGX H100 10.2 kW) when the GPU is the node's own, else the node model's maximum.
    // The node the power model used, its GPU the run's (a published maximum then no longer
    // applies: the node model's maximum does)
    c.rack_node = r.inputs.node;
    if (!(c.rack_node.gpu.name == r.usage.gpu.name)) {
      c.rack_node.gpu = r.usage.gpu;
      c.rack_node.max_power = {};
      c.rack_gpu_swapped = true;
    }
    const int per_node = c.rack_node.gpus > 0 ? c.rack_node.gpus : 1;
    // a modelled run's own node count (--nodes may spread it wider than its GPUs need)
    const int nodes =
        r.training ? r.training->nodes : (r.usage.gpus + per_node - 1) / per_node;
    const power_assumptions pa{.basis = node_power_basis::published_maximum,
                               .node = r.inputs.power_model};
    const site_spec& site = r.inputs.site;
    const power one = planned_node_power(c.rack_node, pa);
    const power cooling_cap = site.limits.limit(site.cooling);
    // A node that fits no rack is said on the racks line; the rest of the report stands.
    if (one > site.rack_budget)
      c.racks_error = fmt::format("one {} draws {:.1f} kW, more than the {:.1f} kW rack budget "
                                  "(--rack-budget-kw)",
                                  c.rack_node.name.view(), one.in(units::kW),
                                  site.rack_budget.in(units::kW));
    else if (one > cooling_cap)
      c.racks_error = fmt::format("one {} draws {:.1f} kW, more than {} cooling takes from a rack "
                                  "({:.0f} kW; --cooling)",
                                  c.rack_node.name.view(), one.in(units::kW),
                                  to_string(site.cooling), cooling_cap.in(units::kW));
    else
      c.racks = plan_racks(c.rack_node, nodes, site, pa);
  }
  return c;
}

std::vector<cumulative_point> cumulative_costs(const cloud_onprem_comparison& c) {
  std::vector<cumulative_point> pts;
  const int months = static_cast<int>(std::ceil(c.horizon_months));
  for (int m = 0; m <= months; ++m)
    pts.push_back(
        {1.0 * m, c.cloud_cumulative(m).in(units::usd), c.onprem_cumulative(m).in(units::usd)});
  return pts;
}

chart::chart_spec cumulative_chart(const cloud_onprem_comparison& c) {
  chart::chart_spec spec;
  spec.title = fmt::format("Cumulative cost, {} GPUs in use {:.0f}% of the time", c.gpus,
                           100 * c.utilization);
  spec.x_label = "months";
  spec.y_label = "cumulative cost ($M)";
  chart::series cloud{fmt::format("cloud, {} at ${:.4g}/GPU-h", to_string(c.term),
                                  c.cloud_price.in(units::usd_per_h)),
                      {},
                      chart::style::lines};
  chart::series owned{"owned (capital up front, then running costs)", {}, chart::style::lines};
  for (const cumulative_point& p : cumulative_costs(c)) {
    cloud.points.emplace_back(p.month, p.cloud_usd / 1e6);
    owned.points.emplace_back(p.month, p.onprem_usd / 1e6);
  }
  spec.data = {cloud, owned};
  spec.y_min = 0.0;
  return spec;
}

/// The racked node for people: its name, and the GPU when the node's own is another
/// ("DGX-H100 chassis with L4-24GB").
static std::string rack_node_text(const cost_result& c) {
  if (!c.rack_gpu_swapped) return std::string(c.rack_node.name.view());
  return fmt::format("{} chassis with {}", c.rack_node.name.view(), c.rack_node.gpu.name.view());
}

std::string cost_text(const cost_request& r, const cost_result& c) {
  const run_cost_report& run = c.run;
  std::string out =
      fmt::format("{:.0f} GPU-hours on {}", r.usage.gpu_time.in(units::h), r.usage.gpu.name.view());
  if (r.usage.gpus > 0)
    out +=
        fmt::format(" ({} GPUs for {:.1f} days)", r.usage.gpus, r.usage.wall_time().in(units::d));
  out += "\n";
  if (r.training) {
    const modelled_training_run& m = *r.training;
    out += fmt::format(
        "  run     {} on {} x {}, {} tokens at {} tokens/s (MFU {:.1f}%): {:.1f} h wall "
        "(step-time model)\n",
        r.training_model, m.nodes, r.inputs.node.name.view(), show_count(m.tokens.in(units::token)),
        show_count(m.tokens_per_s.in(units::tokens_per_s)), 100 * m.mfu, m.wall.in(units::h));
    const reliability_estimate& e = m.reliability;
    if (!e.enabled) {
      out += "  failures not counted (--no-failures): the steady-state time is priced\n";
    } else {
      out += fmt::format("  reserve {:.1f} h wall, ETTR {:.3f} ({:.1f} h lost to {} expected "
                         "failures, {:.1f} h to checkpoints)\n",
                         m.reserved_wall.in(units::h), e.ettr, e.lost_to_failures.in(units::h),
                         interruptions_text(e.interruptions),
                         e.lost_to_checkpoints.in(units::h));
      if (std::isfinite(e.checkpoint_interval.value))
        out += fmt::format(
            "          MTTF {}, restart {:.0f} min, checkpoint {} every {}{} (reliability model)\n",
            std::isfinite(e.mttf.value) ? secs(e.mttf) : std::string("infinite (no failures)"),
            e.restart.in(units::minute), secs(e.checkpoint_write), secs(e.checkpoint_interval),
            r.training_reliability.checkpoint_interval.value > 0 ? "" : " (Young/Daly)");
      else
        out += "          no failures (--failures-per-node-day 0): no checkpoints needed "
               "(reliability model)\n";
    }
  }
  if (c.serving) {
    const serving_cost_report& v = *c.serving;
    const serving_plan& p = *r.serving;
    out += fmt::format(
        "  serve   {} on {} replica(s) of tp {} pp {}, {} prompt + {} output tokens, {}: {} output "
        "tokens/s ({} per GPU), TTFT {:.1f} ms, TPOT {:.1f} ms (serving model), held every hour "
        "of a month\n",
        r.serving_model, v.replicas, p.layout.tp, p.layout.pp, r.serving_lengths.first,
        r.serving_lengths.second,
        p.rate.value > 0 ? fmt::format("{:g} requests/s", p.rate.in(units::requests_per_s))
                         : fmt::format("concurrency {:g}", v.point.concurrency),
        show_count(v.point.output_tokens_per_s.in(units::tokens_per_s)),
        show_count(v.point.output_tokens_per_s_per_gpu.in(units::tokens_per_s)),
        v.point.ttft.in(units::ms), v.point.tpot.in(units::ms));
  }
  if (run.price_entry != nullptr) {
    const cloud_price& p = *run.price_entry;
    out += fmt::format("  price   ${:.4g} per GPU-hour, {} {} {} ({}, {}; {})\n",
                       run.price.in(units::usd_per_h), p.provider.view(), p.instance.view(),
                       to_string(r.inputs.term), io::price_origin(r.book, p), date_text(p.date),
                       p.source.view());
  } else if (run.priced) {
    out += fmt::format("  price   ${:.4g} per GPU-hour (--price-per-gpu-hour)\n",
                       run.price.in(units::usd_per_h));
  }
  if (run.priced)
    out += fmt::format("  cost    {}{}\n", money_text(run.cost), c.serving ? " a month" : "");
  else
    out += fmt::format(
        "  cost    unknown: {} {} price for {} (give --price-per-gpu-hour or --prices)\n",
        // a file read over the default book: neither has one ("an on_demand", "a spot")
        r.book.origin == r.book.base_origin
            ? r.book.origin + " has no"
            : fmt::format("neither {} nor the {} has {}", r.book.origin, r.book.base_origin,
                          std::string_view("aeiou").find(to_string(r.inputs.term)[0]) !=
                                  std::string_view::npos
                              ? "an"
                              : "a"),
        to_string(r.inputs.term), r.usage.gpu.name.view());
  out += fmt::format(
      "  power   {:.0f} W per GPU all-in ({}), PUE {:.3g}\n", run.power_per_gpu.in(units::W),
      run.power_given ? "--power-per-gpu"
                      : fmt::format("GPU at {:.0f}% kernel duty + {} host share",
                                    100 * r.inputs.utilization, r.inputs.node.name.view()),
      r.inputs.site.pue);
  out += fmt::format("  energy  {} at the facility", energy_text(run.facility_energy()));
  if (!run.power_given)
    out += fmt::format(" (GPUs {}, host {}, overhead {})", energy_text(run.energy_lines.gpus),
                       energy_text(run.energy_lines.host),
                       energy_text(run.energy_lines.facility_overhead));
  out += "\n";
  out += fmt::format("  carbon  {} operational at {:.0f} g CO2e/kWh ({})\n",
                     carbon_text(run.carbon.operational), r.inputs.site.grid.in(units::gCO2e_per_kWh),
                     r.intensity_source);
  if (r.inputs.embodied)
    out += fmt::format("          {} embodied (amortised manufacturing, reported apart)\n",
                       carbon_text(run.carbon.embodied));
  if (c.racks) {
    const rack_plan& k = *c.racks;
    const double btu = k.heat_btu_per_h();
    out += fmt::format(
        "  racks   {} x {} at {:.1f} kW each ({}): {} per rack ({:.0f} kW budget{}), {} rack(s), a "
        "full one {:.1f} kW and {} cooled\n",
        k.nodes, rack_node_text(c), k.node_power.in(units::kW),
        c.rack_node.max_power.value > 0 ? "published maximum" : "modelled maximum",
        k.nodes_per_rack, r.inputs.site.rack_budget.in(units::kW),
        k.cooling_bound ? fmt::format(", held lower by {} cooling", to_string(r.inputs.site.cooling))
                        : std::string(),
        k.racks, k.rack_power.in(units::kW),
        k.rack_cooling == cooling_kind::air ? "air"
        : k.rack_cooling == cooling_kind::air_containment
            ? "air with containment"
            : "liquid");
    out += fmt::format(
        "  heat    {:.1f} kW of IT load ({} BTU/h; air stops at {:.0f} kW a rack, {:.0f} kW with "
        "containment); {:.1f} kW at the facility (PUE {:.3g})\n",
        k.it_power.in(units::kW), show_count(btu), r.inputs.site.limits.air.in(units::kW),
        r.inputs.site.limits.air_containment.in(units::kW), k.facility_power.in(units::kW),
        r.inputs.site.pue);
  } else if (!c.racks_error.empty()) {
    out += fmt::format("  racks   not placed: {}\n", c.racks_error);
  }
  if (c.serving) {
    const serving_cost_report& v = *c.serving;
    out += fmt::format("  per million output tokens: {}{:.3g} kWh, {:.3g} kg CO2e; {:.3g} tokens "
                       "per joule{}\n",
                       run.priced ? fmt::format("${:.3g}, ", v.cost_per_token().in(units::usd_per_Mtoken))
                                  : std::string(),
                       v.energy_per_token().in(units::kWh / units::Mtoken),
                       v.carbon_per_token().in(units::kgCO2e / units::Mtoken),
                       v.tokens_per_joule().in(units::token / units::J),
                       run.priced ? fmt::format("; ${:.3g} per request",
                                                v.cost_per_request().in(units::usd / units::request))
                                  : std::string());
  }
  if (c.comparison) {
    const cloud_onprem_comparison& k = *c.comparison;
    out += fmt::format(
        "\ncloud against owning: {} GPUs ({} owned in whole servers of {}), in use {:.0f}% of "
        "the time, over {:.0f} months\n",
        k.gpus, k.owned_gpus, r.inputs.node.gpus, 100 * k.utilization, k.horizon_months);
    out += fmt::format("  cloud   {} a month at ${:.4g} per GPU-hour ({})\n",
                       money_text(k.cloud_month), k.cloud_price.in(units::usd_per_h),
                       to_string(k.term));
    out += fmt::format(
        "  owned   {} up front, then {} a month (maintenance {}, colocation {}, staff {}, "
        "electricity {})\n",
        money_text(k.onprem_capex), money_text(k.onprem.running(k.utilization)),
        money_text(k.onprem.maintenance), money_text(k.onprem.colocation),
        money_text(k.onprem.staff),
        money_text(k.onprem.energy_idle + k.utilization * k.onprem.energy_full_use));
    if (c.onprem_run_cost)
      out += fmt::format("  this run on owned GPUs: {} (${:.4g} per GPU-hour used)\n",
                         money_text(*c.onprem_run_cost), c.onprem_gpu_hour.in(units::usd_per_h));
    if (std::isnan(k.break_even_utilization))
      out += "  a commitment bills every hour: no break-even utilization\n";
    else if (std::isinf(k.break_even_utilization))
      out += fmt::format("  owning is never cheaper within {:.0f} months, even at 100% use\n",
                         k.horizon_months);
    else
      out +=
          fmt::format("  above {:.0f}% average utilization, owning is cheaper over {:.0f} months\n",
                      100 * k.break_even_utilization, k.horizon_months);
    if (std::isinf(k.break_even_months))
      out += fmt::format("  at {:.0f}% use, owning never pays back\n", 100 * k.utilization);
    else
      out += fmt::format("  at {:.0f}% use, owning is cheaper after {:.0f} months{}\n",
                         100 * k.utilization, std::ceil(k.break_even_months),
                         k.break_even_months > k.horizon_months ? " (past the horizon)" : "");
    out += "\n" + chart::render_text(cumulative_chart(k));
  }
  if (c.hybrid) {
    const hybrid_plan& h = *c.hybrid;
    out += fmt::format("\nhybrid over a {}-hour demand profile (peak {} GPUs):\n", h.hours,
                       h.peak_gpus);
    out += fmt::format("  all cloud      {}\n", money_text(h.all_cloud));
    out += fmt::format("  all owned      {} ({} GPUs)\n", money_text(h.all_onprem), h.peak_gpus);
    out += fmt::format("  owned base {} GPUs + cloud burst ({:.0f} GPU-hours): {}\n", h.base_gpus,
                       h.burst_gpu_time.in(units::h), money_text(h.hybrid));
  }
  return out;
}

nlohmann::json cost_json(const cost_request& r, const cost_result& c) {
  const run_cost_report& run = c.run;
  nlohmann::json j;
  j["gpu"] = std::string(r.usage.gpu.name.view());
  j["gpu_source"] = r.gpu_source;
  j["gpu_hours"] = r.usage.gpu_time.in(units::h);
  j["gpus"] = r.usage.gpus > 0 ? nlohmann::json(r.usage.gpus) : nlohmann::json(nullptr);
  if (r.training) {
    const modelled_training_run& m = *r.training;
    j["training"] = {{"model", r.training_model},
                     {"node", std::string(r.inputs.node.name.view())},
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
                     {"rampup", r.rampup_start > 0
                                    ? nlohmann::json{{"start", r.rampup_start},
                                                     {"increment", r.rampup_increment},
                                                     {"samples", r.rampup_samples}}
                                    : nlohmann::json(nullptr)},
                     {"reliability", reliability_json(m.reliability, r.training_reliability)},
                     {"source", "step-time model (docs/models/training-time.md)"}};
  } else {
    j["training"] = nullptr;
  }
  j["workload"] = r.training ? "train" : (c.serving ? "serve" : "usage");
  if (c.racks) {
    const rack_plan& k = *c.racks;
    j["facility"] = {{"node", std::string(c.rack_node.name.view())},
                     {"gpu", std::string(c.rack_node.gpu.name.view())},
                     {"node_power_kw", k.node_power.in(units::kW)},
                     {"node_power_basis", c.rack_node.max_power.value > 0 ? "published_maximum"
                                                                          : "modelled_maximum"},
                     {"nodes", k.nodes},
                     {"rack_budget_kw", r.inputs.site.rack_budget.in(units::kW)},
                     {"site_cooling", to_string(r.inputs.site.cooling)},
                     {"nodes_per_rack", k.nodes_per_rack},
                     {"cooling_bound", k.cooling_bound},
                     {"racks", k.racks},
                     {"rack_power_kw", k.rack_power.in(units::kW)},
                     {"rack_heat_btu_per_h", k.rack_heat_btu_per_h()},
                     {"rack_cooling", to_string(k.rack_cooling)},
                     {"it_power_kw", k.it_power.in(units::kW)},
                     {"heat_btu_per_h", k.heat_btu_per_h()},
                     {"facility_power_kw", k.facility_power.in(units::kW)}};
  } else if (!c.racks_error.empty()) {
    j["facility"] = {{"error", c.racks_error}};
  } else {
    j["facility"] = nullptr;
  }
  if (c.serving) {
    const serving_cost_report& v = *c.serving;
    const serving_plan& p = *r.serving;
    j["serving"] = {
        {"model", r.serving_model},
        {"node", std::string(p.node.name.view())},
        {"replicas", v.replicas},
        {"tp", p.layout.tp},
        {"pp", p.layout.pp},
        {"gpus", v.gpus},
        {"input_len", r.serving_lengths.first},
        {"output_len", r.serving_lengths.second},
        {"dtype", std::string(to_string(p.compute_dtype))},
        {"concurrency", v.point.concurrency},
        {"rate", p.rate.value > 0 ? nlohmann::json(p.rate.in(units::requests_per_s)) : nullptr},
        {"output_tokens_per_s", v.point.output_tokens_per_s.in(units::tokens_per_s)},
        {"output_tokens_per_s_per_gpu", v.point.output_tokens_per_s_per_gpu.in(units::tokens_per_s)},
        {"requests_per_s", v.point.requests_per_s.in(units::requests_per_s)},
        {"ttft_s", v.point.ttft.in(units::s)},
        {"tpot_s", v.point.tpot.in(units::s)},
        {"period_hours", v.period.in(units::h)},
        {"output_tokens", v.output_tokens.in(units::token)},
        {"source", "serving model (docs/models/serving.md)"}};
    j["cost_usd_per_month"] = run.priced ? nlohmann::json(run.cost.in(units::usd)) : nullptr;
    j["cost_per_million_tokens_usd"] =
        run.priced ? nlohmann::json(v.cost_per_token().in(units::usd_per_Mtoken)) : nullptr;
    j["cost_per_request_usd"] = run.priced ? nlohmann::json(v.cost_per_request().in(units::usd / units::request)) : nullptr;
    j["energy_kwh_per_million_tokens"] = v.energy_per_token().in(units::kWh / units::Mtoken);
    j["carbon_kg_per_million_tokens"] = v.carbon_per_token().in(units::kgCO2e / units::Mtoken);
    j["tokens_per_joule"] = v.tokens_per_joule().in(units::token / units::J);
  } else {
    j["serving"] = nullptr;
  }
  nlohmann::json price;
  price["usd_per_gpu_hour"] = run.priced ? nlohmann::json(run.price.in(units::usd_per_h)) : nullptr;
  price["term"] = to_string(r.inputs.term);
  if (run.price_entry != nullptr) {
    price["provider"] = std::string(run.price_entry->provider.view());
    price["instance"] = std::string(run.price_entry->instance.view());
    price["date"] = date_text(run.price_entry->date);
    price["source"] = std::string(run.price_entry->source.view());
    price["book"] = io::price_origin(r.book, *run.price_entry);
  } else if (run.priced) {
    price["source"] = "--price-per-gpu-hour";
  } else {
    price["source"] = nullptr;
  }
  j["price"] = price;
  j["cost_usd"] = run.priced ? nlohmann::json(run.cost.in(units::usd)) : nullptr;
  j["power_per_gpu_watts"] = run.power_per_gpu.in(units::W);
  j["power_source"] = run.power_given ? "given" : "model";
  j["pue"] = r.inputs.site.pue;
  j["energy_kwh"] = run.facility_energy().in(units::kWh);
  j["energy_lines_kwh"] = {
      {"gpus", run.energy_lines.gpus.in(units::kWh)},
      {"host", run.energy_lines.host.in(units::kWh)},
      {"network", run.energy_lines.network.in(units::kWh)},
      {"storage", run.energy_lines.storage.in(units::kWh)},
      {"facility_overhead", run.energy_lines.facility_overhead.in(units::kWh)}};
  j["carbon_intensity_kg_per_kwh"] = r.inputs.site.grid.in(units::kgCO2e_per_kWh);
  j["carbon_intensity_source"] = r.intensity_source;
  j["carbon_kg"] = run.carbon.operational.in(units::kgCO2e);
  j["embodied_carbon_kg"] =
      r.inputs.embodied ? nlohmann::json(run.carbon.embodied.in(units::kgCO2e)) : nullptr;
  if (c.comparison) {
    const cloud_onprem_comparison& k = *c.comparison;
    j["break_even_utilization"] = number_or_null(k.break_even_utilization);
    j["break_even_months"] = number_or_null(k.break_even_months);
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
        {"electricity_usd_per_month",
         (k.onprem.energy_idle + k.utilization * k.onprem.energy_full_use).in(units::usd)},
        {"running_usd_per_month", k.onprem.running(k.utilization).in(units::usd)},
        {"total_usd", k.onprem_total().in(units::usd)}};
    if (c.onprem_run_cost) {
      cmp["onprem"]["run_cost_usd"] = c.onprem_run_cost->in(units::usd);
      cmp["onprem"]["usd_per_gpu_hour_used"] = c.onprem_gpu_hour.in(units::usd_per_h);
    }
    nlohmann::json months = nlohmann::json::array();
    for (const cumulative_point& p : cumulative_costs(k))
      months.push_back(
          {{"month", p.month}, {"cloud_usd", p.cloud_usd}, {"onprem_usd", p.onprem_usd}});
    cmp["cumulative"] = months;
    j["comparison"] = cmp;
  }
  if (c.hybrid) {
    const hybrid_plan& h = *c.hybrid;
    j["hybrid"] = {{"hours", h.hours},
                   {"peak_gpus", h.peak_gpus},
                   {"base_gpus", h.base_gpus},
                   {"burst_gpu_hours", h.burst_gpu_time.in(units::h)},
                   {"hybrid_usd", h.hybrid.in(units::usd)},
                   {"all_cloud_usd", h.all_cloud.in(units::usd)},
                   {"all_onprem_usd", h.all_onprem.in(units::usd)}};
  }
  return j;
}

price_term term_named(const std::string& t, const std::string& who) {
  for (price_term k :
       {price_term::on_demand, price_term::commit_1yr, price_term::commit_3yr, price_term::spot})
    if (t == to_string(k)) return k;
  throw usage_error(who + " '" + t + "' is not one of on_demand|commit_1yr|commit_3yr|spot");
}

}  // namespace gpuplan::cli
