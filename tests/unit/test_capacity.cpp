// Capacity plan: replicas for a demand at a wait SLO, utilisation bands, growth, options,
// owned base + cloud burst, training capacity; the whole plan checked against a discrete-event
// simulation of the same fleet (tests/queue_sim.hpp).
#include "../catch.hpp"
#include "../queue_sim.hpp"

#include <gpuplan/gpuplan.hpp>
#include <gpuplan/catalog/prices.hpp>  // not in the umbrella (dated market data)
#include <gpuplan/plan/capacity.hpp>  // not in the umbrella (heavy)
#include <gpuplan/plan/training_capacity.hpp>  // not in the umbrella (heavy)
#include <gpuplan/plan/capacity_report.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

using namespace gpuplan;

namespace {
constexpr request_rate per_s(double r) { return r * units::request / units::s; }

// An LLM replica: 2 requests/s at its latency SLO, 4 s per request (8 in flight), service CV 0.8.
constexpr replica_capacity llm{.rate = 2 * units::request / units::s,
                               .mean_service = 4 * units::s,
                               .service_cv = 0.8,
                               .gpus = 2};
}  // namespace

TEST_CASE("Replica slots from Little's law", "[capacity]") {
  STATIC_REQUIRE(llm.slots() == 8);
  CHECK(llm.slot_service().in(units::s) == Approx(4.0));
  // 3 req/s x 0.5 s = 1.5 in flight: one slot whose service time keeps the 3 req/s throughput.
  constexpr replica_capacity r{.rate = 3 * units::request / units::s,
                               .mean_service = 0.5 * units::s};
  STATIC_REQUIRE(r.slots() == 1);
  CHECK(r.slot_service().in(units::s) == Approx(1.0 / 3.0));
}

TEST_CASE("Capacity plan: replicas at the peak, bands, growth, fleet running out", "[capacity]") {
  const capacity_request q{.demand = {.mean = per_s(30), .peak_factor = 1.6},
                           .replica = llm,
                           .slo = {.max_wait = 2 * units::s, .percentile = 0.99},
                           .monthly_growth = 0.10,
                           .months = 12,
                           .current_replicas = 30};
  const capacity_plan p = plan_capacity(q);
  // Peak 48 req/s needs more than 48 / 2 = 24 replicas; the SLO is met, one fewer does not.
  CHECK(p.replicas > 24);
  CHECK(p.gpus == 2 * p.replicas);
  CHECK(p.at_peak.wait_percentile(0.99) <= 2 * units::s);
  queue_model fewer = detail::fleet_queue(llm, 1.0, per_s(48), p.replicas - 1);
  CHECK(analyze_queue(fewer).wait_percentile(0.99) > 2 * units::s);
  CHECK(p.peak_utilization == Approx(48.0 / (2.0 * p.replicas)));
  CHECK(p.mean_utilization == Approx(30.0 / (2.0 * p.replicas)));
  CHECK(p.peak_band == utilization_bands{}.classify(p.peak_utilization));
  CHECK(p.replicas_at_mean < p.replicas);
  // 200 slots meet a 2 s p99 at 96% (pooling): the plan says so, and gives the band's count.
  CHECK(p.peak_band == utilization_band::overload);
  CHECK(p.replicas_in_band == 27);  // ceil(48 / (2 x 0.9)) = ceil(26.7)
  // Growth: 10%/month compounding; replicas never fall; month 12 demand = 30 x 1.1^12.
  REQUIRE(p.growth_rows == 13);
  CHECK(p.growth[12].mean.in(units::requests_per_s) == Approx(30 * 3.138428376721));
  for (int m = 1; m < 13; ++m) CHECK(p.growth[m].replicas >= p.growth[m - 1].replicas);
  CHECK(p.growth[0].replicas == p.replicas);
  // Today's fleet of 30 replicas runs out in the first month whose plan needs more than 30.
  REQUIRE(p.fleet_runs_out_month > 0);
  CHECK(p.growth[p.fleet_runs_out_month].replicas > 30);
  CHECK(p.growth[p.fleet_runs_out_month - 1].replicas <= 30);
  // The month today's fleet passes 90% at the peak (the top of the healthy band).
  REQUIRE(p.fleet_leaves_band_month >= 0);
  CHECK(p.growth[p.fleet_leaves_band_month].fleet_peak_utilization > 0.9);
  CHECK(p.growth[p.fleet_leaves_band_month - 1].fleet_peak_utilization <= 0.9);
  // No price, no cost.
  CHECK(p.cost_at_peak.value == 0.0);
  CHECK_THROWS_AS(plan_capacity({.demand = {.mean = per_s(30), .peak_factor = 0.5},
                                 .replica = llm}),
                  invalid_input);
  CHECK_THROWS_AS(plan_capacity({.demand = {.mean = per_s(30)}, .replica = llm, .months = 121}),
                  invalid_input);
}

TEST_CASE("Capacity plan: slots, fleet and GPU counts are bounded, not wrapped", "[capacity]") {
  const capacity_request base{.demand = {.mean = per_s(30)},
                              .replica = llm,
                              .slo = {.max_wait = 2 * units::s, .percentile = 0.99},
                              .months = 0};
  // 2^31 x 4 s of slots wrapped int to 0, then divided by (SIGFPE); 1e8 x 4 s ran for minutes
  for (const double rate : {2147483648.0, 1e8}) {
    capacity_request q = base;
    q.replica.rate = per_s(rate);
    CHECK_THROWS_WITH(plan_capacity(q), Catch::Matchers::Contains("replica_capacity::max_slots"));
  }
  capacity_request at_bound = base;  // exactly max_slots slots: planned
  at_bound.replica.rate = per_s(replica_capacity::max_slots / 4.0);
  CHECK(plan_capacity(at_bound).slots_per_replica == 65536);
  // a demand needing more servers than the search covers is refused before the search
  capacity_request busy = base;
  busy.demand.mean = per_s(1e7);
  CHECK_THROWS_WITH(plan_capacity(busy), Catch::Matchers::Contains("max_fleet_slots"));
  // GPU counts multiply in long long: replicas of 2^24 GPUs pass int's range past 127 of them
  // (--gpus-per-replica 1e9 printed "-1179869184 GPUs")
  capacity_request wide = base;
  wide.demand.mean = per_s(300);  // 2 req/s per replica: over 150 replicas
  wide.replica.gpus = replica_capacity::max_gpus;
  const capacity_plan w = plan_capacity(wide);
  REQUIRE(w.replicas > 127);
  CHECK(w.gpus == 1LL * w.replicas * (1 << 24));
  wide.replica.gpus = replica_capacity::max_gpus + 1;
  CHECK_THROWS_AS(plan_capacity(wide), invalid_input);
  capacity_request bursty = base;
  bursty.demand.arrival_cv = 1e9;
  CHECK_THROWS_WITH(plan_capacity(bursty), Catch::Matchers::Contains("queue_model::max_cv"));
}

TEST_CASE("Capacity plan agrees with a simulation of the same fleet", "[capacity][simulation]") {
  // The plan's fleet at the peak, simulated request by request: replicas x 8 slots, each slot
  // serving one request (mean 4 s, CV 0.8), Poisson arrivals at 48 req/s. The plan's p99 wait
  // (Allen-Cunneen) and utilisation must agree with the simulation within a few percent, the
  // simulated p99 must meet the SLO, and one replica fewer must miss it in simulation too.
  const capacity_request q{.demand = {.mean = per_s(30), .peak_factor = 1.6},
                           .replica = llm,
                           .slo = {.max_wait = 2 * units::s, .percentile = 0.99},
                           .months = 0};
  const capacity_plan p = plan_capacity(q);
  const int servers = p.replicas * llm.slots();
  const gpuplan_test::sim_estimate e =
      gpuplan_test::replicate_queue(48.0, 4.0, servers, 1.0, 0.8, 200000, 4242, 8);
  INFO("replicas " << p.replicas << " (" << servers << " slots): plan p_wait "
                   << p.at_peak.p_wait << " p99 " << p.at_peak.wait_percentile(0.99).in(units::s)
                   << " util " << p.peak_utilization << "; simulation p_wait " << e.mean.p_wait
                   << " p99 " << e.mean.p99_wait << " +- " << e.stderr_.p99_wait << " util "
                   << e.mean.utilization);
  CHECK(e.mean.utilization == Approx(p.peak_utilization).epsilon(0.01));
  CHECK(e.mean.p_wait == Approx(p.at_peak.p_wait).epsilon(0.05));
  CHECK(e.mean.p99_wait <= 2.0 * 1.05);
  const gpuplan_test::sim_estimate fewer =
      gpuplan_test::replicate_queue(48.0, 4.0, servers - llm.slots(), 1.0, 0.8, 200000, 99, 8);
  CHECK(fewer.mean.p99_wait > 2.0);

  SECTION("a tight SLO, where one replica fewer is still stable") {
    // p99 wait <= 0.1 s with replicas of one slot each (1 req/s, 1 s, CV 0.8) at 20 req/s.
    const replica_capacity one{.rate = per_s(1), .mean_service = 1 * units::s, .service_cv = 0.8};
    const capacity_plan t = plan_capacity({.demand = {.mean = per_s(20)},
                                           .replica = one,
                                           .slo = {.max_wait = 0.1 * units::s},
                                           .months = 0});
    const queue_metrics less = analyze_queue(detail::fleet_queue(one, 1.0, per_s(20), t.replicas - 1));
    REQUIRE(less.stable);
    const gpuplan_test::sim_estimate at =
        gpuplan_test::replicate_queue(20.0, 1.0, t.replicas, 1.0, 0.8, 200000, 5, 8);
    const gpuplan_test::sim_estimate below =
        gpuplan_test::replicate_queue(20.0, 1.0, t.replicas - 1, 1.0, 0.8, 200000, 55, 8);
    INFO("replicas " << t.replicas << ": plan p99 " << t.at_peak.wait_percentile(0.99).in(units::s)
                     << " sim " << at.mean.p99_wait << "; one fewer: plan "
                     << less.wait_percentile(0.99).in(units::s) << " sim " << below.mean.p99_wait);
    CHECK(at.mean.p99_wait <= 0.1 * 1.05);
    CHECK(below.mean.p99_wait > 0.1);
    CHECK(less.wait_percentile(0.99).in(units::s) == Approx(below.mean.p99_wait).epsilon(0.10));
  }
}

TEST_CASE("Hourly profile, owned base and cloud burst priced by the cost model",
          "[capacity][burst]") {
  // A diurnal profile: 10 req/s at night, 40 at the day's peak.
  request_rate hours[24]{};
  for (int h = 0; h < 24; ++h) hours[h] = per_s(h < 8 ? 10 : (h < 18 ? 40 : 20));
  const demand_profile d = demand_profile::from_hourly(hours);
  CHECK(d.mean.in(units::requests_per_s) == Approx((8 * 10 + 10 * 40 + 6 * 20) / 24.0));
  CHECK(d.peak().in(units::requests_per_s) == Approx(40.0));
  const capacity_request q{.demand = d,
                           .replica = llm,
                           .slo = {.max_wait = 1 * units::s, .percentile = 0.99},
                           .months = 0};
  const capacity_plan p = plan_capacity(q);
  REQUIRE(p.has_hours);
  CHECK(p.hours[12].replicas == p.replicas);
  CHECK(p.hours[2].replicas < p.replicas);
  // Owned DGX H100 servers at the cost model's defaults (onprem_costs, site), cloud at the
  // default book's cheapest on-demand H100 SXM price.
  const onprem_fleet owned{.node = catalog::dgx_h100, .gpus = 8};
  const money_rate cloud = cloud_rate(catalog::default_prices, catalog::h100_sxm,
                                      price_term::on_demand);
  const hybrid_capacity h = plan_hybrid_capacity(p, q, owned, cloud);
  // The same split from the cost model directly, on the hourly GPU demand built here.
  double gpus[24]{};
  for (int i = 0; i < 24; ++i) gpus[i] = p.hours[i].replicas * 2.0;
  const hybrid_plan direct = plan_hybrid(gpus, {.node = catalog::dgx_h100, .gpus = 8}, cloud);
  CHECK(h.cost.base_gpus == direct.base_gpus);
  CHECK(h.cost.hybrid == direct.hybrid);
  CHECK(h.cost.base_gpus % 8 == 0);  // whole servers
  CHECK(h.base_replicas == h.cost.base_gpus / 2);
  CHECK(h.cost.hybrid <= h.cost.all_cloud);
  CHECK(h.cost.hybrid <= h.cost.all_onprem);
  CHECK(h.peak_cloud_replicas == std::max(0, p.replicas - h.base_replicas));
  CHECK(h.option.priced);
  CHECK(h.option.gpus == h.cost.base_gpus);
  CHECK(h.option.cost.in(units::usd_per_h) == Approx(h.cost.hybrid.in(units::usd) / 24.0));
  // Hand check of the owned GPU-hour: capex / 36 months + colocation on provisioned power, per
  // GPU-hour; owning an hour's GPUs all day beats renting them only if they are needed more
  // than owned_hour x 24 / cloud hours. The night level is needed all 24 hours: owned when
  // owning is cheaper than cloud, i.e. always here, so the base covers it.
  const onprem_month m = onprem_month_costs({.node = catalog::dgx_h100, .gpus = 8});
  const money_rate owned_hour =
      (m.amortisation + m.maintenance + m.colocation + m.energy_idle) / (8.0 * units::month);
  REQUIRE(owned_hour < cloud);
  CHECK(h.cost.base_gpus >= p.hours[2].replicas * 2);
  // A cloud price below the owned GPU-hour: rent everything.
  const hybrid_capacity cheap = plan_hybrid_capacity(p, q, owned, 0.5 * owned_hour);
  CHECK(cheap.cost.base_gpus == 0);
  CHECK(cheap.cost.hybrid == cheap.cost.all_cloud);
  const capacity_plan flat = plan_capacity({.demand = {.mean = per_s(30)}, .replica = llm});
  CHECK_THROWS_AS(plan_hybrid_capacity(flat, q, owned, cloud), invalid_input);
  // A replica of two servers (16 GPUs): the owned base holds whole replicas, never one server of
  // a replica with the other half in the cloud (the base used to be any multiple of 8 GPUs)
  capacity_request wide = q;
  wide.replica.gpus = 16;
  const capacity_plan pw = plan_capacity(wide);
  const hybrid_capacity hw = plan_hybrid_capacity(pw, wide, owned, cloud);
  CHECK(hw.cost.base_gpus % 16 == 0);
  CHECK(hw.base_replicas * 16 == hw.cost.base_gpus);
  CHECK(hw.base_replicas > 0);  // owning still pays for the night level
  double wide_gpus[24]{};
  for (int i = 0; i < 24; ++i) wide_gpus[i] = pw.hours[i].replicas * 16.0;
  CHECK(hw.cost.base_gpus ==
        plan_hybrid(wide_gpus, {.node = catalog::dgx_h100, .gpus = 8}, cloud, 16).base_gpus);
  CHECK_THROWS_WITH(plan_hybrid(wide_gpus, owned, cloud, -1), Catch::Contains("base_unit"));
  // The split ranks among the other options by cost.
  option_result ranked[2] = {{.name = "cloud, sized to the peak",
                              .replicas = p.replicas,
                              .gpus = p.gpus,
                              .cost = p.gpus * cloud,
                              .priced = true},
                             h.option};
  sort_options(ranked);
  CHECK(ranked[0].cost <= ranked[1].cost);
}

TEST_CASE("Options ranked: more of the same, a bigger GPU, MIG slices", "[capacity][options]") {
  const capacity_request q{.demand = {.mean = per_s(20), .peak_factor = 1.5},
                           .slo = {.max_wait = 0.5 * units::s, .percentile = 0.99}};
  // Illustrative capacities (inputs, as the serving model would supply them).
  const capacity_option opts[] = {
      {.name = "H100 x1",
       .replica = {.rate = per_s(4), .mean_service = 2 * units::s},
       .replica_price = 3 * units::usd_per_h},
      {.name = "H200 x1",
       .replica = {.rate = per_s(6), .mean_service = 2 * units::s},
       .replica_price = 4 * units::usd_per_h},
      {.name = "H100 MIG 3g.40gb",
       .replica = {.rate = per_s(1.5), .mean_service = 2.5 * units::s},
       .replicas_per_gpu = 2,
       .replica_price = 1.5 * units::usd_per_h},
  };
  option_result out[3]{};
  CHECK(rank_options(q, opts, out) == 3);
  for (int i = 1; i < 3; ++i) CHECK(out[i - 1].cost <= out[i].cost);
  for (const option_result& r : out) {
    CHECK(r.wait_at_percentile <= 0.5 * units::s);
    CHECK(r.cost == r.replicas * (r.name.view() == "H100 x1"            ? 3 * units::usd_per_h
                                  : r.name.view() == "H200 x1"          ? 4 * units::usd_per_h
                                                                        : 1.5 * units::usd_per_h));
    if (r.name.view() == "H100 MIG 3g.40gb") CHECK(r.gpus == (r.replicas + 1) / 2);
  }
}

TEST_CASE("Training capacity: GPUs for a token budget by a deadline", "[capacity][training]") {
  // 15T tokens in 60 days at 3,000 tokens/s per GPU and 90% goodput:
  // 15e12 / (3000 x 5,184,000 x 0.9) = 1071.7 GPUs -> 1072 -> 1072 (a multiple of 8).
  const training_capacity t =
      plan_training_capacity(15 * units::Ttoken, 60 * units::d, 3000 * units::tokens_per_s);
  CHECK(t.exact_gpus == Approx(15e12 / (3000.0 * 60 * 86400 * 0.9)));
  CHECK(t.gpus == 1072);
  CHECK(t.time_to_train <= 60 * units::d);
  CHECK(t.time_to_train.in(units::d) == Approx(60 * t.exact_gpus / 1072));
  const training_capacity one = plan_training_capacity(
      1 * units::Btoken, 1 * units::d, 1e6 * units::tokens_per_s, {.gpu_multiple = 1});
  CHECK(one.gpus == 1);
  CHECK_THROWS_AS(plan_training_capacity(1 * units::Btoken, 0 * units::d,
                                         1 * units::tokens_per_s),
                  invalid_input);
}

TEST_CASE("Training capacity from the training model: GPUs by a deadline", "[capacity][training]") {
  // Llama 3.1 8B on DGX H100, tp 1, global batch 512 x 8192 tokens (4M), micro-batch 1.
  training_plan base{.model = catalog::llama31_8b, .node = catalog::dgx_h100};
  base.layout = {.dp = 8};
  base.config.micro_batch = 1;
  base.config.seq = 8192;
  base.config.global_batch = 512;
  base.config.recompute = recompute_mode::selective;
  const token_count tokens = 1 * units::Ttoken;
  // The time the model gives at 64 GPUs (dp 64), as the deadline: dp 64 must be the answer.
  training_plan at64 = scale_plan(base, 64, scaling_mode::strong).plan;
  auto reserved = [&](const training_plan& q) {
    return reliability_for({}, q.layout.gpus(), time_to_train(q, tokens), checkpoint_size(q)).wall;
  };
  const duration t64 = reserved(at64);
  const training_gpus g = plan_training_gpus(base, tokens, t64);
  REQUIRE(g.met);
  CHECK(g.dp <= 64);
  CHECK(g.wall_time <= t64);
  CHECK(g.gpus == g.dp);
  CHECK(g.nodes == (g.gpus + 7) / 8);
  CHECK(512 % g.dp == 0);  // strong scaling: dp divides the batch
  // the next smaller divisor of 512 misses the deadline
  int smaller = g.dp - 1;
  while (smaller > 0 && 512 % smaller != 0) --smaller;
  if (smaller > 0) CHECK(reserved(scale_plan(base, smaller, scaling_mode::strong).plan) > t64);
  CHECK(g.reliability.ettr < 1.0);  // failures and checkpoints counted
  CHECK(g.wall_time == reserved(g.plan));
  // A deadline no count meets: not met, the fastest reported.
  const training_gpus none = plan_training_gpus(base, tokens, 1 * units::s);
  CHECK_FALSE(none.met);
  CHECK(none.dp == 512);
  // Weak scaling (the batch grows with dp) searched by bisection gives the smallest dp too.
  training_plan weak = base;
  weak.config.global_batch = 0;
  weak.layout.dp = 1;
  const training_gpus w = plan_training_gpus(weak, tokens, 30 * units::d, scaling_mode::weak);
  REQUIRE(w.met);
  CHECK(w.wall_time <= 30 * units::d);
  if (w.dp > 1)
    CHECK(reserved(scale_plan(weak, w.dp - 1, scaling_mode::weak).plan) > 30 * units::d);
  CHECK_THROWS_AS(plan_training_gpus(base, tokens, 0 * units::s), invalid_input);
  // tp 0 made tp x pp x cp zero and max_gpus / (tp x pp x cp) a division by zero (SIGFPE)
  training_plan no_tp = base;
  no_tp.layout.tp = 0;
  CHECK_THROWS_WITH(plan_training_gpus(no_tp, tokens, t64), Catch::Contains("layout.tp"));
  // micro_batch 0 with no global batch made the batch 0: no dp was tried and "not met" came back
  training_plan no_batch = base;
  no_batch.config.global_batch = 0;
  no_batch.config.micro_batch = 0;
  CHECK_THROWS_WITH(plan_training_gpus(no_batch, tokens, t64), Catch::Contains("micro_batch"));
  // Weak scaling of a 4096-sequence batch from dp 1: past dp 524288 the batch is more than an int
  // holds (the cast came back as -2^31, the point invalid, and the report repeated a stale one).
  training_plan big = weak;
  big.config.global_batch = 4096;
  CHECK_THROWS_WITH(scale_plan(big, 1 << 20, scaling_mode::weak),
                    Catch::Matchers::Contains("weak-scaled global batch"));
  const training_gpus far = plan_training_gpus(big, tokens, 1 * units::s, scaling_mode::weak);
  CHECK_FALSE(far.met);
  CHECK(far.global_batch > 0);
  CHECK(far.dp == far.global_batch / 4096);
  // the doubling stops at the largest dp whose batch fits (2^31 - 1 sequences / 4096, rounded
  // down: 524,287); the report is the fastest miss, which the failures of half a million GPUs
  // make a smaller one (at 524,287 GPUs the job fails every 6 s: no progress at all)
  CHECK(far.dp < 524287);
  CHECK(far.reliability.feasible);
  CHECK(is_finite(far.wall_time));
  training_plan huge = scale_plan(big, 524287, scaling_mode::weak).plan;
  CHECK_FALSE(estimate_reliability({}, huge.layout.gpus(), 1.0 * units::d, checkpoint_size(huge)).feasible);
  // with the reliability model off, the largest is the fastest
  training_capacity_assumptions off;
  off.reliability.enabled = false;
  const training_gpus no_failures = plan_training_gpus(big, tokens, 1 * units::s, scaling_mode::weak, off);
  CHECK(no_failures.reliability.ettr == 1.0);
  CHECK(no_failures.wall_time <= far.wall_time);
}

TEST_CASE("Service-time spread: hand computation", "[capacity][serving]") {
  // Two classes of equal share taking 2 s and 6 s, and a wait of mean 0.5 s that is non-zero
  // with probability rho = 0.5 (then exponential of mean 1 s):
  // Var(base) = 4, E[W^2] = 2 x 0.5^2 / 0.5 = 1, Var(W) = 1 - 0.25 = 0.75: sd = sqrt(4.75).
  const double base[] = {2.0, 6.0}, w[] = {1.0, 1.0};
  constexpr detail::queue_wait qw{.mean = 0.5 * units::s, .rho = 0.5};
  CHECK(detail::service_spread(base, w, 2, qw) == Approx(2.1794494717703369).epsilon(1e-12));
  constexpr detail::queue_wait none{};
  CHECK(detail::service_spread(base, w, 2, none) == Approx(2.0).epsilon(1e-12));
  static_assert(detail::csqrt(4.75) > 2.17944947177033 && detail::csqrt(4.75) < 2.17944947177034);
}

TEST_CASE("Service-time CV from the request mix of a serving plan", "[capacity][serving]") {
  // Same prompt, outputs 128 and 384 (mean 256): the step, TPOT and prefill queue are those of
  // the fixed mix 1024/256 (they read the mix's means and the prompts' prefill times), so the
  // variance adds tpot^2 x Var(output) = tpot^2 x 128^2 to the fixed mix's.
  serving_plan p{.model = catalog::llama31_8b, .node = catalog::dgx_h100};
  p.layout = {.tp = 1};
  p.concurrency = 64;
  p.mix = request_mix::fixed(1024, 256);
  const serving_point fixed = serve(p);
  serving_plan mixed = p;
  mixed.mix.classes = {{1024, 128, 1.0}, {1024, 384, 1.0}};
  const serving_point m = serve(mixed);
  CHECK(m.tpot == fixed.tpot);
  CHECK(m.e2e.in(units::s) == Approx(fixed.e2e.in(units::s)).epsilon(1e-12));
  const double tpot = m.tpot.in(units::s);
  const double want = std::sqrt(fixed.e2e_sd.in(units::s) * fixed.e2e_sd.in(units::s) +
                                tpot * tpot * 128.0 * 128.0);
  CHECK(m.e2e_sd.in(units::s) == Approx(want).epsilon(1e-9));
  const replica_capacity r = replica_from_serving(mixed, m);
  CHECK(r.rate == m.requests_per_s);
  CHECK(r.mean_service == m.e2e);
  CHECK(r.service_cv == Approx(want / m.e2e.in(units::s)));
  CHECK(r.gpus == 1);
  CHECK(r.service_cv > replica_from_serving(p, fixed).service_cv);
  // A static batch: every request takes the batch's time.
  serving_plan st = p;
  st.batching = batching_mode::static_batch;
  CHECK(replica_from_serving(st, serve(st)).service_cv == 0.0);
}

TEST_CASE("A plan with the mix's service CV against a simulation of the mix", "[capacity][serving]") {
  // Replicas serve a mix of 70% short requests (2 s) and 30% long ones (12 s): mean 5 s,
  // sd sqrt(0.7 x 9 + 0.3 x 49) = sqrt(21), CV 0.9165 (service_spread with no queue). Each
  // replica sustains 2 req/s (10 slots). The plan with that CV is checked against a simulation
  // whose service times are drawn from the two classes themselves.
  const double base[] = {2.0, 12.0}, w[] = {0.7, 0.3};
  const double cv = detail::service_spread(base, w, 2, {}) / 5.0;
  CHECK(cv == Approx(std::sqrt(21.0) / 5.0));
  const replica_capacity rep{.rate = per_s(2), .mean_service = 5 * units::s, .service_cv = cv};
  const capacity_plan p = plan_capacity({.demand = {.mean = per_s(40)},
                                         .replica = rep,
                                         .slo = {.max_wait = 0.5 * units::s, .percentile = 0.99},
                                         .months = 0});
  const int servers = p.replicas * rep.slots();
  auto mix = [](std::mt19937_64& rng) {
    return gpuplan_test::sampler::uniform(rng) < 0.7 ? 2.0 : 12.0;
  };
  const gpuplan_test::sim_estimate at =
      gpuplan_test::replicate_queue(40.0, mix, servers, 1.0, 200000, 21, 8);
  const gpuplan_test::sim_estimate fewer =
      gpuplan_test::replicate_queue(40.0, mix, servers - rep.slots(), 1.0, 200000, 31, 8);
  const queue_metrics less = analyze_queue(detail::fleet_queue(rep, 1.0, per_s(40), p.replicas - 1));
  INFO("replicas " << p.replicas << " (" << servers << " slots): plan p99 "
                   << p.at_peak.wait_percentile(0.99).in(units::s) << " sim " << at.mean.p99_wait
                   << " (se " << at.stderr_.p99_wait << "); one fewer: plan "
                   << less.wait_percentile(0.99).in(units::s) << " sim " << fewer.mean.p99_wait
                   << " (se " << fewer.stderr_.p99_wait << ")");
  CHECK(at.mean.utilization == Approx(p.peak_utilization).epsilon(0.01));
  CHECK(at.mean.p99_wait <= 0.5 * 1.05);
  CHECK(fewer.mean.p99_wait > 0.5);
  CHECK(less.wait_percentile(0.99).in(units::s) == Approx(fewer.mean.p99_wait).epsilon(0.10));
}

// ---- the capacity report: plan_capacity_report (plan/capacity_report.hpp) --------------------------
//
// The figures are those `gpuplan capacity` printed when it composed the report itself (before the
// composition moved into the library, issue 23): the library call must give the same report.

TEST_CASE("Capacity report: replicas given by their capacities, ranked by cost",
          "[capacity][report]") {
  // gpuplan capacity --hourly 10x8,40x10,20x6 --wait-slo 1 --replica-rate 2 --service-time 4
  //   --price 3 --months 0 --compare 'H200:3:4:1:4.5;H100 MIG 3g.40gb:0.8:5:2:1.6'
  request_rate hours[24]{};
  for (int h = 0; h < 24; ++h) hours[h] = per_s(h < 8 ? 10 : h < 18 ? 40 : 20);
  capacity_question q{};
  q.request.demand = demand_profile::from_hourly(hours);
  q.request.replica = {.rate = per_s(2), .mean_service = 4 * units::s};
  q.request.slo = {.max_wait = 1 * units::s, .percentile = 0.99};
  q.request.months = 0;
  q.request.replica_price = 3 * units::usd_per_h;
  q.compare = std::vector<capacity_option>{
      {.name = name_string::from("H200"),
       .replica = {.rate = per_s(3), .mean_service = 4 * units::s},
       .replica_price = 4.5 * units::usd_per_h},
      {.name = name_string::from("H100 MIG 3g.40gb"),
       .replica = {.rate = per_s(0.8), .mean_service = 5 * units::s},
       .replicas_per_gpu = 2,
       .replica_price = 1.6 * units::usd_per_h}};
  const capacity_report r = plan_capacity_report(q);
  CHECK(r.plan.replicas == 22);
  CHECK(r.plan.replicas_at_mean == 14);
  CHECK(r.plan.replicas_in_band == 23);
  CHECK(r.plan.cost_at_peak.in(units::usd_per_h) == Approx(66.0));
  REQUIRE(r.options.size() == 3);
  CHECK(std::string(r.options[0].name.view()) == "this replica");
  CHECK(std::string(r.options[1].name.view()) == "H200");
  CHECK(r.options[1].replicas == 15);
  CHECK(r.options[1].cost.in(units::usd_per_h) == Approx(67.5));
  CHECK(r.options[2].replicas == 54);
  CHECK(r.options[2].gpus == 27);  // two slices per GPU
  CHECK(r.options[2].cost.in(units::usd_per_h) == Approx(86.4));
  CHECK(r.options[2].wait_at_percentile.in(units::s) == Approx(0.912).margin(0.0005));
  CHECK(r.option_notes.empty());
  CHECK_FALSE(r.hybrid);

  // MIG replicas: 22 replicas of 3g.40gb, two per H100, are 11 physical GPUs
  q.mig = *catalog::find_mig_profile(catalog::h100_sxm, "3g.40gb");
  CHECK(plan_capacity_report(q).physical_gpus == 11);
  // an owned base needs the 24-hour profile
  q.request.demand = {.mean = per_s(25), .peak_factor = 1.6};
  q.hybrid = capacity_hybrid_input{};
  CHECK_THROWS_AS(plan_capacity_report(q), invalid_input);
}

TEST_CASE("Capacity report: a serving plan on other GPUs and on MIG slices",
          "[capacity][report][serving]") {
  // gpuplan capacity --rate 40 --peak-factor 1.5 --wait-slo 1 --months 0 --model Llama-3.1-8B
  //   --gpu h100 --ttft-slo 2 --tpot-slo 0.05 --compare-gpus h200,a100-80gb --compare-mig
  const serving_plan plan{.model = catalog::llama31_8b, .node = single_gpu_node(catalog::h100_sxm)};
  capacity_question q{};
  q.request.demand = {.mean = per_s(40), .peak_factor = 1.5};
  q.request.slo = {.max_wait = 1 * units::s, .percentile = 0.99};
  q.request.months = 0;
  q.serving = serving_replica(plan, {.ttft = 2 * units::s, .tpot = 0.05 * units::s});
  REQUIRE(q.serving->best.found);
  REQUIRE(q.serving->price != nullptr);
  CHECK(q.serving->best.best.concurrency == Approx(256.0));  // vLLM's max_num_seqs
  q.compare_gpus = {catalog::h200_sxm, catalog::a100_sxm_80gb};
  q.compare_mig = true;
  const capacity_report r = plan_capacity_report(q);
  // the replica and its price come from the serving model and the book (the serving model's
  // figures, what `gpuplan capacity` prints for this plan; they moved from 25.40 and 10.495 when
  // serving's 16-bit GEMM fraction became the H100's published MAMF, 0.803, instead of 0.80, and
  // from 25.4556 and 10.4722 when serving's GEMMs took the step model's sustained-load factor,
  // 0.87 of the MAMF, and each GPU its own MAMF: models/kernels.hpp; at 256 sequences the decode
  // GEMMs are compute-bound, so the replica is 8% slower)
  CHECK(r.request.replica.rate.in(units::requests_per_s) == Approx(23.4075).epsilon(1e-3));
  CHECK(r.request.replica.mean_service.in(units::s) == Approx(11.3882).epsilon(1e-3));
  CHECK(r.request.replica.service_cv == Approx(0.0394).epsilon(1e-2));
  CHECK(r.request.replica_price.in(units::usd_per_h) == Approx(2.79));
  CHECK(r.price_from_book);
  CHECK(r.plan.replicas == 3);
  // every MIG profile of the H100 but 1g.10gb (the model does not fit) and both GPUs, ranked by
  // cost; the plan's own replica first among equals (with the sustained-load factor the 3g.40gb
  // slices need 7 replicas on 4 GPUs, so the H200 and the 4g.40gb slices move up)
  const char* names[] = {"this replica",
                         "H100-SXM5-80GB MIG 7g.80gb",
                         "H100-SXM5-80GB MIG 3g.40gb",
                         "H200-SXM-141GB x1",
                         "H100-SXM5-80GB MIG 4g.40gb",
                         "A100-SXM4-80GB x1",
                         "H100-SXM5-80GB MIG 1g.20gb",
                         "H100-SXM5-80GB MIG 2g.20gb"};
  const int replicas[] = {3, 3, 7, 3, 6, 7, 180, 177};
  const long long gpus[] = {3, 3, 4, 3, 6, 7, 45, 59};
  REQUIRE(r.options.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(std::string(r.options[i].name.view()) == names[i]);
    CHECK(r.options[i].replicas == replicas[i]);
    CHECK(r.options[i].gpus == gpus[i]);
  }
  CHECK(r.options[3].cost.in(units::usd_per_h) == Approx(16.2225));  // the H200, from the book
  REQUIRE(r.option_notes.size() == 1);
  CHECK(r.option_notes[0] == "H100-SXM5-80GB MIG 1g.10gb: the model does not fit");

  // the caller's price and service CV stay the caller's
  q.price_given = true;
  q.service_cv_given = true;
  q.request.replica_price = 5 * units::usd_per_h;
  q.request.replica.service_cv = 0.5;
  q.compare_gpus.clear();
  q.compare_mig = false;
  const capacity_report own = plan_capacity_report(q);
  CHECK(own.request.replica_price.in(units::usd_per_h) == Approx(5.0));
  CHECK(own.request.replica.service_cv == Approx(0.5));
  CHECK_FALSE(own.price_from_book);
  CHECK(own.options.empty());

  // MIG slices hold one-GPU replicas only
  serving_plan tp2 = plan;
  tp2.layout.tp = 2;
  q.serving = serving_replica(tp2, {.ttft = 2 * units::s, .tpot = 0.05 * units::s});
  q.compare_mig = true;
  CHECK_THROWS_AS(plan_capacity_report(q), invalid_input);
}
