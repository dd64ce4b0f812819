"""numba mirror of :mod:`olearn.core.pa`: the Perceptron and PA / PA-I / PA-II coefficients.

Each function fills ``coef[u]`` (the update is ``w_u += coef_u x``) for the classes it lists in
``active`` and returns how many it listed (0 for a passive step).  The step sizes are the
compiled functions of :mod:`olearn.core._pa_closed_forms` that the readable rule calls too.
"""

from __future__ import annotations

from olearn._jit import jit
from olearn._numerics import TINY_SQNORM
from olearn.core._pa_closed_forms import tau_pa, tau_pa1, tau_pa2
from olearn.kernels.codes import PA1, PA2, PA_MISTAKES


@jit
def best_rival(scores, y):
    """``argmax_{u != y} scores[u]``, lowest index on ties (as ``core._common.best_rival``)."""
    rival = -1
    best = 0.0
    for u in range(scores.shape[0]):
        if u != y and (rival < 0 or scores[u] > best):
            rival = u
            best = scores[u]
    return rival


@jit
def argmax(scores):
    """The predicted class: the first index of the highest score, as ``np.argmax`` (a NaN
    first: numpy's order); written out, as numba's generic ``np.argmax`` compiled slowly."""
    best = 0
    for u in range(1, scores.shape[0]):
        s = scores[u]
        if s > scores[best] or (s != s and scores[best] == scores[best]):
            best = u
    return best


@jit
def perceptron_coefficients(scores, y, coef, active, weight):
    """On a mistake (``s_rival >= s_y``): ``w_y += s x``, ``w_rival -= s x`` (s: the weight)."""
    r = best_rival(scores, y)
    if scores[r] < scores[y]:
        return 0
    coef[y] = weight
    coef[r] = -weight
    active[0] = y
    active[1] = r
    return 2


@jit
def pa_coefficients(scores, y, sqnorm, code, C, coef, active):
    """PA (``code`` PA), PA-I (PA1), PA-II (PA2) or the mistakes-only PA (PA_MISTAKES)
    against the highest-scoring wrong class."""
    r = best_rival(scores, y)
    loss = 1.0 - (scores[y] - scores[r])  # hinge loss against the rival
    if loss <= 0.0 or sqnorm < TINY_SQNORM:
        return 0
    if code == PA_MISTAKES and scores[r] < scores[y]:
        return 0  # the diagnostic steps only on a mistake
    if code == PA1:
        tau = tau_pa1(loss, sqnorm, C)
    elif code == PA2:
        tau = tau_pa2(loss, sqnorm, C)
    else:
        tau = tau_pa(loss, sqnorm)
    coef[y] = tau
    coef[r] = -tau
    active[0] = y
    active[1] = r
    return 2
