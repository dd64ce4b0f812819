"""olearn inside River: every online algorithm of the registry as a River classifier.

:class:`Classifier` wraps an olearn estimator (``registry.get(algorithm).make(**params)``) and
speaks River's ``base.MiniBatchClassifier`` interface: ``learn_one`` / ``predict_one`` on
dicts, ``learn_many`` / ``predict_many`` on pandas DataFrames.

- Features are dicts ``{name: number}``; names may appear and disappear.  By default each new
  name gets the next column of a growing index (no collisions); the model's width doubles
  when the index outgrows it (amortised O(1) per new name), through the estimator's public
  state (:meth:`~olearn.estimators.base.OnlineClassifier.get_state` / ``set_state``): new
  columns get a zero weight and, for the confidence-weighted family, the prior variance ``a``
  (diagonal) or an ``sqrt(a) I`` block of the covariance's square root (full).  A column
  that no sample has touched is never read by the kernels, so a wider model learns the same.
  With ``n_hash_features=N`` names are hashed instead into a fixed width N, for unbounded
  vocabularies: scikit-learn's ``FeatureHasher(n_features=N, alternate_sign=False)`` bucket,
  ``|MurmurHash3_32(name, seed=0)| mod N`` (of ``repr(name)`` for a name that is not a
  str); values that share a bucket add up.
- Labels of any hashable type may appear at any time: a new label joins with a zero weight
  row (the prior mean) at its first sample, as in ``partial_fit`` (the estimators' docs).
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
sorted, zeros dropped) checked in O(nnz) (finite; ``||x||^2`` in the range the estimator's
own check allows), and goes straight to the family's numba kernel
(``OnlineClassifier._learn_rows``), counters and class growth as ``partial_fit`` keeps them.

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
from olearn.core._cw_closed_forms import MAX_VARIANCE
from olearn.estimators.base import FLOAT_MAX, LinearMulticlassClassifier
from olearn.kernels.sparse import csr_rows, index_dtype, row_scores

# the estimators' parameters that mean nothing for a single in-order stream, or that the
# adapter sets itself
_NOT_HERE = ("epochs", "shuffle", "random_state", "probability")
_MIN_WIDTH = 8  # the first width of a growing index; then powers of two


def _bucket(name, n: int) -> int:
    """The hashed column of feature ``name`` in ``[0, n)``."""
    from sklearn.utils import murmurhash3_32

    token = name if isinstance(name, str) else repr(name)
    return abs(murmurhash3_32(token, seed=0)) % n  # sklearn's FeatureHasher's bucket


class _Index(dict):
    """Feature name -> column; ``index[name]`` of a new name gives it the next column."""

    def __missing__(self, name):
        column = self[name] = len(self)
        return column


def _pad_state(state: dict, width: int) -> dict:
    """``state`` (``get_state``) widened to ``width`` feature columns: zero weights, and for the
    confidence-weighted family the prior ``a`` for the new columns' variances (intercept entries
    stay last)."""
    d, new = state["n_features_in"], width - state["n_features_in"]
    a = float(state["params"].get("a", 1.0))
    out = {**state, "n_features_in": width, "feature_names_in": None}
    for key in set(state) - {"version", "params", "classes", "n_features_in",
                             "feature_names_in", "t", "n_updates", "n_iter"}:  # fmt: skip
        value = state[key]
        if key == "coef":  # (K, d): zero columns
            out[key] = np.pad(value, ((0, 0), (0, new)))
        elif key == "intercept_weight":  # (K,): unchanged
            out[key] = value
        elif key == "covariance":  # (d [+1],) diagonal: the prior a, intercept's entry last
            out[key] = np.insert(value, d, np.full(new, a))
        elif key == "covariance_factor":  # A (d [+1], d [+1]), Sigma = A A': a sqrt(a) I block
            rows = value.shape[0] + new
            A = math.sqrt(a) * np.eye(rows)
            keep = np.r_[0:d, d + new : rows]  # old rows/columns: features, then intercept
            A[np.ix_(keep, keep)] = value
            out[key] = A
        else:  # a new family's state: teach this function how its columns grow
            raise NotImplementedError(f"olearn.river cannot widen the state entry {key!r}")
    return out


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
        est._validate_params()  # bad values fail here, not at the first sample
        est._check_params()
        self.estimator = est
        self._names = _Index()  # feature name -> column (growing index)
        self._labels: dict = {}  # label -> class index (classes_'s order)
        self._set_width(n_hash_features or _MIN_WIDTH)

    # --- River's interface ---------------------------------------------------------------
    @property
    def _multiclass(self) -> bool:
        return True

    @property
    def feature_names(self) -> list:
        return list(self._names)

    def learn_one(self, x: dict, y: Any) -> None:
        """One update of the algorithm on ``x`` (a dict of numbers) with label ``y``."""
        indices, values = self._row(x, learn=True)
        self._check_norm(indices, values)
        labels = np.empty(1, dtype=object)
        labels[0] = y
        known = self._labels.get(y)
        self._one[1] = indices.shape[0]
        main = (self._one, indices, values)
        rows = (main, self._bias_one) if self._bias_one is not None else (main,)
        y_idx = None if known is None else np.array([known], dtype=np.int64)
        self.estimator._learn_rows(rows, labels, self._width, y_idx)
        if known is None:
            self._labels = {c: i for i, c in enumerate(self.estimator.classes_.tolist())}

    def predict_one(self, x: dict, **kwargs) -> Any:
        """The class with the highest score ``w_k . x`` (lowest index on ties); None before
        any sample.  Names the model never saw weigh 0."""
        est = self.estimator
        if not hasattr(est, "classes_"):
            return None
        indices, values = self._row(x, learn=False)
        self._one[1] = indices.shape[0]
        main = (self._one, indices, values)
        rows = (main, self._bias_one) if self._bias_one is not None else (main,)
        scores = np.empty(est.classes_.shape[0])
        row_scores(rows, 0, est._W, scores)
        return est.classes_[int(np.argmax(scores))]

    def predict_proba_one(self, x: dict, **kwargs) -> dict:
        """{label: probability} (the confidence-weighted family only; {} before any sample)."""
        self._require_proba()
        if not hasattr(self.estimator, "classes_"):
            return {}
        X = self._matrix(*self._batch([x], learn=False))
        proba = self.estimator.predict_proba(X)[0]
        return dict(zip(self.estimator.classes_.tolist(), proba.tolist()))

    def learn_many(self, X: pd.DataFrame, y: pd.Series) -> None:
        """``learn_one`` over the rows of X in order (NaN: absent), as one kernel call."""
        indptr, indices, data = self._batch_frame(X, learn=True)
        labels = np.fromiter(y, dtype=object, count=len(y))
        if labels.shape[0] != indptr.shape[0] - 1:
            raise ValueError(f"X has {indptr.shape[0] - 1} rows, y {labels.shape[0]} labels")
        if labels.shape[0] == 0:
            return
        est = self.estimator
        for i in range(labels.shape[0]):
            lo, hi = indptr[i], indptr[i + 1]
            self._check_norm(indices[lo:hi], data[lo:hi])
        rows = csr_rows(self._matrix(indptr, indices, data), True, est._column_value())
        est._learn_rows(rows, labels, self._width)
        self._labels = {c: i for i, c in enumerate(est.classes_.tolist())}

    def predict_many(self, X: pd.DataFrame) -> pd.Series:
        """``predict_one`` for each row of X (NaN: absent)."""
        est = self.estimator
        if not hasattr(est, "classes_"):
            return pd.Series([None] * len(X), index=X.index, dtype=object)
        indptr, indices, data = self._batch_frame(X, learn=False)
        rows = csr_rows(self._matrix(indptr, indices, data), True, est._column_value())
        scores = np.empty(est.classes_.shape[0])
        best = np.empty(len(X), dtype=np.int64)
        for i in range(best.shape[0]):  # the kernel's own score, as predict_one computes it
            row_scores(rows, i, est._W, scores)
            best[i] = np.argmax(scores)
        return pd.Series(est.classes_[best], index=X.index, dtype=object)

    def predict_proba_many(self, X: pd.DataFrame) -> pd.DataFrame:
        """``predict_proba_one`` for each row of X (the confidence-weighted family only)."""
        self._require_proba()
        est = self.estimator
        if not hasattr(est, "classes_"):
            return pd.DataFrame(index=X.index)
        proba = est.predict_proba(self._matrix(*self._batch_frame(X, learn=False)))
        return pd.DataFrame(proba, index=X.index, columns=est.classes_.tolist())

    # --- dicts and frames to CSR rows ----------------------------------------------------
    def _set_width(self, width: int) -> None:
        """The model's feature columns, and the intercept's one-row block at index ``width``."""
        self._width = width
        dtype = index_dtype(width)
        self._one = np.array([0, 0], dtype=np.int64)  # indptr of one row: [0, nnz]
        self._bias_one = None
        s = self.estimator._column_value()
        if s > 0.0:
            self._bias_one = (
                np.array([0, 1], dtype=np.int64),
                np.array([width], dtype=dtype),
                np.array([s]),
            )

    def _reserve(self, needed: int) -> None:
        """Widen the model to hold ``needed`` columns (the next power of two, at least 8)."""
        if needed <= self._width:
            return
        width = max(_MIN_WIDTH, 1 << (needed - 1).bit_length())
        est = self.estimator
        if hasattr(est, "classes_"):
            est.set_state(_pad_state(est.get_state(), width))
        self._set_width(width)

    def _columns(self, names, learn: bool) -> np.ndarray:
        """The columns of ``names`` (in order); -1 for a name the model never saw (predict).
        With ``learn``, new names join the index here, in order."""
        n, dtype = len(names), index_dtype(self._width)
        if self.n_hash_features:
            N = self.n_hash_features
            return np.fromiter((_bucket(k, N) for k in names), dtype, n)
        index = self._names
        if not learn:
            return np.fromiter(map(index.get, names, repeat(-1)), np.int64, n)
        columns = np.fromiter(map(index.__getitem__, names), np.int64, n)  # new names join
        self._reserve(len(index))
        return columns

    def _row(self, x: dict, learn: bool) -> tuple[np.ndarray, np.ndarray]:
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
        indices = self._columns(x.keys(), learn)
        keep = values != 0.0
        if not learn and not self.n_hash_features:
            keep &= indices >= 0
        if not keep.all():
            indices, values = indices[keep], values[keep]
        return self._canonical(indices.astype(index_dtype(self._width), copy=False), values)

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

    def _batch(self, xs: list, learn: bool) -> tuple:
        """CSR arrays ``(indptr, indices, data)`` of a non-empty list of dicts, row by row."""
        parts = [self._row(x, learn) for x in xs]
        indptr = np.zeros(len(parts) + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([p[0].shape[0] for p in parts])
        indices = np.concatenate([p[0] for p in parts]).astype(index_dtype(self._width))
        return indptr, indices, np.concatenate([p[1] for p in parts])

    def _batch_frame(self, X: pd.DataFrame, learn: bool) -> tuple:
        """CSR arrays of a DataFrame's rows, equal to ``_row`` of each row as a dict (its
        non-NaN cells).  New columns join the index in the order their names first appear
        row by row (first non-NaN row, then column order): ``learn_one``'s order."""
        try:
            dense = X.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError) as err:
            raise ValueError(f"olearn.river takes numeric feature values: {err}") from None
        present = ~np.isnan(dense)
        if np.isinf(dense).any():
            raise ValueError("feature values must be finite numbers (NaN: absent)")
        names = list(X.columns)
        if learn and not self.n_hash_features:
            new = [j for j, k in enumerate(names) if k not in self._names and present[:, j].any()]
            first = [int(np.argmax(present[:, j])) for j in new]
            self._columns([names[j] for _, j in sorted(zip(first, new))], learn=True)
        cols = self._columns(names, learn=False).astype(np.int64)
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
        return indptr, cols[c].astype(index_dtype(self._width)), dense[r, c]

    def _matrix(self, indptr, indices, data) -> sp.csr_matrix:
        n = indptr.shape[0] - 1
        return sp.csr_matrix((data, indices, indptr), shape=(n, self._width))

    def _check_norm(self, indices: np.ndarray, values: np.ndarray) -> None:
        """The estimator's own check of a row (``||x||^2`` finite; for the confidence-weighted
        family ``2 a ||x||^2`` within the closed forms' range), run by it when a row fails."""
        est = self.estimator
        s = est._column_value()
        sqnorm = float(np.einsum("i,i", values, values)) + s * s
        limit = MAX_VARIANCE / (2.0 * float(est.a)) if self._proba else FLOAT_MAX
        if not sqnorm <= limit:
            indptr = np.array([0, values.shape[0]], dtype=np.int64)
            est._arrays(self._matrix(indptr, indices, values))  # raises, with its message
            raise ValueError(f"||x||^2 = {sqnorm:.3g} is out of range")  # pragma: no cover

    def _require_proba(self) -> None:
        if not self._proba:
            raise NotImplementedError(
                f"{self.algorithm}: the Perceptron, PA and SPA rules define no probability "
                "(use predict_one, or a confidence-weighted algorithm: "
                f"{', '.join(registry.keys(family='cw'))})"
            )
