// examples/gpuplan/train_run.cpp: the training run of `gpuplan train`'s flags (train_run.hpp).
#include "train_run.hpp"

#include "cli.hpp"

#include <gpuplan/catalog.hpp>

#include <fmt/format.h>

namespace gpuplan::cli {

namespace {

constexpr field run_table[] = {
    {"tokens", "--tokens", field_type::text, "train-time",
     "Token budget: time, GPU-hours and FLOPs to train on it (15T, 2e12, 300B)"},
    {"nodes", "--nodes", field_type::count, "train-time",
     "Nodes in the cluster (default: as many as the GPUs need)"},
    {"fabric", "--fabric", field_type::text, "train-time",
     "Network between nodes: infiniband|roce|efa|ethernet (default infiniband)"},
    {"stack", "--stack", field_type::text, "train-time",
     "Software: megatron (fused kernels, the default) or eager (Hugging Face / eager PyTorch)"},
};

/// The node: --node, else the catalog node that carries the GPU, else (one GPU) the GPU alone.
node_spec choose_node(const settings& s, const gpu_choice& gpu, int gpus) {
  if (auto n = node_from(s)) {
    if (s.has("gpu") && n->gpu.name != gpu.spec.name)
      throw usage_error(fmt::format("{} holds {} GPUs; {} asks for {}", s.name("node"),
                                    n->gpu.name.view(), s.name("gpu"), gpu.spec.name.view()));
    return *n;
  }
  for (const node_spec& n : catalog::all_nodes)
    if (n.gpu.name == gpu.spec.name) return n;
  if (gpus == 1) {
    node_spec one{};
    one.name = gpu.spec.name;
    one.gpu = gpu.spec;
    one.gpus = 1;
    one.fabric = intra_node_fabric::pcie;
    one.scale_up_per_gpu = gpu.spec.pcie.per_direction();
    return one;
  }
  throw usage_error(fmt::format(
      "no catalog node carries {}: give --node (gpuplan {} needs the node's NVLink and NICs)",
      gpu.spec.name.view(), "train"));
}

}  // namespace

std::span<const field> train_run_fields() { return run_table; }

run_description training_run_from(const settings& s, std::string_view command) {
  for (const char* unsupported : {"lora", "qlora"})
    if (s.has(unsupported))
      throw usage_error(s.name(unsupported) +
                        ": the step-time model does not cover LoRA fine-tuning "
                        "(docs/models/training-time.md)");
  run_description d;
  d.model = model_from(s, command);
  if (!d.model.transformer)
    throw usage_error(s.name("model") +
                      fmt::format(": gpuplan {} needs the model's architecture (a catalog name or "
                                  "a config.json), not a parameter count",
                                  command));
  const gpu_choice gpu = gpu_from(s);
  d.plan.model = *d.model.transformer;
  d.plan.layout = layout_from(s, d.model);
  d.plan.config = training_from(s);
  if (d.plan.config.offload == offload_kind::params)
    throw usage_error(s.name("offload") +
                      " params: the step-time model covers optimizer offload only");
  d.plan.node = choose_node(s, gpu, d.plan.layout.gpus());
  if (auto n = s.count("nodes")) d.plan.nodes = *n;
  if (auto f = s.text("fabric")) {
    d.plan.fabric = enum_named<inter_node_fabric>(
        *f, s.name("fabric"), {inter_node_fabric::infiniband, inter_node_fabric::roce,
                               inter_node_fabric::efa, inter_node_fabric::ethernet});
  }
  if (auto k = s.text("stack")) {
    d.plan.assumptions.stack = enum_named<software_stack>(*k, s.name("stack"));
  }
  if (auto t = s.text("tokens")) {
    d.tokens = parse_count(*t, s.name("tokens")) * units::token;
    d.tokens_text = *t;
  }
  return d;
}

}  // namespace gpuplan::cli
