"""olearn's PAClassifier against scikit-learn's own PassiveAggressiveClassifier (deprecated in
1.8, present until 1.10) on binary data: the same weights under ``C_olearn = C_sklearn / 2``.

Derivation.  scikit-learn's binary PA keeps one vector ``w``, loss ``l = max(0, 1 - y w.x)``
(``y = +-1``, ``+1`` for ``classes_[1]``), and steps ``w += tau y x`` with PA-I
``tau = min(C_s, l / ||x||^2)``, PA-II ``tau = l / (||x||^2 + 1 / (2 C_s))``.  olearn's
two-class PA moves ``w_y += t x`` and ``w_rival -= t x`` with PA-I ``t = min(C, l / 2||x||^2)``,
PA-II ``t = l / (2||x||^2 + 1 / (2C))``, where ``l`` is the hinge on ``(w_y - w_rival).x``.
Its ``coef_`` is ``v = w_1 - w_0``, so ``l`` is scikit-learn's loss on ``v`` and ``v`` moves by
``2 t y x`` with ``2t = min(2C, l / ||x||^2)`` (PA-I) and ``2t = l / (||x||^2 + 1 / (4C))``
(PA-II): both equal scikit-learn's step exactly when ``C_s = 2 C``.  The factors of 2 are
powers of two, so the equality holds in floating point too (bit for bit on these data; the
test asks 1e-10).  ``C_s = 2C`` is also the seed paper's printed C
(:func:`olearn.core.pa.seed_tau`).
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn

from olearn.estimators import PAClassifier

linear_model = pytest.importorskip("sklearn.linear_model")
if not hasattr(linear_model, "PassiveAggressiveClassifier"):  # pragma: no cover - sklearn >= 1.10
    pytest.skip(
        f"scikit-learn {sklearn.__version__} has no PassiveAggressiveClassifier",
        allow_module_level=True,
    )

LOSS = {"I": "hinge", "II": "squared_hinge"}


def sklearn_pa(C, variant, epochs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # deprecated in 1.8
        return linear_model.PassiveAggressiveClassifier(
            C=C, loss=LOSS[variant], fit_intercept=False, max_iter=epochs, shuffle=False,
            tol=None,
        )  # fmt: skip


def binary_data(seed, sparse):
    rng = np.random.default_rng(seed)
    n, d = 300, 20
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.3 if sparse else 1.0))
    y = np.where(X @ rng.normal(size=d) + 0.5 * rng.normal(size=n) > 0, "pos", "neg")
    return (sp.csr_matrix(X) if sparse else X), y


@pytest.mark.parametrize("variant", ["I", "II"])
@pytest.mark.parametrize("C_sklearn", [0.01, 0.3, 1.0, 50.0])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("epochs", [1, 3])
def test_same_weights_with_half_the_C(variant, C_sklearn, sparse, epochs):
    X, y = binary_data(int(C_sklearn * 100) + epochs, sparse)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        ref = sklearn_pa(C_sklearn, variant, epochs).fit(X, y)
    ours = PAClassifier(variant=variant, C=C_sklearn / 2, epochs=epochs, shuffle=False).fit(X, y)
    assert ours.coef_.shape == ref.coef_.shape == (1, X.shape[1])
    assert np.array_equal(ours.classes_, ref.classes_)
    scale = np.abs(ref.coef_).max()
    assert scale > 0 and np.abs(ours.coef_ - ref.coef_).max() <= 1e-10 * scale
    assert np.array_equal(ours.predict(X), ref.predict(X))
    # the mapping matters: with the same C (not halved) the weights differ where C binds
    same_C = PAClassifier(variant=variant, C=C_sklearn, epochs=epochs, shuffle=False).fit(X, y)
    if variant == "II" or C_sklearn <= 0.01:  # PA-I: only where C binds
        assert np.abs(same_C.coef_ - ref.coef_).max() > 1e-6 * scale


def test_partial_fit_per_sample_matches_too():
    X, y = binary_data(7, sparse=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        ref = sklearn_pa(0.2, "I", 1)
        ours = PAClassifier(variant="I", C=0.1)
        for i in range(40):
            ref.partial_fit(X[i : i + 1], y[i : i + 1], classes=np.unique(y))
            ours.partial_fit(X[i : i + 1], y[i : i + 1], classes=np.unique(y))
            assert np.abs(ours.coef_ - ref.coef_).max() <= 1e-10 * max(np.abs(ref.coef_).max(), 1)
