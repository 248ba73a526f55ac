#!/usr/bin/env bash
# Times compiling one small translation unit (bench/compile_cost/tu.cpp) four ways -- raw doubles,
# the gpuplan units core, the whole <gpuplan/gpuplan.hpp>, and Boost.Units -- and prints the median
# of N runs of each and what each adds to the raw-double baseline.
#
#   bench/compile_cost.sh [--common-std] [compiler] [runs]      defaults: g++ and 9 runs (at least 7)
#
# --common-std: every variant starts with the standard headers of bench/compile_cost/common_std.hpp
# (issue 23's "TU of common standard headers"), as bench/compile_instructions.sh --common-std.
#
# Flags: -std=c++20 -O0 -c (compile only, no optimisation: what a developer waits for). The four
# variants are compiled round-robin, so a burst of load on a shared machine hits them all alike.
# Two clocks: CPU time (user + system, what the compiler itself spent; robust to other load on the
# machine) and wall time (what you wait for on an idle machine; inflated on a busy one).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "${here}/.." && pwd)"
pre=()
if [[ "${1:-}" == --common-std ]]; then
  pre=(-include "${here}/compile_cost/common_std.hpp")
  shift
fi
cxx="${1:-g++}"
runs="${2:-9}"
if ((runs < 7)); then
  echo "use at least 7 runs" >&2
  exit 2
fi
tu="${here}/compile_cost/tu.cpp"
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
names=(raw units umbrella boost)
declare -A cpu wall
TIMEFORMAT='%3R %3U %3S'
for ((r = 0; r < runs; ++r)); do
  for v in 1 2 3 4; do
    t=$({ time "${cxx}" -std=c++20 -O0 -c -I"${root}/include" "${pre[@]}" -DVARIANT=${v} "${tu}" \
      -o "${out}/tu${v}.o" 2>"${out}/err"; } 2>&1) || { cat "${out}/err" >&2; exit 1; }
    read -r real user sys <<<"${t}"
    wall[$v]+="${real} "
    cpu[$v]+="$(awk -v u="${user}" -v s="${sys}" 'BEGIN {printf "%.3f", u + s}') "
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
"${cxx}" --version | head -1
echo "runs: ${runs} each, round-robin; flags: -std=c++20 -O0 -c${pre:+ -include compile_cost/common_std.hpp}; load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
cbase=$(echo "${cpu[1]}" | median)
wbase=$(echo "${wall[1]}" | median)
printf '%-10s %14s %14s %14s %14s\n' variant "cpu median s" "cpu added s" "wall median s" "wall added s"
for v in 1 2 3 4; do
  c=$(echo "${cpu[$v]}" | median)
  w=$(echo "${wall[$v]}" | median)
  awk -v n="${names[$((v - 1))]}" -v c="${c}" -v cb="${cbase}" -v w="${w}" -v wb="${wbase}" \
    'BEGIN {printf "%-10s %14.3f %+14.3f %14.3f %+14.3f\n", n, c, c - cb, w, w - wb}'
done
