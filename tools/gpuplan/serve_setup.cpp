// tools/gpuplan/serve_setup.cpp: the serving plan from `gpuplan serve` flags (serve_setup.hpp).
#include "serve_setup.hpp"

#include "cli.hpp"

#include <gpuplan/io/serving_deployment_json.hpp>
#include <gpuplan/plan/serving_deployment.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

namespace gpuplan::cli {

namespace {

using ft = field_type;

constexpr field serve_load_table[] = {
    {"input_len", "--input-len", ft::count, "serve-load",
     "Prompt tokens per request (default 1024)"},
    {"output_len", "--output-len", ft::count, "serve-load",
     "Output tokens per request (default 256)"},
    {"mix", "--mix", ft::text, "serve-load",
     "A request mix instead of --input-len/--output-len: 'IN:OUT:SHARE,...', up to 8 classes "
     "(e.g. 512:128:0.7,4096:1024:0.3); shares are relative"},
    {"ttft_slo", "--ttft-slo", ft::number, "serve-load",
     "Time-to-first-token target in seconds: report the best concurrency that meets it"},
    {"tpot_slo", "--tpot-slo", ft::number, "serve-load",
     "Time-per-output-token target in seconds: report the best concurrency that meets it"},
    {"batching", "--batching", ft::text, "serve-load",
     "continuous (default) or static (a batch prefilled, then decoded to its end)"},
    {"dtype", "--dtype", ft::text, "serve-load",
     with_values<"Precision of the matrix math: ", serving_compute_dtypes,
                 " (default: the weights' 16-bit type; fp8 and int8 are W8A8)">},
    {"chunked_prefill", "--chunked-prefill", ft::flag, "serve-load",
     "Split prompts into chunks that ride with the decode steps (default true; false for "
     "prefill-first scheduling)"},
    {"decode_attention", "--decode-attention", ft::text, "serve-load",
     "Decode attention kernel: grouped (default; FlashAttention/FlashInfer, TensorRT-LLM XQA) or "
     "per-query-head (TensorRT-LLM before v0.8: a GQA model's KV cache read once per query head)"},
    {"moe_all_to_all", "--moe-all-to-all", ft::flag, "serve-load",
     "With --ep: dispatch and combine tokens by all-to-all (DeepEP-style) instead of summing the "
     "experts' outputs in the layer's all-reduce (default false)"},
    {"dp_attention", "--dp-attention", ft::flag, "serve-load",
     "Data-parallel attention with wide expert parallelism (SGLang --enable-dp-attention, vLLM "
     "--data-parallel-size with --enable-expert-parallel): needs --ep equal to --tp; each of the "
     "replica's GPUs runs attention, the dense layers and the shared experts on its own "
     "sequences with its own KV cache, the routed experts spread over all of them (all-to-all "
     "dispatch and combine, across nodes with --node)"},
    {"two_batch_overlap", "--two-batch-overlap", ft::flag, "serve-load",
     "With --dp-attention: two micro-batches per step, one's all-to-alls hidden behind the "
     "other's compute (SGLang --enable-two-batch-overlap)"},
    {"redundant_experts", "--redundant-experts", ft::count, "serve-load",
     "Extra physical experts, replicas of busy ones (SGLang --ep-num-redundant-experts, vLLM "
     "--num-redundant-experts): --ep must divide the experts plus these (DeepSeek-V3 on 72 GPUs: "
     "256 + 32)"},
    {"speculative_tokens", "--speculative-tokens", ft::count, "serve-load",
     "Speculative decoding with the model's own multi-token-prediction modules (DeepSeek-V3's "
     "MTP): draft tokens per step (default: none)"},
    {"acceptance", "--acceptance", ft::number, "serve-load",
     "With --speculative-tokens: the rate each draft token is accepted at, given the ones before "
     "it (no default: DeepSeek-V3 reports 0.85 to 0.90 for its MTP)"},
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

namespace {

/// --dp-attention and --two-batch-overlap onto the plan (layout_from checked the layout,
/// model_from added --redundant-experts).
void set_wide_expert_parallelism(const settings& s, serving_plan& p) {
  p.dp_attention = s.flag("dp_attention").value_or(false);
  p.two_batch_overlap = s.flag("two_batch_overlap").value_or(false);
  if (p.two_batch_overlap && !p.dp_attention)
    throw usage_error(fmt::format("{} needs {}", s.name("two_batch_overlap"),
                                  s.name("dp_attention")));
  if (p.dp_attention && !p.model.is_moe())
    throw usage_error(fmt::format("{} needs a mixture-of-experts model", s.name("dp_attention")));
}

}  // namespace

void set_engine_behaviour(const settings& s, serving_plan& p) {
  if (const auto b = s.text("batching"))
    p.batching = enum_named<batching_mode>(*b, s.name("batching"));
  p.chunked_prefill = s.flag("chunked_prefill").value_or(p.config.engine != serving_engine::trtllm);
  if (const auto k = s.text("decode_attention"))
    p.assumptions.decode_attention =
        enum_named<decode_attention_kernel>(*k, s.name("decode_attention"));
  p.assumptions.moe_all_to_all = s.flag("moe_all_to_all").value_or(p.assumptions.moe_all_to_all);
  set_wide_expert_parallelism(s, p);
  const auto k = s.count("speculative_tokens");
  const auto a = s.number("acceptance");
  if (!k) {
    if (a) throw usage_error(fmt::format("{} needs {}", s.name("acceptance"),
                                         s.name("speculative_tokens")));
    return;
  }
  if (p.model.mtp_layers == 0)
    throw usage_error(fmt::format("{}: {} has no multi-token-prediction modules to draft with "
                                  "(transformer_spec.mtp_layers; DeepSeek-V3 and R1 have one)",
                                  s.name("speculative_tokens"), p.model.name.view()));
  if (*k > max_draft_tokens)
    throw usage_error(fmt::format("{} must be at most {} (got {})", s.name("speculative_tokens"),
                                  max_draft_tokens, *k));
  if (!a)
    throw usage_error(fmt::format("{} needs {}: the rate each draft token is accepted at (e.g. "
                                  "0.85)",
                                  s.name("speculative_tokens"), s.name("acceptance")));
  if (!(*a >= 0.0 && *a <= 1.0))
    throw usage_error(fmt::format("{} must be in [0, 1] (got {})", s.name("acceptance"), *a));
  p.speculation = {.draft_tokens = *k, .acceptance = *a};
  p.config.draft_modules = p.model.mtp_layers;  // the MTP weights count in the memory verdict
}

void set_serve_point(const settings& s, serving_plan& p) {
  if (s.has("concurrency") && s.has("rate"))
    throw usage_error(
        fmt::format("{} and {} exclude each other", s.name("concurrency"), s.name("rate")));
  p.concurrency = s.count("concurrency").value_or(1);
  if (s.has("rate")) p.rate = positive_or_zero(s, "rate") * units::request / units::s;
}

request_mix mix_from(std::string_view text, const std::string& flag) {
  request_mix m{};
  for (const std::string& item : list_items(text, flag)) {
    auto fail = [&](const std::string& why) {
      throw usage_error(fmt::format("{} '{}': {} (expected IN:OUT:SHARE, comma-separated)", flag,
                                    item, why));
    };
    std::vector<std::string> parts(1);
    for (char c : item) {
      if (c == ':')
        parts.emplace_back();
      else if (c != ' ')
        parts.back() += c;
    }
    if (parts.size() != 3) fail("three ':'-separated fields");
    double v[3]{};
    for (std::size_t i = 0; i < 3; ++i) {
      const std::string& t = parts[i];
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v[i]);
      if (t.empty() || ec != std::errc{} || end != t.data() + t.size() || !std::isfinite(v[i]) ||
          !(v[i] > 0))
        fail(fmt::format("'{}' is not a positive number", t));
    }
    if (v[0] != std::floor(v[0]) || v[1] != std::floor(v[1]) || v[0] > 1e7 || v[1] > 1e7)
      fail("IN and OUT are whole token counts (at most 1e7)");
    if (v[2] > max_request_share) fail("SHARE is relative: at most 1e15");
    if (m.classes.full()) fail(fmt::format("at most {} classes", max_request_classes));
    m.classes.push_back({static_cast<int>(v[0]), static_cast<int>(v[1]), v[2]});
  }
  return m;
}

request_mix mix_of(const settings& s) {
  if (const std::optional<std::string> mix = s.text("mix")) {
    if (s.has("input_len") || s.has("output_len"))
      throw usage_error(fmt::format("{} replaces --input-len and --output-len: give one or the other",
                                    s.name("mix")));
    return mix_from(*mix, s.name("mix"));
  }
  return request_mix::fixed(s.count("input_len").value_or(1024), s.count("output_len").value_or(256));
}

double positive_or_zero(const settings& s, std::string_view key) {
  const auto v = s.number(key);
  if (!v) return 0.0;
  if (!(*v > 0.0) || !std::isfinite(*v))
    throw usage_error(fmt::format("{} must be a positive number (got {})", s.name(key), *v));
  return *v;
}

/// Longest latency target (TTFT, TPOT) taken: a day, in seconds. Interactive serving targets are
/// milliseconds to seconds and offline batch inference hours; past a day a target constrains
/// nothing, and --ttft-slo 1e308 printed "inf ms" (gpuplan issue 22).
constexpr double max_latency_slo_s = 86400.0;

double slo_seconds(const settings& s, std::string_view key) {
  const double v = positive_or_zero(s, key);
  if (v > max_latency_slo_s)
    throw usage_error(fmt::format("{} must be at most {:g} seconds (a day, max_latency_slo_s; got "
                                  "{:g})",
                                  s.name(key), max_latency_slo_s, v));
  return v;
}

serve_setup serve_setup_from(const settings& s, std::string_view command) {
  serve_setup r{.model = model_from(s, command), .plan = {}, .node = {}, .slo = {}};
  r.assumptions = assumptions_from(s);
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
  // without --dtype: the checkpoint's own math when its weights are served as shipped (fp8
  // checkpoints in fp8 on GPUs with fp8 tensor cores), else the weights' 16-bit type
  const precision fallback = s.has("weight_dtype")
                                 ? weights16
                                 : checkpoint_compute_dtype(p.model, p.node.gpu);
  p.compute_dtype = s.has("dtype") ? enum_named<precision>(*s.text("dtype"), s.name("dtype"),
                                                           serving_compute_dtypes)
                                   : fallback;
  p.mix = mix_of(s);
  p.assumptions = r.assumptions.serving;
  p.memory = r.assumptions.memory;
  r.input_len = rounded_mean_input(p.mix);
  r.output_len = rounded_mean_output(p.mix);
  set_engine_behaviour(s, p);
  r.slo = serving_slo{.ttft = slo_seconds(s, "ttft_slo") * units::s,
                      .tpot = slo_seconds(s, "tpot_slo") * units::s};
  return r;
}

int print_unfit_serving(const serve_setup& setup, const fit_report& f, bool json) {
  if (json) {
    // the untimed report's keys (io/serving_deployment_json.hpp): model, gpu and the verdict
    print_json(io::to_json(serving_deployment_report{.plan = setup.plan, .memory = f}));
  } else {
    fmt::print("{} on {}: {}\n", setup.model.name(), setup.plan.node.gpu.name.view(),
               memory_verdict_text(f));
  }
  return 1;
}

}  // namespace gpuplan::cli
