// Capacity plan: replicas for a demand at a wait SLO, utilisation bands, growth, options,
// owned base + cloud burst, training capacity; the whole plan checked against a discrete-event
// simulation of the same fleet (tests/queue_sim.hpp).
#include "../catch.hpp"
#include "../queue_sim.hpp"

#include <gpuplan/gpuplan.hpp>

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

TEST_CASE("Hourly profile, owned base and cloud burst", "[capacity][burst]") {
  // A diurnal profile: 10 req/s at night, 40 at the day's peak.
  request_rate hours[24]{};
  for (int h = 0; h < 24; ++h) hours[h] = per_s(h < 8 ? 10 : (h < 18 ? 40 : 20));
  const demand_profile d = demand_profile::from_hourly(hours);
  CHECK(d.mean.in(units::requests_per_s) == Approx((8 * 10 + 10 * 40 + 6 * 20) / 24.0));
  CHECK(d.peak().in(units::requests_per_s) == Approx(40.0));
  const capacity_plan p = plan_capacity({.demand = d,
                                         .replica = llm,
                                         .slo = {.max_wait = 1 * units::s, .percentile = 0.99},
                                         .months = 0});
  REQUIRE(p.has_hours);
  CHECK(p.hours[12].replicas == p.replicas);
  CHECK(p.hours[2].replicas < p.replicas);
  // Owned at $2/replica-hour vs cloud at $6: cloud is only worth it for the 10 peak hours
  // when 24 x 2 > 10 x 6 is false... 48 > 60 is false, so own everything up to the day peak.
  const money_rate own = 2 * units::usd_per_h, cloud = 6 * units::usd_per_h;
  const burst_split all_own = plan_burst(p, own, cloud);
  CHECK(all_own.owned == p.replicas);
  CHECK(all_own.daily_cost == all_own.all_owned_daily_cost);
  // At $3 owned the 10 daytime hours (cost 60 in the cloud) are cheaper in the cloud than
  // owning (72): own the evening level, burst the day.
  const burst_split split = plan_burst(p, 3 * units::usd_per_h, cloud);
  CHECK(split.owned == p.hours[20].replicas);
  CHECK(split.peak_cloud == p.replicas - p.hours[20].replicas);
  CHECK(split.daily_cost < split.all_owned_daily_cost);
  CHECK(split.daily_cost < split.all_cloud_daily_cost);
  const capacity_plan flat = plan_capacity({.demand = {.mean = per_s(30)}, .replica = llm});
  CHECK_THROWS_AS(plan_burst(flat, own, cloud), invalid_input);
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
