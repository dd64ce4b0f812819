"""numba mirror of :mod:`olearn.core.sgd_svm`: O(nnz) SGD steps over CSR rows.

Storage: ``v`` (d,) and ``scale`` with ``w = scale * v`` (the global schedule with the
regulariser on every coordinate: a shrink of all of w is one multiplication of ``scale``);
``last[j]`` the step up to which coordinate j's shrinks have been applied (per-feature rates
with the regulariser on every coordinate: lazy catch-up); ``counts[j]`` the per-feature clocks.
For the other two modes ``scale`` stays 1 and ``last`` is unused.

The state travels in small arrays so the caller can stop after any fraction of an epoch:
``scalars = [scale, b, t]`` (t as a float count of the examples seen).

Weights (``weights``, per row; None on the plain path): the hinge term's gradient times s
(:mod:`olearn.core.sgd_svm`, *Weights*); a row of weight 0 is skipped, t and the t_j included.
"""

from __future__ import annotations

import numpy as np

from olearn._jit import jit
from olearn.kernels.weights import example_weight

GLOBAL_ALL = 0  # Bottou: w = scale * v
GLOBAL_TOUCHED = 1
PER_FEATURE_TOUCHED = 2  # seed 004 as printed
PER_FEATURE_ALL = 3  # per-feature rates, lazy catch-up of the shrinks

_CODES = {
    ("global", "all"): GLOBAL_ALL,
    ("global", "touched"): GLOBAL_TOUCHED,
    ("per-feature", "touched"): PER_FEATURE_TOUCHED,
    ("per-feature", "all"): PER_FEATURE_ALL,
}

# below this the scale is folded into v (w = scale * v loses no precision either way)
MIN_SCALE = 1e-9


def sgd_code(schedule: str, regularize: str) -> int:
    """The kernel code of a resolved (schedule, regularize) pair."""
    return _CODES[(schedule, regularize)]


@jit
def sgd_epoch(
    indptr,
    indices,
    data,
    y,
    order,
    v,
    scalars,
    counts,
    last,
    lam,
    t0,
    code,
    bias_rate,
    fit_intercept,
    weights=None,
):
    """Visit the rows ``order`` (in that order), one SGD step each, updating the state in place.

    Parameters
    ----------
    indptr, indices, data : CSR arrays of X.  y : (n,) float labels, +1 or -1.
    order : (T,) int64 rows.  v : (d,) weights (``w = scale * v``).
    scalars : (3,) ``[scale, b, t]``.  counts : (d,) int64 ``t_j``.  last : (d,) int64.
    lam, t0 : the schedule.  code : one of the module's codes.
    bias_rate : the bias moves at this times the global rate.  fit_intercept : learn b.
    weights : (n,) float64 example weights (>= 0) by row, or None (every weight 1).

    Returns
    -------
    The number of steps whose hinge was active.
    """
    scale = scalars[0]
    b = scalars[1]
    t = np.int64(scalars[2])
    n_active = 0
    for s in range(order.shape[0]):
        i = order[s]
        weight = example_weight(weights, i)
        if weight == 0.0:
            continue  # absent: no shrink, no clock
        lo = indptr[i]
        hi = indptr[i + 1]
        if code == PER_FEATURE_ALL:  # catch up the shrinks this row's features missed
            for q in range(lo, hi):
                j = indices[q]
                gap = t - last[j]
                if gap > 0:
                    v[j] *= (1.0 - 1.0 / (counts[j] + t0)) ** gap  # (1 - lam eta_j)^gap
                    last[j] = t
        dot = 0.0
        for q in range(lo, hi):
            dot += v[indices[q]] * data[q]
        yi = y[i]
        ys = yi * weight  # s y: the weighted hinge's gradient
        margin = yi * (scale * dot + b)  # y (w.x + b) with w_t
        active = margin < 1.0
        if active:
            n_active += 1
        eta = 1.0 / (lam * (t + t0))  # the global rate (also the bias's)
        if code == GLOBAL_ALL:
            scale *= 1.0 - eta * lam  # w <- (1 - eta lam) w, for every coordinate at once
            if active:
                step = eta * ys / scale  # w += eta s y x, in v's units
                for q in range(lo, hi):
                    v[indices[q]] += step * data[q]
            if scale < MIN_SCALE:
                for j in range(v.shape[0]):
                    v[j] *= scale
                scale = 1.0
        else:
            for q in range(lo, hi):
                j = indices[q]
                if code == GLOBAL_TOUCHED:
                    eta_j = eta
                else:
                    eta_j = 1.0 / (lam * (counts[j] + t0))  # eta_j = 1/(lam (t_j + t0))
                g = lam * v[j]  # g_j = lam w_j - [..] y x_j
                if active:
                    g -= ys * data[q]
                v[j] -= eta_j * g
                if code == PER_FEATURE_ALL:
                    last[j] = t + 1
        for q in range(lo, hi):
            if data[q] != 0.0:
                counts[indices[q]] += 1  # t_j counts the examples where x_j != 0
        if fit_intercept and active:
            b += bias_rate * eta * ys  # unregularised bias
        t += 1
    scalars[0] = scale
    scalars[1] = b
    scalars[2] = t
    return n_active


@jit
def sgd_weights(v, scalars, counts, last, t0, code, out):
    """Write the current ``w`` into ``out`` (the pending catch-up included), leaving the state
    as it is (so training can continue exactly where it stopped)."""
    scale = scalars[0]
    t = np.int64(scalars[2])
    for j in range(v.shape[0]):
        w = scale * v[j]
        if code == PER_FEATURE_ALL:
            gap = t - last[j]
            if gap > 0:
                w *= (1.0 - 1.0 / (counts[j] + t0)) ** gap
        out[j] = w
