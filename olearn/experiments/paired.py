"""Paired significance tests over cross-validation folds: is learner a's error lower than b's?

Each fold gives both learners the same training and test parts (and the same pass orders), so
the per-fold differences ``d_f = error_a(f) - error_b(f)`` are paired.  Two tests of
"mean/median difference = 0", both two-sided, from scipy:

- the paired t-test (``scipy.stats.ttest_rel``), which assumes roughly normal differences;
- the Wilcoxon signed-rank test (``scipy.stats.wilcoxon``), which does not; with 10 folds its
  smallest attainable p-value is 2/2^10 = 0.002 (exact distribution).

Folds share training data, so both tests are somewhat optimistic (Dietterich 1998; Nadeau &
Bengio 2003): a p-value near 0.05 is weak evidence, and an insignificant one is not proof of
equality.  A difference of exactly zero on every fold gives p = 1.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

# (a, b): the paper's claim is that a (SPA family) beats b (its PA counterpart)
SPA_VS_PA = (("SPA", "PA"), ("SPA-I", "PA-I"), ("SPA-II", "PA-II"))
ALPHA = 0.05


def paired_test(a: Sequence[float], b: Sequence[float]) -> dict:
    """Paired t and Wilcoxon tests of ``a - b`` (one value per fold).

    Returns mean_diff, std_diff, t_stat, p_value (paired t), p_wilcoxon, wins (folds where a
    is lower), losses, n_folds.

    Examples
    --------
    >>> r = paired_test([1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 4.0, 5.5])
    >>> r["mean_diff"], r["wins"], r["losses"]
    (-1.125, 4, 0)
    >>> paired_test([1.0, 2.0], [1.0, 2.0])["p_value"]
    1.0
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or a.size < 2:
        raise ValueError("paired tests need two equal-length lists of at least 2 folds")
    diff = a - b
    out = {
        "mean_diff": float(diff.mean()),
        "std_diff": float(diff.std(ddof=1)),
        "wins": int((diff < 0).sum()),
        "losses": int((diff > 0).sum()),
        "n_folds": int(diff.size),
    }
    if np.allclose(diff, 0.0):
        return {**out, "t_stat": 0.0, "p_value": 1.0, "p_wilcoxon": 1.0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # constant non-zero differences
        t = stats.ttest_rel(a, b)
    t_stat, p = float(t.statistic), float(t.pvalue)
    if not np.isfinite(p):  # every fold the same non-zero difference: as strong as it gets
        t_stat, p = float(np.sign(diff.mean()) * np.inf), 0.0
    try:
        p_w = float(stats.wilcoxon(diff, zero_method="wilcox").pvalue)
    except ValueError:
        p_w = 1.0
    return {**out, "t_stat": t_stat, "p_value": p, "p_wilcoxon": p_w}


def paired_table(
    fold_errors: pd.DataFrame,
    pairs: Sequence[tuple[str, str]] = SPA_VS_PA,
    paper: Mapping[str, Mapping[str, float]] | None = None,
) -> pd.DataFrame:
    """One row per (dataset, epochs, pair): ``dataset, epochs, a, b, mean_diff, p_value``
    (paired t), ``p_wilcoxon``, t_stat, std_diff, wins, losses, n_folds, paper_diff (a - b in
    the paper, NaN when absent).

    ``fold_errors`` has columns dataset, label (the learner's table label), epochs, fold,
    error.  A pair is skipped where either learner is missing.
    """
    paper = paper or {}
    rows = []
    for (dataset, epochs), group in fold_errors.groupby(["dataset", "epochs"], sort=False):
        by_label = {label: g.sort_values("fold") for label, g in group.groupby("label")}
        for a, b in pairs:
            if a not in by_label or b not in by_label:
                continue
            fa, fb = by_label[a], by_label[b]
            if not np.array_equal(fa["fold"].to_numpy(), fb["fold"].to_numpy()):
                raise ValueError(f"{a} and {b} on {dataset} were not run on the same folds")
            result = paired_test(fa["error"].to_numpy(), fb["error"].to_numpy())
            cells = paper.get(dataset, {})
            paper_diff = round(cells[a] - cells[b], 2) if a in cells and b in cells else np.nan
            rows.append(
                {
                    "dataset": dataset,
                    "epochs": int(epochs),
                    "a": a,
                    "b": b,
                    **result,
                    "paper_diff": paper_diff,
                }
            )
    columns = [
        "dataset",
        "epochs",
        "a",
        "b",
        "mean_diff",
        "p_value",
        "p_wilcoxon",
        "t_stat",
        "std_diff",
        "wins",
        "losses",
        "n_folds",
        "paper_diff",
    ]
    return pd.DataFrame(rows, columns=columns)


def verdict(tests: pd.DataFrame, dataset: str, alpha: float = ALPHA) -> str:
    """One sentence per dataset on "a beats b" at every epochs tested.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["d"], "epochs": [10], "a": ["SPA"], "b": ["PA"],
    ...                   "mean_diff": [-0.1], "p_value": [0.6], "p_wilcoxon": [0.7],
    ...                   "paper_diff": [-3.3]})
    >>> print(verdict(t, "d").replace("; ", ";\\n"))
    d: 10 epochs: SPA-PA -0.10 (p 0.60/0.70);
    no pair differs significantly (5%);
    the paper reports SPA-PA -3.30.
    """
    mine = tests[tests["dataset"] == dataset]
    if mine.empty:
        return f"{dataset}: no SPA/PA pair was run."
    parts, significant = [], []
    for epochs, group in mine.groupby("epochs"):
        cells = ", ".join(
            f"{r.a}-{r.b} {r.mean_diff:+.2f} (p {r.p_value:.2f}/{r.p_wilcoxon:.2f})"
            for r in group.itertuples()
        )
        parts.append(f"{epochs} epochs: {cells}")
        for r in group.itertuples():
            if r.p_value < alpha and r.p_wilcoxon < alpha:
                better = r.a if r.mean_diff < 0 else r.b
                significant.append(f"{better} better in {r.a}/{r.b} at {epochs} epochs")
    finding = (
        "significant (both tests, 5%): " + "; ".join(significant)
        if significant
        else "no pair differs significantly (5%)"
    )
    paper = mine.drop_duplicates(["a", "b"]).dropna(subset=["paper_diff"])
    claim = (
        "; the paper reports "
        + ", ".join(f"{r.a}-{r.b} {r.paper_diff:+.2f}" for r in paper.itertuples())
        if len(paper)
        else ""
    )
    return f"{dataset}: {'; '.join(parts)}; {finding}{claim}."
