// Serving plans checked by the compiler: the decode step, the SLO of a deployment, the roofline
// ridge and the KV capacity are constant expressions.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/serving.hpp>

namespace {

using namespace gpuplan;
namespace cat = gpuplan::catalog;

// Llama 3.1 70B in bf16 on one DGX H100 (tp 8), 32 requests of 1024 prompt + 256 output tokens.
constexpr serving_plan chat{.model = cat::llama31_70b,
                            .node = cat::dgx_h100,
                            .layout = {.tp = 8},
                            .mix = request_mix::fixed(1024, 256),
                            .concurrency = 32};

static_assert(decode_step(chat) < 50 * units::ms);
static_assert(decode_step(chat) > 5 * units::ms);  // 141 GB / 8 GPUs at ~3 TB/s: not free
static_assert(serving_slo{.ttft = 1 * units::s, .tpot = 50 * units::ms}.met(serve(chat)));
static_assert(!serving_slo{.tpot = 5 * units::ms}.met(serve(chat)));

// More sequences: more throughput, each token later.
constexpr serving_plan busy = [] {
  serving_plan p = chat;
  p.concurrency = 128;
  return p;
}();
static_assert(serve(busy).output_tokens_per_s > serve(chat).output_tokens_per_s);
static_assert(serve(busy).tpot > serve(chat).tpot);

// The linear layers of a 70B model in bf16 on H100s turn compute-bound at a decode batch in
// the hundreds (the roofline ridge).
static_assert(ridge_batch(chat) > 64 && ridge_batch(chat) < 1024);

// The KV cache bounds the concurrency.
static_assert(kv_capacity_sequences(chat) > 128);

// fp8 weights and KV on the same GPUs decode faster.
constexpr serving_plan fp8 = [] {
  serving_plan p = chat;
  p.config.weight_dtype = precision::fp8;
  p.config.kv_dtype = precision::fp8;
  p.compute_dtype = precision::fp8;
  return p;
}();
static_assert(decode_step(fp8) < decode_step(chat));

}  // namespace
