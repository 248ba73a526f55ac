// tools/gpuplan/app.cpp: the tool as a whole (cli.hpp, run_tool): parse the arguments, run the
// chosen command of command_table(), print its errors as one line, and the exit status main.cpp
// lists. GPUPLAN_VERSION (the project's version, from CMake) is what --version prints.
#include "cli.hpp"
#include "options.hpp"

#include <gpuplan/io/json.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace {

/// The most characters of one word (a value, a file name: no space in it) an error repeats: a
/// 100 kB value must not make a 100 kB error line. Longer words keep their start and their end
/// (a file's name), with "..." between.
constexpr std::size_t max_word = 80;
/// The most characters of a whole message (a long value with spaces in it).
constexpr std::size_t max_message = 400;

/// One line, whatever the message holds, and no word longer than max_word.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  // The library's messages start with "gpuplan: " already.
  constexpr std::string_view prefix = "gpuplan: ";
  if (s.rfind(prefix, 0) == 0) s.erase(0, prefix.size());
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t end = std::min(s.find(' ', i), s.size());
    const std::string_view word = std::string_view(s).substr(i, end - i);
    if (word.size() > max_word) {
      constexpr std::size_t head = max_word / 2, tail = max_word - head - 3;
      out.append(word.substr(0, head)).append("...").append(word.substr(word.size() - tail));
    } else {
      out.append(word);
    }
    if (end < s.size()) out += ' ';
    i = end + 1;
  }
  if (out.size() > max_message) out = out.substr(0, max_message - 3) + "...";
  return out;
}

/// The error on one line; a command's errors in the terms its user gave (the library's names of
/// its settings replaced by the flags or plan keys: settings::in_user_terms).
std::string user_line(const std::string& what, const gpuplan::cli::settings* given) {
  return one_line(given != nullptr ? given->in_user_terms(what) : what);
}

int fail(const std::string& what, const gpuplan::cli::settings* given = nullptr, int status = 2) {
  std::fflush(stdout);
  fmt::print(stderr, "gpuplan: error: {}\n", user_line(what, given));
  return status;
}

/// Set once "cannot write the output" was said: said once, not again when finish() flushes the
/// same broken stream.
bool output_failure_said = false;

/// The report could not be written (errno `err`): the user's to fix, not a result.
int output_failure(int err) {
  output_failure_said = true;
  fmt::print(stderr, "gpuplan: error: cannot write the output: {}\n", std::strerror(err));
  return 2;
}

/// Every command ends here: stdout (fmt and the C stream) and std::cout (CLI11's --help) are
/// flushed and checked, so a report that did not reach its file is exit 2, never 0 (the buffer
/// was flushed after main returned, and its failure went unseen). output_error when not.
int finish(int status) {
  if (output_failure_said) return status;
  gpuplan::cli::flush_output();
  errno = 0;
  std::cout.flush();
  if (!std::cout) return output_failure(errno != 0 ? errno : EIO);
  return status;
}

/// The exception being handled, reported: exit 2 and one line for bad input, 3 for a bug.
int failure(const gpuplan::cli::settings* given) {
  try {
    throw;
  } catch (const gpuplan::cli::output_error& e) {
    output_failure_said = true;
    return fail(e.what());
  } catch (const std::system_error& e) {
    // {fmt} throws this when stdout refuses a write (a full buffer flushed to /dev/full)
    if (std::ferror(stdout)) return output_failure(e.code().value());
    return fail(std::string("internal error: ") + e.what(), nullptr, 3);
  } catch (...) {
    const gpuplan::cli::error_line e = gpuplan::cli::current_error(given);
    std::fflush(stdout);
    fmt::print(stderr, "gpuplan: error: {}\n", e.line);
    return e.status;
  }
}

/// CLI11's help formatter, less one blank line: CLI11 (2.x Formatter::make_groups) writes a
/// blank line after every listed group but the last of the app's groups, and a flag a command
/// refuses sits in the unlisted group "" (settings::refuse); where that group came last, the help
/// ended in two blank lines where every other command's help ends in one.
class help_formatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    std::string out = CLI::Formatter::make_help(app, std::move(name), mode);
    while (out.ends_with("\n\n\n")) out.pop_back();
    return out;
  }
};

int run(int argc, char** argv) {
  CLI::App app{
      "gpuplan: does it fit, how fast, what it costs. GPU infrastructure planning.\n"
      "Run with no command for a worked example.",
      "gpuplan"};
  app.formatter(std::make_shared<help_formatter>());  // before the commands: they copy it
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "gpuplan " GPUPLAN_VERSION);
  std::vector<gpuplan::cli::command> commands;
  for (const gpuplan::cli::command_entry& e : gpuplan::cli::command_table()) {
    gpuplan::cli::command c = e.add(*app.add_subcommand(e.name, e.help));
    commands.push_back(std::move(c));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return fail(e.what());
  }
  for (const auto& c : commands)
    if (c.app->parsed()) {
      try {
        return c.run();
      } catch (...) {
        return failure(c.given());  // while the command's settings live
      }
    }
  return gpuplan::cli::run_demo();
}

}  // namespace

gpuplan::cli::error_line gpuplan::cli::current_error(const settings* given) {
  try {
    throw;
  } catch (const status_error& e) {
    return {e.status, user_line(e.what(), given)};
  } catch (const usage_error& e) {
    return {2, user_line(e.what(), given)};
  } catch (const io::error& e) {
    return {2, user_line(e.what(), given)};
  } catch (const invalid_input& e) {
    return {2, user_line(e.what(), given)};  // the library's validation: layouts, sizes, specs
  } catch (const std::invalid_argument& e) {
    return {2, user_line(e.what(), given)};
  } catch (const std::out_of_range& e) {
    return {2, user_line(e.what(), given)};
  } catch (const CLI::Error& e) {
    return {2, user_line(e.what(), given)};
  } catch (const std::exception& e) {
    return {3, user_line(std::string("internal error: ") + e.what(), nullptr)};
  } catch (...) {
    return {3, "internal error: unknown exception"};
  }
}

int gpuplan::cli::run_tool(int argc, char** argv) {
  try {
    return finish(run(argc, argv));
  } catch (...) {
    return failure(nullptr);
  }
}
