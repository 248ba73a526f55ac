#!/usr/bin/env bash
# scripts/coverage.sh: line coverage of include/gpuplan by the unit tests (tests/unit/test_*.cpp),
# with clang's source-based coverage (docs/reliability.md). Not part of CI: run it by hand.
#
#   scripts/coverage.sh [-j JOBS]
#
# Builds the unit tests in build/coverage (clang 14, Debug, -fprofile-instr-generate
# -fcoverage-mapping), runs each with its own profile (llvm-profdata-14, llvm-cov-14 export as
# lcov) and prints, for every header under include/gpuplan, its instrumented lines and those that
# some unit test executed (the union over the test binaries), then the same per layer (units,
# specs, catalog, models, plan, io, probe). Per line: the llvm-cov-14 show command printed at the
# end.
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
  -DGPUPLAN_BUILD_TESTS=ON -DGPUPLAN_BUILD_TOOL=OFF -DGPUPLAN_BUILD_EXAMPLES=OFF -DGPUPLAN_BUILD_BENCH=OFF \
  -DGPUPLAN_BUILD_FUZZ=OFF -DGPUPLAN_VERIFY_HEADERS=OFF -DGPUPLAN_INSTALL=OFF >/dev/null
targets=()
for f in tests/unit/test_*.cpp; do
  n=$(basename "$f" .cpp)
  targets+=("gpuplan_${n}")
done
cmake --build "$b" -j "$jobs" --target "${targets[@]}"

rm -rf "$b/profiles"
mkdir -p "$b/profiles"
failed=0
# One profile and one lcov export per test binary, unioned line by line below. (Merging all the
# profiles into one and reporting over all the binaries at once would lose counts: the same
# inline header function compiled in several binaries, at -O0 in most and -O2 in the queueing
# tests, gets mismatched hashes and llvm-cov drops it, "N functions have mismatched data".)
for t in "${targets[@]}"; do
  exe="$b/tests/$t"
  LLVM_PROFILE_FILE="$root/$b/profiles/$t.profraw" "$exe" >/dev/null 2>&1 || {
    echo "warning: $t failed (its coverage still counts)" >&2
    failed=1
  }
  llvm-profdata-14 merge -sparse "$b/profiles/$t.profraw" -o "$b/profiles/$t.profdata"
  llvm-cov-14 export -format=lcov "$exe" -instr-profile="$b/profiles/$t.profdata" \
    -ignore-filename-regex='(^|/)(tests|examples|usr)/' >"$b/profiles/$t.lcov"
done

python3 - "$b/profiles" <<'PY'
import collections, glob, os, sys
hits = collections.defaultdict(dict)  # header -> line -> executed in some binary
for path in glob.glob(os.path.join(sys.argv[1], "*.lcov")):
    name = None
    for line in open(path):
        if line.startswith("SF:"):
            name = os.path.normpath(line[3:].strip())
            name = name.split("include/gpuplan/", 1)[1] if "include/gpuplan/" in name else None
        elif line.startswith("DA:") and name:
            n, count = line[3:].split(",")[:2]
            lines = hits[name]
            lines[int(n)] = lines.get(int(n), False) or int(count) > 0
print(f"{'header (include/gpuplan/)':42} {'lines':>6} {'covered':>8} {'%':>6}")
layers = collections.defaultdict(lambda: [0, 0, 0])
for name in sorted(hits):
    n, c = len(hits[name]), sum(hits[name].values())
    print(f"{name:42} {n:6d} {c:8d} {100.0 * c / n if n else 100.0:6.1f}")
    layer = name.split("/", 1)[0] if "/" in name else "(top) " + name.replace(".hpp", "")
    a = layers[layer]
    a[0] += 1; a[1] += n; a[2] += c
print()
print(f"{'layer':24} {'headers':>7} {'lines':>7} {'covered':>8} {'%':>6}")
tn = tc = th = 0
for k in sorted(layers):
    h, n, c = layers[k]
    th += h; tn += n; tc += c
    print(f"{k:24} {h:7d} {n:7d} {c:8d} {100.0 * c / n if n else 100.0:6.1f}")
print(f"{'total':24} {th:7d} {tn:7d} {tc:8d} {100.0 * tc / tn:6.1f}")
PY
echo
echo "per line, one binary: llvm-cov-14 show $b/tests/BINARY -instr-profile=$b/profiles/BINARY.profdata $root/include/gpuplan/HEADER"
exit $failed
