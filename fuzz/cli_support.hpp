// fuzz/cli_support.hpp: runs the gpuplan command-line tool in-process for the cli_* targets.
//
// Each cli_* target links the tool's library (gpuplan_cli_commands) and calls run_tool(), what
// the tool's main() is (argument parsing, every command, the error handling and exit statuses),
// unchanged for each input. Its stdout and stderr go to
// temporary files that the oracles read; sanitizer reports still reach the real stderr.
#pragma once

#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"  // run_tool
#include "fuzz_support.hpp"

namespace gpuplan::fuzz {

struct cli_result {
  int status = 0;
  std::string out, err;
};

namespace detail {
inline int tmp_fd() {
  char name[] = "/tmp/gpuplan-fuzz-XXXXXX";
  const int fd = ::mkstemp(name);
  if (fd < 0) fail("the harness can make a temporary file", name);
  ::unlink(name);
  return fd;
}
inline std::string slurp(int fd) {
  std::string s;
  ::lseek(fd, 0, SEEK_SET);
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
    s.append(buf, static_cast<std::size_t>(n));
  return s;
}
}  // namespace detail

/// Once per process: the working directory becomes the test data (so inputs can name
/// hf/gpt2/config.json), the probe is pointed at a driver that does not exist (so `probe` and
/// `--gpu local` never load a real one), and sanitizer reports get their own copy of stderr.
inline void cli_init() {
  if (::chdir(GPUPLAN_FUZZ_DATA_DIR) != 0)
    fail("the harness can enter the test data", GPUPLAN_FUZZ_DATA_DIR);
  ::setenv("GPUPLAN_CUDA_LIBRARY", "/nonexistent/gpuplan-fuzz/libcuda.so.1", 1);
  ::setenv("GPUPLAN_NVML_LIBRARY", "/nonexistent/gpuplan-fuzz/libnvidia-ml.so.1", 1);
  const int real_err = ::dup(2);
  __sanitizer_set_report_fd(reinterpret_cast<void*>(static_cast<long>(real_err)));
}

/// Whether an input may run: paths stay inside the test data, away from devices and /proc
/// (`--model /dev/zero` or `/dev/stdin` would read forever; the size limit is tested by unit
/// tests instead), including through JSON escapes that could spell them.
inline bool safe_input(std::string_view text) {
  for (std::string_view bad : {"dev", "proc", "sys", "fd/", "..", "\\u00", "\\/", "~"})
    if (text.find(bad) != std::string_view::npos) return false;
  return text.find('\0') == std::string_view::npos;
}

/// Runs `gpuplan ARGS...` and returns its exit status and output.
inline cli_result run_cli(const std::vector<std::string>& args) {
  static const int out_fd = detail::tmp_fd(), err_fd = detail::tmp_fd();
  static const int saved_out = ::dup(1), saved_err = ::dup(2);
  std::vector<std::string> storage{"gpuplan"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  for (int fd : {out_fd, err_fd})
    if (::ftruncate(fd, 0) != 0) fail("the harness can reuse its output files", "ftruncate");
  ::lseek(out_fd, 0, SEEK_SET);
  ::lseek(err_fd, 0, SEEK_SET);
  ::dup2(out_fd, 1);
  ::dup2(err_fd, 2);
  cli_result r;
  r.status = gpuplan::cli::run_tool(static_cast<int>(storage.size()), argv.data());
  std::fflush(stdout);
  std::fflush(stderr);
  ::dup2(saved_out, 1);
  ::dup2(saved_err, 2);
  r.out = detail::slurp(out_fd);
  r.err = detail::slurp(err_fd);
  return r;
}

/// Whether a JSON value holds a null anywhere (fit --json writes a non-finite number as null).
inline bool holds_null(const nlohmann::json& j, std::string& where, const std::string& path = "") {
  if (j.is_null()) {
    where = path;
    return true;
  }
  if (j.is_object()) {
    for (const auto& [k, v] : j.items())
      if (holds_null(v, where, path + "." + k)) return true;
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (holds_null(j[i], where, path + "[" + std::to_string(i) + "]")) return true;
  }
  return false;
}

/// The tool's promises, for one run on `input`: exit status 0, 1, 2 or 4 (`probe` found no GPU;
/// 3 is an internal error, a bug); status 2 prints exactly one line "gpuplan: error: ..." that keeps the message promises;
/// output shows no NaN or infinity the input did not spell; `fit --json` prints JSON with no null
/// (a number that was not finite).
inline void check_cli(const cli_result& r, std::string_view input, bool fit_json) {
  if (r.status == 3) fail("no input is an internal error (exit status 3)", r.err);
  if (r.status != 0 && r.status != 1 && r.status != 2 && r.status != 4)
    fail("the exit status is 0, 1, 2 or 4", std::to_string(r.status) + ": " + r.err);
  if (r.status == 4) {
    const std::size_t from = input.find_first_not_of(" \t\n");
    const std::string_view first =
        from == std::string_view::npos ? std::string_view() : input.substr(from, 5);
    if (first != "probe") fail("only probe exits 4 (no GPU here)", r.err);
    if (r.err.empty()) return;  // --json: the answer is the JSON on stdout
  }
  if (r.status == 2 || r.status == 4) {
    constexpr std::string_view prefix = "gpuplan: error: ";
    if (r.err.rfind(prefix, 0) != 0 || r.err.empty() || r.err.back() != '\n' ||
        r.err.find('\n') != r.err.size() - 1)
      fail("a usage error is one line 'gpuplan: error: ...'", r.err);
    check_message(std::string_view(r.err).substr(prefix.size(), r.err.size() - prefix.size() - 1),
                  input, "");
    return;
  }
  if (shows_non_finite(r.out) && !shows_non_finite(input))
    fail("the output shows no NaN or infinity", r.out);
  // --help wins over --json (CLI11 reads "-hf" as -h -f): the usage text is the right answer.
  if (fit_json && r.out.find("Usage: gpuplan") == std::string::npos) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(r.out);
    } catch (const nlohmann::json::exception& e) {
      fail("fit --json prints JSON", std::string(e.what()) + "\n" + r.out);
    }
    std::string where;
    if (holds_null(j, where))
      fail("fit --json holds no null (a number that was not finite)", where);
  }
}

}  // namespace gpuplan::fuzz
