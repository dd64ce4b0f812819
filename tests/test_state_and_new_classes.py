"""Classes that join mid-stream, and the public state (issue 18, item 3).

- Every online algorithm of the registry, through its estimator, equals its readable rule
  stepped by hand when classes appear at random times (the very first sample alone, several
  inside one ``partial_fit`` batch, labels that sort between known ones): the rule's state
  grows by a zero row at the same moment and the same column (``ReadableLearner.grow``).
- A model restored from ``get_state`` (or a pickle) continues bit for bit.
- ``set_state`` refuses every malformed state with a message naming the entry.
"""

import bisect
import pickle

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry
from olearn.estimators import AROWClassifier, PAClassifier, SGDSVMClassifier, SPAClassifier
from olearn.estimators.base import OnlineClassifier

ONLINE = registry.keys(online=True)
WITH_STATE = [
    k for k in registry.keys() if issubclass(registry.get(k).estimator_class, OnlineClassifier)
]
LABELS = np.array([30, 10, 70, 20, 50])  # arrival order; sorted order differs


def arriving_stream(seed: int, sparse: bool):
    """X, y where class ``LABELS[k]`` first appears at row ``arrival[k]`` (row 0: the first
    label alone), and the ``partial_fit`` batch bounds, chosen so that classes join inside
    batches as well as at their starts."""
    rng = np.random.default_rng(seed)
    n, d, K = 90, 6, len(LABELS)
    arrival = np.array([0, 3, 11, 12, 40])  # 11 and 12: two classes join in one batch
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.5 if sparse else 1.0))
    scores = X @ rng.normal(size=(d, K)) + 0.7 * rng.normal(size=(n, K))
    scores[np.arange(n)[:, None] < arrival[None, :]] = -np.inf  # not arrived: never drawn
    scores[arrival, np.arange(K)] = np.inf  # each class's first row is its own
    y = LABELS[scores.argmax(axis=1)]
    bounds = [0, 1, 2, 9, 30, 44, 61, n]  # the first batch: one sample, one class
    return (sp.csr_matrix(X) if sparse else X), X, y, bounds


def readable_growing(spec, X, y, s, covariance="diagonal"):
    """The readable rule on X (column ``s`` appended), classes joining at their first row at
    their sorted place; returns (classes, weights, covariance or None, mistakes)."""
    Xa = np.hstack([X, np.full((X.shape[0], 1), s)])
    learner = spec.readable(covariance=covariance)
    classes, state, mistakes = [int(y[0])], learner.init(Xa.shape[1], 1), []
    for x, label in zip(Xa, y.tolist()):
        if label not in classes:
            at = bisect.bisect_left(classes, label)
            classes.insert(at, label)
            state = learner.grow(state, at)
        index = classes.index(label)
        mistakes.append(int(np.argmax(learner.weights(state) @ x)) != index)
        if len(classes) > 1:  # one class: no rival, nothing to learn
            state, _ = learner.step(state, x, index)
    Sigma = getattr(state, "Sigma", None)
    return classes, learner.weights(state), Sigma, np.array(mistakes)


@pytest.mark.kernel_equality
@pytest.mark.parametrize("key", ONLINE)
@pytest.mark.parametrize("sparse", [False, True])
def test_classes_joining_mid_stream_equal_the_readable_rule(key, sparse):
    spec, s = registry.get(key), 0.5
    Xin, X, y, bounds = arriving_stream(3, sparse)
    classes, W_ref, Sigma_ref, mistakes_ref = readable_growing(spec, X, y, s)
    est = spec.make(fit_intercept=True, intercept_scaling=s)
    mistakes = np.concatenate(
        [est.learn_stream(Xin[a:b], y[a:b]) for a, b in zip(bounds, bounds[1:])]
    )
    assert est.classes_.tolist() == classes == sorted(LABELS.tolist())
    W = np.hstack([est.coef_, (est.intercept_ / s)[:, None]])
    scale = max(1.0, np.abs(W_ref).max())
    assert np.allclose(W, W_ref, rtol=1e-9, atol=1e-9 * scale)
    assert np.array_equal(mistakes, mistakes_ref)
    if Sigma_ref is not None:
        assert np.allclose(est.covariance_, Sigma_ref, rtol=1e-9, atol=0)
    assert est.t_ == len(y) and est.n_updates_ > 5


@pytest.mark.parametrize("key", ONLINE)
def test_one_batch_equals_one_call_per_sample(key):
    """Without ``classes=`` every label joins at its first sample, on the first call too, so
    batching does not change the model (what River's learn_many vs learn_one asks)."""
    spec = registry.get(key)
    Xin, _, y, _ = arriving_stream(8, True)
    whole, single = spec.make(), spec.make()
    mistakes = whole.learn_stream(Xin, y)
    one_by_one = np.concatenate(
        [single.learn_stream(Xin[i : i + 1], y[i : i + 1]) for i in range(len(y))]
    )
    assert np.array_equal(mistakes, one_by_one)
    assert _state_equal(whole.get_state(), single.get_state())


@pytest.mark.parametrize("key", ["spa1", "arow"])
def test_full_covariance_grows_too(key):
    spec = registry.get(key)
    Xin, X, y, bounds = arriving_stream(5, False)
    classes, W_ref, Sigma_ref, _ = readable_growing(spec, X, y, 1.0, covariance="full")
    est = spec.make(fit_intercept=True, **({"covariance": "full"} if spec.family == "cw" else {}))
    for a, b in zip(bounds, bounds[1:]):
        est.partial_fit(Xin[a:b], y[a:b])
    W = np.hstack([est.coef_, est.intercept_[:, None]])
    assert np.allclose(W, W_ref, rtol=1e-9, atol=1e-9 * max(1.0, np.abs(W_ref).max()))
    if spec.family == "cw":
        assert np.allclose(est.covariance_, Sigma_ref, rtol=1e-9, atol=1e-12)


def _state_equal(a: dict, b: dict) -> bool:
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], np.ndarray):
            if not (a[key].dtype == b[key].dtype and np.array_equal(a[key], b[key])):
                return False
        elif a[key] != b[key]:
            return False
    return True


@pytest.mark.parametrize(
    "key, extra", [(k, {}) for k in WITH_STATE] + [("scw2", {"covariance": "full"})]
)
def test_a_restored_or_unpickled_model_continues_bit_for_bit(key, extra):
    spec = registry.get(key)
    grows = spec.online  # SGD-SVM (a batch reference) cannot add classes: declare them all
    first = {} if grows else {"classes": LABELS}
    params = {"fit_intercept": True, **({"intercept_scaling": 0.5} if grows else {}), **extra}
    Xin, _, y, bounds = arriving_stream(11, True)
    if not grows:  # SGD-SVM cannot add classes: declare them all
        first = dict(classes=LABELS)
    else:
        first = {}
    est = spec.make(**params)
    est.partial_fit(Xin[:30], y[:30], **first)  # classes join on the way (online ones)
    state = est.get_state()
    restored = spec.make(**params).set_state(state)
    unpickled = pickle.loads(pickle.dumps(est))
    assert _state_equal(restored.get_state(), state)
    if hasattr(est.engine_, "W"):  # coef_ is again a view of the kernel's buffer
        assert np.shares_memory(unpickled.coef_, unpickled.engine_.W)
        assert np.shares_memory(restored.coef_, restored.engine_.W)
    runs = []
    for model in (est, restored, unpickled):
        mistakes = [model.learn_stream(Xin[a:b], y[a:b]) for a, b in [(30, 44), (44, 90)]]
        runs.append((np.concatenate(mistakes), model.get_state()))
    for mistakes, final in runs[1:]:
        assert np.array_equal(mistakes, runs[0][0])
        assert _state_equal(final, runs[0][1])
    assert runs[0][1]["t"] == 90
    state["coef" if "coef" in state else "v"][...] = 7.0  # the state is a copy
    assert not np.any(est.get_state()["coef" if "coef" in state else "v"] == 7.0)


def test_a_pickle_stores_the_weights_once():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 4000)), np.arange(20) % 3
    est = SPAClassifier().partial_fit(X, y)
    assert len(pickle.dumps(est)) < 1.2 * est.engine_.W.nbytes
    est = AROWClassifier().partial_fit(X, y)
    assert len(pickle.dumps(est)) < 1.2 * (est.engine_.W.nbytes + est.engine_.S.nbytes)


def test_set_state_refuses_malformed_states(monkeypatch):
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(30, 4)), np.arange(30) % 3
    state = AROWClassifier(fit_intercept=True).partial_fit(X, y).get_state()
    full = AROWClassifier(covariance="full", fit_intercept=True).partial_fit(X, y).get_state()

    def refused(change, match, est=None, base=state):
        bad = {**base, **change}
        with pytest.raises(ValueError, match=match):
            (
                est or AROWClassifier(fit_intercept=True, covariance=base["params"]["covariance"])
            ).set_state(bad)

    refused({}, r"built for .*'fit_intercept': True.*set_params", AROWClassifier())
    refused({}, r"built for .*'a': 1.0.*'a': 2.0", AROWClassifier(fit_intercept=True, a=2.0))
    refused({"version": 2}, "version")
    refused({"coef": state["coef"][:, :3]}, r"'coef' has shape \(3, 3\), expected \(3, 4\)")
    refused({"coef": np.where(state["coef"] > 0, np.nan, state["coef"])}, "'coef' holds NaN")
    refused({"coef": state["coef"].astype(complex)}, "'coef' must hold real numbers")
    refused({"covariance": -state["covariance"]}, r"'covariance' must be > 0")
    refused({"classes": np.array([0, 1, 1])}, "twice")
    refused({"n_features_in": 0}, "n_features_in")
    refused({"t": -1}, "'t' must be an int >= 0")
    refused({"extra": 1}, r"unexpected keys \['extra'\]")
    singular = np.zeros_like(full["covariance_factor"])
    refused({"covariance_factor": singular}, "singular", base=full)
    est = SGDSVMClassifier().partial_fit(X, y)
    sgd = est.get_state()
    with pytest.raises(ValueError, match="'counts' must hold integers"):
        SGDSVMClassifier().set_state({**sgd, "counts": sgd["counts"] * 1.0})
    monkeypatch.setenv("OLEARN_MAX_BYTES", "100")
    with pytest.raises(ValueError, match="memory budget"):
        AROWClassifier(fit_intercept=True).set_state(state)


def test_a_declared_class_differs_from_one_that_joins_when_it_was_a_rival():
    """Hard PA, 2 features.  After x1 (label 0, rival 1, tau = 1/2) w_0 = x1/2, w_1 = -x1/2,
    so on x1 again class 1 scores -1/2 < 0: a class 2 declared up front (score 0) is then the
    best wrong class (margin 1/2) and is pushed down by tau = 1/4; without it the rival is
    class 1, at margin 1: no step."""
    x1, x2 = [1.0, 0.0], [0.0, 1.0]
    X = np.array([x1, x1, x2])
    declared = PAClassifier().partial_fit(X[:2], [0, 0], classes=[0, 1, 2])
    joined = PAClassifier().partial_fit(X[:2], [0, 0], classes=[0, 1])
    assert declared.coef_[2].tolist() == [-0.25, 0.0]  # rival of step 2, pushed down
    assert joined.get_state()["coef"][1].tolist() == [-0.5, 0.0]  # rival 1 at margin 1: no step
    for est in (declared, joined):
        est.partial_fit(X[2:], [2])
    assert declared.classes_.tolist() == joined.classes_.tolist() == [0, 1, 2]
    assert not np.array_equal(declared.coef_, joined.coef_)


def test_a_declared_class_equals_one_that_joins_while_it_was_never_a_rival():
    """Orthogonal rows: every known class scores 0, so the rival is the lowest wrong index and
    a declared class 5 (the highest) never moves; joining at its first sample is the same."""
    X = np.eye(8)
    y = np.array([0, 1, 0, 2, 1, 5, 2, 5])
    declared = PAClassifier().partial_fit(X[:5], y[:5], classes=[0, 1, 2, 5])
    joined = PAClassifier().partial_fit(X[:5], y[:5], classes=[0, 1, 2])
    assert not declared.coef_[3].any()  # never a rival
    declared.learn_stream(X[5:], y[5:])
    joined.learn_stream(X[5:], y[5:])
    assert joined.classes_.tolist() == [0, 1, 2, 5]
    assert np.array_equal(declared.coef_, joined.coef_)


def test_a_stream_may_start_with_one_class():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    for key in ("spa", "scw1"):
        est = (
            registry.get(key).make(probability=True) if key == "scw1" else registry.get(key).make()
        )
        assert not est.learn_stream(X[:2], ["b", "b"]).any()  # the only class: right
        assert est.predict(X).tolist() == ["b"] * 3
        assert est.decision_function(X).shape == (3, 1) and est.coef_.shape == (1, 2)
        assert est.n_updates_ == 0 and est.t_ == 2 and not est.coef_.any()
        est.partial_fit(X[2:], ["a"])  # "a" sorts before "b": column 0
        assert est.classes_.tolist() == ["a", "b"] and est.predict(X[2:]).tolist() == ["a"]
    assert np.allclose(est.predict_proba(X[:1]).sum(), 1.0)
    with pytest.raises(ValueError, match="at least 2 classes"):
        SPAClassifier().fit(X, ["b"] * 3)  # fit still needs two, as in scikit-learn
    with pytest.raises(ValueError, match="at least 2 classes"):
        SGDSVMClassifier().partial_fit(X, ["b"] * 3)


def test_labels_of_another_type_are_appended():
    """A string after integers cannot be ordered with them: it is appended (object classes_),
    the order ``encode_classes`` falls back to.  (One batch mixing the types is refused by
    scikit-learn's target check, as in ``fit``.)"""
    X = np.eye(4)
    est = SPAClassifier().partial_fit(X[:2], [2, 1])
    mistakes = est.learn_stream(X[[2, 2]], ["x", "x"])
    assert est.classes_.dtype == object and est.classes_.tolist() == [1, 2, "x"]
    assert mistakes.tolist() == [True, False] and est.predict(X[1:3]).tolist() == [1, "x"]


def test_sgd_svm_keeps_a_clear_error_for_a_new_class():
    X = np.eye(4)
    est = SGDSVMClassifier().partial_fit(X[:2], [0, 1])
    with pytest.raises(ValueError, match="cannot add a class mid-stream"):
        est.partial_fit(X[2:], [0, 2])
    assert est.classes_.tolist() == [0, 1] and est.t_ == 2
