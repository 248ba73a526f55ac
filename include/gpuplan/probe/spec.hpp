// gpuplan/probe/spec.hpp: turn a probed device into a gpu_spec the models accept.
//
// Two paths, and the result says which one each field took:
//  1. Catalog match. The driver's name is looked up in the catalog (the entries carry the
//     driver's names as aliases: "NVIDIA H100 80GB HBM3" is H100-SXM5-80GB), then without the
//     vendor word ("NVIDIA H100 PCIe" -> "H100 PCIe"), then by family ("H100") among entries of
//     the form factor the name states, choosing the entry whose capacity is nearest the measured
//     memory. An entry is accepted only if its SM count equals the measured one and its capacity
//     is within spec_options::memory_match_tolerance of the measured memory, so a 40 GB part never
//     takes an 80 GB entry. Peak FLOP/s, TDP, links and form factor then come from the catalog.
//  2. Estimate. With no acceptable entry, the peak rates are estimated from the architecture
//     (compute capability), SM count and max SM clock: peak = SMs x clock x dense FLOP per SM per
//     clock, the last taken from NVIDIA's architecture whitepapers (table below).
// In both paths memory capacity, usable memory and DRAM bandwidth come from the measurement.
#pragma once

#include <gpuplan/catalog.hpp>
#include <gpuplan/probe/result.hpp>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/units.hpp>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::probe {

// ---- per-SM throughput by architecture ----------------------------------------------------------

/// Dense multiply-adds (FMA) per SM per clock, per math path, as NVIDIA's architecture whitepapers
/// tabulate them (one FMA = 2 FLOP; int8 counts 2 operations per multiply-add likewise). Zero: the
/// path does not exist on the architecture, or no cited figure.
struct sm_throughput {
  int cc_major = 0;
  int cc_minor = 0;
  std::string_view architecture;  ///< "Hopper"
  double fp64_vector = 0;
  double fp64_tensor = 0;
  double fp32_vector = 0;
  double tf32_tensor = 0;
  double bf16_tensor = 0;  ///< with FP32 accumulate
  double fp16_tensor = 0;  ///< with FP32 accumulate
  double fp8_tensor = 0;
  double int8_tensor = 0;
};

/// FMA per SM per clock. Each row reproduces its reference datasheet as SMs x boost clock x 2 x
/// FMA (the test suite checks these products):
///  - 7.0 Volta GV100: Tesla V100 whitepaper (2017): 64 FP32, 32 FP64 cores and 8 tensor cores of
///    64 FP16 FMA per SM. V100 SXM2, 80 SMs at 1530 MHz: 15.7 FP32, 7.8 FP64, 125 tensor TFLOPS.
///  - 7.5 Turing: Turing architecture whitepaper (2018): 64 FP32 cores, 2 FP64 units, 8 tensor
///    cores of 64 FP16 FMA (128 INT8) per SM. T4, 40 SMs at 1590 MHz: 8.1 FP32, 65 FP16, 130 INT8.
///  - 8.0 Ampere GA100: A100 whitepaper (2020), Tables 1-2: 1024 dense FP16/BF16 FMA per SM per
///    clock (4 tensor cores x 256). A100, 108 SMs at 1410 MHz: 312 BF16, 156 TF32, 19.5 FP64
///    tensor, 9.7 FP64, 19.5 FP32, 624 INT8.
///  - 8.6 Ampere GA10x: GA102 whitepaper (2021): 128 FP32 cores, 2 FP64 units, 4 tensor cores of
///    128 FP16 FMA per SM (FP32 accumulate at full rate on the data-centre parts; GeForce halves
///    it). A10, 72 SMs at 1695 MHz: 31.2 FP32, 62.5 TF32, 125 BF16, 250 INT8.
///  - 8.9 Ada: Ada architecture whitepaper (2023), Appendix: as GA10x plus FP8 at 2x FP16.
///    L4, 58 SMs at 2040 MHz: 30.3 FP32, 121 BF16, 242 FP8.
///  - 9.0 Hopper GH100: H100 whitepaper (2022), Table 2 (per SM per clock, dense): 2048 FP16/BF16,
///    1024 TF32, 4096 FP8, 4096 INT8, 128 FP64 tensor FMA; 128 FP32 and 64 FP64 cores.
///    The H100 datasheet's vector figures use the 1980 MHz max boost (132 SMs: 67 FP32, 34 FP64)
///    but its tensor figures correspond to 1830 MHz (989 BF16), so an estimate from the max clock
///    reads tensor rates 8.2% above the datasheet on H100 SXM.
/// Not tabulated (no per-SM figure cited here): Pascal and older, 8.7 (Orin), Blackwell (10.x,
/// 12.x). For those the estimate leaves the rates unavailable and says so.
inline constexpr sm_throughput sm_throughput_table[] = {
    {7, 0, "Volta", 32, 0, 64, 0, 0, 512, 0, 0},
    {7, 5, "Turing", 2, 0, 64, 0, 0, 512, 0, 1024},
    {8, 0, "Ampere", 32, 64, 64, 512, 1024, 1024, 0, 2048},
    {8, 6, "Ampere", 2, 0, 128, 256, 512, 512, 0, 1024},
    {8, 9, "Ada", 2, 0, 128, 256, 512, 512, 1024, 1024},
    {9, 0, "Hopper", 64, 128, 128, 1024, 2048, 2048, 4096, 4096},
};

/// The table row for compute capability major.minor, or nullptr.
constexpr const sm_throughput* find_sm_throughput(int major, int minor) {
  for (const sm_throughput& t : sm_throughput_table)
    if (t.cc_major == major && t.cc_minor == minor) return &t;
  return nullptr;
}

/// The architecture's name by compute capability major ("Hopper" for 9); empty if unknown.
constexpr std::string_view architecture_name(int major, int minor) {
  switch (major) {
    case 6: return "Pascal";
    case 7: return minor >= 5 ? "Turing" : "Volta";
    case 8: return minor == 9 ? "Ada" : "Ampere";
    case 9: return "Hopper";
    case 10:
    case 12: return "Blackwell";
    default: return {};
  }
}

/// Dense peak rates of a GPU with `sms` SMs of architecture `t` at SM clock `clock`.
constexpr peak_rates estimate_peak_rates(const sm_throughput& t, int sms, frequency clock) {
  constexpr double flop_per_fma = 2.0;
  const double per_clock = flop_per_fma * sms;
  auto rate = [&](double fma) { return fma * per_clock * clock.value * units::FLOPS; };
  peak_rates p;
  p.fp64_vector = rate(t.fp64_vector);
  p.fp64_tensor = rate(t.fp64_tensor);
  p.fp32_vector = rate(t.fp32_vector);
  p.tf32_tensor = rate(t.tf32_tensor);
  p.bf16_tensor = rate(t.bf16_tensor);
  p.fp16_tensor = rate(t.fp16_tensor);
  p.fp8_tensor = rate(t.fp8_tensor);
  p.int8_tensor = rate(t.int8_tensor);
  // Structured (2:4) sparsity doubles tensor math from Ampere on (A100 whitepaper); never folded
  // into the dense rates above.
  p.sparsity_factor = t.cc_major >= 8 ? 2.0 : 1.0;
  return p;
}

/// Per-direction bandwidth of one NVLink by generation, for an estimated link_spec: NVLink 2
/// (Volta, 6 links = 300 GB/s), 3 (A100, 12 links = 600 GB/s) and 4 (H100, 18 links = 900 GB/s)
/// all carry 50 GB/s bidirectional, 25 GB/s each way, per link (V100, A100, H100 datasheets).
/// Zero where not cited (Blackwell's NVLink 5 is left to the catalog).
constexpr bandwidth nvlink_per_link_per_direction(int cc_major) {
  return (cc_major >= 7 && cc_major <= 9) ? 25 * units::GBps : 0 * units::GBps;
}

// ---- mapping ------------------------------------------------------------------------------------

struct spec_options {
  /// Look the device up in the catalog at all (off: always estimate).
  bool use_catalog = true;
  /// Largest relative gap between the measured memory and a catalog entry's capacity for the
  /// entry to match. Drivers report a little less than the nominal capacity: H100 SXM 81559 MiB
  /// in nvidia-smi of 81920 MiB (0.4%), 81089 MiB to CUDA (1.0%); GDDR6 parts with ECC on lose a
  /// further 6.25% to ECC. 0.10 accepts all of those and still tells 40 GB from 80 GB parts.
  double memory_match_tolerance = 0.10;

  /// Throws gpuplan::invalid_input naming the field if an option is out of range.
  void validate() const {
    detail::check_input(memory_match_tolerance >= 0.0 && memory_match_tolerance < 1.0,
                        "spec_options.memory_match_tolerance must be at least 0 and below 1 (a "
                        "fraction)",
                        memory_match_tolerance);
  }
};

/// The gpu_spec fields the probe fills: X(name), as gpu_spec names them.
#define GPUPLAN_DETAIL_SPEC_FIELDS(X)                                                             \
  X(name) X(architecture) X(form) X(memory) X(memory_usable) X(memory_type) X(memory_bandwidth) \
  X(peak) X(tdp) X(gpu_link) X(pcie) X(sm_count) X(boost_clock) X(compute_capability)

/// Where each gpu_spec field came from.
struct spec_provenance {
#define GPUPLAN_DETAIL_MEMBER(field) provenance field = provenance::unavailable;
  GPUPLAN_DETAIL_SPEC_FIELDS(GPUPLAN_DETAIL_MEMBER)
#undef GPUPLAN_DETAIL_MEMBER
};

/// Calls f(name, provenance) for every field of spec_provenance, named as the gpu_spec fields.
template <class F>
void visit_fields(const spec_provenance& p, F&& f) {
#define GPUPLAN_DETAIL_VISIT(field) f(#field, p.field);
  GPUPLAN_DETAIL_SPEC_FIELDS(GPUPLAN_DETAIL_VISIT)
#undef GPUPLAN_DETAIL_VISIT
}

/// A gpu_spec built from a probed device, with the provenance of each field.
struct gpu_spec_with_provenance {
  gpu_spec spec{};
  spec_provenance source{};
  const gpu_spec* catalog_entry = nullptr;  ///< the matched catalog entry, or nullptr
  /// How the spec was built: the match or why none was taken, what was estimated, what is missing.
  std::vector<std::string> notes;
  /// Empty if spec.validate() accepts the spec (the models can use it), else validate()'s message
  /// ("gpu_spec.memory_bandwidth must be positive and finite" when no memory clock was read).
  std::string invalid_reason;

  [[nodiscard]] bool matched() const { return catalog_entry != nullptr; }
  [[nodiscard]] bool usable() const { return invalid_reason.empty(); }
};

namespace detail {

/// Whether `hay` contains `needle`, ignoring ASCII case.
constexpr bool contains_nocase(std::string_view hay, std::string_view needle) {
  if (needle.size() > hay.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i)
    if (same_ignoring_case(hay.substr(i, needle.size()), needle)) return true;
  return false;
}

/// The driver's name without the vendor and brand words ("NVIDIA", "Tesla", "GeForce",
/// "Quadro") at its start: "NVIDIA H100 80GB HBM3" -> "H100 80GB HBM3".
constexpr std::string_view strip_brand(std::string_view s) {
  constexpr std::string_view words[] = {"NVIDIA ", "Tesla ", "GeForce ", "Quadro "};
  bool again = true;
  while (again) {
    again = false;
    for (std::string_view w : words) {
      if (s.size() >= w.size() && contains_nocase(s.substr(0, w.size()), w)) {
        s.remove_prefix(w.size());
        again = true;
      }
    }
  }
  return s;
}

/// The family token: the stripped name up to its first space or '-' ("A100-SXM4-80GB" -> "A100").
constexpr std::string_view family(std::string_view stripped) {
  const std::size_t end = stripped.find_first_of(" -_");
  return end == std::string_view::npos ? stripped : stripped.substr(0, end);
}

/// Whether catalog name `n` is of family `fam`: starts with it, followed by a separator or end.
constexpr bool of_family(std::string_view n, std::string_view fam) {
  if (fam.empty() || n.size() < fam.size()) return false;
  if (!contains_nocase(n.substr(0, fam.size()), fam)) return false;
  return n.size() == fam.size() || n[fam.size()] == '-' || n[fam.size()] == ' ' ||
         n[fam.size()] == '_';
}

/// The form factor a driver name states, if any.
constexpr bool stated_form(std::string_view name, form_factor& out) {
  if (contains_nocase(name, "pcie")) {
    out = form_factor::pcie;
    return true;
  }
  if (contains_nocase(name, "sxm")) {
    out = form_factor::sxm;
    return true;
  }
  if (contains_nocase(name, " nvl")) {
    out = form_factor::nvl;
    return true;
  }
  return false;
}

/// Memory to compare against a catalog capacity: NVML's total (closest to the physical size),
/// else the CUDA total.
inline probed<data_size> comparable_memory(const device_info& d) {
  return d.memory_total_nvml.known() ? d.memory_total_nvml : d.memory_total;
}

inline std::string fmt_num(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  const long long r = std::llround(v * scale);
  std::string s = std::to_string(r / static_cast<long long>(scale));
  if (decimals > 0) {
    std::string frac = std::to_string(std::llabs(r % static_cast<long long>(scale)));
    while (frac.size() < static_cast<std::size_t>(decimals)) frac.insert(0, "0");
    s += "." + frac;
  }
  return s;
}

/// Why entry e does not fit device d, or an empty string if it does.
inline std::string mismatch(const gpu_spec& e, const device_info& d, const spec_options& o) {
  if (e.sm_count > 0 && d.sm_count.known() && d.sm_count.value != e.sm_count)
    return std::string(e.name.view()) + " has " + std::to_string(e.sm_count) + " SMs, " +
           std::to_string(d.sm_count.value) + " measured";
  const probed<data_size> m = comparable_memory(d);
  if (e.memory.value > 0 && m.known()) {
    const double gap = std::fabs(m.value.value - e.memory.value) / e.memory.value;
    if (gap > o.memory_match_tolerance)
      return std::string(e.name.view()) + " has " + fmt_num(e.memory.in(units::GiB), 1) +
             " GiB, " + fmt_num(m.value.in(units::GiB), 1) + " GiB measured";
  }
  return {};
}

/// The catalog entry for d, or nullptr; notes say what was tried.
inline const gpu_spec* match_catalog(const device_info& d, const spec_options& o,
                                     std::vector<std::string>& notes) {
  if (!d.name.known()) {
    notes.push_back("no device name, so no catalog lookup");
    return nullptr;
  }
  const std::string_view full = d.name.value;
  const std::string_view stripped = strip_brand(full);

  // 1-2: the name as the driver gives it, then without the brand words.
  for (std::string_view query : {full, stripped}) {
    if (const gpu_spec* e = catalog::find_gpu(query)) {
      const std::string why = mismatch(*e, d, o);
      if (why.empty()) return e;
      notes.push_back("catalog entry " + std::string(e->name.view()) + " named by \"" +
                      std::string(query) + "\" rejected: " + why);
    }
  }

  // 3: by family and stated form factor, nearest capacity first.
  const std::string_view fam = family(stripped);
  form_factor form{};
  const bool has_form = stated_form(stripped, form);
  const probed<data_size> m = comparable_memory(d);
  const gpu_spec* best = nullptr;
  double best_gap = 0;
  for (const gpu_spec& e : catalog::all_gpus) {
    if (e.maker != vendor::nvidia || !of_family(e.name.view(), fam)) continue;
    if (has_form && e.form != form) continue;
    if (!mismatch(e, d, o).empty()) continue;
    const double gap =
        m.known() ? std::fabs(m.value.value - e.memory.value) / e.memory.value : 0.0;
    if (best == nullptr || gap < best_gap) {
      best = &e;
      best_gap = gap;
    }
  }
  if (best != nullptr)
    notes.push_back("catalog entry " + std::string(best->name.view()) + " chosen by family \"" +
                    std::string(fam) + "\", SM count and memory size");
  return best;
}

/// A measured memory bandwidth this far (relative) from the catalog entry's gets a note: the
/// datasheets give bandwidth to two or three significant digits, so 5% is past their rounding and
/// points at another memory configuration or a wrong match. A judgement, not a measurement.
inline constexpr double bandwidth_note_threshold = 0.05;

/// to_gpu_spec for a device no catalog entry matches: every field estimated from what the device
/// reports (name, compute capability, SMs and clock, power limit, links, memory).
inline void estimate_from_device(const device_info& d, gpu_spec_with_provenance& r) {
  gpu_spec& s = r.spec;
  spec_provenance& p = r.source;
  if (d.name.known()) {
    s.name = name_string::from(d.name.value);
    p.name = provenance::measured;
  }
  const int major = d.compute_capability_major.value_or(0);
  const int minor = d.compute_capability_minor.value_or(0);
  if (d.compute_capability_major.known()) {
    const std::string_view arch = architecture_name(major, minor);
    if (!arch.empty()) {
      s.architecture = name_string::from(arch);
      p.architecture = provenance::estimated;
    }
  }
  form_factor f{};
  if (d.name.known() && stated_form(d.name.value, f)) {
    s.form = f;
    p.form = provenance::estimated;
  } else {
    s.form = form_factor::other;
  }
  const sm_throughput* t = find_sm_throughput(major, minor);
  if (t == nullptr) {
    r.notes.push_back(
        "peak rates unavailable: no per-SM throughput table for compute capability " +
        std::to_string(major) + "." + std::to_string(minor));
  } else if (!d.sm_count.known() || !d.sm_clock_max.known()) {
    r.notes.push_back("peak rates unavailable: SM count or max SM clock not measured");
  } else {
    s.peak = estimate_peak_rates(*t, d.sm_count.value, d.sm_clock_max.value);
    p.peak = provenance::estimated;
    r.notes.push_back("peak rates estimated: " + std::to_string(d.sm_count.value) + " SMs x " +
                      fmt_num(d.sm_clock_max.value.in(units::MHz), 0) + " MHz x " +
                      std::string(t->architecture) + " FMA per SM per clock x 2");
  }
  if (d.power_limit.known()) {
    s.tdp = d.power_limit.value;
    p.tdp = provenance::measured;
  }
  if (d.nvlink_links_active.known()) {
    const bandwidth per_link = nvlink_per_link_per_direction(major);
    if (d.nvlink_links_active.value == 0) {
      s.gpu_link = {};
      p.gpu_link = provenance::measured;
    } else if (per_link.value > 0) {
      s.gpu_link = link_spec::from_unidirectional(link_kind::nvlink, d.nvlink_links_active.value,
                                                  d.nvlink_links_active.value * per_link, 0);
      p.gpu_link = provenance::estimated;
    }
  }
  if (d.pcie_generation_max.known() && d.pcie_width_max.known()) {
    pcie_spec pc{d.pcie_generation_max.value, d.pcie_width_max.value};
    bool ok = true;
    try {
      pc.validate();
    } catch (const gpuplan::invalid_input&) {
      ok = false;
    }
    if (ok) {
      s.pcie = pc;
      p.pcie = provenance::measured;
    }
  }
  const probed<data_size> m = comparable_memory(d);
  if (m.known()) {
    s.memory = m.value;
    p.memory = provenance::measured;
  }
}

/// to_gpu_spec: the measured facts (usable memory, bandwidth, SMs, clock) over the catalog's or
/// the estimate's.
inline void apply_measured(const device_info& d, gpu_spec_with_provenance& r) {
  gpu_spec& s = r.spec;
  spec_provenance& p = r.source;
  // Measured facts override the catalog where the device reports them.
  if (d.memory_total.known() && d.memory_total.value.value <= s.memory.value) {
    s.memory_usable = d.memory_total.value;
    p.memory_usable = provenance::measured;
  }
  if (d.memory_bandwidth.known()) {
    if (r.catalog_entry != nullptr) {
      const double rel = d.memory_bandwidth.value.value / r.catalog_entry->memory_bandwidth.value;
      if (std::fabs(rel - 1.0) > bandwidth_note_threshold)
        r.notes.push_back("measured memory bandwidth " +
                          fmt_num(d.memory_bandwidth.value.in(units::GBps), 0) +
                          " GB/s differs from the catalog's " +
                          fmt_num(r.catalog_entry->memory_bandwidth.in(units::GBps), 0) +
                          " GB/s by more than " + fmt_num(100.0 * bandwidth_note_threshold, 0) +
                          "%");
    }
    s.memory_bandwidth = d.memory_bandwidth.value;
    p.memory_bandwidth = provenance::derived;
  }
  if (d.sm_count.known()) {
    s.sm_count = d.sm_count.value;
    p.sm_count = provenance::measured;
  }
  if (d.sm_clock_max.known()) {
    s.boost_clock = d.sm_clock_max.value;
    p.boost_clock = provenance::measured;
  }
  if (d.compute_capability_major.known() && d.compute_capability_minor.known()) {
    s.compute_capability = {d.compute_capability_major.value, d.compute_capability_minor.value};
    p.compute_capability = provenance::measured;
  }
}

}  // namespace detail

/// The gpu_spec of a probed device: from the matching catalog entry where one exists (peak rates,
/// TDP, links), else estimated from compute capability, SM count and max SM clock. Memory
/// capacity, usable memory and bandwidth come from the measurement in both cases.
/// Throws gpuplan::invalid_input only for invalid options (spec_options::validate).
inline gpu_spec_with_provenance to_gpu_spec(const device_info& d, const spec_options& o = {}) {
  o.validate();
  gpu_spec_with_provenance r;
  gpu_spec& s = r.spec;
  spec_provenance& p = r.source;

  if (o.use_catalog) r.catalog_entry = detail::match_catalog(d, o, r.notes);

  if (const gpu_spec* e = r.catalog_entry) {
    s = *e;
    p.name = p.architecture = p.form = p.memory = p.memory_type = p.memory_bandwidth = p.peak =
        p.tdp = p.gpu_link = p.pcie = p.sm_count = p.boost_clock = p.compute_capability =
            provenance::catalog;
    p.memory_usable = e->memory_usable.value > 0 ? provenance::catalog : provenance::unavailable;
    r.notes.push_back("matched catalog entry " + std::string(e->name.view()) +
                      ": peak rates, TDP and links from the catalog");
  } else {
    detail::estimate_from_device(d, r);
  }
  detail::apply_measured(d, r);

  try {
    s.validate();
  } catch (const gpuplan::invalid_input& e) {
    r.invalid_reason = e.what();
  }
  return r;
}

}  // namespace gpuplan::probe
