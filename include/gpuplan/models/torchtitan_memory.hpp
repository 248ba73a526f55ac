// gpuplan/models/torchtitan_memory.hpp: what torchtitan (pytorch/torchtitan, FSDP2, Llama blocks)
// holds on a GPU at its memory peak, term by term from the mechanism, for dense attention models,
// with or without pipeline parallelism (torch.distributed.pipelining's 1F1B and interleaved
// 1F1B over FSDP2). Sources are torchtitan 9dec370 (the commit of its December 2024
// benchmarks, benchmarks/llama3_h100_202412_torchtitan.md) and the torch of that date; the
// published "Memory(GiB)" column is torch.cuda's reserved_bytes.all.peak (train.py logs
// DeviceMemStats.max_reserved_gib, torchtitan/metrics.py), so the peak here is the caching
// allocator's reservation, without the CUDA context. Docs: docs/models/framework-memory.md,
// "torchtitan".
#pragma once

#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/models/training_memory.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

namespace detail {

/// Bytes per token one Llama block keeps under torchtitan's op-level selective checkpointing
/// (activation_checkpoint mode 'selective', selective_ac_option 'op': parallelize_llama.py's
/// _save_list and _custom_policy at 9dec370): the checkpoint's input, and the outputs of the
/// saved ops: every aten.mm but the second, fourth, ... of the block (the counter restarts per
/// block: the policy's `meta` is created per checkpointed call), SDPA's outputs (the attention
/// output and its fp32 log-sum-exp), and the reduce_scatter outputs of sequence parallelism.
/// The block's mms in order: wq, wk, wv, wo, w1, w3, w2 (w1 and w2 only for a plain FFN); under
/// TP, wo's and w2's outputs are the full-width partial sums before the reduction.
constexpr double titan_op_sac_bytes_per_token(const transformer_spec& m, const parallel_layout& l,
                                              double e) {
  const double t = l.tp, h = m.hidden;
  const double np = l.sequence_parallel && l.tp > 1 ? 1.0 / t : 1.0;
  const double q = 1.0 * m.heads * m.head_dim / t;
  const double kv = 1.0 * l.kv_heads_per_rank(m) * m.head_dim;
  const double f = m.ffn / t;
  double widths[7] = {q, kv, kv, h, f, f, h};
  int count = 7;
  if (m.ffn_type != ffn_kind::gated) {  // wq, wk, wv, wo, w1, w2
    widths[5] = h;
    count = 6;
  }
  double bytes = e * h * np;  // the checkpointed block's input
  for (int i = 0; i < count; i += 2) bytes += e * widths[i];  // the 1st, 3rd, ... mm
  bytes += e * q + fp32_bytes * m.heads / t;                  // SDPA's output and log-sum-exp
  if (l.tp > 1 && l.sequence_parallel) bytes += 2.0 * e * h / t;  // two reduce_scatter outputs
  return bytes;
}

/// What the torchtitan profile models: dense attention layers (Llama blocks), with or without
/// pipeline parallelism (FSDP2 under PP: memory_common.hpp fsdp2_pipelined).
constexpr bool titan_profile_applies(const transformer_spec& m, const parallel_layout& l,
                                     const training_config& c) {
  return c.framework == framework_kind::torchtitan && !m.is_moe() && !m.is_hybrid() &&
         !m.is_mla() && c.lora_rank == 0 && c.qlora_rank == 0 &&
         c.offload == offload_kind::none && (l.pp == 1 || fsdp2_pipelined(l, c));
}

/// What a pipeline stage's rank holds under torchtitan beyond its saved activations, in bytes
/// (pipeline parallelism only; all zero without it).
struct titan_pipeline_terms {
  double accumulators = 0.0;  ///< FSDP2's unsharded gradient accumulators at the stage's peak
  double buffers = 0.0;       ///< PipelineStage's receive buffers and cached stage outputs
  double first_input = 0.0;   ///< the first block's input, already one of the receive buffers
};

/// The pipeline terms of stage k under torchtitan with torch's schedules (torch 1963fc8,
/// torch/distributed/pipelining):
///  - FSDP2's unsharded gradients in the reduce dtype (fsdp2_unsharded_grad_bytes) of what has
///    run a backward by the stage's peak: the whole stage under 1F1B; under interleaved 1F1B with
///    one round of micro-batches (ScheduleInterleaved1F1B: rounds = max(1, n_microbatches / pp),
///    so fewer than 2 pp micro-batches) the rank runs its last chunk's backwards for every
///    micro-batch before the chunk below's first, and the chunk's post_backward reduce-scatters
///    and frees its gradients after its last: the last chunk's layers (the larger share of
///    the rank's, and the LM head on the last rank) at the peak, at the chunk's first backward;
///  - the stage's input receive buffers, one per micro-batch (PipelineStage
///    _prepare_forward_infra, allocated once, not on the first stage), of which the in-flight
///    micro-batches' are their first block's input; the stage's output kept in fwd_cache for
///    its backward, per micro-batch in flight, and the gradient receive buffers for it, one per
///    micro-batch (_prepare_backward_infra), not on the last stage. Each a block input's size
///    (torchtitan's blocks pass sequence-sharded local tensors under SP).
constexpr titan_pipeline_terms titan_pipeline(const parallel_layout& l, const training_config& c,
                                              const rank_params& p,
                                              double block_input, double in_flight) {
  titan_pipeline_terms out;
  if (l.pp == 1) return out;
  const int micro = c.micro_batches_for(l.dp);  // 0: unbounded
  const double e = bytes_per_element(precision::bf16).in(units::B);
  const int v = l.virtual_stages;
  const double outside = p.dense - p.layers * p.largest_layer;  // embedding or norm and head
  double accumulating = p.dense;
  if (v > 1 && micro > 0 && micro < 2 * l.pp)
    accumulating = (p.layers + v - 1) / v * p.largest_layer + (p.last_stage ? outside : 0.0);
  out.accumulators = fsdp2_unsharded_grad_bytes(e, bytes_of(c.grad_dtype)) * accumulating;
  const double held = micro > 0 ? micro : in_flight;
  if (!p.first_stage) {
    out.buffers += held * block_input;
    out.first_input = in_flight * block_input;
  }
  if (!p.last_stage) out.buffers += (in_flight + held) * block_input;
  return out;
}

}  // namespace detail

/// torchtitan's memory of pipeline stage k's GPUs (see the file comment). Terms:
///  - FSDP2's shards over dp x cp: fp32 parameters (the model is built in fp32; MixedPrecision-
///    Policy param_dtype bf16 casts only the all-gathered copies), fp32 gradients (reduce_dtype
///    fp32) and AdamW's two fp32 moments;
///  - unsharded bf16 parameters held across the forward/backward boundary: without PP the root
///    unit (embedding, final norm, output: FSDP2 never reshards the root after forward,
///    _fsdp_state.py _lazy_init) and the last block (apply_fsdp: reshard_after_forward =
///    layer_id < n_layers - 1); under PP every parameter of the stage, and its unsharded
///    gradient accumulators and pipeline buffers (detail::titan_pipeline);
///  - each block's saved activations (op-level SAC, full AC: the block input, every k-th
///    layer, or none: models/training_memory.hpp's accounting), for the micro-batches in flight
///    (training_memory.hpp in_flight_layers_factor: pp - k under 1F1B, torch's Schedule1F1B
///    warm-up of min(n_microbatches, pp - k) forwards; interleaved, the warm-up of
///    ScheduleInterleaved1F1B, 2 (pp - k - 1) + (v - 1) pp chunks, capped at every chunk);
///  - the loss (last stage): bf16 logits (pred), their fp32 copy (loss_fn's .float()) and
///    log_softmax's fp32 output in the forward pass; in the cross entropy's backward the saved
///    output, nll_loss's and log_softmax's fp32 gradients; the logits over vocab / tp under TP
///    (loss parallel); one micro-batch at a time;
///  - the backward's first block: its recomputed activations, its bf16 unsharded gradients and
///    (without PP) the next gathered block and the fp32 reduce-scatter input.
/// The peak is the larger of the loss's backward and the first block's backward; total() adds
/// the CUDA context (memory_assumptions::transformers.cuda_context, the same PyTorch process
/// measurement) and NCCL's buffers.
constexpr memory_breakdown torchtitan_training_memory_stage(const transformer_spec& m,
                                                            const parallel_layout& l,
                                                            const training_config& c, int k,
                                                            const memory_assumptions& a = {}) {
  detail::check_stage_memory_inputs(m, l, c, a);
  detail::check_input(detail::titan_profile_applies(m, l, c),
                      "the torchtitan memory profile models dense attention models (under "
                      "pipeline parallelism with FSDP2: layout.zero = 3) without LoRA or offload "
                      "(training_config.framework)");
  detail::check_input(k >= 0 && k < l.pp, "pipeline stage must be in [0, layout.pp)", k, l.pp);
  detail::check_input(c.seq % l.cp == 0, "layout.cp must divide training_config.seq", l.cp,
                      c.seq);
  const torchtitan_memory_profile& pf = a.torchtitan;
  const detail::rank_params p = detail::stage_params(m, l, k, c.lora_targets, 0);
  const double nd = l.shard_degree();
  const double tokens = 1.0 * c.micro_batch * c.seq / l.cp;
  // bf16 compute (MixedPrecisionPolicy param_dtype = bfloat16)
  const double e = bytes_per_element(precision::bf16).in(units::B);
  const double h = m.hidden, t = l.tp;
  const double np = l.sequence_parallel && l.tp > 1 ? 1.0 / t : 1.0;
  const bool pipelined = l.pp > 1;

  // ---- model states: FSDP2 shards in fp32 ------------------------------------------------------
  const double weights = fp32_bytes * p.dense / nd;
  const double optimizer = detail::optimizer_state_bytes(c.optimizer, a) * p.dense / nd;
  const double grads = fp32_bytes * p.dense / nd;
  const double grads_at_forward = pf.gradients_stay_reserved ? grads : 0.0;

  // ---- unsharded bf16 parameters held from the forward pass to the backward ------------------
  const double head = (1.0 * m.vocab * h + m.lm_head_parameters()) / t + h;
  const double block = p.largest_layer;
  const double held = e * (pipelined ? p.dense : head + block);

  // ---- saved activations ----------------------------------------------------------------------
  double per_layer = 0.0;
  if (c.recompute == recompute_mode::selective) {
    per_layer = detail::titan_op_sac_bytes_per_token(m, l, e) * tokens;
  } else {
    const double full = detail::layer_activation_bytes(m, 0, l, c, recompute_mode::full);
    const double none = detail::layer_activation_bytes(m, 0, l, c, recompute_mode::none);
    per_layer = c.recompute == recompute_mode::none ? none
                : c.recompute_every > 1 ? detail::every_kth_checkpointed(full, none, c.recompute_every)
                                        : full;
  }
  const double in_flight = detail::in_flight_layers_factor(l, c, k);
  const detail::titan_pipeline_terms pipe =
      detail::titan_pipeline(l, c, p, e * h * np * tokens, in_flight);
  const double acts = in_flight * p.layers * per_layer + pipe.buffers - pipe.first_input;
  // final norm (eager RMSNorm: the fp32 input, the bf16 normalised tensor) and the output's input
  const double head_acts = (fp32_bytes + e) * h * np * tokens + e * h * tokens;
  const double logits = tokens * m.vocab / t;

  // ---- the two candidate peaks ----------------------------------------------------------------
  const double states = weights + optimizer + grads_at_forward + held + pipe.accumulators;
  const double fwd_loss = logits * (e + 2.0 * fp32_bytes);
  // the cross entropy's backward: the saved log_softmax output and two fp32 gradients (ATen),
  // or three under loss parallel (see torchtitan_memory_profile::loss_parallel_backward)
  const double loss_tensors = l.tp > 1 && pf.loss_parallel_backward ? 4.0 : 3.0;
  const double loss_bwd = logits * loss_tensors * fp32_bytes;
  const double stranded = pf.stranded_logits_segment ? logits * e : 0.0;
  const bool loss = p.last_stage;
  const double at_loss = loss ? states + acts + head_acts + loss_bwd : 0.0;
  const double layer_full = detail::layer_activation_bytes(m, 0, l, c, recompute_mode::none);
  // without PP the gathered next block and the block's fp32 reduce-scatter input; under PP
  // every block is gathered and the fp32 accumulators are counted in `states`
  const double block_work = pipelined ? e * block : (2.0 * e + fp32_bytes) * block;
  const double first_block = states + acts + layer_full + block_work;
  const double fwd = states + acts + (loss ? head_acts + fwd_loss : 0.0);

  memory_breakdown out{};
  out.pipeline_stage = k;
  out.weights = detail::bytes(weights);
  out.optimizer = detail::bytes(optimizer);
  out.gradients = detail::bytes(grads_at_forward + pipe.accumulators);
  out.workspace = detail::bytes(held);
  const bool loss_peak = loss && at_loss + stranded >= first_block;
  const double allocated = loss_peak ? at_loss : first_block;
  const double reserved = loss_peak ? at_loss + stranded : first_block;
  if (loss_peak) {
    out.activations = detail::bytes(acts + head_acts + loss_bwd);
  } else {
    out.activations = detail::bytes(acts + layer_full);
    out.workspace = detail::bytes(held + block_work);
  }
  const data_size context = a.transformers.cuda_context;
  out.overhead = context + detail::nccl_buffers(l, a) + detail::bytes(reserved - allocated);
  out.phases.forward_loss = detail::bytes(fwd);
  out.phases.backward = detail::bytes(at_loss > first_block ? at_loss : first_block);
  out.phases.optimizer = detail::bytes(weights + optimizer + grads);
  out.phases.reserved = detail::bytes(reserved);
  out.phases.allocator_reserve = detail::bytes(reserved - allocated);
  out.phases.cuda_context = context;
  out.phases.peak = training_phase::backward;
  return out;
}

/// torchtitan's memory of the most loaded GPU: the pipeline stage with the largest reserved
/// peak (torchtitan's published figure is the maximum over the PP ranks).
constexpr memory_breakdown torchtitan_training_memory(const transformer_spec& m,
                                                      const parallel_layout& l,
                                                      const training_config& c,
                                                      const memory_assumptions& a = {}) {
  memory_breakdown most = torchtitan_training_memory_stage(m, l, c, 0, a);
  for (int k = 1; k < l.pp; ++k) {
    const memory_breakdown x = torchtitan_training_memory_stage(m, l, c, k, a);
    if (x.phases.reserved > most.phases.reserved) most = x;
  }
  return most;
}

}  // namespace gpuplan
