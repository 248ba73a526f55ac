// FLOP counts against the published formulas and training budgets.
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/models/flops.hpp>

#include <stdexcept>
#include <string>

using namespace gpuplan;
namespace cat = gpuplan::catalog;
namespace u = gpuplan::units;

namespace {

constexpr double V = 51200, S = 2048;  // Korthikanti / Narayanan: vocabulary and sequence

const transformer_spec* const megatron[] = {&cat::megatron_22b, &cat::megatron_175b,
                                            &cat::megatron_530b, &cat::megatron_1t};

// Korthikanti et al. 2022 (arXiv:2205.05198) Eq. 7: model FLOPs per iteration of B sequences.
double korthikanti_eq7(double B, double L, double h) {
  return 72 * B * L * S * h * h * (1 + S / (6 * h) + V / (12 * h * L));
}
// Korthikanti Eq. 8: hardware FLOPs with selective recomputation.
double korthikanti_eq8(double B, double L, double h) {
  return 72 * B * L * S * h * h * (1 + S / (3 * h) + V / (12 * h * L));
}
// Narayanan et al. 2021 (arXiv:2104.04473) Eq. 3: FLOPs per iteration with full recomputation.
double narayanan_eq3(double B, double l, double h) {
  return 96 * B * S * l * h * h * (1 + S / (6 * h) + V / (16 * l * h));
}

token_count tokens(double n) { return n * u::token; }

}  // namespace

// Tolerance 1e-12 relative: the same integer-valued formula, evaluated in a different order.
TEST_CASE("training FLOPs equal Korthikanti Eq. 7 and Narayanan Eq. 3", "[flops]") {
  for (const transformer_spec* m : megatron) {
    INFO(std::string(m->name.view()));
    const double B = 8, L = m->layers, h = m->hidden;
    const double none = training_flops(*m, tokens(B * S), 2048).in(u::FLOP);
    const double full =
        training_flops(*m, tokens(B * S), 2048, recompute_mode::full).in(u::FLOP);
    CHECK(none == Approx(korthikanti_eq7(B, L, h)).epsilon(1e-12));
    CHECK(full == Approx(narayanan_eq3(B, L, h)).epsilon(1e-12));
  }
}

TEST_CASE("selective recomputation adds one forward of the attention core", "[flops]") {
  // Korthikanti Sec. 4.2 recomputes Q K^T, softmax, dropout and attention over V: their forward
  // is 4 B s^2 h per layer. Eq. 8 charges 12 B s^2 h per layer for it (Eq. 8 - Eq. 7 =
  // 72 B L s h^2 * s/6h), three times that forward, and the paper's 2.7% overhead and HFU
  // figures follow Eq. 8. gpuplan counts the recomputed work: exactly a third of Eq. 8's extra.
  for (const transformer_spec* m : megatron) {
    INFO(std::string(m->name.view()));
    const double B = 4, L = m->layers, h = m->hidden;
    const double none = training_flops(*m, tokens(B * S), 2048).in(u::FLOP);
    const double selective =
        training_flops(*m, tokens(B * S), 2048, recompute_mode::selective).in(u::FLOP);
    const double eq8_extra = korthikanti_eq8(B, L, h) - korthikanti_eq7(B, L, h);
    CHECK(selective - none == Approx(eq8_extra / 3).epsilon(1e-9));
    CHECK(selective - none == Approx(4 * B * S * S * h * L).epsilon(1e-12));
  }
}

TEST_CASE("model FLOPs reproduce Korthikanti Table 5 MFU on the catalog A100", "[flops]") {
  // Korthikanti Table 5 (sequence parallel + selective recompute; Selene, A100 80GB): iteration
  // time and MFU. MFU = model FLOPs (Eq. 7) / (time x GPUs x peak). Peak is the catalog's dense
  // A100 BF16 rate, 312 TFLOP/s. Tolerance: the rounding of the printed iteration time (22B:
  // "1.1 s", two digits, +-4.5% -> 0.5 points; the others four digits -> 0.1 points).
  struct row {
    const transformer_spec& model;
    double global_batch, gpus, seconds, mfu_percent, tolerance_points;
  };
  const row rows[] = {{cat::megatron_22b, 4, 8, 1.1, 41.5, 0.5},
                      {cat::megatron_175b, 64, 64, 13.75, 51.4, 0.1},
                      {cat::megatron_530b, 280, 280, 37.83, 56.0, 0.1},
                      {cat::megatron_1t, 512, 512, 71.49, 56.3, 0.1}};
  const compute_rate peak = cat::a100_sxm_80gb.peak.tensor(precision::bf16);
  for (const row& r : rows) {
    INFO(std::string(r.model.name.view()));
    const compute_amount f = training_flops(r.model, tokens(r.global_batch * S), 2048);
    const double mfu = f / (r.seconds * u::s * r.gpus * peak);
    CHECK(100 * mfu == Approx(r.mfu_percent).margin(r.tolerance_points));
  }
}

TEST_CASE("forward FLOPs follow Kaplan: C_forward = 2N + 2 n_layer n_ctx d_attn", "[flops]") {
  // Kaplan et al. 2020 (arXiv:2001.08361) Table 1: N = 2 d_model n_layer (2 d_attn + d_ff) non-
  // embedding parameters, C_forward = 2N + 2 n_layer n_ctx d_attn (per token, excluding the
  // embedding/unembedding). Kaplan's attention term is causal self-attention counted as
  // n_ctx/2 keys for both matmuls; gpuplan's causal mask averages (n_ctx + 1)/2 keys, so the
  // ratio of the attention terms is (n_ctx + 1)/n_ctx: tolerance 1/n_ctx on that term.
  for (const transformer_spec* m : megatron) {
    INFO(std::string(m->name.view()));
    const double l = m->layers, d = m->hidden;
    const double N = 2 * d * l * (2 * d + 4 * d);
    const forward_flops f = forward_flops_per_token(*m, 2048, attention_mask::causal);
    CHECK(f.layers_matmul.in(u::FLOP_per_token) == 2 * N);
    CHECK(f.attention.in(u::FLOP_per_token) ==
          Approx(2 * l * 2048 * d).epsilon(1.0 / 2048));
  }
}

TEST_CASE("training compute follows C = 6ND (GPT-3 Table D.1)", "[flops]") {
  // GPT-3 (arXiv:2005.14165) Table D.1: training FLOPs for 300B tokens, computed as 6ND with
  // attention left out (App. D). Shapes from Table 2.1 (n_layers, d_model, n_heads; GPT-2
  // vocabulary 50,257, n_ctx 2048). gpuplan's matmul count without attention (3 x (layers'
  // matmuls + LM head)) against the table: tolerance 1.5%, because 6N also counts biases, norms
  // and the 2048 x d_model position table, which do no matmul (1.3% of the 125M model, 0.03% of
  // 175B), and the table prints 3 digits.
  struct row {
    int layers, d_model, heads;
    double params, flops;
  };
  const row rows[] = {{12, 768, 12, 125e6, 2.25e20},      {24, 1024, 16, 356e6, 6.41e20},
                      {24, 1536, 16, 760e6, 1.37e21},     {24, 2048, 24, 1320e6, 2.38e21},
                      {32, 2560, 32, 2650e6, 4.77e21},    {32, 4096, 32, 6660e6, 1.2e22},
                      {40, 5140, 40, 12850e6, 2.31e22},   {96, 12288, 96, 174600e6, 3.14e23}};
  for (const row& r : rows) {
    const transformer_spec m = cat::gpt_decoder("GPT-3", r.layers, r.d_model, r.heads, 50257, 2048);
    INFO(r.params);
    // Parameter count: the table's figure within 1% (13B: d_model 5140 with 40 heads of 128).
    CHECK(m.parameters() == Approx(r.params).epsilon(0.01));
    const forward_flops f = forward_flops_per_token(m, 2048, attention_mask::full);
    const double no_attention = 3 * (f.layers_matmul + f.lm_head).in(u::FLOP_per_token) * 300e9;
    CHECK(no_attention == Approx(r.flops).epsilon(0.015));
    // The full count adds attention: s/6h of the matmuls for 175B (+2.8%), far more for the
    // small models at the same context (+29% for 125M), which 6ND hides.
    const double with_attention = training_flops(m, tokens(300e9), 2048).in(u::FLOP);
    CHECK(with_attention > no_attention);
  }
  const double gpt3 = training_flops(cat::gpt3_175b, tokens(300e9), 2048).in(u::FLOP);
  CHECK(gpt3 / 3.14e23 == Approx(1.028).margin(0.005));
}

TEST_CASE("Llama 3 405B's 3.8e25 FLOPs is 6ND; attention at 8K context adds 4%", "[flops]") {
  // Llama 3 Herd paper (arXiv:2407.21783) Sec. 3.2.1: 405B parameters, 15.6T tokens, 3.8e25
  // FLOPs. Printed to two digits: tolerance 1.3%.
  const double N = cat::llama31_405b.parameters(), D = 15.6e12;
  CHECK(6 * N * D == Approx(3.8e25).epsilon(0.013));
  // The full count at the 8,192-token pre-training context, causal attention (FlashAttention):
  // 6 l d_attn s / 2 per token over 6N: 126 x 16384 x 8192 / 405.9e9 = +4.2%.
  const double full =
      training_flops(cat::llama31_405b, tokens(D), 8192, recompute_mode::none,
                     attention_mask::causal)
          .in(u::FLOP);
  CHECK(full / (6 * N * D) == Approx(1.040).margin(0.005));
}

TEST_CASE("Chinchilla's compute-optimal budgets follow C = 6ND", "[flops]") {
  // Hoffmann et al. 2022 (arXiv:2203.15556) Table 3 (Approach 1): parameters, FLOPs, tokens.
  // The table's N and D are rounded to 1-4 digits (67B and 1.5T give 6ND 4.7% above the printed
  // 5.76e23): tolerance 5%. gpuplan's count is 6N per token plus the attention and LM-head
  // terms: for the 1T Megatron shape at s = 2048, 6N (1 + s/6h + ...) = 6N x 1.013.
  const double rows[][3] = {{4e8, 1.92e19, 8e9},       {1e9, 1.21e20, 2.02e10},
                            {1e10, 1.23e22, 2.051e11}, {6.7e10, 5.76e23, 1.5e12},
                            {1.75e11, 3.85e24, 3.7e12}, {2.8e11, 9.9e24, 5.9e12},
                            {5.2e11, 3.43e25, 1.1e13}, {1e12, 1.27e26, 2.12e13}};
  for (const auto& r : rows) CHECK(6 * r[0] * r[2] == Approx(r[1]).epsilon(0.05));
  const transformer_spec& m = cat::megatron_1t;
  const double per_token = training_flops_per_token(m, 2048).in(u::FLOP_per_token);
  CHECK(per_token / (6 * m.parameters()) == Approx(1.013).margin(0.003));
}

TEST_CASE("inference: decode and prefill FLOPs", "[flops]") {
  // A decoding token multiplies through every weight once: 2 FLOP per matmul weight. For Llama
  // (no biases) the matmul weights are all parameters except the two embedding tables and the
  // (2L + 1) RMSNorm vectors; the LM head is one of the tables and is counted separately.
  const transformer_spec& m = cat::llama31_70b;
  const double P = m.parameters(), Vh = 1.0 * m.vocab * m.hidden;
  const double norms = (2.0 * m.layers + 1) * m.hidden;
  const forward_flops f = forward_flops_per_token(m, 1, attention_mask::full);
  CHECK(f.layers_matmul.in(u::FLOP_per_token) == 2 * (P - 2 * Vh - norms));
  CHECK(f.lm_head.in(u::FLOP_per_token) == 2 * Vh);
  // Attention at a 8,191-token KV cache: 4 x layers x (heads x head_dim) x 8,192 keys.
  const double q = 1.0 * m.heads * m.head_dim;
  CHECK(decode_flops_per_token(m, 8191).in(u::FLOP_per_token) ==
        f.layers_matmul.in(u::FLOP_per_token) + f.lm_head.in(u::FLOP_per_token) +
            4 * m.layers * q * 8192);
  // A 2,048-token prefill: 2,048 tokens, causal attention averaging 1,024.5 keys.
  const double prefill = prefill_flops(m, 2048).in(u::FLOP);
  CHECK(prefill == Approx(2048 * (f.layers_matmul.in(u::FLOP_per_token) +
                                  f.lm_head.in(u::FLOP_per_token) +
                                  4 * m.layers * q * 1024.5))
                       .epsilon(1e-12));
}

TEST_CASE("MoE tokens pay for the routed experts only", "[flops]") {
  // Mixtral 8x7B: the layers' matmul weights a token uses are its active parameters minus the
  // embedding tables and norms (the router is a matmul and is counted).
  const transformer_spec& m = cat::mixtral_8x7b;
  const double Vh = 1.0 * m.vocab * m.hidden, norms = (2.0 * m.layers + 1) * m.hidden;
  CHECK(active_matmul_weights(m) == m.active_parameters() - 2 * Vh - norms);
  CHECK(active_matmul_weights(m) < 0.3 * m.parameters());  // 2 of 8 experts
}

TEST_CASE("sliding-window attention caps the keys", "[flops]") {
  // Mistral 7B v0.1 attends over a 4,096-token window. Causal over s = 32,768 tokens: queries
  // 1..4096 see i keys, the rest 4,096: average (4096 x 4097 / 2 + 28672 x 4096) / 32768.
  const transformer_spec& m = cat::mistral_7b;
  const double q = 1.0 * m.heads * m.head_dim;
  const double keys = (4096.0 * 4097 / 2 + 28672.0 * 4096) / 32768;
  CHECK(forward_flops_per_token(m, 32768, attention_mask::causal).attention.in(u::FLOP_per_token) ==
        Approx(4 * m.layers * q * keys).epsilon(1e-12));
  CHECK(decode_flops_per_token(m, 100000).value == decode_flops_per_token(m, 5000).value);
  // Inside the window nothing changes: causal over 4,096 tokens averages 2,048.5 keys.
  CHECK(forward_flops_per_token(m, 4096).attention.in(u::FLOP_per_token) ==
        4 * m.layers * q * 2048.5);
}

TEST_CASE("FLOP functions reject a non-positive context", "[flops][validate]") {
  CHECK_THROWS_WITH(forward_flops_per_token(cat::llama31_8b, 0),
                    "gpuplan: flops: context (tokens) must be positive (got 0)");
  CHECK_THROWS_WITH(decode_flops_per_token(cat::llama31_8b, -1),
                    "gpuplan: flops: context (tokens) must not be negative (got -1)");
}

TEST_CASE("local and global layers: windows on some layers only, and chunks", "[flops][window]") {
  // Gemma 3 27B: 52 of its 62 layers attend over 1,024 tokens, 10 over the whole context. A
  // decoding token at context 32,767 (32,768 keys with itself): 10 x 32,768 + 52 x 1,024 keys,
  // at 4 x heads x head_dim FLOPs each.
  const transformer_spec& g = cat::gemma3_27b;
  const double per_key = 4.0 * g.heads * g.head_dim;
  CHECK(decode_flops_per_token(g, 32767).value ==
        Approx(forward_flops_per_token(g, 1, attention_mask::full).total().value -
               forward_flops_per_token(g, 1, attention_mask::full).attention.value +
               per_key * (10.0 * 32768 + 52.0 * 1024))
            .epsilon(1e-12));
  // Chunked attention (Llama 4's attention_chunk_size): query i sees ((i - 1) mod w) + 1 keys.
  transformer_spec c = cat::llama31_8b;
  c.sliding_window = 4;
  c.window = window_kind::chunked;
  c.global_every = 0;
  // causal over 10 tokens in chunks of 4: 1+2+3+4 + 1+2+3+4 + 1+2 = 23 keys, 2.3 per query
  CHECK(detail::keys_attended(c, 0, 10, attention_mask::causal) == Approx(2.3));
  // the 10th token attends to the 2 of its chunk
  CHECK(detail::keys_attended(c, 0, 10, attention_mask::full) == 2.0);
  CHECK(detail::keys_attended(c, 0, 8, attention_mask::full) == 4.0);
}

TEST_CASE("MLA: prefill over nope + rope + v, decode with absorbed weights", "[flops][mla]") {
  // DeepSeek-V2 Sec. 2.1.2 / V3 Sec. 2.1.1: prefill computes 128 heads of 192-wide scores and
  // 128-wide values; decode absorbs W_UK into the query and W_UV into the output and attends
  // over the 512-wide latent and the 64-wide rotary key: 2 x 128 x (2 x 512 + 64) per key.
  const transformer_spec& v3 = cat::deepseek_v3;
  CHECK(detail::attention_flops_per_key(v3) == 2.0 * 128 * (192 + 128));
  CHECK(detail::decode_attention_flops_per_key(v3) == 2.0 * 128 * (2 * 512 + 64));
  const forward_flops f = forward_flops_per_token(v3, 4096, attention_mask::full);
  const double decode_attention = decode_flops_per_token(v3, 4095).value - f.layers_matmul.value -
                                  f.lm_head.value;
  CHECK(decode_attention == Approx(61.0 * 4096 * 2.0 * 128 * 1088).epsilon(1e-12));
  // The matmul weights a token passes through: 37.55B active less the embedding (0.93B) and the
  // head (0.93B, counted as lm_head), norms and router biases: within 0.1% of 35.7B.
  CHECK(active_matmul_weights(v3) / 1e9 == Approx(35.69).epsilon(0.001));
}
