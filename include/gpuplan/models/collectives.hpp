// gpuplan/models/collectives.hpp: the time of a NCCL-style collective on a group of GPUs.
//
// Model (an alpha-beta model per algorithm, as NCCL's own tuner uses, with a size-dependent
// bandwidth efficiency):
//
//   t = launch + steps x latency(tier)  +  sum over phases of  wire_bytes(tier) / (B_eff(tier) x ramp(S_phase))
//
//   wire_bytes   the bytes ONE GPU sends on a tier, per direction (ring all-reduce: 2(n-1)/n x S)
//   B_eff        tier.per_gpu x tier.achievable; between nodes a group with k members per node
//                uses k NICs (rail-optimised nodes: one NIC per GPU), so B_eff = k x NIC share
//   ramp(S)      1 / (1 + (S_half / S)^k_ramp): below S_half a collective reaches less than half
//                its large-payload bandwidth (NCCL uses fewer channels and smaller chunks on
//                small payloads, and pipeline fill is not hidden). S_half = 22.6 MiB and
//                k_ramp = 0.75 reproduce the nccl-tests all_reduce curve of one 8x A100 node from
//                32 KiB to 16 GiB within 6% (tests/unit/test_collectives.cpp).
//
// Algorithms:
//   ring          one ring through all members (NCCL rings): tiers are pipelined, so the
//                 bandwidth term is the slower tier's; 2(n-1) steps for all-reduce.
//   tree          NCCL's double binary tree across nodes, chains inside: the same bandwidth as
//                 ring on large payloads, latency ~ 2(k - 1 + log2 N) steps.
//   hierarchical  reduce-scatter inside the node, all-reduce of S/k across nodes, all-gather
//                 inside the node, one after the other (Horovod / NCCL's "2D" scheme).
//   in_network    NVLink SHARP inside an NVSwitch node (H100 and later) and InfiniBand SHARP
//                 between nodes where the tier has it: the switch reduces, so each GPU sends
//                 S + S/k instead of 2(k-1)/k x S.
//   automatic     the fastest of those the group supports, as NCCL's tuner picks.
//
// PCIe only (one node, no NVLink): rings are timed as NCCL's tuner times them, the faster of
// its LL and Simple protocols, each latency + wire / bandwidth without the ramp
// (collective_assumptions::pcie_protocols; docs/models/collectives.md).
//
// PCIe islands (node_spec::pcie_islands: GPUs split over CPU sockets): a PCIe group whose
// members span several islands crosses the socket link, once per direction per ring; its hop
// is min(PCIe hop, network_assumptions::socket_link_per_flow, socket_link_aggregate / the flows
// crossing at once), collective_group::intra_hop(). Groups inside one island keep the PCIe hop.
// All-to-all (NCCL's send/recv to every peer) is bounded by each GPU's PCIe link and by the
// socket link: the cross-island pairs' S/n each share its aggregate (all_to_all_node_seconds).
//
// The nccl-tests convention (NVIDIA/nccl-tests doc/PERFORMANCE.md): algbw = S / t;
// busbw = algbw x 2(n-1)/n for all-reduce, x (n-1)/n for reduce-scatter, all-gather and
// all-to-all, x 1 for broadcast and send/recv. S is the per-rank buffer nccl-tests reports: the
// all-reduce buffer, the all-gather output (full size), the reduce-scatter input (full size), the
// all-to-all send buffer.
#pragma once

#include <gpuplan/models/cmath.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/network.hpp>
#include <gpuplan/units.hpp>

#include <string_view>

namespace gpuplan {

enum class collective_kind : unsigned char {
  all_reduce,
  reduce_scatter,
  all_gather,
  all_to_all,
  broadcast,
  send_recv,
};

enum class collective_algorithm : unsigned char {
  automatic,     ///< the fastest the group supports (NCCL's tuner does the same)
  ring,
  tree,
  hierarchical,  ///< inside the node, then across nodes, then inside the node
  in_network,    ///< NVLS inside the node, SHARP across nodes where available
};

/// The names of collective_kind and collective_algorithm (specs/enum_names.hpp).
inline constexpr enumerator<collective_kind> collective_kind_names[] = {
    {collective_kind::all_reduce, "all_reduce"},         {collective_kind::reduce_scatter, "reduce_scatter"},
    {collective_kind::all_gather, "all_gather"},         {collective_kind::all_to_all, "all_to_all"},
    {collective_kind::broadcast, "broadcast"},           {collective_kind::send_recv, "send_recv"},
};
constexpr const auto& enumerators(collective_kind) { return collective_kind_names; }
inline constexpr enumerator<collective_algorithm> collective_algorithm_names[] = {
    {collective_algorithm::automatic, "automatic"},
    {collective_algorithm::ring, "ring"},
    {collective_algorithm::tree, "tree"},
    {collective_algorithm::hierarchical, "hierarchical"},
    {collective_algorithm::in_network, "in_network"},
};
constexpr const auto& enumerators(collective_algorithm) { return collective_algorithm_names; }

/// A communicator: how many ranks, how many of them share a node, and the tiers it crosses.
struct collective_group {
  int ranks = 1;           ///< members of the group
  int ranks_per_node = 1;  ///< members that share one node (the same on every node)
  network_tier intra{};    ///< the tier between members inside a node
  network_tier inter{};    ///< the tier between nodes (unused when the group fits in one node)
  /// Fraction of the inter-node injection bandwidth available across the fabric's bisection:
  /// all-to-all traffic is held to it (1: non-blocking).
  double bisection_fraction = 1.0;
  /// PCIe islands (CPU sockets, node_spec::pcie_islands) the group's members on one node span,
  /// and the flows that cross the socket link in each direction at once: a ring over several
  /// islands crosses each socket link once per direction, and every group of the same shape on
  /// the node (gpus_per_node / ranks_per_node of them) runs its collective at the same time.
  int islands = 1;
  int socket_flows = 1;
  /// The member pairs of one group that exchange over the busiest socket link in one direction
  /// (members on island i x members on island j, the largest over island pairs): an all-to-all
  /// sends S / ranks from every member to every other, so that many flows of the group cross it.
  int cross_pairs = 0;
  bandwidth socket_per_flow{};   ///< network_assumptions::socket_link_per_flow
  bandwidth socket_aggregate{};  ///< network_assumptions::socket_link_aggregate

  /// The rate of one flow across the socket link when every group of this shape on the node
  /// puts `flows_per_group` flows on it at once: min(the per-flow figure, the aggregate shared
  /// by all of them), NCCL's view of a link each crossing path takes its share of.
  [[nodiscard]] constexpr bandwidth socket_flow_rate(int flows_per_group) const {
    const int flows = socket_flows * (flows_per_group > 1 ? flows_per_group : 1);
    const bandwidth share = socket_aggregate / (1.0 * flows);
    return share.value < socket_per_flow.value ? share : socket_per_flow;
  }

  /// Whether the group's members on one node reach each other over PCIe across CPU sockets.
  [[nodiscard]] constexpr bool crosses_sockets() const {
    return islands > 1 && intra.kind == link_technology::pcie;
  }

  /// The rate of one hop inside the node: the intra tier's, and on a PCIe group over several
  /// islands the slowest hop of the ring, min(PCIe hop, the socket link's per-flow figure, its
  /// aggregate shared by the flows crossing it).
  [[nodiscard]] constexpr bandwidth intra_hop() const {
    bandwidth b = intra.effective();
    if (crosses_sockets()) {
      const bandwidth socket = socket_flow_rate(1);
      if (socket.value < b.value) b = socket;
    }
    return b;
  }

  [[nodiscard]] constexpr int nodes() const {
    return (ranks + ranks_per_node - 1) / ranks_per_node;
  }
  [[nodiscard]] constexpr bool crosses_nodes() const { return ranks > ranks_per_node; }

  constexpr void validate() const {
    detail::check_input(ranks >= 1, "collective_group.ranks must be at least 1", ranks);
    detail::check_input(bisection_fraction > 0.0 && bisection_fraction <= 1.0,
                        "collective_group.bisection_fraction must be in (0, 1]");
    detail::check_input(ranks_per_node >= 1 && ranks_per_node <= ranks,
                        "collective_group.ranks_per_node must be between 1 and ranks",
                        ranks_per_node, ranks);
    if (ranks_per_node > 1) intra.validate();
    detail::check_input(islands >= 1, "collective_group.islands must be at least 1", islands);
    if (islands > 1) {
      detail::check_input(socket_flows >= 1, "collective_group.socket_flows must be at least 1",
                          socket_flows);
      detail::check_input(detail::finite_positive(socket_per_flow.value),
                          "network_assumptions.socket_link_per_flow must be positive and finite",
                          socket_per_flow.value);
      detail::check_input(detail::finite_positive(socket_aggregate.value),
                          "network_assumptions.socket_link_aggregate must be positive and finite",
                          socket_aggregate.value);
    }
    if (crosses_nodes()) {
      detail::check_input(inter.per_gpu.value > 0.0,
                          "collective_group spans nodes but has no inter-node tier (node "
                          "without NICs)",
                          ranks, ranks_per_node);
      inter.validate();
    }
  }
};

namespace detail {
/// The islands a PCIe group's members on one node span (members at 0, stride, 2 stride, ... of
/// the node's GPUs, t.pcie_islands islands of equal size) and the flows crossing the socket link.
constexpr void place_on_islands(collective_group& grp, const network_topology& t, int stride) {
  const int g = t.gpus_per_node > 0 ? t.gpus_per_node : 1;
  if (t.pcie_islands <= 1 || grp.ranks_per_node <= 1 || g % t.pcie_islands != 0) return;
  const int per_island = g / t.pcie_islands;
  int spanned = 0, most = 0, next = 0;  // islands reached; the two largest member counts
  for (int i = 0; i < t.pcie_islands; ++i) {
    int members = 0;
    for (int j = 0; j < grp.ranks_per_node; ++j)
      if ((j * stride % g) / per_island == i) ++members;
    if (members > 0) ++spanned;
    if (members > most) {
      next = most;
      most = members;
    } else if (members > next) {
      next = members;
    }
  }
  grp.islands = spanned;
  grp.cross_pairs = most * next;  // the busiest link joins the two most populated islands
  grp.socket_flows = g / grp.ranks_per_node > 1 ? g / grp.ranks_per_node : 1;
  grp.socket_per_flow = t.socket_link_per_flow;
  grp.socket_aggregate = t.socket_link_aggregate;
}
}  // namespace detail

/// The group of `size` ranks spaced `stride` apart in the global rank order (a TP group:
/// stride 1; a DP group under Megatron's order: stride tp x cp), on nodes of
/// t.gpus_per_node GPUs numbered consecutively. Members on one node: size when the group's
/// span fits in a node, else gpus_per_node / stride (at least 1). A group bigger than a
/// bridged pair falls back on PCIe.
constexpr collective_group make_group(const network_topology& t, int size, int stride = 1) {
  detail::check_input(size >= 1, "collective group size must be at least 1", size);
  detail::check_input(stride >= 1, "collective group stride must be at least 1", stride);
  const int g = t.gpus_per_node > 0 ? t.gpus_per_node : 1;
  int k = 1;
  if (1LL * (size - 1) * stride < g && g % stride == 0) k = size;  // the whole group in a node
  else if (stride < g) k = g / stride;
  if (k > size) k = size;
  if (k < 1) k = 1;
  collective_group grp{size, k, t.intra, t.inter, t.bisection_fraction};
  if (grp.intra.kind == link_technology::nvlink_bridge && k > 2) {
    grp.intra.kind = link_technology::pcie;
    grp.intra.name = "PCIe (beyond the NVLink pair)";
  }
  if (grp.intra.kind == link_technology::pcie) detail::place_on_islands(grp, t, stride);
  return grp;
}

/// A group on one node type: nodes are added as the group needs them.
constexpr collective_group make_group(const node_spec& n, int size, int stride = 1,
                                      inter_node_fabric f = inter_node_fabric::infiniband,
                                      const network_assumptions& a = {}) {
  const int span = (size - 1) * stride + 1;
  const int nodes = n.gpus > 0 ? (span + n.gpus - 1) / n.gpus : 1;
  return make_group(topology(n, nodes, f, a), size, stride);
}

constexpr collective_group make_group(const cluster_spec& c, int size, int stride = 1,
                                      const network_assumptions& a = {}) {
  return make_group(topology(c, a), size, stride);
}

/// The knobs of the collective model, with their sources.
struct collective_assumptions {
  /// The algorithm every collective uses; automatic: the fastest the group supports, as NCCL's
  /// tuner picks (NVIDIA/nccl src/graph/tuning.cc). ring, tree, hierarchical, in_network force one.
  collective_algorithm algorithm = collective_algorithm::automatic;
  /// Fixed cost of one collective call (kernel launch, NCCL's base latency): NVIDIA/nccl
  /// src/graph/tuning.cc baseLat, ring with the LL protocol, 3.6 us.
  duration launch = 3.6 * units::us;
  /// Payload at which a collective reaches half its large-payload bandwidth, and the steepness
  /// of the ramp: fitted to the nccl-tests all_reduce_perf curve of one 8x A100 SXM node
  /// (stas00/ml-engineering network/README.md: busbw 1.31, 18.0, 138.49, 194.07, 229.04,
  /// 234.89 GB/s at 32 KiB, 1 MiB, 32 MiB, 256 MiB, 1 GiB, 16 GiB).
  data_size half_bandwidth_payload = 22.6 * units::MiB;
  double ramp_exponent = 0.75;
  /// Fraction of the NVLink per-direction rate an NVLS all-reduce reaches: a single-node H100
  /// all-reduce at ~476 GB/s busbw (NVIDIA/nccl-tests issue #290) over the ideal
  /// 450 GB/s x 2(n-1)/(n+1) = 700 GB/s of in-switch reduction for n = 8: 0.68.
  double nvls_efficiency = 0.68;
  /// Time a collective on a PCIe-only group (one node, no NVLink on the path) as NCCL's tuner
  /// does: the faster of its LL and Simple protocols, each an alpha-beta cost without the
  /// NVLink-fitted ramp above. NCCL enables LL128 only up to NVLink-bridge paths
  /// (src/graph/tuning.cc: pEnable &= typeIntra <= PATH_NVB), so a PCIe ring runs LL on small
  /// payloads (per-step latency network_assumptions::pcie_latency, half the bandwidth) and Simple
  /// on large ones (full bandwidth, pcie_simple_step_latency per step). The ramp, fitted on an
  /// NVSwitch A100 node, scales its small-payload cost with 1 / bandwidth and so charged a
  /// 128 KiB all-reduce on 8 PCIe Gen4 GPUs ~0.48 ms where NCCL takes tens of microseconds.
  bool pcie_protocols = true;
  /// Fraction of the link's bandwidth the LL protocol carries: NVIDIA/nccl src/graph/tuning.cc,
  /// ring LL busBw x 0.5 (8-byte lines of 4 data bytes and a 4-byte flag).
  double ll_bandwidth_fraction = 0.5;
  /// Per-step latency of the Simple protocol on a PCIe ring: NVIDIA/nccl src/graph/tuning.cc
  /// hwLatencies[PCI][Ring][Simple] = 5.7 us.
  duration pcie_simple_step_latency = 5.7 * units::us;
};

/// The time of one collective, with where it went.
struct collective_cost {
  duration total{};
  duration latency{};     ///< launch and per-step latencies
  duration intra{};       ///< bandwidth time on the intra-node tier (exposed part)
  duration inter{};       ///< bandwidth time on the inter-node tier (exposed part)
  collective_algorithm algorithm = collective_algorithm::ring;
  collective_kind kind = collective_kind::all_reduce;
  bool crosses_nodes = false;
  data_size payload{};
  int ranks = 1;

  [[nodiscard]] constexpr bandwidth algbw() const {
    return total.value > 0.0 ? payload / total : bandwidth{};
  }
  [[nodiscard]] constexpr bandwidth busbw() const;
};

/// nccl-tests' bus-bandwidth factor for kind on n ranks.
constexpr double bus_factor(collective_kind k, int n) {
  if (n <= 1) return 0.0;
  switch (k) {
    case collective_kind::all_reduce: return 2.0 * (n - 1) / n;
    case collective_kind::reduce_scatter:
    case collective_kind::all_gather:
    case collective_kind::all_to_all: return 1.0 * (n - 1) / n;
    case collective_kind::broadcast:
    case collective_kind::send_recv: return 1.0;
  }
  return 1.0;
}

/// algbw = S / t (nccl-tests).
constexpr bandwidth algbw(data_size payload, duration t) { return payload / t; }
/// busbw = algbw x bus_factor (nccl-tests).
constexpr bandwidth busbw(collective_kind k, data_size payload, duration t, int n) {
  return bus_factor(k, n) * (payload / t);
}

constexpr bandwidth collective_cost::busbw() const {
  return total.value > 0.0 ? bus_factor(kind, ranks) * (payload / total) : bandwidth{};
}

namespace detail {

constexpr double ramp(const collective_assumptions& a, double bytes) {
  if (!(bytes > 0.0)) return 1.0;
  return 1.0 / (1.0 + cpow(a.half_bandwidth_payload.value / bytes, a.ramp_exponent));
}

/// Seconds to move `wire` bytes per GPU over bandwidth `bw` (bytes/s) for a phase of `phase`
/// bytes (the size the ramp sees).
constexpr double xfer(const collective_assumptions& a, double wire, double bw, double phase) {
  if (!(wire > 0.0)) return 0.0;
  return wire / (bw * ramp(a, phase));
}

struct parts {
  double latency = 0.0, intra = 0.0, inter = 0.0;
  [[nodiscard]] constexpr double total() const { return latency + intra + inter; }
};

/// A ring on one node's PCIe, as NCCL's tuner times it: the faster of LL (the tier's per-step
/// latency, ll_bandwidth_fraction of the bandwidth) and Simple (pcie_simple_step_latency per
/// step, the full bandwidth), each latency + wire / bandwidth (collective_assumptions).
constexpr parts pcie_ring_parts(const collective_group& g, const collective_assumptions& a,
                                double s, double f_wire, int steps) {
  const double wire = f_wire * s, bw = g.intra_hop().value;
  parts ll, simple;
  ll.latency = a.launch.value + steps * g.intra.latency.value;
  ll.intra = wire / (a.ll_bandwidth_fraction * bw);
  simple.latency = a.launch.value + steps * a.pcie_simple_step_latency.value;
  simple.intra = wire / bw;
  return ll.total() <= simple.total() ? ll : simple;
}

constexpr bool pcie_only(const collective_group& g, const collective_assumptions& a) {
  return a.pcie_protocols && !g.crosses_nodes() && g.ranks_per_node > 1 &&
         g.intra.kind == link_technology::pcie;
}

/// Ring all-reduce-family collective (f_wire: wire bytes / S; steps: ring steps).
constexpr parts ring_parts(const collective_group& g, const collective_assumptions& a, double s,
                           double f_wire, int steps) {
  if (pcie_only(g, a)) return pcie_ring_parts(g, a, s, f_wire, steps);
  parts p;
  const bool across = g.crosses_nodes();
  const double lat = across ? g.inter.latency.value : g.intra.latency.value;
  p.latency = a.launch.value + steps * lat;
  const double ti = g.ranks_per_node > 1 ? xfer(a, f_wire * s, g.intra_hop().value, s) : 0.0;
  const double tx =
      across ? xfer(a, f_wire * s, g.ranks_per_node * g.inter.effective().value, s) : 0.0;
  // pipelined: the slower tier bounds the ring
  if (ti >= tx) p.intra = ti;
  else p.inter = tx;
  return p;
}

constexpr parts tree_all_reduce(const collective_group& g, const collective_assumptions& a,
                                double s) {
  parts p;
  const int k = g.ranks_per_node, n_nodes = g.nodes();
  const double lat_in = g.intra.latency.value, lat_x = g.inter.latency.value;
  p.latency = a.launch.value + 2.0 * (k - 1) * lat_in + 2.0 * ceil_log2(n_nodes) * lat_x;
  // reduce up then broadcast down: 2 S per GPU on each tier it uses (a double binary tree
  // splits S between two trees, each node sending S/2 per tree)
  const double ti = k > 1 ? xfer(a, 2.0 * s, g.intra_hop().value, s) : 0.0;
  const double tx =
      g.crosses_nodes() ? xfer(a, 2.0 * s, k * g.inter.effective().value, s) : 0.0;
  if (ti >= tx) p.intra = ti;
  else p.inter = tx;
  return p;
}

/// In-node phase of an all-reduce or reduce-scatter/all-gather pair with NVLS: each GPU sends
/// S + S/k per direction through the switch at the NVLS efficiency.
constexpr double nvls_all_reduce_seconds(const collective_group& g,
                                         const collective_assumptions& a, double s) {
  const int k = g.ranks_per_node;
  return xfer(a, s * (1.0 + 1.0 / k), a.nvls_efficiency * g.intra.per_gpu.value, s);
}

constexpr parts hierarchical_all_reduce(const collective_group& g,
                                        const collective_assumptions& a, double s,
                                        bool in_network) {
  parts p;
  p.latency = a.launch.value;  // one call (NCCL runs the phases in one kernel)
  const int k = g.ranks_per_node, n_nodes = g.nodes();
  const double lat_in = g.intra.latency.value, lat_x = g.inter.latency.value;
  const bool nvls = in_network && g.intra.reduction == in_network_reduction::nvls && k > 1;
  const bool sharp = in_network && g.inter.reduction == in_network_reduction::sharp;
  // inside: reduce-scatter then all-gather, (k-1)/k S each (or NVLS: S + S/k in all)
  if (k > 1) {
    p.intra = nvls ? nvls_all_reduce_seconds(g, a, s)
                   : 2.0 * xfer(a, (k - 1.0) / k * s, g.intra_hop().value, s);
    p.latency += (nvls ? 2.0 : 2.0 * (k - 1)) * lat_in;
  }
  if (g.crosses_nodes()) {
    const double chunk = s / k;  // each GPU all-reduces its 1/k across nodes, on its own NIC
    const double f = sharp ? 1.0 : 2.0 * (n_nodes - 1.0) / n_nodes;
    p.inter = xfer(a, f * chunk, g.inter.effective().value, chunk);
    p.latency += (sharp ? 2.0 : 2.0 * (n_nodes - 1)) * lat_x;
  }
  return p;
}

/// All-to-all as NCCL runs it: a send and a receive of S/n to and from every rank at once
/// (src/enqueue.cc: ncclFuncAlltoAll becomes one p2pTaskAppend send and recv per peer), each
/// pair over its own path. Inside the node every GPU's own link carries its (k-1)/n S; on a PCIe
/// node over several CPU sockets the pairs on different islands also share the socket link
/// (src/graph/paths.cc: a PATH_SYS path, min(PCIe, the CPU's QPI figure)), cross_pairs flows of
/// S/n each per group and direction, every group of the shape at once; the slower bounds it.
constexpr double all_to_all_node_seconds(const collective_group& g,
                                         const collective_assumptions& a, double s) {
  const int n = g.ranks, k = g.ranks_per_node;
  if (k <= 1) return 0.0;
  // on a PCIe-only group NCCL's send/recv run its Simple protocol at the link's rate on large
  // payloads: no NVLink-fitted ramp (collective_assumptions::pcie_protocols)
  const double phase = pcie_only(g, a) ? 0.0 : s;
  const double link = xfer(a, (k - 1.0) / n * s, g.intra.effective().value, phase);
  if (!g.crosses_sockets() || g.cross_pairs < 1) return link;
  const double socket = xfer(a, s / n, g.socket_flow_rate(g.cross_pairs).value, phase);
  return socket > link ? socket : link;
}

constexpr parts all_to_all_parts(const collective_group& g, const collective_assumptions& a,
                                 double s) {
  parts p;
  const int n = g.ranks, k = g.ranks_per_node;
  p.latency = a.launch.value + (g.crosses_nodes() ? g.inter.latency.value : g.intra.latency.value);
  // each rank sends S/n to every other rank: (k-1)/n S stays in the node, (n-k)/n S leaves it
  // through this GPU's NIC share; both go at once.
  const double ti = all_to_all_node_seconds(g, a, s);
  // between arbitrary node pairs: held to the fabric's bisection when it is oversubscribed
  const double tx =
      g.crosses_nodes()
          ? xfer(a, (1.0 * (n - k)) / n * s, g.bisection_fraction * g.inter.effective().value, s)
          : 0.0;
  if (ti >= tx) p.intra = ti;
  else p.inter = tx;
  return p;
}

constexpr collective_cost make_cost(const parts& p, collective_algorithm alg, collective_kind k,
                                    const collective_group& g, data_size payload) {
  collective_cost c;
  c.latency = p.latency * units::s;
  c.intra = p.intra * units::s;
  c.inter = p.inter * units::s;
  c.total = p.total() * units::s;
  c.algorithm = alg;
  c.kind = k;
  c.crosses_nodes = g.crosses_nodes();
  c.payload = payload;
  c.ranks = g.ranks;
  return c;
}

constexpr bool supports(const collective_group& g, collective_kind k, collective_algorithm alg) {
  switch (alg) {
    case collective_algorithm::automatic:
    case collective_algorithm::ring: return true;
    case collective_algorithm::tree: return k == collective_kind::all_reduce;
    case collective_algorithm::hierarchical:
      return k == collective_kind::all_reduce && g.crosses_nodes() && g.ranks_per_node > 1;
    case collective_algorithm::in_network:
      return k == collective_kind::all_reduce &&
             ((g.ranks_per_node > 1 && g.intra.reduction == in_network_reduction::nvls) ||
              (g.crosses_nodes() && g.inter.reduction == in_network_reduction::sharp));
  }
  return false;
}

constexpr parts algorithm_parts(const collective_group& g, collective_kind k,
                                collective_algorithm alg, const collective_assumptions& a,
                                double s) {
  const int n = g.ranks;
  switch (k) {
    case collective_kind::all_reduce:
      switch (alg) {
        case collective_algorithm::tree: return tree_all_reduce(g, a, s);
        case collective_algorithm::hierarchical: return hierarchical_all_reduce(g, a, s, false);
        case collective_algorithm::in_network: return hierarchical_all_reduce(g, a, s, true);
        default: return ring_parts(g, a, s, 2.0 * (n - 1) / n, 2 * (n - 1));
      }
    case collective_kind::reduce_scatter:
    case collective_kind::all_gather: return ring_parts(g, a, s, 1.0 * (n - 1) / n, n - 1);
    case collective_kind::all_to_all: return all_to_all_parts(g, a, s);
    case collective_kind::broadcast: return ring_parts(g, a, s, 1.0, n - 1);
    case collective_kind::send_recv: {
      parts p;
      const bool across = g.crosses_nodes();
      const network_tier& t = across ? g.inter : g.intra;
      p.latency = a.launch.value + t.latency.value;
      (across ? p.inter : p.intra) =
          xfer(a, s, across ? t.effective().value : g.intra_hop().value, s);
      return p;
    }
  }
  return {};
}

}  // namespace detail

/// Time of collective `kind` on `payload` bytes per rank (the nccl-tests size) over group g.
/// One rank: zero. Throws gpuplan::invalid_input for a bad group, a negative payload, or an
/// algorithm the group cannot run (tree / hierarchical / in-network are all-reduce only;
/// hierarchical needs a group spanning nodes with several members per node; in-network needs
/// NVLS or SHARP on a tier the group uses).
constexpr collective_cost collective_time(collective_kind kind, data_size payload,
                                          const collective_group& g,
                                          const collective_assumptions& a = {}) {
  g.validate();
  detail::check_input(detail::finite_nonnegative(payload.value),
                      "collective payload must be finite and not negative");
  if (g.ranks <= 1 || !(payload.value > 0.0)) {
    collective_cost c;
    c.kind = kind;
    c.payload = payload;
    c.ranks = g.ranks;
    return c;
  }
  const double s = payload.value;
  if (a.algorithm != collective_algorithm::automatic) {
    detail::check_input(detail::supports(g, kind, a.algorithm),
                        "collective_assumptions.algorithm is not available for this collective "
                        "and group");
    return detail::make_cost(detail::algorithm_parts(g, kind, a.algorithm, a, s), a.algorithm,
                             kind, g, payload);
  }
  constexpr collective_algorithm candidates[] = {
      collective_algorithm::ring, collective_algorithm::tree, collective_algorithm::hierarchical,
      collective_algorithm::in_network};
  detail::parts best{};
  collective_algorithm best_alg = collective_algorithm::ring;
  bool first = true;
  for (collective_algorithm alg : candidates) {
    if (!detail::supports(g, kind, alg)) continue;
    const detail::parts p = detail::algorithm_parts(g, kind, alg, a, s);
    if (first || p.total() < best.total()) {
      best = p;
      best_alg = alg;
      first = false;
    }
  }
  return detail::make_cost(best, best_alg, kind, g, payload);
}

}  // namespace gpuplan
