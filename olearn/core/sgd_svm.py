"""SGD for the linear SVM, with Bottou's global rate or the per-feature rates of seed 004.

References
----------
- L. Bottou, "Large-Scale Machine Learning with Stochastic Gradient Descent", COMPSTAT 2010,
  and his ``svmsgd`` (rate ``1/(lambda (t + t0))``, ``w`` stored as ``scale * v``, a bias
  learned at a smaller rate and not regularised).
- M. Ono, D. McAllester, Y. Sasaki, "大規模文書分類のための SGD SVM の高速化" (Acceleration
  of SGD SVMs for large-scale text classification), seed 004: per-feature rates.

The objective (seed 004, section 2.1), with an unregularised bias b (Bottou's choice)::

    E(w, b) = 1/n sum_i max(0, 1 - y_i (w.x_i + b)) + lam/2 ||w||^2

One example's gradient, with ``a_i = 1[y_i (w.x_i + b) < 1]`` (the hinge is active)::

    g_w = lam w - a_i y_i x_i,        g_b = - a_i y_i

Printed vs derived (the seed's signs)
-------------------------------------
- Section 2.2 prints ``Delta E = y_i x_i [1 > y_i w.x_i] + lam w`` and ``w <- w - eta Delta E``:
  the hinge term's sign is wrong (derived: ``- y_i x_i [...]``).  As printed, every example
  with margin below 1 pushes w *away* from classifying it correctly.
- Section 3.2 prints ``w_{t+1} = w_t - eta o (y_i x_i [1 > y_i w_t.x_i] - lam w_t)``: the whole
  bracket is negated (derived: ``w_t - eta o (lam w_t - y_i x_i [...])``, i.e. ``+ eta o (...)``
  with the printed bracket).  As printed it would *grow* w by ``eta lam w`` each step.
  :func:`printed_update` evaluates the printed forms for the app.

Learning-rate schedules (t counts the examples seen before this one, from 0)
----------------------------------------------------------------------------
- ``"global"`` (Bottou): ``eta_t = 1 / (lam (t + t0))`` for every coordinate.
- ``"per-feature"`` (seed 004): ``eta_j = [x_ij != 0] / (lam (t_j + t0))`` where ``t_j`` counts
  the earlier examples in which feature j was non-zero.

Which coordinates the ``lam w`` term reaches (``regularize``)
-------------------------------------------------------------
- ``"all"``: every coordinate, every step, as the gradient of E says.  With the global rate
  this is Bottou's algorithm (O(nnz) by ``w = scale * v``).  With per-feature rates a feature
  absent from x keeps its own current rate ``1/(lam (t_j + t0))``; between two occurrences it
  is shrunk by ``(1 - 1/(t_j + t0))`` per step, applied lazily when it is next touched (the
  catch-up) and at the end.
- ``"touched"``: only where ``x_ij != 0``: the seed's formula read literally (its rate vector
  is zero off the support of x_i, so the whole bracket, ``lam w`` included, is gated).  This
  costs O(nnz) with no trick, and effectively weighs feature j's penalty by how often it
  occurs: rare features are regularised less.
- ``"auto"`` (default): ``"all"`` for the global schedule, ``"touched"`` for the per-feature
  one: the two algorithms compared in the seed's Figure 1.

The bias is not regularised and moves at ``bias_rate`` times the global rate
``1/(lam (t + t0))`` under both schedules (it occurs in every example, so its own count is t).

Weights (``sample_weight`` / ``class_weight``; scikit-learn's SGD meaning)
--------------------------------------------------------------------------
The weighted objective ``1/n sum_i s_i max(0, 1 - y_i (w.x_i + b)) + lam/2 ||w||^2`` has the
example gradient ``g_w = lam w - s_i a_i y_i x_i``, ``g_b = - s_i a_i y_i``: the hinge term
scaled by ``s_i``, the shrink and the rates unchanged (as ``sklearn.linear_model.SGDClassifier``).
An example of weight 0 is absent: no step, no shrink, and neither t nor the t_j advance (where
scikit-learn still shrinks and counts it).  So weight k is one step with k times the hinge
gradient, not k visits: an integer weight equals repeated rows only in expectation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from olearn.core._common import check_weight
from olearn.trace import frozen_array

FLOAT_MAX = float(np.finfo(np.float64).max)

SCHEDULES = ("global", "per-feature")
REGULARIZE = ("all", "touched")


def check_sgd_hyper(
    lam: float, t0: float | str, schedule: str, regularize: str, bias_rate: float
) -> tuple[float, float, str, str]:
    """Validate and resolve the hyper-parameters; returns ``(lam, t0, schedule, regularize)``.

    ``t0="auto"`` gives ``max(1/lam, 2)``: the first step has rate 1, as scikit-learn's
    ``learning_rate="optimal"`` for the hinge loss.  ``t0`` must exceed 1 so every shrink
    factor ``1 - 1/(t + t0)`` stays in (0, 1).

    >>> check_sgd_hyper(1e-4, "auto", "per-feature", "auto", 0.01)
    (0.0001, 10000.0, 'per-feature', 'touched')
    """
    lam = float(lam)
    if not (0.0 < lam < np.inf):
        raise ValueError(f"lam must be a positive finite number, got {lam!r}")
    if isinstance(t0, str):
        if t0 != "auto":
            raise ValueError(f"t0 must be a number > 1 or 'auto', got {t0!r}")
        if not lam * FLOAT_MAX >= 1.0:  # 1/lam overflows: a subnormal lam
            raise ValueError(
                f"lam={lam!r} is too small for t0='auto' (= 1/lam overflows float64): use "
                f"lam >= {1.0 / FLOAT_MAX:.3g} or give t0 as a number"
            )
        t0 = max(1.0 / lam, 2.0)
    t0 = float(t0)
    if not (1.0 < t0 < np.inf):
        raise ValueError(f"t0 must be a finite number > 1, got {t0!r}")
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {SCHEDULES}, got {schedule!r}")
    if regularize == "auto":
        regularize = "all" if schedule == "global" else "touched"
    if regularize not in REGULARIZE:
        raise ValueError(f"regularize must be 'auto' or one of {REGULARIZE}, got {regularize!r}")
    if not (0.0 <= float(bias_rate) < np.inf):
        raise ValueError(f"bias_rate must be a finite number >= 0, got {bias_rate!r}")
    return lam, t0, schedule, regularize


@dataclass(frozen=True, slots=True)
class SGDState:
    """The learner: weights, bias, examples seen ``t`` and per-feature counts ``t_j``."""

    w: np.ndarray
    b: float
    t: int
    counts: np.ndarray


def sgd_init(n_features: int) -> SGDState:
    """All-zero weights and counters."""
    return SGDState(np.zeros(n_features), 0.0, 0, np.zeros(n_features, dtype=np.int64))


@dataclass(frozen=True, slots=True)
class SGDTrace:
    """One SGD step (dense, textbook form).

    Attributes
    ----------
    t : examples seen before this one.  y : the label (+1/-1).
    margin : ``y (w.x + b)`` before the step;  loss : ``max(0, 1 - margin)``.
    hinge_active : ``margin < 1`` (the loss gradient is non-zero).
    eta : (d,) the rate each coordinate used (0 where the coordinate was not touched).
    eta_bias : the bias's rate.
    counts_before : (d,) ``t_j`` before the step (the per-feature schedule's clocks).
    w_before, w_after : (d,) weights;  b_before, b_after : the bias.
    printed_w : (d,) the seed's printed update from the same state (section 3.2 for the
        per-feature schedule, 2.2 for the global one), for comparison.
    """

    t: int
    y: float
    margin: float
    loss: float
    hinge_active: bool
    eta: np.ndarray
    eta_bias: float
    counts_before: np.ndarray
    w_before: np.ndarray
    w_after: np.ndarray
    b_before: float
    b_after: float
    printed_w: np.ndarray


def rates(
    state: SGDState, x: np.ndarray, lam: float, t0: float, schedule: str, regularize: str
) -> np.ndarray:
    """The per-coordinate rate of this step, ``eta`` (d,)."""
    if schedule == "global":
        eta = np.full(x.shape[0], 1.0 / (lam * (state.t + t0)))  # eta_t = 1/(lam (t + t0))
    else:
        eta = 1.0 / (lam * (state.counts + t0))  # eta_j = 1/(lam (t_j + t0))
    if regularize == "touched":
        eta = np.where(x != 0.0, eta, 0.0)  # the seed's gate [x_ij != 0]
    return eta


def printed_update(
    w: np.ndarray,
    x: np.ndarray,
    y: float,
    eta: np.ndarray,
    lam: float,
    active: bool,
    *,
    schedule: str,
) -> np.ndarray:
    """The seed's printed update (wrong signs; see the module docstring)."""
    hinge = y * x * float(active)
    if schedule == "global":
        return w - eta * (hinge + lam * w)  # section 2.2 as printed
    return w - eta * (hinge - lam * w)  # section 3.2 as printed


def sgd_step(
    state: SGDState,
    x: np.ndarray,
    y: float,
    lam: float = 1e-4,
    t0: float | str = "auto",
    *,
    schedule: str = "global",
    regularize: str = "auto",
    bias_rate: float = 0.01,
    fit_intercept: bool = True,
    weight: float = 1.0,
) -> tuple[SGDState, SGDTrace]:
    """One textbook (dense) SGD step on the hinge loss; pure (``state`` is not changed).

    Parameters
    ----------
    state : :class:`SGDState`.  x : (d,) example.  y : label, +1 or -1.
    lam, t0, schedule, regularize, bias_rate : see the module docstring.
    fit_intercept : learn the bias b (otherwise it stays 0).
    weight : the example's weight s >= 0, scaling the hinge term's gradient; 0: no step at
        all, t unchanged (module docstring, *Weights*).

    >>> import numpy as np
    >>> s = sgd_init(3)
    >>> s, tr = sgd_step(s, np.array([1.0, 0.0, 2.0]), 1.0, lam=0.1, t0=10, schedule="per-feature")
    >>> tr.eta.tolist(), s.w.tolist(), s.counts.tolist()
    ([1.0, 0.0, 1.0], [1.0, 0.0, 2.0], [1, 0, 1])
    """
    lam, t0, schedule, regularize = check_sgd_hyper(lam, t0, schedule, regularize, bias_rate)
    x = np.asarray(x, dtype=float)
    y = float(y)
    if y not in (-1.0, 1.0):
        raise ValueError(f"y must be +1 or -1, got {y}")
    if x.shape != state.w.shape or not np.all(np.isfinite(x)):
        raise ValueError(f"x must be a finite vector of shape {state.w.shape}")
    weight = check_weight(weight)
    margin = y * (float(state.w @ x) + state.b)
    active = margin < 1.0 and weight > 0.0
    eta = rates(state, x, lam, t0, schedule, regularize)
    ys = y * weight  # s y: the weighted hinge's gradient (s = 1: exactly y)
    grad = lam * state.w - (ys * x if active else 0.0)  # g = lam w - s [y w.x < 1] y x
    w = state.w - eta * grad  # w_{t+1} = w_t - eta o g
    eta_bias = bias_rate / (lam * (state.t + t0)) if fit_intercept else 0.0
    b = state.b + (eta_bias * ys if active else 0.0)  # g_b = -s [..] y, not regularised
    counts = state.counts + (x != 0.0)  # t_j counts the examples where x_j != 0
    new = SGDState(w, b, state.t + 1, counts)
    if weight == 0.0:  # absent: no shrink, no clock
        eta, w, b, new = np.zeros_like(eta), state.w, state.b, state
    return new, SGDTrace(
        t=state.t,
        y=y,
        margin=margin,
        loss=max(0.0, 1.0 - margin),
        hinge_active=bool(active),
        eta=frozen_array(eta),
        eta_bias=eta_bias,
        counts_before=frozen_array(state.counts),
        w_before=frozen_array(state.w),
        w_after=frozen_array(w),
        b_before=state.b,
        b_after=b,
        printed_w=frozen_array(printed_update(state.w, x, y, eta, lam, active, schedule=schedule)),
    )


def svm_objective(w: np.ndarray, b: float, X, y: np.ndarray, lam: float) -> float:
    """``E(w, b) = mean hinge + lam/2 ||w||^2`` (X dense or sparse, y in {-1, +1})."""
    margins = y * (np.asarray(X @ w).ravel() + b)
    return float(np.mean(np.maximum(0.0, 1.0 - margins)) + 0.5 * lam * float(w @ w))


@dataclass(frozen=True)
class SGDRun:
    """The result of :func:`sgd_svm_run`: final state, objective curve, optional step traces.

    ``curve`` rows are ``(t, E(w, b))`` every ``record_every`` steps (and at the end).
    """

    state: SGDState
    curve: list[tuple[int, float]]
    steps: list[SGDTrace]


def sgd_svm_run(
    X,
    y,
    *,
    lam: float = 1e-4,
    t0: float | str = "auto",
    schedule: str = "global",
    regularize: str = "auto",
    bias_rate: float = 0.01,
    fit_intercept: bool = True,
    epochs: int = 1,
    random_state: int | None = 0,
    record_every: int = 100,
    trace_steps: int = 0,
) -> SGDRun:
    """Train with the readable step over shuffled epochs, recording the objective.

    Parameters
    ----------
    X : (n, d) dense.  y : (n,) labels in {-1, +1}.
    epochs : passes; each visits ``check_random_state(random_state).permutation(n)`` (the
        estimator's order, so the two can be compared).
    record_every : record ``E(w, b)`` every so many steps.
    trace_steps : keep the :class:`SGDTrace` of the first ``trace_steps`` steps.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 5)); y = np.sign(X[:, 0] + 0.1)
    >>> run = sgd_svm_run(X, y, lam=0.01, epochs=3, record_every=200)
    >>> run.curve[-1][1] < run.curve[0][1]
    True
    """
    from sklearn.utils import check_random_state

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    rng = check_random_state(random_state)
    state = sgd_init(X.shape[1])
    curve = [(0, svm_objective(state.w, state.b, X, y, lam))]
    steps: list[SGDTrace] = []
    for _ in range(epochs):
        for i in rng.permutation(X.shape[0]):
            state, tr = sgd_step(
                state,
                X[i],
                y[i],
                lam,
                t0,
                schedule=schedule,
                regularize=regularize,
                bias_rate=bias_rate,
                fit_intercept=fit_intercept,
            )
            if len(steps) < trace_steps:
                steps.append(tr)
            if state.t % record_every == 0:
                curve.append((state.t, svm_objective(state.w, state.b, X, y, lam)))
    if curve[-1][0] != state.t:
        curve.append((state.t, svm_objective(state.w, state.b, X, y, lam)))
    return SGDRun(state, curve, steps)
