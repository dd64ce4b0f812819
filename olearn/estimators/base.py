"""The scikit-learn boundary shared by every olearn online classifier.

Validation, label encoding and the epoch loop live here; a family supplies three hooks:

- ``_init_state(n_features, n_classes)`` : fresh model state (all-zero weights, ...).
- ``_epoch(rows, y_idx, order, mistakes) -> int`` : one pass of its numba kernel over the
  rows ``order`` of ``rows`` (the CSR blocks of ``kernels.sparse.csr_rows``: X, then the
  intercept column); fills ``mistakes`` (when not empty) with whether each prediction made
  before its update was wrong; returns the number of aggressive steps.
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

``fit`` = fresh state + ``epochs`` passes (shuffled with ``random_state`` if ``shuffle``);
``partial_fit`` = exactly one pass over the given samples, in the given order.
"""

from __future__ import annotations

import functools
import math
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from olearn._budget import model_bytes, require
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


class OnlineClassifier(ModelState, ClassifierMixin, BaseEstimator):
    """Base class: scikit-learn ``fit`` / ``partial_fit`` / ``predict`` over a numba kernel."""

    _parameter_constraints: dict = {
        "fit_intercept": ["boolean"],
        "epochs": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
    }

    # True when the family's kernel only sums x_j-weighted terms, so dense rows can be passed
    # with their zeros as explicit entries instead of being converted to CSR.
    _dense_view = False

    # --- hooks ---------------------------------------------------------------------------
    def _init_state(self, n_features: int, n_classes: int) -> None:  # pragma: no cover
        raise NotImplementedError

    def _epoch(self, rows, y_idx, order, mistakes) -> int:  # pragma: no cover
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

    def _run(self, rows, y_idx: np.ndarray, epochs: int, rng, record_mistakes: bool = False):
        n = y_idx.shape[0]
        mistakes = np.zeros(n if record_mistakes else 0, dtype=np.bool_)
        for _ in range(epochs):
            order = rng.permutation(n) if rng is not None else np.arange(n)
            order = order.astype(np.int64)
            self.n_updates_ += int(self._epoch(rows, y_idx, order, mistakes))
            self.t_ += n
            self.n_iter_ += 1
        return mistakes if record_mistakes else None

    def _start(self, X, classes: np.ndarray) -> None:
        """Fresh state for ``classes`` (at least two) and X's width."""
        if classes.shape[0] < 2:
            n = classes.shape[0]
            raise ValueError(
                f"this classifier needs samples of at least 2 classes; got {n} class"
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
    def fit(self, X, y):
        """Learn from zero weights with ``epochs`` passes over (X, y).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features).
        y : array-like of shape (n_samples,), labels of any hashable type.

        Returns
        -------
        self
        """
        self._validate_params()
        self._check_params()
        X, y = self._validate(X, y, reset=True)
        arrays = self._arrays(X)
        self._start(X, _encode_classes(y))
        y_idx = self._labels_to_index(y)
        rng = check_random_state(self.random_state) if self.shuffle else None
        self._run(arrays, y_idx, self.epochs, rng)
        return self

    def partial_fit(self, X, y, classes=None):
        """One update per sample, in the given order (a single online pass).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features).
        y : array-like of shape (n_samples,).
        classes : array-like, optional.  Every label the stream may hold; only read on the
            first call (default: the labels of that first batch, which must be >= 2).

        Returns
        -------
        self
        """
        self._partial(X, y, classes, record_mistakes=False)
        return self

    def _partial(self, X, y, classes, record_mistakes: bool):
        first = not hasattr(self, "classes_")
        try:
            self._validate_params()
            self._check_params()
            if not first:
                self._check_state_params("continue with partial_fit")
            X, y = self._validate(X, y, reset=first)
            arrays = self._arrays(X)
            if first:
                given = np.asarray(classes) if classes is not None else y
                self._start(X, _encode_classes(given))
            elif classes is not None and not np.array_equal(
                _encode_classes(np.asarray(classes)), self.classes_
            ):
                raise ValueError(
                    f"classes={list(classes)} differs from classes_={self.classes_.tolist()} "
                    "given on the first partial_fit call"
                )
            y_idx = self._labels_to_index(y)
        except Exception:
            if first:
                self._forget()
            raise
        try:
            mistakes = self._run(arrays, y_idx, 1, None, record_mistakes)
        except Exception:
            self._forget()  # the kernel stopped mid-pass: the state is half-updated
            raise
        self.n_iter_ -= 1  # a partial pass is not an epoch
        return mistakes

    def learn_stream(self, X, y, classes=None) -> np.ndarray:
        """``partial_fit`` that also returns, per sample, whether the model mispredicted it
        *before* learning from it (progressive validation: the online mistake count).

        Returns
        -------
        mistakes : ndarray of bool, shape (n_samples,); ``mistakes.cumsum() / arange(1, n+1)``
        is the online learning curve.
        """
        return self._partial(X, y, classes, record_mistakes=True)

    def decision_function(self, X):
        """Class scores ``w_u . x``; for two classes, the score of ``classes_[1]`` minus
        that of ``classes_[0]`` (scikit-learn's binary convention).
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


class LinearMulticlassClassifier(OnlineClassifier):
    """Base of the Perceptron, PA, SPA and confidence-weighted families: one weight (mean) row
    per class, the intercept a constant column of value ``intercept_scaling``.

    Fitted attributes: ``coef_`` (n_classes, n_features), ``intercept_`` (n_classes,),
    ``classes_``, ``n_features_in_``, ``t_`` (samples seen), ``n_iter_`` (epochs of the last
    ``fit``), ``n_updates_`` (aggressive steps).  The kernel's weights are feature-major,
    ``_W[feature, class]`` with the intercept column's row last; ``coef_`` is a view of them
    and ``intercept_ = intercept_scaling * _W[-1]`` (LIBLINEAR's convention).
    """

    _parameter_constraints: dict = {
        **OnlineClassifier._parameter_constraints,
        "intercept_scaling": [POSITIVE],
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
        return params

    def _state_bytes(self, n_samples: int, n_features: int, n_classes: int) -> tuple[int, str]:
        # W (rows x classes); two classes: the kernel's one-vector working copy
        rows = n_features + (1 if self.fit_intercept else 0)
        copies = n_classes + (1 if n_classes == 2 else 0)
        what = f"a model of {n_classes:,} classes x {rows:,} features (weights)"
        return model_bytes(copies, rows), what

    def _init_state(self, n_features: int, n_classes: int) -> None:
        rows = n_features + (1 if self.fit_intercept else 0)
        self._W = np.zeros((rows, n_classes))  # W[feature, class]; bias column's row last
        self._set_views()

    def _set_views(self) -> None:
        d = self.n_features_in_
        self.coef_ = self._W[:d].T
        if self.fit_intercept:
            self.intercept_ = self._column_value() * self._W[d]
        else:
            self.intercept_ = np.zeros(self._W.shape[1])

    def _scores(self, X) -> np.ndarray:
        d = self.n_features_in_
        scores = X @ self._W[:d]
        if sp.issparse(scores):
            scores = scores.toarray()
        return scores + self.intercept_


class AdditiveLinearClassifier(LinearMulticlassClassifier):
    """The Perceptron, PA and SPA families: ``w_u += coef_u x`` for a few classes per step,
    one numba kernel (:func:`olearn.kernels.additive.additive_epoch`) for all of them."""

    _rule = ""  # "perceptron", "pa" or "spa" (kernels.codes)

    def _code(self) -> int:
        """The kernel's rule code."""
        from olearn.kernels.codes import additive_code

        return additive_code(self._rule, getattr(self, "variant", None))

    def _slack_price(self) -> float:
        """The C the kernel uses (the Perceptron and hard variants ignore it)."""
        return 1.0

    def _check_params(self) -> None:
        self._code()  # a (rule, variant) pair without a kernel is an error

    def _epoch(self, rows, y_idx, order, mistakes) -> int:
        from olearn.kernels.additive import additive_epoch

        coef_out = np.zeros((0, self._W.shape[1]))
        code, C = self._code(), self._slack_price()
        n = additive_epoch(rows, y_idx, order, self._W, code, C, coef_out, mistakes)
        self._set_views()
        return n
