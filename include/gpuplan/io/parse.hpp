// gpuplan/io/parse.hpp: JSON text and files in, with malformed input reported as "FILE:LINE:COLUMN: ...".
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <gpuplan/io/error.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace gpuplan::io {
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
  const auto at = w.find("parse error");
  if (at != std::string_view::npos) {
    const auto colon = w.find(": ", at);
    if (colon != std::string_view::npos) w.remove_prefix(colon + 2);
  }
  return one_line(std::string(w));
}

}  // namespace detail

/// Parses JSON text; on malformed input throws io::error "SOURCE:LINE:COLUMN: malformed JSON: ..."
/// with the line and column computed from the byte nlohmann reports: the last character the
/// parser read, i.e. the end of the offending token (the closing quote of an unexpected string).
inline nlohmann::json parse_json(std::string_view text, std::string_view source) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based: the index of the last character read (size + 1 at the end of input).
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    const text_position p = position_of(text, offset);
    throw error(std::string(source) + ":" + std::to_string(p.line) + ":" +
                std::to_string(p.column) +
                ": malformed JSON: " + detail::parse_explanation(e.what()));
  }
}

/// Reads and parses a JSON file; io::error when it is missing, unreadable or malformed.
inline nlohmann::json read_json_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw error(path.string() + ": no such file");
  if (std::filesystem::is_directory(path, ec))
    throw error(path.string() + ": is a directory, not a JSON file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(path.string() + ": cannot open the file for reading");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw error(path.string() + ": read error");
  return parse_json(text, path.string());
}


}  // namespace gpuplan::io
