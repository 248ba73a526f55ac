// gpuplan/models/power.hpp: racks, heat and facility power for a cluster of nodes.
//
// Every watt a server draws leaves it as heat, so a rack's heat load is its IT power: in BTU/h,
// 1 W = 3.412 BTU/h (1 BTU_IT = 1055.05585262 J). A rack holds as many nodes as its power budget
// allows, and no more than the site's cooling can take away; the cooling a rack needs is the
// least capable kind whose limit covers it (site_spec::limits). Facility power is IT power x PUE.
#pragma once

#include <gpuplan/models/energy.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/specs/site.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

namespace units {
/// The British thermal unit (International Table) per hour: 1055.05585262 J / 3600 s.
inline constexpr unit<dims::power> BTU_per_h{1055.05585262 / 3600.0, "BTU/h"};
}  // namespace units

/// How a node's power is counted for rack planning.
enum class node_power_basis : unsigned char {
  published_maximum,  ///< the node's published maximum (DGX H100: 10.2 kW), else the model's
  modelled,           ///< GPUs at `utilization` plus host, network and storage (energy.hpp)
};
inline constexpr enumerator<node_power_basis> node_power_basis_names[] = {
    {node_power_basis::published_maximum, "published_maximum"},
    {node_power_basis::modelled, "modelled"}};
constexpr const auto& enumerators(node_power_basis) { return node_power_basis_names; }

struct power_assumptions {
  node_power_basis basis = node_power_basis::published_maximum;
  /// GPU utilization for the modelled basis (ignored for the published maximum).
  double utilization = 1.0;
  node_power_assumptions node{};
};

/// The cooling a rack drawing `rack` needs: the least capable kind whose limit covers it;
/// liquid when even air with containment does not (and when liquid's limit is also exceeded).
constexpr cooling_kind cooling_needed(power rack, const cooling_limits& l = {}) {
  l.validate();
  if (rack <= l.air) return cooling_kind::air;
  if (rack <= l.air_containment) return cooling_kind::air_containment;
  return cooling_kind::liquid;
}

/// A cluster laid out in racks at a site.
struct rack_plan {
  power node_power{};      ///< per node, on the chosen basis
  int nodes = 0;           ///< nodes to place
  int nodes_per_rack = 0;  ///< the most that fit the rack budget and the site's cooling
  int racks = 0;
  power rack_power{};                             ///< of a full rack
  cooling_kind rack_cooling = cooling_kind::air;  ///< what a full rack needs
  /// The rack budget alone would allow more nodes than the site's cooling can take.
  bool cooling_bound = false;
  power it_power{};        ///< all nodes
  power facility_power{};  ///< it_power x PUE

  /// Heat a full rack rejects, in BTU/h.
  [[nodiscard]] constexpr double rack_heat_btu_per_h() const {
    return rack_power.in(units::BTU_per_h);
  }
  [[nodiscard]] constexpr double heat_btu_per_h() const { return it_power.in(units::BTU_per_h); }
};

/// Power per node on the chosen basis.
constexpr power planned_node_power(const node_spec& n, const power_assumptions& a = {}) {
  if (a.basis == node_power_basis::published_maximum) {
    if (n.max_power.value > 0.0)
      return n.max_power + a.node.network_per_node + a.node.storage_per_node;
    return node_max_power(n, a.node);
  }
  return node_power(n, a.utilization, a.node).total();
}

/// Places `nodes` nodes like `n` in racks at `site`.
constexpr rack_plan plan_racks(const node_spec& n, int nodes, const site_spec& site,
                               const power_assumptions& a = {}) {
  site.validate();
  detail::check_input(nodes > 0, "nodes must be positive");
  rack_plan r;
  r.node_power = planned_node_power(n, a);
  r.nodes = nodes;
  const power cooling_cap = site.limits.limit(site.cooling);
  const power cap = min(site.rack_budget, cooling_cap);
  detail::check_input(r.node_power <= site.rack_budget,
                      "one node draws more than site_spec.rack_budget: raise the rack budget",
                      r.node_power.value, site.rack_budget.value);
  detail::check_input(
      r.node_power <= cooling_cap,
      "one node draws more than the site's cooling can take per rack "
      "(site_spec.cooling and site_spec.limits): choose a more capable cooling kind",
      r.node_power.value, cooling_cap.value);
  const double per_rack = cap / r.node_power;
  r.nodes_per_rack = static_cast<int>(per_rack + 1e-9);
  r.cooling_bound =
      cooling_cap<site.rack_budget&& static_cast<int>(site.rack_budget / r.node_power + 1e-9)> r
          .nodes_per_rack;
  r.racks = (nodes + r.nodes_per_rack - 1) / r.nodes_per_rack;
  r.rack_power = (1.0 * (nodes < r.nodes_per_rack ? nodes : r.nodes_per_rack)) * r.node_power;
  r.rack_cooling = cooling_needed(r.rack_power, site.limits);
  r.it_power = (1.0 * nodes) * r.node_power;
  r.facility_power = site.facility_power(r.it_power);
  return r;
}

}  // namespace gpuplan
