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

Averaging (``avg_sum`` (d,) and ``avg_scalars = [sigma, q_b, n_avg, start]``; None on the plain
path): the mean ``w_bar = (1/n_avg) sum_m w_m`` of the iterates after the averaged examples
``m >= start`` (1-based; those skipped for a weight of 0 are no iterates), in O(nnz) a step:

- codes GLOBAL_ALL, GLOBAL_TOUCHED, PER_FEATURE_TOUCHED (``w_m = scale_m v_m``, v changing by
  a sparse ``delta_m`` a step; ``scale`` stays 1 in the touched modes): with
  ``sigma_m = sum_{k <= m, averaged} scale_k``,
  ``sum_m scale_m v_m = sigma_T v_T - sum_k sigma_{k-1} delta_k`` (write ``v_m = v_T -
  sum_{k > m} delta_k`` and swap the sums), so ``avg_sum = Q = sum_k sigma_{k-1} delta_k`` is
  updated on x's non-zeros only and ``w_bar = (sigma v - Q) / n_avg``.  Folding the scale into
  v (``v' = scale v``, ``scale' = 1``) keeps ``sigma v`` with ``sigma' = sigma / scale``.
  This is the ``w_bar = w - U / n_avg`` identity of :func:`olearn.kernels.weights.average_step`
  with the scale trick (Bottou's ``svmasgd`` keeps the same sums as ``wFraction``, ``a``);
- PER_FEATURE_ALL (coordinate j shrinks by ``r_j = 1 - 1/(t_j + t0)`` at every step it is
  absent, lazily): ``avg_sum[j] = A_j``, the sum of coordinate j's averaged iterates up to
  ``last[j]``; the catch-up of ``g`` missed shrinks adds their iterates' geometric sum
  ``w_j (r_j + ... + r_j^g)`` (those at or after ``start``), a touched coordinate adds its
  new value, and ``w_bar_j = (A_j + pending geometric sum) / n_avg``;
- the bias (no scale): ``q_b = sum_k n_{k-1} delta_b_k``, ``b_bar = b - q_b / n_avg``.
"""

from __future__ import annotations

import math

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
    avg_sum=None,
    avg_scalars=None,
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
    avg_sum, avg_scalars : the averaging state (module docstring), or None (no averaging).

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
                    if avg_scalars is not None:  # their iterates' sum, before v[j] moves
                        avg_sum[j] += geometric_iterates(
                            v[j], counts[j] + t0, last[j], t, avg_scalars[3]
                        )
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
                    if avg_scalars is not None:
                        avg_sum[indices[q]] += avg_scalars[0] * step * data[q]  # Q += sigma delta
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
                    if avg_scalars is not None and t + 1 >= avg_scalars[3]:
                        avg_sum[j] += v[j]  # A_j += w_{t+1, j}
                elif avg_scalars is not None:
                    avg_sum[j] -= avg_scalars[0] * eta_j * g  # Q += sigma delta
        for q in range(lo, hi):
            if data[q] != 0.0:
                counts[indices[q]] += 1  # t_j counts the examples where x_j != 0
        if fit_intercept and active:
            b += bias_rate * eta * ys  # unregularised bias
            if avg_scalars is not None:
                avg_scalars[1] += avg_scalars[2] * bias_rate * eta * ys  # q_b += n delta_b
        t += 1
        if avg_scalars is not None and t >= avg_scalars[3]:  # example t (1-based) averaged
            avg_scalars[0] += scale  # sigma_t = sigma_{t-1} + scale_t
            avg_scalars[2] += 1.0  # n_avg
        if scale < MIN_SCALE:
            for j in range(v.shape[0]):
                v[j] *= scale
            if avg_scalars is not None:
                avg_scalars[0] /= scale  # sigma v unchanged
            scale = 1.0
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


@jit
def geometric_iterates(w, rate_offset, last, t, start):
    """``sum_k w r^(k - last)`` over the averaged iterates ``k`` in ``(last, t]`` (``k >= start``)
    of a coordinate shrunk by ``r = 1 - 1/rate_offset`` a step from its value ``w`` after
    example ``last``: ``w r^(lo - last) (1 - r^n) / (1 - r)`` for ``k = lo..t``, ``n`` terms,
    written with ``log1p`` / ``expm1`` so a short run close to r = 1 loses no digits."""
    lo = max(last + 1, start)
    n = t - lo + 1
    if n <= 0:
        return 0.0
    log_r = math.log1p(-1.0 / rate_offset)
    return w * math.exp((lo - last) * log_r) * -math.expm1(n * log_r) * rate_offset


@jit
def sgd_average_weights(v, scalars, counts, last, t0, code, avg_sum, avg_scalars, out):
    """Write the averaged ``w_bar`` into ``out`` and return the averaged bias (the raw ones
    while no example is averaged yet), leaving the state as it is."""
    n_avg = avg_scalars[2]
    if n_avg == 0.0:
        sgd_weights(v, scalars, counts, last, t0, code, out)
        return scalars[1]
    t = np.int64(scalars[2])
    for j in range(v.shape[0]):
        if code == PER_FEATURE_ALL:
            pending = geometric_iterates(v[j], counts[j] + t0, last[j], t, avg_scalars[3])
            out[j] = (avg_sum[j] + pending) / n_avg
        else:
            out[j] = (avg_scalars[0] * v[j] - avg_sum[j]) / n_avg  # (sigma v - Q) / n_avg
    return scalars[1] - avg_scalars[1] / n_avg
