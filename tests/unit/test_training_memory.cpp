// Training memory mechanisms: where parameters live under TP/PP/EP, ZeRO/FSDP sharding (full and
// hybrid), optimizers, precisions, LoRA/QLoRA, offload, context parallelism, pipeline schedules,
// the generic workload, and the errors that name the offending field.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

using namespace gpuplan;

namespace {

double stage_param_count(const transformer_spec& m, const parallel_layout& l, int k) {
  const detail::rank_params p = detail::stage_params(m, l, k);
  return p.dense + p.expert;
}

bool throws_naming(auto&& f, const std::string& field) {
  try {
    f();
  } catch (const gpuplan::invalid_input& e) {
    return std::string(e.what()).find(field) != std::string::npos;
  }
  return false;
}

}  // namespace

TEST_CASE("Parameters placed on ranks add up to the model's exact count", "[training][params]") {
  // Exact: every parameter is on exactly one stage when tp = ep = 1.
  for (const transformer_spec& m : catalog::all_models) {
    INFO(m.name.view());
    for (int pp : {1, 2, 4}) {
      double sum = 0;
      for (int k = 0; k < pp; ++k) sum += stage_param_count(m, {.pp = pp}, k);
      // With tied embeddings and pp > 1 the last stage keeps its own copy of the embedding
      // (Megatron-LM), which the model's count does not include.
      const double copy = m.tied_embeddings && pp > 1 ? 1.0 * m.vocab * m.hidden : 0.0;
      CHECK(sum == Approx(m.parameters() + copy).epsilon(1e-15));
    }
  }
}

TEST_CASE("Tensor, expert and GQA sharding of parameters", "[training][params]") {
  const transformer_spec& l70 = catalog::llama31_70b;  // 64 heads, 8 KV heads
  const double h = l70.hidden, hd = l70.head_dim, f = l70.ffn, v = l70.vocab;
  // Per layer on one of t ranks: Q and O split, K and V hold 8/t heads (1 when t > 8, replicated),
  // SwiGLU split, two RMSNorms replicated.
  auto layer = [&](int t) {
    const double kv_heads = t <= 8 ? 8.0 / t : 1.0;
    return 2 * h * (64 * hd / t) + 2 * h * kv_heads * hd + 3 * h * f / t + 2 * h;
  };
  for (int t : {1, 2, 8, 16}) {
    const double expect = 80 * layer(t) + 2 * v * h / t + h;  // embeddings, LM head, final norm
    CHECK(stage_param_count(l70, {.tp = t}, 0) == Approx(expect).epsilon(1e-15));
  }
  // Mixtral 8x7B: 8 experts; ep = 8 leaves one expert per rank; attention is not sharded by ep.
  const transformer_spec& mx = catalog::mixtral_8x7b;
  const detail::rank_params all = detail::stage_params(mx, {.dp = 8}, 0);
  const detail::rank_params ep8 = detail::stage_params(mx, {.dp = 8, .ep = 8}, 0);
  CHECK(ep8.expert == Approx(all.expert / 8).epsilon(1e-15));
  CHECK(ep8.dense == Approx(all.dense).epsilon(1e-15));
  CHECK(all.dense + all.expert == Approx(mx.parameters()).epsilon(1e-15));
}

TEST_CASE("The most loaded pipeline stage holds the embedding or the LM head", "[training][pp]") {
  const transformer_spec& m = catalog::llama31_8b;  // untied: embedding first, LM head last
  const parallel_layout l{.pp = 4};
  const training_config c{.recompute = recompute_mode::full, .micro_batch = 1, .seq = 128};
  const memory_breakdown first = training_memory_stage(m, l, c, 0);
  const memory_breakdown mid = training_memory_stage(m, l, c, 1);
  CHECK(first.weights > mid.weights);
  CHECK((first.weights - mid.weights).in(units::B) == Approx(2.0 * m.vocab * m.hidden).epsilon(1e-12));
  const memory_breakdown most = training_memory(m, l, c);
  CHECK(most.total() >= first.total());
  CHECK(most.total() >= training_memory_stage(m, l, c, 3).total());
}

TEST_CASE("fp64 training: the last stage's own activations use 8-byte elements",
          "[training][pp][precision]") {
  // The last stage keeps the final norm's input and the output layer's input in the training
  // dtype (2 x e x s x b x h) besides the fp32 logits; e is 8 bytes for fp64, as in the layers.
  const transformer_spec& m = catalog::llama31_8b;
  const parallel_layout l{.pp = 2};
  const training_config c32{.dtype = precision::fp32, .recompute = recompute_mode::full,
                            .seq = 128};
  training_config c64 = c32;
  c64.dtype = precision::fp64;
  c64.grad_dtype = precision::fp32;
  const double s = 128.0, h = m.hidden;
  const double layers = l.stage_layers(m.layers, 1);
  const double per_layer_diff =
      (layer_activations(m, l, c64) - layer_activations(m, l, c32)).in(units::B);
  const double diff = (training_memory_stage(m, l, c64, 1).activations -
                       training_memory_stage(m, l, c32, 1).activations)
                          .in(units::B);
  // 1 micro-batch in flight on the last stage; 2 x (8 - 4) x s x h more for its own terms.
  CHECK(diff == Approx(layers * per_layer_diff + 2.0 * 4.0 * s * h).epsilon(1e-12));
}

TEST_CASE("1F1B: the first stage holds pp micro-batches, fewer when the batch is short",
          "[training][pp]") {
  const transformer_spec& m = catalog::megatron_22b;
  const training_config many{.micro_batch = 1, .seq = 2048};
  training_config two = many;
  two.micro_batches = 2;
  const parallel_layout l{.pp = 4};
  const double per_stage_layers =
      detail::stage_layer_activations(m, detail::stage_params(m, l, 0), l, many,
                                      recompute_mode::none);
  CHECK(detail::in_flight_layers_factor(l, many, 0) == 4.0);
  CHECK(detail::in_flight_layers_factor(l, many, 3) == 1.0);
  CHECK(detail::in_flight_layers_factor(l, two, 0) == 2.0);
  // global_batch 16 on dp 8 with micro-batch 1: 2 micro-batches per step, as above.
  training_config global = many;
  global.global_batch = 16;
  CHECK(detail::in_flight_layers_factor({.dp = 8, .pp = 4}, global, 0) == 2.0);
  CHECK(throws_naming([&] { return training_memory(m, {.dp = 3, .pp = 4}, global); },
                      "global_batch"));
  global.micro_batches = 3;
  CHECK(throws_naming([&] { return training_memory(m, {.dp = 8, .pp = 4}, global); },
                      "global_batch"));
  const double a4 = training_memory_stage(m, l, many, 0).activations.in(units::B);
  const double a2 = training_memory_stage(m, l, two, 0).activations.in(units::B);
  CHECK(a4 - a2 == Approx(2 * per_stage_layers + 2 * 8.0 * 2048).epsilon(1e-12));
}

TEST_CASE("ZeRO stages, FSDP hybrid shard and the ZeRO-3 working set", "[training][zero]") {
  const transformer_spec& m = catalog::llama31_8b;
  const double n = m.parameters();
  const training_config c{.micro_batch = 1, .seq = 1024};
  const memory_breakdown z0 = training_memory(m, {.dp = 8}, c);
  const memory_breakdown z3 = training_memory(m, {.dp = 8, .zero = 3}, c);
  CHECK(z0.model_states().in(units::B) == Approx(16 * n).epsilon(1e-12));
  CHECK(z3.model_states().in(units::B) == Approx(16 * n / 8).epsilon(1e-12));
  CHECK(z0.workspace.value == 0.0);
  // Two gathered layers of bf16 weights and one layer of bf16 gradients (FSDP prefetch).
  const double layer = m.layer_parameters(0);
  CHECK(z3.workspace.in(units::B) == Approx(2 * 2 * layer + 2 * layer).epsilon(1e-12));
  // Hybrid shard over groups of 8 of 64 data-parallel ranks: the same per-GPU states as ZeRO-3
  // over 8.
  const memory_breakdown hs = training_memory(m, {.dp = 64, .zero = 3, .shard_group = 8}, c);
  CHECK(hs.model_states().in(units::B) == Approx(16 * n / 8).epsilon(1e-12));
}

TEST_CASE("Optimizers and precisions: bytes per parameter", "[training][optimizer]") {
  const generic_workload w{.name = "w", .parameters = 1e9};
  auto per_param = [&](training_config c) {
    return training_memory(w, {}, c).model_states().in(units::B) / 1e9;
  };
  CHECK(per_param({}) == Approx(16.0));  // ZeRO: 2 + 2 + 12
  CHECK(per_param({.grad_dtype = precision::fp32}) == Approx(18.0));  // Megatron
  CHECK(per_param({.optimizer = optimizer_kind::sgd}) == Approx(2 + 2 + 4 + 4));
  // bitsandbytes 8-bit Adam: two 1-byte states + one fp32 absmax per 2048 values per state.
  CHECK(per_param({.optimizer = optimizer_kind::adamw8bit}) ==
        Approx(2 + 2 + 4 + 2 + 8.0 / 2048).epsilon(1e-12));
  // fp32 training: weights are the master copy: 4 + 4 + 8 (HF "model memory anatomy").
  CHECK(per_param({.dtype = precision::fp32}) == Approx(16.0));
  CHECK(training_memory(w, {}, {.dtype = precision::fp32}).optimizer.in(units::B) ==
        Approx(8e9));
  // No master weights (pure bf16 AdamW): 2 + 2 + 8.
  CHECK(per_param({.master_weights = false}) == Approx(12.0));
  // FP8 (Transformer Engine): bf16 parameter + FP8 weight and transpose caches.
  CHECK(training_memory(w, {}, {.dtype = precision::fp8}).weights.in(units::B) ==
        Approx(4e9));
  CHECK(training_memory(w, {}, {.dtype = precision::fp8}).gradients.in(units::B) ==
        Approx(2e9));
}

TEST_CASE("Adafactor keeps rows + columns per matrix", "[training][optimizer]") {
  const transformer_spec& m = catalog::llama2_7b;
  const training_config c{.optimizer = optimizer_kind::adafactor, .micro_batch = 1, .seq = 128};
  const memory_breakdown r = training_memory(m, {}, c);
  // Per layer: Q, K, V, O (h x h): 4 x 2h; gate, up (h x f), down (f x h): 3 x (h + f);
  // two norms h each. Embedding and LM head (v x h): 2 x (v + h); final norm h.
  const double h = 4096, f = 11008, v = 32000;
  const double factored = 32 * (4 * 2 * h + 3 * (h + f) + 2 * h) + 2 * (v + h) + h;
  CHECK(r.optimizer.in(units::B) == Approx(4 * m.parameters() + 4 * factored).epsilon(1e-12));
  CHECK(throws_naming([] {
    return training_memory(generic_workload{.name = "g", .parameters = 1e9}, {},
                           {.optimizer = optimizer_kind::adafactor});
  }, "adafactor"));
}

TEST_CASE("LoRA and QLoRA: frozen base, trainable adapters", "[training][lora]") {
  const transformer_spec& m = catalog::llama2_7b;
  // LoRA r = 8 on every linear layer of Llama 2 7B: 19,988,480 trainable parameters (PEFT's
  // print_trainable_parameters for target_modules q,k,v,o,gate,up,down; per layer
  // 8 x (4 x 8192 + 3 x 15104)). Exact.
  const training_config lora{.micro_batch = 1, .seq = 512, .lora_rank = 8};
  const memory_breakdown r = training_memory(m, {}, lora);
  CHECK(r.gradients.in(units::B) == Approx(2 * 19988480.0).epsilon(1e-12));
  CHECK(r.optimizer.in(units::B) == Approx(12 * 19988480.0).epsilon(1e-12));
  CHECK(r.weights.in(units::B) == Approx(2 * (m.parameters() + 19988480.0)).epsilon(1e-12));
  // QLoRA: linear weights in NF4 with double-quantised constants, 4 + 0.127 bits (QLoRA sec. 3);
  // embeddings, LM head and norms stay bf16.
  const training_config qlora{.micro_batch = 1, .seq = 512, .qlora_rank = 8};
  const memory_breakdown q = training_memory(m, {}, qlora);
  const double linear = 32 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008);
  const double nf4 = 0.5 + (8.0 / 64 + 32.0 / (64 * 256)) / 8;
  CHECK(nf4 * 8 - 4 == Approx(0.127).margin(0.0005));
  CHECK(q.weights.in(units::B) ==
        Approx(linear * nf4 + (m.parameters() - linear) * 2 + 2 * 19988480.0).epsilon(1e-12));
  CHECK(throws_naming([&] { return training_memory(m, {}, {.lora_rank = 8, .qlora_rank = 8}); },
                      "lora_rank"));
}

TEST_CASE("torchtune's measured LoRALinear memory (QLoRA tutorial)", "[training][lora]") {
  // pytorch/torchtune docs/source/tutorials/qlora_finetune.rst: LoRALinear(512, 512, rank=8)
  // with fp32 parameters: torch.cuda.memory_allocated() = 1,081,344 bytes; with the base in NF4
  // (quantize_base=True): 177,152 bytes.
  const double base = 512.0 * 512, adapters = 8.0 * (512 + 512);
  CHECK(4 * (base + adapters) == 1081344.0);  // exact: fp32 weight + fp32 adapters
  const double ours = base * detail::nf4_bytes(memory_assumptions{}, true) + 4 * adapters;
  // NF4 base + fp32 adapters: 168,000 B; the measurement adds the caching allocator's rounding
  // of each of the NF4 tensor's buffers to 512 bytes and torchao's bookkeeping. Tolerance 6%.
  WARN("QLoRA LoRALinear: ours " << ours << " B vs 177,152 B measured ("
                                 << 100 * (ours / 177152 - 1) << "%)");
  CHECK(std::fabs(ours / 177152 - 1) < 0.06);
}

TEST_CASE("CPU offload moves state to host memory", "[training][offload]") {
  const transformer_spec& m = catalog::llama31_8b;
  const training_config base{.micro_batch = 1, .seq = 1024};
  training_config opt = base;
  opt.offload = offload_kind::optimizer;
  const memory_breakdown gpu_only = training_memory(m, {.dp = 4, .zero = 2}, base);
  const memory_breakdown off = training_memory(m, {.dp = 4, .zero = 2}, opt);
  CHECK(off.optimizer.value == 0.0);
  CHECK(off.host == gpu_only.optimizer);
  training_config par = base;
  par.offload = offload_kind::params;
  const memory_breakdown inf = training_memory(m, {.dp = 4, .zero = 3}, par);
  CHECK(inf.weights.value == 0.0);
  CHECK(inf.gradients.value == 0.0);
  CHECK(inf.workspace.value > 0.0);  // the gathered layers still live on the GPU
  CHECK(throws_naming([&] { return training_memory(m, {.dp = 4, .zero = 1}, par); }, "zero"));
}

TEST_CASE("Context parallelism divides the sequence; flash attention drops s x s terms",
          "[training][activations]") {
  const transformer_spec& m = catalog::llama31_8b;
  const training_config c{.micro_batch = 1, .seq = 8192};
  const double one = layer_activations(m, {.dp = 2}, c).in(units::B);
  const double two = layer_activations(m, {.cp = 2}, c).in(units::B);
  CHECK(two == Approx(one / 2).epsilon(1e-12));
  training_config eager = c;
  eager.flash_attention = false;
  const double s = 8192, a = 32;
  // Without FlashAttention the softmax output (2 a s^2 b bytes, no dropout) is stored; with it
  // only the fp32 log-sum-exp (4 a s b).
  CHECK(layer_activations(m, {}, eager).in(units::B) - layer_activations(m, {}, c).in(units::B) ==
        Approx(2 * a * s * s - 4 * a * s).epsilon(1e-12));
  CHECK(throws_naming([&] { return training_memory(m, {.cp = 3}, {.seq = 8192}); }, "cp"));
}

TEST_CASE("Generic workload: parameters and activations per sample", "[training][generic]") {
  const generic_workload unet{.name = "unet",
                              .parameters = 860e6,
                              .activation_per_sample = 2.0 * units::GiB,
                              .activation_per_sample_recomputed = 0.25 * units::GiB};
  const memory_breakdown r = training_memory(unet, {}, {.micro_batch = 8});
  CHECK(r.activations == 16.0 * units::GiB);
  CHECK(training_memory(unet, {}, {.recompute = recompute_mode::full, .micro_batch = 8})
            .activations == 2.0 * units::GiB);
  CHECK(r.model_states().in(units::B) == Approx(16 * 860e6));
  CHECK(throws_naming([&] { return training_memory(unet, {.tp = 2}, {}); }, "layout.tp"));
}

TEST_CASE("Invalid layouts and configurations name the field", "[training][errors]") {
  const transformer_spec& m = catalog::llama31_70b;  // 64 heads, 8 KV heads, 80 layers
  CHECK(throws_naming([&] { parallel_layout{.tp = 3}.validate(m); }, "layout.tp"));
  CHECK(throws_naming([&] { parallel_layout{.tp = 2, .pp = 2}.validate(m, 8); }, "GPU count"));
  CHECK(throws_naming([&] { parallel_layout{.pp = 81}.validate(m); }, "layout.pp"));
  CHECK(throws_naming([&] { parallel_layout{.dp = 2, .ep = 2}.validate(m); }, "layout.ep"));
  CHECK(throws_naming([&] { parallel_layout{.dp = 3, .ep = 2}.validate(); }, "layout.ep"));
  CHECK(throws_naming([&] { parallel_layout{.pp = 3, .virtual_stages = 3}.validate(m); },
                      "virtual_stages"));
  CHECK(throws_naming([&] { parallel_layout{.zero = 4}.validate(); }, "layout.zero"));
  CHECK(throws_naming([&] { parallel_layout{.dp = 6, .shard_group = 4}.validate(); },
                      "shard_group"));
  CHECK(throws_naming([&] { parallel_layout{.dp = 0}.validate(); }, "layout.dp"));
  CHECK(throws_naming([&] { training_config{.micro_batch = 0}.validate(); }, "micro_batch"));
  CHECK(throws_naming([&] { training_config{.dtype = precision::int4}.validate(); }, "dtype"));
  // Mixtral 8x7B: 8 experts.
  CHECK(throws_naming([] { parallel_layout{.dp = 16, .ep = 16}.validate(catalog::mixtral_8x7b); },
                      "experts"));
  // The run-time message carries the values: "(got 3, 64)".
  try {
    parallel_layout{.tp = 3}.validate(m);
  } catch (const gpuplan::invalid_input& e) {
    CHECK(std::string(e.what()).find("got 3, 64") != std::string::npos);
  }
  CHECK_NOTHROW(parallel_layout{.dp = 2, .tp = 16, .pp = 4}.validate(m, 128));
  // The model itself is validated too (catalog models always pass).
  transformer_spec broken = m;
  broken.hidden = 0;
  CHECK(throws_naming([&] { return training_memory(broken, {}, {}); }, "hidden"));
}

TEST_CASE("Bad assumptions and workloads are refused, naming the field", "[training][errors]") {
  const generic_workload w{.name = "w", .parameters = 1e9};
  memory_assumptions a{};
  a.allocator_fragmentation = -0.1;
  CHECK(throws_naming([&] { return training_memory(w, {}, {}, a); }, "allocator_fragmentation"));
  a = {};
  a.cuda_context = -1.0 * units::MiB;
  CHECK(throws_naming([&] { return training_memory(catalog::llama31_8b, {}, {}, a); },
                      "cuda_context"));
  const double nan = std::nan("");
  CHECK(throws_naming([&] {
    return training_memory(generic_workload{.name = "n", .parameters = nan}, {}, {});
  }, "parameters"));
  CHECK(throws_naming([&] {
    return training_memory(
        generic_workload{.name = "n", .parameters = 1e9, .activation_per_sample = -1.0 * units::GB},
        {}, {});
  }, "activation_per_sample"));
}
