"""``fit`` / ``partial_fit`` / ``learn_stream`` over a chunked store, one chunk in memory.

A *stream* is any object with ``chunks()`` (yielding ``(X, y)`` in order), ``chunk(i)``,
``chunk_order(rng)``, ``n_rows``, ``n_features`` and ``classes``
(:class:`olearn.datasets.store.Store`); the estimators recognise it by :func:`is_stream` (duck
typing: the estimators do not import the datasets layer).  Every chunk enters the model
through the engine's door (:meth:`olearn.estimators.engine.OnlineEngine.check`) before
anything shuffles or indexes it, and only through the estimator's public methods
(``new_engine``, ``tuned_engine``, ``engine_``), so:

- ``partial_fit(store)`` / ``learn_stream(store)`` equal ``partial_fit(X, y)`` /
  ``learn_stream(X, y)`` on the store's rows in memory, exactly (a class joins at its first
  row; a family that cannot add classes is given the store's ``classes``), and like them are
  all or nothing: the pass runs on a copy of the model, which replaces it only when every
  chunk has been learned (a chunk refused at the door leaves the model as it was; the copy
  costs one model's memory for the call);
- ``fit(store)`` with ``shuffle=False`` equals ``fit(X, y)`` on those rows, exactly (every
  class declared before the first row, ``epochs`` passes in order).  With ``shuffle=True``
  each epoch visits the chunks in a random order and each chunk's rows in a random order
  (``random_state``): a shuffle within memory, not the in-memory fit's global permutation.
  A store of no rows is refused.

Memory: one chunk (its CSR arrays are memory maps; they are read in place, in the shuffled
order, never copied) plus the model.  ``tol``, ``early_stopping`` and ``sample_weight`` need
all rows at once: with a store they are refused (ValueError).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state


def is_stream(X) -> bool:
    """True for a chunked store (an object with ``chunks`` and ``chunk_order``)."""
    return hasattr(X, "chunks") and hasattr(X, "chunk_order") and hasattr(X, "classes")


def _refuse(estimator, store, y, what: str, **given) -> None:
    name = type(estimator).__name__
    if y is not None:
        raise ValueError(f"{name}.{what}: a store holds its labels; call {what}(store) without y")
    extra = sorted(k for k, v in given.items() if v is not None)
    if extra:
        raise ValueError(f"{name}.{what}: {', '.join(extra)} cannot be used with a store")
    if int(store.n_rows) == 0:
        raise ValueError(f"{name}.{what}: the store holds no rows: nothing to learn from")


def fit(estimator, store, y, coef_init, intercept_init, sample_weight):
    """``epochs`` passes over ``store`` (module docstring); the estimator's ``fit`` calls
    this inside its failure rule (a failed fit leaves it unfitted)."""
    _refuse(estimator, store, y, "fit", coef_init=coef_init, intercept_init=intercept_init,
            sample_weight=sample_weight)  # fmt: skip
    estimator.check_params()
    name = type(estimator).__name__
    if estimator.tol is not None or estimator.early_stopping:
        raise ValueError(
            f"{name}.fit: tol and early_stopping need every row in memory; with a store set "
            "tol=None and early_stopping=False"
        )
    warm = bool(estimator.warm_start) and hasattr(estimator, "engine_")
    if warm:
        engine = estimator.tuned_engine("continue with a warm-start fit")
        engine.n_iter = 0
    else:
        engine = estimator.new_engine(store.n_features, store.classes)
    rng = check_random_state(estimator.random_state) if estimator.shuffle else None
    bar = _bar(store, estimator.epochs)
    try:
        for _ in range(estimator.epochs):
            for i in store.chunk_order(rng):
                X, labels = store.chunk(int(i))
                batch = engine.check(X, labels)
                if batch.y_idx is None:
                    raise ValueError(
                        f"{name}.fit: chunk {int(i)} of the store holds labels that are not in "
                        f"{'classes_' if warm else 'its classes'} {engine.classes.tolist()!r}"
                    )
                engine.epochs(batch, 1, rng)  # one pass, in rng's order (in order without)
                if bar is not None:
                    bar.update(batch.n)
    finally:
        if bar is not None:
            bar.close()
    engine.n_iter = estimator.epochs
    estimator.engine_ = engine
    return estimator


def _bar(store, epochs: int):
    """A tqdm bar of rows over every epoch when the store asks for progress, else None."""
    if not getattr(store, "progress", False):
        return None
    from tqdm.auto import tqdm

    return tqdm(total=store.n_rows * epochs, unit="row", unit_scale=True, desc="fit")


def partial(estimator, store, y, classes, sample_weight, record_mistakes: bool):
    """One pass over ``store`` in order (``partial_fit`` / ``learn_stream``), all or nothing;
    with ``record_mistakes`` returns the mistakes of every row (bool, ``store.n_rows``)."""
    _refuse(estimator, store, y, "learn_stream" if record_mistakes else "partial_fit",
            sample_weight=sample_weight)  # fmt: skip
    mistakes = np.zeros(store.n_rows if record_mistakes else 0, dtype=np.bool_)
    engine = None
    if hasattr(estimator, "engine_"):
        engine = estimator.tuned_engine("continue with partial_fit").copy()
    start = 0
    for X, labels in store.chunks():
        if engine is None:  # the first call: declared classes, else the first label (or all)
            grows = estimator.engine_class.grows
            given = classes if classes is not None else (labels[:1] if grows else store.classes)
            engine = estimator.new_engine(store.n_features, given)
            classes = None
        seen = engine.learn_rows(X, labels, declare=classes, record_mistakes=record_mistakes)
        if record_mistakes:
            mistakes[start : start + X.shape[0]] = seen
        start += X.shape[0]
        classes = None
    estimator.engine_ = engine
    return mistakes
