"""The numba sweep equals the readable decomposition, sweep by sweep, on dense and CSR input;
its sub-problem solver equals the readable sort; shrinking reaches the same optimum."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from olearn.core.cs_subproblem import solve_cs_subproblem
from olearn.core.cs_svm import cs_svm_solve, objective_from_coef
from olearn.estimators.cs_svm import CrammerSingerSVC
from olearn.kernels.cs_svm import cs_subproblem


@pytest.mark.kernel_equality
def test_kernel_subproblem_equals_the_readable_sort():
    rng = np.random.default_rng(0)
    D = np.empty(30)
    out = np.empty(30)
    for _ in range(2000):
        K = int(rng.integers(2, 30))
        A = float(10.0 ** rng.uniform(-2, 2))
        B = rng.normal(size=K) * 3
        if rng.random() < 0.3:
            B = np.round(B)
        y = int(rng.integers(K))
        C = float(10.0 ** rng.uniform(-3, 3))
        cs_subproblem(A, B, K, y, C, D, out)
        assert np.allclose(out[:K], solve_cs_subproblem(A, B, y, C), rtol=1e-12, atol=1e-12)


def data(seed, sparse):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 6)) * (rng.random((40, 6)) < 0.6)
    y = rng.integers(4, size=40)
    return (sp.csr_matrix(X) if sparse else X), X, y


@pytest.mark.kernel_equality
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_kernel_equals_readable_solver_sweep_by_sweep(sparse, fit_intercept, seed):
    Xin, X, y = data(seed, sparse)
    s = 2.5  # intercept_scaling: the readable solver gets the column appended by hand
    Xa = np.hstack([X, np.full((X.shape[0], 1), s)]) if fit_intercept else X
    for sweeps in (1, 2, 7):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf = CrammerSingerSVC(
                C=0.8,
                fit_intercept=fit_intercept,
                intercept_scaling=s,
                tol=1e-12,
                max_iter=sweeps,
                shrinking=False,
                random_state=seed,
            ).fit(Xin, y)
        ref = cs_svm_solve(Xa, y, 0.8, tol=1e-12, max_iter=sweeps, random_state=seed)
        assert np.allclose(clf.alpha_, ref.alpha, rtol=1e-9, atol=1e-12)
        assert np.allclose(clf._W.T, ref.W, rtol=1e-9, atol=1e-12)
        assert clf.objective_ == pytest.approx(ref.sweeps[-1].primal, rel=1e-9)
        assert clf.dual_objective_ == pytest.approx(ref.sweeps[-1].dual, rel=1e-9, abs=1e-12)


@pytest.mark.kernel_equality
@pytest.mark.parametrize("C", [0.05, 1.0])
def test_shrinking_reaches_the_same_optimum(C):
    _, X, y = data(3, False)
    kw = dict(C=C, tol=1e-7, max_iter=100000, random_state=0)
    a = CrammerSingerSVC(shrinking=True, **kw).fit(X, y)
    b = CrammerSingerSVC(shrinking=False, **kw).fit(X, y)
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-7)
    for clf in (a, b):
        gap = clf.objective_ - clf.dual_objective_
        assert -1e-10 <= gap < 1e-6 * clf.objective_
        P = objective_from_coef(clf.coef_, clf.intercept_, X, y, C)
        assert P == pytest.approx(clf.objective_, rel=1e-12)


def test_estimator_rejects_bad_input():
    X = np.eye(4)
    with pytest.raises(ValueError):
        CrammerSingerSVC(C=-1.0).fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError):
        CrammerSingerSVC().fit(X, [0, 0, 0, 0])
    with pytest.raises(ValueError):
        CrammerSingerSVC().fit(np.array([[np.nan, 1.0], [0.0, 1.0]]), [0, 1])
    with pytest.raises(ValueError):
        CrammerSingerSVC(max_iter=0).fit(X, [0, 1, 0, 1])


@pytest.mark.parametrize(
    "params,name",
    [
        ({"C": 1e308}, "'C'"),  # gave NaN weights before the constraint
        ({"C": float("nan")}, "'C'"),
        ({"tol": 0.0}, "'tol'"),
        ({"intercept_scaling": float("inf")}, "'intercept_scaling'"),
        ({"shrinking": "yes"}, "'shrinking'"),
        ({"max_iter": 2.5}, "'max_iter'"),
    ],
)
def test_parameter_constraints_name_the_parameter(params, name):
    with pytest.raises(ValueError, match=name):
        CrammerSingerSVC(**params).fit(np.eye(4), [0, 1, 0, 1])


def test_largest_allowed_C_gives_finite_weights():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 3)) * 100, np.arange(30) % 3
    with pytest.warns(ConvergenceWarning):  # a hard margin on non-separable data: capped
        clf = CrammerSingerSVC(C=1e12, max_iter=20, random_state=0).fit(X, y)
    assert np.isfinite(clf.coef_).all()
