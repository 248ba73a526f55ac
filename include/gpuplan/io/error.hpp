// gpuplan/io/error.hpp: the error type of the I/O edge, and positions in a text for its messages.
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string_view>

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

}  // namespace gpuplan::io
