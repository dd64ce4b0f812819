"""Compare online learners on a store (``olearn reproduce store-compare --store PATH``).

Not a paper's table: the experiment the out-of-core store is for.  Every learner streams the
training store, ``epochs`` passes with one chunk in memory (:mod:`olearn.estimators._stream`),
and is scored chunk by chunk on the test rows: a second store (``test_store``), else the
training store's last fifth of chunks (at least one), held out.  Reported per learner: the test
error (%), the training time and rows/s.

Choices: the registry's default hyper-parameters (no C tuning: tuning needs several passes
per candidate, the cost a store is meant to avoid), ``shuffle=True`` seeded by ``seed`` (the
chunks' order, then each chunk's rows), every class of the store declared before the first
row.  ``quick``: one epoch over at most the first four training chunks.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from olearn.experiments.reproduction import Progress, ReproResult

ID = "store-compare"
TITLE = "Online learners compared on an out-of-core store"
SEED = ""
DEFAULT_ALGORITHMS = ("perceptron", "pa1", "spa1", "arow")
QUICK_CHUNKS = 4


@dataclass
class ChunkRun:
    """Some of a store's chunks, read as a stream (what ``fit(store)`` needs)."""

    store: object
    ids: list
    progress: bool = False

    @property
    def n_rows(self) -> int:
        return int(sum(self.store.manifest["chunks"][i]["rows"] for i in self.ids))

    @property
    def classes(self) -> np.ndarray:
        return self.store.classes

    @property
    def n_features(self) -> int:
        return int(self.store.n_features)

    def chunk(self, i: int):
        return self.store.chunk(self.ids[i])

    def chunks(self, progress=None):
        for i in range(len(self.ids)):
            yield self.chunk(i)

    def chunk_order(self, rng) -> np.ndarray:
        n = len(self.ids)
        return np.arange(n) if rng is None else rng.permutation(n)


def store_algorithms() -> list[str]:
    """Registry keys of the algorithms that train from a store: those whose estimator streams
    one (``learn_stream``): the online learners, SGD-SVM and the averaged variants; not the
    batch learners (Crammer-Singer SVM, PCVM), which need every row in memory."""
    from olearn import registry

    return [
        key
        for key in registry.keys(averaged=True)
        if hasattr(registry.get(key).estimator_class, "learn_stream")
    ]


def check_store_algorithms(keys: Sequence[str]) -> list[str]:
    """``keys`` as registry keys, or ValueError naming the one that cannot train from a store
    and listing those that can."""
    from olearn import registry

    streaming = store_algorithms()
    out = []
    for key in keys:
        try:
            spec = registry.get(key)
        except KeyError:
            spec = None
        if spec is None or spec.key not in streaming:
            what = "unknown" if spec is None else "a batch algorithm (it needs every row in memory)"
            plain = [k for k in streaming if not k.endswith("-avg")]
            raise ValueError(
                f"{key!r} is {what}; store commands take online algorithms: "
                f"{', '.join(plain)} (and their averaged '-avg' variants)"
            )
        out.append(spec.key)
    return out


def split(store, test_store=None, quick: bool = False) -> tuple[ChunkRun, ChunkRun]:
    """``(train, test)`` streams: the whole store and ``test_store``, or the store's first
    four fifths of chunks and the rest (ValueError for a one-chunk store without a test)."""
    from olearn.datasets.store import open_store

    store = open_store(store) if isinstance(store, (str, Path)) else store
    ids = list(range(store.n_chunks))
    if test_store is not None:
        test = open_store(test_store) if isinstance(test_store, (str, Path)) else test_store
        if test.n_features != store.n_features:
            raise ValueError(
                f"the test store has {test.n_features} features, the training store "
                f"{store.n_features}"
            )
        train, held = ChunkRun(store, ids), ChunkRun(test, list(range(test.n_chunks)))
    else:
        if store.n_chunks < 2:
            raise ValueError(
                f"{store.path} has one chunk: give a test store, or convert it again with "
                "a smaller chunk size so that some chunks can be held out"
            )
        n_test = max(1, math.ceil(store.n_chunks / 5))
        train, held = ChunkRun(store, ids[:-n_test]), ChunkRun(store, ids[-n_test:])
    if quick:
        train = ChunkRun(train.store, train.ids[:QUICK_CHUNKS])
    return train, held


def error_rate(model, test: ChunkRun) -> float:
    """Error (%) over the test chunks, one chunk in memory."""
    wrong = 0
    for X, y in test.chunks():
        wrong += int(np.sum(model.predict(X) != y))
    return 100.0 * wrong / max(test.n_rows, 1)


def compare(
    train: ChunkRun,
    test: ChunkRun,
    algorithms: Sequence[str],
    epochs: int = 1,
    seed: int = 0,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """One row per learner: ``algorithm``, ``key``, ``error %``, ``train s``, ``rows/s``."""
    from olearn import registry

    rows = []
    for n, key in enumerate(algorithms):
        spec = registry.get(key)
        if progress is not None:
            progress(n, len(algorithms), spec.name)
        model = spec.make(epochs=int(epochs), random_state=int(seed))
        start = time.perf_counter()
        model.fit(train)
        seconds = time.perf_counter() - start
        rows.append(
            {
                "algorithm": spec.name,
                "key": key,
                "error %": error_rate(model, test),
                "train s": seconds,
                "rows/s": train.n_rows * int(epochs) / seconds if seconds > 0 else np.nan,
            }
        )
    if progress is not None:
        progress(len(algorithms), len(algorithms), "done")
    return pd.DataFrame(rows)


def check_options(options: dict) -> None:
    """The CLI's check of this reproduction's options before any work (``--algorithms``)."""
    if options.get("algorithms"):
        check_store_algorithms(options["algorithms"])


def run(
    *,
    quick: bool = False,
    jobs: int = 1,
    progress: Progress | None = None,
    store=None,
    test_store=None,
    algorithms: Sequence[str] | None = None,
    epochs: int | None = None,
    seed: int | None = None,
) -> ReproResult:
    """The comparison on ``store`` (``jobs`` is accepted and unused: the learners run one
    after the other, each streaming the store)."""
    if store is None:
        raise ValueError("store-compare needs a store: --store PATH (see `olearn store convert`)")
    if isinstance(epochs, tuple):
        epochs = max(epochs)
    epochs = 1 if quick else (epochs or 1)
    seed = 0 if seed is None else seed
    algorithms = check_store_algorithms(algorithms or DEFAULT_ALGORITHMS)
    train, test = split(store, test_store, quick)
    table = compare(train, test, algorithms, epochs, seed, progress)
    name = Path(train.store.path).name
    table.insert(0, "dataset", name)
    table.insert(2, "paper", np.nan)
    table.insert(3, "ours", table.pop("error %"))
    where = (
        f"test store {Path(test.store.path)} ({test.n_rows:,} rows)"
        if test_store is not None
        else f"held out: the last {len(test.ids)} of {train.store.n_chunks} chunks "
        f"({test.n_rows:,} rows)"
    )
    summary = (
        f"{TITLE}: {name}, {train.n_rows:,} training rows in {len(train.ids)} chunks x "
        f"{train.store.n_features:,} features; {where}.  {epochs} epoch(s), shuffled chunks "
        f"then rows (seed {seed}), registry defaults, no tuning.  'ours' is the test error "
        "(%); there is no paper column.\n"
    )
    details = {"train_rows": train.n_rows, "test_rows": test.n_rows, "epochs": epochs}
    return ReproResult(ID, TITLE, table, summary=summary, details=details)
