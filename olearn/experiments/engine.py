"""Run a list of independent experiment tasks serially, with joblib, or on a Dask cluster.

One function, :func:`run_tasks`, used by every protocol and reproduction: a task is a dict of
keyword arguments, the result list is in task order whatever the execution order, and each task
carries its own seed, so serial, joblib and Dask runs give identical results.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from olearn.experiments.reproduction import Progress

BACKENDS = ("loky", "threading", "dask")


def _call(fn: Callable, index: int, task: Mapping[str, Any]) -> tuple[int, Any]:
    """``(index, fn(**task))``: the index lets unordered completion be put back in order."""
    return index, fn(**task)


def _describe(task: Mapping[str, Any]) -> str:
    """A short progress message for a task: its scalar arguments, ``k=v`` joined."""
    parts = [f"{k}={v}" for k, v in task.items() if isinstance(v, str | int | float | bool)]
    return " ".join(parts)[:80]


def run_tasks(
    fn: Callable[..., Any],
    tasks: Iterable[Mapping[str, Any]],
    *,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: Any = None,
    progress: Progress | None = None,
    describe: Callable[[Mapping[str, Any]], str] | None = None,
) -> list:
    """Run ``fn(**task)`` for every task; return the results in task order.

    Parameters
    ----------
    fn : a module-level function (it is pickled for process backends).
    tasks : dicts of keyword arguments. Every task must carry everything it depends on,
        including its random seed: nothing may depend on the execution order.
    jobs : parallel workers. ``1`` with a joblib backend runs serially in this process;
        ``-1`` means all cores (joblib). For ``backend="dask"`` without a scheduler it is the
        number of workers of the local cluster started for this call.
    backend : ``"loky"`` (processes) or ``"threading"`` (joblib), or ``"dask"``.
    scheduler : only for ``"dask"``: a scheduler address (``"tcp://host:8786"``), an existing
        ``distributed.Client`` (used as is and left open), or None for a ``LocalCluster``
        with ``jobs`` single-threaded worker processes, closed at the end.
    progress : called as ``progress(done, total, message)`` each time a task completes (and
        once with ``done=0`` before the first).
    describe : ``describe(task) -> str``, the message passed to ``progress`` (default: the
        task's scalar arguments).

    Returns
    -------
    list : ``[fn(**task) for task in tasks]``, in that order.

    Raises
    ------
    ValueError : unknown backend, ``jobs == 0``, a task that is not a mapping.
    Any exception raised by ``fn`` is re-raised.

    Examples
    --------
    >>> def square(x, seed=0):
    ...     return x * x + seed
    >>> run_tasks(square, [{"x": 2}, {"x": 3, "seed": 1}])
    [4, 10]
    >>> run_tasks(square, [{"x": k} for k in range(4)], jobs=2, backend="threading")
    [0, 1, 4, 9]
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {BACKENDS}")
    if not isinstance(jobs, int) or jobs == 0 or jobs < -1:
        raise ValueError(f"jobs must be a positive integer or -1, got {jobs!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("a scheduler is only used with backend='dask'")
    tasks = list(tasks)
    for task in tasks:
        if not isinstance(task, Mapping):
            raise ValueError(f"every task must be a dict of keyword arguments, got {task!r}")
    describe = describe or _describe
    total = len(tasks)
    results: list[Any] = [None] * total
    if progress is not None:
        progress(0, total, "starting")
    if total == 0:
        return results

    def _done(done: int, index: int) -> None:
        if progress is not None:
            progress(done, total, describe(tasks[index]))

    if backend == "dask":
        _run_dask(fn, tasks, results, jobs, scheduler, _done)
    elif jobs == 1:
        for index, task in enumerate(tasks):
            results[index] = fn(**task)
            _done(index + 1, index)
    else:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=jobs, backend=backend, return_as="generator_unordered")
        stream = parallel(delayed(_call)(fn, i, task) for i, task in enumerate(tasks))
        for done, (index, value) in enumerate(stream, start=1):
            results[index] = value
            _done(done, index)
    return results


@dataclass(frozen=True)
class Execution:
    """Where and how a protocol's tasks run (see :func:`run_tasks` for each field).

    ``progress(done, total, message)`` is called as fits complete; :meth:`run` can shift
    ``done`` by ``offset`` and report a ``total`` of its own, so several batches of tasks
    show as one bar.
    """

    jobs: int = 1
    backend: str = "loky"
    scheduler: Any = None
    progress: Progress | None = None

    def run(
        self,
        fn: Callable[..., Any],
        tasks: list,
        *,
        describe: Callable[[Mapping[str, Any]], str] | None = None,
        offset: int = 0,
        total: int | None = None,
    ) -> list:
        """``run_tasks(fn, tasks, ...)`` with this execution's settings."""
        report = None
        if self.progress is not None:
            grand = total if total is not None else offset + len(tasks)

            def report(done: int, _total: int, message: str) -> None:
                if offset == 0 or done > 0:  # one "starting" call for the whole run
                    self.progress(offset + done, grand, message)

        return run_tasks(
            fn,
            tasks,
            jobs=self.jobs,
            backend=self.backend,
            scheduler=self.scheduler,
            progress=report,
            describe=describe,
        )


def _run_dask(fn, tasks, results, jobs, scheduler, done_callback) -> None:
    """Submit every task to a Dask cluster; fill ``results`` in task order."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as exc:  # pragma: no cover - dask is in requirements.txt
        raise ValueError("backend='dask' needs the 'distributed' package") from exc
    cluster = client = None
    if isinstance(scheduler, Client):
        client = scheduler
    elif scheduler is None:
        workers = jobs if jobs > 0 else None
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    elif isinstance(scheduler, str):
        client = Client(scheduler)
    else:
        raise ValueError(
            f"scheduler must be an address, a distributed.Client or None, got {scheduler!r}"
        )
    try:
        # pure=False: two identical tasks are still two runs (they may time themselves).
        futures = [
            client.submit(_call, fn, i, dict(task), pure=False) for i, task in enumerate(tasks)
        ]
        for done, future in enumerate(as_completed(futures), start=1):
            index, value = future.result()
            results[index] = value
            done_callback(done, index)
    finally:
        if client is not scheduler:
            client.close()
        if cluster is not None:
            cluster.close()
