// examples/gpuplan/chart.cpp: text and gnuplot renderings of a chart_spec (see chart.hpp).
#include "chart.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>

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

std::string render_text(const chart_spec& c, int width, int height) {
  width = std::max(width, 40);
  height = std::max(height, 5);
  axis x, y;
  ranges(c, x, y);
  const auto H = static_cast<std::size_t>(height);
  // y tick labels at the top, middle and bottom rows
  const std::string y_top = number(y.from(y.hi)), y_mid = number(y.from((y.hi + y.lo) / 2)),
                    y_bot = number(y.from(y.lo));
  const std::size_t label_w = std::max({y_top.size(), y_mid.size(), y_bot.size()});
  const auto W = static_cast<std::size_t>(width) - label_w - 2;
  std::vector<std::string> grid(H, std::string(W, ' '));
  auto row_of = [&](double v) -> long {
    const double t = (y.hi - y.to(v)) / (y.hi - y.lo);
    return std::lround(t * static_cast<double>(H - 1));
  };
  auto col_x = [&](std::size_t j, double frac) {
    return x.from(x.lo + (x.hi - x.lo) * (static_cast<double>(j) + frac) / static_cast<double>(W));
  };
  auto put = [&](long r, std::size_t j, char m) {
    if (r >= 0 && r < static_cast<long>(H) && j < W) grid[static_cast<std::size_t>(r)][j] = m;
  };
  // Band edges first (series draw over them).
  for (const band& b : c.bands)
    for (double v : {b.from, b.to}) {
      if (c.log_y && v <= 0) continue;
      const long r = row_of(v);
      for (std::size_t j = 0; j < W; j += 2) put(r, j, '-');
    }
  for (std::size_t si = 0; si < c.data.size(); ++si) {
    const char m = markers[si % sizeof markers];
    std::vector<std::pair<double, double>> pts;
    for (const auto& p : c.data[si].points)
      if (std::isfinite(p.first) && std::isfinite(p.second)) pts.push_back(p);
    std::sort(pts.begin(), pts.end());
    if (pts.empty()) continue;
    std::size_t k = 0;
    for (std::size_t j = 0; j < W; ++j) {
      const double x0 = col_x(j, 0.0), x1 = col_x(j, 1.0);
      // points inside this column: draw their span
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      while (k < pts.size() && pts[k].first < x1) {
        if (pts[k].first >= x0) {
          lo = std::min(lo, pts[k].second);
          hi = std::max(hi, pts[k].second);
        }
        ++k;
      }
      if (lo <= hi) {
        const long r0 = row_of(hi), r1 = row_of(lo);
        for (long r = r0; r <= r1; ++r) put(r, j, m);
        continue;
      }
      if (c.data[si].draw == style::points) continue;
      // no point here: interpolate (lines) or hold the last value (steps) inside the series' range
      const double xm = col_x(j, 0.5);
      if (xm < pts.front().first || xm > pts.back().first) continue;
      const auto after = std::upper_bound(pts.begin(), pts.end(), std::make_pair(xm, -std::numeric_limits<double>::infinity()));
      if (after == pts.begin() || after == pts.end()) continue;
      const auto before = std::prev(after);
      double v = before->second;
      if (c.data[si].draw == style::lines && after->first > before->first) {
        const double t = (xm - before->first) / (after->first - before->first);
        v = before->second + t * (after->second - before->second);
      }
      put(row_of(v), j, m);
    }
  }
  std::ostringstream out;
  if (!c.title.empty()) out << center(c.title, static_cast<std::size_t>(width)) << '\n';
  if (!c.y_label.empty()) out << c.y_label << '\n';
  for (std::size_t r = 0; r < H; ++r) {
    std::string label;
    if (r == 0) label = y_top;
    else if (r == H / 2) label = y_mid;
    else if (r == H - 1) label = y_bot;
    out << std::string(label_w - label.size(), ' ') << label << " |" << grid[r] << '\n';
  }
  out << std::string(label_w + 1, ' ') << '+' << std::string(W, '-') << '\n';
  const double span = x.from(x.hi) - x.from(x.lo);
  auto xl = [&](double v) { return c.x_is_time ? time_label(v, span) : number(v); };
  const std::string l = xl(x.from(x.lo)), m = xl(x.from((x.lo + x.hi) / 2)), r = xl(x.from(x.hi));
  std::string ticks(static_cast<std::size_t>(width), ' ');
  auto place = [&](std::size_t at, const std::string& s) {
    at = std::min(at, ticks.size() > s.size() ? ticks.size() - s.size() : 0);
    ticks.replace(at, s.size(), s);
  };
  place(label_w + 2, l);
  place(label_w + 2 + W / 2 - m.size() / 2, m);
  place(label_w + 2 + W - r.size(), r);
  while (!ticks.empty() && ticks.back() == ' ') ticks.pop_back();
  out << ticks << '\n';
  if (!c.x_label.empty())
    out << center(c.x_label + (c.x_is_time ? " (UTC)" : ""), static_cast<std::size_t>(width)) << '\n';
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
  for (const band& b : c.bands)
    out << "- - " << b.label << ": "
        << (b.from == b.to ? number(b.from) : number(b.from) + " to " + number(b.to)) << '\n';
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

/// A gnuplot single-quoted string: no escapes are processed; a quote is written twice.
std::string gp_quote(std::string_view s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') out += "''";
    else if (ch == '\n') out += ' ';
    else out += ch;
  }
  return out + "'";
}

/// A POSIX shell single-quoted word.
std::string sh_quote(std::string_view s) {
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') out += "'\\''";
    else out += ch;
  }
  return out + "'";
}

std::string terminal_for(const std::filesystem::path& image) {
  std::string ext = image.extension().string();
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (ext == ".svg") return "set terminal svg size 960,540 dynamic background rgb 'white'";
  if (ext == ".png") return "set terminal png size 960,540";
  throw std::invalid_argument("chart file '" + image.string() +
                              "': the extension must be .svg or .png");
}

constexpr const char* band_colors[] = {"#2ca02c", "#ff7f0e", "#1f77b4", "#d62728", "#9467bd"};

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  f.close();
  if (!f) throw std::runtime_error(p.string() + ": cannot write the file");
}

}  // namespace

std::string gnuplot_data(const chart_spec& c) {
  std::ostringstream out;
  out.precision(17);
  for (std::size_t si = 0; si < c.data.size(); ++si) {
    if (si > 0) out << "\n\n";  // a new index block
    out << "# " << c.data[si].name << '\n';
    std::vector<std::pair<double, double>> pts = c.data[si].points;
    std::sort(pts.begin(), pts.end());
    for (const auto& [px, py] : pts)
      if (std::isfinite(px) && std::isfinite(py)) out << px << ' ' << py << '\n';
  }
  return out.str();
}

std::string gnuplot_script(const chart_spec& c, const std::filesystem::path& data_file,
                           const std::filesystem::path& image) {
  std::ostringstream s;
  s << "# gpuplan chart: gnuplot " << gp_quote(image.filename().string() + ".gp") << '\n';
  s << terminal_for(image) << '\n';
  s << "set output " << gp_quote(image.string()) << '\n';
  if (!c.title.empty()) s << "set title " << gp_quote(c.title) << '\n';
  if (!c.x_label.empty()) s << "set xlabel " << gp_quote(c.x_label + (c.x_is_time ? " (UTC)" : "")) << '\n';
  if (!c.y_label.empty()) s << "set ylabel " << gp_quote(c.y_label) << '\n';
  s << "set grid\nset key below\n";
  if (c.x_is_time) s << "set xdata time\nset timefmt '%s'\nset format x '%H:%M'\n";
  if (c.log_x) s << "set logscale x\n";
  if (c.log_y) s << "set logscale y\n";
  auto range = [&](const std::optional<double>& lo, const std::optional<double>& hi) {
    return "[" + (lo ? number(*lo) : std::string("*")) + ":" + (hi ? number(*hi) : std::string("*")) + "]";
  };
  if (c.x_min || c.x_max) s << "set xrange " << range(c.x_min, c.x_max) << '\n';
  if (c.y_min || c.y_max) s << "set yrange " << range(c.y_min, c.y_max) << '\n';
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
  s << "plot ";
  for (std::size_t si = 0; si < c.data.size(); ++si) {
    if (si > 0) s << ", \\\n     ";
    s << gp_quote(data_file.string()) << " index " << si << " using 1:2 with "
      << (c.data[si].draw == style::points ? "points pt 7 ps 0.5"
          : c.data[si].draw == style::steps ? "steps lw 1.5"
                                            : "lines lw 1.5")
      << " title " << gp_quote(c.data[si].name);
  }
  s << '\n';
  return s.str();
}

file_result render_file(const chart_spec& c, const std::filesystem::path& image) {
  terminal_for(image);  // rejects other extensions before anything is written
  // A file in a folder that does not exist is the user's path, not an internal failure: say so
  // (it came back as gnuplot's failure, exit 3)
  const std::filesystem::path folder = image.parent_path();
  std::error_code dir_ec;
  if (!folder.empty() && !std::filesystem::is_directory(folder, dir_ec))
    throw std::invalid_argument("chart file '" + image.string() + "': the folder '" +
                                folder.string() + "' does not exist");
  axis x, y;
  ranges(c, x, y);  // rejects empty charts and bad log values
  file_result r;
  r.image = image;
  const std::filesystem::path gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    std::filesystem::path stem = image;
    stem.replace_extension();
    r.data = stem.string() + ".dat";
    r.script = stem.string() + ".gp";
    write_file(r.data, gnuplot_data(c));
    write_file(r.script, gnuplot_script(c, r.data, image));
    r.message = "gnuplot is not on PATH: wrote " + r.data.string() + " and " + r.script.string() +
                "; draw " + image.string() + " with `gnuplot " + r.script.string() + "`";
    return r;
  }
  std::error_code ec;
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec) /
                                    ("gpuplan-chart-" + std::to_string(stamp));
  if (ec || !std::filesystem::create_directory(tmp, ec))
    throw std::runtime_error("chart: cannot create a temporary directory for gnuplot");
  struct cleanup {
    std::filesystem::path p;
    ~cleanup() {
      std::error_code e;
      std::filesystem::remove_all(p, e);
    }
  } guard{tmp};
  const std::filesystem::path data = tmp / "chart.dat", script = tmp / "chart.gp",
                              log = tmp / "gnuplot.log";
  write_file(data, gnuplot_data(c));
  write_file(script, gnuplot_script(c, data, image));
  const std::string cmd = sh_quote(gnuplot.string()) + " " + sh_quote(script.string()) + " 2>" +
                          sh_quote(log.string());
  const int status = std::system(cmd.c_str());
  if (status != 0) {
    std::ifstream f(log);
    std::string first, line;
    while (std::getline(f, line))
      if (!line.empty() && line.find_first_not_of(" ^") != std::string::npos) first = line;
    throw std::runtime_error("chart: gnuplot failed drawing " + image.string() +
                             (first.empty() ? std::string() : ": " + first));
  }
  r.drawn = true;
  r.message = "wrote " + image.string();
  return r;
}

}  // namespace gpuplan::cli::chart
