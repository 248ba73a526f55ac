// compile_time_check: a deployment tool keeps its GPU plans in code and lets the compiler check
// them. Each plan below is validated by static_assert: the layout against the model and the GPU
// count, and the memory of the most loaded GPU against the GPU's capacity. Change a plan so that
// it does not fit (say, ZeRO stage 0 for the 70B run) and the build stops with
// "gpuplan: a plan does not fit in GPU memory"; break a layout (tp = 3 for 64 heads) and it
// stops with "layout.tp must divide model.heads". The budget is checked the same way: each
// training run is priced from the default price book, and a run over its budget (or on a GPU the
// book does not price) stops the build.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/catalog/prices.hpp>  // not in the umbrella (dated market data)
#include <gpuplan/models/serving.hpp>

#include <cstdio>

namespace {

using namespace gpuplan;
namespace cat = gpuplan::catalog;

struct training_job {
  const char* purpose;
  transformer_spec model;
  gpu_spec gpu;
  int gpus;
  parallel_layout layout;
  training_config config;
};

struct serving_job {
  const char* purpose;
  transformer_spec model;
  gpu_spec gpu;
  int gpus;
  parallel_layout layout;
  inference_config config;
};

constexpr training_job training_plans[] = {
    {"Llama 3.1 8B full fine-tune, one node", cat::llama31_8b, cat::h100_sxm, 8,
     {.dp = 8, .zero = 3},
     {.recompute = recompute_mode::full, .micro_batch = 2, .seq = 8192}},
    {"Llama 3.1 70B continued pre-training, 8 nodes", cat::llama31_70b, cat::h100_sxm, 64,
     {.dp = 2, .tp = 8, .pp = 4, .zero = 1, .sequence_parallel = true},
     {.grad_dtype = precision::fp32, .recompute = recompute_mode::selective, .micro_batch = 1,
      .seq = 8192, .global_batch = 128}},
    {"Llama 2 13B QLoRA on a workstation GPU", cat::llama2_13b, cat::rtx_4090, 1, {},
     {.recompute = recompute_mode::full, .micro_batch = 1, .seq = 2048, .qlora_rank = 16}},
};

constexpr serving_job serving_plans[] = {
    {"Llama 3.1 70B chat, 32 x 8k requests", cat::llama31_70b, cat::h100_sxm, 8, {.tp = 8},
     {.batch = 32, .context = 8192}},
    {"Mistral 7B on L4s, int4 weights", cat::mistral_7b, cat::l4, 1, {},
     {.weight_dtype = precision::int4, .batch = 8, .context = 4096}},
};

// The checks. A failed plan makes the expression non-constant (layout errors, with the field in
// the compiler's notes) or false (does not fit, with the message below).
constexpr bool all_training_plans_fit() {
  for (const training_job& p : training_plans) {
    p.layout.validate(p.model, p.gpus);
    if (!training_fit(p.model, p.gpu, p.layout, p.config).fits()) return false;
  }
  return true;
}
constexpr bool all_serving_plans_fit() {
  for (const serving_job& p : serving_plans) {
    p.layout.validate(p.model, p.gpus);
    if (!inference_fit(p.model, p.gpu, p.layout, p.config).fits()) return false;
  }
  return true;
}
static_assert(all_training_plans_fit(), "gpuplan: a plan does not fit in GPU memory");

// What the runs will cost: GPUs x wall time (from the training time model, or measured) at the
// cheapest on-demand price the default book has for the GPU.
struct budgeted_run {
  const char* purpose;
  run_usage usage;
  money budget;
};
constexpr budgeted_run budgeted_runs[] = {
    {"Llama 3.1 8B full fine-tune, one node, 2 days",
     run_usage::of(cat::h100_sxm, 8, 2 * units::d), 2'000 * units::usd},
    {"Llama 3.1 70B continued pre-training, 8 nodes, 3 weeks",
     run_usage::of(cat::h100_sxm, 64, 21 * units::d), 100'000 * units::usd},
    {"Pre-training run, 256 H100s, 20 days", run_usage::of(cat::h100_sxm, 256, 20 * units::d),
     2'000'000 * units::usd},
};
constexpr bool all_runs_within_budget() {
  for (const budgeted_run& r : budgeted_runs)
    if (!(run_cost(r.usage, catalog::default_prices) < r.budget)) return false;
  return true;
}
static_assert(all_runs_within_budget(), "gpuplan: a training run is over its budget");
static_assert(all_serving_plans_fit(), "gpuplan: a plan does not fit in GPU memory");

// A latency target checked by the compiler: the 70B chat deployment (tp 8 on a DGX H100, 32
// requests in flight of 1024 prompt and 256 output tokens) must answer within 1 s and stream a
// token every 50 ms. Raise the concurrency past what the GPUs sustain, or halve the GPUs, and
// the build stops with "gpuplan: the chat deployment misses its latency target".
constexpr serving_plan chat{.model = cat::llama31_70b,
                            .node = cat::dgx_h100,
                            .layout = {.tp = 8},
                            .mix = request_mix::fixed(1024, 256),
                            .concurrency = 32};
constexpr serving_slo chat_slo{.ttft = 1 * units::s, .tpot = 50 * units::ms};
static_assert(decode_step(chat) < 50 * units::ms, "gpuplan: decode step over 50 ms");
static_assert(chat_slo.met(serve(chat)), "gpuplan: the chat deployment misses its latency target");

void print(const char* purpose, const fit_report& r) {
  const memory_breakdown& m = r.per_gpu;
  std::printf("%s\n  per GPU: weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f, "
              "KV cache %.1f, workspace %.1f, overhead %.1f = %.1f GiB of %.1f GiB (headroom "
              "%.1f GiB)\n",
              purpose, m.weights.in(units::GiB), m.gradients.in(units::GiB),
              m.optimizer.in(units::GiB), m.activations.in(units::GiB), m.kv_cache.in(units::GiB),
              m.workspace.in(units::GiB), m.overhead.in(units::GiB), m.total().in(units::GiB),
              r.capacity.in(units::GiB), r.headroom().in(units::GiB));
  if (r.inference)
    std::printf("  paged KV cache: %.0f blocks of %d tokens, %.0f tokens, %.1f x max_model_len\n",
                r.kv.blocks, r.kv.block_size, r.kv.capacity_tokens.in(units::token),
                r.kv.max_concurrency);
}

}  // namespace

int main() {
  // The same functions at run time give the same numbers the compiler checked.
  for (const training_job& p : training_plans)
    print(p.purpose, training_fit(p.model, p.gpu, p.layout, p.config));
  for (const serving_job& p : serving_plans)
    print(p.purpose, inference_fit(p.model, p.gpu, p.layout, p.config));
  for (const budgeted_run& r : budgeted_runs)
    std::printf("%s\n  %.0f GPU-hours, $%.0f of a $%.0f budget (%s, $%.2f per GPU-hour)\n",
                r.purpose, r.usage.gpu_time.in(units::h),
                run_cost(r.usage, catalog::default_prices).in(units::usd), r.budget.in(units::usd),
                cheapest_price(catalog::default_prices, r.usage.gpu, price_term::on_demand)
                    ->provider.view()
                    .data(),
                cloud_rate(catalog::default_prices, r.usage.gpu, price_term::on_demand)
                    .in(units::usd_per_h));
  const serving_point s = serve(chat);
  std::printf("Llama 3.1 70B chat on a DGX H100: TTFT %.0f ms, TPOT %.1f ms, %.0f output tokens/s "
              "(%.0f per GPU), %.2f requests/s\n",
              s.ttft.in(units::ms), s.tpot.in(units::ms), s.output_tokens_per_s.in(units::tokens_per_s),
              s.output_tokens_per_s_per_gpu.in(units::tokens_per_s),
              s.requests_per_s.in(units::requests_per_s));
  return 0;
}
