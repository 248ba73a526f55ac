// gpuplan/plan/utilization.hpp: how a fleet of GPUs actually ran, from monitoring samples:
// time-weighted utilisation per GPU and for the fleet, the time in each utilisation band
// (models/utilization_bands.hpp), memory, power and throughput, idle GPUs, and advice in plain
// words. The report `gpuplan utilization` prints is one call: analyze_usage(samples, options).
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

#include <gpuplan/models/utilization_bands.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/units.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
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
};

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

struct usage_report {
  std::vector<gpu_usage> gpus;
  /// The fleet: mean, p95 and bands over all GPU-time pooled; peak = the highest fleet-average
  /// utilisation at any moment (GPUs reporting at that time), the figure to size for.
  gpu_usage fleet;
  std::vector<std::string> advice;
  double start_time = 0, end_time = 0;  ///< Unix seconds
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

/// Advice on idle GPUs, and on consolidating a fleet that averages below the waste edge.
inline void advise_idle(usage_report& r, const usage_options& o) {
  const gpu_usage& f = r.fleet;
  int idle = 0;
  std::string ids;
  for (const gpu_usage& u : r.gpus)
    if (u.idle) {
      ++idle;
      ids += (ids.empty() ? "" : ", ") + u.id;
    }
  if (idle > 0)
    r.advice.push_back(std::to_string(idle) + " idle GPU" + (idle > 1 ? "s" : "") +
                       " (mean below " + usage_pct(o.idle_below) + "): " + ids +
                       ". Release them or move work onto them.");
  const double gpu_count = static_cast<double>(r.gpus.size());
  if (f.mean < o.bands.waste_below && r.gpus.size() > 1) {
    const double needed_exact = f.peak * gpu_count / o.consolidate_to;
    const long long needed = std::max<long long>(1, static_cast<long long>(std::ceil(needed_exact)));
    r.advice.push_back("Consolidate: the fleet averages " + usage_pct(f.mean) + " and peaks at " +
                       usage_pct(f.peak) + "; its peak work fits on " + std::to_string(needed) +
                       " of the " + std::to_string(r.gpus.size()) + " GPUs at " +
                       usage_pct(o.consolidate_to) + ".");
  }
}

/// Advice to share the GPUs that stay below the waste edge 95% of the time.
inline void advise_sharing(usage_report& r, const usage_options& o) {
  const utilization_bands& b = o.bands;
  for (const gpu_usage& u : r.gpus) {
    if (u.idle || !(u.p95 < b.waste_below)) continue;
    r.advice.push_back(
        "GPU " + u.id + " stays below " + usage_pct(b.waste_below) + " 95% of the time (p95 " +
        usage_pct(u.p95) + "): share it, with MIG slices (isolated) or time-slicing (not isolated)" +
        (u.has_memory ? ", if its work fits in a slice's memory (peak " +
                            std::to_string(std::llround(u.memory_peak.in(units::GiB))) + " GiB)"
                      : std::string()) +
        ".");
  }
}

/// Advice on a hot fleet (scale out) and on when growth takes its p95 past the healthy band.
inline void advise_headroom(usage_report& r, const usage_options& o) {
  const utilization_bands& b = o.bands;
  const gpu_usage& f = r.fleet;
  const double hot = f.bands.b90_95 + f.bands.over_95;
  if (f.bands.over_95 > o.scale_out_overload_share || hot > o.scale_out_hot_share)
    r.advice.push_back("Scale out: the fleet spends " + usage_pct(hot) + " of its time above " +
                       usage_pct(b.healthy_to) + " (" + usage_pct(f.bands.over_95) + " above " +
                       usage_pct(b.overload_above) + "); queues grow there. Add GPUs or shed load.");
  if (!(o.monthly_growth > 0 && f.p95 > 0)) return;
  if (f.p95 > b.healthy_to) {
    r.advice.push_back("Add capacity now: the fleet's p95 (" + usage_pct(f.p95) +
                       ") is already above the healthy band and demand grows " +
                       usage_pct(o.monthly_growth) + " a month.");
    return;
  }
  const double months = std::log(b.healthy_to / f.p95) / std::log(1.0 + o.monthly_growth);
  r.advice.push_back("At " + usage_pct(o.monthly_growth) + " growth a month the fleet's p95 (" +
                     usage_pct(f.p95) + ") reaches " + usage_pct(b.healthy_to) + " in " +
                     std::to_string(static_cast<long long>(std::floor(months))) +
                     " months: add capacity before then.");
}

/// The advice, in plain words: idle GPUs, consolidation, sharing, headroom; or that none is
/// needed.
inline void advise(usage_report& r, const usage_options& o) {
  advise_idle(r, o);
  advise_sharing(r, o);
  advise_headroom(r, o);
  if (r.advice.empty())
    r.advice.push_back("The fleet runs in the healthy band: mean " + usage_pct(r.fleet.mean) +
                       ", p95 " + usage_pct(r.fleet.p95) + ". No change needed.");
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
  r.start_time = samples.front().time;
  r.end_time = samples.front().time;
  std::vector<std::vector<detail::usage_interval>> per_gpu;
  std::vector<detail::usage_interval> throughput;  // every GPU's, for the fleet's peak
  std::vector<detail::weighted> pooled;
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
  detail::advise(r, o);
  return r;
}

}  // namespace gpuplan
