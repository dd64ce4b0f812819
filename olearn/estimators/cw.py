"""scikit-learn classifiers for CW, AROW, SCW, NHERD and NAROW: true multiclass, one shared
covariance.

Each class has a mean row ``mu_k`` (``coef_[k]``; for two classes ``coef_`` is the one row
``mu_1 - mu_0``, scikit-learn's convention, and the per-class rows are ``get_state()["coef"]``);
the covariance over features is shared (``covariance_``).  A step is the single-constraint
update against the best wrong class derived in :mod:`olearn.core.cw`; with two classes it is
exactly the binary algorithm on ``w = mu_1 - mu_0`` (``coef_[0]``) with covariance
``2 covariance_``.
"""

from __future__ import annotations

import math
from numbers import Real

import numpy as np
from scipy.special import ndtr
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if

from olearn._numerics import TINY_VARIANCE
from olearn.core._cw_closed_forms import phi_of
from olearn.core.cw import COVARIANCES, CW_FORMS, DIAGONAL_FORMS
from olearn.estimators._fit_options import FIT_DOC_CW, add_fit_doc
from olearn.estimators._linear import LinearMulticlassClassifier
from olearn.estimators._params import FLOAT_MAX, POSITIVE, Bounded, store_params
from olearn.estimators.engine import CWEngine
from olearn.estimators.engine.cw import NAROW_B_MAX, NHERD_C_MAX
from olearn.estimators.pa import INTERCEPT_DOC, state_doc
from olearn.kernels.cw import cw_code, diagonal_code

__all__ = [
    "CWClassifier",
    "AROWClassifier",
    "SCWClassifier",
    "NHERDClassifier",
    "NAROWClassifier",
]

_GH_NODES, _GH_WEIGHTS = np.polynomial.hermite.hermgauss(64)
ETA = Interval(Real, 0.5, 1.0, closed="neither")  # confidence; phi = Phi^{-1}(eta) > 0


# AROW's r: one step makes the variance along x ``v r / (v + r) < r``, and below TINY_VARIANCE
# the rules stay passive, so an r under it would freeze every direction after its first step
# (a subnormal r even overflows the precision step 1/r).
AROW_R = Bounded(
    TINY_VARIANCE,
    FLOAT_MAX,
    f"one step leaves the variance along x below r, and under {TINY_VARIANCE:.0e} the rule "
    "stops learning",
)


class ConfidenceWeightedClassifier(LinearMulticlassClassifier):
    """Shared face of the CW family: the Gaussian's parameters and ``predict_proba``.

    The engine (:class:`~olearn.estimators.engine.CWEngine`) keeps the means in the linear
    layout and the shared covariance.  A subclass names its rule (``_rule_name``) and its
    kernel hyper-parameters (``_hyper``).
    """

    engine_class = CWEngine
    _parameter_constraints: dict = {
        **LinearMulticlassClassifier._parameter_constraints,
        "covariance": [StrOptions(set(COVARIANCES))],
        "diagonal_form": [StrOptions(set(DIAGONAL_FORMS))],
        "a": [POSITIVE],
        "probability": ["boolean"],
    }

    def _rule_name(self) -> str:  # pragma: no cover - overridden
        """The rule's name as in ``CWTrace.rule`` (e.g. "SCW-I"), from the parameters."""
        raise NotImplementedError

    def _hyper(self) -> tuple[float, float, float]:
        """``(phi, r, C)`` for the kernel (the ones the rule does not use are NaN)."""
        return math.nan, math.nan, math.nan

    def _structure(self) -> dict:
        # the covariance kind is the state's shape; ``a`` is the prior the stored covariance
        # started from (the diagonal forms and the rule's eta / r / C / variant only shape the
        # next steps: they may change mid-stream)
        return {**super()._structure(), "covariance": self.covariance, "a": float(self.a)}

    def _steps(self) -> dict:
        """The kernel's ``rule`` tuple ``(code, phi, r, C, lam, diagonal form code)``."""
        phi, r, C = self._hyper()
        rule = (cw_code(self._rule_name()), phi, r, C, 1.0, diagonal_code(self.diagonal_form))
        return {"rule": rule}

    @property
    def covariance_(self) -> np.ndarray:
        """The shared covariance (diagonal vector or full matrix ``A A'``)."""
        engine = self.__dict__.get("engine_")
        if engine is None:
            raise AttributeError("covariance_ exists only after fit or partial_fit")
        return engine.covariance_matrix()

    def _has_proba(self) -> bool:
        return bool(self.probability)

    @available_if(_has_proba)
    def predict_proba(self, X):
        """Probability that class k scores highest for a weight matrix drawn from the Gaussian.

        The class scores ``w_k . x`` are independent ``N(mu_k . x, x' Sigma x)`` (rows are
        independent and share ``Sigma``), so ``P(k) = E_z[prod_{j != k} Phi((s_k - s_j)/sigma
        + z)]`` with ``z ~ N(0, 1)``, computed by 64-node Gauss-Hermite quadrature.  For two
        classes this is the closed form ``Phi(m / sqrt(v))`` with ``m = (mu_1 - mu_0).x`` and
        ``v = 2 x' Sigma x``.  Only with ``probability=True``: the value depends on
        ``x' Sigma x``, so it is not a monotone function of ``decision_function`` (scikit-learn
        expects that of ``predict_proba``; ``SVC(probability=...)`` is opt-in for the same
        reason).
        """
        X = self._validate_X(X)
        engine = self.engine_
        return gaussian_proba(engine.scores(X), engine.score_variance(X))


def gaussian_proba(scores: np.ndarray, variance: np.ndarray) -> np.ndarray:
    """``predict_proba`` of the Gaussian over the weights, from the mean scores (n, K) and each
    row's score variance ``x' Sigma x`` (n,): see ``ConfidenceWeightedClassifier``'s."""
    sigma = np.sqrt(np.maximum(variance, 0.0))
    n, K = scores.shape
    proba = np.zeros((n, K))
    certain = sigma <= 1e-300
    if certain.any():  # no uncertainty left: the argmax wins
        proba[np.flatnonzero(certain), np.argmax(scores[certain], axis=1)] = 1.0
    rows = ~certain
    if K == 2:
        p1 = ndtr((scores[rows, 1] - scores[rows, 0]) / (math.sqrt(2.0) * sigma[rows]))
        proba[rows, 1], proba[rows, 0] = p1, 1.0 - p1
        return proba
    s, sg = scores[rows], sigma[rows][:, None]
    z = math.sqrt(2.0) * _GH_NODES
    for k in range(K):
        diff = (s[:, [k]] - np.delete(s, k, axis=1)) / sg  # (n, K-1)
        inner = np.prod(ndtr(diff[:, :, None] + z[None, None, :]), axis=1)  # (n, nodes)
        proba[rows, k] = inner @ _GH_WEIGHTS / math.sqrt(math.pi)
    proba[rows] /= proba[rows].sum(axis=1, keepdims=True)
    return proba


_COMMON_DOC = """
    covariance : {"diagonal", "full"}, default="diagonal"
        Diagonal (text-sized data) or full covariance (``n_features <= 2000``).
    diagonal_form : {"precision", "truncated"}, default="precision"
        Diagonal only: ``1/Sigma_j += c x_j^2`` (seed 001's D code, SOL, Jubatus) or the
        diagonal of the full update (see :mod:`olearn.core.cw`).  "precision" treats every
        feature as if it alone carried the margin, so on dense, correlated, unscaled features
        it shrinks the variances too fast (AROW on raw iris: 67% training accuracy against
        87% with "truncated"); standardise such data or use "truncated".
    a : float, default=1.0
        Prior variance: the covariance starts at ``a I``.  The rule depends on ``a ||x||^2``
        only, and ``2 a ||x||^2`` must stay below ``MAX_VARIANCE = 1e100`` for every row (the
        closed forms are cubic in the margin variance; above it they would overflow float64):
        a larger ``a`` is refused by ``fit`` / ``partial_fit`` with the rows' value.
    probability : bool, default=False
        Enable :meth:`predict_proba` (the Gaussian's probability that each class wins).
    {intercept}
        Its mean is ``intercept_ / intercept_scaling``, its variance the last entry of
        ``covariance_``.
    epochs : int, default=5 (CWClassifier: 1)
        Passes made by ``fit`` (``partial_fit`` always makes one, in order).
    shuffle : bool, default=True
        Fresh random order for each ``fit`` epoch.
    random_state : int, RandomState or None, default=None
        Seed of that order.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features), the means ``mu_k``; for two classes
        (1, n_features) = ``mu_1 - mu_0`` (scikit-learn's convention, computed when read;
        the per-class rows are ``get_state()["coef"]``).
    intercept_ : ndarray of shape (n_classes,), or (1,) = ``b_1 - b_0`` for two classes.
    covariance_ : ndarray of shape (n_features [+1],) or (n_features [+1], n_features [+1]),
        the shared covariance (last entry/row: the intercept's, with ``fit_intercept``).
    classes_, t_ (samples seen), n_updates_ (aggressive steps), n_iter_.
"""


WEIGHTS_CW = """multiplies
    its term of the objective: AROW becomes AROW with ``r / s``, SCW-I / SCW-II price the loss
    ``s C``; CW, a probability constraint with no price, takes any s > 0 as its presence
    (the limit C -> inf of weighted SCW-II).  Derivations and solver checks:
    :mod:`olearn.core.cw`, *Weights*.  Averaging averages the means, not the covariance
    (``predict_proba`` uses the averaged means with the current covariance)."""


def _doc(cls):
    common = _COMMON_DOC.lstrip("\n").replace("{intercept}", INTERCEPT_DOC)
    cls.__doc__ = cls.__doc__.replace("    {common}\n", common)
    extra = """,
    and the shared covariance over the d [+1] columns: ``"covariance"`` (d [+1],) for
    ``covariance="diagonal"``, or ``"covariance_factor"`` A (d [+1], d [+1]) with
    ``Sigma = A A'`` for "full" (the square root the kernel updates: restoring it is exact;
    mixing models' states should mix ``A A'``, not A).  A new class's mean row is 0 and the
    covariance is unchanged (it is shared by all classes)"""
    add_fit_doc(cls, FIT_DOC_CW)
    notes = state_doc(extra, WEIGHTS_CW)
    if "\n    Notes\n    -----\n" in cls.__doc__:  # CW has Notes already: add a paragraph
        notes = notes.replace("\n    Notes\n    -----\n", "\n")
        cls.__doc__ = cls.__doc__.replace("\n    Examples\n", notes + "\n    Examples\n", 1)
    else:
        cls.__doc__ = cls.__doc__.replace("\n    Examples\n", notes + "\n    Examples\n", 1)
    return cls


@_doc
class CWClassifier(ConfidenceWeightedClassifier):
    """Confidence-Weighted learning: the closest Gaussian that gets x right with probability eta.

    Parameters
    ----------
    eta : float, default=0.7
        Confidence in (0.5, 1); ``phi = Phi^{-1}(eta)`` (0.7 gives SOL's default phi = 0.5244).
    form : {"exact", "variance"}, default="exact"
        "exact": Crammer, Dredze, Pereira, NIPS 2008 (``m' >= phi sqrt(v')``);
        "variance": Dredze, Crammer, Pereira, ICML 2008 (``m' >= phi v'``).
    {common}

    Notes
    -----
    ``epochs`` defaults to 1 here (5 for AROW and SCW): CW's hard constraint shrinks the
    variance by a constant factor at every mistake, so on non-separable data repeated passes
    collapse the covariance geometrically and each later mistake moves the mean a long way
    (seed 001: "CW converges in about one pass" and "breaks under label noise").

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from olearn.estimators import CWClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = CWClassifier(eta=0.9, random_state=0).fit(X, y)
    >>> clf.coef_.shape, clf.covariance_.shape
    ((3, 4), (4,))

    References
    ----------
    K. Crammer, M. Dredze, F. Pereira, "Exact Convex Confidence-Weighted Learning", NIPS 2008.
    M. Dredze, K. Crammer, F. Pereira, "Confidence-Weighted Linear Classification", ICML 2008.
    """

    def __init__(
        self,
        *,
        eta=0.7,
        form="exact",
        covariance="diagonal",
        diagonal_form="precision",
        a=1.0,
        probability=False,
        fit_intercept=False,
        intercept_scaling=1.0,
        epochs=1,
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

    _parameter_constraints: dict = {
        **ConfidenceWeightedClassifier._parameter_constraints,
        "eta": [ETA],
        "form": [StrOptions(set(CW_FORMS))],
    }

    def _rule_name(self) -> str:
        return "CW" if self.form == "exact" else "CW-variance"

    def _hyper(self) -> tuple[float, float, float]:
        return phi_of(self.eta), math.nan, math.nan


@_doc
class AROWClassifier(ConfidenceWeightedClassifier):
    """Adaptive Regularization of Weight vectors: one easy parameter r.

    Parameters
    ----------
    r : float, default=1.0
        Regularisation: ``alpha = max(0, 1 - m) / (v + r)``, ``1/Sigma += x x'/r`` (binary;
        see :mod:`olearn.core.cw` for the multiclass factor).  At least ``1e-100`` (the
        passivity threshold TINY_VARIANCE): a step leaves the variance along x below r, so a
        smaller r would freeze each direction after its first step.
    {common}

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from olearn.estimators import AROWClassifier
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = make_pipeline(StandardScaler(), AROWClassifier(r=1.0, random_state=0))
    >>> clf.fit(X, y).score(X, y) > 0.8
    True

    References
    ----------
    K. Crammer, A. Kulesza, M. Dredze, "Adaptive Regularization of Weight Vectors", NIPS 2009.
    """

    def __init__(
        self,
        *,
        r=1.0,
        covariance="diagonal",
        diagonal_form="precision",
        a=1.0,
        probability=False,
        fit_intercept=False,
        intercept_scaling=1.0,
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

    _parameter_constraints: dict = {
        **ConfidenceWeightedClassifier._parameter_constraints,
        "r": [AROW_R],
    }

    def _rule_name(self) -> str:
        return "AROW"

    def _hyper(self) -> tuple[float, float, float]:
        return math.nan, float(self.r), math.nan


@_doc
class SCWClassifier(ConfidenceWeightedClassifier):
    """Soft Confidence-Weighted learning, SCW-I (``+ C l``) or SCW-II (``+ C l^2``).

    Parameters
    ----------
    variant : {"I", "II"}, default="I"
    C : float, default=1.0
        Price of the loss ``l = max(0, phi sqrt(v) - m)`` (> 0); SCW-I caps ``alpha <= C``.
        Every C > 0 gives finite steps (SCW-II's is computed divided by ``n = v + 1/(2C)``);
        as C -> 0 the steps vanish.
    eta : float, default=0.75
        Confidence in (0.5, 1).
    {common}

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from olearn.estimators import SCWClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> SCWClassifier(variant="I", C=1.0, random_state=0).fit(X, y).score(X, y) > 0.8
    True

    References
    ----------
    J. Wang, P. Zhao, S. C. H. Hoi, "Exact Soft Confidence-Weighted Learning", ICML 2012.
    """

    def __init__(
        self,
        *,
        variant="I",
        C=1.0,
        eta=0.75,
        covariance="diagonal",
        diagonal_form="precision",
        a=1.0,
        probability=False,
        fit_intercept=False,
        intercept_scaling=1.0,
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

    _parameter_constraints: dict = {
        **ConfidenceWeightedClassifier._parameter_constraints,
        "variant": [StrOptions({"I", "II"})],
        "C": [POSITIVE],
        "eta": [ETA],
    }

    def _rule_name(self) -> str:
        return f"SCW-{self.variant}"

    def _hyper(self) -> tuple[float, float, float]:
        return phi_of(self.eta), math.nan, float(self.C)


# NHERD's C: the precision step is ``c = C (2 + C v)``, so ``c v ~ (C v)^2`` must stay within
# float64 for margin variances up to MAX_VARIANCE (1e100): C <= 1e50.
NHERD_C = Bounded(
    5e-324,
    NHERD_C_MAX,
    "the precision step grows as (C v)^2 and must stay finite for v up to 1e100",
)
# NAROW's b: r_t = v / (b v - 1) falls to ~1/b, and AROW's r must stay >= 1e-100 (AROW_R).
NAROW_B = Bounded(
    5e-324,
    NAROW_B_MAX,
    f"r_t tends to 1/b, and under {TINY_VARIANCE:.0e} the variance along x freezes",
)


@_doc
class NHERDClassifier(ConfidenceWeightedClassifier):
    """Normal Herding: move the whole Gaussian by the affine map that trades the expected
    squared move against C times the expected squared loss.

    Parameters
    ----------
    C : float, default=1.0
        Price of the loss: the mean moves as AROW's with ``r = 1/C``
        (``alpha = max(0, 1 - m) / (v + 1/C)``) and the covariance becomes ``A Sigma A'``
        (``Sigma -= C (2 + C v) / (1 + C v)^2 Sigma x x' Sigma``, binary; see
        :mod:`olearn.core.cw`, *NHERD*).  In ``(0, 1e50]``.
    {common}

    Notes
    -----
    The diagonal forms are the paper's *project* (``"precision"``: ``1/Sigma_j += (2C +
    C^2 v) x_j^2``) and *drop* (``"truncated"``) versions.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from olearn.estimators import NHERDClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = make_pipeline(StandardScaler(), NHERDClassifier(C=0.1, random_state=0))
    >>> clf.fit(X, y).score(X, y) > 0.8
    True

    References
    ----------
    K. Crammer, D. D. Lee, "Learning via Gaussian Herding", NIPS 2010.
    """

    def __init__(
        self,
        *,
        C=1.0,
        covariance="diagonal",
        diagonal_form="precision",
        a=1.0,
        probability=False,
        fit_intercept=False,
        intercept_scaling=1.0,
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

    _parameter_constraints: dict = {
        **ConfidenceWeightedClassifier._parameter_constraints,
        "C": [NHERD_C],
    }

    def _rule_name(self) -> str:
        return "NHERD"

    def _hyper(self) -> tuple[float, float, float]:
        return math.nan, math.nan, float(self.C)


@_doc
class NAROWClassifier(ConfidenceWeightedClassifier):
    """Narrow AROW: AROW whose r adapts to the margin variance, ``r_t = v / (b v - 1)``.

    Parameters
    ----------
    b : float, default=10.0
        The variance along x is shrunk only where it exceeds ``1/b``, and to ``1/b``
        (binary; ``alpha = max(0, 1 - m) / (v + r_t)``, no update when ``v <= 1/b``; see
        :mod:`olearn.core.cw`, *NAROW*).  With the prior ``a I`` and ``a ||x||^2 <= 1/b``
        (binary) nothing is learned: scale b with the data.  The default is 10, not the
        papers' 1: on unit-norm rows a binary NAROW with b = 1 never updates.  In
        ``(0, 1e100]``.
    {common}

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from olearn.estimators import NAROWClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = make_pipeline(StandardScaler(), NAROWClassifier(random_state=0))
    >>> clf.fit(X, y).score(X, y) > 0.8
    True

    References
    ----------
    F. Orabona, K. Crammer, "New Adaptive Algorithms for Online Classification", NIPS 2010.
    """

    def __init__(
        self,
        *,
        b=10.0,
        covariance="diagonal",
        diagonal_form="precision",
        a=1.0,
        probability=False,
        fit_intercept=False,
        intercept_scaling=1.0,
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

    _parameter_constraints: dict = {
        **ConfidenceWeightedClassifier._parameter_constraints,
        "b": [NAROW_B],
    }

    def _rule_name(self) -> str:
        return "NAROW"

    def _hyper(self) -> tuple[float, float, float]:
        return math.nan, float(self.b), math.nan  # b in the r slot (kernels.cw)
