"""Closed-form step sizes of the confidence-weighted family, on scalars.

Every rule of :mod:`olearn.core.cw` reduces one update to three numbers of the *difference
direction* Delta (binary: ``Delta = y x``; multiclass: ``Delta = e_y (x) x - e_s (x) x``):

- ``m = mu . Delta`` the margin, ``v = Delta' Sigma Delta`` its variance (``2 x'Sigma x`` in
  multiclass), ``lam`` the weight of the covariance part of the KL divergence (1 = binary).
- the rule returns ``alpha`` (mean step: ``mu += alpha Sigma Delta``) and ``c`` (precision
  increment: ``inv(Sigma) += c Delta Delta'``); ``beta = c / (1 + c v)`` is the factor of the
  equivalent covariance update ``Sigma -= beta Sigma Delta Delta' Sigma``.

All formulas are derived in :mod:`olearn.core.cw` and checked against scipy.optimize in
``tests/test_cw_optimisation.py``.  Roots are taken in a cancellation-free form (the branch on
the sign of ``m`` picks the rationalised expression); :func:`cw_alpha_printed` keeps the SCW
paper's printed expression for comparison.  The forms the kernel needs are numba functions
(``@numba.njit``): :mod:`olearn.kernels.cw` calls these same functions, so the rule and the
kernel share one source of truth and agree to the last bit.  numba's on-disk cache does not
notice edits to a callee in another file (numba issue #1833): after editing a form here,
touch ``olearn/kernels/cw.py`` (or clear its ``__pycache__``) so the kernel is recompiled.
"""

from __future__ import annotations

import math

from scipy.special import ndtri

from olearn._jit import jit

# The largest margin variance x'Sigma x the closed forms are used with.  Their intermediates
# are at most cubic in the scale of v (``m^2 phi^2 v^2`` in SCW-II with margins |m| of the
# order of sqrt(v); ``(alpha phi v)^2`` in std_after), so v <= 1e100 keeps every one below
# 1e300 < 1.8e308, the float64 maximum; it mirrors TINY_VARIANCE = 1e-100 (olearn._numerics),
# below which the rules stay passive.  Every step shrinks Sigma, so the estimators check it
# once, on the prior: ``2 a ||x||^2 <= MAX_VARIANCE`` for every row (multiclass v = 2 x'Sigma x).
MAX_VARIANCE = 1e100


def phi_of(eta: float) -> float:
    """``phi = Phi^{-1}(eta)``, the standard normal quantile (eta must lie in (0.5, 1)).

    >>> round(phi_of(0.7), 4)
    0.5244
    """
    eta = float(eta)
    if not (0.5 < eta < 1.0):
        raise ValueError(f"eta must lie in the open interval (0.5, 1), got {eta}")
    return float(ndtri(eta))


@jit
def std_after(alpha: float, v: float, phi: float, lam: float = 1.0) -> float:
    """``sqrt(u)``: the standard deviation of the margin after a step of size ``alpha``.

    Stationarity in the new variance u gives ``lam (v - u) = alpha phi v sqrt(u)``, whose
    positive root is ``(-alpha v phi + sqrt(alpha^2 v^2 phi^2 + 4 lam^2 v)) / (2 lam)``
    (the SCW paper's ``u = 1/4 (...)^2`` for lam = 1), computed here rationalised.

    >>> std_after(0.0, 4.0, 1.0)
    2.0
    """
    a = alpha * phi * v
    return 2.0 * lam * v / (a + math.sqrt(a * a + 4.0 * lam * lam * v))


@jit
def std_cw(m: float, v: float, phi: float, lam: float = 1.0) -> float:
    """``sqrt(u)`` at the exact-CW solution: root of ``(phi^2 + lam) s^2 - m phi s - lam v``."""
    zeta = lam + phi * phi
    disc = math.sqrt(m * m * phi * phi + 4.0 * zeta * lam * v)
    if m * phi >= 0.0:
        return (m * phi + disc) / (2.0 * zeta)
    return 2.0 * lam * v / (disc - m * phi)


@jit
def cw_alpha(m: float, v: float, phi: float, lam: float = 1.0) -> float:
    """Exact CW (NIPS 2008, as restated by the SCW paper): the step making ``m' = phi sqrt(v')``.

    ``alpha = max(0, (phi s - m) / v)`` with ``s = std_cw(m, v, phi, lam)``; for lam = 1 this
    equals the printed ``(-m psi + sqrt(m^2 phi^4/4 + v phi^2 zeta)) / (v zeta)``.

    >>> phi = phi_of(0.7)
    >>> abs(cw_alpha(0.3, 0.7, phi) - cw_alpha_printed(0.3, 0.7, phi)) < 1e-15
    True
    """
    return max(0.0, (phi * std_cw(m, v, phi, lam) - m) / v)


def cw_alpha_printed(m: float, v: float, phi: float) -> float:
    """The SCW paper's printed exact-CW step (binary, lam = 1).

    ``psi = 1 + phi^2/2``, ``zeta = 1 + phi^2``.
    """
    psi = 1.0 + phi * phi / 2.0
    zeta = 1.0 + phi * phi
    root = math.sqrt(m * m * phi**4 / 4.0 + v * phi * phi * zeta)
    return max(0.0, (-m * psi + root) / (v * zeta))


@jit
def cw_beta(alpha: float, v: float, phi: float, lam: float = 1.0) -> tuple[float, float, float]:
    """``(sqrt_u, c, beta)`` for the exact-CW family (CW, SCW-I, SCW-II) at step ``alpha``.

    ``c = alpha phi / (lam sqrt(u))`` and ``beta = alpha phi / (lam sqrt(u) + v alpha phi)``.
    """
    s = std_after(alpha, v, phi, lam)
    return s, alpha * phi / (lam * s), alpha * phi / (lam * s + v * alpha * phi)


@jit
def cw_variance_alpha(m: float, v: float, phi: float, lam: float = 1.0) -> float:
    """CW, variance version (Dredze, Crammer, Pereira, ICML 2008): constraint ``m' >= phi v'``.

    The positive root of ``2 phi v a^2 + (lam + 2 phi m) a + lam (m - phi v) / v = 0``; for
    lam = 1, ``(-(1 + 2 phi m) + sqrt((1 + 2 phi m)^2 - 8 phi (m - phi v))) / (4 phi v)``.
    """
    if m >= phi * v:
        return 0.0
    b = lam + 2.0 * phi * m
    c0 = lam * (m - phi * v) / v  # < 0 here
    disc = math.sqrt(b * b - 8.0 * phi * v * c0)
    if b > 0.0:
        return -2.0 * c0 / (b + disc)
    return (disc - b) / (4.0 * phi * v)


@jit
def cw_variance_c_beta(alpha: float, v: float, phi: float, lam: float = 1.0) -> tuple[float, float]:
    """``(c, beta)`` of CW-variance at step ``alpha``: ``c = 2 alpha phi / lam`` (ICML 2008:
    ``inv(Sigma') = inv(Sigma) + 2 alpha phi x x'`` for lam = 1), ``beta = c / (1 + c v)``."""
    c = 2.0 * alpha * phi / lam
    return c, c / (1.0 + c * v)


@jit
def arow_alpha(m: float, v: float, r: float) -> float:
    """AROW (NIPS 2009): ``alpha = max(0, 1 - m) / (v + r)`` (independent of lam)."""
    return max(0.0, 1.0 - m) / (v + r)


@jit
def arow_c_beta(v: float, r: float, lam: float = 1.0) -> tuple[float, float]:
    """``(c, beta)`` of AROW: ``inv(Sigma') = inv(Sigma) + Delta Delta' / (lam r)``, so
    ``c = 1 / (lam r)`` and ``beta = c / (1 + c v) = 1 / (lam r + v)``."""
    c = 1.0 / (lam * r)
    return c, c / (1.0 + c * v)


@jit
def nherd_alpha(m: float, v: float, C: float) -> float:
    """NHERD (Crammer & Lee, NIPS 2010): ``alpha = max(0, 1 - m) / (v + 1/C)``.

    The mean moves as AROW's with ``r = 1/C`` (derivation in :mod:`olearn.core.cw`); a C so
    small that ``1/C`` overflows gives ``alpha = 0``, the limit C -> 0.

    >>> nherd_alpha(0.0, 1.0, 1.0), arow_alpha(0.0, 1.0, 1.0)
    (0.5, 0.5)
    """
    return max(0.0, 1.0 - m) / (v + 1.0 / C)


@jit
def nherd_c_beta(v: float, C: float, lam: float = 1.0) -> tuple[float, float]:
    """``(c, beta)`` of NHERD: the covariance ``A Sigma A'`` of the herded Gaussian.

    With ``q = 1/C``: ``beta = (2 lam q + v) / (lam q + v)^2`` (``Sigma' = Sigma - beta
    Sigma Delta Delta' Sigma``; for lam = 1 the paper's ``(C^2 v + 2C) / (1 + C v)^2``) and
    ``c = beta / (1 - beta v) = (2 lam q + v) / (lam q)^2`` (``inv(Sigma') = inv(Sigma) +
    c Delta Delta'``; for lam = 1 the paper's projected ``2C + C^2 v``).  Computed as
    ``c = u (2 + v u)`` with ``u = 1 / (lam q)`` and ``beta = (1 + lam q / p) / p`` with
    ``p = lam q + v``: no intermediate overflows over the whole range of C (``2 lam q`` and
    ``(lam q)^2`` would, for C near 1e-308, and give inf / inf); ``(0, 0)`` when ``lam / C``
    overflows (C -> 0).

    >>> C, v = 0.7, 1.3
    >>> c, beta = nherd_c_beta(v, C)
    >>> abs(c - (2 * C + C * C * v)) < 1e-14
    True
    >>> abs(beta - (C * C * v + 2 * C) / (1 + C * v) ** 2) < 1e-15
    True
    """
    lq = lam * (1.0 / C)
    if lq == math.inf:
        return 0.0, 0.0
    u = 1.0 / lq
    p = lq + v
    return u * (2.0 + v * u), (1.0 + lq / p) / p


@jit
def narow_r(v: float, b: float) -> float:
    """NAROW's adaptive ``r_t`` (Orabona & Crammer, NIPS 2010): ``v / (b v - 1)`` when
    ``v > 1/b``, else infinite (no update).  AROW's step with this r leaves the margin
    variance at exactly ``1/b`` (lam = 1; :mod:`olearn.core.cw`).

    >>> narow_r(2.0, 1.0), narow_r(0.5, 1.0)
    (2.0, inf)
    """
    if b * v <= 1.0:
        return math.inf
    return v / (b * v - 1.0)


@jit
def scw2_alpha(m: float, v: float, phi: float, C: float, lam: float = 1.0) -> float:
    """SCW-II (ICML 2012): constraint ``m + alpha n = phi s`` with ``n = v + 1/(2C)``.

    ``s`` is the positive root of ``(phi^2 v + n lam) s^2 - m phi v s - n lam v``; for lam = 1
    this is the paper's ``(-(2mn + phi^2 m v) + gamma) / (2(n^2 + n v phi^2))``.

    Divided by n (``rho = v / n`` in [0, 1)), the quadratic is ``(phi^2 rho + lam) s^2 -
    m phi rho s - lam v``: no term grows faster than v, so the step stays finite for every
    ``C > 0`` (C = 1e-300 made ``q n v`` overflow, then ``alpha = inf`` and a division by
    zero; a C whose ``1/(2C)`` overflows gives ``n = inf``, ``rho = 0`` and the passive
    step, the limit C -> 0).

    >>> phi = phi_of(0.75)
    >>> abs(scw2_alpha(0.2, 0.9, phi, 0.5) - scw2_alpha_printed(0.2, 0.9, phi, 0.5)) < 1e-15
    True
    >>> scw2_alpha(0.0, 1.0, phi, 1e-300) > 0.0, scw2_alpha(0.0, 1.0, phi, 5e-324)
    (True, 0.0)
    """
    n = v + 1.0 / (2.0 * C)
    rho = v / n
    q = phi * phi * rho + lam
    disc = math.sqrt(m * m * phi * phi * rho * rho + 4.0 * q * lam * v)
    if m >= 0.0:
        s = (m * phi * rho + disc) / (2.0 * q)
    else:
        s = 2.0 * lam * v / (disc - m * phi * rho)
    return max(0.0, (phi * s - m) / n)


def scw2_alpha_printed(m: float, v: float, phi: float, C: float) -> float:
    """The SCW paper's printed SCW-II step (binary, lam = 1)."""
    n = v + 1.0 / (2.0 * C)
    gamma = phi * math.sqrt(phi * phi * m * m * v * v + 4.0 * n * v * (n + v * phi * phi))
    denominator = 2.0 * (n * n + n * v * phi * phi)
    return max(0.0, (-(2.0 * m * n + phi * phi * m * v) + gamma) / denominator)


# --- known mistakes in peers' code, evaluated (not ported) for the teaching page ---------


def scw2_alpha_libol_typo(m: float, v: float, phi: float, C: float) -> float:
    """SCW-II's step with the two typos REFERENCES.md B.4 records in LIBOL's ``SCW2.m``.

    ``phi^4 m^2 v 2`` where ``phi^2 m^2 v^2`` belongs under the root, and ``n + v phi 2`` where
    ``n + v phi^2`` belongs.  Only for showing that it does not tend to exact CW as C grows.
    """
    n = v + 1.0 / (2.0 * C)
    gamma = phi * math.sqrt(phi**4 * m * m * v * 2.0 + 4.0 * n * v * (n + v * phi * 2.0))
    denominator = 2.0 * (n * n + n * v * phi * phi)
    return max(0.0, (-(2.0 * m * n + phi * phi * m * v) + gamma) / denominator)


def phi_pypi_scw_bug(eta: float) -> float:
    """The PyPI ``scw`` package's ``phi = norm.cdf(eta)``: a probability, not the quantile."""
    return 0.5 * math.erfc(-eta / math.sqrt(2.0))
