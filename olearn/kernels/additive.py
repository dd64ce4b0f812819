"""One epoch of any additive multiclass rule (Perceptron, PA family, SPA family) over CSR.

The loop is shared; the per-step rule is picked by an integer code from
:mod:`olearn.kernels.codes`.  Every such rule updates ``w_u += coef_u x`` for a few classes.

Two classes: every rule's two coefficients are opposite (``coef_y = tau = -coef_r``), so from
zero weights ``W[:, 1] == -W[:, 0]`` holds exactly at every step (IEEE negation and rounding
are symmetric).  :func:`binary_epoch` then keeps one contiguous vector ``w = W[:, 0]``, with
``s_1 = -s_0``: the same numbers as the general loop, half the arithmetic and a contiguous
gather.  It is used when the state is mirrored and the pass reads at least as many non-zeros
as ``W`` has rows (it copies ``w`` in and out).
"""

from __future__ import annotations

import numba
import numpy as np

from olearn.kernels.codes import PERCEPTRON, SPA, SPA1, SPA2
from olearn.kernels.pa import pa_coefficients, perceptron_coefficients
from olearn.kernels.spa import spa_coefficients
from olearn.kernels.sparse import row_axpy, row_axpy_all, row_scores


@numba.njit(cache=True)
def is_mirrored(W):
    """``W[:, 1] == -W[:, 0]`` exactly (two classes, as every rule here leaves them)."""
    for j in range(W.shape[0]):
        if W[j, 1] != -W[j, 0]:
            return False
    return True


@numba.njit(cache=True)
def binary_epoch(indptr, indices, data, y, order, W, code, C, intercept, coef_out, mistake_out):
    """:func:`additive_epoch` for a mirrored two-class ``W`` (see the module docstring)."""
    rows = W.shape[0]
    w = np.empty(rows)
    for j in range(rows):
        w[j] = W[j, 0]
    scores = np.empty(2)
    coef = np.zeros(2)
    active = np.empty(2, dtype=np.int64)
    qbuf = np.empty(2)
    record = coef_out.shape[0] > 0
    count_mistakes = mistake_out.shape[0] > 0
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        s = 0.0
        sqnorm = 0.0
        for p in range(indptr[i], indptr[i + 1]):  # row_scores with one column
            v = data[p]
            sqnorm += v * v
            s += w[np.uintp(indices[p])] * v
        if intercept:
            s += w[rows - 1]
            sqnorm += 1.0
        scores[0] = s
        scores[1] = -s  # = W[:, 1] . x exactly
        if count_mistakes:
            mistake_out[t] = np.argmax(scores) != y[i]
        if code == PERCEPTRON:
            n_active = perceptron_coefficients(scores, y[i], coef, active)
        elif code == SPA or code == SPA1 or code == SPA2:
            n_active = spa_coefficients(scores, y[i], sqnorm, code, C, coef, active, qbuf)
        else:
            n_active = pa_coefficients(scores, y[i], sqnorm, code, C, coef, active)
        if record:
            coef_out[t, 0] = coef[0]
            coef_out[t, 1] = coef[1]
        if n_active > 0:
            c = coef[0]  # coef[1] == -c
            for p in range(indptr[i], indptr[i + 1]):
                w[np.uintp(indices[p])] += c * data[p]
            if intercept:
                w[rows - 1] += c
            n_updates += 1
            coef[0] = 0.0
            coef[1] = 0.0
    for j in range(rows):
        W[j, 0] = w[j]
        W[j, 1] = 0.0 - w[j]  # -w without turning +0 into -0
    return n_updates


@numba.njit(cache=True)
def additive_epoch(indptr, indices, data, y, order, W, code, C, intercept, coef_out, mistake_out):
    """Run one pass over the rows ``order`` (in that order), updating ``W`` in place.

    Parameters
    ----------
    indptr, indices, data : the CSR arrays of X (see ``kernels.sparse.csr_arrays``).
    y : (n,) int64 class indices.  order : (T,) int64 row indices to visit.
    W : (d [+1], K) float64 feature-major weights, updated in place.
    code : the rule (``kernels.codes``).  C : slack price.  intercept : W has a bias row.
    coef_out : (T, K) array to record every step's ``coef`` (the signed taus), or (0, K).
    mistake_out : (T,) bool array set to whether the model mispredicted row ``order[t]``
        *before* its update (progressive validation), or an empty array to skip.

    Returns
    -------
    The number of aggressive (non-passive) steps.
    """
    K = W.shape[1]
    if K == 2:
        visited = 0
        for t in range(order.shape[0]):
            visited += indptr[order[t] + 1] - indptr[order[t]]
        if visited >= W.shape[0] and is_mirrored(W):
            return binary_epoch(
                indptr, indices, data, y, order, W, code, C, intercept, coef_out, mistake_out
            )
    scores = np.empty(K)
    coef = np.zeros(K)
    active = np.empty(K, dtype=np.int64)
    qbuf = np.empty(K)
    record = coef_out.shape[0] > 0
    count_mistakes = mistake_out.shape[0] > 0
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        sqnorm = row_scores(indptr, indices, data, i, W, intercept, scores)
        if count_mistakes:
            mistake_out[t] = np.argmax(scores) != y[i]  # the prediction before the step
        if code == PERCEPTRON:
            n_active = perceptron_coefficients(scores, y[i], coef, active)
        elif code == SPA or code == SPA1 or code == SPA2:
            n_active = spa_coefficients(scores, y[i], sqnorm, code, C, coef, active, qbuf)
        else:
            n_active = pa_coefficients(scores, y[i], sqnorm, code, C, coef, active)
        if record:
            for u in range(K):
                coef_out[t, u] = coef[u]
        if 2 * n_active > K:  # most classes move (SPA): a contiguous pass over all K
            row_axpy_all(indptr, indices, data, i, W, intercept, coef)
        elif n_active > 0:
            row_axpy(indptr, indices, data, i, W, intercept, coef, active, n_active)
        if n_active > 0:
            n_updates += 1
            for a in range(n_active):
                coef[active[a]] = 0.0
    return n_updates
