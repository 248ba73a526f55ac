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
           50 GB/s per GPU between nodes) = gpuplan's --gpu h100 in its DGX H100 node, with the
           second memory tier (512 GiB of host memory for offloading) set to 0 GiB, because
           gpuplan's search does not search offloading; Calculon then skips its offload knobs
  GPUs     16 (two nodes); global batch 32 (Calculon: the largest multiple of DP up to
           max_batch_size = 32); 16-bit data (Calculon float16, gpuplan bf16)
  knobs    Calculon: TP x PP (DP = the rest) x pipeline interleaving x recompute (full,
           attn_only, none) x optimizer sharding x TP communication (all-reduce, or two kinds of
           reduce-scatter/all-gather = sequence parallelism) x all-gather redo x micro-batch x
           the network tier of each of TP, PP and DP; run with --no-tp-overlap --no-dp-overlap.
           gpuplan: the values Calculon's rules give for this model, GPU count and batch (TP,
           PP, virtual stages, micro-batches: mirror_lists below), ZeRO 0 and 1 (Calculon's
           optimizer sharding), recompute none/selective/full, sequence parallelism off/on.

Each side is pinned to one core (the same one, --cpu) and they run one after the other.
Calculon runs with -c 1 (one worker process) and reports "Total executions": every
configuration it builds, including those it rejects (most rejections, memory among them, come
after the whole model has been evaluated), and its own "Calculation rate" (executions / wall
time of the search, without start-up). gpuplan runs `gpuplan search ... --threads 1 --json`:
`configurations_evaluated` (every index of its space, invalid combinations included), `pruned`,
`timed` and `seconds` (the search, without start-up). Printed ratios of gpuplan over Calculon:
  wall          each tool's own count and search-only rate, as each reports them;
  CPU           configurations per CPU-second of the whole process (user + system; gpuplan's
                start-up, catalog and output count against it: the figure to read on a shared
                machine, where wall time also counts other jobs' turns), with three counts:
                everything each tool counts; gpuplan's structurally valid configurations only
                (Calculon's enumeration never builds an invalid TP/PP/batch split); step times
                computed (gpuplan's `timed` against Calculon's "Good executions").

  bench/calculon/compare.py CALCULON_DIR --gpuplan build/release/tools/gpuplan/gpuplan
  bench/calculon/compare.py CALCULON_DIR --calculon-only
  bench/calculon/compare.py CALCULON_DIR --gpuplan BIN --calculon-result 30228,12402,94.5,245.0
        # reuse a Calculon run: total executions, good executions, its calculation rate (per
        # wall second) and its process CPU seconds
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


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def calculon_batch(dp, max_batch):
    """Calculon's OptimalExecution.get_batch_size: the largest multiple of dp up to max_batch."""
    return None if dp > max_batch else max_batch // dp * dp


def mirror_lists(model, gpus, max_batch):
    """The TP, PP, interleaving and micro-batch values Calculon's enumeration
    (Llm.get_all_tensor_parallelisms, get_all_pipeline_parallelisms,
    get_valid_pipeline_interleavings, get_valid_microbatch_sizes) takes for this search."""
    tps, pps, vss, mbs = set(), set(), set(), set()
    for tp in divisors(gpus):
        if model["hidden"] % tp or model["attn_heads"] % tp:
            continue
        for pp in divisors(min(gpus // tp, model["num_blocks"])):
            if gpus % (tp * pp) or model["num_blocks"] % pp:
                continue
            dp = gpus // (tp * pp)
            batch = calculon_batch(dp, max_batch)
            if batch is None:
                continue
            tps.add(tp)
            pps.add(pp)
            vss.update(divisors(model["num_blocks"] // pp) if pp > 1 else [1])
            mbs.update(m for m in divisors(batch // dp) if m * model["seq_size"] % tp == 0)
    return {k: ",".join(str(x) for x in sorted(v))
            for k, v in (("tp", tps), ("pp", pps), ("virtual-stages", vss), ("micro-batch", mbs))}


def checkout_paths(args):
    if not args.calculon:
        fail("give the Calculon checkout (the first argument, or $CALCULON_DIR)")
    checkout = os.path.abspath(args.calculon)
    paths = {"checkout": checkout,
             "tool": os.path.join(checkout, "bin", "calculon"),
             "model": os.path.join(checkout, "models", args.calculon_model + ".json"),
             "system": os.path.join(checkout, "systems", args.calculon_system + ".json")}
    for key, what in (("tool", "bin/calculon"), ("model", "the model file"),
                      ("system", "the system file")):
        if not os.path.isfile(paths[key]):
            fail(f"{what} {paths[key]} not found: is {checkout} a Calculon checkout?")
    return paths


def calculon_commit(checkout):
    try:
        return subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


def run_calculon(args, paths):
    check = subprocess.run([args.python, "-c", "import numpy, pandas, psutil"],
                           capture_output=True, text=True, check=False)
    if check.returncode != 0:
        fail(f"--python {args.python} cannot import numpy, pandas and psutil (Calculon needs "
             "them): pip install numpy pandas psutil")
    checkout = paths["checkout"]
    with open(paths["system"], encoding="utf-8") as f:
        sys_json = json.load(f)
    if not args.keep_offload:
        sys_json["mem2"]["GiB"] = 0  # no offload tier: Calculon skips its offload knobs
    with tempfile.TemporaryDirectory(prefix="gpuplan-calculon-") as tmp:
        sys_path = os.path.join(tmp, "system.json")
        out_path = os.path.join(tmp, "best.json")
        with open(sys_path, "w", encoding="utf-8") as f:
            json.dump(sys_json, f)
        cmd = [args.python, paths["tool"], "llm-optimal-execution"]
        if not args.keep_overlap:
            cmd += ["--no-tp-overlap", "--no-dp-overlap"]
        cmd += [paths["model"], str(args.gpus), str(args.batch), args.calculon_datatype, sys_path,
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

        total, good, rate = int(grab("Total executions")), int(grab("Good executions")), \
            grab("Calculation rate")
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
              f"{e['tensor_par_comm_type']}: {s['sample_rate']:.3f} samples/s "
              f"({e['batch_size'] / s['sample_rate']:.3f} s per step)")
    return {"total": total, "good": good, "rate": rate, "cpu_s": cpu_s}


def median(values):
    return sorted(values)[len(values) // 2]


def run_gpuplan(args, paths):
    if not os.path.isfile(args.gpuplan) or not os.access(args.gpuplan, os.X_OK):
        fail(f"--gpuplan {args.gpuplan} is not an executable (build the gpuplan CLI in Release)")
    with open(paths["model"], encoding="utf-8") as f:
        lists = mirror_lists(json.load(f), args.gpus, args.batch)
    cmd = [args.gpuplan, "search", "--model", args.gpuplan_model, "--gpu", args.gpuplan_gpu,
           "--gpus", str(args.gpus), "--global-batch", str(args.batch), "--seq", str(args.seq),
           "--dtype", args.gpuplan_dtype, "--tokens", args.tokens, "--framework", "megatron"]
    for key, value in lists.items():
        cmd += [f"--{key}", value]
    cmd += ["--zero", "0,1", "--recompute", "none,selective,full", "--sp", "off,on",
            "--threads", "1", "--json"] + args.gpuplan_arg
    print("gpuplan: " + " ".join(["gpuplan"] + cmd[1:])
          + (f"  (pinned to CPU {args.cpu})" if args.cpu is not None else ""))
    print(f"gpuplan: load average before: {loadavg()}", flush=True)
    runs = []
    for _ in range(args.repeat):
        proc, wall, cpu_s = run_timed(cmd, None, None, args.cpu)
        if proc.returncode != 0:
            fail(f"gpuplan search failed (exit {proc.returncode}): {proc.stderr.strip()}")
        try:
            result = json.loads(proc.stdout)
            run = {"evaluated": int(result["configurations_evaluated"]),
                   "invalid": int(result["pruned"]["invalid"]),
                   "timed": int(result["timed"]),
                   "seconds": float(result["seconds"]), "wall": wall, "cpu_s": max(cpu_s, 1e-6)}
        except (ValueError, KeyError, TypeError) as ex:
            fail(f"gpuplan search --json: no configurations_evaluated, pruned.invalid, timed or "
                 f"seconds ({ex})")
        if run["seconds"] <= 0:
            fail(f"gpuplan search --json: seconds = {run['seconds']}")
        runs.append(run)
        print(f"gpuplan: {run['evaluated']} configurations ({run['invalid']} invalid, "
              f"{run['timed']} timed) in {run['seconds']:.6f} s -> "
              f"{run['evaluated'] / run['seconds']:.4g} configurations/s; process {wall:.3f} s "
              f"wall, {cpu_s:.3f} s CPU")
    print(f"gpuplan: load average after: {loadavg()}")
    return runs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("calculon", nargs="?", default=os.environ.get("CALCULON_DIR"),
                   help="Calculon checkout (default: $CALCULON_DIR)")
    p.add_argument("--python", default=os.environ.get("CALCULON_PYTHON", sys.executable),
                   help="Python for Calculon, with numpy, pandas, psutil ($CALCULON_PYTHON)")
    p.add_argument("--gpuplan", help="the gpuplan CLI (a Release build)")
    p.add_argument("--calculon-only", action="store_true", help="measure Calculon only")
    p.add_argument("--calculon-result",
                   help="TOTAL,GOOD,RATE,CPU_S of an earlier Calculon run instead of running it")
    p.add_argument("--cpu", type=int, default=0, help="the core both run on (default 0)")
    p.add_argument("--no-pin", action="store_true", help="do not pin to a core")
    p.add_argument("--gpus", type=int, default=16, help="GPU count (default 16)")
    p.add_argument("--batch", type=int, default=32,
                   help="Calculon's max_batch_size and gpuplan's --global-batch (default 32; "
                        "keep it a multiple of every DP, as Calculon rounds the batch down to one)")
    p.add_argument("--seq", type=int, default=2048,
                   help="gpuplan --seq; Calculon's is in its model file (2048)")
    p.add_argument("--tokens", default="1e11",
                   help="gpuplan --tokens (the token budget: it scales the time and cost "
                        "reported, not the search)")
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
                   help="gpuplan runs (medians reported; default 5)")
    args = p.parse_args()
    if args.no_pin:
        args.cpu = None
    if args.gpus < 1 or args.batch < 1 or args.repeat < 1:
        fail("--gpus, --batch and --repeat must be at least 1")
    if not args.calculon_only and not args.gpuplan:
        fail("--gpuplan BIN is required (or --calculon-only)")
    paths = checkout_paths(args)

    if args.calculon_result:
        try:
            total, good, rate, cpu_s = args.calculon_result.split(",")
            cal = {"total": int(total), "good": int(good), "rate": float(rate),
                   "cpu_s": float(cpu_s)}
        except ValueError:
            fail("--calculon-result must be TOTAL,GOOD,RATE,CPU_S (numbers)")
        if min(cal.values()) <= 0:
            fail("--calculon-result: every number must be above 0")
        print(f"calculon: {cal['total']} configurations ({cal['good']} fit), {cal['rate']} "
              f"configurations/s (search, wall), {cal['cpu_s']} s CPU (given)")
    else:
        cal = run_calculon(args, paths)
    if args.calculon_only:
        return
    runs = run_gpuplan(args, paths)

    wall = median([r["evaluated"] / r["seconds"] for r in runs])
    print(f"ratio, wall, each tool's count (search only; medians of {len(runs)}): "
          f"{wall / cal['rate']:.4g} ({wall:.4g} / {cal['rate']:.4g} configurations/s)")
    for what, ours, theirs in (
            ("every configuration each counts", "evaluated", cal["total"]),
            ("gpuplan's structurally valid ones", None, cal["total"]),
            ("step times computed (gpuplan timed, Calculon good)", "timed", cal["good"])):
        mine = median([(r[ours] if ours else r["evaluated"] - r["invalid"]) / r["cpu_s"]
                       for r in runs])
        cal_rate = theirs / cal["cpu_s"]
        print(f"ratio, CPU, {what}: {mine / cal_rate:.4g} "
              f"({mine:.4g} / {cal_rate:.4g} per CPU-second)")


if __name__ == "__main__":
    main()
