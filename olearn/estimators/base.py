"""The scikit-learn boundary shared by every olearn online classifier.

Validation, label encoding and the epoch loop live here; a family supplies four hooks:

- ``_check_hyper()`` : validate hyper-parameters (raise ``ValueError``).
- ``_init_state(n_features, n_classes)`` : fresh model state (all-zero weights, ...).
- ``_epoch(indptr, indices, data, y_idx, order) -> int`` : one pass of its numba kernel over
  the CSR rows ``order``; returns the number of aggressive steps.
- ``_scores(X) -> (n, K)`` : raw class scores for validated X.

``fit`` = fresh state + ``epochs`` passes (shuffled with ``random_state`` if ``shuffle``);
``partial_fit`` = exactly one pass over the given samples, in the given order.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from olearn.kernels.sparse import csr_arrays


def _encode_classes(y: np.ndarray) -> np.ndarray:
    """Sorted unique labels (first-appearance order when labels of mixed types can't sort)."""
    try:
        return np.unique(y)
    except TypeError:
        seen: dict = {}
        for label in y:
            seen.setdefault(label, None)
        return np.array(list(seen), dtype=object)


class OnlineClassifier(ClassifierMixin, BaseEstimator):
    """Base class: scikit-learn ``fit`` / ``partial_fit`` / ``predict`` over a numba kernel."""

    # True when the family's kernel only sums x_j-weighted terms, so dense rows can be passed
    # with their zeros as explicit entries instead of being converted to CSR.
    _dense_view = False

    # --- hooks ---------------------------------------------------------------------------
    def _check_hyper(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _init_state(self, n_features: int, n_classes: int) -> None:  # pragma: no cover
        raise NotImplementedError

    def _epoch(self, indptr, indices, data, y_idx, order) -> int:  # pragma: no cover
        raise NotImplementedError

    def _scores(self, X) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _epoch_mistakes(self, indptr, indices, data, y_idx, order) -> np.ndarray:
        """One pass that also says, per visited row, whether the prediction made *before*
        its update was wrong.  Generic version: one kernel call per row; families whose
        kernel records mistakes override it."""
        import scipy.sparse as sparse

        n_rows = indptr.shape[0] - 1
        X = sparse.csr_matrix((data, indices, indptr), shape=(n_rows, self.n_features_in_))
        mistakes = np.empty(order.shape[0], dtype=bool)
        for t, i in enumerate(order):
            scores = np.asarray(self._scores(X[i]))[0]
            mistakes[t] = np.argmax(scores) != y_idx[i]
            self.n_updates_ += int(self._epoch(indptr, indices, data, y_idx, order[t : t + 1]))
        return mistakes

    # --- shared checks -------------------------------------------------------------------
    def _check_common(self) -> None:
        if not isinstance(self.epochs, numbers.Integral) or self.epochs < 1:
            raise ValueError(f"epochs must be a positive integer, got {self.epochs!r}")
        self._check_hyper()

    def _validate(self, X, y, reset: bool):
        X, y = validate_data(
            self, X, y, accept_sparse="csr", dtype=np.float64, reset=reset, y_numeric=False
        )
        check_classification_targets(y)
        return X, y

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
            unknown = sorted({str(v) for v in y.tolist() if v not in index})
            raise ValueError(
                f"labels {unknown} are not in classes_ {self.classes_.tolist()}; "
                "pass every class with classes=... on the first partial_fit call"
            ) from err

    def _run(self, X, y_idx: np.ndarray, epochs: int, rng, record_mistakes: bool = False):
        # one conversion for all epochs; dense rows are viewed, not converted, when the
        # family's kernel allows it (see kernels.sparse.csr_arrays)
        indptr, indices, data = csr_arrays(X, dense_view=self._dense_view)
        n = y_idx.shape[0]
        mistakes = None
        for _ in range(epochs):
            order = rng.permutation(n) if rng is not None else np.arange(n)
            if record_mistakes:
                mistakes = self._epoch_mistakes(indptr, indices, data, y_idx, order)
            else:
                self.n_updates_ += int(self._epoch(indptr, indices, data, y_idx, order))
            self.t_ += n
            self.n_iter_ += 1
        return mistakes

    # --- public API ----------------------------------------------------------------------
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
        self._check_common()
        X, y = self._validate(X, y, reset=True)
        self.classes_ = _encode_classes(y)
        if self.classes_.shape[0] < 2:
            raise ValueError(
                f"this classifier needs samples of at least 2 classes; got 1 class: {self.classes_}"
            )
        self._init_state(X.shape[1], self.classes_.shape[0])
        self.t_ = self.n_iter_ = self.n_updates_ = 0
        rng = check_random_state(self.random_state) if self.shuffle else None
        self._run(X, self._labels_to_index(y), self.epochs, rng)
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
        self._check_common()
        X, y = self._validate(X, y, reset=first)
        if first:
            self.classes_ = _encode_classes(np.asarray(classes) if classes is not None else y)
            if self.classes_.shape[0] < 2:
                raise ValueError(
                    "partial_fit needs at least 2 classes on the first call (got 1 class): "
                    "pass classes=[...] listing every label"
                )
            self._init_state(X.shape[1], self.classes_.shape[0])
            self.t_ = self.n_iter_ = self.n_updates_ = 0
        elif classes is not None and not np.array_equal(_encode_classes(classes), self.classes_):
            raise ValueError(
                f"classes={list(classes)} differs from classes_={self.classes_.tolist()} "
                "given on the first partial_fit call"
            )
        y_idx = self._labels_to_index(y)
        mistakes = self._run(X, y_idx, 1, None, record_mistakes)
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
        check_is_fitted(self, "classes_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        scores = np.asarray(self._scores(X))
        if scores.shape[1] == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X):
        """The class with the highest score (lowest index on ties)."""
        check_is_fitted(self, "classes_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        return self.classes_[np.argmax(np.asarray(self._scores(X)), axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags


class AdditiveLinearClassifier(OnlineClassifier):
    """Base of the Perceptron, PA and SPA families: one weight row per class.

    Fitted attributes: ``coef_`` (n_classes, n_features), ``intercept_`` (n_classes,),
    ``classes_``, ``n_features_in_``, ``t_`` (samples seen), ``n_iter_`` (epochs of the last
    ``fit``), ``n_updates_`` (aggressive steps).  ``coef_`` and ``intercept_`` are views of
    the kernel's feature-major weights, so ``partial_fit`` never copies them.
    """

    _rule = ""  # "perceptron", "pa" or "spa"
    _dense_view = True  # row_scores / row_axpy (and the CW family's loops) add x_j terms only

    def _code(self) -> int:
        from olearn.kernels.codes import additive_code

        return additive_code(self._rule, getattr(self, "_variant", lambda: None)())

    def _check_hyper(self) -> None:
        C = getattr(self, "C", 1.0)
        if not isinstance(C, numbers.Real) or not (0 < C < np.inf):
            raise ValueError(f"C must be a positive finite number, got {C!r}")
        self._code()  # validates the variant

    def _init_state(self, n_features: int, n_classes: int) -> None:
        rows = n_features + (1 if self.fit_intercept else 0)
        self._W = np.zeros((rows, n_classes))  # W[feature, class]; bias is the last row
        self._set_views()

    def _set_views(self) -> None:
        d = self.n_features_in_
        self.coef_ = self._W[:d].T
        self.intercept_ = self._W[d] if self.fit_intercept else np.zeros(self._W.shape[1])

    def _kernel(self, indptr, indices, data, y_idx, order, mistakes) -> int:
        from olearn.kernels.additive import additive_epoch

        n = additive_epoch(
            indptr,
            indices,
            data,
            y_idx,
            order.astype(np.int64),
            self._W,
            self._code(),
            float(getattr(self, "C", 1.0)),
            bool(self.fit_intercept),
            np.zeros((0, self._W.shape[1])),
            mistakes,
        )
        self._set_views()
        return n

    def _epoch(self, indptr, indices, data, y_idx, order) -> int:
        return self._kernel(indptr, indices, data, y_idx, order, np.zeros(0, dtype=np.bool_))

    def _epoch_mistakes(self, indptr, indices, data, y_idx, order) -> np.ndarray:
        mistakes = np.zeros(order.shape[0], dtype=np.bool_)
        self.n_updates_ += self._kernel(indptr, indices, data, y_idx, order, mistakes)
        return mistakes

    def _scores(self, X) -> np.ndarray:
        d = self.n_features_in_
        scores = X @ self._W[:d]
        if sp.issparse(scores):
            scores = scores.toarray()
        return scores + (self._W[d] if self.fit_intercept else 0.0)
