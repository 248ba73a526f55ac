// serving_deployment: the report `gpuplan serve` prints, from C++ by one call.
//
// Llama 3.1 70B on one DGX H100 (TP 8) under vLLM's defaults, 2000-token prompts and 500-token
// answers, 64 requests in flight; the best concurrency under a 2 s time-to-first-token and 50 ms
// per-output-token target; an 8-point throughput-latency curve; a month priced at $2.50 per
// GPU-hour. plan_serving_deployment (plan/serving_deployment.hpp) gives the memory verdict, the
// operating point, the SLO's answer, the curve and the cost in one report; `gpuplan serve
// --json` prints the same report (io/serving_deployment_json.hpp).
#include <gpuplan/catalog.hpp>
#include <gpuplan/plan/serving_deployment.hpp>

#include <cstdio>

int main() {
  using namespace gpuplan;
  namespace cat = gpuplan::catalog;

  run_cost_inputs prices;
  prices.price_per_gpu_hour = 2.5 * units::usd / units::h;
  const serving_deployment_inputs in{
      .plan = {.model = cat::llama31_70b,
               .node = cat::dgx_h100,
               .layout = {.tp = 8},
               .mix = request_mix::fixed(2000, 500),
               .concurrency = 64},
      .slo = {.ttft = 2.0 * units::s, .tpot = 0.05 * units::s},
      .curve_points = 8,
      .time_only_if_fits = true,
      .pricing = prices,
  };
  const serving_deployment_report r = plan_serving_deployment(in);

  std::printf("memory: %.1f GiB per GPU of %.1f GiB: %s\n",
              r.memory.per_gpu.total().in(units::GiB), r.memory.capacity.in(units::GiB),
              r.memory.fits() ? "fits" : "does NOT fit");
  if (!r.timed) return 1;
  std::printf("at %.0f in flight: TTFT %.0f ms, TPOT %.1f ms, %.0f output tokens/s\n",
              r.point.concurrency, r.point.ttft.in(units::ms), r.point.tpot.in(units::ms),
              r.point.output_tokens_per_s.in(units::tokens_per_s));
  if (r.best && r.best->found)
    std::printf("best under the SLO: %.0f in flight, %.0f output tokens/s\n",
                r.best->best.concurrency,
                r.best->best.output_tokens_per_s.in(units::tokens_per_s));
  else
    std::printf("no concurrency meets the SLO\n");
  for (int i = 0; i < r.curve->size(); ++i)
    std::printf("  curve: %5.1f in flight, TPOT %5.1f ms, %6.0f tokens/s\n",
                r.curve->at(i).concurrency, r.curve->at(i).tpot.in(units::ms),
                r.curve->at(i).output_tokens_per_s.in(units::tokens_per_s));
  std::printf("a month: $%.0f, $%.2f per million output tokens\n",
              r.cost->month.cost.in(units::usd),
              r.cost->cost_per_token().in(units::usd / units::Mtoken));
  return 0;
}
