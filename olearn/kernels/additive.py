"""One epoch of any additive multiclass rule (Perceptron, PA family, SPA family) over CSR.

Every such rule updates ``w_u += coef_u x`` for a few classes; :func:`rule_step` fills the
coefficients of the rule's integer code (:mod:`olearn.kernels.codes`).  The intercept, if
any, is already a column of the rows (``kernels.sparse.csr_rows``).

What is compiled: :func:`additive_epoch` is Python, and picks the compiled pass (the
two-class one only for two classes) and the rule, whose code is fixed by its type
(:class:`AdditiveRule`): numba compiles a pass once per argument type, with the code a
constant, and drops every other rule's branches before compiling.  A first ``fit`` thus
compiles its own rule's kernel only, not one kernel of every rule.

Two classes: every rule's two coefficients are opposite (``coef_y = tau = -coef_r``), so from
zero weights ``W[:, 1] == -W[:, 0]`` holds exactly at every step (IEEE negation and rounding
are symmetric).  When :func:`olearn.kernels.sparse.use_mirrored_path` says so,
:func:`additive_epoch` keeps one contiguous vector ``w = W[:, 0]`` with ``s_1 = -s_0``: the
same numbers as the general loop, half the arithmetic and a contiguous gather.

Weights (``weights``, per row; None on the plain path): the rule's step for an example of
weight s (:mod:`olearn.core.pa`, *Weights*): the Perceptron's coefficients are ``+-s``, the
soft rules use ``C_i = s C``, the hard ones ignore s > 0; s = 0 is skipped (absent).  Given
as :class:`olearn.kernels.weights.StepWeights` (``weight_scales="step"``), every rule's
coefficients are the unweighted step's times s (scikit-learn's weighted PA).

Averaging (``U`` and ``avg``, None on the plain path): every update ``Delta = coef (x) x`` of an
averaged example also adds ``n_avg Delta`` to ``U`` (:func:`olearn.kernels.weights.average_step`),
O(nnz) per step; the mean of the iterates is ``W - U / n_avg``.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from olearn._jit import jit
from olearn.kernels.codes import ADDITIVE_NAMES, PERCEPTRON, SPA, SPA1, SPA2, typed_by_code
from olearn.kernels.pa import argmax, pa_coefficients, perceptron_coefficients
from olearn.kernels.spa import sort_space, spa_coefficients
from olearn.kernels.sparse import (
    row_axpy,
    row_axpy1,
    row_axpy_all,
    row_dot,
    row_scores,
    store_mirrored,
    use_mirrored_path,
)
from olearn.kernels.weights import (
    average_step,
    averaged_mistake,
    example_weight,
    price,
    scale_step,
)

# --- the rule: its code fixed by its type ---------------------------------------------------


class AdditiveRule(NamedTuple):
    """A rule as the passes take it: its ``code`` (:mod:`olearn.kernels.codes`), the slack
    price ``C`` and ``space``, the full sort's workspace (SPA with many classes:
    :func:`olearn.kernels.spa.sort_space`; else None).  Built by :func:`kernel_rule`, as the
    type of its code (:func:`olearn.kernels.codes.typed_by_code`)."""

    code: int
    C: float
    space: tuple | None


RULE_TYPES = typed_by_code(AdditiveRule, ADDITIVE_NAMES)


def kernel_rule(code: int, C: float, n_classes: int) -> AdditiveRule:
    """The rule of kernel ``code`` with slack price ``C`` for ``n_classes`` classes."""
    space = sort_space(n_classes) if code in (SPA, SPA1, SPA2) else None
    if space is None:
        return _rule(int(code), float(C))
    return RULE_TYPES[code](int(code), float(C), space)


@functools.lru_cache(maxsize=256)
def _rule(code: int, C: float) -> AdditiveRule:
    """A rule without workspace, made once (River's ``learn_one`` asks for it per sample)."""
    return RULE_TYPES[code](code, C, None)


@functools.cache
def _step_of(code: int, sorting: bool):
    """:func:`rule_step` of rule ``code``: its family's coefficients with ``code`` a constant
    (``sorting``: with the rule's sort workspace, else a constant None: no sort compiled)."""
    if code == PERCEPTRON:

        def perceptron(rule, scores, y, sqnorm, coef, active, qbuf, weight):
            return perceptron_coefficients(scores, y, coef, active, weight)

        return perceptron
    if code == SPA or code == SPA1 or code == SPA2:
        coefficients = spa_coefficients(code, sorting)  # this rule's search only
        if sorting:

            def sorting_spa(rule, scores, y, sqnorm, coef, active, qbuf, weight):
                C = rule.C * weight  # C_i = s C (s = 1: C exactly)
                return coefficients(scores, y, sqnorm, C, coef, active, qbuf, rule.space)

            return sorting_spa

        def spa(rule, scores, y, sqnorm, coef, active, qbuf, weight):
            C = rule.C * weight
            return coefficients(scores, y, sqnorm, C, coef, active, qbuf, None)

        return spa

    def pa(rule, scores, y, sqnorm, coef, active, qbuf, weight):
        C = rule.C * weight
        return pa_coefficients(scores, y, sqnorm, code, C, coef, active)

    return pa


def rule_step(rule, scores, y, sqnorm, coef, active, qbuf, weight):
    """Fill ``coef`` for one step of ``rule`` (an :class:`AdditiveRule`) on an example of
    weight ``weight`` > 0 (the soft rules get ``C_i = weight * C``); returns the number of
    active classes."""
    step = _step_of(rule.code, rule.space is not None)
    return step(rule, scores, y, sqnorm, coef, active, qbuf, weight)


@overload(rule_step)
def _compiled_rule_step(rule, scores, y, sqnorm, coef, active, qbuf, weight):
    """Compiled, the code is the constant of the rule's type, and ``space`` None when the
    rule has none: numba compiles that rule's code only (no other rule, no sort)."""
    return _step_of(rule.instance_class.fixed_code,
                    not isinstance(rule.types[2], types.NoneType))  # fmt: skip


# --- the passes ----------------------------------------------------------------------------


def workspace(K: int) -> tuple:
    """A pass's scratch for ``K`` classes: ``(scores, coef, active, qbuf, scaled)``, each (K,)
    (``active`` int64; ``coef`` and ``scaled`` zeros).  Allocated here, not in the compiled
    pass: numba compiles each kind of array allocation on its own, which took about 0.3 s of
    a first ``fit``."""
    return np.empty(K), np.zeros(K), np.empty(K, dtype=np.int64), np.empty(K), np.zeros(K)


@jit
def _mirrored_pass(rows, y, order, W, w, rule, coef_out, mistake_out, work, weights=None):
    """:func:`additive_epoch` on a mirrored two-class ``W`` through ``w``, a copy of
    ``W[:, 0]`` (``work``: :func:`workspace` of 2)."""
    scores, coef, active, qbuf, _ = work
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        s, sqnorm = row_dot(rows, i, w)
        scores[0] = s
        scores[1] = -s  # = W[:, 1] . x exactly
        if mistake_out.shape[0] > 0:
            mistake_out[t] = argmax(scores) != y[i]
        weight = factor = 1.0
        if weights is not None:  # (a None type: numba compiles no weight code at all)
            weight = example_weight(weights, i)
            if weight == 0.0:
                continue  # absent
            factor = price(weights, weight)  # of C: s, or 1 when s scales the step
        n_active = rule_step(rule, scores, y[i], sqnorm, coef, active, qbuf, factor)
        if weights is not None:
            scale_step(weights, weight, coef, active, n_active)  # weight_scales="step" only
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
def _general_pass(rows, y, order, W, rule, coef_out, mistake_out, work, weights=None, U=None,
                  avg=None):  # fmt: skip
    """:func:`additive_epoch` on any ``W`` (``work``: :func:`workspace` of its K)."""
    K = W.shape[1]
    scores, coef, active, qbuf, scaled = work
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        sqnorm = row_scores(rows, i, W, scores)
        if mistake_out.shape[0] > 0:
            mistake_out[t] = argmax(scores) != y[i]  # the prediction before the step
            if U is not None:  # the averaged model predicts
                mistake_out[t] = averaged_mistake(rows, i, U, avg, scores, scaled, y[i])
        weight = factor = 1.0
        if weights is not None:  # (a None type: numba compiles no weight code at all)
            weight = example_weight(weights, i)
            if weight == 0.0:
                continue  # absent
            factor = price(weights, weight)  # of C: s, or 1 when s scales the step
        n_active = rule_step(rule, scores, y[i], sqnorm, coef, active, qbuf, factor)
        if weights is not None:
            scale_step(weights, weight, coef, active, n_active)  # weight_scales="step" only
        if coef_out.shape[0] > 0:
            for u in range(K):
                coef_out[t, u] = coef[u]
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


def additive_epoch(
    rows, y, order, W, code, C, coef_out, mistake_out, weights=None, U=None, avg=None
) -> int:
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
    weights : (n,) float64 example weights (>= 0) by row, or None (every weight 1); wrapped
        in :class:`olearn.kernels.weights.StepWeights`, they scale the step, not C.
    U, avg : the averaging sum (D, K) and counters ``[t, n_avg, start]`` (int64), updated in
        place; None without averaging.

    Returns
    -------
    The number of aggressive (non-passive) steps.

    The compiled passes are chosen here, so a fit compiles only what it runs: its own rule
    (:func:`kernel_rule`), and the two-class pass only for two classes.
    """
    K = W.shape[1]
    rule = kernel_rule(code, C, K)
    if U is None and K == 2 and use_mirrored_path(rows, order, W):
        w = np.array(W[:, 0])  # contiguous
        work = workspace(2)
        return _mirrored_pass(rows, y, order, W, w, rule, coef_out, mistake_out, work, weights)
    work = workspace(K)
    return _general_pass(rows, y, order, W, rule, coef_out, mistake_out, work, weights, U, avg)
