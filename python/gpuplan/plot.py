"""Plotting helpers for gpuplan's sweeps and reports (matplotlib, imported when called).

- ``scaling(df)``: step time (or throughput) against the GPU count of a ``sweep(gpuplan.train,
  gpus=[...])``, one line per value of another axis (``by="tp"``), with linear scaling from the
  smallest count as a dashed reference.
- ``serving_curve(df)``: a serving sweep's throughput against its latency (TPOT or TTFT), the
  points labelled by concurrency: the curve an operator picks a point on.
- ``utilization_bands(report)``: a ``gpuplan.utilization`` report's share of time in each band
  (idle, low, healthy 70-90%, hot), per GPU.

Each returns the matplotlib Axes it drew on (``ax=`` draws on yours).
"""

from __future__ import annotations

from typing import Any


def _plt():
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("gpuplan.plot needs matplotlib: pip install matplotlib") from None
    return plt


def _frame(data: Any):
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("gpuplan.plot needs pandas for a sweep's table: pip install pandas") from None
    return data if isinstance(data, pd.DataFrame) else pd.DataFrame(list(data))


def _axes(ax):
    if ax is not None:
        return ax
    _, ax = _plt().subplots()
    return ax


def _ok(df):
    return df[df["error"].isna()] if "error" in df.columns else df


def scaling(data: Any, x: str = "gpus", y: str = "tokens_per_s", by: str | None = None, ax=None):
    """Throughput (``y``, default tokens/s) against the GPU count (``x``) of a training sweep;
    one line per value of ``by`` when given; dashed: linear scaling from the first point."""
    df = _ok(_frame(data))
    ax = _axes(ax)
    groups = [(None, df)] if by is None else list(df.groupby(by))
    for key, g in groups:
        g = g.sort_values(x)
        if g.empty:
            continue
        label = y if key is None else f"{by} = {key}"
        ax.plot(g[x], g[y], marker="o", label=label)
        x0, y0 = g[x].iloc[0], g[y].iloc[0]
        ax.plot(g[x], y0 * g[x] / x0, linestyle="--", color="grey", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title("scaling (dashed: linear from the smallest)")
    ax.legend()
    return ax


def serving_curve(data: Any, latency: str = "tpot_s", throughput: str | None = None,
                  label: str = "concurrency", ax=None):
    """Throughput against latency for a serving sweep (``sweep(gpuplan.serve, concurrency=[...])``):
    each point labelled by ``label``'s value."""
    df = _ok(_frame(data))
    if throughput is None:
        candidates = [c for c in df.columns if c.endswith("tokens_per_s")]
        if not candidates:
            raise ValueError("gpuplan.plot.serving_curve: no tokens/s column in this table")
        throughput = "output_tokens_per_s" if "output_tokens_per_s" in candidates else candidates[0]
    ax = _axes(ax)
    df = df.sort_values(latency)
    ax.plot(df[latency] * 1e3, df[throughput], marker="o")
    if label in df.columns:
        for _, row in df.iterrows():
            ax.annotate(str(row[label]), (row[latency] * 1e3, row[throughput]), fontsize=7)
    ax.set_xlabel(f"{latency[:-2]} (ms)" if latency.endswith("_s") else latency)
    ax.set_ylabel(throughput)
    ax.set_title("serving: throughput against latency")
    return ax


# The bands of gpuplan utilization's report (band_shares), from idle to overloaded.
BANDS = ("waste", "low", "healthy", "high", "overload")
COLORS = {"waste": "#bbbbbb", "low": "#f2c14e", "healthy": "#4caf50", "high": "#f28e2b",
          "overload": "#d62728"}


def utilization_bands(report: Any, ax=None):
    """A utilisation report's share of time in each band (band_shares: waste < 30%, low,
    healthy 70-90%, high, overload > 95% by default), stacked per GPU and for the fleet."""
    data = report.to_dict() if hasattr(report, "to_dict") else dict(report)
    rows = list(data.get("gpus") or [])
    if isinstance(data.get("fleet"), dict):
        rows.append(data["fleet"])
    if not rows:
        raise ValueError("gpuplan.plot.utilization_bands: this report has no GPUs")
    ax = _axes(ax)
    names = [f"GPU {r.get('id')}" if r.get("id") != "fleet" else "fleet" for r in rows]
    bottom = [0.0] * len(rows)
    for b in BANDS:
        share = [float((r.get("band_shares") or {}).get(b, 0.0)) for r in rows]
        ax.bar(names, share, bottom=bottom, label=b, color=COLORS[b])
        bottom = [x + y for x, y in zip(bottom, share)]
    ax.set_ylabel("share of time")
    ax.set_ylim(0, 1)
    ax.set_title("utilisation bands (healthy: 70-90%)")
    ax.legend()
    return ax
