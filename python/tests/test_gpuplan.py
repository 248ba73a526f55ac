"""gpuplan from Python against the gpuplan tool: the same plans give the same reports.

Run by ctest (python.pytest) with PYTHONPATH at the build tree's module and GPUPLAN_CLI the tool
built beside it; or after `pip install .` with GPUPLAN_CLI pointing at a built tool (the CLI
comparisons skip without one).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

import gpuplan

CLI = os.environ.get("GPUPLAN_CLI") or shutil.which("gpuplan")
SOURCE = Path(os.environ.get("GPUPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DATA = SOURCE / "tests" / "data"

needs_cli = pytest.mark.skipif(CLI is None, reason="no gpuplan tool (GPUPLAN_CLI) to compare with")

# A report's fields that differ between two runs of the same plan: the search's own wall time,
# its rate and its thread count (the machine's, not the plan's).
VOLATILE = {"seconds", "configurations_per_s", "threads"}

# The shared table: plans of the CLI tests (tests/cli/), as keyword arguments. Each runs as a
# Python call and as the command line the keywords translate to (argv() below); the reports must
# be equal. Inline objects (a model as gpuplan's model JSON) go to the tool in a plan file.
GPT_1T = {"name": "GPT-1T", "layers": 128, "hidden": 25600, "heads": 160, "kv_heads": 160,
          "head_dim": 160, "ffn": 102400, "ffn_type": "mlp", "vocab": 51200,
          "tied_embeddings": True, "max_positions": 2048, "positions": "learned",
          "norm": "layernorm", "qkv_bias": True, "out_bias": True, "mlp_bias": True,
          "native_dtype": "fp16"}
PLANS = [
    ("fit-infer", "fit", dict(model="llama-3.1-8b", gpu="h100", mode="infer", context=1200)),
    ("fit-readme", "fit", dict(model="llama-3.1-70b", gpu="h100", dp=4, tp=8, zero=1, sp=True,
                               recompute="selective", micro_batch=1, seq=4096)),
    ("fit-zero3", "fit", dict(model="Llama-3.1-8B", gpu="h100", gpus=8, zero=3)),
    ("fit-kv-fp8", "fit", dict(model="Llama-3.1-70B", mode="infer", tp=8, kv_dtype="fp8")),
    ("fit-deepseek", "fit", dict(model="DeepSeek-V3", gpu="h200", mode="infer", tp=8)),
    ("fit-qlora", "fit", dict(model="llama-3.1-8b", gpu="a100", qlora=16, double_quant=True)),
    ("train-8b", "train", dict(model="llama-3.1-8b", node="dgx-h100", dp=8, zero=1, seq=8192,
                               global_batch=64, micro_batch=1, tokens=1e10, no_failures=True)),
    ("train-overlap", "train", dict(model="llama-3.1-70b", gpus=64, tp=8, pp=2, sp=True,
                                    global_batch=512, assumptions={"step.tp_overlap": 1})),
    ("train-gpt-1t", "train", dict(model=GPT_1T, node="dgx-a100", dtype="fp16",
                                   grad_dtype="fp32", micro_batch=1, seq=2048,
                                   flash_attention=False, dropout=True, recompute="full",
                                   overlap_grad_reduce=False, tp=8, pp=64, gpus=3072,
                                   global_batch=3072, no_failures=True)),
    ("train-lora", "train", dict(model="llama-3.1-8b", gpu="h100", lora=16, global_batch=8,
                                 micro_batch=1, seq=2048)),
    ("serve-gpt-oss", "serve", dict(model="gpt-oss-120b", gpu="h100", concurrency=4)),
    ("serve-70b-tp4", "serve", dict(model="llama-3.1-70b", gpu="h100", tp=4, rate=2.5,
                                    input_len=2048, output_len=256, ttft_slo=2, tpot_slo=0.05)),
    ("serve-qwen3-moe", "serve", dict(model="Qwen3-30B-A3B", gpu="h100", concurrency=32)),
    ("cost-train", "cost", dict(model="llama-3.1-8b", node="dgx-h100", dp=8, zero=1, seq=8192,
                                global_batch=64, micro_batch=1, tokens=1e10, compare="cloud")),
    ("cost-serve", "cost", dict(model="llama-3.1-8b", gpu="h100", concurrency=64, input_len=512,
                                output_len=700)),
    ("cost-hours", "cost", dict(gpu="h100", gpus=64, hours=10, rack_budget_kw=5)),
    ("capacity", "capacity", dict(model="llama-3.1-8b", gpu="h100", rate=40, wait_slo=1,
                                  ttft_slo=1, months=0)),
    ("search-train", "search", dict(model="llama-3.1-8b", gpus=8, tokens=1e9, global_batch=256)),
    ("search-serve", "search serve", dict(model="llama-3.1-8b", gpu="h100,a100",
                                          ttft_slo=1, tpot_slo=0.05)),
]


def strip(j):
    if isinstance(j, dict):
        return {k: strip(v) for k, v in j.items() if k not in VOLATILE}
    if isinstance(j, list):
        return [strip(x) for x in j]
    return j


def argv(command: str, kwargs: dict, directory: str) -> list[str]:
    """The command line that keyword arguments stand for: each key's flag (the tool's table, as
    gpuplan.command_arguments lists it), True as the bare flag, False as FLAG=false, a dict of
    assumptions as --set NAME=VALUE, a list comma-joined; an inline object in a plan file."""
    fields = {f.key: f for f in gpuplan.command_arguments(command)}
    out = command.split()
    plan = {}
    for key, value in kwargs.items():
        f = fields[key]
        if key == "mode":
            out.append("--" + value)
        elif f.type == "assignments":
            for name, v in value.items():
                out += ["--set", f"{name}={v}"]
        elif isinstance(value, dict):
            plan[key] = value
        elif isinstance(value, bool):
            out.append(f.flag if value else f"{f.flag}=false")
        elif isinstance(value, list):
            out += [f.flag, ",".join(str(x) for x in value)]
        else:
            out += [f.flag, repr(value) if isinstance(value, float) else str(value)]
    if plan:
        path = os.path.join(directory, "plan.json")
        Path(path).write_text(json.dumps(plan))
        out += ["--plan", path]
    return out + ["--json"]


def cli(args: list[str]) -> tuple[int, dict]:
    env = dict(os.environ, GPUPLAN_PROGRESS="never")
    env.pop("LD_PRELOAD", None)  # the sanitizers' runtime preloaded for the module (asan): the tool links its own
    p = subprocess.run([CLI, *args], capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode in (0, 1), f"gpuplan {' '.join(args)}: {p.stderr}"
    return p.returncode, json.loads(p.stdout)


CALLS = {"fit": gpuplan.fit, "train": gpuplan.train, "serve": gpuplan.serve,
         "cost": gpuplan.cost, "capacity": gpuplan.capacity, "search": gpuplan.search,
         "search serve": gpuplan.search_serve}


@needs_cli
@pytest.mark.parametrize("name,command,kwargs", PLANS, ids=[p[0] for p in PLANS])
def test_same_report_as_the_cli(name, command, kwargs, tmp_path):
    status, expected = cli(argv(command, kwargs, str(tmp_path)))
    got = CALLS[command](**kwargs)
    assert got.status == status
    assert strip(got.to_dict()) == strip(expected)


@needs_cli
def test_utilization_same_as_the_cli():
    files = [DATA / "monitoring" / "nvidia-smi-units.csv"]
    _, expected = cli(["utilization", *map(str, files), "--json"])
    got = gpuplan.utilization(*files)
    assert got.to_dict() == expected


@needs_cli
@pytest.mark.parametrize("name", ["gpus", "models", "assumptions"])
def test_catalogs_same_as_the_cli(name):
    _, expected = cli([name, "--json"])
    got = getattr(gpuplan, name)()
    assert [x.to_dict() if isinstance(x, gpuplan.Report) else x for x in got] == expected


def test_fit_quick_start():
    # the README's and the first line
    r = gpuplan.fit(model="llama-3.1-8b", gpu="h100")
    assert r.fits is False  # a full fine-tune of 8B needs more than one 80 GB GPU
    r = gpuplan.fit(model="llama-3.1-8b", gpu="h100", mode="infer")
    assert r.fits is True
    assert isinstance(r.per_gpu_bytes, int) and r.per_gpu_bytes > 16e9
    assert r["per_gpu_bytes"] == r.per_gpu_bytes == r.to_dict()["per_gpu_bytes"]
    assert r.model.name == "Llama-3.1-8B"  # nested objects read as attributes too
    assert "per_gpu_bytes" in dir(r)


def test_catalogs():
    names = {g.name for g in gpuplan.gpus()}
    assert {"H100-SXM5-80GB", "A100-SXM4-80GB"} <= names
    models = {m.name for m in gpuplan.models()}
    assert {"Llama-3.1-8B", "DeepSeek-V3", "gpt-oss-120b"} <= models
    a = gpuplan.assumptions("tp_overlap")
    assert [x.name for x in a] == ["step.tp_overlap"]


def test_model_spec_from_config_json():
    # a Hugging Face config.json, read as the tool reads it (tests/data/hf)
    config = sorted((DATA / "hf").rglob("*config*.json"))[0]
    spec = gpuplan.model_spec(str(config))
    assert spec.parameters > 0
    assert gpuplan.model_spec("llama-3.1-8b").parameters == 8030261248


def test_assumptions_by_name_change_the_answer():
    base = gpuplan.train(model="llama-3.1-70b", gpus=64, tp=8, pp=2, sp=True, global_batch=512)
    overlapped = gpuplan.train(model="llama-3.1-70b", gpus=64, tp=8, pp=2, sp=True,
                               global_batch=512, assumptions={"step.tp_overlap": 1})
    assert overlapped.step_time_s < base.step_time_s
    assert overlapped.assumptions.to_dict() == {"step.tp_overlap": "1"}  # echoed as --set reads it


@pytest.mark.parametrize(
    "call,kwargs,message",
    [
        (gpuplan.fit, dict(model="llama-3.1-8b", zero=7), r"gpuplan\.fit\(\): key 'zero' must be 0, 1, 2 or 3"),
        (gpuplan.fit, dict(model="llama-3.1-8b", zerox=1), r"unknown key 'zerox'; did you mean 'zero'\?"),
        (gpuplan.train, dict(model="no-such-model"), r"no-such-model"),
        (gpuplan.serve, dict(model="llama-3.1-8b", concurrency=-1), r"concurrency"),
        (gpuplan.train, dict(model="llama-3.1-8b", gpus=8, tp=3), r"tp"),
        (gpuplan.cost, dict(gpu="h100", gpu_hours=float("inf")), r"gpu_hours|gpu-hours"),
        (gpuplan.train, dict(model="llama-3.1-8b", global_batch="many"), r"global_batch"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_argument(call, kwargs, message):
    with pytest.raises(ValueError, match=message) as e:
        call(**kwargs)
    assert "\n" not in str(e.value)


def test_messages_name_keywords_not_flags():
    # the tool says "--wait-slo"; from Python the same message says the keyword
    with pytest.raises(ValueError) as e:
        gpuplan.capacity(model="llama-3.1-8b", gpu="h100", rate=10, ttft_slo=1)
    assert "wait_slo" in str(e.value) and "--wait-slo" not in str(e.value)
    with pytest.raises(ValueError, match="ttft_slo") as e:
        gpuplan.capacity(model="llama-3.1-8b", gpu="h100", rate=10, wait_slo=1)
    assert "--" not in str(e.value)


def test_a_value_python_cannot_send_is_a_type_error():
    with pytest.raises(TypeError, match="argument 'gpus'"):
        gpuplan.fit(model="llama-3.1-8b", gpus=object())


def test_utilization_needs_a_file():
    with pytest.raises(ValueError, match="monitoring file"):
        gpuplan.utilization()
    with pytest.raises(ValueError, match="no-such-file"):
        gpuplan.utilization("/no-such-file.csv")


def test_sweep_rows_are_the_single_calls():
    rows = gpuplan.sweep(gpuplan.train, as_frame=False, model="llama-3.1-8b", global_batch=512,
                         gpus=[8, 16], tp=[1, 3, 8])
    assert [(r["gpus"], r["tp"]) for r in rows] == [(8, 1), (8, 3), (8, 8), (16, 1), (16, 3), (16, 8)]
    for r in rows:
        if r["tp"] == 3:  # 3 divides neither 8 GPUs nor the model's heads: a row, not an exception
            assert r["error"] and r["status"] == 2 and r["step_time_s"] is None
            with pytest.raises(ValueError, match=re.escape(r["error"])):
                gpuplan.train(model="llama-3.1-8b", global_batch=512, gpus=r["gpus"], tp=3)
            continue
        one = gpuplan.train(model="llama-3.1-8b", global_batch=512, gpus=r["gpus"], tp=r["tp"])
        assert r["error"] is None and r["status"] == 0
        assert r["step_time_s"] == one.step_time_s
        assert r["layout.tp"] == one.layout.tp == r["tp"]
        assert r["mfu"] == one.mfu


def test_sweep_data_frame():
    pd = pytest.importorskip("pandas")
    df = gpuplan.sweep(gpuplan.serve, model="llama-3.1-8b", gpu="h100", tp=[1, 2],
                       concurrency=range(1, 33))
    assert isinstance(df, pd.DataFrame)
    assert df.shape[0] == 64
    assert list(df.columns[:2]) == ["tp", "concurrency"]
    assert {"ttft_s", "tpot_s", "output_tokens_per_s", "error", "status"} <= set(df.columns)
    assert df["error"].isna().all() and (df["status"] == 0).all()
    # more concurrency, more throughput (the curve rises), at one TP
    tp1 = df[df.tp == 1].sort_values("concurrency")
    assert tp1.output_tokens_per_s.is_monotonic_increasing
    assert tp1.output_tokens_per_s.iloc[-1] > 10 * tp1.output_tokens_per_s.iloc[0]


def test_sweep_of_a_search_result():
    r = gpuplan.search(model="llama-3.1-8b", gpus=8, tokens=1e9, global_batch=256)
    rows = gpuplan.sweep(r, as_frame=False)
    assert len(rows) == len(r.top) > 0
    assert rows[0]["step_time_s"] == r.top[0].step_time_s


def test_sweep_refuses_what_is_no_grid():
    with pytest.raises(ValueError, match="list of values"):
        gpuplan.sweep(gpuplan.train, model="llama-3.1-8b")
    with pytest.raises(ValueError, match="no values"):
        gpuplan.sweep(gpuplan.train, model="llama-3.1-8b", gpus=[])
    with pytest.raises(ValueError, match="first argument"):
        gpuplan.sweep(print, gpus=[1])


def test_ctrl_c_stops_a_search_with_the_best_so_far():
    # ~480 million layouts (1,024 GPU counts x 4 GPU types x ...): minutes even in Release, so the
    # SIGINT sent 0.3 s after the start always finds it running
    kwargs = dict(model="llama-3.1-70b", gpu="h100,h200,b200,a100",
                  gpus=list(range(8, 8193, 8)), tokens=1e12, global_batch=1536, tp="1,2,4,8",
                  pp="1,2,3,4,5,6,8,10,12,16,20,40,80", cp="1,2,4,8", micro_batch="1,2,3,4,6,8",
                  virtual_stages="1,2,4,5")
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = gpuplan.search(**kwargs)
    finally:
        timer.cancel()
    assert r.complete is False
    assert 0 < r.configurations_evaluated < r.space.size
    assert len(r.top) > 0  # the best found before the interrupt
    # and Python's own handler is back: a later Ctrl-C is a KeyboardInterrupt again
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_plotting_helpers(tmp_path):
    pytest.importorskip("matplotlib")
    pd = pytest.importorskip("pandas")
    import gpuplan.plot as gplot

    df = gpuplan.sweep(gpuplan.train, model="llama-3.1-8b", global_batch=512, gpus=[8, 16, 32, 64])
    ax = gplot.scaling(df)
    assert len(ax.lines) >= 1
    ax.figure.savefig(tmp_path / "scaling.png")
    curve = gpuplan.sweep(gpuplan.serve, model="llama-3.1-8b", gpu="h100", concurrency=[1, 4, 16, 64])
    ax = gplot.serving_curve(curve)
    assert len(ax.lines) >= 1
    u = gpuplan.utilization(DATA / "monitoring" / "nvidia-smi-units.csv")
    ax = gplot.utilization_bands(u)
    assert len(ax.patches) >= 1
    assert (tmp_path / "scaling.png").stat().st_size > 0


def test_example_runs():
    # examples/python/planning.py, the notebook-style walk-through, runs to its end
    example = SOURCE / "examples" / "python" / "planning.py"
    package_root = str(Path(gpuplan.__file__).resolve().parents[1])
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, cwd=d,
                           env=env, timeout=600)
    assert p.returncode == 0, p.stderr
    assert "fits" in p.stdout


def test_stub_lists_every_argument():
    # the typed stub (gpuplan/__init__.pyi) is generated from the tool's table: it is current
    stub = Path(gpuplan.__file__).with_name("__init__.pyi").read_text()
    for command, fn in [("fit", "fit"), ("train", "train"), ("serve", "serve"), ("cost", "cost"),
                        ("capacity", "capacity"), ("search", "search"),
                        ("search serve", "search_serve")]:
        section = stub.split(f"def {fn}(", 1)[1].split(") ->", 1)[0]
        for f in gpuplan.command_arguments(command):
            assert f"    {f.key}:" in section, f"{fn}: {f.key} missing from the stub"


def test_no_inf_or_nan_in_reports():
    r = gpuplan.serve(model="gpt-oss-120b", gpu="h100", concurrency=4)

    def walk(x):
        if isinstance(x, float):
            assert math.isfinite(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(r.to_dict())


def readme_python_blocks():
    """README.md's ```python blocks, each with the ```text output block after it (or None)."""
    text = (SOURCE / "README.md").read_text()
    blocks = []
    parts = text.split("```python\n")[1:]
    for part in parts:
        code, rest = part.split("```", 1)
        expected = None
        after = rest.lstrip("\n")
        if after.startswith("```text output\n"):
            expected = after[len("```text output\n"):].split("```", 1)[0]
        blocks.append((code, expected))
    return blocks


@pytest.mark.parametrize("code,expected", readme_python_blocks())
def test_readme_python_blocks(code, expected, capsys):
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    if expected is not None:
        assert out == expected


def test_reports_pickle_and_copy():
    import copy
    import pickle

    r = gpuplan.fit(model="llama-3.1-8b", gpu="h100", mode="infer")
    for twin in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r)):
        assert twin == r and type(twin) is type(r) and twin.status == r.status
        assert twin.model.name == "Llama-3.1-8B"
    with pytest.raises(AttributeError, match="no field 'nope'"):
        r.nope


def test_calls_from_many_threads_agree():
    # the module releases the GIL: calls from Python threads run at once, each its own command
    from concurrent.futures import ThreadPoolExecutor

    plans = [dict(model="llama-3.1-8b", gpus=g, tp=t, global_batch=512)
             for g in (8, 16, 32) for t in (1, 2, 4)]
    alone = [gpuplan.train(**p).to_dict() for p in plans]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda p: gpuplan.train(**p).to_dict(), plans * 3))
    assert together == alone * 3


def test_hostile_arguments_raise_never_crash():
    # Random values for one to three random arguments of every command (fixed seed), hostile ones
    # (huge, negative, inf, NaN, empty, NUL, wrong types) among plausible ones: each call returns
    # a report or raises ValueError/TypeError; under the asan preset the sanitizers watch.
    import random

    rng = random.Random(27)
    values = [0, -1, 1, 3, 2**31, 2**63, -(2**63), 2**80, 1e308, -1e-308, 0.5, float("inf"),
              float("nan"), "", " ", "x" * 5000, "llama-3.1-8b", "h100", "1..0", "8..4096",
              "1,,2", "-1", "1e999", "\x00", "é", True, False, None, [], [1, 2], [[1]], {},
              {"a": 1}, {"layers": -1, "hidden": 0}, {"step.tp_overlap": "x"}]
    plausible = [1, 2, 4, 8, 0.5, 0.9, True, False, "h100", "bf16", "fp8", "vllm"]
    calls = {"fit": gpuplan.fit, "train": gpuplan.train, "serve": gpuplan.serve,
             "cost": gpuplan.cost, "capacity": gpuplan.capacity}
    outcomes = {"report": 0, "refused": 0}
    for command, call in calls.items():
        keys = [f.key for f in gpuplan.command_arguments(command)]
        for _ in range(40):
            kwargs = {"model": "llama-3.1-8b"}
            for key in rng.sample(keys, rng.randint(1, 3)):
                kwargs[key] = rng.choice(plausible if rng.random() < 0.6 else values)
            try:
                r = call(**kwargs)
            except (ValueError, TypeError) as e:
                assert str(e) and "\n" not in str(e)
                outcomes["refused"] += 1
            else:
                assert isinstance(r, gpuplan.Report)
                outcomes["report"] += 1
    assert outcomes["refused"] > 0 and outcomes["report"] > 0 and sum(outcomes.values()) == 40 * len(calls)
