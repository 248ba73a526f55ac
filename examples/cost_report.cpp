// What `gpuplan cost --gpu h100 --gpus 64 --hours 240 --compare onprem --utilization 0.7` prints,
// got by one library call: the run's price, energy and carbon from the default price book and
// site, owning the servers against renting them, and the nodes in racks.
#include <gpuplan/catalog.hpp>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/plan/cost_report.hpp>

#include <cstdio>
#include <string>

int main() {
  using namespace gpuplan;
  cost_report_inputs in;
  in.usage = run_usage::of(catalog::h100_sxm, 64, 240.0 * units::h);  // 15,360 GPU-hours
  in.pricing.book = catalog::default_prices;  // the cheapest on-demand H100 in the book
  in.pricing.utilization = 0.7;               // the GPUs' kernel duty during the run
  in.fleet_utilization = 0.7;                 // and the owned fleet's use, for the comparison
  in.compare.onprem = true;

  const cost_report r = report_cost(in);
  const auto text = [](const auto& name) { return std::string(name.view()); };

  std::printf("%.0f GPU-hours on %s at $%.2f per GPU-hour (%s %s): $%.0f\n",
              r.run.usage.gpu_time.in(units::h), text(r.run.usage.gpu.name).c_str(),
              r.run.price.in(units::usd_per_h), text(r.run.price_entry->provider).c_str(),
              text(r.run.price_entry->instance).c_str(), r.run.cost.in(units::usd));
  std::printf("energy %.1f MWh at the facility, %.2f t CO2e\n",
              r.run.facility_energy().in(units::MWh), r.run.carbon.operational.in(units::tCO2e));
  const cloud_onprem_comparison& c = *r.comparison;
  std::printf("owning %d GPUs: $%.2fM up front; cheaper than renting above %.0f%% utilization, "
              "after %.1f months at %.0f%%\n",
              c.owned_gpus, c.onprem_capex.in(units::usd) / 1e6, 100 * c.break_even_utilization,
              c.break_even_months, 100 * c.utilization);
  if (r.racks)
    std::printf("racks: %d x %s, %d per rack, %d rack(s), %.1f kW at the facility\n",
                r.racks->nodes, text(r.rack_node.name).c_str(), r.racks->nodes_per_rack, r.racks->racks,
                r.racks->facility_power.in(units::kW));
  return 0;
}
