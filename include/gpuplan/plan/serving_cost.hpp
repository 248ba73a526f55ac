// gpuplan/plan/serving_cost.hpp: the price, energy and carbon of a serving deployment, per million
// tokens and per month.
//
// The serving model (models/serving.hpp) gives the deployment's operating point: output tokens per
// second per GPU at its concurrency or arrival rate. The deployment holds all its GPUs (replicas x
// tp x pp) every hour of the month, serving at that point; price_run (plan/cost.hpp) prices that
// month of GPU-time (GPU-hours x price per GPU-hour, the node power model or the given all-in power
// x PUE, x grid intensity), and the per-token figures are the month's divided by the month's
// output tokens. Nothing here adds a factor of its own:
//
//   cost per token     = price per GPU-hour / output tokens/s per GPU
//   energy per token   = power per GPU (all-in IT) x PUE / output tokens/s per GPU
//   tokens per joule   = 1 / energy per token
//   cost per month     = GPUs x 730 h x price per GPU-hour (the fleet is held every hour)
#pragma once

#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/energy.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/plan/cost.hpp>

namespace gpuplan {

/// A serving deployment priced at its operating point, over one month of the fleet.
struct serving_cost_report {
  serving_point point{};       ///< the serving model's operating point (serve(plan))
  int replicas = 0;            ///< layout.dp
  int gpus = 0;                ///< replicas x tp x pp: the GPUs held
  duration period{};           ///< the period priced: one month (730 h)
  token_count output_tokens{};  ///< output tokens served over the period at the operating point
  request_count requests{};    ///< requests completed over the period
  run_cost_report month{};     ///< price_run of gpus x period: cost, power, energy, carbon

  /// Cost per output token (zero when no price was found: month.priced false).
  [[nodiscard]] constexpr money_per_token cost_per_token() const {
    return month.cost / output_tokens;
  }
  /// Facility energy per output token.
  [[nodiscard]] constexpr quantity<dims::energy / dims::tokens> energy_per_token() const {
    return month.facility_energy() / output_tokens;
  }
  /// Output tokens per joule of facility energy.
  [[nodiscard]] constexpr token_efficiency tokens_per_joule() const {
    return output_tokens / month.facility_energy();
  }
  /// Operational carbon per output token.
  [[nodiscard]] constexpr quantity<dims::carbon / dims::tokens> carbon_per_token() const {
    return month.carbon.operational / output_tokens;
  }
  /// Cost per request (zero when unpriced).
  [[nodiscard]] constexpr quantity<dims::money / dims::requests> cost_per_request() const {
    return month.cost / requests;
  }
};

/// Prices the deployment `p` describes at its operating point `point` (serve(p), for a caller
/// that already holds it: the serving-deployment report) for one month. The plan's node
/// replaces in.node for the power model; in.utilization is the GPUs' kernel duty while serving
/// (default 1: the model cards' convention of counting a GPU in use at its full power).
constexpr serving_cost_report price_serving(const serving_plan& p, const serving_point& point,
                                            run_cost_inputs in) {
  serving_cost_report r;
  r.point = point;
  detail::check_input(r.point.output_tokens_per_s.value > 0.0,
                      "serving: the operating point serves no tokens");
  r.replicas = p.layout.dp;
  r.gpus = p.gpus_per_replica() * p.layout.dp;
  r.period = 1.0 * units::month;
  r.output_tokens = r.point.output_tokens_per_s * r.period;
  r.requests = r.point.requests_per_s * r.period;
  in.node = p.node;
  r.month = price_run(run_usage::of(p.gpu(), r.gpus, r.period), in);
  return r;
}

/// price_serving at the operating point serve(p).
constexpr serving_cost_report price_serving(const serving_plan& p, run_cost_inputs in) {
  return price_serving(p, serve(p), in);
}

}  // namespace gpuplan
