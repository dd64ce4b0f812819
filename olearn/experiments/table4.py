"""Reproduce seed 000's Table 4: error rates (%) of seven online and two batch learners.

Matsushima, Shimizu, Yoshida, Ninomiya, Nakagawa, "Exact Passive-Aggressive Algorithm for
Multiclass Classification Using Support Class", SDM 2010 (seed 000), section 4: 20 Newsgroups
"ol-8-1" (8 classes), USPS (10), Reuters-21578 (20 classes); 10-fold cross-validation, C tuned
on one random fold; Perceptron, PA, PA-I, PA-II, SPA, SPA-I, SPA-II, Maxent and a linear
multiclass SVM.  The protocol and every choice the paper leaves open are in
:mod:`olearn.experiments.protocol`; the printed summary repeats them.

The paper's numbers below are the reference column only, typed from seed 000, Table 4.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from olearn.experiments.curves import learning_curves
from olearn.experiments.protocol import (
    DataRef,
    ProtocolConfig,
    config_dict,
    run_protocol,
)
from olearn.experiments.reproduction import Progress, ReproResult

ID = "matsushima-table4"
TITLE = "Seed 000, Table 4: error rates (%) under 10-fold CV, C tuned on one random fold"
SEED = "000"
REFERENCE = "seed 000, Table 4"

DATASETS = ("20news-8", "usps", "reuters-20")
# (label in the paper's table, protocol key), in the paper's column order: Perc first here.
ALGORITHMS = (
    ("Perc", "perceptron"),
    ("PA", "pa"),
    ("PA-I", "pa1"),
    ("PA-II", "pa2"),
    ("SPA", "spa"),
    ("SPA-I", "spa1"),
    ("SPA-II", "spa2"),
    ("Maxent", "maxent"),
    ("SVM", "svm"),
)
_LABELS = {key: label for label, key in ALGORITHMS}

# seed 000, Table 4 ("各データセットの誤分類率 (%)"): the reference column only.
PAPER: dict[str, dict[str, float]] = {
    "20news-8": {
        "PA": 11.06,
        "PA-I": 10.67,
        "PA-II": 10.17,
        "SPA": 7.73,
        "SPA-I": 7.42,
        "SPA-II": 7.19,
        "Perc": 10.87,
        "Maxent": 7.12,
        "SVM": 7.47,
    },
    "usps": {
        "PA": 7.12,
        "PA-I": 7.12,
        "PA-II": 6.02,
        "SPA": 6.30,
        "SPA-I": 6.46,
        "SPA-II": 4.46,
        "Perc": 6.86,
        "Maxent": 4.98,
        "SVM": 4.94,
    },
    "reuters-20": {
        "PA": 4.31,
        "PA-I": 4.22,
        "PA-II": 4.18,
        "SPA": 3.18,
        "SPA-I": 3.30,
        "SPA-II": 3.37,
        "Perc": 4.33,
        "Maxent": 3.50,
        "SVM": 3.13,
    },
}
# seed 000, Table 3: (classes, samples, features), to print beside the sizes we obtained.
PAPER_SIZES = {
    "20news-8": (8, 2586, 9971),
    "usps": (10, 7291, 256),
    "reuters-20": (20, 7800, 34488),
}

# --quick: small enough for tests and the app (seconds to a minute per dataset).
QUICK = {
    "folds": 3,
    "max_samples": 600,
    "epochs": 1,
    "c_grid": (0.01, 1.0),
    "batch_c_grid": (1.0, 100.0),
}


def paper_label(key: str, name: str) -> str:
    """The column label of protocol key ``key`` in the paper's table, else ``name``.

    >>> paper_label("perceptron", "Perceptron"), paper_label("arow", "AROW")
    ('Perc', 'AROW')
    """
    return _LABELS.get(key, name)


def run(
    *,
    quick: bool = False,
    jobs: int = 1,
    progress: Progress | None = None,
    datasets: Sequence[str] | None = None,
    algorithms: Sequence[str] | None = None,
    folds: int | None = None,
    epochs: int | None = None,
    seed: int | None = None,
    tuning: str | None = None,
    scale: str | None = None,
    c_grid: Sequence[float] | None = None,
    batch_c_grid: Sequence[float] | None = None,
    max_samples: int | None = None,
    svm: str | None = None,
    fit_intercept: bool | None = None,
    backend: str = "loky",
    scheduler: Any = None,
    data_home: str | None = None,
    data_options: dict[str, dict] | None = None,
    curves: bool = True,
) -> ReproResult:
    """Run the Table 4 experiment and set our error rates beside the paper's.

    Parameters
    ----------
    quick : small run (3 folds, 600-sample subsample, 1 epoch, two-point grids); explicit
        options override it.
    jobs, backend, scheduler, progress : see :func:`olearn.experiments.engine.run_tasks`.
    datasets : names (default the paper's three; any dataset name works, with no paper value).
    algorithms : protocol keys (default the paper's nine).
    folds, epochs, seed, tuning, scale, c_grid, batch_c_grid, max_samples, svm,
    fit_intercept : see
        :class:`olearn.experiments.protocol.ProtocolConfig`; None keeps its default.
    data_home : where the dataset archives are (default ``$OLEARN_DATA``).
    data_options : loader options per dataset, e.g. ``{"20news-8": {"remove_headers": False}}``
        (default: each dataset's defaults).
    curves : also compute each online learner's learning curve at its chosen C.

    Returns
    -------
    ReproResult : ``table`` has dataset, algorithm, paper, ours, diff (ours - paper, points),
        std (over folds), params (chosen C), ours_other_folds (without the tuning fold),
        train_time (s per fit), converged; ``details`` holds the per-fit runs, the tuning
        errors, the curves, the config, the dataset sizes and the wall time.
    """
    start = time.perf_counter()
    base = dict(QUICK) if quick else {}
    explicit = {
        "folds": folds,
        "epochs": epochs,
        "c_grid": c_grid,
        "seed": seed,
        "batch_c_grid": batch_c_grid,
        "max_samples": max_samples,
        "tuning": tuning,
        "scale": scale,
        "svm": svm,
        "fit_intercept": fit_intercept,
    }
    base.update({k: v for k, v in explicit.items() if v is not None})
    config = ProtocolConfig(**base)  # None: the protocol's documented default
    names = list(datasets) if datasets else list(DATASETS)
    keys = list(algorithms) if algorithms else [k for _, k in ALGORITHMS]
    data_options = data_options or {}
    unknown = sorted(set(data_options) - set(names))
    if unknown:
        raise ValueError(f"data options given for datasets not in the run: {unknown}")
    refs = [
        DataRef(name, data_home, tuple(sorted(data_options.get(name, {}).items())))
        for name in names
    ]
    cards = {ref.name: ref.load().meta for ref in refs}  # loads (and fails) before any work

    result = run_protocol(
        refs, keys, config, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress
    )
    curve_table = pd.DataFrame()
    if curves:
        chosen = {(r.dataset, r.key): _params(r.params) for r in result.summary.itertuples()}
        curve_table = learning_curves(
            refs, keys, config, params=chosen, jobs=jobs, backend=backend, scheduler=scheduler
        )
    table = _table(result.summary)
    wall = time.perf_counter() - start
    summary = _summary(config, result.sizes, cards, table, wall, data_options)
    details = {
        "reference": REFERENCE,
        "config": config_dict(config),
        "sizes": result.sizes,
        "paper_sizes": {
            k: dict(zip(("n_classes", "n_samples", "n_features"), v))
            for k, v in PAPER_SIZES.items()
            if k in names
        },
        "wall_time": wall,
        "data_options": data_options,
        "runs": result.runs.to_dict(orient="records"),
        "tuning": result.tuning.to_dict(orient="records"),
        "curves": curve_table.to_dict(orient="records"),
    }
    return ReproResult(ID, TITLE, table, summary=summary, details=details)


def _params(text: str) -> dict:
    import json

    return json.loads(text)


def _table(summary: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for r in summary.itertuples():
        label = paper_label(r.key, r.algorithm)
        paper = PAPER.get(r.dataset, {}).get(label, np.nan)
        rows.append(
            {
                "dataset": r.dataset,
                "algorithm": label,
                "paper": paper,
                "ours": r.error,
                "diff": r.error - paper,
                "std": r.error_std,
                "params": r.params,
                "ours_other_folds": r.error_other_folds,
                "train_time": r.train_time,
                "converged": r.converged,
            }
        )
    return pd.DataFrame(rows)


def _summary(config, sizes, cards, table, wall, data_options) -> str:
    lines = [TITLE, f"Paper values: {REFERENCE}.", config.describe(), "Datasets (ours vs Table 3):"]
    for name, size in sizes.items():
        paper = PAPER_SIZES.get(name)
        ref = (
            f"Table 3: K={paper[0]}, n={paper[1]:,}, d={paper[2]:,}" if paper else "not in Table 3"
        )
        title = cards.get(name, {}).get("title", name)
        if data_options.get(name):
            title += f"; loader options {data_options[name]}"
        lines.append(
            f"  {name}: K={size['n_classes']}, n={size['n_samples']:,}, "
            f"d={size['n_features']:,} ({ref}); {title}"
        )
    cells = table.dropna(subset=["paper"])
    if len(cells):
        close = int((cells["diff"].abs() <= 1.0).sum())
        lines.append(
            f"{close} of {len(cells)} cells within 1 point of the paper; "
            f"mean |diff| {cells['diff'].abs().mean():.2f} points."
        )
    if not table["converged"].all():
        bad = table.loc[~table["converged"], ["dataset", "algorithm"]].values.tolist()
        lines.append(f"Solver hit its iteration cap (ConvergenceWarning) in some fits of: {bad}.")
    lines.append(f"Wall time: {wall:.1f} s.")
    return "\n".join(lines)
