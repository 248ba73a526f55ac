// gpuplan/models/cost.hpp: what a run, a token and a fleet cost, rented or owned, and when
// owning pays.
//
// Cloud: a run costs its GPU-hours x the price per GPU-hour of the chosen term; on demand a fleet
// pays for the hours it uses, on a commitment for every hour. Owned: capital (servers, network
// and storage shares, installation) is spread over the amortisation years; maintenance,
// colocation (per provisioned kW) and staff are paid every month; electricity is what the nodes
// draw (energy.hpp) x PUE x the site's price: GPUs at `in_use_duty` while used, deeply idle
// otherwise, hosts always on.
//
// Break-even. With N GPUs used for a share u of the time, a month of cloud on demand costs
// u x C (C = N x hours x price); owning costs K (capital) once plus F + E0 + u x E1 a month
// (F fixed running costs, E0 the energy of an idle fleet, E1 the extra energy of a busy one).
// Over a horizon of H months owning is cheaper above
//     u* = (K / H + F + E0) / (C - E1),
// and at a given u it is cheaper after m* = K / (u x C - F - E0 - u x E1) months.
//
// Cloud, owned and hybrid month by month over a horizon (cost_over_horizon) are in
// models/cost_horizon.hpp: a run-time report over std::vector, which the umbrella does not hold.
#pragma once

#include <cstddef>
#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/models/energy.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/error.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/specs/pricing.hpp>
#include <gpuplan/specs/site.hpp>
#include <gpuplan/units.hpp>
#include <cmath>
#include <limits>

#include <string_view>
#include <type_traits>

namespace gpuplan {

namespace detail {

/// Throws invalid_input naming the GPU, term and provider that the price book lacks (run time).
[[noreturn]] inline void throw_no_price(const gpu_spec& g, price_term t,
                                        std::string_view provider) {
  invalid_input e("gpuplan: the price book has no ");
  // A name table's names are string literals: data() ends with a NUL.
  e.append(to_string(t).data()).append(" price for GPU ").append(g.name.chars);
  if (!provider.empty()) {
    char p[name_string::capacity + 1] = {};
    for (std::size_t i = 0; i < provider.size() && i < name_string::capacity; ++i)
      p[i] = provider[i];
    e.append(" from provider ").append(p);
  }
  throw e;
}

/// The same in a constant expression: a compile error showing this message. (`raise` lets the
/// function be constant for some argument, as C++20 requires.)
constexpr bool no_price(const gpu_spec& g, price_term t, std::string_view provider,
                        bool raise = true) {
  if (!raise) return false;
  if (std::is_constant_evaluated())
    throw invalid_input("the price book has no price for this GPU, term and provider");
  throw_no_price(g, t, provider);
}

constexpr double infinity() { return std::numeric_limits<double>::infinity(); }

}  // namespace detail

/// Whether a price entry is for GPU g (its canonical name or one of its aliases).
constexpr bool prices_gpu(const cloud_price& p, const gpu_spec& g) {
  if (detail::same_folded_name(p.gpu.view(), g.name.view())) return true;
  for (const name_string& a : g.aliases)
    if (!a.empty() && detail::same_folded_name(p.gpu.view(), a.view())) return true;
  return false;
}

/// The cheapest entry of `book` for GPU g with a price of term t (from `provider` when it is not
/// empty), or nullptr. Ties go to the earlier entry.
constexpr const cloud_price* cheapest_price(array_view<cloud_price> book, const gpu_spec& g,
                                            price_term t, std::string_view provider = {}) {
  const cloud_price* best = nullptr;
  for (const cloud_price& p : book) {
    if (!p.offers(t) || !prices_gpu(p, g)) continue;
    if (!provider.empty() && !detail::same_folded_name(p.provider.view(), provider)) continue;
    if (best == nullptr || p.price(t) < best->price(t)) best = &p;
  }
  return best;
}

/// The cheapest price per GPU-hour of term t for GPU g; throws invalid_input when there is none.
constexpr money_rate cloud_rate(array_view<cloud_price> book, const gpu_spec& g, price_term t,
                                std::string_view provider = {}) {
  const cloud_price* p = cheapest_price(book, g, t, provider);
  if (p == nullptr) detail::no_price(g, t, provider);
  return p->price(t);
}

/// The GPU time a run takes: what the training time model predicts (GPUs x wall time), or a
/// figure reported by a model card.
struct run_usage {
  gpu_spec gpu{};
  duration gpu_time{};  ///< GPU-hours (GPU-time) of the run
  int gpus = 0;         ///< GPUs used at once; 0 when unknown

  /// A run of `gpus` GPUs for `wall` wall-clock time.
  static constexpr run_usage of(const gpu_spec& g, int gpus, duration wall) {
    return {g, (1.0 * gpus) * wall, gpus};
  }
  /// Wall-clock time, when the GPU count is known (zero otherwise).
  [[nodiscard]] constexpr duration wall_time() const {
    return gpus > 0 ? gpu_time / (1.0 * gpus) : duration{};
  }
  constexpr void validate() const {
    detail::check_input(detail::finite_positive(gpu_time.value),
                        "run_usage.gpu_time must be positive and finite", gpu_time.value);
    detail::check_input(gpus >= 0, "run_usage.gpus must not be negative (0: unknown)");
  }
};

/// A run's cost at `per_gpu_hour`.
constexpr money run_cost(const run_usage& u, money_rate per_gpu_hour) {
  u.validate();
  detail::check_input(detail::finite_nonnegative(per_gpu_hour.value),
                      "price per GPU-hour must be finite and not negative");
  const money cost = u.gpu_time * per_gpu_hour;
  detail::check_input(detail::finite(cost.value),
                      "run cost (GPU-hours x price per GPU-hour) overflows: the price or the GPU "
                      "time is out of range");
  return cost;
}

/// A run's cost at the cheapest price of term t the book has for its GPU:
/// `static_assert(run_cost(plan, catalog::default_prices) < 2'000'000 * units::usd);`
constexpr money run_cost(const run_usage& u, array_view<cloud_price> book,
                         price_term t = price_term::on_demand, std::string_view provider = {}) {
  return run_cost(u, cloud_rate(book, u.gpu, t, provider));
}

/// Cost per token served by one GPU producing `per_gpu` tokens/s at its operating point, busy a
/// share `utilization` of the hours paid for.
constexpr money_per_token cost_per_token(money_rate per_gpu_hour, token_rate per_gpu,
                                         double utilization = 1.0) {
  detail::check_input(detail::finite_nonnegative(per_gpu_hour.value),
                      "price per GPU-hour must be finite and not negative");
  detail::check_input(detail::finite_positive(per_gpu.value),
                      "tokens per second per GPU must be positive and finite", per_gpu.value);
  detail::check_input(detail::finite_positive(utilization) && utilization <= 1.0,
                      "utilization must be in (0, 1]", utilization);
  return per_gpu_hour / (utilization * per_gpu);
}

/// A month of a cloud fleet of `gpus` GPUs used a share `utilization` of the time: on demand and
/// spot pay the hours used, commitments every hour.
constexpr money cloud_fleet_month(int gpus, money_rate per_gpu_hour, price_term t,
                                  double utilization = 1.0) {
  detail::check_input(gpus > 0, "gpus must be positive");
  detail::check_input(detail::finite_nonnegative(per_gpu_hour.value),
                      "price per GPU-hour must be finite and not negative");
  detail::check_utilization(utilization, "utilization must be between 0 and 1");
  const double share = bills_idle_hours(t) ? 1.0 : utilization;
  return share * (1.0 * gpus) * (1.0 * units::month) * per_gpu_hour;
}

// ---- owning ----------------------------------------------------------------------------------

/// A fleet of owned GPU servers at a site.
struct onprem_fleet {
  node_spec node{};  ///< the server bought (catalog::dgx_h100 ...)
  int gpus = 0;      ///< GPUs wanted; whole servers are bought
  onprem_costs costs{};
  site_spec site{};
  node_power_assumptions power_model{};
  /// Kernel duty of a GPU while it is in use. Default 1: the model cards' convention of counting
  /// a GPU in use at its full power (Llama 2 and Llama 3 model cards: "power consumption per GPU
  /// device" = TDP). Lower it for serving at partial load.
  double in_use_duty = 1.0;

  [[nodiscard]] constexpr int servers() const {
    return node.gpus > 0 ? (gpus + node.gpus - 1) / node.gpus : 0;
  }
  [[nodiscard]] constexpr int owned_gpus() const { return servers() * node.gpus; }

  constexpr void validate() const {
    node.validate();
    detail::check_input(gpus > 0, "onprem_fleet.gpus must be positive");
    costs.validate();
    site.validate();
    power_model.validate();
    detail::check_utilization(in_use_duty, "onprem_fleet.in_use_duty must be between 0 and 1");
  }
};

/// One month of owning, line by line; electricity split into what an idle fleet draws and what
/// full use adds, so that any utilization can be priced.
struct onprem_month {
  money amortisation{};
  money maintenance{};
  money colocation{};
  money staff{};
  money energy_idle{};      ///< every GPU deeply idle, hosts on, x PUE x price
  money energy_full_use{};  ///< extra when every GPU is in use at in_use_duty

  /// Running costs that do not depend on use (no amortisation).
  [[nodiscard]] constexpr money fixed_running() const { return maintenance + colocation + staff; }
  /// Electricity at utilization u: the idle draw, and the extra of use.
  [[nodiscard]] constexpr money electricity(double u) const {
    return energy_idle + u * energy_full_use;
  }
  /// Running costs at utilization u (no amortisation).
  [[nodiscard]] constexpr money running(double u) const {
    return fixed_running() + energy_idle + u * energy_full_use;
  }
  /// Everything at utilization u, capital spread over the amortisation years.
  [[nodiscard]] constexpr money total(double u) const { return amortisation + running(u); }
};

/// Capital of the fleet: whole servers, with their network and storage shares and installation.
constexpr money onprem_capex(const onprem_fleet& f) {
  f.validate();
  return (1.0 * f.servers()) * f.costs.capex_per_server();
}

/// Power drawn by the whole fleet when idle (GPUs deeply idle) and when fully in use.
struct fleet_power {
  power idle{};
  power full_use{};
};
constexpr fleet_power onprem_power(const onprem_fleet& f) {
  f.validate();
  const double servers = 1.0 * f.servers();
  const node_power_breakdown busy = node_power(f.node, f.in_use_duty, f.power_model);
  const power idle_node = (1.0 * f.node.gpus) * gpu_deep_idle_power(f.node.gpu, f.power_model.gpu) +
                          busy.host + busy.network + busy.storage;
  return {servers * idle_node, servers * busy.total()};
}

constexpr onprem_month onprem_month_costs(const onprem_fleet& f) {
  const money capex = onprem_capex(f);
  const fleet_power p = onprem_power(f);
  const duration month = 1.0 * units::month;
  const double price_factor = f.site.pue;
  onprem_month m;
  m.amortisation = capex / (12.0 * f.costs.amortisation_years);
  m.maintenance = capex * f.costs.maintenance_per_year / 12.0;
  // Colocation is charged on provisioned power: the nodes' maximum.
  m.colocation =
      (1.0 * f.servers()) * node_max_power(f.node, f.power_model) * month * f.costs.colocation;
  m.staff = f.costs.staff * month;
  m.energy_idle = price_factor * (p.idle * month) * f.site.electricity;
  m.energy_full_use = price_factor * ((p.full_use - p.idle) * month) * f.site.electricity;
  detail::check_input(detail::finite((12.0 * f.costs.amortisation_years) * m.total(1.0).value),
                      "onprem_costs: owning the fleet over the amortisation years costs more than "
                      "a double holds: a price in onprem_costs or site_spec is out of range");
  return m;
}

/// What one owned GPU-hour in use costs at fleet utilization u (all costs over used hours).
constexpr money_rate onprem_cost_per_gpu_hour(const onprem_fleet& f, double utilization) {
  detail::check_input(detail::finite_positive(utilization) && utilization <= 1.0,
                      "utilization must be in (0, 1]", utilization);
  const onprem_month m = onprem_month_costs(f);
  return m.total(utilization) / (utilization * (1.0 * f.owned_gpus()) * (1.0 * units::month));
}

/// A run on owned GPUs: its GPU-hours at the fleet's cost per used GPU-hour.
constexpr money run_cost(const run_usage& u, const onprem_fleet& f, double fleet_utilization) {
  return run_cost(u, onprem_cost_per_gpu_hour(f, fleet_utilization));
}

/// Cloud against owning, for the same GPUs used the same share of the time.
struct cloud_onprem_comparison {
  int gpus = 0;  ///< GPUs rented; the owned fleet is whole servers (owned_gpus)
  int owned_gpus = 0;
  double utilization = 0.0;  ///< share of hours the GPUs are in use
  price_term term = price_term::on_demand;
  money_rate cloud_price{};  ///< per GPU-hour
  money cloud_month{};       ///< at `utilization`
  money onprem_capex{};
  onprem_month onprem{};        ///< per month, line by line
  double horizon_months = 0.0;  ///< the horizon; by default the amortisation years, in months
  /// Above this average utilization owning is cheaper over the horizon; +infinity when it never
  /// is (even at 100%); NaN for commitment terms, whose cloud bill does not depend on use.
  double break_even_utilization = 0.0;
  /// At `utilization`, owning has cost less in total after this many months; +infinity if never.
  double break_even_months = 0.0;

  [[nodiscard]] constexpr money cloud_cumulative(double months) const {
    return months * cloud_month;
  }
  [[nodiscard]] constexpr money onprem_cumulative(double months) const {
    return onprem_capex + months * onprem.running(utilization);
  }
  [[nodiscard]] constexpr money cloud_total() const { return cloud_cumulative(horizon_months); }
  [[nodiscard]] constexpr money onprem_total() const { return onprem_cumulative(horizon_months); }
};

constexpr cloud_onprem_comparison compare_cloud_onprem(const onprem_fleet& f,
                                                       money_rate cloud_per_gpu_hour,
                                                       price_term term, double utilization,
                                                       double horizon_months = 0.0) {
  detail::check_utilization(utilization, "utilization must be between 0 and 1");
  detail::check_input(detail::finite_nonnegative(horizon_months),
                      "horizon_months must be finite and not negative (0: the amortisation "
                      "years)",
                      horizon_months);
  cloud_onprem_comparison c;
  c.gpus = f.gpus;
  c.owned_gpus = f.owned_gpus();
  c.utilization = utilization;
  c.term = term;
  c.cloud_price = cloud_per_gpu_hour;
  c.cloud_month = cloud_fleet_month(f.gpus, cloud_per_gpu_hour, term, utilization);
  c.onprem_capex = onprem_capex(f);
  c.onprem = onprem_month_costs(f);
  c.horizon_months = horizon_months > 0.0 ? horizon_months : 12.0 * f.costs.amortisation_years;

  const double K = c.onprem_capex.in(units::usd);
  const double F = c.onprem.fixed_running().in(units::usd);
  const double E0 = c.onprem.energy_idle.in(units::usd);
  const double E1 = c.onprem.energy_full_use.in(units::usd);
  if (bills_idle_hours(term)) {
    c.break_even_utilization = std::numeric_limits<double>::quiet_NaN();
  } else {
    const double C = cloud_fleet_month(f.gpus, cloud_per_gpu_hour, term, 1.0).in(units::usd);
    const double u_star = C > E1 ? (K / c.horizon_months + F + E0) / (C - E1) : detail::infinity();
    c.break_even_utilization = u_star <= 1.0 ? u_star : detail::infinity();
  }
  const double saving = c.cloud_month.in(units::usd)-c.onprem.running(utilization).in(units::usd);
  c.break_even_months = saving > 0.0 ? K / saving : detail::infinity();
  return c;
}

// ---- hybrid ----------------------------------------------------------------------------------

/// Owned base, cloud burst: the owned fleet is sized to a level of the demand profile and the
/// hours above it are rented on demand.
struct hybrid_plan {
  int base_gpus = 0;          ///< owned (whole servers)
  money hybrid{};             ///< cost of the profile's period with the best base
  money all_cloud{};          ///< everything rented
  money all_onprem{};         ///< owned fleet sized to the peak
  int peak_gpus = 0;          ///< owned GPUs of the all-on-prem fleet
  duration burst_gpu_time{};  ///< GPU-hours rented in the hybrid plan
  std::size_t hours = 0;      ///< length of the profile (24 for a day)
};

/// Cost of the profile `demand` (GPUs needed in each hour) with `base` owned GPUs and the rest
/// rented at `cloud_per_gpu_hour`. Owned GPUs cost their amortisation, maintenance and
/// colocation every hour, and their energy (busy or idle); staff is left out (a fleet cost, not
/// a per-GPU one).
constexpr money hybrid_cost(array_view<double> demand, int base, const onprem_fleet& f,
                            money_rate cloud_per_gpu_hour) {
  const onprem_month m = onprem_month_costs(f);
  const double owned = 1.0 * f.owned_gpus();
  const duration month = 1.0 * units::month;
  // Per GPU-hour of the profiled fleet: fixed (amortisation, maintenance, colocation), idle
  // energy, and the extra energy of use.
  const money_rate fixed = (m.amortisation + m.maintenance + m.colocation) / (owned * month);
  const money_rate idle = m.energy_idle / (owned * month);
  const money_rate extra = m.energy_full_use / (owned * month);
  const duration hour = 1.0 * units::h;
  money total{};
  for (double d : demand) {
    const double used = d < base ? d : 1.0 * base;
    const double burst = d > base ? d - base : 0.0;
    total += hour * ((1.0 * base) * (fixed + idle) + used * extra + burst * cloud_per_gpu_hour);
  }
  return total;
}

/// Finds the owned base that makes the profile cheapest. Candidate bases are 0 and each hour's
/// demand rounded up to whole units of `base_unit` GPUs (0: the server's GPUs; a multiple of them
/// and of a replica's GPUs keeps the base in whole servers holding whole replicas): the cost is
/// linear in the base between them.
constexpr hybrid_plan plan_hybrid(array_view<double> demand, const onprem_fleet& f,
                                  money_rate cloud_per_gpu_hour, int base_unit = 0) {
  detail::check_input(!demand.empty(), "the demand profile must have at least one hour");
  detail::check_input(detail::finite_nonnegative(cloud_per_gpu_hour.value),
                      "price per GPU-hour must be finite and not negative");
  double peak = 0.0;
  for (double d : demand) {
    detail::check_input(detail::finite_nonnegative(d) && d <= 1e7,
                        "each hour's demand must be a GPU count between 0 and 1e7", d);
    if (d > peak) peak = d;
  }
  detail::check_input(peak > 0.0, "the demand profile must need a GPU in some hour");
  detail::check_input(base_unit >= 0 && base_unit <= 10000000,
                      "plan_hybrid: base_unit must be between 0 (the server's GPUs) and 1e7",
                      base_unit);
  const int per_unit = base_unit > 0 ? base_unit : f.node.gpus > 0 ? f.node.gpus : 1;
  auto round_up = [&](double d) {
    const int units_needed = static_cast<int>(d / per_unit + (1.0 - 1e-9));
    return units_needed * per_unit;
  };
  onprem_fleet sized = f;
  sized.gpus = round_up(peak);
  hybrid_plan r;
  r.hours = demand.size();
  r.peak_gpus = sized.gpus;
  r.all_cloud = hybrid_cost(demand, 0, sized, cloud_per_gpu_hour);
  r.all_onprem = hybrid_cost(demand, sized.gpus, sized, cloud_per_gpu_hour);
  r.base_gpus = 0;
  r.hybrid = r.all_cloud;
  for (double d : demand) {
    const int base = round_up(d);
    const money c = hybrid_cost(demand, base, sized, cloud_per_gpu_hour);
    if (c < r.hybrid || (c == r.hybrid && base < r.base_gpus)) {
      r.hybrid = c;
      r.base_gpus = base;
    }
  }
  for (double d : demand)
    if (d > r.base_gpus) r.burst_gpu_time += (d - r.base_gpus) * units::h;
  return r;
}

}  // namespace gpuplan
