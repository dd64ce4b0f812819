"""Every PA / SPA closed form equals its stated QP, solved by a generic solver (quadprog).

Thousands of random instances: K from 2 to 30, scales from 1e-3 to 1e3, tied scores and tied Q
values, C from 1e-4 to 1e4.  Hard and quadratic-slack variants are solved in the primal (the
K*d weight space); the linear-slack variants (PA-I, SPA-I) through their dual, and each of
those is also certified by a zero duality gap between our primal point and our own taus.
"""

from __future__ import annotations

import numpy as np
import pytest

from olearn.core.pa import pa_step
from olearn.core.spa import spa_step
from olearn.teaching.qp import dual_objective, objective, qp_step

N_INSTANCES = 1500  # per variant; 6 variants -> 9,000 QPs (the note quotes this count)
RTOL = 1e-8


def random_instance(rng: np.random.Generator):
    """A random (W, x, y, C) with the awkward cases over-represented."""
    K = int(rng.integers(2, 31))
    d = int(rng.integers(1, 6))
    scale = 10.0 ** float(rng.choice([-3, -1, 0, 1, 3]))
    kind = rng.random()
    if kind < 0.15:  # small integers: exact ties in scores and in Q
        W = rng.integers(-2, 3, size=(K, d)).astype(float)
        x = rng.integers(-2, 3, size=d).astype(float)
        if not x.any():
            x[0] = 1.0
    elif kind < 0.25:  # all-zero start: every score ties
        W = np.zeros((K, d))
        x = rng.normal(size=d)
    else:
        W = rng.normal(size=(K, d)) * float(rng.choice([0.1, 1.0, 3.0]))
        x = rng.normal(size=d)
        if rng.random() < 0.3:  # duplicated rows: tied Q values
            W[rng.integers(K, size=K // 2)] = W[int(rng.integers(K))]
    x = x * scale
    W = W / scale  # keep scores O(1)..O(10) so that both passive and aggressive steps occur
    y = int(rng.integers(K))
    # C's effect depends on C ||x||^2 (PA-I's cap C against l / 2||x||^2), so "both extremes"
    # means C ||x||^2 from 1e-4 to 1e4.  (Against x's scale alone, an extreme C makes the
    # quadratic-slack QP ill-conditioned, cond ~ 1/(C ||x||^2), for every solver alike.)
    C = 10.0 ** float(rng.uniform(-4, 4)) / float(x @ x)
    return W, x, y, C


def close(a: np.ndarray, b: np.ndarray) -> bool:
    scale = max(float(np.max(np.abs(a))), float(np.max(np.abs(b))), 1e-300)
    return bool(np.max(np.abs(a - b)) <= RTOL * scale)


def _pa_coef(trace, y: int, K: int) -> np.ndarray:
    coef = np.zeros(K)
    coef[y], coef[trace.rival] = trace.tau, -trace.tau
    return coef


def constrained_classes(W, x, y, single: bool) -> list[int]:
    scores = W @ x
    wrong = [u for u in range(W.shape[0]) if u != y]
    if single:  # PA: only the highest-scoring wrong class (lowest index on ties)
        return [max(wrong, key=lambda u: (scores[u], -u))]
    return wrong


@pytest.mark.parametrize("rule", ["pa", "spa"])
@pytest.mark.parametrize("variant", [None, "I", "II"])
def test_closed_form_equals_generic_qp(rule, variant):
    step = pa_step if rule == "pa" else spa_step
    rng = np.random.default_rng(1000 + 7 * (rule == "spa") + {None: 0, "I": 1, "II": 2}[variant])
    aggressive = capped = multi_support = 0
    for _ in range(N_INSTANCES):
        W, x, y, C = random_instance(rng)
        W_new, trace = step(W, x, y, variant=variant, C=C)
        constrained = constrained_classes(W, x, y, single=(rule == "pa"))
        if trace.loss == 0.0:
            assert np.array_equal(W_new, W)
            continue
        aggressive += 1
        coef = trace.coef if rule == "spa" else _pa_coef(trace, y, W.shape[0])
        delta = np.outer(coef, x)  # our change, as the rule applied it
        assert np.allclose(W_new, W + delta, rtol=1e-12, atol=0)
        if variant == "I":
            delta_ref = qp_step(W, x, y, "I", C, constrained).delta
            # certificate: our point is primal feasible with xi, our taus dual feasible, no gap
            ours = -coef[constrained]
            rounding = 1e-12 * len(constrained) * (1.0 + float(np.max(np.abs(W @ x))))
            assert np.all(ours >= 0) and ours.sum() <= C + rounding / trace.sqnorm
            p = objective(W, delta, x, y, "I", C, constrained=constrained)[0]
            tau = np.zeros(W.shape[0])
            tau[constrained] = ours
            q = dual_objective(W, tau, x, y)
            assert p - q <= 1e-9 * max(1.0, abs(p)), (p, q)
            capped += trace.cap_binds
        else:
            delta_ref = qp_step(W, x, y, variant, C, constrained).delta
        assert close(delta, delta_ref), (rule, variant, W, x, y, C)
        if rule == "spa":
            multi_support += len(trace.support) >= 3
    # the sample must exercise the interesting cases, or the test proves little
    assert aggressive > N_INSTANCES // 3
    if variant == "I":
        assert capped > 50
    if rule == "spa":
        assert multi_support > 100
