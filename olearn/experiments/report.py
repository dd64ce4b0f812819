"""Print and save a reproduction's results: the paper-vs-ours table and the tidy per-fit runs."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from olearn._io import atomic_write_many
from olearn.experiments.reproduction import ReproResult

_FIRST = ("dataset", "algorithm", "paper", "ours", "diff")


def format_table(table: pd.DataFrame) -> str:
    """The comparison table as text: paper, ours and the difference first, 2 decimals.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["usps"], "algorithm": ["PA"], "paper": [7.12],
    ...                   "ours": [7.5]})
    >>> print(format_table(t))
    dataset algorithm paper ours  diff
       usps        PA  7.12 7.50 +0.38
    """
    table = table.copy()
    if "diff" not in table and {"paper", "ours"} <= set(table):
        table["diff"] = table["ours"] - table["paper"]
    order = [c for c in _FIRST if c in table] + [c for c in table if c not in _FIRST]
    table = table[order]
    formatters = {}
    for column in table:
        if column == "diff":
            formatters[column] = lambda v: "" if pd.isna(v) else f"{v:+.2f}"
        elif pd.api.types.is_float_dtype(table[column]):
            formatters[column] = lambda v: "" if pd.isna(v) else f"{v:.2f}"
    return table.to_string(index=False, formatters=formatters, na_rep="-")


def render(result: ReproResult) -> str:
    """Summary text, then the table: what the CLI prints and ``table4_output.txt`` holds."""
    return f"{result.summary}\n\n{format_table(result.table)}\n"


def outputs(result: ReproResult) -> dict[str, bytes]:
    """Every file of one run, by name, rendered in memory: ``<id>.csv`` (the table),
    ``<id>-<name>.csv`` for each further table (e.g. ``tests``), ``<id>.json`` (everything),
    ``<id>-runs.csv`` and ``<id>-runs.json`` (the tidy per-fit table, when
    ``details["runs"]`` exists) and ``<id>.txt`` (the printed text)."""
    payload = {
        "id": result.id,
        "title": result.title,
        "summary": result.summary,
        "table": json.loads(result.table.to_json(orient="records")),
        "details": result.details,
        "tables": {
            name: json.loads(frame.to_json(orient="records"))
            for name, frame in result.tables.items()
        },
    }
    files = {f"{result.id}.csv": result.table.to_csv(index=False).encode()}
    for name, frame in result.tables.items():
        files[f"{result.id}-{name}.csv"] = frame.to_csv(index=False).encode()
    files[f"{result.id}.json"] = json.dumps(payload, indent=2, default=str).encode()
    runs = result.details.get("runs")
    if runs:
        frame = pd.DataFrame(runs)
        records = json.loads(frame.replace({np.nan: None}).to_json(orient="records"))
        files[f"{result.id}-runs.csv"] = frame.to_csv(index=False).encode()
        files[f"{result.id}-runs.json"] = json.dumps(records, indent=1).encode()
    files[f"{result.id}.txt"] = render(result).encode()
    return files


def check_results_dir(results_dir: str | Path) -> Path:
    """Make sure results can be written into ``results_dir`` before any work is done.

    Creates the folder (and its parents) if missing, then creates and removes a temporary
    file in it: a path that is a file or a device (``/dev/null``), a parent that is a file, a
    read-only folder or file system all fail here, in seconds, rather than after the run.

    Raises
    ------
    OSError : with a one-line message that names the folder, the reason and the fix.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     check_results_dir(pathlib.Path(d) / "new" / "results").is_dir()
    True
    >>> check_results_dir("/dev/null")
    Traceback (most recent call last):
    ...
    NotADirectoryError: cannot write results to /dev/null: it exists and is not a folder; \
choose another results folder (--out)
    """
    out = Path(results_dir)
    fix = "choose another results folder (--out)"
    if out.exists() and not out.is_dir():
        msg = f"cannot write results to {out}: it exists and is not a folder; {fix}"
        raise NotADirectoryError(msg)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        msg = f"cannot write results to {out}: {reason}; {fix}"
        raise type(exc)(msg) from None
    return out


def write_all(result: ReproResult, results_dir: str | Path = "results") -> list[Path]:
    """Write every output of ``result`` (:func:`outputs`) into ``results_dir``, as one unit.

    All files are rendered first, then staged as temp files beside their targets, then
    renamed (:func:`olearn._io.atomic_write_many`): on a full disk or any error no previous
    file is replaced by a truncated one, and the set on disk is never a mix of two runs.
    """
    out = Path(results_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {out / name: data for name, data in outputs(result).items()}
    atomic_write_many(files)
    return list(files)
