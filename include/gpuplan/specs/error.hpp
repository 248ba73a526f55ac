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

  /// Appends d: whole numbers below 1e15 in decimal ("4096"), others with six significant
  /// digits ("0.9", "1.5e+20", "-3.25e-07"), "nan", "inf" or "-inf"; without <string>, <cstdio>
  /// or <charconv>.
  invalid_input& append(double d) noexcept {
    if (d != d) return append("nan");
    if (d < 0) {
      append("-");
      d = -d;
    }
    if (d - d != 0.0) return append("inf");
    if (d < 1e15 && static_cast<double>(static_cast<long long>(d)) == d)
      return append(static_cast<long long>(d));
    int exponent = 0;
    while (d >= 10.0) {
      d /= 10.0;
      ++exponent;
    }
    while (d < 1.0) {
      d *= 10.0;
      --exponent;
    }
    // d in [1, 10): six significant digits, trailing zeros dropped.
    long long digits = static_cast<long long>(d * 1e5 + 0.5);
    if (digits >= 1000000) {
      digits /= 10;
      ++exponent;
    }
    const bool plain = exponent >= -4 && exponent < 6;
    char buf[16] = {};
    int n = 0;
    for (long long div = 100000; div > 0; div /= 10)
      buf[n++] = static_cast<char>('0' + digits / div % 10);
    int last = n - 1;
    while (last > 0 && buf[last] == '0') --last;
    if (plain) {
      // Place the point after 1 + exponent digits (or lead with zeros).
      if (exponent < 0) {
        append("0.");
        for (int i = -1; i > exponent; --i) append("0");
        for (int i = 0; i <= last; ++i) append_char(buf[i]);
      } else {
        for (int i = 0; i <= last || i <= exponent; ++i) {
          if (i == exponent + 1) append_char('.');
          append_char(i < n ? buf[i] : '0');
        }
      }
      return *this;
    }
    append_char(buf[0]);
    if (last > 0) {
      append_char('.');
      for (int i = 1; i <= last; ++i) append_char(buf[i]);
    }
    append(exponent < 0 ? "e-" : "e+");
    const int e = exponent < 0 ? -exponent : exponent;
    if (e < 10) append_char('0');
    return append(static_cast<long long>(e));
  }

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
  void append_char(char c) noexcept {
    if (size_ < capacity - 1) text_[size_++] = c;
    text_[size_] = '\0';
  }

  char text_[capacity] = {};
  int size_ = 0;
};

}  // namespace gpuplan
