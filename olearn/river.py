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
  estimators' docs); None and NaN are refused (ValueError) and change nothing.  Declared up
  front (``classes=[False, True]``, ``partial_fit``'s ``classes``), the labels are the
  model's from the first sample on, so a binary stream learns from its first sample (without
  them, it learns nothing until its second label: there is no rival yet); a label not
  declared still joins at its first sample, as in ``partial_fit``.
- Zero values are absent features; a DataFrame's NaN is an absent feature (what pandas puts
  where a dict has no key); other values must be finite numbers.
- ``learn_many(X, y)`` equals ``learn_one`` over the rows in order, bit for bit (the same CSR
  rows reach the same kernel), when X's columns are in the order the names first appeared.
- ``predict_proba_one`` answers for every algorithm, so River's ``metrics.ROCAUC`` and
  ``metrics.LogLoss`` run in ``evaluate.progressive_val_score``.  The map from the model to
  probabilities is named by ``proba`` (:data:`PROBA_MAPS`): ``"gaussian"``, the
  confidence-weighted family's own (the probability that each class scores highest for
  weights drawn from the learned Gaussian, the estimators' ``predict_proba``), its default
  because it is the model's own belief; ``"softmax"`` of the class scores
  (:func:`softmax_proba`: for two classes River's sigmoid of the margin, the numbers of
  River's ``PAClassifier``), the default of the Perceptron, PA and SPA rules because they
  define no probability: a monotone map of the scores, not calibrated (ROCAUC, which only
  ranks, reads it as it reads the scores; LogLoss depends on the scores' scale, set by C).
  Before the first sample: ``{}`` (River's "no answer"), or with declared classes what the
  fresh model (zero weights) says, e.g. ``{False: 0.5, True: 0.5}``.
- ``learn_one(x, y, w)`` / ``learn_many(X, y, w)`` take a sample's weight (River's
  ``progressive_val_score`` passes ``w`` where a dataset gives one), with the estimators'
  meaning (``sample_weight``: PA-I / PA-II / SPA-I / SPA-II and SCW price the slack ``w C``,
  AROW uses ``r / w``, the Perceptron steps ``w x``; see ``olearn.core.pa``, *Weights*).  A
  weight 0 is the sample's absence (nothing changes, its label and names do not join).  The
  hard rules (PA, SPA, CW) have no price to scale: any ``w > 0`` steps as ``w = 1`` does, and
  the model warns once (UserWarning) at the first weight other than 1 it is given; PA and SPA
  with ``weight_scales="step"`` scale their step by ``w`` instead (scikit-learn's meaning).

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

River's ``PAClassifier`` is the binary PA with one vector and an intercept outside ``||x||^2``
(none here: ``learn_intercept=False``, olearn's default ``fit_intercept=False``); olearn's PA,
with the labels declared and ``C`` halved (its multiclass PA moves two rows, so the binary
margin moves by ``2 tau``: docs/migrating-from-sklearn.md), is the same learner from the first
sample on (weights and probabilities to ~1e-15; ``predict_one`` too, but where the margin is a
round-off zero, under ~1e-16: River predicts from its probability, rounded to 0.5, a tie it
gives False, olearn from the margin's sign):

>>> from river import datasets, evaluate, linear_model, metrics
>>> ours = Classifier("pa1", classes=[False, True], C=0.5)
>>> theirs = linear_model.PAClassifier(C=1.0, mode=1, learn_intercept=False)
>>> auc = [float(evaluate.progressive_val_score(datasets.Phishing(), m, metrics.ROCAUC()).get())
...        for m in (ours, theirs)]
>>> auc[0] == auc[1] > 0.85
True
>>> coef = dict(zip(ours.feature_names, ours.estimator.coef_[0].tolist()))
>>> max(abs(coef[name] - theirs.weights[name]) for name in coef) < 1e-14
True
"""

from __future__ import annotations

import math
from itertools import repeat
from numbers import Real
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
from olearn.estimators.cw import gaussian_proba
from olearn.estimators.engine import labels as lab
from olearn.estimators.engine import small
from olearn.kernels.sparse import index_dtype

# the estimators' parameters that mean nothing for a single in-order stream, or that the
# adapter sets itself
_NOT_HERE = ("epochs", "shuffle", "random_state", "probability")
_MIN_WIDTH = 8  # the first width of a growing index; then powers of two
_KEYS = type({}.keys())  # a dict's keys view (a set-like view)
PROBA_MAPS = ("softmax", "gaussian")  # predict_proba_one's maps (module docstring)
SIGMOID_CUT = 30.0  # River's utils.math.sigmoid: 0 below -30, 1 above 30


def softmax_proba(scores: np.ndarray) -> np.ndarray:
    """Probabilities (n, K) from class scores ``s_k = w_k . x`` (n, K): ``proba="softmax"``.

    Two classes: River's sigmoid of the margin ``m = s_1 - s_0`` (``coef_ . x + intercept_``),
    by River's ``utils.math.sigmoid``'s formula (``1 / (1 + exp(-m))``; exactly 0 below -30
    and 1 above 30), and ``P(classes_[0]) = 1 - P(classes_[1])``: the numbers of
    River's ``PAClassifier.predict_proba_one``.  More classes: the softmax
    ``exp(s_k - max s) / sum_j exp(s_j - max s)`` (for two classes the same sigmoid, up to
    River's cut).  One class: 1.

    >>> softmax_proba(np.array([[0.0, 0.0], [-1.0, 1.0], [0.0, 31.0]])).round(6).tolist()
    [[0.5, 0.5], [0.119203, 0.880797], [0.0, 1.0]]
    >>> softmax_proba(np.array([[0.0, np.log(2.0), np.log(5.0)]])).round(12).tolist()
    [[0.125, 0.25, 0.625]]
    """
    if scores.shape[1] == 2:
        m = scores[:, 1] - scores[:, 0]
        p = 1.0 / (1.0 + np.exp(-np.clip(m, -SIGMOID_CUT, SIGMOID_CUT)))
        p = np.where(m < -SIGMOID_CUT, 0.0, np.where(m > SIGMOID_CUT, 1.0, p))
        return np.column_stack([1.0 - p, p])
    z = np.exp(scores - scores.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def _bucket(name, n: int) -> int:
    """The hashed column of feature ``name`` in ``[0, n)``."""
    from sklearn.utils import murmurhash3_32

    token = name if isinstance(name, str) else repr(name)
    return abs(murmurhash3_32(token, seed=0)) % n  # sklearn's FeatureHasher's bucket


def _declared(classes) -> np.ndarray | None:
    """The declared labels as the engine takes them (None: none), after refusing what could
    not be a class: a string (not a list), no label, an unhashable, None or NaN label, two
    equal labels."""
    if classes is None:
        return None
    if isinstance(classes, (str, bytes, dict)) or not hasattr(classes, "__iter__"):
        raise ValueError(f"classes must be a list of labels, e.g. [False, True]; got {classes!r}")
    items = list(classes)
    if not items:
        raise ValueError("classes must list at least one label (or be None: declare none)")
    seen: dict = {}
    for i, label in enumerate(items):
        try:
            hash(label)
        except TypeError:
            raise ValueError(
                f"classes[{i}] = {label!r} (a {type(label).__name__}) is not hashable: a label "
                "must be a number, a string, a tuple ..."
            ) from None
        if lab.is_missing(label):
            raise ValueError(f"classes[{i}] is {label!r}: None and NaN are no labels")
        if label in seen:
            raise ValueError(
                f"classes[{i}] = {label!r} repeats classes[{seen[label]}] = "
                f"{items[seen[label]]!r} (equal labels are one class)"
            )
        seen[label] = i
    return lab.check_labels(items, len(items), "classes")


def _weight(w) -> float:
    """A sample's weight as a float, refused unless a finite number >= 0."""
    if isinstance(w, bool) or not isinstance(w, Real) or not (math.isfinite(w) and w >= 0):
        raise ValueError(f"a sample's weight w must be a finite number >= 0, got {w!r}")
    return float(w)


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
    classes
        None (default), or the labels to declare before the first sample (distinct,
        hashable, neither None nor NaN): the model predicts and learns with them from the
        first sample on (a binary stream: from its first sample, as River's ``PAClassifier``).
        Labels not declared still join at their first sample.  ``classes_`` is sorted, as in
        ``partial_fit``.
    proba
        ``predict_proba_one``'s map (module docstring): ``"gaussian"`` (the
        confidence-weighted family only; its default) or ``"softmax"`` of the class scores
        (for two classes River's sigmoid of the margin; the default of the other rules).
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
    >>> model = Classifier("pa1", classes=[False, True])
    >>> auc = evaluate.progressive_val_score(datasets.Phishing(), model, metrics.ROCAUC())
    >>> float(auc.get()) > 0.8
    True
    """

    def __init__(
        self,
        algorithm: str = "spa1",
        n_hash_features: int | None = None,
        classes: Any = None,
        proba: str | None = None,
        **params,
    ):
        self.algorithm = algorithm
        self.n_hash_features = n_hash_features
        self.classes = classes
        self.proba = proba
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
                "predict_proba_one's map is proba=...)"
            )
        if n_hash_features is not None and (
            isinstance(n_hash_features, bool)
            or not isinstance(n_hash_features, int)
            or n_hash_features < 1
        ):
            raise ValueError(
                f"n_hash_features must be None or an int >= 1, got {n_hash_features!r}"
            )
        gaussian = "probability" in spec.estimator_class().get_params()  # the CW family
        offered = PROBA_MAPS if gaussian else ("softmax",)
        if proba is not None and proba not in offered:
            raise ValueError(f"{spec.name}: proba must be None or one of {offered}, got {proba!r}")
        self._map = proba or offered[-1]  # the family's own probability, else the softmax
        self._declared = _declared(classes)
        est = spec.make(**params)
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

    def learn_one(self, x: dict, y: Any, w: float = 1.0) -> None:
        """One update of the algorithm on ``x`` (a dict of numbers) with label ``y`` and
        weight ``w`` (module docstring; 0: absent); a refused sample (ValueError) leaves the
        model and the feature index as they were."""
        if w.__class__ is not float or w != 1.0:
            weight = _weight(w)
            if weight != 1.0:
                self._learn_weighted(x, y, weight)
                return
        columns = self._known_columns(x)
        if columns is not None:  # a small row's path, in plain Python (engine.small), when
            engine = getattr(self.estimator, "engine_", None)  # the family has one
            if engine is not None and engine.learn_small(columns, x.values(), y):
                return
        new = self._join(x.keys())
        try:
            indices, values = self._row(x)
            engine = getattr(self.estimator, "engine_", None)
            if engine is None:  # the first sample: a fresh model
                self._learn(self._one(indices, values), self._labels(y))
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
        any sample and label.  Names the model never saw weigh 0."""
        engine = self._model()
        if engine is None:
            return None
        scores = self._small_scores(engine, x)
        if scores is not None:
            return engine.classes[small.argmax(scores)]
        scores = engine.scores(self._one(*self._row(x)))
        return engine.classes[int(np.argmax(scores[0]))]

    def predict_proba_one(self, x: dict, **kwargs) -> dict:
        """{label: probability} by the model's map (``proba``); {} before any sample and
        label."""
        engine = self._model()
        if engine is None:
            return {}
        scores = self._small_scores(engine, x) if self._map == "softmax" else None
        if scores is not None:
            proba = softmax_proba(np.array([scores]))[0]
        else:
            proba = self._proba(engine, self._one(*self._row(x)))[0]
        return dict(zip(engine.classes.tolist(), proba.tolist()))

    def learn_many(self, X: pd.DataFrame, y: pd.Series, w: Any = 1.0) -> None:
        """``learn_one`` over the rows of X in order (NaN: absent), as one kernel call; ``w``
        one weight or one per row (rows of weight 0 are absent); all or nothing."""
        labels = np.fromiter(y, dtype=object, count=len(y))
        if labels.shape[0] != len(X):
            raise ValueError(f"X has {len(X)} rows, y {labels.shape[0]} labels")
        weights = self._weights(w, labels.shape[0])
        if weights is not None and not weights.all():  # weight 0: absent rows
            keep = weights > 0
            X, labels, weights = X[keep], labels[keep], weights[keep]
        if labels.shape[0] == 0:
            return
        new = self._join(self._frame_names(X))
        try:
            self._learn(self._batch_frame(X), labels, weights)
        except BaseException:
            self._unjoin(new)
            raise
        if weights is not None:
            self._warn_unused_weight()

    def predict_many(self, X: pd.DataFrame) -> pd.Series:
        """``predict_one`` for each row of X (NaN: absent)."""
        engine = self._model()
        if engine is None:
            return pd.Series([None] * len(X), index=X.index, dtype=object)
        scores = engine.scores(self._batch_frame(X))  # the kernels' own scores
        return pd.Series(engine.classes[np.argmax(scores, axis=1)], index=X.index, dtype=object)

    def predict_proba_many(self, X: pd.DataFrame) -> pd.DataFrame:
        """``predict_proba_one`` for each row of X (NaN: absent)."""
        engine = self._model()
        if engine is None:
            return pd.DataFrame(index=X.index)
        proba = self._proba(engine, self._batch_frame(X))
        return pd.DataFrame(proba, index=X.index, columns=engine.classes.tolist())

    # --- the model's door ----------------------------------------------------------------
    def _model(self):
        """The engine predictions read: the model's, or before the first sample a fresh one
        of the declared classes (zero weights, not kept); None without either."""
        engine = getattr(self.estimator, "engine_", None)
        if engine is None and self._declared is not None:
            engine = self.estimator.new_engine(self._width, self._declared)
        return engine

    def _small_scores(self, engine, x: dict) -> list[float] | None:
        """x's class scores by the engine's plain-Python path for a small row of known names
        (equal to ``engine.scores``'); None when x is not for it."""
        columns = self._known_columns(x)
        return None if columns is None else engine.small_scores(columns, x.values())

    def _known_columns(self, x: dict):
        """The columns of a dict whose names are all in the growing index, in its order (an
        iterator), or None (new names, hashing, not a dict: the door's path)."""
        index = self._names
        if x.__class__ is dict and x.keys() <= index.keys() and not self.n_hash_features:
            return map(index.get, x)
        return None

    def _proba(self, engine, rows: tuple) -> np.ndarray:
        """(n, K) probabilities of CSR ``rows`` by the model's map."""
        if self._map == "softmax":
            return softmax_proba(engine.scores(rows))  # the scores predict_one reads
        X = self._matrix(*rows, width=engine.n_features)  # the estimators' predict_proba
        return gaussian_proba(engine.scores(X), engine.score_variance(X))

    def _learn(self, rows: tuple, labels: np.ndarray, weights=None) -> None:
        """Learn CSR ``rows`` (their columns those of the index, new names joined): widen the
        model to hold the index (the first time: a fresh model of the declared classes, or of
        the first label), then learn through the engine's door.  A refused call keeps nothing
        but an unused width (its columns stay zero; the caller takes the new names back out
        of the index)."""
        width = self._width_for(len(self._names))
        est = self.estimator
        first = not hasattr(est, "engine_")
        if first:  # the other labels join at their first row
            classes = labels[:1] if self._declared is None else self._declared
            engine = est.new_engine(width, classes)
        else:
            engine = est.engine_
            engine.widen(width)  # checked first: the budget, the full covariance's limit
        engine.learn_rows(rows, labels, weights)
        if first:
            est.engine_ = engine
        self._width = width

    def _learn_weighted(self, x: dict, y, weight: float) -> None:
        """``learn_one`` with a weight other than 1 (0: absent, nothing changes)."""
        if weight == 0.0:
            return
        new = self._join(x.keys())
        try:
            self._learn(self._one(*self._row(x)), self._labels(y), np.array([weight]))
        except BaseException:
            self._unjoin(new)
            raise
        self._warn_unused_weight()

    def _weights(self, w, n: int) -> np.ndarray | None:
        """``learn_many``'s weights: None (all 1) or (n,) floats >= 0."""
        if np.ndim(w) == 0:
            weight = _weight(w)
            return None if weight == 1.0 else np.full(n, weight)
        try:
            weights = np.asarray(w, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("w must be a number or one number per row") from None
        if weights.shape != (n,) or not (np.isfinite(weights).all() and (weights >= 0).all()):
            raise ValueError(f"w must hold {n} finite numbers >= 0 (one per row)")
        return None if (weights == 1.0).all() else weights

    def _warn_unused_weight(self) -> None:
        """Warn, once per model, that the rule cannot use a weight (it has no price)."""
        who = f"olearn.river.Classifier({self.algorithm!r})"
        self.estimator.engine_.warn_unused_weight(who, stacklevel=3)

    def _width_for(self, needed: int) -> int:
        """The width holding ``needed`` columns: the current one, or the next power of two."""
        if self.n_hash_features or needed <= self._width:
            return self._width
        return max(_MIN_WIDTH, 1 << (needed - 1).bit_length())

    # --- dicts and frames to CSR rows ----------------------------------------------------
    @staticmethod
    def _one(indices: np.ndarray, values: np.ndarray) -> tuple:
        """The CSR arrays of one row."""
        return np.array([0, indices.shape[0]], dtype=np.int64), indices, values

    @staticmethod
    def _labels(y) -> np.ndarray:
        labels = np.empty(1, dtype=object)
        labels[0] = y  # element-wise: a tuple stays one label
        return labels

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


from olearn.river_regressor import Regressor  # noqa: E402,F401  (PA regression, its own module)
