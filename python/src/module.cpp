// python/src/module.cpp: gpuplan._gpuplan, the tool's commands for Python (tools/gpuplan/api.hpp).
// JSON crosses the boundary as text (the package's json.loads/json.dumps): the reports are the
// CLI's --json, byte for byte. Every call releases the GIL: a sweep runs on all cores, and a
// search on several threads stops at Ctrl-C with the best found so far (the tool's SIGINT
// handler, installed while it runs). Bad input raises ValueError (api::input_error is a
// std::invalid_argument) with the tool's one line; a bug raises RuntimeError.
#include "api.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;
namespace api = gpuplan::cli::api;

namespace {

nlohmann::json parse_json(const std::string& text, const char* what) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw api::input_error(std::string(what) + " is not JSON: " + e.what(), 2);
  }
}

std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// (status, report JSON) of one command.
std::pair<int, std::string> run(const std::string& command, const std::string& args,
                                const std::vector<std::string>& positional, const std::string& label) {
  const api::report r = api::run(command, parse_json(args, "the arguments"), positional, label);
  return {r.status, dump(r.json)};
}

std::string fields(const std::string& command) { return dump(api::fields(command)); }

std::string sweep(const std::string& command, const std::string& base,
                  const std::vector<std::pair<std::string, std::string>>& axes, int threads,
                  const std::string& label) {
  std::vector<api::axis> a;
  for (const auto& [key, values] : axes) {
    nlohmann::json v = parse_json(values, "a sweep's values");
    if (!v.is_array()) throw api::input_error("sweep: the values of '" + key + "' must be a list", 2);
    a.emplace_back(key, v.get<std::vector<nlohmann::json>>());
  }
  return dump(api::sweep(command, parse_json(base, "the fixed arguments"), a, threads, label));
}

}  // namespace

NB_MODULE(_gpuplan, m) {
  m.doc() = "gpuplan's commands in-process (the package gpuplan wraps them)";
  m.attr("__version__") = GPUPLAN_VERSION;
  m.def("run", &run, nb::arg("command"), nb::arg("args"), nb::arg("positional"), nb::arg("label"),
        nb::call_guard<nb::gil_scoped_release>(),
        "Runs a command with its arguments (JSON text): (exit status, its --json report as text)");
  m.def("fields", &fields, nb::arg("command"),
        "The arguments a command takes, as JSON text: [{key, flag, type, group, help}]");
  m.def("sweep", &sweep, nb::arg("command"), nb::arg("base"), nb::arg("axes"), nb::arg("threads"),
        nb::arg("label"), nb::call_guard<nb::gil_scoped_release>(),
        "Runs a command at every point of a grid: the table by columns, as JSON text");
  m.def("commands", [] {
    std::vector<std::string> out;
    for (std::string_view c : api::commands()) out.emplace_back(c);
    return out;
  });
}
