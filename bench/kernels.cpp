// Out-of-line copies of the kernels, so that the generated code of each can be read on its own
// (bench/compare_codegen.sh) and called through an opaque call from the benchmark.
#include "kernels.hpp"

namespace gpuplan_bench {

void roofline_quantity(const gpuplan::data_size* bytes, const gpuplan::compute_amount* flops,
                       std::size_t n, gpuplan::bandwidth hbm, gpuplan::compute_rate peak,
                       gpuplan::power board, gpuplan::energy_price price,
                       gpuplan::duration* time_out, gpuplan::money* cost_out) {
  roofline_quantity_inline(bytes, flops, n, hbm, peak, board, price, time_out, cost_out);
}

void roofline_double(const double* bytes, const double* flops, std::size_t n, double hbm,
                     double peak, double board, double price, double* time_out, double* cost_out) {
  roofline_double_inline(bytes, flops, n, hbm, peak, board, price, time_out, cost_out);
}

}  // namespace gpuplan_bench
