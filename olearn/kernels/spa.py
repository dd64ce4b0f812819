"""numba mirror of :mod:`olearn.core.spa`: the exact SPA / SPA-I / SPA-II coefficients.

Only the values of the positive Q are sorted (the threshold needs values, not classes), and
nothing is sorted when no class has Q > 0; then ``tau_u = max(0, Q_u - theta)``.
"""

from __future__ import annotations

import numba
import numpy as np

from olearn.kernels.codes import SPA1, SPA2


@numba.njit(cache=True)
def spa_coefficients(scores, y, sqnorm, code, C, coef, active, qbuf):
    """Fill ``coef`` for one SPA step (``code`` SPA, SPA1 or SPA2); return the active count."""
    if sqnorm == 0.0:
        return 0
    K = scores.shape[0]
    p = 0
    for u in range(K):
        if u != y:
            q = (1.0 - (scores[y] - scores[u])) / sqnorm  # Q_u
            if q > 0.0:
                qbuf[p] = q
                p += 1
    if p == 0:
        return 0  # loss is zero: passive
    qs = np.sort(qbuf[:p])  # ascending; the k-th largest is qs[p - k]
    h = 0.5 / C
    J = 0
    S = 0.0
    for k in range(1, p + 1):  # the support-class search
        q = qs[p - k]
        if code == SPA2:
            thr = (sqnorm + h) * S / (k * sqnorm + (k - 1) * h)  # derived SPA-II test
        else:
            thr = S / k  # Eq. (8)
        if not q > thr:
            break
        S += q
        J = k
    if code == SPA2:
        a = 1.0 + h / sqnorm
        theta = a * (S / (1.0 + a * J))  # tau_v = Q_v - a T
    else:
        theta = S / (J + 1)  # Eq. (11)
        if code == SPA1 and theta > C:  # case (b): the cap sum tau <= C binds
            J = 0
            S = 0.0
            for k in range(1, p + 1):
                q = qs[p - k]
                if k > 1 and not q > (S - C) / (k - 1):
                    break
                S += q
                J = k
            theta = (S - C) / J
    n_active = 0
    T = 0.0
    for u in range(K):
        if u != y:
            q = (1.0 - (scores[y] - scores[u])) / sqnorm
            if q > theta:
                coef[u] = -(q - theta)  # tau_u = Q_u - theta, Eq. (9)
                T += q - theta
                active[n_active] = u
                n_active += 1
    coef[y] = T  # w_y += (sum tau) x
    active[n_active] = y
    return n_active + 1
