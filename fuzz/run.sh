#!/usr/bin/env bash
# fuzz/run.sh: long fuzzing runs of gpuplan's readers, and the coverage they reach
# (docs/reliability.md). CI runs each target for a bounded number of executions (the fuzz.* CTest
# tests of the asan preset); this script is for hours.
#
#   fuzz/run.sh [-t SECONDS] [-f WORKERS] [TARGET...]   fuzz each TARGET (default: all) SECONDS
#                                                       (default 3600), WORKERS processes each
#                                                       (libFuzzer -fork; default 1)
#   fuzz/run.sh --coverage [TARGET...]                  line coverage of the sources each target
#                                                       reaches from its corpus (llvm-cov)
#   fuzz/run.sh --list                                  the targets
#
# Builds in build/fuzz (clang 14, -O1 -g, libFuzzer + ASan + UBSan). The corpus grows in
# build/fuzz/corpus/TARGET, seeded from fuzz/corpus/TARGET; crashes, leaks, timeouts and
# out-of-memory inputs land in build/fuzz/artifacts/TARGET/. Reproduce one with
# build/fuzz/fuzz/gpuplan_fuzz_TARGET FILE, then make it a regression test
# (tests/unit/test_reader_promises.cpp or tests/cli/cli_tests.py) and, once fixed, copy it into
# fuzz/corpus/TARGET/. Worth merging back into fuzz/corpus now and then: the inputs that add
# coverage, minimised (libFuzzer -merge=1 fuzz/corpus/TARGET build/fuzz/corpus/TARGET).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

seconds=3600 workers=1 mode=fuzz targets=()
while (($#)); do
  case $1 in
    -t) seconds=$2; shift 2 ;;
    -f) workers=$2; shift 2 ;;
    --coverage) mode=coverage; shift ;;
    --list) mode=list; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "fuzz/run.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if ((${#targets[@]} == 0)); then
  for f in fuzz/*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
[[ $mode == list ]] && { printf '%s\n' "${targets[@]}"; exit 0; }

configure() {  # configure BUILD_DIR EXTRA_FLAGS
  cmake -S . -B "$1" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_CXX_FLAGS=-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $2" \
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined $2" \
    -DGPUPLAN_BUILD_FUZZ=ON -DGPUPLAN_BUILD_TESTS=OFF -DGPUPLAN_VERIFY_HEADERS=OFF \
    -DGPUPLAN_BUILD_BENCH=OFF -DGPUPLAN_INSTALL=OFF >/dev/null
  cmake --build "$1" --target "${targets[@]/#/gpuplan_fuzz_}"
}

if [[ $mode == coverage ]]; then
  b=build/fuzz-coverage
  configure "$b" "-fprofile-instr-generate -fcoverage-mapping"
  rm -rf "$b/profiles"
  mkdir -p "$b/profiles"
  objects=()
  for t in "${targets[@]}"; do
    dirs=("$root/fuzz/corpus/$t")
    [[ -d build/fuzz/corpus/$t ]] && dirs+=("$root/build/fuzz/corpus/$t")
    LLVM_PROFILE_FILE="$root/$b/profiles/$t.profraw" \
      "$b/fuzz/gpuplan_fuzz_$t" -runs=0 "${dirs[@]}" 2>&1 | grep -E '^#[0-9]+ +(INITED|DONE)' || true
    objects+=(-object "$b/fuzz/gpuplan_fuzz_$t")
  done
  llvm-profdata-14 merge -sparse "$b"/profiles/*.profraw -o "$b/profiles/all.profdata"
  # The first -object is the main binary; the rest follow as -object.
  llvm-cov-14 report "${objects[@]:1}" -instr-profile="$b/profiles/all.profdata" \
    "$root/include/gpuplan/io" "$root/tools/gpuplan"
  exit 0
fi

b=build/fuzz
configure "$b" ""
for t in "${targets[@]}"; do
  mkdir -p "$b/corpus/$t" "$b/artifacts/$t"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$root/$b/artifacts/$t/")
  [[ -f fuzz/dict/$t.dict ]] && args+=(-dict="$root/fuzz/dict/$t.dict")
  ((workers > 1)) && args+=(-fork="$workers" -ignore_crashes=1)
  echo "==> $t: ${seconds} s, $workers worker(s); corpus $b/corpus/$t"
  "$b/fuzz/gpuplan_fuzz_$t" "${args[@]}" "$root/$b/corpus/$t" "$root/fuzz/corpus/$t" ||
    echo "==> $t: stopped with a finding; see $b/artifacts/$t/"
done
ls -l "$b"/artifacts/*/ 2>/dev/null | grep -v '^total' || true
