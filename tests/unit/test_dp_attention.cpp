// Data-parallel attention with wide expert parallelism (serving_plan::dp_attention): its memory
// (non-expert weights whole on every rank, experts split, each rank its own KV cache), its step
// (attention at tensor parallelism 1 on a rank's own sequences, the routed experts over every
// rank with two all-to-alls per MoE layer) and SGLang's published 72-GPU DeepSeek decode.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/serving.hpp>

#include <cmath>

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
  const duration a2a = detail::dispatch_combine_time(dp, w.decode_sequences);
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
  // Modelled: the fp8 dispatch and 16-bit combine (DeepEP with an fp8 checkpoint) and two-batch
  // overlap. Tolerance 35%, not fitted: the model is 33% under (138 ms per step against the
  // published 92 ms). The gap is the all-to-alls: the collective model moves them across the
  // 9 nodes at about 17 GB/s per GPU (NCCL's all-to-all), where DeepEP's low-latency kernels
  // reach 43 GB/s (dispatch) and 46 GB/s (combine) of a 50 GB/s CX7 NIC at EP 64
  // (deepseek-ai/DeepEP README): exposed, that is about 45 ms of the step that overlap does not
  // hide. Left out the other way: EPLB's residual imbalance between ranks (the model splits
  // evenly: faster than measured).
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
  CHECK(std::fabs(tok_per_gpu / published - 1.0) < 0.35);
  // The post's two-batch-overlap ablation (decode, same deployment): +25.5% at 256 sequences
  // per GPU, -27% at 32 (small micro-batches: the weights read twice, little to hide). The model
  // has the loss at 32 (-14%) and the gain growing with the batch, but only +1% at 256: its
  // all-to-alls outlast the kernels (above), and two half-size all-to-alls take longer than one
  // (the collective model's per-message ramp), so overlap hides little. Checked: the signs and
  // the trend, not the size.
  serving_plan plain = p;
  plain.two_batch_overlap = false;
  auto gain = [&](int per) {
    return decode_step(plain, per * 72, 2000) / decode_step(p, per * 72, 2000) - 1.0;
  };
  WARN("two-batch overlap: " << 100 * gain(256) << "% at 256 per GPU (published +25.5%), "
                             << 100 * gain(32) << "% at 32 (published -27%)");
  CHECK(gain(32) < 0.0);
  CHECK(gain(256) > gain(32));
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
  // Tolerance 25%, not fitted: the model is 15% under, for the same mechanism as the decode
  // half: the all-to-alls at the collective model's NCCL rate (about a third of the NIC) where
  // DeepEP's normal kernels reach 43-58 GB/s RDMA at EP 16-64 (deepseek-ai/DeepEP README); most
  // of the step's all-to-all stays exposed beyond the overlap.
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
  CHECK(std::fabs(per_node / 54543 - 1) < 0.25);
}
