"""The Compare page's store mode: learners streamed from an out-of-core store.

The stores offered are the folders under ``$OLEARN_DATA/stores`` holding a store's manifest
(``olearn store convert FILE $OLEARN_DATA/stores/NAME`` makes one).  The comparison itself is
:mod:`olearn.experiments.store_compare` (held-out last fifth of the chunks, one chunk in
memory); this module finds the stores and turns what can go wrong into a ValueError.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from olearn import registry

STORES = "stores"


def store_root(data_home: str | os.PathLike | None = None) -> Path:
    """``$OLEARN_DATA/stores`` (or ``data_home``'s)."""
    from olearn.datasets._paths import data_home as home

    return home(data_home) / STORES


def find_stores(root: str | os.PathLike | None = None) -> list[str]:
    """The names of the folders under ``root`` (default :func:`store_root`) that hold a
    store's manifest, sorted (a folder that is not readable is skipped)."""
    from olearn.datasets.store import MANIFEST

    root = Path(root) if root is not None else store_root()
    try:
        return sorted(p.name for p in root.iterdir() if (p / MANIFEST).is_file())
    except OSError:
        return []


def online_keys(keys) -> list[str]:
    """The keys among ``keys`` whose estimator streams a store (an online olearn estimator,
    averaged variants and SGD-SVM included; the batch solvers need every row in memory).

    >>> online_keys(["pa1", "pa1-avg", "sgd-svm", "cs-svm", "maxent"])
    ['pa1', 'pa1-avg', 'sgd-svm']
    """
    from olearn.estimators.base import OnlineClassifier

    known = set(registry.keys(averaged=True))
    return [
        k
        for k in keys
        if k in known and issubclass(registry.get(k).estimator_class, OnlineClassifier)
    ]


def compare_on_store(
    path: str | os.PathLike,
    algorithms,
    epochs: int = 1,
    seed: int = 0,
    progress: Callable[[float, str], None] | None = None,
) -> tuple[pd.DataFrame, str]:
    """``(table, note)``: each learner streamed from the store at ``path`` and scored on its
    last fifth of chunks.  ValueError (with the reason) for a folder that is not a complete,
    undamaged store, or for no algorithm."""
    from olearn.experiments.store_compare import compare, split

    algorithms = online_keys(algorithms)
    if not algorithms:
        raise ValueError("choose at least one online algorithm (the batch ones need memory)")
    train, test = split(Path(path))

    def step(done: int, total: int, message: str) -> None:
        if progress is not None:
            progress(done / max(total, 1), message)

    table = compare(train, test, algorithms, epochs, seed, step)
    note = (
        f"{train.n_rows:,} training rows ({len(train.ids)} chunks), {test.n_rows:,} held-out "
        f"rows (the last {len(test.ids)} chunks), {train.store.n_features:,} features"
    )
    return table.drop(columns="key"), note
