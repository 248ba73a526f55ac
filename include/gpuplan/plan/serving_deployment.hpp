// gpuplan/plan/serving_deployment.hpp: the serving-deployment report `gpuplan serve` prints, by
// one call.
//
// A serving deployment is a serving plan (model, node, layout, engine, request mix and load;
// models/serving.hpp). plan_serving_deployment composes what the library says about it:
//   - the memory verdict: the fit's rule for serving (plan/serving_fit.hpp serving_fit: one
//     sequence of the longest request in the KV cache);
//   - the operating point at the plan's load (serve): TTFT, TPOT, throughput, the KV cache's
//     admission limit, and the decode batch where the linear layers turn compute-bound
//     (ridge_batch);
//   - with an SLO: the highest-throughput concurrency that meets it (best_under_slo);
//   - with curve points: the throughput-latency curve (throughput_latency_curve);
//   - with prices: the deployment priced at its operating point for a month
//     (plan/serving_cost.hpp price_serving);
//   - the estimate notes (models/estimates.hpp) of the plan's GPU.
// Its JSON is io/serving_deployment_json.hpp (`gpuplan serve --json`, docs/json-schema.md).
//
// Not pulled in by the umbrella <gpuplan/gpuplan.hpp> (a composition of the plan headers, for the
// command-line tool and programs that want its reports; it would only add to every user's compile
// time): include it by name.
#pragma once

#include <gpuplan/models/estimates.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/serving_fit.hpp>
#include <gpuplan/plan/serving_cost.hpp>

#include <cmath>
#include <optional>

namespace gpuplan {

/// The mix's mean prompt in whole tokens, rounded (`gpuplan serve`'s "input_len").
inline int rounded_mean_input(const request_mix& m) {
  return static_cast<int>(std::lround(m.mean_input()));
}
/// The mix's mean output in whole tokens, rounded (`gpuplan serve`'s "output_len").
inline int rounded_mean_output(const request_mix& m) {
  return static_cast<int>(std::lround(m.mean_output()));
}

/// What plan_serving_deployment reads.
struct serving_deployment_inputs {
  serving_plan plan{};  ///< with its load: concurrency, or rate
  /// Latency targets; a zero target is no target, and with both zero there is no SLO search.
  serving_slo slo{};
  /// Points of the throughput-latency curve (0: none; at most max_curve_points).
  int curve_points = 0;
  /// true: a deployment that does not fit in memory is not timed (its operating point needs a
  /// KV cache that holds a request); the report has the verdict alone (`--require-fit`).
  bool time_only_if_fits = false;
  /// The deployment priced at its operating point for a month (the plan's node replaces
  /// pricing.node).
  std::optional<run_cost_inputs> pricing{};
};

/// The serving-deployment report (`gpuplan serve`).
struct serving_deployment_report {
  serving_plan plan{};
  fit_report memory{};  ///< serving_fit(plan)
  /// false: the deployment does not fit and time_only_if_fits was set, so the fields below
  /// (point to estimates) are not filled.
  bool timed = false;
  serving_point point{};
  /// The decode batch where the linear layers turn compute-bound (ridge_batch; 0: none).
  int ridge_batch = 0;
  serving_slo slo{};
  std::optional<slo_result> best{};  ///< with an SLO: the best concurrency that meets it
  std::optional<serving_curve> curve{};  ///< when curve points were asked for
  std::optional<serving_cost_report> cost{};
  estimate_notes estimates{};

  /// Whether a latency target was given.
  [[nodiscard]] constexpr bool wants_slo() const {
    return slo.ttft.value > 0.0 || slo.tpot.value > 0.0;
  }
  /// Whether prompts are chunked into the decode steps: chunked prefill under continuous
  /// batching (static batching prefills the batch whole).
  [[nodiscard]] constexpr bool chunked_prefill() const {
    return plan.chunked_prefill && plan.batching == batching_mode::continuous;
  }
  /// Whether the experts' tokens travel by all-to-all: asked for, and experts split (ep > 1).
  [[nodiscard]] constexpr bool moe_all_to_all() const {
    return plan.assumptions.moe_all_to_all && plan.layout.ep > 1;
  }
};

/// The serving-deployment report of `in` (see the top of this header). Throws invalid_input
/// naming the field on bad input (a curve of more than max_curve_points, a plan the serving
/// model refuses).
inline serving_deployment_report plan_serving_deployment(const serving_deployment_inputs& in) {
  detail::check_input(in.curve_points >= 0 && in.curve_points <= max_curve_points,
                      "serving deployment: curve_points must be 0 to max_curve_points",
                      in.curve_points, max_curve_points);
  serving_deployment_report r;
  r.plan = in.plan;
  r.slo = in.slo;
  r.memory = serving_fit(in.plan);
  if (in.time_only_if_fits && !r.memory.fits()) return r;
  r.timed = true;
  r.point = serve(in.plan);
  if (r.wants_slo()) r.best = best_under_slo(in.plan, in.slo);
  if (in.curve_points > 0) r.curve = throughput_latency_curve(in.plan, in.curve_points);
  r.ridge_batch = ridge_batch(in.plan);
  if (in.pricing) r.cost = price_serving(in.plan, r.point, *in.pricing);  // the point above
  r.estimates = serving_estimates(in.plan);
  return r;
}

}  // namespace gpuplan
