// gpuplan/io/json.hpp: JSON in and out for specs and layouts, and the error type of the I/O edge.
//
// An edge of the library (target gpuplan::json, needs nlohmann-json): never included by the
// umbrella header. Quantities are written as plain numbers in the base unit named by the key's
// suffix (`memory_bytes`, `memory_bandwidth_bytes_per_s`, `tdp_watts`), so a script never has to
// guess whether "80" meant GB or GiB. Reading is strict: a missing required key, a value of the
// wrong type or an unknown enum spelling throws gpuplan::io::error naming the key and the file.
#pragma once

#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/specs/transformer.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::io {

/// A problem with input read from outside the program: a missing or unreadable file, malformed
/// JSON, a missing key, a value of the wrong type or out of range. what() is one line that names
/// the source (file name), the place (line:column or key) and the problem.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A 1-based line and column in a text.
struct text_position {
  std::size_t line = 1;
  std::size_t column = 1;
};

/// The line and column of the character at 0-based byte offset `offset` in `text` (an offset past
/// the end names the position just after the last character). Columns count bytes.
inline text_position position_of(std::string_view text, std::size_t offset) {
  text_position p;
  const std::size_t end = offset < text.size() ? offset : text.size();
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

namespace detail {

/// One line: control characters (newlines in a quoted excerpt) become spaces.
inline std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

/// nlohmann's explanation without its "[json.exception.parse_error.101] parse error at ...: "
/// prefix (whose position format differs between versions; we print our own).
inline std::string parse_explanation(const char* what) {
  std::string_view w = what;
  if (w.rfind("[json.exception.", 0) == 0 && w.find("] ") != std::string_view::npos)
    w.remove_prefix(w.find("] ") + 2);
  const auto at = w.find("parse error");
  if (at != std::string_view::npos) {
    const auto colon = w.find(": ", at);
    if (colon != std::string_view::npos) w.remove_prefix(colon + 2);
  }
  return one_line(std::string(w));
}

inline std::string type_name(const nlohmann::json& j) {
  if (j.is_number_integer()) return "an integer";
  if (j.is_number_float()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_null()) return "null";
  if (j.is_array()) return "an array";
  return "an object";
}

}  // namespace detail

/// The limits of the JSON readers (docs/reliability.md): past them, input is refused with an
/// io::error naming the source and the place, rather than exhausting the stack or the memory.
struct json_limits {
  /// Deepest nesting of arrays and objects. gpuplan's own forms nest 3 levels deep and Hugging
  /// Face configs 4 (a multimodal model's text_config.rope_scaling); 64 leaves room for any real
  /// file while keeping recursive walks over the result (comparison, dump, destruction) shallow.
  std::size_t max_depth = 64;
  /// Largest file read_json_file reads. A config.json or a plan is a few KiB; 64 MiB is far
  /// beyond any of them, and refuses /dev/zero or a model's weights given by mistake before they
  /// fill the memory.
  std::uintmax_t max_file_bytes = std::uintmax_t{64} * 1024 * 1024;
  /// Most transformer layers a model read from a file may have. The deepest trained transformer
  /// published has 1,000 layers (DeepNet, Wang et al. 2022, arXiv:2203.00555); the largest
  /// production models about 130 (Llama 3.1 405B: 126). The models visit every layer, so a
  /// config claiming 2^31 of them would take minutes to plan: refused instead.
  int max_layers = 100'000;
  /// Most GPUs a layout read from a file may span: 2^24 (16.7 million), the bound the CLI puts on
  /// its flags, far beyond any cluster built (about 10^5 GPUs). Keeping dp x tp x pp x cp, ep x
  /// expert_tp and pp x virtual_stages below it keeps the layout's own int arithmetic exact.
  long long max_gpus = 1LL << 24;
};

namespace detail {

/// The offset of the first bracket that nests deeper than `max_depth` (strings skipped).
inline std::size_t depth_offset(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > max_depth) return i;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return text.size();
}

/// nlohmann's SAX events into a DOM, refusing what json::parse would accept silently: a key given
/// twice in one object (parse keeps the last), and nesting deeper than the limit. Syntax errors,
/// numbers out of double's range included, keep the byte where they were found.
class strict_dom_builder {
 public:
  using json = nlohmann::json;
  enum class problem : unsigned char { none, syntax, duplicate_key, too_deep };

  strict_dom_builder(json& root, std::size_t max_depth) : root_(root), max_depth_(max_depth) {}

  bool null() { return place(json(nullptr)); }
  bool boolean(bool v) { return place(json(v)); }
  bool number_integer(json::number_integer_t v) { return place(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return place(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return place(json(v)); }
  bool string(json::string_t& v) { return place(json(std::move(v))); }
  bool binary(json::binary_t& v) { return place(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    if (stack_.back()->contains(k)) {
      problem_ = problem::duplicate_key;
      detail_ = path() + k;
      return false;
    }
    keys_.back() = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const json::exception& e) {
    problem_ = problem::syntax;
    position_ = position;
    // 406: a number past double's range; nlohmann says "number overflow parsing '1e309'".
    const std::string_view w = e.what();
    const auto token = w.find(" '");
    detail_ = e.id == 406 && token != std::string_view::npos
                  ? "number out of range:" + std::string(w.substr(token))
                  : parse_explanation(e.what());
    return false;
  }

  [[nodiscard]] problem what() const { return problem_; }
  [[nodiscard]] const std::string& detail() const { return detail_; }
  [[nodiscard]] std::size_t position() const { return position_; }

 private:
  /// "moe." or "aliases[2]." : where the current container is, for messages.
  [[nodiscard]] std::string path() const {
    std::string p;
    for (std::size_t i = 1; i < stack_.size(); ++i) {
      const json& parent = *stack_[i - 1];
      p += parent.is_array() ? "[" + std::to_string(parent.size() - 1) + "]" : keys_[i - 1];
      if (!stack_[i]->is_array()) p += ".";
    }
    return p;
  }
  json* put(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    json& slot = top[keys_.back()];
    slot = std::move(v);
    return &slot;
  }
  bool place(json&& v) {
    put(std::move(v));
    return true;
  }
  bool open(json&& container) {
    if (stack_.size() >= max_depth_) {
      problem_ = problem::too_deep;
      return false;
    }
    stack_.push_back(put(std::move(container)));
    keys_.emplace_back();
    return true;
  }
  bool close() {
    stack_.pop_back();
    keys_.pop_back();
    return true;
  }

  json& root_;
  std::size_t max_depth_;
  std::vector<json*> stack_;
  std::vector<std::string> keys_;
  problem problem_ = problem::none;
  std::string detail_;
  std::size_t position_ = 0;
};

}  // namespace detail

/// Parses JSON text; on bad input throws io::error naming `source`:
///   "SOURCE:LINE:COLUMN: malformed JSON: ..." for a syntax error or a number out of double's
///   range, with the line and column of the byte nlohmann reports: the last character the parser
///   read, i.e. the end of the offending token (the closing quote of an unexpected string);
///   "SOURCE:LINE:COLUMN: nesting deeper than N levels" at the first bracket past the limit;
///   "SOURCE: key 'a.b' appears twice in one object" (JSON leaves it undefined; gpuplan refuses
///   rather than guess which one was meant).
/// A UTF-8 byte-order mark at the very start is skipped, as nlohmann does.
inline nlohmann::json parse_json(std::string_view text, std::string_view source,
                                 const json_limits& limits = {}) {
  nlohmann::json root;
  detail::strict_dom_builder sax(root, limits.max_depth);
  if (nlohmann::json::sax_parse(text.begin(), text.end(), &sax)) return root;
  const auto at = [&](std::size_t offset) {
    const text_position p = position_of(text, offset);
    return std::string(source) + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
  };
  switch (sax.what()) {
    case detail::strict_dom_builder::problem::duplicate_key:
      throw error(std::string(source) + ": key '" + detail::one_line(sax.detail()) +
                  "' appears twice in one object");
    case detail::strict_dom_builder::problem::too_deep:
      throw error(at(detail::depth_offset(text, limits.max_depth)) + ": nesting deeper than " +
                  std::to_string(limits.max_depth) + " levels of arrays and objects");
    default:
      // position is 1-based: the index of the last character read (size + 1 at the end of input).
      throw error(at(sax.position() > 0 ? sax.position() - 1 : 0) +
                  ": malformed JSON: " + sax.detail());
  }
}

/// Reads and parses a JSON file; io::error when it is missing, unreadable, larger than
/// limits.max_file_bytes (checked before reading a regular file, while reading anything else: a
/// pipe, a device) or malformed.
inline nlohmann::json read_json_file(const std::filesystem::path& path,
                                     const json_limits& limits = {}) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw error(path.string() + ": no such file");
  if (std::filesystem::is_directory(path, ec))
    throw error(path.string() + ": is a directory, not a JSON file");
  const auto too_large = [&](const std::string& size) {
    return error(path.string() + ": the file is too large (" + size + " bytes; the limit is " +
                 std::to_string(limits.max_file_bytes) + ")");
  };
  if (std::filesystem::is_regular_file(path, ec)) {
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > limits.max_file_bytes) throw too_large(std::to_string(size));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(path.string() + ": cannot open the file for reading");
  std::string text;
  std::array<char, 65536> buffer{};
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    text.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > limits.max_file_bytes)
      throw too_large("more than " + std::to_string(limits.max_file_bytes));
  }
  if (in.bad()) throw error(path.string() + ": read error");
  return parse_json(text, path.string(), limits);
}

// ---- strict readers: each names the key and the source on failure -----------------------------

/// Where a value came from, for messages: "config.json", "plan.json: model".
struct json_source {
  std::string file;
  std::string key_prefix;  ///< "" or "moe." for nested objects

  [[nodiscard]] std::string where(std::string_view key) const {
    return file + ": key '" + key_prefix + std::string(key) + "'";
  }
};

/// Whether `key` is present and not null.
inline bool has(const nlohmann::json& j, std::string_view key) {
  const auto it = j.find(key);
  return it != j.end() && !it->is_null();
}

inline const nlohmann::json& require_key(const nlohmann::json& j, std::string_view key,
                                         const json_source& src) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) throw error(src.where(key) + " is missing");
  return *it;
}

namespace detail {
/// A double for a message: the shortest form that reads back ("1e+30", "2.5").
inline std::string show_double(double d) {
  char buf[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}
}  // namespace detail

/// An integer value (a float with an integral value is accepted: 4096.0). A value past the range
/// of long long (2^63 and up, 1e30) is "too large" with the value as written, never wrapped.
inline long long as_integer(const nlohmann::json& v, std::string_view key, const json_source& src) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<unsigned long long>();
    if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
      throw error(src.where(key) + " is too large (got " + std::to_string(u) + ")");
    return static_cast<long long>(u);
  }
  if (v.is_number_integer()) return v.get<long long>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) throw error(src.where(key) + " must be finite");
    if (std::floor(d) == d) {
      if (std::fabs(d) < 9.0e15) return static_cast<long long>(d);
      throw error(src.where(key) + (d > 0 ? " is too large" : " is too small") + " (got " +
                  detail::show_double(d) + ")");
    }
  }
  throw error(src.where(key) + " must be an integer, not " + detail::type_name(v));
}

/// A required integer that is > 0 (or >= 0 when zero_ok) and fits an int.
inline int get_count(const nlohmann::json& j, std::string_view key, const json_source& src,
                     bool zero_ok = false) {
  const long long v = as_integer(require_key(j, key, src), key, src);
  if (v < 0 || (v == 0 && !zero_ok))
    throw error(src.where(key) + (zero_ok ? " must not be negative" : " must be positive") +
                " (got " + std::to_string(v) + ")");
  if (v > std::numeric_limits<int>::max())
    throw error(src.where(key) + " is too large (got " + std::to_string(v) + ")");
  return static_cast<int>(v);
}
/// A layer count: get_count, and at most `limits.max_layers`.
inline int get_layer_count(const nlohmann::json& j, std::string_view key, const json_source& src,
                           const json_limits& limits = {}) {
  const int v = get_count(j, key, src);
  if (v > limits.max_layers)
    throw error(src.where(key) + " is too large (got " + std::to_string(v) + "; at most " +
                std::to_string(limits.max_layers) + " layers)");
  return v;
}
inline int get_count_or(const nlohmann::json& j, std::string_view key, const json_source& src,
                        int fallback, bool zero_ok = false) {
  return has(j, key) ? get_count(j, key, src, zero_ok) : fallback;
}

inline bool get_bool_or(const nlohmann::json& j, std::string_view key, const json_source& src,
                        bool fallback) {
  if (!has(j, key)) return fallback;
  const auto& v = j.at(std::string(key));
  if (!v.is_boolean())
    throw error(src.where(key) + " must be true or false, not " + detail::type_name(v));
  return v.get<bool>();
}

inline double get_number(const nlohmann::json& j, std::string_view key, const json_source& src) {
  const auto& v = require_key(j, key, src);
  if (!v.is_number())
    throw error(src.where(key) + " must be a number, not " + detail::type_name(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw error(src.where(key) + " must be finite");
  return d;
}
inline double get_number_or(const nlohmann::json& j, std::string_view key, const json_source& src,
                            double fallback) {
  return has(j, key) ? get_number(j, key, src) : fallback;
}

inline std::string get_string(const nlohmann::json& j, std::string_view key,
                              const json_source& src) {
  const auto& v = require_key(j, key, src);
  if (!v.is_string())
    throw error(src.where(key) + " must be a string, not " + detail::type_name(v));
  return v.get<std::string>();
}
inline std::string get_string_or(const nlohmann::json& j, std::string_view key,
                                 const json_source& src, std::string fallback) {
  return has(j, key) ? get_string(j, key, src) : fallback;
}

// ---- enums: read by their name tables (gpuplan/specs/enum_names.hpp) ----------------------------

/// The enumerator named by the string at `key` (ASCII case ignored), `fallback` when the key is
/// absent; io::error listing the names when it names none.
template <named_enum E>
E get_enum_or(const nlohmann::json& j, std::string_view key, const json_source& src, E fallback) {
  if (!has(j, key)) return fallback;
  const std::string s = get_string(j, key, src);
  E e{};
  if (parse_enum(s, e)) return e;
  std::string expected;
  for (const enumerator<E>& x : enumerators(e))
    expected += (expected.empty() ? "" : ", ") + std::string(x.name);
  throw error(src.where(key) + ": unknown value '" + s + "' (expected one of " + expected + ")");
}
inline precision get_precision_or(const nlohmann::json& j, std::string_view key,
                                  const json_source& src, precision fallback) {
  return get_enum_or(j, key, src, fallback);
}

// ---- specs to JSON -----------------------------------------------------------------------------

/// A number as JSON: an integer when it is a whole number a double holds exactly (parameter
/// counts, bytes, FLOP/s, blocks), else a floating-point number.
inline nlohmann::json number(double v) {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15)
    return static_cast<long long>(v);
  return v;
}

/// A size in bytes, rounded to whole bytes (int4 halves aside): a JSON integer while a double
/// holds it exactly, else a floating-point number (never a wrapped-around 64-bit integer).
inline nlohmann::json bytes_value(data_size d) {
  const double v = d.in(units::B);
  if (!std::isfinite(v)) return nullptr;
  return number(std::round(v));
}

/// A count as JSON: an integer when it is a whole number that a double holds exactly (parameter
/// counts, blocks, tokens), else a number.
inline nlohmann::json count_value(double v) { return number(v); }

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
          {"expert_tp", l.expert_tp}};
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
                      {"max_positions", m.max_positions},
                      {"positions", std::string(to_string(m.positions))},
                      {"norm", std::string(to_string(m.norm))},
                      {"qkv_bias", m.qkv_bias},
                      {"out_bias", m.out_bias},
                      {"mlp_bias", m.mlp_bias},
                      {"sliding_window", m.sliding_window},
                      {"native_dtype", std::string(gpuplan::to_string(m.native_dtype))}};
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
                {"layer_interval", m.moe.layer_interval}};
  return j;
}

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
          {"boost_clock_hz", number(g.boost_clock.in(units::Hz))}};
}

// ---- specs from JSON ---------------------------------------------------------------------------

namespace detail {
inline name_string name_from(const std::string& s, std::string_view key, const json_source& src) {
  if (s.empty()) throw error(src.where(key) + " must not be empty");
  if (s.find('\0') != std::string::npos)
    throw error(src.where(key) + " must not contain a NUL character (\\u0000)");
  if (s.size() > name_string::capacity)
    throw error(src.where(key) + " is longer than " + std::to_string(name_string::capacity) +
                " characters");
  return name_string::from(s);
}
/// An optional "aliases" array of strings into a fixed array of names.
template <std::size_t N>
void read_aliases(const nlohmann::json& j, const json_source& src,
                  std::array<name_string, N>& out) {
  if (!has(j, "aliases")) return;
  const auto& a = j.at("aliases");
  if (!a.is_array() || a.size() > N)
    throw error(src.where("aliases") + " must be an array of at most " + std::to_string(N) +
                " strings");
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string()) throw error(src.where("aliases") + " must hold strings");
    out[i] = name_from(a[i].get<std::string>(), "aliases", src);
  }
}
inline double non_negative(const nlohmann::json& j, std::string_view key, const json_source& src,
                           double fallback = 0.0) {
  const double v = get_number_or(j, key, src, fallback);
  if (v < 0) throw error(src.where(key) + " must not be negative");
  return v;
}
}  // namespace detail

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

/// A transformer from gpuplan's own JSON form (what to_json writes; derived counts such as
/// "parameters" are ignored on input). Required: name, layers, hidden, heads, ffn, vocab.
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
  m.ffn = get_count(j, "ffn", src);
  m.ffn_type =
      get_enum_or(j, "ffn_type", src, ffn_kind::gated);
  m.vocab = get_count(j, "vocab", src);
  m.tied_embeddings = get_bool_or(j, "tied_embeddings", src, false);
  m.positions = get_enum_or(j, "positions", src, position_kind::rotary);
  m.max_positions = get_count_or(j, "max_positions", src, 0, m.positions == position_kind::rotary);
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
  return g;
}

}  // namespace gpuplan::io
