"""A whole online run on a 2-D stream, kept as snapshots so a page can rewind to any t.

:func:`run_stream` feeds the same stream (a toy of :func:`olearn.datasets.toy.make_toy`, or
points a user placed) to up to four online learners of the registry, through their readable
rules in :mod:`olearn.core`, and keeps after every step: the weights (one row per class, the
last column the bias when ``bias``), whether the prediction made *before* the step was wrong
(progressive validation), and for the confidence-weighted family the covariance.  With a
``test_fraction``, a held-out test set is drawn from the same distribution and every
snapshot's test error is kept beside the online mistakes (TensorFlow Playground's
train/test view).  :func:`step_notes` says, for every t, what happens at the next example.
:func:`instance_at` turns "learner a at time t" into the SPA page's instance, and
:func:`instance_to_url` / :func:`instance_from_url` carry that hand-over in a URL, so a link
to the SPA page rebuilds it in any browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from olearn import registry
from olearn.teaching.instances import Instance
from olearn.teaching.strings import num
from olearn.teaching.strings import t as tt

MAX_ALGORITHMS = 4
MAX_POINTS = 2000
KINDS = ("blobs", "separable", "xor", "moons", "drift")


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
    predicted : key -> (n,) the class predicted for example t before learning from it.
    X_test, y_test : the held-out test set ((0, 2) and (0,) without one).
    test_error : key -> (n + 1,) test error rate after t steps (empty without a test set).
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
    predicted: dict = field(default_factory=dict)
    X_test: np.ndarray = field(default_factory=lambda: np.empty((0, 2)))
    y_test: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    test_error: dict = field(default_factory=dict)

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
    test_fraction: float = 0.0,
) -> StreamRun:
    """Run up to four online learners over one stream, keeping every snapshot.

    ``test_fraction`` (toy data only) adds a test set of ``round(n * f / (1 - f))`` examples
    from the same generator and seed, held out of the stream: ``n_samples`` stays the
    stream's length.

    >>> run = run_stream(("perceptron", "spa"), "separable", n_samples=30, bias=False)
    >>> run.W["spa"].shape, run.mistakes["spa"].shape
    ((31, 3, 2), (30,))
    >>> bool(np.all(run.W["spa"][0] == 0))
    True
    >>> run = run_stream(("pa",), "blobs", n_samples=40, test_fraction=0.2)
    >>> run.n, len(run.y_test), run.test_error["pa"].shape
    (40, 10, (41,))
    """
    keys = tuple(dict.fromkeys(keys))
    if not 1 <= len(keys) <= MAX_ALGORITHMS:
        raise ValueError(f"choose between 1 and {MAX_ALGORITHMS} algorithms, got {len(keys)}")
    if not 0.0 <= test_fraction < 0.9:
        raise ValueError("the test fraction must be in [0, 0.9)")
    n_test = (
        0 if points is not None else int(round(n_samples * test_fraction / (1 - test_fraction)))
    )
    X, y = stream_data(kind, n_samples + n_test, n_classes, noise, margin, seed, points)
    X_test, y_test = np.empty((0, 2)), np.empty(0, dtype=np.int64)
    if n_test:  # a random held-out part; the stream keeps its generated order
        held = np.random.default_rng(seed + 7919).permutation(len(y))[:n_test]
        mask = np.zeros(len(y), dtype=bool)
        mask[held] = True
        X_test, y_test, X, y = X[mask], y[mask], X[~mask], y[~mask]
    K = int(max(y.max(), y_test.max() if len(y_test) else 0)) + 1
    F = np.hstack([X, np.ones((X.shape[0], 1))]) if bias else X
    n, d = F.shape
    F_test = np.hstack([X_test, np.ones((len(X_test), 1))]) if bias else X_test
    Ws, Sigmas, mistakes, predicted, test_error = {}, {}, {}, {}, {}
    for key in keys:
        init, step, weights, cov = _learner(key, C)
        state = init(d, K)
        W = np.empty((n + 1, K, d))
        S = np.empty((n + 1, d, d)) if cov(state) is not None else None
        guess = np.zeros(n, dtype=np.int64)
        W[0] = weights(state)
        if S is not None:
            S[0] = cov(state)
        for i in range(n):
            guess[i] = int(np.argmax(weights(state) @ F[i]))  # prediction before the update
            state, _ = step(state, F[i], int(y[i]))
            W[i + 1] = weights(state)
            if S is not None:
                S[i + 1] = cov(state)
        Ws[key], Sigmas[key], predicted[key] = W, S, guess
        mistakes[key] = guess != y
        if len(y_test):  # (n+1, K, d) @ (d, m) -> (n+1, K, m): every snapshot's test scores
            test_error[key] = np.mean(np.argmax(W @ F_test.T, axis=1) != y_test, axis=1)
    names = tuple(registry.get(k).name for k in keys)
    return StreamRun(
        X,
        y,
        K,
        bool(bias),
        keys,
        names,
        Ws,
        Sigmas,
        mistakes,
        float(C),
        predicted,
        X_test,
        y_test,
        test_error,
    )


def step_notes(run: StreamRun, lang: str = "en") -> list[str]:
    """For every t = 0..n, one line on what happens next: example t's point and class, and
    per learner whether its prediction is right (a passive step for a perceptron) or wrong
    (an update follows).  Plain text with light markdown, for the player's caption.

    >>> run = run_stream(("perceptron",), "separable", n_samples=5, bias=False)
    >>> len(step_notes(run)), "t = 5 / 5" in step_notes(run)[-1]
    (6, True)
    """
    notes = []
    for t in range(run.n + 1):
        if t == run.n:
            counts = ", ".join(
                f"{name} {int(run.mistakes[k].sum())}" for k, name in zip(run.keys, run.names)
            )
            notes.append(tt("play.note.end", lang, t=t, n=run.n, counts=counts))
            continue
        x, c = run.X[t], int(run.y[t])
        verdicts = []
        for k, name in zip(run.keys, run.names):
            p = int(run.predicted[k][t])
            key = "play.note.right" if p == c else "play.note.wrong"
            verdicts.append(tt(key, lang, name=name, p=p))
        notes.append(
            tt(
                "play.note.next",
                lang,
                t=t,
                n=run.n,
                x1=num(x[0], 3),
                x2=num(x[1], 3),
                c=c,
                verdicts="; ".join(verdicts),
            )
        )
    return notes


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
    test_fraction: float = 0.0,
) -> Instance:
    """Learner ``key``'s state before example ``t`` and that example, as an SPA instance.

    >>> inst = instance_at(("spa",), "blobs", 40, 3, 0.0, 0.5, 0, 1.0, True, None, "spa", 5)
    >>> inst.W.shape, float(inst.x[-1]), inst.bias
    ((3, 3), 1.0, True)
    """
    run = run_stream(
        keys, kind, n_samples, n_classes, noise, margin, seed, C, bias, points, test_fraction
    )
    t = int(min(max(t, 0), run.n - 1))
    return Instance(run.W[key][t].copy(), run.features(t), int(run.y[t]), float(C), bool(bias))


URL_PARAM = "pg"  # the SPA page's URL parameter holding a playground hand-over


def points_to_text(points) -> str:
    """``((x1, x2, class), ...)`` -> ``"x1,x2,c;..."`` (the URL form of placed points)."""
    return ";".join(f"{float(a):g},{float(b):g},{int(c)}" for a, b, c in points)


def points_from_text(text: str) -> tuple:
    """The inverse of :func:`points_to_text`; raises ValueError on malformed text.

    >>> points_from_text(points_to_text(((0.5, -1, 2), (1, 1, 0))))
    ((0.5, -1.0, 2), (1.0, 1.0, 0))
    """
    rows = [r.split(",") for r in str(text).split(";") if r.strip()]
    if any(len(r) != 3 for r in rows):
        raise ValueError("points are written x1,x2,class;x1,x2,class;...")
    pts = tuple((float(a), float(b), int(float(c))) for a, b, c in rows)
    if not all(np.isfinite([a for p in pts for a in p[:2]])):
        raise ValueError("every point needs finite coordinates")
    return pts


def instance_to_url(hand_over: tuple) -> dict[str, str]:
    """The SPA page's URL parameters for the playground state ``hand_over`` = the arguments of
    :func:`instance_at` ``(keys, kind, n, K, noise, margin, seed, C, bias, points, key, t[,
    test_fraction])``: ``{"scenario": "playground", "pg": "..."}``.

    >>> args = (("pa", "spa"), "blobs", 40, 3, 0.0, 0.5, 0, 1.0, True, None, "spa", 7, 0.2)
    >>> url = instance_to_url(args)
    >>> url["pg"]
    'algos=pa,spa;kind=blobs;n=40;K=3;noise=0;margin=0.5;seed=0;C=1;bias=1;learner=spa;t=7;test=0.2'
    >>> instance_from_url(url) == args
    True
    """
    keys, kind, n, K, noise, margin, seed, C, bias, points, key, t, *rest = hand_over
    test = float(rest[0]) if rest else 0.0
    fields = {
        "algos": ",".join(keys),
        "kind": "placed" if points is not None else kind,
        "n": int(n),
        "K": int(K),
        "noise": f"{float(noise):g}",
        "margin": f"{float(margin):g}",
        "seed": int(seed),
        "C": f"{float(C):g}",
        "bias": int(bool(bias)),
        "learner": key,
        "t": int(t),
        "test": f"{test:g}",
    }
    if points is not None:
        fields["pts"] = points_to_text(points).replace(";", "_")
    return {"scenario": "playground", URL_PARAM: ";".join(f"{k}={v}" for k, v in fields.items())}


def instance_from_url(params: Mapping) -> tuple | None:
    """The hand-over tuple of :func:`instance_to_url` read back from URL parameters (a dict or
    ``st.query_params``), or ``None`` when absent or malformed.  Never raises.

    >>> instance_from_url({"pg": "algos=nope;t=1"}) is None, instance_from_url({}) is None
    (True, True)
    """
    try:
        raw = params.get(URL_PARAM)
        if not raw:
            return None
        f = dict(item.split("=", 1) for item in str(raw).split(";") if "=" in item)
        keys = tuple(k for k in f["algos"].split(",") if k)
        online = set(registry.keys(online=True))
        if not 1 <= len(keys) <= MAX_ALGORITHMS or not set(keys) <= online:
            return None
        key = f["learner"]
        if key not in keys:
            return None
        points = points_from_text(f["pts"].replace("_", ";")) if f["kind"] == "placed" else None
        kind = "blobs" if points is not None else f["kind"]
        if kind not in KINDS:
            return None
        n, K, seed, t = (int(f[k]) for k in ("n", "K", "seed", "t"))
        noise, margin, C, test = (float(f[k]) for k in ("noise", "margin", "C", "test"))
        values = np.array([n, K, seed, t, noise, margin, C, test], dtype=float)
        if not np.all(np.isfinite(values)) or not (2 <= n <= MAX_POINTS and 2 <= K <= 12):
            return None
        if not (0 <= noise < 1 and margin >= 0 and C > 0 and 0 <= test < 0.9 and t >= 0):
            return None
        bias = f["bias"] == "1"
        return (keys, kind, n, K, noise, margin, seed, C, bias, points, key, t, test)
    except (KeyError, ValueError, TypeError, OverflowError, AttributeError):
        return None
