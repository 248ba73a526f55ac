// examples/gpuplan/cmd_demo.cpp: `gpuplan` with no arguments, or `gpuplan demo`: a worked example.
//
// Llama 3.1 70B on one 8x H100 node: a full fine-tune (which does not fit, and what to do about
// it), a LoRA fine-tune, and serving it with tensor parallelism. Each part prints the `gpuplan
// fit` command that gives the same answer, and tests/cli checks that they agree.
#include "cli.hpp"
#include "fit_output.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/fit.hpp>

#include <fmt/format.h>

namespace gpuplan::cli {

namespace {

void part(const char* title, const char* command, const fit_description& d, const fit_report& r) {
  fmt::print("== {}\n   $ {}\n\n{}\n", title, command, fit_text(d, r));
}

/// d with its pipeline stages' memory, as `gpuplan fit` computes it.
fit_description described(fit_description d) {
  d.stages = stage_memory(d);
  return d;
}

}  // namespace

int run_demo() {
  const transformer_spec& model = catalog::llama31_70b;
  const gpu_spec& gpu = catalog::h100_sxm;
  const model_choice m{model, std::nullopt, "catalog"};
  const gpu_choice g{gpu, "catalog"};

  fmt::print("gpuplan demo: {} ({} parameters) on one node of 8x {}\n\n", model.name,
             show_count(model.parameters()), gpu.name);

  {  // 1. Full fine-tune, FSDP full shard (ZeRO-3) over the 8 GPUs.
    parallel_layout l{.dp = 8, .zero = 3};
    training_config c{};
    c.seq = 4096;
    c.recompute = recompute_kind::full;
    const fit_description d = described({m, g, l, false, c, {}, {}, {}});
    part("1. Full fine-tune, bf16 + AdamW, ZeRO-3 over 8 GPUs, 4k tokens, full recomputation",
         "gpuplan fit --model Llama-3.1-70B --gpu h100 --gpus 8 --zero 3 --seq 4096 "
         "--recompute full --framework megatron",
         d, training_fit(model, gpu, l, c));
  }
  {  // 2. LoRA fine-tune: frozen bf16 base split over 8 GPUs with tensor parallelism.
    parallel_layout l{.tp = 8};
    training_config c{};
    c.seq = 4096;
    c.lora_rank = 16;
    c.recompute = recompute_kind::selective;
    const fit_description d = described({m, g, l, false, c, {}, {}, {}});
    part("2. LoRA fine-tune (rank 16), tensor parallel over 8 GPUs, 4k tokens",
         "gpuplan fit --model Llama-3.1-70B --gpu h100 --gpus 8 --tp 8 --lora 16 --seq 4096 "
         "--recompute selective",
         d, training_fit(model, gpu, l, c));
  }
  {  // 3. Serving on the same node, vLLM-style.
    parallel_layout l{.tp = 8};
    inference_config c{};
    c.batch = 32;
    c.context = 8192;
    const fit_description d = described({m, g, l, true, {}, c, {}, {}});
    part("3. Serving: bf16 weights, tensor parallel over 8 GPUs, 32 sequences of 8k tokens",
         "gpuplan fit --model Llama-3.1-70B --gpu h100 --infer --tp 8 --batch 32 --context 8192", d,
         inference_fit(model, gpu, l, c));
  }
  fmt::print("More: gpuplan --help, gpuplan gpus, gpuplan models, gpuplan fit --help.\n");
  return 0;
}

command add_demo_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("demo",
                                     "A worked example: Llama 3.1 70B on 8x H100 "
                                     "(also what `gpuplan` alone prints)");
  return {sub, [] { return run_demo(); }};
}

}  // namespace gpuplan::cli
