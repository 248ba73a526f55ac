// gpuplan/io/hf_cache.hpp: a model's config.json in the local Hugging Face cache, found by its
// Hugging Face id ("deepseek-ai/DeepSeek-V3") without a network, the way huggingface_hub finds it.
//
// The cache folder, as huggingface_hub/constants.py sets HF_HUB_CACHE (first that is set wins):
//   1. $HF_HUB_CACHE
//   2. $HUGGINGFACE_HUB_CACHE                 (the legacy name constants.py still reads)
//   3. $HF_HOME/hub
//   4. $XDG_CACHE_HOME/huggingface/hub
//   5. ~/.cache/huggingface/hub
// and, as constants.py does, with `~` expanded to the home folder (os.path.expanduser: $HOME, else
// the password database) and then $VAR / ${VAR} expanded (os.path.expandvars: unset names stay as
// written). One difference: a variable set to the empty string counts as unset here; Python's
// os.getenv returns "" and the cache would be the relative folder "hub" (or "" itself), which no
// one means.
//
// The repository's folder, as file_download.py's try_to_load_from_cache builds it: the id with
// each '/' replaced by "--" (REPO_ID_SEPARATOR) after "models--": models--{org}--{name}. Inside it,
// refs/main holds the commit hash the "main" branch pointed at when it was downloaded, and
// snapshots/<commit>/config.json the file (usually a symlink into blobs/). The revision read:
//   1. the snapshot refs/main names, when it holds config.json (what huggingface_hub returns);
//   2. else the newest snapshot that holds config.json, by the snapshot folder's modification time
//      (ties: the greatest name). huggingface_hub returns nothing here; gpuplan takes the newest,
//      as a planner that only reads the shape would want when refs/main is absent (a snapshot
//      copied by hand, `hf download --revision <sha>`).
// Nothing is downloaded and nothing is written.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <pwd.h>
#include <unistd.h>
#endif

namespace gpuplan::io {

/// Reads one environment variable: nullopt when unset. Tests pass their own.
using env_lookup = std::function<std::optional<std::string>(std::string_view name)>;

/// The process environment (std::getenv).
inline std::optional<std::string> process_env(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

/// The cache folder huggingface_hub would use, and which setting chose it.
struct hf_cache_location {
  std::filesystem::path dir;
  /// "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME" or "default"
  /// (~/.cache/huggingface/hub).
  std::string source;
};

namespace detail {

inline std::optional<std::string> non_empty(const env_lookup& env, std::string_view name) {
  std::optional<std::string> v = env(name);
  if (v && v->empty()) return std::nullopt;
  return v;
}

/// The user's home folder as Python's os.path.expanduser finds it: $HOME, else (POSIX) the
/// password database entry of the current user; empty when neither is known.
inline std::string home_folder(const env_lookup& env) {
  if (std::optional<std::string> h = non_empty(env, "HOME")) return *h;
#if defined(__unix__) || defined(__APPLE__)
  if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr)
    return pw->pw_dir;
#endif
  return {};
}

/// os.path.expanduser for "~" and "~/...": the home folder in place of the tilde. "~user" forms
/// are left as written.
inline std::string expand_user(std::string s, const env_lookup& env) {
  if (s.empty() || s[0] != '~' || (s.size() > 1 && s[1] != '/')) return s;
  const std::string home = home_folder(env);
  if (home.empty()) return s;
  return home + s.substr(1);
}

inline bool var_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/// os.path.expandvars (posixpath): $NAME and ${NAME} replaced by the variable's value when it is
/// set; otherwise left as written.
inline std::string expand_vars(const std::string& s, const env_lookup& env) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] != '$') {
      out += s[i++];
      continue;
    }
    std::size_t name_begin = i + 1, name_end = name_begin, after = name_begin;
    if (name_begin < s.size() && s[name_begin] == '{') {
      const std::size_t close = s.find('}', name_begin + 1);
      if (close == std::string::npos) {
        out += s[i++];
        continue;
      }
      name_begin += 1;
      name_end = close;
      after = close + 1;
    } else {
      while (name_end < s.size() && var_char(s[name_end])) ++name_end;
      after = name_end;
    }
    if (name_end == name_begin) {
      out += s[i++];
      continue;
    }
    const std::string_view name = std::string_view(s).substr(name_begin, name_end - name_begin);
    if (std::optional<std::string> v = env(name)) {
      out += *v;
    } else {
      out += s.substr(i, after - i);
    }
    i = after;
  }
  return out;
}

inline std::filesystem::path expand(const std::string& s, const env_lookup& env) {
  return std::filesystem::path(expand_vars(expand_user(s, env), env));
}

}  // namespace detail

/// Where huggingface_hub keeps downloaded repositories (the rules above).
inline hf_cache_location hf_hub_cache_dir(const env_lookup& env = process_env) {
  using detail::expand;
  using detail::non_empty;
  if (auto v = non_empty(env, "HF_HUB_CACHE")) return {expand(*v, env), "HF_HUB_CACHE"};
  if (auto v = non_empty(env, "HUGGINGFACE_HUB_CACHE"))
    return {expand(*v, env), "HUGGINGFACE_HUB_CACHE"};
  if (auto v = non_empty(env, "HF_HOME")) return {expand(*v, env) / "hub", "HF_HOME"};
  if (auto v = non_empty(env, "XDG_CACHE_HOME"))
    return {expand(*v, env) / "huggingface" / "hub", "XDG_CACHE_HOME"};
  return {expand("~/.cache/huggingface/hub", env), "default"};
}

/// Whether `id` has the form of a Hugging Face model id, "org/name", as huggingface_hub's
/// validate_repo_id checks it (REPO_ID_REGEX `^(\b[\w\-.]+\b/)?\b[\w\-.]{1,96}\b$`, no "--"
/// or "..", no ".git" ending): two parts of letters, digits, '_', '-' and '.', each starting and
/// ending with a letter, digit or '_', the name at most 96 characters. ASCII only (Python's \w
/// also takes other Unicode letters). A bare name ("gpt2", a legacy id) is not taken as an id:
/// gpuplan reads those only from the catalog or a path.
inline bool is_hf_repo_id(std::string_view id) {
  const std::size_t slash = id.find('/');
  if (slash == std::string_view::npos || id.find('/', slash + 1) != std::string_view::npos)
    return false;
  if (id.find("--") != std::string_view::npos || id.find("..") != std::string_view::npos)
    return false;
  if (id.size() >= 4 && id.substr(id.size() - 4) == ".git") return false;
  auto word = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  };
  auto part_ok = [&](std::string_view p, std::size_t max) {
    if (p.empty() || p.size() > max) return false;
    if (!word(p.front()) || !word(p.back())) return false;
    return std::all_of(p.begin(), p.end(), [&](char c) { return word(c) || c == '-' || c == '.'; });
  };
  return part_ok(id.substr(0, slash), std::string_view::npos) && part_ok(id.substr(slash + 1), 96);
}

/// The folder of a model repository in the cache: models--{org}--{name}.
inline std::filesystem::path hf_repo_folder(const std::filesystem::path& cache_dir,
                                            std::string_view repo_id) {
  std::string folder = "models--";
  for (char c : repo_id) {
    if (c == '/')
      folder += "--";
    else
      folder += c;
  }
  return cache_dir / folder;
}

/// What a cache lookup found, or where it looked.
struct hf_cache_lookup {
  /// The cached file; empty when not found.
  std::filesystem::path file;
  /// The cache folder and the setting that chose it.
  hf_cache_location cache;
  /// models--{org}--{name} under the cache folder.
  std::filesystem::path repo_dir;
  /// The snapshot (commit) read, and whether refs/main named it.
  std::string revision;
  bool from_refs_main = false;
  /// Why nothing was found, in words ("no folder ...", "no snapshot holds config.json").
  std::string why_not;

  bool found() const { return !file.empty(); }

  /// One line saying where the lookup looked: the snapshot pattern and which setting chose the
  /// cache folder.
  std::string where_looked(std::string_view filename = "config.json") const {
    std::string s = (repo_dir / "snapshots" / "*" / std::string(filename)).string();
    s += cache.source == "default"
             ? " (HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE, HF_HOME and XDG_CACHE_HOME unset)"
             : " (from " + cache.source + ")";
    return s;
  }
};

/// Finds `filename` of the model `repo_id` in the cache folder `cache` (the rules at the top of
/// this header). Never throws for a missing file or folder: the result says where it looked.
inline hf_cache_lookup find_hf_cached_file(std::string_view repo_id, const hf_cache_location& cache,
                                           std::string_view filename = "config.json") {
  namespace fs = std::filesystem;
  hf_cache_lookup r;
  r.cache = cache;
  r.repo_dir = hf_repo_folder(cache.dir, repo_id);
  std::error_code ec;
  if (!fs::is_directory(r.repo_dir, ec)) {
    r.why_not = "no folder " + r.repo_dir.string();
    return r;
  }
  const fs::path snapshots = r.repo_dir / "snapshots";
  auto holds = [&](const std::string& rev) {
    std::error_code e;
    return !rev.empty() && fs::is_regular_file(snapshots / rev / std::string(filename), e);
  };
  // 1. refs/main: a commit hash, written without a newline (tolerate one).
  {
    std::ifstream in(r.repo_dir / "refs" / "main");
    std::string rev;
    if (in && std::getline(in, rev)) {
      while (!rev.empty() && (rev.back() == '\r' || rev.back() == ' ' || rev.back() == '\t'))
        rev.pop_back();
      // a ref naming a path ("../x") is not a commit
      if (rev.find('/') == std::string::npos && rev != "." && rev != ".." && holds(rev)) {
        r.revision = rev;
        r.from_refs_main = true;
        r.file = snapshots / rev / std::string(filename);
        return r;
      }
    }
  }
  // 2. the newest snapshot holding the file.
  std::optional<fs::file_time_type> newest;
  std::string best;
  for (fs::directory_iterator it(snapshots, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e;
    if (!it->is_directory(e)) continue;
    const std::string rev = it->path().filename().string();
    if (!holds(rev)) continue;
    const fs::file_time_type t = fs::last_write_time(it->path(), e);
    if (e) continue;
    if (!newest || t > *newest || (t == *newest && rev > best)) {
      newest = t;
      best = rev;
    }
  }
  if (best.empty()) {
    r.why_not = "no snapshot in " + snapshots.string() + " holds " + std::string(filename);
    return r;
  }
  r.revision = best;
  r.file = snapshots / best / std::string(filename);
  return r;
}

/// The cached config.json of the model `repo_id` ("org/name"), in the cache folder the
/// environment names (hf_hub_cache_dir).
inline hf_cache_lookup find_hf_cached_config(std::string_view repo_id,
                                             const env_lookup& env = process_env) {
  return find_hf_cached_file(repo_id, hf_hub_cache_dir(env), "config.json");
}

}  // namespace gpuplan::io
