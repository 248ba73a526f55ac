// tools/gpuplan/cmd_search.cpp: `gpuplan search`, which GPU, how many, and how to split the
// model: an exhaustive search of layouts and hardware for a training run (plan/search.hpp).
//
// The options are a contract (docs/cli.md, docs/json-schema.md): `gpuplan train`'s flags (the
// shared model, node, training and train-run groups) where the searched ones take lists or
// ranges: --gpu h100,h200,b200, --gpus 64..4096 (doubling) or 64..4096+64 (stepping), --tp,
// --pp, --cp, --ep, --virtual-stages, --micro-batch, --zero, --recompute, --sp. The framework is
// settled as `gpuplan train` settles it (settle_framework): transformers unless a list holds
// what only Megatron-LM runs (a --tp, --pp, --cp, --ep or --virtual-stages value above 1, --sp
// on, --recompute selective, ...). Under transformers the precision regime (master, amp, pure)
// and the chunked loss are searched unless --amp, --master-weights or --chunked-loss fix them.
// And search's own:
// --objective, --top, --threads, --deadline-days, --budget, --price-per-gpu-hour, --term,
// --provider, --chart, --json; `gpuplan search serve` searches serving (GPU x TP x PP x weights,
// for a mixture of experts x EP and data-parallel attention, at the SLO's best concurrency,
// search_serving). The search runs on --threads threads (all
// cores by default), each taking chunks of the index space into its own collector; the
// collectors merge into the same answer whatever the split. A progress bar goes to stderr when
// stderr is a terminal and the search runs past a second; Ctrl-C stops it and prints the best
// found so far (exit status 130).
#include "chart.hpp"
#include "cli.hpp"
#include "cost_output.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "serve_setup.hpp"
#include "train_run.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/search_json.hpp>
#include <gpuplan/plan/search_report.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gpuplan::cli {

namespace {

using ft = field_type;

/// The searched dimensions: the same keys as the layout and training groups, as lists.
constexpr field searched_table[] = {
    {"gpu", "--gpu", ft::list, "search",
     "GPU types to try, comma-separated catalog names or aliases (h100,h200,b200); each in the "
     "catalog node that carries it. Default H100-SXM5-80GB"},
    {"gpus", "--gpus", ft::list, "search",
     "GPU counts: a list (512,1024), FROM..TO doubling from FROM (64..4096: 64 128 ... 4096), or "
     "FROM..TO+STEP stepping by STEP (64..1024+64: node multiples)"},
    {"tp", "--tp", ft::list, "search",
     "Tensor-parallel degrees: list or range (megatron default: the divisors of a --gpus count "
     "that divide the attention heads, inside the NVLink domain: 1,2,4,8 on 8-GPU nodes, up to 72 "
     "in an NVL72; transformers: 1)"},
    {"pp", "--pp", ft::list, "search",
     "Pipeline-parallel degrees (megatron default: the divisors of a --gpus count up to 64 and "
     "the layers, e.g. 1,2,3,4,6,8,9,12,18,24,36 for 72 GPUs; transformers: 1)"},
    {"cp", "--cp", ft::list, "search", "Context-parallel degrees (default 1)"},
    {"ep", "--ep", ft::list, "search",
     "Expert-parallel degrees (default 1; for a mixture of experts the divisors of a --gpus count "
     "that divide the experts, up to 64 or the NVLink domain)"},
    {"virtual_stages", "--virtual-stages", ft::list, "search",
     "Interleaved chunks per pipeline rank (megatron default 1,2,4; transformers: 1)"},
    {"micro_batch", "--micro-batch", ft::list, "search", "Micro-batch sizes (default 1,2,4)"},
    {"zero", "--zero", ft::list, "search", "ZeRO stages (default 0,1,2,3)"},
    {"recompute", "--recompute", ft::list, "search",
     "Recomputation modes: none,selective,full (megatron default all three; transformers "
     "none,full)"},
    {"sp", "--sp", ft::list, "search",
     "Sequence parallelism: off, on, or off,on (megatron default both; transformers off)"},
    {"framework", "--framework", ft::text, "search",
     "transformers|megatron|torchtitan (Megatron's space, ZeRO-3 only). Default: transformers (Hugging Face + PyTorch eager: data "
     "parallelism with ZeRO 0-3 / FSDP), or megatron when a list holds what only Megatron-LM "
     "runs (a --tp, --pp, --cp, --ep or --virtual-stages value above 1, --sp on, --recompute "
     "selective, --offload, --dtype fp8, --dropout, --flash-attention=false, an MoE model)"},
    {"amp", "--amp", ft::flag, "search",
     "transformers: only amp (Trainer(bf16=True)); =false: not amp. Default: the master, amp "
     "and pure regimes are searched"},
    {"master_weights", "--master-weights", ft::flag, "search",
     "Only 16-bit weights with an fp32 master copy; =false: only pure bf16/fp16 (8 B/param). "
     "Default: megatron master; transformers searches master, amp and pure"},
    {"chunked_loss", "--chunked-loss", ft::flag, "search",
     "transformers: only the chunked (Liger fused linear) cross entropy; =false: only the "
     "materialised one. Default: both (the chunked one where the other does not fit)"},
};

constexpr field search_table[] = {
    {"objective", "--objective", ft::text, "search",
     with_names<"Rank the top list by ", search_objective,
                " (default time); the front is time against cost">},
    {"top", "--top", ft::count, "search", "Configurations in the top list, 1-64 (default 5)"},
    {"threads", "--threads", ft::count, "search", "Threads (default: all cores)"},
    {"max_configurations", "--max-configurations", ft::number, "search",
     "Refuse a space larger than this (default 1e9: about 4 minutes on 2 cores at the measured "
     "2.4M configurations per CPU-second, docs/performance.md); Ctrl-C stops any search with the "
     "best found so far"},
    {"deadline_days", "--deadline-days", ft::number, "search",
     "Keep only runs that finish the tokens within this many days"},
    {"budget", "--budget", ft::number, "search", "Keep only runs that cost at most this many USD"},
    {"price_per_gpu_hour", "--price-per-gpu-hour", ft::list, "search",
     "USD per GPU-hour: one price for every --gpu, or one per --gpu (comma-separated), instead "
     "of the price book"},
    {"term", "--term", ft::text, "search", with_names<"Price term: ", price_term>},
    {"provider", "--provider", ft::text, "search", "Only this provider's prices"},
    {"chart", "--chart", ft::text, "output",
     "Draw the front (time to train against cost) into FILE (.svg or .png, through gnuplot)"},
};

/// `gpuplan search serve`: the searched serving dimensions and the ranking.
constexpr field serve_search_table[] = {
    {"gpu", "--gpu", ft::list, "search",
     "GPU types to try, comma-separated (default H100-SXM5-80GB); each in its catalog node"},
    {"tp", "--tp", ft::list, "search",
     "Tensor-parallel degrees per replica (default 1,2,4,8; for a mixture of experts on a node "
     "whose NVLink domain is wider than 8 GPUs, a GB200 or GB300 NVL72, 1,2,4,...,64,72)"},
    {"pp", "--pp", ft::list, "search", "Pipeline-parallel degrees per replica (default 1)"},
    {"ep", "--ep", ft::list, "search",
     "Expert-parallel degrees (a mixture of experts) inside the replica's tensor-parallel group, "
     "each paired with the --tp values it divides: list or range (default 1,2,4,8,16,32,64,72 "
     "for a mixture of experts; a dense model has none). Data-parallel-attention replicas have "
     "ep = tp"},
    {"dp_attention", "--dp-attention", ft::flag, "search",
     "Only data-parallel attention (SGLang --enable-dp-attention: each tp is a replica of that "
     "many attention ranks, the experts over all of them, ep = tp); =false: only "
     "tensor-parallel attention. Default for a mixture of experts: both (without "
     "--speculative-tokens, which data-parallel attention does not run)"},
    {"power_limit", "--power-limit", ft::number, "search",
     "GPU power limit in W (nvidia-smi -pl), at most each GPU's TDP: lower sustained clocks, so "
     "lower math rates, and draw at most this (docs/models/energy.md)"},
    {"weight_dtype", "--weight-dtype", ft::list, "search",
     "Weight precisions: bf16,fp16,fp8,int8,int4 (default bf16,fp8; fp8 runs W8A8 where the "
     "GPU has fp8 tensor cores)"},
    {"objective", "--objective", ft::text, "search",
     "cost_per_million_tokens (default) or tokens_per_gpu"},
    {"top", "--top", ft::count, "search", "Configurations listed, 1-32 (default 5)"},
    {"price_per_gpu_hour", "--price-per-gpu-hour", ft::list, "search",
     "USD per GPU-hour: one for every --gpu, or one per --gpu, instead of the price book"},
    {"term", "--term", ft::text, "search", with_names<"Price term: ", price_term>},
    {"provider", "--provider", ft::text, "search", "Only this provider's prices"},
    {"rate", "--rate", ft::number, "demand",
     "Mean demand, requests/s (as gpuplan capacity's --rate): each configuration sized for it "
     "(replicas, GPUs, $/hour)"},
};

struct search_command {
  settings s;
  bool json = false;
};

struct serve_search_command {
  settings s;
  bool json = false;
};

/// A searched setting as text: a flag's "1,2,4" or "64..4096", or in a plan file the same string,
/// a number, a boolean or an array of them (joined with commas).
std::optional<std::string> list_text(const settings& s, std::string_view key) {
  const nlohmann::json* v = s.value(key);
  if (v == nullptr) return std::nullopt;
  auto one = [&](const nlohmann::json& x) -> std::string {
    if (x.is_string()) return x.get<std::string>();
    if (x.is_boolean()) return x.get<bool>() ? "on" : "off";
    if (x.is_number_integer()) return std::to_string(x.get<long long>());
    if (x.is_number()) return fmt::format("{}", x.get<double>());
    throw usage_error(s.name(key) + ": expected a string, a number or a list of them");
  };
  if (!v->is_array()) return one(*v);
  std::string out;
  bool first = true;  // an empty first item stays ("", 4 -> ",4"): list_items refuses it
  for (const nlohmann::json& x : *v) {
    out += (first ? "" : ",") + one(x);
    first = false;
  }
  if (v->empty()) throw usage_error(s.name(key) + ": an empty list");
  return out;
}

int whole(const std::string& text, const std::string& who, bool allow_zero) {
  const double v = allow_zero && text == "0" ? 0.0 : parse_count(text, who);
  // the range first: casting 1e308 to long long is undefined (UBSan, hostile input)
  if (!(v >= 0.0 && v <= (1 << 24)) || v != static_cast<double>(static_cast<long long>(v)))
    throw usage_error(fmt::format("{} '{}' must be a whole number up to 16777216", who, text));
  return static_cast<int>(v);
}

/// A list of whole numbers: "1,2,4", "64..4096" (doubling) or "64..4096+64" (stepping), or
/// `fallback` when not given. Duplicates are dropped, the order kept.
std::vector<int> int_list(const settings& s, std::string_view key, std::span<const int> fallback,
                          bool allow_zero = false) {
  const auto t = list_text(s, key);
  if (!t) return {fallback.begin(), fallback.end()};
  const std::string who = s.name(key);
  std::vector<int> out;
  auto add = [&](int v) {
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    if (out.size() > 4096) throw usage_error(who + ": more than 4096 values");
  };
  for (const std::string& item : list_items(*t, who)) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      add(whole(item, who, allow_zero));
      continue;
    }
    const std::string rest = item.substr(dots + 2);
    const auto plus = rest.find('+');
    const int from = whole(item.substr(0, dots), who, allow_zero);
    const int to = whole(rest.substr(0, plus), who, allow_zero);
    if (from > to)
      throw usage_error(fmt::format("{} '{}': FROM must not exceed TO", who, item));
    if (plus == std::string::npos) {
      if (from == 0) throw usage_error(fmt::format("{} '{}': a doubling range starts at 1 or more", who, item));
      for (long long v = from; v <= to; v *= 2) add(static_cast<int>(v));
    } else {
      const int step = whole(rest.substr(plus + 1), who, false);
      for (long long v = from; v <= to; v += step) add(static_cast<int>(v));
    }
  }
  return out;
}

std::vector<gpu_choice> gpu_list(const settings& s) {
  std::vector<gpu_choice> out;
  const auto t = list_text(s, "gpu");
  for (const std::string& name : list_items(t.value_or("H100-SXM5-80GB"), s.name("gpu"))) {
    gpu_choice g = resolve_gpu(name);
    check_gpu(g, gpu_use::rates);
    if (std::none_of(out.begin(), out.end(),
                     [&](const gpu_choice& o) { return o.spec.name == g.spec.name; }))
      out.push_back(g);
  }
  return out;
}

/// --price-per-gpu-hour: one price for every GPU type or one per type; empty when not given.
std::vector<money_rate> price_list(const settings& s, std::size_t types) {
  std::vector<money_rate> prices;
  const auto t = list_text(s, "price_per_gpu_hour");
  if (!t) return prices;
  for (const std::string& v : list_items(*t, s.name("price_per_gpu_hour"))) {
    double x = 0;
    try {
      std::size_t used = 0;
      x = std::stod(v, &used);
      if (used != v.size()) x = -1;
    } catch (const std::exception&) {
      x = -1;
    }
    if (!(x > 0) || !std::isfinite(x))
      throw usage_error(fmt::format("{} '{}' must be a positive price in USD", s.name("price_per_gpu_hour"), v));
    if (!(x <= max_price_per_gpu_hour_usd))
      throw usage_error(fmt::format("{} must be at most {:g} USD (max_price_per_gpu_hour_usd; got {})",
                                    s.name("price_per_gpu_hour"), max_price_per_gpu_hour_usd, v));
    prices.push_back(x * units::usd_per_h);
  }
  if (prices.size() == 1) prices.assign(types, prices.front());
  if (prices.size() != types)
    throw usage_error(fmt::format("{}: give one price, or one per GPU type ({})",
                                  s.name("price_per_gpu_hour"), types));
  return prices;
}

/// --term and --provider into the pricing inputs (`provider` must outlive them).
void set_terms(const settings& s, run_cost_inputs& in, const std::optional<std::string>& provider) {
  if (auto t = s.text("term")) in.term = term_named(*t, s.name("term"));
  if (provider) in.provider = *provider;
}

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the SIGINT handler sets it");
extern "C" void on_sigint(int) { interrupted.store(true); }

/// The library's search_control hooks over the flag above and a shared progress counter.
bool is_interrupted(void*) { return interrupted.load(std::memory_order_relaxed); }
void add_progress(void* counter, std::uint64_t n) {
  static_cast<std::atomic<std::uint64_t>*>(counter)->fetch_add(n, std::memory_order_relaxed);
}

struct run_result {
  training_search_collector best;
  double seconds = 0;
  bool complete = true;
  int threads = 1;
};

/// Runs the search on `threads` threads, chunks of the index space taken in turn; the progress
/// bar on stderr when it is a terminal and the search runs past a second.
run_result run_threads(const training_search_space& space, int top, int threads) {
  const std::uint64_t n = space.size();
  const std::uint64_t chunk = std::max<std::uint64_t>(1024, n / (static_cast<std::uint64_t>(threads) * 64));
  std::atomic<std::uint64_t> next{0}, progress{0};
  // The workers still running, under `mu`; the last one to finish stamps the end time and wakes the
  // caller at once (so `seconds` is the search's own time, not a polling interval).
  std::mutex mu;
  std::condition_variable finished;
  int running = threads;
  std::chrono::steady_clock::time_point t1{};
  std::vector<training_search_collector> parts(static_cast<std::size_t>(threads));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  interrupted = false;
  void (*previous)(int) = std::signal(SIGINT, on_sigint);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int k = 0; k < threads; ++k) {
    pool.emplace_back([&, k] {
      training_search_collector& c = parts[static_cast<std::size_t>(k)];
      c.top_k = top;
      try {
        for (;;) {
          const std::uint64_t b = next.fetch_add(chunk);
          if (b >= n || interrupted.load()) break;
          if (!search_training(space, b, std::min(n, b + chunk), c,
                               {&progress, is_interrupted, add_progress, 256}))
            break;
        }
      } catch (...) {
        errors[static_cast<std::size_t>(k)] = std::current_exception();
        interrupted = true;
      }
      {
        const std::lock_guard<std::mutex> lock(mu);
        if (--running == 0) t1 = std::chrono::steady_clock::now();
      }
      finished.notify_one();
    });
  }
  {
    // configurations done, rate and time left on stderr when the search runs more than a second
    progress::bar bar(static_cast<std::size_t>(n), {.unit = "configurations", .delay = 1.0, .stride = 1});
    std::unique_lock<std::mutex> lock(mu);
    while (running > 0) {
      finished.wait_for(lock, std::chrono::milliseconds(100));
      bar.update(static_cast<std::size_t>(std::min<std::uint64_t>(progress.load(), n)));
    }
    // the count at the end too: a search done within the first wait was never drawn
    bar.update(static_cast<std::size_t>(std::min<std::uint64_t>(progress.load(), n)));
  }
  for (std::thread& t : pool) t.join();
  std::signal(SIGINT, previous);
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  run_result r;
  r.threads = threads;
  r.best.top_k = top;
  for (const auto& p : parts) r.best.merge(p);
  r.complete = r.best.counts.visited == n;
  r.seconds = std::chrono::duration<double>(t1 - t0).count();
  return r;
}

table results_table(const training_search_report& r, const std::vector<search_evaluation>& rows) {
  table t;
  t.header = {"#", "GPU", "GPUs", "layout", "mb", "recompute", "precision", "step",
              "reserved time", "cost", "MWh", "MFU", "bottleneck"};
  t.numeric = {true, false, true, false, true, false, false, true, true, true, true, true, false};
  int i = 0;
  for (const search_evaluation& e : rows) {
    t.rows.push_back({std::to_string(++i), std::string(r.node_of(e).gpu.name.view()),
                      std::to_string(e.config.layout.gpus()), layout_text(e.config.layout),
                      std::to_string(e.config.micro_batch),
                      std::string(to_string(e.config.recompute)),
                      std::string(to_string(e.config.regime)) +
                          (e.config.chunked_loss ? " + chunked CE" : ""),
                      secs(e.step.total),
                      secs(e.reserved_time()), money_text(e.cost.cost),
                      fmt::format("{:.1f}", e.run_energy().in(units::kWh) / 1e3),
                      fmt::format("{:.1f}%", 100 * e.step.mfu),
                      std::string(describe(e.step.bottleneck))});
  }
  return t;
}

/// The front as a chart: each point labelled with its row of the front table ("1: 512 x
/// H200-SXM-141GB"), so the picture and the table read together.
chart::chart_spec front_chart(const training_search_report& r, const std::string& title) {
  chart::series pts{"Pareto front", {}, chart::style::points};
  int row = 0;
  for (const search_evaluation& e : r.front) {
    pts.points.emplace_back(e.reserved_time().in(units::h) / 24.0, e.cost.cost.in(units::usd) / 1e6);
    pts.labels.push_back(fmt::format("{}: {} x {}", ++row, e.config.layout.gpus(),
                                     r.node_of(e).gpu.name.view()));
  }
  chart::chart_spec c;
  c.title = title;
  c.x_label = "days to train (reserved: failures and checkpoints included)";
  c.y_label = "cost (million USD)";
  c.data.push_back(std::move(pts));
  return c;
}

/// The storage of a training search's lists: the space's spans view it, so it is filled in
/// place and never moved (read_search_space).
struct search_lists {
  search_lists() = default;
  search_lists(const search_lists&) = delete;
  search_lists& operator=(const search_lists&) = delete;

  std::vector<int> gpus, tp, pp, cp, ep, vs, mb, zero;
  std::vector<recompute_mode> rc;
  std::vector<char> sp_store;  ///< off/on as given (char: a vector<bool> has no span)
  bool sp_values[2] = {false, false};
  std::vector<precision_regime> regimes;
  bool chunked_values[2] = {false, true};
  std::vector<node_spec> nodes;
  std::vector<money_rate> prices;
  std::optional<std::string> provider;  ///< viewed by space.cost.provider
  search_degrees degrees;  ///< tp, pp and ep from the GPU counts' divisors (use_divisor_degrees)
};

/// How the search runs and reports, apart from the space.
struct search_options {
  std::string tokens_text;     ///< --tokens as given (the text report echoes it)
  std::string framework_note;  ///< why the framework is what it is (settle_framework)
  search_objective objective = search_objective::time;
  int top = 5;
  int threads = 1;
  std::optional<std::string> chart_file;
};

/// The searched lists as given (empty when not given: the framework's defaults come later).
void read_given_lists(const settings& s, search_lists& L) {
  const std::span<const int> none;
  L.tp = int_list(s, "tp", none);
  L.pp = int_list(s, "pp", none);
  L.cp = int_list(s, "cp", none);
  L.ep = int_list(s, "ep", none);
  L.vs = int_list(s, "virtual_stages", none);
  if (const auto t = list_text(s, "recompute")) {
    for (const std::string& r : list_items(*t, s.name("recompute"))) {
      const recompute_mode m = enum_named<recompute_mode>(r, s.name("recompute"));
      if (std::find(L.rc.begin(), L.rc.end(), m) == L.rc.end()) L.rc.push_back(m);
    }
  }
  if (const auto t = list_text(s, "sp")) {
    for (const std::string& v : list_items(*t, s.name("sp"))) {
      const bool on = v == "on" || v == "true" || v == "1";
      if (!on && v != "off" && v != "false" && v != "0")
        throw usage_error(fmt::format("{} '{}' is not one of off|on", s.name("sp"), v));
      if (std::find(L.sp_store.begin(), L.sp_store.end(), on) == L.sp_store.end())
        L.sp_store.push_back(on);
    }
  }
}

/// The run's fixed settings, read by training_from from a copy with the searched keys set to
/// one of their values (training_from checks the rest as `gpuplan train` does), and the
/// framework as `gpuplan train` settles it, from the widest value of each list: what only
/// Megatron-LM runs makes it megatron (with a note), or is refused under --framework
/// transformers naming the flag. Returns the note.
std::string read_run_config(const settings& s, const model_choice& model, const search_lists& L,
                            training_search_space& space) {
  settings base = s;
  base.set_flag("micro_batch", 1);
  base.set_flag("recompute", "none");
  space.model = *model.transformer;
  space.config = training_from(base);
  auto widest = [](const std::vector<int>& v) {
    return v.empty() ? 1 : *std::max_element(v.begin(), v.end());
  };
  parallel_layout wide{.tp = widest(L.tp), .pp = widest(L.pp), .cp = widest(L.cp), .ep = widest(L.ep)};
  wide.sequence_parallel = std::find(L.sp_store.begin(), L.sp_store.end(), 1) != L.sp_store.end();
  wide.virtual_stages = widest(L.vs);
  const bool selective = std::find(L.rc.begin(), L.rc.end(), recompute_mode::selective) != L.rc.end();
  if (selective) space.config.recompute = recompute_mode::selective;
  std::string note = settle_framework(s, model, wide, space.config);
  space.config.recompute = recompute_mode::none;
  if (space.config.offload == offload_kind::params)
    throw usage_error(s.name("offload") + " params: the step-time model covers optimizer offload only");
  if (space.config.global_batch == 0)
    throw usage_error("gpuplan search needs --global-batch (layouts are compared at one global "
                      "batch, in sequences)");
  return note;
}

/// The token budget, failures and checkpoints, and the fabric.
void read_run_model(const settings& s, const std::string& tokens_text, training_search_space& space) {
  space.tokens = parse_count(tokens_text, s.name("tokens")) * units::token;
  const assumption_set a = assumptions_from(s);
  space.step = a.step;
  space.memory = a.memory;
  space.cost.power_model = a.energy;
  space.cost.embodied_inputs = a.carbon;
  space.reliability = reliability_from(s, a.reliability);
  if (s.has("rampup_batch_size"))
    throw usage_error(s.name("rampup_batch_size") +
                      ": gpuplan search compares layouts at the global batch's steady-state step; "
                      "time the ramp-up with gpuplan train or cost");
  if (auto f = s.text("fabric"))
    space.fabric = enum_named<inter_node_fabric>(*f, s.name("fabric"), fabric_choices);
}

/// Hardware: each GPU in its catalog node, or the given --node.
void read_nodes(const settings& s, search_lists& L) {
  if (s.has("node")) {
    if (s.has("gpu"))
      throw usage_error(s.name("node") + " and " + s.name("gpu") +
                        " conflict in a search: give GPU types (each in its catalog node) or one node");
    L.nodes.push_back(*node_from(s));
  } else {
    for (const gpu_choice& g : gpu_list(s)) L.nodes.push_back(choose_node(s, g, 2, "search"));
  }
  if (L.nodes.size() > static_cast<std::size_t>(max_search_gpu_types))
    throw usage_error(fmt::format("{}: at most {} GPU types", s.name("gpu"), max_search_gpu_types));
}

/// Precision regimes: searched under transformers unless --amp or --master-weights fixes them.
std::vector<precision_regime> read_regimes(const settings& s, const training_config& config) {
  const bool hf = config.framework == framework_kind::transformers;
  const std::optional<bool> amp = s.flag("amp"), master = s.flag("master_weights");
  const bool full_precision = config.dtype == precision::fp32 || config.dtype == precision::fp64;
  if (amp.value_or(false)) {
    if (master && !*master)
      throw usage_error(s.name("amp") + " and " + s.name("master_weights") +
                        "=false conflict: amp's fp32 parameters are their own master copy");
    return {precision_regime::amp};
  }
  if (master || !hf || full_precision)
    return {master.value_or(true) || full_precision ? precision_regime::master
                                                    : precision_regime::pure};
  std::vector<precision_regime> regimes;
  for (precision_regime r : search_defaults::transformers_precision_regimes)
    if (r != precision_regime::amp || !amp) regimes.push_back(r);
  return regimes;
}

/// The framework's space (use_framework), then the lists given in its place; the GPU counts,
/// micro-batches, ZeRO stages, precision regimes and the loss.
void read_dimensions(const settings& s, search_lists& L, training_search_space& space) {
  space.nodes = L.nodes;
  space.use_framework(space.config.framework);
  const int default_gpus[] = {L.nodes.front().gpus > 0 ? L.nodes.front().gpus : 8};
  L.gpus = int_list(s, "gpus", default_gpus);
  space.gpus = L.gpus;
  space.use_divisor_degrees(L.degrees);  // 72 GPUs: the divisors of 72, not powers of two
  auto or_default = [](std::vector<int>& v, std::span<const int> d) {
    if (v.empty()) v.assign(d.begin(), d.end());
  };
  or_default(L.tp, space.tp);
  or_default(L.pp, space.pp);
  or_default(L.cp, space.cp);
  or_default(L.ep, space.ep);
  or_default(L.vs, space.virtual_stages);
  if (L.rc.empty()) L.rc.assign(space.recompute.begin(), space.recompute.end());
  if (L.sp_store.empty())
    for (bool b : space.sequence_parallel) L.sp_store.push_back(b ? 1 : 0);
  L.mb = int_list(s, "micro_batch", search_defaults::micro_batch);
  L.zero = int_list(s, "zero", space.zero, true);  // torchtitan: FSDP2, ZeRO-3 only
  for (int z : L.zero)
    if (z > 3) throw usage_error(fmt::format("{}: ZeRO stages are 0, 1, 2 or 3 (got {})", s.name("zero"), z));
  for (int m : L.mb)
    if (1LL * m * space.config.seq > (1LL << 30))
      throw usage_error(fmt::format("{} {} x --seq {}: more than 2^30 tokens in one micro-batch",
                                    s.name("micro_batch"), m, space.config.seq));
  L.regimes = read_regimes(s, space.config);
  const bool hf = space.config.framework == framework_kind::transformers;
  std::span<const bool> chunked(L.chunked_values, hf ? 2 : 1);
  if (const auto c = s.flag("chunked_loss")) {
    L.chunked_values[0] = *c;
    chunked = {L.chunked_values, 1};
  }
  space.gpus = L.gpus;
  space.tp = L.tp;
  space.pp = L.pp;
  space.cp = L.cp;
  space.ep = L.ep;
  space.virtual_stages = L.vs;
  space.micro_batch = L.mb;
  space.zero = L.zero;
  space.recompute = L.rc;
  L.sp_values[0] = L.sp_store[0] != 0;
  L.sp_values[1] = L.sp_store.size() > 1 && L.sp_store[1] != 0;
  space.sequence_parallel = std::span<const bool>(L.sp_values, L.sp_store.size());
  space.precision_regimes = L.regimes;
  space.chunked_loss = chunked;
}

/// Money and limits: prices, term and provider, the deadline and the budget.
void read_money(const settings& s, search_lists& L, training_search_space& space) {
  L.prices = price_list(s, L.nodes.size());
  space.price_per_gpu_hour = L.prices;
  L.provider = s.text("provider");
  set_terms(s, space.cost, L.provider);
  if (auto d = s.number("deadline_days")) {
    if (!(*d > 0) || !(*d <= 1e9))  // a billion days: beyond it the seconds lose meaning
      throw usage_error(s.name("deadline_days") + " must be a positive number of days, at most 1e9");
    space.deadline = *d * 24.0 * units::h;
  }
  if (auto b = s.number("budget")) {
    if (!(*b > 0) || !(*b <= 1e15))
      throw usage_error(s.name("budget") + " must be a positive amount in USD, at most 1e15");
    space.budget = *b * units::usd;
  }
}

/// --objective, --top, --threads and --chart (its file name refused before the search runs).
void read_search_options(const settings& s, search_options& o) {
  if (auto t = s.text("objective")) o.objective = enum_named<search_objective>(*t, s.name("objective"));
  o.top = s.count("top").value_or(5);
  if (o.top > max_search_top)
    throw usage_error(fmt::format("{} must be at most {} (got {})", s.name("top"), max_search_top, o.top));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  o.threads = s.count("threads").value_or(cores);
  if (o.threads > 1024) throw usage_error(s.name("threads") + " must be at most 1024");
  o.chart_file = s.text("chart");
  if (o.chart_file) {
    const std::string ext = std::filesystem::path(*o.chart_file).extension().string();
    if (ext != ".svg" && ext != ".png")
      throw usage_error(s.name("chart") + " " + *o.chart_file + ": the file must end in .svg or .png");
    chart::check_file_name(*o.chart_file, s.name("chart"));
  }
}

/// Every input error before any thread starts: the space as the library checks it, and its size
/// against --max-configurations.
void check_space(const settings& s, const training_search_space& space) {
  (void)detail::make_search_context(space);
  const double limit = s.number("max_configurations").value_or(1e9);
  if (!(limit >= 1))
    throw usage_error(fmt::format("{} must be at least 1 (got {})", s.name("max_configurations"), limit));
  if (static_cast<double>(space.size()) > limit)
    throw usage_error(fmt::format(
        "the space holds {:.3g} configurations, more than {} ({:.3g}): narrow the lists "
        "(--gpus, --tp, --pp, --cp, ...) or raise the limit",
        static_cast<double>(space.size()), s.name("max_configurations"), limit));
}

/// The flags and plan file into the space (viewing `L`) and the options, every input error
/// thrown before the search runs, in the order the flags are documented to be checked.
void read_search(settings& s, const model_choice& model, search_lists& L, search_options& o,
                 training_search_space& space) {
  read_given_lists(s, L);
  o.framework_note = read_run_config(s, model, L, space);
  read_run_model(s, o.tokens_text, space);
  read_nodes(s, L);
  read_dimensions(s, L, space);
  read_money(s, L, space);
  read_search_options(s, o);
  check_space(s, space);
}

/// The counts line: what was walked, how fast, and where each configuration left.
void print_search_counts(const training_search_report& r) {
  const search_counts& n = r.counts;
  fmt::print("searched {} of {} configurations in {:.2f} s on {} thread{} ({}/s): {} invalid, "
             "{} over memory (pruned before timing), {} timed{}\n",
             show_count(static_cast<double>(n.visited)),
             show_count(static_cast<double>(r.space.size())), r.seconds, r.threads,
             r.threads == 1 ? "" : "s", show_count(r.configurations_per_s()),
             show_count(static_cast<double>(n.invalid)),
             show_count(static_cast<double>(n.over_memory)), show_count(static_cast<double>(n.timed)),
             (n.over_limits > 0 ? fmt::format(", {} over the deadline or budget",
                                              show_count(static_cast<double>(n.over_limits)))
                                : std::string()) +
                 (n.no_progress > 0
                      ? fmt::format(", {} failing faster than they progress (the reliability "
                                    "model: --failures-per-node-day, --restart-minutes, "
                                    "--checkpoint-interval-hours)",
                                    show_count(static_cast<double>(n.no_progress)))
                      : std::string()));
}

/// `gpuplan search` as text: the run, the counts, the front, the top list, the margin, a chart.
void print_search_text(const training_search_report& r, const search_options& o,
                       const std::string& title) {
  const training_search_space& space = r.space;
  fmt::print("{} on {} tokens, global batch {} x {} tokens, framework {}{}\n",
             space.model.name.view(), o.tokens_text, space.config.global_batch, space.config.seq,
             to_string(space.config.framework), o.framework_note);
  print_search_counts(r);
  const search_counts& n = r.counts;
  if (!r.complete) fmt::print("stopped by Ctrl-C: the best found so far\n");
  if (r.front.empty()) {
    fmt::print("\nno configuration fits{}\n",
               n.over_limits > 0   ? " the deadline or budget"
               : n.no_progress > 0 ? ": every timed one fails faster than it progresses"
               : n.timed == 0 && n.over_memory == 0
                   ? ": every one is invalid (the degrees must divide --gpus, and the global "
                     "batch split into dp x micro-batch)"
                   : " (more GPUs, or more memory per GPU)");
    return;
  }
  fmt::print("\nPareto front, reserved time to train against cost (fastest first{}):\n{}",
             r.front_truncated ? fmt::format(", the {} fastest", max_search_front) : "",
             results_table(r, r.front).render("  "));
  fmt::print("\nbest by {}:\n{}", to_string(r.objective), results_table(r, r.top).render("  "));
  if (r.margin)
    fmt::print("\n#1 wins over #{} ({}) by {:.1f}% in {}; #{} is bound by {}\n", r.runner_up + 1,
               layout_text(r.top[r.runner_up].config.layout), 100.0 * (r.margin->ratio - 1.0),
               to_string(r.objective), r.runner_up + 1, describe(r.margin->runner_up_bottleneck));
  if (r.front.size() >= 2) fmt::print("\n{}", chart::render_text(front_chart(r, title)));
}

int run_search(search_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  if (s.has("nodes"))
    throw usage_error(s.name("nodes") + ": the search sizes the cluster from --gpus");
  const model_choice model = model_from(s, "search");
  if (!model.transformer)
    throw usage_error(s.name("model") + ": gpuplan search needs the model's architecture (a "
                                        "catalog name or a config.json), not a parameter count");
  const auto tokens_text = s.text("tokens");
  if (!tokens_text) throw usage_error("gpuplan search needs --tokens (the token budget)");
  search_lists lists;
  search_options o;
  o.tokens_text = *tokens_text;
  training_search_space space;
  read_search(s, model, lists, o, space);

  const run_result found = run_threads(space, o.top, o.threads);
  training_search_report r = search_report_of(space, found.best, o.objective);
  r.seconds = found.seconds;
  r.threads = found.threads;
  r.complete = found.complete;

  const std::string title = fmt::format("{}: time to train {} tokens against cost", model.name(), o.tokens_text);
  std::string chart_note;
  if (o.chart_file && !r.front.empty())
    chart_note = chart::render_file(front_chart(r, title), *o.chart_file, s.name("chart")).message;
  if (cmd.json)
    print_json(io::to_json(r));
  else
    print_search_text(r, o, title);
  flush_output();
  if (!chart_note.empty()) std::fprintf(stderr, "%s\n", chart_note.c_str());
  return r.complete ? 0 : 130;
}

/// The storage of a serving search's lists, viewed by the space's spans (filled in place).
struct serve_search_lists {
  serve_search_lists() = default;
  serve_search_lists(const serve_search_lists&) = delete;
  serve_search_lists& operator=(const serve_search_lists&) = delete;

  std::vector<int> tp, pp, ep;
  std::array<bool, 1> attention{};  ///< --dp-attention or --dp-attention=false: the one mode
  std::vector<node_spec> nodes;
  std::vector<precision> weights;
  std::vector<money_rate> prices;
  std::optional<std::string> provider;  ///< viewed by space.cost.provider
  search_degrees degrees;  ///< tp, pp and ep from the GPU counts' divisors (use_divisor_degrees)
};

/// Each GPU in its catalog node: a replica spans up to tp x pp GPUs of one node (its NVLink
/// domain and NICs); there is no --node here. A GPU without one can still be searched on one GPU
/// per replica (a PCIe card on its own, as gpuplan serve does).
void read_serve_nodes(const settings& s, serve_search_lists& L) {
  const long long widest = 1LL * *std::max_element(L.tp.begin(), L.tp.end()) *
                           *std::max_element(L.pp.begin(), L.pp.end());
  for (const gpu_choice& g : gpu_list(s)) {
    if (widest > 1 && !catalog::node_carrying(g.spec))
      throw usage_error(fmt::format(
          "{} {}: no catalog node carries it, and gpuplan search serve takes each GPU in its "
          "catalog node (it has no --node): search it on one GPU per replica ({} 1 {} 1), or "
          "search GPUs that have a node (docs/catalog.md lists them)",
          s.name("gpu"), g.spec.name.view(), s.name("tp"), s.name("pp")));
    L.nodes.push_back(choose_node(s, g, widest > 1 ? 2 : 1, "search serve"));
  }
}

/// --weight-dtype as a list, duplicates dropped (default bf16,fp8).
std::vector<precision> read_serve_weights(const settings& s) {
  std::vector<precision> weights;
  if (const auto t = list_text(s, "weight_dtype")) {
    for (const std::string& w : list_items(*t, s.name("weight_dtype"))) {
      const precision p = enum_named(w, s.name("weight_dtype"),
                                     {precision::bf16, precision::fp16, precision::fp8,
                                      precision::int8, precision::int4});
      if (std::find(weights.begin(), weights.end(), p) == weights.end()) weights.push_back(p);
    }
  } else {
    weights.assign(std::begin(search_defaults::serving_weights),
                   std::end(search_defaults::serving_weights));
  }
  return weights;
}

/// --tp, --ep and --dp-attention onto the space (after its base plan and nodes): the library's
/// defaults for the model (serving_search_space::use_model_defaults) where not given. A flag that
/// would change no configuration is refused, never ignored.
void read_serve_expert_parallelism(const settings& s, serve_search_lists& L,
                                   serving_search_space& space) {
  space.use_model_defaults();
  if (list_text(s, "tp")) {  // the caller's list: a tp above a node's GPUs is listed invalid
    space.tp = L.tp;
    space.replicas_within_node = false;
  }
  const std::string model(space.base.model.name.view());
  if (list_text(s, "ep")) {
    L.ep = int_list(s, "ep", search_defaults::serving_ep);
    if (!space.base.model.is_moe() &&
        std::any_of(L.ep.begin(), L.ep.end(), [](int e) { return e > 1; }))
      throw usage_error(fmt::format("{}: {} is not a mixture of experts (expert parallelism "
                                    "splits experts)",
                                    s.name("ep"), model));
    if (s.flag("dp_attention").value_or(false))
      throw usage_error(fmt::format("{}: with {} each replica's ep is its tp (give the replica "
                                    "sizes with {})",
                                    s.name("ep"), s.name("dp_attention"), s.name("tp")));
    space.ep = L.ep;
  }
  if (const std::optional<bool> dp = s.flag("dp_attention")) {
    L.attention[0] = *dp;
    space.dp_attention = L.attention;
  }
  bool paired = false;  // some tp with tensor-parallel attention takes an ep of the list
  space.each_replica([&paired](const serving_replica& x) { return !(paired = !x.dp_attention); });
  if (list_text(s, "ep") && !paired)
    throw usage_error(fmt::format("{}: no degree divides a {} value (expert parallelism runs "
                                  "inside the replica's tensor-parallel group)",
                                  s.name("ep"), s.name("tp")));
  if (space.base.assumptions.moe_all_to_all && !space.moe_all_to_all_applies())
    throw usage_error(fmt::format(
        "{}: no configuration searched has tensor-parallel attention with ep above 1 (a dense "
        "model has no experts; {} always dispatches by all-to-all)",
        s.name("moe_all_to_all"), s.name("dp_attention")));
}

/// The flags and plan file into a serving search space (viewing `L`); returns --top.
int read_serve_search(settings& s, const model_choice& model, serve_search_lists& L,
                      serving_search_space& space) {
  L.tp = int_list(s, "tp", search_defaults::serving_tp);
  L.pp = int_list(s, "pp", search_defaults::serving_pp);
  read_serve_nodes(s, L);
  L.weights = read_serve_weights(s);
  // the engine settings, read by serving_from from a copy with one weight dtype set
  settings base = s;
  base.set_flag("weight_dtype", std::string(to_string(L.weights.front())));
  serving_plan& p = space.base;
  p.model = *model.transformer;
  p.config = serving_from(base, model);
  p.compute_dtype = p.model.native_dtype == precision::fp16 ? precision::fp16 : precision::bf16;
  p.mix = mix_of(s);
  const assumption_set a = assumptions_from(s);
  p.assumptions = a.serving;
  p.memory = a.memory;
  space.cost.power_model = a.energy;
  space.cost.embodied_inputs = a.carbon;
  set_engine_behaviour(s, p);  // as gpuplan serve reads them (decode attention, MoE all-to-all)
  space.slo = serving_slo{.ttft = slo_seconds(s, "ttft_slo") * units::s,
                          .tpot = slo_seconds(s, "tpot_slo") * units::s};
  if (auto o = s.text("objective")) space.objective = enum_named<serving_objective>(*o, s.name("objective"));
  L.prices = price_list(s, L.nodes.size());
  L.provider = s.text("provider");
  set_terms(s, space.cost, L.provider);
  space.price_per_gpu_hour = L.prices;
  space.nodes = L.nodes;
  space.pp = L.pp;
  space.weights = L.weights;
  read_serve_expert_parallelism(s, L, space);
  const int top = s.count("top").value_or(5);
  if (top > max_serving_results)
    throw usage_error(fmt::format("{} must be at most {} (got {})", s.name("top"), max_serving_results, top));
  return top;
}

/// "$0.123", or "n/a" for a cost that is not known (a GPU without a price).
std::string per_million_text(double usd) {
  return std::isfinite(usd) ? fmt::format("{:.3f}", usd) : std::string("n/a");
}

/// The note for GPU types without a price: left out of a cost ranking, never an error.
void print_unpriced_note(const serving_search_summary& r) {
  const serving_search_report& f = r.found;
  if (f.unpriced.empty()) return;
  std::string names;
  for (int ni : f.unpriced) {
    if (!names.empty()) names += ", ";
    names += std::string(r.space.nodes[static_cast<std::size_t>(ni)].gpu.name.view());
  }
  if (r.space.objective == serving_objective::cost_per_million_tokens)
    fmt::print("note: no price for {} ({} term{}): left out of the cost ranking ({} configurations "
               "met the SLO there); give --price-per-gpu-hour, or rank by --objective "
               "tokens_per_gpu\n",
               names, to_string(r.space.cost.term),
               r.space.cost.provider.empty() ? std::string()
                                             : fmt::format(", provider {}", r.space.cost.provider),
               f.unpriced_skipped);
  else
    fmt::print("note: no price for {} ({} term): ranked by throughput, its costs n/a\n", names,
               to_string(r.space.cost.term));
}

/// `gpuplan search serve` as text: the workload and counts, then the ranking.
void print_serve_search_text(const serving_search_summary& r) {
  const serving_plan& p = r.space.base;
  const serving_search_report& f = r.found;
  const bool moe = p.model.is_moe();  // the EP and attention columns
  fmt::print("{} serving {:.0f} in + {:.0f} out tokens per request{}{}: {} configurations in {:.2f} s ({} "
             "invalid, {} without room for the KV cache, {} missing the SLO)\n\n",
             p.model.name.view(), p.mix.mean_input(), p.mix.mean_output(),
             p.mix.size() > 1 ? fmt::format(" (mean of a mix of {})", p.mix.size()) : "",
             r.space.slo.ttft.value > 0 || r.space.slo.tpot.value > 0 ? " under the SLO" : "",
             f.visited, r.seconds, f.invalid, f.over_memory, f.missed_slo);
  if (!f.invalid_view().empty()) {
    table t;
    t.header = {"GPU", "TP", "PP", "weights", "invalid because"};
    t.numeric = {false, true, true, false, false};
    if (moe) {
      t.header.insert(t.header.begin() + 3, {"EP", "attention"});
      t.numeric.insert(t.numeric.begin() + 3, {true, false});
    }
    for (const serving_invalid_configuration& x : f.invalid_view()) {
      t.rows.push_back({std::string(r.space.nodes[static_cast<std::size_t>(x.node)].gpu.name.view()),
                        std::to_string(x.layout.tp), std::to_string(x.layout.pp),
                        std::string(to_string(x.weights)), io::problem_text(x.why)});
      if (moe)
        t.rows.back().insert(t.rows.back().begin() + 3,
                             {std::to_string(x.layout.ep), x.dp_attention ? "dp" : "tp"});
    }
    fmt::print("invalid configurations{}:\n{}\n",
               f.invalid > f.invalid_view().size()
                   ? fmt::format(" (the first {} of {})", f.invalid_view().size(), f.invalid)
                   : "",
               t.render("  "));
  }
  print_unpriced_note(r);
  if (f.view().empty()) {
    fmt::print("no configuration serves it{}\n", f.unpriced_skipped > 0 ? " at a known price" : "");
    return;
  }
  table t;
  t.header = {"#", "GPU", "TP", "PP", "weights", "concurrency", "TTFT", "TPOT", "tok/s/GPU",
              "$/M tokens", "$/M in", "$/M out"};
  t.numeric = {true, false, true, true, false, true, true, true, true, true, true, true};
  if (moe) {
    t.header.insert(t.header.begin() + 4, {"EP", "attention"});
    t.numeric.insert(t.numeric.begin() + 4, {true, false});
  }
  const bool sized = r.rate_per_s > 0;
  if (sized) {
    t.header.insert(t.header.end(), {"replicas", "GPUs", "$/hour"});
    t.numeric.insert(t.numeric.end(), {true, true, true});
  }
  int i = 0;
  for (const serving_search_result& x : f.view()) {
    t.rows.push_back({std::to_string(++i), std::string(r.node_of(x).gpu.name.view()),
                      std::to_string(x.layout.tp), std::to_string(x.layout.pp),
                      std::string(to_string(x.weights)) +
                          (x.compute != x.weights && x.weights != precision::bf16 &&
                                   x.weights != precision::fp16
                               ? " (weight-only)"
                               : ""),
                      fmt::format("{:.0f}", x.point.concurrency), secs(x.point.ttft),
                      secs(x.point.tpot), fmt::format("{:.0f}", x.tokens_per_s_per_gpu),
                      per_million_text(x.cost_per_million_tokens),
                      per_million_text(x.cost_per_million_input_tokens),
                      per_million_text(x.cost_per_million_output_tokens)});
    if (moe)
      t.rows.back().insert(t.rows.back().begin() + 4,
                           {std::to_string(x.layout.ep) + (x.moe_all_to_all ? " a2a" : ""),
                            x.dp_attention ? "dp" : "tp"});
    if (sized) {
      const serving_sizing z = size_for_rate(x, r.rate_per_s);
      t.rows.back().insert(t.rows.back().end(),
                           {std::to_string(z.replicas), std::to_string(z.gpus),
                            std::isfinite(z.cost_per_hour_usd)
                                ? fmt::format("{:.2f}", z.cost_per_hour_usd)
                                : std::string("n/a")});
    }
  }
  fmt::print("best by {}:\n{}", to_string(r.space.objective), t.render("  "));
  fmt::print("$/M tokens: USD per million output tokens with the whole GPU-time charged to them "
             "(what the ranking reads). $/M in, $/M out: the GPU-time split between prefill "
             "(input tokens) and decode (output tokens) by the model's prefill time, each per "
             "million of its own tokens, as providers price them.\n");
  if (moe)
    fmt::print("EP: the experts over ep groups of the replica's TP GPUs (a2a: dispatched and "
               "combined by all-to-all, else summed in the all-reduce); attention tp: "
               "tensor-parallel, dp: data-parallel over the TP GPUs (ep = tp).\n");
  if (sized)
    fmt::print("sized for {:g} requests/s: replicas = ceil(rate / one replica's requests/s at its "
               "point under the SLO); $/hour for all of their GPUs\n",
               r.rate_per_s);
}

int run_serve_search(serve_search_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  const model_choice model = model_from(s, "search serve");
  if (!model.transformer)
    throw usage_error(s.name("model") + ": gpuplan search serve needs the model's architecture (a "
                                        "catalog name or a config.json), not a parameter count");
  serve_search_lists lists;
  serving_search_space space;
  const int top = read_serve_search(s, model, lists, space);
  // --rate as gpuplan capacity reads it (requests/s, positive)
  double rate = 0;
  if (const std::optional<double> v = s.number("rate")) {
    if (!(*v > 0) || !std::isfinite(*v) || !(*v < 1e12))
      throw usage_error(fmt::format("{} must be positive, below 1e12 requests/s (got {})",
                                    s.name("rate"), *v));
    rate = *v;
  }
  serving_search_summary r = report_serving_search(space, top);
  r.rate_per_s = rate;
  if (cmd.json)
    print_json(io::to_json(r));
  else
    print_serve_search_text(r);
  return 0;
}

}  // namespace

command add_search_command(CLI::App& app) {
  auto cmd = std::make_shared<search_command>();
  CLI::App* t = &app;
  settings& s = cmd->s;
  std::vector<field> training;
  for (const field& f : training_fields())
    if (f.key != "micro_batch" && f.key != "recompute" && f.key != "framework" &&
        f.key != "amp" && f.key != "master_weights" && f.key != "chunked_loss" &&
        f.key != "micro_batches")  // micro-batches are searched
      training.push_back(f);
  static const std::vector<field> training_rest = training;
  s.add(t, {model_fields(), node_fields(), searched_table, training_rest, train_run_fields(),
            step_assumption_fields(), search_table, assumption_fields()});
  s.add_plan_option(t);
  t->add_flag("--json", cmd->json, "Print the result as JSON (schema: docs/json-schema.md)");

  // gpuplan search serve: GPU type x TP x PP x weight precision at the SLO's best concurrency
  auto serve = std::make_shared<serve_search_command>();
  CLI::App* sv = t->add_subcommand(
      "serve", "Serving: the cheapest (or fastest per GPU) GPU, TP, PP, EP and weight precision under an SLO");
  std::vector<field> serving;
  for (const field& f : serving_fields())
    if (f.key != "weight_dtype" && f.key != "batch" && f.key != "context") serving.push_back(f);
  static const std::vector<field> serving_rest = serving;
  std::vector<field> load;
  for (const field& f : serve_load_fields())  // search's own --dp-attention (both by default)
    if (f.key != "dtype" && f.key != "dp_attention") load.push_back(f);
  static const std::vector<field> load_rest = load;
  serve->s.add(sv, {model_fields(), serve_search_table, serving_rest, load_rest,
                    assumption_fields()});
  serve->s.add_plan_option(sv);
  sv->add_flag("--json", serve->json, "Print the result as JSON (schema: docs/json-schema.md)");
  t->require_subcommand(0, 1);
  return {t, [cmd, serve, sv] { return sv->parsed() ? run_serve_search(*serve) : run_search(*cmd); },
          [cmd, serve, sv] { return sv->parsed() ? &serve->s : &cmd->s; }};
}

}  // namespace gpuplan::cli
