"""SGD-SVM: the O(nnz) kernel (scaled weights, lazy catch-up) equals a plain dense textbook
loop written here from the objective, step by step, on dense and CSR input; the readable rule
equals the same textbook loop; the objective decreases on average; the printed signs are wrong.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olearn.core.sgd_svm import (
    check_sgd_hyper,
    sgd_init,
    sgd_step,
    sgd_svm_run,
    svm_objective,
)
from olearn.kernels.sgd_svm import sgd_code, sgd_epoch, sgd_weights

MODES = [
    ("global", "all"),
    ("global", "touched"),
    ("per-feature", "touched"),
    ("per-feature", "all"),
]


def textbook(X, y, order, lam, t0, schedule, regularize, bias_rate=0.01):
    """Dense SGD on E = mean hinge + lam/2 ||w||^2, every coordinate every step; returns the
    weights after each step.  Written from the gradient, independently of olearn."""
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    counts = np.zeros(d)
    out = []
    for t, i in enumerate(order):
        x = X[i]
        active = y[i] * (w @ x + b) < 1.0
        if schedule == "global":
            eta = np.full(d, 1.0 / (lam * (t + t0)))
        else:
            eta = 1.0 / (lam * (counts + t0))
        if regularize == "touched":
            eta = eta * (x != 0)
        grad = lam * w - (y[i] * x if active else 0.0)
        w = w - eta * grad
        if active:
            b += bias_rate * y[i] / (lam * (t + t0))
        counts += x != 0
        out.append((w.copy(), b))
    return out


def sparse_problem(seed, n=50, d=12):
    rng = np.random.default_rng(seed)
    mask = rng.random((n, d)) < rng.uniform(0.05, 0.8, size=d)  # rare and frequent features
    X = rng.normal(size=(n, d)) * mask
    y = np.where(X @ rng.normal(size=d) + 0.1 > 0, 1.0, -1.0)
    return X, y


def run_kernel(X, y, order, lam, t0, schedule, regularize, chunks):
    """The kernel over ``order`` cut into ``chunks`` calls; w read after every step."""
    indptr, indices, data = (
        np.asarray(a)
        for a in (sp.csr_matrix(X).indptr, sp.csr_matrix(X).indices, sp.csr_matrix(X).data)
    )
    indptr = indptr.astype(np.int64)
    indices = indices.astype(np.int32)
    d = X.shape[1]
    v = np.zeros(d)
    scalars = np.array([1.0, 0.0, 0.0])
    counts = np.zeros(d, dtype=np.int64)
    last = np.zeros(d, dtype=np.int64)
    code = sgd_code(schedule, regularize)
    out = []
    for part in np.array_split(np.asarray(order, dtype=np.int64), chunks):
        for i in part:  # one step per call, reading w after each
            sgd_epoch(
                indptr,
                indices,
                data,
                y,
                np.array([i], dtype=np.int64),
                v,
                scalars,
                counts,
                last,
                lam,
                t0,
                code,
                0.01,
                True,
            )
            w = np.empty(d)
            sgd_weights(v, scalars, counts, last, t0, code, w)
            out.append((w, scalars[1]))
    return out, (v, scalars, counts, last, code)


@pytest.mark.kernel_equality
@pytest.mark.parametrize("schedule,regularize", MODES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kernel_equals_dense_textbook_step_by_step(schedule, regularize, seed):
    X, y = sparse_problem(seed)
    order = np.random.default_rng(seed).integers(0, X.shape[0], size=150)
    lam, t0 = 0.05, 3.0  # big shrinks, so a wrong catch-up shows at once
    ref = textbook(X, y, order, lam, t0, schedule, regularize)
    got, _ = run_kernel(X, y, order, lam, t0, schedule, regularize, chunks=3)
    for (w_ref, b_ref), (w, b) in zip(ref, got):
        assert np.allclose(w, w_ref, rtol=1e-9, atol=1e-12)
        assert b == pytest.approx(b_ref, rel=1e-12, abs=1e-15)


@pytest.mark.kernel_equality
def test_scale_renormalisation_is_exact():
    """Many steps with a large shrink drive ``scale`` below its floor: still the textbook."""
    X, y = sparse_problem(5, n=30, d=6)
    order = np.tile(np.arange(30), 40)
    ref = textbook(X, y, order, 0.5, 1.5, "global", "all")
    got, (v, scalars, *_rest) = run_kernel(X, y, order, 0.5, 1.5, "global", "all", chunks=1)
    assert np.allclose(got[-1][0], ref[-1][0], rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("schedule,regularize", MODES)
def test_readable_rule_equals_textbook(schedule, regularize):
    X, y = sparse_problem(7)
    order = np.arange(X.shape[0])
    ref = textbook(X, y, order, 0.05, 3.0, schedule, regularize)
    state = sgd_init(X.shape[1])
    for i, (w_ref, b_ref) in zip(order, ref):
        state, tr = sgd_step(state, X[i], y[i], 0.05, 3.0, schedule=schedule, regularize=regularize)
        assert np.allclose(state.w, w_ref, rtol=1e-12, atol=1e-15)
        assert state.b == pytest.approx(b_ref)
        if schedule == "per-feature":  # the trace shows each feature's own rate and clock
            expected = 1.0 / (0.05 * (tr.counts_before + 3.0))
            if regularize == "touched":
                expected = expected * (X[i] != 0)
            assert np.allclose(tr.eta, expected)


@pytest.mark.kernel_equality
def test_estimator_equals_readable_run_dense_and_csr():
    from olearn.estimators import SGDSVMClassifier

    X, y = sparse_problem(8)
    for schedule, regularize in MODES:
        ref = sgd_svm_run(
            X,
            y,
            lam=0.02,
            t0=5.0,
            schedule=schedule,
            regularize=regularize,
            epochs=3,
            random_state=4,
        )
        for Xin in (X, sp.csr_matrix(X)):
            clf = SGDSVMClassifier(
                lam=0.02, t0=5.0, schedule=schedule, regularize=regularize, epochs=3, random_state=4
            ).fit(Xin, y)
            assert np.allclose(clf.coef_[0], ref.state.w, rtol=1e-9, atol=1e-12)
            assert clf.intercept_[0] == pytest.approx(ref.state.b)
            assert np.array_equal(clf.counts_[0], ref.state.counts)
            assert clf.t_ == ref.state.t


@pytest.mark.parametrize("schedule", ["global", "per-feature"])
def test_objective_decreases_on_average(schedule):
    rng = np.random.default_rng(9)
    X = rng.normal(size=(400, 10)) * (rng.random((400, 10)) < 0.5)
    y = np.where(X @ rng.normal(size=10) > 0, 1.0, -1.0)
    flips = rng.random(400) < 0.1
    y[flips] *= -1
    run = sgd_svm_run(
        X,
        y,
        lam=0.01,
        schedule=schedule,
        regularize="all",
        epochs=6,
        record_every=100,
        random_state=0,
    )
    E = np.array([e for _, e in run.curve])
    first, last = E[1:5].mean(), E[-4:].mean()
    assert last < first < E[0]  # E(0) = 1: the first epoch already helps, later ones more
    # and close to the optimum of the same E found by LIBLINEAR: C = 1/(n lam); its bias is
    # regularised, made negligible by a large intercept_scaling
    from sklearn.svm import LinearSVC

    n = X.shape[0]
    svc = LinearSVC(
        C=1.0 / (n * 0.01),
        loss="hinge",
        dual=True,
        intercept_scaling=100.0,
        tol=1e-6,
        max_iter=1000000,
    ).fit(X, y)
    E_star = svm_objective(svc.coef_[0], float(svc.intercept_[0]), X, y, 0.01)
    assert E_star <= E[-1] + 1e-6  # the batch optimum is no worse...
    assert E[-1] < E_star * 1.10  # ...and SGD is within 10% of it after 6 epochs


def test_printed_updates_have_the_wrong_sign():
    """From w = 0 the seed's printed per-feature step moves *against* the example."""
    x = np.array([1.0, 0.0, 2.0])
    state = sgd_init(3)
    _, tr = sgd_step(state, x, 1.0, lam=0.1, t0=10.0, schedule="per-feature")
    assert tr.w_after @ x > 0 > tr.printed_w @ x
    s1 = type(state)(np.array([1.0, 1.0, 1.0]), 0.0, 0, np.zeros(3, dtype=np.int64))
    _, tr = sgd_step(s1, np.zeros(3), 1.0, lam=0.1, t0=10.0, schedule="global")
    assert np.all(tr.w_after < s1.w)  # the regulariser shrinks w (margin 0 < 1: hinge active)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(lam=0.0),
        dict(lam=np.inf),
        dict(t0=1.0),
        dict(t0="big"),
        dict(schedule="adagrad"),
        dict(regularize="some"),
        dict(bias_rate=-1.0),
    ],
)
def test_bad_hyper_parameters_raise(kwargs):
    args = dict(lam=1e-3, t0="auto", schedule="global", regularize="auto", bias_rate=0.01)
    args.update(kwargs)
    with pytest.raises(ValueError):
        check_sgd_hyper(**args)


def test_bad_examples_raise():
    state = sgd_init(2)
    with pytest.raises(ValueError):
        sgd_step(state, np.array([np.nan, 1.0]), 1.0)
    with pytest.raises(ValueError):
        sgd_step(state, np.array([1.0, 1.0]), 0.0)
    with pytest.raises(ValueError):
        sgd_step(state, np.array([1.0]), 1.0)
