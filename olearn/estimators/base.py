"""The scikit-learn boundary shared by every olearn online classifier.

Validation, label encoding and the epoch loop live here; a family supplies three hooks:

- ``_init_state(n_features, n_classes)`` : fresh model state (all-zero weights, ...).
- ``_epoch(rows, y_idx, order, mistakes, weights) -> int`` : one pass of its numba kernel over
  the rows ``order`` of ``rows`` (the CSR blocks of ``kernels.sparse.csr_rows``: X, then the
  intercept column), each example weighted by ``weights[row]`` (None: all 1; see
  :mod:`olearn.estimators._weights`); fills ``mistakes`` (when not empty) with whether each
  prediction made before its update was wrong; returns the number of aggressive steps.
- ``_scores(X) -> (n, K)`` : raw class scores for validated X.

Hyper-parameters are declared once per class in scikit-learn's ``_parameter_constraints``
(Interval, StrOptions, "boolean") and checked by ``_validate_params`` on every ``fit`` /
``partial_fit``; a family may add cross-parameter checks in ``_check_params``.  Sparse input is
checked once here, at O(nnz) (indices in range, indptr monotone), before any kernel sees it,
and so is the finiteness of every ``||x||^2``.

Where parameters meet state (:class:`ModelState`, shared with the batch estimators):

- a family declares the parameters its stored state was built for (``_state_params``: the
  model's shape, or what its numbers mean, e.g. ``fit_intercept`` or the covariance kind);
  changing one with ``set_params`` and then calling ``partial_fit``, ``predict`` ... is
  refused with a ValueError naming it (as scikit-learn refuses a changed feature count);
  the others (step sizes such as ``C``, ``eta``, ``r``, a variant) apply from the next step;
- a family declares its state's size (``_state_bytes``), checked against the memory budget
  (:func:`olearn._budget.require`) before anything is allocated;
- one rule for failures: a ``fit`` that fails, or a ``partial_fit`` that fails while it
  builds or updates the state, leaves the estimator unfitted (never half-fitted); a later
  ``partial_fit`` refused at validation (bad X, y, labels or a changed parameter) leaves the
  model as it was.

``fit`` = fresh state (or ``coef_init``, or the current one with ``warm_start``) + ``epochs``
passes (shuffled with ``random_state`` if ``shuffle``), fewer if ``tol`` stops it
(:mod:`olearn.estimators._fit_options`); ``partial_fit`` = exactly one pass over the given
samples, in the given order.

The public state (:meth:`OnlineClassifier.get_state` / ``set_state``) is a dict of plain
arrays and scalars; a family adds its arrays through three more hooks, ``_state_spec(K, d)``
(each array's shape and kind, which ``set_state`` checks), ``_state_arrays()`` (copies out)
and ``_load_state_arrays(arrays)`` (copies in).  A family whose state can take a class
mid-stream (``_grows = True``) adds ``_add_class(position)``: a zero row at ``position``.
"""

from __future__ import annotations

import bisect
import functools
import importlib
import math
import time
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, make_constraint
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from olearn._budget import model_bytes, require
from olearn.estimators import _fit_options as fit_options
from olearn.estimators import _stream
from olearn.estimators._average import (
    AVERAGE_CONSTRAINT,
    AveragedWeights,
    average_start,
    count_unchanged,
)
from olearn.estimators._fit_options import FIT_CONSTRAINTS, per_class_init
from olearn.estimators._weights import CLASS_WEIGHT_CONSTRAINT, example_weights
from olearn.kernels.sparse import csr_rows, index_problem

FLOAT_MAX = float(np.finfo(np.float64).max)


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


def _encode_classes(y: np.ndarray) -> np.ndarray:
    """Sorted unique labels (first-appearance order when labels of mixed types can't sort)."""
    try:
        return np.unique(y)
    except TypeError:
        seen: dict = {}
        for label in y:
            seen.setdefault(label, None)
        return np.array(list(seen), dtype=object)


def _with_class(classes: np.ndarray, label, y_dtype) -> tuple[int, np.ndarray]:
    """Where a new ``label`` joins ``classes``, and the grown array of classes.

    Sorted ``classes`` stay sorted: the new class sits where ``fit`` on the same labels puts
    it, so ties (lowest index wins) break the same way, and a class declared up front with
    ``classes=`` has the same column.  A label that cannot be ordered with them (mixed types;
    classes already in first-appearance order) is appended, the order ``_encode_classes``
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


def check_sparse_structure(X) -> None:
    """Raise ValueError unless a CSR/CSC/BSR matrix is well formed (O(nnz)).

    scipy does not check index ranges when a matrix is built from raw arrays; a kernel that
    trusted them would read or write out of bounds (an index equal to n_features would even
    train the intercept row silently).
    """
    if not (sp.issparse(X) and X.format in ("csr", "csc", "bsr")):
        return
    try:
        X.check_format(full_check=False)  # lengths, dtypes, indptr's ends: O(1) to O(n)
        if X.format == "bsr":
            X.check_format(full_check=True)
            return
        problem = index_problem(X.indptr, X.indices, X.shape[1 if X.format == "csr" else 0])
    except (ValueError, TypeError, IndexError) as err:
        raise ValueError(f"malformed sparse matrix ({X.format}): {err}") from None
    if problem:
        what = ("indptr must be non-decreasing", "an index is out of range")[problem - 1]
        raise ValueError(f"malformed sparse matrix ({X.format}): {what}")


def largest_sqnorm(rows: tuple, enough: float = FLOAT_MAX) -> float:
    """``max_i ||x_i||^2`` over the kernels' CSR blocks (``kernels.sparse.csr_rows``), or a
    smaller-than-``enough`` upper bound of it when that settles a check (``inf`` on overflow).

    Cheap first: the sum of all squares (one pass) bounds every row's; only when it exceeds
    ``enough`` are the rows summed one by one.  ``einsum``, not ``data @ data``: a BLAS call
    leaves its threads spinning, and on two cores they halve the speed of the single-threaded
    epoch that follows.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        total = sum(float(np.einsum("i,i", data, data)) for _, _, data in rows)
        if total <= enough:
            return total
        sq = sum(
            np.add.reduceat(np.r_[d * d, 0.0], ip[:-1]) * (np.diff(ip) > 0) for ip, _, d in rows
        )
    sq = np.asarray(sq)
    if sq.size == 0:
        return 0.0
    return math.inf if not np.all(np.isfinite(sq)) else float(sq.max())


def check_sqnorms(rows: tuple) -> None:
    """Raise ValueError if some ``||x_i||^2`` overflows float64 (feature values ~1e154 up)."""
    if math.isfinite(largest_sqnorm(rows)):
        return
    big = max(float(np.abs(data).max(initial=0.0)) for _, _, data in rows)
    raise ValueError(
        f"||x||^2 overflows float64 (feature values up to {big:.3g}, the intercept column's "
        "intercept_scaling included); scale the features first, e.g. "
        "sklearn.preprocessing.MaxAbsScaler or Normalizer"
    )


STATE_VERSION = 1
_COMMON_KEYS = frozenset(
    {"version", "params", "classes", "n_features_in", "feature_names_in", "t", "n_updates",
     "n_iter"}
)  # fmt: skip


def _state_sizes(name: str, state: dict, classes: np.ndarray, least: int) -> tuple[int, int]:
    """``(K, d)`` from a state's classes and width, checked."""
    if classes.ndim != 1 or classes.shape[0] < least:
        raise ValueError(f"{name}.set_state: 'classes' must be 1-D with >= {least} labels")
    if len(set(classes.tolist())) != classes.shape[0]:
        raise ValueError(f"{name}.set_state: 'classes' holds a label twice")
    d = state.get("n_features_in")
    if isinstance(d, bool) or not isinstance(d, Integral) or d < 1:
        raise ValueError(f"{name}.set_state: 'n_features_in' must be a positive int, got {d!r}")
    return classes.shape[0], int(d)


def _check_keys(name: str, state: dict, family: set) -> None:
    expected = _COMMON_KEYS | family
    missing, extra = expected - set(state), set(state) - expected
    if missing or extra:
        raise ValueError(
            f"{name}.set_state: missing keys {sorted(missing)}, unexpected keys {sorted(extra)} "
            "(a dict from this class's get_state, with the same parameters)"
        )


def _count(name: str, key: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 0:
        raise ValueError(f"{name}.set_state: {key!r} must be an int >= 0, got {value!r}")
    return int(value)


def _state_array(name: str, key: str, value, shape: tuple, kind: str) -> np.ndarray:
    """A float64 (``kind`` "real" / "positive") or int64 ("count") copy of a state array,
    checked: its shape, a real (or integer) dtype, finite, and > 0 or >= 0 by kind."""
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


class ModelState:
    """Where parameters meet fitted state: the checks every olearn estimator shares.

    Hooks (a family overrides them):

    - ``_state_params() -> dict``: the parameters the stored state was built for, with the
      values that matter (only those that change the state's shape or the meaning of its
      numbers; step sizes are not among them);
    - ``_state_bytes(n_samples, n_features, n_classes) -> (nbytes, what)``: the bytes the
      fit will allocate for its state, and a description naming the sizes.
    """

    def _state_params(self) -> dict:
        return {}

    def _state_bytes(self, n_samples: int, n_features: int, n_classes: int) -> tuple[int, str]:
        return 0, "the model"

    def _require_budget(self, n_samples: int, n_features: int, n_classes: int) -> None:
        """Raise :class:`olearn._budget.BudgetError` (a ValueError) before allocating a state
        over the memory budget (``$OLEARN_MAX_BYTES``)."""
        nbytes, what = self._state_bytes(int(n_samples), int(n_features), int(n_classes))
        require(nbytes, f"{type(self).__name__}: {what}")

    def _remember_state_params(self) -> None:
        """Record the parameters the state is being built for (called with the state)."""
        self._built_for = self._state_params()

    def _check_state_params(self, action: str) -> None:
        """Raise ValueError if a parameter the state was built for changed since (set_params)."""
        built = getattr(self, "_built_for", None)
        if built is None:  # unfitted (or pickled before this check existed)
            return
        now = self._state_params()
        changed = [name for name in built if now.get(name) != built[name]]
        if changed:
            what = ", ".join(f"{n}={built[n]!r} (now {now.get(n)!r})" for n in changed)
            raise ValueError(
                f"{type(self).__name__}: cannot {action}: the fitted model was built for "
                f"{what}, and {'that parameter' if len(changed) == 1 else 'those parameters'} "
                "fixes the shape or the meaning of its state.  Set it back with set_params, "
                "or call fit to learn a new model from scratch with the new value."
            )

    def _forget(self) -> None:
        """Drop every fitted attribute (``name_``) and private state (``_name``): the estimator
        is unfitted again.  scikit-learn's own private settings (``_metadata_request``,
        ``_sklearn_output_config``) are not state and stay."""
        for name in list(vars(self)):
            if name.startswith("__") or name in _SKLEARN_SETTINGS:
                continue
            if name.endswith("_") or name.startswith("_"):
                delattr(self, name)


_SKLEARN_SETTINGS = frozenset({"_metadata_request", "_sklearn_output_config"})


def unfitted_on_failure(fit):
    """Decorate a ``fit``: if it raises, the estimator is left unfitted (``_forget``), never
    with a half-replaced model (the previous fit's attributes beside the failed one's)."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        try:
            return fit(self, *args, **kwargs)
        except Exception:
            self._forget()
            raise

    return wrapper


@functools.cache
def _constraint_objects(cls: type) -> dict:
    """``cls._parameter_constraints`` as scikit-learn's constraint objects, built once."""
    return {
        name: [make_constraint(c) for c in constraints]
        for name, constraints in cls._parameter_constraints.items()
        if constraints != "no_validation"
    }


class OnlineClassifier(ModelState, ClassifierMixin, BaseEstimator):
    """Base class: scikit-learn ``fit`` / ``partial_fit`` / ``predict`` over a numba kernel."""

    def _validate_params(self) -> None:
        """scikit-learn's parameter check, with its constraint objects built once per class
        (it runs on every ``partial_fit`` call, and building them took ~20 us a parameter);
        a failing value is checked again by scikit-learn's own function, which raises its
        InvalidParameterError, word for word."""
        checks = _constraint_objects(type(self))
        for name, value in self.get_params(deep=False).items():
            constraints = checks.get(name)
            if constraints is not None and not any(c.is_satisfied_by(value) for c in constraints):
                super()._validate_params()

    _parameter_constraints: dict = {
        "fit_intercept": ["boolean"],
        "epochs": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        **FIT_CONSTRAINTS,  # tol, n_iter_no_change, early_stopping, ... (_fit_options)
        "class_weight": CLASS_WEIGHT_CONSTRAINT,
    }

    # True when the family's kernel only sums x_j-weighted terms, so dense rows can be passed
    # with their zeros as explicit entries instead of being converted to CSR.
    _dense_view = False

    # --- hooks ---------------------------------------------------------------------------
    def _init_state(self, n_features: int, n_classes: int) -> None:  # pragma: no cover
        raise NotImplementedError

    def _epoch(self, rows, y_idx, order, mistakes, weights) -> int:  # pragma: no cover
        raise NotImplementedError

    def _scores(self, X) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _check_params(self) -> None:
        """Cross-parameter checks beyond ``_parameter_constraints`` (ValueError)."""

    def _column_value(self) -> float:
        """The constant column appended to X for the intercept (0: none)."""
        return 0.0

    def _state_params(self) -> dict:
        # with or without an intercept: the state's shape (one more row) or, for SGD-SVM,
        # whether its bias is part of the model
        return {"fit_intercept": bool(self.fit_intercept)}

    # --- validation ------------------------------------------------------------------------
    def _validate(self, X, y, reset: bool):
        check_sparse_structure(X)
        X, y = validate_data(
            self, X, y, accept_sparse="csr", dtype=np.float64, reset=reset, y_numeric=False
        )
        check_classification_targets(y)
        return X, y

    def _validate_X(self, X):
        check_is_fitted(self, "classes_")
        self._check_state_params("predict")
        check_sparse_structure(X)
        return validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)

    def _known(self, y: np.ndarray):
        """``y``'s class indices, or None when some label is not in ``classes_`` yet."""
        try:
            return self._labels_to_index(y)
        except ValueError:
            return None

    def _labels_to_index(self, y: np.ndarray) -> np.ndarray:
        classes = self.classes_
        if classes.dtype != object and y.dtype != object:
            try:  # sorted classes_ (np.unique): a vectorised lookup, no Python loop
                idx = np.minimum(np.searchsorted(classes, y), classes.shape[0] - 1)
                if np.all(classes[idx] == y):
                    return idx.astype(np.int64)
            except (TypeError, ValueError, np.exceptions.DTypePromotionError):
                pass  # incomparable kinds (e.g. str classes_, int y): the general path
        index = {label: i for i, label in enumerate(self.classes_.tolist())}
        try:
            return np.fromiter((index[label] for label in y.tolist()), np.int64, len(y))
        except KeyError as err:
            unknown = sorted({repr(v) for v in y.tolist() if v not in index})
            kinds = sorted({type(v).__name__ for v in self.classes_.tolist()})
            raise ValueError(
                f"labels {', '.join(unknown)} are not in classes_ "
                f"{[*self.classes_.tolist()]!r} (of type {'/'.join(kinds)}); pass every class "
                "with classes=... on the first partial_fit call, with the labels' own type"
            ) from err

    # --- the loop --------------------------------------------------------------------------
    def _arrays(self, X) -> tuple:
        """X's rows as the kernels read them (the intercept column appended), norms checked."""
        rows = csr_rows(X, self._dense_view, self._column_value())
        check_sqnorms(rows)
        return rows

    def _sweep(self, rows, y_idx, order, mistakes, weights=None) -> None:
        """One kernel pass over the rows ``order``.  A one-class model (a ``partial_fit`` stream
        whose first label is alone) has no rival class, so every rule is passive: nothing to
        run, and its prediction (the only class) is right."""
        if self.classes_.shape[0] > 1:
            self.n_updates_ += int(self._epoch(rows, y_idx, order, mistakes, weights))
        else:  # their iterates (zero weights) still count in an average
            count_unchanged(getattr(self, "_avg", None), order.shape[0])
        self.t_ += order.shape[0]

    def _run(self, rows, y_idx, epochs: int, rng, record_mistakes=False, weights=None):
        n = y_idx.shape[0]
        mistakes = np.zeros(n if record_mistakes else 0, dtype=np.bool_)
        for _ in range(epochs):
            order = rng.permutation(n) if rng is not None else np.arange(n)
            self._sweep(rows, y_idx, order.astype(np.int64), mistakes, weights)
            self.n_iter_ += 1
        return mistakes if record_mistakes else None

    def _run_growing(self, rows, y, joins: list, record_mistakes: bool, weights=None):
        """One in-order pass over a batch whose labels ``joins`` (``(row, label)`` pairs, in
        row order) are new: rows ``[start, row)`` run with the classes known so far, then
        ``label`` joins (``_add_class``: a zero row, the prior), and so on to the end."""
        n = y.shape[0]
        mistakes = np.zeros(n if record_mistakes else 0, dtype=np.bool_)
        y_idx = np.zeros(n, dtype=np.int64)
        start = 0
        for stop, label in [*joins, (n, None)]:
            if stop > start:
                y_idx[start:stop] = self._labels_to_index(y[start:stop])
                seen = mistakes[start:stop] if record_mistakes else mistakes
                self._sweep(rows, y_idx, np.arange(start, stop, dtype=np.int64), seen, weights)
                start = stop
            if label is not None:
                position, self.classes_ = _with_class(self.classes_, label, y.dtype)
                self._add_class(position)
        self.n_iter_ += 1
        return mistakes if record_mistakes else None

    def _new_labels(self, y: np.ndarray, classes) -> list:
        """``(row, label)`` for every label not yet in ``classes_``, at its first row (a label
        declared with ``classes=`` on a later call joins at row 0); [] when all are known.
        ValueError for a family whose state cannot grow."""
        if classes is None and y.shape[0] == 0:  # the plain path: nothing new
            return []
        known = set(self.classes_.tolist())
        joins = []
        for label in [] if classes is None else np.asarray(classes).tolist():
            if label not in known:
                known.add(label)
                joins.append((0, label))
        for row, label in enumerate(y.tolist()):
            if label not in known:
                known.add(label)
                joins.append((row, label))
        names = {str(label): type(label).__name__ for label in self.classes_.tolist() if joins}
        alike = [label for _, label in joins if str(label) in names]
        if alike:  # 0 where "0" is a class: almost surely the wrong type, not a new class
            kinds = sorted({names[str(label)] for label in alike})
            raise ValueError(
                f"labels {', '.join(map(str, alike))} are not in classes_ "
                f"{self.classes_.tolist()!r} but read like its labels of type "
                f"{'/'.join(kinds)}; pass labels of the classes' own type (a new class must "
                "not look like a known one)"
            )
        if joins and not self._grows:
            unknown = ", ".join(repr(label) for _, label in joins)
            raise ValueError(
                f"labels {unknown} are not in classes_ {self.classes_.tolist()!r}: "
                f"{type(self).__name__} cannot add a class mid-stream (a batch reference: "
                "its one-vs-rest models would need the past samples); pass every class with "
                "classes=... on the first partial_fit call, with the labels' own type"
            )
        return joins

    def _add_class(self, position: int) -> None:  # pragma: no cover - families with _grows
        raise NotImplementedError

    def _start(self, X, classes: np.ndarray, least: int = 2) -> None:
        """Fresh state for ``classes`` (at least ``least``) and X's width."""
        if classes.shape[0] < least:
            n = classes.shape[0]
            raise ValueError(
                f"this classifier needs samples of at least {least} classes; got {n} class"
                f"{'' if n == 1 else 'es'}: {classes.tolist()} (with partial_fit, pass "
                "classes=[...] listing every label)"
            )
        self._require_budget(X.shape[0], X.shape[1], classes.shape[0])
        self.classes_ = classes
        self._init_state(X.shape[1], classes.shape[0])
        self._remember_state_params()
        self.t_ = self.n_iter_ = self.n_updates_ = 0

    # --- public API ----------------------------------------------------------------------
    @unfitted_on_failure
    def fit(self, X, y=None, coef_init=None, intercept_init=None, sample_weight=None):
        """Learn with ``epochs`` passes over (X, y): from zero weights, from ``coef_init`` /
        ``intercept_init``, or (``warm_start=True``, fitted) from the current state; fewer
        passes when ``tol`` stops it (see the class's parameters).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or a store
            (:mod:`olearn.datasets.store`, with ``y=None``): streamed chunk by chunk
            (:mod:`olearn.estimators._stream`; no ``tol``, ``early_stopping``, inits or
            weights).
        y : array-like of shape (n_samples,), labels of any hashable type.
        coef_init : array-like of shape (n_classes, n_features), optional
            Initial weights (per-class rows, in ``classes_`` order; the rest of the state,
            e.g. a covariance, starts as usual).  For two classes also (1, n_features) or
            (n_features,): the difference ``w_1 - w_0`` that ``coef_`` reports, split as
            ``w_1 = c / 2``, ``w_0 = -c / 2`` (exact), so ``coef_`` equals it before the
            first step.  Takes precedence over ``warm_start``, as in scikit-learn.
        intercept_init : array-like of shape (n_classes,), optional
            Initial ``intercept_`` (needs ``fit_intercept=True``); for two classes also (1,),
            the difference, split the same way.
        sample_weight : array-like of shape (n_samples,), default=None
            Each example's weight ``s >= 0``, times ``class_weight``'s for its class; what it
            means for this rule is in the class's *Notes*.  A weight of 0 is the example's
            absence, exactly (the model equals the one fitted without it, bit for bit).

        Returns
        -------
        self
        """
        if _stream.is_stream(X):  # a chunked store (olearn.datasets.store): y=None
            return _stream.fit(self, X, y, coef_init, intercept_init, sample_weight)
        self._validate_params()
        self._check_params()
        init = coef_init is not None or intercept_init is not None
        warm = bool(self.warm_start) and not init and hasattr(self, "classes_")
        if warm:
            self._check_state_params("continue with a warm-start fit")
        X, y = self._validate(X, y, reset=not warm)
        X, y, weights, _ = example_weights(X, y, sample_weight, self.class_weight, partial=False)
        arrays = self._arrays(X)
        if warm:
            y_idx = self._warm_labels(y)
            self.n_iter_ = 0  # this fit's epochs
        else:
            self._start(X, _encode_classes(y))
            y_idx = self._labels_to_index(y)
            if init:
                K, d = self.classes_.shape[0], self.n_features_in_
                self._load_init(*per_class_init(coef_init, intercept_init, K, d, self._name))
        rng = check_random_state(self.random_state) if self.shuffle else None
        if self.tol is None and not self.verbose and not self.early_stopping:
            self._run(arrays, y_idx, self.epochs, rng, weights=weights)  # the plain path
        else:
            self._run_watched(X, arrays, y_idx, rng, weights)
        return self

    @property
    def _name(self) -> str:
        return type(self).__name__

    def _warm_labels(self, y: np.ndarray) -> np.ndarray:
        try:
            return self._labels_to_index(y)
        except ValueError as err:
            raise ValueError(
                f"{self._name}: warm_start=True continues the fitted model, whose classes_ are "
                f"{self.classes_.tolist()!r}; y holds other labels ({err}).  Add classes with "
                "partial_fit, or set warm_start=False to learn a new model"
            ) from None

    def _load_init(self, coef: np.ndarray | None, intercept: np.ndarray | None) -> None:
        """Load ``fit``'s per-class ``coef_init`` (K, d) / ``intercept_init`` (K,)."""
        raise ValueError(f"{self._name}.fit does not take coef_init / intercept_init")

    def _run_watched(self, X, arrays, y_idx: np.ndarray, rng, weights=None) -> None:
        """``_run`` one epoch at a time, with ``tol`` / ``early_stopping`` / ``verbose``
        (:mod:`olearn.estimators._fit_options`); the same permutations as ``_run``."""
        start = time.perf_counter()
        held = None
        if self.early_stopping:  # held out even with tol=None, as in scikit-learn
            train, held = fit_options.validation_split(
                y_idx, self.validation_fraction, self.random_state
            )
            X_held, y_held = X[held], y_idx[held]
            X, y_idx = X[train], y_idx[train]
            weights = None if weights is None else weights[train]
            arrays = self._arrays(X)
        stopping = fit_options.Stopping(self.tol, self.n_iter_no_change, held is not None)
        for epoch in range(1, self.epochs + 1):
            updates = self.n_updates_
            self._run(arrays, y_idx, 1, rng, weights=weights)
            loss = score = None
            if held is None or self.verbose:
                loss = fit_options.hinge_loss(np.asarray(self._scores(X)), y_idx)
            if held is not None:
                score = float(np.mean(np.argmax(self._scores(X_held), axis=1) == y_held))
            if self.verbose:
                updates = self.n_updates_ - updates
                fit_options.report_epoch(epoch, updates, loss, self.t_, start, score)
            if stopping.done(loss if held is None else score):
                if self.verbose:
                    print(f"Convergence after {epoch} epochs took "
                          f"{time.perf_counter() - start:.2f} seconds")  # fmt: skip
                return
        if self.tol is not None:
            fit_options.warn_not_converged(self._name, self.epochs)

    def partial_fit(self, X, y=None, classes=None, sample_weight=None):
        """One update per sample, in the given order (a single online pass).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or a store
            (:mod:`olearn.datasets.store`, with ``y=None``): one pass in order, one chunk in
            memory; equal to the same rows in memory.
        y : array-like of shape (n_samples,), labels of any hashable type.
        classes : array-like, optional
            Labels to declare before the first sample (default: none).  A label seen for the
            first time, in ``y`` (on the first call too) or here, joins ``classes_`` with a
            zero weight row (the prior mean, for the confidence-weighted family; the
            covariance is shared already) at that moment: at its first sample, or, declared
            here, before this call's first sample.  So one call on a batch equals one call
            per sample, exactly.  The two differ: a declared class scores 0 from the
            start, so it can be the best wrong class of earlier updates (and be pushed down by
            them); a class that joins mid-stream takes part only from its first sample on.
            They agree while the declared class was never a rival.  ``classes_`` stays sorted
            (labels that cannot be ordered are appended).  The first call may hold a single
            class: the model predicts it, learns nothing (there is no rival) and starts
            learning when a second class arrives.  (``fit`` needs two classes, as in
            scikit-learn.)  ``SGDSVMClassifier`` cannot add classes: declare them all on its
            first call.
        sample_weight : array-like of shape (n_samples,), default=None
            As in :meth:`fit`; rows of weight 0 are absent (their labels do not join).
            ``class_weight="balanced"`` is refused here (a batch does not know the stream's
            class frequencies; pass a dict).

        Returns
        -------
        self
        """
        if _stream.is_stream(X):  # a chunked store, one pass in order
            _stream.partial(self, X, y, classes, sample_weight, record_mistakes=False)
            return self
        self._partial(X, y, classes, record_mistakes=False, sample_weight=sample_weight)
        return self

    _grows = False  # True: a class can join mid-stream (``_add_class``)

    def _partial(self, X, y, classes, record_mistakes: bool, sample_weight=None):
        first = not hasattr(self, "classes_")
        try:
            self._validate_params()
            self._check_params()
            if not first:
                self._check_state_params("continue with partial_fit")
            X, y = self._validate(X, y, reset=first)
            n_given = y.shape[0]
            X, y, weights, kept = example_weights(
                X, y, sample_weight, self.class_weight, partial=True
            )
            if y.shape[0] == 0:  # every weight 0: the call is absent
                if first:
                    self._forget()
                return np.zeros(n_given if record_mistakes else 0, dtype=np.bool_)
            arrays = self._arrays(X)
            if first:  # declared classes; else the first label (growing) or all of y's
                given = y[:1] if self._grows else y
                given = np.asarray(classes) if classes is not None else given
                self._start(X, _encode_classes(given), least=1 if self._grows else 2)
                classes = None  # ``y``'s other labels join at their first row
            y_idx = self._known(y)  # the plain path: every label known
            joins = self._new_labels(y if y_idx is None else y[:0], classes)
            if joins:  # the grown model must fit the budget before anything changes
                self._require_budget(X.shape[0], X.shape[1], len(self.classes_) + len(joins))
        except Exception:
            if first:
                self._forget()
            raise
        mistakes = self._partial_pass(arrays, y, y_idx, joins, record_mistakes, weights)
        if kept is not None and record_mistakes:  # an absent row is no mistake
            every = np.zeros(n_given, dtype=np.bool_)
            every[kept] = mistakes
            return every
        return mistakes

    def _partial_pass(self, rows, y, y_idx, joins: list, record_mistakes=False, weights=None):
        """The tail of ``partial_fit`` (and of the lean ``_learn_rows``): one in-order pass over
        the rows, in segments when ``joins`` are new labels (``_run_growing``), else one sweep
        with ``y_idx``; a partial pass is not an epoch (``n_iter_`` unchanged).  A kernel that
        stops mid-pass leaves the estimator unfitted (its state is half-updated).  Returns
        the progressive mistakes (empty unless ``record_mistakes``)."""
        try:
            if joins:
                mistakes = self._run_growing(rows, y, joins, record_mistakes, weights)
                self.n_iter_ -= 1
            else:  # every label known: one sweep
                n = y.shape[0]
                mistakes = np.zeros(n if record_mistakes else 0, dtype=np.bool_)
                self._sweep(rows, y_idx, np.arange(n, dtype=np.int64), mistakes, weights)
        except Exception:
            self._forget()
            raise
        return mistakes

    def learn_stream(self, X, y=None, classes=None, sample_weight=None) -> np.ndarray:
        """``partial_fit`` that also returns, per sample, whether the model mispredicted it
        *before* learning from it (progressive validation: the online mistake count).

        Returns
        -------
        mistakes : ndarray of bool, shape (n_samples,); ``mistakes.cumsum() / arange(1, n+1)``
        is the online learning curve.  A row of weight 0 is absent: False.
        """
        if _stream.is_stream(X):  # a chunked store, one pass in order
            return _stream.partial(self, X, y, classes, sample_weight, record_mistakes=True)
        return self._partial(X, y, classes, True, sample_weight=sample_weight)

    # --- the public state --------------------------------------------------------------------
    def get_state(self) -> dict:
        """Everything the model needs to go on learning, as plain arrays and scalars (copies).

        Keys (every estimator):

        - ``"version"`` : int, the layout's version (1);
        - ``"params"`` : dict, the parameters the state was built for (``fit_intercept``,
          ``intercept_scaling`` with an intercept, the covariance kind and prior ``a`` ...):
          :meth:`set_state` refuses a state built for other values;
        - ``"classes"`` : ndarray (K,), ``classes_``, in column order;
        - ``"n_features_in"`` : int; ``"feature_names_in"`` : ndarray of str, or None;
        - ``"t"``, ``"n_updates"``, ``"n_iter"`` : int, ``t_``, ``n_updates_``, ``n_iter_``;

        and the family's arrays (see the class's docstring, *State*).  Numbers are copied
        bit for bit, so a fresh estimator with the same parameters given this state by
        :meth:`set_state` continues exactly as this one would.  Parameter mixing (averaging
        several models' states key by key) is the caller's: the arrays are plain float64.

        >>> import numpy as np
        >>> from olearn.estimators import SPAClassifier
        >>> clf = SPAClassifier().partial_fit(np.eye(3), ["b", "b", "a"])  # "a" joins at row 2
        >>> state = clf.get_state()
        >>> state["classes"].tolist(), state["coef"].shape, state["t"]
        (['a', 'b'], (2, 3), 3)
        >>> state["coef"].tolist()  # "b" alone had no rival: rows 0 and 1 taught nothing
        [[0.0, 0.0, 0.5], [0.0, 0.0, -0.5]]
        >>> SPAClassifier().set_state(state).predict(np.eye(3)[2:]).tolist()
        ['a']
        """
        check_is_fitted(self, "classes_")
        self._check_state_params("give its state")
        names = getattr(self, "feature_names_in_", None)
        return {
            "version": STATE_VERSION,
            "params": dict(self._built_for),
            "classes": self.classes_.copy(),
            "n_features_in": int(self.n_features_in_),
            "feature_names_in": None if names is None else names.copy(),
            "t": int(self.t_),
            "n_updates": int(self.n_updates_),
            "n_iter": int(self.n_iter_),
            **self._state_arrays(),
        }

    def set_state(self, state: dict):
        """Replace the model by ``state`` (a :meth:`get_state` dict); returns self.

        Every entry is checked before anything changes (ValueError naming it): the keys, the
        layout version, the parameters (they must equal this estimator's: change them with
        ``set_params`` first), the classes (distinct; at least two for a family that cannot
        add classes), every array's shape, dtype (real numbers; the counters integers), that
        it is finite, and the covariance positive; then the memory budget.  The arrays are
        copied in, so the caller's stay its own.
        """
        self._validate_params()
        self._check_params()
        name = type(self).__name__
        if not isinstance(state, dict):
            raise TypeError(f"{name}.set_state takes a dict from get_state, got {type(state)}")
        if state.get("version") != STATE_VERSION:
            raise ValueError(
                f"{name}.set_state: state version {state.get('version')!r}, expected "
                f"{STATE_VERSION} (a dict from get_state)"
            )
        params, ours = state.get("params"), self._state_params()
        if params != ours:
            raise ValueError(
                f"{name}.set_state: the state was built for {params!r}, this estimator has "
                f"{ours!r}; set those parameters with set_params(...) first (they fix the "
                "shape or the meaning of the state's numbers)"
            )
        classes = np.asarray(state.get("classes"))
        K, d = _state_sizes(name, state, classes, 1 if self._grows else 2)
        spec = self._state_spec(K, d)
        _check_keys(name, state, set(spec))
        arrays = {key: _state_array(name, key, state[key], *spec[key]) for key in spec}
        counters = {key: _count(name, key, state[key]) for key in ("t", "n_updates", "n_iter")}
        names = state["feature_names_in"]
        if names is not None:
            names = np.asarray(names, dtype=object)
            if names.shape != (d,) or not all(isinstance(v, str) for v in names):
                raise ValueError(f"{name}.set_state: 'feature_names_in' must be {d} strings")
        self._require_budget(0, d, K)
        self._forget()
        self._check_params()  # its resolved values (SGD-SVM's) are state that _forget dropped
        self.classes_ = classes.copy()
        self.n_features_in_ = d
        if names is not None:
            self.feature_names_in_ = names
        self._load_state_arrays(arrays)
        self._remember_state_params()
        self.t_, self.n_updates_ = counters["t"], counters["n_updates"]
        self.n_iter_ = counters["n_iter"]
        return self

    # family hooks of the state (see the module docstring)
    def _state_spec(self, n_classes: int, n_features: int) -> dict:  # pragma: no cover
        raise NotImplementedError

    def _state_arrays(self) -> dict:  # pragma: no cover
        raise NotImplementedError

    def _load_state_arrays(self, arrays: dict) -> None:  # pragma: no cover
        raise NotImplementedError

    # pickling: the public arrays that are views of (or computed from) the state are left out
    # and rebuilt, so a pickle holds the weights once and ``coef_`` is a view again after it
    _derived = ("coef_", "intercept_")

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: object's is the live __dict__
        for name in self._derived:
            state.pop(name, None)
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        if hasattr(self, "classes_") and not hasattr(self, "coef_"):
            self._rebuild_public()

    def _rebuild_public(self) -> None:  # pragma: no cover - per family
        raise NotImplementedError

    def decision_function(self, X):
        """Class scores ``w_u . x``; for two classes, the score of ``classes_[1]`` minus
        that of ``classes_[0]`` (scikit-learn's binary convention): in both cases
        ``X @ coef_.T + intercept_`` (raveled for two classes).
        """
        scores = np.asarray(self._scores(self._validate_X(X)))
        if scores.shape[1] == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """The class with the highest score (lowest index on ties)."""
        scores = np.asarray(self._scores(self._validate_X(X)))
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # --- the lean per-sample path (olearn.river): partial_fit without its validation ---------
    def _learn_rows(self, rows: tuple, y: np.ndarray, n_features: int, y_idx=None) -> None:
        """``partial_fit`` on rows already in the kernels' form: ``rows`` are the CSR blocks of
        :func:`csr_rows` (canonical, every index < ``n_features``, the intercept block included,
        every ``||x||^2`` checked by the caller), ``y`` the labels (an object array), ``y_idx``
        their class indices when the caller knows every one.  Counters, class growth and the
        failure rule are ``partial_fit``'s; the first call starts a model of width
        ``n_features`` (parameters validated once, here)."""
        first = not hasattr(self, "classes_")
        try:
            if first:
                self._validate_params()
                self._check_params()
                self.n_features_in_ = int(n_features)
                self._start(np.empty((0, n_features)), _encode_classes(y[:1]), least=1)
            if y_idx is None:
                y_idx = self._known(y)
            joins = [] if y_idx is not None else self._new_labels(y, None)
            if joins:
                self._require_budget(0, n_features, len(self.classes_) + len(joins))
        except Exception:
            if first:
                self._forget()
            raise
        self._partial_pass(rows, y, y_idx, joins)


class LinearMulticlassClassifier(AveragedWeights, OnlineClassifier):
    """Base of the Perceptron, PA, SPA and confidence-weighted families: one weight (mean) row
    per class, the intercept a constant column of value ``intercept_scaling``.

    Fitted attributes: ``coef_`` (n_classes, n_features), ``intercept_`` (n_classes,),
    ``classes_``, ``n_features_in_``, ``t_`` (samples seen), ``n_iter_`` (epochs of the last
    ``fit``), ``n_updates_`` (aggressive steps).  The kernel's weights are feature-major,
    ``_W[feature, class]`` with the intercept column's row last; ``coef_`` is a view of them
    and ``intercept_ = intercept_scaling * _W[-1]`` (LIBLINEAR's convention).  Two classes:
    scikit-learn's convention, ``coef_`` (1, n_features) = ``w_1 - w_0`` and ``intercept_``
    (1,), computed when read (a property: no cost per ``partial_fit`` call); the per-class
    rows are the public state's (``get_state()["coef"]``).
    """

    _parameter_constraints: dict = {
        **OnlineClassifier._parameter_constraints,
        "intercept_scaling": [POSITIVE],
        "average": AVERAGE_CONSTRAINT,
    }
    _dense_view = True  # row_scores / row_axpy (and the CW family's loops) add x_j terms only

    def _column_value(self) -> float:
        return float(self.intercept_scaling) if self.fit_intercept else 0.0

    def _state_params(self) -> dict:
        # the intercept's weight is stored for a column of value intercept_scaling
        # (intercept_ = intercept_scaling * W[d]): another value changes what it means
        params = super()._state_params()
        if self.fit_intercept:
            params["intercept_scaling"] = float(self.intercept_scaling)
        if self._averaging():  # the state holds the averaging sum (olearn.estimators._average)
            params["average"] = average_start(self.average)
        return params

    def _state_bytes(self, n_samples: int, n_features: int, n_classes: int) -> tuple[int, str]:
        # W (rows x classes); two classes: the kernel's one-vector working copy
        rows = n_features + (1 if self.fit_intercept else 0)
        copies = n_classes + (1 if n_classes == 2 else 0)
        copies += 2 * n_classes if self._averaging() else 0  # U and the averaged weights
        what = f"a model of {n_classes:,} classes x {rows:,} features (weights)"
        return model_bytes(copies, rows), what

    def _init_state(self, n_features: int, n_classes: int) -> None:
        rows = n_features + (1 if self.fit_intercept else 0)
        self._W = np.zeros((rows, n_classes))  # W[feature, class]; bias column's row last
        self._init_average()
        self._set_views()

    _grows = True

    def _add_class(self, position: int) -> None:
        # a zero weight column at ``position`` (classes_ already holds the label there)
        self._W = np.insert(self._W, position, 0.0, axis=1)
        if self._U is not None:  # its iterates so far had a zero row there too
            self._U = np.insert(self._U, position, 0.0, axis=1)
        self._set_views()

    def _state_spec(self, n_classes: int, n_features: int) -> dict:
        spec = {"coef": ((n_classes, n_features), "real")}
        if self.fit_intercept:
            spec["intercept_weight"] = ((n_classes,), "real")
        return {**spec, **self._average_spec(n_classes, n_features, self.fit_intercept)}

    def _state_arrays(self) -> dict:
        d = self.n_features_in_
        arrays = {"coef": self._W[:d].T.copy()}
        if self.fit_intercept:
            arrays["intercept_weight"] = self._W[d].copy()
        return {**arrays, **self._average_arrays(d)}

    def _load_state_arrays(self, arrays: dict) -> None:
        coef = arrays["coef"]
        W = np.empty((coef.shape[1] + (1 if self.fit_intercept else 0), coef.shape[0]))
        W[: coef.shape[1]] = coef.T
        if self.fit_intercept:
            W[-1] = arrays["intercept_weight"]
        self._W = W
        self._load_average(arrays)
        self._set_views()

    def _rebuild_public(self) -> None:
        self._set_views()

    def _set_views(self) -> None:
        """Nothing to refresh: ``coef_`` / ``intercept_`` read ``_W`` when asked for."""

    def _load_init(self, coef, intercept) -> None:
        # fit's coef_init / intercept_init, per class (fit has just made a zero state)
        d = self.n_features_in_
        if intercept is not None and not self.fit_intercept:
            raise ValueError(f"{self._name}.fit: intercept_init needs fit_intercept=True")
        if coef is not None:
            self._W[:d] = coef.T
        if intercept is not None:
            self._W[d] = intercept / self._column_value()

    def _class_intercepts(self, W: np.ndarray | None = None) -> np.ndarray:
        """Each class's intercept, ``intercept_scaling * W[d]`` (zeros without one), (K,);
        ``W`` the weights predictions use (default: :meth:`_public_W`)."""
        W = self._public_W() if W is None else W
        if self.fit_intercept:
            return self._column_value() * W[self.n_features_in_]
        return np.zeros(W.shape[1])

    # scikit-learn's binary convention: two classes give one row, the difference
    @property
    def coef_(self) -> np.ndarray:
        """(n_classes, n_features): a view of the weights (writes change the model); for two
        classes (1, n_features) = ``w_1 - w_0``, a fresh array computed at each access (the
        per-class rows are ``get_state()["coef"]``).  With ``average``, the averaged weights
        (a fresh array)."""
        W, d = self._public_W(), self.n_features_in_
        if W.shape[1] == 2:
            return (W[:d, 1] - W[:d, 0])[None, :]
        return W[:d].T

    @coef_.setter
    def coef_(self, value) -> None:
        raise AttributeError(
            f"{self._name}.coef_ is read from the model's state: set weights with "
            "set_state(...) or fit(X, y, coef_init=...)"
        )

    @property
    def intercept_(self) -> np.ndarray:
        """(n_classes,); for two classes (1,) = ``b_1 - b_0`` (zeros without an intercept)."""
        b = self._class_intercepts()
        return b[1:] - b[:1] if b.shape[0] == 2 else b

    def _scores(self, X) -> np.ndarray:
        W, d = self._public_W(), self.n_features_in_  # _W itself, or the averaged weights
        scores = X @ W[:d]
        if sp.issparse(scores):
            scores = scores.toarray()
        return scores + self._class_intercepts(W)


@functools.cache
def load_kernel(path: str):
    """The numba kernel an estimator declares as ``_kernel = "module:function"`` (imported on
    first use; the registry reads the same declaration: ``AlgorithmSpec.kernel``)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class AdditiveLinearClassifier(LinearMulticlassClassifier):
    """The Perceptron, PA and SPA families: ``w_u += coef_u x`` for a few classes per step,
    one numba kernel (:func:`olearn.kernels.additive.additive_epoch`) for all of them."""

    _rule = ""  # "perceptron", "pa" or "spa" (kernels.codes)
    _kernel = "olearn.kernels.additive:additive_epoch"

    def _code(self) -> int:
        """The kernel's rule code."""
        from olearn.kernels.codes import additive_code

        return additive_code(self._rule, getattr(self, "variant", None))

    def _slack_price(self) -> float:
        """The C the kernel uses (the Perceptron and hard variants ignore it)."""
        return 1.0

    def _check_params(self) -> None:
        self._code()  # a (rule, variant) pair without a kernel is an error

    def _epoch(self, rows, y_idx, order, mistakes, weights=None) -> int:
        additive_epoch = load_kernel(self._kernel)
        coef_out = np.zeros((0, self._W.shape[1]))
        code, C = self._code(), self._slack_price()
        U, avg = self._average_args()
        n = additive_epoch(
            rows, y_idx, order, self._W, code, C, coef_out, mistakes, weights, U, avg
        )
        self._set_views()
        return n
