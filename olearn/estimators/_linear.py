"""The faces of the linear multiclass families (Perceptron, PA, SPA; the CW family's means).

One weight (mean) row per class, the intercept a constant column of value
``intercept_scaling`` (LIBLINEAR's convention): the engine keeps ``W[feature, class]`` with the
intercept column's row last (:class:`olearn.estimators.engine.LinearEngine`).

Fitted attributes: ``coef_`` (n_classes, n_features), ``intercept_`` (n_classes,),
``classes_``, ``n_features_in_``, ``t_`` (samples seen), ``n_iter_`` (epochs of the last
``fit``), ``n_updates_`` (aggressive steps).  ``coef_`` is a view of the engine's weights and
``intercept_ = intercept_scaling * W[-1]``.  Two classes: scikit-learn's convention, ``coef_``
(1, n_features) = ``w_1 - w_0`` and ``intercept_`` (1,), computed when read (no cost per
``partial_fit`` call); the per-class rows are the public state's (``get_state()["coef"]``).
"""

from __future__ import annotations

import numpy as np

from olearn.estimators._average import AVERAGE_CONSTRAINT, average_start
from olearn.estimators._params import POSITIVE
from olearn.estimators.base import OnlineClassifier
from olearn.estimators.engine import AdditiveEngine


class LinearMulticlassClassifier(OnlineClassifier):
    """Base of the Perceptron, PA, SPA and confidence-weighted faces (module docstring)."""

    _parameter_constraints: dict = {
        **OnlineClassifier._parameter_constraints,
        "intercept_scaling": [POSITIVE],
        "average": AVERAGE_CONSTRAINT,
    }

    def _structure(self) -> dict:
        return {
            **super()._structure(),
            "intercept_scaling": float(self.intercept_scaling),
            "average": average_start(self.average),
        }

    # scikit-learn's binary convention: two classes give one row, the difference
    @property
    def coef_(self) -> np.ndarray:
        """(n_classes, n_features): a view of the weights (writes change the model); for two
        classes (1, n_features) = ``w_1 - w_0``, a fresh array computed at each access (the
        per-class rows are ``get_state()["coef"]``).  With ``average``, the averaged weights
        (a fresh array)."""
        engine = self.__dict__.get("engine_")
        if engine is None:
            raise AttributeError(f"{self._name} has no coef_ before fit")
        W, d = engine.public_weights(), engine.n_features
        if W.shape[1] == 2:
            return (W[:d, 1] - W[:d, 0])[None, :]
        return W[:d].T

    @coef_.setter
    def coef_(self, value) -> None:
        raise AttributeError(
            f"{self._name}.coef_ is read from the model's state: set weights with "
            "set_state(...) or fit(X, y, coef_init=...)"
        )

    @property
    def intercept_(self) -> np.ndarray:
        """(n_classes,); for two classes (1,) = ``b_1 - b_0`` (zeros without an intercept)."""
        engine = self.__dict__.get("engine_")
        if engine is None:
            raise AttributeError(f"{self._name} has no intercept_ before fit")
        b = engine.class_intercepts()
        return b[1:] - b[:1] if b.shape[0] == 2 else b


class AdditiveLinearClassifier(LinearMulticlassClassifier):
    """The Perceptron, PA and SPA families: ``w_u += coef_u x`` for a few classes per step,
    one numba kernel (:func:`olearn.kernels.additive.additive_epoch`) for all of them."""

    engine_class = AdditiveEngine
    _rule = ""  # "perceptron", "pa" or "spa" (kernels.codes)

    def _code(self) -> int:
        """The kernel's rule code."""
        from olearn.kernels.codes import additive_code

        return additive_code(self._rule, getattr(self, "variant", None))

    def _slack_price(self) -> float:
        """The C the kernel uses (the Perceptron and hard variants ignore it)."""
        return 1.0

    def _check_params(self) -> None:
        self._code()  # a (rule, variant) pair without a kernel is an error

    def _steps(self) -> dict:
        # the Perceptron has no weight_scales: its weighted step is +-s x either way
        scales = getattr(self, "weight_scales", "C")
        return {"code": self._code(), "C": self._slack_price(), "weight_scales": scales}
