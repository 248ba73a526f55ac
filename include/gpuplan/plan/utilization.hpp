// gpuplan/plan/utilization.hpp: how a fleet of GPUs actually ran, from monitoring samples:
// time-weighted utilisation per GPU and for the fleet, the time in each utilisation band
// (models/utilization_bands.hpp), memory, power and throughput, idle GPUs, and advice in plain
// words. The report `gpuplan utilization` prints is one call: analyze_usage(samples, options).
//
// The advice is drawn from one analysis (usage_findings: each GPU idle, under-used or busy, how
// the busy ones run, one fleet_verdict), each line by a rule of that verdict, so that no two lines
// contradict (contradicts() is the table of rules that never appear together: fewer GPUs against
// more, moving work first against releasing or adding), and each line quotes its figures.
//
// The samples come from anywhere: the readers of nvidia-smi, DCGM (Prometheus) and plain CSV
// exports are io/monitoring.hpp, which also writes the report as JSON.
//
// Analysis is time-weighted: each sample holds until the next one of its GPU, so irregular
// sampling does not bias the shares; samples may come in any order (they are sorted per GPU); an
// interval longer than gap_factor x the GPU's median interval is a gap (the monitor was down):
// the sample before it counts for one median interval only, and the gap is reported.
//
// Not in the umbrella header <gpuplan/gpuplan.hpp>: it works on std::vector and std::string
// (samples are read from files at run time), which the constexpr core does not pay for.
#pragma once

#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/models/utilization_bands.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/units.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpuplan {

// ---- inputs --------------------------------------------------------------------------------------

/// One reading of one GPU.
struct gpu_sample {
  std::string gpu;             ///< GPU id: nvidia-smi index, "host:gpu" for DCGM, the CSV's gpu
  double time = 0;             ///< seconds since the Unix epoch (UTC)
  double utilization = 0;      ///< 0..1 (utilization.gpu / 100)
  std::optional<data_size> memory_used;
  std::optional<power> power_draw;
  /// Work served per second on this GPU (plain CSV `tokens_per_s` or `requests_per_s`;
  /// io::monitoring_data::throughput_unit says which).
  std::optional<double> throughput;
};

/// Merges the readings of one GPU at one time into one sample: utilisation, memory, power and
/// throughput each the mean of the readings that have it (no reading is preferred to another:
/// overlapping logs repeat the same value, two exporters of one GPU disagree by sampling
/// jitter). Sorts by GPU, then time. Returns how many readings were merged into another.
inline int merge_same_time(std::vector<gpu_sample>& v) {
  std::stable_sort(v.begin(), v.end(), [](const gpu_sample& a, const gpu_sample& b) {
    return a.gpu != b.gpu ? a.gpu < b.gpu : a.time < b.time;
  });
  int merged = 0;
  std::size_t out = 0;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i + 1;
    while (j < v.size() && v[j].gpu == v[i].gpu && v[j].time == v[i].time) ++j;
    if (j - i > 1) {
      double util = 0, mem = 0, pw = 0, tp = 0;
      int n_mem = 0, n_pw = 0, n_tp = 0;
      for (std::size_t k = i; k < j; ++k) {
        util += v[k].utilization;
        if (v[k].memory_used) mem += v[k].memory_used->in(units::B), ++n_mem;
        if (v[k].power_draw) pw += v[k].power_draw->in(units::W), ++n_pw;
        if (v[k].throughput) tp += *v[k].throughput, ++n_tp;
      }
      gpu_sample& s = v[i];
      s.utilization = util / static_cast<double>(j - i);
      if (n_mem > 0) s.memory_used = mem / n_mem * units::B;
      if (n_pw > 0) s.power_draw = pw / n_pw * units::W;
      if (n_tp > 0) s.throughput = tp / n_tp;
      merged += static_cast<int>(j - i - 1);
    }
    if (out != i) v[out] = std::move(v[i]);
    ++out;
    i = j;
  }
  v.resize(out);
  return merged;
}

struct usage_options {
  utilization_bands bands{};
  /// A GPU whose mean utilisation is below this is idle. ESTIMATE: 5% separates a GPU that
  /// only runs a monitoring agent or a warm but unused server from one doing work.
  double idle_below = 0.05;
  /// An interval longer than gap_factor x the GPU's median sampling interval is a gap.
  double gap_factor = 3.0;
  /// Utilisation to consolidate to: the middle of the healthy band (80%).
  double consolidate_to = 0.80;
  /// Monthly demand growth (0.1 = +10%/month), for "add capacity before month N" advice.
  double monthly_growth = 0.0;
  /// "Scale out" advice when the fleet spends more than this share of its time above the
  /// overload edge (95%). ESTIMATE: 5% of the time is about an hour and ten minutes a day, long
  /// enough to be a pattern rather than one burst.
  double scale_out_overload_share = 0.05;
  /// ... or more than this share above the healthy band's top (90%). ESTIMATE: a fifth of the
  /// time, about five hours a day: the busy hours of a daily cycle run without headroom.
  double scale_out_hot_share = 0.20;
  /// A GPU that is not idle but spends at least this share of its time below the waste edge
  /// (30%) is under-used: a candidate to share, or to take work from a hot GPU. 95% of the time
  /// is the old "p95 below the edge" test stated as the share the report's table prints.
  double under_used_share = 0.95;
  /// The monitored GPUs' model, when known (`gpuplan utilization --gpu`): its MIG profiles
  /// (catalog/mig.hpp) decide whether a GPU's peak memory fits a slice smaller than the whole GPU.
  /// Unknown, or a GPU without MIG: sharing advice names time-slicing only.
  std::optional<gpu_spec> gpu{};
  /// With monthly_growth, idle GPUs are released (and the fleet consolidated) only when the busy
  /// GPUs' p95 stays under the healthy band's top for at least this many months; sooner, the
  /// advice is to keep them for the growth. ESTIMATE: about the lead time to get GPUs back (a
  /// cloud reservation or a purchase and its installation), a quarter to half a year.
  double release_horizon_months = 6.0;
};

/// The fleet's state, judged once from the bands and the peaks (usage_findings); every advice
/// line is a function of it, so lines cannot contradict each other.
enum class fleet_verdict : unsigned char {
  healthy,           ///< no GPU idle or under-used, the busy GPUs below the scale-out thresholds
  over_provisioned,  ///< idle or under-used GPUs (or a fleet mean below the waste edge), and the
                     ///< busy GPUs have headroom (p95 at most the healthy band's top)
  unbalanced,        ///< the busy GPUs run without headroom while idle or under-used GPUs could
                     ///< take work: move work before releasing or adding GPUs
  saturated,         ///< the busy GPUs pass the scale-out thresholds and no GPU can take work
};
inline constexpr enumerator<fleet_verdict> fleet_verdict_names[] = {
    {fleet_verdict::healthy, "healthy"},
    {fleet_verdict::over_provisioned, "over_provisioned"},
    {fleet_verdict::unbalanced, "unbalanced"},
    {fleet_verdict::saturated, "saturated"}};
constexpr const auto& enumerators(fleet_verdict) { return fleet_verdict_names; }

/// Which rule wrote an advice line (usage_report::advice_rules, parallel to advice). The rules
/// that must never appear together are contradicts() below.
enum class advice_rule : unsigned char {
  release_idle,        ///< over-provisioned: release the idle GPUs
  keep_for_growth,     ///< over-provisioned, but growth fills the busy GPUs within
                       ///< release_horizon_months: keep the idle GPUs for it
  consolidate,         ///< over-provisioned, fleet mean below the waste edge: fewer GPUs hold it
  share_mig,           ///< an under-used GPU: the smallest MIG slice that holds its peak memory
  share_time_slicing,  ///< an under-used GPU whose peak fits no slice smaller than the GPU, or
                       ///< whose GPU (or memory) is unknown: time-slicing only
  rebalance,           ///< unbalanced: move work onto the idle and under-used GPUs first
  scale_out,           ///< saturated: add GPUs or shed load
  add_capacity_now,    ///< growth with the busy GPUs already above the healthy band, none spare
  growth_horizon,      ///< growth: the month the fleet reaches the healthy band's top
  no_change,           ///< healthy: nothing to do
};
inline constexpr enumerator<advice_rule> advice_rule_names[] = {
    {advice_rule::release_idle, "release_idle"},
    {advice_rule::keep_for_growth, "keep_for_growth"},
    {advice_rule::consolidate, "consolidate"},
    {advice_rule::share_mig, "share_mig"},
    {advice_rule::share_time_slicing, "share_time_slicing"},
    {advice_rule::rebalance, "rebalance"},
    {advice_rule::scale_out, "scale_out"},
    {advice_rule::add_capacity_now, "add_capacity_now"},
    {advice_rule::growth_horizon, "growth_horizon"},
    {advice_rule::no_change, "no_change"}};
constexpr const auto& enumerators(advice_rule) { return advice_rule_names; }

/// The contradiction table: two rules that must never advise on one fleet together. Fewer GPUs
/// (release, consolidate, share) against more (scale out, add capacity now); keeping idle GPUs
/// for growth against releasing them, consolidating, or adding GPUs now; moving work first
/// (rebalance) against releasing, adding or sharing out; "no change" against any other action.
/// (share_mig against a GPU too full for a slice cannot arise: one rule, share_for, picks MIG or
/// time-slicing per GPU.)
constexpr bool contradicts(advice_rule a, advice_rule b) {
  using r = advice_rule;
  auto fewer = [](r x) {
    return x == r::release_idle || x == r::consolidate || x == r::share_mig ||
           x == r::share_time_slicing;
  };
  auto more = [](r x) { return x == r::scale_out || x == r::add_capacity_now; };
  auto one_way = [&](r x, r y) {
    if (fewer(x) && more(y)) return true;
    if (x == r::rebalance && (y == r::release_idle || more(y) || y == r::consolidate ||
                              y == r::share_mig || y == r::share_time_slicing))
      return true;
    if (x == r::keep_for_growth &&
        (y == r::release_idle || y == r::consolidate || more(y) || y == r::rebalance))
      return true;
    if (x == r::no_change && y != r::no_change && y != r::growth_horizon) return true;
    return false;
  };
  return one_way(a, b) || one_way(b, a);
}

// ---- results -------------------------------------------------------------------------------------

/// Time shares in the five bands (summing to 1).
struct band_shares {
  double under_30 = 0, b30_70 = 0, b70_90 = 0, b90_95 = 0, over_95 = 0;
  [[nodiscard]] double sum() const { return under_30 + b30_70 + b70_90 + b90_95 + over_95; }
};

struct gpu_usage {
  std::string id;
  std::size_t samples = 0;
  duration observed{};         ///< time covered (gaps excluded)
  int gaps = 0;
  int duplicates = 0;          ///< readings at a time the GPU already had (merge_same_time)
  double mean = 0, peak = 0, p95 = 0, peak_to_average = 0;  ///< utilisation, 0..1
  band_shares bands{};
  bool has_memory = false;
  data_size memory_mean{}, memory_peak{};
  /// Time-weighted throughput (per second, in the file's unit) where the samples had one; for
  /// the fleet the mean is the sum of the GPUs' means and the peak the highest fleet total at
  /// any moment.
  bool has_throughput = false;
  double throughput_mean = 0, throughput_peak = 0;
  bool has_power = false;
  power power_mean{}, power_peak{};
  energy energy_used{};        ///< mean power x observed time
  bool idle = false;
};

/// The one analysis every advice rule reads: which GPUs are idle, under-used or busy, how the
/// busy ones run, and the verdict drawn from them (usage_findings_of).
struct usage_findings {
  fleet_verdict verdict = fleet_verdict::healthy;
  std::vector<std::string> idle;        ///< ids of the idle GPUs (mean below idle_below)
  std::vector<std::string> under_used;  ///< not idle, below the waste edge under_used_share of the time
  std::size_t busy = 0;                 ///< GPUs neither idle nor under-used
  /// Over the busy GPUs' time pooled: bands, mean, p95 (all 0 without busy GPUs).
  band_shares busy_bands{};
  double busy_mean = 0, busy_p95 = 0;
  /// The busy GPUs pass the scale-out thresholds (scale_out_overload_share above the overload
  /// edge, or scale_out_hot_share above the healthy band's top).
  bool busy_saturated = false;
  /// ... or at least run without headroom: saturated, or a p95 above the healthy band's top.
  bool busy_without_headroom = false;
  /// Months until growth (monthly_growth) takes the level that fills first to the healthy band's
  /// top: the busy GPUs' p95, or for an unbalanced fleet the fleet's mean (the work spread over
  /// every GPU). 0 when already there; infinite without growth or without load.
  double months_to_band_top = std::numeric_limits<double>::infinity();
};

struct usage_report {
  std::vector<gpu_usage> gpus;
  /// The fleet: mean, p95 and bands over all GPU-time pooled; peak = the highest fleet-average
  /// utilisation at any moment (GPUs reporting at that time), the figure to size for.
  gpu_usage fleet;
  usage_findings findings;
  std::vector<std::string> advice;
  std::vector<advice_rule> advice_rules;  ///< the rule of each advice line (same order)
  double start_time = 0, end_time = 0;  ///< Unix seconds
  /// The band edges the shares were counted with (usage_options::bands): band_shares' fields are
  /// named after the default edges (under_30, b30_70, ...) but hold the shares of these bands.
  utilization_bands bands{};
};

// ---- the analysis, phase by phase ----------------------------------------------------------------

namespace detail {

struct weighted {
  double value, weight;
};

/// A reading held over [start, end): a utilisation or a throughput.
struct usage_interval {
  double start, end, value;
};

inline double weighted_quantile(std::vector<weighted> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end(), [](const weighted& a, const weighted& b) { return a.value < b.value; });
  double total = 0;
  for (const weighted& w : v) total += w.weight;
  double acc = 0;
  for (const weighted& w : v) {
    acc += w.weight;
    if (acc >= p * total) return w.value;
  }
  return v.back().value;
}

inline void add_band(band_shares& b, const utilization_bands& edges, double u, double w) {
  switch (edges.classify(u)) {
    case utilization_band::waste: b.under_30 += w; break;
    case utilization_band::low: b.b30_70 += w; break;
    case utilization_band::healthy: b.b70_90 += w; break;
    case utilization_band::high: b.b90_95 += w; break;
    case utilization_band::overload: b.over_95 += w; break;
  }
}

inline void normalise(band_shares& b, double total) {
  if (!(total > 0)) return;
  b.under_30 /= total;
  b.b30_70 /= total;
  b.b70_90 /= total;
  b.b90_95 /= total;
  b.over_95 /= total;
}

/// A fraction as a whole percentage for the advice ("87%"), halves rounded away from zero
/// (std::llround: 0.125 -> "13%"). The command-line tool's tables use {fmt}'s "{:.0f}%", which
/// rounds an exact half to even ("12%"); the two are kept apart so that neither the advice nor
/// the tables change (the library's core does not format through {fmt}).
inline std::string usage_pct(double x) {
  const long long v = std::llround(x * 100.0);
  return std::to_string(v) + "%";
}

/// The median interval between a GPU's samples (1 s with one sample).
inline double median_interval(const std::vector<gpu_sample>& g) {
  std::vector<double> dts;
  for (std::size_t k = 1; k < g.size(); ++k) dts.push_back(g[k].time - g[k - 1].time);
  if (dts.empty()) return 1.0;
  std::nth_element(dts.begin(), dts.begin() + static_cast<std::ptrdiff_t>(dts.size() / 2),
                   dts.end());
  return dts[dts.size() / 2];
}

/// What one GPU's analysis hands to the fleet's: its weighted utilisations, its intervals, and
/// the time its samples cover.
struct gpu_timeline {
  std::vector<weighted> utilization;
  std::vector<usage_interval> spans;       ///< utilisation held over each interval
  std::vector<usage_interval> throughput;  ///< throughput held over each interval
  double first = 0, last = 0;              ///< earliest sample, end of the last interval
  double weight = 0, weighted_sum = 0;     ///< seconds covered; utilisation x seconds
};

/// Running time-weighted sums of one GPU's memory, power and throughput.
struct weighted_sums {
  double total = 0, util = 0, mem = 0, mem_w = 0, pow = 0, pow_w = 0, tp = 0, tp_w = 0;
};

/// Adds sample s, held for w seconds, to u's peaks and flags and to the sums.
inline void add_sample(gpu_usage& u, weighted_sums& a, const gpu_sample& s, double w,
                       gpu_timeline& t) {
  a.total += w;
  a.util += s.utilization * w;
  u.peak = std::max(u.peak, s.utilization);
  if (s.memory_used) {
    u.has_memory = true;
    a.mem += s.memory_used->value * w;
    a.mem_w += w;
    u.memory_peak = max(u.memory_peak, *s.memory_used);
  }
  if (s.power_draw) {
    u.has_power = true;
    a.pow += s.power_draw->value * w;
    a.pow_w += w;
    u.power_peak = max(u.power_peak, *s.power_draw);
  }
  if (s.throughput) {
    u.has_throughput = true;
    a.tp += *s.throughput * w;
    a.tp_w += w;
    u.throughput_peak = std::max(u.throughput_peak, *s.throughput);
    t.throughput.push_back({s.time, s.time + w, *s.throughput});
  }
}

/// One GPU's figures from its samples (one GPU, sorted by time, one per time): each sample held
/// until the next, or for the median interval before a gap and at the end.
inline gpu_usage analyze_gpu(const std::vector<gpu_sample>& g, const usage_options& o,
                             gpu_timeline& t) {
  gpu_usage u;
  u.id = g.front().gpu;
  u.samples = g.size();
  const double median = median_interval(g);
  weighted_sums a;
  t.first = g.front().time;
  t.last = g.front().time;
  for (std::size_t k = 0; k < g.size(); ++k) {
    double w = median;
    if (k + 1 < g.size()) {
      const double dt = g[k + 1].time - g[k].time;
      if (dt > o.gap_factor * median) ++u.gaps;
      else w = dt;
    }
    const gpu_sample& s = g[k];
    t.utilization.push_back({s.utilization, w});
    t.spans.push_back({s.time, s.time + w, s.utilization});
    add_band(u.bands, o.bands, s.utilization, w);
    add_sample(u, a, s, w, t);
    t.first = std::min(t.first, s.time);
    t.last = std::max(t.last, s.time + w);
  }
  t.weight = a.total;
  t.weighted_sum = a.util;
  u.observed = a.total * units::s;
  u.mean = a.total > 0 ? a.util / a.total : 0;
  u.p95 = weighted_quantile(t.utilization, 0.95);
  u.peak_to_average = u.mean > 0 ? u.peak / u.mean : 0;
  normalise(u.bands, a.total);
  if (u.has_memory) u.memory_mean = a.mem / a.mem_w * units::B;
  if (u.has_throughput) u.throughput_mean = a.tp / a.tp_w;
  if (u.has_power) {
    u.power_mean = a.pow / a.pow_w * units::W;
    u.energy_used = u.power_mean * (a.pow_w * units::s);
  }
  u.idle = u.mean < o.idle_below;
  return u;
}

/// The fleet's sums over its GPUs: samples, gaps, time observed, memory (total in use across
/// GPUs on average; the sum of per-GPU peaks, an upper bound), throughput, power and energy.
inline void add_fleet_totals(gpu_usage& f, const std::vector<gpu_usage>& gpus) {
  f.id = "fleet";
  for (const gpu_usage& u : gpus) {
    f.samples += u.samples;
    f.gaps += u.gaps;
    f.duplicates += u.duplicates;
    f.observed += u.observed;
    if (u.has_memory) {
      f.has_memory = true;
      f.memory_mean += u.memory_mean;
      f.memory_peak += u.memory_peak;
    }
    if (u.has_throughput) {
      f.has_throughput = true;
      f.throughput_mean += u.throughput_mean;
    }
    if (u.has_power) {
      f.has_power = true;
      f.power_mean += u.power_mean;
      f.power_peak += u.power_peak;
      f.energy_used += u.energy_used;
    }
  }
}

/// The highest fleet-average utilisation at any moment: a sweep over the start and end of every
/// GPU's intervals (ends before starts at one time, so back-to-back intervals do not double
/// count), averaged over the GPUs reporting then; at most 1.
inline double fleet_peak_utilization(const std::vector<std::vector<usage_interval>>& per_gpu) {
  std::vector<std::pair<double, double>> deltas;  // time, change of (sum u)
  std::vector<std::pair<double, int>> count;      // time, change of active GPUs
  for (const auto& spans : per_gpu)
    for (const usage_interval& s : spans) {
      deltas.push_back({s.start, s.value});
      deltas.push_back({s.end, -s.value});
      count.push_back({s.start, 1});
      count.push_back({s.end, -1});
    }
  std::vector<std::size_t> order(deltas.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (deltas[a].first != deltas[b].first) return deltas[a].first < deltas[b].first;
    return count[a].second < count[b].second;
  });
  double sum = 0, peak = 0;
  int active = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    sum += deltas[order[k]].second;
    active += count[order[k]].second;
    const bool last_at_time =
        k + 1 == order.size() || deltas[order[k + 1]].first != deltas[order[k]].first;
    if (last_at_time && active > 0) peak = std::max(peak, sum / active);
  }
  return std::min(peak, 1.0);
}

/// The fleet's peak throughput: the highest sum over GPUs at any moment (ends before starts).
inline double fleet_peak_throughput(const std::vector<usage_interval>& spans) {
  std::vector<std::pair<double, double>> ev;
  for (const usage_interval& t : spans) {
    ev.push_back({t.start, t.value});
    ev.push_back({t.end, -t.value});
  }
  std::sort(ev.begin(), ev.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  double sum = 0, peak = 0;
  for (std::size_t k = 0; k < ev.size(); ++k) {
    sum += ev[k].second;
    if (k + 1 == ev.size() || ev[k + 1].first != ev[k].first) peak = std::max(peak, sum);
  }
  return peak;
}

/// A memory as whole GiB for the advice ("59 GiB").
inline std::string usage_gib(data_size d) {
  return std::to_string(std::llround(d.in(units::GiB))) + " GiB";
}

/// "6, 7" from ids.
inline std::string id_list(const std::vector<std::string>& ids) {
  std::string s;
  for (const std::string& id : ids) s += (s.empty() ? "" : ", ") + id;
  return s;
}

/// Not idle, but below the waste edge at least under_used_share of the time.
inline bool under_used(const gpu_usage& u, const usage_options& o) {
  return !u.idle && u.bands.under_30 >= o.under_used_share;
}

/// The one analysis the advice reads: each GPU idle, under-used or busy; the busy GPUs' bands,
/// mean and p95 (their weighted utilisations in `busy_pooled`); the fleet's verdict.
inline usage_findings findings_of(const std::vector<gpu_usage>& gpus, const gpu_usage& fleet,
                                  const std::vector<weighted>& busy_pooled,
                                  const usage_options& o) {
  usage_findings f;
  double busy_time = 0, busy_sum = 0;
  for (const gpu_usage& u : gpus) {
    if (u.idle) {
      f.idle.push_back(u.id);
      continue;
    }
    if (under_used(u, o)) {
      f.under_used.push_back(u.id);
      continue;
    }
    ++f.busy;
    const double t = u.observed.in(units::s);
    busy_time += t;
    busy_sum += u.mean * t;
    f.busy_bands.under_30 += u.bands.under_30 * t;
    f.busy_bands.b30_70 += u.bands.b30_70 * t;
    f.busy_bands.b70_90 += u.bands.b70_90 * t;
    f.busy_bands.b90_95 += u.bands.b90_95 * t;
    f.busy_bands.over_95 += u.bands.over_95 * t;
  }
  normalise(f.busy_bands, busy_time);
  f.busy_mean = busy_time > 0 ? busy_sum / busy_time : 0;
  f.busy_p95 = weighted_quantile(busy_pooled, 0.95);
  const double hot = f.busy_bands.b90_95 + f.busy_bands.over_95;
  f.busy_saturated = f.busy > 0 && (f.busy_bands.over_95 > o.scale_out_overload_share ||
                                    hot > o.scale_out_hot_share);
  f.busy_without_headroom = f.busy_saturated || (f.busy > 0 && f.busy_p95 > o.bands.healthy_to);
  const bool spare = !f.idle.empty() || !f.under_used.empty();
  if (f.busy_without_headroom && spare)
    f.verdict = fleet_verdict::unbalanced;
  else if (f.busy_saturated)
    f.verdict = fleet_verdict::saturated;
  else if (spare || (fleet.mean < o.bands.waste_below && gpus.size() > 1))
    f.verdict = fleet_verdict::over_provisioned;
  else
    f.verdict = fleet_verdict::healthy;
  const double level = f.verdict == fleet_verdict::unbalanced ? fleet.mean : f.busy_p95;
  if (o.monthly_growth > 0 && level > 0)
    f.months_to_band_top =
        level >= o.bands.healthy_to
            ? 0.0
            : std::log(o.bands.healthy_to / level) / std::log(1.0 + o.monthly_growth);
  return f;
}

/// "in 7 months" (whole months, rounded down), "in 1 month", or "within a month".
inline std::string in_months(double months) {
  const long long whole = static_cast<long long>(std::floor(months));
  if (whole < 1) return "within a month";
  return "in " + std::to_string(whole) + " month" + (whole > 1 ? "s" : "");
}

inline void add_advice(usage_report& r, advice_rule rule, std::string text) {
  r.advice.push_back(std::move(text));
  r.advice_rules.push_back(rule);
}

/// How the busy GPUs run, quoted by the rebalance, scale-out and add-capacity lines:
/// "the 6 busy GPUs spend 50% of their time above 90% (50% above 95%, p95 97%)".
inline std::string busy_figures(const usage_findings& f, const utilization_bands& b) {
  return "the " + std::to_string(f.busy) + " busy GPU" + (f.busy == 1 ? " spends " : "s spend ") +
         usage_pct(f.busy_bands.b90_95 + f.busy_bands.over_95) + " of " +
         (f.busy == 1 ? "its" : "their") + " time above " + usage_pct(b.healthy_to) + " (" +
         usage_pct(f.busy_bands.over_95) + " above " + usage_pct(b.overload_above) + ", p95 " +
         usage_pct(f.busy_p95) + ")";
}

/// Over-provisioned: release the idle GPUs (the busy ones have headroom), consolidate a fleet
/// that averages below the waste edge.
inline void advise_fewer(usage_report& r, const usage_options& o) {
  const usage_findings& f = r.findings;
  if (f.verdict != fleet_verdict::over_provisioned) return;
  const gpu_usage& fl = r.fleet;
  const bool growth_soon = f.months_to_band_top < o.release_horizon_months;
  std::string ids;
  for (const gpu_usage& u : r.gpus)
    if (u.idle) ids += (ids.empty() ? "" : ", ") + u.id + " (" + usage_pct(u.mean) + ")";
  const std::size_t n = f.idle.size();
  if (!f.idle.empty() && growth_soon) {
    add_advice(r, advice_rule::keep_for_growth,
               std::to_string(n) + " idle GPU" + (n > 1 ? "s" : "") + " (mean below " +
                   usage_pct(o.idle_below) + "): " + ids + ". Keep " + (n > 1 ? "them" : "it") +
                   " for growth: at " + usage_pct(o.monthly_growth) +
                   " a month the busy GPUs' p95 (" + usage_pct(f.busy_p95) + ") reaches " +
                   usage_pct(o.bands.healthy_to) + " " + in_months(f.months_to_band_top) +
                   ", sooner than GPUs come back (" +
                   std::to_string(static_cast<long long>(std::llround(o.release_horizon_months))) +
                   " months); move work onto " + (n > 1 ? "them" : "it") + " as it grows.");
    return;
  }
  if (!f.idle.empty()) {
    add_advice(r, advice_rule::release_idle,
               std::to_string(n) + " idle GPU" + (n > 1 ? "s" : "") + " (mean below " +
                   usage_pct(o.idle_below) + "): " + ids + ". Release " +
                   (n > 1 ? "them" : "it") + ": " +
                   (f.busy > 0 ? "the " + std::to_string(f.busy) + " busy GPU" +
                                     (f.busy > 1 ? "s have" : " has") + " headroom (p95 " +
                                     usage_pct(f.busy_p95) + ", at most " +
                                     usage_pct(o.bands.healthy_to) + ")."
                               : std::string("no GPU of the fleet is busy.")));
  }
  if (fl.mean < o.bands.waste_below && r.gpus.size() > 1 && !growth_soon) {
    const double needed_exact = fl.peak * static_cast<double>(r.gpus.size()) / o.consolidate_to;
    const long long needed = std::max<long long>(1, static_cast<long long>(std::ceil(needed_exact)));
    add_advice(r, advice_rule::consolidate,
               "Consolidate: the fleet averages " + usage_pct(fl.mean) + " and peaks at " +
                   usage_pct(fl.peak) + "; its peak work fits on " + std::to_string(needed) +
                   " of the " + std::to_string(r.gpus.size()) + " GPUs at " +
                   usage_pct(o.consolidate_to) + ".");
  }
}

/// How an under-used GPU can be shared: the smallest MIG slice of the known GPU smaller than the
/// whole GPU that holds its peak memory (share_mig), or time-slicing only (share_time_slicing)
/// with the reason MIG is out.
inline std::pair<advice_rule, std::string> share_for(const gpu_usage& u, const usage_options& o) {
  const std::string head = "GPU " + u.id + " is below " + usage_pct(o.bands.waste_below) + " for " +
                           usage_pct(u.bands.under_30) + " of the time (p95 " + usage_pct(u.p95) +
                           "): share it";
  const std::string slicing = " by time-slicing only (not isolated)";
  if (!u.has_memory)
    return {advice_rule::share_time_slicing,
            head + slicing + "; MIG not checked: the files have no memory readings."};
  const std::string peak = usage_gib(u.memory_peak);
  if (!o.gpu)
    return {advice_rule::share_time_slicing,
            head + slicing + "; MIG not checked: name the GPU model (--gpu) to test its " + peak +
                " peak memory against the MIG slices."};
  const gpu_spec& g = *o.gpu;
  const std::string gname(g.name.view());
  const array_view<mig_profile> profiles = catalog::mig_profiles(g);
  if (profiles.empty())
    return {advice_rule::share_time_slicing, head + slicing + "; the " + gname + " has no MIG."};
  const mig_profile* best = nullptr;
  const mig_profile* largest = nullptr;  // the largest slice smaller than the whole GPU
  for (const mig_profile& p : profiles) {
    if (p.memory_eighths >= 8) continue;
    if (largest == nullptr || p.memory_eighths > largest->memory_eighths ||
        (p.memory_eighths == largest->memory_eighths && p.compute_slices > largest->compute_slices))
      largest = &p;
    if (g.memory * p.memory_share() < u.memory_peak) continue;
    if (best == nullptr || p.memory_eighths < best->memory_eighths ||
        (p.memory_eighths == best->memory_eighths && p.compute_slices < best->compute_slices))
      best = &p;
  }
  if (best != nullptr)
    return {advice_rule::share_mig,
            head + " with MIG (isolated): the smallest slice that holds its " + peak +
                " peak memory is " + std::string(best->name.view()) + " (" +
                usage_gib(g.memory * best->memory_share()) + " of the " + gname + "'s " +
                usage_gib(g.memory) + "), or by time-slicing (not isolated)."};
  std::string why = "; its " + peak + " peak memory fits no MIG slice smaller than the whole " +
                    gname;
  if (largest != nullptr)
    why += " (the largest, " + std::string(largest->name.view()) + ", has " +
           usage_gib(g.memory * largest->memory_share()) + ")";
  if (u.memory_peak < g.memory)
    why += "; time-sliced work must fit in the " + usage_gib(g.memory - u.memory_peak) + " left.";
  else
    why += "; it is above the " + gname + "'s " + usage_gib(g.memory) +
           ": is that the GPU monitored?";
  return {advice_rule::share_time_slicing, head + slicing + why};
}

/// Over-provisioned: share each under-used GPU (share_for).
inline void advise_sharing(usage_report& r, const usage_options& o) {
  if (r.findings.verdict != fleet_verdict::over_provisioned) return;
  for (const gpu_usage& u : r.gpus) {
    if (!under_used(u, o)) continue;
    auto [rule, text] = share_for(u, o);
    add_advice(r, rule, std::move(text));
  }
}

/// Unbalanced: move work onto the idle and under-used GPUs before releasing or adding any.
/// Saturated: scale out.
inline void advise_load(usage_report& r, const usage_options& o) {
  const usage_findings& f = r.findings;
  if (f.verdict == fleet_verdict::unbalanced) {
    std::string onto;
    if (!f.idle.empty())
      onto += "the idle GPU" + std::string(f.idle.size() > 1 ? "s " : " ") + id_list(f.idle);
    if (!f.under_used.empty())
      onto += (onto.empty() ? "the under-used GPU" : " and the under-used GPU") +
              std::string(f.under_used.size() > 1 ? "s " : " ") + id_list(f.under_used) +
              " (below " + usage_pct(o.bands.waste_below) + " at least " +
              usage_pct(o.under_used_share) + " of the time)";
    const std::string busy = busy_figures(f, o.bands);
    add_advice(r, advice_rule::rebalance,
               "Move work onto " + onto + " first: " + busy + "; spread over all " +
                   std::to_string(r.gpus.size()) + " GPUs the fleet's work averages " +
                   usage_pct(r.fleet.mean) + ". Neither release nor add GPUs before that.");
  }
  if (f.verdict == fleet_verdict::saturated)
    add_advice(r, advice_rule::scale_out,
               "Scale out: " + busy_figures(f, o.bands) +
                   " and no GPU is idle or under-used to take work; queues grow there. Add GPUs "
                   "or shed load.");
}

/// Growth: add capacity now when the busy GPUs are already above the healthy band and no GPU is
/// spare (saturated, or healthy with a p95 above the band); otherwise the month the fleet reaches
/// the band's top: its p95, or for an unbalanced fleet its mean (the work spread over every GPU).
inline void advise_growth(usage_report& r, const usage_options& o) {
  const usage_findings& f = r.findings;
  const utilization_bands& b = o.bands;
  if (!(o.monthly_growth > 0)) return;
  const std::string growth = usage_pct(o.monthly_growth);
  if (f.verdict == fleet_verdict::saturated ||
      (f.verdict == fleet_verdict::healthy && f.busy_without_headroom)) {
    add_advice(r, advice_rule::add_capacity_now,
               "Add capacity now: " + busy_figures(f, b) + ", none of the fleet's GPUs is spare, "
               "and demand grows " + growth + " a month.");
    return;
  }
  if (!std::isfinite(f.months_to_band_top)) return;  // no load to grow
  const bool unbalanced = f.verdict == fleet_verdict::unbalanced;
  const std::string what =
      unbalanced ? "the fleet's mean (" + usage_pct(r.fleet.mean) + "), spread over all " +
                       std::to_string(r.gpus.size()) + " GPUs,"
                 : "the busy GPUs' p95 (" + usage_pct(f.busy_p95) + ")";
  add_advice(r, advice_rule::growth_horizon,
             "At " + growth + " growth a month " + what + " reaches " + usage_pct(b.healthy_to) +
                 " " + in_months(f.months_to_band_top) + ": add capacity before then.");
}

/// The advice, in plain words, each line a rule of the one analysis (r.findings): fewer GPUs
/// (over-provisioned), sharing, moving work or scaling out, growth; or that none is needed.
inline void advise(usage_report& r, const usage_options& o) {
  advise_fewer(r, o);
  advise_sharing(r, o);
  advise_load(r, o);
  advise_growth(r, o);
  if (!r.advice.empty()) return;
  const usage_findings& f = r.findings;
  if (f.busy_without_headroom)
    add_advice(r, advice_rule::no_change,
               "The fleet runs busy but below the scale-out thresholds: " + busy_figures(f, o.bands) +
                   "; scale out past " + usage_pct(o.scale_out_hot_share) + " above " +
                   usage_pct(o.bands.healthy_to) + " or " + usage_pct(o.scale_out_overload_share) +
                   " above " + usage_pct(o.bands.overload_above) + ". No change needed now.");
  else
    add_advice(r, advice_rule::no_change,
               "The fleet runs in the healthy band: mean " + usage_pct(r.fleet.mean) + ", p95 " +
                   usage_pct(r.fleet.p95) + ". No change needed.");
}

}  // namespace detail

// ---- the analysis --------------------------------------------------------------------------------

/// Time-weighted utilisation per GPU and for the fleet, band shares, memory, power, idle GPUs
/// and advice. Readings of one GPU at one time (several files of one host) are merged first
/// (merge_same_time) and counted in each GPU's `duplicates`. Throws invalid_input when there are
/// no samples or the options are out of range.
inline usage_report analyze_usage(std::vector<gpu_sample> samples, const usage_options& o = {}) {
  o.bands.validate();
  detail::check_input(!samples.empty(), "utilization: no samples to analyse");
  detail::check_input(o.gap_factor > 0.0 && o.idle_below >= 0.0 && o.consolidate_to > 0.0,
                      "usage_options: gap_factor and consolidate_to must be positive, idle_below "
                      "not negative");
  detail::check_input(o.under_used_share > 0.0 && o.under_used_share <= 1.0,
                      "usage_options.under_used_share must be in (0, 1]", o.under_used_share);
  // NaN compared false and released the GPUs, and the advice printed llround(NaN) months
  detail::check_input(o.release_horizon_months >= 0.0 && o.release_horizon_months <= 1200.0,
                      "usage_options.release_horizon_months must be in [0, 1200] (a century)",
                      o.release_horizon_months);
  // What the io readers check of each row, checked again for a caller that builds samples itself:
  // a NaN time breaks the sort's ordering, and a utilisation in percent (87 for 0.87) would fall
  // in the top band without a word.
  for (const gpu_sample& s : samples) {
    detail::check_input(std::isfinite(s.time), "gpu_sample.time must be finite (seconds since "
                                                "the Unix epoch)", s.time);
    detail::check_input(s.utilization >= 0.0 && s.utilization <= 1.0,
                        "gpu_sample.utilization must be a fraction in 0..1 (not a percent)",
                        s.utilization);
  }
  std::stable_sort(samples.begin(), samples.end(), [](const gpu_sample& a, const gpu_sample& b) {
    return a.gpu != b.gpu ? a.gpu < b.gpu : a.time < b.time;
  });
  usage_report r;
  r.bands = o.bands;
  r.start_time = samples.front().time;
  r.end_time = samples.front().time;
  std::vector<std::vector<detail::usage_interval>> per_gpu;
  std::vector<detail::usage_interval> throughput;  // every GPU's, for the fleet's peak
  std::vector<detail::weighted> pooled;
  std::vector<detail::weighted> busy_pooled;  // the GPUs neither idle nor under-used
  band_shares pooled_bands;
  double pooled_total = 0, pooled_sum = 0;
  for (std::size_t i = 0; i < samples.size();) {
    std::size_t j = i;
    while (j < samples.size() && samples[j].gpu == samples[i].gpu) ++j;
    std::vector<gpu_sample> g(samples.begin() + static_cast<std::ptrdiff_t>(i),
                              samples.begin() + static_cast<std::ptrdiff_t>(j));
    i = j;
    const int duplicates = merge_same_time(g);
    detail::gpu_timeline t;
    gpu_usage u = detail::analyze_gpu(g, o, t);
    u.duplicates = duplicates;
    const double total = t.weight;
    pooled.insert(pooled.end(), t.utilization.begin(), t.utilization.end());
    if (!u.idle && !detail::under_used(u, o))
      busy_pooled.insert(busy_pooled.end(), t.utilization.begin(), t.utilization.end());
    throughput.insert(throughput.end(), t.throughput.begin(), t.throughput.end());
    pooled_total += total;
    pooled_sum += t.weighted_sum;
    pooled_bands.under_30 += u.bands.under_30 * total;
    pooled_bands.b30_70 += u.bands.b30_70 * total;
    pooled_bands.b70_90 += u.bands.b70_90 * total;
    pooled_bands.b90_95 += u.bands.b90_95 * total;
    pooled_bands.over_95 += u.bands.over_95 * total;
    r.start_time = std::min(r.start_time, t.first);
    r.end_time = std::max(r.end_time, t.last);
    r.gpus.push_back(std::move(u));
    per_gpu.push_back(std::move(t.spans));
  }
  gpu_usage& f = r.fleet;
  detail::add_fleet_totals(f, r.gpus);
  f.mean = pooled_total > 0 ? pooled_sum / pooled_total : 0;
  f.p95 = detail::weighted_quantile(pooled, 0.95);
  f.bands = pooled_bands;
  detail::normalise(f.bands, pooled_total);
  f.peak = detail::fleet_peak_utilization(per_gpu);
  f.peak_to_average = f.mean > 0 ? f.peak / f.mean : 0;
  f.throughput_peak = detail::fleet_peak_throughput(throughput);
  r.findings = detail::findings_of(r.gpus, r.fleet, busy_pooled, o);
  detail::advise(r, o);
  return r;
}

}  // namespace gpuplan
