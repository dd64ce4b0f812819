"""An example's weight in each readable rule equals the optimum of that rule's weighted problem,
solved by a generic solver that knows nothing of the closed forms.

- PA-I / PA-II / SPA-I / SPA-II: ``min 1/2 sum ||w_v - w_v_old||^2 + s C xi`` (``+ s C xi^2``)
  by quadprog (the linear-slack ones through their dual, the others in the primal);
- hard PA / SPA and CW: any weight s > 0 is the unweighted step (the hard problem, by quadprog
  for PA / SPA), and "weight 2 = the example twice in a row" holds (the repeat is passive);
- the Perceptron: the step is minus the (finite-difference) gradient of the weighted perceptron
  criterion ``s max(0, w_r.x - w_y.x)``;
- AROW, SCW-I, SCW-II: ``KL + s/(2r) (hinge^2 + v')``, ``KL + s C xi`` (``+ s C xi^2``) by
  scipy.optimize over the mean and a Cholesky factor (``tests/test_cw_optimisation.py``'s
  parametrisation);
- SGD-SVM: the step is minus the rate times the finite-difference gradient of
  ``lam/2 ||w||^2 + s max(0, 1 - y (w.x + b))``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import quadprog
from scipy.optimize import minimize
from scipy.stats import norm
from test_cw_optimisation import D, instance, pack, unpack

from olearn.core.cw import CWState, arow_step, cw_step, scw_step
from olearn.core.pa import pa_step, perceptron_step
from olearn.core.sgd_svm import sgd_init, sgd_step
from olearn.core.spa import spa_step

WEIGHTS = (0.1, 0.5, 2.0, 7.0)


def weighted_qp(W, x, y, wrong, variant, C, s):
    """The step ``delta`` (K, d) of ``min 1/2 ||delta||^2 [+ s C xi | + s C xi^2]`` subject to
    ``(w_y - w_u + delta_y - delta_u).x >= 1 [- xi]`` for u in ``wrong``."""
    K, d = W.shape
    A = np.zeros((K * d, len(wrong)))  # columns (e_y - e_u) (x) x
    for j, u in enumerate(wrong):
        A[y * d : (y + 1) * d, j] += x
        A[u * d : (u + 1) * d, j] -= x
    b = 1.0 - (W[y] - W[wrong]) @ x  # needed increase of each margin
    if variant is None:  # hard: primal over delta
        delta = quadprog.solve_qp(np.eye(K * d), np.zeros(K * d), A, b)[0]
    elif variant == "II":  # primal over (delta, xi): 1/2 ||delta||^2 + 1/2 (2 s C) xi^2
        G = np.diag(np.r_[np.ones(K * d), 2.0 * s * C])
        Cm = np.vstack([A, np.ones((1, len(wrong)))])  # A'delta + xi >= b
        delta = quadprog.solve_qp(G, np.zeros(K * d + 1), Cm, b)[0][: K * d]
    else:  # "I", the dual: max tau'b - 1/2 ||A tau||^2, tau >= 0, sum tau <= s C
        G = A.T @ A + 1e-14 * np.eye(len(wrong))
        Cm = np.hstack([np.eye(len(wrong)), -np.ones((len(wrong), 1))])
        tau = quadprog.solve_qp(G, b, Cm, np.r_[np.zeros(len(wrong)), -s * C])[0]
        delta = A @ tau
    return delta.reshape(K, d)


def rule_instance(rng):
    K, d = int(rng.integers(2, 7)), int(rng.integers(1, 5))
    W = rng.normal(size=(K, d))
    x = rng.normal(size=d)
    y = int(rng.integers(K))
    C = 10.0 ** float(rng.uniform(-2, 2)) / float(x @ x)
    return W, x, y, C


def rival_of(W, x, y):
    scores = W @ x
    return max((u for u in range(W.shape[0]) if u != y), key=lambda u: (scores[u], -u))


@pytest.mark.parametrize("rule", ["pa", "spa"])
@pytest.mark.parametrize("variant", ["I", "II"])
def test_soft_rules_solve_the_weighted_problem(rule, variant):
    rng = np.random.default_rng(11 + (rule == "spa") + 2 * (variant == "II"))
    step = pa_step if rule == "pa" else spa_step
    aggressive = 0
    for _ in range(300):
        W, x, y, C = rule_instance(rng)
        s = float(rng.choice(WEIGHTS))
        W_new, trace = step(W, x, y, variant=variant, C=C, weight=s)
        if trace.loss == 0.0:
            continue
        aggressive += 1
        wrong = [rival_of(W, x, y)] if rule == "pa" else [u for u in range(len(W)) if u != y]
        delta = weighted_qp(W, x, y, wrong, variant, C, s)
        scale = max(1.0, np.abs(delta).max())
        assert np.allclose(W_new - W, delta, rtol=0, atol=1e-8 * scale), (s, C)
        # and the weight matters: the unweighted step differs when the price binds
    assert aggressive > 200


@pytest.mark.parametrize("rule", ["pa", "spa"])
def test_hard_rules_step_alike_for_every_positive_weight(rule):
    rng = np.random.default_rng(5)
    step = pa_step if rule == "pa" else spa_step
    for _ in range(200):
        W, x, y, _ = rule_instance(rng)
        W1, trace = step(W, x, y)
        wrong = [rival_of(W, x, y)] if rule == "pa" else [u for u in range(len(W)) if u != y]
        if trace.loss > 0.0:
            delta = weighted_qp(W, x, y, wrong, None, 1.0, 1.0)
            assert np.allclose(W1 - W, delta, atol=1e-8 * max(1.0, np.abs(delta).max()))
        for s in WEIGHTS:
            assert np.array_equal(step(W, x, y, weight=s)[0], W1)
        # weight 2 = the example twice in a row: the repeat has (numerically) nothing to do;
        # exact for SPA (every margin >= 1 after its step) and two-class PA, not for multiclass
        # PA, whose step can leave a new rival (documented in core.pa, *Weights*)
        if rule == "spa" or len(W) == 2:
            W2, _ = step(W1, x, y)
            assert np.allclose(W2, W1, rtol=0, atol=1e-12 * max(1.0, np.abs(W1).max()))
        assert np.array_equal(step(W, x, y, weight=0.0)[0], W)


def test_perceptron_step_is_the_weighted_criterion_gradient():
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(200):
        W, x, y, _ = rule_instance(rng)
        s = float(rng.choice(WEIGHTS))
        r = rival_of(W, x, y)
        if (W[r] - W[y]) @ x <= 1e-6:  # a strict mistake: the criterion is differentiable
            continue

        def criterion(flat, W=W, x=x, y=y, s=s):
            V = flat.reshape(W.shape)
            scores = V @ x
            return s * max(0.0, max(scores[u] for u in range(len(V)) if u != y) - scores[y])

        h = 1e-6
        grad = np.array(
            [
                (criterion(W.ravel() + h * e) - criterion(W.ravel() - h * e)) / (2 * h)
                for e in np.eye(W.size)
            ]
        ).reshape(W.shape)
        W_new, _ = perceptron_step(W, x, y, weight=s)
        assert np.allclose(W_new, W - grad, atol=1e-6 * s * max(1.0, np.abs(x).max()))
        checked += 1
    assert checked > 50


def solve_weighted_cw(problem, mu_t, Sigma_t, x, y, rival, lam, s, phi=None, C=None, r=None):
    """scipy.optimize on the weighted objective (the weight multiplies the rule's term)."""
    binary = mu_t.ndim == 1
    rows = 1 if binary else mu_t.shape[0]
    mu_t2 = mu_t.reshape(rows, D)
    P_t = np.linalg.inv(Sigma_t)
    logdet_t = np.linalg.slogdet(Sigma_t)[1]
    kappa = 1.0 if binary else 2.0

    def kl(z):
        mu, Sigma, L = unpack(z, rows)
        diff = mu - mu_t2
        logdet = 2.0 * np.log(np.diag(L)).sum()
        cov = 0.5 * lam * (logdet_t - logdet + np.trace(P_t @ Sigma) - D)
        return 0.5 * np.einsum("kd,de,ke->", diff, P_t, diff) + cov

    def margin(z):
        mu, Sigma, _ = unpack(z, rows)
        m = y * mu[0] @ x if binary else (mu[y] - mu[rival]) @ x
        return m, kappa * x @ Sigma @ x

    z0 = pack(mu_t2, Sigma_t)
    if problem == "AROW":

        def f(z):
            m, v = margin(z)
            return kl(z) + s * (max(0.0, 1.0 - m) ** 2 + v) / (2.0 * r)

        res = minimize(f, z0, method="BFGS", options={"gtol": 1e-10, "maxiter": 5000})
        return unpack(res.x, rows)[:2]

    def f(z):
        xi = z[-1]
        return kl(z[:-1]) + s * (C * xi if problem == "SCW-I" else C * xi * xi)

    def g(z):
        m, v = margin(z[:-1])
        return m - phi * np.sqrt(v) + z[-1]

    cons = [{"type": "ineq", "fun": g}]
    if problem == "SCW-I":
        cons.append({"type": "ineq", "fun": lambda z: z[-1]})
    res = minimize(
        f,
        np.append(z0, 0.0),
        method="SLSQP",
        constraints=cons,
        options={"ftol": 1e-15, "maxiter": 2000},
    )
    return unpack(res.x[:-1], rows)[:2]


@pytest.mark.parametrize(
    "problem,hyper", [("AROW", {"r": 0.6}), ("SCW-I", {"C": 0.05}), ("SCW-II", {"C": 0.3})]
)
@pytest.mark.parametrize("K", [None, 3])
@pytest.mark.parametrize("s", [0.25, 3.0])
def test_cw_family_solves_the_weighted_objective(problem, hyper, K, s):
    mu, Sigma, x, y = instance(2, K)
    eta = 0.85
    state = CWState(mu, Sigma)
    if problem == "AROW":
        new, t = arow_step(state, x, y, r=hyper["r"], weight=s)
    else:
        variant = problem.split("-")[1]
        new, t = scw_step(state, x, y, variant, C=hyper["C"], eta=eta, weight=s)
    assert t.reason == "aggressive"
    mu_num, Sigma_num = solve_weighted_cw(
        problem, mu, Sigma, x, y, t.rival, 1.0, s, phi=norm.ppf(eta), **hyper
    )
    assert np.allclose(new.mu.reshape(mu_num.shape), mu_num, atol=2e-5 * (1 + np.abs(mu_num).max()))
    assert np.allclose(new.Sigma, Sigma_num, atol=2e-5 * np.abs(Sigma_num).max())
    # the weight matters: the unweighted step is another point
    unweighted = (
        arow_step(state, x, y, r=hyper["r"])
        if problem == "AROW"
        else scw_step(state, x, y, problem.split("-")[1], C=hyper["C"], eta=eta)
    )[0]
    assert not np.allclose(unweighted.mu, new.mu, atol=1e-6)


@pytest.mark.parametrize("K", [None, 3])
def test_cw_steps_alike_for_every_positive_weight_and_repeats_are_passive(K):
    for seed in range(4):
        mu, Sigma, x, y = instance(seed, K)
        state = CWState(mu, Sigma)
        one, t = cw_step(state, x, y, eta=0.85)
        for s in WEIGHTS:
            other, _ = cw_step(state, x, y, eta=0.85, weight=s)
            assert np.array_equal(other.mu, one.mu) and np.array_equal(other.Sigma, one.Sigma)
        if K is None:  # two classes: the constraint holds after the step, the repeat is passive
            again, t2 = cw_step(one, x, y, eta=0.85)
            assert np.allclose(again.mu, one.mu, atol=1e-9) and t2.loss < 1e-9
        zero, t0 = cw_step(state, x, y, eta=0.85, weight=0.0)
        assert np.array_equal(zero.mu, mu) and t0.reason.startswith("passive: weight 0")


@pytest.mark.parametrize("schedule", ["global", "per-feature"])
def test_sgd_step_is_the_weighted_objective_gradient(schedule):
    rng = np.random.default_rng(8)
    lam = 0.05
    checked = 0
    for _ in range(100):
        d = 4
        state = dataclasses.replace(
            sgd_init(d), w=rng.normal(size=d), b=0.3, t=int(rng.integers(0, 50))
        )
        x, y = rng.normal(size=d), float(rng.choice([-1.0, 1.0]))
        s = float(rng.choice(WEIGHTS))
        margin = y * (state.w @ x + state.b)
        if abs(margin - 1.0) < 1e-4:
            continue

        def objective(z, d=d, x=x, y=y, s=s):
            return 0.5 * lam * z[:d] @ z[:d] + s * max(0.0, 1.0 - y * (z[:d] @ x + z[d]))

        z = np.r_[state.w, state.b]
        h = 1e-6
        grad = np.array(
            [(objective(z + h * e) - objective(z - h * e)) / (2 * h) for e in np.eye(d + 1)]
        )
        kw = dict(lam=lam, t0=10.0, schedule=schedule, regularize="all", bias_rate=0.5)
        new, trace = sgd_step(state, x, y, weight=s, **kw)
        assert np.allclose(new.w, state.w - trace.eta * grad[:d], atol=1e-7)
        assert np.isclose(new.b, state.b - trace.eta_bias * grad[d], atol=1e-7)
        same, _ = sgd_step(state, x, y, weight=0.0, **kw)  # absent: nothing moves
        assert same is state
        checked += 1
    assert checked > 80
