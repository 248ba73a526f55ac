// gpuplan/models/framework_memory.hpp: training memory by framework profile. `megatron` is the
// Megatron-LM model of models/training_memory.hpp; `transformers` is what Hugging Face
// transformers on PyTorch eager (sdpa attention) allocates, term by term from the mechanism:
//
//  - model states in the precision regime: amp (Trainer(bf16=True): fp32 parameters, gradients
//    and AdamW states, 16 B/param), pure bf16 (master_weights = false: parameters, gradients and
//    AdamW states in bf16, 8 B/param), bf16 with an fp32 master copy (16 B/param), LoRA (frozen
//    base in dtype, fp32 adapters with fp32 AdamW: PEFT's autocast_adapter_dtype);
//  - autocast's bf16 copies of the weights (amp), alive from the forward pass to their backward;
//  - eager activations per layer: the fp32 input of each RMSNorm, the normalised tensor the norm
//    weight's gradient needs, each linear layer's own bf16 cast of an fp32 input under autocast,
//    sdpa's Q, K, V, output and log-sum-exp, SiLU's input and output, the gate x up product,
//    LoRA's fp32->bf16 input casts and rank-r intermediates;
//  - gradient_checkpointing_enable(): each layer's input kept, one layer recomputed at a time;
//  - the logits and the loss: b x s x vocab bf16 logits, their fp32 copy and log_softmax's fp32
//    output (10 B per logit in the forward pass), 12 B per logit in the cross entropy's backward;
//    or a fused / chunked linear cross entropy (Liger Kernel);
//  - PyTorch's caching allocator: the bf16 logits' segment stranded by the larger fp32 requests
//    of the backward pass; the CUDA context and libraries outside the allocator;
//  - per-phase peaks (forward + loss, backward, optimizer step) and the phase that sets the peak.
//
// Formulas, their sources and the measured error: docs/models/framework-memory.md.
#pragma once

#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/models/torchtitan_memory.hpp>
#include <gpuplan/models/training_memory.hpp>
#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// Every term of the transformers profile for one GPU, in bytes, before they are summed into
/// phases (exposed for tests and for tools that print the terms).
struct transformers_terms {
  data_size weights{};            ///< parameters (base and adapters) as stored
  data_size gradients{};          ///< all gradients (alive from their backward to zero_grad)
  data_size optimizer{};          ///< optimizer states (and the fp32 master copy if any)
  data_size weight_copies{};      ///< autocast's low-precision copies, all of them (forward)
  data_size weight_copies_loss{}; ///< those still alive at the loss's backward
  data_size weight_copies_layer{};///< one layer's copies (during its backward)
  data_size layer_activations{};  ///< one layer's saved tensors without checkpointing
  data_size stored_activations{}; ///< all layers' saved tensors, or their inputs (checkpointing)
  data_size head_activations{};   ///< final norm and LM-head input
  data_size loss_forward{};       ///< logits and loss at the forward pass's end
  data_size loss_backward{};      ///< logits' gradients at the cross entropy's backward
  data_size stranded{};           ///< allocator segments stranded at the loss's backward
  data_size head_gradient{};      ///< the LM head's gradient (allocated first in backward)
  data_size gathered{};           ///< FSDP / ZeRO-3 gathered layers
  data_size nccl{};               ///< NCCL buffers
  data_size ddp_buckets{};        ///< DDP's gradient bucket copies
};

namespace detail {

/// Adapted linear layers per transformer layer: {q,k,v share the first norm, o, gate/up share the
/// second norm, down}.
struct hf_adapted {
  int qkv = 0, o = 0, gate_up = 0, down = 0;
  [[nodiscard]] constexpr int total() const { return qkv + o + gate_up + down; }
};

constexpr hf_adapted hf_adapted_of(const transformer_spec& m, const training_config& c) {
  if (c.lora_rank == 0 && c.qlora_rank == 0) return {};
  const int up = m.ffn_type == ffn_kind::gated ? 2 : 1;
  switch (c.lora_targets) {
    case lora_target::attention_qv: return {2, 0, 0, 0};
    case lora_target::attention: return {3, 1, 0, 0};
    case lora_target::all_linear: return {3, 1, up, 1};
  }
  return {};
}

/// Bytes per token that `consumers` linear layers reading one input of `in` elements stored in
/// `in_bytes` keep for their backward, `adapted` of them with a LoRA adapter of rank r.
///  - a trainable weight's gradient needs the input: under autocast with an input that is not
///    already in the compute dtype each layer casts its own copy (2 B each); otherwise the one
///    input tensor is shared (in_bytes once). A frozen weight keeps nothing (autograd saves an
///    input only for the gradients it will compute).
///  - PEFT's LoRA forward casts x to the adapter's fp32 (`_cast_input_dtype`) and lora_A casts it
///    back to bf16 under autocast: a new 2-byte copy per adapter, plus lora_B's rank-r input.
constexpr double hf_linear_inputs(double in, double in_bytes, int consumers, int adapted,
                                  const hf_regime& r, double rank) {
  double bytes = 0.0;
  if (!r.lora && consumers > 0)
    bytes += r.autocast && in_bytes != 2.0 ? consumers * 2.0 * in : in_bytes * in;
  bytes += adapted * (2.0 * in + 2.0 * rank);
  return bytes;
}

/// Bytes per token an RMSNorm (transformers' LlamaRMSNorm) keeps: the fp32 view of its input
/// (`hidden_states.to(torch.float32)`, saved by pow and by the multiply with rsqrt: the input
/// itself when it is already fp32) and, when the norm weight trains, the normalised tensor in the
/// input's dtype that `weight * x` saves for the weight's gradient.
constexpr double hf_norm_bytes(double h, const hf_regime& r) {
  return fp32_bytes * h + (r.lora ? 0.0 : r.residual * h);
}

/// Bytes per token one decoder layer keeps for its backward without checkpointing (transformers
/// LlamaDecoderLayer / Qwen2DecoderLayer / MistralDecoderLayer, sdpa attention).
constexpr double hf_layer_bytes_per_token(const transformer_spec& m, const training_config& c,
                                          const transformers_profile& p) {
  const hf_regime r = hf_regime_of(c);
  const hf_adapted ad = hf_adapted_of(m, c);
  const double rank = c.lora_rank > 0 ? c.lora_rank : c.qlora_rank;
  const double h = m.hidden, q = 1.0 * m.heads * m.head_dim, f = m.ffn;
  const double kv = p.sdpa_native_gqa ? 1.0 * m.kv_heads * m.head_dim : q;
  const double e = r.act;
  double bytes = 0.0;
  // input_layernorm, then q_proj, k_proj, v_proj reading its output (in the residual's dtype).
  bytes += hf_norm_bytes(h, r) + hf_linear_inputs(h, r.residual, 3, ad.qkv, r, rank);
  // RoPE saves only cos and sin (shared); sdpa (flash) saves Q, K, V, its output and the fp32
  // log-sum-exp per head and token; autocast hands it compute-dtype Q and K.
  bytes += e * (q + kv + kv + q) + fp32_bytes * m.heads;
  // o_proj reads the contiguous copy of the attention output.
  bytes += hf_linear_inputs(q, e, 1, ad.o, r, rank);
  // post_attention_layernorm, then gate_proj and up_proj (or up_proj alone).
  const int up = m.ffn_type == ffn_kind::gated ? 2 : 1;
  bytes += hf_norm_bytes(h, r) + hf_linear_inputs(h, r.residual, up, ad.gate_up, r, rank);
  if (m.ffn_type == ffn_kind::gated)
    bytes += 3.0 * e * f;  // SiLU's input (gate output), SiLU's output and up's output (the mul)
  else
    bytes += e * f;        // the activation's input
  bytes += hf_linear_inputs(f, e, 1, ad.down, r, rank);  // down_proj reads the product
  return bytes;
}

/// Bytes per token of the final norm and the LM head's input.
constexpr double hf_head_bytes_per_token(const transformer_spec& m, const training_config& c) {
  const hf_regime r = hf_regime_of(c);
  return hf_norm_bytes(m.hidden, r) + hf_linear_inputs(m.hidden, r.residual, 1, 0, r, 0.0);
}

/// Tokens per chunk of the fused linear cross entropy.
constexpr double hf_chunk_tokens(const transformer_spec& m, double tokens,
                                 const transformers_profile& p) {
  if (p.chunk_tokens > 0) return p.chunk_tokens < tokens ? p.chunk_tokens : tokens;
  const double inc = static_cast<double>((m.vocab + m.hidden - 1) / m.hidden);
  const double want = static_cast<double>(static_cast<long long>((tokens + inc - 1.0) / inc));
  double pow2 = 1.0;
  while (pow2 < want) pow2 *= 2.0;
  return pow2 < tokens ? pow2 : tokens;
}

/// What the transformers profile models: data parallelism (DDP, FSDP, ZeRO), dense layers, no
/// offload, no selective recomputation, no fp8, sdpa attention without dropout; and valid inputs.
constexpr void check_transformers_plan(const transformer_spec& m, const parallel_layout& l,
                                       const training_config& c, const memory_assumptions& a) {
  l.validate(m);
  check_trainable(m);
  c.validate(l.dp);
  a.validate();
  check_input(l.tp == 1 && l.pp == 1 && l.cp == 1 && l.ep == 1,
              "training_config.framework = transformers models data parallelism (DDP, "
              "FSDP, DeepSpeed ZeRO) only: layout.tp, pp, cp and ep must be 1");
  check_input(!m.is_moe(),
              "training_config.framework = transformers does not model mixture-of-"
              "experts layers yet: use framework = megatron");
  check_input(c.offload == offload_kind::none,
              "training_config.offload is not modelled under framework = transformers");
  check_input(c.recompute != recompute_mode::selective,
              "training_config.recompute = selective is Megatron-LM's; under framework = "
              "transformers recompute is none or full (gradient_checkpointing_enable())");
  check_input(c.dtype != precision::fp8,
              "training_config.dtype = fp8 (Transformer Engine) is not modelled under "
              "framework = transformers");
  check_input(!c.dropout && c.flash_attention,
              "training_config.dropout and flash_attention = false are not modelled under "
              "framework = transformers (sdpa attention, no dropout)");
}

}  // namespace detail

/// Every term of the transformers profile for one GPU (layout: data parallelism with optional
/// ZeRO / FSDP sharding; one micro-batch of c.micro_batch x c.seq tokens).
constexpr transformers_terms transformers_memory_terms(const transformer_spec& m,
                                                       const parallel_layout& l,
                                                       const training_config& c,
                                                       const memory_assumptions& a = {}) {
  detail::check_transformers_plan(m, l, c, a);
  const transformers_profile& pf = a.transformers;
  const detail::hf_regime r = detail::hf_regime_of(c);
  const int rank = c.lora_rank > 0 ? c.lora_rank : c.qlora_rank;
  const detail::rank_params p = detail::stage_params(m, l, 0, c.lora_targets, rank);
  const double tokens = 1.0 * c.micro_batch * c.seq;
  const double h = m.hidden, vocab = m.vocab;
  const double nd = l.shard_degree();
  const double wdiv = l.zero >= 3 ? nd : 1.0, gdiv = l.zero >= 2 ? nd : 1.0,
               odiv = l.zero >= 1 ? nd : 1.0;
  const bool ck = c.recompute == recompute_mode::full;
  const bool head_trains = !r.lora;

  transformers_terms t{};
  // ---- model states -------------------------------------------------------------------------
  const double states = detail::optimizer_state_bytes(c.optimizer, a);
  double base_weights = p.dense * r.param;
  if (c.qlora_rank > 0) base_weights = (p.dense - p.linear) * r.param + p.linear * detail::nf4_bytes(a, c.qlora_double_quant);
  double weights = base_weights, grads = 0.0, opt = 0.0;
  if (r.lora) {
    // PEFT adapters in fp32 (autocast_adapter_dtype=True), fp32 gradients, fp32 optimizer states.
    weights += p.lora * fp32_bytes;
    grads = p.lora * fp32_bytes;
    opt = c.optimizer == optimizer_kind::adafactor ? p.lora_adafactor * fp32_bytes : p.lora * states;
  } else {
    grads = p.dense * r.grad;
    const double per_param = c.optimizer == optimizer_kind::adafactor ? 0.0 : states;
    const double scale = c.optimizer == optimizer_kind::adamw8bit ? 1.0 : r.state_scale;
    opt = p.dense * (r.master + per_param * scale);
    if (c.optimizer == optimizer_kind::adafactor) opt += p.adafactor * fp32_bytes * scale;
  }
  t.weights = detail::bytes(weights / wdiv);
  t.gradients = detail::bytes(grads / gdiv);
  t.optimizer = detail::bytes(opt / odiv);
  if (l.zero >= 3 && nd > 1.0)
    t.gathered = detail::bytes(a.zero3_live_layers * p.largest_layer * r.param);
  t.nccl = detail::nccl_buffers(l, a);
  if (pf.ddp_bucket_copy && l.dp > 1 && l.zero == 0) t.ddp_buckets = detail::bytes(grads);

  // ---- autocast's weight copies ----------------------------------------------------------------
  // Under amp every matrix product's fp32 weight gets a 2-byte copy (cached for the autocast region
  // when it trains, and saved by the product for its backward): the layers' linear weights and the
  // LM head (the embedding table itself is looked up in fp32). LoRA's fp32 adapters likewise.
  const bool fp32_weights = r.autocast && r.param == fp32_bytes;
  const double head_copy = fp32_weights ? 2.0 * vocab * h : 0.0;
  const double layer_copies = fp32_weights ? 2.0 * p.linear : 0.0;
  const double adapter_copies = r.lora && r.autocast ? 2.0 * p.lora : 0.0;
  const double copies_layer = layer_copies / m.layers;
  // Forward: all of them (the autocast cache, or the products' saved weights); with checkpointing
  // and no cache, only the running layer's. At the loss's backward: all of them, or with
  // checkpointing only the LM head's and the adapters' (the layers' died with the autocast region).
  const double copies = ck && !pf.autocast_weight_cache
                            ? copies_layer + head_copy + adapter_copies
                            : layer_copies + head_copy + adapter_copies;
  const double copies_loss = ck ? head_copy + adapter_copies : copies;
  t.weight_copies = detail::bytes(copies);
  t.weight_copies_loss = detail::bytes(copies_loss);
  t.weight_copies_layer = detail::bytes(copies_layer);

  // ---- activations -----------------------------------------------------------------------------
  const double layer = detail::hf_layer_bytes_per_token(m, c, pf) * tokens;
  t.layer_activations = detail::bytes(layer);
  t.stored_activations =
      detail::bytes(ck ? m.layers * r.residual * h * tokens : m.layers * layer);
  t.head_activations = detail::bytes(detail::hf_head_bytes_per_token(m, c) * tokens);

  // ---- logits and loss -------------------------------------------------------------------------
  const double logits = tokens * vocab;
  if (!c.chunked_loss) {
    const double el = r.act;  // the LM head's output dtype
    const double upcast = pf.loss_upcast_fp32 && el != fp32_bytes ? fp32_bytes : 0.0;
    // forward: logits, their fp32 copy, log_softmax's output (saved for its backward)
    t.loss_forward = detail::bytes(logits * (el + upcast + fp32_bytes));
    // backward: the saved log_softmax output, nll_loss's gradient, log_softmax's gradient
    t.loss_backward = detail::bytes(logits * (3.0 * fp32_bytes));
    if (pf.stranded_logits_segment && el < fp32_bytes) t.stranded = detail::bytes(logits * el);
  } else {
    // Liger's fused linear cross entropy: one chunk's logits at a time (gradients written in
    // place), the gradient of the hidden states and of the LM head computed in the forward pass
    // and held for the backward.
    const double chunk = detail::hf_chunk_tokens(m, tokens, pf);
    const double held = tokens * h * r.residual + (head_trains ? vocab * h * r.param : 0.0);
    t.loss_forward = detail::bytes(chunk * vocab * r.act + held);
    t.loss_backward = detail::bytes(held);
  }
  t.head_gradient = detail::bytes(head_trains ? vocab * h * r.grad / gdiv : 0.0);
  return t;
}

/// The transformers profile's memory of one GPU: the breakdown at the phase that sets the
/// process's peak, with the per-phase peaks in `phases`. total() is the process's peak device
/// memory: the caching allocator's peak reservation plus the CUDA context (plus NCCL buffers).
constexpr memory_breakdown transformers_training_memory(const transformer_spec& m,
                                                        const parallel_layout& l,
                                                        const training_config& c,
                                                        const memory_assumptions& a = {}) {
  const transformers_terms t = transformers_memory_terms(m, l, c, a);
  const bool ck = c.recompute == recompute_mode::full;
  const data_size states = t.weights + t.optimizer + t.gathered;
  const data_size zero{};
  auto larger = [](data_size x, data_size y) { return x > y ? x : y; };

  // forward + loss: every saved tensor and copy, plus the loss's peak (or, with checkpointing, one
  // layer's full activations while it runs, if larger).
  const data_size fwd_work = ck ? larger(t.loss_forward, t.layer_activations) : t.loss_forward;
  const data_size fwd_acts = t.stored_activations + t.head_activations;
  const data_size fwd = states + t.weight_copies + fwd_acts + fwd_work;
  // backward at the cross entropy: the loss's gradients on top of what the forward pass saved.
  const data_size bwd_loss = states + t.weight_copies_loss + fwd_acts + t.loss_backward;
  // backward at its first recomputed layer (checkpointing): stored inputs, one layer in full, the
  // LM head's gradient.
  const data_size bwd_first =
      ck ? states + t.stored_activations + t.layer_activations + t.weight_copies_layer +
               t.weight_copies_loss + t.head_gradient
         : zero;
  // backward at its end: every gradient, the first layer's activations and copies, DDP buckets.
  const data_size bwd_end =
      states + t.gradients + t.layer_activations + t.weight_copies_layer + t.ddp_buckets;
  const data_size bwd = larger(larger(bwd_loss, bwd_first), bwd_end);
  // optimizer step: fused AdamW updates in place: states and gradients.
  const data_size opt = states + t.gradients + t.ddp_buckets;

  // The allocator's peak: the allocation at each moment plus what is stranded by then.
  data_size reserved = fwd;
  training_phase phase = training_phase::forward_loss;
  data_size at_peak = fwd;
  auto consider = [&](data_size alloc, data_size extra, training_phase ph) {
    if (alloc + extra > reserved) {
      reserved = alloc + extra;
      phase = ph;
      at_peak = alloc;
    }
  };
  consider(bwd_loss, t.stranded, training_phase::backward);
  consider(bwd_first, zero, training_phase::backward);
  consider(bwd_end, zero, training_phase::backward);
  consider(opt, zero, training_phase::optimizer);

  memory_breakdown out{};
  out.weights = t.weights;
  out.optimizer = t.optimizer;
  out.overhead = a.transformers.cuda_context + t.nccl + (reserved - at_peak);
  // The other fields: the tensors alive at the moment that sets the peak.
  if (phase == training_phase::forward_loss) {
    out.activations = fwd_acts + fwd_work;
    out.workspace = t.weight_copies + t.gathered;
  } else if (phase == training_phase::optimizer) {
    out.gradients = t.gradients;
    out.workspace = t.gathered + t.ddp_buckets;
  } else if (at_peak == bwd_loss) {
    out.activations = fwd_acts + t.loss_backward;
    out.workspace = t.weight_copies_loss + t.gathered;
  } else if (at_peak == bwd_first) {
    out.gradients = t.head_gradient;
    out.activations = t.stored_activations + t.layer_activations;
    out.workspace = t.weight_copies_layer + t.weight_copies_loss + t.gathered;
  } else {
    out.gradients = t.gradients;
    out.activations = t.layer_activations;
    out.workspace = t.weight_copies_layer + t.gathered + t.ddp_buckets;
  }
  out.phases.forward_loss = fwd;
  out.phases.backward = bwd;
  out.phases.optimizer = opt;
  out.phases.reserved = reserved;
  out.phases.allocator_reserve = reserved - at_peak;
  out.phases.cuda_context = a.transformers.cuda_context;
  out.phases.peak = phase;
  return out;
}

/// Training memory of the most loaded GPU under the config's framework profile. torchtitan:
/// models/torchtitan_memory.hpp for dense attention models (under PP with FSDP2: the most loaded
/// stage); for MoE, MLA, hybrids, LoRA or offload the Megatron accounting
/// (models/training_memory.hpp: FSDP2 as ZeRO-3), a known residual
/// (docs/models/framework-memory.md, "torchtitan"). transformers with compile: its eager tensors
/// still (not modelled as fewer).
constexpr memory_breakdown framework_training_memory(const transformer_spec& m,
                                                     const parallel_layout& l,
                                                     const training_config& c,
                                                     const memory_assumptions& a = {}) {
  if (c.framework == framework_kind::transformers) return transformers_training_memory(m, l, c, a);
  if (detail::titan_profile_applies(m, l, c)) return torchtitan_training_memory(m, l, c, a);
  return training_memory(m, l, c, a);
}

/// Memory of pipeline stage k's GPUs under the config's framework profile: torchtitan's stage
/// where its profile applies, else the Megatron accounting's (models/training_memory.hpp). The
/// transformers profile runs no pipeline: framework_training_memory is its one GPU.
constexpr memory_breakdown framework_training_memory_stage(const transformer_spec& m,
                                                           const parallel_layout& l,
                                                           const training_config& c, int k,
                                                           const memory_assumptions& a = {}) {
  detail::check_input(c.framework != framework_kind::transformers || k == 0,
                      "the transformers profile models one pipeline stage (stage 0)", k);
  if (c.framework == framework_kind::transformers) return transformers_training_memory(m, l, c, a);
  if (detail::titan_profile_applies(m, l, c))
    return torchtitan_training_memory_stage(m, l, c, k, a);
  return training_memory_stage(m, l, c, k, a);
}

/// A generic workload has no layer structure: the Megatron/ZeRO accounting of model states with
/// its own activation bytes. The transformers profile needs the model's shapes (logits, layers).
constexpr memory_breakdown framework_training_memory(const generic_workload& g,
                                                     const parallel_layout& l,
                                                     const training_config& c,
                                                     const memory_assumptions& a = {}) {
  detail::check_input(c.framework == framework_kind::megatron,
                      "training_config.framework = transformers needs the model's shapes (a "
                      "transformer_spec or config.json); a generic workload has only a parameter "
                      "count");
  return training_memory(g, l, c, a);
}

}  // namespace gpuplan
