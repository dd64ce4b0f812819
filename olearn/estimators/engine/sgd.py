"""SGD-SVM's engine (seed 004; :mod:`olearn.core.sgd_svm`): one binary SVM for two classes,
one per class (against the rest) for more, each ``w = scale * v`` with its own clocks.

It cannot add a class mid-stream (each one-vs-rest SVM would need the past samples as
negatives), so it is created with every class.  Its bias is not a feature (its own rate, not
regularised: Bottou), so its rows are X's alone and the kernel keeps the bias.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from olearn._budget import model_bytes
from olearn.estimators.engine.base import OnlineEngine
from olearn.estimators.engine.linear import MAX_STEP, load_kernel

MAX_GRADIENT = 1e300  # |s y x_j|: finite, with room for the step's other term


class SGDEngine(OnlineEngine):
    """Per binary SVM p: ``V[p]`` (d,), ``scalars[p] = [scale, bias, t]``, the per-feature
    clocks ``counts[p]`` and the lazy catch-up marks ``last[p]``; with averaging the sums
    ``avg_sum[p]`` and ``avg_scalars[p] = [sigma, q_b, n_avg, start]``.

    Structure: ``fit_intercept``, the kernel mode ``schedule`` / ``regularize`` (resolved), the
    rate offset ``t0`` (resolved) and ``average``.  Steps (:meth:`tune`): ``lam``,
    ``bias_rate``.  ``coef`` / ``intercept`` are the public weights, refreshed after each pass.
    """

    kernel = "olearn.kernels.sgd_svm:sgd_epoch"
    grows = False

    def _setup(self, *, fit_intercept: bool = True, schedule: str = "global",
               regularize: str = "all", t0: float = 1e4, average: int = 0) -> None:  # fmt: skip
        from olearn.kernels.sgd_svm import sgd_code

        self.fit_intercept = bool(fit_intercept)
        self.schedule, self.regularize = schedule, regularize
        self.mode = sgd_code(schedule, regularize)
        self.t0, self.average = float(t0), int(average)

    @property
    def params(self) -> dict:
        # the stored v / scale / last hold w only for the kernel mode and the t0 they were
        # built with (sgd_weights catches pending shrinks up with t0)
        params = {
            "fit_intercept": self.fit_intercept,
            "(schedule, regularize)": (self.schedule, self.regularize),
            "t0 ('auto' follows lam)": self.t0,
        }
        if self.average:
            params["average"] = self.average
        return params

    def tune(self, *, lam: float, bias_rate: float) -> None:
        self.lam, self.bias_rate = float(lam), float(bias_rate)

    def state_bytes(self, n_features: int, n_classes: int) -> tuple[int, str]:
        P = 1 if n_classes == 2 else n_classes
        # v, counts, last, coef, and the next coef while _publish builds it
        what = f"{P:,} binary SVM{'s' if P > 1 else ''} x {n_features:,} features"
        copies = 5 + (2 if self.average else 0)  # the sums and the average
        return model_bytes(P, n_features, copies=copies), f"{what} (weights, clocks, rates)"

    def _weight_range(self, largest: float) -> tuple[float, float, str]:
        # one step moves a score by at most eta s ||x||^2, eta <= 1 / (lam t0); and the
        # weighted hinge's gradient s y x itself must be a float64 (|s x_j| <= s ||x||)
        step = largest / (self.lam * self.t0)
        high = max(1.0, MAX_STEP / step) if step > 0 else np.inf
        if largest > 0:
            high = min(high, max(1.0, MAX_GRADIENT / math.sqrt(largest)))
        why = (
            f"a step's eta s ||x||^2 must stay <= {MAX_STEP:.0e} and the gradient s ||x|| <= "
            f"{MAX_GRADIENT:.0e}"
        )
        return 0.0, high, why

    def _allocate(self) -> None:
        K, d = self.classes.shape[0], self.n_features
        P = 1 if K == 2 else K  # binary problems: 1, or one per class (OvR)
        self.V = np.zeros((P, d))
        self.scalars = np.tile(np.array([1.0, 0.0, 0.0]), (P, 1))  # [scale, b, t]
        self.counts = np.zeros((P, d), dtype=np.int64)
        self.last = np.zeros((P, d), dtype=np.int64)
        self.avg_sum = np.zeros((P, d)) if self.average else None
        # [sigma (the averaged scales' sum), q_b, n_avg, start] per binary SVM
        start = float(self.average)
        self.avg_scalars = np.tile([0.0, 0.0, 0.0, start], (P, 1)) if self.average else None
        self._publish()

    def _widen(self, n_features: int) -> None:
        new = n_features - self.n_features
        pad = ((0, 0), (0, new))
        self.V, self.counts = np.pad(self.V, pad), np.pad(self.counts, pad)
        steps = self.scalars[:, 2].astype(np.int64)[:, None]  # untouched: caught up to now
        self.last = np.hstack([self.last, np.repeat(steps, new, axis=1)])
        if self.avg_sum is not None:
            self.avg_sum = np.pad(self.avg_sum, pad)
        self.n_features = n_features
        self._publish()

    def _epoch(self, rows, y_idx, order, mistakes, weights=None) -> int:
        indptr, indices, data = rows[0]
        if mistakes.shape[0] == 0:
            return self._pass(indptr, indices, data, y_idx, order, weights)
        # progressive validation: predict each row before its step (one kernel call a row;
        # SGD-SVM is a batch reference, this path serves the learning-curve views only)
        n_updates = 0
        for t in range(order.shape[0]):
            row = order[t : t + 1]
            i = int(row[0])
            lo, hi = indptr[i], indptr[i + 1]
            X_i = sp.csr_matrix(
                (data[lo:hi], indices[lo:hi], [0, hi - lo]), shape=(1, self.n_features)
            )
            mistakes[t] = np.argmax(self._scores(X_i)[0]) != y_idx[i]
            n_updates += self._pass(indptr, indices, data, y_idx, row, weights)
        return n_updates

    def _pass(self, indptr, indices, data, y_idx, order, weights=None) -> int:
        sgd_epoch = load_kernel(self.kernel)
        P = self.V.shape[0]
        order = np.ascontiguousarray(order, dtype=np.int64)
        n_active = 0
        averaging = self.avg_scalars is not None
        for p in range(P):
            positive = 1 if P == 1 else p
            y_pm = np.where(y_idx == positive, 1.0, -1.0)
            n_active += sgd_epoch(
                indptr,
                indices,
                data,
                y_pm,
                order,
                self.V[p],
                self.scalars[p],
                self.counts[p],
                self.last[p],
                self.lam,
                self.t0,
                self.mode,
                self.bias_rate,
                self.fit_intercept,
                weights,
                self.avg_sum[p] if averaging else None,
                self.avg_scalars[p] if averaging else None,
            )
        self._publish()
        return n_active

    def _publish(self) -> None:
        """``coef`` (P, d) and ``intercept`` (P,): the weights predictions use (the average of
        the iterates, with averaging), pending lazy shrinks applied."""
        from olearn.kernels.sgd_svm import sgd_average_weights, sgd_weights

        W = np.empty_like(self.V)
        b = self.scalars[:, 1].copy()
        for p in range(W.shape[0]):
            state = (self.V[p], self.scalars[p], self.counts[p], self.last[p], self.t0, self.mode)
            if self.avg_scalars is None:
                sgd_weights(*state, W[p])
            else:
                b[p] = sgd_average_weights(*state, self.avg_sum[p], self.avg_scalars[p], W[p])
        self.coef, self.intercept = W, b

    def _scores(self, X) -> np.ndarray:
        f = X @ self.coef.T
        if sp.issparse(f):
            f = f.toarray()
        f = np.asarray(f) + self.intercept
        if f.shape[1] == 1:  # binary: columns (0, f) so argmax and the difference work
            return np.hstack([np.zeros_like(f), f])
        return f

    def _state_spec(self, n_classes: int, n_features: int) -> dict:
        P = 1 if n_classes == 2 else n_classes
        spec = {
            "v": ((P, n_features), "real"),
            "scale": ((P,), "positive"),
            "bias": ((P,), "real"),
            "steps": ((P,), "count"),
            "counts": ((P, n_features), "count"),
            "last": ((P, n_features), "count"),
        }
        if self.average:
            spec.update({
                "average_sum": ((P, n_features), "real"),
                "average_scale_sum": ((P,), "real"),
                "average_bias_sum": ((P,), "real"),
                "average_count": ((P,), "count"),
            })  # fmt: skip
        return spec

    def _state_arrays(self) -> dict:
        scale, bias, steps = self.scalars.T
        arrays = {
            "v": self.V.copy(),
            "scale": scale.copy(),
            "bias": bias.copy(),
            "steps": steps.astype(np.int64),
            "counts": self.counts.copy(),
            "last": self.last.copy(),
        }
        if self.avg_scalars is not None:
            sigma, q_b, n_avg, _ = self.avg_scalars.T
            arrays.update({
                "average_sum": self.avg_sum.copy(),
                "average_scale_sum": sigma.copy(),
                "average_bias_sum": q_b.copy(),
                "average_count": n_avg.astype(np.int64),
            })  # fmt: skip
        return arrays

    def _load_arrays(self, arrays: dict) -> None:
        self.V = arrays["v"]
        self.scalars = np.column_stack([arrays["scale"], arrays["bias"], arrays["steps"]])
        self.counts, self.last = arrays["counts"], arrays["last"]
        self.avg_sum = self.avg_scalars = None
        if "average_sum" in arrays:
            self.avg_sum = arrays["average_sum"]
            start = np.full(self.V.shape[0], float(self.average))
            self.avg_scalars = np.column_stack(
                [arrays["average_scale_sum"], arrays["average_bias_sum"],
                 arrays["average_count"], start]
            )  # fmt: skip
        self._publish()

    # pickles hold the state once: the public weights are rebuilt from it
    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("coef", None)
        state.pop("intercept", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        if "V" in state:
            self._publish()
