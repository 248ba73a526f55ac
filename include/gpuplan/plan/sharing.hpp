// gpuplan/plan/sharing.hpp: serving a model on a MIG slice: does it fit, and how many replicas
// share one GPU. The memory check is the serving memory model (models/inference_memory.hpp) run
// on the slice as if it were a GPU (catalog/mig.hpp: mig_slice).
#pragma once

#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/plan/fit.hpp>
#include <gpuplan/specs/inplace_vector.hpp>

#include <array>

namespace gpuplan {

struct mig_fit_report {
  mig_profile profile{};
  fit_report fit{};             ///< the serving memory model on the slice (one replica, tp 1)
  int replicas_per_gpu = 0;     ///< profile.max_instances when it fits, else 0
  double compute_share = 0;     ///< of the whole GPU, per replica
  [[nodiscard]] constexpr bool fits() const { return fit.fits(); }
};

/// The serving memory model on one MIG slice of `gpu`: one replica per slice (a slice is one
/// CUDA device; tensor parallelism across slices is not supported by NCCL [MIG-UG, "Application
/// Considerations"]).
constexpr mig_fit_report mig_inference_fit(const transformer_spec& m, const gpu_spec& gpu,
                                           const mig_profile& p, const inference_config& c,
                                           const memory_assumptions& a = {}) {
  const gpu_spec slice = mig_slice(gpu, p);
  mig_fit_report r{};
  r.profile = p;
  r.fit = inference_fit(m, slice, {}, c, a, array_view<gpu_spec>{});
  r.replicas_per_gpu = r.fit.fits() ? p.max_instances : 0;
  r.compute_share = p.compute_share();
  return r;
}

/// Every MIG profile of `gpu` checked for the model (in the catalog's order, smallest slice
/// first); none when the GPU has no MIG.
struct mig_options {
  inplace_vector<mig_fit_report, 6> profiles{};
  /// The profile fitting the most replicas per GPU (the smallest that fits); -1 when none fits.
  int best = -1;
};

constexpr mig_options mig_inference_options(const transformer_spec& m, const gpu_spec& gpu,
                                            const inference_config& c,
                                            const memory_assumptions& a = {}) {
  mig_options o{};
  for (const mig_profile& p : catalog::mig_profiles(gpu)) {
    const mig_fit_report& r = o.profiles.push_back(mig_inference_fit(m, gpu, p, c, a));
    if (r.fits() && (o.best < 0 || r.replicas_per_gpu >
                                       o.profiles[static_cast<std::size_t>(o.best)].replicas_per_gpu))
      o.best = static_cast<int>(o.profiles.size()) - 1;
  }
  return o;
}

}  // namespace gpuplan
