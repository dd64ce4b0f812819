"""The Crammer-Singer multiclass SVM, solved by its per-example dual decomposition (traced).

References
----------
- K. Crammer, Y. Singer, "On the algorithmic implementation of multiclass kernel-based vector
  machines", JMLR 2:265-292, 2001 (seed 003 restates the primal, the dual over tau and the
  per-example decomposition; the fixed-point iteration for one sub-problem is the paper's).
- S. S. Keerthi, S. Sundararajan, K.-W. Chang, C.-J. Hsieh, C.-J. Lin, "A sequential dual
  method for large scale multi-class linear SVMs", KDD 2008 (the sorting solution of the
  sub-problem, :func:`olearn.core.cs_subproblem.solve_cs_subproblem`, and the KKT stop).

The problem, in scikit-learn's ``LinearSVC(multi_class="crammer_singer")`` scale::

    P(W) = 1/2 sum_m ||w_m||^2 + C sum_i xi_i,
    xi_i = max_m ( e_i^m + w_m.x_i - w_{y_i}.x_i ),      e_i^m = 1[m != y_i]  (so xi_i >= 0)

With an intercept, x gets one more coordinate equal to ``intercept_scaling`` and its weight is
regularised like any other (LIBLINEAR's convention; ``intercept_ = intercept_scaling * w_bias``).

Seed 003 writes the same problem as ``1/2 beta ||W||^2 + sum_i xi_i``: dividing P by C shows
**beta = 1/C**.  Its dual variables are ``tau_i = alpha_i / C`` where ``alpha_i`` (K,) are
LIBLINEAR's, ``w_m = sum_i alpha_i^m x_i = beta^-1 sum_i tau_i^m x_i`` and

    max_alpha  D(alpha) = sum_i alpha_i^{y_i} - 1/2 ||W(alpha)||^2
    s.t.       alpha_i^m <= C 1[m = y_i]   (seed: tau_i <= e_{y_i}),   sum_m alpha_i^m = 0.

(The seed's dual ``-1/2 sum_ij x_i.x_j tau_i.tau_j + beta sum_i tau_i.e_{y_i}`` equals
``beta^2 D``.)  Weak duality gives ``P(W(alpha)) >= D(alpha)``, with equality at the optimum.

The decomposition: pick an example p, keep every other alpha_i fixed and solve its sub-problem
exactly.  In LIBLINEAR's scale ``min 1/2 A ||alpha_p||^2 + B . alpha_p`` with ``A = ||x_p||^2``,
``G_m = w_m.x_p + e_p^m`` (the gradient of -D) and ``B = G - A alpha_p``; the seed's
``B_p = -beta e_{y_p} + sum_{i != p} x_p.x_i tau_i`` equals ``beta (B - 1)`` (the constant
shift changes nothing since ``sum tau_p = 0``).  KKT for the sub-problem: every ``G_m`` is at
most a common level reached by every class whose alpha is below its bound, so the violation

    v_p = max_m G_m - min_{m: alpha_p^m < bound_m} G_m  >= 0

is zero at the optimum; sweeps stop when the largest ``v_p`` of a sweep falls below ``tol``.

The link to SPA (seed 000): from ``alpha_p = 0`` the sub-problem is the dual of the SPA-I step
with the same C (hard SPA when C exceeds the step's sum of taus): :func:`spa_as_cs_subproblem`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from sklearn.utils import check_random_state

from olearn.core._common import check_C, check_state
from olearn.core.cs_subproblem import solve_cs_subproblem
from olearn.trace import frozen_array

# Sub-problems whose violation is below this are skipped (nothing to gain but rounding).
SKIP_VIOLATION = 1e-12


# --- objectives --------------------------------------------------------------------------


def errors_matrix(y: np.ndarray, K: int) -> np.ndarray:
    """``e[i, m] = 1[m != y_i]``, the margin each rival class must be beaten by."""
    e = np.ones((y.shape[0], K))
    e[np.arange(y.shape[0]), y] = 0.0
    return e


def primal_objective(W: np.ndarray, X: np.ndarray, y: np.ndarray, C: float) -> float:
    """``P(W) = 1/2 ||W||^2 + C sum_i max_m (e_i^m + w_m.x_i - w_{y_i}.x_i)``.

    ``W`` is (K, d) over the columns of ``X`` (append the intercept column yourself, or use
    :func:`objective_from_coef`).  ``X`` may be dense or sparse.
    """
    scores = np.asarray(X @ W.T)
    n, K = scores.shape
    rows = np.arange(n)
    xi = np.max(errors_matrix(y, K) + scores - scores[rows, y][:, None], axis=1)
    return float(0.5 * np.sum(W * W) + C * np.sum(xi))


def dual_objective(W: np.ndarray, alpha: np.ndarray, y: np.ndarray) -> float:
    """``D(alpha) = sum_i alpha_i^{y_i} - 1/2 ||W(alpha)||^2`` for ``W = W(alpha)``."""
    return float(np.sum(alpha[np.arange(y.shape[0]), y]) - 0.5 * np.sum(W * W))


def objective_from_coef(coef, intercept, X, y, C: float, intercept_scaling: float = 1.0) -> float:
    """The primal objective of a fitted linear model, ours or ``LinearSVC``'s.

    Parameters
    ----------
    coef : (K, d), or (1, d) for a binary model (``w_1 - w_0``, scikit-learn's convention).
        A binary Crammer-Singer optimum has ``w_0 = -w_1`` (``sum_m w_m = sum_i x_i sum_m
        alpha_i^m = 0``), so ``W = [-coef/2, coef/2]`` is recovered exactly.
    intercept : (K,) or (1,) or 0.0 when there is none.
    X : (n, d) dense or sparse.  y : (n,) class indices.  C : the cost.
    intercept_scaling : the value of the synthetic feature; its weight is
        ``intercept / intercept_scaling`` and is regularised.

    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([0, 1])
    >>> objective_from_coef(np.zeros((1, 2)), 0.0, X, y, C=1.0)   # every xi = 1
    2.0
    """
    import scipy.sparse as sp

    coef = np.asarray(coef, dtype=float)
    has_bias = np.ndim(intercept) > 0 or float(intercept) != 0.0
    bias = np.ravel(np.asarray(intercept, dtype=float))
    if coef.shape[0] == 1:  # binary: coef = w_1 - w_0 and w_0 = -w_1 at the optimum
        coef = np.vstack([-coef / 2.0, coef / 2.0])
        bias = np.array([-bias[0] / 2.0, bias[0] / 2.0])
    if has_bias:
        W = np.hstack([coef, (bias / intercept_scaling)[:, None]])
        col = np.full((X.shape[0], 1), float(intercept_scaling))
        Xa = sp.hstack([X, col], format="csr") if sp.issparse(X) else np.hstack([X, col])
    else:
        W, Xa = coef, X
    return primal_objective(W, Xa, np.asarray(y), C)


def kkt_violation(G: np.ndarray, alpha: np.ndarray, y: int, C: float) -> float:
    """``max_m G_m - min_{m: alpha_m < bound_m} G_m`` (0 at the sub-problem's optimum)."""
    bound = np.zeros_like(alpha)
    bound[y] = C
    free = alpha < bound
    return float(np.max(G) - np.min(G[free]))


# --- the seed's teaching version of one sub-problem: the fixed-point iteration ---------------


@dataclass(frozen=True, slots=True)
class FixedPointTrace:
    """Crammer and Singer's fixed-point iteration for one sub-problem (seed scale).

    With ``D = B_seed / A + e_y`` and ``nu = tau + B_seed / A`` the sub-problem becomes
    ``min ||nu||^2  s.t.  nu <= D, sum nu = sum D - 1``, solved by ``nu_r = min(theta, D_r)``.

    Attributes
    ----------
    D : (K,) the shifted bounds.
    thetas : the iterates ``theta_0, theta_1, ...`` (``theta_0 = (sum D - 1) / K``: every class
        active; the paper's own start was not verified, see :func:`cs_fixed_point`).
    active_counts : ``|{r : D_r >= theta_l}|`` at each iterate.
    tau : (K,) the solution ``min(theta, D) - B_seed / A``.
    """

    D: np.ndarray
    thetas: tuple[float, ...]
    active_counts: tuple[int, ...]
    tau: np.ndarray


def cs_fixed_point(A: float, B_seed: np.ndarray, y: int, max_iter: int = 1000) -> FixedPointTrace:
    """Solve ``min 1/2 A ||tau||^2 + B_seed . tau  s.t. tau <= e_y, sum tau = 0`` by the
    fixed-point iteration ``theta <- (sum_{D_r >= theta} D_r - 1) / |{r : D_r >= theta}|``.

    The update is Newton's method on the convex, decreasing, piecewise-linear
    ``g(theta) = sum_r max(0, D_r - theta) - 1`` (slope ``-|{D_r >= theta}|``), so from any start
    left of the root (``theta_0 = (sum D - 1) / K`` is one: ``g(theta_0) >= 0``) it increases
    monotonically and lands exactly on the root after at most K steps.  The original paper
    stops on a relative change ``epsilon``; here the iteration stops when theta repeats.

    >>> import numpy as np
    >>> t = cs_fixed_point(1.0, np.array([-1.0, 2.0, 2.0]), y=0)   # beta = 1: C = 1
    >>> t.tau.tolist(), t.thetas, t.active_counts
    ([1.0, -0.5, -0.5], (1.0, 1.5), (3, 2))
    """
    B_seed = np.asarray(B_seed, dtype=float)
    K = B_seed.shape[0]
    D = B_seed / A
    D[y] += 1.0  # D = B/A + e_y
    theta = (D.sum() - 1.0) / K  # every class active: g(theta_0) >= 0
    thetas = [float(theta)]
    counts = [K]
    for _ in range(max_iter):
        active = D >= theta
        new = (D[active].sum() - 1.0) / active.sum()  # theta <- (sum_{D_r>=theta} D_r - 1)/|.|
        if new <= theta:  # Newton from the left never decreases: a repeat is the root
            break
        theta = new
        thetas.append(float(theta))
        counts.append(int((D >= theta).sum()))
    tau = np.minimum(theta, D) - B_seed / A  # nu_r = min(theta, D_r), tau = nu - B/A
    return FixedPointTrace(frozen_array(D), tuple(thetas), tuple(counts), frozen_array(tau))


# --- one sub-problem ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CSStepTrace:
    """One exact sub-problem of the decomposition (what a lecturer points at).

    Attributes
    ----------
    p : the example's row (-1 when called on a lone example).  y : its class.
    C, beta : the cost and the seed's ``beta = 1/C``.
    A : ``||x_p||^2`` (with the intercept coordinate).
    G : (K,) gradient ``w_m.x_p + e_p^m`` before the step.  violation : its KKT violation.
    B : (K,) LIBLINEAR's linear term ``G - A alpha_p``;  B_seed : the seed's ``beta (B - 1)``.
    alpha_before, alpha_after : (K,) the example's dual variables (LIBLINEAR scale).
    tau_before, tau_after : the same in the seed's scale, ``alpha / C``.
    fixed_point : the seed's teaching solution of the same sub-problem.
    support_classes : wrong classes with ``alpha_after < 0`` (SPA's support classes).
    dual_objective : ``D(alpha)`` after the step (only in full traces; NaN otherwise).
    skipped : True when the violation was below ``SKIP_VIOLATION`` (no change).
    """

    p: int
    y: int
    C: float
    beta: float
    A: float
    G: np.ndarray
    violation: float
    B: np.ndarray
    B_seed: np.ndarray
    alpha_before: np.ndarray
    alpha_after: np.ndarray
    tau_before: np.ndarray
    tau_after: np.ndarray
    fixed_point: FixedPointTrace | None
    support_classes: tuple[int, ...]
    dual_objective: float
    skipped: bool


def cs_step(
    W: np.ndarray,
    x: np.ndarray,
    y: int,
    C: float = 1.0,
    alpha: np.ndarray | None = None,
    *,
    p: int = -1,
    fixed_point: bool = True,
) -> tuple[np.ndarray, CSStepTrace]:
    """Solve one example's sub-problem exactly and update ``W``.

    Parameters
    ----------
    W : (K, d) current weights ``W(alpha)`` (one row per class).
    x : (d,) the example (include the intercept coordinate yourself).  y : its class index.
    C : the cost (LinearSVC's C).
    alpha : (K,) the example's current dual variables (default: zero, as at the start).
    p : the example's row, only recorded in the trace.
    fixed_point : also run the seed's fixed-point iteration for the trace.

    Returns
    -------
    (W_new, trace); ``trace.alpha_after`` is the new ``alpha_p``.

    >>> import numpy as np
    >>> W1, t = cs_step(np.zeros((3, 2)), np.array([1.0, 0.0]), 0, C=10.0)
    >>> t.alpha_after.round(4).tolist(), t.support_classes    # = hard SPA from zero weights
    ([0.6667, -0.3333, -0.3333], (1, 2))
    >>> np.allclose(t.fixed_point.tau, t.tau_after)
    True
    """
    W, x, y = check_state(W, x, y)
    C = check_C(C)
    K = W.shape[0]
    alpha = np.zeros(K) if alpha is None else np.array(alpha, dtype=float, copy=True)
    if alpha.shape != (K,):
        raise ValueError(f"alpha must have shape ({K},), got {alpha.shape}")
    A = float(x @ x)
    e = np.ones(K)
    e[y] = 0.0
    G = W @ x + e  # gradient of -D with respect to alpha_p
    B = G - A * alpha  # B_m = w_m.x - A alpha_m + e_m (the part of W without example p)
    beta = 1.0 / C
    B_seed = beta * (B - 1.0)  # seed: -beta e_y + sum_{i != p} x_p.x_i tau_i
    if A <= 0.0:  # a zero vector has no sub-problem: nothing can change
        violation, skipped, new = 0.0, True, alpha
    else:
        violation = kkt_violation(G, alpha, y, C)
        skipped = violation <= SKIP_VIOLATION
        new = alpha if skipped else solve_cs_subproblem(A, B, y, C)
    W = W + np.outer(new - alpha, x)  # w_m += (alpha_new_m - alpha_m) x_p
    fp = cs_fixed_point(A, B_seed, y) if (fixed_point and A > 0.0) else None
    support = tuple(int(m) for m in np.flatnonzero(new < 0.0) if m != y)
    return W, CSStepTrace(
        p=int(p),
        y=y,
        C=C,
        beta=beta,
        A=A,
        G=frozen_array(G),
        violation=float(violation),
        B=frozen_array(B),
        B_seed=frozen_array(B_seed),
        alpha_before=frozen_array(alpha),
        alpha_after=frozen_array(new),
        tau_before=frozen_array(alpha / C),
        tau_after=frozen_array(new / C),
        fixed_point=fp,
        support_classes=support,
        dual_objective=float("nan"),
        skipped=bool(skipped),
    )


def spa_as_cs_subproblem(W: np.ndarray, x: np.ndarray, y: int, C: float | None = None):
    """One SPA step written as one Crammer-Singer sub-problem from ``alpha = 0``.

    With ``C=None`` the bound on ``alpha_y`` is made loose enough never to bind (hard SPA);
    a finite C gives SPA-I with that C.  The new weights equal
    ``olearn.core.spa.spa_step(W, x, y, variant)``, the support classes are those with
    ``alpha < 0`` and ``tau_u = -alpha_u`` (tested in ``tests/test_spa_cs_link.py``).

    >>> import numpy as np
    >>> W = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 0.0]])
    >>> W1, t = spa_as_cs_subproblem(W, np.array([1.0, 0.0]), 0)
    >>> t.support_classes, (-t.alpha_after[1:]).tolist()      # spa_step's taus: [1.0, 1.0]
    ((1, 2), [1.0, 1.0])
    """
    W, x, y = check_state(W, x, y)
    if C is None:
        A = float(x @ x)
        scores = W @ x
        loss = float(np.max(1.0 - (scores[y] - np.delete(scores, y)), initial=0.0))
        # sum tau of the hard step is at most K * max Q: any C above that never binds
        C = 1.0 + W.shape[0] * max(loss, 0.0) / max(A, 1e-300)
    return cs_step(W, x, y, C, None, fixed_point=True)


# --- the readable decomposition ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CSSweepTrace:
    """One sweep (a random permutation of every example).

    Attributes
    ----------
    sweep : 1-based sweep number.  primal, dual, gap : ``P``, ``D`` and ``P - D`` after it.
    primal_seed : the seed's primal ``beta P``.  max_violation : the largest ``v_p`` met.
    n_changed : sub-problems that changed alpha.
    """

    sweep: int
    primal: float
    dual: float
    gap: float
    primal_seed: float
    max_violation: float
    n_changed: int


@dataclass(frozen=True)
class CSSolution:
    """The result of :func:`cs_svm_solve`: weights, dual variables and the traces."""

    W: np.ndarray
    alpha: np.ndarray
    converged: bool
    sweeps: list[CSSweepTrace] = field(default_factory=list)
    steps: list[CSStepTrace] = field(default_factory=list)


def cs_svm_solve(
    X: np.ndarray,
    y: np.ndarray,
    C: float = 1.0,
    *,
    tol: float = 1e-4,
    max_iter: int = 1000,
    random_state: int | None = 0,
    trace_steps: bool = False,
    max_step_traces: int = 10_000,
) -> CSSolution:
    """Solve the Crammer-Singer dual by sweeps of exact sub-problems (dense, readable).

    Parameters
    ----------
    X : (n, d) dense, intercept column already appended if wanted.  y : (n,) indices 0..K-1.
    C : the cost.  tol : stop when a sweep's largest KKT violation is below it.
    max_iter : the most sweeps.  random_state : int, RandomState or None (scikit-learn's
        ``check_random_state``); each sweep reshuffles the previous sweep's order,
        ``order = order[rng.permutation(n)]`` from ``arange(n)``, exactly as
        ``CrammerSingerSVC(shrinking=False)`` does, so the two can be compared step by step.
    trace_steps : keep a :class:`CSStepTrace` per sub-problem (with the dual objective and the
        fixed-point iteration), at most ``max_step_traces`` of them.

    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> X = (X - X.mean(0)) / X.std(0)
    >>> sol = cs_svm_solve(X, y, C=0.1, tol=1e-3)
    >>> sol.converged, sol.sweeps[-1].gap < 1e-4 * sol.sweeps[-1].primal
    (True, True)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=np.int64)
    C = check_C(C)
    n, d = X.shape
    K = int(y.max()) + 1
    rng = check_random_state(random_state)
    W = np.zeros((K, d))
    alpha = np.zeros((n, K))
    sweeps: list[CSSweepTrace] = []
    steps: list[CSStepTrace] = []
    converged = False
    order = np.arange(n)
    for s in range(1, max_iter + 1):
        worst, changed = 0.0, 0
        order = order[rng.permutation(n)]
        for p in order:
            record = trace_steps and len(steps) < max_step_traces
            W, t = cs_step(W, X[p], int(y[p]), C, alpha[p], p=int(p), fixed_point=record)
            worst = max(worst, t.violation)
            if not t.skipped:
                alpha[p] = t.alpha_after
                changed += 1
            if record:
                t = _with_dual(t, dual_objective(W, alpha, y))
                steps.append(t)
        P = primal_objective(W, X, y, C)
        D = dual_objective(W, alpha, y)
        sweeps.append(CSSweepTrace(s, P, D, P - D, P / C, worst, changed))
        if worst < tol:
            converged = True
            break
    return CSSolution(W, alpha, converged, sweeps, steps)


def _with_dual(t: CSStepTrace, dual: float) -> CSStepTrace:
    from dataclasses import replace

    return replace(t, dual_objective=dual)
