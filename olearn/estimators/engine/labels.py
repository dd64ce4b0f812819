"""Labels at the engine's door: which are refused, how classes are ordered, where a new one joins.

A label may be any hashable value but ``None`` (the "no label" of River, pandas and every
missing-value convention) and NaN (``float("nan")``, ``np.nan``, pandas' ``NA`` / ``NaT``:
values that are not equal to themselves, so a dictionary could never find their class again).
Both are refused with a ValueError before anything changes, on every path: ``fit``,
``partial_fit``, a store's chunk, River's ``learn_one`` / ``learn_many``.

Classes are kept sorted (``np.unique``'s order), so a class that joins mid-stream sits where
``fit`` on the same labels puts it and ties (lowest index wins) break the same way; labels of
kinds that cannot be ordered together fall back to first-appearance order.
"""

from __future__ import annotations

import bisect

import numpy as np


def is_missing(label) -> bool:
    """True for None and for values not equal to themselves (NaN, pandas' NA and NaT)."""
    if label is None:
        return True
    try:
        return bool(label != label)
    except (TypeError, ValueError):  # pandas.NA: its comparison is NA, whose truth is undefined
        return True


def check_labels(labels, n: int, owner: str) -> np.ndarray:
    """``labels`` as a 1-D array of ``n`` labels, each hashable and neither None nor NaN.

    Numeric arrays are checked at once (``isnan``); object arrays label by label.  The array is
    returned as given where it already is one (no copy).

    >>> check_labels(np.array([1, 2]), 2, "PA").tolist()
    [1, 2]
    >>> check_labels([1.0, float("nan")], 2, "PA")
    Traceback (most recent call last):
    ...
    ValueError: PA: label 1 is NaN or None: every sample needs a label (drop unlabelled rows first)
    """
    if isinstance(labels, np.ndarray):
        if labels.ndim != 1:
            raise ValueError(f"{owner}: labels must be 1-D, got shape {labels.shape}")
    else:
        items = list(labels)
        array = np.empty(len(items), dtype=object)
        for i, label in enumerate(items):  # element-wise: tuples stay single labels
            array[i] = label
        labels = _narrow(array)
    if labels.shape[0] != n:
        raise ValueError(f"{owner}: {labels.shape[0]} labels for {n} samples")
    if labels.dtype.kind in "fcmM":
        nan = np.flatnonzero(np.isnat(labels) if labels.dtype.kind in "mM" else np.isnan(labels))
        if nan.size:
            check_label(None, int(nan[0]), owner)
    elif labels.dtype.kind == "O":
        for i, label in enumerate(labels.tolist()):
            check_label(label, i, owner)
    return labels


def check_label(label, row: int, owner: str) -> None:
    """Raise ValueError unless ``label`` (of sample ``row``) is hashable and neither None nor
    NaN."""
    try:
        hash(label)
    except TypeError:
        raise ValueError(
            f"{owner}: label {row} ({label!r}, a {type(label).__name__}) is not hashable; "
            "labels must be hashable values (numbers, strings, tuples ...)"
        ) from None
    if is_missing(label):
        raise ValueError(
            f"{owner}: label {row} is NaN or None: every sample needs a label "
            "(drop unlabelled rows first)"
        )


def _narrow(array: np.ndarray) -> np.ndarray:
    """An object array of plain numbers or strings as numpy's own dtype (as ``np.asarray``
    would make it), so the vectorised lookups apply; anything else stays object."""
    kinds = {type(v) for v in array.tolist()}
    if len(kinds) == 1 and kinds <= {int, float, bool, str}:
        return np.asarray(array.tolist())
    return array


def encode_classes(y: np.ndarray) -> np.ndarray:
    """Sorted unique labels (first-appearance order when labels of mixed types can't sort)."""
    try:
        return np.unique(y)
    except TypeError:
        seen: dict = {}
        for label in y:
            seen.setdefault(label, None)
        out = np.empty(len(seen), dtype=object)
        for i, label in enumerate(seen):
            out[i] = label
        return out


def with_class(classes: np.ndarray, label, y_dtype) -> tuple[int, np.ndarray]:
    """Where a new ``label`` joins ``classes``, and the grown array of classes.

    Sorted ``classes`` stay sorted: the new class sits where ``fit`` on the same labels puts
    it, so ties (lowest index wins) break the same way, and a class declared up front with
    ``classes=`` has the same column.  A label that cannot be ordered with them (mixed types;
    classes already in first-appearance order) is appended, the order :func:`encode_classes`
    falls back to.
    """
    labels = classes.tolist()
    numeric = {np.dtype(t).kind in "biuf" for t in (classes.dtype, y_dtype)}
    strings = {np.dtype(t).kind == "U" for t in (classes.dtype, y_dtype)}
    dtype = np.dtype(object)  # numbers with strings (numpy would make the numbers strings)
    if numeric == {True} or strings == {True}:
        dtype = np.promote_types(classes.dtype, y_dtype)  # e.g. '<U3' and '<U5': '<U5'

    position = len(labels)
    try:
        if sorted(labels) == labels:
            position = bisect.bisect_left(labels, label)
    except TypeError:  # incomparable kinds: first-appearance order
        pass
    ordered = [*labels[:position], label, *labels[position:]]
    grown = np.empty(len(ordered), dtype=dtype)
    for i, value in enumerate(ordered):  # element-wise: tuples stay single labels
        grown[i] = value
    return position, grown


def index_of(classes: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``y``'s class indices in ``classes``, or None when some label is not a class."""
    if classes.dtype != object and y.dtype != object:
        try:  # sorted classes (np.unique): a vectorised lookup, no Python loop
            idx = np.minimum(np.searchsorted(classes, y), classes.shape[0] - 1)
            if np.all(classes[idx] == y):
                return idx.astype(np.int64)
        except (TypeError, ValueError, np.exceptions.DTypePromotionError):
            pass  # incomparable kinds (e.g. str classes, int y): the general path
    index = {label: i for i, label in enumerate(classes.tolist())}
    try:
        return np.fromiter((index[label] for label in y.tolist()), np.int64, len(y))
    except KeyError:
        return None


def unknown_labels_error(classes: np.ndarray, y: np.ndarray, how: str) -> ValueError:
    """The error for labels of ``y`` that are not in ``classes``, with ``how`` to add them."""
    known = set(classes.tolist())
    unknown = sorted({repr(v) for v in y.tolist() if v not in known})
    kinds = sorted({type(v).__name__ for v in classes.tolist()})
    return ValueError(
        f"labels {', '.join(unknown)} are not in classes_ {[*classes.tolist()]!r} "
        f"(of type {'/'.join(kinds)}); {how}"
    )


def new_labels(classes: np.ndarray, y: np.ndarray, declared) -> list:
    """``(row, label)`` for every label not yet in ``classes``, at its first row (a label
    declared up front joins at row 0); [] when all are known.

    A new label that prints like a known one (0 where "0" is a class) is refused: almost
    surely the wrong type, not a new class.
    """
    known = set(classes.tolist())
    joins = []
    for label in [] if declared is None else list(declared):
        if label not in known:
            known.add(label)
            joins.append((0, label))
    for row, label in enumerate(y.tolist()):
        if label not in known:
            known.add(label)
            joins.append((row, label))
    if joins:
        names = {str(label): type(label).__name__ for label in classes.tolist()}
        alike = [label for _, label in joins if str(label) in names]
        if alike:
            kinds = sorted({names[str(label)] for label in alike})
            raise ValueError(
                f"labels {', '.join(map(str, alike))} are not in classes_ "
                f"{classes.tolist()!r} but read like its labels of type "
                f"{'/'.join(kinds)}; pass labels of the classes' own type (a new class must "
                "not look like a known one)"
            )
    return joins
