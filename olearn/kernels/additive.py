"""One epoch of any additive multiclass rule (Perceptron, PA family, SPA family) over CSR.

The loop is shared; the per-step rule is picked by an integer code from
:mod:`olearn.kernels.codes`.  Every such rule updates ``w_u += coef_u x`` for a few classes.
"""

from __future__ import annotations

import numba
import numpy as np

from olearn.kernels.codes import PERCEPTRON, SPA, SPA1, SPA2
from olearn.kernels.pa import pa_coefficients, perceptron_coefficients
from olearn.kernels.spa import spa_coefficients
from olearn.kernels.sparse import row_axpy, row_axpy_all, row_scores


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

