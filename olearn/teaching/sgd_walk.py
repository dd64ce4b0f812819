"""SGD-SVM with one global learning rate against one rate per feature (seed 004), on a
synthetic sparse text-like task where a few features are frequent and most are rare."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from olearn.teaching.hypers import algorithm_hyper

LAM_DEFAULT = algorithm_hyper("sgd-svm", "lam").default  # the registry's


def zipf_task(n_samples: int = 600, n_features: int = 200, seed: int = 0, split: int = 0):
    """Binary data whose feature j appears with probability ~ 1/(j+1) (word-like), labelled
    by a sparse true weight vector that uses rare features too.  ``seed`` fixes the task
    (the true weights), ``split`` draws another sample of it (0: training, 1: held out).
    Dense (n, d), y in {-1, +1}.

    >>> X, y = zipf_task(50, seed=3)
    >>> X.shape, sorted(set(y.tolist()))
    ((50, 200), [-1.0, 1.0])
    """
    task = np.random.default_rng(seed)
    p = np.minimum(0.5, 3.0 / (np.arange(n_features) + 1.0))
    w = task.normal(size=n_features) * (task.random(n_features) < 0.3)
    b = -0.5 * float(p @ w)  # centre the classes
    rng = np.random.default_rng([seed, split])
    X = (rng.random((n_samples, n_features)) < p).astype(float)
    y = np.where(X @ w + b > 0, 1.0, -1.0)
    return X, y


@dataclass(frozen=True)
class SGDWalk:
    """curves: (schedule, t, seconds, objective, F-measure on held-out data); rates:
    (schedule, t, feature, rate) for a frequent and a rare feature; final: one row per
    schedule."""

    curves: pd.DataFrame
    rates: pd.DataFrame
    final: pd.DataFrame


def f_measure(w, b, X, y) -> float:
    """F1 of the positive class (+1), as seed 004 reports it.

    >>> f_measure(np.array([1.0]), 0.0, np.array([[1.0], [-1.0]]), np.array([1.0, -1.0]))
    1.0
    """
    pred = np.where(X @ w + b >= 0, 1.0, -1.0)
    tp = np.sum((pred == 1) & (y == 1))
    fp, fn = np.sum((pred == 1) & (y == -1)), np.sum((pred == -1) & (y == 1))
    return float(2 * tp / max(2 * tp + fp + fn, 1))


def sgd_compare(
    lam: float = LAM_DEFAULT,
    epochs: int = 3,
    n_samples: int = 600,
    seed: int = 0,
    features=(0, 150),
    checkpoints: int = 30,
) -> SGDWalk:
    """Train both schedules with the readable step (:func:`olearn.core.sgd_svm.sgd_step`) on
    :func:`zipf_task`; record the objective and the held-out F-measure against the training
    time (evaluation excluded), and the rate two features used at each step.

    >>> walk = sgd_compare(epochs=1, n_samples=100)
    >>> sorted(walk.final["schedule"])
    ['global', 'per-feature']
    """
    import time

    from olearn.core.sgd_svm import sgd_init, sgd_step, svm_objective

    X, y = zipf_task(n_samples, seed=seed)
    Xt, yt = zipf_task(2 * n_samples, seed=seed, split=1)  # the same task, held out
    every = max(1, epochs * n_samples // checkpoints)
    curves, rates, final = [], [], []
    for schedule in ("global", "per-feature"):
        rng = np.random.default_rng(seed)
        state, seconds = sgd_init(X.shape[1]), 0.0
        curves.append(
            {
                "schedule": schedule,
                "t": 0,
                "seconds": 0.0,
                "objective": svm_objective(state.w, state.b, X, y, lam),
                "F-measure": f_measure(state.w, state.b, Xt, yt),
            }
        )
        for _ in range(int(epochs)):
            for i in rng.permutation(n_samples):
                start = time.perf_counter()
                state, st = sgd_step(state, X[i], y[i], lam, "auto", schedule=schedule)
                seconds += time.perf_counter() - start
                for j in features:
                    if st.eta[j] > 0:
                        rates.append(
                            {
                                "schedule": schedule,
                                "t": st.t,
                                "feature": f"x{j}",
                                "rate": float(st.eta[j]),
                            }
                        )
                if state.t % every == 0:
                    curves.append(
                        {
                            "schedule": schedule,
                            "t": state.t,
                            "seconds": seconds,
                            "objective": svm_objective(state.w, state.b, X, y, lam),
                            "F-measure": f_measure(state.w, state.b, Xt, yt),
                        }
                    )
        final.append(
            {
                "schedule": schedule,
                "objective": curves[-1]["objective"],
                "held-out F-measure": curves[-1]["F-measure"],
                "train seconds": seconds,
            }
        )
    return SGDWalk(pd.DataFrame(curves), pd.DataFrame(rates), pd.DataFrame(final))


def sgd_table(walk: SGDWalk, lang: str = "en") -> pd.DataFrame:
    """The final row per schedule, headed and named in ``lang``, numbers as written."""
    from olearn.teaching.strings import num, t

    f = walk.final
    return pd.DataFrame(
        {
            t("sgd.col.schedule", lang): [t(f"sgd.{s}", lang) for s in f["schedule"]],
            t("sgd.col.objective", lang): [num(v) for v in f["objective"]],
            t("sgd.col.f1", lang): [num(v, 3) for v in f["held-out F-measure"]],
            t("sgd.col.seconds", lang): [num(v, 3) for v in f["train seconds"]],
        }
    )
