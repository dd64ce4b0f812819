"""Weighted olearn against scikit-learn's weighted PA and Perceptron, under the migration
mapping (no intercept, no shuffling, ``tol=None``, ``C_olearn = C_sklearn / 2``):

- ``weight_scales="step"``: ``PAClassifier`` and ``SPAClassifier`` (for two classes SPA is
  PA) equal ``SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1"|"pa2")`` with
  ``sample_weight`` and ``PassiveAggressiveClassifier`` with ``class_weight`` (its ``fit``
  takes no ``sample_weight``), dense and sparse, one and three epochs, bit for bit for PA
  (1e-14 relative for SPA-II, whose support-class form rounds differently);
- the default ``weight_scales="C"`` does not (C_i = s C is another rule where the cap or the
  PA-II term binds): the option is needed;
- the Perceptron's weighted step is ``+-s x`` already: with scikit-learn's ``eta0=2`` (olearn's
  binary ``coef_`` is ``w_1 - w_0``, two rows moving by ``s x``) the weights are equal.

Binary only: with more classes scikit-learn trains one-vs-rest (and weighs each binary
problem's positive class only), olearn's rule is multiclass; the two are different algorithms
(docs/migrating-from-sklearn.md, *Weights*).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn import linear_model
from sklearn.linear_model import Perceptron, SGDClassifier

from olearn.estimators import PAClassifier, PerceptronClassifier, SPAClassifier

LR = {"I": "pa1", "II": "pa2"}


def binary_data(seed: int, sparse: bool):
    rng = np.random.default_rng(seed)
    n, d = 300, 20
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.3 if sparse else 1.0))
    y = np.where(X @ rng.normal(size=d) + 0.5 * rng.normal(size=n) > 0, "pos", "neg")
    weights = rng.choice([0.0, 0.3, 1.0, 1.9], size=n)  # <= 2: PA-II's range (engine)
    return (sp.csr_matrix(X) if sparse else X), y, weights


def assert_same(ours, ref, rtol):
    scale = np.abs(ref.coef_).max()
    assert scale > 0 and ours.coef_.shape == ref.coef_.shape
    assert np.abs(ours.coef_ - ref.coef_).max() <= rtol * scale


@pytest.mark.parametrize("cls", [PAClassifier, SPAClassifier])
@pytest.mark.parametrize("variant", ["I", "II"])
@pytest.mark.parametrize("C_sklearn", [0.02, 1.0])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
def test_sample_weight_scales_the_step_as_sgd_pa(cls, variant, C_sklearn, sparse, epochs):
    X, y, w = binary_data(epochs + 10 * sparse, sparse)
    ref = SGDClassifier(loss="hinge", penalty=None, learning_rate=LR[variant], eta0=C_sklearn,
                        fit_intercept=False, shuffle=False, tol=None, max_iter=epochs)  # fmt: skip
    ref.fit(X, y, sample_weight=w)
    ours = cls(variant=variant, C=C_sklearn / 2, weight_scales="step", epochs=epochs,
               shuffle=False).fit(X, y, sample_weight=w)  # fmt: skip
    exact = cls is PAClassifier or variant == "I"
    assert_same(ours, ref, 0.0 if exact else 1e-14)
    default = cls(variant=variant, C=C_sklearn / 2, epochs=epochs, shuffle=False)
    default.fit(X, y, sample_weight=w)
    assert np.abs(default.coef_ - ref.coef_).max() > 1e-3 * np.abs(ref.coef_).max()


@pytest.mark.skipif(
    not hasattr(linear_model, "PassiveAggressiveClassifier"),
    reason=f"scikit-learn {sklearn.__version__} has no PassiveAggressiveClassifier",
)
@pytest.mark.parametrize("variant", ["I", "II"])
@pytest.mark.parametrize("sparse", [False, True])
def test_class_weight_scales_the_step_as_passive_aggressive(variant, sparse):
    X, y, _ = binary_data(5, sparse)
    class_weight = {"pos": 1.7, "neg": 0.4}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # deprecated in 1.8
        ref = linear_model.PassiveAggressiveClassifier(
            C=0.5, loss="hinge" if variant == "I" else "squared_hinge", fit_intercept=False,
            shuffle=False, tol=None, max_iter=3, class_weight=class_weight,
        ).fit(X, y)  # fmt: skip
    ours = PAClassifier(variant=variant, C=0.25, weight_scales="step", epochs=3, shuffle=False,
                        class_weight=class_weight).fit(X, y)  # fmt: skip
    assert_same(ours, ref, 0.0)
    assert np.array_equal(ours.predict(X), ref.predict(X))


@pytest.mark.parametrize("sparse", [False, True])
def test_the_perceptrons_weighted_step_is_scikit_learns(sparse):
    X, y, w = binary_data(9, sparse)
    w = np.where(w > 0, w * 3.0, 0.0)  # any size: the Perceptron's step is +-s x
    ref = Perceptron(eta0=2.0, fit_intercept=False, shuffle=False, tol=None, max_iter=3)
    ref.fit(X, y, sample_weight=w)
    ours = PerceptronClassifier(epochs=3, shuffle=False).fit(X, y, sample_weight=w)
    assert_same(ours, ref, 0.0)
