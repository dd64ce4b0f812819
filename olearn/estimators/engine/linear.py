"""Engines of the linear multiclass families: one weight (mean) row per class.

:class:`LinearEngine` holds the weights feature-major, ``W[feature, class]`` with the
intercept column's row last (LIBLINEAR's convention: the intercept is a constant column of
value ``intercept_scaling``), and the averaging state (:mod:`olearn.estimators._average`);
:class:`AdditiveEngine` runs the Perceptron, PA and SPA rules through
:func:`olearn.kernels.additive.additive_epoch`.  The confidence-weighted family adds its
covariance in :mod:`.cw`.
"""

from __future__ import annotations

import functools
import importlib
import math

import numpy as np
import scipy.sparse as sp

from olearn._budget import model_bytes
from olearn.estimators._average import count_unchanged
from olearn.estimators.engine import small
from olearn.estimators.engine.base import FLOAT_MAX, OnlineEngine
from olearn.kernels.sparse import row_scores

# The largest change one weighted step may make to a score, ``s ||x||^2`` (Perceptron) or
# ``eta s ||x||^2`` (SGD-SVM): a score would need 1e208 such steps to overflow float64.
MAX_STEP = 1e100
_EMPTY_2D = np.zeros((0, 0))
# The smallest positive float64: a price ``s C`` below it is 0, no longer a price.
TINY = 5e-324


@functools.cache
def load_kernel(path: str):
    """The numba kernel an engine declares as ``kernel = "module:function"`` (imported on
    first use)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def price_range(C: float, low: float, high: float, name: str) -> tuple[float, float, str]:
    """Weights s that keep the price ``s C`` (or a ``C`` divided by s: pass ``1/C``) inside
    ``[low, high]``: ``(low / C, high / C, why)``."""
    return low / C, high / C, f"s x {name} = {name}_i must stay in [{low:.3g}, {high:.3g}]"


class LinearEngine(OnlineEngine):
    """``W`` (d [+1], K) and, with averaging, ``U`` (like W) and ``avg`` ``[t, n_avg, start]``."""

    dense_view = True  # the kernels add x_j terms only: dense rows keep their zeros

    def _setup(self, *, fit_intercept: bool = False, intercept_scaling: float = 1.0,
               average: int = 0, **family) -> None:  # fmt: skip
        self.fit_intercept = bool(fit_intercept)
        self.intercept_scaling = float(intercept_scaling)
        self.average = int(average)  # the first averaged example (1-based), 0: off
        self._setup_family(**family)

    def _setup_family(self) -> None:
        """A subclass's own structural values."""

    @property
    def params(self) -> dict:
        params = {"fit_intercept": self.fit_intercept}
        if self.fit_intercept:  # intercept_ = intercept_scaling * W[d]: its meaning
            params["intercept_scaling"] = self.intercept_scaling
        if self.average:  # the state holds the averaging sum
            params["average"] = self.average
        return params

    def column_value(self) -> float:
        return self.intercept_scaling if self.fit_intercept else 0.0

    def state_bytes(self, n_features: int, n_classes: int) -> tuple[int, str]:
        # W (rows x classes); two classes: the kernel's one-vector working copy
        rows = n_features + (1 if self.fit_intercept else 0)
        copies = n_classes + (1 if n_classes == 2 else 0)
        copies += 2 * n_classes if self.average else 0  # U and the averaged weights
        what = f"a model of {n_classes:,} classes x {rows:,} features (weights)"
        return model_bytes(copies, rows), what

    def _allocate(self) -> None:
        rows = self.n_features + (1 if self.fit_intercept else 0)
        self.W = np.zeros((rows, self.classes.shape[0]))  # W[feature, class]; intercept last
        if self.average:
            self.U = np.zeros_like(self.W)
            self.avg = np.array([0, 0, self.average], dtype=np.int64)
        else:
            self.U = self.avg = None

    def _add_class(self, position: int) -> None:
        # a zero weight column at ``position`` (classes already holds the label there)
        self.W = np.insert(self.W, position, 0.0, axis=1)
        if self.U is not None:  # its iterates so far had a zero row there too
            self.U = np.insert(self.U, position, 0.0, axis=1)

    def _widen(self, n_features: int) -> None:
        # zero rows before the intercept's (which stays last)
        def grown(A):
            zeros = np.zeros((n_features - self.n_features, A.shape[1]))
            return np.concatenate([A[: self.n_features], zeros, A[self.n_features :]])

        self.W = grown(self.W)
        if self.U is not None:
            self.U = grown(self.U)

    def _count_passive(self, n: int) -> None:
        count_unchanged(self.avg, n)

    def average_args(self) -> tuple:
        """``(U, avg)`` for a kernel call (None, None without averaging)."""
        return self.U, self.avg

    def public_weights(self) -> np.ndarray:
        """The weights predictions use: the average of the iterates, or ``W`` itself."""
        if self.U is None:
            return self.W
        n_avg = int(self.avg[1])
        return self.W - self.U / n_avg if n_avg > 0 else self.W.copy()

    def class_intercepts(self, W: np.ndarray | None = None) -> np.ndarray:
        """Each class's intercept, ``intercept_scaling * W[d]`` (zeros without one), (K,)."""
        W = self.public_weights() if W is None else W
        if self.fit_intercept:
            return self.intercept_scaling * W[self.n_features]
        return np.zeros(W.shape[1])

    def load_init(self, coef, intercept) -> None:
        """``fit``'s ``coef_init`` (K, d) / ``intercept_init`` (K,), per class, into a fresh
        model."""
        d = self.n_features
        if intercept is not None and not self.fit_intercept:
            raise ValueError(f"{self.owner}.fit: intercept_init needs fit_intercept=True")
        if coef is not None:
            self.W[:d] = coef.T
        if intercept is not None:
            self.W[d] = intercept / self.column_value()

    def _scores(self, X) -> np.ndarray:
        W, d = self.public_weights(), self.n_features  # W itself, or the averaged weights
        scores = X @ W[:d]
        if sp.issparse(scores):
            scores = scores.toarray()
        return np.asarray(scores) + self.class_intercepts(W)

    def _row_scores(self, rows: tuple) -> np.ndarray:
        W = self.public_weights()
        n = rows[0][0].shape[0] - 1
        scores = np.empty((n, W.shape[1]))
        for i in range(n):  # the kernels' own score (the intercept column is one of the rows)
            row_scores(rows, i, W, scores[i])
        return scores

    def small_scores(self, columns, values) -> list[float] | None:
        view = small.flat_view(self.W) if self.U is None else None  # averaged: scores()
        if view is None:
            return None
        K = self.W.shape[1]
        made = small.small_row(columns, values, self.n_features, self.column_value(), view, K)
        if made is None or small.work(len(made[0]), K) > small.SMALL_WORK:
            return None
        return made[2]

    def _state_spec(self, n_classes: int, n_features: int) -> dict:
        spec = {"coef": ((n_classes, n_features), "real")}
        if self.fit_intercept:
            spec["intercept_weight"] = ((n_classes,), "real")
        if self.average:
            spec["average_sum"] = ((n_classes, n_features), "real")
            spec["average_counts"] = ((3,), "count")
            if self.fit_intercept:
                spec["average_sum_intercept"] = ((n_classes,), "real")
        return spec

    def _state_arrays(self) -> dict:
        d = self.n_features
        arrays = {"coef": self.W[:d].T.copy()}
        if self.fit_intercept:
            arrays["intercept_weight"] = self.W[d].copy()
        if self.U is not None:
            arrays["average_sum"] = self.U[:d].T.copy()
            arrays["average_counts"] = self.avg.copy()
            if self.fit_intercept:
                arrays["average_sum_intercept"] = self.U[d].copy()
        return arrays

    def _load_arrays(self, arrays: dict) -> None:
        coef = arrays["coef"]
        W = np.empty((coef.shape[1] + (1 if self.fit_intercept else 0), coef.shape[0]))
        W[: coef.shape[1]] = coef.T
        if self.fit_intercept:
            W[-1] = arrays["intercept_weight"]
        self.W = W
        self.U = self.avg = None
        if "average_sum" in arrays:
            U = np.zeros_like(W)
            U[: coef.shape[1]] = arrays["average_sum"].T
            if self.fit_intercept:
                U[-1] = arrays["average_sum_intercept"]
            self.U, self.avg = U, arrays["average_counts"].copy()


class AdditiveEngine(LinearEngine):
    """The Perceptron, PA and SPA families: ``w_u += coef_u x`` for a few classes per step,
    one numba kernel for all of them (the rule picked by its code, :mod:`olearn.kernels.codes`).

    Steps (:meth:`tune`): ``code`` (the rule), ``C`` (the slack's price; 1 where unused) and
    ``weight_scales``: what an example's weight s scales, the price (``"C"``: ``C_i = s C``)
    or the step (``"step"``: s times the unweighted step, scikit-learn's weighted PA; the
    kernel takes the weights as :class:`olearn.kernels.weights.StepWeights`).
    """

    kernel = "olearn.kernels.additive:additive_epoch"

    def tune(self, *, code: int, C: float = 1.0, weight_scales: str = "C") -> None:
        self.code, self.C, self.weight_scales = int(code), float(C), weight_scales

    def _weight_range(self, largest: float) -> tuple[float, float, str]:
        from olearn.kernels.codes import PERCEPTRON, SPA1, SPA2, additive_code

        if self.code == PERCEPTRON:  # the step is +-s x: s ||x||^2 on the score scale
            high = max(1.0, MAX_STEP / largest) if largest > 0 else math.inf
            return 0.0, high, f"the Perceptron's step s ||x||^2 must stay <= {MAX_STEP:.0e}"
        if self.weight_scales == "step":
            return self._step_range(largest)
        soft = {additive_code("pa", "I"), additive_code("pa", "II"), SPA1, SPA2}
        if self.code in soft:  # the slack's price C_i = s C
            return price_range(self.C, TINY, FLOAT_MAX, "C")
        return 0.0, math.inf, ""  # hard rules: any s > 0 is the constraint's presence

    def learn_small(self, columns, values, label) -> bool:
        K = self.W.shape[1]
        if self.U is not None or K < 2 or self.code not in small.SMALL_RULES:
            return False
        view = small.flat_view(self.W, writeable=True)
        if view is None:
            return False
        try:
            y = self._class_index().get(label)
        except TypeError:  # unhashable: the door says so
            return False
        if y is None:  # a new class (or a refused label): the door's class growth
            return False
        made = small.small_row(columns, values, self.n_features, self.column_value(), view, K)
        if made is None or small.work(len(made[0]), K) > small.SMALL_WORK:
            return False
        row, sqnorm, scores = made
        if small.additive_step(view, K, row, scores, sqnorm, y, code=self.code, C=self.C):
            self.n_updates += 1
        self.t += 1
        return True

    def _step_range(self, largest: float) -> tuple[float, float, str]:
        """The weights a scaled step (``weight_scales="step"``) may take.  PA-I / SPA-I: the
        step is capped (``s C``), as the Perceptron's, within :data:`MAX_STEP`.  The steps
        proportional to the loss (hard PA / SPA, PA-II / SPA-II) move the margin of the
        example to ``1 - l + s b l`` (``b = 2n / (2n + 1/2C)``, 1 for the hard ones): with
        ``s b > 2`` it lands further from 1 than it was, and repeated such steps diverge to
        infinity; ``s <= 2 / b`` (for the largest ``n``) keeps every step non-expanding."""
        from olearn.kernels.codes import PA1, PA2, SPA1, SPA2

        if self.code in (PA1, SPA1):
            high = max(1.0, MAX_STEP / (self.C * largest)) if largest > 0 else math.inf
            why = f"the scaled step's s C ||x||^2 must stay <= {MAX_STEP:.0e}"
            return 0.0, high, why
        high = 2.0 + (0.5 / (self.C * largest) if self.code in (PA2, SPA2) else 0.0)
        why = (
            "weight_scales='step' with a step proportional to the loss (hard PA / SPA, "
            "PA-II / SPA-II) overshoots the margin for s > 2 / b (b = 2n / (2n + 1/2C), 1 "
            "for the hard rules) and the weights diverge; PA-I / SPA-I cap the scaled step "
            "(scikit-learn's default PA), use them for larger weights"
        )
        return 0.0, high, why

    def _weight_remedy(self) -> tuple[str, str]:
        from olearn.kernels.codes import ADDITIVE_NAMES

        return ADDITIVE_NAMES[self.code], (
            "use a soft variant (PA-I / PA-II, SPA-I / SPA-II: the weight prices the slack, "
            'C_i = w C), or weight_scales="step" (the step times w, as scikit-learn\'s '
            "weighted PassiveAggressiveClassifier)"
        )

    def _epoch(self, rows, y_idx, order, mistakes, weights=None) -> int:
        K = self.W.shape[1]
        if self.__dict__.get("_no_coef", _EMPTY_2D).shape[1] != K:
            self._no_coef = np.zeros((0, K))  # the kernel records no step coefficients
        if weights is not None and self.weight_scales == "step":
            from olearn.kernels.weights import StepWeights

            weights = StepWeights(weights)  # numba compiles the scaled step apart
        return load_kernel(self.kernel)(
            rows, y_idx, order, self.W, self.code, self.C, self._no_coef, mistakes, weights,
            self.U, self.avg,
        )  # fmt: skip
