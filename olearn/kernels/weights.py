"""Example weights in the kernels (``sample_weight`` x ``class_weight``).

A kernel takes ``weights=None`` (the plain path: numba compiles it apart, with ``s = 1.0`` a
constant) or a (n,) float64 array indexed by row.  What a weight means per rule is derived in
the readable rules' docstrings (:mod:`olearn.core.pa`, :mod:`olearn.core.cw`, ...).
"""

from __future__ import annotations

from olearn._jit import jit
from olearn.kernels.pa import argmax
from olearn.kernels.sparse import row_scores


@jit
def example_weight(weights, i):
    """Row ``i``'s weight ``s``: 1.0 without weights."""
    if weights is None:
        return 1.0
    return weights[i]


@jit
def averaged_mistake(rows, i, U, avg, scores, buffer, label):
    """Whether the averaged model ``W - U / n_avg`` (``scores`` holds ``W x``) mispredicts
    row ``i`` (the raw model while nothing is averaged yet); ``buffer`` is (K,) scratch."""
    n_avg = avg[1]
    if n_avg == 0:
        return argmax(scores) != label
    row_scores(rows, i, U, buffer)  # U x
    for u in range(scores.shape[0]):
        buffer[u] = scores[u] - buffer[u] / n_avg
    return argmax(buffer) != label


@jit
def average_step(avg):
    """Count one example in the averaging counters ``avg = [t, n_avg, start]`` (int64) and
    return the factor of its update in ``U`` (``n_avg`` before it), or -1 when the example is
    before ``start`` (its iterate is not averaged).

    Lazy averaging (the identity behind scikit-learn's averaged SGD): with ``Delta_k`` the
    update of example k and ``U = sum_k (n_k) Delta_k`` over the averaged examples, ``n_k`` the
    number of averaged examples before k, the mean of the averaged iterates is
    ``w_bar = w - U / n_avg``.  Example t (1-based) is averaged when ``t >= start``.
    """
    avg[0] += 1
    if avg[0] < avg[2]:
        return -1.0
    factor = float(avg[1])
    avg[1] += 1
    return factor
