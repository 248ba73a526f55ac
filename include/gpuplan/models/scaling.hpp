// gpuplan/models/scaling.hpp: throughput against the GPU count, and why returns diminish.
//
// The curve scales the data-parallel degree of a plan (the model-parallel part, tp x pp x cp,
// stays as given), in powers of two from `from_gpus` to `to_gpus`:
//   strong scaling  the global batch stays fixed: each GPU gets fewer sequences, the pipeline
//                   fewer micro-batches (bigger bubble share), and the gradient reduction is
//                   amortised over less compute;
//   weak scaling    the global batch grows with the GPUs: the work per GPU stays, and only the
//                   communication that grows with the group (data-parallel rings across more
//                   nodes) erodes the efficiency.
// Each point carries the step's breakdown shares and names the reason its efficiency (per-GPU
// throughput against the first point) dropped: the share that grew the most since the previous
// point, or a batch too small to give every pipeline enough micro-batches.
#pragma once

#include <gpuplan/models/training_step.hpp>
#include <gpuplan/specs/inplace_vector.hpp>

#include <array>
#include <string_view>

namespace gpuplan {

enum class scaling_mode : unsigned char { strong, weak };
inline constexpr enumerator<scaling_mode> scaling_mode_names[] = {
    {scaling_mode::strong, "strong"},
    {scaling_mode::weak, "weak"},
};
constexpr const auto& enumerators(scaling_mode) { return scaling_mode_names; }

/// Why a point is less efficient than the one before it.
enum class scaling_limit : unsigned char {
  none,            ///< efficiency held (within 2% of the previous point)
  communication,   ///< exposed communication grew the most
  pipeline_bubble, ///< the bubble grew the most
  small_batch,     ///< fewer micro-batches than pipeline stages, or one micro-batch per rank
  batch_too_small, ///< the global batch cannot be split over this many data-parallel ranks
};

inline constexpr enumerator<scaling_limit> scaling_limit_names[] = {
    {scaling_limit::none, "none"},
    {scaling_limit::communication, "communication"},
    {scaling_limit::pipeline_bubble, "pipeline_bubble"},
    {scaling_limit::small_batch, "small_batch"},
    {scaling_limit::batch_too_small, "batch_too_small"},
};
constexpr const auto& enumerators(scaling_limit) { return scaling_limit_names; }

/// What a limit means, for people.
constexpr std::string_view describe(scaling_limit l) {
  switch (l) {
    case scaling_limit::none: return "";
    case scaling_limit::communication: return "communication";
    case scaling_limit::pipeline_bubble: return "pipeline bubble";
    case scaling_limit::small_batch: return "batch too small per GPU";
    case scaling_limit::batch_too_small: return "global batch too small for this many GPUs";
  }
  return "?";
}

struct scaling_point {
  int gpus = 0;
  int dp = 0;
  int global_batch = 0;
  int micro_batches = 0;          ///< per pipeline per step
  bool valid = false;             ///< false: the batch cannot be split (limit says why)
  duration step{};
  token_rate tokens_per_s{};
  token_rate tokens_per_s_per_gpu{};
  double mfu = 0.0;
  double efficiency = 0.0;        ///< per-GPU throughput / the first valid point's
  double communication_share = 0.0;  ///< exposed TP+CP+EP+PP+DP communication / step
  double bubble_share = 0.0;
  double compute_share = 0.0;     ///< GEMMs, attention and memory-bound kernels / step
  step_bottleneck bottleneck = step_bottleneck::compute;
  scaling_limit limit = scaling_limit::none;
};

/// Up to 32 points (2^31 GPUs is far past any cluster).
struct scaling_curve {
  inplace_vector<scaling_point, 32> points{};
  scaling_mode mode = scaling_mode::strong;

  /// Point i (0 <= i < size()).
  [[nodiscard]] constexpr const scaling_point& operator[](int i) const {
    return points[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] constexpr int size() const { return static_cast<int>(points.size()); }
  [[nodiscard]] constexpr const scaling_point* begin() const { return points.begin(); }
  [[nodiscard]] constexpr const scaling_point* end() const { return points.end(); }
};

/// `base` at data-parallel degree dp, as the scaling curve builds each point: as many nodes as
/// the layout needs, the global batch base's (strong) or scaled by dp / base.layout.dp (weak),
/// micro-batches following from it. valid is false when that batch cannot be split over dp ranks
/// of micro_batch sequences (or the experts do not divide dp x cp).
struct scaled_plan {
  training_plan plan{};
  int global_batch = 0;
  bool valid = false;
};

/// The largest global batch scale_plan makes (training_config::global_batch is an int).
inline constexpr double max_global_batch = 2147483647.0;

constexpr scaled_plan scale_plan(const training_plan& base, int dp, scaling_mode mode) {
  detail::check_input(dp >= 1, "scale_plan: dp must be at least 1", dp);
  // micro_batch 0 would divide by zero below, base dp 0 would scale the batch by dp / 0
  base.config.validate();
  detail::check_input(base.layout.dp >= 1, "layout.dp must be at least 1", base.layout.dp);
  scaled_plan r{.plan = base, .global_batch = 0, .valid = false};
  training_plan& p = r.plan;
  p.nodes = 0;
  p.layout.dp = dp;
  if (p.layout.shard_group > 0 && dp % p.layout.shard_group != 0) p.layout.shard_group = 0;
  p.config.micro_batches = 0;
  const int base_batch = plan_global_batch(base);
  const double scaled =
      mode == scaling_mode::weak ? 1.0 * base_batch * dp / base.layout.dp : 1.0 * base_batch;
  // an int holds the batch: past it the conversion is undefined (it came back as -2^31)
  detail::check_input(scaled <= max_global_batch,
                      "scale_plan: the weak-scaled global batch (base batch x dp / base dp) "
                      "must be at most 2^31 - 1 sequences",
                      dp);
  r.global_batch = static_cast<int>(scaled);
  p.config.global_batch = r.global_batch;
  const long long per_step = 1LL * p.config.micro_batch * dp;  // int x int can overflow
  r.valid = !(r.global_batch < per_step || r.global_batch % per_step != 0 ||
              (p.layout.ep > 1 && (1LL * dp * p.layout.cp) % p.layout.ep != 0));
  return r;
}

/// The share of the previous point's per-GPU throughput a point must keep for the curve to call
/// it scaling: below it (a loss of more than 2% per doubling of the GPUs) the point's `limit`
/// names why (communication, pipeline bubble, batch too small per GPU). An estimate with no
/// published source: it only labels the curve (no computed figure depends on it); 2% per
/// doubling is taken as the smallest loss worth naming a cause for.
inline constexpr double scaling_kept_fraction = 0.98;

/// The number of points scaling(base, from_gpus, to_gpus) evaluates: from_gpus doubled while
/// it stays within to_gpus, at most 32.
constexpr int scaling_points(int from_gpus, int to_gpus) {
  int n = 0;
  for (long long g = from_gpus; g >= 1 && g <= to_gpus && n < 32; g *= 2) ++n;
  return n;
}

namespace detail {
struct no_scaling_progress {
  constexpr void operator()(int, int) const {}
};
}  // namespace detail

/// Throughput of `base` from `from_gpus` to `to_gpus` GPUs, doubling the data-parallel degree.
/// Both bounds must be multiples of base.layout's model-parallel size (tp x pp x cp), and the
/// nodes of base are ignored (as many as each point needs). In weak scaling the global batch is
/// base's scaled by dp / base.layout.dp. `on_point(done, total)` is called after each point (a
/// progress bar). Throws gpuplan::invalid_input naming the field.
template <class OnPoint = detail::no_scaling_progress>
constexpr scaling_curve scaling(const training_plan& base, int from_gpus, int to_gpus,
                                scaling_mode mode = scaling_mode::strong, OnPoint on_point = {}) {
  const int mp = base.layout.tp * base.layout.pp * base.layout.cp;
  detail::check_input(from_gpus >= 1 && to_gpus >= from_gpus,
                      "scaling: need 1 <= from_gpus <= to_gpus", from_gpus, to_gpus);
  detail::check_input(from_gpus % mp == 0,
                      "scaling: from_gpus must be a multiple of tp x pp x cp", from_gpus, mp);
  scaling_curve curve;
  curve.mode = mode;
  double first_per_gpu = 0.0;
  scaling_point prev{};
  const int points = scaling_points(from_gpus, to_gpus);
  for (long long g = from_gpus; g <= to_gpus && !curve.points.full(); g *= 2) {
    scaling_point pt;
    pt.gpus = static_cast<int>(g);
    pt.dp = static_cast<int>(g / mp);
    const scaled_plan sp = scale_plan(base, pt.dp, mode);
    const training_plan& p = sp.plan;
    pt.global_batch = sp.global_batch;
    if (!sp.valid) {
      pt.limit = scaling_limit::batch_too_small;
      curve.points.push_back(pt);
      on_point(curve.size(), points);
      continue;
    }
    const step_breakdown b = estimate_step(p);
    pt.valid = true;
    pt.micro_batches = b.micro_batches;
    pt.step = b.total;
    pt.tokens_per_s = b.tokens_per_s;
    pt.tokens_per_s_per_gpu = b.tokens_per_s / (1.0 * pt.gpus);
    pt.mfu = b.mfu;
    const duration comm = b.tensor_parallel + b.context_parallel + b.expert_parallel +
                          b.pipeline_p2p + b.data_parallel;
    pt.communication_share = comm / b.total;
    pt.bubble_share = b.bubble / b.total;
    pt.compute_share = (b.compute + b.memory_bound) / b.total;
    pt.bottleneck = b.bottleneck;
    const double per_gpu = pt.tokens_per_s_per_gpu.value;
    if (first_per_gpu == 0.0) first_per_gpu = per_gpu;
    pt.efficiency = per_gpu / first_per_gpu;
    if (prev.valid && per_gpu < scaling_kept_fraction * prev.tokens_per_s_per_gpu.value) {
      const double d_comm = pt.communication_share - prev.communication_share;
      const double d_bubble = pt.bubble_share - prev.bubble_share;
      if (b.micro_batches < p.layout.pp || (p.layout.pp == 1 && b.micro_batches == 1 &&
                                            d_comm > 0.0 && prev.micro_batches > 1))
        pt.limit = scaling_limit::small_batch;
      else if (d_bubble > d_comm)
        pt.limit = scaling_limit::pipeline_bubble;
      else
        pt.limit = scaling_limit::communication;
    }
    prev = pt;
    curve.points.push_back(pt);
    on_point(curve.size(), points);
  }
  return curve;
}

}  // namespace gpuplan
