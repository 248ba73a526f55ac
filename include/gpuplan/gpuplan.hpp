// gpuplan/gpuplan.hpp: the umbrella header. Pulls in the core layers (units, specs, models, plan);
// never the edges (formatting, Boost bridge, JSON, probe), which are included by name.
#pragma once

#include <gpuplan/units.hpp>
