"""``sample_weight`` and ``class_weight`` at the estimators' boundary: one weight per example.

An example's weight is ``s_i = sample_weight[i] * class_weight[y_i]`` (scikit-learn's product).
What ``s_i`` means for each rule is derived in the readable rules' docstrings
(:mod:`olearn.core.pa`, :mod:`olearn.core.spa`, :mod:`olearn.core.cw`,
:mod:`olearn.core.sgd_svm`) and in the batch estimators' *Notes*.

A weight of 0 is the example's absence, exactly: such rows are removed here, before the
classes are read, before ``fit``'s shuffle draws its order and before any counter (``t_``)
moves, so the model equals the one learned without them bit for bit.  When every weight left
is 1 the plain path runs (no weights at all), so ``sample_weight=np.ones(n)`` is the same
computation as ``sample_weight=None``.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils import check_array
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.class_weight import compute_class_weight

# the ``_parameter_constraints`` entry of ``class_weight`` (every estimator)
CLASS_WEIGHT_CONSTRAINT = [dict, StrOptions({"balanced"}), None]

ALL_ZERO = (
    "every sample weight is zero (sample_weight x class_weight): nothing to learn from; "
    "sample weights must contain at least one non-zero number"
)


def unused_weight_message(who: str, rule: str, remedy: str) -> str:
    """The warning of a model whose rule cannot use a weight's size (the estimators' and the
    River adapter's, once per model: :meth:`~olearn.estimators.engine.OnlineEngine.
    warn_unused_weight`): ``who`` the caller, ``rule`` its name, ``remedy`` what to use."""
    return (
        f"{who}: the {rule} rule has no price to scale, so an example weight w > 0 steps as "
        "w = 1 does: the weights' sizes are ignored (w = 0 still drops the example).  For "
        f"weights that grade the step, {remedy}.  Shown once per model."
    )


def _check_sample_weight(sample_weight, n: int) -> np.ndarray:
    sw = check_array(
        sample_weight, ensure_2d=False, dtype=np.float64, input_name="sample_weight", copy=False
    )
    if sw.shape != (n,):
        raise ValueError(f"sample_weight must have shape ({n},), got {sw.shape}")
    if np.any(sw < 0):
        raise ValueError("sample_weight must be >= 0 (a weight of 0 removes the example)")
    return sw


def _class_weights(class_weight, y: np.ndarray, partial: bool) -> np.ndarray:
    """Each example's class weight (1 for a class the dict does not name)."""
    if isinstance(class_weight, str):  # "balanced"
        if partial:
            raise ValueError(
                "class_weight='balanced' needs the whole training set's class frequencies, "
                "which partial_fit does not see; compute them once with "
                "sklearn.utils.class_weight.compute_class_weight('balanced', classes=..., y=...) "
                "and pass the resulting dict as class_weight (scikit-learn's advice)"
            )
        classes, index = np.unique(y, return_inverse=True)
        return compute_class_weight("balanced", classes=classes, y=y)[index]
    for label, value in class_weight.items():
        if isinstance(value, bool) or not isinstance(value, Real) or not value >= 0:
            raise ValueError(f"class_weight[{label!r}] must be a number >= 0, got {value!r}")
        if not np.isfinite(value):
            raise ValueError(f"class_weight[{label!r}] must be finite, got {value!r}")
    return np.fromiter(
        (float(class_weight.get(label, 1.0)) for label in y.tolist()), np.float64, len(y)
    )


def check_class_weight_keys(class_weight, classes) -> None:
    """Refuse a ``class_weight`` dict naming a label that is not a class (scikit-learn's rule:
    a key for no class is almost surely a typo or a label of the wrong type, and ignoring it
    would silently weigh that class 1)."""
    if not isinstance(class_weight, dict):
        return
    known = set(np.asarray(classes, dtype=object).tolist())
    unknown = [key for key in class_weight if key not in known]
    if unknown:
        raise ValueError(
            f"The classes, {unknown!r}, are not in class: class_weight names labels that are "
            f"not among the classes {sorted(known, key=repr)!r} (with partial_fit, declare a "
            "class that has not arrived yet with classes=...)"
        )


def example_weights(X, y: np.ndarray, sample_weight, class_weight, *, partial: bool,
                    classes=None):  # fmt: skip
    """``(X, y, weights, kept)``: the rows of positive weight and their weights.

    ``weights`` is None when no weight was given or every kept weight is 1 (the plain path);
    ``kept`` is None when no row was removed, else the boolean mask of the kept rows.
    ``fit`` (``partial=False``) refuses all-zero weights (scikit-learn's rule); a
    ``partial_fit`` batch of zero weights keeps nothing (the call learns nothing).  A
    ``class_weight`` key must name a class: one of ``classes`` (default: ``y``'s labels).
    """
    if class_weight is not None:
        check_class_weight_keys(class_weight, y if classes is None else classes)
    if sample_weight is None and class_weight is None:
        return X, y, None, None
    n = y.shape[0]
    weights = np.ones(n) if sample_weight is None else _check_sample_weight(sample_weight, n)
    kept = None
    if np.any(weights == 0):  # absent before the class frequencies of "balanced" are read
        kept = weights > 0
        X, y, weights = X[kept], y[kept], weights[kept]
    if class_weight is not None and y.shape[0] > 0:
        weights = weights * _class_weights(class_weight, y, partial)
        if np.any(weights == 0):
            positive = weights > 0
            if kept is None:
                kept = positive
            else:
                kept[kept] = positive
            X, y, weights = X[positive], y[positive], weights[positive]
    if not partial and y.shape[0] == 0:
        raise ValueError(ALL_ZERO)
    if not np.all(np.isfinite(weights)):
        raise ValueError("sample_weight x class_weight overflows float64; scale them down")
    if np.all(weights == 1.0):
        weights = None
    else:
        weights = np.ascontiguousarray(weights, dtype=np.float64)
    return X, y, weights, kept
