// gpuplan/specs/gpu.hpp: what a GPU is. Figures are per GPU; peak rates are dense (no 2:4
// sparsity folded in), and tensor-core and vector rates are distinct fields.
#pragma once

#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/units.hpp>

#include <array>

namespace gpuplan {

enum class vendor : unsigned char { nvidia, amd, other };
enum class form_factor : unsigned char { sxm, pcie, nvl, oam, other };
enum class link_kind : unsigned char { none, nvlink, nvlink_bridge, xgmi, pcie };

/// A GPU's scale-up link. Bandwidth is stored per direction (unidirectional) for the whole GPU,
/// summed over its links; vendors usually quote the bidirectional total (H100: "900 GB/s" =
/// 450 GB/s each way). Build it with from_bidirectional / from_unidirectional so the reader of a
/// catalog entry sees which figure the datasheet gave.
struct link_spec {
  link_kind kind = link_kind::none;
  int links = 0;                      ///< number of links (NVLink4: 18 on H100 SXM)
  bandwidth per_direction{};          ///< unidirectional, summed over links
  int max_peers = 0;                  ///< GPUs reachable over it (bridge: 1 or 3; switch: node)

  [[nodiscard]] constexpr bandwidth unidirectional() const { return per_direction; }
  [[nodiscard]] constexpr bandwidth bidirectional() const { return 2.0 * per_direction; }
  static constexpr link_spec from_bidirectional(link_kind k, int n, bandwidth bidir, int peers) {
    return {k, n, 0.5 * bidir, peers};
  }
  static constexpr link_spec from_unidirectional(link_kind k, int n, bandwidth uni, int peers) {
    return {k, n, uni, peers};
  }
};

/// The host interface. Per-direction bandwidth per lane after 128b/130b encoding (PCIe 3.0+):
/// gen3 8 GT/s -> 0.985 GB/s, gen4 16 GT/s -> 1.969 GB/s, gen5 32 GT/s -> 3.938 GB/s, gen6
/// 64 GT/s -> 7.877 GB/s (PCI-SIG base specifications; gen6 uses FLIT mode, about the same).
struct pcie_spec {
  int generation = 0;
  int lanes = 0;
  [[nodiscard]] constexpr bandwidth per_direction() const {
    double per_lane_gbps = 0.0;
    switch (generation) {
      case 3: per_lane_gbps = 8.0 * 128.0 / 130.0 / 8.0; break;
      case 4: per_lane_gbps = 16.0 * 128.0 / 130.0 / 8.0; break;
      case 5: per_lane_gbps = 32.0 * 128.0 / 130.0 / 8.0; break;
      case 6: per_lane_gbps = 64.0 * 242.0 / 256.0 / 8.0; break;
      default: per_lane_gbps = 0.0;
    }
    return per_lane_gbps * lanes * units::GBps;
  }
};

/// Dense peak rates per GPU; zero means the part has no such path. int8 is in operations/s.
struct peak_rates {
  compute_rate fp64_vector{};
  compute_rate fp64_tensor{};
  compute_rate fp32_vector{};
  compute_rate tf32_tensor{};
  compute_rate bf16_tensor{};
  compute_rate fp16_tensor{};
  compute_rate fp8_tensor{};
  compute_rate int8_tensor{};
  compute_rate fp4_tensor{};
  /// Speed-up the datasheet's sparse (2:4) figures claim over dense; 1 where none. Never folded
  /// into the rates above.
  double sparsity_factor = 1.0;

  /// The dense tensor-core rate for math in precision p (fp32 math means the vector units;
  /// int4 runs on the int8 path here unless the part lists fp4).
  [[nodiscard]] constexpr compute_rate tensor(precision p) const {
    switch (p) {
      case precision::fp64: return fp64_tensor.value > 0 ? fp64_tensor : fp64_vector;
      case precision::fp32: return fp32_vector;
      case precision::tf32: return tf32_tensor;
      case precision::bf16: return bf16_tensor;
      case precision::fp16: return fp16_tensor;
      case precision::fp8: return fp8_tensor;
      case precision::int8: return int8_tensor;
      case precision::fp4: return fp4_tensor;
      case precision::int4: return int8_tensor;
    }
    return {};
  }
};

struct gpu_spec {
  name_string name;                          ///< canonical catalog name, "H100-SXM5-80GB"
  std::array<name_string, 6> aliases{};      ///< other accepted names ("h100", "h100-sxm")
  vendor maker = vendor::nvidia;
  name_string architecture;                  ///< "Hopper", "CDNA3"
  form_factor form = form_factor::sxm;
  data_size memory{};                        ///< capacity in exact bytes (an "80GB" A100 has 80 GiB)
  data_size memory_usable{};                 ///< what the driver reports as total; zero if unknown
  name_string memory_type;                   ///< "HBM3"
  bandwidth memory_bandwidth{};              ///< peak DRAM bandwidth
  peak_rates peak{};
  power tdp{};                               ///< board power / TDP (the maximum where a range)
  link_spec gpu_link{};
  pcie_spec pcie{};
  int sm_count = 0;                          ///< SMs (NVIDIA) or CUs (AMD); zero if unknown
  frequency boost_clock{};                   ///< max SM clock; zero if unknown

  /// Memory the models may plan on: the driver-reported total where known, else the capacity.
  [[nodiscard]] constexpr data_size plannable_memory() const {
    return memory_usable.value > 0 ? memory_usable : memory;
  }
};

}  // namespace gpuplan
