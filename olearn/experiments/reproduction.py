"""The contract every paper reproduction follows, and the table of reproduction IDs.

A reproduction is a module with ``ID``, ``TITLE``, ``SEED`` and
``run(*, quick=False, jobs=1, progress=None, **options) -> ReproResult``.  ``progress``, when
given, is called as ``progress(done, total, message)`` (the CLI turns it into tqdm, the app
into a progress bar).  Modules are imported only when run, so listing IDs is cheap.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

Progress = Callable[[int, int, str], None]

# ID -> module implementing it.
REPRODUCTIONS: dict[str, str] = {
    "matsushima-table4": "olearn.experiments.table4",
    "cw-family-claims": "olearn.experiments.cw_claims",
    "pcvm-lambda": "olearn.experiments.pcvm_lambda",
    "ono-sgd-figure1": "olearn.experiments.sgd_figure1",
}


@dataclass
class ReproResult:
    """What a reproduction returns.

    Attributes
    ----------
    id, title : the reproduction.
    table : one row per table cell; at least the columns ``dataset``, ``algorithm``,
        ``paper`` (the seed's value, NaN where the paper has none) and ``ours``, in the
        paper's unit (e.g. error in %).
    summary : the printed text: setup, the choices made where the paper is silent, verdicts.
    details : anything else worth keeping (curves, timings, per-fold rows) as JSON-able data.
    tables : further tables, each written as ``<id>-<name>.csv`` (e.g. ``tests``).
    """

    id: str
    title: str
    table: pd.DataFrame
    summary: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)

    def write(self, results_dir: str | Path = "results") -> list[Path]:
        """Write ``<dir>/<id>.csv`` (the table), ``<dir>/<id>-<name>.csv`` for each further
        table and ``<dir>/<id>.json`` (everything)."""
        out = Path(results_dir)
        out.mkdir(parents=True, exist_ok=True)
        csv_path = out / f"{self.id}.csv"
        self.table.to_csv(csv_path, index=False)
        extra = []
        for name, frame in self.tables.items():
            extra.append(out / f"{self.id}-{name}.csv")
            frame.to_csv(extra[-1], index=False)
        json_path = out / f"{self.id}.json"
        payload = {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "table": json.loads(self.table.to_json(orient="records")),
            "details": self.details,
            "tables": {
                name: json.loads(frame.to_json(orient="records"))
                for name, frame in self.tables.items()
            },
        }
        json_path.write_text(json.dumps(payload, indent=2, default=str))
        return [csv_path, *extra, json_path]


def reproduction(id_: str):
    """The module implementing reproduction ``id_``."""
    if id_ not in REPRODUCTIONS:
        raise KeyError(f"unknown reproduction {id_!r}; known: {sorted(REPRODUCTIONS)}")
    return importlib.import_module(REPRODUCTIONS[id_])
