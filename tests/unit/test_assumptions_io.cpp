// Every assumption settable by name (io/assumptions.hpp): names, values, units, errors, and the
// echo of what differs from the defaults.
#include "../catch.hpp"

#include <gpuplan/io/assumptions.hpp>

#include <set>
#include <string>

using namespace gpuplan;

TEST_CASE("every field of every assumption struct is listed once, with its documentation") {
  const std::vector<io::assumption_info> all = io::list_assumptions();
  std::set<std::string> names;
  for (const io::assumption_info& i : all) {
    INFO(i.name);
    CHECK(names.insert(i.name).second);
    CHECK_FALSE(i.doc.empty());
    CHECK_FALSE(i.kind.empty());
    CHECK_FALSE(i.value.empty());
  }
  // nested groups are flattened to leaves
  CHECK(names.count("step.tp_overlap") == 1);
  CHECK(names.count("step.collectives.launch") == 1);
  CHECK(names.count("serving.kernels.hbm_fraction") == 1);
  CHECK(names.count("memory.transformers.cuda_context") == 1);
  CHECK(names.count("energy.gpu.busy_fraction") == 1);
  CHECK(names.count("carbon.lifetime") == 1);
  CHECK(names.count("step.collectives") == 0);
  CHECK(all.size() > 100);
}

TEST_CASE("set_assumption reads every kind of value into the right field") {
  assumption_set a;
  io::set_assumption(a, "step.tp_overlap", "1");
  CHECK(a.step.tp_overlap == 1.0);
  io::set_assumption(a, "p2p_overlap", "0.25");  // a unique tail
  CHECK(a.step.p2p_overlap == 0.25);
  io::set_assumption(a, "step.zero3_per_tensor", "true");
  CHECK(a.step.zero3_per_tensor);
  io::set_assumption(a, "step.cp_kind", "all_gather");
  CHECK(a.step.cp_kind == context_parallel_kind::all_gather);
  io::set_assumption(a, "step.eager_op_floor", "12 us");
  CHECK(a.step.eager_op_floor.in(units::us) == Approx(12.0));
  io::set_assumption(a, "memory.cuda_context", "300MiB");
  CHECK(a.memory.cuda_context.in(units::MiB) == Approx(300.0));
  io::set_assumption(a, "serving.step_overhead", "0.002");  // bare: seconds
  CHECK(a.serving.step_overhead.in(units::ms) == Approx(2.0));
  io::set_assumption(a, "reliability.storage_write_per_gpu", "1 GB/s");
  CHECK(a.reliability.storage_write_per_gpu.in(units::GBps) == Approx(1.0));
  io::set_assumption(a, "serving.collectives.launch", "5us");
  CHECK(a.serving.collectives.launch.in(units::us) == Approx(5.0));
  CHECK(a.step.collectives.launch.in(units::us) == Approx(3.6));  // the other group untouched
}

TEST_CASE("each value a list shows reads back to the same value") {
  assumption_set a;
  io::set_assumption(a, "step.eager_op_floor", "12.345678 us");
  io::set_assumption(a, "carbon.per_gpu", "163.5 kgCO2e");
  for (const io::assumption_info& i : io::list_assumptions(a)) {
    INFO(i.name << " = " << i.value);
    assumption_set b = a;
    io::set_assumption(b, i.name, i.value);
    CHECK(io::list_assumptions(b) == io::list_assumptions(a));
  }
}

TEST_CASE("bad names and values are refused, naming the assumption") {
  assumption_set a;
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(io::set_assumption(a, "step.tp_overlapp", "1"),
                    Contains("unknown assumption 'step.tp_overlapp'") && Contains("step.tp_overlap"));
  CHECK_THROWS_WITH(io::set_assumption(a, "launch", "1us"),
                    Contains("ambiguous") && Contains("step.collectives.launch") &&
                        Contains("serving.collectives.launch"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.tp_overlap", "lots"),
                    Contains("step.tp_overlap") && Contains("finite number"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.tp_overlap", "1.5"),
                    Contains("step.tp_overlap") && Contains("[0, 1]"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.tp_overlap", "nan"), Contains("finite"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.tp_overlap", "1e999"), Contains("finite"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.gemm_tile_m", "3.5"), Contains("integer"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.gemm_tile_m", "99999999999"), Contains("integer"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.zero3_per_tensor", "maybe"),
                    Contains("true or false"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.cp_kind", "spiral"),
                    Contains("ring|all_gather"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.eager_op_floor", "10 GiB"),
                    Contains("not a unit of"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.eager_op_floor", "1e308 h"), Contains("finite"));
  // each valid alone, but they overflow the models' products: held to assumption_magnitude_limit
  CHECK_THROWS_WITH(io::set_assumption(a, "serving.request_overhead", "1e13"),
                    Contains("magnitude from 1e-12 to 1e12 s"));
  CHECK_THROWS_WITH(io::set_assumption(a, "step.sustained_fraction", "1e-300"),
                    Contains("magnitude"));
  io::set_assumption(a, "step.tp_overlap", "0");  // zero stays allowed
  CHECK(a.step.tp_overlap == 0.0);
  CHECK_THROWS_WITH(io::set_assumption(a, "memory.cuda_context", "-1 GiB"),
                    Contains("memory.cuda_context"));
  // a refused value leaves the set as it was
  CHECK(io::changed_assumptions(a).empty());
}

TEST_CASE("changed_assumptions lists what differs from the defaults, with both values") {
  assumption_set a;
  CHECK(io::changed_assumptions(a).empty());
  io::set_assumption(a, "step.tp_overlap", "0.5");
  io::set_assumption(a, "reliability.enabled", "false");
  const auto c = io::changed_assumptions(a);
  REQUIRE(c.size() == 2);
  CHECK(c[0].name == "step.tp_overlap");
  CHECK(c[0].value == "0.5");
  CHECK(c[0].default_value == "0");
  CHECK(c[1].name == "reliability.enabled");
  CHECK(c[1].value == "false");
}
