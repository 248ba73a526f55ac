// gpuplan/specs/node.hpp: what a server (node) and a cluster of them are.
//
// The classic confusion this header removes: network bandwidth "per GPU" vs "per node". A node
// stores its NICs as a count and a per-NIC line rate; per_gpu() and per_node() are computed, so a
// reader never has to guess which one a figure is. Line rates are stored as the NIC's signalling
// rate in bits (400 Gb/s NDR = 50 GB/s), before protocol overhead.
#pragma once

#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/units.hpp>

#include <array>

namespace gpuplan {

/// How the GPUs inside one node reach each other.
enum class intra_node_fabric : unsigned char {
  nvswitch,  ///< NVLink through NVSwitch chips: every GPU reaches every other at full rate
  nvlink_bridge,  ///< NVLink bridges between pairs (or quads) of PCIe cards; the rest via PCIe
  xgmi,      ///< AMD Infinity Fabric, a full mesh of point-to-point links on the baseboard
  pcie,      ///< PCIe only (through the CPU root complex or PCIe switches)
};

/// The fabric between nodes.
/// (efa comes last so that the values of the older enumerators do not change.)
enum class inter_node_fabric : unsigned char { infiniband, roce, ethernet, none, efa };

/// The names of intra_node_fabric, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<intra_node_fabric> intra_node_fabric_names[] = {
    {intra_node_fabric::nvswitch, "nvswitch"},
    {intra_node_fabric::nvlink_bridge, "nvlink_bridge"},
    {intra_node_fabric::xgmi, "xgmi"},
    {intra_node_fabric::pcie, "pcie"},
};
constexpr const auto& enumerators(intra_node_fabric) { return intra_node_fabric_names; }
/// The names of inter_node_fabric, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<inter_node_fabric> inter_node_fabric_names[] = {
    {inter_node_fabric::infiniband, "infiniband"},
    {inter_node_fabric::roce, "roce"},
    {inter_node_fabric::ethernet, "ethernet"},
    {inter_node_fabric::none, "none"},
    {inter_node_fabric::efa, "efa"},
};
constexpr const auto& enumerators(inter_node_fabric) { return inter_node_fabric_names; }

/// The scale-out network interfaces of a node.
struct nic_spec {
  int count = 0;        ///< compute-fabric NICs per node (storage/management NICs not counted)
  bandwidth per_nic{};  ///< line rate of ONE NIC, per direction (ConnectX-7 NDR: 400 Gb/s)
  name_string model;    ///< "ConnectX-7 NDR 400G"

  /// All compute NICs of the node together, per direction.
  [[nodiscard]] constexpr bandwidth per_node() const { return 1.0 * count * per_nic; }
};

struct node_spec {
  name_string name;                       ///< canonical catalog name, "DGX-H100"
  std::array<name_string, 4> aliases{};   ///< other accepted names ("dgx h100", "hgx-h100")
  gpu_spec gpu{};                         ///< the GPU model in every slot
  int gpus = 0;                           ///< GPUs per node
  intra_node_fabric fabric = intra_node_fabric::nvswitch;
  /// Scale-up bandwidth of one GPU to the rest of the node, per direction (H100 NVLink4 through
  /// NVSwitch: 450 GB/s). For PCIe nodes, the GPU's PCIe link per direction.
  bandwidth scale_up_per_gpu{};
  nic_spec nics{};
  data_size host_memory{};                ///< CPU DRAM per node
  data_size local_storage{};              ///< local NVMe for data and checkpoints (usable, decimal)
  power max_power{};                      ///< the system's maximum power draw; zero if unknown
  /// PCIe islands: the CPU sockets (NUMA nodes) the GPUs hang off, split evenly (8 GPUs on 2
  /// sockets: 4 + 4). GPU peer traffic between islands crosses the socket link (UPI, Infinity
  /// Fabric), which PCIe collectives feel (specs/network.hpp network_assumptions). 1: all GPUs
  /// behind one root complex or switch tree; NVLink and xGMI nodes ignore it.
  int pcie_islands = 1;

  /// Scale-out bandwidth available to one GPU, per direction: all compute NICs shared by the GPUs.
  [[nodiscard]] constexpr bandwidth nic_per_gpu() const {
    return gpus > 0 ? nics.per_node() / (1.0 * gpus) : bandwidth{};
  }
  /// Alias of nic_per_gpu(): "per GPU" scale-out bandwidth.
  [[nodiscard]] constexpr bandwidth per_gpu() const { return nic_per_gpu(); }
  /// All compute NICs of the node, per direction.
  [[nodiscard]] constexpr bandwidth nic_per_node() const { return nics.per_node(); }
  /// GPU memory of the whole node (capacity).
  [[nodiscard]] constexpr data_size gpu_memory() const { return 1.0 * gpus * gpu.memory; }

  /// Throws gpuplan::invalid_input naming the first field that is missing or out of range.
  constexpr void validate() const {
    detail::check_input(!name.empty(), "node_spec.name must not be empty");
    gpu.validate();
    detail::check_input(gpus > 0, "node_spec.gpus must be positive", gpus);
    detail::check_input(detail::finite_nonnegative(scale_up_per_gpu.value),
                        "node_spec.scale_up_per_gpu must be finite and not negative",
                        scale_up_per_gpu.value);
    detail::check_input(nics.count >= 0, "node_spec.nics.count must not be negative", nics.count);
    detail::check_input(detail::finite_nonnegative(nics.per_nic.value),
                        "node_spec.nics.per_nic must be finite and not negative",
                        nics.per_nic.value);
    detail::check_input(nics.count == 0 || nics.per_nic.value > 0.0,
                        "node_spec.nics.per_nic must be positive when nics.count > 0",
                        nics.per_nic.value);
    detail::check_input(detail::finite_nonnegative(host_memory.value),
                        "node_spec.host_memory must be finite and not negative", host_memory.value);
    detail::check_input(detail::finite_nonnegative(local_storage.value),
                        "node_spec.local_storage must be finite and not negative",
                        local_storage.value);
    detail::check_input(detail::finite_nonnegative(max_power.value),
                        "node_spec.max_power must be finite and not negative", max_power.value);
    detail::check_input(pcie_islands >= 1 && pcie_islands <= gpus && gpus % pcie_islands == 0,
                        "node_spec.pcie_islands must be at least 1 and divide gpus",
                        pcie_islands, gpus);
  }
};

/// A cluster of identical nodes joined by a scale-out fabric.
struct cluster_spec {
  node_spec node{};
  int nodes = 1;
  inter_node_fabric fabric = inter_node_fabric::infiniband;
  /// Bisection bandwidth as a fraction of the full injection bandwidth (1: a non-blocking fat
  /// tree, as in NVIDIA's DGX SuperPOD reference architecture; below 1: oversubscribed).
  double bisection_fraction = 1.0;

  [[nodiscard]] constexpr int gpus() const { return nodes * node.gpus; }
  /// Scale-out bandwidth one GPU can inject, per direction.
  [[nodiscard]] constexpr bandwidth injection_per_gpu() const { return node.nic_per_gpu(); }
  /// Bandwidth across a bisection of the cluster, per direction.
  [[nodiscard]] constexpr bandwidth bisection() const {
    return bisection_fraction * (0.5 * nodes) * node.nic_per_node();
  }

  constexpr void validate() const {
    node.validate();
    detail::check_input(nodes > 0, "cluster_spec.nodes must be positive", nodes);
    detail::check_input(nodes == 1 || fabric != inter_node_fabric::none,
                        "cluster_spec.fabric must not be none with more than one node", nodes);
    detail::check_input(nodes == 1 || node.nics.count > 0,
                        "cluster_spec.node.nics.count must be positive with nodes > 1", nodes);
    detail::check_input(detail::finite_positive(bisection_fraction) && bisection_fraction <= 1.0,
                        "cluster_spec.bisection_fraction must be in (0, 1]", bisection_fraction);
  }
};

/// The server `chassis` around `gpu`: its GPUs replaced by `gpu`, its count, fabric, NICs and host
/// kept. A published maximum power was measured with the chassis's own GPUs, so it is dropped
/// when `gpu` is another: the power models then use the node model's maximum
/// (models/energy.hpp node_max_power).
constexpr node_spec node_around(node_spec chassis, const gpu_spec& gpu) {
  if (!(chassis.gpu.name == gpu.name)) chassis.max_power = {};
  chassis.gpu = gpu;
  return chassis;
}

}  // namespace gpuplan
