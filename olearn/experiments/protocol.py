"""Seed 000's evaluation protocol: K-fold cross-validation, C tuned on one random fold.

The paper (Matsushima et al., SDM 2010, section 4) says only: "10-fold cross-validation; one of
the folds, chosen at random, tunes the hyper-parameter C; the error rate is the average of the
results".  Everything else is a choice, made here, printed by :meth:`ProtocolConfig.describe`
and exposed as an option:

- **Folds**: ``folds=10``, stratified, shuffled with ``seed`` (scikit-learn ``StratifiedKFold``).
- **Tuning fold**: ``numpy.random.default_rng(seed).integers(folds)``, the same for every
  algorithm and dataset (the paper picks "one of them").
- **What the tuning measures** (``tuning``):

  - ``"fold"`` (default, what the paper appears to do): for every C, train on the tuning fold's
    training part and measure the error on its test part; keep the argmin.  The reported
    average then includes that fold's error at the chosen C, which is optimistic by at most
    1/K of a selection bias.  The summary also gives the average over the other K-1 folds
    (``error_other_folds``), which is free of it.
  - ``"inner"``: split the tuning fold's training part again (stratified, ``inner_fraction``
    held out), pick C on that held-out part; every fold's test part stays unseen by tuning.
- **Ties** in the tuning error go to the first grid point (grids are listed smallest C first:
  the most passive / most regularised model).
- **Epochs / shuffling**: ``epochs=10`` passes over the training part, each shuffled with a
  seed derived from ``(seed, fold)``; every algorithm sees the same orders (common random
  numbers).  The final weights are used (no averaging: the paper mentions none).  One pass
  leaves the text learners far from converged (20news-8: 35-60 % error after one pass,
  about 11 % after ten); between 10 and 20 passes the error moves by about the fold noise.
- **Scaling**: ``scale="l2"`` divides each row by its Euclidean norm (standard for bag-of-words:
  without it a few very long posts, norm up to 900 against a median of 17, dominate every
  PA/Perceptron step, and hard PA/SPA stay at 17-21 % on 20news-8); ``"none"`` keeps the raw
  counts / pixels the paper describes.  Only row-wise scalings are offered, so nothing leaks
  across folds.  (Epochs, scaling and intercept were settled by comparing a few settings on
  one fold of each dataset: the figures quoted here.)
- **Intercept**: none, ``fit_intercept=False`` for every learner: the seed's model scores a
  class by ``w_y . x`` alone (no bias in its problem statement), and LIBLINEAR's default is no
  bias.  With unit-norm rows a constant feature 1 would also outweigh every word; measured on
  the three datasets it cost the Perceptron 1-4 points.  ``fit_intercept=True`` restores it.
- **Grids**: online learners use the registry's grid (C in 10^-3 .. 10); the batch baselines
  their own (:mod:`olearn.experiments.baselines`): their C weighs the total loss against the
  regulariser, so it lives on another scale.
- **Threads**: every fit runs with one BLAS/OpenMP thread; parallelism is over tasks.

Every task is a module-level function call with its own seed, run through
:func:`olearn.experiments.engine.run_tasks`, so serial, joblib and Dask runs give the same table.
A :class:`DataRef` is loaded by name inside each worker (memoised per process), so Dask workers
on other machines need the same data folder (``$OLEARN_DATA``) or cache.
"""

from __future__ import annotations

import functools
import itertools
import json
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import KFold, StratifiedKFold, train_test_split
from threadpoolctl import threadpool_limits

from olearn.experiments.baselines import learner as get_learner
from olearn.experiments.baselines import svm_implementation
from olearn.experiments.engine import run_tasks
from olearn.experiments.reproduction import Progress

TUNING_MODES = ("fold", "inner")
SCALINGS = ("none", "l2")


@dataclass(frozen=True)
class DataRef:
    """A dataset by name, loaded (and cached) inside each worker process.

    ``options`` are the loader's keyword arguments as a tuple of pairs (hashable).
    """

    name: str
    data_home: str | None = None
    options: tuple = ()

    def load(self):
        """The :class:`olearn.datasets.Dataset`."""
        return _load_dataset(self.name, self.data_home, self.options)


@dataclass(frozen=True)
class ProtocolConfig:
    """The protocol's choices (see the module docstring for why each default).

    Parameters
    ----------
    folds : number of cross-validation folds (>= 2).
    seed : seeds the folds, the tuning fold, the subsample and every training shuffle.
    stratified : stratified folds.
    tuning : ``"fold"`` or ``"inner"``.  inner_fraction : held-out share for ``"inner"``.
    epochs : passes of an online learner over its training part.  shuffle : shuffle each pass.
    scale : ``"none"`` or ``"l2"`` (row-wise).
    fit_intercept : every learner that can fits a bias (default False: the paper's ``w_y . x``).
    c_grid : replaces the registry's C grid of the online learners (None: keep it).
    batch_c_grid : replaces the baselines' C grid (None: keep it).
    max_samples : stratified seeded subsample of each dataset first (None: all of it).
    svm : ``"auto"``, ``"liblinear"`` or ``"olearn"`` (see
        :func:`olearn.experiments.baselines.svm_implementation`).
    """

    folds: int = 10
    seed: int = 0
    stratified: bool = True
    tuning: str = "fold"
    inner_fraction: float = 0.1
    epochs: int = 10
    shuffle: bool = True
    scale: str = "l2"
    fit_intercept: bool = False
    c_grid: tuple | None = None
    batch_c_grid: tuple | None = None
    max_samples: int | None = None
    svm: str = "auto"

    def __post_init__(self):
        if not isinstance(self.folds, int | np.integer) or self.folds < 2:
            raise ValueError(f"folds must be an integer >= 2, got {self.folds!r}")
        if not isinstance(self.epochs, int | np.integer) or self.epochs < 1:
            raise ValueError(f"epochs must be a positive integer, got {self.epochs!r}")
        if self.tuning not in TUNING_MODES:
            raise ValueError(f"tuning must be one of {TUNING_MODES}, got {self.tuning!r}")
        if self.scale not in SCALINGS:
            raise ValueError(f"scale must be one of {SCALINGS}, got {self.scale!r}")
        if not 0 < self.inner_fraction < 1:
            raise ValueError(f"inner_fraction must be in (0, 1), got {self.inner_fraction!r}")
        if self.max_samples is not None and self.max_samples < 2 * self.folds:
            raise ValueError(f"max_samples must be at least 2*folds, got {self.max_samples!r}")
        for name in ("c_grid", "batch_c_grid"):
            grid = getattr(self, name)
            if grid is not None:
                values = tuple(float(c) for c in grid)
                if not values or any(not (0 < c < np.inf) for c in values):
                    raise ValueError(f"{name} must hold positive finite numbers, got {grid!r}")
                object.__setattr__(self, name, values)
        svm_implementation(self.svm)  # validates

    @property
    def tuning_fold(self) -> int:
        """The fold that tunes C: drawn once from ``seed``."""
        return tuning_fold(self.folds, self.seed)

    def describe(self) -> str:
        """The choices, as printed above every reproduction's table."""
        tune = (
            "on the tuning fold's own test part (as the paper appears to do)"
            if self.tuning == "fold"
            else f"on an inner stratified {self.inner_fraction:.0%} split of its training part"
        )
        sub = "all samples" if self.max_samples is None else f"{self.max_samples} samples"
        lines = [
            f"Protocol: {self.folds}-fold {'stratified ' if self.stratified else ''}CV "
            f"(seed {self.seed}), {sub}; C tuned on fold {self.tuning_fold} {tune}; "
            "error = mean over all folds at the chosen C.",
            f"Online learners: {self.epochs} epoch(s), "
            f"{'shuffled' if self.shuffle else 'in file order'} (same order for every "
            f"algorithm), final weights; intercept {'on' if self.fit_intercept else 'off'} "
            "(all learners); "
            f"scaling: {'rows to unit L2 norm' if self.scale == 'l2' else 'none (raw values)'}; "
            "one BLAS thread per fit.",
            f"C grids: online {list(self.c_grid) if self.c_grid else 'registry default'}, "
            f"batch {list(self.batch_c_grid) if self.batch_c_grid else 'baseline default'}; "
            f"ties -> smaller C. SVM: {svm_implementation(self.svm)}.",
        ]
        return "\n".join(lines)


# --- folds, tuning fold, seeds -------------------------------------------------------------
def tuning_fold(folds: int, seed: int) -> int:
    """The fold chosen at random to tune C.

    Examples
    --------
    >>> 0 <= tuning_fold(10, 0) < 10
    True
    """
    return int(np.random.default_rng(seed).integers(folds))


def fold_seed(seed: int, fold: int) -> int:
    """The training-shuffle seed of one fold (independent of algorithm and C)."""
    return int(np.random.SeedSequence([seed, fold]).generate_state(1)[0])


def fold_indices(
    y: np.ndarray, folds: int, seed: int, stratified: bool = True
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``[(train_idx, test_idx), ...]`` for K seeded folds; the test parts partition the data.

    Examples
    --------
    >>> y = np.array([0, 1] * 10)
    >>> parts = fold_indices(y, 5, seed=0)
    >>> sorted(np.concatenate([test for _, test in parts]).tolist()) == list(range(20))
    True
    """
    y = np.asarray(y)
    if folds < 2 or folds > y.shape[0]:
        raise ValueError(f"folds must be in [2, n_samples={y.shape[0]}], got {folds}")
    if stratified:
        smallest = np.unique(y, return_counts=True)[1].min()
        if smallest < folds:
            raise ValueError(
                f"stratified {folds}-fold CV needs >= {folds} samples per class; the smallest "
                f"class has {smallest} (use fewer folds or stratified=False)"
            )
        splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    else:
        splitter = KFold(n_splits=folds, shuffle=True, random_state=seed)
    return [(np.sort(tr), np.sort(te)) for tr, te in splitter.split(np.zeros(len(y)), y)]


def inner_split(y: np.ndarray, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Stratified (train, validation) positions inside a training part (falls back to plain
    random when a class is too small to stratify)."""
    idx = np.arange(len(y))
    try:
        tr, va = train_test_split(idx, test_size=fraction, random_state=seed, stratify=y)
    except ValueError:
        tr, va = train_test_split(idx, test_size=fraction, random_state=seed)
    return np.sort(tr), np.sort(va)


def subsample(y: np.ndarray, max_samples: int | None, seed: int) -> np.ndarray:
    """Sorted positions of a stratified seeded subsample (all positions when not smaller)."""
    n = len(y)
    if max_samples is None or max_samples >= n:
        return np.arange(n)
    idx = np.arange(n)
    try:
        keep, _ = train_test_split(idx, train_size=max_samples, random_state=seed, stratify=y)
    except ValueError:
        keep, _ = train_test_split(idx, train_size=max_samples, random_state=seed)
    return np.sort(keep)


# --- data, cached per process ---------------------------------------------------------------
@functools.lru_cache(maxsize=4)
def _load_dataset(name: str, data_home: str | None, options: tuple):
    from olearn.datasets import load

    return load(name, data_home=data_home, **dict(options))


def _scale(X, scale: str):
    if scale == "none":
        return X
    if sp.issparse(X):
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        return sp.csr_matrix(sp.diags(1.0 / norms) @ X)
    norms = np.linalg.norm(X, axis=1)
    norms[norms == 0] = 1.0
    return X / norms[:, None]


@functools.lru_cache(maxsize=4)
def _prepared_cached(ref: DataRef, scale: str, max_samples: int | None, seed: int):
    return _prepare(ref.load(), scale, max_samples, seed)


def _prepare(dataset, scale: str, max_samples: int | None, seed: int):
    keep = subsample(dataset.y, max_samples, seed)
    X, y = dataset.X, np.asarray(dataset.y)
    if len(keep) < len(y):
        X, y = X[keep], y[keep]
    return _scale(X, scale), y


def prepared(data, config: ProtocolConfig):
    """``(X, y)`` of a :class:`DataRef` or a Dataset after subsampling and scaling."""
    if isinstance(data, DataRef):
        return _prepared_cached(data, config.scale, config.max_samples, config.seed)
    return _prepare(data, config.scale, config.max_samples, config.seed)


def dataset_name(data) -> str:
    return data.name


# --- one fit ---------------------------------------------------------------------------------
def build_estimator(spec, params: Mapping[str, Any], config: ProtocolConfig, random_state: int):
    """``spec.make(**params)`` with the protocol's epochs / shuffle / seed / intercept where
    accepted."""
    est = spec.make(**params)
    accepted = est.get_params()
    extra: dict[str, Any] = {}
    if "random_state" in accepted:
        extra["random_state"] = random_state
    if "fit_intercept" in accepted:
        extra["fit_intercept"] = config.fit_intercept
    if spec.online:
        for key, value in (("epochs", config.epochs), ("shuffle", config.shuffle)):
            if key in accepted:
                extra[key] = value
    return est.set_params(**extra)


def evaluate(
    *, data, algorithm: str, params: dict, fold: int, stage: str, config: ProtocolConfig
) -> dict:
    """Train one learner on one fold's training part and measure its test error (a task).

    ``stage="eval"`` trains on the fold's training part and tests on its test part;
    ``stage="tune"`` does the same in ``tuning="fold"`` mode, and in ``"inner"`` mode trains
    on the inner training split and tests on the inner validation split.

    Returns a tidy row: dataset, algorithm, key, params, fold, stage, error (%), n_train,
    n_test, train_time (s), updates (aggressive steps of an online learner, else None),
    converged (False when the solver warned that it stopped at its iteration cap).
    """
    spec = get_learner(algorithm, svm=config.svm)
    X, y = prepared(data, config)
    train, test = fold_indices(y, config.folds, config.seed, config.stratified)[fold]
    if stage == "tune" and config.tuning == "inner":
        tr, va = inner_split(y[train], config.inner_fraction, fold_seed(config.seed, fold))
        train, test = train[tr], train[va]
    elif stage not in ("tune", "eval"):
        raise ValueError(f"stage must be 'tune' or 'eval', got {stage!r}")
    est = build_estimator(spec, params, config, fold_seed(config.seed, fold))
    # One BLAS/OpenMP thread per fit: parallelism comes from running tasks side by side, and
    # on a shared, loaded machine multi-threaded solvers spin (13x slower measured here).
    with threadpool_limits(limits=1), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        start = time.perf_counter()
        est.fit(X[train], y[train])
        train_time = time.perf_counter() - start
    converged = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
    error = float(np.mean(est.predict(X[test]) != y[test])) * 100.0
    updates = getattr(est, "n_updates_", None)
    return {
        "dataset": dataset_name(data),
        "algorithm": spec.name,
        "key": spec.key,
        "params": json.dumps(dict(params), sort_keys=True),
        "fold": int(fold),
        "stage": stage,
        "error": error,
        "n_train": int(len(train)),
        "n_test": int(len(test)),
        "train_time": train_time,
        "updates": None if updates is None else int(updates),
        "converged": converged,
    }


# --- the whole protocol ----------------------------------------------------------------------
def param_grid(spec, config: ProtocolConfig) -> list[dict]:
    """Every hyper-parameter combination to tune over (``[{}]`` when nothing is tuned).

    Examples
    --------
    >>> from olearn.experiments.baselines import learner
    >>> param_grid(learner("pa1"), ProtocolConfig(c_grid=(0.1, 1)))
    [{'C': 0.1}, {'C': 1.0}]
    >>> param_grid(learner("perceptron"), ProtocolConfig())
    [{}]
    """
    grid = {k: list(v) for k, v in spec.grid.items()}
    override = config.c_grid if spec.online else config.batch_c_grid
    if override is not None and "C" in grid:
        grid["C"] = list(override)
    if not grid:
        return [{}]
    keys = list(grid)
    return [dict(zip(keys, values)) for values in itertools.product(*(grid[k] for k in keys))]


@dataclass
class ProtocolResult:
    """What :func:`run_protocol` returns.

    Attributes
    ----------
    runs : tidy table, one row per fit (stage "tune" or "eval"); ``reused`` marks the
        tuning-fold eval row copied from its tuning run (``tuning="fold"``).
    tuning : the tuning rows with a ``chosen`` flag.
    summary : one row per (dataset, algorithm): chosen params, mean/std error over folds,
        ``error_other_folds`` (without the tuning fold), mean train time and updates.
    config : the :class:`ProtocolConfig`.
    sizes : per dataset ``{n_samples, n_features, n_classes}`` as used.
    """

    runs: pd.DataFrame
    tuning: pd.DataFrame
    summary: pd.DataFrame
    config: ProtocolConfig
    sizes: dict = field(default_factory=dict)


def choose(rows: Sequence[dict]) -> dict:
    """The tuning row with the lowest error; ties go to the first (grid order)."""
    if not rows:
        raise ValueError("no tuning rows to choose from")
    return min(enumerate(rows), key=lambda pair: (pair[1]["error"], pair[0]))[1]


def run_protocol(
    datasets: Sequence,
    algorithms: Sequence[str],
    config: ProtocolConfig | None = None,
    *,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: Any = None,
    progress: Progress | None = None,
) -> ProtocolResult:
    """Run the seed 000 protocol for every (dataset, algorithm).

    Parameters
    ----------
    datasets : :class:`DataRef` (loaded by name in each worker) or Dataset objects.
    algorithms : registry keys / names, ``"maxent"``, ``"svm"``.
    config : the protocol's choices (default :class:`ProtocolConfig`).
    jobs, backend, scheduler, progress : see :func:`olearn.experiments.engine.run_tasks`.

    Examples
    --------
    >>> from olearn.datasets.toy import make_toy
    >>> data = make_toy("blobs", n_samples=120, n_classes=3, random_state=0)
    >>> res = run_protocol([data], ["perceptron", "spa1"],
    ...                    ProtocolConfig(folds=3, c_grid=(0.1, 1.0)))
    >>> res.summary[["algorithm", "params"]].values.tolist()[0]
    ['Perceptron', '{}']
    """
    config = config or ProtocolConfig()
    specs = [get_learner(a, svm=config.svm) for a in algorithms]
    if not datasets or not specs:
        raise ValueError("run_protocol needs at least one dataset and one algorithm")
    sizes = {}
    for data in datasets:  # load here first: a missing dataset fails before any work starts
        X, y = prepared(data, config)
        fold_indices(y, config.folds, config.seed, config.stratified)  # validates
        sizes[dataset_name(data)] = {
            "n_samples": int(X.shape[0]),
            "n_features": int(X.shape[1]),
            "n_classes": int(len(np.unique(y))),
        }
    tf = config.tuning_fold
    grids = {spec.key: param_grid(spec, config) for spec in specs}
    tuned = {key for key, grid in grids.items() if grid != [{}]}

    def task(data, spec, params, fold, stage):
        return {
            "data": data,
            "algorithm": spec.key,
            "params": params,
            "fold": fold,
            "stage": stage,
            "config": config,
        }

    stage1 = []
    for data in datasets:
        for spec in specs:
            if spec.key in tuned:
                stage1 += [task(data, spec, p, tf, "tune") for p in grids[spec.key]]
            else:
                stage1 += [task(data, spec, {}, f, "eval") for f in range(config.folds)]
    n_stage2 = len(datasets) * len(tuned) * (config.folds - (config.tuning == "fold"))
    total = len(stage1) + n_stage2

    def offset_progress(offset):
        if progress is None:
            return None

        def report(done, _total, message):
            if offset == 0 or done > 0:  # one "starting" call for the whole run
                progress(offset + done, total, message)

        return report

    def describe(t):
        return f"{dataset_name(t['data'])} {t['algorithm']} fold {t['fold']} {t['stage']}"

    common = {"jobs": jobs, "backend": backend, "scheduler": scheduler, "describe": describe}
    rows1 = run_tasks(evaluate, stage1, progress=offset_progress(0), **common)

    chosen: dict[tuple[str, str], dict] = {}
    tuning_rows = []
    for data in datasets:
        name = dataset_name(data)
        for spec in specs:
            if spec.key not in tuned:
                chosen[name, spec.key] = {}
                continue
            rows = [r for r in rows1 if r["dataset"] == name and r["key"] == spec.key]
            best = choose(rows)
            chosen[name, spec.key] = json.loads(best["params"])
            tuning_rows += [{**r, "chosen": r is best} for r in rows]

    stage2, reused = [], []
    for data in datasets:
        name = dataset_name(data)
        for spec in specs:
            if spec.key not in tuned:
                continue
            params = chosen[name, spec.key]
            for f in range(config.folds):
                if f == tf and config.tuning == "fold":
                    best = next(
                        r
                        for r in tuning_rows
                        if r["dataset"] == name and r["key"] == spec.key and r["chosen"]
                    )
                    reused.append(
                        {
                            **{k: v for k, v in best.items() if k != "chosen"},
                            "stage": "eval",
                            "reused": True,
                        }
                    )
                else:
                    stage2.append(task(data, spec, params, f, "eval"))
    rows2 = run_tasks(evaluate, stage2, progress=offset_progress(len(stage1)), **common)

    runs = pd.DataFrame([*rows1, *rows2, *reused])
    runs["reused"] = runs.get("reused", False)
    runs["reused"] = runs["reused"].fillna(False).astype(bool)
    runs = runs.sort_values(
        ["dataset", "algorithm", "stage", "params", "fold"], kind="stable"
    ).reset_index(drop=True)
    tuning = pd.DataFrame(tuning_rows)
    summary = _summarise(runs, datasets, specs, chosen, tf)
    return ProtocolResult(runs=runs, tuning=tuning, summary=summary, config=config, sizes=sizes)


def _summarise(runs, datasets, specs, chosen, tf) -> pd.DataFrame:
    evals = runs[runs["stage"] == "eval"]
    out = []
    for data in datasets:
        name = dataset_name(data)
        for spec in specs:
            r = evals[(evals["dataset"] == name) & (evals["key"] == spec.key)]
            other = r[r["fold"] != tf]
            updates = r["updates"].dropna()
            out.append(
                {
                    "dataset": name,
                    "algorithm": spec.name,
                    "key": spec.key,
                    "params": json.dumps(chosen[name, spec.key], sort_keys=True),
                    "error": float(r["error"].mean()),
                    "error_std": float(r["error"].std(ddof=1)),
                    "error_other_folds": float(other["error"].mean()),
                    "folds": int(len(r)),
                    "train_time": float(r["train_time"].mean()),
                    "updates": float(updates.mean()) if len(updates) else np.nan,
                    "converged": bool(r["converged"].all()),
                }
            )
    return pd.DataFrame(out)


def config_dict(config: ProtocolConfig) -> dict:
    """The config as JSON-able data (for ``details``)."""
    return {
        **asdict(config),
        "tuning_fold": config.tuning_fold,
        "svm_used": svm_implementation(config.svm),
    }


__all__ = [
    "DataRef",
    "ProtocolConfig",
    "ProtocolResult",
    "run_protocol",
    "evaluate",
    "fold_indices",
    "tuning_fold",
    "fold_seed",
    "inner_split",
    "subsample",
    "param_grid",
    "choose",
    "build_estimator",
    "prepared",
    "config_dict",
]
