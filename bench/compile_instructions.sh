#!/usr/bin/env bash
# The compile cost of bench/compile_cost/tu.cpp's four variants (raw doubles, the units core, the
# umbrella <gpuplan/gpuplan.hpp>, Boost.Units) as instructions the compiler executes, counted by
# valgrind (callgrind, every process g++ starts): unlike seconds, the count does not move with the
# load of a shared machine, so two trees or two headers compare in one run of each. About 25x
# slower than compiling (a minute or two per variant).
#
#   bench/compile_instructions.sh [--common-std] [compiler] [HEADER ...]
#
# --common-std: every TU starts with the standard headers of bench/compile_cost/common_std.hpp
# (issue 23's "TU of common standard headers"). HEADERs (paths under include/, e.g.
# gpuplan/plan/fit.hpp): also count a TU holding just that header (after the prelude, if any);
# HEADER may join several with '+' (a.hpp+b.hpp: one TU including both, in that order).
# Prints millions of instructions per variant and what each adds to the raw variant (or to the
# prelude alone, for headers).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "${here}/.." && pwd)"
pre=()
if [[ "${1:-}" == --common-std ]]; then
  pre=(-include "${here}/compile_cost/common_std.hpp")
  shift
fi
cxx="${1:-g++}"
shift || true
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
count() {  # millions of instructions to compile $1 with the flags after it
  local src="$1"
  shift
  rm -f "${out}"/cg.*
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="${out}/cg.%p" \
    "${cxx}" -std=c++20 -O0 -c -I"${root}/include" "${pre[@]}" "$@" "${src}" -o "${out}/o.o" \
    2>"${out}/log" || { cat "${out}/log" >&2; exit 1; }
  grep -h '^summary:' "${out}"/cg.* | awk '{s += $2} END {printf "%.0f\n", s / 1e6}'
}
"${cxx}" --version | head -1
echo "flags: -std=c++20 -O0 -c${pre:+ -include compile_cost/common_std.hpp}; millions of instructions (valgrind callgrind)"
printf '%-40s %12s %12s\n' variant "Minstr" "added"
names=(raw units umbrella boost)
base=""
for v in 1 2 3 4; do
  n=$(count "${here}/compile_cost/tu.cpp" -DVARIANT=${v})
  [[ -z "${base}" ]] && base=${n}
  printf '%-40s %12d %+12d\n' "${names[$((v - 1))]}" "${n}" "$((n - base))"
done
if (($# > 0)); then
  printf 'int main() {}\n' >"${out}/empty.cpp"
  hbase=$(count "${out}/empty.cpp")
  printf '%-40s %12d %+12d\n' "(empty TU)" "${hbase}" 0
  for h in "$@"; do
    IFS=+ read -ra parts <<<"${h}"
    { printf '#include <%s>\n' "${parts[@]}"; printf 'int main() {}\n'; } >"${out}/h.cpp"
    n=$(count "${out}/h.cpp")
    printf '%-40s %12d %+12d\n' "<${h}>" "${n}" "$((n - hbase))"
  done
fi
