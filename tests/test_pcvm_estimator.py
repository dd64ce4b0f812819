"""PCVMClassifier at the scikit-learn boundary: probabilities, sparse input, bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import ndtr
from sklearn.datasets import load_iris
from sklearn.multiclass import OneVsRestClassifier

from olearn.core._pcvm_basis import basis
from olearn.estimators import PCVMClassifier


def _docs(seed=0, n=60, M=80):
    """Binary presence 'documents': each class favours its own half of the vocabulary."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n // 2), -np.ones(n // 2)]
    p = np.where(np.arange(M) < M // 2, 0.15, 0.03)
    P = np.where(y[:, None] > 0, p[None, :], p[::-1][None, :])
    X = (rng.random((n, M)) < P).astype(float)
    X[:, 0] = 1.0  # no empty rows
    return X, y


def test_predict_proba_is_the_probit_of_the_decision_function():
    X, y = _docs()
    clf = PCVMClassifier(lam=1000.0, random_state=0).fit(X, y)
    d = clf.decision_function(X)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P[:, 1], ndtr(np.sqrt(clf.gamma_) * d), rtol=1e-12)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.exp(clf.predict_log_proba(X)), P, rtol=1e-10)
    assert np.array_equal(clf.predict(X), clf.classes_[(P[:, 1] > 0.5).astype(int)])
    # y(x) = sum_j w_j phi_j(x) + b over the relevance vectors
    manual = basis(X, X[clf.relevance_indices_]) @ clf.dual_coef_ + clf.intercept_
    np.testing.assert_allclose(d, manual, rtol=1e-12)
    assert np.all(np.sign(clf.dual_coef_) == y[clf.relevance_indices_])  # Eq. (11)


@pytest.mark.parametrize("kernel", ["cosine", "linear", "rbf"])
def test_sparse_and_dense_input_agree(kernel):
    X, y = _docs(1)
    params = dict(kernel=kernel, theta=0.3, lam=500.0, random_state=0)
    dense = PCVMClassifier(**params).fit(X, y)
    csr = PCVMClassifier(**params).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(dense.relevance_indices_, csr.relevance_indices_)
    np.testing.assert_allclose(dense.dual_coef_, csr.dual_coef_, rtol=1e-9)
    np.testing.assert_allclose(
        dense.decision_function(X), csr.decision_function(sp.csr_matrix(X)), rtol=1e-9
    )


def test_fixed_gamma_stays_and_history_is_consistent():
    X, y = _docs(2)
    clf = PCVMClassifier(gamma=1.0, random_state=0).fit(X, y)
    assert clf.gamma_ == 1.0 and all(h["gamma"] == 1.0 for h in clf.history_)
    assert clf.n_iter_ == len(clf.history_)
    counts = [h["n_nonzero"] for h in clf.history_]
    assert counts[-1] == clf.dual_coef_.size and np.all(np.diff(counts) <= 0)
    learned = PCVMClassifier(lam=1000.0, random_state=0).fit(X, y)
    assert 0 < learned.gamma_ <= np.sqrt(len(y) / (2 * 1000.0))  # derived Eq. (20) bound


def test_printed_gamma_rule_overshoots_the_derived_bound():
    X, y = _docs(3)
    lam = 1000.0
    printed = PCVMClassifier(lam=lam, gamma_rule="printed", random_state=0).fit(X, y)
    assert printed.gamma_ > np.sqrt(len(y) / (2 * lam))


def test_zero_rows_with_the_cosine_kernel_are_harmless():
    X, y = _docs(4)
    X[3] = 0.0
    clf = PCVMClassifier(random_state=0).fit(X, y)
    assert 3 not in clf.relevance_indices_  # phi_3 is identically 0
    assert clf.decision_function(np.zeros((1, X.shape[1])))[0] == clf.intercept_


def test_multiclass_needs_a_wrapper():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="Only binary classification"):
        PCVMClassifier().fit(X, y)
    ovr = OneVsRestClassifier(PCVMClassifier(kernel="rbf", theta=0.5, random_state=0))
    assert ovr.fit(X, y).score(X, y) > 0.9


@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "poly"},
        {"kernel": "rbf", "theta": 0.0},
        {"lam": -1.0},
        {"lam": np.inf},
        {"gamma": 0.0},
        {"c": -0.5},
        {"d": -1.0},
        {"max_iter": 0},
        {"prune_tol": -0.1},
        {"prune_tol": 2.0},  # pruned every weight (an empty model) before the constraint
        {"prune_tol": 1.0},
        {"kernel": "poly"},
        {"rescale": "no"},
        {"gamma_rule": "typo"},
    ],
)
def test_bad_hyper_parameters_raise(params):
    X, y = _docs()
    with pytest.raises(ValueError):
        PCVMClassifier(**params).fit(X, y)


def test_bad_data_raises():
    X, y = _docs()
    with pytest.raises(ValueError, match="class"):
        PCVMClassifier().fit(X, np.ones_like(y))
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError):
        PCVMClassifier().fit(Xn, y)
    clf = PCVMClassifier(random_state=0).fit(X, y)
    with pytest.raises(ValueError):
        clf.predict(X[:, :5])
