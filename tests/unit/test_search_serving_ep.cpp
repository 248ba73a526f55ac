// The serving search's expert parallelism (plan/search_serving.hpp, issue 24): for a mixture of experts
// the space pairs each tp with the ep degrees that divide it (tensor-parallel attention) and
// adds data-parallel attention (ep = tp); a dense model keeps tp alone. Each timed row is the
// plan `gpuplan serve` times for the same layout; the all-to-all dispatch is honoured.
#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/search_serving.hpp>

#include "../catch.hpp"

#include <cstdint>
#include <string_view>

using namespace gpuplan;

namespace {

/// The plan of a search row, as `gpuplan serve` builds it from the row's flags, at the row's
/// concurrency.
serving_plan plan_of(const serving_search_space& s, const serving_search_result& x) {
  serving_plan p = s.base;
  p.node = s.nodes[static_cast<std::size_t>(x.node)];
  p.layout = x.layout;
  p.dp_attention = x.dp_attention;
  p.config.weight_dtype = x.weights;
  p.compute_dtype = x.compute;
  p.concurrency = static_cast<int>(x.point.concurrency);
  return p;
}

/// A result's row: the same time as serve() of its plan.
void check_as_served(const serving_search_space& s, const serving_search_result& x) {
  const serving_point served = serve(plan_of(s, x));
  CHECK(served.tpot.value == Approx(x.point.tpot.value).epsilon(1e-12));
  CHECK(served.ttft.value == Approx(x.point.ttft.value).epsilon(1e-12));
  CHECK(served.output_tokens_per_s_per_gpu.value ==
        Approx(x.tokens_per_s_per_gpu).epsilon(1e-12));
}

}  // namespace

TEST_CASE("serving search: expert parallelism for a mixture of experts, none for a dense model") {
  const node_spec h200[] = {catalog::hgx_h200};
  serving_search_space s;
  s.base.model = catalog::qwen3_30b_a3b;
  s.base.mix = request_mix::fixed(1024, 256);
  s.slo = {.ttft = 2.0 * units::s, .tpot = 0.05 * units::s};
  s.objective = serving_objective::tokens_per_gpu;
  s.nodes = h200;
  s.use_model_defaults();
  // tp 1, 2, 4, 8 with tensor-parallel attention and each ep dividing it (1 + 2 + 3 + 4), data-
  // parallel attention at tp 2, 4, 8 (tp 1 is the one-GPU replica already listed)
  CHECK(s.tp.size() == 4);
  CHECK(s.replicas() == 13);
  CHECK(s.size() == 13 * 2);  // x bf16, fp8
  CHECK(s.replica(0).tp == 1);
  CHECK(s.replica(12).dp_attention);
  CHECK(s.replica(12).ep == 8);
  CHECK(s.moe_all_to_all_applies());
  const serving_search_report r = search_serving(s, max_serving_results);
  CHECK(r.visited == s.size());
  bool tp_ep = false, dp = false;
  for (const serving_search_result& x : r.view()) {
    tp_ep = tp_ep || (!x.dp_attention && x.layout.ep > 1);
    dp = dp || x.dp_attention;
    CHECK(x.layout.tp % x.layout.ep == 0);
    CHECK((!x.dp_attention || x.layout.ep == x.layout.tp));
    CHECK(x.moe_all_to_all == x.dp_attention);  // the all-reduce unless asked
    check_as_served(s, x);
  }
  CHECK(tp_ep);
  CHECK(dp);

  // --moe-all-to-all: the tensor-parallel-attention rows with ep > 1 dispatch by all-to-all and
  // are timed so (serve() with the same assumption); the others keep their times
  serving_search_space a2a = s;
  a2a.base.assumptions.moe_all_to_all = true;
  const serving_search_report ra = search_serving(a2a, max_serving_results);
  CHECK(ra.visited == r.visited);
  int changed = 0;
  for (const serving_search_result& x : ra.view()) {
    CHECK(x.moe_all_to_all == (x.dp_attention || x.layout.ep > 1));
    check_as_served(a2a, x);
    for (const serving_search_result& y : r.view())
      if (y.index == x.index && y.point.tpot.value != x.point.tpot.value) ++changed;
  }
  CHECK(changed > 0);

  // only data-parallel attention (gpuplan search serve --dp-attention): one replica per tp, ep =
  // tp, as before issue 24; the all-to-all assumption changes none of them
  const bool dp_only[] = {true};
  serving_search_space d = s;
  d.dp_attention = dp_only;
  CHECK(d.replicas() == 4);
  CHECK_FALSE(d.moe_all_to_all_applies());
  // an ep list that divides no tp leaves no replica
  const int ep16[] = {16};
  serving_search_space none = s;
  none.ep = ep16;
  none.dp_attention = search_defaults::serving_dp_attention;
  CHECK(none.replicas() == 0);

  // a dense model: tp alone, no expert parallelism, no data-parallel attention
  serving_search_space dense = s;
  dense.base.model = catalog::llama31_8b;
  dense.use_model_defaults();
  CHECK(dense.replicas() == 4);
  CHECK(dense.size() == 8);
  CHECK_FALSE(dense.moe_all_to_all_applies());
  const serving_search_report rd = search_serving(dense, max_serving_results);
  REQUIRE_FALSE(rd.view().empty());
  for (const serving_search_result& x : rd.view()) {
    CHECK(x.layout.ep == 1);
    CHECK_FALSE(x.dp_attention);
    CHECK_FALSE(x.moe_all_to_all);
  }
  // an ep on a dense model is an invalid configuration that says why
  const int ep2[] = {2};
  const int tp2[] = {2};
  dense.ep = ep2;
  dense.tp = tp2;
  const serving_search_report bad = search_serving(dense, 8);
  CHECK(bad.invalid == bad.visited);
  REQUIRE_FALSE(bad.invalid_view().empty());
  CHECK(std::string_view(bad.invalid_view()[0].why.message).find("needs an MoE model") !=
        std::string_view::npos);
}

TEST_CASE("serving search: expert parallelism across a GB200 NVL72's 72-GPU NVLink domain") {
  const node_spec rack[] = {catalog::gb200_nvl72};
  serving_search_space s;
  s.base.model = catalog::deepseek_v3;
  s.base.model.moe.experts += 32;  // 32 redundant experts: 288 physical, 72 divides them
  s.base.mix = request_mix::fixed(2000, 1000);
  s.objective = serving_objective::tokens_per_gpu;
  s.nodes = rack;
  const precision fp8[] = {precision::fp8};
  s.weights = fp8;
  s.use_model_defaults();
  // the rack's domain is 72 GPUs wide: replicas up to 72 GPUs, ep up to 72
  REQUIRE(s.tp.size() == 8);
  CHECK(s.tp[7] == 72);
  // tensor-parallel attention: 1 + 2 + ... + 7 pairs for tp 1 ... 64, 5 for tp 72 (ep 1, 2, 4,
  // 8, 72); data-parallel attention at the 7 tp above 1
  CHECK(s.replicas() == 28 + 5 + 7);
  const serving_search_report r = search_serving(s, max_serving_results);
  CHECK(r.visited == 40);
  bool ep72 = false, ep32 = false;
  for (const serving_search_result& x : r.view()) {
    ep72 = ep72 || (x.layout.ep == 72 && x.dp_attention);
    ep32 = ep32 || x.layout.ep == 32;
    check_as_served(s, x);
  }
  CHECK(ep72);  // expert parallelism over the whole NVLink domain is timed
  CHECK(ep32);
  // refused with their reasons: tp 72 with tensor-parallel attention (72 does not divide
  // DeepSeek-V3's 128 heads), ep 64 (it does not divide the 288 experts)
  bool tp72_refused = false, ep64_refused = false;
  for (const serving_invalid_configuration& x : r.invalid_view()) {
    tp72_refused = tp72_refused || (x.layout.tp == 72 && !x.dp_attention);
    ep64_refused = ep64_refused ||
                   (x.layout.ep == 64 && std::string_view(x.why.message).find("moe.experts") !=
                                             std::string_view::npos);
  }
  CHECK(tp72_refused);
  CHECK(ep64_refused);

  // the same model on an 8-GPU H200 node keeps replicas inside the node
  const node_spec h200[] = {catalog::hgx_h200};
  serving_search_space narrow = s;
  narrow.nodes = h200;
  narrow.use_model_defaults();
  CHECK(narrow.tp.size() == 4);
  CHECK(narrow.replicas() == 13);
  CHECK(narrow.size() == 13);  // fp8 only

  // both: each node walks the replicas it holds (H200: up to 8 GPUs), none listed as too wide
  const node_spec both[] = {catalog::hgx_h200, catalog::gb200_nvl72};
  serving_search_space mixed = s;
  mixed.nodes = both;
  mixed.use_model_defaults();
  CHECK(mixed.replicas_within_node);
  CHECK(mixed.size() == 13 + 40);
  const serving_search_report m = search_serving(mixed, 8);
  CHECK(m.visited == mixed.size());
  for (const serving_invalid_configuration& x : m.invalid_view()) CHECK(x.layout.tp <= 72);
  for (const serving_invalid_configuration& x : m.invalid_view())
    CHECK((x.node == 1 || x.layout.tp <= 8));
}
