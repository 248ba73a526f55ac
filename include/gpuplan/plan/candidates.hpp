// gpuplan/plan/candidates.hpp: the layouts a planner tries, with their bounds in one place.
//
// The fit's advice grows one parallel degree at a time (more data-parallel ranks under ZeRO-3,
// more tensor or pipeline parallelism) and searches a small grid of combined layouts; a layout
// search and a capacity planner walk the same candidates. Bounds come from candidate_bounds, set
// by hand or from a node (its GPUs are one NVLink domain).
#pragma once

#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/specs/inplace_vector.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/node.hpp>

namespace gpuplan {

/// Which degree a candidate grows.
enum class parallel_dim : unsigned char { dp, tp, pp };
inline constexpr enumerator<parallel_dim> parallel_dim_names[] = {
    {parallel_dim::dp, "dp"}, {parallel_dim::tp, "tp"}, {parallel_dim::pp, "pp"}};
constexpr const auto& enumerators(parallel_dim) { return parallel_dim_names; }

/// How far the planner looks. Degrees grow by powers of two; a "growth" is the largest factor
/// over the starting layout's degree.
struct candidate_bounds {
  /// Tensor parallelism stays inside one NVLink/NVSwitch domain in the combined search: 8 GPUs
  /// in an HGX/DGX A100, H100, H200 or B200 node (NVIDIA DGX user guides); for_node() takes the
  /// node's GPU count.
  int nvlink_domain = 8;
  /// Tensor-parallel options alone: at most this times the current tp (training; one NVLink
  /// domain of 8 from tp 1), and never above max_tp.
  int tp_growth = 8;
  /// The largest tensor-parallel degree ever offered: attention heads (64 to 128 in the largest
  /// catalog models) must divide it.
  int max_tp = 64;
  /// ZeRO-3 over more data-parallel ranks: up to this times dp.
  int dp_growth = 64;
  /// Pipeline-parallel options alone when training: up to this times pp (layers bound it first:
  /// pp never exceeds the layers).
  int pp_growth = 128;
  /// Tensor- and pipeline-parallel options when serving: up to this times the current degree.
  int serving_growth = 64;
  /// The combined grid (dp x tp x pp with ZeRO-3 and full recomputation): growth per degree.
  int combined_dp_growth = 8;
  int combined_tp_growth = 8;
  int combined_pp_growth = 16;

  /// The defaults with the node's NVLink domain: all its GPUs where an NVSwitch or a full mesh
  /// (xGMI) joins them, else pairs (NVLink bridges) or none (PCIe only). A domain wider than 8
  /// (a GB200 or GB300 NVL72 rack: 72 GPUs behind NVLink switches) also widens the tensor-parallel
  /// growth to the largest power of two inside it (64 of 72), so that the planner offers tensor
  /// parallelism across the rack; max_tp still bounds it.
  static constexpr candidate_bounds for_node(const node_spec& n) {
    candidate_bounds b{};
    switch (n.fabric) {
      case intra_node_fabric::nvswitch:
      case intra_node_fabric::xgmi: b.nvlink_domain = n.gpus; break;
      case intra_node_fabric::nvlink_bridge: b.nvlink_domain = 2; break;
      case intra_node_fabric::pcie: b.nvlink_domain = 1; break;
    }
    if (b.nvlink_domain > b.tp_growth) {
      int widest = 1;
      while (widest * 2 <= b.nvlink_domain) widest *= 2;
      b.tp_growth = widest;
      b.combined_tp_growth = widest;
    }
    return b;
  }
};

/// The most values divisor_degrees lists for one dimension (its smallest ones past that).
inline constexpr int max_divisor_degrees = 128;

/// The degrees of one parallel dimension over GPU counts that need not be powers of two (a
/// 72-GPU NVL72 rack, 144 GPUs): every d from 1 to `limit`, ascending, that divides at least one
/// of `gpus` and divides `of` (the attention heads for tensor parallelism, the experts for
/// expert parallelism; 0: no such constraint), at most max_divisor_degrees of them. A degree that
/// divides no GPU count leaves no whole data-parallel degree; one that does not divide `of`
/// fails the layout's own check: neither is listed, so neither is visited.
constexpr inplace_vector<int, max_divisor_degrees> divisor_degrees(array_view<int> gpus, int limit,
                                                                   int of = 0) {
  inplace_vector<int, max_divisor_degrees> out{};
  if (of > 0 && of < limit) limit = of;
  for (int d = 1; d <= limit && !out.full(); ++d) {
    if (of > 0 && of % d != 0) continue;
    bool divides = false;
    for (int g : gpus) divides = divides || (g > 0 && g % d == 0);
    if (divides) out.push_back(d);
  }
  return out;
}

/// Calls f(layout) for l with degree `dim` multiplied by 2, 4, ... up to `growth`, in that
/// order, until f returns true (found what it looked for).
template <class F>
constexpr void for_each_growth(const parallel_layout& l, parallel_dim dim, int growth, F&& f) {
  for (int n = 2; n <= growth; n *= 2) {
    parallel_layout nl = l;
    if (dim == parallel_dim::dp) nl.dp = l.dp * n;
    if (dim == parallel_dim::tp) nl.tp = l.tp * n;
    if (dim == parallel_dim::pp) nl.pp = l.pp * n;
    if (f(nl)) return;
  }
}

/// Calls f(layout) for every layout of the combined grid: dp, tp and pp grown by powers of two
/// within the bounds (the starting layout itself excluded), tensor parallelism inside one NVLink
/// domain, sequence parallelism with tp > 1, ZeRO-3 where there is more than one data-parallel
/// rank. Layouts that do not suit the model are the caller's to skip (parallel_layout::check).
template <class F>
constexpr void for_each_combined(const parallel_layout& l, const candidate_bounds& b, F&& f) {
  for (int dm = 1; dm <= b.combined_dp_growth; dm *= 2)
    for (int tm = 1; tm <= b.combined_tp_growth; tm *= 2)
      for (int pm = 1; pm <= b.combined_pp_growth; pm *= 2) {
        if (dm * tm * pm == 1) continue;
        parallel_layout nl = l;
        nl.dp = l.dp * dm;
        nl.tp = l.tp * tm;
        nl.pp = l.pp * pm;
        nl.sequence_parallel = nl.tp > 1;
        if (nl.dp * nl.cp > 1) nl.zero = 3;
        if (nl.tp > b.nvlink_domain && tm > 1) continue;
        f(nl);
      }
}

}  // namespace gpuplan
