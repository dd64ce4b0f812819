"""The CW-family numba kernel equals the readable rules, step by step, on dense and CSR input.

``tests/test_no_jit.py`` runs this file again with ``NUMBA_DISABLE_JIT=1``."""

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry
from olearn.core.cw import CWState
from olearn.kernels.cw import cw_code, cw_epoch, diagonal_code
from olearn.kernels.sparse import csr_rows

# the registry's confidence-weighted entries, and CW's variance form: (key, fixed arguments)
RULES = [(k, {}) for k in registry.keys(family="cw")] + [("cw", {"form": "variance"})]
VALUES = {"eta": 0.8, "r": 0.5, "C": 0.3}  # away from the defaults; others at their default


pytestmark = pytest.mark.kernel_equality


def hypers(spec, **fixed):
    """Test values of the rule's hyper-parameters (its default where VALUES has none)."""
    return {h.name: VALUES.get(h.name, h.default) for h in spec.hypers} | fixed


def make_data(seed, sparse):
    rng = np.random.default_rng(seed)
    n, d, K = 80, 8, int(rng.integers(2, 6))
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.4 if sparse else 1.0))
    X[rng.integers(n)] = 0.0  # a zero row
    teacher = X @ rng.normal(size=(d, K)) + 0.5 * rng.normal(size=(n, K))
    return (sp.csr_matrix(X) if sparse else X), X, teacher.argmax(axis=1), K


@pytest.mark.parametrize(("key", "fixed"), RULES, ids=[k + "".join(f) for k, f in RULES])
@pytest.mark.parametrize("covariance", ["full", "precision", "truncated"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kernel_equals_readable_rule(key, fixed, covariance, sparse, seed):
    """The rule through its spec, the kernel through the rule tuple its estimator builds."""
    spec = registry.get(key)
    Xin, X, y, K = make_data(seed, sparse)
    intercept = seed != 1
    diagonal_form = "precision" if covariance == "full" else covariance
    Xa = np.hstack([X, np.ones((len(y), 1))]) if intercept else X
    D = Xa.shape[1]
    full = covariance == "full"
    state = CWState(np.zeros((K, D)), np.eye(D) if full else np.ones(D))
    alphas, betas = [], []
    kwargs = hypers(spec, **fixed, diagonal_form=diagonal_form)
    for x, label in zip(Xa, y):
        state, t = spec.apply(state, x, int(label), **kwargs)
        alphas.append(t.alpha)
        betas.append(t.beta)
    rows = csr_rows(Xin, intercept_scaling=1.0 if intercept else 0.0)
    W = np.zeros((D, K))
    S_diag = np.zeros(0) if full else np.ones(D)
    A_full = np.eye(D) if full else np.zeros((0, 0))
    alpha_out, beta_out = np.zeros(len(y)), np.zeros(len(y))
    mistakes = np.zeros(len(y), dtype=np.bool_)
    estimator = spec.make(**kwargs)
    cw_epoch(
        rows,
        y.astype(np.int64),
        np.arange(len(y)),
        W,
        S_diag,
        A_full,
        estimator.new_engine(1, [0, 1]).rule,
        alpha_out,
        beta_out,
        mistakes,
    )
    assert np.allclose(alpha_out, alphas, rtol=1e-9, atol=1e-12)
    assert np.allclose(beta_out, betas, rtol=1e-9, atol=1e-12)
    assert np.allclose(W.T, state.mu, rtol=1e-9, atol=1e-9 * np.abs(state.mu).max())
    Sigma = A_full @ A_full.T if full else S_diag
    assert np.allclose(Sigma, state.Sigma, rtol=1e-9, atol=1e-12)
    assert (alpha_out > 0).sum() > 10  # the stream really made aggressive steps
    assert mistakes.any()


def test_unknown_codes_raise():
    with pytest.raises(ValueError, match="rule"):
        cw_code("no such rule")
    with pytest.raises(ValueError, match="diagonal form"):
        diagonal_code("exact")
