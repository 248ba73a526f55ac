// gpuplan::array_view: the core's view of contiguous elements (specs/array_view.hpp), in place of
// std::span in the umbrella's headers (docs/performance.md: a std::span element type costs about
// 80M compiler instructions).
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/specs/inplace_vector.hpp>

#include <array>
#include <span>
#include <vector>

using namespace gpuplan;

namespace {
constexpr int sum(array_view<int> v) {
  int s = 0;
  for (int x : v) s += x;
  return s;
}
constexpr int c_array[] = {1, 2, 3};
constexpr std::array<int, 4> std_array{1, 2, 3, 4};
// In constant expressions, from a C array, a std::array and a pointer and a count.
static_assert(sum(c_array) == 6);
static_assert(sum(std_array) == 10);
static_assert(sum({std_array.data(), 2}) == 3);
static_assert(sum({}) == 0 && array_view<int>{}.empty());
static_assert(array_view<int>(c_array).size() == 3 && array_view<int>(c_array).back() == 3);
}  // namespace

TEST_CASE("array_view: made from containers, read as std::span reads") {
  const std::vector<int> v{5, 6, 7};
  const array_view<int> a = v;
  CHECK(a.size() == 3);
  CHECK(a.data() == v.data());
  CHECK(a.front() == 5);
  CHECK(a[1] == 6);
  CHECK(a.back() == 7);
  // a std::span is made from it (a contiguous, sized range), and it from a std::span
  const std::span<const int> s(a);
  CHECK(s.size() == 3);
  CHECK(s.data() == v.data());
  const array_view<int> b = s;
  CHECK(b.data() == v.data());
  CHECK(b.size() == 3);
  // and from the library's inplace_vector
  inplace_vector<int, 4> iv{1, 2};
  CHECK(sum(iv) == 3);
  // the catalog's GPU table, as plan/fit.hpp's advice reads it
  const array_view<gpu_spec> gpus = catalog::all_gpus;
  CHECK(gpus.size() == catalog::all_gpus.size());
  CHECK(&gpus[0] == catalog::all_gpus.data());  // a view: no copy of the table
  CHECK(gpus[4].name == catalog::h100_sxm.name);
}
