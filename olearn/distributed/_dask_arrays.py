"""Shards from a Dask array of row chunks (``fit(X, y)`` with ``X`` a ``dask.array.Array``).

``X`` is row-chunked with one column chunk; its chunks are ``scipy.sparse`` matrices (any
format, made CSR) or dense ``numpy`` blocks (made CSR).  ``y`` is a 1-d Dask array whose
chunks align with ``X``'s row chunks, or a numpy array (split at ``X``'s row chunks).  The
chunks are grouped into ``n_shards`` contiguous runs; a shard keeps its chunks as separate
blocks, so its pass is the one of a store with the same chunks (shuffled: the chunks' order,
then each chunk's rows): a Dask-array fit equals the fit of one store per shard, exactly.

On a cluster the arrays are persisted (computed where the scheduler puts them), each shard is
assembled by a task on the worker that already holds most of its chunks, and the persisted
chunks are released: the data never travels to the driver, only ``np.unique`` of y does.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from olearn.distributed._shards import BlocksShard


def is_dask_array(X) -> bool:
    da = sys.modules.get("dask.array")
    return da is not None and isinstance(X, da.Array)


@dataclass
class DaskArrayPlan:
    """Which row chunks of ``X`` / ``y`` make each shard (built into shards by a runner)."""

    X: object
    y: object
    groups: list  # per shard: the chunk numbers, in order
    rows: list  # per shard: its rows

    def __len__(self) -> int:
        return len(self.groups)


def plan(X, y, n_shards: int) -> DaskArrayPlan:
    """Check ``X`` and ``y`` (ValueError with the fix) and group the chunks into shards."""
    import dask.array as da

    if X.ndim != 2:
        raise ValueError(f"X must be a 2-d Dask array, got {X.ndim} dimensions")
    rows, cols = X.chunks
    if any(np.isnan(c) for c in rows):
        raise ValueError("X has unknown chunk sizes: call X.compute_chunk_sizes() first")
    if len(cols) != 1:
        raise ValueError(
            f"X is chunked along its columns ({len(cols)} column chunks): olearn trains on "
            "whole rows; rechunk it to one column chunk, X.rechunk({1: -1})"
        )
    if y is None:
        raise ValueError("a Dask array X needs its labels y (a Dask or numpy array)")
    if is_dask_array(y):
        if y.ndim != 1:
            raise ValueError(f"y must be 1-d, got {y.ndim} dimensions")
        if y.chunks[0] != rows:
            raise ValueError(
                f"y's chunks {y.chunks[0]} do not align with X's row chunks {rows}: "
                "rechunk y, y.rechunk((X.chunks[0],))"
            )
    else:
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y has shape {y.shape}, X has {X.shape[0]} rows")
        y = da.from_array(y, chunks=(rows,))
    parts = np.array_split(np.arange(len(rows)), min(n_shards, len(rows)))
    groups = [p.tolist() for p in parts]
    return DaskArrayPlan(X, y, groups, [int(sum(rows[i] for i in g)) for g in groups])


def block(X, y) -> tuple:
    """One chunk as ``(CSR float64, y)``; ValueError for what it cannot be."""
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
    elif isinstance(X, np.ndarray) and X.ndim == 2:
        X = sp.csr_matrix(X.astype(np.float64, copy=False))
    else:
        raise ValueError(
            f"a chunk of X is a {type(X).__module__}.{type(X).__name__}: olearn takes "
            "scipy.sparse or numpy chunks"
        )
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"a chunk of y has shape {y.shape} for {X.shape[0]} rows of X")
    return X, y


def blocks_shard(xs: list, ys: list) -> BlocksShard:
    """A shard of the given chunks (runs where they are, on a worker or in-process)."""
    return BlocksShard([block(a, b) for a, b in zip(xs, ys)])


def classes(p: DaskArrayPlan, client=None) -> np.ndarray:
    import dask.array as da

    unique = da.unique(p.y)
    if client is None:
        return np.asarray(unique.compute(scheduler="sync"))
    return np.asarray(client.compute(unique).result())


def serial_shards(p: DaskArrayPlan) -> list:
    """Every shard built in this process (the synchronous scheduler)."""
    import dask

    xs = p.X.to_delayed().ravel().tolist()
    ys = p.y.to_delayed().ravel().tolist()
    out = []
    for g in p.groups:
        got = dask.compute([xs[i] for i in g], [ys[i] for i in g], scheduler="sync")
        out.append(blocks_shard(*got))
    return out


def cluster_shards(p: DaskArrayPlan, client, workers: list) -> tuple[list, list]:
    """``(futures, homes)``: each shard assembled on a worker (the shards spread evenly over
    the workers; among the least loaded, the one holding most of the shard's chunks)."""
    from distributed import futures_of, wait

    X, y = client.persist([p.X, p.y])
    by_key = {f.key: f for f in futures_of(X) + futures_of(y)}
    xkeys, ykeys = [k[0] for k in X.__dask_keys__()], list(y.__dask_keys__())
    wait(list(by_key.values()))  # computed, so that where each chunk is is known
    who = client.who_has([by_key[k] for k in xkeys])
    load = {w: 0 for w in workers}
    futures, homes = [], []
    for n, group in enumerate(p.groups):
        held = {w: sum(w in who.get(xkeys[i], ()) for i in group) for w in workers}
        least = min(load.values())
        order = workers[n % len(workers) :] + workers[: n % len(workers)]
        home = max((w for w in order if load[w] == least), key=lambda w: held[w])
        load[home] += 1
        xs, ys = [by_key[xkeys[i]] for i in group], [by_key[ykeys[i]] for i in group]
        futures.append(client.submit(blocks_shard, xs, ys, workers=[home], pure=False))
        homes.append(home)
    wait(futures)
    for future in futures:
        if future.status == "error":
            future.result()  # raises the chunk's ValueError here
    del by_key, X, y  # the shards hold their chunks: release the persisted arrays
    return futures, homes
