"""The Crammer-Singer per-example dual sub-problem and its exact sorting solution.

Reference: K. Crammer, Y. Singer, "On the algorithmic implementation of multiclass
kernel-based vector machines", JMLR 2:265-292, 2001 (seed 003: the dual and its
per-example decomposition); the sorting solution is the one LIBLINEAR uses
(Keerthi et al., KDD 2008; ``Solver_MCSVM_CS::solve_sub_problem``).

For one example with ``A = ||x||^2`` and a vector ``B`` (K,), solve::

    min_alpha  1/2 A ||alpha||^2 + B . alpha
    s.t.       alpha_m <= C_m  (C_y = C, C_m = 0 otherwise),   sum_m alpha_m = 0

Link to SPA (derived; tested in ``tests/test_spa_cs_link.py``): started from zero with
``B_m = w_m . x + 1[m != y]``, the sub-problem *is* the dual of the SPA-I step with
``alpha_y = sum tau = T <= C`` and ``alpha_u = -tau_u``; with C at least the hard step's
``T`` it is hard SPA.  So one sub-problem solve is one exact SPA update.
"""

from __future__ import annotations

import numpy as np


def solve_cs_subproblem(A: float, B: np.ndarray, y: int, C: float) -> np.ndarray:
    """Exact solution of the sub-problem above by sorting (O(K log K)).

    Parameters
    ----------
    A : ``||x||^2`` (> 0).  B : (K,) linear term.  y : the example's class.
    C : the upper bound of ``alpha_y`` (the other classes are bounded by 0).

    Returns
    -------
    alpha : (K,) with ``alpha_y <= C``, ``alpha_m <= 0`` otherwise and ``sum alpha = 0``.

    >>> import numpy as np
    >>> solve_cs_subproblem(1.0, np.array([0.0, 3.0, 3.0]), 0, C=100.0).tolist()
    [2.0, -1.0, -1.0]
    """
    B = np.asarray(B, dtype=float)
    K = B.shape[0]
    if not A > 0:
        raise ValueError("A = ||x||^2 must be positive")
    bound = np.zeros(K)
    bound[y] = C
    D = B.copy()
    D[y] += A * C  # shift y's variable so all bounds read alpha_m <= 0 in D's terms
    D = np.sort(D)[::-1]
    beta = D[0] - A * C
    r = 1
    while r < K and beta < r * D[r]:
        beta += D[r]
        r += 1
    beta /= r
    return np.minimum(bound, (beta - B) / A)
