"""scikit-learn classifier: SGD for the linear SVM with a global or per-feature learning rate."""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import Interval, StrOptions

from olearn._budget import model_bytes
from olearn.core.sgd_svm import REGULARIZE, SCHEDULES, check_sgd_hyper
from olearn.estimators._average import AVERAGE_CONSTRAINT, average_start
from olearn.estimators._fit_options import FIT_DOC_LINEAR, NO_PROBA_DOC, add_fit_doc
from olearn.estimators.base import (
    FLOAT_MAX,
    POSITIVE,
    OnlineClassifier,
    load_kernel,
    store_params,
)

__all__ = ["SGDSVMClassifier"]


class SGDSVMClassifier(OnlineClassifier):
    """Linear SVM trained by SGD on ``E = mean hinge + lam/2 ||w||^2`` (seed 004).

    Binary at heart; with more than two classes it trains one binary SVM per class (class
    against the rest, each with its own rates and counters) and predicts the highest score,
    as scikit-learn's ``SGDClassifier``.  Each step costs O(nnz of x): Bottou's ``w = scale * v``
    for the global rate, lazy catch-up of the shrinks for per-feature rates with
    ``regularize="all"``.  See :mod:`olearn.core.sgd_svm` for the derivation and the seed's
    misprinted signs.

    Parameters
    ----------
    lam : float, default=1e-4
        Regularisation strength lambda (> 0).
    t0 : float or "auto", default="auto"
        Rate offset (> 1): ``eta = 1/(lam (t + t0))``; "auto" is ``max(1/lam, 2)`` (first rate 1).
    schedule : {"global", "per-feature"}, default="global"
        Bottou's ``1/(lam (t + t0))`` or the seed's ``[x_j != 0]/(lam (t_j + t0))`` with ``t_j``
        the number of earlier examples in which feature j was non-zero.
    regularize : {"auto", "all", "touched"}, default="auto"
        Where the ``lam w`` term acts: on every coordinate each step ("all", the gradient of E)
        or only on the coordinates of x ("touched", the seed's per-feature formula as printed).
        "auto": "all" for the global schedule, "touched" for the per-feature one.
    bias_rate : float, default=0.01
        The bias is learned at this times the global rate and not regularised (Bottou).
    fit_intercept : bool, default=True
    epochs : int, default=5
        Passes made by ``fit``; ``partial_fit`` makes one, continuing the schedule.
    shuffle : bool, default=True
    random_state : int, RandomState or None, default=None
    class_weight : dict, "balanced" or None, default=None
        Multiplies each example's ``sample_weight`` by its class's (scikit-learn's meaning;
        "balanced" is refused by ``partial_fit``).
    average : bool or int, default=False
        Predict with the mean of the iterates (scikit-learn's averaged SGD): ``True``, every
        example's; an int ``a``, those from the ``a``-th example on (counted across epochs and
        ``partial_fit`` calls; 0 is off).  See *Notes*, *Averaging*.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) for two classes, else (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    counts_ : ndarray of int, same shape as ``coef_``: the per-feature clocks ``t_j``.
    t_ : int
        Examples seen.
    n_updates_ : int
        Steps whose hinge was active.

    Notes
    -----
    *State.*  ``get_state()`` / ``set_state(state)`` as for the online estimators (keys
    ``"version"``, ``"params"``, ``"classes"``, ``"n_features_in"``, ``"feature_names_in"``,
    ``"t"``, ``"n_updates"``, ``"n_iter"``), with one row per binary SVM (P = 1 for two
    classes, else K): ``"v"`` (P, d) float64 with ``w = scale * v`` up to pending lazy shrinks,
    ``"scale"`` (P,) > 0, ``"bias"`` (P,), ``"steps"`` (P,) int (each SVM's clock t),
    ``"counts"`` (P, d) int (the per-feature clocks ``t_j``), ``"last"`` (P, d) int (the step
    up to which feature j's shrinks were applied).  A restored model continues bit for bit.
    It cannot add a class mid-stream (each one-vs-rest SVM would need the past samples as
    negatives): declare every class with ``classes=`` on the first ``partial_fit``.

    *Weights.*  An example's weight s scales its hinge term's gradient (the weighted
    objective ``1/n sum_i s_i hinge_i + lam/2 ||w||^2``, scikit-learn's SGD meaning): one step
    of s times the hinge gradient, not s visits (integer weights equal repeated rows in
    expectation only).  A weight of 0 is absence: no shrink, no clock (where scikit-learn
    still shrinks and counts it); see :mod:`olearn.core.sgd_svm`, *Weights*.

    *Averaging.*  With ``average``, ``coef_``, ``intercept_`` and every prediction use
    ``w_bar = (1/n_avg) sum_m w_m`` over the iterates ``w_m`` (after example m) of the averaged
    examples ``m >= a`` (examples of weight 0 are no iterates), and likewise the bias; the
    steps themselves are the plain rule's (the same schedule: Polyak-Ruppert averaging over
    Bottou's or the seed's rates, as scikit-learn's ``SGDClassifier(average=...)``).  Each
    step stays O(nnz of x).  With ``w_m = scale_m v_m`` and v changing by a sparse
    ``delta_m``: ``sum_m scale_m v_m = sigma v - Q``, ``sigma = sum_m scale_m`` and
    ``Q = sum_k sigma_{k-1} delta_k`` (swap the sums of ``v_m = v - sum_{k>m} delta_k``),
    so Q moves on x's non-zeros only; with per-feature rates and ``regularize="all"``, the
    iterates a coordinate passes untouched shrink geometrically and their sum is added in
    closed form at its lazy catch-up (:mod:`olearn.kernels.sgd_svm`).  The state adds
    ``"average_sum"`` (P, d) (Q, or the per-feature sums), ``"average_scale_sum"`` (P,)
    (sigma), ``"average_bias_sum"`` (P,), ``"average_count"`` (P,) (n_avg).

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.preprocessing import StandardScaler
    >>> from olearn.estimators import SGDSVMClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X = StandardScaler().fit_transform(X)
    >>> clf = SGDSVMClassifier(lam=1e-3, schedule="per-feature", random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.95
    True

    References
    ----------
    - L. Bottou, "Large-Scale Machine Learning with Stochastic Gradient Descent", COMPSTAT 2010.
    - M. Ono, D. McAllester, Y. Sasaki, "Acceleration of SGD SVMs for Large-Scale Text
      Classification" (seed 004).
    """

    def __init__(
        self,
        *,
        lam=1e-4,
        t0="auto",
        schedule="global",
        regularize="auto",
        bias_rate=0.01,
        fit_intercept=True,
        epochs=5,
        shuffle=True,
        random_state=None,
        tol=None,
        n_iter_no_change=5,
        early_stopping=False,
        validation_fraction=0.1,
        verbose=0,
        warm_start=False,
        class_weight=None,
        average=False,
    ):
        store_params(self, locals())

    _kernel = "olearn.kernels.sgd_svm:sgd_epoch"

    _parameter_constraints: dict = {
        **OnlineClassifier._parameter_constraints,
        "lam": [POSITIVE],
        "t0": [Interval(Real, 1.0, FLOAT_MAX, closed="neither"), StrOptions({"auto"})],
        "schedule": [StrOptions(set(SCHEDULES))],
        "regularize": [StrOptions({"auto", *REGULARIZE})],
        "bias_rate": [Interval(Real, 0.0, FLOAT_MAX, closed="left")],
        "average": AVERAGE_CONSTRAINT,
    }

    def _check_params(self) -> None:
        from olearn.kernels.sgd_svm import sgd_code

        lam, t0, schedule, regularize = check_sgd_hyper(
            self.lam, self.t0, self.schedule, self.regularize, self.bias_rate
        )
        self._resolved = (lam, t0, sgd_code(schedule, regularize))

    def _state_params(self) -> dict:
        # the stored v / scale / last hold w only for the kernel mode (schedule, regularize)
        # and the t0 they were built with: sgd_weights catches pending shrinks up with t0
        # (lam, bias_rate only set the next steps' sizes)
        _, t0, schedule, regularize = check_sgd_hyper(
            self.lam, self.t0, self.schedule, self.regularize, self.bias_rate
        )
        params = {
            **super()._state_params(),
            "(schedule, regularize)": (schedule, regularize),  # resolved: "auto" is one of them
            "t0 ('auto' follows lam)": t0,
        }
        if average_start(self.average):  # the state holds the averaging sums
            params["average"] = average_start(self.average)
        return params

    def _state_bytes(self, n_samples: int, n_features: int, n_classes: int) -> tuple[int, str]:
        P = 1 if n_classes == 2 else n_classes
        # v, counts, last, coef_, and the next coef_ while _set_public builds it
        what = f"{P:,} binary SVM{'s' if P > 1 else ''} x {n_features:,} features"
        copies = 5 + (2 if average_start(self.average) else 0)  # the sums and the average
        return model_bytes(P, n_features, copies=copies), f"{what} (weights, clocks, rates)"

    def _init_state(self, n_features: int, n_classes: int) -> None:
        P = 1 if n_classes == 2 else n_classes  # binary problems: 1, or one per class (OvR)
        self._V = np.zeros((P, n_features))
        self._scalars = np.tile(np.array([1.0, 0.0, 0.0]), (P, 1))  # [scale, b, t]
        self._counts = np.zeros((P, n_features), dtype=np.int64)
        self._last = np.zeros((P, n_features), dtype=np.int64)
        start = average_start(self.average)
        self._avg_sum = np.zeros((P, n_features)) if start else None
        # [sigma (the averaged scales' sum), q_b, n_avg, start] per binary SVM
        self._avg_scalars = np.tile([0.0, 0.0, 0.0, float(start)], (P, 1)) if start else None
        self._set_public()

    _derived = ("coef_", "intercept_", "counts_")  # rebuilt from the state after unpickling

    def _state_spec(self, n_classes: int, n_features: int) -> dict:
        P = 1 if n_classes == 2 else n_classes
        return {
            "v": ((P, n_features), "real"),
            "scale": ((P,), "positive"),
            "bias": ((P,), "real"),
            "steps": ((P,), "count"),
            "counts": ((P, n_features), "count"),
            "last": ((P, n_features), "count"),
            **self._average_spec(P, n_features),
        }

    def _average_spec(self, P: int, n_features: int) -> dict:
        if not average_start(self.average):
            return {}
        return {
            "average_sum": ((P, n_features), "real"),
            "average_scale_sum": ((P,), "real"),
            "average_bias_sum": ((P,), "real"),
            "average_count": ((P,), "count"),
        }

    def _state_arrays(self) -> dict:
        scale, bias, steps = self._scalars.T
        return {
            "v": self._V.copy(),
            "scale": scale.copy(),
            "bias": bias.copy(),
            "steps": steps.astype(np.int64),
            "counts": self._counts.copy(),
            "last": self._last.copy(),
            **self._average_arrays(),
        }

    def _average_arrays(self) -> dict:
        if getattr(self, "_avg_scalars", None) is None:  # (or pickled before averaging)
            return {}
        sigma, q_b, n_avg, _ = self._avg_scalars.T
        return {
            "average_sum": self._avg_sum.copy(),
            "average_scale_sum": sigma.copy(),
            "average_bias_sum": q_b.copy(),
            "average_count": n_avg.astype(np.int64),
        }

    def _load_state_arrays(self, arrays: dict) -> None:
        self._V = arrays["v"]
        self._scalars = np.column_stack([arrays["scale"], arrays["bias"], arrays["steps"]])
        self._counts, self._last = arrays["counts"], arrays["last"]
        self._avg_sum = self._avg_scalars = None
        if "average_sum" in arrays:
            self._avg_sum = arrays["average_sum"]
            start = np.full(self._V.shape[0], float(average_start(self.average)))
            self._avg_scalars = np.column_stack(
                [arrays["average_scale_sum"], arrays["average_bias_sum"],
                 arrays["average_count"], start]
            )  # fmt: skip
        self._set_public()

    def _rebuild_public(self) -> None:
        self._set_public()

    def _epoch(self, rows, y_idx, order, mistakes, weights=None) -> int:
        # SGD-SVM's bias is not a feature (its own rate, not regularised: Bottou), so its rows
        # are X's alone and the kernel keeps the bias
        indptr, indices, data = rows[0]
        if mistakes.shape[0] == 0:
            return self._pass(indptr, indices, data, y_idx, order, weights)
        # progressive validation: predict each row before its step (one kernel call a row;
        # SGD-SVM is a batch reference, this path serves the learning-curve views only)
        n_updates = 0
        for t in range(order.shape[0]):
            row = order[t : t + 1]
            i = int(row[0])
            X_i = sp.csr_matrix(
                (
                    data[indptr[i] : indptr[i + 1]],
                    indices[indptr[i] : indptr[i + 1]],
                    [0, indptr[i + 1] - indptr[i]],
                ),
                shape=(1, self.n_features_in_),
            )
            mistakes[t] = np.argmax(self._scores(X_i)[0]) != y_idx[i]
            n_updates += self._pass(indptr, indices, data, y_idx, row, weights)
        return n_updates

    def _pass(self, indptr, indices, data, y_idx, order, weights=None) -> int:
        sgd_epoch = load_kernel(self._kernel)
        lam, t0, code = self._resolved
        P = self._V.shape[0]
        order = np.ascontiguousarray(order, dtype=np.int64)
        n_active = 0
        averaging = getattr(self, "_avg_scalars", None) is not None
        for p in range(P):
            positive = 1 if P == 1 else p
            y_pm = np.where(y_idx == positive, 1.0, -1.0)
            n_active += sgd_epoch(
                indptr,
                indices,
                data,
                y_pm,
                order,
                self._V[p],
                self._scalars[p],
                self._counts[p],
                self._last[p],
                lam,
                t0,
                code,
                float(self.bias_rate),
                bool(self.fit_intercept),
                weights,
                self._avg_sum[p] if averaging else None,
                self._avg_scalars[p] if averaging else None,
            )
        self._set_public()
        return n_active

    def _set_public(self) -> None:
        from olearn.kernels.sgd_svm import sgd_average_weights, sgd_weights

        _, t0, code = self._resolved
        W = np.empty_like(self._V)
        b = self._scalars[:, 1].copy()
        for p in range(W.shape[0]):
            state = (self._V[p], self._scalars[p], self._counts[p], self._last[p], t0, code)
            if getattr(self, "_avg_scalars", None) is None:
                sgd_weights(*state, W[p])
            else:  # predictions use the average of the iterates
                b[p] = sgd_average_weights(*state, self._avg_sum[p], self._avg_scalars[p], W[p])
        self.coef_ = W
        self.intercept_ = b
        self.counts_ = self._counts

    def _scores(self, X) -> np.ndarray:
        f = X @ self.coef_.T
        if sp.issparse(f):
            f = f.toarray()
        f = np.asarray(f) + self.intercept_
        if f.shape[1] == 1:  # binary: columns (0, f) so argmax and the base's difference work
            return np.hstack([np.zeros_like(f), f])
        return f


add_fit_doc(
    SGDSVMClassifier,
    FIT_DOC_LINEAR.replace("(weights,", "(weights, rates' clocks,")
    + """
        ``fit(X, y, coef_init=...)`` is refused: the state is a scaled vector with
        per-feature clocks, not plain weights (continue a model with ``warm_start`` or
        ``set_state``)."""
    + NO_PROBA_DOC.replace("\n    *Probabilities.*", "\n    Probabilities:", 1).rstrip(),
)
