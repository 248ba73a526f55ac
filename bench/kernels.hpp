// The kernels bench/quantity_overhead.cpp times and bench/compare_codegen.sh disassembles: the
// same roofline-and-cost arithmetic, once on gpuplan quantities and once on raw doubles.
#pragma once

#include <gpuplan/units.hpp>

#include <cstddef>

namespace gpuplan_bench {

/// Per layer: the roofline time (the larger of memory time and compute time), then its energy cost
/// in dollars. Quantities in, quantities out.
void roofline_quantity(const gpuplan::data_size* bytes, const gpuplan::compute_amount* flops,
                       std::size_t n, gpuplan::bandwidth hbm, gpuplan::compute_rate peak,
                       gpuplan::power board, gpuplan::energy_price price,
                       gpuplan::duration* time_out, gpuplan::money* cost_out);

/// The same on raw doubles: bytes, FLOP, bytes/s, FLOP/s, W, $/J, s, $.
void roofline_double(const double* bytes, const double* flops, std::size_t n, double hbm,
                     double peak, double board, double price, double* time_out, double* cost_out);

inline void roofline_quantity_inline(const gpuplan::data_size* bytes,
                                     const gpuplan::compute_amount* flops, std::size_t n,
                                     gpuplan::bandwidth hbm, gpuplan::compute_rate peak,
                                     gpuplan::power board, gpuplan::energy_price price,
                                     gpuplan::duration* time_out, gpuplan::money* cost_out) {
  for (std::size_t i = 0; i < n; ++i) {
    const gpuplan::duration tm = bytes[i] / hbm;
    const gpuplan::duration tc = flops[i] / peak;
    const gpuplan::duration t = gpuplan::max(tm, tc);
    time_out[i] = t;
    cost_out[i] = board * t * price;
  }
}

inline void roofline_double_inline(const double* bytes, const double* flops, std::size_t n,
                                   double hbm, double peak, double board, double price,
                                   double* time_out, double* cost_out) {
  for (std::size_t i = 0; i < n; ++i) {
    const double tm = bytes[i] / hbm;
    const double tc = flops[i] / peak;
    const double t = tm < tc ? tc : tm;  // what gpuplan::max does
    time_out[i] = t;
    cost_out[i] = board * t * price;
  }
}

}  // namespace gpuplan_bench
