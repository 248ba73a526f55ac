// gpuplan/models/serving.hpp: latency and throughput of LLM serving on a GPU layout.
//
// One forward step of the engine is costed kernel by kernel on the most loaded GPU of each
// pipeline stage (kernels.hpp): the Q/K/V, output and FFN GEMMs (MoE: the experts the step's
// tokens touch, split by tensor or expert parallelism), attention (prefill: FLOPs at the flash
// kernel's fraction; decode: each sequence's KV read, once per KV head for a grouped kernel or
// once per query head for TensorRT-LLM's pre-XQA kernel), the element-wise kernels (norms,
// rotary, residual, activation), the LM head, two tensor-parallel all-reduces per layer (or the
// MoE all-to-alls), the pipeline hand-offs (collectives.hpp), and the engine's per-step host
// time. From the step:
//
//   TTFT  prefill of the prompt (chunked or not), plus waiting for the step in flight
//   TPOT  one decode step of the running batch (continuous batching: with the prefill chunks
//         of arriving requests mixed in), = ITL
//   tokens/s  decoding sequences / step time, per replica, per GPU and for all replicas
//
// Continuous batching is modelled in steady state: with concurrency N and a request mix of mean
// input I and output O, requests finish at N / (O x step) per second and as many start, so each
// step carries N decode tokens and N x I / O prompt tokens. The KV cache (inference_memory.hpp,
// by engine) caps N. Static batching (TensorRT-LLM's session benchmark) prefills a batch and
// decodes it to the end. Speculative decoding (an MTP module or a draft model) is modelled by its
// acceptance rate (speculative_decoding). The plan these functions read, serving_plan, is
// models/serving_plan.hpp's.
#pragma once

#include <gpuplan/models/collectives.hpp>
#include <gpuplan/models/flops.hpp>
#include <gpuplan/models/inference_memory.hpp>
#include <gpuplan/models/kernels.hpp>
#include <gpuplan/models/queueing.hpp>
#include <gpuplan/models/scan_kernels.hpp>
#include <gpuplan/models/serving_plan.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/inplace_vector.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/network.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/specs/serving.hpp>
#include <gpuplan/specs/transformer.hpp>
#include <gpuplan/units.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

namespace gpuplan {

/// The work of one engine step on one replica.
struct step_work {
  double prefill_tokens = 0.0;     ///< prompt tokens processed in this step
  double prefill_keys = 0.0;       ///< mean keys each of them attends to (causal: (I + 1) / 2)
  double prefill_sequences = 0.0;  ///< prompts that finish in this step (rows of the LM head)
  double decode_sequences = 0.0;   ///< sequences that each decode one token
  double decode_context = 0.0;     ///< mean tokens already in their KV cache
};

/// The time of one step on one replica, by part (summed over the pipeline stages).
struct serving_step {
  duration gemm{};           ///< linear layers (and the MoE router and experts)
  duration attention{};      ///< attention kernels (prefill and decode)
  duration elementwise{};    ///< norms, rotary, residual, activation
  duration lm_head{};        ///< final norm and logits (last stage)
  duration communication{};  ///< TP all-reduces and PP hand-offs
  duration overhead{};       ///< the engine's host time per step
  duration slowest_stage{};  ///< the longest pipeline stage (compute + its communication)
  duration compute_floor{};  ///< the kernels' compute times summed (the compute floor)
  duration memory_floor{};   ///< the kernels' memory times summed (the bandwidth floor)
  duration gemm_math{};      ///< the linear layers' math at the large-GEMM fraction (the
                             ///< experts' at their grouped kernel's, moe_gemm_fraction)
  duration gemm_memory{};    ///< and their memory time (weights and activations)

  /// Latency of the step through every stage.
  [[nodiscard]] constexpr duration total() const {
    return gemm + attention + elementwise + lm_head + communication + overhead;
  }
  [[nodiscard]] constexpr bool compute_bound() const { return compute_floor > memory_floor; }
};

namespace detail {

/// Precision the GEMMs compute in, and whether the weights are dequantised in the kernel.
struct gemm_path {
  precision math = precision::bf16;
  bool dequant = false;
  double weight_bytes = 2.0;  ///< per weight, with group scales
};

/// The GEMM path of the routed experts (`expert`) or of the other linear layers: with
/// inference_config::quant_experts_only (gpt-oss's MXFP4 experts), only the experts' weights
/// are quantised; the rest are 16-bit and multiply without dequantisation.
constexpr gemm_path linear_path(const serving_plan& p, bool expert = true) {
  gemm_path g{};
  g.math = p.compute_dtype;
  if (p.config.quant_experts_only && !expert) {
    g.weight_bytes = unquantised_weight_bytes(p.config);
    g.dequant = false;
    return g;
  }
  g.weight_bytes = quantised_weight_bytes(p.config);
  const double w = bytes_per_element(p.config.weight_dtype).in(units::B);
  const double c = bytes_per_element(p.compute_dtype).in(units::B);
  g.dequant = w < c;
  return g;
}

/// Adds a kernel's times to a step's floors.
struct accumulator {
  duration total{};
  duration compute{};
  duration memory{};
  duration math{};
  constexpr void add(const kernel_time& k, double times = 1.0) {
    total = total + times * k.total;
    compute = compute + times * k.compute;
    memory = memory + times * k.memory;
    math = math + times * k.math;
  }
  /// Another accumulator's kernels, `times` over (negative: taken out).
  constexpr void add_all(const accumulator& a, double times = 1.0) {
    add(kernel_time{a.compute, a.memory, a.total, a.math}, times);
  }
};

/// Expected distinct experts that `tokens` tokens touch when each picks k of E at random:
/// E x (1 - (1 - k / E)^tokens).
constexpr double experts_touched(double experts, double k, double tokens) {
  if (!(tokens > 0.0) || !(experts > 0.0)) return 0.0;
  const double miss = 1.0 - k / experts;
  return experts * (1.0 - (miss > 0.0 ? cpow(miss, tokens) : 0.0));
}

/// The expected largest of n independent standard normal variables,
/// E[max] = integral of x n phi(x) Phi(x)^(n-1) dx: the trapezoid rule on a grid of 1/64 over
/// [-8, 8], Phi accumulated along the grid from phi by Simpson's rule (0 for n <= 1).
constexpr double expected_max_standard_normal_quadrature(int n) {
  if (n <= 1) return 0.0;
  constexpr double h = 1.0 / 64.0, inv_sqrt_2pi = 0.39894228040143267794;
  auto phi = [](double x) { return inv_sqrt_2pi * cexp(-0.5 * x * x); };
  auto f = [n](double x, double p, double c) { return x * n * p * cpow(c, n - 1.0); };
  double x = -8.0, p = phi(x), c = 0.0, sum = 0.0;  // Phi(-8) = 6e-16: 0
  double last = f(x, p, c);
  for (int i = 0; i < 1024; ++i) {
    const double next = x + h, pn = phi(next);
    c += h / 6.0 * (p + 4.0 * phi(x + h / 2.0) + pn);
    const double fn = f(next, pn, c > 1.0 ? 1.0 : c);
    sum += h / 2.0 * (last + fn);
    x = next;
    p = pn;
    last = fn;
  }
  return sum;
}

/// At run time each n up to 1024 is integrated once per thread: a search times thousands of steps
/// of the same few ep degrees, and the quadrature (3,000 exponentials) doubled its time.
inline double expected_max_standard_normal_memo(int n) {
  static thread_local double memo[1025] = {};  // 0: not integrated yet
  if (n < 2 || n > 1024) return expected_max_standard_normal_quadrature(n);
  double& v = memo[n];
  if (!(v > 0.0)) v = expected_max_standard_normal_quadrature(n);
  return v;
}

/// expected_max_standard_normal_quadrature, memoised at run time.
constexpr double expected_max_standard_normal(int n) {
  if (std::is_constant_evaluated()) return expected_max_standard_normal_quadrature(n);
  return expected_max_standard_normal_memo(n);
}

/// The expected load of the busiest of `ranks` expert-parallel ranks over their mean load,
/// when each of `tokens` tokens picks k distinct experts of `experts` at random and a rank holds
/// experts / ranks of them (uniform routing: EPLB's aim). A rank's count is a sum over the tokens
/// of hypergeometric draws, mean k / R and variance k (1/R)(1 - 1/R)(E - k)/(E - 1), about
/// normal over many tokens; the busiest rank's is the mean plus sigma times the expected largest
/// of R standard normals (the ranks taken as independent), and at most tokens x min(k, E / R)
/// (every token's picks on one rank). Times `skew`, serving_assumptions::ep_load_skew (the
/// residual beyond uniform). 1 on one rank or with no tokens.
constexpr double ep_busiest_rank_factor(double tokens, double k, double experts, int ranks,
                                        double skew) {
  if (ranks <= 1 || !(tokens > 0.0) || !(k > 0.0) || !(experts > k)) return 1.0;
  const double r = ranks, mean = tokens * k / r;
  const double var = tokens * k * (1.0 / r) * (1.0 - 1.0 / r) * (experts - k) / (experts - 1.0);
  double busiest = mean + csqrt(var) * expected_max_standard_normal(ranks);
  const double per_rank = experts / r < k ? experts / r : k;
  if (busiest > tokens * per_rank) busiest = tokens * per_rank;
  return skew * busiest / mean;
}

/// The experts a step touches on one GPU (`groups` of them, `rows` routed rows each, a mean of
/// `lambda` tokens per expert, each `f` wide): one grouped GEMM each for gate/up and for down
/// (vLLM's fused_moe, Marlin MoE, DeepGEMM) whose tiles fill the GPU together, as one GEMM whose
/// output holds every touched expert's columns (the same weight bytes, one launch), at the
/// grouped kernel's own fraction of the peak where the GPU has one (moe_gemm_fraction; it
/// includes the dequantisation), else a dense GEMM's. Its rows: the routed rows times the work
/// each costs in the engine's tiles (moe_row_factor: the padding only where the tile shows).
constexpr void grouped_expert_gemms(accumulator& gemm, const serving_plan& p, double rows,
                                    double f, double groups, double lambda) {
  if (!(groups > 0.0) || !(rows > 0.0)) return;
  const gpu_spec& gpu = p.node.gpu;
  const roofline_assumptions& ka = p.assumptions.kernels;
  const gemm_path x = linear_path(p, true);
  const double h = p.model.hidden, act = p.assumptions.activation_bytes;
  const double own = moe_gemm_fraction(x.math, x.dequant, gpu, ka);
  const bool dq = x.dequant && !(own > 0.0);
  if (own > 0.0)
    rows *= moe_row_factor(lambda, p.model.moe.experts_per_token, x.dequant, own,
                           gemm_fraction(x.math, gpu, ka), ka);
  const double up = (p.model.ffn_type == ffn_kind::gated ? 2.0 * f : f) * groups;
  gemm.add(gemm_time(rows, h, up, x.math, x.weight_bytes, act, dq, gpu, ka, own));  // gate, up
  gemm.add(gemm_time(rows, f, h * groups, x.math, x.weight_bytes, act, dq, gpu, ka, own));
}

/// One transformer layer's kernels on one GPU for the step: GEMMs, attention, element-wise.
struct serving_layer_cost {
  accumulator gemm{};
  accumulator attention{};
  accumulator elementwise{};
};

/// Keys a query of a windowed layer attends to, given the keys it would attend to without the
/// window: at most the window (sliding), or about half a chunk (chunked attention).
constexpr double windowed_keys(const transformer_spec& m, double keys) {
  const double w = m.sliding_window;
  if (m.window == window_kind::chunked) return keys < w / 2.0 ? keys : w / 2.0;
  return keys < w ? keys : w;
}

/// One layer's attention kernels on one GPU for the step: prefill's queries against their keys,
/// and decode's, each sequence's cache read once for its `queries` queries (verification).
constexpr accumulator serving_attention_time(const serving_plan& p, const step_work& w,
                                             double queries) {
  const transformer_spec& m = p.model;
  const gpu_spec& gpu = p.node.gpu;
  const roofline_assumptions& ka = p.assumptions.kernels;
  const double act = p.assumptions.activation_bytes;
  const double t = p.layout.tp;
  const double hd = m.head_dim;
  const double q = m.heads * hd / t;
  // K and V elements per token a rank caches and reads (MLA: the whole latent, on every rank)
  const double kv = kv_elements_per_rank(m, memory_layout(p)) / 2.0;
  accumulator c{};
  // Attention. Math in 8 bits only when both the GEMMs and the KV cache are 8-bit (FP8
  // attention kernels); otherwise 16-bit.
  const precision amath =
      (p.compute_dtype == precision::fp8 && p.config.kv_dtype == precision::fp8) ? precision::fp8
                                                                                 : precision::bf16;
  const double kv_bytes = 2.0 * kv * bytes_per_element(p.config.kv_dtype).in(units::B);
  const compute_rate peak = gpu.peak.tensor(amath).value > 0.0 ? gpu.peak.tensor(amath)
                                                                : gpu.peak.tensor(precision::fp16);
  // FLOPs per key of a query on this rank: 4 x heads x head_dim / tp for standard attention;
  // MLA's prefill and its absorbed decode (models/flops.hpp)
  const double prefill_per_key = attention_flops_per_key(m) / t;
  const double decode_per_key = decode_attention_flops_per_key(m) / t;
  if (w.prefill_tokens > 0.0) {
    const compute_amount f = prefill_per_key * w.prefill_keys * w.prefill_tokens * units::FLOP;
    const compute_rate r = attention_fraction(w.prefill_keys, ka) * peak;
    // reads Q and the keys' K and V once per query tile; writes the output and the new K and V
    const data_size bytes = w.prefill_tokens * (2.0 * q * act + kv_bytes) * units::B;
    c.add(roofline(f, r, bytes, gpu, ka));
  }
  if (w.decode_sequences > 0.0) {
    const double keys = w.decode_context + 1.0;
    const compute_amount f = decode_per_key * keys * w.decode_sequences * queries * units::FLOP;
    // MLA's one latent serves every head: its kernels (FlashMLA, FlashInfer MLA) read it once
    const bool per_head = p.assumptions.decode_attention == decode_attention_kernel::per_query_head &&
                          !m.is_mla();
    // A per-query-head kernel (one thread block per query head and sequence, kv_head = head /
    // group) loads its KV head's cache once for each query head of the group and does the dot
    // products in fp32 on the CUDA cores; a grouped kernel loads each KV head once.
    const double loads = per_head ? q / kv : 1.0;
    if (per_head)
      detail::check_input(gpu.peak.fp32_vector.value > 0.0,
                          "gpu.peak.fp32_vector is unknown: a per-query-head decode attention "
                          "kernel (serving_assumptions::decode_attention) runs on the CUDA cores");
    const compute_rate r =
        per_head ? p.assumptions.per_query_head_vector_fraction * gpu.peak.fp32_vector
                 : ka.attention_fraction * peak;
    // the cache is read once per sequence for all its queries (verification kernels)
    const data_size bytes =
        w.decode_sequences * (keys * kv_bytes * loads + 2.0 * q * act * queries) * units::B;
    c.add(roofline(f, r, bytes, gpu, ka));
  }
  return c;
}

/// The forward kernels of a chunked prefill of `tokens` tokens (`prompts` prompts) on one rank,
/// as the engines run them: vLLM's and SGLang's Mamba-2 prefill calls mamba_ssm's
/// mamba_chunk_scan_combined (their copies of its Triton kernels), their gated delta rule fla's
/// chunk_gated_delta_rule, their Mamba-1 selective_scan_fn. Timed kernel by kernel as the
/// training step's forward (models/scan_kernels.hpp, one description of the kernels for both):
/// the causal conv1d, the scan's kernels (tensor-core products at the 16-bit GEMM rate plus the
/// CUDA-core decays at the fp32 lanes' rate, against their bytes), the gated norm, and each
/// prompt's final state written into the cache (`state` bytes). `runs`: the share of the steps
/// that run these kernels (below 1 where a steady-state step carries a fraction of a prompt).
constexpr accumulator prefill_mixer_time(const serving_plan& p, double tokens, double prompts,
                                         double state, double runs) {
  const linear_mixer_spec& x = p.model.linear;
  const gpu_spec& gpu = p.node.gpu;
  const roofline_assumptions& ka = p.assumptions.kernels;
  const double tp = p.layout.tp, e = p.assumptions.activation_bytes;
  const double sfu = special_function_slots(gpu);
  const double tensor =
      gemm_fraction(precision::bf16, gpu, ka) * gpu.peak.tensor(precision::bf16).value;
  detail::check_input(tensor > 0.0 || x.kind == linear_mixer_kind::mamba,
                      "gpu.peak.tensor(bf16) is unknown: a chunked scan's prefill runs its "
                      "products on the tensor cores");
  const double slots = gpu.peak.fp32_vector.value / 2.0;  // an FMA counts 2 FLOPs
  accumulator c{};
  auto kernel = [&](const scan_kernel_work& k) {
    if (!launched(k)) return;
    const double math = (k.tensor > 0.0 ? k.tensor / tensor : 0.0) + k.slots / slots;
    c.add(roofline_time(tokens * math * units::s, tokens * k.bytes * units::B, gpu, ka), runs);
  };
  kernel({0.0, 0.0, conv1d_forward_bytes(x, tp, e), false});
  if (x.kind == linear_mixer_kind::mamba2)
    for (const scan_kernel_work& k : ssd_forward_kernels(x, tp, e, sfu)) kernel(k);
  else if (x.kind == linear_mixer_kind::mamba)
    kernel(selective_scan_work(x, tp, e, sfu));
  else
    for (const scan_kernel_work& k : gated_delta_forward_kernels(x, tp, e, sfu)) kernel(k);
  kernel({0.0, 0.0, gated_norm_forward_bytes(x, tp, e), false});
  c.add(roofline(compute_amount{}, compute_rate{}, prompts * state * units::B, gpu, ka), runs);
  return c;
}

/// One linear-mixer layer's scan on one GPU for the step. Prefill: its chunked kernels
/// (prefill_mixer_time). Decode: the recurrent update of every token at the fp32 CUDA-core rate
/// (serving_assumptions::state_update_vector_fraction), and its memory: each sequence's state
/// read and written once per step, and the mixer's input (x, B, C: the conv channels) and output
/// (inner) per token.
constexpr accumulator serving_recurrence_time(const serving_plan& p, const step_work& w,
                                              double queries) {
  const transformer_spec& m = p.model;
  const gpu_spec& gpu = p.node.gpu;
  const double t = p.layout.tp, act = p.assumptions.activation_bytes;
  detail::check_input(gpu.peak.fp32_vector.value > 0.0,
                      "gpu.peak.fp32_vector is unknown: a linear mixer's state update "
                      "(serving_assumptions::state_update_vector_fraction) runs on the CUDA cores");
  const double state = state_elements_per_rank(m, p.layout.tp) *
                       bytes_per_element(p.config.state_dtype).in(units::B);
  const double per_token = recurrence_flops_per_layer(m) / t;
  const double io = (m.linear.conv_dim() + m.linear.inner) / t * act;
  const compute_rate r = p.assumptions.state_update_vector_fraction * gpu.peak.fp32_vector;
  accumulator c{};
  if (w.prefill_tokens > 0.0) {
    // A steady-state step carries the prefills' mean share: where it finishes less than one
    // prompt, the kernels of one prompt's prefill run in that share of the steps (each kernel's
    // launch floor once a prompt, not once a step); else every step runs them over its prompts.
    const double runs =
        w.prefill_sequences > 0.0 && w.prefill_sequences < 1.0 ? w.prefill_sequences : 1.0;
    const double prompts = w.prefill_sequences > 1.0 ? w.prefill_sequences : 1.0;
    c = prefill_mixer_time(p, w.prefill_tokens / runs, prompts, state, runs);
  }
  if (w.decode_sequences > 0.0) {
    const double tokens = w.decode_sequences * queries;
    c.add(roofline(per_token * tokens * units::FLOP, r,
                   (2.0 * w.decode_sequences * state + tokens * io) * units::B, gpu,
                   p.assumptions.kernels));
  }
  return c;
}

/// One transformer layer's kernels on one GPU for the step (`windowed`: a sliding or chunked
/// attention layer; `draft`: the speculative draft module, one query per sequence). `layer`:
/// what it holds (transformer_spec::pattern): attention and/or a linear mixer, and an FFN.
constexpr serving_layer_cost serving_layer_time(const serving_plan& p, step_work w,
                                                bool moe_layer, bool windowed = false,
                                                bool draft = false, char layer = 'A') {
  const transformer_spec& m = p.model;
  const bool attention = layer == 'A' || layer == 'a', linear = layer == 'L' || layer == 'l';
  const bool has_ffn = layer == 'A' || layer == 'L' || layer == 'F';
  // a verifying step runs 1 + draft_tokens queries per decoding sequence; the draft module one
  const double queries = draft ? 1.0 : p.speculation.queries_per_step();
  if (windowed) {
    w.prefill_keys = windowed_keys(m, w.prefill_keys);
    w.decode_context = windowed_keys(m, w.decode_context + 1.0) - 1.0;
  }
  const gpu_spec& gpu = p.node.gpu;
  const roofline_assumptions& ka = p.assumptions.kernels;
  const gemm_path dense_path = linear_path(p, false);
  const double act = p.assumptions.activation_bytes;
  const double t = p.layout.tp;
  const double tokens = w.prefill_tokens + w.decode_sequences * queries;
  const double h = m.hidden, hd = m.head_dim;
  const double q = m.heads * hd / t;
  // K and V elements per token a rank caches and reads (MLA: the whole latent, on every rank)
  const double kv = kv_elements_per_rank(m, memory_layout(p)) / 2.0;
  const bool gated = m.ffn_type == ffn_kind::gated;
  serving_layer_cost c{};
  auto gemm = [&](double rows, double k, double n, double times = 1.0) {
    const gemm_path& path = dense_path;
    if (rows > 0.0) c.gemm.add(gemm_time(rows, k, n, path.math, path.weight_bytes, act,
                                         path.dequant, gpu, ka), times);
  };
  if (attention && m.is_mla()) {
    // MLA's projections (transformer_spec::mla): the down-projections replicated on every
    // rank, the up-projections split by heads. kv_b_proj's weights serve prefill (K and V
    // expanded per token) and decode (absorbed into the query and the output) alike, with the
    // same multiply-adds per token.
    const double heads = m.heads / t, ql = m.mla.q_lora_rank, kvl = m.mla.kv_lora_rank;
    if (ql > 0) {
      gemm(tokens, h, ql);
      gemm(tokens, ql, heads * m.score_head_dim());
    } else {
      gemm(tokens, h, heads * m.score_head_dim());
    }
    gemm(tokens, h, kvl + m.mla.qk_rope_head_dim);
    gemm(tokens, kvl, heads * (m.mla.qk_nope_head_dim + m.mla.v_head_dim));
    gemm(tokens, heads * m.mla.v_head_dim, h);
  } else if (attention) {
    gemm(tokens, h, (m.attention_output_gate ? 2.0 * q : q) + 2.0 * kv);  // fused QKV (+ gate)
    gemm(tokens, q, h);                                                   // output projection
  } else if (linear) {
    const linear_mixer_spec& x = m.linear;
    gemm(tokens, h, m.linear_in_width() / t);  // in_proj
    gemm(tokens, x.inner / t, h);              // out_proj
    if (x.kind == linear_mixer_kind::mamba) {
      gemm(tokens, x.inner / t, x.dt_rank + 2.0 * x.state_size);  // x_proj
      gemm(tokens, x.dt_rank, x.inner / t);                       // dt_proj
    }
  }
  auto ffn = [&](double rows, double f, double times) {
    gemm(rows, h, gated ? 2.0 * f : f, times);  // gate and up (fused)
    gemm(rows, f, h, times);                    // down
  };
  if (moe_layer) {
    const double fe = 1.0 * m.moe.expert_ffn / serving_expert_tp(p);
    const double e = m.moe.experts, k = m.moe.experts_per_token;
    const double touched = experts_touched(e, k, tokens);
    // Expert parallelism: a GPU holds e / ep experts and runs those of them the step touches,
    // in expectation touched / ep; the step waits for the most loaded GPU, which runs at least
    // one whenever any is touched.
    // Its routed rows: the busiest rank's expected load (ep_busiest_rank_factor over the mean
    // tokens x k / ep), and at least a whole touched expert's rows on each group it runs.
    const double ep = serving_ep(p);
    double local = touched / ep;
    if (ep > 1.0 && touched > 0.0 && local < 1.0) local = 1.0;
    if (touched > 0.0) {
      const double busiest =
          ep_busiest_rank_factor(tokens, k, e, serving_ep(p), p.assumptions.ep_load_skew) *
          tokens * k / ep;
      const double floor = tokens * k / touched * local;
      grouped_expert_gemms(c.gemm, p, (busiest > floor ? busiest : floor) / local, fe, local,
                           tokens * k / e);
    }
    const int fs = m.moe.shared_expert_ffn > 0 ? m.moe.shared_expert_ffn : m.moe.expert_ffn;
    if (m.moe.shared_experts > 0) ffn(tokens, m.moe.shared_experts * fs / t, 1.0);
    // router: replicated, 16-bit
    if (tokens > 0.0)
      c.gemm.add(gemm_time(tokens, h, e, precision::bf16, 2.0, act, false, gpu, ka));
  } else if (has_ffn) {
    ffn(tokens, m.ffn / t, 1.0);
  }
  if (attention) c.attention = serving_attention_time(p, w, queries);
  if (linear) c.attention = serving_recurrence_time(p, w, queries);
  // Element-wise kernels: read and write the hidden state of every token.
  if (tokens > 0.0) {
    const kernel_time e = roofline(compute_amount{}, compute_rate{},
                                   2.0 * tokens * h * act * units::B, gpu, ka);
    // a hybrid's layer of one part (a mixer or an FFN alone) runs half of them
    const double parts = (attention || linear ? 1.0 : 0.0) + (has_ffn ? 1.0 : 0.0);
    c.elementwise.add(e, p.assumptions.elementwise_kernels_per_layer * parts / 2.0);
  }
  return c;
}

constexpr collective_group tp_group(const serving_plan& p) {
  return make_group(p.node, p.layout.tp, 1, inter_node_fabric::infiniband, p.assumptions.network);
}

/// One pipeline stage's step: its layers, the LM head on the last stage, two all-reduces per
/// layer, and the hand-off of the hidden states to the next stage.
struct stage_cost {
  accumulator gemm{}, attention{}, elementwise{}, lm_head{};
  duration communication{};
  [[nodiscard]] constexpr duration total() const {
    return gemm.total + attention.total + elementwise.total + lm_head.total + communication;
  }
};

/// Adds `times` layers of cost c to stage s.
constexpr void add_layers(stage_cost& s, const serving_layer_cost& c, double times) {
  s.gemm.add({c.gemm.compute, c.gemm.memory, c.gemm.total, c.gemm.math}, times);
  s.attention.add({c.attention.compute, c.attention.memory, c.attention.total, c.attention.math},
                  times);
  s.elementwise.add(
      {c.elementwise.compute, c.elementwise.memory, c.elementwise.total, c.elementwise.math}, times);
}

/// The output head over `rows` rows on one tensor-parallel rank (16-bit, vocabulary split).
constexpr kernel_time lm_head_time(const serving_plan& p, double rows) {
  return gemm_time(rows, p.model.hidden, 1.0 * p.model.vocab / p.layout.tp, precision::bf16, 2.0,
                   p.assumptions.activation_bytes, false, p.node.gpu, p.assumptions.kernels);
}

/// The draft of a speculative step on the last stage: draft_tokens passes, one after another,
/// of the MTP module for each decoding sequence: its projection of the embedding and the hidden
/// state (2 hidden x hidden), one transformer layer of the last layer's kind and the output
/// head, with the layer's two tensor-parallel all-reduces.
constexpr void add_draft(const serving_plan& p, const step_work& w, stage_cost& s) {
  const transformer_spec& m = p.model;
  const double d = w.decode_sequences, act = p.assumptions.activation_bytes, t = p.layout.tp;
  const step_work dw{.decode_sequences = d, .decode_context = w.decode_context};
  const double times = p.speculation.draft_tokens;
  add_layers(s, serving_layer_time(p, dw, m.is_moe_layer(m.layers - 1), false, true,
                                   m.layer_code(m.layers - 1)),
             times);
  const gemm_path path = linear_path(p, false);
  s.gemm.add(gemm_time(d, 2.0 * m.hidden, m.hidden / t, path.math, path.weight_bytes, act,
                       path.dequant, p.node.gpu, p.assumptions.kernels),
             times);
  s.lm_head.add(lm_head_time(p, d), times);
  if (p.layout.tp > 1) {
    const collective_cost ar = collective_time(collective_kind::all_reduce,
                                               d * m.hidden * act * units::B, tp_group(p),
                                               p.assumptions.collectives);
    s.communication = s.communication + times * 2.0 * ar.total;
  }
}

/// Elements per fp32 scale of an fp8-quantised dispatch: DeepEP's FP8 dispatch carries one
/// scale per 128 channels of each token (deepseek-ai/DeepEP README, low_latency_dispatch), the
/// block size of DeepSeek-V3's fp8 activations (arXiv:2412.19437 Sec. 3.3.2, 1 x 128 tiles).
inline constexpr double dispatch_fp8_scale_group = 128.0;

/// The transport of a step's dispatch and combine (serving_assumptions::moe_a2a): the caller's,
/// or automatic's: under data-parallel attention DeepEP as SGLang's `--deepep-mode auto` resolves
/// it (normal when the step prefills, low_latency when it only decodes), else NCCL.
constexpr moe_a2a_transport a2a_transport(const serving_plan& p, bool prefills) {
  const moe_a2a_transport t = p.assumptions.moe_a2a;
  if (t != moe_a2a_transport::automatic) return t;
  if (!p.dp_attention) return moe_a2a_transport::nccl;
  return prefills ? moe_a2a_transport::deepep_normal : moe_a2a_transport::deepep_low_latency;
}

/// One DeepEP all-to-all of `bytes` per rank (what it sends; the busiest rank receives as
/// much) over group g: the collective model's fixed cost (its launch and the tier's latency:
/// DeepEP's README publishes only whole-call times) and the bytes at the kernel's share of the
/// line rates (serving_assumptions::deepep_*_fraction), no per-message ramp (the kernels write
/// token by token). Inside an NVLink domain the (k - 1)/n S for the other ranks over NVLink;
/// across nodes the low-latency kernels send all of it over RDMA, the normal kernels the
/// (n - k)/n S bound for other nodes over RDMA and the rest over NVLink at once.
constexpr duration deepep_all_to_all_time(const serving_plan& p, const collective_group& g,
                                          double bytes, bool low_latency) {
  const serving_assumptions& a = p.assumptions;
  const double n = g.ranks, k = g.ranks_per_node;
  const bool across = g.crosses_nodes();
  const double fixed =
      a.collectives.launch.value + (across ? g.inter.latency.value : g.intra.latency.value);
  const double nvlink = k > 1.0 ? (k - 1.0) / n * bytes /
                                      (a.deepep_nvlink_fraction * g.intra.per_gpu.value)
                                : 0.0;
  if (!across) return (fixed + nvlink) * units::s;
  const double nic = g.bisection_fraction * g.inter.per_gpu.value;
  if (low_latency) return (fixed + bytes / (a.deepep_low_latency_rdma_fraction * nic)) * units::s;
  const double rdma = (n - k) / n * bytes / (a.deepep_normal_rdma_fraction * nic);
  return (fixed + (rdma > nvlink ? rdma : nvlink)) * units::s;
}

/// An MoE layer's two all-to-alls, each on its own (dispatch_combine_time's terms).
struct dispatch_combine_cost {
  duration dispatch{};
  duration combine{};
};

/// An MoE layer's dispatch and combine over the replica's ep ranks for `tokens` tokens: each
/// rank sends its tokens' k copies to the ranks of their experts and takes the results back,
/// two all-to-alls, each as long as the busiest rank's share: the copies the busiest rank
/// receives (ep_busiest_rank_factor times the mean) or the k copies of the `sent_tokens` the
/// busiest sender holds (0: an even share, tokens / ep), the larger (nccl-tests' size: the
/// buffer each rank sends); over the transport a2a_transport picks (`prefills`: whether the
/// step prefills).
constexpr dispatch_combine_cost dispatch_combine_times(const serving_plan& p, double tokens,
                                                       bool prefills, double sent_tokens = 0.0) {
  const transformer_spec& m = p.model;
  const int ep = serving_ep(p);
  const double act = p.assumptions.activation_bytes, k = m.moe.experts_per_token;
  // fp8 experts take fp8 tokens: the dispatch sends them quantised, one fp32 scale per
  // dispatch_fp8_scale_group elements (DeepEP's low-latency and normal dispatch with FP8, as
  // SGLang and vLLM run fp8 checkpoints); the combine returns 16-bit outputs
  const double sent = p.compute_dtype == precision::fp8
                          ? 1.0 + fp32_bytes / dispatch_fp8_scale_group
                          : act;
  const double busiest =
      ep_busiest_rank_factor(tokens, k, m.moe.experts, ep, p.assumptions.ep_load_skew);
  const double received = busiest * tokens / ep;
  const double copies = (sent_tokens > received ? sent_tokens : received) * k * m.hidden;
  // the ep ranks holding different experts lie serving_expert_tp apart in the tp group
  const collective_group g = make_group(p.node, ep, serving_expert_tp(p),
                                        inter_node_fabric::infiniband, p.assumptions.network);
  const moe_a2a_transport t = a2a_transport(p, prefills);
  auto a2a = [&](double bytes) {
    if (t != moe_a2a_transport::nccl)
      return deepep_all_to_all_time(p, g, copies * bytes,
                                    t == moe_a2a_transport::deepep_low_latency);
    return collective_time(collective_kind::all_to_all, copies * bytes * units::B, g,
                           p.assumptions.collectives)
        .total;
  };
  return {a2a(sent), a2a(act)};
}

/// Their sum: the layer's all-to-all time when nothing hides it.
constexpr duration dispatch_combine_time(const serving_plan& p, double tokens, bool prefills,
                                         double sent_tokens = 0.0) {
  const dispatch_combine_cost c = dispatch_combine_times(p, tokens, prefills, sent_tokens);
  return c.dispatch + c.combine;
}

constexpr stage_cost stage_time(const serving_plan& p, const step_work& w, int k) {
  const transformer_spec& m = p.model;
  stage_cost s{};
  const int first = p.layout.stage_first_layer(m.layers, k);
  const int n = p.layout.stage_layers(m.layers, k);
  // layers by kind: what they hold (transformer_spec::pattern), MoE or dense FFN, windowed or
  // global attention; a tensor-parallel all-reduce after each part (mixer, FFN)
  constexpr char codes[] = {'A', 'L', 'a', 'l', 'F'};
  int kinds[5][2][2] = {};
  double reduces = 0.0;
  for (int i = first; i < first + n; ++i) {
    int c = 0;
    while (c < 4 && codes[c] != m.layer_code(i)) ++c;
    ++kinds[c][m.is_moe_layer(i) ? 1 : 0][m.is_windowed_layer(i) ? 1 : 0];
    reduces += m.layer_parts(i);
  }
  int moe = 0;
  for (int c = 0; c < 5; ++c) {
    moe += kinds[c][1][0] + kinds[c][1][1];
    for (int e = 0; e < 2; ++e)
      for (int win = 0; win < 2; ++win)
        if (kinds[c][e][win] > 0)
          add_layers(s, serving_layer_time(p, w, e == 1, win == 1, false, codes[c]),
                     kinds[c][e][win]);
  }
  const double queries = p.speculation.queries_per_step();
  const double tokens = w.prefill_tokens + w.decode_sequences * queries;
  const double act = p.assumptions.activation_bytes;
  if (p.layout.tp > 1 && tokens > 0.0) {
    const data_size payload = tokens * m.hidden * act * units::B;
    const collective_cost ar =
        collective_time(collective_kind::all_reduce, payload, tp_group(p), p.assumptions.collectives);
    s.communication = s.communication + reduces * ar.total;
    if (moe > 0 && detail::serving_ep(p) > 1 && p.assumptions.moe_all_to_all)
      s.communication =
          s.communication +
          moe * (dispatch_combine_time(p, tokens, w.prefill_tokens > 0.0) - ar.total);
  }
  if (k == p.layout.pp - 1) {
    const double rows = w.prefill_sequences + w.decode_sequences * queries;
    if (p.speculation.on() && w.decode_sequences > 0.0) add_draft(p, w, s);
    if (rows > 0.0) {
      s.lm_head.add(lm_head_time(p, rows));
      if (p.layout.tp > 1) {  // the vocabulary-parallel logits are gathered (fp32); the
                              // nccl-tests size of an all-gather is the gathered whole
        const data_size logits = rows * m.vocab * fp32_bytes * units::B;
        s.communication = s.communication + collective_time(collective_kind::all_gather, logits,
                                                            tp_group(p), p.assumptions.collectives)
                                                .total;
      }
    }
  } else if (tokens > 0.0) {  // hand the hidden states to the next stage
    const collective_group pair =
        make_group(p.node, 2, p.layout.tp, inter_node_fabric::infiniband, p.assumptions.network);
    s.communication = s.communication + collective_time(collective_kind::send_recv,
                                                        tokens * m.hidden * act * units::B, pair,
                                                        p.assumptions.collectives)
                                            .total;
  }
  return s;
}

/// Tokens one step of a replica carries: max_num_batched_tokens, on each rank under
/// data-parallel attention (every rank schedules its own sequences).
constexpr double step_token_budget(const serving_plan& p) {
  return 1.0 * p.config.max_num_batched_tokens * (p.dp_attention ? p.layout.tp : 1);
}

/// Data-parallel attention (serving_plan::dp_attention): one rank's plan for everything but the
/// routed experts -- tensor parallelism 1, every non-expert weight whole, its own sequences.
constexpr serving_plan dp_attention_rank_plan(const serving_plan& p) {
  serving_plan r = p;
  r.dp_attention = false;
  r.layout = {.dp = 1, .tp = 1, .pp = 1};
  return r;
}

/// The work of the most loaded rank when the replica's sequences are spread over `ranks`
/// ranks: an even share when the step carries at least as many sequences as there are ranks,
/// else one sequence's work (a lone prompt is prefilled on the one rank that holds it).
constexpr step_work dp_attention_rank_work(step_work w, double ranks) {
  const double sequences = w.decode_sequences + w.prefill_sequences;
  const double share = sequences >= ranks ? 1.0 / ranks : sequences > 1.0 ? 1.0 / sequences : 1.0;
  w.prefill_tokens *= share;
  w.prefill_sequences *= share;
  w.decode_sequences *= share;
  return w;
}

/// The routed experts' GEMMs of one MoE layer on one GPU of plan p for work w: the layer less
/// the same layer with no expert chosen per token (experts_per_token 0 touches none), so the
/// experts are timed exactly as serving_layer_time times them.
constexpr accumulator routed_expert_gemms(const serving_plan& p, const step_work& w) {
  serving_plan none = p;
  none.model.moe.experts_per_token = 0;
  const accumulator all = serving_layer_time(p, w, true).gemm;
  const accumulator rest = serving_layer_time(none, w, true).gemm;
  return {all.total - rest.total, all.compute - rest.compute, all.memory - rest.memory,
          all.math - rest.math};
}

/// Plan p with its routed experts behind DeepEP on DeepGEMM's grouped kernel
/// (deepep_moe_fraction_8bit) unless the caller set the fp8 figure.
constexpr serving_plan deepep_expert_plan(serving_plan p) {
  roofline_assumptions& k = p.assumptions.kernels;
  if (!(k.moe_fraction_8bit > 0.0)) k.moe_fraction_8bit = k.deepep_moe_fraction_8bit;
  return p;
}

/// One step of a data-parallel-attention replica (pp 1): the most loaded rank's own sequences
/// through attention, the dense layers, the shared experts, the router and the LM head at
/// tensor parallelism 1 (stage_time of dp_attention_rank_plan: no tensor-parallel
/// collectives); in each MoE layer the routed experts of the replica's tokens split over its
/// ep = tp ranks (as serving_layer_time times expert parallelism), with their dispatch and
/// combine all-to-alls.
constexpr stage_cost dp_attention_batch_time(const serving_plan& p, const step_work& w) {
  const transformer_spec& m = p.model;
  const serving_plan rank = dp_attention_rank_plan(p);
  const step_work rw = dp_attention_rank_work(w, p.layout.tp);
  stage_cost s = stage_time(rank, rw, 0);
  const int moe = m.moe_layers();
  const double tokens = w.prefill_tokens + w.decode_sequences * p.speculation.queries_per_step();
  if (moe == 0 || !(tokens > 0.0)) return s;
  // the rank-side stage timed the routed experts as one GPU holding them all for its own
  // tokens: replace them with the replica's tokens over the ep ranks (deepep_expert_plan)
  const accumulator wide = routed_expert_gemms(deepep_expert_plan(p), w),
                    local = routed_expert_gemms(rank, rw);
  s.gemm.add_all(wide, moe);
  s.gemm.add_all(local, -1.0 * moe);
  const double own = rw.prefill_tokens + rw.decode_sequences * p.speculation.queries_per_step();
  s.communication =
      s.communication + moe * dispatch_combine_time(p, tokens, w.prefill_tokens > 0.0, own);
  return s;
}

/// One micro-batch's share of one MoE layer under two-batch overlap (seconds), by the
/// operations of SGLang's DeepSeek layer (python/sglang/srt/operations_strategy.py, May 2025).
struct tbo_layer_work {
  double prep = 0.0;      ///< op_comm_prepare_attn, self_attn.op_prepare: the attention's input
                          ///< projections, and here the layer's element-wise kernels
  double core = 0.0;      ///< self_attn.op_core, mlp.op_gate: the attention kernel, the output
                          ///< projection, the router
  double shared = 0.0;    ///< mlp.op_shared_experts
  double experts = 0.0;   ///< mlp.op_experts: the routed experts over the ep ranks
  double dispatch = 0.0;  ///< in flight from op_dispatch_a to op_dispatch_b, no kernel running
  double combine = 0.0;   ///< in flight from op_combine_a to op_combine_b
};

/// SGLang's per-layer operation order under --enable-two-batch-overlap, one letter per
/// operation of tbo_layer_work: p prep, c core, s shared experts, e routed experts; D and C
/// issue the dispatch and the combine (op_*_a: DeepEP sends and returns), d and x wait for them
/// (op_*_b: the receive hook); '|' a YieldOperation, where the executor runs a stage of the other
/// micro-batch. Decode: _compute_moe_deepseek_blog_decode (tbo_delta_stages 2, op_output and
/// op_comm_postprocess_layer after the last yield, element-wise: in the next layer's p).
inline constexpr char tbo_decode_schedule[] = "p|c|Ds|deC|x|";
inline constexpr int tbo_decode_delta_stages = 2;
/// Prefill: _compute_moe_deepseek_blog_prefill (tbo_delta_stages 0).
inline constexpr char tbo_prefill_schedule[] = "pcD|deC|sx";
inline constexpr int tbo_prefill_delta_stages = 0;

/// `layers` MoE layers of two equal micro-batches as SGLang's executor runs them
/// (two_batch_overlap.py, _execute_two_batch_raw): `delta` stages of the first, then a stage of
/// each in turn, then the second's last `delta`. The GPU runs the kernels one after another in
/// that order; an all-to-all starts when issued once the NIC is free (the micro-batches' all-to-
/// alls share it, one at a time) and its wait stalls the GPU until it is done. Seconds: never
/// less than all kernels or all all-to-alls, the longer; the serial sum when nothing overlaps.
constexpr double tbo_layers_time(const char* schedule, int delta, const tbo_layer_work& l,
                                 int layers) {
  long len = 0;
  while (schedule[len] != '\0') ++len;
  const long total = len * layers;
  struct batch {
    long pos = 0;
    double dispatch = 0.0, combine = 0.0;  // when its all-to-alls in flight finish
  };
  batch b[2];
  double gpu = 0.0, nic = 0.0;
  auto issue = [&](double t) {
    nic = (gpu > nic ? gpu : nic) + t;
    return nic;
  };
  auto next = [&](batch& x) {  // one stage: its operations up to the next yield
    while (x.pos < total) {
      switch (schedule[x.pos++ % len]) {
        case '|': return;
        case 'p': gpu += l.prep; break;
        case 'c': gpu += l.core; break;
        case 's': gpu += l.shared; break;
        case 'e': gpu += l.experts; break;
        case 'D': x.dispatch = issue(l.dispatch); break;
        case 'C': x.combine = issue(l.combine); break;
        case 'd': gpu = gpu > x.dispatch ? gpu : x.dispatch; break;
        case 'x': gpu = gpu > x.combine ? gpu : x.combine; break;
        default: break;
      }
    }
  };
  for (int i = 0; i < delta; ++i) next(b[0]);
  while (b[0].pos < total) {
    next(b[0]);
    next(b[1]);
  }
  while (b[1].pos < total) next(b[1]);
  return gpu;
}

/// The first MoE layer of model m (the layer whose kind the MoE layers are timed by).
constexpr int first_moe_layer(const transformer_spec& m) {
  int i = 0;
  while (i + 1 < m.layers && !m.is_moe_layer(i)) ++i;
  return i;
}

/// One MoE layer of a data-parallel-attention step for work w as dp_attention_batch_time times
/// it: the most loaded rank's layer at tensor parallelism 1, its routed experts replaced by the
/// replica's over the ep ranks.
constexpr serving_layer_cost dp_attention_moe_layer(const serving_plan& p, const step_work& w) {
  const transformer_spec& m = p.model;
  const int i = first_moe_layer(m);
  const serving_plan rank = dp_attention_rank_plan(p);
  const step_work rw = dp_attention_rank_work(w, p.layout.tp);
  serving_layer_cost c =
      serving_layer_time(rank, rw, true, m.is_windowed_layer(i), false, m.layer_code(i));
  const accumulator wide = routed_expert_gemms(deepep_expert_plan(p), w),
                    local = routed_expert_gemms(rank, rw);
  c.gemm.add_all(wide);
  c.gemm.add_all(local, -1.0);
  return c;
}

/// tbo_layer_work of one MoE layer for micro-batch `half` of data-parallel-attention plan p:
/// each part as dp_attention_moe_layer times it, the dispatch and combine as
/// dp_attention_batch_time does.
constexpr tbo_layer_work tbo_layer(const serving_plan& p, const step_work& half) {
  const transformer_spec& m = p.model;
  serving_plan unshared = p;
  unshared.model.moe.shared_experts = 0;
  const serving_layer_cost all = dp_attention_moe_layer(p, half);
  const serving_plan rank = dp_attention_rank_plan(p);
  const step_work rw = dp_attention_rank_work(half, p.layout.tp);
  const double q = p.speculation.queries_per_step();
  const double tokens = rw.prefill_tokens + rw.decode_sequences * q;
  const double whole = half.prefill_tokens + half.decode_sequences * q;
  const gemm_path path = linear_path(rank, false);
  const roofline_assumptions& ka = p.assumptions.kernels;
  const double act = p.assumptions.activation_bytes, h = m.hidden;
  const double out = m.is_mla() ? m.heads * m.mla.v_head_dim : m.heads * m.head_dim;
  tbo_layer_work l{};
  l.shared = (all.gemm.total - dp_attention_moe_layer(unshared, half).gemm.total).in(units::s);
  l.core = all.attention.total.in(units::s);
  if (tokens > 0.0)
    l.core += (gemm_time(tokens, out, h, path.math, path.weight_bytes, act, path.dequant,
                         p.node.gpu, ka)
                   .total +
               gemm_time(tokens, h, m.moe.experts, precision::bf16, 2.0, act, false, p.node.gpu,
                         ka)
                   .total)
                  .in(units::s);
  l.experts = routed_expert_gemms(deepep_expert_plan(p), half).total.in(units::s);
  l.prep = (all.gemm.total + all.elementwise.total).in(units::s) - l.experts - l.shared -
           (l.core - all.attention.total.in(units::s));
  const dispatch_combine_cost a2a =
      dispatch_combine_times(p, whole, half.prefill_tokens > 0.0, tokens);
  l.dispatch = a2a.dispatch.in(units::s);
  l.combine = a2a.combine.in(units::s);
  return l;
}

/// The step of a data-parallel-attention replica: one batch, or with two_batch_overlap the dense
/// layers and the LM head on the whole batch and the MoE layers as two micro-batches of half the
/// work (SGLang's DeepSeek forward runs two-batch overlap from the first sparse layer, the head
/// on the merged output), each with its own kernels (the weights read twice), run as SGLang
/// schedules them (tbo_layers_time: decode's order when the step only decodes, prefill's when it
/// prefills); the communication is what that schedule adds to their kernels.
constexpr stage_cost dp_attention_stage_time(const serving_plan& p, const step_work& w) {
  stage_cost s = dp_attention_batch_time(p, w);
  const int moe = p.model.moe_layers();
  const double tokens = w.prefill_tokens + w.decode_sequences;
  if (!p.two_batch_overlap || moe == 0 || !(tokens > 0.0)) return s;
  step_work half = w;
  half.prefill_tokens /= 2.0;
  half.prefill_sequences /= 2.0;
  half.decode_sequences /= 2.0;
  const serving_layer_cost one = dp_attention_moe_layer(p, w), two = dp_attention_moe_layer(p, half);
  auto swap = [&](accumulator& a, const accumulator& whole, const accumulator& part) {
    a.add_all(whole, -1.0 * moe);
    a.add_all(part, 2.0 * moe);
  };
  swap(s.gemm, one.gemm, two.gemm);
  swap(s.attention, one.attention, two.attention);
  swap(s.elementwise, one.elementwise, two.elementwise);
  const tbo_layer_work l = tbo_layer(p, half);
  const bool prefills = w.prefill_tokens > 0.0;
  const double layers =
      tbo_layers_time(prefills ? tbo_prefill_schedule : tbo_decode_schedule,
                      prefills ? tbo_prefill_delta_stages : tbo_decode_delta_stages, l, moe);
  const double exposed = layers - 2.0 * moe * (l.prep + l.core + l.shared + l.experts);
  s.communication = (exposed > 0.0 ? exposed : 0.0) * units::s;
  return s;
}

}  // namespace detail

/// One step of one replica carrying `w`, through all pipeline stages (its latency).
constexpr serving_step forward_step(const serving_plan& p, const step_work& w) {
  serving_step r{};
  for (int k = 0; k < p.layout.pp; ++k) {
    const detail::stage_cost s =
        p.dp_attention ? detail::dp_attention_stage_time(p, w) : detail::stage_time(p, w, k);
    r.gemm = r.gemm + s.gemm.total;
    r.attention = r.attention + s.attention.total;
    r.elementwise = r.elementwise + s.elementwise.total;
    r.lm_head = r.lm_head + s.lm_head.total;
    r.communication = r.communication + s.communication;
    r.compute_floor = r.compute_floor + s.gemm.compute + s.attention.compute +
                      s.elementwise.compute + s.lm_head.compute;
    r.memory_floor = r.memory_floor + s.gemm.memory + s.attention.memory + s.elementwise.memory +
                     s.lm_head.memory;
    r.gemm_math = r.gemm_math + s.gemm.math;
    r.gemm_memory = r.gemm_memory + s.gemm.memory;
    if (s.total() > r.slowest_stage) r.slowest_stage = s.total();
  }
  r.overhead = p.assumptions.step_overhead;
  return r;
}

namespace detail {

/// Time between a sequence's tokens when `batch` sequences decode together: with pp stages
/// the engine keeps pp micro-batches of batch / pp in flight, and a micro-batch comes back to
/// the first stage after the whole pipeline or after pp turns of the slowest stage.
constexpr duration decode_interval(const serving_plan& p, step_work w) {
  const int pp = p.layout.pp;
  if (pp == 1) return forward_step(p, w).total();
  w.decode_sequences /= pp;
  w.prefill_tokens /= pp;
  w.prefill_sequences /= pp;
  const serving_step s = forward_step(p, w);
  const duration round = s.total();
  const duration turns = pp * (s.slowest_stage + s.overhead);
  return round > turns ? round : turns;
}

}  // namespace detail

/// Time to prefill `batch` prompts of `prompt` tokens on an idle replica (the TTFT of a lone
/// request for batch 1): chunks of max_num_batched_tokens when chunked prefill is on.
constexpr duration prefill_time(const serving_plan& p, int prompt, int batch = 1) {
  p.validate();
  detail::check_input(prompt >= 1, "prefill: prompt tokens must be at least 1", prompt);
  detail::check_input(batch >= 1, "prefill: batch must be at least 1", batch);
  const double total = 1.0 * prompt * batch;
  const double budget = p.chunked_prefill ? p.config.max_num_batched_tokens : total;
  if (total <= budget) {
    return forward_step(p, {.prefill_tokens = total,
                            .prefill_keys = (prompt + 1.0) / 2.0,
                            .prefill_sequences = 1.0 * batch})
        .total();
  }
  // Chunks of one prompt after another; chunk j of a prompt attends to the tokens before it.
  duration t{};
  const double per_prompt = 1.0 * prompt;
  double done = 0.0;  // tokens of the current prompt already prefilled
  double left = total;
  while (left > 0.0) {
    const double chunk = left < budget ? left : budget;
    const double in_prompt = chunk < per_prompt - done ? chunk : per_prompt - done;
    const double keys = done + (in_prompt + 1.0) / 2.0;
    const bool ends = done + in_prompt >= per_prompt;
    t = t + forward_step(p, {.prefill_tokens = chunk,
                             .prefill_keys = keys,
                             .prefill_sequences = ends ? chunk / per_prompt + 1.0 : 0.0})
                .total();
    done = done + chunk;
    while (done >= per_prompt) done -= per_prompt;
    left -= chunk;
  }
  return t;
}

/// One decode step of `batch` sequences with `context` tokens each in their KV cache.
constexpr duration decode_step(const serving_plan& p, int batch, int context) {
  p.validate();
  detail::check_input(batch >= 1, "decode: batch must be at least 1", batch);
  detail::check_input(context >= 0, "decode: context must not be negative", context);
  return detail::decode_interval(
      p, {.decode_sequences = 1.0 * batch, .decode_context = 1.0 * context});
}

/// The plan's decode step: its concurrency at the mix's mean context (input + output / 2).
constexpr duration decode_step(const serving_plan& p) {
  p.validate();
  const double ctx = p.mix.mean_input() + p.mix.mean_output() / 2.0;
  return detail::decode_interval(
      p, {.decode_sequences = 1.0 * p.concurrency, .decode_context = ctx});
}

/// The decode batch at which the linear layers turn compute-bound (the roofline ridge): the
/// smallest batch whose GEMMs' math (at the large-GEMM fraction, plus any dequantisation) takes
/// longer than reading their weights and activations. Decode
/// attention never gets there (its KV reads grow with the batch as fast as its FLOPs), so a
/// whole step at long context can stay bandwidth-bound past the ridge (serving_step::compute_bound
/// says). 0 when no batch up to 65536 gets there.
constexpr int ridge_batch(const serving_plan& p) {
  p.validate();
  auto bound = [&](int b) {
    const serving_step s = forward_step(p, {.decode_sequences = 1.0 * b, .decode_context = 1.0});
    return s.gemm_math > s.gemm_memory;
  };
  int hi = 1;
  while (hi <= 65536 && !bound(hi)) hi *= 2;
  if (hi > 65536) return 0;
  int lo = hi / 2;  // not bound at lo (or lo == 0)
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    (bound(mid) ? hi : lo) = mid;
  }
  return hi;
}

/// One operating point: the latencies a request sees and the throughput of the deployment.
struct serving_point {
  double concurrency = 0;  ///< sequences in flight per replica (after the KV cap)
  double decoding = 0;     ///< of them, decoding in a step (the rest wait for their prefill)
  int kv_capacity = 0;     ///< sequences the KV cache holds per replica (mean length)
  bool kv_limited = false; ///< the asked concurrency did not fit the KV cache or max_num_seqs
  bool saturated = false;  ///< the arrival rate exceeds what the deployment can serve
  duration ttft{};         ///< time to first token, mean over the mix
  duration tpot{};         ///< time per output token after the first, mean
  duration itl{};          ///< inter-token latency, mean (= tpot: every gap is one step)
  duration e2e{};          ///< end-to-end latency, mean over the mix
  /// Percentiles over the request mix and the prefill queue's wait (exponential tail with the
  /// M/G/1 mean; one class without load: all equal to the mean).
  duration ttft_p50{}, ttft_p90{}, ttft_p99{};
  /// The median and 99th percentile of a request's TPOT and of the gaps between tokens (ITL),
  /// as vLLM's benchmark_serving prints them: from the steps that also carry prefill work
  /// (decode_gap_spread); a static batch's from the context its steps grow through.
  duration tpot_p50{}, tpot_p99{}, itl_p50{}, itl_p99{};
  duration e2e_p50{}, e2e_p90{}, e2e_p99{};
  /// Standard deviation of the end-to-end latency over the same distribution as the
  /// percentiles: the classes' times (their input and output lengths) and the prefill queue's
  /// wait. 0 for a static batch (every request takes the batch's time). Over e2e it is the
  /// service-time CV a capacity plan reads (plan/capacity.hpp: replica_from_serving).
  duration e2e_sd{};
  token_rate output_tokens_per_s{};  ///< the whole deployment (all replicas)
  token_rate output_tokens_per_s_per_gpu{};
  token_rate output_tokens_per_s_per_replica{};
  request_rate requests_per_s{};     ///< the whole deployment
  serving_step step{};                  ///< the steady-state step
};

namespace detail {

/// The bracket mixed_quantile bisects: from the fastest class's time to the slowest's plus
/// this many mean waits. Under the wait's tail P(W > x) = rho exp(-rho x / E[W]) (queue_wait),
/// P(W > 50 E[W]) = rho exp(-50 rho), at most 1/(50 e) = 0.0074 over every load rho (its maximum,
/// at rho = 1/50): below the 1% the p99 leaves, so every percentile the model reports (p50, p90,
/// p99: serving_point) lies inside the bracket whatever the load.
inline constexpr double quantile_bracket_mean_waits = 50.0;
/// Bisection steps of mixed_quantile: each halves the bracket, so 48 leave 2^-48 = 3.6e-15 of
/// it, at the resolution of a double (2^-52 = 2.2e-16 relative) and far below the millisecond a
/// latency is reported to; more steps change nothing printed.
inline constexpr int quantile_bisection_steps = 48;

/// Quantile q of base[i] + wait over classes weighted w[i] (n <= 8), by bisection.
constexpr double mixed_quantile(const double* base, const double* w, int n, const queue_wait& qw,
                                double q) {
  if (n == 1) {  // closed form: 0 below 1 - rho, else the exponential tail's quantile
    if (!(qw.mean.value > 0.0) || !(qw.rho > 0.0) || q <= 1.0 - qw.rho) return base[0];
    return base[0] + qw.mean.value / qw.rho * clog(qw.rho / (1.0 - q));
  }
  double total = 0.0, lo = base[0], hi = base[0];
  for (int i = 0; i < n; ++i) {
    total += w[i];
    if (base[i] < lo) lo = base[i];
    if (base[i] > hi) hi = base[i];
  }
  hi += qw.mean.value * quantile_bracket_mean_waits + 1e-9;
  auto cdf = [&](double t) {
    double c = 0.0;
    for (int i = 0; i < n; ++i) c += w[i] * qw.cdf(t - base[i]);
    return c / total;
  };
  for (int k = 0; k < quantile_bisection_steps; ++k) {
    const double mid = 0.5 * (lo + hi);
    (cdf(mid) < q ? lo : hi) = mid;
  }
  return hi;
}

/// Sequences of the mix the replica's KV cache holds.
struct kv_cap {
  int sequences = 0;
  inference_memory_result memory{};
};

constexpr kv_cap kv_capacity(const serving_plan& p) {
  inference_config c = p.config;
  const double in = p.mix.mean_input(), out = p.mix.mean_output();
  c.batch = 1;
  c.context = static_cast<int>(in + out);
  c.draft_modules = p.speculation.on() ? p.model.mtp_layers : 0;
  kv_cap r{};
  r.memory = inference_memory(p.model, p.node.gpu, memory_layout(p), c, p.memory);
  double blocks = 0.0;
  for (int i = 0; i < p.mix.size(); ++i) {
    const request_class& k = p.mix.at(i);
    // A sequence holds its prompt and, on average, half its output; a static batch and
    // TensorRT-LLM's default capacity scheduler (GUARANTEED_NO_EVICT: a request is admitted
    // only when blocks for all its tokens can be reserved) hold all of it.
    const bool full = p.batching == batching_mode::static_batch ||
                      p.config.engine == serving_engine::trtllm;
    const int held = full ? k.input_tokens + k.output_tokens
                          : k.input_tokens + k.output_tokens / 2;
    blocks += k.share * r.memory.kv.blocks_per_sequence(held);
  }
  blocks /= p.mix.total_share();
  r.sequences = blocks > 0.0 ? static_cast<int>(r.memory.kv.blocks / blocks) : 0;
  if (r.sequences > p.config.max_num_seqs) r.sequences = p.config.max_num_seqs;
  if (p.dp_attention) {  // every rank caches its own sequences, up to max_num_seqs each
    const double all = 1.0 * r.sequences * p.layout.tp;
    r.sequences = all < 2147483647.0 ? static_cast<int>(all) : 2147483647;  // int's largest
  }
  return r;
}

/// Standard deviation, in seconds, of base[i] + wait over classes weighted w[i] (n <= 8), the
/// wait independent of the class: Var = Var(base) + Var(wait). The wait is qw's distribution
/// (P(W > x) = rho exp(-rho x / m), m its mean), so E[W^2] = 2 m^2 / rho and
/// Var(W) = m^2 (2 / rho - 1).
constexpr double service_spread(const double* base, const double* w, int n, const queue_wait& qw) {
  double total = 0.0, s1 = 0.0, s2 = 0.0;
  for (int i = 0; i < n; ++i) {
    total += w[i];
    s1 += w[i] * base[i];
    s2 += w[i] * base[i] * base[i];
  }
  const double mean = s1 / total;
  double var = s2 / total - mean * mean;
  if (var < 0.0) var = 0.0;  // rounding when every class takes the same time
  const double m = qw.mean.value;
  if (m > 0.0 && qw.rho > 0.0) var += m * m * (2.0 / qw.rho - 1.0);
  return csqrt(var);
}

/// The mix's mean TTFT and end-to-end time, and their percentiles: each class's times (ttft[i],
/// e2e[i], which include the mean queue wait `queue`) without the mean queue, plus the queue's
/// distribution qw. Overwrites ttft and e2e.
constexpr void latency_stats(serving_point& r, const request_mix& mix, double* ttft, double* e2e,
                             const double* wt, double ttft_mean, double e2e_mean, duration queue,
                             const queue_wait& qw) {
  const double s = mix.total_share();
  r.ttft = ttft_mean / s * units::s;
  r.e2e = e2e_mean / s * units::s;
  for (int i = 0; i < mix.size(); ++i) {
    ttft[i] -= queue.value;
    e2e[i] -= queue.value;
  }
  r.ttft_p50 = mixed_quantile(ttft, wt, mix.size(), qw, 0.5) * units::s;
  r.ttft_p90 = mixed_quantile(ttft, wt, mix.size(), qw, 0.9) * units::s;
  r.ttft_p99 = mixed_quantile(ttft, wt, mix.size(), qw, 0.99) * units::s;
  r.e2e_p50 = mixed_quantile(e2e, wt, mix.size(), qw, 0.5) * units::s;
  r.e2e_p90 = mixed_quantile(e2e, wt, mix.size(), qw, 0.9) * units::s;
  r.e2e_p99 = mixed_quantile(e2e, wt, mix.size(), qw, 0.99) * units::s;
  r.e2e_sd = service_spread(e2e, wt, mix.size(), qw) * units::s;
}

/// A percentile the serving model reports of a binomial count, with its standard normal
/// quantile z for the de Moivre-Laplace approximation of a large count.
struct count_percentile {
  double q = 0.5;
  double z = 0.0;
};
/// The median and the 99th percentile (z = Phi^-1(0.99) = 2.3263478740408408), the two vLLM's
/// benchmark_serving prints beside the mean.
inline constexpr count_percentile median_percentile{0.5, 0.0};
inline constexpr count_percentile p99_percentile{0.99, 2.3263478740408408};
/// Above this variance n pi (1 - pi) a binomial count's quantile is the normal's (continuity
/// corrected): the approximation's error in the 99th percentile is then under one count, and
/// the exact sum below it never underflows ((1 - pi)^n >= e^-70 for pi <= 1/2).
inline constexpr double binomial_normal_min_variance = 25.0;

/// Quantile q.q of K ~ Binomial(n, pi): the least k with P(K <= k) >= q (n a whole count).
constexpr double binomial_quantile(double n, double pi, count_percentile q) {
  if (!(n >= 1.0) || !(pi > 0.0)) return 0.0;
  if (!(pi < 1.0)) return n;
  if (pi > 0.5)  // by symmetry, on the failures, whose exact sum cannot underflow
    return n - binomial_quantile(n, 1.0 - pi, {1.0 - q.q, -q.z});
  const double var = n * pi * (1.0 - pi);
  if (var > binomial_normal_min_variance) {
    const double k = static_cast<double>(ceil_div(n * pi + q.z * csqrt(var) - 0.5, 1.0));
    return k < 0.0 ? 0.0 : (k > n ? n : k);
  }
  double pmf = cexp(n * clog(1.0 - pi)), cdf = pmf, k = 0.0;
  while (cdf < q.q && k < n) {
    pmf *= (n - k) / (k + 1.0) * pi / (1.0 - pi);
    k += 1.0;
    cdf += pmf;
  }
  return k;
}

/// The spread of the gaps between a sequence's tokens (ITL and TPOT percentiles), from the one
/// mechanism the steady state averages over: a share `pi` of the engine's steps also carry
/// prefill work -- a prompt's chunk beside the decoding sequences under chunked prefill, a
/// prefill step of its own otherwise -- and take `extra` longer than a decode-only step. The mean
/// gap stays the model's r.tpot: the decode-only gap is r.tpot - pi x extra / e (e tokens a step).
/// ITL: one gap a step, so its quantile is the decode-only gap below 1 - pi of them and the longer
/// one above. TPOT: a request's (out - 1) / e steps, K ~ Binomial(steps, pi) of them with prefill
/// (prompts arrive independently of one sequence's steps: Poisson arrivals), its TPOT the mean of
/// its gaps, decode-only + K x extra / (out - 1).
constexpr void decode_gap_spread(serving_point& r, duration extra, double pi, double out,
                                 double e) {
  r.tpot_p50 = r.tpot_p99 = r.itl_p50 = r.itl_p99 = r.tpot;
  if (!(out > 1.0) || !(extra.value > 0.0) || !(pi > 0.0)) return;
  if (pi > 1.0) pi = 1.0;
  const duration per_token = extra / e;
  const duration base = r.tpot - pi * per_token;
  r.itl_p50 = 0.5 < 1.0 - pi ? base : base + per_token;
  r.itl_p99 = 0.99 < 1.0 - pi ? base : base + per_token;
  // the steps a request decodes in, to the nearest whole one (at least one)
  const double whole = static_cast<double>(ceil_div((out - 1.0) / e - 0.5, 1.0));
  const double steps = whole < 1.0 ? 1.0 : whole;
  r.tpot_p50 = base + binomial_quantile(steps, pi, median_percentile) * extra / (out - 1.0);
  r.tpot_p99 = base + binomial_quantile(steps, pi, p99_percentile) * extra / (out - 1.0);
}

/// What continuous_point's two schedules share: the prompts' prefill times own[i] (seconds, per
/// class) as one M/G/1 server fed at `arrivals` per second (Pollaczek-Khinchine's mean wait
/// lambda E[S^2] / (2 (1 - rho)), models/queueing.hpp), and each class's latencies: TTFT =
/// `wait` (the step in flight and any wait for a prefill slot) + the queue + the request
/// overhead + its own prefill; end to end = TTFT + (output tokens - 1) x `interval`.
constexpr void prefill_queue_latencies(const serving_plan& p, const double* own, double arrivals,
                                       duration wait, duration interval, serving_point& r) {
  double wt[max_request_classes]{};
  double s1 = 0.0, s2 = 0.0;  // E[S] and E[S^2] of the prompts' prefill time
  for (int i = 0; i < p.mix.size(); ++i) {
    const double share = p.mix.at(i).share;
    s1 += share * own[i];
    s2 += share * own[i] * own[i];
    wt[i] = share;
  }
  s1 /= p.mix.total_share();
  s2 /= p.mix.total_share();
  const queue_wait qw = mg1_wait(arrivals, s1, s2, p.assumptions.prefill_queue_max_load);
  const duration queue = qw.mean;
  double ttft[max_request_classes]{}, e2e[max_request_classes]{};
  double ttft_mean = 0.0, e2e_mean = 0.0;
  for (int i = 0; i < p.mix.size(); ++i) {
    const request_class& k = p.mix.at(i);
    const duration t = wait + queue + p.assumptions.request_overhead + own[i] * units::s;
    ttft[i] = t.value;
    e2e[i] = (t + (k.output_tokens - 1.0) * interval).value;
    ttft_mean += k.share * ttft[i];
    e2e_mean += k.share * e2e[i];
  }
  latency_stats(r, p.mix, ttft, e2e, wt, ttft_mean, e2e_mean, queue, qw);
}

/// continuous_point with chunked prefill: the decoding sequences d and the prompts' chunks share
/// each step's token budget; fills r's rates and latencies (r.concurrency, r.kv_capacity set).
constexpr void chunked_prefill_point(const serving_plan& p, double n, serving_point& r) {
  const double in = p.mix.mean_input(), out = p.mix.mean_output();
  const double budget = step_token_budget(p);
  // each decoding sequence gains e tokens a step from q queries (1 and 1 without speculation)
  const double e = p.speculation.tokens_per_step(), q = p.speculation.queries_per_step();
  duration wait_prefill{};  // per-class prefill time is added below
  // Decoding sequences d need d x e x in / out prompt tokens per step beside their d x q
  // queries; the step holds at most `budget` tokens, so d <= budget / (q + e x in / out).
  const double dmax = budget / (q + e * in / out);
  const double d = n < dmax ? n : dmax;
  r.decoding = d;
  const step_work w{.prefill_tokens = d * e * in / out,
                    .prefill_keys = (in + 1.0) / 2.0,
                    .prefill_sequences = d * e / out,
                    .decode_sequences = d,
                    .decode_context = in + out / 2.0};
  r.step = forward_step(p, w);
  const duration step = decode_interval(p, w);
  r.tpot = step / e;
  r.output_tokens_per_s_per_replica = d * e * units::token / step;
  r.requests_per_s = d * e / out * units::request / step;
  // Sequences beyond d wait for prefill: Little's law on the prefill queue.
  if (n > d) wait_prefill = (n - d) * out / (d * e) * step;
  // A new prompt's chunks ride in steps beside the d decoding sequences, up to the room the
  // step's token budget leaves; it waits half a step for the step in flight.
  const double room = budget - d * q > 1.0 ? budget - d * q : 1.0;
  double own[max_request_classes]{};
  for (int i = 0; i < p.mix.size(); ++i) {
    const request_class& k = p.mix.at(i);
    duration t{};
    double done = 0.0;
    while (done < k.input_tokens) {
      const double chunk = k.input_tokens - done < room ? k.input_tokens - done : room;
      t = t + decode_interval(p, {.prefill_tokens = chunk,
                                  .prefill_keys = done + (chunk + 1.0) / 2.0,
                                  .prefill_sequences = done + chunk >= k.input_tokens ? 1.0 : 0.0,
                                  .decode_sequences = d,
                                  .decode_context = in + out / 2.0});
      done += chunk;
    }
    own[i] = t.value;
  }
  // Prompts arriving while another is being prefilled wait for it: the prefill path is a
  // single server fed at the replica's request rate.
  // a sequence's tokens come r.tpot apart (the step over the tokens it yields)
  prefill_queue_latencies(p, own, r.requests_per_s.value, 0.5 * step + wait_prefill, r.tpot, r);
  // The gaps' spread: a step that carries a prompt's chunk (the prompt, or the room the budget
  // leaves) against one of decoding alone; prompts come at the replica's request rate, in
  // ceil(in / room) chunks of a step each, so a share rate x chunks x step of the steps carry one.
  const double chunk = in < room ? in : room;
  const step_work decoding{.decode_sequences = d, .decode_context = in + out / 2.0};
  step_work with_chunk = decoding;
  with_chunk.prefill_tokens = chunk;
  with_chunk.prefill_keys = (chunk + 1.0) / 2.0;
  with_chunk.prefill_sequences = chunk >= in ? 1.0 : 0.0;
  const double chunks = static_cast<double>(ceil_div(in, room));
  decode_gap_spread(r, decode_interval(p, with_chunk) - decode_interval(p, decoding),
                    r.requests_per_s.value * chunks * step.value, out, e);
}

/// continuous_point with prefill-first scheduling: prompts are prefilled in steps of their own
/// while decoding pauses; fills r's rates and latencies (r.concurrency, r.kv_capacity set).
constexpr void prefill_first_point(const serving_plan& p, double n, serving_point& r) {
  const double in = p.mix.mean_input(), out = p.mix.mean_output();
  const double budget = step_token_budget(p);
  // Prefill-first scheduling: arrivals (n / out per decode step) are prefilled in steps of
  // their own, up to `budget` tokens, while decoding pauses.
  r.decoding = n;
  const double e = p.speculation.tokens_per_step();  // tokens a sequence gains per decode step
  const double arrivals = n * e / out;
  const double per_prefill_max = budget / in >= 1.0 ? budget / in : 1.0;
  const double g = arrivals < 1.0 ? 1.0 : (arrivals > per_prefill_max ? per_prefill_max : arrivals);
  const step_work dw{.decode_sequences = n, .decode_context = in + out / 2.0};
  r.step = forward_step(p, dw);
  const duration td = decode_interval(p, dw);
  const duration tp = decode_interval(
      p, {.prefill_tokens = g * in, .prefill_keys = (in + 1.0) / 2.0, .prefill_sequences = g});
  const double prefills = n / g;  // prefill steps per out / e decode steps
  const duration cycle = out / e * td + prefills * tp;
  r.tpot = cycle / out;
  r.output_tokens_per_s_per_replica = n * out * units::token / cycle;
  r.requests_per_s = n * units::request / cycle;
  double own[max_request_classes]{};
  for (int i = 0; i < p.mix.size(); ++i) {
    const request_class& k = p.mix.at(i);
    own[i] = decode_interval(p, {.prefill_tokens = g * k.input_tokens,
                                 .prefill_keys = (k.input_tokens + 1.0) / 2.0,
                                 .prefill_sequences = g})
                 .value;
  }
  // Prefill steps (g prompts each) arrive at lambda / g and are served one at a time.
  prefill_queue_latencies(p, own, r.requests_per_s.value / g, 0.5 * td, r.tpot, r);
  // The gaps' spread: a prefill step (tp) falls between two decode steps in n / g of every
  // out / e of them.
  decode_gap_spread(r, tp, prefills / (out / e), out, e);
}

/// Steady state of continuous batching with n sequences in flight per replica.
constexpr serving_point continuous_point(const serving_plan& p, double n, int cap) {
  serving_point r{};
  r.kv_capacity = cap;
  r.concurrency = n;
  if (p.chunked_prefill)
    chunked_prefill_point(p, n, r);
  else
    prefill_first_point(p, n, r);
  r.itl = r.tpot;
  return r;
}

/// A static batch of b sequences: prefilled together, then decoded to the end. The decode
/// steps' context grows from I to I + O - 1; Simpson's rule over three steps sums them.
constexpr serving_point static_point(const serving_plan& p, double b, int cap) {
  serving_point r{};
  const double in = p.mix.mean_input(), out = p.mix.mean_output();
  r.kv_capacity = cap;
  r.concurrency = b;
  r.decoding = b;
  const duration prefill = decode_interval(
      p, {.prefill_tokens = b * in, .prefill_keys = (in + 1.0) / 2.0, .prefill_sequences = b});
  duration decode{};
  if (out > 1.0) {
    auto at = [&](double ctx) {
      return decode_interval(p, {.decode_sequences = b, .decode_context = ctx});
    };
    const double first = in + 1.0, last = in + out - 1.0;
    // (out - 1) / e steps, each gaining e tokens (1 without speculative decoding)
    decode = (out - 1.0) / p.speculation.tokens_per_step() *
             (at(first) + 4.0 * at((first + last) / 2.0) + at(last)) / 6.0;
    r.tpot = decode / (out - 1.0);
    r.step = forward_step(p, {.decode_sequences = b, .decode_context = (first + last) / 2.0});
    // Every request of the batch sees the same steps: one TPOT. Its gaps grow with the context
    // from the first step to the last, evenly: the median gap at the middle context, the 99th
    // percentile at 99% of the way.
    const double e = p.speculation.tokens_per_step();
    r.tpot_p50 = r.tpot_p99 = r.tpot;
    r.itl_p50 = at((first + last) / 2.0) / e;
    r.itl_p99 = at(first + 0.99 * (last - first)) / e;
  } else {
    r.step = forward_step(p, {.prefill_tokens = b * in, .prefill_keys = (in + 1.0) / 2.0,
                              .prefill_sequences = b});
  }
  const duration total = prefill + decode + p.assumptions.request_overhead;
  r.ttft = prefill + p.assumptions.request_overhead;
  r.itl = r.tpot;
  r.e2e = total;
  r.ttft_p50 = r.ttft_p90 = r.ttft_p99 = r.ttft;
  r.e2e_p50 = r.e2e_p90 = r.e2e_p99 = r.e2e;
  r.output_tokens_per_s_per_replica = b * out * units::token / total;
  r.requests_per_s = b * units::request / total;
  return r;
}

/// The point at n sequences per replica, scaled to the deployment.
constexpr serving_point point_at(const serving_plan& p, double n, int cap) {
  serving_point r = p.batching == batching_mode::continuous ? continuous_point(p, n, cap)
                                                            : static_point(p, n, cap);
  const double replicas = p.layout.dp;
  r.output_tokens_per_s = replicas * r.output_tokens_per_s_per_replica;
  r.output_tokens_per_s_per_gpu = r.output_tokens_per_s_per_replica / p.gpus_per_replica();
  r.requests_per_s = replicas * r.requests_per_s;
  // each input is checked against its own range, but not their products: assumptions far out of
  // the ordinary (an engine step of 1e308 s, a GEMM fraction of 1e-308) overflow the timing
  check_input(finite(r.ttft.value) && finite(r.tpot.value) && finite(r.e2e.value) &&
                  finite(r.output_tokens_per_s.value),
              "serving: the timing is not finite: an input or serving_assumptions field far out "
              "of range overflowed it");
  return r;
}

}  // namespace detail

/// The operating point of the plan: at its concurrency (capped by the KV cache and
/// max_num_seqs), or, when plan.rate is set, at the concurrency that serves that rate.
constexpr serving_point serve(const serving_plan& p) {
  p.validate();
  const detail::kv_cap cap = detail::kv_capacity(p);
  detail::check_input(cap.sequences >= 1,
                      "serving: the KV cache holds no sequence of the mix's length (model too "
                      "large for the GPUs, or gpu_memory_utilization too low)",
                      cap.sequences);
  if (p.rate.value > 0.0) {
    const serving_point top = detail::point_at(p, cap.sequences, cap.sequences);
    if (!(p.rate < top.requests_per_s)) {
      serving_point r = top;
      r.saturated = true;
      r.kv_limited = true;
      return r;
    }
    double lo = 0.0, hi = cap.sequences;  // requests/s grows with the concurrency
    for (int i = 0; i < 40; ++i) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= 0.0) break;
      (detail::point_at(p, mid, cap.sequences).requests_per_s < p.rate ? lo : hi) = mid;
    }
    return detail::point_at(p, hi, cap.sequences);
  }
  const int n = p.concurrency < cap.sequences ? p.concurrency : cap.sequences;
  serving_point r = detail::point_at(p, n, cap.sequences);
  r.kv_limited = n < p.concurrency;
  if (r.kv_limited && p.batching == batching_mode::continuous) {
    // The clients keep `concurrency` requests open; those beyond what the engine holds queue
    // for a free slot, which opens at the replica's request rate (Little's law).
    const request_rate per_replica = r.requests_per_s / p.layout.dp;
    const duration wait = (p.concurrency - n) * units::request / per_replica;
    r.ttft = r.ttft + wait;
    r.e2e = r.e2e + wait;
    r.ttft_p50 = r.ttft_p50 + wait;
    r.ttft_p90 = r.ttft_p90 + wait;
    r.ttft_p99 = r.ttft_p99 + wait;
    r.e2e_p50 = r.e2e_p50 + wait;
    r.e2e_p90 = r.e2e_p90 + wait;
    r.e2e_p99 = r.e2e_p99 + wait;
  }
  return r;
}

/// Sequences the plan's KV cache holds per replica for its request mix.
constexpr int kv_capacity_sequences(const serving_plan& p) {
  p.validate();
  return detail::kv_capacity(p).sequences;
}

inline constexpr int max_curve_points = 64;

/// The throughput-latency curve: operating points over concurrency.
struct serving_curve {
  inplace_vector<serving_point, max_curve_points> points{};
  /// Point i (0 <= i < size()).
  [[nodiscard]] constexpr const serving_point& at(int i) const {
    return points[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] constexpr int size() const { return static_cast<int>(points.size()); }
  [[nodiscard]] constexpr const serving_point* begin() const { return points.begin(); }
  [[nodiscard]] constexpr const serving_point* end() const { return points.end(); }
};

/// `n` operating points (at most 64) at concurrencies spread geometrically from 1 to the KV
/// capacity (or to max_concurrency when smaller and positive).
constexpr serving_curve throughput_latency_curve(const serving_plan& p, int n = 16,
                                                 int max_concurrency = 0) {
  p.validate();
  detail::check_input(n >= 1 && n <= max_curve_points, "curve: points must be between 1 and 64",
                      n);
  const detail::kv_cap cap = detail::kv_capacity(p);
  detail::check_input(cap.sequences >= 1,
                      "serving: the KV cache holds no sequence of the mix's length", cap.sequences);
  const int top = max_concurrency > 0 && max_concurrency < cap.sequences ? max_concurrency
                                                                           : cap.sequences;
  serving_curve c{};
  int last = 0;
  const double ratio = n > 1 ? detail::cpow(1.0 * top, 1.0 / (n - 1)) : 1.0;
  double x = 1.0;
  for (int i = 0; i < n; ++i, x *= ratio) {
    int b = i == n - 1 ? top : static_cast<int>(x + 0.5);
    if (b <= last) b = last + 1;
    if (b > top) break;
    serving_plan q = p;
    q.rate = {};
    q.concurrency = b;
    c.points.push_back(detail::point_at(q, b, cap.sequences));
    last = b;
  }
  return c;
}

/// A latency target: TTFT and TPOT ceilings (zero: no limit).
struct serving_slo {
  duration ttft{};
  duration tpot{};
  [[nodiscard]] constexpr bool met(const serving_point& x) const {
    return (ttft.value <= 0.0 || !(x.ttft > ttft)) && (tpot.value <= 0.0 || !(x.tpot > tpot));
  }
};

struct slo_result {
  bool found = false;   ///< some concurrency meets the SLO
  serving_point best{}; ///< the highest-throughput point that meets it (goodput)
};

/// The highest-throughput concurrency whose TTFT and TPOT meet the SLO: both latencies grow
/// with the concurrency, so it is the largest that meets it (found by bisection).
constexpr slo_result best_under_slo(const serving_plan& p, const serving_slo& slo) {
  p.validate();
  const detail::kv_cap cap = detail::kv_capacity(p);
  slo_result r{};
  if (cap.sequences < 1) return r;
  auto at = [&](int b) { return detail::point_at(p, b, cap.sequences); };
  if (!slo.met(at(1))) return r;
  int lo = 1, hi = cap.sequences;
  if (slo.met(at(hi))) {
    lo = hi;
  } else {
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      (slo.met(at(mid)) ? lo : hi) = mid;
    }
  }
  r.found = true;
  r.best = at(lo);
  return r;
}

/// Disaggregated serving: prompts on a prefill pool, decoding on a decode pool, the KV cache
/// sent between them over the fabric.
struct disaggregated_result {
  request_rate prefill_requests_per_s_per_replica{};
  request_rate decode_requests_per_s_per_replica{};
  /// Prefill replicas per decode replica that balance the pools for the mix, and in GPUs.
  double prefill_per_decode_replica = 0;
  double prefill_gpus_per_decode_gpu = 0;
  duration kv_transfer{};  ///< one request's KV cache from a prefill GPU to a decode GPU
  duration ttft{};         ///< prefill + transfer + waiting for the decode step in flight
  duration tpot{};
  token_rate output_tokens_per_s_per_gpu{};  ///< both pools together
};

/// Pools from two plans over the same model and mix: `prefill` sets the prefill layout (its
/// concurrency is ignored: it prefills back to back, max_num_batched_tokens per step), `decode`
/// the decode layout and its concurrency. The KV cache crosses between nodes over the NICs
/// (send_recv on the decode plan's node fabric, one stream per tensor-parallel rank).
constexpr disaggregated_result disaggregate(const serving_plan& prefill,
                                            const serving_plan& decode) {
  prefill.validate();
  decode.validate();
  const double in = prefill.mix.mean_input(), out = decode.mix.mean_output();
  disaggregated_result r{};
  const double budget = detail::step_token_budget(prefill);
  const double g = budget / in >= 1.0 ? static_cast<double>(static_cast<long long>(budget / in))
                                      : 1.0;
  const duration tp = detail::decode_interval(
      prefill, {.prefill_tokens = g * in, .prefill_keys = (in + 1.0) / 2.0, .prefill_sequences = g});
  r.prefill_requests_per_s_per_replica = g * units::request / tp;
  const detail::kv_cap cap = detail::kv_capacity(decode);
  detail::check_input(cap.sequences >= 1, "disaggregate: the decode pool's KV cache holds no "
                                          "sequence of the mix's length");
  const double n = decode.concurrency < cap.sequences ? decode.concurrency : cap.sequences;
  const step_work dw{.decode_sequences = n, .decode_context = in + out / 2.0};
  const duration td = detail::decode_interval(decode, dw);
  const double e = decode.speculation.tokens_per_step();
  r.tpot = td / e;
  r.decode_requests_per_s_per_replica = n * e / out * units::request / td;
  r.prefill_per_decode_replica =
      r.decode_requests_per_s_per_replica / r.prefill_requests_per_s_per_replica;
  r.prefill_gpus_per_decode_gpu = r.prefill_per_decode_replica * prefill.gpus_per_replica() /
                                  decode.gpus_per_replica();
  // Each prefill TP rank sends its share of the request's KV cache to a decode rank; under
  // data-parallel attention the one rank that prefilled it sends all of it.
  const data_size kv = in * decode.model.kv_bytes_per_token(decode.config.kv_dtype) *
                       units::token / (prefill.dp_attention ? 1 : prefill.layout.tp);
  node_spec two = decode.node;
  const collective_group pair{2, 1, intra_node_tier(two, decode.assumptions.network),
                              inter_node_tier(two, inter_node_fabric::infiniband,
                                              decode.assumptions.network)};
  r.kv_transfer = two.nics.count > 0
                      ? collective_time(collective_kind::send_recv, kv, pair,
                                        decode.assumptions.collectives)
                            .total
                      : collective_time(collective_kind::send_recv, kv,
                                        make_group(two, 2, 1, inter_node_fabric::infiniband,
                                                   decode.assumptions.network),
                                        decode.assumptions.collectives)
                            .total;
  r.ttft = tp + r.kv_transfer + 0.5 * td;
  const double gpus = r.prefill_per_decode_replica * prefill.gpus_per_replica() +
                      decode.gpus_per_replica();
  r.output_tokens_per_s_per_gpu = n * e * units::token / td / gpus;
  return r;
}

}  // namespace gpuplan
