"""The scikit-learn face of every olearn online classifier, over its engine.

An online estimator is two things: this face (parameters, scikit-learn's input validation,
``sample_weight`` / ``class_weight``, ``tol`` / early stopping, ``warm_start``, ``coef_init``)
and an engine (:mod:`olearn.estimators.engine`, the fitted attribute ``engine_``) that owns the
model: classes, width, counters, class growth, the state, and the one door every path into
the model goes through.  A family face declares

- ``engine_class``: its engine (:class:`~olearn.estimators.engine.AdditiveEngine`, ...);
- ``_structure() -> dict``: the engine's structural values from the parameters (what fixes
  the state's shape or meaning: ``fit_intercept``, the covariance kind ...);
- ``_steps() -> dict``: the step sizes the next passes use (``C``, ``eta``, the variant ...);
- ``_check_params()``: cross-parameter checks beyond ``_parameter_constraints``.

The fitted attributes ``classes_``, ``n_features_in_``, ``feature_names_in_``, ``t_``,
``n_updates_`` and ``n_iter_`` read the engine, so every path (River's widening included)
sees one model.  ``fit`` = a fresh engine (or ``coef_init``, or the current one with
``warm_start``) + ``epochs`` passes (shuffled with ``random_state`` if ``shuffle``), fewer if
``tol`` stops it (:mod:`olearn.estimators._fit_options`); a failed ``fit`` leaves the estimator
unfitted.  ``partial_fit`` = exactly one pass over the given samples, in the given order,
all or nothing: a refused call leaves the model as it was.  A store
(:mod:`olearn.datasets.store`) is streamed chunk by chunk (:mod:`olearn.estimators._stream`).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from olearn.estimators import _stream
from olearn.estimators._face import EngineFace
from olearn.estimators._fit_options import FIT_CONSTRAINTS, per_class_init, run_watched
from olearn.estimators._fitted import EngineAttributes
from olearn.estimators._model_state import ModelState, unfitted_on_failure
from olearn.estimators._weights import CLASS_WEIGHT_CONSTRAINT, example_weights
from olearn.estimators.engine.labels import encode_classes, index_of, unknown_labels_error

_ADD_CLASSES = (
    "pass every class with classes=... on the first partial_fit call, with the labels' own type"
)


class OnlineClassifier(EngineFace, EngineAttributes, ModelState, ClassifierMixin, BaseEstimator):
    """Base class: scikit-learn ``fit`` / ``partial_fit`` / ``predict`` over an online engine."""

    engine_class: type = None  # the family's engine (olearn.estimators.engine)

    _parameter_constraints: dict = {
        "fit_intercept": ["boolean"],
        "epochs": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        **FIT_CONSTRAINTS,  # tol, n_iter_no_change, early_stopping, ... (_fit_options)
        "class_weight": CLASS_WEIGHT_CONSTRAINT,
    }

    # --- a family's declarations (module docstring) --------------------------------------
    def _structure(self) -> dict:
        return {"fit_intercept": bool(self.fit_intercept)}

    def _steps(self) -> dict:
        return {}

    def new_engine(self, n_features: int, classes, feature_names=None):
        """A fresh engine for these parameters (zero weights; ``classes`` declared, at least
        two for a family that cannot add classes), checked against the family's limits and the
        memory budget.  Not attached: ``engine_`` is the fitted one."""
        self.check_params()
        least = 1 if self.engine_class.grows else 2
        return self._new_engine(int(n_features), encode_classes(np.asarray(classes)),
                                feature_names, least)  # fmt: skip

    def tuned_engine(self, action: str = "continue learning"):
        """``engine_``, with the current step sizes, after checking that no parameter that
        fixes its state changed (ValueError naming it, as ``partial_fit`` would)."""
        check_is_fitted(self, "engine_")
        self.check_params()
        self._check_structure(action)
        self.engine_.tune(**self._steps())
        return self.engine_

    # --- validation --------------------------------------------------------------------------
    def _validate_Xy(self, X, y, reset: bool):
        """scikit-learn's checks of X and y (the engine's door checks the values: structure,
        finiteness, norms, labels); returns ``(X, y, width, feature names)``."""
        X, y, names = self._checked_Xy(X, y, reset, y_numeric=False)
        check_classification_targets(y)
        return X, y, X.shape[1], names

    def _new_engine(self, n_features: int, classes: np.ndarray, names, least: int):
        if classes.shape[0] < least:
            n = classes.shape[0]
            raise ValueError(
                f"this classifier needs samples of at least {least} classes; got {n} class"
                f"{'' if n == 1 else 'es'}: {classes.tolist()} (with partial_fit, pass "
                "classes=[...] listing every label)"
            )
        return self.engine_class.create(n_features, classes, owner=self._name, steps=self._steps(),
                                        feature_names=names, **self._structure())  # fmt: skip

    # --- public API --------------------------------------------------------------------------
    @unfitted_on_failure
    def fit(self, X, y=None, coef_init=None, intercept_init=None, sample_weight=None):
        """Learn with ``epochs`` passes over (X, y): from zero weights, from ``coef_init`` /
        ``intercept_init``, or (``warm_start=True``, fitted) from the current state; fewer
        passes when ``tol`` stops it (see the class's parameters).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or a store
            (:mod:`olearn.datasets.store`, with ``y=None``): streamed chunk by chunk
            (:mod:`olearn.estimators._stream`; no ``tol``, ``early_stopping``, inits or
            weights).
        y : array-like of shape (n_samples,), labels of any hashable type but None and NaN.
        coef_init : array-like of shape (n_classes, n_features), optional
            Initial weights (per-class rows, in ``classes_`` order; the rest of the state,
            e.g. a covariance, starts as usual).  For two classes also (1, n_features) or
            (n_features,): the difference ``w_1 - w_0`` that ``coef_`` reports, split as
            ``w_1 = c / 2``, ``w_0 = -c / 2`` (exact), so ``coef_`` equals it before the
            first step.  Takes precedence over ``warm_start``, as in scikit-learn.
        intercept_init : array-like of shape (n_classes,), optional
            Initial ``intercept_`` (needs ``fit_intercept=True``); for two classes also (1,),
            the difference, split the same way.
        sample_weight : array-like of shape (n_samples,), default=None
            Each example's weight ``s >= 0``, times ``class_weight``'s for its class; what it
            means for this rule is in the class's *Notes*.  A weight of 0 is the example's
            absence, exactly (the model equals the one fitted without it, bit for bit).

        Returns
        -------
        self
        """
        if _stream.is_stream(X):  # a chunked store (olearn.datasets.store): y=None
            return _stream.fit(self, X, y, coef_init, intercept_init, sample_weight)
        self.check_params()
        init = coef_init is not None or intercept_init is not None
        warm = bool(self.warm_start) and not init and self._fitted()
        if warm:
            self._check_structure("continue with a warm-start fit")
        X, y, d, names = self._validate_Xy(X, y, reset=not warm)
        X, y, weights, _ = example_weights(X, y, sample_weight, self.class_weight, partial=False)
        if warm:
            engine = self.engine_
            if index_of(engine.classes, y) is None:
                raise unknown_labels_error(engine.classes, y, (
                    "warm_start=True continues the fitted model: add classes with partial_fit, "
                    "or set warm_start=False to learn a new model"))  # fmt: skip
            engine.tune(**self._steps())
            engine.n_iter = 0  # this fit's epochs
        else:
            engine = self._new_engine(d, encode_classes(y), names, least=2)
            if init:
                K = engine.classes.shape[0]
                engine.load_init(*per_class_init(coef_init, intercept_init, K, d, self._name))
        rng = check_random_state(self.random_state) if self.shuffle else None
        if self.tol is None and not self.verbose and not self.early_stopping:
            engine.epochs(engine.check(X, y, weights), self.epochs, rng)  # the plain path
        else:
            run_watched(self, engine, X, y, weights, rng)
        self.engine_ = engine
        if weights is not None:  # a weight other than 0 and 1: can the rule use it?
            engine.warn_unused_weight(self._name, stacklevel=3)  # the caller of fit
        return self

    def partial_fit(self, X, y=None, classes=None, sample_weight=None):
        """One update per sample, in the given order (a single online pass), all or nothing.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features), or a store
            (:mod:`olearn.datasets.store`, with ``y=None``): one pass in order, one chunk in
            memory; equal to the same rows in memory.
        y : array-like of shape (n_samples,), labels of any hashable type but None and NaN.
        classes : array-like, optional
            Labels to declare before the first sample (default: none).  A label seen for the
            first time, in ``y`` (on the first call too) or here, joins ``classes_`` with a
            zero weight row (the prior mean, for the confidence-weighted family; the
            covariance is shared already) at that moment: at its first sample, or, declared
            here, before this call's first sample.  So one call on a batch equals one call
            per sample, exactly.  The two differ: a declared class scores 0 from the
            start, so it can be the best wrong class of earlier updates (and be pushed down by
            them); a class that joins mid-stream takes part only from its first sample on.
            They agree while the declared class was never a rival.  ``classes_`` stays sorted
            (labels that cannot be ordered are appended).  The first call may hold a single
            class: the model predicts it, learns nothing (there is no rival) and starts
            learning when a second class arrives.  (``fit`` needs two classes, as in
            scikit-learn.)  ``SGDSVMClassifier`` cannot add classes: declare them all on its
            first call.
        sample_weight : array-like of shape (n_samples,), default=None
            As in :meth:`fit`; rows of weight 0 are absent (their labels do not join).
            ``class_weight="balanced"`` is refused here (a batch does not know the stream's
            class frequencies; pass a dict).

        Returns
        -------
        self
        """
        if _stream.is_stream(X):  # a chunked store, one pass in order, all or nothing
            _stream.partial(self, X, y, classes, sample_weight, record_mistakes=False)
            return self
        self._partial(X, y, classes, record_mistakes=False, sample_weight=sample_weight)
        return self

    def _partial(self, X, y, classes, record_mistakes: bool, sample_weight=None):
        self.check_params()
        first = not self._fitted()
        if not first:
            self._check_structure("continue with partial_fit")
        X, y, d, names = self._validate_Xy(X, y, reset=first)
        n_given = y.shape[0]
        known = None
        if isinstance(self.class_weight, dict):  # the classes once this call is learned
            before = [] if first else self.engine_.classes.tolist()
            known = [*before, *([] if classes is None else list(classes)), *y.tolist()]
        X, y, weights, kept = example_weights(X, y, sample_weight, self.class_weight,
                                              partial=True, classes=known)  # fmt: skip
        if y.shape[0] == 0:  # every weight 0: the call is absent
            return np.zeros(n_given if record_mistakes else 0, dtype=np.bool_)
        if first:  # declared classes; else the first label (growing) or all of y's
            grows = self.engine_class.grows
            given = np.asarray(classes) if classes is not None else (y[:1] if grows else y)
            engine = self._new_engine(d, encode_classes(given), names, least=1 if grows else 2)
            classes = None  # ``y``'s other labels join at their first row
        else:
            engine = self.engine_
            engine.tune(**self._steps())
        mistakes = engine.learn_rows(X, y, weights, declare=classes,
                                     record_mistakes=record_mistakes)  # fmt: skip
        self.engine_ = engine
        if weights is not None:  # a weight other than 0 and 1: can the rule use it?
            engine.warn_unused_weight(self._name, stacklevel=3)  # partial_fit's caller
        if kept is not None and record_mistakes:  # an absent row is no mistake
            every = np.zeros(n_given, dtype=np.bool_)
            every[kept] = mistakes
            return every
        return mistakes

    def learn_stream(self, X, y=None, classes=None, sample_weight=None) -> np.ndarray:
        """``partial_fit`` that also returns, per sample, whether the model mispredicted it
        *before* learning from it (progressive validation: the online mistake count).

        Returns
        -------
        mistakes : ndarray of bool, shape (n_samples,); ``mistakes.cumsum() / arange(1, n+1)``
        is the online learning curve.  A row of weight 0 is absent: False.
        """
        if _stream.is_stream(X):  # a chunked store, one pass in order
            return _stream.partial(self, X, y, classes, sample_weight, record_mistakes=True)
        return self._partial(X, y, classes, True, sample_weight=sample_weight)

    # --- the public state --------------------------------------------------------------------
    def get_state(self) -> dict:
        """Everything the model needs to go on learning, as plain arrays and scalars (copies).

        Keys (every estimator):

        - ``"version"`` : int, the layout's version (1);
        - ``"params"`` : dict, the parameters the state was built for (``fit_intercept``,
          ``intercept_scaling`` with an intercept, the covariance kind and prior ``a`` ...):
          :meth:`set_state` refuses a state built for other values;
        - ``"classes"`` : ndarray (K,), ``classes_``, in column order;
        - ``"n_features_in"`` : int; ``"feature_names_in"`` : ndarray of str, or None;
        - ``"t"``, ``"n_updates"``, ``"n_iter"`` : int, ``t_``, ``n_updates_``, ``n_iter_``;

        and the family's arrays (see the class's docstring, *State*).  Numbers are copied
        bit for bit, so a fresh estimator with the same parameters given this state by
        :meth:`set_state` continues exactly as this one would.  Parameter mixing (averaging
        several models' states key by key) is the caller's: the arrays are plain float64.

        >>> import numpy as np
        >>> from olearn.estimators import SPAClassifier
        >>> clf = SPAClassifier().partial_fit(np.eye(3), ["b", "b", "a"])  # "a" joins at row 2
        >>> state = clf.get_state()
        >>> state["classes"].tolist(), state["coef"].shape, state["t"]
        (['a', 'b'], (2, 3), 3)
        >>> state["coef"].tolist()  # "b" alone had no rival: rows 0 and 1 taught nothing
        [[0.0, 0.0, 0.5], [0.0, 0.0, -0.5]]
        >>> SPAClassifier().set_state(state).predict(np.eye(3)[2:]).tolist()
        ['a']
        """
        check_is_fitted(self, "engine_")
        self._check_structure("give its state")
        return self.engine_.get_state()

    def set_state(self, state: dict):
        """Replace the model by ``state`` (a :meth:`get_state` dict); returns self.

        Every entry is checked before anything changes (ValueError naming it): the keys, the
        layout version, the parameters (they must equal this estimator's: change them with
        ``set_params`` first), the classes (distinct; at least two for a family that cannot
        add classes), every array's shape, dtype (real numbers; the counters integers), that
        it is finite, and the covariance positive; then the family's limits (the full
        covariance's width) and the memory budget.  The arrays are copied in, so the caller's
        stay its own.
        """
        self.check_params()
        engine = self.engine_class.from_state(state, owner=self._name, steps=self._steps(),
                                              **self._structure())  # fmt: skip
        self._forget()
        self.engine_ = engine
        return self

    def decision_function(self, X):
        """Class scores ``w_u . x``; for two classes, the score of ``classes_[1]`` minus
        that of ``classes_[0]`` (scikit-learn's binary convention): in both cases
        ``X @ coef_.T + intercept_`` (raveled for two classes).
        """
        X = self._validate_X(X)
        scores = self.engine_.scores(X)
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict(self, X):
        """The class with the highest score (lowest index on ties)."""
        X = self._validate_X(X)
        return self.classes_[np.argmax(self.engine_.scores(X), axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
