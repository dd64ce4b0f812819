"""SGDSVMClassifier as a scikit-learn estimator: partial_fit continues the schedule, one-vs-rest
is K independent binary SVMs, binary output shapes follow scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olearn.estimators import SGDSVMClassifier


def blobs(seed=0, K=3, n=120, d=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(K, size=n)
    X = rng.normal(size=(n, d)) + 2.0 * np.eye(K, d)[y]
    return X, y


@pytest.mark.parametrize(
    "schedule,regularize", [("global", "all"), ("per-feature", "touched"), ("per-feature", "all")]
)
def test_partial_fit_continues_the_schedule(schedule, regularize):
    X, y = blobs()
    yb = np.where(y == 0, "a", "b")
    kw = dict(lam=0.01, t0=5.0, schedule=schedule, regularize=regularize, shuffle=False)
    full = SGDSVMClassifier(epochs=3, **kw).fit(X, yb)
    part = SGDSVMClassifier(**kw)
    for _ in range(3):
        part.partial_fit(sp.csr_matrix(X), yb)
    assert part.t_ == full.t_ == 3 * X.shape[0]
    assert np.allclose(part.coef_, full.coef_, rtol=1e-12, atol=1e-14)
    assert np.allclose(part.intercept_, full.intercept_)


def test_one_vs_rest_is_k_binary_svms():
    X, y = blobs(1, K=4)
    kw = dict(lam=0.01, schedule="per-feature", epochs=2, random_state=3)
    multi = SGDSVMClassifier(**kw).fit(X, y)
    assert multi.coef_.shape == (4, X.shape[1]) and multi.intercept_.shape == (4,)
    for k in range(4):
        binary = SGDSVMClassifier(**kw).fit(X, np.where(y == k, 1, 0))
        assert np.allclose(multi.coef_[k], binary.coef_[0])
        assert multi.intercept_[k] == pytest.approx(binary.intercept_[0])
    scores = multi.decision_function(X)
    assert np.array_equal(multi.predict(X), multi.classes_[np.argmax(scores, axis=1)])
    assert multi.score(X, y) > 0.6  # chance is 0.25


def test_binary_shapes_and_sign_convention():
    X, y = blobs(2, K=2)
    labels = np.array(["neg", "pos"])[y]
    clf = SGDSVMClassifier(lam=0.01, random_state=0).fit(X, labels)
    f = clf.decision_function(X)
    assert clf.coef_.shape == (1, X.shape[1]) and f.shape == (X.shape[0],)
    assert np.allclose(f, X @ clf.coef_[0] + clf.intercept_[0])
    assert np.array_equal(clf.predict(X), np.where(f > 0, "pos", "neg"))
    assert clf.counts_.shape == clf.coef_.shape
    assert np.array_equal(clf.counts_[0], clf.epochs * (X != 0).sum(axis=0))


def test_bad_input_raises():
    X, y = blobs()
    with pytest.raises(ValueError):
        SGDSVMClassifier(lam=-1.0).fit(X, y)
    with pytest.raises(ValueError):
        SGDSVMClassifier(schedule="adaptive").fit(X, y)
    with pytest.raises(ValueError):
        SGDSVMClassifier().fit(X, np.zeros(len(y)))
    Xn = X.copy()
    Xn[0, 0] = np.inf
    with pytest.raises(ValueError):
        SGDSVMClassifier().fit(Xn, y)
