"""The additive numba kernel equals the readable rules, step by step, on dense and CSR input,
for every algorithm the registry runs on it (``registry.keys(kernel="additive")``).

``tests/test_no_jit.py`` re-runs every ``kernel_equality`` test with ``NUMBA_DISABLE_JIT=1``.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry
from olearn.kernels.additive import additive_epoch
from olearn.kernels.sparse import csr_arrays

pytestmark = pytest.mark.kernel_equality

RULES = registry.keys(kernel="additive")


def step_coef(trace, y: int, K: int) -> np.ndarray:
    """The signed step of one readable trace: ``w_u += coef_u x``."""
    if hasattr(trace, "coef"):  # SPA
        return np.array(trace.coef)
    coef = np.zeros(K)
    if hasattr(trace, "mistake"):  # Perceptron
        if trace.mistake:
            coef[y], coef[trace.rival] = 1.0, -1.0
    else:  # PA family
        coef[y], coef[trace.rival] = trace.tau, -trace.tau
    return coef


def readable_stream(key, X, y, K, C, W0=None):
    """Run the registry's readable rule sample by sample from ``W0`` (default zeros,
    (K, d)); return the weights and the coef of every step."""
    spec = registry.get(key)
    learner = spec.readable(**({"C": C} if "C" in spec.defaults else {}))
    W = learner.init(X.shape[1], K) if W0 is None else np.array(W0, dtype=float)
    coefs = []
    for x, label in zip(X, y):
        W, trace = learner.step(W, x, int(label))
        coefs.append(step_coef(trace, int(label), K))
    return W, np.array(coefs)


def kernel_code(key: str, C: float) -> int:
    """The kernel code the registry's estimator would pass for ``key``."""
    return registry.get(key).make(**({"C": C} if "C" in registry.get(key).defaults else {}))._code()


def make_data(seed, sparse):
    rng = np.random.default_rng(seed)
    n, d, K = 120, 15, int(rng.integers(3, 9))
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.3 if sparse else 1.0))
    X[rng.integers(n)] = 0.0  # a zero row: must stay passive in both
    y = rng.integers(K, size=n)
    return (sp.csr_matrix(X) if sparse else X), X, y, K


def with_column(X: np.ndarray, s: float) -> np.ndarray:
    """X with the intercept column of value ``s`` appended (none when s = 0)."""
    return np.hstack([X, np.full((X.shape[0], 1), s)]) if s > 0 else X


def test_every_additive_algorithm_is_covered():
    assert {"perceptron", "pa", "pa1", "pa2", "pa-mistakes", "spa", "spa1", "spa2"} <= set(RULES)


@pytest.mark.parametrize("key", RULES)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kernel_equals_readable_rule(key, sparse, seed):
    Xin, X, y, K = make_data(seed, sparse)
    C = [0.01, 1.0, 100.0][seed]
    s = [1.0, 0.0, 0.3][seed]  # intercept column value (0: none)
    W_ref, coef_ref = readable_stream(key, with_column(X, s), y, K, C)
    W = np.zeros((X.shape[1] + (s > 0), K))
    coef_out = np.zeros((len(y), K))
    mistakes = np.zeros(len(y), dtype=np.bool_)
    indptr, indices, data = csr_arrays(Xin, intercept_scaling=s)
    order = np.arange(len(y))
    code = kernel_code(key, C)
    additive_epoch(indptr, indices, data, y.astype(np.int64), order, W, code, C, coef_out, mistakes)
    scale = np.abs(W_ref).max()
    assert np.allclose(W.T, W_ref, rtol=1e-9, atol=1e-9 * scale)
    assert np.allclose(coef_out, coef_ref, rtol=1e-9, atol=1e-9 * np.abs(coef_ref).max())
    assert coef_out.any(axis=1).sum() > 10  # the stream really made aggressive steps


def test_mistakes_only_pa_steps_only_on_mistakes():
    """The diagnostic differs from PA exactly where PA steps on a correct prediction."""
    Xin, X, y, K = make_data(0, False)
    _, pa = readable_stream("pa", X, y, K, 1.0)
    _, mistakes_only = readable_stream("pa-mistakes", X, y, K, 1.0)
    assert (np.abs(mistakes_only).sum(axis=1) > 0).sum() < (np.abs(pa).sum(axis=1) > 0).sum()
