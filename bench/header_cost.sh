#!/usr/bin/env bash
# What each header costs to compile on its own: the median CPU time (user + system) of N compiles
# of a translation unit that includes only that header, minus that of an empty translation unit.
# Lists the standard headers the core uses and every header <gpuplan/gpuplan.hpp> includes, so the
# umbrella's compile cost (bench/compile_cost.sh) can be traced to its parts. Costs overlap (two
# headers that both include <string_view> pay for it once together), so they do not add up.
#
#   bench/header_cost.sh [compiler] [runs]      defaults: g++ and 5 runs
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "${here}/.." && pwd)"
cxx="${1:-g++}"
runs="${2:-5}"
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
TIMEFORMAT='%3U %3S'
cost() {  # median CPU seconds to compile a TU holding the line $1
  printf '%s\nint main() {}\n' "$1" >"${out}/h.cpp"
  for ((r = 0; r < runs; ++r)); do
    t=$({ time "${cxx}" -std=c++20 -O0 -c -I"${root}/include" "${out}/h.cpp" -o "${out}/h.o"; } 2>&1)
    read -r user sys <<<"${t}"
    awk -v u="${user}" -v s="${sys}" 'BEGIN {printf "%.3f\n", u + s}'
  done | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
base=$(cost "")
"${cxx}" --version | head -1
echo "median of ${runs} compiles (-std=c++20 -O0 -c), CPU s above an empty TU (${base} s); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
headers=(compare concepts limits type_traits string_view cmath array span string stdexcept)
for h in "${headers[@]}"; do
  awk -v n="<${h}>" -v c="$(cost "#include <${h}>")" -v b="${base}" 'BEGIN {printf "%-45s %+7.3f\n", n, c - b}'
done
mapfile -t own < <(grep -h '^#include <gpuplan/' "${root}/include/gpuplan/gpuplan.hpp" | sed -E 's/#include <(.*)>/\1/')
for h in "${own[@]}" gpuplan/gpuplan.hpp; do
  awk -v n="<${h}>" -v c="$(cost "#include <${h}>")" -v b="${base}" 'BEGIN {printf "%-45s %+7.3f\n", n, c - b}'
done
