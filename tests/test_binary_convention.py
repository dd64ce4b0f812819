"""One binary convention for every estimator (scikit-learn's): two classes give ``coef_`` of
shape (1, d) = ``w_1 - w_0`` and ``intercept_`` (1,), so that ``decision_function(X) ==
X @ coef_.T + intercept_`` whatever the number of classes; the per-class rows stay in
``get_state()["coef"]``.  Parametrised from the registry (PCVM, a kernel machine, has
``dual_coef_`` instead and is checked for its decision only)."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_selection import SelectFromModel

from olearn import registry

LINEAR = [k for k in registry.keys() if not registry.get(k).key.startswith("pcvm")]


def blobs(K: int, seed: int = 0, n: int = 80, d: int = 5):
    rng = np.random.default_rng(seed)
    centres = 2.0 * rng.normal(size=(K, d))
    y = rng.integers(0, K, n)
    y[:K] = np.arange(K)  # every class present
    return centres[y] + rng.normal(size=(n, d)), np.array(list("abcdefg"))[y]


def make(key, **kw):
    spec = registry.get(key)
    extra = {"epochs": 2} if "epochs" in spec.estimator_class().get_params() else {}
    return spec.make(fit_intercept=True, random_state=0, **extra, **kw)


@pytest.mark.parametrize("key", LINEAR)
@pytest.mark.parametrize("sparse", [False, True])
def test_two_classes_give_one_row_and_sklearn_decision(key, sparse):
    X, y = blobs(2)
    Xin = sp.csr_matrix(X) if sparse else X
    est = make(key).fit(Xin, y)
    assert est.coef_.shape == (1, X.shape[1]) and est.intercept_.shape == (1,)
    f = est.decision_function(Xin)
    assert f.shape == (X.shape[0],)
    assert np.allclose(f, X @ est.coef_.ravel() + est.intercept_[0], rtol=1e-12, atol=1e-12)
    assert np.array_equal(est.predict(Xin), np.where(f > 0, est.classes_[1], est.classes_[0]))
    # scikit-learn's tools read coef_: SelectFromModel keeps the largest |w_1 - w_0|
    kept = SelectFromModel(est, prefit=True, max_features=2, threshold=-np.inf).get_support()
    assert kept.sum() == 2 and np.all(
        np.abs(est.coef_[0][kept]).min() >= np.abs(est.coef_[0][~kept]).max()
    )


@pytest.mark.parametrize("key", LINEAR)
def test_more_classes_give_one_row_per_class(key):
    X, y = blobs(4)
    est = make(key).fit(X, y)
    assert est.coef_.shape == (4, X.shape[1]) and est.intercept_.shape == (4,)
    assert np.allclose(
        est.decision_function(X), X @ est.coef_.T + est.intercept_, rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("key", registry.keys(online=True))
def test_online_binary_coef_is_the_difference_of_the_state_rows(key):
    X, y = blobs(2, seed=3)
    est = make(key).fit(X, y)
    state = est.get_state()
    s = est.intercept_scaling
    assert state["coef"].shape == (2, X.shape[1])
    assert np.array_equal(est.coef_[0], state["coef"][1] - state["coef"][0])
    b = s * state["intercept_weight"]
    assert np.array_equal(est.intercept_, [b[1] - b[0]])
    # the same numbers after a pickle round trip; multiclass coef_ is a view again
    again = pickle.loads(pickle.dumps(est))
    assert np.array_equal(again.coef_, est.coef_)
    assert np.array_equal(again.intercept_, est.intercept_)
    multi = pickle.loads(pickle.dumps(make(key).fit(*blobs(3))))
    assert np.shares_memory(multi.coef_, multi.engine_.W)


def test_binary_coef_is_computed_not_assignable():
    from olearn.estimators import PAClassifier

    est = PAClassifier().fit(*blobs(2))
    before = est.coef_.copy()
    est.coef_[0, 0] += 1.0  # a computed array: writing to it does not change the model
    assert np.array_equal(est.coef_, before)
    with pytest.raises(AttributeError, match="set_state"):
        est.coef_ = np.zeros((1, 5))


def test_a_one_class_stream_still_has_its_single_row():
    from olearn.estimators import PAClassifier

    est = PAClassifier().partial_fit(np.eye(3), ["a", "a", "a"])
    assert est.coef_.shape == (1, 3) and not est.coef_.any()
    est.partial_fit(np.eye(3)[:1], ["b"])  # a second class joins: the difference row
    assert est.coef_.shape == (1, 3)
    rows = est.get_state()["coef"]
    assert np.array_equal(est.coef_[0], rows[1] - rows[0]) and est.coef_.any()
