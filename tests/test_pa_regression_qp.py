"""Every PA regression closed form equals its stated QP, solved by a generic solver (quadprog).

Random instances over scales from 1e-3 to 1e3, tube widths from 0 to 2, C ||x||^2 from 1e-4
to 1e4, weights s in (0, 10].  Hard PA and PA-II are solved in the primal (``w``, and ``xi``
for PA-II) with both sides of the tube as constraints; PA-I's linear slack makes the primal
Hessian singular in ``xi``, so its step is certified instead: our point is primal feasible,
our tau is a feasible dual point (``0 <= tau <= s C``), and the duality gap is zero.
"""

from __future__ import annotations

import numpy as np
import pytest
import quadprog

from olearn.core.pa_regression import pa_regression_step

N_INSTANCES = 1500  # per variant
RTOL = 1e-8


def random_instance(rng: np.random.Generator):
    """A random (w, x, y, C, epsilon, s) with targets inside and outside the tube."""
    d = int(rng.integers(1, 7))
    scale = 10.0 ** float(rng.choice([-3, -1, 0, 1, 3]))
    x = rng.normal(size=d) * scale
    w = rng.normal(size=d) / scale * float(rng.choice([0.0, 0.1, 1.0, 3.0]))
    epsilon = float(rng.choice([0.0, 0.01, 0.5, 2.0]))
    y = float(w @ x + rng.normal() * 3.0)
    C = 10.0 ** float(rng.uniform(-4, 4)) / float(x @ x)  # C ||x||^2 over both extremes
    s = float(rng.choice([1.0, 1.0, 0.3, 7.0]))
    return w, x, y, C, epsilon, s


def primal_qp(w, x, y, epsilon, variant, C):
    """The step's QP in ``z = (Delta [, xi])``: ``min 1/2 ||Delta||^2 [+ C xi^2]`` subject to
    ``|y - (w + Delta).x| <= epsilon [+ xi]``, ``xi >= 0``; returns Delta."""
    d, r = x.shape[0], y - w @ x
    if variant is None:
        A = np.column_stack([x, -x])  # Delta.x >= r - eps;  -Delta.x >= -r - eps
        b = np.array([r - epsilon, -r - epsilon])
        return quadprog.solve_qp(np.eye(d), np.zeros(d), A, b, 0)[0]
    G = np.eye(d + 1)
    G[d, d] = 2.0 * C  # C xi^2 = 1/2 (2C) xi^2
    A = np.zeros((d + 1, 3))
    A[:d, 0], A[d, 0] = x, 1.0  # Delta.x + xi >= r - eps
    A[:d, 1], A[d, 1] = -x, 1.0  # -Delta.x + xi >= -r - eps
    A[d, 2] = 1.0  # xi >= 0
    b = np.array([r - epsilon, -r - epsilon, 0.0])
    return quadprog.solve_qp(G, np.zeros(d + 1), A, b, 0)[0][:d]


def pa1_certificate(w, x, y, epsilon, C, trace) -> float:
    """The duality gap of PA-I at our point (0 for an optimum), after checking primal and dual
    feasibility.  Dual, multipliers a, b >= 0 of the two sides, ``a + b <= C``:
    ``g(a, b) = -1/2 (a - b)^2 ||x||^2 + a (r - eps) - b (r + eps)``."""
    r, n = y - w @ x, float(x @ x)
    delta = trace.sign * trace.tau * x
    xi = trace.xi
    rounding = 1e-11 * (abs(r) + epsilon + abs(w @ x) + abs(delta @ x) + 1.0)
    assert abs(r - delta @ x) <= epsilon + xi + rounding  # primal feasible
    a, b = (trace.tau, 0.0) if trace.sign > 0 else (0.0, trace.tau)
    assert 0.0 <= a + b <= C * (1 + 1e-15)  # dual feasible
    primal = 0.5 * delta @ delta + C * xi
    dual = -0.5 * (a - b) ** 2 * n + a * (r - epsilon) - b * (r + epsilon)
    return (primal - dual) / max(1.0, abs(primal))


def close(a: np.ndarray, b: np.ndarray) -> bool:
    scale = max(float(np.max(np.abs(a))), float(np.max(np.abs(b))), 1e-300)
    return bool(np.max(np.abs(a - b)) <= RTOL * scale)


@pytest.mark.parametrize("variant", [None, "I", "II"])
def test_closed_form_equals_generic_qp(variant):
    rng = np.random.default_rng(2000 + {None: 0, "I": 1, "II": 2}[variant])
    aggressive = capped = 0
    for _ in range(N_INSTANCES):
        w, x, y, C, epsilon, s = random_instance(rng)
        w_new, trace = pa_regression_step(w, x, y, variant=variant, C=C, epsilon=epsilon,
                                          weight=s)  # fmt: skip
        if trace.loss == 0.0:
            assert np.array_equal(w_new, w) and abs(y - w @ x) <= epsilon
            continue
        aggressive += 1
        delta = trace.sign * trace.tau * x  # the step, as the rule applied it
        assert np.allclose(w_new, w + delta, rtol=1e-12, atol=0)
        if variant == "I":
            assert abs(pa1_certificate(w, x, y, epsilon, s * C, trace)) <= 1e-9
            capped += trace.cap_binds
        else:
            assert close(delta, primal_qp(w, x, y, epsilon, variant, s * C)), (w, x, y, C, s)
    assert aggressive > N_INSTANCES // 2  # the sample must exercise the steps
    if variant == "I":
        assert capped > 100


def test_a_hard_step_lands_on_the_tube_edge_and_a_soft_one_short_of_it():
    x = np.array([3.0, -4.0])  # ||x||^2 = 25
    w_new, trace = pa_regression_step(np.zeros(2), x, -10.0, epsilon=1.0)
    assert trace.sign == -1.0 and trace.loss == 9.0 and trace.tau == 9.0 / 25.0
    assert np.isclose(trace.prediction_after, -9.0) and trace.tube == (-1.0, 1.0)
    _, capped = pa_regression_step(np.zeros(2), x, -10.0, "I", C=0.1, epsilon=1.0)
    assert capped.cap_binds and capped.tau == 0.1 and np.isclose(capped.xi, 9.0 - 2.5)
    _, soft = pa_regression_step(np.zeros(2), x, -10.0, "II", C=0.5, epsilon=1.0)
    assert soft.tau == 9.0 / 26.0 and np.isclose(soft.xi, soft.tau)  # xi = tau / 2C
