"""Multiclass Perceptron and Passive-Aggressive (PA, PA-I, PA-II), one constraint per step.

References
----------
- F. Rosenblatt, "The perceptron", Psychological Review 65(6), 1958 (multiclass form:
  on a mistake ``w_y += x``, ``w_r -= x`` with ``r`` the highest-scoring wrong class).
- K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz, Y. Singer, "Online Passive-Aggressive
  Algorithms", JMLR 7:551-585, 2006.  Restated in seed 000 (Matsushima et al.), section 2.2.

The single-constraint problem (seed 000, Eq. 3) for the rival ``s = argmax_{u != y} w_u.x``::

    min_W  1/2 sum_v ||w_v - w_v_old||^2   [+ C xi  (PA-I)  |  + C xi^2  (PA-II)]
    s.t.   (w_y - w_s).x >= 1 [- xi]

Stationarity gives ``w_y += tau x`` and ``w_s -= tau x``, so the margin grows by
``2 tau ||x||^2`` and, with loss ``l = max(0, 1 - (w_y - w_s).x)``:

- PA:    tau = l / (2||x||^2)                     (seed Eq. after (3), correct)
- PA-I:  tau = min(C, l / (2||x||^2))             (d/dxi: C - tau - mu = 0, so tau <= C)
- PA-II: tau = l / (2||x||^2 + 1/(2C))            (d/dxi: 2C xi = tau; then margin = 1 - xi)

Misprint, or rather another scaling of C: the seed prints ``min(C/2, l/(2||x||^2))`` and
``(1/2) l / (||x||^2 + 1/(2C))``, which are our PA-I and PA-II with ``C_seed = 2 C``.
:func:`seed_tau` evaluates the printed forms so the app can show them side by side.

Weights (ours; ``sample_weight`` / ``class_weight`` of the estimators)
-----------------------------------------------------------------------
An example of weight ``s >= 0`` enters its problem through the slack's price, ``C_i = s C``
(the weighted objective ``sum_i s_i C xi_i`` of the batch problem, one term per step):

- PA-I:  ``tau = min(s C, l / (2||x||^2))``;  PA-II: ``tau = l / (2||x||^2 + 1/(2 s C))``
  (checked against a QP solver on the weighted problem in ``tests/test_sample_weight_rules.py``).
- hard PA: the constraint has no price to scale.  Any ``s > 0`` imposes it and ``s = 0``
  drops it: the limit ``C -> inf`` of weighted PA-I (``s C -> inf`` for every ``s > 0``), and
  what "weight k = the example k times in a row" gives for two classes and for SPA (after
  the first step the margins are 1, so the k-1 repeats are passive; a multiclass PA step can
  leave a new rival, which a repeat would then push: we keep the one step, the weight being
  the constraint's presence).  A weight in (0, 1) does not shorten the step (a fraction of a
  hard constraint has no meaning); PA-I / PA-II let weights grade the step.
- Perceptron: the stochastic gradient step, unit rate, of the weighted perceptron criterion
  ``s max(0, w_r.x - w_y.x)``: ``w_y += s x``, ``w_r -= s x`` (on a mistake, ties included).
- ``s = 0``: the step is passive: the example is absent.

``weight_scales="step"`` (scikit-learn's weighted PA): the weight scales the unweighted step
instead of the price, ``tau_i = s tau(l, ||x||^2, C)``, as scikit-learn's ``_plain_sgd``
multiplies its PA-I / PA-II update by ``class_weight * sample_weight`` after the closed form
(its ``update = min(C, l / ||x||^2)``, then ``update *= class_weight * sample_weight``).  This
is not the optimum of a weighted problem (PA-I's step may exceed ``s C``, or ``C``), but it
gives hard PA a use for weights, and for two classes (with ``C_sklearn = 2 C``) it is
scikit-learn's binary step bit for bit (the factor of 2 is exact).  The Perceptron's weighted
step is already ``+-s x``: both meanings coincide there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from olearn.core._common import (
    MARGIN_TOL,
    TINY_SQNORM,
    best_rival,
    check_C,
    check_state,
    check_weight,
    check_weight_scales,
    is_correct,
    margins_of,
)
from olearn.core._pa_closed_forms import tau_pa, tau_pa1, tau_pa2
from olearn.trace import frozen_array

__all__ = [
    "PA_VARIANTS",
    "PATrace",
    "PerceptronTrace",
    "check_variant",
    "pa_step",
    "perceptron_step",
    "seed_tau",
    "tau_pa",
    "tau_pa1",
    "tau_pa2",
]

PA_VARIANTS = (None, "I", "II")


def check_variant(variant: str | None) -> str | None:
    """Normalise a PA/SPA variant name: ``None`` (hard), ``"I"`` or ``"II"``."""
    if variant in (None, "", "hard"):
        return None
    v = str(variant).upper()
    if v in ("I", "1"):
        return "I"
    if v in ("II", "2"):
        return "II"
    raise ValueError(f"variant must be None, 'I' or 'II', got {variant!r}")


def seed_tau(loss: float, sqnorm: float, variant: str | None, C: float) -> float:
    """The step size as printed in seed 000 section 2.2 (C scaled differently)."""
    if variant is None:
        return loss / (2.0 * sqnorm)
    if variant == "I":
        return min(C / 2.0, loss / (2.0 * sqnorm))
    return 0.5 * loss / (sqnorm + 0.5 / C)


# --- traces -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PerceptronTrace:
    """One multiclass Perceptron step.

    Attributes
    ----------
    scores_before, scores_after : (K,) class scores ``w_u.x`` before and after.
    rival : the highest-scoring wrong class.
    mistake : True when ``s_rival >= s_y`` (ties count as mistakes, so learning starts
        from all-zero weights).
    correct_after : whether ``y`` now scores strictly highest.
    """

    scores_before: np.ndarray
    rival: int
    mistake: bool
    scores_after: np.ndarray
    correct_after: bool


@dataclass(frozen=True, slots=True)
class PATrace:
    """One multiclass PA / PA-I / PA-II step (single constraint against the rival).

    Attributes
    ----------
    variant : None, "I" or "II";  C : the slack price (unused by hard PA).
    scores_before : (K,) scores before the step.
    rival : ``argmax_{u != y} s_u`` (lowest index on ties).
    margin : ``s_y - s_rival`` before;  loss : ``max(0, 1 - margin)``.
    sqnorm : ``||x||^2``.
    tau_unclipped : ``l / (2||x||^2)``, the hard-PA step.
    tau : the step taken (``s tau`` with ``weight_scales="step"``).
    cap_binds : PA-I only, True when the unweighted step is ``C < tau_unclipped``.
    xi : the slack at the optimum (PA-I: ``l - 2 tau ||x||^2``; PA-II: ``tau / (2C)``).
    seed_tau : the step the seed's printed formula gives for the same C.
    scores_after, margins_after : after the step (margins NaN at y).
    correct_after : y now scores strictly highest.
    margin_satisfied : every wrong class now has margin >= 1 (the failure SPA fixes is
        ``margin_satisfied`` False or even ``correct_after`` False after an aggressive step).
    reason : "aggressive", "passive: loss is zero" or "passive: x is the zero vector".
    """

    variant: str | None
    C: float
    scores_before: np.ndarray
    rival: int
    margin: float
    loss: float
    sqnorm: float
    tau_unclipped: float
    tau: float
    cap_binds: bool
    xi: float
    seed_tau: float
    scores_after: np.ndarray
    margins_after: np.ndarray
    correct_after: bool
    margin_satisfied: bool
    reason: str


# --- rules ------------------------------------------------------------------------------


def perceptron_step(
    W: np.ndarray, x: np.ndarray, y: int, weight: float = 1.0
) -> tuple[np.ndarray, PerceptronTrace]:
    """Multiclass Perceptron: on a mistake ``w_y += x`` and ``w_rival -= x``.

    Parameters
    ----------
    W : (K, d) weights, one row per class.  x : (d,) example.  y : its class index.
    weight : the example's weight s >= 0: the step is ``+-s x`` (module docstring, *Weights*).

    Returns
    -------
    (W_new, trace) with ``W`` untouched.

    >>> import numpy as np
    >>> W1, t = perceptron_step(np.zeros((3, 2)), np.array([1.0, 2.0]), 2)
    >>> W1
    array([[-1., -2.],
           [ 0.,  0.],
           [ 1.,  2.]])
    >>> t.mistake, t.rival
    (True, 0)
    """
    W, x, y = check_state(W, x, y)
    weight = check_weight(weight)
    scores = W @ x
    rival = best_rival(scores, y)
    mistake = bool(scores[rival] >= scores[y])
    if mistake and weight > 0.0:
        W[y] += weight * x  # the weighted criterion's gradient step (s = 1: w_y += x)
        W[rival] -= weight * x
    after = W @ x
    return W, PerceptronTrace(
        scores_before=frozen_array(scores),
        rival=rival,
        mistake=mistake,
        scores_after=frozen_array(after),
        correct_after=is_correct(after, y),
    )


def pa_step(
    W: np.ndarray,
    x: np.ndarray,
    y: int,
    variant: str | None = None,
    C: float = 1.0,
    *,
    mistakes_only: bool = False,
    weight: float = 1.0,
    weight_scales: str = "C",
) -> tuple[np.ndarray, PATrace]:
    """One multiclass PA, PA-I or PA-II step against the highest-scoring wrong class.

    Parameters
    ----------
    W : (K, d) weights.  x : (d,) example.  y : class index.
    variant : None (PA), "I" (PA-I, ``+ C xi``) or "II" (PA-II, ``+ C xi^2``).
    C : slack price, > 0 (ignored by hard PA).
    mistakes_only : a diagnostic, not the paper's PA: take the rival as the argmax over *all*
        classes (true one included, ties against y counting as mistakes, as the Perceptron),
        so the step is made only on a mistake, never on a correct prediction with margin < 1.
        It tests a conjecture about Table 4 of seed 000 (there Perceptron ~ PA, as if PA
        updated on mistakes only); see the Reproduce page.
    weight : the example's weight s >= 0: PA-I / PA-II use ``C_i = s C`` (the trace's C);
        hard PA steps alike for every s > 0; s = 0 is passive (module docstring, *Weights*).
    weight_scales : "C" (default: the price ``C_i = s C``) or "step" (the step taken is
        ``s tau``, with ``tau`` the unweighted step: scikit-learn's weighted PA).

    Returns
    -------
    (W_new, trace).

    >>> import numpy as np
    >>> W = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 0.0]])
    >>> W1, t = pa_step(W, np.array([1.0, 0.0]), 0)
    >>> t.rival, t.loss, t.tau, t.correct_after   # still loses to class 2: the SPA motivation
    (1, 3.0, 1.5, False)
    """
    W, x, y = check_state(W, x, y)
    variant = check_variant(variant)
    weight = check_weight(weight)
    scales_step = check_weight_scales(weight_scales) == "step"
    C = check_C(C) * (weight if weight > 0.0 and not scales_step else 1.0)  # C_i = s C
    scores = W @ x
    sqnorm = float(x @ x)
    rival = best_rival(scores, y)
    margin = float(scores[y] - scores[rival])
    loss = max(0.0, 1.0 - margin)  # hinge loss against the rival
    tau = tau_unclipped = xi = 0.0
    cap_binds = False
    if weight == 0.0:
        reason = "passive: weight 0 (the example is absent)"
    elif loss <= 0.0:
        reason = "passive: loss is zero"
    elif mistakes_only and scores[rival] < scores[y]:
        reason = "passive: no mistake (the mistakes-only diagnostic)"
    elif sqnorm < TINY_SQNORM:
        reason = "passive: x is (numerically) the zero vector; no step can change a score"
    else:
        reason = "aggressive"
        tau_unclipped = tau_pa(loss, sqnorm)
        if variant is None:
            tau = tau_unclipped
        elif variant == "I":
            tau = tau_pa1(loss, sqnorm, C)
            cap_binds = tau_unclipped > C
            xi = loss - 2.0 * tau * sqnorm  # slack left when the cap binds, else 0
        else:
            tau = tau_pa2(loss, sqnorm, C)
            xi = tau / (2.0 * C)  # d/dxi [C xi^2 - tau xi] = 0
        if scales_step:
            tau *= weight  # scikit-learn's weighted PA: update *= class_weight * sample_weight
        W[y] += tau * x  # stationarity: w_y = w_y_old + tau x
        W[rival] -= tau * x  # w_s = w_s_old - tau x
    after = W @ x
    margins_after = margins_of(after, y)
    return W, PATrace(
        variant=variant,
        C=C,
        scores_before=frozen_array(scores),
        rival=rival,
        margin=margin,
        loss=loss,
        sqnorm=sqnorm,
        tau_unclipped=tau_unclipped,
        tau=tau,
        cap_binds=bool(cap_binds),
        xi=max(0.0, xi),
        seed_tau=seed_tau(loss, sqnorm, variant, C) if reason == "aggressive" else 0.0,
        scores_after=frozen_array(after),
        margins_after=frozen_array(margins_after),
        correct_after=is_correct(after, y),
        margin_satisfied=bool(np.nanmin(margins_after) >= 1.0 - MARGIN_TOL * (1 + abs(margin))),
        reason=reason,
    )
