// gpuplan/units.hpp: the quantity core (types, units, literals). Depends on nothing.
#pragma once

#include <gpuplan/units/quantity.hpp>
#include <gpuplan/units/units.hpp>
