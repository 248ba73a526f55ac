// gpuplan/io/json.hpp: specs and layouts to JSON and back (gpuplan's own JSON forms).
//
// An edge of the library (target gpuplan::json, needs nlohmann-json): never included by the
// umbrella header. Quantities are written as plain numbers in the base unit named by the key's
// suffix (`memory_bytes`, `memory_bandwidth_bytes_per_s`, `tdp_watts`), so a script never has to
// guess whether "80" meant GB or GiB. Reading is strict: a missing required key, a value of the
// wrong type or an unknown enum spelling throws gpuplan::io::error naming the key and the file.
#pragma once

#include <gpuplan/io/error.hpp>
#include <gpuplan/io/parse.hpp>
#include <gpuplan/io/readers.hpp>
#include <gpuplan/io/values.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/specs/serving.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace gpuplan::io {

inline nlohmann::json to_json(const parallel_layout& l) {
  return {{"gpus", l.gpus()},
          {"dp", l.dp},
          {"tp", l.tp},
          {"pp", l.pp},
          {"cp", l.cp},
          {"ep", l.ep},
          {"zero", l.zero},
          {"shard_group", l.shard_group},
          {"sequence_parallel", l.sequence_parallel},
          {"virtual_stages", l.virtual_stages},
          {"expert_tp", l.expert_tp},
          {"first_stage_layers", l.first_stage_layers},
          {"last_stage_layers", l.last_stage_layers}};
}

inline nlohmann::json to_json(const transformer_spec& m) {
  nlohmann::json j = {{"name", std::string(m.name.view())},
                      {"parameters", number(m.parameters())},
                      {"active_parameters", number(m.active_parameters())},
                      {"layers", m.layers},
                      {"hidden", m.hidden},
                      {"heads", m.heads},
                      {"kv_heads", m.kv_heads},
                      {"head_dim", m.head_dim},
                      {"ffn", m.ffn},
                      {"ffn_type", std::string(to_string(m.ffn_type))},
                      {"vocab", m.vocab},
                      {"tied_embeddings", m.tied_embeddings},
                      {"positions", std::string(to_string(m.positions))},
                      {"norm", std::string(to_string(m.norm))},
                      {"qkv_bias", m.qkv_bias},
                      {"out_bias", m.out_bias},
                      {"mlp_bias", m.mlp_bias},
                      {"sliding_window", m.sliding_window},
                      {"native_dtype", std::string(gpuplan::to_string(m.native_dtype))}};
  // unknown (0) is written as absent, as the reader takes it: a given 0 is refused there
  if (m.max_positions > 0) j["max_positions"] = m.max_positions;
  nlohmann::json aliases = nlohmann::json::array();
  for (const auto& a : m.aliases)
    if (!a.empty()) aliases.push_back(std::string(a.view()));
  j["aliases"] = aliases;
  if (m.is_moe())
    j["moe"] = {{"experts", m.moe.experts},
                {"experts_per_token", m.moe.experts_per_token},
                {"shared_experts", m.moe.shared_experts},
                {"expert_ffn", m.moe.expert_ffn},
                {"shared_expert_ffn", m.moe.shared_expert_ffn},
                {"first_dense_layers", m.moe.first_dense_layers},
                {"layer_interval", m.moe.layer_interval},
                {"layer_phase", m.moe.layer_phase},
                {"router_bias", m.moe.router_bias},
                {"shared_expert_gate", m.moe.shared_expert_gate}};
  if (m.is_mla())
    j["mla"] = {{"q_lora_rank", m.mla.q_lora_rank},
                {"kv_lora_rank", m.mla.kv_lora_rank},
                {"qk_nope_head_dim", m.mla.qk_nope_head_dim},
                {"qk_rope_head_dim", m.mla.qk_rope_head_dim},
                {"v_head_dim", m.mla.v_head_dim}};
  j["global_every"] = m.global_every;
  j["window"] = std::string(gpuplan::to_string(m.window));
  j["qk_norm"] = m.qk_norm;
  j["attention_sinks"] = m.attention_sinks;
  j["norms_per_layer"] = m.norms_per_layer;
  j["mtp_layers"] = m.mtp_layers;
  if (m.is_hybrid()) {
    j["pattern"] = std::string(m.pattern.view());
    const linear_mixer_spec& x = m.linear;
    if (x.present())
      j["linear"] = {{"kind", std::string(gpuplan::to_string(x.kind))},
                     {"heads", x.heads},           {"head_dim", x.head_dim},
                     {"groups", x.groups},         {"state_size", x.state_size},
                     {"conv_kernel", x.conv_kernel}, {"inner", x.inner},
                     {"dt_rank", x.dt_rank},       {"conv_bias", x.conv_bias},
                     {"proj_bias", x.proj_bias},   {"dt_bc_norms", x.dt_bc_norms}};
  }
  j["attention_output_gate"] = m.attention_output_gate;
  j["mtp_shared_vocab"] = m.mtp_shared_vocab;
  j["extra_parameters"] = number(m.extra_parameters);
  if (m.quantization.method != quant_method::none)
    j["quantization"] = {{"method", std::string(gpuplan::to_string(m.quantization.method))},
                         {"dtype", std::string(gpuplan::to_string(m.quantization.dtype))},
                         {"group_size", m.quantization.group_size},
                         {"experts_only", m.quantization.experts_only}};
  return j;
}

namespace detail {
/// One kernel efficiency of a GPU (gpu_spec::kernels) as the GPU file holds it.
inline nlohmann::json figure_json(const efficiency_figure& f) {
  return {{"fraction", number(f.fraction)}, {"measured", f.measured}, {"source", f.source}};
}
/// A kernel efficiency read from a GPU file: a fraction in [0, 1] (0: unknown), or an object with
/// `fraction` and optionally `measured` (true unless false: the file's figure is taken as a
/// measurement of the GPU it describes). The source is the file.
inline efficiency_figure figure_from_json(const nlohmann::json& j, std::string_view key,
                                          const json_source& src) {
  // 0 (unknown) or a plausible fraction (specs/kernel_efficiency.hpp min_kernel_fraction)
  const auto fraction_ok = [](double f) {
    return f == 0.0 || (f >= min_kernel_fraction && f <= 1.0);
  };
  constexpr const char* fraction_rule =
      " must be 0 (unknown) or in [0.05, 1] (min_kernel_fraction: under 5% of the peak is a typo)";
  double f = 0.0;
  bool measured = true;
  if (j.at(std::string(key)).is_object()) {
    const json_source fs{src.file, src.key_prefix + std::string(key) + "."};
    f = get_number(j.at(std::string(key)), "fraction", fs);
    measured = get_bool_or(j.at(std::string(key)), "measured", fs, true);
    if (!fraction_ok(f)) throw error(fs.where("fraction") + fraction_rule);
  } else {
    f = get_number(j, key, src);
    if (!fraction_ok(f)) throw error(src.where(key) + fraction_rule);
  }
  return {f, measured && f > 0.0, f > 0.0 ? "the GPU file's kernel_efficiency" : ""};
}
}  // namespace detail

inline nlohmann::json to_json(const gpu_spec& g) {
  nlohmann::json aliases = nlohmann::json::array();
  for (const auto& a : g.aliases)
    if (!a.empty()) aliases.push_back(std::string(a.view()));
  const peak_rates& p = g.peak;
  return {{"name", std::string(g.name.view())},
          {"aliases", aliases},
          {"vendor", std::string(to_string(g.maker))},
          {"architecture", std::string(g.architecture.view())},
          {"form_factor", std::string(to_string(g.form))},
          {"memory_bytes", number(g.memory.in(units::B))},
          {"memory_usable_bytes", number(g.memory_usable.in(units::B))},
          {"memory_type", std::string(g.memory_type.view())},
          {"memory_bandwidth_bytes_per_s", number(g.memory_bandwidth.in(units::Bps))},
          {"peak_flops_per_s",
           {{"fp64_vector", number(p.fp64_vector.in(units::FLOPS))},
            {"fp64_tensor", number(p.fp64_tensor.in(units::FLOPS))},
            {"fp32_vector", number(p.fp32_vector.in(units::FLOPS))},
            {"tf32_tensor", number(p.tf32_tensor.in(units::FLOPS))},
            {"bf16_tensor", number(p.bf16_tensor.in(units::FLOPS))},
            {"fp16_tensor", number(p.fp16_tensor.in(units::FLOPS))},
            {"fp8_tensor", number(p.fp8_tensor.in(units::FLOPS))},
            {"int8_tensor", number(p.int8_tensor.in(units::FLOPS))},
            {"fp4_tensor", number(p.fp4_tensor.in(units::FLOPS))}}},
          {"sparsity_factor", number(p.sparsity_factor)},
          {"tdp_watts", number(g.tdp.in(units::W))},
          {"link",
           {{"kind", std::string(to_string(g.gpu_link.kind))},
            {"links", g.gpu_link.links},
            {"unidirectional_bytes_per_s", number(g.gpu_link.unidirectional().in(units::Bps))},
            {"bidirectional_bytes_per_s", number(g.gpu_link.bidirectional().in(units::Bps))},
            {"max_peers", g.gpu_link.max_peers}}},
          {"pcie", {{"generation", g.pcie.generation}, {"lanes", g.pcie.lanes}}},
          {"sm_count", g.sm_count},
          {"boost_clock_hz", number(g.boost_clock.in(units::Hz))},
          {"compute_capability_major", g.compute_capability.major},
          {"compute_capability_minor", g.compute_capability.minor},
          {"kernel_efficiency",
           {{"matmul_16bit", detail::figure_json(g.kernels.matmul_16bit)},
            {"matmul_8bit", detail::figure_json(g.kernels.matmul_8bit)},
            {"hbm", detail::figure_json(g.kernels.hbm)},
            {"moe_16bit", detail::figure_json(g.kernels.moe_16bit)},
            {"moe_8bit", detail::figure_json(g.kernels.moe_8bit)},
            {"moe_dequant", detail::figure_json(g.kernels.moe_dequant)}}}};
}



/// The run configurations, every field (the fit --json "config" object).
inline nlohmann::json to_json(const training_config& c) {
  return {{"framework", std::string(gpuplan::to_string(c.framework))},
          {"amp", c.amp},
          {"chunked_loss", c.chunked_loss},
          {"compile", c.compile},
          {"dtype", std::string(gpuplan::to_string(c.dtype))},
          {"grad_dtype", std::string(gpuplan::to_string(c.grad_dtype))},
          {"optimizer", std::string(gpuplan::to_string(c.optimizer))},
          {"master_weights", c.master_weights},
          {"recompute", std::string(gpuplan::to_string(c.recompute))},
          {"recompute_every", c.recompute_every},
          {"micro_batch", c.micro_batch},
          {"seq", c.seq},
          {"micro_batches", c.micro_batches},
          {"flash_attention", c.flash_attention},
          {"dropout", c.dropout},
          {"lora", c.lora_rank},
          {"qlora", c.qlora_rank},
          {"double_quant", c.qlora_double_quant},
          {"lora_targets", std::string(gpuplan::to_string(c.lora_targets))},
          {"offload", std::string(gpuplan::to_string(c.offload))},
          {"global_batch", c.global_batch},
          {"rampup_start", c.rampup_start},
          {"rampup_increment", c.rampup_increment},
          {"rampup_samples", c.rampup_samples}};
}

inline nlohmann::json to_json(const inference_config& c) {
  return {{"weight_dtype", std::string(gpuplan::to_string(c.weight_dtype))},
          {"kv_dtype", std::string(gpuplan::to_string(c.kv_dtype))},
          {"batch", c.batch},
          {"context", c.context},
          {"max_model_len", c.model_len()},
          {"gpu_memory_utilization", c.gpu_memory_utilization},
          {"block_size", c.block_size},
          {"quant_group_size", c.quant_group_size},
          {"quant_scale_dtype", std::string(gpuplan::to_string(c.quant_scale_dtype))},
          {"quant_zero_point", c.quant_zero_point},
          {"max_num_batched_tokens", c.max_num_batched_tokens},
          {"max_num_seqs", c.max_num_seqs},
          {"engine", std::string(gpuplan::to_string(c.engine))},
          {"mem_fraction_static", c.mem_fraction_static},
          {"free_gpu_memory_fraction", c.free_gpu_memory_fraction}};
}

/// A parallel layout from {"dp", "tp", "pp", "cp", "ep", "zero", ...}; absent keys keep their
/// defaults (1, or 0 for zero, shard_group and expert_tp). "gpus", when present, must equal dp x tp
/// x pp x cp.
inline parallel_layout layout_from_json(const nlohmann::json& j, const json_source& src) {
  if (!j.is_object()) throw error(src.file + ": a layout must be a JSON object");
  parallel_layout l;
  l.dp = get_count_or(j, "dp", src, 1);
  l.tp = get_count_or(j, "tp", src, 1);
  l.pp = get_count_or(j, "pp", src, 1);
  l.cp = get_count_or(j, "cp", src, 1);
  l.ep = get_count_or(j, "ep", src, 1);
  l.zero = get_count_or(j, "zero", src, 0, true);
  if (l.zero > 3) throw error(src.where("zero") + " must be 0, 1, 2 or 3");
  l.shard_group = get_count_or(j, "shard_group", src, 0, true);
  l.sequence_parallel = get_bool_or(j, "sequence_parallel", src, false);
  l.virtual_stages = get_count_or(j, "virtual_stages", src, 1);
  l.expert_tp = get_count_or(j, "expert_tp", src, 0, true);
  l.first_stage_layers = get_count_or(j, "first_stage_layers", src, 0, true);
  l.last_stage_layers = get_count_or(j, "last_stage_layers", src, 0, true);
  // Products in long long before the layout computes them in int (2^31 x 2 would wrap).
  const long long most = json_limits{}.max_gpus;
  const auto at_most = [&](long long v, const char* what) {
    if (v > most)
      throw error(src.file + ": " + what + " is too large (got " + std::to_string(v) +
                  "; at most " + std::to_string(most) + ")");
  };
  at_most(1LL * l.dp * l.tp * l.pp * l.cp, "dp x tp x pp x cp");
  at_most(1LL * l.ep * (l.expert_tp > 0 ? l.expert_tp : l.tp), "ep x expert_tp");
  at_most(1LL * l.pp * l.virtual_stages, "pp x virtual_stages");
  at_most(l.shard_group, "shard_group");
  if (has(j, "gpus") && get_count(j, "gpus", src) != l.gpus())
    throw error(src.where("gpus") + " is " + std::to_string(get_count(j, "gpus", src)) +
                " but dp x tp x pp x cp = " + std::to_string(l.gpus()));
  return l;
}

namespace detail {
/// A hybrid model's layer pattern (one of A, L, a, l, F per layer), its linear mixer, and the
/// flags of Qwen3-Next's gates: transformer_spec::pattern, ::linear (docs/models/architectures.md).
inline void read_hybrid_layers(const nlohmann::json& j, const json_source& src,
                               transformer_spec& m) {
  m.attention_output_gate = get_bool_or(j, "attention_output_gate", src, false);
  m.mtp_shared_vocab = get_bool_or(j, "mtp_shared_vocab", src, false);
  if (has(j, "pattern")) {
    const std::string p = get_string(j, "pattern", src);
    if (p.size() > layer_pattern::capacity)
      throw error(src.where("pattern") + " is longer than " +
                  std::to_string(layer_pattern::capacity) + " layers");
    m.pattern = layer_pattern::from(p);
  }
  if (!has(j, "linear")) return;
  const json_source ls{src.file, src.key_prefix + "linear."};
  const auto& x = j.at("linear");
  if (!x.is_object()) throw error(src.where("linear") + " must be an object");
  linear_mixer_spec& l = m.linear;
  l.kind = get_enum_or(x, "kind", ls, linear_mixer_kind::mamba2);
  l.heads = get_count_or(x, "heads", ls, 0, true);
  l.head_dim = get_count_or(x, "head_dim", ls, 0, true);
  l.groups = get_count_or(x, "groups", ls, 0, true);
  l.state_size = get_count(x, "state_size", ls);
  l.conv_kernel = get_count(x, "conv_kernel", ls);
  const long long product = 1LL * l.heads * l.head_dim;  // the default: heads x head_dim
  if (!has(x, "inner") && product > 1LL << 30)
    throw error(ls.where("heads") + " x head_dim is too large");
  l.inner = get_count_or(x, "inner", ls, static_cast<int>(product));
  l.dt_rank = get_count_or(x, "dt_rank", ls, 0, true);
  l.conv_bias = get_bool_or(x, "conv_bias", ls, false);
  l.proj_bias = get_bool_or(x, "proj_bias", ls, false);
  l.dt_bc_norms = get_bool_or(x, "dt_bc_norms", ls, false);
}
}  // namespace detail

/// A transformer from gpuplan's own JSON form (what to_json writes; derived counts such as
/// "parameters" are ignored on input). Required: name, layers, hidden, heads, ffn (unless moe
/// is given: 0 when every layer is MoE), vocab.
inline transformer_spec transformer_from_json(const nlohmann::json& j, const json_source& src) {
  if (!j.is_object()) throw error(src.file + ": a model must be a JSON object");
  transformer_spec m;
  m.name = detail::name_from(get_string(j, "name", src), "name", src);
  detail::read_aliases(j, src, m.aliases);
  m.layers = get_layer_count(j, "layers", src);
  m.hidden = get_count(j, "hidden", src);
  m.heads = get_count(j, "heads", src);
  m.kv_heads = get_count_or(j, "kv_heads", src, m.heads);
  if (m.heads % m.kv_heads != 0)
    throw error(src.where("kv_heads") + " (" + std::to_string(m.kv_heads) +
                ") must divide heads (" + std::to_string(m.heads) + ")");
  if (!has(j, "head_dim") && m.hidden % m.heads != 0)
    throw error(src.where("heads") + " does not divide hidden; give head_dim");
  m.head_dim = get_count_or(j, "head_dim", src, m.hidden / m.heads);
  // a mixture of experts in every layer has no dense FFN: 0 (or absent) is its ffn
  m.ffn = has(j, "moe") ? get_count_or(j, "ffn", src, 0, true) : get_count(j, "ffn", src);
  m.ffn_type =
      get_enum_or(j, "ffn_type", src, ffn_kind::gated);
  m.vocab = get_count(j, "vocab", src);
  m.tied_embeddings = get_bool_or(j, "tied_embeddings", src, false);
  m.positions = get_enum_or(j, "positions", src, position_kind::rotary);
  // Absent: unknown (0). Given, a model has at least one position: 0 was taken as a model whose
  // context holds no token (gpuplan issue 22).
  m.max_positions = get_count_or(j, "max_positions", src, 0);
  m.norm = get_enum_or(j, "norm", src, norm_kind::rmsnorm);
  m.qkv_bias = get_bool_or(j, "qkv_bias", src, false);
  m.out_bias = get_bool_or(j, "out_bias", src, false);
  m.mlp_bias = get_bool_or(j, "mlp_bias", src, false);
  m.sliding_window = get_count_or(j, "sliding_window", src, 0, true);
  m.native_dtype = get_enum_or(j, "native_dtype", src, precision::bf16);
  if (has(j, "moe")) {
    const json_source ms{src.file, src.key_prefix + "moe."};
    const auto& e = j.at("moe");
    if (!e.is_object()) throw error(src.where("moe") + " must be an object");
    m.moe.experts = get_count(e, "experts", ms);
    m.moe.experts_per_token = get_count(e, "experts_per_token", ms);
    if (m.moe.experts_per_token > m.moe.experts)
      throw error(ms.where("experts_per_token") + " must not exceed experts");
    m.moe.shared_experts = get_count_or(e, "shared_experts", ms, 0, true);
    m.moe.expert_ffn = get_count_or(e, "expert_ffn", ms, m.ffn);
    m.moe.shared_expert_ffn = get_count_or(e, "shared_expert_ffn", ms, 0, true);
    m.moe.first_dense_layers = get_count_or(e, "first_dense_layers", ms, 0, true);
    m.moe.layer_interval = get_count_or(e, "layer_interval", ms, 1);
    m.moe.layer_phase = get_count_or(e, "layer_phase", ms, 0, true);
    if (m.moe.layer_phase >= m.moe.layer_interval)
      throw error(ms.where("layer_phase") + " must be below layer_interval");
    m.moe.router_bias = get_bool_or(e, "router_bias", ms, false);
    m.moe.shared_expert_gate = get_bool_or(e, "shared_expert_gate", ms, false);
  }
  if (has(j, "mla")) {
    const json_source as{src.file, src.key_prefix + "mla."};
    const auto& a = j.at("mla");
    if (!a.is_object()) throw error(src.where("mla") + " must be an object");
    m.mla.q_lora_rank = get_count_or(a, "q_lora_rank", as, 0, true);
    m.mla.kv_lora_rank = get_count(a, "kv_lora_rank", as);
    m.mla.qk_nope_head_dim = get_count(a, "qk_nope_head_dim", as);
    m.mla.qk_rope_head_dim = get_count(a, "qk_rope_head_dim", as);
    m.mla.v_head_dim = get_count(a, "v_head_dim", as);
    if (!has(j, "head_dim")) m.head_dim = m.score_head_dim();
  }
  m.global_every = get_count_or(j, "global_every", src, 0, true);
  m.window = get_enum_or(j, "window", src, window_kind::sliding);
  m.qk_norm = get_bool_or(j, "qk_norm", src, false);
  m.attention_sinks = get_bool_or(j, "attention_sinks", src, false);
  m.norms_per_layer = get_count_or(j, "norms_per_layer", src, 2, true);
  m.mtp_layers = get_count_or(j, "mtp_layers", src, 0, true);
  detail::read_hybrid_layers(j, src, m);
  m.extra_parameters = detail::non_negative(j, "extra_parameters", src);
  if (!(m.extra_parameters < 1e15))
    throw error(src.where("extra_parameters") + " must be below 1e15");
  if (has(j, "quantization")) {
    const json_source qs{src.file, src.key_prefix + "quantization."};
    const auto& q = j.at("quantization");
    if (!q.is_object()) throw error(src.where("quantization") + " must be an object");
    m.quantization.method = get_enum_or(q, "method", qs, quant_method::none);
    m.quantization.dtype = get_enum_or(q, "dtype", qs, precision::bf16);
    m.quantization.group_size = get_count_or(q, "group_size", qs, 0, true);
    m.quantization.experts_only = get_bool_or(q, "experts_only", qs, false);
  }
  return m;
}

/// A GPU from JSON in to_json's form, for hardware not in the catalog. Required: name and
/// memory_bytes; everything else defaults to zero ("unknown").
inline gpu_spec gpu_from_json(const nlohmann::json& j, const json_source& src) {
  if (!j.is_object()) throw error(src.file + ": a GPU must be a JSON object");
  gpu_spec g;
  g.name = detail::name_from(get_string(j, "name", src), "name", src);
  detail::read_aliases(j, src, g.aliases);
  g.maker = get_enum_or(j, "vendor", src, vendor::other);
  if (const std::string a = get_string_or(j, "architecture", src, ""); !a.empty())
    g.architecture = detail::name_from(a, "architecture", src);
  g.form = get_enum_or(j, "form_factor", src, form_factor::other);
  const double mem = get_number(j, "memory_bytes", src);
  if (mem <= 0) throw error(src.where("memory_bytes") + " must be positive");
  g.memory = mem * units::B;
  g.memory_usable = detail::non_negative(j, "memory_usable_bytes", src) * units::B;
  if (const std::string t = get_string_or(j, "memory_type", src, ""); !t.empty())
    g.memory_type = detail::name_from(t, "memory_type", src);
  g.memory_bandwidth = detail::non_negative(j, "memory_bandwidth_bytes_per_s", src) * units::Bps;
  if (has(j, "peak_flops_per_s")) {
    const auto& p = j.at("peak_flops_per_s");
    const json_source ps{src.file, src.key_prefix + "peak_flops_per_s."};
    if (!p.is_object()) throw error(src.where("peak_flops_per_s") + " must be an object");
    g.peak.fp64_vector = detail::non_negative(p, "fp64_vector", ps) * units::FLOPS;
    g.peak.fp64_tensor = detail::non_negative(p, "fp64_tensor", ps) * units::FLOPS;
    g.peak.fp32_vector = detail::non_negative(p, "fp32_vector", ps) * units::FLOPS;
    g.peak.tf32_tensor = detail::non_negative(p, "tf32_tensor", ps) * units::FLOPS;
    g.peak.bf16_tensor = detail::non_negative(p, "bf16_tensor", ps) * units::FLOPS;
    g.peak.fp16_tensor = detail::non_negative(p, "fp16_tensor", ps) * units::FLOPS;
    g.peak.fp8_tensor = detail::non_negative(p, "fp8_tensor", ps) * units::FLOPS;
    g.peak.int8_tensor = detail::non_negative(p, "int8_tensor", ps) * units::FLOPS;
    g.peak.fp4_tensor = detail::non_negative(p, "fp4_tensor", ps) * units::FLOPS;
  }
  g.peak.sparsity_factor = detail::non_negative(j, "sparsity_factor", src, 1.0);
  g.tdp = detail::non_negative(j, "tdp_watts", src) * units::W;
  if (has(j, "link")) {
    const auto& l = j.at("link");
    const json_source ls{src.file, src.key_prefix + "link."};
    if (!l.is_object()) throw error(src.where("link") + " must be an object");
    g.gpu_link.kind = get_enum_or(l, "kind", ls, link_kind::none);
    g.gpu_link.links = get_count_or(l, "links", ls, 0, true);
    g.gpu_link.max_peers = get_count_or(l, "max_peers", ls, 0, true);
    if (has(l, "unidirectional_bytes_per_s"))
      g.gpu_link.per_direction =
          detail::non_negative(l, "unidirectional_bytes_per_s", ls) * units::Bps;
    else
      g.gpu_link.per_direction =
          0.5 * detail::non_negative(l, "bidirectional_bytes_per_s", ls) * units::Bps;
  }
  if (has(j, "pcie")) {
    const auto& p = j.at("pcie");
    const json_source ps{src.file, src.key_prefix + "pcie."};
    if (!p.is_object()) throw error(src.where("pcie") + " must be an object");
    g.pcie.generation = get_count_or(p, "generation", ps, 0, true);
    g.pcie.lanes = get_count_or(p, "lanes", ps, 0, true);
  }
  g.sm_count = get_count_or(j, "sm_count", src, 0, true);
  g.boost_clock = detail::non_negative(j, "boost_clock_hz", src) * units::Hz;
  g.compute_capability.major = get_count_or(j, "compute_capability_major", src, 0, true);
  g.compute_capability.minor = get_count_or(j, "compute_capability_minor", src, 0, true);
  if (has(j, "kernel_efficiency")) {
    const auto& k = j.at("kernel_efficiency");
    const json_source ks{src.file, src.key_prefix + "kernel_efficiency."};
    if (!k.is_object()) throw error(src.where("kernel_efficiency") + " must be an object");
    if (has(k, "matmul_16bit")) g.kernels.matmul_16bit = detail::figure_from_json(k, "matmul_16bit", ks);
    if (has(k, "matmul_8bit")) g.kernels.matmul_8bit = detail::figure_from_json(k, "matmul_8bit", ks);
    if (has(k, "hbm")) g.kernels.hbm = detail::figure_from_json(k, "hbm", ks);
    if (has(k, "moe_16bit")) g.kernels.moe_16bit = detail::figure_from_json(k, "moe_16bit", ks);
    if (has(k, "moe_8bit")) g.kernels.moe_8bit = detail::figure_from_json(k, "moe_8bit", ks);
    if (has(k, "moe_dequant"))
      g.kernels.moe_dequant = detail::figure_from_json(k, "moe_dequant", ks);
  }
  return g;
}

}  // namespace gpuplan::io
