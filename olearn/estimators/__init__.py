"""scikit-learn compatible estimators over the numba kernels.

Classes are imported lazily: ``import olearn.estimators`` stays cheap, and ``from
olearn.estimators import SPAClassifier`` imports the family modules (in the order of
``_FAMILIES``) until one lists the class in its ``__all__``.  A new estimator class is
exported by its own module's ``__all__``; nothing here names it.
"""

from __future__ import annotations

import importlib

# the modules under olearn.estimators that define estimator classes (their ``__all__``)
_FAMILIES = ("pa", "spa", "cw", "cs_svm", "pcvm", "sgd_svm", "pa_regression")


def _module_of(name: str):
    for family in _FAMILIES:
        module = importlib.import_module(f"olearn.estimators.{family}")
        if name in module.__all__:
            return module
    return None


def _all() -> list[str]:
    names = []
    for family in _FAMILIES:
        names += importlib.import_module(f"olearn.estimators.{family}").__all__
    return sorted(names)


def __getattr__(name: str):
    if name == "__all__":
        return _all()
    # only class names are looked up: a submodule (``from olearn.estimators import base``)
    # must fall through to the import system, which imports it without scanning
    module = _module_of(name) if name[:1].isupper() else None
    if module is None:
        raise AttributeError(f"module 'olearn.estimators' has no attribute {name!r}")
    return getattr(module, name)


def __dir__():
    return _all()
