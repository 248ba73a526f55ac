// The transformers framework profile is constexpr end to end: a plan's fit on the Hugging Face
// stack can be checked at compile time like the Megatron one.
#include <gpuplan/catalog/gpus.hpp>
#include <gpuplan/catalog/models.hpp>
#include <gpuplan/models/framework_memory.hpp>
#include <gpuplan/plan/fit.hpp>

namespace {

using namespace gpuplan;

// Mistral 7B, LoRA rank 16 on all linear layers, 4 x 2048, no checkpointing: ran on an H100
// (74.36 GiB measured; the profile predicts about 71.3 GiB).
constexpr training_config lora{.framework = framework_kind::transformers,
                               .micro_batch = 4,
                               .seq = 2048,
                               .lora_rank = 16};
static_assert(training_fit(catalog::mistral_7b, catalog::h100_sxm, {}, lora).fits());
static_assert(framework_training_memory(catalog::mistral_7b, {}, lora).phases.peak ==
              training_phase::backward);

// The same model fully fine-tuned under amp needs 16 B/param = 108 GiB of states alone.
constexpr training_config amp{.framework = framework_kind::transformers,
                              .amp = true,
                              .micro_batch = 1,
                              .seq = 4096};
static_assert(!training_fit(catalog::mistral_7b, catalog::h100_sxm, {}, amp).fits());

// The Megatron profile is the default and reports no phases.
static_assert(training_config{}.framework == framework_kind::megatron);
static_assert(framework_training_memory(catalog::mistral_7b, {}, training_config{}).phases.peak ==
              training_phase::none);

}  // namespace
