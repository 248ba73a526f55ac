// The transformers framework profile (models/framework_memory.hpp): each term with its arithmetic,
// then one reference test per calibration run. The calibration runs were measured on H100 80GB
// HBM3, PyTorch 2.11, transformers 5.17, 2026-11-23, gpuplan's calibration set: models built from
// their published config.json with random weights, sdpa attention, model(ids, labels=ids).loss,
// loss.backward(), torch.optim.AdamW(fused=True), zero_grad(set_to_none=True); bytes are GiB.
// `process` = the caching allocator's peak reserved memory + 0.66 GiB of CUDA context.
// Run with -s to print the predicted-vs-measured table.
#include "../catch.hpp"

#if defined(GPUPLAN_CATCH2_V3)
#include <catch2/interfaces/catch_interfaces_config.hpp>
#include <catch2/internal/catch_context.hpp>
#endif

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/io/hf_config.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace gpuplan;

namespace {

std::string data(const std::string& rel) { return std::string(GPUPLAN_TEST_DATA_DIR) + "/" + rel; }
transformer_spec load(const std::string& name) {
  return io::load_hf_config(data("hf/" + name + "/config.json"));
}
constexpr double GiB = 1073741824.0;
double gib(data_size x) { return x.in(units::B) / GiB; }

bool throws_naming(auto&& f, const std::string& field) {
  try {
    f();
  } catch (const gpuplan::invalid_input& e) {
    return std::string(e.what()).find(field) != std::string::npos;
  }
  return false;
}

bool verbose() {
  return Catch::getCurrentContext().getConfig()->includeSuccessfulResults();
}

enum class regime { amp, bf16, lora16 };

training_config config_of(regime r, int mb, int seq, bool ck) {
  training_config c{};
  c.framework = framework_kind::transformers;
  c.dtype = precision::bf16;
  c.micro_batch = mb;
  c.seq = seq;
  c.recompute = ck ? recompute_mode::full : recompute_mode::none;
  if (r == regime::amp) c.amp = true;
  if (r == regime::bf16) {
    c.master_weights = false;
    c.grad_dtype = precision::bf16;
  }
  if (r == regime::lora16) {
    c.lora_rank = 16;
    c.lora_targets = lora_target::all_linear;
  }
  return c;
}

}  // namespace

// ---- terms ------------------------------------------------------------------------------------

TEST_CASE("transformers: model states per precision regime", "[framework][states]") {
  const transformer_spec m = load("llama-3.2-1b");
  const double n = m.parameters();  // 1,235,814,400 (tied embeddings)
  CHECK(n == 1235814400.0);
  // amp: fp32 parameters 4 B + AdamW m and v 8 B; gradients 4 B; 16 B/param in all.
  const transformers_terms amp = transformers_memory_terms(m, {}, config_of(regime::amp, 1, 2048, false));
  CHECK(amp.weights.in(units::B) == 4.0 * n);
  CHECK(amp.optimizer.in(units::B) == 8.0 * n);
  CHECK(amp.gradients.in(units::B) == 4.0 * n);
  // "states" (allocated after a step, gradients freed) measured 13.81 GiB: 12 x 1.2358e9 / 2^30.
  CHECK(gib(amp.weights + amp.optimizer) == Approx(13.81).epsilon(0.001));
  // pure bf16: 2 + 2 (AdamW states in the parameters' dtype) + 2 gradients = 8 B/param.
  const transformers_terms bf = transformers_memory_terms(m, {}, config_of(regime::bf16, 1, 2048, false));
  CHECK(bf.weights.in(units::B) == 2.0 * n);
  CHECK(bf.optimizer.in(units::B) == 4.0 * n);
  CHECK(bf.gradients.in(units::B) == 2.0 * n);
  CHECK(gib(bf.weights + bf.optimizer) == Approx(6.91).epsilon(0.001));  // measured 6.91
  // LoRA rank 16 on q,k,v,o,gate,up,down: 16 layers x 16 x (2(2048+2048) + 2(2048+512)
  // + 3(2048+8192)) = 11,272,192 fp32 adapters (measured model: 1.247B = 1.2358B + 0.0113B).
  const transformers_terms lo = transformers_memory_terms(m, {}, config_of(regime::lora16, 1, 2048, false));
  const double adapters = 16.0 * 16 * (2 * (2048 + 2048) + 2 * (2048 + 512) + 3 * (2048 + 8192));
  CHECK(adapters == 11272192.0);
  CHECK(lo.weights.in(units::B) == 2.0 * n + 4.0 * adapters);
  CHECK(lo.optimizer.in(units::B) == 8.0 * adapters);
  CHECK(lo.gradients.in(units::B) == 4.0 * adapters);
  CHECK(gib(lo.weights + lo.optimizer) == Approx(2.43).epsilon(0.002));  // measured 2.43
  // bf16 with an fp32 master copy (DeepSpeed-style mixed precision): 2 + 2 + 4 + 8 = 16 B.
  training_config master = config_of(regime::bf16, 1, 2048, false);
  master.master_weights = true;
  const transformers_terms ms = transformers_memory_terms(m, {}, master);
  CHECK((ms.weights + ms.optimizer + ms.gradients).in(units::B) == 16.0 * n);
}

TEST_CASE("transformers: autocast's weight copies", "[framework][copies]") {
  const transformer_spec m = load("llama-3.2-1b");
  const detail::rank_params p = detail::stage_params(m, {}, 0);
  // Every linear weight of the layers and the LM head (the tied embedding) in bf16: 2 B each.
  const double linear = 16.0 * (2 * 2048.0 * 2048 + 2 * 2048.0 * 512 + 3 * 2048.0 * 8192);
  CHECK(p.linear == linear);
  const double expect = 2.0 * (linear + 128256.0 * 2048);
  const transformers_terms amp = transformers_memory_terms(m, {}, config_of(regime::amp, 1, 2048, false));
  CHECK(amp.weight_copies.in(units::B) == expect);
  CHECK(amp.weight_copies_loss.in(units::B) == expect);  // saved by the products until backward
  // Checkpointing: the layers' copies die with the autocast region; the LM head's stays.
  const transformers_terms ck = transformers_memory_terms(m, {}, config_of(regime::amp, 1, 2048, true));
  CHECK(ck.weight_copies_loss.in(units::B) == 2.0 * 128256.0 * 2048);
  // Pure bf16: no copies.
  CHECK(transformers_memory_terms(m, {}, config_of(regime::bf16, 1, 2048, false)).weight_copies.value == 0.0);
}

TEST_CASE("transformers: eager activations of one decoder layer", "[framework][activations]") {
  const transformer_spec m = load("llama-3.2-1b");  // h 2048, q 32x64, kv 8x64, ffn 8192
  const transformers_profile p{};
  const double h = 2048, q = 2048, kv = 512, f = 8192, heads = 32;
  // amp (fp32 residual stream): norm input 4h + normalised 4h + three bf16 casts for q,k,v 6h;
  // sdpa's Q,K,V,out 2(q + kv + kv + q) + lse 4 x heads; o_proj's input 2q; second norm 4h + 4h
  // + casts for gate and up 4h; gate out, SiLU out, up out, product 2f each.
  const double amp = 26 * h + 6 * q + 4 * kv + 8 * f + 4 * heads;
  CHECK(amp == 133248.0);
  CHECK(detail::hf_layer_bytes_per_token(m, config_of(regime::amp, 1, 1, false), p) == amp);
  // pure bf16: norms keep the fp32 upcast 4h + normalised 2h + output 2h (shared by the linears).
  const double bf = 16 * h + 6 * q + 4 * kv + 8 * f + 4 * heads;
  CHECK(detail::hf_layer_bytes_per_token(m, config_of(regime::bf16, 1, 1, false), p) == bf);
  // LoRA 16, frozen bf16 base: norms keep only the fp32 upcast 4h; each adapter its own bf16
  // cast of its input (q,k,v 6h, o 2q, gate/up 4h, down 2f) and lora_B's input 2r (7 adapters).
  const double lo = 18 * h + 6 * q + 4 * kv + 8 * f + 4 * heads + 7 * 2 * 16;
  CHECK(lo == 117088.0);
  CHECK(detail::hf_layer_bytes_per_token(m, config_of(regime::lora16, 1, 1, false), p) == lo);
  // Without native GQA in sdpa, K and V are expanded to all heads: +4(q - kv) bytes.
  transformers_profile expand{};
  expand.sdpa_native_gqa = false;
  CHECK(detail::hf_layer_bytes_per_token(m, config_of(regime::amp, 1, 1, false), expand) ==
        amp + 4 * (q - kv));
  // The final norm and the LM head's input: amp 4h + 4h + 2h, bf16 4h + 2h + 2h, LoRA 4h.
  CHECK(detail::hf_head_bytes_per_token(m, config_of(regime::amp, 1, 1, false)) == 10 * h);
  CHECK(detail::hf_head_bytes_per_token(m, config_of(regime::bf16, 1, 1, false)) == 8 * h);
  CHECK(detail::hf_head_bytes_per_token(m, config_of(regime::lora16, 1, 1, false)) == 4 * h);
  // Whole model without checkpointing: 16 layers x tokens x per-layer bytes.
  const transformers_terms t = transformers_memory_terms(m, {}, config_of(regime::amp, 2, 4096, false));
  CHECK(t.stored_activations.in(units::B) == 16.0 * 8192 * amp);
}

TEST_CASE("transformers: gradient checkpointing keeps layer inputs", "[framework][checkpointing]") {
  const transformer_spec m = load("qwen2.5-0.5b");  // 24 layers, h 896
  // Each layer's input in the residual's dtype: fp32 under amp, bf16 in pure bf16.
  const transformers_terms a = transformers_memory_terms(m, {}, config_of(regime::amp, 2, 8192, true));
  CHECK(a.stored_activations.in(units::B) == 24.0 * 4 * 896 * 16384);
  const transformers_terms b = transformers_memory_terms(m, {}, config_of(regime::bf16, 2, 8192, true));
  CHECK(b.stored_activations.in(units::B) == 24.0 * 2 * 896 * 16384);
  // One layer's full activations are live while it is recomputed.
  CHECK(a.layer_activations.in(units::B) ==
        16384.0 * detail::hf_layer_bytes_per_token(m, config_of(regime::amp, 2, 8192, true), {}));
}

TEST_CASE("transformers: logits, loss and the stranded segment", "[framework][loss]") {
  const transformer_spec m = load("qwen2.5-0.5b");  // vocab 151936
  const double n = 1.0 * 4 * 4096 * 151936;          // logits of a 4 x 4096 micro-batch
  const transformers_terms t = transformers_memory_terms(m, {}, config_of(regime::amp, 4, 4096, false));
  // Forward: bf16 logits 2 B + their fp32 copy (logits.float()) 4 B + log_softmax's output 4 B.
  CHECK(t.loss_forward.in(units::B) == 10.0 * n);
  // Backward: saved log_softmax output + nll_loss's gradient + log_softmax's gradient, 4 B each.
  CHECK(t.loss_backward.in(units::B) == 12.0 * n);
  // The freed 2 B/logit segment cannot hold a 4 B/logit request: it stays reserved.
  CHECK(t.stranded.in(units::B) == 2.0 * n);
  memory_assumptions no_strand{};
  no_strand.transformers.stranded_logits_segment = false;
  CHECK(transformers_memory_terms(m, {}, config_of(regime::amp, 4, 4096, false), no_strand).stranded.value == 0.0);
}

TEST_CASE("transformers: chunked (fused linear) cross entropy", "[framework][loss]") {
  const transformer_spec m = load("llama-3.2-1b");
  // Liger's chunk: ceil(128256 / 2048) = 63; ceil(16384 / 63) = 261 -> next power of two 512.
  CHECK(detail::hf_chunk_tokens(m, 16384.0, {}) == 512.0);
  training_config c = config_of(regime::amp, 8, 2048, false);
  c.chunked_loss = true;
  const transformers_terms t = transformers_memory_terms(m, {}, c);
  // One chunk's bf16 logits + the held gradients of the hidden states (fp32 residual) and of the
  // fp32 LM head.
  const double expect = 512.0 * 128256 * 2 + 16384.0 * 2048 * 4 + 128256.0 * 2048 * 4;
  CHECK(t.loss_forward.in(units::B) == expect);
  CHECK(t.stranded.value == 0.0);
  const training_config plain = config_of(regime::amp, 8, 2048, false);
  CHECK(transformers_training_memory(m, {}, c).total() <
        transformers_training_memory(m, {}, plain).total());
}

TEST_CASE("transformers: phases and the lines of the breakdown", "[framework][phases]") {
  const transformer_spec m = load("qwen2.5-0.5b");
  const training_config c = config_of(regime::amp, 1, 2048, false);
  const transformers_terms t = transformers_memory_terms(m, {}, c);
  const memory_breakdown b = transformers_training_memory(m, {}, c);
  // Optimizer step: fused AdamW in place: states + gradients.
  CHECK(b.phases.optimizer == t.weights + t.optimizer + t.gradients);
  // Forward: states + copies + saved activations + the loss's forward tensors.
  CHECK(b.phases.forward_loss == t.weights + t.optimizer + t.weight_copies + t.stored_activations +
                                     t.head_activations + t.loss_forward);
  // The peak is the loss's backward, with the stranded segment as the allocator's reserve.
  CHECK(b.phases.peak == training_phase::backward);
  CHECK(b.phases.allocator_reserve == t.stranded);
  CHECK(b.phases.cuda_context == 0.66 * units::GiB);
  // total() = reserved + context: what the process holds at its peak.
  CHECK(b.total().in(units::B) == Approx((b.phases.reserved + b.phases.cuda_context).in(units::B)));
  CHECK(b.tensors() + b.overhead == b.total());
}

TEST_CASE("transformers: bad input names the field", "[framework][errors]") {
  const transformer_spec m = load("llama-3.2-1b");
  training_config c = config_of(regime::amp, 1, 2048, false);
  c.framework = framework_kind::megatron;
  CHECK(throws_naming([&] { (void)training_fit(m, catalog::h100_sxm, {}, c); }, "training_config.amp"));
  c = config_of(regime::bf16, 1, 2048, false);
  c.chunked_loss = true;
  c.framework = framework_kind::megatron;
  CHECK(throws_naming([&] { (void)training_fit(m, catalog::h100_sxm, {}, c); }, "training_config.chunked_loss"));
  c = config_of(regime::amp, 1, 2048, false);
  CHECK(throws_naming([&] { (void)transformers_training_memory(m, {.tp = 2}, c); }, "layout.tp"));
  c.dtype = precision::fp32;
  CHECK(throws_naming([&] { (void)transformers_training_memory(m, {}, c); }, "training_config.amp"));
  memory_assumptions a{};
  a.transformers.chunk_tokens = -1;
  CHECK(throws_naming([&] { (void)transformers_training_memory(m, {}, config_of(regime::bf16, 1, 8, false), a); },
                      "transformers.chunk_tokens"));
  generic_workload g{};
  g.parameters = 1e9;
  CHECK(throws_naming([&] { (void)training_fit(g, catalog::h100_sxm, {}, config_of(regime::bf16, 1, 8, false)); },
                      "training_config.framework"));
}

TEST_CASE("transformers: the Megatron profile is unchanged", "[framework][megatron]") {
  const transformer_spec m = load("llama-3.2-1b");
  training_config c{};
  c.micro_batch = 4;
  c.seq = 4096;
  CHECK(framework_training_memory(m, {}, c).total() == training_memory(m, {}, c).total());
  CHECK(framework_training_memory(m, {}, c).phases.peak == training_phase::none);
}

TEST_CASE("transformers: DDP buckets and ZeRO sharding", "[framework][parallel]") {
  const transformer_spec m = load("llama-3.2-1b");
  const training_config c = config_of(regime::amp, 1, 2048, false);
  const transformers_terms ddp = transformers_memory_terms(m, {.dp = 4}, c);
  CHECK(ddp.ddp_buckets == ddp.gradients);  // gradient_as_bucket_view=False keeps a copy
  const transformers_terms z3 = transformers_memory_terms(m, {.dp = 4, .zero = 3}, c);
  CHECK(z3.weights.in(units::B) == Approx(4.0 * m.parameters() / 4));
  CHECK(z3.optimizer.in(units::B) == Approx(8.0 * m.parameters() / 4));
  CHECK(z3.ddp_buckets.value == 0.0);
}

TEST_CASE("transformers: the advice offers the Hugging Face levers", "[framework][advice]") {
  const transformer_spec m = load("llama-3.2-1b");
  // llama-3.2-1b amp 16 x 4096 with checkpointing ran out of memory on the H100.
  const fit_report r = training_fit(m, catalog::h100_sxm, {}, config_of(regime::amp, 16, 4096, true));
  REQUIRE_FALSE(r.fits());
  bool chunked = false, micro = false, pure = false, lora = false;
  for (const advice& a : r.advice_list()) {
    const std::string s(a.change.view());
    chunked |= s.find("chunked cross entropy") != std::string::npos;
    micro |= s.find("micro-batch") != std::string::npos;
    pure |= s.find("pure bf16") != std::string::npos;
    lora |= s.find("LoRA") != std::string::npos;
    CHECK(s.find("tensor parallel") == std::string::npos);  // not a transformers lever
  }
  CHECK(chunked);
  CHECK(micro);
  CHECK(pure);
  CHECK(lora);
  REQUIRE(!r.options.empty());
  CHECK(r.options[0].fits);
}

TEST_CASE("transformers: the levers together when none fits alone", "[framework][advice]") {
  // Mistral 7B under amp at 8 x 2048: 16 B/param of states (108 GiB) alone exceed an H100.
  const transformer_spec m = load("mistral-7b-v0.1");
  const fit_report r = training_fit(m, catalog::h100_sxm, {}, config_of(regime::amp, 8, 2048, false));
  REQUIRE_FALSE(r.fits());
  REQUIRE(!r.options.empty());
  const std::string first(r.options[0].change.view());
  CHECK(first.rfind("together: ckpt", 0) == 0);
  CHECK(r.options[0].fits);
  // Applying the levers it names gives the figure it reports.
  training_config c = config_of(regime::amp, 8, 2048, false);
  c.recompute = recompute_mode::full;
  c.chunked_loss = true;
  c.amp = false;
  c.master_weights = false;
  c.grad_dtype = precision::bf16;
  CHECK(first == "together: ckpt + chunked CE + pure bf16");
  CHECK(r.options[0].total == framework_training_memory(m, {}, c).total());
}

// ---- calibration: one reference test per measured run -----------------------------------------

namespace {

struct measured_run {
  const char* model;
  regime reg;
  int micro_batch, seq;
  bool ck;
  double states, fwd, bwd, opt;  // GiB allocated; 0 where not measured
  double process;                // GiB, peak reserved + 0.66; 0 = out of memory
};

// Measured on H100 80GB HBM3, PyTorch 2.11, transformers 5.17, 2026-11-23, gpuplan's calibration
// set (columns: states after a step, peak allocated in forward+loss, backward, optimizer step,
// process peak = peak reserved + 0.66 GiB; 0 = not recorded, process 0 = out of memory).
constexpr measured_run calibration[] = {
    {"qwen2.5-0.5b", regime::amp, 8, 2048, false, 5.55, 0, 0, 0, 60.62},
    {"qwen2.5-0.5b", regime::amp, 16, 2048, false, 0, 0, 0, 0, 0},
    {"qwen2.5-0.5b", regime::amp, 8, 4096, true, 5.53, 0, 0, 0, 72.85},
    {"llama-3.2-1b", regime::amp, 4, 2048, false, 13.81, 0, 0, 0, 45.17},
    {"llama-3.2-1b", regime::amp, 8, 2048, false, 13.81, 0, 0, 0, 74.83},
    {"llama-3.2-1b", regime::amp, 16, 4096, true, 0, 0, 0, 0, 0},
    {"llama-3.2-1b", regime::bf16, 8, 2048, false, 6.91, 0, 0, 0, 65.44},
    {"llama-3.2-1b", regime::bf16, 4, 8192, true, 6.91, 0, 0, 0, 62.20},
    {"qwen2.5-0.5b", regime::amp, 1, 2048, false, 5.61, 12.54, 13.11, 7.47, 15.04},
    {"qwen2.5-0.5b", regime::amp, 4, 4096, false, 5.52, 54.14, 58.72, 7.37, 60.57},
    {"qwen2.5-0.5b", regime::amp, 2, 8192, true, 5.53, 31.16, 35.05, 7.38, 38.02},
    {"qwen2.5-0.5b", regime::amp, 16, 1024, true, 5.52, 31.15, 35.05, 7.37, 38.02},
    {"qwen2.5-0.5b", regime::bf16, 8, 2048, false, 2.76, 47.08, 51.72, 3.69, 55.43},
    {"llama-3.2-1b", regime::amp, 1, 2048, false, 13.81, 22.56, 23.03, 18.42, 24.55},
    {"llama-3.2-1b", regime::amp, 2, 4096, false, 13.81, 41.89, 43.78, 18.42, 45.17},
    {"llama-3.2-1b", regime::amp, 4, 4096, true, 13.81, 38.13, 40.10, 18.42, 45.56},
    {"llama-3.2-1b", regime::amp, 8, 8192, true, 0, 0, 0, 0, 0},
    {"llama-3.2-1b", regime::lora16, 8, 2048, false, 2.43, 50.67, 54.52, 2.47, 60.28},
    {"llama-3.2-1b", regime::lora16, 16, 2048, true, 2.43, 43.97, 51.65, 2.72, 63.88},
    {"mistral-7b-v0.1", regime::lora16, 4, 2048, false, 13.96, 69.63, 70.06, 14.12, 74.36},
    {"mistral-7b-v0.1", regime::lora16, 8, 4096, true, 13.96, 32.57, 34.20, 14.62, 42.83},
    {"mistral-7b-v0.1", regime::bf16, 1, 4096, true, 40.47, 42.83, 54.56, 53.96, 56.06},
};
// What the device reported: torch.cuda.get_device_properties(0).total_memory = 85,017,493,504 B.
constexpr double device_gib = 85017493504.0 / GiB;  // 79.18

const char* name_of(regime r) {
  return r == regime::amp ? "amp" : r == regime::bf16 ? "bf16" : "lora16";
}

}  // namespace

TEST_CASE("transformers: every calibration run (H100, PyTorch 2.11, transformers 5.17)",
          "[framework][calibration]") {
  std::vector<double> errors;
  if (verbose())
    std::printf("\n%-16s %-6s %-10s %-4s | %6s %6s | %6s %6s | %6s %6s | %6s %6s | %7s %7s %7s %s\n",
                "model", "regime", "b x s", "ckpt", "fwd", "meas", "bwd", "meas", "opt", "meas",
                "states", "meas", "process", "meas", "error", "verdict");
  for (const measured_run& run : calibration) {
    const transformer_spec m = load(run.model);
    const training_config c = config_of(run.reg, run.micro_batch, run.seq, run.ck);
    const fit_report r = training_fit(m, catalog::h100_sxm, {}, c);
    const memory_breakdown& b = r.per_gpu;
    const double process = gib(b.total());
    const bool oom = run.process == 0.0;
    INFO(run.model << " " << name_of(run.reg) << " " << run.micro_batch << " x " << run.seq
                   << (run.ck ? " ckpt" : "") << ": predicted " << process << " GiB, measured "
                   << (oom ? std::string("OOM") : std::to_string(run.process)));
    // The verdict: a run that ran must be predicted to fit, one that ran out of memory must not,
    // except within 4% of the device's capacity, where either is accepted.
    const bool near = !oom && std::abs(run.process - device_gib) / device_gib < 0.04;
    if (!near) CHECK(r.fits() == !oom);
    CHECK((process > device_gib) == oom);
    double error = 0.0;
    if (!oom) {
      error = (process - run.process) / run.process;
      errors.push_back(std::abs(error));
      CHECK(std::abs(error) <= 0.20);  // the bar: none over 20%
    }
    // The states after a step (weights + optimizer states) within 2% (qwen2.5-0.5b 1 x 2048
    // measured 5.61 against 5.52 for the same model at larger shapes: 0.09 GiB the model does not
    // explain); the forward and backward peaks of allocated memory within 3% where recorded.
    // The optimizer step within 6% or 0.6 GiB: with checkpointing + LoRA a b x s x h fp32 tensor
    // (0.25 GiB for llama-3.2-1b, 0.50 for mistral-7b at 32768 tokens) is still allocated in the
    // optimizer step, which the model does not explain (docs/models/framework-memory.md).
    const double states = gib(b.weights + b.optimizer);
    if (run.states > 0) CHECK(states == Approx(run.states).epsilon(0.02));
    if (run.fwd > 0) CHECK(gib(b.phases.forward_loss) == Approx(run.fwd).epsilon(0.03));
    if (run.bwd > 0) CHECK(gib(b.phases.backward) == Approx(run.bwd).epsilon(0.03));
    if (run.opt > 0) CHECK(gib(b.phases.optimizer) == Approx(run.opt).epsilon(0.06).margin(0.6));
    if (verbose()) {
      char b_s[16];
      std::snprintf(b_s, sizeof b_s, "%dx%d", run.micro_batch, run.seq);
      std::printf("%-16s %-6s %-10s %-4s | %6.2f %6.2f | %6.2f %6.2f | %6.2f %6.2f | %6.2f %6.2f | %7.2f ",
                  run.model, name_of(run.reg), b_s, run.ck ? "1" : "0", gib(b.phases.forward_loss),
                  run.fwd, gib(b.phases.backward), run.bwd, gib(b.phases.optimizer), run.opt,
                  states, run.states, process);
      if (oom)
        std::printf("%7s %7s %s\n", "OOM", "", r.fits() ? "fits (WRONG)" : "does not fit (right)");
      else
        std::printf("%7.2f %+6.1f%% %s\n", run.process, 100 * error,
                    r.fits() ? "fits (right)" : (near ? "does not fit (near capacity)" : "does not fit (WRONG)"));
    }
  }
  std::sort(errors.begin(), errors.end());
  const std::size_t k = errors.size();
  REQUIRE(k == 19);
  const double median = errors[k / 2];  // odd count: the middle one
  if (verbose())
    std::printf("process peak error over %zu runs that ran: median %.1f%%, max %.1f%%\n", k,
                100 * median, 100 * errors.back());
  CHECK(median <= 0.07);        // the bar: median <= 7%
  CHECK(errors.back() <= 0.20);  // none over 20%
}
