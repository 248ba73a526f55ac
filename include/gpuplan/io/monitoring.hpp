// gpuplan/io/monitoring.hpp: read GPU monitoring exports into samples (gpu_sample), and write
// the utilisation analysis of plan/utilization.hpp (analyze_usage) as JSON.
//
// An edge of the library (target gpuplan::json, needs nlohmann-json): never included by the
// umbrella header. Three inputs, recognised by their content:
//
//   nvidia-smi   `nvidia-smi --query-gpu=timestamp,index,utilization.gpu,memory.used,power.draw
//                --format=csv [-l 1 | -lms 500]`, with or without `,nounits`, with or without the
//                header; columns in any order, extra columns (name, uuid, pci.bus_id,
//                memory.total) allowed. Values "87 %", "40536 MiB", "300.50 W", and "[N/A]" /
//                "[Not Supported]" (a missing reading, not an error).
//   DCGM         a Prometheus range-query result (`/api/v1/query_range`, resultType "matrix")
//                of the dcgm-exporter metrics DCGM_FI_DEV_GPU_UTIL (%), DCGM_FI_DEV_FB_USED
//                (MiB), DCGM_FI_DEV_POWER_USAGE (W), or DCGM_FI_PROF_GR_ENGINE_ACTIVE (a ratio)
//                for utilisation. A GPU is Hostname (or instance) + ":" + the gpu label.
//   plain CSV    header `timestamp,gpu,utilization,memory_used,power`; utilisation in percent,
//                memory in MiB and power in W unless the value carries a unit; timestamps as
//                ISO 8601 ("2026-11-23T06:00:00Z"), nvidia-smi's "2026/11/23 06:00:00.000" or
//                Unix seconds. An optional `tokens_per_s` or `requests_per_s` column (the
//                serving engine's throughput on that GPU, e.g. vLLM's generation tokens rate)
//                gives the throughput graph.
//
// Any of them may start with a UTF-8 byte-order mark and use CRLF line ends. A file is streamed
// within monitoring_limits (rows, line length, bytes) and a NUL byte refused. Readings of one GPU
// at one time are averaged (merge_same_time) and counted in duplicate_readings; missing ones
// ("[N/A]", "NaN") are counted in missing_readings.
//
// Bad input throws gpuplan::io::error with one line naming file:row and the field
// ("util.csv:17: field 'utilization.gpu': cannot read 'abc' as a percentage").
//
// The analysis (time-weighted utilisation, bands, advice) is plan/utilization.hpp.
#pragma once

#include <gpuplan/io/json.hpp>
#include <gpuplan/plan/utilization.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/units.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <istream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::io {

enum class monitoring_format { nvidia_smi, dcgm_prometheus, plain_csv };

/// How the formats are named in the report ("formats") and the text output.
inline constexpr enumerator<monitoring_format> monitoring_format_names[] = {
    {monitoring_format::nvidia_smi, "nvidia-smi"},
    {monitoring_format::dcgm_prometheus, "dcgm-prometheus"},
    {monitoring_format::plain_csv, "csv"}};
constexpr const auto& enumerators(monitoring_format) { return monitoring_format_names; }
// The names are read by gpuplan's to_string and parse_enum (specs/enum_names.hpp), found here too.
using gpuplan::parse_enum;
using gpuplan::to_string;

struct monitoring_data {
  std::string source;
  monitoring_format format = monitoring_format::plain_csv;
  /// "tokens/s" or "requests/s" when the file has a throughput column; empty otherwise.
  std::string throughput_unit;
  /// The GPU models the file names (nvidia-smi's `name` column or dcgm-exporter's `modelName`
  /// label: "NVIDIA H100 80GB HBM3"), each once, at most max_gpu_models; empty when it names none.
  std::vector<std::string> gpu_models;
  std::vector<gpu_sample> samples;
  /// Utilisation readings that were missing: "[N/A]" and the like in a CSV, "NaN" in a
  /// Prometheus series, or a time where only memory or power was reported. Skipped.
  int missing_readings = 0;
  /// Readings of one GPU at a time it already had a reading of (overlapping logs concatenated,
  /// two exporters scraping one GPU): merged into one sample, each quantity the mean of the
  /// readings that have it (merge_same_time). For a DCGM series, one per metric repeated.
  int duplicate_readings = 0;
  /// Readings whose timestamp carried no zone (nvidia-smi writes the host's local time without
  /// one): read as if UTC, so their clock is the log's local time, not UTC.
  int times_without_zone = 0;
};

/// The limits of the monitoring readers (docs/monitoring.md), as json_limits are the JSON
/// readers': past them the input is refused with an io::error naming the file and the bound,
/// rather than filling the memory (`gpuplan utilization /dev/zero` grew to gigabytes). The
/// reader streams a CSV: its memory is the samples it keeps, not the file.
struct monitoring_limits {
  /// Most rows (lines, blank and comment lines included) of a CSV, and most values in all the
  /// series of a Prometheus response. A month of an 8-GPU node sampled every 5 s
  /// (`nvidia-smi -l 5`) is 4.1 million rows; longer or larger fleets are better read through
  /// Prometheus with a coarser step. A row costs about 0.4 KB through the reader and the
  /// analysis (docs/monitoring.md), so 5 million is about 2 GB.
  std::size_t max_rows = 5'000'000;
  /// Longest line of a CSV, in bytes. nvidia-smi's widest line (every one of its ~100
  /// --query-gpu fields, with units) is a few KiB; 64 KiB is far beyond it and stops a file with
  /// no line ends (a binary, /dev/zero) at its first line.
  std::size_t max_line_bytes = 64 * 1024;
  /// Largest CSV, in bytes: max_rows rows of about 200 bytes (an nvidia-smi line with the GPU's
  /// name, UUID and units).
  std::uintmax_t max_file_bytes = std::uintmax_t{1} << 30;
  /// Largest Prometheus (JSON) response: the JSON readers' limit (json_limits::max_file_bytes,
  /// 64 MiB), about 2.5 million values at ~25 bytes each (`[1795442400,"87"],`) -- above
  /// Prometheus's own cap of 11,000 points per series for 4 metrics of 64 GPUs.
  std::uintmax_t max_json_bytes = json_limits{}.max_file_bytes;
};

/// Most distinct GPU model names kept from a file (monitoring_data::gpu_models): a fleet mixes a
/// few models; a file naming thousands is not a fleet, and the list stays bounded.
inline constexpr std::size_t max_gpu_models = 16;

struct read_options {
  /// Prefixed to every GPU id ("node1:" + "0"): set it when several files number their GPUs
  /// from 0 (one nvidia-smi log per host).
  std::string id_prefix;
  monitoring_limits limits{};
  /// Called as a file is read, once per buffer (64 KiB), with the file's name and the bytes read
  /// from it so far: a progress bar's feed (`gpuplan utilization` draws one for a file that
  /// takes more than a second). Empty: not called. An exception it throws ends the read.
  std::function<void(const std::string& file, std::uintmax_t bytes_read)> on_read{};
};

namespace detail {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Splits one CSV line at commas; double-quoted fields may hold commas ("" is a quote).
inline std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.emplace_back(trim(cur));
  return out;
}

inline bool parse_double(std::string_view s, double& v) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

inline bool is_missing(std::string_view s) {
  const std::string l = lower(trim(s));
  return l.empty() || l == "[n/a]" || l == "n/a" || l == "[not supported]" || l == "nan" ||
         l == "[unknown error]" || l == "[gpu requires reset]";
}

/// A number followed by an optional unit: "300.5 W" -> (300.5, "W").
inline bool split_value(std::string_view s, double& v, std::string& unit) {
  s = trim(s);
  std::size_t k = 0;
  while (k < s.size() && (std::isdigit(static_cast<unsigned char>(s[k])) || s[k] == '.' ||
                          s[k] == '-' || s[k] == '+' || s[k] == 'e' || s[k] == 'E')) {
    // an 'e' must be an exponent: followed by a digit or a sign
    if ((s[k] == 'e' || s[k] == 'E') &&
        !(k + 1 < s.size() && (std::isdigit(static_cast<unsigned char>(s[k + 1])) ||
                               s[k + 1] == '-' || s[k + 1] == '+')))
      break;
    ++k;
  }
  if (!parse_double(s.substr(0, k), v)) return false;
  unit = std::string(trim(s.substr(k)));
  return true;
}

/// Sample times the readers accept, in Unix seconds: from 1970-01-01 to 9999-12-31T23:59:59Z.
/// A monitoring export comes from a running system; a time outside these is a typo or garbage,
/// and one near double's range would make the analysis's interval sums infinite (a fuzzing
/// finding: a Prometheus sample at time -2147483649, a CSV row in the year 1511).
inline constexpr double latest_sample_time = 253402300799.0;
inline bool plausible_time(double t) { return t >= 0 && t <= latest_sample_time; }

/// The largest memory and power reading a sample may hold: 1 PiB and 1 MW, about a thousand
/// times the largest GPU's memory (B200: 192 GB) and board power (B200: 1,000 W). Larger values
/// are garbage, and near double's range their time-weighted sums in the analysis overflow to
/// infinity (a fuzzing finding: "1e308 GiB" gave an infinite mean).
inline constexpr double max_sample_bytes = 1125899906842624.0;  // 2^50
inline constexpr double max_sample_watts = 1e6;
/// The largest throughput reading (tokens or requests per second on one GPU): 1e9, tens of
/// thousands of times what one GPU serves (thousands to tens of thousands of tokens/s). Near
/// double's range the time-weighted sum overflowed and the mean came back as JSON null.
inline constexpr double max_sample_rate = 1e9;

/// Unix seconds (UTC) of a civil date (proleptic Gregorian).
inline long long days_from_civil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

/// "2026/11/23 06:00:00.123", "2026-11-23T06:00:00Z", "2026-11-23 06:00:00+01:00", or Unix
/// seconds "1795420800.5". False when it is none of these. A date and time written without a
/// zone (nvidia-smi's, which is the host's local time) is read as if it were UTC, so the clock
/// reads back as written; `zoned`, when given, is set false for such a time (true for Unix
/// seconds, "Z", "UTC" or an offset), so that a chart can say its times are local.
inline bool parse_timestamp(std::string_view s, double& t, bool* zoned = nullptr) {
  s = trim(s);
  if (s.empty()) return false;
  if (zoned) *zoned = true;
  if (parse_double(s, t)) return plausible_time(t);
  int Y = 0, M = 0, D = 0, h = 0, mi = 0;
  double sec = 0;
  auto num = [&](std::size_t pos, std::size_t len, int& out) {
    if (pos + len > s.size()) return false;
    int v = 0;
    for (std::size_t i = pos; i < pos + len; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
      v = v * 10 + (s[i] - '0');
    }
    out = v;
    return true;
  };
  if (s.size() < 19 || !num(0, 4, Y) || !(s[4] == '/' || s[4] == '-') || !num(5, 2, M) ||
      s[7] != s[4] || !num(8, 2, D) || !(s[10] == ' ' || s[10] == 'T') || !num(11, 2, h) ||
      s[13] != ':' || !num(14, 2, mi) || s[16] != ':')
    return false;
  std::size_t k = 17;
  while (k < s.size() && (std::isdigit(static_cast<unsigned char>(s[k])) || s[k] == '.')) ++k;
  if (!parse_double(s.substr(17, k - 17), sec)) return false;
  double offset = 0;
  std::string_view zone = trim(s.substr(k));
  if (zone.empty()) {
    if (zoned) *zoned = false;
  } else if (zone == "Z" || zone == "UTC") {
  } else if ((zone.front() == '+' || zone.front() == '-') && zone.size() == 6 && zone[3] == ':') {
    int zh = 0, zm = 0;
    const std::string z(zone);
    if (!std::isdigit(static_cast<unsigned char>(z[1])) ||
        !std::isdigit(static_cast<unsigned char>(z[2])) ||
        !std::isdigit(static_cast<unsigned char>(z[4])) ||
        !std::isdigit(static_cast<unsigned char>(z[5])))
      return false;
    zh = (z[1] - '0') * 10 + (z[2] - '0');
    zm = (z[4] - '0') * 10 + (z[5] - '0');
    offset = (zone.front() == '+' ? 1 : -1) * (zh * 3600.0 + zm * 60.0);
  } else {
    return false;
  }
  if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || mi > 59 || sec >= 61) return false;
  const long long days =
      days_from_civil(Y, static_cast<unsigned>(M), static_cast<unsigned>(D));
  t = static_cast<double>(days) * 86400.0 + h * 3600.0 + mi * 60.0 + sec - offset;
  return plausible_time(t);
}

/// Where a CSV value came from, for messages: "util.csv:17: field 'power.draw'".
struct csv_place {
  const std::string* file;
  std::size_t row;
  std::string where(std::string_view field) const {
    return *file + ":" + std::to_string(row) + ": field '" + std::string(field) + "'";
  }
};

inline double read_percent(std::string_view text, std::string_view field, const csv_place& at) {
  double v = 0;
  std::string unit;
  if (!split_value(text, v, unit) || !(unit.empty() || unit == "%"))
    throw error(at.where(field) + ": cannot read '" + std::string(trim(text)) +
                "' as a percentage");
  if (v < 0 || v > 100)
    throw error(at.where(field) + ": " + std::string(trim(text)) +
                " is outside 0-100%");
  return v / 100.0;
}

/// Memory: a bare number is in `default_unit` (the header's "[MiB]", else MiB).
inline data_size read_memory(std::string_view text, std::string_view field, const csv_place& at,
                             std::string_view default_unit) {
  double v = 0;
  std::string unit;
  if (!split_value(text, v, unit))
    throw error(at.where(field) + ": cannot read '" + std::string(trim(text)) + "' as memory");
  if (unit.empty()) unit = default_unit.empty() ? "MiB" : std::string(default_unit);
  static const std::pair<std::string_view, double> units_table[] = {
      {"B", 1.0},      {"KiB", 1024.0},  {"MiB", 1048576.0}, {"GiB", 1073741824.0},
      {"kB", 1e3},     {"KB", 1e3},      {"MB", 1e6},        {"GB", 1e9}};
  for (const auto& [name, factor] : units_table)
    if (unit == name) {
      if (v < 0)
        throw error(at.where(field) + ": " + std::string(trim(text)) + " is negative");
      if (!(v * factor <= max_sample_bytes))
        throw error(at.where(field) + ": " + std::string(trim(text)) +
                    " is too large (more than 1 PiB)");
      return v * factor * units::B;
    }
  throw error(at.where(field) + ": unknown memory unit '" + unit + "' in '" +
              std::string(trim(text)) + "' (MiB, GiB, MB, GB, B)");
}

inline power read_power(std::string_view text, std::string_view field, const csv_place& at) {
  double v = 0;
  std::string unit;
  if (!split_value(text, v, unit))
    throw error(at.where(field) + ": cannot read '" + std::string(trim(text)) + "' as power");
  double factor = 0;
  if (unit.empty() || unit == "W") factor = 1;
  else if (unit == "kW") factor = 1e3;
  else if (unit == "mW") factor = 1e-3;
  else
    throw error(at.where(field) + ": unknown power unit '" + unit + "' in '" +
                std::string(trim(text)) + "' (W, kW, mW)");
  if (v < 0) throw error(at.where(field) + ": " + std::string(trim(text)) + " is negative");
  if (!(v * factor <= max_sample_watts))
    throw error(at.where(field) + ": " + std::string(trim(text)) + " is too large (more than 1 MW)");
  return v * factor * units::W;
}

/// A throughput: a bare number, not negative (the column's name carries the unit).
inline double read_rate(std::string_view text, std::string_view field, const csv_place& at) {
  double v = 0;
  std::string unit;
  if (!split_value(text, v, unit) || !unit.empty())
    throw error(at.where(field) + ": cannot read '" + std::string(trim(text)) +
                "' as a number per second");
  if (v < 0) throw error(at.where(field) + ": " + std::string(trim(text)) + " is negative");
  if (!(v <= max_sample_rate))
    throw error(at.where(field) + ": " + std::string(trim(text)) +
                " is too large (more than 1e9 per second)");
  return v;
}

/// Column name without its "[unit]" suffix, lower case: "utilization.gpu [%]" -> "utilization.gpu".
inline std::string column_key(std::string_view h, std::string* unit = nullptr) {
  h = trim(h);
  const auto open = h.find('[');
  if (open != std::string_view::npos) {
    const auto close = h.find(']', open);
    if (unit != nullptr && close != std::string_view::npos)
      *unit = std::string(trim(h.substr(open + 1, close - open - 1)));
    h = trim(h.substr(0, open));
  }
  return lower(h);
}

/// A monitoring export read from a stream within monitoring_limits: byte by byte from a buffer,
/// so a file is never held whole (a CSV is read line by line). Refuses NUL bytes (a binary file
/// or a device, not a text export) naming the line.
class text_source {
 public:
  text_source(std::istream& in, const std::string& file, const monitoring_limits& limits,
              const std::function<void(const std::string&, std::uintmax_t)>* on_read = nullptr)
      : in_(in), file_(file), limits_(limits), on_read_(on_read), buffer_(std::size_t{1} << 16) {}

  /// The next byte, or -1 at the end. Counts bytes against `byte_limit` (the CSV's or the
  /// JSON's, set by the reader once it knows which it reads).
  int get() {
    if (pos_ == end_ && !fill()) return -1;
    if (++consumed_ > byte_limit_)
      throw error(file_ + ": larger than " + std::to_string(byte_limit_) + " bytes, the limit for " +
                  std::string(byte_limit_name_));
    return static_cast<unsigned char>(buffer_[pos_++]);
  }
  int peek() { return pos_ == end_ && !fill() ? -1 : static_cast<unsigned char>(buffer_[pos_]); }

  /// The next line without its "\n" or "\r\n"; false at the end of the text. Counts it against
  /// max_rows and its length against max_line_bytes.
  bool next_line(std::string& line) {
    line.clear();
    if (peek() < 0) return false;
    new_line();
    for (int c = get(); c >= 0 && c != '\n'; c = get()) {
      if (c == 0) nul();
      if (line.size() == limits_.max_line_bytes)
        throw error(file_ + ":" + std::to_string(line_) + ": a line longer than " +
                    std::to_string(limits_.max_line_bytes) +
                    " bytes, the limit for a monitoring CSV (monitoring_limits::max_line_bytes)");
      line += static_cast<char>(c);
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }

  /// Starts a line (of the CSV, or a blank line before a JSON text).
  void new_line() {
    if (++line_ > limits_.max_rows)
      throw error(file_ + ": more than " + std::to_string(limits_.max_rows) +
                  " rows, the limit for a monitoring export (monitoring_limits::max_rows)");
  }
  [[noreturn]] void nul() const {
    throw error(file_ + ":" + std::to_string(line_) +
                ": a NUL byte: binary data, not a monitoring export (CSV or JSON text)");
  }
  std::size_t line() const { return line_; }
  /// The byte limit from here on, and its name in the message.
  void set_byte_limit(std::uintmax_t limit, std::string_view name) {
    byte_limit_ = limit;
    byte_limit_name_ = name;
  }

 private:
  bool fill() {
    if (eof_) return false;
    in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    end_ = static_cast<std::size_t>(in_.gcount());
    pos_ = 0;
    if (in_.bad()) throw error(file_ + ": read error");
    if (end_ == 0) eof_ = true;
    read_ += end_;
    if (on_read_ != nullptr && *on_read_) (*on_read_)(file_, read_);
    return end_ > 0;
  }

  std::istream& in_;
  const std::string& file_;
  const monitoring_limits& limits_;
  const std::function<void(const std::string&, std::uintmax_t)>* on_read_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::uintmax_t consumed_ = 0;
  std::uintmax_t read_ = 0;  ///< bytes read from the stream (on_read's count)
  std::uintmax_t byte_limit_ = limits_.max_file_bytes;
  std::string_view byte_limit_name_ = "a monitoring CSV (monitoring_limits::max_file_bytes)";
  std::size_t line_ = 0;
};

// ---- CSV (nvidia-smi and plain) ------------------------------------------------------------------

struct csv_columns {
  int time = -1, gpu = -1, util = -1, memory = -1, power = -1, throughput = -1, model = -1;
  std::string throughput_unit;
  std::string memory_unit;
  std::size_t count = 0;
};

/// The columns a CSV header row names (nvidia-smi's or the plain CSV's); sets d's format and
/// throughput unit, and refuses a header without the GPU or utilisation column.
inline csv_columns csv_header(const std::vector<std::string>& f, const std::string& file,
                              std::size_t row, monitoring_data& d) {
  csv_columns c;
  c.count = f.size();
  bool smi = false;
  for (std::size_t k = 0; k < f.size(); ++k) {
    std::string unit;
    const std::string key = column_key(f[k], &unit);
    const int kk = static_cast<int>(k);
    // nvidia-smi's columns are dotted names ("memory.used") and number GPUs by "index".
    smi = smi || key == "index" || key.find('.') != std::string::npos;
    if (key == "timestamp") c.time = kk;
    else if (key == "name") c.model = kk;
    else if (key == "index" || key == "gpu" || key == "gpu_id") c.gpu = kk;
    else if ((key == "uuid" || key == "pci.bus_id") && c.gpu < 0) c.gpu = kk;
    else if (key == "utilization.gpu" || key == "utilization") {
      c.util = kk;
    } else if (key == "memory.used" || key == "memory_used") {
      c.memory = kk;
      c.memory_unit = unit;
    } else if (key == "power.draw" || key == "power" || key == "power.draw.average" ||
               key == "power.draw.instant") {
      if (c.power < 0 || key == "power.draw") c.power = kk;
    } else if (key == "tokens_per_s" || key == "requests_per_s") {
      if (c.throughput >= 0)
        throw error(file + ":" + std::to_string(row) +
                    ": both 'tokens_per_s' and 'requests_per_s': give one throughput column");
      c.throughput = kk;
      c.throughput_unit = key == "tokens_per_s" ? "tokens/s" : "requests/s";
    }
  }
  const std::string_view util_name = smi ? "utilization.gpu" : "utilization";
  if (c.gpu < 0)
    throw error(file + ":" + std::to_string(row) + ": missing column '" +
                (smi ? std::string("index") : std::string("gpu")) +
                "' (the GPU of each row)");
  if (c.util < 0)
    throw error(file + ":" + std::to_string(row) + ": missing column '" +
                std::string(util_name) + "'");
  d.format = smi ? monitoring_format::nvidia_smi : monitoring_format::plain_csv;
  if (!d.throughput_unit.empty() && c.throughput_unit != d.throughput_unit)
    throw error(file + ":" + std::to_string(row) + ": the throughput column changed from " +
                d.throughput_unit + " to " + c.throughput_unit);
  if (c.throughput >= 0) d.throughput_unit = c.throughput_unit;
  return c;
}

/// Keeps a GPU model name (nvidia-smi's `name`, dcgm-exporter's `modelName`) once, up to max_gpu_models; a missing one
/// ("[N/A]") or an empty one is skipped.
inline void note_model(monitoring_data& d, const std::string& name) {
  const std::string_view v = trim(name);
  if (v.empty() || is_missing(v) || d.gpu_models.size() >= max_gpu_models) return;
  if (std::find(d.gpu_models.begin(), d.gpu_models.end(), v) == d.gpu_models.end())
    d.gpu_models.emplace_back(v);
}

inline monitoring_data read_csv(text_source& src, const std::string& file,
                                const read_options& o) {
  monitoring_data d;
  d.source = file;
  csv_columns cols;
  bool have_header = false;
  std::vector<std::string> header;
  std::string text_line;
  while (src.next_line(text_line)) {
    // A byte-order mark at the start of a later line: Excel exports concatenated (the first
    // one, at the start of the file, read_monitoring_source skips)
    if (text_line.rfind("\xEF\xBB\xBF", 0) == 0) text_line.erase(0, 3);
    const std::size_t row = src.line();
    const csv_place at{&file, row};
    const std::string_view line = trim(text_line);
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string> f = split_csv(line);
    // A header: nvidia-smi's (repeated when logs are concatenated) or the plain CSV's, with a
    // timestamp column anywhere (nvidia-smi keeps the order of --query-gpu).
    bool is_header = false;
    for (const std::string& cell : f) is_header = is_header || column_key(cell) == "timestamp";
    if (is_header) {
      cols = csv_header(f, file, row, d);
      header = f;
      have_header = true;
      continue;
    }
    if (!have_header)
      throw error(file + ":" + std::to_string(row) +
                  ": no header row before the data (expected 'timestamp, index, "
                  "utilization.gpu [%], ...' or 'timestamp,gpu,utilization,memory_used,power')");
    if (f.size() != cols.count)
      throw error(file + ":" + std::to_string(row) + ": " + std::to_string(f.size()) +
                  " fields, the header has " + std::to_string(cols.count));
    auto name = [&](int k) { return column_key(header[static_cast<std::size_t>(k)]); };
    gpu_sample s;
    if (cols.time < 0)
      throw error(file + ":" + std::to_string(row) + ": missing column 'timestamp'");
    bool zoned = true;
    if (!parse_timestamp(f[static_cast<std::size_t>(cols.time)], s.time, &zoned))
      throw error(at.where("timestamp") + ": cannot read '" +
                  f[static_cast<std::size_t>(cols.time)] +
                  "' as a time from 1970 to 9999 (2026/11/23 06:00:00.000, ISO 8601 or Unix "
                  "seconds)");
    if (!zoned) ++d.times_without_zone;
    s.gpu = f[static_cast<std::size_t>(cols.gpu)];
    if (s.gpu.empty()) throw error(at.where(name(cols.gpu)) + ": empty GPU id");
    s.gpu = o.id_prefix + s.gpu;
    const std::string& u = f[static_cast<std::size_t>(cols.util)];
    if (is_missing(u)) {
      ++d.missing_readings;
      continue;
    }
    s.utilization = read_percent(u, name(cols.util), at);
    if (cols.model >= 0) note_model(d, f[static_cast<std::size_t>(cols.model)]);
    if (cols.memory >= 0 && !is_missing(f[static_cast<std::size_t>(cols.memory)]))
      s.memory_used = read_memory(f[static_cast<std::size_t>(cols.memory)], name(cols.memory), at,
                                  cols.memory_unit);
    if (cols.power >= 0 && !is_missing(f[static_cast<std::size_t>(cols.power)]))
      s.power_draw = read_power(f[static_cast<std::size_t>(cols.power)], name(cols.power), at);
    if (cols.throughput >= 0 && !is_missing(f[static_cast<std::size_t>(cols.throughput)]))
      s.throughput = read_rate(f[static_cast<std::size_t>(cols.throughput)],
                               name(cols.throughput), at);
    d.samples.push_back(std::move(s));
  }
  if (!have_header) throw error(file + ": empty file (no header, no data)");
  if (d.samples.empty()) throw error(file + ": no utilisation readings after the header");
  d.duplicate_readings = merge_same_time(d.samples);
  return d;
}

/// The CSV reader over a text (the fuzz target's entry): within `o.limits`, as from a file.
inline monitoring_data read_csv_text(const std::string& text, const std::string& file,
                                     const read_options& o) {
  std::istringstream in(text);
  text_source src(in, file, o.limits, &o.on_read);
  return read_csv(src, file, o);
}

// ---- Prometheus range query (dcgm-exporter) ------------------------------------------------------

/// The readings of each DCGM metric at one (gpu, time), merged across metrics: a sum and a count
/// each, so a metric repeated at one time (two series of one GPU) is averaged and counted.
struct dcgm_mean {
  double sum = 0;
  int n = 0;
  void add(double x) { sum += x, ++n; }
  [[nodiscard]] double value() const { return sum / n; }
};
struct dcgm_readings {
  dcgm_mean util_pct, util_ratio, fb_used, power_w;
};
/// The DCGM fields the reader uses; `other` for the rest (skipped).
enum class dcgm_field : unsigned char { util_pct, util_ratio, fb_used, power_w, other };

/// One value of a DCGM series, checked against its field's range and added to `r`.
inline void add_dcgm_value(dcgm_field kind, double x, const std::string& at,
                           const std::string& metric, const std::string& shown,
                           dcgm_readings& r) {
  switch (kind) {
    case dcgm_field::util_pct:
      if (x < 0 || x > 100) throw error(at + " (" + metric + "): " + shown + " is outside 0-100%");
      r.util_pct.add(x / 100.0);
      break;
    case dcgm_field::util_ratio:
      if (x < 0 || x > 1) throw error(at + " (" + metric + "): " + shown + " is outside 0-1");
      r.util_ratio.add(x);
      break;
    case dcgm_field::fb_used:
      if (x < 0) throw error(at + " (" + metric + "): negative memory");
      if (!(x * 1048576.0 <= max_sample_bytes))
        throw error(at + " (" + metric + "): " + shown + " MiB is too large (more than 1 PiB)");
      r.fb_used.add(x);
      break;
    case dcgm_field::power_w:
      if (x < 0) throw error(at + " (" + metric + "): negative power");
      if (x > max_sample_watts)
        throw error(at + " (" + metric + "): " + shown + " W is too large (more than 1 MW)");
      r.power_w.add(x);
      break;
    case dcgm_field::other: break;
  }
}

/// The field a series' metric name carries; refuses a series without `__name__` (an expression).
inline dcgm_field dcgm_field_of(const std::string& metric, const std::string& where) {
  if (metric == "DCGM_FI_DEV_GPU_UTIL") return dcgm_field::util_pct;
  if (metric == "DCGM_FI_PROF_GR_ENGINE_ACTIVE") return dcgm_field::util_ratio;
  if (metric == "DCGM_FI_DEV_FB_USED") return dcgm_field::fb_used;
  if (metric == "DCGM_FI_DEV_POWER_USAGE") return dcgm_field::power_w;
  if (metric.empty())
    throw error(where + ": metric has no '__name__' label (query the raw DCGM metric, e.g. "
                        "DCGM_FI_DEV_GPU_UTIL, not an expression)");
  return dcgm_field::other;  // other DCGM fields are not used
}

using dcgm_merged = std::map<std::pair<std::string, double>, dcgm_readings>;

/// One series of a range query (data.result[i]) read into `merged`; `values_read` counts the
/// values against the row limit.
inline void read_dcgm_series(const nlohmann::json& series, const std::string& where,
                             const std::string& file, const read_options& o,
                             std::size_t& values_read, dcgm_merged& merged, monitoring_data& d) {
  if (!series.is_object() || !series.contains("metric") || !series["metric"].is_object() ||
      !series.contains("values") || !series["values"].is_array())
    throw error(where + ": needs 'metric' (object) and 'values' (array)");
  const nlohmann::json& m = series["metric"];
  auto label = [&](const char* k) -> std::string {
    return m.contains(k) && m[k].is_string() ? m[k].get<std::string>() : std::string();
  };
  // One line: a label is any string, and messages quote it.
  const std::string metric = one_line(label("__name__"));
  const dcgm_field kind = dcgm_field_of(metric, where);
  if (kind == dcgm_field::other) return;
  note_model(d, one_line(label("modelName")));  // dcgm-exporter labels each series with it
  std::string host = label("Hostname");
  if (host.empty()) host = label("instance");
  std::string gpu = label("gpu");
  if (gpu.empty()) gpu = label("UUID");
  if (gpu.empty()) throw error(where + ": metric has neither a 'gpu' nor a 'UUID' label");
  const std::string id = o.id_prefix + (host.empty() ? gpu : host + ":" + gpu);
  const nlohmann::json& values = series["values"];
  values_read += values.size();
  if (values_read > o.limits.max_rows)
    throw error(file + ": more than " + std::to_string(o.limits.max_rows) +
                " values, the limit for a monitoring export (monitoring_limits::max_rows)");
  for (std::size_t k = 0; k < values.size(); ++k) {
    const std::string at = where + ".values[" + std::to_string(k) + "]";
    const nlohmann::json& v = values[k];
    if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_string())
      throw error(at + ": expected [unix_time, \"value\"]");
    const double t = v[0].get<double>();
    if (!plausible_time(t))
      throw error(at + ": time " + v[0].dump() +
                  " is not a Unix time from 1970 to 9999 (seconds)");
    const std::string text_value = v[1].get<std::string>();
    const std::string shown = one_line(text_value);  // as messages quote it
    dcgm_readings& r = merged[{id, t}];  // a missing utilisation still marks the time
    if (is_missing(text_value)) continue;
    double x = 0;
    if (!parse_double(text_value, x))
      throw error(at + " (" + metric + "): cannot read '" + shown + "' as a number");
    add_dcgm_value(kind, x, at, metric, shown, r);
  }
}

inline monitoring_data read_prometheus_text(const std::string& text, const std::string& file,
                                            const read_options& o) {
  const nlohmann::json j = parse_json(text, file);
  monitoring_data d;
  d.source = file;
  d.format = monitoring_format::dcgm_prometheus;
  if (!j.is_object()) throw error(file + ": a Prometheus response must be a JSON object");
  if (j.contains("status") && j["status"] != "success")
    throw error(file + ": key 'status': '" + j["status"].dump() + "', not \"success\"");
  if (!j.contains("data") || !j["data"].is_object())
    throw error(file + ": missing key 'data' (a Prometheus /api/v1/query_range response)");
  const nlohmann::json& data = j["data"];
  if (!data.contains("resultType") || data["resultType"] != "matrix")
    throw error(file + ": key 'data.resultType' must be \"matrix\" (a range query)");
  if (!data.contains("result") || !data["result"].is_array())
    throw error(file + ": key 'data.result' must be an array");
  dcgm_merged merged;
  std::size_t values_read = 0;
  const nlohmann::json& result = data["result"];
  for (std::size_t i = 0; i < result.size(); ++i)
    read_dcgm_series(result[i], file + ": data.result[" + std::to_string(i) + "]", file, o,
                     values_read, merged, d);
  for (const auto& [key, r] : merged) {
    for (const dcgm_mean* m : {&r.util_pct, &r.util_ratio, &r.fb_used, &r.power_w})
      if (m->n > 1) d.duplicate_readings += m->n - 1;
    // GPU_UTIL where it was read; GR_ENGINE_ACTIVE where it alone was.
    const dcgm_mean& util = r.util_pct.n > 0 ? r.util_pct : r.util_ratio;
    if (util.n == 0) {
      ++d.missing_readings;
      continue;
    }
    gpu_sample s;
    s.gpu = key.first;
    s.time = key.second;
    s.utilization = util.value();
    if (r.fb_used.n > 0) s.memory_used = r.fb_used.value() * units::MiB;
    if (r.power_w.n > 0) s.power_draw = r.power_w.value() * units::W;
    d.samples.push_back(std::move(s));
  }
  if (d.samples.empty())
    throw error(file + ": no DCGM_FI_DEV_GPU_UTIL (or DCGM_FI_PROF_GR_ENGINE_ACTIVE) samples");
  return d;
}

/// Reads an export from `src`, recognising its format: after an optional UTF-8 byte-order mark
/// (Excel's CSV export writes one) and blank space, a '{' starts a Prometheus response (read
/// whole, within max_json_bytes), anything else a CSV (streamed line by line).
inline monitoring_data read_monitoring_source(text_source& src, const std::string& file,
                                              const read_options& o) {
  static constexpr unsigned char bom[] = {0xEF, 0xBB, 0xBF};
  if (src.peek() == bom[0]) {
    for (const unsigned char b : bom)
      if (src.get() != b)
        throw error(file + ":1: not text: a byte 0xEF at the start that is not a UTF-8 "
                           "byte-order mark");
  }
  // Blank space before the content: kept as line ends, so JSON positions stay right.
  std::string blank;
  while (src.peek() >= 0 && std::isspace(src.peek()) && src.peek() != '\n') src.get();
  while (src.peek() == '\n') {
    src.get();
    src.new_line();
    blank += '\n';
    while (src.peek() >= 0 && std::isspace(src.peek()) && src.peek() != '\n') src.get();
  }
  if (src.peek() != '{') return read_csv(src, file, o);
  src.set_byte_limit(o.limits.max_json_bytes,
                     "a Prometheus response (monitoring_limits::max_json_bytes)");
  std::string text = std::move(blank);
  std::size_t line = src.line() + 1;  // for a NUL's message; a JSON's lines are not rows
  for (int c = src.get(); c >= 0; c = src.get()) {
    if (c == 0)
      throw error(file + ":" + std::to_string(line) +
                  ": a NUL byte: binary data, not a monitoring export (CSV or JSON text)");
    if (c == '\n') ++line;
    text += static_cast<char>(c);
  }
  return read_prometheus_text(text, file, o);
}

}  // namespace detail

/// Reads a monitoring export from text, recognising its format (JSON: Prometheus; a header with
/// utilization.gpu: nvidia-smi; otherwise the plain CSV). `file` names it in errors. The limits
/// of `o.limits` apply as to a file.
inline monitoring_data read_monitoring(const std::string& text, const std::string& file,
                                       const read_options& o = {}) {
  std::istringstream in(text);
  detail::text_source src(in, file, o.limits, &o.on_read);
  return detail::read_monitoring_source(src, file, o);
}

/// Reads a monitoring export file, streaming it (a CSV is never held whole): io::error when it
/// is missing, a directory, unreadable, or past `o.limits` (a regular file's size is checked
/// before reading; anything else -- a pipe, a device -- while reading).
inline monitoring_data read_monitoring_file(const std::filesystem::path& path,
                                            const read_options& o = {}) {
  const std::string file = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw error(file + ": no such file");
  if (std::filesystem::is_directory(path, ec))
    throw error(file + ": is a directory, not a monitoring export");
  if (std::filesystem::is_regular_file(path, ec)) {
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    const std::uintmax_t most = std::max(o.limits.max_file_bytes, o.limits.max_json_bytes);
    if (!ec && size > most)
      throw error(file + ": " + std::to_string(size) + " bytes, larger than " +
                  std::to_string(most) +
                  ", the limit for a monitoring export (monitoring_limits::max_file_bytes)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(file + ": cannot open the file for reading");
  detail::text_source src(in, file, o.limits, &o.on_read);
  return detail::read_monitoring_source(src, file, o);
}

/// The monitoring files of one fleet, read together (`gpuplan utilization FILE...`): their
/// samples, one format per file, the throughput unit they share, and the readings each reader
/// left out or merged.
struct monitoring_files {
  std::vector<std::string> files;
  std::vector<std::string> formats;   ///< to_string(monitoring_format), one per file
  std::string throughput_unit;        ///< "tokens/s", "requests/s", or empty: no throughput column
  /// The GPU models the files name (monitoring_data::gpu_models), each once.
  std::vector<std::string> gpu_models;
  std::vector<gpu_sample> samples;
  int missing_readings = 0;
  int duplicate_readings = 0;         ///< within each file (analyze_usage counts those across)
  int times_without_zone = 0;         ///< monitoring_data::times_without_zone, summed
};

/// Reads every file (read_monitoring_file). Several hosts' nvidia-smi logs and plain CSVs all
/// number their GPUs from 0, so with more than one file their ids are prefixed with the file's
/// stem ("node1:0"); DCGM ids already carry the host. Throws io::error when two files give
/// throughput in different units.
inline monitoring_files read_monitoring_files(const std::vector<std::string>& files,
                                              const read_options& o = {}) {
  monitoring_files r;
  r.files = files;
  std::vector<std::pair<std::string, std::string>> prefixes;  // (prefix, the file that has it)
  for (const std::string& file : files) {
    monitoring_data d = read_monitoring_file(file, o);
    if (files.size() > 1 && d.format != monitoring_format::dcgm_prometheus) {
      const std::string prefix = std::filesystem::path(file).stem().string() + ":";
      // Two files of one name (a/gpus.csv, b/gpus.csv) would give their GPUs the same ids, and
      // their readings would be averaged as duplicates of one GPU.
      for (const auto& [used, other] : prefixes)
        if (used == prefix)
          throw error(file + ": its GPUs would be named like " + other + "'s ('" + prefix +
                      "0'): give the files different names");
      prefixes.emplace_back(prefix, file);
      for (gpu_sample& s : d.samples) s.gpu = prefix + s.gpu;
    }
    r.formats.emplace_back(to_string(d.format));
    for (const std::string& m : d.gpu_models)
      if (std::find(r.gpu_models.begin(), r.gpu_models.end(), m) == r.gpu_models.end())
        r.gpu_models.push_back(m);
    if (!d.throughput_unit.empty()) {
      if (!r.throughput_unit.empty() && r.throughput_unit != d.throughput_unit)
        throw error(file + ": its throughput is in " + d.throughput_unit + ", an earlier file's in " +
                    r.throughput_unit + ": give files of one unit");
      r.throughput_unit = d.throughput_unit;
    }
    r.missing_readings += d.missing_readings;
    r.duplicate_readings += d.duplicate_readings;
    r.times_without_zone += d.times_without_zone;
    r.samples.insert(r.samples.end(), d.samples.begin(), d.samples.end());
  }
  return r;
}

// ---- JSON ----------------------------------------------------------------------------------------

/// {"id", "mean", "peak", "p95", "peak_to_average", "bands": {"under_30", "30_70", "70_90",
/// "90_95", "over_95"} (contract keys, named after the default edges), "band_shares": the same
/// shares named after their bands {"waste", "low", "healthy", "high", "overload"} (the names
/// gpuplan capacity's bands have; their edges are the report's "band_edges"), "samples",
/// "observed_s", "gaps", "idle", "memory_mean_bytes",
/// "memory_peak_bytes", "power_mean_watts", "power_peak_watts", "energy_joules",
/// "throughput_mean_per_s", "throughput_peak_per_s"}; utilisation as
/// fractions (0.87 = 87%).
inline nlohmann::json to_json(const gpu_usage& u) {
  nlohmann::json j;
  j["id"] = u.id;
  j["mean"] = u.mean;
  j["peak"] = u.peak;
  j["p95"] = u.p95;
  j["peak_to_average"] = u.peak_to_average;
  j["bands"] = {{"under_30", u.bands.under_30}, {"30_70", u.bands.b30_70},
                {"70_90", u.bands.b70_90},      {"90_95", u.bands.b90_95},
                {"over_95", u.bands.over_95}};
  j["band_shares"] = {{std::string(band_name(utilization_band::waste)), u.bands.under_30},
                      {std::string(band_name(utilization_band::low)), u.bands.b30_70},
                      {std::string(band_name(utilization_band::healthy)), u.bands.b70_90},
                      {std::string(band_name(utilization_band::high)), u.bands.b90_95},
                      {std::string(band_name(utilization_band::overload)), u.bands.over_95}};
  j["samples"] = u.samples;
  j["observed_s"] = u.observed.in(units::s);
  j["gaps"] = u.gaps;
  j["idle"] = u.idle;
  if (u.has_memory) {
    j["memory_mean_bytes"] = u.memory_mean.in(units::B);
    j["memory_peak_bytes"] = u.memory_peak.in(units::B);
  }
  if (u.has_power) {
    j["power_mean_watts"] = u.power_mean.in(units::W);
    j["power_peak_watts"] = u.power_peak.in(units::W);
    j["energy_joules"] = u.energy_used.in(units::J);
  }
  if (u.has_throughput) {
    j["throughput_mean_per_s"] = u.throughput_mean;
    j["throughput_peak_per_s"] = u.throughput_peak;
  }
  return j;
}

inline nlohmann::json to_json(const usage_report& r) {
  nlohmann::json j;
  j["gpus"] = nlohmann::json::array();
  for (const gpu_usage& u : r.gpus) j["gpus"].push_back(to_json(u));
  j["fleet"] = to_json(r.fleet);
  j["fleet"]["gpus"] = r.gpus.size();
  j["advice"] = r.advice;
  j["advice_rules"] = nlohmann::json::array();
  for (const advice_rule a : r.advice_rules) j["advice_rules"].push_back(std::string(to_string(a)));
  j["verdict"] = std::string(to_string(r.findings.verdict));
  j["idle_gpus"] = r.findings.idle;
  j["under_used_gpus"] = r.findings.under_used;
  j["start_unix_s"] = r.start_time;
  j["end_unix_s"] = r.end_time;
  // the edges of the bands band_shares counts (fractions, as utilization_bands holds them)
  j["band_edges"] = {{"waste_below_fraction", r.bands.waste_below},
                     {"healthy_from_fraction", r.bands.healthy_from},
                     {"healthy_to_fraction", r.bands.healthy_to},
                     {"overload_above_fraction", r.bands.overload_above}};
  return j;
}


/// The report of `gpuplan utilization --json`: to_json(r) with what the files say about
/// themselves: "files", "formats", "missing_readings", "duplicate_readings" (within the files
/// and across them) and, with a throughput column, "throughput_unit".
inline nlohmann::json to_json(const usage_report& r, const monitoring_files& in) {
  nlohmann::json j = to_json(r);
  j["files"] = in.files;
  j["formats"] = in.formats;
  j["missing_readings"] = in.missing_readings;
  j["duplicate_readings"] = in.duplicate_readings + r.fleet.duplicates;
  if (!in.throughput_unit.empty()) j["throughput_unit"] = in.throughput_unit;
  if (!in.gpu_models.empty()) j["gpu_models"] = in.gpu_models;
  return j;
}

}  // namespace gpuplan::io
