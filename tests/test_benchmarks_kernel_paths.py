"""The speed paths of the SPA kernel equal the readable rule step by step.

The lazy partial selection (few candidates) and the full merge sort (more than
``FULL_SORT_FROM`` candidates) must order the support-class candidates exactly as the readable
rule's stable sort, ties included (zero weights and integer features make many exact ties).
"""

import numpy as np
import pytest

from olearn.core.spa import spa_step
from olearn.kernels.additive import additive_epoch
from olearn.kernels.codes import additive_code
from olearn.kernels.spa import FULL_SORT_FROM
from olearn.kernels.sparse import csr_arrays
from tests.test_kernels_additive import RULES, kernel_code, readable_stream

pytestmark = pytest.mark.kernel_equality


@pytest.mark.parametrize("K", [3, 12, FULL_SORT_FROM + 8])
@pytest.mark.parametrize("variant", [None, "I", "II"])
def test_spa_kernel_equals_readable_rule_with_ties(K, variant):
    rng = np.random.default_rng(K)
    n, d = 60, 6
    X = rng.integers(-1, 2, size=(n, d)).astype(float)  # small integers: exact score ties
    y = rng.integers(K, size=n)
    C = 0.05 if variant == "I" else 1.0  # a small C makes SPA-I's cap bind
    W_ref = np.zeros((K, d))
    coefs = []
    for x, label in zip(X, y):
        W_ref, t = spa_step(W_ref, x, label, variant, C)
        coefs.append(np.array(t.coef))
    W = np.zeros((d, K))
    coef_out = np.zeros((n, K))
    additive_epoch(
        *csr_arrays(X),
        y.astype(np.int64),
        np.arange(n),
        W,
        additive_code("spa", variant),
        C,
        coef_out,
        np.zeros(0, dtype=np.bool_),
    )
    coefs = np.array(coefs)
    assert np.allclose(coef_out, coefs, rtol=1e-9, atol=1e-12)
    assert np.allclose(W.T, W_ref, rtol=1e-9, atol=1e-12)
    supports = (coefs < 0).sum(axis=1)
    assert supports.max() >= min(K - 1, 3)  # steps with several support classes happened


@pytest.mark.parametrize("key", RULES)
@pytest.mark.parametrize("start", ["zero", "random"])
def test_two_class_kernel_equals_readable_rule(key, start):
    """From zero weights the two-class fast path (one mirrored vector) runs; from a random
    (not mirrored) state the general loop does; both equal the readable rule."""
    rng = np.random.default_rng(5)
    n, d = 80, 7
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.6)
    y = rng.integers(2, size=n)
    C = 0.3
    W0 = np.zeros((2, d + 1)) if start == "zero" else rng.normal(size=(2, d + 1))
    Xa = np.hstack([X, np.ones((n, 1))])  # intercept = feature 1
    W_ref, coef_ref = readable_stream(key, Xa, y, 2, C, W0)
    W = np.ascontiguousarray(W0.T)
    coef_out = np.zeros((n, 2))
    mistakes = np.zeros(n, dtype=np.bool_)
    additive_epoch(
        *csr_arrays(X, intercept_scaling=1.0),
        y.astype(np.int64),
        np.arange(n),
        W,
        kernel_code(key, C),
        C,
        coef_out,
        mistakes,
    )
    assert np.allclose(coef_out, coef_ref, rtol=1e-9, atol=1e-12)
    assert np.allclose(W.T, W_ref, rtol=1e-9, atol=1e-12)
    assert coef_out.any(axis=1).sum() > 5
    if start == "zero":
        assert np.array_equal(W[:, 1], -W[:, 0])  # the mirror the fast path relies on
