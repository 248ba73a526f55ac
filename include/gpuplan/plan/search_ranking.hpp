// gpuplan/plan/search_ranking.hpp: what the training and the serving searches share: a bounded
// sorted list (the k best of all offered) and the limits of a search's lists.
#pragma once

#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/specs/inplace_vector.hpp>

#include <cstddef>

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

}  // namespace gpuplan
