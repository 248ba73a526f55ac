// gpuplan/specs/training.hpp: how a training run is configured: precision, optimizer,
// recomputation, batch, adapters, offload. What every training model (memory, FLOPs, step time,
// cost) reads; the models themselves live in gpuplan/models/.
#pragma once

#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/precision.hpp>

namespace gpuplan {

/// Activation recomputation during the backward pass: none keeps every activation (Korthikanti
/// Table 2, first rows); selective recomputes the attention core (softmax, dropout, attention over
/// V); full keeps only each layer's input. (One name: the alias recompute_kind is gone.)
enum class recompute_mode : unsigned char {
  none,       ///< keep every activation: backward = 2x forward
  selective,  ///< recompute the attention core (Korthikanti et al. 2022, Sec. 4.2)
  full,       ///< recompute every transformer layer's forward (checkpoint at layer inputs)
};

/// The names of recompute_mode, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<recompute_mode> recompute_mode_names[] = {
    {recompute_mode::none, "none"},
    {recompute_mode::selective, "selective"},
    {recompute_mode::full, "full"},
};
constexpr const auto& enumerators(recompute_mode) { return recompute_mode_names; }

enum class optimizer_kind : unsigned char {
  adamw,      ///< two fp32 states (momentum, variance): 8 bytes per parameter
  adam,       ///< the same state as AdamW
  sgd,        ///< SGD with momentum: one fp32 state, 4 bytes per parameter
  adamw8bit,  ///< bitsandbytes 8-bit AdamW: two 1-byte states + block-wise fp32 absmax
  adafactor,  ///< Adafactor without momentum: factored second moment, rows + cols per matrix
};
enum class offload_kind : unsigned char {
  none,
  optimizer,  ///< ZeRO-Offload: optimizer state and fp32 master weights in CPU memory
  params,     ///< ZeRO-Infinity: also parameters and gradients in CPU memory (needs ZeRO-3)
};
enum class lora_target : unsigned char {
  attention_qv,  ///< W_q and W_v (Hu et al. 2021, the LoRA paper's choice)
  attention,     ///< W_q, W_k, W_v, W_o
  all_linear,    ///< every linear layer of attention and FFN (Dettmers et al. 2023, QLoRA)
};

/// The names of optimizer_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<optimizer_kind> optimizer_kind_names[] = {
    {optimizer_kind::adamw, "adamw"},
    {optimizer_kind::adam, "adam"},
    {optimizer_kind::sgd, "sgd"},
    {optimizer_kind::adamw8bit, "adamw8bit"},
    {optimizer_kind::adafactor, "adafactor"},
};
constexpr const auto& enumerators(optimizer_kind) { return optimizer_kind_names; }
/// The names of offload_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<offload_kind> offload_kind_names[] = {
    {offload_kind::none, "none"},
    {offload_kind::optimizer, "optimizer"},
    {offload_kind::params, "params"},
};
constexpr const auto& enumerators(offload_kind) { return offload_kind_names; }
/// The names of lora_target, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<lora_target> lora_target_names[] = {
    {lora_target::attention_qv, "attention_qv"},
    {lora_target::attention, "attention"},
    {lora_target::all_linear, "all_linear"},
};
constexpr const auto& enumerators(lora_target) { return lora_target_names; }

/// The software stack that runs the training, which decides what it allocates beyond the model
/// states (models/framework_memory.hpp, docs/models/framework-memory.md).
enum class framework_kind : unsigned char {
  /// Megatron-LM / NeMo: fused kernels, vocab-parallel fused cross entropy, Korthikanti's
  /// activations, a steady-state total (models/training_memory.hpp).
  megatron,
  /// Hugging Face transformers on PyTorch eager with sdpa attention: materialised logits and an
  /// fp32 cross entropy, eager RMSNorm / SiLU / RoPE tensors, autocast's weight copies,
  /// gradient_checkpointing_enable(), PyTorch's caching allocator (models/framework_memory.hpp).
  transformers,
  /// torchtitan (pytorch/torchtitan, arXiv:2410.06511): Llama blocks in PyTorch with FSDP2
  /// (per-block all-gathers and reduce-scatters, prefetched), optional torch.compile per block
  /// (`compile`), optional float8 GEMMs through torchao (dtype fp8: tensorwise dynamic scaling),
  /// async TP (step_assumptions::async_tp), op-level selective (recompute selective) and
  /// every-k-th-layer (recompute full with recompute_every k) activation checkpointing. Memory:
  /// the Megatron profile (models/training_memory.hpp; docs/models/training-time.md, "The stacks").
  torchtitan,
};
/// The names of framework_kind, as the CLI, JSON and text spell them (specs/enum_names.hpp).
inline constexpr enumerator<framework_kind> framework_kind_names[] = {
    {framework_kind::megatron, "megatron"},
    {framework_kind::transformers, "transformers"},
    {framework_kind::torchtitan, "torchtitan"},
};
constexpr const auto& enumerators(framework_kind) { return framework_kind_names; }

struct training_config {
  /// The stack running the training (framework_kind). megatron: models/training_memory.hpp;
  /// transformers: models/framework_memory.hpp.
  framework_kind framework = framework_kind::megatron;
  /// transformers only: automatic mixed precision as Trainer(bf16=True) runs it: fp32
  /// parameters, gradients and optimizer states, compute under torch.autocast(dtype) (dtype is
  /// then the autocast dtype, bf16 or fp16).
  bool amp = false;
  /// transformers only: a fused / chunked linear cross entropy (Liger Kernel's
  /// LigerFusedLinearCrossEntropy) instead of materialising b x s x vocab logits.
  bool chunked_loss = false;
  /// transformers and torchtitan: torch.compile on each transformer block (torchtitan's
  /// compile.enable, its apply_compile: one torch.compile per TransformerBlock; transformers: the
  /// model compiled). Inductor fuses the elementwise chains between the GEMMs and attention into a
  /// few kernels; the rest (GEMMs, attention, the loss) runs as before.
  bool compile = false;
  /// Under recompute full: checkpoint every k-th layer only (torchtitan's selective_ac_option =
  /// k: "ac every positive int layer", a block is wrapped when layer_id % k == 0); 1: every layer.
  int recompute_every = 1;
  /// Weights and activations. bf16/fp16: mixed precision; fp32: full precision (no separate
  /// master copy); fp8: Transformer Engine FP8 GEMMs over bf16 parameters.
  precision dtype = precision::bf16;
  /// Gradient buffers. Defaults to the weights' dtype (ZeRO's 2 + 2 + 12 = 16 bytes/param);
  /// fp32 is Megatron-LM's gradient accumulation in fp32 (18 bytes/param). fp8 training keeps
  /// bf16 gradients.
  precision grad_dtype = dtype == precision::fp8 ? precision::bf16 : dtype;
  optimizer_kind optimizer = optimizer_kind::adamw;
  /// An fp32 master copy of the weights inside the optimizer (ZeRO's K includes its 4 bytes).
  /// Ignored for fp32 training, whose weights are the master copy.
  bool master_weights = true;
  recompute_mode recompute = recompute_mode::none;
  int micro_batch = 1;  ///< sequences per micro-batch per data-parallel rank
  int seq = 2048;       ///< tokens per sequence
  /// Micro-batches per iteration per pipeline (gradient-accumulation steps); 0 means at least as
  /// many as pipeline stages, so the first stage fills up (Korthikanti sec. 4.2.3).
  int micro_batches = 0;
  /// FlashAttention / fused attention: the s x s score matrix is never stored; only the
  /// softmax's log-sum-exp per row (fp32) is kept for the backward pass.
  bool flash_attention = true;
  /// Dropout layers that store a 1-byte mask (GPT-3 / Megatron-LM's GPT; Korthikanti's
  /// accounting). Llama-family training uses no dropout.
  bool dropout = false;
  int lora_rank = 0;   ///< > 0: LoRA fine-tuning: frozen base in `dtype`, trainable adapters
  int qlora_rank = 0;  ///< > 0: QLoRA: frozen base in 4-bit NF4, trainable adapters
  /// QLoRA's double quantisation (transformers' BitsAndBytesConfig bnb_4bit_use_double_quant;
  /// on in Dettmers et al. 2023, "QLoRA", sec. 3): the fp32 absmax of each 64 weights is itself
  /// quantised to 8 bits with one fp32 constant per 256 of them. The memory model stores 0.127
  /// bits of constants per weight instead of 0.5; the step model runs bitsandbytes' two extra
  /// kernels that restore the absmax before each dequantisation. One setting for both.
  bool qlora_double_quant = true;
  lora_target lora_targets = lora_target::all_linear;
  offload_kind offload = offload_kind::none;
  /// Sequences per optimizer step over all data-parallel ranks; 0: not given. When given it must
  /// be a multiple of micro_batch x dp (x cp does not apply: CP splits sequences), and it sets
  /// micro_batches = global_batch / (micro_batch x dp) unless that is given too (then they must
  /// agree).
  int global_batch = 0;
  /// Batch-size ramp-up (Megatron-LM --rampup-batch-size <start> <increment> <samples>): the run
  /// starts at rampup_start sequences per step and grows by rampup_increment in equal shares of
  /// rampup_samples sequences until it reaches global_batch (Megatron's
  /// RampupBatchsizeNumMicroBatches). rampup_start 0: no ramp-up. Only the time to train reads it;
  /// a step (estimate_step) is always at global_batch.
  int rampup_start = 0;
  /// The most ramp-up levels ((global_batch - rampup_start) / rampup_increment) accepted: each is
  /// a step evaluated by the time to train.
  static constexpr int max_rampup_levels = 10000;
  int rampup_increment = 0;
  double rampup_samples = 0.0;

  /// The micro-batches per step per pipeline implied by this config on data-parallel degree dp.
  [[nodiscard]] constexpr int micro_batches_for(int dp) const {
    if (micro_batches > 0) return micro_batches;
    if (global_batch > 0 && micro_batch > 0 && dp > 0) return global_batch / (micro_batch * dp);
    return 0;
  }

  /// The batch checks that need the layout: global_batch divisible by micro_batch x dp and
  /// consistent with micro_batches.
  constexpr void validate(int dp) const {
    validate();
    if (global_batch == 0) return;
    detail::check_input(global_batch % (1LL * micro_batch * dp) == 0,
                        "training_config.global_batch must be a multiple of micro_batch x "
                        "layout.dp",
                        global_batch, micro_batch * dp);
    detail::check_input(micro_batches == 0 || micro_batches * micro_batch * dp == global_batch,
                        "training_config.micro_batches x micro_batch x layout.dp must equal "
                        "global_batch",
                        micro_batches * micro_batch * dp, global_batch);
    if (rampup_start == 0) return;
    const long long unit = 1LL * micro_batch * dp;  // no int overflow for large dp
    detail::check_input(rampup_start % unit == 0 && rampup_increment % unit == 0,
                        "training_config.rampup_start and rampup_increment must be multiples of "
                        "micro_batch x layout.dp",
                        rampup_start, rampup_increment);
  }

  /// Throws gpuplan::invalid_input naming the field (a compile error in a constant expression).
  constexpr void validate() const {
    detail::check_input(micro_batch >= 1, "training_config.micro_batch must be at least 1",
                        micro_batch);
    detail::check_input(global_batch >= 0, "training_config.global_batch must not be negative",
                        global_batch);
    detail::check_input(seq >= 1, "training_config.seq must be at least 1", seq);
    detail::check_input(micro_batches >= 0,
                        "training_config.micro_batches must be 0 (fill the pipeline) or positive",
                        micro_batches);
    detail::check_input(rampup_start >= 0, "training_config.rampup_start must not be negative",
                        rampup_start);
    if (rampup_start > 0) {
      detail::check_input(global_batch > rampup_start,
                          "training_config.rampup_start needs a global_batch larger than it",
                          rampup_start, global_batch);
      detail::check_input(rampup_increment > 0 &&
                              (global_batch - rampup_start) % rampup_increment == 0,
                          "training_config.rampup_increment must be positive and divide "
                          "global_batch - rampup_start",
                          rampup_increment, global_batch - rampup_start);
      // the time to train evaluates one step per level; Megatron's ramps have tens to hundreds
      // (BLOOM: 116)
      detail::check_input((global_batch - rampup_start) / rampup_increment <= max_rampup_levels,
                          "training_config.rampup_increment: at most max_rampup_levels (10,000) "
                          "levels from rampup_start to global_batch",
                          (global_batch - rampup_start) / rampup_increment);
      detail::check_input(detail::finite_positive(rampup_samples) && rampup_samples <= 9e15,
                          "training_config.rampup_samples must be positive and finite (at most "
                          "9e15 sequences)",
                          rampup_samples);
      detail::check_input(micro_batches == 0,
                          "training_config.rampup_start needs micro_batches 0 (the ramp changes "
                          "them)",
                          micro_batches);
    }
    detail::check_input(lora_rank >= 0, "training_config.lora_rank must not be negative",
                        lora_rank);
    detail::check_input(qlora_rank >= 0, "training_config.qlora_rank must not be negative",
                        qlora_rank);
    detail::check_input(lora_rank == 0 || qlora_rank == 0,
                        "training_config.lora_rank and qlora_rank are exclusive: set one",
                        lora_rank, qlora_rank);
    detail::check_input(dtype != precision::int8 && dtype != precision::int4 &&
                            dtype != precision::fp4 && dtype != precision::tf32,
                        "training_config.dtype must be fp64, fp32, bf16, fp16 or fp8");
    detail::check_input(grad_dtype == precision::fp32 || grad_dtype == precision::bf16 ||
                            grad_dtype == precision::fp16,
                        "training_config.grad_dtype must be fp32, bf16 or fp16");
    detail::check_input(!amp || framework == framework_kind::transformers,
                        "training_config.amp needs framework = transformers (Megatron's mixed "
                        "precision is dtype bf16/fp16 with master_weights)");
    detail::check_input(!chunked_loss || framework == framework_kind::transformers,
                        "training_config.chunked_loss needs framework = transformers (Megatron's "
                        "cross entropy is already fused)");
    detail::check_input(!compile || framework != framework_kind::megatron,
                        "training_config.compile needs framework = transformers or torchtitan "
                        "(Megatron's kernels are already fused)");
    detail::check_input(recompute_every >= 1 && recompute_every <= 1000000,
                        "training_config.recompute_every must be in [1, 1e6]", recompute_every);
    detail::check_input(recompute_every == 1 || recompute == recompute_mode::full,
                        "training_config.recompute_every > 1 needs recompute = full (every k-th "
                        "layer checkpointed)",
                        recompute_every);
    detail::check_input(!amp || dtype == precision::bf16 || dtype == precision::fp16,
                        "training_config.amp needs dtype bf16 or fp16 (the autocast dtype)");
  }

  friend constexpr bool operator==(const training_config&, const training_config&) = default;
};

namespace detail {

constexpr double bytes_of(precision p) { return bytes_per_element(p).in(units::B); }

/// How the transformers stack stores each state of a training_config (Trainer(bf16=True) amp,
/// pure 16-bit, a 16-bit model with an fp32 master copy, LoRA under autocast): read by the
/// transformers memory profile (models/framework_memory.hpp) and the step-time model
/// (models/training_step.hpp), so that both see the same bytes per parameter and gradient.
struct hf_regime {
  bool lora = false;
  bool autocast = false;   ///< compute under torch.autocast (amp, and LoRA as Trainer runs it)
  double param = 2.0;      ///< bytes of a (base) parameter as stored
  double grad = 2.0;       ///< bytes of a gradient of a full-model parameter
  double act = 2.0;        ///< bytes of an activation from a matrix product (compute dtype)
  double residual = 2.0;   ///< bytes of the residual stream (embedding output dtype)
  double state_scale = 1.0;///< optimizer states in the parameters' dtype (pure bf16): 0.5
  double master = 0.0;     ///< fp32 master copy per parameter
};

constexpr hf_regime hf_regime_of(const training_config& c) {
  hf_regime r{};
  r.lora = c.lora_rank > 0 || c.qlora_rank > 0;
  const bool full_precision = c.dtype == precision::fp32 || c.dtype == precision::fp64;
  r.autocast = c.amp || (r.lora && !full_precision);
  // The parameters: fp32 under amp (the model stays fp32, autocast computes in dtype), else dtype.
  r.param = c.amp ? fp32_bytes : bytes_of(c.dtype == precision::fp8 ? precision::bf16 : c.dtype);
  r.act = full_precision ? bytes_of(c.dtype) : 2.0;
  // The embedding's output has the table's dtype; the residual adds keep it (type promotion).
  r.residual = r.param;
  if (c.amp) {
    r.grad = fp32_bytes;
  } else if (full_precision) {
    r.grad = r.param;
  } else if (!c.master_weights) {
    r.grad = r.param;          // gradients in the parameters' dtype
    r.state_scale = r.param / fp32_bytes;  // torch.optim keeps states in the parameters' dtype
  } else {
    r.grad = bytes_of(c.grad_dtype);
    r.master = fp32_bytes;
  }
  return r;
}

}  // namespace detail

}  // namespace gpuplan
