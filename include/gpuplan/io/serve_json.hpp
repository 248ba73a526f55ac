// gpuplan/io/serve_json.hpp: serving operating points, curves, SLO results and disaggregated
// pools as JSON (the `gpuplan serve --json` contract, docs/json-schema.md). Times are seconds
// (`_s`), rates per second; fields may be added, never renamed.
#pragma once

#include <gpuplan/io/json.hpp>
#include <gpuplan/models/serving.hpp>

#include <string>

namespace gpuplan::io {

inline nlohmann::json to_json(const serving_step& s) {
  return {{"gemm_s", s.gemm.in(units::s)},
          {"attention_s", s.attention.in(units::s)},
          {"elementwise_s", s.elementwise.in(units::s)},
          {"lm_head_s", s.lm_head.in(units::s)},
          {"communication_s", s.communication.in(units::s)},
          {"overhead_s", s.overhead.in(units::s)},
          {"total_s", s.total().in(units::s)},
          {"compute_floor_s", s.compute_floor.in(units::s)},
          {"memory_floor_s", s.memory_floor.in(units::s)},
          {"gemm_math_s", s.gemm_math.in(units::s)},
          {"gemm_memory_s", s.gemm_memory.in(units::s)},
          {"compute_bound", s.compute_bound()}};
}

/// One operating point: the latencies a request sees and the deployment's throughput.
inline nlohmann::json to_json(const serving_point& p) {
  return {{"concurrency", p.concurrency},
          {"decoding", p.decoding},
          {"kv_capacity_sequences", p.kv_capacity},
          {"kv_limited", p.kv_limited},
          {"saturated", p.saturated},
          {"ttft_s", p.ttft.in(units::s)},
          {"tpot_s", p.tpot.in(units::s)},
          {"itl_s", p.itl.in(units::s)},
          {"e2e_s", p.e2e.in(units::s)},
          {"ttft_p50_s", p.ttft_p50.in(units::s)},
          {"ttft_p90_s", p.ttft_p90.in(units::s)},
          {"ttft_p99_s", p.ttft_p99.in(units::s)},
          {"e2e_p50_s", p.e2e_p50.in(units::s)},
          {"e2e_p90_s", p.e2e_p90.in(units::s)},
          {"e2e_p99_s", p.e2e_p99.in(units::s)},
          {"tpot_p50_s", p.tpot_p50.in(units::s)},
          {"tpot_p99_s", p.tpot_p99.in(units::s)},
          {"itl_p50_s", p.itl_p50.in(units::s)},
          {"itl_p99_s", p.itl_p99.in(units::s)},
          {"e2e_sd_s", p.e2e_sd.in(units::s)},
          {"output_tokens_per_s", p.output_tokens_per_s.in(units::tokens_per_s)},
          {"output_tokens_per_s_per_gpu", p.output_tokens_per_s_per_gpu.in(units::tokens_per_s)},
          {"output_tokens_per_s_per_replica",
           p.output_tokens_per_s_per_replica.in(units::tokens_per_s)},
          {"requests_per_s", p.requests_per_s.in(units::requests_per_s)},
          {"step", to_json(p.step)}};
}

/// A request mix: its classes' prompt and output tokens and shares (as given, relative).
inline nlohmann::json to_json(const request_mix& m) {
  nlohmann::json a = nlohmann::json::array();
  for (int i = 0; i < m.size(); ++i)
    a.push_back({{"input_len", m.at(i).input_tokens},
                 {"output_len", m.at(i).output_tokens},
                 {"share", m.at(i).share / m.total_share()}});
  return a;
}

/// The throughput-latency curve: a list of operating points.
inline nlohmann::json to_json(const serving_curve& c) {
  nlohmann::json a = nlohmann::json::array();
  for (const serving_point& x : c) a.push_back(to_json(x));
  return a;
}

inline nlohmann::json to_json(const serving_slo& s) {
  return {{"ttft_s", s.ttft.value > 0.0 ? nlohmann::json(s.ttft.in(units::s)) : nullptr},
          {"tpot_s", s.tpot.value > 0.0 ? nlohmann::json(s.tpot.in(units::s)) : nullptr}};
}

inline nlohmann::json to_json(const slo_result& r) {
  return {{"found", r.found}, {"best", r.found ? to_json(r.best) : nlohmann::json(nullptr)}};
}

inline nlohmann::json to_json(const disaggregated_result& r) {
  return {{"prefill_requests_per_s_per_replica",
           r.prefill_requests_per_s_per_replica.in(units::requests_per_s)},
          {"decode_requests_per_s_per_replica",
           r.decode_requests_per_s_per_replica.in(units::requests_per_s)},
          {"prefill_per_decode_replica", r.prefill_per_decode_replica},
          {"prefill_gpus_per_decode_gpu", r.prefill_gpus_per_decode_gpu},
          {"kv_transfer_s", r.kv_transfer.in(units::s)},
          {"ttft_s", r.ttft.in(units::s)},
          {"tpot_s", r.tpot.in(units::s)},
          {"output_tokens_per_s_per_gpu", r.output_tokens_per_s_per_gpu.in(units::tokens_per_s)}};
}

}  // namespace gpuplan::io
