"""Embedded datasets: 2-D toy generators the app can draw, and scikit-learn's digits.

Every toy is dense float64 of shape (n_samples, 2) with integer labels ``0..K-1`` and is
a pure function of its arguments (``numpy.random.default_rng(random_state)``).

- ``blobs``: K isotropic Gaussian blobs (std 1) centred on a circle of radius 4.
- ``separable``: points uniform in [-4, 4]^2 labelled by the sector (``argmax_k u_k.x``,
  ``u_k`` K unit vectors evenly spread in angle); points closer than ``margin`` to a
  sector boundary are rejected.  Linearly separable *through the origin* (no bias needed),
  with geometric margin >= ``margin`` when ``noise=0``.
- ``xor``: uniform in [-4, 4]^2, label 1 where ``x1 * x2 < 0``; points within ``margin/2`` of
  an axis are rejected.  Binary, not linearly separable.
- ``moons``: scikit-learn's two interleaving half circles (``make_moons``, drawn here without
  importing it; positional noise 0.1), scaled by 2.  Binary, not linearly separable.
- ``drift``: like ``separable``, but the sectors rotate by half a turn over the stream: point
  ``t`` is labelled with the boundary at angle ``pi * t / n``.  Keep the order (it is time).

``noise`` is a label-noise fraction: ``round(noise * n)`` points, chosen at random, get a
different label drawn uniformly from the other classes.  ``margin`` applies to separable,
xor and drift; ``n_classes`` applies to blobs, separable and drift (xor and moons are
binary and ignore it).
"""

from __future__ import annotations

import numpy as np

from olearn.datasets._base import Dataset, make_dataset

KINDS = ("blobs", "separable", "xor", "moons", "drift")
BINARY_KINDS = ("xor", "moons")
BOX = 4.0  # toys live in [-BOX, BOX]^2

_TITLES = {
    "blobs": "Gaussian blobs (2-D)",
    "separable": "Linearly separable sectors with a chosen margin (2-D)",
    "xor": "XOR quadrants (2-D)",
    "moons": "Two moons (2-D)",
    "drift": "Rotating sectors: concept drift (2-D)",
}


def make_toy(
    kind: str,
    n_samples: int = 200,
    n_classes: int = 3,
    noise: float = 0.0,
    margin: float = 0.5,
    random_state: int | None = 0,
) -> Dataset:
    """Generate a 2-D toy dataset (see the module docstring for each kind).

    Parameters
    ----------
    kind : {"blobs", "separable", "xor", "moons", "drift"}
        Also accepted with the registry prefix (``"toy-blobs"``).
    n_samples : int, default=200
    n_classes : int, default=3
        Ignored by the binary kinds ``xor`` and ``moons``.
    noise : float in [0, 1), default=0.0
        Fraction of labels flipped to another class.
    margin : float >= 0, default=0.5
        Minimum distance from the generating boundaries (separable, xor, drift).
    random_state : int or None, default=0

    Returns
    -------
    Dataset
        ``X`` float64 of shape (n_samples, 2), ``y`` int64 in ``0..K-1``.

    Examples
    --------
    >>> ds = make_toy("separable", n_samples=50, n_classes=4, margin=0.3)
    >>> ds.X.shape, ds.meta["n_classes"]
    ((50, 2), 4)
    """
    kind = kind.removeprefix("toy-")
    if kind not in KINDS:
        raise ValueError(f"unknown toy kind {kind!r}; choose one of {KINDS}")
    n_samples, n_classes = int(n_samples), int(n_classes)
    if n_samples < 2:
        raise ValueError(f"n_samples must be >= 2, got {n_samples}")
    if kind in BINARY_KINDS:
        n_classes = 2
    elif not 2 <= n_classes <= 12:
        raise ValueError(f"n_classes must be between 2 and 12, got {n_classes}")
    if not 0.0 <= noise < 1.0:
        raise ValueError(f"noise is a fraction in [0, 1), got {noise}")
    if not 0.0 <= margin < BOX / 2:
        raise ValueError(f"margin must be in [0, {BOX / 2}), got {margin}")
    rng = np.random.default_rng(random_state)
    X, y = _GENERATORS[kind](rng, n_samples, n_classes, margin)
    y = _flip_labels(y, n_classes, noise, rng)
    used = {
        "n_samples": n_samples,
        "noise": noise,
        "random_state": random_state,
        **({} if kind in BINARY_KINDS else {"n_classes": n_classes}),
        **({"margin": margin} if kind in ("separable", "xor", "drift") else {}),
    }
    card = {**static_card(kind), "notes": _notes(kind, used), "options": used}
    return make_dataset(f"toy-{kind}", X, y, card)


def static_card(kind: str) -> dict:
    """The card fields of a toy kind that do not depend on the options."""
    return {
        "title": _TITLES[kind],
        "source": "olearn synthetic generator (olearn.datasets.toy)",
        "url": "embedded",
        "licence": "BSD-3-Clause (generated data)",
        "notes": _DOC[kind],
    }


def _notes(kind: str, used: dict) -> str:
    return (
        f"{_DOC[kind]} Options: {used}. Label noise flips round(noise*n) labels to another class."
    )


_DOC = {
    "blobs": "K Gaussian blobs (std 1) centred on a circle of radius 4; they overlap a little.",
    "separable": "Sectors argmax_k u_k.x through the origin; every point is at least `margin` "
    "from each boundary, so a linear classifier without bias separates it (before label noise).",
    "xor": "Label 1 where x1*x2 < 0; points within margin/2 of an axis are dropped. "
    "No linear classifier does better than chance on average.",
    "moons": "scikit-learn make_moons (positional noise 0.1) scaled by 2.",
    "drift": "Sectors rotating by half a turn over the stream (point t uses angle pi*t/n): "
    "keep the order. Each point is at least `margin` from the boundary of its own time.",
}


def _directions(n_classes: int, angle=0.0) -> np.ndarray:
    """K unit vectors ``u_k`` evenly spread, rotated by ``angle``: (K, 2), or (n, K, 2)
    for an array of n angles."""
    theta = np.asarray(angle)[..., None] + 2 * np.pi * np.arange(n_classes) / n_classes
    return np.stack([np.cos(theta), np.sin(theta)], axis=-1)


def _sector_margin(X: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Label ``argmax_k u_k.x`` and distance to the nearest boundary of that label's sector.

    The boundary between classes y and k is ``(u_y - u_k).x = 0``, so the distance is
    ``min_k (u_y - u_k).x / ||u_y - u_k||``.  X: (n, 2), U: (K, 2) or (n, K, 2).
    """
    U = np.broadcast_to(U, (X.shape[0], *U.shape[-2:]))
    scores = np.einsum("nkd,nd->nk", U, X)
    y = scores.argmax(axis=1)
    diff = U[np.arange(len(y)), y][:, None, :] - U  # (n, K, 2): u_y - u_k
    norms = np.linalg.norm(diff, axis=2)
    gaps = (scores[np.arange(len(y)), y][:, None] - scores) / np.where(norms > 0, norms, 1.0)
    gaps[norms == 0] = np.inf  # k == y
    return y, gaps.min(axis=1)


def _rejection(rng, n, accept):
    """Uniform points in the box; redraw those ``accept(X_rows, row_indices)`` rejects.

    ``accept`` returns ``(labels, ok)`` for the given rows (row index = stream time).
    """
    X = rng.uniform(-BOX, BOX, size=(n, 2))
    y = np.zeros(n, dtype=np.int64)
    todo = np.arange(n)
    for _ in range(10_000):
        labels, ok = accept(X[todo], todo)
        y[todo[ok]] = labels[ok]
        todo = todo[~ok]
        if todo.size == 0:
            return X, y
        X[todo] = rng.uniform(-BOX, BOX, size=(todo.size, 2))
    raise ValueError("margin too large: could not place enough points")


def _blobs(rng, n, k, margin):
    centres = 4.0 * _directions(k, angle=np.pi / 2)
    y = np.arange(n) % k  # balanced classes, then shuffled
    y = rng.permutation(y)
    return centres[y] + rng.standard_normal((n, 2)), y


def _separable(rng, n, k, margin):
    U = _directions(k)

    def accept(X, _):
        y, dist = _sector_margin(X, U)
        return y, dist >= margin

    return _rejection(rng, n, accept)


def _xor(rng, n, k, margin):
    def accept(X, _):
        return (X[:, 0] * X[:, 1] < 0).astype(np.int64), np.abs(X).min(axis=1) >= margin / 2

    return _rejection(rng, n, accept)


def _moons(rng, n, k, margin):
    seed = int(rng.integers(2**31 - 1))
    X, y = _two_moons(n, 0.1, seed)
    order = rng.permutation(n)
    return 2.0 * X[order], y[order].astype(np.int64)


def _two_moons(n: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's ``make_moons(n_samples=n, noise=noise, random_state=seed)``, draw for
    draw (its half circles, its shuffle, then its noise, from one ``RandomState(seed)``;
    tests/test_datasets_toy.py compares the two): scikit-learn itself takes ~1 s to import,
    which a page drawing moons first would pay."""
    out, inner = n // 2, n - n // 2
    generator = np.random.RandomState(seed)
    X = np.vstack(
        [
            np.append(np.cos(np.linspace(0, np.pi, out)), 1 - np.cos(np.linspace(0, np.pi, inner))),
            np.append(
                np.sin(np.linspace(0, np.pi, out)), 1 - np.sin(np.linspace(0, np.pi, inner)) - 0.5
            ),
        ]
    ).T
    y = np.hstack([np.zeros(out, dtype=np.intp), np.ones(inner, dtype=np.intp)])
    order = np.arange(n)
    generator.shuffle(order)
    X, y = X[order], y[order]
    X += generator.normal(scale=noise, size=X.shape)
    return X, y


def _drift(rng, n, k, margin):
    def accept(X, t):
        U = _directions(k, angle=np.pi * t / n)  # (rows, K, 2): the sectors at each time t
        y, dist = _sector_margin(X, U)
        return y, dist >= margin

    return _rejection(rng, n, accept)


_GENERATORS = {
    "blobs": _blobs,
    "separable": _separable,
    "xor": _xor,
    "moons": _moons,
    "drift": _drift,
}


def _flip_labels(y: np.ndarray, n_classes: int, noise: float, rng) -> np.ndarray:
    y = np.asarray(y, dtype=np.int64).copy()
    n_flip = int(round(noise * y.size))
    if n_flip:
        idx = rng.choice(y.size, n_flip, replace=False)
        shift = rng.integers(1, n_classes, size=n_flip)  # another class, uniformly
        y[idx] = (y[idx] + shift) % n_classes
    return y


def load_digits() -> Dataset:
    """scikit-learn's 8x8 digits (1,797 x 64, 10 classes), bundled: no download.

    Examples
    --------
    >>> load_digits().X.shape
    (1797, 64)
    """
    X, y = _digits_arrays()
    return make_dataset("digits", X, y, digits_card())


def _digits_arrays() -> tuple[np.ndarray, np.ndarray]:
    """``sklearn.datasets.load_digits(return_X_y=True)``: the file scikit-learn bundles
    (``sklearn/datasets/data/digits.csv.gz``, pixels then the label on each line), read as
    its ``load_digits`` reads it, without importing scikit-learn (~1 s: the Home page's
    dataset cards load digits on a fresh server's first visit); through scikit-learn where that
    file is not where it has been (tests/test_datasets_toy.py compares the two)."""
    import gzip
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("sklearn")  # finds the package, does not run it
    roots = list(spec.submodule_search_locations or []) if spec else []
    path = next((Path(r) / "datasets" / "data" / "digits.csv.gz" for r in roots), None)
    if path is None or not path.is_file():
        from sklearn.datasets import load_digits as sklearn_digits

        return sklearn_digits(return_X_y=True)
    with gzip.open(path, mode="rt", encoding="utf-8") as f:
        data = np.loadtxt(f, delimiter=",")
    return data[:, :-1], data[:, -1].astype(int, copy=False)


def digits_card() -> dict:
    """The static card of ``digits``."""
    return {
        "title": "Optical recognition of handwritten digits (8x8, scikit-learn)",
        "source": "E. Alpaydin, C. Kaynak, Optical Recognition of Handwritten Digits, UCI "
        "Machine Learning Repository, 1998 (the test part, as bundled by scikit-learn)",
        "url": "embedded",
        "licence": "CC BY 4.0 (UCI Machine Learning Repository)",
        "notes": "sklearn.datasets.load_digits: 1,797 images of 8x8 pixels, values 0..16 as "
        "float64, labels 0-9. No official test split; no preprocessing.",
    }
