"""The public engine of olearn's online learners (:mod:`.base`), one per family.

- :class:`OnlineEngine`: classes, width, counters, class growth, the state, and the door
  (:meth:`~OnlineEngine.check` -> :class:`Batch` -> :meth:`~OnlineEngine.learn`).
- :class:`AdditiveEngine` (Perceptron, PA, SPA) and :class:`CWEngine` (CW, AROW, SCW, NHERD,
  NAROW) over :class:`LinearEngine`'s weights; :class:`SGDEngine` (SGD-SVM).

The estimators (:mod:`olearn.estimators`) are scikit-learn faces over these; stores, River
(:mod:`olearn.river`) and parameter mixing (:mod:`olearn.distributed`) come in through the
engine's public methods and the estimators' public API only.

>>> import numpy as np
>>> from olearn.estimators.engine import AdditiveEngine
>>> from olearn.kernels.codes import additive_code
>>> engine = AdditiveEngine.create(2, ["a", "b"], steps={"code": additive_code("spa")})
>>> batch = engine.check(np.array([[1.0, 0.0], [0.0, 1.0]]), ["a", "b"])
>>> engine.learn(batch, record_mistakes=True).tolist(), engine.t, engine.n_updates
([False, True], 2, 2)
>>> engine.check(np.array([[np.nan, 0.0]]), ["a"])
Traceback (most recent call last):
...
ValueError: AdditiveEngine: X holds NaN or infinity (a value must be finite)
>>> engine.learn_rows(np.eye(2), ["a", None])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: AdditiveEngine: label 1 is NaN or None: every sample needs a label ...
>>> engine.t  # refused at the door: nothing changed
2
"""

from olearn.estimators.engine.base import Batch, OnlineEngine
from olearn.estimators.engine.cw import CWEngine
from olearn.estimators.engine.linear import AdditiveEngine, LinearEngine, load_kernel
from olearn.estimators.engine.sgd import SGDEngine

__all__ = [
    "Batch",
    "OnlineEngine",
    "LinearEngine",
    "AdditiveEngine",
    "CWEngine",
    "SGDEngine",
    "load_kernel",
]
