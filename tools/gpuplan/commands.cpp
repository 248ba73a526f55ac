// tools/gpuplan/commands.cpp: the one table of the tool's commands (cli.hpp, command_entry).
#include "cli.hpp"

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuplan::cli {

namespace {

// In the order `gpuplan --help` lists them.
constexpr command_entry commands[] = {
    {"demo",
     "The default scenario: Llama 3.1 70B on DGX H100 nodes: fit, speed, cost, serving, GPUs "
     "needed, layout search (also what `gpuplan` alone prints)",
     add_demo_command},
    {"gpus",
     "List the GPU catalog: memory, bandwidth, peak rates",
     add_gpus_command},
    {"models",
     "List the model catalog: shapes and parameter counts",
     add_models_command},
    {"fit",
     "Does a model fit? Per-GPU memory, verdict and advice",
     add_fit_command},
    {"probe",
     "Read this machine's GPUs from the NVIDIA driver and NVML (no CUDA toolkit needed)",
     add_probe_command},
    {"train",
     "How long does training take? Step time, MFU, time to train, scaling",
     add_train_command},
    {"serve",
     "Serving speed: TTFT, TPOT, tokens/s and requests/s; the best point under an SLO",
     add_serve_command},
    {"capacity",
     "Replicas for a demand at a waiting-time target (Erlang C / Allen-Cunneen), their "
     "utilisation against the 70-90% band, growth month by month",
     add_capacity_command},
    {"utilization",
     "Utilisation of real GPUs from nvidia-smi CSV logs, DCGM metrics (Prometheus range query "
     "JSON) or a plain CSV: time in each band, mean, p95, peak, idle GPUs, advice",
     add_utilization_command},
    {"cost",
     "What a run costs, draws and emits; cloud against owning (break-even), hybrid",
     add_cost_command},
    {"search",
     "Which GPU, how many, how to split the model: the best layouts by time, cost, energy",
     add_search_command},
    {"assumptions",
     "Every assumption of the models, with its default and source: what --set NAME=VALUE changes",
     add_assumptions_command},
};

}  // namespace

std::span<const command_entry> command_table() { return commands; }

const command_entry& find_command(std::string_view name) {
  for (const command_entry& e : commands)
    if (name == e.name) return e;
  // a bug, not bad input: std::logic_error is main's exit 3 ("internal error")
  throw std::logic_error("gpuplan: no command named " + std::string(name));
}

}  // namespace gpuplan::cli
