// gpuplan/specs/network.hpp: the tiers of a cluster's network as a collective sees them.
//
// A tier is one level of the fabric: GPU-to-GPU inside a node (NVSwitch, NVLink bridge, xGMI,
// PCIe through the host) or node-to-node (InfiniBand, RoCE, EFA, Ethernet NICs). Each tier has
// the bandwidth ONE GPU can push into it per direction, a per-step latency, the fraction of that
// bandwidth collectives reach on large payloads, and the in-network reduction it offers
// (NVLink SHARP inside an NVSwitch node, SHARP in InfiniBand switches).
//
// Tiers are derived from node_spec / cluster_spec (specs/node.hpp): the catalog's nodes carry
// their real NICs (DGX A100: 8 x HDR 200 Gb/s; DGX H100: 8 x NDR 400 Gb/s; see
// catalog/nodes.hpp). NIC line rates are bits per second and stay so in node_spec; a tier holds
// a `bandwidth`, which is a rate of bytes: 400 Gb/s is 50 GB/s, never 400 GB/s.
//
// Defaults and their sources (every one a field of network_assumptions):
//  [NCCL-TESTS-A100] stas00/ml-engineering, network/README.md: nccl-tests all_reduce_perf on one
//        8x A100 SXM node (NVLink3, 300 GB/s per direction): busbw 234.89 GB/s at 16 GiB.
//  [NCCL-290] NVIDIA/nccl-tests issue #290, maintainer comment: NDR 400 Gb/s gives 46-48 GB/s per
//        NIC in nccl-tests; a single-node H100 all_reduce at ~476 GB/s busbw is in the expected
//        range (NVLS).
//  [NCCL-TUNING] NVIDIA/nccl src/graph/tuning.cc: the hardware latencies NCCL's own cost model
//        uses per ring step: NVLink 0.47 us (LL), PCI 1.0 us, network 2.7 us (LL).
//  [NCCL-TOPO] NVIDIA/nccl v2.30.7-1 src/graph/topo.h and topo.cc (ncclTopoGetInterCpuBw,
//        ncclTopoConnectCpus): the bandwidth NCCL gives the link between two CPU sockets (its
//        LINK_SYS, GB/s): Intel Broadwell 6, Skylake 10, Sapphire Rapids (SRP_QPI_BW) 22,
//        Emerald Rapids 40; AMD 16; ARM 6; POWER9 32. One figure per link and direction: a path
//        across it is min(its PCIe links, that figure), and every ring channel that crosses it
//        subtracts its bandwidth from it (src/graph/search.cc, followPath).
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/units.hpp>

#include <string_view>

namespace gpuplan {

/// The technology of a network tier.
enum class link_technology : unsigned char {
  nvswitch,       ///< NVLink through NVSwitch: all GPUs of the node at full rate
  nvlink_bridge,  ///< NVLink bridges between pairs of PCIe cards
  xgmi,           ///< AMD Infinity Fabric mesh
  pcie,           ///< PCIe through the host
  infiniband,     ///< InfiniBand NICs (HDR, NDR, XDR)
  roce,           ///< RDMA over Converged Ethernet
  efa,            ///< AWS Elastic Fabric Adapter
  ethernet,       ///< TCP over Ethernet (no RDMA)
};

/// The names of link_technology, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<link_technology> link_technology_names[] = {
    {link_technology::nvswitch, "nvswitch"},     {link_technology::nvlink_bridge, "nvlink_bridge"},
    {link_technology::xgmi, "xgmi"},             {link_technology::pcie, "pcie"},
    {link_technology::infiniband, "infiniband"}, {link_technology::roce, "roce"},
    {link_technology::efa, "efa"},               {link_technology::ethernet, "ethernet"},
};
constexpr const auto& enumerators(link_technology) { return link_technology_names; }

/// Reduction done by the switches rather than by the GPUs.
enum class in_network_reduction : unsigned char {
  none,
  nvls,   ///< NVLink SHARP: NVSwitch 3rd generation and later (H100/H200/B200 HGX)
  sharp,  ///< InfiniBand SHARP (Quantum switches)
};
inline constexpr enumerator<in_network_reduction> in_network_reduction_names[] = {
    {in_network_reduction::none, "none"},
    {in_network_reduction::nvls, "nvls"},
    {in_network_reduction::sharp, "sharp"},
};
constexpr const auto& enumerators(in_network_reduction) { return in_network_reduction_names; }

/// One level of the fabric, seen from one GPU.
struct network_tier {
  name_string name;                          ///< "NVLink4 NVSwitch", "8x NDR 400G"
  link_technology kind = link_technology::nvswitch;
  bandwidth per_gpu{};                       ///< bytes/s ONE GPU can send into this tier, per direction
  duration latency{};                        ///< per step of a ring (hardware + protocol)
  double achievable = 1.0;                   ///< fraction of per_gpu collectives reach on large payloads
  in_network_reduction reduction = in_network_reduction::none;

  [[nodiscard]] constexpr bandwidth effective() const { return achievable * per_gpu; }

  constexpr void validate() const {
    detail::check_input(detail::finite(per_gpu.value) && per_gpu.value > 0.0,
                        "network_tier.per_gpu must be positive and finite", per_gpu.value);
    detail::check_input(detail::finite_nonnegative(latency.value),
                        "network_tier.latency must be finite and not negative", latency.value);
    detail::check_input(detail::finite(achievable) && achievable > 0.0 && achievable <= 1.0,
                        "network_tier.achievable must be in (0, 1]", achievable);
  }
};

/// The defaults used to derive tiers from node and cluster specs.
struct network_assumptions {
  /// Large-payload fraction of the NVLink per-direction rate a ring all-reduce reaches: 234.89 /
  /// 300 GB/s = 0.783, rounded to 0.79 by the fit of the whole curve [NCCL-TESTS-A100].
  double nvlink_achievable = 0.79;
  /// Fraction of the NIC line rate nccl-tests reach: 47 / 50 GB/s for NDR [NCCL-290].
  double nic_achievable = 0.94;
  /// Fraction of the PCIe rate GPU peer traffic reaches through the host. Not measured here:
  /// set equal to the NVLink figure (both are NCCL's Simple protocol over a DMA-capable link).
  double pcie_achievable = 0.79;
  /// TCP over plain Ethernet reaches less of the line than RDMA; half is a placeholder that
  /// marks the tier as slow, not a measurement (documented as a known weakness).
  double ethernet_achievable = 0.5;
  duration nvlink_latency = 0.47 * units::us;  ///< [NCCL-TUNING] NVLink ring step, LL protocol
  duration pcie_latency = 1.0 * units::us;     ///< [NCCL-TUNING] PCI ring step, LL protocol
  duration network_latency = 2.7 * units::us;  ///< [NCCL-TUNING] network ring step, LL protocol
  /// Use NVLink SHARP where the node has it (NVSwitch with Hopper or Blackwell GPUs). NCCL
  /// enables it by default on such nodes (NCCL_NVLS_ENABLE).
  bool use_nvls = true;
  /// Use InfiniBand SHARP in the switches: off by default (it needs Quantum switches and the
  /// SHARP plugin, which a generic cluster does not have).
  bool use_sharp = false;
  /// Bandwidth ONE GPU-to-GPU flow reaches across the link between two CPU sockets (UPI,
  /// Infinity Fabric), per direction, on a PCIe node whose GPUs sit in several islands
  /// (node_spec::pcie_islands): NCCL's own figure for an Intel Sapphire Rapids socket link,
  /// 22 GB/s (SRP_QPI_BW [NCCL-TOPO]), taken as the default CPU. Set it for another: Emerald
  /// Rapids 40, Skylake 10, AMD 16 in NCCL 2.30.7 (the aggregate below follows it).
  bandwidth socket_link_per_flow = 22.0 * units::GBps;
  /// Bandwidth of that socket link per direction, shared by every flow crossing it at once
  /// (groups that run their collectives together, an all-to-all's pairs on different sockets).
  /// 0 (the default): the per-flow figure, NCCL's view, one figure for the link that each
  /// crossing channel subtracts from [NCCL-TOPO]; set it for a link measured to carry more than
  /// one flow reaches (AMD EPYC servers carried 25-33 GB/s of all-to-all busbw over 8 GPUs where
  /// NCCL's AMD figure gives 7: NVIDIA/nccl-tests issue #332).
  bandwidth socket_link_aggregate{};
};

namespace detail {
constexpr bool has_nvls(const node_spec& n) {
  const std::string_view a = n.gpu.architecture.view();
  return n.fabric == intra_node_fabric::nvswitch && (a == "Hopper" || a == "Blackwell");
}
}  // namespace detail

/// The tier inside a node: what one GPU reaches its node peers with.
constexpr network_tier intra_node_tier(const node_spec& n, const network_assumptions& a = {}) {
  network_tier t{};
  t.per_gpu = n.scale_up_per_gpu;
  switch (n.fabric) {
    case intra_node_fabric::nvswitch:
      t.name = "NVLink (NVSwitch)";
      t.kind = link_technology::nvswitch;
      t.reduction = a.use_nvls && detail::has_nvls(n) ? in_network_reduction::nvls
                                                      : in_network_reduction::none;
      break;
    case intra_node_fabric::nvlink_bridge:
      // Pairs are bridged; a group of more than two crosses PCIe, which the caller's group
      // description handles by ranks; the tier keeps the bridge rate.
      t.name = "NVLink bridge";
      t.kind = link_technology::nvlink_bridge;
      break;
    case intra_node_fabric::xgmi:
      t.name = "Infinity Fabric (xGMI)";
      t.kind = link_technology::xgmi;
      break;
    case intra_node_fabric::pcie:
      t.name = "PCIe";
      t.kind = link_technology::pcie;
      break;
  }
  if (!(t.per_gpu.value > 0.0)) {  // unknown scale-up: fall back on the GPU's PCIe link
    t.per_gpu = n.gpu.pcie.per_direction();
    t.kind = link_technology::pcie;
  }
  // NVLink, its bridge and xGMI share the scale-up link's efficiency and latency; PCIe its own.
  const bool pcie = t.kind == link_technology::pcie;
  t.achievable = pcie ? a.pcie_achievable : a.nvlink_achievable;
  t.latency = pcie ? a.pcie_latency : a.nvlink_latency;
  return t;
}

/// The tier between nodes: each GPU's share of its node's compute NICs (rail-optimised: one NIC
/// per GPU on DGX nodes), per direction, in bytes/s.
constexpr network_tier inter_node_tier(const node_spec& n,
                                       inter_node_fabric f = inter_node_fabric::infiniband,
                                       const network_assumptions& a = {}) {
  network_tier t{};
  t.name = n.nics.model;
  t.per_gpu = n.nic_per_gpu();
  t.latency = a.network_latency;
  t.achievable = a.nic_achievable;
  switch (f) {
    case inter_node_fabric::infiniband:
      t.kind = link_technology::infiniband;
      t.reduction = a.use_sharp ? in_network_reduction::sharp : in_network_reduction::none;
      break;
    case inter_node_fabric::roce: t.kind = link_technology::roce; break;
    case inter_node_fabric::efa: t.kind = link_technology::efa; break;
    case inter_node_fabric::ethernet:
    case inter_node_fabric::none:
      t.kind = link_technology::ethernet;
      t.achievable = a.ethernet_achievable;
      break;
  }
  return t;
}

/// A cluster's two tiers and its shape.
struct network_topology {
  network_tier intra{};
  network_tier inter{};
  int gpus_per_node = 1;
  int nodes = 1;
  /// Bisection bandwidth as a fraction of the injection bandwidth (cluster_spec's; 1: a
  /// non-blocking fat tree). Traffic between arbitrary pairs of nodes (all-to-all) is held to it;
  /// ring neighbours are not.
  double bisection_fraction = 1.0;
  /// PCIe islands of each node (node_spec::pcie_islands: CPU sockets the GPUs are split over
  /// evenly) and the socket link between them (network_assumptions::socket_link_per_flow,
  /// socket_link_aggregate). Only a PCIe intra tier crosses it.
  int pcie_islands = 1;
  bandwidth socket_link_per_flow{};
  bandwidth socket_link_aggregate{};

  [[nodiscard]] constexpr int gpus() const { return gpus_per_node * nodes; }
};

constexpr network_topology topology(const node_spec& n, int nodes = 1,
                                    inter_node_fabric f = inter_node_fabric::infiniband,
                                    const network_assumptions& a = {}) {
  network_topology t{intra_node_tier(n, a), {}, n.gpus, nodes};
  if (n.nics.count > 0) t.inter = inter_node_tier(n, f, a);
  t.pcie_islands = n.pcie_islands;
  t.socket_link_per_flow = a.socket_link_per_flow;
  t.socket_link_aggregate =
      a.socket_link_aggregate.value > 0.0 ? a.socket_link_aggregate : a.socket_link_per_flow;
  return t;
}

constexpr network_topology topology(const cluster_spec& c, const network_assumptions& a = {}) {
  network_topology t = topology(c.node, c.nodes, c.fabric, a);
  t.bisection_fraction = c.bisection_fraction;
  return t;
}

}  // namespace gpuplan
