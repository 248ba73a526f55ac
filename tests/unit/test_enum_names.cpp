// Enum names: each enum's table beside its declaration is what to_string, parse_enum, the JSON
// reader and the formatter read.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>

#include <string_view>

using namespace gpuplan;

namespace {

/// Every enumerator of E reads back as itself from its name, in any ASCII case.
template <named_enum E>
bool round_trips() {
  for (const enumerator<E>& x : enumerators(E{})) {
    E back{};
    if (!parse_enum(x.name, back) || back != x.value || to_string(x.value) != x.name) return false;
    char upper[32]{};
    for (std::size_t i = 0; i < x.name.size() && i < 31; ++i)
      upper[i] = x.name[i] >= 'a' && x.name[i] <= 'z' ? static_cast<char>(x.name[i] - 32) : x.name[i];
    if (!parse_enum(std::string_view(upper), back) || back != x.value) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("parse_enum reads every enumerator, past the eighth", "[enum]") {
  // precision has nine enumerators; int4, the ninth, was out of parse_enum's reach when it
  // walked a fixed 8.
  static_assert(enum_count<precision>() == 9);
  precision p{};
  CHECK(parse_enum("int4", p));
  CHECK(p == precision::int4);
  CHECK(parse_enum("FP4", p));
  CHECK(p == precision::fp4);
  CHECK_FALSE(parse_enum("bf17", p));
  CHECK(p == precision::fp4);  // untouched on failure
  CHECK(to_string(precision::int4) == "int4");
}

TEST_CASE("every enum's names round-trip", "[enum]") {
  CHECK(round_trips<precision>());
  CHECK(round_trips<recompute_mode>());
  CHECK(round_trips<attention_mask>());
  CHECK(round_trips<optimizer_kind>());
  CHECK(round_trips<offload_kind>());
  CHECK(round_trips<lora_target>());
  CHECK(round_trips<vendor>());
  CHECK(round_trips<form_factor>());
  CHECK(round_trips<link_kind>());
  CHECK(round_trips<ffn_kind>());
  CHECK(round_trips<norm_kind>());
  CHECK(round_trips<position_kind>());
  CHECK(round_trips<intra_node_fabric>());
  CHECK(round_trips<inter_node_fabric>());
  CHECK(enum_count<optimizer_kind>() == 5);
}

// Usable in constant expressions.
static_assert(to_string(optimizer_kind::adafactor) == "adafactor");
static_assert([] {
  offload_kind o{};
  return parse_enum("params", o) && o == offload_kind::params;
}());
