"""``weight_scales="step"`` in the readable PA and SPA rules: the step of an example of weight
s is s times its unweighted step (every variant, hard ones included), and for two classes it is
scikit-learn's weighted binary PA step, written here from ``_plain_sgd`` (sklearn 1.9,
``_sgd_fast.pyx.tp``): ``update = min(C_s, l / ||x||^2)`` (PA-I) or
``l / (||x||^2 + 1 / (2 C_s))`` (PA-II), then ``update *= class_weight * sample_weight``,
``w += update y x``; with ``C_s = 2 C`` (docs/migrating-from-sklearn.md)."""

from __future__ import annotations

import numpy as np
import pytest

from olearn.core.pa import pa_step
from olearn.core.spa import spa_step

VARIANTS = [None, "I", "II"]


def step_of(rule, W, x, y, **kw) -> np.ndarray:
    """The signed step ``W_new - W``."""
    return rule(W, x, y, **kw)[0] - W


def problems(seed: int, K: int, n: int = 40):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        W = rng.normal(size=(K, 5))
        x = rng.normal(size=5) * (rng.random(5) < 0.7)
        yield W, x, int(rng.integers(K))


@pytest.mark.parametrize("rule", [pa_step, spa_step])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("K", [2, 4])
def test_the_step_is_s_times_the_unweighted_step(rule, variant, K):
    moved = 0
    for W, x, y in problems(K, K):
        plain = step_of(rule, W, x, y, variant=variant, C=0.3)
        for s in (0.25, 1.0, 1.75, 40.0):
            scaled = step_of(rule, W, x, y, variant=variant, C=0.3, weight=s,
                             weight_scales="step")  # fmt: skip
            assert np.allclose(scaled, s * plain, rtol=1e-12, atol=1e-12 * (1 + abs(s)))
        zero = step_of(rule, W, x, y, variant=variant, C=0.3, weight=0.0, weight_scales="step")
        assert not zero.any()  # weight 0 is absence in both meanings
        moved += bool(plain.any())
    assert moved > 10


@pytest.mark.parametrize("rule", [pa_step, spa_step])
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_two_meanings_differ(rule, variant):
    """The default prices the slack (hard rules: presence); "step" scales the step."""
    differ = 0
    for W, x, y in problems(5, 3):
        price = step_of(rule, W, x, y, variant=variant, C=5.0, weight=3.0)
        step = step_of(rule, W, x, y, variant=variant, C=5.0, weight=3.0, weight_scales="step")
        differ += not np.allclose(price, step)
    assert differ > 10


def sklearn_binary_update(w, x, y_pm, variant, C_s, s):
    """scikit-learn's ``_plain_sgd`` PA step (no intercept, no penalty), on ``w``."""
    loss = max(0.0, 1.0 - y_pm * (w @ x))
    n = x @ x
    if variant == "I":
        if n == 0:
            return w
        update = min(C_s, loss / n)
    else:
        update = loss / (n + 0.5 / C_s)
    update *= y_pm
    update *= s
    return w + update * x if update != 0.0 else w


@pytest.mark.parametrize("rule", [pa_step, spa_step])
@pytest.mark.parametrize("variant", ["I", "II"])
def test_two_classes_are_scikit_learns_weighted_step(rule, variant):
    rng = np.random.default_rng(11)
    C = 0.2
    W = np.zeros((2, 6))
    v = np.zeros(6)  # scikit-learn's vector: coef_ = w_1 - w_0
    for _ in range(200):
        x = rng.normal(size=6)
        y = int(x[0] + 0.5 * rng.normal() > 0)
        s = float(rng.choice([0.3, 1.0, 1.5]))
        W, _ = rule(W, x, y, variant=variant, C=C, weight=s, weight_scales="step")
        v = sklearn_binary_update(v, x, 1.0 if y == 1 else -1.0, variant, 2 * C, s)
    assert np.abs(v).max() > 0.5
    assert np.allclose(W[1] - W[0], v, rtol=1e-13, atol=1e-13 * np.abs(v).max())


def test_a_meaning_that_is_not_one_is_refused():
    with pytest.raises(ValueError, match="weight_scales must be 'C' or 'step'"):
        pa_step(np.zeros((2, 1)), np.ones(1), 0, weight=2.0, weight_scales="steps")
    with pytest.raises(ValueError, match="weight_scales"):
        spa_step(np.zeros((2, 1)), np.ones(1), 0, weight_scales=None)
