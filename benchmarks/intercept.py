"""Does an intercept help or hurt?  Test error with and without one, on every dataset.

``python -m benchmarks.intercept [--quick] [--seeds 3] [--out results]`` writes
``results/intercept.csv`` (one row per dataset, algorithm, setting and seed) and
``results/intercept.md`` (the mean test error per dataset and algorithm, one column per
setting, then each setting's mean excess over the best setting of its row).

An intercept is LIBLINEAR's: a constant feature of value ``s`` appended to every row, its
weight learned like any other (``intercept_scaling = s``).  It is emulated exactly as the
estimators implement it: ``fit_intercept=False`` on ``[X, s]``.  Settings:

- ``none``: no constant feature (the seed's ``w_y . x``);
- ``s=1``: today's ``fit_intercept=True``;  ``s=0.1``, ``s=0.01``: a smaller constant;
- ``s=median``: ``s`` = the median row norm ``||x||`` of the training part: the constant is
  as long as a typical row, whatever the data's scale (1 on unit-norm text, ~7 on USPS pixels,
  ~25 on raw 20news counts).

The learners are what a practitioner's first fit gets: each estimator's defaults (C=1,
5 shuffled epochs), data as loaded (``/l2`` rows: scaled to unit norm, as the Table 4 protocol
does), the dataset's own test split where it has one, else a stratified 25 % held out (seed 0).
Errors are averaged over ``--seeds`` shuffling seeds.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import normalize

DATASETS = (
    "toy-blobs",
    "toy-separable",
    "digits",
    "usps",
    "20news-8",
    "20news-8/l2",
    "reuters-20",
    "reuters-20/l2",
    "sgd-balanced",
)
ALGORITHMS = ("perceptron", "pa", "pa1", "spa", "spa1", "arow")
SETTINGS = ("none", "s=1", "s=0.1", "s=0.01", "s=median")


def with_constant(X, value: float):
    """``[X, value]``: the constant feature the estimators append (CSR stays CSR).

    >>> with_constant(np.eye(2), 0.5).tolist()
    [[1.0, 0.0, 0.5], [0.0, 1.0, 0.5]]
    """
    column = np.full((X.shape[0], 1), float(value))
    if sp.issparse(X):
        return sp.hstack([X, sp.csr_matrix(column)], format="csr")
    return np.hstack([X, column])


def median_norm(X) -> float:
    """Median Euclidean row norm (zero rows count)."""
    sq = X.multiply(X).sum(axis=1) if sp.issparse(X) else np.einsum("ij,ij->i", X, X)
    return float(np.median(np.sqrt(np.asarray(sq, dtype=float).ravel())))


def scaling_of(setting: str, X_train) -> float | None:
    """The constant's value for a setting (None: no constant)."""
    if setting == "none":
        return None
    if setting == "s=median":
        return median_norm(X_train)
    return float(setting.removeprefix("s="))


def split(name: str, quick: bool):
    """``(X_train, y_train, X_test, y_test)`` of a dataset label ("name" or "name/l2")."""
    from olearn import datasets

    base, _, scale = name.partition("/")
    kwargs = {"n_samples": 600} if base.startswith("toy-") else {}
    ds = datasets.load(base, **kwargs)
    if getattr(ds, "X_test", None) is not None:
        X_train, y_train, X_test, y_test = ds.X, ds.y, ds.X_test, ds.y_test
    else:
        idx = np.arange(len(ds.y))
        tr, te = train_test_split(idx, test_size=0.25, random_state=0, stratify=ds.y)
        X_train, y_train, X_test, y_test = ds.X[tr], ds.y[tr], ds.X[te], ds.y[te]
    if quick and len(y_train) > 2000:
        keep = np.random.default_rng(0).choice(len(y_train), 2000, replace=False)
        X_train, y_train = X_train[keep], y_train[keep]
    if scale == "l2":
        X_train, X_test = normalize(X_train), normalize(X_test)
    return X_train, np.asarray(y_train), X_test, np.asarray(y_test)


def run(quick: bool = False, seeds: int = 3, datasets=DATASETS) -> pd.DataFrame:
    """Every (dataset, algorithm, setting, seed): test error (%) and the constant used."""
    from olearn import registry

    rows = []
    for name in datasets:
        X_train, y_train, X_test, y_test = split(name, quick)
        for setting in SETTINGS:
            s = scaling_of(setting, X_train)
            A = X_train if s is None else with_constant(X_train, s)
            B = X_test if s is None else with_constant(X_test, s)
            for key in ALGORITHMS:
                for seed in range(seeds):
                    est = registry.get(key).make(fit_intercept=False, random_state=seed)
                    start = time.perf_counter()
                    est.fit(A, y_train)
                    rows.append(
                        {
                            "dataset": name,
                            "algorithm": registry.get(key).name,
                            "setting": setting,
                            "scaling": np.nan if s is None else s,
                            "seed": seed,
                            "error": 100.0 * float(np.mean(est.predict(B) != y_test)),
                            "fit_s": time.perf_counter() - start,
                        }
                    )
            print(f"{name} {setting} done", flush=True)
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame) -> str:
    """A pandas table as a Markdown table (index levels first), numbers to 2 decimals.

    >>> print(markdown(pd.DataFrame({"a": [1.234]}, index=pd.Index(["x"], name="k"))))
    | k | a |
    |---|---|
    | x | 1.23 |
    """
    names = [n or "" for n in frame.index.names]
    head = "| " + " | ".join([*names, *map(str, frame.columns)]) + " |"
    rule = "|" + "---|" * (len(names) + len(frame.columns))
    body = []
    for key, row in zip(frame.index, frame.to_numpy()):
        keys = key if isinstance(key, tuple) else (key,)
        cells = [*map(str, keys), *("" if pd.isna(v) else f"{v:.2f}" for v in row)]
        body.append("| " + " | ".join(cells) + " |")
    return "\n".join([head, rule, *body])


def report(runs: pd.DataFrame) -> str:
    """The Markdown tables: mean error per (dataset, algorithm) by setting, then the excess."""
    table = runs.pivot_table(
        index=["dataset", "algorithm"], columns="setting", values="error", aggfunc="mean"
    )[list(SETTINGS)]
    order = runs[["dataset", "algorithm"]].drop_duplicates()
    table = table.reindex(pd.MultiIndex.from_frame(order))
    excess = table.sub(table.min(axis=1), axis=0)
    by_data = excess.groupby(level="dataset", sort=False).mean()
    scalings = runs.groupby("dataset", sort=False)["scaling"].max()
    lines = [
        "# Intercept: test error (%) with and without a constant feature",
        "",
        "Command: `python -m benchmarks.intercept` (see its docstring for the protocol).",
        "",
        markdown(table),
        "",
        "## Mean excess error over the best setting of each row (points), per dataset",
        "",
        markdown(by_data),
        "",
        "Over every row: mean excess "
        + ", ".join(f"{c} {excess[c].mean():.2f}" for c in SETTINGS)
        + "; worst excess "
        + ", ".join(f"{c} {excess[c].max():.2f}" for c in SETTINGS)
        + ".",
        "",
        "s=median per dataset: "
        + ", ".join(f"{d} {v:.3g}" for d, v in scalings.items() if np.isfinite(v))
        + ".",
        "",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.intercept")
    parser.add_argument("--quick", action="store_true", help="2,000 training rows at most")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--out", default="results")
    args = parser.parse_args(argv)
    runs = run(args.quick, args.seeds, [d for d in args.datasets.split(",") if d])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    runs.to_csv(out / "intercept.csv", index=False)
    text = report(runs)
    (out / "intercept.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
