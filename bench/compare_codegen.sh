#!/usr/bin/env bash
# Compiles bench/kernels.cpp at -O2 and compares the machine code of the quantity kernel with the
# raw-double kernel, instruction by instruction (addresses and symbol names stripped).
#
#   bench/compare_codegen.sh [compiler]      default g++
#
# Prints both listings' instruction counts and "identical" or the diff.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "${here}/.." && pwd)"
cxx="${1:-g++}"
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
"${cxx}" -std=c++20 -O2 -c -I"${root}/include" "${here}/kernels.cpp" -o "${out}/k.o"
listing() {  # the instructions of the function whose demangled name starts with $1
  objdump -d --no-show-raw-insn -C "${out}/k.o" |
    awk -v f="$1" '/^[0-9a-f]+ <.*>:$/ {on = index($0, "<" f "(") > 0; next} on && NF' |
    sed -E 's/^ *[0-9a-f]+:\s*//; s/#.*$//; s/\s+[0-9a-f]+ <.*$/ ADDR/; s/\s+$//' |
    grep -Ev '^(data16 |cs )*(nop[wl]?|xchg +%ax,%ax)( |$)'  # alignment padding after the ret
}
listing gpuplan_bench::roofline_quantity >"${out}/q.s"
listing gpuplan_bench::roofline_double >"${out}/d.s"
"${cxx}" --version | head -1
echo "roofline_quantity: $(wc -l <"${out}/q.s") instructions; roofline_double: $(wc -l <"${out}/d.s") instructions"
if diff -u "${out}/d.s" "${out}/q.s" >"${out}/diff"; then
  echo "identical instruction sequences"
else
  echo "the listings differ:"
  cat "${out}/diff"
  exit 1
fi
