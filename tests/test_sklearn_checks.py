"""scikit-learn's own estimator checks, over every estimator in the registry."""

from sample_weight_xfails import weight_check_failures
from sklearn.utils.estimator_checks import parametrize_with_checks

from olearn.estimators import CWClassifier
from olearn.registry import check_instances

# Known, explained failures (each re-checked: the test fails if one starts to pass).
CW_OFFSET_BLOBS = (
    "CW's default has no intercept (decided by benchmarks/intercept.py: best on average over "
    "9 datasets) and one pass; sklearn's blobs are offset from the origin and CW then scores "
    "0.82, under the check's 0.83 (0.89 with fit_intercept=True)"
)


def expected_failures(estimator) -> dict[str, str]:
    failures = weight_check_failures(estimator)
    if isinstance(estimator, CWClassifier) and not estimator.fit_intercept:
        failures["check_classifiers_train"] = CW_OFFSET_BLOBS
    return failures


@parametrize_with_checks(
    check_instances(), expected_failed_checks=expected_failures, xfail_strict=True
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
