"""Closed-form steps of PA regression (epsilon-insensitive loss), on scalars.

One source of truth for the readable rule (:mod:`olearn.core.pa_regression`), the numba
kernel (:mod:`olearn.kernels.pa_regression`) and River's per-sample path
(:mod:`olearn.river_regressor`, which calls the plain Python functions, ``py_func``), so the
three agree to the last bit.  Derivations are in the rule's module docstring; each form is
checked against a generic QP solver in ``tests/test_pa_regression_qp.py``.

Unlike the multiclass PA (:mod:`olearn.core._pa_closed_forms`), one vector moves, so the
prediction moves by ``tau ||x||^2``, not ``2 tau ||x||^2``.

>>> tau_eps_pa(2.0, 4.0), tau_eps_pa1(2.0, 4.0, 0.1), tau_eps_pa2(2.0, 1.5, 1.0)
(0.5, 0.1, 1.0)
"""

from __future__ import annotations

from olearn._jit import jit


@jit
def tau_eps_pa(loss: float, sqnorm: float) -> float:
    """PA: the smallest step that puts the target on the tube's edge: ``l / ||x||^2``."""
    return loss / sqnorm


@jit
def tau_eps_pa1(loss: float, sqnorm: float, C: float) -> float:
    """PA-I: the PA step clipped at ``C`` (the slack's price)."""
    return min(C, loss / sqnorm)


@jit
def tau_eps_pa2(loss: float, sqnorm: float, C: float) -> float:
    """PA-II: ``l / (||x||^2 + 1/(2C))``."""
    return loss / (sqnorm + 0.5 / C)
