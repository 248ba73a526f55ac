// gpuplan/catalog.hpp: the constexpr catalogs (GPUs, nodes, models) and lookup by name.
//
//   constexpr const gpu_spec* g = gpuplan::catalog::find_gpu("h100");       // &all_gpus[i]
//   constexpr const transformer_spec* m = gpuplan::catalog::find_model("meta-llama/Llama-3.1-70B");
//   auto hints = gpuplan::catalog::nearest_gpu_names("h1000");  // {"H100-SXM5-80GB", ...}
//
// Names match ignoring ASCII case and the separators '-', '_' and ' ' ("H100 SXM5 80GB",
// "h100_sxm5_80gb" and "H100-SXM5-80GB" are one name). A model name with an organisation prefix
// ("meta-llama/Llama-3.1-70B") also matches the bare name after the last '/', and a bare model
// name matches an alias's part after its '/' ("Meta-Llama-3.1-70B"). A model name ending
// in "-Instruct" (any case, '-', '_' or ' ' before it) that names no entry is looked up again
// without that suffix: an Instruct checkpoint has its base model's shape and parameter count
// (meta-llama/Meta-Llama-3.1-70B-Instruct, Qwen/Qwen2.5-14B-Instruct), so the four aliases an
// entry holds need not spell every Instruct id.
#pragma once

#include <gpuplan/catalog/gpus.hpp>
#include <gpuplan/catalog/models.hpp>
#include <gpuplan/catalog/nodes.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace gpuplan::catalog {

namespace detail {

/// The part of s after its last '/', or s itself.
constexpr std::string_view without_org(std::string_view s) {
  const std::size_t slash = s.rfind('/');
  return slash == std::string_view::npos ? s : s.substr(slash + 1);
}

/// s without a trailing "-Instruct" ("_instruct", " INSTRUCT": any case, any name separator), or
/// s itself when it has none.
constexpr std::string_view without_instruct_suffix(std::string_view s) {
  constexpr std::string_view suffix = "instruct";
  if (s.size() <= suffix.size()) return s;
  if (!same_name(s.substr(s.size() - suffix.size()), suffix)) return s;
  const char sep = s[s.size() - suffix.size() - 1];
  if (sep != '-' && sep != '_' && sep != ' ') return s;
  return s.substr(0, s.size() - suffix.size() - 1);
}

/// Whether query names an entry with this canonical name and these aliases.
template <std::size_t N>
constexpr bool names(const name_string& name, const std::array<name_string, N>& aliases,
                     std::string_view query) {
  if (query.empty()) return false;
  if (same_name(name.view(), query)) return true;
  for (const name_string& a : aliases)
    if (!a.empty() && same_name(a.view(), query)) return true;
  return false;
}

/// Distance from query to one name: the smaller of the whole names' distance and the distance
/// between the parts after an organisation prefix ("meta-llama/...").
constexpr int name_distance(std::string_view candidate, std::string_view query) {
  const int whole = edit_distance(candidate, query);
  const int bare = edit_distance(without_org(candidate), without_org(query));
  return whole < bare ? whole : bare;
}

/// Distance from query to an entry: the smallest over its canonical name and aliases.
template <std::size_t N>
constexpr int distance_to(const name_string& name, const std::array<name_string, N>& aliases,
                          std::string_view query) {
  int best = name_distance(name.view(), query);
  for (const name_string& a : aliases) {
    if (a.empty()) continue;
    const int d = name_distance(a.view(), query);
    if (d < best) best = d;
  }
  return best;
}

/// Canonical names of the (up to) three entries nearest to query; unused slots are empty.
template <class Range>
constexpr std::array<std::string_view, 3> nearest(const Range& entries, std::string_view query) {
  std::array<std::string_view, 3> out{};
  std::array<int, 3> dist{1 << 30, 1 << 30, 1 << 30};
  for (const auto& e : entries) {
    const int d = distance_to(e.name, e.aliases, query);
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (d < dist[k]) {  // insert at k, shift the rest down
        for (std::size_t m = out.size() - 1; m > k; --m) {
          out[m] = out[m - 1];
          dist[m] = dist[m - 1];
        }
        out[k] = e.name.view();
        dist[k] = d;
        break;
      }
    }
  }
  return out;
}

template <class Range>
constexpr auto find(const Range& entries, std::string_view query) -> decltype(&entries[0]) {
  for (const auto& e : entries)
    if (names(e.name, e.aliases, query)) return &e;
  return nullptr;
}

/// The entry one of whose organisation-prefixed aliases has `query` after its '/'
/// ("Meta-Llama-3.1-70B" for "meta-llama/Meta-Llama-3.1-70B"); nullptr if none.
template <class Range>
constexpr auto find_by_bare_alias(const Range& entries, std::string_view query)
    -> decltype(&entries[0]) {
  if (query.empty()) return nullptr;
  for (const auto& e : entries)
    for (const name_string& a : e.aliases)
      if (a.view().find('/') != std::string_view::npos && same_name(without_org(a.view()), query))
        return &e;
  return nullptr;
}

}  // namespace detail

/// The catalog GPU named `name` (canonical name or alias, any case); nullptr if none.
constexpr const gpu_spec* find_gpu(std::string_view name) { return detail::find(all_gpus, name); }

/// The catalog node named `name`; nullptr if none.
constexpr const node_spec* find_node(std::string_view name) {
  return detail::find(all_nodes, name);
}

/// The catalog model named `name` (canonical name, alias or Hugging Face id, with or without the
/// organisation prefix, with or without an "-Instruct" suffix); nullptr if none.
constexpr const transformer_spec* find_model(std::string_view name) {
  auto lookup = [](std::string_view n) -> const transformer_spec* {
    if (const transformer_spec* m = detail::find(all_models, n)) return m;
    const std::string_view bare = detail::without_org(n);
    if (const transformer_spec* m = detail::find(all_models, bare)) return m;
    return detail::find_by_bare_alias(all_models, bare);
  };
  if (const transformer_spec* m = lookup(name)) return m;
  const std::string_view base = detail::without_instruct_suffix(name);
  return base.size() == name.size() ? nullptr : lookup(base);
}

/// Up to three catalog GPU names nearest to `name` by edit distance, best first, for "did you
/// mean" messages; unused slots are empty views.
constexpr std::array<std::string_view, 3> nearest_gpu_names(std::string_view name) {
  return detail::nearest(all_gpus, name);
}
constexpr std::array<std::string_view, 3> nearest_model_names(std::string_view name) {
  return detail::nearest(all_models, name);
}
constexpr std::array<std::string_view, 3> nearest_node_names(std::string_view name) {
  return detail::nearest(all_nodes, name);
}

}  // namespace gpuplan::catalog
