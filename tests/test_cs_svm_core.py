"""The readable Crammer-Singer solver against independent references.

- the seed's fixed-point iteration and the sorting solution solve the same sub-problem, and
  both equal a generic QP solver (quadprog);
- the trace's ``B_seed`` equals the seed's definition ``-beta e_y + sum_{i != p} x_p.x_i tau_i``;
- the whole decomposition reaches the optimum of the primal QP solved by quadprog;
- every sub-problem is an exact coordinate maximisation, so the dual never decreases; weak
  duality holds at every sweep and the gap closes; KKT holds at the end.
"""

from __future__ import annotations

import numpy as np
import pytest
import quadprog

from olearn.core.cs_subproblem import solve_cs_subproblem
from olearn.core.cs_svm import (
    cs_fixed_point,
    cs_step,
    cs_svm_solve,
    dual_objective,
    kkt_violation,
    primal_objective,
)


def subproblem_qp(A, B, y, C):
    """``min 1/2 A ||a||^2 + B.a  s.t.  a_m <= bound_m, sum a = 0`` by quadprog."""
    K = B.shape[0]
    bound = np.zeros(K)
    bound[y] = C
    # quadprog: min 1/2 z'Gz - a'z  s.t.  C'z >= b, the first meq are equalities
    Cmat = np.hstack([np.ones((K, 1)), -np.eye(K)])
    b = np.concatenate([[0.0], -bound])
    return quadprog.solve_qp(A * np.eye(K), -B, Cmat, b, 1)[0]


def random_subproblem(rng):
    K = int(rng.integers(2, 25))
    A = float(10.0 ** rng.uniform(-2, 2))
    B = rng.normal(size=K) * float(10.0 ** rng.uniform(-2, 1))
    if rng.random() < 0.2:
        B = np.round(B)  # ties
    return K, A, B, int(rng.integers(K)), float(10.0 ** rng.uniform(-3, 3))


@pytest.mark.parametrize("seed", range(3))
def test_fixed_point_and_sort_solve_the_same_subproblem_as_quadprog(seed):
    rng = np.random.default_rng(seed)
    for _ in range(300):
        K, A, B, y, C = random_subproblem(rng)
        alpha = solve_cs_subproblem(A, B, y, C)
        beta = 1.0 / C
        fp = cs_fixed_point(A, beta * (B - 1.0), y)  # the seed's B_p = beta (B - 1)
        ref = subproblem_qp(A, B, y, C)
        scale = 1e-7 * (1.0 + np.max(np.abs(ref)))
        assert np.allclose(alpha, ref, rtol=0, atol=scale)
        assert np.allclose(fp.tau * C, ref, rtol=0, atol=scale)
        assert len(fp.thetas) <= K + 1  # Newton on a piecewise-linear function: <= K steps
        assert all(np.diff(fp.thetas) > 0)  # monotone from the left


def test_trace_B_seed_is_the_seeds_definition():
    rng = np.random.default_rng(3)
    n, d, K, C = 8, 4, 5, 0.7
    X = rng.normal(size=(n, d))
    y = rng.integers(K, size=n)
    sol = cs_svm_solve(X, y, C, max_iter=3, random_state=0)  # some feasible, non-zero alphas
    tau = sol.alpha / C
    beta = 1.0 / C
    for p in range(n):
        _, t = cs_step(sol.W, X[p], int(y[p]), C, sol.alpha[p], p=p)
        e_y = np.eye(K)[y[p]]
        B_def = -beta * e_y + sum(X[p] @ X[i] * tau[i] for i in range(n) if i != p)
        assert np.allclose(t.B_seed, B_def, atol=1e-12)
        assert t.A == pytest.approx(X[p] @ X[p])
        assert np.allclose(t.tau_before, tau[p])


def primal_qp(X, y, K, C):
    """The primal ``min 1/2 ||W||^2 + C sum xi`` with every margin constraint, by quadprog.

    quadprog needs a positive definite G: xi gets a 1e-10 ridge (shifts P by < 1e-9)."""
    n, d = X.shape
    nv = K * d + n
    G = np.diag(np.concatenate([np.ones(K * d), np.full(n, 1e-10)]))
    a = np.concatenate([np.zeros(K * d), -C * np.ones(n)])
    rows, rhs = [], []
    for i in range(n):
        for m in range(K):
            c = np.zeros(nv)
            c[K * d + i] = 1.0  # xi_i
            if m != y[i]:
                c[y[i] * d : (y[i] + 1) * d] += X[i]  # (w_y - w_m).x_i + xi_i >= 1
                c[m * d : (m + 1) * d] -= X[i]
                rhs.append(1.0)
            else:
                rhs.append(0.0)  # xi_i >= 0
            rows.append(c)
    z = quadprog.solve_qp(G, a, np.array(rows).T, np.array(rhs), 0)[0]
    return z[: K * d].reshape(K, d)


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_decomposition_reaches_the_primal_qp_optimum(C):
    rng = np.random.default_rng(4)
    n, d, K = 24, 3, 4
    X = rng.normal(size=(n, d))
    y = rng.integers(K, size=n)
    sol = cs_svm_solve(X, y, C, tol=1e-9, max_iter=20000, random_state=1)
    assert sol.converged
    W_ref = primal_qp(X, y, K, C)
    P_ref = primal_objective(W_ref, X, y, C)
    assert primal_objective(sol.W, X, y, C) == pytest.approx(P_ref, rel=1e-7)
    assert np.allclose(sol.W, W_ref, atol=1e-4 * (1 + np.abs(W_ref).max()))


def test_dual_never_decreases_weak_duality_gap_closes_and_kkt_holds():
    rng = np.random.default_rng(5)
    n, d, K, C = 30, 4, 3, 1.0
    X = rng.normal(size=(n, d))
    y = rng.integers(K, size=n)
    sol = cs_svm_solve(X, y, C, tol=1e-8, max_iter=5000, random_state=2, trace_steps=True)
    duals = np.array([t.dual_objective for t in sol.steps])
    assert np.all(np.diff(duals) >= -1e-12 * (1 + np.abs(duals[1:])))  # exact coordinate ascent
    for s in sol.sweeps:
        assert s.primal >= s.dual - 1e-12 * abs(s.primal)  # weak duality
    assert sol.converged
    assert sol.sweeps[-1].gap < 1e-6 * sol.sweeps[-1].primal
    assert sol.sweeps[0].gap > 1e3 * sol.sweeps[-1].gap
    for p in range(n):  # KKT of every sub-problem at the end
        G = sol.W @ X[p] + (np.arange(K) != y[p])
        assert kkt_violation(G, sol.alpha[p], int(y[p]), C) < 1e-7
    # W is W(alpha): the primal point is the one the dual variables define
    assert np.allclose(sol.W, sol.alpha.T @ X)
    assert dual_objective(sol.W, sol.alpha, y) == pytest.approx(sol.sweeps[-1].dual)
    # feasibility of the dual variables
    bound = np.zeros((n, K))
    bound[np.arange(n), y] = C
    assert np.all(sol.alpha <= bound + 1e-12) and np.allclose(sol.alpha.sum(axis=1), 0.0)


def test_seed_scale_beta_is_one_over_C():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(10, 2))
    y = rng.integers(3, size=10)
    for C in (0.5, 4.0):
        sol = cs_svm_solve(X, y, C, max_iter=50)
        s = sol.sweeps[-1]
        W = sol.W
        tau = sol.alpha / C
        beta = 1.0 / C
        seed_primal = 0.5 * beta * np.sum(W * W) + (s.primal - 0.5 * np.sum(W * W)) / C
        assert s.primal_seed == pytest.approx(seed_primal)
        assert np.allclose(W, tau.T @ X / beta)  # w_r = beta^-1 sum_i tau_i x_i


@pytest.mark.parametrize(
    "bad",
    [
        dict(W=np.zeros((1, 2)), x=np.ones(2), y=0),
        dict(W=np.zeros((3, 2)), x=np.ones(3), y=0),
        dict(W=np.zeros((3, 2)), x=np.array([np.nan, 1.0]), y=0),
        dict(W=np.zeros((3, 2)), x=np.ones(2), y=5),
        dict(W=np.zeros((3, 2)), x=np.ones(2), y=0, C=0.0),
        dict(W=np.zeros((3, 2)), x=np.ones(2), y=0, alpha=np.zeros(2)),
    ],
)
def test_bad_input_raises(bad):
    with pytest.raises(ValueError):
        cs_step(**bad)


def test_zero_vector_changes_nothing():
    W = np.arange(6.0).reshape(3, 2)
    W1, t = cs_step(W, np.zeros(2), 1, C=1.0)
    assert t.skipped and np.array_equal(W1, W)
