// gpuplan/models/power_limit.hpp: a GPU run under a power limit below its TDP (`nvidia-smi -pl W`).
//
// The mechanism: the board's power manager lowers the SM clock until the draw fits the limit
// (dynamic voltage and frequency scaling, DVFS). Work the clock paces (tensor-core and vector
// math) slows with the clock; HBM keeps its own clock, so streaming bandwidth holds until the
// limit falls below what memory-bound work draws; and the GPU draws at most the limit.
//
// Clock vs power. CMOS power is P = P_static + C f V^2. Over the top of the DVFS range the
// voltage rises with the clock (V ~ f^(gamma/2)); below a knee the voltage sits at its floor and
// the dynamic power is linear in f. Normalised to the draw at full clock (f/f_max = x = 1):
//     P(x) / P(1) = s + (1 - s) x max(x_knee, x)^gamma.
// A compute-bound kernel at the GPU's TDP is power-bound (gpu_spec's rates and kernel
// efficiencies are what it reaches there), so a limit L runs it at the clock x with
// P(x) / P(1) = L / TDP. The parameters below are a minimax fit to the one
// published clock-vs-power sweep of LLM training we found: Perseus (Chung et al., SOSP'24), A100
// SXM, a GPT-3 175B pipeline stage's forward and backward at every locked SM clock from 1410 to
// 855 MHz, time and energy measured (ml-energy/zeus, sosp24_data/emulation/stage_profile/
// gpt3-175b+a100_sxm_bf16.csv). The fit reads every measured clock within 0.031 of f_max from
// its power (tests/unit/test_power_limit.cpp). Hopper and later parts are assumed to follow the
// same normalised curve (same DVFS physics; no published H100 sweep found).
#pragma once

#include <gpuplan/models/cmath.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// The named parameters of the power-limit model (the header's comment gives the curve).
struct power_limit_assumptions {
  /// Static (leakage) share of the full-clock draw, s. Fit to Perseus's A100 sweep (above).
  double static_share = 0.09;
  /// Clock fraction below which the voltage sits at its floor, x_knee. Same fit: the measured
  /// energy per pass stops falling below about 1050 MHz of 1410 (0.745).
  double voltage_floor_clock = 0.705;
  /// Exponent of the clock in V^2 above the knee, gamma (V ~ f^(gamma/2)). Same fit.
  double voltage_exponent = 1.0;
  /// The lowest limit the driver accepts, as a share of the TDP: nvidia-smi -q -d POWER on an
  /// H100 SXM5 reports Min Power Limit 200 W of 700 W (an A100 SXM4: 100 W of 400 W).
  double min_limit_fraction = 200.0 / 700.0;
  /// What memory-bound work draws, as a share of the TDP: LLM decode on an H200 draws 137-300 W
  /// of 700 W and no power cap above that triggers (Ma et al., "The Illusion of Power Capping in
  /// LLM Decode", arXiv:2605.11999). A limit above this share leaves the HBM bandwidth whole; below
  /// it the bandwidth is taken to fall in proportion to the limit (an assumption: no sweep found).
  double memory_bound_draw_fraction = 300.0 / 700.0;

  /// Throws gpuplan::invalid_input naming the field out of range.
  constexpr void validate() const {
    detail::check_input(detail::finite(static_share) && static_share >= 0.0 && static_share < 0.5,
                        "power_limit_assumptions.static_share must be in [0, 0.5)", static_share);
    detail::check_input(detail::finite(voltage_floor_clock) && voltage_floor_clock > 0.0 &&
                            voltage_floor_clock <= 1.0,
                        "power_limit_assumptions.voltage_floor_clock must be in (0, 1]",
                        voltage_floor_clock);
    detail::check_input(detail::finite(voltage_exponent) && voltage_exponent >= 0.0 &&
                            voltage_exponent <= 4.0,
                        "power_limit_assumptions.voltage_exponent must be in [0, 4]",
                        voltage_exponent);
    detail::check_input(detail::finite(min_limit_fraction) && min_limit_fraction > static_share &&
                            min_limit_fraction <= 1.0,
                        "power_limit_assumptions.min_limit_fraction must be in (static_share, 1]",
                        min_limit_fraction);
    detail::check_input(detail::finite(memory_bound_draw_fraction) &&
                            memory_bound_draw_fraction > 0.0 && memory_bound_draw_fraction <= 1.0,
                        "power_limit_assumptions.memory_bound_draw_fraction must be in (0, 1]",
                        memory_bound_draw_fraction);
  }
};

/// The draw at SM clock fraction x (of the clock the GPU's rates assume), as a share of the draw
/// at x = 1: s + (1 - s) x max(x_knee, x)^gamma.
constexpr double power_fraction_at_clock(double x, const power_limit_assumptions& a = {}) {
  a.validate();
  detail::check_input(detail::finite(x) && x > 0.0 && x <= 1.0,
                      "the clock fraction must be in (0, 1]", x);
  const double v = x > a.voltage_floor_clock ? x : a.voltage_floor_clock;
  return a.static_share + (1.0 - a.static_share) * x * detail::cpow(v, a.voltage_exponent);
}

/// The SM clock fraction at which compute-bound work draws `power_fraction` of its full-clock
/// draw: the inverse of power_fraction_at_clock.
constexpr double clock_fraction_at_power(double power_fraction,
                                         const power_limit_assumptions& a = {}) {
  a.validate();
  detail::check_input(detail::finite(power_fraction) && power_fraction > a.static_share &&
                          power_fraction <= 1.0,
                      "the power fraction must be above power_limit_assumptions.static_share and "
                      "at most 1",
                      power_fraction);
  const double s = a.static_share, xk = a.voltage_floor_clock, g = a.voltage_exponent;
  const double dynamic = (power_fraction - s) / (1.0 - s);  // x max(xk, x)^g
  const double at_knee = detail::cpow(xk, 1.0 + g);
  if (dynamic >= at_knee) return detail::cpow(dynamic, 1.0 / (1.0 + g));
  return dynamic / detail::cpow(xk, g);
}

/// The share of the HBM bandwidth left under a limit of `power_fraction` of the TDP: whole above
/// what memory-bound work draws, in proportion below it.
constexpr double bandwidth_fraction_at_power(double power_fraction,
                                             const power_limit_assumptions& a = {}) {
  a.validate();
  return power_fraction >= a.memory_bound_draw_fraction
             ? 1.0
             : power_fraction / a.memory_bound_draw_fraction;
}

/// `g` under a power limit: math rates and boost clock x clock_fraction_at_power(limit / TDP),
/// memory bandwidth x bandwidth_fraction_at_power, and `tdp` = the limit (the energy models then
/// draw at most it). A limit equal to the TDP changes nothing (so applying one twice is the same
/// as once). Throws invalid_input naming gpu_spec.tdp or the limit when the limit is above the
/// TDP or below power_limit_assumptions.min_limit_fraction of it.
constexpr gpu_spec power_limited(gpu_spec g, power limit, const power_limit_assumptions& a = {}) {
  a.validate();
  detail::check_input(detail::finite_positive(g.tdp.value),
                      "gpu_spec.tdp must be positive to apply a power limit", g.tdp.value);
  detail::check_input(detail::finite_positive(limit.value), "power_limit must be positive",
                      limit.value);
  detail::check_input(limit.value <= g.tdp.value * (1.0 + 1e-12),
                      "power_limit must not exceed the GPU's TDP (gpu_spec.tdp)", limit.value,
                      g.tdp.value);
  detail::check_input(limit.value >= a.min_limit_fraction * g.tdp.value * (1.0 - 1e-12),
                      "power_limit must be at least power_limit_assumptions.min_limit_fraction "
                      "of the GPU's TDP (gpu_spec.tdp; nvidia-smi's minimum)",
                      limit.value, a.min_limit_fraction * g.tdp.value);
  const double p = limit.value >= g.tdp.value ? 1.0 : limit.value / g.tdp.value;
  if (p >= 1.0) return g;
  const double x = clock_fraction_at_power(p, a);
  peak_rates& r = g.peak;
  for (compute_rate* c : {&r.fp64_vector, &r.fp64_tensor, &r.fp32_vector, &r.tf32_tensor,
                          &r.bf16_tensor, &r.fp16_tensor, &r.fp8_tensor, &r.int8_tensor,
                          &r.fp4_tensor})
    *c = x * *c;
  g.boost_clock = x * g.boost_clock;
  g.memory_bandwidth = bandwidth_fraction_at_power(p, a) * g.memory_bandwidth;
  g.tdp = limit;
  return g;
}

/// `n` with every GPU under the limit (power_limited above); a published node maximum falls by
/// what the GPUs no longer draw.
constexpr node_spec power_limited(node_spec n, power limit, const power_limit_assumptions& a = {}) {
  const gpu_spec capped = power_limited(n.gpu, limit, a);
  if (n.max_power.value > 0.0) {
    const power saved = (1.0 * n.gpus) * (n.gpu.tdp - capped.tdp);
    n.max_power = n.max_power - saved;
  }
  n.gpu = capped;
  return n;
}

}  // namespace gpuplan
