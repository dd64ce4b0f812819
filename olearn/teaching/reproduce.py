"""The Reproduce page: the registered reproductions, each run through its own module
(``olearn.experiments.reproduction``), quick by default."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

import pandas as pd

from olearn.experiments.reproduction import REPRODUCTIONS, ReproResult, reproduction


def catalogue() -> pd.DataFrame:
    """id, title, seed and whether its module exists in this build.

    >>> "matsushima-table4" in catalogue()["id"].tolist()
    True
    """
    rows = []
    for id_, module in REPRODUCTIONS.items():
        present = importlib.util.find_spec(module) is not None
        title = seed = ""
        if present:
            mod = reproduction(id_)
            title, seed = getattr(mod, "TITLE", ""), getattr(mod, "SEED", "")
        rows.append({"id": id_, "title": title, "seed": seed, "available": present})
    return pd.DataFrame(rows)


def run(id_: str, quick: bool = True, progress: Callable | None = None) -> ReproResult:
    """Run reproduction ``id_`` (``progress(done, total, message)``); a clear error when the
    module is not in this build or its data is missing."""
    if id_ not in REPRODUCTIONS:
        raise ValueError(f"unknown reproduction {id_!r}; known: {sorted(REPRODUCTIONS)}")
    if importlib.util.find_spec(REPRODUCTIONS[id_]) is None:
        raise ValueError(f"the reproduction {id_!r} is not implemented in this build yet")
    return reproduction(id_).run(quick=bool(quick), progress=progress)


def numeric_pairs(result: ReproResult) -> pd.DataFrame:
    """The rows of the result's table with both a paper value and ours, as numbers."""
    tab = result.table.copy()
    for col in ("paper", "ours"):
        tab[col] = pd.to_numeric(tab[col], errors="coerce")
    return tab.dropna(subset=["paper", "ours"])
