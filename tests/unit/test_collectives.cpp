// Collective times against published nccl-tests measurements.
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/collectives.hpp>

#include "../catch.hpp"

#include <cmath>

using namespace gpuplan;
using units::GBps;

namespace {
double rel_err(double got, double want) { return std::abs(got / want - 1.0); }
}  // namespace

TEST_CASE("all_reduce busbw on one 8x A100 NVLink3 node follows the nccl-tests curve") {
  // stas00/ml-engineering, network/README.md, nccl-tests all_reduce_perf output on one 8x A100
  // SXM node: payload (bytes) -> busbw (GB/s). Tolerance 8% per point (the fit's worst is 5.6%).
  const struct {
    double bytes, busbw_gbps;
  } curve[] = {{32.0 * 1024, 1.31},          {1024.0 * 1024, 18.0},
               {32.0 * 1024 * 1024, 138.49}, {256.0 * 1024 * 1024, 194.07},
               {1024.0 * 1024 * 1024, 229.04}, {16.0 * 1024 * 1024 * 1024, 234.89}};
  const collective_group g = make_group(catalog::dgx_a100, 8);
  REQUIRE(g.ranks_per_node == 8);
  REQUIRE_FALSE(g.crosses_nodes());
  for (const auto& p : curve) {
    const auto c = collective_time(collective_kind::all_reduce, p.bytes * units::B, g);
    INFO("payload " << p.bytes << " B: busbw " << c.busbw().in(GBps) << " GB/s, published "
                    << p.busbw_gbps);
    CHECK(c.busbw().in(GBps) == Approx(p.busbw_gbps).epsilon(0.08));
    CHECK(c.algorithm == collective_algorithm::ring);  // no NVLS on Ampere
  }
}

TEST_CASE("all_reduce on one 8x H100 node uses NVLS and reaches ~476 GB/s busbw") {
  // NVIDIA/nccl-tests issue #290 (maintainer): single-node H100 all_reduce ~476 GB/s busbw is in
  // the expected range. Tolerance 5% at 8 GiB.
  const collective_group g = make_group(catalog::dgx_h100, 8);
  const auto c = collective_time(collective_kind::all_reduce, 8.0 * units::GiB, g);
  CHECK(c.algorithm == collective_algorithm::in_network);
  CHECK(rel_err(c.busbw().in(GBps), 476.0) < 0.05);
  // Without NVLS, the ring: 0.79 x 450 = 355 GB/s at most; it must be slower.
  collective_assumptions ring;
  ring.algorithm = collective_algorithm::ring;
  const auto r = collective_time(collective_kind::all_reduce, 8.0 * units::GiB, g, ring);
  CHECK(r.total > c.total);
  CHECK(r.busbw().in(GBps) < 0.79 * 450.0);
}

TEST_CASE("one NDR 400 Gb/s NIC per rank gives 46-48 GB/s busbw across nodes") {
  // NVIDIA/nccl-tests issue #290 (maintainer): with NDR 400 Gbps expect 46-48 GB/s per NIC.
  // One rank per node (stride 8): every byte crosses the NIC.
  const collective_group g = make_group(catalog::dgx_h100, 4, 8);
  REQUIRE(g.ranks_per_node == 1);
  REQUIRE(g.nodes() == 4);
  const auto c = collective_time(collective_kind::all_reduce, 8.0 * units::GiB, g);
  CHECK(c.busbw().in(GBps) > 46.0 * 0.97);
  CHECK(c.busbw().in(GBps) < 48.0 * 1.03);
  CHECK(c.crosses_nodes);
  CHECK(c.inter > c.intra);
  // Gb/s are not GB/s: the tier holds 50 GB/s, not 400.
  CHECK(g.inter.per_gpu.in(GBps) == Approx(50.0));
}

TEST_CASE("busbw convention factors are nccl-tests'") {
  CHECK(bus_factor(collective_kind::all_reduce, 8) == Approx(1.75));
  CHECK(bus_factor(collective_kind::all_gather, 8) == Approx(0.875));
  CHECK(bus_factor(collective_kind::reduce_scatter, 4) == Approx(0.75));
  CHECK(bus_factor(collective_kind::all_to_all, 2) == Approx(0.5));
  CHECK(bus_factor(collective_kind::broadcast, 8) == Approx(1.0));
  const auto t = 2.0 * units::ms;
  CHECK(busbw(collective_kind::all_reduce, 1.0 * units::GB, t, 8).in(GBps) ==
        Approx(1.75 * 500.0));
  CHECK(algbw(1.0 * units::GB, t).in(GBps) == Approx(500.0));
}

TEST_CASE("groups: placement by size and stride") {
  const auto t = topology(catalog::dgx_h100, 4);
  CHECK(make_group(t, 8, 1).ranks_per_node == 8);   // TP 8: one node
  CHECK(make_group(t, 16, 1).ranks_per_node == 8);  // TP 16 spills to 2 nodes
  CHECK(make_group(t, 16, 1).crosses_nodes());
  CHECK(make_group(t, 4, 2).ranks_per_node == 4);   // stride 2 x 4 = span 7: one node
  CHECK(make_group(t, 4, 4).ranks_per_node == 2);   // 2 per node
  CHECK(make_group(t, 4, 8).ranks_per_node == 1);   // one per node
  // bridged pairs: a group of 4 on an NVLink-bridge node goes over PCIe
  network_topology bridge = t;
  bridge.intra.kind = link_technology::nvlink_bridge;
  CHECK(make_group(bridge, 2).intra.kind == link_technology::nvlink_bridge);
  CHECK(make_group(bridge, 4).intra.kind == link_technology::pcie);
}

TEST_CASE("a TP group that spills out of the node pays the inter-node price") {
  const auto t = topology(catalog::dgx_h100, 2);
  const data_size s = 64.0 * units::MiB;
  const auto in_node = collective_time(collective_kind::all_reduce, s, make_group(t, 8));
  const auto spilled = collective_time(collective_kind::all_reduce, s, make_group(t, 16));
  CHECK_FALSE(in_node.crosses_nodes);
  CHECK(spilled.crosses_nodes);
  CHECK(spilled.total > 1.5 * in_node.total);
}

TEST_CASE("collective kinds: relations that must hold") {
  const auto g = make_group(catalog::dgx_a100, 8);
  const data_size s = 1.0 * units::GiB;
  const auto ar = collective_time(collective_kind::all_reduce, s, g);
  const auto rs = collective_time(collective_kind::reduce_scatter, s, g);
  const auto ag = collective_time(collective_kind::all_gather, s, g);
  // ring all-reduce = reduce-scatter + all-gather in bytes: about twice either
  CHECK(ar.total.in(units::s) == Approx(rs.total.in(units::s) * 2).epsilon(0.05));
  CHECK(rs.total == ag.total);
  const auto a2a = collective_time(collective_kind::all_to_all, s, g);
  CHECK(a2a.total < ar.total);
  const auto one = collective_time(collective_kind::all_reduce, s, make_group(catalog::dgx_a100, 1));
  CHECK(one.total.value == 0.0);
  const auto p2p = collective_time(collective_kind::send_recv, s, make_group(catalog::dgx_a100, 2));
  CHECK(p2p.total.in(units::ms) > 0.0);
  // SHARP halves the inter-node all-reduce traffic of one rank per node
  network_assumptions na;
  na.use_sharp = true;
  const auto plain = collective_time(collective_kind::all_reduce, s,
                                     make_group(catalog::dgx_h100, 8, 8));
  const auto sharp = collective_time(collective_kind::all_reduce, s,
                                     make_group(catalog::dgx_h100, 8, 8, inter_node_fabric::infiniband, na));
  CHECK(sharp.algorithm == collective_algorithm::in_network);
  CHECK(sharp.total.in(units::s) < 0.6 * plain.total.in(units::s));
}

TEST_CASE("bad groups and algorithms are refused, naming the field") {
  collective_group g = make_group(catalog::dgx_a100, 8);
  g.ranks_per_node = 9;
  CHECK_THROWS_AS(collective_time(collective_kind::all_reduce, 1.0 * units::MB, g), invalid_input);
  collective_assumptions a;
  a.algorithm = collective_algorithm::hierarchical;  // one node: nothing to be hierarchical over
  CHECK_THROWS_AS(collective_time(collective_kind::all_reduce, 1.0 * units::MB,
                                  make_group(catalog::dgx_a100, 8), a),
                  invalid_input);
  CHECK_THROWS_AS(make_group(catalog::dgx_a100, 0), invalid_input);
  node_spec no_nic = catalog::dgx_a100;
  no_nic.nics = {};
  CHECK_THROWS_AS(collective_time(collective_kind::all_reduce, 1.0 * units::MB,
                                  make_group(no_nic, 16)),
                  invalid_input);
}

TEST_CASE("constexpr math agrees with <cmath>") {
  for (double x : {1e-9, 0.3, 1.0, 2.5, 1e6, 3e12}) {
    CHECK(detail::series_log(x) == Approx(std::log(x)).epsilon(1e-13).margin(1e-14));
    CHECK(detail::series_exp(0.75 * std::log(x)) == Approx(std::pow(x, 0.75)).epsilon(1e-12));
    CHECK(detail::cpow(x, 0.75) == Approx(std::pow(x, 0.75)).epsilon(1e-14));
    CHECK(detail::cpow(x, 0.6) == Approx(std::pow(x, 0.6)).epsilon(1e-14));
  }
  constexpr auto c = collective_time(collective_kind::all_reduce, 1.0 * units::GiB,
                                     make_group(catalog::dgx_a100, 8));
  static_assert(c.total < 10 * units::ms);
  const auto r = collective_time(collective_kind::all_reduce, 1.0 * units::GiB,
                                 make_group(catalog::dgx_a100, 8));
  CHECK(c.total.in(units::s) == Approx(r.total.in(units::s)).epsilon(1e-12));
}

#include <gpuplan/models/placement.hpp>

TEST_CASE("placement follows Megatron-Core's rank order tp-cp-ep-dp-pp") {
  const auto t = topology(catalog::dgx_h100, 16);
  parallel_layout l{.dp = 4, .tp = 8, .pp = 4};
  const placement p = place(l, t);
  CHECK_FALSE(p.tp_crosses_nodes());      // 8 consecutive ranks: one node
  CHECK(p.dp.ranks_per_node == 1);        // stride 8: one member per node
  CHECK(p.dp_crosses_nodes());
  CHECK(p.pp_crosses_nodes());
  // TP 16 on 8-GPU nodes spills over: the result says so
  parallel_layout wide{.dp = 2, .tp = 16, .pp = 1};
  CHECK(place(wide, t).tp_crosses_nodes());
  // TP 2 x DP 4 fits a node: the DP group (stride 2) has 4 members on the node
  parallel_layout small{.dp = 4, .tp = 2};
  CHECK(place(small, t).dp.ranks_per_node == 4);
  CHECK_FALSE(place(small, t).dp_crosses_nodes());
  // the alternative order puts pipeline stages next to each other
  parallel_layout pipe{.dp = 4, .tp = 2, .pp = 4};
  CHECK(place(pipe, t, rank_order::tp_cp_pp_dp).pp_pair.ranks_per_node == 2);
  CHECK(place(pipe, t, rank_order::megatron).pp_pair.ranks_per_node == 1);  // stride 8: next node
}

TEST_CASE("an oversubscribed fabric slows all-to-all, not rings") {
  cluster_spec full{.node = catalog::dgx_h100, .nodes = 8};
  cluster_spec half = full;
  half.bisection_fraction = 0.5;
  const data_size s = 1.0 * units::GiB;
  const auto a2a_full = collective_time(collective_kind::all_to_all, s, make_group(full, 64));
  const auto a2a_half = collective_time(collective_kind::all_to_all, s, make_group(half, 64));
  CHECK(a2a_half.total.in(units::s) > 1.8 * a2a_full.total.in(units::s));
  const auto ar_full = collective_time(collective_kind::all_reduce, s, make_group(full, 64));
  const auto ar_half = collective_time(collective_kind::all_reduce, s, make_group(half, 64));
  CHECK(ar_half.total == ar_full.total);
}

TEST_CASE("PCIe only: NCCL's LL and Simple protocols, not the NVLink-fitted ramp") {
  // 8 L40S on PCIe Gen4 x16 (the link of the RTX 3090 and 4090 below): per GPU 31.5 GB/s each
  // way, x pcie_achievable 0.79; all eight behind one root complex (one island: the socket
  // link is the next test's).
  node_spec one_island = catalog::pcie_8x_l40s;
  one_island.pcie_islands = 1;
  const collective_group g = make_group(one_island, 8);
  REQUIRE(g.intra.kind == link_technology::pcie);
  REQUIRE_FALSE(g.crosses_nodes());
  const collective_assumptions a{};
  const double bw = g.intra.effective().value;
  // A 128 KiB all-reduce (8 decode sequences x 8192 hidden x 2 bytes) runs LL, as NCCL's tuner
  // picks it: launch + 2(n-1) steps x 1.0 us (tuning.cc hwLat PCI ring LL) + the wire bytes at
  // half the bandwidth (ring LL busBw x 0.5).
  const double s = 128.0 * 1024;
  const auto c = collective_time(collective_kind::all_reduce, s * units::B, g);
  const double ll = a.launch.value + 14 * 1.0e-6 + 1.75 * s / (0.5 * bw);
  CHECK(c.total.value == Approx(ll).epsilon(1e-9));
  // The ramp fitted on the A100 NVSwitch curve charged it ~0.48 ms (its small-payload cost grows
  // as 1 / bandwidth); the protocol model is an order of magnitude below.
  collective_assumptions ramp;
  ramp.pcie_protocols = false;
  const auto old = collective_time(collective_kind::all_reduce, s * units::B, g, ramp);
  CHECK(old.total.in(units::us) > 400.0);
  CHECK(c.total.in(units::us) < 50.0);
  // An 8-byte all-reduce: the latency floor. nccl-tests all_reduce_perf -g 8 on one PCIe server
  // measured 42.14 us on 8 RTX 4090 (NVIDIA/nccl issue #1530) and 54.18 us on 8 RTX 3090
  // (NVIDIA/nccl issue #1439); one thread there launches the eight GPUs' kernels one after
  // another, which a serving engine (a process per GPU, CUDA graphs) does not. The model's floor
  // (launch + 14 LL steps = 17.6 us) lies below both and within a factor of 3.1 of them.
  const auto tiny = collective_time(collective_kind::all_reduce, 8.0 * units::B, g);
  CHECK(tiny.total.in(units::us) == Approx(17.6).epsilon(0.01));
  CHECK(tiny.total.in(units::us) < 42.14);
  CHECK(42.14 / tiny.total.in(units::us) < 3.1);
  // Large payloads run Simple (5.7 us a step, the full bandwidth): busbw tends to 0.79 x 31.5.
  const auto big = collective_time(collective_kind::all_reduce, 1.0 * units::GiB, g);
  CHECK(big.latency.value == Approx(a.launch.value + 14 * 5.7e-6));
  CHECK(big.busbw().in(GBps) == Approx(0.79 * 31.5).epsilon(0.01));
}

TEST_CASE("PCIe only: large all-reduce busbw of 4 RTX 4090 on PCIe Gen4") {
  // tinygrad/open-gpu-kernel-modules issue #36: nccl-tests all_reduce_perf -g 4 on 4 RTX 4090
  // (PCIe Gen4 x16, peer-to-peer on): busbw 25.72 GB/s at 256 MiB, 25.95 GB/s at 1 GiB. The L40S
  // has the same Gen4 x16 link. Tolerance 8% per point (the A100 curve's).
  node_spec four = catalog::pcie_8x_l40s;
  four.gpus = 4;
  four.pcie_islands = 1;  // four cards on one CPU
  const collective_group g = make_group(four, 4);
  REQUIRE(g.intra.kind == link_technology::pcie);
  REQUIRE(g.islands == 1);
  const struct {
    double bytes, busbw_gbps;
  } points[] = {{256.0 * 1024 * 1024, 25.72}, {1024.0 * 1024 * 1024, 25.95}};
  for (const auto& p : points) {
    const auto c = collective_time(collective_kind::all_reduce, p.bytes * units::B, g);
    INFO("payload " << p.bytes << " B: busbw " << c.busbw().in(GBps) << " GB/s, published "
                    << p.busbw_gbps);
    CHECK(c.busbw().in(GBps) == Approx(p.busbw_gbps).epsilon(0.08));
  }
}

TEST_CASE("PCIe islands: a ring over two CPU sockets is held to the socket link") {
  // flashinfer-ai/flashinfer PR #4870 (qsang-nv, "PCIe IPC copy-engine all-reduce - SOL
  // analysis", 2026-09-08): 8 L40S, PCIe Gen4, 4+4 NUMA islands with no PCIe switch
  // ("rootcplx-noswitch"). Rates per hop in GB/s of bare cudaMemcpyAsync copies driven in each
  // schedule's hop pattern (not NCCL): single hop alone 26.26; intra-island ring 25.46 (4 GPUs),
  // 25.43 (both islands' rings at once); flat ring of all 8 GPUs 20.75; every flow across the
  // islands at once 9.70. The model's hop: 0.79 x 31.5 GB/s inside an island; a ring of eight
  // crosses the socket link once per direction, min(24.9, socket_link_per_flow 22 GB/s, NCCL's
  // Sapphire Rapids figure; the PR does not name the CPU, so the default is what is read) = 22.
  // Tolerance 10% per figure and on the ring-of-eight / island ratio (measured 0.815, model
  // 0.884).
  const node_spec& n = catalog::pcie_8x_l40s;
  REQUIRE(n.pcie_islands == 2);
  const collective_group island = make_group(n, 4);  // TP 4: GPUs 0-3, one socket
  const collective_group all8 = make_group(n, 8);
  CHECK(island.islands == 1);
  CHECK(all8.islands == 2);
  CHECK(all8.socket_flows == 1);
  const data_size big = 1.0 * units::GiB;
  const auto busbw = [&](const collective_group& g) {
    return collective_time(collective_kind::all_reduce, big, g).busbw().in(GBps);
  };
  const double in_island = busbw(island), ring8 = busbw(all8);
  INFO("model: ring inside an island " << in_island << " GB/s, ring of eight " << ring8);
  CHECK(in_island == Approx(25.46).epsilon(0.10));
  CHECK(ring8 == Approx(20.75).epsilon(0.10));
  CHECK(ring8 / in_island == Approx(20.75 / 25.46).epsilon(0.10));
  CHECK(ring8 < in_island);
  // The hop bound is the mechanism, nothing else: the ring of eight equals one island's ring
  // with the socket link's per-flow rate as its hop.
  node_spec one = n;
  one.pcie_islands = 1;
  CHECK(busbw(make_group(one, 8)) == Approx(0.79 * 31.5).epsilon(0.01));
  CHECK(ring8 == Approx(22.0).epsilon(0.01));
  // Groups inside one island keep the one-island timing exactly.
  node_spec four = n;
  four.pcie_islands = 1;
  CHECK(collective_time(collective_kind::all_reduce, big, island).total.value ==
        collective_time(collective_kind::all_reduce, big, make_group(four, 4)).total.value);
}

TEST_CASE("PCIe islands: 8 RTX 5090 on two Sapphire Rapids sockets") {
  // NVIDIA/nccl issue #1639: 2 x Xeon Platinum 8480+ (Sapphire Rapids, NCCL's SRP_QPI_BW 22 GB/s
  // the default socket_link_per_flow), 8 RTX 5090 on PCIe Gen5, nccl-tests all_reduce_perf -b 1g
  // -e 8g -g 8: busbw 28 GB/s on 8 GPUs, 35 GB/s on 4. The model's 8-GPU ring crosses the
  // sockets: 22 GB/s, 21% below, held to -25%..+10% as a documented residual (NCCL's figure for
  // the link is below what that machine carried). Its 4-GPU figure (0.79 x 63 GB/s = 49.8) is
  // far above the measured 35 (consumer cards, a maintainer there: "determined by the bandwidth
  // your CPU and memory can deliver"), so the 8 / 4 ratio is not a check of this mechanism.
  node_spec n = catalog::pcie_8x_l40s;
  n.name = "8x RTX 5090";
  n.gpu = catalog::rtx_5090;
  n.scale_up_per_gpu = catalog::rtx_5090.pcie.per_direction();
  REQUIRE(n.pcie_islands == 2);
  const data_size big = 1.0 * units::GiB;
  const auto busbw = [&](int gpus) {
    return collective_time(collective_kind::all_reduce, big, make_group(n, gpus)).busbw().in(GBps);
  };
  const double eight = busbw(8), four = busbw(4);
  INFO("model: 8 GPUs " << eight << " GB/s, 4 GPUs " << four);
  CHECK(eight == Approx(22.0).epsilon(0.01));
  CHECK(eight > 0.75 * 28.0);
  CHECK(eight < 1.10 * 28.0);
  CHECK(four > 35.0);  // the residual named above
}

TEST_CASE("PCIe islands: flows that cross the socket link together share it") {
  // DP groups of 2 at stride 4 on the 4+4 node: GPU i pairs with i+4, four pairs at once, so
  // four flows each way share the socket link's aggregate (22 GB/s, NCCL's one figure per link):
  // 5.5 GB/s a flow. FlashInfer PR #4870 measured 9.70 GB/s a flow in that pattern on its L40S
  // box (cudaMemcpyAsync): the model is 43% low there, NCCL's figure being below what that
  // machine's link carried (docs/validation.md).
  const collective_group pairs = make_group(catalog::pcie_8x_l40s, 2, 4);
  CHECK(pairs.islands == 2);
  CHECK(pairs.socket_flows == 4);
  CHECK(pairs.intra_hop().in(GBps) == Approx(22.0 / 4).epsilon(1e-9));
  network_assumptions wide;
  wide.socket_link_aggregate = 88.0 * GBps;  // a link four flows do not fill
  const collective_group roomy =
      make_group(catalog::pcie_8x_l40s, 2, 4, inter_node_fabric::infiniband, wide);
  CHECK(roomy.intra_hop().in(GBps) == Approx(22.0).epsilon(1e-9));
  // Another CPU's link given by its per-flow figure alone: the aggregate follows it (NCCL's
  // one figure per link), so a ring of eight is not held to the default CPU's 22 GB/s.
  network_assumptions emerald;
  emerald.socket_link_per_flow = 40.0 * GBps;  // NCCL 2.30.7 topo.h, Emerald Rapids
  const collective_group ring = make_group(catalog::pcie_8x_l40s, 8, 1,
                                           inter_node_fabric::infiniband, emerald);
  CHECK(ring.socket_aggregate.in(GBps) == Approx(40.0).epsilon(1e-12));
  CHECK(ring.intra_hop().in(GBps) > 22.0);
  // NVLink nodes have no islands to cross; a bad socket link is refused by name.
  CHECK(make_group(catalog::dgx_h100, 8).islands == 1);
  network_assumptions bad;
  bad.socket_link_per_flow = 0.0 * GBps;
  const collective_group g =
      make_group(catalog::pcie_8x_l40s, 8, 1, inter_node_fabric::infiniband, bad);
  CHECK_THROWS_WITH(collective_time(collective_kind::all_reduce, 1.0 * units::MiB, g),
                    Catch::Contains("socket_link_per_flow"));
}

TEST_CASE("PCIe islands: an all-to-all's cross-socket pairs share the socket link") {
  // NCCL runs an all-to-all as a send and a receive of S/n to and from every peer at once
  // (src/enqueue.cc); the pairs on different sockets go over a PATH_SYS path whose rate is the
  // CPU's QPI figure (src/graph/paths.cc, topo.h SRP_QPI_BW 22 GB/s), and every crossing pair
  // takes its share of that one link. EP 8 over the 4 + 4 L40S node: 4 x 4 = 16 pairs cross in
  // each direction, S/8 each, over the link's 22 GB/s: t = 16 x S/8 / 22 GB/s = S / 11 GB/s
  // (busbw 9.6 GB/s), where each GPU's own PCIe link alone would allow 7/8 S / 24.9 GB/s.
  const node_spec& n = catalog::pcie_8x_l40s;
  REQUIRE(n.pcie_islands == 2);
  const collective_group ep8 = make_group(n, 8);
  CHECK(ep8.cross_pairs == 16);
  CHECK(ep8.socket_flows == 1);
  const data_size s = 1.0 * units::GiB;
  const auto a2a = collective_time(collective_kind::all_to_all, s, ep8);
  CHECK(a2a.algbw().in(GBps) == Approx(11.0).epsilon(0.001));
  node_spec one = n;
  one.pcie_islands = 1;
  const auto flat = collective_time(collective_kind::all_to_all, s, make_group(one, 8));
  CHECK(flat.busbw().in(GBps) == Approx(0.79 * 31.5).epsilon(0.001));  // the PCIe link's rate
  CHECK(a2a.total.value > 2.5 * flat.total.value);
  // EP 4 at stride 2 (GPUs 0 2 4 6: 2 + 2) and EP 2 at stride 4 (i with i + 4): every group of
  // the shape runs at once, 2 x 2 x 2 and 4 x 1 flows sharing the link.
  const collective_group ep4 = make_group(n, 4, 2), ep2 = make_group(n, 2, 4);
  CHECK(ep4.cross_pairs == 4);
  CHECK(ep4.socket_flows == 2);
  CHECK(ep2.cross_pairs == 1);
  CHECK(ep2.socket_flows == 4);
  CHECK(collective_time(collective_kind::all_to_all, s, ep4).algbw().in(GBps) ==
        Approx(22.0 / 8 * 4).epsilon(0.001));
  CHECK(collective_time(collective_kind::all_to_all, s, ep2).algbw().in(GBps) ==
        Approx(22.0 / 4 * 2).epsilon(0.001));
  // EP 4 inside one socket: no pair crosses, the one-island timing exactly.
  node_spec four = one;
  four.gpus = 4;
  CHECK(collective_time(collective_kind::all_to_all, s, make_group(n, 4)).total.value ==
        collective_time(collective_kind::all_to_all, s, make_group(four, 4)).total.value);
  // Uneven spread: 6 GPUs on 2 sockets (3 + 3), a group at stride 2 holds GPUs 0 2 4: 2 + 1.
  node_spec six = n;
  six.gpus = 6;
  CHECK(make_group(six, 3, 2).cross_pairs == 2);
}

TEST_CASE("PCIe islands: an all-to-all is monotone in the socket link and the payload") {
  const node_spec& n = catalog::pcie_8x_l40s;
  const data_size s = 256.0 * units::MiB;
  double last = 0.0;
  for (const double gbps : {400.0, 88.0, 40.0, 22.0, 10.0, 5.0}) {
    network_assumptions a;
    a.socket_link_per_flow = gbps * GBps;
    const collective_group g = make_group(n, 8, 1, inter_node_fabric::infiniband, a);
    const double t = collective_time(collective_kind::all_to_all, s, g).total.value;
    INFO("socket link " << gbps << " GB/s: " << t << " s");
    CHECK(t >= last);  // a narrower link never speeds it up
    last = t;
  }
  // A link no narrower than every pair at full PCIe rate leaves the PCIe bound alone.
  network_assumptions wide;
  wide.socket_link_per_flow = 400.0 * GBps;
  node_spec one = n;
  one.pcie_islands = 1;
  CHECK(collective_time(collective_kind::all_to_all, s,
                        make_group(n, 8, 1, inter_node_fabric::infiniband, wide))
            .total.value ==
        Approx(collective_time(collective_kind::all_to_all, s, make_group(one, 8)).total.value));
  double prev = 0.0;
  for (const double mib : {1.0, 16.0, 256.0, 4096.0}) {
    const double t =
        collective_time(collective_kind::all_to_all, mib * units::MiB, make_group(n, 8)).total.value;
    CHECK(t > prev);
    prev = t;
  }
}

TEST_CASE("PCIe islands: all-to-all of 8 RTX 5090 on two Emerald Rapids sockets") {
  // NVIDIA/nccl-tests issue #332 (cugbls, 2025-07-16): 8 RTX 5090 (PCIe Gen5) per server,
  // nccl-tests alltoall_perf -b 8 -e 1g -f 2 -g 8, the largest payload: 22 GB/s on dual Intel
  // Xeon 6530 (Emerald Rapids; NCCL's ERP_QPI_BW, 40 GB/s, set as socket_link_per_flow as
  // `--set serving.network.socket_link_per_flow=40GB/s` would). The issue does not say which
  // column; nccl-tests' busbw is the figure such reports quote and is read so. The model: 16
  // pairs cross each way, S/8 each, over 40 GB/s: algbw 20, busbw 17.5 GB/s, 20% low, held to
  // -25%..+10% as the all-reduce check above; with the socket link ignored it was 49.8 (+126%).
  // The same issue's dual AMD EPYC 9554 and 9355 servers measured 25 and 33 GB/s, where NCCL's
  // AMD figure (AMD_BW 16 GB/s) gives the model 7: NCCL's figure for xGMI is far below what
  // those links carry, a known miss (docs/validation.md); set socket_link_aggregate there.
  node_spec n = catalog::pcie_8x_l40s;
  n.name = "8x RTX 5090";
  n.gpu = catalog::rtx_5090;
  n.scale_up_per_gpu = catalog::rtx_5090.pcie.per_direction();
  network_assumptions emerald;
  emerald.socket_link_per_flow = 40.0 * GBps;  // NVIDIA/nccl src/graph/topo.h ERP_QPI_BW
  const data_size s = 1.0 * units::GiB;
  const double model =
      collective_time(collective_kind::all_to_all, s,
                      make_group(n, 8, 1, inter_node_fabric::infiniband, emerald))
          .busbw()
          .in(GBps);
  INFO("model busbw " << model << " GB/s, published 22");
  CHECK(model == Approx(17.5).epsilon(0.001));
  CHECK(model > 0.75 * 22.0);
  CHECK(model < 1.10 * 22.0);
  node_spec one = n;
  one.pcie_islands = 1;
  const double flat =
      collective_time(collective_kind::all_to_all, s, make_group(one, 8)).busbw().in(GBps);
  CHECK(flat > 2.0 * 22.0);  // without the socket link: more than twice the measurement
  network_assumptions amd;
  amd.socket_link_per_flow = 16.0 * GBps;  // NVIDIA/nccl src/graph/topo.h AMD_BW
  const double epyc =
      collective_time(collective_kind::all_to_all, s,
                      make_group(n, 8, 1, inter_node_fabric::infiniband, amd))
          .busbw()
          .in(GBps);
  CHECK(epyc == Approx(7.0).epsilon(0.001));
  CHECK(epyc < 25.0);  // the documented miss: NCCL's AMD figure is the pessimistic side
}
