#!/usr/bin/env bash
# What each named header costs to compile on its own in two source trees, side by side: the median
# CPU time (user + system) of N compiles of a translation unit holding only that header, minus
# that of an empty translation unit, for tree A ("before") and tree B ("after"). The two trees
# are compiled alternately, header by header and run by run, so a burst of load on a shared
# machine hits both alike (compare the columns, not a column with another day's table).
#
#   bench/header_cost_pair.sh BEFORE_ROOT AFTER_ROOT [compiler] [runs] header...
#     BEFORE_ROOT, AFTER_ROOT  folders holding include/gpuplan (e.g. an exported older commit:
#                              before=$(mktemp -d); git archive c042fe0 include | tar -x -C "$before")
#     compiler, runs           defaults: g++ and 7 runs
#     header                   as included, e.g. gpuplan/plan/search.hpp
set -euo pipefail
if (($# < 5)); then
  echo "usage: $0 BEFORE_ROOT AFTER_ROOT compiler runs header..." >&2
  exit 2
fi
trees=("$1/include" "$2/include")
cxx="$3"
runs="$4"
shift 4
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
TIMEFORMAT='%3U %3S'
declare -A cpu
for ((r = 0; r < runs; ++r)); do
  for h in "" "$@"; do
    if [[ -n "${h}" ]]; then
      printf '#include <%s>\nint main() {}\n' "${h}" >"${out}/h.cpp"
    else
      printf 'int main() {}\n' >"${out}/h.cpp"
    fi
    for t in 0 1; do
      x=$({ time "${cxx}" -std=c++20 -O0 -c -I"${trees[$t]}" "${out}/h.cpp" -o "${out}/h.o" \
        2>"${out}/err"; } 2>&1) || { cat "${out}/err" >&2; exit 1; }
      read -r user sys <<<"${x}"
      cpu["${h}|${t}"]+="$(awk -v u="${user}" -v s="${sys}" 'BEGIN {printf "%.3f", u + s}') "
    done
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
b0=$(echo "${cpu["|0"]}" | median)
b1=$(echo "${cpu["|1"]}" | median)
"${cxx}" --version | head -1
echo "median of ${runs} compiles (-std=c++20 -O0 -c), alternated, CPU s above an empty TU" \
  "(${b0} s, ${b1} s); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
printf '%-42s %8s %8s\n' header before after
for h in "$@"; do
  m0=$(echo "${cpu["${h}|0"]}" | median)
  m1=$(echo "${cpu["${h}|1"]}" | median)
  awk -v n="<${h}>" -v a="${m0}" -v b="${m1}" -v b0="${b0}" -v b1="${b1}" \
    'BEGIN {printf "%-42s %+8.3f %+8.3f\n", n, a - b0, b - b1}'
done
