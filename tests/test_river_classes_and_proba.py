"""``olearn.river.Classifier``'s declared labels and probability maps (issue 33, items 3-4).

- ``classes=[...]``: the model has its labels before the first sample, so it learns from the
  first one; the stream equals the estimator's own ``partial_fit(X, y, classes=...)`` on the
  same rows (the validated path, an independent door), labels not declared still join, and
  ``learn_many`` equals ``learn_one``.  Bad declarations are refused at construction and
  ``clone()`` keeps the declaration.
- ``predict_proba_one`` answers for every algorithm, so River's ROCAUC and LogLoss run;
  ``"softmax"`` is checked against the formula computed by hand on a model whose weights
  are known by hand, ``"gaussian"`` against the estimators' ``predict_proba``.
(River's own PA is the reference of the binary case: tests/test_river_pa_parity.py.)
"""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from river import datasets, evaluate, metrics

from olearn import registry
from olearn.river import Classifier

ONLINE = registry.keys(online=True)
CW = set(registry.keys(family="cw"))


def stream(seed: int, n: int = 60):
    """Dicts over five names and labels 0, 1, 2, of which 2 first appears at row 30."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for t in range(n):
        x = {f"f{j}": float(v) for j, v in enumerate(rng.normal(size=5)) if rng.random() < 0.8}
        xs.append(x or {"f0": 1.0})
        ys.append(2 if t == 30 else int(rng.integers(3 if t > 30 else 2)))
    return xs, ys


def same_state(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k]) if isinstance(a[k], np.ndarray) else a[k] == b[k] for k in a
    )


# --- declared labels ----------------------------------------------------------------------


@pytest.mark.parametrize("key", ONLINE)
def test_declared_classes_equal_partial_fit_with_classes(key):
    """Labels 0 and 1 declared, 2 joins at row 30: ``partial_fit(X, y, classes=[0, 1])`` on
    the same rows (the width the stream ended with) is the reference."""
    xs, ys = stream(4)
    model = Classifier(key, classes=[1, 0])
    for x, y in zip(xs, ys):
        model.learn_one(x, y)
    width = model.estimator.n_features_in_
    column = {name: j for j, name in enumerate(model.feature_names)}
    X = sp.lil_matrix((len(xs), width))
    for i, x in enumerate(xs):
        for name, v in x.items():
            X[i, column[name]] = v
    reference = registry.get(key).make().partial_fit(X.tocsr(), np.array(ys), classes=[0, 1])
    ours = model.estimator.get_state()
    assert ours["classes"].tolist() == [0, 1, 2]  # sorted, as partial_fit keeps them
    assert same_state(ours, reference.get_state())


@pytest.mark.parametrize("key", ["pa1", "spa", "arow", "perceptron"])
def test_a_binary_stream_learns_from_its_first_sample(key):
    declared, undeclared = Classifier(key, classes=["no", "yes"]), Classifier(key)
    assert declared.predict_one({"a": 1.0}) == "no"  # the fresh model: ties to the first
    assert undeclared.predict_one({"a": 1.0}) is None
    for model in (declared, undeclared):
        model.learn_one({"a": 1.0}, "yes")
    assert declared.estimator.n_updates_ == 1 and declared.predict_one({"a": 1.0}) == "yes"
    assert undeclared.estimator.n_updates_ == 0  # one class, no rival: nothing to learn


@pytest.mark.parametrize("key", ["pa1", "scw2"])
def test_learn_many_with_declared_classes_equals_learn_one(key):
    xs, ys = stream(5)
    one, many = Classifier(key, classes=[0, 1]), Classifier(key, classes=[0, 1])
    for x, y in zip(xs, ys):
        one.learn_one(x, y)
    for lo, hi in [(0, 1), (1, 31), (31, 60)]:  # the first call holds one label only
        many.learn_many(pd.DataFrame(xs[lo:hi]), pd.Series(ys[lo:hi]))
    assert same_state(one.estimator.get_state(), many.estimator.get_state())


@pytest.mark.parametrize(
    ("classes", "match"),
    [
        ("ab", "a list of labels"),
        (5, "a list of labels"),
        ({"a": 1}, "a list of labels"),
        ([], "at least one label"),
        ([1, 2, 1], r"classes\[2\] = 1 repeats classes\[0\]"),
        ([1, True], r"classes\[1\] = True repeats classes\[0\] = 1"),
        ([0, None], r"classes\[1\] is None"),
        ([float("nan"), 0], r"classes\[0\] is nan"),
        ([np.nan], "None and NaN are no labels"),
        ([pd.NA, 1], "None and NaN are no labels"),
        ([[1], 2], r"classes\[0\] = \[1\] \(a list\) is not hashable"),
    ],
)
def test_bad_declared_classes_are_refused_at_construction(classes, match):
    with pytest.raises(ValueError, match=match):
        Classifier("pa1", classes=classes)


def test_clone_keeps_the_declaration_and_the_map():
    model = Classifier("arow", classes=(False, True), proba="softmax", r=0.5)
    model.learn_one({"a": 1.0}, True)
    clone = model.clone()
    assert (clone.classes, clone.proba, clone.params) == ((False, True), "softmax", {"r": 0.5})
    assert not hasattr(clone.estimator, "engine_")
    assert clone.predict_proba_one({"a": 1.0}) == {False: 0.5, True: 0.5}
    assert repr(clone) == repr(model)


def test_labels_of_mixed_kinds_can_be_declared():
    model = Classifier("spa", classes=["b", 3, ("t", 1)])
    assert set(model.predict_proba_one({"u": 1.0})) == {"b", 3, ("t", 1)}
    model.learn_one({"u": 1.0}, ("t", 1))
    assert model.estimator.classes_.tolist() == ["b", 3, ("t", 1)]  # declaration order
    assert model.predict_one({"u": 1.0}) == ("t", 1)


# --- probabilities --------------------------------------------------------------------------


@pytest.mark.parametrize("key", ONLINE)
@pytest.mark.parametrize("classes", [None, [False, True]])
def test_rocauc_and_logloss_run_for_every_model(key, classes):
    """River's binary probability metrics in progressive validation (they failed with
    NotImplementedError for the Perceptron, PA and SPA)."""
    model = Classifier(key, **({} if classes is None else {"classes": classes}))
    metric = metrics.ROCAUC() + metrics.LogLoss()
    evaluate.progressive_val_score(itertools.islice(datasets.Phishing(), 300), model, metric)
    auc, loss = (float(m.get()) for m in metric)
    assert 0.5 < auc <= 1.0 and 0.0 < loss < math.inf


def test_softmax_by_hand_three_classes():
    """One Perceptron step on x = (u: 1), y = "b" from zero weights: the prediction is "a"
    (ties go to the first class), a mistake, so w_b = +x and w_a = -x (the rival), w_c = 0.
    At x = (u: 2) the scores are (-2, 2, 0)."""
    model = Classifier("perceptron", classes=["a", "b", "c"])
    assert model.predict_proba_one({"u": 1.0}) == {"a": 1 / 3, "b": 1 / 3, "c": 1 / 3}
    model.learn_one({"u": 1.0}, "b")
    e = [math.exp(-2.0), math.exp(2.0), math.exp(0.0)]
    expected = dict(zip("abc", (v / sum(e) for v in e)))
    assert model.predict_proba_one({"u": 2.0}) == pytest.approx(expected, rel=1e-15)
    frame = model.predict_proba_many(pd.DataFrame([{"u": 2.0}, {"v": 1.0}]))
    assert frame.iloc[0].to_dict() == model.predict_proba_one({"u": 2.0})
    assert frame.iloc[1].to_dict() == {"a": 1 / 3, "b": 1 / 3, "c": 1 / 3}  # a name never seen


def test_sigmoid_by_hand_two_classes():
    """One PA-I step (C = 1/4) on x = (u: 1), y = True from zero weights: loss 1, each row
    moves by t = min(C, 1 / (2 ||x||^2)) = 1/4, so the margin w_1 - w_0 is 1/2 per unit of u.
    River's sigmoid: 0 below -30, 1 above 30."""
    model = Classifier("pa1", classes=[False, True], C=0.25)
    assert model.predict_proba_one({"u": 3.0}) == {False: 0.5, True: 0.5}
    model.learn_one({"u": 1.0}, True)
    for u, m in [(2.0, 1.0), (-3.0, -1.5)]:
        p = 1.0 / (1.0 + math.exp(-m))
        got = model.predict_proba_one({"u": u})
        assert got[True] == pytest.approx(p, rel=1e-15) and got[False] == 1.0 - got[True]
    assert model.predict_proba_one({"u": 61.0}) == {False: 0.0, True: 1.0}  # m = 30.5
    assert model.predict_proba_one({"u": -61.0}) == {False: 1.0, True: 0.0}
    assert model.predict_proba_one({"u": 59.0})[True] < 1.0  # m = 29.5


@pytest.mark.parametrize("covariance", ["diagonal", "full"])
def test_gaussian_is_the_estimators_predict_proba(covariance):
    """The CW family's default map, computed on the engine, equals the estimator's own
    ``predict_proba`` (``probability=True``) on the same rows."""
    xs, ys = stream(6)
    model = Classifier("arow", covariance=covariance, fit_intercept=True)
    for x, y in zip(xs, ys):
        model.learn_one(x, y)
    reference = registry.get("arow").make(covariance=covariance, fit_intercept=True,
                                          probability=True)  # fmt: skip
    reference.set_state(model.estimator.get_state())
    X = model._matrix(*model._batch(xs[-10:]))
    expected = reference.predict_proba(X)
    got = np.array([list(model.predict_proba_one(x).values()) for x in xs[-10:]])
    assert np.allclose(got, expected, rtol=1e-12, atol=0)
    soft = Classifier("arow", proba="softmax", covariance=covariance, fit_intercept=True)
    for x, y in zip(xs, ys):
        soft.learn_one(x, y)
    scores = soft.estimator.decision_function(X)
    z = np.exp(scores - scores.max(axis=1, keepdims=True))
    soft_rows = [list(soft.predict_proba_one(x).values()) for x in xs[-10:]]
    assert np.allclose(soft_rows, z / z.sum(axis=1, keepdims=True), rtol=1e-12, atol=0)
