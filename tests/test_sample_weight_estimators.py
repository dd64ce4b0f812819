"""``sample_weight`` / ``class_weight`` through every estimator of the registry.

- weight 0 is the example's absence, bit for bit, for every estimator (``fit`` with its
  shuffle, and ``partial_fit`` streams; the state of ``get_state``, or the batch models'
  coefficients and scores);
- the online estimators, weighted, equal their readable rules run with the same weights
  (kernel == rule, dense and CSR, with and without the intercept column);
- ``class_weight`` is ``sample_weight`` by class; "balanced" is scikit-learn's;
- the batch models: CS-SVM's weighted optimum is the optimum on repeated rows (and
  LIBLINEAR's with the same weights); PCVM's weights are tested in ``test_pcvm_weights.py``;
  SGD-SVM's kernel equals its readable rule with weights.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import LinearSVC
from sklearn.utils.class_weight import compute_class_weight

from olearn import registry
from olearn.core.cs_svm import objective_from_coef
from olearn.core.sgd_svm import sgd_init, sgd_step
from olearn.estimators import CrammerSingerSVC, SGDSVMClassifier

ONLINE = registry.keys(online=True)
EVERY = [spec.key for spec in registry.ALGORITHMS]
# rules whose step is a hard constraint: a positive weight is the constraint's presence
HARD = {"pa", "spa", "pa-mistakes", "cw"}


def problem(seed: int, binary: bool = False, n: int = 80, d: int = 6):
    rng = np.random.default_rng(seed)
    K = 2 if binary else 3
    X = rng.normal(size=(n, d))
    y = (X @ rng.normal(size=(d, K)) + 0.8 * rng.normal(size=(n, K))).argmax(axis=1)
    return X, y


def weights_with_zeros(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w = rng.choice([0.0, 0.3, 1.0, 2.5], size=n)
    w[:3] = [0.0, 1.0, 2.0]  # the first row absent: its label must not join early either
    return w


def model_of(est) -> dict:
    """Everything the model is: the public state, or the batch models' numbers."""
    if hasattr(est, "get_state"):
        return est.get_state()
    return {"coef": np.atleast_1d(getattr(est, "coef_", est.__dict__.get("dual_coef_"))),
            "intercept": np.atleast_1d(est.intercept_)}  # fmt: skip


def assert_same_model(a, b, X):
    ma, mb = model_of(a), model_of(b)
    assert ma.keys() == mb.keys()
    for key in ma:
        if isinstance(ma[key], np.ndarray):
            assert np.array_equal(ma[key], mb[key]), key
        else:
            assert ma[key] == mb[key], key
    assert np.array_equal(a.decision_function(X), b.decision_function(X))


@pytest.mark.parametrize("key", EVERY)
def test_zero_weight_is_absence_in_fit(key):
    spec = registry.get(key)
    X, y = problem(1, binary=key.startswith("pcvm"))
    w = weights_with_zeros(2, len(y))
    keep = w > 0
    weighted = spec.make(random_state=0).fit(X, y, sample_weight=w)
    without = spec.make(random_state=0).fit(X[keep], y[keep], sample_weight=w[keep])
    assert_same_model(weighted, without, X)
    if key not in HARD:  # and the weights matter
        plain = spec.make(random_state=0).fit(X[keep], y[keep])
        assert not np.array_equal(plain.decision_function(X), weighted.decision_function(X))


@pytest.mark.parametrize("key", [k for k in EVERY if hasattr(registry.get(k).make(), "get_state")])
@pytest.mark.parametrize("sparse", [False, True])
def test_zero_weight_is_absence_in_a_stream(key, sparse):
    spec = registry.get(key)
    X, y = problem(3)
    Xs = sp.csr_matrix(X) if sparse else X
    w = weights_with_zeros(4, len(y))
    keep = w > 0
    classes = np.unique(y) if key.startswith("sgd") else None  # SGD-SVM cannot add classes
    a, b = spec.make(), spec.make()
    for part in np.array_split(np.arange(len(y)), 3):
        a.partial_fit(Xs[part], y[part], classes=classes, sample_weight=w[part])
        kept = part[keep[part]]
        b.partial_fit(Xs[kept], y[kept], classes=classes, sample_weight=w[kept])
    assert_same_model(a, b, X)
    assert a.t_ == keep.sum()  # an absent example is not counted either


@pytest.mark.parametrize("key", ["spa1", "arow", "sgd-svm"])
def test_all_zero_batch_is_an_absent_call(key):
    spec = registry.get(key)
    X, y = problem(5)
    classes = np.unique(y)
    a = spec.make().partial_fit(X[:20], y[:20], classes=classes)
    state = a.get_state()
    mistakes = a.learn_stream(X[20:30], y[20:30], sample_weight=np.zeros(10))
    assert not mistakes.any() and mistakes.shape == (10,)
    after = a.get_state()
    assert all(np.array_equal(state[k], after[k]) for k in state if k != "params")
    fresh = spec.make()
    fresh.partial_fit(X[:5], y[:5], classes=classes, sample_weight=np.zeros(5))
    assert not hasattr(fresh, "classes_")  # still unfitted
    with pytest.raises(ValueError, match="weight.*zero|zero.*weight"):
        spec.make().fit(X, y, sample_weight=np.zeros(len(y)))


def readable_weighted_run(spec, X, y, K, w, column):
    """The readable rule, sample by sample, each step given its example's weight; rows of
    weight 0 skipped (absent)."""
    Xa = np.hstack([X, np.full((len(y), 1), column)]) if column else X
    learner = spec.readable(covariance="diagonal")
    kwargs = spec.rule_kwargs()
    state = learner.init(Xa.shape[1], K)
    mistakes = []
    for x, label, s in zip(Xa, y, w):
        if s == 0:
            mistakes.append(False)
            continue
        mistakes.append(int(np.argmax(learner.weights(state) @ x)) != label)
        state, _ = spec.step(state, x, int(label), weight=float(s), **kwargs)
    return learner.weights(state), np.array(mistakes)


@pytest.mark.kernel_equality
@pytest.mark.parametrize("key", ONLINE)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("K", [2, 4])
@pytest.mark.parametrize("column", [0.0, 1.0])
def test_weighted_estimator_equals_weighted_readable_rule(key, sparse, K, column):
    spec = registry.get(key)
    rng = np.random.default_rng(7)
    n, d = 90, 6
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.5 if sparse else 1.0))
    y = (X @ rng.normal(size=(d, K)) + 0.7 * rng.normal(size=(n, K))).argmax(axis=1)
    w = rng.choice([0.0, 0.2, 1.0, 3.0], size=n)
    W_ref, mistakes_ref = readable_weighted_run(spec, X, y, K, w, column)
    est = spec.make(fit_intercept=column > 0)
    Xin = sp.csr_matrix(X) if sparse else X
    mistakes = est.learn_stream(Xin, y, classes=np.arange(K), sample_weight=w)
    state = est.get_state()  # the per-class rows (coef_ is w_1 - w_0 for two classes)
    W = state["coef"]
    if column:
        W = np.hstack([W, column * state["intercept_weight"][:, None]])
    scale = max(1.0, np.abs(W_ref).max())
    assert np.allclose(W, W_ref, rtol=1e-9, atol=1e-9 * scale)
    assert np.array_equal(mistakes, mistakes_ref)
    assert est.n_updates_ > 5


@pytest.mark.parametrize("key", EVERY)
def test_class_weight_is_sample_weight_by_class(key):
    spec = registry.get(key)
    binary = key.startswith("pcvm")
    X, y = problem(6, binary=binary)
    by_class = {0: 2.0, 1: 1.0} if binary else {0: 2.0, 2: 0.5}  # class 1 of three: 1
    w = np.array([by_class.get(label, 1.0) for label in y])
    a = spec.make(random_state=0, class_weight=by_class).fit(X, y)
    b = spec.make(random_state=0).fit(X, y, sample_weight=w)
    assert_same_model(a, b, X)
    balanced = compute_class_weight("balanced", classes=np.unique(y), y=y)[y]
    c = spec.make(random_state=0, class_weight="balanced").fit(X, y)
    d = spec.make(random_state=0).fit(X, y, sample_weight=balanced)
    assert_same_model(c, d, X)


@pytest.mark.parametrize("key", ONLINE + ["sgd-svm"])
def test_partial_fit_refuses_balanced(key):
    X, y = problem(0)
    est = registry.get(key).make(class_weight="balanced")
    with pytest.raises(ValueError, match="compute_class_weight"):
        est.partial_fit(X, y, classes=np.unique(y))


@pytest.mark.parametrize("key", ["perceptron", "pa2", "spa", "cw", "scw1", "sgd-svm"])
def test_unit_weights_are_the_plain_path(key):
    spec = registry.get(key)
    X, y = problem(9)
    a = spec.make(random_state=0).fit(X, y, sample_weight=np.ones(len(y)))
    b = spec.make(random_state=0).fit(X, y)
    assert_same_model(a, b, X)


def test_bad_weights_are_refused():
    X, y = problem(0)
    est = registry.get("pa1").make()
    for bad, match in [
        (-np.ones(len(y)), ">= 0"),
        (np.ones(len(y) + 1), "shape"),
        (np.full(len(y), np.nan), "NaN|infinity"),
    ]:
        with pytest.raises(ValueError, match=match):
            est.fit(X, y, sample_weight=bad)
    with pytest.raises(ValueError, match="class_weight"):
        registry.get("pa1").make(class_weight={0: -1.0}).fit(X, y)


# --- the batch models ----------------------------------------------------------------------


def weighted_cs_objective(est, X, y_idx, C, w):
    """``1/2 ||W||^2 + C sum_i s_i xi_i`` from a fitted model's coef_ / intercept_."""
    per_row = [
        objective_from_coef(est.coef_, est.intercept_, X[i : i + 1], y_idx[i : i + 1], C)
        for i in range(len(y_idx))
    ]  # each = 1/2 ||W||^2 + C xi_i
    zero = objective_from_coef(est.coef_, est.intercept_, X[:0], y_idx[:0], C)
    return zero + float(np.dot(w, np.array(per_row) - zero))


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_cs_svm_integer_weights_are_repeated_rows(C):
    X, y = problem(11, n=60)
    w = np.random.default_rng(1).integers(0, 4, size=len(y)).astype(float)
    weighted = CrammerSingerSVC(C=C, tol=1e-8, max_iter=100000, random_state=0)
    weighted.fit(X, y, sample_weight=w)
    Xr, yr = X.repeat(w.astype(int), axis=0), y.repeat(w.astype(int))
    repeated = CrammerSingerSVC(C=C, tol=1e-8, max_iter=100000, random_state=0).fit(Xr, yr)
    # the weighted primal is the repeated rows' primal, computed independently of either fit
    P_w = objective_from_coef(weighted.coef_, weighted.intercept_, Xr, yr, C)
    P_r = objective_from_coef(repeated.coef_, repeated.intercept_, Xr, yr, C)
    assert weighted.objective_ == pytest.approx(P_w, rel=1e-10)
    assert P_w == pytest.approx(P_r, rel=1e-7)
    assert np.allclose(weighted.coef_, repeated.coef_, atol=1e-4 * np.abs(repeated.coef_).max())
    assert weighted.alpha_.shape == (len(y), 3) and not weighted.alpha_[w == 0].any()


def test_cs_svm_fractional_weights_match_liblinear():
    X, y = problem(12, n=70)
    w = np.random.default_rng(2).uniform(0.1, 3.0, size=len(y))
    C = 0.5
    ours = CrammerSingerSVC(C=C, tol=1e-8, max_iter=100000, random_state=0)
    ours.fit(X, y, sample_weight=w)
    lin = LinearSVC(multi_class="crammer_singer", C=C, tol=1e-8, max_iter=500000, random_state=0)
    lin.fit(X, y, sample_weight=w)
    P_ours = weighted_cs_objective(ours, X, y, C, w)
    P_lin = weighted_cs_objective(lin, X, y, C, w)
    assert ours.objective_ == pytest.approx(P_ours, rel=1e-10)
    assert P_ours == pytest.approx(P_lin, rel=1e-5)
    assert P_ours <= P_lin * (1 + 1e-6)
    unweighted = CrammerSingerSVC(C=C, tol=1e-8, max_iter=100000, random_state=0).fit(X, y)
    assert weighted_cs_objective(unweighted, X, y, C, w) > P_ours * (1 + 1e-6)


@pytest.mark.kernel_equality
@pytest.mark.parametrize("schedule,regularize", [("global", "all"), ("per-feature", "touched"),
                                                 ("per-feature", "all")])  # fmt: skip
def test_sgd_svm_weighted_kernel_equals_weighted_rule(schedule, regularize):
    X, y = problem(14, binary=True, n=70)
    X = X * (np.random.default_rng(0).random(X.shape) < 0.6)  # features absent now and then
    w = np.random.default_rng(4).choice([0.0, 0.5, 1.0, 4.0], size=len(y))
    kw = dict(lam=0.05, t0=3.0, schedule=schedule, regularize=regularize, bias_rate=0.1)
    est = SGDSVMClassifier(**kw, shuffle=False, epochs=1).fit(X, y, sample_weight=w)
    state = sgd_init(X.shape[1])
    for x, label, s in zip(X, y, w):
        state, _ = sgd_step(state, x, 1.0 if label == 1 else -1.0, weight=s, **kw)
    assert np.allclose(est.coef_[0], state.w, rtol=1e-9, atol=1e-12)
    assert est.intercept_[0] == pytest.approx(state.b, rel=1e-12)
    assert est.t_ == state.t == np.count_nonzero(w)
