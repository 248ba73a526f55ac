// gpuplan/specs/precision_regime.hpp: how a training run keeps its parameters, gradients and
// optimizer states, as one value: the regime that training_config's two booleans (amp,
// master_weights) spell. regime_of() reads it from a config, set_regime() writes it into one: the
// search (plan/search.hpp) and every caller that builds a config from a regime go through these
// two, so the booleans and the regime cannot disagree.
#pragma once

#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/training.hpp>

namespace gpuplan {

/// How the run keeps its parameters, gradients and optimizer states (training_config's amp and
/// master_weights; models/framework_memory.hpp).
enum class precision_regime : unsigned char {
  /// 16-bit parameters and gradients (grad_dtype as configured), an fp32 master copy and fp32
  /// AdamW states in the optimizer: Megatron-LM, DeepSpeed bf16. master_weights = true.
  master,
  /// Automatic mixed precision as Trainer(bf16=True) runs it: fp32 parameters, gradients and
  /// states, compute under torch.autocast(dtype). amp = true (transformers only).
  amp,
  /// Parameters, gradients and optimizer states all in dtype. master_weights = false.
  pure,
};
inline constexpr enumerator<precision_regime> precision_regime_names[] = {
    {precision_regime::master, "master"},
    {precision_regime::amp, "amp"},
    {precision_regime::pure, "pure"},
};
constexpr const auto& enumerators(precision_regime) { return precision_regime_names; }

/// The regime a config's booleans spell: amp wins (its fp32 parameters are their own master
/// copy), then master_weights.
[[nodiscard]] constexpr precision_regime regime_of(const training_config& c) {
  if (c.amp) return precision_regime::amp;
  return c.master_weights ? precision_regime::master : precision_regime::pure;
}

/// Writes regime r into c's booleans: amp = (r == amp), master_weights = (r != pure). The one
/// place a regime becomes a config (regime_of(c) == r afterwards).
constexpr void set_regime(training_config& c, precision_regime r) {
  c.amp = r == precision_regime::amp;
  c.master_weights = r != precision_regime::pure;
}

}  // namespace gpuplan
