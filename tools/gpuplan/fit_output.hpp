// tools/gpuplan/fit_output.hpp: a fit report for people (text) and for scripts (JSON).
#pragma once

#include "cli.hpp"

#include <gpuplan/plan/fit.hpp>

#include <string>
#include <vector>

namespace gpuplan::cli {

/// What was asked, to print beside the answer.
struct fit_description {
  model_choice model;
  gpu_choice gpu;
  parallel_layout layout;
  bool infer = false;
  training_config train{};
  inference_config serve{};
  /// The memory model's overheads (--set memory.NAME=VALUE).
  memory_assumptions memory{};
  /// The memory of each pipeline stage's GPUs, first to last (one entry without pipelining).
  std::vector<memory_breakdown> stages;
  /// Why the training framework is what it is, for the text output: " (default)", " (--tp 8
  /// needs Megatron-LM)"; empty when --framework chose it.
  std::string framework_note;
};

/// Every pipeline stage's memory for d (first, middle and last stages differ: the embedding,
/// the LM head, the micro-batches in flight).
std::vector<memory_breakdown> stage_memory(const fit_description& d);

/// Why a serving plan whose memory is within capacity does not fit: its KV cache holds fewer
/// than the batch asked for, or less than one sequence of max-model-len (fit_report::kv_fits);
/// "" when it holds them.
std::string kv_shortfall(const fit_report& r);

/// The memory verdict as every command that takes a plan reports it, one line for people:
/// "memory: 1184.3 GiB per GPU of 79.2 GiB: does NOT fit (`gpuplan fit` with the same flags
/// gives the breakdown and advice)", or "...: fits" (no newline).
std::string memory_verdict_text(const training_memory_verdict& v);
/// The same for a serving plan (a transformer's: kv_needed set), its KV cache's shortfall named.
std::string memory_verdict_text(const fit_report& r);
/// The verdict's keys in a command's --json (docs/json-schema.md): "fits" (bool),
/// "per_gpu_bytes" (the most loaded GPU's total, fit --json's per_gpu.total_bytes) and
/// "capacity_bytes".
void add_memory_verdict(nlohmann::json& j, const training_memory_verdict& v);
void add_memory_verdict(nlohmann::json& j, const fit_report& r);
/// The --require-fit flag (exit 1 when the plan does not fit, as `gpuplan fit --require-fit`).
void add_require_fit_flag(CLI::App* app, bool& require_fit);

/// The `fit --json` object (docs/json-schema.md).
nlohmann::json fit_json(const fit_description& d, const fit_report& r);
/// The table: the verdict on the first line, the per-GPU breakdown, the advice.
std::string fit_text(const fit_description& d, const fit_report& r);

}  // namespace gpuplan::cli
