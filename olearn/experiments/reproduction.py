"""The contract every paper reproduction follows, and the table of reproduction IDs.

A reproduction is a module with ``ID``, ``TITLE``, ``SEED`` and
``run(*, quick=False, jobs=1, progress=None, **options) -> ReproResult``.  ``progress``, when
given, is called as ``progress(done, total, message)`` (the CLI turns it into tqdm, the app
into a progress bar).  Modules are imported only when run, so listing IDs is cheap (no
pandas, no scikit-learn: ``olearn list``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a result's tables are DataFrames; the table of IDs needs no pandas
    import pandas as pd

Progress = Callable[[int, int, str], None]

# ID -> module implementing it.
REPRODUCTIONS: dict[str, str] = {
    "matsushima-table4": "olearn.experiments.table4",
    "matsushima-digits": "olearn.experiments.table4_digits",  # embedded data: runs offline
    "cw-family-claims": "olearn.experiments.cw_claims",
    "pcvm-lambda": "olearn.experiments.pcvm_lambda",
    "ono-sgd-figure1": "olearn.experiments.sgd_figure1",
}

# Experiments that are not a paper's table (run the same way, not on the Reproduce page).
EXPERIMENTS: dict[str, str] = {
    "store-compare": "olearn.experiments.store_compare",
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


def reproduction(id_: str):
    """The module implementing reproduction (or experiment) ``id_``."""
    known = {**REPRODUCTIONS, **EXPERIMENTS}
    if id_ not in known:
        raise KeyError(f"unknown reproduction {id_!r}; known: {sorted(known)}")
    return importlib.import_module(known[id_])
