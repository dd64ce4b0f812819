"""scikit-learn compatible estimators over the numba kernels.

Classes are imported lazily (``from olearn.estimators import SPAClassifier`` loads only the
module that defines it), so ``import olearn.estimators`` stays cheap.
"""

from __future__ import annotations

import importlib

# class name -> module under olearn.estimators
_MODULES = {
    "PerceptronClassifier": "pa",
    "PAClassifier": "pa",
    "SPAClassifier": "spa",
    "CWClassifier": "cw",
    "AROWClassifier": "cw",
    "SCWClassifier": "cw",
    "CrammerSingerSVC": "cs_svm",
    "PCVMClassifier": "pcvm",
    "SGDSVMClassifier": "sgd_svm",
}

__all__ = sorted(_MODULES)


def __getattr__(name: str):
    if name not in _MODULES:
        raise AttributeError(f"module 'olearn.estimators' has no attribute {name!r}")
    module = importlib.import_module(f"olearn.estimators.{_MODULES[name]}")
    return getattr(module, name)


def __dir__():
    return __all__
