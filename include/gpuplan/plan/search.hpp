// gpuplan/plan/search.hpp: the best layout and hardware for a job, by exhaustive search.
//
// Training: every combination of GPU type x GPU count x TP x PP x CP x EP x virtual stages x
// micro-batch x ZeRO stage x recomputation x precision regime x chunked loss x sequence
// parallelism (DP is what the GPU count leaves) for a model, a global batch and a token budget,
// under one training framework: Megatron-LM (every dimension) or Hugging Face transformers on
// PyTorch eager (data parallelism with ZeRO / FSDP only: use_framework() sets its space). Each combination has an index in [0, size());
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
//
// Serving: GPU type x replica layout (TP with, for a mixture of experts, each EP dividing it and
// data-parallel attention) x PP x weight precision, each at the largest concurrency per replica
// that meets the SLO (best_under_slo, models/serving.hpp), ranked by cost per million output
// tokens or by output tokens per second per GPU.
#pragma once

#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/models/framework_memory.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/models/training_step.hpp>
#include <gpuplan/plan/candidates.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/fit_core.hpp>
#include <gpuplan/plan/training_cost.hpp>
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

/// The most GPU types one search takes (their prices and power are resolved once per call).
inline constexpr int max_search_gpu_types = 16;

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

inline constexpr int max_search_top = 64;     ///< largest k of the top-k lists
inline constexpr int max_search_front = 128;  ///< most points the Pareto front keeps

/// A sorted list of at most N items under a total order: the k best of all offered.
template <class T, int N>
struct bounded_ranking {
  inplace_vector<T, static_cast<std::size_t>(N)> items{};

  /// Inserts p if it is among the k best (1 <= k <= N) under `less`, after the items equal to
  /// it (the first offered stays first).
  template <class Less>
  constexpr void offer(const T& p, int k, Less&& less) {
    if (items.size() == static_cast<std::size_t>(k)) {
      if (!less(p, items.back())) return;
      items.pop_back();  // p displaces the last
    }
    auto at = items.end();
    while (at != items.begin() && less(p, *(at - 1))) --at;
    items.insert(at, p);
  }
  [[nodiscard]] constexpr array_view<T> view() const { return {items.data(), items.size()}; }
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
  // the fit's verdict (plan/fit_core.hpp: training_verdict), on a breakdown cached across GPUs
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

// ---- serving ---------------------------------------------------------------------------------

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
  // the deployment's memory verdict (plan/fit_core.hpp serving_fit, what `gpuplan serve` reports),
  // and a KV cache that holds a sequence of the mix
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
