"""SPA is one Crammer-Singer sub-problem (seed 003), solved by LIBLINEAR's sorting method.

Derivation: the dual of the SPA-I step in ``alpha_y = sum tau`` and ``alpha_u = -tau_u`` is
``min 1/2 A ||alpha||^2 + B . alpha`` with ``A = ||x||^2``, ``B_m = w_m . x + 1[m != y]``,
``sum alpha = 0``, ``alpha_y <= C`` and ``alpha_u <= 0``: exactly the per-example sub-problem
started from alpha = 0.  With C above the hard step's sum of taus it is hard SPA.
"""

import numpy as np
import pytest

from olearn.core.cs_subproblem import solve_cs_subproblem
from olearn.core.spa import spa_step
from tests.test_pa_spa_qp import random_instance


def same_step(trace, alpha, W, x) -> bool:
    """Equal score changes ``alpha_m ||x||^2`` up to rounding of the scores themselves."""
    A = float(x @ x)
    scale = 1e-9 * (1 + np.max(np.abs(W @ x)))
    return bool(np.allclose(trace.coef * A, alpha * A, rtol=0, atol=scale))


def cs_alpha(W, x, y, C):
    scores = W @ x
    B = scores + (np.arange(W.shape[0]) != y)  # B_m = w_m.x + e_m at alpha = 0
    return solve_cs_subproblem(float(x @ x), B, y, C)


@pytest.mark.parametrize("seed", range(3))
def test_spa_i_is_one_cs_subproblem(seed):
    rng = np.random.default_rng(seed)
    for _ in range(500):
        W, x, y, C = random_instance(rng)
        _, trace = spa_step(W, x, y, "I", C)
        assert same_step(trace, cs_alpha(W, x, y, C), W, x)


def test_hard_spa_is_one_cs_subproblem_with_a_loose_bound():
    rng = np.random.default_rng(7)
    for _ in range(500):
        W, x, y, _ = random_instance(rng)
        _, trace = spa_step(W, x, y)
        # any C above sum tau leaves the bound inactive; keep A*C of the order of the scores,
        # or the solver's shift D_y += A*C costs the reference its precision (not ours)
        loose = 2.0 * trace.tau_sum + 1.0 / float(x @ x)
        alpha = cs_alpha(W, x, y, loose)
        assert same_step(trace, alpha, W, x)
        # the support classes are exactly the classes with alpha < 0 (beyond rounding)
        moved = alpha * float(x @ x) < -1e-9 * (1 + np.max(np.abs(W @ x)))
        assert set(trace.support) >= set(np.flatnonzero(moved).tolist())
        assert all(trace.tau[u] * float(x @ x) > 0 for u in trace.support)


# --- the Crammer-Singer solver's own step (olearn.core.cs_svm) is the same SPA step ------------


@pytest.mark.parametrize("seed", range(2))
def test_cs_step_from_zero_alpha_is_spa_i(seed):
    from olearn.core.cs_svm import cs_step

    rng = np.random.default_rng(100 + seed)
    for _ in range(300):
        W, x, y, C = random_instance(rng)
        W_spa, trace = spa_step(W, x, y, "I", C)
        W_cs, t = cs_step(W, x, y, C, alpha=None, fixed_point=False)
        assert same_step(trace, t.alpha_after, W, x)
        scale = 1e-9 * (1 + np.max(np.abs(W @ x)))
        assert np.allclose(W_cs @ x, W_spa @ x, rtol=0, atol=scale)


def test_spa_as_cs_subproblem_is_hard_spa():
    from olearn.core.cs_svm import spa_as_cs_subproblem

    rng = np.random.default_rng(11)
    for _ in range(300):
        W, x, y, _ = random_instance(rng)
        _, trace = spa_step(W, x, y)
        _, t = spa_as_cs_subproblem(W, x, y)
        assert same_step(trace, t.alpha_after, W, x)
        assert np.allclose(
            t.fixed_point.tau * t.C,
            t.alpha_after,
            rtol=0,
            atol=1e-7 * (1 + np.abs(t.alpha_after).max()),
        )


def test_first_step_of_the_decomposition_is_a_spa_i_step_from_zero_weights():
    from olearn.core.cs_svm import cs_svm_solve

    rng = np.random.default_rng(12)
    X = rng.normal(size=(20, 3))
    y = rng.integers(4, size=20)
    C = 0.3
    sol = cs_svm_solve(X, y, C, max_iter=1, random_state=0, trace_steps=True)
    first = sol.steps[0]
    _, trace = spa_step(np.zeros((4, 3)), X[first.p], int(y[first.p]), "I", C)
    assert np.allclose(first.alpha_after, trace.coef, atol=1e-12)
