// tools/gpuplan/cost_output.hpp: `gpuplan cost`'s report for people.
//
// cmd_cost.cpp turns the command line into cost_report_inputs, the library composes the report
// (plan/cost_report.hpp report_cost) and writes its JSON (io/cost_json.hpp); cost_text() prints
// it for people.
#pragma once

#include "chart.hpp"

#include <gpuplan/io/prices_json.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/cost_horizon.hpp>
#include <gpuplan/plan/cost_report.hpp>

#include <optional>
#include <string>

namespace gpuplan::cli {

/// The owned servers' costs a price book sets (its "onprem" section, when a --prices file gave
/// one); nullopt: the library's (the catalog server's price, else onprem_costs{}).
std::optional<onprem_costs> owned_costs_of(const io::price_book& book);

/// The owned fleet of `gpus` GPUs of type `gpu` in servers like `node`, with the book's on-prem
/// costs (gpuplan::owned_fleet). Shared by `gpuplan cost` and `gpuplan capacity --hybrid`.
onprem_fleet owned_fleet(const node_spec& node, const gpu_spec& gpu, int gpus,
                         const io::price_book& book, const site_spec& site,
                         const node_power_assumptions& power_model);

/// The price term named `t` (on_demand|commit_1yr|commit_3yr|spot); usage_error naming `who`.
price_term term_named(const std::string& t, const std::string& who);

/// Money for people: "$12.34", "$45678", "$1.23M" (the cost report's and the search's).
std::string money_text(money m);

/// The report for people; `book` names where a price entry came from.
std::string cost_text(const cost_report& c, const io::price_book& book);

/// The cumulative cost chart of a comparison: cloud, owned and hybrid, in $M, month by month,
/// as the horizon's monthly lines add up (their last points are its totals).
chart::chart_spec cumulative_chart(const cloud_onprem_comparison& c, const horizon_costs& h);

}  // namespace gpuplan::cli
