// gpuplan/plan/search_ranking.hpp: what the training and the serving searches share: a bounded
// sorted list (the k best of all offered), the limits of a search's lists, and the clock their
// reports time a search by.
#pragma once

#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/specs/inplace_vector.hpp>

#include <cstddef>
#include <ctime>

namespace gpuplan {

/// The most GPU types one search takes (their prices and power are resolved once per call).
inline constexpr int max_search_gpu_types = 16;

inline constexpr int max_search_top = 64;     ///< largest k of the top-k lists
inline constexpr int max_search_front = 128;  ///< most points the Pareto front keeps

/// A sorted list of at most N items under a total order: the k best of all offered.
template <class T, int N>
struct bounded_ranking {
  inplace_vector<T, static_cast<std::size_t>(N)> items{};

  /// Inserts p if it is among the k best (1 <= k <= N) under `less`, after the items equal to
  /// it (the first offered stays first).
  template <class Less>
  constexpr void offer(const T& p, int k, Less&& less) {
    if (items.size() == static_cast<std::size_t>(k)) {
      if (!less(p, items.back())) return;
      items.pop_back();  // p displaces the last
    }
    auto at = items.end();
    while (at != items.begin() && less(p, *(at - 1))) --at;
    items.insert(at, p);
  }
  [[nodiscard]] constexpr array_view<T> view() const { return {items.data(), items.size()}; }
};

namespace detail {
/// Seconds on a monotonic clock, for the wall time a search report gives (`seconds`): C23's
/// TIME_MONOTONIC where the C library has it, else POSIX clock_gettime(CLOCK_MONOTONIC) (glibc
/// 2.36 has no TIME_MONOTONIC), else TIME_UTC (std::timespec_get, C++17; a realtime clock, which
/// a clock step can move). Not std::chrono: <chrono> adds 599M compiler instructions to a TU of
/// common standard headers, <ctime> 5M (g++ 12, bench/compile_instructions.sh;
/// docs/performance.md, "The searches apart").
inline double wall_seconds() {
  std::timespec ts{};
#if defined(TIME_MONOTONIC)
  std::timespec_get(&ts, TIME_MONOTONIC);
#elif defined(CLOCK_MONOTONIC)
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
#else
  std::timespec_get(&ts, TIME_UTC);
#endif
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
}  // namespace detail

}  // namespace gpuplan
