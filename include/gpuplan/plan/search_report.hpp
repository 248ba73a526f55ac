// gpuplan/plan/search_report.hpp: the report `gpuplan search` prints, in one call.
//
//   training_search_space s;            // model, config, tokens, nodes, gpus (plan/search.hpp)
//   ...
//   const training_search_report r = report_search(s, search_objective::time, 5);
//   // r.front (the Pareto front, fastest first), r.top (best by the objective), r.margin (why
//   // r.top[0] wins over r.top[r.runner_up]), r.counts (what was pruned where)
//
// report_search walks the whole space on the calling thread (search_training); a caller that
// walks it on several threads merges its collectors and composes the same report with
// search_report_of (the CLI does: tools/gpuplan/cmd_search.cpp). Either way the front and the top
// list are evaluated in full (evaluate_configuration: layout, memory, step breakdown, reliability,
// money, energy), and the winner's margin is taken over the first runner-up of another shape.
// report_serving_search (plan/serving_search_report.hpp, which this header includes) does the same
// for `gpuplan search serve`. io/search_json.hpp writes both as `gpuplan search --json` and
// `gpuplan search serve --json`.
//
// Like plan/search.hpp (both searches) it is heavy to compile: include it by name (the umbrella
// <gpuplan/gpuplan.hpp> leaves it out).
#pragma once

#include <gpuplan/plan/search_training.hpp>
#include <gpuplan/plan/serving_search_report.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace gpuplan {

/// A training search's answer, composed for reading: the collector's points evaluated in full.
struct training_search_report {
  /// The space searched. Its lists are spans: what they view must outlive the report.
  training_search_space space{};
  search_objective objective = search_objective::time;
  search_counts counts{};  ///< what was walked, pruned and timed
  /// Every configuration was walked (false: the search was cancelled; the best found so far).
  bool complete = true;
  /// The front kept only its max_search_front fastest points.
  bool front_truncated = false;
  std::vector<search_evaluation> front;  ///< Pareto front of reserved time against cost, fastest first
  std::vector<search_evaluation> top;    ///< best by the objective, best first
  /// Why top[0] wins over top[runner_up] (when the list has two entries or more).
  std::optional<search_margin> margin;
  std::size_t runner_up = 0;  ///< position in `top` of the runner-up (0: none)
  double seconds = 0;         ///< wall time of the walk (the caller's clock)
  int threads = 1;            ///< threads that walked it

  [[nodiscard]] double configurations_per_s() const {
    return seconds > 0 ? static_cast<double>(counts.visited) / seconds : 0.0;
  }
  /// The node (GPU type) an evaluated configuration runs on.
  [[nodiscard]] const node_spec& node_of(const search_evaluation& e) const {
    return space.nodes[static_cast<std::size_t>(e.config.node)];
  }
};

/// The runner-up a ranking's winner is compared with: the first entry of another shape (GPU
/// type, GPU count, TP, PP, CP, EP: not the same layout with another ZeRO stage or micro-batch),
/// else the second entry; 0 when the ranking has fewer than two.
inline std::size_t runner_up_of(std::span<const search_evaluation> top) {
  for (std::size_t k = 1; k < top.size(); ++k) {
    const parallel_layout &a = top[0].config.layout, &b = top[k].config.layout;
    if (top[k].config.node != top[0].config.node || a.gpus() != b.gpus() || a.tp != b.tp ||
        a.pp != b.pp || a.cp != b.cp || a.ep != b.ep)
      return k;
  }
  return top.size() >= 2 ? 1 : 0;
}

/// Composes the report from a collector (one search, or shards merged) of space s: the front
/// and the top list of objective o evaluated in full, and the winner's margin.
inline training_search_report search_report_of(const training_search_space& s,
                                               const training_search_collector& found,
                                               search_objective o) {
  training_search_report r;
  r.space = s;
  r.objective = o;
  r.counts = found.counts;
  r.complete = found.counts.visited == s.size();
  r.front_truncated = found.front_truncated;
  auto evaluate_all = [&s](std::span<const search_point> points) {
    std::vector<search_evaluation> out;
    out.reserve(points.size());
    for (const search_point& p : points) out.push_back(evaluate_configuration(s, p.index));
    return out;
  };
  r.front = evaluate_all(found.pareto());
  r.top = evaluate_all(found.best(o));
  r.runner_up = runner_up_of(r.top);
  if (r.runner_up > 0) r.margin = why_it_wins(r.top[0], r.top[r.runner_up], o);
  return r;
}

/// The whole space searched on this thread, its top `top_k` (1-64) by objective o and its front,
/// composed into the report `gpuplan search` prints (timed: seconds, threads = 1).
inline training_search_report report_search(const training_search_space& s,
                                            search_objective o = search_objective::time,
                                            int top_k = 5) {
  const double t0 = detail::wall_seconds();
  const training_search_collector found = search_training(s, top_k);
  const double t1 = detail::wall_seconds();
  training_search_report r = search_report_of(s, found, o);
  r.seconds = t1 - t0;
  r.threads = 1;
  return r;
}

}  // namespace gpuplan
