"""Support-Class Passive-Aggressive (SPA, SPA-I, SPA-II): the exact multiclass PA step.

Reference: S. Matsushima, N. Shimizu, K. Yoshida, T. Ninomiya, H. Nakagawa, "Multi-Class
Passive-Aggressive Algorithm with Support Classes" (seed 000; English version: "Exact
Passive-Aggressive Algorithm for Multiclass Classification Using Support Class", SDM 2010).

The problem (seed 000, section 2.3 and Table 2), with one constraint per wrong class::

    min_W  1/2 sum_v ||w_v - w_v_old||^2   [+ C xi  (SPA-I, xi >= 0)  |  + C xi^2  (SPA-II)]
    s.t.   (w_y - w_u).x >= 1 [- xi]        for every u != y

Derivation (ours; checked against a generic QP solver in ``tests/test_pa_spa_qp.py``)
-------------------------------------------------------------------------------------
Stationarity (Eq. 4/5): ``w_y += T x`` and ``w_u -= tau_u x`` with ``T = sum_u tau_u``.
Write ``n = ||x||^2`` and ``Q_u = (1 - (w_y - w_u).x) / n`` (Eq. after 7).  The new margin of
``u`` is ``m_u + n (T + tau_u)``, so complementary slackness gives, for one threshold theta::

    tau_u = max(0, Q_u - theta)                      (support classes: Q_u > theta)

  - SPA (hard):  theta = T, hence T = sum_S Q / (|S| + 1)                        (Eq. 9, 11)
    Support test, Q sorted descending: class k is in S  iff  Q_k > sum_{j<k} Q_j / k     (Eq. 8)
  - SPA-II:  d/dxi gives xi = T / (2C) and theta = a T with a = 1 + 1/(2 C n), so
    T = sum_S Q / (1 + a|S|) and tau_v = Q_v - (n + 1/2C) / ((|S|+1) n + |S|/2C) sum_S Q.
    Support test:  Q_k > (n + 1/2C) sum_{j<k} Q_j / (k n + (k-1)/2C).
  - SPA-I:  d/dxi gives T <= C (the multiplier of xi >= 0 absorbs the rest).  Two cases:
    (a) the hard solution has T <= C: it is optimal and xi = 0;
    (b) otherwise T = C exactly and theta solves sum_u max(0, Q_u - theta) = C:
        theta = (sum_S Q - C) / |S|, tau_v = Q_v - sum_S Q / |S| + C / |S|,  xi = n (theta - C).
        Support test:  Q_k > (sum_{j<k} Q_j - C) / (k - 1)   (k >= 2; the first is always in).
    In one line: theta = max(theta_hard, theta_cap).

Weights (ours): an example of weight ``s >= 0`` has the slack price ``C_i = s C`` (SPA-I:
``+ s C xi``, SPA-II: ``+ s C xi^2``; the forms above with ``sC`` for ``C``, checked against a
QP solver on the weighted problem in ``tests/test_sample_weight_rules.py``).  Hard SPA steps
alike for every ``s > 0`` (the limit ``C -> inf``; the k repeats of "weight k" after the first
are passive), and ``s = 0`` is passive: see :mod:`olearn.core.pa`, *Weights*.
``weight_scales="step"`` scales the unweighted step instead, ``tau_u -> s tau_u`` for every
support class (scikit-learn's weighted PA; for two classes SPA is PA, and this is
scikit-learn's binary step).

Misprints in the seed's Table 2 (read as the loop's stop test, like Table 1's ``while``):

- SPA-II's printed support test has denominator ``k n + 1/2C``; the derivation gives
  ``k n + (k-1)/2C``.  They agree for k <= 2 and differ once a third class is in question.
  The printed step size is right.
- SPA-I's printed test ``sum_{j<k} Q_j/(k-1) >= Q_k - C/k`` has the wrong sign and scale of
  the C term (derived: ``- C/(k-1)``), so from the second class on it stops too early; and its
  printed step ``Q_v - sum_S Q/|S| + C/|S|`` is case (b) only: with a single support class it
  always gives tau = C, wrong whenever the hard step Q_1/2 stays below C (case a).

:func:`spa_printed_step` evaluates the printed table so the app can show the difference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from olearn.core._common import (
    MARGIN_TOL,
    TINY_SQNORM,
    check_C,
    check_state,
    check_weight,
    check_weight_scales,
    is_correct,
    margins_of,
)
from olearn.core._pa_closed_forms import (
    cap_test,
    capped_tau,
    hard_test,
    spa2_b,
    spa2_test,
    support_tau,
)
from olearn.core.pa import check_variant
from olearn.trace import frozen_array


@dataclass(frozen=True, slots=True)
class SupportTest:
    """One test of the support-class search (a row of the step-through table).

    Attributes
    ----------
    phase : "hard" (Eq. 8 / SPA-II test) or "cap" (SPA-I when sum tau would exceed C).
    k : 1-based rank of the class in the descending order of Q.
    cls : the class index.  Q : its Q value.
    running_sum : ``sum_{j<k} Q_j`` over the classes admitted before it.
    threshold : the value ``Q_k`` must exceed to be admitted.
    admitted : the outcome; the first False stops the search.
    """

    phase: str
    k: int
    cls: int
    Q: float
    running_sum: float
    threshold: float
    admitted: bool


@dataclass(frozen=True, slots=True)
class SPATrace:
    """Everything one SPA / SPA-I / SPA-II step computed, for a step-through.

    Attributes
    ----------
    variant, C : the rule;  rule : "derived" or "printed (seed 000 Table 2)".
    scores_before : (K,) scores;  sqnorm : ``n = ||x||^2``.
    margins : (K,) ``s_y - s_u`` (NaN at y);  Q : (K,) ``(1 - margin) / n`` (NaN at y).
    loss : ``max_u max(0, 1 - margin_u)``.
    order : the wrong classes with Q > 0, by Q descending (lowest index first on ties).
    tests : the :class:`SupportTest` rows in the order they were made.
    support : the support classes S.
    theta_hard : the hard threshold ``sum_S Q / (|S|+1)`` (SPA-I's case test uses it).
    theta : the threshold applied, ``tau_u = max(0, Q_u - theta)``.
    cap_binds : SPA-I only: True in case (b), ``sum tau = C``.
    tau : (K,) step per class (0 at y and outside S);  tau_sum : ``T = sum tau``.
    xi : the slack at the optimum (0 for hard SPA).
    coef : (K,) the update ``w_u += coef_u x``: ``T`` at y, ``-tau_u`` elsewhere.
    scores_after, margins_after : after the step.
    correct_after : y now scores strictly highest.
    margin_satisfied : every wrong class has margin >= 1 after the step (hard SPA: always).
    reason : "aggressive" or why the step was passive.
    """

    variant: str | None
    C: float
    rule: str
    scores_before: np.ndarray
    sqnorm: float
    margins: np.ndarray
    Q: np.ndarray
    loss: float
    order: tuple[int, ...]
    tests: tuple[SupportTest, ...]
    support: tuple[int, ...]
    theta_hard: float
    theta: float
    cap_binds: bool
    tau: np.ndarray
    tau_sum: float
    xi: float
    coef: np.ndarray
    scores_after: np.ndarray
    margins_after: np.ndarray
    correct_after: bool
    margin_satisfied: bool
    reason: str


# --- the support-class search -------------------------------------------------------------

Threshold = Callable[[int, float], float]  # (k, sum_{j<k} Q_j) -> what Q_k must exceed


def search_support(
    Q: np.ndarray, order: list[int], threshold: Threshold, phase: str
) -> tuple[int, float, list[SupportTest]]:
    """Admit classes in ``order`` while ``Q_k > threshold(k, running_sum)``.

    Returns ``(J, sum of the J admitted Q, the tests made)``.
    """
    tests: list[SupportTest] = []
    running = 0.0
    J = 0
    for k, cls in enumerate(order, start=1):
        thr = threshold(k, running)
        admitted = bool(Q[cls] > thr)
        row = SupportTest(phase, k, cls, float(Q[cls]), float(running), float(thr), admitted)
        tests.append(row)
        if not admitted:
            break
        running += float(Q[cls])
        J = k
    return J, running, tests


def hard_threshold(k: int, running: float) -> float:
    """Eq. (8): class k is a support class iff ``Q_k > sum_{j<k} Q_j / k``."""
    return hard_test(k, running)


def spa2_threshold(sqnorm: float, C: float) -> Threshold:
    """SPA-II (derived): ``Q_k > (n + 1/2C) sum_{j<k} Q_j / (k n + (k-1)/2C)``."""
    b = spa2_b(sqnorm, C)
    return lambda k, running: spa2_test(k, running, b)


def cap_threshold(C: float) -> Threshold:
    """SPA-I when the cap binds (derived): ``Q_k > (sum_{j<k} Q_j - C) / (k - 1)``."""
    return lambda k, running: cap_test(k, running, C)


# --- the rule -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Problem:
    """What both the derived and the printed step start from (validated inputs included)."""

    W: np.ndarray
    x: np.ndarray
    y: int
    variant: str | None
    C: float
    scores: np.ndarray
    n: float  # ||x||^2
    margins: np.ndarray
    loss: float
    Q: np.ndarray  # NaN unless the step is aggressive
    order: list[int]  # wrong classes with Q > 0, Q descending
    reason: str


@dataclass
class _Solution:
    """What a rule decides: the tests it made, the support set, theta, tau, xi."""

    tests: list[SupportTest] = field(default_factory=list)
    support: tuple[int, ...] = ()
    theta_hard: float = 0.0
    theta: float = 0.0
    cap_binds: bool = False
    tau: np.ndarray | None = None
    xi: float = 0.0


def _pose(W, x, y, variant, C, weight=1.0, *, scales_step=False) -> _Problem:
    """Validate the inputs and compute scores, margins, loss and (when aggressive) Q."""
    W, x, y = check_state(W, x, y)
    variant = check_variant(variant)
    weight = check_weight(weight)
    price = weight if weight > 0.0 and not scales_step else 1.0
    C = check_C(C) * price  # C_i = s C (module docstring)
    scores = W @ x
    n = float(x @ x)
    margins = margins_of(scores, y)
    loss = float(max(0.0, np.nanmax(1.0 - margins)))
    Q = np.full(W.shape[0], np.nan)
    order: list[int] = []
    if weight == 0.0:
        reason = "passive: weight 0 (the example is absent)"
    elif loss <= 0.0:
        reason = "passive: every wrong class already has margin >= 1"
    elif n < TINY_SQNORM:
        reason = "passive: x is (numerically) the zero vector; no step can change a score"
    else:
        reason = "aggressive"
        Q = (1.0 - margins) / n  # Q_u = (1 - (w_y - w_u).x) / ||x||^2
        order = _order_positive(Q, y)  # only Q > 0 can be support: no sort when none is
    return _Problem(W, x, y, variant, C, scores, n, margins, loss, Q, order, reason)


def _order_positive(Q: np.ndarray, y: int) -> list[int]:
    """Wrong classes with Q > 0, by Q descending; a stable sort keeps lower indices first."""
    candidates = [u for u in range(Q.shape[0]) if u != y and Q[u] > 0.0]
    return sorted(candidates, key=lambda u: -Q[u])


def _solve_derived(p: _Problem) -> _Solution:
    """The exact step (module docstring): the support search, then tau per support class."""
    sol = _Solution(tau=np.zeros(p.W.shape[0]))
    if p.reason != "aggressive":
        return sol
    variant, C, n, Q = p.variant, p.C, p.n, p.Q
    # SPA-II: theta = a T with a = 1 + 1/(2 C n), written with b = 1/a (spa2_b: finite for
    # every C > 0); hard SPA: a = b = 1
    b = spa2_b(n, C) if variant == "II" else 1.0
    test = spa2_threshold(n, C) if variant == "II" else hard_threshold
    J, S, sol.tests = search_support(Q, p.order, test, "hard")
    sol.theta = sol.theta_hard = S / (b + J)  # a S / (1 + a J); Eq. (11) when a = 1
    # SPA-II: d/dxi gives 2 C xi = T = b S / (b + J), so xi = S (n / (1 + 2 C n)) / (b + J)
    sol.xi = S * (n / (1.0 + 2.0 * C * n)) / (b + J) if variant == "II" else 0.0
    if variant == "I" and sol.theta_hard > C:  # case (b): the cap sum tau <= C binds
        J, S, cap_tests = search_support(Q, p.order, cap_threshold(C), "cap")
        sol.tests += cap_tests
        sol.theta = (S - C) / J  # sum_S (Q - theta) = C
        sol.xi = n * (sol.theta - C)  # the support constraints hold with margin 1 - xi
        sol.cap_binds = True
    sol.support = tuple(p.order[:J])
    for u in sol.support:  # tau_u = Q_u - theta, without cancellation
        sol.tau[u] = capped_tau(Q[u], J, S, C) if sol.cap_binds else support_tau(Q[u], J, S, b)
    return sol


def spa_step(
    W: np.ndarray,
    x: np.ndarray,
    y: int,
    variant: str | None = None,
    C: float = 1.0,
    *,
    weight: float = 1.0,
    weight_scales: str = "C",
) -> tuple[np.ndarray, SPATrace]:
    """One exact SPA, SPA-I or SPA-II step (the derived form; see the module docstring).

    Parameters
    ----------
    W : (K, d) weights, one row per class.  x : (d,) example.  y : its class index.
    variant : None (SPA), "I" (SPA-I, ``+ C xi``) or "II" (SPA-II, ``+ C xi^2``).
    C : slack price, > 0 (ignored by hard SPA).
    weight : the example's weight s >= 0: SPA-I / SPA-II use ``C_i = s C`` (the trace's C);
        hard SPA steps alike for every s > 0; s = 0 is passive (module docstring).
    weight_scales : "C" (default: the price ``C_i = s C``) or "step" (every tau of the
        unweighted step times s: scikit-learn's weighted PA).

    Returns
    -------
    (W_new, trace), with ``W`` untouched.

    >>> import numpy as np
    >>> W = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 0.0]])
    >>> W1, t = spa_step(W, np.array([1.0, 0.0]), 0)
    >>> t.support, t.tau.round(3).tolist(), t.correct_after
    ((1, 2), [0.0, 1.0, 1.0], True)
    >>> (W1 @ [1.0, 0.0]).tolist()   # both rivals now exactly one below the correct class
    [2.0, 1.0, 1.0]
    """
    scales_step = check_weight_scales(weight_scales) == "step"
    problem = _pose(W, x, y, variant, C, weight, scales_step=scales_step)
    solution = _solve_derived(problem)
    if scales_step:
        solution.tau *= weight  # the unweighted step times s
    return _finish(problem, solution, "derived")


def _finish(p: _Problem, sol: _Solution, rule: str) -> tuple[np.ndarray, SPATrace]:
    """Apply Eq. (4) (``w_y += T x``, ``w_u -= tau_u x``) and record the trace."""
    tau = sol.tau
    coef = -tau
    coef[p.y] = tau.sum()
    W = p.W + np.outer(coef, p.x)  # Eq. (4)
    after = W @ p.x
    margins_after = margins_of(after, p.y)
    scale = 1.0 + float(np.nanmax(np.abs(p.margins)))
    return W, SPATrace(
        variant=p.variant,
        C=p.C,
        rule=rule,
        scores_before=frozen_array(p.scores),
        sqnorm=p.n,
        margins=frozen_array(p.margins),
        Q=frozen_array(p.Q),
        loss=p.loss,
        order=tuple(int(u) for u in p.order),
        tests=tuple(sol.tests),
        support=tuple(int(u) for u in sol.support),
        theta_hard=float(sol.theta_hard),
        theta=float(sol.theta),
        cap_binds=bool(sol.cap_binds),
        tau=frozen_array(tau),
        tau_sum=float(tau.sum()),
        xi=float(sol.xi),
        coef=frozen_array(coef),
        scores_after=frozen_array(after),
        margins_after=frozen_array(margins_after),
        correct_after=is_correct(after, p.y),
        margin_satisfied=bool(np.nanmin(margins_after) >= 1.0 - MARGIN_TOL * scale),
        reason=p.reason,
    )


# --- the seed's printed Table 2, for the teaching point --------------------------------------


def spa_printed_step(
    W: np.ndarray, x: np.ndarray, y: int, variant: str | None = None, C: float = 1.0
) -> tuple[np.ndarray, SPATrace]:
    """The step as printed in seed 000 (Table 1 for SPA, Table 2 for SPA-I/II). Not exact.

    We read Table 2's "Support class" row as the stop test of Table 1's loop (a class is
    admitted while the printed inequality fails) and, as in Eq. (8), take an empty sum
    over ``j < 1`` as 0 so the first class with Q > 0 is admitted.  Hard SPA's printed
    form is correct; SPA-I's and SPA-II's are not (see the module docstring).

    >>> import numpy as np
    >>> W = np.zeros((3, 1))
    >>> _, printed = spa_printed_step(W, np.array([1.0]), 0, "I", C=10.0)
    >>> _, derived = spa_step(W, np.array([1.0]), 0, "I", C=10.0)
    >>> printed.tau.tolist(), derived.tau.round(4).tolist()
    ([0.0, 10.0, 0.0], [0.0, 0.3333, 0.3333])
    """
    p = _pose(W, x, y, variant, C)
    return _finish(p, _solve_printed(p), "printed (seed 000 Table 2)")


def _solve_printed(p: _Problem) -> _Solution:
    """Table 1 (SPA) / Table 2 (SPA-I, SPA-II) as printed, read as the loop's stop test."""
    sol = _Solution(tau=np.zeros(p.W.shape[0]))
    if p.reason != "aggressive":
        return sol
    variant, C, n, Q = p.variant, p.C, p.n, p.Q
    h = 0.5 / C
    if variant is None:
        threshold = hard_threshold
    elif variant == "I":  # printed: sum_{j<k} Q_j / (k-1) >= Q_k - C/k stops the search

        def threshold(k, s):
            return 0.0 if k == 1 else s / (k - 1) + C / k
    else:  # printed: (n + 1/2C) / (k n + 1/2C) sum_{j<k} Q_j >= Q_k stops the search

        def threshold(k, s):
            return (n + h) / (k * n + h) * s

    J, S, sol.tests = search_support(Q, p.order, threshold, "printed")
    if variant is None:
        sol.theta = S / (J + 1)  # Table 1
    elif variant == "I":
        sol.theta = S / J - C / J  # printed: tau_v = Q_v - sum_S Q/|S| + C/|S|
    else:
        sol.theta = (n + h) / ((J + 1) * n + J * h) * S
    sol.theta_hard = sol.theta
    sol.support = tuple(p.order[:J])
    for u in sol.support:
        sol.tau[u] = Q[u] - sol.theta
    return sol
