// gpuplan/io/readers.hpp: strict readers of JSON values: each names the key and the file on failure (a missing
// key, a value of the wrong type or out of range, an unknown enum spelling).
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json); never included by the
// umbrella header.
#pragma once

#include <gpuplan/io/error.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/precision.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

namespace gpuplan::io {

namespace detail {

inline std::string type_name(const nlohmann::json& j) {
  if (j.is_number_integer()) return "an integer";
  if (j.is_number_float()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_null()) return "null";
  if (j.is_array()) return "an array";
  return "an object";
}

}  // namespace detail

// ---- strict readers: each names the key and the source on failure -----------------------------

/// Where a value came from, for messages: "config.json", "plan.json: model".
struct json_source {
  std::string file;
  std::string key_prefix;  ///< "" or "moe." for nested objects

  [[nodiscard]] std::string where(std::string_view key) const {
    return file + ": key '" + key_prefix + std::string(key) + "'";
  }
};

/// Whether `key` is present and not null.
inline bool has(const nlohmann::json& j, std::string_view key) {
  const auto it = j.find(key);
  return it != j.end() && !it->is_null();
}

inline const nlohmann::json& require_key(const nlohmann::json& j, std::string_view key,
                                         const json_source& src) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) throw error(src.where(key) + " is missing");
  return *it;
}

namespace detail {
/// A double for a message: the shortest form that reads back ("1e+30", "2.5").
inline std::string show_double(double d) {
  char buf[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}
}  // namespace detail

/// An integer value (a float with an integral value is accepted: 4096.0). A value past the range
/// of long long (2^63 and up, 1e30) is "too large" with the value as written, never wrapped.
inline long long as_integer(const nlohmann::json& v, std::string_view key, const json_source& src) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<unsigned long long>();
    if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
      throw error(src.where(key) + " is too large (got " + std::to_string(u) + ")");
    return static_cast<long long>(u);
  }
  if (v.is_number_integer()) return v.get<long long>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) throw error(src.where(key) + " must be finite");
    if (std::floor(d) == d) {
      if (std::fabs(d) < 9.0e15) return static_cast<long long>(d);
      throw error(src.where(key) + (d > 0 ? " is too large" : " is too small") + " (got " +
                  detail::show_double(d) + ")");
    }
  }
  throw error(src.where(key) + " must be an integer, not " + detail::type_name(v));
}

/// A required integer that is > 0 (or >= 0 when zero_ok) and fits an int.
inline int get_count(const nlohmann::json& j, std::string_view key, const json_source& src,
                     bool zero_ok = false) {
  const long long v = as_integer(require_key(j, key, src), key, src);
  if (v < 0 || (v == 0 && !zero_ok))
    throw error(src.where(key) + (zero_ok ? " must not be negative" : " must be positive") +
                " (got " + std::to_string(v) + ")");
  if (v > std::numeric_limits<int>::max())
    throw error(src.where(key) + " is too large (got " + std::to_string(v) + ")");
  return static_cast<int>(v);
}
/// A layer count: get_count, and at most `limits.max_layers`.
inline int get_layer_count(const nlohmann::json& j, std::string_view key, const json_source& src,
                           const json_limits& limits = {}) {
  const int v = get_count(j, key, src);
  if (v > limits.max_layers)
    throw error(src.where(key) + " is too large (got " + std::to_string(v) + "; at most " +
                std::to_string(limits.max_layers) + " layers)");
  return v;
}
inline int get_count_or(const nlohmann::json& j, std::string_view key, const json_source& src,
                        int fallback, bool zero_ok = false) {
  return has(j, key) ? get_count(j, key, src, zero_ok) : fallback;
}

inline bool get_bool_or(const nlohmann::json& j, std::string_view key, const json_source& src,
                        bool fallback) {
  if (!has(j, key)) return fallback;
  const auto& v = j.at(std::string(key));
  if (!v.is_boolean())
    throw error(src.where(key) + " must be true or false, not " + detail::type_name(v));
  return v.get<bool>();
}

inline double get_number(const nlohmann::json& j, std::string_view key, const json_source& src) {
  const auto& v = require_key(j, key, src);
  if (!v.is_number())
    throw error(src.where(key) + " must be a number, not " + detail::type_name(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw error(src.where(key) + " must be finite");
  return d;
}
inline double get_number_or(const nlohmann::json& j, std::string_view key, const json_source& src,
                            double fallback) {
  return has(j, key) ? get_number(j, key, src) : fallback;
}

inline std::string get_string(const nlohmann::json& j, std::string_view key,
                              const json_source& src) {
  const auto& v = require_key(j, key, src);
  if (!v.is_string())
    throw error(src.where(key) + " must be a string, not " + detail::type_name(v));
  return v.get<std::string>();
}
inline std::string get_string_or(const nlohmann::json& j, std::string_view key,
                                 const json_source& src, std::string fallback) {
  return has(j, key) ? get_string(j, key, src) : fallback;
}

// ---- enums: read by their name tables (gpuplan/specs/enum_names.hpp) ----------------------------

/// The enumerator named by the string at `key` (ASCII case ignored), `fallback` when the key is
/// absent; io::error listing the names when it names none.
template <named_enum E>
E get_enum_or(const nlohmann::json& j, std::string_view key, const json_source& src, E fallback) {
  if (!has(j, key)) return fallback;
  const std::string s = get_string(j, key, src);
  E e{};
  if (parse_enum(s, e)) return e;
  std::string expected;
  for (const enumerator<E>& x : enumerators(e))
    expected += (expected.empty() ? "" : ", ") + std::string(x.name);
  throw error(src.where(key) + ": unknown value '" + s + "' (expected one of " + expected + ")");
}
inline precision get_precision_or(const nlohmann::json& j, std::string_view key,
                                  const json_source& src, precision fallback) {
  return get_enum_or(j, key, src, fallback);
}

namespace detail {
inline name_string name_from(const std::string& s, std::string_view key, const json_source& src) {
  if (s.empty()) throw error(src.where(key) + " must not be empty");
  if (s.find('\0') != std::string::npos)
    throw error(src.where(key) + " must not contain a NUL character (\\u0000)");
  if (s.size() > name_string::capacity)
    throw error(src.where(key) + " is longer than " + std::to_string(name_string::capacity) +
                " characters");
  return name_string::from(s);
}
/// An optional "aliases" array of strings into a fixed array of names.
template <std::size_t N>
void read_aliases(const nlohmann::json& j, const json_source& src,
                  std::array<name_string, N>& out) {
  if (!has(j, "aliases")) return;
  const auto& a = j.at("aliases");
  if (!a.is_array() || a.size() > N)
    throw error(src.where("aliases") + " must be an array of at most " + std::to_string(N) +
                " strings");
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string()) throw error(src.where("aliases") + " must hold strings");
    out[i] = name_from(a[i].get<std::string>(), "aliases", src);
  }
}
inline double non_negative(const nlohmann::json& j, std::string_view key, const json_source& src,
                           double fallback = 0.0) {
  const double v = get_number_or(j, key, src, fallback);
  if (v < 0) throw error(src.where(key) + " must not be negative");
  return v;
}
}  // namespace detail

}  // namespace gpuplan::io
