#!/usr/bin/env bash
# Where <gpuplan/plan/search.hpp>'s compile cost comes from, include by include: counts
# (bench/compile_instructions.sh --common-std) TUs that include a growing part of what the search
# includes, then the search itself, then the two halves a split of the search would leave (what
# the serving search and the training search each include). docs/performance.md, "Where
# plan/search.hpp's instructions go".
#
#   bench/compile_cost/search_includes.sh [compiler]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
join() { local IFS=+; echo "$*"; }
g=gpuplan
units=${g}/units.hpp
specs=$(join ${g}/specs/{gpu,node,layout,network,training,transformer,serving,precision,enum_names,inplace_vector,array_view,generic,precision_regime,pricing}.hpp)
common_models=$(join ${g}/models/{collectives,kernels,flops,memory_common}.hpp)
more_models=$(join ${g}/models/{inference_memory,placement,queueing,training_memory}.hpp)
foundations=$(join ${g}/models/training_step.hpp ${g}/models/serving.hpp ${g}/plan/fit_core.hpp)
shared=$(join ${g}/catalog/prices.hpp ${g}/plan/{candidates,cost,fit_core}.hpp \
  ${g}/specs/{array_view,enum_names,inplace_vector,precision_regime}.hpp)
echo "header rows, in order: units core; the specs; + collectives, kernels, flops, memory_common;"
echo "+ inference_memory, placement, queueing, training_memory; training_step + serving + fit_core;"
echo "+ training_cost; + every other include of the search (all of them); plan/search.hpp;"
echo "the includes both halves share; + the serving model (serving half); + the training models"
echo "(training half)"
exec "${here}/../compile_instructions.sh" --common-std "${1:-g++}" \
  "${units}" \
  "${specs}" \
  "${specs}+${common_models}" \
  "${specs}+${common_models}+${more_models}" \
  "${foundations}" \
  "${foundations}+${g}/plan/training_cost.hpp" \
  "${foundations}+${g}/plan/training_cost.hpp+${shared}+${g}/models/framework_memory.hpp" \
  "${g}/plan/search.hpp" \
  "${shared}" \
  "${shared}+${g}/models/serving.hpp" \
  "${shared}+${g}/models/framework_memory.hpp+${g}/models/training_step.hpp+${g}/plan/training_cost.hpp"
