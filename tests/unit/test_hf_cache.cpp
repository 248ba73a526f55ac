// The local Hugging Face cache (io/hf_cache.hpp): the cache folder chosen as huggingface_hub's
// constants.py chooses it, and a model's config.json found as file_download.py's
// try_to_load_from_cache finds it (refs/main first), else the newest snapshot. Each test builds a
// fake cache tree in its own temporary folder; the environment is a map per test (and, once, the
// process environment with setenv).
#include "../catch.hpp"

#include <gpuplan/io/hf_cache.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

/// A fresh temporary folder, removed at the end of the test.
struct temp_dir {
  fs::path path;
  explicit temp_dir(const std::string& name) {
    path = fs::temp_directory_path() / ("gpuplan_test_hf_cache_" + name);
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

/// An environment of exactly these variables.
io::env_lookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](std::string_view name) -> std::optional<std::string> {
    const auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

/// snapshots/<rev>/config.json under the repository folder, holding `text`.
fs::path snapshot(const fs::path& repo, const std::string& rev, const std::string& text = "{}") {
  const fs::path f = repo / "snapshots" / rev / "config.json";
  write(f, text);
  return f;
}

}  // namespace

TEST_CASE("the cache folder follows huggingface_hub's variables in its order", "[hf_cache]") {
  // constants.py: HF_HUB_CACHE = $HF_HUB_CACHE, else $HUGGINGFACE_HUB_CACHE, else
  // HF_HOME/hub with HF_HOME = $HF_HOME, else $XDG_CACHE_HOME/huggingface, else
  // ~/.cache/huggingface.
  const std::map<std::string, std::string> all = {{"HOME", "/home/u"},
                                                  {"HF_HUB_CACHE", "/a"},
                                                  {"HUGGINGFACE_HUB_CACHE", "/b"},
                                                  {"HF_HOME", "/c"},
                                                  {"XDG_CACHE_HOME", "/d"}};
  auto without = [&](std::initializer_list<std::string> names) {
    auto m = all;
    for (const auto& n : names) m.erase(n);
    return env_of(m);
  };
  CHECK(io::hf_hub_cache_dir(env_of(all)).dir == fs::path("/a"));
  CHECK(io::hf_hub_cache_dir(env_of(all)).source == "HF_HUB_CACHE");
  CHECK(io::hf_hub_cache_dir(without({"HF_HUB_CACHE"})).dir == fs::path("/b"));
  CHECK(io::hf_hub_cache_dir(without({"HF_HUB_CACHE"})).source == "HUGGINGFACE_HUB_CACHE");
  CHECK(io::hf_hub_cache_dir(without({"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"})).dir ==
        fs::path("/c/hub"));
  CHECK(io::hf_hub_cache_dir(without({"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME"})).dir ==
        fs::path("/d/huggingface/hub"));
  const io::hf_cache_location def = io::hf_hub_cache_dir(
      without({"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"}));
  CHECK(def.dir == fs::path("/home/u/.cache/huggingface/hub"));
  CHECK(def.source == "default");
}

TEST_CASE("the cache folder expands ~ and $VAR as constants.py does", "[hf_cache]") {
  // os.path.expandvars(os.path.expanduser(...)): ~ is the home folder, $NAME and ${NAME} the
  // variable, an unset name stays as written.
  CHECK(io::hf_hub_cache_dir(env_of({{"HOME", "/home/u"}, {"HF_HOME", "~/hf"}})).dir ==
        fs::path("/home/u/hf/hub"));
  CHECK(io::hf_hub_cache_dir(env_of({{"HOME", "/h"}, {"SCRATCH", "/s"},
                                     {"HF_HUB_CACHE", "$SCRATCH/cache/${SCRATCH}x"}}))
            .dir == fs::path("/s/cache//sx"));
  CHECK(io::hf_hub_cache_dir(env_of({{"HOME", "/h"}, {"HF_HUB_CACHE", "$UNSET/c"}})).dir ==
        fs::path("$UNSET/c"));
  // An empty variable counts as unset (documented difference from Python's os.getenv).
  CHECK(io::hf_hub_cache_dir(env_of({{"HOME", "/h"}, {"HF_HUB_CACHE", ""}, {"HF_HOME", "/x"}}))
            .dir == fs::path("/x/hub"));
}

TEST_CASE("Hugging Face ids are org/name in huggingface_hub's alphabet", "[hf_cache]") {
  CHECK(io::is_hf_repo_id("deepseek-ai/DeepSeek-V3"));
  CHECK(io::is_hf_repo_id("meta-llama/Llama-3.1-8B-Instruct"));
  CHECK(io::is_hf_repo_id("Qwen/Qwen2.5-0.5B"));
  CHECK_FALSE(io::is_hf_repo_id("gpt2"));          // a bare legacy id: catalog or path only
  CHECK_FALSE(io::is_hf_repo_id("a/b/c"));         // a path
  CHECK_FALSE(io::is_hf_repo_id("../etc"));        // ".." and a leading '.'
  CHECK_FALSE(io::is_hf_repo_id("org/na--me"));    // "--" is the cache's separator
  CHECK_FALSE(io::is_hf_repo_id("org/"));
  CHECK_FALSE(io::is_hf_repo_id("/name"));
  CHECK_FALSE(io::is_hf_repo_id("org/name with space"));
  CHECK_FALSE(io::is_hf_repo_id("org/-name"));     // \b: a name starts with a word character
  CHECK_FALSE(io::is_hf_repo_id("org/name."));
  CHECK_FALSE(io::is_hf_repo_id("org/name.git"));
  CHECK(io::is_hf_repo_id("org/_name_"));           // '_' is a word character
  CHECK(io::is_hf_repo_id("org/" + std::string(96, 'a')));
  CHECK_FALSE(io::is_hf_repo_id("org/" + std::string(97, 'a')));
  CHECK(io::hf_repo_folder("/c", "deepseek-ai/DeepSeek-V3") ==
        fs::path("/c/models--deepseek-ai--DeepSeek-V3"));
}

TEST_CASE("refs/main names the snapshot read", "[hf_cache]") {
  temp_dir t("refs_main");
  const fs::path repo = t.path / "models--org--model";
  const std::string old_rev(40, 'a'), main_rev(40, 'b');
  snapshot(repo, old_rev);
  const fs::path main_file = snapshot(repo, main_rev);
  write(repo / "refs" / "main", main_rev);  // huggingface_hub writes the hash without a newline
  // make the other snapshot the newer one: refs/main must still win
  fs::last_write_time(repo / "snapshots" / old_rev,
                      fs::last_write_time(repo / "snapshots" / main_rev) + std::chrono::hours(1));
  const io::hf_cache_lookup r = io::find_hf_cached_file("org/model", {t.path, "HF_HUB_CACHE"});
  REQUIRE(r.found());
  CHECK(r.file == main_file);
  CHECK(r.revision == main_rev);
  CHECK(r.from_refs_main);
  // a trailing newline in refs/main (written by hand) is tolerated
  write(repo / "refs" / "main", main_rev + "\n");
  CHECK(io::find_hf_cached_file("org/model", {t.path, "HF_HUB_CACHE"}).revision == main_rev);
}

TEST_CASE("without a usable refs/main the newest snapshot holding config.json is read",
          "[hf_cache]") {
  temp_dir t("newest");
  const fs::path repo = t.path / "models--org--model";
  const std::string older(40, '1'), newer(40, '2'), newest_without_config(40, '3');
  snapshot(repo, older);
  const fs::path newer_file = snapshot(repo, newer);
  fs::create_directories(repo / "snapshots" / newest_without_config);  // only weights, say
  const auto base = fs::last_write_time(repo / "snapshots" / older);
  fs::last_write_time(repo / "snapshots" / newer, base + std::chrono::hours(1));
  fs::last_write_time(repo / "snapshots" / newest_without_config, base + std::chrono::hours(2));

  io::hf_cache_lookup r = io::find_hf_cached_file("org/model", {t.path, "HF_HUB_CACHE"});
  REQUIRE(r.found());
  CHECK(r.file == newer_file);
  CHECK_FALSE(r.from_refs_main);

  // refs/main naming a snapshot that is not there falls back to the newest too
  write(repo / "refs" / "main", std::string(40, 'f'));
  r = io::find_hf_cached_file("org/model", {t.path, "HF_HUB_CACHE"});
  CHECK(r.file == newer_file);
  CHECK_FALSE(r.from_refs_main);
  // a ref that is a path is not followed out of snapshots/
  write(repo / "refs" / "main", "../../elsewhere");
  CHECK(io::find_hf_cached_file("org/model", {t.path, "HF_HUB_CACHE"}).file == newer_file);
}

TEST_CASE("a missing cache, repository or snapshot says where it looked", "[hf_cache]") {
  temp_dir t("missing");
  const fs::path cache = t.path / "no-such-cache";
  io::hf_cache_lookup r = io::find_hf_cached_file("deepseek-ai/DeepSeek-V3", {cache, "HF_HOME"});
  CHECK_FALSE(r.found());
  CHECK(r.repo_dir == cache / "models--deepseek-ai--DeepSeek-V3");
  CHECK(r.why_not == "no folder " + (cache / "models--deepseek-ai--DeepSeek-V3").string());
  CHECK(r.where_looked() ==
        (cache / "models--deepseek-ai--DeepSeek-V3" / "snapshots" / "*" / "config.json").string() +
            " (from HF_HOME)");
  // the repository is there but holds no config.json
  fs::create_directories(t.path / "models--org--model" / "snapshots" / std::string(40, 'c'));
  r = io::find_hf_cached_file("org/model", {t.path, "default"});
  CHECK_FALSE(r.found());
  CHECK(r.why_not.find("holds config.json") != std::string::npos);
  CHECK(r.where_looked().find("(HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE, HF_HOME and XDG_CACHE_HOME "
                              "unset)") != std::string::npos);
}

TEST_CASE("find_hf_cached_config reads the process environment", "[hf_cache]") {
  temp_dir t("process_env");
  const fs::path hub = t.path / "hub";
  const fs::path f = snapshot(hub / "models--org--model", std::string(40, 'd'), "{\"x\": 1}");
  const char* saved = std::getenv("HF_HUB_CACHE");
  const std::string saved_value = saved ? saved : "";
  ::setenv("HF_HUB_CACHE", hub.c_str(), 1);
  const io::hf_cache_lookup r = io::find_hf_cached_config("org/model");
  if (saved)
    ::setenv("HF_HUB_CACHE", saved_value.c_str(), 1);
  else
    ::unsetenv("HF_HUB_CACHE");
  CHECK(r.found());
  CHECK(r.file == f);
  CHECK(r.cache.source == "HF_HUB_CACHE");
}
