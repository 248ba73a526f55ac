// Which inputs of a result are estimates (models/estimates.hpp): the catalog GPUs without a
// driver-reported usable memory, the GPUs no published GEMM measurement covers, and the serving
// roofline's fractions away from the GPU they were measured on.
#include <gpuplan/catalog.hpp>
#include <gpuplan/models/estimates.hpp>

#include <string>
#include <string_view>
#include <vector>

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
  // the L40S: no GEMM and no HBM measurement of its own
  REQUIRE(n.size() == 2);
  CHECK(n.at(0).kind == estimate_kind::matmul_efficiency);
  CHECK(n.at(0).value == unmeasured_matmul_fraction);
  CHECK(n.at(1).kind == estimate_kind::hbm_efficiency);
  CHECK(std::string_view(n.at(1).field) == "step.memory_bandwidth_fraction");
  CHECK(n.at(1).value == default_hbm_efficiency(catalog::l40s).fraction);
  p.assumptions.matmul_peak_fraction = 0.7;  // the caller's figure: not listed
  REQUIRE(step_estimates(p).size() == 1);
  CHECK(step_estimates(p).at(0).kind == estimate_kind::hbm_efficiency);
  p.assumptions.memory_bandwidth_fraction = 0.8;
  CHECK(step_estimates(p).empty());
  p = {};
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  CHECK(step_estimates(p).empty());
}

namespace {

/// The fields of a result's kernel notes, in order.
std::vector<std::string> fields_of(const estimate_notes& n) {
  std::vector<std::string> out;
  for (const estimate_note& x : n)
    if (x.kind != estimate_kind::usable_memory) out.emplace_back(x.field);
  return out;
}

}  // namespace

TEST_CASE("serving: one note per kernel fraction still at its default and not measured") {
  using v = std::vector<std::string>;
  serving_plan p;
  p.model = catalog::llama31_8b;
  // the H100 SXM: its own GEMM (bf16 MAMF) and HBM (copies) figures, and the GPU the attention
  // fraction was measured on: nothing is an estimate
  p.node = single_gpu_node(catalog::h100_sxm);
  CHECK(serving_estimates(p).empty());
  // the A100 SXM: its own bf16 MAMF, so no GEMM note; attention and HBM are the H100's
  p.node = single_gpu_node(catalog::a100_sxm_80gb);
  CHECK(fields_of(serving_estimates(p)) ==
        v{"serving.kernels.attention_fraction", "serving.kernels.hbm_fraction"});
  for (const estimate_note& n : serving_estimates(p))
    CHECK(n.kind == (std::string_view(n.field) == "serving.kernels.hbm_fraction"
                         ? estimate_kind::hbm_efficiency
                         : estimate_kind::serving_efficiency));
  // the caller's own figures are not listed, field by field
  p.assumptions.kernels.hbm_fraction = 0.85;
  CHECK(fields_of(serving_estimates(p)) == v{"serving.kernels.attention_fraction"});
  p.assumptions.kernels.attention_fraction = 0.7;
  CHECK(serving_estimates(p).empty());
  // the H100 NVL: usable memory, its borrowed bf16 figure (the H100 SXM's), attention, HBM
  p.assumptions.kernels = {};
  p.node = single_gpu_node(catalog::h100_nvl);
  const estimate_notes nvl = serving_estimates(p);
  REQUIRE(nvl.size() == 4);
  CHECK(nvl.at(0).kind == estimate_kind::usable_memory);
  CHECK(nvl.at(1).kind == estimate_kind::matmul_efficiency);
  CHECK(std::string_view(nvl.at(1).field) == "serving.kernels.gemm_fraction_16bit");
  CHECK(nvl.at(1).value == mamf::h100_sxm_bf16);
  CHECK(std::string_view(nvl.at(1).source) == "bf16 MAMF of the H100 SXM");
  p.assumptions.kernels.gemm_fraction_16bit = 0.8;  // set: that note goes, the others stay
  CHECK(fields_of(serving_estimates(p)) ==
        v{"serving.kernels.attention_fraction", "serving.kernels.hbm_fraction"});
  // fp8 on the MI300X: its bf16 MAMF is measured, its fp8 fraction borrows it (a note for
  // gemm_fraction_8bit, not for gemm_fraction_16bit)
  p.assumptions.kernels = {};
  p.node = single_gpu_node(catalog::mi300x);
  p.compute_dtype = precision::fp8;
  const estimate_notes mi = serving_estimates(p);
  CHECK(fields_of(mi) == v{"serving.kernels.gemm_fraction_8bit",
                           "serving.kernels.attention_fraction", "serving.kernels.hbm_fraction"});
  // fp4 on the B200: the 4-bit fraction is its fp8 one, always an estimate while it is the default
  p.node = single_gpu_node(catalog::b200);
  p.compute_dtype = precision::fp4;
  const estimate_notes fp4 = serving_estimates(p);
  CHECK(fields_of(fp4) == v{"serving.kernels.gemm_fraction_4bit",
                            "serving.kernels.attention_fraction", "serving.kernels.hbm_fraction"});
  bool found = false;
  for (const estimate_note& n : fp4)
    if (n.kind == estimate_kind::fp4_gemm_efficiency) {
      found = true;
      CHECK(n.value == mamf::b200_fp8);
    }
  CHECK(found);
  p.assumptions.kernels.gemm_fraction_4bit = 0.6;
  CHECK(fields_of(serving_estimates(p)) ==
        v{"serving.kernels.attention_fraction", "serving.kernels.hbm_fraction"});
}

TEST_CASE("the step model's notes name their fields") {
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::pcie_8x_l40s;
  p.layout.dp = 8;
  REQUIRE(step_estimates(p).size() == 2);
  CHECK(std::string_view(step_estimates(p).at(0).field) == "step.matmul_peak_fraction");
  CHECK(std::string_view(step_estimates(p).at(1).field) == "step.memory_bandwidth_fraction");
}

TEST_CASE("a kernel fraction set by the caller is 0 or at least min_kernel_fraction") {
  // as a GPU file's figures (kernel_efficiency::validate): 0.008 for 0.8 is a mistake, refused
  roofline_assumptions k;
  k.gemm_fraction_16bit = 0.008;
  CHECK_THROWS_WITH(k.validate(), Catch::Contains("gemm_fraction_16bit must be 0 (the GPU's own "
                                                  "figure) or in [0.05, 1]"));
  k = {};
  k.hbm_fraction = 0.01;
  CHECK_THROWS_WITH(k.validate(), Catch::Contains("hbm_fraction must be 0"));
  k.hbm_fraction = min_kernel_fraction;
  CHECK_NOTHROW(k.validate());
  step_assumptions s;
  s.matmul_peak_fraction = 0.03;
  CHECK_THROWS_WITH(s.validate(), Catch::Contains("matmul_peak_fraction must be 0"));
  s = {};
  s.memory_bandwidth_fraction = 1e-9;
  CHECK_THROWS_WITH(s.validate(), Catch::Contains("memory_bandwidth_fraction must be 0"));
  s.memory_bandwidth_fraction = 0.0;  // the GPU's own figure
  CHECK_NOTHROW(s.validate());
}

TEST_CASE("a note is listed once") {
  estimate_notes n = memory_estimates(catalog::h100_nvl);
  n.add_all(memory_estimates(catalog::h100_nvl));
  CHECK(n.size() == 1);
}
