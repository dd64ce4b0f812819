"""The estimator contract of the PA / SPA family (beyond scikit-learn's generic checks)."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_digits

from olearn.core.spa import spa_step
from olearn.estimators import PAClassifier, PerceptronClassifier, SPAClassifier

ESTIMATORS = [PerceptronClassifier, PAClassifier, SPAClassifier]


@pytest.fixture(scope="module")
def digits():
    X, y = load_digits(return_X_y=True)
    return X / 16.0, y


def test_partial_fit_is_one_readable_step_per_sample_in_order(digits):
    X, y = digits
    X, y = X[:200], y[:200]
    clf = SPAClassifier(variant="I", C=0.5, fit_intercept=True)
    clf.partial_fit(X, y, classes=np.arange(10))
    W = np.zeros((10, X.shape[1] + 1))
    for x, label in zip(np.hstack([X, np.ones((len(X), 1))]), y):  # intercept = feature 1
        W, _ = spa_step(W, x, label, "I", 0.5)
    assert np.allclose(clf.coef_, W[:, :-1], rtol=1e-9, atol=1e-12)
    assert np.allclose(clf.intercept_, W[:, -1], rtol=1e-9, atol=1e-12)
    assert clf.t_ == 200


def test_partial_fit_in_batches_equals_one_call(digits):
    X, y = digits[0][:300], digits[1][:300]
    a = SPAClassifier(variant="II", C=0.1).partial_fit(X, y, classes=np.arange(10))
    b = SPAClassifier(variant="II", C=0.1)
    for start in range(0, 300, 37):
        b.partial_fit(X[start : start + 37], y[start : start + 37], classes=np.arange(10))
    assert np.array_equal(a.coef_, b.coef_)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_dense_and_sparse_give_identical_models(cls, digits):
    X, y = digits
    a = cls(random_state=3).fit(X, y)
    b = cls(random_state=3).fit(sp.csr_matrix(X), y)
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)


def test_binary_gives_sklearn_coef_and_decision(digits):
    X, y = digits
    mask = y < 2
    clf = SPAClassifier(random_state=0).fit(X[mask], np.where(y[mask] == 1, "one", "zero"))
    rows = clf.get_state()["coef"]  # the per-class rows stay in the state
    assert rows.shape == (2, 64) and clf.coef_.shape == (1, 64)
    assert np.array_equal(clf.coef_[0], rows[1] - rows[0])
    d = clf.decision_function(X[mask])
    assert d.shape == (mask.sum(),)
    assert np.array_equal(clf.predict(X[mask]), np.where(d > 0, clf.classes_[1], clf.classes_[0]))


def test_intercept_enters_the_norm():
    # one sample, two classes: with the constant feature, ||x||^2 = 1 + 1 so tau = 1 / (2 * 2)
    clf = PAClassifier(fit_intercept=True).partial_fit([[1.0]], [0], classes=[0, 1])
    state = clf.get_state()  # per-class rows; coef_ / intercept_ are w_1 - w_0, b_1 - b_0
    assert np.allclose(state["coef"][:, 0], [0.25, -0.25])
    assert np.allclose(state["intercept_weight"], [0.25, -0.25])
    assert np.allclose(clf.coef_, [[-0.5]]) and np.allclose(clf.intercept_, [-0.5])
    no_b = PAClassifier().partial_fit([[1.0]], [0], classes=[0, 1])  # the default: none
    assert np.allclose(no_b.get_state()["coef"][:, 0], [0.5, -0.5])
    assert np.array_equal(no_b.intercept_, [0.0])
    # intercept_scaling s: the column is s, so ||x||^2 = 1 + s^2 and intercept_ = s * weight
    s = 0.5
    scaled = PAClassifier(fit_intercept=True, intercept_scaling=s)
    scaled.partial_fit([[1.0]], [0], classes=[0, 1])
    tau = 1.0 / (2 * (1 + s * s))
    assert np.allclose(scaled.get_state()["coef"][:, 0], [tau, -tau])
    assert np.allclose(scaled.intercept_, [-2 * s * s * tau])  # s * (b_1 - b_0)


def test_labels_of_any_hashable_type_and_unseen_classes(digits):
    X, y = digits
    names = np.array(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
        dtype=object,
    )
    clf = SPAClassifier(random_state=0).partial_fit(X[:50], names[y[:50]], classes=names)
    assert set(clf.predict(X[50:60])) <= set(names)
    # a class listed but never seen keeps zero weights until it appears
    clf = SPAClassifier().partial_fit(X[y < 3][:20], y[y < 3][:20], classes=[0, 1, 2, 99])
    assert not clf.coef_[3].any() or clf.coef_[3].max() <= 0  # only ever pushed down as a rival


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_bad_input_gets_a_clear_value_error(cls, digits):
    X, y = digits
    with pytest.raises(ValueError, match="NaN"):
        cls().fit(np.where(np.eye(len(X), 64, dtype=bool), np.nan, X), y)
    with pytest.raises(ValueError, match="infinity|inf"):
        cls().fit(np.where(np.eye(len(X), 64, dtype=bool), np.inf, X), y)
    with pytest.raises(ValueError, match="0 sample"):
        cls().fit(np.zeros((0, 64)), [])
    with pytest.raises(ValueError, match="1 class"):
        cls().fit(X[:5], np.zeros(5))
    clf = cls().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :10])
    clf.partial_fit(X[:3], [0, 1, 42])  # a new label joins mid-stream (no error)
    assert clf.classes_.tolist() == [*range(10), 42]
    with pytest.raises(ValueError, match="'C' parameter .* positive finite"):
        PAClassifier(C=-1).fit(X, y)
    with pytest.raises(ValueError, match="variant"):
        SPAClassifier(variant="III").fit(X, y)
    with pytest.raises(ValueError, match="epochs"):
        cls(epochs=0).fit(X, y)


def test_zero_rows_are_passive(digits):
    X, y = digits
    clf = SPAClassifier(fit_intercept=False)
    clf.partial_fit(np.zeros((5, 64)), y[:5], classes=range(10))
    assert clf.n_updates_ == 0 and not clf.coef_.any()


def test_fit_is_deterministic_and_seeded(digits):
    X, y = digits
    a = SPAClassifier(random_state=0).fit(X, y).coef_.copy()
    b = SPAClassifier(random_state=0).fit(X, y).coef_
    c = SPAClassifier(random_state=1).fit(X, y).coef_
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_learn_stream_equals_predict_then_learn(digits):
    X, y = digits
    X, y = X[:150], y[:150]
    mistakes = SPAClassifier().learn_stream(X, y, classes=np.arange(10))
    ref = SPAClassifier().partial_fit(X[:1], y[:1], classes=np.arange(10))
    expected = [y[0] != 0]  # all-zero weights tie, and ties go to the lowest index: class 0
    for i in range(1, len(y)):
        expected.append(ref.predict(X[i : i + 1])[0] != y[i])
        ref.partial_fit(X[i : i + 1], y[i : i + 1])
    assert np.array_equal(mistakes, expected)


def test_pa_failure_instance_is_what_the_seed_claims():
    """A constructed state where multiclass PA's step still misclassifies and SPA's does not
    (seed 000, section 2.3): scores (0, 2, 2) for classes (y, a, b) and ||x|| = 1.  PA moves
    y and a by tau = 3/2, so y scores 1.5 and b keeps 2; SPA moves both rivals."""
    from olearn.core.pa import pa_step

    W = np.array([[0.0], [2.0], [2.0]])
    x = np.array([1.0])
    W_pa, t_pa = pa_step(W, x, 0)
    assert np.allclose(W_pa @ x, [1.5, 0.5, 2.0]) and not t_pa.correct_after
    W_spa, t_spa = spa_step(W, x, 0)
    assert np.allclose(W_spa @ x, [2.0, 1.0, 1.0]) and t_spa.correct_after
