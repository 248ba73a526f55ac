// MIG profiles: the catalog rows against NVIDIA's MIG User Guide, the slice a profile gives, and
// serving models on slices with the memory model.
#include "../catch.hpp"

#include <string>

#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/plan/sharing.hpp>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

TEST_CASE("MIG profiles per the MIG User Guide", "[mig][catalog]") {
  // NVIDIA MIG User Guide, "Supported MIG Profiles", H100 80GB table: 1g.10gb (1/8 memory, 1/7
  // SMs, 7 instances), 1g.20gb (2/8, 1/7, 4), 2g.20gb (2/8, 2/7, 3), 3g.40gb (4/8, 3/7, 2),
  // 4g.40gb (4/8, 4/7, 1), 7g.80gb (full, 7/7, 1).
  const auto h100 = cat::mig_profiles(cat::h100_sxm);
  REQUIRE(h100.size() == 6);
  const mig_profile* p = cat::find_mig_profile(cat::h100_sxm, "1g.10gb");
  REQUIRE(p != nullptr);
  CHECK(p->memory_eighths == 1);
  CHECK(p->compute_slices == 1);
  CHECK(p->max_instances == 7);
  CHECK(cat::find_mig_profile(cat::h100_sxm, "mig-3g.40gb")->max_instances == 2);
  CHECK(cat::find_mig_profile(cat::h100_sxm, "7g.80gb")->memory_eighths == 8);
  CHECK(cat::find_mig_profile(cat::h100_sxm, "3g.20gb") == nullptr);
  // A100 40GB names, H200 141GB and B200 180GB names.
  CHECK(cat::find_mig_profile(cat::a100_sxm_40gb, "1g.5gb") != nullptr);
  CHECK(cat::find_mig_profile(cat::h200_sxm, "1g.18gb")->max_instances == 7);
  CHECK(cat::find_mig_profile(cat::b200, "3g.90gb")->compute_slices == 3);
  // No MIG on L4 or consumer cards.
  CHECK(cat::mig_profiles(cat::l4).empty());
  // Every family: names' GB figure matches the memory share of the GPU within rounding, and the
  // instances never use more than 7 compute slices or 8 memory eighths.
  for (const mig_family& f : cat::all_mig_families) {
    const gpu_spec* g = cat::find_gpu(f.gpu.view());
    REQUIRE(g != nullptr);
    for (const mig_profile& q : f.profiles) {
      INFO(f.gpu.view() << " " << q.name.view());
      CHECK(q.compute_slices * q.max_instances <= 7);
      CHECK(q.memory_eighths * q.max_instances <= 8);
      const std::string_view n = q.name.view();
      const double named_gb = std::stod(std::string(n.substr(n.find('.') + 1)));
      // The names round the share of the GPU's marketed GB (A100 40GB: 5, 10, 20; B200: 23).
      CHECK(named_gb == Approx(q.memory_share() * g->memory.in(units::GiB)).epsilon(0.09));
    }
  }
  static_assert(cat::find_mig_profile(cat::h100_sxm, "2g.20gb")->compute_slices == 2);
  CHECK(mig_resource_name(*p).view() == "nvidia.com/mig-1g.10gb");
}

TEST_CASE("A slice is a fraction of the GPU", "[mig][slice]") {
  const gpu_spec s = mig_slice(cat::h100_sxm, *cat::find_mig_profile(cat::h100_sxm, "3g.40gb"));
  CHECK(s.memory.in(units::GiB) == Approx(40.0));
  CHECK(s.memory_bandwidth.in(units::GBps) == Approx(3350.0 / 2));
  CHECK(s.peak.bf16_tensor.in(units::TFLOPS) == Approx(989.5 * 3 / 7));
  CHECK(s.sm_count == 132 * 3 / 7);
  CHECK(s.name.view() == "H100-SXM5-80GB MIG 3g.40gb");
}

TEST_CASE("Serving a model on MIG slices", "[mig][fit]") {
  // Llama 3.1 8B in bf16: about 15 GiB of weights. It cannot fit a 1g.10gb slice (10 GiB), and
  // fits 3g.40gb (2 per GPU). In fp8 (about 8.5 GiB of weights) it fits the 1g.20gb slice: 4 per
  // GPU.
  const inference_config bf16{.batch = 4, .context = 4096};
  const mig_options o = mig_inference_options(cat::llama31_8b, cat::h100_sxm, bf16);
  REQUIRE(o.profiles.size() == 6);
  CHECK_FALSE(o.profiles[0].fits());  // 1g.10gb
  CHECK(o.profiles[3].fits());        // 3g.40gb
  CHECK(o.profiles[3].replicas_per_gpu == 2);
  REQUIRE(o.best >= 0);
  CHECK(o.profiles[static_cast<std::size_t>(o.best)].replicas_per_gpu >= 2);
  // The slice's capacity is the slice memory x gpu_memory_utilization.
  CHECK(o.profiles[3].fit.capacity.in(units::B) ==
        Approx(0.9 * cat::h100_sxm.plannable_memory().in(units::B) / 2));

  inference_config fp8 = bf16;
  fp8.weight_dtype = precision::fp8;
  const mig_fit_report small = mig_inference_fit(
      cat::llama31_8b, cat::h100_sxm, *cat::find_mig_profile(cat::h100_sxm, "1g.20gb"), fp8);
  CHECK(small.fits());
  CHECK(small.replicas_per_gpu == 4);
  CHECK(small.compute_share == Approx(1.0 / 7));
  // No MIG on an L4: no options.
  CHECK(mig_inference_options(cat::llama31_8b, cat::l4, bf16).profiles.empty());
}
