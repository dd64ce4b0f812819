"""``fit``'s scikit-learn options: stopping (``tol``, ``n_iter_no_change``, ``early_stopping``,
``validation_fraction``), ``verbose``, ``warm_start`` and ``coef_init`` / ``intercept_init``.

Meanings are scikit-learn's ``SGDClassifier`` / ``PassiveAggressiveClassifier``'s
(``linear_model/_stochastic_gradient.py`` and ``_sgd_fast.pyx.tp``, version 1.9), with
``epochs`` in the role of ``max_iter``.  After each epoch :class:`Stopping` takes

- with ``early_stopping=False``: the *mean training loss* ``L``, and counts the epoch as
  "no improvement" when ``L > best_L - tol``;
- with ``early_stopping=True``: the accuracy ``A`` on a held-out stratified
  ``validation_fraction`` of the data (``StratifiedShuffleSplit`` seeded by
  ``random_state``, as scikit-learn), "no improvement" when ``A < best_A + tol``;

and ``fit`` stops after ``n_iter_no_change`` such epochs in a row.  ``tol=None`` (olearn's
default) disables both: every ``fit`` makes exactly ``epochs`` passes, as before these options
existed.  The weights kept are the last epoch's (scikit-learn's SGD does not restore the best
epoch either).

The loss is the multiclass hinge of every family, on the model as it stands at the end of the
epoch: ``mean_i max(0, 1 - (s_{y_i}(x_i) - max_{r != y_i} s_r(x_i)))`` with the class scores
``s`` (for the confidence-weighted family, those of the mean: the hinge on ``mu``).  This
differs from scikit-learn, which sums the losses each example had *before* its own update
during the pass; an end-of-epoch loss needs no change to the kernels (one scoring pass,
``X @ W``, only when ``tol`` is set or ``verbose``) and measures one model, not a mix of the
pass's iterates.  For two classes it is scikit-learn's binary hinge ``max(0, 1 - y f(x))`` on
``f = decision_function``.
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval

FIT_CONSTRAINTS: dict = {
    "tol": [Interval(Real, None, None, closed="neither"), None],
    "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
    "early_stopping": ["boolean"],
    "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
    "verbose": ["verbose"],
    "warm_start": ["boolean"],
}

FIT_DOC = """tol : float or None, default=None
        Stopping criterion.  ``None`` (olearn's default): every ``fit`` makes exactly
        ``epochs`` passes (scikit-learn's PA and SGD default to ``tol=1e-3`` with
        ``max_iter=1000``; ``epochs`` plays ``max_iter``'s role here).  A number: ``fit``
        stops once ``n_iter_no_change`` epochs in a row end with a mean training hinge
        loss above ``best - tol`` (or, with ``early_stopping``, a validation accuracy below
        ``best + tol``).  The loss is the multiclass hinge
        ``max(0, 1 - (s_y - max_{{r != y}} s_r))`` of the model at the end of the epoch
        ({loss_note}), not scikit-learn's sum over the pass of each example's loss before
        its update.  Reaching ``epochs`` without stopping warns (ConvergenceWarning).
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping (>= 1); used only when ``tol`` is set.
    early_stopping : bool, default=False
        Judge improvement by the accuracy on a held-out stratified ``validation_fraction``
        of ``fit``'s data (seeded by ``random_state``; not trained on) instead of the
        training loss.  Needs ``tol``: with ``tol=None`` nothing stops early, as in
        scikit-learn.  ``partial_fit`` ignores it.
    validation_fraction : float, default=0.1
        The held-out share for ``early_stopping`` (0 < value < 1).
    verbose : int, default=0
        > 0: one line per ``fit`` epoch on stdout, like scikit-learn's ``-- Epoch k``:
        the aggressive steps (updates) of the epoch, the mean training hinge loss, samples
        seen (``t_``) and the time so far.
    warm_start : bool, default=False
        ``fit`` on a fitted model goes on from its whole current state (weights{state_note},
        counters ``t_`` / ``n_updates_``) instead of zero weights; the labels of ``y`` must
        be among ``classes_`` (``partial_fit`` adds classes) and the features the same.
        ``n_iter_`` then counts this ``fit``'s epochs.  ``coef_init`` / ``intercept_init``
        take precedence over it, as in scikit-learn."""

FIT_DOC_LINEAR = FIT_DOC.replace("{loss_note}", "the raw class scores").replace("{state_note}", "")
FIT_DOC_CW = FIT_DOC.replace("{loss_note}", "the scores of the means: the hinge on mu").replace(
    "{state_note}", " and covariance"
)


def hinge_loss(scores: np.ndarray, y_idx: np.ndarray) -> float:
    """Mean multiclass hinge ``max(0, 1 - (s_y - max_{r != y} s_r))`` over the rows.

    >>> hinge_loss(np.array([[2.0, 0.0], [0.5, 0.0], [0.0, 3.0]]), np.array([0, 0, 0]))
    1.5
    """
    n, K = scores.shape
    if n == 0 or K < 2:
        return 0.0
    rows = np.arange(n)
    own = scores[rows, y_idx].copy()
    rivals = scores.copy()
    rivals[rows, y_idx] = -np.inf
    return float(np.maximum(0.0, 1.0 - (own - rivals.max(axis=1))).mean())


def validation_split(y_idx: np.ndarray, fraction: float, random_state) -> tuple:
    """``(train, validation)`` row indices, stratified, as scikit-learn's early stopping."""
    from sklearn.model_selection import StratifiedShuffleSplit  # only when asked for

    splitter = StratifiedShuffleSplit(test_size=fraction, random_state=random_state)
    try:
        train, held = next(splitter.split(np.zeros((y_idx.shape[0], 1)), y_idx))
    except ValueError as err:
        raise ValueError(
            f"early_stopping: cannot hold out a stratified validation_fraction={fraction!r} "
            f"of {y_idx.shape[0]} samples ({err}); change validation_fraction, add samples, "
            "or set early_stopping=False"
        ) from None
    return np.sort(train), np.sort(held)


class Stopping:
    """scikit-learn's no-improvement counter (``_sgd_fast.pyx.tp``), one value per epoch."""

    def __init__(self, tol, n_iter_no_change: int, higher_is_better: bool):
        self.tol = tol
        self.patience = int(n_iter_no_change)
        self.sign = 1.0 if higher_is_better else -1.0
        self.best = -math.inf
        self.bad = 0

    def done(self, value: float) -> bool:
        """Record an epoch's value (loss or score); True when ``fit`` should stop."""
        if self.tol is None:
            return False
        signed = self.sign * value  # higher is better from here on
        self.bad = self.bad + 1 if signed < self.best + self.tol else 0
        self.best = max(self.best, signed)
        return self.bad >= self.patience


def report_epoch(epoch: int, updates: int, loss: float, t: int, start: float, score=None):
    """The ``verbose`` line of one epoch, on stdout."""
    extra = "" if score is None else f", validation accuracy: {score:.6f}"
    print(f"-- Epoch {epoch}", file=sys.stdout)
    print(
        f"updates: {updates}, avg. loss: {loss:.6f}{extra}, T: {t}, "
        f"time: {time.perf_counter() - start:.4f} s",
        file=sys.stdout,
        flush=True,
    )


def warn_not_converged(name: str, epochs: int) -> None:
    warnings.warn(
        f"{name}: the stopping criterion (tol) was not met within epochs={epochs}; "
        "consider more epochs or a larger tol",
        ConvergenceWarning,
        stacklevel=3,
    )


def per_class_init(coef_init, intercept_init, n_classes: int, n_features: int, name: str):
    """``coef_init`` / ``intercept_init`` as per-class rows ``(K, d)`` / ``(K,)`` (None kept).

    Two classes given as the difference ``c = w_1 - w_0`` ((1, d), (d,) or (1,)) become the
    mirrored pair ``w_1 = c / 2``, ``w_0 = -c / 2`` (``c / 2`` is exact in floating point, so
    ``w_1 - w_0 == c``).
    """

    def rows(value, shape, what):
        array = np.asarray(value, dtype=np.float64)
        if n_classes == 2 and array.shape in ((1, *shape[1:]), shape[1:]):
            half = array.reshape(shape[1:]) / 2.0
            array = np.stack([-half, half])
        if array.shape != shape:
            raise ValueError(
                f"{name}.fit: {what} has shape {np.shape(value)}, expected {shape}"
                + (f" or the difference's {(1, *shape[1:])}" if n_classes == 2 else "")
            )
        if not np.all(np.isfinite(array)):
            raise ValueError(f"{name}.fit: {what} holds NaN or infinity")
        return array

    coef = None if coef_init is None else rows(coef_init, (n_classes, n_features), "coef_init")
    b = None if intercept_init is None else rows(intercept_init, (n_classes,), "intercept_init")
    return coef, b


def run_watched(estimator, engine, X, y, weights, rng) -> None:
    """``fit``'s epochs one at a time on ``engine``, with the estimator's ``tol`` /
    ``early_stopping`` / ``verbose`` (module docstring); the same permutations as the plain
    path (``engine.epochs(batch, epochs, rng)``).  Every batch enters through the door."""
    from olearn.estimators.engine.labels import index_of

    self = estimator
    start = time.perf_counter()
    held = None
    y_idx = index_of(engine.classes, y)
    if self.early_stopping:  # held out even with tol=None, as in scikit-learn
        train, held = validation_split(y_idx, self.validation_fraction, self.random_state)
        X_held, y_held = X[held], y_idx[held]
        X, y, y_idx = X[train], y[train], y_idx[train]
        weights = None if weights is None else weights[train]
    batch = engine.check(X, y, weights)
    stopping = Stopping(self.tol, self.n_iter_no_change, held is not None)
    for epoch in range(1, self.epochs + 1):
        updates = engine.n_updates
        engine.epochs(batch, 1, rng)
        loss = score = None
        if held is None or self.verbose:
            loss = hinge_loss(engine.scores(X), y_idx)
        if held is not None:
            score = float(np.mean(np.argmax(engine.scores(X_held), axis=1) == y_held))
        if self.verbose:
            updates = engine.n_updates - updates
            report_epoch(epoch, updates, loss, engine.t, start, score)
        if stopping.done(loss if held is None else score):
            if self.verbose:
                print(f"Convergence after {epoch} epochs took "
                      f"{time.perf_counter() - start:.2f} seconds")  # fmt: skip
            return
    if self.tol is not None:
        warn_not_converged(self._name, self.epochs)


NO_PROBA_DOC = """
    *Probabilities.*  There is no ``predict_proba``: the rule has no probabilistic model
    (its scores are margins, not log-odds), and olearn does not invent one.  For calibrated
    probabilities wrap it, e.g. ``CalibratedClassifierCV(clf, method="sigmoid")`` (Platt
    scaling of ``decision_function`` on held-out folds).
"""


def add_fit_doc(cls, doc: str = FIT_DOC_LINEAR) -> None:
    """Insert the ``fit`` options' parameters before a class docstring's *Attributes*."""
    marker = "\n    Attributes\n"
    cls.__doc__ = cls.__doc__.replace(marker, "\n    " + doc + "\n" + marker, 1)
