// gpuplan/models/energy.hpp: how much power GPUs and their servers draw, and the energy of a run
// or of a token.
//
// GPU draw against utilisation. A GPU that runs kernels for a fraction u of the time (what
// nvidia-smi's utilization.gpu reports) draws its idle power, with clocks up, plus the rise to
// its busy power for the time it is busy. One more effect is needed to match measurement: after a
// burst of kernels the GPU keeps drawing busy power for a short hold time (the clock and voltage
// governor does not drop at once), so a workload that alternates bursts and gaps with period T
// draws as if busy for a fraction min(1, u + hold / T):
//
//   P(u) = P_idle + (P_busy - P_idle) * min(1, u + hold / T)       (u > 0; hold / T = 0 if T = 0)
//
// A GPU left without work for long enough drops its clocks and draws P_deep_idle. Calibrated on
// one H100 SXM (700 W limit), bf16 8192^3 products in 200 ms duty cycles, power.draw sampled by
// nvidia-smi every 500 ms (measured 2026-11-23):
//   before any work, SM at 345 MHz         75 W     -> deep_idle_fraction = 75 / 700
//   idle, clocks still at 1980 MHz    126-134 W     -> idle_fraction = 130 / 700
//   utilization 24%                        326 W
//   utilization 64%                        548 W
//   utilization 99%                        698 W    -> busy_fraction = 698 / 700
// The two partial-duty phases give hold = (0.345 - 0.24) x 200 ms = 21 ms and
// (0.736 - 0.64) x 200 ms = 19 ms: hold = 20 ms. Without the hold a straight line from 130 W to
// 698 W gives 266 W and 494 W, 18% and 10% low. See docs/models/energy.md.
//
// A server draws its GPUs plus its host (CPUs, memory, NICs, NVSwitches, fans); a cluster adds
// its share of network switches and storage; a facility multiplies IT power by its PUE.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/specs/site.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// Tokens per joule, the efficiency figure of a serving deployment.
using token_efficiency = quantity<dims::tokens / dims::energy>;

/// The GPU power model's parameters, as fractions of the GPU's TDP (so that one calibration
/// serves every GPU; see the header comment for the H100 measurement behind each default).
struct gpu_power_assumptions {
  /// Draw while kernels run back to back, over TDP. 698 W / 700 W: dense bf16 products hold
  /// an H100 SXM at its power limit.
  double busy_fraction = 698.0 / 700.0;
  /// Draw with no kernel running but clocks still up (inside a job: between steps, waiting on
  /// the network or on data), over TDP. 130 W / 700 W (126 and 134 W measured).
  double idle_fraction = 130.0 / 700.0;
  /// Draw of a GPU with no work for long enough to drop its clocks (an unallocated GPU in a
  /// fleet), over TDP. 75 W / 700 W (SM at 345 MHz before any work).
  double deep_idle_fraction = 75.0 / 700.0;
  /// How long busy power persists after a burst of kernels. 20 ms, from the two partial-duty
  /// phases of the measurement.
  duration hold_after_burst = 20 * units::ms;
  /// The period of the workload's busy/idle alternation; zero for phases far longer than the
  /// hold (a training step of seconds, a fleet idle for hours), where the hold is negligible.
  duration burst_period{};

  constexpr void validate() const {
    detail::check_input(detail::finite_positive(busy_fraction) && busy_fraction <= 1.5,
                        "gpu_power_assumptions.busy_fraction must be in (0, 1.5]", busy_fraction);
    detail::check_input(
        detail::finite(idle_fraction) && idle_fraction >= 0.0 && idle_fraction <= busy_fraction,
        "gpu_power_assumptions.idle_fraction must be in [0, busy_fraction]", idle_fraction);
    detail::check_input(detail::finite(deep_idle_fraction) && deep_idle_fraction >= 0.0 &&
                            deep_idle_fraction <= idle_fraction,
                        "gpu_power_assumptions.deep_idle_fraction must be in [0, idle_fraction]",
                        deep_idle_fraction);
    detail::check_input(detail::finite_nonnegative(hold_after_burst.value),
                        "gpu_power_assumptions.hold_after_burst must be finite and not negative");
    detail::check_input(detail::finite_nonnegative(burst_period.value),
                        "gpu_power_assumptions.burst_period must be finite and not negative");
  }
};

namespace detail {
constexpr void check_utilization(double u, const char* what) {
  check_input(finite(u) && u >= 0.0 && u <= 1.0, what, u);
}
constexpr void check_gpu_tdp(const gpu_spec& g) {
  check_input(finite_positive(g.tdp.value), "gpu_spec.tdp must be positive for the power model",
              g.tdp.value);
}
}  // namespace detail

/// The share of time a GPU draws busy power: its utilization plus the hold after each burst.
constexpr double effective_busy_share(double utilization, const gpu_power_assumptions& a = {}) {
  detail::check_utilization(utilization, "utilization must be between 0 and 1");
  a.validate();
  if (utilization <= 0.0) return 0.0;
  const double hold =
      a.burst_period.value > 0.0 ? a.hold_after_burst.value / a.burst_period.value : 0.0;
  const double share = utilization + hold;
  return share < 1.0 ? share : 1.0;
}

/// Average draw of one GPU that runs kernels for a fraction `utilization` of the time.
constexpr power gpu_power(const gpu_spec& g, double utilization,
                          const gpu_power_assumptions& a = {}) {
  detail::check_gpu_tdp(g);
  const double busy = effective_busy_share(utilization, a);
  const power idle = a.idle_fraction * g.tdp;
  const power full = a.busy_fraction * g.tdp;
  return idle + busy * (full - idle);
}

/// Draw of a GPU without work long enough to drop its clocks.
constexpr power gpu_deep_idle_power(const gpu_spec& g, const gpu_power_assumptions& a = {}) {
  detail::check_gpu_tdp(g);
  a.validate();
  return a.deep_idle_fraction * g.tdp;
}

/// Everything in a node and a cluster besides the GPUs.
struct node_power_assumptions {
  /// Each GPU's draw against its utilisation (gpu_power_assumptions above).
  gpu_power_assumptions gpu{};
  /// Host power (CPUs, memory, NICs, NVSwitches, fans, drives) as a share of the GPUs' TDP,
  /// used when the node publishes no maximum. 4.6 / 5.6: a DGX H100 draws up to 10.2 kW, of
  /// which 8 x 700 W are GPUs (NVIDIA DGX H100 datasheet). Where the node does publish a maximum
  /// the host is taken as that maximum less the GPUs' TDP (DGX A100: 6.5 kW - 3.2 kW = 3.3 kW).
  /// Held constant whatever the GPUs do: an upper bound, as the datasheet figure is a maximum.
  double host_share_of_gpu_tdp = 4.6 / 5.6;
  /// Cluster network switches, per node. Default 0: not counted unless set (no sourced
  /// per-node figure; a 64-port switch's draw divided by the nodes it serves).
  power network_per_node{};
  /// Shared storage, per node. Default 0: not counted unless set.
  power storage_per_node{};

  constexpr void validate() const {
    gpu.validate();
    detail::check_input(
        detail::finite_nonnegative(host_share_of_gpu_tdp) && host_share_of_gpu_tdp <= 5.0,
        "node_power_assumptions.host_share_of_gpu_tdp must be in [0, 5]", host_share_of_gpu_tdp);
    detail::check_input(detail::finite_nonnegative(network_per_node.value),
                        "node_power_assumptions.network_per_node must be finite and not negative");
    detail::check_input(detail::finite_nonnegative(storage_per_node.value),
                        "node_power_assumptions.storage_per_node must be finite and not negative");
  }
};

/// The host's draw in a node: the published maximum less the GPUs' TDP, or the share.
constexpr power host_power(const node_spec& n, const node_power_assumptions& a = {}) {
  a.validate();
  detail::check_input(n.gpus > 0, "node_spec.gpus must be positive");
  detail::check_gpu_tdp(n.gpu);
  const power gpus_tdp = (1.0 * n.gpus) * n.gpu.tdp;
  if (n.max_power.value > gpus_tdp.value) return n.max_power - gpus_tdp;
  return a.host_share_of_gpu_tdp * gpus_tdp;
}

/// A node's power, line by line.
struct node_power_breakdown {
  power gpus{};
  power host{};
  power network{};
  power storage{};
  [[nodiscard]] constexpr power total() const { return gpus + host + network + storage; }
};

/// A node whose GPUs run at `utilization`.
constexpr node_power_breakdown node_power(const node_spec& n, double utilization,
                                          const node_power_assumptions& a = {}) {
  return {(1.0 * n.gpus) * gpu_power(n.gpu, utilization, a.gpu), host_power(n, a),
          a.network_per_node, a.storage_per_node};
}

/// The node's maximum: the published maximum where there is one, else GPUs at TDP plus host;
/// network and storage shares added either way.
constexpr power node_max_power(const node_spec& n, const node_power_assumptions& a = {}) {
  const power gpus_tdp = (1.0 * n.gpus) * n.gpu.tdp;
  return gpus_tdp + host_power(n, a) + a.network_per_node + a.storage_per_node;
}

/// All-in IT power per GPU of a node at `utilization` (its share of host, network, storage).
constexpr power per_gpu_power(const node_spec& n, double utilization,
                              const node_power_assumptions& a = {}) {
  return node_power(n, utilization, a).total() / (1.0 * n.gpus);
}

/// Energy of `gpu_time` GPU-hours drawing `per_gpu` each (all-in IT power), in a facility of
/// power usage effectiveness `pue`. This is the model cards' formula (GPU-hours x power x PUE)
/// when per_gpu is their "power consumption per GPU".
constexpr energy run_energy(duration gpu_time, power per_gpu, double pue) {
  detail::check_input(detail::finite_nonnegative(gpu_time.value),
                      "gpu_time must be finite and not negative");
  detail::check_input(detail::finite_nonnegative(per_gpu.value),
                      "power per GPU must be finite and not negative");
  detail::check_input(detail::finite(pue) && pue >= 1.0 && pue <= 5.0,
                      "pue must be between 1 and 5", pue);
  return pue * (gpu_time * per_gpu);
}

/// Energy of a run, line by line (IT lines before PUE; facility = IT x PUE).
struct run_energy_breakdown {
  energy gpus{};
  energy host{};
  energy network{};
  energy storage{};
  energy facility_overhead{};  ///< (PUE - 1) x IT: cooling, power conversion, lighting
  [[nodiscard]] constexpr energy it() const { return gpus + host + network + storage; }
  [[nodiscard]] constexpr energy total() const { return it() + facility_overhead; }
};

/// Energy of `gpu_time` GPU-hours on nodes like `n` whose GPUs run at `utilization`, at `site`.
constexpr run_energy_breakdown run_energy(const node_spec& n, duration gpu_time, double utilization,
                                          const site_spec& site,
                                          const node_power_assumptions& a = {}) {
  site.validate();
  detail::check_input(detail::finite_nonnegative(gpu_time.value),
                      "gpu_time must be finite and not negative");
  const node_power_breakdown p = node_power(n, utilization, a);
  const duration node_time = gpu_time / (1.0 * n.gpus);
  run_energy_breakdown e{
      node_time * p.gpus, node_time * p.host, node_time * p.network, node_time * p.storage, {}};
  e.facility_overhead = (site.pue - 1.0) * e.it();
  return e;
}

/// Facility energy per token served by one GPU drawing `per_gpu` (all-in IT power) at
/// `per_gpu_rate` tokens per second.
constexpr quantity<dims::energy / dims::tokens> energy_per_token(power per_gpu,
                                                                 token_rate per_gpu_rate,
                                                                 double pue) {
  detail::check_input(detail::finite_positive(per_gpu_rate.value),
                      "tokens per second per GPU must be positive and finite", per_gpu_rate.value);
  detail::check_input(detail::finite(pue) && pue >= 1.0 && pue <= 5.0,
                      "pue must be between 1 and 5", pue);
  return pue * per_gpu / per_gpu_rate;
}

/// Tokens per joule of facility energy.
constexpr token_efficiency tokens_per_joule(power per_gpu, token_rate per_gpu_rate, double pue) {
  detail::check_input(detail::finite_positive(per_gpu.value),
                      "power per GPU must be positive and finite", per_gpu.value);
  detail::check_input(detail::finite(pue) && pue >= 1.0 && pue <= 5.0,
                      "pue must be between 1 and 5", pue);
  return per_gpu_rate / (pue * per_gpu);
}

}  // namespace gpuplan
