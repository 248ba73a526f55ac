// gpuplan/io/fit_json.hpp: fit reports as JSON (the configurations behind them: io/json.hpp).
//
// The keys are a contract (docs/json-schema.md): fields may be added, never renamed. Sizes are
// integers in bytes (`_bytes`), rates in base units per second.
#pragma once

#include <gpuplan/io/json.hpp>
#include <gpuplan/plan/serving_fit.hpp>
#include <gpuplan/plan/training_verdict.hpp>

#include <cmath>
#include <string>

namespace gpuplan::io {

/// The most loaded GPU's memory against `capacity`: per_gpu in the fit --json contract.
inline nlohmann::json to_json(const memory_breakdown& m, data_size capacity) {
  nlohmann::json j = {{"weights_bytes", bytes_value(m.weights)},
          {"gradients_bytes", bytes_value(m.gradients)},
          {"optimizer_bytes", bytes_value(m.optimizer)},
          {"activations_bytes", bytes_value(m.activations)},
          {"kv_cache_bytes", bytes_value(m.kv_cache)},
          {"workspace_bytes", bytes_value(m.workspace)},
          {"overhead_bytes", bytes_value(m.overhead)},
          {"total_bytes", bytes_value(m.total())},
          {"capacity_bytes", bytes_value(capacity)},
          {"model_states_bytes", bytes_value(m.model_states())},
          {"host_bytes", bytes_value(m.host)},
          {"pipeline_stage", m.pipeline_stage}};
  // Per-phase peaks where the framework profile models them (transformers).
  if (m.phases.peak != training_phase::none)
    j["phases"] = {{"forward_loss_bytes", bytes_value(m.phases.forward_loss)},
                   {"backward_bytes", bytes_value(m.phases.backward)},
                   {"optimizer_bytes", bytes_value(m.phases.optimizer)},
                   {"reserved_bytes", bytes_value(m.phases.reserved)},
                   {"allocator_reserve_bytes", bytes_value(m.phases.allocator_reserve)},
                   {"cuda_context_bytes", bytes_value(m.phases.cuda_context)},
                   {"peak_phase", std::string(gpuplan::to_string(m.phases.peak))}};
  return j;
}

inline nlohmann::json to_json(const kv_cache_info& kv) {
  nlohmann::json j = {{"bytes_per_token", count_value(kv.bytes_per_token.in(units::B_per_token))},
                      {"page_size_bytes", bytes_value(kv.page_size)},
                      {"block_size", kv.block_size},
                      {"blocks", count_value(kv.blocks)},
                      {"available_bytes", bytes_value(kv.available)},
                      {"capacity_tokens", count_value(kv.capacity_tokens.in(units::token))},
                      {"max_concurrency", kv.max_concurrency}};
  if (kv.state_layers > 0) {  // a hybrid's linear-mixer layers: a state page per sequence each
    j["state_layers"] = kv.state_layers;
    j["state_bytes_per_sequence"] = bytes_value(kv.state_bytes);
  }
  return j;
}

inline nlohmann::json to_json(const advice& a) {
  return {{"change", std::string(a.change.view())},
          {"total_bytes", bytes_value(a.total)},
          {"capacity_bytes", bytes_value(a.capacity)},
          {"gpus", a.gpus},
          {"fits", a.fits},
          {"kind", std::string(to_string(a.kind))}};
}

/// A memory verdict's keys in a report that is not a fit report (`gpuplan train`, `serve`,
/// `cost`, `capacity` --json; docs/json-schema.md): "fits", "per_gpu_bytes" (the most loaded
/// GPU's total, fit --json's per_gpu.total_bytes) and "capacity_bytes", added to `j`.
inline void add_memory_verdict(nlohmann::json& j, data_size per_gpu, data_size capacity,
                               bool fits) {
  j["fits"] = fits;
  j["per_gpu_bytes"] = bytes_value(per_gpu);
  j["capacity_bytes"] = bytes_value(capacity);
}
/// A training plan's verdict (plan/training_verdict.hpp training_verdict).
inline void add_memory_verdict(nlohmann::json& j, const training_memory_verdict& v) {
  add_memory_verdict(j, v.per_gpu.total(), v.capacity, v.fits());
}
/// A fit report's verdict (serving_fit's, the fit's).
inline void add_memory_verdict(nlohmann::json& j, const fit_report& r) {
  add_memory_verdict(j, r.per_gpu.total(), r.capacity, r.fits());
}

/// The report's own fields: per_gpu, fits, headroom_bytes, advice and (serving) kv_cache, with
/// what a transformer's cache must hold (needed, holds_batch, fits).
inline nlohmann::json to_json(const fit_report& r) {
  nlohmann::json advice_list = nlohmann::json::array();
  for (const advice& a : r.advice_list()) advice_list.push_back(to_json(a));
  nlohmann::json j = {{"per_gpu", to_json(r.per_gpu, r.capacity)},
                      {"gpu_memory_bytes", bytes_value(r.gpu_memory)},
                      {"fits", r.fits()},
                      {"headroom_bytes", bytes_value(r.headroom())},
                      {"advice", advice_list}};
  if (r.inference) j["kv_cache"] = to_json(r.kv);
  if (!r.kv_needed.none()) {
    // what the cache must hold for the plan to fit (fit_report::kv_fits)
    j["kv_cache"]["needed"] = {{"batch", r.kv_needed.batch},
                               {"context", r.kv_needed.context},
                               {"max_model_len", r.kv_needed.model_len}};
    j["kv_cache"]["holds_batch"] = r.kv_batch();
    j["kv_cache"]["fits"] = r.kv_fits();
  }
  return j;
}

}  // namespace gpuplan::io
