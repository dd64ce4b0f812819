"""The engine's one door (issue "One engine, one door"), and the defects of issue "Reliability,
round 4" that sat where the paths into the model meet, each refused there now:

- item 1: a damaged CSR reaches no scipy or kernel code (the door's one scan comes first);
- item 2: a None label given to the River adapter leaves the trained model as it was;
- item 4: ``set_params(average=True)`` between ``partial_fit`` calls is refused (both ways);
- item 5: weights x hyper-parameters outside the rules' range are refused by name, and NHERD
  at the bottom of its C range learns finite numbers;
- item 6: a ``class_weight`` key that names no class is refused, as scikit-learn does;
- item 7: River's NaN labels, a budget refusal of new feature names, the full covariance's
  width limit on ``widen`` and ``set_state``;
- item 8: ``partial_fit(store)`` is all or nothing; ``fit`` on a store of no rows is refused.

Each test compares the whole state before and after a refusal (``get_state``, bit for bit).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from olearn import registry
from olearn._budget import BudgetError
from olearn.estimators import (
    AROWClassifier,
    CWClassifier,
    NHERDClassifier,
    PAClassifier,
    PerceptronClassifier,
    SGDSVMClassifier,
    SPAClassifier,
)
from olearn.estimators.engine import AdditiveEngine, CWEngine
from olearn.kernels.codes import additive_code

ONLINE = registry.keys(online=True)


def same_state(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if x is None or y is None or not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True


def data(n=40, d=5, K=3, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), np.arange(n) % K


# --- the door itself -----------------------------------------------------------------------


def _damaged(X: sp.csr_matrix, how: str) -> sp.csr_matrix:
    X = X.copy()
    if how == "indptr decreasing":
        X.indptr[2] = X.indptr[3] + 1
    elif how == "indptr past the end":
        X.indptr[1] = 10**6
    elif how == "indptr not from 0":
        X.indptr[0] = 1
    elif how == "index negative":
        X.indices[0] = -3
    elif how == "index too large":
        X.indices[-1] = X.shape[1]
    return X


DAMAGE = ["indptr decreasing", "indptr past the end", "indptr not from 0", "index negative",
          "index too large"]  # fmt: skip


@pytest.mark.parametrize("how", DAMAGE)
@pytest.mark.parametrize("key", ["pa1", "spa", "arow", "sgd-svm"])
def test_a_damaged_csr_is_refused_before_anything_reads_it(key, how):
    X, y = data()
    X = sp.csr_matrix(X)
    bad = _damaged(X, how)
    spec = registry.get(key)
    with pytest.raises(ValueError, match="malformed sparse matrix"):
        spec.make(random_state=0).fit(bad, y)
    est = spec.make(random_state=0).fit(X, y)
    before = est.get_state()
    with pytest.raises(ValueError, match="malformed sparse matrix"):
        est.partial_fit(bad, y)
    with pytest.raises(ValueError, match="malformed sparse matrix"):
        est.predict(bad)
    assert same_state(before, est.get_state())


def test_the_door_checks_once_and_learns_all_or_nothing():
    """A batch whose last row is refused changes nothing; a checked batch is tied to the
    classes it was checked against."""
    engine = AdditiveEngine.create(2, np.array([0, 1]), steps={"code": additive_code("pa")})
    before = engine.get_state()
    X = np.array([[1.0, 0.0], [0.0, 1.0], [np.inf, 0.0]])
    with pytest.raises(ValueError, match="NaN or infinity"):
        engine.learn_rows(X, [0, 1, 0])
    assert same_state(before, engine.get_state())
    batch = engine.check(X[:2], [0, 2])  # 2 is new: it joins at row 1
    engine.learn(batch)
    with pytest.raises(ValueError, match="made since its classes"):
        engine.learn(batch)  # checked against two classes; there are three now
    assert engine.classes.tolist() == [0, 1, 2] and engine.t == 2


@pytest.mark.parametrize("label", [None, float("nan"), np.nan, pd.NA, pd.NaT, [1, 2]])
def test_missing_and_unhashable_labels_are_refused_at_the_door(label):
    engine = AdditiveEngine.create(2, np.array(["a", "b"], dtype=object),
                                   steps={"code": additive_code("spa")})  # fmt: skip
    engine.learn_rows(np.eye(2), np.array(["a", "b"], dtype=object))
    before = engine.get_state()
    labels = np.empty(2, dtype=object)
    labels[:] = ["a", None]
    labels[1] = label
    with pytest.raises(ValueError, match="NaN or None|not hashable"):
        engine.learn_rows(np.eye(2), labels)
    assert same_state(before, engine.get_state())


# --- item 2 and 7: the River adapter -------------------------------------------------------

river = pytest.importorskip("river")


def _river_model(key="pa1", **params):
    from olearn.river import Classifier

    model = Classifier(key, **params)
    rng = np.random.default_rng(0)
    for i in range(20):
        model.learn_one({"a": float(rng.normal()), "b": float(rng.normal())}, i % 2)
    return model


@pytest.mark.parametrize("label", [None, float("nan"), np.nan, pd.NA])
def test_a_refused_river_label_leaves_the_model_as_it_was(label):
    model = _river_model()
    before, names = model.estimator.get_state(), model.feature_names
    predicted = model.predict_one({"a": 1.0, "b": -1.0})
    with pytest.raises(ValueError, match="NaN or None"):
        model.learn_one({"a": 1.0, "new": 2.0}, label)  # was: the whole model erased (None)
    assert same_state(before, model.estimator.get_state())
    assert model.feature_names == names  # "new" did not join the index
    assert model.predict_one({"a": 1.0, "b": -1.0}) == predicted
    model.learn_one({"a": 1.0}, 1)  # and it goes on learning
    assert model.estimator.t_ == 21


def test_learn_many_refuses_a_frame_with_a_missing_label_whole():
    model = _river_model()
    before = model.estimator.get_state()
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "c": [0.0, 1.0, 1.0]})
    for labels in ([0, None, 1], [0.0, np.nan, 1.0], pd.array([0, pd.NA, 1], dtype="Int64")):
        with pytest.raises(ValueError, match="NaN or None"):
            model.learn_many(X, pd.Series(labels))
        assert same_state(before, model.estimator.get_state())
        assert "c" not in model.feature_names


def test_a_budget_refusal_of_new_names_leaves_the_adapter_able_to_learn(monkeypatch):
    model = _river_model("arow")
    before, names = model.estimator.get_state(), model.feature_names
    monkeypatch.setenv("OLEARN_MAX_BYTES", "4KiB")
    many = {f"f{i}": 1.0 for i in range(5000)}
    with pytest.raises(BudgetError):
        model.learn_one(many, 0)
    assert same_state(before, model.estimator.get_state())
    assert model.feature_names == names  # was: the 5,000 names joined, every later call failed
    model.learn_one({"a": 1.0, "b": 2.0}, 0)  # known features: learns
    assert model.estimator.t_ == 21


def test_the_full_covariance_limit_holds_on_widen_and_on_set_state():
    from olearn.core.cw import MAX_FULL_DIM

    model = _river_model("arow", covariance="full")
    before = model.estimator.get_state()
    with pytest.raises(ValueError, match=f"d <= {MAX_FULL_DIM}"):
        model.learn_one({f"f{i}": 1.0 for i in range(MAX_FULL_DIM)}, 0)
    assert same_state(before, model.estimator.get_state())
    d = MAX_FULL_DIM + 1
    state = {**before, "n_features_in": d, "coef": np.zeros((2, d)),
             "covariance_factor": np.eye(d)}  # fmt: skip
    with pytest.raises(ValueError, match=f"d <= {MAX_FULL_DIM}"):
        AROWClassifier(covariance="full").set_state(state)  # was: accepted


def test_widen_gives_new_columns_the_prior():
    engine = CWEngine.create(2, np.array([0, 1]), a=0.5, fit_intercept=True,
                             steps={"rule": (2, math.nan, 1.0, math.nan, 1.0, 0)})  # fmt: skip
    engine.learn_rows(np.array([[1.0, 2.0]]), [1])
    S, W = engine.S.copy(), engine.W.copy()
    engine.widen(4)
    assert engine.S.tolist() == [S[0], S[1], 0.5, 0.5, S[2]]  # the intercept's entry last
    assert np.array_equal(engine.W[[0, 1, 4]], W) and not engine.W[2:4].any()


# --- item 4: parameters that fix the state ---------------------------------------------------


@pytest.mark.parametrize("cls", [PAClassifier, SGDSVMClassifier, AROWClassifier])
@pytest.mark.parametrize("average", [True, 5])
def test_switching_average_on_between_partial_fits_is_refused(cls, average):
    X, y = data()
    est = cls().partial_fit(X[:20], y[:20], classes=[0, 1, 2])
    before = est.get_state()
    est.set_params(average=average)
    with pytest.raises(ValueError, match="average=None"):  # was: accepted and ignored
        est.partial_fit(X[20:], y[20:])
    est.set_params(average=False)
    assert same_state(before, est.get_state())
    clone = cls().set_state(est.get_state())  # and the state restores into a clone
    assert same_state(before, clone.get_state())


# --- item 5: weights x hyper-parameters ------------------------------------------------------


def test_nherd_learns_finite_numbers_down_to_the_bottom_of_its_c_range():
    X, y = data()
    for C in (5e-324, 1e-308, 1e-300, 1e50):
        for covariance in ("diagonal", "full"):
            est = NHERDClassifier(C=C, covariance=covariance, random_state=0).fit(X, y)
            assert np.isfinite(est.coef_).all() and np.isfinite(est.covariance_).all(), C


@pytest.mark.parametrize(
    ("make", "weight", "name"),
    [
        (lambda: NHERDClassifier(), 1e200, "C"),  # was: ZeroDivisionError, unfitted
        (lambda: NHERDClassifier(C=1e40), 1e20, "C"),
        (lambda: AROWClassifier(r=1.0), 1e120, "r"),
        (lambda: PerceptronClassifier(), 1e308, "Perceptron"),  # was: inf / NaN weights
        (lambda: SGDSVMClassifier(), 1e308, "eta"),  # was: inf / NaN weights
    ],
)
def test_a_weight_that_takes_a_step_out_of_range_is_refused_by_name(make, weight, name):
    X, y = data(K=2)
    w = np.ones(len(y))
    w[7] = weight
    with pytest.raises(ValueError, match=re.escape(f"weight of {weight:.3g}") + f".*{name}"):
        make().fit(X, y, sample_weight=w)
    est = make().fit(X, y)
    before = est.get_state()
    with pytest.raises(ValueError, match="out of range"):
        est.partial_fit(X, y, sample_weight=w)
    assert same_state(before, est.get_state())
    with pytest.raises(ValueError, match="out of range"):  # class_weight is the same product
        make().set_params(class_weight={int(y[7]): weight}).fit(X, y)


@pytest.mark.parametrize("key", ONLINE + ["sgd-svm"])
@pytest.mark.parametrize("weight", [1e-300, 1e-5, 3.0, 1e5])
def test_weights_in_range_learn_finite_models(key, weight):
    X, y = data(K=3)
    w = np.ones(len(y))
    w[::3] = weight
    est = registry.get(key).make(random_state=0).fit(X, y, sample_weight=w)
    assert np.isfinite(est.coef_).all()


# --- item 6: class_weight keys ---------------------------------------------------------------


@pytest.mark.parametrize("key", ["pa1", "arow", "sgd-svm", "cs-svm"])
def test_a_class_weight_key_that_names_no_class_is_refused(key):
    X, y = data(K=3)
    make = registry.get(key).make
    with pytest.raises(ValueError, match=r"The classes, \[7\], are not in class"):
        make(class_weight={0: 2.0, 7: 3.0}).fit(X, y)
    with pytest.raises(ValueError, match=r"The classes, \['1'\], are not in class"):
        make(class_weight={"1": 3.0}).fit(X, y)  # a label of the wrong type
    if registry.get(key).online:
        est = make(class_weight={5: 2.0})
        with pytest.raises(ValueError, match="are not in class"):
            est.partial_fit(X, y)
        est.partial_fit(X, y, classes=[0, 1, 2, 5])  # declared: a class to come


# --- item 8: stores, all or nothing -----------------------------------------------------------


@pytest.fixture
def store_with_a_bad_third_chunk(tmp_path):
    from olearn.datasets.store import write_store

    X, y = data(n=60, d=4, K=3)
    X[45, 0] = 1e200  # finite (a store holds it), but ||x||^2 overflows at the door
    return write_store(sp.csr_matrix(X), y, tmp_path / "s", chunk_rows=20), X, y


@pytest.mark.parametrize("how", ["partial_fit", "learn_stream"])
@pytest.mark.parametrize("cls", [PAClassifier, SPAClassifier, CWClassifier])
def test_partial_fit_on_a_store_is_all_or_nothing(store_with_a_bad_third_chunk, cls, how):
    store, X, y = store_with_a_bad_third_chunk
    est = cls().partial_fit(X[:10], y[:10])
    before = est.get_state()
    with pytest.raises(ValueError, match="overflows"):
        getattr(est, how)(store)  # was: the first two chunks kept
    assert same_state(before, est.get_state())
    with pytest.raises(ValueError, match="overflows"):  # and in memory: the same refusal
        getattr(est, how)(X, y)
    assert same_state(before, est.get_state())
    fresh = cls()
    with pytest.raises(ValueError, match="overflows"):
        fresh.partial_fit(store)
    assert not hasattr(fresh, "engine_")


def test_fit_on_a_store_of_no_rows_is_refused(tmp_path):
    from olearn.datasets.store import write_store

    store = write_store(sp.csr_matrix((0, 3)), np.array([], dtype=np.int64), tmp_path / "e")
    for est in (PAClassifier(), AROWClassifier()):
        with pytest.raises(ValueError, match="no rows"):  # was: an unfitted model, no error
            est.fit(store)
        assert not hasattr(est, "engine_")
