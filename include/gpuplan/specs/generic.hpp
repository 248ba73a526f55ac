// gpuplan/specs/generic.hpp: a workload known only by its parameter count (and, optionally, its
// activation memory per sample): CNNs, diffusion U-Nets, GNNs, any model that is not described as
// a transformer. "My model needs 24 GB; my GPUs have 16 GB."
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

struct generic_workload {
  name_string name;
  /// Trainable (or served) parameters. A double: counts beyond 2^31 are common.
  double parameters = 0.0;
  /// Activation memory one sample (one item of the micro-batch) keeps for the backward pass, as
  /// measured or estimated by the user at the training precision with no recomputation; zero when
  /// unknown (then activations are reported as zero, and the report says so through this field).
  data_size activation_per_sample{};
  /// Activation memory one sample keeps when every block is recomputed (activation
  /// checkpointing); zero when unknown, in which case full recomputation is not modelled for this
  /// workload and the no-recompute figure is used.
  data_size activation_per_sample_recomputed{};
  /// For inference: working memory of one sample's forward pass (the largest live intermediate);
  /// zero when unknown.
  data_size inference_workspace_per_sample{};
  precision native_dtype = precision::fp32;  ///< dtype the published weights are stored in

  /// Throws gpuplan::invalid_input naming the field (a compile error in a constant expression).
  constexpr void validate() const {
    detail::check_input(detail::finite_positive(parameters),
                        "generic_workload.parameters must be positive and finite", parameters);
    detail::check_input(detail::finite_nonnegative(activation_per_sample.value),
                        "generic_workload.activation_per_sample must be finite and not negative",
                        activation_per_sample.value);
    detail::check_input(detail::finite_nonnegative(activation_per_sample_recomputed.value),
                        "generic_workload.activation_per_sample_recomputed must be finite and not "
                        "negative",
                        activation_per_sample_recomputed.value);
    detail::check_input(detail::finite_nonnegative(inference_workspace_per_sample.value),
                        "generic_workload.inference_workspace_per_sample must be finite and not "
                        "negative",
                        inference_workspace_per_sample.value);
  }
};

}  // namespace gpuplan
