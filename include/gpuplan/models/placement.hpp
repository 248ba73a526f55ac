// gpuplan/models/placement.hpp: which members of each parallel group share a node.
//
// Ranks are numbered node by node (ranks 0..g-1 on the first node, as torchrun and SLURM number
// them). The layout's rank order decides which ranks form a group. Megatron-Core's default order
// is "tp-cp-ep-dp-pp" (megatron/core/parallel_state.py, initialize_model_parallel(order=...),
// RankGenerator): tensor-parallel ranks vary fastest, then context, then data, then pipeline.
// Expert parallelism is carved out of dp x cp (its own decomposition "tp-ep-dp-pp" over
// expert_tp): expert-parallel ranks lie expert_tp apart. Megatron-Core also accepts
// "tp-cp-pp-ep-dp" (pipeline before data), offered here as rank_order::tp_cp_pp_dp.
//
// So a TP group is `tp` consecutive ranks (stride 1), a CP group strides tp, a DP group strides
// tp x cp, a PP group strides tp x cp x dp. A group whose span exceeds a node crosses the
// inter-node tier, and collective_time charges it (the `*_crosses_nodes` flags say so).
#pragma once

#include <gpuplan/models/collectives.hpp>
#include <gpuplan/specs/layout.hpp>

namespace gpuplan {

enum class rank_order : unsigned char {
  megatron,     ///< tp-cp-ep-dp-pp (Megatron-Core's default)
  tp_cp_pp_dp,  ///< tp-cp-pp-ep-dp (Megatron-Core's alternative: pipeline stages packed first)
};
inline constexpr enumerator<rank_order> rank_order_names[] = {
    {rank_order::megatron, "megatron"},
    {rank_order::tp_cp_pp_dp, "tp_cp_pp_dp"},
};
constexpr const auto& enumerators(rank_order) { return rank_order_names; }

/// The communicators of a layout on a network.
struct placement {
  collective_group tp{}, cp{}, dp{}, ep{}, pp_pair{};
  /// The group that reduces dense gradients and shards the distributed optimizer: dp x cp ranks
  /// (the CP ranks hold the same weights; Megatron-Core reduces over both).
  collective_group dp_cp{};
  /// The data-parallel group of expert weights (dp x cp x tp / (ep x expert_tp) ranks).
  collective_group expert_dp{};

  [[nodiscard]] constexpr bool tp_crosses_nodes() const { return tp.crosses_nodes(); }
  [[nodiscard]] constexpr bool cp_crosses_nodes() const { return cp.crosses_nodes(); }
  [[nodiscard]] constexpr bool ep_crosses_nodes() const { return ep.crosses_nodes(); }
  [[nodiscard]] constexpr bool dp_crosses_nodes() const { return dp.crosses_nodes(); }
  [[nodiscard]] constexpr bool pp_crosses_nodes() const { return pp_pair.crosses_nodes(); }
};

/// Rank strides of each dimension under an order.
struct rank_strides {
  int tp = 1, cp = 1, dp = 1, pp = 1, ep = 1;
};

constexpr rank_strides strides(const parallel_layout& l, rank_order o = rank_order::megatron) {
  rank_strides s;
  s.tp = 1;
  s.cp = l.tp;
  if (o == rank_order::megatron) {
    s.dp = l.tp * l.cp;
    s.pp = l.tp * l.cp * l.dp;
  } else {
    s.pp = l.tp * l.cp;
    s.dp = l.tp * l.cp * l.pp;
  }
  s.ep = l.expert_tensor_parallel();
  return s;
}

/// Groups of layout l on topology t (t.nodes is not checked against the layout's GPU count: the
/// groups only need the node size).
constexpr placement place(const parallel_layout& l, const network_topology& t,
                          rank_order o = rank_order::megatron) {
  l.validate();
  const rank_strides s = strides(l, o);
  placement p;
  p.tp = make_group(t, l.tp, s.tp);
  p.cp = make_group(t, l.cp, s.cp);
  p.dp = make_group(t, l.dp, s.dp);
  p.ep = make_group(t, l.ep, s.ep);
  // dp x cp: contiguous with stride tp under Megatron's order (cp then dp); under the
  // alternative order the cp block is contiguous and the dp ranks stride past the pipeline.
  p.dp_cp = o == rank_order::megatron ? make_group(t, l.dp * l.cp, l.tp)
                                      : make_group(t, l.dp * l.cp, l.cp > 1 ? l.tp : s.dp);
  p.pp_pair = make_group(t, l.pp > 1 ? 2 : 1, s.pp);
  const int edp = l.dp * l.cp * l.tp / (l.ep * l.expert_tensor_parallel());
  p.expert_dp = make_group(t, edp > 0 ? edp : 1, s.ep * l.ep);
  return p;
}

}  // namespace gpuplan
