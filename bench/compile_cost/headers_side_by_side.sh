#!/usr/bin/env bash
# Seconds, side by side in one run: compile_cost/tu.cpp's raw, umbrella and Boost.Units variants
# and a TU of each HEADER alone, all after the common standard headers (common_std.hpp),
# round-robin (every TU once a round, so a burst of load hits them all alike), N rounds. Prints the
# median CPU time (user + system) of each and what it adds: the variants over the raw one, the
# headers over the standard headers alone. bench/header_cost.sh compiles one header's runs back
# to back instead, which drifts more on a machine whose speed moves between minutes.
#
#   bench/compile_cost/headers_side_by_side.sh [runs] HEADER...     runs: default 11
#   e.g. bench/compile_cost/headers_side_by_side.sh 11 gpuplan/plan/search.hpp gpuplan/plan/fit.hpp
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "${here}/../.." && pwd)"
cxx="${CXX:-g++}"
runs=11
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  runs="$1"
  shift
fi
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
pre=(-include "${here}/common_std.hpp")
headers=(none "$@")
for i in "${!headers[@]}"; do
  { [[ "${headers[$i]}" == none ]] || printf '#include <%s>\n' "${headers[$i]}"; echo 'int main() {}'; } \
    >"${out}/h${i}.cpp"
done
declare -A t
TIMEFORMAT='%3U %3S'
cpu() {  # CPU seconds of one compile: the flags after the source
  local x
  x=$({ time "${cxx}" -std=c++20 -O0 -c -I"${root}/include" "${pre[@]}" "$@" -o "${out}/o.o"; } 2>&1)
  read -r u s <<<"${x}"
  awk -v u="${u}" -v s="${s}" 'BEGIN {printf "%.3f", u + s}'
}
for ((r = 0; r < runs; ++r)); do
  for v in 1 3 4; do t[v${v}]+="$(cpu -DVARIANT=${v} "${here}/tu.cpp") "; done
  for i in "${!headers[@]}"; do t[h${i}]+="$(cpu "${out}/h${i}.cpp") "; done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
"${cxx}" --version | head -1
echo "medians of ${runs} rounds, CPU s, -std=c++20 -O0 -c after compile_cost/common_std.hpp; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
raw=$(echo "${t[v1]}" | median)
names=([1]=raw [3]=umbrella [4]=boost)
for v in 1 3 4; do
  m=$(echo "${t[v${v}]}" | median)
  awk -v n="tu.cpp ${names[$v]}" -v m="${m}" -v b="${raw}" 'BEGIN {printf "%-45s %7.3f %+7.3f\n", n, m, m - b}'
done
base=$(echo "${t[h0]}" | median)
for i in "${!headers[@]}"; do
  m=$(echo "${t[h${i}]}" | median)
  n="${headers[$i]}"
  [[ "${n}" == none ]] && n="(standard headers alone)"
  awk -v n="${n}" -v m="${m}" -v b="${base}" 'BEGIN {printf "%-45s %7.3f %+7.3f\n", n, m, m - b}'
done
