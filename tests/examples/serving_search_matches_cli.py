#!/usr/bin/env python3
"""examples/serving_search.cpp prints what `gpuplan search serve` prints for the same space.

    serving_search_matches_cli.py EXAMPLE GPUPLAN      exit 0 when they agree, 1 naming the row

Runs the example and the command (with --json) on the space the example's comment names, and
compares the counts and every ranked row: GPU, TP, weight dtype, concurrency, TTFT, TPOT,
tokens per second per GPU and cost per million tokens, each to the digits the example prints.
"""
import json
import re
import subprocess
import sys

ROW = re.compile(r"^  (\S+) +TP (\d+) +(\S+) +(\d+) sequences +TTFT +(\d+) ms +TPOT +([\d.]+) ms: +"
                 r"(\d+) tok/s per GPU, \$([\d.]+) per million tokens$")
COUNTS = re.compile(r"^searched (\d+) configurations: (\d+) invalid, (\d+) over memory, "
                    r"(\d+) missed the SLO$")


def main(example, gpuplan):
    text = subprocess.run([example], check=True, capture_output=True, text=True).stdout
    cli = json.loads(subprocess.run(
        [gpuplan, "search", "serve", "--model", "llama-3.1-70b", "--gpu", "h100,h200",
         "--input-len", "1024", "--output-len", "256", "--ttft-slo", "2", "--tpot-slo", "0.05",
         "--top", "5", "--json"], check=True, capture_output=True, text=True).stdout)
    lines = text.splitlines()
    counts = COUNTS.match(lines[0])
    problems = []
    if not counts:
        problems.append(f"first line is not the counts: {lines[0]!r}")
    else:
        want = (cli["configurations_evaluated"], cli["pruned"]["invalid"],
                cli["pruned"]["over_memory"], cli["pruned"]["missed_slo"])
        if tuple(int(g) for g in counts.groups()) != want:
            problems.append(f"counts {counts.groups()} against the command's {want}")
    rows = [ROW.match(line) for line in lines[2:]]
    if not rows or any(r is None for r in rows):
        problems.append(f"rows not in the example's form: {lines[2:]}")
        rows = []
    if len(rows) != len(cli["results"]) or not rows:
        problems.append(f"{len(rows)} rows against the command's {len(cli['results'])}")
    for i, (r, x) in enumerate(zip(rows, cli["results"])):
        gpu, tp, weights, conc, ttft, tpot, tps, cost = r.groups()
        want = (x["gpu"], str(x["tp"]), x["weight_dtype"], f"{x['concurrency']:.0f}",
                f"{x['ttft_s'] * 1e3:.0f}", f"{x['tpot_s'] * 1e3:.1f}",
                f"{x['output_tokens_per_s_per_gpu']:.0f}", f"{x['cost_per_million_tokens']:.3f}")
        if (gpu, tp, weights, conc, ttft, tpot, tps, cost) != want:
            problems.append(f"row {i + 1}: {r.group(0).strip()!r} against the command's {want}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
