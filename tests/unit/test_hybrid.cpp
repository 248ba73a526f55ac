// Hybrid models (transformer_spec::pattern): linear-mixer layers (Mamba, Mamba-2, Gated
// DeltaNet) beside attention. Their recurrent state per sequence against vLLM's state-shape
// formula, the page vLLM gives every cache layer, FLOPs per token (training's chunked kernels),
// the serving model against a published measurement, training memory, and the step model's
// refusal. The models come from their published config.json files (tests/data/hf; parameter
// counts in test_hf_config.cpp).
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/io/hf_config.hpp>
#include <gpuplan/io/json.hpp>

#include <cmath>
#include <string>

using namespace gpuplan;

namespace {
transformer_spec load(const std::string& name) {
  return io::load_hf_config(std::string(GPUPLAN_TEST_DATA_DIR) + "/hf/" + name + "/config.json");
}
const transformer_spec nemotron = load("nemotron-h-8b-base-8k");
const transformer_spec qwen3_next = load("qwen3-next-80b-a3b-instruct");
const transformer_spec jamba = load("jamba-1.5-mini");
}  // namespace

TEST_CASE("Recurrent state per sequence: vLLM's state shapes", "[hybrid][memory]") {
  // vLLM's MambaStateShapeCalculator (vllm/model_executor/layers/mamba/mamba_utils.py,
  // vllm-project/vllm commit 02d71083), tp 1, bf16 ("auto": the model dtype), per layer:
  //   mamba2_state_shape: conv (conv_kernel - 1, inner + 2 n_groups state) + ssm (heads,
  //     head_dim, state): Nemotron-H-8B (3 x 10,240 + 128 x 64 x 128) x 2 B = 2,158,592 B;
  //   gated_delta_net_state_shape: conv (kernel - 1, 2 k_heads k_dim + v_heads v_dim) + (v_heads,
  //     v_dim, k_dim): Qwen3-Next (3 x 8,192 + 32 x 128 x 128) x 2 B = 1,097,728 B;
  //   mamba1_state_shape: conv (d_conv - 1, inner) + (inner, d_state): Jamba
  //     (3 x 8,192 + 8,192 x 16) x 2 B = 311,296 B.
  // Times the linear layers (24, 36 and 28), whatever the context.
  CHECK(nemotron.state_bytes(precision::bf16, precision::bf16).in(units::B) == 24 * 2158592.0);
  CHECK(qwen3_next.state_bytes(precision::bf16, precision::bf16).in(units::B) == 36 * 1097728.0);
  CHECK(jamba.state_bytes(precision::bf16, precision::bf16).in(units::B) == 28 * 311296.0);
  // fp32 SSM state (--mamba-ssm-cache-dtype float32): the conv state stays bf16.
  CHECK(nemotron.state_bytes(precision::bf16, precision::fp32).in(units::B) ==
        24 * (3 * 10240 * 2.0 + 128 * 64 * 128 * 4.0));
  // Per tensor-parallel rank: split by channels and heads; Mamba-2's n_groups (8) that tp does
  // not divide are extended to tp (extra_groups_for_head_shards): at tp 16, conv_dim = 8,192 +
  // 2 x 16 x 128 = 12,288, so (3 x 12,288 + 128 x 64 x 128) / 16 elements.
  CHECK(detail::state_elements_per_rank(nemotron, 2) == (3 * 10240 + 128 * 64 * 128) / 2.0);
  CHECK(detail::state_elements_per_rank(nemotron, 16) == (3 * 12288 + 128 * 64 * 128) / 16.0);

  const inference_config c{.batch = 1, .context = 8192};
  const inference_memory_result r = inference_memory(nemotron, catalog::h100_sxm, {}, c);
  CHECK(r.kv.state_layers == 24);
  CHECK(r.kv.layers == 28);  // the 24 MLP blocks hold no cache
  CHECK(r.kv.state_bytes.in(units::B) == 24 * 2158592.0);
  // KV only on the 4 attention layers: 4 x 2 x 8 x 128 x 2 B.
  CHECK(r.kv.bytes_per_token.in(units::B_per_token) == 16384.0);
}

TEST_CASE("Hybrid pages: vLLM's attention block grows until a page holds a state",
          "[hybrid][memory]") {
  // vLLM (vllm/platforms/interface.py, the hybrid block-size alignment, prefix caching off):
  // attn_block_size = 16 x cdiv(mamba_page, 16 x attention bytes per token), and the state page
  // is padded to that attention page. Nemotron-H-8B: 2,158,592 / (16 x 4,096) -> 33 x 16 = 528
  // tokens, a page of 528 x 4,096 = 2,162,688 B. Qwen3-Next: 1,097,728 / (16 x 2,048) -> 34 x 16
  // = 544 tokens.
  const inference_config c{.batch = 1, .context = 8192};
  const inference_memory_result r = inference_memory(nemotron, catalog::h100_sxm, {}, c);
  CHECK(r.kv.block_size == 528);
  CHECK(r.kv.page_size.in(units::B) == 2162688.0);
  // A sequence of 8,192 tokens: one page on each of the 24 Mamba layers and ceil(8192 / 528) =
  // 16 on each of the 4 attention layers, 88 pages in blocks of 28 layers.
  CHECK(r.kv.blocks_per_sequence(8192) == Approx(88.0 / 28.0).epsilon(1e-12));
  CHECK(r.per_gpu.kv_cache.in(units::B) == Approx(88.0 * 2162688.0).epsilon(1e-12));
  CHECK(r.kv.max_concurrency == Approx(r.kv.blocks / (88.0 / 28.0)).epsilon(1e-12));
  const inference_memory_result q = inference_memory(qwen3_next, catalog::h200_sxm, {.tp = 4}, c);
  // at tp 4: attention 2 KV heads -> one per rank replicated, 2 x 256 x 2 = 1,024 B per token;
  // the state 1,097,728 / 4 = 274,432 B: 16 x cdiv(274432, 16384) = 272 tokens
  CHECK(q.kv.block_size == 272);
  CHECK(q.kv.state_layers == 36);
}

TEST_CASE("Hybrid FLOPs per token: the layers' own matmuls and the recurrence", "[hybrid][flops]") {
  // Nemotron-H-8B per token (2 FLOP per multiply-add):
  //   matmuls: 24 Mamba-2 (in_proj 4,096 x 18,560 + out_proj 8,192 x 4,096 = 109,576,192), 4
  //     attention (41,943,040), 24 MLPs (2 x 4,096 x 21,504 = 176,160,768): 2 x 7,025,459,200;
  //   recurrence: 24 x (2 x 3 x 128 x 64 x 128 + 2 x 10,240 x 4) = 152,961,024;
  //   attention over 8,192 causal keys on the 4 attention layers: 4 x 4 x 32 x 128 x 4,096.5;
  //   LM head: 2 x 131,072 x 4,096.
  const forward_flops f = forward_flops_per_token(nemotron, 8192, attention_mask::causal);
  CHECK(f.layers_matmul.in(units::FLOP_per_token) == 2.0 * 7025459200.0);
  CHECK(f.recurrence.in(units::FLOP_per_token) == 152961024.0);
  CHECK(f.attention.in(units::FLOP_per_token) == 4.0 * 4 * 32 * 128 * 4096.5);
  CHECK(f.lm_head.in(units::FLOP_per_token) == 2.0 * 131072 * 4096);
  // The decode FLOPs grow with the context only on the attention layers.
  const double grow = (decode_flops_per_token(nemotron, 65535) -
                       decode_flops_per_token(nemotron, 8191))
                          .in(units::FLOP_per_token);
  CHECK(grow == 4.0 * 4 * 32 * 128 * (65536 - 8192));
  // Qwen3-Next: gated attention doubles q_proj; Gated DeltaNet's recurrence is 4 multiply-adds
  // per state element: 36 x (2 x 4 x 32 x 128 x 128 + 2 x 8,192 x 4).
  const forward_flops q = forward_flops_per_token(qwen3_next, 4096, attention_mask::causal);
  CHECK(q.recurrence.in(units::FLOP_per_token) == 36.0 * (8.0 * 524288 + 65536));
  // 2 x active matmul weights ~ 2 x 3B (the "A3B"): the layers' matmuls without embeddings
  CHECK(q.layers_matmul.in(units::FLOP_per_token) / 2 == Approx(3.25e9).epsilon(0.01));
}

TEST_CASE("Serving Qwen3-Next: SGLang on H200, a published measurement", "[hybrid][serving]") {
  // Source: sgl-project/sglang PR #10404 ("Add h200 fused moe config for Qwen3-Next",
  // 2025-09-13): Qwen3-Next on H200 (the model as published, bf16: the PR names no
  // quantisation; its H20 sibling, PR #10467, serves Qwen3-Next-80B-A3B-Instruct),
  // sglang.bench_serving random 1,000 in / 2,000 out (range ratio 1), max concurrency 8;
  // output token throughput after the tuned MoE config: TP 2 937.94, TP 4 1,137.94, TP 8
  // 1,239.43 tok/s (before it: 850.96, 1,031.49, 1,109.89). Tolerance 15% of the tuned figure
  // (the model: -9%, -13%, -7%).
  struct row {
    int tp;
    double tokens_per_s;
  };
  for (const row x : {row{2, 937.94}, row{4, 1137.94}, row{8, 1239.43}}) {
    const serving_plan p{.model = qwen3_next,
                         .node = single_gpu_node(catalog::h200_sxm),
                         .layout = {.tp = x.tp},
                         .config = {.engine = serving_engine::sglang},
                         .mix = request_mix::fixed(1000, 2000),
                         .concurrency = 8};
    const double got = serve(p).output_tokens_per_s.in(units::tokens_per_s);
    WARN("Qwen3-Next H200 tp " << x.tp << ": " << got << " tok/s vs " << x.tokens_per_s);
    CHECK(got == Approx(x.tokens_per_s).epsilon(0.15));
  }
}

TEST_CASE("Serving a linear layer: decode reads and writes each state once", "[hybrid][serving]") {
  const serving_plan p{.model = nemotron, .node = single_gpu_node(catalog::h100_sxm)};
  const step_work w{.decode_sequences = 64, .decode_context = 4000};
  const detail::accumulator a = detail::serving_recurrence_time(p, w, 1.0);
  // 64 sequences x 2 (read, write) x 2,158,592 B, and per token the mixer's input (conv_dim
  // 10,240) and output (8,192) in 16 bits
  const double bytes = 64 * 2.0 * 2158592 + 64 * (10240 + 8192) * 2.0;
  CHECK(a.memory.in(units::s) ==
        Approx(memory_time(bytes * units::B, catalog::h100_sxm, 0.0).in(units::s)).epsilon(1e-9));
  CHECK(a.memory > a.compute);  // the update is bound by the state's traffic
  // the state traffic does not grow with the context; an attention layer's does
  step_work longer = w;
  longer.decode_context = 8000;
  CHECK(detail::serving_recurrence_time(p, longer, 1.0).memory == a.memory);
  CHECK(detail::serving_attention_time(p, longer, 1.0).memory >
        detail::serving_attention_time(p, w, 1.0).memory);
}

namespace {
// One layer of a hybrid on one H100 under Megatron-LM, bf16, 8K tokens unless told otherwise:
// the inputs the step model times it with (estimate_step's own steps). Not copyable: `in`
// points into the members.
struct layer_probe {
  training_plan p;
  training_config c;
  placement pl;
  detail::layer_inputs in;
  detail::layer_dims d;
  // triton_launch_us: step_assumptions::triton_launch_time, in us (negative: the default)
  layer_probe(const transformer_spec& m, recompute_mode r, int tp = 1,
              const node_spec& node = catalog::dgx_h100, int seq = 8192,
              framework_kind framework = framework_kind::megatron,
              double triton_launch_us = -1.0) {
    p.model = m;
    if (triton_launch_us >= 0.0) p.assumptions.triton_launch_time = triton_launch_us * units::us;
    p.node = node;
    p.layout.tp = tp;
    p.config.framework = framework;
    p.config.seq = seq;
    p.config.recompute = r;
    c = p.config;
    c.global_batch = plan_global_batch(p);
    (void)detail::validate_plan(p, c);
    const network_topology topo = topology(p.node, plan_nodes(p), p.fabric, p.assumptions.network);
    pl = place(p.layout, topo, p.assumptions.order);
    in = detail::make_layer_inputs(p, c, pl);
    d = detail::dims_of(in);
  }
  layer_probe(const layer_probe&) = delete;
  layer_probe& operator=(const layer_probe&) = delete;
};
// FP32 lane slots an exp2 or a 16-bit conversion takes on the H100 (special_function_slots)
const double sfu = special_function_slots(catalog::h100_sxm);
constexpr detail::layer_kind mixer_only{.attention = false, .linear = true, .ffn = false};
constexpr detail::layer_kind attention_only{.attention = true, .linear = false, .ffn = false};
}  // namespace

TEST_CASE("Serving a linear layer: a prefill runs the training step's forward kernels",
          "[hybrid][serving]") {
  // models/scan_kernels.hpp describes the chunked kernels once; serving times a prefill's
  // forward kernels (conv1d, the scan's kernels, the gated norm) by its kernel rule, the training
  // step by its own (max + 4 us a kernel, against serving's smooth maximum at least the floor).
  // On one H100 at 8K tokens, where no kernel is launch-bound, the two agree within 15%; the
  // prompt's final state write is serving's alone.
  for (const transformer_spec* m : {&nemotron, &qwen3_next, &jamba}) {
    const serving_plan p{.model = *m, .node = single_gpu_node(catalog::h100_sxm)};
    const double state = detail::state_elements_per_rank(*m, 1) *
                         bytes_per_element(p.config.state_dtype).in(units::B);
    const detail::accumulator a = detail::prefill_mixer_time(p, 8192.0, 1.0, 0.0, 1.0);
    const layer_probe pr(*m, recompute_mode::none, 1, catalog::dgx_h100, 8192);
    const detail::mixer_times t = detail::linear_mixer_kernels(pr.in, pr.d);
    const double training_fwd = t.scan_fwd + t.mem_fwd;
    INFO(m->name.view() << ": serving " << a.total.in(units::s) << " s, training " << training_fwd);
    // the final state adds one memory-bound kernel (its bytes; the floor when fewer)
    CHECK(a.total.in(units::s) == Approx(training_fwd).epsilon(0.15));
    const detail::accumulator with_state = detail::prefill_mixer_time(p, 8192.0, 1.0, state, 1.0);
    CHECK(with_state.memory.in(units::s) ==
          Approx(a.memory.in(units::s) +
                 memory_time(state * units::B, catalog::h100_sxm, 0.0).in(units::s))
              .epsilon(1e-9));
    // a steady-state step that finishes a tenth of a prompt runs a whole prompt's kernels in a
    // tenth of the steps: the same per-token work, each kernel's floor a tenth as often
    step_work tenth{.prefill_tokens = 819.2, .prefill_keys = 410.0, .prefill_sequences = 0.1};
    const detail::accumulator share = detail::serving_recurrence_time(p, tenth, 1.0);
    const detail::accumulator whole = detail::prefill_mixer_time(p, 8192.0, 1.0, state, 1.0);
    CHECK(share.total.in(units::s) == Approx(0.1 * whole.total.in(units::s)).epsilon(1e-9));
  }
}

TEST_CASE("Hybrid step: a linear-mixer layer is its projections, conv1d, gated norm and scan",
          "[hybrid][step]") {
  for (const transformer_spec* m : {&nemotron, &qwen3_next, &jamba}) {
    CAPTURE(static_cast<int>(m->linear.kind));
    const layer_probe none(*m, recompute_mode::none);
    const detail::linear_seconds g = detail::linear_mixer_gemms(none.in, none.d);
    const detail::mixer_times mx = detail::linear_mixer_kernels(none.in, none.d);
    const detail::layer_time t = detail::one_layer(none.in, mixer_only);
    // the parts add up: GEMMs and the scan are compute; conv1d, gated norm, the block's norm
    // and residual add are memory-bound
    CHECK(t.compute == Approx(g.fwd + g.bwd + mx.scan_fwd_bwd).epsilon(1e-12));
    const detail::memory_times block =
        detail::fused_memory(none.in, none.d, {}, {}, mixer_only);
    CHECK(t.memory == Approx(block.fwd + block.bwd + mx.mem_fwd + mx.mem_bwd).epsilon(1e-12));
    CHECK(mx.mem_fwd > 0.0);
    if (m->linear.kind == linear_mixer_kind::mamba2) {
      // SSD's backward recomputes its four state kernels on top of twice the forward's work
      CHECK(mx.scan_fwd_bwd > (1.0 + detail::scan_backward_factor) * mx.scan_fwd);
    } else if (m->linear.kind == linear_mixer_kind::gated_deltanet) {
      // the gated delta rule's backward, w, u and the chunk states recomputed and 26/11 of the
      // forward's matmuls, outlasts its forward
      CHECK(mx.scan_fwd_bwd > 2.0 * mx.scan_fwd);
    } else {
      CHECK(mx.scan_fwd_bwd == Approx((1.0 + detail::scan_backward_factor) * mx.scan_fwd));
    }
    // the roofline is never faster than the chunked FLOPs at the 16-bit matmul rate
    const linear_mixer_spec& x = m->linear;
    const double scan_flops = none.d.T * (detail::chunked_recurrence_flops_per_layer(*m) -
                                          2.0 * x.conv_dim() * x.conv_kernel);
    CHECK(mx.scan_fwd >= scan_flops / (none.in.attn.peak * none.in.attn.frac) * (1 - 1e-12));
    // the in_proj and out_proj GEMMs: at least their FLOPs at the tensor peak
    const double proj = 2.0 * none.d.T * m->hidden * (m->linear_in_width() + x.inner);
    CHECK(g.fwd >= proj / none.in.g.peak);
    // a layer of a mixer and an FFN is the two parts (no TP at tp = 1)
    for (const bool moe : {false, true}) {
      if (moe != m->is_moe()) continue;
      const detail::layer_kind both{.attention = false, .linear = true, .ffn = true, .moe = moe};
      const detail::layer_kind ffn{.attention = false, .linear = false, .ffn = true, .moe = moe};
      CHECK(detail::one_layer(none.in, both).compute ==
            Approx(t.compute + detail::one_layer(none.in, ffn).compute).epsilon(1e-12));
    }
    // full recompute runs the mixer's forward again (projections, scan, its memory-bound
    // kernels); selective recompute (core attention) nothing of it
    const layer_probe full(*m, recompute_mode::full);
    const detail::layer_time tf = detail::one_layer(full.in, mixer_only);
    CHECK(tf.compute - t.compute == Approx(g.fwd + mx.scan_fwd).epsilon(1e-9));
    CHECK(tf.memory - t.memory == Approx(block.fwd + mx.mem_fwd).epsilon(1e-9));
    const layer_probe sel(*m, recompute_mode::selective);
    CHECK(detail::one_layer(sel.in, mixer_only).compute == Approx(t.compute).epsilon(1e-12));
  }
}

TEST_CASE("Hybrid step: tensor parallelism of a linear mixer is an attention block's",
          "[hybrid][step]") {
  // Megatron-Core's MambaMixer: in_proj column-parallel, out_proj row-parallel, so one
  // all-reduce (or all-gather + reduce-scatter under sequence parallelism) per pass
  const layer_probe two(nemotron, recompute_mode::none, 2);
  const double mixer = detail::one_layer(two.in, mixer_only).tp;
  CHECK(mixer > 0.0);
  CHECK(mixer == Approx(detail::one_layer(two.in, attention_only).tp).epsilon(1e-12));
  CHECK(mixer == Approx(detail::one_layer(two.in, detail::layer_kind{}).tp / 2.0).epsilon(1e-12));
}

TEST_CASE("Hybrid step: fewer attention layers, a step that grows slower with the sequence",
          "[hybrid][step]") {
  // Nemotron-H 8B (4 attention layers of 52) against Llama-3.1-8B (32 of 32), one H100 each:
  // the hybrid's step per token grows less from 4K to 32K tokens, and at 32K it is faster
  auto per_token = [](const transformer_spec& m, int seq) {
    training_plan p;
    p.model = m;
    p.node = catalog::dgx_h100;
    p.config.framework = framework_kind::megatron;
    p.config.seq = seq;
    p.config.recompute = recompute_mode::full;
    const step_breakdown s = estimate_step(p);
    return s.total.value / s.tokens_per_step.value;
  };
  const double hybrid_growth = per_token(nemotron, 32768) / per_token(nemotron, 4096);
  const double dense_growth =
      per_token(catalog::llama31_8b, 32768) / per_token(catalog::llama31_8b, 4096);
  CHECK(hybrid_growth < dense_growth);
  CHECK(per_token(nemotron, 32768) < per_token(catalog::llama31_8b, 32768));
}

TEST_CASE("Hybrid step: what is not modelled is refused in one line", "[hybrid][step]") {
  training_plan p;
  p.model = nemotron;
  p.node = catalog::dgx_h100;
  p.config.framework = framework_kind::torchtitan;
  CHECK_THROWS_WITH(estimate_step(p), Catch::Matchers::Contains(
                                          "the step time models Megatron-LM's kernels only"));
  p.config.framework = framework_kind::megatron;
  p.layout.cp = 2;
  CHECK_THROWS_WITH(estimate_step(p),
                    Catch::Matchers::Contains("context parallelism over linear-mixer layers"));
  p.layout.cp = 1;
  CHECK(estimate_step(p).total.value > 0.0);
}

TEST_CASE("Hybrids: gpuplan's model JSON round-trips a hybrid; memory models it", "[hybrid]") {
  CHECK(training_memory(nemotron, {}, {}).total().value > 0.0);
  // gpuplan's model JSON carries the pattern and the mixer: a round trip keeps the counts
  for (const transformer_spec* m : {&nemotron, &qwen3_next, &jamba}) {
    const transformer_spec back =
        io::transformer_from_json(io::to_json(*m), io::json_source{"model.json", ""});
    back.validate();
    CHECK(back.pattern == m->pattern);
    CHECK(back.checkpoint_parameters() == m->checkpoint_parameters());
    CHECK(back.state_bytes(precision::bf16, precision::bf16) ==
          m->state_bytes(precision::bf16, precision::bf16));
  }
}

TEST_CASE("Training FLOPs of a hybrid: the chunked kernels' work", "[hybrid][flops]") {
  // Nemotron-H-8B's Mamba-2 (config.json: 128 heads of 64, 8 groups, state 128, conv 4, chunk
  // 128) by SSD's chunks (Dao & Gu 2024 Sec. 6): per token 2 x (8 x 64.5 x 128 [C B^T] + 128 x
  // 64.5 x 64 [masked product with X] + 2 x 128 x 128 x 64 [chunk states, read-out]) + 2 x
  // 10,240 x 4 [conv] = 5,465,088 FLOPs a layer.
  CHECK(detail::chunked_recurrence_flops_per_layer(nemotron) == 5465088.0);
  // Qwen3-Next's Gated DeltaNet (32 value heads of 128, keys 128, chunk 64): per value head
  // 2 x (2 x 32.5 x 128 + 32.5 x 256 + 32.5 x 128 + 3 x 128 x 128), times 32, + 2 x 8,192 x 4.
  CHECK(detail::chunked_recurrence_flops_per_layer(qwen3_next) ==
        32.0 * 2.0 * (2.0 * 32.5 * 128 + 32.5 * 256 + 32.5 * 128 + 3.0 * 128 * 128) +
            2.0 * 8192 * 4);
  // Jamba's Mamba-1 trains with the selective scan's recurrent form
  CHECK(detail::chunked_recurrence_flops_per_layer(jamba) ==
        detail::recurrence_flops_per_layer(jamba));
  // training counts the chunked work, 3x forward; serving's forward keeps the recurrent form
  const forward_flops f = forward_flops_per_token(nemotron, 8192, attention_mask::full);
  const double chunked = nemotron.linear_layers() * 5465088.0;
  CHECK_THAT(training_flops_per_token(nemotron, 8192).value,
             Catch::Matchers::WithinRel(3.0 * (f.total().value - f.recurrence.value + chunked),
                                        1e-12));
}

TEST_CASE("Qwen3-Next's training compute against Qwen3-32B and Qwen3-30B-A3B: published",
          "[hybrid][flops][published]") {
  // Qwen team, "Qwen3-Next: Towards Ultimate Training & Inference Efficiency" (qwen.ai blog,
  // 2025-09-11): Qwen3-Next-80B-A3B-Base "uses less than 80% of the GPU hours needed by
  // Qwen3-30B-A3B, and only 9.3% of the compute cost of Qwen3-32B". Assumption: the same
  // hardware at the same MFU, so the ratio of GPU hours is the ratio of training FLOPs per token
  // (the same 4,096-token sequences: Qwen3's pre-training stages 1-2; Megatron's full-mask
  // convention). gpuplan's FLOP ratio is 0.1115, +20% of the 9.3%: held to a bracket of -15% to
  // +25%. The blog gives no MFU; a FLOP count cannot hold what its GPU hours gain beyond FLOPs
  // (kernel efficiency of the 512-expert MoE against the dense 32B). Likewise against
  // Qwen3-30B-A3B the FLOP ratio is 0.87, not under the blog's 0.80: the residual is recorded
  // here and in docs/validation.md, and the check holds the direction (less work per token).
  // The linear mixers' chunked recurrence is about 2% of Qwen3-Next's forward FLOPs here.
  const double next = training_flops_per_token(qwen3_next, 4096).value;
  const double dense = training_flops_per_token(catalog::qwen3_32b, 4096).value;
  const double moe = training_flops_per_token(catalog::qwen3_30b_a3b, 4096).value;
  CHECK(next / dense > 0.093 * 0.85);
  CHECK(next / dense < 0.093 * 1.25);
  CHECK(next / moe < 1.0);
  WARN("Qwen3-Next / Qwen3-32B training FLOPs " << next / dense << " (blog 0.093); / Qwen3-30B-A3B "
                                                << next / moe << " (blog < 0.80)");
}

TEST_CASE("Training memory of a hybrid: the linear mixer's saved tensors", "[hybrid][memory]") {
  training_config c{};
  c.framework = framework_kind::megatron;
  c.seq = 4096;
  c.micro_batch = 1;
  parallel_layout l{};
  const double s = 4096, h = nemotron.hidden;
  // Nemotron-H-8B's Mamba-2 block in bf16 (config.json: hidden 4,096; in_proj out 8,192 z + 10,240
  // xBC + 128 dt; conv 10,240; inner 8,192; 128 heads): norm and in_proj inputs 2 x 2h, in_proj
  // output 2 x 18,560, conv output 2 x 10,240, scan output and out_proj input 2 x 2 x 8,192, dt
  // and dA_cumsum 2 x 4 x 128 bytes per token.
  const double mamba = s * (4.0 * h + 2.0 * 18560 + 2.0 * 10240 + 4.0 * 8192 + 8.0 * 128);
  CHECK(detail::linear_mixer_block_bytes(nemotron, l, c) == mamba);
  // full recomputation keeps each layer's input only, whatever the layer holds
  CHECK(detail::layer_activation_bytes(nemotron, 0, l, c, recompute_mode::full) == 2.0 * s * h);
  // a layer of one part ('M', '-', '*') holds its part only: the pattern's counts sum up
  double sum = 0.0;
  for (int i = 0; i < nemotron.layers; ++i)
    sum += detail::layer_activation_bytes(nemotron, i, l, c, recompute_mode::none);
  CHECK(sum == nemotron.linear_layers() * mamba +
                   nemotron.attention_layers() *
                       detail::attention_block_bytes(nemotron, l, c, recompute_mode::none) +
                   nemotron.ffn_layers() * detail::ffn_block_bytes(nemotron, 1, l, c));
  // tensor parallelism splits the heads (Megatron-Core's MambaMixer): the mixer-local terms
  // halve at tp 2, the block's input does not (no sequence parallelism)
  parallel_layout l2{};
  l2.tp = 2;
  CHECK(detail::linear_mixer_block_bytes(nemotron, l2, c) ==
        s * (4.0 * h + (2.0 * 18560 + 2.0 * 10240 + 4.0 * 8192 + 8.0 * 128) / 2.0));
  CHECK(training_memory(qwen3_next, l2, c).total().value > 0.0);
  // a tp that does not divide the groups (8 of them) is refused in one line
  parallel_layout l16{};
  l16.tp = 16;
  CHECK_THROWS_WITH(training_memory(nemotron, l16, c),
                    Catch::Matchers::Contains("layout.tp must divide the linear mixer's heads"));
  training_config lora = c;
  lora.lora_rank = 16;
  CHECK_THROWS_WITH(training_memory(jamba, l, lora),
                    Catch::Matchers::Contains("LoRA / QLoRA adapters on linear-mixer layers"));
}
namespace {
// tensor parallelism at tp 2: every kernel's work per token halves
template <std::size_t N>
void check_halved(const std::array<detail::scan_kernel_work, N>& k,
                  const std::array<detail::scan_kernel_work, N>& k2) {
  for (std::size_t i = 0; i < N; ++i) {
    CHECK(k2[i].bytes == Approx(k[i].bytes / 2.0));
    CHECK(k2[i].tensor == Approx(k[i].tensor / 2.0));
    CHECK(k2[i].slots == Approx(k[i].slots / 2.0));
  }
}
// 16 tokens on an H100: the scan is its launches. Without the host's launch cost
// (triton_launch_time 0) fwd_kernels kernel overheads forward and bwd_kernels more in the backward
// (within 5% and 10%: the little work there is); at the default, the host's launches of the
// Triton kernels among them (fwd_triton, bwd_triton) take longer than the GPU's work, and the
// sequence takes that long: the longer of the two, not their sum.
template <class Scan>
void check_launch_bound(const transformer_spec& m, Scan scan, std::array<double, 2> kernels,
                        std::array<double, 2> triton) {
  const layer_probe tiny(m, recompute_mode::none, 1, catalog::dgx_h100, 16,
                         framework_kind::megatron, 0.0);
  const std::array<double, 2> t = scan(tiny.in, tiny.d);
  const double o = tiny.in.attn.overhead;
  CHECK(t[0] >= kernels[0] * o);
  CHECK(t[0] < kernels[0] * o * 1.05);
  CHECK(t[1] - t[0] >= kernels[1] * o);
  CHECK(t[1] - t[0] < kernels[1] * o * 1.1);
  const layer_probe host(m, recompute_mode::none, 1, catalog::dgx_h100, 16);
  const double l = step_assumptions{}.triton_launch_time.value;
  REQUIRE(triton[0] * l > t[0]);
  const std::array<double, 2> h = scan(host.in, host.d);
  CHECK(h[0] == Approx(triton[0] * l));
  CHECK(h[1] - h[0] == Approx(triton[1] * l));
  // a long sequence's kernels outlast their launches: the host's cost does not show
  const layer_probe gpu0(m, recompute_mode::none, 1, catalog::dgx_h100, 8192,
                         framework_kind::megatron, 0.0);
  const layer_probe gpu(m, recompute_mode::none, 1, catalog::dgx_h100, 8192);
  CHECK(scan(gpu.in, gpu.d)[1] == scan(gpu0.in, gpu0.d)[1]);
}
// the scan's time grows with the tokens, its time per token does not (the launches amortise)
template <class Scan>
void check_grows_with_tokens(const transformer_spec& m, Scan scan) {
  double last = 0.0, last_per_token = 1.0;
  for (const int seq : {1024, 2048, 4096, 8192}) {
    const layer_probe pr(m, recompute_mode::none, 1, catalog::dgx_h100, seq);
    const double f = scan(pr.in, pr.d)[0];
    CHECK(f > last);
    CHECK(f / seq <= last_per_token);
    last = f;
    last_per_token = f / seq;
  }
}
}  // namespace
TEST_CASE("Special functions on the CUDA cores: the CUDA guide's rates by compute capability",
          "[hybrid][step]") {
  // CUDA C++ Programming Guide, "Arithmetic Instructions" (results per clock per SM): 32-bit
  // floating-point add, multiply, multiply-add 64 on 7.x and 8.0, 128 on 8.6, 8.9 and 9.0;
  // reciprocal, log2, exp2, sine, cosine 16 on all of them. Exact.
  CHECK(special_function_slots(catalog::v100_sxm2_32gb) == 4.0);
  CHECK(special_function_slots(catalog::t4) == 4.0);
  CHECK(special_function_slots(catalog::a100_pcie_80gb) == 4.0);
  CHECK(special_function_slots(catalog::a10) == 8.0);
  CHECK(special_function_slots(catalog::l40s) == 8.0);
  CHECK(special_function_slots(catalog::h100_sxm) == 8.0);
  CHECK(special_function_slots(catalog::h20) == 8.0);
  // Hopper's 16 a clock against FlashAttention-3's "3.9 TFLOPS of special functions" on the
  // H100 SXM5 (arXiv:2407.08608, Sec. 3.1) at 132 SMs and the 1,830 MHz of its tensor figures:
  // 3.87e12, within 1%
  CHECK(132 * 1830e6 * 128.0 / special_function_slots(catalog::h100_sxm) ==
        Approx(3.9e12).epsilon(0.01));
  // no row read for Blackwell or AMD: the named estimate, compute capability 8.0's figure
  CHECK(special_function_slots(catalog::b200) == unlisted_special_function_slots);
  CHECK(special_function_slots(catalog::mi300x) == unlisted_special_function_slots);
  // a GPU file without a compute capability reads as unknown, and the estimate applies
  gpu_spec bare = catalog::h100_sxm;
  bare.compute_capability = {};
  CHECK(special_function_slots(bare) == unlisted_special_function_slots);
  // the step model's exps and conversions cost what the GPU's table row says: the H100's decay
  // (2 special functions, 6 FP32 operations) 22 slots, the A100's 14
  const layer_probe h100(nemotron, recompute_mode::none, 1, catalog::dgx_h100, 4096);
  CHECK(h100.in.sfu == 8.0);
  CHECK(detail::ssd_decay_slots(h100.in.sfu) == 22.0);
  CHECK(detail::ssd_decay_slots(4.0) == 14.0);
}
TEST_CASE("Mamba-2's SSD: five kernels, their fp32 intermediates through HBM", "[hybrid][step]") {
  // mamba_ssm/ops/triton/ssd_combined.py _mamba_chunk_scan_combined_fwd on Nemotron-H 8B's mixer
  // (128 heads of 64, 8 groups, N 128, chunks of 128 tokens), 16-bit activations, per token
  const linear_mixer_spec& x = nemotron.linear;
  const auto k = detail::ssd_forward_kernels(x, 1.0, 2.0, sfu);
  const double h = x.heads, p = x.head_dim, n = x.state_size, q = detail::ssd_chunk_tokens;
  const double states = h * p * n / q;
  // chunk_cumsum: dt in 16 bits, dt and dA_cumsum out in fp32
  CHECK(k[0].bytes == h * (2.0 + 8.0));
  // state_passing: the fp32 chunk states chunk_state wrote, read back, passed on in 16 bits
  CHECK(k[2].bytes == (4.0 + 2.0) * states);
  CHECK(k[1].bytes > 4.0 * states);
  // bmm_chunk writes C B^T per group in fp32 over the whole chunk
  CHECK(k[3].bytes == 2.0 * x.groups * n * 2.0 + 4.0 * x.groups * q);
  // the kernels' matmuls are at least flops.hpp's chunked count (bmm_chunk does not mask)
  double tensor = 0.0;
  for (const auto& w : k) tensor += w.tensor;
  CHECK(tensor >= detail::chunked_recurrence_flops_per_layer(nemotron) -
                      2.0 * x.conv_dim() * x.conv_kernel);
  // only chunk_scan works on the CUDA cores: the decay of each masked C B^T element per head
  CHECK(k[4].slots == h * (q + 1.0) / 2.0 * detail::ssd_decay_slots(sfu));
  // tensor parallelism splits heads and groups: every kernel's work per token halves
  check_halved(k, detail::ssd_forward_kernels(x, 2.0, 2.0, sfu));
  // a short sequence is launch-bound: five kernels' overheads, the backward's four recomputed
  // kernels and ten gradient kernels more, all of them Triton kernels launched from Python
  const double ssd_bwd = 4.0 + detail::ssd_backward_kernels;
  check_launch_bound(nemotron, detail::ssd_scan_seconds, {5.0, ssd_bwd}, {5.0, ssd_bwd});
  // properties: time grows with the tokens and the state, per token it does not (the launches
  // amortise); tensor parallelism never slows a rank down
  check_grows_with_tokens(nemotron, detail::ssd_scan_seconds);
  double last = 0.0;
  for (const int state : {64, 128, 256}) {
    transformer_spec s = nemotron;
    s.linear.state_size = state;
    const layer_probe pr(s, recompute_mode::none, 1, catalog::dgx_h100, 4096);
    const auto f = detail::ssd_scan_seconds(pr.in, pr.d);
    CHECK(f[0] > last);
    last = f[0];
    const layer_probe pr2(s, recompute_mode::none, 2, catalog::dgx_h100, 4096);
    CHECK(detail::ssd_scan_seconds(pr2.in, pr2.d)[1] < f[1]);
  }
  // a GPU without a CUDA-core figure (a JSON file without it) is refused in one line, not timed
  // as if its exps were free
  node_spec bare = catalog::dgx_h100;
  bare.gpu.peak.fp32_vector = {};
  const layer_probe nv(nemotron, recompute_mode::none, 1, bare, 4096);
  CHECK_THROWS_WITH(detail::linear_mixer_kernels(nv.in, nv.d),
                    Catch::Matchers::Contains("gpu.peak.fp32_vector is unknown"));
  // nor the gated delta rule's, whose decays and triangular solve run there too
  const layer_probe gdn(qwen3_next, recompute_mode::none, 1, bare, 4096);
  CHECK_THROWS_WITH(detail::linear_mixer_kernels(gdn.in, gdn.d),
                    Catch::Matchers::Contains("gpu.peak.fp32_vector is unknown"));
}
TEST_CASE("Gated DeltaNet: Megatron's and fla's kernels, their fp32 intermediates through HBM",
          "[hybrid][step]") {
  // Megatron-Core's GatedDeltaNet.forward (megatron/core/ssm/gated_delta_net.py: l2norm on q
  // and k, repeat_interleave to the value heads) and fla v0.3.2's chunk_gated_delta_rule_fwd
  // (fla/ops/gated_delta_rule/chunk.py) on Qwen3-Next's mixer: 16 key heads, 32 value heads, key
  // and value width 128, chunks of 64 tokens, 16-bit activations, per token. Bytes and FLOPs
  // written out by hand from the kernels.
  const linear_mixer_spec& x = qwen3_next.linear;
  REQUIRE(x.heads == 32);
  REQUIRE(x.groups == 16);
  REQUIRE(x.state_size == 128);
  REQUIRE(x.head_dim == 128);
  const auto k = detail::gated_delta_forward_kernels(x, 1.0, 2.0, sfu);
  // l2norm on q (and k) at the 16 key heads: 128 read and written in 16 bits, an fp32 rstd
  CHECK(k[0].bytes == 16.0 * (2.0 * 2.0 * 128.0 + 4.0));
  CHECK(k[1].bytes == k[0].bytes);
  // repeat_interleave of q (and k): 16 heads read, 32 written
  CHECK(k[2].bytes == 2.0 * 128.0 * (16.0 + 32.0));
  CHECK(k[3].bytes == k[2].bytes);
  // chunk_local_cumsum: the fp32 log decay in and out
  CHECK(k[4].bytes == 32.0 * 8.0);
  // chunk_scaled_dot_kkt_fwd: k k^T over the 64 x 64 tile; reads k, g, beta; A out in fp32
  CHECK(k[5].tensor == 32.0 * 2.0 * 64.0 * 128.0);
  CHECK(k[5].bytes == 32.0 * (256.0 + 4.0 + 2.0 + 4.0 * 64.0));
  CHECK(k[5].slots == 32.0 * 64.0 * detail::gated_delta_kkt_slots(sfu));
  // solve_tril: zeros_like, then A read in fp32 and its inverse written in 16 bits
  CHECK(k[6].bytes == 32.0 * 2.0 * 64.0);
  CHECK(k[7].bytes == 32.0 * 6.0 * 64.0);
  CHECK(k[7].tensor == 0.0);  // IEEE fp32 dots: CUDA cores
  CHECK(k[7].slots == 32.0 * detail::gated_delta_tril_slots / 64.0);
  // recompute_w_u_fwd: A (beta k) and A (beta v); reads k, v, beta, A, g, writes w and u
  CHECK(k[8].tensor == 32.0 * 2.0 * 64.0 * 256.0);
  CHECK(k[8].bytes == 32.0 * (4.0 * 256.0 + 2.0 + 2.0 * 64.0 + 4.0));
  // chunk_gated_delta_rule_fwd_h: u - w h and k^T v_new; the 128 x 128 state per chunk out in
  // 16 bits (256 elements per token and head)
  CHECK(k[9].tensor == 32.0 * 4.0 * 128.0 * 128.0);
  CHECK(k[9].bytes == 32.0 * (4.0 * 256.0 + 4.0 + 2.0 * 256.0));
  // chunk_fwd_o: q h, q k^T, A v_new; the decayed tile on the CUDA cores
  CHECK(k[10].tensor == 32.0 * 2.0 * (128.0 * 128.0 + 64.0 * 128.0 + 64.0 * 128.0));
  CHECK(k[10].slots == 32.0 * 64.0 * detail::gated_delta_decay_slots(sfu));
  CHECK(k[10].bytes == k[9].bytes);
  // the kernels' matmuls are at least flops.hpp's chunked count (the tiles are not masked)
  double tensor = 0.0;
  for (const auto& w : k) tensor += w.tensor;
  CHECK(tensor >= detail::chunked_recurrence_flops_per_layer(qwen3_next) -
                      2.0 * x.conv_dim() * x.conv_kernel);
  // tensor parallelism splits the heads: every kernel's work per token halves
  check_halved(k, detail::gated_delta_forward_kernels(x, 2.0, 2.0, sfu));
  // the backward's gradient kernels (fla v0.3.2 chunk_gated_delta_rule_bwd, then the repeats'
  // and l2norms' backward)
  const auto gk = detail::gated_delta_gradient_kernels(x, 1.0, 2.0, sfu);
  // chunk_bwd_dv_local: k q^T and A^T do; reads q, k, g, do, writes dv
  CHECK(gk[0].tensor == 32.0 * 2.0 * 64.0 * 256.0);
  CHECK(gk[0].bytes == 32.0 * (2.0 * 512.0 + 4.0));
  // chunk_gated_delta_rule_bwd_dhu: k dh, q^T do, w^T dv; dh per chunk out in 16 bits
  CHECK(gk[1].tensor == 32.0 * 6.0 * 128.0 * 128.0);
  CHECK(gk[1].bytes == 32.0 * (2.0 * 768.0 + 4.0 + 2.0 * 256.0));
  // chunk_bwd_dqkwg reads h and dh of every chunk, writes dq, dk, dw and dg in fp32
  CHECK(gk[2].bytes == 32.0 * (2.0 * (3.0 * 128.0 + 5.0 * 128.0) + 8.0 + 4.0 * 256.0));
  // prepare_wy_repr_bwd: k, v, beta, A, dw, du in; dk, dv, dbeta, dg out
  CHECK(gk[3].tensor == 32.0 * 2.0 * 64.0 * (5.0 * 128.0 + 2.0 * 128.0 + 128.0));
  CHECK(gk[3].bytes == 32.0 * (2.0 * (768.0 + 2.0 + 64.0) + 8.0));
  // the repeats' sums and the l2norms' backward at the key heads
  CHECK(gk[7].bytes == 2.0 * 128.0 * (16.0 + 32.0));
  CHECK(gk[9].bytes == 16.0 * (3.0 * 2.0 * 128.0 + 4.0));
  // the gradient kernels' matmuls, counted in the kernels: 26/11 of the forward's at K = V = 128,
  // more than the 2x of scan_backward_factor (the SSD's)
  double grad_tensor = 0.0;
  for (const auto& w : gk) grad_tensor += w.tensor;
  CHECK(grad_tensor / tensor == Approx(26.0 / 11.0));
  check_halved(gk, detail::gated_delta_gradient_kernels(x, 2.0, 2.0, sfu));
  // a short sequence is launch-bound: eleven kernels' overheads; the backward's two recomputed
  // kernels, fla's seven gradient kernels and the repeats' and l2norms' four. Launched from
  // Python by Triton: eight of the forward's (not the repeats' repeat_interleave nor
  // solve_tril's zeros_like, PyTorch ops), and of the backward's the two recomputed, fla's five
  // gradient kernels besides dk.add_ and dg.add_, and the two l2norms' backward
  check_launch_bound(qwen3_next, detail::gated_delta_scan_seconds, {11.0, 2.0 + 7.0 + 4.0},
                     {8.0, 2.0 + 5.0 + 2.0});
  // as many key heads as value heads: no repeats launched, forward or backward
  transformer_spec same = qwen3_next;
  same.linear.groups = same.linear.heads;
  check_launch_bound(same, detail::gated_delta_scan_seconds, {9.0, 2.0 + 7.0 + 2.0},
                     {8.0, 2.0 + 5.0 + 2.0});
  // properties: time grows with the tokens, per token it does not (the launches amortise)
  check_grows_with_tokens(qwen3_next, detail::gated_delta_scan_seconds);
  // grows with the value and the key head width; tensor parallelism never slows a rank down
  for (const bool key : {false, true}) {
    double last = 0.0;
    for (const int width : {64, 128, 256}) {
      transformer_spec s = qwen3_next;
      (key ? s.linear.state_size : s.linear.head_dim) = width;
      s.linear.inner = s.linear.heads * s.linear.head_dim;
      const layer_probe pr(s, recompute_mode::none, 1, catalog::dgx_h100, 4096);
      const auto f = detail::gated_delta_scan_seconds(pr.in, pr.d);
      CHECK(f[0] > last);
      last = f[0];
      for (const int tp : {2, 4}) {
        const layer_probe pr2(s, recompute_mode::none, tp, catalog::dgx_h100, 4096);
        CHECK(detail::gated_delta_scan_seconds(pr2.in, pr2.d)[1] < f[1]);
      }
    }
  }
}
TEST_CASE("Mamba-2's SSD against FlashAttention-2 and Mamba's scan on an A100: published",
          "[hybrid][step]") {
  // Source: Dao & Gu, "Transformers are SSMs" (Mamba-2), arXiv:2405.21060, Sec. 9.3 and
  // Figure 10 (A100 80GB PCIe, state dim N = 64): "SSD is faster than FlashAttention-2
  // starting at sequence length 2K" (the left panel's SSD line crosses below FA2's around 2K,
  // so not faster at 1K), and SSD "is 2-8x faster than Mamba's fused associative scan".
  // The paper gives neither batch nor heads; the kernels' GPU times are linear in them, so the
  // check is a ratio of one layer's kernel times on the same tensors: Mamba-2 heads of head dim
  // 64 (Nemotron-H 8B's 128), one B/C group, N = 64, and as many attention heads of head dim 64,
  // one sequence. Where the host's launches bind (below), the ratio depends on that choice.
  // Forward times (the figure does not say whether it times the backward); FA2 at the model's
  // FA2 rate (step_assumptions::sdpa_flash2_*, torchtitan's kernel), SSD as its five Triton
  // kernels run (detail::ssd_scan_seconds), Mamba's scan on the CUDA cores.
  // The paper's software launched those Triton kernels from Python at the cost of its time
  // (step_assumptions::triton_launch_time, the host's launches overlapping the GPU's work):
  // Triton 2.2 as PyTorch 2.2 shipped it, 62 us a launch of a kernel of many arguments
  // (triton-lang/triton pull request #3503, 2024-03-29; mamba_ssm's SSD kernels take 20 to over
  // 50). FA2 is one kernel, its GPU time (215 us and more from 1K on) above any such cost.
  constexpr double triton_2024_us = 62.0;
  transformer_spec m = nemotron;
  m.linear.state_size = 64;
  m.linear.groups = 1;
  m.heads = m.kv_heads = m.linear.heads;
  m.head_dim = m.linear.head_dim;
  const node_spec a100 = single_gpu_node(catalog::a100_pcie_80gb);
  auto ssd_over_fa2 = [&](int seq, double launch_us) {
    layer_probe pr(m, recompute_mode::none, 1, a100, seq, framework_kind::megatron, launch_us);
    const double scan = detail::linear_mixer_kernels(pr.in, pr.d).scan_fwd;
    pr.c.framework = framework_kind::torchtitan;  // the attention core at FA2's rate
    return scan / detail::attention_core(pr.in, pr.d).fwd;
  };
  const double at_1k = ssd_over_fa2(1024, triton_2024_us);
  const double at_2k = ssd_over_fa2(2048, triton_2024_us);
  const double at_4k = ssd_over_fa2(4096, triton_2024_us);
  CAPTURE(at_1k, at_2k, at_4k);
  // Published, and held: SSD faster than FA2 at 2K, and its lead grows with the sequence.
  CHECK(at_2k < 1.0);
  CHECK(at_2k < at_1k);
  CHECK(at_4k < at_2k);
  // Published, and held with the launches: not faster at 1K (1.44). These tensors (one layer, one
  // sequence of 128 heads) are launch-bound up to about 3K: the five launches take 310 us, the
  // GPU's kernels 81 us at 1K and 141 us at 2K. The paper gives no batch or width; at 4x the
  // work per call the GPU's time would outlast the launches from 1K on.
  CHECK(at_1k > 1.0);
  // A known residual, not tuned: published, the ratio is about 1 at the crossover (at most 1 at
  // 2K, above 1 at 1K, so 0.5 to 1 at 2K as FA2's time grows at least 2x faster than SSD's from
  // 1K to 2K). Timed as a roofline at the 16-bit matmul rate the model gave 0.053 at 2K (10-19x
  // too fast); timed kernel by kernel (the fp32 chunk states, C B^T, dt and dA_cumsum written and
  // read again between the five kernels, the decay's exps on the CUDA cores, five launches) 0.19
  // at 2K and 0.37 at 1K (2.6-5.3x too fast, the crossover below 512 tokens); with Triton 2.2's
  // host-side launches 0.42 at 2K (1.2-2.4x too fast, the crossover near 1.3K). Not modelled: the
  // heads' re-reads of C B^T, B and C through L2, the small tiles' shared-memory traffic and
  // layout conversions (no sourced figure). FA2 here is the model's fit at head dim 128 on an
  // H100: were FA2 at head dim 64 on the A100 faster, the gap would be wider.
  // Bracket: the model's 0.42 +-30%, so a change to either kernel's timing shows here.
  CHECK(at_2k > 0.42 * 0.7);
  CHECK(at_2k < 0.42 * 1.3);
  // At today's Triton (the default, 13.2 us a launch) the same tensors are GPU-bound from 1K:
  // the kernel-by-kernel figures, 0.37 at 1K and 0.19 at 2K.
  const double now_1k = ssd_over_fa2(1024, -1.0), now_2k = ssd_over_fa2(2048, -1.0);
  CAPTURE(now_1k, now_2k);
  CHECK(now_1k == Approx(0.375).epsilon(0.02));
  CHECK(now_2k == Approx(0.190).epsilon(0.02));
  // Mamba-1's fused scan against SSD, N = 64, the same inner width and sequence (4K, the right
  // panel's): published 2-8x. The model's Mamba scan is bound by its recurrence on the CUDA
  // cores (detail::selective_scan_slots; one CUDA kernel, not Triton), SSD by its launches at
  // Triton 2.2 (310 us against its kernels' 263 us at N = 64). Tolerance 5% on the rounded ends.
  transformer_spec j = jamba;
  j.linear.inner = m.linear.inner;
  j.hidden = m.hidden;
  auto scan_fwd = [&](const transformer_spec& spec, int n) {
    transformer_spec s = spec;
    s.linear.state_size = n;
    const layer_probe pr(s, recompute_mode::none, 1, a100, 4096, framework_kind::megatron,
                         triton_2024_us);
    return detail::linear_mixer_kernels(pr.in, pr.d).scan_fwd;
  };
  const double scan_over_ssd = scan_fwd(j, 64) / scan_fwd(m, 64);
  CAPTURE(scan_over_ssd);
  CHECK(scan_over_ssd > 2.0 * 0.95);
  CHECK(scan_over_ssd < 8.0 * 1.05);
  // The right panel (sequence 4K, N = 16 to 256), its caption: "Increasing state expansion slows
  // down the Mamba optimized scan implementation linearly. SSD can handle much larger state
  // expansion factors without much slowdown." Linear: Mamba's scan 4x from N = 64 to 256,
  // tolerance 10% (its bytes hardly grow with N). SSD: held, it slows down much less than
  // Mamba's scan (at most 1.5x less); a known residual, not tuned: the model's SSD takes 2.0x
  // longer at N = 256 (2.3x without the launches, which hold N = 64 at 310 us), not the panel's
  // nearly flat line, its fp32 chunk states (P x N per head and chunk) outgrowing x at
  // Nemotron-H's chunk of 128 tokens (flops.hpp ssd_chunk_tokens; the paper does not give its
  // chunk size, mamba_ssm's Mamba2 module defaults to 256, which halves them).
  const double mamba_n = scan_fwd(j, 256) / scan_fwd(j, 64);
  const double ssd_n = scan_fwd(m, 256) / scan_fwd(m, 64);
  CAPTURE(mamba_n, ssd_n);
  CHECK(mamba_n == Approx(4.0).epsilon(0.10));
  CHECK(ssd_n < mamba_n / 1.5);
}
