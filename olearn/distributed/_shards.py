"""Shards and the work one shard does in one epoch (runs on a worker, or in-process).

A shard yields ``(X, y)`` batches in its order: :class:`ArrayShard` one CSR block held in
memory (scattered to its worker once), :class:`StoreShard` a run of a store's chunks (only
its path and chunk numbers travel; the worker memory-maps them), :class:`BlocksShard` a run of
a Dask array's chunks (assembled on its worker).  With a seed, a shard's pass is shuffled:
the chunks' order, then each batch's rows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import clone


@dataclass
class ArrayShard:
    X: object  # CSR matrix
    y: np.ndarray

    @property
    def n_rows(self) -> int:
        return int(self.y.shape[0])

    def batches(self, rng):
        if rng is None:
            yield self.X, self.y
        else:
            order = rng.permutation(self.n_rows)
            yield self.X[order], self.y[order]


def _chunked(chunks: list, read, rng):
    """``read(c)`` for every chunk (shuffled: the chunks' order, then each chunk's rows)."""
    for i in chunks if rng is None else [chunks[j] for j in rng.permutation(len(chunks))]:
        X, y = read(i)
        if rng is not None:
            order = rng.permutation(X.shape[0])
            X, y = X[order], y[order]
        yield X, y


@dataclass
class BlocksShard:
    blocks: list  # [(CSR, y)], in row order

    @property
    def n_rows(self) -> int:
        return int(sum(y.shape[0] for _, y in self.blocks))

    def batches(self, rng):
        yield from _chunked(self.blocks, lambda b: b, rng)


@dataclass
class StoreShard:
    path: str
    chunk_ids: list
    n_rows: int
    _store: object = field(default=None, repr=False, compare=False)

    def __getstate__(self):
        return {"path": self.path, "chunk_ids": self.chunk_ids, "n_rows": self.n_rows}

    def __setstate__(self, state):
        self.__init__(**state)

    def batches(self, rng):
        from olearn.datasets.store import open_store

        if self._store is None:
            self._store = open_store(self.path)
        yield from _chunked(list(self.chunk_ids), self._store.chunk, rng)


def train_shard(estimator, state, shard, classes, seed):
    """One epoch of a copy of ``estimator`` over ``shard`` from ``state`` (None: a fresh
    model, every class declared before the first row, as ``fit``); returns ``(state, updates
    made)``, or None for an empty shard."""
    if shard.n_rows == 0:
        return None
    model = clone(estimator)
    first = state is None
    if not first:
        model.set_state(state)
    before = 0 if first else int(state["n_updates"])
    rng = None if seed is None else np.random.default_rng(seed)
    for X, y in shard.batches(rng):
        model.partial_fit(X, y, classes=classes if first else None)
        first = False
    return model.get_state(), int(model.n_updates_) - before


def timed_train_shard(estimator, state, shard, classes, seed):
    """:func:`train_shard` and its seconds on the worker: ``(state, updates, seconds)``."""
    start = time.perf_counter()
    out = train_shard(estimator, state, shard, classes, seed)
    return None if out is None else (*out, time.perf_counter() - start)


def warm_worker(estimator) -> bool:
    """Compile the kernels a shard's ``partial_fit`` uses (CSR rows, int32 indices, writable
    and read-only), once per worker process, before the first epoch, on the warm-up's tiny
    problem (:func:`olearn._warmup.problem`)."""
    import scipy.sparse as sp

    from olearn._warmup import problem

    X, y = problem(3, np.random.default_rng(0))
    clone(estimator).partial_fit(sp.csr_matrix(X), y, classes=np.unique(y))
    # and over read-only arrays, as a store's memory-mapped chunks are when a pass is not
    # shuffled (another kernel signature: compiled or loaded here, not in the first epoch)
    X = sp.csr_matrix(X)
    for part in (X.data, X.indices, X.indptr):
        part.setflags(write=False)
    clone(estimator).partial_fit(X, y, classes=np.unique(y))
    return True
