"""Issue 22.6: every float hyper-parameter of every registry estimator, drawn log-uniformly
over its whole accepted range, either is refused by a clear ValueError naming it before any
learning, or gives finite weights."""

from __future__ import annotations

import math
import warnings
from numbers import Real

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils._param_validation import Interval

from olearn import registry
from tests.fuzz_support import FUZZ, record

TINY = 5e-324  # the smallest positive float64
HUGE = float(np.finfo(np.float64).max)

_rng = np.random.default_rng(0)
X = np.vstack([_rng.normal(size=(30, 4)) + 2.0 * np.repeat(np.eye(3, 4), 10, axis=0)])
Y = np.repeat([0, 1, 2], 10)


def float_params(est) -> dict[str, Interval]:
    """The parameters whose constraint is a real interval (the float hyper-parameters)."""
    out = {}
    for name, constraints in type(est)._parameter_constraints.items():
        for c in constraints:
            if isinstance(c, Interval) and c.type is Real:
                out[name] = c
    return out


@st.composite
def in_interval(draw, c: Interval):
    """Log-uniform over the accepted positive range; uniform where the range is short."""
    lo = c.left if c.left is not None else -HUGE
    hi = c.right if c.right is not None else HUGE
    hi = min(hi, HUGE)
    if hi - lo <= 10.0:  # e.g. eta in (0.5, 1), prune_tol in [0, 1): both ends and between
        edges = [math.nextafter(lo, hi), math.nextafter(hi, lo), lo, hi, (lo + hi) / 2]
        value = draw(st.sampled_from(edges) | st.floats(lo, hi))
    else:
        low = max(lo, TINY)
        exponent = draw(st.floats(math.log10(low) if low > 0 else -323.3, math.log10(hi)))
        with np.errstate(over="ignore"):
            value = min(float(np.power(10.0, exponent)), hi) if exponent > -323.3 else TINY
    return value if c.is_satisfied_by(value) else draw(st.sampled_from([1.0, 0.75]))


KEYS = registry.keys()


@pytest.mark.parametrize("key", KEYS)
def test_extreme_hyper_parameters_refused_or_finite(key):
    spec = registry.get(key)
    base = spec.make(**({"max_iter": 15} if key.startswith("pcvm") else {}))
    params = float_params(base)
    binary = spec.estimator == "PCVMClassifier"
    y = (Y > 0).astype(int) if binary else Y

    @settings(FUZZ, max_examples=40)
    @given(st.data())
    def check(data):
        names = data.draw(st.lists(st.sampled_from(sorted(params)), min_size=1, unique=True))
        values = {n: data.draw(in_interval(params[n]), label=n) for n in names}
        if spec.estimator == "SGDSVMClassifier" and data.draw(st.booleans()):
            values.pop("t0", None)  # t0="auto" follows lam
        est = spec.make(**{**base.get_params(), **values})
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(X, y)
        except ValueError as err:
            assert any(n in str(err) for n in values), f"{values}: unclear refusal: {err}"
            assert not hasattr(est, "classes_")  # refused before anything was learned
            record("estimators: extreme hyper-parameters", f"{type(err).__name__}")
            return
        scores = est.decision_function(X)
        weights = [getattr(est, a, 0.0) for a in ("coef_", "intercept_", "dual_coef_")]
        for w in [scores, *weights]:
            assert np.isfinite(w).all(), f"{values}: non-finite {w}"
        record("estimators: extreme hyper-parameters", "finite weights")

    check()


@pytest.mark.parametrize(
    "key, params, refused",
    [
        ("scw2", {"C": 1e-300}, None),  # was ZeroDivisionError mid-epoch, half-fitted
        ("scw2", {"C": TINY}, None),  # 1/(2C) overflows: the passive limit C -> 0
        ("cw", {"a": 1.7e308}, "a=1.7e\\+308 is too large"),  # was NaN weights, no error
        ("arow", {"r": TINY}, "'r' parameter"),  # was a learner frozen after one step
        ("cs-svm", {"intercept_scaling": 1e155}, "intercept_scaling=1e\\+155"),  # was inf
        ("pcvm", {"kernel": "rbf", "theta": 1e300}, "'theta' parameter"),  # was OverflowError
        ("sgd-svm", {"lam": TINY}, "lam=5e-324 is too small"),  # was "t0 ... got inf"
    ],
)
def test_the_issues_extreme_hyper_parameters(key, params, refused):
    y = (Y > 0).astype(int) if key.startswith("pcvm") else Y
    est = registry.get(key).make(**params)
    if refused:
        with pytest.raises(ValueError, match=refused):
            est.fit(X, y)
        assert not hasattr(est, "classes_")
    else:
        assert np.isfinite(est.fit(X, y).coef_).all()
