// Layout search over GPU counts that are not powers of two (issue 24): a GB200 NVL72 rack is 72
// GPUs behind one NVLink domain; divisor_degrees lists the tensor-, pipeline- and expert-parallel
// degrees that divide the GPU counts and the model (heads, experts), and
// training_search_space::use_divisor_degrees searches them.
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/search_training.hpp>

#include <vector>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

std::vector<int> list(const inplace_vector<int, max_divisor_degrees>& v) {
  return {v.begin(), v.end()};
}

/// DeepSeek-V3 on GB200 NVL72 racks, Megatron's space.
training_search_space dsv3_racks(array_view<int> gpus) {
  static const node_spec racks[] = {cat::gb200_nvl72};
  training_search_space s{.model = cat::deepseek_v3,
                          .config = {.seq = 4096, .global_batch = 4608},
                          .tokens = 1e12 * units::token};
  s.cost.require_price = false;
  s.nodes = racks;
  s.gpus = gpus;
  s.use_framework(framework_kind::megatron);
  return s;
}

}  // namespace

TEST_CASE("divisor_degrees: the degrees that divide the GPU counts and the model",
          "[search][divisors]") {
  const int rack[] = {72};
  // tensor parallelism in the 72-GPU NVLink domain, dividing DeepSeek-V3's 128 heads
  CHECK(list(divisor_degrees(rack, 72, 128)) == std::vector<int>{1, 2, 4, 8});
  // pipeline parallelism up to its 61 layers: every divisor of 72 below 61
  CHECK(list(divisor_degrees(rack, 61)) ==
        std::vector<int>{1, 2, 3, 4, 6, 8, 9, 12, 18, 24, 36});
  // expert parallelism dividing 256 experts: a divisor of 72 or of 144
  const int racks[] = {72, 144};
  CHECK(list(divisor_degrees(racks, 72, 256)) == std::vector<int>{1, 2, 4, 8, 16});
  // 288 physical experts (32 redundant): EP 72 spans the rack
  CHECK(list(divisor_degrees(rack, 72, 288)).back() == 72);
  // powers of two: the powers of two
  const int pow2[] = {64, 128, 256};
  CHECK(list(divisor_degrees(pow2, 64)) == std::vector<int>{1, 2, 4, 8, 16, 32, 64});
}

TEST_CASE("Search: DeepSeek-V3 on one GB200 NVL72 rack (72 GPUs)", "[search][divisors]") {
  const int rack[] = {72};
  training_search_space s = dsv3_racks(rack);
  const training_search_collector pow2 = search_training(s, 10);
  search_degrees d;
  s.use_divisor_degrees(d);
  CHECK(std::vector<int>(s.tp.begin(), s.tp.end()) == std::vector<int>{1, 2, 4, 8});
  CHECK(std::vector<int>(s.ep.begin(), s.ep.end()) == std::vector<int>{1, 2, 4, 8});
  const training_search_collector r = search_training(s, 10);
  // valid layouts, every one on the 72 GPUs, the best with expert parallelism
  REQUIRE(!r.best(search_objective::time).empty());
  for (const search_point& x : r.best(search_objective::time)) {
    const search_evaluation e = evaluate_configuration(s, x.index);
    CHECK(e.ok());
    CHECK(e.config.layout.gpus() == 72);
  }
  const search_evaluation best = evaluate_configuration(s, r.best(search_objective::time)[0].index);
  CHECK(best.config.layout.ep > 1);
  // the divisors hold every valid power-of-two layout and more (pipelines of 3, 6, 9 ... stages):
  // more layouts timed from fewer configurations, and the best no slower
  CHECK(r.counts.timed > pow2.counts.timed);
  CHECK(r.counts.visited < pow2.counts.visited);
  CHECK(r.best(search_objective::time)[0].time_s <= pow2.best(search_objective::time)[0].time_s);
  // among them, pipelines whose depth is not a power of two (3 stages of 61 layers: 21/20/20)
  detail::training_search_context ctx = detail::make_search_context(s);
  int uneven_ok = 0;
  for (std::uint64_t i = 0; i < s.size(); ++i) {
    const search_evaluation e = detail::evaluate(ctx, i);
    if (e.ok() && (e.config.layout.pp & (e.config.layout.pp - 1)) != 0) ++uneven_ok;
  }
  CHECK(uneven_ok > 0);
  // the transformers framework keeps its data-parallel-only space
  training_search_space hf = s;
  hf.model = cat::llama31_8b;
  hf.use_framework(framework_kind::transformers);
  search_degrees unused;
  hf.use_divisor_degrees(unused);
  CHECK((hf.tp.size() == 1 && hf.pp.size() == 1 && hf.ep.size() == 1));
}

TEST_CASE("Search: 144 GPUs (two NVL72 racks) reach expert parallelism 16", "[search][divisors]") {
  const int racks[] = {144};
  training_search_space s = dsv3_racks(racks);
  search_degrees d;
  s.use_divisor_degrees(d);
  CHECK(std::vector<int>(s.ep.begin(), s.ep.end()) == std::vector<int>{1, 2, 4, 8, 16});
  const training_search_collector r = search_training(s, 10);
  REQUIRE(!r.best(search_objective::time).empty());
  for (const search_point& x : r.best(search_objective::time))
    CHECK(evaluate_configuration(s, x.index).config.layout.gpus() == 144);
}
