// Monitoring readers (nvidia-smi CSV with and without units, DCGM through Prometheus, the plain
// CSV), their errors, and the time-weighted utilisation analysis. The files are written by
// tests/data/monitoring/make_data.py with patterns whose figures are exact (stated below).
#include "../catch.hpp"

#include <gpuplan/io/monitoring.hpp>
#include <gpuplan/plan/utilization.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

using namespace gpuplan;
using namespace gpuplan::io;

namespace {
const std::string dir = std::string(GPUPLAN_TEST_DATA_DIR) + "/monitoring/";

const gpu_usage& find(const usage_report& r, const std::string& id) {
  for (const gpu_usage& u : r.gpus)
    if (u.id == id) return u;
  FAIL("no GPU " << id);
  return r.fleet;
}

std::string error_of(const std::string& file) {
  try {
    read_monitoring_file(dir + file);
  } catch (const io::error& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("Timestamps, values and units", "[monitoring][parse]") {
  double t = 0;
  REQUIRE(io::detail::parse_timestamp("2026/11/23 14:00:00.000", t));
  CHECK(t == 1795442400.0);
  REQUIRE(io::detail::parse_timestamp("2026-11-23T14:00:00.5Z", t));
  CHECK(t == 1795442400.5);
  REQUIRE(io::detail::parse_timestamp("2026-11-23 15:00:00+01:00", t));
  CHECK(t == 1795442400.0);
  REQUIRE(io::detail::parse_timestamp("1795442400", t));
  CHECK(t == 1795442400.0);
  REQUIRE(io::detail::parse_timestamp("1970-01-01T00:00:00Z", t));
  CHECK(t == 0.0);
  CHECK_FALSE(io::detail::parse_timestamp("2026/13/01 00:00:00", t));
  CHECK_FALSE(io::detail::parse_timestamp("yesterday", t));
  // a time without a zone (nvidia-smi's, the host's local time) is kept as written and said so;
  // one with a zone, or Unix seconds, is UTC
  bool zoned = true;
  REQUIRE(io::detail::parse_timestamp("2026/11/23 14:00:00.000", t, &zoned));
  CHECK_FALSE(zoned);
  CHECK(t == 1795442400.0);
  for (const char* utc : {"2026-11-23T14:00:00Z", "2026-11-23 15:00:00+01:00", "1795442400",
                          "2026-11-23 14:00:00 UTC"}) {
    zoned = false;
    REQUIRE(io::detail::parse_timestamp(utc, t, &zoned));
    CHECK(zoned);
  }
  const std::string f = "x.csv";
  const io::detail::csv_place at{&f, 3};
  CHECK(io::detail::read_percent("87 %", "u", at) == Approx(0.87));
  CHECK(io::detail::read_percent("87", "u", at) == Approx(0.87));
  CHECK(io::detail::read_power("300.5 W", "p", at).in(units::W) == Approx(300.5));
  CHECK(io::detail::read_memory("40536 MiB", "m", at, "").in(units::MiB) == Approx(40536));
  CHECK(io::detail::read_memory("10 GiB", "m", at, "MiB").in(units::GiB) == Approx(10));
  CHECK(io::detail::read_memory("100", "m", at, "GiB").in(units::GiB) == Approx(100));
  CHECK_THROWS_WITH(io::detail::read_percent("87 W", "utilization.gpu", at),
                    "x.csv:3: field 'utilization.gpu': cannot read '87 W' as a percentage");
  CHECK(io::detail::is_missing("[N/A]"));
  CHECK(io::detail::is_missing("[Not Supported]"));
}

TEST_CASE("nvidia-smi CSV with units: four GPUs in four bands", "[monitoring][nvidia-smi]") {
  const monitoring_data d = read_monitoring_file(dir + "nvidia-smi-units.csv");
  CHECK(d.format == monitoring_format::nvidia_smi);
  CHECK(d.samples.size() == 480);
  CHECK(d.times_without_zone == 480);  // nvidia-smi writes local time, no zone
  const usage_report r = analyze_usage(d.samples);
  REQUIRE(r.gpus.size() == 4);
  // GPU 0: 85% throughout.
  const gpu_usage& g0 = find(r, "0");
  CHECK(g0.mean == Approx(0.85));
  CHECK(g0.peak == Approx(0.85));
  CHECK(g0.p95 == Approx(0.85));
  CHECK(g0.bands.b70_90 == Approx(1.0));
  CHECK(g0.memory_mean.in(units::MiB) == Approx(40536));
  CHECK(g0.power_mean.in(units::W) == Approx(120 + 580 * 0.85));
  CHECK(g0.observed.in(units::s) == Approx(600));
  CHECK(g0.energy_used.in(units::J) == Approx(613.0 * 600));
  // GPU 1: alternating 20% / 60%.
  const gpu_usage& g1 = find(r, "1");
  CHECK(g1.mean == Approx(0.40));
  CHECK(g1.peak == Approx(0.60));
  CHECK(g1.peak_to_average == Approx(1.5));
  CHECK(g1.bands.under_30 == Approx(0.5));
  CHECK(g1.bands.b30_70 == Approx(0.5));
  // GPU 2: idle.
  CHECK(find(r, "2").idle);
  CHECK(find(r, "2").mean == 0.0);
  // GPU 3: 97% then 92%.
  const gpu_usage& g3 = find(r, "3");
  CHECK(g3.mean == Approx(0.945));
  CHECK(g3.bands.over_95 == Approx(0.5));
  CHECK(g3.bands.b90_95 == Approx(0.5));
  CHECK(g3.p95 == Approx(0.97));
  for (const gpu_usage& u : r.gpus) CHECK(u.bands.sum() == Approx(1.0));
  // Fleet: pooled GPU-time; peak = highest fleet average at one moment: (85+60+0+97)/4.
  CHECK(r.fleet.mean == Approx((0.85 + 0.40 + 0.0 + 0.945) / 4));
  CHECK(r.fleet.bands.under_30 == Approx((0.5 + 1.0) / 4));
  CHECK(r.fleet.bands.b30_70 == Approx(0.5 / 4));
  CHECK(r.fleet.bands.b70_90 == Approx(1.0 / 4));
  CHECK(r.fleet.bands.b90_95 == Approx(0.5 / 4));
  CHECK(r.fleet.bands.over_95 == Approx(0.5 / 4));
  CHECK(r.fleet.bands.sum() == Approx(1.0));
  CHECK(r.fleet.peak == Approx(0.605));
  // Advice: the busy GPUs (0, 1, 3) spend a third of their time above 90% while GPU 2 idles:
  // move work onto it first, neither release it nor scale out (issue 26: both were advised).
  CHECK(r.findings.verdict == fleet_verdict::unbalanced);
  REQUIRE(r.advice.size() == 1);
  CHECK(r.advice_rules[0] == advice_rule::rebalance);
  CHECK_THAT(r.advice[0], Catch::StartsWith("Move work onto the idle GPU 2 first: the 3 busy "
                                            "GPUs spend 33% of their time above 90%"));
  // JSON carries the contract's keys.
  const nlohmann::json j = to_json(r);
  REQUIRE(j["gpus"].size() == 4);
  CHECK(j["gpus"][0]["id"] == "0");
  CHECK(j["gpus"][0]["bands"]["70_90"].get<double>() == Approx(1.0));
  for (const char* k : {"mean", "peak", "p95", "bands"}) CHECK(j["fleet"].contains(k));
  for (const char* k : {"under_30", "30_70", "70_90", "90_95", "over_95"})
    CHECK(j["fleet"]["bands"].contains(k));
}

TEST_CASE("nvidia-smi CSV without units: shuffled rows, repeated header, a gap, [N/A]",
          "[monitoring][nvidia-smi]") {
  const monitoring_data d = read_monitoring_file(dir + "nvidia-smi-nounits.csv");
  CHECK(d.format == monitoring_format::nvidia_smi);
  CHECK(d.samples.size() == 120 + 108);
  const usage_report r = analyze_usage(d.samples);
  const gpu_usage& g0 = find(r, "0");
  CHECK(g0.mean == Approx(0.85));
  CHECK(g0.gaps == 0);
  CHECK(g0.power_mean.in(units::W) == Approx(613.0));  // the [N/A] reading left out
  const gpu_usage& g1 = find(r, "1");
  CHECK(g1.gaps == 1);                              // 65 s between samples 39 and 52
  CHECK(g1.observed.in(units::s) == Approx(540.0));  // 108 samples x 5 s; the gap not counted
  CHECK(g1.mean == Approx(0.40));
  // Two logs of the same GPUs from two hosts: prefix the ids.
  const monitoring_data p = read_monitoring_file(dir + "nvidia-smi-nounits.csv", {.id_prefix = "node7:"});
  CHECK(p.samples.front().gpu.rfind("node7:", 0) == 0);
}

TEST_CASE("DCGM exporter metrics from a Prometheus range query", "[monitoring][dcgm]") {
  const monitoring_data d = read_monitoring_file(dir + "dcgm-range.json");
  CHECK(d.format == monitoring_format::dcgm_prometheus);
  CHECK(d.samples.size() == 80);
  const usage_report r = analyze_usage(d.samples, {.monthly_growth = 0.05});
  const gpu_usage& a = find(r, "node-a:0");
  const gpu_usage& b = find(r, "node-b:0");
  CHECK(a.mean == Approx(0.5));
  CHECK(a.memory_mean.in(units::MiB) == Approx(30000));
  CHECK(a.power_mean.in(units::W) == Approx(120 + 580 * 0.5));
  CHECK(b.mean == Approx(0.5));
  CHECK(b.bands.under_30 == Approx(0.5));
  CHECK(b.bands.b70_90 == Approx(0.5));
  CHECK(b.peak_to_average == Approx(1.8));
  CHECK(r.fleet.peak == Approx(0.70));  // (50 + 90) / 2
  // Pooled GPU-time: half of the fleet time is at 50%, a quarter at 10%, a quarter at 90%.
  CHECK(r.fleet.p95 == Approx(0.90));
}

TEST_CASE("nvidia-smi columns in the order of --query-gpu", "[monitoring][nvidia-smi]") {
  // `nvidia-smi --query-gpu=index,utilization.gpu,timestamp,power.draw --format=csv,noheader`
  // appended under a header written once by the same query with `--format=csv`.
  const std::string text =
      "index, utilization.gpu [%], timestamp, power.draw [W]\n"
      "0, 50 %, 2026/11/23 14:00:00.000, 400.00 W\n"
      "0, 70 %, 2026/11/23 14:00:10.000, [N/A]\n";
  const monitoring_data d = read_monitoring(text, "reordered.csv");
  CHECK(d.format == monitoring_format::nvidia_smi);
  REQUIRE(d.samples.size() == 2);
  CHECK(d.samples[1].utilization == Approx(0.70));
  CHECK_FALSE(d.samples[1].power_draw.has_value());
  CHECK(analyze_usage(d.samples).gpus[0].mean == Approx(0.60));
}

TEST_CASE("Plain CSV: time-weighted, not sample-averaged", "[monitoring][csv]") {
  const monitoring_data d = read_monitoring_file(dir + "plain.csv");
  CHECK(d.format == monitoring_format::plain_csv);
  const usage_report r = analyze_usage(d.samples);
  const gpu_usage& a = find(r, "a");
  CHECK(a.mean == Approx(0.70));  // (30% x 20 s + 90% x 40 s) / 60 s; samples average 78%
  CHECK(a.memory_peak.in(units::GiB) == Approx(12));
  CHECK(a.power_peak.in(units::W) == Approx(600));
  CHECK(find(r, "b").idle);
}

TEST_CASE("Plain CSV with throughput: per GPU and the fleet's total", "[monitoring][csv]") {
  // serving.csv (make_data.py): GPU 0 at 2000 tokens/s for 30 s then 1000 for 30 s, GPU 1 at
  // 1500 throughout, sampled every 10 s: means 1500 and 1500, fleet 3000, fleet peak 3500.
  const io::monitoring_data d = io::read_monitoring_file(dir + "serving.csv");
  CHECK(d.throughput_unit == "tokens/s");
  REQUIRE(d.samples.size() == 12);
  const usage_report r = analyze_usage(d.samples);
  REQUIRE(r.gpus.size() == 2);
  CHECK(r.gpus[0].has_throughput);
  CHECK(r.gpus[0].throughput_mean == Approx(1500));
  CHECK(r.gpus[0].throughput_peak == Approx(2000));
  CHECK(r.gpus[1].throughput_mean == Approx(1500));
  CHECK(r.fleet.throughput_mean == Approx(3000));
  CHECK(r.fleet.throughput_peak == Approx(3500));
  CHECK(r.gpus[0].mean == Approx(0.6));  // 80% and 40% for 30 s each
  const nlohmann::json j = io::to_json(r);
  CHECK(j["fleet"]["throughput_peak_per_s"].get<double>() == Approx(3500));
  // Files without the column carry no throughput keys.
  const usage_report plain = analyze_usage(io::read_monitoring_file(dir + "plain.csv").samples);
  CHECK_FALSE(plain.fleet.has_throughput);
  CHECK_FALSE(io::to_json(plain)["fleet"].contains("throughput_mean_per_s"));
}

TEST_CASE("Growth advice and consolidation", "[monitoring][advice]") {
  // Eight GPUs at 10-20%: consolidate; growth at 10%/month from p95 45% reaches 90% in 7 months.
  std::vector<gpu_sample> s;
  for (int g = 0; g < 8; ++g)
    for (int k = 0; k < 100; ++k)
      s.push_back({std::to_string(g), k * 10.0, g < 4 ? 0.10 : (k % 2 ? 0.45 : 0.15), {}, {}, {}});
  const usage_report r = analyze_usage(s, {.monthly_growth = 0.10});
  bool consolidate = false, growth = false;
  for (const std::string& a : r.advice) {
    consolidate = consolidate || a.rfind("Consolidate", 0) == 0;
    if (a.find("growth a month") != std::string::npos) {
      growth = true;
      CHECK_THAT(a, Catch::Contains("in 7 months"));  // ln(0.9/0.45)/ln(1.1) = 7.27
    }
  }
  CHECK(consolidate);
  CHECK(growth);
  CHECK(r.fleet.p95 == Approx(0.45));
}

TEST_CASE("Bad files: one line naming file:row and field", "[monitoring][errors]") {
  CHECK_THAT(error_of("bad/bad-percent.csv"),
             Catch::Contains("bad-percent.csv:3: field 'utilization.gpu': cannot read 'abc' as a "
                             "percentage"));
  CHECK_THAT(error_of("bad/bad-power-unit.csv"),
             Catch::Contains("bad-power-unit.csv:2: field 'power.draw': unknown power unit 'V'"));
  CHECK_THAT(error_of("bad/over-100.csv"),
             Catch::Contains("over-100.csv:2: field 'utilization': 130 is outside 0-100%"));
  CHECK_THAT(error_of("bad/missing-column.csv"),
             Catch::Contains("missing-column.csv:1: missing column 'utilization.gpu'"));
  CHECK_THAT(error_of("bad/field-count.csv"),
             Catch::Contains("field-count.csv:2: 4 fields, the header has 5"));
  CHECK_THAT(error_of("bad/bad-time.csv"),
             Catch::Contains("bad-time.csv:2: field 'timestamp': cannot read"));
  CHECK_THAT(error_of("bad/no-header.csv"), Catch::Contains("no-header.csv:1: no header row"));
  CHECK_THAT(error_of("bad/not-matrix.json"), Catch::Contains("must be \"matrix\""));
  CHECK_THAT(error_of("bad/bad-value.json"),
             Catch::Contains("data.result[0].values[1] (DCGM_FI_DEV_GPU_UTIL): cannot read 'fifty'"));
  CHECK_THAT(error_of("bad/truncated.json"), Catch::Contains("malformed JSON"));
  CHECK_THAT(error_of("bad/bad-throughput.csv"),
             Catch::Contains("bad-throughput.csv:2: field 'tokens_per_s': cannot read '12 tok/s' "
                             "as a number per second"));
  CHECK_THAT(error_of("bad/two-throughputs.csv"),
             Catch::Contains("two-throughputs.csv:1: both 'tokens_per_s' and 'requests_per_s'"));
  CHECK_THAT(error_of("no-such-file.csv"), Catch::Contains("no such file"));
  // a throughput near double's range overflowed the time-weighted mean (JSON null): refused
  CHECK_THROWS_WITH(io::read_monitoring("timestamp,gpu,utilization,tokens_per_s\n0,0,50,1e308\n",
                                        "huge.csv"),
                    Catch::Contains("huge.csv:2: field 'tokens_per_s': 1e308 is too large"));
  for (const char* f : {"bad/bad-percent.csv", "bad/bad-value.json", "bad/truncated.json"})
    CHECK(error_of(f).find('\n') == std::string::npos);
}

// ---- issue 22: hostile and everyday files ---------------------------------------------------------

TEST_CASE("A byte-order mark and CRLF line ends read as the plain CSV", "[monitoring][parse]") {
  // Excel's "CSV UTF-8" export: a BOM before the header, CRLF after every line. The BOM gave
  // "no header row".
  const std::string bom = "\xEF\xBB\xBF";
  const std::string text = bom +
                           "timestamp,gpu,utilization,memory_used,power\r\n"
                           "2026-11-23T14:00:00Z,0,30,1024,200\r\n"
                           "2026-11-23T14:00:10Z,0,90,2048,400\r\n";
  const monitoring_data d = read_monitoring(text, "excel.csv");
  REQUIRE(d.samples.size() == 2);
  CHECK(d.samples[0].gpu == "0");
  CHECK(d.samples[1].utilization == Approx(0.9));
  CHECK(d.samples[1].memory_used->in(units::MiB) == Approx(2048));
  CHECK(d.samples[1].power_draw->in(units::W) == Approx(400));
  const monitoring_data f = read_monitoring_file(dir + "excel-bom-crlf.csv");
  CHECK(f.samples.size() == 3);
  // A BOM before a Prometheus response too (the JSON readers skip one)
  CHECK(read_monitoring(bom + "\r\n" +
                            R"({"data": {"resultType": "matrix", "result": [{"metric": )"
                            R"({"__name__": "DCGM_FI_DEV_GPU_UTIL", "gpu": "0"}, "values": )"
                            R"([[1795442400, "50"]]}]}})",
                        "dcgm.json")
            .samples.size() == 1);
  // Two such exports concatenated: the second BOM starts a repeated header
  CHECK(read_monitoring(text + text, "two-exports.csv").samples.size() == 2);
  // A 0xEF that does not start a BOM is not text
  CHECK_THROWS_WITH(read_monitoring("\xEF" "abc\n", "odd.csv"),
                    Catch::Contains("odd.csv:1: not text"));
}

TEST_CASE("The readers are bounded: rows, line length, bytes, NUL bytes", "[monitoring][limits]") {
  const monitoring_limits defaults;
  CHECK(defaults.max_rows == 5'000'000);
  CHECK(defaults.max_line_bytes == 65536);
  CHECK(defaults.max_json_bytes == json_limits{}.max_file_bytes);
  read_options o;
  o.limits.max_rows = 3;
  o.limits.max_line_bytes = 40;
  o.limits.max_file_bytes = 200;
  o.limits.max_json_bytes = 100;
  const std::string head = "timestamp,gpu,utilization\n";
  // exactly at each bound: read
  CHECK(read_monitoring(head + "1795442400,0,50\n1795442410,0,60\n", "ok.csv", o).samples.size() ==
        2);
  CHECK(read_monitoring(head + "1795442400,0,50" + std::string(25, ' ') + "\n", "ok.csv", o)
            .samples.size() == 1);  // 40 bytes
  // one past: refused, naming the file, the line and the bound
  CHECK_THROWS_WITH(read_monitoring(head + "1795442400,0,50\n1795442410,0,60\n1795442420,0,70\n",
                                    "rows.csv", o),
                    "rows.csv: more than 3 rows, the limit for a monitoring export "
                    "(monitoring_limits::max_rows)");
  CHECK_THROWS_WITH(read_monitoring(head + "1795442400,0,50" + std::string(26, ' ') + "\n",
                                    "wide.csv", o),
                    "wide.csv:2: a line longer than 40 bytes, the limit for a monitoring CSV "
                    "(monitoring_limits::max_line_bytes)");
  o.limits.max_line_bytes = 1000;
  o.limits.max_rows = 1000;
  CHECK_THROWS_WITH(read_monitoring(head + std::string(300, '\n'), "big.csv", o),
                    "big.csv: larger than 200 bytes, the limit for a monitoring CSV "
                    "(monitoring_limits::max_file_bytes)");
  CHECK_THROWS_WITH(read_monitoring("{" + std::string(120, ' ') + "}", "big.json", o),
                    "big.json: larger than 100 bytes, the limit for a Prometheus response "
                    "(monitoring_limits::max_json_bytes)");
  // NUL bytes: in a CSV line, in a JSON text, and /dev/zero at once
  CHECK_THROWS_WITH(read_monitoring(head + std::string("1795442400,0,5\0" "0\n", 18), "nul.csv"),
                    "nul.csv:2: a NUL byte: binary data, not a monitoring export (CSV or JSON "
                    "text)");
  CHECK_THROWS_WITH(read_monitoring(std::string("{\"a\":\0}", 7), "nul.json"),
                    Catch::Contains("nul.json:1: a NUL byte"));
  CHECK_THROWS_WITH(read_monitoring_file("/dev/zero"), Catch::StartsWith("/dev/zero:1: a NUL byte"));
  // a value in the Prometheus response counts as a row
  o.limits.max_json_bytes = 1000;
  o.limits.max_rows = 1;
  CHECK_THROWS_WITH(
      read_monitoring(R"({"data": {"resultType": "matrix", "result": [{"metric": )"
                      R"({"__name__": "DCGM_FI_DEV_GPU_UTIL", "gpu": "0"}, "values": )"
                      R"([[1795442400, "50"], [1795442415, "50"]]}]}})",
                      "two.json", o),
      "two.json: more than 1 values, the limit for a monitoring export "
      "(monitoring_limits::max_rows)");
}

TEST_CASE("A directory, an empty file and 1e400 are errors naming the file", "[monitoring][errors]") {
  CHECK(error_of("bad") == dir + "bad: is a directory, not a monitoring export");
  CHECK(error_of("bad/empty.csv") == dir + "bad/empty.csv: empty file (no header, no data)");
  CHECK(error_of("bad/nul.csv") ==
        dir + "bad/nul.csv:2: a NUL byte: binary data, not a monitoring export (CSV or JSON text)");
  CHECK(error_of("bad/huge-value.csv") ==
        dir + "bad/huge-value.csv:2: field 'utilization': cannot read '1e400' as a percentage");
  CHECK_THROWS_WITH(read_monitoring("\n\n  \n", "blank.csv"),
                    "blank.csv: empty file (no header, no data)");
}

TEST_CASE("Readings of one GPU at one time are averaged and counted", "[monitoring][duplicates]") {
  // The later row used to win silently: 10% and 100% pairs read as 100%.
  const monitoring_data d = read_monitoring_file(dir + "duplicates.csv");
  CHECK(d.duplicate_readings == 3);
  REQUIRE(d.samples.size() == 3);
  for (const gpu_sample& s : d.samples) CHECK(s.utilization == Approx(0.55));
  CHECK(analyze_usage(d.samples).gpus[0].mean == Approx(0.55));
  // each quantity the mean of the readings that have it
  const monitoring_data m = read_monitoring(
      "timestamp,gpu,utilization,memory_used,power\n"
      "1795442400,0,20,1000,\n1795442400,0,40,3000,300\n1795442400,0,60,,500\n"
      "1795442400,1,70,,\n",
      "m.csv");
  CHECK(m.duplicate_readings == 2);
  REQUIRE(m.samples.size() == 2);
  CHECK(m.samples[0].utilization == Approx(0.4));
  CHECK(m.samples[0].memory_used->in(units::MiB) == Approx(2000));
  CHECK(m.samples[0].power_draw->in(units::W) == Approx(400));
  CHECK(m.samples[1].utilization == Approx(0.7));
  CHECK_FALSE(m.samples[1].memory_used.has_value());
  // samples of several files: analyze_usage merges them by the same rule and counts them
  std::vector<gpu_sample> both = d.samples;
  for (gpu_sample s : d.samples) {
    s.utilization = 0.95;
    both.push_back(s);
  }
  const usage_report r = analyze_usage(both);
  CHECK(r.gpus[0].duplicates == 3);
  CHECK(r.fleet.duplicates == 3);
  CHECK(r.gpus[0].mean == Approx(0.75));
}

TEST_CASE("Prometheus NaN samples are missing readings; two series of one GPU are duplicates",
          "[monitoring][dcgm]") {
  const monitoring_data d = read_monitoring_file(dir + "dcgm-nan.json");
  CHECK(d.missing_readings == 2);  // "NaN" at two times of node-a:0: they were not counted
  CHECK(d.duplicate_readings == 4);
  const usage_report r = analyze_usage(d.samples);
  CHECK(find(r, "node-a:0").samples == 2);
  CHECK(find(r, "node-a:0").mean == Approx(0.5));
  CHECK(find(r, "node-a:1").samples == 4);
  CHECK(find(r, "node-a:1").mean == Approx(0.3));
  // a NaN ratio beside a real GPU_UTIL reading is not missing
  const monitoring_data e = read_monitoring(
      R"({"data": {"resultType": "matrix", "result": [)"
      R"({"metric": {"__name__": "DCGM_FI_DEV_GPU_UTIL", "gpu": "0"}, "values": [[1795442400, "50"]]},)"
      R"({"metric": {"__name__": "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gpu": "0"}, "values": [[1795442400, "NaN"]]}]}})",
      "e.json");
  CHECK(e.missing_readings == 0);
  CHECK(e.duplicate_readings == 0);
  CHECK(e.samples.at(0).utilization == Approx(0.5));
  CHECK(e.gpu_models.empty());  // no modelName label
  // dcgm-exporter's modelName label names the GPU model, as nvidia-smi's name column does
  const monitoring_data named = read_monitoring(
      R"({"data": {"resultType": "matrix", "result": [)"
      R"({"metric": {"__name__": "DCGM_FI_DEV_GPU_UTIL", "gpu": "0", "modelName": "NVIDIA H100 80GB HBM3"},)"
      R"( "values": [[1795442400, "50"]]},)"
      R"({"metric": {"__name__": "DCGM_FI_DEV_FB_USED", "gpu": "1", "modelName": "NVIDIA H100 80GB HBM3"},)"
      R"( "values": [[1795442400, "1000"]]}]}})",
      "named.json");
  CHECK(named.gpu_models == std::vector<std::string>{"NVIDIA H100 80GB HBM3"});
}

TEST_CASE("Monitoring reader: on_read follows the bytes read, to the file's size",
          "[monitoring][readers]") {
  io::read_options o;
  std::vector<std::uintmax_t> seen;
  std::string file_seen;
  o.on_read = [&](const std::string& file, std::uintmax_t bytes) {
    file_seen = file;
    seen.push_back(bytes);
  };
  const std::string path = dir + "nvidia-smi-units.csv";
  (void)io::read_monitoring_file(path, o);
  REQUIRE(!seen.empty());
  CHECK(file_seen == path);
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(seen.back() == std::filesystem::file_size(path));
  // 200 kB of text: several 64 KiB buffers, each reported
  std::string text = "timestamp,gpu,utilization\n";
  while (text.size() < 200'000) text += "2026-11-27 10:00:00,0,50\n";
  seen.clear();
  (void)io::read_monitoring(text, "big.csv", o);
  CHECK(seen.size() >= 4);
  CHECK(seen.back() == text.size());
}

// ---- the analysis phase by phase (plan/utilization.hpp) --------------------------------------------

TEST_CASE("Fleet peaks: a sweep over every GPU's intervals", "[monitoring][analysis]") {
  using gpuplan::detail::usage_interval;
  // A at 80% and B at 20% over [0, 10) average 50%; C alone at 70% over [10, 20): the fleet's
  // peak is 70%, and A and B ending where C starts are not counted with it (that would be 57%)
  CHECK(gpuplan::detail::fleet_peak_utilization(
            {{{0, 10, 0.8}}, {{0, 10, 0.2}}, {{10, 20, 0.7}}}) == Approx(0.7));
  // 100/s and 50/s overlapping over [5, 10): 150/s
  CHECK(gpuplan::detail::fleet_peak_throughput({{0, 10, 100}, {5, 15, 50}}) == Approx(150));
  // back to back: the end at 10 comes before the start, never 200/s
  CHECK(gpuplan::detail::fleet_peak_throughput({{0, 10, 100}, {10, 20, 100}}) == Approx(100));
  CHECK(gpuplan::detail::fleet_peak_throughput({}) == 0);
}

namespace {
gpu_sample reading(double time, double utilization) {
  gpu_sample s;
  s.gpu = "0";
  s.time = time;
  s.utilization = utilization;
  return s;
}
}  // namespace

TEST_CASE("One GPU's figures: median interval, gaps, time weights", "[monitoring][analysis]") {
  // samples at 0, 10, 20 and 100 s: median interval 10 s; 20 -> 100 is a gap (> 3 x 10 s), so
  // the sample at 20 s holds for 10 s only, as does the last
  std::vector<gpu_sample> g;
  const double t[] = {0, 10, 20, 100}, u[] = {0.2, 0.4, 0.9, 1.0};
  for (int k = 0; k < 4; ++k) g.push_back(reading(t[k], u[k]));
  CHECK(gpuplan::detail::median_interval(g) == Approx(10));
  gpuplan::detail::gpu_timeline tl;
  const gpu_usage r = gpuplan::detail::analyze_gpu(g, {}, tl);
  CHECK(r.gaps == 1);
  CHECK(r.observed.in(units::s) == Approx(40));
  CHECK(r.mean == Approx((0.2 + 0.4 + 0.9 + 1.0) / 4));
  CHECK(r.bands.under_30 == Approx(0.25));
  CHECK(r.bands.b30_70 == Approx(0.25));
  CHECK(r.bands.b70_90 == Approx(0.25));  // 90% is still healthy
  CHECK(r.bands.over_95 == Approx(0.25));
  CHECK(tl.last == Approx(110));
}

TEST_CASE("Scale-out advice follows its named thresholds", "[monitoring][analysis]") {
  // one GPU: 97% for 1 minute in 10, 50% the rest: 10% of the time above 95%
  std::vector<gpu_sample> s;
  for (int k = 0; k < 100; ++k)
    s.push_back(reading(60.0 * k, k % 10 == 0 ? 0.97 : 0.5));
  auto scale_out = [](const usage_report& r) {
    return std::any_of(r.advice.begin(), r.advice.end(),
                       [](const std::string& a) { return a.rfind("Scale out", 0) == 0; });
  };
  const usage_report hot = analyze_usage(s);
  CHECK(hot.fleet.bands.over_95 == Approx(0.10));
  CHECK(scale_out(hot));  // above scale_out_overload_share (5%)
  CHECK_FALSE(scale_out(analyze_usage(s, {.scale_out_overload_share = 0.15})));
  CHECK_THROWS_AS(analyze_usage({}), invalid_input);
}

TEST_CASE("Several files of one fleet: ids by file, formats, the report's JSON",
          "[monitoring][analysis][json]") {
  const io::monitoring_files in = io::read_monitoring_files({dir + "serving.csv", dir + "plain.csv"});
  REQUIRE(in.formats.size() == 2);
  CHECK(in.formats[0] == "csv");
  CHECK(in.throughput_unit == "tokens/s");  // plain.csv has no throughput column
  // two CSVs both name their GPUs from the file: each id carries its file's stem
  CHECK(std::any_of(in.samples.begin(), in.samples.end(),
                    [](const gpu_sample& s) { return s.gpu == "serving:0"; }));
  CHECK(std::any_of(in.samples.begin(), in.samples.end(),
                    [](const gpu_sample& s) { return s.gpu == "plain:a"; }));
  const usage_report r = analyze_usage(in.samples);
  const nlohmann::json j = io::to_json(r, in);
  CHECK(j["files"].size() == 2);
  CHECK(j["formats"][1] == "csv");
  CHECK(j["throughput_unit"] == "tokens/s");
  CHECK(j["fleet"]["gpus"] == r.gpus.size());
  CHECK(j["duplicate_readings"] == in.duplicate_readings + r.fleet.duplicates);
  // one file: its ids as they are
  CHECK(io::read_monitoring_files({dir + "plain.csv"}).samples.at(0).gpu == "a");
}

TEST_CASE("Two files of one name would merge two hosts' GPUs: refused", "[monitoring]") {
  // a/gpus.csv and b/gpus.csv both number their GPUs from 0: prefixed "gpus:0" alike, their
  // readings would be averaged as duplicates of one GPU
  const std::string f = dir + "nvidia-smi-units.csv";
  const std::string again = dir + "../monitoring/nvidia-smi-units.csv";
  CHECK_THROWS_WITH(read_monitoring_files({f, again}), Catch::Contains("give the files different names"));
}

TEST_CASE("analyze_usage checks samples a caller built itself", "[monitoring]") {
  std::vector<gpu_sample> s(2);
  s[0].gpu = s[1].gpu = "0";
  s[0].utilization = 0.5;
  s[1].time = 60.0;
  s[1].utilization = 87.0;  // a percent
  CHECK_THROWS_WITH(analyze_usage(s), Catch::Contains("gpu_sample.utilization"));
  s[1].utilization = 0.87;
  s[1].time = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(analyze_usage(s), Catch::Contains("gpu_sample.time"));
  s[1].time = 60.0;
  CHECK(analyze_usage(s).gpus.size() == 1);
}

// ---- advice that agrees with itself (issue 26) -----------------------------------------------

namespace {
/// A GPU's readings: 100 samples 10 s apart, utilisation u(k), memory peak `mem_gib` (0: none).
void add_gpu(std::vector<gpu_sample>& s, const std::string& id, double (*u)(int),
             double mem_gib = 0) {
  for (int k = 0; k < 100; ++k) {
    gpu_sample x{id, k * 10.0, u(k), {}, {}, {}};
    if (mem_gib > 0) x.memory_used = (k == 50 ? mem_gib : mem_gib / 2) * units::GiB;
    s.push_back(std::move(x));
  }
}
double idle0(int) { return 0.0; }
double idle1(int k) { return k % 2 ? 0.02 : 0.0; }
double hot_burst(int k) { return k % 2 ? 0.97 : 0.55; }  // mean 76%, half the time above 95%
double healthy80(int) { return 0.80; }
double always97(int) { return 0.97; }
double low10(int) { return 0.10; }
double mostly_low(int k) { return k < 96 ? 0.10 : 0.50; }  // below 30% 96% of the time
double warm93(int k) { return k % 10 == 0 ? 0.93 : 0.80; }  // p95 93%, 10% above 90%
double ten_to_45(int k) { return k % 2 ? 0.45 : 0.15; }

/// The issue's fleet: 2 of 8 GPUs idle, 6 busy at 55%/97%: fleet mean 57%.
std::vector<gpu_sample> issue_fleet() {
  std::vector<gpu_sample> s;
  for (int g = 0; g < 6; ++g) add_gpu(s, std::to_string(g), hot_burst);
  add_gpu(s, "6", idle0);
  add_gpu(s, "7", idle1);
  return s;
}

bool has_rule(const usage_report& r, advice_rule a) {
  return std::find(r.advice_rules.begin(), r.advice_rules.end(), a) != r.advice_rules.end();
}
bool any_line(const usage_report& r, const std::string& text) {
  return std::any_of(r.advice.begin(), r.advice.end(), [&](const std::string& a) {
    return a.find(text) != std::string::npos;
  });
}
}  // namespace

TEST_CASE("The contradiction table", "[monitoring][advice]") {
  using a = advice_rule;
  // fewer GPUs against more GPUs
  for (a fewer : {a::release_idle, a::consolidate, a::share_mig, a::share_time_slicing})
    for (a more : {a::scale_out, a::add_capacity_now}) {
      CHECK(contradicts(fewer, more));
      CHECK(contradicts(more, fewer));
    }
  // moving work first against releasing, adding or sharing out
  for (a x : {a::release_idle, a::consolidate, a::share_mig, a::share_time_slicing, a::scale_out,
              a::add_capacity_now})
    CHECK(contradicts(a::rebalance, x));
  // "no change" against every action; growth's horizon is not an action now
  for (const auto& e : advice_rule_names)
    CHECK(contradicts(a::no_change, e.value) ==
          (e.value != a::no_change && e.value != a::growth_horizon));
  // keeping idle GPUs for growth against releasing them, consolidating, adding now, rebalancing
  for (a x : {a::release_idle, a::consolidate, a::scale_out, a::add_capacity_now, a::rebalance})
    CHECK(contradicts(a::keep_for_growth, x));
  CHECK_FALSE(contradicts(a::keep_for_growth, a::share_mig));
  CHECK_FALSE(contradicts(a::rebalance, a::growth_horizon));
  CHECK_FALSE(contradicts(a::scale_out, a::add_capacity_now));
  CHECK_FALSE(contradicts(a::release_idle, a::consolidate));
}

TEST_CASE("Every pair of advice lines agrees, on fleets of every kind", "[monitoring][advice]") {
  struct fleet {
    const char* name;
    std::vector<gpu_sample> samples;
    fleet_verdict verdict;
  };
  auto make = [](std::initializer_list<double (*)(int)> gpus) {
    std::vector<gpu_sample> s;
    int g = 0;
    for (double (*u)(int) : gpus) add_gpu(s, std::to_string(g++), u, 20);
    return s;
  };
  std::vector<fleet> fleets = {
      {"the issue's: 2 of 8 idle, 6 hot", issue_fleet(), fleet_verdict::unbalanced},
      {"all healthy", make({healthy80, healthy80, healthy80, healthy80}), fleet_verdict::healthy},
      {"all idle", make({idle0, idle0, idle1, idle0}), fleet_verdict::over_provisioned},
      {"one hot GPU alone", make({always97}), fleet_verdict::saturated},
      {"one hot GPU among healthy ones", make({healthy80, healthy80, healthy80, always97}),
       fleet_verdict::saturated},
      {"hot and idle", make({always97, always97, always97, idle0}), fleet_verdict::unbalanced},
      {"hot and under-used", make({always97, always97, always97, low10}),
       fleet_verdict::unbalanced},
      {"healthy and idle", make({healthy80, healthy80, healthy80, idle0}),
       fleet_verdict::over_provisioned},
      {"healthy and under-used", make({healthy80, healthy80, healthy80, mostly_low}),
       fleet_verdict::over_provisioned},
      {"warm (p95 93%), below the scale-out thresholds", make({warm93, warm93, warm93}),
       fleet_verdict::healthy},
      {"warm and idle", make({warm93, warm93, warm93, idle0}), fleet_verdict::unbalanced},
      {"low everywhere", make({low10, ten_to_45, low10, ten_to_45, low10, ten_to_45}),
       fleet_verdict::over_provisioned},
  };
  for (const fleet& f : fleets)
    for (double growth : {0.0, 0.10})
      for (bool gpu_known : {false, true}) {
        usage_options o{.monthly_growth = growth};
        if (gpu_known) o.gpu = catalog::h100_sxm;
        const usage_report r = analyze_usage(f.samples, o);
        INFO(f.name << ", growth " << growth << ", GPU known " << gpu_known);
        CHECK(r.findings.verdict == f.verdict);
        REQUIRE(r.advice_rules.size() == r.advice.size());
        CHECK_FALSE(r.advice.empty());
        for (std::size_t i = 0; i < r.advice.size(); ++i)
          for (std::size_t j = i + 1; j < r.advice.size(); ++j) {
            INFO(r.advice[i] << "\n  and\n" << r.advice[j]);
            CHECK_FALSE(contradicts(r.advice_rules[i], r.advice_rules[j]));
          }
        // the words too: never "release" beside "add GPUs" or "add capacity now"
        CHECK_FALSE((any_line(r, "Release") &&
                     (any_line(r, "Add GPUs") || any_line(r, "Add capacity now"))));
      }
}

TEST_CASE("The issue's fleet: move work onto the idle GPUs, neither release nor add",
          "[monitoring][advice]") {
  const usage_report r = analyze_usage(issue_fleet(), {.monthly_growth = 0.05});
  CHECK(r.fleet.mean == Approx((6 * 0.76 + 0.01) / 8));
  CHECK(r.findings.verdict == fleet_verdict::unbalanced);
  CHECK(r.findings.idle == std::vector<std::string>{"6", "7"});
  CHECK(r.findings.busy == 6);
  CHECK(r.findings.busy_bands.over_95 == Approx(0.5));
  CHECK(has_rule(r, advice_rule::rebalance));
  CHECK_FALSE(has_rule(r, advice_rule::release_idle));
  CHECK_FALSE(has_rule(r, advice_rule::scale_out));
  CHECK_FALSE(has_rule(r, advice_rule::add_capacity_now));
  // the rebalance line quotes the GPUs and figures it rests on
  CHECK(any_line(r, "Move work onto the idle GPUs 6, 7 first: the 6 busy GPUs spend 50% of "
                    "their time above 90% (50% above 95%, p95 97%); spread over all 8 GPUs the "
                    "fleet's work averages 57%."));
  // growth from the mean spread over every GPU: ln(0.9/0.571)/ln(1.05) = 9.3 months
  CHECK(any_line(r, "the fleet's mean (57%), spread over all 8 GPUs, reaches 90% in 9 months"));
}

TEST_CASE("Idle GPUs: released when the busy ones have headroom, kept when growth fills them",
          "[monitoring][advice]") {
  std::vector<gpu_sample> s;
  for (int g = 0; g < 3; ++g) add_gpu(s, std::to_string(g), healthy80);
  add_gpu(s, "3", idle0);
  const usage_report now = analyze_usage(s);
  CHECK(now.findings.verdict == fleet_verdict::over_provisioned);
  CHECK(now.advice_rules == std::vector<advice_rule>{advice_rule::release_idle});
  CHECK(now.advice[0] == "1 idle GPU (mean below 5%): 3 (0%). Release it: the 3 busy GPUs have "
                         "headroom (p95 80%, at most 90%).");
  // 1% a month: 80% -> 90% in ln(0.9/0.8)/ln(1.01) = 11.8 months, past release_horizon_months
  const usage_report slow = analyze_usage(s, {.monthly_growth = 0.01});
  CHECK(slow.findings.months_to_band_top == Approx(std::log(0.9 / 0.8) / std::log(1.01)));
  CHECK(slow.advice_rules ==
        std::vector<advice_rule>{advice_rule::release_idle, advice_rule::growth_horizon});
  CHECK_THAT(slow.advice[1], Catch::Contains("the busy GPUs' p95 (80%) reaches 90% in 11 months"));
  // 10% a month: 1.2 months, sooner than GPUs come back
  const usage_report fast = analyze_usage(s, {.monthly_growth = 0.10});
  CHECK(fast.advice_rules ==
        std::vector<advice_rule>{advice_rule::keep_for_growth, advice_rule::growth_horizon});
  CHECK_THAT(fast.advice[0], Catch::StartsWith("1 idle GPU (mean below 5%): 3 (0%). Keep it for "
                                               "growth: at 10% a month the busy GPUs' p95 (80%) "
                                               "reaches 90% in 1 month"));
  // A horizon that is not a number of months is refused, naming the field (NaN compared false
  // and released the GPUs, and the advice printed llround(NaN) months).
  for (const double bad : {std::nan(""), -1.0, 1e300})
    CHECK_THROWS_WITH(analyze_usage(s, {.monthly_growth = 0.10, .release_horizon_months = bad}),
                      Catch::Contains("usage_options.release_horizon_months"));
  CHECK_NOTHROW(analyze_usage(s, {.monthly_growth = 0.10, .release_horizon_months = 0.0}));
}

TEST_CASE("Sharing advice quotes the share of time below the edge that the table shows",
          "[monitoring][advice]") {
  std::vector<gpu_sample> s;
  add_gpu(s, "0", healthy80);
  add_gpu(s, "1", low10);       // below 30% all the time
  add_gpu(s, "2", mostly_low);  // 96% of the time
  const usage_report r = analyze_usage(s);
  CHECK(r.gpus[1].bands.under_30 == Approx(1.0));
  CHECK(r.gpus[2].bands.under_30 == Approx(0.96));
  CHECK(r.findings.under_used == std::vector<std::string>{"1", "2"});
  CHECK(any_line(r, "GPU 1 is below 30% for 100% of the time (p95 10%)"));
  CHECK(any_line(r, "GPU 2 is below 30% for 96% of the time (p95 10%)"));
  CHECK_FALSE(any_line(r, "95% of the time"));
}

TEST_CASE("MIG advice only where a slice smaller than the GPU holds the peak memory",
          "[monitoring][advice][mig]") {
  auto fleet = [](double peak_gib) {
    std::vector<gpu_sample> s;
    add_gpu(s, "0", healthy80, 70);
    add_gpu(s, "1", low10, peak_gib);
    return s;
  };
  usage_options h100{};
  h100.gpu = catalog::h100_sxm;
  SECTION("59 GiB on an 80 GiB H100: only 7g holds it, so time-slicing only") {
    const usage_report r = analyze_usage(fleet(59), h100);
    CHECK(r.gpus[1].memory_peak.in(units::GiB) == Approx(59));
    CHECK_FALSE(has_rule(r, advice_rule::share_mig));
    CHECK(has_rule(r, advice_rule::share_time_slicing));
    CHECK_FALSE(any_line(r, "with MIG"));
    CHECK(any_line(r, "share it by time-slicing only (not isolated); its 59 GiB peak memory fits "
                      "no MIG slice smaller than the whole H100-SXM5-80GB (the largest, "
                      "4g.40gb, has 40 GiB); time-sliced work must fit in the 21 GiB left."));
  }
  SECTION("15 GiB: the smallest slice that holds it, 1g.20gb") {
    const usage_report r = analyze_usage(fleet(15), h100);
    CHECK(has_rule(r, advice_rule::share_mig));
    CHECK(any_line(r, "the smallest slice that holds its 15 GiB peak memory is 1g.20gb (20 GiB "
                      "of the H100-SXM5-80GB's 80 GiB)"));
  }
  SECTION("9 GiB: 1g.10gb") {
    CHECK(any_line(analyze_usage(fleet(9), h100), "peak memory is 1g.10gb"));
  }
  SECTION("GPU unknown: time-slicing only, and how to check MIG") {
    const usage_report r = analyze_usage(fleet(15));
    CHECK_FALSE(has_rule(r, advice_rule::share_mig));
    CHECK(any_line(r, "time-slicing only (not isolated); MIG not checked: name the GPU model "
                      "(--gpu)"));
  }
  SECTION("The model from nvidia-smi's name column, read once per file") {
    const monitoring_data d = read_monitoring_file(dir + "nvidia-smi-units.csv");
    CHECK(d.gpu_models == std::vector<std::string>{"NVIDIA H100 80GB HBM3"});
    CHECK(read_monitoring_file(dir + "plain.csv").gpu_models.empty());
    const std::string many = [] {
      std::string t = "timestamp, index, name, utilization.gpu [%]\n";
      for (int k = 0; k < 40; ++k)
        t += "2026/11/23 14:00:0" + std::to_string(k % 10) + ".000, " + std::to_string(k) +
             ", GPU model " + std::to_string(k) + ", 50 %\n";
      return t;
    }();
    CHECK(io::detail::read_csv_text(many, "many.csv", {}).gpu_models.size() == max_gpu_models);
  }
  SECTION("A GPU without MIG") {
    usage_options l40s{};
    l40s.gpu = catalog::l40s;
    CHECK(any_line(analyze_usage(fleet(15), l40s), "the L40S-48GB has no MIG"));
  }
}
