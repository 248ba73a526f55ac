#!/usr/bin/env bash
# Runs the quantity-overhead benchmark with repetitions and prints, for each pair, the median CPU
# time per iteration of the quantity and the double version, their ratio (1.00 = no overhead) and
# each side's coefficient of variation (stddev / mean over the repetitions: the noise).
# Repetitions of all benchmarks are interleaved in random order, so drift in machine load
# spreads over both sides of each pair.
#
#   bench/run_overhead.sh path/to/gpuplan_bench_quantity_overhead [repetitions]   default 15
set -euo pipefail
bin="${1:?usage: run_overhead.sh path/to/gpuplan_bench_quantity_overhead [repetitions]}"
reps="${2:-15}"
csv="$("${bin}" --benchmark_repetitions="${reps}" --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true \
  --benchmark_format=csv 2>/dev/null)"
echo "repetitions: ${reps}; load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
echo "${csv}" | awk -F, '
  /_median"?,/ { name = $1; gsub(/"/, "", name); sub(/_median$/, "", name); cpu[name] = $4 }
  /_mean"?,/   { name = $1; gsub(/"/, "", name); sub(/_mean$/, "", name); mean[name] = $4 }
  /_stddev"?,/ { name = $1; gsub(/"/, "", name); sub(/_stddev$/, "", name); sd[name] = $4 }
  END {
    printf "%-26s %14s %14s %8s %12s\n", "pair", "double ns", "quantity ns", "ratio", "cv d / q"
    n = split("roofline_inline roofline_call chain", pairs, " ")
    for (i = 1; i <= n; ++i) {
      p = pairs[i]; split(p, parts, "_"); rest = substr(p, length(parts[1]) + 2)
      d = "BM_" parts[1] "_double" (rest == "" ? "" : "_" rest)
      q = "BM_" parts[1] "_quantity" (rest == "" ? "" : "_" rest)
      printf "%-26s %14.1f %14.1f %8.3f %5.1f%% / %4.1f%%\n", p, cpu[d], cpu[q], cpu[q] / cpu[d], 100 * sd[d] / mean[d], 100 * sd[q] / mean[q]
    }
  }'
