// gpuplan/specs/gpu.hpp: what a GPU is. Figures are per GPU; peak rates are dense (no 2:4
// sparsity folded in), and tensor-core and vector rates are distinct fields.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/kernel_efficiency.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/units.hpp>

#include <array>

namespace gpuplan {

enum class vendor : unsigned char { nvidia, amd, other };
enum class form_factor : unsigned char { sxm, pcie, nvl, oam, other };
enum class link_kind : unsigned char { none, nvlink, nvlink_bridge, xgmi, pcie };
/// The names of vendor, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<vendor> vendor_names[] = {
    {vendor::nvidia, "nvidia"},
    {vendor::amd, "amd"},
    {vendor::other, "other"},
};
constexpr const auto& enumerators(vendor) { return vendor_names; }
/// The names of form_factor, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<form_factor> form_factor_names[] = {
    {form_factor::sxm, "sxm"},
    {form_factor::pcie, "pcie"},
    {form_factor::nvl, "nvl"},
    {form_factor::oam, "oam"},
    {form_factor::other, "other"},
};
constexpr const auto& enumerators(form_factor) { return form_factor_names; }
/// The names of link_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<link_kind> link_kind_names[] = {
    {link_kind::none, "none"},
    {link_kind::nvlink, "nvlink"},
    {link_kind::nvlink_bridge, "nvlink_bridge"},
    {link_kind::xgmi, "xgmi"},
    {link_kind::pcie, "pcie"},
};
constexpr const auto& enumerators(link_kind) { return link_kind_names; }

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

  /// Throws gpuplan::invalid_input naming the field when the link is not self-consistent.
  constexpr void validate() const {
    detail::check_input(links >= 0, "link_spec.links must not be negative", links);
    detail::check_input(detail::finite_nonnegative(per_direction.value),
                        "link_spec.per_direction must be finite and not negative",
                        per_direction.value);
    detail::check_input(max_peers >= 0, "link_spec.max_peers must not be negative", max_peers);
    detail::check_input(
        kind != link_kind::none || (links == 0 && per_direction.value == 0.0 && max_peers == 0),
        "link_spec.kind is none but links, bandwidth or peers are set");
    detail::check_input(kind == link_kind::none || per_direction.value > 0.0,
                        "link_spec.per_direction must be positive for a link", per_direction.value);
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
  [[nodiscard]] constexpr bandwidth bidirectional() const { return 2.0 * per_direction(); }

  /// Throws gpuplan::invalid_input naming the field; generation 0 with lanes 0 means unknown.
  constexpr void validate() const {
    detail::check_input(generation == 0 || (generation >= 3 && generation <= 6),
                        "pcie_spec.generation must be 3, 4, 5 or 6 (0: unknown)", generation);
    detail::check_input(
        lanes == 0 || lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8 || lanes == 16,
        "pcie_spec.lanes must be 1, 2, 4, 8 or 16 (0: unknown)", lanes);
    detail::check_input((generation == 0) == (lanes == 0),
                        "pcie_spec.generation and pcie_spec.lanes must both be set", generation,
                        lanes);
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

  /// The sparse (2:4) tensor rate the datasheet headlines for precision p: dense x
  /// sparsity_factor where the part has structured sparsity, else the dense rate.
  [[nodiscard]] constexpr compute_rate sparse_tensor(precision p) const {
    if (p == precision::fp64 || p == precision::fp32) return tensor(p);
    return sparsity_factor * tensor(p);
  }

  /// Throws gpuplan::invalid_input naming the field when a rate is negative, NaN or infinite.
  constexpr void validate() const {
    const struct {
      const compute_rate& r;
      const char* msg;
    } fields[] = {
        {fp64_vector, "gpu_spec.peak.fp64_vector must be finite and not negative"},
        {fp64_tensor, "gpu_spec.peak.fp64_tensor must be finite and not negative"},
        {fp32_vector, "gpu_spec.peak.fp32_vector must be finite and not negative"},
        {tf32_tensor, "gpu_spec.peak.tf32_tensor must be finite and not negative"},
        {bf16_tensor, "gpu_spec.peak.bf16_tensor must be finite and not negative"},
        {fp16_tensor, "gpu_spec.peak.fp16_tensor must be finite and not negative"},
        {fp8_tensor, "gpu_spec.peak.fp8_tensor must be finite and not negative"},
        {int8_tensor, "gpu_spec.peak.int8_tensor must be finite and not negative"},
        {fp4_tensor, "gpu_spec.peak.fp4_tensor must be finite and not negative"},
    };
    for (const auto& f : fields)
      detail::check_input(detail::finite_nonnegative(f.r.value), f.msg, f.r.value);
    detail::check_input(detail::finite(sparsity_factor) && sparsity_factor >= 1.0,
                        "gpu_spec.peak.sparsity_factor must be at least 1 (1: none)",
                        sparsity_factor);
  }
};

/// An NVIDIA GPU's CUDA compute capability, major.minor (9.0 for Hopper); 0.0: unknown, or not an
/// NVIDIA part. The per-SM instruction rates the CUDA C++ Programming Guide tabulates are by
/// compute capability (models/kernels.hpp special_function_slots reads it).
struct cuda_capability {
  int major = 0;
  int minor = 0;
  [[nodiscard]] constexpr bool known() const { return major > 0; }
  friend constexpr bool operator==(const cuda_capability&, const cuda_capability&) = default;
  constexpr void validate() const {
    detail::check_input(major >= 0 && minor >= 0 && minor <= 9,
                        "gpu_spec.compute_capability must be major.minor, major not negative and "
                        "minor 0-9 (0.0: unknown)",
                        major, minor);
  }
};

struct gpu_spec {
  name_string name;                          ///< canonical catalog name, "H100-SXM5-80GB"
  std::array<name_string, 6> aliases{};      ///< other accepted names ("h100", "h100-sxm")
  vendor maker = vendor::nvidia;
  name_string architecture;                  ///< "Hopper", "CDNA3"
  form_factor form = form_factor::sxm;
  data_size memory{};  ///< capacity in exact bytes (an "80GB" A100 has 80 GiB)
  data_size memory_usable{};                 ///< what the driver reports as total; zero if unknown
  name_string memory_type;                   ///< "HBM3"
  bandwidth memory_bandwidth{};              ///< peak DRAM bandwidth
  peak_rates peak{};
  power tdp{};                               ///< board power / TDP (the maximum where a range)
  link_spec gpu_link{};
  pcie_spec pcie{};
  int sm_count = 0;                          ///< SMs (NVIDIA) or CUs (AMD); zero if unknown
  frequency boost_clock{};                   ///< max SM clock; zero if unknown
  cuda_capability compute_capability{};      ///< NVIDIA's compute capability; 0.0 if unknown
  /// Fractions of the peaks its kernels reach (largest GEMMs, streaming copies) and whose
  /// measurement each is (specs/kernel_efficiency.hpp); zero: unknown, the kernel model's
  /// named defaults (models/kernels.hpp).
  kernel_efficiency kernels{};

  /// Memory the models may plan on: the driver-reported total where known, else the capacity.
  [[nodiscard]] constexpr data_size plannable_memory() const {
    return memory_usable.value > 0 ? memory_usable : memory;
  }

  /// Throws gpuplan::invalid_input naming the first field that is missing or out of range. In a
  /// constant expression the throw is a compile error that shows the message. The timing models
  /// need every rate; the memory models need only validate_memory().
  constexpr void validate() const { check_fields(true); }

  /// What a memory plan (training_fit, inference_memory) needs: a name and the memory, and every
  /// other field either unknown (0) or in range. The bandwidth may be unknown here.
  constexpr void validate_memory() const { check_fields(false); }

 private:
  /// The fields in order; the memory bandwidth positive when `rates` (the timing models read it).
  constexpr void check_fields(bool rates) const {
    detail::check_input(!name.empty(), "gpu_spec.name must not be empty");
    detail::check_input(detail::finite_positive(memory.value),
                        "gpu_spec.memory must be positive and finite", memory.value);
    detail::check_input(detail::finite_nonnegative(memory_usable.value),
                        "gpu_spec.memory_usable must be finite and not negative",
                        memory_usable.value);
    detail::check_input(memory_usable.value <= memory.value,
                        "gpu_spec.memory_usable must not exceed gpu_spec.memory",
                        memory_usable.value, memory.value);
    if (rates)
      detail::check_input(detail::finite_positive(memory_bandwidth.value),
                          "gpu_spec.memory_bandwidth must be positive and finite",
                          memory_bandwidth.value);
    else
      detail::check_input(detail::finite_nonnegative(memory_bandwidth.value),
                          "gpu_spec.memory_bandwidth must be finite and not negative",
                          memory_bandwidth.value);
    peak.validate();
    detail::check_input(detail::finite_nonnegative(tdp.value),
                        "gpu_spec.tdp must be finite and not negative", tdp.value);
    gpu_link.validate();
    pcie.validate();
    detail::check_input(sm_count >= 0, "gpu_spec.sm_count must not be negative", sm_count);
    detail::check_input(detail::finite_nonnegative(boost_clock.value),
                        "gpu_spec.boost_clock must be finite and not negative", boost_clock.value);
    compute_capability.validate();
    kernels.validate();
  }
};

}  // namespace gpuplan
