// fuzz/fuzz_support.hpp: what the libFuzzer targets share: the oracles a reader's answer must pass.
//
// A target feeds its input to a reader and accepts exactly two outcomes: a value that passes the
// target's own checks, or gpuplan::io::error / gpuplan::invalid_input whose message passes
// check_message. Anything else (a crash, a sanitizer report, another exception type escaping, a
// message that breaks a promise of docs/reliability.md) aborts, and libFuzzer saves the input.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace gpuplan::fuzz {

/// Reports a broken promise and aborts (libFuzzer then writes the input to crash-<sha1>).
[[noreturn]] inline void fail(std::string_view promise, std::string_view detail) {
  std::fprintf(stderr, "\ngpuplan fuzz: broken promise: %.*s\n  %.*s\n",
               static_cast<int>(promise.size()), promise.data(), static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

/// Whether `text` holds the word `w` (not inside a longer word: "inf" is not in "infer").
inline bool has_word(std::string_view text, std::string_view w) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  for (std::size_t at = text.find(w); at != std::string_view::npos; at = text.find(w, at + 1)) {
    const bool left = at == 0 || !letter(text[at - 1]);
    const bool right = at + w.size() >= text.size() || !letter(text[at + w.size()]);
    if (left && right) return true;
  }
  return false;
}

/// Whether the text shows a NaN or an infinity the way {fmt}, printf and iostreams print them
/// ("nan", "-nan", "inf"; "NaN" from JavaScript-minded code). Not "Infinity": that is a word in
/// the advice ("ZeRO-Infinity"), and nothing gpuplan links prints a number that way.
inline bool shows_non_finite(std::string_view text) {
  return has_word(text, "nan") || has_word(text, "inf") || has_word(text, "NaN");
}

/// An error message keeps the readers' promises (docs/reliability.md): not empty, one line, names
/// `source` (the file the reader was given) when not empty, shows no NaN or infinity the input
/// did not spell, and no negative number when the input has no minus sign (a wrapped-around
/// value, as "must be positive (got -9223372036854775808)" for 2^63 was).
inline void check_message(std::string_view msg, std::string_view input, std::string_view source) {
  if (msg.empty()) fail("an error has a message", "(empty)");
  if (msg.find('\n') != std::string_view::npos) fail("an error is one line", msg);
  if (!source.empty() && msg.find(source) == std::string_view::npos)
    fail("an error names the file it is about", msg);
  if (shows_non_finite(msg) && !shows_non_finite(input) &&
      input.find("nfinity") == std::string_view::npos)
    fail("an error shows no NaN or infinity the input did not hold", msg);
  if (msg.find("(got -") != std::string_view::npos && input.find('-') == std::string_view::npos)
    fail("a value in an error is the input's value, not a wrapped-around one", msg);
}

/// A number the readers produced: finite (and, where `non_negative`, not below zero).
inline void check_finite(double v, std::string_view what, bool non_negative = true) {
  if (!std::isfinite(v)) fail("every number read is finite", what);
  if (non_negative && v < 0) fail("no number read is negative where it cannot be", what);
}

}  // namespace gpuplan::fuzz
