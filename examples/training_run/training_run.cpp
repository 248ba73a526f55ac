// training_run: the report `gpuplan train` prints, from C++ by one call.
//
// Llama 3.1 70B continued pre-training on 32 DGX H100 nodes (256 GPUs): TP 8 within the node,
// 4 pipeline stages with 2 interleaved chunks, 8-way data parallel with the distributed
// optimizer, 8k sequences, 512 per step, on 200B tokens; the fewest GPUs that train them within
// 30 days; the run priced at $2.50 per GPU-hour. plan_training_run (plan/training_run.hpp) gives
// the step, the memory verdict, the time to train with failures and checkpoints, the deadline's
// answer and the cost in one report; `gpuplan train --json` prints the same report
// (io/training_run_json.hpp).
#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/training_run.hpp>

#include <cstdio>

int main() {
  using namespace gpuplan;
  namespace cat = gpuplan::catalog;

  run_cost_inputs prices;
  prices.price_per_gpu_hour = 2.5 * units::usd / units::h;
  const training_run_inputs in{
      .plan = {.model = cat::llama31_70b,
               .node = cat::dgx_h100,
               .layout = {.dp = 8, .tp = 8, .pp = 4, .zero = 1, .sequence_parallel = true,
                          .virtual_stages = 2},
               .config = {.recompute = recompute_mode::selective, .micro_batch = 1, .seq = 8192,
                          .global_batch = 512}},
      .tokens = 200.0 * units::Btoken,
      .reliability = {},  // failures and checkpoints at their defaults (Llama 3's failure rate)
      .scaling = std::nullopt,
      .deadline = training_deadline{.within = 30.0 * units::d},
      .pricing = prices,
  };
  const training_run_report r = plan_training_run(in);

  std::printf("%d GPUs on %d nodes: step %.2f s, MFU %.1f%%\n", r.step.gpus, r.step.nodes,
              r.step.total.in(units::s), 100.0 * r.step.mfu);
  std::printf("memory: %.1f GiB per GPU of %.1f GiB: %s\n",
              r.memory.per_gpu.total().in(units::GiB), r.memory.capacity.in(units::GiB),
              r.memory.fits() ? "fits" : "does NOT fit");
  std::printf("200B tokens: %.1f days steady, %.1f days with failures and checkpoints "
              "(ETTR %.3f)\n",
              r.budget->steady_wall().in(units::d), r.budget->run.reserved_wall.in(units::d),
              r.budget->run.reliability.ettr);
  std::printf("cost: $%.0f for %.0f GPU-hours\n", r.cost->cost.in(units::usd),
              r.cost->usage.gpu_time.in(units::h));
  const training_gpus& n = r.deadline->answer;
  std::printf("within 30 days: %d GPUs (%s), %.1f days\n", n.gpus, n.met ? "met" : "not met",
              n.wall_time.in(units::d));
  return r.fits() ? 0 : 1;
}
