// Which inputs of a result are estimates (models/estimates.hpp): the catalog GPUs without a
// driver-reported usable memory, the GPUs no published GEMM measurement covers, and the serving
// roofline's fractions away from the GPU they were measured on.
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/estimates.hpp>

#include <string_view>

#include "../catch.hpp"

using namespace gpuplan;

TEST_CASE("usable memory: an estimate exactly where the catalog has no driver figure") {
  for (const gpu_spec& g : catalog::all_gpus) {
    const estimate_notes n = memory_estimates(g);
    INFO(g.name.view());
    CHECK(n.empty() == (g.memory_usable.value > 0));
    if (!n.empty()) {
      CHECK(n.at(0).kind == estimate_kind::usable_memory);
      CHECK(n.at(0).gpu == g.name);
      CHECK(n.at(0).value == g.memory.value);  // planned on the capacity
    }
  }
  STATIC_REQUIRE(!memory_estimates(catalog::h100_nvl).empty());
  STATIC_REQUIRE(memory_estimates(catalog::h100_sxm).empty());
}

TEST_CASE("GEMM efficiency: measured GPUs, borrowed ones and the fallback") {
  // stas00/ml-engineering's MAMF table measured these (bf16): A100 SXM, A100 PCIe, H100 SXM, B200,
  // MI300X (models/training_step.hpp).
  for (const gpu_spec* g : {&catalog::a100_sxm_80gb, &catalog::a100_pcie_40gb, &catalog::h100_sxm,
                            &catalog::b200, &catalog::mi300x})
    CHECK(default_matmul_efficiency(*g).measured);
  // the table is bf16 (fp16: the same tensor cores and peak); at fp32 (tf32) or at fp8 on an
  // architecture without an fp8 figure the bf16 fraction is borrowed, an estimate
  CHECK(default_matmul_efficiency(catalog::h100_sxm, precision::fp16).measured);
  const matmul_efficiency h100_fp32 = default_matmul_efficiency(catalog::h100_sxm, precision::fp32);
  CHECK_FALSE(h100_fp32.measured);
  CHECK(h100_fp32.fraction == 0.803);
  CHECK_FALSE(default_matmul_efficiency(catalog::mi300x, precision::fp8).measured);
  CHECK(default_matmul_efficiency(catalog::h100_sxm, precision::fp8).measured);
  const matmul_efficiency h200 = default_matmul_efficiency(catalog::h200_sxm);
  CHECK_FALSE(h200.measured);
  CHECK(h200.fraction == 0.803);
  CHECK(std::string_view(h200.source) == "bf16 MAMF of the H100 SXM");
  CHECK(default_matmul_efficiency(catalog::h200_sxm, precision::fp8).measured);
  const matmul_efficiency l40s = default_matmul_efficiency(catalog::l40s);
  CHECK_FALSE(l40s.measured);
  CHECK(l40s.fraction == unmeasured_matmul_fraction);
  CHECK(unmeasured_matmul_fraction == Approx(0.8068).epsilon(1e-4));  // (0.803 + 0.8106) / 2
  // A10 is Ampere but not an A100: it borrows the A100 PCIe figure, an estimate for it.
  CHECK_FALSE(default_matmul_efficiency(catalog::a10).measured);

  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::pcie_8x_l40s;
  p.layout.dp = 8;
  const estimate_notes n = step_estimates(p);
  REQUIRE(n.size() == 1);
  CHECK(n.at(0).kind == estimate_kind::matmul_efficiency);
  CHECK(n.at(0).value == unmeasured_matmul_fraction);
  p.assumptions.matmul_peak_fraction = 0.7;  // the caller's figure: not listed
  CHECK(step_estimates(p).empty());
  p = {};
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  CHECK(step_estimates(p).empty());
}

TEST_CASE("serving: the roofline's fractions are estimates away from the H100 SXM") {
  serving_plan p;
  p.model = catalog::llama31_8b;
  p.node = single_gpu_node(catalog::h100_sxm);
  CHECK(serving_estimates(p).empty());
  p.node = single_gpu_node(catalog::a100_sxm_80gb);
  REQUIRE(serving_estimates(p).size() == 1);
  CHECK(serving_estimates(p).at(0).kind == estimate_kind::serving_efficiency);
  p.node = single_gpu_node(catalog::h100_nvl);
  const estimate_notes both = serving_estimates(p);
  REQUIRE(both.size() == 2);
  CHECK(both.at(0).kind == estimate_kind::usable_memory);
  CHECK(both.at(1).kind == estimate_kind::serving_efficiency);
  p.node = single_gpu_node(catalog::a100_sxm_80gb);
  p.assumptions.kernels.gemm_fraction_16bit = 0.87;  // the caller's own measurement
  CHECK(serving_estimates(p).empty());
  p.node = single_gpu_node(catalog::b200);
  p.compute_dtype = precision::fp4;
  p.assumptions.kernels = {};
  const estimate_notes fp4 = serving_estimates(p);
  REQUIRE(fp4.size() == 2);
  CHECK(fp4.at(1).kind == estimate_kind::fp4_gemm_efficiency);
}

TEST_CASE("a note is listed once") {
  estimate_notes n = memory_estimates(catalog::h100_nvl);
  n.add_all(memory_estimates(catalog::h100_nvl));
  CHECK(n.size() == 1);
}
