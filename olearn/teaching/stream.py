"""A whole online run on a 2-D stream, kept as snapshots so a page can rewind to any t.

:func:`run_stream` feeds the same stream (a toy of :func:`olearn.datasets.toy.make_toy`, or
points a user placed) to up to four online learners of the registry, through their readable
rules in :mod:`olearn.core`, and keeps after every step: the weights (one row per class, the
last column the bias when ``bias``), whether the prediction made *before* the step was wrong
(progressive validation), and for the confidence-weighted family the covariance.
:func:`instance_at` turns "learner a at time t" into the SPA page's instance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from olearn import registry
from olearn.teaching.instances import Instance

MAX_ALGORITHMS = 4
MAX_POINTS = 2000


@dataclass(frozen=True)
class StreamRun:
    """Snapshots of up to four learners on one stream.

    Attributes
    ----------
    X : (n, 2) the stream, in order;  y : (n,) class indices;  K : number of classes.
    bias : the learners saw ``(x1, x2, 1)``.
    keys, names : the registry keys and display names of the learners.
    W : key -> (n + 1, K, d) weights (means for CW-type learners) after t steps, t = 0..n.
    Sigma : key -> (n + 1, d, d) covariance after t steps (CW family), or None.
    mistakes : key -> (n,) bool, mistake on example t before learning from it.
    C : the C given to the learners that have one.
    """

    X: np.ndarray
    y: np.ndarray
    K: int
    bias: bool
    keys: tuple[str, ...]
    names: tuple[str, ...]
    W: dict
    Sigma: dict
    mistakes: dict
    C: float

    @property
    def n(self) -> int:
        return int(self.X.shape[0])

    def features(self, i: int) -> np.ndarray:
        """The feature vector learners saw for example ``i``."""
        x = self.X[i]
        return np.append(x, 1.0) if self.bias else x.copy()

    def mistake_counts(self, t: int) -> dict:
        """Mistakes made on the first ``t`` examples, per learner."""
        return {k: int(self.mistakes[k][:t].sum()) for k in self.keys}


def stream_data(
    kind: str = "blobs",
    n_samples: int = 200,
    n_classes: int = 3,
    noise: float = 0.0,
    margin: float = 0.5,
    seed: int = 0,
    points: tuple | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The stream: a toy dataset, or ``points`` = ((x1, x2, class), ...) placed by a user.

    >>> X, y = stream_data(points=((0.0, 1.0, 0), (1.0, 0.0, 1)))
    >>> X.shape, y.tolist()
    ((2, 2), [0, 1])
    """
    if points is not None:
        P = np.asarray(points, dtype=float).reshape(-1, 3)
        if P.shape[0] < 2:
            raise ValueError("place at least two points")
        if P.shape[0] > MAX_POINTS:
            raise ValueError(f"at most {MAX_POINTS} points")
        if not np.all(np.isfinite(P)):
            raise ValueError("every point needs finite x1, x2 and a class")
        labels = P[:, 2]
        if np.any(labels < 0) or np.any(labels != np.round(labels)) or labels.max() > 11:
            raise ValueError("classes must be whole numbers 0..11")
        _, y = np.unique(labels.astype(int), return_inverse=True)
        if y.max() < 1:
            raise ValueError("the points need at least two different classes")
        return P[:, :2].copy(), y.astype(np.int64)
    from olearn.datasets.toy import make_toy

    ds = make_toy(
        kind,
        n_samples=n_samples,
        n_classes=n_classes,
        noise=noise,
        margin=margin,
        random_state=seed,
    )
    return np.asarray(ds.X, dtype=float), np.asarray(ds.y, dtype=np.int64)


def _learner(key: str, C: float):
    """(init(d, K) -> state, step(state, x, y) -> (state, trace), weights(state), cov(state))."""
    spec = registry.get(key)
    if spec.family not in ("pa", "cw") or not spec.online:
        raise ValueError(f"{spec.name} is not an online learner for the playground")
    return spec.readable(covariance="full", **({"C": float(C)} if "C" in spec.defaults else {}))


def run_stream(
    keys: tuple[str, ...],
    kind: str = "blobs",
    n_samples: int = 200,
    n_classes: int = 3,
    noise: float = 0.0,
    margin: float = 0.5,
    seed: int = 0,
    C: float = 1.0,
    bias: bool = True,
    points: tuple | None = None,
) -> StreamRun:
    """Run up to four online learners over one stream, keeping every snapshot.

    >>> run = run_stream(("perceptron", "spa"), "separable", n_samples=30, bias=False)
    >>> run.W["spa"].shape, run.mistakes["spa"].shape
    ((31, 3, 2), (30,))
    >>> bool(np.all(run.W["spa"][0] == 0))
    True
    """
    keys = tuple(dict.fromkeys(keys))
    if not 1 <= len(keys) <= MAX_ALGORITHMS:
        raise ValueError(f"choose between 1 and {MAX_ALGORITHMS} algorithms, got {len(keys)}")
    X, y = stream_data(kind, n_samples, n_classes, noise, margin, seed, points)
    K = int(y.max()) + 1
    F = np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X
    n, d = F.shape
    Ws, Sigmas, mistakes = {}, {}, {}
    for key in keys:
        init, step, weights, cov = _learner(key, C)
        state = init(d, K)
        W = np.empty((n + 1, K, d))
        S = np.empty((n + 1, d, d)) if cov(state) is not None else None
        wrong = np.zeros(n, dtype=bool)
        W[0] = weights(state)
        if S is not None:
            S[0] = cov(state)
        for i in range(n):
            scores = weights(state) @ F[i]
            wrong[i] = int(np.argmax(scores)) != y[i]  # prediction before the update
            state, _ = step(state, F[i], int(y[i]))
            W[i + 1] = weights(state)
            if S is not None:
                S[i + 1] = cov(state)
        Ws[key], Sigmas[key], mistakes[key] = W, S, wrong
    names = tuple(registry.get(k).name for k in keys)
    return StreamRun(X, y, K, bool(bias), keys, names, Ws, Sigmas, mistakes, float(C))


def instance_at(
    keys: tuple[str, ...],
    kind: str,
    n_samples: int,
    n_classes: int,
    noise: float,
    margin: float,
    seed: int,
    C: float,
    bias: bool,
    points: tuple | None,
    key: str,
    t: int,
) -> Instance:
    """Learner ``key``'s state before example ``t`` and that example, as an SPA instance.

    >>> inst = instance_at(("spa",), "blobs", 40, 3, 0.0, 0.5, 0, 1.0, True, None, "spa", 5)
    >>> inst.W.shape, float(inst.x[-1]), inst.bias
    ((3, 3), 1.0, True)
    """
    run = run_stream(keys, kind, n_samples, n_classes, noise, margin, seed, C, bias, points)
    t = int(min(max(t, 0), run.n - 1))
    return Instance(run.W[key][t].copy(), run.features(t), int(run.y[t]), float(C), bool(bias))
