"""``ParameterMixingClassifier``: iterative parameter mixing of an olearn online estimator
over shards, on ``dask.distributed`` or in-process."""

from __future__ import annotations

import time
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from olearn.distributed import _dask_arrays
from olearn.distributed import mixing as mixing_rules
from olearn.distributed._runners import DaskRunner, SerialRunner
from olearn.distributed._shards import ArrayShard, StoreShard

CONNECT_TIMEOUT = 10.0  # seconds for a scheduler address to answer and have a worker


class _ConnectedRunner(DaskRunner):
    """A :class:`DaskRunner` on a client :func:`_connect` made: closed with the runner."""

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.client.close()


def _connect(address: str) -> DaskRunner:
    """A runner on the Dask scheduler at ``address`` (``client=`` a string other than
    "serial"), or ValueError (not an address) / ConnectionError (no answer, or no worker,
    within :data:`CONNECT_TIMEOUT` seconds) naming it.  A TCP address is tried with a plain
    socket first: a closed port is refused at once, where Dask's client retries until its
    timeout."""
    import socket

    from distributed import Client
    from distributed.comm import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)  # a scheme Dask knows
        host, port = parse_host_port(location) if scheme in ("tcp", "tls") else (None, 1)
        if not 0 < int(port) < 65536:
            raise ValueError(f"port {port} is not in 1..65535")
    except (ValueError, TypeError) as err:
        raise ValueError(
            f"client={address!r} is neither 'serial' nor a Dask scheduler address such as "
            f"'tcp://10.0.0.1:8786' ({err})"
        ) from None
    if host is not None:
        try:
            socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
        except OSError as err:
            raise ConnectionError(
                f"nothing answered at {address!r} ({err}); start a Dask scheduler there "
                "(`dask scheduler`), or use client='serial' to train in this process"
            ) from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except Exception as err:  # whatever answered there, it is not a usable scheduler
        raise ConnectionError(
            f"no Dask scheduler answered at {address!r} within {CONNECT_TIMEOUT:g} s "
            f"({type(err).__name__}: {err})"
        ) from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        return _ConnectedRunner(client)
    except Exception as err:
        client.close()
        raise ConnectionError(
            f"the Dask scheduler at {address!r} has no worker after {CONNECT_TIMEOUT:g} s "
            f"({type(err).__name__}: {err}); start workers (`dask worker {address}`)"
        ) from None


def _is_store(X) -> bool:
    return hasattr(X, "chunks") and hasattr(X, "manifest") and hasattr(X, "path")


class ParameterMixingClassifier(ClassifierMixin, BaseEstimator):
    """Iterative parameter mixing (McDonald, Hall & Mann, NAACL 2010) of an online estimator.

    Each epoch, every shard trains a copy of the model for one pass over its rows, all copies
    starting from the same state; the copies' states are then mixed into one
    (:mod:`olearn.distributed.mixing`: uniform or mistake-weighted means for the Perceptron /
    PA / SPA, precision-weighted for the CW family's diagonal covariance, count-weighted per
    feature for SGD-SVM), and the mix starts the next epoch.  One shard is sequential training:
    ``fit`` of ``estimator`` with ``shuffle=False`` gives the same model, exactly.

    Parameters
    ----------
    estimator : olearn online estimator
        The model to train (its parameters; ``epochs`` and ``random_state`` are this class's).
        Its ``shuffle=True`` shuffles each shard's pass (chunk order, then rows), seeded from
        ``random_state``, the epoch and the shard; ``shuffle=False`` keeps the order.
    epochs : int, default=5
        Mixing rounds (each one pass over every shard).
    mixing : {"auto", "uniform", "mistakes", "precision", "counts"}, default="auto"
        The rule; "auto" is "uniform" (Perceptron, PA, SPA), "precision" (CW family) or
        "counts" (SGD-SVM).
    client : distributed.Client, str or None, default=None
        Where shards train: the Client's workers; "serial": this process, one shard after the
        other (the same numbers as a cluster); another string: the address of a Dask scheduler
        (``"tcp://10.0.0.1:8786"``), connected within ``fit`` and closed after it (ValueError
        for a string that is not an address; ConnectionError, naming it, when nothing answers
        or it has no worker within ``CONNECT_TIMEOUT`` seconds, 10; never a fit in this
        process); None: a ``LocalCluster`` of ``n_workers`` worker processes (one thread
        each) started and closed within ``fit``.
    n_shards : int or None, default=None
        Shards of in-memory X, of one store or of a Dask array: contiguous runs of rows (of
        chunks), in order.
        None: one per worker (2 with ``client="serial"``).  A list of stores is one shard each.
    n_workers : int, default=2
        Worker processes of the LocalCluster started when ``client`` is None.
    random_state : int or None, default=None
    progress : bool, default=False
        A tqdm bar of epochs (with the epoch's updates).

    Attributes
    ----------
    estimator_ : olearn estimator
        The mixed model, a plain fitted olearn estimator (``predict``, ``get_state`` ...).
    classes_, n_features_in_ : as in scikit-learn.
    history_ : list of dict
        Per epoch: ``epoch``, ``seconds`` (wall clock), ``updates`` (the shards' steps),
        ``train_seconds`` (the slowest shard's training, on its worker), ``mix_seconds``; the
        rest of ``seconds`` is moving states and scheduling.
    setup_seconds_ : dict
        ``put`` (placing the shards on the workers) and ``warm`` (compiling there).
    n_shards_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from olearn.estimators import PerceptronClassifier
    >>> X = np.array([[1.0, 0], [0, 1], [1, 0.2], [0.1, 1]] * 10)
    >>> y = np.array([0, 1, 0, 1] * 10)
    >>> ipm = ParameterMixingClassifier(PerceptronClassifier(), epochs=3, client="serial")
    >>> ipm.fit(X, y).score(X, y)
    1.0

    References
    ----------
    R. McDonald, K. Hall, G. Mann, "Distributed Training Strategies for the Structured
    Perceptron", NAACL-HLT 2010.
    """

    _parameter_constraints: dict = {
        "estimator": [object],
        "epochs": [Interval(Integral, 1, None, closed="left")],
        "mixing": [StrOptions(set(mixing_rules.MIXINGS))],
        "client": [StrOptions({"serial"}), None, object],
        "n_shards": [Interval(Integral, 1, None, closed="left"), None],
        "n_workers": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "progress": ["boolean"],
    }

    def __init__(
        self,
        estimator,
        *,
        epochs=5,
        mixing="auto",
        client=None,
        n_shards=None,
        n_workers=2,
        random_state=None,
        progress=False,
    ):
        self.estimator = estimator
        self.epochs = epochs
        self.mixing = mixing
        self.client = client
        self.n_shards = n_shards
        self.n_workers = n_workers
        self.random_state = random_state
        self.progress = progress

    # --- shards -------------------------------------------------------------------------------
    def _shards(self, X, y, n_shards: int, runner) -> tuple[list, np.ndarray, int]:
        """``(shards, classes, n_features)`` from a store, a list of stores, a Dask array of
        row chunks (a plan the runner builds on its workers) or in-memory arrays."""
        if _dask_arrays.is_dask_array(X):
            plan = _dask_arrays.plan(X, y, n_shards)
            classes = runner.classes(plan)
            check_classification_targets(classes)
            return plan, classes, int(X.shape[1])
        if isinstance(X, (list, tuple)) and X and all(_is_store(s) for s in X):
            stores = list(X)
        elif _is_store(X):
            stores = [X]
        else:
            return self._array_shards(X, y, n_shards)
        if y is not None:
            raise ValueError("a store holds its labels: call fit(store) without y")
        widths = {s.n_features for s in stores}
        if len(widths) != 1:
            raise ValueError(f"the stores have different widths {sorted(widths)}")
        classes = np.unique(np.concatenate([s.classes for s in stores]))
        if len(stores) == 1:  # one store: contiguous runs of its chunks
            store = stores[0]
            parts = np.array_split(np.arange(store.n_chunks), min(n_shards, store.n_chunks))
            rows = [c["rows"] for c in store.manifest["chunks"]]
            shards = [
                StoreShard(str(store.path), p.tolist(), int(sum(rows[i] for i in p))) for p in parts
            ]
        else:
            shards = [StoreShard(str(s.path), list(range(s.n_chunks)), s.n_rows) for s in stores]
        return shards, classes, widths.pop()

    def _array_shards(self, X, y, n_shards: int):
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, reset=True)
        check_classification_targets(y)
        X = sp.csr_matrix(X)
        bounds = np.linspace(0, X.shape[0], n_shards + 1).round().astype(int)
        shards = [ArrayShard(X[a:b], y[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
        return shards, np.unique(y), X.shape[1]

    def _runner(self):
        if isinstance(self.client, str):
            return SerialRunner() if self.client == "serial" else _connect(self.client)
        if self.client is not None:
            return DaskRunner(self.client)
        from distributed import Client, LocalCluster

        cluster = LocalCluster(
            n_workers=self.n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        return DaskRunner(Client(cluster), owned_cluster=cluster)

    # --- fit ----------------------------------------------------------------------------------
    def fit(self, X, y=None):
        """Train by iterative parameter mixing over shards of ``X``: in-memory arrays (with y),
        a store (``olearn.datasets.store``), a list of stores (one shard each), or a
        ``dask.array.Array`` of row chunks (scipy.sparse or numpy; one column chunk) with y a
        Dask array aligned with its row chunks or a numpy array.  A Dask array's chunks are
        grouped into ``n_shards`` contiguous runs; each shard is assembled and stays on a
        worker (the data never comes to this process), and trains as a store with the same
        chunks would."""
        self._validate_params()
        kind, rule = mixing_rules.resolve(self.estimator, self.mixing)
        for name in ("estimator_", "classes_", "history_", "n_shards_", "setup_seconds_"):
            self.__dict__.pop(name, None)
        runner = self._runner()
        try:
            n_shards = self.n_shards or (
                2 if isinstance(runner, SerialRunner) else runner.n_workers
            )
            shards, classes, n_features = self._shards(X, y, n_shards, runner)
            if len(classes) < 2:
                raise ValueError(
                    f"need samples of at least 2 classes, got {len(classes)} class: "
                    f"{classes.tolist()}"
                )
            start = time.perf_counter()
            runner.put(shards)
            placed = time.perf_counter()
            runner.warm(self.estimator)
            self.setup_seconds_ = {
                "put": placed - start,
                "warm": time.perf_counter() - placed,
            }
            state = self._epochs(runner, shards, classes, rule)
        finally:
            runner.close()
        self.estimator_ = clone(self.estimator).set_state({**state, "n_iter": self.epochs})
        self.classes_ = self.estimator_.classes_
        self.n_features_in_ = n_features
        self.n_shards_ = len(shards)
        return self

    def _seeds(self, epoch: int, n: int) -> list:
        if not getattr(self.estimator, "shuffle", False):
            return [None] * n
        root = self.random_state if isinstance(self.random_state, Integral) else None
        if root is None:
            root = np.random.SeedSequence().entropy
        return [np.random.SeedSequence([int(root), epoch, i]) for i in range(n)]

    def _epochs(self, runner, shards, classes, rule: str) -> dict:
        bar = None
        if self.progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=self.epochs, unit="epoch", desc="parameter mixing")
        state, self.history_ = None, []
        try:
            for epoch in range(self.epochs):
                start = time.perf_counter()
                states = [state] * len(shards)
                results = runner.run(
                    self.estimator, states, classes, self._seeds(epoch, len(shards))
                )
                results = [r for r in results if r is not None]
                updates = [u for _, u, _ in results]
                mixing = time.perf_counter()
                state = mixing_rules.mix_states(
                    self.estimator, [s for s, _, _ in results], rule, updates, base=state
                )
                end = time.perf_counter()
                self.history_.append(
                    {
                        "epoch": epoch + 1,
                        "seconds": end - start,
                        "updates": sum(updates),
                        "train_seconds": max(t for _, _, t in results),
                        "mix_seconds": end - mixing,
                    }
                )
                if bar is not None:
                    bar.set_postfix(updates=sum(updates))
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
        return state

    # --- prediction ---------------------------------------------------------------------------
    def _validate_X(self, X):
        check_is_fitted(self, "estimator_")
        return validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)

    def decision_function(self, X):
        """``estimator_.decision_function``."""
        X = self._validate_X(X)
        return self.estimator_.decision_function(X)

    def predict(self, X):
        """``estimator_.predict``."""
        X = self._validate_X(X)
        return self.estimator_.predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
