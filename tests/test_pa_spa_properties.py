"""Hypothesis properties of the PA / SPA steps (each follows from the stated problem)."""

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from olearn.core.pa import pa_step, perceptron_step
from olearn.core.spa import spa_step

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False, width=64)


@st.composite
def states(draw):
    K = draw(st.integers(2, 8))
    d = draw(st.integers(1, 4))
    W = draw(arrays(np.float64, (K, d), elements=finite))
    x = draw(arrays(np.float64, (d,), elements=finite))
    y = draw(st.integers(0, K - 1))
    C = draw(st.floats(1e-3, 1e3))
    return W, x, y, C


@settings(max_examples=300, deadline=None)
@given(states())
def test_hard_spa_leaves_every_wrong_class_a_margin_of_one(state):
    W, x, y, _ = state
    W1, t = spa_step(W, x, y)
    if x @ x > 1e-6:  # with x = 0 no step can change a score
        scale = 1 + np.max(np.abs(W @ x))
        assert np.nanmin(t.margins_after) >= 1 - 1e-9 * scale
        assert t.correct_after


@settings(max_examples=300, deadline=None)
@given(states(), st.sampled_from([None, "I", "II"]))
@example((np.zeros((7, 3)), np.full(3, 1 / 128), 0, 1.0), "I")  # a sum 3.6e-12 over C
def test_spa_taus_nonnegative_and_only_y_and_support_move(state, variant):
    W, x, y, C = state
    W1, t = spa_step(W, x, y, variant, C)
    assert np.all(t.tau >= 0)
    moved = {u for u in range(W.shape[0]) if not np.array_equal(W1[u], W[u])}
    assert moved <= {y} | set(t.support)
    if variant == "I":
        # sum tau = C exactly when the cap binds; each tau_u = Q_u - theta is rounded at
        # Q_u's scale (Q_u = loss_u / ||x||^2 reaches 5e3 for x = (1/128, 1/128, 1/128) and
        # C = 1: a sum 3.6e-12 over C, found by hypothesis), so the slack is K ulps of max Q
        sq = x @ x
        q = (1.0 - (W[y] @ x - W @ x)) / sq if sq > 0 else np.zeros(1)
        slack = 4 * W.shape[0] * np.finfo(float).eps * max(1.0, float(np.max(q)))
        assert t.tau_sum <= C * (1 + 1e-12) + slack


@settings(max_examples=300, deadline=None)
@given(states(), st.sampled_from([None, "I", "II"]))
def test_pa_tau_nonnegative_capped_and_moves_two_rows(state, variant):
    W, x, y, C = state
    W1, t = pa_step(W, x, y, variant, C)
    assert t.tau >= 0
    if variant == "I":
        assert t.tau <= C
    moved = {u for u in range(W.shape[0]) if not np.array_equal(W1[u], W[u])}
    assert moved <= {y, t.rival}


@settings(max_examples=200, deadline=None)
@given(states())
def test_rules_never_mutate_their_inputs(state):
    W, x, y, C = state
    W0, x0 = W.copy(), x.copy()
    for step in (perceptron_step, lambda *a: pa_step(*a, "I", C), lambda *a: spa_step(*a, "II", C)):
        step(W, x, y)
        assert np.array_equal(W, W0) and np.array_equal(x, x0)


@settings(max_examples=200, deadline=None)
@given(states())
def test_spa_equals_pa_with_two_classes(state):
    W, x, y, C = state
    W = W[:2]
    y = y % 2
    for variant in (None, "I", "II"):
        a, _ = pa_step(W, x, y, variant, C)
        b, _ = spa_step(W, x, y, variant, C)
        assert np.allclose(a, b, rtol=1e-10, atol=1e-10 * (1 + np.abs(W).max()))
