// gpuplan/models/serving_plan.hpp: what describes a serving deployment: the model, the node, the
// layout, the engine's settings and assumptions (serving_assumptions), the request mix and load,
// speculative decoding: serving_plan, with the layout its memory is sized on (memory_layout),
// the precision an engine multiplies a checkpoint in (checkpoint_compute_dtype) and the node
// around a lone GPU (single_gpu_node). The serving model that times a plan is models/serving.hpp;
// this header is its input alone, so that a memory verdict of a plan (plan/serving_fit.hpp
// serving_fit) does not read the model.
#pragma once

#include <gpuplan/models/collectives.hpp>
#include <gpuplan/models/inference_memory.hpp>
#include <gpuplan/models/kernels.hpp>
#include <gpuplan/specs/enum_names.hpp>
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

namespace gpuplan {

/// How the decode (generation-phase) attention kernel of the engine handles grouped KV heads.
enum class decode_attention_kernel : unsigned char {
  /// The query heads of a group are computed together on the tensor cores and each KV head's
  /// cache is read once per step: FlashAttention/FlashInfer decode (vLLM, SGLang) and
  /// TensorRT-LLM's XQA kernel (v0.8 on).
  grouped,
  /// One thread block per query head, dot products on the CUDA cores: each query head loads
  /// its KV head's cache for itself, so a GQA model's cache is read heads / kv_heads times
  /// per step. TensorRT-LLM's masked multi-head attention before XQA (v0.5 to v0.7) and
  /// FasterTransformer.
  per_query_head,
};

/// The names of decode_attention_kernel, as the CLI and JSON spell them (specs/enum_names.hpp).
inline constexpr enumerator<decode_attention_kernel> decode_attention_kernel_names[] = {
    {decode_attention_kernel::grouped, "grouped"},
    {decode_attention_kernel::per_query_head, "per-query-head"},
};
constexpr const auto& enumerators(decode_attention_kernel) { return decode_attention_kernel_names; }

/// How an all-to-all-dispatch MoE layer moves its tokens (serving_assumptions::moe_a2a): NCCL's
/// all-to-all (collectives.hpp, its per-message ramp) or one of DeepEP's kernels, which write
/// each token straight into its expert's rank over NVSHMEM / RDMA (deepseek-ai/DeepEP).
enum class moe_a2a_transport : unsigned char {
  /// The engine's choice: under data-parallel attention DeepEP in SGLang's `--deepep-mode auto`
  /// (python/sglang/srt/layers/moe/utils.py DeepEPMode.resolve: normal when any rank's batch
  /// prefills, else low_latency), the transport of SGLang's wide-EP deployments
  /// (`--moe-a2a-backend deepep`); with tensor-parallel attention NCCL's all-to-all.
  automatic,
  nccl,                ///< NCCL's all-to-all (collective_time, collective_kind::all_to_all)
  deepep_normal,       ///< DeepEP's normal (high-throughput) kernels: NVLink + RDMA forwarding
  deepep_low_latency,  ///< DeepEP's low-latency kernels: pure RDMA between nodes
};

/// The names of moe_a2a_transport, as the CLI and JSON spell them (specs/enum_names.hpp).
inline constexpr enumerator<moe_a2a_transport> moe_a2a_transport_names[] = {
    {moe_a2a_transport::automatic, "auto"},
    {moe_a2a_transport::nccl, "nccl"},
    {moe_a2a_transport::deepep_normal, "deepep-normal"},
    {moe_a2a_transport::deepep_low_latency, "deepep-low-latency"},
};
constexpr const auto& enumerators(moe_a2a_transport) { return moe_a2a_transport_names; }

/// Engine-level costs of serving, beyond the kernels (roofline_assumptions).
struct serving_assumptions {
  /// The kernels' rates: GEMMs, attention, streaming (models/kernels.hpp roofline_assumptions).
  roofline_assumptions kernels{};
  /// The engine's decode attention kernel: grouped (today's engines, the default) or one
  /// thread block per query head (TensorRT-LLM before XQA). NVIDIA's XQA blog
  /// (TensorRT-LLM docs/source/blogs/XQA-kernel.md, v0.8a) credits XQA with "using tensor cores
  /// for acceleration, reducing data loading and conversion": Llama 2 70B on one H200, fp8,
  /// 128/2048, 1,227 tok/s/GPU without it and 2,941 with it (2.4x).
  decode_attention_kernel decode_attention = decode_attention_kernel::grouped;
  /// With decode_attention = per_query_head: the fraction of the GPU's fp32 CUDA-core peak its
  /// dot products reach. 1: an upper bound, not a measurement (none was found): the kernel is
  /// bound by its repeated cache loads in every TensorRT-LLM v0.5-v0.7 case the tests check, so
  /// the arithmetic rate does not set its time there.
  double per_query_head_vector_fraction = 1.0;
  /// A hybrid's linear-mixer layers (transformer_spec::pattern): the fraction of the GPU's fp32
  /// CUDA-core peak that the recurrence's state update reaches in decode (a prefill runs the
  /// chunked kernels of models/scan_kernels.hpp) (vLLM's selective_state_update
  /// and fused_recurrent_gated_delta_rule: Triton kernels in fp32). 1: an upper bound, not a
  /// measurement (none was found): decode's update is bound by reading and writing each
  /// sequence's state (2 MiB a layer for Nemotron-H-8B), at 1.5 FLOP per state byte.
  double state_update_vector_fraction = 1.0;
  /// Element-wise kernels per transformer layer that read and write the hidden state: input
  /// norm, rotary embedding with the KV-cache write, residual add with the second norm, the
  /// gated activation, and the final residual add (vLLM's Llama layer with its fused kernels:
  /// RMSNorm, fused_add_rms_norm, rotary_embedding, reshape_and_cache, silu_and_mul).
  int elementwise_kernels_per_layer = 5;
  /// Host time of the engine per step that the GPU waits for: scheduling, preparing inputs,
  /// sampling and detokenising. ESTIMATE: 1 ms, for a Python engine (vLLM, SGLang). vLLM's
  /// v0.6.0 release blog (2024-09-05) found its CPU-side work to be a large share of a Llama 3
  /// 8B decode step on an H100 before multi-step scheduling and asynchronous output processing
  /// hid most of it. Set 0 for a C++ runtime (FasterTransformer, TensorRT-LLM's
  /// gptSessionBenchmark).
  duration step_overhead = 1.0 * units::ms;
  /// Fixed latency of each request outside the forward steps: admitting it, tokenising and
  /// copying its prompt in, sampling and returning its first token. ESTIMATE: 3 ms. TensorRT-LLM's
  /// published batch-1 first-token latencies for short prompts (v0.5, 128 tokens: Llama 2 7B
  /// 7 ms on an H100, 16 ms on an A100) exceed the prefill kernels' time by 3-5 ms; a
  /// benchmark client over HTTP adds its own round trip on top.
  duration request_overhead = 3.0 * units::ms;
  /// How an expert-parallel MoE layer (layout.ep > 1) moves its tokens. false (vLLM with
  /// tensor-parallel attention, the default): every rank holds every token after attention's
  /// all-reduce, runs its own experts on the tokens routed to them, and the layer's all-reduce
  /// sums the partial outputs. true (all-to-all dispatch: DeepEP, pplx-kernels, TensorRT-LLM's
  /// wide EP): each token goes to the ranks of its k experts and comes back, two all-to-alls of
  /// tokens x k x hidden / ep per rank in place of the MoE layer's all-reduce.
  bool moe_all_to_all = false;
  /// The transport of the dispatch and combine all-to-alls (data-parallel attention, or
  /// moe_all_to_all): moe_a2a_transport; automatic by default (SGLang's DeepEP auto mode under
  /// data-parallel attention, NCCL otherwise).
  moe_a2a_transport moe_a2a = moe_a2a_transport::automatic;
  /// DeepEP's normal kernels between nodes: the RDMA "bottleneck bandwidth" they reach as a
  /// fraction of the NIC's line rate, on the bytes that leave the node. deepseek-ai/DeepEP
  /// README (commit 1a0c8f64, 2025-04-27; docs/legacy.md at dd758caf the same), H800 with a
  /// CX7 400 Gb/s NIC (~50 GB/s), 4,096 tokens, hidden 7,168, top-8, fp8 dispatch and bf16
  /// combine: 43 / 58 / 51 GB/s dispatch at EP 16 / 32 / 64, 43 / 57 / 50 combine; the EP-64 row
  /// (the largest published): 51 / 50 = 1.02. Logical bandwidth: the kernels send a token once
  /// per node and forward it over NVLink, so it can pass the line rate (EP 32).
  double deepep_normal_rdma_fraction = 1.02;
  /// DeepEP's low-latency kernels between nodes: the RDMA bandwidth they reach as a fraction of
  /// the NIC's line rate, on every byte a rank sends (the kernels of April 2025 send all of it,
  /// the node's own peers included, over RDMA). deepseek-ai/DeepEP README (commit 1a0c8f64,
  /// 2025-04-27, the version SGLang's May 2025 deployment ran), H800, CX7 400 Gb/s (~50 GB/s),
  /// 128 tokens per rank, hidden 7,168, top-8, fp8 dispatch: dispatch 46 / 43 / 41 / 40 GB/s at
  /// EP 8 / 16 / 32 / 64 (163 / 173 / 182 / 186 us), combine (bf16) 46 / 44 / 41 / 41 GB/s
  /// (318 / 329 / 350 / 353 us); the EP-64 row: dispatch 40 / 50 = 0.80, combine 41 / 50 = 0.82,
  /// here their mean, 0.81. (The README of 2025-06-05, de8cfca, after the kernels began using
  /// NVLink inside the node: 43 and 46 GB/s at EP 64.)
  double deepep_low_latency_rdma_fraction = 0.81;
  /// DeepEP's kernels inside an NVLink domain (a node, an NVL72 rack): the bandwidth they reach
  /// as a fraction of the GPU's NVLink line rate per direction. deepseek-ai/DeepEP README
  /// (commit 1a0c8f64), intranode normal kernels at EP 8 on H800 (NVLink 200 GB/s per
  /// direction; "~160 GB/s maximum" measured): 153 GB/s dispatch, 158 combine, 0.765 and 0.79:
  /// their mean, 0.78. The README's V2 kernels on SM100 (dd758caf: 726 / 740 GB/s of 900 at
  /// EP 8) reach 0.81-0.82; the low-latency kernels publish no NVLink figure and are given the
  /// same.
  double deepep_nvlink_fraction = 0.78;
  /// The expected load of the busiest expert-parallel rank over uniform routing's (the
  /// expected maximum of the ranks' counts, detail::ep_busiest_rank_factor): 1 takes EPLB's
  /// placement as balancing the experts to uniform routing. NOT MEASURED: no published
  /// residual imbalance after EPLB was found as a figure (the LMSYS posts of 2025-05-05 and
  /// 2025-09-25 plot EPLB's "balancedness" without tabulating it), so uniform is the default;
  /// set it above 1 for a skewed workload.
  double ep_load_skew = 1.0;
  /// The highest load the prefill path's M/G/1 queue is evaluated at. An M/G/1 queue has no
  /// steady state at load 1 (Pollaczek-Khinchine's wait diverges); the closed-loop model can put
  /// the prefill path there at high concurrency, where the decode batch, not the prefill queue,
  /// bounds throughput. NOT MEASURED: a numerical guard at 0.95 (the wait, proportional to
  /// rho / (1 - rho), is then 19 times the wait at load 0.5); below it the formula stands.
  double prefill_queue_max_load = 0.95;
  /// Bytes per element of activations, and of the tensors the all-reduces carry (16 bits).
  double activation_bytes = 2.0;
  /// The collective model's assumptions for the TP all-reduce and the PP hand-off.
  collective_assumptions collectives{};
  /// The fabrics' achievable rates and latencies (specs/network.hpp network_assumptions).
  network_assumptions network{};

  constexpr void validate() const {
    kernels.validate();
    detail::check_input(elementwise_kernels_per_layer >= 0,
                        "serving_assumptions.elementwise_kernels_per_layer must not be negative",
                        elementwise_kernels_per_layer);
    detail::check_input(detail::finite_nonnegative(step_overhead.value),
                        "serving_assumptions.step_overhead must be finite and not negative");
    detail::check_input(detail::finite_nonnegative(request_overhead.value),
                        "serving_assumptions.request_overhead must be finite and not negative");
    detail::check_input(activation_bytes > 0.0 && detail::finite(activation_bytes),
                        "serving_assumptions.activation_bytes must be positive");
    detail::check_input(per_query_head_vector_fraction > 0.0 && per_query_head_vector_fraction <= 1.0,
                        "serving_assumptions.per_query_head_vector_fraction must be in (0, 1]",
                        per_query_head_vector_fraction);
    detail::check_input(state_update_vector_fraction > 0.0 && state_update_vector_fraction <= 1.0,
                        "serving_assumptions.state_update_vector_fraction must be in (0, 1]",
                        state_update_vector_fraction);
    detail::check_input(prefill_queue_max_load > 0.0 && prefill_queue_max_load < 1.0,
                        "serving_assumptions.prefill_queue_max_load must be in (0, 1)",
                        prefill_queue_max_load);
    detail::check_input(detail::finite_positive(deepep_normal_rdma_fraction),
                        "serving_assumptions.deepep_normal_rdma_fraction must be positive and finite",
                        deepep_normal_rdma_fraction);
    detail::check_input(detail::finite_positive(deepep_low_latency_rdma_fraction),
                        "serving_assumptions.deepep_low_latency_rdma_fraction must be positive and "
                        "finite",
                        deepep_low_latency_rdma_fraction);
    detail::check_input(detail::finite_positive(deepep_nvlink_fraction),
                        "serving_assumptions.deepep_nvlink_fraction must be positive and finite",
                        deepep_nvlink_fraction);
    detail::check_input(ep_load_skew >= 1.0 && detail::finite(ep_load_skew),
                        "serving_assumptions.ep_load_skew must be at least 1 and finite",
                        ep_load_skew);
  }
};

/// One kind of request in a mix: prompt and output tokens, and its share of the requests.
struct request_class {
  int input_tokens = 0;
  int output_tokens = 0;
  double share = 1.0;
};

inline constexpr int max_request_classes = 8;
/// The largest request_class::share. Shares are relative weights, so the bound loses nothing
/// (a class 1e15 times another's is the other's absence); the model multiplies shares by token
/// counts and KV blocks, which for a share near double's range overflowed to an infinite mean
/// length (an int context of -2^31).
inline constexpr double max_request_share = 1e15;

/// The requests served: up to 8 classes (a fixed mix, or a histogram of a trace).
struct request_mix {
  inplace_vector<request_class, max_request_classes> classes{};

  /// Class i (0 <= i < size()).
  [[nodiscard]] constexpr const request_class& at(int i) const {
    return classes[static_cast<std::size_t>(i)];
  }
  /// The number of classes.
  [[nodiscard]] constexpr int size() const { return static_cast<int>(classes.size()); }
  static constexpr request_mix fixed(int input_tokens, int output_tokens) {
    request_mix m{};
    m.classes.push_back({input_tokens, output_tokens, 1.0});
    return m;
  }
  [[nodiscard]] constexpr double total_share() const {
    double s = 0.0;
    for (int i = 0; i < size(); ++i) s += at(i).share;
    return s;
  }
  [[nodiscard]] constexpr double mean_input() const {
    double s = 0.0;
    for (int i = 0; i < size(); ++i) s += at(i).share * at(i).input_tokens;
    return s / total_share();
  }
  [[nodiscard]] constexpr double mean_output() const {
    double s = 0.0;
    for (int i = 0; i < size(); ++i) s += at(i).share * at(i).output_tokens;
    return s / total_share();
  }
  constexpr void validate() const {
    detail::check_input(!classes.empty(), "request_mix.classes must hold at least one class");
    for (int i = 0; i < size(); ++i) {
      detail::check_input(at(i).input_tokens >= 1,
                          "request_mix: input_tokens must be at least 1", at(i).input_tokens);
      detail::check_input(at(i).output_tokens >= 1,
                          "request_mix: output_tokens must be at least 1",
                          at(i).output_tokens);
      detail::check_input(detail::finite(at(i).share) && at(i).share > 0.0 &&
                              at(i).share <= max_request_share,
                          "request_mix: share must be positive and at most 1e15 (shares are "
                          "relative)",
                          at(i).share);
    }
  }
};

/// Speculative decoding with the model's own multi-token-prediction modules (DeepSeek-V3's
/// MTP, as SGLang and vLLM run it, `--speculative-algorithm EAGLE` / `deepseek_mtp`): each
/// decode step drafts `draft_tokens` tokens per sequence with the MTP module (one layer and the
/// output head each, run one after another), then the model verifies them with the sequence's
/// next token in one forward pass of 1 + draft_tokens queries. Each draft token is accepted
/// with probability `acceptance` if those before it were (DeepSeek-V3 arXiv:2412.19437 Sec.
/// 5.4.3: 85% to 90% for the second token, "1.8 times TPS"), so a step yields
/// (1 - a^(k+1)) / (1 - a) tokens per sequence.
struct speculative_decoding {
  int draft_tokens = 0;     ///< 0: none
  double acceptance = 0.0;  ///< per draft token, given the ones before it were accepted

  [[nodiscard]] constexpr bool on() const { return draft_tokens > 0; }
  /// Queries per sequence in a verifying decode step.
  [[nodiscard]] constexpr double queries_per_step() const { return 1.0 + draft_tokens; }
  /// Expected tokens a sequence gains per step: 1 + a + a^2 + ... + a^k.
  [[nodiscard]] constexpr double tokens_per_step() const {
    double t = 1.0, term = 1.0;
    for (int i = 0; i < draft_tokens; ++i) {
      term *= acceptance;
      t += term;
    }
    return t;
  }
};

/// The most draft tokens per step the model takes (SGLang's DeepSeek recipes use 1 to 4).
inline constexpr int max_draft_tokens = 16;

/// What each GPU of a data-parallel-attention replica of `l.tp` GPUs holds
/// (serving_plan::dp_attention), as a memory layout: a rank of its own (tp 1: every non-expert
/// weight whole, its own KV cache) with the experts split over all of them (ep = l.tp, which
/// divides the data-parallel ranks as Megatron's layout asks).
constexpr parallel_layout dp_attention_layout(const parallel_layout& l) {
  parallel_layout r = l;
  r.dp = l.tp;
  r.ep = l.tp;
  r.tp = 1;
  r.expert_tp = 0;
  return r;
}

struct serving_plan;
namespace detail {
constexpr parallel_layout memory_layout(const serving_plan& p);
}  // namespace detail

/// A serving deployment: model, hardware, layout, precisions, engine, requests and load.
struct serving_plan {
  transformer_spec model{};
  /// The node the replicas run on: its GPU and the fabric that carries TP all-reduces and PP
  /// hand-offs (node.gpu is the GPU). Use single_gpu_node(gpu) for a plain GPU.
  node_spec node{};
  /// tp x pp GPUs per replica; dp = replicas. cp must be 1. ep > 1 (MoE only): expert
  /// parallelism inside the replica's tensor-parallel group (vLLM --enable-expert-parallel):
  /// the experts are split over ep groups of its tp ranks and each expert over tp / ep of them
  /// (expert_tp 0 or tp / ep); attention stays tensor-parallel.
  parallel_layout layout{};
  /// Weight and KV dtypes, the engine and its memory knobs (inference_memory.hpp). batch and
  /// context are not read: the load below sets them.
  inference_config config{};
  /// Precision of the matrix math: bf16/fp16, or fp8/int8 for W8A8 (weights and activations
  /// both in 8 bits). Weights stored narrower than this are weight-only quantised (dequantised
  /// in the GEMM).
  precision compute_dtype = precision::bf16;
  request_mix mix = request_mix::fixed(1024, 256);
  /// Sequences in flight per replica (continuous) or the batch (static).
  int concurrency = 1;
  /// Arrival rate of the whole deployment; when positive it sets the concurrency (Little's law)
  /// instead of `concurrency`.
  request_rate rate{};
  batching_mode batching = batching_mode::continuous;
  /// Prompt tokens are split into chunks that ride along with the decode steps, up to
  /// config.max_num_batched_tokens tokens per step (vLLM V1 and SGLang default, TensorRT-LLM's
  /// enable_chunked_context). false: a prompt runs in a step of its own (vLLM V0's default).
  bool chunked_prefill = true;
  /// Speculative decoding with the model's MTP modules (none by default). Their weights are
  /// held on the last pipeline stage (inference_config::draft_modules, set from this).
  speculative_decoding speculation{};
  /// Data-parallel attention with wide expert parallelism (SGLang --enable-dp-attention with
  /// --dp-size = --tp-size and --moe-dense-tp-size 1 --enable-dp-lm-head; vLLM
  /// --data-parallel-size with --enable-expert-parallel): each of the replica's layout.tp GPUs
  /// runs attention, the dense layers, the shared experts and the LM head on its own share of
  /// the sequences, holding those weights whole and its own KV cache (MLA's latent is not
  /// duplicated across ranks as under tensor parallelism); the routed experts are split over all
  /// of them (layout.ep = layout.tp) and the tokens dispatched to and combined from their
  /// experts' ranks by two all-to-alls per MoE layer (DeepEP), across nodes over the NICs when
  /// the replica spans nodes. Needs an MoE model, layout.pp 1 and no speculative decoding.
  bool dp_attention = false;
  /// With dp_attention: two-batch overlap (SGLang --enable-two-batch-overlap; DeepSeek's
  /// inference system, "dual micro-batch overlap"): each rank's step runs as two micro-batches
  /// of half the sequences, one's dispatch and combine while the other computes, stage by stage
  /// in SGLang's order (detail::tbo_layers_time): an all-to-all hides behind the kernels run
  /// between its issue and its wait; each micro-batch reads the weights again.
  bool two_batch_overlap = false;
  serving_assumptions assumptions{};
  memory_assumptions memory{};

  [[nodiscard]] constexpr const gpu_spec& gpu() const { return node.gpu; }
  [[nodiscard]] constexpr int gpus_per_replica() const { return layout.tp * layout.pp; }

  /// The checks of the replica's expert parallelism and attention against the model, as a chain
  /// over `s` (detail::raise_problem throws, detail::record_problem keeps the first failure):
  /// ep inside the tensor-parallel group, data-parallel attention's conditions.
  template <class Sink>
  constexpr bool each_layout_check(Sink&& s) const {
    // The memory model sees expert_tp 0 (memory_layout): any other split of the experts would
    // cost its GEMMs on one layout and its memory on another.
    return s(layout.ep >= 1, "serving: layout.ep must be at least 1", layout.ep) &&
           s(layout.expert_tp == 0 || layout.expert_tp * layout.ep == layout.tp,
             "serving: layout.expert_tp must be 0 or layout.tp / layout.ep", layout.expert_tp) &&
           (layout.ep == 1 ||
            (s(model.is_moe(), "serving: layout.ep > 1 needs an MoE model", layout.ep) &&
             s(layout.tp % layout.ep == 0 && model.moe.experts % layout.ep == 0,
               "serving: layout.ep must divide layout.tp and model.moe.experts (experts split "
               "over the replica's tensor-parallel ranks)",
               layout.ep) &&
             s(model.moe.expert_ffn % (layout.tp / layout.ep) == 0,
               "serving: layout.tp / layout.ep must divide model.moe.expert_ffn",
               layout.tp / layout.ep))) &&
           s(!dp_attention || (model.is_moe() && layout.ep == layout.tp && layout.pp == 1 &&
                               !speculation.on()),
             "serving_plan.dp_attention needs an MoE model, layout.ep = layout.tp (the experts "
             "over every rank), layout.pp 1 and no speculative decoding",
             layout.ep, layout.tp) &&
           s(!two_batch_overlap || dp_attention,
             "serving_plan.two_batch_overlap needs dp_attention");
  }
  /// The first of each_layout_check's problems, without throwing (the serving search lists it).
  [[nodiscard]] constexpr input_problem layout_problem() const {
    detail::record_problem r;
    each_layout_check(r);
    return r.found;
  }

  constexpr void validate() const {
    detail::memory_layout(*this).validate(model);
    node.validate();
    config.validate();
    mix.validate();
    assumptions.validate();
    memory.validate();
    detail::check_input(layout.cp == 1 && layout.zero == 0,
                        "serving: layout.cp must be 1 and layout.zero 0 (not modelled for "
                        "serving)");
    each_layout_check(detail::raise_problem{});
    detail::check_input(concurrency >= 1, "serving_plan.concurrency must be at least 1",
                        concurrency);
    detail::check_input(speculation.draft_tokens >= 0 &&
                            speculation.draft_tokens <= max_draft_tokens,
                        "serving_plan.speculation.draft_tokens must be in [0, 16]",
                        speculation.draft_tokens);
    detail::check_input(speculation.acceptance >= 0.0 && speculation.acceptance <= 1.0,
                        "serving_plan.speculation.acceptance must be in [0, 1]",
                        speculation.acceptance);
    detail::check_input(!speculation.on() || model.mtp_layers > 0,
                        "serving_plan.speculation.draft_tokens needs a model with "
                        "multi-token-prediction modules (transformer_spec.mtp_layers)",
                        speculation.draft_tokens);
    detail::check_input(detail::finite_nonnegative(rate.value),
                        "serving_plan.rate must be finite and not negative");
    detail::check_input(compute_dtype != precision::int4 && compute_dtype != precision::tf32 &&
                            compute_dtype != precision::fp64,
                        "serving_plan.compute_dtype must be fp32, bf16, fp16, fp8, int8 or fp4");
    detail::check_input(node.gpu.peak.tensor(compute_dtype).value > 0.0,
                        "serving_plan.compute_dtype: the GPU has no tensor rate for this "
                        "precision (its spec gives 0: fp8 needs Ada or later, and a rate no "
                        "source gave is 0 too; a GPU file can supply it)");
  }
};

namespace detail {

/// The layout the memory model sees: experts split over the tp ranks (ep groups of tp / ep)
/// hold as many expert weights per GPU as experts split by tensor parallelism alone, so the
/// weights and the KV budget are those of the plain tp layout.
constexpr parallel_layout memory_layout(const serving_plan& p) {
  if (p.dp_attention) return dp_attention_layout(p.layout);
  parallel_layout l = p.layout;
  l.ep = 1;
  l.expert_tp = 0;
  return l;
}

/// Expert-parallel ranks of a replica (1: experts split by tensor parallelism) and the ranks
/// each expert is split over.
constexpr int serving_ep(const serving_plan& p) { return p.layout.ep > 1 ? p.layout.ep : 1; }
constexpr int serving_expert_tp(const serving_plan& p) {
  return p.layout.tp / serving_ep(p);
}

}  // namespace detail

/// The precision an engine multiplies m's published checkpoint in on `gpu`: fp8 checkpoints
/// (DeepSeek-V3's blocks, per-tensor fp8) in fp8 where the GPU has fp8 tensor cores (vLLM's
/// Fp8LinearMethod and DeepGEMM: W8A8 with per-token-group activation scales; on older GPUs
/// Marlin's W8A16); NVFP4 in fp4 on GPUs with fp4 tensor cores (Blackwell); MXFP4 experts
/// with 8-bit activations on Blackwell (FlashInfer's MXFP4 x MXFP8 MoE), else 16-bit math with
/// the weights dequantised (Marlin / Triton W4A16, as on Hopper); everything else in 16 bits.
constexpr precision checkpoint_compute_dtype(const transformer_spec& m, const gpu_spec& gpu) {
  const precision half = m.native_dtype == precision::fp16 ? precision::fp16 : precision::bf16;
  const bool fp8 = gpu.peak.fp8_tensor.value > 0.0, fp4 = gpu.peak.fp4_tensor.value > 0.0;
  switch (m.quantization.method) {
    case quant_method::fp8:
    case quant_method::fp8_block: return fp8 ? precision::fp8 : half;
    case quant_method::nvfp4: return fp4 ? precision::fp4 : half;
    case quant_method::mxfp4: return fp4 && fp8 ? precision::fp8 : half;
    default: return half;
  }
}

/// A one-GPU-type node of `gpus` GPUs built from a GPU spec: its NVLink (if any) through a
/// switch as the scale-up fabric, else PCIe; no NICs.
constexpr node_spec single_gpu_node(const gpu_spec& gpu, int gpus = 8) {
  node_spec n{};
  n.name = gpu.name;
  n.gpu = gpu;
  n.gpus = gpus;
  const bool nvlink = gpu.gpu_link.kind == link_kind::nvlink;
  const bool bridge = gpu.gpu_link.kind == link_kind::nvlink_bridge;
  n.fabric = nvlink   ? intra_node_fabric::nvswitch
             : bridge ? intra_node_fabric::nvlink_bridge
             : gpu.gpu_link.kind == link_kind::xgmi ? intra_node_fabric::xgmi
                                                    : intra_node_fabric::pcie;
  n.scale_up_per_gpu =
      gpu.gpu_link.kind != link_kind::none ? gpu.gpu_link.per_direction : gpu.pcie.per_direction();
  return n;
}

}  // namespace gpuplan
