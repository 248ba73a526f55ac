// gpuplan/io/training_run_json.hpp: the training-run report (plan/training_run.hpp) as JSON, the
// `gpuplan train --json` contract (docs/json-schema.md). Times are seconds (`_s`) or hours
// (`_hours`), rates per second, FLOPs plain numbers; keys may be added, never renamed. The
// command adds "warnings" (the estimate notes as sentences, the same for every command).
#pragma once

#include <gpuplan/io/fit_json.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/io/reliability_json.hpp>
#include <gpuplan/plan/training_run.hpp>

#include <cmath>
#include <string>

namespace gpuplan::io {

/// The step's parts in seconds ("breakdown" of `gpuplan train --json` and `gpuplan search
/// --json`).
inline nlohmann::json breakdown_json(const step_breakdown& b) {
  return {{"compute_s", b.compute.in(units::s)},
          {"memory_bound_s", b.memory_bound.in(units::s)},
          {"tensor_parallel_s", b.tensor_parallel.in(units::s)},
          {"context_parallel_s", b.context_parallel.in(units::s)},
          {"expert_parallel_s", b.expert_parallel.in(units::s)},
          {"pipeline_bubble_s", b.bubble.in(units::s)},
          {"pipeline_p2p_s", b.pipeline_p2p.in(units::s)},
          {"data_parallel_s", b.data_parallel.in(units::s)},
          {"optimizer_s", b.optimizer.in(units::s)},
          {"offload_s", b.offload.in(units::s)},
          {"data_loading_s", b.data_loading.in(units::s)}};
}

/// FLOPs: model (no recompute), hardware (with the plan's recompute) and 6ND.
inline nlohmann::json flops_json(compute_amount model, compute_amount hardware,
                                 compute_amount six_nd) {
  return {{"model", model.in(units::FLOP)},
          {"hardware", hardware.in(units::FLOP)},
          {"six_nd", six_nd.in(units::FLOP)}};
}

/// The layout as `gpuplan train --json` writes it (a subset of to_json(parallel_layout)).
inline nlohmann::json training_layout_json(const parallel_layout& l) {
  return {{"dp", l.dp}, {"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep},
          {"zero", l.zero}, {"virtual_stages", l.virtual_stages},
          {"sequence_parallel", l.sequence_parallel},
          {"first_stage_layers", l.first_stage_layers}, {"last_stage_layers", l.last_stage_layers}};
}

namespace detail {

/// The step's keys: node, layout, batch, step time, throughput, MFU, breakdown, crossings.
inline nlohmann::json training_step_json(const training_plan& p, const step_breakdown& b) {
  return {{"model", std::string(p.model.name.view())},
          {"node", std::string(p.node.name.view())},
          {"gpu", std::string(p.node.gpu.name.view())},
          {"gpus", b.gpus},
          {"nodes", b.nodes},
          {"layout", training_layout_json(p.layout)},
          {"framework", std::string(gpuplan::to_string(p.config.framework))},
          {"global_batch", b.global_batch},
          {"seq", p.config.seq},
          {"micro_batches", b.micro_batches},
          {"step_time_s", b.total.in(units::s)},
          {"tokens_per_s", b.tokens_per_s.in(units::tokens_per_s)},
          {"samples_per_s", b.samples_per_s},
          {"mfu", b.mfu},
          {"hfu", b.hfu},
          {"bottleneck", std::string(gpuplan::to_string(b.bottleneck))},
          {"breakdown", breakdown_json(b)},
          {"crosses_nodes", {{"tp", b.tp_crosses_nodes}, {"cp", b.cp_crosses_nodes},
                             {"ep", b.ep_crosses_nodes}, {"dp", b.dp_crosses_nodes},
                             {"pp", b.pp_crosses_nodes}}},
          {"flops_per_step", flops_json(b.model_flops, b.hardware_flops, b.six_nd)}};
}

/// The budget's keys, added to the report's object.
inline void add_training_budget(nlohmann::json& j, const training_plan& p,
                                const training_budget_report& b) {
  j["tokens"] = b.tokens.in(units::token);
  j["time_to_train_s"] = b.steady_wall().in(units::s);
  if (p.config.rampup_start > 0)
    j["rampup"] = {{"start", p.config.rampup_start},
                   {"increment", p.config.rampup_increment},
                   {"samples", p.config.rampup_samples}};
  j["gpu_hours"] = b.steady_gpu_time().in(units::h);
  j["expected_time_to_train_s"] = b.run.reserved_wall.in(units::s);
  j["expected_gpu_hours"] = b.run.usage.gpu_time.in(units::h);
  j["reliability"] = to_json(b.run.reliability, b.assumptions);
  j["budget_flops"] = flops_json(b.flops.model, b.flops.hardware, b.flops.six_nd);
}

}  // namespace detail

/// The scaling curve with each point's memory verdict ("scaling").
inline nlohmann::json to_json(const training_scaling_report& s) {
  nlohmann::json pts = nlohmann::json::array();
  std::size_t i = 0;
  for (const scaling_point& p : s.curve) {
    nlohmann::json j{{"gpus", p.gpus}, {"dp", p.dp}, {"global_batch", p.global_batch},
                     {"valid", p.valid}, {"limit", std::string(gpuplan::to_string(p.limit))}};
    if (const auto& v = s.memory[i++]) add_memory_verdict(j, *v);
    if (p.valid) {
      j["micro_batches"] = p.micro_batches;
      j["step_time_s"] = p.step.in(units::s);
      j["tokens_per_s"] = p.tokens_per_s.in(units::tokens_per_s);
      j["tokens_per_s_per_gpu"] = p.tokens_per_s_per_gpu.in(units::tokens_per_s);
      j["mfu"] = p.mfu;
      j["efficiency"] = p.efficiency;
      j["communication_share"] = p.communication_share;
      j["bubble_share"] = p.bubble_share;
      j["compute_share"] = p.compute_share;
      j["bottleneck"] = std::string(gpuplan::to_string(p.bottleneck));
    }
    pts.push_back(j);
  }
  return {{"mode", std::string(gpuplan::to_string(s.curve.mode))}, {"points", pts}};
}

/// The deadline's answer and its memory verdict ("deadline").
inline nlohmann::json to_json(const training_deadline_report& d) {
  const training_gpus& n = d.answer;
  nlohmann::json j{{"days", d.deadline.in(units::d)},
                   {"met", n.met},
                   {"gpus", n.gpus},
                   {"nodes", n.nodes},
                   {"dp", n.dp},
                   {"global_batch", n.global_batch},
                   {"wall_time_s", n.wall_time.in(units::s)},
                   {"ettr", n.reliability.ettr},
                   {"tokens_per_s", n.tokens_per_s.in(units::tokens_per_s)},
                   {"mfu", n.mfu}};
  if (d.memory) add_memory_verdict(j, *d.memory);
  return j;
}

/// The whole report (`gpuplan train --json` less "warnings"): the step and the plan's memory
/// verdict; with a budget its time, GPU-hours, FLOPs and reliability; "scaling" and "deadline"
/// when asked for. The run's price (report.cost) is `gpuplan cost`'s, not written here.
inline nlohmann::json to_json(const training_run_report& r) {
  nlohmann::json j = detail::training_step_json(r.plan, r.step);
  add_memory_verdict(j, r.memory);
  if (r.budget) detail::add_training_budget(j, r.plan, *r.budget);
  if (r.scaling) j["scaling"] = to_json(*r.scaling);
  if (r.deadline) j["deadline"] = to_json(*r.deadline);
  return j;
}

}  // namespace gpuplan::io
