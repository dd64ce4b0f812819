"""scikit-learn classifier for the Support-Class PA family (SPA, SPA-I, SPA-II)."""

from __future__ import annotations

from sklearn.utils._param_validation import StrOptions

from olearn.estimators._fit_options import NO_PROBA_DOC, add_fit_doc
from olearn.estimators._linear import AdditiveLinearClassifier
from olearn.estimators._params import POSITIVE, store_params
from olearn.estimators.pa import (
    INTERCEPT_DOC,
    WEIGHT_SCALES_CONSTRAINT,
    WEIGHT_SCALES_DOC,
    state_doc,
)

__all__ = ["SPAClassifier"]

WEIGHTS_SPA = """prices its
    slack ``s C`` in SPA-I and SPA-II (their closed forms with ``C_i = s C``); hard SPA takes
    any s > 0 as the constraints' presence (the limit C -> inf; "weight k" = k repeats, the
    later ones passive).  With ``weight_scales="step"`` every tau is s times the unweighted
    one instead (scikit-learn's meaning; for two classes SPA is PA).  Derivations and solver
    checks: :mod:`olearn.core.spa`."""


class SPAClassifier(AdditiveLinearClassifier):
    """Support-Class Passive-Aggressive: the exact multiclass PA step.

    Each step solves ``min 1/2 sum ||w_v - w_v_old||^2 (+ C xi | + C xi^2)`` subject to a
    margin of 1 (minus the slack) over *every* wrong class.  The solution moves the correct
    class and a set of support classes found by a sorted test, so after a hard SPA step the
    example is always classified correctly with margin 1.  See :mod:`olearn.core.spa` for the
    derivation and the seed's misprints.

    Parameters
    ----------
    variant : {None, "I", "II"}, default=None
        SPA, SPA-I (``+ C xi``: the taus sum to at most C) or SPA-II (``+ C xi^2``).
    C : float, default=1.0
        Slack price (> 0); ignored by hard SPA.
    {weight_scales}
    {intercept}
    epochs : int, default=5
        Passes made by ``fit``; ``partial_fit`` makes one pass, one update per sample.
    shuffle : bool, default=True
        Shuffle each ``fit`` epoch.
    random_state : int, RandomState or None, default=None
        Seed of the shuffling.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
        One weight row per class, in ``classes_`` order (also for two classes).
    intercept_ : ndarray of shape (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    t_ : int
        Samples seen.
    n_updates_ : int
        Aggressive steps.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from olearn.estimators import SPAClassifier
    >>> X, y = load_digits(return_X_y=True)
    >>> clf = SPAClassifier(variant="II", C=0.01, random_state=0).fit(X[:1500], y[:1500])
    >>> clf.score(X[1500:], y[1500:]) > 0.85
    True

    References
    ----------
    S. Matsushima, N. Shimizu, K. Yoshida, T. Ninomiya, H. Nakagawa, "Exact
    Passive-Aggressive Algorithm for Multiclass Classification Using Support Class",
    SDM 2010 (seed 000).
    """

    _rule = "spa"
    _parameter_constraints: dict = {
        **AdditiveLinearClassifier._parameter_constraints,
        "variant": [StrOptions({"I", "II"}), None],
        "C": [POSITIVE],
        "weight_scales": WEIGHT_SCALES_CONSTRAINT,
    }

    def __init__(
        self,
        *,
        variant=None,
        C=1.0,
        weight_scales="C",
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

    def _slack_price(self) -> float:
        return float(self.C)


SPAClassifier.__doc__ = SPAClassifier.__doc__.replace("{intercept}", INTERCEPT_DOC)
SPAClassifier.__doc__ = SPAClassifier.__doc__.replace("{weight_scales}", WEIGHT_SCALES_DOC)
SPAClassifier.__doc__ = SPAClassifier.__doc__.replace(
    "\n    Examples\n", state_doc(weights=WEIGHTS_SPA) + NO_PROBA_DOC + "\n    Examples\n", 1
)
add_fit_doc(SPAClassifier)
