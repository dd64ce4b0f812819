"""The confidence-weighted family: CW, AROW, SCW-I, SCW-II; binary and true multiclass.

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

Reduction to three numbers (ours; checked against scipy.optimize in
``tests/test_cw_optimisation.py``)
----------------------------------------------------------------------------------------
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
Sigma`` (see :func:`_factor_update`).  Plain subtraction loses positive-definiteness in
floating point once CW's variance has collapsed by ~1e16 along some direction (it does, under
label noise: the variance shrinks by a constant factor at every mistake); ``A A'`` cannot.
Full covariance is limited to ``d <= MAX_FULL_DIM``; traces keep the full matrices only up to
``TRACE_FULL_MAX`` features (their diagonals beyond).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy.special import ndtr

from olearn._numerics import TINY_VARIANCE
from olearn.core._common import best_rival, check_C, check_positive
from olearn.core._cw_closed_forms import (
    arow_alpha,
    arow_c_beta,
    cw_alpha,
    cw_beta,
    cw_variance_alpha,
    cw_variance_c_beta,
    phi_of,
    scw2_alpha,
)
from olearn.trace import frozen_array

COVARIANCES = ("diagonal", "full")
DIAGONAL_FORMS = ("precision", "truncated")
CW_FORMS = ("exact", "variance")
MAX_FULL_DIM = 2000  # full covariance is O(d^2) memory and time per step: teaching size only
TRACE_FULL_MAX = 64  # traces of larger full-covariance steps keep only the diagonals

# For the registry: papers and the parameter grids of the sensitivity study.
CW_REFERENCES = {
    "cw": "Crammer, Dredze, Pereira. Exact Convex Confidence-Weighted Learning. NIPS 2008",
    "arow": "Crammer, Kulesza, Dredze. Adaptive Regularization of Weight Vectors. NIPS 2009",
    "scw": "Wang, Zhao, Hoi. Exact Soft Confidence-Weighted Learning. ICML 2012",
}
CW_GRIDS = {
    "eta": [0.55, 0.65, 0.75, 0.85, 0.95],
    "r": [0.01, 0.1, 1.0, 10.0, 100.0],
    "C": [0.01, 0.1, 1.0, 10.0],
}

# A probability constraint counts as holding up to this slack (floating point only).
PROB_TOL = 1e-9


class CWState(NamedTuple):
    """A Gaussian over the weights.

    mu : (d,) binary mean, or (K, d) multiclass means (one row per class).
    Sigma : (d,) diagonal covariance, or (d, d) full covariance, shared by all rows.
    factor : full covariance only: a square root ``A`` with ``Sigma = A A'``, the form the
        rules update (None: taken as the Cholesky factor of Sigma).
    """

    mu: np.ndarray
    Sigma: np.ndarray
    factor: np.ndarray | None = None


def cw_init(
    n_features: int, n_classes: int | None = None, covariance: str = "diagonal", a: float = 1.0
) -> CWState:
    """The prior ``N(0, a I)``: binary if ``n_classes`` is None, else one row per class.

    >>> s = cw_init(2, 3, covariance="full")
    >>> s.mu.shape, s.Sigma.tolist()
    ((3, 2), [[1.0, 0.0], [0.0, 1.0]])
    """
    covariance = check_covariance(covariance)
    if not (a > 0 and math.isfinite(a)):
        raise ValueError(f"the prior variance a must be positive and finite, got {a}")
    if covariance == "full" and n_features > MAX_FULL_DIM:
        raise ValueError(full_too_large(n_features))
    mu = np.zeros(n_features if n_classes is None else (n_classes, n_features))
    if covariance == "diagonal":
        return CWState(mu, np.full(n_features, float(a)))
    return CWState(mu, a * np.eye(n_features), math.sqrt(a) * np.eye(n_features))


def full_too_large(d: int) -> str:
    return (
        f"covariance='full' keeps a {d} x {d} matrix and costs O(d^2) per step; it is limited to "
        f"d <= {MAX_FULL_DIM} features (use covariance='diagonal' for text-sized data)"
    )


def check_covariance(covariance: str) -> str:
    if covariance not in COVARIANCES:
        raise ValueError(f"covariance must be one of {COVARIANCES}, got {covariance!r}")
    return covariance


def check_diagonal_form(form: str) -> str:
    if form not in DIAGONAL_FORMS:
        raise ValueError(f"diagonal_form must be one of {DIAGONAL_FORMS}, got {form!r}")
    return form


# --- traces -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ellipse:
    """The 1-sigma ellipse of a 2-D covariance: semi-axes and the angle of the major one.

    center : (2,);  semi_major >= semi_minor : sqrt of the eigenvalues (times n_std);
    angle : radians from the first axis to the major axis, in (-pi/2, pi/2].
    """

    center: np.ndarray
    semi_major: float
    semi_minor: float
    angle: float


def covariance_ellipse(
    Sigma: np.ndarray, center=(0.0, 0.0), dims: tuple[int, int] = (0, 1), n_std: float = 1.0
) -> Ellipse:
    """Ellipse parameters of the 2 x 2 block ``dims`` of a diagonal or full covariance.

    >>> e = covariance_ellipse(np.array([[4.0, 0.0], [0.0, 1.0]]))
    >>> e.semi_major, e.semi_minor, e.angle
    (2.0, 1.0, 0.0)
    """
    Sigma = np.asarray(Sigma, dtype=float)
    i, j = dims
    if Sigma.ndim == 1:
        block = np.diag([Sigma[i], Sigma[j]])
    else:
        block = Sigma[np.ix_([i, j], [i, j])]
    block = 0.5 * (block + block.T)
    values, vectors = np.linalg.eigh(block)  # ascending
    major = vectors[:, 1]
    angle = math.atan2(major[1], major[0])
    if angle <= -math.pi / 2:
        angle += math.pi
    elif angle > math.pi / 2:
        angle -= math.pi
    return Ellipse(
        center=frozen_array(center),
        semi_major=float(n_std * math.sqrt(max(values[1], 0.0))),
        semi_minor=float(n_std * math.sqrt(max(values[0], 0.0))),
        angle=float(angle) + 0.0,
    )


def ellipse_points(ellipse: Ellipse, n: int = 100) -> np.ndarray:
    """(n, 2) points on the ellipse boundary, ready to plot.

    >>> ellipse_points(covariance_ellipse(np.diag([4.0, 1.0])), 5).round(6).tolist()[:2]
    [[2.0, 0.0], [0.0, 1.0]]
    """
    t = np.linspace(0.0, 2.0 * np.pi, n)
    c, s = math.cos(ellipse.angle), math.sin(ellipse.angle)
    a, b = ellipse.semi_major * np.cos(t), ellipse.semi_minor * np.sin(t)
    return np.column_stack([ellipse.center[0] + c * a - s * b, ellipse.center[1] + s * a + c * b])


@dataclass(frozen=True, slots=True)
class CWTrace:
    """One step of CW / AROW / SCW (binary or multiclass).

    Attributes
    ----------
    rule : "CW", "CW-variance", "AROW", "SCW-I" or "SCW-II".
    eta, phi : confidence and ``Phi^{-1}(eta)`` (NaN for AROW);  r, C : (NaN when unused).
    kl_weight : lam, the weight of the covariance part of the KL (1 binary; see module doc).
    covariance : "diagonal" or "full";  diagonal_form : "precision" or "truncated".
    multiclass : one row per class;  y : label (+-1 binary, class index multiclass).
    rival : best wrong class (multiclass; -1 binary).
    scores_before, scores_after : ``mu.x`` (binary: one value) or ``mu_k.x`` per class.
    m, v : margin and its variance along Delta before the step (``v = 2 x'Sigma x`` multiclass).
    x_Sigma_x : ``x' Sigma x``.  loss : the rule's loss before (hinge for AROW, else
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
    constraint_holds : ``prob_after >= eta`` (None for AROW, which has no such constraint).
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


# --- the shared step --------------------------------------------------------------------


def _check_state(state, x, y):
    mu, Sigma = state[0], state[1]
    factor = state[2] if len(state) > 2 else None
    mu = np.array(mu, dtype=float, copy=True)
    Sigma = np.array(Sigma, dtype=float, copy=True)
    x = np.asarray(x, dtype=float)
    multiclass = mu.ndim == 2
    d = mu.shape[-1]
    if mu.ndim not in (1, 2) or (multiclass and mu.shape[0] < 2):
        raise ValueError(f"mu must have shape (d,) or (K, d) with K >= 2, got {mu.shape}")
    if x.shape != (d,):
        raise ValueError(f"x must have shape ({d},), got {x.shape}")
    if Sigma.shape not in ((d,), (d, d)):
        raise ValueError(f"Sigma must have shape ({d},) or ({d}, {d}), got {Sigma.shape}")
    if Sigma.ndim == 2 and d > MAX_FULL_DIM:
        raise ValueError(full_too_large(d))
    if not (np.all(np.isfinite(mu)) and np.all(np.isfinite(Sigma)) and np.all(np.isfinite(x))):
        raise ValueError("mu, Sigma and x must be finite (no NaN or inf)")
    spd = "Sigma must be a positive diagonal or a symmetric positive-definite matrix"
    if Sigma.ndim == 1 and np.any(Sigma <= 0):
        raise ValueError(spd)
    if Sigma.ndim == 2:
        if factor is None:
            if not np.allclose(Sigma, Sigma.T):
                raise ValueError(spd)
            try:
                factor = np.linalg.cholesky(Sigma)
            except np.linalg.LinAlgError:
                raise ValueError(spd) from None
        factor = np.array(factor, dtype=float, copy=True)
        if factor.shape != (d, d) or not np.all(np.isfinite(factor)):
            raise ValueError(f"factor must be a finite ({d}, {d}) matrix with Sigma = A A'")
    if multiclass:
        if not (0 <= int(y) < mu.shape[0]):
            raise ValueError(f"y must be a class index in [0, {mu.shape[0]}), got {y}")
        y = int(y)
    else:
        if y not in (-1, 1):
            raise ValueError(f"binary y must be -1 or +1, got {y}")
        y = int(y)
    return mu, Sigma, factor, x, y, multiclass


def _delta_stats(mu, Sigma, factor, x, y, multiclass):
    """Scores, rival, ``g = Sigma x``, ``w = A'x`` (full), ``x'Sigma x``, Delta-level m and v."""
    if factor is None:
        w = None
        g = Sigma * x  # Sigma x
        x_Sigma_x = float(x @ g)
    else:
        w = factor.T @ x  # A'x
        g = factor @ w  # Sigma x = A A'x
        x_Sigma_x = float(w @ w)  # never negative, however ill-conditioned Sigma gets
    if multiclass:
        scores = mu @ x
        rival = best_rival(scores, y)
        m = float(scores[y] - scores[rival])  # (mu_y - mu_s).x
        v = 2.0 * x_Sigma_x  # Delta'(I (x) Sigma)Delta
    else:
        scores = np.array([mu @ x])
        rival = -1
        m = y * float(scores[0])  # y mu.x
        v = x_Sigma_x
    return scores, rival, g, w, x_Sigma_x, m, v


def _step(
    state,
    x,
    y,
    rule,
    *,
    eta=math.nan,
    r=math.nan,
    C=math.nan,
    kl_weight=1.0,
    diagonal_form="precision",
):
    mu, Sigma, factor, x, y, multiclass = _check_state(state, x, y)
    diagonal_form = check_diagonal_form(diagonal_form)
    lam = check_positive("kl_weight", kl_weight)
    phi = phi_of(eta) if rule != "AROW" else math.nan
    scores, rival, g, w, x_Sigma_x, m, v = _delta_stats(mu, Sigma, factor, x, y, multiclass)
    kappa = 2.0 if multiclass else 1.0
    nan = math.nan
    psi = zeta = n = alpha_unclipped = nan
    alpha = beta = c = 0.0
    sqrt_u = math.sqrt(max(v, 0.0))
    cap_binds = False
    if rule == "AROW":
        loss = max(0.0, 1.0 - m)  # hinge loss
    elif rule == "CW-variance":
        loss = max(0.0, phi * v - m)  # m' >= phi v' violated
    else:
        loss = max(0.0, phi * math.sqrt(max(v, 0.0)) - m)  # SCW paper's loss l^phi
        psi, zeta = lam + phi * phi / 2.0, lam + phi * phi
    if loss <= 0.0:
        reason = "passive: loss is zero"
    elif v < TINY_VARIANCE:
        reason = "passive: x'Sigma x is (numerically) zero: the Gaussian has collapsed along x"
    else:
        reason = "aggressive"
        if rule == "AROW":
            alpha = arow_alpha(m, v, r)  # alpha = l / (v + r)
            # d/dv': inv(Sigma') = inv(Sigma) + Delta Delta' / (lam r); beta = 1 / (lam r + v)
            c, beta = arow_c_beta(v, r, lam)
        elif rule == "CW-variance":
            alpha = cw_variance_alpha(m, v, phi, lam)
            # ICML'08: inv(Sigma') = inv(Sigma) + 2 alpha phi x x'
            c, beta = cw_variance_c_beta(alpha, v, phi, lam)
            sqrt_u = math.sqrt(v / (1.0 + c * v))
        else:
            if rule == "SCW-II":
                n = v + 1.0 / (2.0 * C)  # xi = alpha / (2C)
                alpha = scw2_alpha(m, v, phi, C, lam)
            else:
                alpha_unclipped = cw_alpha(m, v, phi, lam)  # m + alpha v = phi sqrt(u)
                alpha = alpha_unclipped
                if rule == "SCW-I" and alpha_unclipped > C:
                    alpha, cap_binds = C, True  # the slack's multiplier: alpha <= C
            sqrt_u, c, beta = cw_beta(alpha, v, phi, lam)  # beta = a phi / (lam sqrt(u) + v a phi)
        # mean: mu' = mu + alpha Sigma Delta
        if multiclass:
            mu[y] += alpha * g  # mu_y += alpha Sigma x
            mu[rival] -= alpha * g  # mu_s -= alpha Sigma x
        else:
            mu += alpha * y * g  # mu += alpha y Sigma x
        if factor is None:
            Sigma = _diagonal_update(Sigma, x, g, kappa * c, kappa * beta, diagonal_form)
        else:
            factor = _factor_update(factor, g, w, kappa * c, x_Sigma_x)
            Sigma = factor @ factor.T
            Sigma = 0.5 * (Sigma + Sigma.T)  # exactly symmetric
    return _trace(
        rule,
        eta,
        phi,
        r,
        C,
        lam,
        diagonal_form,
        multiclass,
        y,
        rival,
        scores,
        m,
        v,
        x_Sigma_x,
        loss,
        psi,
        zeta,
        n,
        alpha_unclipped,
        alpha,
        cap_binds,
        beta,
        c,
        kappa * beta,
        sqrt_u,
        state,
        mu,
        Sigma,
        factor,
        x,
        reason,
    )


def _factor_update(A, g, w, c_x, x_Sigma_x):
    """``Sigma' = Sigma - beta_x g g'`` in square-root form: ``A' = A - gamma g w'``.

    With ``w = A'x`` and ``g = A w``, ``A (I - gamma w w')`` squares to ``Sigma - beta_x g g'``
    when ``2 gamma - gamma^2 x'Sigma x = beta_x``, i.e.
    ``gamma = (1 - 1/sqrt(1 + t)) / x'Sigma x`` with ``t = c_x x'Sigma x`` (computed without
    cancellation).  ``A A'`` stays positive semi-definite by construction, where the plain
    subtraction loses it once CW's variance collapses by ~1e16 along some direction.
    """
    root = math.sqrt(1.0 + c_x * x_Sigma_x)
    gamma = c_x / (root * (root + 1.0))
    return A - gamma * np.outer(g, w)


def _diagonal_update(Sigma, x, g, c_x, beta_x, diagonal_form):
    """``1/Sigma_j += c_x x_j^2`` ("precision") or ``Sigma_j -= beta_x g_j^2`` ("truncated")."""
    if diagonal_form == "precision":
        return Sigma / (1.0 + c_x * Sigma * x * x)  # 1/Sigma_j += c_x x_j^2
    return Sigma - beta_x * g * g  # diag(Sigma - beta_x Sigma x x' Sigma)


def _for_trace(Sigma) -> np.ndarray:
    Sigma = np.asarray(Sigma, dtype=float)
    if Sigma.ndim == 2 and Sigma.shape[0] > TRACE_FULL_MAX:
        return frozen_array(np.diag(Sigma))
    return frozen_array(Sigma)


def _trace(
    rule,
    eta,
    phi,
    r,
    C,
    lam,
    diagonal_form,
    multiclass,
    y,
    rival,
    scores,
    m,
    v,
    x_Sigma_x,
    loss,
    psi,
    zeta,
    n,
    alpha_unclipped,
    alpha,
    cap_binds,
    beta,
    c,
    sigma_factor,
    sqrt_u,
    state,
    mu,
    Sigma,
    factor,
    x,
    reason,
):
    scores_after, _, _, _, _, m_after, v_after = _delta_stats(mu, Sigma, factor, x, y, multiclass)
    if multiclass:  # the margin against the *same* rival the step used
        m_after = float(scores_after[y] - scores_after[rival])
    prob_after = float(ndtr(m_after / math.sqrt(v_after))) if v_after > 0 else float(m_after > 0)
    holds = None if rule == "AROW" else bool(prob_after >= eta - PROB_TOL)
    d = mu.shape[-1]
    center_before = np.asarray(state[0], dtype=float)
    center_before = center_before[y] if multiclass else center_before
    center_after = mu[y] if multiclass else mu
    return (
        mu,
        Sigma,
        factor,
        CWTrace(
            rule=rule,
            eta=float(eta),
            phi=float(phi),
            r=float(r),
            C=float(C),
            kl_weight=lam,
            covariance="full" if Sigma.ndim == 2 else "diagonal",
            diagonal_form=diagonal_form,
            multiclass=multiclass,
            y=y,
            rival=rival,
            scores_before=frozen_array(scores),
            m=m,
            v=v,
            x_Sigma_x=x_Sigma_x,
            loss=loss,
            psi=psi,
            zeta=zeta,
            n=n,
            alpha_unclipped=alpha_unclipped,
            alpha=float(alpha),
            cap_binds=cap_binds,
            beta=float(beta),
            c=float(c),
            sigma_factor=float(sigma_factor),
            sqrt_u=float(sqrt_u),
            u=float(sqrt_u) ** 2,
            mu_before=frozen_array(state[0]),
            mu_after=frozen_array(mu),
            Sigma_before=_for_trace(state[1]),
            Sigma_after=_for_trace(Sigma),
            scores_after=frozen_array(scores_after),
            m_after=float(m_after),
            v_after=float(v_after),
            prob_after=prob_after,
            constraint_holds=holds,
            ellipse_before=covariance_ellipse(state[1], center_before[:2]) if d >= 2 else None,
            ellipse_after=covariance_ellipse(Sigma, center_after[:2]) if d >= 2 else None,
            reason=reason,
        ),
    )


# --- the public rules -------------------------------------------------------------------


def cw_step(
    state: CWState,
    x,
    y,
    eta: float = 0.75,
    form: str = "exact",
    diagonal_form: str = "precision",
    kl_weight: float = 1.0,
):
    """One CW step: the closest Gaussian (in KL) that classifies x right with probability eta.

    Parameters
    ----------
    state : :class:`CWState` (binary: ``mu`` (d,), y = +-1; multiclass: ``mu`` (K, d), y index).
    eta : confidence in (0.5, 1).
    form : "exact" (NIPS 2008, ``m' >= phi sqrt(v')``) or "variance" (ICML 2008, ``m' >= phi v'``).
    diagonal_form : "precision" or "truncated" (only read for a diagonal ``Sigma``).
    kl_weight : lam, see the module docstring (1: K = 2 equals binary).

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
    mu, Sigma, factor, trace = _step(
        state, x, y, rule, eta=eta, kl_weight=kl_weight, diagonal_form=diagonal_form
    )
    return CWState(mu, Sigma, factor), trace


def arow_step(
    state: CWState, x, y, r: float = 1.0, diagonal_form: str = "precision", kl_weight: float = 1.0
):
    """One AROW step (regularised: hinge^2 and the new variance, both weighted 1/(2r)).

    >>> import numpy as np
    >>> s, t = arow_step(cw_init(1), np.array([1.0]), 1, r=1.0)
    >>> t.alpha, t.beta, s.mu.tolist(), s.Sigma.tolist()
    (0.5, 0.5, [0.5], [0.5])
    """
    r = check_positive("r", r)
    mu, Sigma, factor, trace = _step(
        state, x, y, "AROW", r=r, kl_weight=kl_weight, diagonal_form=diagonal_form
    )
    return CWState(mu, Sigma, factor), trace


def scw_step(
    state: CWState,
    x,
    y,
    variant: str = "I",
    C: float = 1.0,
    eta: float = 0.75,
    diagonal_form: str = "precision",
    kl_weight: float = 1.0,
):
    """One SCW-I (``+ C l``) or SCW-II (``+ C l^2``) step.

    >>> import numpy as np
    >>> s, t = scw_step(cw_init(2, 3), np.array([1.0, 2.0]), 0, variant="I", C=0.01)
    >>> t.rival, t.cap_binds, t.alpha
    (1, True, 0.01)
    """
    v = str(variant).upper()
    if v not in ("I", "1", "II", "2"):
        raise ValueError(f"variant must be 'I' or 'II', got {variant!r}")
    rule = "SCW-I" if v in ("I", "1") else "SCW-II"
    C = check_C(C)
    mu, Sigma, factor, trace = _step(
        state, x, y, rule, eta=eta, C=C, kl_weight=kl_weight, diagonal_form=diagonal_form
    )
    return CWState(mu, Sigma, factor), trace
