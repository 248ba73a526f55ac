"""gpuplan from Python: the library's plans and reports, at C++ speed.

Every function is a command of the ``gpuplan`` tool, run in-process by the compiled module
(``gpuplan._gpuplan``, the same C++ as the tool): its keyword arguments are the tool's flags in
snake_case (``gpuplan train --global-batch 512`` is ``gpuplan.train(global_batch=512)``), and its
result is the tool's ``--json`` report, with the same field names (quantities carry their unit in
the name: ``step_time_s``, ``per_gpu_bytes``)::

    import gpuplan
    r = gpuplan.fit(model="llama-3.1-8b", gpu="h100")
    r.fits, r.per_gpu_bytes, r.to_dict()

Bad input raises ``ValueError`` with the tool's one-line message naming the argument
(``gpuplan.fit(): key 'zero' must be 0, 1, 2 or 3``). ``sweep`` runs a command over a grid on every
core and returns a pandas DataFrame (a list of dicts without pandas); ``gpuplan.plot`` draws the
curves with matplotlib.
"""

from __future__ import annotations

import json as _json
import math
from typing import Any, Callable, Mapping, Sequence

from . import _gpuplan

__version__: str = _gpuplan.__version__

__all__ = [
    "CapacityReport",
    "CostReport",
    "FitReport",
    "Report",
    "SearchReport",
    "ServeReport",
    "ServeSearchReport",
    "TrainReport",
    "UtilizationReport",
    "assumptions",
    "capacity",
    "command_arguments",
    "cost",
    "fit",
    "gpus",
    "model_spec",
    "models",
    "search",
    "search_serve",
    "serve",
    "sweep",
    "train",
    "utilization",
]


class Report(Mapping[str, Any]):
    """A report: the tool's ``--json`` object, its fields read as attributes or keys.

    Nested objects are Reports too, lists of objects lists of Reports. ``to_dict()`` gives the
    plain JSON data. ``status`` is the tool's exit status for the same command (0: a report; a
    verdict, such as a plan that does not fit, is in its fields: ``fits`` False).
    """

    __slots__ = ("_data", "status")

    def __init__(self, data: Mapping[str, Any], status: int = 0) -> None:
        self._data = dict(data)
        self.status = status

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # private and dunder names (pickle's, copy's) are no fields
            raise AttributeError(name)
        try:
            return _wrap(self._data[name])
        except KeyError:
            raise AttributeError(
                f"this report has no field '{name}' (fields: {', '.join(sorted(self._data))})"
            ) from None

    def __getitem__(self, key: str) -> Any:
        return _wrap(self._data[key])

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __dir__(self) -> list[str]:
        return sorted(set(self._data) | {"to_dict", "status"})

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Report):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        keys = ", ".join(list(self._data)[:8])
        more = ", ..." if len(self._data) > 8 else ""
        return f"Report({keys}{more})"

    def __getstate__(self) -> tuple[dict[str, Any], int]:
        return self._data, self.status

    def __setstate__(self, state: tuple[dict[str, Any], int]) -> None:
        self._data, self.status = state

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON data (dicts, lists, numbers, strings)."""
        return _json.loads(_json.dumps(self._data))


class FitReport(Report):
    """`gpuplan fit --json`: the per-GPU memory, the verdict and advice."""


class TrainReport(Report):
    """`gpuplan train --json`: step time, MFU, time to train."""


class ServeReport(Report):
    """`gpuplan serve --json`: TTFT, TPOT, throughput."""


class CostReport(Report):
    """`gpuplan cost --json`: dollars, energy, carbon."""


class CapacityReport(Report):
    """`gpuplan capacity --json`: replicas, utilisation, growth."""


class SearchReport(Report):
    """`gpuplan search --json`: the best training layouts."""


class ServeSearchReport(Report):
    """`gpuplan search serve --json`: the best serving deployments."""


class UtilizationReport(Report):
    """`gpuplan utilization --json`: time in each band, per GPU and for the fleet."""


_REPORTS: dict[str, type[Report]] = {
    "fit": FitReport,
    "train": TrainReport,
    "serve": ServeReport,
    "cost": CostReport,
    "capacity": CapacityReport,
    "search": SearchReport,
    "search serve": ServeSearchReport,
    "utilization": UtilizationReport,
}


def _wrap(v: Any) -> Any:
    if isinstance(v, dict):
        return Report(v)
    if isinstance(v, list) and any(isinstance(x, dict) for x in v):
        return [_wrap(x) for x in v]
    return v


def _plain(v: Any, name: str) -> Any:
    """A keyword argument's value as JSON data; TypeError naming the argument otherwise."""
    if isinstance(v, float) and not math.isfinite(v):
        # JSON has no inf or NaN: refused here, by name, as the tool refuses "--x inf"
        raise ValueError(f"argument '{name}' must be a finite number (got {v})")
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, Mapping):
        return {str(k): _plain(x, name) for k, x in v.items()}
    if isinstance(v, (list, tuple, range)):
        return [_plain(x, name) for x in v]
    if hasattr(v, "tolist"):  # a numpy scalar or array
        return _plain(v.tolist(), name)
    if hasattr(v, "__fspath__"):  # a pathlib.Path
        return str(v.__fspath__())
    raise TypeError(f"argument '{name}': {type(v).__name__} is not a JSON value")


def _arguments(kwargs: Mapping[str, Any]) -> str:
    """The keyword arguments as the plan object the tool reads (its plan-file keys); None is an
    argument not given."""
    return _json.dumps({k: _plain(v, k) for k, v in kwargs.items() if v is not None})


def _run(command: str, kwargs: Mapping[str, Any], positional: Sequence[str] = ()) -> Any:
    label = f"gpuplan.{command.replace(' ', '_')}()"
    status, text = _gpuplan.run(command, _arguments(kwargs), [str(p) for p in positional], label)
    data = _json.loads(text) if text else None
    if isinstance(data, dict):
        return _REPORTS.get(command, Report)(data, status)
    if isinstance(data, list):
        return [Report(x) if isinstance(x, dict) else x for x in data]
    return data


def fit(**kwargs: Any) -> Report:
    """Does a model fit? ``gpuplan fit``: per-GPU memory, the verdict and advice.

    ``mode="infer"`` plans serving memory (the tool's ``--infer``), ``mode="train"`` (the default)
    training memory."""
    return _run("fit", kwargs)


def train(**kwargs: Any) -> Report:
    """How long does training take? ``gpuplan train``: step time, MFU, time to train, scaling."""
    return _run("train", kwargs)


def serve(**kwargs: Any) -> Report:
    """Serving speed: ``gpuplan serve``: TTFT, TPOT, throughput, the best point under an SLO."""
    return _run("serve", kwargs)


def cost(**kwargs: Any) -> Report:
    """What a run or a deployment costs, draws and emits: ``gpuplan cost``."""
    return _run("cost", kwargs)


def capacity(**kwargs: Any) -> Report:
    """Replicas for a demand at a waiting-time target, and their utilisation: ``gpuplan capacity``."""
    return _run("capacity", kwargs)


def utilization(*paths: Any, **kwargs: Any) -> Report:
    """Utilisation of real GPUs from monitoring files (nvidia-smi CSV, DCGM JSON, plain CSV):
    ``gpuplan utilization FILE...``."""
    if not paths:
        raise ValueError("gpuplan.utilization(): give one monitoring file or more")
    return _run("utilization", kwargs, [str(p) for p in paths])


def search(**kwargs: Any) -> Report:
    """The best training layouts: ``gpuplan search`` (list arguments are searched over:
    ``tp=[1, 2, 4, 8]`` or ``tp="1,2,4,8"``). Ctrl-C stops it and returns the best found so far
    (``complete`` is then False)."""
    return _run("search", kwargs)


def search_serve(**kwargs: Any) -> Report:
    """The cheapest (or fastest) serving deployment under an SLO: ``gpuplan search serve``."""
    return _run("search serve", kwargs)


def gpus() -> list[Report]:
    """The GPU catalog (``gpuplan gpus --json``)."""
    return _run("gpus", {})


def models() -> list[Report]:
    """The model catalog (``gpuplan models --json``)."""
    return _run("models", {})


def assumptions(filter: str | None = None) -> list[Report]:  # noqa: A002 - the tool's name
    """Every assumption of the models with its default and source (``gpuplan assumptions``);
    ``filter`` keeps those whose name contains it. Change one in any command with
    ``assumptions={"step.tp_overlap": 1}`` (the tool's ``--set``)."""
    return _run("assumptions", {}, [filter] if filter else [])


def model_spec(model: str | Mapping[str, Any]) -> Report:
    """A model's shape as gpuplan reads it: a catalog name, a Hugging Face config.json (path), a
    Hugging Face id in the local cache, ``params:70B``, or a config object."""
    fits = fit(model=model, mode="infer")
    return fits.model


def command_arguments(command: str) -> list[Report]:
    """The arguments a command takes: key (the keyword), flag, type, group and help."""
    return [Report(x) for x in _json.loads(_gpuplan.fields(command))]


_COMMANDS: dict[Callable[..., Any], str] = {
    fit: "fit",
    train: "train",
    serve: "serve",
    cost: "cost",
    capacity: "capacity",
    search: "search",
    search_serve: "search serve",
}


def _is_axis(v: Any) -> bool:
    return isinstance(v, (list, tuple, range)) or (
        hasattr(v, "__array__") and getattr(v, "ndim", 0) == 1
    )


def sweep(
    what: Callable[..., Any] | Report,
    threads: int = 0,
    as_frame: bool | None = None,
    **kwargs: Any,
) -> Any:
    """Runs a command over a grid, at C++ speed on every core (the GIL released).

    ``sweep(gpuplan.train, model="llama-3.1-8b", gpus=[8, 16, 32], tp=[1, 2, 4, 8])``: every
    keyword given a list (tuple, range, 1-D array) is an axis, the others are fixed; the grid is
    every combination, the last axis varying fastest. One row per point: the axes, then the
    report's fields flattened with dots (``per_gpu.total_bytes``), ``error`` (None, or the message
    of a point the tool refused: a layout that does not divide the model is a row, not an
    exception) and ``status``. A list-valued argument that is not an axis (a search's ``tp``)
    goes through ``gpuplan.search`` itself.

    Given a search's report instead (``sweep(gpuplan.search(...))``), the rows are its results.

    Returns a pandas DataFrame when pandas is installed (``as_frame=False``: a list of dicts).
    """
    if isinstance(what, Report):
        rows = _search_rows(what)
    else:
        command = _COMMANDS.get(what) if callable(what) else None
        if command is None:
            raise ValueError(
                "gpuplan.sweep(): the first argument must be gpuplan.fit, train, serve, cost, "
                "capacity, search or search_serve, or a search's report"
            )
        axes = [(k, _json.dumps(_plain(list(v), k))) for k, v in kwargs.items() if _is_axis(v)]
        fixed = {k: v for k, v in kwargs.items() if not _is_axis(v)}
        if not axes:
            raise ValueError("gpuplan.sweep(): give at least one argument a list of values")
        label = f"gpuplan.{command.replace(' ', '_')}()"
        table = _json.loads(_gpuplan.sweep(command, _arguments(fixed), axes, threads, label))
        columns, data = table["columns"], table["data"]
        if _want_frame(as_frame):
            import pandas as pd

            return pd.DataFrame({c: data[c] for c in columns}, columns=columns)
        n = len(data[columns[0]]) if columns else 0
        rows = [{c: data[c][i] for c in columns} for i in range(n)]
    if _want_frame(as_frame):
        import pandas as pd

        return pd.DataFrame(rows)
    return rows


def _want_frame(as_frame: bool | None) -> bool:
    if as_frame is False:
        return False
    try:
        import pandas  # noqa: F401
    except ImportError:
        if as_frame:
            raise ImportError("gpuplan.sweep(as_frame=True) needs pandas: pip install pandas") from None
        return False
    return True


def _flatten(d: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        name = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(_flatten(v, name + "."))
        elif isinstance(v, list) and any(isinstance(x, (dict, list)) for x in v):
            continue
        else:
            out[name] = v
    return out


def _search_rows(report: Report) -> list[dict[str, Any]]:
    data = report.to_dict()
    for key in ("top", "results"):
        if isinstance(data.get(key), list):
            return [_flatten(x) for x in data[key]]
    raise ValueError("gpuplan.sweep(): this report is no search's (it has no 'top' or 'results')")
