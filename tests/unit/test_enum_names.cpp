// Enum names: each enum's table beside its declaration is what to_string, parse_enum, the JSON
// reader and the formatter read.
#include "../catch.hpp"

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/io/hf_config.hpp>
#include <gpuplan/io/monitoring.hpp>
#include <gpuplan/plan/cost_report.hpp>
#include <gpuplan/plan/search.hpp>
#include <gpuplan/probe/result.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>

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

/// E's table names each enumerator once: no two rows share a value or a name (parse_enum ignores
/// ASCII case, so neither may two names that differ only in case), no name is empty, and the
/// rows cover the enumerators 0 .. count-1 (each enum counts from 0 without gaps).
template <named_enum E>
constexpr bool names_unique() {
  const auto& rows = enumerators(E{});
  constexpr std::size_t n = enum_count<E>();
  for (std::size_t i = 0; i < n; ++i) {
    if (rows[i].name.empty()) return false;
    if (static_cast<std::size_t>(static_cast<std::underlying_type_t<E>>(rows[i].value)) >= n)
      return false;
    for (std::size_t j = i + 1; j < n; ++j)
      if (rows[i].value == rows[j].value || same_ignoring_case(rows[i].name, rows[j].name))
        return false;
  }
  return true;
}

/// Both checks, for each enum in the list.
template <named_enum... E>
bool all_tables_hold() {
  return ((round_trips<E>() && names_unique<E>()) && ...);
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

// Every enum with a table, one check per header (a new table is one name in one list here).
TEST_CASE("every name table round-trips and names each enumerator once", "[enum]") {
  CHECK(all_tables_hold<precision, recompute_mode, optimizer_kind, offload_kind, lora_target,
                        framework_kind>());  // specs/precision.hpp, specs/training.hpp
  CHECK(all_tables_hold<vendor, form_factor, link_kind>());                     // specs/gpu.hpp
  CHECK(all_tables_hold<ffn_kind, norm_kind, position_kind>());                 // transformer
  CHECK(all_tables_hold<intra_node_fabric, inter_node_fabric>());               // specs/node.hpp
  CHECK(all_tables_hold<link_technology, in_network_reduction>());              // network
  CHECK(all_tables_hold<serving_engine, batching_mode>());                      // specs/serving
  CHECK(all_tables_hold<price_term>());                                         // specs/pricing
  CHECK(all_tables_hold<cooling_kind>());                                       // specs/site
  CHECK(all_tables_hold<attention_mask>());                                     // models/flops
  CHECK(all_tables_hold<training_phase>());                                     // memory_common
  CHECK(all_tables_hold<collective_kind, collective_algorithm>());              // collectives
  CHECK(all_tables_hold<rank_order>());                                         // placement
  CHECK(all_tables_hold<scaling_mode, scaling_limit>());                        // scaling
  CHECK(all_tables_hold<decode_attention_kernel>());                            // models/serving
  CHECK(all_tables_hold<context_parallel_kind, grad_accumulation_kind, step_bottleneck>());
  CHECK(all_tables_hold<estimate_kind>());                                      // estimates
  CHECK(all_tables_hold<node_power_basis>());                                   // models/power
  CHECK(all_tables_hold<utilization_band>());                                   // bands
  CHECK(all_tables_hold<fleet_verdict, advice_rule>());                         // utilization
  CHECK(all_tables_hold<advice_kind>());                                        // plan/advice
  CHECK(all_tables_hold<parallel_dim>());                                       // candidates
  CHECK(all_tables_hold<cost_workload, rack_refusal>());                        // cost_report
  CHECK(all_tables_hold<search_objective, precision_regime, search_verdict,
                        serving_objective>());                                  // plan/search
  CHECK(all_tables_hold<io::monitoring_format>());                              // io/monitoring
  CHECK(all_tables_hold<io::detail::hf_family>());                              // io/hf_config
  CHECK(all_tables_hold<probe::provenance, probe::probe_error>());              // probe/result
}

TEST_CASE("the names the reports and files spell", "[enum]") {
  // JSON reports and price books write these; the CLI reads them (--term, --cooling).
  CHECK(to_string(price_term::commit_1yr) == "commit_1yr");
  CHECK(to_string(cooling_kind::air_containment) == "air_containment");
  CHECK(io::to_string(io::monitoring_format::dcgm_prometheus) == "dcgm-prometheus");
  CHECK(probe::to_string(probe::probe_error::stub_library) == "stub_library");
  CHECK(band_name(utilization_band::overload) == "overload");
  price_term t{};
  CHECK(parse_enum("SPOT", t));
  CHECK(t == price_term::spot);
  probe::provenance p{};
  CHECK(probe::parse_enum("catalog", p));
  CHECK(p == probe::provenance::catalog);
}

// Usable in constant expressions.
static_assert(to_string(optimizer_kind::adafactor) == "adafactor");
static_assert([] {
  offload_kind o{};
  return parse_enum("params", o) && o == offload_kind::params;
}());
