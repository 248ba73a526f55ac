// Compile-time model fit: every check here is a static_assert, so building this file is the test.
// The plans and layouts are evaluated by the compiler with the same functions the CLI calls.
#include <gpuplan/gpuplan.hpp>

namespace {

using namespace gpuplan;
namespace cat = gpuplan::catalog;

// Llama 3.1 8B full fine-tuning (bf16, AdamW, 16 bytes/param) on 8 H100s: with ZeRO-3 and
// selective recomputation it fits; without sharding (128 GB of model states per GPU) it does not.
constexpr training_config ft{.recompute = recompute_mode::full, .micro_batch = 1, .seq = 4096};
static_assert(training_fit(cat::llama31_8b, cat::h100_sxm, {.dp = 8, .zero = 3}, ft).fits());
static_assert(!training_fit(cat::llama31_8b, cat::h100_sxm, {.dp = 8, .zero = 0}, ft).fits());

// ZeRO Table 1 cell: 7.5B, N_d = 64, P_os+g+p: 1.875 GB of model states per GPU.
constexpr generic_workload psi75{.name = "7.5B", .parameters = 7.5e9};
static_assert(training_memory(psi75, {.dp = 64, .zero = 3}, {}).model_states().value == 1.875e9);

// Megatron's 18 bytes per parameter with fp32 gradients.
static_assert(training_memory(generic_workload{.name = "1B", .parameters = 1e9}, {},
                              {.grad_dtype = precision::fp32})
                  .model_states()
                  .value == 18e9);

// Serving Llama 3.1 70B in bf16 on 8 H100s (tp = 8) fits with room for 16 x 8k-token requests;
// on one H100 it does not.
constexpr inference_config serve{.batch = 16, .context = 8192};
static_assert(inference_fit(cat::llama31_70b, cat::h100_sxm, {.tp = 8}, serve).fits());
static_assert(!inference_fit(cat::llama31_70b, cat::h100_sxm, {}, serve).fits());
static_assert(inference_fit(cat::llama31_70b, cat::h100_sxm, {.tp = 8}, serve).kv.blocks > 0);

// KV page of Llama 2 7B: 2 x 16 x 32 x 128 x 2 bytes.
static_assert(kv_page_size(cat::llama2_7b, {}, {}).value == 262144.0);

// Layout checks in constant expressions.
constexpr bool valid(const parallel_layout& l, const transformer_spec& m, int gpus) {
  l.validate(m, gpus);
  return true;
}
static_assert(valid({.dp = 2, .tp = 8, .pp = 4}, cat::llama31_70b, 64));
static_assert(valid({.dp = 8, .ep = 8}, cat::mixtral_8x7b, 8));

// Advice is produced at compile time too: a plan that does not fit lists options, fitting first.
constexpr fit_report too_big =
    training_fit(cat::llama31_8b, cat::h100_sxm, {.dp = 8, .zero = 0}, ft);
static_assert(!too_big.options.empty());
static_assert(too_big.options[0].fits);

}  // namespace
