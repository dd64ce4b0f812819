"""A weight the rule cannot use warns, once per model, from the estimators as from River.

The hard rules (PA, the mistakes-only PA, SPA, CW) have no price to scale: any weight > 0 is
the constraint's presence.  ``fit`` / ``partial_fit`` / ``learn_stream`` given a weight other
than 0 and 1 then warn (UserWarning) naming the rule, what is ignored and what to use instead,
pointing at the caller's line; once per model: each ``fit`` (a new model) warns again, a stream
of ``partial_fit`` calls once.  The rules that use weights (soft variants, the Perceptron,
``weight_scales="step"``, AROW / SCW) do not warn, nor do weights of 0 and 1 only.  The River
adapter's warning is the same text (one source: ``unused_weight_message``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from olearn import registry
from olearn.estimators._weights import unused_weight_message

HARD = ["pa", "pa-mistakes", "spa", "cw"]
USES_WEIGHTS = ["perceptron", "pa1", "pa2", "spa1", "spa2", "arow", "scw1"]
RULE_NAMES = {"pa": "PA", "pa-mistakes": "PA (mistakes only)", "spa": "SPA", "cw": "CW"}


def data(n: int = 30):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 1)
    return X, y, rng.choice([0.5, 1.0, 2.0], size=n)


def unused(caught) -> list:
    return [w for w in caught if "no price to scale" in str(w.message)]


@pytest.mark.parametrize("key", HARD)
def test_fit_warns_once_per_model_naming_rule_and_remedy(key):
    X, y, w = data()
    est = registry.get(key).make(random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X, y, sample_weight=w)
        est.partial_fit(X, y, sample_weight=w)  # the same model: no second warning
        est.learn_stream(X, y, sample_weight=w)
    (first,) = unused(caught)
    assert first.category is UserWarning
    assert first.filename == __file__  # the caller's line, not olearn's
    text = str(first.message)
    assert f"the {RULE_NAMES[key]} rule" in text and type(est).__name__ in text
    assert "sizes are ignored" in text
    remedy = "AROW" if key == "cw" else 'weight_scales="step"'
    assert remedy in text
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X, y, sample_weight=w)  # a new model
    assert len(unused(caught)) == 1


@pytest.mark.parametrize("key", HARD)
def test_partial_fit_stream_warns_once(key):
    X, y, w = data()
    est = registry.get(key).make()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for part in np.array_split(np.arange(len(y)), 4):
            est.partial_fit(X[part], y[part], classes=[0, 1, 2], sample_weight=w[part])
    assert len(unused(caught)) == 1 and unused(caught)[0].filename == __file__


@pytest.mark.parametrize("key", HARD)
def test_class_weight_warns_too_and_zero_one_weights_do_not(key):
    X, y, w = data()
    with pytest.warns(UserWarning, match="no price to scale"):
        registry.get(key).make(class_weight={0: 2.0}).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registry.get(key).make().fit(X, y, sample_weight=(w > 0.7).astype(float))  # 0 / 1


@pytest.mark.parametrize("key", USES_WEIGHTS)
def test_rules_that_use_the_weight_do_not_warn(key):
    X, y, w = data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registry.get(key).make(random_state=0).fit(X, y, sample_weight=w)


@pytest.mark.parametrize("key", ["pa", "pa-mistakes", "spa"])
def test_step_scaled_hard_rules_do_not_warn(key):
    X, y, w = data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registry.get(key).make(weight_scales="step").fit(X, y, sample_weight=w)


def test_river_says_the_same():
    river = pytest.importorskip("olearn.river")
    model = river.Classifier("spa")
    with pytest.warns(UserWarning) as caught:
        model.learn_one({"a": 1.0}, 0, w=2.0)
        model.learn_one({"a": -1.0}, 1, w=2.0)
    (message,) = [str(w.message) for w in caught if "no price" in str(w.message)]
    remedy = message.split("For weights that grade the step, ")[1].split(".  Shown")[0]
    assert message == unused_weight_message("olearn.river.Classifier('spa')", "SPA", remedy)
    _, _, w = data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        stepped = river.Classifier("spa", weight_scales="step")
        stepped.learn_one({"a": 1.0}, 0, w=1.5)
        stepped.learn_one({"a": -1.0}, 1, w=1.5)
