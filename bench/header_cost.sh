#!/usr/bin/env bash
# What each header costs to compile on its own: the median CPU time (user + system) of N compiles
# of a translation unit that includes only that header, minus that of an empty translation unit,
# and the size of that translation unit after preprocessing (non-blank lines of `-E -P`). Lists the
# standard headers the core uses, then every public header under include/gpuplan (those of the
# optional edges, io/ and probe/ and the {fmt} and Boost bridges, last), then the umbrella
# <gpuplan/gpuplan.hpp>, so the umbrella's compile cost (bench/compile_cost.sh) can be traced to
# its parts. Costs overlap (two headers that both include <string_view> pay for it once together),
# so they do not add up.
#
#   bench/header_cost.sh [--common-std] [compiler] [runs]      defaults: g++ and 5 runs
#
# --common-std: every TU, the empty one included, starts with the standard headers of
# bench/compile_cost/common_std.hpp (issue 23's "TU of common standard headers"), so each row is
# what the header adds beyond the standard headers a tool includes anyway.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "${here}/.." && pwd)"
pre=()
if [[ "${1:-}" == --common-std ]]; then
  pre=(-include "${here}/compile_cost/common_std.hpp")
  shift
fi
cxx="${1:-g++}"
runs="${2:-5}"
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
TIMEFORMAT='%3U %3S'
cost() {  # median CPU seconds to compile a TU holding the line $1
  printf '%s\nint main() {}\n' "$1" >"${out}/h.cpp"
  for ((r = 0; r < runs; ++r)); do
    t=$({ time "${cxx}" -std=c++20 -O0 -c -I"${root}/include" "${pre[@]}" "${out}/h.cpp" -o "${out}/h.o"; } 2>&1)
    read -r user sys <<<"${t}"
    awk -v u="${user}" -v s="${sys}" 'BEGIN {printf "%.3f\n", u + s}'
  done | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
lines() {  # non-blank lines of the preprocessed TU holding the line $1
  printf '%s\n' "$1" | "${cxx}" -std=c++20 -E -P -x c++ -I"${root}/include" "${pre[@]}" - | grep -c '[^[:space:]]'
}
row() {  # name, include line
  awk -v n="$1" -v c="$(cost "$2")" -v b="${base}" -v l="$(lines "$2")" \
    'BEGIN {printf "%-45s %+7.3f %9d\n", n, c - b, l}'
}
base=$(cost "")
"${cxx}" --version | head -1
echo "median of ${runs} compiles (-std=c++20 -O0 -c${pre:+ -include compile_cost/common_std.hpp}), CPU s above an empty TU (${base} s); load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
printf '%-45s %7s %9s\n' header "CPU s" "pp lines"
headers=(compare concepts limits type_traits string_view cmath array span string stdexcept)
for h in "${headers[@]}"; do row "<${h}>" "#include <${h}>"; done
mapfile -t own < <(cd "${root}/include" && find gpuplan -name '*.hpp' ! -path 'gpuplan/io/*' \
  ! -path 'gpuplan/probe/*' ! -name format.hpp ! -name boost.hpp ! -name gpuplan.hpp | LC_ALL=C sort)
mapfile -t edges < <(cd "${root}/include" && find gpuplan/io gpuplan/probe -name '*.hpp' | LC_ALL=C sort)
for h in "${own[@]}" "${edges[@]}" gpuplan/units/format.hpp gpuplan/specs/format.hpp \
  gpuplan/units/boost.hpp gpuplan/gpuplan.hpp; do
  row "<${h}>" "#include <${h}>"
done
