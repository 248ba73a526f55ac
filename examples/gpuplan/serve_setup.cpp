// examples/gpuplan/serve_setup.cpp: the serving plan from `gpuplan serve` flags (serve_setup.hpp).
#include "serve_setup.hpp"

#include "cli.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuplan::cli {

namespace {

using ft = field_type;

constexpr field serve_load_table[] = {
    {"input_len", "--input-len", ft::count, "serve-load",
     "Prompt tokens per request (default 1024)"},
    {"output_len", "--output-len", ft::count, "serve-load",
     "Output tokens per request (default 256)"},
    {"ttft_slo", "--ttft-slo", ft::number, "serve-load",
     "Time-to-first-token target in seconds: report the best concurrency that meets it"},
    {"tpot_slo", "--tpot-slo", ft::number, "serve-load",
     "Time-per-output-token target in seconds: report the best concurrency that meets it"},
    {"batching", "--batching", ft::text, "serve-load",
     "continuous (default) or static (a batch prefilled, then decoded to its end)"},
    {"dtype", "--dtype", ft::text, "serve-load",
     "Precision of the matrix math: bf16|fp16 (default: the weights' 16-bit type), fp8|int8 "
     "for W8A8"},
    {"chunked_prefill", "--chunked-prefill", ft::flag, "serve-load",
     "Split prompts into chunks that ride with the decode steps (default true; false for "
     "prefill-first scheduling)"},
    {"decode_attention", "--decode-attention", ft::text, "serve-load",
     "Decode attention kernel: grouped (default; FlashAttention/FlashInfer, TensorRT-LLM XQA) or "
     "per-query-head (TensorRT-LLM before v0.8: a GQA model's KV cache read once per query head)"},
    {"moe_all_to_all", "--moe-all-to-all", ft::flag, "serve-load",
     "With --ep: dispatch and combine tokens by all-to-all (DeepEP-style) instead of summing the "
     "experts' outputs in the layer's all-reduce (default false)"},
};

constexpr field serve_point_table[] = {
    {"concurrency", "--concurrency", ft::count, "serve-load",
     "Requests in flight per replica (continuous) or the batch (static); default 1"},
    {"rate", "--rate", ft::number, "serve-load",
     "Arrival rate of the whole deployment, requests/s (instead of --concurrency)"},
};

}  // namespace

std::span<const field> serve_load_fields() { return serve_load_table; }
std::span<const field> serve_point_fields() { return serve_point_table; }

void set_serve_point(const settings& s, serving_plan& p) {
  if (s.has("concurrency") && s.has("rate"))
    throw usage_error(
        fmt::format("{} and {} exclude each other", s.name("concurrency"), s.name("rate")));
  p.concurrency = s.count("concurrency").value_or(1);
  if (s.has("rate")) p.rate = positive_or_zero(s, "rate") * units::request / units::s;
}

double positive_or_zero(const settings& s, std::string_view key) {
  const auto v = s.number(key);
  if (!v) return 0.0;
  if (!(*v > 0.0) || !std::isfinite(*v))
    throw usage_error(fmt::format("{} must be a positive number (got {})", s.name(key), *v));
  return *v;
}

serve_setup serve_setup_from(const settings& s, std::string_view command) {
  serve_setup r{.model = model_from(s, command), .plan = {}, .node = {}, .slo = {}};
  if (!r.model.transformer)
    throw usage_error(fmt::format(
        "{} needs a transformer model (a catalog name or a config.json), not a parameter count",
        command));
  serving_plan& p = r.plan;
  p.model = *r.model.transformer;
  const gpu_choice gpu = gpu_from(s);
  p.layout = layout_from(s, r.model, true);
  const int per_replica = p.layout.tp * p.layout.pp;
  r.node = node_from(s);
  if (r.node) {
    p.node = *r.node;
    if (s.has("gpu")) p.node.gpu = gpu.spec;
  } else {
    p.node = single_gpu_node(gpu.spec, std::max(8, per_replica));
  }
  p.config = serving_from(s, r.model);
  const precision weights16 =
      p.config.weight_dtype == precision::fp16 ? precision::fp16 : precision::bf16;
  p.compute_dtype = s.has("dtype") ? enum_named<precision>(*s.text("dtype"), s.name("dtype"),
                                                           {precision::bf16, precision::fp16,
                                                            precision::fp8, precision::int8})
                                   : weights16;
  r.input_len = s.count("input_len").value_or(1024);
  r.output_len = s.count("output_len").value_or(256);
  p.mix = request_mix::fixed(r.input_len, r.output_len);
  if (const auto b = s.text("batching"))
    p.batching = enum_named<batching_mode>(*b, s.name("batching"));
  p.chunked_prefill = s.flag("chunked_prefill").value_or(p.config.engine != serving_engine::trtllm);
  if (const auto k = s.text("decode_attention"))
    p.assumptions.decode_attention =
        enum_named<decode_attention_kernel>(*k, s.name("decode_attention"));
  p.assumptions.moe_all_to_all = s.flag("moe_all_to_all").value_or(false);
  r.slo = serving_slo{.ttft = positive_or_zero(s, "ttft_slo") * units::s,
                      .tpot = positive_or_zero(s, "tpot_slo") * units::s};
  return r;
}

}  // namespace gpuplan::cli
