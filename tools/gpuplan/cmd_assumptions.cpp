// tools/gpuplan/cmd_assumptions.cpp: `gpuplan assumptions`, every assumption of the models that
// --set NAME=VALUE (and a plan file's "assumptions" object) can change: its name, kind and unit,
// default, and the comment in the library that says what it means and where the default comes
// from (io/assumptions.hpp list_assumptions). `gpuplan assumptions step` lists the names that
// start with "step" (or contain the word given).
#include "cli.hpp"

#include <gpuplan/io/assumptions.hpp>

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

namespace gpuplan::cli {

namespace {

struct assumptions_command {
  bool json = false;
  std::string filter;
};

/// `text` broken into lines of at most `width` characters, each after `indent`.
std::string wrapped(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    at = end + 1;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

int run_assumptions(const assumptions_command& cmd) {
  std::vector<io::assumption_info> shown;
  for (io::assumption_info& i : io::list_assumptions())
    if (cmd.filter.empty() || i.name.find(cmd.filter) != std::string::npos)
      shown.push_back(std::move(i));
  if (shown.empty())
    throw usage_error(fmt::format("no assumption's name contains '{}' (`gpuplan assumptions` "
                                  "lists them all)",
                                  cmd.filter));
  if (cmd.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const io::assumption_info& i : shown)
      out.push_back({{"name", i.name},
                     {"kind", i.kind},
                     {"default", i.value},
                     {"default_display", i.display},
                     {"doc", i.doc}});
    print_json(out);
    return 0;
  }
  fmt::print("{} assumption{}: set any with --set NAME=VALUE (repeatable) or a plan file's "
             "\"assumptions\": {{NAME: VALUE}}.\nQuantities take a unit (10us, 300MiB, 25GB/s); "
             "a bare number is in the unit shown.\n\n",
             shown.size(), shown.size() == 1 ? "" : "s");
  for (const io::assumption_info& i : shown) {
    fmt::print("{} = {}   [{}]\n", i.name, i.display, i.kind);
    fmt::print("{}", wrapped(i.doc, 96, "    "));
  }
  return 0;
}

}  // namespace

command add_assumptions_command(CLI::App& app) {
  auto cmd = std::make_shared<assumptions_command>();
  app.add_option("filter", cmd->filter,
                 "List only the assumptions whose name contains this (step, serving, memory, "
                 "reliability, energy, carbon, or any part of a name)");
  app.add_flag("--json", cmd->json,
               "Print the list as JSON: name, kind, default, default_display, doc");
  return {&app, [cmd] { return run_assumptions(*cmd); }};
}

}  // namespace gpuplan::cli
