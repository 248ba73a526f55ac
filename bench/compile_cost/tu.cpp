// The translation unit bench/compile_cost.sh times, in four variants (-DVARIANT=...):
//   1 raw       standard headers and raw doubles
//   2 units     <gpuplan/units.hpp>, the quantity core
//   3 umbrella  <gpuplan/gpuplan.hpp>, everything the umbrella header pulls in
//   4 boost     the same computation written with Boost.Units
// Each does the same few planning computations: weight memory, the time to stream it through
// HBM, the time of the FLOPs, the energy and the cost.
#include <cstdio>

#if VARIANT == 1

int main() {
  const double params = 70e9;
  const double bytes = params * 2.0;                 // bf16 weights, bytes
  const double hbm = 3.35e12;                        // bytes per second
  const double flops = 2.0 * params * 4096.0;        // FLOP per 4096-token batch
  const double peak = 989e12;                        // FLOP per second
  const double t_mem = bytes / hbm;                  // seconds
  const double t_cmp = flops / peak;                 // seconds
  const double t = t_mem < t_cmp ? t_cmp : t_mem;    // seconds
  const double joules = 700.0 * t;                   // watts x seconds
  const double dollars = 2.5 / 3600.0 * t;           // dollars per second x seconds
  const double gib = bytes / 1073741824.0;
  std::printf("%.1f GiB %.3f s %.1f J $%.6f\n", gib, t, joules, dollars);
}

#elif VARIANT == 2 || VARIANT == 3

#if VARIANT == 2
#include <gpuplan/units.hpp>
#else
#include <gpuplan/gpuplan.hpp>
#endif

int main() {
  using namespace gpuplan;
  using namespace gpuplan::literals;
  const double params = 70e9;
  const data_size bytes = params * 2_B;
  const bandwidth hbm = 3.35_TBps;
  const compute_amount flops = 2.0 * params * 4096 * 1_FLOP;
  const compute_rate peak = 989_TFLOPS;
  const duration t_mem = bytes / hbm;
  const duration t_cmp = flops / peak;
  const duration t = max(t_mem, t_cmp);
  const energy joules = 700_W * t;
  const money dollars = 2.5_usd_per_h * t;
  std::printf("%.1f GiB %.3f s %.1f J $%.6f\n", bytes.in(units::GiB), t.in(units::s),
              joules.in(units::J), dollars.in(units::usd));
}

#elif VARIANT == 4

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/systems/information/byte.hpp>
#include <boost/units/systems/si/energy.hpp>
#include <boost/units/systems/si/power.hpp>
#include <boost/units/systems/si/time.hpp>
#include <boost/units/unit.hpp>

namespace bu = boost::units;
struct compute_dim : bu::base_dimension<compute_dim, 31001> {};
struct money_dim : bu::base_dimension<money_dim, 31002> {};
struct flop_unit : bu::base_unit<flop_unit, compute_dim::dimension_type, 31001> {
  static const char* name() { return "FLOP"; }
  static const char* symbol() { return "FLOP"; }
};
struct usd_unit : bu::base_unit<usd_unit, money_dim::dimension_type, 31002> {
  static const char* name() { return "US dollar"; }
  static const char* symbol() { return "USD"; }
};
using plan_system =
    bu::make_system<bu::si::meter_base_unit, bu::si::kilogram_base_unit, bu::si::second_base_unit,
                    bu::information::byte_base_unit, flop_unit, usd_unit>::type;
using flop = bu::unit<compute_dim::dimension_type, plan_system>;
using usd = bu::unit<money_dim::dimension_type, plan_system>;

int main() {
  const double params = 70e9;
  const bu::quantity<bu::information::info> bytes = params * 2.0 * bu::information::bytes;
  const auto hbm = 3.35e12 * bu::information::bytes / bu::si::second;
  const bu::quantity<flop> flops = 2.0 * params * 4096.0 * flop();
  const auto peak = 989e12 * flop() / bu::si::second;
  const bu::quantity<bu::si::time> t_mem(bytes / hbm);
  const bu::quantity<bu::si::time> t_cmp(flops / peak);
  const bu::quantity<bu::si::time> t = t_mem < t_cmp ? t_cmp : t_mem;
  const bu::quantity<bu::si::energy> joules = 700.0 * bu::si::watts * t;
  const bu::quantity<usd> dollars(2.5 / 3600.0 * usd() / bu::si::second * t);
  std::printf("%.1f GiB %.3f s %.1f J $%.6f\n", bytes.value() / 1073741824.0, t.value(),
              joules.value(), dollars.value());
}

#endif
