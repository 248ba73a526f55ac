# %% [markdown]
# # Planning with gpuplan from Python
#
# A notebook-style walk-through (cells marked `# %%`; Jupyter, VS Code and `python planning.py`
# all run it). Every call is a `gpuplan` command in-process: keyword arguments are its flags in
# snake_case, results its `--json` reports. The tests run this file to its end
# (python/tests/test_gpuplan.py, test_example_runs).

# %%
import gpuplan

# Does Llama 3.1 8B fit one H100 for serving, and for a full fine-tune?
serving = gpuplan.fit(model="llama-3.1-8b", gpu="h100", mode="infer")
training = gpuplan.fit(model="llama-3.1-8b", gpu="h100")
print(f"serving fits: {serving.fits} ({serving.per_gpu_bytes / 2**30:.1f} GiB per GPU)")
print(f"training fits: {training.fits} ({training.per_gpu_bytes / 2**30:.1f} GiB per GPU)")
for a in training.advice[:2]:
    print("  advice:", a.to_dict())

# %% [markdown]
# ## How does training scale?
# One call per layout would do; `sweep` runs the grid at C++ speed on every core. A point the
# tool refuses (a TP that does not divide the GPUs) is a row with its `error`, not an exception.

# %%
grid = gpuplan.sweep(gpuplan.train, model="llama-3.1-8b", global_batch=512,
                     gpus=[8, 16, 32, 64], tp=[1, 2, 4])
try:
    import pandas  # noqa: F401  (sweep returns a DataFrame when pandas is there)

    ok = grid[grid.error.isna()]
    best = ok.loc[ok.groupby("gpus").step_time_s.idxmin(), ["gpus", "tp", "step_time_s", "mfu"]]
    print(best.to_string(index=False))
except ImportError:
    rows = [r for r in grid if r["error"] is None]
    for g in sorted({r["gpus"] for r in rows}):
        b = min((r for r in rows if r["gpus"] == g), key=lambda r: r["step_time_s"])
        print(g, b["tp"], round(b["step_time_s"], 3), round(b["mfu"], 3))

# %% [markdown]
# ## Serving: a 2026 model, its latency and its cost

# %%
oss = gpuplan.serve(model="gpt-oss-120b", gpu="h100", concurrency=4)
print(f"gpt-oss-120b on one H100 at concurrency 4: TTFT {oss.ttft_s * 1e3:.0f} ms, "
      f"TPOT {oss.tpot_s * 1e3:.1f} ms")
bill = gpuplan.cost(model="llama-3.1-8b", gpu="h100", concurrency=64, input_len=512, output_len=700)
print("cost report fields:", ", ".join(sorted(bill)[:8]), "...")

# %% [markdown]
# ## Bad input names the argument

# %%
try:
    gpuplan.train(model="llama-3.1-8b", zero=7)
except ValueError as e:
    print("ValueError:", e)

# %% [markdown]
# ## Charts (with matplotlib installed)

# %%
try:
    import matplotlib

    matplotlib.use("Agg")
    import gpuplan.plot

    ax = gpuplan.plot.scaling(grid, by="tp") if not isinstance(grid, list) else None
    if ax is not None:
        ax.figure.savefig("scaling.png")
        print("drew scaling.png")
except ImportError:
    print("matplotlib or pandas not installed: no chart")
