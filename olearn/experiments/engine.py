"""Run a list of independent experiment tasks serially, with joblib, or on a Dask cluster.

One function, :func:`run_tasks`, used by every protocol and reproduction: a task is a dict of
keyword arguments, the result list is in task order whatever the execution order, and each task
carries its own seed, so serial, joblib and Dask runs give identical results.

Workers are a bounded resource: a local pool never has more workers than the CPUs this process
may use (:func:`worker_count`), and a call's worker processes end before the call returns,
whether it succeeds, fails or is interrupted.  A Dask scheduler that has no worker within
``scheduler_timeout`` seconds is an error, not an endless wait at 0 %.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from olearn.experiments.reproduction import Progress

BACKENDS = ("loky", "threading", "dask")
SCHEDULER_TIMEOUT = 30.0  # seconds to wait for a Dask scheduler to answer and have a worker


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity mask, not the machine's total).

    ``os.process_cpu_count`` (Python 3.13+), else ``os.sched_getaffinity`` (Linux), else
    ``os.cpu_count()``; at least 1.
    """
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        return max(1, counter() or 1)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def worker_count(jobs: int) -> int:
    """Local workers for ``jobs``: ``-1`` means every CPU, and more than the CPUs are capped.

    More processes than CPUs only share the same cores (a ``--jobs 1000`` on two cores once
    started ~830 processes and ran minutes instead of seconds).

    >>> worker_count(1)
    1
    >>> worker_count(10**6) == worker_count(-1) == cpu_count()
    True
    """
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs == 0 or jobs < -1:
        raise ValueError(f"jobs must be a positive integer or -1, got {jobs!r}")
    cpus = cpu_count()
    return cpus if jobs == -1 else min(jobs, cpus)


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
    scheduler_timeout: float = SCHEDULER_TIMEOUT,
) -> list:
    """Run ``fn(**task)`` for every task; return the results in task order.

    Parameters
    ----------
    fn : a module-level function (it is pickled for process backends).
    tasks : dicts of keyword arguments. Every task must carry everything it depends on,
        including its random seed: nothing may depend on the execution order.
    jobs : parallel workers. ``1`` with a joblib backend runs serially in this process;
        ``-1`` means all CPUs. Local workers (joblib, or the Dask ``LocalCluster`` started
        without a scheduler) are capped at :func:`worker_count`; the processes of a
        ``"loky"`` pool end before this function returns or raises.
    backend : ``"loky"`` (processes) or ``"threading"`` (joblib), or ``"dask"``.
    scheduler : only for ``"dask"``: a scheduler address (``"tcp://host:8786"``), an existing
        ``distributed.Client`` (used as is and left open), or None for a ``LocalCluster``
        with ``jobs`` single-threaded worker processes, closed at the end.
    progress : called as ``progress(done, total, message)`` each time a task completes (and
        once with ``done=0`` before the first).
    describe : ``describe(task) -> str``, the message passed to ``progress`` (default: the
        task's scalar arguments).
    scheduler_timeout : only for ``"dask"``: seconds to wait for the scheduler to answer and
        to have at least one worker; beyond, :class:`TimeoutError`.

    Returns
    -------
    list : ``[fn(**task) for task in tasks]``, in that order.

    Raises
    ------
    ValueError : unknown backend, ``jobs == 0``, a task that is not a mapping.
    TimeoutError : a Dask scheduler unreachable, or without workers, for ``scheduler_timeout``.
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
    workers = worker_count(jobs)
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
        _run_dask(
            fn, tasks, results, min(workers, total), scheduler, _done, timeout=scheduler_timeout
        )
    elif workers == 1 or total == 1:
        for index, task in enumerate(tasks):
            results[index] = fn(**task)
            _done(index + 1, index)
    else:
        _run_joblib(fn, tasks, results, min(workers, total), backend, _done)
    return results


def _run_joblib(fn, tasks, results, workers, backend, done_callback) -> None:
    """Run the tasks on ``workers`` joblib workers; fill ``results`` in task order.

    joblib keeps its loky worker processes alive for reuse (5 minutes idle); this call owns
    its workers instead: they are shut down when it ends, and killed when it fails or is
    interrupted (Ctrl-C), so no process outlives the run that started it.
    """
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=workers, backend=backend, return_as="generator_unordered")
    stream = parallel(delayed(_call)(fn, i, task) for i, task in enumerate(tasks))
    finished = False
    try:
        for done, (index, value) in enumerate(stream, start=1):
            results[index] = value
            done_callback(done, index)
        finished = True
    finally:
        with warnings.catch_warnings():  # on an error: joblib cancels the tasks not started
            warnings.simplefilter("ignore", UserWarning)  # ("... have been cancelled")
            stream.close()
        if backend == "loky":
            _shutdown_loky(kill=not finished)


def _shutdown_loky(kill: bool) -> None:
    """End the worker processes of joblib's loky pool (joblib's ``Parallel`` uses loky's
    process-wide reusable executor; ``reuse=True`` returns it as it is)."""
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor(reuse=True).shutdown(wait=True, kill_workers=kill)


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
    scheduler_timeout: float = SCHEDULER_TIMEOUT

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
            scheduler_timeout=self.scheduler_timeout,
        )


def connect(address: str, timeout: float = SCHEDULER_TIMEOUT):
    """A ``distributed.Client`` on the scheduler at ``address`` that has at least one worker.

    Raises
    ------
    TimeoutError : the scheduler does not answer, or has no worker, within ``timeout``
        seconds; the message names the address and says how to fix it.
    """
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - dask is in requirements.txt
        raise ValueError("backend='dask' needs the 'distributed' package") from exc
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        msg = (
            f"no Dask scheduler answered at {address} within {timeout:g} s ({exc}); "
            "check the address, or start one with `dask scheduler`"
        )
        raise TimeoutError(msg) from None
    try:
        _wait_for_a_worker(client, timeout, where=f"the Dask scheduler at {address}")
    except BaseException:
        client.close()
        raise
    return client


def _wait_for_a_worker(client, timeout: float, where: str) -> None:
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        msg = (
            f"{where} has no worker after {timeout:g} s, so no task can run; start "
            f"workers (`dask worker {client.scheduler.address}`) or wait longer "
            "(--scheduler-timeout)"
        )
        raise TimeoutError(msg) from None


def _run_dask(fn, tasks, results, workers, scheduler, done_callback, *, timeout) -> None:
    """Submit every task to a Dask cluster; fill ``results`` in task order."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError as exc:  # pragma: no cover - dask is in requirements.txt
        raise ValueError("backend='dask' needs the 'distributed' package") from exc
    cluster = client = scratch = None
    if isinstance(scheduler, Client):
        client = scheduler
        _wait_for_a_worker(client, timeout, where="the Dask client's scheduler")
    elif scheduler is None:
        # the cluster's scratch folder is ours, removed with it (Dask's default,
        # $TMPDIR/dask-scratch-space, stays behind)
        scratch = tempfile.TemporaryDirectory(prefix="olearn-dask-")
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            local_directory=scratch.name,
        )
        client = Client(cluster)
    elif isinstance(scheduler, str):
        client = connect(scheduler, timeout)
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
        if scratch is not None:
            scratch.cleanup()
