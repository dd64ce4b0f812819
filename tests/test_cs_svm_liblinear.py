"""Same optimum as LIBLINEAR (scikit-learn's ``LinearSVC(multi_class="crammer_singer")``).

Both objectives are computed here, from each model's ``coef_`` and ``intercept_``, by one
function; predictions are compared where LIBLINEAR's top two scores are not nearly tied.
With ``NUMBA_DISABLE_JIT=1`` the kernel runs as plain Python, so smaller data are used.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_digits
from sklearn.svm import LinearSVC

from olearn.core.cs_svm import objective_from_coef
from olearn.estimators.cs_svm import CrammerSingerSVC

SMALL = bool(numba.config.DISABLE_JIT)


def digits():
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    if SMALL:
        X, y = X[:100, np.argsort(X.var(axis=0))[-8:]], y[:100]  # 8 busiest pixels
    return X, y


def sparse_text(seed=0):
    """Bag-of-words-like counts: 6 classes, each with its own frequent words."""
    rng = np.random.default_rng(seed)
    n, d, K = (120, 60, 4) if SMALL else (600, 400, 6)
    y = rng.integers(K, size=n)
    rates = rng.gamma(0.3, 1.0, size=(K, d))
    X = rng.poisson(rates[y] * 0.8).astype(float)
    X = sp.csr_matrix(X / np.maximum(1.0, np.sqrt((X * X).sum(axis=1, keepdims=True))))
    return X, y


def clear_predictions(lin, X):
    scores = lin.decision_function(X)
    eps = 1e-3 * np.abs(scores).max()  # "nearly tied": within 0.1% of the score range
    if scores.ndim == 1:
        return np.abs(scores) > eps
    top2 = np.sort(scores, axis=1)[:, -2:]
    return top2[:, 1] - top2[:, 0] > eps


def check_same_optimum(X, y, C, fit_intercept=True):
    ours = CrammerSingerSVC(
        C=C, fit_intercept=fit_intercept, tol=1e-6, max_iter=100000, random_state=0
    ).fit(X, y)
    lin = LinearSVC(
        multi_class="crammer_singer",
        C=C,
        fit_intercept=fit_intercept,
        tol=1e-6,
        max_iter=200000,
        random_state=0,
    ).fit(X, y)
    assert ours.coef_.shape == lin.coef_.shape
    assert np.shape(ours.intercept_) == np.shape(lin.intercept_)
    y_idx = np.unique(y, return_inverse=True)[1]  # classes_ order, shared by both
    P_ours = objective_from_coef(ours.coef_, ours.intercept_, X, y_idx, C)
    P_lin = objective_from_coef(lin.coef_, lin.intercept_, X, y_idx, C)
    assert P_ours == pytest.approx(P_lin, rel=1e-4)
    assert P_ours == pytest.approx(ours.objective_, rel=1e-10)  # our own bookkeeping agrees
    clear = clear_predictions(lin, X)
    assert clear.mean() > 0.75
    assert np.array_equal(ours.predict(X)[clear], lin.predict(X)[clear])
    return ours, lin


@pytest.mark.parametrize("C", [0.01, 0.1, 1.0])
def test_digits_same_optimum_as_liblinear(C):
    check_same_optimum(*digits(), C)


def test_no_intercept_same_optimum_as_liblinear():
    check_same_optimum(*digits(), 0.1, fit_intercept=False)


def test_sparse_same_optimum_as_liblinear():
    check_same_optimum(*sparse_text(), 1.0)


def test_binary_same_optimum_and_shapes_as_liblinear():
    X, y = digits()
    keep = (y == 3) | (y == 8)
    ours, lin = check_same_optimum(X[keep], y[keep], 0.1)
    assert ours.coef_.shape == (1, X.shape[1]) and ours.intercept_.shape == (1,)
    assert np.array_equal(
        np.sign(ours.decision_function(X[keep])), np.sign(lin.decision_function(X[keep]))
    )
