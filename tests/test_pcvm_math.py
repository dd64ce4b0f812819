"""PCVM (seed 002): each EM formula against an independent computation, and the printed
misprints shown wrong where they are."""

import numpy as np
import pytest
import quadprog
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize, stats
from scipy.special import gammaln

from olearn.core.pcvm import (
    estep_printed,
    gamma_update,
    gamma_update_printed,
    hyper_expectations,
    log_posterior,
    m_step_b,
    m_step_w,
    normal_density,
    normal_density_printed,
    psi,
    truncated_moments,
)

CASES = [
    (y, t, g) for y in (-3.0, -0.4, 0.0, 1.2, 4.0) for t in (1.0, -1.0) for g in (0.2, 1.0, 5.0)
]


def _half_line(t):
    return (0.0, np.inf) if t > 0 else (-np.inf, 0.0)


def _quad_moment(f, y, t, gamma):
    """E[f(h) | sign h = t] for h ~ N(y, 1/gamma), by numerical integration."""
    dens = stats.norm(y, 1.0 / np.sqrt(gamma)).pdf
    lo, hi = _half_line(t)
    mass = integrate.quad(dens, lo, hi, epsabs=1e-13, epsrel=1e-12)[0]
    return integrate.quad(lambda h: f(h) * dens(h), lo, hi, epsabs=1e-13, epsrel=1e-12)[0] / mass


@pytest.mark.parametrize("sigma2", [0.25, 4.0])
def test_eq4_printed_density_does_not_integrate_to_one(sigma2):
    ok = integrate.quad(normal_density, -np.inf, np.inf, args=(0.3, sigma2))[0]
    bad = integrate.quad(normal_density_printed, -np.inf, np.inf, args=(0.3, sigma2))[0]
    assert ok == pytest.approx(1.0, abs=1e-9)
    assert abs(bad - 1.0) > 0.2  # sqrt(2 pi sigma) instead of sqrt(2 pi) sigma
    z = np.linspace(-3, 3, 7)
    np.testing.assert_allclose(normal_density(z, 0.5, 2.0), stats.norm(0.5, np.sqrt(2)).pdf(z))


@pytest.mark.parametrize("y,t,gamma", CASES)
def test_estep_mean_and_variance_against_quadrature(y, t, gamma):
    hbar, var = truncated_moments(np.array([y]), np.array([t]), gamma)
    mean = _quad_moment(lambda h: h, y, t, gamma)
    second = _quad_moment(lambda h: (h - mean) ** 2, y, t, gamma)
    assert hbar[0] == pytest.approx(mean, rel=1e-7, abs=1e-9)
    assert var[0] == pytest.approx(second, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("y,t,gamma", CASES)
def test_printed_estep_is_the_partial_mean_not_the_conditional_one(y, t, gamma):
    printed = estep_printed(np.array([y]), np.array([t]), gamma)[0]
    dens = stats.norm(y, 1.0 / np.sqrt(gamma)).pdf
    lo, hi = _half_line(t)
    partial = integrate.quad(lambda h: h * dens(h), lo, hi, epsabs=1e-13)[0]  # E[h 1{t}]
    assert printed == pytest.approx(partial, rel=1e-7, abs=1e-9)
    true = _quad_moment(lambda h: h, y, t, gamma)
    p = float(psi(t * y, gamma))  # P(t | y)
    assert printed == pytest.approx(p * true, rel=1e-7, abs=1e-9)
    if p < 0.9:  # a doubtful point: the printed form is far off
        assert abs(printed - true) > 0.1 * abs(true)


def test_estep_is_stable_far_in_the_tails():
    y = np.array([-40.0, 40.0, -1e3])
    hbar, var = truncated_moments(y, np.array([1.0, -1.0, 1.0]), 1.0)
    assert np.all(np.isfinite(hbar)) and np.all(np.isfinite(var))
    assert np.all(hbar[[0, 2]] > 0) and hbar[1] < 0  # on the label's side
    assert hbar[0] == pytest.approx(1 / 40, rel=0.01)  # ~ 1/|y| (Mills ratio asymptotics)


def test_gamma_step_maximises_the_expected_log_posterior():
    """Eq. (20): maximise Q(gamma) = N log gamma - gamma E||H - y||^2 - lam gamma^2, with
    E||H - y||^2 integrated numerically point by point; the printed root does not."""
    rng = np.random.default_rng(3)
    N, lam, gamma_old = 12, 40.0, 0.7
    t = rng.choice([-1.0, 1.0], N)
    y_old, y_new = rng.normal(0, 1.5, N), rng.normal(0, 1.5, N)
    expected = sum(
        _quad_moment(lambda h, a=a: (h - a) ** 2, yo, ti, gamma_old)
        for yo, ti, a in zip(y_old, t, y_new, strict=True)
    )

    def minus_q(g):
        return -(N * np.log(g) - g * expected - lam * g * g)

    best = optimize.minimize_scalar(
        minus_q, bounds=(1e-6, 50.0), method="bounded", options={"xatol": 1e-12}
    ).x
    hbar, var = truncated_moments(y_old, t, gamma_old)
    S = float(np.sum(var) + np.sum((hbar - y_new) ** 2))
    assert S == pytest.approx(expected, rel=1e-7)
    assert gamma_update(S, lam, N) == pytest.approx(best, rel=1e-6)
    C = float(2 * y_new @ hbar - y_new @ y_new)  # the printed C
    printed = gamma_update_printed(C, lam, N)
    assert minus_q(printed) > minus_q(best) + 1e-3
    assert C - float(np.sum(var + hbar**2)) == pytest.approx(-S)  # C lacks -E[H^T H]


@settings(max_examples=60, deadline=None)
@given(S=st.floats(0, 1e6), lam=st.floats(1e-3, 1e6), N=st.integers(1, 5000))
def test_derived_gamma_never_exceeds_sqrt_n_over_2lam(S, lam, N):
    g = gamma_update(S, lam, N)
    assert 0 < g <= np.sqrt(N / (2 * lam)) * (1 + 1e-12)
    assert 2 * lam * g * g + S * g - N == pytest.approx(0.0, abs=1e-8 * (N + S * g))


def _qp_max(Phi, r, alphabar, gamma, t):
    """argmax of Eq. (18)'s quadratic under t_i w_i >= 0, by quadprog (dual active set)."""
    G = 2 * (gamma * Phi.T @ Phi + np.diag(alphabar))
    a = 2 * gamma * Phi.T @ r
    return quadprog.solve_qp(G, a, np.diag(t), np.zeros(t.size))[0]


@pytest.mark.parametrize("seed", range(6))
def test_m_step_w_against_quadprog(seed):
    rng = np.random.default_rng(seed)
    N, k = 30, 8
    Phi = rng.normal(size=(N, k))
    t = rng.choice([-1.0, 1.0], k)
    w_old = t * rng.uniform(0.05, 2.0, k)
    alphabar, _ = hyper_expectations(w_old, 0.0)
    r, gamma = rng.normal(size=N) * 2, rng.uniform(0.1, 3.0)
    w, constrained = m_step_w(Phi, r, 1 / np.sqrt(alphabar), gamma, t)
    np.testing.assert_allclose(w, _qp_max(Phi, r, alphabar, gamma, t), rtol=1e-7, atol=1e-9)
    assert np.all(t * w >= 0)
    free = np.linalg.solve(gamma * Phi.T @ Phi + np.diag(alphabar), gamma * Phi.T @ r)
    assert constrained == bool(np.any(t * free < 0))
    if not constrained:  # Eq. (18) itself
        np.testing.assert_allclose(w, free, rtol=1e-8)


def test_m_step_w_uses_nnls_when_signs_break():
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(20):
        Phi, t = rng.normal(size=(20, 6)), rng.choice([-1.0, 1.0], 6)
        alphabar = rng.uniform(0.1, 2, 6)
        r = rng.normal(size=20) * 3
        w, constrained = m_step_w(Phi, r, 1 / np.sqrt(alphabar), 1.0, t)
        hits += constrained
        np.testing.assert_allclose(w, _qp_max(Phi, r, alphabar, 1.0, t), rtol=1e-7, atol=1e-9)
    assert hits >= 3  # the constrained branch was exercised


def test_m_step_b_against_scalar_optimiser():
    rng = np.random.default_rng(1)
    hbar, fitted = rng.normal(size=15), rng.normal(size=15)
    betabar, gamma = 0.3, 0.8
    b = m_step_b(hbar, fitted, betabar, gamma)

    def minus_q(b):  # Eq. (15)'s b terms
        return -(2 * gamma * b * np.sum(hbar - fitted) - gamma * b * b * 15 - betabar * b * b)

    assert b == pytest.approx(optimize.minimize_scalar(minus_q).x, rel=1e-6)


def test_hyper_expectations_are_posterior_means_of_the_gamma_hyperprior():
    c, d, w = 0.5, 0.3, 0.8

    # posterior of alpha given w:  N(w|0,1/alpha) Gamma(alpha|c,d), integrated numerically
    def post(a):
        return np.sqrt(a) * np.exp(-a * w * w / 2) * a ** (c - 1) * np.exp(-d * a)

    mean = integrate.quad(lambda a: a * post(a), 0, np.inf)[0] / integrate.quad(post, 0, np.inf)[0]
    alphabar, betabar = hyper_expectations(np.array([w]), 0.4, c, d, e=c, f=d)
    assert alphabar[0] == pytest.approx(mean, rel=1e-8)
    assert betabar == pytest.approx((2 * c + 1) / (0.16 + 2 * d))


def test_log_posterior_prior_term_is_the_marginal_over_alpha():
    """-(c + 1/2) log(d + w^2/2) is log int 2 N(w|0,1/alpha) Gamma(alpha|c,d) dalpha + const."""
    c, d = 0.7, 0.2

    def log_marginal(w):
        def f(a):
            log_gamma = c * np.log(d) - gammaln(c) + (c - 1) * np.log(a) - d * a
            return 2 * stats.norm(0, 1 / np.sqrt(a)).pdf(w) * np.exp(log_gamma)

        return np.log(integrate.quad(f, 0, np.inf, limit=200)[0])

    y, t = np.array([0.5, -1.0]), np.array([1.0, -1.0])
    for w1, w2 in ((0.3, 1.7), (0.05, 4.0)):
        ours = log_posterior(y, t, [w1], 0.0, 1.0, None, c=c, d=d) - log_posterior(
            y, t, [w2], 0.0, 1.0, None, c=c, d=d
        )
        assert ours == pytest.approx(log_marginal(w1) - log_marginal(w2), rel=1e-7)
