// gpuplan/models/memory_common.hpp: what the training and inference memory models share: the
// per-GPU breakdown they return, and where each parameter of a transformer lives once tensor,
// pipeline and expert parallelism have split the model (Megatron-LM's placement).
#pragma once

#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

namespace gpuplan {

/// The three phases of a training step, for the per-phase peaks of a framework profile.
enum class training_phase : unsigned char {
  none,           ///< not modelled (the Megatron profile reports one steady-state total)
  forward_loss,   ///< the forward pass and the loss
  backward,       ///< the backward pass
  optimizer,      ///< the optimizer step
};

/// The names of training_phase, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<training_phase> training_phase_names[] = {
    {training_phase::none, "none"},
    {training_phase::forward_loss, "forward+loss"},
    {training_phase::backward, "backward"},
    {training_phase::optimizer, "optimizer"},
};
constexpr const auto& enumerators(training_phase) { return training_phase_names; }

/// Per-phase peaks of a training step (models/framework_memory.hpp fills them for the
/// transformers profile; `peak == training_phase::none` elsewhere). The three peaks are what
/// torch.cuda.max_memory_allocated() reports in each phase; `reserved` is the caching
/// allocator's peak (max_memory_reserved()); the process needs `reserved + cuda_context`.
struct phase_peaks {
  data_size forward_loss{};       ///< tensors allocated at the peak of forward + loss
  data_size backward{};           ///< tensors allocated at the peak of the backward pass
  data_size optimizer{};          ///< tensors allocated at the peak of the optimizer step
  data_size reserved{};           ///< the caching allocator's peak reservation
  data_size allocator_reserve{};  ///< reserved minus the allocation at the reserved peak
  data_size cuda_context{};       ///< CUDA context and libraries, outside the allocator
  training_phase peak = training_phase::none;  ///< the phase that sets the process peak
};

/// Memory of one GPU (the most loaded one where the report says so), by what it holds. Every
/// field is device memory except `host`.
struct memory_breakdown {
  data_size weights{};      ///< parameters as stored on the GPU (compute copies, quantised bases)
  data_size gradients{};    ///< gradient buffers
  data_size optimizer{};    ///< optimizer state, fp32 master weights included
  data_size activations{};  ///< tensors kept for the backward pass (training)
  data_size kv_cache{};     ///< KV cache (inference)
  data_size workspace{};    ///< transient buffers: gathered ZeRO-3 layers, the layer being
                            ///< recomputed, the inference forward pass's peak intermediates
  data_size overhead{};     ///< CUDA context, NCCL buffers, allocator fragmentation
  data_size host{};         ///< offloaded to CPU memory (not part of total())
  int pipeline_stage = 0;   ///< which pipeline stage this GPU runs (0-based)
  /// Per-phase peaks where the framework profile models them (transformers); the fields above
  /// are then the memory at the phase that sets the peak, and `overhead` is the CUDA context,
  /// NCCL's buffers and the caching allocator's reserve.
  phase_peaks phases{};

  /// Device memory: everything but `host`.
  [[nodiscard]] constexpr data_size total() const {
    return weights + gradients + optimizer + activations + kv_cache + workspace + overhead;
  }
  /// Weights, gradients and optimizer state: ZeRO's "model states".
  [[nodiscard]] constexpr data_size model_states() const { return weights + gradients + optimizer; }
  /// What PyTorch's torch.cuda.max_memory_allocated() counts: the tensors, without the CUDA
  /// context, NCCL's own buffers and the allocator's fragmentation.
  [[nodiscard]] constexpr data_size tensors() const { return total() - overhead; }
};

/// Memory `need` within `capacity`: the comparison behind every fit verdict.
constexpr bool within_capacity(data_size need, data_size capacity) { return need <= capacity; }

namespace detail {

/// Each input is checked against its own range, but not their sums: memory assumptions far out
/// of the ordinary (an NCCL buffer of 1e308 bytes, valid alone) overflow the total. Refused
/// rather than reported as inf.
constexpr void check_finite_memory(const memory_breakdown& m) {
  check_input(finite(m.total().value),
              "memory: the per-GPU total is not finite: an input or memory_assumptions field far "
              "out of range overflowed it");
}

/// Parameters of one GPU's share of a transformer, by kind. All counts are elements.
struct rank_params {
  double dense = 0.0;          ///< non-expert parameters held by this rank
  double expert = 0.0;         ///< routed-expert parameters held by this rank
  double linear = 0.0;         ///< of both, those in transformer-layer GEMM weights (quantisable)
  double linear_expert = 0.0;  ///< of `linear`, the routed experts' (gpt-oss quantises only these)
  double adafactor = 0.0;      ///< Adafactor's factored second moment: rows + cols per matrix
  double lora = 0.0;           ///< LoRA adapter parameters on this rank
  double lora_adafactor = 0.0; ///< Adafactor state of the adapters
  double lora_matrices = 0.0;  ///< adapted matrices per layer (for the adapters' activations)
  double largest_layer = 0.0;  ///< the largest transformer layer's parameters on this rank
  int first_layer = 0;         ///< first layer index of this stage
  int layers = 0;              ///< transformer layers on this stage
  bool first_stage = false;
  bool last_stage = false;
};

/// Matrices per transformer layer that carry LoRA adapters: Q and V; Q, K, V and O; or those and
/// the FFN's (three gated, two otherwise).
constexpr int lora_adapted_matrices(const transformer_spec& m, lora_target t) {
  switch (t) {
    case lora_target::attention_qv: return 2;
    case lora_target::attention: return 4;
    case lora_target::all_linear: return 4 + (m.ffn_type == ffn_kind::gated ? 3 : 2);
  }
  return 0;
}

struct rank_accumulator {
  rank_params p{};
  int rank = 0;  // LoRA rank

  constexpr void vector(double n, bool expert = false) {
    (expert ? p.expert : p.dense) += n;
    p.adafactor += n;
  }
  /// `copies` identical matrices (the experts of a layer): one multiplication, not a loop, so the
  /// cost does not grow with the expert count.
  constexpr void matrix(double rows, double cols, bool expert, bool linear, bool adapted,
                        double copies = 1.0) {
    (expert ? p.expert : p.dense) += copies * (rows * cols);
    if (linear) p.linear += copies * (rows * cols);
    if (linear && expert) p.linear_expert += copies * (rows * cols);
    p.adafactor += copies * (rows + cols);
    if (adapted && rank > 0) {
      p.lora += copies * (rank * (rows + cols));
      p.lora_adafactor += copies * ((rows + rank) + (rank + cols));
    }
  }
  constexpr void vector(double n, bool expert, double copies) {
    (expert ? p.expert : p.dense) += copies * n;
    p.adafactor += copies * n;
  }
};


/// A linear-mixer layer's parameters on one tensor-parallel rank (vLLM's MambaMixer,
/// MambaMixer2 and Qwen3NextGatedDeltaNet: in_proj column-parallel, out_proj row-parallel, the
/// convolution, A, D, the time-step bias and the gated norm split by channel or head; Mamba's
/// x_proj row-parallel, dt_proj column-parallel): everything over tp.
constexpr void linear_mixer_params(const transformer_spec& m, double t, rank_accumulator& acc) {
  const linear_mixer_spec& x = m.linear;
  const double h = m.hidden, inner = x.inner / t;
  acc.matrix(h, m.linear_in_width() / t, false, true, false);  // in_proj
  acc.matrix(inner, h, false, true, false);                    // out_proj
  if (x.kind == linear_mixer_kind::mamba) {
    acc.matrix(inner, x.dt_rank + 2.0 * x.state_size, false, true, false);  // x_proj
    acc.matrix(x.dt_rank, inner, false, true, false);                       // dt_proj
  }
  acc.vector((m.linear_mixer_parameters() - m.linear_mixer_weights()) / t);
}

/// One GPU's parameters at pipeline stage k, after tensor (tp; expert_tp inside experts),
/// pipeline and expert (ep) parallelism. Megatron-LM's placement: the word embedding (and a
/// learned position table) on the first stage; the final norm and the LM head on the last stage;
/// with tied embeddings and pp > 1 the last stage keeps its own copy of the word embedding for the
/// output layer (Megatron-LM `setup_embeddings_and_output_layer`). Column- and row-parallel GEMMs
/// are split over tp, vocabularies are split over tp (vocab-parallel embedding), norms and the
/// MoE router are replicated; K and V projections hold kv_heads / tp heads, or one head when
/// tp > kv_heads (replicated).
constexpr rank_params stage_params(const transformer_spec& m, const parallel_layout& l, int k,
                                   lora_target lora = lora_target::all_linear,
                                   int lora_rank = 0) {
  rank_accumulator acc{};
  acc.rank = lora_rank;
  const double t = l.tp, h = m.hidden;
  const double q = 1.0 * m.heads * m.head_dim / t;
  const double kv = 1.0 * l.kv_heads_per_rank(m) * m.head_dim;
  const bool lora_qv = lora_rank > 0;
  const bool lora_attn = lora_qv && lora != lora_target::attention_qv;
  const bool lora_mlp = lora_qv && lora == lora_target::all_linear;

  // `copies` FFNs of inner size f (a layer's experts on this rank).
  auto ffn = [&](double f, bool expert, double copies = 1.0) {
    const bool gated = m.ffn_type == ffn_kind::gated;
    if (gated) acc.matrix(h, f, expert, true, lora_mlp, copies);
    acc.matrix(h, f, expert, true, lora_mlp, copies);
    acc.matrix(f, h, expert, true, lora_mlp, copies);
    if (m.mlp_bias) {
      acc.vector(gated ? 2.0 * f : f, expert, copies);
      acc.vector(h, expert, copies);
    }
  };

  acc.p.first_layer = l.stage_first_layer(m.layers, k);
  acc.p.layers = l.stage_layers(m.layers, k);
  acc.p.first_stage = k == 0;
  acc.p.last_stage = k == l.pp - 1;

  for (int i = acc.p.first_layer; i < acc.p.first_layer + acc.p.layers; ++i) {
    const double before = acc.p.dense + acc.p.expert;
    const bool attention = m.is_attention_layer(i);
    if (m.is_linear_layer(i)) linear_mixer_params(m, t, acc);
    acc.vector(m.layer_norms(i) * m.norm_parameters());
    if (attention && m.is_mla()) {
      // MLA (transformer_spec::mla): the down-projections to the latents are replicated on
      // every tensor-parallel rank (vLLM's and SGLang's DeepSeek models: ReplicatedLinear), the
      // up-projections and the output projection split by heads.
      const double heads = m.heads / t, ql = m.mla.q_lora_rank, kvl = m.mla.kv_lora_rank;
      const double qk = heads * m.score_head_dim();
      if (ql > 0) {
        acc.matrix(h, ql, false, true, lora_qv);   // q_a_proj
        acc.vector(ql);                            // q_a_layernorm
        acc.matrix(ql, qk, false, true, lora_qv);  // q_b_proj
      } else {
        acc.matrix(h, qk, false, true, lora_qv);   // q_proj
      }
      acc.matrix(h, kvl + m.mla.qk_rope_head_dim, false, true, lora_attn);  // kv_a_proj
      acc.vector(kvl);                                                      // kv_a_layernorm
      acc.matrix(kvl, heads * (m.mla.qk_nope_head_dim + m.mla.v_head_dim), false, true,
                 lora_qv);                                                  // kv_b_proj
      acc.matrix(heads * m.mla.v_head_dim, h, false, true, lora_attn);      // o_proj
    } else if (attention) {
      acc.matrix(h, m.attention_output_gate ? 2.0 * q : q, false, true, lora_qv);  // Q (and gate)
      acc.matrix(h, kv, false, true, lora_attn); // K
      acc.matrix(h, kv, false, true, lora_qv);   // V
      acc.matrix(q, h, false, true, lora_attn);  // output projection
      if (m.qkv_bias) acc.vector(q + 2.0 * kv);
    }
    if (attention) {
      if (m.out_bias) acc.vector(h);
      if (m.qk_norm) acc.vector(2.0 * m.score_head_dim());  // replicated
      if (m.attention_sinks) acc.vector(m.heads / t);       // one per head
    }
    if (m.is_moe_layer(i)) {
      acc.matrix(h, m.moe.experts, false, false, false);  // router, replicated
      if (m.moe.router_bias) acc.vector(m.moe.experts);
      const double fe = 1.0 * m.moe.expert_ffn / l.expert_tensor_parallel();
      ffn(fe, true, m.moe.experts / l.ep);
      const int fs = m.moe.shared_expert_ffn > 0 ? m.moe.shared_expert_ffn : m.moe.expert_ffn;
      ffn(fs / t, false, m.moe.shared_experts);
      if (m.moe.shared_expert_gate) acc.vector(h);  // hidden -> 1, replicated
    } else if (m.has_ffn(i)) {
      ffn(m.ffn / t, false);
    }
    const double layer = acc.p.dense + acc.p.expert - before;
    if (layer > acc.p.largest_layer) acc.p.largest_layer = layer;
  }
  if (acc.p.first_stage) {
    acc.matrix(m.vocab / t, h, false, false, false);
    // a vision tower and projector run before the first layer, split over tp like the layers
    if (m.extra_parameters > 0.0) acc.vector(m.extra_parameters / t);
    if (m.positions == position_kind::learned) acc.matrix(m.max_positions, h, false, false, false);
  }
  if (acc.p.last_stage) {
    acc.vector(m.norm_parameters());
    if (!m.tied_embeddings || l.pp > 1) acc.matrix(m.vocab / t, h, false, false, false);
  }
  acc.p.lora_matrices = lora_rank > 0 ? lora_adapted_matrices(m, lora) : 0;
  return acc.p;
}

/// KV-cache elements per token of one layer on one tensor-parallel rank: its K and V heads
/// (kv_heads / tp, one when replicated), or MLA's whole latent and rotary key, which every rank
/// holds (vLLM and SGLang MLA backends; SGLang's DP attention exists to avoid the copies).
constexpr double kv_elements_per_rank(const transformer_spec& m, const parallel_layout& l) {
  return m.is_mla() ? m.kv_elements_per_layer() : 2.0 * l.kv_heads_per_rank(m) * m.head_dim;
}

/// One linear-mixer layer's state of one sequence on one tensor-parallel rank, in elements, as
/// vLLM allocates it (vllm/model_executor/layers/mamba/mamba_utils.py MambaStateShapeCalculator,
/// vllm-project/vllm commit 02d71083): the convolution's (conv_kernel - 1) x conv_dim / tp and
/// the SSM state / tp (mamba1_state_shape: inner x state; mamba2_state_shape: heads x head_dim x
/// state, with groups that tp does not divide extended to tp, extra_groups_for_head_shards;
/// gated_delta_net_state_shape: value heads x value dim x key dim).
constexpr double state_elements_per_rank(const transformer_spec& m, int tp) {
  const linear_mixer_spec& x = m.linear;
  double conv_dim = x.conv_dim();
  if (x.kind == linear_mixer_kind::mamba2 && x.groups % tp != 0)
    conv_dim += 2.0 * (tp - x.groups) * x.state_size;
  return ((x.conv_kernel - 1.0) * conv_dim + x.ssm_state_elements()) / tp;
}

/// The transformers memory profile counts transformer layers: attention and an FFN, with eager
/// PyTorch's ops. A hybrid's linear-mixer layers (the chunked scan's kernels,
/// the causal conv1d) are not modelled there: refused. training_memory (the Megatron
/// accounting) models them (check_trainable_memory), and the step time under Megatron-LM
/// (training_step.hpp check_trainable_step).
constexpr void check_trainable(const transformer_spec& m) {
  check_input(!m.is_hybrid(),
              "training: hybrid models (linear-attention / state-space layers beside attention) "
              "are not modelled by the transformers memory profile; training memory and "
              "step time with --framework megatron, fit --infer and serve model them");
}

/// What training_memory models of a hybrid (transformer_spec::pattern): every layout, with the
/// linear mixer's heads split over tensor parallelism as Megatron-Core's MambaMixer splits them
/// (megatron/core/ssm/mamba_mixer.py asserts nheads % tp == 0 and ngroups % tp == 0; Mamba-1's
/// channels likewise), and no LoRA (the adapters' targets on a linear mixer are not modelled).
constexpr void check_trainable_memory(const transformer_spec& m, const parallel_layout& l,
                                      const training_config& c) {
  if (!m.is_hybrid() || m.linear_layers() == 0) return;
  const linear_mixer_spec& x = m.linear;
  const bool heads_split = x.kind == linear_mixer_kind::mamba
                               ? x.inner % l.tp == 0
                               : x.heads % l.tp == 0 && x.groups % l.tp == 0;
  check_input(heads_split,
              "training a hybrid: layout.tp must divide the linear mixer's heads and groups "
              "(Mamba: its channels), as Megatron-Core's MambaMixer splits them",
              l.tp, x.kind == linear_mixer_kind::mamba ? x.inner : x.heads,
              x.kind == linear_mixer_kind::mamba ? x.inner : x.groups);
  check_input(c.lora_rank == 0 && c.qlora_rank == 0,
              "training a hybrid: LoRA / QLoRA adapters on linear-mixer layers are not modelled");
}

/// The checks every per-stage memory model runs first (training_memory_stage and
/// torchtitan_training_memory_stage): the layout against the model, what training memory
/// models of a hybrid, the config against the data-parallel ranks, the assumptions.
constexpr void check_stage_memory_inputs(const transformer_spec& m, const parallel_layout& l,
                                         const training_config& c, const memory_assumptions& a) {
  l.validate(m);
  check_trainable_memory(m, l, c);
  c.validate(l.dp);
  a.validate();
}

/// NCCL buffers: one communicator per parallel group larger than one GPU, each with
/// nccl_channels channels of 2 x NCCL_BUFFSIZE (send and receive).
constexpr data_size nccl_buffers(const parallel_layout& l, const memory_assumptions& a) {
  int groups = 0;
  groups += l.dp * l.cp > 1 ? 1 : 0;
  groups += l.tp > 1 ? 1 : 0;
  groups += l.pp > 1 ? 1 : 0;
  groups += l.cp > 1 ? 1 : 0;
  groups += l.ep > 1 ? 1 : 0;
  return groups * 2.0 * a.nccl_channels * a.nccl_buffsize;
}

/// NF4 storage per parameter (the memory models; QLoRA's fused dequantisation reads it too): 4 bits plus the quantisation constants (QLoRA sec. 3), with or
/// without double quantisation (training_config::qlora_double_quant).
constexpr double nf4_bytes(const memory_assumptions& a, bool double_quant) {
  const double constants_bits =
      double_quant ? 8.0 / a.nf4_block + 32.0 / (1.0 * a.nf4_block * a.nf4_second_block)
                   : 32.0 / a.nf4_block;
  return 0.5 + constants_bits / 8.0;
}

/// torchtitan's FSDP2 with pipeline parallelism: apply_fsdp sets reshard_after_forward = False
/// on every block and the root when PP is on ("to avoid per-microbatch all-gathers",
/// torchtitan/parallelisms/parallelize_llama.py at 9dec370; today the "default" policy of
/// torchtitan/distributed/fsdp.py get_fsdp_reshard_after_forward_policy), and torch's
/// PipelineStage runs every backward but the last without gradient sync or resharding, then
/// calls each FSDP state's post_backward (torch/distributed/pipelining/stage.py
/// backward_maybe_with_nosync): the stage's parameters stay unsharded from its first forward to
/// its last backward, and its gradients accumulate unsharded until then (fsdp2_unsharded_grad_
/// bytes). FSDP2 (ZeRO-3) over a pipeline, the whole model trained (not LoRA). The step model
/// (training_step.hpp fsdp2_under_pipeline) times it, torchtitan_memory.hpp holds it.
constexpr bool fsdp2_pipelined(const parallel_layout& l, const training_config& c) {
  return c.framework == framework_kind::torchtitan && l.pp > 1 && l.zero >= 3 &&
         c.lora_rank == 0 && c.qlora_rank == 0;
}
/// Bytes per unsharded parameter of FSDP2's gradient accumulator without gradient sync: in the
/// reduce dtype when it differs from the parameters' (FSDPParam.to_accumulated_grad_if_needed
/// upcasts the first micro-batch's gradient into unsharded_accumulated_grad,
/// accumulate_unsharded_grad_if_needed adds the later ones: torch/distributed/_composable/fsdp/
/// _fsdp_param.py), else autograd's param.grad in the parameters' dtype.
constexpr double fsdp2_unsharded_grad_bytes(double param_e, double reduce_e) {
  return param_e == reduce_e ? param_e : reduce_e;
}

}  // namespace detail
}  // namespace gpuplan
