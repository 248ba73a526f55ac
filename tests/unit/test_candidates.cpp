// Candidate layouts: the one enumeration the fit's advice (and a layout search) walks, with its
// bounds in candidate_bounds, set by hand or from a node.
#include "../catch.hpp"

#include <span>

#include <gpuplan/gpuplan.hpp>

#include <vector>

using namespace gpuplan;

TEST_CASE("growth candidates double one degree up to the bound", "[candidates]") {
  std::vector<int> tps;
  for_each_growth({.dp = 2, .tp = 2}, parallel_dim::tp, 8, [&](const parallel_layout& l) {
    tps.push_back(l.tp);
    CHECK(l.dp == 2);
    return false;
  });
  CHECK(tps == std::vector<int>{4, 8, 16});
  int calls = 0;
  for_each_growth({}, parallel_dim::pp, 128, [&](const parallel_layout& l) {
    ++calls;
    return l.pp == 4;  // found: stop
  });
  CHECK(calls == 2);
}

TEST_CASE("the combined grid keeps tensor parallelism inside the NVLink domain", "[candidates]") {
  candidate_bounds b{};
  int count = 0;
  for_each_combined({}, b, [&](const parallel_layout& l) {
    ++count;
    CHECK(l.tp <= b.nvlink_domain);
    CHECK(l.gpus() > 1);
    CHECK(l.sequence_parallel == (l.tp > 1));
    CHECK(l.zero == (l.dp > 1 ? 3 : 0));
  });
  CHECK(count == 4 * 4 * 5 - 1);  // dp 1..8, tp 1..8, pp 1..16, less the starting layout
  b.nvlink_domain = 2;
  count = 0;
  for_each_combined({}, b, [&](const parallel_layout& l) {
    ++count;
    CHECK(l.tp <= 2);
  });
  CHECK(count == 4 * 2 * 5 - 1);
}

TEST_CASE("bounds from a node: its NVLink domain", "[candidates]") {
  CHECK(candidate_bounds::for_node(catalog::dgx_h100).nvlink_domain == 8);
  CHECK(candidate_bounds::for_node(catalog::pcie_8x_l40s).nvlink_domain == 1);
  // A fit with tensor parallelism bounded to one GPU offers no layout with tp > 1.
  candidate_bounds pcie = candidate_bounds::for_node(catalog::pcie_8x_l40s);
  pcie.max_tp = 1;
  const fit_report r =
      training_fit(catalog::llama31_70b, catalog::h100_sxm, {.dp = 8, .zero = 3},
                   {.recompute = recompute_mode::full, .seq = 4096}, {},
                   std::span<const gpu_spec>{catalog::all_gpus}, pcie);
  REQUIRE_FALSE(r.fits());
  for (const advice& a : r.advice_list()) CHECK(a.layout.tp == 1);
  const fit_report wide = training_fit(catalog::llama31_70b, catalog::h100_sxm,
                                       {.dp = 8, .zero = 3},
                                       {.recompute = recompute_mode::full, .seq = 4096});
  bool any_tp = false;
  for (const advice& a : wide.advice_list()) any_tp = any_tp || a.layout.tp > 1;
  CHECK(any_tp);
}
