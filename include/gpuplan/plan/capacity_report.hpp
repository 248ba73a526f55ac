// gpuplan/plan/capacity_report.hpp: the capacity report `gpuplan capacity` prints, as one library
// call: plan_capacity_report(question) sizes the fleet for a demand at a wait SLO
// (plan/capacity.hpp plan_capacity) and ranks its alternatives: other replica types given by
// their capacities, the same serving plan on other GPUs and on the MIG slices of its GPU (each
// replica from the serving model at the same latency SLO, priced from the default price book),
// and an owned base with cloud burst.
//
// A replica is described either by its capacity (capacity_request::replica) or by a serving plan
// (capacity_serving, from serving_replica(): the plan's memory verdict, its best operating point
// under a TTFT/TPOT SLO and the book's price for its GPU).
//
// Not in the umbrella header <gpuplan/gpuplan.hpp>: the alternatives are run-time lists
// (std::vector, std::string) and each runs the serving model, which the core does not pay for.
#pragma once

#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/plan/capacity.hpp>
#include <gpuplan/plan/serving_fit.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

// ---- the replica a serving plan describes ---------------------------------------------------------

/// A serving plan as a capacity replica: its memory verdict, its best operating point under the
/// latency SLO, and the default price book's cheapest on-demand entry for its GPU.
struct capacity_serving {
  serving_plan plan{};
  serving_slo slo{};
  /// The server the plan runs on when one was named (--node): the same GPU on another node
  /// keeps it when the plan is compared across GPUs; other GPUs go in single_gpu_node.
  std::optional<node_spec> node;
  fit_report memory{};        ///< plan/serving_fit.hpp serving_fit
  slo_result best{};          ///< best_under_slo; best.found false: no concurrency meets the SLO
  const cloud_price* price = nullptr;  ///< catalog::default_prices' entry; null: none for the GPU

  [[nodiscard]] constexpr int gpus_per_replica() const { return plan.gpus_per_replica(); }
};

/// The serving plan's verdict, best point under `slo` and book price. With `stop_if_unfit`, a
/// plan that does not fit comes back with its verdict alone (no operating point is computed).
inline capacity_serving serving_replica(const serving_plan& plan, const serving_slo& slo,
                                        const std::optional<node_spec>& node = std::nullopt,
                                        bool stop_if_unfit = false) {
  capacity_serving r{.plan = plan, .slo = slo, .node = node, .memory = serving_fit(plan),
                     .best = {}, .price = nullptr};
  if (stop_if_unfit && !r.memory.fits()) return r;
  r.best = best_under_slo(plan, slo);
  if (r.best.found)
    r.price = cheapest_price(catalog::default_prices, plan.node.gpu, price_term::on_demand);
  return r;
}

// ---- the question and the report ------------------------------------------------------------------

/// Owned base + cloud burst: the owned servers (their costs and site) and the cloud's price.
struct capacity_hybrid_input {
  onprem_fleet fleet{};              ///< `gpus` ignored: sized to the base
  money_rate cloud_per_gpu_hour{};   ///< what a rented GPU-hour costs
};

struct capacity_question {
  /// Demand, wait SLO, growth, today's fleet and the replica. With `serving`, the replica (and,
  /// unless price_given, its price) comes from the serving plan's best point.
  capacity_request request{};
  std::optional<capacity_serving> serving;
  /// With `serving`: request.replica.service_cv is the caller's, not the serving model's spread.
  bool service_cv_given = false;
  /// With `serving`: request.replica_price is the caller's (0 included), not the book's.
  bool price_given = false;
  /// Other replica types (by their capacities) to rank for the same demand; present (even
  /// empty) ranks the plan's own replica among them, as "this replica".
  std::optional<std::vector<capacity_option>> compare;
  /// With `serving`: the same plan on these GPUs (tp x pp of each), priced from the book.
  std::vector<gpu_spec> compare_gpus;
  /// With `serving` at tp x pp = 1: the same plan on every MIG slice of its GPU, the GPU's price
  /// shared by its slices.
  bool compare_mig = false;
  /// The replicas are MIG slices of this profile: physical GPUs are replicas / slices per GPU.
  std::optional<mig_profile> mig;
  /// Rank an owned base for the baseline plus cloud burst (needs a 24-hour demand profile).
  std::optional<capacity_hybrid_input> hybrid;
  capacity_assumptions assumptions{};
};

struct capacity_report {
  capacity_request request{};          ///< as planned: the serving model's replica and price
  capacity_plan plan{};
  std::optional<capacity_serving> serving;
  bool price_from_book = false;        ///< serving and not price_given: price is `serving->price`
  std::optional<mig_profile> mig;
  long long physical_gpus = 0;         ///< with `mig`: ceil(replicas / slices per GPU)
  /// The alternatives ranked (empty when none was asked): by cost when all are priced, else by
  /// GPUs, then peak utilisation nearest the healthy band's middle.
  std::vector<option_result> options;
  /// Alternatives that could not be ranked, and why ("H100 SXM x1: no concurrency meets the SLO").
  std::vector<std::string> option_notes;
  std::optional<hybrid_capacity> hybrid;
  money_rate cloud_per_gpu_hour{};     ///< with `hybrid`
};

// ---- the alternatives, one kind at a time ---------------------------------------------------------

namespace detail {

/// The replica-hour price of `gpus` GPUs of `gpu` shared by `sharing` replicas: the default
/// book's cheapest on-demand $/GPU-hour; 0 (unpriced) when the book has none.
inline money_rate book_replica_price(const gpu_spec& gpu, int gpus, int sharing) {
  const cloud_price* c = cheapest_price(catalog::default_prices, gpu, price_term::on_demand);
  return c == nullptr ? money_rate{} : c->on_demand * (1.0 * gpus) / (1.0 * sharing);
}

/// The replica of plan `p` at its best point under `slo`; none when the plan does not fit
/// (plan/serving_fit.hpp serving_fit, as serve --require-fit judges it) or no concurrency meets
/// the SLO.
inline std::optional<replica_capacity> serving_option(const serving_plan& p,
                                                      const serving_slo& slo) {
  if (!serving_fit(p).fits()) return std::nullopt;
  const slo_result best = best_under_slo(p, slo);
  if (!best.found) return std::nullopt;
  return replica_from_serving(p, best.best);
}

inline name_string option_name(const std::string& name) {
  return name_string::from(name.substr(0, name_string::capacity));
}

/// The serving plan on each of `gpus`: its own node for its own GPU, else a server of
/// max(8, tp x pp) of the other GPU.
inline void add_gpu_options(const capacity_serving& s, const std::vector<gpu_spec>& gpus,
                            capacity_report& r, std::vector<capacity_option>& out) {
  const int per = s.gpus_per_replica();
  for (const gpu_spec& g : gpus) {
    serving_plan p = s.plan;
    if (s.node && s.node->gpu.name == g.name) p.node = *s.node;
    else p.node = single_gpu_node(g, per > 8 ? per : 8);
    const std::string name = std::string(g.name.view()) + " x" + std::to_string(per);
    if (const std::optional<replica_capacity> rep = serving_option(p, s.slo))
      out.push_back({.name = option_name(name), .replica = *rep, .replicas_per_gpu = 1,
                     .replica_price = book_replica_price(g, per, 1)});
    else
      r.option_notes.push_back(name + ": no concurrency meets the SLO (or the model does not fit)");
  }
}

/// The serving plan on every MIG slice of its GPU (one replica per slice).
inline void add_mig_options(const capacity_serving& s, capacity_report& r,
                            std::vector<capacity_option>& out) {
  const gpu_spec& g = s.plan.node.gpu;
  check_input(s.gpus_per_replica() == 1,
              "capacity_question.compare_mig needs tp 1 and pp 1 (a MIG slice is one device)",
              s.gpus_per_replica());
  check_input(!catalog::mig_profiles(g).empty(),
              "capacity_question.compare_mig: the serving plan's GPU has no MIG profiles");
  for (const mig_profile& m : catalog::mig_profiles(g)) {
    const std::string name = std::string(g.name.view()) + " MIG " + std::string(m.name.view());
    serving_plan p = s.plan;
    p.node = single_gpu_node(mig_slice(g, m), 1);
    if (!serving_fit(p).fits()) {
      r.option_notes.push_back(name + ": the model does not fit");
      continue;
    }
    if (const std::optional<replica_capacity> rep = serving_option(p, s.slo))
      out.push_back({.name = option_name(name), .replica = *rep,
                     .replicas_per_gpu = m.max_instances,
                     .replica_price = book_replica_price(g, 1, m.max_instances)});
    else
      r.option_notes.push_back(name + ": no concurrency meets the SLO");
  }
}

/// The replica and its price from the serving plan's best point, unless the caller set them.
inline capacity_request replica_of(const capacity_question& q) {
  capacity_request r = q.request;
  if (!q.serving) return r;
  check_input(q.serving->best.found,
              "capacity_question.serving: no concurrency meets the serving plan's latency SLO");
  const double cv = r.replica.service_cv;
  r.replica = replica_from_serving(q.serving->plan, q.serving->best.best);
  if (q.service_cv_given) r.replica.service_cv = cv;
  if (!q.price_given)
    r.replica_price = q.serving->price == nullptr
                          ? money_rate{}
                          : q.serving->price->on_demand * static_cast<double>(r.replica.gpus);
  return r;
}

/// Every alternative asked for, ranked, with the plan's own replica first among them.
inline void rank_alternatives(const capacity_question& q, capacity_report& r) {
  std::vector<capacity_option> options;
  const capacity_option own{.name = name_string::from("this replica"),
                            .replica = r.request.replica,
                            .replica_price = r.request.replica_price};
  if (q.compare) {
    options.push_back(own);
    options.insert(options.end(), q.compare->begin(), q.compare->end());
  }
  std::vector<capacity_option> implied;
  if (q.serving && !q.compare_gpus.empty())
    add_gpu_options(*q.serving, q.compare_gpus, r, implied);
  if (q.serving && q.compare_mig) add_mig_options(*q.serving, r, implied);
  check_input(q.serving || (q.compare_gpus.empty() && !q.compare_mig),
              "capacity_question: compare_gpus and compare_mig need a serving plan");
  if (!implied.empty() && options.empty()) options.push_back(own);
  options.insert(options.end(), implied.begin(), implied.end());
  r.options.resize(options.size());
  if (!options.empty()) rank_options(r.request, options, r.options, q.assumptions);
}

/// The owned base + cloud burst, ranked against this replica rented for the peak all day at
/// its price (the cloud $/GPU-hour x GPUs when it has none).
inline void add_hybrid(const capacity_hybrid_input& h, const capacity_assumptions& a,
                       capacity_report& r) {
  const capacity_plan& p = r.plan;
  const capacity_request& q = r.request;
  r.cloud_per_gpu_hour = h.cloud_per_gpu_hour;
  r.hybrid = plan_hybrid_capacity(p, q, h.fleet, h.cloud_per_gpu_hour);
  const money_rate rented = q.replica_price.value > 0
                                ? q.replica_price
                                : h.cloud_per_gpu_hour * (1.0 * q.replica.gpus);
  if (r.options.empty())
    r.options.push_back({.name = name_string::from("this replica"),
                         .replicas = p.replicas,
                         .gpus = p.gpus,
                         .peak_utilization = p.peak_utilization,
                         .mean_utilization = p.mean_utilization,
                         .peak_band = p.peak_band,
                         .wait_at_percentile = p.at_peak.wait_percentile(q.slo.percentile),
                         .cost = p.replicas * rented,
                         .priced = true});
  r.options.push_back(r.hybrid->option);
  sort_options(r.options, a);
}

}  // namespace detail

// ---- the report -----------------------------------------------------------------------------------

/// The capacity report: the plan (plan_capacity) for the question's replica, or for the serving
/// plan's replica at its best point under the latency SLO; the physical GPUs of MIG replicas;
/// every alternative asked for, ranked, with notes on those that could not be; and the owned
/// base + cloud burst. Throws invalid_input naming the field on a question it cannot answer (a
/// serving plan with no point under its SLO, MIG options of a multi-GPU replica or of a GPU
/// without MIG, a hybrid without a 24-hour profile).
inline capacity_report plan_capacity_report(const capacity_question& q) {
  capacity_report r;
  r.request = detail::replica_of(q);
  r.serving = q.serving;
  r.price_from_book = q.serving && !q.price_given;
  r.plan = plan_capacity(r.request, q.assumptions);
  if (q.mig) {
    detail::check_input(q.mig->max_instances >= 1,
                        "capacity_question.mig.max_instances must be at least 1 (instances of the "
                        "profile on one GPU)",
                        q.mig->max_instances);
    r.mig = q.mig;
    r.physical_gpus = (r.plan.replicas + q.mig->max_instances - 1) / q.mig->max_instances;
  }
  detail::rank_alternatives(q, r);
  if (q.hybrid) {
    detail::check_input(r.plan.has_hours,
                        "capacity_question.hybrid needs a 24-hour demand profile "
                        "(demand_profile::from_hourly)");
    detail::add_hybrid(*q.hybrid, q.assumptions, r);
  }
  return r;
}

}  // namespace gpuplan
