// tests/published_runs.hpp: training runs published with their layout, as plans, shared by the
// tests that check them (the step-time model in test_training_step.cpp, the run's GPU-hours and
// energy in test_published_emissions.cpp), so that one run is described once.
#pragma once

#include <gpuplan/catalog.hpp>
#include <gpuplan/models/training_step.hpp>

namespace gpuplan::test {

/// BLOOM (BigScience tr11-176B-ml, bigscience-workshop/bigscience train/tr11-176B-ml README and
/// slurm script; Le Scao et al. 2022): 48 Jean Zay nodes of 8 A100 80GB SXM with 4 Omni-Path
/// 100 Gb/s links per node, Megatron-DeepSpeed, TP 4 x PP 12 x DP 8, micro-batch 2, global
/// batch 2048 x 2048 tokens, bf16 with fp32 gradient accumulation and sharded optimizer states,
/// full activation checkpointing, no flash attention, 70 layers x 14336, ALiBi, 250,880-token
/// vocabulary, 5 layers on the first and last stages (with the embedding), 6 on the others.
/// Logged at iteration 85,376: 104.70 s per iteration, 149.77 TFLOP/s per GPU (their count
/// with recomputation, the same as gpuplan's hardware FLOPs to 0.1%). DeepSpeed's pipeline
/// engine sends whole activations (no scatter/gather) and overlaps neither the gradient
/// reduction nor the parameter all-gather.
inline training_plan bloom_plan() {
  transformer_spec bloom = catalog::gpt_decoder("bloom-176b", 70, 14336, 112, 250880, 2048);
  bloom.positions = position_kind::rotary;  // ALiBi: no position parameters
  bloom.tied_embeddings = true;
  training_plan p;
  p.model = bloom;
  p.node = catalog::dgx_a100;
  p.node.nics.count = 4;
  p.node.nics.per_nic = 100.0 * units::Gbps;
  p.layout = {.dp = 8, .tp = 4, .pp = 12, .zero = 1};
  p.config.dtype = precision::bf16;
  p.config.grad_dtype = precision::fp32;
  p.config.micro_batch = 2;
  p.config.seq = 2048;
  p.config.global_batch = 2048;
  // --rampup-batch-size 192 16 9_765_625 (20B tokens). The run kept micro-batch 1 until the batch
  // reached 784 ("was MBS=1 till GBS=784"); the plan ramps at micro-batch 2 throughout.
  p.config.rampup_start = 192;
  p.config.rampup_increment = 16;
  p.config.rampup_samples = 9765625;
  p.config.flash_attention = false;
  p.config.dropout = true;
  p.config.recompute = recompute_mode::full;
  p.assumptions.overlap_grad_reduce = false;
  p.assumptions.overlap_param_gather = false;
  p.assumptions.p2p_scatter_gather = false;
  // DeepSpeed's BF16_Optimizer ("bf16 must use z0! it implements its own zero stage 1
  // equivalent", tr11-176B-ml.slurm) sums every micro-batch's bf16 gradients into fp32
  p.assumptions.grad_accumulation = grad_accumulation_kind::deepspeed_bf16;
  // ... and all-reduces those fp32 gradients before its sharded step (engine.py
  // _bf16_reduce_grads)
  p.assumptions.sharded_grad_all_reduce = true;
  p.layout.first_stage_layers = 5;
  p.layout.last_stage_layers = 5;
  return p;
}

}  // namespace gpuplan::test
