// fuzz/cli_plan.cpp: a plan file, as `gpuplan fit --plan FILE --json` reads and runs it
// (tools/gpuplan/cmd_fit.cpp: plan keys, inline "model" and "gpu" objects, model paths
// resolved beside the plan or in the working directory, then the fit itself).
//
// The input is the plan file's text, written to a temporary directory for each run. The working
// directory is tests/data, so "model": "hf/gpt2/config.json" reaches a real config.
// Oracles: check_cli (cli_support.hpp).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "cli_support.hpp"

namespace {
std::string plan_path;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  gpuplan::fuzz::cli_init();
  char dir[] = "/tmp/gpuplan-fuzz-plan-XXXXXX";
  if (::mkdtemp(dir) == nullptr) gpuplan::fuzz::fail("the harness can make a directory", dir);
  plan_path = std::string(dir) + "/plan.json";
  // removed when the run ends (libFuzzer exits through exit() after -runs): it was left in /tmp
  static std::string folder;
  folder = dir;
  std::atexit([] {
    std::error_code ec;
    std::filesystem::remove_all(folder, ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!gpuplan::fuzz::safe_input(text)) return -1;
  std::FILE* f = std::fopen(plan_path.c_str(), "wb");
  if (f == nullptr) gpuplan::fuzz::fail("the harness can write the plan", plan_path);
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  const auto r = gpuplan::fuzz::run_cli({"fit", "--plan", plan_path, "--json"});
  gpuplan::fuzz::check_cli(r, text, true);
  return 0;
}
