// tools/gpuplan/cmd_demo.cpp: `gpuplan` with no arguments, or `gpuplan demo`: the default
// scenario, briefly.
//
// Llama 3.1 70B on DGX H100 nodes, the questions in the order a planner asks them: does a full
// fine-tune fit (fit), how fast does it run and how long does a token budget take (train), what
// does that run cost in dollars, energy and carbon (cost), how fast does it serve under a latency
// SLO (serve), how many GPUs a demand needs as it grows (capacity), and which GPU and layout to
// pick (search).
//
// Each part runs the real command on its printed command line (parsed by the same CLI11 options,
// with --json, its standard output captured) and prints a few figures from the JSON, so the demo
// can never disagree with the command it shows; tests/cli runs each printed command and compares.
#include "cli.hpp"
#include "train_run.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/cost_json.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace gpuplan::cli {

namespace {

/// The scenario's command lines (without `gpuplan` and without --json). One model, one GPU.
constexpr const char* model_gpu = "--model Llama-3.1-70B --gpu h100";
constexpr const char* fine_tune = "--zero 3 --seq 4096 --recompute full";
constexpr const char* serve_load =
    "--tp 8 --input-len 2000 --output-len 500 --ttft-slo 2 --tpot-slo 0.05";

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

/// Standard output redirected into a temporary file for as long as it lives.
class captured_stdout {
 public:
  captured_stdout() : file_(std::tmpfile(), &std::fclose) {
    if (!file_) throw std::runtime_error("demo: cannot create a temporary file");
    flush_output();
    saved_ = ::dup(STDOUT_FILENO);
    if (saved_ < 0 || ::dup2(::fileno(file_.get()), STDOUT_FILENO) < 0)
      throw std::runtime_error("demo: cannot redirect standard output");
  }
  captured_stdout(const captured_stdout&) = delete;
  captured_stdout& operator=(const captured_stdout&) = delete;
  ~captured_stdout() { restore(); }

  /// Everything written so far; standard output is restored.
  std::string text() {
    restore();
    std::rewind(file_.get());
    std::string s;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, file_.get())) > 0;) s.append(buf, n);
    return s;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    flush_output();
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
    saved_ = -1;
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  int saved_ = -1;
};

/// Runs `gpuplan <name> <line> --json` in this process (the command of command_table() named
/// `name`) and returns its JSON.
nlohmann::json run_json(std::string_view name, const std::string& line) {
  CLI::App app{"gpuplan"};
  const command_entry& entry = find_command(name);
  const command c = entry.add(*app.add_subcommand(entry.name, entry.help));
  std::vector<std::string> args = words(line);
  args.insert(args.begin(), c.app->get_name());
  args.emplace_back("--json");
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
  app.parse(reversed);
  captured_stdout out;
  const int status = c.run();
  const std::string text = out.text();
  if (status != 0)
    throw std::runtime_error("demo: `gpuplan " + c.app->get_name() + " " + line + "` failed");
  return nlohmann::json::parse(text);
}

void section(const char* title, const char* command, const std::string& line) {
  fmt::print("\n{}\n  $ gpuplan {} {}\n", title, command, line);
}

/// 1. Does a full fine-tune fit? Not on one node; the advice, then two nodes. Returns the JSON
/// of the 16-GPU plan (the one parts 2 and 3 time and price).
nlohmann::json demo_fit(const std::string& fit8, const std::string& fit16) {
  const nlohmann::json f8 = run_json("fit", fit8);
  const nlohmann::json f16 = run_json("fit", fit16);
  // what the figures assume, from the command's own JSON: its framework, precision, optimizer
  const nlohmann::json& cfg = f16["config"];
  const std::string title = fmt::format(
      "1. Does it fit? Full fine-tune (framework {}, {}, {}, ZeRO-3, 4k tokens, full recompute)",
      cfg["framework"].get<std::string>(), cfg["dtype"].get<std::string>(),
      cfg["optimizer"].get<std::string>());
  section(title.c_str(), "fit", fit8);
  fmt::print("  8 GPUs: {}, {} per GPU of {}", f8["fits"].get<bool>() ? "fits" : "does not fit",
             show(f8["per_gpu"]["total_bytes"].get<double>() * units::B),
             show(f8["per_gpu"]["capacity_bytes"].get<double>() * units::B));
  if (!f8["advice"].empty())
    fmt::print("; first advice: {}", f8["advice"][0]["change"].get<std::string>());
  fmt::print("\n  with --gpus 16: {}, {} per GPU\n", f16["fits"].get<bool>() ? "fits" : "does not fit",
             show(f16["per_gpu"]["total_bytes"].get<double>() * units::B));
  return f16;
}

/// 2. How fast: that fine-tune on two nodes, over a budget of 1B tokens.
void demo_train(const std::string& run, const nlohmann::json& fit16) {
  const nlohmann::json t = run_json("train", run);
  const bool fit16_fits = fit16["fits"].get<bool>();
  // the run timed and priced below is the one part 1 says fits: the same verdict (fit.hpp)
  if (!t["fits"].get<bool>() || !fit16_fits)
    throw std::runtime_error("demo: the 16-GPU run does not fit, yet the demo times it");
  const std::string title =
      fmt::format("2. How fast? That run on 16 GPUs ({}, {}), 64 x 4096 tokens per step, 1B tokens",
                  t["framework"].get<std::string>(), fit16["config"]["dtype"].get<std::string>());
  section(title.c_str(), "train", run);
  fmt::print("  step {:.2f} s, {:.1f}k tokens/s, MFU {:.0f}%, bottleneck {}; 1B tokens in {} ({:.0f} "
             "GPU-hours)\n",
             t["step_time_s"].get<double>(), t["tokens_per_s"].get<double>() / 1e3,
             100 * t["mfu"].get<double>(), t["bottleneck"].get<std::string>(),
             secs(t["time_to_train_s"].get<double>() * units::s), t["gpu_hours"].get<double>());

}

/// 3. What it costs.
void demo_cost(const std::string& run) {
  const nlohmann::json c = run_json("cost", run);
  section("3. What does it cost?", "cost", run);
  fmt::print("  ${:.0f} at ${:.2f}/GPU-hour ({} {}, priced {}), {:.0f} kWh, {:.0f} kg CO2e\n",
             c["cost_usd"].get<double>(), c["price"]["usd_per_gpu_hour"].get<double>(),
             c["price"]["provider"].get<std::string>(), c["price"]["term"].get<std::string>(),
             c["price"]["date"].get<std::string>(), c["energy_kwh"].get<double>(),
             c["carbon_kg"].get<double>());
  if (const nlohmann::json& f = c["facility"]; f.is_object() && f.contains("racks"))
    fmt::print("  reserves {} h with failures and checkpoints (ETTR {:.3f}); {} {} in {} "
               "rack(s), {:.1f} kW of IT load\n",
               fmt::format("{:.1f}", c["training"]["expected_wall_time_hours"].get<double>()),
               c["training"]["reliability"]["ettr"].get<double>(), f["nodes"].get<int>(),
               f["node"].get<std::string>(), f["racks"].get<int>(), f["it_power_kw"].get<double>());

}

/// 4. Serving it on one node under a latency SLO.
void demo_serve(const std::string& mg) {
  const std::string serve = mg + " " + serve_load + " --concurrency 64";
  const nlohmann::json s = run_json("serve", serve);
  const std::string title = fmt::format(
      "4. Serving with {} ({} weights, {} KV cache): TP 8 on one node, 2000-token prompts, "
      "500-token answers",
      s["engine"].get<std::string>(), s["weight_dtype"].get<std::string>(),
      s["kv_dtype"].get<std::string>());
  section(title.c_str(), "serve", serve);
  const nlohmann::json& b = s["best"];
  fmt::print("  64 in flight: TTFT {:.0f} ms, TPOT {:.1f} ms, {:.0f} tokens/s\n",
             1e3 * s["ttft_s"].get<double>(), 1e3 * s["tpot_s"].get<double>(),
             s["output_tokens_per_s"].get<double>());
  if (b.is_object())
    fmt::print("  best under TTFT <= 2 s, TPOT <= 50 ms: {:.0f} in flight, {:.0f} tokens/s ({:.0f} per "
               "GPU), {:.1f} requests/s\n",
               b["concurrency"].get<double>(), b["output_tokens_per_s"].get<double>(),
               b["output_tokens_per_s_per_gpu"].get<double>(), b["requests_per_s"].get<double>());

}

/// 5. How many GPUs a demand needs, and when growth outruns them.
void demo_capacity(const std::string& mg) {
  const std::string cap = mg + " " + serve_load +
                          " --rate 5 --peak-factor 2 --growth 0.1 --months 12 --wait-slo 2";
  const nlohmann::json k = run_json("capacity", cap);
  const double cv = k["demand"]["arrival_cv"].get<double>();
  const std::string title = fmt::format(
      "5. GPUs needed: 5 requests/s ({}), peaks x2, +10%/month, p99 wait <= 2 s",
      cv == 1.0 ? std::string("Poisson arrivals") : fmt::format("arrivals of CV {:.2g}", cv));
  section(title.c_str(), "capacity", cap);
  fmt::print("  {} replicas ({} GPUs), utilisation {:.0f}% mean ({}), {:.0f}% at the peak ({})",
             k["replicas"].get<int>(), k["gpus"].get<int>(), 100 * k["utilization"].get<double>(),
             k["mean_band"].get<std::string>(), 100 * k["peak_utilization"].get<double>(),
             k["peak_band"].get<std::string>());
  if (k["fleet_runs_out_month"].is_number())
    fmt::print("; add capacity by month {}", k["fleet_runs_out_month"].get<int>());
  fmt::print("\n");

}

/// 6. Which GPU and layout: the search over both GPUs, counts and every parallel degree.
void demo_search(const std::string& mg) {
  const std::string search =
      mg + ",h200 --gpus 16..64 --seq 4096 --global-batch 64 --tokens 1B --threads 1";
  const nlohmann::json q = run_json("search", search);
  section("6. Which GPU and layout? Every configuration of that run on 16-64 H100 or H200",
          "search", search);
  const auto layout_of = [](const nlohmann::json& e) {
    const nlohmann::json& l = e["layout"];
    return fmt::format("{} x {}, TP {} x PP {} x DP {}{}, recompute {}, precision {}",
                       e["gpus"].get<int>(), e["gpu"].get<std::string>(), l["tp"].get<int>(),
                       l["pp"].get<int>(), l["dp"].get<int>(),
                       l["zero"].get<int>() > 0 ? fmt::format(", ZeRO-{}", l["zero"].get<int>()) : "",
                       e["recompute"].get<std::string>(), e["precision"].get<std::string>());
  };
  fmt::print("  {} configurations ({}, priced by the default book of {}); the time-cost front has "
             "{}:\n",
             show_count(q["configurations_evaluated"].get<double>()),
             q["framework"].get<std::string>(), io::detail::date_text(catalog::price_book_date),
             q["front"].size());
  const nlohmann::json& fastest = q["front"].front();
  const nlohmann::json& cheapest = q["front"].back();
  fmt::print("  fastest  {}: {}, ${:.0f}\n", layout_of(fastest),
             secs(fastest["reserved_time_s"].get<double>() * units::s), fastest["cost_usd"].get<double>());
  if (q["front"].size() > 1)
    fmt::print("  cheapest {}: {}, ${:.0f}\n", layout_of(cheapest),
               secs(cheapest["reserved_time_s"].get<double>() * units::s), cheapest["cost_usd"].get<double>());
}

/// 7. The models of 2026: a mixture of experts with alternating windows in MXFP4 on one GPU,
/// and multi-head latent attention with 256 experts in fp8 on one node.
void demo_2026() {
  fmt::print("\n7. The models of 2026, as their checkpoints ship\n");
  // the command, then the model's counts, what it is made of and the figures the command gives
  const auto serve_one = [](const transformer_spec& m, const std::string& args,
                            const std::string& parts) {
    const nlohmann::json j = run_json("serve", args);
    fmt::print("  $ gpuplan serve {}\n", args);
    fmt::print("  {} ({} total, {} active; {}; {}): {:.1f} GiB per GPU, TPOT {:.1f} ms, {:.0f} "
               "tokens/s\n",
               m.name, show_count(m.parameters()), show_count(m.active_parameters()), parts,
               j["engine"].get<std::string>(),
               j["per_gpu_bytes"].get<double>() / (1024.0 * 1024 * 1024),
               1e3 * j["tpot_s"].get<double>(), j["output_tokens_per_s"].get<double>());
  };
  serve_one(catalog::gpt_oss_120b,
            "--model gpt-oss-120b --gpu h100 --input-len 2000 --output-len 500 --concurrency 8",
            "MXFP4 experts, 128-token windows on half the layers");
  serve_one(catalog::deepseek_v3,
            "--model deepseek-v3 --gpu h200 --tp 8 --input-len 2000 --output-len 500 "
            "--concurrency 64",
            fmt::format("MLA caches {} (bf16), fp8 blocks",
                        catalog::deepseek_v3.kv_bytes_per_token(precision::bf16)));
}

}  // namespace

int run_demo() {
  const std::string mg = model_gpu;
  fmt::print("gpuplan demo: {} ({} parameters) on DGX H100 nodes (8x {})\n",
             catalog::llama31_70b.name, show_count(catalog::llama31_70b.parameters()),
             catalog::h100_sxm.name);
  const std::string fit8 = mg + " --gpus 8 " + fine_tune;
  const std::string fit16 = mg + " --gpus 16 " + fine_tune;
  const nlohmann::json fit16_json = demo_fit(fit8, fit16);
  const std::string run = fit16 + " --global-batch 64 --tokens 1B";
  demo_train(run, fit16_json);
  demo_cost(run);
  demo_serve(mg);
  demo_capacity(mg);
  demo_search(mg);
  demo_2026();
  fmt::print("\nMore: gpuplan --help; each command above without --json prints its full report.\n");
  return 0;
}

command add_demo_command(CLI::App& app) {
  CLI::App* sub = &app;
  return {sub, [] { return run_demo(); }};
}

}  // namespace gpuplan::cli
