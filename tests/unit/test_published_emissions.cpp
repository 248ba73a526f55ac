// Published training energy and emissions, reproduced from the same inputs to their printed
// rounding. Each figure is copied here with its source; the tolerance beside each check is the
// rounding of the printed figure (and, where an input is itself rounded, that rounding carried
// through), never a fitted margin.
#include <cmath>
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/catalog/sites.hpp>  // not in the umbrella (dated market data)

#include "../catch.hpp"
#include "../published_runs.hpp"

using namespace gpuplan;
namespace cat = gpuplan::catalog;

namespace {

double tonnes(carbon_mass m) { return m.in(units::tCO2e); }

// GPU-hours x power per GPU x PUE x grid intensity: the model cards' method, and the library's
// run_energy + operational_carbon.
carbon_mass model_card_emissions(double gpu_hours, double watts, double pue,
                                 carbon_intensity grid) {
  return operational_carbon(run_energy(gpu_hours * units::h, watts * units::W, pue), grid);
}

}  // namespace

// Llama 2. Touvron et al. 2023, "Llama 2: Open Foundation and Fine-Tuned Chat Models",
// arXiv:2307.09288, Table 2 "CO2 emissions during pretraining" (also the Llama 2 model card,
// github.com/meta-llama/llama/blob/main/MODEL_CARD.md, without the 34B row): GPU-hours, power per
// GPU (W), tCO2eq. The card does not print PUE or grid intensity; the LLaMA paper's method
// (Touvron et al. 2023, arXiv:2302.13971, sec. 6.3: PUE 1.1 and "the US national average carbon
// intensity factor of 0.385 kg CO2eq/KWh") reproduces every row to the printed hundredth of a
// tonne, the printed figures being truncated (not rounded) to two decimals: 62.4476 prints
// 62.44.
TEST_CASE("Llama 2 pretraining emissions, row by row", "[published][carbon]") {
  const carbon_intensity us = cat::grid_us.intensity;  // 0.385 kg/kWh
  struct row {
    const char* model;
    double gpu_hours, watts, printed_t;
  };
  const row rows[] = {{"7B", 184320, 400, 31.22},
                      {"13B", 368640, 400, 62.44},
                      {"34B", 1038336, 350, 153.90},
                      {"70B", 1720320, 400, 291.42}};
  double total_t = 0;
  double total_h = 0;
  for (const row& r : rows) {
    INFO(r.model);
    const double t = tonnes(model_card_emissions(r.gpu_hours, r.watts, 1.1, us));
    // Truncated to two decimals, the model's figure is the printed one.
    CHECK(std::floor(t * 100.0 + 1e-9) / 100.0 == Approx(r.printed_t).margin(1e-9));
    total_t += t;
    total_h += r.gpu_hours;
  }
  // "Total 3311616 GPU hours, 539.00 tCO2eq": 538.994 t, within the printed rounding (0.005 t).
  CHECK(total_h == 3311616);
  CHECK(total_t == Approx(539.00).margin(0.01));
}

// Llama 3 model card (github.com/meta-llama/llama3/blob/main/MODEL_CARD.md, April 2024):
// 8B 1.3M GPU-hours, 70B 6.4M, H100-80GB at 700 W, 390 and 1,900 tCO2eq, total 7.7M and 2,290.
// The same method as Llama 2 (PUE 1.1, 0.385 kg/kWh) gives 385 t and 1,897 t, which print as
// 390 and 1,900 at the card's precision (tens of tonnes; the GPU-hours are rounded to 0.1M).
TEST_CASE("Llama 3 pretraining emissions", "[published][carbon]") {
  const carbon_intensity us = cat::grid_us.intensity;
  const double t8 = tonnes(model_card_emissions(1.3e6, 700, 1.1, us));
  const double t70 = tonnes(model_card_emissions(6.4e6, 700, 1.1, us));
  CHECK(std::round(t8 / 10) * 10 == 390);
  CHECK(std::round(t70 / 100) * 100 == 1900);
  // Total as printed: the sum of the printed rows.
  CHECK(std::round(t8 / 10) * 10 + std::round(t70 / 100) * 100 == 2290);
}

// Llama 3.1 model card (github.com/meta-llama/llama-models/blob/main/models/llama3_1/
// MODEL_CARD.md, July 2024): H100-80GB, 700 W; 8B 1.46M GPU-hours 420 t, 70B 7.0M 2,040 t, 405B
// 30.84M 8,930 t, total 39.3M 11,390 t location-based. The card does not give the intensity it
// used, and Llama 2's (1.1 x 0.385) is 2-3% high on every row. One intensity, taken from the
// largest row, reproduces the others and the total within their printed rounding: half a unit of
// the printed GPU-hours (carried through) plus half a unit of the printed tonnes.
TEST_CASE("Llama 3.1 emissions: one intensity explains every row", "[published][carbon]") {
  const double kWh_405b = 30.84e6 * 0.7;
  const carbon_intensity implied = 8930 * units::tCO2e / (kWh_405b * units::kWh);
  CHECK(implied.in(units::kgCO2e_per_kWh) == Approx(0.41365).epsilon(1e-4));
  struct row {
    const char* model;
    double gpu_hours, hours_half_unit, printed_t, t_half_unit;
  };
  const row rows[] = {{"8B", 1.46e6, 0.005e6, 420, 5},
                      {"70B", 7.0e6, 0.05e6, 2040, 5},
                      {"405B", 30.84e6, 0.005e6, 8930, 5},
                      {"total", 39.3e6, 0.05e6, 11390, 5}};
  for (const row& r : rows) {
    INFO(r.model);
    const double t = tonnes(model_card_emissions(r.gpu_hours, 700, 1.0, implied));
    const double tolerance =
        tonnes(model_card_emissions(r.hours_half_unit, 700, 1.0, implied)) + r.t_half_unit;
    CHECK(std::abs(t - r.printed_t) <= tolerance);
  }
  // With Llama 2's factor the 405B row would be 9,142 t, 2.4% above the card.
  CHECK(tonnes(model_card_emissions(30.84e6, 700, 1.1, cat::grid_us.intensity)) ==
        Approx(9142).margin(1));
}

// BLOOM. Luccioni, Viguier, Ligozat, "Estimating the Carbon Footprint of BLOOM, a 176B
// Parameter Language Model", JMLR 24(253), 2023 (arXiv:2211.02001), Tables 1-2: 1,082,990 GPU-hours
// on A100 80GB at a TDP of 400 W -> 433,196 kWh of dynamic consumption; French grid 57
// gCO2eq/kWh -> 24.69 t; idle consumption 256,646 kWh -> 14.6 t; embodied 11.2 t; total 50.5 t.
TEST_CASE("BLOOM: dynamic, idle and embodied emissions", "[published][carbon]") {
  const energy dynamic = run_energy(1082990 * units::h, 400 * units::W, 1.0);
  CHECK(dynamic.in(units::kWh) == Approx(433196).margin(0.5));  // printed to the kWh
  const carbon_intensity fr = cat::grid_france_2022.intensity;  // 57 g/kWh
  const carbon_mass dyn_c = operational_carbon(dynamic, fr);
  CHECK(tonnes(dyn_c) == Approx(24.69).margin(0.005));
  const carbon_mass idle_c = operational_carbon(256646 * units::kWh, fr);
  CHECK(tonnes(idle_c) == Approx(14.6).margin(0.05));
  // Embodied, BLOOM's own amortisation (the library's defaults): 150 kg per GPU, 2,500 kg per
  // 8-GPU server, 6 years, 85% use.
  const carbon_mass emb = embodied_carbon(1082990 * units::h);
  CHECK(tonnes(emb) == Approx(11.2).margin(0.05));
  const carbon_report report{dyn_c + idle_c, emb};
  CHECK(tonnes(report.total()) == Approx(50.5).margin(0.05));
}

// GPT-3. Patterson et al. 2021, "Carbon Emissions and Large Neural Network Training",
// arXiv:2104.10350, Table 4: 10,000 V100s for 14.8 days, 330 W average system power per
// processor, PUE 1.10, 1,287 MWh, 0.429 kg CO2e/kWh, 552.1 tCO2e. The energy is reproduced within
// the rounding of its 14.8-day input (+-0.05 day, +-0.34%): 1,289.4 MWh.
TEST_CASE("GPT-3 energy and emissions (Patterson et al.)", "[published][carbon]") {
  const duration gpu_time = 10000 * (14.8 * units::d);
  const energy e = run_energy(gpu_time, 330 * units::W, 1.10);
  const double half_day_unit = 0.05 / 14.8;  // relative rounding of 14.8 days
  CHECK(e.in(units::MWh) == Approx(1287).epsilon(half_day_unit));
  // The printed energy at the printed intensity: 552.1 t to the printed tenth.
  const carbon_intensity grid = cat::grid_us_2020.intensity;  // 0.429 kg/kWh
  CHECK(tonnes(operational_carbon(1287 * units::MWh, grid)) == Approx(552.1).margin(0.05));
  // The reproduced energy's emissions, within the same carried rounding.
  CHECK(tonnes(operational_carbon(e, grid)) == Approx(552.1).epsilon(half_day_unit + 1e-4));
}

// With gpuplan's own time model predicting the GPU-hours (issue 15: within 15%). Llama 3.1 405B:
// 15.6T pre-training tokens (Llama 3 paper, arXiv:2407.21783, Sec. 3.1) on 16,384 H100s with the
// paper's layout (Sec. 3.3.2 and Table 4: TP 8, PP 16, CP 1, sequence 8,192, 16M tokens per
// batch, FSDP/ZeRO-2, interleaved 1F1B with 7-layer first and last stages; chunks per stage not
// published, 4 assumed as in test_training_step.cpp). The model card's 30.84M GPU-hours also
// cover the long-context and annealing stages and interruptions, which the step model does not
// see: the steady state alone is 14.2% low (26.45M). With the reliability model's expected
// failures and checkpoints (ETTR 0.924), the reserved hours are 28.61M, 7.2% low; emissions follow
// with the card's implied intensity.
TEST_CASE("Llama 3.1 405B GPU-hours and emissions from the training time model",
          "[published][carbon][model]") {
  training_plan p;
  p.model = cat::llama31_405b;
  p.node = cat::dgx_h100;
  p.fabric = inter_node_fabric::roce;
  p.layout = {.dp = 16384 / (8 * 16),
              .tp = 8,
              .pp = 16,
              .cp = 1,
              .zero = 2,
              .sequence_parallel = true,
              .virtual_stages = 4};
  p.config.micro_batch = 1;
  p.config.seq = 8192;
  p.config.global_batch = 16 * 1024 * 1024 / 8192;
  p.layout.first_stage_layers = 7;
  p.layout.last_stage_layers = 7;
  p.assumptions.cp_kind = context_parallel_kind::all_gather;
  p.assumptions.mfu_attention = attention_mask::causal;
  const duration steady = gpu_time_to_train(p, 15.6e12 * units::token);
  CHECK(steady.in(units::h) == Approx(26.45e6).epsilon(0.005));  // -14.2%: steady state only
  // the reserved time with the reliability model's defaults (Llama 3's own failure rate; the
  // optimal checkpoint interval at 2 TB/s of storage): ETTR 0.92, the paper's "higher than 90%"
  const modelled_training_run run = modelled_training(p, 15.6e12 * units::token);
  CHECK(run.reliability.ettr > 0.90);
  const duration gpu_time = run.usage.gpu_time;
  CHECK(gpu_time.in(units::h) / 30.84e6 - 1 == Approx(-0.072).margin(0.005));
  CHECK(gpu_time.in(units::h) == Approx(30.84e6).epsilon(0.15));
  const carbon_intensity implied = 8930 * units::tCO2e / (30.84e6 * 0.7 * units::MWh / 1000);
  const carbon_mass predicted =
      operational_carbon(run_energy(gpu_time, 700 * units::W, 1.0), implied);
  CHECK(tonnes(predicted) == Approx(8930).epsilon(0.15));
}

// BLOOM 176B with gpuplan's own time model. The layout is published in the training script,
// github.com/bigscience-workshop/bigscience train/tr11-176B-ml/tr11-176B-ml.slurm and README.md:
// 48 nodes of 8 A100 80GB (384 GPUs), TP 4, PP 12, DP 8, micro-batch 2, global batch 2048 of 2048
// tokens reached by --rampup-batch-size 192 16 9_765_625, bf16 with DeepSpeed's BF16_Optimizer
// (its own ZeRO-1: fp32 gradient accumulation and all-reduce), --checkpoint-activations (full
// recompute), Megatron's default dropout 0.1 inherited, fused softmax (no flash attention); 70
// layers, hidden 14336, 112 heads, vocabulary padded to 250,880; "4 OmniPath links" per node
// (100 Gb/s each). The README's own days-left formula uses 105 s per iteration at GBS 2048, the
// team's measured steady-state rate. BLOOM trained on 366B tokens (Hugging Face's BLOOM docs;
// BigScience, arXiv:2211.05100); Luccioni et al. count 1,082,990 GPU-hours for the whole run.
// The plan is the one test_training_step.cpp checks against the logged 104.70 s per step
// (tests/published_runs.hpp). Its step (100.8 s) is 3.7% below the log; with the ramp-up's
// smaller steps, 366B tokens take 947.7k GPU-hours of steady state, 12.5% below the published
// figure, and 964.1k reserved with the reliability model's failures and checkpoints (ETTR 0.983),
// 11.0% below (issue 15: within 15%). The measured 105 s extrapolated over 366B tokens (no
// ramp-up, no failures) gives 977k, 9.8% below: the rest (evaluation, the run's own incidents,
// queueing) is not modelled.
// The figures are pinned (0.5%) so a change to the step model shows here and in energy.md.
TEST_CASE("BLOOM 176B GPU-hours and energy from the training time model",
          "[published][carbon][model]") {
  // the run as test_training_step.cpp checks its step (tests/published_runs.hpp)
  const training_plan p = test::bloom_plan();
  const step_breakdown b = estimate_step(p);
  // the logged steady state is 104.70 s (test_training_step.cpp holds the model within 15%)
  CHECK(b.total.in(units::s) == Approx(100.82).epsilon(0.005));
  const token_count tokens = 366e9 * units::token;
  const double gpu_hours = gpu_time_to_train(p, tokens).in(units::h);
  const double published = 1082990;
  // the ramp-up (20B tokens at batches of 192 to 2032) costs 1.0% more GPU-hours than running
  // every step at 2048
  training_plan no_ramp = p;
  no_ramp.config.rampup_start = 0;
  const double steady_hours = gpu_time_to_train(no_ramp, tokens).in(units::h);
  CHECK(gpu_hours / steady_hours - 1 == Approx(0.0099).margin(0.001));
  // The team's measured rate over the same tokens: 366e9 / (2048 x 2048) steps x 105 s x 384.
  // (the team's measured 105 s over the same tokens, 366e9 / (2048 x 2048) x 105 s x 384 GPUs =
  // 977k GPU-hours, is 9.8% below the published figure: the run's own downtime)
  static_assert(366e9 / (2048.0 * 2048.0) * 105 / 3600 * 384 / 1082990 - 1 < -0.097 &&
                366e9 / (2048.0 * 2048.0) * 105 / 3600 * 384 / 1082990 - 1 > -0.099);
  CHECK(gpu_hours / published - 1 == Approx(-0.125).margin(0.005));
  // The reserved hours: the reliability model's expected failures and checkpoints
  // (models/reliability.hpp defaults: Llama 3's 3.79 failures per 1,000 node-days, 10 min
  // restarts) with BLOOM's published checkpoint interval, --save-interval 100 steps.
  reliability_assumptions rel;
  rel.checkpoint_interval = 100.0 * b.total;
  const modelled_training_run run = modelled_training(p, tokens, rel);
  CHECK(run.wall.in(units::h) * 384 == Approx(gpu_hours));
  const double reserved_hours = run.usage.gpu_time.in(units::h);
  CHECK(run.reliability.ettr == Approx(0.983).margin(0.002));
  CHECK(reserved_hours / published - 1 == Approx(-0.110).margin(0.005));
  CHECK(std::abs(reserved_hours / published - 1) < 0.15);  // issue 15's goal
  CHECK(run.reliability.interruptions == Approx(19.0).margin(0.1));
  CHECK(run_energy(reserved_hours * units::h, 400 * units::W, 1.0).in(units::kWh) / 433196 - 1 ==
        Approx(-0.110).margin(0.005));
  // Energy and emissions as Luccioni et al. compute them (400 W per GPU, 57 g/kWh): the predicted
  // dynamic energy against the published 433,196 kWh, the same -12.5%.
  const energy predicted = run_energy(gpu_hours * units::h, 400 * units::W, 1.0);
  CHECK(predicted.in(units::kWh) / 433196 - 1 == Approx(-0.125).margin(0.005));
  CHECK(tonnes(operational_carbon(predicted, cat::grid_france_2022.intensity)) ==
        Approx(24.69 * gpu_hours / published).epsilon(1e-3));
}
