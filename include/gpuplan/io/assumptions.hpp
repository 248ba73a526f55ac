// gpuplan/io/assumptions.hpp: every assumption of every model, set by name from text.
//
// The models' assumption structs (step_assumptions, serving_assumptions, memory_assumptions,
// reliability_assumptions, node_power_assumptions, embodied_assumptions,
// power_limit_assumptions) hold every number the
// models assume, each field with its default and source. An assumption_set holds one of each, and
// here each field has a name, its group and the field's own: "step.tp_overlap",
// "serving.collectives.launch", "memory.transformers.cuda_context". That is what
// `gpuplan ... --set NAME=VALUE`, a plan file's "assumptions" object and `gpuplan assumptions`
// use. The names and the documentation come from the structs' definitions
// (io/assumption_fields.hpp, generated), so a new field is settable as soon as it exists.
//
//   assumption_set a;
//   set_assumption(a, "step.tp_overlap", "1");          // a number
//   set_assumption(a, "eager_op_floor", "12us");        // a unique tail names it; units allowed
//   set_assumption(a, "step.cp_kind", "all_gather");    // an enumerator by name
//   changed_assumptions(a);                             // [{"step.tp_overlap", "1", "0"}, ...]
//
// Values: true/false for flags, integers, finite numbers, enumerators by name, and quantities as
// a number with a unit of their dimension ("10 us", "512MiB", "25 GB/s") or a bare number in the
// dimension's base unit (s, B, B/s, W). An unknown name, an ambiguous tail, or a value that does
// not parse or that the struct's validate() refuses throws io::error naming the assumption.
//
// Part of the JSON edge (target gpuplan::json, needs {fmt}); not included by the umbrella.
#pragma once

#include <gpuplan/io/assumption_fields.hpp>
#include <gpuplan/io/error.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/error.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuplan {

/// One of each assumption struct: everything the models assume for one plan.
struct assumption_set {
  step_assumptions step{};                ///< "step.": the training step's time
  serving_assumptions serving{};          ///< "serving.": serving's kernels and engine costs
  memory_assumptions memory{};            ///< "memory.": the memory models' overheads
  reliability_assumptions reliability{};  ///< "reliability.": failures and checkpoints
  node_power_assumptions energy{};        ///< "energy.": GPU and node power draw
  embodied_assumptions carbon{};          ///< "carbon.": embodied emissions
  power_limit_assumptions power_limit{};  ///< "power_limit.": clocks under a power cap

  /// Throws gpuplan::invalid_input naming the first field out of range.
  void validate() const {
    step.validate();
    serving.validate();
    memory.validate();
    reliability.validate();
    energy.validate();
    carbon.validate();
    power_limit.validate();
  }
};

namespace io {

/// One assumption as `gpuplan assumptions` lists it.
struct assumption_info {
  std::string name;     ///< "step.tp_overlap"
  std::string kind;     ///< "flag", "integer", "number", "duration" (its base unit), "one of a|b"
  std::string value;    ///< the value, exactly, as set_assumption reads it back
  std::string display;  ///< the value as the reports print it ("10 us")
  std::string doc;      ///< the field's comment: what it means and where the default comes from
  friend bool operator==(const assumption_info&, const assumption_info&) = default;
};

/// The largest magnitude, and (apart from 0) the smallest, of a number an assumption is set to,
/// in its base unit. Every default lies within 1e-8..1e10 (the shortest, an NVLink ring step of
/// 0.47 us; the largest, a lifetime of 1.9e8 s), and each struct's validate() bounds what it
/// can; beyond these, values that are each valid alone (a 1e308 s engine overhead, a 1e-308 GEMM
/// fraction) overflow the models' products and the reports' units.
inline constexpr double assumption_magnitude_limit = 1e12;

namespace detail {

/// Whether v is 0 or of a magnitude within [1 / limit, limit].
inline bool plausible_magnitude(double v) {
  const double m = v < 0 ? -v : v;
  return m == 0.0 || (m >= 1.0 / assumption_magnitude_limit && m <= assumption_magnitude_limit);
}

template <class T>
struct is_quantity : std::false_type {};
template <dimension D, class R>
struct is_quantity<quantity<D, R>> : std::true_type {};

/// A struct visit_fields knows (a nested group of assumptions).
template <class T>
concept field_group = requires(T& t) { visit_fields(t, [](std::string_view, auto&, const char*) {}); };

/// The unit a bare number of dimension D is read in: the one whose factor is 1.
template <dimension D>
std::string_view base_unit() {
  for (const auto& r : gpuplan::detail::qfmt::all_rows.r)
    if (r.dim == D && r.factor == 1.0) return r.symbol;
  return {};
}

inline std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

/// A finite double at the start of s; the rest of s after it in `rest`.
inline bool leading_number(std::string_view s, double& out, std::string_view& rest) {
  const char* end = s.data() + s.size();
  const auto r = std::from_chars(s.data(), end, out);
  if (r.ec != std::errc{} || !std::isfinite(out)) return false;
  rest = std::string_view(r.ptr, static_cast<std::size_t>(end - r.ptr));
  return true;
}

/// The value of one field as text that reads back exactly, and as reports print it.
template <class T>
void describe(const T& x, assumption_info& out) {
  if constexpr (std::is_same_v<T, bool>) {
    out.kind = "flag";
    out.value = out.display = x ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    out.kind = "integer";
    out.value = out.display = fmt::format("{}", x);
  } else if constexpr (std::is_floating_point_v<T>) {
    out.kind = "number";
    out.value = fmt::format("{}", x);
    out.display = fmt::format("{:.4g}", x);
  } else if constexpr (named_enum<T>) {
    out.kind = "one of ";
    bool first = true;
    for (const auto& e : enumerators(T{})) {
      out.kind += first ? "" : "|";
      out.kind += e.name;
      first = false;
    }
    out.value = out.display = std::string(to_string(x));
  } else if constexpr (is_quantity<T>::value) {
    const std::string_view unit = base_unit<T::dim>();
    out.kind = fmt::format("{} ({})", dimension_name(T::dim), unit.empty() ? "base unit" : unit);
    out.value = unit.empty() ? fmt::format("{}", x.value) : fmt::format("{} {}", x.value, unit);
    out.display = fmt::format("{}", x);
  } else {
    static_assert(sizeof(T) == 0, "an assumption field of a type set_assumption cannot read");
  }
}

/// Reads `text` into x; false with `why` set when it does not parse.
template <class T>
bool parse_value(std::string_view text, T& x, std::string& why) {
  const std::string t = trimmed(text);
  if constexpr (std::is_same_v<T, bool>) {
    if (t == "true" || t == "1" || t == "on" || t == "yes") return x = true, true;
    if (t == "false" || t == "0" || t == "off" || t == "no") return x = false, true;
    why = "must be true or false";
    return false;
  } else if constexpr (std::is_integral_v<T>) {
    T v{};
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size() || t.empty()) {
      why = "must be an integer";
      return false;
    }
    x = v;
    return true;
  } else if constexpr (std::is_floating_point_v<T>) {
    double v = 0;
    std::string_view rest;
    if (!leading_number(t, v, rest) || !rest.empty()) {
      why = "must be a finite number";
      return false;
    }
    if (!plausible_magnitude(v)) {
      why = fmt::format("must be 0 or of a magnitude from 1e-12 to 1e12 "
                        "(assumption_magnitude_limit)");
      return false;
    }
    x = v;
    return true;
  } else if constexpr (named_enum<T>) {
    if (parse_enum(std::string_view(t), x)) return true;
    assumption_info i;
    describe(x, i);
    why = "must be " + i.kind;
    return false;
  } else if constexpr (is_quantity<T>::value) {
    double v = 0;
    std::string_view rest;
    if (!leading_number(t, v, rest)) {
      why = "must be a finite number with a unit of " + std::string(std::string_view(dimension_name(T::dim)));
      return false;
    }
    const std::string unit = trimmed(rest);
    double factor = 1.0;
    if (!unit.empty()) {
      const auto* row = gpuplan::detail::qfmt::find_row(T::dim, unit);
      if (row == nullptr) {
        why = fmt::format("has unit '{}', which is not a unit of {}", unit,
                          dimension_name(T::dim));
        return false;
      }
      factor = row->factor;
    }
    if (!std::isfinite(v * factor)) {
      why = "must be finite";
      return false;
    }
    if (!plausible_magnitude(v * factor)) {
      why = fmt::format("must be 0 or of a magnitude from 1e-12 to 1e12 {} "
                        "(assumption_magnitude_limit)",
                        base_unit<T::dim>());
      return false;
    }
    x = T::from_base(v * factor);
    return true;
  } else {
    static_assert(sizeof(T) == 0, "an assumption field of a type set_assumption cannot read");
  }
}

/// Calls f(full_name, field, doc) for every leaf field of s, names prefixed by `path` (one
/// buffer grown and cut back, not a string per field: every report walks them all).
template <class S, class F>
void each_field(S& s, std::string& path, F& f) {
  visit_fields(s, [&](std::string_view name, auto& field, const char* doc) {
    using T = std::remove_cvref_t<decltype(field)>;
    const std::size_t n = path.size();
    path.append(name);
    if constexpr (field_group<T>) {
      path += '.';
      each_field(field, path, f);
    } else {
      f(std::as_const(path), field, doc);
    }
    path.resize(n);
  });
}

template <class F>
void each_assumption(assumption_set& a, F&& f) {
  std::string path;
  path.reserve(64);
  const auto group = [&](auto& s, std::string_view prefix) {
    path.assign(prefix);
    each_field(s, path, f);
  };
  group(a.step, "step.");
  group(a.serving, "serving.");
  group(a.memory, "memory.");
  group(a.reliability, "reliability.");
  group(a.energy, "energy.");
  group(a.carbon, "carbon.");
  group(a.power_limit, "power_limit.");
}

}  // namespace detail

/// Every assumption with its value in `a` (the defaults when a is default-constructed), its kind
/// and its documentation, in group and declaration order.
inline std::vector<assumption_info> list_assumptions(const assumption_set& a = {}) {
  assumption_set copy = a;
  std::vector<assumption_info> out;
  detail::each_assumption(copy, [&](const std::string& name, auto& field, const char* doc) {
    assumption_info i;
    i.name = name;
    i.doc = doc;
    detail::describe(field, i);
    out.push_back(std::move(i));
  });
  return out;
}

/// The full name `name` stands for: itself when it is a full name, else the one full name that
/// ends in "." + name ("tp_overlap" is "step.tp_overlap"). Throws io::error naming it when it
/// names none (with the nearest names) or several.
inline std::string assumption_name(std::string_view name) {
  const std::vector<assumption_info> all = list_assumptions();
  std::vector<std::string> tails;
  for (const assumption_info& i : all) {
    if (i.name == name) return i.name;
    if (i.name.size() > name.size() && std::string_view(i.name).ends_with(name) &&
        i.name[i.name.size() - name.size() - 1] == '.')
      tails.push_back(i.name);
  }
  if (tails.size() == 1) return tails.front();
  if (tails.size() > 1) {
    std::string list;
    for (const std::string& t : tails) list += (list.empty() ? "" : ", ") + t;
    throw error(fmt::format("assumption '{}' is ambiguous: give one of {}", name, list));
  }
  // the three nearest names, for the message
  std::vector<std::pair<int, std::string>> near;
  for (const assumption_info& i : all) {
    const std::string_view tail = std::string_view(i.name).substr(i.name.rfind('.') + 1);
    const int d = std::min(edit_distance(i.name, name), edit_distance(tail, name));
    near.emplace_back(d, i.name);
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::string hint;
  for (std::size_t k = 0; k < near.size() && k < 3; ++k)
    hint += (k == 0 ? "" : ", ") + near[k].second;
  throw error(fmt::format("unknown assumption '{}' (nearest: {}; `gpuplan assumptions` lists them all)",
                          name, hint));
}

/// Sets the assumption `name` (a full name or a unique tail) of `a` from `value`; validates the
/// set. Throws io::error naming the assumption when the name or the value is refused.
inline void set_assumption(assumption_set& a, std::string_view name, std::string_view value) {
  const std::string full = assumption_name(name);
  assumption_set next = a;  // `a` changes only when the value is read and valid
  bool done = false;
  std::string why;
  detail::each_assumption(next, [&](const std::string& n, auto& field, const char*) {
    if (n == full) done = detail::parse_value(value, field, why);
  });
  if (!done)
    throw error(fmt::format("assumption {} = '{}' {}", full, detail::trimmed(value), why));
  try {
    next.validate();
  } catch (const invalid_input& e) {
    std::string_view why_not = e.what();
    if (why_not.starts_with("gpuplan: ")) why_not.remove_prefix(9);
    throw error(fmt::format("assumption {} = '{}': {}", full, detail::trimmed(value), why_not));
  }
  a = next;
}

/// One assumption whose value differs from its default.
struct changed_assumption {
  std::string name;
  std::string value;       ///< exact, as set_assumption reads it
  std::string display;     ///< as reports print it
  std::string default_value;
};

namespace detail {

/// Calls f(field) for every leaf field of s, in each_assumption's order, without their names.
template <class S, class F>
void each_leaf(S& s, F& f) {
  visit_fields(s, [&](std::string_view, auto& field, const char*) {
    if constexpr (field_group<std::remove_cvref_t<decltype(field)>>)
      each_leaf(field, f);
    else
      f(field);
  });
}
template <class F>
void each_assumption_leaf(assumption_set& a, F&& f) {
  each_leaf(a.step, f);
  each_leaf(a.serving, f);
  each_leaf(a.memory, f);
  each_leaf(a.reliability, f);
  each_leaf(a.energy, f);
  each_leaf(a.carbon, f);
  each_leaf(a.power_limit, f);
}

/// An assumption field's bytes (every one is a trivially copyable scalar: a number, a flag, an
/// enumerator or a quantity), in visiting order.
using field_bytes = std::array<unsigned char, 16>;
template <class T>
field_bytes bytes_of(const T& field) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(field_bytes));
  field_bytes b{};
  std::memcpy(b.data(), &field, sizeof(T));
  return b;
}
/// The defaults' fields, computed once.
inline const std::vector<field_bytes>& default_field_bytes() {
  static const std::vector<field_bytes> bytes = [] {
    std::vector<field_bytes> out;
    assumption_set defaults{};
    each_assumption_leaf(defaults, [&](auto& field) { out.push_back(bytes_of(field)); });
    return out;
  }();
  return bytes;
}

}  // namespace detail

/// The assumptions of `a` that differ from the defaults, in list order: what a report echoes.
/// Values are compared as values, without names, against the defaults computed once; only a set
/// with changes is walked again by name and its changed values written out (every report asks
/// this, and writing all of them was most of a report's time: docs/performance.md).
inline std::vector<changed_assumption> changed_assumptions(const assumption_set& a) {
  const std::vector<detail::field_bytes>& base = detail::default_field_bytes();
  assumption_set now = a;
  std::vector<bool> changed;
  bool any = false;
  detail::each_assumption_leaf(now, [&](auto& field) {
    using T = std::remove_cvref_t<decltype(field)>;
    T d = field;  // overwritten by the default's bytes
    std::memcpy(&d, base[changed.size()].data(), sizeof(T));
    changed.push_back(!(field == d));
    any = any || changed.back();
  });
  std::vector<changed_assumption> out;
  if (!any) return out;
  std::size_t i = 0;
  detail::each_assumption(now, [&](const std::string& name, auto& field, const char* doc) {
    using T = std::remove_cvref_t<decltype(field)>;
    if (!changed[i]) {
      ++i;
      return;
    }
    T d = field;
    std::memcpy(&d, base[i++].data(), sizeof(T));
    assumption_info x, y;
    x.doc = y.doc = doc;
    detail::describe(field, x);
    detail::describe(d, y);
    if (x.value != y.value) out.push_back({name, x.value, x.display, y.display});
  });
  return out;
}

}  // namespace io
}  // namespace gpuplan
