// fuzz/cli_args.cpp: the gpuplan tool's command line, parsed and run in-process
// (tools/gpuplan, CLI11): every command, option and value, as a user types them.
//
// An input is the argument list, one argument per line ("fit\n--model\nLlama-3.1-8B\n--json").
// The working directory is tests/data, so arguments can name its files (hf/gpt2/config.json).
// Oracles: check_cli (cli_support.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli_support.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  gpuplan::fuzz::cli_init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!gpuplan::fuzz::safe_input(text)) return -1;  // -1: not added to the corpus
  std::vector<std::string> args;
  std::size_t start = 0;
  while (!text.empty() && start <= text.size() && args.size() < 40) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    args.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  bool fit_json = false, json = false;
  for (const auto& a : args) json = json || a == "--json";
  fit_json = json && !args.empty() && args[0] == "fit";
  gpuplan::fuzz::check_cli(gpuplan::fuzz::run_cli(args), text, fit_json);
  return 0;
}
