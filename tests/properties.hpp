// tests/properties.hpp: what the property-based tests (unit/test_properties_*.cpp, RapidCheck)
// share: a fixed seed, comparisons to rounding, and generators of random valid configurations
// (models, layouts, training and inference settings) that the specs' own validate() accepts.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <gpuplan/gpuplan.hpp>
#include <vector>

namespace gpuplan::test {

// A fixed seed unless the caller chose one: the same cases on every run of the suite.
inline const bool seeded = [] {
  ::setenv("RC_PARAMS", "seed=1411 max_success=300", 0);
  return true;
}();

/// Within a relative `tol` (for sums taken in a different order).
inline bool close(double a, double b, double tol = 1e-12) {
  return std::fabs(a - b) <= tol * std::fmax(std::fabs(a), std::fabs(b));
}
/// a <= b, allowing for rounding.
inline bool at_most(double a, double b) { return a <= b + 1e-12 * std::fabs(b); }

inline std::vector<int> divisors(int n) {
  std::vector<int> d;
  for (int i = 1; i <= n; ++i)
    if (n % i == 0) d.push_back(i);
  return d;
}

/// A random dense or MoE transformer that transformer_spec::validate() accepts: shapes from
/// GPT-2 small up to beyond Llama 3.1 405B.
inline transformer_spec random_model(bool allow_moe = true) {
  transformer_spec m;
  m.name = "rc-model";
  m.layers = *rc::gen::inRange(1, 129);
  m.heads = *rc::gen::element(1, 2, 4, 8, 12, 16, 24, 32, 40, 64, 96, 128);
  m.kv_heads = *rc::gen::elementOf(divisors(m.heads));
  m.head_dim = *rc::gen::element(32, 64, 80, 96, 128, 256);
  m.hidden = *rc::gen::element(m.heads * m.head_dim, 64 * *rc::gen::inRange(1, 257));
  m.ffn = 64 * *rc::gen::inRange(1, 1025);
  m.ffn_type = *rc::gen::element(ffn_kind::gated, ffn_kind::mlp);
  m.norm = *rc::gen::element(norm_kind::rmsnorm, norm_kind::layernorm);
  m.vocab = *rc::gen::inRange(256, 262145);
  m.tied_embeddings = *rc::gen::arbitrary<bool>();
  m.qkv_bias = *rc::gen::arbitrary<bool>();
  m.out_bias = *rc::gen::arbitrary<bool>();
  m.mlp_bias = *rc::gen::arbitrary<bool>();
  m.positions = *rc::gen::element(position_kind::rotary, position_kind::learned);
  m.max_positions = *rc::gen::inRange(m.positions == position_kind::learned ? 1 : 0, 131073);
  if (allow_moe && *rc::gen::arbitrary<bool>()) {
    m.moe.experts = *rc::gen::element(2, 4, 8, 16, 64, 256);
    m.moe.experts_per_token = *rc::gen::inRange(1, m.moe.experts + 1);
    m.moe.expert_ffn = 64 * *rc::gen::inRange(1, 257);
    m.moe.shared_experts = *rc::gen::inRange(0, 3);
    m.moe.first_dense_layers = *rc::gen::inRange(0, m.layers);
    m.moe.layer_interval = *rc::gen::inRange(1, 4);
  }
  m.validate();
  return m;
}

/// A random layout the model accepts: tp, pp and ep chosen among what divides the model.
inline parallel_layout random_layout(const transformer_spec& m) {
  parallel_layout l;
  std::vector<int> tps;
  for (int t : {1, 2, 4, 8})
    if (m.heads % t == 0 && (m.kv_heads % t == 0 || t % m.kv_heads == 0) && m.ffn % t == 0 &&
        (!m.is_moe() || m.moe.expert_ffn % t == 0))
      tps.push_back(t);
  l.tp = *rc::gen::elementOf(tps);
  l.pp = *rc::gen::inRange(1, std::min(m.layers, 8) + 1);
  l.dp = *rc::gen::element(1, 2, 4, 8, 16, 64);
  l.zero = *rc::gen::inRange(0, 4);
  l.sequence_parallel = l.tp > 1 && *rc::gen::arbitrary<bool>();
  if (m.is_moe()) {
    std::vector<int> eps;
    for (int e : divisors(m.moe.experts))
      if (l.dp % e == 0) eps.push_back(e);
    l.ep = *rc::gen::elementOf(eps);
  }
  l.validate(m);
  return l;
}

inline training_config random_training() {
  training_config c;
  c.dtype = *rc::gen::element(precision::bf16, precision::fp16, precision::fp32, precision::fp8);
  c.grad_dtype = c.dtype == precision::fp8 ? precision::bf16 : c.dtype;
  if (*rc::gen::arbitrary<bool>() && c.dtype != precision::fp32) c.grad_dtype = precision::fp32;
  c.optimizer = *rc::gen::element(optimizer_kind::adamw, optimizer_kind::adam, optimizer_kind::sgd,
                                  optimizer_kind::adamw8bit, optimizer_kind::adafactor);
  c.recompute =
      *rc::gen::element(recompute_mode::none, recompute_mode::selective, recompute_mode::full);
  c.micro_batch = *rc::gen::inRange(1, 9);
  c.seq = 256 * *rc::gen::inRange(1, 129);
  c.flash_attention = *rc::gen::arbitrary<bool>();
  c.dropout = *rc::gen::arbitrary<bool>();
  c.validate();
  return c;
}

inline inference_config random_inference() {
  inference_config c;
  c.weight_dtype = *rc::gen::element(precision::bf16, precision::fp16, precision::fp8,
                                     precision::int8, precision::int4);
  c.kv_dtype = *rc::gen::element(precision::bf16, precision::fp16, precision::fp8);
  c.batch = *rc::gen::inRange(1, 257);
  c.block_size = *rc::gen::element(8, 16, 32);
  c.context = c.block_size * *rc::gen::inRange(1, 2049);
  c.gpu_memory_utilization = *rc::gen::element(0.5, 0.8, 0.9, 0.95, 1.0);
  c.validate();
  return c;
}

}  // namespace gpuplan::test
