// gpuplan/gpuplan.hpp: the umbrella header. Pulls in the core layers (units, specs, the hardware
// and model catalogs, models, plan); never the edges (formatting, Boost bridge, JSON, probe),
// which are included by name. Nor, by name too:
//  - MIG sharing, <gpuplan/plan/sharing.hpp> (mig_inference_fit, mig_inference_options) with its
//    profiles <gpuplan/catalog/mig.hpp>: 46M of the umbrella's instructions (docs/performance.md,
//    "Plan headers without the whole catalog"), for the one question of slicing a GPU;
//  - the heavy plan compositions, the searches <gpuplan/plan/search_training.hpp>
//    (search_training) and <gpuplan/plan/search_serving.hpp> (search_serving), both in
//    <gpuplan/plan/search.hpp>, <gpuplan/plan/capacity.hpp> (plan_capacity and its
//    alternatives) and <gpuplan/plan/training_capacity.hpp> (plan_training_gpus, plan_training_capacity): each
//    composes most of the models and adds its own code on top; together they were about a third
//    of the umbrella's compile time (docs/performance.md, "Compile cost back down");
//  - the dated market data, <gpuplan/catalog/prices.hpp> (the cloud price book and server
//    prices, catalog::default_prices) and <gpuplan/catalog/sites.hpp> (grid regions and sites):
//    every citation they carry is text the compiler copies character by character in every
//    translation unit, 154M of the umbrella's instructions (g++ 12, docs/performance.md, "std::span
//    and std::optional out, dated prices by name"), for data only a cost calculation reads;
//    The grid type <gpuplan/specs/grid.hpp> comes with the sites (7M on its own);
//  - the run-time reports over std::vector and std::string: plan/capacity_report.hpp,
//    plan/utilization.hpp (with the utilisation bands, <gpuplan/models/utilization_bands.hpp>,
//    which plan/capacity.hpp also includes), plan/cost_report.hpp and models/cost_horizon.hpp
//    (cost_over_horizon).
#pragma once

#include <gpuplan/units.hpp>

#include <gpuplan/catalog.hpp>

#include <gpuplan/specs/generic.hpp>
#include <gpuplan/specs/gpu.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/network.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/precision.hpp>
#include <gpuplan/specs/precision_regime.hpp>
#include <gpuplan/specs/pricing.hpp>
#include <gpuplan/specs/serving.hpp>
#include <gpuplan/specs/site.hpp>
#include <gpuplan/specs/source.hpp>
#include <gpuplan/specs/training.hpp>
#include <gpuplan/specs/transformer.hpp>

#include <gpuplan/models/assumptions.hpp>
#include <gpuplan/models/carbon.hpp>
#include <gpuplan/models/collectives.hpp>
#include <gpuplan/models/cost.hpp>
#include <gpuplan/models/energy.hpp>
#include <gpuplan/models/estimates.hpp>
#include <gpuplan/models/framework_memory.hpp>
#include <gpuplan/models/framework_profile.hpp>
#include <gpuplan/models/flops.hpp>
#include <gpuplan/models/inference_memory.hpp>
#include <gpuplan/models/memory_common.hpp>
#include <gpuplan/models/placement.hpp>
#include <gpuplan/models/power.hpp>
#include <gpuplan/models/queueing.hpp>
#include <gpuplan/models/scaling.hpp>
#include <gpuplan/models/kernels.hpp>
#include <gpuplan/models/roofline.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/models/serving_plan.hpp>
#include <gpuplan/models/torchtitan_memory.hpp>
#include <gpuplan/models/training_memory.hpp>
#include <gpuplan/models/training_step.hpp>

#include <gpuplan/plan/advice.hpp>
#include <gpuplan/plan/candidates.hpp>
#include <gpuplan/plan/cost.hpp>
#include <gpuplan/plan/serving_cost.hpp>
#include <gpuplan/plan/training_cost.hpp>
#include <gpuplan/plan/fit.hpp>
// Not here, by name (see above): plan/search.hpp, plan/capacity.hpp, catalog/prices.hpp,
// catalog/sites.hpp, and the run-time reports.
