// gpuplan/models/scan_kernels.hpp: the kernels of a hybrid's chunked scans (Mamba-2's SSD as
// mamba_ssm runs it, the gated delta rule as fla runs it, Mamba-1's fused selective scan), per
// token on one tensor-parallel rank: each kernel's tensor-core FLOPs, its CUDA-core work in FP32
// lane slots, and the bytes it moves through HBM. Data about the kernels, not their time: the
// training step (models/training_step.hpp) times them by its kernel rule and adds the backward's
// kernels; serving (models/serving.hpp) times the forward kernels of a prefill by its own, so a
// hybrid's prefill and its training forward run the same kernels.
#pragma once

#include <gpuplan/models/flops.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/specs/transformer.hpp>

#include <array>

namespace gpuplan::detail {

// Special-function and conversion work on the CUDA cores, in FP32 lane slots (one FP32 add,
// multiply or FMA per lane per clock; the datasheet's FP32 figure counts an FMA as 2 FLOPs, so a
// GPU issues fp32_vector / 2 slots a second). An exp2 (MUFU.EX2) or an FP32-to-16-bit conversion
// takes `sfu` slots: the GPU's special_function_slots (models/kernels.hpp, the CUDA C++
// Programming Guide's throughput table by compute capability: 4 on 8.0, 8 on 8.6, 8.9 and 9.0).

/// Mamba-1's selective scan (state-spaces/mamba csrc/selective_scan/selective_scan_fwd_kernel.cuh
/// and selective_scan_common.h SSMScanOp<float>) per channel, state element and token, in FP32
/// lane slots: delta x A (1), exp2f (sfu), B x delta u (1), the scan operator's multiply and FMA
/// (2), the read-out's FMA with C (1). The block scan's warp shuffles across threads are left out
/// (a few per thread's items).
constexpr double selective_scan_slots(double sfu) { return 5.0 + sfu; }

/// Mamba-2's SSD intra-chunk decay (state-spaces/mamba mamba_ssm/ops/triton/ssd_chunk_scan.py
/// _chunk_scan_fwd_kernel): for every element of the masked C B^T tile, per head, the kernel
/// computes on the CUDA cores cb x exp(min(dA_cs_m - dA_cs_k, 0)) x dt_k, masks it and converts it
/// to 16 bits before tl.dot: subtract, minimum, the exp's scaling by log2 e, two multiplies and
/// the select (6 slots), the exp2 and the conversion (sfu each).
constexpr double ssd_decay_slots(double sfu) { return 6.0 + 2.0 * sfu; }


/// One kernel of a chunked scan (Mamba-2's SSD, fla's gated delta rule), per token on one rank:
/// its tensor-core FLOPs, its CUDA-core work (FP32 lane slots) and the bytes it reads and writes
/// in HBM; `triton`: a Triton kernel, launched from Python at step_assumptions::
/// triton_launch_time (false: a PyTorch op, whose dispatcher's host cost is not counted).
struct scan_kernel_work {
  double tensor = 0.0, slots = 0.0, bytes = 0.0;
  bool triton = true;
};

/// The five forward kernels of Mamba-2's SSD as mamba_ssm runs them
/// (ssd_combined.py _mamba_chunk_scan_combined_fwd; Megatron-Core's MambaMixer calls it with
/// z = None, its gated norm apart), per token on one rank of h heads of P channels, g groups of
/// B and C of N states, chunks of Q = ssd_chunk_tokens (flops.hpp), e bytes per activation:
///   chunk_cumsum: reads dt, writes dt and its cumulative sum dA_cumsum in fp32;
///   chunk_state: the chunk states B^T X (2 h P N FLOPs), reads x, B, dt, dA_cumsum, writes the
///     states in fp32 (states_in_fp32=True: h P N / Q per token);
///   state_passing: reads the fp32 states, writes the passed states in 16 bits (C's dtype);
///   bmm_chunk: C B^T per group over the whole chunk (not masked: 2 g Q N), written in fp32;
///   chunk_scan: C times the passed states (2 h N P) and the masked, decayed C B^T times x
///     (2 h Qc P, Qc = (Q + 1) / 2 keys per token), the decay on the CUDA cores (ssd_decay_slots
///     per element, sfu slots a special function); reads C B^T, x, C, the states, dt and
///     dA_cumsum, writes y.
/// B, C and C B^T are shared by a group's heads: the heads' re-reads are taken from L2 (a group's
/// C B^T for a micro-batch is b s Q x 4 bytes, 2 MiB at 4K tokens), HBM reads each once.
constexpr std::array<scan_kernel_work, 5> ssd_forward_kernels(const linear_mixer_spec& x, double tp,
                                                              double e, double sfu) {
  const double h = x.heads / tp, g = x.groups / tp, p = x.head_dim, n = x.state_size;
  const double q = ssd_chunk_tokens, qc = (q + 1.0) / 2.0, f = fp32_bytes;
  const double states = h * p * n / q;  // chunk-state elements per token
  return {{
      {0.0, 0.0, h * (e + 2.0 * f)},
      {2.0 * h * p * n, 0.0, h * p * e + g * n * e + 2.0 * f * h + f * states},
      {0.0, 0.0, (f + e) * states},
      {2.0 * g * q * n, 0.0, 2.0 * g * n * e + f * g * q},
      {2.0 * h * n * p + 2.0 * h * qc * p, h * qc * ssd_decay_slots(sfu),
       f * g * q + 2.0 * h * p * e + g * n * e + e * states + 2.0 * f * h},
  }};
}

/// The chunked gated delta rule as Megatron-Core's GatedDeltaNet (megatron/core/ssm/
/// gated_delta_net.py) runs it: fla.modules.l2norm on q and k at the key heads, q and k
/// repeat_interleave'd to the value heads, then flash-linear-attention's chunk_gated_delta_rule
/// (use_qk_l2norm_in_kernel=False). fla version: v0.3.2 (fla-org, 2025-09-10), the release of
/// Qwen3-Next's launch, which transformers' Qwen3NextGatedDeltaNet calls; vLLM's copy
/// (vllm/model_executor/layers/fla/ops/chunk.py) runs the same forward kernels. Chunks of
/// gated_delta_chunk_tokens (64). CUDA-core work in FP32 lane slots (sfu a special function, as
/// for the SSD; fla's exp is tl.exp, an exp2 after a multiply by log2 e):
///   chunk_scaled_dot_kkt_fwd_kernel, per element of the k k^T tile: g_i - g_j, the log2 e
///   scaling, the multiplies by the decay and by beta, the mask's select (5) and the exp2 (A is
///   stored in fp32, no conversion).
constexpr double gated_delta_kkt_slots(double sfu) { return 5.0 + sfu; }
///   chunk_fwd_kernel_o (fla/ops/common/chunk_o.py), per element of the q k^T tile: g_i - g_j,
///   the log2 e scaling, the multiply, the select (4), the exp2 and the conversion to 16 bits
///   before tl.dot (sfu each): ssd_decay_slots without its minimum and dt.
constexpr double gated_delta_decay_slots(double sfu) { return 4.0 + 2.0 * sfu; }
///   merge_16x16_to_64x64_inverse_kernel (fla/ops/utils/solve_tril.py), per chunk and head: the
///   four diagonal 16 x 16 blocks inverted by forward substitution, 14 rows each, every row a
///   16 x 16 multiply, its reduction's add and the select (3 slots an element), then 16 tl.dot
///   of 16 x 16 x 16 in fp32 at FLA_TRIL_PRECISION's default 'ieee' (no tensor cores: one FMA
///   slot a multiply-add).
inline constexpr double gated_delta_tril_slots =
    4.0 * 14.0 * 16.0 * 16.0 * 3.0 + 16.0 * 16.0 * 16.0 * 16.0;
/// The forward kernels of Megatron-Core's gated delta rule, per token on one rank of g key heads
/// and h value heads of key width K and value width V, chunks of BT = gated_delta_chunk_tokens,
/// e bytes per activation, the log decay g in fp32 (Megatron computes it so), beta in 16 bits:
///   l2norm on q, then on k (fla.modules.l2norm): reads and writes K per key head, an fp32 rstd;
///   repeat_interleave of q, then of k: reads g K, writes h K (not launched when h = g);
///   chunk_local_cumsum: the fp32 log decay in and out;
///   chunk_scaled_dot_kkt_fwd: k k^T over the whole chunk tile (2 BT K), decayed and scaled by
///     beta (gated_delta_kkt_slots a tile element); reads k, g, beta, writes A (BT) in fp32;
///   solve_tril: torch.zeros_like fills the inverse (BT in 16 bits), then the merge kernel reads
///     A in fp32 and writes (I + A)^-1 in 16 bits (gated_delta_tril_slots per chunk);
///   recompute_w_u_fwd: w = A (beta k exp g), u = A (beta v) (2 BT (K + V)); reads k, v, beta,
///     A, g, writes w and u;
///   chunk_gated_delta_rule_fwd_h: along the chunks, v_new = u - w h and h += k^T v_new (4 K V);
///     reads k, w, u, g, writes each chunk's state (K V per chunk, in k's 16 bits) and v_new;
///   chunk_fwd_o: q h (2 K V), q k^T over the chunk tile (2 BT K) decayed (gated_delta_decay_slots
///     a tile element), times v_new (2 BT V); reads q, k, v_new, the states, g, writes o.
constexpr std::array<scan_kernel_work, 11> gated_delta_forward_kernels(const linear_mixer_spec& x,
                                                                       double tp, double e,
                                                                       double sfu) {
  const double h = x.heads / tp, g = x.groups / tp, kd = x.state_size, v = x.head_dim;
  const double bt = gated_delta_chunk_tokens, f = fp32_bytes;
  const double states = kd * v / bt;  // chunk-state elements per token and head
  const scan_kernel_work l2norm{0.0, 0.0, g * (2.0 * e * kd + f)};
  const scan_kernel_work repeat{0.0, 0.0, h > g ? e * kd * (g + h) : 0.0, false};
  return {{
      l2norm,
      l2norm,
      repeat,
      repeat,
      {0.0, 0.0, 2.0 * f * h},
      {2.0 * h * bt * kd, h * bt * gated_delta_kkt_slots(sfu), h * (e * kd + f + e + f * bt)},
      {0.0, 0.0, h * e * bt, false},
      {0.0, h * gated_delta_tril_slots / bt, h * (f + e) * bt},
      {2.0 * h * bt * (kd + v), 0.0, h * (2.0 * e * (kd + v) + e + e * bt + f)},
      {4.0 * h * kd * v, 0.0, h * (2.0 * e * (kd + v) + f + e * states)},
      {2.0 * h * (kd * v + bt * kd + bt * v), h * bt * gated_delta_decay_slots(sfu),
       h * (2.0 * e * (kd + v) + f + e * states)},
  }};
}

/// The backward's gradient kernels, per token on one rank (gated_delta_forward_kernels' names),
/// as fla v0.3.2's chunk_gated_delta_rule_bwd runs them after recomputing recompute_w_u_fwd and
/// chunk_gated_delta_rule_fwd_h, then the backward of Megatron's repeats and l2norms:
///   chunk_bwd_dv_local: k q^T over the tile and its product with do (2 BT (K + V)); reads q, k,
///     g, do, writes dv;
///   chunk_gated_delta_rule_bwd_dhu: along the chunks backward, dv += k dh, dh += q^T do - w^T dv
///     (6 K V); reads q, k, w, g, do, dv, writes each chunk's dh (16 bits) and dv;
///   chunk_bwd_dqkwg: do v^T, do h, v dh, dv h, q k^T, ds k, ds^T q (6 K V + 2 BT V + 6 BT K);
///     reads v_new, do, dv, q, k, g and the chunks' h and dh, writes dq, dk, dw and dg in fp32;
///   prepare_wy_repr_bwd: dA from dw and du, dk and dv through A, dA through A twice, k beta k^T
///     again and dk through dA (2 BT (5 K + 2 V + 2 BT)); reads k, v, beta, g, A, dw, du, writes
///     dk, dv, dbeta and dg in fp32;
///   dk.add_ and dg.add_ (read two, write one), the reverse chunk_local_cumsum of dg in fp32;
///   the repeats' backward (sums h K into g K, not launched when h = g) and l2norm_bwd (reads y,
///     rstd and dy, writes dx at the key heads), for q and for k.
/// The three kernels with a chunk tile (dv_local, dqkwg, wy_bwd) decay and mask it on the CUDA
/// cores, gated_delta_decay_slots a tile element.
constexpr std::array<scan_kernel_work, 11> gated_delta_gradient_kernels(
    const linear_mixer_spec& x, double tp, double e, double sfu) {
  const double h = x.heads / tp, g = x.groups / tp, kd = x.state_size, v = x.head_dim;
  const double bt = gated_delta_chunk_tokens, f = fp32_bytes;
  const double states = kd * v / bt;
  const double tile = h * bt * gated_delta_decay_slots(sfu);
  const scan_kernel_work repeat{0.0, 0.0, h > g ? e * kd * (g + h) : 0.0, false};
  const scan_kernel_work l2norm{0.0, 0.0, g * (3.0 * e * kd + f)};
  return {{
      {2.0 * h * bt * (kd + v), tile, h * (e * (2.0 * kd + 2.0 * v) + f)},
      {6.0 * h * kd * v, 0.0, h * (e * (3.0 * kd + 3.0 * v) + f + e * states)},
      {2.0 * h * (3.0 * kd * v + bt * v + 3.0 * bt * kd), tile,
       h * (e * (3.0 * v + 5.0 * kd) + 2.0 * f + 2.0 * e * states)},
      {2.0 * h * bt * (5.0 * kd + 2.0 * v + 2.0 * bt), tile,
       h * (e * (3.0 * kd + 3.0 * v + 2.0 + bt) + 2.0 * f)},
      {0.0, 0.0, 3.0 * e * h * kd, false},
      {0.0, 0.0, 3.0 * f * h, false},
      {0.0, 0.0, 2.0 * f * h},
      repeat,
      repeat,
      l2norm,
      l2norm,
  }};
}

/// Whether a kernel of `w` is launched: one without work is not (a repeat_interleave when the
/// key heads equal the value heads).
constexpr bool launched(const scan_kernel_work& w) {
  return w.tensor != 0.0 || w.slots != 0.0 || w.bytes != 0.0;
}

/// Mamba-1's fused selective scan (one CUDA kernel, no tensor cores) per token on one rank of
/// `inner` channels of `state` states: selective_scan_slots per channel and state on the CUDA
/// cores; reads x, delta, z, B and C, writes y (e bytes each).
constexpr scan_kernel_work selective_scan_work(const linear_mixer_spec& x, double tp, double e,
                                               double sfu) {
  const double inner = x.inner / tp;
  return {0.0, inner * x.state_size * selective_scan_slots(sfu),
          e * (4.0 * inner + 2.0 * x.state_size), false};
}

/// The forward's memory-bound kernels around the scan, bytes per token on one rank (e bytes an
/// activation): the causal conv1d (Dao-AILab causal-conv1d, the SiLU fused; depthwise over the
/// conv channels) reads and writes them; the gated norm (Mamba-2's RMSNormGated, Gated
/// DeltaNet's gated RMSNorm) reads y and z and writes its output (Mamba-1 gates inside its scan).
constexpr double conv1d_forward_bytes(const linear_mixer_spec& x, double tp, double e) {
  return 2.0 * e * x.conv_dim() / tp;
}
constexpr double gated_norm_forward_bytes(const linear_mixer_spec& x, double tp, double e) {
  return x.kind == linear_mixer_kind::mamba ? 0.0 : 3.0 * e * x.inner / tp;
}

}  // namespace gpuplan::detail
