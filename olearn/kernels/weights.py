"""Example weights in the kernels (``sample_weight`` x ``class_weight``).

A kernel takes ``weights=None`` (the plain path: numba compiles it apart, with ``s = 1.0`` a
constant) or a (n,) float64 array indexed by row.  What a weight means per rule is derived in
the readable rules' docstrings (:mod:`olearn.core.pa`, :mod:`olearn.core.cw`, ...).

The additive kernel also takes :class:`StepWeights`, the same array wrapped: the weight then
scales the rule's step (scikit-learn's weighted PA, ``weight_scales="step"``) instead of its
price C.  The wrapper is a type, so numba compiles that meaning apart too (:func:`price`,
:func:`scale_step`); the plain path and the price path compile as before.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from olearn._jit import jit
from olearn.kernels.pa import argmax
from olearn.kernels.sparse import row_scores


class StepWeights(NamedTuple):
    """Example weights that scale the step (``weight_scales="step"``): ``values`` (n,)."""

    values: np.ndarray


def _scales_step(weights) -> bool:
    """Whether numba type ``weights`` is :class:`StepWeights`."""
    return isinstance(weights, types.BaseNamedTuple) and weights.instance_class is StepWeights


def example_weight(weights, i):
    """Row ``i``'s weight ``s``: 1.0 without weights."""
    if weights is None:
        return 1.0
    if isinstance(weights, StepWeights):
        return weights.values[i]
    return weights[i]


@overload(example_weight, inline="always")
def _compiled_example_weight(weights, i):
    if isinstance(weights, types.NoneType):
        return lambda weights, i: 1.0
    if _scales_step(weights):
        return lambda weights, i: weights.values[i]
    return lambda weights, i: weights[i]


def price(weights, s):
    """The factor of the rule's price C for an example of weight ``s``: ``s`` (the weighted
    QP, :mod:`olearn.core.pa`, *Weights*), or 1 when the weight scales the step instead."""
    return 1.0 if isinstance(weights, StepWeights) else s


@overload(price, inline="always")
def _compiled_price(weights, s):
    if _scales_step(weights):
        return lambda weights, s: 1.0
    return lambda weights, s: s


def scale_step(weights, s, coef, active, n_active):
    """With :class:`StepWeights`, multiply the step's ``n_active`` coefficients by ``s``
    (``update *= class_weight * sample_weight`` in scikit-learn's ``_plain_sgd``); else
    nothing (compiled away)."""
    if isinstance(weights, StepWeights):
        for a in range(n_active):
            coef[active[a]] *= s


@overload(scale_step, inline="always")
def _compiled_scale_step(weights, s, coef, active, n_active):
    if _scales_step(weights):

        def scaled(weights, s, coef, active, n_active):
            for a in range(n_active):
                coef[active[a]] *= s

        return scaled
    return lambda weights, s, coef, active, n_active: None


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
