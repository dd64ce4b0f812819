"""scikit-learn regressor for Passive-Aggressive regression (PA, PA-I, PA-II), the successor
of scikit-learn's deprecated ``PassiveAggressiveRegressor``: the rule
:func:`olearn.core.pa_regression.pa_regression_step`, its kernel
:mod:`olearn.kernels.pa_regression`, and the engine
:class:`olearn.estimators.engine.regression.RegressionEngine`."""

from __future__ import annotations

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from olearn.estimators._average import AVERAGE_CONSTRAINT, average_start
from olearn.estimators._face import EngineFace
from olearn.estimators._fit_options import (
    FIT_CONSTRAINTS,
    Stopping,
    report_epoch,
    warn_not_converged,
)
from olearn.estimators._fitted import EngineCounters
from olearn.estimators._model_state import ModelState, unfitted_on_failure
from olearn.estimators._params import FLOAT_MAX, POSITIVE, store_params
from olearn.estimators._weights import example_weights
from olearn.estimators.engine.regression import RegressionEngine

__all__ = ["PARegressor"]


def epsilon_insensitive_loss(prediction: np.ndarray, y: np.ndarray, epsilon: float) -> float:
    """Mean ``max(0, |y - p| - epsilon)`` (``fit``'s ``tol`` criterion).

    >>> epsilon_insensitive_loss(np.array([0.0, 1.0]), np.array([0.05, 3.0]), 0.1)
    0.95
    """
    return float(np.maximum(0.0, np.abs(y - prediction) - epsilon).mean()) if y.size else 0.0


class PARegressor(EngineFace, EngineCounters, ModelState, RegressorMixin, BaseEstimator):
    """Passive-Aggressive regression (PA, PA-I, PA-II) with the epsilon-insensitive loss.

    Each step solves ``min 1/2 ||w - w_old||^2 (+ C xi | + C xi^2)`` subject to
    ``|y - w.x| <= epsilon (+ xi)``: passive while the target is inside the tube
    ``[w.x - epsilon, w.x + epsilon]``, else ``w += sign(y - w.x) tau x`` with
    ``tau = l / ||x||^2`` (PA), ``min(C, l / ||x||^2)`` (PA-I) or
    ``l / (||x||^2 + 1/(2C))`` (PA-II), ``l = |y - w.x| - epsilon``
    (:mod:`olearn.core.pa_regression`).

    Parameters
    ----------
    variant : {None, "I", "II"}, default=None
        Hard PA, PA-I or PA-II.  scikit-learn's ``loss="epsilon_insensitive"`` is PA-I and
        ``"squared_epsilon_insensitive"`` PA-II, with the same ``C`` (one vector moves:
        no factor 2, unlike the multiclass :class:`~olearn.estimators.PAClassifier`).
    C : float, default=1.0
        Slack price (> 0); ignored by hard PA.
    epsilon : float, default=0.1
        The tube's half-width (>= 0): targets within it of the prediction teach nothing.
    fit_intercept : bool, default=False
        Append a constant feature of value ``intercept_scaling`` to every x (it enters
        ``||x||^2`` like any feature; LIBLINEAR's meaning, as the classifiers');
        ``intercept_ = intercept_scaling * w_intercept``.  scikit-learn's intercept is left
        out of ``||x||^2``: with an intercept the two differ (docs/migrating-from-sklearn.md).
    intercept_scaling : float, default=1.0
        The constant feature's value (> 0).
    average : bool or int, default=False
        Predict with the mean of the weights after each example (from the ``average``-th on
        for an int), kept in O(non-zeros) per example, as the classifiers'.
    epochs : int, default=5
        Passes over the data made by ``fit`` (``partial_fit`` always makes one).
    shuffle : bool, default=True
        Visit the samples of each ``fit`` epoch in a fresh random order.
    random_state : int, RandomState or None, default=None
        Seed of that order and of ``early_stopping``'s split.
    tol : float or None, default=None
        ``None``: every ``fit`` makes exactly ``epochs`` passes.  A number: ``fit`` stops once
        ``n_iter_no_change`` epochs in a row end with a mean training epsilon-insensitive loss
        (of the model at the end of the epoch) above ``best - tol``, or, with
        ``early_stopping``, a validation R^2 below ``best + tol``.  Reaching ``epochs``
        without stopping warns (ConvergenceWarning).
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping; used only when ``tol`` is set.
    early_stopping : bool, default=False
        Judge improvement by R^2 on a held-out ``validation_fraction`` of ``fit``'s data
        (``ShuffleSplit`` seeded by ``random_state``, as scikit-learn's regressors).
    validation_fraction : float, default=0.1
        The held-out share for ``early_stopping``.
    verbose : int, default=0
        > 0: one line per ``fit`` epoch (updates, mean training loss, ``t_``, time).
    warm_start : bool, default=False
        ``fit`` on a fitted model continues from its state instead of zero weights.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        The weights (the average of the iterates with ``average``).
    intercept_ : ndarray of shape (1,)
        Zero without ``fit_intercept``.
    n_features_in_, feature_names_in_ : the input's width and (DataFrame) column names.
    t_ : int
        Samples learned from.
    n_updates_ : int
        Aggressive steps made.
    n_iter_ : int
        Epochs of the last ``fit``.

    Notes
    -----
    *Weights.*  An example's weight s (``sample_weight``) prices its slack ``s C`` (PA-I,
    PA-II); hard PA, having no price, takes any s > 0 as the constraint's presence.  A weight
    of 0 is the example's absence, exactly.  (scikit-learn scales the step by s instead.)

    *State.*  ``get_state()`` -> dict with ``"version"``, ``"params"``, ``"n_features_in"``,
    ``"feature_names_in"``, ``"t"``, ``"n_updates"``, ``"n_iter"``, ``"coef"`` (d,) float64
    [``"intercept_weight"`` (1,) with ``fit_intercept``] [``"average_sum"`` (d,),
    ``"average_sum_intercept"`` (1,), ``"average_counts"`` (3,) with ``average``];
    ``set_state(state)`` checks and loads it, after which the model continues bit for bit.

    Examples
    --------
    >>> import numpy as np
    >>> from olearn.estimators import PARegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = X @ np.array([1.0, -2.0, 0.5]) + 0.01 * rng.normal(size=200)
    >>> reg = PARegressor(variant="I", C=1.0, epsilon=0.01, random_state=0).fit(X, y)
    >>> reg.coef_.round(1).tolist(), reg.score(X, y) > 0.99
    ([1.0, -2.0, 0.5], True)

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz, Y. Singer, "Online
    Passive-Aggressive Algorithms", JMLR 7:551-585, 2006.
    """

    engine_class = RegressionEngine

    _parameter_constraints: dict = {
        "variant": [StrOptions({"I", "II"}), None],
        "C": [POSITIVE],
        "epsilon": [Interval(Real, 0.0, FLOAT_MAX, closed="both")],
        "fit_intercept": ["boolean"],
        "intercept_scaling": [POSITIVE],
        "average": AVERAGE_CONSTRAINT,
        "epochs": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        **FIT_CONSTRAINTS,
    }

    def __init__(
        self,
        *,
        variant=None,
        C=1.0,
        epsilon=0.1,
        fit_intercept=False,
        intercept_scaling=1.0,
        average=False,
        epochs=5,
        shuffle=True,
        random_state=None,
        tol=None,
        n_iter_no_change=5,
        early_stopping=False,
        validation_fraction=0.1,
        verbose=0,
        warm_start=False,
    ):
        store_params(self, locals())

    # --- the engine's values ---------------------------------------------------------------
    def _structure(self) -> dict:
        return {
            "fit_intercept": bool(self.fit_intercept),
            "intercept_scaling": float(self.intercept_scaling),
            "average": average_start(self.average),
        }

    def _steps(self) -> dict:
        from olearn.kernels.codes import regression_code

        return {"code": regression_code(self.variant), "C": float(self.C),
                "epsilon": float(self.epsilon)}  # fmt: skip

    def _new_engine(self, n_features: int, names):
        return self.engine_class.create(n_features, owner=self._name, steps=self._steps(),
                                        feature_names=names, **self._structure())  # fmt: skip

    # --- validation --------------------------------------------------------------------------
    def _validate_Xy(self, X, y, reset: bool):
        X, y, names = self._checked_Xy(X, y, reset, y_numeric=True)
        return X, np.asarray(y, dtype=np.float64), names

    # --- public API --------------------------------------------------------------------------
    @unfitted_on_failure
    def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        """Learn with ``epochs`` passes over (X, y): from zero weights, from ``coef_init`` /
        ``intercept_init``, or (``warm_start=True``, fitted) from the current state; fewer
        passes when ``tol`` stops it.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), finite real targets.
        coef_init : array-like of shape (n_features,) or (1, n_features), optional
        intercept_init : array-like of shape (1,) or a number, optional (needs
            ``fit_intercept=True``).
        sample_weight : array-like of shape (n_samples,), default=None
            Each example's weight ``s >= 0`` (class *Notes*); 0 is the example's absence.

        Returns
        -------
        self
        """
        self.check_params()
        init = coef_init is not None or intercept_init is not None
        warm = bool(self.warm_start) and not init and self._fitted()
        if warm:
            self._check_structure("continue with a warm-start fit")
        X, y, names = self._validate_Xy(X, y, reset=not warm)
        X, y, weights, _ = example_weights(X, y, sample_weight, None, partial=False)
        if warm:
            engine = self.engine_
            engine.tune(**self._steps())
            engine.n_iter = 0  # this fit's epochs
        else:
            engine = self._new_engine(X.shape[1], names)
            if init:
                engine.load_init(*self._init(coef_init, intercept_init, X.shape[1]))
        rng = check_random_state(self.random_state) if self.shuffle else None
        if self.tol is None and not self.verbose and not self.early_stopping:
            engine.epochs(engine.check(X, y, weights), self.epochs, rng)  # the plain path
        else:
            self._run_watched(engine, X, y, weights, rng)
        self.engine_ = engine
        return self

    def _init(self, coef_init, intercept_init, d: int):
        """``coef_init`` as (d,) and ``intercept_init`` as (1,), checked (None kept)."""
        coef = b = None
        if coef_init is not None:
            coef = np.asarray(coef_init, dtype=np.float64)
            if coef.shape not in ((d,), (1, d)):
                raise ValueError(f"{self._name}.fit: coef_init has shape {coef.shape}, "
                                 f"expected ({d},)")  # fmt: skip
            coef = coef.reshape(d)
        if intercept_init is not None:
            b = np.asarray(intercept_init, dtype=np.float64).reshape(-1)
            if b.shape != (1,):
                raise ValueError(f"{self._name}.fit: intercept_init must be one number")
        for name, value in (("coef_init", coef), ("intercept_init", b)):
            if value is not None and not np.all(np.isfinite(value)):
                raise ValueError(f"{self._name}.fit: {name} holds NaN or infinity")
        return coef, b

    def _run_watched(self, engine, X, y, weights, rng) -> None:
        """``fit``'s epochs one at a time with ``tol`` / ``early_stopping`` / ``verbose``."""
        start = time.perf_counter()
        held = None
        if self.early_stopping:  # held out even with tol=None, as in scikit-learn
            from sklearn.model_selection import ShuffleSplit

            split = ShuffleSplit(test_size=self.validation_fraction,
                                 random_state=self.random_state)  # fmt: skip
            train, held = (np.sort(part) for part in next(split.split(X)))
            X_held, y_held = X[held], y[held]
            X, y = X[train], y[train]
            weights = None if weights is None else weights[train]
        batch = engine.check(X, y, weights)
        stopping = Stopping(self.tol, self.n_iter_no_change, held is not None)
        for epoch in range(1, self.epochs + 1):
            updates = engine.n_updates
            engine.epochs(batch, 1, rng)
            loss = score = None
            if held is None or self.verbose:
                loss = epsilon_insensitive_loss(engine.predict(X), y, self.epsilon)
            if held is not None:
                from sklearn.metrics import r2_score

                score = float(r2_score(y_held, engine.predict(X_held)))
            if self.verbose:
                report_epoch(epoch, engine.n_updates - updates, loss, engine.t, start, score)
            if stopping.done(loss if held is None else score):
                return
        if self.tol is not None:
            warn_not_converged(self._name, self.epochs)

    def partial_fit(self, X, y, sample_weight=None):
        """One update per sample, in the given order (a single online pass), all or nothing.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), finite real targets.
        sample_weight : array-like of shape (n_samples,), default=None
            As in :meth:`fit`.

        Returns
        -------
        self
        """
        self.check_params()
        first = not self._fitted()
        if not first:
            self._check_structure("continue with partial_fit")
        X, y, names = self._validate_Xy(X, y, reset=first)
        X, y, weights, _ = example_weights(X, y, sample_weight, None, partial=True)
        engine = self._new_engine(X.shape[1], names) if first else self.engine_
        engine.tune(**self._steps())
        if y.shape[0]:
            engine.learn_rows(X, y, weights)
        self.engine_ = engine
        return self

    def predict(self, X) -> np.ndarray:
        """``X @ coef_ + intercept_``."""
        X = self._validate_X(X)  # first: NotFittedError before fit
        return self.engine_.predict(X)

    @property
    def coef_(self) -> np.ndarray:
        """(n_features,): the weights (the average of the iterates with ``average``)."""
        engine = self.__dict__.get("engine_")
        if engine is None:
            raise AttributeError(f"{self._name} has no coef_ before fit")
        return engine.public_weights()[: engine.n_features, 0]

    @property
    def intercept_(self) -> np.ndarray:
        """(1,): ``intercept_scaling * w_intercept`` (zero without ``fit_intercept``)."""
        engine = self.__dict__.get("engine_")
        if engine is None:
            raise AttributeError(f"{self._name} has no intercept_ before fit")
        return engine.class_intercepts()

    # --- the public state --------------------------------------------------------------------
    def get_state(self) -> dict:
        """The model as plain arrays and scalars (copies); keys in the class's *Notes*."""
        check_is_fitted(self, "engine_")
        self._check_structure("give its state")
        return self.engine_.get_state()

    def set_state(self, state: dict):
        """Replace the model by ``state`` (a :meth:`get_state` dict, every entry checked before
        anything changes); returns self."""
        self.check_params()
        engine = self.engine_class.from_state(state, owner=self._name, steps=self._steps(),
                                              **self._structure())  # fmt: skip
        self._forget()
        self.engine_ = engine
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
