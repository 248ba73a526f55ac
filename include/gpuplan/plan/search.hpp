// gpuplan/plan/search.hpp: both searches, the best layout and hardware for a job by exhaustive
// search: a training job's (plan/search_training.hpp) and a serving deployment's
// (plan/search_serving.hpp). A program that runs one of them includes that one and compiles only
// its models (the training step or the serving model); this header is the two together, as
// `gpuplan search` runs them. Not in the umbrella <gpuplan/gpuplan.hpp>: include it by name.
#pragma once

#include <gpuplan/plan/search_serving.hpp>
#include <gpuplan/plan/search_training.hpp>
