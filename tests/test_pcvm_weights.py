"""PCVM with weighted examples (:mod:`olearn.core.pcvm`, *Weighted examples*): an integer
weight k is k copies of the example's likelihood term (the unweighted EM run on the repeated
rows, the basis unchanged), the weighted objective never decreases between prunes, and the
estimator's weights are the rule's (weight 0 = absence: ``test_sample_weight_estimators.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from olearn.core._pcvm_basis import basis
from olearn.core.pcvm import PCVMConfig, pcvm_fit
from olearn.estimators import PCVMClassifier


def blobs(seed: int, n: int = 36):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0.7, 1, (n // 2, 2)), rng.normal(-0.7, 1, (n // 2, 2))])
    return X, np.r_[np.ones(n // 2), -np.ones(n // 2)]


def assert_same_fit(a, b, rel=1e-8):
    (sa, ha, na), (sb, hb, nb) = a, b
    assert na == nb and np.array_equal(sa.active, sb.active)
    assert np.allclose(sa.w, sb.w, rtol=rel, atol=rel * np.abs(sb.w).max())
    assert sa.b == pytest.approx(sb.b, rel=rel, abs=rel)
    assert sa.gamma == pytest.approx(sb.gamma, rel=rel)
    La, Lb = (np.array([h["objective"] for h in hist]) for hist in (ha, hb))
    assert np.allclose(La, Lb, rtol=rel)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("lam", [None, 50.0])
@pytest.mark.parametrize("gamma_rule", ["derived", "printed"])
def test_integer_weight_is_the_repeated_likelihood_term(seed, lam, gamma_rule):
    """The weighted EM against the plain EM on the rows repeated k times (Phi's rows and the
    labels repeated, the basis and its signs unchanged): the weighted sums of every M-step
    and of the objective, against sums over copies."""
    X, t = blobs(seed)
    k = np.random.default_rng(seed).integers(1, 4, size=len(t))
    Phi = basis(X, X, "rbf", 0.8)
    cfg = PCVMConfig(lam=lam, gamma_rule=gamma_rule)
    kw = dict(max_iter=60, tol=0.0, random_state=seed)
    weighted = pcvm_fit(Phi, t, cfg, weights=k.astype(float), **kw)
    repeat = np.repeat(np.arange(len(t)), k)
    repeated = pcvm_fit(Phi[repeat], t[repeat], cfg, basis_t=t, **kw)
    assert_same_fit(weighted, repeated)
    plain = pcvm_fit(Phi, t, cfg, **kw)
    assert not np.allclose(plain[0].w, weighted[0].w)  # and the weights matter


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("lam", [None, 20.0])
def test_weighted_objective_never_decreases(seed, lam):
    """Fractional weights: L_s rises at every iteration (proper prior, no pruning) and
    between prunes (Jeffreys prior)."""
    X, t = blobs(seed + 5)
    s = np.random.default_rng(seed).uniform(0.05, 3.0, size=len(t))
    Phi = basis(X, X, "rbf", 0.7)
    proper = PCVMConfig(lam=lam, d=1e-3, prune_tol=0.0)
    _, history, _ = pcvm_fit(Phi, t, proper, max_iter=80, tol=0.0, random_state=seed, weights=s)
    L = np.array([h["objective"] for h in history])
    assert np.all(np.diff(L) >= -1e-9 * np.abs(L[1:]))
    _, history, _ = pcvm_fit(
        Phi, t, PCVMConfig(lam=lam), max_iter=150, tol=0.0, random_state=seed, weights=s
    )
    L = np.array([h["objective"] for h in history])
    k = np.array([h["n_nonzero"] for h in history])
    same = k[1:] == k[:-1]
    assert same.sum() > 30
    assert np.all(np.diff(L)[same] >= -1e-9 * np.abs(L[1:][same]))


def test_estimator_weights_are_the_rules_and_weight_zero_drops_the_basis_function():
    X, t = blobs(9, n=40)
    y = np.where(t > 0, "pos", "neg")
    w = np.random.default_rng(2).choice([0.0, 0.3, 1.0, 2.0, 3.0], size=len(y))
    clf = PCVMClassifier(kernel="rbf", theta=0.8, lam=50.0, random_state=0)
    clf.fit(X, y, sample_weight=w)
    keep = w > 0
    cfg, gamma0 = clf._config()
    state, _, n_iter = pcvm_fit(
        basis(X[keep], X[keep], "rbf", 0.8), t[keep], cfg, gamma0=gamma0,
        random_state=0, weights=w[keep],
    )  # fmt: skip
    assert clf.n_iter_ == n_iter
    assert np.array_equal(clf.relevance_indices_, np.flatnonzero(keep)[state.active])
    assert np.array_equal(clf.dual_coef_, state.w[state.active])
    assert np.all(w[clf.relevance_indices_] > 0)


def test_bad_weights_raise():
    X, t = blobs(1, n=10)
    Phi = basis(X, X, "rbf", 0.8)
    for bad in (np.full(10, -1.0), np.full(9, 1.0), np.r_[np.nan, np.ones(9)]):
        with pytest.raises(ValueError, match="weights"):
            pcvm_fit(Phi, t, weights=bad)
