// tools/gpuplan/chart.cpp: text and gnuplot renderings of a chart_spec (see chart.hpp).
#include "chart.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>

extern char** environ;  // the environment gnuplot inherits (POSIX)

namespace gpuplan::cli::chart {

namespace {

constexpr char markers[] = {'*', 'o', '+', 'x', '#', '@', '%', '&'};

std::string number(double v) {
  if (v == 0) return "0";
  char buf[32];
  const double a = std::fabs(v);
  if (a >= 1e6 || a < 1e-3)
    std::snprintf(buf, sizeof buf, "%.2e", v);
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

/// A number a script reads back: enough digits for a Unix time to the second (1.8e9) and for a
/// price to the cent.
std::string exact(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

std::string fmt_integer(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string time_label(double unix_s, double span) {
  const auto t = static_cast<std::time_t>(std::floor(unix_s));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  if (span < 2 * 86400.0)
    std::strftime(buf, sizeof buf, "%H:%M", &tm);
  else
    std::strftime(buf, sizeof buf, "%m-%d %H:%M", &tm);
  return buf;
}

struct axis {
  double lo = 0, hi = 1;
  bool log = false;
  [[nodiscard]] double to(double v) const { return log ? std::log10(v) : v; }
  [[nodiscard]] double from(double t) const { return log ? std::pow(10.0, t) : t; }
};

/// Data and band ranges, with overrides; throws when nothing is drawable.
void ranges(const chart_spec& c, axis& x, axis& y) {
  x.log = c.log_x;
  y.log = c.log_y;
  double xl = std::numeric_limits<double>::infinity(), xh = -xl, yl = xl, yh = -xl;
  for (const series& s : c.data)
    for (const auto& [px, py] : s.points) {
      if (!std::isfinite(px) || !std::isfinite(py)) continue;
      if ((c.log_x && px <= 0) || (c.log_y && py <= 0))
        throw std::invalid_argument("chart '" + c.title + "': series '" + s.name +
                                    "' has a value <= 0 on a log axis");
      xl = std::min(xl, px);
      xh = std::max(xh, px);
      yl = std::min(yl, py);
      yh = std::max(yh, py);
    }
  if (!(xl <= xh)) throw std::invalid_argument("chart '" + c.title + "': no finite points to draw");
  for (const band& b : c.bands)
    for (double v : {b.from, b.to})
      if (std::isfinite(v) && (!c.log_y || v > 0)) {
        yl = std::min(yl, v);
        yh = std::max(yh, v);
      }
  if (c.x_min) xl = *c.x_min;
  if (c.x_max) xh = *c.x_max;
  if (c.y_min) yl = *c.y_min;
  if (c.y_max) yh = *c.y_max;
  x.lo = x.to(xl);
  x.hi = x.to(xh);
  y.lo = y.to(yl);
  y.hi = y.to(yh);
  if (x.hi <= x.lo) {
    x.lo -= 0.5;
    x.hi += 0.5;
  }
  if (y.hi <= y.lo) {
    const double pad = std::fabs(y.lo) > 0 ? std::fabs(y.lo) * 0.1 : 1.0;
    y.lo -= pad;
    y.hi += pad;
  }
}

std::string center(const std::string& s, std::size_t width) {
  if (s.size() >= width) return s;
  return std::string((width - s.size()) / 2, ' ') + s;
}

}  // namespace

namespace {

/// The text chart's plotting area: H rows of W columns over the axes' ranges.
struct plot_area {
  axis x, y;
  std::size_t H = 0, W = 0;
  std::vector<std::string> grid;

  [[nodiscard]] long row_of(double v) const {
    const double t = (y.hi - y.to(v)) / (y.hi - y.lo);
    return std::lround(t * static_cast<double>(H - 1));
  }
  [[nodiscard]] double col_x(std::size_t j, double frac) const {
    return x.from(x.lo + (x.hi - x.lo) * (static_cast<double>(j) + frac) / static_cast<double>(W));
  }
  void put(long r, std::size_t j, char m) {
    if (r >= 0 && r < static_cast<long>(H) && j < W) grid[static_cast<std::size_t>(r)][j] = m;
  }
};

/// Band edges, dashed across the area (drawn first: series draw over them).
void draw_bands(const chart_spec& c, plot_area& a) {
  for (const band& b : c.bands)
    for (double v : {b.from, b.to}) {
      if (c.log_y && v <= 0) continue;
      const long r = a.row_of(v);
      for (std::size_t j = 0; j < a.W; j += 2) a.put(r, j, '-');
    }
}

/// One series with marker `m`: each column's points as their span; between points, lines
/// interpolate and steps hold the last value, inside the series' range.
void draw_series(const series& sr, char m, plot_area& a) {
  std::vector<std::pair<double, double>> pts;
  for (const auto& p : sr.points)
    if (std::isfinite(p.first) && std::isfinite(p.second)) pts.push_back(p);
  std::sort(pts.begin(), pts.end());
  if (pts.empty()) return;
  std::size_t k = 0;
  // The right edge of the last column is the axis's end: a point exactly there (the rightmost
  // point of the data, which sets the end) belongs to the last column. Compared on the axis's
  // own scale with a rounding allowance, as x1 comes back through pow() on a log axis and can
  // fall a hair short of the point (the Pareto chart dropped its cheapest point so).
  const double edge_slack = 1e-9 * (a.x.hi - a.x.lo);
  auto in_column = [&](double px, std::size_t j, double x1) {
    if (px < x1) return true;
    return j + 1 == a.W && a.x.to(px) <= a.x.hi + edge_slack;
  };
  for (std::size_t j = 0; j < a.W; ++j) {
    const double x0 = a.col_x(j, 0.0), x1 = a.col_x(j, 1.0);
    // points inside this column: draw their span
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    while (k < pts.size() && in_column(pts[k].first, j, x1)) {
      if (pts[k].first >= x0) {
        lo = std::min(lo, pts[k].second);
        hi = std::max(hi, pts[k].second);
      }
      ++k;
    }
    if (lo <= hi) {
      const long r0 = a.row_of(hi), r1 = a.row_of(lo);
      for (long r = r0; r <= r1; ++r) a.put(r, j, m);
      continue;
    }
    if (sr.draw == style::points) continue;
    // no point here: interpolate (lines) or hold the last value (steps) inside the series' range
    const double xm = a.col_x(j, 0.5);
    if (xm < pts.front().first || xm > pts.back().first) continue;
    const auto after = std::upper_bound(pts.begin(), pts.end(), std::make_pair(xm, -std::numeric_limits<double>::infinity()));
    if (after == pts.begin() || after == pts.end()) continue;
    const auto before = std::prev(after);
    double v = before->second;
    if (sr.draw == style::lines && after->first > before->first) {
      const double t = (xm - before->first) / (after->first - before->first);
      v = before->second + t * (after->second - before->second);
    }
    a.put(a.row_of(v), j, m);
  }
}

/// The x axis's tick labels (left, middle, right) under the area, and its label.
void write_x_axis(const chart_spec& c, const plot_area& a, std::size_t label_w, int width,
                  std::ostringstream& out) {
  const double span = a.x.from(a.x.hi) - a.x.from(a.x.lo);
  auto xl = [&](double v) { return c.x_is_time ? time_label(v, span) : number(v); };
  std::string ticks(static_cast<std::size_t>(width), ' ');
  auto place = [&](std::size_t at, const std::string& s) {
    at = std::min(at, ticks.size() > s.size() ? ticks.size() - s.size() : 0);
    ticks.replace(at, s.size(), s);
  };
  std::vector<double> at;  // the ticks inside the axis, in order
  for (double v : c.x_ticks)
    if (std::isfinite(v) && (!c.log_x || v > 0) && a.x.to(v) >= a.x.lo - 1e-9 * (a.x.hi - a.x.lo) &&
        a.x.to(v) <= a.x.hi + 1e-9 * (a.x.hi - a.x.lo))
      at.push_back(v);
  std::sort(at.begin(), at.end());
  if (at.empty()) {
    const std::string l = xl(a.x.from(a.x.lo)), m = xl(a.x.from((a.x.lo + a.x.hi) / 2)),
                      r = xl(a.x.from(a.x.hi));
    place(label_w + 2, l);
    place(label_w + 2 + a.W / 2 - m.size() / 2, m);
    place(label_w + 2 + a.W - r.size(), r);
  } else {
    // each tick centred under its column; one that would overlap the previous one is skipped
    std::size_t free_from = 0;
    for (double v : at) {
      // a whole number (a GPU count) as written: 12288, not 1.229e+04
      const std::string t = !c.x_is_time && v == std::floor(v) && std::fabs(v) < 1e9
                                ? fmt_integer(v)
                                : xl(v);
      const double frac = (a.x.to(v) - a.x.lo) / (a.x.hi - a.x.lo);
      const auto col = static_cast<std::size_t>(
          std::min(static_cast<double>(a.W - 1), std::max(0.0, std::floor(frac * static_cast<double>(a.W)))));
      std::size_t start = label_w + 2 + col;
      start = start >= t.size() / 2 ? start - t.size() / 2 : 0;
      start = std::min(start, ticks.size() > t.size() ? ticks.size() - t.size() : 0);
      if (start < free_from) continue;
      place(start, t);
      free_from = start + t.size() + 1;
    }
  }
  while (!ticks.empty() && ticks.back() == ' ') ticks.pop_back();
  out << ticks << '\n';
  if (!c.x_label.empty())
    out << center(c.x_label + (c.x_is_time ? " (" + c.time_zone + ")" : ""),
                  static_cast<std::size_t>(width))
        << '\n';
}

/// The series' markers and names, wrapped at `width`, then the bands' labels.
void write_legend(const chart_spec& c, int width, std::ostringstream& out) {
  std::string legend;
  for (std::size_t si = 0; si < c.data.size(); ++si) {
    const std::string item = std::string(1, markers[si % sizeof markers]) + " " + c.data[si].name;
    if (!legend.empty() && legend.size() + item.size() + 3 > static_cast<std::size_t>(width)) {
      out << legend << '\n';
      legend.clear();
    }
    legend += (legend.empty() ? "" : "   ") + item;
  }
  if (!legend.empty()) out << legend << '\n';
  for (std::size_t si = 0; si < c.data.size(); ++si) {
    const series& sr = c.data[si];
    if (sr.labels.size() != sr.points.size() || sr.points.size() > max_text_labels) continue;
    for (std::size_t i = 0; i < sr.points.size(); ++i)
      out << markers[si % sizeof markers] << ' ' << sr.labels[i] << " at ("
          << number(sr.points[i].first) << ", " << number(sr.points[i].second) << ")\n";
  }
  for (const band& b : c.bands)
    out << "- - " << b.label << ": "
        << (b.from == b.to ? number(b.from) : number(b.from) + " to " + number(b.to)) << '\n';
}

}  // namespace

std::string render_text(const chart_spec& c, int width, int height) {
  width = std::max(width, 40);
  height = std::max(height, 5);
  plot_area a;
  ranges(c, a.x, a.y);
  a.H = static_cast<std::size_t>(height);
  // y tick labels at the top, middle and bottom rows
  const std::string y_top = number(a.y.from(a.y.hi)), y_mid = number(a.y.from((a.y.hi + a.y.lo) / 2)),
                    y_bot = number(a.y.from(a.y.lo));
  const std::size_t label_w = std::max({y_top.size(), y_mid.size(), y_bot.size()});
  a.W = static_cast<std::size_t>(width) - label_w - 2;
  a.grid.assign(a.H, std::string(a.W, ' '));
  draw_bands(c, a);
  for (std::size_t si = 0; si < c.data.size(); ++si)
    draw_series(c.data[si], markers[si % sizeof markers], a);
  std::ostringstream out;
  if (!c.title.empty()) out << center(c.title, static_cast<std::size_t>(width)) << '\n';
  if (!c.y_label.empty()) out << c.y_label << '\n';
  for (std::size_t r = 0; r < a.H; ++r) {
    std::string label;
    if (r == 0) label = y_top;
    else if (r == a.H / 2) label = y_mid;
    else if (r == a.H - 1) label = y_bot;
    out << std::string(label_w - label.size(), ' ') << label << " |" << a.grid[r] << '\n';
  }
  out << std::string(label_w + 1, ' ') << '+' << std::string(a.W, '-') << '\n';
  write_x_axis(c, a, label_w, width, out);
  write_legend(c, width, out);
  return out.str();
}

// ---- gnuplot -------------------------------------------------------------------------------------

std::filesystem::path find_gnuplot() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest = path;
  while (true) {
    const auto colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) {
      const std::filesystem::path p = std::filesystem::path(dir) / "gnuplot";
      std::error_code ec;
      if (std::filesystem::is_regular_file(p, ec)) return p;
    }
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return {};
}

namespace {

bool is_control(char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; }

/// A file name as a message shows it: control characters as '?'. Its length is main.cpp's to
/// bound (one_line keeps a long word's start and end, so the extension a message is about shows).
std::string shown(const std::filesystem::path& p) {
  std::string s = p.string();
  std::replace_if(s.begin(), s.end(), is_control, '?');
  return s;
}

/// A gnuplot single-quoted string. gnuplot 5.4 reads single-quoted text literally: no backquote
/// command substitution (that happens in double quotes only), no @macro expansion, no backslash
/// escapes; a quote is written twice (checked against the real gnuplot by tests/cli/
/// cases_security.py). A control character could end the command (a newline) or the comment line,
/// so each becomes a space. The terminals are `noenhanced`, so ^ _ @ { } are shown, not read as
/// markup.
std::string gp_quote(std::string_view s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') out += "''";
    else if (is_control(ch)) out += ' ';
    else out += ch;
  }
  return out + "'";
}

/// A file name in a gnuplot script: quoted, and a relative one prefixed with "./" so that no
/// first character ('|' or '<': a command; '~': the home folder) is read as more than a name.
std::string gp_path(const std::filesystem::path& p) {
  return gp_quote(p.is_relative() ? "./" + p.string() : p.string());
}

/// "--chart: " (the flag or plan key the name came from), or nothing.
std::string prefix_of(std::string_view what) {
  return what.empty() ? std::string() : std::string(what) + ": ";
}

std::string terminal_for(const std::filesystem::path& image, std::string_view what = {}) {
  std::string ext = image.extension().string();
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (ext == ".svg") return "set terminal svg size 960,540 dynamic noenhanced background rgb 'white'";
  if (ext == ".png") return "set terminal png noenhanced size 960,540";
  throw std::invalid_argument(prefix_of(what) + "chart file '" + shown(image) +
                              "': the extension must be .svg or .png");
}

constexpr const char* band_colors[] = {"#2ca02c", "#ff7f0e", "#1f77b4", "#d62728", "#9467bd"};

/// The error for a file operation that failed with errno `err`: the user's to fix (exit 2).
[[noreturn]] void file_failure(std::string_view what, const std::string& doing, int err) {
  throw std::invalid_argument(prefix_of(what) + doing + ": " + std::strerror(err));
}

/// What a file is (for the refusal of one that is not a regular file).
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a named pipe";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

replaced check_target(const std::filesystem::path& target, std::string_view what) {
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) return replaced::nothing;
    file_failure(what, "cannot look at '" + shown(target) + "'", err);
  }
  if (S_ISLNK(st.st_mode)) return replaced::link;
  if (S_ISREG(st.st_mode)) return replaced::file;
  throw std::invalid_argument(prefix_of(what) + "'" + shown(target) + "' is " + kind_of(st.st_mode) +
                              ", not a regular file: it is not replaced");
}

void check_file_name(const std::filesystem::path& image, std::string_view what) {
  const std::string s = image.string();
  if (s.empty()) throw std::invalid_argument(prefix_of(what) + "the chart file name is empty");
  if (std::any_of(s.begin(), s.end(), is_control))
    throw std::invalid_argument(prefix_of(what) + "chart file '" + shown(image) +
                                "': the name holds a control character");
  const std::size_t first = s.find_first_not_of(' ');
  if (first != std::string::npos && (s[first] == '|' || s[first] == '<'))
    throw std::invalid_argument(prefix_of(what) + "chart file '" + shown(image) +
                                "': gnuplot reads a name starting with '" + s[first] +
                                "' as a command to run; refused");
}

temp_file::temp_file(const std::filesystem::path& folder, const std::string& suffix,
                     std::string_view what)
    : what_(what) {
  std::error_code ec;
  const std::filesystem::path dir =
      std::filesystem::absolute(folder.empty() ? std::filesystem::path(".") : folder, ec);
  if (ec) file_failure(what, "cannot find the folder '" + shown(folder) + "'", ec.value());
  std::string name = (dir / (".gpuplan-XXXXXX" + suffix)).string();
  fd_ = ::mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd_ < 0) file_failure(what, "cannot create a file in the folder '" + shown(dir) + "'", errno);
  path_ = name;
  // mkstemps makes the file 0600; the chart is an ordinary file (0666 less the umask)
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd_, static_cast<mode_t>(0666) & ~mask) != 0) {
    const int err = errno;
    ::close(fd_);
    ::unlink(path_.c_str());
    file_failure(what, "cannot set the mode of '" + shown(path_) + "'", err);
  }
}

temp_file::~temp_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!placed_) ::unlink(path_.c_str());
}

void temp_file::write(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd_, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) file_failure(what_, "cannot write '" + shown(path_) + "'", n < 0 ? errno : EIO);
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

void temp_file::close() {
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) file_failure(what_, "cannot write '" + shown(path_) + "'", errno);
}

void temp_file::place(const std::filesystem::path& target) {
  close();
  if (::rename(path_.c_str(), target.c_str()) != 0)
    file_failure(what_, "cannot write '" + shown(target) + "'", errno);
  placed_ = true;
}

replaced write_file(const std::filesystem::path& target, std::string_view text, std::string_view what) {
  const replaced before = check_target(target, what);
  temp_file f(target.parent_path(), target.extension().string(), what);
  f.write(text);
  f.place(target);
  return before;
}

namespace {

/// " (replacing the existing X)" or " (replacing the symbolic link X, not the file it pointed to)".
std::string replaced_note(const std::filesystem::path& p, replaced r) {
  switch (r) {
    case replaced::nothing: return {};
    case replaced::file: return " (replacing the existing " + p.string() + ")";
    case replaced::link:
      return " (replacing the symbolic link " + p.string() + ", not the file it pointed to)";
  }
  return {};
}

/// The script that draws `c` into `output` (terminal by `image`'s extension); `source(i)` is the
/// data of series i as gnuplot reads it (a file's index block, or a datablock).
template <class Source>
std::string script_text(const chart_spec& c, const std::filesystem::path& image,
                        const std::string& output, const std::string& preamble, Source source) {
  std::ostringstream s;
  s << "# gpuplan chart: gnuplot " << gp_quote(script_path_for(image).filename().string()) << '\n';
  s << terminal_for(image) << '\n';
  s << preamble;
  s << "set output " << output << '\n';
  if (!c.title.empty()) s << "set title " << gp_quote(c.title) << '\n';
  if (!c.x_label.empty())
    s << "set xlabel " << gp_quote(c.x_label + (c.x_is_time ? " (" + c.time_zone + ")" : "")) << '\n';
  if (!c.y_label.empty()) s << "set ylabel " << gp_quote(c.y_label) << '\n';
  s << "set grid\nset key below\n";
  if (c.x_is_time) s << "set xdata time\nset timefmt '%s'\nset format x '%H:%M'\n";
  if (c.log_x) s << "set logscale x\n";
  if (c.log_y) s << "set logscale y\n";
  // the ranges of the data with a margin, not gnuplot's autoscale (which rounds a log axis out to
  // whole decades and puts a point on the border)
  const file_ranges fr = ranges_for_file(c);
  s << "set xrange [" << exact(fr.x_lo) << ":" << exact(fr.x_hi) << "]\n";
  s << "set yrange [" << exact(fr.y_lo) << ":" << exact(fr.y_hi) << "]\n";
  if (!c.x_ticks.empty()) {
    s << "set xtics (";
    bool first = true;
    for (double v : c.x_ticks) {
      if (!std::isfinite(v) || (c.log_x && v <= 0)) continue;
      s << (first ? "" : ", ") << exact(v);
      first = false;
    }
    s << ")\n";
    if (c.log_x) s << "unset mxtics\n";
  }
  int object = 1;
  for (std::size_t i = 0; i < c.bands.size(); ++i) {
    const band& b = c.bands[i];
    const std::string color = band_colors[i % (sizeof band_colors / sizeof band_colors[0])];
    if (b.from == b.to) {
      s << "set arrow " << object << " from graph 0, first " << b.from << " to graph 1, first "
        << b.to << " nohead dt 2 lw 1.5 lc rgb '" << color << "'\n";
    } else {
      s << "set object " << object << " rect from graph 0, first " << b.from
        << " to graph 1, first " << b.to << " fc rgb '" << color
        << "' fs transparent solid 0.12 noborder behind\n";
    }
    s << "set label " << object << ' ' << gp_quote(b.label) << " at graph 0.01, first "
      << (b.from + b.to) / 2 << " offset 0,0.6 font ',9' tc rgb '" << color << "'\n";
    ++object;
  }
  // point labels: `set label` with the quoted text (gp_quote), at the point, up and to its right
  // (or, in the right half of the plot, to its left, so that the text stays inside the plot)
  const auto x_axis_pos = [&](double v) {
    return c.log_x ? (std::log10(v) - std::log10(fr.x_lo)) / (std::log10(fr.x_hi) - std::log10(fr.x_lo))
                   : (v - fr.x_lo) / (fr.x_hi - fr.x_lo);
  };
  for (const series& sr : c.data) {
    if (sr.labels.size() != sr.points.size()) continue;
    for (std::size_t i = 0; i < sr.points.size(); ++i) {
      const auto& [px, py] = sr.points[i];
      if (!std::isfinite(px) || !std::isfinite(py) || sr.labels[i].empty()) continue;
      const bool right_half = x_axis_pos(px) > 0.5;
      s << "set label " << object++ << ' ' << gp_quote(sr.labels[i]) << " at first " << exact(px)
        << ", first " << exact(py)
        << (right_half ? " right offset char -1,0.6" : " left offset char 1,0.6") << " font ',9'\n";
    }
  }
  s << "plot ";
  for (std::size_t si = 0; si < c.data.size(); ++si) {
    if (si > 0) s << ", \\\n     ";
    s << source(si) << " using 1:2 with "
      << (c.data[si].draw == style::points ? "points pt 7 ps 1.8"
          : c.data[si].draw == style::steps ? "steps lw 1.5"
                                            : "lines lw 1.5")
      << " title " << gp_quote(c.data[si].name);
  }
  s << '\n';
  return s.str();
}

/// The finite points of a series, sorted by x, one "x y" line each.
std::string points_text(const series& s) {
  std::ostringstream out;
  out.precision(17);
  std::vector<std::pair<double, double>> pts = s.points;
  std::sort(pts.begin(), pts.end());
  for (const auto& [px, py] : pts)
    if (std::isfinite(px) && std::isfinite(py)) out << px << ' ' << py << '\n';
  return out.str();
}

/// Runs `gnuplot script` without a shell (posix_spawn: the arguments are not parsed), stdin and
/// stdout on /dev/null; returns its wait status and the last meaningful line of its stderr.
std::pair<int, std::string> run_gnuplot(const std::filesystem::path& gnuplot,
                                        const std::filesystem::path& script, std::string_view what) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) file_failure(what, "cannot run gnuplot", errno);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  std::string arg0 = "gnuplot", arg1 = script.string();
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    file_failure(what, "cannot run " + shown(gnuplot), spawned);
  }
  // Only the last line is kept; stderr is read to its end so gnuplot never blocks on it.
  std::string pending, last;
  char buf[4096];
  auto take = [&](std::string_view line) {
    if (!line.empty() && line.find_first_not_of(" ^\r") != std::string_view::npos) last = line;
  };
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    pending.append(buf, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
      take(std::string_view(pending).substr(0, nl));
    if (pending.size() > sizeof buf) pending.erase(0, pending.size() - sizeof buf);
  }
  take(pending);
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) file_failure(what, "cannot wait for gnuplot", errno);
  return {status, last};
}

}  // namespace

std::filesystem::path script_path_for(const std::filesystem::path& image) {
  std::filesystem::path p = image;
  p.replace_extension();
  return p.string() + ".gp";
}

std::filesystem::path data_path_for(const std::filesystem::path& image) {
  std::filesystem::path p = image;
  p.replace_extension();
  return p.string() + ".dat";
}

file_ranges ranges_for_file(const chart_spec& c) {
  axis x, y;
  ranges(c, x, y);
  const double mx = file_margin * (x.hi - x.lo), my = file_margin * (y.hi - y.lo);
  file_ranges r;
  r.x_lo = c.x_min ? *c.x_min : x.from(x.lo - mx);
  r.x_hi = c.x_max ? *c.x_max : x.from(x.hi + mx);
  r.y_lo = c.y_min ? *c.y_min : y.from(y.lo - my);
  r.y_hi = c.y_max ? *c.y_max : y.from(y.hi + my);
  return r;
}

std::string gnuplot_data(const chart_spec& c) {
  std::string out;
  for (std::size_t si = 0; si < c.data.size(); ++si) {
    if (si > 0) out += "\n\n";  // a new index block
    std::string name = c.data[si].name;
    for (char& ch : name)
      if (is_control(ch)) ch = ' ';  // a newline would end the comment and add a data row
    out += "# " + name + '\n' + points_text(c.data[si]);
  }
  return out;
}

std::string gnuplot_script(const chart_spec& c, const std::filesystem::path& data_file,
                           const std::filesystem::path& image) {
  return script_text(c, image, gp_path(image), "", [&](std::size_t si) {
    return gp_path(data_file) + " index " + std::to_string(si);
  });
}

file_result render_file(const chart_spec& c, const std::filesystem::path& image,
                        std::string_view what) {
  check_file_name(image, what);
  terminal_for(image, what);  // rejects other extensions before anything is written
  // A file in a folder that does not exist is the user's path, not an internal failure: say so
  // (it came back as gnuplot's failure, exit 3)
  const std::filesystem::path folder = image.parent_path();
  std::error_code dir_ec;
  if (!folder.empty() && !std::filesystem::is_directory(folder, dir_ec))
    throw std::invalid_argument(prefix_of(what) + "chart file '" + shown(image) + "': the folder '" +
                                shown(folder) + "' does not exist");
  axis x, y;
  ranges(c, x, y);  // rejects empty charts and bad log values
  file_result r;
  r.image = image;
  const std::filesystem::path gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    r.data = data_path_for(image);
    r.script = script_path_for(image);
    check_target(r.data, what);  // both refused before either is written
    check_target(r.script, what);
    const replaced data_before = write_file(r.data, gnuplot_data(c), what);
    const replaced script_before = write_file(r.script, gnuplot_script(c, r.data, image), what);
    // whole names (no control character: refused above), so the command can be copied
    r.message = "gnuplot is not on PATH: wrote " + r.data.string() +
                replaced_note(r.data, data_before) + " and " + r.script.string() +
                replaced_note(r.script, script_before) + "; draw " + image.string() +
                " with `gnuplot " + r.script.string() + "`";
    return r;
  }
  // gnuplot never sees the user's name: it draws into a file of ours (mkstemps in the same
  // folder, an absolute path), which is renamed onto the name once drawn. The script and the data
  // (inline datablocks) are another file of ours there; no temporary folder (TMPDIR) is used.
  const replaced before = check_target(image, what);
  temp_file drawing(folder, image.extension().string(), what);
  drawing.close();
  // the folder's absolute name includes the working directory's, which the checks above did not
  // see: a control character there would change the name gnuplot opens
  const std::string drawing_name = drawing.path().string();
  if (std::any_of(drawing_name.begin(), drawing_name.end(), is_control))
    throw std::invalid_argument(prefix_of(what) + "chart file '" + shown(drawing.path()) +
                                "': the folder's name holds a control character");
  std::string preamble;
  for (std::size_t si = 0; si < c.data.size(); ++si)
    preamble += "$s" + std::to_string(si) + " << EOD\n" + points_text(c.data[si]) + "EOD\n";
  temp_file script(folder, ".gp", what);
  script.write(script_text(c, image, gp_quote(drawing.path().string()), preamble,
                           [](std::size_t si) { return "$s" + std::to_string(si); }));
  script.close();
  auto [status, last_line] = run_gnuplot(gnuplot, script.path(), what);
  // gnuplot names the script it read, a file of ours removed on the way out: name the chart's
  for (std::size_t at; (at = last_line.find(script.path().string())) != std::string::npos;)
    last_line.replace(at, script.path().string().size(), "the script of " + shown(image));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::invalid_argument(prefix_of(what) + "gnuplot (" + shown(gnuplot) +
                                ") failed drawing " + shown(image) +
                                (last_line.empty() ? std::string() : ": " + last_line));
  struct stat st {};
  if (::stat(drawing.path().c_str(), &st) != 0 || st.st_size == 0)
    throw std::invalid_argument(prefix_of(what) + "gnuplot (" + shown(gnuplot) +
                                ") wrote nothing for " + shown(image) +
                                (last_line.empty() ? std::string() : ": " + last_line));
  drawing.place(image);
  r.drawn = true;
  r.message = "wrote " + image.string() + replaced_note(image, before);
  return r;
}

}  // namespace gpuplan::cli::chart
