// gpuplan/plan/cost_report.hpp: the cost comparison `gpuplan cost` prints, in one call.
//
//   cost_report_inputs in;
//   in.usage = run_usage::of(catalog::h100_sxm, 64, 240.0 * units::h);
//   in.compare.onprem = true;
//   const cost_report r = report_cost(in);   // r.run.cost, r.comparison->break_even_months, ...
//
// The workload is one of three:
//   - GPU time given (cost_report_inputs::usage), as a model card reports it;
//   - a training run (cost_report_inputs::training): the step-time and reliability models give its
//     GPU time, GPUs and nodes (plan/training_cost.hpp), plan/training_verdict.hpp its memory
//     verdict;
//   - a serving deployment (cost_report_inputs::serving): a month of its GPUs at its operating
//     point (plan/serving_cost.hpp), plan/serving_fit.hpp its memory verdict (serving_fit).
// report_cost prices it (plan/cost.hpp: price, power, energy, carbon), compares renting it with
// owning the servers (models/cost.hpp: break-even utilization and month, cumulative costs), sizes
// an owned base with cloud burst for an hourly demand (hybrid), and places the run's nodes in racks
// at the site (models/power.hpp). io/cost_json.hpp writes the report as `gpuplan cost --json`.
//
// It reads the training, serving and fit models, so it is heavier to compile than plan/cost.hpp:
// include it by name (the umbrella <gpuplan/gpuplan.hpp> leaves it out).
#pragma once

#include <gpuplan/catalog/nodes.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/cost_horizon.hpp>
#include <gpuplan/models/power.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/serving_fit.hpp>
#include <gpuplan/plan/training_verdict.hpp>
#include <gpuplan/plan/serving_cost.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <gpuplan/specs/enum_names.hpp>

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

/// What the report prices: GPU time given, a modelled training run or a serving deployment.
enum class cost_workload : unsigned char { usage, train, serve };
/// The names of cost_workload, as the CLI and JSON spell them (specs/enum_names.hpp).
inline constexpr enumerator<cost_workload> cost_workload_names[] = {
    {cost_workload::usage, "usage"}, {cost_workload::train, "train"}, {cost_workload::serve, "serve"}};
constexpr const auto& enumerators(cost_workload) { return cost_workload_names; }

/// What to compare the run against.
struct cost_comparisons {
  bool cloud = false;   ///< renting against owning (the same comparison as onprem)
  bool onprem = false;  ///< owning against renting: break-even utilization and month
  bool hybrid = false;  ///< an owned base with cloud burst over cost_report_inputs::demand
  [[nodiscard]] constexpr bool any() const { return cloud || onprem || hybrid; }
  [[nodiscard]] constexpr bool owning() const { return cloud || onprem; }
};

/// A training run to price: the step-time model's plan, its token budget, and the reliability
/// model's assumptions (failures and checkpoints; reliability_assumptions{.enabled = false}
/// prices the steady state).
struct training_workload {
  training_plan plan{};
  token_count tokens{};
  reliability_assumptions reliability{};
};

/// Where the report's inputs came from, written beside its figures. The defaults name the
/// library's own fields; the command-line tool names its flags.
struct cost_sources {
  std::string gpu = "catalog";  ///< the GPU spec: "catalog", "file", "probe", "model"
  std::string grid = "site default (US, LLaMA factor)";  ///< where site.grid came from
  /// Where a price given per GPU-hour (run_cost_inputs::price_per_gpu_hour) came from.
  std::string price = "run_cost_inputs.price_per_gpu_hour";
  /// The modelled workload's model as the report names it; empty: its transformer_spec::name.
  std::string model;
  std::string rack_budget = "site_spec.rack_budget";  ///< named when one node is over it
  std::string cooling = "site_spec.cooling";          ///< named when one node is over it
};

/// Everything report_cost reads.
struct cost_report_inputs {
  /// The GPU time, when neither `training` nor `serving` is set (gpus 0: the count unknown; the
  /// comparison then prices unknown_fleet_gpus and no racks are placed).
  run_usage usage{};
  std::optional<training_workload> training;  ///< set: price this run (usage is its own)
  std::optional<serving_plan> serving;        ///< set: price a month of this deployment
  /// Price, term, provider, power, site, embodied carbon. pricing.node is the server of a run
  /// given as usage (a modelled workload's plan names its own). A comparison needs a price: with
  /// compare.any() the report requires one whatever pricing.require_price says.
  run_cost_inputs pricing{};
  cost_comparisons compare{};
  /// The occupancy of the compared fleet: the share of the horizon's hours it is busy (renting on
  /// demand bills them; owning draws busy power in them). How hard a busy GPU works is the duty:
  /// pricing.utilization for the run, fleet_duty for the owned fleet.
  double fleet_utilization = 1.0;
  /// Kernel duty of an owned GPU while busy (onprem_fleet::in_use_duty). Unset: 1, the model
  /// cards' convention of a busy GPU at its board power.
  std::optional<double> fleet_duty;
  /// The horizon of the comparison in whole months; 0: the owned costs' amortisation years.
  int horizon_months = 0;
  /// Residual value and financing of the owned servers (cost_over_horizon).
  owned_finance finance{};
  /// The hybrid's owned base as a share of the fleet's GPUs (whole servers nearest it), the rest
  /// rented while busy. Default 0.5: no published split is standard, so the midpoint; the
  /// hybrid's total is linear in it between all-cloud (0) and all-owned (1), the other two
  /// columns.
  double hybrid_owned_fraction = 0.5;
  std::vector<double> demand;  ///< GPUs needed in each hour, for compare.hybrid
  /// The owned servers' costs; unset: the catalog's price of pricing.node when its GPU is the
  /// run's (catalog::onprem_costs_for: DGX H100, DGX A100), else onprem_costs{}.
  std::optional<onprem_costs> owned_costs;
  cost_sources sources{};

  /// Throws gpuplan::invalid_input naming the field.
  void validate() const {
    detail::check_input(!(training && serving),
                        "cost_report_inputs: set training or serving, not both");
    detail::check_utilization(fleet_utilization,
                              "cost_report_inputs.fleet_utilization must be between 0 and 1");
    detail::check_input(!compare.hybrid || !demand.empty(),
                        "cost_report_inputs.demand must give the GPUs needed in each hour for "
                        "compare.hybrid");
    if (fleet_duty)
      detail::check_utilization(*fleet_duty,
                                "cost_report_inputs.fleet_duty must be between 0 and 1");
    detail::check_input(horizon_months >= 0 && horizon_months <= 1200,
                        "cost_report_inputs.horizon_months must be between 0 (the amortisation "
                        "years) and 1200",
                        horizon_months);
    finance.validate();
    detail::check_input(detail::finite_nonnegative(hybrid_owned_fraction) &&
                            hybrid_owned_fraction <= 1.0,
                        "cost_report_inputs.hybrid_owned_fraction must be between 0 and 1",
                        hybrid_owned_fraction);
    detail::check_input(compare.hybrid || demand.empty(),
                        "cost_report_inputs.demand is read only by compare.hybrid");
    if (training)
      detail::check_input(detail::finite_positive(training->tokens.value),
                          "cost_report_inputs.training.tokens must be positive and finite",
                          training->tokens.value);
  }
};

/// The GPUs compared when the run's count is unknown (GPU time given alone): one 8-GPU server,
/// the DGX/HGX H100 whose price is onprem_costs' default (specs/pricing.hpp).
inline constexpr int unknown_fleet_gpus = 8;

/// Why the run's nodes were not placed in racks.
enum class rack_refusal : unsigned char {
  none,         ///< placed (or no GPU count to place)
  rack_budget,  ///< one node draws more than site_spec.rack_budget
  cooling,      ///< one node draws more than the site's cooling takes from a rack
};
inline constexpr enumerator<rack_refusal> rack_refusal_names[] = {
    {rack_refusal::none, "none"},
    {rack_refusal::rack_budget, "rack_budget"},
    {rack_refusal::cooling, "cooling"}};
constexpr const auto& enumerators(rack_refusal) { return rack_refusal_names; }

/// The cost comparison: everything `gpuplan cost` prints. Like run_cost_inputs, it views the
/// caller's price book (inputs.pricing.book, run.price_entry) and provider: keep them alive while
/// the report is read.
struct cost_report {
  /// The inputs answered; pricing.node is the node the run ran on (a modelled workload's).
  cost_report_inputs inputs;
  cost_workload workload = cost_workload::usage;
  run_cost_report run{};  ///< price, cost, power, energy lines, carbon; run.usage the GPU time
  std::optional<modelled_training_run> training;  ///< workload train: step, wall, reliability
  std::optional<serving_cost_report> serving;     ///< workload serve: the operating point, month
  std::optional<training_memory_verdict> training_memory;  ///< workload train: fits in memory?
  std::optional<fit_report> serving_memory;                ///< workload serve: fits in memory?
  /// compare.cloud or onprem: renting the run's GPUs against owning them.
  std::optional<cloud_onprem_comparison> comparison;
  /// The run on owned GPUs: its share of the fleet's busy GPU-hours over the horizon times the
  /// owned total (its GPU-hours x the owned cost per GPU-hour used); unset when the run needs
  /// more GPU-hours than the fleet is busy over the horizon.
  std::optional<money> onprem_run_cost;
  /// compare.cloud or onprem: cloud, owned and hybrid month by month over the same horizon.
  std::optional<horizon_costs> horizon;
  money_rate onprem_gpu_hour{};          ///< owned cost per GPU-hour used
  std::optional<hybrid_plan> hybrid;     ///< compare.hybrid
  /// Racks, heat and facility power of the run's nodes, when the GPU count is known.
  std::optional<rack_plan> racks;
  rack_refusal racks_refused = rack_refusal::none;
  std::string racks_error;  ///< why they were not placed, for people (names the source)
  node_spec rack_node{};    ///< the node racked: the run's, its GPU the run's (node_around)
  bool rack_gpu_swapped = false;  ///< the node's own GPU was another: its chassis, the run's GPU

  /// The modelled plan's memory verdict; true for GPU time given.
  [[nodiscard]] bool fits() const {
    return (!training_memory || training_memory->fits()) &&
           (!serving_memory || serving_memory->fits());
  }
  /// The modelled workload's model name (cost_sources::model, else the spec's name).
  [[nodiscard]] std::string model_name() const {
    if (!inputs.sources.model.empty()) return inputs.sources.model;
    if (inputs.training) return std::string(inputs.training->plan.model.name.view());
    if (inputs.serving) return std::string(inputs.serving->model.name.view());
    return {};
  }
};

namespace detail {
/// The server a run's GPUs are owned and racked in: `chassis` around `gpu` (catalog::node_around:
/// its GPU replaced and its published maximum power dropped when it held another), and whether
/// it held another GPU.
struct owned_server {
  node_spec node{};
  bool gpu_swapped = false;
};
inline owned_server owned_server_of(const node_spec& chassis, const gpu_spec& gpu) {
  return {catalog::node_around(chassis, gpu), !(chassis.gpu.name == gpu.name)};
}
}  // namespace detail

/// The owned fleet of `gpus` GPUs of type `gpu` bought as servers like `chassis` (node_around:
/// its GPU replaced and its published maximum power dropped when it held another), costing
/// `costs` when given, else the catalog price of the server when the GPU is its own
/// (catalog::onprem_costs_for), else onprem_costs{}.
inline onprem_fleet owned_fleet(const node_spec& chassis, const gpu_spec& gpu, int gpus,
                                const std::optional<onprem_costs>& costs, const site_spec& site,
                                const node_power_assumptions& power_model = {}) {
  onprem_fleet f;
  const detail::owned_server server = detail::owned_server_of(chassis, gpu);
  f.costs = costs                ? *costs
            : !server.gpu_swapped ? catalog::onprem_costs_for(chassis)
                                  : onprem_costs{};
  f.node = server.node;
  f.gpus = gpus;
  f.site = site;
  f.power_model = power_model;
  return f;
}

/// The cumulative cost of renting and of owning at the end of one month.
struct cumulative_point {
  double month = 0.0;
  money cloud{};
  money onprem{};
};

/// Month by month, 0 to the horizon rounded up: what a chart of the comparison draws.
inline std::vector<cumulative_point> cumulative_costs(const cloud_onprem_comparison& c) {
  std::vector<cumulative_point> pts;
  const int months = static_cast<int>(std::ceil(c.horizon_months));
  for (int m = 0; m <= months; ++m)
    pts.push_back({1.0 * m, c.cloud_cumulative(m), c.onprem_cumulative(m)});
  return pts;
}

namespace detail {

/// `v` with `digits` digits after the point, as printf's %.Nf (correctly rounded).
inline std::string fixed_text(double v, int digits) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, digits);
  return r.ec == std::errc() ? std::string(buf, r.ptr) : std::string("?");
}

/// Prices the workload: the usage, the modelled run or serving month, and the memory verdict.
inline void price_workload(cost_report& r) {
  const cost_report_inputs& in = r.inputs;
  if (in.serving) {
    r.workload = cost_workload::serve;
    r.serving = price_serving(*in.serving, in.pricing);
    r.run = r.serving->month;
    r.serving_memory = serving_fit(*in.serving);
  } else if (in.training) {
    const training_plan& p = in.training->plan;
    r.workload = cost_workload::train;
    r.training = modelled_training(p, in.training->tokens, in.training->reliability);
    r.run = price_training_run(p, *r.training, in.pricing);
    r.training_memory = training_verdict(p.model, p.node.gpu, p.layout, p.config);
  } else {
    r.workload = cost_workload::usage;
    r.run = price_run(in.usage, in.pricing);
  }
}

/// Renting against owning and the hybrid, on the run's GPUs (unknown_fleet_gpus when unknown).
inline void compare_owning(cost_report& r) {
  const cost_report_inputs& in = r.inputs;
  const run_usage& u = r.run.usage;
  const int gpus = u.gpus > 0 ? u.gpus : unknown_fleet_gpus;
  onprem_fleet f =
      owned_fleet(in.pricing.node, u.gpu, gpus, in.owned_costs, in.pricing.site,
                  in.pricing.power_model);
  if (in.fleet_duty) f.in_use_duty = *in.fleet_duty;
  if (in.compare.owning()) {
    const int months = in.horizon_months > 0
                           ? in.horizon_months
                           : static_cast<int>(std::ceil(12.0 * f.costs.amortisation_years));
    r.comparison = compare_cloud_onprem(f, r.run.price, in.pricing.term, in.fleet_utilization,
                                        1.0 * months);
    r.horizon = cost_over_horizon(f, r.run.price, in.pricing.term, in.fleet_utilization, months,
                                  in.finance, in.hybrid_owned_fraction);
    // The fleet's busy GPU-hours over the horizon; the run priced on owned GPUs is its share of
    // the owned total, so it agrees with the monthly lines (none when it does not fit).
    const double busy_hours = in.fleet_utilization * gpus * (1.0 * months) *
                              (1.0 * units::month).in(units::h);
    const double run_hours = u.gpu_time.in(units::h);
    if (busy_hours > 0 && run_hours <= busy_hours * (1.0 + 1e-9)) {
      r.onprem_gpu_hour = r.horizon->owned_total / (busy_hours * units::h);
      r.onprem_run_cost = run_cost(u, r.onprem_gpu_hour);
    }
  }
  if (in.compare.hybrid) r.hybrid = plan_hybrid(in.demand, f, r.run.price);
}

/// Racks, heat and facility power of the run's nodes, each at its published maximum (DGX H100
/// 10.2 kW) when the GPU is the node's own, else the node model's maximum. A node that fits no
/// rack is reported (racks_refused, racks_error); the rest of the report stands.
inline void place_racks(cost_report& r) {
  const cost_report_inputs& in = r.inputs;
  const run_usage& u = r.run.usage;
  const owned_server server = owned_server_of(in.pricing.node, u.gpu);
  r.rack_node = server.node;
  r.rack_gpu_swapped = server.gpu_swapped;
  const int per_node = r.rack_node.gpus > 0 ? r.rack_node.gpus : 1;
  // a modelled run's own node count (its plan may spread it wider than its GPUs need)
  const int nodes = r.training ? r.training->nodes : (u.gpus + per_node - 1) / per_node;
  const power_assumptions pa{.basis = node_power_basis::published_maximum,
                             .node = in.pricing.power_model};
  const site_spec& site = in.pricing.site;
  const power one = planned_node_power(r.rack_node, pa);
  const power cooling_cap = site.limits.limit(site.cooling);
  const std::string lead = "one " + std::string(r.rack_node.name.view()) + " draws " +
                           fixed_text(one.in(units::kW), 1) + " kW, more than ";
  if (one > site.rack_budget) {
    r.racks_refused = rack_refusal::rack_budget;
    r.racks_error = lead + "the " + fixed_text(site.rack_budget.in(units::kW), 1) +
                    " kW rack budget (" + in.sources.rack_budget + ")";
  } else if (one > cooling_cap) {
    r.racks_refused = rack_refusal::cooling;
    r.racks_error = lead + std::string(to_string(site.cooling)) + " cooling takes from a rack (" +
                    fixed_text(cooling_cap.in(units::kW), 0) + " kW; " + in.sources.cooling +
                    ")";
  } else {
    r.racks = plan_racks(r.rack_node, nodes, site, pa);
  }
}

}  // namespace detail

/// The cost comparison of `in`: the workload priced (money, power, energy lines, carbon), its
/// memory verdict when modelled, cloud against owning and the hybrid when asked, and its nodes in
/// racks when the GPU count is known. Throws gpuplan::invalid_input naming the field on bad input
/// (no price for the GPU and term when one is needed, a node over the site's limits aside: that
/// one is reported in racks_error).
inline cost_report report_cost(const cost_report_inputs& in) {
  in.validate();
  cost_report r;
  r.inputs = in;
  if (in.training) r.inputs.pricing.node = in.training->plan.node;  // the step-time model's node
  if (in.serving) r.inputs.pricing.node = in.serving->node;  // the serving model's node
  r.inputs.pricing.require_price = in.pricing.require_price || in.compare.any();
  detail::price_workload(r);
  if (in.compare.any()) detail::compare_owning(r);
  if (r.run.usage.gpus > 0) detail::place_racks(r);
  return r;
}

}  // namespace gpuplan
