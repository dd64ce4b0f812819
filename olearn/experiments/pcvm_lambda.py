"""Reproduce seed 002's Tables 1-3: PCVM with a learned noise precision against lambda.

Ikegami, Obata, Kobayashi, Sakashita (seed 002), section 3: binary pairs of newspaper
categories (CD-Mainichi 1994: Cu./Ec., Cu./Sp., Ec./In., En./In.), N = 400 training and 800
test documents, binary word presence, cosine kernel (Eq. 21).  Rows: the extended PCVM for
lambda in {10^4, 2 10^4, 4 10^4, 8 10^4}, Chen et al.'s PCVM (gamma = 1) and an SVM; Table 1
accuracy (%), Table 2 the gamma reached, Table 3 the number of weights with ``|w_i| > 1e-8``
(support vectors for the SVM).

Our data: the Mainichi corpus is not public.  ``olearn.datasets.names("pairs")`` gives four
livedoor-news pairs that mirror the seed's four by analogy (stated on each dataset card) and
three English pairs; the paper's numbers appear only as the reference column of the mirrored
pairs (different corpus: agreement is not expected cell by cell, the *trends* are the claims).

Choices where the seed is silent:

- PCVM: Jeffreys hyper-priors (c = d = 0), bias hyper-prior 1e-5, pruning at 1e-3 of the
  largest weight, stop at a relative change 1e-3 (max 500 iterations), seeded start
  (``random_state``).  lambda rows are run twice: with Eq. (20) as derived (the default of
  :class:`~olearn.estimators.PCVMClassifier`) and as printed in the seed (whose C omits
  ``-E[H^T H]``; see :mod:`olearn.core.pcvm`), because the seed's Table 2 values can only come
  from the printed rule (the derived gamma never exceeds ``sqrt(N / 2 lambda)``).
- SVM: ``sklearn.svm.SVC(kernel="precomputed", C=1)`` on the same cosine Gram matrix, i.e. a
  linear SVM on L2-normalised presence vectors (the seed names no kernel and no C).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from olearn.citations import cite
from olearn.experiments.reproduction import Progress, ReproResult

ID = "pcvm-lambda"
TITLE = f"{cite('002')}, Tables 1-3: PCVM accuracy, gamma and non-zero weights against lambda"
SEED = "002"
REFERENCE = f"{cite('002')}, Tables 1-3"

LAMBDAS = (10000.0, 20000.0, 40000.0, 80000.0)
NONZERO = 1e-8  # Table 3 counts |w_i| > 1e-8

# Seed 002, Tables 1 (accuracy %), 2 (gamma), 3 (non-zero weights): the reference column only.
_COLUMNS = (10000.0, 20000.0, 40000.0, 80000.0, "gamma=1", "SVM")
_T1 = {
    "Cu./Ec.": (95.9, 96.4, 96.6, 96.1, 95.0, 98.6),
    "Cu./Sp.": (93.9, 94.1, 94.6, 94.5, 92.9, 97.7),
    "Ec./In.": (89.0, 89.1, 87.6, 87.4, 87.6, 91.2),
    "En./In.": (96.5, 96.6, 97.1, 95.3, 95.3, 98.3),
}
_T2 = {
    "Cu./Ec.": (0.95, 0.45, 0.23, 0.14),
    "Cu./Sp.": (0.83, 0.38, 0.20, 0.12),
    "Ec./In.": (0.39, 0.23, 0.15, 0.10),
    "En./In.": (0.93, 0.42, 0.21, 0.12),
}
_T3 = {
    "Cu./Ec.": (38, 25, 19, 14, 37, 278),
    "Cu./Sp.": (45, 27, 18, 15, 47, 292),
    "Ec./In.": (22, 15, 12, 9, 40, 294),
    "En./In.": (45, 29, 20, 12, 46, 278),
}
MEASURES = ("accuracy %", "gamma", "non-zero weights")

QUICK_DATASETS = ("pair-ldcc-dokujo-it",)
QUICK_LAMBDAS = (10000.0, 80000.0)


def paper_value(seed_pair: str, column, measure: str) -> float:
    """The seed's number for one cell (NaN where it has none)."""
    table = {"accuracy %": _T1, "gamma": _T2, "non-zero weights": _T3}[measure]
    if seed_pair not in table:
        return float("nan")
    if measure == "gamma" and column == "gamma=1":
        return 1.0
    row = table[seed_pair]
    index = _COLUMNS.index(column)
    return float(row[index]) if index < len(row) else float("nan")


def _configs(lambdas: Sequence[float]) -> list[tuple[str, Any, dict]]:
    """(label, paper column, PCVMClassifier arguments) per PCVM row."""
    rows = [(f"PCVM lam={lam:g}", lam, {"lam": lam}) for lam in lambdas]
    rows += [
        (f"PCVM lam={lam:g} (printed Eq. 20)", lam, {"lam": lam, "gamma_rule": "printed"})
        for lam in lambdas
    ]
    rows.append(("PCVM gamma=1 (Chen)", "gamma=1", {"gamma": 1.0}))
    return rows


def run_pair(
    name: str, lambdas: Sequence[float], seed: int, svm_C: float, data_home: str | None
) -> list[dict]:
    """Every row of one pair (one task of the engine): PCVM variants and the SVM."""
    from sklearn.svm import SVC

    from olearn.core._pcvm_basis import basis
    from olearn.datasets import load
    from olearn.estimators import PCVMClassifier

    data = load(name, data_home=data_home, progress=False)
    seed_pair = data.meta.get("seed_pair", "") or ""
    out = []
    for label, column, params in _configs(lambdas):
        start = time.perf_counter()
        model = PCVMClassifier(kernel="cosine", random_state=seed, **params).fit(data.X, data.y)
        elapsed = time.perf_counter() - start
        out.append(
            dict(
                dataset=name,
                seed_pair=seed_pair,
                algorithm=label,
                column=column,
                accuracy=100.0 * model.score(data.X_test, data.y_test),
                gamma=model.gamma_,
                nonzero=int(np.sum(np.abs(model.dual_coef_) > NONZERO)),
                fit_time=elapsed,
                n_iter=model.n_iter_,
                converged=model.n_iter_ < model.max_iter,
            )
        )
    start = time.perf_counter()
    K = basis(data.X, data.X, "cosine")
    svm = SVC(kernel="precomputed", C=svm_C).fit(K, data.y)
    elapsed = time.perf_counter() - start
    accuracy = 100.0 * svm.score(basis(data.X_test, data.X, "cosine"), data.y_test)
    out.append(
        dict(
            dataset=name,
            seed_pair=seed_pair,
            algorithm=f"SVM (cosine, C={svm_C:g})",
            column="SVM",
            accuracy=accuracy,
            gamma=float("nan"),
            nonzero=int(svm.support_.size),
            fit_time=elapsed,
            n_iter=int(svm.n_iter_[0]),
            converged=True,
        )
    )
    return out


def _long_table(runs: list[dict]) -> pd.DataFrame:
    rows = []
    for r in runs:
        for measure, key in zip(MEASURES, ("accuracy", "gamma", "nonzero"), strict=True):
            if measure == "gamma" and r["column"] == "SVM":
                continue
            rows.append(
                dict(
                    dataset=r["dataset"],
                    seed_pair=r["seed_pair"],
                    algorithm=r["algorithm"],
                    measure=measure,
                    paper=paper_value(r["seed_pair"], r["column"], measure),
                    ours=float(r[key]),
                    fit_time_s=r["fit_time"],
                    n_iter=r["n_iter"],
                )
            )
    return pd.DataFrame(rows)


# the seed's findings, as criteria: accuracy moves at most ACCURACY_SPREAD points over lambda;
# the PCVM is at least SPARSER times sparser than the SVM; the seed's PCVM trails its SVM by
# SEED_SVM_GAP points (Table 1).
ACCURACY_SPREAD = 2.0
SPARSER = 5
SEED_SVM_GAP = (2, 3)
RULES = (("derived Eq. 20", ""), ("printed Eq. 20", " (printed Eq. 20)"))


def findings(runs: list[dict], lambdas: Sequence[float]) -> list[dict]:
    """The seed's four findings, counted over the pairs for the derived and the printed rule.

    One dict per rule: ``rule``, ``pairs`` (how many), the number of pairs where ``gamma
    falls`` as lambda grows, where the non-zero weights fall (``fewer weights``: non-increasing
    and last below first), where the accuracy spread over lambda is ``within`` ACCURACY_SPREAD
    points, where the PCVM is ``sparser`` (SPARSER times fewer weights than the SVM), and
    ``svm_gap`` (the least and largest SVM accuracy minus PCVM accuracy, points).  The derived
    rule also has ``ratio``: the range of gamma / sqrt(k / 2 lambda) (k = non-zero weights).
    """
    frame = pd.DataFrame(runs)
    out = []
    for rule, suffix in RULES:
        counts = {"gamma falls": 0, "fewer weights": 0, "within": 0, "sparser": 0}
        pairs = list(dict.fromkeys(frame["dataset"]))
        gaps = []
        for name in pairs:
            f = frame[frame["dataset"] == name].set_index("algorithm")
            labels = [f"PCVM lam={lam:g}{suffix}" for lam in lambdas]
            gammas = f.loc[labels, "gamma"].to_numpy()
            weights = f.loc[labels, "nonzero"].to_numpy()
            acc = f.loc[labels, "accuracy"].to_numpy()
            svm = f[f["column"] == "SVM"].iloc[0]
            counts["gamma falls"] += bool(np.all(np.diff(gammas) < 0))
            falls = np.all(np.diff(weights) <= 0) and weights[-1] < weights[0]
            counts["fewer weights"] += bool(falls)
            counts["within"] += bool(acc.max() - acc.min() <= ACCURACY_SPREAD)
            counts["sparser"] += bool(weights.max() * SPARSER <= svm["nonzero"])
            gaps += list(svm["accuracy"] - acc)
        found = {
            "rule": rule,
            "pairs": len(pairs),
            **counts,
            "svm_gap": (float(min(gaps)), float(max(gaps))),
        }
        if not suffix:  # the fixed-point identity of the derived rule: 2 lam gamma^2 ~ k
            rows = frame[frame["algorithm"].isin([f"PCVM lam={lam:g}" for lam in lambdas])]
            lam_of = {f"PCVM lam={lam:g}": lam for lam in lambdas}
            ratio = [
                r.gamma / np.sqrt(r.nonzero / (2 * lam_of[r.algorithm])) for r in rows.itertuples()
            ]
            found["ratio"] = (float(min(ratio)), float(max(ratio)))
        out.append(found)
    return out


def _verdicts(runs: list[dict], lambdas: Sequence[float]) -> list[str]:
    """The seed's four findings (:func:`findings`) as the summary's lines."""
    lines = []
    for f in findings(runs, lambdas):
        n = f["pairs"]
        if "ratio" in f:
            lines.append(
                f"  {f['rule']}: gamma / sqrt(k / 2 lambda) (k = non-zero weights) lies in "
                f"[{f['ratio'][0]:.3f}, {f['ratio'][1]:.3f}]: the learned gamma only measures the "
                "model's size (see olearn.core.pcvm, 'Scale step')."
            )
        lines.append(
            f"  {f['rule']}: gamma falls as lambda grows on {f['gamma falls']}/{n} pairs; "
            f"non-zero weights fall (non-increasing) on {f['fewer weights']}/{n}; "
            f"accuracy spread over lambda <= {ACCURACY_SPREAD:g} points on {f['within']}/{n}; "
            f"at least {SPARSER}x sparser than the SVM on {f['sparser']}/{n}; accuracy below the "
            f"SVM by {f['svm_gap'][0]:.1f} to {f['svm_gap'][1]:.1f} points (seed: "
            f"{SEED_SVM_GAP[0]} to {SEED_SVM_GAP[1]})."
        )
    return lines


def _wide(runs: list[dict], key: str, fmt: str) -> str:
    frame = pd.DataFrame(runs)
    if key == "gamma":
        frame = frame[frame["column"] != "SVM"]
    wide = frame.pivot(index="algorithm", columns="dataset", values=key)
    wide = wide.loc[list(dict.fromkeys(frame["algorithm"])), list(dict.fromkeys(frame["dataset"]))]
    wide.columns = [c.replace("pair-", "") for c in wide.columns]
    return wide.to_string(float_format=lambda v: format(v, fmt))


def run(
    *,
    quick: bool = False,
    jobs: int = 1,
    progress: Progress | None = None,
    datasets: Sequence[str] | None = None,
    lambdas: Sequence[float] | None = None,
    seed: int = 0,
    svm_C: float = 1.0,
    data_home: str | None = None,
    backend: str = "loky",
    scheduler: Any = None,
) -> ReproResult:
    """Run Tables 1-3 on the document pairs and set the seed's values beside ours.

    Parameters
    ----------
    quick : one pair and lambda in {10^4, 8 10^4} (well under a minute).
    jobs, backend, scheduler, progress : see :func:`olearn.experiments.engine.run_tasks`
        (one task per pair).
    datasets : pair names (default ``olearn.datasets.names("pairs")``).
    lambdas : the lambda grid (default the seed's four values).
    seed : ``random_state`` of the PCVM start.  svm_C : the SVM's C.
    data_home : where the archives are (default ``$OLEARN_DATA``).

    Returns
    -------
    ReproResult : ``table`` in long form (dataset, seed_pair, algorithm, measure, paper, ours,
        fit_time_s, n_iter); ``details["runs"]`` one record per fit.
    """
    from olearn.datasets import names
    from olearn.experiments.engine import run_tasks

    start = time.perf_counter()
    pairs = list(datasets) if datasets else list(QUICK_DATASETS if quick else names("pairs"))
    grid = tuple(lambdas) if lambdas else (QUICK_LAMBDAS if quick else LAMBDAS)
    tasks = [dict(name=p, lambdas=grid, seed=seed, svm_C=svm_C, data_home=data_home) for p in pairs]
    results = run_tasks(
        run_pair, tasks, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress
    )
    runs = [row for rows in results for row in rows]
    table = _long_table(runs)
    wall = time.perf_counter() - start
    pcvm_times = [r["fit_time"] for r in runs if r["column"] != "SVM"]
    svm_times = [r["fit_time"] for r in runs if r["column"] == "SVM"]
    summary = "\n".join(
        [
            f"{TITLE}{' (quick)' if quick else ''}",
            "Data: olearn document pairs (400 train / 800 test, binary presence); the seed's "
            "Mainichi pairs are not public, so livedoor pairs mirror them by analogy and the "
            "paper's values are a reference column only (seed_pair names the mirrored pair).",
            "PCVM: cosine kernel (Eq. 21), Jeffreys hyper-priors, prune at 1e-3 x max|w|, "
            f"tol 1e-3, max 500 iterations, random_state={seed}.  SVM: SVC(kernel='precomputed', "
            f"C={svm_C:g}) on the same cosine Gram matrix (a linear SVM on L2-normalised rows).",
            "Derived Eq. 20 is the default; 'printed Eq. 20' rows run the seed's formula as "
            "printed (its C lacks -E[H^T H]) to show where the seed's gamma values come from.",
            "",
            "Accuracy (%):",
            _wide(runs, "accuracy", ".2f"),
            "",
            "gamma reached:",
            _wide(runs, "gamma", ".4g"),
            "",
            "Non-zero weights (|w| > 1e-8; SVM: support vectors):",
            _wide(runs, "nonzero", ".0f"),
            "",
            "The seed's findings on our data:",
            *_verdicts(runs, grid),
            "",
            f"Fit times: PCVM median {np.median(pcvm_times):.2f} s (max {max(pcvm_times):.2f} s), "
            f"SVM median {np.median(svm_times):.3f} s; wall {wall:.1f} s with jobs={jobs}.",
        ]
    )
    details = {
        "runs": runs,
        "lambdas": list(grid),
        "datasets": pairs,
        "seed": seed,
        "svm_C": svm_C,
        "wall_time_s": wall,
    }
    return ReproResult(id=ID, title=TITLE, table=table, summary=summary, details=details)
