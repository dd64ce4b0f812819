"""scikit-learn's own estimator checks, over every estimator in the registry."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from olearn.registry import check_instances


@parametrize_with_checks(check_instances())
def test_sklearn_compatible(estimator, check):
    check(estimator)
