// gpuplan/io/parse.hpp: JSON text and files in, with malformed input reported as "FILE:LINE:COLUMN: ...".
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <gpuplan/io/error.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::io {
namespace detail {

/// One line: control characters (newlines in a quoted excerpt, or in a key or value a message
/// quotes) become spaces.
inline std::string one_line(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') c = ' ';
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

}  // namespace detail

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


}  // namespace gpuplan::io
