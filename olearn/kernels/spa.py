"""numba mirror of :mod:`olearn.core.spa`: the exact SPA / SPA-I / SPA-II coefficients.

The support tests and steps are the compiled functions of :mod:`olearn.core._pa_closed_forms`
that the readable rule calls too.

Only the classes with Q > 0 are ordered (by Q descending, ties to the lower class index, as
the readable rule's stable sort), nothing is ordered when no class has Q > 0, and the order is
built lazily: the support-class search usually stops after a few classes, so each next class
is selected only when the search reaches it (a stable partial selection sort, in place, no
allocation).  Above ``FULL_SORT_FROM`` candidates one stable merge sort (:func:`sort_all`) is
cheaper; with fewer classes than that, no step can have so many, and the sort is left out of
the compiled kernel (its workspace is None), which compiles sooner.  The step is made per rule
(:func:`spa_coefficients`), its code and whether it sorts constants, so that numba prunes the
other branches before it inlines and compiles anything.
"""

from __future__ import annotations

import functools

import numpy as np

from olearn._jit import jit
from olearn._numerics import TINY_SQNORM
from olearn.core._pa_closed_forms import (
    cap_test,
    capped_tau,
    hard_test,
    spa2_b,
    spa2_test,
    support_tau,
)
from olearn.kernels.codes import SPA1, SPA2

FULL_SORT_FROM = 32  # candidates above which a full stable sort beats lazy selection


@jit
def select_next(negq, classes, k, p):
    """Stable selection step: move the largest Q of positions ``k..p-1`` to position ``k``.

    ``negq`` holds -Q (so the largest Q is the smallest entry); the strict comparison keeps
    the first of equal entries and the shift keeps the others in order, so positions
    ``0..k`` end up exactly as a stable sort would put them.
    """
    best = k
    for m in range(k + 1, p):
        if negq[m] < negq[best]:
            best = m
    if best != k:
        q = negq[best]
        u = classes[best]
        for m in range(best, k, -1):  # shift, do not swap: swapping would break stability
            negq[m] = negq[m - 1]
            classes[m] = classes[m - 1]
        negq[k] = q
        classes[k] = u


def sort_space(n_classes: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The workspace of :func:`sort_all` for ``n_classes`` classes: float64 and int64 arrays of
    shape (2, K), or None when no step can have more than ``FULL_SORT_FROM`` candidates (K - 1
    at most): the kernels then select lazily only, and numba does not compile the sort."""
    K = int(n_classes)
    if K - 1 <= FULL_SORT_FROM:
        return None
    return np.empty((2, K)), np.empty((2, K), dtype=np.int64)


@jit
def sort_all(negq, classes, p, space):
    """Order all ``p`` candidates at once: a stable merge sort on -Q (bottom-up) in ``space``
    (:func:`sort_space`).

    Runs of ``width`` entries are merged pairwise, taking the left run's entry on ties, so equal
    entries keep their order, as the readable rule's stable sort does (with no NaN among the
    Q > 0, the stable order is unique).
    """
    q, u = space  # row ``src`` holds the runs being merged, the other row receives them
    for k in range(p):
        q[0, k] = negq[k]
        u[0, k] = classes[k]
    src = 0
    width = 1
    while width < p:
        dst = 1 - src
        for lo in range(0, p, 2 * width):
            mid = min(lo + width, p)
            hi = min(lo + 2 * width, p)
            a = lo
            b = mid
            for k in range(lo, hi):
                if a < mid and (b >= hi or q[src, a] <= q[src, b]):  # ties: the left run first
                    q[dst, k] = q[src, a]
                    u[dst, k] = u[src, a]
                    a += 1
                else:
                    q[dst, k] = q[src, b]
                    u[dst, k] = u[src, b]
                    b += 1
        src = dst
        width *= 2
    for k in range(p):
        negq[k] = q[src, k]
        classes[k] = u[src, k]


@functools.cache
def spa_coefficients(code: int, sorting: bool):
    """The compiled step of SPA rule ``code`` (SPA, SPA1 or SPA2), with the full sort if
    ``sorting`` (:func:`sort_space`): both are constants of the function, so numba drops the
    other rules' branches, and the sort when not ``sorting``, before compiling (each rule
    compiles its own search only: a shorter first ``fit``)."""

    @jit
    def coefficients(scores, y, sqnorm, C, coef, active, qbuf, space):
        """Fill ``coef`` for one SPA step of this ``code``; return the active count.

        ``active`` receives the support classes then ``y``; ``qbuf`` is (K,) scratch,
        ``space`` the full sort's (:func:`sort_space`; None when not ``sorting``).  Position
        k of (``qbuf``, ``active``) holds (-Q, class) of the k-th class in Q-descending
        order once ``ordered > k``.
        """
        if sqnorm < TINY_SQNORM:
            return 0  # x is numerically zero: passive
        K = scores.shape[0]
        p = 0
        for u in range(K):
            if u != y:
                q = (1.0 - (scores[y] - scores[u])) / sqnorm  # Q_u
                if q > 0.0:
                    qbuf[p] = -q  # negated: ascending order of qbuf is Q descending
                    active[p] = u
                    p += 1
        if p == 0:
            return 0  # loss is zero: passive
        ordered = 0
        if sorting:  # else the sort is not even compiled (K <= FULL_SORT_FROM + 1)
            if p > FULL_SORT_FROM:
                sort_all(qbuf, active, p, space)
                ordered = p
        b = spa2_b(sqnorm, C) if code == SPA2 else 1.0  # SPA-II: theta = a T, b = 1/a
        J = 0
        S = 0.0
        for k in range(1, p + 1):  # the support-class search
            if ordered < k:
                select_next(qbuf, active, k - 1, p)
                ordered = k
            q = -qbuf[k - 1]
            if code == SPA2:
                thr = spa2_test(k, S, b)  # derived SPA-II test
            else:
                thr = hard_test(k, S)  # Eq. (8)
            if not q > thr:
                break
            S += q
            J = k
        capped = False
        if code == SPA1 and S / (J + 1) > C:  # case (b): the cap sum tau <= C binds
            capped = True
            J = 0
            S = 0.0
            for k in range(1, p + 1):
                if ordered < k:
                    select_next(qbuf, active, k - 1, p)
                    ordered = k
                q = -qbuf[k - 1]
                if not q > cap_test(k, S, C):
                    break
                S += q
                J = k
        T = 0.0
        for k in range(J):
            u = active[k]
            if code == SPA1 and capped:  # the first test drops the cap for SPA, SPA-II
                tau = capped_tau(-qbuf[k], J, S, C)
            else:
                tau = support_tau(-qbuf[k], J, S, b)  # without cancellation
            coef[u] = -tau
            T += tau
        coef[y] = T  # w_y += (sum tau) x
        active[J] = y
        return J + 1

    return coefficients
