"""CWClassifier / AROWClassifier / SCWClassifier: the scikit-learn contract and the link to the
readable rules (partial_fit = one rule step per sample, in order)."""

import numpy as np
import pytest
import scipy.sparse as sp
from sample_weight_xfails import weight_check_failures
from sklearn.utils.estimator_checks import parametrize_with_checks

from olearn.core.cw import CWState, arow_step, cw_step, scw_step
from olearn.estimators import AROWClassifier, CWClassifier, PAClassifier, SCWClassifier


def all_estimators(**kw):
    return [
        CWClassifier(**kw),
        AROWClassifier(**kw),
        SCWClassifier(variant="I", **kw),
        SCWClassifier(variant="II", **kw),
    ]


def _expected_failures(estimator):
    failures = weight_check_failures(estimator)
    if getattr(estimator, "probability", False):
        failures["check_decision_proba_consistency"] = (
            "the Gaussian's probability depends on "
            "x'Sigma x, so it is not a monotone function of the mean score (opt-in, as SVC's)"
        )
    return failures


# The registry-wide test (tests/test_sklearn_checks.py) covers the four diagonal defaults;
# here the three classes with the full covariance, and predict_proba switched on.
@parametrize_with_checks(
    [
        CWClassifier(covariance="full", fit_intercept=True, random_state=0),
        AROWClassifier(covariance="full", probability=True, random_state=0),
        SCWClassifier(variant="II", covariance="full", random_state=0),
        SCWClassifier(variant="I", probability=True, random_state=0),
    ],
    expected_failed_checks=_expected_failures,
)
def test_sklearn_compatible_full_and_probability(estimator, check):
    check(estimator)


STEPS = {
    CWClassifier: lambda e: (
        lambda s, x, y: cw_step(s, x, y, eta=e.eta, form=e.form, diagonal_form=e.diagonal_form)
    ),
    AROWClassifier: lambda e: (
        lambda s, x, y: arow_step(s, x, y, r=e.r, diagonal_form=e.diagonal_form)
    ),
    SCWClassifier: lambda e: (
        lambda s, x, y: scw_step(
            s, x, y, e.variant, C=e.C, eta=e.eta, diagonal_form=e.diagonal_form
        )
    ),
}


def data(seed=0, n=120, d=6, K=3, sparse=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.6)
    y = (X @ rng.normal(size=(d, K)) + 0.3 * rng.normal(size=(n, K))).argmax(axis=1)
    labels = np.array(["a", "b", "c", "d"])[y]
    return (sp.csr_matrix(X) if sparse else X), X, labels, y


@pytest.mark.parametrize(
    "make",
    [
        lambda **k: CWClassifier(eta=0.8, **k),
        lambda **k: CWClassifier(form="variance", **k),
        lambda **k: AROWClassifier(r=0.3, **k),
        lambda **k: SCWClassifier(variant="I", C=0.2, **k),
        lambda **k: SCWClassifier(variant="II", C=0.2, **k),
    ],
)
@pytest.mark.parametrize(
    "covariance,diagonal_form",
    [("diagonal", "precision"), ("diagonal", "truncated"), ("full", "precision")],
)
@pytest.mark.parametrize("K", [2, 3])
def test_partial_fit_is_one_rule_step_per_sample(make, covariance, diagonal_form, K):
    Xin, X, labels, y = data(K=K, sparse=covariance == "diagonal")
    est = make(covariance=covariance, diagonal_form=diagonal_form, fit_intercept=True)
    est.partial_fit(Xin[:50], labels[:50], classes=np.unique(labels))
    est.partial_fit(Xin[50:], labels[50:])
    step = STEPS[type(est)](est)
    Xa = np.hstack([X, np.ones((len(y), 1))])
    D = Xa.shape[1]
    state = CWState(np.zeros((K, D)), np.eye(D) if covariance == "full" else np.ones(D))
    for x, label in zip(Xa, y):
        state, _ = step(state, x, int(label))
    public = est.get_state()  # per-class rows, also for K = 2
    assert np.allclose(public["coef"], state.mu[:, :-1], rtol=1e-9, atol=1e-12)
    assert np.allclose(public["intercept_weight"], state.mu[:, -1], rtol=1e-9, atol=1e-12)
    assert np.allclose(est.covariance_, state.Sigma, rtol=1e-9, atol=1e-14)
    assert est.coef_.shape == (1 if K == 2 else K, X.shape[1])  # scikit-learn's convention
    assert est.t_ == len(y) and est.n_updates_ > 10


def test_fit_one_ordered_epoch_equals_partial_fit_and_learn_stream():
    Xin, X, labels, y = data(sparse=True)
    a = SCWClassifier(C=0.5, epochs=1, shuffle=False).fit(Xin, labels)
    declared = {"classes": np.unique(labels)}  # as fit: every class there from the start
    b = SCWClassifier(C=0.5).partial_fit(Xin, labels, **declared)
    c = SCWClassifier(C=0.5)
    mistakes = c.learn_stream(Xin, labels, **declared)
    for other in (b, c):
        assert np.array_equal(a.coef_, other.coef_)
        assert np.array_equal(a.covariance_, other.covariance_)
    assert mistakes.shape == (len(y),) and mistakes.dtype == bool
    assert 0 < mistakes.sum() < len(y)
    assert mistakes[0] == (labels[0] != c.classes_[0])  # all-zero model: ties go to classes_[0]


def test_fit_is_deterministic_and_accurate():
    Xin, X, labels, y = data(seed=3, n=400)
    for est in all_estimators(random_state=4):
        first = est.fit(Xin, labels).coef_.copy()
        assert np.array_equal(first, est.fit(Xin, labels).coef_)
        assert est.score(Xin, labels) > 0.8


@pytest.mark.parametrize("K", [2, 4])
@pytest.mark.parametrize("covariance", ["diagonal", "full"])
def test_predict_proba_is_the_gaussian_win_probability(K, covariance):
    """Monte Carlo: draw W ~ N(M, I (x) Sigma) and count which class scores highest."""
    Xin, X, labels, y = data(seed=1, n=60, K=K)
    est = AROWClassifier(
        r=5.0, covariance=covariance, probability=True, a=4.0, epochs=1, fit_intercept=True
    )
    est.fit(X, labels)
    proba = est.predict_proba(X[:5])
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert np.array_equal(est.classes_[proba.argmax(axis=1)], est.predict(X[:5]))
    rng = np.random.default_rng(0)
    Sigma = est.covariance_ if covariance == "full" else np.diag(est.covariance_)
    L = np.linalg.cholesky(Sigma)
    public = est.get_state()  # per-class means (coef_ is mu_1 - mu_0 for K = 2)
    M = np.hstack([public["coef"], public["intercept_weight"][:, None]])  # (K, d+1)
    draws = 100_000
    for i in range(5):
        xa = np.append(X[i], 1.0)
        # every class row is independent N(mu_k, Sigma): scores N(mu_k.x, x'Sigma x)
        noise = rng.normal(size=(draws, K, Sigma.shape[0])) @ L.T
        scores = (M[None] + noise) @ xa
        freq = np.bincount(scores.argmax(axis=1), minlength=K) / draws
        assert np.allclose(proba[i], freq, atol=0.006)
    assert 0.02 < proba.max(axis=1).min() and proba.min() < 0.98  # non-trivial probabilities


def test_predict_proba_is_opt_in():
    Xin, X, labels, y = data()
    assert not hasattr(CWClassifier().fit(X, labels), "predict_proba")
    assert not hasattr(PAClassifier(), "predict_proba")


@pytest.mark.parametrize(
    "est, message",
    [
        (CWClassifier(eta=1.0), "eta"),
        (CWClassifier(eta=0.5), "eta"),
        (CWClassifier(form="linear"), "form"),
        (AROWClassifier(r=0.0), "'r' parameter"),
        (SCWClassifier(C=-1.0), "'C' parameter"),
        (SCWClassifier(variant="III"), "variant"),
        (SCWClassifier(covariance="dense"), "covariance"),
        (AROWClassifier(diagonal_form="exact"), "diagonal_form"),
        (AROWClassifier(a=0.0), "'a' parameter"),
    ],
)
def test_bad_hyper_parameters_raise(est, message):
    Xin, X, labels, y = data()
    with pytest.raises(ValueError, match=message):
        est.fit(X, labels)


def test_full_covariance_refuses_large_dimension():
    X = sp.random(5, 2001, density=0.01, format="csr", random_state=0)
    with pytest.raises(ValueError, match="2000"):
        AROWClassifier(covariance="full").fit(X, [0, 1, 0, 1, 1])
    AROWClassifier(covariance="diagonal").fit(X, [0, 1, 0, 1, 1])  # diagonal is fine
