"""The fitted attributes of an online estimator, read from its engine (``engine_``).

``classes_``, ``t_``, ``n_updates_``, ``n_iter_``, ``n_features_in_`` and
``feature_names_in_`` are views of the engine, so every path into the model (River's
widening included) sees one model; while unfitted they do not exist (AttributeError), so
scikit-learn's ``check_is_fitted`` and ``hasattr`` behave as for plain attributes.
scikit-learn's ``validate_data(reset=True)`` sets ``n_features_in_`` / ``feature_names_in_``
on the estimator: the setters keep them aside for the ``fit`` that is validating, which gives
them to its new engine.
"""

from __future__ import annotations

import numpy as np


def _engine_attribute(name: str, doc: str):
    """A fitted attribute read from the engine (AttributeError while unfitted)."""

    def read(self):
        engine = self.__dict__.get("engine_")
        if engine is None:
            raise AttributeError(f"{type(self).__name__} has no {name}_ before fit")
        return getattr(engine, name)

    return property(read, doc=doc)


class EngineCounters:
    """The fitted attributes every online estimator has, a regressor's too (module docstring)."""

    t_ = _engine_attribute("t", "Samples learned from.")
    n_updates_ = _engine_attribute("n_updates", "Aggressive steps made.")
    n_iter_ = _engine_attribute("n_iter", "Epochs of the last fit.")

    @property
    def n_features_in_(self) -> int:
        """Features the model reads (the engine's width; River's adapter widens it)."""
        engine = self.__dict__.get("engine_")
        if engine is not None:
            return engine.n_features
        if "_seen_width" in self.__dict__:  # set by validate_data while validating
            return self.__dict__["_seen_width"]
        raise AttributeError(f"{type(self).__name__} has no n_features_in_ before fit")

    @n_features_in_.setter
    def n_features_in_(self, value) -> None:  # scikit-learn's validate_data(reset=True)
        self.__dict__["_seen_width"] = int(value)

    @property
    def feature_names_in_(self) -> np.ndarray:
        """The feature names of a DataFrame X (absent without them)."""
        engine = self.__dict__.get("engine_")
        names = engine.feature_names if engine is not None else None
        names = self.__dict__.get("_seen_names", names)
        if names is None:
            raise AttributeError(f"{type(self).__name__} has no feature_names_in_")
        return names

    @feature_names_in_.setter
    def feature_names_in_(self, value) -> None:
        self.__dict__["_seen_names"] = value

    @feature_names_in_.deleter
    def feature_names_in_(self) -> None:
        self.__dict__["_seen_names"] = None


class EngineAttributes(EngineCounters):
    """Mixin of :class:`olearn.estimators.base.OnlineClassifier` (module docstring)."""

    classes_ = _engine_attribute("classes", "The labels, in column order.")
