// gpuplan/models/training_memory.hpp: training memory per GPU, broken down into weights,
// gradients, optimizer state, activations, workspace and overhead. Formulas, assumptions and
// sources: docs/models/memory.md.
//
//  - Model states after ZeRO (Rajbhandari et al. 2020, sec. 5): 2 + 2 + K bytes per parameter in
//    mixed precision with Adam (K = 12: fp32 master, momentum, variance); stage 1 shards the K
//    bytes, stage 2 also the gradients, stage 3 also the weights, over the data-parallel group.
//  - Activations after Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
//    Transformer Models"), Table 2, generalised term by term to GQA, gated FFNs, MoE, fp8 and
//    FlashAttention (which never stores the s x s score matrix: Dao et al. 2022, sec. 3.1).
#pragma once

#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/models/flops.hpp>
#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

#include <string_view>

namespace gpuplan {

namespace detail {


/// Bytes per stored activation element for training in `dtype`: fp32 and fp64 keep their own
/// width; bf16, fp16 and fp8 training keep 16-bit activations (Transformer Engine's FP8 casts
/// only the GEMM inputs, counted separately). The one place the layers' and the last stage's
/// terms take their element size from.
constexpr double activation_bytes(precision dtype) {
  return dtype == precision::fp32 || dtype == precision::fp64 ? bytes_of(dtype) : 2.0;
}

/// Bytes per trainable parameter of optimizer state, without the master copy.
constexpr double optimizer_state_bytes(optimizer_kind o, const memory_assumptions& a) {
  switch (o) {
    case optimizer_kind::adamw:
    case optimizer_kind::adam: return 2.0 * fp32_bytes;  // two fp32 moments
    case optimizer_kind::sgd: return fp32_bytes;         // fp32 momentum
    case optimizer_kind::adamw8bit: return 2.0 + 2.0 * fp32_bytes / a.adam8bit_block;
    case optimizer_kind::adafactor: return 0.0;  // counted per matrix, see below
  }
  return 0.0;
}

/// Chunk length of flash-linear-attention's chunked gated delta rule (fla/ops/gated_delta_rule/
/// chunk.py: chunk_gated_delta_rule_fwd's BT = 64), whose forward saves the chunk's WY matrix A
/// ([batch, tokens, heads, BT]) for the backward with q, k, v, g and beta.
inline constexpr double gdn_chunk_tokens = 64.0;
/// Tokens per chunk of Mamba-1's selective-scan CUDA kernel (mamba_ssm csrc/selective_scan:
/// kChunkSize = 2048), which saves the fp32 running state (2 x d_state per channel) at each
/// chunk's end for the backward.
inline constexpr double mamba_scan_chunk_tokens = 2048.0;

/// Activation bytes one linear-mixer block (its norm, in_proj, causal conv1d, chunked scan, gated
/// norm and out_proj) keeps for one micro-batch of s x b tokens on one tensor-parallel rank, the
/// heads split over tp as Megatron-Core's MambaMixer splits them (megatron/core/ssm/
/// mamba_mixer.py: nheads and ngroups per partition). Per token:
///   norm input, in_proj input                       h each (1/t under sequence parallelism)
///   in_proj output (conv input, z, dt / gates)      linear_in_width / t   (causal_conv1d's input)
///   conv output (x, B, C; GDN's q, k, v)            conv_dim / t          (the scan's inputs)
///   scan output (the gated norm's input)            inner / t
///   out_proj input                                  inner / t (fp8 under fp8 GEMMs)
/// and by kind what the scan kernel saves beyond its inputs: Mamba-2 (mamba_ssm ssd_combined.py
/// MambaChunkScanCombinedFn) dt and dA_cumsum in fp32 per head; Gated DeltaNet (fla chunk.py)
/// the gate g in fp32 per head and the WY matrix A, gdn_chunk_tokens per head; Mamba-1 (mamba_ssm
/// selective_scan_interface.py MambaInnerFn) x_proj's output (dt_rank + 2 d_state, whole on every
/// rank), dt_proj's output (inner / t) and the fp32 chunk-end states.
constexpr double linear_mixer_block_bytes(const transformer_spec& m, const parallel_layout& l,
                                          const training_config& c) {
  const linear_mixer_spec& x = m.linear;
  const double s = 1.0 * c.seq / l.cp, b = c.micro_batch, h = m.hidden, t = l.tp;
  const double np = l.sequence_parallel && l.tp > 1 ? 1.0 / t : 1.0;
  const double e = activation_bytes(c.dtype);
  const double lin = c.dtype == precision::fp8 ? 1.0 : e;
  const double heads = x.heads / t, inner = x.inner / t;
  double per_token = e * h * np + lin * h * np;
  per_token += e * m.linear_in_width() / t + e * x.conv_dim() / t + e * inner + lin * inner;
  switch (x.kind) {
    case linear_mixer_kind::mamba2: per_token += 2.0 * fp32_bytes * heads; break;
    case linear_mixer_kind::gated_deltanet:
      per_token += fp32_bytes * heads + e * heads * gdn_chunk_tokens;
      break;
    case linear_mixer_kind::mamba:
      per_token += e * (x.dt_rank + 2.0 * x.state_size) + e * inner +
                   fp32_bytes * 2.0 * x.state_size * inner / mamba_scan_chunk_tokens;
      break;
  }
  if (c.dropout) per_token += h * np;  // dropout mask after the mixer
  return per_token * s * b;
}

/// Activation bytes of one attention block (norm, QKV, core, output projection) for one
/// micro-batch, Korthikanti Table 2's attention terms.
constexpr double attention_block_bytes(const transformer_spec& m, const parallel_layout& l,
                                       const training_config& c, recompute_mode recompute) {
  const double s = 1.0 * c.seq / l.cp, b = c.micro_batch, h = m.hidden, t = l.tp;
  const double np = l.sequence_parallel && l.tp > 1 ? 1.0 / t : 1.0;
  const double e = activation_bytes(c.dtype);
  const double lin = c.dtype == precision::fp8 ? 1.0 : e;  // GEMM inputs saved for wgrad
  const double mask = c.dropout ? 1.0 : 0.0;
  const double q = 1.0 * m.heads * m.head_dim / t;
  const double kv = 1.0 * l.kv_heads_per_rank(m) * m.head_dim;
  const double heads = m.heads / t;
  double bytes = 0.0;
  bytes += e * s * b * h * np;      // input of the first norm
  bytes += lin * s * b * h * np;    // input of the QKV projection
  bytes += e * s * b * (q + kv);    // Q and K for Q K^T
  bytes += e * s * b * kv;          // V for attention over values
  if (recompute == recompute_mode::none) {
    if (c.flash_attention) {
      bytes += fp32_bytes * heads * s * b;  // fp32 log-sum-exp per row (FlashAttention backward)
    } else {
      bytes += e * heads * s * s * b;                 // softmax output
      bytes += mask * heads * s * s * b;              // attention dropout mask
      bytes += (c.dropout ? e : 0.0) * heads * s * s * b;  // dropout output
    }
  }
  // Qwen3-Next's gated attention: the sigmoid gate's input, kept for its backward
  if (m.attention_output_gate) bytes += e * s * b * q;
  bytes += lin * s * b * q;         // input of the output projection
  bytes += mask * s * b * h * np;   // dropout mask after attention
  return bytes;
}

/// Activation bytes of one FFN block (norm, dense FFN or MoE) for one micro-batch.
constexpr double ffn_block_bytes(const transformer_spec& m, int layer, const parallel_layout& l,
                                 const training_config& c) {
  const double s = 1.0 * c.seq / l.cp, b = c.micro_batch, h = m.hidden, t = l.tp;
  const double np = l.sequence_parallel && l.tp > 1 ? 1.0 / t : 1.0;
  const double e = activation_bytes(c.dtype);
  const double lin = c.dtype == precision::fp8 ? 1.0 : e;
  const double mask = c.dropout ? 1.0 : 0.0;
  double bytes = e * s * b * h * np;  // input of the second norm
  // One FFN over `tokens` tokens of inner size f (per rank); `input` is the share of its input
  // this rank stores (1/t under sequence parallelism, 0 when another term already holds it).
  auto ffn = [&](double f, double tokens, double input) {
    double x = lin * tokens * h * input;  // input of the first FFN GEMM
    if (m.ffn_type == ffn_kind::gated)
      x += 2.0 * e * tokens * f;  // gate and up outputs (inputs of SiLU and of the product)
    else
      x += e * tokens * f;        // input of the activation function
    x += lin * tokens * f;        // input of the second FFN GEMM
    return x;
  };
  if (m.is_moe_layer(layer)) {
    bytes += lin * s * b * h * np;              // router / shared-expert input (norm output)
    bytes += fp32_bytes * s * b * m.moe.experts * np;  // router logits in fp32
    // Each token visits experts_per_token experts; balanced routing leaves s*b*k dispatched
    // tokens per rank. Experts split over expert_tp see every token of the TP group.
    const int etp = l.expert_tensor_parallel();
    const double fe = 1.0 * m.moe.expert_ffn / etp;
    const double tokens = s * b * m.moe.experts_per_token * (etp > 1 ? 1.0 : np);
    bytes += ffn(fe, tokens, 1.0);  // the dispatched (permuted) copy of the tokens
    const int fs = m.moe.shared_expert_ffn > 0 ? m.moe.shared_expert_ffn : m.moe.expert_ffn;
    bytes += m.moe.shared_experts * ffn(fs / t, s * b, 0.0);
  } else {
    bytes += ffn(m.ffn / t, s * b, np);
  }
  bytes += mask * s * b * h * np;   // dropout mask after the FFN
  return bytes;
}

/// Activation bytes one layer keeps for one micro-batch, Korthikanti Table 2 term by term (see
/// docs/models/memory.md for the list), summed over the layer's parts: its mixer (attention or
/// a hybrid's linear mixer, linear_mixer_block_bytes) and its FFN. For a GPT layer (MHA, FFN 4h
/// without gating, dropout on, bf16, no FlashAttention) it is exactly sbh(34 + 5as/h) with no
/// parallelism, sbh(10 + 24/t + 5as/(ht)) with tensor parallelism, sbh(34/t + 5as/(ht)) with
/// sequence parallelism, without the 5as/h terms under selective recomputation, and 2sbh under
/// full recomputation (the layer's input: the same for a hybrid's layers).
constexpr double layer_activation_bytes(const transformer_spec& m, int layer,
                                        const parallel_layout& l, const training_config& c,
                                        recompute_mode recompute) {
  const double s = 1.0 * c.seq / l.cp, b = c.micro_batch, h = m.hidden;
  const double np = l.sequence_parallel && l.tp > 1 ? 1.0 / l.tp : 1.0;
  const double e = activation_bytes(c.dtype);
  if (recompute == recompute_mode::full) return e * s * b * h * np;
  double bytes = 0.0;
  if (m.is_attention_layer(layer)) bytes += attention_block_bytes(m, l, c, recompute);
  if (m.is_linear_layer(layer)) bytes += linear_mixer_block_bytes(m, l, c);
  if (m.has_ffn(layer)) bytes += ffn_block_bytes(m, layer, l, c);
  // LoRA: the low-rank intermediate x A of each adapted matrix, kept for B's gradient.
  const int r = c.lora_rank > 0 ? c.lora_rank : c.qlora_rank;
  if (r > 0) bytes += detail::lora_adapted_matrices(m, c.lora_targets) * e * s * b * r;
  return bytes;
}

/// Micro-batches (in units of model chunks when interleaved) whose activations pipeline stage k
/// holds at its peak. 1F1B: stage k has pp - k in flight (Narayanan et al. 2021, sec. 2.2.1);
/// interleaved with v chunks per rank: Megatron-LM's warm-up of (pp - k - 1) * 2 + (v - 1) * pp
/// chunks plus the one in flight, which for k = 0 is pp * v * (1 + (pp - 1) / (pp * v)) chunks:
/// Korthikanti's factor 1 + (p - 1)/(p m). Both capped by the micro-batches of the iteration.
constexpr double in_flight_layers_factor(const parallel_layout& l, const training_config& c,
                                         int k) {
  const int m = c.micro_batches_for(l.dp);  // 0: unbounded (enough to fill the pipeline)
  if (l.virtual_stages <= 1) {
    const int f = l.pp - k;
    return m > 0 && m < f ? m : f;
  }
  const int v = l.virtual_stages;
  int chunks = (l.pp - k - 1) * 2 + (v - 1) * l.pp + 1;
  if (m > 0 && chunks > m * v) chunks = m * v;
  return 1.0 * chunks / v;
}

/// Sum of one micro-batch's layer activations over the layers of stage p.
constexpr double stage_layer_activations(const transformer_spec& m, const rank_params& p,
                                         const parallel_layout& l, const training_config& c,
                                         recompute_mode r) {
  double sum = 0.0;
  for (int i = p.first_layer; i < p.first_layer + p.layers; ++i)
    sum += layer_activation_bytes(m, i, l, c, r);
  return sum;
}
constexpr double largest_layer_activations(const transformer_spec& m, const rank_params& p,
                                           const parallel_layout& l, const training_config& c,
                                           recompute_mode r) {
  double most = 0.0;
  for (int i = p.first_layer; i < p.first_layer + p.layers; ++i) {
    const double x = layer_activation_bytes(m, i, l, c, r);
    if (x > most) most = x;
  }
  return most;
}

constexpr data_size bytes(double b) { return b * units::B; }

/// Model states of a rank given its parameter counts; shared by the transformer and generic
/// workloads. `linear` parameters get the quantised (QLoRA) or FP8-cached treatment.
struct state_bytes {
  double weights = 0.0, gradients = 0.0, optimizer = 0.0, host = 0.0;
  double gathered_layer_weights = 0.0, gathered_layer_grads = 0.0;  // ZeRO-3 working set
};

constexpr state_bytes model_state_bytes(const rank_params& p, const parallel_layout& l,
                                        const training_config& c, const memory_assumptions& a) {
  state_bytes out{};
  const bool lora = c.lora_rank > 0 || c.qlora_rank > 0;
  const double w = bytes_of(c.dtype == precision::fp8 ? precision::bf16 : c.dtype);
  const double g = bytes_of(c.grad_dtype);
  const double master =
      c.master_weights && c.dtype != precision::fp32 && c.dtype != precision::fp64 ? fp32_bytes : 0.0;
  const double states = optimizer_state_bytes(c.optimizer, a);
  const double nd = l.shard_degree(), ne = l.expert_shard_degree();
  const double wdiv_d = l.zero >= 3 ? nd : 1.0, wdiv_e = l.zero >= 3 ? ne : 1.0;
  const double gdiv_d = l.zero >= 2 ? nd : 1.0, gdiv_e = l.zero >= 2 ? ne : 1.0;
  const double odiv_d = l.zero >= 1 ? nd : 1.0, odiv_e = l.zero >= 1 ? ne : 1.0;
  const double expert_share = p.dense + p.expert > 0 ? p.expert / (p.dense + p.expert) : 0.0;

  // Weights as stored for compute.
  double wd = 0.0, we = 0.0;
  if (c.qlora_rank > 0) {
    const double nf4 = nf4_bytes(a, c.qlora_double_quant);
    const double lin_e = p.linear * expert_share, lin_d = p.linear - lin_e;
    wd = (p.dense - lin_d) * w + lin_d * nf4;
    we = (p.expert - lin_e) * w + lin_e * nf4;
  } else {
    wd = p.dense * w;
    we = p.expert * w;
    if (c.dtype == precision::fp8) {
      const double lin_e = p.linear * expert_share, lin_d = p.linear - lin_e;
      wd += lin_d * a.fp8_weight_copies;
      we += lin_e * a.fp8_weight_copies;
    }
  }
  out.weights = wd / wdiv_d + we / wdiv_e;

  if (lora) {
    // Adapters are dense (non-expert) trainable parameters with full optimizer state.
    const double n = p.lora;
    const double adapter_w = n * w;
    out.weights += adapter_w / wdiv_d;
    out.gradients = n * g / gdiv_d;
    const double opt = c.optimizer == optimizer_kind::adafactor
                           ? n * master + p.lora_adafactor * fp32_bytes
                           : n * (master + states);
    out.optimizer = opt / odiv_d;
  } else {
    out.gradients = p.dense * g / gdiv_d + p.expert * g / gdiv_e;
    if (c.optimizer == optimizer_kind::adafactor) {
      const double fact_e = p.adafactor * expert_share, fact_d = p.adafactor - fact_e;
      out.optimizer = (p.dense * master + fact_d * fp32_bytes) / odiv_d +
                      (p.expert * master + fact_e * fp32_bytes) / odiv_e;
    } else {
      out.optimizer = p.dense * (master + states) / odiv_d + p.expert * (master + states) / odiv_e;
    }
  }

  if (l.zero >= 3 && (nd > 1.0 || ne > 1.0)) {
    // FSDP / ZeRO-3 gather whole layers (all shards) to compute, and hold one layer's full
    // gradient before the reduce-scatter.
    const double layer = p.largest_layer;
    out.gathered_layer_weights = a.zero3_live_layers * layer * w;
    out.gathered_layer_grads = lora ? 0.0 : layer * g;
  }

  if (c.offload != offload_kind::none) {
    out.host += out.optimizer;
    out.optimizer = 0.0;
  }
  if (c.offload == offload_kind::params) {
    out.host += out.weights + out.gradients;
    out.weights = 0.0;
    out.gradients = 0.0;
  }
  return out;
}

/// Activations of a layer when one layer in `every` is fully checkpointed and the others keep
/// every activation (torchtitan's selective_ac_option = k), on average: `full` and `none` are the
/// layer's activations under full and no recomputation.
constexpr double every_kth_checkpointed(double full, double none, int every) {
  return (full + none * (every - 1.0)) / every;
}

}  // namespace detail

/// Memory of pipeline stage k's GPUs (every GPU of a stage holds the same; 0-based k).
constexpr memory_breakdown training_memory_stage(const transformer_spec& m,
                                                 const parallel_layout& l,
                                                 const training_config& c, int k,
                                                 const memory_assumptions& a = {}) {
  detail::check_stage_memory_inputs(m, l, c, a);
  detail::check_input(k >= 0 && k < l.pp, "pipeline stage must be in [0, layout.pp)", k, l.pp);
  detail::check_input(c.seq % l.cp == 0, "layout.cp must divide training_config.seq", l.cp,
                      c.seq);
  detail::check_input(c.offload != offload_kind::params || l.zero == 3,
                      "training_config.offload = params needs layout.zero = 3 (ZeRO-Infinity)",
                      l.zero);
  detail::check_input(c.offload == offload_kind::none || l.zero >= 1 || l.dp * l.cp == 1,
                      "training_config.offload = optimizer needs layout.zero >= 1 (ZeRO-Offload)",
                      l.zero);
  const int r = c.lora_rank > 0 ? c.lora_rank : c.qlora_rank;
  const detail::rank_params p = detail::stage_params(m, l, k, c.lora_targets, r);
  const detail::state_bytes st = detail::model_state_bytes(p, l, c, a);

  memory_breakdown out{};
  out.pipeline_stage = k;
  out.weights = detail::bytes(st.weights);
  out.gradients = detail::bytes(st.gradients);
  out.optimizer = detail::bytes(st.optimizer);
  out.host = detail::bytes(st.host);

  // Activations: the stage's layers times the micro-batches in flight, plus the embedding's
  // and the output layer's own terms (Korthikanti sec. 4.3 / Megatron-LM theoretical_memory).
  const double in_flight = detail::in_flight_layers_factor(l, c, k);
  double act = in_flight * detail::stage_layer_activations(m, p, l, c, c.recompute);
  if (c.recompute == recompute_mode::full && c.recompute_every > 1) {
    // one layer in recompute_every checkpointed (torchtitan's selective_ac_option = k), the
    // others keep every activation
    act = in_flight * detail::every_kth_checkpointed(
                          detail::stage_layer_activations(m, p, l, c, recompute_mode::full),
                          detail::stage_layer_activations(m, p, l, c, recompute_mode::none),
                          c.recompute_every);
  }
  const double s = 1.0 * c.seq / l.cp, b = c.micro_batch, h = m.hidden, t = l.tp;
  const double np = l.sequence_parallel && l.tp > 1 ? 1.0 / t : 1.0;
  const double e = detail::activation_bytes(c.dtype);
  if (p.first_stage) {
    const double per_micro = 8.0 * s * b + (c.dropout ? s * b * h * np : 0.0);  // ids, mask
    act += per_micro * in_flight;
  }
  if (p.last_stage) {
    // final norm input, output-layer input, fp32 logits for the cross entropy
    act += 2.0 * e * s * b * h * np + fp32_bytes * s * b * m.vocab / t;
  }
  out.activations = detail::bytes(act);

  double work = st.gathered_layer_weights + st.gathered_layer_grads;
  if (c.recompute == recompute_mode::full && a.full_recompute_working_layer)
    work += detail::largest_layer_activations(m, p, l, c, recompute_mode::none);
  out.workspace = detail::bytes(work);

  out.overhead = a.cuda_context + detail::nccl_buffers(l, a) +
                 a.allocator_fragmentation * (out.model_states() + out.activations + out.workspace);
  return out;
}

/// Memory of the most loaded GPU: the pipeline stage with the largest total.
constexpr memory_breakdown training_memory(const transformer_spec& m, const parallel_layout& l,
                                           const training_config& c,
                                           const memory_assumptions& a = {}) {
  memory_breakdown most = training_memory_stage(m, l, c, 0, a);
  for (int k = 1; k < l.pp; ++k) {
    const memory_breakdown x = training_memory_stage(m, l, c, k, a);
    if (x.total() > most.total()) most = x;
  }
  return most;
}

/// Activation bytes of one transformer layer for one micro-batch (exposed for the Korthikanti
/// reference tests and for tools that print per-layer figures).
constexpr data_size layer_activations(const transformer_spec& m, const parallel_layout& l,
                                      const training_config& c, int layer = 0) {
  return detail::bytes(detail::layer_activation_bytes(m, layer, l, c, c.recompute));
}

/// Training memory of a generic workload (parameters and, optionally, activation bytes per
/// sample). Only data parallelism and ZeRO/FSDP apply: tensor, pipeline, context and expert
/// parallelism need the model's structure. Adafactor and LoRA need matrix shapes and are refused.
constexpr memory_breakdown training_memory(const generic_workload& g, const parallel_layout& l,
                                           const training_config& c,
                                           const memory_assumptions& a = {}) {
  l.validate();
  c.validate(l.dp);
  a.validate();
  g.validate();
  detail::check_input(l.tp == 1 && l.pp == 1 && l.cp == 1 && l.ep == 1,
                      "a generic workload supports only data parallelism: layout.tp, pp, cp and "
                      "ep must be 1");
  detail::check_input(c.optimizer != optimizer_kind::adafactor,
                      "training_config.optimizer = adafactor needs matrix shapes; a generic "
                      "workload has only a parameter count");
  detail::check_input(
      c.lora_rank == 0 && c.qlora_rank == 0,
      "LoRA/QLoRA need the linear layers of the model; a generic workload has only a "
      "parameter count");
  detail::check_input(c.offload != offload_kind::params || l.zero == 3,
                      "training_config.offload = params needs layout.zero = 3 (ZeRO-Infinity)",
                      l.zero);
  detail::rank_params p{};
  p.dense = g.parameters;
  p.linear = g.parameters;  // fp8: every parameter is assumed to feed a GEMM
  p.largest_layer = 0.0;    // layer structure unknown: no ZeRO-3 gather working set modelled
  p.layers = 1;
  p.first_stage = p.last_stage = true;
  const detail::state_bytes st = detail::model_state_bytes(p, l, c, a);
  memory_breakdown out{};
  out.weights = detail::bytes(st.weights);
  out.gradients = detail::bytes(st.gradients);
  out.optimizer = detail::bytes(st.optimizer);
  out.host = detail::bytes(st.host);
  const data_size per_sample = c.recompute == recompute_mode::full &&
                                       g.activation_per_sample_recomputed.value > 0.0
                                   ? g.activation_per_sample_recomputed
                                   : g.activation_per_sample;
  out.activations = c.micro_batch * per_sample;
  out.overhead = a.cuda_context + detail::nccl_buffers(l, a) +
                 a.allocator_fragmentation * (out.model_states() + out.activations);
  return out;
}

}  // namespace gpuplan
