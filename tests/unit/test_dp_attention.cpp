// Data-parallel attention with wide expert parallelism (serving_plan::dp_attention): its memory
// (non-expert weights whole on every rank, experts split, each rank its own KV cache), its step
// (attention at tensor parallelism 1 on a rank's own sequences, the routed experts over every
// rank with two all-to-alls per MoE layer), the all-to-alls' transport (NCCL or DeepEP's kernels,
// against DeepEP's published rows), the busiest EP rank's load (against a Monte Carlo of the
// routing), and SGLang's published 72-H100, 32-H100 and GB200 DeepSeek runs.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/serving.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

/// DeepSeek-V3 as served: its fp8-block checkpoint in fp8 math on Hopper, a bf16 KV cache.
serving_plan deepseek(const node_spec& node, int gpus, int experts_extra = 0) {
  transformer_spec m = cat::deepseek_v3;
  m.moe.experts += experts_extra;  // EPLB's redundant experts: more physical experts
  serving_plan p{.model = m,
                 .node = node,
                 .layout = {.tp = gpus, .ep = gpus},
                 .config = checkpoint_weights(m, {}),
                 .compute_dtype = checkpoint_compute_dtype(m, node.gpu)};
  p.config.max_num_seqs = 1024;
  p.dp_attention = true;
  return p;
}

}  // namespace

TEST_CASE("DP attention: memory per rank", "[serving][dp_attention]") {
  // Eight H200: DP attention (every GPU all of MLA, the dense layers, the shared expert and the
  // embeddings; 1/8 of the routed experts) against tensor parallelism 8 with EP 8.
  const serving_plan dp = deepseek(cat::hgx_h200, 8);
  serving_plan tp = dp;
  tp.dp_attention = false;
  tp.assumptions.moe_all_to_all = true;
  const parallel_layout l = detail::memory_layout(dp);
  CHECK((l.tp == 1 && l.ep == 8 && l.dp == 8));
  // Weights: the rank holds the tp layout's weights plus the 7/8 of the non-expert weights tp
  // splits away (hand computation from the two memory layouts' parameter counts).
  const data_size w_dp = inference_weights(dp.model, l, dp.config);
  const data_size w_tp = inference_weights(tp.model, detail::memory_layout(tp), tp.config);
  CHECK(w_dp > w_tp);
  const data_size w_one = inference_weights(dp.model, {.tp = 1}, dp.config);  // all of it
  // the experts are 8x smaller on a DP rank than on one GPU holding all: the weights on the rank
  // lie between w_one / 8 and w_one
  CHECK((w_dp > w_one / 8.0 && w_dp < w_one));
  // KV: MLA's latent is cached whole on every tensor-parallel rank, so TP 8 holds each
  // sequence's cache 8 times; DP attention once. Less KV memory per GPU (the bigger weights)
  // but each rank's cache holds only its own sequences: more sequences per replica.
  CHECK(kv_capacity_sequences(dp) > 2 * kv_capacity_sequences(tp));
  // Bad plans name the field.
  serving_plan bad = dp;
  bad.layout.ep = 4;
  CHECK_THROWS_WITH(serve(bad), Catch::Contains("dp_attention"));
  bad = dp;
  bad.model = cat::llama31_8b;
  bad.layout.ep = 1;
  bad.layout.tp = 1;
  CHECK_THROWS_WITH(serve(bad), Catch::Contains("dp_attention"));
}

TEST_CASE("DP attention: the step's parts", "[serving][dp_attention]") {
  const serving_plan dp = deepseek(cat::hgx_h200, 8);
  serving_plan tp = dp;
  tp.dp_attention = false;
  tp.assumptions.moe_all_to_all = true;
  const step_work w{.decode_sequences = 8 * 64, .decode_context = 2000};
  const serving_step a = forward_step(dp, w), b = forward_step(tp, w);
  // Decode attention reads each sequence's latent cache: under TP 8 every rank reads all 512
  // sequences' (the latent is not split by heads), under DP a rank its own 64: about 8x less
  // (the FLOPs per rank are the same: 64 sequences x 128 heads against 512 x 16).
  CHECK(a.attention.in(units::s) < b.attention.in(units::s) / 4.0);
  // No tensor-parallel all-reduces: the communication is the MoE layers' all-to-alls alone, the
  // same as TP 8 with all-to-all dispatch less its 2 x 61 all-reduces.
  CHECK(a.communication < b.communication);
  const double moe_layers = 58;  // DeepSeek-V3: 61 layers, the first 3 dense
  const duration a2a = detail::dispatch_combine_time(dp, w.decode_sequences, false);
  CHECK(a.communication.in(units::s) == Approx((moe_layers * a2a).in(units::s)).epsilon(1e-9));
  // The routed experts run on the replica's 512 tokens over 8 ranks in both: the same GEMM time
  // for them; DP reads every non-expert weight whole, TP 1/8 of them.
  const detail::accumulator e_dp = detail::routed_expert_gemms(dp, w);
  const detail::accumulator e_tp = detail::routed_expert_gemms(tp, w);
  CHECK(e_dp.total.in(units::s) == Approx(e_tp.total.in(units::s)).epsilon(1e-9));
  CHECK(a.gemm_memory > b.gemm_memory);
  // Behind DeepEP the routed experts run on DeepGEMM's grouped kernel (deepep_moe_fraction_8bit,
  // 0.603 of the fp8 peak: its README's contiguous-layout rows on an H800), not on the Triton
  // fused_moe's 0.106 (moe_8bit): the same as setting it, and a prefill step's experts slower
  // at the Triton figure. A caller's moe_fraction_8bit wins.
  const step_work prefill{.prefill_tokens = 8 * 8192.0, .prefill_keys = 1000, .prefill_sequences = 32};
  serving_plan deepgemm = dp, triton = dp;
  deepgemm.assumptions.kernels.moe_fraction_8bit = dp.assumptions.kernels.deepep_moe_fraction_8bit;
  triton.assumptions.kernels.moe_fraction_8bit = grouped_moe::h100_sxm_fp8;
  CHECK(forward_step(deepgemm, prefill).gemm.in(units::s) ==
        Approx(forward_step(dp, prefill).gemm.in(units::s)).epsilon(1e-12));
  CHECK(forward_step(triton, prefill).gemm > 1.5 * forward_step(dp, prefill).gemm);
  // A lone prompt is prefilled on the one rank that holds it, at tensor parallelism 1: slower
  // than TP 8 splitting it.
  CHECK(prefill_time(dp, 2000) > prefill_time(tp, 2000));
  // Disaggregated: a DP-attention prefill rank sends a request's whole KV cache (the latent of
  // 2,000 tokens, 70,272 B each in bf16), where each of TP 8's ranks sends an eighth of it.
  serving_plan dp_pool = dp, tp_pool = tp;
  dp_pool.mix = tp_pool.mix = request_mix::fixed(2000, 200);
  const disaggregated_result a_d = disaggregate(dp_pool, dp_pool);
  const disaggregated_result b_d = disaggregate(tp_pool, dp_pool);
  CHECK(a_d.kv_transfer > 4.0 * b_d.kv_transfer);
  CHECK(a_d.output_tokens_per_s_per_gpu.value > 0.0);
}

TEST_CASE("DP attention: SGLang's 96-H100 DeepSeek deployment, decode half",
          "[serving][dp_attention][accuracy][2026]") {
  // LMSYS, "Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism on
  // 96 H100 GPUs" (lmsys.org/blog/2025-05-05-large-scale-ep, vendor; its decode table: batch
  // size 256, KV cache length 2,000, 9 nodes, 22,282 tokens/s per node): 12 nodes of 8 H100,
  // prefill and decode disaggregated; the decode nodes (9, 72 GPUs) run DP attention with the
  // experts over all 72 GPUs (DeepEP low-latency dispatch, EPLB's 288 physical experts, 4 per
  // GPU), 256 sequences per GPU at 2,000 tokens of context: 2,785 output tokens/s per GPU. The command (sglang issue #6017): --tp-size 72
  // --dp-size 72 --enable-dp-attention --enable-deepep-moe --deepep-mode low_latency
  // --moe-dense-tp-size 1 --ep-num-redundant-experts 32 --enable-two-batch-overlap
  // --cuda-graph-bs 256 --context-length 4096.
  // Modelled: the fp8 dispatch and 16-bit combine, timed as DeepEP's low-latency kernels (the
  // transport SGLang's --deepep-mode auto picks for a decode step: moe_a2a_transport automatic)
  // at 0.81 of the 50 GB/s NIC (deepseek-ai/DeepEP README at 1a0c8f64, 2025-04-27: 40-41 GB/s
  // at EP 64), the busiest rank's expected load under uniform routing (+5% over the mean:
  // ep_busiest_rank_factor) and two-batch overlap as SGLang schedules it, stage by stage
  // (detail::tbo_layers_time; the dense layers and the LM head on the whole batch). Tolerance 10%,
  // not fitted: the model is 5% over (87 ms per step
  // against the published 92 ms). With the overlap taken as perfect over the step (the kernels
  // or the all-to-alls, the longer) it was 27% over (72 ms); before the DeepEP transport (NCCL's
  // all-to-all at ~17 GB/s per GPU with its per-message ramp) 33% under (138 ms).
  // Left out: the kernels' slowdown beside the communication's SMs.
  serving_plan p = deepseek(cat::dgx_h100, 72, 32);
  p.two_batch_overlap = true;
  const int per_gpu = 256;
  const duration step = decode_step(p, per_gpu * 72, 2000);
  const double tok_per_gpu = per_gpu / step.in(units::s);
  const double published = 22282.0 / 8.0;
  WARN("SGLang 72 x H100 DP attention decode: " << step.in(units::ms) << " ms per step, "
                                                << tok_per_gpu << " tokens/s per GPU against "
                                                << published << " ("
                                                << 100 * (tok_per_gpu / published - 1) << "%)");
  CHECK(std::fabs(tok_per_gpu / published - 1.0) < 0.10);
  // The post's two-batch-overlap ablation (decode, same deployment): +25.5% at 256 sequences
  // per GPU, -27% at 32 (small micro-batches: the weights read twice, little to hide). The model
  // has +25% at 256 (DeepEP's all-to-alls, 68 ms a step unhidden, hide where SGLang's order
  // puts the other micro-batch's kernels, the two micro-batches' all-to-alls taking the NIC in
  // turn) and -1% at 32 (with the overlap perfect over the step: +51% and -6%; with NCCL's
  // all-to-all: +2% and -14%). Checked: the signs and the trend; the size at 256 within 10
  // points; not at 32 (the model's small-batch kernels are too fast to lose 27%: the second
  // reading of the MoE layers' weights costs it little).
  serving_plan plain = p;
  plain.two_batch_overlap = false;
  auto gain = [&](int per) {
    return decode_step(plain, per * 72, 2000) / decode_step(p, per * 72, 2000) - 1.0;
  };
  WARN("two-batch overlap: " << 100 * gain(256) << "% at 256 per GPU (published +25.5%), "
                             << 100 * gain(32) << "% at 32 (published -27%)");
  CHECK(gain(32) < 0.0);
  CHECK(gain(256) > 0.0);
  CHECK(gain(256) > gain(32));
  CHECK(std::fabs(gain(256) - 0.255) < 0.10);
  // 256 sequences of 2,000 tokens fit a rank's KV cache beside the weights (the deployment ran)
  p.mix = request_mix::fixed(2000, 100);
  CHECK(kv_capacity_sequences(p) >= per_gpu * 72);
}

TEST_CASE("DP attention: SGLang's 96-H100 DeepSeek deployment, prefill half",
          "[serving][dp_attention][accuracy][2026]") {
  // The same post (lmsys.org/blog/2025-05-05-large-scale-ep, "Performance Analysis of Prefill and
  // Decode Phases"): prefill on 4 nodes (32 H100, EP 32), 2,000-token prompts: 54,543 input
  // tokens/s per node; 16,384 tokens per device per batch with two-batch overlap (its TBO
  // ablation); DeepEP's normal dispatch. One batch of 16,384 x 32 prompt tokens (each prompt
  // attending to (2000 + 1) / 2 keys on average) per step.
  // Tolerance 10%, not fitted: the model is 4% under, the all-to-alls timed as DeepEP's normal
  // kernels (the transport --deepep-mode auto picks for a prefill step) at 1.02 of the NIC on
  // the bytes leaving the node (the README's EP-64 row, 51 / 50 GB/s; its EP-32 row is 58 /
  // 57), the two micro-batches in SGLang's prefill order (detail::tbo_layers_time; 2% under
  // with the overlap taken as perfect); before, at NCCL's all-to-all rate (about a third of the
  // NIC), 15% under. Left out: DeepGEMM's SMs given up to DeepEP's normal kernels.
  serving_plan p = deepseek(cat::dgx_h100, 32);
  p.two_batch_overlap = true;
  const double per_gpu = 16384;
  const step_work w{.prefill_tokens = per_gpu * 32,
                    .prefill_keys = (2000 + 1) / 2.0,
                    .prefill_sequences = per_gpu * 32 / 2000};
  const double per_node = 8 * per_gpu / forward_step(p, w).total().in(units::s);
  WARN("SGLang 32 x H100 DP attention prefill: " << per_node << " input tokens/s per node against "
                                                 << "54,543 (" << 100 * (per_node / 54543 - 1)
                                                 << "%)");
  CHECK(std::fabs(per_node / 54543 - 1) < 0.10);
}

TEST_CASE("DP attention: two-batch overlap as SGLang schedules it",
          "[serving][dp_attention][two_batch_overlap]") {
  // One layer in the decode order, by hand: prep, core, shared and routed experts 1 s each,
  // dispatch 3 s, combine 0.5 s. A runs p, c; A issues D (NIC to 5) and runs s (3); B runs p
  // (4); A waits D (5), runs e (6), issues C (NIC to 6.5); B runs c (7); A waits C; B issues D
  // (NIC 7 to 10), runs s (8); B waits D (10), runs e (11), issues C (11.5); B waits C: 11.5 s,
  // between the perfect overlap (8 s of kernels) and the serial sum (15 s).
  const detail::tbo_layer_work l{.prep = 1, .core = 1, .shared = 1, .experts = 1,
                                 .dispatch = 3, .combine = 0.5};
  using detail::tbo_decode_delta_stages, detail::tbo_decode_schedule;
  using detail::tbo_prefill_delta_stages, detail::tbo_prefill_schedule;
  CHECK(detail::tbo_layers_time(tbo_decode_schedule, tbo_decode_delta_stages, l, 1) ==
        Approx(11.5).epsilon(1e-12));
  // nothing to hide: the kernels; nothing to hide behind: the all-to-alls one after another
  detail::tbo_layer_work kernels = l, comm{.dispatch = 3, .combine = 0.5};
  kernels.dispatch = kernels.combine = 0.0;
  CHECK(detail::tbo_layers_time(tbo_decode_schedule, tbo_decode_delta_stages, kernels, 5) ==
        Approx(40.0).epsilon(1e-12));
  CHECK(detail::tbo_layers_time(tbo_prefill_schedule, tbo_prefill_delta_stages, comm, 5) ==
        Approx(35.0).epsilon(1e-12));
  // SGLang's decode and prefill rows (the accuracy cases above): the stage sum lies between the
  // perfect overlap and the serial sum, strictly
  serving_plan dec = deepseek(cat::dgx_h100, 72, 32), pre = deepseek(cat::dgx_h100, 32);
  dec.two_batch_overlap = pre.two_batch_overlap = true;
  const step_work d{.decode_sequences = 128 * 72, .decode_context = 2000};
  const step_work f{.prefill_tokens = 8192 * 32, .prefill_keys = 1000.5,
                    .prefill_sequences = 8192 * 32 / 2000.0};
  for (const auto& [p, half, order, delta] :
       {std::tuple{dec, d, tbo_decode_schedule, tbo_decode_delta_stages},
        std::tuple{pre, f, tbo_prefill_schedule, tbo_prefill_delta_stages}}) {
    const detail::tbo_layer_work w = detail::tbo_layer(p, half);
    const double k = 2.0 * 58 * (w.prep + w.core + w.shared + w.experts);
    const double c = 2.0 * 58 * (w.dispatch + w.combine);
    const double t = detail::tbo_layers_time(order, delta, w, 58);
    WARN("two-batch overlap, 58 MoE layers: " << t * 1e3 << " ms; perfect " << std::max(k, c) * 1e3
                                              << " ms, serial " << (k + c) * 1e3 << " ms");
    CHECK(t > std::max(k, c));
    CHECK(t < k + c);
  }
}

namespace {

/// The busiest of `ranks` ranks' expected count of routed picks, by Monte Carlo: `tokens` tokens
/// each pick k distinct experts of `experts` uniformly (a partial Fisher-Yates shuffle), rank r
/// holding experts [r E / R, (r + 1) E / R); averaged over `trials` with a fixed seed.
double monte_carlo_busiest(int tokens, int k, int experts, int ranks, int trials) {
  std::mt19937_64 rng(20250505);
  std::vector<int> ids(static_cast<std::size_t>(experts)), load(static_cast<std::size_t>(ranks));
  double sum = 0.0;
  for (int t = 0; t < trials; ++t) {
    std::fill(load.begin(), load.end(), 0);
    for (int i = 0; i < tokens; ++i) {
      for (int e = 0; e < experts; ++e) ids[static_cast<std::size_t>(e)] = e;
      for (int j = 0; j < k; ++j) {
        std::uniform_int_distribution<int> pick(j, experts - 1);
        std::swap(ids[static_cast<std::size_t>(j)], ids[static_cast<std::size_t>(pick(rng))]);
        ++load[static_cast<std::size_t>(ids[static_cast<std::size_t>(j)] / (experts / ranks))];
      }
    }
    sum += *std::max_element(load.begin(), load.end());
  }
  return sum / trials;
}

}  // namespace

TEST_CASE("EP: the busiest rank's expected load under uniform routing", "[serving][moe][ep]") {
  // The expected largest of n standard normals, against the closed forms for n = 2 and 3
  // (1 / sqrt(pi), 3 / (2 sqrt(pi))) and the tabulated 1.16296 for n = 5 (Harter 1961).
  const double pi = 3.14159265358979323846;
  CHECK(detail::expected_max_standard_normal(1) == 0.0);
  CHECK(detail::expected_max_standard_normal(2) == Approx(1.0 / std::sqrt(pi)).epsilon(1e-6));
  CHECK(detail::expected_max_standard_normal(3) == Approx(1.5 / std::sqrt(pi)).epsilon(1e-6));
  CHECK(detail::expected_max_standard_normal(5) == Approx(1.16296).epsilon(1e-4));
  // The busiest rank against a direct simulation of the routing (fixed seed): DeepSeek-V3's
  // top-8 of 288 physical experts over 72 ranks, of 256 over 8 ranks and over 32, and
  // Mixtral's top-2 of 8 over 8 ranks. Tolerance: 3% of the load (the normal approximation,
  // the ranks taken as independent, and the simulation's own error of about 0.3%).
  struct row {
    int tokens, k, experts, ranks;
  };
  for (const row r : {row{2048, 8, 288, 72}, row{512, 8, 256, 8}, row{1024, 8, 256, 32},
                      row{256, 2, 8, 8}}) {
    const double mean = 1.0 * r.tokens * r.k / r.ranks;
    const double model = detail::ep_busiest_rank_factor(r.tokens, r.k, r.experts, r.ranks, 1.0);
    const double simulated = monte_carlo_busiest(r.tokens, r.k, r.experts, r.ranks, 200) / mean;
    INFO(r.tokens << " tokens, top-" << r.k << " of " << r.experts << " over " << r.ranks
                  << " ranks: model " << model << ", simulated " << simulated);
    CHECK(model > 1.0);
    CHECK(model == Approx(simulated).epsilon(0.03));
  }
  // One rank, no tokens: no imbalance; the skew multiplies; a lone token's picks are capped by
  // the experts a rank holds (4 of 288 on 72 ranks: the normal tail would put more on it).
  CHECK(detail::ep_busiest_rank_factor(1000, 8, 256, 1, 1.0) == 1.0);
  CHECK(detail::ep_busiest_rank_factor(0, 8, 256, 8, 1.0) == 1.0);
  CHECK(detail::ep_busiest_rank_factor(1000, 8, 256, 8, 1.2) ==
        Approx(1.2 * detail::ep_busiest_rank_factor(1000, 8, 256, 8, 1.0)));
  CHECK(detail::ep_busiest_rank_factor(1, 8, 288, 72, 1.0) <= 4.0 * 72 / 8 + 1e-9);
  // It times the busiest rank's routed experts: a skew of 1.2 lengthens the expert GEMMs of a
  // compute-bound prefill step over 8 ranks, and a bad skew names the field.
  serving_plan p = deepseek(cat::hgx_h200, 8);
  const step_work w{.prefill_tokens = 8 * 8192.0, .prefill_keys = 1000, .prefill_sequences = 32};
  serving_plan skewed = p;
  skewed.assumptions.ep_load_skew = 1.2;
  CHECK(detail::routed_expert_gemms(skewed, w).total >
        1.1 * detail::routed_expert_gemms(p, w).total);
  skewed.assumptions.ep_load_skew = 0.9;
  CHECK_THROWS_WITH(serve(skewed), Catch::Contains("ep_load_skew"));
}

TEST_CASE("DP attention: DeepEP's all-to-all kernels", "[serving][dp_attention][accuracy]") {
  // deepseek-ai/DeepEP README at commit 1a0c8f64 (2025-04-27), low-latency kernels on H800 with
  // a CX7 400 Gb/s NIC each, 128 tokens per rank, hidden 7,168, top-8, fp8 dispatch (7,168 B and
  // 56 fp32 scales per copy) and bf16 combine: dispatch 173 / 182 / 186 us, combine 329 / 350 /
  // 353 us at EP 16 / 32 / 64. The model takes one bandwidth (deepep_low_latency_rdma_fraction,
  // 0.81: the EP-64 row's 40 and 41 GB/s) and the collective model's fixed latency: the other
  // rows' times follow within 15% (the model +12% at EP 16, where the kernels ran faster).
  const double published[3][2] = {{173, 329}, {182, 350}, {186, 353}};
  const int eps[3] = {16, 32, 64};
  for (int i = 0; i < 3; ++i) {
    serving_plan p = deepseek(cat::hgx_h800, eps[i]);
    const collective_group g =
        make_group(p.node, eps[i], 1, inter_node_fabric::infiniband, p.assumptions.network);
    const double copies = 128.0 * 8 * 7168;
    const double dispatch =
        detail::deepep_all_to_all_time(p, g, copies * (1.0 + 4.0 / 128), true).in(units::us);
    const double combine = detail::deepep_all_to_all_time(p, g, copies * 2.0, true).in(units::us);
    INFO("EP " << eps[i] << ": dispatch " << dispatch << " us, combine " << combine << " us");
    CHECK(std::fabs(dispatch / published[i][0] - 1.0) < 0.15);
    CHECK(std::fabs(combine / published[i][1] - 1.0) < 0.15);
  }
  // The transport: automatic resolves as SGLang's --deepep-mode auto under DP attention
  // (low_latency for a decode step, normal for one that prefills) and NCCL's all-to-all under
  // tensor-parallel attention; each named choice is what it says.
  serving_plan dp = deepseek(cat::dgx_h100, 72, 32);
  CHECK(detail::a2a_transport(dp, false) == moe_a2a_transport::deepep_low_latency);
  CHECK(detail::a2a_transport(dp, true) == moe_a2a_transport::deepep_normal);
  serving_plan tp = dp;
  tp.dp_attention = false;
  CHECK(detail::a2a_transport(tp, false) == moe_a2a_transport::nccl);
  serving_plan ll = dp, normal = dp, nccl = dp;
  ll.assumptions.moe_a2a = moe_a2a_transport::deepep_low_latency;
  normal.assumptions.moe_a2a = moe_a2a_transport::deepep_normal;
  nccl.assumptions.moe_a2a = moe_a2a_transport::nccl;
  const double tokens = 256.0 * 72;
  CHECK(detail::dispatch_combine_time(dp, tokens, false) ==
        detail::dispatch_combine_time(ll, tokens, true));
  CHECK(detail::dispatch_combine_time(dp, tokens, true) ==
        detail::dispatch_combine_time(normal, tokens, false));
  // Across 9 nodes: NCCL's all-to-all (its ~17 GB/s per GPU) is the slowest; the normal kernels
  // send only the 64/72 bound for other nodes over RDMA, the low-latency ones all of it.
  CHECK(detail::dispatch_combine_time(nccl, tokens, false) >
        detail::dispatch_combine_time(ll, tokens, false));
  CHECK(detail::dispatch_combine_time(ll, tokens, false) >
        detail::dispatch_combine_time(normal, tokens, false));
  serving_plan bad = dp;
  bad.assumptions.deepep_low_latency_rdma_fraction = 0.0;
  CHECK_THROWS_WITH(serve(bad), Catch::Contains("deepep_low_latency_rdma_fraction"));
}

TEST_CASE("DP attention: SGLang's GB200 NVL72 decode, a known gap",
          "[serving][dp_attention][accuracy][2026]") {
  // LMSYS, "Deploying DeepSeek on GB200 NVL72 with PD and Large Scale EP (Part II)" (2025-09-25;
  // BF16 attention and FP8 MoE): 48 decode ranks, 2,000-token inputs, the batch filling the KV
  // cache: 9,087 output tokens/s per GPU. The model on gb200_nvl72, EP 48 with 288 experts, no
  // two-batch overlap, at its own KV capacity (916 sequences per GPU): 14,047, +55%, too fast
  // (13,193, +45%, before the DeepEP transport and the busiest rank's load: the low-latency
  // kernels on NVLink at 0.78 of 900 GB/s outpace NCCL's all-to-all; uniform routing's busiest
  // rank is only +2.6% over the mean at 44,000 tokens). Not a passing figure: the routed experts
  // run at an H800 grouped-GEMM fraction on the B200; the residual skew after EPLB
  // (ep_load_skew) is unknown. Checked: the model stays too fast (a test to revisit when it
  // is not), and a skew slows it.
  serving_plan p = deepseek(cat::gb200_nvl72, 48, 32);
  p.config.max_num_seqs = 4096;
  const int per_gpu = 916;
  const double tok = per_gpu / decode_step(p, per_gpu * 48, 2000).in(units::s);
  WARN("SGLang GB200 NVL72 DP attention decode: " << tok << " tokens/s per GPU against 9,087 ("
                                                  << 100 * (tok / 9087 - 1) << "%)");
  CHECK(tok > 9087);
  serving_plan skewed = p;
  skewed.assumptions.ep_load_skew = 1.3;
  CHECK(decode_step(skewed, per_gpu * 48, 2000) > decode_step(p, per_gpu * 48, 2000));
}
