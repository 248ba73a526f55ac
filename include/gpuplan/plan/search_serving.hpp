// gpuplan/plan/search_serving.hpp: the best GPU type and replica layout for a serving deployment,
// by exhaustive search.
//
// GPU type x replica layout (TP with, for a mixture of experts, each EP dividing it and
// data-parallel attention) x PP x weight precision, each at the largest concurrency per replica
// that meets the SLO (best_under_slo, models/serving.hpp), ranked by cost per million output
// tokens or by output tokens per second per GPU (docs/models/search.md). The training search is
// plan/search_training.hpp; plan/search.hpp includes both.
// Heavy to compile (the serving, memory and cost models): not in the umbrella
// <gpuplan/gpuplan.hpp>, include it by name.
#pragma once

#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/plan/candidates.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/search_ranking.hpp>
#include <gpuplan/plan/serving_fit.hpp>
#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/inplace_vector.hpp>

#include <array>
#include <cstdint>
#include <limits>

namespace gpuplan {

/// What a serving search ranks by.
enum class serving_objective : unsigned char {
  /// money per million output tokens (the whole GPU-time charged to them), lowest first; GPU
  /// types without a price are left out of this ranking (serving_search_report::unpriced)
  cost_per_million_tokens,
  tokens_per_gpu,           ///< output tokens per second per GPU, highest first
};
inline constexpr enumerator<serving_objective> serving_objective_names[] = {
    {serving_objective::cost_per_million_tokens, "cost_per_million_tokens"},
    {serving_objective::tokens_per_gpu, "tokens_per_gpu"},
};
constexpr const auto& enumerators(serving_objective) { return serving_objective_names; }

namespace search_defaults {
inline constexpr int serving_tp[] = {1, 2, 4, 8};
/// A mixture of experts on a node whose NVLink domain is wider than 8 GPUs (GB200 and GB300
/// NVL72): replicas of powers of two up to 64 GPUs and the rack's whole 72, so that expert
/// parallelism spans the NVLink domain as rack-scale deployments run it (LMSYS, "Deploying
/// DeepSeek on GB200 NVL72 with PD and Large Scale EP", 2025-06-16: DeepSeek-V3 decode over 48
/// GPUs of one NVL72). Degrees above a node's GPUs are invalid configurations.
inline constexpr int wide_serving_tp[] = {1, 2, 4, 8, 16, 32, 64, 72};
inline constexpr int serving_pp[] = {1};
inline constexpr precision serving_weights[] = {precision::bf16, precision::fp8};
inline constexpr int serving_ep[] = {1};
/// Expert parallelism of a mixture of experts inside the replica's tensor-parallel group
/// (serving_plan::layout): powers of two up to 64 and 72 (an NVL72's domain); a degree that does
/// not divide a tp is not paired with it, one that does not divide the experts is invalid.
inline constexpr int moe_serving_ep[] = {1, 2, 4, 8, 16, 32, 64, 72};
/// Tensor-parallel attention only (a dense model; or speculative decoding, which data-parallel
/// attention does not run).
inline constexpr bool serving_dp_attention[] = {false};
/// A mixture of experts: tensor-parallel attention (with each ep) and data-parallel attention.
inline constexpr bool moe_serving_dp_attention[] = {false, true};
}  // namespace search_defaults

/// One replica's layout in a serving search: tp GPUs with tensor-parallel attention and the
/// experts over ep groups of them, or with data-parallel attention (ep = tp).
struct serving_replica {
  int tp = 1;
  int ep = 1;
  bool dp_attention = false;
};

/// A serving search: one replica's plan (model, request mix, engine, assumptions) and the
/// dimensions searched. Each configuration runs at the largest concurrency that meets the SLO.
struct serving_search_space {
  /// node, layout, weight dtype and dp_attention are replaced per configuration;
  /// two_batch_overlap holds on the data-parallel-attention ones, assumptions.moe_all_to_all on
  /// the tensor-parallel-attention ones with ep > 1.
  serving_plan base{};
  serving_slo slo{};
  serving_objective objective = serving_objective::cost_per_million_tokens;
  run_cost_inputs cost{.book = catalog::default_prices};
  array_view<money_rate> price_per_gpu_hour{};  ///< per GPU type, replacing the book
  array_view<node_spec> nodes{};
  /// GPUs per pipeline stage of a replica: the tensor-parallel group, or under data-parallel
  /// attention the attention ranks.
  array_view<int> tp = search_defaults::serving_tp;
  array_view<int> pp = search_defaults::serving_pp;
  /// Weight precisions; fp8 weights run W8A8 (fp8 GEMMs) where the GPU has fp8 tensor cores,
  /// narrower integer weights run weight-only (dequantised into 16-bit GEMMs).
  array_view<precision> weights = search_defaults::serving_weights;
  /// Expert-parallel degrees of the tensor-parallel-attention replicas, each paired with the
  /// tp values it divides (vLLM --enable-expert-parallel at ep = tp; TensorRT-LLM's
  /// moe_expert_parallel_size below it). Data-parallel-attention replicas have ep = tp.
  array_view<int> ep = search_defaults::serving_ep;
  /// Attention modes: false, tensor-parallel; true, data-parallel (serving_plan::dp_attention).
  /// With both, data-parallel attention starts at tp 2 (tp 1 is the same one-GPU replica).
  array_view<bool> dp_attention = search_defaults::serving_dp_attention;
  /// Leave a tp above a node's GPUs out of that node's walk (not visited) instead of counting
  /// it invalid: use_model_defaults sets it with the wide tp list, whose replicas of 16 to 72
  /// GPUs only the NVL72 of a search over H200 and GB200 holds.
  bool replicas_within_node = false;

  /// Sets tp, ep and dp_attention to the defaults for base.model on `nodes` (set them first):
  /// a mixture of experts searches ep search_defaults::moe_serving_ep, both attention modes
  /// (tensor-parallel only with speculative decoding) and, on a node whose NVLink domain is
  /// wider than 8 GPUs, tp wide_serving_tp; a dense model tp 1, 2, 4, 8 and ep 1.
  constexpr void use_model_defaults() {
    const bool moe = base.model.is_moe();
    bool wide = false;
    for (const node_spec& n : nodes) wide = wide || candidate_bounds::for_node(n).nvlink_domain > 8;
    tp = moe && wide ? array_view<int>(search_defaults::wide_serving_tp)
                     : search_defaults::serving_tp;
    replicas_within_node = moe && wide;
    ep = moe ? array_view<int>(search_defaults::moe_serving_ep) : search_defaults::serving_ep;
    dp_attention = moe && !base.speculation.on()
                       ? array_view<bool>(search_defaults::moe_serving_dp_attention)
                       : search_defaults::serving_dp_attention;
  }

  /// Calls f(serving_replica) for each replica layout in index order until it returns false:
  /// for each tp up to `widest`, tensor-parallel attention with each ep that divides it, then
  /// data-parallel attention (ep = tp; from tp 2 when tensor-parallel attention is searched too).
  template <class F>
  constexpr void each_replica(F&& f, int widest = std::numeric_limits<int>::max()) const {
    bool tensor = false, data = false;
    for (bool d : dp_attention) (d ? data : tensor) = true;
    for (int t : tp) {
      if (t > widest) continue;
      if (tensor)
        for (int e : ep)
          if (e >= 1 && t % e == 0 && !f(serving_replica{.tp = t, .ep = e})) return;
      if (data && (t > 1 || !tensor) && !f(serving_replica{.tp = t, .ep = t, .dp_attention = true}))
        return;
    }
  }
  /// The widest tp walked on GPU type `node`: its GPUs with replicas_within_node, else any.
  [[nodiscard]] constexpr int widest_replica(std::size_t node) const {
    return replicas_within_node ? nodes[node].gpus : std::numeric_limits<int>::max();
  }
  /// The replica layouts each_replica lists up to `widest` GPUs.
  [[nodiscard]] constexpr std::uint64_t replicas(int widest = std::numeric_limits<int>::max()) const {
    std::uint64_t n = 0;
    each_replica([&n](const serving_replica&) { return ++n, true; }, widest);
    return n;
  }
  /// The k-th replica layout of each_replica (k < replicas()).
  [[nodiscard]] constexpr serving_replica replica(std::uint64_t k) const {
    serving_replica r{};
    each_replica([&](const serving_replica& x) { return r = x, k-- != 0; });
    return r;
  }
  /// Whether base.assumptions.moe_all_to_all changes any configuration: a tensor-parallel-
  /// attention replica with ep > 1 of a mixture of experts (data-parallel attention always
  /// dispatches by all-to-all).
  [[nodiscard]] constexpr bool moe_all_to_all_applies() const {
    bool any = false;
    each_replica([&any](const serving_replica& x) { return !(any = !x.dp_attention && x.ep > 1); });
    return any && base.model.is_moe();
  }

  [[nodiscard]] constexpr std::uint64_t size() const {
    std::uint64_t n = 0;
    for (std::size_t ni = 0; ni < nodes.size(); ++ni) n += replicas(widest_replica(ni));
    return n * pp.size() * weights.size();
  }

  /// Throws gpuplan::invalid_input naming the first field out of range.
  constexpr void validate() const {
    detail::check_input(!nodes.empty() && !tp.empty() && !pp.empty() && !weights.empty() &&
                            !ep.empty() && !dp_attention.empty(),
                        "serving_search_space: nodes, tp, pp, weights, ep and dp_attention must "
                        "not be empty");
    detail::check_input(nodes.size() <= static_cast<std::size_t>(max_search_gpu_types),
                        "serving_search_space.nodes: at most max_search_gpu_types GPU types",
                        static_cast<double>(nodes.size()));
    for (const node_spec& n : nodes) n.validate();
    for (array_view<int> degrees : {tp, pp, ep})
      for (int d : degrees)
        detail::check_input(d >= 1 && d <= (1 << 24),
                            "serving_search_space.tp, pp and ep entries must be 1 to 2^24", d);
    detail::check_input(price_per_gpu_hour.empty() || price_per_gpu_hour.size() == nodes.size(),
                        "serving_search_space.price_per_gpu_hour must be empty or one per GPU "
                        "type");
    for (money_rate r : price_per_gpu_hour)
      detail::check_input(detail::finite_nonnegative(r.value),
                          "serving_search_space.price_per_gpu_hour entries must be finite and "
                          "not negative (0: the book's)",
                          r.value);
  }
};

/// One serving configuration at its best concurrency under the SLO.
struct serving_search_result {
  std::uint64_t index = 0;
  int node = 0;
  parallel_layout layout{};  ///< tp, pp and ep of one replica (dp 1)
  /// Data-parallel attention (serving_plan::dp_attention): layout.tp attention ranks, ep = tp.
  bool dp_attention = false;
  /// The MoE layers dispatch and combine tokens by all-to-all: every data-parallel-attention
  /// replica, and a tensor-parallel one with ep > 1 when the base plan's
  /// assumptions.moe_all_to_all is set (else the experts' outputs are summed by the all-reduce).
  bool moe_all_to_all = false;
  precision weights = precision::bf16;
  precision compute = precision::bf16;
  serving_point point{};
  money_rate price{};                  ///< per GPU-hour; 0 when the GPU type has none (priced false)
  bool priced = true;                  ///< the GPU type has a price; else the costs below are NaN
  /// USD per million output tokens, the whole GPU-time charged to the output tokens (what the
  /// ranking reads; kept as it was for the JSON contract key cost_per_million_tokens).
  double cost_per_million_tokens = 0;
  double tokens_per_s_per_gpu = 0;
  /// The share of the replica's GPU-time that prefills prompts: requests per second per replica
  /// x each request's prefill time (prefill_time of its prompt on the replica, mean over the
  /// mix), at most 1. The rest decodes. Splits the price between input and output tokens.
  double prefill_fraction = 0;
  /// USD per million input (prompt) tokens: the prefill share of the GPU-time over the input
  /// tokens served; and per million output tokens, the decode share over the output tokens. How
  /// providers price: input and output tokens separately (NaN when not priced).
  double cost_per_million_input_tokens = 0;
  double cost_per_million_output_tokens = 0;

  [[nodiscard]] constexpr double value(serving_objective o) const {
    return o == serving_objective::cost_per_million_tokens ? cost_per_million_tokens
                                                           : -tokens_per_s_per_gpu;
  }
};

inline constexpr int max_serving_results = 32;

/// A serving configuration the search skipped before timing it, and why.
struct serving_invalid_configuration {
  std::uint64_t index = 0;
  int node = 0;
  parallel_layout layout{};
  bool dp_attention = false;
  precision weights = precision::bf16;
  input_problem why{};  ///< the check that failed: its message and the values it names
};

/// The invalid configurations a serving report lists (the first ones; the count has them all).
inline constexpr int max_serving_invalid_listed = 64;

struct serving_search_report {
  bounded_ranking<serving_search_result, max_serving_results> ranking{};  ///< best first
  std::uint64_t visited = 0, invalid = 0, over_memory = 0, missed_slo = 0;
  /// The GPU types (indices into the space's nodes) that have no price (none given, none in the
  /// book for the term and provider): never an error; their configurations are left out of a
  /// cost ranking (counted in unpriced_skipped) and ranked, with their costs NaN, by throughput.
  inplace_vector<int, static_cast<std::size_t>(max_search_gpu_types)> unpriced{};
  std::uint64_t unpriced_skipped = 0;
  /// The first max_serving_invalid_listed invalid configurations, in the order visited.
  inplace_vector<serving_invalid_configuration, max_serving_invalid_listed> invalid_list{};
  [[nodiscard]] constexpr array_view<serving_search_result> view() const {
    return ranking.view();
  }
  [[nodiscard]] constexpr array_view<serving_invalid_configuration> invalid_view() const {
    return {invalid_list.data(), invalid_list.size()};
  }
};

namespace detail {
/// The share of a replica's GPU-time spent prefilling at point x: its request rate per replica
/// x the mean prefill time of a prompt of the mix on the replica (prefill_time, the model's own
/// estimate of the prompt's forward pass), at most 1. Decode takes the rest.
constexpr double prefill_fraction(const serving_plan& p, const serving_point& x) {
  const double replicas = p.layout.dp > 0 ? p.layout.dp : 1;
  const double rate = x.requests_per_s.value / replicas;
  double per_request = 0.0;
  for (int i = 0; i < p.mix.size(); ++i) {
    const request_class& k = p.mix.at(i);
    const int prompt = k.input_tokens >= 1 ? k.input_tokens : 1;
    per_request += k.share * prefill_time(p, prompt).value;
  }
  per_request /= p.mix.total_share();
  // data-parallel attention: a prompt is prefilled on one of the replica's tp ranks (its own
  // sequences), so it holds 1/tp of the replica for that time
  if (p.dp_attention) per_request /= p.layout.tp;
  const double f = rate * per_request;
  return f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
}

/// Why serving configuration p (tp x pp on one node, weights w) cannot be timed; empty if it can.
/// A replica spans one node over whatever fabric joins its GPUs (PCIe included, as `gpuplan
/// serve` times it): tensor parallelism is not held to an NVLink domain here.
constexpr input_problem serving_configuration_problem(const serving_plan& p, precision w,
                                                      bool w8a8) {
  const parallel_layout& l = p.layout;
  if (1LL * l.tp * l.pp > p.node.gpus)
    return {"tp x pp exceeds the GPUs of one node (a replica spans one node)", 1LL * l.tp * l.pp,
            p.node.gpus, 2};
  if (p.dp_attention && l.pp != 1)
    return {"data-parallel attention runs one pipeline stage (pp 1)", l.pp, 0, 1};
  // the layout each GPU holds (memory_layout: data-parallel attention's heads whole and the
  // experts over all; expert parallelism inside tp holds the plain tp layout's weights)
  if (const input_problem e = memory_layout(p).check(p.model)) return e;
  if (const input_problem e = p.layout_problem()) return e;
  if (w == precision::fp8 && !w8a8 && p.node.gpu.peak.tensor(p.compute_dtype).value <= 0.0)
    return {"fp8 weights: the GPU has no fp8 tensor cores and no tensor rate for the 16-bit "
            "compute the weights would be dequantised into"};
  return {};
}

/// Weights w run W8A8 on the node's GPU: fp8 weights where it has fp8 tensor cores.
constexpr bool runs_w8a8(const node_spec& n, precision w) {
  return w == precision::fp8 && n.gpu.peak.tensor(precision::fp8).value > 0.0;
}

/// The replica plan of serving space s on GPU type `node` with replica layout r, pp stages and
/// weights w.
constexpr serving_plan serving_configuration(const serving_search_space& s, std::size_t node,
                                             const serving_replica& r, int pp, precision w) {
  serving_plan p = s.base;
  p.node = s.nodes[node];
  p.layout = {.dp = 1, .tp = r.tp, .pp = pp, .ep = r.ep};
  p.dp_attention = r.dp_attention;
  p.two_batch_overlap = s.base.two_batch_overlap && r.dp_attention;
  p.config.weight_dtype = w;
  p.compute_dtype = runs_w8a8(p.node, w) ? precision::fp8 : s.base.compute_dtype;
  return p;
}

/// A timed serving configuration's result: its point under the SLO, throughput and costs.
constexpr serving_search_result serving_result(const serving_plan& p, std::uint64_t i, int node,
                                               const slo_result& best, money_rate price) {
  serving_search_result x;
  x.index = i;
  x.node = node;
  x.layout = p.layout;
  x.dp_attention = p.dp_attention;
  x.moe_all_to_all = p.model.is_moe() && (p.dp_attention || (serving_ep(p) > 1 &&
                                                             p.assumptions.moe_all_to_all));
  x.weights = p.config.weight_dtype;
  x.compute = p.compute_dtype;
  x.point = best.best;
  x.price = price;
  x.priced = x.price.value > 0.0;
  const double per_gpu = x.point.output_tokens_per_s_per_gpu.value;
  x.tokens_per_s_per_gpu = per_gpu;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  x.cost_per_million_tokens =
      !x.priced ? nan : per_gpu > 0.0 ? x.price.value / per_gpu * 1e6 : detail::infinity();
  x.prefill_fraction = detail::prefill_fraction(p, x.point);
  // per GPU: input tokens/s = output tokens/s x mean input / mean output (one request each)
  const double in_per_gpu = per_gpu * p.mix.mean_input() / p.mix.mean_output();
  x.cost_per_million_input_tokens =
      !x.priced ? nan
      : in_per_gpu > 0.0 ? x.price.value * x.prefill_fraction / in_per_gpu * 1e6
                         : detail::infinity();
  x.cost_per_million_output_tokens =
      !x.priced ? nan
      : per_gpu > 0.0 ? x.price.value * (1.0 - x.prefill_fraction) / per_gpu * 1e6
                      : detail::infinity();
  return x;
}
}  // namespace detail

namespace detail {
/// Configuration i of a serving search (plan p on GPU type `node` at `price`) into report r: an
/// invalid one with its reason, over memory, missing the SLO, unpriced under a cost ranking, or
/// timed and offered to the ranking.
constexpr void visit_serving_configuration(const serving_search_space& s, std::uint64_t i, int node,
                                           const serving_plan& p, money_rate price, int top_k,
                                           serving_search_report& r) {
  ++r.visited;
  const precision w = p.config.weight_dtype;
  if (const input_problem why = serving_configuration_problem(p, w, runs_w8a8(p.node, w))) {
    (void)r.invalid_list.try_push_back(  // the first ones; the count has them all
        {.index = i, .node = node, .layout = p.layout, .dp_attention = p.dp_attention,
         .weights = w, .why = why});
    ++r.invalid;
    return;
  }
  // the deployment's memory verdict (plan/serving_fit.hpp serving_fit, what `gpuplan serve`
  // reports), and a KV cache that holds a sequence of the mix
  if (!serving_fit(p).fits() || kv_capacity(p).sequences < 1) {
    ++r.over_memory;
    return;
  }
  const slo_result best = best_under_slo(p, s.slo);
  if (!best.found) {
    ++r.missed_slo;
    return;
  }
  const serving_search_result x = serving_result(p, i, node, best, price);
  if (!x.priced && s.objective == serving_objective::cost_per_million_tokens) {
    ++r.unpriced_skipped;
    return;
  }
  r.ranking.offer(x, top_k, [&s](const serving_search_result& a, const serving_search_result& b) {
    const double va = a.value(s.objective), vb = b.value(s.objective);
    return va < vb || (va == vb && a.index < b.index);
  });
}
}  // namespace detail

/// Every configuration of the serving space, the best `top_k` (<= 32) kept in order (objective,
/// then index).
constexpr serving_search_report search_serving(const serving_search_space& s, int top_k = 10) {
  detail::check_input(top_k >= 1 && top_k <= max_serving_results,
                      "search_serving: top_k must be 1 to 32", top_k);
  s.validate();
  serving_search_report r;
  // one price per GPU type, resolved before the walk. A type without one is noted (unpriced),
  // not an error: one unpriced GPU aborted a search over four.
  std::array<money_rate, max_search_gpu_types> prices{};
  run_cost_inputs lookup = s.cost;
  lookup.require_price = false;
  for (std::size_t ni = 0; ni < s.nodes.size(); ++ni) {
    if (!s.price_per_gpu_hour.empty() && s.price_per_gpu_hour[ni].value > 0.0) {
      prices[ni] = s.price_per_gpu_hour[ni];
    } else if (const cloud_price* cp = book_price(lookup, s.nodes[ni].gpu)) {
      prices[ni] = cp->price(s.cost.term);
    }
    if (!(prices[ni].value > 0.0)) (void)r.unpriced.try_push_back(static_cast<int>(ni));
  }
  // configuration i: GPU type, then replica layout, pp and weights (the fastest), in order
  std::uint64_t i = 0;
  for (std::size_t ni = 0; ni < s.nodes.size(); ++ni)
    s.each_replica([&](const serving_replica& x) {
      for (const int pp : s.pp)
        for (const precision w : s.weights)
          detail::visit_serving_configuration(s, i++, static_cast<int>(ni),
                                              detail::serving_configuration(s, ni, x, pp, w),
                                              prices[ni], top_k, r);
      return true;
    }, s.widest_replica(ni));
  return r;
}

}  // namespace gpuplan
