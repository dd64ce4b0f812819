"""``fit`` / ``partial_fit`` / ``learn_stream`` over a chunked store, one chunk in memory.

A *stream* is any object with ``chunks()`` (yielding ``(X, y)`` in order), ``chunk(i)``,
``chunk_order(rng)``, ``n_rows`` and ``classes`` (:class:`olearn.datasets.store.Store`); the
estimators recognise it by :func:`is_stream` (duck typing: the estimators do not import the
datasets layer).  Each chunk goes through ``partial_fit``'s validation and kernel, so:

- ``partial_fit(store)`` / ``learn_stream(store)`` equal ``partial_fit(X, y)`` /
  ``learn_stream(X, y)`` on the store's rows in memory, exactly (a class joins at its first
  row; a family that cannot add classes is given the store's ``classes`` on its first chunk);
- ``fit(store)`` with ``shuffle=False`` equals ``fit(X, y)`` on those rows, exactly (every
  class declared before the first row, ``epochs`` passes in order).  With ``shuffle=True``
  each epoch visits the chunks in a random order and each chunk's rows in a random order
  (``random_state``): a shuffle within memory, not the in-memory fit's global permutation.

Memory: one chunk (its CSR arrays are memory maps; a shuffled chunk is copied once) plus the
model.  ``tol``, ``early_stopping`` and ``sample_weight`` need all rows at once: with a
store they are refused (ValueError).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state


def is_stream(X) -> bool:
    """True for a chunked store (an object with ``chunks`` and ``chunk_order``)."""
    return hasattr(X, "chunks") and hasattr(X, "chunk_order") and hasattr(X, "classes")


def _refuse(estimator, y, what: str, **given) -> None:
    name = type(estimator).__name__
    if y is not None:
        raise ValueError(f"{name}.{what}: a store holds its labels; call {what}(store) without y")
    extra = sorted(k for k, v in given.items() if v is not None)
    if extra:
        raise ValueError(f"{name}.{what}: {', '.join(extra)} cannot be used with a store")


def fit(estimator, store, y, coef_init, intercept_init, sample_weight):
    """``epochs`` passes over ``store`` (module docstring); the estimator's ``fit`` calls
    this inside its failure rule (a failed fit leaves it unfitted)."""
    _refuse(estimator, y, "fit", coef_init=coef_init, intercept_init=intercept_init,
            sample_weight=sample_weight)  # fmt: skip
    estimator._validate_params()
    if estimator.tol is not None or estimator.early_stopping:
        raise ValueError(
            f"{type(estimator).__name__}.fit: tol and early_stopping need every row in memory; "
            "with a store set tol=None and early_stopping=False"
        )
    warm = bool(estimator.warm_start) and hasattr(estimator, "classes_")
    if not warm:
        estimator._forget()
    rng = check_random_state(estimator.random_state) if estimator.shuffle else None
    classes = None if warm else store.classes
    bar = _bar(store, estimator.epochs)
    try:
        for _ in range(estimator.epochs):
            for i in store.chunk_order(rng):
                X, labels = store.chunk(int(i))
                if rng is not None:
                    order = rng.permutation(X.shape[0])
                    X, labels = X[order], labels[order]
                estimator._partial(X, labels, classes, record_mistakes=False)
                classes = None
                if bar is not None:
                    bar.update(X.shape[0])
    finally:
        if bar is not None:
            bar.close()
    estimator.n_iter_ = estimator.epochs
    return estimator


def _bar(store, epochs: int):
    """A tqdm bar of rows over every epoch when the store asks for progress, else None."""
    if not getattr(store, "progress", False):
        return None
    from tqdm.auto import tqdm

    return tqdm(total=store.n_rows * epochs, unit="row", unit_scale=True, desc="fit")


def partial(estimator, store, y, classes, sample_weight, record_mistakes: bool):
    """One pass over ``store`` in order (``partial_fit`` / ``learn_stream``); with
    ``record_mistakes`` returns the mistakes of every row (bool, ``store.n_rows``)."""
    _refuse(estimator, y, "learn_stream" if record_mistakes else "partial_fit",
            sample_weight=sample_weight)  # fmt: skip
    if classes is None and not estimator._grows and not hasattr(estimator, "classes_"):
        classes = store.classes
    mistakes = np.zeros(store.n_rows if record_mistakes else 0, dtype=np.bool_)
    start = 0
    for X, labels in store.chunks():
        seen = estimator._partial(X, labels, classes, record_mistakes)
        if record_mistakes:
            mistakes[start : start + X.shape[0]] = seen
        start += X.shape[0]
        classes = None
    return mistakes
