// tools/gpuplan/api.hpp: the tool's commands for programs, in-process: a command's --json report
// from its settings given as a JSON object (the plan-file keys), with the tool's checks and
// messages. The Python module (python/) is built on it, so `gpuplan.train(global_batch=512)` is
// `gpuplan train --global-batch 512 --json`: the same fields, the same builders of the library's
// plans, the same reports (the library's to_json), the same errors.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::cli::api {

/// Bad input, which the tool exits 2 for: what() is the line it prints after "gpuplan: error: ",
/// naming the argument ("gpuplan.fit(): key 'zero' must be 0, 1, 2 or 3").
class input_error : public std::invalid_argument {
 public:
  input_error(const std::string& what, int exit_status)
      : std::invalid_argument(what), status(exit_status) {}
  int status;  ///< the tool's exit status for it (2; probe's 4 when there is no GPU)
};
/// A bug (the tool's exit status 3): what() is its line.
class internal_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A command's report: its --json output and the tool's exit status (0: the flags that turn a
/// verdict into a status, --require-fit, are the command line's, not arguments).
struct report {
  nlohmann::json json;
  int status = 0;
};

/// The commands a program can run: fit, train, serve, cost, capacity, utilization, search,
/// "search serve", gpus, models, assumptions.
std::span<const std::string_view> commands();

/// Runs `command` with `args`, an object of its plan-file keys (the flags' names in snake_case:
/// {"model": "llama-3.1-8b", "global_batch": 512}); `positional` are its positional arguments
/// (utilization's files, assumptions' filter). `label` names the arguments in messages ("gpuplan.fit()").
/// Throws input_error for bad input, internal_error for a bug.
report run(std::string_view command, const nlohmann::json& args,
           const std::vector<std::string>& positional = {}, const std::string& label = "");

/// The fields `command` takes, in its table's order: [{"key", "flag", "type", "group", "help"}],
/// type one of text, count, count0, number, flag, spec, custom, list, assignments.
nlohmann::json fields(std::string_view command);

/// One axis of a sweep: a plan key and its values.
using axis = std::pair<std::string, std::vector<nlohmann::json>>;

/// Runs `command` at every point of the grid the axes span (the last axis varying fastest), each
/// point `base` with the axes' values over it, on `threads` threads (0: the machine's cores).
/// Returns the table by columns: {"columns": [names], "data": {name: [values]}}: the axes first,
/// then the report's fields flattened ("memory.total_bytes"; arrays of scalars kept, arrays of
/// objects left out), null where a point's report lacks one, and "error" (null, or the message of
/// a point that was refused), "status" (the exit status).
nlohmann::json sweep(std::string_view command, const nlohmann::json& base,
                     const std::vector<axis>& axes, int threads = 0, const std::string& label = "");

/// The number of points sweep() would run: the product of the axes' sizes (input_error when an
/// axis is empty or the product passes `max_sweep_points`).
std::uint64_t sweep_points(const std::vector<axis>& axes);
/// The most points one sweep runs (ten million: a grid past it is a typo, not a plan).
inline constexpr std::uint64_t max_sweep_points = 10'000'000;
/// The most threads one sweep starts, whatever `threads` asks: a thread per core is the point,
/// and each holds its own parsed command, so a huge request must not start thousands.
inline constexpr std::uint64_t max_sweep_threads = 256;

}  // namespace gpuplan::cli::api
