"""The PA regression kernel equals its readable rule step by step: every step's ``s tau``
and the weights after each pass, dense and CSR rows, with and without the intercept column,
with and without example weights, with and without averaging (the mean of the rule's
iterates), over several seeds and all three variants."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olearn.core.pa_regression import pa_regression_step
from olearn.kernels.codes import regression_code
from olearn.kernels.pa_regression import pa_regression_epoch
from olearn.kernels.sparse import csr_rows

RTOL = 1e-9


def stream(seed: int, sparse: bool, n: int = 80, d: int = 7):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.4 if sparse else 1.0))
    y = X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) + 1.5
    return X, y


def readable(X, y, order, variant, C, epsilon, s, weights, start):
    """The rule over ``order`` on X with the column ``s`` appended: (steps, w, mean iterate)."""
    Xa = np.hstack([X, np.full((X.shape[0], 1), s)]) if s > 0 else X
    w = np.zeros(Xa.shape[1])
    steps, iterates, t = [], [], 0
    for i in order:
        weight = 1.0 if weights is None else weights[i]
        w, trace = pa_regression_step(w, Xa[i], y[i], variant, C, epsilon, weight=weight)
        steps.append(trace.sign * trace.tau)
        if weight > 0:
            t += 1
            if t >= start:
                iterates.append(w)
    return np.array(steps), w, np.mean(iterates, axis=0)


def assert_close(a, b):
    scale = max(1.0, float(np.abs(b).max()))
    np.testing.assert_allclose(a, b, rtol=RTOL, atol=RTOL * scale)


@pytest.mark.kernel_equality
@pytest.mark.parametrize("variant", [None, "I", "II"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("s", [0.0, 1.0, 0.1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", [0, 1, 30])
def test_kernel_equals_rule_step_by_step(variant, sparse, s, weighted, average):
    for seed in range(3):
        X, y = stream(seed, sparse)
        rng = np.random.default_rng(seed + 10)
        order = np.concatenate([rng.permutation(80), rng.permutation(80)]).astype(np.int64)
        weights = rng.choice([0.0, 0.5, 1.0, 3.0], size=80) if weighted else None
        C, epsilon = 0.05, 0.2
        steps_ref, w_ref, mean_ref = readable(X, y, order, variant, C, epsilon, s, weights,
                                              max(average, 1))  # fmt: skip
        rows = csr_rows(sp.csr_matrix(X) if sparse else X, dense_view=not sparse,
                        intercept_scaling=s)  # fmt: skip
        w = np.zeros(X.shape[1] + (s > 0))
        U = np.zeros_like(w) if average else None
        avg = np.array([0, 0, average], dtype=np.int64) if average else None
        steps = np.zeros(order.shape[0])
        n = pa_regression_epoch(rows, y, order, w, regression_code(variant), C, epsilon, steps,
                                weights, U, avg)  # fmt: skip
        assert_close(steps, steps_ref)
        assert_close(w, w_ref)
        assert n == np.count_nonzero(steps_ref) > 20
        if average:
            assert_close(w - U / avg[1], mean_ref)


def test_a_wrong_step_would_be_seen():
    """The comparison above can fail: a kernel given another C differs from the rule."""
    X, y = stream(0, False)
    order = np.arange(80, dtype=np.int64)
    steps_ref, w_ref, _ = readable(X, y, order, "I", 0.05, 0.2, 0.0, None, 1)
    w, steps = np.zeros(7), np.zeros(80)
    pa_regression_epoch(csr_rows(X), y, order, w, regression_code("I"), 0.06, 0.2, steps)
    with pytest.raises(AssertionError):
        assert_close(steps, steps_ref)
