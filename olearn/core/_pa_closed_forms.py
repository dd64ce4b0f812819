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
def spa2_test(k: int, S: float, sqnorm: float, h: float) -> float:
    """SPA-II (derived), ``h = 1/2C``: ``Q_k > (n + h) S / (k n + (k-1) h)``."""
    return (sqnorm + h) * S / (k * sqnorm + (k - 1) * h)


@jit
def cap_test(k: int, S: float, C: float) -> float:
    """SPA-I when the cap binds (derived): ``Q_k > (S - C) / (k - 1)``; the first is in."""
    if k == 1:
        return -math.inf
    return (S - C) / (k - 1)


# --- SPA: the step of a support class, without cancellation ----------------------------------


@jit
def support_tau(Q_u: float, J: int, S: float, a: float) -> float:
    """``tau_u = Q_u - a S / (1 + a J)`` as ``(Q_u + a (J Q_u - S)) / (1 + a J)``.

    Hard SPA: a = 1 (Eq. 11); SPA-II: a = 1 + 1/(2 C n).  Equal in exact arithmetic, this
    form keeps full precision when theta is close to ``Q_u`` (e.g. SPA-II with 1/2C >> n).
    """
    excess = J * Q_u - S  # sum over the support of (Q_u - Q_v)
    return (Q_u + a * excess) / (1.0 + a * J)


@jit
def capped_tau(Q_u: float, J: int, S: float, C: float) -> float:
    """SPA-I, cap binding: ``tau_u = Q_u - (S - C) / J`` as ``(J Q_u - S + C) / J``."""
    return (J * Q_u - S + C) / J
