"""The CW family's readable rules against their own limits and identities.

Each check recomputes the claimed property independently (scipy's normal CDF, a binary run
side by side with the multiclass one, eigenvalues, permutations), never our earlier output.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from olearn import registry
from olearn.core._cw_closed_forms import (
    cw_alpha,
    cw_alpha_printed,
    phi_of,
    scw2_alpha,
    scw2_alpha_printed,
)
from olearn.core.cw import CWState, arow_step, cw_init, cw_step, scw_step

VALUES = {"eta": 0.8, "r": 0.7, "C": 0.4}  # away from the defaults; others at their default


def _through_spec(key, **fixed):
    """The registry's rule ``key`` with the test VALUES of its hyper-parameters."""
    spec = registry.get(key)
    hypers = {h.name: VALUES.get(h.name, h.default) for h in spec.hypers} | fixed
    return lambda s, x, y, **k: spec.apply(s, x, y, **hypers, **k)


# every confidence-weighted rule of the registry, and CW's variance form
RULES = {key: _through_spec(key) for key in registry.keys(family="cw")}
RULES["cw-variance"] = _through_spec("cw", form="variance")


def random_state(rng, d, K=None, full=True, scale=0.3):
    A = rng.normal(size=(d, d))
    Sigma = A @ A.T / d + 0.2 * np.eye(d) if full else rng.uniform(0.2, 2.0, size=d)
    mu = scale * rng.normal(size=(d,) if K is None else (K, d))
    return CWState(mu, Sigma)


def margin_and_variance(state, x, y, rival=None):
    """Recompute m and v from a state, directly from the model's definition."""
    mu, Sigma = state.mu, state.Sigma
    S = np.diag(Sigma) if Sigma.ndim == 1 else Sigma
    if mu.ndim == 1:
        return y * mu @ x, x @ S @ x
    return (mu[y] - mu[rival]) @ x, 2.0 * x @ S @ x


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("K", [None, 2, 5])
@pytest.mark.parametrize("kl_weight", [1.0, 3.0])
def test_cw_probability_after_equals_eta(seed, K, kl_weight):
    """After an exact CW step, Pr_{w ~ N'}[margin >= 0] is eta (full covariance)."""
    rng = np.random.default_rng(seed)
    d = 4
    state = random_state(rng, d, K)
    x = rng.normal(size=d)
    y = int(rng.integers(K)) if K else int(rng.choice([-1, 1]))
    eta = float(rng.uniform(0.55, 0.97))
    new, t = cw_step(state, x, y, eta=eta, kl_weight=kl_weight)
    m, v = margin_and_variance(new, x, y, t.rival)
    if t.reason == "aggressive":
        assert norm.cdf(m / math.sqrt(v)) == pytest.approx(eta, abs=1e-10)
        assert v == pytest.approx(t.sqrt_u**2, rel=1e-10)  # u is the new variance
    else:
        assert norm.cdf(m / math.sqrt(v)) >= eta
    assert t.constraint_holds


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("K", [None, 4])
def test_cw_variance_version_meets_its_constraint(seed, K):
    """ICML 2008: the new margin equals phi times the new *variance*."""
    rng = np.random.default_rng(seed)
    state = random_state(rng, 3, K, scale=0.1)
    x = rng.normal(size=3)
    y = 0 if K else 1
    new, t = cw_step(state, x, y, eta=0.9, form="variance")
    m, v = margin_and_variance(new, x, y, t.rival)
    assert t.reason == "aggressive"
    assert m == pytest.approx(norm.ppf(0.9) * v, rel=1e-10)


def stream(rule, state, X, y, **kw):
    traces = []
    for x, label in zip(X, y):
        state, t = rule(state, x, label, **kw)
        traces.append(t)
    return state, traces


@pytest.mark.parametrize("K", [None, 3])
@pytest.mark.parametrize("full", [True, False])
def test_scw_limits_are_exact_cw(K, full):
    """SCW-II -> exact CW as C -> infinity; SCW-I equals CW once C exceeds every CW step."""
    rng = np.random.default_rng(7)
    d, n = 5, 40
    X = rng.normal(size=(n, d))
    teacher = X @ rng.normal(size=(d, K or 1))  # learnable labels: CW does not collapse
    y = teacher.argmax(axis=1) if K else np.where(teacher[:, 0] > 0, 1, -1)
    start = random_state(rng, d, K, full)
    s_cw, t_cw = stream(cw_step, start, X, y, eta=0.8)
    s_2, t_2 = stream(scw_step, start, X, y, variant="II", C=1e12, eta=0.8)
    biggest = max(t.alpha for t in t_cw)
    s_1, t_1 = stream(scw_step, start, X, y, variant="I", C=biggest * (1 + 1e-9), eta=0.8)
    assert sum(t.alpha > 0 for t in t_cw) > 5
    for s in (s_1, s_2):
        assert np.allclose(s.mu, s_cw.mu, rtol=1e-8, atol=1e-9)
        assert np.allclose(s.Sigma, s_cw.Sigma, rtol=1e-8, atol=1e-9)
    # and a smaller C does change SCW-I (the cap is real)
    s_small, _ = stream(scw_step, start, X, y, variant="I", C=biggest / 4, eta=0.8)
    assert not np.allclose(s_small.mu, s_cw.mu)


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("full", [True, False])
@pytest.mark.parametrize("diagonal_form", ["precision", "truncated"])
def test_two_classes_equal_binary(rule, full, diagonal_form):
    """K = 2 with one row per class is binary CW on w = mu_1 - mu_0 with Sigma_b = 2 Sigma."""
    rng = np.random.default_rng(3)
    d, n = 4, 30
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.7)
    labels = rng.integers(2, size=n)
    multi = random_state(rng, d, 2, full)
    binary = CWState(multi.mu[1] - multi.mu[0], 2.0 * multi.Sigma)
    steps = 0
    for x, k in zip(X, labels):
        multi, tm = RULES[rule](multi, x, int(k), diagonal_form=diagonal_form)
        binary, tb = RULES[rule](binary, x, 1 if k == 1 else -1, diagonal_form=diagonal_form)
        assert tm.alpha == pytest.approx(tb.alpha, rel=1e-9, abs=1e-12)
        steps += tm.alpha > 0
    assert steps > 5
    assert np.allclose(multi.mu[1] - multi.mu[0], binary.mu, rtol=1e-9, atol=1e-12)
    assert np.allclose(2.0 * multi.Sigma, binary.Sigma, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("K", [None, 4])
def test_full_covariance_stays_symmetric_positive_definite(rule, K):
    rng = np.random.default_rng(11)
    d, n = 6, 200
    X = rng.normal(size=(n, d)) * 3.0
    teacher = X @ rng.normal(size=(d, K or 1)) + rng.normal(size=(n, K or 1))  # some noise
    y = teacher.argmax(axis=1) if K else np.where(teacher[:, 0] > 0, 1, -1)
    state = cw_init(d, K, covariance="full")
    previous = np.linalg.eigvalsh(state.Sigma).max()
    for x, label in zip(X, y):
        state, t = RULES[rule](state, x, int(label))
        assert np.array_equal(state.Sigma, state.Sigma.T)
        top = np.linalg.eigvalsh(state.Sigma).max()
        assert top <= previous * (1 + 1e-12)  # confidence only grows
        previous = top
    np.linalg.cholesky(state.Sigma)  # raises unless positive definite
    assert np.linalg.eigvalsh(state.Sigma).min() > 0


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("diagonal_form", ["precision", "truncated"])
@pytest.mark.parametrize("K", [None, 3])
def test_diagonal_equals_full_for_single_feature_examples(rule, diagonal_form, K):
    """With one non-zero feature per example, both diagonal forms are the full update."""
    rng = np.random.default_rng(5)
    d, n = 5, 60
    X = np.zeros((n, d))
    X[np.arange(n), rng.integers(d, size=n)] = rng.normal(size=n) * 2
    y = rng.integers(K, size=n) if K else rng.choice([-1, 1], size=n)
    diag = cw_init(d, K, "diagonal")
    full = cw_init(d, K, "full")
    for x, label in zip(X, y):
        diag, td = RULES[rule](diag, x, int(label), diagonal_form=diagonal_form)
        full, tf = RULES[rule](full, x, int(label))
    assert np.allclose(diag.mu, full.mu, rtol=1e-12, atol=1e-14)
    assert np.allclose(np.diag(diag.Sigma), full.Sigma, rtol=1e-12, atol=1e-14)
    assert diag.Sigma.min() > 0


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("covariance", ["diagonal", "full"])
def test_random_labels_keep_the_state_finite(rule, covariance):
    """Under pure label noise CW's variance collapses geometrically (the seed's "CW breaks
    under noise"); the rule must then turn passive, never produce inf, NaN or Sigma <= 0."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(400, 5))
    y = rng.integers(3, size=400)
    state, traces = stream(RULES[rule], cw_init(5, 3, covariance), X, y)
    assert np.all(np.isfinite(state.mu)) and np.all(np.isfinite(state.Sigma))
    diag = state.Sigma if covariance == "diagonal" else np.linalg.eigvalsh(state.Sigma)
    assert diag.min() > 0 or (covariance == "full" and diag.min() > -1e-12 * diag.max())


def seed_d_code_update(mean, cov, fv, label, hyperparameter):
    """Seed 001's D code for AROW (``Update``), transcribed loop for loop onto dicts."""
    m = sum(mean[i] * w for i, w in fv)  # GetMargin
    if m * label >= 1:
        return
    confidence = sum(cov[i] * w * w for i, w in fv)  # GetConfidence: x' Sigma x
    beta = 1.0 / (confidence + hyperparameter)
    alpha = (1.0 - label * m) * beta
    for i, w in fv:
        mean[i] += alpha * cov[i] * label * w
    for i, w in fv:
        cov[i] = 1.0 / ((1.0 / cov[i]) + w * w / hyperparameter)


def test_binary_diagonal_arow_is_the_seeds_d_code():
    rng = np.random.default_rng(4)
    d, n, r = 12, 150, 0.4
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < 0.3)
    y = np.where(X @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 0, 1, -1)
    mean, cov = dict.fromkeys(range(d), 0.0), dict.fromkeys(range(d), 1.0)
    state = cw_init(d)
    for x, label in zip(X, y):
        seed_d_code_update(mean, cov, [(i, x[i]) for i in np.flatnonzero(x)], int(label), r)
        state, _ = arow_step(state, x, int(label), r=r, diagonal_form="precision")
    assert np.allclose(state.mu, [mean[i] for i in range(d)], rtol=1e-12, atol=1e-15)
    assert np.allclose(state.Sigma, [cov[i] for i in range(d)], rtol=1e-12, atol=1e-15)
    assert min(cov.values()) < 0.5  # the stream really updated


def test_diagonal_forms_differ_and_stay_positive():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 6))
    y = rng.integers(3, size=50)
    a, _ = stream(arow_step, cw_init(6, 3), X, y, r=0.1, diagonal_form="precision")
    b, _ = stream(arow_step, cw_init(6, 3), X, y, r=0.1, diagonal_form="truncated")
    assert a.Sigma.min() > 0 and b.Sigma.min() > 0
    assert not np.allclose(a.Sigma, b.Sigma)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    rule=st.sampled_from(sorted(RULES)),
    K=st.sampled_from([None, 2, 4]),
    full=st.booleans(),
)
def test_invariant_to_feature_order(seed, rule, K, full):
    rng = np.random.default_rng(seed)
    d = 5
    state = random_state(rng, d, K, full)
    x = rng.normal(size=d)
    y = int(rng.integers(K)) if K else int(rng.choice([-1, 1]))
    perm = rng.permutation(d)
    Sigma_p = state.Sigma[perm] if not full else state.Sigma[np.ix_(perm, perm)]
    permuted = CWState(state.mu[..., perm], Sigma_p)
    new, t = RULES[rule](state, x, y)
    new_p, t_p = RULES[rule](permuted, x[perm], y)
    for name in ("m", "v", "alpha", "beta"):
        assert getattr(t_p, name) == pytest.approx(getattr(t, name), rel=1e-9, abs=1e-12)
    assert np.allclose(new_p.mu, new.mu[..., perm], rtol=1e-9, atol=1e-12)
    expected = new.Sigma[perm] if not full else new.Sigma[np.ix_(perm, perm)]
    assert np.allclose(new_p.Sigma, expected, rtol=1e-9, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(
    m=st.floats(-5, 5),
    v=st.floats(1e-3, 50),
    eta=st.floats(0.51, 0.99),
    C=st.floats(1e-3, 1e3),
)
def test_stable_roots_equal_the_printed_formulas(m, v, eta, C):
    """Our cancellation-free roots equal the SCW paper's printed expressions (lam = 1)."""
    phi = phi_of(eta)
    assert cw_alpha(m, v, phi) == pytest.approx(cw_alpha_printed(m, v, phi), rel=1e-7, abs=1e-9)
    assert scw2_alpha(m, v, phi, C) == pytest.approx(
        scw2_alpha_printed(m, v, phi, C), rel=1e-7, abs=1e-9
    )


def test_trace_fields_and_passive_steps():
    state = cw_init(2, 2, covariance="full")
    x = np.array([1.0, -1.0])
    new, t = scw_step(state, x, 1, "I", C=1.0, eta=0.9)
    assert t.reason == "aggressive" and t.rival == 0 and not t.cap_binds
    assert not t.mu_before.flags.writeable and not t.Sigma_after.flags.writeable
    assert t.ellipse_after.semi_minor < t.ellipse_before.semi_minor  # confidence grew along x
    again, t2 = scw_step(new, x, 1, "I", C=1.0, eta=0.9)
    assert t2.loss < 1e-12 and t2.alpha < 1e-12  # the constraint is met (to rounding)
    assert np.allclose(again.mu, new.mu, rtol=1e-12, atol=1e-15)
    _, t0 = cw_step(state, np.zeros(2), 1)
    assert t0.reason.startswith("passive") and t0.alpha == 0.0
    assert np.array_equal(state.mu, np.zeros((2, 2)))  # input untouched


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: cw_step(cw_init(2), [np.nan, 1.0], 1), "finite"),
        (lambda: cw_step(cw_init(2), [1.0, 1.0], 0), "binary y"),
        (lambda: cw_step(cw_init(2, 3), [1.0, 1.0], 3), "class index"),
        (lambda: cw_step(cw_init(2), [1.0, 1.0, 1.0], 1), "shape"),
        (lambda: cw_step(cw_init(2), [1.0, 1.0], 1, eta=0.4), "eta"),
        (lambda: cw_step(cw_init(2), [1.0, 1.0], 1, form="linear"), "form"),
        (lambda: arow_step(cw_init(2), [1.0, 1.0], 1, r=0.0), "r must"),
        (lambda: scw_step(cw_init(2), [1.0, 1.0], 1, variant="III"), "variant"),
        (lambda: scw_step(cw_init(2), [1.0, 1.0], 1, C=-1.0), "C must"),
        (lambda: cw_step(CWState(np.zeros(2), np.array([1.0, -1.0])), [1.0, 1.0], 1), "positive"),
        (lambda: cw_init(2001, covariance="full"), "2000"),
        (lambda: cw_init(3, covariance="dense"), "covariance"),
    ],
)
def test_bad_input_raises(call, message):
    with pytest.raises(ValueError, match=message):
        call()
