// gpuplan/plan/search_training.hpp: the best layout and hardware for a training job, by
// exhaustive search.
//
// Every combination of GPU type x GPU count x TP x PP x CP x EP x virtual stages x micro-batch x
// ZeRO stage x recomputation x precision regime x chunked loss x sequence parallelism (DP is what
// the GPU count leaves) for a model, a global batch and a token budget, under one training
// framework: Megatron-LM (every dimension) or Hugging Face transformers on PyTorch eager (data
// parallelism with ZeRO / FSDP only: use_framework() sets its space). Each combination has an
// index in [0, size());
// a search walks a range of indices, so the space splits into shards searched independently
// (threads) whose collectors merge into the same answer whatever the split.
//
// Per index, cheapest test first (docs/models/search.md):
//   1. structure: dp whole, tp inside the NVLink domain, no duplicate spellings (sequence
//      parallelism without tp, ZeRO without data-parallel ranks), the layout's own checks
//      against the model (parallel_layout::check), the batch divisible by micro-batch x dp,
//      the sequence by cp;
//   2. memory: the memory model (models/framework_memory.hpp) against the GPU's plannable memory
//      (a chunked loss whose materialised twin fits, both searched, is that twin's run: invalid);
//   3. time: the step-time model (models/training_step.hpp), the time to train the budget, and
//      the wall time the run reserves with failures and checkpoints (models/reliability.hpp, as
//      `gpuplan cost` prices a run: larger jobs fail more often);
//   4. money and energy: price_run (plan/cost.hpp) over the run's reserved GPU-hours;
//   5. the deadline and the budget, when given (against the reserved time and its cost).
// Survivors go to a bounded collector: the top k of each objective (time, cost, energy) and the
// Pareto front of time against cost. Nothing is allocated per configuration; results are
// ordered by a total order (objective, then index), so they do not depend on the split.
// The serving search is plan/search_serving.hpp; plan/search.hpp includes both.
// Heavy to compile (the step-time, memory and cost models): not in the umbrella
// <gpuplan/gpuplan.hpp>, include it by name.
#pragma once

#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/models/framework_memory.hpp>
#include <gpuplan/models/training_step.hpp>
#include <gpuplan/plan/candidates.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/search_ranking.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <gpuplan/plan/training_verdict.hpp>
#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/inplace_vector.hpp>
#include <gpuplan/specs/precision_regime.hpp>

#include <array>
#include <cstdint>
#include <limits>

namespace gpuplan {

/// What a search ranks by.
enum class search_objective : unsigned char {
  time,          ///< wall-clock time to train the token budget
  cost,          ///< money for the run (GPU-hours x price per GPU-hour)
  energy_used,   ///< facility energy of the run (IT power x time x PUE); spelled "energy"
};
inline constexpr enumerator<search_objective> search_objective_names[] = {
    {search_objective::time, "time"},
    {search_objective::cost, "cost"},
    {search_objective::energy_used, "energy"},
};
constexpr const auto& enumerators(search_objective) { return search_objective_names; }
inline constexpr int search_objective_count = static_cast<int>(std::size(search_objective_names));

/// The values a dimension takes when the caller gives none.
namespace search_defaults {
/// Powers of two up to one 8-GPU NVLink domain (candidate_bounds::nvlink_domain).
inline constexpr int tp[] = {1, 2, 4, 8};
/// Powers of two up to 64 for a node whose NVLink domain is wider than 8 GPUs (GB200 and GB300
/// NVL72: 72 GPUs on NVLink 5); degrees beyond a node's domain are pruned
/// (tp_within_nvlink_domain).
inline constexpr int wide_tp[] = {1, 2, 4, 8, 16, 32, 64};
/// Powers of two up to 64 stages (Narayanan et al. 2021 Table 1 goes to 64 for 1T parameters).
inline constexpr int pp[] = {1, 2, 4, 8, 16, 32, 64};
inline constexpr int cp[] = {1};
inline constexpr int ep[] = {1};
/// Expert parallelism for a mixture of experts: powers of two up to 64 (DeepSeek-V3 trained
/// with EP 64 over 8 nodes, arXiv:2412.19437 Sec. 3.2); degrees that do not divide the experts
/// or the data-parallel ranks are invalid configurations.
inline constexpr int moe_ep[] = {1, 2, 4, 8, 16, 32, 64};
/// Interleaved chunks: 1 (1F1B) and 2, 4 (Narayanan et al. 2021 Sec. 2.2.2).
inline constexpr int virtual_stages[] = {1, 2, 4};
inline constexpr int micro_batch[] = {1, 2, 4};
inline constexpr int zero[] = {0, 1, 2, 3};
/// torchtitan shards data parallelism with FSDP2 only (fully_shard: ZeRO-3).
inline constexpr int torchtitan_zero[] = {3};
inline constexpr recompute_mode recompute[] = {recompute_mode::none, recompute_mode::selective,
                                               recompute_mode::full};
inline constexpr bool sequence_parallel[] = {false, true};
inline constexpr precision_regime precision_regimes[] = {precision_regime::master};
inline constexpr bool chunked_loss[] = {false};
/// The dimensions a framework without model parallelism fixes (transformers).
inline constexpr int one[] = {1};
inline constexpr bool off[] = {false};
/// transformers: gradient_checkpointing_enable() or not (selective recomputation is Megatron's).
inline constexpr recompute_mode transformers_recompute[] = {recompute_mode::none,
                                                            recompute_mode::full};
/// transformers: the three regimes its memory and step-time models cover.
inline constexpr precision_regime transformers_precision_regimes[] = {
    precision_regime::master, precision_regime::amp, precision_regime::pure};
/// transformers: the materialised cross entropy and Liger's fused linear cross entropy.
inline constexpr bool transformers_chunked_loss[] = {false, true};
}  // namespace search_defaults

/// The tensor-, pipeline- and expert-parallel degrees a search derives from its GPU counts
/// (training_search_space::use_divisor_degrees); the caller keeps them alive while it searches.
struct search_degrees {
  inplace_vector<int, max_divisor_degrees> tp{}, pp{}, ep{};
};

/// A training search: the workload, the run's fixed settings, and the values of each searched
/// dimension. The spans must outlive the search.
struct training_search_space {
  transformer_spec model{};
  /// The run's fixed settings: dtype, seq, global_batch (required: layouts are compared at the
  /// same batch, which the convergence depends on), optimizer, flash attention, framework
  /// (megatron: every dimension; transformers: data parallelism only, see use_framework).
  /// micro_batch, recompute, amp, master_weights and chunked_loss are replaced by the searched
  /// values (grad_dtype is kept: the dtype unless given).
  training_config config{};
  token_count tokens{};  ///< the token budget (required)
  step_assumptions step{};
  memory_assumptions memory{};
  /// Failures and checkpoints (models/reliability.hpp): each run is timed, priced and held to
  /// the deadline over its expected reserved wall time. `.enabled = false`: the steady state.
  reliability_assumptions reliability{};
  inter_node_fabric fabric = inter_node_fabric::infiniband;
  double bisection_fraction = 1.0;
  /// Price book, term, provider, site, power model (plan/cost.hpp); `node` is replaced by each
  /// GPU type's node. A GPU type without a price throws (cost.require_price) or is priced 0.
  run_cost_inputs cost{.book = catalog::default_prices};
  /// One price per GPU type (same order as `nodes`), replacing the book where positive.
  array_view<money_rate> price_per_gpu_hour{};
  duration deadline{};  ///< longest time to train; zero: none
  money budget{};       ///< most money for the run; zero: none
  /// Tensor parallelism inside one NVLink domain (candidate_bounds::for_node(node)).
  bool tp_within_nvlink_domain = true;

  array_view<node_spec> nodes{};  ///< the GPU types, each in the node that carries it
  array_view<int> gpus{};         ///< GPU counts (dp = gpus / (tp x pp x cp))
  array_view<int> tp = search_defaults::tp;
  array_view<int> pp = search_defaults::pp;
  array_view<int> cp = search_defaults::cp;
  array_view<int> ep = search_defaults::ep;
  array_view<int> virtual_stages = search_defaults::virtual_stages;
  array_view<int> micro_batch = search_defaults::micro_batch;
  array_view<int> zero = search_defaults::zero;
  array_view<recompute_mode> recompute = search_defaults::recompute;
  array_view<bool> sequence_parallel = search_defaults::sequence_parallel;
  array_view<precision_regime> precision_regimes = search_defaults::precision_regimes;
  /// Liger's fused linear cross entropy (transformers). The step-time model times the loss the
  /// same either way, so with both values listed `true` is kept only where the materialised
  /// loss does not fit (elsewhere it is the same run, counted invalid).
  array_view<bool> chunked_loss = search_defaults::chunked_loss;

  /// Sets config.framework and every searched dimension but the hardware (nodes, gpus), the
  /// micro-batch and the ZeRO stages (but under torchtitan, ZeRO-3 only) to that framework's
  /// space: megatron, torchtitan as megatron, the defaults above
  /// (expert parallelism search_defaults::moe_ep for a mixture of experts, tensor parallelism
  /// search_defaults::wide_tp when a node's NVLink domain is wider than 8 GPUs);
  /// transformers, what Hugging Face transformers runs: data parallelism (DDP, FSDP / DeepSpeed
  /// ZeRO 0-3; TP = PP = CP = EP = 1, no virtual stages or sequence parallelism), recompute
  /// none or full (gradient checkpointing), the master, amp and pure precision regimes, the
  /// materialised or the chunked loss.
  constexpr void use_framework(framework_kind f) {
    config.framework = f;
    const bool hf = f == framework_kind::transformers;
    bool wide = false;
    for (const node_spec& n : nodes) wide = wide || n.gpus > 8;
    tp = hf     ? array_view<int>(search_defaults::one)
         : wide ? array_view<int>(search_defaults::wide_tp)
                : search_defaults::tp;
    pp = hf ? array_view<int>(search_defaults::one) : search_defaults::pp;
    cp = search_defaults::cp;
    ep = !hf && model.is_moe() ? array_view<int>(search_defaults::moe_ep) : search_defaults::ep;
    virtual_stages = hf ? array_view<int>(search_defaults::one) : search_defaults::virtual_stages;
    sequence_parallel = hf ? array_view<bool>(search_defaults::off) : search_defaults::sequence_parallel;
    recompute = hf ? array_view<recompute_mode>(search_defaults::transformers_recompute)
                   : search_defaults::recompute;
    precision_regimes = hf ? array_view<precision_regime>(
                                 search_defaults::transformers_precision_regimes)
                           : search_defaults::precision_regimes;
    chunked_loss = hf ? array_view<bool>(search_defaults::transformers_chunked_loss)
                      : search_defaults::chunked_loss;
    // torchtitan: its only data parallelism is FSDP2, so its ZeRO stage is set too
    if (f == framework_kind::torchtitan) zero = search_defaults::torchtitan_zero;
  }

  /// Under Megatron-LM's space (not transformers'): tensor, pipeline and expert parallelism over
  /// the divisors of the GPU counts (divisor_degrees) instead of powers of two, so that a count
  /// such as 72 (one GB200 or GB300 NVL72 rack) or 144 is searched whole: tensor parallelism up
  /// to the widest NVLink domain of the nodes (72 in an NVL72) dividing the attention heads;
  /// pipeline parallelism up to 64 stages (search_defaults::pp) and the layers; expert
  /// parallelism (a mixture of experts) up to 64 or the widest NVLink domain, dividing the
  /// experts. For powers of two these are the defaults' valid values. Call after
  /// use_framework, with `nodes` and `gpus` set; `d` holds the lists and must outlive the
  /// search.
  constexpr void use_divisor_degrees(search_degrees& d) {
    if (config.framework == framework_kind::transformers) return;
    int domain = 1;
    for (const node_spec& n : nodes) {
      const int w = candidate_bounds::for_node(n).nvlink_domain;
      if (w > domain) domain = w;
    }
    const int widest_pp = search_defaults::pp[std::size(search_defaults::pp) - 1];
    const int widest_ep = search_defaults::moe_ep[std::size(search_defaults::moe_ep) - 1];
    d.tp = divisor_degrees(gpus,
                           tp_within_nvlink_domain ? domain : static_cast<int>(parallel_layout::max_gpus),
                           model.heads);
    d.pp = divisor_degrees(gpus, model.layers < widest_pp ? model.layers : widest_pp);
    tp = d.tp;
    pp = d.pp;
    if (model.is_moe()) {
      d.ep = divisor_degrees(gpus, domain > widest_ep ? domain : widest_ep, model.moe.experts);
      ep = d.ep;
    }
  }

  /// Configurations in the space: the product of the dimensions' sizes (UINT64_MAX when the
  /// product does not fit in 64 bits: validate() then refuses the space).
  [[nodiscard]] constexpr std::uint64_t size() const {
    std::uint64_t n = nodes.size();
    for (std::size_t d : {gpus.size(), tp.size(), pp.size(), cp.size(), ep.size(),
                          virtual_stages.size(), micro_batch.size(), zero.size(),
                          recompute.size(), precision_regimes.size(), chunked_loss.size(),
                          sequence_parallel.size()}) {
      if (d != 0 && n > ~std::uint64_t{0} / d) return ~std::uint64_t{0};
      n *= d;
    }
    return n;
  }

  /// Throws gpuplan::invalid_input naming the first field out of range: the run's settings, the
  /// searched lists, then what the framework runs.
  constexpr void validate() const {
    validate_run();
    validate_dimensions();
    if (config.framework != framework_kind::transformers)  // torchtitan: Megatron's space
      validate_megatron();
    else
      validate_transformers();
    detail::check_input(size() > 0 && size() < (std::uint64_t{1} << 62),
                        "training_search_space: too many configurations");
  }

 private:
  /// The workload, the fixed settings, the limits and the hardware.
  constexpr void validate_run() const {
    model.validate();
    config.validate();
    step.validate();
    memory.validate();
    reliability.validate();
    detail::check_input(config.rampup_start == 0,
                        "training_search_space.config.rampup_start must be 0: the search compares "
                        "layouts at the global batch's steady-state step");
    detail::check_input(config.global_batch >= 1,
                        "training_search_space.config.global_batch must be given: layouts are "
                        "compared at one global batch");
    detail::check_input(detail::finite_positive(tokens.value),
                        "training_search_space.tokens must be positive (the token budget)");
    detail::check_input(config.offload != offload_kind::params,
                        "training_search_space.config.offload = params is not covered by the "
                        "step-time model");
    detail::check_input(detail::finite_nonnegative(deadline.value) &&
                            detail::finite_nonnegative(budget.value),
                        "training_search_space.deadline and budget must not be negative");
    detail::check_input(!nodes.empty() && nodes.size() <= max_search_gpu_types,
                        "training_search_space.nodes must hold 1 to 16 GPU types",
                        static_cast<int>(nodes.size()));
    detail::check_input(price_per_gpu_hour.empty() || price_per_gpu_hour.size() == nodes.size(),
                        "training_search_space.price_per_gpu_hour must be empty or one price "
                        "per GPU type");
    for (const node_spec& n : nodes) n.validate();
  }

  /// Each searched list: not empty, its values in range, the precision regimes the dtype allows.
  constexpr void validate_dimensions() const {
    auto positive = [](array_view<int> v, const char* what) {
      detail::check_input(!v.empty(), what);
      for (int x : v) detail::check_input(x >= 1 && x <= (1 << 24), what, x);
    };
    positive(gpus, "training_search_space.gpus must be a non-empty list of counts in [1, 2^24]");
    positive(tp, "training_search_space.tp must be a non-empty list of degrees in [1, 2^24]");
    positive(pp, "training_search_space.pp must be a non-empty list of degrees in [1, 2^24]");
    positive(cp, "training_search_space.cp must be a non-empty list of degrees in [1, 2^24]");
    positive(ep, "training_search_space.ep must be a non-empty list of degrees in [1, 2^24]");
    positive(virtual_stages,
             "training_search_space.virtual_stages must be a non-empty list in [1, 2^24]");
    positive(micro_batch,
             "training_search_space.micro_batch must be a non-empty list in [1, 2^24]");
    detail::check_input(!zero.empty(), "training_search_space.zero must not be empty");
    for (int z : zero)
      detail::check_input(z >= 0 && z <= 3, "training_search_space.zero stages must be 0-3", z);
    detail::check_input(!recompute.empty() && !sequence_parallel.empty(),
                        "training_search_space.recompute and sequence_parallel must not be empty");
    detail::check_input(!precision_regimes.empty() && !chunked_loss.empty(),
                        "training_search_space.precision_regimes and chunked_loss must not be "
                        "empty");
    const bool full_precision = config.dtype == precision::fp32 || config.dtype == precision::fp64;
    for (precision_regime r : precision_regimes) {
      detail::check_input(r != precision_regime::amp || (config.dtype == precision::bf16 ||
                                                         config.dtype == precision::fp16),
                          "training_search_space.precision_regimes amp needs config.dtype bf16 "
                          "or fp16 (the autocast dtype)");
      detail::check_input(r == precision_regime::master || !full_precision,
                          "training_search_space.precision_regimes must be master alone for "
                          "fp32 training (fp32 weights are their own master copy)");
    }
  }

  /// Megatron-LM: every dimension; amp and the chunked loss are transformers' own.
  constexpr void validate_megatron() const {
    for (precision_regime r : precision_regimes)
      detail::check_input(r != precision_regime::amp,
                          "training_search_space.precision_regimes amp needs framework = "
                          "transformers (Megatron's mixed precision is the master regime)");
    for (bool b : chunked_loss)
      detail::check_input(!b, "training_search_space.chunked_loss needs framework = "
                              "transformers (Megatron's cross entropy is already fused)");
  }

  /// Hugging Face transformers: one model replicated or sharded over data-parallel ranks
  /// (framework_memory.hpp's transformers profile models nothing else).
  constexpr void validate_transformers() const {
    auto only = [](array_view<int> v, const char* what) {
      detail::check_input(v.size() == 1 && v[0] == 1, what);
    };
    only(tp, "training_search_space.tp must be {1} under framework = transformers (data "
             "parallelism only: use_framework sets its space)");
    only(pp, "training_search_space.pp must be {1} under framework = transformers");
    only(cp, "training_search_space.cp must be {1} under framework = transformers");
    only(ep, "training_search_space.ep must be {1} under framework = transformers");
    only(virtual_stages,
         "training_search_space.virtual_stages must be {1} under framework = transformers");
    detail::check_input(sequence_parallel.size() == 1 && !sequence_parallel[0],
                        "training_search_space.sequence_parallel must be {false} under "
                        "framework = transformers");
    for (recompute_mode r : recompute)
      detail::check_input(r != recompute_mode::selective,
                          "training_search_space.recompute selective is Megatron-LM's: under "
                          "framework = transformers recompute is none or full");
    detail::check_input(!model.is_moe(),
                        "training_search_space.model: framework = transformers does not model "
                        "mixture-of-experts layers: use megatron");
    detail::check_input(config.offload == offload_kind::none,
                        "training_search_space.config.offload is not modelled under framework "
                        "= transformers");
    detail::check_input(config.dtype != precision::fp8 && !config.dropout &&
                            config.flash_attention,
                        "training_search_space.config: dtype fp8, dropout and flash_attention "
                        "= false are not modelled under framework = transformers");
  }
};

/// One configuration of the space, decoded from its index.
struct search_configuration {
  std::uint64_t index = 0;
  int node = 0;  ///< index into training_search_space::nodes
  parallel_layout layout{};
  int micro_batch = 1;
  recompute_mode recompute = recompute_mode::none;
  precision_regime regime = precision_regime::master;
  bool chunked_loss = false;
};

/// Why a configuration left the search, or that it stayed.
enum class search_verdict : unsigned char {
  ok,
  /// the layout does not suit the model, the GPU count or the batch, or it spells another
  /// configuration's run (SP without TP, ZeRO without data-parallel ranks, a chunked loss where
  /// the materialised one fits)
  invalid,
  over_memory,  ///< it does not fit the GPU's memory
  over_limits,  ///< it misses the deadline or the budget
  no_progress,  ///< timed, but its failures outpace its progress (the reliability model)
};
inline constexpr enumerator<search_verdict> search_verdict_names[] = {
    {search_verdict::ok, "ok"},
    {search_verdict::invalid, "invalid"},
    {search_verdict::over_memory, "over_memory"},
    {search_verdict::over_limits, "over_limits"},
    {search_verdict::no_progress, "no_progress"}};
constexpr const auto& enumerators(search_verdict) { return search_verdict_names; }

/// A configuration's full evaluation: layout, memory, step breakdown, time, money, energy.
struct search_evaluation {
  search_verdict verdict = search_verdict::invalid;
  search_configuration config{};
  data_size memory_per_gpu{};  ///< the most loaded GPU (zero when invalid)
  step_breakdown step{};       ///< filled from over_limits on
  duration time_to_train{};    ///< steady state: whole steps of the global batch
  /// Failures and checkpoints: ETTR, MTTF, and `wall`, the expected reserved wall time (the
  /// steady state when the space's reliability model is off)
  reliability_estimate reliability{};
  run_cost_report cost{};      ///< money, energy and carbon of the run's reserved GPU-hours

  /// The wall time the run reserves: what the deadline, the time objective and the price see.
  [[nodiscard]] constexpr duration reserved_time() const { return reliability.wall; }

  [[nodiscard]] constexpr bool ok() const { return verdict == search_verdict::ok; }
  [[nodiscard]] constexpr energy run_energy() const { return cost.facility_energy(); }
};

/// What the collectors keep of a configuration: its index and its three objective values.
struct search_point {
  std::uint64_t index = 0;
  double time_s = 0.0;    ///< time to train, reserved (with failures and checkpoints)
  double cost_usd = 0.0;
  double energy_j = 0.0;

  [[nodiscard]] constexpr double value(search_objective o) const {
    return o == search_objective::time ? time_s : o == search_objective::cost ? cost_usd : energy_j;
  }
  /// The total order of a ranking: the objective, then the index (ties are deterministic).
  [[nodiscard]] constexpr bool before(const search_point& b, search_objective o) const {
    const double x = value(o), y = b.value(o);
    return x < y || (x == y && index < b.index);
  }
  /// Pareto dominance of time against cost; equal points: the smaller index dominates, so the
  /// front is one set whatever order the points come in.
  [[nodiscard]] constexpr bool dominates(const search_point& b) const {
    return time_s <= b.time_s && cost_usd <= b.cost_usd &&
           (time_s < b.time_s || cost_usd < b.cost_usd || index < b.index);
  }
};

/// How many configurations met each fate.
struct search_counts {
  std::uint64_t visited = 0;      ///< indices walked (the configurations evaluated)
  std::uint64_t invalid = 0;      ///< pruned by the structural checks
  std::uint64_t over_memory = 0;  ///< pruned by the memory model, before any time is computed
  std::uint64_t timed = 0;        ///< step time computed
  std::uint64_t over_limits = 0;  ///< timed, then over the deadline or budget
  std::uint64_t no_progress = 0;  ///< timed, then failing faster than it progresses
  constexpr search_counts& operator+=(const search_counts& o) {
    visited += o.visited;
    invalid += o.invalid;
    over_memory += o.over_memory;
    timed += o.timed;
    over_limits += o.over_limits;
    no_progress += o.no_progress;
    return *this;
  }
};

/// The bounded results of a search (or of one shard): the top k of each objective and the
/// Pareto front of time against cost, at most max_search_front points, the fastest kept.
/// merge() of shards gives the same collector as one search of the whole range.
struct training_search_collector {
  int top_k = 10;  ///< 1 to max_search_top
  std::array<bounded_ranking<search_point, max_search_top>, search_objective_count> top{};
  /// The front, fastest first (cost falls along it).
  bounded_ranking<search_point, max_search_front> front{};
  /// Some collector dropped a non-dominated point for lack of room (the front shown is the
  /// max_search_front fastest of the true front).
  bool front_truncated = false;
  search_counts counts{};

  constexpr void offer(const search_point& p) {
    for (int o = 0; o < search_objective_count; ++o) {
      const auto obj = static_cast<search_objective>(o);
      top[static_cast<std::size_t>(o)].offer(
          p, top_k, [obj](const search_point& a, const search_point& b) { return a.before(b, obj); });
    }
    offer_front(p);
  }

  constexpr void merge(const training_search_collector& o) {
    // the k best of a union are the k best of the parts' k best
    for (int k = 0; k < search_objective_count; ++k) {
      const auto obj = static_cast<search_objective>(k);
      for (const search_point& p : o.top[static_cast<std::size_t>(k)].view())
        top[static_cast<std::size_t>(k)].offer(
            p, top_k, [obj](const search_point& a, const search_point& b) { return a.before(b, obj); });
    }
    for (const search_point& p : o.front.view()) offer_front(p);
    front_truncated = front_truncated || o.front_truncated;
    counts += o.counts;
  }

  [[nodiscard]] constexpr array_view<search_point> best(search_objective o) const {
    return top[static_cast<std::size_t>(o)].view();
  }
  [[nodiscard]] constexpr array_view<search_point> pareto() const { return front.view(); }

 private:
  constexpr void offer_front(const search_point& p) {
    auto& f = front.items;
    for (const search_point& q : f)
      if (q.dominates(p) || q.index == p.index) return;
    auto kept = f.begin();  // drop what p dominates
    for (const search_point& q : f)
      if (!p.dominates(q)) *kept++ = q;
    f.erase(kept, f.end());
    if (f.full()) front_truncated = true;
    front.offer(p, max_search_front, [](const search_point& a, const search_point& b) {
      return a.time_s < b.time_s || (a.time_s == b.time_s && a.index < b.index);
    });
  }
};

/// Cancellation and progress hooks for a search run on several threads; both optional (the CLI
/// backs them with std::atomic counters; the core header does not include <atomic>).
struct search_control {
  void* context = nullptr;
  /// Polled every `poll_every` configurations: when it returns true the search returns what it
  /// has.
  bool (*cancelled)(void* context) = nullptr;
  /// Told of every `poll_every` configurations walked, and of the rest at the end.
  void (*advanced)(void* context, std::uint64_t configurations) = nullptr;
  std::uint64_t poll_every = 1024;
};

namespace detail {

/// What a search resolves once per call: the plan it edits per configuration and the pricing of
/// each GPU type.
struct training_search_context {
  const training_search_space* space = nullptr;
  training_plan plan{};
  /// The last memory evaluation: the configuration (without its GPU) and its per-GPU memory;
  /// and the last of a chunked-loss configuration's twin with the materialised loss.
  struct memory_cache {
    bool known = false;
    parallel_layout layout{};
    int micro_batch = 0;
    recompute_mode recompute = recompute_mode::none;
    precision_regime regime = precision_regime::master;
    bool chunked_loss = false;
    memory_breakdown per_gpu{};
  };
  memory_cache memory{}, plain_loss{};
  /// The chunked_loss list holds false too: a chunked configuration whose materialised twin
  /// fits is that twin's run (the step-time model times the loss the same either way).
  bool plain_loss_searched = false;
  std::array<run_cost_inputs, max_search_gpu_types> pricing{};
  std::array<bool, max_search_gpu_types> usable{};
};

constexpr training_search_context make_search_context(const training_search_space& s) {
  s.validate();
  training_search_context c;
  c.space = &s;
  for (bool b : s.chunked_loss) c.plain_loss_searched = c.plain_loss_searched || !b;
  c.plan.model = s.model;
  c.plan.config = s.config;
  c.plan.assumptions = s.step;
  c.plan.fabric = s.fabric;
  c.plan.bisection_fraction = s.bisection_fraction;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    const node_spec& n = s.nodes[i];
    run_cost_inputs in = s.cost;
    in.node = n;
    if (!s.price_per_gpu_hour.empty() && s.price_per_gpu_hour[i].value > 0.0) {
      in.price_per_gpu_hour = s.price_per_gpu_hour[i];
    } else {
      if (const cloud_price* p = book_price(in, n.gpu)) in.price_per_gpu_hour = p->price(in.term);
    }
    c.pricing[i] = in;
    // a GPU without a tensor-core rate for the dtype (fp8 before Hopper) takes no configuration
    c.usable[i] = n.gpu.peak.tensor(s.config.dtype).value > 0.0;
  }
  return c;
}

/// The configuration at `index`: mixed radix, the GPU count most significant, then PP, TP, CP,
/// EP, virtual stages, micro-batch, ZeRO, recomputation, precision regime, chunked loss,
/// sequence parallelism, and the GPU type least (so that consecutive indices differ only in the GPU, whose memory the search computes
/// once: the memory model does not read the GPU).
constexpr search_configuration decode(const training_search_space& s, std::uint64_t index) {
  search_configuration c;
  c.index = index;
  std::uint64_t r = index;
  auto take = [&r](auto dim) {
    const std::uint64_t n = dim.size();
    const auto v = dim[static_cast<std::size_t>(r % n)];
    r /= n;
    return v;
  };
  c.node = static_cast<int>(r % s.nodes.size());
  r /= s.nodes.size();
  c.layout.sequence_parallel = take(s.sequence_parallel);
  c.chunked_loss = take(s.chunked_loss);
  c.regime = take(s.precision_regimes);
  c.recompute = take(s.recompute);
  c.layout.zero = take(s.zero);
  c.micro_batch = take(s.micro_batch);
  c.layout.virtual_stages = take(s.virtual_stages);
  c.layout.ep = take(s.ep);
  c.layout.cp = take(s.cp);
  c.layout.tp = take(s.tp);
  c.layout.pp = take(s.pp);
  const int gpus = take(s.gpus);
  // each degree is at most 2^24 (validate): tp x pp fits a long long; beyond the GPU count the
  // layout is not whole (and x cp could pass 2^63)
  const long long tp_pp = 1LL * c.layout.tp * c.layout.pp;
  const long long model_parallel = tp_pp > gpus ? 0 : tp_pp * c.layout.cp;
  c.layout.dp = model_parallel > 0 && gpus % model_parallel == 0
                    ? static_cast<int>(gpus / model_parallel)
                    : 0;
  return c;
}

/// Steps 1-5 of the header comment for one configuration.
constexpr search_evaluation evaluate(training_search_context& ctx, std::uint64_t index) {
  const training_search_space& s = *ctx.space;
  search_evaluation e;
  e.config = decode(s, index);
  const parallel_layout& l = e.config.layout;
  const node_spec& node = s.nodes[static_cast<std::size_t>(e.config.node)];
  const training_config& base = s.config;
  // 1. structure
  const bool one_node = l.gpus() <= node.gpus;
  if (l.dp == 0 || !ctx.usable[static_cast<std::size_t>(e.config.node)]) return e;
  if (s.tp_within_nvlink_domain && l.tp > candidate_bounds::for_node(node).nvlink_domain) return e;
  if (l.sequence_parallel && l.tp == 1) return e;  // the same run as without
  if (l.zero > 0 && l.dp * l.cp == 1) return e;    // nothing to shard over
  if (!one_node && node.nics.count == 0) return e;
  if (base.seq % l.cp != 0) return e;
  // in long long: micro-batch and dp are each up to 2^24 (validate)
  if (base.global_batch % (1LL * e.config.micro_batch * l.dp) != 0) return e;
  if (base.micro_batches > 0 &&
      1LL * base.micro_batches * e.config.micro_batch * l.dp != base.global_batch)
    return e;
  if (!l.check(s.model).ok()) return e;
  // ZeRO-Offload keeps the optimizer on the CPU of each shard: it needs sharded state
  // (training_memory's rule)
  if (base.offload == offload_kind::optimizer && l.zero == 0 && l.dp * l.cp > 1) return e;
  training_config& c = ctx.plan.config;
  c.micro_batch = e.config.micro_batch;
  c.recompute = e.config.recompute;
  set_regime(c, e.config.regime);
  c.chunked_loss = e.config.chunked_loss;
  // 2. memory, before any time
  // the fit's verdict (plan/training_verdict.hpp: training_verdict), on a breakdown cached
  // across GPUs
  auto verdict_of = [&](training_search_context::memory_cache& m) {
    if (!(m.known && m.layout == l && m.micro_batch == c.micro_batch &&
          m.recompute == c.recompute && m.regime == e.config.regime &&
          m.chunked_loss == c.chunked_loss)) {
      m = {true, l, c.micro_batch, c.recompute, e.config.regime, c.chunked_loss,
           framework_training_memory(s.model, l, c, s.memory)};
    }
    return training_verdict(m.per_gpu, node.gpu);
  };
  const training_memory_verdict memory = verdict_of(ctx.memory);
  e.memory_per_gpu = memory.per_gpu.total();
  if (!memory.fits()) {
    e.verdict = search_verdict::over_memory;
    return e;
  }
  if (c.chunked_loss && ctx.plain_loss_searched) {
    // the step-time model times the loss the same either way: a chunked loss where the
    // materialised one fits is the same run spelled twice
    c.chunked_loss = false;
    const bool plain_fits = verdict_of(ctx.plain_loss).fits();
    c.chunked_loss = true;
    if (plain_fits) {
      e.memory_per_gpu = {};
      return e;
    }
  }
  // 3. time
  ctx.plan.node = node;
  ctx.plan.layout = l;
  e.step = estimate_step(ctx.plan);
  e.time_to_train = gpuplan::time_to_train(e.step, s.tokens);
  e.reliability = estimate_reliability(s.reliability, l.gpus(), e.time_to_train,
                                       checkpoint_size(ctx.plan, s.memory));
  if (!e.reliability.feasible) {
    // failures faster than the job can make progress at this size: never finishes
    e.verdict = search_verdict::no_progress;
    return e;
  }
  // 4. money and energy
  e.cost = price_run(run_usage::of(node.gpu, l.gpus(), e.reserved_time()),
                     ctx.pricing[static_cast<std::size_t>(e.config.node)]);
  // 5. limits
  const bool late = s.deadline.value > 0.0 && e.reserved_time() > s.deadline;
  const bool dear = s.budget.value > 0.0 && e.cost.cost > s.budget;
  e.verdict = late || dear ? search_verdict::over_limits : search_verdict::ok;
  return e;
}

constexpr search_point point_of(const search_evaluation& e) {
  return {e.config.index, e.reserved_time().value, e.cost.cost.value, e.run_energy().value};
}

}  // namespace detail

/// Decodes and evaluates the configuration at `index` (to report a collector's points in full).
constexpr search_evaluation evaluate_configuration(const training_search_space& s,
                                                   std::uint64_t index) {
  detail::training_search_context ctx = detail::make_search_context(s);
  detail::check_input(index < s.size(), "search index out of range", static_cast<double>(index));
  return detail::evaluate(ctx, index);
}

/// Searches indices [begin, end) of the space into `out` (which keeps what it held: call it
/// once per shard, then merge). Returns false when cancelled.
constexpr bool search_training(const training_search_space& s, std::uint64_t begin,
                               std::uint64_t end, training_search_collector& out,
                               const search_control& control = {}) {
  detail::check_input(out.top_k >= 1 && out.top_k <= max_search_top,
                      "training_search_collector.top_k must be 1 to 64", out.top_k);
  detail::training_search_context ctx = detail::make_search_context(s);
  const std::uint64_t n = s.size();
  if (end > n) end = n;
  const std::uint64_t poll = control.poll_every > 0 ? control.poll_every : 1;
  std::uint64_t since = 0;
  for (std::uint64_t i = begin; i < end; ++i) {
    const search_evaluation e = detail::evaluate(ctx, i);
    ++out.counts.visited;
    switch (e.verdict) {
      case search_verdict::invalid: ++out.counts.invalid; break;
      case search_verdict::over_memory: ++out.counts.over_memory; break;
      case search_verdict::over_limits:
        ++out.counts.timed;
        ++out.counts.over_limits;
        break;
      case search_verdict::no_progress:
        ++out.counts.timed;
        ++out.counts.no_progress;
        break;
      case search_verdict::ok:
        ++out.counts.timed;
        out.offer(detail::point_of(e));
        break;
    }
    if (++since == poll) {
      if (control.advanced != nullptr) control.advanced(control.context, since);
      since = 0;
      if (control.cancelled != nullptr && control.cancelled(control.context)) return false;
    }
  }
  if (control.advanced != nullptr && since > 0) control.advanced(control.context, since);
  return true;
}

/// The whole space in one call.
constexpr training_search_collector search_training(const training_search_space& s, int top_k = 10) {
  training_search_collector out;
  out.top_k = top_k;
  search_training(s, 0, s.size(), out);
  return out;
}

/// Why the winner of a ranking wins: the runner-up and what bounds it.
struct search_margin {
  bool has_runner_up = false;
  std::uint64_t runner_up = 0;                       ///< its index
  step_bottleneck runner_up_bottleneck = step_bottleneck::compute;
  double ratio = 1.0;  ///< runner-up's objective value over the winner's (>= 1)
};

/// The margin of `winner` over `runner_up` under objective o.
constexpr search_margin why_it_wins(const search_evaluation& winner,
                                    const search_evaluation& runner_up, search_objective o) {
  const search_point a = detail::point_of(winner), b = detail::point_of(runner_up);
  search_margin m;
  m.has_runner_up = true;
  m.runner_up = runner_up.config.index;
  m.runner_up_bottleneck = runner_up.step.bottleneck;
  m.ratio = a.value(o) > 0.0 ? b.value(o) / a.value(o) : 1.0;
  return m;
}

}  // namespace gpuplan
