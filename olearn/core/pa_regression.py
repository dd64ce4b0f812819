"""Passive-Aggressive regression (PA, PA-I, PA-II) with the epsilon-insensitive loss.

Reference
---------
K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz, Y. Singer, "Online Passive-Aggressive
Algorithms", JMLR 7:551-585, 2006, section 4 (regression) and Eqs. (3)-(7) for the three
variants; seed 001 cites PA (for classification; the paper defines both).

The prediction is ``w.x``; the loss ``l = max(0, |y - w.x| - epsilon)`` is zero inside the
tube ``[w.x - epsilon, w.x + epsilon]`` around it.  One step solves::

    min_w  1/2 ||w - w_old||^2   [+ C xi  (PA-I)  |  + C xi^2  (PA-II)]
    s.t.   |y - w.x| <= epsilon [+ xi]

With ``l > 0`` only the side the target lies on binds, ``s = sign(y - w_old.x)``:
``s (y - w.x) <= epsilon + xi``.  Stationarity gives ``w = w_old + s tau x`` (tau the
constraint's multiplier), so the residual's magnitude falls by ``tau ||x||^2``; then

- PA:    the constraint is tight, ``l - tau ||x||^2 = 0``:  ``tau = l / ||x||^2``;
- PA-I:  d/dxi: ``C - tau - mu = 0`` (mu >= 0 for xi >= 0), so ``tau <= C``:
  ``tau = min(C, l / ||x||^2)``;
- PA-II: d/dxi: ``2 C xi = tau``, and tight: ``l - tau ||x||^2 = xi``:
  ``tau = l / (||x||^2 + 1/(2C))``.

(The paper's Eq. (7) and scikit-learn's ``PassiveAggressiveRegressor`` print the same forms;
``tests/test_pa_regression_qp.py`` checks them against a generic QP solver.)

Weights (``sample_weight``, as the classifiers': :mod:`olearn.core.pa`, *Weights*): an example
of weight ``s > 0`` prices its slack ``C_i = s C`` (PA-I / PA-II); hard PA has no price and
takes any ``s > 0`` as the constraint's presence; ``s = 0`` is passive (the example is absent).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from olearn.core._common import TINY_SQNORM, check_C, check_weight
from olearn.core._pa_regression_forms import tau_eps_pa, tau_eps_pa1, tau_eps_pa2
from olearn.core.pa import check_variant

__all__ = ["PARegressionTrace", "check_epsilon", "pa_regression_step"]


def check_epsilon(epsilon: float) -> float:
    """``float(epsilon)``; a ValueError unless it is finite and >= 0 (the tube's half-width)."""
    epsilon = float(epsilon)
    if not (epsilon >= 0.0 and math.isfinite(epsilon)):
        raise ValueError(f"epsilon must be a finite number >= 0, got {epsilon}")
    return epsilon


@dataclass(frozen=True, slots=True)
class PARegressionTrace:
    """One PA / PA-I / PA-II regression step.

    Attributes
    ----------
    variant : None, "I" or "II";  C : the slack price ``C_i = s C`` (unused by hard PA).
    epsilon : the tube's half-width.
    target : y.  prediction : ``w.x`` before the step.
    tube : ``(w.x - epsilon, w.x + epsilon)``: the targets the step leaves alone.
    residual : ``y - w.x``;  sign : ``s = sign(residual)`` (0 when passive).
    loss : ``max(0, |y - w.x| - epsilon)``.
    sqnorm : ``||x||^2``.
    tau_unclipped : ``l / ||x||^2``, the hard-PA step.
    tau : the step taken (``w += s tau x``);  cap_binds : PA-I only, ``tau == C < l/||x||^2``.
    xi : the slack at the optimum (PA-I: ``l - tau ||x||^2``; PA-II: ``tau / (2C)``).
    prediction_after : ``w_new.x``: on the tube's edge ``y -+ epsilon`` after a hard step.
    reason : "aggressive", or why the step was passive.
    """

    variant: str | None
    C: float
    epsilon: float
    target: float
    prediction: float
    tube: tuple[float, float]
    residual: float
    sign: float
    loss: float
    sqnorm: float
    tau_unclipped: float
    tau: float
    cap_binds: bool
    xi: float
    prediction_after: float
    reason: str


def _check(w, x, y) -> tuple[np.ndarray, np.ndarray, float]:
    w = np.array(w, dtype=float, copy=True)
    x = np.asarray(x, dtype=float)
    if w.ndim != 1 or x.shape != w.shape:
        raise ValueError(f"w and x must be vectors of one length, got {w.shape} and {x.shape}")
    y = float(y)
    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(x)) and math.isfinite(y)):
        raise ValueError("w, x and y must be finite (no NaN or inf)")
    return w, x, y


def pa_regression_step(
    w: np.ndarray,
    x: np.ndarray,
    y: float,
    variant: str | None = None,
    C: float = 1.0,
    epsilon: float = 0.1,
    *,
    weight: float = 1.0,
) -> tuple[np.ndarray, PARegressionTrace]:
    """One PA, PA-I or PA-II regression step.

    Parameters
    ----------
    w : (d,) weights.  x : (d,) example.  y : its target (a finite number).
    variant : None (PA), "I" (PA-I, ``+ C xi``) or "II" (PA-II, ``+ C xi^2``).
    C : slack price, > 0 (ignored by hard PA).  epsilon : the tube's half-width, >= 0.
    weight : the example's weight s >= 0: PA-I / PA-II use ``C_i = s C``; hard PA steps alike
        for every s > 0; s = 0 is passive (module docstring, *Weights*).

    Returns
    -------
    (w_new, trace) with ``w`` untouched.

    >>> import numpy as np
    >>> w1, t = pa_regression_step(np.zeros(2), np.array([1.0, 1.0]), 3.0, epsilon=0.5)
    >>> t.loss, t.tau, w1.tolist(), t.prediction_after   # onto the tube's lower edge
    (2.5, 1.25, [1.25, 1.25], 2.5)
    >>> pa_regression_step(w1, np.array([1.0, 1.0]), 2.8, epsilon=0.5)[1].reason
    'passive: the target is inside the tube'
    """
    w, x, y = _check(w, x, y)
    variant = check_variant(variant)
    epsilon = check_epsilon(epsilon)
    weight = check_weight(weight)
    C = check_C(C) * (weight if weight > 0.0 else 1.0)  # C_i = s C (Weights)
    prediction = float(w @ x)
    sqnorm = float(x @ x)
    residual = y - prediction
    loss = max(0.0, abs(residual) - epsilon)  # the epsilon-insensitive loss
    tau = tau_unclipped = xi = sign = 0.0
    cap_binds = False
    if weight == 0.0:
        reason = "passive: weight 0 (the example is absent)"
    elif loss <= 0.0:
        reason = "passive: the target is inside the tube"
    elif sqnorm < TINY_SQNORM:
        reason = "passive: x is (numerically) the zero vector; no step can change w.x"
    else:
        reason = "aggressive"
        sign = 1.0 if residual > 0.0 else -1.0  # the side of the tube the target lies on
        tau_unclipped = tau_eps_pa(loss, sqnorm)
        if variant is None:
            tau = tau_unclipped  # tight: l - tau ||x||^2 = 0
        elif variant == "I":
            tau = tau_eps_pa1(loss, sqnorm, C)  # tau <= C
            cap_binds = tau_unclipped > C
            xi = loss - tau * sqnorm  # the slack left when the cap binds, else 0
        else:
            tau = tau_eps_pa2(loss, sqnorm, C)
            xi = tau / (2.0 * C)  # d/dxi [C xi^2 - tau xi] = 0
        w += (sign * tau) * x  # stationarity: w = w_old + s tau x
    return w, PARegressionTrace(
        variant=variant,
        C=C,
        epsilon=epsilon,
        target=y,
        prediction=prediction,
        tube=(prediction - epsilon, prediction + epsilon),
        residual=residual,
        sign=sign,
        loss=loss,
        sqnorm=sqnorm,
        tau_unclipped=tau_unclipped,
        tau=tau,
        cap_binds=bool(cap_binds),
        xi=max(0.0, xi),
        prediction_after=float(w @ x),
        reason=reason,
    )
