// tools/gpuplan/progress.hpp: a progress bar on stderr for work that takes more than a
// moment (`gpuplan train --scaling`, `search`, `utilization` reading a large export).
//
//   progress::bar bar(total, {.unit = "configs"});
//   for (std::size_t i = 0; i < total; ++i) { work(i); bar.update(i + 1); }
//   bar.finish();   // or let the destructor do it
//
// The bar draws nothing unless stderr is a terminal and the sweep is still running after
// `delay` (so quick sweeps, pipes and CI logs stay clean; GPUPLAN_PROGRESS=never|always
// overrides, mode_from_environment). It then redraws one line at most every
// `redraw` seconds: the bar, done / total, the rate and the time left; finish() erases it. update()
// is cheap enough to call once per configuration: it reads the clock only every `stride` calls
// (total / 1000 by default). Standard library only, like chart.hpp, so any command can use it.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace gpuplan::cli::progress {

struct options {
  std::string_view unit = "configs";  ///< what is counted, printed after done / total
  double delay = 0.5;                 ///< seconds before the bar first appears
  double redraw = 0.1;                ///< seconds between redraws
  int width = 80;                     ///< columns of the whole line
  std::size_t stride = 0;             ///< updates between clock reads; 0: total / 1000 (at least 1)
  std::FILE* out = nullptr;           ///< nullptr: stderr
  /// Draw even when `out` is not a terminal (tests); the default asks isatty().
  bool force = false;
};

/// The bar's text for `done` of `total` after `elapsed` seconds, `width` columns wide, e.g.
/// "[##########..........]  512/1024 configs  1.2k configs/s  0:03 left". Pure: what the bar
/// draws, and what the tests check.
std::string render_line(std::size_t done, std::size_t total, double elapsed, int width,
                        std::string_view unit);

/// "0:07", "12:05", "1:02:03": a duration in seconds as the bar prints it ("--:--" when unknown).
std::string clock_text(double seconds);

/// GPUPLAN_PROGRESS in the environment: `never` draws no bar, `always` draws every bar from its
/// start even where stderr is not a terminal (a CI log that wants to see a long run move);
/// unset or any other value: automatic (a terminal, after options::delay).
enum class mode { automatic, never, always };
mode mode_from_environment();

/// Whether `f` is a terminal.
bool is_terminal(std::FILE* f);

class bar {
 public:
  explicit bar(std::size_t total, options o = {});
  bar(const bar&) = delete;
  bar& operator=(const bar&) = delete;
  ~bar();

  /// `done` configurations are finished (monotonic; at most total).
  void update(std::size_t done);
  /// Erases the line if one was drawn. Idempotent.
  void finish();
  /// Whether the bar has drawn anything.
  [[nodiscard]] bool shown() const { return shown_; }

 private:
  void draw(std::size_t done, double elapsed);
  std::size_t total_;
  options o_;
  bool enabled_ = false, shown_ = false, finished_ = false;
  std::size_t next_check_ = 0, stride_ = 1;
  double start_ = 0.0, last_draw_ = -1.0;
};

}  // namespace gpuplan::cli::progress
