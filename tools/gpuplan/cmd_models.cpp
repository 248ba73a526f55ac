// tools/gpuplan/cmd_models.cpp: `gpuplan models`, the model catalog as a table or JSON.
#include "cli.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/specs/format.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <memory>

namespace gpuplan::cli {

namespace {

/// The attention in a few characters: MLA and its cached latent, MHA/GQA/MQA, and a window
/// with its global layers ("SWA 128, 1 in 2 global").
std::string attention_text(const transformer_spec& m) {
  std::string s = m.is_mla()                  ? fmt::format("MLA {}+{}", m.mla.kv_lora_rank,
                                                            m.mla.qk_rope_head_dim)
                  : m.kv_heads == m.heads     ? std::string("MHA")
                  : m.kv_heads == 1           ? std::string("MQA")
                                              : std::string("GQA");
  if (m.sliding_window > 0) {
    s += fmt::format(", {} {}", m.window == window_kind::chunked ? "chunks" : "window",
                     m.sliding_window);
    if (m.global_every > 0) s += fmt::format(" (1 in {} global)", m.global_every);
  }
  return s;
}

/// The checkpoint's weights: its dtype, or its quantisation.
std::string weights_text(const transformer_spec& m) {
  if (m.quantization.method == quant_method::none) return std::string(to_string(m.native_dtype));
  return fmt::format("{}{}", to_string(m.quantization.method),
                     m.quantization.experts_only ? " experts" : "");
}

int print_models(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const transformer_spec& m : catalog::all_models) {
      nlohmann::json j = io::to_json(m);
      j["kv_cache_bytes_per_token_bf16"] =
          io::number(m.kv_bytes_per_token(precision::bf16).in(units::B_per_token));
      out.push_back(j);
    }
    print_json(out);
    return 0;
  }
  table t;
  t.header = {"model",    "params", "active", "layers",  "hidden",          "heads",
              "kv heads", "FFN",    "vocab",  "context", "KV/token (bf16)", "attention",
              "weights"};
  t.numeric = {false, true, true, true, true, true, true, true, true, true, true, false, false};
  for (const transformer_spec& m : catalog::all_models) {
    const double p = m.parameters(), a = m.active_parameters();
    t.rows.push_back({std::string(m.name.view()), show_count(p), a < p ? show_count(a) : "",
                      fmt::format("{}", m.layers), fmt::format("{}", m.hidden),
                      fmt::format("{}", m.heads), fmt::format("{}", m.kv_heads),
                      fmt::format("{}{}", m.is_moe() ? m.moe.expert_ffn : m.ffn,
                                  m.is_moe() ? fmt::format(" x{}", m.moe.experts) : ""),
                      fmt::format("{}", m.vocab),
                      m.max_positions > 0 ? fmt::format("{}", m.max_positions) : "-",
                      fmt::format("{}", m.kv_bytes_per_token(precision::bf16)),
                      attention_text(m), weights_text(m)});
  }
  fmt::print("{}", t.render());
  fmt::print(
      "\nparams: exact counts from the shapes (gpuplan models --json gives them in full); "
      "active: per token, for mixtures of experts.\n");
  return 0;
}

}  // namespace

command add_models_command(CLI::App& app) {
  return add_listing_command(app, "Print the catalog as JSON (every field)", print_models);
}

}  // namespace gpuplan::cli
