"""Closed-form steps and support tests of the PA and SPA families, on scalars.

One source of truth for the readable rules (:mod:`olearn.core.pa`, :mod:`olearn.core.spa`)
and the numba kernels (:mod:`olearn.kernels.pa`, :mod:`olearn.kernels.spa`), which call these
same compiled functions, so rule and kernel agree to the last bit (the strategy of
:mod:`olearn.core._cw_closed_forms`).  Derivations are in the rules' module docstrings; every
form is checked against a generic QP solver in ``tests/test_pa_spa_qp.py``.

numba's on-disk cache does not notice edits to a callee in another file (numba issue #1833):
after editing a form here, touch the kernel files (or clear their ``__pycache__``).

>>> tau_pa1(3.0, 1.0, 1.0), tau_pa2(3.0, 1.0, 0.25)
(1.0, 0.75)
>>> cap_test(1, 0.0, 1.0) == -math.inf
True
"""

from __future__ import annotations

import math

from olearn._jit import jit

# --- PA: one constraint against the rival -------------------------------------------------


@jit
def tau_pa(loss: float, sqnorm: float) -> float:
    """PA: the smallest step that makes the margin 1: ``l / (2||x||^2)``."""
    return loss / (2.0 * sqnorm)


@jit
def tau_pa1(loss: float, sqnorm: float, C: float) -> float:
    """PA-I: the PA step clipped at ``C`` (the slack's price)."""
    return min(C, loss / (2.0 * sqnorm))


@jit
def tau_pa2(loss: float, sqnorm: float, C: float) -> float:
    """PA-II: ``l / (2||x||^2 + 1/(2C))``."""
    return loss / (2.0 * sqnorm + 0.5 / C)


# --- SPA: the support-class tests (what Q_k must exceed, given S = sum_{j<k} Q_j) ----------


@jit
def hard_test(k: int, S: float) -> float:
    """Eq. (8): class k is a support class iff ``Q_k > sum_{j<k} Q_j / k``."""
    return S / k


@jit
def spa2_b(sqnorm: float, C: float) -> float:
    """SPA-II's ``b = 1/a = n / (n + 1/2C)`` in [0, 1) (hard SPA's is 1).

    ``a = 1 + 1/(2 C n)`` itself overflows when ``C n`` underflows (C = 1e-300 with
    ``n = ||x||^2 = 1e-10`` is inside C's range), and ``a / a`` then gave NaN steps; b tends
    to 0 there, the limit C -> 0 where the step vanishes.

    >>> spa2_b(1.0, 0.5), spa2_b(1e-10, 1e-300)
    (0.5, 0.0)
    """
    return sqnorm / (sqnorm + 0.5 / C)


@jit
def spa2_test(k: int, S: float, b: float) -> float:
    """SPA-II (derived), ``h = 1/2C``: ``Q_k > (n + h) S / (k n + (k-1) h)``, computed with
    numerator and denominator divided by ``n + h`` as ``S / (k - 1 + b)`` (``b =
    n / (n + h)``, :func:`spa2_b`; finite for every C > 0); the first class is always in."""
    if k == 1:
        return 0.0
    return S / (k - 1.0 + b)


@jit
def cap_test(k: int, S: float, C: float) -> float:
    """SPA-I when the cap binds (derived): ``Q_k > (S - C) / (k - 1)``; the first is in."""
    if k == 1:
        return -math.inf
    return (S - C) / (k - 1)


# --- SPA: the step of a support class, without cancellation ----------------------------------


@jit
def support_tau(Q_u: float, J: int, S: float, b: float) -> float:
    """``tau_u = Q_u - a S / (1 + a J)`` as ``(b Q_u + (J Q_u - S)) / (b + J)``, ``b = 1/a``.

    Hard SPA: a = b = 1 (Eq. 11); SPA-II: a = 1 + 1/(2 C n), b = :func:`spa2_b`.  Equal in
    exact arithmetic, this form keeps full precision when theta is close to ``Q_u`` (e.g.
    SPA-II with 1/2C >> n), and stays finite when a overflows (b = 0: tau = Q_u - S / J).
    """
    excess = J * Q_u - S  # sum over the support of (Q_u - Q_v)
    return (b * Q_u + excess) / (b + J)


@jit
def capped_tau(Q_u: float, J: int, S: float, C: float) -> float:
    """SPA-I, cap binding: ``tau_u = Q_u - (S - C) / J`` as ``(J Q_u - S + C) / J``."""
    return (J * Q_u - S + C) / J
