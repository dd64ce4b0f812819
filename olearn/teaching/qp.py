"""The SPA / PA step problems handed to a generic QP solver (quadprog), for the app to show
the closed form beside an independent answer.

quadprog solves ``min 1/2 z'Gz - a'z  s.t.  C'z >= b`` by the Goldfarb-Idnani active-set
method and returns the Lagrange multipliers, which are the step sizes tau of the rules.

- hard and ``+ C xi^2`` (SPA-II): the primal in the K*d weight change (plus xi for SPA-II);
  the multiplier of the constraint of class u is ``tau_u``.
- ``+ C xi, xi >= 0`` (SPA-I): the primal's objective is not strictly convex in xi, so the
  dual is solved: ``max sum_u tau_u (1 - m_u) - 1/2 ||sum_u tau_u (e_y - e_u) (x) x||^2``
  with ``tau >= 0`` and ``sum tau <= C``; the weight change is ``sum_u tau_u (e_y - e_u) (x) x``.

Nothing here uses the closed forms of :mod:`olearn.core.spa`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import quadprog

from olearn.core._common import check_C, check_state
from olearn.core.pa import check_variant
from olearn.teaching.hypers import algorithm_hyper

C_DEFAULT = algorithm_hyper("spa1", "C").default  # the registry's


@dataclass(frozen=True)
class QPAnswer:
    """The solver's answer: ``tau`` (K,) per class (0 at y), ``delta`` (K, d) = W_new - W,
    ``xi`` the slack, ``objective`` the primal objective, ``active`` the classes whose
    constraint is active (tau > 0)."""

    tau: np.ndarray
    delta: np.ndarray
    xi: float
    objective: float
    active: tuple[int, ...]


def _constraint_map(K: int, d: int, x: np.ndarray, y: int, wrong: list[int]) -> np.ndarray:
    """Columns ``(e_y - e_u) (x) x`` for u in ``wrong``: (K*d, len(wrong))."""
    A = np.zeros((K * d, len(wrong)))
    for j, u in enumerate(wrong):
        A[y * d : (y + 1) * d, j] += x  # + Delta_y . x
        A[u * d : (u + 1) * d, j] -= x  # - Delta_u . x
    return A


def objective(
    W: np.ndarray, delta: np.ndarray, x: np.ndarray, y: int, variant, C: float, *, constrained=None
):
    """``1/2 sum ||delta_v||^2 + C xi`` (or ``C xi^2``, or nothing) with the smallest xi that
    makes ``W + delta`` feasible, and that xi (0 for the hard problem: its infeasibility is
    reported as the xi it would need).  ``constrained``: the wrong classes whose margin
    counts (default all of them: SPA; ``[rival]``: PA)."""
    W1 = W + delta
    s = W1 @ x
    wrong = [u for u in range(W.shape[0]) if u != y] if constrained is None else constrained
    margins = s[y] - s[list(wrong)]
    xi = max(0.0, float(np.max(1.0 - margins)))
    penalty = {None: 0.0, "I": C * xi, "II": C * xi * xi}[variant]
    return 0.5 * float(np.sum(delta**2)) + penalty, xi


def dual_objective(W: np.ndarray, tau: np.ndarray, x: np.ndarray, y: int) -> float:
    """The dual objective of the ``+ C xi`` problems at ``tau`` ((K,), 0 at y): a lower bound
    on the primal, equal to it at the optimum (the certificate the tests check)."""
    coef = -np.asarray(tau, dtype=float)
    coef[y] = -coef.sum()  # w_y += sum tau x, w_u -= tau_u x
    delta = np.outer(coef, x)
    margins = W[y] @ x - W @ x
    return float(tau @ (1.0 - margins)) - 0.5 * float(np.sum(delta**2))


def qp_step(
    W, x, y: int, variant: str | None = None, C: float = C_DEFAULT, constrained=None
) -> QPAnswer:
    """Solve one SPA / SPA-I / SPA-II step with quadprog; with ``constrained = [rival]``, the
    single-constraint PA / PA-I / PA-II step (default: every wrong class, SPA).

    >>> W = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 0.0]])
    >>> ans = qp_step(W, np.array([1.0, 0.0]), 0)
    >>> ans.tau.round(6).tolist(), ans.active
    ([0.0, 1.0, 1.0], (1, 2))
    """
    W, x, y = check_state(W, x, y)
    variant = check_variant(variant)
    C = check_C(C)
    K, d = W.shape
    n = float(x @ x)
    wrong = [u for u in range(K) if u != y] if constrained is None else list(constrained)
    m = W[y] @ x - W[wrong] @ x  # old margins
    tau = np.zeros(K)
    if n == 0.0 or np.all(m >= 1.0):
        obj, xi = objective(W, np.zeros_like(W), x, y, variant, C, constrained=wrong)
        return QPAnswer(tau, np.zeros_like(W), xi, obj, ())
    A = _constraint_map(K, d, x, y, wrong)
    if variant == "I":  # the dual, in t = sqrt(n) tau so that it is O(1)-scaled
        s = 1.0 / np.sqrt(n)
        G = (A.T @ A) * s * s
        a = (1.0 - m) * s
        Cmat = np.hstack([np.eye(len(wrong)), -np.ones((len(wrong), 1))])  # tau >= 0, sum <= C
        b = np.concatenate([np.zeros(len(wrong)), [-C / s]])
        t = quadprog.solve_qp(G, a, Cmat, b, 0)[0]
        tau_w = np.maximum(t * s, 0.0)
        delta = (A @ tau_w).reshape(K, d)
    else:  # the primal: z = vec(Delta W) [, xi]
        extra = 1 if variant == "II" else 0
        G = np.eye(K * d + extra)
        if extra:
            G[-1, -1] = 2.0 * C  # C xi^2 = 1/2 (2C) xi^2
        Cmat = np.vstack([A, np.ones((1, len(wrong)))]) if extra else A  # + xi in each row
        z, _, _, _, lagrangian, _ = quadprog.solve_qp(G, np.zeros(K * d + extra), Cmat, 1.0 - m)
        delta = z[: K * d].reshape(K, d)
        tau_w = np.maximum(lagrangian, 0.0)
    tau[wrong] = tau_w
    obj, xi = objective(W, delta, x, y, variant, C, constrained=wrong)
    scale = 1e-9 * (1.0 + float(tau_w.max()))
    return QPAnswer(tau, delta, xi, obj, tuple(u for u in wrong if tau[u] > scale))
