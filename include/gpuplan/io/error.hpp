// gpuplan/io/error.hpp: the error type of the I/O edge, the limits past which its readers refuse
// input, and positions in a text for its messages.
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <gpuplan/specs/layout.hpp>
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
  long long max_gpus = parallel_layout::max_gpus;
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
