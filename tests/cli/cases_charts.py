# tests/cli/cases_charts.py: every chart the commands draw, read back (issue 26, "Charts"): the
# text chart has every point (the rightmost included) and axis labels that span the data; the
# .gp script written without gnuplot sets ranges that cover the data, ticks at a sweep's GPU
# counts, labels at the Pareto points, and names itself in its comment.
# Exec'd in cli_tests.py's namespace (case, run, ok, ok_json, bad, check, near, ...).

# docs/cli.md's Megatron search example (the one whose text chart dropped its cheapest point)
_SEARCH_70B = ["search", "--model", "llama-3.1-70b", "--gpu", "h100,h200", "--gpus", "64..512",
               "--seq", "8192", "--global-batch", "512", "--tokens", "1T", "--framework",
               "megatron", "--top", "5"]
_NO_GNUPLOT = {"PATH": "/nonexistent"}


def _chart_rows(text, title):
    """The plot rows (text after ' |') and the tick line under the axis of the chart `title`."""
    lines = text[text.index(title):].splitlines()
    rows, ticks = [], ""
    for i, line in enumerate(lines):
        if " |" in line:
            rows.append(line.split(" |", 1)[1])
        elif line.lstrip().startswith("+---"):
            ticks = lines[i + 1]
            break
    return rows, ticks


def _gp_range(script, name):
    m = re.search(r"^set " + name + r" \[([^:\]]+):([^\]]+)\]$", script, re.M)
    check(m, f"the script sets {name}: {script[:300]!r}")
    return float(m.group(1)), float(m.group(2))


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


@case("charts.pareto_text_and_script")
def _():
    j = ok_json(*_SEARCH_70B)
    front = [(e["reserved_time_s"] / 86400.0, e["cost_usd"] / 1e6) for e in j["front"]]
    check(len(front) >= 2, "the example has a front to draw")
    text = ok(*_SEARCH_70B).out
    rows, ticks = _chart_rows(text, "time to train 1T tokens against cost")
    markers = sum(r.count("*") for r in rows)
    # every point is drawn (two points may share a cell only when they are one column apart)
    check(markers >= len(front) - 1 and markers >= 2, f"{markers} markers for {len(front)} points")
    # the cheapest point is the rightmost, in the last column: it was dropped before
    cheapest = min(front, key=lambda p: p[1])
    check(cheapest[0] == max(p[0] for p in front), "the cheapest point is the slowest")
    width = max(len(r) for r in rows)
    check(any(r.rstrip().endswith("*") and len(r.rstrip()) == width for r in rows),
          "a marker in the last column (the cheapest, slowest run)")
    # the x axis's labels span the data: the fastest and slowest run's days
    days = [float(v) for v in re.findall(r"[\d.]+", ticks)]
    # (tick labels carry 4 significant digits: 5e-4 relative)
    lo, hi = min(p[0] for p in front), max(p[0] for p in front)
    near(min(days), lo, 5e-4 * lo, "x axis starts at the fastest run")
    near(max(days), hi, 5e-4 * hi, "x axis ends at the slowest run")
    # each point listed with its label under the legend
    check(f"* 1: {j['front'][0]['gpus']} x {j['front'][0]['gpu']} at (" in text, "point labels")
    # the PNG's script: ranges cover the data, points labelled and large, its own name
    d = tempfile.mkdtemp()
    png = os.path.join(d, "front.png")
    r = ok(*_SEARCH_70B, "--chart", png, env=_NO_GNUPLOT)
    gp = os.path.join(d, "front.gp")
    check(os.path.exists(gp) and os.path.exists(os.path.join(d, "front.dat")),
          f"front.gp and front.dat written: {r.err!r}")
    script = _read(gp)
    check(script.startswith("# gpuplan chart: gnuplot 'front.gp'\n"),
          f"the comment names the script written: {script.splitlines()[0]!r}")
    x0, x1 = _gp_range(script, "xrange")
    y0, y1 = _gp_range(script, "yrange")
    for x, y in front:
        check(x0 < x < x1 and y0 < y < y1, f"point ({x}, {y}) inside [{x0}:{x1}] x [{y0}:{y1}]")
    check("with points pt 7 ps 1.8" in script, "large points")
    labels = re.findall(r"^set label \d+ '(\d+): [^']*' at first ([^,]+), first (\S+)", script, re.M)
    check(len(labels) == len(front), f"{len(labels)} labels for {len(front)} points")
    for (n, x, y), (px, py) in zip(labels, front):
        near(float(x), px, 1e-9, f"label {n} at its point's x")
        near(float(y), py, 1e-9, f"label {n} at its point's y")


@case("charts.scaling_script")
def _():
    args = ["train", "--model", "megatron-175b", "--node", "dgx-a100", "--tp", "8", "--pp", "12",
            "--dp", "4", "--dtype", "fp16", "--recompute", "full", "--flash-attention=false",
            "--global-batch", "1536", "--scaling", "1536..6144"]
    j = ok_json(*args)
    pts = [p for p in j["scaling"]["points"] if p["valid"]]
    gpus = sorted(p["gpus"] for p in pts)
    check(gpus, "the sweep has points")
    text = ok(*args).out
    rows, ticks = _chart_rows(text, "scaling")
    for g in gpus:
        check(str(g) in ticks, f"a tick at {g} GPUs in the text chart: {ticks!r}")
    d = tempfile.mkdtemp()
    ok(*args, "--chart", os.path.join(d, "scale.png"), env=_NO_GNUPLOT)
    script = _read(os.path.join(d, "scale.gp"))
    check(script.startswith("# gpuplan chart: gnuplot 'scale.gp'\n"), "the comment's name")
    x0, x1 = _gp_range(script, "xrange")
    # the data's range with a margin, not gnuplot's whole decades (1000 to 10000)
    check(x0 < gpus[0] and x1 > gpus[-1], f"[{x0}:{x1}] covers {gpus[0]}..{gpus[-1]}")
    check(x0 > gpus[0] * 0.8 and x1 < gpus[-1] * 1.25, f"[{x0}:{x1}] is the data's, not decades")
    check("set logscale x" in script, "log x")
    check(f"set xtics ({', '.join(str(g) for g in gpus)})" in script, "ticks at the GPU counts")


@case("charts.utilization_idle_and_local_time")
def _():
    # nvidia-smi-units.csv: GPU 2 idle at 0% throughout; nvidia-smi's timestamps have no zone
    csv = data("monitoring/nvidia-smi-units.csv")
    text = ok("utilization", csv).out
    check("time (local time as logged (no zone in the file))" in text,
          "nvidia-smi's times are not called UTC")
    check("(UTC)" not in text, "no UTC label")
    d = tempfile.mkdtemp()
    ok("utilization", csv, "--chart", os.path.join(d, "u.png"), env=_NO_GNUPLOT)
    script = _read(os.path.join(d, "u.gp"))
    check(script.startswith("# gpuplan chart: gnuplot 'u.gp'\n"), "the comment's name")
    y0, y1 = _gp_range(script, "yrange")
    check(y0 < 0 < 100 < y1, f"0% and 100% inside the y range, off its border: [{y0}:{y1}]")
    check("local time as logged" in script, "the script's x label says local time")
    # a plain CSV with zoned times (ISO 8601, "Z") stays UTC
    check("time (UTC)" in ok("utilization", data("monitoring/plain.csv")).out, "zoned times: UTC")
