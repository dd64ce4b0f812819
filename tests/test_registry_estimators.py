"""Every online algorithm of the registry, through its estimator (the kernel, the intercept
column, the boundary), equals its readable rule run sample by sample: weights after one pass
and the progressive mistakes.  Parametrised from ``olearn.registry``: a new entry is tested
here without an edit."""

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry

ONLINE = registry.keys(online=True)


def stream(seed: int, sparse: bool):
    rng = np.random.default_rng(seed)
    n, d, K = 90, 6, 4
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.5 if sparse else 1.0))
    y = (X @ rng.normal(size=(d, K)) + 0.7 * rng.normal(size=(n, K))).argmax(axis=1)
    return (sp.csr_matrix(X) if sparse else X), X, y, K


def readable_run(spec, X, y, K, s):
    """Weights (K, D) and mistakes of the readable rule on X with the column ``s`` appended."""
    Xa = np.hstack([X, np.full((X.shape[0], 1), s)]) if s > 0 else X
    learner = spec.readable(covariance="diagonal")
    state = learner.init(Xa.shape[1], K)
    mistakes = []
    for x, label in zip(Xa, y):
        mistakes.append(int(np.argmax(learner.weights(state) @ x)) != label)
        state, _ = learner.step(state, x, int(label))
    return learner.weights(state), np.array(mistakes)


@pytest.mark.kernel_equality
@pytest.mark.parametrize("key", ONLINE)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("s", [0.0, 1.0, 0.1])
def test_estimator_equals_readable_rule(key, sparse, s):
    spec = registry.get(key)
    Xin, X, y, K = stream(7, sparse)
    W_ref, mistakes_ref = readable_run(spec, X, y, K, s)
    est = spec.make(fit_intercept=s > 0, intercept_scaling=s or 1.0)
    mistakes = est.learn_stream(Xin, y, classes=np.arange(K))
    W = np.hstack([est.coef_, (est.intercept_ / s)[:, None]]) if s > 0 else est.coef_
    scale = max(1.0, np.abs(W_ref).max())
    assert np.allclose(W, W_ref, rtol=1e-9, atol=1e-9 * scale)
    assert np.array_equal(mistakes, mistakes_ref)
    assert est.n_updates_ > 5


@pytest.mark.parametrize("key", registry.keys(online=True, task=None))
def test_defaults_and_grid_satisfy_the_estimators_constraints(key):
    """The registry's defaults, grid values and slider bounds are valid parameters."""
    spec = registry.get(key)
    for h in spec.hypers:
        values = {h.default, *h.grid, *(v for v in (h.low, h.high) if v is not None)}
        for value in values:
            spec.make(**{h.name: value}).check_params()
        assert h.low is None or h.low <= h.default <= h.high


def test_every_estimator_declares_every_parameter_constraint():
    for spec in registry.specs(task=None):
        cls = spec.estimator_class
        missing = set(cls().get_params()) - set(cls._parameter_constraints)
        assert not missing, (cls.__name__, missing)


def test_views_name_known_algorithms_only():
    for view in ("playground", "cw", "compare", "noise", "lesson"):
        assert registry.keys(view=view), view
        assert set(registry.keys(view=view, default=True)) <= set(registry.keys(view=view))
