"""``average``: the mean of the weights after each example (scikit-learn's averaged SGD / the
averaged perceptron), for the linear multiclass estimators (Perceptron, PA, SPA; the means of
CW, AROW, SCW).

``w_bar_T = 1/(T - a + 1) sum_{t=a..T} w_t`` with ``w_t`` the weights after example t (t counts
every example the model has learned from, 1-based, across ``partial_fit`` calls and epochs)
and ``a = average`` (``True`` = 1: every iterate; scikit-learn's integer form: averaging starts
at the ``average``-th example).  The kernels keep it in O(non-zeros) per example by the lazy
identity ``w_bar = w - U / n_avg`` with ``U = sum_k n_k Delta_k`` (``n_k`` averaged examples
before k, ``Delta_k`` its update): see :func:`olearn.kernels.weights.average_step`.

Predictions, ``decision_function`` and ``coef_`` / ``intercept_`` use the average (as
scikit-learn); the raw weights stay in the state (``get_state()["coef"]``), beside ``U``
(``"average_sum"``, ``"average_sum_intercept"``) and the counters (``"average_counts"``:
``[t, n_avg, start]``), so a model restored from its state continues bit for bit.  The
progressive mistakes of ``learn_stream`` are the averaged model's too (its prediction before
each step; the raw model's while no iterate is averaged yet).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

AVERAGE_CONSTRAINT = ["boolean", Interval(Integral, 0, None, closed="left")]


def average_start(average) -> int:
    """The first averaged example (1-based), or 0 when averaging is off."""
    if isinstance(average, (bool, np.bool_)):
        return 1 if average else 0
    if isinstance(average, Integral) and average >= 0:
        return int(average)
    raise ValueError(f"average must be True, False or an int >= 0, got {average!r}")


def count_unchanged(avg, n: int) -> None:
    """Advance the averaging counters ``avg`` (or None) over ``n`` examples that leave the
    weights as they are without a kernel call (a one-class model learns nothing): their
    iterates still count in the mean, and ``U`` is unchanged (``Delta = 0``)."""
    if avg is None or n == 0:
        return
    t0 = int(avg[0])
    avg[0] += n
    avg[1] += max(0, int(avg[0]) - max(t0, int(avg[2]) - 1))
