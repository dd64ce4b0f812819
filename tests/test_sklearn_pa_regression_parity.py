"""olearn's PARegressor against scikit-learn's PassiveAggressiveRegressor (deprecated in 1.8,
present until 1.10) and its replacement ``SGDRegressor(loss="epsilon_insensitive",
penalty=None, learning_rate="pa1" | "pa2", eta0=C)``, and scikit-learn's own regressor tests
(``sklearn/linear_model/tests/test_passive_aggressive.py``) adapted by the mapping of
docs/migrating-from-sklearn.md.

The mapping: ``variant="I"`` is ``loss="epsilon_insensitive"``, ``variant="II"`` is
``"squared_epsilon_insensitive"``, with the same ``C`` and ``epsilon`` (one vector moves in
both: scikit-learn steps ``w += sign(y - p) tau x`` with ``tau = min(C, l / ||x||^2)`` or
``l / (||x||^2 + 1/(2C))``, ``l = max(0, |y - p| - epsilon)``, the forms of
:mod:`olearn.core.pa_regression`).  Without an intercept, without shuffling and with
``tol=None`` the weights are equal bit for bit (scikit-learn sums ``w.x`` and ``||x||^2`` over
the row's stored entries in index order, as olearn's kernel does); the averaged weights to a
few ulps (scikit-learn averages by another recursion).  With an intercept the two differ:
scikit-learn's is left out of ``||x||^2`` (and damped on sparse input), olearn's is a constant
column inside it (LIBLINEAR's meaning, as for the classifiers).

Adapted from scikit-learn's suite (the exceptions, each a private attribute or a documented
difference): ``test_regressor_mse`` / ``test_regressor_partial_fit`` without their
``hasattr(reg, "_average_coef")``-style asserts (scikit-learn's private attributes);
``test_regressor_correctness`` with the reference's intercept as a column inside ``||x||^2``
(olearn's meaning) and without it; ``test_class_deprecation`` not applicable (olearn's class
is not deprecated); ``test_passive_aggressive_regressor_vs_sgd`` with ``fit_intercept=False``
(scikit-learn's intercept differs, above) and ``shuffle=False`` (the orders of two random
generators cannot agree).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.datasets import load_iris, make_regression
from sklearn.linear_model import SGDRegressor
from sklearn.utils import check_random_state

from olearn.estimators import PARegressor

linear_model = pytest.importorskip("sklearn.linear_model")
if not hasattr(linear_model, "PassiveAggressiveRegressor"):  # pragma: no cover - sklearn >= 1.10
    pytest.skip(
        f"scikit-learn {sklearn.__version__} has no PassiveAggressiveRegressor",
        allow_module_level=True,
    )

LOSS = {"I": "epsilon_insensitive", "II": "squared_epsilon_insensitive"}
VARIANT = {loss: variant for variant, loss in LOSS.items()}


def sklearn_pa(**params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # deprecated in 1.8
        return linear_model.PassiveAggressiveRegressor(**params)


def regression_data(seed, sparse, n=300, d=20):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.3 if sparse else 1.0))
    y = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    return (sp.csr_matrix(X) if sparse else X), y


@pytest.mark.parametrize("variant", ["I", "II"])
@pytest.mark.parametrize("C", [0.01, 0.3, 1.0, 50.0])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
def test_same_weights_bit_for_bit(variant, C, sparse, epochs):
    X, y = regression_data(int(C * 100) + epochs, sparse)
    ref = sklearn_pa(C=C, loss=LOSS[variant], epsilon=0.1, fit_intercept=False, max_iter=epochs,
                     shuffle=False, tol=None).fit(X, y)  # fmt: skip
    ours = PARegressor(variant=variant, C=C, epsilon=0.1, epochs=epochs, shuffle=False).fit(X, y)
    assert ours.coef_.shape == ref.coef_.shape == (X.shape[1],)
    assert np.array_equal(ours.coef_, ref.coef_) and np.abs(ref.coef_).max() > 0.5
    assert np.array_equal(ours.predict(X), ref.predict(X))
    # the mapping matters: another epsilon gives other weights
    other = PARegressor(variant=variant, C=C, epsilon=0.2, epochs=epochs, shuffle=False).fit(X, y)
    assert np.abs(other.coef_ - ref.coef_).max() > 1e-6


@pytest.mark.parametrize("average", [True, 10])
def test_averaged_weights_agree_to_a_few_ulps(average):
    X, y = regression_data(3, False)
    ref = sklearn_pa(C=0.1, fit_intercept=False, max_iter=3, shuffle=False, tol=None,
                     average=average).fit(X, y)  # fmt: skip
    ours = PARegressor(variant="I", C=0.1, epochs=3, shuffle=False, average=average).fit(X, y)
    raw = PARegressor(variant="I", C=0.1, epochs=3, shuffle=False).fit(X, y)
    scale = np.abs(ref.coef_).max()
    assert np.abs(ours.coef_ - ref.coef_).max() <= 1e-15 * max(scale, 1.0)
    assert np.abs(raw.coef_ - ref.coef_).max() > 1e-3 * scale  # averaging was on


def test_partial_fit_per_sample_matches_too():
    X, y = regression_data(7, False)
    ref = sklearn_pa(C=0.2, loss="squared_epsilon_insensitive", fit_intercept=False,
                     shuffle=False, tol=None)  # fmt: skip
    ours = PARegressor(variant="II", C=0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        for i in range(60):
            ref.partial_fit(X[i : i + 1], y[i : i + 1])
            ours.partial_fit(X[i : i + 1], y[i : i + 1])
            assert np.array_equal(ours.coef_, ref.coef_)


# --- scikit-learn's own regressor tests, adapted ---------------------------------------------

iris = load_iris()
_indices = np.arange(iris.data.shape[0])
check_random_state(12).shuffle(_indices)
X_IRIS, Y_IRIS = iris.data[_indices], iris.target[_indices]
CSR_CONTAINERS = [sp.csr_matrix, sp.csr_array]


def _y_bin():
    y_bin = Y_IRIS.astype(float).copy()
    y_bin[Y_IRIS != 1] = -1
    return y_bin


class ReferencePA:
    """scikit-learn's ``MyPassiveAggressive`` (regression half), with the intercept as a
    constant column of value 1 inside ``||x||^2`` (olearn's meaning) when asked."""

    def __init__(self, C=1.0, epsilon=0.1, loss="epsilon_insensitive", fit_intercept=True,
                 n_iter=1):  # fmt: skip
        self.C, self.epsilon, self.loss = C, epsilon, loss
        self.fit_intercept, self.n_iter = fit_intercept, n_iter

    def fit(self, X, y):
        X = X.toarray() if sp.issparse(X) else X
        if self.fit_intercept:
            X = np.hstack([X, np.ones((X.shape[0], 1))])
        self.w = np.zeros(X.shape[1])
        for _ in range(self.n_iter):
            for i in range(X.shape[0]):
                p = np.dot(X[i], self.w)
                loss = max(np.abs(p - y[i]) - self.epsilon, 0)
                sqnorm = np.dot(X[i], X[i])
                if self.loss == "epsilon_insensitive":
                    step = min(self.C, loss / sqnorm)
                else:
                    step = loss / (sqnorm + 1.0 / (2 * self.C))
                self.w += step * np.sign(y[i] - p) * X[i]
        return self


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("csr_container", [None, *CSR_CONTAINERS])
def test_regressor_mse(csr_container, fit_intercept, average):
    y_bin = _y_bin()
    data = csr_container(X_IRIS) if csr_container is not None else X_IRIS
    reg = PARegressor(variant="I", C=1.0, fit_intercept=fit_intercept, random_state=0,
                      average=average, epochs=5)  # fmt: skip
    reg.fit(data, y_bin)
    pred = reg.predict(data)
    assert np.mean((pred - y_bin) ** 2) < 1.7
    # (scikit-learn's hasattr(reg, "_average_coef") etc.: private attributes; olearn's
    # averaging state is public: get_state()["average_sum"])
    if average:
        assert "average_sum" in reg.get_state()


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("csr_container", [None, *CSR_CONTAINERS])
def test_regressor_partial_fit(csr_container, average):
    y_bin = _y_bin()
    data = csr_container(X_IRIS) if csr_container is not None else X_IRIS
    reg = PARegressor(variant="I", random_state=0, average=average)
    for _ in range(50):
        reg.partial_fit(data, y_bin)
    pred = reg.predict(data)
    assert np.mean((pred - y_bin) ** 2) < 1.7
    if average:
        assert "average_sum" in reg.get_state()


@pytest.mark.parametrize("csr_container", [None, *CSR_CONTAINERS])
@pytest.mark.parametrize("loss", ("epsilon_insensitive", "squared_epsilon_insensitive"))
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_regressor_correctness(loss, csr_container, fit_intercept):
    y_bin = _y_bin()
    data = csr_container(X_IRIS) if csr_container is not None else X_IRIS
    reg1 = ReferencePA(loss=loss, n_iter=4, fit_intercept=fit_intercept).fit(data, y_bin)
    reg2 = PARegressor(variant=VARIANT[loss], epochs=4, shuffle=False, tol=None,
                       fit_intercept=fit_intercept).fit(data, y_bin)  # fmt: skip
    ours = np.r_[reg2.coef_, reg2.intercept_] if fit_intercept else reg2.coef_
    np.testing.assert_allclose(reg1.w, ours)


def test_regressor_undefined_methods():
    reg = PARegressor(epochs=100)
    with pytest.raises(AttributeError):
        reg.transform(X_IRIS)


@pytest.mark.parametrize(["loss", "lr"], [("epsilon_insensitive", "pa1"),
                                          ("squared_epsilon_insensitive", "pa2")])  # fmt: skip
def test_passive_aggressive_regressor_vs_sgd(loss, lr):
    X, y = make_regression(n_samples=100, n_features=10, n_informative=5, random_state=1234)
    pa = PARegressor(variant=VARIANT[loss], epsilon=0.123, C=0.987, shuffle=False).fit(X, y)
    sgd = SGDRegressor(loss="epsilon_insensitive", epsilon=0.123, penalty=None, learning_rate=lr,
                       eta0=0.987, fit_intercept=False, shuffle=False, max_iter=5,
                       tol=None).fit(X, y)  # fmt: skip
    np.testing.assert_allclose(pa.predict(X), sgd.predict(X))
