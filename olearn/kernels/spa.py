"""numba mirror of :mod:`olearn.core.spa`: the exact SPA / SPA-I / SPA-II coefficients.

Only the classes with Q > 0 are sorted (a stable sort of their indices by Q descending, as the
readable rule does), and nothing is sorted when no class has Q > 0.
"""

from __future__ import annotations

import numba
import numpy as np

from olearn._numerics import TINY_SQNORM
from olearn.kernels.codes import SPA1, SPA2


@numba.njit(cache=True)
def spa_coefficients(scores, y, sqnorm, code, C, coef, active, qbuf):
    """Fill ``coef`` for one SPA step (``code`` SPA, SPA1 or SPA2); return the active count.

    ``active`` receives the support classes then ``y``; ``qbuf`` is (K,) scratch.
    """
    if sqnorm < TINY_SQNORM:
        return 0  # x is numerically zero: passive
    K = scores.shape[0]
    p = 0
    for u in range(K):
        if u != y:
            q = (1.0 - (scores[y] - scores[u])) / sqnorm  # Q_u
            if q > 0.0:
                qbuf[p] = -q  # negated: an ascending stable sort gives Q descending
                active[p] = u
                p += 1
    if p == 0:
        return 0  # loss is zero: passive
    rank = np.argsort(qbuf[:p], kind="mergesort")  # ties keep the lower class index first
    order = active[:p][rank]
    h = 0.5 / C
    a = 1.0 + h / sqnorm if code == SPA2 else 1.0  # SPA-II: theta = a T
    J = 0
    S = 0.0
    for k in range(1, p + 1):  # the support-class search
        q = -qbuf[rank[k - 1]]
        if code == SPA2:
            thr = (sqnorm + h) * S / (k * sqnorm + (k - 1) * h)  # derived SPA-II test
        else:
            thr = S / k  # Eq. (8)
        if not q > thr:
            break
        S += q
        J = k
    capped = False
    if code == SPA1 and S / (J + 1) > C:  # case (b): the cap sum tau <= C binds
        capped = True
        J = 0
        S = 0.0
        for k in range(1, p + 1):
            q = -qbuf[rank[k - 1]]
            if k > 1 and not q > (S - C) / (k - 1):
                break
            S += q
            J = k
    T = 0.0
    for k in range(J):
        u = order[k]
        excess = J * (-qbuf[rank[k]]) - S  # support_step, without cancellation
        if capped:
            tau = (excess + C) / J
        else:
            tau = (-qbuf[rank[k]] + a * excess) / (1.0 + a * J)
        coef[u] = -tau
        T += tau
        active[k] = u
    coef[y] = T  # w_y += (sum tau) x
    active[J] = y
    return J + 1
