"""Iterative parameter mixing (olearn.distributed) on a LocalCluster of 2 worker processes
(one per module), against sequential training, the in-process driver and explicit loops."""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

import cloudpickle
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import check_estimator

from olearn import registry
from olearn.datasets.store import write_store
from olearn.distributed import ParameterMixingClassifier, mix_states
from olearn.distributed._shards import ArrayShard
from olearn.estimators import AROWClassifier, PAClassifier, PerceptronClassifier

distributed = pytest.importorskip("distributed")

MIXABLE = ["perceptron", "pa1", "spa1", "arow", "scw1", "sgd-svm-pf"]


@pytest.fixture(scope="module")
def client():
    import dask

    # a task whose worker dies fails at once (KilledWorker) instead of being retried on a
    # fresh worker three times: the driver's own recovery is what is tested, in less time
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def _problem(n=400, d=30, k=3, seed=0, noise=0.1):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.2, format="csr", random_state=seed)
    y = np.asarray((X @ rng.normal(size=(d, k))).argmax(axis=1)).ravel()
    flip = rng.random(n) < noise
    y[flip] = rng.integers(0, k, flip.sum())
    return X, y


def _equal_states(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        if key != "params":
            assert np.array_equal(np.asarray(a[key]), np.asarray(b[key])), key


def _ipm(key, client, **kw):
    params = {"shuffle": False} if "shuffle" in registry.get(key).make().get_params() else {}
    return ParameterMixingClassifier(registry.get(key).make(**params), client=client, **kw)


@pytest.mark.parametrize("key", MIXABLE)
def test_one_shard_is_sequential_training_exactly(key):
    X, y = _problem()
    sequential = registry.get(key).make(shuffle=False, epochs=3).fit(X, y)
    mixed = _ipm(key, "serial", epochs=3, n_shards=1).fit(X, y)
    _equal_states(mixed.estimator_.get_state(), sequential.get_state())
    assert np.array_equal(mixed.predict(X), sequential.predict(X))


def test_one_shard_on_the_cluster_from_a_store(client, tmp_path):
    X, y = _problem()
    store = write_store(X, y, tmp_path / "s", chunk_rows=90)
    sequential = AROWClassifier(shuffle=False, epochs=3).fit(X, y)
    mixed = ParameterMixingClassifier(
        AROWClassifier(shuffle=False), epochs=3, n_shards=1, client=client
    ).fit(store)
    _equal_states(mixed.estimator_.get_state(), sequential.get_state())


@pytest.mark.parametrize(("key", "mixing"), [("pa1", "mistakes"), ("arow", "auto"),
                                              ("sgd-svm-pf", "auto")])  # fmt: skip
def test_the_serial_driver_gives_exactly_the_dask_result(client, tmp_path, key, mixing):
    X, y = _problem(seed=1)
    spec = registry.get(key)
    for data, target in ((X, y), (write_store(X, y, tmp_path / key, chunk_rows=50), None)):
        models = [
            ParameterMixingClassifier(
                spec.make(), epochs=3, mixing=mixing, n_shards=3, random_state=4, client=c
            ).fit(data, target)
            for c in ("serial", client)
        ]
        _equal_states(models[0].estimator_.get_state(), models[1].estimator_.get_state())
        assert models[0].history_[-1]["updates"] == models[1].history_[-1]["updates"]


@pytest.mark.parametrize("key", MIXABLE)
def test_identical_states_mix_to_themselves(key):
    X, y = _problem(seed=2)
    model = registry.get(key).make(epochs=2, random_state=0).fit(X, y)
    state = model.get_state()
    mixed = mix_states(model, [state, state, state], updates=[5, 0, 2])
    if key.startswith("sgd"):  # w = scale * v is materialised (v = w, scale = 1): to rounding
        again = clone(model).set_state(mixed)
        np.testing.assert_allclose(again.coef_, model.coef_, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(again.decision_function(X), model.decision_function(X))
        return
    for name in ("coef", "intercept_weight", "covariance"):
        if name in state:
            assert np.array_equal(mixed[name], state[name]), name
    assert mixed["t"] == 3 * state["t"]  # counters add up the shards' work


@pytest.mark.parametrize("key", ["pa1-avg", "arow-avg"])
def test_one_averaged_shard_is_sequential_averaged_training_exactly(key):
    X, y = _problem(seed=9)
    sequential = registry.get(key).make(shuffle=False, epochs=3).fit(X, y)
    mixed = _ipm(key, "serial", epochs=3, n_shards=1).fit(X, y)
    _equal_states(mixed.estimator_.get_state(), sequential.get_state())


@pytest.mark.parametrize("average", [True, 50])
def test_averaged_ipm_is_the_mean_of_every_shards_iterates(average):
    """Against an explicit loop: plain PA-I row by row on each shard from the mixed weights,
    every iterate after the first ``average - 1`` examples (a shard's count starts at the
    mix's) summed; the averaged IPM model's coef_ is their mean."""
    X, y = _problem(n=90, d=12, seed=10)
    shards = [slice(0, 30), slice(30, 60), slice(60, 90)]
    start = 1 if average is True else average
    state, t, iterates = None, 0, []
    for _ in range(2):  # epochs
        ends = []
        for part in shards:
            model = PAClassifier(C=0.5)
            if state is not None:
                model.set_state(state)
            for i, row in enumerate(range(part.start, part.stop)):
                model.partial_fit(X[row], y[row : row + 1], classes=[0, 1, 2])
                if t + i + 1 >= start:
                    iterates.append(model.get_state()["coef"].copy())
            ends.append(model.get_state())
        state = mix_states(PAClassifier(C=0.5), ends, base=state)
        t += 90
    ipm = ParameterMixingClassifier(
        PAClassifier(C=0.5, average=average, shuffle=False), epochs=2, n_shards=3, client="serial"
    ).fit(X, y)
    np.testing.assert_allclose(ipm.estimator_.coef_, np.mean(iterates, axis=0), rtol=1e-10,
                               atol=1e-12)  # fmt: skip
    assert ipm.estimator_.get_state()["average_counts"][:2].tolist() == [180, len(iterates)]
    np.testing.assert_array_equal(ipm.estimator_.get_state()["coef"], state["coef"])


def test_mixing_rules_against_explicit_loops():
    X, y = _problem(seed=3)
    parts = [slice(0, 150), slice(150, 220), slice(220, 400)]
    arow = [AROWClassifier().partial_fit(X[p], y[p], classes=[0, 1, 2]) for p in parts]
    states = [m.get_state() for m in arow]
    mixed = mix_states(AROWClassifier(), states)
    K, d = states[0]["coef"].shape
    for j in range(d):
        precisions = [1.0 / s["covariance"][j] for s in states]
        assert mixed["covariance"][j] == pytest.approx(1.0 / (sum(precisions) / 3), rel=1e-12)
        for u in range(K):
            num = sum(p * s["coef"][u, j] for p, s in zip(precisions, states))
            assert mixed["coef"][u, j] == pytest.approx(num / sum(precisions), rel=1e-12)
    pa = [PAClassifier().partial_fit(X[p], y[p], classes=[0, 1, 2]) for p in parts]
    k = [m.n_updates_ for m in pa]
    mixed = mix_states(PAClassifier(), [m.get_state() for m in pa], "mistakes", k)
    explicit = sum(ki * m.get_state()["coef"] for ki, m in zip(k, pa)) / sum(k)
    np.testing.assert_allclose(mixed["coef"], explicit, rtol=1e-12)
    assert mixed["t"] == 400


def test_sgd_svm_count_rule_against_an_explicit_loop():
    X, y = _problem(seed=7)
    spec = registry.get("sgd-svm-pf")
    parts = [slice(0, 100), slice(100, 400)]
    models = [spec.make().partial_fit(X[p], y[p], classes=[0, 1, 2]) for p in parts]
    mixed = clone(models[0]).set_state(mix_states(models[0], [m.get_state() for m in models]))
    P, d = models[0].coef_.shape
    for p in range(P):
        for j in range(d):
            c = [m.get_state()["counts"][p, j] for m in models]
            w = [m.coef_[p, j] for m in models]
            expected = np.dot(c, w) / sum(c) if sum(c) else np.mean(w)
            assert mixed.coef_[p, j] == pytest.approx(expected, rel=1e-12, abs=1e-300)


def test_separable_data_reaches_zero_training_mistakes(client):
    rng = np.random.default_rng(5)
    X, w = rng.normal(size=(900, 8)), rng.normal(size=8)
    margin = X @ w / np.linalg.norm(w)
    X, y = X[np.abs(margin) > 0.3], (margin[np.abs(margin) > 0.3] > 0).astype(int)  # separable
    ipm = ParameterMixingClassifier(PerceptronClassifier(), epochs=30, n_shards=4, client=client)
    ipm.fit(X, y)
    assert ipm.score(X, y) == 1.0
    assert ipm.history_[-1]["updates"] == 0  # no shard made a mistake in the last epoch


def _dask(X, y, rows, dense=False):
    da = pytest.importorskip("dask.array")
    X = X.toarray() if dense else X
    return da.from_array(X, chunks=(rows, -1), asarray=False), da.from_array(y, chunks=rows)


def test_a_dask_array_fit_equals_its_shards_as_stores_and_arrays(client, tmp_path):
    X, y = _problem(seed=8)
    dX, dy = _dask(X, y, 50)  # 8 chunks, 3 shards of 3, 3 and 2 chunks
    kw = {"epochs": 3, "n_shards": 3, "random_state": 2}
    on_cluster = ParameterMixingClassifier(AROWClassifier(), client=client, **kw).fit(dX, dy)
    bounds = [(0, 150), (150, 300), (300, 400)]
    stores = [write_store(X[a:b], y[a:b], tmp_path / str(a), chunk_rows=50) for a, b in bounds]
    kw.pop("n_shards")
    from_stores = ParameterMixingClassifier(AROWClassifier(), client="serial", **kw).fit(stores)
    _equal_states(on_cluster.estimator_.get_state(), from_stores.estimator_.get_state())
    assert on_cluster.n_shards_ == 3
    assert [h["updates"] for h in on_cluster.history_] == [
        h["updates"] for h in from_stores.history_
    ]

    dX, dy = _dask(X, y, 100, dense=True)  # one dense chunk per shard: the in-memory split
    kw["n_shards"] = 4
    on_cluster = ParameterMixingClassifier(PAClassifier(), client=client, **kw).fit(dX, y)
    in_memory = ParameterMixingClassifier(PAClassifier(), client="serial", **kw)
    in_memory.fit(X, y)
    _equal_states(on_cluster.estimator_.get_state(), in_memory.estimator_.get_state())


def test_dask_arrays_it_cannot_train_on_are_refused():
    da = pytest.importorskip("dask.array")
    X, y = _problem()
    dX, dy = _dask(X, y, 100)
    ipm = ParameterMixingClassifier(PAClassifier(), client="serial")
    cases = [
        (da.from_array(X.toarray(), chunks=(100, 10)), y, "column chunks"),
        (dX, da.from_array(y, chunks=80), "do not align"),
        (dX, y[:-1], "rows"),
        (dX, None, "needs its labels"),
        (dX.map_blocks(lambda b: b.toarray().tolist(), meta=np.empty((0, 0))), dy, "list"),
    ]
    for data, target, match in cases:
        with pytest.raises(ValueError, match=match):
            ipm.fit(data, target)


class KillingShard(ArrayShard):
    """Kills its worker process at its ``kill_at``-th pass (a counter file: the count
    survives the kill); every pass when ``kill_at`` is 0."""

    def __init__(self, X, y, counter: str, kill_at: int):
        super().__init__(X, y)
        self.counter, self.kill_at = counter, kill_at

    def batches(self, rng):
        with open(self.counter, "a") as f:
            f.write(".")
        passes = len(Path(self.counter).read_text())
        if self.kill_at == 0 or passes == self.kill_at:
            os._exit(1)
        yield from super().batches(rng)


def _killing(monkeypatch, counter, kill_at):
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    real = ParameterMixingClassifier._array_shards

    def shards(self, X, y, n):
        found, classes, d = real(self, X, y, n)
        found[0] = KillingShard(found[0].X, found[0].y, str(counter), kill_at)
        return found, classes, d

    monkeypatch.setattr(ParameterMixingClassifier, "_array_shards", shards)


def test_a_killed_worker_recovers_the_epoch_or_raises(client, tmp_path, monkeypatch):
    X, y = _problem(seed=6)
    expected = ParameterMixingClassifier(PAClassifier(), epochs=3, random_state=1, client="serial")
    expected.fit(X, y)
    _killing(monkeypatch, tmp_path / "count", kill_at=2)  # dies in epoch 2, once
    ipm = ParameterMixingClassifier(PAClassifier(), epochs=3, random_state=1, client=client)
    ipm.fit(X, y)
    _equal_states(ipm.estimator_.get_state(), expected.estimator_.get_state())
    client.wait_for_workers(2, timeout=60)

    monkeypatch.undo()
    _killing(monkeypatch, tmp_path / "always", kill_at=0)  # dies every time
    ipm = ParameterMixingClassifier(PAClassifier(), epochs=3, client=client)
    with pytest.raises(RuntimeError, match="no model was mixed"):
        ipm.fit(X, y)
    assert not hasattr(ipm, "estimator_")
    client.wait_for_workers(2, timeout=60)


def test_models_that_cannot_be_mixed_are_refused():
    X, y = _problem()
    for estimator, match in [
        (AROWClassifier(covariance="full"), "full"),
        (registry.get("sgd-svm-pf").make(average=True), "average"),
        (registry.get("cs-svm").make(), "batch"),
        (AROWClassifier(), "does not apply"),  # with mixing="mistakes"
    ]:
        mixing = "mistakes" if match == "does not apply" else "auto"
        with pytest.raises(ValueError, match=match):
            ParameterMixingClassifier(estimator, mixing=mixing, client="serial").fit(X, y)


def test_check_estimator_with_a_serial_client():
    check_estimator(
        ParameterMixingClassifier(PAClassifier(random_state=0), client="serial", random_state=0)
    )


def test_a_scheduler_address_trains_on_that_cluster_never_here(client, monkeypatch):
    X, y = _problem(seed=3)
    expected = _ipm("pa1", "serial", epochs=2, n_shards=2, random_state=0).fit(X, y)

    class Refused:  # the in-process runner: an address must never end up here
        def __init__(self):
            raise AssertionError("trained in this process")

    monkeypatch.setattr("olearn.distributed.classifier.SerialRunner", Refused)
    clients = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.clients))
    ipm = _ipm("pa1", client.scheduler.address, epochs=2, n_shards=2, random_state=0)
    _equal_states(ipm.fit(X, y).estimator_.get_state(), expected.estimator_.get_state())
    # its own client is closed after the fit (the scheduler sees as many as before)
    for _ in range(50):
        now = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.clients))
        if now == clients:
            break
        time.sleep(0.1)
    assert now == clients


def test_an_address_that_does_not_answer_is_a_quick_clear_error():
    X, y = _problem()
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for address in (f"tcp://127.0.0.1:{port}", f"127.0.0.1:{port}"):
        ipm = ParameterMixingClassifier(PAClassifier(), client=address)
        start = time.perf_counter()
        with pytest.raises(ConnectionError, match=f"nothing answered at '{address}'"):
            ipm.fit(X, y)
        assert time.perf_counter() - start < 5  # refused at once, not retried for 10 s
        assert not hasattr(ipm, "estimator_")
    for address in ("not an address", "serial ", "tcp://host-without-port", "foo://x:1"):
        ipm = ParameterMixingClassifier(PAClassifier(), client=address)
        with pytest.raises(ValueError, match="neither 'serial' nor a Dask scheduler address"):
            ipm.fit(X, y)
        assert not hasattr(ipm, "estimator_")


class _Client:
    """A client whose cached view lists no worker (a nanny restarting one): ``arrives`` says
    whether one arrives while the runner waits."""

    def __init__(self, arrives: bool):
        self.arrives, self.waited = arrives, []

    def scheduler_info(self):
        return {"workers": {}}

    def wait_for_workers(self, n, timeout):
        self.waited.append((n, timeout))
        if not self.arrives:
            raise TimeoutError("no worker")

    def nthreads(self):
        return {"tcp://127.0.0.1:2": 1, "tcp://127.0.0.1:1": 1}


def test_a_client_between_workers_is_waited_for_then_refused_by_name():
    from olearn.distributed._runners import WORKER_WAIT, DaskRunner

    client = _Client(arrives=True)
    runner = DaskRunner(client)
    assert runner.workers == ["tcp://127.0.0.1:1", "tcp://127.0.0.1:2"] and runner.n_workers == 2
    assert client.waited == [(1, WORKER_WAIT)]
    with pytest.raises(ValueError, match="no workers .none arrived in 30 s"):
        DaskRunner(_Client(arrives=False))
