"""scikit-learn classifier for the PCVM with a learned noise precision (seed 002).

The fit is the readable EM of :mod:`olearn.core.pcvm` run on the pruned active set: there is
no numba kernel, because the cost is the k x k Cholesky of the active weights (k shrinks from
N to a few dozen), not a per-sample loop.
"""

from __future__ import annotations

import math
import numbers
from numbers import Integral, Real

import numpy as np
from scipy.special import log_ndtr
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from olearn._budget import model_bytes
from olearn.core._pcvm_basis import KERNELS, basis, check_kernel
from olearn.core.pcvm import GAMMA_RULES, PCVMConfig, pcvm_fit
from olearn.estimators._model_state import ModelState, unfitted_on_failure
from olearn.estimators._params import FLOAT_MAX, Bounded
from olearn.estimators._weights import CLASS_WEIGHT_CONSTRAINT, example_weights
from olearn.kernels.sparse import check_sparse_structure

__all__ = ["PCVMClassifier"]


def _positive(name: str, value, allow_zero: bool = False) -> float:
    ok = isinstance(value, numbers.Real) and np.isfinite(value)
    ok = ok and (value >= 0 if allow_zero else value > 0)
    if not ok:
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    return float(value)


# the RBF basis is exp(-theta^2 ||x - x_j||^2): theta^2 must be a float64
THETA = Bounded(5e-324, math.sqrt(FLOAT_MAX), "theta^2 must not overflow float64")


class PCVMClassifier(ModelState, ClassifierMixin, BaseEstimator):
    """Probabilistic Classification Vector Machine, with the noise precision gamma learned.

    ``y(x) = sum_j w_j phi_j(x) + b`` over kernel basis functions centred on the training
    points; ``P(class 1 | x) = Phi(sqrt(gamma) y(x))``.  Truncated-Gaussian priors tie the sign
    of ``w_j`` to the label of point j, Jeffreys hyper-priors make most weights vanish (they
    are pruned: the survivors are the *relevance vectors*), and gamma gets a half-normal prior
    of precision ``lam``.  Fitted by EM (seed 002, Eqs. 14-20, with the misprints corrected:
    see :mod:`olearn.core.pcvm`).  ``gamma=1.0`` fixed is Chen et al.'s PCVM.

    Binary only: more than two classes raise ``ValueError`` (wrap the estimator in
    :class:`sklearn.multiclass.OneVsRestClassifier` or ``OneVsOneClassifier``; Chen et al.'s
    code uses one-vs-one).  The basis is an N x N dense matrix, so N up to a few thousand.

    Parameters
    ----------
    kernel : {"cosine", "rbf", "linear"}, default="cosine"
        ``cosine`` is the seed's Eq. (21) (a zero row has cosine 0 with everything: its own
        basis function is identically 0 and is pruned); ``rbf`` is ``exp(-theta^2 ||x - x_j||^2)``.
    gamma : float or None, default=None
        None: learn gamma by EM with the prior of precision ``lam``.  A float: keep it fixed.
    lam : float, default=20000.0
        lambda, the precision of gamma's half-normal prior (seed Eq. 13; its Tables use
        10^4 .. 8 x 10^4 for N = 400).  Larger lam: smaller gamma, fewer relevance vectors.
    theta : float, default=1.0
        RBF inverse width (ignored by the other kernels), up to ``sqrt(float64 max)`` so that
        ``theta^2`` is a number.  Hyper-parameters at which the EM breaks down in float64 (a
        Cholesky factor that is not positive definite, NaN) raise ValueError naming them.
    c, d : float, default=0.0
        Gamma(c, d) hyper-prior of each weight precision: ``alphabar = (2c+1)/(w^2 + 2d)``.
        0, 0 is Jeffreys'; ``c=-0.25`` reproduces Chen et al.'s published code.
    max_iter : int, default=500
    tol : float, default=1e-3
        Stop when ``max|w_new - w_old| <= tol max|w_new|`` and gamma moved by at most tol
        relatively.  EM with Jeffreys priors converges slowly: a tighter tol (with more
        iterations) keeps pruning, giving slightly sparser models.
    prune_tol : float in [0, 1), default=1e-3
        Drop a weight once ``|w_j| <= prune_tol max|w|`` (at 1 or more even the largest
        weight would go: an empty model).
    gamma_rule : {"derived", "printed"}, default="derived"
        "printed" uses the seed's Eq. (20) as printed (for comparison only: it overestimates
        gamma).
    rescale : bool, default=True
        With gamma learned (derived rule), end each iteration with the exact step along the
        scale direction ``(s w, s b, gamma / s^2)`` that leaves the likelihood unchanged (a
        PX-EM step: same fixed points, 3-10x fewer iterations).  At convergence
        ``gamma_ ~ sqrt(k / (2 lam))`` with k the relevance vectors.
    random_state : int, RandomState or None
        Seed of the initial weights (Chen et al.'s ``t_j w_j ~ U(0.2, 1.2)``).
    class_weight : dict, "balanced" or None, default=None
        Multiplies each example's ``sample_weight`` by its class's (scikit-learn's meaning).

    Attributes
    ----------
    classes_ : ndarray of shape (2,).  ``classes_[1]`` is the +1 class.
    dual_coef_ : ndarray of shape (n_relevance,), the non-zero weights ``w_j``.
    relevance_indices_ : ndarray of int, indices (into the training set) of those weights.
    relevance_vectors_ : their training rows (dense or CSR, as given).
    intercept_ : float
        b.
    gamma_ : float
        The noise precision reached.
    n_iter_ : int
        EM iterations.
    history_ : list of dict
        One per iteration (gamma, b, objective, n_nonzero, train_error, constrained).
    n_features_in_ : int.

    Notes
    -----
    A batch model: no ``partial_fit``, so no ``get_state`` / ``set_state`` (there is no
    stream to continue); refit it, and pickle it to keep it (its prediction needs only the
    fitted attributes above).

    *Weights.*  An example's weight ``s >= 0`` multiplies its log-likelihood term:
    ``L_s = sum_i s_i log Phi(t_i sqrt(gamma) y_i) + priors``.  The EM keeps its E-step per
    example and weights every sum of its M-step (w, b and gamma's ``N`` and residual), so
    ``L_s`` never decreases between prunes: derivation in :mod:`olearn.core.pcvm`, *Weighted
    examples*.  An integer weight k counts the example's likelihood term k times; the basis
    stays one function per example (repeating a training row would also add a second basis
    function with its own weight, which a weight does not).  A weight of 0 is absence: the
    row and its basis function are dropped.  ``relevance_indices_`` index the given rows.

    Examples
    --------
    >>> import numpy as np
    >>> from olearn.estimators import PCVMClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(2, 1, (30, 2)), rng.normal(-2, 1, (30, 2))])
    >>> y = np.r_[np.ones(30), np.zeros(30)]
    >>> clf = PCVMClassifier(kernel="rbf", theta=0.5, lam=100.0, random_state=0).fit(X, y)
    >>> clf.score(X, y), len(clf.relevance_indices_) < 10
    (1.0, True)

    References
    ----------
    H. Chen, P. Tino, X. Yao, IEEE Trans. Neural Networks 20(6):901-914, 2009.
    H. Ikegami, T. Obata, M. Kobayashi, Y. Sakashita, seed 002 (PCVM with noise precision).
    """

    # scikit-learn's declarative checks, run by ``fit`` (``InvalidParameterError``, a
    # ValueError, names the parameter and the allowed range).
    numba_kernel = None  # numpy's EM: no numba kernel (the registry reads it)

    _parameter_constraints: dict = {
        "kernel": [StrOptions(set(KERNELS))],
        "gamma": [None, Interval(Real, 0, np.inf, closed="neither")],
        "lam": [Interval(Real, 0, np.inf, closed="neither")],
        "theta": [THETA],
        "c": [Interval(Real, -0.5, np.inf, closed="neither")],
        "d": [Interval(Real, 0, np.inf, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, np.inf, closed="left")],
        "prune_tol": [Interval(Real, 0, 1, closed="left")],
        "gamma_rule": [StrOptions(set(GAMMA_RULES))],
        "rescale": ["boolean"],
        "random_state": ["random_state"],
        "class_weight": CLASS_WEIGHT_CONSTRAINT,
    }

    def __init__(
        self,
        *,
        kernel="cosine",
        gamma=None,
        lam=20000.0,
        theta=1.0,
        c=0.0,
        d=0.0,
        max_iter=500,
        tol=1e-3,
        prune_tol=1e-3,
        gamma_rule="derived",
        rescale=True,
        random_state=None,
        class_weight=None,
    ):
        self.kernel = kernel
        self.gamma = gamma
        self.lam = lam
        self.theta = theta
        self.c = c
        self.d = d
        self.max_iter = max_iter
        self.tol = tol
        self.prune_tol = prune_tol
        self.gamma_rule = gamma_rule
        self.rescale = rescale
        self.random_state = random_state
        self.class_weight = class_weight

    def _config(self) -> tuple[PCVMConfig, float]:
        check_kernel(
            self.kernel, float(self.theta) if isinstance(self.theta, numbers.Real) else np.nan
        )
        if self.gamma is None:
            lam, gamma0 = _positive("lam", self.lam), 1.0
        else:
            lam, gamma0 = None, _positive("gamma", self.gamma)
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1:
            raise ValueError(f"max_iter must be a positive integer, got {self.max_iter!r}")
        _positive("tol", self.tol, allow_zero=True)
        if self.gamma_rule not in GAMMA_RULES:
            raise ValueError(f"gamma_rule must be one of {GAMMA_RULES}, got {self.gamma_rule!r}")
        c = float(self.c)
        if not (np.isfinite(c) and c > -0.5):
            raise ValueError(f"c must be > -0.5 (so that 2c + 1 > 0), got {self.c!r}")
        cfg = PCVMConfig(
            lam=lam,
            c=c,
            d=_positive("d", self.d, allow_zero=True),
            prune_tol=_positive("prune_tol", self.prune_tol, allow_zero=True),
            gamma_rule=self.gamma_rule,
            rescale=bool(self.rescale),
        )
        return cfg, gamma0

    def _state_params(self) -> dict:
        # the relevance vectors' weights belong to one basis: the kernel (and the RBF's
        # width); the prior's lam, c, d and the stopping rule only steered the EM
        params = {"kernel": self.kernel}
        if self.kernel == "rbf":
            params["theta"] = float(self.theta)
        return params

    def _state_bytes(self, n_samples: int, n_features: int, n_classes: int) -> tuple[int, str]:
        # the basis Phi (N x N) and, while every weight is active, Phi D, its Gram matrix and
        # that matrix's Cholesky factor (N x N each)
        what = f"a {n_samples:,} x {n_samples:,} kernel basis (and 3 EM work matrices)"
        return model_bytes(n_samples, n_samples, copies=4), what

    @unfitted_on_failure
    def fit(self, X, y, sample_weight=None):
        """Run the EM on (X, y) (two classes).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features).
        y : array-like of shape (n_samples,), exactly two distinct labels.
        sample_weight : array-like of shape (n_samples,), default=None
            ``s_i >= 0`` (times ``class_weight``'s): the example's log-likelihood term is
            multiplied by ``s_i`` (see *Notes*); 0 removes it, its basis function included.

        Returns
        -------
        self
        """
        self._validate_params()
        cfg, gamma0 = self._config()
        check_sparse_structure(X)  # before scipy or a kernel trusts its indices
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_classification_targets(y)
        rows = np.arange(y.shape[0])  # the given row of each example the EM sees
        X, y, weights, kept = example_weights(X, y, sample_weight, self.class_weight, partial=False)
        rows = rows if kept is None else rows[kept]
        self.classes_ = np.unique(y)
        if self.classes_.shape[0] != 2:
            raise ValueError(
                "Only binary classification is supported. PCVMClassifier got "
                f"{self.classes_.shape[0]} class(es) {self.classes_.tolist()}; for more classes "
                "wrap it in sklearn.multiclass.OneVsRestClassifier or OneVsOneClassifier."
            )
        t = np.where(y == self.classes_[1], 1.0, -1.0)
        self._require_budget(X.shape[0], X.shape[1], 2)
        try:
            Phi = basis(X, X, self.kernel, float(self.theta))
            state, history, n_iter = pcvm_fit(
                Phi,
                t,
                cfg,
                gamma0=gamma0,
                max_iter=int(self.max_iter),
                tol=float(self.tol),
                random_state=self._seed(),
                weights=weights,
            )
            finite = np.isfinite([*state.w, state.b, state.gamma]).all()
        except (np.linalg.LinAlgError, ArithmeticError, ValueError) as err:
            # X and y are valid by now: what breaks is float64 at these hyper-parameters
            finite, reason = False, f"{type(err).__name__}: {err}"
        else:
            reason = "non-finite weights"
        if not finite:
            hyper = ", ".join(
                f"{k}={getattr(self, k)!r}" for k in ("gamma", "lam", "theta", "c", "d")
            )
            raise ValueError(
                f"PCVMClassifier's EM broke down in float64 ({reason}) with {hyper}: move "
                "the hyper-parameters towards their defaults (e.g. gamma or lam nearer 1, "
                "theta nearer 1 / the typical distance between points)"
            )
        self.relevance_indices_ = rows[state.active]
        self.dual_coef_ = state.w[state.active].copy()
        self.relevance_vectors_ = X[state.active]
        self.intercept_ = float(state.b)
        self.gamma_ = float(state.gamma)
        self.n_iter_ = int(n_iter)
        self.history_ = history
        self._remember_state_params()
        return self

    def _seed(self):
        rs = self.random_state
        if isinstance(rs, np.random.RandomState):
            return rs.randint(np.iinfo(np.int32).max)
        return rs

    def decision_function(self, X):
        """``y(x) = sum_j w_j phi_j(x) + b`` (Eq. 1); positive means ``classes_[1]``."""
        check_is_fitted(self, "dual_coef_")
        self._check_state_params("predict")
        check_sparse_structure(X)
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        if self.dual_coef_.size == 0:
            return np.full(X.shape[0], self.intercept_)
        Phi = basis(X, self.relevance_vectors_, self.kernel, float(self.theta))
        return Phi @ self.dual_coef_ + self.intercept_

    def predict_proba(self, X):
        """``[1 - p, p]`` with ``p = psi(y(x)) = Phi(sqrt(gamma_) y(x))`` (Eqs. 5-6)."""
        check_is_fitted(self, "dual_coef_")
        z = np.sqrt(self.gamma_) * self.decision_function(X)
        return np.column_stack([np.exp(log_ndtr(-z)), np.exp(log_ndtr(z))])

    def predict_log_proba(self, X):
        """Log of :meth:`predict_proba`, computed stably."""
        check_is_fitted(self, "dual_coef_")
        z = np.sqrt(self.gamma_) * self.decision_function(X)
        return np.column_stack([log_ndtr(-z), log_ndtr(z)])

    def predict(self, X):
        """``classes_[1]`` where ``y(x) > 0``, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = False
        return tags
