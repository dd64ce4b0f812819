"""Known mistakes in peers' CW-family code, evaluated (never ported) as teaching points.

REFERENCES.md B.4-B.5 records them; here each one is shown to break an identity that the
correct formula keeps: SCW-II -> exact CW as C -> infinity, and Pr[correct] = eta after CW.
"""

import math

import numpy as np
import pytest
from scipy.stats import norm

from olearn.core._cw_closed_forms import (
    cw_alpha,
    cw_beta,
    phi_of,
    phi_pypi_scw_bug,
    scw2_alpha,
    scw2_alpha_libol_typo,
)
from olearn.core.cw import CWState, cw_step, scw_step

M, V, ETA = 0.3, 0.7, 0.7  # the instance of REFERENCES.md B.4


def probability_after(alpha, m, v, phi):
    """Pr[y w.x >= 0] after a step alpha of the CW family (binary), from m' and v'."""
    s, _, _ = cw_beta(alpha, v, phi)
    return norm.cdf((m + alpha * v) / s)


def test_libol_scw2_typo_does_not_tend_to_cw():
    phi = norm.ppf(ETA)
    exact = cw_alpha(M, V, phi)
    assert scw2_alpha(M, V, phi, 1e12) == pytest.approx(exact, rel=1e-9)  # ours: the limit holds
    typo = scw2_alpha_libol_typo(M, V, phi, 1e12)
    assert abs(typo - exact) > 0.1  # ~0.32 against 0.175
    assert probability_after(exact, M, V, phi) == pytest.approx(ETA, abs=1e-12)
    assert probability_after(typo, M, V, phi) > ETA + 0.04  # overshoots: 0.75 for 0.7 asked


def test_pypi_scw_uses_the_cdf_where_the_quantile_belongs():
    etas = np.linspace(0.55, 0.99, 12)
    bug = np.array([phi_pypi_scw_bug(e) for e in etas])
    assert np.allclose(bug, norm.cdf(etas))  # what that package computes
    right = np.array([phi_of(e) for e in etas])
    assert np.allclose(right, norm.ppf(etas))
    assert bug.max() < 0.84 < right.max()  # eta = 0.99 is out of reach with the bug
    # a CW step with the buggy phi guarantees Phi(Phi(eta)) instead of eta
    x = np.array([1.0, 0.5])
    for eta in (0.6, 0.9):
        _, t = cw_step(CWState(np.zeros(2), np.eye(2)), x, 1, eta=float(norm.cdf(norm.cdf(eta))))
        assert t.phi == pytest.approx(phi_pypi_scw_bug(eta), rel=1e-12)
        assert abs(t.prob_after - eta) > 0.05


def libol_multiclass_alphas(m, v, phi, C):
    """LIBOL's M_CW and M_SCW2 step sizes as REFERENCES.md B.5 writes them (v = x'Sigma x)."""
    psi = 1.0 + phi**2 / 2.0
    m_cw = (-m * psi + math.sqrt(m * m * psi * psi - m * m * psi + 2.0 * v * phi**2 * psi)) / (
        2.0 * v * psi
    )
    n = 2.0 * v + 1.0 / (2.0 * C)
    root = math.sqrt(phi**4 * m * m * v * v + 8.0 * n * v * phi**2 * (n + v * phi**2))
    m_scw2 = (-(2.0 * m * n + phi**2 * m * v) + root) / (2.0 * (n * n + n * v * phi**2))
    return m_cw, m_scw2


def test_libol_multiclass_set_is_inconsistent_ours_is_not():
    phi = norm.ppf(ETA)
    m_cw, m_scw2 = libol_multiclass_alphas(M, V, phi, 1e12)
    assert abs(m_cw - m_scw2) > 1e-3  # REFERENCES: 0.208 against 0.214
    mu = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    mu[:, 0] = [M / 2, -M / 2, -M / 2]  # margin M against classes 1 and 2 (rival: 1)
    Sigma = np.diag([V / 2, 1.0])  # x'Sigma x = V/2, so v = 2 x'Sigma x = V
    x = np.array([1.0, 0.0])
    _, t_cw = cw_step(CWState(mu, Sigma), x, 0, eta=ETA)
    _, t_2 = scw_step(CWState(mu, Sigma), x, 0, "II", C=1e12, eta=ETA)
    assert (t_cw.m, t_cw.v) == pytest.approx((M, V))
    assert t_2.alpha == pytest.approx(t_cw.alpha, rel=1e-9)
    assert t_cw.prob_after == pytest.approx(ETA, abs=1e-12)
