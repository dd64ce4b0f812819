"""Online learning curves: the cumulative mistake rate as the stream is read.

Each online learner reads the whole (prepared) dataset once, in one seeded order shared by
every learner, predicting each example before learning from it (progressive validation,
``learn_stream``).  The curve at step t is ``mistakes[:t].sum() / t``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from olearn.experiments.baselines import learner as get_learner
from olearn.experiments.engine import Execution
from olearn.experiments.protocol import (
    ProtocolConfig,
    build_estimator,
    dataset_name,
    prepared,
    standardized,
)

STREAM_SALT = 1_000_003  # separates the stream order's seed from the folds' seeds


def stream_order(n: int, seed: int) -> np.ndarray:
    """The seeded permutation every learner reads the stream in.

    Examples
    --------
    >>> sorted(stream_order(5, 0).tolist())
    [0, 1, 2, 3, 4]
    """
    return np.random.default_rng([seed, STREAM_SALT]).permutation(n)


def cumulative_rate(mistakes: np.ndarray) -> np.ndarray:
    """``mistakes.cumsum() / t`` for t = 1..n, in %.

    Examples
    --------
    >>> cumulative_rate(np.array([True, False, True, False])).tolist()
    [100.0, 50.0, 66.66666666666667, 50.0]
    """
    mistakes = np.asarray(mistakes, dtype=float)
    return 100.0 * np.cumsum(mistakes) / np.arange(1, mistakes.size + 1)


def sample_points(n: int, points: int) -> np.ndarray:
    """About ``points`` 1-based steps from 1 to n (always including both ends)."""
    if n < 1:
        raise ValueError("an empty stream has no learning curve")
    return np.unique(np.linspace(1, n, min(points, n)).round().astype(np.int64))


def curve_task(
    *, data, algorithm: str, params: Mapping[str, Any], config: ProtocolConfig, points: int = 200
) -> dict:
    """One learner's learning curve on one dataset (a task for the engine).

    Returns ``{dataset, algorithm, key, params, t, rate, mistakes, n}`` where ``t`` are the
    sampled steps and ``rate`` the cumulative mistake rate (%) there; ``mistakes`` is the
    total over the stream.
    """
    spec = get_learner(algorithm, svm=config.svm)
    if not spec.online:
        raise ValueError(f"{spec.name} is not an online learner: it has no learning curve")
    X, y = prepared(data, config)
    if config.scale == "standard":  # one stream over all the data: the whole data's numbers
        (X,) = standardized(X)
    order = stream_order(len(y), config.seed)
    est = build_estimator(spec, params, config, random_state=config.seed)
    mistakes = est.learn_stream(X[order], y[order], classes=np.unique(y))
    rate = cumulative_rate(mistakes)
    t = sample_points(len(y), points)
    return {
        "dataset": dataset_name(data),
        "algorithm": spec.name,
        "key": spec.key,
        "params": dict(params),
        "t": t.tolist(),
        "rate": rate[t - 1].tolist(),
        "mistakes": int(np.sum(mistakes)),
        "n": int(len(y)),
    }


def learning_curves(
    datasets: Sequence,
    algorithms: Sequence[str],
    config: ProtocolConfig | None = None,
    *,
    params: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
    points: int = 200,
    execution: Execution | None = None,
) -> pd.DataFrame:
    """Learning curves of every online learner on every dataset, as a long table.

    Parameters
    ----------
    datasets : :class:`~olearn.experiments.protocol.DataRef` or Dataset objects.
    algorithms : keys; batch learners are skipped.
    params : ``{(dataset, key): {"C": ...}}``, e.g. the protocol's chosen values
        (default: each learner's defaults).
    execution : jobs, backend, scheduler, progress (default serial, silent).

    Returns
    -------
    DataFrame with columns dataset, algorithm, key, t, rate (cumulative mistakes in %).

    Examples
    --------
    >>> from olearn.datasets.toy import make_toy
    >>> data = make_toy("separable", n_samples=100, n_classes=3, random_state=0)
    >>> curves = learning_curves([data], ["perceptron", "spa"], points=10)
    >>> sorted(curves["algorithm"].unique().tolist())
    ['Perceptron', 'SPA']
    """
    config = config or ProtocolConfig()
    params = params or {}
    specs = [get_learner(a, svm=config.svm) for a in algorithms]
    tasks = [
        {
            "data": data,
            "algorithm": spec.key,
            "config": config,
            "points": points,
            "params": dict(params.get((dataset_name(data), spec.key), {})),
        }
        for data in datasets
        for spec in specs
        if spec.online
    ]
    results = (execution or Execution()).run(
        curve_task, tasks, describe=lambda t: f"curve {dataset_name(t['data'])} {t['algorithm']}"
    )
    rows = [
        {"dataset": r["dataset"], "algorithm": r["algorithm"], "key": r["key"], "t": t, "rate": v}
        for r in results
        for t, v in zip(r["t"], r["rate"])
    ]
    return pd.DataFrame(rows, columns=["dataset", "algorithm", "key", "t", "rate"])
