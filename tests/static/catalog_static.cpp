// The catalogs, their lookup and the FLOP counts are constant expressions: building this file
// is the test.
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/flops.hpp>

namespace {

using namespace gpuplan;
namespace cat = gpuplan::catalog;

// Every entry validates at compile time (a throw would make these non-constant).
constexpr bool all_valid() {
  for (const gpu_spec& g : cat::all_gpus) g.validate();
  for (const transformer_spec& m : cat::all_models) m.validate();
  for (const node_spec& n : cat::all_nodes) n.validate();
  return true;
}
static_assert(all_valid());

// Lookup by alias, driver name and Hugging Face id.
static_assert(cat::find_gpu("h100") == &cat::all_gpus[4]);
static_assert(cat::find_gpu("NVIDIA H100 80GB HBM3")->memory.value == 80.0 * 1073741824.0);
static_assert(cat::find_gpu("no such gpu") == nullptr);
static_assert(cat::find_model("meta-llama/Llama-3.1-8B")->layers == 32);
static_assert(cat::find_node("DGX-H100")->gpus == 8);
static_assert(cat::nearest_gpu_names("a1000")[0] == "A100-SXM4-80GB");

// Exact parameter counts (Hugging Face safetensors totals).
static_assert(cat::llama31_8b.parameters() == 8030261248.0);
static_assert(cat::mixtral_8x7b.parameters() == 46702792704.0);

// Per-GPU vs per-node NIC bandwidth: 8 x 400 Gb/s per DGX H100, 50 GB/s per GPU.
static_assert(cat::dgx_h100.nic_per_node().value == 400e9);
static_assert(cat::dgx_h100.nic_per_gpu().value == 50e9);

// FLOPs: forward per token of Llama 3.1 8B at context 1 is 2 x matmul weights + LM head.
constexpr forward_flops f8 = forward_flops_per_token(cat::llama31_8b, 1, attention_mask::full);
static_assert(f8.lm_head.value == 2.0 * 128256 * 4096);
static_assert(training_flops_per_token(cat::megatron_175b, 2048, recompute_mode::full).value >
              training_flops_per_token(cat::megatron_175b, 2048, recompute_mode::selective).value);

// A user-defined GPU and model are checked by the same validate() in a constant expression.
constexpr gpu_spec my_gpu = [] {
  gpu_spec g = cat::l40s;
  g.name = "my-L40S-vGPU";
  g.aliases = {};
  g.memory = 24 * units::GiB;
  g.memory_usable = {};
  return g;
}();
static_assert((my_gpu.validate(), my_gpu.plannable_memory().value == 24.0 * 1073741824.0));

}  // namespace
