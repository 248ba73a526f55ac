// examples/gpuplan/chart.hpp: the charts every command draws (utilisation over time, capacity
// over a horizon, scaling curves, latency-throughput curves, cost break-even).
//
// One description, two renderings:
//   render_text    a chart for the terminal, sized to a given width (80 columns by default):
//                  each series drawn with its own marker, horizontal bands as dotted edges with
//                  their labels, axes with tick values, a legend.
//   render_file    an SVG or PNG (by the file's extension) through gnuplot when `gnuplot` is on
//                  PATH; otherwise the data (.dat) and the script (.gp) are written beside the
//                  requested file and the result says how to draw it.
//
// Generic on purpose: named series of (x, y) points, optional horizontal bands (the 70-90%
// utilisation band, an SLO line), optional log axes and time on x. It depends on nothing but
// the standard library, so any command can use it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpuplan::cli::chart {

enum class style { lines, points, steps };

struct series {
  std::string name;
  std::vector<std::pair<double, double>> points;  ///< (x, y), any order (sorted by x to draw)
  style draw = style::lines;
};

/// A horizontal band between two y values (from == to: a line), e.g. {0.7, 0.9, "healthy"}.
struct band {
  double from = 0;
  double to = 0;
  std::string label;
};

struct chart_spec {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<series> data;
  std::vector<band> bands;
  std::optional<double> y_min, y_max;  ///< default: from the data and the bands
  std::optional<double> x_min, x_max;  ///< default: from the data
  bool x_is_time = false;  ///< x in Unix seconds: ticks as UTC times (HH:MM, or dates)
  bool log_x = false;
  bool log_y = false;
};

/// The chart as text, `width` columns wide (at least 40) and `height` plot rows (at least 5).
/// Throws std::invalid_argument when there is nothing to draw (no finite point) or a log axis has
/// a value <= 0.
std::string render_text(const chart_spec& c, int width = 80, int height = 16);

struct file_result {
  bool drawn = false;            ///< the image was written by gnuplot
  std::filesystem::path image;   ///< the requested file
  std::filesystem::path data;    ///< the .dat written beside it (when not drawn)
  std::filesystem::path script;  ///< the .gp written beside it (when not drawn)
  std::string message;           ///< one line for the user
};

/// Where gnuplot is on PATH (empty when it is not).
std::filesystem::path find_gnuplot();

/// The gnuplot script that draws `c` from `data_file` into `image` (SVG or PNG by extension).
std::string gnuplot_script(const chart_spec& c, const std::filesystem::path& data_file,
                           const std::filesystem::path& image);
/// The data file read by the script: one block per series (gnuplot `index` i), x and y columns.
std::string gnuplot_data(const chart_spec& c);

/// Draws `c` into `image` (.svg or .png; anything else is std::invalid_argument). With gnuplot:
/// runs it (the data and script in a temporary directory, removed afterwards). Without: writes
/// `<image stem>.dat` and `<image stem>.gp` beside `image` and says so. Throws std::runtime_error
/// when a file cannot be written or gnuplot fails.
file_result render_file(const chart_spec& c, const std::filesystem::path& image);

}  // namespace gpuplan::cli::chart
