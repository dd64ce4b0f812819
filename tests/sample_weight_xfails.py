"""scikit-learn's weight checks that olearn's estimators fail, each with its reason (shared by
``test_sklearn_checks.py`` and ``test_cw_estimators.py``).  What does hold, exactly, is tested
in ``tests/test_sample_weight_estimators.py``: weight 0 is absence (bit for bit), integer
weights are repeated rows for CS-SVM (same optimum); PCVM's weighted EM is tested in
``tests/test_pcvm_weights.py`` (an integer weight k is k copies of the likelihood term)."""

from olearn.estimators import CrammerSingerSVC, PCVMClassifier, SGDSVMClassifier
from olearn.estimators.base import OnlineClassifier

ONLINE_REPEAT = (
    "an online rule learns from a stream: weight k is one weighted step, k repeated rows are "
    "k steps at other places of the shuffled order, so the models differ (weight 0 = absence "
    "holds exactly: tests/test_sample_weight_estimators.py)"
)
CS_TOL = (
    "the weighted problem and the repeated rows' one have the same optimum (equal to 1e-7 at "
    "tol=1e-8 in tests/test_sample_weight_estimators.py), but at the default tol=1e-4 the two "
    "solver runs stop at different points within tol, and the check compares them to 1e-7"
)
PCVM_BASIS = (
    "PCVM's basis is its training rows: a repeated row adds a basis function (with its own "
    "weight and prior), a weight does not (it multiplies the likelihood term only; an integer "
    "weight equals the repeated likelihood terms exactly: tests/test_pcvm_weights.py)"
)
NO_BIAS = (
    "without an intercept (this estimator's default) a linear score cannot predict one class "
    "on both sides of the origin; the check's blobs straddle it"
)
ONLINE_CLASS_WEIGHT = (
    "one pass per epoch of an online rule is not the reweighted batch optimum the check "
    "expects (> 87% of class 0 on noisy blobs): hard rules take a weight as the constraint's "
    "presence, the Perceptron's steps keep their signs, PA-I / SPA-I reach 80-94% with an "
    "intercept"
)
SGD_CLASS_WEIGHT = (
    "the bias moves at bias_rate (0.01) times the rate, too slowly for the check's blobs, "
    "centred up to 10 away from the origin, in 5 epochs"
)


def weight_check_failures(estimator) -> dict[str, str]:
    """The expected failures of the weight checks for ``estimator``."""
    equivalence = ONLINE_REPEAT
    if isinstance(estimator, CrammerSingerSVC):
        equivalence = CS_TOL
    elif isinstance(estimator, PCVMClassifier):
        equivalence = PCVM_BASIS
    failures = {
        "check_sample_weight_equivalence_on_dense_data": equivalence,
        "check_sample_weight_equivalence_on_sparse_data": equivalence,
    }
    if isinstance(estimator, SGDSVMClassifier):
        failures["check_class_weight_classifiers"] = SGD_CLASS_WEIGHT
    elif isinstance(estimator, OnlineClassifier):
        failures["check_class_weight_classifiers"] = (
            NO_BIAS if not estimator.fit_intercept else ONLINE_CLASS_WEIGHT
        )
    return failures
