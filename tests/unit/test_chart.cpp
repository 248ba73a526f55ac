// The CLI's shared chart facility (tools/gpuplan/chart.cpp): the text chart's size and
// content, and gnuplot output, with gnuplot and without it on PATH.
#include "../catch.hpp"

#include "../../tools/gpuplan/chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace gpuplan::cli::chart;

namespace {
chart_spec utilisation_chart() {
  chart_spec c;
  c.title = "GPU utilisation";
  c.x_label = "time";
  c.y_label = "utilisation";
  c.x_is_time = true;
  series a{"GPU 0", {}, style::lines}, b{"GPU 1", {}, style::steps};
  for (int k = 0; k < 120; ++k) {
    a.points.push_back({1795442400.0 + 5 * k, 0.85});
    b.points.push_back({1795442400.0 + 5 * k, k % 2 ? 0.6 : 0.2});
  }
  c.data = {a, b};
  c.bands = {{0.7, 0.9, "healthy 70-90%"}, {0.3, 0.3, "waste below 30%"}};
  c.y_min = 0;
  c.y_max = 1;
  return c;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

struct path_guard {  // restores PATH
  std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  ~path_guard() { setenv("PATH", saved.c_str(), 1); }
};
}  // namespace

TEST_CASE("Text chart fits 80 columns and shows series, bands and axes", "[chart][text]") {
  const std::string t = render_text(utilisation_chart());
  std::istringstream in(t);
  std::string line;
  int lines = 0, rows_with_star = 0, rows_with_o = 0;
  while (std::getline(in, line)) {
    ++lines;
    CHECK(line.size() <= 80);
    if (line.find('|') != std::string::npos) {
      if (line.find('*') != std::string::npos) ++rows_with_star;
      if (line.find('o') != std::string::npos) ++rows_with_o;
    }
  }
  CHECK(rows_with_star == 1);  // GPU 0: one flat line at 0.85
  CHECK(rows_with_o >= 2);     // GPU 1: alternating between two levels, drawn as spans
  CHECK_THAT(t, Catch::Contains("GPU utilisation"));
  CHECK_THAT(t, Catch::Contains("* GPU 0   o GPU 1"));
  CHECK_THAT(t, Catch::Contains("- - healthy 70-90%: 0.7 to 0.9"));
  CHECK_THAT(t, Catch::Contains("14:00"));  // time ticks in UTC
  CHECK_THAT(t, Catch::Contains("time (UTC)"));
  // Narrower: still within the width.
  std::istringstream narrow(render_text(utilisation_chart(), 50, 8));
  while (std::getline(narrow, line)) CHECK(line.size() <= 50);
  // Nothing to draw, or a log axis with a zero.
  chart_spec empty;
  CHECK_THROWS_AS(render_text(empty), std::invalid_argument);
  chart_spec logc = utilisation_chart();
  logc.log_y = true;
  logc.data[1].points[0].second = 0;
  CHECK_THROWS_AS(render_text(logc), std::invalid_argument);
}

TEST_CASE("Chart files without gnuplot: data and script beside the image", "[chart][gnuplot]") {
  const std::filesystem::path dir = std::filesystem::path(GPUPLAN_BINARY_DIR) / "chart-test-nognuplot";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  path_guard g;
  setenv("PATH", "/nonexistent", 1);
  REQUIRE(find_gnuplot().empty());
  const file_result r = render_file(utilisation_chart(), dir / "util.svg");
  CHECK_FALSE(r.drawn);
  CHECK(std::filesystem::exists(dir / "util.dat"));
  CHECK(std::filesystem::exists(dir / "util.gp"));
  CHECK_FALSE(std::filesystem::exists(dir / "util.svg"));
  CHECK_THAT(r.message, Catch::Contains("gnuplot is not on PATH"));
  const std::string script = slurp(dir / "util.gp");
  CHECK_THAT(script, Catch::Contains("set terminal svg"));
  CHECK_THAT(script, Catch::Contains("index 1 using 1:2 with steps"));
  CHECK_THAT(script, Catch::Contains("rect from graph 0, first 0.7 to graph 1, first 0.9"));
  const std::string data = slurp(dir / "util.dat");
  CHECK_THAT(data, Catch::Contains("# GPU 1"));
  CHECK_THROWS_AS(render_file(utilisation_chart(), dir / "util.jpg"), std::invalid_argument);
  // a folder that does not exist is a bad path (invalid_argument: exit 2), not an internal error
  CHECK_THROWS_AS(render_file(utilisation_chart(), dir / "no-such-folder" / "util.svg"),
                  std::invalid_argument);
}

TEST_CASE("Chart files with gnuplot", "[chart][gnuplot]") {
  // ./scripts/check installs gnuplot (gnuplot-nox): without it this is a failure, not a skip.
  REQUIRE_FALSE(find_gnuplot().empty());
  const std::filesystem::path dir = std::filesystem::path(GPUPLAN_BINARY_DIR) / "chart-test-gnuplot";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  chart_spec c = utilisation_chart();
  c.title = "it's a title with a quote";
  const file_result svg = render_file(c, dir / "util.svg");
  CHECK(svg.drawn);
  CHECK_THAT(slurp(dir / "util.svg"), Catch::Contains("<svg"));
  CHECK_FALSE(std::filesystem::exists(dir / "util.gp"));  // the script was a temporary of ours
  const file_result png = render_file(c, dir / "util.png");
  CHECK(png.drawn);
  const std::string bytes = slurp(dir / "util.png");
  REQUIRE(bytes.size() > 8);
  CHECK(bytes.substr(1, 3) == "PNG");
}

TEST_CASE("Chart names gnuplot would run, and targets that are not files, are refused",
          "[chart][security]") {
  for (const char* name : {"|touch X #.svg", "   |touch X.svg", "<touch X.svg", "a\nb.svg", ""})
    CHECK_THROWS_AS(check_file_name(name, "--chart"), std::invalid_argument);
  CHECK_NOTHROW(check_file_name("a|b.svg", "--chart"));  // only a first '|' is a command
  try {
    check_file_name("|touch X #.svg", "--chart");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("--chart: chart file '|touch X #.svg'"));
  }
  const std::filesystem::path dir = std::filesystem::path(GPUPLAN_BINARY_DIR) / "chart-test-targets";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "a-dir.svg");
  CHECK(check_target(dir / "none.svg") == replaced::nothing);
  CHECK_THROWS_AS(check_target(dir / "a-dir.svg"), std::invalid_argument);
  CHECK_THROWS_AS(check_target("/dev/full"), std::invalid_argument);
  std::filesystem::create_symlink("/dev/full", dir / "full.svg");
  CHECK(check_target(dir / "full.svg") == replaced::link);
  // write_file replaces the link with a file; the device is untouched
  CHECK(write_file(dir / "full.svg", "text\n") == replaced::link);
  CHECK(std::filesystem::is_regular_file(std::filesystem::symlink_status(dir / "full.svg")));
  CHECK(std::filesystem::is_character_file("/dev/full"));
  CHECK(slurp(dir / "full.svg") == "text\n");
  CHECK(write_file(dir / "full.svg", "again\n") == replaced::file);
}

TEST_CASE("Strings in a gnuplot script are single-quoted text", "[chart][security]") {
  chart_spec c = utilisation_chart();
  c.title = "t`touch X`'@m\nset output '|touch Y'";
  c.data[0].name = "GPU `id`\r$(x)";
  const std::string script = gnuplot_script(c, "|data.dat", "~/img.svg");
  // the newline became a space: no line of the script starts with anything but the writer's
  std::istringstream in(script);
  std::string line;
  while (std::getline(in, line)) {
    const bool known = line.rfind("# gpuplan chart", 0) == 0 || line.rfind("set ", 0) == 0 ||
                       line.rfind("plot ", 0) == 0 || line.rfind("     ", 0) == 0;
    CHECK(known);
  }
  CHECK_THAT(script, Catch::Contains("set title 't`touch X`''@m set output ''|touch Y'''\n"));
  CHECK_THAT(script, Catch::Contains("title 'GPU `id` $(x)'"));
  // relative names start with "./": never a pipe ('|'), a command ('<') or the home folder ('~')
  CHECK_THAT(script, Catch::Contains("set output './~/img.svg'"));
  CHECK_THAT(script, Catch::Contains("plot './|data.dat' index 0"));
  CHECK_THAT(script, Catch::Contains("noenhanced"));
  CHECK(gnuplot_data(c).find("# GPU `id` $(x)\n") != std::string::npos);
}

namespace {
/// The text chart's plot rows (those with the '|' axis), the marker columns found in each.
std::vector<std::string> plot_rows(const std::string& t) {
  std::vector<std::string> rows;
  std::istringstream in(t);
  for (std::string line; std::getline(in, line);)
    if (line.find(" |") != std::string::npos || (!line.empty() && line[0] == '|'))
      rows.push_back(line.substr(line.find('|') + 1));
  return rows;
}

/// The Pareto front of docs/cli.md's Megatron search example: days to train against million USD.
chart_spec pareto_chart() {
  chart_spec c;
  c.title = "front";
  c.x_label = "days";
  c.y_label = "cost";
  series s{"Pareto front", {}, style::points};
  s.points = {{16.99, 1.129}, {20.4, 0.698779}, {39.4, 0.675159}, {76.0, 0.651089}, {151.9, 0.650952}};
  s.labels = {"1: 512 x H200", "2: 512 x H100", "3: 256 x H100", "4: 128 x H100", "5: 64 x H100"};
  c.data = {s};
  return c;
}

/// The value of a "set NAME [lo:hi]" line of a script.
std::pair<double, double> range_of(const std::string& script, const std::string& name) {
  const std::string key = "set " + name + " [";
  const std::size_t at = script.find(key);
  REQUIRE(at != std::string::npos);
  const std::size_t colon = script.find(':', at), close = script.find(']', at);
  return {std::stod(script.substr(at + key.size(), colon - at - key.size())),
          std::stod(script.substr(colon + 1, close - colon - 1))};
}
}  // namespace

TEST_CASE("Text Pareto chart draws every point, the rightmost (cheapest) one included",
          "[chart][text]") {
  // Before: the point at the x axis's right end fell outside the last column and was dropped.
  for (bool log_x : {false, true}) {
    chart_spec c = pareto_chart();
    c.log_x = log_x;
    const std::string t = render_text(c);
    const std::vector<std::string> rows = plot_rows(t);
    REQUIRE(rows.size() == 16);
    int markers_seen = 0;
    std::size_t rightmost = 0;
    for (const std::string& r : rows) {
      markers_seen += static_cast<int>(std::count(r.begin(), r.end(), '*'));
      const std::size_t last = r.rfind('*');
      if (last != std::string::npos) rightmost = std::max(rightmost, last);
    }
    CHECK(markers_seen == 5);
    // the cheapest point is in the last column, on the bottom row
    CHECK(rows.back().rfind('*') == rows.back().size() - 1);
    CHECK(rightmost == rows.back().size() - 1);
    // the x axis's labels span the data: its first and last values
    CHECK_THAT(t, Catch::Contains("16.99"));
    CHECK_THAT(t, Catch::Contains("151.9"));
    // the labels listed with their points
    CHECK_THAT(t, Catch::Contains("* 5: 64 x H100 at (151.9, 0.651)"));
  }
}

TEST_CASE("Text chart ticks at explicit x values (a scaling sweep's GPU counts)", "[chart][text]") {
  chart_spec c;
  c.title = "scaling";
  c.x_label = "GPUs";
  c.y_label = "tokens/s per GPU";
  c.log_x = true;
  c.y_min = 0.0;
  c.data = {series{"tokens/s per GPU", {{1024, 3000}, {2048, 2900}, {4096, 2700}}, style::lines}};
  c.x_ticks = {1024, 2048, 4096};
  const std::string t = render_text(c);
  std::istringstream in(t);
  std::string line, ticks;
  while (std::getline(in, line))
    if (line.find("+---") != std::string::npos) std::getline(in, ticks);
  CHECK_THAT(ticks, Catch::Contains("1024"));
  CHECK_THAT(ticks, Catch::Contains("2048"));
  CHECK_THAT(ticks, Catch::Contains("4096"));
}

TEST_CASE("gnuplot script: ranges cover the data with a margin, ticks, labels, its own name",
          "[chart][gnuplot]") {
  SECTION("scaling: a log x axis spans the GPU counts, not whole decades, ticks at each") {
    chart_spec c;
    c.x_label = "GPUs";
    c.log_x = true;
    c.y_min = 0.0;
    c.data = {series{"tokens/s per GPU", {{1024, 3000}, {2048, 2900}, {4096, 2700}}, style::lines}};
    c.x_ticks = {1024, 2048, 4096};
    const std::string gp = gnuplot_script(c, "scaling.dat", "out/scaling.png");
    const auto [xl, xh] = range_of(gp, "xrange");
    CHECK(xl < 1024);
    CHECK(xl > 900);  // not gnuplot's decade (1000 or below)
    CHECK(xh > 4096);
    CHECK(xh < 4700);  // not 10000
    const auto [yl, yh] = range_of(gp, "yrange");
    CHECK(yl == 0.0);  // the y_min asked for
    CHECK(yh > 3000);
    CHECK_THAT(gp, Catch::Contains("set xtics (1024, 2048, 4096)"));
    // the comment names the script as written beside the image (scaling.gp, not scaling.png.gp)
    CHECK_THAT(gp, Catch::Contains("# gpuplan chart: gnuplot 'scaling.gp'"));
    CHECK(script_path_for("out/scaling.png") == std::filesystem::path("out/scaling.gp"));
  }
  SECTION("Pareto: points drawn large, each labelled where it is") {
    const std::string gp = gnuplot_script(pareto_chart(), "front.dat", "front.svg");
    CHECK_THAT(gp, Catch::Contains("with points pt 7 ps 1.8"));
    CHECK_THAT(gp, Catch::Contains("set label 1 '1: 512 x H200' at first 16.99, first 1.129"));
    CHECK_THAT(gp, Catch::Contains("set label 5 '5: 64 x H100' at first 151.9, first 0.650952 right"));  // kept inside
    const auto [xl, xh] = range_of(gp, "xrange");
    CHECK(xl < 16.99);
    CHECK(xh > 151.9);
    const auto [yl, yh] = range_of(gp, "yrange");
    CHECK(yl < 0.650952);
    CHECK(yh > 1.129);
  }
  SECTION("utilisation: a time axis keeps its seconds, and says which clock") {
    chart_spec c = utilisation_chart();
    c.time_zone = "local time as logged (no zone in the file)";
    const std::string gp = gnuplot_script(c, "u.dat", "u.png");
    const auto [xl, xh] = range_of(gp, "xrange");
    CHECK(xl <= 1795442400.0);  // to the second, not 1.80e+09
    CHECK(xl > 1795442400.0 - 60);
    CHECK(xh >= 1795442400.0 + 5 * 119);
    CHECK_THAT(gp, Catch::Contains("set xlabel 'time (local time as logged (no zone in the file))'"));
    CHECK_THAT(render_text(c), Catch::Contains("time (local time as logged"));
  }
}

TEST_CASE("The script written without gnuplot names itself in its comment", "[chart][gnuplot]") {
  const std::filesystem::path dir = std::filesystem::path(GPUPLAN_BINARY_DIR) / "chart-test-gpname";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  path_guard g;
  setenv("PATH", "/nonexistent", 1);
  const file_result r = render_file(pareto_chart(), dir / "front.png");
  REQUIRE(std::filesystem::exists(r.script));
  const std::string script = slurp(r.script);
  CHECK_THAT(script, Catch::Contains("# gpuplan chart: gnuplot '" + r.script.filename().string() + "'"));
  CHECK_THAT(script, Catch::Contains("front.dat"));
}
