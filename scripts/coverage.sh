#!/usr/bin/env bash
# scripts/coverage.sh: line coverage of include/gpuplan by the unit tests (tests/unit/test_*.cpp),
# with clang's source-based coverage (docs/reliability.md). Not part of CI: run it by hand.
#
#   scripts/coverage.sh [-j JOBS]
#
# Builds the unit tests in build/coverage (clang 14, -O0 -fprofile-instr-generate
# -fcoverage-mapping), runs each with its own profile, merges them (llvm-profdata-14) and prints
#   1. llvm-cov-14's report of every header under include/gpuplan;
#   2. lines covered per layer (units, specs, catalog, models, plan, io, probe), summed from
#      the same export.
# The full per-line listing: llvm-cov-14 show -instr-profile=build/coverage/profiles/all.profdata
# -object ... (the command printed at the end), or add -format=html -output-dir=DIR.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs=2
while (($#)); do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "scripts/coverage.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

b=build/coverage
flags="-fprofile-instr-generate -fcoverage-mapping"
cmake -S . -B "$b" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$flags" \
  -DGPUPLAN_BUILD_TESTS=ON -DGPUPLAN_BUILD_EXAMPLES=OFF -DGPUPLAN_BUILD_BENCH=OFF \
  -DGPUPLAN_BUILD_FUZZ=OFF -DGPUPLAN_VERIFY_HEADERS=OFF -DGPUPLAN_INSTALL=OFF >/dev/null
targets=()
for f in tests/unit/test_*.cpp; do
  n=$(basename "$f" .cpp)
  targets+=("gpuplan_${n}")
done
cmake --build "$b" -j "$jobs" --target "${targets[@]}"

rm -rf "$b/profiles"
mkdir -p "$b/profiles"
objects=()
failed=0
for t in "${targets[@]}"; do
  exe="$b/tests/$t"
  LLVM_PROFILE_FILE="$root/$b/profiles/$t.profraw" "$exe" >/dev/null 2>&1 || {
    echo "warning: $t failed (its coverage still counts)" >&2
    failed=1
  }
  objects+=(-object "$exe")
done
llvm-profdata-14 merge -sparse "$b"/profiles/*.profraw -o "$b/profiles/all.profdata"

# The first object is the main binary; llvm-cov takes the rest as -object.
cov=(llvm-cov-14 report "${objects[@]:1}" -instr-profile="$b/profiles/all.profdata")
"${cov[@]}" "$root/include/gpuplan"

echo
echo "Lines per layer (include/gpuplan/...):"
llvm-cov-14 export "${objects[@]:1}" -instr-profile="$b/profiles/all.profdata" -summary-only \
  "$root/include/gpuplan" | python3 -c '
import json, sys, collections
data = json.load(sys.stdin)["data"][0]["files"]
layers = collections.OrderedDict()
for f in data:
    rel = f["filename"].split("include/gpuplan/", 1)[1]
    layer = rel.split("/", 1)[0] if "/" in rel else "(top)"
    layer = layer.replace(".hpp", "")
    c, n = f["summary"]["lines"]["covered"], f["summary"]["lines"]["count"]
    a = layers.setdefault(layer, [0, 0, 0])
    a[0] += c; a[1] += n; a[2] += 1
tc = sum(v[0] for v in layers.values()); tn = sum(v[1] for v in layers.values())
print(f"{\"layer\":10} {\"headers\":>7} {\"lines\":>7} {\"covered\":>8} {\"%\":>6}")
for k, (c, n, h) in sorted(layers.items()):
    print(f"{k:10} {h:7d} {n:7d} {c:8d} {100.0 * c / n if n else 0:6.1f}")
print(f"{\"total\":10} {len(data):7d} {tn:7d} {tc:8d} {100.0 * tc / tn:6.1f}")
'
echo
echo "per line: ${cov[*]/report/show} $root/include/gpuplan/<header>"
exit $failed
