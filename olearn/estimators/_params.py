"""Hyper-parameters at the estimators' boundary: scikit-learn constraints with readable names,
``__init__``'s one line, and the parameter check every ``fit`` / ``partial_fit`` runs."""

from __future__ import annotations

import functools
from numbers import Real

from sklearn.utils._param_validation import Interval, make_constraint

from olearn.estimators.engine.base import FLOAT_MAX

__all__ = ["FLOAT_MAX", "POSITIVE", "Bounded", "store_params", "validate_params"]


class _PositiveFinite(Interval):
    """``0 < value < inf`` (an Interval with a readable name in error messages)."""

    def __init__(self):
        super().__init__(Real, 0.0, FLOAT_MAX, closed="neither")

    def __str__(self) -> str:
        return "a positive finite number"


POSITIVE = _PositiveFinite()


class Bounded(Interval):
    """``low <= value <= high`` (closed), with the reason for the bounds in error messages."""

    def __init__(self, low: float, high: float, reason: str):
        super().__init__(Real, low, high, closed="both")
        self.reason = reason

    def __str__(self) -> str:
        return f"a number in [{self.left:.3g}, {self.right:.3g}] ({self.reason})"


def store_params(estimator, scope: dict) -> None:
    """``__init__``'s whole job (scikit-learn's rule): store every argument unchanged.

    ``store_params(self, locals())`` as an ``__init__``'s only line; the signature keeps the
    parameters explicit for ``get_params``.
    """
    for name, value in scope.items():
        if name not in ("self", "__class__"):
            setattr(estimator, name, value)


@functools.cache
def _constraint_objects(cls: type) -> dict:
    """``cls._parameter_constraints`` as scikit-learn's constraint objects, built once."""
    return {
        name: [make_constraint(c) for c in constraints]
        for name, constraints in cls._parameter_constraints.items()
        if constraints != "no_validation"
    }


def validate_params(estimator) -> None:
    """scikit-learn's parameter check, with its constraint objects built once per class (it
    runs on every ``partial_fit`` call, and building them took ~20 us a parameter); a failing
    value is checked again by scikit-learn's own method, which raises its
    InvalidParameterError, word for word."""
    checks = _constraint_objects(type(estimator))
    for name, value in estimator.get_params(deep=False).items():
        constraints = checks.get(name)
        if constraints is not None and not any(c.is_satisfied_by(value) for c in constraints):
            estimator._validate_params()  # scikit-learn's own, for its message
