// tools/gpuplan/cost_output.cpp: `gpuplan cost`'s report for people (the library composes it:
// plan/cost_report.hpp; its JSON: io/cost_json.hpp).
#include "cost_output.hpp"

#include "cli.hpp"
#include "train_run.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <string_view>

namespace gpuplan::cli {

namespace {

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

/// The racked node for people: its name, and the GPU when the node's own is another
/// ("DGX-H100 chassis with L4-24GB").
std::string rack_node_text(const cost_report& c) {
  if (!c.rack_gpu_swapped) return std::string(c.rack_node.name.view());
  return fmt::format("{} chassis with {}", c.rack_node.name.view(), c.rack_node.gpu.name.view());
}

/// The first line: the GPU time, and the GPUs and days when the count is known.
std::string usage_line(const run_usage& u) {
  std::string out = fmt::format("{:.0f} GPU-hours on {}", u.gpu_time.in(units::h), u.gpu.name.view());
  if (u.gpus > 0)
    out += fmt::format(" ({} GPUs for {:.1f} days)", u.gpus, u.wall_time().in(units::d));
  return out + "\n";
}

/// The reliability model's lines of a modelled training run.
std::string reliability_lines(const reliability_estimate& e, const reliability_assumptions& a,
                              const modelled_training_run& m) {
  if (!e.enabled) return "  failures not counted (--no-failures): the steady-state time is priced\n";
  std::string out = fmt::format(
      "  reserve {:.1f} h wall, ETTR {:.3f} ({:.1f} h lost to {} expected failures, {:.1f} h to "
      "checkpoints)\n",
      m.reserved_wall.in(units::h), e.ettr, e.lost_to_failures.in(units::h),
      interruptions_text(e.interruptions), e.lost_to_checkpoints.in(units::h));
  if (!std::isfinite(e.checkpoint_interval.value))
    return out + "          no failures (--failures-per-node-day 0): no checkpoints needed "
                 "(reliability model)\n";
  return out + fmt::format(
                   "          MTTF {}, restart {:.0f} min, checkpoint {} every {}{} (reliability "
                   "model)\n",
                   std::isfinite(e.mttf.value) ? secs(e.mttf) : std::string("infinite (no failures)"),
                   e.restart.in(units::minute), secs(e.checkpoint_write), secs(e.checkpoint_interval),
                   a.checkpoint_interval.value > 0 ? "" : " (Young/Daly)");
}

/// A modelled training run: the step-time model's figures, then the reliability model's.
std::string training_lines(const cost_report& c) {
  const modelled_training_run& m = *c.training;
  std::string out = fmt::format(
      "  run     {} on {} x {}, {} tokens at {} tokens/s (MFU {:.1f}%): {:.1f} h wall "
      "(step-time model)\n",
      c.model_name(), m.nodes, c.inputs.pricing.node.name.view(),
      show_count(m.tokens.in(units::token)), show_count(m.tokens_per_s.in(units::tokens_per_s)),
      100 * m.mfu, m.wall.in(units::h));
  return out + reliability_lines(m.reliability, c.inputs.training->reliability, m);
}

/// A serving deployment at its operating point.
std::string serving_line(const cost_report& c) {
  const serving_cost_report& v = *c.serving;
  const serving_plan& p = *c.inputs.serving;
  return fmt::format(
      "  serve   {} on {} replica(s) of tp {} pp {}, {} prompt + {} output tokens, {}: {} output "
      "tokens/s ({} per GPU), TTFT {:.1f} ms, TPOT {:.1f} ms (serving model), held every hour "
      "of a month\n",
      c.model_name(), v.replicas, p.layout.tp, p.layout.pp, std::lround(p.mix.mean_input()),
      std::lround(p.mix.mean_output()),
      p.rate.value > 0 ? fmt::format("{:g} requests/s", p.rate.in(units::requests_per_s))
                       : fmt::format("concurrency {:g}", v.point.concurrency),
      show_count(v.point.output_tokens_per_s.in(units::tokens_per_s)),
      show_count(v.point.output_tokens_per_s_per_gpu.in(units::tokens_per_s)),
      v.point.ttft.in(units::ms), v.point.tpot.in(units::ms));
}

/// The price per GPU-hour and where it came from, and the cost (or why it is unknown).
std::string price_lines(const cost_report& c, const io::price_book& book) {
  const run_cost_report& run = c.run;
  const price_term term = c.inputs.pricing.term;
  std::string out;
  if (run.price_entry != nullptr) {
    const cloud_price& p = *run.price_entry;
    out += fmt::format("  price   ${:.4g} per GPU-hour, {} {} {} ({}, {}; {})\n",
                       run.price.in(units::usd_per_h), p.provider.view(), p.instance.view(),
                       to_string(term), io::price_origin(book, p), date_text(p.date),
                       p.source.view());
  } else if (run.priced) {
    out += fmt::format("  price   ${:.4g} per GPU-hour ({})\n", run.price.in(units::usd_per_h),
                       c.inputs.sources.price);
  }
  if (run.priced)
    return out + fmt::format("  cost    {}{}\n", money_text(run.cost), c.serving ? " a month" : "");
  return out + fmt::format(
                   "  cost    unknown: {} {} price for {} (give --price-per-gpu-hour or --prices)\n",
                   // a file read over the default book: neither has one ("an on_demand", "a spot")
                   book.origin == book.base_origin
                       ? book.origin + " has no"
                       : fmt::format("neither {} nor the {} has {}", book.origin, book.base_origin,
                                     std::string_view("aeiou").find(to_string(term)[0]) !=
                                             std::string_view::npos
                                         ? "an"
                                         : "a"),
                   to_string(term), run.usage.gpu.name.view());
}

/// The power per GPU, the facility energy and its lines, the carbon.
std::string energy_lines(const cost_report& c) {
  const run_cost_report& run = c.run;
  const run_cost_inputs& in = c.inputs.pricing;
  std::string out = fmt::format(
      "  power   {:.0f} W per GPU all-in ({}), PUE {:.3g}\n", run.power_per_gpu.in(units::W),
      run.power_given ? "--power-per-gpu"
                      : fmt::format("GPU at {:.0f}% kernel duty + {} host share",
                                    100 * in.utilization, in.node.name.view()),
      in.site.pue);
  out += fmt::format("  energy  {} at the facility", energy_text(run.facility_energy()));
  if (!run.power_given)
    out += fmt::format(" (GPUs {}, host {}, overhead {})", energy_text(run.energy_lines.gpus),
                       energy_text(run.energy_lines.host),
                       energy_text(run.energy_lines.facility_overhead));
  out += "\n";
  out += fmt::format("  carbon  {} operational at {:.0f} g CO2e/kWh ({})\n",
                     carbon_text(run.carbon.operational), in.site.grid.in(units::gCO2e_per_kWh),
                     c.inputs.sources.grid);
  if (in.embodied)
    out += fmt::format("          {} embodied (amortised manufacturing, reported apart)\n",
                       carbon_text(run.carbon.embodied));
  return out;
}

/// The run's nodes in racks and their heat, or why they were not placed.
std::string rack_lines(const cost_report& c) {
  const site_spec& site = c.inputs.pricing.site;
  if (!c.racks)
    return c.racks_error.empty() ? std::string()
                                 : fmt::format("  racks   not placed: {}\n", c.racks_error);
  const rack_plan& k = *c.racks;
  std::string out = fmt::format(
      "  racks   {} x {} at {:.1f} kW each ({}): {} per rack ({:.0f} kW budget{}), {} rack(s), a "
      "full one {:.1f} kW and {} cooled\n",
      k.nodes, rack_node_text(c), k.node_power.in(units::kW),
      c.rack_node.max_power.value > 0 ? "published maximum" : "modelled maximum", k.nodes_per_rack,
      site.rack_budget.in(units::kW),
      k.cooling_bound ? fmt::format(", held lower by {} cooling", to_string(site.cooling))
                      : std::string(),
      k.racks, k.rack_power.in(units::kW),
      k.rack_cooling == cooling_kind::air                 ? "air"
      : k.rack_cooling == cooling_kind::air_containment ? "air with containment"
                                                          : "liquid");
  out += fmt::format(
      "  heat    {:.1f} kW of IT load ({} BTU/h; air stops at {:.0f} kW a rack, {:.0f} kW with "
      "containment); {:.1f} kW at the facility (PUE {:.3g})\n",
      k.it_power.in(units::kW), show_count(k.heat_btu_per_h()), site.limits.air.in(units::kW),
      site.limits.air_containment.in(units::kW), k.facility_power.in(units::kW), site.pue);
  return out;
}

/// A serving deployment's figures per million output tokens.
std::string per_token_line(const cost_report& c) {
  const serving_cost_report& v = *c.serving;
  const bool priced = c.run.priced;
  return fmt::format(
      "  per million output tokens: {}{:.3g} kWh, {:.3g} kg CO2e; {:.3g} tokens per joule{}\n",
      priced ? fmt::format("${:.3g}, ", v.cost_per_token().in(units::usd_per_Mtoken))
             : std::string(),
      v.energy_per_token().in(units::kWh / units::Mtoken),
      v.carbon_per_token().in(units::kgCO2e / units::Mtoken),
      v.tokens_per_joule().in(units::token / units::J),
      priced ? fmt::format("; ${:.3g} per request", v.cost_per_request().in(units::usd / units::request))
             : std::string());
}

/// When owning is cheaper: the break-even utilization and month.
std::string break_even_lines(const cloud_onprem_comparison& k) {
  std::string out;
  if (std::isnan(k.break_even_utilization))
    out += "  a commitment bills every hour: no break-even utilization\n";
  else if (std::isinf(k.break_even_utilization))
    out += fmt::format("  owning is never cheaper within {:.0f} months, even at 100% use\n",
                       k.horizon_months);
  else
    out += fmt::format("  above {:.0f}% average utilization, owning is cheaper over {:.0f} months "
                       "(capital written off, no resale)\n",
                       100 * k.break_even_utilization, k.horizon_months);
  if (std::isinf(k.break_even_months))
    return out + fmt::format("  at {:.0f}% use, owning never pays back\n", 100 * k.utilization);
  return out + fmt::format("  at {:.0f}% use, owning is cheaper after {:.0f} months{} (capital "
                           "up front, before any resale)\n",
                           100 * k.utilization, std::ceil(k.break_even_months),
                           k.break_even_months > k.horizon_months ? " (past the horizon)" : "");
}

/// The owned side's capital: up front, or financed (the payment and term).
std::string capital_text(money capex, money payment, const owned_finance& f) {
  if (!f.financed) return fmt::format("{} up front", money_text(capex));
  return fmt::format("{} financed at {:.2f}% a year over {} months ({} a month)", money_text(capex),
                     100 * f.annual_rate, f.term_months, money_text(payment));
}

/// The month-by-month lines: every month up to 60, else every 12th and the last.
std::string monthly_table(const horizon_costs& h) {
  std::string out = fmt::format("  {:>5}  {:>12} {:>12} {:>12}   {:>12} {:>12} {:>12}\n", "month",
                                "cloud", "owned", "hybrid", "cloud cum.", "owned cum.",
                                "hybrid cum.");
  for (const horizon_month& m : h.monthly) {
    if (h.months > 60 && m.month % 12 != 0 && m.month != h.months) continue;
    out += fmt::format("  {:>5}  {:>12} {:>12} {:>12}   {:>12} {:>12} {:>12}\n", m.month,
                       money_text(m.cloud), money_text(m.owned), money_text(m.hybrid),
                       money_text(m.cloud_cumulative), money_text(m.owned_cumulative),
                       money_text(m.hybrid_cumulative));
  }
  return out;
}

/// Cloud, owned and hybrid over the horizon: the totals, what they rest on, the monthly lines.
std::string horizon_lines(const cost_report& c, const horizon_costs& h) {
  const owned_finance& f = h.finance;
  std::string out = fmt::format(
      "\nover {} months at {:.0f}% occupancy (share of the hours the fleet is busy):\n", h.months,
      100 * h.occupancy);
  out += fmt::format("  cloud   {} ({} a month)\n", money_text(h.cloud_total),
                     money_text(h.cloud_month));
  out += fmt::format(
      "  owned   {}: {}, then {} a month running, less {} residual value at month {} ({:.0f}% of "
      "capital, {}){}\n",
      money_text(h.owned_total), capital_text(h.capex, h.payment, f),
      money_text(h.owned_running), money_text(h.residual), h.months, 100 * h.residual_share,
      f.residual_fraction ? std::string("--residual")
                          : fmt::format("straight-line over {:g} years", f.useful_life_years),
      h.payoff.value > 0 ? fmt::format("; {} still owed, paid at month {}", money_text(h.payoff),
                                       h.months)
                         : std::string());
  out += fmt::format(
      "  hybrid  {}: {} GPUs owned ({:.0f}% of {}, whole servers; {}, then {} a month) + {} "
      "rented while busy ({} a month)\n",
      money_text(h.hybrid_total), h.hybrid_owned_gpus, 100 * h.hybrid_owned_fraction, h.gpus,
      capital_text(h.hybrid_capex, h.hybrid_payment, f), money_text(h.hybrid_running),
      h.hybrid_burst_gpus, money_text(h.burst_month));
  if (std::isnan(h.break_even_occupancy))
    out += "  a commitment bills every hour: no break-even occupancy\n";
  else if (std::isinf(h.break_even_occupancy))
    out += fmt::format("  owning is never cheaper over {} months, even at 100% occupancy\n",
                       h.months);
  else
    out += fmt::format("  above {:.0f}% occupancy owning is cheaper over {} months (residual value "
                       "and financing counted)\n",
                       100 * h.break_even_occupancy, h.months);
  out += fmt::format(
      "  energy  owned fleet {} at the facility over {} months ({} busy: {:.0f}% of the hours at "
      "{:.0f}% duty; the rest idle)\n",
      energy_text(h.owned_energy), h.months, energy_text(h.busy_energy), 100 * h.occupancy,
      100 * c.inputs.fleet_duty.value_or(1.0));
  if (c.onprem_run_cost)
    out += fmt::format(
        "  this run on owned GPUs: {}, its {:.0f} GPU-hours of the fleet's {:.0f} busy ones at "
        "${:.4g} per GPU-hour used (the owned total over them)\n",
        money_text(*c.onprem_run_cost), c.run.usage.gpu_time.in(units::h),
        h.occupancy * h.gpus * h.months * (1.0 * units::month).in(units::h),
        c.onprem_gpu_hour.in(units::usd_per_h));
  return out + "\n" + monthly_table(h);
}

/// Cloud against owning: the monthly bills, the run on owned GPUs, break-even, and the chart.
std::string comparison_lines(const cost_report& c) {
  const cloud_onprem_comparison& k = *c.comparison;
  std::string out = fmt::format(
      "\ncloud against owning: {} GPUs ({} owned in whole servers of {}), busy {:.0f}% of "
      "the time (occupancy), over {:.0f} months\n",
      k.gpus, k.owned_gpus, c.inputs.pricing.node.gpus, 100 * k.utilization, k.horizon_months);
  out += fmt::format("  cloud   {} a month at ${:.4g} per GPU-hour ({})\n",
                     money_text(k.cloud_month), k.cloud_price.in(units::usd_per_h),
                     to_string(k.term));
  out += fmt::format(
      "  owned   {} up front, then {} a month (maintenance {}, colocation {}, staff {}, "
      "electricity {})\n",
      money_text(k.onprem_capex), money_text(k.onprem.running(k.utilization)),
      money_text(k.onprem.maintenance), money_text(k.onprem.colocation),
      money_text(k.onprem.staff), money_text(k.onprem.electricity(k.utilization)));
  out += break_even_lines(k);
  const horizon_costs& h = *c.horizon;
  out += horizon_lines(c, h);
  return out + "\n" + chart::render_text(cumulative_chart(k, h));
}

std::string hybrid_lines(const hybrid_plan& h) {
  std::string out = fmt::format("\nhybrid over a {}-hour demand profile (peak {} GPUs):\n",
                                h.hours, h.peak_gpus);
  out += fmt::format("  all cloud      {}\n", money_text(h.all_cloud));
  out += fmt::format("  all owned      {} ({} GPUs)\n", money_text(h.all_onprem), h.peak_gpus);
  out += fmt::format("  owned base {} GPUs + cloud burst ({:.0f} GPU-hours): {}\n", h.base_gpus,
                     h.burst_gpu_time.in(units::h), money_text(h.hybrid));
  return out;
}

}  // namespace

std::string money_text(money m) {
  const double v = m.in(units::usd);
  // a credit (the residual value in a horizon's last month): "-$942824", not "$-942824"
  if (v < 0) return "-" + money_text(-1.0 * m);
  if (std::abs(v) >= 1e6) return fmt::format("${:.2f}M", v / 1e6);
  if (std::abs(v) >= 1e4) return fmt::format("${:.0f}", v);
  return fmt::format("${:.2f}", v);
}

onprem_fleet owned_fleet(const node_spec& node, const gpu_spec& gpu, int gpus,
                         const io::price_book& book, const site_spec& site,
                         const node_power_assumptions& power_model) {
  return gpuplan::owned_fleet(node, gpu, gpus, owned_costs_of(book), site, power_model);
}

std::optional<onprem_costs> owned_costs_of(const io::price_book& book) {
  if (book.onprem_from_file) return book.onprem;
  return std::nullopt;
}

chart::chart_spec cumulative_chart(const cloud_onprem_comparison& c, const horizon_costs& h) {
  chart::chart_spec spec;
  spec.title = fmt::format("Cumulative cost, {} GPUs busy {:.0f}% of the time", c.gpus,
                           100 * h.occupancy);
  spec.x_label = "months";
  spec.y_label = "cumulative cost ($M)";
  chart::series cloud{fmt::format("cloud, {} at ${:.4g}/GPU-h", to_string(c.term),
                                  c.cloud_price.in(units::usd_per_h)),
                      {},
                      chart::style::lines};
  chart::series owned{h.finance.financed
                          ? "owned (financed capital and running costs, less residual value)"
                          : "owned (capital up front, running costs, less residual value)",
                      {},
                      chart::style::lines};
  chart::series hybrid{fmt::format("hybrid ({} GPUs owned, the rest rented)", h.hybrid_owned_gpus),
                       {},
                       chart::style::lines};
  for (const horizon_month& m : h.monthly) {
    cloud.points.emplace_back(1.0 * m.month, m.cloud_cumulative.in(units::usd) / 1e6);
    owned.points.emplace_back(1.0 * m.month, m.owned_cumulative.in(units::usd) / 1e6);
    hybrid.points.emplace_back(1.0 * m.month, m.hybrid_cumulative.in(units::usd) / 1e6);
  }
  spec.data = {cloud, owned, hybrid};
  spec.y_min = 0.0;
  return spec;
}

std::string cost_text(const cost_report& c, const io::price_book& book) {
  std::string out = usage_line(c.run.usage);
  if (c.training) out += training_lines(c);
  if (c.serving) out += serving_line(c);
  out += price_lines(c, book);
  out += energy_lines(c);
  out += rack_lines(c);
  if (c.serving) out += per_token_line(c);
  if (c.comparison) out += comparison_lines(c);
  if (c.hybrid) out += hybrid_lines(*c.hybrid);
  return out;
}

price_term term_named(const std::string& t, const std::string& who) {
  return enum_named<price_term>(t, who);
}

}  // namespace gpuplan::cli
