"""run_tasks: task order, backends (serial, joblib, Dask), progress, errors."""

from __future__ import annotations

import time

import numpy as np
import pytest

from olearn.experiments.engine import run_tasks


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
