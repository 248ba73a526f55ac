// Compile-time capacity planning: every check is a static_assert, so building this file is the
// test. The queue and the plan are the same constexpr functions the CLI runs.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/plan/capacity.hpp>  // not in the umbrella (heavy)
#include <gpuplan/plan/training_capacity.hpp>  // not in the umbrella (heavy)
#include <gpuplan/plan/sharing.hpp>  // not in the umbrella (MIG sharing)

namespace {

using namespace gpuplan;

constexpr request_rate per_s(double r) { return r * units::request / units::s; }

// Erlang C(3, 2) = 4/9 (closed form).
static_assert(erlang_c(2.0, 3) > 0.4444444 && erlang_c(2.0, 3) < 0.4444445);
// M/M/1: P(wait) = rho.
static_assert(analyze_queue({.arrival_rate = per_s(0.5), .mean_service = 1 * units::s}).p_wait ==
              0.5);

// The smallest server count for p95 wait <= 0.5 s at 8 erlangs, and one fewer misses it.
constexpr queue_model load{.arrival_rate = per_s(8), .mean_service = 1 * units::s};
constexpr wait_slo slo{.max_wait = 0.5 * units::s, .percentile = 0.95};
constexpr queue_metrics best = min_servers(load, slo);
static_assert(slo.met_by(best));
static_assert(!slo.met_by(analyze_queue({.arrival_rate = per_s(8),
                                         .mean_service = 1 * units::s,
                                         .servers = best.servers - 1})));

// A whole plan, with growth: replicas never fall as demand grows.
constexpr capacity_plan plan = plan_capacity(
    {.demand = {.mean = per_s(30), .peak_factor = 1.6},
     .replica = {.rate = per_s(2), .mean_service = 4 * units::s, .service_cv = 0.8, .gpus = 2},
     .slo = {.max_wait = 2 * units::s, .percentile = 0.99},
     .monthly_growth = 0.10,
     .months = 6});
static_assert(plan.replicas == 25 && plan.gpus == 50);
static_assert(plan.peak_band == utilization_band::overload);
static_assert(plan.growth[6].replicas >= plan.growth[5].replicas);

// The healthy band, as data.
static_assert(utilization_bands{}.classify(0.8) == utilization_band::healthy);
static_assert(utilization_bands{.healthy_to = 0.85}.classify(0.88) == utilization_band::high);

// MIG: Llama 3.1 8B in bf16 does not fit an H100 1g.10gb slice; it fits 3g.40gb, two per GPU.
constexpr mig_options mig =
    mig_inference_options(catalog::llama31_8b, catalog::h100_sxm, {.batch = 4, .context = 4096});
static_assert(!mig.profiles[0].fits());
static_assert(mig.profiles[3].fits() && mig.profiles[3].replicas_per_gpu == 2);

// GPUs to train 15T tokens in 60 days at 3,000 tokens/s per GPU and 90% goodput.
static_assert(plan_training_capacity(15 * units::Ttoken, 60 * units::d,
                                     3000 * units::tokens_per_s)
                  .gpus == 1072);

// The service-time spread: two classes of 2 s and 6 s, no queue: sd 2 (csqrt is constexpr).
constexpr double two_classes[] = {2.0, 6.0}, equal[] = {1.0, 1.0};
static_assert(detail::service_spread(two_classes, equal, 2, {}) == 2.0);
static_assert(detail::csqrt(2.25) == 1.5);

// Owned base + cloud burst at compile time: a flat day at $10 per cloud GPU-hour is owned
// (whole DGX H100 servers: 30 replicas x 2 GPUs = 60 GPUs -> 64).
constexpr capacity_request flat_day = [] {
  request_rate h[24]{};
  for (request_rate& r : h) r = 30 * units::request / units::s;
  return capacity_request{.demand = demand_profile::from_hourly(h),
                          .replica = {.rate = 2 * units::request / units::s,
                                      .mean_service = 4 * units::s,
                                      .gpus = 2},
                          .slo = {.max_wait = 2 * units::s, .percentile = 0.99},
                          .months = 0};
}();
constexpr hybrid_capacity owned_day =
    plan_hybrid_capacity(plan_capacity(flat_day), flat_day,
                         {.node = catalog::dgx_h100, .gpus = 8}, 10 * units::usd_per_h);
static_assert(owned_day.cost.base_gpus % 8 == 0 && owned_day.peak_cloud_replicas == 0);

}  // namespace
