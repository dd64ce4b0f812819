"""The numba kernel equals the readable rules, step by step, on dense and CSR input."""

import numpy as np
import pytest
import scipy.sparse as sp

from olearn.core.pa import pa_step, perceptron_step
from olearn.core.spa import spa_step
from olearn.kernels.additive import additive_epoch
from olearn.kernels.codes import additive_code
from olearn.kernels.sparse import csr_arrays

RULES = [
    ("perceptron", None),
    ("pa", None),
    ("pa", "I"),
    ("pa", "II"),
    ("spa", None),
    ("spa", "I"),
    ("spa", "II"),
]


def readable_stream(rule, variant, X, y, K, C, intercept, W0=None):
    """Run the core rule sample by sample from ``W0`` (default zeros, (K, d [+1])); return the
    weights and the coef of every step."""
    Xa = np.hstack([X, np.ones((X.shape[0], 1))]) if intercept else X
    W = np.zeros((K, Xa.shape[1])) if W0 is None else np.array(W0, dtype=float)
    coefs = []
    for x, label in zip(Xa, y):
        if rule == "perceptron":
            W1, t = perceptron_step(W, x, label)
            coef = np.zeros(K)
            if t.mistake:
                coef[label], coef[t.rival] = 1.0, -1.0
        elif rule == "pa":
            W1, t = pa_step(W, x, label, variant, C)
            coef = np.zeros(K)
            coef[label], coef[t.rival] = t.tau, -t.tau
        else:
            W1, t = spa_step(W, x, label, variant, C)
            coef = np.array(t.coef)
        coefs.append(coef)
        W = W1
    return W, np.array(coefs)


def make_data(seed, sparse):
    rng = np.random.default_rng(seed)
    n, d, K = 120, 15, int(rng.integers(3, 9))
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.3 if sparse else 1.0))
    X[rng.integers(n)] = 0.0  # a zero row: must stay passive in both
    y = rng.integers(K, size=n)
    return (sp.csr_matrix(X) if sparse else X), X, y, K


@pytest.mark.parametrize("rule,variant", RULES)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kernel_equals_readable_rule(rule, variant, sparse, seed):
    Xin, X, y, K = make_data(seed, sparse)
    C = [0.01, 1.0, 100.0][seed]
    intercept = seed != 1
    W_ref, coef_ref = readable_stream(rule, variant, X, y, K, C, intercept)
    indptr, indices, data = csr_arrays(Xin)
    W = np.zeros((X.shape[1] + intercept, K))
    coef_out = np.zeros((len(y), K))
    mistakes = np.zeros(len(y), dtype=np.bool_)
    additive_epoch(
        indptr,
        indices,
        data,
        y.astype(np.int64),
        np.arange(len(y)),
        W,
        additive_code(rule, variant),
        C,
        intercept,
        coef_out,
        mistakes,
    )
    scale = np.abs(W_ref).max()
    assert np.allclose(W.T, W_ref, rtol=1e-9, atol=1e-9 * scale)
    assert np.allclose(coef_out, coef_ref, rtol=1e-9, atol=1e-9 * np.abs(coef_ref).max())
    assert coef_out.any(axis=1).sum() > 10  # the stream really made aggressive steps
