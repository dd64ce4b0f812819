"""A whole online run on a 2-D stream, kept as snapshots so a page can rewind to any t.

:func:`run_stream` feeds the same stream (a toy of :func:`olearn.datasets.toy.make_toy`, or
points a user placed) to up to four online learners of the registry, through their readable
rules in :mod:`olearn.core`, and keeps after every step: the weights (one row per class, the
last column the bias when ``bias``), whether the prediction made *before* the step was wrong
(progressive validation), and for the confidence-weighted family the covariance.  With a
``test_fraction``, a held-out test set is drawn from the same distribution and every
snapshot's test error is kept beside the online mistakes (TensorFlow Playground's
train/test view).  :func:`step_notes` says, for every t, what happens at the next example.
"Learner a before example t" is a :class:`~olearn.teaching.settings.HandOver` (the SPA page's
instance); :mod:`olearn.teaching.hand_over_url` carries it in a URL, so a link to the SPA page
rebuilds it in any browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from olearn import registry
from olearn._budget import APP_BYTES, require
from olearn.teaching.hypers import view_hyper
from olearn.teaching.strings import num
from olearn.teaching.strings import t as tt

C_DEFAULT = view_hyper("playground", "C").default  # the registry's

MAX_ALGORITHMS = 4
MAX_POINTS = 400  # the Playground's largest stream (its n slider); placed points and links too:
# 2000 placed points took minutes to draw (2000 frames x 4 learners) in a session nobody stops
MAX_CLASSES = 6  # the Playground's K slider and class buttons; 12 classes took 4x longer to draw
MAX_TEST_FRACTION = 0.5  # the Playground's largest test share: as many test examples as n
MAX_COORD = 1e6  # |x1|, |x2| of a placed point (plotly and the regions stay exact far beyond)
MAX_SEED = 2**32 - 1
MAX_MARGIN = 1.99  # below make_toy's bound (half its box of 4)
TEST_CHUNK_BYTES = 8 * 2**20  # the test scores of a block of snapshots, computed at a time
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


def check_points(points) -> np.ndarray:
    """Placed points ``((x1, x2, class), ...)`` as an (m, 3) array, or ValueError naming what
    is wrong: more than ``MAX_POINTS``, a coordinate not finite or beyond ``±MAX_COORD``, a
    class not a whole number in ``0..MAX_CLASSES - 1``.

    >>> check_points(((1e308, 0, 0),))
    Traceback (most recent call last):
    ...
    ValueError: point coordinates must be within ±1e+06 (a point has x = (1e+308, 0))
    """
    P = np.asarray(points, dtype=float).reshape(-1, 3)
    if P.shape[0] > MAX_POINTS:
        raise ValueError(f"at most {MAX_POINTS} points, got {P.shape[0]}")
    if not np.all(np.isfinite(P)):
        raise ValueError("every point needs finite x1, x2 and a class")
    far = np.abs(P[:, :2]).max(axis=1) > MAX_COORD
    if np.any(far):
        a, b = P[np.argmax(far), :2]
        raise ValueError(
            f"point coordinates must be within ±{MAX_COORD:g} (a point has x = ({a:g}, {b:g}))"
        )
    labels = P[:, 2]
    if np.any(labels < 0) or np.any(labels != np.round(labels)) or np.any(labels >= MAX_CLASSES):
        raise ValueError(f"classes must be whole numbers 0..{MAX_CLASSES - 1}")
    return P


def stream_data(
    kind: str = "blobs",
    n_samples: int = 200,
    n_classes: int = 3,
    noise: float = 0.0,
    margin: float = 0.5,
    seed: int = 0,
    *,
    points: tuple | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The stream: a toy dataset, or ``points`` = ((x1, x2, class), ...) placed by a user.

    >>> X, y = stream_data(points=((0.0, 1.0, 0), (1.0, 0.0, 1)))
    >>> X.shape, y.tolist()
    ((2, 2), [0, 1])
    """
    if points is not None:
        P = check_points(points)
        if P.shape[0] < 2:
            raise ValueError("place at least two points")
        labels = P[:, 2]
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


def held_out_size(n_samples: int, test_fraction: float) -> int:
    """Examples held out beside a stream of ``n_samples`` for a test share ``test_fraction``."""
    return int(round(n_samples * test_fraction / (1 - test_fraction)))


def stream_bytes(n_learners: int, n: int, K: int, n_test: int = 0, bias: bool = True) -> int:
    """Bytes :func:`run_stream` holds for ``n_learners`` learners on ``n`` examples of ``K``
    classes with ``n_test`` held out: per learner, the snapshots of the weights ``(n + 1) x K x
    d`` and (confidence-weighted family, counted for all) of the covariance ``(n + 1) x d x
    d``, the predictions; the data; one block of test scores at a time (``TEST_CHUNK_BYTES``).

    >>> stream_bytes(4, MAX_POINTS, MAX_CLASSES, MAX_POINTS) < 32 * 2**20
    True
    """
    d = 3 if bias else 2
    per_learner = (n + 1) * (K * d + d * d) * 8 + n * 9 + (n + 1) * 8
    data = (n + n_test) * (d + 2 + 1) * 8 * 2
    test = 2 * TEST_CHUNK_BYTES if n_test else 0
    return int(n_learners * per_learner + data + test)


def _learner(key: str, C: float):
    """The readable learner (:class:`olearn.registry.ReadableLearner`) of ``key``."""
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
    *,
    seed: int = 0,
    C: float = C_DEFAULT,
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
    n_test = 0 if points is not None else held_out_size(n_samples, test_fraction)
    n_stream = len(points) if points is not None else int(n_samples)
    require(
        stream_bytes(len(keys), n_stream, n_classes if points is None else MAX_CLASSES, n_test),
        f"a playground run ({len(keys)} learners x {n_stream} steps, {n_test} test examples)",
        budget=APP_BYTES,
    )
    X, y = stream_data(kind, n_samples + n_test, n_classes, noise, margin, seed, points=points)
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
        init, step, weights, cov, _grow = _learner(key, C)
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
        if len(y_test):
            test_error[key] = _test_errors(W, F_test, y_test)
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


def _test_errors(W: np.ndarray, F_test: np.ndarray, y_test: np.ndarray) -> np.ndarray:
    """Every snapshot's test error rate: ``W`` (n+1, K, d), ``F_test`` (m, d) -> (n+1,).

    A block of snapshots at a time, each block's scores (rows, K, m) within
    ``TEST_CHUNK_BYTES``: all at once they are (n+1) x K x m floats, 3.1 GB for 2000 steps,
    12 classes and 16,000 test examples (what a link once asked for).
    """
    n1, K, _ = W.shape
    rows = max(1, TEST_CHUNK_BYTES // (8 * K * max(len(y_test), 1)))
    out = np.empty(n1)
    for start in range(0, n1, rows):  # (rows, K, d) @ (d, m) -> (rows, K, m)
        scores = W[start : start + rows] @ F_test.T
        out[start : start + rows] = np.mean(np.argmax(scores, axis=1) != y_test, axis=1)
    return out


def learner_verdicts(run: StreamRun, t: int, lang: str, prefix: str) -> list[str]:
    """Each learner's prediction of example ``t`` against its label, in the strings
    ``<prefix>.right`` / ``<prefix>.wrong`` (the step notes', the predict mode's answers)."""
    c = int(run.y[t])
    out = []
    for k, name in zip(run.keys, run.names):
        p = int(run.predicted[k][t])
        out.append(tt(f"{prefix}.right" if p == c else f"{prefix}.wrong", lang, name=name, p=p))
    return out


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
        verdicts = learner_verdicts(run, t, lang, "play.note")
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
    if len(rows) > MAX_POINTS:
        raise ValueError(f"at most {MAX_POINTS} points, got {len(rows)}")
    values = [(float(a), float(b), float(c)) for a, b, c in rows]
    check_points(values or np.empty((0, 3)))
    return tuple((a, b, int(c)) for a, b, c in values)


# the bounds of the hand-over's numbers: name -> (type, low, high); with them the worst
# accepted link's run (4 learners x 400 steps x 6 classes, 400 test examples) needs under
# 1 MiB + 16 MiB of test-score blocks, far inside APP_BYTES (see test_reliability_app)
URL_BOUNDS = {
    "n": (int, 2, MAX_POINTS),
    "K": (int, 2, MAX_CLASSES),
    "seed": (int, 0, MAX_SEED),
    "t": (int, 0, MAX_POINTS - 1),
    "noise": (float, 0.0, 0.9),
    "margin": (float, 0.0, MAX_MARGIN),
    "C": (float, view_hyper("playground", "C").low, view_hyper("playground", "C").high),
    "test": (float, 0.0, MAX_TEST_FRACTION),
}


def clamp(name: str, text: str, notes: list | None = None):
    """URL field ``name``'s ``text`` as a number within :data:`URL_BOUNDS` (clamped; each
    clamp appended to ``notes`` as ``(name, text, value_used, low, high)``).  Raises
    ValueError when ``text`` is not a finite number (of the right kind).

    >>> notes = []
    >>> clamp("n", "99999", notes), clamp("C", "0.5"), notes
    (400, 0.5, [('n', '99999', 400, 2, 400)])
    """
    kind, low, high = URL_BOUNDS[name]
    value = float(str(text).strip())
    if not np.isfinite(value) or (kind is int and value != round(value)):
        raise ValueError(f"{name}={text!r} is not a {'whole ' if kind is int else ''}number")
    used = kind(min(max(value, low), high))
    if used != value and notes is not None:
        notes.append((name, str(text)[:20], used, low, high))
    return used
