"""A sample's weight in ``olearn.river.Classifier`` (issue 33, item 5, River's part).

``learn_one(x, y, w)`` / ``learn_many(X, y, w)`` give the weight the estimators' meaning: the
stream equals ``partial_fit(X, y, sample_weight=...)`` on the same rows (the validated path);
a weight 0 is the sample's absence; River's ``progressive_val_score`` passes a dataset's
``w`` (before, ``learn_one`` took none and River dropped it without a word).  A rule with no
price to scale (hard PA, SPA, CW) warns once per model.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from river import evaluate, metrics

from olearn import registry
from olearn.river import Classifier

ONLINE = registry.keys(online=True)
PRESENCE = ["pa", "pa-mistakes", "spa", "cw"]  # any weight > 0 is the constraint's presence


def weighted_stream(seed: int, n: int = 50):
    rng = np.random.default_rng(seed)
    xs = [{f"f{j}": float(v) for j, v in enumerate(rng.normal(size=4)) if v > -0.8} or {"f0": 1.0}
          for _ in range(n)]  # fmt: skip
    ys = [int(v) for v in rng.integers(3, size=n)]
    ws = [float(v) for v in rng.choice([0.0, 0.25, 1.0, 3.0], size=n)]
    return xs, ys, ws


def same_state(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k]) if isinstance(a[k], np.ndarray) else a[k] == b[k] for k in a
    )


@pytest.mark.parametrize("key", ONLINE)
def test_weights_equal_partial_fit_with_sample_weight(key):
    xs, ys, ws = weighted_stream(7)
    model = Classifier(key, classes=[0, 1, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the hard rules' notice
        for x, y, w in zip(xs, ys, ws):
            model.learn_one(x, y, w=w)
    column = {name: j for j, name in enumerate(model.feature_names)}
    X = sp.lil_matrix((len(xs), model.estimator.n_features_in_))
    for i, x in enumerate(xs):
        for name, v in x.items():
            X[i, column[name]] = v
    weights = np.array(ws)
    reference = registry.get(key).make()
    reference.partial_fit(X.tocsr(), np.array(ys), classes=[0, 1, 2], sample_weight=weights)
    assert same_state(model.estimator.get_state(), reference.get_state())
    assert model.estimator.t_ == sum(w > 0 for w in ws) < len(ws)


@pytest.mark.parametrize("key", ["pa1", "arow", "perceptron"])
def test_learn_many_weights_equal_learn_one(key):
    xs, ys, ws = weighted_stream(8)
    one, many = Classifier(key), Classifier(key)
    for x, y, w in zip(xs, ys, ws):
        one.learn_one(x, y, w=w)
    many.learn_many(pd.DataFrame(xs[:20]), pd.Series(ys[:20]), w=pd.Series(ws[:20]))
    many.learn_many(pd.DataFrame(xs[20:]), pd.Series(ys[20:]), w=np.array(ws[20:]))
    assert one.feature_names == many.feature_names
    assert same_state(one.estimator.get_state(), many.estimator.get_state())
    scalar = Classifier(key)
    scalar.learn_many(pd.DataFrame(xs), pd.Series(ys), w=3.0)
    for x, y in zip(xs, ys):
        one.learn_one(x, y, w=3.0)
    assert scalar.estimator.t_ == len(xs)


def test_a_weight_of_zero_is_the_samples_absence():
    model = Classifier("pa1")
    model.learn_one({"a": 1.0}, "x", w=0.0)
    assert model.predict_one({"a": 1.0}) is None and model.feature_names == []
    model.learn_one({"a": 1.0}, "x")
    model.learn_one({"b": 1.0}, "y", w=0)
    assert model.estimator.classes_.tolist() == ["x"] and model.feature_names == ["a"]
    assert model.estimator.t_ == 1


def test_progressive_validation_passes_the_datasets_weights():
    """River forwards ``w`` to a ``learn_one`` that takes it: with every weight 0 nothing is
    learned (before, the weights never reached the model)."""
    data = [({"a": float(i % 3)}, i % 2 == 0, {"w": 0.0}) for i in range(20)]
    model = Classifier("pa1")
    evaluate.progressive_val_score(data, model, metrics.Accuracy())
    assert not hasattr(model.estimator, "engine_")
    heavy = [(x, y, {"w": 2.0}) for x, y, _ in data]
    plain = [(x, y) for x, y, _ in data]
    a, b = Classifier("pa1", C=0.1), Classifier("pa1", C=0.2)  # PA-I prices w C
    evaluate.progressive_val_score(heavy, a, metrics.Accuracy())
    evaluate.progressive_val_score(plain, b, metrics.Accuracy())
    assert same_state({**a.estimator.get_state(), "params": None},
                      {**b.estimator.get_state(), "params": None})  # fmt: skip


@pytest.mark.parametrize("key", PRESENCE)
def test_a_rule_without_a_price_warns_once_per_model(key):
    model, plain = Classifier(key), Classifier(key)
    with pytest.warns(UserWarning, match="no price to scale") as caught:
        for i in range(6):
            model.learn_one({"a": 1.0, "b": float(i)}, i % 3, w=2.5)
            plain.learn_one({"a": 1.0, "b": float(i)}, i % 3)
        model.learn_many(pd.DataFrame([{"a": 1.0}]), pd.Series([1]), w=4.0)
        model.clone().learn_one({"a": 1.0}, 0, w=2.0)  # a new model: warned again
    assert len([w for w in caught if "no price" in str(w.message)]) == 2
    plain.learn_one({"a": 1.0}, 1)
    assert same_state(model.estimator.get_state(), plain.estimator.get_state())  # w = 1's


@pytest.mark.parametrize("key", sorted(set(ONLINE) - set(PRESENCE)))
def test_rules_with_a_price_or_a_scaled_step_do_not_warn(key):
    model = Classifier(key)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for i in range(4):
            model.learn_one({"a": 1.0, "b": float(i)}, i % 2, w=0.5)
    assert model.estimator.t_ == 4


@pytest.mark.parametrize("w", [-1.0, float("nan"), float("inf"), "2", None, True, [1.0]])
def test_a_bad_weight_is_refused_and_changes_nothing(w):
    model = Classifier("pa1")
    model.learn_one({"a": 1.0}, "x")
    before = model.estimator.get_state()
    with pytest.raises(ValueError, match="finite number >= 0"):
        model.learn_one({"a": 1.0, "new": 1.0}, "y", w=w)
    assert same_state(before, model.estimator.get_state()) and model.feature_names == ["a"]
    frame = pd.DataFrame([{"a": 1.0}, {"a": 2.0}])
    for bad in ([1.0], [1.0, -1.0], ["a", "b"], w):
        with pytest.raises(ValueError, match="w must|finite number >= 0"):
            model.learn_many(frame, pd.Series(["x", "y"]), w=bad)
    assert same_state(before, model.estimator.get_state())
