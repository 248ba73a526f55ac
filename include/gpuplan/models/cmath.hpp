// gpuplan/models/cmath.hpp: exp, log, pow and sqrt usable in constant expressions.
//
// <cmath> is not constexpr before C++26. These evaluate a series when the compiler evaluates them
// (std::is_constant_evaluated) and call the C library at run time (through the compiler's
// builtins, so that this header does not pay for <cmath>: docs/performance.md), so that the models
// stay fast; the two agree to about 1e-15 relative (tests/unit/test_collectives.cpp,
// tests/unit/test_queueing.cpp).
#pragma once

#include <type_traits>

namespace gpuplan::detail {

constexpr double series_log(double x) {  // x > 0, finite
  int e = 0;
  while (x >= 1.0) { x *= 0.5; ++e; }
  while (x < 0.5) { x *= 2.0; --e; }
  // x in [0.5, 1): ln x = 2 atanh(z), z = (x - 1) / (x + 1), |z| <= 1/3
  const double z = (x - 1.0) / (x + 1.0), z2 = z * z;
  double term = z, sum = 0.0;
  for (int k = 1; k < 60; k += 2) {
    sum += term / k;
    term *= z2;
  }
  return 2.0 * sum + e * 0.69314718055994530942;
}

constexpr double series_exp(double y) {
  if (y < -745.0) return 0.0;  // below the smallest subnormal double
  const double ln2 = 0.69314718055994530942;
  const double kf = y / ln2;
  const long long k = static_cast<long long>(kf < 0 ? kf - 0.5 : kf + 0.5);
  const double r = y - static_cast<double>(k) * ln2;  // |r| <= ln2 / 2
  double term = 1.0, sum = 1.0;
  for (int i = 1; i < 30; ++i) {
    term *= r / i;
    sum += term;
  }
  if (k > 0)
    for (long long i = 0; i < k; ++i) sum *= 2.0;
  else
    for (long long i = 0; i < -k; ++i) sum *= 0.5;
  return sum;
}

/// x^p for x > 0 (returns 0 for x <= 0).
constexpr double cpow(double x, double p) {
  if (!(x > 0.0)) return 0.0;
  if (std::is_constant_evaluated()) return series_exp(p * series_log(x));
  if (p == 0.75) return __builtin_sqrt(x * __builtin_sqrt(x));  // the collectives' ramp: 3x faster
  return __builtin_pow(x, p);
}

/// e^y (y below 709: larger values overflow).
constexpr double cexp(double y) {
  if (std::is_constant_evaluated()) return series_exp(y);
  return __builtin_exp(y);
}

/// Natural logarithm for x > 0.
constexpr double clog(double x) {
  if (std::is_constant_evaluated()) return series_log(x);
  return __builtin_log(x);
}

/// Square root for x >= 0 (0 for x <= 0): Newton's iteration when evaluated at compile time.
constexpr double csqrt(double x) {
  if (!(x > 0.0)) return 0.0;
  if (!std::is_constant_evaluated()) return __builtin_sqrt(x);
  double scale = 1.0;  // x = m 4^k with m in [1, 4): sqrt(x) = sqrt(m) 2^k
  while (x >= 4.0) { x *= 0.25; scale *= 2.0; }
  while (x < 1.0) { x *= 4.0; scale *= 0.5; }
  double r = 1.5;
  for (int i = 0; i < 8; ++i) r = 0.5 * (r + x / r);  // quadratic: 8 steps reach the last bit
  return r * scale;
}

/// log2 of a positive integer, rounded up (the depth of a binary tree over n leaves).
constexpr int ceil_log2(int n) {
  int d = 0;
  for (int v = 1; v < n; v *= 2) ++d;
  return d;
}

}  // namespace gpuplan::detail
