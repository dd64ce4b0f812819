"""PCVM's EM on 2-D data, iteration by iteration (gamma, the weights left, the boundary), and
the lambda sweep of seed 002 on the same data."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from olearn.core._pcvm_basis import basis
from olearn.core.pcvm import PCVMConfig, pcvm_fit
from olearn.teaching.hypers import algorithm_hyper

LAM = algorithm_hyper("pcvm", "lam")  # the registry's lambda: default, range, grid
# the sweep: every decade from the range's low end up to the grid, then the grid
LAMBDAS = (
    *(LAM.low * 10.0**k for k in range(8) if LAM.low * 10.0**k < min(LAM.grid)),
    *LAM.grid,
)


@dataclass(frozen=True)
class PCVMWalk:
    """X, t (+-1), kernel width theta, per-iteration table, and (w, b) after each iteration."""

    X: np.ndarray
    t: np.ndarray
    theta: float
    history: pd.DataFrame
    w: np.ndarray  # (iterations, N)
    b: np.ndarray  # (iterations,)

    def play_order(self, dense: int = 10, strides: int = 12) -> list[int]:
        """The iterations (0-based) an animation shows: the first ``dense`` one by one (where
        gamma and the weights move), then ``strides`` steps evenly spaced on a log scale.

        >>> PCVMWalk(None, None, 1.0, None, np.zeros((100, 1)), np.zeros(100)).play_order()[-4:]
        [52, 65, 80, 99]
        """
        n = len(self.w)
        late = np.geomspace(dense, n, strides).round().astype(int) - 1 if n > dense else []
        return sorted({*range(min(dense, n)), *(int(i) for i in late)})

    def decision(self, i: int, Z: np.ndarray) -> np.ndarray:
        """``y(z) = sum_j w_j k(z, x_j) + b`` after iteration ``i`` (0-based)."""
        return basis(Z, self.X, "rbf", self.theta) @ self.w[i] + self.b[i]


def _data(kind: str, n_samples: int, noise: float, seed: int):
    from olearn.datasets.toy import make_toy

    if kind not in ("moons", "xor", "blobs", "separable"):
        raise ValueError(f"kind must be moons, xor, blobs or separable, got {kind!r}")
    ds = make_toy(kind, n_samples=n_samples, n_classes=2, noise=noise, random_state=seed)
    return np.asarray(ds.X, float), np.where(np.asarray(ds.y) == 1, 1.0, -1.0)


def pcvm_walk(
    kind: str = "moons",
    n_samples: int = 80,
    lam: float | None = LAM.default,
    theta: float = 0.7,
    noise: float = 0.05,
    seed: int = 0,
) -> PCVMWalk:
    """Fit with the EM and keep every iteration (``lam=None``: gamma fixed at 1, Chen's PCVM).

    >>> w = pcvm_walk(n_samples=40)
    >>> int(w.history["non-zero weights"].iloc[-1]) < 40
    True
    """
    X, t = _data(kind, n_samples, noise, seed)
    state, hist, n_iter = pcvm_fit(
        basis(X, X, "rbf", theta),
        t,
        PCVMConfig(lam=lam),
        random_state=seed,
        trace=True,
        max_iter=200,
    )
    history = pd.DataFrame(
        [
            {
                "iteration": h.iteration,
                "gamma": h.gamma,
                "non-zero weights": h.n_nonzero,
                "objective": h.objective,
                "train error %": 100 * h.train_error,
            }
            for h in hist
        ]
    )
    return PCVMWalk(
        X, t, float(theta), history, np.array([h.w for h in hist]), np.array([h.b for h in hist])
    )


def lambda_sweep(
    kind: str = "moons",
    n_samples: int = 80,
    theta: float = 0.7,
    noise: float = 0.05,
    seed: int = 0,
    lambdas=LAMBDAS,
):
    """Final gamma, weights left and accuracy against lambda (and gamma = 1), on held-out
    points from the same generator (seed + 1).

    >>> tab = lambda_sweep(n_samples=30, lambdas=(100.0,))
    >>> tab["lambda"].tolist()
    ['100', 'gamma = 1']
    """
    X, t = _data(kind, n_samples, noise, seed)
    Xt, tt = _data(kind, 400, noise, seed + 1)
    Phi, Phi_test = basis(X, X, "rbf", theta), basis(Xt, X, "rbf", theta)
    rows = []
    for lam in (*lambdas, None):
        state, _, n_iter = pcvm_fit(Phi, t, PCVMConfig(lam=lam), random_state=seed, max_iter=300)
        pred = np.where(Phi_test @ state.w + state.b >= 0, 1.0, -1.0)
        rows.append(
            {
                "lambda": "gamma = 1" if lam is None else f"{lam:g}",
                "gamma": state.gamma,
                "non-zero weights": int(np.sum(state.w != 0)),
                "test accuracy %": 100 * float(np.mean(pred == tt)),
                "iterations": n_iter,
            }
        )
    return pd.DataFrame(rows)


def sweep_table(sweep: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """:func:`lambda_sweep`'s table headed in ``lang``, numbers as a lecturer writes them."""
    from olearn.teaching.strings import num, t

    return pd.DataFrame(
        {
            t("pcvm.col.lambda", lang): [
                t("pcvm.gamma_one", lang) if v == "gamma = 1" else v for v in sweep["lambda"]
            ],
            t("pcvm.col.gamma", lang): [num(v, 4) for v in sweep["gamma"]],
            t("pcvm.col.nonzero", lang): sweep["non-zero weights"].tolist(),
            t("pcvm.col.accuracy", lang): [num(v, 4) for v in sweep["test accuracy %"]],
            t("pcvm.col.iterations", lang): sweep["iterations"].tolist(),
        }
    )
