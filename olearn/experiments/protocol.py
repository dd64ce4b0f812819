"""Seed 000's evaluation protocol: K-fold cross-validation, C tuned on one random fold.

The paper (Matsushima et al., SDM 2010, section 4) says only: "10-fold cross-validation; one of
the folds, chosen at random, tunes the hyper-parameter C; the error rate is the average of the
results".  Everything else is a choice, made here, printed by :meth:`ProtocolConfig.describe`
and exposed as an option:

- **Folds**: ``folds=10``, stratified, shuffled with ``seed`` (scikit-learn ``StratifiedKFold``).
- **Tuning fold**: ``numpy.random.default_rng(seed).integers(folds)``, the same for every
  algorithm and dataset (the paper picks "one of them").
- **How C is chosen** (``tuning``); every mode's numbers are reported side by side:

  - ``"fold"`` (default, what the paper appears to do): the C with the lowest error on the
    tuning fold's test part (trained on its training part); the reported mean over all K
    folds then includes that fold's error at the chosen C, a selection bias of at most 1/K.
    ``error_other_folds`` is the same C's mean over the other K-1 folds, free of it.
  - ``"nested"``: for every outer fold, C is chosen by an inner ``inner_folds``-fold CV of
    that fold's training part alone; the reported mean is over the K outer test parts, none
    of which any tuning has seen.

  ``tuning_fold_spread`` (fold mode) is how much the choice of tuning fold moves the result:
  for each of the K folds as the tuning fold, the mean error at the C it picks; the column is
  max - min of those K means.  It needs every grid point on every fold, which is what
  ``grid_on_every_fold`` buys (default ``"online"``: the online learners, whose fits cost
  milliseconds; the batch baselines are tuned on the tuning fold only, so theirs is NaN).
- **Ties** in a tuning error go to the first grid point (grids are listed smallest C first:
  the most passive / most regularised model).
- **Epochs**: ``epochs=(1, 10)``: every online learner is trained once for the largest number
  of passes and its test error is read after each listed number of passes (the same run:
  epoch 1 of the 10-epoch run *is* the 1-epoch model).  C is chosen separately per epochs.
  The paper states no number of epochs.  Each pass is shuffled with a seed derived from
  ``(seed, fold)``; every algorithm sees the same orders (common random numbers).  The final
  weights are used (no averaging: the paper mentions none).  One pass leaves the learners
  short of converged: measured with this protocol (``reproduce matsushima-table4``), the
  seven online learners make 9.4-18.4 % errors on 20news-8 after one pass against 8.5-13.3 %
  after ten, and 5.5-9.9 % against 3.4-5.0 % on Reuters-20.
- **Scaling**: ``scale="l2"`` divides each row by its Euclidean norm (standard for bag-of-words:
  without it a few very long posts, norm up to 900 against a median of 17, dominate every
  PA/Perceptron step, and hard PA/SPA stay at 17-21 % on 20news-8); ``"none"`` keeps the raw
  counts / pixels the paper describes.  ``"standard"`` centres each column on the training
  part's mean and divides it by the training part's standard deviation (the test part with
  the same numbers, so nothing leaks across folds; sparse data are only divided, as centring
  would fill them): for a lecturer's own measurements, whose mean can lie far from the
  origin, where a model through the origin separates nothing (60 rows of 3 classes around
  (53, 62), ``tests/test_compare_own_data.py``: every online learner at 65 % error raw after
  one pass, with or without an intercept; 0-1.7 % standardised with an intercept, where
  logistic regression with an intercept makes 1.7 %).  The learning curves, one stream over
  all the data, use the whole data's numbers.
- **Intercept**: none, ``fit_intercept=False`` for every learner: the seed's model scores a
  class by ``w_y . x`` alone (no bias in its problem statement), and LIBLINEAR's default is no
  bias.  With unit-norm rows a constant feature 1 would also outweigh every word; measured on
  the three datasets it cost the Perceptron 1-4 points.  ``fit_intercept=True`` restores it.
- **Grids**: online learners use the registry's grid (C in 10^-3 .. 10); the batch baselines
  their own (:mod:`olearn.experiments.baselines`): their C weighs the total loss against the
  regulariser, so it lives on another scale.
- **Threads**: every fit runs with one BLAS/OpenMP thread; parallelism is over tasks.

A task is one fit: (dataset, learner, grid point, outer fold, inner fold or none), a
module-level call with its own seed, run through :class:`olearn.experiments.engine.Execution`,
so serial, joblib and Dask runs give the same table.  It returns one row per listed epochs.
The run has two stages: (1) the tuning evidence (every grid point on the tuning fold, on every
fold where ``grid_on_every_fold`` says so, and the inner folds in nested mode); (2) whatever
fits the chosen C's still need.  A :class:`DataRef` is loaded by name inside each worker
(memoised per process), so Dask workers on other machines need the same data folder
(``$OLEARN_DATA``) or cache.
"""

from __future__ import annotations

import functools
import itertools
import json
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import KFold, StratifiedKFold, train_test_split
from sklearn.utils import check_random_state
from threadpoolctl import threadpool_limits

from olearn.experiments.baselines import learner as get_learner
from olearn.experiments.baselines import svm_implementation
from olearn.experiments.engine import Execution

TUNING_MODES = ("fold", "nested")
SCALINGS = ("none", "l2", "standard")
GRID_ON_EVERY_FOLD = ("none", "online", "all")
OUTER = -1  # the ``inner`` value of a fit on an outer fold's own training / test parts
SCALING_WORDS = {
    "none": "none (raw values)",
    "l2": "rows to unit L2 norm",
    "standard": "columns standardised on each training part (learning curves: on all data)",
}


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


def _epochs_tuple(epochs) -> tuple[int, ...]:
    values = (epochs,) if isinstance(epochs, int | np.integer) else tuple(epochs)
    if not values or any(
        not isinstance(e, int | np.integer) or isinstance(e, bool) or e < 1 for e in values
    ):
        raise ValueError(f"epochs must be positive integers, got {epochs!r}")
    return tuple(sorted({int(e) for e in values}))


@dataclass(frozen=True)
class ProtocolConfig:
    """The protocol's choices (see the module docstring for why each default).

    Parameters
    ----------
    folds : number of cross-validation folds (>= 2).
    seed : seeds the folds, the tuning fold, the subsample and every training shuffle.
    stratified : stratified folds.
    tuning : ``"fold"`` (the paper's) or ``"nested"``.  inner_folds : inner CV of ``"nested"``.
    epochs : an int or several (e.g. ``(1, 10)``): the test error is read after each.
    shuffle : shuffle each pass.  scale : ``"none"`` or ``"l2"`` (row-wise).
    fit_intercept : every learner that can fits a bias (default False: the paper's ``w_y . x``).
    c_grid : replaces the registry's C grid of the online learners (None: keep it).
    batch_c_grid : replaces the baselines' C grid (None: keep it).
    max_samples : stratified seeded subsample of each dataset first (None: all of it).
    svm : ``"auto"``, ``"liblinear"`` or ``"olearn"`` (see
        :func:`olearn.experiments.baselines.svm_implementation`).
    grid_on_every_fold : ``"online"``, ``"all"`` or ``"none"``: which learners are fitted at
        every grid point on every fold (needed for ``tuning_fold_spread``).
    """

    folds: int = 10
    seed: int = 0
    stratified: bool = True
    tuning: str = "fold"
    inner_folds: int = 3
    epochs: int | tuple[int, ...] = (1, 10)
    shuffle: bool = True
    scale: str = "l2"
    fit_intercept: bool = False
    c_grid: tuple | None = None
    batch_c_grid: tuple | None = None
    max_samples: int | None = None
    svm: str = "auto"
    grid_on_every_fold: str = "online"

    def __post_init__(self):
        if not isinstance(self.folds, int | np.integer) or self.folds < 2:
            raise ValueError(f"folds must be an integer >= 2, got {self.folds!r}")
        if not isinstance(self.inner_folds, int | np.integer) or self.inner_folds < 2:
            raise ValueError(f"inner_folds must be an integer >= 2, got {self.inner_folds!r}")
        object.__setattr__(self, "epochs", _epochs_tuple(self.epochs))
        if self.tuning not in TUNING_MODES:
            raise ValueError(f"tuning must be one of {TUNING_MODES}, got {self.tuning!r}")
        if self.scale not in SCALINGS:
            raise ValueError(f"scale must be one of {SCALINGS}, got {self.scale!r}")
        if self.grid_on_every_fold not in GRID_ON_EVERY_FOLD:
            raise ValueError(
                f"grid_on_every_fold must be one of {GRID_ON_EVERY_FOLD}, "
                f"got {self.grid_on_every_fold!r}"
            )
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

    @property
    def max_epochs(self) -> int:
        """The passes each online fit makes (the largest listed epochs)."""
        return self.epochs[-1]

    def describe(self) -> str:
        """The choices, as printed above every reproduction's table."""
        tune = (
            f"C chosen on fold {self.tuning_fold}'s own test part (as the paper appears to do); "
            "'ours' = mean over all folds at that C, 'ours_other_folds' = mean without fold "
            f"{self.tuning_fold}"
            if self.tuning == "fold"
            else f"C chosen per outer fold by an inner {self.inner_folds}-fold CV of its "
            "training part (nested); 'ours' = mean over the outer folds, "
            f"'ours_other_folds' = the paper's choice (fold {self.tuning_fold}) without that fold"
        )
        sub = "all samples" if self.max_samples is None else f"{self.max_samples} samples"
        lines = [
            f"Protocol: {self.folds}-fold {'stratified ' if self.stratified else ''}CV "
            f"(seed {self.seed}), {sub}; {tune}.",
            f"Online learners: test error read after {', '.join(map(str, self.epochs))} "
            f"epoch(s) of one run, {'shuffled' if self.shuffle else 'in file order'} (same "
            "order for every algorithm), final weights; intercept "
            f"{'on' if self.fit_intercept else 'off'} (all learners); scaling: "
            f"{SCALING_WORDS[self.scale]}; "
            "one BLAS thread per fit.",
            f"C grids: online {list(self.c_grid) if self.c_grid else 'registry default'}, "
            f"batch {list(self.batch_c_grid) if self.batch_c_grid else 'baseline default'}; "
            f"ties -> smaller C; every grid point on every fold for: {self.grid_on_every_fold} "
            f"learners. SVM: {svm_implementation(self.svm)}.",
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


def fold_seed(seed: int, fold: int, inner: int = OUTER) -> int:
    """The training-shuffle seed of one (outer fold, inner fold) (independent of algorithm
    and C)."""
    key = [seed, fold] if inner == OUTER else [seed, fold, inner + 1]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


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


def split(y: np.ndarray, config: ProtocolConfig, fold: int, inner: int = OUTER):
    """``(train, test)`` positions of one fit: outer fold ``fold``'s training and test parts,
    or (``inner >= 0``) inner fold ``inner`` of that training part, which never contains a
    position of the outer test part.  Inner folds are stratified when every class allows it.

    Examples
    --------
    >>> y = np.repeat([0, 1], 30)
    >>> config = ProtocolConfig(folds=3, inner_folds=2)
    >>> train, test = split(y, config, fold=0)
    >>> inner_train, inner_test = split(y, config, fold=0, inner=1)
    >>> set(inner_train) | set(inner_test) == set(train)
    True
    """
    train, test = fold_indices(y, config.folds, config.seed, config.stratified)[fold]
    if inner == OUTER:
        return train, test
    seed = fold_seed(config.seed, fold)
    try:
        parts = fold_indices(y[train], config.inner_folds, seed, config.stratified)
    except ValueError:  # a class too small to stratify the inner folds
        parts = fold_indices(y[train], config.inner_folds, seed, stratified=False)
    inner_train, inner_test = parts[inner]
    return train[inner_train], train[inner_test]


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
    if scale in ("none", "standard"):  # "standard": per fold, from its training part
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


def standardized(X_fit, *others):
    """``X_fit`` and ``others`` with every column centred on ``X_fit``'s mean and divided by
    its standard deviation (a constant column by 1); sparse matrices are only divided
    (centring would fill them).

    Examples
    --------
    >>> X = np.array([[50.0, 1.0], [52.0, 1.0], [54.0, 1.0]])
    >>> train, test = standardized(X, np.array([[56.0, 2.0]]))
    >>> train[:, 0].round(3).tolist(), train[:, 1].tolist(), test.round(3).tolist()
    ([-1.225, 0.0, 1.225], [0.0, 0.0, 0.0], [[2.449, 1.0]])
    """
    if sp.issparse(X_fit):
        mean = np.asarray(X_fit.mean(axis=0)).ravel()
        square = np.asarray(X_fit.multiply(X_fit).mean(axis=0)).ravel()
        std = np.sqrt(np.maximum(square - mean**2, 0.0))
        scale = sp.diags(1.0 / np.where(std > 0, std, 1.0))
        return (sp.csr_matrix(X_fit @ scale), *(sp.csr_matrix(X @ scale) for X in others))
    mean, std = X_fit.mean(axis=0), X_fit.std(axis=0)
    std = np.where(std > 0, std, 1.0)
    return ((X_fit - mean) / std, *((X - mean) / std for X in others))


def prepared(data, config: ProtocolConfig):
    """``(X, y)`` of a :class:`DataRef` or a Dataset after subsampling and scaling."""
    if isinstance(data, DataRef):
        return _prepared_cached(data, config.scale, config.max_samples, config.seed)
    return _prepare(data, config.scale, config.max_samples, config.seed)


def dataset_name(data) -> str:
    return data.name


# --- one fit ---------------------------------------------------------------------------------
def build_estimator(spec, params: Mapping[str, Any], config: ProtocolConfig, random_state: int):
    """``spec.make(**params)`` with the protocol's epochs (the largest listed) / shuffle / seed /
    intercept where accepted."""
    est = spec.make(**params)
    accepted = est.get_params()
    extra: dict[str, Any] = {}
    if "random_state" in accepted:
        extra["random_state"] = random_state
    if "fit_intercept" in accepted:
        extra["fit_intercept"] = config.fit_intercept
    if spec.online:
        for key, value in (("epochs", config.max_epochs), ("shuffle", config.shuffle)):
            if key in accepted:
                extra[key] = value
    return est.set_params(**extra)


def fit_checkpoints(est, X, y, epochs: Sequence[int], online: bool) -> Iterator[int]:
    """Fit ``est`` and yield after each number of passes in ``epochs`` (sorted).

    For an online learner the model after ``e`` passes is exactly ``est.fit`` with
    ``epochs=e``: the passes are ``partial_fit`` calls over the rows in the order ``fit``
    would draw (``check_random_state(random_state).permutation(n)`` per pass, or file order
    when not shuffling), so one run gives every listed epochs.  A batch learner is fitted once
    and the same model is yielded for every value.
    """
    if not online:
        est.fit(X, y)
        yield from epochs
        return
    if len(epochs) == 1 and est.get_params().get("epochs") == epochs[0]:
        est.fit(X, y)  # one checkpoint: fit itself
        yield epochs[0]
        return
    params = est.get_params()
    rng = check_random_state(params.get("random_state")) if params.get("shuffle", True) else None
    classes, n, done = np.unique(y), len(y), 0
    for stop in epochs:
        for _ in range(stop - done):
            order = rng.permutation(n) if rng is not None else np.arange(n)
            est.partial_fit(X[order], y[order], classes=classes)
        done = stop
        yield stop


def evaluate(
    *,
    data,
    algorithm: str,
    params: dict,
    fold: int,
    config: ProtocolConfig,
    inner: int = OUTER,
    grid_index: int = 0,
) -> list[dict]:
    """Train one learner on one split and measure its test error after each listed epochs
    (a task).  ``inner = -1``: outer fold ``fold``; ``inner >= 0``: inner fold ``inner`` of
    its training part (nested tuning).

    Returns one tidy row per epochs: dataset, algorithm, key, params, grid_index, fold, inner,
    epochs, error (%), n_train, n_test, train_time (s, cumulative up to that epochs), updates
    (aggressive steps of an online learner, else None), converged (False when the solver warned
    that it stopped at its iteration cap).
    """
    spec = get_learner(algorithm, svm=config.svm)
    X, y = prepared(data, config)
    train, test = split(y, config, fold, inner)
    est = build_estimator(spec, params, config, fold_seed(config.seed, fold, inner))
    X_train, y_train, X_test, y_test = X[train], y[train], X[test], y[test]
    if config.scale == "standard":
        X_train, X_test = standardized(X_train, X_test)
    rows, train_time = [], 0.0
    # One BLAS/OpenMP thread per fit: parallelism comes from running tasks side by side, and
    # on a shared, loaded machine multi-threaded solvers spin (13x slower measured here).
    with threadpool_limits(limits=1), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        start = time.perf_counter()
        for epochs in fit_checkpoints(est, X_train, y_train, config.epochs, spec.online):
            train_time += time.perf_counter() - start
            error = float(np.mean(est.predict(X_test) != y_test)) * 100.0
            updates = getattr(est, "n_updates_", None)
            rows.append(
                {
                    "dataset": dataset_name(data),
                    "algorithm": spec.name,
                    "key": spec.key,
                    "params": json.dumps(dict(params), sort_keys=True),
                    "grid_index": int(grid_index),
                    "fold": int(fold),
                    "inner": int(inner),
                    "epochs": int(epochs),
                    "error": error,
                    "n_train": int(len(train)),
                    "n_test": int(len(test)),
                    "train_time": train_time,
                    "updates": None if updates is None else int(updates),
                }
            )
            start = time.perf_counter()
    converged = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
    return [{**row, "converged": converged} for row in rows]


# --- the grid and the choice of C --------------------------------------------------------------
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


def choose(rows: Sequence[dict]) -> dict:
    """The tuning row with the lowest error; ties go to the first (grid order)."""
    if not rows:
        raise ValueError("no tuning rows to choose from")
    return min(enumerate(rows), key=lambda pair: (pair[1]["error"], pair[0]))[1]


def _argmin_grid(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Per group of ``by``: the grid_index of the lowest error (ties -> lowest grid_index)."""
    ordered = frame.sort_values([*by, "error", "grid_index"], kind="stable")
    return ordered.drop_duplicates(by)[[*by, "grid_index"]].reset_index(drop=True)


def paper_choice(runs: pd.DataFrame, fold: int) -> pd.DataFrame:
    """The paper's choice: per (dataset, key, epochs) the grid_index with the lowest error on
    outer fold ``fold``'s test part."""
    rows = runs[(runs["inner"] == OUTER) & (runs["fold"] == fold)]
    return _argmin_grid(rows, ["dataset", "key", "epochs"])


def nested_choice(runs: pd.DataFrame) -> pd.DataFrame:
    """Nested choice: per (dataset, key, epochs, fold) the grid_index with the lowest mean
    error over that fold's inner folds (no rows for learners with nothing to tune)."""
    rows = runs[runs["inner"] != OUTER]
    by = ["dataset", "key", "epochs", "fold"]
    means = rows.groupby([*by, "grid_index"], as_index=False)["error"].mean()
    return _argmin_grid(means, by)


def tuning_fold_spread(outer: pd.DataFrame, folds: int) -> float:
    """Max - min over the K choices of tuning fold of the all-fold mean error at the C that
    fold picks; NaN unless ``outer`` (one learner, one epochs) has every grid point on every
    fold.

    Examples
    --------
    >>> rows = pd.DataFrame({"fold": [0, 0, 1, 1], "grid_index": [0, 1, 0, 1],
    ...                      "error": [1.0, 2.0, 5.0, 3.0]})
    >>> tuning_fold_spread(rows, 2)  # fold 0 picks C0 (mean 3.0), fold 1 picks C1 (2.5)
    0.5
    """
    table = outer.pivot_table(index="fold", columns="grid_index", values="error")
    if table.shape[0] < folds or table.isna().any().any():
        return float("nan")
    picks = table.to_numpy().argmin(axis=1)  # argmin: first grid point on ties
    means = table.to_numpy().mean(axis=0)[picks]
    return float(means.max() - means.min())


# --- the whole protocol ----------------------------------------------------------------------
@dataclass
class ProtocolResult:
    """What :func:`run_protocol` returns.

    Attributes
    ----------
    runs : tidy table, one row per (fit, epochs); ``inner = -1`` for outer folds.
    tuning : the tuning fold's outer rows of every tuned learner with a ``chosen`` flag.
    summary : one row per (dataset, algorithm, epochs): chosen params (paper's choice), error
        (mean over the outer folds under ``config.tuning``), error_std, error_other_folds,
        error_paper (the paper-style mean), error_nested (NaN unless nested),
        tuning_fold_spread, mean train time and updates, converged.
    fold_errors : one row per (dataset, algorithm, epochs, fold): the error under
        ``config.tuning`` (the input of the paired tests).
    config : the :class:`ProtocolConfig`.
    sizes : per dataset ``{n_samples, n_features, n_classes}`` as used.
    """

    runs: pd.DataFrame
    tuning: pd.DataFrame
    summary: pd.DataFrame
    fold_errors: pd.DataFrame
    config: ProtocolConfig
    sizes: dict = field(default_factory=dict)


@dataclass(frozen=True)
class _Plan:
    """What one run covers: datasets, learner specs and each learner's grid."""

    datasets: tuple
    specs: tuple
    grids: dict
    config: ProtocolConfig

    def every_fold(self, spec) -> bool:
        """Whether this learner is fitted at every grid point on every fold."""
        wanted = self.config.grid_on_every_fold
        return (
            len(self.grids[spec.key]) == 1
            or wanted == "all"
            or (wanted == "online" and spec.online)
        )

    def task(self, data, spec, grid_index: int, fold: int, inner: int = OUTER) -> dict:
        return {
            "data": data,
            "algorithm": spec.key,
            "params": self.grids[spec.key][grid_index],
            "grid_index": grid_index,
            "fold": fold,
            "inner": inner,
            "config": self.config,
        }


def _dataset_sizes(datasets: Sequence, config: ProtocolConfig) -> dict:
    """Load every dataset first (a missing one fails before any work) and validate folds."""
    sizes = {}
    for data in datasets:
        X, y = prepared(data, config)
        fold_indices(y, config.folds, config.seed, config.stratified)  # validates
        sizes[dataset_name(data)] = {
            "n_samples": int(X.shape[0]),
            "n_features": int(X.shape[1]),
            "n_classes": int(len(np.unique(y))),
        }
    return sizes


def _tuning_tasks(plan: _Plan) -> list[dict]:
    """Stage 1: the grid on the tuning fold (on every fold where wanted), inner folds if
    nested."""
    config, tasks = plan.config, []
    for data, spec in itertools.product(plan.datasets, plan.specs):
        grid = plan.grids[spec.key]
        folds = range(config.folds) if plan.every_fold(spec) else [config.tuning_fold]
        tasks += [plan.task(data, spec, g, f) for f in folds for g in range(len(grid))]
        if config.tuning == "nested" and len(grid) > 1:
            tasks += [
                plan.task(data, spec, g, f, inner)
                for f in range(config.folds)
                for inner in range(config.inner_folds)
                for g in range(len(grid))
            ]
    return tasks


def _choices(runs: pd.DataFrame, config: ProtocolConfig) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(paper, nested)`` choice tables (nested empty unless ``tuning="nested"``)."""
    paper = paper_choice(runs, config.tuning_fold)
    nested = nested_choice(runs) if config.tuning == "nested" else pd.DataFrame()
    return paper, nested


def _needed(plan: _Plan, paper: pd.DataFrame, nested: pd.DataFrame) -> set[tuple]:
    """(dataset, key, grid_index, fold) of every outer fit a chosen C needs."""
    folds = range(plan.config.folds)
    needed = {(r.dataset, r.key, r.grid_index, f) for r in paper.itertuples() for f in folds}
    for r in nested.itertuples():
        needed.add((r.dataset, r.key, r.grid_index, r.fold))
    return needed


def _completion_tasks(plan: _Plan, runs: pd.DataFrame, needed: set[tuple]) -> list[dict]:
    """Stage 2: the outer fits the choices need and stage 1 did not make."""
    outer = runs[runs["inner"] == OUTER]
    done = set(zip(outer["dataset"], outer["key"], outer["grid_index"], outer["fold"]))
    by_name = {dataset_name(d): d for d in plan.datasets}
    by_key = {s.key: s for s in plan.specs}
    return [
        plan.task(by_name[name], by_key[key], g, f) for name, key, g, f in sorted(needed - done)
    ]


def _stage2_estimate(plan: _Plan) -> int:
    """An upper bound on stage 2's size, for the progress bar before stage 1 ends."""
    count = 0
    for spec in plan.specs:
        if plan.every_fold(spec):
            continue
        per = plan.config.folds - 1 if plan.config.tuning == "fold" else plan.config.folds
        count += len(plan.datasets) * per
    return count


def _describe(task: Mapping[str, Any]) -> str:
    where = f"fold {task['fold']}" + (f" inner {task['inner']}" if task["inner"] >= 0 else "")
    return f"{dataset_name(task['data'])} {task['algorithm']} {task['params']} {where}"


def _flatten(results: list[list[dict]]) -> list[dict]:
    return [row for rows in results for row in rows]


def run_protocol(
    datasets: Sequence,
    algorithms: Sequence[str],
    config: ProtocolConfig | None = None,
    execution: Execution | None = None,
) -> ProtocolResult:
    """Run the seed 000 protocol for every (dataset, algorithm).

    Parameters
    ----------
    datasets : :class:`DataRef` (loaded by name in each worker) or Dataset objects.
    algorithms : registry keys / names, ``"maxent"``, ``"svm"``.
    config : the protocol's choices (default :class:`ProtocolConfig`).
    execution : jobs, backend, scheduler, progress
        (:class:`olearn.experiments.engine.Execution`; default serial, silent).

    Examples
    --------
    >>> from olearn.datasets.toy import make_toy
    >>> data = make_toy("blobs", n_samples=120, n_classes=3, random_state=0)
    >>> res = run_protocol([data], ["perceptron", "spa1"],
    ...                    ProtocolConfig(folds=3, epochs=(1, 2), c_grid=(0.1, 1.0)))
    >>> res.summary[["algorithm", "epochs", "params"]].values.tolist()[:2]
    [['Perceptron', 1, '{}'], ['Perceptron', 2, '{}']]
    """
    config = config or ProtocolConfig()
    execution = execution or Execution()
    specs = tuple(get_learner(a, svm=config.svm) for a in algorithms)
    if not datasets or not specs:
        raise ValueError("run_protocol needs at least one dataset and one algorithm")
    sizes = _dataset_sizes(datasets, config)
    grids = {spec.key: param_grid(spec, config) for spec in specs}
    plan = _Plan(tuple(datasets), specs, grids, config)

    stage1 = _tuning_tasks(plan)
    estimate = len(stage1) + _stage2_estimate(plan)
    rows = _flatten(execution.run(evaluate, stage1, describe=_describe, total=estimate))
    runs = pd.DataFrame(rows)
    paper, nested = _choices(runs, config)
    stage2 = _completion_tasks(plan, runs, _needed(plan, paper, nested))
    total = len(stage1) + len(stage2)
    rows += _flatten(
        execution.run(evaluate, stage2, describe=_describe, offset=len(stage1), total=total)
    )
    runs = pd.DataFrame(rows).sort_values(
        ["dataset", "algorithm", "epochs", "inner", "grid_index", "fold"], kind="stable"
    )
    runs = runs.reset_index(drop=True)
    fold_errors = _fold_errors(runs, plan, paper, nested)
    summary = _summarise(runs, plan, paper, fold_errors)
    tuning = _tuning_rows(runs, plan, paper)
    return ProtocolResult(runs, tuning, summary, fold_errors, config, sizes)


def _chosen_rows(outer: pd.DataFrame, grid_index: int) -> pd.DataFrame:
    return outer[outer["grid_index"] == grid_index].sort_values("fold")


def _fold_errors(runs, plan: _Plan, paper, nested) -> pd.DataFrame:
    """Per (dataset, key, epochs, fold): the error at the C the config's tuning mode chose."""
    outer = runs[runs["inner"] == OUTER]
    nested_pick = {(r.dataset, r.key, r.epochs, r.fold): r.grid_index for r in nested.itertuples()}
    out = []
    for r in paper.itertuples():
        mine = outer[(outer["dataset"] == r.dataset) & (outer["key"] == r.key)]
        mine = mine[mine["epochs"] == r.epochs]
        for fold in range(plan.config.folds):
            pick = r.grid_index
            if plan.config.tuning == "nested":
                pick = nested_pick.get((r.dataset, r.key, r.epochs, fold), 0)
            row = mine[(mine["fold"] == fold) & (mine["grid_index"] == pick)].iloc[0]
            out.append(
                {
                    "dataset": r.dataset,
                    "algorithm": row["algorithm"],
                    "key": r.key,
                    "epochs": int(r.epochs),
                    "fold": fold,
                    "params": row["params"],
                    "error": float(row["error"]),
                }
            )
    return pd.DataFrame(out)


def _summarise(runs, plan: _Plan, paper, fold_errors) -> pd.DataFrame:
    """One row per (dataset, algorithm, epochs), in the order of the datasets and learners."""
    config, outer = plan.config, runs[runs["inner"] == OUTER]
    picks = {(r.dataset, r.key, r.epochs): r.grid_index for r in paper.itertuples()}
    out = []
    for data, spec, epochs in itertools.product(plan.datasets, plan.specs, config.epochs):
        name = dataset_name(data)
        mine = outer[(outer["dataset"] == name) & (outer["key"] == spec.key)]
        mine = mine[mine["epochs"] == epochs]
        chosen = _chosen_rows(mine, picks[name, spec.key, epochs])
        other = chosen[chosen["fold"] != config.tuning_fold]
        folds = fold_errors[
            (fold_errors["dataset"] == name)
            & (fold_errors["key"] == spec.key)
            & (fold_errors["epochs"] == epochs)
        ]
        nested = config.tuning == "nested"
        updates = chosen["updates"].dropna()
        out.append(
            {
                "dataset": name,
                "algorithm": spec.name,
                "key": spec.key,
                "epochs": int(epochs),
                "params": chosen["params"].iloc[0],
                "error": float(folds["error"].mean()),
                "error_std": float(folds["error"].std(ddof=1)),
                "error_other_folds": float(other["error"].mean()),
                "error_paper": float(chosen["error"].mean()),
                "error_nested": float(folds["error"].mean()) if nested else np.nan,
                "tuning_fold_spread": tuning_fold_spread(mine, config.folds),
                "folds": int(len(folds)),
                "train_time": float(chosen["train_time"].mean()),
                "updates": float(updates.mean()) if len(updates) else np.nan,
                "converged": bool(chosen["converged"].all()),
            }
        )
    return pd.DataFrame(out)


def _tuning_rows(runs, plan: _Plan, paper) -> pd.DataFrame:
    """The tuning fold's outer rows of the tuned learners, with the paper's choice flagged."""
    tuned = [s.key for s in plan.specs if len(plan.grids[s.key]) > 1]
    rows = runs[
        (runs["inner"] == OUTER)
        & (runs["fold"] == plan.config.tuning_fold)
        & runs["key"].isin(tuned)
    ].copy()
    picks = {(r.dataset, r.key, r.epochs): r.grid_index for r in paper.itertuples()}
    rows["chosen"] = [
        picks.get((d, k, e)) == g
        for d, k, e, g in zip(rows["dataset"], rows["key"], rows["epochs"], rows["grid_index"])
    ]
    return rows.reset_index(drop=True)


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
    "fit_checkpoints",
    "fold_indices",
    "split",
    "tuning_fold",
    "fold_seed",
    "subsample",
    "param_grid",
    "choose",
    "paper_choice",
    "nested_choice",
    "tuning_fold_spread",
    "build_estimator",
    "prepared",
    "config_dict",
]
