"""The trace of one confidence-weighted step (:class:`CWTrace`) and how it is recorded."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from olearn.core._cw_state import TRACE_FULL_MAX, delta_stats
from olearn.core.cw_geometry import Ellipse, covariance_ellipse
from olearn.trace import frozen_array

# A probability constraint counts as holding up to this slack (floating point only).
PROB_TOL = 1e-9


@dataclass(frozen=True, slots=True)
class CWTrace:
    """One step of CW / AROW / SCW (binary or multiclass).

    Attributes
    ----------
    rule : "CW", "CW-variance", "AROW", "SCW-I", "SCW-II", "NHERD" or "NAROW".
    eta, phi : confidence and ``Phi^{-1}(eta)`` (NaN for the hinge rules AROW, NHERD,
        NAROW);  r, C : (NaN when unused; NAROW's r is its adaptive r_t).
    kl_weight : lam, the weight of the covariance part of the KL (1 binary; see module doc).
    covariance : "diagonal" or "full";  diagonal_form : "precision" or "truncated".
    multiclass : one row per class;  y : label (+-1 binary, class index multiclass).
    rival : best wrong class (multiclass; -1 binary).
    scores_before, scores_after : ``mu.x`` (binary: one value) or ``mu_k.x`` per class.
    m, v : margin and its variance along Delta before the step (``v = 2 x'Sigma x`` multiclass).
    x_Sigma_x : ``x' Sigma x``.  loss : the rule's loss before (hinge for the hinge rules, else
        ``max(0, phi sqrt(v) - m)``; ``max(0, phi v - m)`` for the variance version).
    psi, zeta : ``lam + phi^2/2`` and ``lam + phi^2`` (exact-CW family; NaN otherwise).
    n : SCW-II's ``v + 1/(2C)`` (NaN otherwise).
    alpha_unclipped : exact CW's alpha (SCW-I before the cap; NaN for other rules).
    alpha : mean step (``mu += alpha Sigma Delta``);  cap_binds : SCW-I's ``alpha == C``.
    beta : ``c / (1 + c v)``, the paper's beta (``Sigma -= beta Sigma Delta Delta' Sigma``).
    c : precision increment along Delta;  sigma_factor : the factor applied to
        ``Sigma x x' Sigma`` (``kappa beta``, kappa = 2 multiclass).
    sqrt_u, u : the std and variance of the margin after the step as the closed form
        predicts (the SCW paper's u).
    mu_before, mu_after, Sigma_before, Sigma_after : the state (diagonal, or full up to
        ``TRACE_FULL_MAX`` features; beyond that the full matrices' diagonals).
    m_after, v_after : recomputed from the new state.
    prob_after : ``Phi(m_after / sqrt(v_after))``, the probability that a weight drawn from the
        new Gaussian classifies x right (against the rival, in multiclass).
    constraint_holds : ``prob_after >= eta`` (None for the hinge rules, which have no eta).
    ellipse_before, ellipse_after : ellipses of Sigma over features (0, 1), None if d < 2.
    reason : "aggressive", "passive: loss is zero", or passive because ``v < TINY_VARIANCE``.
    """

    rule: str
    eta: float
    phi: float
    r: float
    C: float
    kl_weight: float
    covariance: str
    diagonal_form: str
    multiclass: bool
    y: int
    rival: int
    scores_before: np.ndarray
    m: float
    v: float
    x_Sigma_x: float
    loss: float
    psi: float
    zeta: float
    n: float
    alpha_unclipped: float
    alpha: float
    cap_binds: bool
    beta: float
    c: float
    sigma_factor: float
    sqrt_u: float
    u: float
    mu_before: np.ndarray
    mu_after: np.ndarray
    Sigma_before: np.ndarray
    Sigma_after: np.ndarray
    scores_after: np.ndarray
    m_after: float
    v_after: float
    prob_after: float
    constraint_holds: bool | None
    ellipse_before: Ellipse | None
    ellipse_after: Ellipse | None
    reason: str


@dataclass(frozen=True)
class StepSetup:
    """The step's inputs as the rule sees them (before it decides anything)."""

    rule: str
    eta: float
    phi: float
    r: float
    C: float
    lam: float
    diagonal_form: str
    multiclass: bool
    y: int


@dataclass
class StepSolution:
    """What the rule decided: loss, closed-form quantities and the step sizes."""

    loss: float = 0.0
    psi: float = math.nan
    zeta: float = math.nan
    n: float = math.nan
    alpha_unclipped: float = math.nan
    alpha: float = 0.0
    cap_binds: bool = False
    beta: float = 0.0
    c: float = 0.0
    sigma_factor: float = 0.0
    sqrt_u: float = 0.0
    reason: str = "aggressive"


def _for_trace(Sigma) -> np.ndarray:
    Sigma = np.asarray(Sigma, dtype=float)
    if Sigma.ndim == 2 and Sigma.shape[0] > TRACE_FULL_MAX:
        return frozen_array(np.diag(Sigma))
    return frozen_array(Sigma)


def record(setup: StepSetup, before, sol: StepSolution, stats, after, x) -> CWTrace:
    """The trace of one step from ``before`` (the input state) to ``after`` = (mu, Sigma,
    factor); ``stats`` are the :class:`~olearn.core._cw_state.DeltaStats` before the step."""
    mu, Sigma, factor = after
    y, multiclass = setup.y, setup.multiclass
    new = delta_stats(mu, Sigma, factor, x, y, multiclass)
    m_after = new.m
    if multiclass:  # the margin against the *same* rival the step used
        m_after = float(new.scores[y] - new.scores[stats.rival])
    v_after = new.v
    prob_after = float(ndtr(m_after / math.sqrt(v_after))) if v_after > 0 else float(m_after > 0)
    no_eta = math.isnan(setup.eta)  # the hinge rules: no probability constraint
    holds = None if no_eta else bool(prob_after >= setup.eta - PROB_TOL)
    d = mu.shape[-1]
    center_before = np.asarray(before[0], dtype=float)
    center_before = center_before[y] if multiclass else center_before
    center_after = mu[y] if multiclass else mu
    return CWTrace(
        rule=setup.rule,
        eta=float(setup.eta),
        phi=float(setup.phi),
        r=float(setup.r),
        C=float(setup.C),
        kl_weight=setup.lam,
        covariance="full" if Sigma.ndim == 2 else "diagonal",
        diagonal_form=setup.diagonal_form,
        multiclass=multiclass,
        y=y,
        rival=stats.rival,
        scores_before=frozen_array(stats.scores),
        m=stats.m,
        v=stats.v,
        x_Sigma_x=stats.x_Sigma_x,
        loss=sol.loss,
        psi=sol.psi,
        zeta=sol.zeta,
        n=sol.n,
        alpha_unclipped=sol.alpha_unclipped,
        alpha=float(sol.alpha),
        cap_binds=sol.cap_binds,
        beta=float(sol.beta),
        c=float(sol.c),
        sigma_factor=float(sol.sigma_factor),
        sqrt_u=float(sol.sqrt_u),
        u=float(sol.sqrt_u) ** 2,
        mu_before=frozen_array(before[0]),
        mu_after=frozen_array(mu),
        Sigma_before=_for_trace(before[1]),
        Sigma_after=_for_trace(Sigma),
        scores_after=frozen_array(new.scores),
        m_after=float(m_after),
        v_after=float(v_after),
        prob_after=prob_after,
        constraint_holds=holds,
        ellipse_before=covariance_ellipse(before[1], center_before[:2]) if d >= 2 else None,
        ellipse_after=covariance_ellipse(Sigma, center_after[:2]) if d >= 2 else None,
        reason=sol.reason,
    )
