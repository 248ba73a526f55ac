// The CLI's shared progress bar (tools/gpuplan/progress.cpp): its line, its silence on quick
// sweeps and non-terminals, and its drawing and erasing when forced on a file.
#include "../catch.hpp"

#include "../../tools/gpuplan/progress.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/models/scaling.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

using namespace gpuplan::cli::progress;

TEST_CASE("progress line: bar, count, rate and time left within the width") {
  const std::string l = render_line(250, 1000, 5.0, 80, "configs");
  // 250 of 1000 in 5 s: 50 configs/s, 750 left at that rate: 15 s
  CHECK(l.find("250/1000 configs") != std::string::npos);
  CHECK(l.find("50 configs/s") != std::string::npos);
  CHECK(l.find("0:15 left") != std::string::npos);
  CHECK(l.size() <= 80);
  CHECK(l.front() == '[');
  const auto hashes = std::count(l.begin(), l.end(), '#');
  const auto dots = l.find(']') - 1 - static_cast<std::size_t>(hashes);
  CHECK(hashes == static_cast<long>((static_cast<std::size_t>(hashes) + dots) / 4));  // a quarter filled
  // done: full bar, nothing left; large rates compact
  const std::string full = render_line(2000000, 2000000, 0.5, 80, "configs");
  CHECK(full.find('.') > full.find(']'));
  CHECK(full.find("4.0M configs/s") != std::string::npos);
  CHECK(full.find("0:00 left") != std::string::npos);
  // no progress yet: the time left is unknown
  CHECK(render_line(0, 10, 0.0, 80, "points").find("--:-- left") != std::string::npos);
}

TEST_CASE("progress clock text") {
  CHECK(clock_text(7.2) == "0:07");
  CHECK(clock_text(725) == "12:05");
  CHECK(clock_text(3723) == "1:02:03");
  CHECK(clock_text(-1) == "--:--");
}

TEST_CASE("progress bar: silent before the delay and off a terminal, drawn and erased when forced") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  CHECK_FALSE(is_terminal(f));
  {
    bar quiet(100, {.out = f});  // not a terminal: nothing, however long it runs
    for (std::size_t i = 1; i <= 100; ++i) quiet.update(i);
    CHECK_FALSE(quiet.shown());
  }
  {
    bar quick(100, {.delay = 3600.0, .out = f, .force = true});  // finishes before the delay
    for (std::size_t i = 1; i <= 100; ++i) quick.update(i);
    CHECK_FALSE(quick.shown());
  }
  CHECK(std::ftell(f) == 0);
  {
    bar slow(100, {.delay = 0.0, .redraw = 0.0, .width = 60, .out = f, .force = true});
    slow.update(40);
    CHECK(slow.shown());
    slow.finish();
  }
  std::rewind(f);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  CHECK(text.find("40/100 configs") != std::string::npos);
  CHECK(text.front() == '\r');
  CHECK(text.back() == '\r');  // erased: the cursor is back at the start of a blank line
}

TEST_CASE("scaling reports each point to its progress callback") {
  using namespace gpuplan;
  training_plan p;
  p.model = catalog::llama31_8b;
  p.node = catalog::dgx_h100;
  p.layout = {.dp = 8, .zero = 1};
  p.config.micro_batch = 1;
  p.config.seq = 4096;
  p.config.global_batch = 512;
  int calls = 0, last_total = 0, last_done = 0;
  const scaling_curve c = scaling(p, 8, 100, scaling_mode::strong, [&](int done, int total) {
    ++calls;
    last_done = done;
    last_total = total;
  });
  CHECK(scaling_points(8, 100) == 4);  // 8, 16, 32, 64
  CHECK(c.size() == 4);
  CHECK(calls == 4);
  CHECK(last_done == 4);
  CHECK(last_total == 4);
}
