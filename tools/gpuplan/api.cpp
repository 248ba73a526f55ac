// tools/gpuplan/api.cpp: the commands in-process for programs (api.hpp).
#include "api.hpp"

#include "cli.hpp"
#include "options.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

namespace gpuplan::cli::api {

namespace {

constexpr std::array<std::string_view, 11> command_names = {
    "fit", "train", "serve", "cost", "capacity", "utilization", "search", "search serve",
    "gpus", "models", "assumptions"};

std::string_view type_name(field_type t) {
  switch (t) {
    case field_type::text: return "text";
    case field_type::count: return "count";
    case field_type::count0: return "count0";
    case field_type::number: return "number";
    case field_type::flag: return "flag";
    case field_type::spec: return "spec";
    case field_type::custom: return "custom";
    case field_type::list: return "list";
    case field_type::assignments: return "assignments";
  }
  return "text";
}

/// The tool's parser with one command registered, parsed from `argv` ("gpuplan", the command's
/// words, "--json", the positional arguments).
struct parsed_command {
  CLI::App app{"gpuplan", "gpuplan"};
  command cmd;
};

void check_command(std::string_view name) {
  if (std::find(command_names.begin(), command_names.end(), name) == command_names.end()) {
    std::string list;
    for (std::string_view c : command_names) list.append(list.empty() ? "" : ", ").append(c);
    throw input_error("no command '" + std::string(name) + "': one of " + list, 2);
  }
}

/// Sets up `command` and parses argv for it; `json` asks for --json.
void parse(parsed_command& p, std::string_view name, const std::vector<std::string>& positional,
           bool json) {
  check_command(name);
  const bool serve_search = name == "search serve";
  const std::string_view top = serve_search ? std::string_view("search") : name;
  const command_entry& e = find_command(top);
  p.cmd = e.add(*p.app.add_subcommand(std::string(top), e.help));
  std::vector<std::string> words = {"gpuplan", std::string(top)};
  if (serve_search) words.emplace_back("serve");
  if (json) words.emplace_back("--json");
  if (!positional.empty()) {
    words.emplace_back("--");  // a file named "-x" is a file, not a flag
    words.insert(words.end(), positional.begin(), positional.end());
  }
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  p.app.parse(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

std::span<const std::string_view> commands() { return command_names; }

namespace {

/// Runs the parsed command with `args` as its plan. A command parsed once runs again with other
/// arguments (a sweep's points): each run reads its plan afresh (settings::use_plan_object), and
/// the commands keep no other state between runs.
/// `line` in the terms of a program's arguments: each flag of the command's fields written as its
/// key ("give --wait-slo" is "give wait_slo"; --set is "assumptions", fit's --train/--infer
/// "mode"). Messages of the tool name flags; a caller of run() gave keys.
std::string in_keyword_terms(std::string line, const settings& s) {
  std::vector<std::pair<std::string, std::string>> names;  // flag, key; longest flag first
  for (const field& f : s.fields()) {
    std::string_view flags = f.flag;
    while (!flags.empty()) {  // "--train/--infer": each of them
      const std::size_t slash = flags.find('/');
      names.emplace_back(std::string(flags.substr(0, slash)), std::string(f.key));
      flags = slash == std::string_view::npos ? std::string_view() : flags.substr(slash + 1);
    }
  }
  std::sort(names.begin(), names.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  const auto word_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  };
  for (const auto& [flag, key] : names) {
    if (flag.size() < 3 || flag.rfind("--", 0) != 0) continue;
    for (std::size_t at = line.find(flag); at != std::string::npos; at = line.find(flag, at)) {
      const std::size_t end = at + flag.size();
      if ((at > 0 && word_char(line[at - 1])) || (end < line.size() && word_char(line[end]))) {
        at = end;
        continue;
      }
      line.replace(at, flag.size(), key);
      at += key.size();
    }
  }
  return line;
}

/// A search installs its SIGINT handler (Ctrl-C: the best so far) for the process while it runs
/// (cmd_search.cpp): two at once from two threads would restore each other's handler. One at a
/// time; the search itself runs on every core.
std::mutex search_mutex;

report execute(parsed_command& p, std::string_view command_name, const nlohmann::json& args,
               const std::string& label) {
  settings* s = nullptr;
  std::unique_lock<std::mutex> one_search(search_mutex, std::defer_lock);
  if (command_name.starts_with("search")) one_search.lock();
  try {
    s = p.cmd.given();
    if (!args.is_null() && !args.is_object())
      throw usage_error(label + ": the arguments must be an object of plan keys");
    const bool any = args.is_object() && !args.empty();
    if (s == nullptr && any)
      throw usage_error(std::string(command_name) + " takes no arguments but its positional ones");
    if (s != nullptr)
      s->use_plan_object(any ? args : nlohmann::json::object(),
                         label.empty() ? std::string(command_name) : label);
    report r;
    json_capture capture(r.json);
    r.status = p.cmd.run();
    return r;
  } catch (...) {
    const error_line e = current_error(s);
    if (e.status == 3) throw internal_error(e.line);
    throw input_error(s != nullptr ? in_keyword_terms(e.line, *s) : e.line, e.status);
  }
}

}  // namespace

report run(std::string_view command_name, const nlohmann::json& args,
           const std::vector<std::string>& positional, const std::string& label) {
  parsed_command p;
  try {
    parse(p, command_name, positional, true);
  } catch (const input_error&) {
    throw;
  } catch (...) {
    const error_line e = current_error(nullptr);
    if (e.status == 3) throw internal_error(e.line);
    throw input_error(e.line, e.status);
  }
  return execute(p, command_name, args, label);
}

nlohmann::json fields(std::string_view command_name) {
  parsed_command p;
  // utilization requires its files on the command line; none is read to list the fields
  const std::vector<std::string> positional =
      command_name == "utilization" ? std::vector<std::string>{"FILE"} : std::vector<std::string>{};
  parse(p, command_name, positional, false);
  nlohmann::json out = nlohmann::json::array();
  const settings* s = p.cmd.given();
  if (s == nullptr) return out;
  for (const field& f : s->fields()) {
    if (s->refused(f.key)) continue;
    out.push_back({{"key", f.key}, {"flag", f.flag}, {"type", type_name(f.type)},
                   {"group", f.group}, {"help", f.help}});
  }
  return out;
}

std::uint64_t sweep_points(const std::vector<axis>& axes) {
  std::uint64_t n = 1;
  for (const auto& [key, values] : axes) {
    if (values.empty()) throw input_error("sweep: the axis '" + key + "' has no values", 2);
    n *= values.size();
    if (n > max_sweep_points)
      throw input_error("sweep: more than " + std::to_string(max_sweep_points) +
                            " points (max_sweep_points); sweep fewer values", 2);
  }
  return n;
}

namespace {

/// `j`'s fields as (name, value) pairs: objects flattened with '.', arrays of scalars kept,
/// arrays holding objects or arrays left out.
void flatten(const nlohmann::json& j, const std::string& prefix,
             std::vector<std::pair<std::string, nlohmann::json>>& out) {
  for (const auto& [k, v] : j.items()) {
    const std::string name = prefix.empty() ? k : prefix + "." + k;
    if (v.is_object()) {
      flatten(v, name, out);
    } else if (v.is_array()) {
      if (std::all_of(v.begin(), v.end(), [](const nlohmann::json& x) { return x.is_primitive(); }))
        out.emplace_back(name, v);
    } else {
      out.emplace_back(name, v);
    }
  }
}

struct point_result {
  std::vector<std::pair<std::string, nlohmann::json>> fields;
  std::string error;
  int status = 0;
};

/// The grid: point i's arguments, the fixed ones with each axis's value over them (the last axis
/// varying fastest).
struct grid {
  const nlohmann::json& base;
  const std::vector<axis>& axes;
  [[nodiscard]] nlohmann::json args(std::uint64_t i) const {
    nlohmann::json a = base.is_object() ? base : nlohmann::json::object();
    std::uint64_t rest = i;
    for (std::size_t k = axes.size(); k-- > 0;) {
      const auto& values = axes[k].second;
      a[axes[k].first] = values[static_cast<std::size_t>(rest % values.size())];
      rest /= values.size();
    }
    return a;
  }
};

/// The results by columns: the axes, then every field in the order first seen, then error and
/// status. A report field named like an axis (a report's top-level "gpus") is the axis's column,
/// holding the value asked for.
nlohmann::json table_of(const grid& g, const std::vector<point_result>& results) {
  std::vector<std::string> columns;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const auto& [key, values] : g.axes) {
    index.emplace(key, columns.size());
    columns.push_back(key);
  }
  const std::size_t first_field = columns.size();
  for (const point_result& r : results)
    for (const auto& [name, v] : r.fields)
      if (index.find(name) == index.end() && name != "error" && name != "status") {
        index.emplace(name, columns.size());
        columns.push_back(name);
      }
  nlohmann::json data = nlohmann::json::object();
  std::vector<nlohmann::json*> cols;  // an object's members stay where they are as it grows
  for (const std::string& c : columns) cols.push_back(&(data[c] = nlohmann::json::array()));
  nlohmann::json& errors = data["error"] = nlohmann::json::array();
  nlohmann::json& statuses = data["status"] = nlohmann::json::array();
  std::vector<nlohmann::json> row(columns.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const point_result& r = results[i];
    std::fill(row.begin(), row.end(), nlohmann::json());
    const nlohmann::json args = g.args(i);
    for (std::size_t a = 0; a < g.axes.size(); ++a) row[a] = args[g.axes[a].first];
    for (const auto& [name, v] : r.fields)
      if (const auto it = index.find(name); it != index.end() && it->second >= first_field)
        row[it->second] = v;
    for (std::size_t c = 0; c < columns.size(); ++c) cols[c]->push_back(std::move(row[c]));
    errors.push_back(r.error.empty() ? nlohmann::json() : nlohmann::json(r.error));
    statuses.push_back(r.status);
  }
  columns.emplace_back("error");
  columns.emplace_back("status");
  return {{"columns", columns}, {"data", std::move(data)}};
}

}  // namespace

nlohmann::json sweep(std::string_view command_name, const nlohmann::json& base,
                     const std::vector<axis>& axes, int threads, const std::string& label) {
  check_command(command_name);
  if (!base.is_null() && !base.is_object())
    throw input_error("sweep: the fixed arguments must be an object of plan keys", 2);
  const std::uint64_t n = sweep_points(axes);
  for (const auto& [key, values] : axes)
    if (base.is_object() && base.contains(key))
      throw input_error("sweep: '" + key + "' is both a fixed argument and an axis", 2);
  const grid g{base, axes};
  std::vector<point_result> results(static_cast<std::size_t>(n));
  std::atomic<std::uint64_t> next{0};
  std::mutex bug_mutex;
  std::exception_ptr bug;
  std::atomic<bool> stop{false};
  const auto fail = [&] {  // a bug stops the sweep: reported, not tabled
    const std::lock_guard<std::mutex> lock(bug_mutex);
    bug = std::current_exception();
    stop = true;
  };
  const auto work = [&] {
    // The command parsed once per thread (its parser is most of one run's time), run per point.
    parsed_command p;
    try {
      parse(p, command_name, {}, true);
    } catch (...) {
      return fail();
    }
    for (;;) {
      const std::uint64_t i = next.fetch_add(1);
      if (i >= n || stop.load()) return;
      point_result& r = results[static_cast<std::size_t>(i)];
      try {
        const report rep = execute(p, command_name, g.args(i), label);
        r.status = rep.status;
        flatten(rep.json, "", r.fields);
      } catch (const input_error& e) {
        r.error = e.what();
        r.status = e.status;
      } catch (...) {
        return fail();
      }
    }
  };
  unsigned want = threads > 0 ? static_cast<unsigned>(threads) : std::thread::hardware_concurrency();
  want = std::max(1U, std::min<unsigned>(want, static_cast<unsigned>(std::min<std::uint64_t>(n, max_sweep_threads))));
  {
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < want; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
  }
  if (bug) std::rethrow_exception(bug);
  return table_of(g, results);
}

}  // namespace gpuplan::cli::api
