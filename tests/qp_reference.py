"""Independent references for the PA / SPA steps: the stated QPs solved by quadprog.

quadprog (Goldfarb-Idnani active set) solves ``min 1/2 z'Gz - a'z  s.t.  C'z >= b`` exactly up to
rounding, so it can check closed forms to 1e-8.  Nothing here uses olearn's formulas.
"""

from __future__ import annotations

import numpy as np
import quadprog


def primal_step(W, x, y, constrained, slack=None, C=1.0):
    """Solve ``min 1/2 sum ||w_v - w_v_old||^2 [+ C xi^2]`` s.t. ``(w_y - w_u).x >= 1 [- xi]``
    for ``u`` in ``constrained`` (a list of wrong classes), in the K*d weight space.

    ``slack`` is None (hard) or "II" (quadratic slack; xi is a free variable).  Returns the
    change ``W_new - W`` (as solved, free of the cancellation ``W_new - W`` would suffer).
    """
    K, d = W.shape
    n_var = K * d + (1 if slack == "II" else 0)
    G = np.eye(n_var)
    if slack == "II":
        G[-1, -1] = 2.0 * C  # C xi^2 = 1/2 (2C) xi^2
    a = np.zeros(n_var)
    rows, rhs = [], []
    for u in constrained:
        c = np.zeros(n_var)
        c[y * d : (y + 1) * d] = x  # + Delta_y . x
        c[u * d : (u + 1) * d] = -x  # - Delta_u . x
        if slack == "II":
            c[-1] = 1.0  # + xi
        rows.append(c)
        rhs.append(1.0 - (W[y] - W[u]) @ x)  # 1 - old margin
    z = quadprog.solve_qp(G, a, np.array(rows).T, np.array(rhs), 0)[0]
    return z[: K * d].reshape(K, d)


def dual_linear_slack(W, x, y, constrained, C):
    """The ``+ C xi`` (xi >= 0) problems through their dual, solved by quadprog:
    ``max sum tau_u (1 - m_u) - 1/2 ||sum_u tau_u (e_y - e_u) (x) x||^2``, ``tau >= 0``,
    ``sum tau <= C``.  Returns (the change W_new - W, tau over ``constrained``)."""
    K, d = W.shape
    m = len(constrained)
    # columns of the map tau -> Delta W: for constraint u, +x on row y and -x on row u
    A = np.zeros((K * d, m))
    for j, u in enumerate(constrained):
        A[y * d : (y + 1) * d, j] += x
        A[u * d : (u + 1) * d, j] -= x
    # solve in t = sqrt(n) tau so that the QP is O(1)-scaled whatever ||x|| is
    s = 1.0 / np.sqrt(float(x @ x))
    G = (A.T @ A) * s * s
    a = np.array([1.0 - (W[y] - W[u]) @ x for u in constrained]) * s
    Cmat = np.hstack([np.eye(m), -np.ones((m, 1))])
    b = np.concatenate([np.zeros(m), [-C / s]])
    tau = quadprog.solve_qp(G, a, Cmat, b, 0)[0] * s
    return (A @ tau).reshape(K, d), tau


def primal_objective(W_old, delta, x, y, constrained, slack, C):
    """``1/2 sum ||w_v - w_v_old||^2 + C xi [or C xi^2]`` with the smallest feasible xi,
    at ``W_old + delta``."""
    margins = np.array([(W_old[y] - W_old[u]) @ x + (delta[y] - delta[u]) @ x for u in constrained])
    xi = max(0.0, float(np.max(1.0 - margins))) if len(constrained) else 0.0
    penalty = {None: 0.0, "I": C * xi, "II": C * xi * xi}[slack]
    return 0.5 * float(np.sum(delta**2)) + penalty


def dual_objective(W_old, tau, x, y, constrained):
    """Dual objective of the ``+ C xi`` problems at ``tau`` (a lower bound on the primal)."""
    K, d = W_old.shape
    delta = np.zeros((K, d))
    value = 0.0
    for t, u in zip(tau, constrained):
        delta[y] += t * x
        delta[u] -= t * x
        value += t * (1.0 - (W_old[y] - W_old[u]) @ x)
    return value - 0.5 * float(np.sum(delta**2))
