// fuzz/chart_manifest.cpp: what the tool writes from the user's strings (issue 22): chart files
// (tools/gpuplan/chart.cpp, render_file: the file name, the title, labels and series names
// that reach a gnuplot script) and the Kubernetes manifest (gpuplan/io/capacity_json.hpp,
// kubernetes_resources: the image).
//
// The input is split by FuzzedDataProvider into a chart file name, a title, a series name, a band
// label, an image string and a few choices: gnuplot on PATH or not (gnuplot runs for about one
// input in four: each run starts a process), and what already stands at the chart's .dat name (a
// symbolic link to a victim file, a directory, or nothing).
//
// Oracles (the promises of docs/troubleshooting.md, "How chart files are written"):
//   - nothing runs: no file named CANARY appears (the dictionary spells `touch CANARY` in every
//     form gnuplot could run: '|cmd', '<cmd', `cmd`, @macros; the name is given relative to the
//     working directory, the asked folder, or absolute);
//   - no file appears outside the asked folder (the sandbox's out/), none is left behind there
//     (a .gpuplan-* temporary), and a symbolic link's target is never written;
//   - render_file either succeeds (and the files it names exist) or throws std::invalid_argument
//     with a one-line message;
//   - a .gp script holds only lines that start as the writer's own lines do (a newline in a title
//     cannot start a command);
//   - the manifest is the expected lines exactly, but for one `image: "..."` line whose quoted
//     scalar decodes back to the input (or io::error: not UTF-8).
#include <fuzzer/FuzzedDataProvider.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gpuplan/io/kubernetes_yaml.hpp>

#include "chart.hpp"
#include "fuzz_support.hpp"

namespace fs = std::filesystem;
using gpuplan::fuzz::fail;

namespace {

fs::path sandbox;            // the whole tree the target may touch
fs::path out_dir;            // the asked folder: every chart file name is out/<name>
fs::path victim;             // a symbolic link's target: never written
std::string real_path;       // PATH with gnuplot (when installed)
constexpr std::string_view victim_text = "the victim's content\n";

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// The sandbox holds out/ and victim, nothing else; out/ holds no temporary and no CANARY.
/// `asked`: the file names the call asked for (the chart, its .dat and .gp), which may themselves
/// start as the writer's temporaries do (".gpuplan-..."): those are the user's, not leftovers.
void check_tree(const std::array<std::string, 3>& asked) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(sandbox, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) fail("the sandbox can be listed", ec.message());
    const fs::path p = it->path();
    const std::string name = p.filename().string();
    // every name the tool writes has an extension: a file named exactly CANARY was made by a
    // command (`touch CANARY`, run in out/, the working directory)
    if (name == "CANARY") fail("no command runs (a canary appeared)", p.string());
    const fs::path parent = p.parent_path();
    if (p == out_dir || p == victim) continue;
    if (parent == out_dir) {
      const bool own = name == asked[0] || name == asked[1] || name == asked[2];
      if (!own && name.rfind(".gpuplan-", 0) == 0)
        fail("no temporary file is left behind", p.string());
      continue;
    }
    fail("no file appears outside the asked folder", p.string());
  }
  if (fs::exists(fs::path("/tmp") / "CANARY", ec)) fail("no command runs (/tmp/CANARY)", "");
  if (slurp(victim) != victim_text) fail("a symbolic link's target is never written", victim.string());
}

/// Every line of a script the writer made starts as one of its own lines does.
void check_script(const std::string& script) {
  std::istringstream in(script);
  std::string line;
  while (std::getline(in, line)) {
    bool known = false;
    for (std::string_view start : {"# gpuplan chart: gnuplot '", "set ", "plot ", "     "})
      if (line.rfind(start, 0) == 0) known = true;
    if (!known) fail("a .gp script holds only the writer's own lines", line);
  }
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// The text of a YAML double-quoted scalar written by yaml_quoted (its escapes only); fails on
/// anything else: a bare quote or a byte outside printable ASCII.
std::string yaml_unquote(std::string_view q) {
  if (q.size() < 2 || q.front() != '"' || q.back() != '"') fail("the image is one quoted scalar", q);
  std::string out;
  for (std::size_t i = 1; i + 1 < q.size(); ++i) {
    const char c = q[i];
    if (c < 0x20 || c > 0x7e) fail("the manifest is printable ASCII", q);
    if (c == '"') fail("no bare quote inside the image's scalar", q);
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i + 2 >= q.size()) fail("an escape is complete", q);
    const char e = q[++i];
    std::size_t digits = 0;
    switch (e) {
      case 'n': out += '\n'; continue;
      case 't': out += '\t'; continue;
      case 'r': out += '\r'; continue;
      case '"': out += '"'; continue;
      case '\\': out += '\\'; continue;
      case 'x': digits = 2; break;
      case 'u': digits = 4; break;
      case 'U': digits = 8; break;
      default: fail("only the writer's escapes", q);
    }
    if (i + digits > q.size() - 2) fail("an escape is complete", q);
    std::uint32_t cp = 0;
    for (std::size_t k = 1; k <= digits; ++k) {
      const char h = q[i + k];
      const int v = h >= '0' && h <= '9' ? h - '0' : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (v < 0) fail("an escape's digits are upper-case hexadecimal", q);
      cp = cp * 16 + static_cast<std::uint32_t>(v);
    }
    i += digits;
    append_utf8(out, cp);
  }
  return out;
}

void check_manifest(const std::string& image) {
  const std::string skeleton = gpuplan::io::kubernetes_resources("fuzz", 3, 2);
  std::string yaml;
  try {
    yaml = gpuplan::io::kubernetes_resources("fuzz", 3, 2, std::nullopt, image);
  } catch (const gpuplan::io::error& e) {
    if (std::string_view(e.what()).find("UTF-8") == std::string_view::npos)
      fail("the manifest refuses an image only for not being UTF-8", e.what());
    return;
  }
  if (image.empty()) {
    if (yaml != skeleton) fail("no image: the skeleton", yaml);
    return;
  }
  std::istringstream a(skeleton), b(yaml);
  std::string want, got;
  int image_lines = 0;
  while (std::getline(a, want)) {
    if (!std::getline(b, got)) fail("the manifest has every line", yaml);
    if (want == "          # image: your serving image") {
      constexpr std::string_view key = "          image: ";
      if (got.rfind(key, 0) != 0) fail("the image line is `image: \"...\"`", got);
      if (yaml_unquote(std::string_view(got).substr(key.size())) != image)
        fail("the image's scalar reads back as the image", got);
      ++image_lines;
    } else if (got != want) {
      fail("every other line is the skeleton's (no extra keys)", got);
    }
  }
  if (std::getline(b, got)) fail("the manifest has no extra line", got);
  if (image_lines != 1) fail("one image line", yaml);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char dir[] = "/tmp/gpuplan-fuzz-chart-XXXXXX";
  if (::mkdtemp(dir) == nullptr) fail("the harness can make a directory", dir);
  sandbox = dir;
  // removed when the run ends (libFuzzer exits through exit() after -runs): it was left in /tmp
  std::atexit([] {
    std::error_code ec;
    fs::remove_all(sandbox, ec);
  });
  out_dir = sandbox / "out";
  victim = sandbox / "victim";
  fs::create_directory(out_dir);
  std::ofstream(victim) << victim_text;
  // the working directory is the asked folder: a relative name is written there, and a command
  // gnuplot ran (`touch CANARY`) would write there too
  if (::chdir(out_dir.c_str()) != 0) fail("the harness can enter its folder", out_dir.string());
  const char* path = std::getenv("PATH");
  real_path = path != nullptr ? path : "";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  std::string name = in.ConsumeRandomLengthString(300);
  for (char& c : name)
    if (c == '/' || c == '\0') c = '_';  // one name in the asked folder (a NUL ends a C path)
  const bool with_gnuplot = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  const bool relative = in.ConsumeBool();  // "NAME" (where '|' could come first) or "/.../out/NAME"
  const int before = in.ConsumeIntegralInRange<int>(0, 2);  // 1: a link at .dat, 2: a directory
  namespace chart = gpuplan::cli::chart;
  chart::chart_spec c;
  c.title = in.ConsumeRandomLengthString(200);
  c.x_label = "x";
  c.y_label = in.ConsumeRandomLengthString(100);
  chart::series s{in.ConsumeRandomLengthString(100), {{1, 2}, {2, 3}, {3, 2.5}}, chart::style::lines};
  c.data = {s};
  c.bands = {{2, 2.5, in.ConsumeRandomLengthString(100)}};
  const std::string image = in.ConsumeRemainingBytesAsString();

  check_manifest(image);

  const fs::path target = relative ? fs::path(name) : out_dir / name;
  fs::path stem = target;
  stem.replace_extension();
  const fs::path dat = stem.string() + ".dat", gp = stem.string() + ".gp";
  std::error_code ec;
  const bool dat_in_out = dat.filename() != ".." && dat.filename() != "." && !dat.filename().empty();
  if (dat_in_out && before == 1) fs::create_symlink(victim, dat, ec);
  if (dat_in_out && before == 2) fs::create_directory(dat, ec);
  ::setenv("PATH", with_gnuplot ? real_path.c_str() : "/nonexistent", 1);
  try {
    const chart::file_result r = chart::render_file(c, target, "--chart");
    if (r.message.find('\n') != std::string::npos) fail("the message is one line", r.message);
    if (r.drawn) {
      if (!fs::is_regular_file(fs::symlink_status(target, ec))) fail("a drawn chart is a file", target.string());
    } else {
      if (!fs::is_regular_file(fs::symlink_status(r.data, ec)) ||
          !fs::is_regular_file(fs::symlink_status(r.script, ec)))
        fail("without gnuplot, the .dat and .gp are files", r.message);
      check_script(slurp(r.script));
    }
  } catch (const std::invalid_argument& e) {
    const std::string_view m = e.what();
    if (m.empty() || m.find('\n') != std::string_view::npos) fail("a refusal is one line", m);
  }
  ::setenv("PATH", real_path.c_str(), 1);
  check_tree({target.filename().string(), dat.filename().string(), gp.filename().string()});
  for (const auto& entry : fs::directory_iterator(out_dir)) fs::remove_all(entry.path(), ec);
  return 0;
}
