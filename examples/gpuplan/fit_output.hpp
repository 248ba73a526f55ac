// examples/gpuplan/fit_output.hpp: a fit report for people (text) and for scripts (JSON).
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
  /// The memory of each pipeline stage's GPUs, first to last (one entry without pipelining).
  std::vector<memory_breakdown> stages;
  /// Why the training framework is what it is, for the text output: " (default)", " (--tp 8
  /// needs Megatron-LM)"; empty when --framework chose it.
  std::string framework_note;
};

/// Every pipeline stage's memory for d (first, middle and last stages differ: the embedding,
/// the LM head, the micro-batches in flight).
std::vector<memory_breakdown> stage_memory(const fit_description& d);

/// The `fit --json` object (docs/json-schema.md).
nlohmann::json fit_json(const fit_description& d, const fit_report& r);
/// The table: the verdict on the first line, the per-GPU breakdown, the advice.
std::string fit_text(const fit_description& d, const fit_report& r);

}  // namespace gpuplan::cli
