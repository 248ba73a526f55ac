// recompute_mode (training memory) and recompute_mode (FLOPs) are one enum under two names, so a
// training_config's setting can be passed to the FLOP model unchanged.
#include <gpuplan/catalog/models.hpp>
#include <gpuplan/models/training_memory.hpp>
#include <gpuplan/models/flops.hpp>

#include <type_traits>

namespace {

using namespace gpuplan;

static_assert(std::is_same_v<recompute_mode, recompute_mode>);
static_assert(to_string(recompute_mode::selective) == "selective");
static_assert(to_string(recompute_mode::full) == "full");

constexpr recompute_mode parsed(const char* s) {
  recompute_mode r = recompute_mode::none;
  if (!parse_enum(s, r)) return recompute_mode::none;
  return r;
}
static_assert(parsed("full") == recompute_mode::full);
static_assert(parsed("selective") == recompute_mode::selective);

constexpr training_config c{.recompute = recompute_mode::full, .micro_batch = 1, .seq = 2048};
static_assert(training_flops_per_token(catalog::llama31_8b, c.seq, c.recompute).value >
              training_flops_per_token(catalog::llama31_8b, c.seq, recompute_mode::none).value);

}  // namespace
