"""Fuzz of the engine's door (issue "Reliability, round 4"): weights x hyper-parameters at their
extremes, and the River adapter under hostile samples.

- Every online estimator (and SGD-SVM), every tunable hyper-parameter at the ends of its
  declared range (read off the estimator's ``_parameter_constraints``, so a new parameter is
  covered the day it is declared), times example weights from 1e-300 to 1e300, times rows of
  norms from 1e-100 to 1e50: ``fit`` either learns a finite model or raises a ValueError that
  names what is out of range; never another exception, never NaN or infinity in the model.
- The River adapter, fed seeded random streams of hostile dicts and labels (keys of several
  types, NaN / infinite / huge / non-numeric values, None / NaN / unhashable labels, bursts
  of new names under a small memory budget): each sample is learned (``t`` + 1) or refused by
  a ValueError, in which case the model's whole state and the feature index are as they were.

Outcomes are counted for ``python -m tests.fuzz_report``.
"""

from __future__ import annotations

import math
from numbers import Real

import numpy as np
import pandas as pd
import pytest
from sklearn.utils._param_validation import Interval

from olearn import registry
from tests.fuzz_support import record

KEYS = [*registry.keys(online=True), "sgd-svm", "sgd-svm-pf"]
WEIGHTS = [1e-300, 1e-10, 1.0, 1e10, 1e100, 1e300]
SCALES = [1e-100, 1.0, 1e50]
TINY = 5e-324


def extremes(spec, name: str) -> list[float]:
    """The ends of the parameter's declared numeric range (and a value just inside each)."""
    values = []
    for c in spec.estimator_class._parameter_constraints[name]:
        if isinstance(c, Interval) and c.type is Real:
            left = c.left if c.left is not None else -1e308
            right = c.right if c.right is not None else 1e308
            low = left if c.closed in ("left", "both") else np.nextafter(left, math.inf)
            high = right if c.closed in ("right", "both") else np.nextafter(right, -math.inf)
            values += [max(low, TINY) if left >= 0 else low, high]
    return sorted({float(v) for v in values})


CASES = [
    (key, h.name, value)
    for key in KEYS
    for h in registry.get(key).hypers
    for value in extremes(registry.get(key), h.name)
]


@pytest.mark.parametrize(("key", "name", "value"), CASES)
def test_weights_times_extreme_hyper_parameters_learn_finite_models_or_are_refused(
    key, name, value
):
    spec = registry.get(key)
    rng = np.random.default_rng(0)
    X0, y = rng.normal(size=(30, 4)), np.arange(30) % 3
    for scale in SCALES:
        for weight in WEIGHTS:
            w = np.ones(30)
            w[::4] = weight
            est = spec.make(random_state=0, epochs=2, **{name: value})
            try:
                est.fit(X0 * scale, y, sample_weight=w)
            except ValueError as err:
                message = str(err)
                named = any(word in message for word in ("weight", "||x||", name, "range"))
                assert named, message  # refused by name
                assert not hasattr(est, "engine_")  # a failed fit leaves it unfitted
                record("door: weights x hypers", "ValueError (by name)")
                continue
            state = est.get_state()
            finite = all(
                np.all(np.isfinite(np.asarray(v, dtype=float)))
                for k, v in state.items()
                if isinstance(v, np.ndarray) and v.dtype.kind == "f"
            )
            assert finite, (key, name, value, scale, weight)
            assert np.isfinite(est.decision_function(X0 * scale)).all()
            record("door: weights x hypers", "finite model")


# --- the River adapter ----------------------------------------------------------------------

river = pytest.importorskip("river")

HOSTILE_VALUES = [0.5, -3.0, 0.0, np.nan, np.inf, -np.inf, 1e200, 1e-300, "red", None, True]
HOSTILE_LABELS = [0, 1, "a", ("t", 1), None, np.nan, float("nan"), pd.NA, [1], {"x": 1}]


def _sample(rng, step: int) -> tuple[dict, object]:
    keys = ["a", "b", 3, ("k", 1), "ü"] + [f"new{step}_{i}" for i in range(rng.integers(0, 3))]
    if rng.random() < 0.05:  # a burst of new names
        keys += [f"burst{step}_{i}" for i in range(3000)]
    chosen = rng.choice(len(keys), size=rng.integers(1, min(len(keys), 8) + 1), replace=False)
    x = {}
    for i in chosen:
        key = keys[int(i)]
        x[key] = HOSTILE_VALUES[rng.integers(len(HOSTILE_VALUES))] if rng.random() < 0.15 else (
            float(rng.normal())
        )  # fmt: skip
    label = HOSTILE_LABELS[rng.integers(len(HOSTILE_LABELS))] if rng.random() < 0.2 else (
        int(rng.integers(3))
    )  # fmt: skip
    return x, label


def _state(model) -> dict | None:
    est = model.estimator
    return est.get_state() if hasattr(est, "engine_") else None


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k]) if isinstance(a[k], np.ndarray) else a[k] == b[k] for k in a
    )


@pytest.mark.parametrize("key", ["pa1", "spa", "arow", "scw2", "perceptron"])
@pytest.mark.parametrize("seed", range(3))
def test_the_river_adapter_under_hostile_samples(key, seed, monkeypatch):
    from olearn.river import Classifier

    monkeypatch.setenv("OLEARN_MAX_BYTES", "256KiB")  # some bursts of names are over it
    rng = np.random.default_rng(seed)
    model = Classifier(key, **({"covariance": "full"} if key == "arow" and seed == 2 else {}))
    for step in range(120):
        x, label = _sample(rng, step)
        before, names = _state(model), model.feature_names
        t = 0 if before is None else before["t"]
        try:
            model.learn_one(x, label)
        except ValueError:
            assert _same(before, _state(model)), (step, x, label)
            assert model.feature_names == names
            record("door: River samples", "ValueError, model kept")
            continue
        assert model.estimator.t_ == t + 1
        record("door: River samples", "learned")
        model.predict_one(x if all(isinstance(v, float) for v in x.values()) else {"a": 1.0})
    frame = pd.DataFrame({"a": [1.0, np.nan, 2.0], "zz": [0.5, 1.0, np.inf]})
    before, names = _state(model), model.feature_names
    with pytest.raises(ValueError):
        model.learn_many(frame, pd.Series([0, 1, 2]))
    assert _same(before, _state(model)) and model.feature_names == names
