"""The contestants: each olearn online learner and each peer doing the same job on one dataset.

The job is one training epoch: every training row once, in the given order, from zero weights.
Each :class:`Entry` holds a timed callable (fresh model + one pass) and an untimed test-error
function.  Data conversion to a peer's own format (VW text and cache, River dicts, CSR arrays
for the "kernel only" rows) happens while the entries are built, never inside the timed call;
the estimators' own input validation is inside it (it is part of what a user calls).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from benchmarks.data import BenchData

C = 1.0  # one slack price for every PA-type contestant (olearn's registry default)


@dataclass
class Entry:
    """One timed contestant on one dataset.

    ``epoch()`` trains a fresh model for one pass over ``rows`` training rows and returns it;
    ``error(model)`` is the test error (fraction) or None.  A subsample run (``rows < n``) is
    extrapolated per sample to the full set.  ``minus`` names an entry whose median is
    subtracted (VW's empty run); ``hidden`` entries are only used that way.
    """

    name: str
    library: str
    epoch: Callable[[], object]
    error: Callable[[object], float | None]
    rows: int
    note: str = ""
    minus: str | None = None
    hidden: bool = False
    memory: Callable[[], dict] | None = None  # overrides measure.peak_memory_mb(epoch)
    close: Callable[[], None] = field(default=lambda: None)


def _quiet(fn: Callable[[], object]) -> Callable[[], object]:
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ConvergenceWarning at max_iter=1, deprecations
            return fn()

    return run


def _sk_error(data: BenchData) -> Callable[[object], float]:
    return lambda model: float(np.mean(model.predict(data.X_test) != data.y_test))


def olearn_entries(data: BenchData) -> list[Entry]:
    """Every online algorithm of :mod:`olearn.registry`, one pass (``epochs=1, shuffle=False``),
    plus the bare kernel of PA-I and SPA-I (CSR arrays prepared outside the timed call)."""
    from olearn import registry
    from olearn.kernels.additive import additive_epoch
    from olearn.kernels.codes import additive_code
    from olearn.kernels.sparse import csr_arrays

    entries = []
    for spec in registry.ALGORITHMS:
        keys = spec.estimator_class().get_params()
        if not (spec.online or "epochs" in keys):  # batch solvers have no "one epoch"
            continue
        fixed = {k: v for k, v in (("epochs", 1), ("shuffle", False)) if k in keys}

        def fit(spec=spec, fixed=fixed):
            return spec.make(**fixed).fit(data.X, data.y)

        entries.append(
            Entry(spec.name, "olearn", fit, _sk_error(data), data.n, note=f"family {spec.family}")
        )
        if spec.name == "SPA-I":  # scikit-learn damps its intercept; textbook PA does not

            def fit_no_bias(spec=spec, fixed=fixed):
                return spec.make(**fixed, fit_intercept=False).fit(data.X, data.y)

            entries.append(
                Entry(
                    "SPA-I (fit_intercept=False)",
                    "olearn",
                    fit_no_bias,
                    _sk_error(data),
                    data.n,
                    note="no constant feature",
                )
            )
    arrays = csr_arrays(data.X, intercept_scaling=1.0)  # the intercept as a column
    test_arrays = sp.csr_matrix(data.X_test)
    order = np.arange(data.n, dtype=np.int64)
    K, d = data.n_classes, data.d
    for name, rule, variant in (("PA-I", "pa", "I"), ("SPA-I", "spa", "I")):
        code = additive_code(rule, variant)

        def kernel(code=code):
            W = np.zeros((d + 1, K))
            additive_epoch(
                *arrays,
                data.y,
                order,
                W,
                code,
                C,
                np.zeros((0, K)),
                np.zeros(0, dtype=np.bool_),
            )
            return W

        def error(W):
            scores = test_arrays @ W[:d] + W[d]
            return float(np.mean(np.argmax(scores, axis=1) != data.y_test))

        entries.append(
            Entry(
                f"{name} (kernel only)",
                "olearn",
                kernel,
                error,
                data.n,
                note="additive_epoch on prepared CSR arrays",
            )
        )
    return entries


def sklearn_entries(data: BenchData) -> list[Entry]:
    """scikit-learn's one-pass equivalents (one-vs-rest when K > 2)."""
    from sklearn import linear_model as lm
    from sklearn.linear_model import Perceptron, SGDClassifier

    ovr = " (OvR)" if data.n_classes > 2 else ""
    one_pass = {"max_iter": 1, "tol": None, "shuffle": False}
    makers = {
        f"SGDClassifier pa1{ovr}": lambda: SGDClassifier(
            loss="hinge", penalty=None, learning_rate="pa1", eta0=C, **one_pass
        ),
        f"SGDClassifier pa2{ovr}": lambda: SGDClassifier(
            loss="hinge", penalty=None, learning_rate="pa2", eta0=C, **one_pass
        ),
        f"sklearn Perceptron{ovr}": lambda: Perceptron(**one_pass),
    }
    if hasattr(lm, "PassiveAggressiveClassifier"):  # deprecated in 1.8, removal planned in 1.10
        makers[f"PassiveAggressiveClassifier{ovr}"] = lambda: lm.PassiveAggressiveClassifier(
            C=C, loss="hinge", **one_pass
        )
    return [
        Entry(
            name,
            "scikit-learn",
            _quiet(lambda make=make: make().fit(data.X, data.y)),
            _sk_error(data),
            data.n,
        )
        for name, make in makers.items()
    ]


def _dict_rows(X, rows: int) -> list[dict]:
    X = sp.csr_matrix(X[:rows])
    out = []
    for i in range(X.shape[0]):
        lo, hi = X.indptr[i], X.indptr[i + 1]
        out.append(dict(zip(X.indices[lo:hi].tolist(), X.data[lo:hi].tolist())))
    return out


def river_entries(data: BenchData, max_rows: int) -> list[Entry]:
    """River's PA-I (``PAClassifier(mode=1)``), one-vs-rest when K > 2, ``learn_one`` per row
    on the first ``max_rows`` rows (extrapolated per sample); test error on <= 500 test rows
    of the model trained on that subsample."""
    try:
        from river.linear_model import PAClassifier
        from river.multiclass import OneVsRestClassifier
    except ImportError as err:
        return [
            Entry("River PA-I", "River", lambda: None, lambda m: None, 0, note=f"skipped: {err}")
        ]
    m = min(data.n, max_rows)
    train = _dict_rows(data.X, m)
    y = data.y[:m].tolist()
    n_test = min(data.X_test.shape[0], 500)
    test = _dict_rows(data.X_test, n_test)
    binary = data.n_classes == 2

    def fit():
        if binary:
            model = PAClassifier(C=C, mode=1)
            for x, label in zip(train, y):
                model.learn_one(x, label == 1)
        else:
            model = OneVsRestClassifier(PAClassifier(C=C, mode=1))
            for x, label in zip(train, y):
                model.learn_one(x, label)
        return model

    def error(model):
        predicted = [model.predict_one(x) for x in test]
        if binary:
            predicted = [1 if p else 0 for p in predicted]
        predicted = np.array([-1 if p is None else p for p in predicted])
        return float(np.mean(predicted != data.y_test[:n_test]))

    name = "River PA-I" + ("" if binary else " (OvR)")
    note = f"learn_one on {m} of {data.n} rows, extrapolated per sample" if m < data.n else ""
    return [Entry(name, "River", fit, error, m, note=note)]


def vw_entries(data: BenchData) -> list[Entry]:
    """Vowpal Wabbit ``--oaa K`` from its cache, minus an empty ``--noop`` run."""
    from benchmarks import peers_vw

    ok, version = peers_vw.available()
    if not ok:
        return [
            Entry(
                "VW --oaa",
                "Vowpal Wabbit",
                lambda: None,
                lambda m: None,
                0,
                note=f"skipped: {version}",
            )
        ]
    vw = peers_vw.VWOaa(data.X, data.y, data.X_test, data.y_test, data.n_classes)
    empty = Entry("VW empty run", "Vowpal Wabbit", vw.empty, lambda m: None, data.n, hidden=True)
    oaa = Entry(
        f"VW --oaa {data.n_classes}",
        "Vowpal Wabbit",
        vw.epoch,
        lambda m: vw.test_error(),
        data.n,
        minus=empty.name,
        close=vw.close,
        memory=vw.peak_memory,
        note=f"vowpalwabbit {version}, own cache, minus an empty --noop run",
    )
    return [oaa, empty]


def limit_entries(data: BenchData) -> list[Entry]:
    """The physical limit: one read of every non-zero with 1 dot / K scores per row."""
    from benchmarks.limit import stream_dot, stream_scores
    from olearn.kernels.sparse import csr_arrays

    arrays = csr_arrays(data.X)
    rng = np.random.default_rng(0)
    w = rng.random(data.d)
    W = rng.random((data.d + 1, data.n_classes))
    scores = np.empty(data.n_classes)
    return [
        Entry(
            "limit: 1 dot/row",
            "limit",
            lambda: stream_dot(*arrays, w),
            lambda m: None,
            data.n,
            note="numba, every nnz read once",
        ),
        Entry(
            f"limit: {data.n_classes} scores/row",
            "limit",
            lambda: stream_scores(*arrays, W, scores),
            lambda m: None,
            data.n,
            note="numba, feature-major W",
        ),
    ]


def all_entries(data: BenchData, *, river_rows: int, with_vw: bool = True) -> list[Entry]:
    """Every contestant for ``data`` (olearn, scikit-learn, River, VW, the limit)."""
    entries = olearn_entries(data) + sklearn_entries(data) + river_entries(data, river_rows)
    if with_vw:
        entries += vw_entries(data)
    entries += limit_entries(data)
    names = [e.name for e in entries]
    assert len(set(names)) == len(names), f"contestant names must be unique: {names}"
    return entries
