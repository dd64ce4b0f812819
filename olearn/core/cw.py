"""The confidence-weighted family: CW, AROW, SCW-I, SCW-II, NHERD, NAROW; binary and true
multiclass.

The learner keeps a Gaussian ``N(mu, Sigma)`` over the weights.  With ``m = y mu.x`` (margin),
``v = x' Sigma x`` (its variance) and ``phi = Phi^{-1}(eta)``:

- **CW, exact** (Crammer, Dredze, Pereira, "Exact Convex Confidence-Weighted Learning",
  NIPS 2008; restated in the SCW paper, Eq. 4-6): ``min KL(N || N_t)`` s.t.
  ``Pr[y w.x >= 0] >= eta``, i.e. ``m' >= phi sqrt(v')``.
- **CW, variance version** (Dredze, Crammer, Pereira, "Confidence-Weighted Linear
  Classification", ICML 2008, Eq. 7-12): the same with the variance, ``m' >= phi v'``.
- **AROW** (Crammer, Kulesza, Dredze, "Adaptive Regularization of Weight Vectors", NIPS 2009):
  ``min KL + (1/2r) max(0, 1 - m')^2 + (1/2r) v'``.
- **SCW-I / SCW-II** (Wang, Zhao, Hoi, "Exact Soft Confidence-Weighted Learning", ICML 2012):
  ``min KL + C l`` / ``+ C l^2`` with ``l = max(0, phi sqrt(v') - m')``.
- **NHERD** (Crammer, Lee, "Learning via Gaussian Herding", NIPS 2010): move every weight
  vector of the Gaussian by one affine map ``w -> A w + b`` (the new Gaussian is
  ``N(A mu + b, A Sigma A')``), trading its expected squared step against the expected
  squared loss; *NHERD* below.
- **NAROW** (Orabona, Crammer, "New Adaptive Algorithms for Online Classification", NIPS
  2010): AROW with an adaptive ``r_t`` from the margin variance; *NAROW* below.

Seed 001 (kazoo04's blog post) teaches all four.  Its printed forms against the papers:

- every problem prints ``KL(N(mu, Sigma) || N(mu, Sigma))`` (always 0) where
  ``KL(N(mu, Sigma) || N(mu_t, Sigma_t))`` belongs;
- AROW prints ``KL + lam_1 L(x, y, mu) + lam_2 L(x' Sigma x)`` but says lam_1 weighs condition 1
  (shrinking the variance) and lam_2 condition 2 (the loss): the labels are swapped; the paper
  has ``lam_1 = lam_2 = 1/(2r)`` and the squared hinge;
- its D code is binary AROW with the diagonal precision update, i.e. our
  ``arow_step(..., diagonal_form="precision")`` on a binary state (tested line for line in
  ``tests/test_cw_rules.py``); its ``loss`` return value is the 0-1 mistake, not the squared
  hinge its comment names.

Reduction to three numbers (ours)
---------------------------------
Checked against scipy.optimize in ``tests/test_cw_optimisation.py``.
Let ``Delta`` be the feature direction of the constraint (binary: ``y x``).  Stationarity of
the Lagrangian in ``mu`` gives ``mu' = mu + alpha Sigma Delta`` (so ``m' = m + alpha v``) and in
``Sigma`` gives ``inv(Sigma') = inv(Sigma) + c Delta Delta'`` (so ``v' = v / (1 + c v)``,
equivalently ``Sigma' = Sigma - beta Sigma Delta Delta' Sigma`` with ``beta = c / (1 + c v)``).
On that family the objective is ``1/2 alpha^2 v + lam/2 (log(v/v') + v'/v - 1) + penalty``,
where ``lam = 1`` in the binary case.  Writing ``s = sqrt(v')``:

- exact CW:   ``lam (v - s^2) = alpha phi v s`` (d/dv') and ``m + alpha v = phi s``.  Hence
  ``(phi^2 + lam) s^2 - m phi s - lam v = 0``, ``alpha = (phi s - m) / v``,
  ``c = alpha phi / (lam s)``, ``beta = alpha phi / (lam s + v alpha phi)``.  For lam = 1 this
  is the printed ``alpha = (-m psi + sqrt(m^2 phi^4/4 + v phi^2 zeta)) / (v zeta)``,
  ``u = s^2 = 1/4 (-alpha v phi + sqrt(alpha^2 v^2 phi^2 + 4v))^2``,
  ``beta = alpha phi / (sqrt(u) + v alpha phi)`` (psi = 1 + phi^2/2, zeta = 1 + phi^2).
- SCW-I:  the slack's multiplier caps ``alpha <= C``: ``alpha = min(C, alpha_CW)``; the
  relation between alpha and s is unchanged, so beta is exact CW's formula at that alpha.
- SCW-II: ``xi = alpha / (2C)``, so ``m + alpha n = phi s`` with ``n = v + 1/(2C)``, which
  gives ``(phi^2 v + n lam) s^2 - m phi v s - n lam v = 0`` and ``alpha = (phi s - m) / n``
  (the printed gamma form for lam = 1).  As C -> infinity, n -> v and SCW-II -> exact CW.
- CW variance version: d/dv' gives ``c = 2 alpha phi / lam`` and ``m + alpha v = phi v'``
  gives ``2 phi v alpha^2 + (lam + 2 phi m) alpha + lam (m - phi v) / v = 0``.
- AROW: d/dv' gives ``c = 1 / (lam r)``, d/dalpha gives ``alpha = max(0, 1 - m) / (v + r)``.

NHERD (ours, from the paper's herding problem)
----------------------------------------------
When the mean suffers a hinge loss (``m < 1``), NHERD moves each ``w ~ N(mu, Sigma)`` by the
affine map ``w' = A w + b`` that solves

    ``min_{A, b} E_w[ 1/2 (w' - w)' inv(Sigma) (w' - w) + C/2 (1 - w'.Delta)^2 ]``,

the paper's problem with the squared hinge bounded uniformly by the squared linear loss (so
the optimum is affine in w and the new distribution Gaussian).  Write ``M = A - I`` and
``d = M mu + b`` (the mean's move).  With ``w ~ N(mu, Sigma)`` the expectation is

    ``1/2 d' inv(Sigma) d + lam/2 tr(inv(Sigma) M Sigma M') +
    C/2 [(1 - m - d.Delta)^2 + Delta' A Sigma A' Delta]``

(lam = 1: one Gaussian; the K-row Gaussian of the multiclass case has lam = K exactly, as
for the KL above).  It separates:

- in d: ``inv(Sigma) d = C (1 - m - d.Delta) Delta``, so ``d = alpha Sigma Delta`` with
  ``alpha = C (1 - m - alpha v)``, i.e. ``alpha = (1 - m) / (v + 1/C)``: AROW's mean step
  with ``r = 1/C`` (the paper's update of mu);
- in M: ``lam inv(Sigma) M + C Delta Delta' A = 0`` gives ``M = -C / (lam + C v) Sigma Delta
  Delta'``, hence ``Sigma' = A Sigma A' = Sigma - beta Sigma Delta Delta' Sigma`` with
  ``beta = C (2 lam + C v) / (lam + C v)^2``, and ``inv(Sigma') = inv(Sigma) + c Delta Delta'``
  with ``c = beta / (1 - beta v) = C (2 lam + C v) / lam^2`` (lam = 1: the paper's
  ``(C^2 v + 2C) / (1 + C v)^2`` and ``2C + C^2 v``).

Multiclass: ``Delta = e_y (x) x - e_s (x) x`` and the map ``I_K (x) A`` (one A for every
class row, so the covariance stays shared) plus a row offset each: the same algebra with
``v = 2 x' Sigma x`` gives the same alpha and beta, and K = 2 is binary NHERD on
``mu_1 - mu_0`` (checked with the other rules in ``tests/test_cw_rules.py``).

Diagonal covariance: peers implement three diagonal versions after the paper (MochiMochi's
NHERD: *exact*, ``Sigma_j / (1 + C x_j^2 Sigma_j)^2``; *project*, the precision increment
``c x x'`` projected on the diagonal, ``1/Sigma_j += c x_j^2``; *drop*, the diagonal of the
full update).  Ours are *project* (``"precision"``, the default, as for the whole family)
and *drop* (``"truncated"``); *exact* is not implemented.  *project* is our choice of
default; the paper's text was not available here to confirm which version it recommends.
Weights: ``s C`` as for SCW.  Checked against scipy.optimize over (A, b) in
``tests/test_cw_optimisation.py``.

NAROW (ours, from the paper's update)
-------------------------------------
NAROW is AROW, ``min KL + (1/2 r_t) (max(0, 1 - m')^2 + v')``, with ``r_t = v / (b v - 1)``
when ``v > 1/b`` and no update otherwise (``r_t = inf``), b > 0 its parameter.  The AROW
closed form at ``r = r_t`` gives ``alpha = max(0, 1 - m) / (v + r_t)`` and ``c = 1 / (lam
r_t)``; with lam = 1 the variance along Delta after the step is ``v r_t / (v + r_t) =
1/b`` exactly: NAROW shrinks the variance only where it exceeds 1/b, and to 1/b, where AROW
shrinks it at every loss.  Multiclass: the Delta-level v as above.  Weights: ``r_t / s``,
as AROW's ``r / s``.  This is the form of LIBOL's ``NAROW.m`` (AROW's mean step at r_t).
AROW is ``theta += y x / r``, ``mu = Sigma theta`` on a margin error; the authors' DOGMA code
``narow_train.m`` runs ``theta += y x`` (no ``1/r_t``) with the same covariance update, so
there the mean still moves when ``r_t`` is infinite, and here it does not.  We follow the
AROW problem, whose closed form we can derive and check.  Checked against
scipy.optimize on AROW's problem at r_t, and the 1/b property, in
``tests/test_cw_optimisation.py``.

True multiclass with one shared covariance (ours)
-------------------------------------------------
Weights ``W`` (K x d), Gaussian ``N(vec M, I_K (x) Sigma)``: every class row has mean
``mu_k`` and the *same* covariance ``Sigma`` over features, rows independent.  The constraint is
against the best wrong class ``s = argmax_{k != y} mu_k.x`` (fixed before the step), through the
difference feature ``Delta = e_y (x) x - e_s (x) x``:

- ``m = (mu_y - mu_s).x`` and ``v = Delta' (I (x) Sigma) Delta = 2 x' Sigma x``.
- Stationarity in ``mu_k``: ``mu_y += alpha Sigma x``, ``mu_s -= alpha Sigma x``, other rows fixed
  (so ``m' = m + 2 alpha x'Sigma x = m + alpha v``, as in the binary case).
- Stationarity in the shared ``Sigma`` gives ``inv(Sigma') = inv(Sigma) + 2c x x'`` with the
  Delta-level c above: then ``x'Sigma' x = x'Sigma x / (1 + c v)`` and ``v' = v / (1 + c v)``.
  As a covariance update: ``Sigma' = Sigma - 2 beta Sigma x x' Sigma`` (``sigma_factor = 2 beta``).
- The covariance part of the KL is
  ``lam/2 (log det Sigma_t/det Sigma + tr(inv(Sigma_t) Sigma) - d)``.
  The exact KL of the K-row Gaussian has ``lam = K``.  Our default is ``lam = 1`` (the shared
  covariance is charged once, like one Gaussian over features) because then **K = 2 is exactly
  binary CW/AROW/SCW** on ``w = mu_1 - mu_0`` with ``Sigma_binary = 2 Sigma`` (checked in
  ``tests/test_cw_rules.py``); with ``lam = K`` the covariance shrinks more slowly (AROW's
  precision increment is K times smaller).
  Both are closed forms of their stated problems (``kl_weight`` selects lam).
- LIBOL's multiclass formulas (``M_CW.m`` etc., REFERENCES.md B.5) were not used; its M_SCW2 at
  C -> infinity does not reproduce its M_CW, while ours does by construction (tested).

Weights (ours; ``sample_weight`` / ``class_weight`` of the estimators)
-----------------------------------------------------------------------
An example of weight ``s >= 0`` multiplies its term of the objective:

- AROW: ``min KL + (s/2r) (max(0, 1 - m')^2 + v')``, i.e. AROW with ``r_i = r / s``:
  ``alpha = l / (v + r/s)``, ``c = s / (lam r)`` (checked against scipy.optimize on the
  weighted objective in ``tests/test_sample_weight_rules.py``).
- SCW-I / SCW-II: ``min KL + s C l`` / ``+ s C l^2``: the closed forms with ``C_i = s C``.
- CW (both forms): a probability constraint has no price to scale.  Any ``s > 0`` imposes
  it and ``s = 0`` drops it: the limit ``C -> inf`` of weighted SCW-II (``s C -> inf``), and
  what "weight k = the example k times in a row" gives for two classes with the full
  covariance (after the first step the constraint holds with equality, so the repeats are
  passive; with more classes a repeat may face a new rival, as for PA).  SCW lets weights
  grade the step.
- ``s = 0``: passive, the example is absent.

Diagonal covariance (for text)
------------------------------
``Sigma`` is a vector.  m, v, alpha and beta are computed exactly as above with the diagonal
``Sigma``; only the covariance line differs, in one of two forms used in the literature:

- ``"precision"`` (default): update the diagonal precision, ``1/Sigma_j += c_x x_j^2``, i.e.
  ``Sigma_j <- Sigma_j / (1 + c_x Sigma_j x_j^2)`` with ``c_x = kappa c`` (kappa = 1 binary,
  2 multiclass).  This is seed 001's D code for AROW, ICML 2008 CW's diagonal rule, SOL and
  Jubatus.  Chosen as default: it is what the seed teaches and what the peers ship.
- ``"truncated"``: the diagonal of the full update, ``Sigma_j <- Sigma_j - kappa beta Sigma_j^2
  x_j^2`` (off-diagonal terms dropped).  It shrinks less (it credits the features jointly),
  which helps on dense, correlated, unscaled features (AROW on raw iris: 87% training accuracy
  against 67% with "precision"); on L2-normalised text neither form wins consistently.

Both equal the full update when x has a single non-zero feature, and both keep every
``Sigma_j > 0``.  The probability constraint holds exactly after a step only with the full
covariance (or a single non-zero feature); each trace says whether it holds.

Full covariance (teaching, small d)
-----------------------------------
The rules update a square root ``A`` (``Sigma = A A'``, kept in ``CWState.factor``):
``A' = A (I - gamma w w')`` with ``w = A'x`` squares exactly to ``Sigma - kappa beta Sigma x x'
Sigma`` (see :func:`olearn.core._cw_state.factor_update`).  Plain subtraction loses
positive-definiteness in floating point once CW's variance has collapsed by ~1e16 along some
direction (it does, under label noise: the variance shrinks by a constant factor at every
mistake); ``A A'`` cannot.
Full covariance is limited to ``d <= MAX_FULL_DIM``; traces keep the full matrices only up to
``TRACE_FULL_MAX`` features (their diagonals beyond).

Layout: the rules here; the state, its checks and the covariance updates in
:mod:`olearn.core._cw_state`; the trace in :mod:`olearn.core.cw_trace`; the closed forms in
:mod:`olearn.core._cw_closed_forms`; ellipses for the plots in :mod:`olearn.core.cw_geometry`.
"""

from __future__ import annotations

import math

from olearn._numerics import TINY_VARIANCE
from olearn.core._common import check_C, check_positive, check_weight
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
    phi_of,
    scw2_alpha,
)
from olearn.core._cw_state import (
    COVARIANCES,
    CW_FORMS,
    DIAGONAL_FORMS,
    MAX_FULL_DIM,
    TRACE_FULL_MAX,
    CWState,
    check_covariance,
    check_diagonal_form,
    check_state,
    cw_init,
    delta_stats,
    diagonal_update,
    factor_update,
    full_too_large,
)
from olearn.core.cw_trace import PROB_TOL, CWTrace, StepSetup, StepSolution, record
from olearn.core.pa import check_variant

__all__ = [
    "COVARIANCES",
    "CW_FORMS",
    "DIAGONAL_FORMS",
    "MAX_FULL_DIM",
    "PROB_TOL",
    "TRACE_FULL_MAX",
    "CWState",
    "CWTrace",
    "arow_step",
    "check_covariance",
    "cw_init",
    "cw_step",
    "full_too_large",
    "narow_step",
    "nherd_step",
    "scw_step",
]

# the rules whose loss is the hinge ``max(0, 1 - m)`` (the others have a confidence eta)
HINGE_RULES = ("AROW", "NHERD", "NAROW")


# --- the shared step ----------------------------------------------------------------------


def _step(
    state,
    x,
    y,
    rule,
    *,
    eta=math.nan,
    r=math.nan,
    C=math.nan,
    b=math.nan,
    kl_weight=1.0,
    diagonal_form="precision",
    weight=1.0,
):
    """The shared step of every rule (see the module docstring for each closed form)."""
    mu, Sigma, factor, x, y, multiclass = check_state(state, x, y)
    lam = check_positive("kl_weight", kl_weight)
    weight = check_weight(weight)
    stats = delta_stats(mu, Sigma, factor, x, y, multiclass)
    m, v = stats.m, stats.v
    if rule == "NAROW":
        r = narow_r(v, b)  # r_t = v / (b v - 1), inf when v <= 1/b
    if weight > 0.0:  # the example's weight s (module docstring, *Weights*)
        r, C = r / weight, C * weight  # AROW, NAROW: r_i = r / s; SCW, NHERD: C_i = s C
    phi = math.nan if math.isnan(eta) else phi_of(eta)  # the hinge rules have no eta
    setup = StepSetup(rule, eta, phi, r, C, lam, check_diagonal_form(diagonal_form), multiclass, y)
    kappa = 2.0 if multiclass else 1.0
    sol = StepSolution(sqrt_u=math.sqrt(max(v, 0.0)))
    if rule in HINGE_RULES:
        sol.loss = max(0.0, 1.0 - m)  # hinge loss
    elif rule == "CW-variance":
        sol.loss = max(0.0, phi * v - m)  # m' >= phi v' violated
    else:
        sol.loss = max(0.0, phi * math.sqrt(max(v, 0.0)) - m)  # SCW paper's loss l^phi
        sol.psi, sol.zeta = lam + phi * phi / 2.0, lam + phi * phi
    if weight == 0.0:
        sol.reason = "passive: weight 0 (the example is absent)"
    elif sol.loss <= 0.0:
        sol.reason = "passive: loss is zero"
    elif v < TINY_VARIANCE:
        sol.reason = "passive: x'Sigma x is (numerically) zero: the Gaussian has collapsed along x"
    elif r == math.inf:
        sol.reason = "passive: the variance along x is at most 1/b (NAROW's r_t is infinite)"
    else:
        _solve(setup, sol, m, v)
        g = stats.g
        # mean: mu' = mu + alpha Sigma Delta
        if multiclass:
            mu[y] += sol.alpha * g  # mu_y += alpha Sigma x
            mu[stats.rival] -= sol.alpha * g  # mu_s -= alpha Sigma x
        else:
            mu += sol.alpha * y * g  # mu += alpha y Sigma x
        if factor is None:
            Sigma = diagonal_update(Sigma, x, g, kappa * sol.c, kappa * sol.beta, diagonal_form)
        else:
            factor = factor_update(factor, g, stats.w, kappa * sol.c, stats.x_Sigma_x)
            Sigma = factor @ factor.T
            Sigma = 0.5 * (Sigma + Sigma.T)  # exactly symmetric
    sol.sigma_factor = kappa * sol.beta
    trace = record(setup, state, sol, stats, (mu, Sigma, factor), x)
    return CWState(mu, Sigma, factor), trace


def _solve(setup: StepSetup, sol: StepSolution, m: float, v: float) -> None:
    """Fill alpha, c, beta (and the rule's intermediate quantities) of an aggressive step."""
    rule, phi, r, C, lam = setup.rule, setup.phi, setup.r, setup.C, setup.lam
    if rule in ("AROW", "NAROW"):  # NAROW: AROW at r = r_t
        sol.alpha = arow_alpha(m, v, r)  # alpha = l / (v + r)
        # d/dv': inv(Sigma') = inv(Sigma) + Delta Delta' / (lam r); beta = 1 / (lam r + v)
        sol.c, sol.beta = arow_c_beta(v, r, lam)
    elif rule == "NHERD":
        sol.alpha = nherd_alpha(m, v, C)  # alpha = l / (v + 1/C)
        # Sigma' = A Sigma A': beta = C (2 lam + C v) / (lam + C v)^2
        sol.c, sol.beta = nherd_c_beta(v, C, lam)
    elif rule == "CW-variance":
        sol.alpha = cw_variance_alpha(m, v, phi, lam)
        # ICML'08: inv(Sigma') = inv(Sigma) + 2 alpha phi x x'
        sol.c, sol.beta = cw_variance_c_beta(sol.alpha, v, phi, lam)
        sol.sqrt_u = math.sqrt(v / (1.0 + sol.c * v))
    else:
        if rule == "SCW-II":
            sol.n = v + 1.0 / (2.0 * C)  # xi = alpha / (2C)
            sol.alpha = scw2_alpha(m, v, phi, C, lam)
        else:
            sol.alpha_unclipped = cw_alpha(m, v, phi, lam)  # m + alpha v = phi sqrt(u)
            sol.alpha = sol.alpha_unclipped
            if rule == "SCW-I" and sol.alpha_unclipped > C:
                sol.alpha, sol.cap_binds = C, True  # the slack's multiplier: alpha <= C
        # beta = a phi / (lam sqrt(u) + v a phi)
        sol.sqrt_u, sol.c, sol.beta = cw_beta(sol.alpha, v, phi, lam)


# --- the public rules -------------------------------------------------------------------


def cw_step(
    state: CWState,
    x,
    y,
    eta: float = 0.7,
    form: str = "exact",
    *,
    diagonal_form: str = "precision",
    kl_weight: float = 1.0,
    weight: float = 1.0,
):
    """One CW step: the closest Gaussian (in KL) that classifies x right with probability eta.

    Parameters
    ----------
    state : :class:`CWState` (binary: ``mu`` (d,), y = +-1; multiclass: ``mu`` (K, d), y index).
    eta : confidence in (0.5, 1).  Default 0.7, ``phi = Phi^{-1}(0.7) = 0.5244``: neither CW
        paper (Dredze, Crammer & Pereira, ICML 2008; Crammer, Dredze & Pereira, NIPS 2008)
        nor seed 001 fixes a value (they tune phi per data set); 0.7 is the published
        implementations' default (SOL's ``phi = 0.5244``, LIBOL's and olpy's ``eta = 0.7``),
        and the registry's (:data:`olearn.registry.ETA_CW`), which every default follows.
    form : "exact" (NIPS 2008, ``m' >= phi sqrt(v')``) or "variance" (ICML 2008, ``m' >= phi v'``).
    diagonal_form : "precision" or "truncated" (only read for a diagonal ``Sigma``).
    kl_weight : lam, see the module docstring (1: K = 2 equals binary).
    weight : the example's weight s >= 0: any s > 0 imposes the constraint, 0 is passive
        (module docstring, *Weights*).

    Returns
    -------
    (CWState, CWTrace), the input state untouched.

    >>> import numpy as np
    >>> s, t = cw_step(cw_init(2, covariance="full"), np.array([1.0, 0.0]), 1, eta=0.9)
    >>> round(t.prob_after, 12), t.constraint_holds
    (0.9, True)
    """
    if form not in CW_FORMS:
        raise ValueError(f"form must be one of {CW_FORMS}, got {form!r}")
    rule = "CW" if form == "exact" else "CW-variance"
    return _step(
        state, x, y, rule, eta=eta, kl_weight=kl_weight, diagonal_form=diagonal_form,
        weight=weight,
    )  # fmt: skip


def arow_step(
    state: CWState,
    x,
    y,
    r: float = 1.0,
    *,
    diagonal_form: str = "precision",
    kl_weight: float = 1.0,
    weight: float = 1.0,
):
    """One AROW step (regularised: hinge^2 and the new variance, both weighted 1/(2r)).

    ``weight`` s >= 0 scales that term: AROW with ``r / s`` (module docstring, *Weights*).

    >>> import numpy as np
    >>> s, t = arow_step(cw_init(1), np.array([1.0]), 1, r=1.0)
    >>> t.alpha, t.beta, s.mu.tolist(), s.Sigma.tolist()
    (0.5, 0.5, [0.5], [0.5])
    """
    r = check_positive("r", r)
    return _step(
        state, x, y, "AROW", r=r, kl_weight=kl_weight, diagonal_form=diagonal_form,
        weight=weight,
    )  # fmt: skip


def scw_step(
    state: CWState,
    x,
    y,
    variant: str = "I",
    C: float = 1.0,
    eta: float = 0.75,
    *,
    diagonal_form: str = "precision",
    kl_weight: float = 1.0,
    weight: float = 1.0,
):
    """One SCW-I (``+ C l``) or SCW-II (``+ C l^2``) step.

    ``weight`` s >= 0 prices the loss ``s C`` (module docstring, *Weights*).

    >>> import numpy as np
    >>> s, t = scw_step(cw_init(2, 3), np.array([1.0, 2.0]), 0, variant="I", C=0.01)
    >>> t.rival, t.cap_binds, t.alpha
    (1, True, 0.01)
    """
    variant = check_variant(variant)
    if variant is None:
        raise ValueError("SCW's variant must be 'I' or 'II', got None")
    return _step(
        state,
        x,
        y,
        f"SCW-{variant}",
        eta=eta,
        C=check_C(C),
        kl_weight=kl_weight,
        diagonal_form=diagonal_form,
        weight=weight,
    )


def nherd_step(
    state: CWState,
    x,
    y,
    C: float = 1.0,
    *,
    diagonal_form: str = "precision",
    kl_weight: float = 1.0,
    weight: float = 1.0,
):
    """One NHERD step: herd the Gaussian by the affine map that trades the expected squared
    move against C times the expected squared loss (module docstring, *NHERD*).

    ``weight`` s >= 0 prices the loss ``s C``, as for SCW.

    >>> import numpy as np
    >>> s, t = nherd_step(cw_init(1), np.array([1.0]), 1, C=1.0)
    >>> t.alpha, t.beta, s.mu.tolist(), s.Sigma.tolist()
    (0.5, 0.75, [0.5], [0.25])
    """
    return _step(
        state, x, y, "NHERD", C=check_C(C), kl_weight=kl_weight, diagonal_form=diagonal_form,
        weight=weight,
    )  # fmt: skip


def narow_step(
    state: CWState,
    x,
    y,
    b: float = 10.0,
    *,
    diagonal_form: str = "precision",
    kl_weight: float = 1.0,
    weight: float = 1.0,
):
    """One NAROW step: AROW with ``r_t = v / (b v - 1)``, passive where ``v <= 1/b``
    (module docstring, *NAROW*); the variance along x after the step is ``1/b``.

    >>> import numpy as np
    >>> s, t = narow_step(cw_init(1), np.array([2.0]), 1, b=1.0)
    >>> t.r, round(t.v_after, 12), t.m_after < 1.0
    (1.3333333333333333, 1.0, True)
    >>> narow_step(s, np.array([2.0]), 1, b=1.0)[1].reason  # a loss, but v = 1/b already
    "passive: the variance along x is at most 1/b (NAROW's r_t is infinite)"
    """
    b = check_positive("b", b)
    return _step(
        state, x, y, "NAROW", b=b, kl_weight=kl_weight, diagonal_form=diagonal_form,
        weight=weight,
    )  # fmt: skip
