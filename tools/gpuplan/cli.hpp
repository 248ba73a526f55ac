// tools/gpuplan/cli.hpp: what the gpuplan tool's commands share.
//
// The tool is a library (gpuplan_cli_commands: every file here but main.cpp) and a thin main.cpp
// that calls run_tool(); the fuzz targets link the same library. One file per command
// (cmd_<name>.cpp) and per report (fit_output.cpp: the fit report as text and JSON). Each command
// is one row of command_table() (commands.cpp): its name, its one-line help, and an
// add_<name>_command function that adds its flags to the subcommand the table made for it and
// returns what to run when the user chose it.
//
// A command's settings are a table of fields (options.hpp): the shared groups (model_fields,
// gpu_fields, node_fields, layout_fields, training_fields, serving_fields) plus its own. One
// `settings` object registers their flags, reads --plan files with the same keys, and names each
// value as the user gave it in errors; the builders (model_from, gpu_from, node_from, layout_from,
// training_from, serving_from) turn them into the library's inputs. A new command, e.g. `train`:
//
//   command add_train_command(CLI::App& sub) {
//     auto s = std::make_shared<settings>();
//     s->add(&sub, {model_fields(), gpu_fields(), node_fields(), layout_fields(), training_fields()});
//     s->add_plan_option(&sub);
//     return {&sub, [s] { s->read_plan(); const model_choice m = model_from(*s, "train");
//                         /* gpu_from(*s), layout_from(*s, m), training_from(*s) ... */ return 0; }};
//   }
//
// then its row in commands.cpp ({"train", "Step time and cost of a training run",
// add_train_command}) and its section in doc/cli.md.in (the test cli.doc_lists_every_command
// checks that every command has one); CMake picks up every cmd_*.cpp. Its flags, plan keys,
// defaults and messages are then those of `fit`, and a field added to a shared group reaches
// every command.
//
// Errors: bad input from the user (unknown names, malformed files, impossible layouts, conflicting
// flags) is thrown as usage_error, io::error, gpuplan::invalid_input or std::invalid_argument;
// main() prints it as one line on stderr and exits with status 2. Nothing else prints errors. The
// library's names of a command's settings in a message ("training_config.global_batch") are
// printed as the user gave them ("--global-batch 7"): settings::in_user_terms.
#pragma once

#include <gpuplan/units.hpp>
#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/transformer.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {
struct estimate_notes;
struct parallel_layout;
}  // namespace gpuplan

namespace gpuplan::cli {

// max_price_per_gpu_hour_usd (--price-per-gpu-hour's bound) is the library's: specs/pricing.hpp

/// Bad input on the command line: exit status 2 and what() on one line.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A refusal with an exit status of its own (probe's 4, "no usable GPU here"): main() prints it
/// as every error, one line, and exits with `status`.
class status_error : public usage_error {
 public:
  status_error(const std::string& what, int exit_status) : usage_error(what), status(exit_status) {}
  int status;
};

/// The report did not reach stdout (a full disk, `> /dev/full`): the user's to fix, exit status 2
/// with "cannot write the output: <the system's reason>" (app.cpp).
class output_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Flushes stdout (before writing to stderr, so the two interleave, and at the end of every
/// command); throws output_error with the system's reason when the write fails.
void flush_output();

class settings;

/// A subcommand and what to run when it was chosen (its exit status), and the settings it was
/// given, through which main() names the library's errors as the user gave them (none for the
/// commands without settings).
struct command {
  CLI::App* app = nullptr;
  std::function<int()> run;
  std::function<settings*()> given = [] { return static_cast<settings*>(nullptr); };
};

/// One command of the tool: its name and the one line `gpuplan --help` shows for it, and the
/// function that adds its flags to the subcommand made for it (`sub`) and says what to run.
struct command_entry {
  const char* name;
  const char* help;
  command (*add)(CLI::App& sub);
};

/// Every command, in the order `gpuplan --help` lists them: the one table (commands.cpp). A new
/// command is a cmd_<name>.cpp defining its add function and one row of this table.
std::span<const command_entry> command_table();
/// The row of command_table() named `name`; std::logic_error when there is none (a bug).
const command_entry& find_command(std::string_view name);

/// The exception being handled (call it in a catch block), as the tool reports it: the exit
/// status (2 for bad input, 3 for a bug, a status_error's own) and the one line after
/// "gpuplan: error: ", in the terms the user gave the settings in (`given`, may be null).
struct error_line {
  int status = 2;
  std::string line;
};
error_line current_error(const settings* given);

/// The whole tool: parses `argv`, runs the chosen command (the demo when none is named), prints
/// any error as one line; returns the exit status (main.cpp's list). The fuzz targets call it.
int run_tool(int argc, char** argv);

// Each adds its command's flags to `sub` (the subcommand command_table() made for it).
command add_demo_command(CLI::App& sub);
command add_gpus_command(CLI::App& sub);
command add_models_command(CLI::App& sub);
command add_fit_command(CLI::App& sub);
command add_probe_command(CLI::App& sub);
command add_serve_command(CLI::App& sub);
command add_capacity_command(CLI::App& sub);
command add_utilization_command(CLI::App& sub);
command add_cost_command(CLI::App& sub);
command add_train_command(CLI::App& sub);
command add_search_command(CLI::App& sub);
command add_assumptions_command(CLI::App& sub);

/// A command that prints a list as a table, or as JSON with --json: print(json) is its body.
command add_listing_command(CLI::App& sub, const char* json_help, int (*print)(bool json));

/// The built-in scenario (`gpuplan` with no arguments).
int run_demo();

// ---- names -> specs ---------------------------------------------------------------------------

/// A GPU chosen by name (catalog, alias), by a JSON file in gpuplan's GPU form, or "local" (the
/// first GPU the probe finds). `source` says which, for the report.
struct gpu_choice {
  gpu_spec spec;
  std::string source;  ///< "catalog", "file", "probe"
  /// Where a spec read from JSON came from, for messages: "my-gpu.json", or "plan.json: key
  /// 'gpu'"; empty for the catalog and the probe.
  std::string file{};
  std::string key_prefix{};  ///< "gpu." for a GPU given as an object in a plan file
};
/// What a command asks of a GPU: its memory (fit plans memory only), or also its rates (train,
/// serve, cost, search and capacity time the work: memory bandwidth and peak FLOP/s).
enum class gpu_use { memory, rates };
/// Validates `g` for that use; for a GPU read from a file, the message names the file and the
/// JSON key ("my-gpu.json: key 'memory_bandwidth_bytes_per_s' is missing or 0: ...").
void check_gpu(const gpu_choice& g, gpu_use use);
/// Resolves a --gpu value; a GPU file is checked for its memory (check_gpu for the rates).
gpu_choice resolve_gpu(std::string_view name);
/// The first GPU of this machine, from the probe; usage_error with the probe's one-line reason
/// when there is no driver or no GPU (defined in cmd_probe.cpp).
gpu_choice probe_local_gpu();

/// A model chosen by catalog name, by a Hugging Face config.json (or a gpuplan model JSON), or by
/// a parameter count (`params:7.5e9`, `params:70B`).
struct model_choice {
  std::optional<transformer_spec> transformer;
  std::optional<generic_workload> generic;
  std::string source;  ///< "catalog", "hf-config", "hf-cache", "file", "params"
  [[nodiscard]] std::string name() const;
  [[nodiscard]] double parameters() const;
};
model_choice resolve_model(std::string_view text);
/// A model given inline in a plan file: a Hugging Face config object or a gpuplan model object.
model_choice model_from_json(const nlohmann::json& j, const std::string& where);

/// "did you mean X, Y or Z?" from up to three names (empty ones skipped).
std::string did_you_mean(const std::array<std::string_view, 3>& names);

/// Parses "7.5e9", "7.5B", "70b", "125M", "1.2T", "350k" as a count of at least 1; usage_error
/// naming `what` otherwise.
double parse_count(std::string_view text, std::string_view what);

// ---- output -----------------------------------------------------------------------------------

/// An aligned text table: a header row, then rows; columns marked numeric are right-aligned.
struct table {
  std::vector<std::string> header;
  std::vector<bool> numeric;
  std::vector<std::vector<std::string>> rows;
  [[nodiscard]] std::string render(std::string_view indent = "") const;
};

/// Prints JSON to stdout, indented by two, with a final newline; or, while a json_capture lives
/// on this thread, hands it to that capture instead.
void print_json(const nlohmann::json& j);
void print_json(nlohmann::json&& j);
/// While it lives, print_json() on this thread writes into `into` rather than stdout: a command's
/// --json report handed to a program in-process (api.cpp).
class json_capture {
 public:
  explicit json_capture(nlohmann::json& into);
  ~json_capture();
  json_capture(const json_capture&) = delete;
  json_capture& operator=(const json_capture&) = delete;

 private:
  nlohmann::json* previous_;
};

/// The inputs a result rests on that are estimates (models/estimates.hpp), one sentence each,
/// naming the input, the GPU and why: what fit, train, serve, cost and capacity report as
/// "warnings" in --json and as "note:" lines on stderr otherwise.
std::vector<std::string> warning_lines(const estimate_notes& notes);
/// j["warnings"] = warning_lines(notes) (an empty array when there are none).
void add_warnings(nlohmann::json& j, const estimate_notes& notes);
/// The warnings as "note: ..." lines on stderr (after stdout's report, which is flushed first).
void print_warnings(const estimate_notes& notes);

/// Quantities for people, through gpuplan's {fmt} formatters: sizes in binary prefixes ("74.5
/// GiB"), rates auto-scaled ("3.35 TB/s").
std::string show(data_size d);
std::string show(bandwidth b);
std::string show(compute_rate r);
std::string show(power p);
std::string show_count(double n);  ///< 70.6B, 8.03B, 124M
/// A duration for people: us, ms, s, h or days by size ("3.2 ms", "1.25 s", "41.3 days"); the
/// text reports of train, search, cost and demo. (capacity prints its waits as wait_text.)
std::string secs(duration d);
/// "TP 8 x PP 16 x DP 128, ZeRO-1, SP": the degrees that are not 1 and the options on (train
/// and search; fit's report writes its own longer line, fit_output.cpp fit_layout_line).
std::string layout_text(const parallel_layout& l);
/// A fraction as a whole percentage, {fmt}'s rounding ("87%"): capacity's and utilization's
/// tables. (The library's advice sentences round with std::llround: plan/utilization.hpp
/// usage_pct.)
std::string pct(double x);

}  // namespace gpuplan::cli
