// gpuplan/models/cost_horizon.hpp: cloud, owned and hybrid, month by month over a horizon.
//
// Over a horizon (cost_over_horizon) the two shares are kept apart: the occupancy (share of the
// horizon's hours the fleet is busy: GPU-hours used, hours rented on demand) and the duty (how
// hard a busy GPU works: onprem_fleet::in_use_duty, its power). Cloud, owned (capital up front or
// financed as an annuity, running costs, less the residual value at the end) and hybrid are
// priced month by month, and each total is the sum of its monthly lines.
//
// A run-time report (its months are a std::vector), so not in the umbrella <gpuplan/gpuplan.hpp>:
// include it by name. The rates and fleets it prices are models/cost.hpp's.
#pragma once

#include <gpuplan/models/cost.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/units.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace gpuplan {

// ---- a horizon: cloud, owned and hybrid, month by month ---------------------------------------

/// How owned servers are paid for, and what they are worth when the horizon ends.
struct owned_finance {
  /// Years over which the servers lose their value, straight-line to zero: at the end of a
  /// horizon of H months they are worth capital x max(0, 1 - H / (12 x useful_life_years)).
  /// Default 5: computers and peripheral equipment are 5-year property (IRS Publication 946,
  /// "How to Depreciate Property", ch. 4, MACRS), and Amazon cut a subset of its servers' useful
  /// life from six years to five from January 2025 for the pace of AI hardware (The Register,
  /// 2025-02-07, Amazon's Q4 FY2024 call). A book value, not a resale quote: set
  /// residual_fraction from a quote.
  double useful_life_years = 5.0;
  /// The servers' value at the horizon's end as a share of capital, in place of the
  /// straight-line schedule (0: worth nothing; 1: worth what they cost). Unset: the schedule.
  std::optional<double> residual_fraction;
  /// false: capital is paid up front (month 0). true: borrowed and repaid in equal monthly
  /// payments (a standard annuity) from month 1; what is still owed when the horizon ends is
  /// paid then.
  bool financed = false;
  /// Annual interest rate of the loan (nominal, compounded monthly). Default 0.085: the US bank
  /// prime loan rate from 2023-07-27 (Federal Reserve H.15, FRED series PRIME), the base rate
  /// banks post for business loans; a lender adds its spread.
  double annual_rate = 0.085;
  /// Months over which the loan is repaid. Default 36: the 3 years of onprem_costs'
  /// amortisation_years (the horizon of the published H100 TCO comparisons).
  int term_months = 36;

  /// The residual value as a share of capital at the end of `horizon_months`.
  [[nodiscard]] constexpr double residual_share(double horizon_months) const {
    if (residual_fraction) return *residual_fraction;
    const double left = 1.0 - horizon_months / (12.0 * useful_life_years);
    return left > 0.0 ? left : 0.0;
  }

  /// Throws invalid_input naming the field.
  constexpr void validate() const {
    detail::check_input(detail::finite_positive(useful_life_years) && useful_life_years <= 50.0,
                        "owned_finance.useful_life_years must be in (0, 50]", useful_life_years);
    if (residual_fraction)
      detail::check_input(detail::finite_nonnegative(*residual_fraction) &&
                              *residual_fraction <= 1.0,
                          "owned_finance.residual_fraction must be between 0 and 1 (a share of "
                          "capital)",
                          *residual_fraction);
    detail::check_input(detail::finite_nonnegative(annual_rate) && annual_rate <= 1.0,
                        "owned_finance.annual_rate must be between 0 and 1 (0.085: 8.5% a year)",
                        annual_rate);
    detail::check_input(term_months >= 1 && term_months <= 600,
                        "owned_finance.term_months must be between 1 and 600", term_months);
  }
};

/// The equal monthly payment that repays `principal` over `months` at `annual_rate` (compounded
/// monthly): P i / (1 - (1 + i)^-n), i = annual_rate / 12; P / n at a zero rate.
inline money annuity_payment(money principal, double annual_rate, int months) {
  detail::check_input(months >= 1, "annuity_payment: months must be at least 1", months);
  detail::check_input(detail::finite_nonnegative(annual_rate),
                      "annuity_payment: annual_rate must be finite and not negative", annual_rate);
  const double i = annual_rate / 12.0;
  if (i == 0.0) return principal / (1.0 * months);
  return principal * (i / (1.0 - std::pow(1.0 + i, -1.0 * months)));
}

/// What is still owed on that loan after `paid` payments: P (1 + i)^k - A ((1 + i)^k - 1) / i.
inline money loan_balance(money principal, double annual_rate, int months, int paid) {
  if (paid >= months) return money{};
  const money a = annuity_payment(principal, annual_rate, months);
  const double i = annual_rate / 12.0;
  if (i == 0.0) return principal - (1.0 * paid) * a;
  const double g = std::pow(1.0 + i, 1.0 * paid);
  return g * principal - ((g - 1.0) / i) * a;
}

/// One month of a horizon: what each option pays in it, and in all months up to it.
struct horizon_month {
  int month = 0;  ///< 0: the day the servers are bought; 1..H the months
  money cloud{}, owned{}, hybrid{};
  money cloud_cumulative{}, owned_cumulative{}, hybrid_cumulative{};
};

/// Renting, owning, and an owned base with cloud burst, over the same horizon at the same
/// occupancy. Each total is the sum of its monthly lines.
struct horizon_costs {
  int months = 0;
  double occupancy = 0.0;  ///< share of the horizon's hours the fleet is busy
  int gpus = 0;            ///< GPUs busy at once when the fleet is busy (rented)
  int owned_gpus = 0;      ///< owned fleet, whole servers
  double hybrid_owned_fraction = 0.0;
  int hybrid_owned_gpus = 0;  ///< the hybrid's owned base, whole servers
  int hybrid_burst_gpus = 0;  ///< rented above the base while the fleet is busy
  owned_finance finance{};
  double residual_share = 0.0;  ///< of capital, at the horizon's end
  money capex{}, hybrid_capex{};
  money residual{}, hybrid_residual{};  ///< credited in the last month
  money payment{}, hybrid_payment{};    ///< financed: the monthly payment (else 0)
  money payoff{}, hybrid_payoff{};      ///< financed: still owed at the end, paid then
  money owned_running{}, hybrid_running{};  ///< a month of running costs at the occupancy
  money cloud_month{}, burst_month{};       ///< a month of renting the fleet / the burst
  energy owned_energy{};  ///< drawn by the owned fleet over the horizon (busy and idle), x PUE
  energy busy_energy{};   ///< of it, by the busy hours: occupancy x busy power x hours x PUE
  money cloud_total{}, owned_total{}, hybrid_total{};
  /// Above this occupancy owning costs less than renting over the horizon, with the residual
  /// value and financing counted; NaN for commitment terms; +infinity if never.
  double break_even_occupancy = 0.0;
  std::vector<horizon_month> monthly;  ///< months 0..H
};

namespace detail {
/// The owned side's line in month m of H: capital (cash, month 0) or payments (financed),
/// running costs from month 1, the payoff and the residual value in month H.
inline money owned_line(int m, int h, money capex, money payment, money payoff, money running,
                        money residual, const owned_finance& fin) {
  money line{};
  if (m == 0) return fin.financed ? line : capex;
  line = running;
  if (fin.financed && m <= fin.term_months) line += payment;
  if (m == h) line += payoff - residual;
  return line;
}
}  // namespace detail

/// The whole servers nearest `fraction` of `gpus` (0 when fraction is 0).
constexpr int whole_server_gpus(int gpus, double fraction, int per_server) {
  const int per = per_server > 0 ? per_server : 1;
  const double want = fraction * gpus / per;
  return static_cast<int>(want + 0.5) * per;
}

/// Cloud, owned and hybrid over `months` months with the fleet `f` busy a share `occupancy` of
/// the hours (rented at `cloud_per_gpu_hour` on `term`; on demand bills the busy hours, a
/// commitment every hour). The hybrid owns whole servers nearest `hybrid_owned_fraction` of the
/// GPUs and rents the rest while busy. Owned costs: capital (up front or financed), running
/// costs every month (onprem_month: maintenance, colocation, staff, electricity at the
/// occupancy), less the residual value in the last month.
inline horizon_costs cost_over_horizon(const onprem_fleet& f, money_rate cloud_per_gpu_hour,
                                       price_term term, double occupancy, int months,
                                       const owned_finance& fin,
                                       double hybrid_owned_fraction) {
  fin.validate();
  detail::check_utilization(occupancy, "occupancy must be between 0 and 1");
  detail::check_input(months >= 1 && months <= 1200, "the horizon must be 1 to 1200 months",
                      months);
  detail::check_input(detail::finite_nonnegative(hybrid_owned_fraction) &&
                          hybrid_owned_fraction <= 1.0,
                      "hybrid_owned_fraction must be between 0 and 1", hybrid_owned_fraction);
  horizon_costs h;
  h.months = months;
  h.occupancy = occupancy;
  h.gpus = f.gpus;
  h.owned_gpus = f.owned_gpus();
  h.finance = fin;
  h.hybrid_owned_fraction = hybrid_owned_fraction;
  h.residual_share = fin.residual_share(1.0 * months);
  const auto owned_side = [&](const onprem_fleet& fleet, money& capex, money& residual,
                              money& payment, money& payoff, money& running) {
    capex = onprem_capex(fleet);
    residual = h.residual_share * capex;
    running = onprem_month_costs(fleet).running(occupancy);
    if (fin.financed) {
      payment = annuity_payment(capex, fin.annual_rate, fin.term_months);
      payoff = loan_balance(capex, fin.annual_rate, fin.term_months, months);
    }
  };
  owned_side(f, h.capex, h.residual, h.payment, h.payoff, h.owned_running);
  h.hybrid_owned_gpus = whole_server_gpus(f.gpus, hybrid_owned_fraction, f.node.gpus);
  h.hybrid_burst_gpus = f.gpus > h.hybrid_owned_gpus ? f.gpus - h.hybrid_owned_gpus : 0;
  if (h.hybrid_owned_gpus > 0) {
    onprem_fleet base = f;
    base.gpus = h.hybrid_owned_gpus;
    owned_side(base, h.hybrid_capex, h.hybrid_residual, h.hybrid_payment, h.hybrid_payoff,
               h.hybrid_running);
  }
  h.cloud_month = cloud_fleet_month(f.gpus, cloud_per_gpu_hour, term, occupancy);
  if (h.hybrid_burst_gpus > 0)
    h.burst_month = cloud_fleet_month(h.hybrid_burst_gpus, cloud_per_gpu_hour, term, occupancy);
  const fleet_power p = onprem_power(f);
  const duration span = (1.0 * months) * units::month;
  const double pue = f.site.pue;
  h.busy_energy = pue * (occupancy * (p.full_use * span));
  h.owned_energy = h.busy_energy + pue * ((1.0 - occupancy) * (p.idle * span));
  for (int m = 0; m <= months; ++m) {
    horizon_month line;
    line.month = m;
    line.cloud = m == 0 ? money{} : h.cloud_month;
    line.owned = detail::owned_line(m, months, h.capex, h.payment, h.payoff, h.owned_running,
                                    h.residual, fin);
    line.hybrid = detail::owned_line(m, months, h.hybrid_capex, h.hybrid_payment,
                                     h.hybrid_payoff, h.hybrid_running, h.hybrid_residual, fin) +
                  (m == 0 ? money{} : h.burst_month);
    h.cloud_total += line.cloud;
    h.owned_total += line.owned;
    h.hybrid_total += line.hybrid;
    line.cloud_cumulative = h.cloud_total;
    line.owned_cumulative = h.owned_total;
    line.hybrid_cumulative = h.hybrid_total;
    h.monthly.push_back(line);
  }
  // Both totals are linear in the occupancy: renting o C H, owning A + o E1 H (A: owning at
  // zero occupancy, E1: the extra electricity of a busy month).
  if (bills_idle_hours(term)) {
    h.break_even_occupancy = std::numeric_limits<double>::quiet_NaN();
  } else {
    const onprem_month om = onprem_month_costs(f);
    const double e1 = om.energy_full_use.in(units::usd) * months;
    const double a = h.owned_total.in(units::usd) - occupancy * e1;
    const double c =
        cloud_fleet_month(f.gpus, cloud_per_gpu_hour, term, 1.0).in(units::usd) * months;
    const double u = c > e1 ? a / (c - e1) : detail::infinity();
    h.break_even_occupancy = u <= 1.0 ? (u > 0.0 ? u : 0.0) : detail::infinity();
  }
  return h;
}

}  // namespace gpuplan
