"""The online engine: one model's state, and the one door every path into it goes through.

An engine holds what an online learner knows: its classes (in column order), its width, the
family's arrays (weights, a covariance, clocks) and three counters (``t`` samples seen,
``n_updates`` aggressive steps, ``n_iter`` epochs of the last ``fit``).  Every path that
teaches a model (``fit`` / ``partial_fit`` / ``learn_stream``, training from a store, the
River adapter, parameter mixing's shards, the app) reaches it the same way:

1. :meth:`OnlineEngine.check` (the door) takes rows, labels and weights as given and checks
   all of them once, before anything changes: the CSR structure (``indptr`` from 0,
   non-decreasing, ending at the number of values; every index in range), finite values, every
   ``||x||^2`` within the family's range (one pass, :func:`olearn.kernels.sparse.scan_csr`),
   the labels (no None, NaN or unhashable one), the weights (finite, and the step they scale
   within the family's range), and new classes against the memory budget and the family's
   limits.  It returns a :class:`Batch`, the only thing the learning methods take.
2. :meth:`OnlineEngine.learn` applies a batch in one in-order pass (new classes join at their
   first row), :meth:`OnlineEngine.epochs` in ``epochs`` passes (shuffled by ``rng``).  A
   checked batch cannot fail in the kernels, so a call is all or nothing: a refusal at the
   door leaves the engine exactly as it was.

:meth:`OnlineEngine.learn_rows` is the two at once.  :meth:`scores` reads the model;
:meth:`get_state` / :meth:`from_state` are its plain-array state; :meth:`widen` adds feature
columns (River's growing vocabulary).  A family (:mod:`.linear`, :mod:`.cw`, :mod:`.sgd`)
keeps its kernel and closed forms and fills in the hooks at the end of the class.
"""

from __future__ import annotations

import copy
import math
import warnings
from numbers import Integral
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from olearn._budget import require
from olearn.estimators._weights import unused_weight_message
from olearn.estimators.engine import labels as lab
from olearn.estimators.engine import state as st
from olearn.kernels.sparse import (
    CSR_PROBLEMS,
    NOT_FINITE,
    csr_rows,
    index_dtype,
    one_row_indptr,
    rows_from_csr,
    scan_csr,
    scan_dense,
    with_intercept,
)

FLOAT_MAX = float(np.finfo(np.float64).max)
_END = object()  # the end of a batch's segments (a label can be anything hashable)


class Batch(NamedTuple):
    """Rows, labels and weights the door has checked (:meth:`OnlineEngine.check`).

    ``rows``: the kernels' CSR blocks (X's, then the intercept column's); ``y_idx``: each
    row's class index when every label was a class at the check, else None and ``joins`` the
    ``(row, label)`` pairs of the new ones, in row order; ``weights``: None (all 1) or each
    row's weight > 0.  ``generation`` ties it to the classes and width it was checked against.
    """

    rows: tuple
    n: int
    labels: np.ndarray
    y_idx: np.ndarray | None
    joins: tuple
    weights: np.ndarray | None
    generation: int


_NO_MISTAKES = np.zeros(0, dtype=np.bool_)  # a pass that records none (kernels skip it)
_ORDER_ONE = np.zeros(1, dtype=np.int64)  # one row's order (kernels only read it)


class OnlineEngine:
    """One online model and its door (module docstring).  Build one with :meth:`create` (zero
    weights) or :meth:`from_state`; ``owner`` names it in messages (the estimator's class).

    Public attributes: ``classes`` (K,), ``n_features``, ``feature_names`` (None or (d,)
    strings), ``t``, ``n_updates``, ``n_iter``, ``params`` (what the state was built for).
    """

    kernel = ""  # the family's numba kernel, "module:function" (the registry reads it)
    grows = True  # a class may join mid-stream (a zero row: the prior)
    dense_view = False  # dense rows may keep their zeros (kernels.sparse.csr_arrays)

    def __init__(self, *, owner: str = "", **structure):
        self.owner = owner or type(self).__name__
        self._setup(**structure)
        self.classes = np.empty(0)
        self.n_features = 0
        self.feature_names = None
        self.t = self.n_updates = self.n_iter = 0
        self._generation = 0

    # --- creation --------------------------------------------------------------------------
    @classmethod
    def create(cls, n_features: int, classes, *, owner: str = "", feature_names=None,
               steps: dict | None = None, **structure):  # fmt: skip
        """A fresh model (zero weights; the prior) of ``classes`` and ``n_features``, after
        the family's limits and the memory budget allow it (nothing is allocated before)."""
        engine = cls(owner=owner, **structure)
        classes = np.asarray(classes)
        engine._check_size(int(n_features), classes.shape[0])
        engine.classes, engine.n_features = classes, int(n_features)
        engine.feature_names = feature_names
        engine._allocate()
        if steps is not None:
            engine.tune(**steps)
        return engine

    @classmethod
    def from_state(cls, state: dict, *, owner: str = "", steps: dict | None = None,
                   **structure):  # fmt: skip
        """The model of ``state`` (a :meth:`get_state` dict), every entry checked before
        anything is loaded (ValueError naming it), the arrays copied in."""
        engine = cls(owner=owner, **structure)
        name = engine.owner
        if not isinstance(state, dict):
            raise TypeError(f"{name}.set_state takes a dict from get_state, got {type(state)}")
        if state.get("version") != st.STATE_VERSION:
            raise ValueError(
                f"{name}.set_state: state version {state.get('version')!r}, expected "
                f"{st.STATE_VERSION} (a dict from get_state)"
            )
        if state.get("params") != engine.params:
            raise ValueError(
                f"{name}.set_state: the state was built for {state.get('params')!r}, this "
                f"estimator has {engine.params!r}; set those parameters with set_params(...) "
                "first (they fix the shape or the meaning of the state's numbers)"
            )
        classes = np.asarray(state.get("classes"))
        K, d = st.state_sizes(name, state, classes, 1 if cls.grows else 2)
        spec = engine._state_spec(K, d)
        st.check_keys(name, state, set(spec))
        arrays = {key: st.state_array(name, key, state[key], *spec[key]) for key in spec}
        counters = {key: st.count(name, key, state[key]) for key in ("t", "n_updates", "n_iter")}
        names = st.check_feature_names(name, state["feature_names_in"], d)
        engine._check_size(d, K)
        engine.classes, engine.n_features, engine.feature_names = classes.copy(), d, names
        engine._load_arrays(arrays)
        engine.t, engine.n_updates, engine.n_iter = (
            counters["t"], counters["n_updates"], counters["n_iter"]
        )  # fmt: skip
        if steps is not None:
            engine.tune(**steps)
        return engine

    def copy(self):
        """An independent copy (every array copied)."""
        return copy.deepcopy(self)

    def require(self, n_features: int, n_classes: int) -> None:
        """Raise :class:`olearn._budget.BudgetError` (a ValueError) if a model of this size is
        over the memory budget (``$OLEARN_MAX_BYTES``)."""
        nbytes, what = self.state_bytes(int(n_features), int(n_classes))
        require(nbytes, f"{self.owner}: {what}")

    def _check_size(self, n_features: int, n_classes: int) -> None:
        self._check_width(n_features)
        self.require(n_features, n_classes)

    # --- the door -----------------------------------------------------------------------------
    def check(self, X, labels, weights=None, *, declare=None) -> Batch:
        """Check rows, labels and weights (module docstring) and return them as a :class:`Batch`.

        ``X``: a 2-D float64 array or a CSR matrix of ``n_features`` columns, or the raw CSR
        arrays ``(indptr, indices, data)`` of such rows.  ``labels``: one per row.
        ``weights``: None or one number > 0 per row (rows of weight 0 are the caller's to drop:
        they are absent, also from the classes).  ``declare``: labels to add before the first
        row (``partial_fit``'s ``classes``).  Nothing changes here.
        """
        rows, largest = self.rows(X)
        n = rows[0][0].shape[0] - 1
        labels = lab.check_labels(labels, n, self.owner)
        weights = self._check_weights(weights, n, largest)
        y_idx = self._index(labels) if declare is None else None
        joins: list = []
        if y_idx is None:
            joins = lab.new_labels(self.classes, labels, declare)
            if joins and not self.grows:
                unknown = ", ".join(repr(label) for _, label in joins)
                raise ValueError(
                    f"labels {unknown} are not in classes_ {self.classes.tolist()!r}: "
                    f"{self.owner} cannot add a class mid-stream (a batch reference: its "
                    "one-vs-rest models would need the past samples); pass every class with "
                    "classes=... on the first partial_fit call, with the labels' own type"
                )
            if joins:
                self.require(self.n_features, self.classes.shape[0] + len(joins))
            else:
                y_idx = self._index(labels)
        return Batch(rows, n, labels, y_idx, tuple(joins), weights, self._generation)

    def _index(self, labels: np.ndarray):
        """The labels' class indices (None if some label is not a class); the label -> index
        map of object labels is kept until the classes change (River's per-sample path)."""
        if labels.dtype != object and self.classes.dtype != object:
            return lab.index_of(self.classes, labels)
        index = self._class_index()
        try:
            return np.fromiter((index[label] for label in labels.tolist()), np.int64,
                               labels.shape[0])  # fmt: skip
        except KeyError:
            return None

    def rows(self, X) -> tuple[tuple, float]:
        """``(rows, largest)``: X checked (structure, finite values, ``||x||^2`` in range) and
        as the kernels read it, with ``largest`` = ``max ||x_i||^2`` (the intercept column's
        included)."""
        main, largest = self._scan(X)
        s = self.column_value()
        largest += s * s
        self._check_norms(largest, main)
        return main, largest

    def _scan(self, X) -> tuple[tuple, float]:
        d = self.n_features
        if isinstance(X, tuple):
            indptr, indices, data = X
        elif sp.issparse(X):
            if X.format != "csr":
                raise TypeError(f"{self.owner}: the engine takes CSR rows, got {X.format}")
            if X.ndim != 2 or X.shape[1] != d:
                raise ValueError(f"{self.owner}: X has {X.shape[1]} features, the model {d}")
            indptr, indices, data = X.indptr, X.indices, X.data
        else:
            X = np.ascontiguousarray(X, dtype=np.float64)
            if X.ndim != 2 or X.shape[1] != d:
                raise ValueError(f"{self.owner}: X must be 2-D with {d} columns, got {X.shape}")
            problem, largest = scan_dense(X)
            if problem:
                raise ValueError(f"{self.owner}: X holds NaN or infinity (a value must be finite)")
            return csr_rows(X, self.dense_view, self.column_value()), largest
        if not (
            isinstance(indptr, np.ndarray) and isinstance(indices, np.ndarray)
            and indptr.ndim == 1 and indices.ndim == 1
            and indptr.dtype.kind in "iu" and indices.dtype.kind in "iu"
        ):  # fmt: skip
            raise ValueError(f"{self.owner}: malformed CSR rows: indptr, indices: 1-D integers")
        if not isinstance(data, np.ndarray) or data.dtype != np.float64:
            data = np.asarray(data)
            if data.ndim != 1 or data.dtype.kind not in "iuf":
                raise ValueError(f"{self.owner}: malformed CSR rows: data must be 1-D reals")
            data = data.astype(np.float64)  # one kernel type (and the scan's)
        elif data.ndim != 1:
            raise ValueError(f"{self.owner}: malformed CSR rows: data must be 1-D reals")
        problem, largest, ordered = scan_csr(indptr, indices, data, d)
        if problem == NOT_FINITE:
            raise ValueError(f"{self.owner}: X holds NaN or infinity (a value must be finite)")
        if problem:
            raise ValueError(f"malformed sparse matrix (csr): {CSR_PROBLEMS[problem]}")
        if not ordered:  # unsorted or duplicate indices: scipy's canonical form, on a copy
            n = indptr.shape[0] - 1
            M = sp.csr_matrix((data, indices, indptr), shape=(n, d), copy=True)
            M.sum_duplicates()
            indptr, indices, data = M.indptr, M.indices, M.data
            largest = float(scan_csr(indptr, indices, data, d)[1])
        return rows_from_csr(indptr, indices, data, d, self.column_value()), largest

    def _check_norms(self, largest: float, rows: tuple) -> None:
        """Raise ValueError if some ``||x||^2`` is out of the family's range (base: finite)."""
        if math.isfinite(largest):
            return
        big = max(float(np.abs(data).max(initial=0.0)) for _, _, data in rows)
        raise ValueError(
            f"||x||^2 overflows float64 (feature values up to {big:.3g}, the intercept column's "
            "intercept_scaling included); scale the features first, e.g. "
            "sklearn.preprocessing.MaxAbsScaler or Normalizer"
        )

    def _check_weights(self, weights, n: int, largest: float):
        """None, or ``n`` float64 weights > 0, each finite, with the steps they scale in the
        family's range (:meth:`_weight_range`)."""
        if weights is None:
            return None
        w = np.ascontiguousarray(weights, dtype=np.float64)
        if w.shape != (n,):
            raise ValueError(f"{self.owner}: {w.shape[0] if w.ndim == 1 else w.shape} weights "
                             f"for {n} samples")  # fmt: skip
        if n and not (np.all(np.isfinite(w)) and w.min() > 0.0):
            raise ValueError(f"{self.owner}: sample weights must be finite numbers > 0 here")
        if n:
            low, high, why = self._weight_range(largest)
            bad = w[(w < low) | (w > high)]
            if bad.size:
                raise ValueError(
                    f"{self.owner}: an example weight of {bad[0]:.3g} (sample_weight x "
                    f"class_weight) is out of range: {why} (weights in "
                    f"[{low:.3g}, {high:.3g}] here); scale the weights down"
                )
        return w

    # --- learning -----------------------------------------------------------------------------
    def learn(self, batch: Batch, *, record_mistakes: bool = False) -> np.ndarray:
        """One in-order pass over a checked batch (not an epoch: ``n_iter`` unchanged); new
        labels join at their first row.  Returns each row's progressive mistake (whether the
        model mispredicted it before its step; empty unless ``record_mistakes``)."""
        self._fresh(batch)
        mistakes = np.zeros(batch.n, dtype=np.bool_) if record_mistakes else _NO_MISTAKES
        if not batch.joins:
            self._sweep(batch, np.arange(batch.n, dtype=np.int64), batch.y_idx, mistakes)
            return mistakes
        y_idx = np.zeros(batch.n, dtype=np.int64)
        start = 0
        for stop, label in [*batch.joins, (batch.n, _END)]:
            if stop > start:  # rows [start, stop) with the classes known so far
                y_idx[start:stop] = self._index(batch.labels[start:stop])
                seen = mistakes[start:stop] if record_mistakes else mistakes
                self._sweep(batch, np.arange(start, stop, dtype=np.int64), y_idx, seen)
                start = stop
            if label is not _END:  # then the new label joins: a zero row (the prior)
                position, self.classes = lab.with_class(self.classes, label, batch.labels.dtype)
                self._add_class(position)
                self._generation += 1
        return mistakes

    def epochs(self, batch: Batch, epochs: int = 1, rng=None) -> None:
        """``epochs`` passes over a checked batch whose labels are all classes, each in a fresh
        ``rng.permutation`` order (in order when ``rng`` is None); each counts in ``n_iter``."""
        self._fresh(batch)
        if batch.y_idx is None:
            raise ValueError(f"{self.owner}: epochs() needs a batch of known classes")
        for _ in range(int(epochs)):
            order = rng.permutation(batch.n) if rng is not None else np.arange(batch.n)
            self._sweep(batch, order.astype(np.int64), batch.y_idx, _NO_MISTAKES)
            self.n_iter += 1

    def learn_rows(self, X, labels, weights=None, *, declare=None, record_mistakes=False):
        """:meth:`check` then :meth:`learn`: one in-order pass, all or nothing."""
        return self.learn(self.check(X, labels, weights, declare=declare),
                          record_mistakes=record_mistakes)  # fmt: skip

    def learn_one(self, indices: np.ndarray, values: np.ndarray, label) -> None:
        """The door for one sample (River's ``learn_one``): the row ``(indices, values)`` (CSR
        indices and values of X's columns) and its label, checked as :meth:`check` checks them
        (structure, finite values, ``||x||^2``, the label), then one step; equal to
        ``learn_rows((np.array([0, len(indices)]), indices, values), [label])`` without the
        batch's bookkeeping.  Anything but a known label and a canonical row of the kernels'
        dtypes (a new class, unsorted indices, other dtypes, a refusal) takes that path."""
        y = self._label_index(label)
        indptr = one_row_indptr(indices.shape[0])  # (read-only: the kernels' one row type)
        if (
            y is not None
            and indices.dtype == index_dtype(self.n_features)
            and (values.dtype == np.float64 and indices.ndim == 1 and values.ndim == 1)
        ):
            problem, largest, ordered = scan_csr(indptr, indices, values, self.n_features)
            if not problem and ordered:
                main = (indptr, indices, values)
                rows = with_intercept(main, self.n_features, self.column_value())
                s = self.column_value()
                self._check_norms(largest + s * s, rows)
                if self.classes.shape[0] > 1:
                    n = self._epoch(rows, np.array([y], dtype=np.int64), _ORDER_ONE,
                                    _NO_MISTAKES, None)  # fmt: skip
                    self.n_updates += int(n)
                else:
                    self._count_passive(1)
                self.t += 1
                return
        labels = np.empty(1, dtype=object)
        labels[0] = label
        self.learn_rows((indptr, indices, values), labels)

    def learn_small(self, columns, values, label) -> bool:
        """The per-sample door's plain-Python path (:mod:`.small`): learn one small row given
        as its columns and values (two iterables, e.g. a River dict's), if this family has
        the path and the sample is for it; True when learned, False when nothing changed and
        the sample is for :meth:`learn_one` (which learns it, or refuses it by name).  The
        model is the one :meth:`learn_one` makes, to the last bit."""
        return False

    def small_scores(self, columns, values) -> list[float] | None:
        """One small row's class scores in plain Python (:mod:`.small`), equal to
        :meth:`scores`' row; None when the row is not for this path (then :meth:`scores`)."""
        return None

    def _label_index(self, label):
        """One label's class index (None if it is not a class yet), refused as
        :func:`~olearn.estimators.engine.labels.check_labels` refuses it."""
        lab.check_label(label, 0, self.owner)
        return self._class_index().get(label)

    def _class_index(self) -> dict:
        """label -> column, kept until the classes change."""
        cache = self.__dict__.get("_index_cache")
        if cache is None or cache[0] != self._generation:
            cache = (self._generation, {c: i for i, c in enumerate(self.classes.tolist())})
            self._index_cache = cache
        return cache[1]

    def _fresh(self, batch: Batch) -> None:
        if type(batch) is not Batch or batch.generation != self._generation:
            raise ValueError(
                f"{self.owner}: learn takes a Batch from this engine's check(), made since its "
                "classes or width last changed"
            )

    def _sweep(self, batch: Batch, order: np.ndarray, y_idx, mistakes) -> None:
        """One kernel pass over the rows ``order``.  A one-class model has no rival class, so
        every rule is passive: nothing to run, and its prediction (the only class) is right."""
        if self.classes.shape[0] > 1:
            self.n_updates += int(self._epoch(batch.rows, y_idx, order, mistakes, batch.weights))
        else:  # their iterates (zero weights) still count in an average
            self._count_passive(order.shape[0])
        self.t += order.shape[0]

    # --- reading ------------------------------------------------------------------------------
    def scores(self, X) -> np.ndarray:
        """Raw class scores (n, K) of X (checked as at the door, norms aside), with the weights
        predictions use (the average of the iterates, with averaging).  X as :meth:`check`
        takes it; raw CSR arrays are scored row by row by the kernels' own primitive (River's
        ``predict_one``)."""
        if isinstance(X, tuple):
            return self._row_scores(self._scan(X)[0])
        if sp.issparse(X):
            indptr, indices, data = self._scan(X)[0][0]
            X = sp.csr_matrix((data, indices, indptr), shape=(indptr.shape[0] - 1, self.n_features))
        else:
            X = np.ascontiguousarray(X, dtype=np.float64)
            if X.ndim != 2 or X.shape[1] != self.n_features:
                raise ValueError(f"{self.owner}: X must be 2-D, {self.n_features} wide")
            if scan_dense(X)[0]:
                raise ValueError(f"{self.owner}: X holds NaN or infinity (a value must be finite)")
        return self._scores(X)

    def _row_scores(self, rows: tuple) -> np.ndarray:
        """Scores of the kernels' rows (a family may score them without building a matrix)."""
        indptr, indices, data = rows[0]
        n = indptr.shape[0] - 1
        return self._scores(sp.csr_matrix((data, indices, indptr), shape=(n, self.n_features)))

    # --- the public state ---------------------------------------------------------------------
    def get_state(self) -> dict:
        """The model as plain arrays and scalars (copies): the common keys
        (:data:`olearn.estimators.engine.state.COMMON_KEYS`) and the family's arrays."""
        names = self.feature_names
        return {
            "version": st.STATE_VERSION,
            "params": dict(self.params),
            "classes": self.classes.copy(),
            "n_features_in": int(self.n_features),
            "feature_names_in": None if names is None else names.copy(),
            "t": int(self.t),
            "n_updates": int(self.n_updates),
            "n_iter": int(self.n_iter),
            **self._state_arrays(),
        }

    def widen(self, n_features: int) -> None:
        """Add feature columns up to ``n_features`` (their weights 0; the prior variance),
        after the family's limits and the budget allow it; a narrower width is refused."""
        n_features = int(n_features)
        if n_features < self.n_features:
            raise ValueError(f"{self.owner}: cannot narrow {self.n_features} to {n_features}")
        if n_features == self.n_features:
            return
        self._check_size(n_features, self.classes.shape[0])
        self._widen(n_features)
        self.n_features, self.feature_names = n_features, None
        self._generation += 1

    def weight_is_presence(self) -> bool:
        """True when the rule's step cannot use an example's weight: any weight > 0 imposes
        the constraint as a weight of 1 would, and 0 drops it (hard PA and SPA, CW: no price
        to scale; :meth:`_weight_range` gives them no limit and no reason)."""
        return not self._weight_range(1.0)[2]

    def warn_unused_weight(self, who: str, stacklevel: int = 1) -> None:
        """Warn (UserWarning, once per model) when the rule cannot use a weight's size
        (:meth:`weight_is_presence`), naming the rule and what to use instead; ``who`` names
        the caller, ``stacklevel`` counts from the caller as :func:`warnings.warn` does."""
        if self.__dict__.get("_weight_warned") or not self.weight_is_presence():
            return
        self._weight_warned = True
        rule, remedy = self._weight_remedy()
        message = unused_weight_message(who, rule, remedy)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)

    def load_init(self, coef, intercept) -> None:
        """``fit``'s ``coef_init`` / ``intercept_init`` (families with plain weights)."""
        raise ValueError(f"{self.owner}.fit does not take coef_init / intercept_init")

    # --- the family's hooks -------------------------------------------------------------------
    def _setup(self, **structure) -> None:
        """Store (and check) the structural values: what fixes the state's shape or meaning."""

    @property
    def params(self) -> dict:
        """The structural values as the state records them (``get_state()["params"]``)."""
        return {}

    def tune(self, **steps) -> None:
        """Set the step sizes the next passes use (C, eta, r, ...: they may change between
        calls, unlike the structure)."""

    def column_value(self) -> float:
        """The intercept column's value (0: no intercept column)."""
        return 0.0

    def state_bytes(self, n_features: int, n_classes: int) -> tuple[int, str]:
        """``(bytes, description)`` of a model of this size (the budget's question)."""
        raise NotImplementedError

    def _check_width(self, n_features: int) -> None:
        """Raise ValueError if the family cannot hold ``n_features`` columns."""
        if isinstance(n_features, bool) or not isinstance(n_features, Integral) or n_features < 1:
            raise ValueError(f"{self.owner}: n_features must be a positive int")

    def _weight_range(self, largest: float) -> tuple[float, float, str]:
        """``(low, high, why)``: the example weights whose scaled step stays in range for rows
        of ``||x||^2 <= largest``; ``why`` empty: the weight scales nothing (its presence)."""
        return 0.0, math.inf, ""

    def _weight_remedy(self) -> tuple[str, str]:
        """``(rule name, what to use instead)`` for a rule whose weight is its presence."""
        return type(self).__name__, "use a rule with a price"

    def _allocate(self) -> None:
        raise NotImplementedError

    def _add_class(self, position: int) -> None:
        raise NotImplementedError

    def _widen(self, n_features: int) -> None:
        raise NotImplementedError

    def _epoch(self, rows, y_idx, order, mistakes, weights) -> int:
        raise NotImplementedError

    def _count_passive(self, n: int) -> None:
        """Samples a one-class model passed without a kernel call (averaging counts them)."""

    def _scores(self, X) -> np.ndarray:
        raise NotImplementedError

    def _state_spec(self, n_classes: int, n_features: int) -> dict:
        raise NotImplementedError

    def _state_arrays(self) -> dict:
        raise NotImplementedError

    def _load_arrays(self, arrays: dict) -> None:
        raise NotImplementedError
