"""numba mirror of :mod:`olearn.core.cw`: one multiclass epoch of the CW family over CSR.

The state is the feature-major mean ``W[feature, class]`` (as the additive kernels) and one
covariance shared by all classes: a vector ``S_diag`` (diagonal) or, for the full covariance,
its square root ``A_full`` (``Sigma = A A'``, updated as ``A -= gamma (Sigma x)(A'x)'``, see
``core.cw._factor_update``); the unused one is empty.  An intercept is a column of the rows
like any feature (``kernels.sparse.csr_rows``), with its own entry in both.  The
step sizes are the numba functions of :mod:`olearn.core._cw_closed_forms` that the rule calls
too, so kernel and rule agree to rounding.

Codes (one table, read by the estimators): rules ``CW``, ``CW_VARIANCE``, ``AROW``, ``SCW1``,
``SCW2``, ``NHERD``, ``NAROW`` (whose ``b`` rides in the rule tuple's ``r`` slot); diagonal
forms ``DIAG_PRECISION`` (``1/S_j += c_x x_j^2``) and ``DIAG_TRUNCATED``
(``S_j -= beta_x S_j^2 x_j^2``).

What is compiled: :func:`cw_epoch` is Python, and picks the compiled pass (the two-class one
only for two classes and a diagonal covariance; the full covariance's code only for a full
one) and the rule as the type of its code (:class:`CWRule`, as
:mod:`olearn.kernels.additive` does): a first ``fit`` compiles its own rule's closed forms only.

Two classes, diagonal covariance: every step moves the two means by ``+-alpha Sigma x`` (the
rival of class 0 is class 1 and vice versa), so from zero means ``W[:, 1] == -W[:, 0]`` holds
exactly at every step (IEEE negation and rounding are symmetric), as for the additive kernels
(:mod:`olearn.kernels.additive`).  :func:`_mirrored_diagonal_pass` then keeps one mean vector,
interleaved with the variances (``Z[j] = (mu_0j, S_j)``: one cache line per feature, where
``W`` and ``S_diag`` cost two), with ``s_1 = -s_0`` and ``m = +-(s_0 - (-s_0))``: the same
numbers as the general loop, half the mean arithmetic.  It is used when ``W`` is mirrored and
the pass reads at least as many non-zeros as ``W`` has rows (the selector all families share,
``kernels.sparse.use_mirrored_path``); on the hashed ``sgd-balanced`` (2^20 features) it makes
the epoch ~3x faster.

Weights (``weights``, per row; None on the plain path): AROW and NAROW use ``r_i = r / s``
(NAROW: its ``r_t / s``), SCW and NHERD ``C_i = s C``, CW ignores s > 0
(:mod:`olearn.core.cw`, *Weights*); s = 0 is skipped (absent).

Averaging (``U`` and ``avg``, None on the plain path): the means are averaged as the additive
kernels' weights are (:func:`olearn.kernels.weights.average_step`); the covariance is not.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np
from numba.extending import overload

from olearn._jit import jit
from olearn._numerics import TINY_VARIANCE
from olearn.core._cw_closed_forms import (
    arow_alpha,
    arow_c_beta,
    cw_alpha,
    cw_beta,
    cw_variance_alpha,
    cw_variance_c_beta,
    narow_r,
    nherd_alpha,
    nherd_c_beta,
    scw2_alpha,
)
from olearn.kernels.codes import typed_by_code
from olearn.kernels.pa import argmax, best_rival
from olearn.kernels.sparse import row_scores, store_mirrored, use_mirrored_path
from olearn.kernels.weights import average_step, averaged_mistake, example_weight

CW = 0
CW_VARIANCE = 1
AROW = 2
SCW1 = 3
SCW2 = 4
NHERD = 5
NAROW = 6
DIAG_PRECISION = 0
DIAG_TRUNCATED = 1

_RULES = {
    "CW": CW,
    "CW-variance": CW_VARIANCE,
    "AROW": AROW,
    "SCW-I": SCW1,
    "SCW-II": SCW2,
    "NHERD": NHERD,
    "NAROW": NAROW,
}
_DIAG = {"precision": DIAG_PRECISION, "truncated": DIAG_TRUNCATED}


def cw_code(rule: str) -> int:
    """The kernel code of a rule name as in ``CWTrace.rule`` (``cw_code("SCW-I") == SCW1``)."""
    try:
        return _RULES[rule]
    except KeyError:
        raise ValueError(f"no CW kernel for rule {rule!r}; known: {sorted(_RULES)}") from None


def diagonal_code(form: str) -> int:
    """The kernel code of a diagonal form ("precision" or "truncated")."""
    try:
        return _DIAG[form]
    except KeyError:
        raise ValueError(f"unknown diagonal form {form!r}; known: {sorted(_DIAG)}") from None


@jit
def cw_coefficients(code, m, v, phi, r, C, lam, weight=1.0):
    """``(alpha, c, beta)`` of one step along Delta; ``(0, 0, 0)`` when passive.  ``weight``
    s > 0: ``r / s`` (AROW; NAROW's ``r_t / s``, its b given as r), ``s C`` (SCW, NHERD)."""
    if code == NAROW:
        r = narow_r(v, r)  # r_t = v / (b v - 1), inf when v <= 1/b
    r, C = r / weight, C * weight
    if code == AROW or code == NHERD or code == NAROW:
        loss = max(0.0, 1.0 - m)  # hinge
    elif code == CW_VARIANCE:
        loss = max(0.0, phi * v - m)
    else:
        loss = max(0.0, phi * math.sqrt(max(v, 0.0)) - m)  # l^phi
    if loss <= 0.0 or v < TINY_VARIANCE or r == math.inf:
        return 0.0, 0.0, 0.0
    if code == AROW or code == NAROW:  # NAROW: AROW at r = r_t
        alpha = arow_alpha(m, v, r)  # alpha = l / (v + r)
        c, beta = arow_c_beta(v, r, lam)  # inv(Sigma') = inv(Sigma) + Delta Delta' / (lam r)
        return alpha, c, beta
    if code == NHERD:
        alpha = nherd_alpha(m, v, C)  # alpha = l / (v + 1/C)
        c, beta = nherd_c_beta(v, C, lam)  # Sigma' = A Sigma A'
        return alpha, c, beta
    if code == CW_VARIANCE:
        alpha = cw_variance_alpha(m, v, phi, lam)
        c, beta = cw_variance_c_beta(alpha, v, phi, lam)  # inv(Sigma') += 2 alpha phi x x'
        return alpha, c, beta
    if code == SCW2:
        alpha = scw2_alpha(m, v, phi, C, lam)  # m + alpha n = phi sqrt(u)
    else:
        alpha = cw_alpha(m, v, phi, lam)  # m + alpha v = phi sqrt(u)
        if code == SCW1 and alpha > C:
            alpha = C  # SCW-I: alpha <= C
    _, c, beta = cw_beta(alpha, v, phi, lam)  # beta = a phi / (lam sqrt(u) + v a phi)
    return alpha, c, beta


class CWRule(NamedTuple):
    """A rule as the passes take it (:func:`cw_epoch`'s ``rule``), as the type of its code
    (:func:`olearn.kernels.codes.typed_by_code`)."""

    code: int
    phi: float
    r: float
    C: float
    lam: float
    diag_form: int


RULE_TYPES = typed_by_code(CWRule, {code: name for name, code in _RULES.items()})


@functools.lru_cache(maxsize=256)
def kernel_rule(rule: tuple) -> CWRule:
    """``(code, phi, r, C, lam, diag_form)`` as a :class:`CWRule` of its code's type (made
    once: River's ``learn_one`` asks for it per sample)."""
    code, phi, r, C, lam, diag_form = rule
    return RULE_TYPES[code](int(code), float(phi), float(r), float(C), float(lam), int(diag_form))


@functools.cache
def _step_of(code: int):
    """:func:`cw_coefficients` with ``code`` a constant of the step."""

    def step(rule, m, v, weight):
        return cw_coefficients(code, m, v, rule.phi, rule.r, rule.C, rule.lam, weight)

    return step


def rule_step(rule, m, v, weight):
    """:func:`cw_coefficients` of a :class:`CWRule`."""
    return _step_of(rule.code)(rule, m, v, weight)


@overload(rule_step)
def _compiled_rule_step(rule, m, v, weight):
    """Compiled, the code is the constant of the rule's type: numba compiles that rule's
    closed forms only."""
    return _step_of(rule.instance_class.fixed_code)


@jit
def multiclass_step(rule, m, x_Sigma_x, t, alpha_out, beta_out, weight=1.0):
    """``(alpha, c_x, beta_x)`` of step t against the rival (recorded when asked): the
    Delta-level closed form with ``v = 2 x'Sigma x``, and the feature-level covariance factors
    ``c_x = 2c`` (``inv(Sigma) += c_x x x'``) and ``beta_x = 2 beta``
    (``Sigma -= beta_x Sigma x x' Sigma``); zeros when passive.  ``weight`` s > 0: see
    :func:`cw_coefficients`."""
    v = 2.0 * x_Sigma_x  # Delta'(I (x) Sigma)Delta
    alpha, c, beta = rule_step(rule, m, v, weight)
    if alpha_out.shape[0] > 0:
        alpha_out[t] = alpha
        beta_out[t] = beta
    return alpha, 2.0 * c, 2.0 * beta


@jit
def row_scores_variance(rows, i, W, S_diag, scores):
    """``scores[u] = W[:, u] . x_i`` and, in the same pass, ``x_i' diag(S) x_i``.

    :func:`olearn.kernels.sparse.row_scores` with the variance fused in: a second pass over
    the row after ``row_scores`` makes the diagonal epoch ~15% slower (K = 8, 2% density).
    """
    K = W.shape[1]
    for u in range(K):
        scores[u] = 0.0
    x_Sigma_x = 0.0
    for b in range(len(rows)):  # X's block, then the intercept's
        indptr, indices, data = rows[b]
        for p in range(indptr[i], indptr[i + 1]):
            j = np.uintp(indices[p])  # unsigned: no negative-index wraparound test (~12% faster)
            v = data[p]
            x_Sigma_x += S_diag[j] * v * v
            for u in range(K):
                scores[u] += W[j, u] * v
    return x_Sigma_x


@jit
def diagonal_after(Sj, xj, c_x, beta_x, diag_form):
    """The new variance of feature j after a step (``core.cw._diagonal_update``)."""
    if diag_form == DIAG_PRECISION:
        return Sj / (1.0 + c_x * Sj * xj * xj)  # 1/S_j += c_x x_j^2
    gj = Sj * xj
    return Sj - beta_x * gj * gj  # S_j -= beta_x (Sigma x)_j^2


@jit
def full_direction(rows, i, A_full, w, g):
    """``w = A'x``, ``g = A w = Sigma x``; returns ``x'Sigma x = |A'x|^2``."""
    D = A_full.shape[0]
    for k in range(D):
        w[k] = 0.0
    for b in range(len(rows)):  # X's block, then the intercept's
        indptr, indices, data = rows[b]
        for p in range(indptr[i], indptr[i + 1]):
            j = indices[p]
            for k in range(D):
                w[k] += A_full[j, k] * data[p]
    x_Sigma_x = 0.0
    for k in range(D):
        x_Sigma_x += w[k] * w[k]
    for q in range(D):
        acc = 0.0
        for k in range(D):
            acc += A_full[q, k] * w[k]
        g[q] = acc
    return x_Sigma_x


@jit
def _mirrored_diagonal_pass(
    rows, y, order, W, S_diag, Z, rule, alpha_out, beta_out, mistake_out, weights=None
):
    """:func:`cw_epoch` for two classes, a diagonal covariance and a mirrored ``W``.

    See the module docstring: ``Z`` is (D, 2) with ``Z[j, 0] = W[j, 0]`` (``W[j, 1] ==
    -W[j, 0]``) and ``Z[j, 1] = S_diag[j]`` (made by :func:`cw_epoch`: numba compiles every
    kind of array allocation on its own); every operation on ``Z[:, 0]`` is the one
    :func:`cw_epoch` makes on ``W[:, 0]``, in the same order, so the results are bit-identical.
    """
    diag_form = rule[5]
    D = W.shape[0]
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        s0 = 0.0  # mu_0 . x; mu_1 . x = -s0
        x_Sigma_x = 0.0
        for b in range(
            len(rows)
        ):  # X's block, then the intercept's  # row_scores_variance with one mean
            indptr, indices, data = rows[b]
            for p in range(indptr[i], indptr[i + 1]):
                j = np.uintp(indices[p])  # unsigned: no negative-index wraparound test
                v = data[p]
                x_Sigma_x += Z[j, 1] * v * v
                s0 += Z[j, 0] * v
        label = y[i]
        if mistake_out.shape[0] > 0:
            mistake_out[t] = (1 if -s0 > s0 else 0) != label  # argmax, lowest index on ties
        weight = 1.0
        if weights is not None:  # (a None type: numba compiles no weight code at all)
            weight = example_weight(weights, i)
            if weight == 0.0:
                continue  # absent
        if label == 0:
            m = s0 - (-s0)  # (mu_0 - mu_1).x, rival 1
        else:
            m = -s0 - s0  # (mu_1 - mu_0).x, rival 0
        alpha, c_x, beta_x = multiclass_step(rule, m, x_Sigma_x, t, alpha_out, beta_out, weight)
        if alpha == 0.0 and c_x == 0.0:
            continue
        n_updates += 1
        step = alpha if label == 0 else -alpha  # mu_0 moves towards class 0 when y = 0
        for b in range(len(rows)):  # X's block, then the intercept's
            indptr, indices, data = rows[b]
            for p in range(indptr[i], indptr[i + 1]):
                j = np.uintp(indices[p])
                xj = data[p]
                Sj = Z[j, 1]
                Z[j, 0] += step * (Sj * xj)  # mu_0 += +-alpha (Sigma x)_j (mu_1 mirrors it)
                Z[j, 1] = diagonal_after(Sj, xj, c_x, beta_x, diag_form)
    for j in range(D):
        S_diag[j] = Z[j, 1]
    store_mirrored(W, Z[:, 0])
    return n_updates


@jit
def _general_pass(
    rows, y, order, W, S_diag, A_full, rule, alpha_out, beta_out, mistake_out, work,
    weights=None, U=None, avg=None,
):  # fmt: skip
    """:func:`cw_epoch` on any ``W``; ``A_full`` is None with a diagonal covariance, so that
    numba compiles the diagonal's code only (the default path).  ``work``: (K,) ``scores``
    and ``buffer``, and the full covariance's (D,) ``w`` and ``g`` (zeros; (0,) without it),
    made by :func:`cw_epoch` (numba compiles every kind of array allocation on its own)."""
    diag_form = rule[5]
    D = W.shape[0]
    scores, buffer, g, w = work
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        if A_full is not None:
            row_scores(rows, i, W, scores)
            x_Sigma_x = full_direction(rows, i, A_full, w, g)
        else:
            x_Sigma_x = row_scores_variance(rows, i, W, S_diag, scores)
        label = y[i]
        if mistake_out.shape[0] > 0:
            mistake_out[t] = argmax(scores) != label
            if U is not None:  # the averaged means predict
                mistake_out[t] = averaged_mistake(rows, i, U, avg, scores, buffer, label)
        weight = 1.0
        if weights is not None:  # (a None type: numba compiles no weight code at all)
            weight = example_weight(weights, i)
            if weight == 0.0:
                continue  # absent
        s = best_rival(scores, label)
        m = scores[label] - scores[s]  # (mu_y - mu_s).x
        alpha, c_x, beta_x = multiclass_step(rule, m, x_Sigma_x, t, alpha_out, beta_out, weight)
        factor = -1.0  # averaging: U += factor Delta (factor > 0)
        if U is not None:
            factor = average_step(avg)
        if alpha == 0.0 and c_x == 0.0:
            continue
        n_updates += 1
        if A_full is not None:
            for k in range(D):
                W[k, label] += alpha * g[k]  # mu_y += alpha Sigma x
                W[k, s] -= alpha * g[k]  # mu_s -= alpha Sigma x
            if factor > 0.0:
                for k in range(D):
                    U[k, label] += factor * (alpha * g[k])
                    U[k, s] -= factor * (alpha * g[k])
            root = math.sqrt(1.0 + c_x * x_Sigma_x)
            gamma = c_x / (root * (root + 1.0))  # _factor_update
            for q in range(D):
                for k in range(D):
                    A_full[q, k] -= gamma * g[q] * w[k]  # A -= gamma g w'
        else:
            for b in range(len(rows)):  # X's block, then the intercept's
                indptr, indices, data = rows[b]
                for p in range(indptr[i], indptr[i + 1]):
                    j = np.uintp(indices[p])
                    xj = data[p]
                    Sj = S_diag[j]
                    W[j, label] += alpha * (Sj * xj)  # mu_y += alpha (Sigma x)_j
                    W[j, s] -= alpha * (Sj * xj)  # mu_s -= alpha (Sigma x)_j
                    if factor > 0.0:
                        U[j, label] += factor * (alpha * (Sj * xj))
                        U[j, s] -= factor * (alpha * (Sj * xj))
                    S_diag[j] = diagonal_after(Sj, xj, c_x, beta_x, diag_form)
    return n_updates


def cw_epoch(
    rows,
    y,
    order,
    W,
    S_diag,
    A_full,
    rule,
    alpha_out,
    beta_out,
    mistake_out,
    weights=None,
    U=None,
    avg=None,
) -> int:
    """Run one pass over the rows ``order``, updating ``W`` and the covariance in place.

    Parameters
    ----------
    rows : X's rows as CSR blocks, the intercept column included (``kernels.sparse.csr_rows``).
    y : (n,) int64 class indices.  order : (T,) rows.
    W : (D, K) means.  S_diag : (D,) or (0,).  A_full : (D, D) or (0, 0).
    rule : ``(code, phi, r, C, lam, diag_form)``: the rule code, its hyper-parameters (unused
        ones ignored) and the diagonal form (DIAG_PRECISION or DIAG_TRUNCATED).
    alpha_out, beta_out : (T,) arrays receiving each step's alpha and beta, or empty.
    mistake_out : (T,) bool, the prediction before each step was wrong, or empty.
    weights : (n,) float64 example weights (>= 0) by row, or None (every weight 1).
    U, avg : the averaging sum of the means (D, K) and counters ``[t, n_avg, start]``
        (int64), updated in place; None without averaging.

    Returns
    -------
    The number of aggressive steps.

    The compiled pass is chosen here, so a fit compiles only what it runs: the covariance's own
    code, and the two-class pass only for two classes.
    """
    rule = kernel_rule(rule)
    D, K = W.shape
    full = A_full.shape[0] > 0
    if not full and U is None and K == 2 and use_mirrored_path(rows, order, W):
        Z = np.column_stack((W[:, 0], S_diag))  # C-ordered (D, 2)
        return _mirrored_diagonal_pass(
            rows, y, order, W, S_diag, Z, rule, alpha_out, beta_out, mistake_out, weights
        )
    n = D if full else 0  # the full covariance's w and g
    work = (np.empty(K), np.empty(K), np.zeros(n), np.zeros(n))
    return _general_pass(
        rows, y, order, W, S_diag, A_full if full else None, rule, alpha_out, beta_out,
        mistake_out, work, weights, U, avg,
    )  # fmt: skip
