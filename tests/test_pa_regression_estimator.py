"""PARegressor as a scikit-learn estimator: scikit-learn's checks over the registry's
regressors, the estimator equal to the readable rule through the registry (dense and CSR, with
and without the intercept column), the door's refusals, the state, weights, stopping."""

import numpy as np
import pytest
import scipy.sparse as sp
from sample_weight_xfails import ONLINE_REPEAT
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from olearn import registry
from olearn.estimators import PARegressor

REGRESSORS = registry.keys(task="regression")


def expected_failures(estimator) -> dict[str, str]:
    return {
        "check_sample_weight_equivalence_on_dense_data": ONLINE_REPEAT,
        "check_sample_weight_equivalence_on_sparse_data": ONLINE_REPEAT,
    }


@parametrize_with_checks(
    registry.check_instances("regression"), expected_failed_checks=expected_failures,
    xfail_strict=True,
)  # fmt: skip
def test_sklearn_compatible(estimator, check):
    check(estimator)


def stream(seed: int, sparse: bool, n: int = 90, d: int = 6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.5 if sparse else 1.0))
    y = X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) + 2.0
    return (sp.csr_matrix(X) if sparse else X), X, y


@pytest.mark.kernel_equality
@pytest.mark.parametrize("key", REGRESSORS)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("s", [0.0, 1.0, 0.1])
def test_estimator_equals_readable_rule(key, sparse, s):
    spec = registry.get(key)
    Xin, X, y = stream(7, sparse)
    Xa = np.hstack([X, np.full((X.shape[0], 1), s)]) if s > 0 else X
    learner = spec.readable()
    w = learner.init(Xa.shape[1])
    for x, target in zip(Xa, y):
        w, _ = learner.step(w, x, target)
    est = spec.make(fit_intercept=s > 0, intercept_scaling=s or 1.0).partial_fit(Xin, y)
    ours = np.r_[est.coef_, est.intercept_ / s] if s > 0 else est.coef_
    np.testing.assert_allclose(ours, w, rtol=1e-9, atol=1e-9 * max(1.0, np.abs(w).max()))
    assert est.n_updates_ > 20 and est.t_ == 90


@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        (np.array([[np.nan, 1.0]]), [1.0], "NaN"),
        (np.array([[np.inf, 1.0]]), [1.0], "infinity"),
        (np.ones((2, 2)), [1.0, np.nan], "NaN"),
        (np.ones((2, 2)), [1.0, np.inf], "infinity"),
        (np.ones((2, 2)), [1.0], "inconsistent numbers of samples"),
        (np.ones((0, 2)), [], "0 sample"),
        (np.ones((2, 2)), ["a", "b"], "could not convert|numeric"),
        (np.ones((2, 2)), [1.0, 1e200], "scale the targets"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing(X, y, match):
    reg = PARegressor(variant="I").partial_fit(np.eye(2), [1.0, 2.0])
    before = reg.get_state()
    with pytest.raises(ValueError, match=match):
        reg.partial_fit(X, y)
    after = reg.get_state()
    assert all(np.array_equal(before[k], after[k]) for k in ("coef", "t", "n_updates"))
    with pytest.raises(ValueError, match=match):
        PARegressor().fit(X, y)


def test_state_round_trip_continues_bit_for_bit():
    Xin, _, y = stream(3, False)
    params = dict(variant="II", C=0.3, fit_intercept=True, average=5)
    a = PARegressor(**params).partial_fit(Xin[:50], y[:50])
    b = PARegressor(**params).set_state(a.get_state())
    a.partial_fit(Xin[50:], y[50:])
    b.partial_fit(Xin[50:], y[50:])
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)
    assert set(a.get_state()) >= {"coef", "intercept_weight", "average_sum", "average_counts"}
    with pytest.raises(ValueError, match="built for"):
        PARegressor(variant="II").set_state(a.get_state())
    with pytest.raises(ValueError, match="fit_intercept"):
        a.set_params(fit_intercept=False).predict(Xin)


def test_weight_zero_is_absence_and_a_weight_prices_the_slack():
    Xin, _, y = stream(4, False)
    w = np.ones(90)
    w[::3] = 0.0
    a = PARegressor(variant="I", C=0.05, shuffle=False).fit(Xin, y, sample_weight=w)
    b = PARegressor(variant="I", C=0.05, shuffle=False).fit(Xin[w > 0], y[w > 0])
    assert np.array_equal(a.coef_, b.coef_) and a.t_ == b.t_
    c = PARegressor(variant="I", C=0.05, epochs=1).partial_fit(Xin[:1], y[:1], sample_weight=[2])
    d = PARegressor(variant="I", C=0.1, epochs=1).partial_fit(Xin[:1], y[:1])
    assert np.array_equal(c.coef_, d.coef_)  # C_i = s C


def test_tol_and_early_stopping_stop_and_say_so():
    Xin, _, y = stream(5, False, n=300)
    reg = PARegressor(variant="I", C=0.01, tol=1e-3, epochs=200, random_state=0).fit(Xin, y)
    assert 1 < reg.n_iter_ < 200
    held = PARegressor(variant="I", C=0.01, tol=1e-3, epochs=200, early_stopping=True,
                       random_state=0).fit(Xin, y)  # fmt: skip
    assert 1 < held.n_iter_ < 200 and held.t_ == held.n_iter_ * 270
    with pytest.warns(ConvergenceWarning):
        PARegressor(tol=-1.0, epochs=3, random_state=0).fit(Xin, y)


def test_coef_init_and_warm_start():
    Xin, _, y = stream(6, False)
    start = np.arange(6.0)
    reg = PARegressor(epochs=1, shuffle=False).fit(Xin[:1] * 0, y[:1] * 0, coef_init=start)
    assert np.array_equal(reg.coef_, start)  # zero rows: passive
    warm = PARegressor(variant="I", warm_start=True, shuffle=False, epochs=1).fit(Xin, y)
    once = warm.coef_.copy()
    warm.fit(Xin, y)
    two = PARegressor(variant="I", shuffle=False, epochs=2).fit(Xin, y)
    assert np.array_equal(warm.coef_, two.coef_) and not np.array_equal(once, two.coef_)
