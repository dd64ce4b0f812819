"""``average``: the estimators' averaged weights equal the explicit mean of the readable rule's
iterates (every online algorithm of the registry), the lazy O(nnz) kernels against a plain
``np.mean`` over the stored iterates; predictions use the average; the state round-trips and
continues bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry

ONLINE = registry.keys(online=True)


def stream(seed: int, n: int = 80, d: int = 5, K: int = 3, sparse: bool = False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.5 if sparse else 1.0))
    y = (X @ rng.normal(size=(d, K)) + 0.7 * rng.normal(size=(n, K))).argmax(axis=1)
    return X, y


def readable_iterates(spec, X, y, K, column, weights=None):
    """Every iterate ``w_t`` (K, D) of the readable rule (the intercept column appended)."""
    Xa = np.hstack([X, np.full((len(y), 1), column)]) if column else X
    learner = spec.readable(covariance="diagonal")
    kwargs = spec.rule_kwargs()
    state = learner.init(Xa.shape[1], K)
    iterates = []
    w = np.ones(len(y)) if weights is None else weights
    for x, label, s in zip(Xa, y, w):
        if s == 0:
            continue  # absent: no iterate either
        state, _ = spec.step(state, x, int(label), weight=float(s), **kwargs)
        iterates.append(learner.weights(state).copy())
    return iterates


def as_coef(W: np.ndarray) -> np.ndarray:
    """Per-class rows as ``coef_`` reports them: for two classes the difference w_1 - w_0."""
    return W[1:] - W[:1] if W.shape[0] == 2 else W


def public_weights(est, column):
    return np.hstack([est.coef_, est.intercept_[:, None] / column]) if column else est.coef_


@pytest.mark.kernel_equality
@pytest.mark.parametrize("key", ONLINE)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("average", [True, 30])
@pytest.mark.parametrize("column", [0.0, 1.0])
def test_average_equals_the_mean_of_the_rule_iterates(key, sparse, average, column):
    spec = registry.get(key)
    K = 3
    X, y = stream(3, K=K, sparse=sparse)
    start = 1 if average is True else average
    iterates = readable_iterates(spec, X, y, K, column)
    expected = np.mean(iterates[start - 1 :], axis=0)  # w_t for t >= start (1-based)
    est = spec.make(average=average, fit_intercept=column > 0, intercept_scaling=column or 1.0)
    Xin = sp.csr_matrix(X) if sparse else X
    mistakes = np.concatenate(
        [  # three calls: the sums carry over
            est.learn_stream(Xin[part], y[part], classes=np.arange(K))
            for part in np.array_split(np.arange(len(y)), 3)
        ]
    )
    got = public_weights(est, column)
    # the progressive mistakes are the averaged model's (the raw one's before any average)
    Xa = np.hstack([X, np.full((len(y), 1), column)]) if column else X
    differs = 0  # examples where the raw model would predict another class
    for t in range(1, len(y) + 1):  # example t (1-based), predicted with w_bar_{t-1}
        before = iterates[start - 1 : t - 1]
        raw = iterates[t - 2] if t > 1 else 0 * iterates[0]
        W = np.mean(before, axis=0) if before else raw
        scores = W @ Xa[t - 1]
        differs += np.argmax(scores) != np.argmax(raw @ Xa[t - 1])
        top = np.sort(scores)[-2:]
        if top[1] - top[0] > 1e-9 * max(1.0, abs(top[1])):  # not a (rounding-decided) tie
            assert mistakes[t - 1] == (np.argmax(scores) != y[t - 1]), t
    assert differs > 0 or average is not True  # (the averages from example 30 on may agree)
    assert np.allclose(got, expected, rtol=1e-9, atol=1e-9 * max(1.0, np.abs(expected).max()))
    raw = est.get_state()["coef"]  # the raw weights stay in the state
    assert np.allclose(raw, iterates[-1][:, : X.shape[1]], rtol=1e-9, atol=1e-9)
    assert not np.allclose(got, iterates[-1])  # the average is another point
    # predictions use the average
    scores = X @ est.coef_.T + est.intercept_
    assert np.allclose(est.decision_function(X), scores, rtol=1e-12, atol=1e-12)
    assert np.array_equal(est.predict(X), est.classes_[np.argmax(scores, axis=1)])


@pytest.mark.parametrize("key", ["perceptron", "spa1", "arow", "scw2"])
def test_fit_epochs_average_over_every_epoch(key):
    spec = registry.get(key)
    X, y = stream(4)
    iterates = readable_iterates(spec, np.vstack([X, X]), np.r_[y, y], 3, 0.0)
    est = spec.make(average=True, epochs=2, shuffle=False, fit_intercept=False).fit(X, y)
    expected = as_coef(np.mean(iterates, axis=0))
    assert np.allclose(est.coef_, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())


@pytest.mark.parametrize("key", ["pa2", "spa", "cw", "arow"])
def test_average_with_weights_and_a_class_joining_midstream(key):
    spec = registry.get(key)
    X, y = stream(5, K=4)
    y = np.where(np.arange(len(y)) < 20, np.minimum(y, 1), y)  # classes 2, 3 join later
    w = np.random.default_rng(0).choice([0.0, 0.5, 1.0, 2.0], size=len(y))
    est = spec.make(average=True)
    est.partial_fit(X, y, sample_weight=w)
    # reference: the rule on the grown class set; earlier iterates had zero rows there
    learner, kwargs = spec.readable(covariance="diagonal"), spec.rule_kwargs()
    state, seen, iterates = learner.init(X.shape[1], 1), [int(y[w > 0][0])], []
    for x, label, s in zip(X, y, w):
        if s == 0:
            continue
        if label not in seen:
            seen.append(int(label))
            state = learner.grow(state, sorted(seen).index(label))
        if len(seen) > 1:
            state, _ = spec.step(state, x, sorted(seen).index(label), weight=float(s), **kwargs)
        iterates.append((sorted(seen), learner.weights(state).copy()))
    padded = []
    for labels, W in iterates:
        full = np.zeros((4, X.shape[1]))
        full[labels] = W
        padded.append(full)
    expected = as_coef(np.mean(padded, axis=0))
    assert np.allclose(est.coef_, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())


@pytest.mark.parametrize("key", ["perceptron", "spa1", "arow", "scw1"])
@pytest.mark.parametrize("average", [True, 50])
def test_state_round_trip_continues_bit_for_bit(key, average):
    spec = registry.get(key)
    X, y = stream(6, n=120)
    a = spec.make(average=average, fit_intercept=True).partial_fit(X[:60], y[:60])
    state = a.get_state()
    assert {"average_sum", "average_sum_intercept", "average_counts"} <= set(state)
    b = spec.make(average=average, fit_intercept=True).set_state(state)
    assert np.array_equal(a.coef_, b.coef_)
    a.partial_fit(X[60:], y[60:])
    b.partial_fit(X[60:], y[60:])
    sa, sb = a.get_state(), b.get_state()
    for k in sa:
        if isinstance(sa[k], np.ndarray):
            assert np.array_equal(sa[k], sb[k]), k
    assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)
    with pytest.raises(ValueError, match="average"):  # the state was built for averaging
        spec.make(fit_intercept=True).set_state(state)


def test_average_off_is_the_plain_model():
    spec = registry.get("spa1")
    X, y = stream(7)
    a = spec.make(average=False, random_state=0).fit(X, y)
    b = spec.make(random_state=0).fit(X, y)
    assert np.array_equal(a.coef_, b.coef_)
    assert "average_sum" not in a.get_state()
    assert a.coef_.base is not None  # still a view of the kernel's buffer
