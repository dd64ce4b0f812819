"""olearn inside River (issue 18, item 4): every online algorithm of the registry as a River
classifier.

- River's own estimator checks (``river.checks.yield_checks``) pass for every algorithm, and
  for the growing index's alternatives (hashing, an intercept, a full covariance).
- The lean per-sample path equals the estimator's validated ``partial_fit`` on the same rows
  (the estimators equal the readable rules: tests/test_state_and_new_classes.py), with
  feature names and labels that appear mid-stream, so the widening of the model (zero
  weights, the prior variance ``a``) is checked against a model built at the final width.
- ``learn_many`` equals looping ``learn_one``, bit for bit; hashing equals scikit-learn's
  ``FeatureHasher``.
"""

import doctest
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from river import checks

from olearn import registry
from olearn.river import Classifier

ONLINE = registry.keys(online=True)
CW = set(registry.keys(family="cw"))


def _params(key: str, **extra) -> dict:
    """fit_intercept with a column value other than 1; the CW family with a prior a != 1, so
    a widened covariance padded with anything but ``a`` differs from the reference."""
    params = {"fit_intercept": True, "intercept_scaling": 0.5, **extra}
    if key in CW:
        params["a"] = 0.5
    return params


def run_river_checks(model) -> tuple[int, list]:
    """River's ``check_estimator``, counting: (checks run, [(name, error)] of the failed)."""
    run, failed = 0, []
    for check in checks.yield_checks(model):
        if check.__name__ in model._unit_test_skips():
            continue
        run += 1
        try:
            check(model.clone())
        except Exception as err:  # noqa: BLE001 - every failure is reported with its name
            failed.append((check.__name__, repr(err)[:300]))
    return run, failed


CONFIGS = [(key, {}) for key in ONLINE] + [
    ("spa1", {"n_hash_features": 64, "fit_intercept": True}),
    ("arow", {"covariance": "full", "fit_intercept": True}),
    ("scw2", {"n_hash_features": 2**20}),
    ("pa1", {"classes": [False, True]}),  # River's checks stream Phishing, then ImageSegments
    ("arow", {"classes": (False, True), "proba": "softmax"}),
]


@pytest.mark.parametrize(("key", "params"), CONFIGS, ids=[f"{k}-{p}" for k, p in CONFIGS])
def test_river_check_suite(key, params):
    model = Classifier(key, **params)
    assert not model._unit_test_skips()  # nothing skipped (River skips some for its own models)
    run, failed = run_river_checks(model)
    assert run >= 60  # the learn_many / predict_many checks among them (MiniBatchClassifier)
    assert failed == []


def arriving_stream(seed: int, n: int = 150, names: tuple = ()):
    """Dicts whose names appear over time (and leave: each dict holds a random subset, in a
    random order, sometimes with a 0), labels that join mid-stream (0, 9, 40, 90)."""
    rng = np.random.default_rng(seed)
    names = list(names) or [f"f{j}" for j in range(18)] + [3, 7.5]
    labels, arrival = ["b", "a", "d", "c"], [0, 9, 40, 90]
    truth = rng.normal(size=(len(names), len(labels)))
    xs, ys = [], []
    for t in range(n):
        available = names[: 3 + t // 8]
        size = int(rng.integers(1, min(6, len(available)) + 1))
        picked = rng.choice(len(available), size=size, replace=False)
        values = rng.normal(size=size) * (rng.random(size) > 0.1)  # some explicit zeros
        x = {available[j]: float(v) for j, v in zip(picked, values)}
        scores = values @ truth[picked] + 0.5 * rng.normal(size=len(labels))
        scores[[t < a for a in arrival]] = -np.inf  # not arrived yet: never drawn
        xs.append(x)
        ys.append(labels[arrival.index(t)] if t in arrival else labels[int(np.argmax(scores))])
    return xs, ys


def state_of(model) -> dict:
    return model.estimator.get_state()


def assert_same_state(a: dict, b: dict):
    assert set(a) == set(b)
    for key in a:
        if isinstance(a[key], np.ndarray):
            assert np.array_equal(a[key], b[key]), key
        else:
            assert a[key] == b[key], key


@pytest.mark.parametrize("key", ONLINE)
@pytest.mark.parametrize("covariance", ["diagonal", "full"])
def test_learn_one_equals_partial_fit_on_the_same_rows(key, covariance):
    if covariance == "full" and key not in CW:
        pytest.skip("one covariance kind outside the confidence-weighted family")
    extra = {"covariance": covariance} if key in CW else {}
    xs, ys = arriving_stream(1, names=(*[f"f{j}" for j in range(17)], 3, ("t", 1)))
    model = Classifier(key, **_params(key, **extra))
    for x, y in zip(xs, ys):
        model.learn_one(x, y)
    # the reference: the estimator at the final width, every row through its validation
    column = {name: j for j, name in enumerate(model.feature_names)}
    width = model.estimator.n_features_in_
    assert len(column) == 19 and width == 32  # 8 -> 16 -> 32: two widenings mid-stream
    X = sp.lil_matrix((len(xs), width))
    for i, x in enumerate(xs):
        for name, v in x.items():
            X[i, column[name]] = v
    y = np.empty(len(ys), dtype=object)
    y[:] = ys
    reference = registry.get(key).make(**_params(key, **extra)).partial_fit(X.tocsr(), y)
    ours, theirs = state_of(model), reference.get_state()
    assert ours["classes"].tolist() == theirs["classes"].tolist() == ["a", "b", "c", "d"]
    assert_same_state({**ours, "classes": None}, {**theirs, "classes": None})
    assert model.estimator.n_updates_ > 10  # the stream taught something


@pytest.mark.parametrize("key", ONLINE)
@pytest.mark.parametrize("n_hash_features", [None, 16])
def test_learn_many_equals_learn_one(key, n_hash_features):
    xs, ys = arriving_stream(2)
    one = Classifier(key, n_hash_features=n_hash_features, **_params(key))
    many = Classifier(key, n_hash_features=n_hash_features, **_params(key))
    for x, y in zip(xs, ys):
        one.learn_one(x, y)
    bounds = [0, 1, 2, 9, 10, 37, 41, 95, 150]  # labels join at a batch's start and inside
    for lo, hi in zip(bounds, bounds[1:]):
        many.learn_many(pd.DataFrame(xs[lo:hi]), pd.Series(ys[lo:hi]))
    assert one.feature_names == many.feature_names
    assert_same_state(state_of(one), state_of(many))
    X = pd.DataFrame(xs[-30:])
    predicted = many.predict_many(X).tolist()
    assert predicted == [one.predict_one(x) for x in xs[-30:]]
    assert predicted == one.estimator.predict(one._matrix(*one._batch(xs[-30:]))).tolist()
    if key in CW:
        proba = many.predict_proba_many(X)
        for i, x in enumerate(xs[-30:]):
            row = one.predict_proba_one(x)
            assert row == pytest.approx(proba.iloc[i].to_dict(), rel=1e-12)


@pytest.mark.parametrize("key", ["pa1", "arow"])
def test_hashing_equals_sklearn_feature_hasher(key):
    from sklearn.feature_extraction import FeatureHasher

    xs, ys = arriving_stream(3)
    xs = [{str(k): v for k, v in x.items()} for x in xs]
    model = Classifier(key, n_hash_features=8, **_params(key))  # 8 buckets: collisions
    for x, y in zip(xs, ys):
        model.learn_one(x, y)
    X = FeatureHasher(n_features=8, alternate_sign=False).transform(xs)
    y = np.array(ys, dtype=object)
    reference = registry.get(key).make(**_params(key)).partial_fit(X, y)
    ours, theirs = state_of(model), reference.get_state()
    for name in ("coef", "intercept_weight", "covariance"):
        if name in theirs:
            assert np.allclose(ours[name], theirs[name], rtol=1e-12, atol=1e-12), name
    assert ours["n_updates"] == theirs["n_updates"] > 10


def test_labels_of_any_hashable_type_join_at_any_time():
    model = Classifier("spa")
    stream = [({"u": 1.0}, True), ({"v": 1.0}, False), ({"w": 1.0}, 3), ({"u": -1.0}, ("t", 1))]
    assert model.predict_one({"u": 1.0}) is None  # before any sample
    for x, y in stream * 3:
        model.learn_one(x, y)
    assert {model.predict_one(x) for x, _ in stream} == {True, False, 3, ("t", 1)}
    assert model.predict_one({"w": 1.0}) == 3 and model.predict_one({"w": 1.0}) is not True


def test_bool_labels_from_numpy_and_python_are_one_class():
    model = Classifier("arow")
    for x, y in [({"a": 1.0}, np.bool_(True)), ({"b": 1.0}, False), ({"a": 2.0}, True)]:
        model.learn_one(x, y)
    assert set(model.predict_proba_one({"a": 1.0})) == {False, True}


def test_bad_input_is_refused_and_changes_nothing():
    model = Classifier("arow", a=1e99)  # 2 a ||x||^2 within range only for small rows
    model.learn_one({"a": 1.0}, "x")
    before = model.estimator.get_state()
    with pytest.raises(ValueError, match="numeric feature values"):
        model.learn_one({"a": "red"}, "y")
    with pytest.raises(ValueError, match="finite"):
        model.learn_one({"a": float("nan")}, "y")
    with pytest.raises(ValueError, match="margin variance"):  # the estimator's own message
        model.learn_one({"a": 10.0}, "y")
    assert_same_state(before, model.estimator.get_state())


def test_probability_maps_are_named_and_checked():
    cw = Classifier("cw")
    assert cw.predict_proba_one({"a": 1.0}) == {}  # before any sample and label: no answer
    assert cw.predict_proba_many(pd.DataFrame([{"a": 1.0}])).empty
    for bad, match in [({"probability": True}, "no meaning here"), ({"proba": "sigmoid"}, "proba")]:
        with pytest.raises(ValueError, match=match):
            Classifier("cw", **bad)
    with pytest.raises(ValueError, match=r"proba must be None or one of \('softmax',\)"):
        Classifier("pa1", proba="gaussian")  # no Gaussian over PA's weights
    with pytest.raises(ValueError, match="batch algorithm"):
        Classifier("cs-svm")


def test_import_without_river_names_the_extra():
    code = (
        "import sys; sys.modules['river'] = None\n"
        "try:\n    import olearn.river\nexcept ImportError as err:\n    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'olearn[river]'" in out.stdout


def test_readme_example_runs():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme[readme.index("**olearn inside River.**") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    test = doctest.DocTestParser().get_doctest(code, {}, "README: olearn inside River", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted == 9
