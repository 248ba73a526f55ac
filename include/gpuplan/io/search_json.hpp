// gpuplan/io/search_json.hpp: the search reports (plan/search_report.hpp) as JSON, the
// `gpuplan search --json` and `gpuplan search serve --json` contracts (docs/json-schema.md).
// Times are seconds (`_s`), memory GiB (`_gib`), energy kWh, money US dollars; keys may be added,
// never renamed: scripts read them. "seconds" and "configurations_per_s" time the walk (they
// differ run to run); every other figure is the same for the same space whatever the threads.
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <gpuplan/io/training_run_json.hpp>
#include <gpuplan/plan/search_report.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <type_traits>

namespace gpuplan::io {

namespace detail {

template <class T>
nlohmann::json list_json(array_view<T> v) {
  nlohmann::json out = nlohmann::json::array();
  for (const T& x : v) {
    if constexpr (std::is_enum_v<T>)
      out.push_back(std::string(gpuplan::to_string(x)));
    else
      out.push_back(x);
  }
  return out;
}

/// "space": the values of each searched dimension and the configurations they make.
inline nlohmann::json search_space_json(const training_search_space& s) {
  nlohmann::json gpu_names = nlohmann::json::array();
  for (const node_spec& n : s.nodes) gpu_names.push_back(std::string(n.gpu.name.view()));
  return {{"gpu", gpu_names},
          {"gpus", list_json(s.gpus)},
          {"tp", list_json(s.tp)},
          {"pp", list_json(s.pp)},
          {"cp", list_json(s.cp)},
          {"ep", list_json(s.ep)},
          {"virtual_stages", list_json(s.virtual_stages)},
          {"micro_batch", list_json(s.micro_batch)},
          {"zero", list_json(s.zero)},
          {"recompute", list_json(s.recompute)},
          {"sequence_parallel", list_json(s.sequence_parallel)},
          {"precision", list_json(s.precision_regimes)},
          {"chunked_loss", list_json(s.chunked_loss)},
          {"size", s.size()}};
}

/// "reliability": the failure and checkpoint model every run is timed under.
inline nlohmann::json search_reliability_json(const reliability_assumptions& a) {
  return {{"enabled", a.enabled},
          {"failures_per_node_day", a.failures_per_node_day},
          {"restart_s", a.restart.in(units::s)},
          {"checkpoint_interval_s", a.checkpoint_interval.in(units::s)},
          {"checkpoint_write_s", a.checkpoint_write.in(units::s)}};
}

}  // namespace detail

/// One evaluated configuration of a training search (an entry of "front" and "top").
inline nlohmann::json to_json(const training_search_space& s, const search_evaluation& e) {
  const parallel_layout& l = e.config.layout;
  const node_spec& node = s.nodes[static_cast<std::size_t>(e.config.node)];
  return {{"index", e.config.index},
          {"gpu", std::string(node.gpu.name.view())},
          {"node", std::string(node.name.view())},
          {"gpus", l.gpus()},
          {"nodes", e.step.nodes},
          {"layout", training_layout_json(l)},
          {"micro_batch", e.config.micro_batch},
          {"recompute", std::string(gpuplan::to_string(e.config.recompute))},
          {"precision", std::string(gpuplan::to_string(e.config.regime))},
          {"chunked_loss", e.config.chunked_loss},
          {"micro_batches", e.step.micro_batches},
          {"memory_per_gpu_gib", e.memory_per_gpu.in(units::GiB)},
          {"step_time_s", e.step.total.in(units::s)},
          {"time_to_train_s", e.time_to_train.in(units::s)},
          {"reserved_time_s", e.reserved_time().in(units::s)},
          {"ettr", e.reliability.ettr},
          {"tokens_per_s", e.step.tokens_per_s.in(units::tokens_per_s)},
          {"mfu", e.step.mfu},
          {"bottleneck", std::string(gpuplan::to_string(e.step.bottleneck))},
          {"breakdown", breakdown_json(e.step)},
          {"gpu_hours", e.cost.usage.gpu_time.in(units::h)},
          {"price_per_gpu_hour", e.cost.price.in(units::usd_per_h)},
          {"cost_usd", e.cost.cost.in(units::usd)},
          {"energy_kwh", e.run_energy().in(units::kWh)}};
}

/// `gpuplan search --json`: the run, the space, the counts, the front and the top list (its
/// first entry with "why": the runner-up it wins over and what bounds that one).
inline nlohmann::json to_json(const training_search_report& r) {
  const training_search_space& s = r.space;
  const search_counts& n = r.counts;
  nlohmann::json j{
      {"model", std::string(s.model.name.view())},
      {"tokens", s.tokens.in(units::token)},
      {"seq", s.config.seq},
      {"global_batch", s.config.global_batch},
      {"objective", std::string(gpuplan::to_string(r.objective))},
      {"framework", std::string(gpuplan::to_string(s.config.framework))},
      {"reliability", detail::search_reliability_json(s.reliability)},
      {"space", detail::search_space_json(s)},
      {"configurations_evaluated", n.visited},
      {"pruned", {{"invalid", n.invalid}, {"over_memory", n.over_memory},
                  {"over_limits", n.over_limits}, {"no_progress", n.no_progress}}},
      {"timed", n.timed},
      {"seconds", r.seconds},
      {"configurations_per_s", r.configurations_per_s()},
      {"threads", r.threads},
      {"complete", r.complete},
      {"front_truncated", r.front_truncated},
  };
  nlohmann::json front = nlohmann::json::array();
  for (const search_evaluation& e : r.front) front.push_back(to_json(s, e));
  j["front"] = front;
  nlohmann::json top = nlohmann::json::array();
  for (const search_evaluation& e : r.top) top.push_back(to_json(s, e));
  if (r.margin && !top.empty())
    top[0]["why"] = {
        {"runner_up", r.margin->runner_up},
        {"runner_up_bottleneck", std::string(gpuplan::to_string(r.margin->runner_up_bottleneck))},
        {"runner_up_ratio", r.margin->ratio}};
  j["top"] = top;
  return j;
}

/// One result of a serving search (an entry of "results"). "cost_per_million_tokens" (contract)
/// is USD per million output tokens with the whole GPU-time charged to them; the split by
/// prefill and decode is "cost_per_million_input_tokens_usd" and
/// "cost_per_million_output_tokens_usd",
/// "prefill_fraction" the share of GPU-time prefilling. Costs are null without a price. "ep" is
/// the replica's expert-parallel degree, "dp_attention" whether its attention is data-parallel
/// (ep = tp), "moe_all_to_all" whether its MoE layers dispatch tokens by all-to-all.
/// With a rate (> 0), "sizing": {"rate_req_per_s", "replicas", "gpus", "cost_per_hour_usd"}.
inline nlohmann::json to_json(const serving_search_space& s, const serving_search_result& x,
                              double rate_per_s = 0) {
  const node_spec& n = s.nodes[static_cast<std::size_t>(x.node)];
  nlohmann::json j = {{"index", x.index},
          {"gpu", std::string(n.gpu.name.view())},
          {"tp", x.layout.tp},
          {"pp", x.layout.pp},
          {"ep", x.layout.ep},
          {"dp_attention", x.dp_attention},
          {"moe_all_to_all", x.moe_all_to_all},
          {"gpus_per_replica", x.layout.tp * x.layout.pp},
          {"weight_dtype", std::string(gpuplan::to_string(x.weights))},
          {"compute_dtype", std::string(gpuplan::to_string(x.compute))},
          {"concurrency", x.point.concurrency},
          {"ttft_s", x.point.ttft.in(units::s)},
          {"tpot_s", x.point.tpot.in(units::s)},
          {"output_tokens_per_s_per_gpu", x.tokens_per_s_per_gpu},
          {"price_per_gpu_hour", x.priced ? nlohmann::json(x.price.in(units::usd_per_h))
                                          : nlohmann::json(nullptr)},
          {"priced", x.priced},
          {"cost_per_million_tokens", finite_or_null(x.cost_per_million_tokens)},
          {"prefill_fraction", x.prefill_fraction},
          {"cost_per_million_input_tokens_usd", finite_or_null(x.cost_per_million_input_tokens)},
          {"cost_per_million_output_tokens_usd", finite_or_null(x.cost_per_million_output_tokens)}};
  if (rate_per_s > 0) {
    const serving_sizing z = size_for_rate(x, rate_per_s);
    j["sizing"] = {{"rate_req_per_s", z.rate_per_s},
                   {"replicas", z.replicas},
                   {"gpus", z.gpus},
                   {"cost_per_hour_usd", finite_or_null(z.cost_per_hour_usd)}};
  }
  return j;
}

/// An input_problem as the library's exceptions word it: "<message> (got <values>)".
inline std::string problem_text(const input_problem& e) {
  std::string t = e.message ? e.message : "";
  if (e.values >= 1) t += " (got " + std::to_string(e.value);
  if (e.values >= 2) t += ", " + std::to_string(e.other);
  if (e.values >= 1) t += ")";
  return t;
}

/// One invalid configuration of a serving search (an entry of "invalid_configurations").
inline nlohmann::json to_json(const serving_search_space& s,
                              const serving_invalid_configuration& x) {
  const node_spec& n = s.nodes[static_cast<std::size_t>(x.node)];
  return {{"index", x.index},
          {"gpu", std::string(n.gpu.name.view())},
          {"tp", x.layout.tp},
          {"pp", x.layout.pp},
          {"ep", x.layout.ep},
          {"dp_attention", x.dp_attention},
          {"weight_dtype", std::string(gpuplan::to_string(x.weights))},
          {"reason", problem_text(x.why)}};
}

/// `gpuplan search serve --json`: the counts and the ranking, best first; the invalid
/// configurations (the first max_serving_invalid_listed) with the reason each was skipped.
inline nlohmann::json to_json(const serving_search_summary& r) {
  nlohmann::json results = nlohmann::json::array();
  for (const serving_search_result& x : r.found.view())
    results.push_back(to_json(r.space, x, r.rate_per_s));
  nlohmann::json unpriced = nlohmann::json::array();
  for (int ni : r.found.unpriced)
    unpriced.push_back(std::string(r.space.nodes[static_cast<std::size_t>(ni)].gpu.name.view()));
  nlohmann::json invalid = nlohmann::json::array();
  for (const serving_invalid_configuration& x : r.found.invalid_view())
    invalid.push_back(to_json(r.space, x));
  return {{"model", std::string(r.space.base.model.name.view())},
          {"objective", std::string(gpuplan::to_string(r.space.objective))},
          {"configurations_evaluated", r.found.visited},
          {"pruned", {{"invalid", r.found.invalid}, {"over_memory", r.found.over_memory},
                      {"missed_slo", r.found.missed_slo}}},
          {"invalid_configurations", invalid},
          {"seconds", r.seconds},
          {"unpriced_gpus", unpriced},
          {"unpriced_skipped", r.found.unpriced_skipped},
          {"rate_req_per_s", r.rate_per_s > 0 ? nlohmann::json(r.rate_per_s) : nlohmann::json(nullptr)},
          {"results", results}};
}

}  // namespace gpuplan::io
