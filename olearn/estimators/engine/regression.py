"""The engine of PA regression: one weight vector, targets instead of labels.

:class:`RegressionEngine` keeps :class:`~olearn.estimators.engine.LinearEngine`'s weights with
one column, ``W[feature, 0]`` (the intercept column's row last, LIBLINEAR's convention) and its
averaging, and the base engine's door for the rows (structure, finite values, ``||x||^2``,
weights); in place of labels and classes it takes real targets, checked finite and within
:data:`MAX_TARGET`.  Every path (``fit`` / ``partial_fit``, River's ``Regressor`` when it hands
its model over) enters through :meth:`RegressionEngine.check`; a refused call changes nothing.

>>> import numpy as np
>>> from olearn.kernels.codes import regression_code
>>> engine = RegressionEngine.create(2, steps={"code": regression_code(None), "epsilon": 0.5})
>>> engine.learn_rows(np.array([[1.0, 1.0]]), [3.0])
>>> engine.predict(np.array([[1.0, 1.0]])).tolist(), engine.t, engine.n_updates
([2.5], 1, 1)
>>> engine.check(np.eye(2), [1.0, np.nan])
Traceback (most recent call last):
...
ValueError: RegressionEngine: y holds NaN or infinity (every target must be a finite number)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from olearn._budget import model_bytes
from olearn.estimators.engine import state as st
from olearn.estimators.engine.base import FLOAT_MAX
from olearn.estimators.engine.linear import TINY, LinearEngine, load_kernel, price_range

# The largest |target|: one step moves w by at most |y - w.x| / ||x||, so targets beyond it
# could overflow the weights within a few steps; scale such targets first.
MAX_TARGET = 1e100
_NO_STEPS = np.zeros(0)  # a pass that records no steps


class TargetBatch(NamedTuple):
    """Rows, targets and weights the door has checked (:meth:`RegressionEngine.check`);
    ``weights`` None (all 1) or each row's weight > 0; ``generation`` ties it to the width."""

    rows: tuple
    n: int
    targets: np.ndarray
    weights: np.ndarray | None
    generation: int


class RegressionEngine(LinearEngine):
    """PA / PA-I / PA-II regression (module docstring).

    Steps (:meth:`tune`): ``code`` (the variant, :func:`olearn.kernels.codes.regression_code`),
    ``C`` (the slack's price) and ``epsilon`` (the tube's half-width).
    """

    kernel = "olearn.kernels.pa_regression:pa_regression_epoch"
    grows = False

    def tune(self, *, code: int, C: float = 1.0, epsilon: float = 0.1) -> None:
        self.code, self.C, self.epsilon = int(code), float(C), float(epsilon)

    # --- creation --------------------------------------------------------------------------
    @classmethod
    def create(cls, n_features: int, *, owner: str = "", feature_names=None,
               steps: dict | None = None, **structure):  # fmt: skip
        """A fresh model (zero weights) of ``n_features``, after the memory budget allows it."""
        engine = cls(owner=owner, **structure)
        engine._check_size(int(n_features), 1)
        engine.n_features, engine.feature_names = int(n_features), feature_names
        engine._allocate()
        if steps is not None:
            engine.tune(**steps)
        return engine

    @classmethod
    def from_state(cls, state: dict, *, owner: str = "", steps: dict | None = None,
                   **structure):  # fmt: skip
        """The model of ``state`` (a :meth:`get_state` dict), every entry checked first."""
        engine = cls(owner=owner, **structure)
        name = engine.owner
        if not isinstance(state, dict):
            raise TypeError(f"{name}.set_state takes a dict from get_state, got {type(state)}")
        if state.get("version") != st.STATE_VERSION:
            raise ValueError(f"{name}.set_state: state version {state.get('version')!r}, "
                             f"expected {st.STATE_VERSION} (a dict from get_state)")  # fmt: skip
        if state.get("params") != engine.params:
            raise ValueError(
                f"{name}.set_state: the state was built for {state.get('params')!r}, this "
                f"estimator has {engine.params!r}; set those parameters with set_params(...) "
                "first (they fix the shape or the meaning of the state's numbers)"
            )
        d = st.state_sizes(name, state, np.zeros(1), 1)[1]
        spec = engine._state_spec(1, d)
        st.check_keys(name, {**state, "classes": None}, set(spec))
        arrays = {key: st.state_array(name, key, state[key], *spec[key]) for key in spec}
        counters = {key: st.count(name, key, state[key]) for key in ("t", "n_updates", "n_iter")}
        names = st.check_feature_names(name, state["feature_names_in"], d)
        engine._check_size(d, 1)
        engine.n_features, engine.feature_names = d, names
        engine._load_arrays(arrays)
        engine.t, engine.n_updates, engine.n_iter = (
            counters["t"], counters["n_updates"], counters["n_iter"]
        )  # fmt: skip
        if steps is not None:
            engine.tune(**steps)
        return engine

    def _check_size(self, n_features: int, n_classes: int = 1) -> None:
        super()._check_size(n_features, 1)

    def state_bytes(self, n_features: int, n_classes: int = 1) -> tuple[int, str]:
        rows = n_features + (1 if self.fit_intercept else 0)
        copies = 3 if self.average else 1  # W, and U and the averaged weights
        return model_bytes(copies, rows), f"a regression model of {rows:,} weights"

    def _allocate(self) -> None:
        rows = self.n_features + (1 if self.fit_intercept else 0)
        self.W = np.zeros((rows, 1))  # one column: W[feature, 0], the intercept's row last
        if self.average:
            self.U = np.zeros_like(self.W)
            self.avg = np.array([0, 0, self.average], dtype=np.int64)
        else:
            self.U = self.avg = None

    # --- the door -----------------------------------------------------------------------------
    def check(self, X, targets, weights=None) -> TargetBatch:
        """Check rows (as :meth:`OnlineEngine.check`), targets and weights; nothing changes."""
        rows, largest = self.rows(X)
        n = rows[0][0].shape[0] - 1
        y = self._check_targets(targets, n)
        return TargetBatch(rows, n, y, self._check_weights(weights, n, largest),
                           self._generation)  # fmt: skip

    def _check_targets(self, targets, n: int) -> np.ndarray:
        try:
            y = np.ascontiguousarray(targets, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{self.owner}: y must hold real numbers") from None
        if y.shape != (n,):
            raise ValueError(f"{self.owner}: {y.shape} targets for {n} samples")
        if not np.all(np.isfinite(y)):
            raise ValueError(f"{self.owner}: y holds NaN or infinity (every target must be a "
                             "finite number)")  # fmt: skip
        if n and np.abs(y).max() > MAX_TARGET:
            raise ValueError(f"{self.owner}: a target of magnitude {np.abs(y).max():.3g} is over "
                             f"{MAX_TARGET:.0e}; scale the targets first")  # fmt: skip
        return y

    def _weight_range(self, largest: float) -> tuple[float, float, str]:
        from olearn.kernels.codes import PA1, PA2

        if self.code in (PA1, PA2):  # the slack's price C_i = s C
            return price_range(self.C, TINY, FLOAT_MAX, "C")
        return 0.0, math.inf, ""  # hard PA: any s > 0 is the constraint's presence

    # --- learning -----------------------------------------------------------------------------
    def learn(self, batch: TargetBatch) -> None:
        """One in-order pass over a checked batch (``n_iter`` unchanged)."""
        self._fresh(batch)
        self._sweep(batch, np.arange(batch.n, dtype=np.int64))

    def epochs(self, batch: TargetBatch, epochs: int = 1, rng=None) -> None:
        """``epochs`` passes, each in a fresh ``rng.permutation`` order (in order without
        ``rng``); each counts in ``n_iter``."""
        self._fresh(batch)
        for _ in range(int(epochs)):
            order = rng.permutation(batch.n) if rng is not None else np.arange(batch.n)
            self._sweep(batch, order.astype(np.int64))
            self.n_iter += 1

    def learn_rows(self, X, targets, weights=None) -> None:
        """:meth:`check` then :meth:`learn`: one in-order pass, all or nothing."""
        self.learn(self.check(X, targets, weights))

    def learn_one(self, indices: np.ndarray, values: np.ndarray, target) -> None:
        """One sample as CSR indices and values of X's columns (checked as at the door)."""
        indptr = np.array([0, np.asarray(indices).shape[0]], dtype=np.int64)
        self.learn_rows((indptr, np.asarray(indices), np.asarray(values)), [target])

    def _fresh(self, batch) -> None:
        if type(batch) is not TargetBatch or batch.generation != self._generation:
            raise ValueError(f"{self.owner}: learn takes a TargetBatch from this engine's "
                             "check(), made since its width last changed")  # fmt: skip

    def _sweep(self, batch: TargetBatch, order: np.ndarray) -> None:
        w = _column(self.W)
        U = None if self.U is None else _column(self.U)
        kernel = load_kernel(self.kernel)
        n = kernel(batch.rows, batch.targets, order, w, self.code, self.C, self.epsilon,
                   _NO_STEPS, batch.weights, U, self.avg)  # fmt: skip
        self.n_updates += int(n)
        self.t += order.shape[0]

    def _add_class(self, position: int) -> None:
        raise ValueError(f"{self.owner}: a regression model has no classes")

    # --- reading ------------------------------------------------------------------------------
    def predict(self, X) -> np.ndarray:
        """``w.x`` (+ the intercept) for each row of X (the averaged weights with averaging)."""
        return self.scores(X)[:, 0]

    def get_state(self) -> dict:
        state = super().get_state()
        del state["classes"]
        return state

    def load_init(self, coef, intercept) -> None:
        """``fit``'s ``coef_init`` (d,) / ``intercept_init`` (1,) into a fresh model."""
        d = self.n_features
        if intercept is not None and not self.fit_intercept:
            raise ValueError(f"{self.owner}.fit: intercept_init needs fit_intercept=True")
        if coef is not None:
            self.W[:d, 0] = coef
        if intercept is not None:
            self.W[d, 0] = intercept[0] / self.column_value()

    def _state_spec(self, n_classes: int, n_features: int) -> dict:
        spec = {"coef": ((n_features,), "real")}
        if self.fit_intercept:
            spec["intercept_weight"] = ((1,), "real")
        if self.average:
            spec["average_sum"] = ((n_features,), "real")
            spec["average_counts"] = ((3,), "count")
            if self.fit_intercept:
                spec["average_sum_intercept"] = ((1,), "real")
        return spec

    def _state_arrays(self) -> dict:
        return {key: value.reshape(-1) for key, value in super()._state_arrays().items()}

    def _load_arrays(self, arrays: dict) -> None:
        rows = {k: (v[None, :] if k in ("coef", "average_sum") else v) for k, v in arrays.items()}
        super()._load_arrays(rows)


def _column(A: np.ndarray) -> np.ndarray:
    """The one column of a (D, 1) array as a (D,) view the kernel writes through."""
    w = A.reshape(-1)
    if not np.shares_memory(w, A):  # pragma: no cover - the engine keeps W C-contiguous
        raise RuntimeError("the regression weights must be C-contiguous")
    return w
