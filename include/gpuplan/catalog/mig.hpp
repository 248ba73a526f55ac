// gpuplan/catalog/mig.hpp: Multi-Instance GPU (MIG) profiles, and the slice of a GPU they give.
//
// A MIG profile "Ng.Mgb" is a GPU instance with N of the GPU's 7 compute slices (SM groups) and
// a share of its memory in eighths (with the memory controllers and L2 behind it), isolated from
// the other instances in memory, cache and fault domain. Source for every row:
//   [MIG-UG]  NVIDIA Multi-Instance GPU User Guide, "Supported MIG Profiles"
//             (docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html):
//             per product, the profile name, fraction of memory, fraction of SMs and number of
//             instances available. The A100-SXM4-80GB names follow the 40GB table "according to
//             the memory proportion" (the guide's wording); H100 94GB, H200 141GB and B200 180GB
//             rows have the same fractions as the H100 80GB table, with their own names.
// Profiles with media extensions (+me, one decoder set) and the 1g.*+gfx graphics profiles are
// the same slice as their plain 1g profile and are not listed separately.
//
// Time-slicing (the Kubernetes device plugin's `sharing.timeSlicing.replicas`, or CUDA MPS) is
// the other way to share a GPU: replicas take turns on the whole GPU with no memory or fault
// isolation, so their memory must fit together in the one GPU's memory and one replica's burst
// slows every other. gpuplan models MIG (a fixed slice each); a time-sliced GPU is planned as one
// GPU whose memory the replicas share (run the memory model with their combined batch).
#pragma once

#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/catalog/gpus.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/units.hpp>

#include <array>

#include <string_view>

namespace gpuplan {

struct mig_profile {
  name_string name;         ///< "1g.10gb" (nvidia-smi and the Kubernetes resource name suffix)
  int compute_slices = 0;   ///< of 7
  int memory_eighths = 0;   ///< of 8 (8 = the whole memory)
  int max_instances = 0;    ///< how many of this profile one GPU holds at once

  [[nodiscard]] constexpr double compute_share() const { return compute_slices / 7.0; }
  [[nodiscard]] constexpr double memory_share() const { return memory_eighths / 8.0; }
};

/// The MIG profiles of one GPU product.
struct mig_family {
  name_string gpu;  ///< the catalog GPU name (gpu_spec::name) the table applies to
  std::array<mig_profile, 6> profiles{};
};

namespace catalog {

namespace detail {
// The fractions shared by A100, H100, H200 and B200 [MIG-UG]: 1g (1/8 memory, 7 instances),
// 1g with 2/8 memory (4), 2g (2/8, 3), 3g (4/8, 2), 4g (4/8, 1), 7g (all, 1).
constexpr mig_family family(const gpu_spec& g, const name_string (&names)[6]) {
  return {g.name,
          {{{names[0], 1, 1, 7},
            {names[1], 1, 2, 4},
            {names[2], 2, 2, 3},
            {names[3], 3, 4, 2},
            {names[4], 4, 4, 1},
            {names[5], 7, 8, 1}}}};
}
}  // namespace detail

// [MIG-UG] A100-SXM4-40GB table (the PCIe 40GB has the same profiles).
inline constexpr mig_family a100_40gb_mig =
    detail::family(a100_sxm_40gb, {"1g.5gb", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"});
inline constexpr mig_family a100_pcie_40gb_mig = detail::family(
    a100_pcie_40gb, {"1g.5gb", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"});
// [MIG-UG] A100-SXM4-80GB names "according to the memory proportion".
inline constexpr mig_family a100_80gb_mig = detail::family(
    a100_sxm_80gb, {"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"});
inline constexpr mig_family a100_pcie_80gb_mig = detail::family(
    a100_pcie_80gb, {"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"});
// [MIG-UG] H100 80GB table (SXM5 and PCIe).
inline constexpr mig_family h100_sxm_mig = detail::family(
    h100_sxm, {"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"});
inline constexpr mig_family h100_pcie_mig = detail::family(
    h100_pcie, {"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"});
// [MIG-UG] H100 94GB (NVL) table.
inline constexpr mig_family h100_nvl_mig = detail::family(
    h100_nvl, {"1g.12gb", "1g.24gb", "2g.24gb", "3g.47gb", "4g.47gb", "7g.94gb"});
// [MIG-UG] H200 141GB table (SXM and NVL).
inline constexpr mig_family h200_sxm_mig = detail::family(
    h200_sxm, {"1g.18gb", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"});
inline constexpr mig_family h200_nvl_mig = detail::family(
    h200_nvl, {"1g.18gb", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"});
// [MIG-UG] B200 180GB table.
inline constexpr mig_family b200_mig =
    detail::family(b200, {"1g.23gb", "1g.45gb", "2g.45gb", "3g.90gb", "4g.90gb", "7g.180gb"});

inline constexpr std::array all_mig_families{
    a100_40gb_mig, a100_pcie_40gb_mig, a100_80gb_mig, a100_pcie_80gb_mig, h100_sxm_mig,
    h100_pcie_mig, h100_nvl_mig,       h200_sxm_mig,  h200_nvl_mig,       b200_mig,
};

/// The MIG profiles of a GPU (matched by catalog name); empty when it has no MIG (L4, L40S,
/// consumer cards, AMD).
constexpr array_view<mig_profile> mig_profiles(const gpu_spec& gpu) {
  for (const mig_family& f : all_mig_families)
    if (f.gpu.view() == gpu.name.view()) return {f.profiles.data(), f.profiles.size()};
  return {};
}

/// The profile named `name` ("3g.40gb", also accepted with a "mig-" prefix) of a GPU; nullptr
/// when the GPU has no such profile.
constexpr const mig_profile* find_mig_profile(const gpu_spec& gpu, std::string_view name) {
  if (name.starts_with("mig-") || name.starts_with("MIG-")) name.remove_prefix(4);
  for (const mig_profile& p : mig_profiles(gpu))
    if (p.name.view() == name) return &p;
  return nullptr;
}

}  // namespace catalog

/// The Kubernetes extended resource of a profile under the NVIDIA device plugin's "mixed" MIG
/// strategy: "nvidia.com/mig-<profile>" (NVIDIA k8s-device-plugin README, "MIG support"; the
/// "single" strategy exposes every slice as plain "nvidia.com/gpu").
constexpr name_string mig_resource_name(const mig_profile& p) {
  name_string n{};
  std::size_t k = 0;
  for (std::string_view t : {std::string_view("nvidia.com/mig-"), p.name.view()})
    for (char ch : t)
      if (k < name_string::capacity) n.chars[k++] = ch;
  return n;
}

/// The GPU a MIG instance looks like to one replica: the GPU's memory (and driver total),
/// memory bandwidth and peak rates scaled by the profile's shares, its SMs by the compute share.
/// [MIG-UG]: an instance's memory slices carry their memory controllers, so bandwidth scales with
/// memory; SMs with compute slices. The name becomes "<gpu> MIG <profile>".
constexpr gpu_spec mig_slice(const gpu_spec& gpu, const mig_profile& p) {
  detail::check_input(p.compute_slices >= 1 && p.compute_slices <= 7,
                      "mig_profile.compute_slices must be in [1, 7]", p.compute_slices);
  detail::check_input(p.memory_eighths >= 1 && p.memory_eighths <= 8,
                      "mig_profile.memory_eighths must be in [1, 8]", p.memory_eighths);
  gpu_spec s = gpu;
  const double m = p.memory_share(), c = p.compute_share();
  s.memory = gpu.memory * m;
  s.memory_usable = gpu.memory_usable * m;
  s.memory_bandwidth = gpu.memory_bandwidth * m;
  s.peak.fp64_vector = gpu.peak.fp64_vector * c;
  s.peak.fp64_tensor = gpu.peak.fp64_tensor * c;
  s.peak.fp32_vector = gpu.peak.fp32_vector * c;
  s.peak.tf32_tensor = gpu.peak.tf32_tensor * c;
  s.peak.bf16_tensor = gpu.peak.bf16_tensor * c;
  s.peak.fp16_tensor = gpu.peak.fp16_tensor * c;
  s.peak.fp8_tensor = gpu.peak.fp8_tensor * c;
  s.peak.int8_tensor = gpu.peak.int8_tensor * c;
  s.peak.fp4_tensor = gpu.peak.fp4_tensor * c;
  s.sm_count = gpu.sm_count * p.compute_slices / 7;
  name_string n{};
  std::size_t k = 0;
  auto put = [&](std::string_view t) {
    for (char ch : t)
      if (k < name_string::capacity) n.chars[k++] = ch;
  };
  put(gpu.name.view());
  put(" MIG ");
  put(p.name.view());
  s.name = n;
  return s;
}

}  // namespace gpuplan
