"""The Crammer-Singer SVM solved by decomposition on a 2-D toy, step by step, against
LIBLINEAR's optimum of the same objective (scikit-learn ``LinearSVC(crammer_singer)``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from olearn.core.cs_svm import CSStepTrace, cs_svm_solve, objective_from_coef
from olearn.teaching.hypers import algorithm_hyper

C_DEFAULT = algorithm_hyper("cs-svm", "C").default  # the registry's

MAX_STEPS = 3000


@dataclass(frozen=True)
class CSWalk:
    """X (n, 2), y, Xb (with the intercept column), the sweeps table (primal, dual, gap,
    violation per sweep), the LIBLINEAR optimum, the step traces and W after each step."""

    X: np.ndarray
    y: np.ndarray
    C: float
    sweeps: pd.DataFrame
    liblinear_primal: float
    steps: tuple[CSStepTrace, ...]
    W: np.ndarray  # (n_steps + 1, K, 3)
    changed: np.ndarray  # indices into steps of the sub-problems that moved W (not skipped)
    step_sweep: np.ndarray  # (n_steps,) the sweep (1-based) each step belongs to

    def step_table(self, s: int, lang: str = "en") -> pd.DataFrame:
        """The sub-problem of step ``s``: per class G, alpha before/after, the seed's tau,
        headed in ``lang``."""
        from olearn.teaching.strings import num, t

        st = self.steps[s]
        K = st.G.shape[0]
        return pd.DataFrame(
            {
                t("cs.col.class", lang): [f"{m} (y)" if m == st.y else str(m) for m in range(K)],
                t("cs.col.G", lang): [num(v, 5) for v in st.G],
                t("cs.col.alpha_before", lang): [num(v, 5) for v in st.alpha_before],
                t("cs.col.alpha_after", lang): [num(v, 5) for v in st.alpha_after],
                t("cs.col.tau", lang): [num(v, 5) for v in st.tau_after],
            }
        )


def cs_walk(
    kind: str = "blobs",
    n_samples: int = 60,
    n_classes: int = 3,
    C: float = C_DEFAULT,
    seed: int = 0,
) -> CSWalk:
    """Solve, keep every sub-problem and the weights after each.

    >>> w = cs_walk(n_samples=30, C=0.5)
    >>> bool(w.sweeps["gap"].iloc[-1] < 1e-3 * w.sweeps["primal"].iloc[-1])
    True
    """
    from sklearn.svm import LinearSVC

    from olearn.datasets.toy import make_toy

    ds = make_toy(kind, n_samples=n_samples, n_classes=n_classes, random_state=seed)
    X, y = np.asarray(ds.X, float), np.asarray(ds.y, np.int64)
    Xb = np.hstack([X, np.ones((X.shape[0], 1))])
    sol = cs_svm_solve(
        Xb,
        y,
        C,
        tol=1e-5,
        max_iter=300,
        random_state=seed,
        trace_steps=True,
        max_step_traces=MAX_STEPS,
    )
    sweeps = pd.DataFrame(
        [
            {
                "sweep": s.sweep,
                "primal": s.primal,
                "dual": s.dual,
                "gap": s.gap,
                "max violation": s.max_violation,
                "changed": s.n_changed,
            }
            for s in sol.sweeps
        ]
    )
    ref = LinearSVC(
        multi_class="crammer_singer",
        C=C,
        fit_intercept=True,
        intercept_scaling=1.0,
        tol=1e-8,
        max_iter=100_000,
    ).fit(X, y)
    p_ref = objective_from_coef(ref.coef_, ref.intercept_, X, y, C)
    K = int(y.max()) + 1
    W = np.zeros((len(sol.steps) + 1, K, 3))
    for s, st in enumerate(sol.steps):  # W = sum_i alpha_i (x) x_i, one example at a time
        W[s + 1] = W[s] + np.outer(st.alpha_after - st.alpha_before, Xb[st.p])
    changed = np.array([s for s, st in enumerate(sol.steps) if not st.skipped], dtype=int)
    # each sweep visits every example once, in the traces' order (capped at MAX_STEPS)
    step_sweep = np.minimum(np.arange(len(sol.steps)) // len(y) + 1, max(len(sol.sweeps), 1))
    return CSWalk(X, y, float(C), sweeps, float(p_ref), tuple(sol.steps), W, changed, step_sweep)
