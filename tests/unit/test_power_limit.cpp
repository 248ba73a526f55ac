// models/power_limit.hpp: a GPU under a power limit, against the published clock-vs-power sweep
// its curve is fitted to, and through the step-time and serving models on the 96 GB, 500 W H100s
// of Meta's Grand Teton hosts (a node file, io/node_json.hpp).
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/node_json.hpp>
#include <gpuplan/models/energy.hpp>
#include <gpuplan/models/power_limit.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/models/training_step.hpp>

#include <cmath>
#include <string>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

/// Perseus (Chung et al., SOSP'24): one GPT-3 175B pipeline stage in bf16 on an A100 SXM, each
/// pass at each locked SM clock, time and energy measured with NVML. Source: ml-energy/zeus,
/// sosp24_data/emulation/stage_profile/gpt3-175b+a100_sxm_bf16.csv (stage 0).
struct measured_pass {
  double mhz, seconds, joules;
};
constexpr measured_pass backward[] = {
    {1410, 0.092953779220581, 44.584247999999675},  {1350, 0.09384629631042479, 42.77273599999957},
    {1305, 0.09599606895446773, 41.203799999999816}, {1260, 0.09879112815856932, 38.21528799999971},
    {1200, 0.10297132301330555, 35.95886400000006},  {1155, 0.10648917388916015, 34.51363199999928},
    {1110, 0.11014442062377924, 33.26242399999965},  {1050, 0.11590795326232908, 32.58273599999957},
    {1005, 0.12091542816162108, 33.115015999999834}, {960, 0.12596773719787596, 33.26968800000102},
    {900, 0.13322450256347654, 33.085359999999405},  {855, 0.14056828689575185, 33.64191999999993},
};
constexpr measured_pass forward[] = {
    {1410, 0.05016166687011708, 23.80547200000007},  {1305, 0.05196970939636224, 22.18107199999969},
    {1200, 0.05606334686279292, 19.260104000000286}, {1110, 0.06034601020812984, 17.864672000000255},
    {1005, 0.06648568916320799, 17.781311999999918}, {900, 0.07375855827331536, 18.047864000000057},
    {855, 0.07773071098327632, 18.239359999999404},
};

/// The clock the model gives for each measured pass's power (as a share of the full-clock
/// pass's) against the clock it ran at, as shares of 1410 MHz.
template <std::size_t N>
void check_sweep(const measured_pass (&passes)[N]) {
  // Tolerance: 0.035 of f_max (the fit's worst point is 0.031, at 855 MHz backward).
  constexpr double tolerance = 0.035;
  const double full = passes[0].joules / passes[0].seconds;
  for (const measured_pass& m : passes) {
    const double power_share = m.joules / m.seconds / full;
    const double measured_clock = m.mhz / 1410.0;
    INFO(m.mhz << " MHz: power share " << power_share);
    CHECK(std::abs(clock_fraction_at_power(power_share) - measured_clock) <= tolerance);
  }
}

/// The Grand Teton host of torchtitan's June 2025 benchmarks: 8 H100s "fully connected with
/// NVLink", each "96GB HBM2e with 2.4 TB/sec peak memory bandwidth", "400 Gb/s per GPU" RDMA, run
/// at "the default 500W power limit" of a 700 W TDP (pytorch/torchtitan,
/// benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md). The GPU's rates are the H100 SXM5's.
nlohmann::json grand_teton_json() {
  nlohmann::json gpu = io::to_json(cat::h100_sxm);
  gpu["name"] = "H100-96GB-HBM2e";
  gpu["aliases"] = nlohmann::json::array();
  gpu["memory_bytes"] = 96e9;
  gpu["memory_usable_bytes"] = 0;
  gpu["memory_type"] = "HBM2e";
  gpu["memory_bandwidth_bytes_per_s"] = 2.4e12;
  gpu["tdp_watts"] = 700;
  return {{"name", "Grand-Teton-H100-96GB"},
          {"gpu", gpu},
          {"gpus", 8},
          {"fabric", "nvswitch"},
          {"nics", {{"count", 8}, {"per_nic_bits_per_s", 400e9}}}};
}

}  // namespace

TEST_CASE("the clock-vs-power curve reads Perseus's A100 sweep within 0.035 of f_max") {
  check_sweep(backward);
  check_sweep(forward);
}

TEST_CASE("the curve: full power is full clock, it falls monotonically, inverse of itself") {
  CHECK(clock_fraction_at_power(1.0) == Approx(1.0).epsilon(1e-12));
  double last = 1.0;
  for (double p = 0.99; p > 0.29; p -= 0.01) {
    const double x = clock_fraction_at_power(p);
    CHECK(x < last);
    CHECK(power_fraction_at_clock(x) == Approx(p).epsilon(1e-9));
    last = x;
  }
  static_assert(clock_fraction_at_power(1.0) > 0.999);
}

TEST_CASE("an H100 at 500 W: math slower by the curve, HBM whole, drawing at most 500 W") {
  const gpu_spec& h100 = cat::h100_sxm;
  const gpu_spec capped = power_limited(h100, 500.0 * units::W);
  const double x = clock_fraction_at_power(500.0 / 700.0);
  CHECK(x == Approx(0.828).margin(0.005));  // 500/700 = 0.714 of the draw: 1168 of 1410 MHz
  CHECK(capped.peak.bf16_tensor.value == Approx(x * h100.peak.bf16_tensor.value));
  CHECK(capped.peak.fp8_tensor.value == Approx(x * h100.peak.fp8_tensor.value));
  CHECK(capped.memory_bandwidth.value == h100.memory_bandwidth.value);
  CHECK(capped.tdp.in(units::W) == Approx(500.0));
  CHECK(gpu_power(capped, 1.0).in(units::W) <= 500.0);
  // at the TDP nothing changes, so a limit applied twice is applied once
  const gpu_spec same = power_limited(h100, h100.tdp);
  CHECK(same.peak.bf16_tensor.value == h100.peak.bf16_tensor.value);
  CHECK(power_limited(capped, 500.0 * units::W).peak.bf16_tensor.value ==
        capped.peak.bf16_tensor.value);
  // below what memory-bound work draws (300 of 700 W), the bandwidth falls too
  CHECK(power_limited(h100, 250.0 * units::W).memory_bandwidth.value ==
        Approx(h100.memory_bandwidth.value * 250.0 / 300.0));
}

TEST_CASE("a limit above the TDP or below nvidia-smi's minimum is refused, naming the field") {
  const gpu_spec& h100 = cat::h100_sxm;
  CHECK_THROWS_WITH(power_limited(h100, 701.0 * units::W),
                    Catch::Contains("power_limit must not exceed the GPU's TDP (gpu_spec.tdp)"));
  CHECK_THROWS_WITH(power_limited(h100, 150.0 * units::W),
                    Catch::Contains("power_limit must be at least"));
  CHECK_NOTHROW(power_limited(h100, 200.0 * units::W));
  gpu_spec no_tdp = h100;
  no_tdp.tdp = {};
  CHECK_THROWS_WITH(power_limited(no_tdp, 300.0 * units::W), Catch::Contains("gpu_spec.tdp"));
}

TEST_CASE("a node under a limit: its published maximum falls by what its GPUs no longer draw") {
  const node_spec n = power_limited(cat::dgx_h100, 500.0 * units::W);
  CHECK(n.gpu.tdp.in(units::W) == Approx(500.0));
  CHECK(n.max_power.in(units::W) ==
        Approx(cat::dgx_h100.max_power.in(units::W) - 8.0 * 200.0));
}

TEST_CASE("step time: a limit slows a compute-bound training step and lowers its energy") {
  training_plan p;
  p.model = cat::llama31_8b;
  p.node = cat::dgx_h100;
  p.layout = {.dp = 8, .zero = 3};
  p.config.framework = framework_kind::megatron;
  p.config.seq = 4096;
  const step_breakdown full = estimate_step(p);
  training_plan capped = p;
  capped.node = power_limited(p.node, 500.0 * units::W);
  const step_breakdown slow = estimate_step(capped);
  CHECK(slow.total.value > full.total.value);
  // no slower than the clock alone would make it (memory-bound and communication parts hold)
  CHECK(slow.total.value <= full.total.value / clock_fraction_at_power(500.0 / 700.0) * 1.0001);
  // energy per step: draw x time falls (500 W x 1.1 < 700 W x 1)
  const double e_full = gpu_power(p.node.gpu, 1.0).value * full.total.value;
  const double e_cap = gpu_power(capped.node.gpu, 1.0).value * slow.total.value;
  CHECK(e_cap < e_full);
}

TEST_CASE("a 96 GB, 500 W H100 host from a node file plans 16-GPU training and TP-2 serving") {
  const node_spec host = io::node_from_json(grand_teton_json(), {"grand-teton.json", ""});
  CHECK(host.gpus == 8);
  CHECK(host.scale_up_per_gpu.value == cat::h100_sxm.gpu_link.per_direction.value);
  CHECK(host.nic_per_gpu().in(units::Gbps) == Approx(400.0));
  const node_spec at500 = power_limited(host, 500.0 * units::W);

  training_plan t;
  t.model = cat::llama31_8b;
  t.node = at500;
  t.nodes = 2;
  t.layout = {.dp = 16, .zero = 3};
  t.config.framework = framework_kind::megatron;
  t.config.seq = 8192;
  t.config.global_batch = 64;
  const step_breakdown step = estimate_step(t);
  CHECK(step.total.value > 0.0);
  training_plan t700 = t;
  t700.node = host;
  CHECK(estimate_step(t700).total.value < step.total.value);

  serving_plan s{.model = cat::llama31_70b, .node = at500, .layout = {.tp = 2}};
  s.config.weight_dtype = precision::fp8;
  s.compute_dtype = precision::fp8;
  const serving_point pt = serve(s);
  serving_plan s700 = s;
  s700.node = host;
  const serving_point full = serve(s700);
  // prefill is compute-bound: the limit lengthens TTFT; decode streams weights from HBM, which
  // 500 W leaves whole, so TPOT moves less than TTFT
  CHECK(pt.ttft.value > full.ttft.value);
  CHECK(pt.tpot.value / full.tpot.value < pt.ttft.value / full.ttft.value);
}
