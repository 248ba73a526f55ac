// gpuplan/plan/serving_search_report.hpp: the report `gpuplan search serve` prints, in one call.
//
//   serving_search_space s;             // base plan, SLO, nodes (plan/search_serving.hpp)
//   ...
//   const serving_search_summary r = report_serving_search(s, 5);
//   // r.found.view(): the configurations best first, each at its largest concurrency under
//   // the SLO; size_for_rate(x, rate) sizes one for a request rate
//
// It reads only the serving search and its models; plan/search_report.hpp adds the training
// search's report. io/search_json.hpp writes it as `gpuplan search serve --json`. Heavy to
// compile (the serving model): include it by name (the umbrella <gpuplan/gpuplan.hpp> leaves it
// out).
#pragma once

#include <gpuplan/plan/search_serving.hpp>

#include <cmath>
#include <cstddef>
#include <limits>

namespace gpuplan {

/// A configuration sized for a request rate: replicas = ceil(rate / the requests per second one
/// replica serves at its point under the SLO), so each replica runs at most at that point.
struct serving_sizing {
  double rate_per_s = 0;     ///< the rate sized for (requests/s)
  long long replicas = 0;
  long long gpus = 0;        ///< replicas x GPUs per replica
  double cost_per_hour_usd = 0;  ///< gpus x the price per GPU-hour; NaN when the GPU has no price
};

/// `x` sized for `rate_per_s` requests per second (> 0). Throws invalid_input on a bad rate or a
/// configuration that serves nothing.
inline serving_sizing size_for_rate(const serving_search_result& x, double rate_per_s) {
  detail::check_input(rate_per_s > 0.0 && rate_per_s < 1e12,
                      "size_for_rate: the rate must be positive and below 1e12 requests/s",
                      rate_per_s);
  const double per_replica = x.point.requests_per_s.value;
  detail::check_input(per_replica > 0.0,
                      "size_for_rate: the configuration serves no requests at its point",
                      per_replica);
  serving_sizing z;
  z.rate_per_s = rate_per_s;
  z.replicas = static_cast<long long>(std::ceil(rate_per_s / per_replica - 1e-9));
  if (z.replicas < 1) z.replicas = 1;
  z.gpus = z.replicas * x.layout.tp * x.layout.pp;
  z.cost_per_hour_usd = x.priced ? static_cast<double>(z.gpus) * x.price.in(units::usd_per_h)
                            : std::numeric_limits<double>::quiet_NaN();
  return z;
}

/// A serving search's answer: the space searched and its ranking (best first).
struct serving_search_summary {
  /// The space searched. Its lists are spans: what they view must outlive the summary.
  serving_search_space space{};
  serving_search_report found{};
  double seconds = 0;  ///< wall time of the search
  /// The request rate (requests/s) each result is sized for (serving_sizing); 0: not sized.
  double rate_per_s = 0;

  /// The node (GPU type) a result runs on.
  [[nodiscard]] const node_spec& node_of(const serving_search_result& x) const {
    return space.nodes[static_cast<std::size_t>(x.node)];
  }
};

/// search_serving over space s, its best `top_k` (1-32) kept and timed: the report `gpuplan
/// search serve` prints.
inline serving_search_summary report_serving_search(const serving_search_space& s, int top_k = 5) {
  serving_search_summary r;
  r.space = s;
  const double t0 = detail::wall_seconds();
  r.found = search_serving(s, top_k);
  r.seconds = detail::wall_seconds() - t0;
  return r;
}

}  // namespace gpuplan
