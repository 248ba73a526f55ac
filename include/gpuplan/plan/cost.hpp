// gpuplan/plan/cost.hpp: a run's money, energy and carbon in one report, with its inputs.
//
// Composes the models: the price (the given price per GPU-hour, or the cheapest entry of the
// book for the GPU and term), the power per GPU (the given all-in figure, as model cards report
// it, or the node model at the run's utilization: GPUs + host + network + storage), the site's
// PUE and grid intensity, and, as an option, embodied carbon.
#pragma once

#include <gpuplan/specs/array_view.hpp>
#include <gpuplan/catalog/dgx_h100.hpp>
#include <gpuplan/models/carbon.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/energy.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/specs/pricing.hpp>
#include <gpuplan/specs/site.hpp>

#include <string_view>

namespace gpuplan {

struct run_cost_inputs {
  array_view<cloud_price> book{};  ///< where prices come from (catalog::default_prices)
  price_term term = price_term::on_demand;
  std::string_view provider{};      ///< restrict the book to one provider; empty: any
  money_rate price_per_gpu_hour{};  ///< when positive, used instead of the book
  /// All-in average draw per GPU (GPU, host and network share), as model cards report it; when
  /// positive it replaces the node power model.
  power power_per_gpu{};
  /// The server the GPUs sit in, for the power model. Default: a DGX H100 (8 GPUs, 10.2 kW
  /// published maximum). Its GPU need not be the run's: the run's GPU replaces it, and the host
  /// then follows node_power_assumptions::host_share_of_gpu_tdp, the published maximum being
  /// for the node's own GPUs.
  node_spec node = catalog::dgx_h100;
  double utilization = 1.0;  ///< GPU kernel duty during the run
  node_power_assumptions power_model{};
  site_spec site{};
  bool embodied = false;  ///< add embodied carbon (reported apart)
  /// When the book has no price for the GPU and term: true throws invalid_input naming them;
  /// false reports energy and carbon with the cost unknown (run_cost_report::priced false).
  bool require_price = true;
  embodied_assumptions embodied_inputs{};
};

struct run_cost_report {
  run_usage usage{};
  money_rate price{};                        ///< per GPU-hour
  const cloud_price* price_entry = nullptr;  ///< the book entry used; null when given
  /// Whether a price was found; false only when require_price was off and the book had none
  /// (cost and price are then zero: unknown, not free).
  bool priced = false;
  money cost{};
  power power_per_gpu{};                ///< all-in IT power per GPU
  bool power_given = false;             ///< from the inputs rather than the model
  run_energy_breakdown energy_lines{};  ///< the model's lines (all in gpus when given)
  carbon_report carbon{};

  [[nodiscard]] constexpr energy facility_energy() const { return energy_lines.total(); }
};

/// The book's cheapest entry for GPU g under in's term and provider; when there is none, throws
/// invalid_input if in.require_price, else returns nullptr (the price unknown).
constexpr const cloud_price* book_price(const run_cost_inputs& in, const gpu_spec& g) {
  const cloud_price* p = cheapest_price(in.book, g, in.term, in.provider);
  if (p == nullptr && in.require_price) detail::no_price(g, in.term, in.provider);
  return p;
}

constexpr run_cost_report price_run(const run_usage& u, const run_cost_inputs& in) {
  u.validate();
  in.site.validate();
  run_cost_report r;
  r.usage = u;
  if (in.price_per_gpu_hour.value > 0.0) {
    r.price = in.price_per_gpu_hour;
  } else {
    r.price_entry = book_price(in, u.gpu);
    if (r.price_entry != nullptr) r.price = r.price_entry->price(in.term);
  }
  r.priced = r.price.value > 0.0;
  if (r.priced) r.cost = run_cost(u, r.price);
  if (in.power_per_gpu.value > 0.0) {
    r.power_given = true;
    r.power_per_gpu = in.power_per_gpu;
    r.energy_lines.gpus = u.gpu_time * in.power_per_gpu;
    detail::check_input(detail::finite(r.energy_lines.gpus.value),
                        "run_cost_inputs.power_per_gpu x GPU-hours overflows: the power or the "
                        "GPU time is out of range");
    r.energy_lines.facility_overhead = (in.site.pue - 1.0) * r.energy_lines.gpus;
  } else {
    detail::check_input(in.node.gpus > 0, "run_cost_inputs.node.gpus must be positive");
    const node_spec n = node_around(in.node, u.gpu);
    r.power_per_gpu = per_gpu_power(n, in.utilization, in.power_model);
    r.energy_lines = run_energy(n, u.gpu_time, in.utilization, in.site, in.power_model);
  }
  r.carbon.operational = operational_carbon(r.facility_energy(), in.site.grid);
  if (in.embodied) r.carbon.embodied = embodied_carbon(u.gpu_time, in.embodied_inputs);
  return r;
}

}  // namespace gpuplan
