"""Where the shards' epochs run: in this process (``client="serial"``) or on Dask workers.

A runner ``put``s the shards once (Dask: each scattered to one worker, where it stays across
epochs; only states travel afterwards) and ``run``s one epoch: ``timed_train_shard`` on every
shard, results in shard order.  A lost worker (its process killed, its shards gone) is
recovered once per epoch: the shards are scattered again and the epoch is rerun from the same
state; the epoch is deterministic (same state, same seeds), so the result is the one an
undisturbed run gives.  A second loss raises RuntimeError; the model is never mixed from a
partial epoch.
"""

from __future__ import annotations

from olearn.distributed import _dask_arrays
from olearn.distributed._shards import timed_train_shard, warm_worker


class SerialRunner:
    """Every shard in this process, one after the other."""

    n_workers = 1

    def put(self, shards) -> None:
        if isinstance(shards, _dask_arrays.DaskArrayPlan):
            shards = _dask_arrays.serial_shards(shards)
        self.shards = shards

    def classes(self, plan):
        return _dask_arrays.classes(plan)

    def warm(self, estimator) -> None:
        warm_worker(estimator)

    def run(self, estimator, states: list, classes, seeds: list) -> list:
        return [
            timed_train_shard(estimator, state, shard, classes, seed)
            for state, shard, seed in zip(states, self.shards, seeds)
        ]

    def close(self) -> None:
        pass


# Seconds a client that lists no worker is given for one to arrive (a worker being restarted
# by its nanny, or a cluster still starting) before the fit is refused.
WORKER_WAIT = 30.0


class DaskRunner:
    """Shards pinned to the workers of a ``distributed.Client`` (round robin)."""

    def __init__(self, client, owned_cluster=None):
        self.client, self.cluster = client, owned_cluster
        self.workers = sorted(client.scheduler_info()["workers"])
        if not self.workers:  # between workers (a nanny restarting one), or not yet started
            try:
                client.wait_for_workers(1, timeout=WORKER_WAIT)
            except TimeoutError:
                raise ValueError(
                    f"the Dask client has no workers (none arrived in {WORKER_WAIT:.0f} s)"
                ) from None
            self.workers = sorted(client.nthreads())  # the scheduler's own list
        self.n_workers = len(self.workers)

    def put(self, shards) -> None:
        """Each shard onto one worker: scattered from here, or, for a Dask array's chunks
        (a :class:`DaskArrayPlan`), assembled on the worker from the persisted chunks."""
        self.shards = shards
        self._scatter()

    def classes(self, plan):
        return _dask_arrays.classes(plan, self.client)

    def _scatter(self) -> None:
        self.workers = sorted(self.client.scheduler_info()["workers"])
        if isinstance(self.shards, _dask_arrays.DaskArrayPlan):
            self.futures, self.homes = _dask_arrays.cluster_shards(
                self.shards, self.client, self.workers
            )
            return
        self.homes = [self.workers[i % len(self.workers)] for i in range(len(self.shards))]
        self.futures = [
            self.client.scatter(shard, workers=[home], hash=False)
            for shard, home in zip(self.shards, self.homes)
        ]

    def warm(self, estimator) -> None:
        self.client.run(warm_worker, estimator)

    def _epoch(self, estimator, states, classes, seeds) -> list:
        shared = None
        homes = sorted(set(self.homes))
        if (
            states[0] is not None
            and len(states) > len(homes)
            and all(s is states[0] for s in states)
        ):
            # one start state for every shard, and a worker with several shards: sent to each
            # worker once, not once per shard (one shard per worker: in its task, as before,
            # which spares the scatter's round trip)
            shared = self.client.scatter([states[0]], workers=homes, broadcast=True, hash=False)
            states = [shared[0]] * len(states)
        futures = [
            self.client.submit(
                timed_train_shard,
                estimator,
                state,
                shard,
                classes,
                seed,
                workers=[home],
                pure=False,
            )
            for state, shard, seed, home in zip(states, self.futures, seeds, self.homes)
        ]
        try:
            return self.client.gather(futures)
        finally:
            if shared is not None:
                shared[0].release()

    def run(self, estimator, states: list, classes, seeds: list) -> list:
        try:
            return self._epoch(estimator, states, classes, seeds)
        except Exception as first:
            if isinstance(first, (ValueError, TypeError)):
                raise  # the work itself failed (bad data): not a lost worker
            try:
                self.client.wait_for_workers(1, timeout=60)
                self._scatter()
                self.warm(estimator)
                return self._epoch(estimator, states, classes, seeds)
            except Exception as second:
                raise RuntimeError(
                    f"an epoch failed twice on the Dask cluster ({type(first).__name__}: "
                    f"{first}; then {type(second).__name__}: {second}); no model was mixed "
                    "from a partial epoch"
                ) from second

    def close(self) -> None:
        for future in getattr(self, "futures", []):
            future.release()
        if self.cluster is not None:
            self.client.close()
            self.cluster.close()
