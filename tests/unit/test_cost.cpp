// Cost of runs, tokens and fleets; cloud against owning; hybrid. Expected figures are worked out
// by hand from the formulas in models/cost.hpp (written beside each check), so a change in the
// model's arithmetic fails here.
#include <array>
#include <cmath>
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/models/cost_horizon.hpp>
#include <string>

#include "../catch.hpp"

using namespace gpuplan;
using Catch::Matchers::Contains;
namespace cat = gpuplan::catalog;

namespace {
double usd(money m) { return m.in(units::usd); }
constexpr double hours_per_month = 365.0 / 12.0 * 24.0;  // 730
}  // namespace

TEST_CASE("Run cost from a price and from the book", "[cost]") {
  const run_usage run = run_usage::of(cat::h100_sxm, 64, 10 * units::d);  // 15,360 GPU-hours
  CHECK(run.gpu_time.in(units::h) == Approx(15360));
  CHECK(run.wall_time().in(units::d) == Approx(10));
  CHECK(usd(run_cost(run, 2.5 * units::usd_per_h)) == Approx(38400));
  // The cheapest on-demand H100 in the default book: RunPod, $2.79 per GPU-hour.
  CHECK(usd(run_cost(run, cat::default_prices)) == Approx(15360 * 2.79));
  CHECK(usd(run_cost(run, cat::default_prices, price_term::on_demand, "lambda")) ==
        Approx(15360 * 3.78));
  // Committed use: the cheapest 3-year H100 rate is AWS's p5.48xlarge standard Reserved Instance,
  // no upfront, $23.77728 per instance-hour (instances.vantage.sh data, 2025-11-30); Google
  // Cloud's a3-highgpu-8g 3-year rate, $28,370.998 per 730-hour month for 8 GPUs (Cloud Billing
  // Catalog, 2025-03-06), when the provider is gcp.
  CHECK(usd(run_cost(run, cat::default_prices, price_term::commit_3yr)) ==
        Approx(15360 * 23.77728 / 8));
  CHECK(usd(run_cost(run, cat::default_prices, price_term::commit_3yr, "gcp")) ==
        Approx(15360 * 28370.99821392 / 730 / 8));
  // No price: one clear error naming GPU, term and provider.
  CHECK_THROWS_WITH(run_cost(run, cat::default_prices, price_term::commit_3yr, "lambda"),
                    Contains("no commit_3yr price for GPU H100-SXM5-80GB"));
  CHECK_THROWS_WITH(run_cost(run, cat::default_prices, price_term::on_demand, "oracle"),
                    Contains("from provider oracle"));
  // A finite price and GPU time whose product overflows: an error, not a cost of $inf.
  CHECK_THROWS_WITH(run_cost(run, 1e308 * units::usd_per_h), Contains("run cost"));
  run_cost_inputs huge_price;
  huge_price.price_per_gpu_hour = 1e308 * units::usd_per_h;
  CHECK_THROWS_WITH(price_run(run, huge_price), Contains("overflows"));
  run_cost_inputs huge_power;
  huge_power.power_per_gpu = 1e308 * units::W;
  huge_power.price_per_gpu_hour = 2 * units::usd_per_h;
  CHECK_THROWS_WITH(price_run(run, huge_power), Contains("run_cost_inputs.power_per_gpu"));
}

TEST_CASE("Default book: AWS P5 Reserved Instances and spot, B200 entries", "[cost][book]") {
  // Sources: github.com/tsaol/aws-gpu data/gpu_instances_raw.json (instances.vantage.sh data,
  // commit 2d0108c, 2025-11-30) for AWS; kaelresearch.com (February 2026) for CoreWeave. Each
  // instance-hour price is stored per GPU-hour; multiplying back must give the source's figure
  // (tolerance: Approx's default, 1e-5 relative, floating-point rounding only).
  const cloud_price& ri = cat::aws_p5_48xlarge_reserved_spot;
  CHECK(ri.gpus_per_instance == 8);
  CHECK(ri.instance_price(price_term::commit_1yr).in(units::usd_per_h) == Approx(43.344));
  CHECK(ri.instance_price(price_term::commit_3yr).in(units::usd_per_h) == Approx(23.77728));
  CHECK(ri.instance_price(price_term::spot).in(units::usd_per_h) == Approx(28.106467));
  CHECK(ri.commit_1yr.in(units::usd_per_h) == Approx(5.418));
  CHECK(ri.commit_3yr.in(units::usd_per_h) == Approx(2.97216));
  // The entry leaves on demand to aws_p5_48xlarge, whose $55.04 the same source also lists.
  CHECK_FALSE(ri.offers(price_term::on_demand));
  // The source's ordering: 3-year < 1-year < on demand, and the day's spot average below on demand.
  const money_rate od = cat::aws_p5_48xlarge.on_demand;
  CHECK(ri.commit_3yr < ri.commit_1yr);
  CHECK(ri.commit_1yr < od);
  CHECK(ri.spot < od);
  // The book's cheapest H100 3-year commitment is now this one; GCP's stays reachable by provider.
  CHECK(cheapest_price(cat::default_prices, cat::h100_sxm, price_term::commit_3yr)->instance ==
        std::string_view("p5.48xlarge reserved+spot"));
  CHECK(cloud_rate(cat::default_prices, cat::h100_sxm, price_term::commit_3yr, "gcp")
            .in(units::usd_per_h) == Approx(28370.99821392 / 730 / 8));

  // B200: the entries name a catalog GPU (found through cat::b200), AWS at $113.9328 and
  // $37.872 spot per instance-hour, CoreWeave at $68.80 on demand.
  const cloud_price& p6 = cat::aws_p6_b200_48xlarge;
  CHECK(p6.instance_price(price_term::on_demand).in(units::usd_per_h) == Approx(113.9328));
  CHECK(p6.instance_price(price_term::spot).in(units::usd_per_h) == Approx(37.872));
  CHECK(p6.spot < p6.on_demand);
  CHECK(cat::coreweave_hgx_b200.instance_price(price_term::on_demand).in(units::usd_per_h) ==
        Approx(68.80));
  CHECK(cloud_rate(cat::default_prices, cat::b200, price_term::on_demand).in(units::usd_per_h) ==
        Approx(8.60));
  CHECK(cloud_rate(cat::default_prices, cat::b200, price_term::on_demand, "aws")
            .in(units::usd_per_h) == Approx(14.2416));
  CHECK(cloud_rate(cat::default_prices, cat::b200, price_term::spot).in(units::usd_per_h) ==
        Approx(4.734));
  // No B200 commitment is listed: one clear error.
  CHECK_THROWS_WITH(cloud_rate(cat::default_prices, cat::b200, price_term::commit_1yr),
                    Contains("no commit_1yr price for GPU B200-SXM-180GB"));
  // A run on DGX B200s is priced from the book: 8 GPUs for a day at $8.60.
  const run_usage day = run_usage::of(cat::b200, 8, 1 * units::d);
  CHECK(usd(run_cost(day, cat::default_prices)) == Approx(8 * 24 * 68.80 / 8));
}

TEST_CASE("Cost per token and per fleet-month", "[cost]") {
  // $3.60 per GPU-hour, 1,000 tok/s per GPU: $1 per million tokens; at 50% use, $2.
  const money_per_token c = cost_per_token(3.6 * units::usd_per_h, 1000 * units::tokens_per_s);
  CHECK(c.in(units::usd_per_Mtoken) == Approx(1.0));
  CHECK(cost_per_token(3.6 * units::usd_per_h, 1000 * units::tokens_per_s, 0.5)
            .in(units::usd_per_Mtoken) == Approx(2.0));
  // 100 GPUs at $2/h: on demand at 60% use pays 60% of the 730 hours; a commitment pays all.
  CHECK(usd(cloud_fleet_month(100, 2 * units::usd_per_h, price_term::on_demand, 0.6)) ==
        Approx(0.6 * 100 * hours_per_month * 2));
  CHECK(usd(cloud_fleet_month(100, 2 * units::usd_per_h, price_term::commit_1yr, 0.6)) ==
        Approx(100 * hours_per_month * 2));
}

TEST_CASE("Owned fleet: capital and a month, line by line", "[cost][onprem]") {
  const onprem_fleet f{.node = cat::dgx_h100, .gpus = 60};  // 8 servers (64 GPUs)
  CHECK(f.servers() == 8);
  CHECK(f.owned_gpus() == 64);
  // Capex: 8 x $317,000 x (1 + 0.11 network + 0.022 storage).
  CHECK(usd(onprem_capex(f)) == Approx(8 * 317000 * 1.132));
  const onprem_month m = onprem_month_costs(f);
  CHECK(usd(m.amortisation) == Approx(8 * 317000 * 1.132 / 36));
  // Colocation: 8 x 10.2 kW x $200 per kW-month.
  CHECK(usd(m.colocation) == Approx(8 * 10.2 * 200));
  // Energy: idle = 8 x (8 x 75 W + 4.6 kW) x 730 h x PUE 1.56 x $0.0895/kWh.
  CHECK(usd(m.energy_idle) == Approx(8 * (8 * 0.075 + 4.6) * hours_per_month * 1.56 * 0.0895));
  CHECK(usd(m.energy_full_use) ==
        Approx(8 * 8 * (0.698 - 0.075) * hours_per_month * 1.56 * 0.0895));
  // Maintenance: 6% of capital a year.
  CHECK(usd(m.maintenance) == Approx(8 * 317000 * 1.132 * 0.06 / 12));
  CHECK(usd(m.total(0.5)) == Approx(usd(m.amortisation + m.maintenance + m.colocation +
                                        m.energy_idle) +
                                    0.5 * usd(m.energy_full_use)));
  // Per GPU-hour used at 100%: the month over 64 x 730 GPU-hours.
  CHECK(onprem_cost_per_gpu_hour(f, 1.0).in(units::usd_per_h) ==
        Approx(usd(m.total(1.0)) / (64 * hours_per_month)));
  // Finite costs whose total over the amortisation years overflows: an error naming the struct,
  // not an infinite or 1e306-dollar comparison.
  onprem_fleet huge = f;
  huge.costs.staff = 1e308 * units::usd / units::yr;
  CHECK_THROWS_WITH(onprem_month_costs(huge), Contains("onprem_costs"));
}

TEST_CASE("Cloud against owning: break-even utilization and month", "[cost][onprem]") {
  const onprem_fleet f{.node = cat::dgx_h100, .gpus = 64};
  const money_rate price = 4.916 * units::usd_per_h;  // AWS capacity block, Dec 2024
  const cloud_onprem_comparison c = compare_cloud_onprem(f, price, price_term::on_demand, 0.7);
  const onprem_month m = onprem_month_costs(f);
  const double K = usd(onprem_capex(f));
  const double C = 64 * hours_per_month * 4.916;
  const double u_star =
      (K / 36 + usd(m.fixed_running()) + usd(m.energy_idle)) / (C - usd(m.energy_full_use));
  CHECK(c.break_even_utilization == Approx(u_star));
  CHECK(c.break_even_utilization == Approx(0.508).margin(0.001));
  const double m_star = K / (0.7 * C - usd(m.running(0.7)));
  CHECK(c.break_even_months == Approx(m_star));
  // The cumulative lines cross at the break-even month.
  CHECK(usd(c.cloud_cumulative(c.break_even_months)) ==
        Approx(usd(c.onprem_cumulative(c.break_even_months))));
  // At the break-even utilization the totals over the horizon are equal.
  const cloud_onprem_comparison at =
      compare_cloud_onprem(f, price, price_term::on_demand, c.break_even_utilization);
  CHECK(usd(at.cloud_total()) == Approx(usd(at.onprem_total())));
  // Below it, renting wins over the horizon; above, owning.
  CHECK(compare_cloud_onprem(f, price, price_term::on_demand, 0.3).cloud_total() <
        compare_cloud_onprem(f, price, price_term::on_demand, 0.3).onprem_total());
  // At $1 per GPU-hour owning never wins within the horizon (no break-even utilization), and
  // even at full use the capital comes back only after 371 months (running costs $38,978 a
  // month against $46,720 of cloud).
  const cloud_onprem_comparison cheap =
      compare_cloud_onprem(f, 1.0 * units::usd_per_h, price_term::on_demand, 1.0);
  CHECK(std::isinf(cheap.break_even_utilization));
  CHECK(cheap.break_even_months > cheap.horizon_months);
  CHECK(cheap.break_even_months == Approx(371).margin(1));
  // At $0.30 the running costs alone exceed the cloud bill: never.
  const cloud_onprem_comparison never =
      compare_cloud_onprem(f, 0.3 * units::usd_per_h, price_term::on_demand, 1.0);
  CHECK(std::isinf(never.break_even_months));
  // A commitment bills every hour: no break-even utilization.
  CHECK(std::isnan(
      compare_cloud_onprem(f, price, price_term::commit_1yr, 0.5).break_even_utilization));
}

// The break-even with every on-premises default named and sourced (docs/models/cost.md), against
// a hand computation. 64 H100s as 8 DGX H100 at the catalog's $270,000 (SemiAnalysis, May 2023),
// against AWS p5.48xlarge on demand at $6.88 per GPU-hour (2026-11-09):
//   K  = 8 x 270,000 x (1 + 0.11 + 0.022)                      = 2,445,120
//   F  = K x 0.06 / 12 + 8 x 10.2 kW x $200                    = 12,225.60 + 16,320 = 28,545.60
//   E0 = 8 x (8 x 75 W + 4.6 kW) x 730 h x 1.56 x $0.0895      = 4,239.98
//   E1 = 8 x 8 x (698 - 75) W x 730 h x 1.56 x $0.0895         = 4,063.86
//   C  = 64 x 730 x 6.88                                       = 321,433.60
//   u* = (K / 36 + F + E0) / (C - E1) = 100,705.58 / 317,369.74 = 0.3173
//   m* at 70% = K / (0.7 C - F - E0 - 0.7 E1) = 2,445,120 / 189,373.24 = 12.91 months
TEST_CASE("Break-even with the sourced on-premises defaults, by hand", "[cost][onprem]") {
  const onprem_fleet f{.node = cat::dgx_h100, .gpus = 64,
                       .costs = cat::onprem_costs_for(cat::dgx_h100)};
  CHECK(usd(f.costs.server_price) == 270000);
  const money_rate aws = cat::aws_p5_48xlarge.on_demand;
  CHECK(aws.in(units::usd_per_h) == Approx(6.88));
  const cloud_onprem_comparison c = compare_cloud_onprem(f, aws, price_term::on_demand, 0.7);
  CHECK(usd(c.onprem_capex) == Approx(2445120));
  CHECK(usd(c.onprem.fixed_running()) == Approx(28545.60));
  CHECK(usd(c.onprem.energy_idle) == Approx(4239.98).margin(0.01));
  CHECK(usd(c.onprem.energy_full_use) == Approx(4063.86).margin(0.01));
  CHECK(c.break_even_utilization == Approx(0.3173).margin(0.00005));
  CHECK(c.break_even_months == Approx(12.91).margin(0.005));
  // A DGX A100 costs $200,000 at launch; a node the catalog does not price keeps the HGX H100
  // quotation.
  CHECK(usd(cat::onprem_costs_for(cat::dgx_a100).server_price) == 200000);
  CHECK(usd(cat::onprem_costs_for(cat::dgx_b200).server_price) == 317000);
}

TEST_CASE("Hybrid: owned base for the baseline, cloud for the peak", "[cost][hybrid]") {
  const onprem_fleet f{.node = cat::dgx_h100, .gpus = 8};
  // 64 GPUs all day, 192 more from 09:00 to 18:00, 64 more at 14:00.
  std::array<double, 24> demand{};
  for (int h = 0; h < 24; ++h)
    demand[static_cast<std::size_t>(h)] = 64 + (h >= 9 && h < 18 ? 192 : 0) + (h == 14 ? 64 : 0);
  const money_rate price = 4.916 * units::usd_per_h;
  const hybrid_plan p = plan_hybrid(demand, f, price);
  CHECK(p.hours == 24);
  CHECK(p.peak_gpus == 320);
  CHECK(p.hybrid <= p.all_cloud);
  CHECK(p.hybrid <= p.all_onprem);
  // The base is one of the candidate levels, and no candidate does better.
  bool candidate = p.base_gpus == 0;
  for (double d : demand) candidate = candidate || p.base_gpus == static_cast<int>(d);
  CHECK(candidate);
  for (int base : {0, 64, 256, 320})
    CHECK(p.hybrid <=
          hybrid_cost(demand, base, onprem_fleet{.node = cat::dgx_h100, .gpus = 320}, price));
  // All-cloud is demand x price.
  double gpu_hours = 0;
  for (double d : demand) gpu_hours += d;
  CHECK(usd(p.all_cloud) == Approx(gpu_hours * 4.916));
  // The burst is the demand above the base.
  double burst = 0;
  for (double d : demand) burst += d > p.base_gpus ? d - p.base_gpus : 0;
  CHECK(p.burst_gpu_time.in(units::h) == Approx(burst));
  CHECK_THROWS_WITH(plan_hybrid(std::array<double, 2>{0, 0}, f, price), Contains("need a GPU"));
}

TEST_CASE("Pricing entries are validated field by field", "[cost][errors]") {
  cloud_price p = cat::aws_p5_48xlarge;
  p.validate();
  p.on_demand = -1 * units::usd_per_h;
  CHECK_THROWS_WITH(p.validate(), Contains("cloud_price.on_demand"));
  p = cat::aws_p5_48xlarge;
  p.date = {2024, 2, 30};
  CHECK_THROWS_WITH(p.validate(), Contains("cloud_price.date"));
  p = cat::aws_p5_48xlarge;
  p.on_demand = {};
  CHECK_THROWS_WITH(p.validate(), Contains("at least one positive price"));
  onprem_costs c;
  c.amortisation_years = 0;
  CHECK_THROWS_WITH(c.validate(), Contains("onprem_costs.amortisation_years"));
  CHECK_THROWS_WITH(onprem_capex(onprem_fleet{.node = cat::dgx_h100, .gpus = 0}),
                    Contains("onprem_fleet.gpus"));
}

TEST_CASE("Racks, heat and cooling", "[power]") {
  // DGX H100 at 10.2 kW in 30 kW racks with containment: 2 per rack, 20.4 kW, 69,600 BTU/h.
  const rack_plan r = plan_racks(cat::dgx_h100, 5, site_spec{});
  CHECK(r.nodes_per_rack == 2);
  CHECK(r.racks == 3);
  CHECK(r.rack_power.in(units::kW) == Approx(20.4));
  CHECK(r.rack_heat_btu_per_h() == Approx(20400 * 3.412142).epsilon(1e-6));
  CHECK(r.rack_cooling == cooling_kind::air_containment);
  CHECK(r.facility_power.in(units::kW) == Approx(5 * 10.2 * 1.56));
  // A 45 kW budget with plain air: cooling (15 kW) binds, one node per rack.
  const site_spec air{.rack_budget = 45 * units::kW, .cooling = cooling_kind::air};
  const rack_plan a = plan_racks(cat::dgx_h100, 4, air);
  CHECK(a.nodes_per_rack == 1);
  CHECK(a.cooling_bound);
  // Liquid: four to a 45 kW rack, which needs liquid cooling.
  const site_spec liquid{.rack_budget = 45 * units::kW, .cooling = cooling_kind::liquid};
  const rack_plan l = plan_racks(cat::dgx_h100, 4, liquid);
  CHECK(l.nodes_per_rack == 4);
  CHECK(l.rack_cooling == cooling_kind::liquid);
  // A node over the rack budget is an error naming the field.
  CHECK_THROWS_WITH(plan_racks(cat::dgx_b200, 1, site_spec{.rack_budget = 10 * units::kW}),
                    Contains("site_spec.rack_budget"));
  // Modelled basis: GPUs at 50% plus host.
  const power_assumptions modelled{.basis = node_power_basis::modelled, .utilization = 0.5};
  CHECK(planned_node_power(cat::dgx_h100, modelled).in(units::W) ==
        Approx(8 * (130 + 0.5 * 568) + 4600));
}

TEST_CASE("A run's report: price, power, energy and carbon with their inputs", "[cost][plan]") {
  // Llama 2 70B as its model card reports it: 1,720,320 GPU-hours at 400 W per GPU, with the
  // LLaMA method's PUE 1.1 and 0.385 kg/kWh.
  const run_usage u{.gpu = cat::a100_sxm_80gb, .gpu_time = 1720320 * units::h};
  run_cost_inputs in{.book = cat::default_prices,
                     .price_per_gpu_hour = 1.5 * units::usd_per_h,
                     .power_per_gpu = 400 * units::W,
                     .site = {.pue = 1.1, .grid = 0.385 * units::kgCO2e_per_kWh}};
  run_cost_report r = price_run(u, in);
  CHECK(r.power_given);
  CHECK(r.price_entry == nullptr);
  CHECK(usd(r.cost) == Approx(1720320 * 1.5));
  CHECK(r.facility_energy().in(units::MWh) == Approx(1720320 * 0.4 * 1.1 / 1000));
  CHECK(r.carbon.operational.in(units::tCO2e) == Approx(291.42).margin(0.01));
  CHECK(r.carbon.embodied.in(units::kgCO2e) == 0.0);
  // From the book and the node model instead: an H100 run on DGX H100s at full use.
  const run_usage h{.gpu = cat::h100_sxm, .gpu_time = 8000 * units::h};
  in = {.book = cat::default_prices, .node = cat::dgx_h100, .embodied = true};
  r = price_run(h, in);
  REQUIRE(r.price_entry != nullptr);
  CHECK(r.price_entry->provider == std::string_view("runpod"));
  CHECK(r.power_per_gpu.in(units::W) == Approx(698 + 4600.0 / 8));
  CHECK(r.facility_energy().in(units::kWh) == Approx(1.56 * 1000 * (8 * 0.698 + 4.6)));
  CHECK(r.carbon.embodied.in(units::kgCO2e) == Approx(8000 * (150 + 2500 / 8.0) / (6 * 8760 * 0.85)));
  // A GPU the node was not published for: host from the share of TDP.
  r = price_run({.gpu = cat::a100_sxm_80gb, .gpu_time = 800 * units::h},
                {.price_per_gpu_hour = 1 * units::usd_per_h, .node = cat::dgx_h100});
  CHECK(r.power_per_gpu.in(units::W) == Approx(400 * 698.0 / 700 + 4.6 / 5.6 * 400));
}

// ---- a horizon: cloud, owned and hybrid month by month (issue 26) ------------------------------

TEST_CASE("Horizon: cloud, owned and hybrid totals are the sums of their monthly lines",
          "[cost][horizon]") {
  // 64 H100 (8 servers at onprem_costs' default $317,000) against $4.916 per GPU-hour on demand,
  // busy 60% of 36 months, capital paid up front, worth 1 - 36/60 = 40% of it at the end
  // (straight-line over 5 years); the hybrid owns half the GPUs (4 servers) and rents 32 while
  // busy.
  const onprem_fleet f{.node = cat::dgx_h100, .gpus = 64};
  const money_rate price = 4.916 * units::usd_per_h;
  const horizon_costs h = cost_over_horizon(f, price, price_term::on_demand, 0.6, 36, {}, 0.5);
  REQUIRE(h.monthly.size() == 37);
  double cloud = 0, owned = 0, hybrid = 0;
  for (const horizon_month& m : h.monthly) {
    cloud += usd(m.cloud);
    owned += usd(m.owned);
    hybrid += usd(m.hybrid);
    CHECK(usd(m.owned_cumulative) == Approx(owned));
  }
  CHECK(usd(h.cloud_total) == Approx(cloud));
  CHECK(usd(h.owned_total) == Approx(owned));
  CHECK(usd(h.hybrid_total) == Approx(hybrid));
  // By hand: renting bills the busy hours only.
  CHECK(usd(h.cloud_total) == Approx(0.6 * 64 * hours_per_month * 36 * 4.916));
  const onprem_month m = onprem_month_costs(f);
  const double K = usd(onprem_capex(f));
  CHECK(h.residual_share == Approx(0.4));
  CHECK(usd(h.owned_total) == Approx(K + 36 * usd(m.running(0.6)) - 0.4 * K));
  CHECK(usd(h.monthly[0].owned) == Approx(K));  // capital in month 0, no cloud yet
  CHECK(usd(h.monthly[0].cloud) == 0);
  CHECK(usd(h.monthly[36].owned) == Approx(usd(m.running(0.6)) - 0.4 * K));
  onprem_fleet base = f;
  base.gpus = 32;
  CHECK(h.hybrid_owned_gpus == 32);
  CHECK(h.hybrid_burst_gpus == 32);
  CHECK(usd(h.hybrid_total) ==
        Approx(0.6 * K / 2 + 36 * usd(onprem_month_costs(base).running(0.6)) +
               0.6 * 32 * hours_per_month * 36 * 4.916));
  // Energy = occupancy x the busy fleet's power x hours x PUE, plus the idle draw the rest.
  const fleet_power p = onprem_power(f);
  const double hours = 36 * hours_per_month;
  CHECK(h.busy_energy.in(units::kWh) == Approx(0.6 * p.full_use.in(units::kW) * hours * 1.56));
  CHECK(h.owned_energy.in(units::kWh) ==
        Approx(h.busy_energy.in(units::kWh) + 0.4 * p.idle.in(units::kW) * hours * 1.56));
  // At the break-even occupancy the two totals are equal; below it renting wins.
  REQUIRE(std::isfinite(h.break_even_occupancy));
  const horizon_costs at =
      cost_over_horizon(f, price, price_term::on_demand, h.break_even_occupancy, 36, {}, 0.5);
  CHECK(usd(at.cloud_total) == Approx(usd(at.owned_total)));
  const horizon_costs low = cost_over_horizon(f, price, price_term::on_demand,
                                              0.9 * h.break_even_occupancy, 36, {}, 0.5);
  CHECK(low.cloud_total < low.owned_total);
  // The hybrid's total lies between all-cloud (fraction 0) and all-owned (fraction 1).
  CHECK(usd(cost_over_horizon(f, price, price_term::on_demand, 0.6, 36, {}, 0.0).hybrid_total) ==
        Approx(usd(h.cloud_total)));
  CHECK(usd(cost_over_horizon(f, price, price_term::on_demand, 0.6, 36, {}, 1.0).hybrid_total) ==
        Approx(usd(h.owned_total)));
  // Past the useful life the servers are worth nothing; a residual given replaces the schedule.
  CHECK(cost_over_horizon(f, price, price_term::on_demand, 0.6, 72, {}, 0.5).residual_share == 0);
  owned_finance quote;
  quote.residual_fraction = 0.25;
  CHECK(cost_over_horizon(f, price, price_term::on_demand, 0.6, 36, quote, 0.5).residual_share ==
        0.25);
  // A commitment bills every hour: no break-even occupancy, the cloud total at 100%.
  const horizon_costs commit = cost_over_horizon(f, price, price_term::commit_1yr, 0.6, 36, {}, 0.5);
  CHECK(std::isnan(commit.break_even_occupancy));
  CHECK(usd(commit.cloud_total) == Approx(64 * hours_per_month * 36 * 4.916));
}

TEST_CASE("Financing: the standard annuity payment and balance", "[cost][horizon]") {
  // $100,000 at 6% a year over 36 months: i = 0.005, A = P i / (1 - 1.005^-36) = $3,042.19
  // (the standard amortisation table value).
  const money p = 100000 * units::usd;
  CHECK(usd(annuity_payment(p, 0.06, 36)) == Approx(3042.19).margin(0.005));
  CHECK(usd(annuity_payment(p, 0.0, 36)) == Approx(100000.0 / 36));
  CHECK(usd(loan_balance(p, 0.06, 36, 0)) == Approx(100000));
  CHECK(usd(loan_balance(p, 0.06, 36, 36)) == 0);
  // After 12 payments the balance is the present value of the 24 left.
  const double a = usd(annuity_payment(p, 0.06, 36));
  CHECK(usd(loan_balance(p, 0.06, 36, 12)) ==
        Approx(a * (1 - std::pow(1.005, -24)) / 0.005));
  // Financed over the horizon: no capital in month 0, the payment every month, the same totals
  // as the sum of the lines.
  const onprem_fleet f{.node = cat::dgx_h100, .gpus = 64};
  const money_rate price = 4.916 * units::usd_per_h;
  owned_finance loan;
  loan.financed = true;  // the defaults: 8.5% (US prime), 36 months
  const horizon_costs h = cost_over_horizon(f, price, price_term::on_demand, 0.6, 36, loan, 0.5);
  const double K = usd(onprem_capex(f));
  const double pay = usd(annuity_payment(onprem_capex(f), 0.085, 36));
  CHECK(usd(h.payment) == Approx(pay));
  CHECK(usd(h.monthly[0].owned) == 0);
  CHECK(usd(h.payoff) == 0);
  const double running = usd(onprem_month_costs(f).running(0.6));
  CHECK(usd(h.owned_total) == Approx(36 * pay + 36 * running - 0.4 * K));
  CHECK(36 * pay > K);  // interest costs something
  // A 60-month loan over a 36-month horizon: what is still owed is paid in month 36.
  loan.term_months = 60;
  const horizon_costs long_loan =
      cost_over_horizon(f, price, price_term::on_demand, 0.6, 36, loan, 0.5);
  const double pay60 = usd(annuity_payment(onprem_capex(f), 0.085, 60));
  const double owed = usd(loan_balance(onprem_capex(f), 0.085, 60, 36));
  CHECK(usd(long_loan.payoff) == Approx(owed));
  CHECK(usd(long_loan.owned_total) == Approx(36 * pay60 + owed + 36 * running - 0.4 * K));
  double sum = 0;
  for (const horizon_month& m : long_loan.monthly) sum += usd(m.owned);
  CHECK(usd(long_loan.owned_total) == Approx(sum));
}

TEST_CASE("Horizon: bad finance input is refused, naming the field", "[cost][horizon]") {
  const onprem_fleet f{.node = cat::dgx_h100, .gpus = 64};
  const money_rate price = 4.916 * units::usd_per_h;
  const auto run = [&](owned_finance fin, double fraction = 0.5, int months = 36) {
    return cost_over_horizon(f, price, price_term::on_demand, 0.6, months, fin, fraction);
  };
  owned_finance bad;
  bad.residual_fraction = 1.5;
  CHECK_THROWS_WITH(run(bad), Contains("owned_finance.residual_fraction"));
  bad = {};
  bad.annual_rate = -0.01;
  CHECK_THROWS_WITH(run(bad), Contains("owned_finance.annual_rate"));
  bad = {};
  bad.annual_rate = std::nan("");
  CHECK_THROWS_WITH(run(bad), Contains("owned_finance.annual_rate"));
  bad = {};
  bad.term_months = 0;
  CHECK_THROWS_WITH(run(bad), Contains("owned_finance.term_months"));
  bad = {};
  bad.useful_life_years = std::nan("");
  CHECK_THROWS_WITH(run(bad), Contains("owned_finance.useful_life_years"));
  CHECK_THROWS_WITH(run({}, std::nan("")), Contains("hybrid_owned_fraction"));
  CHECK_THROWS_WITH(run({}, 0.5, 0), Contains("horizon"));
}
