"""scikit-learn classifier for the Crammer-Singer multiclass SVM (batch; numba decomposition)."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from olearn._budget import model_bytes
from olearn.estimators._model_state import ModelState, unfitted_on_failure
from olearn.estimators._weights import CLASS_WEIGHT_CONSTRAINT, example_weights
from olearn.estimators.engine import load_kernel
from olearn.estimators.engine.labels import encode_classes
from olearn.kernels.sparse import check_sparse_structure, csr_arrays

__all__ = ["CrammerSingerSVC"]


def with_intercept_column(X, value: float):
    """``[X, value]`` as CSR float64 (the synthetic feature LIBLINEAR appends)."""
    X = sp.csr_matrix(X, dtype=np.float64) if not sp.issparse(X) else X.tocsr()
    col = sp.csr_matrix(np.full((X.shape[0], 1), float(value)))
    return sp.hstack([X, col], format="csr")


class CrammerSingerSVC(ModelState, ClassifierMixin, BaseEstimator):
    """Crammer-Singer multiclass linear SVM, solved exactly by its dual decomposition.

    Minimises ``1/2 sum_m ||w_m||^2 + C sum_i max_m (1[m != y_i] + w_m.x_i - w_{y_i}.x_i)``,
    the same objective, with the same ``C`` and intercept convention, as scikit-learn's
    ``LinearSVC(multi_class="crammer_singer")`` (LIBLINEAR), so the two can be swapped.  Seed
    003's ``beta`` is ``1/C``.  Each step solves one example's sub-problem exactly (a sort);
    sweeps visit the examples in a seeded random order and stop when the largest KKT violation
    of a full sweep is below ``tol``.  See :mod:`olearn.core.cs_svm` for the readable, traced
    solver and the derivation.

    Parameters
    ----------
    C : float, default=1.0
        Cost of the slack, in (0, 1e12]: beyond that the sub-problem's shifted values
        ``||x||^2 C`` overflow float64 for ordinary data (``C=1e308`` gave NaN weights), and
        any C that large is already a hard margin.
    fit_intercept : bool, default=True
        Append a synthetic feature equal to ``intercept_scaling``; its weight is regularised
        like the others (LIBLINEAR's convention); ``intercept_ = intercept_scaling * weight``.
    intercept_scaling : float, default=1.0
        Value of the synthetic feature (> 0).  ``fit`` refuses ``n C max ||x||^2 > 1e300``
        (the synthetic feature included): a bound of every weight and score, beyond which
        they may overflow float64.
    tol : float, default=1e-4
        Stop when a full sweep's largest KKT violation ``max G - min_free G`` is below it.
    max_iter : int, default=1000
        Maximum number of sweeps.
    shrinking : bool, default=True
        Set aside classes (and examples) that sit at their bounds and would stay there; the
        final test is always made on a sweep over everything.
    random_state : int, RandomState or None, default=None
        Seeds the order of the sweeps.
    class_weight : dict, "balanced" or None, default=None
        Multiplies each example's ``sample_weight`` by its class's (scikit-learn's meaning).

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features), or (1, n_features) for two classes
        (``w_1 - w_0``, as ``LinearSVC``).
    intercept_ : ndarray of shape (n_classes,) or (1,); 0.0 when ``fit_intercept=False``.
    classes_ : ndarray of shape (n_classes,)
    alpha_ : ndarray of shape (n_samples, n_classes), the dual variables alpha
        (``w_m = sum_i alpha_i^m x_i``; the seed's tau is ``alpha / C``).
    n_iter_ : int, sweeps made.
    objective_ : float, the primal objective P at the solution.
    dual_objective_ : float, the dual objective D; ``objective_ - dual_objective_ >= 0`` is
        the duality gap.

    Notes
    -----
    A batch model: no ``partial_fit``, so no ``get_state`` / ``set_state`` (there is no
    stream to continue); refit it, and pickle it to keep it (its prediction needs only the
    fitted attributes above).

    *Weights.*  ``fit(X, y, sample_weight=s)`` solves ``1/2 ||W||^2 + C sum_i s_i xi_i``: in
    the dual, example i's box ``alpha_i^{y_i} <= s_i C`` (LIBLINEAR's ``C_i``).  A whole
    number s_i is the example repeated s_i times (same objective, so same optimum); 0 removes
    it.  Checked against repeated rows and LIBLINEAR in
    ``tests/test_sample_weight_estimators.py``.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from olearn.estimators import CrammerSingerSVC
    >>> X, y = load_digits(return_X_y=True)
    >>> clf = CrammerSingerSVC(C=0.1, random_state=0).fit(X[:1500] / 16, y[:1500])
    >>> clf.score(X[1500:] / 16, y[1500:]) > 0.85
    True
    >>> 0 <= clf.objective_ - clf.dual_objective_ < 1e-3 * clf.objective_
    True

    References
    ----------
    K. Crammer, Y. Singer, "On the algorithmic implementation of multiclass kernel-based
    vector machines", JMLR 2:265-292, 2001 (seed 003).  S. S. Keerthi et al., "A sequential
    dual method for large scale multi-class linear SVMs", KDD 2008.
    """

    # scikit-learn's declarative checks, run by ``fit`` (``InvalidParameterError``, a
    # ValueError, names the parameter and the allowed range).
    numba_kernel = "olearn.kernels.cs_svm:cs_sweep"  # the registry reads it

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0, 1e12, closed="right")],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [Interval(Real, 0, np.inf, closed="neither")],
        "tol": [Interval(Real, 0, np.inf, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shrinking": ["boolean"],
        "random_state": ["random_state"],
        "class_weight": CLASS_WEIGHT_CONSTRAINT,
    }

    def __init__(
        self,
        C=1.0,
        *,
        fit_intercept=True,
        intercept_scaling=1.0,
        tol=1e-4,
        max_iter=1000,
        shrinking=True,
        random_state=None,
        class_weight=None,
    ):
        self.C = C
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.tol = tol
        self.max_iter = max_iter
        self.shrinking = shrinking
        self.random_state = random_state
        self.class_weight = class_weight

    def _check_params(self) -> None:
        self._validate_params()  # _parameter_constraints

    def _state_params(self) -> dict:
        # the weights hold one more row with an intercept, stored for a column of value
        # intercept_scaling; C, tol, ... only steer the solver
        if self.fit_intercept:
            return {"fit_intercept": True, "intercept_scaling": float(self.intercept_scaling)}
        return {"fit_intercept": False}

    def _state_bytes(self, n_samples: int, n_features: int, n_classes: int) -> tuple[int, str]:
        d = n_features + (1 if self.fit_intercept else 0)
        # W (d x K); alpha and the int64 class_index (n x K each)
        nbytes = model_bytes(n_classes, d) + model_bytes(n_samples, n_classes, copies=2)
        what = (
            f"a model of {n_classes:,} classes x {d:,} features (weights) and "
            f"{n_samples:,} samples x {n_classes:,} classes (dual variables)"
        )
        return nbytes, what

    @unfitted_on_failure
    def fit(self, X, y, sample_weight=None):
        """Solve the Crammer-Singer dual on (X, y).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Example weights ``s_i >= 0`` (times ``class_weight``'s): the primal
            ``1/2 ||W||^2 + C sum_i s_i xi_i``, i.e. the box ``alpha_i^{y_i} <= s_i C`` of the
            dual (see *Notes*).  A weight of 0 removes the example (its ``alpha_`` row is 0).

        Returns
        -------
        self
        """
        cs_sweep = load_kernel(self.numba_kernel)
        self._check_params()
        check_sparse_structure(X)  # before scipy or a kernel trusts its indices
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_classification_targets(y)
        n_given = y.shape[0]
        X, y, weights, kept = example_weights(X, y, sample_weight, self.class_weight, partial=False)
        self.classes_ = encode_classes(y)
        K = self.classes_.shape[0]
        if K < 2:
            raise ValueError(
                f"this classifier needs samples of at least 2 classes; got 1 class: {self.classes_}"
            )
        y_idx = (
            np.searchsorted(self.classes_, y)
            if self.classes_.dtype != object
            else (np.array([self.classes_.tolist().index(v) for v in y.tolist()]))
        )
        y_idx = np.ascontiguousarray(y_idx, dtype=np.int64)
        self._require_budget(X.shape[0], X.shape[1], K)
        Xa = with_intercept_column(X, self.intercept_scaling) if self.fit_intercept else X
        indptr, indices, data = csr_arrays(Xa)
        n, d = Xa.shape
        with np.errstate(over="ignore"):  # an overflow is refused by _check_range below
            sqnorm = np.add.reduceat(data * data, indptr[:-1]) if data.size else np.zeros(n)
        sqnorm[np.diff(indptr) == 0] = 0.0  # reduceat repeats a value for empty rows
        mass = n if weights is None else float(weights.sum())  # sum_i s_i
        self._check_range(mass, float(np.max(sqnorm, initial=0.0)))
        W = np.zeros((d, K))  # feature-major
        alpha = np.zeros((n, K))
        class_index = np.tile(np.arange(K, dtype=np.int64), (n, 1))
        n_active = np.full(n, K, dtype=np.int64)
        y_pos = y_idx.copy()
        index = np.arange(n, dtype=np.int64)
        rng = check_random_state(self.random_state)
        C, tol, shrink = float(self.C), float(self.tol), bool(self.shrinking)
        active_size = n
        eps_shrink = max(10.0 * tol, 1.0)  # the shrinking tolerance, halved down to tol
        full_sweep = True
        converged = False
        sweeps = 0
        while sweeps < self.max_iter:
            index[:active_size] = index[:active_size][rng.permutation(active_size)]
            worst, active_size, _ = cs_sweep(
                indptr,
                indices,
                data,
                y_idx,
                sqnorm,
                W,
                alpha,
                C,
                index,
                active_size,
                class_index,
                n_active,
                y_pos,
                shrink,
                weights,
            )
            sweeps += 1
            if not shrink:
                if worst < tol:
                    converged = True
                    break
            elif worst < eps_shrink:
                if worst < tol and full_sweep:
                    converged = True
                    break
                active_size = n  # undo the shrinking and check everything again
                n_active[:] = K
                eps_shrink = max(eps_shrink / 2.0, tol)
                full_sweep = True
            else:
                full_sweep = False
        if not converged:
            warnings.warn(
                f"CrammerSingerSVC did not reach tol={tol} in max_iter={self.max_iter} sweeps; "
                "increase max_iter",
                ConvergenceWarning,
                stacklevel=3,  # the caller of fit (through unfitted_on_failure)
            )
        self.n_iter_ = sweeps
        self.alpha_ = alpha
        if kept is not None:  # an absent example's dual variables are 0
            self.alpha_ = np.zeros((n_given, K))
            self.alpha_[kept] = alpha
        self._W = W
        self._remember_state_params()
        self._set_public(X.shape[1])
        self.dual_objective_ = float(alpha[np.arange(n), y_idx].sum() - 0.5 * np.sum(W * W))
        self.objective_ = self._primal(Xa, y_idx, weights)
        return self

    def _check_range(self, n: float, largest_sqnorm: float) -> None:
        """Refuse a problem whose solution may overflow float64, before solving it.

        With ``0 <= alpha_i^m <= C`` (up to sign), every weight ``w_m = sum_i alpha_i^m x_i``
        and score ``w_m . x_j`` is bounded by ``n C max ||x||^2`` (the intercept column
        included), so that product up to 1e300 keeps every sweep's quantities finite.
        """
        bound = n * float(self.C) * largest_sqnorm
        if not bound <= 1e300:
            raise ValueError(
                f"C={float(self.C):.3g} and intercept_scaling={float(self.intercept_scaling):.3g}"
                f" are too large for these rows: n C max ||x||^2 = {bound:.3g} (the intercept "
                "column included) exceeds 1e300, past which the weights and scores may overflow "
                "float64; lower C or intercept_scaling, or scale the features down"
            )

    def _set_public(self, d: int) -> None:
        W = self._W
        coef = W[:d].T
        intercept = self.intercept_scaling * W[d] if self.fit_intercept else None
        if W.shape[1] == 2:  # LinearSVC's binary convention
            coef = (coef[1] - coef[0])[None, :]
            if intercept is not None:
                intercept = np.array([intercept[1] - intercept[0]])
        self.coef_ = np.ascontiguousarray(coef)
        self.intercept_ = intercept if intercept is not None else 0.0

    def _primal(self, Xa, y_idx, weights=None) -> float:
        scores = np.asarray(Xa @ self._W)
        rows = np.arange(scores.shape[0])
        xi = scores + 1.0 - scores[rows, y_idx][:, None]
        xi[rows, y_idx] = 0.0  # e_i^{y_i} = 0
        xi = xi.max(axis=1)  # xi_i = max_m (w_m - w_{y_i}).x_i + e_i^m
        xi = xi if weights is None else weights * xi  # sum_i s_i xi_i
        return float(0.5 * np.sum(self._W * self._W) + self.C * xi.sum())

    def _class_scores(self, X) -> np.ndarray:
        check_is_fitted(self, "classes_")
        self._check_state_params("predict")
        check_sparse_structure(X)
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        d = self.n_features_in_
        scores = np.asarray(X @ self._W[:d])
        if self.fit_intercept:
            scores = scores + self.intercept_scaling * self._W[d]
        return scores

    def decision_function(self, X):
        """Class scores ``w_m . x + b_m``; for two classes the score of ``classes_[1]`` minus
        that of ``classes_[0]`` (as ``LinearSVC``)."""
        scores = self._class_scores(X)
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict(self, X):
        """The class with the highest score (lowest index on ties)."""
        scores = self._class_scores(X)
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
