"""Each closed form equals a numerical solution of its stated optimisation problem.

The problems are written out here from the papers (KL divergence between Gaussians plus the
rule's constraint or penalty) and solved by scipy.optimize over the mean and a Cholesky factor
of the full covariance, on small random instances, binary and multiclass (shared covariance,
covariance part of the KL weighted by lam, see ``olearn.core.cw``).  Nothing of the closed
forms is used by the solver.
"""

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.stats import norm

from olearn.core.cw import CWState, arow_step, cw_step, narow_step, nherd_step, scw_step

D = 3


def unpack(z, rows):
    mu = z[: rows * D].reshape(rows, D)
    L = np.zeros((D, D))
    L[np.tril_indices(D)] = z[rows * D : rows * D + D * (D + 1) // 2]
    L[np.diag_indices(D)] = np.exp(L[np.diag_indices(D)])  # positive diagonal
    return mu, L @ L.T, L


def pack(mu, Sigma):
    L = np.linalg.cholesky(Sigma)
    L[np.diag_indices(D)] = np.log(np.diag(L))
    return np.concatenate([mu.ravel(), L[np.tril_indices(D)]])


def solve(problem, mu_t, Sigma_t, x, y, rival, lam, phi=None, C=None, r=None):
    """Minimise KL(N(mu, Sigma) || N(mu_t, Sigma_t)) (+ penalty) numerically."""
    binary = mu_t.ndim == 1
    rows = 1 if binary else mu_t.shape[0]
    mu_t2 = mu_t.reshape(rows, D)
    P_t = np.linalg.inv(Sigma_t)
    _, logdet_t = np.linalg.slogdet(Sigma_t)
    kappa = 1.0 if binary else 2.0

    def kl(z):
        mu, Sigma, L = unpack(z, rows)
        diff = mu - mu_t2
        mean_part = 0.5 * np.einsum("kd,de,ke->", diff, P_t, diff)
        logdet = 2.0 * np.log(np.diag(L)).sum()
        cov_part = 0.5 * lam * (logdet_t - logdet + np.trace(P_t @ Sigma) - D)
        return mean_part + cov_part

    def margin(z):
        mu, Sigma, _ = unpack(z, rows)
        m = y * mu[0] @ x if binary else (mu[y] - mu[rival]) @ x
        return m, kappa * x @ Sigma @ x

    z0 = pack(mu_t2, Sigma_t)
    opts = {"ftol": 1e-15, "maxiter": 2000}
    if problem == "AROW":

        def f(z):
            m, v = margin(z)
            return kl(z) + (max(0.0, 1.0 - m) ** 2 + v) / (2.0 * r)

        res = minimize(f, z0, method="BFGS", options={"gtol": 1e-10, "maxiter": 5000})
        return unpack(res.x, rows)[:2]
    if problem in ("CW", "CW-variance"):

        def g(z):
            m, v = margin(z)
            return m - phi * (np.sqrt(v) if problem == "CW" else v)

        res = minimize(
            kl, z0, method="SLSQP", constraints=[{"type": "ineq", "fun": g}], options=opts
        )
        assert res.success, res.message
        return unpack(res.x, rows)[:2]

    # SCW: one extra variable, the slack xi
    def f(z):
        xi = z[-1]
        return kl(z[:-1]) + (C * xi if problem == "SCW-I" else C * xi * xi)

    def g(z):
        m, v = margin(z[:-1])
        return m - phi * np.sqrt(v) + z[-1]

    cons = [{"type": "ineq", "fun": g}]
    if problem == "SCW-I":
        cons.append({"type": "ineq", "fun": lambda z: z[-1]})
    res = minimize(f, np.append(z0, 0.0), method="SLSQP", constraints=cons, options=opts)
    # (SLSQP may stop on "positive directional derivative" at ~1e-9 of the optimum; the
    # comparison with the closed form below is the real check)
    return unpack(res.x[:-1], rows)[:2]


def instance(seed, K):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(D, D))
    Sigma = A @ A.T / D + 0.3 * np.eye(D)
    mu = 0.2 * rng.normal(size=(D,) if K is None else (K, D))
    x = rng.normal(size=D)
    y = int(rng.choice([-1, 1])) if K is None else int(rng.integers(K))
    return mu, Sigma, x, y


CASES = [
    ("CW", {}),
    ("CW-variance", {}),
    ("AROW", {"r": 0.6}),
    ("SCW-I", {"C": 0.05}),
    ("SCW-I", {"C": 10.0}),
    ("SCW-II", {"C": 0.3}),
]


@pytest.mark.parametrize("problem,hyper", CASES)
@pytest.mark.parametrize("K,lam", [(None, 1.0), (3, 1.0), (3, 3.0)])
@pytest.mark.parametrize("seed", [0, 1])
def test_closed_form_solves_its_problem(problem, hyper, K, lam, seed):
    mu, Sigma, x, y = instance(seed, K)
    eta = 0.85
    state = CWState(mu, Sigma)
    if problem in ("CW", "CW-variance"):
        form = "exact" if problem == "CW" else "variance"
        new, t = cw_step(state, x, y, eta=eta, form=form, kl_weight=lam)
    elif problem == "AROW":
        new, t = arow_step(state, x, y, r=hyper["r"], kl_weight=lam)
    else:
        variant = "I" if problem == "SCW-I" else "II"
        new, t = scw_step(state, x, y, variant, C=hyper["C"], eta=eta, kl_weight=lam)
    assert t.reason == "aggressive"
    mu_num, Sigma_num = solve(problem, mu, Sigma, x, y, t.rival, lam, phi=norm.ppf(eta), **hyper)
    assert np.allclose(new.mu.reshape(mu_num.shape), mu_num, atol=2e-5 * (1 + np.abs(mu_num).max()))
    assert np.allclose(new.Sigma, Sigma_num, atol=2e-5 * np.abs(Sigma_num).max())
    if problem == "SCW-I" and hyper["C"] < 1:
        assert t.cap_binds  # the small C really exercises the cap


# --- NHERD: the herding problem over affine maps; NAROW: AROW's problem at r_t ---------------


def herd(mu_t, Sigma_t, x, y, rival, lam, C):
    """Minimise over one matrix A and a row offset b_k (``w_k' = A w_k + b_k``, so every row
    keeps the shared covariance ``A Sigma A'``) the expectation over ``w ~ N(mu, Sigma)`` of
    ``1/2 (w' - w)' inv(Sigma) (w' - w) + C/2 (1 - w'.Delta)^2``, written with the Gaussian's
    moments (covariance part weighted lam, as the KL above).  Returns the new mean and
    covariance."""
    binary = mu_t.ndim == 1
    rows = 1 if binary else mu_t.shape[0]
    mu = mu_t.reshape(rows, D)
    P = np.linalg.inv(Sigma_t)
    kappa = 1.0 if binary else 2.0

    def parts(z):
        M = z[: D * D].reshape(D, D)
        offset = z[D * D :].reshape(rows, D)
        return np.eye(D) + M, M, offset

    def f(z):
        A, M, offset = parts(z)
        move = mu @ M.T + offset  # E[w' - w] per row
        spread = 0.5 * lam * np.trace(P @ M @ Sigma_t @ M.T)  # the covariance of w' - w
        new = mu @ A.T + offset
        m = y * new[0] @ x if binary else (new[y] - new[rival]) @ x
        var = kappa * x @ A @ Sigma_t @ A.T @ x
        return (
            0.5 * np.einsum("kd,de,ke->", move, P, move) + spread + 0.5 * C * ((1 - m) ** 2 + var)
        )

    res = minimize(f, np.zeros(D * D + rows * D), method="BFGS", options={"gtol": 1e-11})
    A, _, offset = parts(res.x)
    return mu @ A.T + offset, A @ Sigma_t @ A.T


@pytest.mark.parametrize("C", [0.2, 3.0])
@pytest.mark.parametrize("K,lam", [(None, 1.0), (3, 1.0), (3, 3.0)])
@pytest.mark.parametrize("seed", [0, 1])
def test_nherd_solves_the_herding_problem(C, K, lam, seed):
    mu, Sigma, x, y = instance(seed, K)
    new, t = nherd_step(CWState(mu, Sigma), x, y, C=C, kl_weight=lam)
    assert t.reason == "aggressive"
    mu_num, Sigma_num = herd(mu, Sigma, x, y, t.rival, lam, C)
    assert np.allclose(new.mu.reshape(mu_num.shape), mu_num, atol=1e-6 * (1 + np.abs(mu_num).max()))
    assert np.allclose(new.Sigma, Sigma_num, atol=1e-6 * np.abs(Sigma_num).max())


@pytest.mark.parametrize("K,lam", [(None, 1.0), (3, 1.0), (3, 3.0)])
@pytest.mark.parametrize("seed", [0, 1])
def test_narow_solves_arows_problem_at_its_adaptive_r(K, lam, seed):
    """NAROW = AROW's problem at ``r_t = v / (b v - 1)`` (the paper's r_t, computed here from
    the state); with lam = 1 the margin variance after the step is 1/b."""
    mu, Sigma, x, y = instance(seed, K)
    v = (1.0 if K is None else 2.0) * x @ Sigma @ x
    b = 3.0 / v  # b v = 3 > 1: an update
    new, t = narow_step(CWState(mu, Sigma), x, y, b=b, kl_weight=lam)
    assert t.reason == "aggressive"
    r_t = v / (b * v - 1.0)
    mu_num, Sigma_num = solve("AROW", mu, Sigma, x, y, t.rival, lam, r=r_t)
    assert np.allclose(new.mu.reshape(mu_num.shape), mu_num, atol=2e-5 * (1 + np.abs(mu_num).max()))
    assert np.allclose(new.Sigma, Sigma_num, atol=2e-5 * np.abs(Sigma_num).max())
    if lam == 1.0:
        assert t.v_after == pytest.approx(1.0 / b, rel=1e-12)
    _, passive = narow_step(CWState(mu, Sigma), x, y, b=0.9 / v)  # b v <= 1: no update
    assert passive.alpha == 0.0 and "1/b" in passive.reason


@pytest.mark.parametrize("K", [None, 3])
@pytest.mark.parametrize("s", [0.25, 3.0])
def test_nherd_and_narow_solve_their_weighted_problems(K, s):
    """An example of weight s multiplies its loss term: NHERD's ``s C/2 E[(1 - w'.Delta)^2]``
    and NAROW's ``s / (2 r_t) (hinge^2 + v')`` (r_t from the state, unweighted)."""
    mu, Sigma, x, y = instance(2, K)
    state = CWState(mu, Sigma)
    new, t = nherd_step(state, x, y, C=0.7, weight=s)
    mu_num, Sigma_num = herd(mu, Sigma, x, y, t.rival, 1.0, s * 0.7)  # s C: the term times s
    assert np.allclose(new.mu.reshape(mu_num.shape), mu_num, atol=1e-6 * (1 + np.abs(mu_num).max()))
    assert np.allclose(new.Sigma, Sigma_num, atol=1e-6 * np.abs(Sigma_num).max())
    v = (1.0 if K is None else 2.0) * x @ Sigma @ x
    b = 3.0 / v
    new, t = narow_step(state, x, y, b=b, weight=s)
    mu_num, Sigma_num = solve("AROW", mu, Sigma, x, y, t.rival, 1.0, r=v / (b * v - 1.0) / s)
    assert np.allclose(new.mu.reshape(mu_num.shape), mu_num, atol=2e-5 * (1 + np.abs(mu_num).max()))
    assert np.allclose(new.Sigma, Sigma_num, atol=2e-5 * np.abs(Sigma_num).max())
