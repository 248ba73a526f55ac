// The CLI's shared chart facility (tools/gpuplan/chart.cpp): the text chart's size and
// content, and gnuplot output, with gnuplot and without it on PATH.
#include "../catch.hpp"

#include "../../tools/gpuplan/chart.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

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
