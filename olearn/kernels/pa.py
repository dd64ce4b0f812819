"""numba mirror of :mod:`olearn.core.pa`: the Perceptron and PA / PA-I / PA-II coefficients.

Each function fills ``coef[u]`` (the update is ``w_u += coef_u x``) for the classes it lists in
``active`` and returns how many it listed (0 for a passive step).
"""

from __future__ import annotations

import numba

from olearn._numerics import TINY_SQNORM
from olearn.kernels.codes import PA1, PA2


@numba.njit(cache=True)
def best_rival(scores, y):
    """``argmax_{u != y} scores[u]``, lowest index on ties (as ``core._common.best_rival``)."""
    rival = -1
    best = 0.0
    for u in range(scores.shape[0]):
        if u != y and (rival < 0 or scores[u] > best):
            rival = u
            best = scores[u]
    return rival


@numba.njit(cache=True)
def perceptron_coefficients(scores, y, coef, active):
    """On a mistake (``s_rival >= s_y``): ``w_y += x``, ``w_rival -= x``."""
    r = best_rival(scores, y)
    if scores[r] < scores[y]:
        return 0
    coef[y] = 1.0
    coef[r] = -1.0
    active[0] = y
    active[1] = r
    return 2


@numba.njit(cache=True)
def pa_coefficients(scores, y, sqnorm, code, C, coef, active):
    """PA (``code`` PA), PA-I (PA1) or PA-II (PA2) against the highest-scoring wrong class."""
    r = best_rival(scores, y)
    loss = 1.0 - (scores[y] - scores[r])  # hinge loss against the rival
    if loss <= 0.0 or sqnorm < TINY_SQNORM:
        return 0
    if code == PA1:
        tau = min(C, loss / (2.0 * sqnorm))  # tau_pa1
    elif code == PA2:
        tau = loss / (2.0 * sqnorm + 0.5 / C)  # tau_pa2
    else:
        tau = loss / (2.0 * sqnorm)  # tau_pa
    coef[y] = tau
    coef[r] = -tau
    active[0] = y
    active[1] = r
    return 2
