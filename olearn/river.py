"""olearn inside River: every online algorithm of the registry as a River classifier.

:class:`Classifier` wraps an olearn estimator (``registry.get(algorithm).make(**params)``) and
speaks River's ``base.MiniBatchClassifier`` interface: ``learn_one`` / ``predict_one`` on
dicts, ``learn_many`` / ``predict_many`` on pandas DataFrames.

- Features are dicts ``{name: number}``; names may appear and disappear.  By default each new
  name gets the next column of a growing index (no collisions); the model's width doubles
  when the index outgrows it (amortised O(1) per new name), through the engine's
  :meth:`~olearn.estimators.engine.OnlineEngine.widen`: new columns get a zero weight and, for
  the confidence-weighted family, the prior variance ``a`` (diagonal) or an ``sqrt(a) I`` block
  of the covariance's square root (full).  A column that no sample has touched is never read
  by the kernels, so a wider model learns the same.  A sample refused (its values, its label,
  a width over the memory budget or the full covariance's limit) leaves the model and the
  index as they were.
  With ``n_hash_features=N`` names are hashed instead into a fixed width N, for unbounded
  vocabularies: scikit-learn's ``FeatureHasher(n_features=N, alternate_sign=False)`` bucket,
  ``|MurmurHash3_32(name, seed=0)| mod N`` (of ``repr(name)`` for a name that is not a
  str); values that share a bucket add up.
- Labels of any hashable type but None and NaN may appear at any time: a new label joins with
  a zero weight row (the prior mean) at its first sample, as in ``partial_fit`` (the
  estimators' docs); None and NaN are refused (ValueError) and change nothing.
- Zero values are absent features; a DataFrame's NaN is an absent feature (what pandas puts
  where a dict has no key); other values must be finite numbers.
- ``learn_many(X, y)`` equals ``learn_one`` over the rows in order, bit for bit (the same CSR
  rows reach the same kernel), when X's columns are in the order the names first appeared.
- ``predict_proba_one`` exists for the confidence-weighted family (CW, AROW, SCW, ...): the
  probability that each class scores highest for weights drawn from the learned Gaussian
  (``predict_proba`` of the estimators).  The Perceptron, PA and SPA rules define no
  probability, so there it raises NotImplementedError, River's own answer for a classifier
  without one (its checks accept it); River's binary ``PAClassifier`` returns the sigmoid of
  the margin instead, a number no PA paper defines or calibrates.

The per-sample path skips scikit-learn's validation: a dict becomes one CSR row (indices
sorted, zeros dropped) that enters the model through its engine's door
(:meth:`olearn.estimators.engine.OnlineEngine.learn_rows`: structure, values, ``||x||^2``,
label, all checked before anything changes), counters and class growth as ``partial_fit``
keeps them.

>>> from olearn.river import Classifier
>>> model = Classifier("arow", r=0.5)
>>> stream = [({"a": 1.0, "b": 0.5}, "x"), ({"b": 1.0, "c": 2.0}, "y"), ({"a": 1.0}, "x")]
>>> for x, y in stream * 3:
...     model.learn_one(x, y)
>>> model.predict_one({"a": 2.0}), model.predict_one({"c": 1.0})
('x', 'y')
>>> sorted(model.predict_proba_one({"c": 1.0}).items())  # doctest: +ELLIPSIS
[('x', 0.0...), ('y', 0.9...)]
"""

from __future__ import annotations

import math
from itertools import repeat
from typing import Any

import numpy as np
import scipy.sparse as sp

try:
    import pandas as pd
    from river import base
except ImportError as err:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "olearn.river needs River: install it with  pip install 'olearn[river]'"
    ) from err

from olearn import registry
from olearn.estimators._linear import LinearMulticlassClassifier
from olearn.kernels.sparse import index_dtype

# the estimators' parameters that mean nothing for a single in-order stream, or that the
# adapter sets itself
_NOT_HERE = ("epochs", "shuffle", "random_state", "probability")
_MIN_WIDTH = 8  # the first width of a growing index; then powers of two
_KEYS = type({}.keys())  # a dict's keys view (a set-like view)


def _bucket(name, n: int) -> int:
    """The hashed column of feature ``name`` in ``[0, n)``."""
    from sklearn.utils import murmurhash3_32

    token = name if isinstance(name, str) else repr(name)
    return abs(murmurhash3_32(token, seed=0)) % n  # sklearn's FeatureHasher's bucket


class Classifier(base.MiniBatchClassifier):
    """An online algorithm of olearn's registry as a River classifier.

    Parameters
    ----------
    algorithm
        A registry key or name of an online algorithm: ``olearn.registry.keys(online=True)``
        ("perceptron", "pa", "pa1", "pa2", "spa", "spa1", "spa2", "cw", "arow", "scw1",
        "scw2", ...).
    n_hash_features
        None (default): a growing feature index, one column per name, no collisions.  An
        int N >= 1: names hashed into N columns (for unbounded vocabularies; 2**20 is
        River's ``FeatureHasher`` default).
    params
        The estimator's parameters (e.g. ``C=0.1``, ``r=0.5``, ``fit_intercept=True``,
        ``covariance="full"``), as in ``olearn.estimators``; the algorithm's fixed ones
        (its variant) come from the registry.  ``epochs``, ``shuffle``, ``random_state``
        and ``probability`` have no meaning for one in-order stream and are refused.

    Attributes
    ----------
    estimator
        The olearn estimator that holds the model (``coef_``, ``classes_``, ``get_state()``;
        its width is the index's capacity, ``n_features_in_ >= len(feature_names)``).
    feature_names
        The growing index's names, in column order (empty with hashing).

    Examples
    --------
    >>> from river import datasets, evaluate, metrics
    >>> from olearn.river import Classifier
    >>> model = Classifier("spa1", C=0.1, fit_intercept=True)
    >>> accuracy = evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy())
    >>> accuracy.get() > 0.8
    True
    """

    def __init__(self, algorithm: str = "spa1", n_hash_features: int | None = None, **params):
        self.algorithm = algorithm
        self.n_hash_features = n_hash_features
        self.params = params
        spec = registry.get(algorithm)
        if not spec.online:
            raise ValueError(
                f"{spec.name} is a batch algorithm; olearn.river offers the online ones: "
                f"{registry.keys(online=True)}"
            )
        refused = sorted(set(params) & set(_NOT_HERE))
        if refused:
            raise ValueError(
                f"olearn.river.Classifier: {refused} have no meaning here (one in-order pass; "
                "predict_proba_one exists where the family defines it)"
            )
        if n_hash_features is not None and (
            isinstance(n_hash_features, bool)
            or not isinstance(n_hash_features, int)
            or n_hash_features < 1
        ):
            raise ValueError(
                f"n_hash_features must be None or an int >= 1, got {n_hash_features!r}"
            )
        cls = spec.estimator_class
        self._proba = "probability" in cls().get_params()  # the CW family's Gaussian
        est = spec.make(**params, **({"probability": True} if self._proba else {}))
        if not isinstance(est, LinearMulticlassClassifier):  # pragma: no cover - registry guard
            raise TypeError(f"olearn.river reads the weight layout of {type(est).__name__}")
        est.check_params()  # bad values fail here, not at the first sample
        self.estimator = est
        self._names: dict = {}  # feature name -> column (growing index)
        self._width = n_hash_features or _MIN_WIDTH  # the model's columns (the index's capacity)

    # --- River's interface ---------------------------------------------------------------
    @property
    def _multiclass(self) -> bool:
        return True

    @property
    def feature_names(self) -> list:
        return list(self._names)

    def learn_one(self, x: dict, y: Any) -> None:
        """One update of the algorithm on ``x`` (a dict of numbers) with label ``y``; a
        refused sample (ValueError) leaves the model and the feature index as they were."""
        new = self._join(x.keys())
        try:
            indices, values = self._row(x)
            engine = getattr(self.estimator, "engine_", None)
            if engine is None:  # the first sample: a fresh model
                labels = np.empty(1, dtype=object)
                labels[0] = y
                rows = (np.array([0, indices.shape[0]], dtype=np.int64), indices, values)
                self._learn(rows, labels)
                return
            if new:  # checked first: the budget, the full covariance's limit
                engine.widen(self._width_for(len(self._names)))
                self._width = engine.n_features
            engine.learn_one(indices, values, y)  # the door for one sample
        except BaseException:
            self._unjoin(new)
            raise

    def predict_one(self, x: dict, **kwargs) -> Any:
        """The class with the highest score ``w_k . x`` (lowest index on ties); None before
        any sample.  Names the model never saw weigh 0."""
        est = self.estimator
        if not hasattr(est, "engine_"):
            return None
        indices, values = self._row(x)
        scores = est.engine_.scores((np.array([0, indices.shape[0]], dtype=np.int64), indices,
                                     values))  # fmt: skip
        return est.classes_[int(np.argmax(scores[0]))]

    def predict_proba_one(self, x: dict, **kwargs) -> dict:
        """{label: probability} (the confidence-weighted family only; {} before any sample)."""
        self._require_proba()
        if not hasattr(self.estimator, "engine_"):
            return {}
        X = self._matrix(*self._batch([x]))
        proba = self.estimator.predict_proba(X)[0]
        return dict(zip(self.estimator.classes_.tolist(), proba.tolist()))

    def learn_many(self, X: pd.DataFrame, y: pd.Series) -> None:
        """``learn_one`` over the rows of X in order (NaN: absent), as one kernel call; all or
        nothing."""
        labels = np.fromiter(y, dtype=object, count=len(y))
        if labels.shape[0] != len(X):
            raise ValueError(f"X has {len(X)} rows, y {labels.shape[0]} labels")
        if labels.shape[0] == 0:
            return
        new = self._join(self._frame_names(X))
        try:
            self._learn(self._batch_frame(X), labels)
        except BaseException:
            self._unjoin(new)
            raise

    def predict_many(self, X: pd.DataFrame) -> pd.Series:
        """``predict_one`` for each row of X (NaN: absent)."""
        est = self.estimator
        if not hasattr(est, "engine_"):
            return pd.Series([None] * len(X), index=X.index, dtype=object)
        scores = est.engine_.scores(self._batch_frame(X))  # the kernels' own scores
        return pd.Series(est.classes_[np.argmax(scores, axis=1)], index=X.index, dtype=object)

    def predict_proba_many(self, X: pd.DataFrame) -> pd.DataFrame:
        """``predict_proba_one`` for each row of X (the confidence-weighted family only)."""
        self._require_proba()
        est = self.estimator
        if not hasattr(est, "engine_"):
            return pd.DataFrame(index=X.index)
        proba = est.predict_proba(self._matrix(*self._batch_frame(X)))
        return pd.DataFrame(proba, index=X.index, columns=est.classes_.tolist())

    # --- the model's door ----------------------------------------------------------------
    def _learn(self, rows: tuple, labels: np.ndarray) -> None:
        """Learn CSR ``rows`` (their columns those of the index, new names joined): widen the
        model to hold the index (the first time: a fresh model), then learn through the
        engine's door.  A refused call keeps nothing but an unused width (its columns stay
        zero; the caller takes the new names back out of the index)."""
        width = self._width_for(len(self._names))
        est = self.estimator
        first = not hasattr(est, "engine_")
        if first:  # a fresh model of the first label (the others join at their first row)
            engine = est.new_engine(width, labels[:1])
        else:
            engine = est.engine_
            engine.widen(width)  # checked first: the budget, the full covariance's limit
        engine.learn_rows(rows, labels)
        if first:
            est.engine_ = engine
        self._width = width

    def _width_for(self, needed: int) -> int:
        """The width holding ``needed`` columns: the current one, or the next power of two."""
        if self.n_hash_features or needed <= self._width:
            return self._width
        return max(_MIN_WIDTH, 1 << (needed - 1).bit_length())

    # --- dicts and frames to CSR rows ----------------------------------------------------
    def _join(self, names) -> list:
        """Let the names not in the index join it, in order (none with hashing), and return
        them: they take the next columns.  ``_unjoin`` takes them back (a refused sample).
        O(len(names)), whatever the index's size; ``names`` are distinct (a dict's keys)."""
        if self.n_hash_features:
            return []
        index = self._names
        if isinstance(names, _KEYS) and names <= index.keys():  # the usual case, in C
            return []
        new = [name for name in names if name not in index]
        for name in new:
            index[name] = len(index)
        return new

    def _unjoin(self, new: list) -> None:
        for name in new:  # the last to join: the index is as it was
            del self._names[name]

    def _columns(self, names) -> np.ndarray:
        """The columns of ``names`` (in order); -1 for a name not in the index."""
        n = len(names)
        if self.n_hash_features:
            N = self.n_hash_features
            return np.fromiter((_bucket(k, N) for k in names), np.int64, n)
        return np.fromiter(map(self._names.get, names, repeat(-1)), np.int64, n)

    def _row(self, x: dict) -> tuple[np.ndarray, np.ndarray]:
        """``(indices, values)`` of x as a canonical CSR row: sorted, no zeros, buckets summed."""
        try:
            values = np.fromiter(x.values(), np.float64, len(x))
        except (TypeError, ValueError) as err:
            raise ValueError(
                "olearn.river takes numeric feature values (encode strings first, e.g. "
                f"river.preprocessing.OneHotEncoder): {err}"
            ) from None
        if not np.all(np.isfinite(values)):
            bad = [k for k, v in zip(x, values.tolist()) if not math.isfinite(v)]
            raise ValueError(f"feature values must be finite numbers; not {bad!r}")
        indices = self._columns(list(x.keys()))
        keep = (values != 0.0) & (indices >= 0)
        if not keep.all():
            indices, values = indices[keep], values[keep]
        width = self._width_for(len(self._names))
        return self._canonical(indices.astype(index_dtype(width), copy=False), values)

    def _canonical(self, indices: np.ndarray, values: np.ndarray):
        """Sorted by index (stable), duplicate buckets summed in order, zeros dropped."""
        if indices.shape[0] > 1:
            order = np.argsort(indices, kind="stable")
            indices, values = indices[order], values[order]
            if self.n_hash_features and np.any(indices[1:] == indices[:-1]):
                first = np.flatnonzero(np.r_[True, indices[1:] != indices[:-1]])
                indices, values = indices[first], np.add.reduceat(values, first)
                keep = values != 0.0
                indices, values = indices[keep], values[keep]
        return indices, values

    def _batch(self, xs: list) -> tuple:
        """CSR arrays ``(indptr, indices, data)`` of a non-empty list of dicts (known names)."""
        parts = [self._row(x) for x in xs]
        indptr = np.zeros(len(parts) + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([p[0].shape[0] for p in parts])
        indices = np.concatenate([p[0] for p in parts]).astype(index_dtype(self._width))
        return indptr, indices, np.concatenate([p[1] for p in parts])

    def _frame_names(self, X: pd.DataFrame) -> list:
        """A frame's new names, in the order ``learn_one`` row by row would meet them (first
        non-NaN row, then column order)."""
        if self.n_hash_features:
            return []
        present = X.notna().to_numpy()
        names = list(X.columns)
        new = [j for j, k in enumerate(names) if k not in self._names and present[:, j].any()]
        first = [int(np.argmax(present[:, j])) for j in new]
        return [names[j] for _, j in sorted(zip(first, new))]

    def _batch_frame(self, X: pd.DataFrame) -> tuple:
        """CSR arrays of a DataFrame's rows, equal to ``_row`` of each row as a dict (its
        non-NaN cells)."""
        try:
            dense = X.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError) as err:
            raise ValueError(f"olearn.river takes numeric feature values: {err}") from None
        present = ~np.isnan(dense)
        if np.isinf(dense).any():
            raise ValueError("feature values must be finite numbers (NaN: absent)")
        cols = self._columns(list(X.columns))
        keep = (cols >= 0) & present.any(axis=0)
        dense, cols = np.where(present, dense, 0.0)[:, keep], cols[keep]
        order = np.argsort(cols, kind="stable")
        dense, cols = dense[:, order], cols[order]
        starts = np.flatnonzero(np.r_[True, cols[1:] != cols[:-1]]) if cols.size else cols
        if starts.shape[0] < cols.shape[0]:  # hashed buckets shared by several columns
            dense, cols = np.add.reduceat(dense, starts, axis=1), cols[starts]
        r, c = np.nonzero(dense)
        indptr = np.zeros(dense.shape[0] + 1, dtype=np.int64)
        indptr[1:] = np.cumsum(np.bincount(r, minlength=dense.shape[0]))
        width = self._width_for(len(self._names))
        return indptr, cols[c].astype(index_dtype(width)), dense[r, c]

    def _matrix(self, indptr, indices, data, width=None) -> sp.csr_matrix:
        n = indptr.shape[0] - 1
        return sp.csr_matrix((data, indices, indptr), shape=(n, width or self._width))

    def _require_proba(self) -> None:
        if not self._proba:
            raise NotImplementedError(
                f"{self.algorithm}: the Perceptron, PA and SPA rules define no probability "
                "(use predict_one, or a confidence-weighted algorithm: "
                f"{', '.join(registry.keys(family='cw'))})"
            )
