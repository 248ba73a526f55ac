// gpuplan/io/reliability_json.hpp: the reliability model's figures as JSON (the "reliability"
// object of `gpuplan train --json` with --tokens and of `gpuplan cost --json`'s "training",
// docs/json-schema.md). Fields may be added, never renamed.
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <gpuplan/io/values.hpp>
#include <gpuplan/models/reliability.hpp>

#include <nlohmann/json.hpp>

#include <cmath>

namespace gpuplan::io {

/// The estimate `e` and what it rests on (`a`); an infinite MTTF or checkpoint interval (no
/// failures) is null.
inline nlohmann::json to_json(const reliability_estimate& e, const reliability_assumptions& a) {
  return {{"enabled", e.enabled},
          {"ettr", e.ettr},
          {"steady_state_s", e.productive.in(units::s)},
          {"expected_wall_s", e.wall.in(units::s)},
          {"mttf_hours", finite_or_null(e.mttf.in(units::h))},
          {"expected_interruptions", e.interruptions},
          {"checkpoint_interval_hours", finite_or_null(e.checkpoint_interval.in(units::h))},
          {"checkpoint_write_s", e.checkpoint_write.in(units::s)},
          {"restart_minutes", e.restart.in(units::minute)},
          {"lost_to_failures_hours", e.lost_to_failures.in(units::h)},
          {"lost_to_checkpoints_hours", e.lost_to_checkpoints.in(units::h)},
          {"failures_per_node_day", e.enabled ? nlohmann::json(a.failures_per_node_day) : nullptr},
          {"node_equivalents", e.node_equivalents},
          {"source", "first-order checkpoint/restart model (docs/models/cost.md, Reliability)"}};
}

}  // namespace gpuplan::io
