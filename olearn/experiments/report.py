"""Print and save a reproduction's results: the paper-vs-ours table and the tidy per-fit runs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

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


def write_all(result: ReproResult, results_dir: str | Path = "results") -> list[Path]:
    """``ReproResult.write`` plus, when ``details["runs"]`` exists, the tidy per-fit table as
    ``<id>-runs.csv`` and ``<id>-runs.json`` (dataset, algorithm, params, fold, error, train
    time, updates...), and the printed text as ``<id>.txt``."""
    paths = result.write(results_dir)
    out = Path(results_dir)
    runs = result.details.get("runs")
    if runs:
        frame = pd.DataFrame(runs)
        csv_path, json_path = out / f"{result.id}-runs.csv", out / f"{result.id}-runs.json"
        frame.to_csv(csv_path, index=False)
        records = json.loads(frame.replace({np.nan: None}).to_json(orient="records"))
        json_path.write_text(json.dumps(records, indent=1))
        paths += [csv_path, json_path]
    txt = out / f"{result.id}.txt"
    txt.write_text(render(result))
    return [*paths, txt]
