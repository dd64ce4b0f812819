"""The per-sample door's plain-Python path: one small row, no numpy, no compiled call.

River calls ``learn_one`` and ``predict_one`` once per sample, with a dict of a few features.
There the compiled kernel's own cost (building arrays, numba's dispatch of a dozen
arguments, the door's checks as array passes) is many times the step itself: on River's
Phishing stream (9 features, two classes) a PA-I step is about 40 multiply-adds.  This module
does that step in plain Python, straight on the engine's weights (a memoryview of ``W``), for
the additive rules without averaging, Perceptron and the PA family (the rules whose step is a
closed form on two classes: River's own PA), and reads scores the same way for every linear
engine.

It is the kernel's arithmetic, operation for operation, so the model is the same to the last
bit (``tests/test_small_rows.py`` checks it against the compiled path over streams of every
shape the path takes): the scores and ``||x||^2`` summed in the row's column order (X's
columns, then the intercept column's), the step sizes by the very closed forms the rule and
the kernel call (:mod:`olearn.core._pa_closed_forms`, their Python functions), ``W[j, u] +=
coef_u v`` for the two classes that move.

Everything is checked before anything changes (the door's rules): a value that is not a
finite ``float`` or ``int``, an ``||x||^2`` that overflows, a label that is not yet a class,
a row too large for this path to pay (:data:`SMALL_WORK`): the caller takes the compiled
path instead, which learns or refuses the sample by its own door.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from olearn._numerics import TINY_SQNORM
from olearn.core import _pa_closed_forms as forms
from olearn.kernels.codes import PA, PA1, PA2, PA_MISTAKES, PERCEPTRON

# Multiply-adds per row (non-zeros x classes; two classes: non-zeros, their loop being
# specialised) above which the compiled call is the cheaper one: measured on this project's
# 2-core machine, the plain path is faster up to about 20 x 8 and 100 x 2 and slower from
# 33 x 10 (River's dicts through olearn.river, PA-I; benchmarks/river_learn_one.py).
SMALL_WORK = 200
SMALL_RULES = frozenset({PERCEPTRON, PA, PA1, PA2, PA_MISTAKES})


def _python(f):
    """A compiled closed form's Python function (the same source; itself without numba)."""
    return getattr(f, "py_func", f)


_tau_pa, _tau_pa1, _tau_pa2 = _python(forms.tau_pa), _python(forms.tau_pa1), _python(forms.tau_pa2)


def small_row(columns: Iterable[int], values: Iterable, n_features: int, column_value: float,
              W=None, K: int = 2):  # fmt: skip
    """``(row, sqnorm, scores)``: the row's ``(column, value)`` pairs in column order, zeros
    dropped, the intercept column's last; its ``||x||^2`` summed in that order; and, given the
    flat view ``W`` of a (D, K) model (:func:`flat_view`), the class scores ``W[:, u] . x``
    summed in the same pass (:func:`row_scores`' numbers; None without W).  None when the row
    is not for this path (a value neither a finite float nor an int, an overflowing
    ``||x||^2``, a column outside ``[0, n_features)`` or repeated): the compiled door then
    decides."""
    row: list = []
    append = row.append
    last = -1
    ordered = True
    sqnorm = s0 = s1 = 0.0
    two = W is not None and K == 2  # the common case, its two sums written out
    for j, v in zip(columns, values):
        if v.__class__ is not float:
            if v.__class__ is not int:
                return None  # bools, numpy scalars, strings ...: the door's conversion
            try:
                v = float(v)
            except OverflowError:
                return None
        if v == 0.0:
            continue
        if not -1 < j < n_features:
            return None
        if j <= last:
            if j == last:
                return None  # a repeated column: the door sums it
            ordered = False
        last = j
        sqnorm += v * v  # the kernel's order when the columns come in order
        if two:
            b = 2 * j
            s0 += W[b] * v
            s1 += W[b + 1] * v
        append((j, v))
    if not ordered:
        row.sort()  # the CSR row's order
        sqnorm = 0.0
        for k, (j, v) in enumerate(row):
            if k and j == row[k - 1][0]:
                return None  # a repeated column: the door sums it
            sqnorm += v * v
    if column_value > 0.0:
        append((n_features, column_value))
        sqnorm += column_value * column_value
        if two:
            b = 2 * n_features
            s0 += W[b] * column_value
            s1 += W[b + 1] * column_value
    if not math.isfinite(sqnorm):
        return None  # a non-finite value, or an overflow: the door says which
    if W is None:
        return row, sqnorm, None
    if two and ordered:
        return row, sqnorm, [s0, s1]
    return row, sqnorm, row_scores(W, K, row)


def flat_view(W, writeable: bool = False):
    """A flat memoryview of ``W``'s float64 values (C order: ``W[j, u]`` at ``K j + u``), or
    None when W is not a C-ordered float64 array (or, asked ``writeable``, is read-only)."""
    if not (W.flags.c_contiguous and W.dtype == np.float64):
        return None
    if writeable and not W.flags.writeable:
        return None
    return W.data.cast("B").cast("d")


def row_scores(W, K: int, row: list) -> list[float]:
    """``[W[:, u] . x for u]`` from the flat view ``W`` of a C-ordered (D, K) array, summed
    in the row's order (:func:`olearn.kernels.sparse.row_scores`)."""
    scores = [0.0] * K
    for j, v in row:
        b = K * j
        for u in range(K):
            scores[u] += W[b + u] * v
    return scores


def work(n_nonzeros: int, n_classes: int) -> int:
    """A row's cost on this path, in :data:`SMALL_WORK`'s units."""
    return n_nonzeros * (n_classes if n_classes > 2 else 1)


def best_rival(scores: list, y: int) -> int:
    """``argmax_{u != y} scores[u]``, lowest index on ties (as the kernels' ``best_rival``)."""
    rival = -1
    best = 0.0
    for u, s in enumerate(scores):
        if u != y and (rival < 0 or s > best):
            rival = u
            best = s
    return rival


def argmax(scores: list) -> int:
    """The predicted class: the first index of the highest score, a NaN first (numpy's order,
    :func:`olearn.kernels.pa.argmax`)."""
    best = 0
    for u in range(1, len(scores)):
        s = scores[u]
        if s > scores[best] or (s != s and scores[best] == scores[best]):
            best = u
    return best


def additive_step(W, K: int, row: list, scores: list, sqnorm: float, y: int, *, code: int,
                  C: float) -> int:  # fmt: skip
    """One step of the Perceptron or a PA rule (``code``, weight 1) on ``row`` (its class
    ``scores`` and ``sqnorm``: :func:`small_row`) with class index ``y``, in place on the flat
    view ``W``; returns the number of classes moved (0 or 2), as
    :func:`olearn.kernels.additive.additive_epoch` counts them."""
    r = 1 - y if K == 2 else best_rival(scores, y)  # two classes: the rival is the other
    sy, sr = scores[y], scores[r]
    if code == PERCEPTRON:
        if sr < sy:
            return 0
        tau = 1.0
    else:  # olearn.kernels.pa.pa_coefficients
        loss = 1.0 - (sy - sr)  # hinge loss against the rival
        if loss <= 0.0 or sqnorm < TINY_SQNORM:
            return 0
        if code == PA_MISTAKES and sr < sy:
            return 0
        if code == PA1:
            tau = _tau_pa1(loss, sqnorm, C)
        elif code == PA2:
            tau = _tau_pa2(loss, sqnorm, C)
        else:
            tau = _tau_pa(loss, sqnorm)
    minus = -tau  # coef_r
    for j, v in row:  # olearn.kernels.sparse.row_axpy: W[j, u] += coef_u * v
        b = K * j
        W[b + y] += tau * v
        W[b + r] += minus * v
    return 2
