"""The public state's layout and its checks (``get_state`` / ``set_state``).

A state is a dict of plain arrays and scalars: the common keys below, and a family's arrays,
each declared by the family as ``{key: (shape, kind)}`` and checked here before anything is
loaded (kinds: "real" float64, "positive" float64 > 0 (a variance), "factor" a non-singular
square root of a covariance, "count" int64 >= 0).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

STATE_VERSION = 1
COMMON_KEYS = frozenset(
    {"version", "params", "classes", "n_features_in", "feature_names_in", "t", "n_updates",
     "n_iter"}
)  # fmt: skip


def state_sizes(name: str, state: dict, classes: np.ndarray, least: int) -> tuple[int, int]:
    """``(K, d)`` from a state's classes and width, checked."""
    if classes.ndim != 1 or classes.shape[0] < least:
        raise ValueError(f"{name}.set_state: 'classes' must be 1-D with >= {least} labels")
    if len(set(classes.tolist())) != classes.shape[0]:
        raise ValueError(f"{name}.set_state: 'classes' holds a label twice")
    d = state.get("n_features_in")
    if isinstance(d, bool) or not isinstance(d, Integral) or d < 1:
        raise ValueError(f"{name}.set_state: 'n_features_in' must be a positive int, got {d!r}")
    return classes.shape[0], int(d)


def check_keys(name: str, state: dict, family: set) -> None:
    expected = COMMON_KEYS | family
    missing, extra = expected - set(state), set(state) - expected
    if missing or extra:
        raise ValueError(
            f"{name}.set_state: missing keys {sorted(missing)}, unexpected keys {sorted(extra)} "
            "(a dict from this class's get_state, with the same parameters)"
        )


def count(name: str, key: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 0:
        raise ValueError(f"{name}.set_state: {key!r} must be an int >= 0, got {value!r}")
    return int(value)


def state_array(name: str, key: str, value, shape: tuple, kind: str) -> np.ndarray:
    """A float64 (``kind`` "real" / "positive" / "factor") or int64 ("count") copy of a state
    array, checked: its shape, a real (or integer) dtype, finite, and > 0 or >= 0 by kind."""
    array = np.asarray(value)
    if array.shape != shape:
        raise ValueError(f"{name}.set_state: {key!r} has shape {array.shape}, expected {shape}")
    integer = kind == "count"
    if array.dtype.kind not in ("iu" if integer else "iuf"):
        what = "integers" if integer else "real numbers"
        raise ValueError(f"{name}.set_state: {key!r} must hold {what}, got dtype {array.dtype}")
    array = np.array(array, dtype=np.int64 if integer else np.float64, order="C")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name}.set_state: {key!r} holds NaN or infinity")
    if kind == "factor" and np.linalg.slogdet(array)[0] == 0:
        raise ValueError(
            f"{name}.set_state: {key!r} is singular: A A' must be a positive definite covariance"
        )
    if (kind == "positive" and not np.all(array > 0)) or (integer and np.any(array < 0)):
        bound = "> 0 (a variance)" if kind == "positive" else ">= 0"
        raise ValueError(f"{name}.set_state: every entry of {key!r} must be {bound}")
    return array


def check_feature_names(name: str, names, d: int):
    """``feature_names_in``: None, or ``d`` strings (an object array)."""
    if names is None:
        return None
    names = np.asarray(names, dtype=object)
    if names.shape != (d,) or not all(isinstance(v, str) for v in names):
        raise ValueError(f"{name}.set_state: 'feature_names_in' must be {d} strings")
    return names
