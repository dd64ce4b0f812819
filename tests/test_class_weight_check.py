"""scikit-learn's ``check_class_weight_classifiers`` (class weights 1000 : 0.0001 on noisy blobs
must make > 87% of the test set class 0) on olearn's online estimators, with an intercept.

The check's blobs are centred up to 10 away from the origin with rows of norm ~30, so without
an intercept (olearn's default) no linear score passes (``tests/sample_weight_xfails.py``,
``NO_BIAS``); olearn's intercept is a feature of value ``intercept_scaling`` inside ``||x||^2``
(LIBLINEAR's convention), which the docs advise to set near the typical row norm: 10 here.

Passes: every rule that uses a weight, in either meaning of ``weight_scales``.  Fails, by
design: the hard rules in the default meaning (a weight is the constraint's presence, so
1000 and 0.0001 step alike: they warn), and ``weight_scales="step"`` on a step proportional to
the loss refuses 1000 (it would overshoot the margin and diverge; PA-I caps it).
"""

from __future__ import annotations

import warnings

import pytest
from sklearn.utils.estimator_checks import check_class_weight_classifiers

from olearn.estimators import (
    AROWClassifier,
    CWClassifier,
    PAClassifier,
    PerceptronClassifier,
    SCWClassifier,
    SPAClassifier,
)

INTERCEPT = {"fit_intercept": True, "intercept_scaling": 10.0, "random_state": 0}

PASSES = [
    PerceptronClassifier(**INTERCEPT),
    PAClassifier(variant="I", **INTERCEPT),
    PAClassifier(variant="I", weight_scales="step", **INTERCEPT),
    PAClassifier(variant="II", **INTERCEPT),
    SPAClassifier(variant="I", **INTERCEPT),
    SPAClassifier(variant="I", weight_scales="step", **INTERCEPT),
    AROWClassifier(**INTERCEPT),
    SCWClassifier(variant="I", **INTERCEPT),
    SCWClassifier(variant="II", **INTERCEPT),
]
PRESENCE = [PAClassifier(**INTERCEPT), SPAClassifier(**INTERCEPT), CWClassifier(**INTERCEPT)]
OVERSHOOT = [
    PAClassifier(weight_scales="step", **INTERCEPT),
    SPAClassifier(weight_scales="step", **INTERCEPT),
    PAClassifier(variant="II", weight_scales="step", **INTERCEPT),
]


def run_check(estimator) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the hard rules' notice
        check_class_weight_classifiers(type(estimator).__name__, estimator)


@pytest.mark.parametrize("estimator", PASSES, ids=repr)
def test_rules_that_use_weights_pass(estimator):
    run_check(estimator)


@pytest.mark.parametrize("estimator", PRESENCE, ids=repr)
def test_hard_rules_take_a_weight_as_presence_and_fail(estimator):
    with pytest.raises(AssertionError):
        run_check(estimator)


@pytest.mark.parametrize("estimator", OVERSHOOT, ids=repr)
def test_a_step_proportional_to_the_loss_refuses_weight_1000(estimator):
    with pytest.raises(ValueError, match="overshoots the margin"):
        run_check(estimator)
