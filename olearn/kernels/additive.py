"""One epoch of any additive multiclass rule (Perceptron, PA family, SPA family) over CSR.

Every such rule updates ``w_u += coef_u x`` for a few classes; :func:`rule_coefficients`
picks the per-step rule by its integer code (:mod:`olearn.kernels.codes`).  The intercept, if
any, is already a column of the rows (``kernels.sparse.csr_rows``).

Two classes: every rule's two coefficients are opposite (``coef_y = tau = -coef_r``), so from
zero weights ``W[:, 1] == -W[:, 0]`` holds exactly at every step (IEEE negation and rounding
are symmetric).  When :func:`olearn.kernels.sparse.use_mirrored_path` says so,
:func:`additive_epoch` keeps one contiguous vector ``w = W[:, 0]`` with ``s_1 = -s_0``: the
same numbers as the general loop, half the arithmetic and a contiguous gather.

Weights (``weights``, per row; None on the plain path): the rule's step for an example of
weight s (:mod:`olearn.core.pa`, *Weights*): the Perceptron's coefficients are ``+-s``, the
soft rules use ``C_i = s C``, the hard ones ignore s > 0; s = 0 is skipped (absent).

Averaging (``U`` and ``avg``, None on the plain path): every update ``Delta = coef (x) x`` of an
averaged example also adds ``n_avg Delta`` to ``U`` (:func:`olearn.kernels.weights.average_step`),
O(nnz) per step; the mean of the iterates is ``W - U / n_avg``.
"""

from __future__ import annotations

import numpy as np

from olearn._jit import jit
from olearn.kernels.codes import PERCEPTRON, SPA, SPA1, SPA2
from olearn.kernels.pa import pa_coefficients, perceptron_coefficients
from olearn.kernels.spa import spa_coefficients
from olearn.kernels.sparse import (
    row_axpy,
    row_axpy1,
    row_axpy_all,
    row_dot,
    row_scores,
    store_mirrored,
    use_mirrored_path,
)
from olearn.kernels.weights import average_step, averaged_mistake, example_weight


@jit
def rule_coefficients(code, scores, y, sqnorm, C, coef, active, qbuf, weight=1.0):
    """Fill ``coef`` for one step of rule ``code`` on an example of weight ``weight`` > 0
    (the soft rules get ``C_i = weight * C``); returns the number of active classes."""
    if code == PERCEPTRON:
        return perceptron_coefficients(scores, y, coef, active, weight)
    C = C * weight  # C_i = s C (s = 1: C exactly)
    if code == SPA or code == SPA1 or code == SPA2:
        return spa_coefficients(scores, y, sqnorm, code, C, coef, active, qbuf)
    return pa_coefficients(scores, y, sqnorm, code, C, coef, active)


@jit
def _mirrored_pass(rows, y, order, W, code, C, coef_out, mistake_out, weights=None):
    """:func:`additive_epoch` on a mirrored two-class ``W`` through ``w = W[:, 0]``."""
    w = W[:, 0].copy()
    scores = np.empty(2)
    coef = np.zeros(2)
    active = np.empty(2, dtype=np.int64)
    qbuf = np.empty(2)
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        s, sqnorm = row_dot(rows, i, w)
        scores[0] = s
        scores[1] = -s  # = W[:, 1] . x exactly
        if mistake_out.shape[0] > 0:
            mistake_out[t] = np.argmax(scores) != y[i]
        weight = example_weight(weights, i)
        if weight == 0.0:
            continue  # absent
        n_active = rule_coefficients(code, scores, y[i], sqnorm, C, coef, active, qbuf, weight)
        if coef_out.shape[0] > 0:
            coef_out[t, 0] = coef[0]
            coef_out[t, 1] = coef[1]
        if n_active > 0:
            row_axpy1(rows, i, w, coef[0])  # coef[1] == -coef[0]
            n_updates += 1
            coef[0] = 0.0
            coef[1] = 0.0
    store_mirrored(W, w)
    return n_updates


@jit
def additive_epoch(
    rows, y, order, W, code, C, coef_out, mistake_out, weights=None, U=None, avg=None
):
    """Run one pass over the rows ``order`` (in that order), updating ``W`` in place.

    Parameters
    ----------
    rows : X's rows as CSR blocks, the intercept column included (``kernels.sparse.csr_rows``).
    y : (n,) int64 class indices.  order : (T,) int64 row indices to visit.
    W : (D, K) float64 feature-major weights (D counts the intercept column), in place.
    code : the rule (``kernels.codes``).  C : slack price.
    coef_out : (T, K) array to record every step's ``coef`` (the signed taus), or (0, K).
    mistake_out : (T,) bool array set to whether the model mispredicted row ``order[t]``
        *before* its update (progressive validation), or an empty array to skip.
    weights : (n,) float64 example weights (>= 0) by row, or None (every weight 1).
    U, avg : the averaging sum (D, K) and counters ``[t, n_avg, start]`` (int64), updated in
        place; None without averaging.

    Returns
    -------
    The number of aggressive (non-passive) steps.
    """
    if U is None and use_mirrored_path(rows, order, W):
        return _mirrored_pass(rows, y, order, W, code, C, coef_out, mistake_out, weights)
    K = W.shape[1]
    scores = np.empty(K)
    coef = np.zeros(K)
    active = np.empty(K, dtype=np.int64)
    qbuf = np.empty(K)
    scaled = np.zeros(K)
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        sqnorm = row_scores(rows, i, W, scores)
        if mistake_out.shape[0] > 0:
            mistake_out[t] = np.argmax(scores) != y[i]  # the prediction before the step
            if U is not None:  # the averaged model predicts
                mistake_out[t] = averaged_mistake(rows, i, U, avg, scores, scaled, y[i])
        weight = example_weight(weights, i)
        if weight == 0.0:
            continue  # absent
        n_active = rule_coefficients(code, scores, y[i], sqnorm, C, coef, active, qbuf, weight)
        if coef_out.shape[0] > 0:
            coef_out[t, :] = coef
        if 2 * n_active > K:  # most classes move (SPA): a contiguous pass over all K
            row_axpy_all(rows, i, W, coef)
        elif n_active > 0:
            row_axpy(rows, i, W, coef, active, n_active)
        if U is not None:
            factor = average_step(avg)
            if factor > 0.0 and n_active > 0:  # U += n_avg Delta
                for a in range(n_active):
                    scaled[active[a]] = factor * coef[active[a]]
                row_axpy(rows, i, U, scaled, active, n_active)
        if n_active > 0:
            n_updates += 1
            for a in range(n_active):
                coef[active[a]] = 0.0
    return n_updates
