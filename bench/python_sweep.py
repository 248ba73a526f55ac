#!/usr/bin/env python3
"""Benchmark: 10,000-point sweeps from Python (gpuplan.sweep), by command and thread count.

Each sweep is a grid of 10,000 plans run by the compiled module (every point a whole command:
its arguments read and checked, the library's report, the report flattened into a row), then a
pandas DataFrame when pandas is installed. Prints the median of `--repeat` runs, the share of
points the tool refused (a refused point is a row with its error, cheaper than a report), and
the time the C++ part took alone (the module's sweep, before json.loads and the DataFrame).

    python3 -m venv v && v/bin/pip install . pandas
    v/bin/python bench/python_sweep.py            # docs/performance.md, "Python sweeps"
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

os.environ.setdefault("GPUPLAN_PROGRESS", "never")

import gpuplan  # noqa: E402
from gpuplan import _gpuplan  # noqa: E402

# 10,000 points each. train: 5 GPU counts x 4 TP x 500 global batches; serve: 4 TP x 2,500
# concurrencies; fit: 5 GPU counts x 4 TP x 500 micro-batches.
GRIDS = {
    "train": ("train", dict(model="llama-3.1-8b"),
              dict(gpus=[8, 16, 32, 64, 128], tp=[1, 2, 4, 8],
                   global_batch=list(range(512, 512 + 500 * 128, 128)))),
    "serve": ("serve", dict(model="llama-3.1-8b", gpu="h100"),
              dict(tp=[1, 2, 4, 8], concurrency=list(range(1, 2501)))),
    "fit": ("fit", dict(model="llama-3.1-8b", gpu="h100"),
            dict(gpus=[8, 16, 32, 64, 128], tp=[1, 2, 4, 8], micro_batch=list(range(1, 501)))),
}
CALLS = {"train": gpuplan.train, "serve": gpuplan.serve, "fit": gpuplan.fit}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", default="1,0", help="thread counts (0: every core)")
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}; gpuplan {gpuplan.__version__}")
    for name, (command, fixed, axes) in GRIDS.items():
        for threads in (int(t) for t in args.threads.split(",")):
            total, native = [], []
            refused = 0
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                table = gpuplan.sweep(CALLS[name], threads=threads, **fixed, **axes)
                total.append(time.perf_counter() - t0)
                refused = int(sum(e is not None for e in (table["error"] if hasattr(table, "columns")
                                                           else [r["error"] for r in table])))
                t0 = time.perf_counter()
                _gpuplan.sweep(command, json.dumps(fixed),
                               [(k, json.dumps(v)) for k, v in axes.items()], threads, "bench")
                native.append(time.perf_counter() - t0)
            points = 1
            for v in axes.values():
                points *= len(v)
            print(f"{name:5} {points} points, threads {threads or os.cpu_count()}: "
                  f"{statistics.median(total):.3f} s with the DataFrame, "
                  f"{statistics.median(native):.3f} s in C++ "
                  f"({points / statistics.median(native):,.0f} points/s), {refused} refused")


if __name__ == "__main__":
    main()
