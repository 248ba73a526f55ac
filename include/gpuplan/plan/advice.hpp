// gpuplan/plan/advice.hpp: options that make a plan fit (or cheaper, or faster), ranked: what
// to change in words, where it lands, and the layout it leads to. Shared by the fit and, next, by
// the layout search and the capacity planner.
#pragma once

#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/inplace_vector.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/units.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace gpuplan {

/// What an option changes, from least to most disruptive: a configuration on the same GPUs, more
/// GPUs, another GPU model. Ranking puts them in this order.
enum class advice_kind : unsigned char { configuration, more_gpus, other_gpu };
inline constexpr enumerator<advice_kind> advice_kind_names[] = {
    {advice_kind::configuration, "configuration"},
    {advice_kind::more_gpus, "more_gpus"},
    {advice_kind::other_gpu, "other_gpu"},
};
constexpr const auto& enumerators(advice_kind) { return advice_kind_names; }

/// One way to make a plan fit, and where it lands.
struct advice {
  name_string change;    ///< what to change, in words: "ZeRO stage 3", "tp 8 (64 GPUs)"
  data_size total{};     ///< per-GPU memory of the most loaded GPU after the change
  data_size capacity{};  ///< the capacity it is compared with (another GPU's, for a GPU change)
  int gpus = 0;          ///< GPUs the changed plan uses
  bool fits = false;
  advice_kind kind = advice_kind::configuration;
  /// The changed plan's layout, and for another GPU model that GPU's name (empty: the same GPU).
  parallel_layout layout{};
  name_string gpu{};

  /// Whether o leads to the same plan: the same layout on the same GPU with the same per-GPU
  /// memory (two changes that land there are one option; a change that leaves the memory
  /// unchanged is no option). The configurations are not stored: clang 14's constant evaluator
  /// gives up on fit reports that carry a training_config and an inference_config per option.
  [[nodiscard]] constexpr bool same_plan(const advice& o) const {
    return layout == o.layout && gpu == o.gpu && total == o.total && capacity == o.capacity;
  }
};

inline constexpr std::size_t max_advice = 16;

namespace detail {

/// A name_string built from pieces at compile time: text and integers.
struct name_builder {
  name_string out{};
  std::size_t n = 0;
  constexpr name_builder& operator<<(std::string_view s) {
    for (char c : s)
      if (n < name_string::capacity) out.chars[n++] = c;
    return *this;
  }
  constexpr name_builder& operator<<(int v) {
    char digits[12]{};
    int len = 0;
    long long x = v;
    if (x < 0) {
      *this << "-";
      x = -x;
    }
    do {
      digits[len++] = static_cast<char>('0' + x % 10);
      x /= 10;
    } while (x > 0 && len < 12);
    while (len > 0)
      if (n < name_string::capacity) out.chars[n++] = digits[--len];
      else --len;
    return *this;
  }
};

struct advice_list {
  inplace_vector<advice, max_advice> items{};
  /// Adds a unless an option already listed leads to the same plan (the first name stays); past
  /// max_advice options, drops it.
  constexpr void add(const advice& a) {
    for (const advice& x : items)
      if (x.same_plan(a)) return;
    items.try_push_back(a);
  }
  /// Fitting first; then configuration changes before more GPUs before another GPU; then the
  /// smaller per-GPU total first.
  constexpr void rank() {
    auto before = [](const advice& x, const advice& y) {
      if (x.fits != y.fits) return x.fits;
      if (x.kind != y.kind) return x.kind < y.kind;
      if (x.gpus != y.gpus) return x.gpus < y.gpus;
      return x.total < y.total;
    };
    for (std::size_t i = 1; i < items.size(); ++i)
      for (std::size_t j = i; j > 0 && before(items[j], items[j - 1]); --j) {
        const advice tmp = items[j];
        items[j] = items[j - 1];
        items[j - 1] = tmp;
      }
  }
};

}  // namespace detail

}  // namespace gpuplan
