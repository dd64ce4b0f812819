"""The CW-family numba kernel equals the readable rules, step by step, on dense and CSR input.

``tests/test_no_jit.py`` runs this file again with ``NUMBA_DISABLE_JIT=1``."""

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry
from olearn.core._cw_closed_forms import phi_of
from olearn.core.cw import CWState, arow_step, cw_step, scw_step
from olearn.kernels.cw import cw_code, cw_epoch, diagonal_code
from olearn.kernels.sparse import csr_arrays

# the rules of the registry's confidence-weighted entries, and CW's variance form
RULES = [registry.get(k).make()._rule_name() for k in registry.keys(family="cw")]
RULES += ["CW-variance"]
ETA, R, C = 0.8, 0.5, 0.3


pytestmark = pytest.mark.kernel_equality


def readable_step(rule, state, x, label, diagonal_form):
    kw = {"diagonal_form": diagonal_form}
    if rule == "CW":
        return cw_step(state, x, label, eta=ETA, **kw)
    if rule == "CW-variance":
        return cw_step(state, x, label, eta=ETA, form="variance", **kw)
    if rule == "AROW":
        return arow_step(state, x, label, r=R, **kw)
    return scw_step(state, x, label, "I" if rule == "SCW-I" else "II", C=C, eta=ETA, **kw)


def make_data(seed, sparse):
    rng = np.random.default_rng(seed)
    n, d, K = 80, 8, int(rng.integers(2, 6))
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.4 if sparse else 1.0))
    X[rng.integers(n)] = 0.0  # a zero row
    teacher = X @ rng.normal(size=(d, K)) + 0.5 * rng.normal(size=(n, K))
    return (sp.csr_matrix(X) if sparse else X), X, teacher.argmax(axis=1), K


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("covariance", ["full", "precision", "truncated"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kernel_equals_readable_rule(rule, covariance, sparse, seed):
    Xin, X, y, K = make_data(seed, sparse)
    intercept = seed != 1
    diagonal_form = "precision" if covariance == "full" else covariance
    Xa = np.hstack([X, np.ones((len(y), 1))]) if intercept else X
    D = Xa.shape[1]
    full = covariance == "full"
    state = CWState(np.zeros((K, D)), np.eye(D) if full else np.ones(D))
    alphas, betas = [], []
    for x, label in zip(Xa, y):
        state, t = readable_step(rule, state, x, int(label), diagonal_form)
        alphas.append(t.alpha)
        betas.append(t.beta)
    indptr, indices, data = csr_arrays(Xin, intercept_scaling=1.0 if intercept else 0.0)
    W = np.zeros((D, K))
    S_diag = np.zeros(0) if full else np.ones(D)
    A_full = np.eye(D) if full else np.zeros((0, 0))
    alpha_out, beta_out = np.zeros(len(y)), np.zeros(len(y))
    mistakes = np.zeros(len(y), dtype=np.bool_)
    phi = phi_of(ETA)
    cw_epoch(
        indptr,
        indices,
        data,
        y.astype(np.int64),
        np.arange(len(y)),
        W,
        S_diag,
        A_full,
        (cw_code(rule), phi, R, C, 1.0, diagonal_code(diagonal_form)),
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
        cw_code("NHERD")
    with pytest.raises(ValueError, match="diagonal form"):
        diagonal_code("exact")
