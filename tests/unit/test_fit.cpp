// fit_report: capacity, headroom, and the ranked advice when a plan does not fit. Every option's
// per-GPU total is checked against the memory model run on the changed plan.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>

#include <string>
#include <string_view>

using namespace gpuplan;

namespace {

const advice* find(const fit_report& r, std::string_view prefix) {
  for (const advice& a : r.advice_list())
    if (a.change.view().substr(0, prefix.size()) == prefix) return &a;
  return nullptr;
}

}  // namespace

TEST_CASE("A plan that fits has headroom and no advice", "[fit]") {
  const fit_report r = training_fit(catalog::llama31_8b, catalog::h100_sxm, {.dp = 8, .zero = 3},
                                    {.recompute = recompute_mode::full, .seq = 4096});
  CHECK(r.fits());
  CHECK(r.options.empty());
  CHECK(r.capacity == catalog::h100_sxm.plannable_memory());
  CHECK(r.headroom() == r.capacity - r.per_gpu.total());
  CHECK(r.headroom().value > 0);
  CHECK(r.gpus == 8);
}

TEST_CASE("Llama 3.1 8B full fine-tuning on one H100: ranked options", "[fit][advice]") {
  const transformer_spec& m = catalog::llama31_8b;
  const training_config c{.micro_batch = 1, .seq = 4096};
  const parallel_layout l{};
  const fit_report r = training_fit(m, catalog::h100_sxm, l, c);
  REQUIRE_FALSE(r.fits());
  REQUIRE(r.options.size() > 3);
  CHECK(r.headroom().value < 0);
  // Ranking: every fitting option before every non-fitting one; among fitting ones, changes on
  // the same GPUs, then more GPUs, then another GPU.
  bool seen_unfit = false;
  advice_kind last_kind = advice_kind::configuration;
  for (const advice& a : r.advice_list()) {
    if (!a.fits) seen_unfit = true;
    CHECK((a.fits || seen_unfit));
    CHECK(!(a.fits && seen_unfit));
    if (a.fits) {
      CHECK(a.kind >= last_kind);
      last_kind = a.kind;
    }
    CHECK(a.fits == (a.total <= a.capacity));
  }
  // Each option's figure is the model's figure for the changed plan.
  const advice* offload = find(r, "CPU offload of the optimizer");
  REQUIRE(offload != nullptr);
  CHECK(offload->fits);
  training_config off = c;
  off.offload = offload_kind::optimizer;
  CHECK(offload->total == training_memory(m, l, off).total());
  const advice* adam8 = find(r, "8-bit AdamW");
  REQUIRE(adam8 != nullptr);
  training_config a8 = c;
  a8.optimizer = optimizer_kind::adamw8bit;
  CHECK(adam8->total == training_memory(m, l, a8).total());
  const advice* tp = find(r, "tensor parallel 2");
  REQUIRE(tp != nullptr);
  CHECK(tp->gpus == 2);
  CHECK(tp->total == training_memory(m, {.tp = 2, .sequence_parallel = true}, c).total());
  // Another GPU: the smallest catalog GPU whose memory holds the unchanged plan.
  const advice* gpu = nullptr;
  for (const advice& a : r.advice_list())
    if (a.kind == advice_kind::other_gpu) gpu = &a;
  REQUIRE(gpu != nullptr);
  CHECK(gpu->total == r.per_gpu.total());
  for (const gpu_spec& g : catalog::all_gpus)
    if (g.plannable_memory() >= r.per_gpu.total())
      CHECK(g.plannable_memory() >= gpu->capacity);
}

TEST_CASE("Llama 3.1 70B on 8 H100s: a combined plan over more GPUs", "[fit][advice]") {
  const fit_report r = training_fit(catalog::llama31_70b, catalog::h100_sxm, {.dp = 8},
                                    {.micro_batch = 1, .seq = 4096});
  REQUIRE_FALSE(r.fits());
  const advice* zero3 = find(r, "ZeRO stage 3 (FSDP");
  REQUIRE(zero3 != nullptr);
  CHECK_FALSE(zero3->fits);  // 16 B x 70.6B / 8 = 141 GB of model states per GPU
  REQUIRE(r.options[0].fits);
  CHECK(r.options[0].gpus > 8);
  CHECK(std::string(r.options[0].change.view()).find("ZeRO-3") != std::string::npos);
}

TEST_CASE("Serving advice: quantisation, tensor parallelism, another GPU", "[fit][inference]") {
  const transformer_spec& m = catalog::llama31_70b;
  const inference_config c{.batch = 1, .context = 4096};
  const fit_report r = inference_fit(m, catalog::h100_sxm, {}, c);
  REQUIRE_FALSE(r.fits());
  const advice* int4 = find(r, "int4 weights");
  REQUIRE(int4 != nullptr);
  CHECK(int4->fits);  // about 37 GB of weights
  inference_config q = c;
  q.weight_dtype = precision::int4;
  CHECK(int4->total == inference_fit(m, catalog::h100_sxm, {}, q).per_gpu.total());
  // The smallest tensor-parallel degree that fits: 2 leaves 70.6 GB of weights per GPU, over the
  // 0.9 x 79.2 GiB budget with the overhead, so 4.
  const advice* tp = find(r, "tensor parallel");
  REQUIRE(tp != nullptr);
  CHECK(tp->fits);
  CHECK(tp->gpus == 4);
  CHECK_FALSE(inference_fit(m, catalog::h100_sxm, {.tp = 2}, c).fits());
  CHECK(r.options[0].fits);
  // B200 or MI300X hold 141 GB of bf16 weights plus the cache.
  bool gpu_option = false;
  for (const advice& a : r.advice_list()) gpu_option = gpu_option || a.kind == advice_kind::other_gpu;
  CHECK(gpu_option);
}

TEST_CASE("Generic workload: ZeRO, offload and a bigger GPU", "[fit][generic]") {
  // "My model needs 24 GB; my GPUs have 16 GB": 1.5B parameters (16 B each) on a T4.
  const generic_workload g{.name = "my-model", .parameters = 1.5e9};
  const fit_report r = training_fit(g, catalog::t4, {.dp = 4}, {});
  REQUIRE_FALSE(r.fits());
  const advice* z3 = find(r, "ZeRO stage 3");
  REQUIRE(z3 != nullptr);
  CHECK(z3->fits);  // 24 GB / 4 = 6 GB of model states per GPU
  CHECK(z3->total == training_memory(g, {.dp = 4, .zero = 3}, {}).total());
  CHECK(find(r, "tensor parallel") == nullptr);  // no structure to split
}

TEST_CASE("One layout check: parallel_layout::check is what validate raises and what the planner "
          "skips on, expert parallelism included",
          "[fit][layout]") {
  const transformer_spec& m = catalog::mixtral_8x7b;  // 8 experts, expert FFN 14336
  // ep = 3 divides dp x cp = 6 but not the 8 experts: only the expert-parallel check sees it.
  const parallel_layout bad{.dp = 6, .ep = 3};
  const input_problem p = bad.check(m);
  REQUIRE_FALSE(p.ok());
  CHECK(std::string_view(p.message) == "layout.ep must divide model.moe.experts");
  CHECK(p.value == 3);
  CHECK(p.other == 8);
  CHECK(bad.check().ok());  // structurally fine: the problem is the model's
  try {
    bad.validate(m);
    FAIL("no exception");
  } catch (const invalid_input& e) {
    CHECK(std::string(e.what()) == "gpuplan: layout.ep must divide model.moe.experts (got 3, 8)");
  }
  // expert_tp must divide the expert FFN; ep must be 1 for a dense model.
  CHECK_FALSE(parallel_layout{.dp = 2, .expert_tp = 3}.check(m).ok());
  CHECK(std::string_view(parallel_layout{.dp = 2, .ep = 2}.check(catalog::llama31_8b).message) ==
        "layout.ep must be 1 for a dense model");
  CHECK(parallel_layout{.dp = 8, .tp = 2, .ep = 8}.check(m).ok());

  // Every layout the planner offers for an MoE model passes the check (the memory model would
  // throw on one that does not).
  const fit_report r = training_fit(m, catalog::h100_sxm, {.dp = 8, .ep = 8}, {.seq = 4096});
  REQUIRE_FALSE(r.fits());
  CHECK(!r.options.empty());
}

TEST_CASE("Advice lists each distinct plan once", "[fit][advice]") {
  // gpuplan fit --model Llama-3.1-70B --gpu h100 --gpus 8 --zero 3 --seq 4096 --recompute full
  // listed "tensor parallel 2 (16 GPUs)" and "dp 8 x tp 2 x pp 1, ZeRO-3, full recompute": one
  // plan (dp 8, tp 2 with sequence parallelism, ZeRO-3, full recomputation) under two names.
  const fit_report r =
      training_fit(catalog::llama31_70b, catalog::h100_sxm, {.dp = 8, .zero = 3},
                   {.recompute = recompute_mode::full, .seq = 4096});
  REQUIRE_FALSE(r.fits());
  const auto list = r.advice_list();
  REQUIRE(list.size() > 2);
  for (std::size_t i = 0; i < list.size(); ++i)
    for (std::size_t j = i + 1; j < list.size(); ++j) {
      INFO(std::string(list[i].change.view()) + " / " + std::string(list[j].change.view()));
      CHECK_FALSE((list[i].gpus == list[j].gpus && list[i].total == list[j].total &&
                   list[i].capacity == list[j].capacity));
      CHECK_FALSE(list[i].same_plan(list[j]));
    }
  // Each option carries the layout it leads to.
  for (const advice& a : list) CHECK(a.layout.gpus() == a.gpus);
}

TEST_CASE("A memory plan needs the GPU's memory only; timing needs its rates", "[fit][gpu]") {
  // The minimal GPU (a name and its memory, as a GPU file may give): fit plans it; the timing
  // models refuse it through gpu_spec::validate.
  gpu_spec g{};
  g.name = name_string::from("my-accelerator");
  g.memory = 80 * units::GiB;
  CHECK_NOTHROW(g.validate_memory());
  CHECK_THROWS_WITH(g.validate(),
                    "gpuplan: gpu_spec.memory_bandwidth must be positive and finite (got 0)");
  const fit_report r = training_fit(catalog::llama31_8b, g, {.dp = 8, .zero = 3}, {});
  const fit_report h =
      training_fit(catalog::llama31_8b, catalog::h100_sxm, {.dp = 8, .zero = 3}, {});
  CHECK(r.per_gpu.total().in(units::B) == h.per_gpu.total().in(units::B));
  const inference_memory_result m = inference_memory(catalog::llama31_8b, g, {}, {});
  CHECK(m.per_gpu.total().in(units::B) > 0);
  // a negative bandwidth is still refused where the memory is checked
  g.memory_bandwidth = -1 * units::GBps;
  CHECK_THROWS_WITH(g.validate_memory(),
                    "gpuplan: gpu_spec.memory_bandwidth must be finite and not negative (got "
                    "-1000000000)");
}
