// tools/gpuplan/cost_output.hpp: `gpuplan cost`'s computation and its report, as text and JSON.
//
// cmd_cost.cpp turns the command line into a cost_request; evaluate() runs the library
// (plan/cost.hpp, models/cost.hpp) on it; cost_text() and cost_json() print the one result.
#pragma once

#include "chart.hpp"

#include <gpuplan/io/prices_json.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/power.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/serving_cost.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpuplan::cli {

/// The owned fleet of `gpus` GPUs of type `gpu` in servers like `node` (its GPU replaced, and its
/// published maximum power dropped, when it held another GPU), with the book's on-prem costs.
/// Shared by `gpuplan cost` (cloud against owning, hybrid) and `gpuplan capacity --hybrid`.
onprem_fleet owned_fleet(const node_spec& node, const gpu_spec& gpu, int gpus,
                         const io::price_book& book, const site_spec& site,
                         const node_power_assumptions& power_model);

/// What to compare the run against.
struct cost_comparisons {
  bool cloud = false;
  bool onprem = false;
  bool hybrid = false;
  [[nodiscard]] bool any() const { return cloud || onprem || hybrid; }
};

/// Everything `gpuplan cost` was asked, resolved to library inputs.
struct cost_request {
  run_usage usage{};
  std::string gpu_source;        ///< "catalog", "file", "probe"
  io::price_book book;           ///< the default book, or --prices over it
  run_cost_inputs inputs{};      ///< inputs.book is set from `book` by evaluate()
  std::string intensity_source;  ///< "site default", "--carbon-intensity", "region france"
  cost_comparisons compare{};
  double utilization = 1.0;    ///< share of hours the fleet is in use
  std::vector<double> demand;  ///< GPUs needed per hour, for the hybrid
  /// Set when the usage comes from the step-time model (`gpuplan train`'s flags + --tokens).
  std::optional<modelled_training_run> training;
  std::string training_model;  ///< the model's name, for the report
  reliability_assumptions training_reliability;  ///< what the training run's ETTR rests on
  int rampup_start = 0, rampup_increment = 0;    ///< the run's batch-size ramp-up (0: none)
  double rampup_samples = 0.0;
  /// Set when a serving deployment is priced (`gpuplan serve`'s flags): evaluate() prices a month
  /// of it at the serving model's operating point and sets `usage` from it.
  std::optional<serving_plan> serving;
  std::string serving_model;
  std::pair<int, int> serving_lengths{};  ///< prompt and output tokens per request
};

struct cost_result {
  run_cost_report run{};
  std::optional<serving_cost_report> serving;  ///< when the request priced a serving deployment
  std::optional<cloud_onprem_comparison> comparison;
  std::optional<money> onprem_run_cost;  ///< the run on owned GPUs at the fleet's utilization
  std::optional<hybrid_plan> hybrid;
  money_rate onprem_gpu_hour{};
  /// The run's nodes in racks at the site (models/power.hpp): set when the GPU count is known.
  std::optional<rack_plan> racks;
  /// Why the nodes could not be racked (one node above the rack budget or the site's cooling).
  std::string racks_error;
  node_spec rack_node{};  ///< the node racked: the run's, its GPU the run's
  bool rack_gpu_swapped = false;  ///< the node's own GPU was another (its chassis, the run's GPU)
};

/// Runs the library; throws gpuplan::invalid_input or io::error on bad input.
cost_result evaluate(cost_request& r);

/// The price term named `t` (on_demand|commit_1yr|commit_3yr|spot); usage_error naming `who`.
price_term term_named(const std::string& t, const std::string& who);

/// Money for people: "$12.34", "$45678", "$1.23M" (the cost report's and the search's).
std::string money_text(money m);

std::string cost_text(const cost_request& r, const cost_result& c);
nlohmann::json cost_json(const cost_request& r, const cost_result& c);

/// The cumulative cost of cloud and owning, month by month over the horizon, for charts.
struct cumulative_point {
  double month;
  double cloud_usd;
  double onprem_usd;
};
std::vector<cumulative_point> cumulative_costs(const cloud_onprem_comparison& c);

/// The cumulative cost chart of a comparison: cloud and owned, in $M, month by month.
chart::chart_spec cumulative_chart(const cloud_onprem_comparison& c);

}  // namespace gpuplan::cli
