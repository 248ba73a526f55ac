// examples/gpuplan/cost_output.hpp: `gpuplan cost`'s computation and its report, as text and JSON.
//
// cmd_cost.cpp turns the command line into a cost_request; evaluate() runs the library
// (plan/cost.hpp, models/cost.hpp) on it; cost_text() and cost_json() print the one result.
#pragma once

#include "chart.hpp"

#include <gpuplan/io/prices_json.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

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
  int fleet_gpus = 0;          ///< GPUs of the compared fleet (owned: whole servers)
  double utilization = 1.0;    ///< share of hours the fleet is in use
  std::vector<double> demand;  ///< GPUs needed per hour, for the hybrid
  /// Set when the usage comes from the step-time model (`gpuplan train`'s flags + --tokens).
  std::optional<modelled_training_run> training;
  std::string training_model;  ///< the model's name, for the report
};

struct cost_result {
  run_cost_report run{};
  std::optional<cloud_onprem_comparison> comparison;
  std::optional<money> onprem_run_cost;  ///< the run on owned GPUs at the fleet's utilization
  std::optional<hybrid_plan> hybrid;
  money_rate onprem_gpu_hour{};
};

/// Runs the library; throws gpuplan::invalid_input or io::error on bad input.
cost_result evaluate(cost_request& r);

/// The price term named `t` (on_demand|commit_1yr|commit_3yr|spot); usage_error naming `who`.
price_term term_named(const std::string& t, const std::string& who);

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
