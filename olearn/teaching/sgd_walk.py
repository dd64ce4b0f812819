"""SGD-SVM with one global learning rate against one rate per feature (seed 004), on a
synthetic sparse text-like task where a few features are frequent and most are rare."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from olearn.core.sgd_svm import sgd_svm_run


def zipf_task(n_samples: int = 600, n_features: int = 200, seed: int = 0):
    """Binary data whose feature j appears with probability ~ 1/(j+1) (word-like), labels from
    a sparse true weight vector that uses rare features too.  Dense (n, d), y in {-1, +1}."""
    rng = np.random.default_rng(seed)
    p = np.minimum(0.5, 3.0 / (np.arange(n_features) + 1.0))
    X = (rng.random((n_samples, n_features)) < p).astype(float)
    w = rng.normal(size=n_features) * (rng.random(n_features) < 0.3)
    score = X @ w
    y = np.where(score > np.median(score), 1.0, -1.0)
    return X, y


@dataclass(frozen=True)
class SGDWalk:
    """curves: (schedule, t, objective, F-measure); rates: (schedule, t, feature, rate) for a
    frequent and a rare feature; final: one row per schedule."""

    curves: pd.DataFrame
    rates: pd.DataFrame
    final: pd.DataFrame


def _f1(w, b, X, y) -> float:
    pred = np.where(X @ w + b >= 0, 1.0, -1.0)
    tp = np.sum((pred == 1) & (y == 1))
    fp, fn = np.sum((pred == 1) & (y == -1)), np.sum((pred == -1) & (y == 1))
    return float(2 * tp / max(2 * tp + fp + fn, 1))


def sgd_compare(lam: float = 1e-3, epochs: int = 3, n_samples: int = 600, seed: int = 0,
                features=(0, 150)) -> SGDWalk:
    """Train both schedules (the readable rule) on :func:`zipf_task`, record the objective,
    the training F-measure and, for two features, the rate each step used.

    >>> walk = sgd_compare(epochs=1, n_samples=100)
    >>> sorted(walk.final["schedule"])
    ['global', 'per-feature']
    """
    X, y = zipf_task(n_samples, seed=seed)
    curves, rates, final = [], [], []
    for schedule in ("global", "per-feature"):
        run = sgd_svm_run(X, y, lam=lam, schedule=schedule, epochs=epochs, random_state=seed,
                          record_every=max(1, n_samples // 20), trace_steps=epochs * n_samples)
        for t, obj in run.curve:
            curves.append({"schedule": schedule, "t": t, "objective": obj})
        for st in run.steps:
            for j in features:
                if st.eta[j] > 0:
                    rates.append({"schedule": schedule, "t": st.t, "feature": f"x{j}",
                                  "rate": float(st.eta[j])})
        final.append({"schedule": schedule, "objective": run.curve[-1][1],
                      "train F-measure": _f1(run.state.w, run.state.b, X, y)})
    return SGDWalk(pd.DataFrame(curves), pd.DataFrame(rates), pd.DataFrame(final))
