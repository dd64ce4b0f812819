"""The benchmark datasets, loaded once and shared by every contestant.

Real sets come from :func:`olearn.datasets.load` (``usps``, ``20news-8``, ``reuters-20``,
``sgd-balanced``).  While a loader is missing or its archive is absent, a stand-in of similar
shape is used and named as such in every table row (``source`` says which): sklearn's digits
for USPS, the 20news-8 builder for 20 Newsgroups, and :func:`make_sparse` synthetic documents
for Reuters and the hashed set.  Labels are recoded to ``0..K-1`` (int64) once, here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp


@dataclass
class BenchData:
    """One benchmark dataset: train and test split with int labels ``0..n_classes-1``."""

    name: str
    X: np.ndarray | sp.csr_matrix
    y: np.ndarray
    X_test: np.ndarray | sp.csr_matrix
    y_test: np.ndarray
    n_classes: int
    source: str  # "olearn.datasets" or "stand-in: ..."

    @property
    def n(self) -> int:
        return self.X.shape[0]

    @property
    def d(self) -> int:
        return self.X.shape[1]

    @property
    def nnz(self) -> int:
        """Non-zeros of the training matrix (what one pass must read)."""
        return int(self.X.nnz) if sp.issparse(self.X) else int(np.count_nonzero(self.X))

    def card(self) -> dict:
        kind = "csr" if sp.issparse(self.X) else "dense"
        return {
            "dataset": self.name,
            "n": self.n,
            "d": self.d,
            "K": self.n_classes,
            "nnz": self.nnz,
            "nnz_per_row": round(self.nnz / self.n, 1),
            "n_test": self.X_test.shape[0],
            "layout": kind,
            "source": self.source,
        }


def make_sparse(
    n: int, d: int, K: int, nnz_per_row: int, *, n_test: int = 0, seed: int = 0, name: str = ""
) -> BenchData:
    """Synthetic bag-of-words documents: each class has its own Zipf-weighted "topic" words.

    A tenth of a row's ``nnz_per_row`` draws come from its class's topic (a random
    permutation of the vocabulary), the rest from the common vocabulary, both Zipf-weighted;
    values are counts (duplicates summed), so rows have somewhat fewer than ``nnz_per_row``
    non-zeros.  One epoch of a PA learner leaves a test error of roughly 5-30 %.

    Examples
    --------
    >>> data = make_sparse(100, 500, 4, 20, n_test=10, seed=1)
    >>> data.X.shape, data.n_classes, sorted(set(data.y.tolist())) == [0, 1, 2, 3]
    ((100, 500), 4, True)
    """
    rng = np.random.default_rng(seed)
    total = n + n_test
    y = rng.integers(K, size=total)
    y[:K] = np.arange(K)  # every class present
    m = max(nnz_per_row, 2)
    half = max(m // 10, 1)
    ranks = np.arange(1, d + 1)
    zipf = 1.0 / ranks
    zipf /= zipf.sum()
    topic = np.stack([rng.permutation(d) for _ in range(K)])  # (K, d) word order per class
    draws = rng.choice(d, size=(total, half), p=zipf)  # Zipf rank within the class topic
    topic_words = topic[y[:, None], draws]
    noise_words = rng.choice(d, size=(total, m - half), p=zipf)  # common words
    cols = np.concatenate([topic_words, noise_words], axis=1).ravel()
    rows = np.repeat(np.arange(total), m)
    X = sp.csr_matrix((np.ones(cols.size), (rows, cols)), shape=(total, d))
    X.sum_duplicates()
    return BenchData(
        name or f"synthetic n={n} d={d} K={K} nnz={nnz_per_row}",
        X[:n],
        y[:n],
        X[n:],
        y[n:],
        K,
        "synthetic (benchmarks.data.make_sparse)",
    )


def _from_dataset(name: str, ds, seed: int = 0) -> BenchData:
    y_all = ds.y if ds.y_test is None else np.concatenate([ds.y, ds.y_test])
    classes, codes = np.unique(y_all, return_inverse=True)
    codes = codes.astype(np.int64)
    if ds.X_test is not None:
        n = ds.X.shape[0]
        return BenchData(
            name, ds.X, codes[:n], ds.X_test, codes[n:], len(classes), "olearn.datasets"
        )
    # no official test split: a seeded 80/20 split, training rows kept in their given order
    n = ds.X.shape[0]
    test = np.zeros(n, dtype=bool)
    test[np.random.default_rng(seed).permutation(n)[: n // 5]] = True
    return BenchData(
        name,
        ds.X[~test],
        codes[~test],
        ds.X[test],
        codes[test],
        len(classes),
        "olearn.datasets (seeded 80/20 split)",
    )


def _try_load(name: str):
    try:
        from olearn.datasets import load
    except ImportError:
        return None, "olearn.datasets.load not available yet"
    try:
        return load(name), ""
    except (KeyError, ValueError, OSError, NotImplementedError) as err:
        return None, f"{type(err).__name__}: {str(err)[:120]}"


def _stand_in(name: str, why: str) -> BenchData:
    if name == "usps":
        from sklearn.datasets import load_digits

        X, y = load_digits(return_X_y=True)
        X = X / 16.0
        data = BenchData(
            "usps", X[:1437], y[:1437].astype(np.int64), X[1437:], y[1437:].astype(np.int64), 10, ""
        )
        data.source = f"stand-in: sklearn digits (dense) [{why}]"
        return data
    if name == "20news-8":
        try:
            from olearn.datasets.newsgroups import ARCHIVE, build_20news8

            home = Path(os.environ.get("OLEARN_DATA") or "~/olearn_data").expanduser()
            data = _from_dataset(name, build_20news8({ARCHIVE: home / ARCHIVE}))
            data.source = f"olearn.datasets.newsgroups.build_20news8, 80/20 split [{why}]"
            return data
        except (ImportError, OSError, ValueError) as err:
            why = f"{why}; builder: {type(err).__name__}: {str(err)[:80]}"
    shapes = {  # (n, d, K, nnz/row, n_test): shaped like the real set
        "20news-8": (2069, 10398, 8, 117, 517),
        "reuters-20": (7800, 34488, 20, 60, 1950),
        "sgd-balanced": (20000, 2**20, 2, 120, 5000),
    }
    n, d, K, m, n_test = shapes[name]
    data = make_sparse(n, d, K, m, n_test=n_test, seed=7, name=name)
    data.source = f"stand-in: synthetic {n}x{d}, K={K}, ~{m} nnz/row [{why}]"
    return data


FULL = ("usps", "20news-8", "reuters-20", "sgd-balanced")


def load_bench(name: str) -> BenchData:
    """A benchmark dataset by name (real when available, else the named stand-in)."""
    ds, why = _try_load(name)
    if ds is not None:
        return _from_dataset(name, ds)
    return _stand_in(name, why)


def quick_sets() -> list[BenchData]:
    """Small sets for ``--quick``: digits (dense) and two small synthetic sparse sets."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    digits = BenchData(
        "digits",
        X[:800] / 16.0,
        y[:800].astype(np.int64),
        X[800:] / 16.0,
        y[800:].astype(np.int64),
        10,
        "sklearn digits (dense)",
    )
    return [
        digits,
        make_sparse(800, 3000, 8, 40, n_test=200, seed=1, name="sparse-8"),
        make_sparse(800, 2**16, 2, 40, n_test=200, seed=2, name="sparse-binary"),
    ]
