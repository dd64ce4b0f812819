"""``SGDSVMClassifier(average=...)``: the O(nnz) lazy sums (scale trick, per-feature catch-up)
equal the explicit mean of the readable rule's iterates (:func:`olearn.core.sgd_svm.sgd_step`,
one binary SVM per class), in every (schedule, regularize) mode, with weights, across
``partial_fit`` calls and through a fold of the scale; predictions use the average; the state
round-trips and continues bit for bit."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import scipy.sparse as sp

from olearn.core.sgd_svm import sgd_init, sgd_step
from olearn.estimators import SGDSVMClassifier

MODES = [
    ("global", "all"),
    ("global", "touched"),
    ("per-feature", "touched"),
    ("per-feature", "all"),
]
HYPER = dict(lam=0.05, t0=3.0, bias_rate=0.3)


def problem(seed: int, K: int, n: int = 60, d: int = 8):
    rng = np.random.default_rng(seed)
    mask = rng.random((n, d)) < rng.uniform(0.1, 0.9, size=d)  # rare and frequent features
    X = rng.normal(size=(n, d)) * mask
    y = (X @ rng.normal(size=(d, K)) + 0.5 * rng.normal(size=(n, K))).argmax(axis=1)
    return X, y


def explicit_mean(X, y, K, mode, start, rows, weights=None, fit_intercept=True):
    """Per binary SVM, the plain mean of the readable rule's iterates ``w_m`` (and biases)
    for ``m >= start`` (1-based; a row of weight 0 is no iterate), over the rows ``rows``."""
    schedule, regularize = mode
    P = 1 if K == 2 else K
    W, b = np.zeros((P, X.shape[1])), np.zeros(P)
    for p in range(P):
        y_pm = np.where(y == (1 if P == 1 else p), 1.0, -1.0)
        state, iterates = sgd_init(X.shape[1]), []
        for i in rows:
            s = 1.0 if weights is None else float(weights[i])
            state, _ = sgd_step(
                state, X[i], y_pm[i], schedule=schedule, regularize=regularize,
                fit_intercept=fit_intercept, weight=s, **HYPER,
            )  # fmt: skip
            if s > 0:
                iterates.append((state.w, state.b))
        W[p] = np.mean([w for w, _ in iterates[start - 1 :]], axis=0)
        b[p] = np.mean([bias for _, bias in iterates[start - 1 :]])
    return W, b


def close(a, b, rel=1e-12):
    scale = max(np.abs(b).max(), 1e-300)
    assert np.abs(a - b).max() <= rel * scale, np.abs(a - b).max() / scale


@pytest.mark.kernel_equality
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("average", [True, 37])
@pytest.mark.parametrize("K", [2, 3])
def test_average_equals_the_mean_of_the_rule_iterates(mode, average, K):
    X, y = problem(K + (average is True), K)
    est = SGDSVMClassifier(
        schedule=mode[0], regularize=mode[1], average=average, epochs=2, shuffle=False, **HYPER
    ).fit(sp.csr_matrix(X) if K == 3 else X, y)
    start = 1 if average is True else average
    W, b = explicit_mean(X, y, K, mode, start, np.tile(np.arange(len(y)), 2))
    close(est.coef_, W)
    close(est.intercept_, b)
    scores = X @ W.T + b  # predictions use the average
    expected = scores.argmax(axis=1) if K > 2 else (scores[:, 0] > 0).astype(int)
    assert np.array_equal(est.predict(X), est.classes_[expected])


@pytest.mark.kernel_equality
@pytest.mark.parametrize("mode", MODES)
def test_weights_and_partial_fit_calls(mode):
    """Weights (zeros are absent: no iterate), averaging that starts inside the second call."""
    X, y = problem(11, 3)
    weights = np.random.default_rng(1).choice([0.0, 0.5, 1.0, 2.5], size=len(y))
    est = SGDSVMClassifier(schedule=mode[0], regularize=mode[1], average=25, **HYPER)
    for part in np.array_split(np.arange(len(y)), 3):
        est.partial_fit(X[part], y[part], classes=[0, 1, 2], sample_weight=weights[part])
    W, b = explicit_mean(X, y, 3, mode, 25, np.arange(len(y)), weights)
    close(est.coef_, W)
    close(est.intercept_, b)


def test_no_intercept_and_a_start_beyond_the_stream():
    X, y = problem(4, 2)
    kw = dict(average=True, fit_intercept=False, epochs=1, shuffle=False, **HYPER)
    est = SGDSVMClassifier(**kw).fit(X, y)
    W, _ = explicit_mean(X, y, 2, ("global", "all"), 1, np.arange(len(y)), fit_intercept=False)
    close(est.coef_, W)
    assert np.array_equal(est.intercept_, [0.0])
    late = SGDSVMClassifier(**{**kw, "average": 10**6}).fit(X, y)  # nothing averaged yet: raw
    plain = SGDSVMClassifier(**{**kw, "average": False}).fit(X, y)
    assert np.array_equal(late.coef_, plain.coef_)


@pytest.mark.parametrize("mode", [("global", "all"), ("per-feature", "all")])
def test_state_round_trip_and_scale_fold(mode):
    """A restored model continues bit for bit; a state whose scale is about to fall below the
    floor (folded into v) continues the same mean (the fold keeps ``sigma v``)."""
    X, y = problem(5, 3)
    kw = dict(schedule=mode[0], regularize=mode[1], average=True, **HYPER)
    est = SGDSVMClassifier(**kw).partial_fit(X[:30], y[:30], classes=[0, 1, 2])
    state = est.get_state()
    again = pickle.loads(pickle.dumps(SGDSVMClassifier(**kw).set_state(state)))
    est.partial_fit(X[30:], y[30:])
    again.partial_fit(X[30:], y[30:])
    assert np.array_equal(again.coef_, est.coef_)
    assert np.array_equal(again.intercept_, est.intercept_)
    if mode[1] == "all" and mode[0] == "global":
        tiny = dict(state)
        tiny["scale"] = state["scale"] * 1e-10  # same w, scale near the fold
        tiny["v"] = state["v"] * 1e10
        tiny["average_scale_sum"] = state["average_scale_sum"] * 1e-10  # same sigma v
        folded = SGDSVMClassifier(**kw).set_state(tiny).partial_fit(X[30:], y[30:])
        close(folded.coef_, est.coef_, 1e-11)


def test_average_is_checked_and_part_of_the_state():
    X, y = problem(6, 2)
    with pytest.raises(ValueError):
        SGDSVMClassifier(average=-1).fit(X, y)
    state = SGDSVMClassifier(average=True, **HYPER).fit(X, y).get_state()
    assert state["params"]["average"] == 1
    with pytest.raises(ValueError, match="average"):
        SGDSVMClassifier(**HYPER).set_state(state)
