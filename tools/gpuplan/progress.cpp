// tools/gpuplan/progress.cpp: see progress.hpp.
#include "progress.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>

#if defined(_WIN32)
#include <io.h>
#define GPUPLAN_ISATTY(fd) _isatty(fd)
#define GPUPLAN_FILENO(f) _fileno(f)
#else
#include <unistd.h>
#define GPUPLAN_ISATTY(fd) isatty(fd)
#define GPUPLAN_FILENO(f) fileno(f)
#endif

namespace gpuplan::cli::progress {

namespace {

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

/// 950 -> "950", 12345 -> "12.3k", 4.2e6 -> "4.2M"
std::string compact(double x) {
  char buf[32];
  if (x >= 1e9) std::snprintf(buf, sizeof buf, "%.1fG", x / 1e9);
  else if (x >= 1e6) std::snprintf(buf, sizeof buf, "%.1fM", x / 1e6);
  else if (x >= 1e4) std::snprintf(buf, sizeof buf, "%.1fk", x / 1e3);
  else if (x >= 10.0) std::snprintf(buf, sizeof buf, "%.0f", x);
  else std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

}  // namespace

std::string clock_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0 || seconds > 1e8) return "--:--";
  const auto total = static_cast<long long>(std::llround(seconds));
  const long long h = total / 3600, m = total / 60 % 60, s = total % 60;
  char buf[32];
  if (h > 0) std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", h, m, s);
  else std::snprintf(buf, sizeof buf, "%lld:%02lld", m, s);
  return buf;
}

std::string render_line(std::size_t done, std::size_t total, double elapsed, int width,
                        std::string_view unit) {
  if (done > total) done = total;
  const double rate = elapsed > 0.0 ? static_cast<double>(done) / elapsed : 0.0;
  const double left = rate > 0.0 ? static_cast<double>(total - done) / rate : -1.0;
  std::string tail = "  " + std::to_string(done) + "/" + std::to_string(total) + " " +
                     std::string(unit) + "  " + compact(rate) + " " + std::string(unit) + "/s  " +
                     clock_text(left) + " left";
  // the bar takes what the text leaves, between 10 and 40 columns ("[" and "]" included)
  int room = width - static_cast<int>(tail.size());
  if (room > 40) room = 40;
  if (room < 10) room = 10;
  const int inner = room - 2;
  const double share = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  const int filled = static_cast<int>(share * inner);
  std::string line = "[";
  line.append(static_cast<std::size_t>(filled), '#');
  line.append(static_cast<std::size_t>(inner - filled), '.');
  line += "]";
  return line + tail;
}

mode mode_from_environment() {
  const char* v = std::getenv("GPUPLAN_PROGRESS");
  if (v == nullptr) return mode::automatic;
  const std::string_view text(v);
  if (text == "never") return mode::never;
  if (text == "always") return mode::always;
  return mode::automatic;
}

bool is_terminal(std::FILE* f) { return f != nullptr && GPUPLAN_ISATTY(GPUPLAN_FILENO(f)) != 0; }

bar::bar(std::size_t total, options o) : total_(total), o_(o) {
  if (o_.out == nullptr) o_.out = stderr;
  enabled_ = total_ > 0 && (o_.force || is_terminal(o_.out));
  switch (mode_from_environment()) {
    case mode::never: enabled_ = false; break;
    case mode::always:
      enabled_ = total_ > 0;
      o_.delay = 0.0;
      break;
    case mode::automatic: break;
  }
  stride_ = o_.stride > 0 ? o_.stride : (total_ / 1000 > 0 ? total_ / 1000 : 1);
  next_check_ = stride_;
  start_ = now_seconds();
}

bar::~bar() { finish(); }

void bar::update(std::size_t done) {
  if (!enabled_ || finished_ || done < next_check_) return;
  next_check_ = done + stride_;
  const double elapsed = now_seconds() - start_;
  if (elapsed < o_.delay) return;
  if (shown_ && elapsed - last_draw_ < o_.redraw && done < total_) return;
  draw(done, elapsed);
}

void bar::draw(std::size_t done, double elapsed) {
  const std::string line = render_line(done, total_, elapsed, o_.width - 1, o_.unit);
  std::fprintf(o_.out, "\r%s", line.c_str());
  std::fflush(o_.out);
  shown_ = true;
  last_draw_ = elapsed;
}

void bar::finish() {
  if (finished_) return;
  finished_ = true;
  if (!shown_) return;
  // erase the line: the results printed next start on a clean one
  std::fprintf(o_.out, "\r%*s\r", o_.width - 1, "");
  std::fflush(o_.out);
}

}  // namespace gpuplan::cli::progress
