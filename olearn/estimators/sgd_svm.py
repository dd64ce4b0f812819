"""scikit-learn classifier: SGD for the linear SVM with a global or per-feature learning rate."""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from olearn.core.sgd_svm import REGULARIZE, SCHEDULES, check_sgd_hyper
from olearn.estimators._average import AVERAGE_CONSTRAINT, average_start
from olearn.estimators._fit_options import FIT_DOC_LINEAR, NO_PROBA_DOC, add_fit_doc
from olearn.estimators._params import FLOAT_MAX, POSITIVE, store_params
from olearn.estimators.base import OnlineClassifier
from olearn.estimators.engine import SGDEngine

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

    engine_class = SGDEngine
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
        check_sgd_hyper(self.lam, self.t0, self.schedule, self.regularize, self.bias_rate)

    def _structure(self) -> dict:
        # the stored v / scale / last hold w only for the kernel mode (schedule, regularize)
        # and the t0 they were built with ("auto" resolved: it follows lam); lam and bias_rate
        # only set the next steps' sizes
        _, t0, schedule, regularize = check_sgd_hyper(
            self.lam, self.t0, self.schedule, self.regularize, self.bias_rate
        )
        return {
            **super()._structure(),
            "schedule": schedule,
            "regularize": regularize,
            "t0": t0,
            "average": average_start(self.average),
        }

    def _steps(self) -> dict:
        lam = check_sgd_hyper(self.lam, self.t0, self.schedule, self.regularize, self.bias_rate)[0]
        return {"lam": lam, "bias_rate": float(self.bias_rate)}

    @property
    def coef_(self) -> np.ndarray:
        """(1, n_features) for two classes, else (n_classes, n_features)."""
        return self._public("coef")

    @property
    def intercept_(self) -> np.ndarray:
        """(1,) or (n_classes,)."""
        return self._public("intercept")

    @property
    def counts_(self) -> np.ndarray:
        """The per-feature clocks ``t_j``, shaped like ``coef_``."""
        return self._public("counts")

    def _public(self, name: str) -> np.ndarray:
        engine = self.__dict__.get("engine_")
        if engine is None:
            raise AttributeError(f"{self._name} has no {name}_ before fit")
        return getattr(engine, name)


add_fit_doc(
    SGDSVMClassifier,
    FIT_DOC_LINEAR.replace("(weights,", "(weights, rates' clocks,")
    + """
        ``fit(X, y, coef_init=...)`` is refused: the state is a scaled vector with
        per-feature clocks, not plain weights (continue a model with ``warm_start`` or
        ``set_state``)."""
    + NO_PROBA_DOC.replace("\n    *Probabilities.*", "\n    Probabilities:", 1).rstrip(),
)
