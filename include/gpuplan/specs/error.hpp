// gpuplan/specs/error.hpp: the exception the core throws for bad input. It needs only
// <exception> (not <stdexcept> and <string>, which cost about 0.6 s of compile time each on
// g++ 12; see docs/performance.md): the message lives in a fixed buffer inside the exception.
#pragma once

#include <exception>

namespace gpuplan {

/// Bad input to a gpuplan function: a field out of range, a layout that does not divide the model.
/// what() names the field. Messages longer than `capacity - 1` characters are cut at that length.
/// Derives from std::exception, so `catch (const std::exception&)` catches it too.
class invalid_input : public std::exception {
 public:
  static constexpr int capacity = 256;

  explicit invalid_input(const char* message) noexcept { append(message); }

  const char* what() const noexcept override { return text_; }

  /// Appends s (cut at the capacity); returns *this so that calls can be chained.
  invalid_input& append(const char* s) noexcept {
    while (s != nullptr && *s != '\0' && size_ < capacity - 1) text_[size_++] = *s++;
    text_[size_] = '\0';
    return *this;
  }

  /// Appends v in decimal (cut at the capacity), without <string> or <charconv>.
  invalid_input& append(long long v) noexcept {
    char digits[24] = {};
    int n = 0;
    // Work with the negative value so that the most negative long long needs no special case.
    long long rest = v < 0 ? v : -v;
    do {
      digits[n++] = static_cast<char>('0' - rest % 10);
      rest /= 10;
    } while (rest != 0);
    if (v < 0) digits[n++] = '-';
    while (n > 0 && size_ < capacity - 1) text_[size_++] = digits[--n];
    text_[size_] = '\0';
    return *this;
  }

 private:
  char text_[capacity] = {};
  int size_ = 0;
};

namespace detail {

/// Throws invalid_input("gpuplan: <message> (got <value>, <other>)"). Not constexpr (the
/// exception is not a literal type in C++20); constexpr callers reach it only at run time.
[[noreturn]] inline void throw_invalid_input(const char* message, long long value,
                                             long long other) {
  invalid_input error("gpuplan: ");
  error.append(message).append(" (got ").append(value).append(", ").append(other).append(")");
  throw error;
}

}  // namespace detail

}  // namespace gpuplan
