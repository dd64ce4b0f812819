"""The CW kernel's two-class fast path (one mirrored mean) equals its general loop bit for bit.

``cw_epoch`` takes :func:`olearn.kernels.cw._mirrored_diagonal_pass` when K = 2, the covariance
is diagonal, ``W[:, 1] == -W[:, 0]`` and the pass reads at least as many non-zeros as ``W``
has rows.  Fed one row at a time (fewer non-zeros than rows) it runs the general two-row loop,
which ``tests/test_cw_kernels.py`` checks against the readable rules; the state carries over
between calls, so the row-by-row run is the same stream through the general loop.
``tests/test_no_jit.py`` runs this file again with ``NUMBA_DISABLE_JIT=1``.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry
from olearn.core.cw import CWState
from olearn.kernels.cw import _mirrored_diagonal_pass, cw_epoch, kernel_rule
from olearn.kernels.sparse import csr_rows, row_nnz

# the registry's confidence-weighted rules, and CW's variance form: "key" or "key:form"
RULES = [*registry.keys(family="cw"), "cw:variance"]
VALUES = {"eta": 0.8, "r": 0.5, "C": 0.3}  # away from the defaults; others at their default


def learner(rule, form):
    """``(readable step, kernel rule tuple)`` of ``rule`` through its registry spec."""
    key, _, cw_form = rule.partition(":")
    spec = registry.get(key)
    kwargs = {h.name: VALUES.get(h.name, h.default) for h in spec.hypers}
    kwargs |= {"diagonal_form": form, **({"form": cw_form} if cw_form else {})}
    return (lambda s, x, y: spec.apply(s, x, y, **kwargs)), spec.make(**kwargs).new_engine(
        1, [0, 1]
    ).rule


pytestmark = pytest.mark.kernel_equality


def make_binary(seed, dense_view=False, intercept=True):
    """Sparse rows (about 30% non-zero, none full) with labels 0/1 from a noisy teacher."""
    rng = np.random.default_rng(seed)
    n, d = 70, 12
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.3)
    X[:, rng.integers(d)] = 0.0  # no row is full
    X[rng.integers(n)] = 0.0  # a zero row
    y = (X @ rng.normal(size=d) + 0.4 * rng.normal(size=n) > 0).astype(np.int64)
    Xin = X if dense_view else sp.csr_matrix(X)
    return csr_rows(Xin, dense_view, 1.0 if intercept else 0.0), X, y


def run(arrays, y, order, W, S, rule, form, one_row_at_a_time):
    """Run the stream through ``cw_epoch``; returns (alphas, betas, mistakes, n_updates)."""
    rows = arrays
    T = order.shape[0]
    alpha, beta, mistakes = np.zeros(T), np.zeros(T), np.zeros(T, dtype=np.bool_)
    args = (W, S, np.zeros((0, 0)), learner(rule, form)[1])
    if not one_row_at_a_time:
        n = cw_epoch(rows, y, order, *args, alpha, beta, mistakes)
        return alpha, beta, mistakes, n
    n = 0
    for t in range(T):
        a, b, m = np.zeros(1), np.zeros(1), np.zeros(1, dtype=np.bool_)
        assert row_nnz(rows, order[t]) < W.shape[0]  # the general loop
        n += cw_epoch(rows, y, order[t : t + 1], *args, a, b, m)
        alpha[t], beta[t], mistakes[t] = a[0], b[0], m[0]
    return alpha, beta, mistakes, n


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("form", ["precision", "truncated"])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_fast_path_equals_general_loop(rule, form, seed):
    intercept = seed != 1
    arrays, X, y = make_binary(seed, seed == 3, intercept)  # seed 3: explicit zeros in data
    D = X.shape[1] + intercept
    rng = np.random.default_rng(100 + seed)
    order = rng.permutation(np.r_[np.arange(len(y)), np.arange(len(y))])  # two passes
    results = {}
    for one_row in (False, True):
        W, S = np.zeros((D, 2)), np.full(D, 1.5)
        out = run(arrays, y, order, W, S, rule, form, one_row)
        results[one_row] = (W, S, *out)
    (W_fast, S_fast, *fast), (W_gen, S_gen, *gen) = results[False], results[True]
    assert np.array_equal(W_fast, W_gen)  # bit for bit
    assert np.array_equal(S_fast, S_gen)
    for got, want in zip(fast, gen):
        assert np.array_equal(got, want)
    assert np.array_equal(W_fast[:, 1], -W_fast[:, 0])  # still mirrored
    assert fast[3] > 10 and fast[2].any()  # aggressive steps and mistakes happened
    # the fast path is what cw_epoch ran on the whole stream
    W2, S2 = np.zeros((D, 2)), np.full(D, 1.5)
    a2, b2 = np.zeros(len(order)), np.zeros(len(order))
    m2 = np.zeros(len(order), dtype=np.bool_)
    _mirrored_diagonal_pass(
        arrays,
        y,
        order,
        W2,
        S2,
        np.column_stack((W2[:, 0], S2)),
        kernel_rule(learner(rule, form)[1]),
        a2,
        b2,
        m2,
    )
    assert np.array_equal(W2, W_fast) and np.array_equal(S2, S_fast)


def readable(rule, state, x, label, form):
    return learner(rule, form)[0](state, x, label)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("seed", [0, 1])
def test_fast_path_equals_readable_rule_and_continues(rule, seed):
    """Two calls (the second on a mirrored, non-zero state) equal the readable rule."""
    arrays, X, y = make_binary(seed)
    Xa = np.hstack([X, np.ones((len(y), 1))])
    D = Xa.shape[1]
    state = CWState(np.zeros((2, D)), np.ones(D))
    alphas = []
    for x, label in zip(Xa, y):
        state, trace = readable(rule, state, x, int(label), "precision")
        alphas.append(trace.alpha)
    W, S = np.zeros((D, 2)), np.ones(D)
    half = len(y) // 2
    got = []
    for order in (np.arange(half), np.arange(half, len(y))):
        alpha = run(arrays, y, order, W, S, rule, "precision", False)[0]
        got.extend(alpha)
    assert np.allclose(got, alphas, rtol=1e-12, atol=1e-15)
    assert np.allclose(W.T, state.mu, rtol=1e-12, atol=1e-12 * np.abs(state.mu).max())
    assert np.allclose(S, state.Sigma, rtol=1e-12, atol=0)


@pytest.mark.parametrize("rule", ["arow", "scw1"])
def test_non_mirrored_state_falls_back(rule):
    """A two-class state with ``W[:, 1] != -W[:, 0]`` takes the general loop, still exact."""
    arrays, X, y = make_binary(5)
    rng = np.random.default_rng(5)
    D = X.shape[1] + 1
    W0 = rng.normal(size=(D, 2))  # not mirrored
    S0 = rng.uniform(0.5, 2.0, size=D)
    Xa = np.hstack([X, np.ones((len(y), 1))])
    state = CWState(W0.T.copy(), S0.copy())
    for x, label in zip(Xa, y):
        state, _ = readable(rule, state, x, int(label), "truncated")
    W, S = W0.copy(), S0.copy()
    n = run(arrays, y, np.arange(len(y)), W, S, rule, "truncated", False)[3]
    assert n > 5
    assert np.allclose(W.T, state.mu, rtol=1e-12, atol=1e-12)
    assert np.allclose(S, state.Sigma, rtol=1e-12, atol=0)
    assert not np.allclose(W[:, 1], -W[:, 0])  # the mirror path would have forced this
