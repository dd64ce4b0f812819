"""``average``: the mean of the weights after each example (scikit-learn's averaged SGD / the
averaged perceptron), for the linear multiclass estimators (Perceptron, PA, SPA; the means of
CW, AROW, SCW).

``w_bar_T = 1/(T - a + 1) sum_{t=a..T} w_t`` with ``w_t`` the weights after example t (t counts
every example the model has learned from, 1-based, across ``partial_fit`` calls and epochs)
and ``a = average`` (``True`` = 1: every iterate; scikit-learn's integer form: averaging starts
at the ``average``-th example).  The kernels keep it in O(non-zeros) per example by the lazy
identity ``w_bar = w - U / n_avg`` with ``U = sum_k n_k Delta_k`` (``n_k`` averaged examples
before k, ``Delta_k`` its update): see :func:`olearn.kernels.weights.average_step`.

Predictions, ``decision_function`` and ``coef_`` / ``intercept_`` use the average (as
scikit-learn); the raw weights stay in the state (``get_state()["coef"]``), beside ``U``
(``"average_sum"``, ``"average_sum_intercept"``) and the counters (``"average_counts"``:
``[t, n_avg, start]``), so a model restored from its state continues bit for bit.  The
progressive mistakes of ``learn_stream`` are the averaged model's too (its prediction before
each step; the raw model's while no iterate is averaged yet).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

AVERAGE_CONSTRAINT = ["boolean", Interval(Integral, 0, None, closed="left")]


def average_start(average) -> int:
    """The first averaged example (1-based), or 0 when averaging is off."""
    if isinstance(average, (bool, np.bool_)):
        return 1 if average else 0
    if isinstance(average, Integral) and average >= 0:
        return int(average)
    raise ValueError(f"average must be True, False or an int >= 0, got {average!r}")


class AveragedWeights:
    """Mixin of :class:`olearn.estimators.base.LinearMulticlassClassifier`: the averaging state
    ``_U`` (like ``_W``, or None) and ``_avg`` (``[t, n_avg, start]``, int64)."""

    def _averaging(self) -> bool:
        return average_start(getattr(self, "average", False)) > 0

    def _init_average(self) -> None:
        if self._averaging():
            self._U = np.zeros_like(self._W)
            self._avg = np.array([0, 0, average_start(self.average)], dtype=np.int64)
        else:
            self._U = self._avg = None

    def _average_args(self) -> tuple:
        """``(U, avg)`` for a kernel call (None, None without averaging)."""
        return getattr(self, "_U", None), getattr(self, "_avg", None)

    def _public_W(self) -> np.ndarray:
        """The weights predictions use: the average of the iterates, or ``_W`` itself."""
        U = getattr(self, "_U", None)
        if U is None:
            return self._W
        n_avg = int(self._avg[1])
        return self._W - U / n_avg if n_avg > 0 else self._W.copy()

    def _average_spec(self, n_classes: int, n_features: int, intercept: bool) -> dict:
        if not self._averaging():
            return {}
        spec = {
            "average_sum": ((n_classes, n_features), "real"),
            "average_counts": ((3,), "count"),
        }
        if intercept:
            spec["average_sum_intercept"] = ((n_classes,), "real")
        return spec

    def _average_arrays(self, d: int) -> dict:
        if getattr(self, "_U", None) is None:
            return {}
        arrays = {"average_sum": self._U[:d].T.copy(), "average_counts": self._avg.copy()}
        if self._U.shape[0] > d:
            arrays["average_sum_intercept"] = self._U[d].copy()
        return arrays

    def _load_average(self, arrays: dict) -> None:
        if "average_sum" not in arrays:
            self._U = self._avg = None
            return
        U = np.zeros_like(self._W)
        U[: arrays["average_sum"].shape[1]] = arrays["average_sum"].T
        if "average_sum_intercept" in arrays:
            U[-1] = arrays["average_sum_intercept"]
        self._U, self._avg = U, arrays["average_counts"].copy()


def count_unchanged(avg, n: int) -> None:
    """Advance the averaging counters ``avg`` (or None) over ``n`` examples that leave the
    weights as they are without a kernel call (a one-class model learns nothing): their
    iterates still count in the mean, and ``U`` is unchanged (``Delta = 0``)."""
    if avg is None or n == 0:
        return
    t0 = int(avg[0])
    avg[0] += n
    avg[1] += max(0, int(avg[0]) - max(t0, int(avg[2]) - 1))
