"""Small helpers shared by the readable rules (validation, the best wrong class)."""

from __future__ import annotations

import numpy as np

# An update is judged "satisfied" up to this relative slack (floating point only).
MARGIN_TOL = 1e-9

from olearn._numerics import TINY_SQNORM  # noqa: E402,F401  (re-exported for the rules)


def check_state(W: np.ndarray, x: np.ndarray, y: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Validate one (W, x, y) triple and return float copies.

    ``W`` has one row per class, shape (K, d); ``x`` has shape (d,); ``y`` is a row index.
    """
    W = np.array(W, dtype=float, copy=True)
    x = np.asarray(x, dtype=float)
    if W.ndim != 2 or W.shape[0] < 2:
        raise ValueError(f"W must have shape (K, d) with K >= 2 classes, got {W.shape}")
    if x.ndim != 1 or x.shape[0] != W.shape[1]:
        raise ValueError(f"x must have shape ({W.shape[1]},), got {x.shape}")
    if not (0 <= int(y) < W.shape[0]):
        raise ValueError(f"y must be a class index in [0, {W.shape[0]}), got {y}")
    if not (np.all(np.isfinite(W)) and np.all(np.isfinite(x))):
        raise ValueError("W and x must be finite (no NaN or inf)")
    return W, x, int(y)


def check_positive(name: str, value: float) -> float:
    """``float(value)``; a ValueError naming ``name`` unless it is positive and finite."""
    value = float(value)
    if not (value > 0 and np.isfinite(value)):
        raise ValueError(f"{name} must be a positive finite number, got {value}")
    return value


def check_C(C: float) -> float:
    return check_positive("C", C)


def check_weight(weight: float) -> float:
    """An example's weight ``s >= 0`` (finite) as a float; 0 makes the step passive (the
    example is absent).  What ``s`` means per rule is in each rule's docstring, *Weights*."""
    weight = float(weight)
    if not (weight >= 0 and np.isfinite(weight)):
        raise ValueError(f"an example's weight must be finite and >= 0, got {weight}")
    return weight


# What an example's weight s scales in the PA and SPA rules: their price ``C_i = s C`` (the
# weighted QP, olearn's default) or the step itself (scikit-learn's weighted PA).
WEIGHT_SCALES = ("C", "step")


def check_weight_scales(weight_scales: str) -> str:
    """``"C"`` or ``"step"`` (:data:`WEIGHT_SCALES`), else ValueError."""
    if weight_scales not in WEIGHT_SCALES:
        raise ValueError(f"weight_scales must be 'C' or 'step', got {weight_scales!r}")
    return weight_scales


def best_rival(scores: np.ndarray, y: int) -> int:
    """The highest-scoring wrong class ``argmax_{u != y} scores[u]`` (lowest index on ties)."""
    masked = np.array(scores, dtype=float, copy=True)
    masked[y] = -np.inf
    return int(np.argmax(masked))


def margins_of(scores: np.ndarray, y: int) -> np.ndarray:
    """Margins ``s_y - s_u`` for every class; NaN at ``y`` (the correct class has none)."""
    m = scores[y] - np.asarray(scores, dtype=float)
    m[y] = np.nan
    return m


def is_correct(scores: np.ndarray, y: int) -> bool:
    """True when ``y`` scores strictly above every other class."""
    others = np.delete(np.asarray(scores, dtype=float), y)
    return bool(scores[y] > others.max())
