"""run_tasks: task order, backends (serial, joblib, Dask), progress, errors."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from olearn.experiments.engine import cpu_count, run_tasks, worker_count


def seeded_draw(seed: int, n: int = 3, delay: float = 0.0) -> list[float]:
    """A task whose result depends only on its own seed (module level: picklable)."""
    time.sleep(delay)
    return np.random.default_rng(seed).standard_normal(n).tolist()


def failing(x: int) -> int:
    if x == 2:
        raise RuntimeError("task 2 failed")
    return x


TASKS = [{"seed": s, "n": 2} for s in range(6)]
EXPECTED = [np.random.default_rng(s).standard_normal(2).tolist() for s in range(6)]


def test_serial_is_task_order():
    assert run_tasks(seeded_draw, TASKS) == EXPECTED


@pytest.mark.parametrize("backend", ["threading", "loky"])
def test_joblib_backends_give_the_serial_results(backend):
    assert run_tasks(seeded_draw, TASKS, jobs=2, backend=backend) == EXPECTED


def test_out_of_order_completion_is_put_back_in_order():
    # the first tasks sleep longest, so they finish last on two threads
    tasks = [{"seed": s, "delay": 0.05 * (4 - s)} for s in range(4)]
    messages = []
    out = run_tasks(
        seeded_draw, tasks, jobs=2, backend="threading", progress=lambda d, t, m: messages.append(m)
    )
    assert out == [np.random.default_rng(s).standard_normal(3).tolist() for s in range(4)]
    # completion order differed from task order (else this test would not test ordering)
    assert messages[1:] != [f"seed={s} delay={0.05 * (4 - s)}" for s in range(4)]


def test_dask_local_cluster_in_process():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            assert run_tasks(seeded_draw, TASKS, backend="dask", scheduler=client) == EXPECTED
            # an address works too (a new client on the same scheduler)
            address = cluster.scheduler_address
            out = run_tasks(seeded_draw, TASKS[:2], backend="dask", scheduler=address)
            assert out == EXPECTED[:2]


def test_dask_default_local_cluster_with_processes():
    pytest.importorskip("distributed")
    calls = []
    out = run_tasks(
        seeded_draw, TASKS, jobs=2, backend="dask", progress=lambda d, t, m: calls.append((d, t))
    )
    assert out == EXPECTED
    assert calls[0] == (0, 6) and calls[-1] == (6, 6)


@pytest.mark.parametrize("jobs,backend", [(1, "loky"), (2, "threading")])
def test_progress_counts_every_task(jobs, backend):
    calls = []
    run_tasks(
        seeded_draw,
        TASKS,
        jobs=jobs,
        backend=backend,
        progress=lambda d, t, m: calls.append((d, t, m)),
    )
    assert [c[0] for c in calls] == list(range(7))
    assert {c[1] for c in calls} == {6}
    assert all(isinstance(c[2], str) for c in calls)


def test_empty_task_list():
    calls = []
    assert run_tasks(seeded_draw, [], progress=lambda *a: calls.append(a)) == []
    assert calls == [(0, 0, "starting")]


@pytest.mark.parametrize("jobs,backend", [(1, "loky"), (2, "threading"), (2, "loky")])
def test_task_exceptions_propagate(jobs, backend):
    with pytest.raises(RuntimeError, match="task 2 failed"):
        run_tasks(failing, [{"x": i} for i in range(4)], jobs=jobs, backend=backend)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"backend": "spark"}, "unknown backend"),
        ({"jobs": 0}, "jobs"),
        ({"jobs": -3}, "jobs"),
        ({"scheduler": "tcp://x:1"}, "only used with backend='dask'"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        run_tasks(seeded_draw, TASKS, **kwargs)


def test_task_must_be_a_mapping():
    with pytest.raises(ValueError, match="dict of keyword arguments"):
        run_tasks(seeded_draw, [3])


def own_pid(seed: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def _worker_children() -> list[int]:
    """Live loky workers under this process (loky's resource tracker excepted: a singleton
    that ends with this process)."""
    from tests import leftovers

    me = os.getpid()
    return [
        int(e.name)
        for e in Path("/proc").iterdir()
        if e.name.isdigit()
        and me in leftovers._ancestors(int(e.name)) - {int(e.name)}
        and leftovers._alive(int(e.name))
        and "resource_tracker" not in leftovers._describe(int(e.name))
    ]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through /proc")
def test_jobs_beyond_the_cpus_are_capped_and_no_worker_outlives_the_call():
    pids = run_tasks(own_pid, [{"seed": s} for s in range(16)], jobs=1000, backend="loky")
    assert 1 <= len(set(pids)) <= cpu_count() == worker_count(1000) == worker_count(-1)
    assert os.getpid() not in pids  # they did run in workers
    assert _worker_children() == []


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through /proc")
@pytest.mark.parametrize("fault", ["task", "interrupt"])
def test_a_failed_or_interrupted_run_kills_its_workers(fault):
    def interrupt(done, total, message):
        if done == 1:
            raise KeyboardInterrupt

    tasks = [{"x": i} for i in range(8)]
    if fault == "task":
        with pytest.raises(RuntimeError, match="task 2 failed"):
            run_tasks(failing, tasks, jobs=2, backend="loky")
    else:
        with pytest.raises(KeyboardInterrupt):
            run_tasks(own_pid, [{"seed": s} for s in range(8)], jobs=2, progress=interrupt)
    assert _worker_children() == []


def test_dask_scheduler_without_workers_times_out():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=0,
        processes=True,
        dashboard_address=None,  # a tcp:// scheduler, no worker
    ) as cluster:
        address = cluster.scheduler_address
        started = time.monotonic()
        with pytest.raises(TimeoutError, match=f"scheduler at {address} has no worker after 1 s"):
            run_tasks(seeded_draw, TASKS, backend="dask", scheduler=address, scheduler_timeout=1)
        with distributed.Client(cluster) as client:  # a client given as is: the same wait
            with pytest.raises(TimeoutError, match="no worker after 1 s"):
                run_tasks(seeded_draw, TASKS, backend="dask", scheduler=client, scheduler_timeout=1)
        assert time.monotonic() - started < 20


def test_unreachable_scheduler_times_out():
    pytest.importorskip("distributed")
    from tests.browser_support import free_port

    address = f"tcp://127.0.0.1:{free_port()}"  # nobody listens there
    with pytest.raises(TimeoutError, match="no Dask scheduler answered"):
        run_tasks(seeded_draw, TASKS, backend="dask", scheduler=address, scheduler_timeout=1)
