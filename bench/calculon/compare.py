#!/usr/bin/env python3
"""Configurations per second per core: Calculon's llm-optimal-execution and gpuplan's search,
side by side on the same training search (issue 13, "Speed"; figures in docs/performance.md,
"Search: side by side with Calculon").

Calculon (https://github.com/calculon-ai/calculon) is not part of this repository: pass a checkout
of it (the first argument, or $CALCULON_DIR) and a Python that has numpy, pandas and psutil
(--python, or $CALCULON_PYTHON; default: the Python running this script).

The search (defaults; every part is an option):
  model    Calculon's models/megatron-22B.json = gpuplan's Megatron-GPT-22B (48 blocks, hidden
           6144, FFN 24576, 64 heads of 96, sequence 2048)
  system   Calculon's systems/h100_80g_nvl8.json (H100 80 GB, NVLink domain of 8 at 450 GB/s,
           50 GB/s per GPU between nodes) = gpuplan's --gpu h100 on DGX H100 nodes, with its second
           memory tier (512 GiB of host memory for offloading) set to 0 GiB, because gpuplan's
           search does not search offloading; Calculon then skips its three offload knobs
  GPUs     16 (two nodes); global batch: the largest multiple of DP up to 32 (Calculon's
           max_batch_size rule); 16-bit data (Calculon float16, gpuplan bf16)
  knobs    Calculon: TP x PP (DP = rest) x pipeline interleaving x recompute (full, attn_only,
           none) x optimizer sharding x TP communication (all-reduce, or reduce-scatter/all-gather
           = sequence parallel, two kinds) x all-gather redo x micro-batch x the network of each
           of TP, PP and DP; run with --no-tp-overlap --no-dp-overlap (gpuplan has no such knobs)

Each side is pinned to one core (the same one, --cpu) and runs alone, one after the other.
Calculon runs with -c 1 (one worker process) and reports "Total executions" (every configuration
it builds, including those it rejects: most rejections, such as memory, come after the whole
model is evaluated) and its own "Calculation rate" (executions / wall time of the search, without
start-up). gpuplan runs `gpuplan search ... --threads 1 --json`, whose `configurations_evaluated`
and `seconds` give its rate the same way (search only). Two ratios of gpuplan's rate over
Calculon's are printed:
  wall  each tool's own search-only rate (wall clock), as each reports it;
  CPU   configurations per CPU-second of the whole process (user + system, start-up and output
        included: this counts gpuplan's start-up against it, which matters for a small search).
On a shared machine the CPU ratio is the one to read: wall time also counts other jobs' turns.

  bench/calculon/compare.py CALCULON_DIR --gpuplan build/release/examples/gpuplan/gpuplan
  bench/calculon/compare.py CALCULON_DIR --calculon-only
  bench/calculon/compare.py --gpuplan BIN --calculon-rate 94.5 --calculon-cpu-rate 123.4
                                            # reuse figures measured before (wall, CPU)
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time


def fail(message):
    print(f"compare.py: {message}", file=sys.stderr)
    sys.exit(2)


def loadavg():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "n/a"


def pinned(cpu):
    """preexec_fn that pins the child (and what it forks) to one core."""
    if cpu is None:
        return None
    return lambda: os.sched_setaffinity(0, {cpu})


def run_timed(cmd, cwd, env, cpu):
    """Runs cmd; returns (completed process, wall seconds, CPU seconds of it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, preexec_fn=pinned(cpu), capture_output=True,
                          text=True, check=False)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc, wall, cpu_s


def calculon_commit(checkout):
    try:
        return subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


def run_calculon(args):
    checkout = os.path.abspath(args.calculon)
    tool = os.path.join(checkout, "bin", "calculon")
    model = os.path.join(checkout, "models", args.calculon_model + ".json")
    system = os.path.join(checkout, "systems", args.calculon_system + ".json")
    for path, what in ((tool, "bin/calculon"), (model, "the model file"),
                       (system, "the system file")):
        if not os.path.isfile(path):
            fail(f"{what} {path} not found: is {checkout} a Calculon checkout?")
    check = subprocess.run([args.python, "-c", "import numpy, pandas, psutil"],
                           capture_output=True, text=True, check=False)
    if check.returncode != 0:
        fail(f"--python {args.python} cannot import numpy, pandas and psutil (Calculon needs "
             "them): pip install numpy pandas psutil")

    with open(system, encoding="utf-8") as f:
        sys_json = json.load(f)
    if not args.keep_offload:
        sys_json["mem2"]["GiB"] = 0  # no offload tier: Calculon skips its offload knobs
    with tempfile.TemporaryDirectory(prefix="gpuplan-calculon-") as tmp:
        sys_path = os.path.join(tmp, "system.json")
        out_path = os.path.join(tmp, "best.json")
        with open(sys_path, "w", encoding="utf-8") as f:
            json.dump(sys_json, f)
        cmd = [args.python, tool, "llm-optimal-execution"]
        if not args.keep_overlap:
            cmd += ["--no-tp-overlap", "--no-dp-overlap"]
        cmd += [model, str(args.gpus), str(args.batch), args.calculon_datatype, sys_path,
                out_path, "-c", "1", "-n", "-t", "1"]
        env = dict(os.environ, PYTHONPATH=checkout)
        print(f"calculon: commit {calculon_commit(checkout)}")
        print("calculon: " + " ".join(cmd[1:]).replace(checkout + "/", "")
              + ("" if args.keep_offload else "  (system: mem2 GiB 0)")
              + (f"  (pinned to CPU {args.cpu})" if args.cpu is not None else ""))
        print(f"calculon: load average before: {loadavg()}", flush=True)
        proc, wall, cpu_s = run_timed(cmd, checkout, env, args.cpu)
        if proc.returncode != 0:
            fail(f"Calculon failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
        text = proc.stdout + proc.stderr

        def grab(label):
            m = re.search(label + r":\s*([0-9.]+)", text)
            if not m:
                fail(f"no '{label}' in Calculon's output:\n{text}")
            return float(m.group(1))

        total = int(grab("Total executions"))
        good = int(grab("Good executions"))
        rate = grab("Calculation rate")
        best = None
        if os.path.isfile(out_path):
            with open(out_path, encoding="utf-8") as f:
                best = json.load(f).get("0")
    print(f"calculon: {total} configurations ({good} fit, {total - good} rejected), "
          f"search {total / rate:.1f} s wall -> {rate:.2f} configurations/s; "
          f"process {wall:.1f} s wall, {cpu_s:.1f} s CPU -> {total / cpu_s:.2f} per CPU-second; "
          f"load average after: {loadavg()}")
    if best:
        e, s = best["execution"], best["stats"]
        print(f"calculon: best: tp {e['tensor_par']} pp {e['pipeline_par']} dp {e['data_par']} "
              f"interleaving {e['pipeline_interleaving']} micro-batch {e['microbatch_size']} "
              f"batch {e['batch_size']} recompute {e['activation_recompute']} "
              f"optimizer sharding {e['optimizer_sharding']} tp comm "
              f"{e['tensor_par_comm_type']}: {s['sample_rate']:.3f} samples/s")
    return rate, total / cpu_s


def run_gpuplan(args):
    if not os.path.isfile(args.gpuplan) or not os.access(args.gpuplan, os.X_OK):
        fail(f"--gpuplan {args.gpuplan} is not an executable (build the gpuplan CLI in Release)")
    cmd = [args.gpuplan, "search", "--model", args.gpuplan_model, "--gpu", args.gpuplan_gpu,
           "--gpus", str(args.gpus), "--global-batch", str(args.batch), "--seq", str(args.seq),
           "--dtype", args.gpuplan_dtype, "--threads", "1", "--json"] + args.gpuplan_arg
    print("gpuplan: " + " ".join(["gpuplan"] + cmd[1:])
          + (f"  (pinned to CPU {args.cpu})" if args.cpu is not None else ""))
    print(f"gpuplan: load average before: {loadavg()}", flush=True)
    rates, cpu_rates = [], []
    for _ in range(args.repeat):
        proc, wall, cpu_s = run_timed(cmd, None, None, args.cpu)
        if proc.returncode != 0:
            fail(f"gpuplan search failed (exit {proc.returncode}): {proc.stderr.strip()}")
        try:
            result = json.loads(proc.stdout)
            evaluated = int(result["configurations_evaluated"])
            seconds = float(result["seconds"])
        except (ValueError, KeyError, TypeError) as ex:
            fail(f"gpuplan search --json: no configurations_evaluated/seconds ({ex})")
        if seconds <= 0:
            fail(f"gpuplan search --json: seconds = {seconds}")
        rates.append(evaluated / seconds)
        cpu_rates.append(evaluated / max(cpu_s, 1e-6))
        print(f"gpuplan: {evaluated} configurations in {seconds:.6f} s -> "
              f"{evaluated / seconds:.4g} configurations/s (process {wall:.3f} s wall, "
              f"{cpu_s:.3f} s CPU)")
    rates.sort()
    cpu_rates.sort()
    median, cpu_median = rates[len(rates) // 2], cpu_rates[len(cpu_rates) // 2]
    print(f"gpuplan: medians of {len(rates)}: {median:.4g} configurations/s (search, wall), "
          f"{cpu_median:.4g} per CPU-second (process); load average after: {loadavg()}")
    return median, cpu_median


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("calculon", nargs="?", default=os.environ.get("CALCULON_DIR"),
                   help="Calculon checkout (default: $CALCULON_DIR)")
    p.add_argument("--python", default=os.environ.get("CALCULON_PYTHON", sys.executable),
                   help="Python for Calculon, with numpy, pandas, psutil ($CALCULON_PYTHON)")
    p.add_argument("--gpuplan", help="the gpuplan CLI (a Release build)")
    p.add_argument("--calculon-only", action="store_true", help="measure Calculon only")
    p.add_argument("--calculon-rate", type=float,
                   help="use this Calculon search rate (configurations/s, wall, measured before) "
                        "instead of running Calculon")
    p.add_argument("--calculon-cpu-rate", type=float,
                   help="with --calculon-rate: Calculon's configurations per CPU-second")
    p.add_argument("--cpu", type=int, default=0, help="the core both run on (default 0)")
    p.add_argument("--no-pin", action="store_true", help="do not pin to a core")
    p.add_argument("--gpus", type=int, default=16, help="GPU count (default 16)")
    p.add_argument("--batch", type=int, default=32,
                   help="Calculon's max_batch_size and gpuplan's --global-batch (default 32)")
    p.add_argument("--seq", type=int, default=2048,
                   help="gpuplan --seq; Calculon's comes from its model file (2048)")
    p.add_argument("--calculon-model", default="megatron-22B", help="models/NAME.json")
    p.add_argument("--calculon-system", default="h100_80g_nvl8", help="systems/NAME.json")
    p.add_argument("--calculon-datatype", default="float16")
    p.add_argument("--keep-offload", action="store_true",
                   help="keep the system's offload tier (Calculon then searches offloading)")
    p.add_argument("--keep-overlap", action="store_true",
                   help="let Calculon search TP and DP communication overlap")
    p.add_argument("--gpuplan-model", default="Megatron-GPT-22B")
    p.add_argument("--gpuplan-gpu", default="h100")
    p.add_argument("--gpuplan-dtype", default="bf16")
    p.add_argument("--gpuplan-arg", action="append", default=[],
                   help="one more argument for gpuplan search (repeatable)")
    p.add_argument("--repeat", type=int, default=5,
                   help="gpuplan runs (median reported; default 5)")
    args = p.parse_args()
    if args.no_pin:
        args.cpu = None
    if args.gpus < 1 or args.batch < 1 or args.repeat < 1:
        fail("--gpus, --batch and --repeat must be at least 1")
    if not args.calculon_only and not args.gpuplan:
        fail("--gpuplan BIN is required (or --calculon-only)")

    if args.calculon_rate is not None:
        if args.calculon_cpu_rate is None or args.calculon_rate <= 0 or args.calculon_cpu_rate <= 0:
            fail("--calculon-rate needs --calculon-cpu-rate, both above 0")
        calculon, calculon_cpu = args.calculon_rate, args.calculon_cpu_rate
        print(f"calculon: {calculon} configurations/s (search, wall), {calculon_cpu} per "
              "CPU-second (given)")
    else:
        if not args.calculon:
            fail("give the Calculon checkout (argument or $CALCULON_DIR), or --calculon-rate")
        calculon, calculon_cpu = run_calculon(args)
    if args.calculon_only:
        return
    ours, ours_cpu = run_gpuplan(args)
    print(f"ratio (wall, search only): gpuplan / Calculon = {ours / calculon:.4g} "
          f"({ours:.4g} / {calculon:.4g} configurations/s)")
    print(f"ratio (CPU, whole process): gpuplan / Calculon = {ours_cpu / calculon_cpu:.4g} "
          f"({ours_cpu:.4g} / {calculon_cpu:.4g} configurations per CPU-second)")


if __name__ == "__main__":
    main()
