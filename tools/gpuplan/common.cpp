// tools/gpuplan/common.cpp: name resolution, tables and number display shared by the commands.
#include "cli.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/hf_cache.hpp>
#include <gpuplan/io/hf_config.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/models/estimates.hpp>
#include <gpuplan/specs/layout.hpp>

#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

namespace gpuplan::cli {

std::string did_you_mean(const std::array<std::string_view, 3>& names) {
  std::vector<std::string_view> n;
  for (auto s : names)
    if (!s.empty()) n.push_back(s);
  if (n.empty()) return "";
  std::string out = "; did you mean ";
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (i > 0) out += (i + 1 == n.size()) ? " or " : ", ";
    out += n[i];
  }
  return out + "?";
}

double parse_count(std::string_view text, std::string_view what) {
  std::string_view t = text;
  double scale = 1.0;
  if (!t.empty()) {
    switch (std::tolower(static_cast<unsigned char>(t.back()))) {
      case 'k':
        scale = 1e3;
        break;
      case 'm':
        scale = 1e6;
        break;
      case 'b':
        scale = 1e9;
        break;
      case 't':
        scale = 1e12;
        break;
      default:
        break;
    }
    if (scale != 1.0) t.remove_suffix(1);
  }
  double v = 0.0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc{} || end != t.data() + t.size() || !std::isfinite(v))
    throw usage_error(
        fmt::format("{} '{}' is not a number (examples: 7.5e9, 7.5B, 125M)", what, text));
  // 1e300T is a finite number times a suffix past a double's range
  const double n = v * scale;
  if (!std::isfinite(n)) throw usage_error(fmt::format("{} is too large (got {})", what, text));
  // A count of things (tokens, parameters, GPUs) is at least one of them: 1e-308 tokens was
  // taken as a budget and 1e-308 parameters as a model (gpuplan issue 22).
  if (n < 1.0) throw usage_error(fmt::format("{} must be at least 1 (got {})", what, text));
  return n;
}

// ---- GPUs ---------------------------------------------------------------------------------------

namespace {
bool looks_like_json_file(std::string_view s) {
  return s.size() > 5 && s.substr(s.size() - 5) == ".json";
}
}  // namespace

namespace {
/// A gpu_spec field named in the library's messages and its key in a GPU file (io::gpu_from_json),
/// longest names first so that "gpu_spec.memory_usable" is not read as "gpu_spec.memory".
constexpr std::pair<std::string_view, std::string_view> gpu_file_keys[] = {
    {"gpu_spec.memory_bandwidth", "memory_bandwidth_bytes_per_s"},
    {"gpu_spec.memory_usable", "memory_usable_bytes"},
    {"gpu_spec.peak.sparsity_factor", "sparsity_factor"},
    {"gpu_spec.compute_capability", "compute_capability_major/_minor"},
    {"gpu_spec.boost_clock", "boost_clock_hz"},
    {"gpu_spec.sm_count", "sm_count"},
    {"gpu_spec.memory", "memory_bytes"},
    {"gpu_spec.peak.", "peak_flops_per_s."},
    {"gpu_spec.name", "name"},
    {"gpu_spec.tdp", "tdp_watts"},
    {"link_spec.per_direction", "link.unidirectional_bytes_per_s"},
    {"link_spec.", "link."},
    {"pcie_spec.", "pcie."},
};

/// A library message about a gpu_spec read from `file`, with the file's keys for the fields:
/// "gpu_spec.memory must be positive" -> "my.json: key 'memory_bytes' must be positive".
std::string in_gpu_file_terms(std::string what, const gpu_choice& g) {
  if (what.rfind("gpuplan: ", 0) == 0) what.erase(0, 9);
  std::string out;
  for (std::size_t i = 0; i < what.size();) {
    bool replaced = false;
    for (const auto& [field, key] : gpu_file_keys)
      if (what.compare(i, field.size(), field) == 0) {
        // a prefix ("gpu_spec.peak.") takes the rest of the word with it
        std::size_t end = i + field.size();
        if (field.back() == '.')
          while (end < what.size() && (std::isalnum(static_cast<unsigned char>(what[end])) ||
                                       what[end] == '_'))
            ++end;
        out += "key '" + g.key_prefix + std::string(key) + what.substr(i + field.size(), end - i - field.size()) +
               "'";
        i = end;
        replaced = true;
        break;
      }
    if (!replaced) out += what[i++];
  }
  return g.file + ": " + out;
}
}  // namespace

void check_gpu(const gpu_choice& g, gpu_use use) {
  if (g.file.empty()) {
    use == gpu_use::memory ? g.spec.validate_memory() : g.spec.validate();
    return;
  }
  try {
    g.spec.validate_memory();
  } catch (const invalid_input& e) {
    throw usage_error(in_gpu_file_terms(e.what(), g));
  }
  if (use == gpu_use::memory) return;
  // The timing models read the memory bandwidth (every decode step, every optimizer pass) and
  // the tensor rate of the compute dtype; the file's minimal form has neither.
  const peak_rates& p = g.spec.peak;
  // no rate at all (fp32 math runs on the vector units: a file with fp32_vector alone times
  // --dtype fp32); the rate of the run's own dtype is checked where it is read
  const bool no_rates = p.fp64_vector.value == 0 && p.fp64_tensor.value == 0 &&
                        p.fp32_vector.value == 0 && p.tf32_tensor.value == 0 &&
                        p.bf16_tensor.value == 0 && p.fp16_tensor.value == 0 &&
                        p.fp8_tensor.value == 0 && p.int8_tensor.value == 0 &&
                        p.fp4_tensor.value == 0;
  const bool no_bandwidth = !(g.spec.memory_bandwidth.value > 0);
  if (no_bandwidth || no_rates)
    throw usage_error(fmt::format(
        "{}: {}: this command times the work and needs '{}memory_bandwidth_bytes_per_s' and "
        "'{}peak_flops_per_s' with the tensor rate of its dtype (e.g. 'bf16_tensor'); fit needs "
        "only 'name' and 'memory_bytes' (docs/json-schema.md)",
        g.file,
        no_bandwidth && no_rates
            ? fmt::format("keys '{0}memory_bandwidth_bytes_per_s' and '{0}peak_flops_per_s' are "
                          "missing or 0",
                          g.key_prefix)
        : no_bandwidth ? fmt::format("key '{}memory_bandwidth_bytes_per_s' is missing or 0",
                                     g.key_prefix)
                       : fmt::format("key '{}peak_flops_per_s' has no tensor rate", g.key_prefix),
        g.key_prefix, g.key_prefix));
  try {
    g.spec.validate();
  } catch (const invalid_input& e) {
    throw usage_error(in_gpu_file_terms(e.what(), g));
  }
}

gpu_choice resolve_gpu(std::string_view name) {
  if (name.empty()) throw usage_error("--gpu: empty GPU name");
  if (same_ignoring_case(name, "local")) return probe_local_gpu();
  if (const gpu_spec* g = catalog::find_gpu(name)) return {*g, "catalog"};
  std::error_code ec;
  if (looks_like_json_file(name) || std::filesystem::is_regular_file(std::string(name), ec)) {
    const std::string file(name);
    const nlohmann::json j = io::read_json_file(file);
    gpu_choice g{io::gpu_from_json(j, {file, ""}), "file", file};
    check_gpu(g, gpu_use::memory);
    return g;
  }
  throw usage_error(fmt::format("unknown GPU '{}'{} (gpuplan gpus lists them all)", name,
                                did_you_mean(catalog::nearest_gpu_names(name))));
}

// ---- models -------------------------------------------------------------------------------------

std::string model_choice::name() const {
  if (transformer) return std::string(transformer->name.view());
  if (generic) return std::string(generic->name.view());
  return "";
}
double model_choice::parameters() const {
  if (transformer) return transformer->parameters();
  if (generic) return generic->parameters;
  return 0.0;
}

model_choice model_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw io::error(where + " must be a JSON object");
  if (j.contains("architectures") || j.contains("model_type"))
    return {io::from_hf_config(j, {where, ""}), std::nullopt, "hf-config"};
  return {io::transformer_from_json(j, {where, ""}), std::nullopt, "file"};
}

model_choice resolve_model(std::string_view text) {
  if (text.empty()) throw usage_error("--model: empty model name");
  if (text.substr(0, 7) == "params:") {
    const double n = parse_count(text.substr(7), "--model params:N");
    // The largest model published has 1.6e12 parameters (Switch-C, Fedus et al., JMLR 2022);
    // 1e15 is 600 times that and keeps every byte count the models derive finite (1e308
    // parameters gave "needs inf GiB").
    constexpr double max_parameters = 1e15;
    if (n > max_parameters)
      throw usage_error(
          fmt::format("--model params:N is too large (got {}; at most {:g})", n, max_parameters));
    generic_workload w;
    w.name = name_string::from(text.size() <= name_string::capacity ? text : text.substr(0, 63));
    w.parameters = n;
    return {std::nullopt, w, "params"};
  }
  if (const transformer_spec* m = catalog::find_model(text)) return {*m, std::nullopt, "catalog"};
  const std::filesystem::path p{std::string(text)};
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec))
    return {io::load_hf_config(p), std::nullopt, "hf-config"};
  if (std::filesystem::exists(p, ec) || looks_like_json_file(text)) {
    const nlohmann::json j = io::read_json_file(p);
    if (j.is_object() && (j.contains("architectures") || j.contains("model_type"))) {
      return {io::from_hf_config(j, {p.string(), ""}, io::hf_config_model_name(p)), std::nullopt,
              "hf-config"};
    }
    return {io::transformer_from_json(j, {p.string(), ""}), std::nullopt, "file"};
  }
  // A Hugging Face id ("deepseek-ai/DeepSeek-V3"): its config.json in the local Hugging Face
  // cache, found as huggingface_hub finds it (io/hf_cache.hpp); the model is named by the id.
  if (io::is_hf_repo_id(text)) {
    const io::hf_cache_lookup found = io::find_hf_cached_config(text);
    if (found.found()) {
      const nlohmann::json j = io::read_json_file(found.file);
      return {io::from_hf_config(j, {found.file.string(), ""}, text), std::nullopt, "hf-cache"};
    }
    throw usage_error(fmt::format(
        "unknown model '{}': not in the catalog, and no config.json in the Hugging Face cache "
        "(looked for {}){} (gpuplan models lists the catalog; or give a config.json path or "
        "params:N)",
        text, found.where_looked(), did_you_mean(catalog::nearest_model_names(text))));
  }
  throw usage_error(fmt::format(
      "unknown model '{}'{} (gpuplan models lists them; or give a config.json path or params:N)",
      text, did_you_mean(catalog::nearest_model_names(text))));
}

// ---- output -------------------------------------------------------------------------------------

std::string table::render(std::string_view indent) const {
  const std::size_t cols = header.size();
  std::vector<std::size_t> width(cols, 0);
  auto measure = [&](const std::vector<std::string>& r) {
    for (std::size_t c = 0; c < cols && c < r.size(); ++c)
      width[c] = std::max(width[c], r[c].size());
  };
  measure(header);
  for (const auto& r : rows) measure(r);
  std::string out;
  auto line = [&](const std::vector<std::string>& r) {
    std::string l(indent);
    for (std::size_t c = 0; c < cols; ++c) {
      const std::string& cell = c < r.size() ? r[c] : std::string();
      const bool right = c < numeric.size() && numeric[c];
      const std::string pad(width[c] - cell.size(), ' ');
      if (c > 0) l += "  ";
      l += right ? pad + cell : cell + (c + 1 < cols ? pad : std::string());
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  line(header);
  std::size_t total = 0;
  for (std::size_t c = 0; c < cols; ++c) total += width[c] + (c > 0 ? 2 : 0);
  out += std::string(indent) + std::string(total, '-') + "\n";
  for (const auto& r : rows) line(r);
  return out;
}

command add_listing_command(CLI::App& sub, const char* json_help, int (*print)(bool json)) {
  auto json = std::make_shared<bool>(false);
  sub.add_flag("--json", *json, json_help);
  return {&sub, [json, print] { return print(*json); }};
}

namespace {
/// Where print_json() puts the report instead of stdout on this thread (api.cpp), when set.
thread_local nlohmann::json* json_sink = nullptr;
}  // namespace

json_capture::json_capture(nlohmann::json& into) : previous_(json_sink) { json_sink = &into; }
json_capture::~json_capture() { json_sink = previous_; }

void print_json(nlohmann::json&& j) {
  if (json_sink != nullptr) {
    *json_sink = std::move(j);  // a report of hundreds of fields: moved, not copied
    return;
  }
  print_json(static_cast<const nlohmann::json&>(j));
}

void print_json(const nlohmann::json& j) {
  if (json_sink != nullptr) {
    *json_sink = j;
    return;
  }
  // Invalid UTF-8 in user-supplied names (a file path, a config's _name_or_path) becomes U+FFFD
  // rather than an exception.
  fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::vector<std::string> warning_lines(const estimate_notes& notes) {
  std::vector<std::string> out;
  for (const estimate_note& n : notes) {
    const std::string_view gpu = n.gpu.view();
    switch (n.kind) {
      case estimate_kind::usable_memory:
        out.push_back(fmt::format(
            "usable memory of {}: {} is an estimate ({}); drivers report less, e.g. {:.0f} of "
            "{:.0f} MiB on an H100 SXM",
            gpu, show(n.value * units::B), n.source,
            catalog::h100_sxm.memory_usable.in(units::MiB), catalog::h100_sxm.memory.in(units::MiB)));
        break;
      case estimate_kind::matmul_efficiency:
        out.push_back(fmt::format(
            "GEMM efficiency of {}: {:.3f} of the tensor peak is an estimate ({}), not a "
            "published measurement of this GPU; --set {}=VALUE replaces it",
            gpu, n.value, n.source, n.field));
        break;
      case estimate_kind::serving_efficiency:
        out.push_back(fmt::format(
            "kernel efficiency on {}: {} {:.3f} is an estimate ({}), not a published "
            "measurement of this GPU; --set {}=VALUE replaces it",
            gpu, n.field, n.value, n.source, n.field));
        break;
      case estimate_kind::hbm_efficiency:
        out.push_back(fmt::format(
            "HBM efficiency of {}: {:.3f} of the datasheet bandwidth is an estimate ({}), not a "
            "published measurement of this GPU; --set {}=VALUE replaces it",
            gpu, n.value, n.source, n.field));
        break;
      case estimate_kind::fp4_gemm_efficiency:
        out.push_back(fmt::format("fp4 GEMM efficiency on {}: {:.3f} of the fp4 peak is an "
                                  "estimate ({}); --set {}=VALUE replaces it",
                                  gpu, n.value, n.source, n.field));
        break;
    }
  }
  return out;
}

void add_warnings(nlohmann::json& j, const estimate_notes& notes) {
  j["warnings"] = warning_lines(notes);
}

void flush_output() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    // errno is that of the failed write; 0 when an earlier write failed (the stream keeps only
    // that it failed), then the reason is the stream's: an I/O error
    const int err = errno != 0 ? errno : EIO;
    throw output_error(std::string("cannot write the output: ") + std::strerror(err));
  }
}

void print_warnings(const estimate_notes& notes) {
  flush_output();
  for (const std::string& line : warning_lines(notes)) fmt::print(stderr, "note: {}\n", line);
}

// Sizes print with binary prefixes (GiB = 2^30 bytes: what PyTorch, nvidia-smi and vLLM report).
std::string show(data_size d) { return fmt::format("{}", d); }
std::string show(bandwidth b) { return fmt::format("{}", b); }
std::string show(compute_rate r) { return fmt::format("{}", r); }
std::string show(power p) { return fmt::format("{}", p); }

std::string secs(duration d) {
  const double s = d.in(units::s);
  if (s < 1e-3) return fmt::format("{:.1f} us", s * 1e6);
  if (s < 1.0) return fmt::format("{:.1f} ms", s * 1e3);
  if (s < 600.0) return fmt::format("{:.2f} s", s);
  if (s < 3 * 86400.0) return fmt::format("{:.1f} h", s / 3600.0);
  return fmt::format("{:.1f} days", s / 86400.0);
}

std::string layout_text(const parallel_layout& l) {
  std::string t = fmt::format("TP {} x PP {} x DP {}", l.tp, l.pp, l.dp);
  if (l.cp > 1) t += fmt::format(" x CP {}", l.cp);
  if (l.ep > 1) t += fmt::format(", EP {}", l.ep);
  if (l.virtual_stages > 1) t += fmt::format(", {} chunks", l.virtual_stages);
  if (l.zero > 0) t += fmt::format(", ZeRO-{}", l.zero);
  if (l.sequence_parallel) t += ", SP";
  return t;
}

std::string pct(double x) { return fmt::format("{:.0f}%", x * 100); }

std::string show_count(double n) {
  const double a = std::fabs(n);
  if (a >= 1e12) return fmt::format("{:.3g}T", n / 1e12);
  if (a >= 1e9) return fmt::format("{:.3g}B", n / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g}M", n / 1e6);
  if (a >= 1e3) return fmt::format("{:.3g}k", n / 1e3);
  return fmt::format("{:.3g}", n);
}

}  // namespace gpuplan::cli
