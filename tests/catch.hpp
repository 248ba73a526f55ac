// Include this instead of Catch2 directly: it works with Catch2 2.13 and v3.
#pragma once
#if defined(GPUPLAN_CATCH2_V3)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
using Catch::Approx;
#include <string>
namespace Catch::Matchers {
// Catch2 2.x's substring matcher is Contains(string); v3 renamed it ContainsSubstring (its Contains
// is the range matcher, from a header not included here). The tests use the 2.x name.
inline StringContainsMatcher Contains(const std::string& s,
                                      CaseSensitive cs = CaseSensitive::Yes) {
  return ContainsSubstring(s, cs);
}
}  // namespace Catch::Matchers
namespace Catch {
using namespace Matchers;  // as Catch2 2.x does: Catch::Contains, Catch::WithinRel, ...
}  // namespace Catch
#else
#include <catch2/catch.hpp>
#endif
