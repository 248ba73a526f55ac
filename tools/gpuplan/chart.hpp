// tools/gpuplan/chart.hpp: the charts every command draws (utilisation over time, capacity
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
// Files are written safely (docs/troubleshooting.md, "How chart files are written"): gnuplot
// never sees the user's file name, it draws into a new file of ours (mkstemps in the same folder)
// that is renamed onto the name; the .dat and .gp are written the same way, so an existing
// symbolic link is replaced, never followed. A name gnuplot would read as a command ('|' or '<'
// first), a name with a control character and an existing target that is not a regular file (a
// directory, a device) are refused; every string in a script is single-quoted, which gnuplot reads
// literally, on `noenhanced` terminals. Failures are std::invalid_argument (the user's to fix:
// exit 2) naming the flag and the path, with the system's reason.
//
// Generic on purpose: named series of (x, y) points, optional horizontal bands (the 70-90%
// utilisation band, an SLO line), optional log axes and time on x. It depends on nothing but
// the standard library, so any command can use it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::cli::chart {

enum class style { lines, points, steps };

/// The most labelled points the text chart lists under its legend (a longer list is the table
/// the command prints beside it).
inline constexpr std::size_t max_text_labels = 16;

struct series {
  std::string name;
  std::vector<std::pair<double, double>> points;  ///< (x, y), any order (sorted by x to draw)
  style draw = style::lines;
  /// Empty, or one label per point (same order as `points`): written beside each point in the
  /// file rendering (gnuplot `set label`); the text chart lists them under the legend, with
  /// each point's (x, y), when the series has at most max_text_labels points.
  std::vector<std::string> labels = {};
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
  bool x_is_time = false;  ///< x in Unix seconds: ticks as times (HH:MM, or dates)
  /// What the times on x are, shown beside the x label when x_is_time: "UTC" for times that
  /// carried a zone, or "local time of the log" for a clock written without one (nvidia-smi's).
  std::string time_zone = "UTC";
  /// Explicit x tick positions (the GPU counts of a scaling sweep); empty: the renderer's own.
  std::vector<double> x_ticks = {};
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

/// The x and y ranges a file rendering draws: the data (and bands) with a margin of
/// file_margin of the span on each side (on a log axis, of the span of the logarithms), an
/// explicit x_min/x_max/y_min/y_max taken as given. gnuplot's autoscale rounds a log axis out to
/// whole decades (1000-10000 for data at 1024-4096); the script sets these instead.
struct file_ranges {
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
};
inline constexpr double file_margin = 0.05;
file_ranges ranges_for_file(const chart_spec& c);

/// The .gp script's name for `image`: the image's name with the extension .gp (plan.png ->
/// plan.gp), as render_file writes it beside the image when gnuplot is not installed.
std::filesystem::path script_path_for(const std::filesystem::path& image);
/// The .dat file's name for `image` (plan.png -> plan.dat).
std::filesystem::path data_path_for(const std::filesystem::path& image);

/// The gnuplot script that draws `c` from `data_file` into `image` (SVG or PNG by extension):
/// its first line names the script as render_file writes it (script_path_for), then xrange and
/// yrange (ranges_for_file), xtics at x_ticks, the bands, a label at each labelled point.
/// Throws std::invalid_argument as render_text does (nothing to draw, a log axis value <= 0).
std::string gnuplot_script(const chart_spec& c, const std::filesystem::path& data_file,
                           const std::filesystem::path& image);
/// The data file read by the script: one block per series (gnuplot `index` i), x and y columns.
std::string gnuplot_data(const chart_spec& c);

/// Draws `c` into `image` (.svg or .png; anything else is std::invalid_argument). With gnuplot:
/// runs it (no shell) on a script of ours that draws into a new file beside `image`, renamed onto
/// `image` once drawn. Without: writes `<image stem>.dat` and `<image stem>.gp` beside `image` and
/// says so. `what` names where the name came from in messages ("--chart", "plan.json: key
/// 'chart'"). Throws std::invalid_argument for a refused name, a file that cannot be written
/// (with the system's reason) or a gnuplot that fails.
file_result render_file(const chart_spec& c, const std::filesystem::path& image,
                        std::string_view what = {});

// ---- safe file writing (used by render_file; public for the tests and the fuzz target) ----------

/// What an existing name held before it was written.
enum class replaced { nothing, file, link };

/// Refuses (std::invalid_argument naming `what`) a chart name that is empty, holds a control
/// character, or starts (after spaces) with '|' or '<', which gnuplot reads as a command.
void check_file_name(const std::filesystem::path& image, std::string_view what = {});

/// What is at `target` now (lstat: a link is not followed): nothing, a regular file or a symbolic
/// link, which a rename replaces; anything else (a directory, a device such as /dev/full, a pipe)
/// is refused with std::invalid_argument, as renaming over it would remove it.
replaced check_target(const std::filesystem::path& target, std::string_view what = {});

/// A new file of ours in `folder` (mkstemps: a fresh name ending in `suffix`, created exclusively,
/// so no existing file or link is opened), removed when destroyed unless placed.
class temp_file {
 public:
  temp_file(const std::filesystem::path& folder, const std::string& suffix, std::string_view what);
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  ~temp_file();
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  void write(std::string_view text);
  void close();
  /// Renames the file onto `target` (in the same folder: atomic; a link there is replaced).
  void place(const std::filesystem::path& target);

 private:
  std::string what_;
  std::filesystem::path path_;
  int fd_ = -1;
  bool placed_ = false;
};

/// Writes `text` to `target` through a temp_file beside it and a rename; says what it replaced.
replaced write_file(const std::filesystem::path& target, std::string_view text,
                    std::string_view what = {});

}  // namespace gpuplan::cli::chart
