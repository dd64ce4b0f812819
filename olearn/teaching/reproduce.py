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


# Long runs start only on a click: a link may name them but never starts them.
LINK_STARTS = ("quick",)


def start_mode(clicked: str | None, previous: str | None, linked: str | None) -> str | None:
    """Which run to show: a click wins, then the run already shown, then a link's quick mode
    (a link's ``mode=full`` is only offered: the full run starts on a click).

    >>> start_mode(None, None, "full") is None, start_mode(None, None, "quick")
    (True, 'quick')
    >>> start_mode("full", None, "quick"), start_mode(None, "full", None)
    ('full', 'full')
    """
    if clicked:
        return clicked
    if previous:
        return previous
    return linked if linked in LINK_STARTS else None


def extra_tables(result: ReproResult) -> list[tuple[str, pd.DataFrame]]:
    """The result's further tables to show, claims first (``ReproResult.tables``)."""
    order = sorted(result.tables, key=lambda name: (name != "claims", name))
    return [(name, result.tables[name]) for name in order if len(result.tables[name])]


def numeric_pairs(result: ReproResult) -> pd.DataFrame:
    """The rows of the result's table with both a paper value and ours, as numbers (the last
    epochs only, when the table lists several)."""
    tab = result.table.copy()
    if "epochs" in tab:
        tab = tab[tab["epochs"] == tab["epochs"].max()]
    for col in ("paper", "ours"):
        tab[col] = pd.to_numeric(tab[col], errors="coerce")
    return tab.dropna(subset=["paper", "ours"])
