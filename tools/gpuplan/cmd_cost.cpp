// tools/gpuplan/cmd_cost.cpp: `gpuplan cost`, what a run costs, draws and emits, and whether to
// rent or own.
//
// Usage is given (`--gpu-hours N --gpu NAME`, as a model card reports it, or `--gpus N --hours H`),
// or modelled: `gpuplan train`'s flags plus --tokens give a training run whose GPU-hours, wall time
// and GPU count come from the step-time model (train_run.hpp, the same reader `gpuplan train` uses);
// `gpuplan serve`'s flags give a serving deployment priced per million tokens and per month at the
// serving model's operating point (serve_setup.hpp, the reader `gpuplan serve` uses). The two share
// --dtype (training precision, or the serving math's); which one is meant follows from the flags
// given (serving-only or training-only ones) or from --workload serve|train, and mixing them is
// refused.
// The GPU and node come from the shared groups (options.hpp); the rest are cost's own fields,
// read from flags or a --plan file alike.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <gpuplan/models/estimates.hpp>
#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/nodes.hpp>
#include <gpuplan/catalog/sites.hpp>
#include <gpuplan/io/cost_json.hpp>
#include <gpuplan/io/prices_json.hpp>
#include <gpuplan/plan/cost_report.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "cost_output.hpp"
#include "options.hpp"
#include "serve_setup.hpp"
#include "train_run.hpp"

namespace gpuplan::cli {

namespace {

using ft = field_type;

constexpr field cost_table[] = {
    {"gpu_hours", "--gpu-hours", ft::number, "cost",
     "GPU-hours of the run (a model card's figure, or the training model's); or --gpus with "
     "--hours"},
    {"hours", "--hours", ft::number, "cost",
     "Wall-clock hours of the run on --gpus GPUs; with --compare and --utilization/--occupancy "
     "(no --months/--years), the hours the fleet is held, busy that share of them"},
    {"utilization", "--utilization", ft::number, "cost",
     "Old name of --occupancy: the share of the horizon's hours the compared fleet is busy "
     "(default 1); how hard a busy GPU works is --duty"},
    {"occupancy", "--occupancy", ft::number, "cost",
     "Share of the horizon's hours the fleet is busy (default 1): GPU-hours used, hours rented "
     "on demand. With a run length and --months/--years it follows from the run: not both"},
    {"duty", "--duty", ft::number, "cost",
     "Kernel duty of a busy GPU, for its power draw (default 1: board power, the model cards' "
     "convention)"},
    {"months", "--months", ft::count, "cost",
     "Horizon of the comparison in months (default: the owned servers' amortisation, 36); with "
     "--gpus and no run length, the fleet busy --occupancy of it is the run"},
    {"years", "--years", ft::number, "cost", "Horizon in years (whole months), instead of --months"},
    {"residual", "--residual", ft::number, "cost",
     "Owned servers' value at the horizon's end as a share of capital (default: straight-line "
     "over --useful-life-years)"},
    {"useful_life_years", "--useful-life-years", ft::number, "cost",
     "Years over which owned servers lose their value, straight-line (default 5: IRS Pub. 946 "
     "5-year property)"},
    {"finance_rate", "--finance-rate", ft::number, "cost",
     "Finance the owned capital at this annual rate (0.085 = 8.5%; default when financing: the "
     "US prime rate 0.085), paid monthly"},
    {"finance_months", "--finance-months", ft::count, "cost",
     "Finance the owned capital over this many monthly payments (default when financing: 36)"},
    {"hybrid_owned_fraction", "--hybrid-owned-fraction", ft::number, "cost",
     "The hybrid's owned base as a share of the fleet's GPUs, whole servers; the rest rented "
     "while busy (default 0.5)"},
    {"power_per_gpu", "--power-per-gpu", ft::number, "cost",
     "All-in average draw per GPU in watts (GPU, host and network share, as model cards report "
     "it); replaces the power model"},
    {"pue", "--pue", ft::number, "cost",
     "Power usage effectiveness (default: the book's site, 1.56)"},
    {"carbon_intensity", "--carbon-intensity", ft::number, "cost",
     "Grid carbon intensity in kg CO2e per kWh (default: the book's site, 0.385)"},
    {"region", "--region", ft::text, "cost",
     "Grid region for the carbon intensity: world, us, france, germany, ... "
     "(docs/models/energy.md)"},
    {"rack_budget_kw", "--rack-budget-kw", ft::number, "cost",
     "IT power one rack may draw, in kW (default: the book's site, 30)"},
    {"cooling", "--cooling", ft::text, "cost",
     with_names<"How the site cools its racks: ", cooling_kind,
                " (default: the book's site, air_containment)">},
    {"electricity_price", "--electricity-price", ft::number, "cost",
     "Electricity in $ per kWh for owned GPUs (default: the book's site, 0.0895)"},
    {"price_per_gpu_hour", "--price-per-gpu-hour", ft::number, "cost",
     "Cloud price in $ per GPU-hour, instead of the price book"},
    {"prices", "--prices", ft::text, "cost",
     "Price book JSON over the default book (docs/models/cost.md)"},
    {"term", "--term", ft::text, "cost", with_names<"Cloud price term: ", price_term>},
    {"provider", "--provider", ft::text, "cost", "Only this provider's prices (aws, lambda, ...)"},
    {"embodied", "--embodied", ft::flag, "cost",
     "Add embodied (manufacturing) carbon, amortised per GPU-hour, reported apart"},
    {"compare", "--compare", ft::text, "cost",
     "Comma-separated: cloud, onprem, hybrid (break-even utilization and month, owned base + "
     "burst)"},
    {"chart", "--chart", ft::text, "output",
     "Draw the cumulative cost of cloud and owning into FILE (.svg or .png, through gnuplot); "
     "needs --compare cloud or onprem"},
    {"demand", "--demand", ft::text, "cost",
     "GPUs needed in each hour, comma-separated (24 values for a day), for --compare hybrid"},
};

// --dtype is read by the training run as its precision and by the serving plan as its math's:
// cost registers it once, with both meanings, in place of the two groups' own.
/// cost's --dtype: a training run's precisions, or a serving deployment's (the lists its parsers
/// read).
constexpr std::string_view cost_dtype_train_help =
    with_values<"Training precision ", training_dtypes,
                " (default bf16), or with --workload serve the precision of the matrix math ">;
constexpr std::string_view cost_dtype_serve_help =
    with_values<"", serving_compute_dtypes, " (default: the weights' 16-bit type)">;

constexpr field workload_table[] = {
    {"workload", "--workload", ft::text, "cost",
     "What --model describes: train (the `gpuplan train` flags + --tokens) or serve (the "
     "`gpuplan serve` flags). Default: serve when a serving-only flag is given (--input-len, "
     "--output-len, --concurrency, --rate, --engine, ...), else train"},
    {"dtype", "--dtype", ft::text, "cost",
     joined_help<cost_dtype_train_help, cost_dtype_serve_help>},
};

/// The fields of `group` other than --dtype (cost registers its own, workload_table).
std::vector<field> without_dtype(std::span<const field> group) {
  std::vector<field> out;
  for (const field& f : group)
    if (f.key != "dtype") out.push_back(f);
  return out;
}

/// Whether key is a flag only a serving deployment reads / only a training run reads.
bool serving_only(const field& f) {
  if (f.use == field_use::serve) return true;
  for (const auto group : {serve_load_fields(), serve_point_fields()})
    for (const field& g : group)
      if (g.key == f.key && g.key != "dtype") return true;
  return false;
}
bool training_only(const field& f) {
  if (f.key == "dtype") return false;
  if (f.use == field_use::train) return true;
  for (const field& g : train_run_fields())
    if (g.key == f.key) return true;
  return false;
}

/// The workload the settings describe; usage_error on flags of both kinds (or of the other kind
/// than --workload names).
cost_workload workload_of(const settings& s) {
  const field* serve_flag = nullptr;
  const field* train_flag = nullptr;
  for (const field* f : s.given()) {
    if (serve_flag == nullptr && serving_only(*f)) serve_flag = f;
    if (train_flag == nullptr && training_only(*f)) train_flag = f;
  }
  std::optional<cost_workload> asked;
  if (const std::optional<std::string> w = s.text("workload")) {
    asked = enum_named(*w, s.name("workload"), {cost_workload::serve, cost_workload::train});
    if (!s.has("model"))
      throw usage_error(fmt::format("{} describes the workload of --model: give --model too",
                                    s.name("workload")));
  }
  if (serve_flag != nullptr && train_flag != nullptr)
    throw usage_error(fmt::format(
        "{} prices a serving deployment and {} a training run: give the flags of one (--workload "
        "serve|train)",
        s.name(serve_flag->key), s.name(train_flag->key)));
  if (asked == cost_workload::train && serve_flag != nullptr)
    throw usage_error(fmt::format("{} is a serving flag; {} train prices a training run",
                                  s.name(serve_flag->key), s.name("workload")));
  if (asked == cost_workload::serve && train_flag != nullptr)
    throw usage_error(fmt::format("{} is a training flag; {} serve prices a serving deployment",
                                  s.name(train_flag->key), s.name("workload")));
  if (!s.has("model")) {
    if (serve_flag != nullptr)
      throw usage_error(fmt::format("{} describes a serving deployment: add {} (and the `gpuplan "
                                    "serve` flags)",
                                    s.name(serve_flag->key), "--model"));
    return cost_workload::usage;
  }
  if (asked) return *asked;
  return serve_flag != nullptr ? cost_workload::serve : cost_workload::train;
}

struct cost_command {
  settings s;
  bool json = false;
  bool require_fit = false;
};

double positive(const settings& s, std::string_view key) {
  const double v = *s.number(key);
  if (!(v > 0) || !std::isfinite(v))
    throw usage_error(fmt::format("{} must be a positive number (got {})", s.name(key), v));
  return v;
}

std::vector<double> parse_demand(const std::string& text, const std::string& who) {
  std::vector<double> out;
  for (const std::string& item : list_items(text, who)) {
    double v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec != std::errc() || end != item.data() + item.size() || !(v >= 0) || v > 1e7)
      throw usage_error(fmt::format("{}: '{}' is not a GPU count (value {} of the list)", who,
                                    item, out.size() + 1));
    out.push_back(v);
  }
  return out;
}

/// Settings that say the same thing twice. The message is "A and B both <what>: <remedy>", with
/// B's name in place of {} in the remedy.
struct conflict {
  std::string_view a, b, what, remedy;
};
constexpr conflict conflicts[] = {
    {"model", "gpu_hours", "give the run's length", "the model's step time gives it, so drop {}"},
    {"model", "hours", "give the run's length", "the model's step time gives it, so drop {}"},
    {"gpu_hours", "hours", "give the run's length", "choose one"},
    {"carbon_intensity", "region", "set the grid", "choose one"},
    {"utilization", "occupancy", "set the occupancy", "--utilization is its old name: keep {}"},
    {"months", "years", "give the horizon", "choose one"},
    {"residual", "useful_life_years", "give the residual value", "choose one"},
};

void reject_conflicts(const settings& s) {
  for (const conflict& c : conflicts)
    if (s.has(c.a) && s.has(c.b))
      throw usage_error(fmt::format("{} and {} both {}: {}", s.name(c.a), s.name(c.b), c.what,
                                    fmt::format(fmt::runtime(c.remedy), s.name(c.b))));
}

/// What the flags describe: the library's inputs, and what they point into.
struct cost_setup {
  cost_report_inputs in;
  io::price_book book;   ///< the default book, or --prices over it (in.pricing.book views it)
  std::string provider;  ///< --provider (in.pricing.provider views it)
  /// A modelled training run as the flags describe it (its step estimates' notes).
  std::optional<run_description> modelled;
};

/// A serving deployment (`gpuplan serve`'s flags), its concurrency picked by the latency targets
/// when they are given. Returns the exit status when --require-fit finds it does not fit (the
/// verdict alone is printed), nullopt when it is to be priced.
std::optional<int> read_serving(const cost_command& cmd, cost_setup& c) {
  const settings& s = cmd.s;
  serve_setup setup = serve_setup_from(s, "cost");
  set_serve_point(s, setup.plan);
  // The verdict before the SLO search: a deployment that does not fit has no point to search.
  const fit_report memory = serving_fit(setup.plan);
  if (cmd.require_fit && !memory.fits()) return print_unfit_serving(setup, memory, cmd.json);
  if (setup.want_slo()) {
    // The latency targets pick the operating point, as in `gpuplan serve`: the largest
    // concurrency that meets them (they were read and then ignored before).
    if (s.has("concurrency") || s.has("rate"))
      throw usage_error(fmt::format("{} and {} pick the concurrency themselves: drop {} and {}",
                                    s.name("ttft_slo"), s.name("tpot_slo"), s.name("concurrency"),
                                    s.name("rate")));
    const slo_result best = best_under_slo(setup.plan, setup.slo);
    if (!best.found)
      throw usage_error(fmt::format("no concurrency meets {} and {} on this deployment",
                                    s.name("ttft_slo"), s.name("tpot_slo")));
    setup.plan.concurrency = static_cast<int>(best.best.concurrency);
  }
  c.in.serving = setup.plan;
  c.in.sources.model = setup.model.name();
  c.in.sources.gpu = "model";
  return std::nullopt;
}

/// A modelled training run (`gpuplan train`'s flags plus --tokens).
void read_training(const settings& s, cost_setup& c) {
  c.modelled = training_run_from(s, "cost");
  const run_description& d = *c.modelled;
  if (!d.tokens)
    throw usage_error(fmt::format("{} needs {} (the token budget of the training run to price)",
                                  s.name("model"), s.name("tokens")));
  // usage_error naming the reliability flags when failures leave the run no progress (the
  // library's report_cost would say it in its own names)
  (void)modelled_run(d);
  c.in.training = training_workload{.plan = d.plan, .tokens = *d.tokens, .reliability = d.reliability};
  c.in.sources.model = d.model.name();
  c.in.sources.gpu = "model";
}

/// --hours with --compare and --utilization (or --occupancy), without --months or --years: the
/// hours the compared fleet is held (the horizon), busy the occupancy's share of them, as a
/// finance lead writes it (`--gpus 64 --hours 26280 --utilization 0.6`: 64 GPUs held 36 months,
/// busy 60% of the time). Anywhere else --hours is the run's busy length.
bool hours_are_the_horizon(const settings& s) {
  return s.has("hours") && s.has("compare") && !s.has("months") && !s.has("years") &&
         (s.has("utilization") || s.has("occupancy"));
}

/// --months or --years (or --hours held, hours_are_the_horizon): the horizon in whole months
/// (0: not given).
int horizon_months_of(const settings& s) {
  if (hours_are_the_horizon(s)) {
    const double h = positive(s, "hours");
    const double m = h / (1.0 * units::month).in(units::h);
    if (m > 1200 || std::abs(m - std::round(m)) > 1e-6 || std::lround(m) < 1)
      throw usage_error(fmt::format(
          "{} {:g} with {} is the hours the fleet is held: it must be whole months of {:g} h, "
          "at most 1200 (got {:g} months); or give the horizon with --months",
          s.name("hours"), h, s.name(s.has("utilization") ? "utilization" : "occupancy"),
          (1.0 * units::month).in(units::h), m));
    return static_cast<int>(std::lround(m));
  }
  if (s.has("months")) {
    const int m = *s.count("months");
    if (m > 1200)
      throw usage_error(fmt::format("{} must be at most 1200 (got {})", s.name("months"), m));
    return m;
  }
  if (s.has("years")) {
    const double y = positive(s, "years");
    const double m = 12.0 * y;
    if (y > 100 || std::abs(m - std::round(m)) > 1e-9)
      throw usage_error(fmt::format("{} must be whole months, at most 100 years (got {:g}: {:g} "
                                    "months)",
                                    s.name("years"), y, m));
    return static_cast<int>(std::lround(m));
  }
  return 0;
}

/// --occupancy, or its old name --utilization; 1 when neither is given.
double occupancy_of(const settings& s) {
  for (const char* key : {"occupancy", "utilization"})
    if (s.has(key)) {
      const double o = *s.number(key);
      if (!(o > 0 && o <= 1))
        throw usage_error(fmt::format("{} must be in (0, 1] (got {})", s.name(key), o));
      return o;
    }
  return 1.0;
}

/// --gpu-hours, or --gpus x --hours: the GPU time of a run given, not modelled.
duration gpu_time_from(const settings& s, int gpus) {
  // A million GPUs for 114 years: beyond it a typo, not a run (and the money and energy lines
  // would print hundreds of digits)
  constexpr double max_gpu_hours = 1e12;
  if (s.has("gpu_hours")) {
    const double h = positive(s, "gpu_hours");
    if (h > max_gpu_hours)
      throw usage_error(fmt::format("{} must be at most {:g} (got {:g})", s.name("gpu_hours"),
                                    max_gpu_hours, h));
    return h * units::h;
  }
  if (s.has("hours")) {
    if (gpus <= 0)
      throw usage_error(fmt::format("{} needs --gpus (the GPUs of the run)", s.name("hours")));
    const double h = positive(s, "hours");
    if (hours_are_the_horizon(s))  // held h hours, busy the occupancy's share of them
      return (occupancy_of(s) * gpus) * (h * units::h);
    if (h * gpus > max_gpu_hours)
      throw usage_error(fmt::format("{} x {} must be at most {:g} GPU-hours (got {:g})",
                                    s.name("gpus"), s.name("hours"), max_gpu_hours, h * gpus));
    return (1.0 * gpus) * (h * units::h);
  }
  if (gpus > 0 && (s.has("months") || s.has("years"))) {
    // no run length: the fleet busy its occupancy of the horizon is what is used
    const double months = horizon_months_of(s);
    return (occupancy_of(s) * gpus) * (months * units::month);
  }
  throw usage_error(
      "cost needs the run's GPU time: --gpu-hours N, or --gpus N --hours H, or --gpus N with "
      "--months/--years (busy --occupancy of them), or a modelled training run (--model M "
      "--tokens N and the `gpuplan train` flags)");
}

/// GPU time given (--gpu-hours, or --gpus and --hours) on a GPU.
void read_usage(const settings& s, cost_setup& c) {
  // Without a model, a training-run or layout flag has nothing to describe (the same tables
  // `gpuplan train` reads, not a list kept by hand)
  for (const field* f : s.given()) {
    bool layout = false;
    for (const field& g : layout_fields()) layout = layout || g.key == f->key;
    if (layout || training_only(*f))
      throw usage_error(fmt::format("{} describes a modelled training run: add {} (and the "
                                    "`gpuplan train` flags)",
                                    s.name(f->key), s.name("model")));
  }
  // GPU time given, not modelled: nothing is timed, so the GPU's rates may be unknown
  const gpu_choice gpu = gpu_from(s, gpu_use::memory);
  // but its power is: the board power, unless --power-per-gpu gives the draw
  if (!gpu.file.empty() && !(gpu.spec.tdp.value > 0) && !s.has("power_per_gpu"))
    throw usage_error(fmt::format(
        "{}: key '{}tdp_watts' is missing or 0: cost needs the GPU's board power for its "
        "energy (or give {})",
        gpu.file, gpu.key_prefix, s.name("power_per_gpu")));
  run_usage& u = c.in.usage;
  u.gpu = gpu.spec;
  c.in.sources.gpu = gpu.source;
  u.gpus = s.count("gpus").value_or(0);
  // (gpus + 7) / 8 nodes in int wrapped at 2^31 - 1 ("nodes must be positive")
  if (u.gpus > parallel_layout::max_gpus)
    throw usage_error(fmt::format("{} must be at most {} (parallel_layout::max_gpus, the most "
                                  "the models are defined for; got {})",
                                  s.name("gpus"), parallel_layout::max_gpus, u.gpus));
  u.gpu_time = gpu_time_from(s, u.gpus);
}

/// The workload: a serving deployment, a modelled training run or GPU time given. Returns the exit
/// status when --require-fit stops a serving deployment that does not fit.
std::optional<int> read_workload(const cost_command& cmd, cost_setup& c) {
  const settings& s = cmd.s;
  const cost_workload w = workload_of(s);
  if (w == cost_workload::serve)
    for (const char* given : {"gpu_hours", "hours"})
      if (s.has(given))
        throw usage_error(fmt::format("{} gives a run's length; a serving deployment is priced "
                                      "for a month at its operating point: drop {}",
                                      s.name(given), s.name(given)));
  reject_conflicts(s);
  if (w == cost_workload::serve) return read_serving(cmd, c);
  if (w == cost_workload::train)
    read_training(s, c);
  else
    read_usage(s, c);
  return std::nullopt;
}

/// The price book (--prices over the default), its site, and the server of a run given as usage
/// (--node, else the catalog server of its GPU; a modelled workload's plan names its own).
void read_book_and_node(const settings& s, cost_setup& c) {
  c.book = s.has("prices") ? io::read_price_book(*s.text("prices")) : io::default_price_book();
  c.in.pricing.site = c.book.site;
  c.in.owned_costs = owned_costs_of(c.book);
  if (c.in.training || c.in.serving) return;
  if (const std::optional<node_spec> n = node_from(s))
    c.in.pricing.node = *n;
  else if (const node_spec* server = catalog::node_carrying(c.in.usage.gpu))
    c.in.pricing.node = with_power_limit(s, *server);
}

/// --term, --provider, --price-per-gpu-hour, --power-per-gpu, --utilization.
void read_price_and_power(const settings& s, cost_setup& c) {
  run_cost_inputs& in = c.in.pricing;
  if (s.has("term")) in.term = term_named(*s.text("term"), s.name("term"));
  if (s.has("provider")) c.provider = *s.text("provider");
  if (s.has("price_per_gpu_hour")) {
    const double price = positive(s, "price_per_gpu_hour");
    if (!(price <= max_price_per_gpu_hour_usd))
      throw usage_error(fmt::format("{} must be at most {:g} USD (max_price_per_gpu_hour_usd; got {:g})",
                                    s.name("price_per_gpu_hour"), max_price_per_gpu_hour_usd, price));
    in.price_per_gpu_hour = price * units::usd_per_h;
  }
  if (s.has("power_per_gpu")) {
    // The least all-in draw per GPU taken: 1 W. The smallest data-centre GPU in the catalog draws
    // tens of watts (an L4's board power is 72 W); 1e-308 W printed "inf tokens per joule".
    constexpr double min_power_per_gpu_w = 1.0;
    const double watts = positive(s, "power_per_gpu");
    if (watts < min_power_per_gpu_w)
      throw usage_error(fmt::format("{} must be at least {:g} W (min_power_per_gpu_w; got {:g})",
                                    s.name("power_per_gpu"), min_power_per_gpu_w, watts));
    in.power_per_gpu = watts * units::W;
  }
  // Two meanings kept apart: the occupancy (share of the horizon's hours the fleet is busy:
  // GPU-hours used, hours rented) and the duty (how hard a busy GPU works: its power).
  c.in.fleet_utilization = occupancy_of(s);
  if (s.has("duty")) {
    const double d = *s.number("duty");
    if (!(d > 0 && d <= 1))
      throw usage_error(fmt::format("{} must be in (0, 1] (got {})", s.name("duty"), d));
    in.utilization = d;  // the run's GPUs
    c.in.fleet_duty = d;  // and the owned fleet's while busy
  }
}

/// --months/--years, the residual value, financing and the hybrid's owned share.
void read_horizon(const settings& s, cost_setup& c) {
  c.in.horizon_months = horizon_months_of(s);
  owned_finance& f = c.in.finance;
  const auto share = [&](std::string_view key, bool above_zero) {
    const double v = *s.number(key);
    if (!(above_zero ? v > 0 : v >= 0) || !(v <= 1))
      throw usage_error(fmt::format("{} must be between {} and 1 (got {})", s.name(key),
                                    above_zero ? "above 0" : "0", v));
    return v;
  };
  if (s.has("residual")) f.residual_fraction = share("residual", false);
  if (s.has("useful_life_years")) {
    const double y = positive(s, "useful_life_years");
    if (y > 50)
      throw usage_error(fmt::format("{} must be at most 50 (got {:g})",
                                    s.name("useful_life_years"), y));
    f.useful_life_years = y;
  }
  if (s.has("finance_rate")) {
    f.financed = true;
    f.annual_rate = share("finance_rate", false);
  }
  if (s.has("finance_months")) {
    f.financed = true;
    f.term_months = *s.count("finance_months");
    if (f.term_months > 600)
      throw usage_error(fmt::format("{} must be at most 600 (got {})", s.name("finance_months"),
                                    f.term_months));
  }
  if (s.has("hybrid_owned_fraction"))
    c.in.hybrid_owned_fraction = share("hybrid_owned_fraction", false);
  const bool compared = c.in.compare.owning();
  const bool run_length = s.has("gpu_hours") || s.has("hours") || s.has("model");
  for (const char* key : {"residual", "useful_life_years", "finance_rate", "finance_months",
                          "hybrid_owned_fraction"})
    if (s.has(key) && !compared)
      throw usage_error(fmt::format("{} is for the comparison over a horizon: add --compare "
                                    "cloud or onprem",
                                    s.name(key)));
  // Without a comparison the horizon and the occupancy only give a run its length (--gpus N
  // --months M --occupancy O): with a run length they would say nothing.
  if (!compared && run_length)
    for (const char* key : {"months", "years", "occupancy", "utilization"})
      if (s.has(key))
        throw usage_error(fmt::format(
            "{} is the compared fleet's ({}): add --compare cloud or onprem{}", s.name(key),
            std::string_view(key) == "months" || std::string_view(key) == "years"
                ? "its horizon"
                : "the share of the horizon's hours it is busy",
            std::string_view(key) == "utilization" || std::string_view(key) == "occupancy"
                ? "; how hard a busy GPU works (its power) is --duty"
                : ""));
  // The occupancy follows from a run given with a horizon: giving it too would count the hours
  // twice.
  if (c.in.horizon_months > 0 && run_length && !hours_are_the_horizon(s))
    for (const char* key : {"occupancy", "utilization"})
      if (s.has(key))
        throw usage_error(fmt::format(
            "{} and {} both set the occupancy: over {} the run's GPU-hours give it, so drop {}",
            s.name(key), s.has("model") ? s.name("model")
                                        : s.name(s.has("gpu_hours") ? "gpu_hours" : "hours"),
            s.name(s.has("months") ? "months" : "years"), s.name(key)));
}

/// The fleet's occupancy over the horizon: derived from the run (its GPU-hours over the fleet's
/// hours) when a horizon is given with a run length; otherwise the run must fit in the hours
/// the fleet is busy at the occupancy given.
void fit_run_in_horizon(const settings& s, cost_setup& c, const cost_report& probe) {
  if (!c.in.compare.owning()) return;
  const run_usage& u = probe.run.usage;
  if (c.in.serving) return;  // held every hour of its months: the occupancy as given
  // the GPUs compared: the run's, or unknown_fleet_gpus (one server) when it gives none
  const int gpus = u.gpus > 0 ? u.gpus : unknown_fleet_gpus;
  const int months = c.in.horizon_months > 0 ? c.in.horizon_months : probe.horizon->months;
  const double fleet_hours = gpus * (months * (1.0 * units::month).in(units::h));
  const double used = u.gpu_time.in(units::h);
  const bool derived = c.in.horizon_months > 0 &&
                       (s.has("gpu_hours") || s.has("hours") || s.has("model"));
  const std::string run = s.has("gpu_hours") ? s.name("gpu_hours")
                          : s.has("hours")   ? fmt::format("{} x {}", s.name("gpus"), s.name("hours"))
                                             : s.has("model") ? s.name("model") : s.name("gpus");
  if (derived) {
    if (used > fleet_hours * (1 + 1e-9))
      throw usage_error(fmt::format(
          "{} ({:.0f} GPU-hours) is more than {} GPUs give over {} ({} months, {:.0f} "
          "GPU-hours): lengthen the horizon{}",
          run, used, gpus, s.name(s.has("months") ? "months" : "years"), months, fleet_hours,
          u.gpus > 0 ? "" : " or give --gpus (one server's 8 are compared without it)"));
    c.in.fleet_utilization = used / fleet_hours;
    return;
  }
  const double busy = c.in.fleet_utilization * fleet_hours;
  if (used > busy * (1 + 1e-9)) {
    const bool given = s.has("utilization") || s.has("occupancy");
    const std::string occ = s.has("utilization") ? s.name("utilization") : s.name("occupancy");
    throw usage_error(fmt::format(
        "{} ({:.0f} GPU-hours) is more than the fleet of {} GPUs is busy at {} {:g} over {} "
        "months ({:.0f} GPU-hours): give the horizon with --months or --years (the occupancy "
        "then follows from the run){}",
        run, used, gpus, given ? occ : "occupancy", c.in.fleet_utilization, months, busy,
        given ? fmt::format(", or drop {}", occ) : std::string()));
  }
}

/// --pue, --rack-budget-kw, --cooling, --electricity-price over the book's site.
void read_facility(const settings& s, cost_setup& c) {
  site_spec& site = c.in.pricing.site;
  if (s.has("pue")) {
    const double pue = *s.number("pue");
    if (!(pue >= 1 && pue <= 5))
      throw usage_error(fmt::format("{} must be between 1 and 5 (facility power / IT power; got {})",
                                    s.name("pue"), pue));
    site.pue = pue;
  }
  const bool gpus_known = c.in.training || c.in.serving || c.in.usage.gpus > 0;
  for (const char* facility : {"rack_budget_kw", "cooling"})
    if (s.has(facility) && !gpus_known)
      throw usage_error(fmt::format("{} places the run's nodes in racks: give --gpus (or price a "
                                    "modelled run or a serving deployment)",
                                    s.name(facility)));
  if (s.has("rack_budget_kw")) {
    const double kw = *s.number("rack_budget_kw");
    if (!(kw > 0 && kw <= 10000))
      throw usage_error(fmt::format("{} must be above 0 and at most 10000 kW (got {:g})",
                                    s.name("rack_budget_kw"), kw));
    site.rack_budget = kw * units::kW;
  }
  if (s.has("cooling")) {
    const std::string k = *s.text("cooling");
    if (!parse_enum(k, site.cooling))
      throw usage_error(fmt::format("{} '{}': expected {}", s.name("cooling"), k,
                                    names_text<cooling_kind>()));
  }
  if (s.has("electricity_price")) {
    const double price = *s.number("electricity_price");
    if (!(price >= 0) || !std::isfinite(price))
      throw usage_error(fmt::format("{} must be a price in $ per kWh, not negative (got {})",
                                    s.name("electricity_price"), price));
    site.electricity = price * units::usd_per_kWh;
  }
}

/// --carbon-intensity or --region over the book's grid, and where it came from.
void read_grid(const settings& s, cost_setup& c) {
  site_spec& site = c.in.pricing.site;
  if (c.book.site_from_file) c.in.sources.grid = c.book.origin + " site";
  if (s.has("carbon_intensity")) {
    const double ci = *s.number("carbon_intensity");
    if (!(ci >= 0 && ci <= 2))
      throw usage_error(fmt::format("{} must be in kg CO2e per kWh, between 0 and 2 (got {})",
                                    s.name("carbon_intensity"), ci));
    site.grid = ci * units::kgCO2e_per_kWh;
    c.in.sources.grid = s.name("carbon_intensity");
  }
  if (s.has("region")) {
    const std::string name = *s.text("region");
    const grid_region* g = catalog::find_grid(name);
    if (g == nullptr) {
      std::string list;
      for (const grid_region& x : catalog::all_grids)
        list += (list.empty() ? "" : ", ") + std::string(x.name.view());
      throw usage_error(fmt::format("unknown grid region '{}' (known: {})", name, list));
    }
    site.grid = g->intensity;
    c.in.sources.grid = fmt::format("region {}, {}", g->name.view(), g->year);
  }
  site.validate();
}

/// --embodied, --compare and --demand.
void read_comparisons(const settings& s, cost_setup& c) {
  c.in.pricing.embodied = s.flag("embodied").value_or(false);
  const assumption_set a = assumptions_from(s);
  c.in.pricing.power_model = a.energy;
  c.in.pricing.embodied_inputs = a.carbon;
  cost_comparisons& compare = c.in.compare;
  if (s.has("compare")) {
    for (const std::string& item : list_items(*s.text("compare"), s.name("compare"))) {
      if (item == "cloud")
        compare.cloud = true;
      else if (item == "onprem")
        compare.onprem = true;
      else if (item == "hybrid")
        compare.hybrid = true;
      else
        throw usage_error(fmt::format("{}: '{}' is not one of cloud, onprem, hybrid",
                                      s.name("compare"), item));
    }
  }
  if (s.has("demand")) {
    if (!compare.hybrid)
      throw usage_error(fmt::format("{} is for --compare hybrid", s.name("demand")));
    c.in.demand = parse_demand(*s.text("demand"), s.name("demand"));
  } else if (compare.hybrid) {
    throw usage_error("--compare hybrid needs --demand (GPUs needed in each hour, e.g. 24 values)");
  }
}

/// A provider the book does not list (a typo, "aws " or "AWS" aside: names fold case) matched no
/// entry and left the price unknown with exit 0: refuse it, naming the providers it has.
void check_provider(const settings& s, const cost_setup& c) {
  if (c.provider.empty()) return;
  std::vector<std::string> known;
  bool listed = false;
  for (const cloud_price& p : c.book.cloud) {
    const std::string name(p.provider.view());
    if (std::find(known.begin(), known.end(), name) == known.end()) known.push_back(name);
    listed = listed || gpuplan::detail::same_folded_name(p.provider.view(), c.provider);
  }
  if (!listed)
    throw usage_error(fmt::format("{} '{}': {} has no price from this provider (it has: {})",
                                  s.name("provider"), c.provider, c.book.origin,
                                  fmt::join(known, ", ")));
}

/// The notes printed beside the report: the step-time model's estimates for a modelled run, a
/// rate above what the deployment serves, book entries that price no catalog GPU.
std::vector<std::string> cost_notes(const settings& s, const cost_setup& c, const cost_report& r) {
  // A modelled run's GPU time rests on the step-time model's efficiency for its GPU.
  const estimate_notes notes = c.modelled ? step_estimates(c.modelled->plan) : estimate_notes{};
  std::vector<std::string> lines = warning_lines(notes);
  // A serving deployment asked for more requests than it serves: the month is priced at its full
  // throughput, and the rest of the demand would queue without bound.
  if (r.serving && r.serving->point.saturated && r.inputs.serving->rate.value > 0.0)
    lines.push_back(fmt::format(
        "{} {:g} requests/s is more than the deployment serves ({:.3g} requests/s with {} "
        "replica(s)): the cost per token is at its full throughput and the rest of the demand "
        "queues; size it with gpuplan capacity",
        s.name("rate"), r.inputs.serving->rate.in(units::request / units::s),
        r.serving->point.requests_per_s.in(units::request / units::s), r.serving->replicas));
  // A book entry whose GPU is no catalog GPU's name or alias (a typo, "H100-SXM") prices nothing
  // but a --gpu spec of that very name: say so rather than let it be silently ignored.
  if (s.has("prices"))
    for (const cloud_price& p : c.book.cloud) {
      bool known = prices_gpu(p, r.run.usage.gpu);
      for (const gpu_spec& g : catalog::all_gpus) known = known || prices_gpu(p, g);
      if (!known)
        lines.push_back(fmt::format(
            "{}: entry {} {} prices GPU '{}', which is no catalog GPU's name or alias (gpuplan "
            "gpus lists them): it applies only to a --gpu spec of that name",
            c.book.origin, p.provider.view(), p.instance.view(), p.gpu.view()));
    }
  return lines;
}

/// --chart FILE: the comparison's cumulative costs drawn (usage_error without a comparison).
std::optional<chart::file_result> draw_chart(const settings& s, const cost_report& r) {
  const std::optional<std::string> file = s.text("chart");
  if (!file) return std::nullopt;
  if (!r.comparison)
    throw usage_error(fmt::format("{} draws a comparison: add --compare cloud or onprem",
                                  s.name("chart")));
  return chart::render_file(cumulative_chart(*r.comparison, *r.horizon), *file, s.name("chart"));
}

/// Prints the report (text, or JSON with the notes as "warnings"); the exit status: 1 when
/// --require-fit finds the modelled plan does not fit in memory, else 0.
int print_report(const cost_command& cmd, const cost_setup& c, const cost_report& r,
                 const std::optional<chart::file_result>& drawn,
                 const std::vector<std::string>& notes) {
  const int status = cmd.require_fit && !r.fits() ? 1 : 0;
  if (cmd.json) {
    nlohmann::json j = io::to_json(r, c.book);
    if (drawn) j["chart"] = drawn->drawn ? drawn->image.string() : drawn->script.string();
    j["warnings"] = notes;
    print_json(std::move(j));
    return status;
  }
  fmt::print("{}", cost_text(r, c.book));
  if (r.training_memory) fmt::print("\n{}\n", memory_verdict_text(*r.training_memory));
  if (r.serving_memory) fmt::print("\n{}\n", memory_verdict_text(*r.serving_memory));
  if (drawn) fmt::print("\n{}\n", drawn->message);
  flush_output();
  for (const std::string& line : notes) fmt::print(stderr, "note: {}\n", line);
  return status;
}

/// Reads the flags into the library's inputs, calls report_cost, prints the report.
int run_cost_command(cost_command& cmd) {
  settings& s = cmd.s;
  s.read_plan();
  cost_setup c;
  if (const std::optional<int> status = read_workload(cmd, c)) return *status;
  read_book_and_node(s, c);
  read_price_and_power(s, c);
  read_facility(s, c);
  read_grid(s, c);
  read_comparisons(s, c);
  check_provider(s, c);
  c.in.pricing.book = c.book.cloud;
  c.in.pricing.provider = c.provider;
  // Energy and carbon need no price: without one the cost is reported unknown (report_cost
  // requires it when a comparison needs it).
  c.in.pricing.require_price = false;
  c.in.sources.price = "--price-per-gpu-hour";
  c.in.sources.rack_budget = "--rack-budget-kw";
  c.in.sources.cooling = "--cooling";
  read_horizon(s, c);
  if (c.in.compare.owning()) fit_run_in_horizon(s, c, report_cost(c.in));
  const cost_report r = report_cost(c.in);
  const std::optional<chart::file_result> drawn = draw_chart(s, r);
  return print_report(cmd, c, r, drawn, cost_notes(s, c, r));
}

}  // namespace

command add_cost_command(CLI::App& app) {
  auto cmd = std::make_shared<cost_command>();
  CLI::App* sub = &app;
  const std::vector<field> training = without_dtype(training_fields());
  const std::vector<field> serve_load = without_dtype(serve_load_fields());
  cmd->s.add(sub, {model_fields(), gpu_fields(), node_fields(), layout_fields(), training,
                   train_run_fields(), step_assumption_fields(), serving_fields(), serve_load,
                   serve_point_fields(), std::span<const field>(workload_table),
                   std::span<const field>(cost_table), assumption_fields()});
  // fit's --batch/--context are no serving deployment's load (they were read and ignored).
  for (const char* key : {"batch", "context"})
    cmd->s.refuse(sub, key,
                  "is fit's; cost of a serving deployment takes --concurrency or --rate, "
                  "--input-len and --output-len");
  cmd->s.add_plan_option(sub);
  sub->add_flag("--json", cmd->json, "Print the report as JSON (docs/json-schema.md)");
  add_require_fit_flag(sub, cmd->require_fit);
  return {sub, [cmd] { return run_cost_command(*cmd); }, [cmd] { return &cmd->s; }};
}

}  // namespace gpuplan::cli
