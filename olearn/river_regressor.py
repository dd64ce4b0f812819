"""olearn's PA regression inside River: :class:`Regressor` (``from olearn.river import
Regressor``), River's ``base.MiniBatchRegressor`` interface over the rule of
:mod:`olearn.core.pa_regression`.

Features are dicts ``{name: number}`` whose names may appear and disappear; the weights are a
dict by name (a name never seen has weight 0).  ``learn_one`` is a pure-Python step on the
dict: for a handful of features the kernel's per-call cost (a CSR row, the door, a numba call)
would dwarf the arithmetic; the step calls the closed forms the rule and the kernel call
(:mod:`olearn.core._pa_regression_forms`, their Python functions), and
``tests/test_river_regressor.py`` checks it against the readable rule step by step.  A sample
is checked before anything changes: every value a finite number, ``||x||^2`` finite, the
target finite (and within the engine's :data:`~olearn.estimators.engine.regression.MAX_TARGET`),
the weight finite and >= 0.  ``estimator`` hands the model over as a fitted
:class:`~olearn.estimators.PARegressor` (its columns in ``feature_names`` order).

River's ``linear_model.PARegressor`` is not this rule: its loss,
``optim.losses.EpsilonInsensitiveHinge``, maps the target to ``2 y - 1`` (a classification
label's ``[0, 1] -> [-1, 1]``) before ``max(0, |y - p| - eps)``, while its step's sign reads
``y`` itself; after one step from zero on ``x = {"a": 1}``, ``y = 3``, ``eps = 0.1`` its
weight is 4.9, the paper's 2.9 (the prediction on the tube's edge).  With that loss replaced
by the epsilon-insensitive loss of ``y`` (``model.loss = lambda y, p: max(abs(y - p) - eps,
0)``), ``PARegressor(C, mode, eps, learn_intercept=False)`` equals
``Regressor(("pa-reg", "pa1-reg", "pa2-reg")[mode], C=C, epsilon=eps)`` to ~1e-15.

>>> from olearn.river import Regressor
>>> model = Regressor("pa-reg", epsilon=0.5)
>>> model.learn_one({"a": 1.0, "b": 1.0}, 3.0)
>>> model.predict_one({"a": 1.0, "b": 1.0}), model.weights
(2.5, {'a': 1.25, 'b': 1.25})
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

import numpy as np
import pandas as pd
from river import base

from olearn import registry
from olearn._numerics import TINY_SQNORM
from olearn.core._pa_regression_forms import tau_eps_pa, tau_eps_pa1, tau_eps_pa2
from olearn.estimators.engine.regression import MAX_TARGET
from olearn.kernels.codes import PA1, PA2, regression_code

_NOT_HERE = ("epochs", "shuffle", "random_state", "average", "tol", "early_stopping",
             "warm_start", "verbose", "n_iter_no_change", "validation_fraction")  # fmt: skip


def _python(function):
    """A ``@jit`` closed form's Python function (the function itself without numba)."""
    return getattr(function, "py_func", function)


_TAU_PA, _TAU_PA1, _TAU_PA2 = (_python(f) for f in (tau_eps_pa, tau_eps_pa1, tau_eps_pa2))


class Regressor(base.MiniBatchRegressor):
    """PA / PA-I / PA-II regression (olearn's registry, ``task="regression"``) for River.

    Parameters
    ----------
    algorithm
        "pa-reg", "pa1-reg" or "pa2-reg" (``olearn.registry.keys(task="regression")``).
    params
        The estimator's: ``C``, ``epsilon``, ``fit_intercept`` (a constant column of value
        ``intercept_scaling`` inside ``||x||^2``, as everywhere in olearn; River's
        ``learn_intercept`` moves it outside), ``intercept_scaling``.

    ``learn_one(x, y, w)`` takes a sample weight with the estimators' meaning (PA-I / PA-II
    price the slack ``w C``; hard PA takes any ``w > 0`` as the constraint's presence; 0 is
    the sample's absence).
    """

    def __init__(self, algorithm: str = "pa1-reg", **params):
        self.algorithm = algorithm
        self.params = params
        spec = registry.get(algorithm)
        if spec.task != "regression":
            raise ValueError(f"{spec.name} is not a regressor; olearn.river.Regressor offers "
                             f"{registry.keys(task='regression')}")  # fmt: skip
        refused = sorted(set(params) & set(_NOT_HERE))
        if refused:
            raise ValueError(f"olearn.river.Regressor: {refused} have no meaning here "
                             "(one in-order pass)")  # fmt: skip
        est = spec.make(**params)
        est.check_params()  # bad values fail here, not at the first sample
        self._spec = est
        self._code = regression_code(est.variant)
        self._C, self._epsilon = float(est.C), float(est.epsilon)
        self._s = float(est.intercept_scaling) if est.fit_intercept else 0.0
        self.weights: dict = {}  # feature name -> weight
        self.intercept_weight = 0.0  # the constant column's weight (intercept = s * it)
        self.t = self.n_updates = 0

    @property
    def feature_names(self) -> list:
        return list(self.weights)

    # --- River's interface ---------------------------------------------------------------
    def learn_one(self, x: dict, y: Any, w: float = 1.0) -> None:
        """One step of the rule on ``x`` (a dict of numbers) with target ``y`` and weight
        ``w`` (module docstring); a refused sample changes nothing."""
        weights, s = self.weights, self._s
        p, sqnorm = self._dot(x)
        target = self._target(y)
        if isinstance(w, bool) or not isinstance(w, Real) or not (w >= 0 and math.isfinite(w)):
            raise ValueError(f"a sample's weight w must be a finite number >= 0, got {w!r}")
        if w == 0:
            return  # absent
        self.t += 1
        residual = target - p
        loss = abs(residual) - self._epsilon  # max(0, |y - w.x| - epsilon)
        if loss <= 0.0 or sqnorm < TINY_SQNORM:
            return
        code, C = self._code, self._C * w  # C_i = s C
        if code == PA1:
            tau = _TAU_PA1(loss, sqnorm, C)
        elif code == PA2:
            tau = _TAU_PA2(loss, sqnorm, C)
        else:
            tau = _TAU_PA(loss, sqnorm)
        step = tau if residual > 0.0 else -tau  # w += sign(y - w.x) tau x
        get = weights.get
        for name, value in x.items():
            weights[name] = get(name, 0.0) + step * value
        if s:
            self.intercept_weight += step * s
        self.n_updates += 1

    def predict_one(self, x: dict, **kwargs) -> float:
        """``w.x`` (+ the intercept), 0 before the first step."""
        return self._dot(x)[0]

    def learn_many(self, X: pd.DataFrame, y: pd.Series, w: Any = 1.0) -> None:
        """``learn_one`` over the rows in order (NaN: an absent feature), all or nothing."""
        rows = self._rows(X)
        targets = [self._target(v) for v in pd.Series(y).tolist()]
        ws = [w] * len(rows) if np.ndim(w) == 0 else list(w)
        if len(targets) != len(rows) or len(ws) != len(rows):
            raise ValueError(f"{len(rows)} rows, {len(targets)} targets, {len(ws)} weights")
        before = (dict(self.weights), self.intercept_weight, self.t, self.n_updates)
        try:
            for x, target, weight in zip(rows, targets, ws):
                self.learn_one(x, target, weight)
        except (ValueError, TypeError):
            self.weights, self.intercept_weight, self.t, self.n_updates = before
            raise

    def predict_many(self, X: pd.DataFrame) -> pd.Series:
        return pd.Series([self.predict_one(x) for x in self._rows(X)], index=X.index,
                         dtype=float)  # fmt: skip

    @property
    def estimator(self):
        """The model as a fitted :class:`~olearn.estimators.PARegressor` (columns in
        ``feature_names`` order; a fresh object at each access)."""
        from olearn.estimators import PARegressor

        est = PARegressor(**self._spec.get_params())
        names = self.feature_names
        if not names:
            raise AttributeError("the model has seen no feature yet")
        coef = np.array([self.weights[n] for n in names])
        state = {"version": 1, "params": {"fit_intercept": bool(self._s)}, "n_iter": 0,
                 "n_features_in": len(names), "feature_names_in": None, "t": self.t,
                 "n_updates": self.n_updates, "coef": coef}  # fmt: skip
        if self._s:
            state["params"]["intercept_scaling"] = self._s
            state["intercept_weight"] = np.array([self.intercept_weight])
        return est.set_state(state)

    # --- checks ----------------------------------------------------------------------------
    def _dot(self, x: dict) -> tuple[float, float]:
        """``(w.x + b s, ||x||^2 + s^2)``; ValueError for a value that is not a finite number."""
        get = self.weights.get
        p = sqnorm = 0.0
        try:
            for name, value in x.items():
                p += get(name, 0.0) * value
                sqnorm += value * value
        except TypeError:
            raise ValueError(f"feature values must be numbers, got {x!r}") from None
        s = self._s
        if s:
            p += self.intercept_weight * s
            sqnorm += s * s
        if not math.isfinite(sqnorm):
            bad = [k for k, v in x.items() if not math.isfinite(v)]
            what = f"{bad[0]!r} is {x[bad[0]]!r}" if bad else "||x||^2 overflows float64"
            raise ValueError(f"feature values must be finite numbers: {what}")
        return float(p), sqnorm

    @staticmethod
    def _target(y) -> float:
        if isinstance(y, bool) or not isinstance(y, Real) or not math.isfinite(y):
            raise ValueError(f"the target must be a finite number, got {y!r}")
        if abs(y) > MAX_TARGET:
            raise ValueError(f"a target of magnitude {abs(y):.3g} is over {MAX_TARGET:.0e}; "
                             "scale the targets first")  # fmt: skip
        return float(y)

    @staticmethod
    def _rows(X: pd.DataFrame) -> list[dict]:
        return [{k: v for k, v in row.items() if v == v} for row in X.to_dict(orient="records")]
