"""``weight_scales="step"``: the estimators (through the engine and the additive numba kernel,
which takes the weights as ``StepWeights``) equal their readable rules run with the same
weights and ``weight_scales="step"``, step by step (the progressive mistakes) and in the
weights, dense and CSR, two and four classes, with and without the intercept column; for every
registry algorithm whose estimator has the parameter.  And the door's range: a step
proportional to the loss refuses weights that would overshoot the margin.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry

pytestmark = pytest.mark.kernel_equality

STEP_SCALED = [
    key
    for key in registry.keys(kernel="additive")
    if "weight_scales" in registry.get(key).estimator_class().get_params()
]


def test_the_pa_and_spa_families_have_the_option():
    assert {"pa", "pa1", "pa2", "pa-mistakes", "spa", "spa1", "spa2"} <= set(STEP_SCALED)
    assert "perceptron" not in STEP_SCALED  # its weighted step is +-s x in both meanings


def readable_run(key, X, y, K, w, column):
    spec = registry.get(key)
    Xa = np.hstack([X, np.full((len(y), 1), column)]) if column else X
    kwargs = spec.rule_kwargs(weight_scales="step")
    assert kwargs["weight_scales"] == "step"  # the rule takes it
    W = np.zeros((K, Xa.shape[1]))
    mistakes = []
    for x, label, s in zip(Xa, y, w):
        if s == 0:
            mistakes.append(False)
            continue
        mistakes.append(int(np.argmax(W @ x)) != label)
        W, _ = spec.step(W, x, int(label), weight=float(s), **kwargs)
    return W, np.array(mistakes)


@pytest.mark.filterwarnings("ignore:.*no price to scale:UserWarning")  # the default's hard rules
@pytest.mark.parametrize("key", STEP_SCALED)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("K", [2, 4])
@pytest.mark.parametrize("column", [0.0, 1.0])
def test_step_scaled_estimator_equals_step_scaled_rule(key, sparse, K, column):
    rng = np.random.default_rng(3)
    n, d = 90, 6
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.5 if sparse else 1.0))
    y = (X @ rng.normal(size=(d, K)) + 0.7 * rng.normal(size=(n, K))).argmax(axis=1)
    w = rng.choice([0.0, 0.2, 1.0, 1.8], size=n)  # <= 2: in every rule's range
    W_ref, mistakes_ref = readable_run(key, X, y, K, w, column)
    est = registry.get(key).make(fit_intercept=column > 0, weight_scales="step")
    Xin = sp.csr_matrix(X) if sparse else X
    mistakes = est.learn_stream(Xin, y, classes=np.arange(K), sample_weight=w)
    state = est.get_state()
    W = state["coef"]
    if column:
        W = np.hstack([W, column * state["intercept_weight"][:, None]])
    scale = max(1.0, np.abs(W_ref).max())
    assert np.allclose(W, W_ref, rtol=1e-9, atol=1e-9 * scale)
    assert np.array_equal(mistakes, mistakes_ref)
    assert est.n_updates_ > 5
    # and the option matters: the default meaning gives other weights
    default = registry.get(key).make(fit_intercept=column > 0)
    default.learn_stream(Xin, y, classes=np.arange(K), sample_weight=w)
    assert not np.allclose(default.get_state()["coef"], state["coef"])


@pytest.mark.parametrize("key, high", [("pa", 2.0), ("spa", 2.0), ("pa2", None), ("pa1", None)])
def test_a_step_proportional_to_the_loss_refuses_an_overshooting_weight(key, high):
    X = np.array([[3.0, 4.0], [1.0, 0.0]])  # ||x||^2 <= 25
    y = np.array([0, 1])
    est = registry.get(key).make(weight_scales="step")
    C = est.get_params().get("C", 1.0)
    if high is None and key == "pa2":
        high = 2.0 + 0.5 / (C * 25.0)  # 2 / b for the largest row
    if high is None:  # PA-I: the capped step takes large weights (scikit-learn's default)
        est.fit(X, y, sample_weight=[1000.0, 1.0])
        assert np.isfinite(est.coef_).all()
        return
    est.fit(X, y, sample_weight=[high, 1.0])  # the edge is in
    with pytest.raises(ValueError, match="overshoots the margin"):
        registry.get(key).make(weight_scales="step").fit(X, y, sample_weight=[high * 1.01, 1])
