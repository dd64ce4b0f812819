"""The Gaussian state of the confidence-weighted rules: its checks, the step's direction
statistics (m, v, Sigma x) and the two covariance updates (square-root full, diagonal).

The mathematics is in :mod:`olearn.core.cw`'s docstring; the rules live there too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from olearn.core._common import best_rival

COVARIANCES = ("diagonal", "full")
DIAGONAL_FORMS = ("precision", "truncated")
CW_FORMS = ("exact", "variance")
MAX_FULL_DIM = 2000  # full covariance is O(d^2) memory and time per step: teaching size only
TRACE_FULL_MAX = 64  # traces of larger full-covariance steps keep only the diagonals


class CWState(NamedTuple):
    """A Gaussian over the weights.

    Attributes
    ----------
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


def check_state(state, x, y):
    """Validate ``(state, x, y)``; returns float copies ``(mu, Sigma, factor, x, y, multiclass)``
    (``factor`` is the Cholesky factor of a full Sigma when the state carries none)."""
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


@dataclass(frozen=True)
class DeltaStats:
    """What a step needs of the state along ``Delta`` (see :mod:`olearn.core.cw`)."""

    scores: np.ndarray  # mu.x (binary: one value) or mu_k.x per class
    rival: int  # best wrong class (multiclass; -1 binary)
    g: np.ndarray  # Sigma x
    w: np.ndarray | None  # A'x (full covariance)
    x_Sigma_x: float
    m: float  # margin along Delta
    v: float  # its variance (2 x'Sigma x multiclass)


def delta_stats(mu, Sigma, factor, x, y, multiclass) -> DeltaStats:
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
    return DeltaStats(scores, rival, g, w, x_Sigma_x, m, v)


def factor_update(A, g, w, c_x, x_Sigma_x):
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


def diagonal_update(Sigma, x, g, c_x, beta_x, diagonal_form):
    """``1/Sigma_j += c_x x_j^2`` ("precision") or ``Sigma_j -= beta_x g_j^2`` ("truncated")."""
    if diagonal_form == "precision":
        return Sigma / (1.0 + c_x * Sigma * x * x)  # 1/Sigma_j += c_x x_j^2
    return Sigma - beta_x * g * g  # diag(Sigma - beta_x Sigma x x' Sigma)
