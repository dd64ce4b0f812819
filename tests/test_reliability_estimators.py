"""Issue 22 (reliability, round 3), the estimators' part: parameters changed mid-stream
(item 1), the memory budget before allocation (item 3), one rule for failed fits (item 5),
indices past 2^31 (item 9).  Parametrised from :mod:`olearn.registry`."""

from __future__ import annotations

import tracemalloc
from numbers import Integral, Real

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import Interval

from olearn import registry
from olearn._budget import BudgetError
from olearn.estimators import PAClassifier
from olearn.kernels.sparse import check_sparse_structure, csr_rows, row_scores

KEYS = registry.keys()
STREAMING = [k for k in KEYS if hasattr(registry.get(k).estimator_class, "partial_fit")]
BATCH = [k for k in KEYS if k not in STREAMING]


def _data(n=40, d=4, K=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.arange(n) % K
    return X + y[:, None], y


def _make(key, **kw):
    spec = registry.get(key)
    extra = {"max_iter": 30} if spec.estimator == "PCVMClassifier" else {}
    return spec.make(**{**extra, **kw})


# --- item 1: a parameter that fixes the state's shape or meaning cannot change mid-stream --


def _state_changes(est) -> dict:
    """One changed value for each parameter the estimator's state was built for."""
    changes = {}
    params = est.get_params()
    if "fit_intercept" in params:
        changes["fit_intercept"] = not params["fit_intercept"]
    if params.get("fit_intercept") and "intercept_scaling" in params:
        changes["intercept_scaling"] = 2.0 * params["intercept_scaling"]
    if "covariance" in params:
        changes["covariance"] = "full" if params["covariance"] == "diagonal" else "diagonal"
        changes["a"] = 0.5
    if "schedule" in params:
        changes["schedule"] = "per-feature" if params["schedule"] == "global" else "global"
        changes["lam"] = 10 * params["lam"]  # t0="auto" follows lam: the clock's meaning
    if "kernel" in params:
        changes["kernel"] = "rbf" if params["kernel"] != "rbf" else "linear"
    return changes


@pytest.mark.parametrize("key", STREAMING)
def test_partial_fit_after_a_state_parameter_changed_is_refused(key):
    X, y = _data(K=2 if registry.get(key).family == "batch" else 3)
    for name, value in _state_changes(_make(key)).items():
        est = _make(key, fit_intercept=True) if name == "intercept_scaling" else _make(key)
        est.partial_fit(X[:20], y[:20], classes=np.unique(y))
        before = est.decision_function(X)
        old = est.get_params()[name]
        est.set_params(**{name: value})
        with pytest.raises(ValueError, match=rf"built for .*{name}.*set_params.*fit"):
            est.partial_fit(X[20:], y[20:])  # was: a kernel writing past W (heap corruption)
        with pytest.raises(ValueError, match=name):
            est.predict(X)
        est.set_params(**{name: old})  # set back: the model is as it was, and goes on
        np.testing.assert_array_equal(est.decision_function(X), before)
        assert est.partial_fit(X[20:], y[20:]).t_ == 40
        est.set_params(**{name: value}).fit(X, y)  # fit starts afresh with the new value
        assert est.get_params()[name] == value


@pytest.mark.parametrize("key", BATCH)
def test_predict_after_a_state_parameter_changed_is_refused(key):
    X, y = _data(K=2)
    est = _make(key, random_state=0).fit(X, y)
    before = est.decision_function(X)
    for name, value in _state_changes(est).items():
        old = est.get_params()[name]
        est.set_params(**{name: value})
        with pytest.raises(ValueError, match=rf"built for {name}\W"):
            est.predict(X)  # was: IndexError, or another model's predictions
        est.set_params(**{name: old})
        np.testing.assert_array_equal(est.decision_function(X), before)


@pytest.mark.parametrize("key", ["pa1", "spa2", "scw1", "arow"])
def test_a_step_size_may_change_mid_stream(key):
    # C, r, eta, a variant only shape the next steps: not refused
    X, y = _data()
    est = _make(key).partial_fit(X[:20], y[:20], classes=[0, 1, 2])
    name = "r" if key == "arow" else "C"
    est.set_params(**{name: 0.01}).partial_fit(X[20:], y[20:])
    assert est.t_ == 40 and np.isfinite(est.coef_).all()


# --- item 3: a model over the memory budget is refused before allocation -------------------


def test_a_7_5_gib_model_is_refused_without_allocating():
    X = sp.csr_matrix(([1.0, 1.0], ([0, 1], [0, 99_999])), shape=(2, 100_000))
    est = PAClassifier()
    tracemalloc.start()
    try:
        with pytest.raises(BudgetError, match=r"10,000 classes x 100,000 features.*7\.45 GiB"):
            est.partial_fit(X, [0, 1], classes=np.arange(10_000))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20  # nothing model-sized was allocated
    assert not hasattr(est, "classes_")  # and the estimator stays unfitted


@pytest.mark.parametrize("key", ["cs-svm", "sgd-svm", "sgd-svm-pf", "cw", "arow", "scw1"])
def test_an_svmlight_upload_with_index_2_24_is_refused(key):
    # issue 22.3: 50 classes, one non-zero at feature 2^24 - 1: 6.25 GiB a dense model
    n, d = 100, 2**24
    X = sp.csr_matrix((np.ones(n), np.full(n, d - 1), np.arange(n + 1)), shape=(n, d))
    est = _make(key)
    with pytest.raises(BudgetError, match=r"50 (classes|binary SVMs) x 16,77\d,\d{3} features"):
        est.fit(X, np.arange(n) % 50)
    assert not hasattr(est, "classes_")


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("key", KEYS)
def test_olearn_max_bytes_lowers_and_raises_the_limit(key, monkeypatch):
    X, y = _data(K=2)
    monkeypatch.setenv("OLEARN_MAX_BYTES", "64")  # below every model: each family declares one
    with pytest.raises(BudgetError, match="OLEARN_MAX_BYTES"):
        _make(key).fit(X, y)
    monkeypatch.setenv("OLEARN_MAX_BYTES", "1MiB")
    assert _make(key).fit(X, y).predict(X).shape == y.shape


# --- item 5: a failed fit leaves every estimator unfitted ---------------------------------


def _bad_parameter(est) -> dict:
    """A value below the left bound of the first bounded numeric parameter."""
    for name in sorted(est.get_params()):
        for c in type(est)._parameter_constraints.get(name, []):
            if isinstance(c, Interval) and c.left is not None and c.type in (Real, Integral):
                return {name: c.left - 1}
    raise AssertionError(f"{type(est).__name__} has no bounded numeric parameter")


@pytest.mark.parametrize("failure", ["one class", "NaN", "bad parameter"])
@pytest.mark.parametrize("key", KEYS)
def test_a_failed_refit_leaves_the_estimator_unfitted(key, failure):
    X, y = _data(K=2)
    est = _make(key, random_state=0).fit(X, y)
    X2, y2 = X.copy(), y.copy()
    if failure == "one class":
        y2[:] = 1
    elif failure == "NaN":
        X2[3, 1] = np.nan
    else:
        est.set_params(**_bad_parameter(est))
    with pytest.raises(ValueError):
        est.fit(X2, y2)
    with pytest.raises(NotFittedError):  # was: IndexError, or the failed fit's classes_
        est.predict(X)
    assert not [k for k in vars(est) if k.endswith("_") and not k.startswith("__")]


# --- item 9: indices past 2^31 are not wrapped --------------------------------------------


def test_indices_past_2_31_keep_their_value():
    d = 2**31 + 5
    X = sp.csr_matrix(([1.0, 2.0], ([0, 1], [7, d - 2])), shape=(2, d))
    check_sparse_structure(X)  # in range
    (indptr, indices, data), column = csr_rows(X, intercept_scaling=1.0)
    assert indices.tolist() == [7, d - 2]  # was [7, -2147483645]: int32 wrapped
    assert column[1].tolist() == [d, d]  # the intercept's column index too
    with pytest.raises(BudgetError, match="2,147,483,654 features"):  # and no model that big
        PAClassifier(fit_intercept=True).fit(X, [0, 1])


def test_kernels_read_int64_indices_as_int32_ones():
    X = sp.random(6, 9, density=0.5, format="csr", random_state=0)
    W = np.random.default_rng(0).normal(size=(9, 3))
    rows32 = csr_rows(X)
    rows64 = tuple((p, i.astype(np.int64), v) for p, i, v in rows32)
    assert rows32[0][1].dtype == np.int32
    for r in range(6):
        s32, s64 = np.empty(3), np.empty(3)
        assert row_scores(rows32, r, W, s32) == row_scores(rows64, r, W, s64)
        np.testing.assert_array_equal(s32, s64)
