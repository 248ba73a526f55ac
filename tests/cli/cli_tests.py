#!/usr/bin/env python3
"""Runs the gpuplan binary and checks its output and exit status.

    cli_tests.py --list                  the case names, one per line (CMake registers each)
    cli_tests.py BINARY DATA_DIR CASE    runs one case; exit 0 when it passes

Every number checked here is either published (the source is cited beside it) or follows exactly
from the inputs (a parameter count times bytes per parameter); the tolerance is written beside each.
"""
import json
import math
import os
import re
import signal
from shutil import which as shutil_which
import subprocess
import sys
import tempfile
import time

GB = 1e9
GiB = 2.0**30
CASES = {}


def case(name):
    def register(fn):
        CASES[name] = fn
        return fn
    return register


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


class Run:
    def __init__(self, args, rc, out, err):
        self.args, self.rc, self.out, self.err = args, rc, out, err

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError as e:
            raise Failure(f"stdout is not JSON ({e}): {self.out[:400]!r}")


def run(*args, env=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    p = subprocess.run([BIN, *args], capture_output=True, text=True, env=full_env, timeout=120)
    return Run(args, p.returncode, p.stdout, p.stderr)


def ok(*args, env=None):
    r = run(*args, env=env)
    check(r.rc == 0, f"gpuplan {' '.join(args)}: exit {r.rc}, stderr {r.err!r}")
    return r


def ok_json(*args, env=None):
    return ok(*args, "--json", env=env).json()


def bad(pattern, *args, status=2):
    """A bad input: the given status, exactly one line on stderr matching pattern, no stdout."""
    r = run(*args)
    check(r.rc == status, f"gpuplan {' '.join(args)}: expected exit {status}, got {r.rc}; "
                          f"stderr {r.err!r}")
    lines = r.err.splitlines()
    check(len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {r.err!r}")
    check(lines[0].startswith("gpuplan: error: "), f"stderr line lacks the prefix: {lines[0]!r}")
    check(re.search(pattern, lines[0]), f"stderr {lines[0]!r} does not match /{pattern}/")
    check("Traceback" not in r.err and "terminate" not in r.err, "a crash trace on stderr")
    check(r.out == "", f"stdout should be empty on bad input: {r.out[:200]!r}")
    return r


def data(rel):
    return os.path.join(DATA, rel)


def near(x, y, tol, what):
    check(abs(x - y) <= tol, f"{what}: {x} vs {y} (tolerance {tol})")


def model_states(j):
    p = j["per_gpu"]
    return p["weights_bytes"] + p["gradients_bytes"] + p["optimizer_bytes"]


def plan_file(obj_or_text, directory=None):
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, dir=directory)
    f.write(obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text))
    f.close()
    return f.name


# ---- demo ----------------------------------------------------------------------------------------

@case("demo.default")
def _():
    r = ok()
    first = r.out.splitlines()[0]
    check(first.startswith("gpuplan demo: Llama-3.1-70B"), f"first line: {first!r}")
    # fit, speed, cost, serving, GPUs needed, layout search, the models of 2026: one short part
    # each, with its commands.
    check(len(re.findall(r"^\d\. ", r.out, re.M)) == 7, "seven parts")
    for c in ["fit", "train", "cost", "serve", "capacity", "search"]:
        check(f"$ gpuplan {c} " in r.out, f"the {c} command is shown")
    check("gpt-oss-120b" in r.out and "DeepSeek-V3" in r.out, "a 2026 model is shown")
    check(len(r.out.splitlines()) <= 42, f"brief: {len(r.out.splitlines())} lines")
    check("8 GPUs: does not fit" in r.out and "with --gpus 16: fits" in r.out,
          "the full fine-tune does not fit on one node and fits on two")
    check(r.err == "", f"stderr: {r.err!r}")
    check(ok("demo").out == r.out, "`gpuplan demo` prints what `gpuplan` prints")


def demo_parts():
    """{command name: (argv, the part's text)} from the demo's output."""
    parts = {}
    for part in re.split(r"^\d\. ", ok("demo").out, flags=re.M)[1:]:
        m = re.search(r"\$ gpuplan (\w+) (.*)", part)
        key = "2026" if part.startswith("The models of 2026") else m.group(1)
        parts[key] = ([m.group(1), *m.group(2).split()], part)
    return parts


def num(pattern, text):
    m = re.search(pattern, text)
    check(m, f"/{pattern}/ not in {text!r}")
    return float(m.group(1))


@case("demo.agrees_with_commands")
def _():
    """Each demo part prints the command that gives its figures; run it and compare."""
    p = demo_parts()
    argv, text = p["fit"]
    j = ok_json(*argv)
    check(not j["fits"], "the 8-GPU full fine-tune does not fit")
    near(j["per_gpu"]["total_bytes"] / GiB, num(r"8 GPUs: does not fit, ([\d.]+) GiB", text), 0.05,
         "fit total")
    check(j["advice"][0]["change"] in text, "the first advice is shown")
    j16 = ok_json(*[("16" if a == "8" else a) for a in argv])
    check(j16["fits"], "16 GPUs fit")
    # each part says what its figures assume (framework, precision, engine, prices' date), as
    # the command's JSON has it
    cfg = j16["config"]
    check(f"framework {cfg['framework']}, {cfg['dtype']}, {cfg['optimizer']}" in text,
          "the fit part names its framework, precision and optimizer")
    near(j16["per_gpu"]["total_bytes"] / GiB, num(r"--gpus 16: fits, ([\d.]+) GiB", text), 0.05,
         "fit total on 16 GPUs")
    argv, text = p["train"]
    j = ok_json(*argv)
    near(j["step_time_s"], num(r"step ([\d.]+) s", text), 0.005, "step time")
    check(f"16 GPUs ({j['framework']}, {cfg['dtype']})" in text, "the train part's framework")
    near(j["tokens_per_s"] / 1e3, num(r"([\d.]+)k tokens/s", text), 0.05, "tokens/s")
    near(j["gpu_hours"], num(r"\(([\d.]+) GPU-hours\)", text), 0.5, "GPU-hours")
    argv, text = p["cost"]
    j = ok_json(*argv)
    near(j["cost_usd"], num(r"\$([\d.]+) at", text), 0.5, "cost")
    check(f"priced {j['price']['date']})" in text, "the prices' date")
    near(j["energy_kwh"], num(r"([\d.]+) kWh", text), 0.5, "energy")
    near(j["carbon_kg"], num(r"([\d.]+) kg CO2e", text), 0.5, "carbon")
    near(j["training"]["expected_wall_time_hours"], num(r"reserves ([\d.]+) h with", text), 0.05,
         "reserved hours")
    near(j["training"]["reliability"]["ettr"], num(r"ETTR ([\d.]+)\)", text), 0.0005, "ETTR")
    check(f"{j['facility']['nodes']} {j['facility']['node']} in {j['facility']['racks']} rack(s)"
          in text, "the racks")
    near(j["facility"]["it_power_kw"], num(r"([\d.]+) kW of IT load", text), 0.05, "IT load")
    argv, text = p["serve"]
    j = ok_json(*argv)
    near(j["ttft_s"] * 1e3, num(r"TTFT ([\d.]+) ms", text), 0.5, "TTFT")
    check(f"Serving with {j['engine']} ({j['weight_dtype']} weights, {j['kv_dtype']} KV cache)"
          in text, "the engine and precisions served")
    near(j["tpot_s"] * 1e3, num(r"TPOT ([\d.]+) ms", text), 0.05, "TPOT")
    near(j["best"]["output_tokens_per_s"], num(r"in flight, ([\d.]+) tokens/s", text), 0.5,
         "best throughput under the SLO")
    argv, text = p["capacity"]
    j = ok_json(*argv)
    check(int(num(r"(\d+) replicas", text)) == j["replicas"], "replicas")
    check(j["demand"]["arrival_cv"] == 1 and "(Poisson arrivals)" in text, "the arrival process")
    check(int(num(r"\((\d+) GPUs\)", text)) == j["gpus"], "GPUs")
    near(j["utilization"] * 100, num(r"utilisation ([\d.]+)% mean", text), 0.5, "utilisation")
    argv, text = p["search"]
    j = ok_json(*argv)
    front = j["front"]
    check(f"the time-cost front has {len(front)}" in text, "the front's size")
    check(f"({j['framework']}, priced by the default book of 20" in text,
          "the search's framework and price book")
    near(front[0]["reserved_time_s"] / 3600, num(r"fastest .*: ([\d.]+) h", text), 0.05,
         "the fastest configuration's reserved time to train")
    near(front[0]["cost_usd"], num(r"fastest .*, \$([\d.]+)", text), 0.5, "its cost")
    check(f"fastest  {front[0]['gpus']} x {front[0]['gpu']}, TP {front[0]['layout']['tp']} x "
          f"PP {front[0]['layout']['pp']} x DP {front[0]['layout']['dp']}" in text,
          "the fastest layout")
    if len(front) > 1:
        near(front[-1]["cost_usd"], num(r"cheapest .*, \$([\d.]+)", text), 0.5,
             "the cheapest configuration's cost")
    _, text = p["2026"]
    runs = re.findall(r"\$ gpuplan serve (.*)\n(.*)", text)
    check(len(runs) == 2, "two 2026 models served")
    for args, line in runs:
        j = ok_json("serve", *args.split())
        near(j["per_gpu_bytes"] / GiB, num(r"([\d.]+) GiB per GPU", line), 0.05, "memory")
        near(j["tpot_s"] * 1e3, num(r"TPOT ([\d.]+) ms", line), 0.05, "TPOT")
        check(f"; {j['engine']}):" in line, "the engine serving the 2026 model")
        near(j["output_tokens_per_s"], num(r"([\d.]+) tokens/s", line), 0.5, "tokens/s")


@case("help")
def _():
    r = ok("--help")
    for c in ["demo", "gpus", "models", "fit", "probe", "capacity", "utilization"]:
        check(re.search(rf"^\s+{c}\b", r.out, re.M), f"--help lists {c}")
    f = ok("fit", "--help").out
    # The options of the issue are a contract.
    for opt in ["--model", "--gpu", "--gpus", "--train", "--infer", "--dtype", "--grad-dtype",
                "--optimizer", "--zero", "--dp", "--tp", "--pp", "--cp", "--ep", "--sp",
                "--virtual-stages", "--recompute", "--micro-batch", "--seq", "--flash-attention",
                "--lora", "--qlora", "--offload", "--weight-dtype", "--kv-dtype", "--batch",
                "--context", "--max-model-len", "--gpu-memory-utilization", "--block-size",
                "--plan", "--json", "--require-fit", "--framework", "--amp", "--master-weights",
                "--chunked-loss"]:
        check(re.search(rf"{re.escape(opt)}\b", f), f"fit --help lists {opt}")
    check(re.search(r"Default:\s+transformers", f), "fit --help states the default framework")
    check(ok("--version").out.startswith("gpuplan "), "--version")


# ---- catalogs ------------------------------------------------------------------------------------

@case("gpus.table")
def _():
    r = ok("gpus")
    lines = r.out.splitlines()
    check(lines[0].split()[:3] == ["GPU", "arch", "memory"], f"header: {lines[0]!r}")
    check(set(lines[1]) == {"-"}, "rule under the header")
    h100 = next(l for l in lines if l.startswith("H100-SXM5-80GB "))
    check("80 GiB" in h100 and "3.35 TB/s" in h100, f"H100 row: {h100!r}")
    # Columns line up: every row puts the memory column's last character at the same place.
    end = lines[0].index("memory") + len("memory")
    for l in lines[2:]:
        if not l.strip():
            break
        check(l[end - 1] == "B", f"memory column aligned: {l!r}")


@case("gpus.json")
def _():
    j = ok_json("gpus")
    by = {g["name"]: g for g in j}
    # Capacities in exact bytes: an "80GB" H100 or A100 has 80 GiB (datasheets, cited in the
    # catalog).
    check(by["H100-SXM5-80GB"]["memory_bytes"] == 80 * 2**30, "H100 80 GiB")
    check(by["A100-SXM4-40GB"]["memory_bytes"] == 40 * 2**30, "A100 40 GiB")
    # H100 SXM datasheet: 3.35 TB/s, 989.5 dense BF16 TFLOP/s, NVLink 900 GB/s bidirectional.
    check(by["H100-SXM5-80GB"]["memory_bandwidth_bytes_per_s"] == 3.35e12, "H100 bandwidth")
    near(by["H100-SXM5-80GB"]["peak_flops_per_s"]["bf16_tensor"], 989.5e12, 1e6, "H100 bf16")
    check(by["H100-SXM5-80GB"]["link"]["bidirectional_bytes_per_s"] == 900e9, "H100 NVLink")
    check("h100" in by["H100-SXM5-80GB"]["aliases"], "aliases listed")
    for g in j:
        check(g["memory_bytes"] > 0 and g["name"], f"every GPU has a name and memory: {g['name']}")


@case("gpus.2026_parts")
def _():
    # The 2026 parts (include/gpuplan/catalog/gpus.hpp cites each figure):
    #  B300 (HGX B300): BF16 36 PF* / 8 / 2 = 2,250 dense, FP4 13,125 dense (glennklockwood.com's
    #    HGX table), 8 TB/s; "288 GB" = 270 GiB enabled (HGX B300: 2.1 TB over 8), driver 275,040 MiB
    #  H20: FP16 148 dense, 96 GB HBM3, 4.0 TB/s, NVLink 900 GB/s (the H20 specification, Nov 2023)
    #  RTX 5090: 3,352 AI TOPS (FP4 sparse) / 2 = 1,676 dense FP4; 32 GB GDDR7, 1,792 GB/s
    #  MI355X: 256 CUs x 8,192 FP8 FLOP/clk x 2.4 GHz = 5,033.2 TFLOPS; 288 GB HBM3E, 8 TB/s
    #  GB200 (GB200 NVL72): FP4 1,440 PF* / 72 / 2 = 10,000 dense; NVLink to the 71 others
    by = {g["name"]: g for g in ok_json("gpus")}
    b300 = by["B300-SXM-288GB"]
    check(b300["memory_bytes"] == 270 * 2**30, f"B300 memory {b300['memory_bytes']}")
    check(b300["memory_usable_bytes"] == 275040 * 2**20, "B300 driver total")
    near(b300["peak_flops_per_s"]["bf16_tensor"], 2250e12, 1e6, "B300 bf16")
    near(b300["peak_flops_per_s"]["fp4_tensor"], 13125e12, 1e6, "B300 fp4")
    check(b300["memory_bandwidth_bytes_per_s"] == 8e12, "B300 bandwidth")
    check("b300" in b300["aliases"], "b300 alias")
    h20 = by["H20-96GB"]
    near(h20["peak_flops_per_s"]["bf16_tensor"], 148e12, 1e6, "H20 bf16")
    check(h20["memory_bytes"] == 96 * 2**30 and h20["memory_bandwidth_bytes_per_s"] == 4e12, "H20")
    check(h20["link"]["bidirectional_bytes_per_s"] == 900e9, "H20 NVLink")
    near(by["RTX-5090-32GB"]["peak_flops_per_s"]["fp4_tensor"], 1676e12, 1e6, "RTX 5090 fp4")
    near_rel(by["MI355X-288GB"]["peak_flops_per_s"]["fp8_tensor"], 256 * 8192 * 2.4e9, 1e-4,
             "MI355X fp8")
    near(by["GB200-186GB"]["peak_flops_per_s"]["fp4_tensor"], 1440e15 / 72 / 2, 1e6, "GB200 fp4")
    check(by["GB200-186GB"]["link"]["max_peers"] == 71, "GB200 NVLink reaches the rack")
    # unknown figures stay 0, never borrowed: the L20's tensor rates were not found
    check(by["L20-48GB"]["peak_flops_per_s"]["bf16_tensor"] == 0, "L20 bf16 unknown")
    for name in ["A800-SXM4-80GB", "H800-SXM5-80GB", "GB300-288GB", "RTX-PRO-6000-Blackwell-96GB",
                 "MI325X-256GB"]:
        check(name in by, f"{name} listed")
    # the table has an FP4 column, filled where the part has FP4
    r = ok("gpus")
    header = r.out.splitlines()[0]
    check("FP4 dense" in header, f"FP4 column: {header!r}")
    row = next(l for l in r.out.splitlines() if l.startswith("B300-SXM-288GB "))
    check("13.1 PFLOP/s" in row and "270 GiB" in row, f"B300 row: {row!r}")


@case("fit.b300_and_the_names_people_type")
def _():
    # Llama 3.1 70B (70,553,706,496 parameters, the catalog's exact count) on 8 B300: bf16
    # weights replicated over dp 8 are 2 bytes a parameter; the capacity is the driver's total.
    j = ok_json("fit", "--gpu", "b300", "--model", "Llama-3.1-70B", "--gpus", "8")
    check(j["gpu"]["name"] == "B300-SXM-288GB", f"gpu {j['gpu']['name']}")
    check(j["per_gpu"]["weights_bytes"] == 2 * 70553706496, "weights 2 bytes a parameter")
    check(j["gpu"]["plannable_memory_bytes"] == 275040 * 2**20, "plannable = driver total")
    check(any(a["fits"] for a in j["advice"]), "some advice fits")
    for typed, name in [("h20", "H20-96GB"), ("mi355x", "MI355X-288GB"),
                        ("rtx-5090", "RTX-5090-32GB"), ("RTX 5090", "RTX-5090-32GB"),
                        ("NVIDIA B300 SXM6 AC", "B300-SXM-288GB"), ("gb300", "GB300-288GB"),
                        ("h800", "H800-SXM5-80GB"), ("a800", "A800-SXM4-80GB"),
                        ("rtx-pro-6000", "RTX-PRO-6000-Blackwell-96GB"),
                        ("mi325x", "MI325X-256GB"), ("l20", "L20-48GB")]:
        j = ok_json("fit", "--gpu", typed, "--model", "Llama-3.1-8B", "--gpus", "1", "--infer")
        check(j["gpu"]["name"] == name, f"--gpu {typed!r} gave {j['gpu']['name']}")


@case("fit.nvl72_tensor_parallel_across_the_rack")
def _():
    # A GB200 sits in a 72-GPU NVLink domain (GB200 NVL72): the fit's advice may grow tensor
    # parallelism past 8; on a B200 (8-GPU DGX/HGX B200) it stops at 8.
    def widest_tp(gpu):
        j = ok_json("fit", "--gpu", gpu, "--model", "Llama-3.1-405B", "--gpus", "1",
                    "--framework", "megatron")
        tps = [int(m.group(1)) for a in j["advice"]
               for m in [re.search(r"(?:tensor parallel |tp )(\d+)", a["change"])] if m]
        return max(tps, default=1)
    check(widest_tp("gb200") > 8, "GB200: tensor parallelism across the rack")
    check(widest_tp("b200") == 8, "B200: tensor parallelism inside the 8-GPU node")


@case("models.table")
def _():
    r = ok("models")
    row = next(l for l in r.out.splitlines() if l.startswith("Llama-3.1-70B "))
    check("70.6B" in row and "80" in row and "8192" in row, f"Llama 3.1 70B row: {row!r}")
    row = next(l for l in r.out.splitlines() if l.startswith("Mixtral-8x7B"))
    check("46.7B" in row and "12.9B" in row, f"Mixtral shows total and active: {row!r}")


@case("models.json")
def _():
    by = {m["name"]: m for m in ok_json("models")}
    # Published totals (Hugging Face safetensors metadata of the meta-llama and mistralai repos).
    check(by["Llama-3.1-8B"]["parameters"] == 8030261248, "Llama 3.1 8B")
    check(by["Llama-3.1-70B"]["parameters"] == 70553706496, "Llama 3.1 70B")
    check(by["Mixtral-8x7B-v0.1"]["parameters"] == 46702792704, "Mixtral 8x7B")
    check(by["Mixtral-8x7B-v0.1"]["active_parameters"] == 12879925248, "Mixtral active")
    # KV cache: 2 x 80 layers x 8 KV heads x 128 x 2 bytes.
    check(by["Llama-3.1-70B"]["kv_cache_bytes_per_token_bf16"] == 327680, "70B KV per token")


# ---- fit: ZeRO Table 1 (Rajbhandari et al. 2020, arXiv:1910.02054) -------------------------------
# Per-device model states in GB (1e9 B), mixed-precision Adam (K = 12). Tolerance: half a unit of
# the last printed digit (the paper rounds; 4187 is 4187.5 printed without its half).

ZERO_TABLE1 = [  # (params, stage, dp, GB as printed, printed unit)
    (7.5e9, 1, 64, 31.4, 0.1), (7.5e9, 2, 16, 21.6, 0.1), (7.5e9, 3, 64, 1.88, 0.01),
    (7.5e9, 3, 4, 30, 1), (7.5e9, 1, 1, 120, 1), (7.5e9, 2, 1024, 15.1, 0.1),
    (128e9, 3, 64, 32, 1), (128e9, 2, 256, 263, 1), (1e12, 3, 1024, 15.6, 0.1),
    (1e12, 1, 64, 4187, 1),
]


@case("fit.zero_table1")
def _():
    for params, stage, dp, printed, unit in ZERO_TABLE1:
        j = ok_json("fit", "--model", f"params:{params:g}", "--gpus", str(dp), "--zero", str(stage))
        check(j["layout"]["dp"] == dp and j["layout"]["zero"] == stage, "dp from --gpus")
        check(j["model"]["parameters"] == params, "parameters")
        near(model_states(j) / GB, printed, 0.5 * unit * 1.0001,
             f"ZeRO Table 1: {params:g} params, stage {stage}, dp {dp}")


@case("fit.zero_table1_text")
def _():
    r = ok("fit", "--model", "params:7.5e9", "--gpus", "64", "--zero", "1")
    first = r.out.splitlines()[0]
    check(first.startswith("FITS: params:7.5e9 training on 64 x H100-SXM5-80GB"), first)
    for label in ["weights", "gradients", "optimizer state", "activations", "overhead", "total",
                  "capacity", "headroom"]:
        check(re.search(rf"^\s+{label}", r.out, re.M), f"breakdown row {label}")
    # 2 bytes x 7.5e9 = 15.00 GB of bf16 weights.
    check(re.search(r"^\s+weights\s+13\.97\s+15\.00\s", r.out, re.M), "weights 13.97 GiB 15.00 GB")


@case("fit.megatron_18_bytes")
def _():
    # Megatron-LM: bf16 weights (2) + fp32 gradients (4) + fp32 master and Adam states (12) = 18 B
    # per parameter (Korthikanti et al. 2022; Megatron-LM report_theoretical_memory). Exact.
    j = ok_json("fit", "--model", "params:1e9", "--grad-dtype", "fp32")
    check(model_states(j) == 18e9, f"18 bytes/param: {model_states(j)}")
    j = ok_json("fit", "--model", "params:1e9")
    check(model_states(j) == 16e9, "ZeRO's 16 bytes/param by default")


@case("fit.json_contract")
def _():
    j = ok_json("fit", "--model", "Llama-3.1-8B", "--gpu", "h100", "--gpus", "8", "--zero", "3")
    for k in ["model", "gpu", "layout", "per_gpu", "fits", "headroom_bytes", "advice"]:
        check(k in j, f"key {k}")
    check(set(j["model"]) >= {"name", "parameters"}, "model keys")
    check(set(j["gpu"]) >= {"name", "memory_bytes"}, "gpu keys")
    check(set(j["layout"]) >= {"gpus", "dp", "tp", "pp", "cp", "ep", "zero"}, "layout keys")
    pg = j["per_gpu"]
    parts = ["weights_bytes", "gradients_bytes", "optimizer_bytes", "activations_bytes",
             "kv_cache_bytes", "overhead_bytes"]
    check(set(pg) >= set(parts) | {"total_bytes", "capacity_bytes"}, "per_gpu keys")
    # total = the parts (+ workspace, an added field); headroom = capacity - total (rounding: 2 B).
    near(sum(pg[p] for p in parts) + pg["workspace_bytes"], pg["total_bytes"], 8, "total")
    near(pg["capacity_bytes"] - pg["total_bytes"], j["headroom_bytes"], 2, "headroom")
    check(j["fits"] is True and isinstance(j["advice"], list), "fits, advice list")
    # ZeRO-3 over 8: bf16 weights 2 x 8,030,261,248 / 8 bytes per GPU (exact).
    check(pg["weights_bytes"] == 2 * 8030261248 // 8, f"ZeRO-3 weight shard {pg['weights_bytes']}")
    check(j["gpu"]["name"] == "H100-SXM5-80GB" and j["gpu"]["memory_bytes"] == 80 * 2**30, "gpu")


@case("fit.gpu_aliases")
def _():
    for name in ["h100", "H100", "h100-sxm", "H100-SXM5-80GB", "h100_sxm5_80gb"]:
        j = ok_json("fit", "--model", "params:1e9", "--gpu", name)
        check(j["gpu"]["name"] == "H100-SXM5-80GB", f"--gpu {name}")


@case("fit.hf_config")
def _():
    """A Llama config.json gives the catalog's model and the same answer."""
    cfg = data("hf/llama-3.1-8b/config.json")
    args = ["--gpus", "8", "--zero", "2", "--seq", "4096"]
    a = ok_json("fit", "--model", cfg, *args)
    b = ok_json("fit", "--model", "Llama-3.1-8B", *args)
    check(a["model"]["parameters"] == 8030261248, "published count (HF safetensors metadata)")
    check(a["model"]["source"] == "hf-config" and a["model"]["name"] == "llama-3.1-8b", "source")
    check(a["per_gpu"] == b["per_gpu"], "config.json and catalog agree")
    folder = ok_json("fit", "--model", data("hf/llama-3.1-8b"), *args)
    check(folder["per_gpu"] == a["per_gpu"], "a model folder works too")
    # Other families load and report their published counts.
    for rel, n in [("hf/gpt2/config.json", 124439808), ("hf/gpt-neox-20b/config.json", 20554567680),
                   ("hf/qwen2.5-7b/config.json", 7615616512),
                   ("hf/mixtral-8x7b-v0.1/config.json", 46702792704)]:
        check(ok_json("fit", "--model", data(rel))["model"]["parameters"] == n, rel)


@case("fit.infer_kv_cache")
def _():
    """Serving Llama 3.1 70B with tp 8: vLLM's KV page and block formulas, checked from the JSON."""
    j = ok_json("fit", "--model", data("hf/llama-3.1-70b/config.json"), "--gpu", "h100", "--infer",
                "--tp", "8", "--batch", "32", "--context", "8192")
    kv = j["kv_cache"]
    for k in ["bytes_per_token", "block_size", "blocks", "capacity_tokens", "max_concurrency"]:
        check(k in kv, f"kv_cache.{k}")
    # Per GPU: 80 layers x (8 KV heads / 8) x 128 x 2 (K, V) x 2 bytes = 40,960 B/token.
    check(kv["bytes_per_token"] == 40960, f"bytes per token {kv['bytes_per_token']}")
    check(kv["block_size"] == 16, "vLLM default block")
    # vLLM: page = 2 x block x kv_heads x head_dim x dtype; blocks = floor(available / page / L).
    check(kv["page_size_bytes"] == 2 * 16 * 1 * 128 * 2, "page size")
    check(kv["blocks"] == math.floor(kv["available_bytes"] / (kv["page_size_bytes"] * 80)),
          "blocks")
    check(kv["capacity_tokens"] == kv["blocks"] * 16, "capacity = blocks x block")
    near(kv["max_concurrency"], kv["capacity_tokens"] / 8192, 1e-9, "concurrency")
    # The batch's cache: 32 sequences x 512 blocks x 16 tokens x 40,960 B = 10 GiB exactly.
    check(j["per_gpu"]["kv_cache_bytes"] == 10 * 2**30, "KV cache of the batch")
    # Capacity is gpu_memory_utilization x the GPU's plannable memory.
    near(j["per_gpu"]["capacity_bytes"], 0.9 * j["gpu"]["plannable_memory_bytes"], 1, "capacity")
    check(j["mode"] == "infer" and j["layout"]["tp"] == 8 and j["layout"]["gpus"] == 8, "layout")
    half = ok_json("fit", "--model", "Llama-3.1-70B", "--infer", "--tp", "8",
                   "--gpu-memory-utilization", "0.5", "--block-size", "32")
    check(half["kv_cache"]["block_size"] == 32, "--block-size")
    near(half["per_gpu"]["capacity_bytes"], 0.5 * half["gpu"]["plannable_memory_bytes"], 1,
         "--gpu-memory-utilization")
    fp8 = ok_json("fit", "--model", "Llama-3.1-70B", "--infer", "--tp", "8", "--kv-dtype", "fp8")
    check(fp8["kv_cache"]["bytes_per_token"] == 20480, "fp8 KV halves the bytes")


@case("fit.does_not_fit")
def _():
    args = ["fit", "--model", "Llama-3.1-70B", "--gpu", "h100", "--gpus", "8"]
    r = run(*args)
    check(r.rc == 0, "no --require-fit: exit 0 even when it does not fit")
    check(r.out.splitlines()[0].startswith("DOES NOT FIT: Llama-3.1-70B training"), "verdict first")
    check("advice (ranked" in r.out, "advice printed")
    j = ok_json(*args)
    check(j["fits"] is False and j["headroom_bytes"] < 0, "fits false, negative headroom")
    check(len(j["advice"]) > 0, "advice given")
    for a in j["advice"]:
        check(isinstance(a["change"], str) and a["change"] and a["total_bytes"] > 0, f"advice {a}")
    check(any(a["fits"] for a in j["advice"]), "at least one option fits")
    r = run(*args, "--require-fit")
    check(r.rc == 1 and r.out.startswith("DOES NOT FIT"), f"--require-fit: exit 1 ({r.rc})")
    r = run(*args, "--require-fit", "--json")
    check(r.rc == 1 and r.json()["fits"] is False, "--require-fit --json: JSON and exit 1")
    r = run("fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--zero", "3", "--require-fit")
    check(r.rc == 0, "--require-fit on a plan that fits: exit 0")


@case("fit.framework_transformers")
def _():
    """The transformers profile through the CLI, against two H100 calibration runs (measured on
    H100 80GB HBM3, PyTorch 2.11, transformers 5.17, 2026-11-23, gpuplan's calibration set)."""
    cfg = data("hf/llama-3.2-1b/config.json")
    # llama-3.2-1b, amp, 8 x 2048, no checkpointing: ran, process peak 74.83 GiB.
    j = ok_json("fit", "--model", cfg, "--gpu", "h100", "--amp", "--micro-batch", "8", "--seq", "2048")
    check(j["config"]["framework"] == "transformers" and j["config"]["amp"] is True, "default framework")
    check(j["fits"] is True, "the run that ran fits")
    near(j["per_gpu"]["total_bytes"] / GiB, 74.83, 0.07 * 74.83, "process peak within 7% (model: +2.9%)")
    ph = j["per_gpu"]["phases"]
    check(ph["peak_phase"] == "backward", "the loss's backward sets the peak")
    check(j["per_gpu"]["total_bytes"] == ph["reserved_bytes"] + ph["cuda_context_bytes"],
          "total = allocator peak + context")
    check(ph["forward_loss_bytes"] < ph["backward_bytes"] and ph["optimizer_bytes"] < ph["backward_bytes"],
          "phase peaks ordered")
    # 16 x 4096 with checkpointing (--recompute full = gradient_checkpointing_enable()): ran out
    # of memory; the advice offers the transformers levers and no tensor parallelism.
    o = ok_json("fit", "--model", cfg, "--gpu", "h100", "--amp", "--micro-batch", "16", "--seq", "4096",
                "--recompute", "full")
    check(o["fits"] is False, "the run that ran out of memory does not fit")
    changes = [a["change"] for a in o["advice"]]
    check(any("chunked cross entropy" in c for c in changes), "chunked loss offered")
    check(any(c.startswith("micro-batch") for c in changes), "shorter micro-batch offered")
    check(not any("tensor parallel" in c for c in changes), "no Megatron lever")
    chunked = ok_json("fit", "--model", cfg, "--gpu", "h100", "--amp", "--micro-batch", "16", "--seq", "4096",
                      "--recompute", "full", "--chunked-loss")
    check(chunked["config"]["chunked_loss"] is True and chunked["fits"] is True, "--chunked-loss")
    # Pure bf16 (--master-weights=false): 2 + 4 B/param of weights and AdamW states after a step
    # (measured 6.91 GiB for llama-3.2-1b, 1,235,814,400 parameters).
    bf = ok_json("fit", "--model", cfg, "--gpu", "h100", "--master-weights=false", "--micro-batch", "8",
                 "--seq", "2048")
    near((bf["per_gpu"]["weights_bytes"] + bf["per_gpu"]["optimizer_bytes"]) / GiB, 6.91, 0.01,
         "pure bf16 states")
    check(bf["fits"] is True, "pure bf16 8 x 2048 ran (65.44 GiB)")
    # The text output names the framework, why, and the phase that sets the peak.
    t = ok("fit", "--model", cfg, "--gpu", "h100", "--amp").out
    check("framework transformers (default)" in t, "text names the default framework")
    check("allocator reserve" in t and "CUDA context and libraries" in t, "reserve and context lines")
    check("the backward phase sets the peak" in t, "peak phase named")
    # The default falls back to megatron for what only Megatron-LM does, and says why.
    tp = ok("fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--tp", "2").out
    check("framework megatron (--tp 2 needs Megatron-LM)" in tp, "megatron when --tp is given")
    check(ok_json("fit", "--model", "Llama-3.1-8B", "--recompute", "selective")["config"]["framework"]
          == "megatron", "selective recompute is Megatron's")
    check(ok_json("fit", "--model", "params:7e9")["config"]["framework"] == "megatron", "params:N")
    check(ok_json("fit", "--model", "Mixtral-8x7B-v0.1", "--gpus", "8")["config"]["framework"]
          == "megatron", "mixture of experts")
    # A plan file carries the same keys.
    f = plan_file({"model": cfg, "gpu": "h100", "framework": "transformers", "amp": True,
                   "micro_batch": 8, "seq": 2048})
    try:
        check(ok_json("fit", "--plan", f)["per_gpu"]["total_bytes"] == j["per_gpu"]["total_bytes"],
              "plan keys framework/amp")
    finally:
        os.unlink(f)


@case("fit.model_file_name")
def _():
    """--model path/to/x.json is named x; a config.json is named after its folder."""
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "my-model.json")
        with open(data("hf/llama-3.2-1b/config.json")) as src, open(f, "w") as dst:
            dst.write(src.read())
        check(ok_json("fit", "--model", f)["model"]["name"] == "my-model", "file name")
    check(ok_json("fit", "--model", data("hf/llama-3.2-1b/config.json"))["model"]["name"]
          == "llama-3.2-1b", "folder name for config.json")


@case("fit.training_options")
def _():
    # The Megatron profile's options (the transformers profile's: fit.framework_transformers).
    base = ["fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--framework", "megatron"]
    ref = ok_json(*base)
    # Each option reaches the model: it changes what it should, and the config echoes it.
    sel = ok_json(*base, "--recompute", "selective")
    full = ok_json(*base, "--recompute", "full")
    check(full["per_gpu"]["activations_bytes"] < sel["per_gpu"]["activations_bytes"]
          <= ref["per_gpu"]["activations_bytes"], "recompute lowers activations")
    mb = ok_json(*base, "--micro-batch", "2")
    check(mb["per_gpu"]["activations_bytes"] > ref["per_gpu"]["activations_bytes"], "micro-batch")
    seq = ok_json(*base, "--seq", "8192")
    check(seq["config"]["seq"] == 8192, "--seq")
    tp = ok_json(*base, "--tp", "2")
    check(tp["layout"]["dp"] == 4 and tp["layout"]["tp"] == 2, "dp is what the GPU count leaves")
    check(tp["per_gpu"]["weights_bytes"] < ref["per_gpu"]["weights_bytes"], "tp splits weights")
    sp = ok_json(*base, "--tp", "2", "--sp")
    check(sp["layout"]["sequence_parallel"] is True, "--sp")
    pp = ok_json(*base, "--pp", "2", "--virtual-stages", "2")
    check(pp["layout"]["pp"] == 2 and pp["layout"]["virtual_stages"] == 2, "--pp --virtual-stages")
    cp = ok_json(*base, "--cp", "2")
    check(cp["layout"]["cp"] == 2 and cp["layout"]["dp"] == 4, "--cp")
    dp = ok_json("fit", "--model", "Llama-3.1-8B", "--dp", "4", "--tp", "2", "--framework", "megatron")
    check(dp["layout"]["gpus"] == 8, "--dp without --gpus")
    sgd = ok_json(*base, "--optimizer", "sgd")
    check(sgd["per_gpu"]["optimizer_bytes"] < ref["per_gpu"]["optimizer_bytes"], "--optimizer")
    fp32 = ok_json(*base, "--dtype", "fp32")
    check(fp32["config"]["dtype"] == "fp32" and fp32["config"]["grad_dtype"] == "fp32", "--dtype")
    fp8 = ok_json(*base, "--dtype", "fp8")
    check(fp8["config"]["grad_dtype"] == "bf16", "fp8 training keeps bf16 gradients")
    lora = ok_json(*base, "--lora", "16")
    check(lora["config"]["lora"] == 16 and
          lora["per_gpu"]["optimizer_bytes"] < ref["per_gpu"]["optimizer_bytes"] / 10, "--lora")
    qlora = ok_json(*base, "--qlora", "16")
    check(qlora["per_gpu"]["weights_bytes"] < lora["per_gpu"]["weights_bytes"] / 2, "--qlora 4-bit")
    off = ok_json(*base, "--zero", "1", "--offload", "optimizer")
    check(off["per_gpu"]["host_bytes"] > 0 and off["per_gpu"]["optimizer_bytes"] == 0, "--offload")
    noflash = ok_json(*base, "--flash-attention=false")
    check(noflash["config"]["flash_attention"] is False and
          noflash["per_gpu"]["activations_bytes"] > ref["per_gpu"]["activations_bytes"],
          "--flash-attention=false stores the scores")
    check(ok_json(*base, "--flash-attention")["config"]["flash_attention"] is True, "flag on")
    moe = ok_json("fit", "--model", "Mixtral-8x7B-v0.1", "--gpus", "8", "--ep", "8", "--zero", "1")
    check(moe["layout"]["ep"] == 8, "--ep")
    z = ok_json(*base, "--zero", "3", "--train")
    check(z["mode"] == "train", "--train")


@case("fit.config_fields")
def _():
    """Every field of the run configurations is a flag and a plan-file key (issue 9): dropout
    (Korthikanti's GPT accounting), vLLM's max_num_batched_tokens and max_num_seqs, and the rest."""
    base = ["fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--flash-attention=false"]
    ref = ok_json(*base)
    drop = ok_json(*base, "--dropout")
    check(drop["config"]["dropout"] is True and ref["config"]["dropout"] is False, "--dropout echo")
    check(drop["per_gpu"]["activations_bytes"] > ref["per_gpu"]["activations_bytes"],
          "--dropout stores the masks")
    check(ok_json(*base, "--dropout=false")["per_gpu"] == ref["per_gpu"], "--dropout=false")
    f = plan_file({"model": "Llama-3.1-8B", "gpus": 8, "flash_attention": False, "dropout": True})
    try:
        check(ok_json("fit", "--plan", f)["per_gpu"] == drop["per_gpu"], "plan key dropout = flag")
    finally:
        os.unlink(f)
    serve = ["fit", "--model", "Llama-3.1-8B", "--infer"]
    sref = ok_json(*serve)
    check(sref["config"]["max_num_batched_tokens"] == 8192 and
          sref["config"]["max_num_seqs"] == 256, "vLLM defaults echoed")
    few = ok_json(*serve, "--max-num-batched-tokens", "2048")
    check(few["config"]["max_num_batched_tokens"] == 2048 and
          few["per_gpu"]["workspace_bytes"] < sref["per_gpu"]["workspace_bytes"],
          "--max-num-batched-tokens sets the activation peak")
    seqs = ok_json(*serve, "--max-num-seqs", "16")
    check(seqs["config"]["max_num_seqs"] == 16 and
          seqs["per_gpu"]["workspace_bytes"] < sref["per_gpu"]["workspace_bytes"],
          "--max-num-seqs sets the sampler's rows")
    f = plan_file({"model": "Llama-3.1-8B", "mode": "infer", "max-num-batched-tokens": 2048})
    try:
        check(ok_json("fit", "--plan", f)["per_gpu"] == few["per_gpu"], "plan key = flag")
    finally:
        os.unlink(f)
    q = ok_json(*serve, "--weight-dtype", "int4", "--quant-group-size", "64",
                "--quant-zero-point")
    q128 = ok_json(*serve, "--weight-dtype", "int4")
    check(q["config"]["quant_group_size"] == 64 and q["config"]["quant_zero_point"] is True and
          q["per_gpu"]["weights_bytes"] > q128["per_gpu"]["weights_bytes"], "quantisation fields")
    lora = ["fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--lora", "16"]
    qv = ok_json(*lora, "--lora-targets", "attention_qv")
    check(qv["config"]["lora_targets"] == "attention_qv" and
          qv["per_gpu"]["optimizer_bytes"] < ok_json(*lora)["per_gpu"]["optimizer_bytes"],
          "--lora-targets")
    gb = ok_json("fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--pp", "2",
                 "--global-batch", "4")
    check(gb["config"]["global_batch"] == 4, "--global-batch")
    nomaster = ok_json("fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--master-weights=false")
    check(nomaster["config"]["master_weights"] is False and
          nomaster["per_gpu"]["optimizer_bytes"] < ref["per_gpu"]["optimizer_bytes"],
          "--master-weights=false")
    bad(r"--max-num-seqs is an inference option: add --infer", "fit", "--model", "Llama-3.1-8B",
        "--max-num-seqs", "8")


@case("fit.stages")
def _():
    """--json lists every pipeline stage's memory (first: embedding and the most micro-batches in
    flight; last: LM head and logits); per_gpu stays the most loaded one."""
    j = ok_json("fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--pp", "4", "--seq", "4096")
    st = j["stages"]
    check(len(st) == 4 and [s["pipeline_stage"] for s in st] == [0, 1, 2, 3], "four stages")
    check(st[0]["weights_bytes"] > st[1]["weights_bytes"] == st[2]["weights_bytes"] and
          st[3]["weights_bytes"] > st[2]["weights_bytes"], "embedding first, LM head last")
    check(st[0]["activations_bytes"] > st[1]["activations_bytes"] > st[2]["activations_bytes"],
          "1F1B: fewer micro-batches in flight down the pipeline")
    most = max(st, key=lambda s: s["total_bytes"])
    check(j["per_gpu"] == most, "per_gpu is the most loaded stage")
    one = ok_json("fit", "--model", "Llama-3.1-8B", "--gpus", "8")
    check(len(one["stages"]) == 1 and one["stages"][0] == one["per_gpu"], "one stage without pp")
    inf = ok_json("fit", "--model", "Llama-3.1-8B", "--infer", "--pp", "2")
    check(len(inf["stages"]) == 2 and
          inf["stages"][1]["weights_bytes"] != inf["stages"][0]["weights_bytes"], "serving stages")
    t = ok("fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--pp", "4").out
    check("pipeline stage" in t, "the text lists the stages")


@case("fit.plan_file")
def _():
    plan = {"model": "Llama-3.1-70B", "gpu": "h100", "gpus": 8, "zero": 3, "seq": 4096,
            "recompute": "full", "micro-batch": 1}
    f = plan_file(plan)
    try:
        a = ok_json("fit", "--plan", f)
        b = ok_json("fit", "--model", "Llama-3.1-70B", "--gpu", "h100", "--gpus", "8", "--zero",
                    "3", "--seq", "4096", "--recompute", "full")
        check(a["per_gpu"] == b["per_gpu"] and a["layout"] == b["layout"], "plan = flags")
        c = ok_json("fit", "--plan", f, "--gpus", "16", "--recompute", "selective")
        check(c["layout"]["gpus"] == 16 and c["config"]["recompute"] == "selective",
              "flags override the plan")
        d = ok_json("fit", "--plan", f, "--infer", "--tp", "8")
        check(d["mode"] == "infer", "--infer overrides a training plan; its training keys ignored")
    finally:
        os.unlink(f)
    # Inline model (a Hugging Face config object) and GPU (gpuplan's GPU form), serving mode.
    with open(data("hf/llama-3.1-8b/config.json")) as fh:
        cfg = json.load(fh)
    gpu = {"name": "MyGPU-48GB", "memory_bytes": 48 * 2**30, "memory_bandwidth_bytes_per_s": 1e12}
    f = plan_file({"model": cfg, "gpu": gpu, "mode": "infer", "context": 8192, "batch": 4})
    try:
        j = ok_json("fit", "--plan", f)
        check(j["model"]["parameters"] == 8030261248 and j["gpu"]["name"] == "MyGPU-48GB", "inline")
        check(j["gpu"]["memory_bytes"] == 48 * 2**30 and j["mode"] == "infer", "inline GPU, mode")
    finally:
        os.unlink(f)
    # A relative model path names a file beside the plan.
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "config.json"), "w") as fh:
        json.dump(cfg, fh)
    f = plan_file({"model": "config.json", "gpus": 8, "zero": 3}, directory=d)
    try:
        check(ok_json("fit", "--plan", f)["model"]["parameters"] == 8030261248, "relative path")
    finally:
        os.unlink(f)


@case("fit.plan_inline_config_without_architectures")
def _():
    # Found by fuzzing: an inline config whose "architectures" is null (model_type names the
    # family) was an internal error (exit 3) when the plan gave the model no name.
    cfg = {"architectures": None, "model_type": "llama", "hidden_size": 4096,
           "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
           "vocab_size": 128256, "num_hidden_layers": 32, "torch_dtype": "bfloat16"}
    f = plan_file({"model": cfg, "gpus": 8, "zero": 3})
    try:
        j = ok_json("fit", "--plan", f)
        check(j["model"]["name"] == "llama", f"name {j['model']['name']!r}")
        check(j["model"]["parameters"] == 8030261248, "Llama 3.1 8B's count")
    finally:
        os.unlink(f)


@case("fit.spec_files_round_trip")
def _():
    """What `gpus --json` and `models --json` print, read back as --gpu FILE and --model FILE,
    gives the same answer as the catalog names (user-defined hardware and models use this form)."""
    gpu = next(g for g in ok_json("gpus") if g["name"] == "A100-SXM4-80GB")
    model = next(m for m in ok_json("models") if m["name"] == "Mixtral-8x7B-v0.1")
    gf, mf = plan_file(gpu), plan_file(model)
    try:
        args = ["--gpus", "8", "--ep", "8", "--zero", "1", "--seq", "4096"]
        a = ok_json("fit", "--model", mf, "--gpu", gf, *args)
        b = ok_json("fit", "--model", "Mixtral-8x7B-v0.1", "--gpu", "A100-SXM4-80GB", *args)
        check(a["per_gpu"] == b["per_gpu"], "file and catalog agree")
        check(a["model"]["parameters"] == 46702792704, "parameters survive the round trip")
        check(a["gpu"]["source"] == "file" and a["model"]["source"] == "file", "sources")
        i = ok_json("fit", "--model", mf, "--gpu", gf, "--infer", "--tp", "2")
        j = ok_json("fit", "--model", "Mixtral-8x7B-v0.1", "--gpu", "A100-SXM4-80GB", "--infer",
                    "--tp", "2")
        check(i["per_gpu"] == j["per_gpu"] and i["kv_cache"] == j["kv_cache"], "serving agrees")
    finally:
        os.unlink(gf)
        os.unlink(mf)


# ---- probe ---------------------------------------------------------------------------------------

@case("probe.no_driver")
def _():
    """On a machine without the NVIDIA driver (CI): exit 4 (no GPU here) and one line. With one:
    a table. `--gpu local` there is a bad input (2)."""
    env = {"LD_LIBRARY_PATH": ""}
    r = run("probe", env=env)
    if r.rc == 0:
        check(r.out.strip() != "", "a table when a driver is present")
        return
    bad(r"probe: (no NVIDIA driver|cuInit failed|0 CUDA devices)", "probe", status=4)
    bad(r"--gpu local: ", "fit", "--model", "Llama-3.1-8B", "--gpu", "local")


@case("probe.fake_driver_mid_listing_error")
def _():
    """The driver refuses the second of two GPUs (CUDA_ERROR_DEVICE_UNAVAILABLE): the first is
    still listed, and the refusal is a note, not an error (tests/probe/fake_gpus.hpp)."""
    fake = os.environ.get("GPUPLAN_FAKE_DRIVER_DIR", "")
    if not fake or not os.path.exists(os.path.join(fake, "libcuda.so.1")):
        print("skipped: no fake driver libraries built")
        return
    env = {"LD_LIBRARY_PATH": fake, "GPUPLAN_FAKE_GPU": "mid_listing_error"}
    j = ok_json("probe", env=env)
    check(len(j["devices"]) == 1, f"{len(j['devices'])} devices")
    check(j["devices"][0]["name"]["value"] == "NVIDIA A100-SXM4-40GB", "the first device")
    check(j["warnings"] == ["cuDeviceGet(1) failed: CUDA_ERROR_DEVICE_UNAVAILABLE (46); CUDA "
                            "device 1 not listed"], f"warnings {j['warnings']}")
    check("CUDA device 1 not listed" in ok("probe", env=env).out, "the table says so")


@case("probe.fake_driver")
def _():
    """With the test suite's fake libcuda.so.1 / libnvidia-ml.so.1 (an H100 SXM; see
    tests/probe/fake_gpus.hpp for the values and their sources)."""
    fake = os.environ.get("GPUPLAN_FAKE_DRIVER_DIR", "")
    if not fake or not os.path.exists(os.path.join(fake, "libcuda.so.1")):
        print("skipped: no fake driver libraries built")
        return
    env = {"LD_LIBRARY_PATH": fake, "GPUPLAN_FAKE_GPU": "h100"}
    j = ok_json("probe", env=env)
    d = j["devices"][0]
    check(d["name"]["value"] == "NVIDIA H100 80GB HBM3" and d["name"]["source"] == "measured",
          f"name {d['name']}")
    check(d["sm_count"]["value"] == 132, "132 SMs")
    check(d["memory_total_bytes"]["value"] == 81089 * 2**20, "cuDeviceTotalMem 81089 MiB")
    check(d["catalog_match"] == "H100-SXM5-80GB", f"catalog match {d['catalog_match']}")
    t = ok("probe", env=env).out
    check("H100-SXM5-80GB" in t and "NVIDIA H100 80GB HBM3" in t, "probe table")
    f = ok_json("fit", "--model", "Llama-3.1-8B", "--gpu", "local", "--gpus", "8", env=env)
    check(f["gpu"]["source"].startswith("probe"), "--gpu local uses the probe")
    check(f["gpu"]["name"] == "H100-SXM5-80GB", f"--gpu local name {f['gpu']['name']}")


# ---- bad input: exit 2, one line naming the problem -------------------------------------------

BAD = {
    # unknown names, with the nearest catalog names suggested
    "unknown_gpu": (r"unknown GPU 'h1000'; did you mean H100-SXM5-80GB",
                    ["fit", "--model", "Llama-3.1-8B", "--gpu", "h1000"]),
    "unknown_model": (r"unknown model 'Llama-3.1-80B'; did you mean Llama-3.1-8B",
                      ["fit", "--model", "Llama-3.1-80B"]),
    "unknown_command": (r"frobnicate", ["frobnicate"]),
    "unknown_option": (r"--bogus", ["fit", "--model", "Llama-3.1-8B", "--bogus"]),
    "no_model": (r"fit needs a model: --model", ["fit"]),
    # files
    "missing_config": (r"nonexistent/config\.json: no such file",
                       ["fit", "--model", "/nonexistent/config.json"]),
    "missing_plan": (r"/nonexistent/plan\.json: no such file",
                     ["fit", "--plan", "/nonexistent/plan.json"]),
    "malformed_config": (r"malformed\.json:5:23: malformed JSON: .*unexpected string",
                         ["fit", "--model", "@bad/malformed.json"]),
    "unsupported_architecture": (r"unsupported architecture 'BertForMaskedLM' \(supported: Llama",
                                 ["fit", "--model", "@bad/unsupported_arch.json"]),
    "missing_key": (r"key 'hidden_size' is missing",
                    ["fit", "--model", "@bad/missing_hidden_size.json"]),
    "missing_moe_key": (r"key 'num_local_experts' is missing",
                        ["fit", "--model", "@bad/missing_experts.json"]),
    "negative_config_size": (r"key 'num_hidden_layers' must be positive \(got -4\)",
                             ["fit", "--model", "@bad/negative_layers.json"]),
    # layouts that do not divide the model or the GPU count
    "tp_not_dividing_heads": (r"--tp 3 must divide the heads of --model.*\(got 3, 32\)",
                              ["fit", "--model", "Llama-3.1-8B", "--tp", "3"]),
    "pp_exceeds_layers": (r"--pp 40 must not exceed the layers of --model \(got 40, 32\)",
                          ["fit", "--model", "Llama-3.1-8B", "--pp", "40"]),
    "gpus_not_divisible": (r"--gpus 8 is not divisible by tp 3 x pp 1 x cp 1 = 3",
                           ["fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--tp", "3"]),
    "dp_mismatch": (r"dp 4 x tp 2 x pp 1 x cp 1 = 8, but --gpus is 16",
                    ["fit", "--model", "Llama-3.1-8B", "--gpus", "16", "--dp", "4", "--tp", "2"]),
    "ep_dense": (r"--ep 2 must",
                 ["fit", "--model", "Llama-3.1-8B", "--gpus", "8", "--ep", "2"]),
    "ep_not_dividing_experts": (r"--ep 3 must divide the moe experts of --model \(got 3, 8\)",
                                ["fit", "--model", "Mixtral-8x7B-v0.1", "--gpus", "6", "--ep",
                                 "3"]),
    "generic_with_tp": (r"known only by its parameter count: tp, pp, cp and ep need its shape",
                        ["fit", "--model", "params:7e9", "--tp", "2"]),
    # zero and negative sizes
    "zero_gpus": (r"--gpus must be a positive integer \(got 0\)",
                  ["fit", "--model", "Llama-3.1-8B", "--gpus", "0"]),
    "negative_micro_batch": (r"--micro-batch must be a positive integer \(got -1\)",
                             ["fit", "--model", "Llama-3.1-8B", "--micro-batch", "-1"]),
    "zero_seq": (r"--seq must be a positive integer \(got 0\)",
                 ["fit", "--model", "Llama-3.1-8B", "--seq", "0"]),
    "negative_params": (r"--model params:N must be at least 1 \(got -5\)",
                        ["fit", "--model", "params:-5"]),
    "zero_params": (r"--model params:N must be at least 1", ["fit", "--model", "params:0"]),
    "bad_params": (r"--model params:N 'abc' is not a number", ["fit", "--model", "params:abc"]),
    "zero_lora": (r"--lora must be a positive integer", ["fit", "--model", "Llama-3.1-8B",
                                                         "--lora", "0"]),
    "zero_block_size": (r"--block-size must be a positive integer",
                        ["fit", "--model", "Llama-3.1-8B", "--infer", "--block-size", "0"]),
    "utilization_above_one": (r"--gpu-memory-utilization must be in \(0, 1\] \(got 1\.5\)",
                              ["fit", "--model", "Llama-3.1-8B", "--infer",
                               "--gpu-memory-utilization", "1.5"]),
    "utilization_zero": (r"--gpu-memory-utilization must be in \(0, 1\]",
                         ["fit", "--model", "Llama-3.1-8B", "--infer",
                          "--gpu-memory-utilization", "0"]),
    "too_many_gpus": (r"more than 16777216 GPUs",
                      ["fit", "--model", "params:1e9", "--dp", "100000", "--gpus", "100000000"]),
    "too_many_tokens": (r"more than 1073741824 tokens in one micro-batch",
                        ["fit", "--model", "Llama-3.1-8B", "--micro-batch", "100000", "--seq",
                         "100000"]),
    "zero_stage_4": (r"--zero must be 0, 1, 2 or 3 \(got 4\)",
                     ["fit", "--model", "Llama-3.1-8B", "--zero", "4"]),
    "not_a_number": (r"--gpus", ["fit", "--model", "Llama-3.1-8B", "--gpus", "abc"]),
    # conflicting flags
    "train_and_infer": (r"--train excludes --infer",
                        ["fit", "--model", "Llama-3.1-8B", "--train", "--infer"]),
    "lora_and_qlora": (r"--lora and --qlora conflict",
                       ["fit", "--model", "Llama-3.1-8B", "--lora", "8", "--qlora", "8"]),
    "zero_with_infer": (r"--zero is a training option; it conflicts with --infer",
                        ["fit", "--model", "Llama-3.1-8B", "--infer", "--zero", "2"]),
    "kv_dtype_without_infer": (r"--kv-dtype is an inference option: add --infer",
                               ["fit", "--model", "Llama-3.1-8B", "--kv-dtype", "fp8"]),
    "batch_with_train": (r"--batch is an inference option; it conflicts with --train",
                         ["fit", "--model", "Llama-3.1-8B", "--train", "--batch", "8"]),
    # bad values
    "bad_dtype": (r"--dtype 'bf17' is not one of bf16\|fp16\|fp32\|fp8",
                  ["fit", "--model", "Llama-3.1-8B", "--dtype", "bf17"]),
    "bad_optimizer": (r"--optimizer 'lion' is not one of adamw",
                      ["fit", "--model", "Llama-3.1-8B", "--optimizer", "lion"]),
    "bad_recompute": (r"--recompute 'some' is not one of none\|selective\|full",
                      ["fit", "--model", "Llama-3.1-8B", "--recompute", "some"]),
    "bad_offload": (r"--offload 'disk' is not one of optimizer\|params",
                    ["fit", "--model", "Llama-3.1-8B", "--offload", "disk"]),
    "bad_kv_dtype": (r"--kv-dtype 'int4' is not one of bf16\|fp16\|fp8",
                     ["fit", "--model", "Llama-3.1-8B", "--infer", "--kv-dtype", "int4"]),
    # found by fuzzing (docs/reliability.md): each was an internal error, a sanitizer report or
    # an infinite number in the output before
    "params_too_large": (r"--model params:N is too large \(got 1e\+308; at most 1e\+15\)",
                         ["fit", "--model", "params:1e308"]),
    "ep_times_tp_overflow": (r"--ep 2147483647 x tp 2 is more than 16777216 GPUs",
                             ["fit", "--model", "Mixtral-8x7B-v0.1", "--ep", "2147483647",
                              "--tp", "2"]),
    "virtual_stages_overflow": (r"--virtual-stages 2147483647 x pp 2 is more than 16777216",
                                ["fit", "--model", "Llama-3.1-8B", "--pp", "2",
                                 "--virtual-stages", "2147483647"]),
    "config_layers_2_63": (r"key 'num_hidden_layers' is too large \(got 9223372036854775808\)",
                           ["fit", "--model", "@bad/layers_2_63.json"]),
    "config_number_overflow": (r"number_overflow\.json:3:33: malformed JSON: number out of range",
                               ["fit", "--model", "@bad/number_overflow.json"]),
    "bad_framework": (r"--framework 'deepspeed' is not one of megatron\|transformers",
                      ["fit", "--model", "Llama-3.1-8B", "--framework", "deepspeed"]),
    "transformers_with_tp": (r"--framework transformers .*; --tp 2 needs --framework megatron",
                             ["fit", "--model", "Llama-3.1-8B", "--gpus", "2", "--tp", "2",
                              "--framework", "transformers"]),
    "amp_with_megatron": (r"--amp needs --framework transformers",
                          ["fit", "--model", "Llama-3.1-8B", "--amp", "--framework", "megatron"]),
    "amp_with_tp": (r"--amp needs --framework transformers \(and --tp 2 needs megatron\)",
                    ["fit", "--model", "Llama-3.1-8B", "--gpus", "2", "--tp", "2", "--amp"]),
    "chunked_with_megatron": (r"--chunked-loss needs --framework transformers",
                              ["fit", "--model", "Llama-3.1-8B", "--chunked-loss", "--framework",
                               "megatron"]),
}

BAD_PLANS = {
    "plan_malformed": (r"\.json:3:1: malformed JSON", '{\n  "model": "Llama-3.1-8B",\n}'),
    "plan_unknown_key": (r"unknown key 'micro_batchs'; did you mean 'micro_batch'\?",
                         {"model": "Llama-3.1-8B", "micro_batchs": 2}),
    "plan_negative": (r"key 'gpus' must be positive \(got -2\)",
                      {"model": "Llama-3.1-8B", "gpus": -2}),
    "plan_wrong_type": (r"key 'tp' must be an integer, not a string",
                        {"model": "Llama-3.1-8B", "tp": "2"}),
    "plan_bad_mode": (r"key 'mode' must be \"train\" or \"infer\"",
                      {"model": "Llama-3.1-8B", "mode": "serve"}),
    "plan_lora_qlora": (r"keys 'lora' and 'qlora' conflict",
                        {"model": "Llama-3.1-8B", "lora": 8, "qlora": 8}),
    "plan_mode_conflict": (r"key 'zero' is a training option; it conflicts with --infer",
                           {"model": "Llama-3.1-8B", "mode": "infer", "zero": 1}),
    "plan_not_object": (r"a plan must be a JSON object", "[1, 2]"),
    "plan_bad_gpu_object": (r"key 'gpu\.memory_bytes' is missing",
                            {"model": "Llama-3.1-8B", "gpu": {"name": "X"}}),
    "plan_duplicate_key": (r"key 'gpus' appears twice in one object",
                           '{"model": "Llama-3.1-8B", "gpus": 8, "gpus": 16}'),
    "plan_deep": (r"\.json:1:76: nesting deeper than 64 levels", '{"comment": ' + "[" * 70 + "]" * 70 + "}"),
}


def bad_case(name, pattern, args):
    @case("bad." + name)
    def _():
        bad(pattern, *[data(a[1:]) if a.startswith("@") else a for a in args])


for _name, (_pattern, _args) in BAD.items():
    bad_case(_name, _pattern, _args)


def bad_plan_case(name, pattern, plan):
    @case("bad." + name)
    def _():
        f = plan_file(plan)
        try:
            bad(pattern, "fit", "--plan", f)
        finally:
            os.unlink(f)


for _name, (_pattern, _plan) in BAD_PLANS.items():
    bad_plan_case(_name, _pattern, _plan)


# ---- gpuplan serve ------------------------------------------------------------------------------

def near_rel(x, y, tol, what):
    check(abs(x - y) <= tol * abs(y), f"{what}: {x} vs {y} (relative tolerance {tol})")


SERVE_70B = ("serve", "--model", "llama3.1-70b", "--node", "dgx-h100", "--tp", "8")


@case("serve.json_contract")
def _():
    # The keys other tools rely on (docs/json-schema.md), and the identities between them that
    # hold exactly: tokens/s = requests/s x output tokens; end-to-end = TTFT + (O - 1) x TPOT.
    j = ok_json(*SERVE_70B, "--input-len", "1024", "--output-len", "256", "--concurrency", "32",
                "--sweep", "6")
    for k in ("ttft_s", "tpot_s", "output_tokens_per_s", "requests_per_s", "curve"):
        check(k in j, f"serve --json lacks {k}")
    near_rel(j["output_tokens_per_s"], 256 * j["requests_per_s"], 1e-9,
             "tokens/s = 256 x requests/s")
    near_rel(j["e2e_s"], j["ttft_s"] + 255 * j["tpot_s"], 1e-9, "e2e = TTFT + 255 TPOT")
    check(j["concurrency"] == 32 and not j["kv_limited"], "32 sequences fit")
    curve = j["curve"]
    check(len(curve) == 6, f"6 points in the curve, got {len(curve)}")
    for a, b in zip(curve, curve[1:]):
        check(b["concurrency"] > a["concurrency"], "the curve's concurrency rises")
        check(b["output_tokens_per_s"] >= a["output_tokens_per_s"], "throughput rises with it")
        check(b["tpot_s"] >= a["tpot_s"], "TPOT rises with it")
    for p in curve:
        for k in ("ttft_s", "tpot_s", "output_tokens_per_s", "requests_per_s"):
            check(k in p, f"a curve point lacks {k}")


@case("serve.nim_70b")
def _():
    # NVIDIA NIM 1.8.0 benchmark (docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance):
    # Llama 3.3 70B fp8 on 2 x H100 TP2, 5000 input / 500 output tokens, concurrency 25:
    # ITL 38.75 ms, 623.4 output tokens/s. A TensorRT-LLM engine (its KV rule, no chunked
    # prefill by default). Tolerance 25% (docs/models/serving.md reports the error).
    j = ok_json("serve", "--model", "llama3.1-70b", "--node", "dgx-h100", "--tp", "2",
                "--weight-dtype", "fp8", "--kv-dtype", "fp8", "--dtype", "fp8",
                "--engine", "trtllm", "--input-len", "5000", "--output-len", "500",
                "--concurrency", "25")
    check(j["engine"] == "trtllm" and j["chunked_prefill"] is False, "TensorRT-LLM's defaults")
    near_rel(j["tpot_s"], 0.03875, 0.25, "ITL vs NIM's 38.75 ms")
    near_rel(j["output_tokens_per_s"], 623.4, 0.25, "tokens/s vs NIM's 623.4")


@case("serve.slo")
def _():
    j = ok_json(*SERVE_70B, "--ttft-slo", "1", "--tpot-slo", "0.05")
    check(j["slo_met"] is True and j["best"] is not None, "a 70B on 8 H100s meets 1 s / 50 ms")
    check(j["best"]["ttft_s"] <= 1 and j["best"]["tpot_s"] <= 0.05, "the best point meets it")
    check(j["best"]["output_tokens_per_s"] >= j["output_tokens_per_s"],
          "the best point serves at least what concurrency 1 does")
    none = ok_json(*SERVE_70B, "--tpot-slo", "0.001")
    check(none["slo_met"] is False and none["best"] is None, "1 ms per token is out of reach")


@case("serve.rate")
def _():
    # A rate below saturation is served by the concurrency Little's law gives (bisection: 1%).
    j = ok_json(*SERVE_70B, "--rate", "4")
    near_rel(j["requests_per_s"], 4.0, 0.01, "requests/s at --rate 4")
    check(j["saturated"] is False, "4 requests/s is below saturation")
    s = ok_json(*SERVE_70B, "--rate", "10000")
    check(s["saturated"] is True, "10000 requests/s saturates one replica")


@case("serve.static")
def _():
    j = ok_json(*SERVE_70B, "--batching", "static", "--concurrency", "8", "--input-len", "512",
                "--output-len", "64")
    check(j["batching"] == "static", "static batching")
    near_rel(j["e2e_s"], j["ttft_s"] + 63 * j["tpot_s"], 1e-6, "a static batch decodes to its end")
    near_rel(j["output_tokens_per_s"], 8 * 64 / j["e2e_s"], 1e-6, "8 x 64 tokens per batch")


@case("serve.text")
def _():
    r = ok(*SERVE_70B, "--concurrency", "16", "--sweep", "5", "--ttft-slo", "2")
    for s in ("TTFT", "TPOT", "tok/s/GPU", "Best under the SLO", "Throughput-latency curve",
              "output tokens/s per GPU", "time per output token (ms)"):
        check(s in r.out, f"serve's text lacks {s!r}")


@case("serve.expert_parallel")
def _():
    # --ep splits Mixtral's experts over the replica's tensor-parallel ranks: the same GPUs and
    # KV budget; a lone request's token waits for the GPU holding a whole expert (slower than
    # 1/8 of two experts on every GPU), a large batch's GEMMs are larger, but wait for the GPU of
    # the busiest expert: at 256 tokens its 512 routed rows put 64 + 1.4236 sigma (sigma^2 = 48)
    # on it, 1.154x the mean (detail::ep_busiest_rank_factor), where TP splits every expert.
    base = ("serve", "--model", "mixtral-8x7b", "--node", "hgx-h200", "--tp", "8")
    tp1 = ok_json(*base)
    ep1 = ok_json(*base, "--ep", "8")
    check(ep1["layout"]["ep"] == 8 and ep1["kv_capacity_sequences"] == tp1["kv_capacity_sequences"],
          "ep 8 keeps the KV capacity")
    check(ep1["tpot_s"] > tp1["tpot_s"], "batch 1: the busiest GPU reads a whole expert")
    tp256 = ok_json(*base, "--concurrency", "256")
    ep256 = ok_json(*base, "--ep", "8", "--concurrency", "256")
    check(tp256["tpot_s"] < ep256["tpot_s"] <= tp256["tpot_s"] * 1.154,
          "batch 256: larger expert GEMMs, on the busiest expert's rows")
    r = ok(*base, "--ep", "8")
    check("experts: ep 8" in r.out, "the layout line names ep")
    # All-to-all dispatch: echoed, and at batch 256 it changes the step's communication.
    a2a = ok_json(*base, "--ep", "8", "--concurrency", "256", "--moe-all-to-all")
    check(a2a["moe_all_to_all"] is True and ep256["moe_all_to_all"] is False, "echoed")
    check(a2a["tpot_s"] != ep256["tpot_s"], "dispatch and combine replace the MoE all-reduce")


@case("serve.speculative_mtp")
def _():
    """Speculative decoding with DeepSeek-V3's MTP module: echoed, faster per token, more
    memory; refused for a model without MTP modules and without an acceptance rate."""
    base = ("serve", "--model", "deepseek-v3", "--gpu", "h200", "--tp", "8", "--concurrency", "64")
    plain = ok_json(*base)
    spec = ok_json(*base, "--speculative-tokens", "1", "--acceptance", "0.875")
    check("speculation" not in plain, "no speculation unless asked")
    near(spec["speculation"]["tokens_per_step"], 1.875, 1e-9, "1 + a tokens a step")
    check(spec["tpot_s"] < plain["tpot_s"], "fewer seconds per token")
    check(spec["output_tokens_per_s"] < 1.875 * plain["output_tokens_per_s"],
          "the draft and the verification cost something")
    check(spec["per_gpu_bytes"] > plain["per_gpu_bytes"], "the MTP module's weights are held")
    check("speculative decoding with the model's MTP" in ok(*base, "--speculative-tokens", "1",
                                                             "--acceptance", "0.875").out,
          "the text report says so")
    bad(r"--speculative-tokens: Llama-3.1-8B has no multi-token-prediction modules", "serve",
        "--model", "llama-3.1-8b", "--speculative-tokens", "1", "--acceptance", "0.8")
    bad(r"--speculative-tokens needs --acceptance", *base, "--speculative-tokens", "2")
    bad(r"--acceptance needs --speculative-tokens", *base, "--acceptance", "0.8")
    bad(r"--acceptance must be in \[0, 1\] \(got 1.5\)", *base, "--speculative-tokens", "1",
        "--acceptance", "1.5")
    bad(r"--speculative-tokens must be at most 16", *base, "--speculative-tokens", "17",
        "--acceptance", "0.5")


@case("serve.decode_attention")
def _():
    # --decode-attention per-query-head: TensorRT-LLM before XQA (v0.6.1 perf table, H100 fp8,
    # Llama 2 70B tp2, static batch 64, 2048/2048: 547 tok/s/GPU; the model's library test gives
    # -12%). Here: the kernel is echoed, and re-reading the 8-way grouped KV cache per query head
    # makes the decode-heavy run at least 1.5x slower than the grouped kernel.
    base = ("serve", "--model", "llama2-70b", "--node", "dgx-h100", "--tp", "2", "--weight-dtype",
            "fp8", "--kv-dtype", "fp8", "--dtype", "fp8", "--engine", "trtllm", "--batching",
            "static", "--concurrency", "64", "--input-len", "2048", "--output-len", "2048")
    grouped = ok_json(*base)
    per_head = ok_json(*base, "--decode-attention", "per-query-head")
    check(grouped["decode_attention"] == "grouped", "grouped by default")
    check(per_head["decode_attention"] == "per-query-head", "the kernel is echoed")
    check(grouped["output_tokens_per_s"] > 1.5 * per_head["output_tokens_per_s"],
          "per-query-head KV re-reads slow a GQA model's decode")
    near_rel(per_head["output_tokens_per_s"] / 2, 547, 0.25, "v0.6.1's 547 tok/s/GPU")


@case("fit.infer_engine")
def _():
    # fit --infer takes the same --engine: each engine's KV rule gives its own budget.
    args = ("fit", "--infer", "--model", "llama3.1-8b", "--gpu", "h100", "--context", "8192")
    vllm = ok_json(*args)
    trt = ok_json(*args, "--engine", "trtllm")
    sgl = ok_json(*args, "--engine", "sglang")
    check(trt["config"]["engine"] == "trtllm", "the engine is echoed")
    avail = [x["kv_cache"]["available_bytes"] for x in (vllm, trt, sgl)]
    check(len(set(avail)) == 3, f"three engines, three KV budgets: {avail}")


@case("serve.chart")
def _():
    # --chart draws the curve through gnuplot (chart.hpp): an SVG file; without gnuplot on PATH,
    # the data and the gnuplot script beside it, and a line that says so.
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "curve.svg")
        check(shutil_which("gnuplot"), "gnuplot is on PATH (./scripts/check installs gnuplot-nox)")
        ok(*SERVE_70B, "--chart", f)
        with open(f) as fh:
            check("<svg" in fh.read(), "the chart is an SVG file")
        g = os.path.join(d, "nognuplot.svg")
        r = ok(*SERVE_70B, "--chart", g, env={"PATH": "/nonexistent"})
        check(os.path.exists(os.path.join(d, "nognuplot.gp")), "the gnuplot script is written")
        check("gnuplot" in r.out, "and the output says how to draw it")


SERVE_BAD = {
    "serve_concurrency_and_rate": (r"--concurrency and --rate exclude each other",
                                   ["serve", "--model", "llama3.1-8b", "--concurrency", "4",
                                    "--rate", "2"]),
    "serve_batch": (r"--batch is fit's", ["serve", "--model", "llama3.1-8b", "--batch", "4"]),
    "serve_engine": (r"--engine 'tgi' is not one of vllm\|", ["serve", "--model", "llama3.1-8b",
                                                               "--engine", "tgi"]),
    "serve_batching": (r"--batching 'dynamic' is not one of continuous\|static",
                       ["serve", "--model", "llama3.1-8b", "--batching", "dynamic"]),
    "serve_sweep": (r"--sweep must be at most 64", ["serve", "--model", "llama3.1-8b", "--sweep",
                                                    "65"]),
    "serve_fp8_on_a100": (r"--dtype fp8: the GPU has no tensor rate",
                          ["serve", "--model", "llama3.1-8b", "--gpu", "a100-80gb", "--dtype",
                           "fp8"]),
    "serve_slo": (r"--ttft-slo must be a positive number", ["serve", "--model", "llama3.1-8b",
                                                           "--ttft-slo", "-1"]),
    "serve_params": (r"serve needs a transformer model", ["serve", "--model", "params:7e9"]),
    "serve_decode_attention": (r"--decode-attention 'xqa' is not one of grouped\|per-query-head",
                               ["serve", "--model", "llama3.1-8b", "--decode-attention", "xqa"]),
    "serve_ep_dense": (r"--ep 2 > 1 needs an MoE model",
                       ["serve", "--model", "llama3.1-8b", "--tp", "2", "--ep", "2"]),
    "serve_ep_divides": (r"--ep 4 must divide --tp",
                         ["serve", "--model", "mixtral-8x7b", "--tp", "2", "--ep", "4"]),
    "serve_chart_format": (r"the extension must be \.svg or \.png",
                           ["serve", "--model", "llama3.1-8b", "--chart", "curve.pdf"]),
    "serve_too_big": (r"KV cache holds no sequence", ["serve", "--model", "llama3.1-405b",
                                                      "--gpu", "h100"]),
}

for _name, (_pattern, _args) in SERVE_BAD.items():
    bad_case(_name, _pattern, _args)


# ---- capacity and utilization (issue 12) --------------------------------------------------------

def erlang_c(a, c):
    """Erlang C from the defining sums, in log space (independent of the tool's B recursion)."""
    logs = [k * math.log(a) - math.lgamma(k + 1) for k in range(c)]
    last = c * math.log(a) - math.lgamma(c + 1) + math.log(c / (c - a))
    m = max(max(logs), last)
    s = sum(math.exp(x - m) for x in logs)
    t = math.exp(last - m)
    return t / (s + t)


@case("capacity.contract")
def _():
    # M/M/c (service CV 1): 48 req/s at the peak, replicas of 8 slots (2 req/s x 4 s), p99 wait
    # <= 2 s. The smallest replica count, computed here from Erlang C's sums: P(W > t) =
    # C exp(-(c mu - lambda) t) (Kleinrock, Queueing Systems Vol. 1, sec. 3.5).
    lam, mu, slots = 48.0, 0.25, 8
    n = 1
    while True:
        c = n * slots
        if lam / mu < c:
            C = erlang_c(lam / mu, c)
            p99 = max(0.0, math.log(C / 0.01) / (c * mu - lam)) if C > 0.01 else 0.0
            if p99 <= 2.0:
                break
        n += 1
    j = ok_json("capacity", "--rate", "30", "--peak-factor", "1.6", "--wait-slo", "2",
                "--replica-rate", "2", "--service-time", "4", "--months", "0")
    check(j["replicas"] == n, f"replicas {j['replicas']} vs {n} from Erlang C")
    near(j["utilization"], 30.0 / (2.0 * n), 1e-12, "mean utilisation = rate / (replicas x 2)")
    near(j["p_wait"], erlang_c(lam / mu, n * slots), 1e-9, "p_wait = Erlang C at the peak")
    C = erlang_c(lam / mu, n * slots)
    near(j["wait_p99_s"], math.log(C / 0.01) / (n * slots * mu - lam), 1e-9, "p99 wait")
    for k in ["replicas", "utilization", "p_wait", "wait_p99_s"]:
        check(k in j, f"--json carries {k}")


@case("capacity.growth")
def _():
    j = ok_json("capacity", "--rate", "30", "--peak-factor", "1.6", "--growth", "0.1",
                "--months", "12", "--wait-slo", "2", "--wait-percentile", "99",
                "--replica-rate", "2", "--service-time", "4", "--service-cv", "0.8",
                "--gpus-per-replica", "2", "--current-replicas", "30")
    check(len(j["growth"]) == 13, "13 months")
    near(j["growth"][12]["peak_req_per_s"], 48 * 1.1**12, 1e-9, "compounding growth")
    reps = [g["replicas"] for g in j["growth"]]
    check(reps == sorted(reps), f"replicas never fall: {reps}")
    m = j["fleet_runs_out_month"]
    check(m is not None and reps[m] > 30 and reps[m - 1] <= 30, f"runs out in month {m}: {reps}")
    check(j["gpus"] == 2 * j["replicas"], "GPUs = replicas x 2")
    text = ok("capacity", "--rate", "30", "--peak-factor", "1.6", "--growth", "0.1",
              "--wait-slo", "2", "--replica-rate", "2", "--service-time", "4",
              "--service-cv", "0.8", "--current-replicas", "30").out
    check(f"miss the SLO in month {m}" in text, "says when today's fleet runs out")
    check("peak demand" in text and "+----" in text, "the text chart")
    for line in text.splitlines():
        check(len(line) <= 120, f"line too long: {line!r}")


@case("capacity.kubernetes")
def _():
    y = ok("capacity", "--rate", "30", "--wait-slo", "1", "--replica-rate", "2",
           "--service-time", "4", "--gpus-per-replica", "2", "--months", "0",
           "--kubernetes", "llama-serve").out
    check(y.startswith("apiVersion: apps/v1\nkind: Deployment\n"), f"a Deployment: {y[:80]!r}")
    check("nvidia.com/gpu: 2" in y, "two GPUs per pod")
    reps = ok_json("capacity", "--rate", "30", "--wait-slo", "1", "--replica-rate", "2",
                   "--service-time", "4", "--months", "0")["replicas"]
    check(f"  replicas: {reps}\n" in y, "the plan's replicas")
    mig = ok("capacity", "--rate", "3", "--wait-slo", "1", "--replica-rate", "0.5",
             "--service-time", "4", "--months", "0", "--gpu", "h100", "--mig", "3g.40gb",
             "--kubernetes", "small").out
    check("nvidia.com/mig-3g.40gb: 1" in mig, "MIG resource name")


@case("capacity.serving_plan")
def _():
    # A replica described by a serving plan (the `gpuplan serve` flags): Llama-3.1-70B on a DGX
    # H100 at tp 8, 1024 + 256 tokens, TTFT <= 1 s and TPOT <= 50 ms. Its capacity must be
    # exactly the best point `gpuplan serve --json` reports at the same SLO, and the replica
    # count the smallest that meets p99 wait <= 1 s at 20 req/s by Erlang C (computed here).
    plan = ["--model", "Llama-3.1-70B", "--node", "dgx-h100", "--tp", "8", "--input-len",
            "1024", "--output-len", "256", "--ttft-slo", "1", "--tpot-slo", "0.05"]
    best = ok_json("serve", *plan)["best"]
    # --service-cv 1: the M/M/c case, so that Erlang C below is exact (without it the CV is the
    # serving model's, capacity.service_cv_from_mix)
    j = ok_json("capacity", "--rate", "20", "--wait-slo", "1", "--months", "0", *plan,
                "--service-cv", "1")
    for k in ["replicas", "utilization", "p_wait", "wait_p99_s", "serving", "gpus_per_replica",
              "total_gpus"]:
        check(k in j, f"--json carries {k}")
    near(j["replica"]["rate_req_per_s"], best["requests_per_s"], 1e-12, "replica rate = serve's")
    near(j["replica"]["mean_service_s"], best["e2e_s"], 1e-12, "service time = serve's e2e")
    near(j["serving"]["requests_per_s"], best["requests_per_s"], 1e-12, "serving point")
    check(j["serving"]["concurrency"] == best["concurrency"], "the same concurrency as serve")
    check(j["serving"]["tpot_s"] <= 0.05 and j["serving"]["ttft_s"] <= 1.0, "meets the SLO")
    check(j["gpus_per_replica"] == 8 and j["total_gpus"] == 8 * j["replicas"], "tp 8 replicas")
    rate = best["requests_per_s"]
    n = j["replicas"]
    check(n >= math.ceil(20 / rate), f"{n} replicas carry 20 req/s at {rate:.3f} each")
    near(j["utilization"], 20 / (n * rate), 1e-12, "utilisation = demand / capacity")
    check(0 < j["utilization"] <= 1, "utilisation in (0, 1]")
    slots = j["slots_per_replica"]
    check(slots == int(rate * best["e2e_s"] + 1e-9), "slots = rate x e2e (Little)")
    mu = rate / slots  # per slot

    def p99(c):
        if 20 / mu >= c:
            return math.inf
        C = erlang_c(20 / mu, c)
        return max(0.0, math.log(C / 0.01) / (c * mu - 20)) if C > 0.01 else 0.0
    check(p99(n * slots) <= 1.0 and (n == 1 or p99((n - 1) * slots) > 1.0),
          f"{n} is the smallest replica count meeting p99 wait <= 1 s")
    # the cost: the default book's cheapest on-demand H100 SXM $/GPU-h, times 8 GPUs
    pe = j["price_entry"]
    check(pe["term"] == "on_demand" and pe["provider"], f"a price entry: {pe}")
    near(pe["usd_per_replica_hour"], 8 * pe["usd_per_gpu_hour"], 1e-12, "replica $/h = 8 GPUs")
    near(j["cost_per_hour_usd"], n * pe["usd_per_replica_hour"], 1e-9, "cost at the peak")
    text = ok("capacity", "--rate", "20", "--wait-slo", "1", "--months", "0", *plan).out
    check("serving plan: Llama-3.1-70B on 8 x H100" in text and "/GPU-h x 8 GPUs" in text
          and all(len(line) <= 120 for line in text.splitlines()),
          "the text names the serving point and the price entry")
    y = ok("capacity", "--rate", "20", "--wait-slo", "1", "--months", "0", *plan,
           "--kubernetes", "llama-70b").out
    check("nvidia.com/gpu: 8" in y and f"  replicas: {n}\n" in y, "k8s asks tp x pp GPUs")
    # an explicit --price replaces the book; the replica's own flags exclude the serving plan
    k = ok_json("capacity", "--rate", "20", "--wait-slo", "1", "--months", "0", *plan,
                "--price", "10")
    check("price_entry" not in k, "--price replaces the book")
    bad(r"--replica-rate.*serving plan", "capacity", "--rate", "20", "--wait-slo", "1", *plan,
        "--replica-rate", "2")
    bad(r"capacity.*--ttft-slo", "capacity", "--rate", "20", "--wait-slo", "1", "--model",
        "Llama-3.1-70B", "--node", "dgx-h100", "--tp", "8")
    bad(r"--tp belongs to a serving plan", "capacity", "--rate", "20", "--wait-slo", "1",
        "--replica-rate", "2", "--service-time", "4", "--tp", "8")
    bad(r"not dp 2", "capacity", "--rate", "20", "--wait-slo", "1", *plan, "--dp", "2")
    bad(r"no concurrency .* meets the SLO", "capacity", "--rate", "20", "--wait-slo", "1",
        *plan[:-4], "--ttft-slo", "0.001")


@case("capacity.chart")
def _():
    d = tempfile.mkdtemp()
    out = os.path.join(d, "plan.svg")
    # Without gnuplot on PATH: the data and the script beside the file, and a message.
    r = ok("capacity", "--rate", "30", "--wait-slo", "1", "--replica-rate", "2",
           "--service-time", "4", "--growth", "0.05", "--chart", out, env={"PATH": "/nonexistent"})
    check(os.path.exists(os.path.join(d, "plan.dat")) and os.path.exists(os.path.join(d, "plan.gp")),
          "plan.dat and plan.gp written")
    check("gnuplot is not on PATH" in r.out, "says gnuplot is missing")
    # With gnuplot (./scripts/check installs it: its absence is a failure, not a skip).
    check(shutil_which("gnuplot"), "gnuplot is on PATH (./scripts/check installs gnuplot-nox)")
    ok("capacity", "--rate", "30", "--wait-slo", "1", "--replica-rate", "2",
       "--service-time", "4", "--chart", out)
    with open(out) as f:
        check("<svg" in f.read(), "an SVG drawn by gnuplot")


@case("utilization.contract")
def _():
    j = ok_json("utilization", data("monitoring/nvidia-smi-units.csv"))
    check(len(j["gpus"]) == 4, "four GPUs")
    by = {g["id"]: g for g in j["gpus"]}
    # tests/data/monitoring/make_data.py: GPU 0 at 85% throughout, GPU 1 alternating 20/60%,
    # GPU 2 idle, GPU 3 97% then 92%.
    near(by["0"]["mean"], 0.85, 1e-12, "GPU 0 mean")
    near(by["0"]["bands"]["70_90"], 1.0, 1e-12, "GPU 0 in the healthy band")
    near(by["1"]["bands"]["under_30"], 0.5, 1e-12, "GPU 1 half under 30%")
    near(by["3"]["p95"], 0.97, 1e-12, "GPU 3 p95")
    near(by["3"]["peak"], 0.97, 1e-12, "GPU 3 peak")
    for g in j["gpus"] + [j["fleet"]]:
        for k in ["id", "mean", "peak", "p95", "bands"]:
            check(k in g, f"{k} in {g.get('id')}")
        near(sum(g["bands"][k] for k in ["under_30", "30_70", "70_90", "90_95", "over_95"]), 1.0,
             1e-9, "bands sum to 1")
    near(j["fleet"]["mean"], (0.85 + 0.40 + 0.0 + 0.945) / 4, 1e-12, "fleet mean")


@case("utilization.formats")
def _():
    j = ok_json("utilization", data("monitoring/nvidia-smi-nounits.csv"),
                data("monitoring/dcgm-range.json"), data("monitoring/plain.csv"))
    ids = sorted(g["id"] for g in j["gpus"])
    check(ids == ["node-a:0", "node-b:0", "nvidia-smi-nounits:0", "nvidia-smi-nounits:1",
                  "plain:a", "plain:b"], f"ids: {ids}")
    by = {g["id"]: g for g in j["gpus"]}
    near(by["plain:a"]["mean"], 0.70, 1e-12, "time-weighted mean")
    check(by["nvidia-smi-nounits:1"]["gaps"] == 1, "the gap")
    text = ok("utilization", data("monitoring/nvidia-smi-units.csv")).out
    check("Advice:" in text and "idle GPU" in text, "advice printed")
    check("healthy 70-90%" in text, "bands drawn in the text chart")


@case("utilization.throughput")
def _():
    # serving.csv: GPU 0 at 2000 then 1000 tokens/s (30 s each), GPU 1 at 1500 (make_data.py).
    j = ok_json("utilization", data("monitoring/serving.csv"))
    check(j["throughput_unit"] == "tokens/s", "the unit from the column")
    by = {g["id"]: g for g in j["gpus"]}
    near(by["0"]["throughput_mean_per_s"], 1500, 1e-12, "GPU 0 time-weighted mean")
    near(by["0"]["throughput_peak_per_s"], 2000, 1e-12, "GPU 0 peak")
    near(j["fleet"]["throughput_mean_per_s"], 3000, 1e-12, "fleet mean = sum of the GPUs'")
    near(j["fleet"]["throughput_peak_per_s"], 3500, 1e-12, "fleet peak total")
    text = ok("utilization", data("monitoring/serving.csv")).out
    check("Throughput (tokens/s): fleet mean 3000, peak 3500" in text, "the summary line")
    check("fleet total" in text and "GPU utilisation" in text, "both text charts")
    d = tempfile.mkdtemp()
    out = os.path.join(d, "tp.svg")
    r = ok("utilization", data("monitoring/serving.csv"), "--throughput-chart", out,
           env={"PATH": "/nonexistent"})
    check(os.path.exists(os.path.join(d, "tp.dat")) and os.path.exists(os.path.join(d, "tp.gp")),
          "tp.dat and tp.gp written without gnuplot")
    with open(os.path.join(d, "tp.dat")) as f:
        check("3500" in f.read(), "the fleet total in the chart's data")
    check("gnuplot is not on PATH" in r.out, "says gnuplot is missing")
    bad(r"--throughput-chart: the files have no throughput column", "utilization",
        data("monitoring/plain.csv"), "--throughput-chart", out)
    bad(r"bad-throughput\.csv:2: field 'tokens_per_s': cannot read '12 tok/s'", "utilization",
        data("monitoring/bad/bad-throughput.csv"))


def _advice_of(text):
    """The advice lines of `gpuplan utilization`'s text output."""
    block = text.split("\nAdvice:\n", 1)[1].split("\n\n", 1)[0]
    return [a[4:] for a in block.splitlines() if a.startswith("  - ")]


def _usage_csv(path, readings):
    """A plain utilisation CSV at `path`: readings(k) gives (gpu, utilization %, memory MiB) for
    each GPU at sample k of 100, ten seconds apart."""
    with open(path, "w") as f:
        f.write("timestamp,gpu,utilization,memory_used\n")
        for k in range(100):
            for gpu, util, mem in readings(k):
                f.write(f"{1795442400 + 10 * k},{gpu},{util},{mem}\n")
    return path


@case("utilization.advice_agrees")
def _():
    # Issue 26: 2 of 8 GPUs idle, 6 at 55%/97% in turn (mean 76%): a fleet mean of 57%. The advice
    # said both "Release them" and "Add GPUs or shed load ... Add capacity now".
    csv = _usage_csv(os.path.join(tempfile.mkdtemp(), "fleet.csv"), lambda k: [
        (g, (1 if k % 2 else 0) if g >= 6 else (97 if k % 2 else 55), 40000 if g < 6 else 500)
        for g in range(8)])
    advice = _advice_of(ok("utilization", csv, "--growth", "0.05").out)
    releases = [a for a in advice if "Release" in a]
    adds = [a for a in advice if "Add GPUs" in a or "Add capacity now" in a]
    check(not (releases and adds), f"release and add together: {advice}")
    check(any(a.startswith("Move work onto the idle GPUs 6, 7 first: the 6 busy GPUs spend 50% of "
                           "their time above 90% (50% above 95%, p95 97%); spread over all 8 GPUs "
                           "the fleet's work averages 57%.") for a in advice), f"{advice}")
    j = ok_json("utilization", csv, "--growth", "0.05")
    near(j["fleet"]["mean"], (6 * 0.76 + 2 * 0.005) / 8, 1e-9, "fleet mean 57%")
    check(j["idle_gpus"] == ["6", "7"], f"idle GPUs: {j['idle_gpus']}")
    check(j["verdict"] == "unbalanced", f"verdict: {j['verdict']}")
    rules = j["advice_rules"]
    check(len(rules) == len(j["advice"]), "one rule per advice line")
    check("rebalance" in rules, f"move work first: {rules}")
    for fewer in ["release_idle", "consolidate", "share_mig", "share_time_slicing"]:
        for more in ["scale_out", "add_capacity_now"]:
            check(not (fewer in rules and more in rules), f"{fewer} with {more}: {rules}")


@case("utilization.advice_figures")
def _():
    # The sharing advice quotes the share of time under 30% that the table prints (it said "95% of
    # the time" over a table showing 100%), and offers MIG only where a slice smaller than the
    # whole GPU holds the GPU's peak memory: a 59 GiB peak on an H100 80GB fits only 7g.80gb.
    d = tempfile.mkdtemp()
    csv = _usage_csv(os.path.join(d, "pair.csv"),
                     lambda k: [(0, 80, 40000), (1, 10, 60416 if k == 50 else 30000)])
    text = ok("utilization", csv, "--gpu", "H100-SXM5-80GB").out
    row = next(line for line in text.splitlines() if line.startswith("1 "))
    under_30 = row.split()[5]
    check(under_30 == "100%", f"the table's <30% for GPU 1: {row}")
    advice = _advice_of(text)
    share = [a for a in advice if a.startswith("GPU 1 ")]
    check(len(share) == 1, f"one sharing line: {advice}")
    check(f"is below 30% for {under_30} of the time" in share[0], share[0])
    check("95% of the time" not in share[0], share[0])
    check("time-slicing only" in share[0] and "59 GiB" in share[0] and "with MIG" not in share[0],
          share[0])
    j = ok_json("utilization", csv, "--gpu", "H100-SXM5-80GB")
    check(j["advice_rules"] == ["share_time_slicing"], f"rules: {j['advice_rules']}")
    check(j["under_used_gpus"] == ["1"], f"under-used: {j['under_used_gpus']}")
    # a 15 GiB peak fits 1g.20gb, the smallest slice that holds it
    _usage_csv(csv, lambda k: [(0, 80, 40000), (1, 10, 15360 if k == 50 else 8000)])
    j = ok_json("utilization", csv, "--gpu", "h100")
    check(j["advice_rules"] == ["share_mig"], f"rules: {j['advice_rules']}")
    check("is 1g.20gb" in j["advice"][0], j["advice"][0])
    bad(r"unknown GPU 'no-such-gpu'", "utilization", csv, "--gpu", "no-such-gpu")
    # Without --gpu, an nvidia-smi log's name column gives the model: the 59 GiB peak again.
    smi = os.path.join(d, "smi.csv")
    with open(smi, "w") as f:
        f.write("timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n")
        for k in range(100):
            t = f"2026/11/23 14:{k // 60:02d}:{k % 60:02d}.000"
            f.write(f"{t}, 0, NVIDIA H100 80GB HBM3, 80 %, 40000 MiB\n")
            f.write(f"{t}, 1, NVIDIA H100 80GB HBM3, 10 %, {60416 if k == 50 else 30000} MiB\n")
    j = ok_json("utilization", smi)
    check(j["gpu_models"] == ["NVIDIA H100 80GB HBM3"], f"models: {j.get('gpu_models')}")
    check(j["advice_rules"] == ["share_time_slicing"], f"rules: {j['advice_rules']}")
    check("fits no MIG slice smaller than the whole H100-SXM5-80GB" in j["advice"][0],
          j["advice"][0])


@case("bad.utilization")
def _():
    bad(r"bad-percent\.csv:3: field 'utilization\.gpu': cannot read 'abc' as a percentage",
        "utilization", data("monitoring/bad/bad-percent.csv"))
    bad(r"field-count\.csv:2: 4 fields, the header has 5", "utilization",
        data("monitoring/bad/field-count.csv"))
    bad(r"no such file", "utilization", data("monitoring/none.csv"))
    bad(r"malformed JSON", "utilization", data("monitoring/bad/truncated.json"))


@case("bad.capacity")
def _():
    bad(r"--wait-slo", "capacity", "--rate", "30", "--replica-rate", "2", "--service-time", "4")
    bad(r"--replica-rate", "capacity", "--rate", "30", "--wait-slo", "1")
    bad(r"--rate = abc", "capacity", "--rate", "abc", "--wait-slo", "1",
        "--replica-rate", "2", "--service-time", "4")
    bad(r"--peak-factor must be at least 1", "capacity", "--rate", "30", "--peak-factor", "0.5",
        "--wait-slo", "1", "--replica-rate", "2", "--service-time", "4")
    bad(r"--wait-percentile must be in \(0, 100\)", "capacity", "--rate", "30", "--wait-slo",
        "1", "--wait-percentile", "100", "--replica-rate", "2", "--service-time", "4")
    bad(r"--months must be in \[0, 120\]", "capacity", "--rate", "30",
        "--wait-slo", "1", "--replica-rate", "2", "--service-time", "4", "--months", "200")
    bad(r"--mig '9g\.1gb': H100-SXM5-80GB has the profiles 1g\.10gb", "capacity", "--rate", "3",
        "--wait-slo", "1", "--replica-rate", "1", "--service-time", "1", "--gpu", "h100",
        "--mig", "9g.1gb")
    bad(r"extension must be \.svg or \.png", "capacity", "--rate", "30", "--wait-slo", "1",
        "--replica-rate", "2", "--service-time", "4", "--chart", "plan.jpg")


@case("capacity.plan_file")
def _():
    f = plan_file({"rate": 30, "peak_factor": 1.6, "wait_slo": 2, "replica_rate": 2,
                   "service_time": 4, "months": 0})
    a = ok_json("capacity", "--plan", f)
    b = ok_json("capacity", "--rate", "30", "--peak-factor", "1.6", "--wait-slo", "2",
                "--replica-rate", "2", "--service-time", "4", "--months", "0")
    check(a == b, "a plan file gives what the same flags give")
    c = ok_json("capacity", "--plan", f, "--rate", "60")
    check(c["replicas"] > a["replicas"], "a flag overrides the plan file")
    bad(r"unknown key|not a capacity|did you mean", "capacity", "--plan",
        plan_file({"rate": 30, "wait_slo": 2, "replica_rate": 2, "service_time": 4,
                   "wait_slow": 1}))

# ---- cost, energy, carbon (issue 15) -------------------------------------------------------------

HOURS_PER_MONTH = 365 / 12 * 24


@case("cost.model_card")
def _():
    # Llama 2 70B as the Llama 2 model card gives it (arXiv:2307.09288 Table 2): 1,720,320 GPU-hours
    # at 400 W per GPU; with the LLaMA paper's PUE 1.1 and 0.385 kg CO2e/kWh: 291.42 t (printed
    # to the hundredth; tolerance 5 kg).
    j = ok_json("cost", "--gpu", "a100-80gb", "--gpu-hours", "1720320", "--power-per-gpu", "400",
                "--pue", "1.1", "--carbon-intensity", "0.385", "--provider", "aws")
    near(j["energy_kwh"], 1720320 * 0.4 * 1.1, 1e-6, "energy")
    near(j["carbon_kg"], 291420, 5, "carbon, Llama 2 70B")
    check(j["power_source"] == "given", "power given")
    # The default book has no AWS A100 80GB price: the cost is unknown, not zero.
    check(j["cost_usd"] is None and j["price"]["usd_per_gpu_hour"] is None, "no price, no cost")
    check(j["embodied_carbon_kg"] is None, "embodied only on request")
    t = ok("cost", "--gpu", "a100-80gb", "--gpu-hours", "1720320", "--power-per-gpu", "400",
           "--pue", "1.1", "--carbon-intensity", "0.385", "--provider", "aws").out
    check("291.42 t CO2e" in t and "cost    unknown" in t, f"text report: {t!r}")


@case("cost.book")
def _():
    # 1,000 H100 GPU-hours at the default book's cheapest on-demand H100 price (RunPod, $22.32 per
    # 8-GPU hour); power from the model: 698 W GPU + 4.6 kW / 8 host (DGX H100), PUE 1.56, site
    # grid 0.385 kg/kWh.
    j = ok_json("cost", "--gpu", "h100", "--gpu-hours", "1000", "--embodied")
    near(j["cost_usd"], 1000 * 22.32 / 8, 1e-6, "cost")
    check(j["price"]["provider"] == "runpod" and j["price"]["date"] == "2026-04-30", "price entry")
    near(j["power_per_gpu_watts"], 698 + 4600 / 8, 1e-6, "power per GPU")
    near(j["energy_kwh"], 1000 * (0.698 + 4.6 / 8) * 1.56, 1e-6, "energy")
    near(j["carbon_kg"], j["energy_kwh"] * 0.385, 1e-6, "carbon = energy x intensity")
    near(j["embodied_carbon_kg"], 1000 * (150 + 2500 / 8) / (6 * 8760 * 0.85), 1e-6, "embodied")
    lines = j["energy_lines_kwh"]
    near(sum(lines.values()), j["energy_kwh"], 1e-6, "energy lines add up")
    # A provider, a term, a given price.
    lam = ok_json("cost", "--gpu", "h100", "--gpu-hours", "1000", "--provider", "lambda")
    near(lam["cost_usd"], 3780, 1e-6, "lambda")
    near(ok_json("cost", "--gpu", "h100", "--gpu-hours", "1000", "--term", "spot")["cost_usd"],
         1000 * 12.16 / 8, 1e-6, "spot")
    near(ok_json("cost", "--gpu", "h100", "--gpus", "8", "--hours", "125",
                 "--price-per-gpu-hour", "2")["cost_usd"], 2000, 1e-6, "given price")
    # A grid region from the catalog.
    fr = ok_json("cost", "--gpu", "h100", "--gpu-hours", "1000", "--region", "france")
    near(fr["carbon_intensity_kg_per_kwh"], 0.056, 1e-12, "France 2023 (Ember)")


@case("cost.compare")
def _():
    # 64 H100s used 70% of the time, cloud at $4.916 per GPU-hour against owned DGX H100s at the
    # catalog's $270,000 (SemiAnalysis, May 2023) with the sourced defaults (docs/models/cost.md):
    # capital 8 x 270,000 x (1 + 0.11 network + 0.022 storage).
    args = ["cost", "--gpu", "h100", "--gpus", "64", "--gpu-hours", "15360", "--compare",
            "cloud,onprem", "--price-per-gpu-hour", "4.916", "--utilization", "0.7"]
    j = ok_json(*args)
    c = j["comparison"]
    near(c["cloud"]["usd_per_month"], 0.7 * 64 * HOURS_PER_MONTH * 4.916, 1e-6, "cloud month")
    near(c["onprem"]["capex_usd"], 8 * 270000 * 1.132, 1e-6, "capex: 8 servers + network, storage")
    near(c["onprem"]["maintenance_usd_per_month"], 8 * 270000 * 1.132 * 0.06 / 12, 1e-6,
         "maintenance: 6% a year")
    # The break-even month is where the cumulative lines cross.
    m = j["break_even_months"]
    owned = c["onprem"]["capex_usd"] + m * c["onprem"]["running_usd_per_month"]
    near(m * c["cloud"]["usd_per_month"], owned, 1e-3, "crossing")
    near(j["break_even_utilization"], 0.4464, 0.0001, "break-even utilization")
    pts = c["cumulative"]
    check(len(pts) == 37 and pts[0]["cloud_usd"] == 0, "cumulative series over 36 months")
    t = ok(*args).out
    check("above 45% average utilization, owning is cheaper over 36 months" in t, t)
    check(re.search(r"at 70% use, owning is cheaper after 20 months", t), t)
    check("cumulative cost ($M)" in t, "a terminal chart")
    # A commitment bills every hour: no break-even utilization (null).
    k = ok_json("cost", "--gpu", "h100", "--gpus", "64", "--gpu-hours", "15360", "--compare",
                "onprem", "--price-per-gpu-hour", "3", "--term", "commit_1yr")
    check(k["break_even_utilization"] is None, "null for a commitment")
    with tempfile.TemporaryDirectory() as d:
        svg = os.path.join(d, "cost.svg")
        check(shutil_which("gnuplot"), "gnuplot is on PATH (./scripts/check installs gnuplot-nox)")
        jc = ok_json(*args, "--chart", svg)
        check(jc["chart"] == svg and os.path.exists(svg), "the chart drawn, its path in the JSON")
        jc = ok_json(*args, "--chart", svg, env={"PATH": "/nonexistent"})
        check(jc["chart"] == os.path.join(d, "cost.gp") and os.path.exists(jc["chart"]),
              "without gnuplot: the script written, its path in the JSON")


@case("cost.hybrid")
def _():
    demand = [64] * 9 + [256] * 5 + [320] + [256] * 3 + [64] * 6
    j = ok_json("cost", "--gpu", "h100", "--gpu-hours", "1000", "--compare", "hybrid",
                "--price-per-gpu-hour", "4.916", "--demand", ",".join(map(str, demand)))
    h = j["hybrid"]
    check(h["hours"] == 24 and h["peak_gpus"] == 320, "profile")
    near(h["all_cloud_usd"], sum(demand) * 4.916, 1e-6, "all cloud = GPU-hours x price")
    check(h["hybrid_usd"] <= min(h["all_cloud_usd"], h["all_onprem_usd"]), "hybrid is the cheapest")
    check(h["base_gpus"] in [0] + demand, "base at a demand level")
    near(h["burst_gpu_hours"], sum(max(0, d - h["base_gpus"]) for d in demand), 1e-6, "burst")


# ---- cost over a horizon (issue 26) -------------------------------------------------------------

HORIZON = ["cost", "--gpu", "h100", "--gpus", "64", "--months", "36", "--occupancy", "0.6",
           "--compare", "cloud,onprem", "--price-per-gpu-hour", "4.916"]


def _money(text):
    """money_text's figure in dollars: "$2.82M" -> 2.82e6, "$78209" -> 78209, "-$4.50" -> -4.5."""
    m = re.fullmatch(r"(-?)\$([\d.]+)(M?)", text)
    check(m, f"a money figure: {text!r}")
    return (-1 if m.group(1) else 1) * float(m.group(2)) * (1e6 if m.group(3) else 1)


@case("cost.horizon")
def _():
    """The issue's example, 64 GPUs busy 60% of 36 months: cloud, owned and hybrid totals are the
    sums of their monthly lines, the text and the JSON agree, and the energy is occupancy x the
    busy power x hours."""
    j = ok_json(*HORIZON)
    h = j["horizon"]
    mo = h["monthly"]
    check(h["months"] == 36 and len(mo) == 37 and [m["month"] for m in mo] == list(range(37)),
          "months 0..36")
    for side in ["cloud", "owned", "hybrid"]:
        near_rel(sum(m[side + "_usd"] for m in mo), h[side + "_total_usd"], 1e-12,
                 f"{side} total = sum of its monthly lines")
        near_rel(mo[-1][side + "_cumulative_usd"], h[side + "_total_usd"], 1e-12,
                 f"{side}: the curve ends at its total")
    hours = 36 * HOURS_PER_MONTH
    # Renting bills the busy hours once: 60% of 64 GPUs x 26,280 h at $4.916, which is also the
    # run priced (the fleet's busy GPU-hours), not every hour.
    near_rel(h["cloud_total_usd"], 0.6 * 64 * hours * 4.916, 1e-12, "cloud over 36 months")
    near_rel(j["gpu_hours"], 0.6 * 64 * hours, 1e-12, "GPU-hours used = occupancy x fleet hours")
    near_rel(j["cost_usd"], h["cloud_total_usd"], 1e-12, "the run is the fleet's busy hours")
    # Owned: capital in month 0, residual value 1 - 36/60 = 40% of it at the end (5-year
    # straight line), the run on owned GPUs is the owned total (nothing contradicts).
    o = h["owned"]
    near_rel(mo[0]["owned_usd"], o["capex_usd"], 1e-12, "capital up front in month 0")
    near_rel(o["residual_usd"], 0.4 * o["capex_usd"], 1e-12, "residual value")
    near_rel(h["owned_total_usd"],
             o["capex_usd"] + 36 * o["running_usd_per_month"] - o["residual_usd"], 1e-12,
             "owned = capital + running - residual")
    near_rel(j["comparison"]["onprem"]["run_cost_usd"], h["owned_total_usd"], 1e-9,
             "this run on owned GPUs = the owned total")
    hy = h["hybrid"]
    check(hy["owned_gpus"] == 32 and hy["burst_gpus"] == 32, "hybrid: half owned, half rented")
    # Energy = occupancy x the busy GPU's all-in power x GPUs x hours x PUE (duty 1).
    near_rel(j["energy_kwh"], 0.6 * 64 * j["power_per_gpu_watts"] / 1000 * hours * j["pue"],
             1e-12, "energy = occupancy x duty power x hours")
    near_rel(h["busy_energy_kwh"], j["energy_kwh"], 1e-9, "the owned fleet's busy energy is it")
    check(h["owned_energy_kwh"] > h["busy_energy_kwh"], "the owned fleet also idles")
    # The text says the same figures.
    t = ok(*HORIZON).out
    section = t[t.index("over 36 months at 60% occupancy"):]
    for side, key in [("cloud", "cloud"), ("owned", "owned"), ("hybrid", "hybrid")]:
        m = re.search(rf"^  {side} +(-?\$[\d.M]+)", section, re.M)
        check(m, f"text {side} total")
        near(_money(m.group(1)), h[key + "_total_usd"], 0.005e6, f"text {side} total")
    last = re.search(r"^ +36 +(.*)$", section, re.M).group(1).split()
    check(len(last) == 6, f"month 36 row: {last}")
    for i, side in enumerate(["cloud", "owned", "hybrid"]):
        near(_money(last[3 + i]), mo[-1][side + "_cumulative_usd"], 0.005e6, f"row 36 {side}")
    run = re.search(r"this run on owned GPUs: (\$[\d.M]+)", t)
    check(run, "the run on owned GPUs")
    near(_money(run.group(1)), h["owned_total_usd"], 0.005e6, "text: the run on owned GPUs")
    check("+ hybrid (32 GPUs owned, the rest rented)" in t, "the chart draws the hybrid too")
    # --utilization is the occupancy's old name: the same figures.
    old = ok_json(*["--utilization" if a == "--occupancy" else a for a in HORIZON])
    near_rel(old["horizon"]["owned_total_usd"], h["owned_total_usd"], 1e-12, "--utilization 0.6")
    near_rel(old["energy_kwh"], j["energy_kwh"], 1e-12, "--utilization is no duty")
    # The issue's own command, as a finance lead writes it: --hours 26280 with --utilization 0.6
    # is 64 GPUs held 36 months (26,280 h), busy 60% of them: the same figures as --months 36
    # --occupancy 0.6 (it printed every hour rented, $4.69M, and a $6.19M owned run beside a
    # $3.71M owned total).
    literal = ok_json("cost", "--gpus", "64", "--hours", "26280", "--utilization", "0.6",
                      "--compare", "cloud,onprem")
    months = ok_json("cost", "--gpus", "64", "--months", "36", "--occupancy", "0.6", "--compare",
                     "cloud,onprem")
    check(literal["horizon"] == months["horizon"], "the issue's command is 36 months at 60%")
    near_rel(literal["cost_usd"], literal["horizon"]["cloud_total_usd"], 1e-12,
             "the issue's command rents 60% of the hours")
    near_rel(literal["comparison"]["onprem"]["run_cost_usd"],
             literal["horizon"]["owned_total_usd"], 1e-9, "its run on owned GPUs = owned total")
    for side in ["cloud", "owned", "hybrid"]:
        near_rel(sum(m[side + "_usd"] for m in literal["horizon"]["monthly"]),
                 literal["horizon"][side + "_total_usd"], 1e-12, f"{side}: the monthly lines")
    near_rel(literal["energy_kwh"], 0.6 * 64 * literal["power_per_gpu_watts"] / 1000 * hours *
             literal["pue"], 1e-12, "its energy = occupancy x duty power x hours")
    # --years 3 is the same horizon.
    check(HORIZON[5:7] == ["--months", "36"], "the horizon's place in HORIZON")
    y = ok_json(*HORIZON[:5], "--years", "3", *HORIZON[7:])
    near_rel(y["horizon"]["owned_total_usd"], h["owned_total_usd"], 1e-12, "--years 3")
    # A run length with a horizon: the occupancy follows from it, applied once.
    d = ok_json("cost", "--gpu", "h100", "--gpus", "64", "--gpu-hours", "15360", "--months", "36",
                "--compare", "onprem", "--price-per-gpu-hour", "4.916")
    near_rel(d["horizon"]["occupancy"], 15360 / (64 * hours), 1e-12, "derived occupancy")
    near_rel(d["horizon"]["cloud_total_usd"], 15360 * 4.916, 1e-12, "rented hours: the run's")
    near_rel(d["energy_kwh"], 15360 * d["power_per_gpu_watts"] / 1000 * d["pue"], 1e-12,
             "the run's energy at duty 1, not x the occupancy again")
    # --duty is the busy GPU's power, apart from the occupancy.
    half = ok_json(*HORIZON, "--duty", "0.5")
    check(half["power_per_gpu_watts"] < j["power_per_gpu_watts"], "duty lowers the power")
    near_rel(half["horizon"]["cloud_total_usd"], h["cloud_total_usd"], 1e-12,
             "duty does not change the rented hours")
    # Financed: no capital in month 0, the standard annuity payment each month.
    f = ok_json(*HORIZON, "--finance-rate", "0.085", "--finance-months", "36")["horizon"]
    i, n, k = 0.085 / 12, 36, f["owned"]["capex_usd"]
    near_rel(f["owned"]["payment_usd_per_month"], k * i / (1 - (1 + i) ** -n), 1e-12, "annuity")
    check(f["monthly"][0]["owned_usd"] == 0, "financed: nothing up front")
    near_rel(sum(m["owned_usd"] for m in f["monthly"]), f["owned_total_usd"], 1e-12, "financed sum")
    check(f["owned_total_usd"] > h["owned_total_usd"], "interest costs something")


HORIZON_BAD = {
    # 1,681,920 GPU-hours are every hour of 64 GPUs over 36 months, not 60% of them
    "run_over_occupancy": (r"--gpu-hours \(1681920 GPU-hours\) is more than the fleet of 64 "
                           r"GPUs is busy at --utilization 0\.6 over 36 months",
                           ["cost", "--gpus", "64", "--gpu-hours", "1681920", "--utilization",
                            "0.6", "--compare", "cloud,onprem"]),
    # --hours held with --utilization is the horizon: whole months of 730 h
    "held_hours_not_months": (r"--hours 1000 with --utilization is the hours the fleet is held: it "
                              r"must be whole months of 730 h",
                              ["cost", "--gpus", "64", "--hours", "1000", "--utilization", "0.6",
                               "--compare", "cloud,onprem"]),
    "occupancy_twice": (r"--occupancy and --gpu-hours both set the occupancy",
                        ["cost", "--gpus", "64", "--gpu-hours", "1000", "--months", "36",
                         "--occupancy", "0.6", "--compare", "onprem"]),
    "old_and_new_names": (r"--utilization and --occupancy both set the occupancy",
                          ["cost", "--gpus", "8", "--months", "12", "--utilization", "0.5",
                           "--occupancy", "0.5", "--compare", "onprem"]),
    "months_and_years": (r"--months and --years both give the horizon",
                         ["cost", "--gpus", "8", "--months", "12", "--years", "1", "--compare",
                          "onprem"]),
    "utilization_no_compare": (r"--utilization is the compared fleet's .* is --duty",
                               ["cost", "--gpu-hours", "10", "--utilization", "0.5"]),
    "residual_above_one": (r"--residual must be between 0 and 1 \(got 1\.5\)",
                           ["cost", "--gpus", "8", "--months", "12", "--compare", "onprem",
                            "--residual", "1.5"]),
    "negative_rate": (r"--finance-rate must be between 0 and 1 \(got -0\.1\)",
                      ["cost", "--gpus", "8", "--months", "12", "--compare", "onprem",
                       "--finance-rate", "-0.1"]),
    "nan_rate": (r"--finance-rate must be between 0 and 1",
                 ["cost", "--gpus", "8", "--months", "12", "--compare", "onprem",
                  "--finance-rate", "nan"]),
    "term_zero": (r"--finance-months must be a positive integer",
                  ["cost", "--gpus", "8", "--months", "12", "--compare", "onprem",
                   "--finance-months", "0"]),
    "duty_nan": (r"--duty must be in \(0, 1\]", ["cost", "--gpu-hours", "10", "--duty", "nan"]),
    "fractional_years": (r"--years must be whole months",
                         ["cost", "--gpus", "8", "--years", "1.01", "--compare", "onprem"]),
    "run_past_horizon": (r"--gpu-hours \(100000 GPU-hours\) is more than 8 GPUs give over --months",
                         ["cost", "--gpus", "8", "--gpu-hours", "100000", "--months", "12",
                          "--compare", "onprem"]),
    "run_past_horizon_no_gpus": (r"more than 8 GPUs give over --months .* or give --gpus",
                                 ["cost", "--gpu-hours", "100000", "--months", "12",
                                  "--compare", "onprem"]),
    "finance_no_compare": (r"--finance-rate is for the comparison over a horizon",
                           ["cost", "--gpu-hours", "10", "--finance-rate", "0.05"]),
}
for _name, (_pattern, _args) in HORIZON_BAD.items():
    bad_case("cost_horizon_" + _name, _pattern, _args)


@case("cost.facility")
def _():
    # Racks, heat and facility power of the run's nodes (models/power.hpp): 64 H100 are 8 DGX H100
    # at their published 10.2 kW; the default site (30 kW racks, air with containment) takes two
    # per rack. 1 W = 3.412142 BTU/h; facility = IT x PUE.
    j = ok_json("cost", "--gpu", "h100", "--gpus", "64", "--hours", "10")
    f = j["facility"]
    check(f["node"] == "DGX-H100" and f["nodes"] == 8, "8 DGX H100")
    near(f["node_power_kw"], 10.2, 1e-9, "published maximum")
    check(f["node_power_basis"] == "published_maximum", "basis")
    check(f["nodes_per_rack"] == 2 and f["racks"] == 4, "2 per 30 kW rack, 4 racks")
    near(f["rack_power_kw"], 20.4, 1e-9, "a full rack")
    check(f["rack_cooling"] == "air_containment", "20.4 kW is past plain air's 15 kW")
    near(f["it_power_kw"], 81.6, 1e-9, "IT load")
    near(f["heat_btu_per_h"], 81600 * 3.412141633, 1, "BTU/h")
    near(f["facility_power_kw"], 81.6 * j["pue"], 1e-9, "x PUE")
    text = ok("cost", "--gpu", "h100", "--gpus", "64", "--hours", "10").out
    check("racks   8 x DGX-H100 at 10.2 kW each (published maximum): 2 per rack" in text,
          "the racks line")
    check("278k BTU/h" in text, "the heat line")
    # plain air holds one 10.2 kW node a rack whatever the budget: the cooling binds
    a = ok_json("cost", "--gpu", "h100", "--gpus", "64", "--hours", "10", "--cooling", "air",
                "--rack-budget-kw", "50")["facility"]
    check(a["nodes_per_rack"] == 1 and a["racks"] == 8 and a["cooling_bound"], "air binds")
    # a B200 run is racked as the catalog's DGX B200 (14.3 kW)
    b = ok_json("cost", "--gpu", "b200", "--gpus", "72", "--hours", "10")["facility"]
    check(b["node"] == "DGX-B200" and b["nodes"] == 9, "9 DGX B200")
    near(b["node_power_kw"], 14.3, 1e-9, "DGX B200 published maximum")
    # a node above the rack budget: said, the rest of the report stands
    e = ok_json("cost", "--gpu", "h100", "--gpus", "64", "--hours", "10", "--rack-budget-kw", "5")
    check("--rack-budget-kw" in e["facility"]["error"] and e["cost_usd"] > 0, "not placed")
    check(ok_json("cost", "--gpu", "h100", "--gpu-hours", "10")["facility"] is None,
          "no GPU count, no racks")
    bad(r"--cooling 'water': expected air, air_containment or liquid", "cost", "--gpus", "8",
        "--hours", "1", "--cooling", "water")
    bad(r"--rack-budget-kw must be above 0 and at most 10000", "cost", "--gpus", "8", "--hours",
        "1", "--rack-budget-kw", "0")
    bad(r"--rack-budget-kw places the run's nodes in racks: give --gpus", "cost", "--gpu-hours",
        "1", "--rack-budget-kw", "40")
    # a GPU no catalog server carries is racked in the default chassis, and said so
    l4 = ok("cost", "--gpu", "l4", "--gpus", "3", "--hours", "10").out
    check("1 x DGX-H100 chassis with L4-24GB" in l4, "the chassis named with its GPU")
    # --nodes spreads a modelled run: the racks hold its nodes, not the fewest its GPUs need
    spread = ok_json("cost", "--model", "llama-3.1-8b", "--node", "dgx-h100", "--dp", "8",
                     "--nodes", "4", "--global-batch", "64", "--tokens", "1B")
    check(spread["facility"]["nodes"] == 4 and spread["training"]["nodes"] == 4, "4 nodes racked")


@case("cost.prices_file")
def _():
    # tests/data/prices/book.json: a negotiated AWS p5 entry (3-year $2.80, below the book's public
    # Reserved Instance rate of $2.97216) replaces the default one; its site has PUE 1.2 and liquid
    # cooling.
    j = ok_json("cost", "--gpu", "h100", "--gpu-hours", "100", "--prices",
                data("prices/book.json"), "--term", "commit_3yr")
    near(j["cost_usd"], 280, 1e-9, "the user's price")
    check(j["price"]["book"].endswith("book.json") and j["price"]["date"] == "2026-10-15", "origin")
    near(j["pue"], 1.2, 1e-12, "the book's site")
    # MI300X is priced only by the user's book.
    near(ok_json("cost", "--gpu", "mi300x", "--gpu-hours", "10", "--prices",
                 data("prices/book.json"))["cost_usd"], 21, 1e-9, "an added entry")
    check(warnings_of("cost", "--gpu", "h100", "--gpu-hours", "10", "--prices",
                      data("prices/book.json")) == [], "every entry names a catalog GPU")
    # a serving rate above what the deployment serves is said
    serve = ["cost", "--model", "llama-3.1-8b", "--gpu", "h100", "--input-len", "1000",
             "--output-len", "200"]
    check(warnings_of(*serve, "--rate", "1") == [], "a rate it serves")
    w = warnings_of(*serve, "--rate", "10000")
    check(len(w) == 1 and w[0].startswith("--rate 10000 requests/s is more than the deployment "
                                          "serves"), f"saturated: {w}")
    # an entry whose GPU is no catalog name or alias (a typo) is said, not silently unused
    w = warnings_of("cost", "--gpu", "h100", "--gpu-hours", "10", "--prices",
                    data("prices/unknown_gpu.json"))
    check(len(w) == 1 and "prices GPU 'H100-SMX5', which is no catalog GPU's name or alias" in w[0]
          and "unknown_gpu.json" in w[0], f"the unknown GPU named: {w}")


COST_BAD = {
    "no_usage": (r"needs the run's GPU time", ["cost", "--gpu", "h100"]),
    "both_lengths": (r"--gpu-hours and --hours both", ["cost", "--gpu-hours", "1", "--hours", "1"]),
    "hours_no_gpus": (r"--hours needs --gpus", ["cost", "--hours", "10"]),
    "negative_hours": (r"--gpu-hours must be a positive number", ["cost", "--gpu-hours", "-5"]),
    "bad_term": (r"--term 'weekly' is not one of",
                 ["cost", "--gpu-hours", "1", "--term", "weekly"]),
    "bad_compare": (r"'cheap' is not one of cloud, onprem, hybrid",
                    ["cost", "--gpu-hours", "1", "--compare", "cheap"]),
    "hybrid_no_demand": (r"needs --demand", ["cost", "--gpu-hours", "1", "--compare", "hybrid"]),
    "demand_not_count": (r"'x' is not a GPU count \(value 2",
                         ["cost", "--gpu-hours", "1", "--compare", "hybrid", "--demand", "1,x"]),
    "bad_region": (r"unknown grid region 'mars'", ["cost", "--gpu-hours", "1", "--region", "mars"]),
    "bad_pue": (r"--pue must be between 1 and 5", ["cost", "--gpu-hours", "1", "--pue", "0.5"]),
    "bad_intensity": (r"--carbon-intensity must be in kg CO2e per kWh",
                      ["cost", "--gpu-hours", "1", "--carbon-intensity", "385"]),
    "no_price_compare": (r"no on_demand price for GPU MI300X-192GB",
                         ["cost", "--gpu", "mi300x", "--gpu-hours", "1", "--compare", "onprem"]),
    "bad_book": (r"bad_type\.json: cloud\[0\] \(aws p5\): field 'on_demand_usd_per_gpu_hour' "
                 r"must be a number", ["cost", "--gpu-hours", "1", "--prices",
                                       "@prices/bad_type.json"]),
    "book_overflow": (r"onprem_costs: owning the fleet over the amortisation years costs more",
                      ["cost", "--gpu-hours", "1", "--compare", "onprem", "--prices",
                       "@prices/huge_staff.json"]),
    "chart_no_compare": (r"--chart draws a comparison",
                         ["cost", "--gpu-hours", "1", "--chart", "x.svg"]),
    "huge_gpu_hours": (r"--gpu-hours must be at most 1e\+12 \(got 1e\+300\)",
                       ["cost", "--gpu", "h100", "--gpu-hours", "1e300"]),
    "huge_hours": (r"--gpus x --hours must be at most 1e\+12 GPU-hours",
                   ["cost", "--gpu", "h100", "--gpus", "1000000", "--hours", "1e7"]),
    "rampup_without_model": (r"--rampup-batch-size describes a modelled training run",
                             ["cost", "--gpu-hours", "1", "--rampup-batch-size", "64 64 100"]),
    "seq_without_model": (r"--seq describes a modelled training run",
                          ["cost", "--gpu-hours", "1", "--seq", "4096"]),
}
for _name, (_pattern, _args) in COST_BAD.items():
    bad_case("cost_" + _name, _pattern, _args)


@case("cost.help")
def _():
    check(re.search(r"^\s+cost\b", ok("--help").out, re.M), "--help lists cost")
    h = ok("cost", "--help").out
    for opt in ["--gpu-hours", "--gpu", "--power-per-gpu", "--pue", "--carbon-intensity",
                "--price-per-gpu-hour", "--prices", "--compare", "--json", "--region", "--term",
                "--provider", "--embodied", "--demand", "--chart", "--plan"]:
        check(re.search(rf"{re.escape(opt)}\b", h), f"cost --help lists {opt}")
    for opt in ["--model", "--tokens", "--node", "--tp", "--dp", "--global-batch", "--framework"]:
        check(re.search(rf"{re.escape(opt)}\b", h), f"cost --help lists train's {opt}")
    for opt in ["--workload", "--dtype", "--input-len", "--output-len", "--concurrency", "--rate",
                "--engine", "--kv-dtype"]:
        check(re.search(rf"{re.escape(opt)}\b", h), f"cost --help lists serve's {opt}")


COST_TRAIN = ["--model", "llama-3.1-8b", "--node", "dgx-h100", "--dp", "8", "--zero", "1",
              "--seq", "8192", "--global-batch", "64", "--micro-batch", "1"]


@case("cost.modelled_training")
def _():
    """A modelled run: GPU-hours from the step-time model (the same as `gpuplan train`'s), then
    cost = GPU-hours x the price the JSON names, energy = GPU-hours x power x PUE."""
    j = ok_json("cost", *COST_TRAIN, "--tokens", "1e10")
    t = ok_json("train", *COST_TRAIN, "--tokens", "1e10")
    m = j["training"]
    check(m is not None and m["gpus"] == 8 and m["nodes"] == 1, f"one DGX H100 of 8: {m}")
    near(m["gpu_hours"], t["gpu_hours"], 1e-12, "steady-state GPU-hours are train's")
    near(m["wall_time_s"], t["time_to_train_s"], 1e-12, "wall time is train's")
    near(m["tokens_per_s"], t["tokens_per_s"], 1e-12, "tokens/s is train's")
    near(m["gpu_hours"], 8 * m["wall_time_hours"], 1e-12, "GPU-hours = GPUs x wall hours")
    # Priced: the reserved time, steady state / ETTR (the reliability model, on by default), the
    # same as train's expected figures.
    rel = m["reliability"]
    check(rel["enabled"] and 0 < rel["ettr"] < 1, f"an ETTR below 1: {rel}")
    near(j["gpu_hours"], t["expected_gpu_hours"], 1e-12, "priced GPU-hours are train's expected")
    near(j["gpu_hours"], 8 * m["expected_wall_time_hours"], 1e-12, "GPUs x reserved hours")
    near(m["expected_wall_time_s"], m["wall_time_s"] / rel["ettr"], 1e-12, "steady / ETTR")
    near(rel["expected_wall_s"], m["wall_time_s"] + 3600 * (rel["lost_to_failures_hours"] +
         rel["lost_to_checkpoints_hours"]), 1e-9, "steady + lost = reserved")
    # one 8-GPU node at the default 419 / (54 x 2048) failures per node-day
    near(rel["mttf_hours"], 24 * 54 * 2048 / 419, 1e-12, "MTTF of one node")
    # --no-failures: the steady state is priced; flags set what the model assumes
    off = ok_json("cost", *COST_TRAIN, "--tokens", "1e10", "--no-failures")
    near(off["gpu_hours"], t["gpu_hours"], 1e-12, "--no-failures prices the steady state")
    check(off["training"]["reliability"]["enabled"] is False, "reliability off")
    f = ok_json("cost", *COST_TRAIN, "--tokens", "1e10", "--failures-per-node-day", "0.1",
                "--restart-minutes", "30", "--checkpoint-interval-hours", "2",
                "--checkpoint-write-seconds", "60")
    fr = f["training"]["reliability"]
    near(fr["mttf_hours"], 240, 1e-12, "--failures-per-node-day 0.1: MTTF 10 days")
    near(fr["checkpoint_interval_hours"], 2, 1e-12, "--checkpoint-interval-hours")
    near(fr["checkpoint_write_s"], 60, 1e-12, "--checkpoint-write-seconds")
    near(fr["restart_minutes"], 30, 1e-12, "--restart-minutes")
    near(fr["ettr"], (1 - (0.5 + 1) / 240) / (1 + 60 / 7200), 1e-12, "first-order ETTR")
    r0 = ok("cost", *COST_TRAIN, "--tokens", "1e10")
    check("ETTR" in r0.out and "reserve" in r0.out, "the text reports the ETTR")
    check(j["gpu"] == "H100-SXM5-80GB" or "H100" in j["gpu"], f"the node's GPU: {j['gpu']}")
    price = j["price"]["usd_per_gpu_hour"]
    check(price is not None and price > 0, "priced from the book")
    near(j["cost_usd"], j["gpu_hours"] * price, 1e-9, "cost = GPU-hours x price")
    near(j["energy_kwh"], j["gpu_hours"] * j["power_per_gpu_watts"] / 1000 * j["pue"], 1e-9,
         "energy = GPU-hours x power x PUE")
    near(j["carbon_kg"], j["energy_kwh"] * j["carbon_intensity_kg_per_kwh"], 1e-9, "carbon")
    # A given price and all-in power: the same identities with the user's figures.
    g = ok_json("cost", *COST_TRAIN, "--tokens", "1e10", "--price-per-gpu-hour", "2.5",
                "--power-per-gpu", "1000", "--pue", "1.2")
    near(g["cost_usd"], g["gpu_hours"] * 2.5, 1e-9, "given price")
    near(g["energy_kwh"], g["gpu_hours"] * 1.0 * 1.2, 1e-9, "given power and PUE")
    # A comparison keeps its contract keys.
    c = ok_json("cost", *COST_TRAIN, "--tokens", "1e10", "--compare", "cloud")
    for key in ("break_even_utilization", "break_even_months", "energy_kwh", "carbon_kg",
                "cost_usd"):
        check(key in c, f"key {key}")
    r = ok("cost", *COST_TRAIN, "--tokens", "1e10")
    check("step-time model" in r.out and "Llama-3.1-8B" in r.out, "the text names the model run")
    # Given usage stays as it was: no training object.
    u = ok_json("cost", "--gpu-hours", "1000", "--gpu", "h100")
    check(u["training"] is None, "given usage has training null")


COST_SERVE = ["--model", "llama-3.1-8b", "--gpu", "h100", "--concurrency", "64", "--input-len",
              "512", "--output-len", "700"]


@case("cost.serving")
def _():
    """A serving deployment (`gpuplan serve`'s flags): its operating point is serve's, the fleet is
    held every hour of a 730-hour month, and every per-token figure is the month's over the month's
    output tokens: cost per token = price / tokens/s per GPU, energy per token = power x PUE /
    tokens/s per GPU (exact identities, tolerance rounding only)."""
    j = ok_json("cost", *COST_SERVE)
    s = ok_json("serve", *COST_SERVE)
    v = j["serving"]
    check(j["workload"] == "serve" and j["training"] is None, "serving workload")
    check(v["gpus"] == 1 and v["replicas"] == 1 and j["gpus"] == 1, f"one GPU: {v}")
    per_gpu = s["output_tokens_per_s_per_gpu"]
    near(v["output_tokens_per_s_per_gpu"], per_gpu, 1e-9, "serve's operating point")
    near(v["ttft_s"], s["ttft_s"], 1e-12, "serve's TTFT")
    near(j["gpu_hours"], HOURS_PER_MONTH, 1e-9, "one GPU for a month")
    price = j["price"]["usd_per_gpu_hour"]
    check(j["price"]["provider"] == "runpod", "the cheapest on-demand H100 of the book")
    near(j["cost_usd"], HOURS_PER_MONTH * price, 1e-9, "cost = a month of the fleet")
    near(j["cost_usd_per_month"], j["cost_usd"], 1e-12, "cost per month")
    near(j["cost_per_million_tokens_usd"], price / 3600 / per_gpu * 1e6, 1e-9,
         "cost per million output tokens = price / tokens/s per GPU")
    watts, pue = j["power_per_gpu_watts"], j["pue"]
    near(watts, 698 + 4600 / 8, 1e-9, "H100 at full duty + a DGX-class host share")
    near(j["energy_kwh"], HOURS_PER_MONTH * watts / 1000 * pue, 1e-9, "month energy")
    near(j["energy_kwh_per_million_tokens"], watts * pue / per_gpu * 1e6 / 3.6e6, 1e-9,
         "energy per million tokens = power x PUE / tokens/s per GPU")
    near(j["tokens_per_joule"], per_gpu / (watts * pue), 1e-12, "tokens per joule")
    near(j["carbon_kg_per_million_tokens"],
         j["energy_kwh_per_million_tokens"] * j["carbon_intensity_kg_per_kwh"], 1e-12, "carbon")
    near(j["cost_per_request_usd"], price / 3600 / s["requests_per_s"], 1e-9, "cost per request")
    t = ok("cost", *COST_SERVE).out
    check("per million output tokens" in t and "serving model" in t and "a month" in t, t)
    # Replicas x tensor parallel: 70B at tp 4 on 8 GPUs is 2 replicas; an arrival rate sets the
    # operating point; --dtype is the serving math's here (W8A8 fp8).
    r = ok_json("cost", "--model", "llama-3.1-70b", "--tp", "4", "--gpus", "8", "--rate", "5",
                "--dtype", "fp8", "--price-per-gpu-hour", "2")
    v = r["serving"]
    check(v["gpus"] == 8 and v["replicas"] == 2 and v["tp"] == 4, f"two replicas of 4: {v}")
    near(v["requests_per_s"], 5, 1e-6, "the rate served")
    check(v["dtype"] == "fp8", "--dtype is the serving precision")
    near(r["cost_usd"], 8 * HOURS_PER_MONTH * 2, 1e-9, "8 GPUs x 730 h x $2")
    near(r["cost_per_million_tokens_usd"], 2 / 3600 / v["output_tokens_per_s_per_gpu"] * 1e6,
         1e-6, "per token at the rate's operating point")
    # --workload serve with only the shared flags; --workload train keeps --dtype for training.
    w = ok_json("cost", "--model", "llama-3.1-8b", "--workload", "serve", "--dtype", "bf16")
    check(w["workload"] == "serve" and w["serving"]["concurrency"] == 1, "explicit serve")
    k = ok_json("cost", *COST_TRAIN, "--tokens", "1e9", "--dtype", "bf16")
    check(k["workload"] == "train" and k["serving"] is None, "training keeps its --dtype")
    # A comparison prices the deployment's fleet against owning it.
    c = ok_json("cost", *COST_SERVE, "--compare", "cloud")
    for key in ("break_even_utilization", "break_even_months", "cost_per_million_tokens_usd"):
        check(key in c, f"key {key}")


@case("cost.serving_bad")
def _():
    bad(r"^gpuplan: error: --input-len prices a serving deployment and --tokens a training run",
        "cost", "--model", "llama-3.1-8b", "--input-len", "512", "--tokens", "1e9")
    bad(r"--concurrency prices a serving deployment and --global-batch a training run", "cost",
        "--model", "llama-3.1-8b", "--concurrency", "8", "--global-batch", "64")
    bad(r"--seq is a training flag; --workload serve prices a serving deployment", "cost",
        "--model", "llama-3.1-8b", "--workload", "serve", "--seq", "4096")
    bad(r"--rate is a serving flag; --workload train prices a training run", "cost", "--model",
        "llama-3.1-8b", "--workload", "train", "--rate", "3")
    bad(r"--workload 'infer' is not one of serve\|train", "cost", "--model", "llama-3.1-8b",
        "--workload", "infer")
    bad(r"--workload describes the workload of --model", "cost", "--gpu-hours", "1",
        "--workload", "serve")
    bad(r"--input-len describes a serving deployment: add --model", "cost", "--gpu-hours", "1",
        "--input-len", "5")
    bad(r"--gpu-hours gives a run's length; a serving deployment is priced for a month", "cost",
        *COST_SERVE, "--gpu-hours", "5")
    bad(r"--concurrency and --rate exclude each other", "cost", *COST_SERVE, "--rate", "2")
    bad(r"--dtype 'fp32' is not one of bf16\|fp16\|fp8\|int8", "cost", *COST_SERVE, "--dtype",
        "fp32")


@case("cost.serving_slo")
def _():
    # --ttft-slo/--tpot-slo make the workload a serving one and pick its operating point as
    # `gpuplan serve` does (they were read and then ignored: the month was priced at concurrency 1)
    base = ["cost", "--model", "llama-3.1-8b", "--gpu", "h100"]
    slo = ["--ttft-slo", "2", "--tpot-slo", "0.05"]
    best = ok_json("serve", "--model", "llama-3.1-8b", "--gpu", "h100", *slo)["best"]
    j = ok_json(*base, *slo)
    check(j["serving"]["concurrency"] == best["concurrency"] and best["concurrency"] > 1,
          f"cost under the SLO prices concurrency {j['serving']['concurrency']}, "
          f"serve's best is {best['concurrency']}")
    bad(r"no concurrency meets --ttft-slo and --tpot-slo", *base, "--ttft-slo", "1e-9")
    bad(r"--ttft-slo and --tpot-slo pick the concurrency themselves", *base, *slo,
        "--concurrency", "4")


@case("capacity.mix_share")
def _():
    # a share near double's range overflowed the mean length to an int context of -2^31
    bad(r"^gpuplan: error: --mix '512:128:1e308': SHARE is relative: at most 1e15", "capacity",
        "--rate", "40", "--wait-slo", "1", "--months", "0", "--model", "Llama-3.1-8B", "--gpu",
        "h100", "--ttft-slo", "2", "--mix", "512:128:1e308")


@case("capacity.price_bound")
def _():
    # a replica price of 1e308 $/h printed "$inf/h" with exit 0
    bad(r"--price must be at most 1e9 USD per hour", "capacity", "--replica-rate", "1",
        "--service-time", "1", "--rate", "1", "--wait-slo", "1", "--price", "1e308")


@case("utilization.chart_folder")
def _():
    # a chart into a folder that does not exist was gnuplot's failure: exit 3, "internal error"
    bad(r"chart file '/nonexistent-gpuplan/t.svg': the folder '/nonexistent-gpuplan' does not "
        r"exist", "utilization", data("monitoring/serving.csv"), "--throughput-chart",
        "/nonexistent-gpuplan/t.svg")


@case("train.weak_batch_overflow")
def _():
    # weak scaling of a 4096-sequence batch past dp 524288: the batch overflowed an int and the
    # table printed -2147483648 sequences as "global batch too small"
    bad(r"weak-scaled global batch .* at most 2\^31 - 1 sequences", "train", "--model",
        "llama-3.1-8b", "--gpus", "1", "--global-batch", "4096", "--scaling", "1..100000000",
        "--scaling-mode", "weak")


@case("options.flag_values")
def _():
    # a boolean flag given a word CLI11 does not know escaped as std::stoll's bare "stoll"
    bad(r"^gpuplan: error: --moe-all-to-all: 'maybe' is not true or false$", "serve", "--model",
        "mixtral-8x7b", "--gpu", "h100", "--tp", "8", "--moe-all-to-all=maybe")
    bad(r"--flash-attention: 'nope' is not true or false", "train", "--model", "llama-3.1-8b",
        "--gpus", "8", "--flash-attention=nope")
    ok("train", "--model", "llama-3.1-8b", "--gpus", "8", "--flash-attention=off")


@case("train.tokens_overflow")
def _():
    # 1e30 tokens is 1e30 / 16,384 tokens a step: the whole steps overflowed a long long and the
    # time came back negative, meeting any --deadline with one GPU
    base = ["train", "--model", "llama-3.1-8b", "--gpus", "8"]
    bad(r"tokens: more than 2\^53 steps of the global batch", *base, "--tokens", "1e30")
    bad(r"tokens: more than 2\^53 steps", *base, "--tokens", "1e30", "--deadline", "30")


@case("cost.book_entries")
def _():
    """The price book's hyperscaler and CoreWeave entries, per GPU-hour as their sources give them
    per instance-hour (docs/models/cost.md): exact arithmetic, tolerance rounding only."""
    def price(*args):
        j = ok_json("cost", "--gpu-hours", "8", *args)
        return j["cost_usd"] / 8, j["price"]
    # the cheapest H100 commitments are AWS's p5.48xlarge Reserved Instances, no upfront
    # (instances.vantage.sh data, 2025-11-30): 3-year standard $23.77728/h, 1-year convertible
    # $43.344/h; Google Cloud's committed use when the provider is gcp
    p, e = price("--gpu", "h100", "--term", "commit_3yr")
    near(p, 23.77728 / 8, 1e-9, "AWS p5.48xlarge 3-year standard RI, no upfront")
    check(e["provider"] == "aws" and e["date"] == "2025-11-30", f"dated AWS RI entry: {e}")
    near(price("--gpu", "h100", "--term", "commit_1yr")[0], 43.344 / 8, 1e-9, "AWS 1-year RI")
    p, e = price("--gpu", "h100", "--term", "commit_3yr", "--provider", "gcp")
    near(p, 28370.99821392 / 730 / 8, 1e-9, "GCP a3-highgpu-8g 3-year committed use")
    check(e["provider"] == "gcp" and e["date"] == "2025-03-06", f"dated GCP entry: {e}")
    near(price("--gpu", "h100", "--term", "commit_1yr", "--provider", "gcp")[0],
         44810.08066464 / 730 / 8, 1e-9, "GCP 1-year")
    near(price("--gpu", "h100", "--provider", "aws", "--term", "spot")[0], 28.106467 / 8, 1e-9,
         "AWS p5.48xlarge spot, us-east-1 average")
    # B200: CoreWeave's HGX B200 at $68.80/h (February 2026) is the cheapest on demand; AWS's
    # p6-b200.48xlarge $113.9328/h on demand, $37.872/h spot (2025-11-30)
    p, e = price("--gpu", "b200")
    near(p, 68.80 / 8, 1e-9, "CoreWeave B200")
    check(e["provider"] == "coreweave", f"{e}")
    near(price("--gpu", "b200", "--provider", "aws")[0], 113.9328 / 8, 1e-9, "AWS p6-b200")
    near(price("--gpu", "b200", "--term", "spot")[0], 37.872 / 8, 1e-9, "AWS p6-b200 spot")
    near(price("--gpu", "h100", "--provider", "gcp")[0], 88.49 / 8, 1e-6, "GCP on demand")
    near(price("--gpu", "h100", "--provider", "gcp", "--term", "spot")[0], 35.3957496986301 / 8,
         1e-9, "GCP spot")
    p, e = price("--gpu", "h100", "--provider", "azure")
    near(p, 12.29, 1e-9, "Azure ND96isr H100 v5")
    check(e["instance"] == "Standard_ND96isr_H100_v5" and e["date"] == "2026-11-09", f"{e}")
    near(price("--gpu", "h100", "--provider", "coreweave")[0], 49.24 / 8, 1e-9, "CoreWeave H100")
    near(price("--gpu", "h200", "--provider", "coreweave")[0], 50.44 / 8, 1e-9, "CoreWeave H200")
    p, e = price("--gpu", "a100-80gb")
    near(p, 21.60 / 8, 1e-9, "CoreWeave A100 80GB, the book's only one")
    check(e["provider"] == "coreweave" and e["source"], f"{e}")
    # AWS p5.48xlarge on demand as read 2026-11-09 ($55.04 an hour); the capacity block is cheaper.
    near(price("--gpu", "h100", "--provider", "aws")[0], 4.916, 1e-3, "AWS: the capacity block")
    # Azure publishes no commitment in the book: one clear error.
    bad(r"no commit_1yr price for GPU H100-SXM5-80GB from provider azure", "cost", "--gpu",
        "h100", "--gpu-hours", "1", "--provider", "azure", "--term", "commit_1yr", "--compare",
        "cloud")


@case("cost.modelled_training_bad")
def _():
    bad(r"--model needs --tokens", "cost", *COST_TRAIN)
    bad(r"--model and --gpu-hours both give the run's length", "cost", *COST_TRAIN, "--tokens",
        "1e10", "--gpu-hours", "5")
    bad(r"--tokens describes a modelled training run: add --model", "cost", "--gpu", "h100",
        "--tokens", "1e10")
    bad(r"--tokens", "cost", *COST_TRAIN, "--tokens", "lots")
    for flag, value in (("--failures-per-node-day", "-1"), ("--restart-minutes", "nan"),
                        ("--checkpoint-interval-hours", "0"), ("--checkpoint-write-seconds", "-5")):
        bad(re.escape(flag) + r" must be a", "cost", *COST_TRAIN, "--tokens", "1e10", flag, value)
    bad(r"--no-failures turns the reliability model off; --restart-minutes", "cost", *COST_TRAIN,
        "--tokens", "1e10", "--no-failures", "--restart-minutes", "5")
    bad(r"--restart-minutes describes a modelled training run", "cost", "--gpu", "h100",
        "--gpu-hours", "10", "--restart-minutes", "5")
    # failures faster than a restart: the first-order model has no productive time, said so
    bad(r"the run makes no progress; check --failures-per-node-day", "cost", *COST_TRAIN, "--tokens", "1e10",
        "--failures-per-node-day", "500")


@case("cost.overflow")
def _():
    # Finite flags whose product overflows: one error line, not "$infM" or an unnamed field.
    base = ("cost", "--gpu-hours", "1000", "--gpu", "h100")
    # the price is bounded (at most $10,000 a GPU-hour) before the product can overflow
    bad(r"--price-per-gpu-hour must be at most 10000 USD", *base, "--price-per-gpu-hour", "1e308")
    bad(r"--power-per-gpu 1e\+308 x GPU-hours overflows", *base, "--power-per-gpu", "1e308")




@case("capacity.options_and_hybrid")
def _():
    hourly = ",".join(["10"] * 8 + ["40"] * 10 + ["20"] * 6)
    j = ok_json("capacity", "--hourly", hourly, "--wait-slo", "1", "--replica-rate", "2",
                "--service-time", "4", "--price", "3", "--months", "0",
                "--compare", "H200:3:4:1:4.5;MIG:0.8:5:2:1.6")
    near(j["demand"]["mean_req_per_s"], (8 * 10 + 10 * 40 + 6 * 20) / 24, 1e-12, "hourly mean")
    check(len(j["hours"]) == 24, "24 hours")
    peak_hour = max(j["hours"], key=lambda h: h["rate_req_per_s"])
    check(peak_hour["replicas"] == j["replicas"], "the peak hour needs the plan's replicas")
    # Options: every one priced, so ranked by cost; each meets the target.
    costs = [o["cost_per_hour_usd"] for o in j["options"]]
    check(costs == sorted(costs), f"ranked by cost: {costs}")
    for o in j["options"]:
        check(o["wait_at_percentile_s"] <= 1.0 + 1e-12, f"{o['name']} meets the target")
        if o["name"] == "MIG":
            check(o["gpus"] == (o["replicas"] + 1) // 2, "two MIG replicas per GPU")
    bad(r"--compare 'x:1': 3 to 5", "capacity", "--rate", "30", "--wait-slo", "1",
        "--replica-rate", "2", "--service-time", "4", "--compare", "x:1")
    # Owned base + cloud burst, priced by the cost model: 8-GPU replicas on H100, owned DGX H100
    # servers at the book's on-prem costs, cloud at the book's cheapest on-demand H100.
    h = ok_json("capacity", "--hourly", hourly, "--wait-slo", "1", "--replica-rate", "2",
                "--service-time", "4", "--gpus-per-replica", "8", "--gpu", "h100", "--months",
                "0", "--hybrid")["hybrid"]
    need = [r["replicas"] * 8 for r in j["hours"]]
    cloud = h["cloud_usd_per_gpu_hour"]
    near(h["all_cloud_daily_cost_usd"], sum(need) * cloud, 1e-9, "all cloud = GPU-hours x price")
    check(h["daily_cost_usd"] <= h["all_cloud_daily_cost_usd"] + 1e-9, "no dearer than cloud")
    check(h["daily_cost_usd"] <= h["all_owned_daily_cost_usd"] + 1e-9, "no dearer than owning")
    check(h["owned_gpus"] % 8 == 0 and h["owned_replicas"] == h["owned_gpus"] // 8,
          "whole servers")
    # The same split as `gpuplan cost --compare hybrid` on the same hourly GPU demand.
    c = ok_json("cost", "--gpu", "h100", "--gpu-hours", "1", "--compare", "hybrid", "--demand",
                ",".join(str(n) for n in need))["hybrid"]
    check(c["base_gpus"] == h["owned_gpus"], f"base {c['base_gpus']} vs {h['owned_gpus']}")
    near(h["daily_cost_usd"], c["hybrid_usd"], 1e-9, "the cost model's hybrid cost")
    near(h["all_owned_daily_cost_usd"], c["all_onprem_usd"], 1e-9, "the cost model's all-owned")
    r = ok_json("capacity", "--hourly", hourly, "--wait-slo", "1", "--replica-rate", "2",
                "--service-time", "4", "--gpus-per-replica", "8", "--gpu", "h100", "--months",
                "0", "--hybrid", "--price", str(8 * cloud))
    names = [o["name"] for o in r["options"]]
    check("owned base + cloud burst" in names and "this replica" in names, f"ranked: {names}")
    hy = next(o for o in r["options"] if o["name"] == "owned base + cloud burst")
    near(hy["cost_per_hour_usd"], r["hybrid"]["daily_cost_usd"] / 24, 1e-9, "the day over 24 h")
    costs = [o["cost_per_hour_usd"] for o in r["options"]]
    check(costs == sorted(costs), f"ranked by cost: {costs}")
    bad(r"--hybrid needs a 24-hour profile", "capacity", "--rate", "30", "--wait-slo", "1",
        "--replica-rate", "2", "--service-time", "4", "--hybrid")
    bad(r"--hybrid needs the GPU", "capacity", "--hourly", hourly, "--wait-slo", "1",
        "--replica-rate", "2", "--service-time", "4", "--hybrid")


@case("capacity.service_cv_from_mix")
def _():
    # With a serving plan the service CV is the serving model's spread of the end-to-end
    # latency (serve's best point: e2e_sd_s / e2e_s); --service-cv overrides it.
    plan = ["--model", "Llama-3.1-8B", "--gpu", "h100", "--mix", "512:128:0.7,4096:1024:0.3",
            "--ttft-slo", "2", "--tpot-slo", "0.05"]
    best = ok_json("serve", *plan)["best"]
    j = ok_json("capacity", "--rate", "40", "--wait-slo", "1", "--months", "0", *plan)
    near(j["replica"]["service_cv"], best["e2e_sd_s"] / best["e2e_s"], 1e-12, "CV from serve")
    check(j["replica"]["service_cv"] > 0.5, f"a mix spreads: CV {j['replica']['service_cv']}")
    fixed = ok_json("serve", "--model", "Llama-3.1-8B", "--gpu", "h100", "--input-len", "1587",
                    "--output-len", "397", "--ttft-slo", "2", "--tpot-slo", "0.05")["best"]
    check(fixed["e2e_sd_s"] / fixed["e2e_s"] < j["replica"]["service_cv"],
          "a fixed mix of the same means spreads less")
    o = ok_json("capacity", "--rate", "40", "--wait-slo", "1", "--months", "0", *plan,
                "--service-cv", "0.3")
    near(o["replica"]["service_cv"], 0.3, 1e-12, "--service-cv overrides")
    s = ok_json("serve", *plan)
    check(len(s["mix"]) == 2 and abs(s["mix"][0]["share"] - 0.7) < 1e-12, "serve shows the mix")
    bad(r"--mix '512:128': three", "serve", "--model", "Llama-3.1-8B", "--gpu", "h100", "--mix",
        "512:128")
    bad(r"--mix replaces --input-len", "serve", "--model", "Llama-3.1-8B", "--gpu", "h100",
        "--mix", "512:128:1", "--input-len", "100")


@case("capacity.compare_serving")
def _():
    # The serving plan's own options: the same plan on a bigger GPU, and on MIG slices of its GPU,
    # each replica from the serving model at the same SLO.
    plan = ["--model", "Llama-3.1-8B", "--gpu", "h100", "--input-len", "1024", "--output-len",
            "256", "--ttft-slo", "2", "--tpot-slo", "0.05"]
    demand = ["--rate", "40", "--peak-factor", "1.5", "--wait-slo", "1", "--months", "0"]
    j = ok_json("capacity", *demand, *plan, "--compare-gpus", "h200", "--compare-mig")
    by = {o["name"]: o for o in j["options"]}
    # H200: the capacity plan run directly on --gpu h200 gives the same replicas
    h200 = ok_json("capacity", *demand, *plan[:2], "--gpu", "h200", *plan[4:])
    check(by["H200-SXM-141GB x1"]["replicas"] == h200["replicas"], "H200 as planned directly")
    near(by["H200-SXM-141GB x1"]["cost_per_hour_usd"], h200["cost_per_hour_usd"], 1e-9,
         "H200 priced from the book")
    # 7g.80gb is the whole GPU as one slice: this replica again
    check(by["H100-SXM5-80GB MIG 7g.80gb"]["replicas"] == by["this replica"]["replicas"],
          "the 7g slice is the whole GPU")
    m = by["H100-SXM5-80GB MIG 3g.40gb"]
    check(m["gpus"] == (m["replicas"] + 1) // 2, "two 3g.40gb slices per H100")
    check(any("1g.10gb: the model does not fit" in n for n in j["option_notes"]),
          "the slices too small are named")
    for o in j["options"]:
        check(o["wait_at_percentile_s"] <= 1.0 + 1e-12, f"{o['name']} meets the target")
    bad(r"--compare-mig needs tp 1", "capacity", *demand, "--model", "Llama-3.1-70B", "--node",
        "dgx-h100", "--tp", "8", "--ttft-slo", "1", "--tpot-slo", "0.05", "--compare-mig")
    bad(r"--compare-gpus needs a serving plan", "capacity", *demand, "--replica-rate", "2",
        "--service-time", "4", "--compare-gpus", "h200")


@case("train.rampup")
def _():
    # Megatron's --rampup-batch-size: the ramp's smaller steps come first; the step itself is the
    # global batch's. Whole-number errors name the flag.
    base = ["train", "--model", "Llama-3.1-8B", "--node", "dgx-h100", "--gpus", "64",
            "--seq", "4096", "--global-batch", "512", "--tokens", "100B"]
    plain = ok_json(*base)
    ramp = ok_json(*base, "--rampup-batch-size", "64 64 5_000_000")
    check(ramp["rampup"] == {"start": 64, "increment": 64, "samples": 5000000}, "echoed")
    check(ramp["step_time_s"] == plain["step_time_s"], "the step is the global batch's")
    check(ramp["time_to_train_s"] > plain["time_to_train_s"], "smaller steps fill the GPUs less")
    check(ramp["time_to_train_s"] < 1.2 * plain["time_to_train_s"], "by a little")
    same = ok_json(*base, "--rampup-batch-size", "64,64,5000000")
    check(same["time_to_train_s"] == ramp["time_to_train_s"], "commas as spaces")
    cost = ok_json("cost", *base[1:], "--rampup-batch-size", "64 64 5000000", "--no-failures")
    near(cost["gpu_hours"], 64 * ramp["time_to_train_s"] / 3600, 1e-9, "cost prices the ramp")
    check(cost["training"]["rampup"] == ramp["rampup"], "cost echoes the ramp")
    check(ok_json("cost", *base[1:], "--no-failures")["training"]["rampup"] is None, "none")
    bad(r"--rampup-batch-size takes three whole numbers", *base, "--rampup-batch-size", "64 64")
    bad(r"--rampup-batch-size: INCREMENT \(100\) must divide", *base,
        "--rampup-batch-size", "64 100 100")
    bad(r"multiples of --micro-batch x dp \(64\)", *base, "--rampup-batch-size", "8 8 1000")
    bad(r"--rampup-batch-size goes with one layout", *base, "--rampup-batch-size", "64 64 100",
        "--deadline", "30")
    bad(r"--rampup-batch-size: gpuplan search compares", "search", "--model", "llama-3.1-8b",
        "--gpu", "h100", "--gpus", "8", "--seq", "4096", "--global-batch", "256", "--tokens",
        "1B", "--rampup-batch-size", "64 64 100")


@case("train.reliability_flags")
def _():
    # The reliability model's flags: bounded, named; a run that cannot progress is refused before
    # any report is printed; the search counts such sizes apart from the deadline and budget.
    base = ["train", "--model", "Llama-3.1-8B", "--node", "dgx-h100", "--gpus", "64",
            "--seq", "4096", "--global-batch", "512", "--tokens", "100B"]
    for flag, value, pattern in [
            ("--failures-per-node-day", "1e300", r"--failures-per-node-day must be a non-negative "
                                                 r"number of at most 1000"),
            ("--restart-minutes", "-1", r"--restart-minutes must be a non-negative number"),
            ("--checkpoint-interval-hours", "0", r"--checkpoint-interval-hours must be a positive "
                                                 r"number"),
            ("--checkpoint-write-seconds", "1e300", r"--checkpoint-write-seconds must be a "
                                                    r"positive number of at most")]:
        bad(pattern, *base, flag, value)
    # bad() checks that nothing was printed on stdout: refused before the report
    bad(r"64 GPUs fail every .* min on average.*the run makes no progress", *base,
        "--failures-per-node-day", "900")
    bad(r"--goodput was removed: --deadline now counts failures", *base, "--deadline", "30",
        "--goodput", "0.9")
    text = ok(*base, "--deadline", "30", "--no-failures").out
    check("(steady state: --no-failures)" in text, "the deadline line says what it counted")
    # the search: sizes whose failures outpace progress are counted as such, not as over limits
    j = ok_json("search", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "8..64",
                "--seq", "4096", "--global-batch", "256", "--tokens", "1B", "--threads", "1",
                "--failures-per-node-day", "900")
    check(j["pruned"]["no_progress"] > 0 and j["pruned"]["over_limits"] == 0, f"{j['pruned']}")
    # refused before a --scaling sweep runs (and writes its chart)
    bad(r"--goodput was removed", *base, "--scaling", "8..16", "--goodput", "0.9")
    # search serve reads the engine flags gpuplan serve reads
    bad(r"--decode-attention 'bogus' is not one of grouped\|per-query-head", "search", "serve",
        "--model", "llama-3.1-8b", "--decode-attention", "bogus")
    # a space where every configuration is invalid says so, not "more GPUs"
    t = ok("search", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "3", "--seq", "4096",
           "--global-batch", "256", "--tokens", "1B", "--threads", "1").out
    check("every one is invalid" in t, "all invalid")


@case("train.deadline")
def _():
    # The fewest GPUs to train 1T tokens of Llama-3.1-8B within 30 days (global batch 512,
    # strong scaling: dp divides 512), checked against train's own time at that count and at
    # the next smaller divisor.
    base = ["train", "--model", "Llama-3.1-8B", "--node", "dgx-h100", "--seq", "8192",
            "--global-batch", "512", "--tokens", "1T"]
    d = ok_json(*base, "--deadline", "30")["deadline"]
    check(d["met"], "met")
    at = ok_json(*base, "--gpus", str(d["gpus"]))
    near(d["wall_time_s"], at["expected_time_to_train_s"], 1e-9,
         "wall time = train's expected time (failures, checkpoints) at that count")
    near(d["ettr"], at["reliability"]["ettr"], 1e-12, "the same ETTR")
    check(d["ettr"] < 1, "failures cost time")
    check(d["wall_time_s"] <= 30 * 86400, "within the deadline")
    smaller = max(k for k in range(1, d["dp"]) if 512 % k == 0)
    t = ok_json(*base, "--gpus", str(smaller))["expected_time_to_train_s"]
    check(t > 30 * 86400, f"{smaller} GPUs miss it ({t / 86400:.1f} days)")
    g = ok_json(*base, "--deadline", "30", "--no-failures")["deadline"]
    check(g["gpus"] <= d["gpus"], "no failures needs no more GPUs")
    check(g["ettr"] == 1, "no failures: ETTR 1")
    f = ok_json(*base, "--deadline", "30", "--failures-per-node-day", "5")["deadline"]
    check(f["gpus"] > d["gpus"], "a far higher failure rate needs more GPUs")
    text = ok(*base, "--deadline", "30").out
    check(f"within 30 days: {d['gpus']} GPUs" in text, "the text says the count")
    bad(r"--deadline needs --tokens", "train", "--model", "Llama-3.1-8B", "--deadline", "3")
    bad(r"--deadline must be a positive", *base, "--deadline", "0")
    bad(r"--restart-minutes must be", *base, "--deadline", "3", "--restart-minutes", "-1")

# ---- gpuplan train (issue 10) ------------------------------------------------------------------


@case("train.json_contract")
def _():
    """The keys other tools rely on (docs/json-schema.md), and numbers that follow from them."""
    j = ok_json("train", "--model", "llama-3.1-70b", "--node", "dgx-h100", "--gpus", "64",
                "--tp", "8", "--pp", "4", "--sp", "--zero", "1", "--seq", "8192",
                "--global-batch", "256", "--tokens", "100B")
    for key in ("step_time_s", "tokens_per_s", "mfu", "hfu", "time_to_train_s", "gpu_hours"):
        check(key in j, f"key {key}")
    near(j["tokens_per_s"], 256 * 8192 / j["step_time_s"], 1e-9, "tokens/s = batch x seq / step")
    steps = math.ceil(100e9 / (256 * 8192))
    near(j["time_to_train_s"], steps * j["step_time_s"], 1e-9, "whole steps of the global batch")
    near(j["gpu_hours"], 64 * j["time_to_train_s"] / 3600, 1e-9, "GPU-hours = GPUs x hours")
    check(0.2 < j["mfu"] < 0.7, f"MFU {j['mfu']}")
    check(j["hfu"] >= j["mfu"], "HFU >= MFU")
    check(j["nodes"] == 8 and j["gpus"] == 64, "8 nodes of 8")
    parts = sum(j["breakdown"].values())
    near(parts, j["step_time_s"], 1e-9, "the breakdown adds up to the step")
    check(j["crosses_nodes"]["tp"] is False, "TP 8 stays in the node")


@case("train.korthikanti_175b")
def _():
    # Korthikanti et al. 2022 (arXiv:2205.05198) Table 5: 175B on 64 A100-80GB (Selene), TP 8,
    # PP 8, 3 chunks, SP + selective recompute, global batch 64: 13.75 s per iteration. 8%.
    j = ok_json("train", "--model", "megatron-175b", "--node", "dgx-a100", "--tp", "8", "--pp",
                "8", "--dp", "1", "--virtual-stages", "3", "--sp", "--recompute", "selective",
                "--dtype", "fp16", "--grad-dtype", "fp32", "--flash-attention=false",
                "--dropout", "--global-batch", "64")
    near(j["step_time_s"], 13.75, 0.08 * 13.75, "iteration time")


@case("train.text")
def _():
    r = ok("train", "--model", "llama-3.1-8b", "--node", "dgx-h100", "--gpus", "16",
           "--global-batch", "64", "--seq", "8192", "--tokens", "1T")
    check("bottleneck:" in r.out and "MFU" in r.out, "breakdown, bottleneck and MFU")
    check(re.search(r"1T tokens: [\d.]+ (days|h)", r.out), "time to train")
    check("GPU-hours" in r.out, "GPU-hours")


@case("train.tp_spills")
def _():
    j = ok_json("train", "--model", "llama-3.1-70b", "--node", "dgx-h100", "--tp", "16",
                "--dp", "1", "--pp", "1", "--sp", "--zero", "3", "--global-batch", "8")
    check(j["crosses_nodes"]["tp"] is True, "TP 16 crosses 8-GPU nodes")
    r = ok("train", "--model", "llama-3.1-70b", "--node", "dgx-h100", "--tp", "16", "--dp", "1",
           "--sp", "--zero", "3", "--global-batch", "8")
    check("tensor-parallel group spans nodes" in r.out, "the text says so")


@case("train.scaling")
def _():
    j = ok_json("train", "--model", "megatron-175b", "--node", "dgx-a100", "--tp", "8", "--pp",
                "12", "--dp", "4", "--dtype", "fp16", "--recompute", "full",
                "--flash-attention=false", "--global-batch", "1536", "--scaling", "384..6144")
    pts = j["scaling"]["points"]
    check([p["gpus"] for p in pts] == [384, 768, 1536, 3072, 6144], "GPU counts")
    for a, b in zip(pts, pts[1:]):
        check(b["tokens_per_s"] > a["tokens_per_s"], "throughput grows")
        check(b["efficiency"] < a["efficiency"], "returns diminish")
        check(b["limit"] != "none", "and the reason is named")
    r = ok("train", "--model", "megatron-175b", "--node", "dgx-a100", "--tp", "8", "--pp", "12",
           "--dp", "4", "--dtype", "fp16", "--global-batch", "1536", "--scaling", "384..6144")
    check("tokens/s per GPU" in r.out, "text chart")
    with tempfile.TemporaryDirectory() as d:
        chart = os.path.join(d, "curve.svg")
        args = ("train", "--model", "megatron-175b", "--node", "dgx-a100", "--tp", "8", "--pp",
                "12", "--dp", "4", "--dtype", "fp16", "--global-batch", "1536", "--scaling",
                "384..6144", "--chart", chart)
        # the shared chart facility (chart.hpp), both paths on purpose: the image with gnuplot;
        # without it (PATH emptied), the .dat and .gp beside it and a message saying so
        check(shutil_which("gnuplot"), "gnuplot is on PATH (./scripts/check installs gnuplot-nox)")
        ok(*args)
        check(os.path.exists(chart), "the chart drawn by gnuplot")
        r = ok(*args, env={"PATH": "/nonexistent"})
        check(os.path.exists(os.path.join(d, "curve.dat")) and
              os.path.exists(os.path.join(d, "curve.gp")) and "gnuplot is not on PATH" in r.err,
              "without gnuplot: its files and a message")


@case("train.framework")
def _():
    # One setting for memory and time (issue 17): the step model reads training_config::framework.
    # Eager PyTorch (transformers) runs every elementwise op as its own kernel, so the same
    # Llama 3.1 8B step on one H100 is slower than under Megatron's fused kernels.
    base = ("train", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "1", "--seq", "2048")
    hf = ok_json(*base, "--framework", "transformers")
    mg = ok_json(*base, "--framework", "megatron")
    check(hf["framework"] == "transformers" and mg["framework"] == "megatron", "framework in json")
    check(hf["step_time_s"] > 1.1 * mg["step_time_s"],
          f"transformers step {hf['step_time_s']} not slower than megatron {mg['step_time_s']}")
    # --tp 8 with no --framework: megatron, and the text says why (as fit does)
    r = ok("train", "--model", "llama-3.1-70b", "--node", "dgx-h100", "--gpus", "8", "--tp", "8")
    check("framework megatron (--tp 8 needs Megatron-LM)" in r.out, r.out)
    bad("--framework transformers", "train", "--model", "llama-3.1-70b", "--node", "dgx-h100",
        "--gpus", "8", "--tp", "8", "--framework", "transformers")


@case("train.errors")
def _():
    base = ("train", "--model", "llama-3.1-8b", "--node", "dgx-h100")
    bad(r"--scaling .*FROM\.\.TO", *base, "--gpus", "16", "--scaling", "64")
    bad(r"--fabric 'carrier-pigeon' is not one of", *base, "--fabric", "carrier-pigeon")
    bad(r"--model.*architecture", "train", "--model", "params:7B", "--node", "dgx-h100")
    bad(r"--chart needs --scaling", *base, "--chart", "x.svg")
    bad(r"no catalog node carries", "train", "--model", "llama-3.1-8b", "--gpu", "rtx-4090",
        "--gpus", "2")
    bad(r"--tp 3 must divide", *base, "--tp", "3")


# ---- warnings: results that rest on an estimate say so (models/estimates.hpp) -------------------
# The H100 NVL has no driver-reported usable memory in the catalog (memory_usable unknown): the
# memory models plan on its datasheet capacity. The L40S (Ada) is covered by no published GEMM
# measurement: the step model's 0.80 default. Serving reads each GPU's own GEMM figure as the step
# model does; its attention fraction was measured on an H100 SXM and its HBM fraction is the H100
# SXM's copies where the GPU has none: an A100 (its own bf16 MAMF) borrows those two, one note
# each, naming the assumption that replaces it. The H100 SXM has a driver figure, a MAMF and a copy
# measurement and is the attention fraction's own GPU: none of its results carries a warning.


def warnings_of(*args):
    """--json's warnings, and the same lines as "note:" on stderr of the text output."""
    j = ok_json(*args)
    check("warnings" in j and isinstance(j["warnings"], list), "--json carries a warnings list")
    text = ok(*args)
    notes = [l[len("note: "):] for l in text.err.splitlines() if l.startswith("note: ")]
    check(notes == j["warnings"], f"text notes {notes} == --json warnings {j['warnings']}")
    return j["warnings"]


def one_warning(warnings, *words):
    check(len(warnings) == 1, f"one warning, got {warnings}")
    for w in words:
        check(w in warnings[0], f"the warning names {w!r}: {warnings[0]!r}")


@case("warnings.fit")
def _():
    w = warnings_of("fit", "--model", "Llama-3.1-8B", "--gpu", "h100-nvl", "--infer")
    one_warning(w, "usable memory", "H100-NVL-94GB", "94 GiB", "no driver-reported total")
    check(warnings_of("fit", "--model", "Llama-3.1-8B", "--gpu", "h100") == [],
          "a GPU with a driver figure: no warning")


@case("warnings.train")
def _():
    # the step's two kernel fractions: GEMM and HBM (its memory-bound kernels), one note each
    # when the GPU has no measurement of its own
    w = warnings_of("train", "--model", "Llama-3.1-8B", "--gpu", "l40s", "--dp", "8")
    check(len(w) == 2, f"GEMM and HBM: {w}")
    one_warning(w[:1], "GEMM efficiency", "L40S-48GB", "0.807", "no measurement covers this architecture")
    one_warning(w[1:], "HBM efficiency of L40S-48GB", "0.900", "H100 SXM's streaming copies",
                "--set step.memory_bandwidth_fraction=VALUE")
    # the H200 borrows the H100 SXM's bf16 measurement (same architecture, not this GPU)
    w = warnings_of("train", "--model", "Llama-3.1-8B", "--gpu", "h200", "--dp", "8")
    check(len(w) == 2, f"GEMM and HBM: {w}")
    one_warning(w[:1], "GEMM efficiency", "H200-SXM-141GB", "0.803", "MAMF of the H100 SXM")
    # set, the caller's figure: its note goes
    w = warnings_of("train", "--model", "Llama-3.1-8B", "--gpu", "h200", "--dp", "8", "--set",
                    "step.memory_bandwidth_fraction=0.85")
    one_warning(w, "GEMM efficiency", "H200-SXM-141GB")
    check(warnings_of("train", "--model", "Llama-3.1-8B", "--node", "dgx-h100", "--dp", "8") == [],
          "a measured GPU: no warning")


@case("warnings.serve")
def _():
    w = warnings_of("serve", "--model", "Llama-3.1-8B", "--gpu", "a100")
    check(len(w) == 2, f"attention and HBM, one note each: {w}")
    for line, field, what in zip(w, ("serving.kernels.attention_fraction",
                                     "serving.kernels.hbm_fraction"),
                                 ("kernel efficiency on A100-SXM4-80GB", "HBM efficiency of A100-SXM4-80GB")):
        for word in (what, "H100 SXM", f"--set {field}=VALUE"):
            check(word in line, f"the warning names {word!r}: {line!r}")
    # set, a figure is the caller's and its note goes; the other stays
    w = warnings_of("serve", "--model", "Llama-3.1-8B", "--gpu", "a100", "--set",
                    "serving.kernels.hbm_fraction=0.85")
    one_warning(w, "serving.kernels.attention_fraction")
    w = warnings_of("serve", "--model", "Llama-3.1-8B", "--gpu", "h100-nvl")
    check(len(w) == 4 and "usable memory of H100-NVL-94GB" in w[0] and
          "GEMM efficiency of H100-NVL-94GB" in w[1] and "gemm_fraction_16bit" in w[1] and
          "kernel efficiency on H100-NVL-94GB" in w[2] and "HBM efficiency of H100-NVL-94GB" in w[3],
          f"memory, its borrowed bf16 MAMF, attention and HBM: {w}")
    check(warnings_of("serve", "--model", "Llama-3.1-8B", "--gpu", "h100") == [],
          "the roofline's own GPU: no warning")


@case("warnings.cost")
def _():
    w = warnings_of("cost", "--model", "llama-3.1-8b", "--gpu", "l40s", "--dp", "8", "--tokens",
                    "1e9")
    check(len(w) == 2 and "GEMM efficiency of L40S-48GB" in w[0] and
          "HBM efficiency of L40S-48GB" in w[1], f"GEMM and HBM: {w}")
    check(warnings_of("cost", *COST_TRAIN, "--tokens", "1e10") == [], "a measured GPU")
    check(warnings_of("cost", "--gpu", "l40s", "--gpu-hours", "100") == [],
          "GPU-hours given: no model, no estimate")


@case("warnings.capacity")
def _():
    plan = ["--rate", "20", "--wait-slo", "1", "--months", "0", "--model", "Llama-3.1-8B",
            "--input-len", "1024", "--output-len", "256", "--ttft-slo", "1", "--tpot-slo", "0.05"]
    w = warnings_of("capacity", *plan, "--gpu", "a100")
    check(len(w) == 2 and "kernel efficiency on A100-SXM4-80GB" in w[0] and
          "HBM efficiency of A100-SXM4-80GB" in w[1], f"attention and HBM: {w}")
    check(warnings_of("capacity", *plan, "--gpu", "h100") == [], "the roofline's own GPU")
    check(warnings_of("capacity", "--rate", "30", "--wait-slo", "1", "--replica-rate", "2",
                      "--service-time", "0.5", "--months", "0") == [],
          "a replica given by its rate: no model, no estimate")
# ---- gpuplan search (issue 13) -----------------------------------------------------------------

SEARCH_8B = ("search", "--model", "llama-3.1-8b", "--gpu", "h100,h200", "--gpus", "8..32",
             "--seq", "4096", "--global-batch", "256", "--tokens", "100B", "--threads", "2")
SEARCH_8B_MEGATRON = SEARCH_8B + ("--framework", "megatron")


def dominates(a, b):
    return (a["reserved_time_s"] <= b["reserved_time_s"] and a["cost_usd"] <= b["cost_usd"] and
            (a["reserved_time_s"] < b["reserved_time_s"] or a["cost_usd"] < b["cost_usd"]))


def check_search_json(j):
    """The keys other tools rely on (docs/json-schema.md) and a front that is non-dominated."""
    for key in ("front", "configurations_evaluated", "seconds", "top", "space", "pruned"):
        check(key in j, f"key {key}")
    check(j["complete"] is True, "ran to the end")
    check(j["configurations_evaluated"] == j["space"]["size"], "every configuration walked")
    check(j["space"]["gpus"] == [8, 16, 32], f"8..32 doubles: {j['space']['gpus']}")
    p = j["pruned"]
    check(p["invalid"] + p["over_memory"] + j["timed"] == j["configurations_evaluated"],
          "every configuration is pruned or timed")
    front = j["front"]
    check(len(front) >= 1, "a front")
    for e in front:
        for key in ("layout", "step_time_s", "cost_usd", "time_to_train_s", "gpu", "gpus",
                    "micro_batch", "recompute", "precision", "chunked_loss", "breakdown",
                    "energy_kwh", "bottleneck"):
            check(key in e, f"front entry key {key}")
        for key in ("dp", "tp", "pp", "cp", "ep", "zero", "virtual_stages", "sequence_parallel"):
            check(key in e["layout"], f"layout key {key}")
        lay = e["layout"]
        check(lay["dp"] * lay["tp"] * lay["pp"] * lay["cp"] == e["gpus"], "dp x tp x pp x cp = GPUs")
        near(sum(e["breakdown"].values()), e["step_time_s"], 1e-9, "the breakdown adds up")
        near(e["cost_usd"], e["gpu_hours"] * e["price_per_gpu_hour"], 1e-6 * e["cost_usd"],
             "cost = GPU-hours x price")
        near(e["gpu_hours"], e["gpus"] * e["reserved_time_s"] / 3600, 1e-9 * e["gpu_hours"],
             "GPU-hours over the reserved time")
        near(e["reserved_time_s"], e["time_to_train_s"] / e["ettr"], 1e-9 * e["reserved_time_s"],
             "reserved = steady state / ETTR")
        check(0 < e["ettr"] < 1, "failures and checkpoints cost time")
    for a in front:
        for b in front:
            check(a is b or not dominates(a, b), "the front is non-dominated")
    # every top entry is dominated by or on the front
    for t in j["top"]:
        check(any(f["index"] == t["index"] or dominates(f, t) or
                  (f["reserved_time_s"] <= t["reserved_time_s"] and f["cost_usd"] <= t["cost_usd"])
                  for f in front), "top entries lie on or behind the front")
    check("why" in j["top"][0] and "runner_up_bottleneck" in j["top"][0]["why"], "why it wins")


@case("search.json_contract")
def _():
    """Both frameworks: the JSON contract; the default (transformers) searches data parallelism
    only, so every layout on its front and in its top list has TP = PP = 1."""
    j = ok_json(*SEARCH_8B)
    check_search_json(j)
    check(j["framework"] == "transformers", f"the default framework: {j['framework']}")
    sp = j["space"]
    check(sp["tp"] == [1] and sp["pp"] == [1] and sp["cp"] == [1] and sp["virtual_stages"] == [1]
          and sp["sequence_parallel"] == [False], f"only what transformers runs: {sp}")
    check(sp["recompute"] == ["none", "full"], f"no selective recompute: {sp['recompute']}")
    check(sp["precision"] == ["master", "amp", "pure"] and sp["chunked_loss"] == [False, True],
          f"regimes and loss searched: {sp}")
    check(sp["size"] == 2 * 3 * 3 * 4 * 2 * 3 * 2, f"the space counts only those: {sp['size']}")
    for e in j["front"] + j["top"]:
        lay = e["layout"]
        check(lay["tp"] == 1 and lay["pp"] == 1 and lay["cp"] == 1 and lay["dp"] == e["gpus"],
              f"data parallel only: {lay}")
    m = ok_json(*SEARCH_8B_MEGATRON)
    check_search_json(m)
    check(m["framework"] == "megatron", "explicit megatron")
    check(m["space"]["tp"] == [1, 2, 4, 8] and m["space"]["precision"] == ["master"] and
          m["space"]["chunked_loss"] == [False], f"megatron's space: {m['space']}")


@case("search.framework")
def _():
    """The framework is settled as `gpuplan train` settles it: Megatron-only lists make it
    megatron (with a note), and are refused under --framework transformers naming the flag."""
    t = ok(*SEARCH_8B, "--top", "2")
    check("framework transformers (default)" in t.out, t.out.splitlines()[0])
    r = ok(*SEARCH_8B, "--tp", "1,2,4", "--top", "2")
    check("framework megatron (--tp 4 needs Megatron-LM)" in r.out, r.out.splitlines()[0])
    j = ok_json(*SEARCH_8B, "--pp", "1,2", "--top", "2")
    check(j["framework"] == "megatron" and j["space"]["pp"] == [1, 2], "--pp 1,2: megatron")
    check(ok_json(*SEARCH_8B, "--tp", "1", "--top", "2")["framework"] == "transformers",
          "--tp 1 is data parallelism")
    hf = SEARCH_8B + ("--framework", "transformers")
    for flag, value in (("--tp", "1,2,4"), ("--pp", "1,2"), ("--cp", "1,2"), ("--ep", "1,2"),
                        ("--virtual-stages", "1,2"), ("--sp", "off,on"),
                        ("--recompute", "none,selective")):
        bad(rf"--framework transformers models one model with data parallelism.*{flag}", *hf,
            flag, value)
    bad(r"--amp needs --framework transformers", *SEARCH_8B_MEGATRON, "--amp")
    bad(r"--amp and --master-weights=false conflict", *SEARCH_8B, "--amp", "--master-weights=false")
    # the flags fix what transformers otherwise searches
    a = ok_json(*SEARCH_8B, "--amp", "--top", "3")
    check(a["space"]["precision"] == ["amp"] and all(e["precision"] == "amp" for e in a["top"]),
          "--amp: amp only")
    p = ok_json(*SEARCH_8B, "--master-weights=false", "--chunked-loss", "--top", "3")
    check(p["space"]["precision"] == ["pure"] and p["space"]["chunked_loss"] == [True], str(p["space"]))
    check(all(e["chunked_loss"] for e in p["top"]), "--chunked-loss: chunked only")
    n = ok_json(*SEARCH_8B, "--amp=false", "--top", "3")
    check(n["space"]["precision"] == ["master", "pure"], str(n["space"]["precision"]))


@case("search.top_and_objective")
def _():
    for n in (1, 3, 7):
        j = ok_json(*SEARCH_8B, "--top", str(n), "--objective", "cost")
        check(len(j["top"]) == n, f"--top {n}: {len(j['top'])} entries")
        costs = [t["cost_usd"] for t in j["top"]]
        check(costs == sorted(costs), "ranked by cost")
        check(j["objective"] == "cost", "objective echoed")
    e = ok_json(*SEARCH_8B, "--objective", "energy", "--top", "4")
    kwh = [t["energy_kwh"] for t in e["top"]]
    check(kwh == sorted(kwh), "ranked by energy")
    # the same answer on 1 and 2 threads
    one = ok_json(*SEARCH_8B[:-1], "1", "--top", "5")
    two = ok_json(*SEARCH_8B, "--top", "5")
    check([t["index"] for t in one["top"]] == [t["index"] for t in two["top"]], "threads agree")
    check([f["index"] for f in one["front"]] == [f["index"] for f in two["front"]], "fronts agree")
    # a deadline keeps only runs within it
    d = ok_json(*SEARCH_8B, "--deadline-days", "5")
    check(all(f["reserved_time_s"] <= 5 * 86400 for f in d["front"] + d["top"]), "deadline held")
    check(d["pruned"]["over_limits"] > 0, "some runs were over the deadline")


@case("search.plan_file")
def _():
    """A plan file gives the searched lists as arrays or strings; flags beside it win."""
    plan = plan_file({"model": "llama-3.1-8b", "gpu": ["h100", "h200"], "gpus": "8..32",
                      "tp": [1, 2], "pp": [1, 2], "sp": [False, True], "recompute": ["none"],
                      "seq": 4096, "global_batch": 256, "tokens": "100B"})
    try:
        j = ok_json("search", "--plan", plan, "--threads", "1")
        check(j["framework"] == "megatron", "tp [1, 2] in a plan: megatron")
        sp = j["space"]
        check(sp["tp"] == [1, 2] and sp["pp"] == [1, 2] and sp["gpus"] == [8, 16, 32], str(sp))
        check(sp["recompute"] == ["none"] and sp["sequence_parallel"] == [False, True], str(sp))
        check(sp["gpu"] == ["H100-SXM5-80GB", "H200-SXM-141GB"], str(sp["gpu"]))
        j = ok_json("search", "--plan", plan, "--tp", "4", "--threads", "1")
        check(j["space"]["tp"] == [4], "the flag wins")
    finally:
        os.unlink(plan)
    bad_plan = plan_file({"model": "llama-3.1-8b", "tp": {"x": 1}, "global_batch": 8})
    try:
        bad(r"key 'tp' must be a string, a number, a boolean or a non-empty array", "search",
            "--plan", bad_plan)
    finally:
        os.unlink(bad_plan)


@case("search.text")
def _():
    r = ok(*SEARCH_8B)
    check("Pareto front" in r.out and "best by time" in r.out, "front and top tables")
    check("wins over" in r.out and "bound by" in r.out, "why it wins")
    check("days to train" in r.out, "text chart of the front")
    with tempfile.TemporaryDirectory() as d:
        chart = os.path.join(d, "front.svg")
        check(shutil_which("gnuplot"), "gnuplot is on PATH (./scripts/check installs gnuplot-nox)")
        ok(*SEARCH_8B, "--chart", chart)
        check(os.path.exists(chart), "the chart drawn by gnuplot")
        r = ok(*SEARCH_8B, "--chart", chart, env={"PATH": "/nonexistent"})
        check(os.path.exists(os.path.join(d, "front.dat")) and
              os.path.exists(os.path.join(d, "front.gp")) and "gnuplot is not on PATH" in r.err,
              "without gnuplot: its files and a message")


@case("search.interrupt")
def _():
    """Ctrl-C (SIGINT) stops the search cleanly: exit 130 and the best found so far as JSON."""
    p = subprocess.Popen([BIN, "search", "--model", "llama-3.1-405b", "--gpu", "h100,h200",
                          "--gpus", "64..65536+64", "--seq", "8192", "--global-batch", "2048",
                          "--tokens", "15T", "--threads", "2", "--framework", "megatron",
                          "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    check(p.returncode == 130, f"exit {p.returncode}, stderr {err!r}")
    j = json.loads(out)
    check(j["complete"] is False, "marked incomplete")
    check(j["configurations_evaluated"] < j["space"]["size"], "stopped early")


@case("search.serve")
def _():
    """gpuplan search serve: GPU x TP x PP x weights at the SLO's best concurrency, ranked."""
    base = ("search", "serve", "--model", "llama-3.1-70b", "--gpu", "h100,h200", "--ttft-slo",
            "2", "--tpot-slo", "0.05")
    j = ok_json(*base, "--top", "6")
    for key in ("results", "configurations_evaluated", "pruned", "seconds", "objective"):
        check(key in j, f"key {key}")
    check(j["configurations_evaluated"] == 2 * 4 * 1 * 2, "h100,h200 x tp 1,2,4,8 x pp 1 x bf16,fp8")
    res = j["results"]
    check(1 <= len(res) <= 6, f"--top 6: {len(res)}")
    costs = [x["cost_per_million_tokens"] for x in res]
    check(costs == sorted(costs), "cheapest first")
    for x in res:
        check(x["ttft_s"] <= 2 and x["tpot_s"] <= 0.05, "the SLO holds")
        near(x["cost_per_million_tokens"],
             x["price_per_gpu_hour"] / 3600 / x["output_tokens_per_s_per_gpu"] * 1e6,
             1e-9 * x["cost_per_million_tokens"], "$/M tokens = price / tokens per GPU")
    check(not any(x["gpu"].startswith("H100") and x["tp"] == 1 and x["weight_dtype"] == "bf16"
                  for x in res), "70B bf16 does not fit one 80 GB GPU")
    t = ok_json(*base, "--objective", "tokens_per_gpu")
    rates = [x["output_tokens_per_s_per_gpu"] for x in t["results"]]
    check(rates == sorted(rates, reverse=True), "highest throughput per GPU first")
    r = ok(*base)
    check("$/M tokens" in r.out and "best by cost_per_million_tokens" in r.out, "text table")
    bad(r"--objective 'cheap' is not one of", *base, "--objective", "cheap")
    bad(r"--weight-dtype 'fp4' is not one of", *base, "--weight-dtype", "bf16,fp4")
    bad(r"--top must be at most 32", *base, "--top", "33")


@case("lists.one_reader")
def _():
    """Every comma-separated flag is read by one reader (options.hpp list_items): spaces around
    an item are dropped, and an empty item (a doubled or trailing comma) is refused naming the
    flag, where before some lists skipped it or accepted a trailing comma."""
    cost = ("cost", "--gpu", "h100", "--gpu-hours", "1")
    j = ok_json(*cost, "--compare", "cloud, onprem")
    check(j["comparison"] is not None, "'cloud, onprem' is two items")
    bad(r"^gpuplan: error: --compare 'cloud,': an empty item", *cost, "--compare", "cloud,")
    bad(r"--demand '1,,2': an empty item", *cost, "--compare", "hybrid", "--demand", "1,,2")
    bad(r"--hourly '1,,2': an empty item", "capacity", "--hourly", "1,,2", "--wait-slo", "1",
        "--replica-rate", "2", "--service-time", "4")
    bad(r"--compare-gpus 'h200,,a100': an empty item", "capacity", "--model", "Llama-3.1-8B",
        "--gpu", "h100", "--rate", "20", "--wait-slo", "1", "--ttft-slo", "2",
        "--compare-gpus", "h200,,a100")
    bad(r"--mix '512:128:1,': an empty item", "serve", "--model", "Llama-3.1-8B", "--gpu",
        "h100", "--mix", "512:128:1,")
    search = ("search", "--model", "llama-3.1-8b", "--global-batch", "64", "--tokens", "1T")
    for flag, value in (("--gpu", "h100,,a100"), ("--recompute", "none,"),
                        ("--price-per-gpu-hour", ",2")):
        bad(re.escape(f"{flag} '{value}': an empty item"), *search, flag, value)


@case("enums.names_from_tables")
def _():
    """Help lists an enum's values from its name table, and the flags read them as every enum
    flag does (parse_enum: any ASCII case)."""
    help_text = ok("cost", "--help").out
    check("Cloud price term: on_demand|commit_1yr|commit_3yr|spot" in help_text, "--term help")
    check("air|air_containment|liquid (default" in help_text, "--cooling help")
    cost = ("cost", "--gpu", "h100", "--gpus", "64", "--hours", "1")
    check(ok_json(*cost, "--term", "SPOT")["price"]["term"] == "spot", "--term SPOT")
    check(ok_json(*cost, "--cooling", "Liquid")["facility"]["site_cooling"] == "liquid",
          "--cooling Liquid")
    bad(r"--cooling 'water': expected air, air_containment or liquid", *cost, "--cooling",
        "water")
    bad(r"--term 'weekly' is not one of on_demand\|commit_1yr\|commit_3yr\|spot", *cost,
        "--term", "weekly")
    # a flag that takes some of an enum's values: help and parser read one array (options.hpp)
    check("KV cache: bf16|fp16|fp8 (default bf16)" in ok("serve", "--help").out, "--kv-dtype")
    bad(r"--kv-dtype 'int8' is not one of bf16\|fp16\|fp8$", "serve", "--model", "Llama-3.1-8B",
        "--gpu", "h100", "--kv-dtype", "int8")
    check("Network between nodes: infiniband|roce|efa|ethernet" in ok("train", "--help").out,
          "--fabric help")


@case("search.errors")
def _():
    base = ("search", "--model", "llama-3.1-8b", "--global-batch", "64", "--tokens", "1T")
    bad(r"--gpus '64\.\.8': FROM must not exceed TO", *base, "--gpus", "64..8")
    bad(r"--gpus .*'x'", *base, "--gpus", "x")
    bad(r"--tp .*empty item", *base, "--tp", "1,,2")
    bad(r"--zero: ZeRO stages are 0, 1, 2 or 3", *base, "--zero", "0,4")
    bad(r"--objective 'speed' is not one of time\|cost\|energy", *base, "--objective", "speed")
    bad(r"--top must be at most 64", *base, "--top", "65")
    bad(r"--recompute 'some' is not one of", *base, "--recompute", "none,some")
    bad(r"--sp 'maybe' is not one of off\|on", *base, "--sp", "maybe")
    bad(r"needs --tokens", "search", "--model", "llama-3.1-8b", "--global-batch", "64")
    bad(r"needs --global-batch", "search", "--model", "llama-3.1-8b", "--tokens", "1T")
    bad(r"L40S.*price|price.*L40S", *base, "--gpu", "l40s", "--gpus", "8")
    bad(r"--price-per-gpu-hour: give one price, or one per GPU type", *base, "--gpu",
        "h100,h200", "--price-per-gpu-hour", "2,3,4")
    bad(r"--framework transformers models one model with data parallelism.*--tp 2", *base,
        "--framework", "transformers", "--tp", "1,2")
    bad(r"--node and --gpu conflict", *base, "--node", "dgx-h100", "--gpu", "h200")
    # a space too large to sweep is refused up front (3.6e9 here), naming the limit's flag
    huge = ("--framework", "megatron", "--gpus", "1..4096+1", "--tp", "1,2,4,8", "--pp",
            "1..64+1", "--cp", "1..16+1")
    bad(r"the space holds 3\.6\de\+09 configurations, more than --max-configurations", *base, *huge)
    bad(r"--max-configurations must be at least 1", *base, "--max-configurations", "0")
    bad(r"--deadline-days must be a positive number of days, at most 1e9", *base,
        "--deadline-days", "1e308")
    bad(r"--budget must be a positive amount in USD", *base, "--budget", "1e300")


@case("search.serve_mix")
def _():
    """search serve reads --mix as serve does: the mix's mean lengths in the header, and each
    result the serving model's point for that mix (the same as `gpuplan serve --mix`)."""
    base = ("search", "serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--tp", "1",
            "--weight-dtype", "bf16", "--ttft-slo", "1", "--tpot-slo", "0.05")
    mix = ("--mix", "512:128:1,2048:512:1")
    r = ok(*base, *mix)
    check("1280 in + 320 out tokens per request (mean of a mix of 2)" in r.out, r.out[:200])
    fixed = ok_json(*base, "--input-len", "1280", "--output-len", "320")["results"][0]
    mixed = ok_json(*base, *mix)["results"][0]
    # the steady-state throughput follows the mean lengths; the latency tail does not: the long
    # class's prefill sets the mix's TTFT above the one-class run's
    check(mixed["ttft_s"] > fixed["ttft_s"] * 1.05,
          f"the mix is served, not its mean lengths as one class: TTFT {mixed['ttft_s']} vs "
          f"{fixed['ttft_s']}")
    s_mix = ok_json("serve", "--model", "llama-3.1-8b", "--gpu", "h100", *mix, "--concurrency",
                    str(int(mixed["concurrency"])))
    near(s_mix["ttft_s"], mixed["ttft_s"], 1e-9, "the same point as gpuplan serve --mix")
    bad(r"--mix replaces --input-len and --output-len", *base, *mix, "--input-len", "100")


# More cases live beside this file, one file a concern (cases_*.py), run in this module's namespace
# so they share case(), run(), ok(), bad() and the globals above.
_HERE = os.path.dirname(os.path.abspath(__file__))
for _f in sorted(os.listdir(_HERE)):
    if _f.startswith("cases_") and _f.endswith(".py"):
        with open(os.path.join(_HERE, _f), encoding="utf-8") as _src:
            exec(compile(_src.read(), os.path.join(_HERE, _f), "exec"), globals())


def main():
    global BIN, DATA
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 4 or sys.argv[3] not in CASES:
        print(__doc__, file=sys.stderr)
        return 2
    BIN, DATA = sys.argv[1], sys.argv[2]
    try:
        CASES[sys.argv[3]]()
    except Failure as e:
        print(f"FAILED {sys.argv[3]}: {e}", file=sys.stderr)
        return 1
    print(f"passed {sys.argv[3]}")
    return 0


BIN = DATA = None
if __name__ == "__main__":
    sys.exit(main())
