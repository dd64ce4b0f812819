"""The :class:`Dataset` container and its card (``meta``); the data layer's exceptions live in
:mod:`olearn.datasets._errors` (re-exported here).

A card is a plain dict.  Its static part (title, source, url, licence, notes, the seed
paper's sizes...) is written by each loader; its statistics (sizes, class counts, nnz) are
always computed here from the arrays, so a dataset read back from the cache has exactly the
card of a fresh parse.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from olearn.datasets._cards import ARRAY_META as ARRAY_META  # card entries held as str arrays
from olearn.datasets._errors import ArchiveCorrupt as ArchiveCorrupt  # re-exported
from olearn.datasets._errors import DatasetUnavailable as DatasetUnavailable

if TYPE_CHECKING:
    import scipy.sparse as sp

REQUIRED_CARD_KEYS = ("title", "source", "url", "licence", "notes")
STATISTICS_KEYS = frozenset(
    {
        "n_samples",
        "n_features",
        "n_classes",
        "class_counts",
        "nnz",
        "density",
        "nnz_per_row",
        "n_test",
        "test_class_counts",
        "test_nnz",
    }
)  # computed by :func:`statistics`, never stored


@dataclass(frozen=True, repr=False)
class Dataset:
    """A classification dataset: training matrix and labels, optional official test split.

    Attributes
    ----------
    name : str
        Registry key (``"usps"``, ``"toy-blobs"``...) or ``"upload:<file name>"``.
    X : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_features)
        float64; CSR for text.
    y : ndarray of shape (n_samples,)
        Labels (integers or strings).
    meta : dict
        The dataset card: name, title, sizes, class counts, nnz, density, source, url,
        licence, notes and, where the seed paper prints sizes, ``paper_table``.
    X_test, y_test : same kinds as ``X`` and ``y``, or None
        The source's official test split, when it has one.
    """

    name: str
    X: np.ndarray | sp.csr_matrix
    y: np.ndarray
    meta: dict
    X_test: np.ndarray | sp.csr_matrix | None = None
    y_test: np.ndarray | None = None

    def __repr__(self) -> str:
        n, d = self.X.shape
        kind = "csr" if issparse(self.X) else "dense"
        test = "" if self.X_test is None else f", n_test={self.X_test.shape[0]}"
        k = self.meta.get("n_classes")
        return f"Dataset({self.name!r}, n_samples={n}, n_features={d}, n_classes={k}{test}, {kind})"


def issparse(X: object) -> bool:
    """``scipy.sparse.issparse(X)``, without importing scipy for dense data: no
    sparse matrix exists before :mod:`scipy.sparse` is imported, so until then X is not one
    (the toys and digits, ``olearn list``, never import it).

    >>> import scipy.sparse
    >>> issparse(np.eye(2)), issparse(scipy.sparse.eye(2, format="csr"))
    (False, True)
    """
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(X)


def _py(label: Any) -> int | str | float:
    """A numpy scalar label as a plain Python value (JSON- and dict-key-friendly)."""
    if isinstance(label, np.integer | int) and not isinstance(label, bool):
        return int(label)
    if isinstance(label, np.floating | float):
        return float(label)
    return str(label)


def class_counts(y: np.ndarray) -> dict:
    """``{label: count}`` in sorted label order, with plain Python keys and values."""
    labels, counts = np.unique(y, return_counts=True)
    return {_py(lab): int(c) for lab, c in zip(labels, counts)}


def _nnz(X) -> int:
    return int(X.nnz) if issparse(X) else int(np.count_nonzero(X))


def statistics(X, y, X_test=None, y_test=None) -> dict:
    """The card's computed part: sizes, class counts, nnz and density (train split)."""
    n, d = X.shape
    nnz = _nnz(X)
    labels = np.unique(y) if y_test is None else np.union1d(np.unique(y), np.unique(y_test))
    out = {
        "n_samples": int(n),
        "n_features": int(d),
        "n_classes": int(labels.size),
        "class_counts": class_counts(y),
        "nnz": nnz,
        "density": float(nnz / (n * d)) if n * d else 0.0,
        "nnz_per_row": float(nnz / n) if n else 0.0,
        "n_test": 0 if X_test is None else int(X_test.shape[0]),
    }
    if X_test is not None:
        out["test_class_counts"] = class_counts(y_test)
        out["test_nnz"] = _nnz(X_test)
    return out


def make_dataset(name: str, X, y, card: dict, X_test=None, y_test=None) -> Dataset:
    """Assemble a :class:`Dataset`: coerce dtypes, check shapes, compute the card.

    ``card`` holds the static fields (at least ``title, source, url, licence, notes``);
    sizes and counts are computed here and override anything given.
    """
    missing = [key for key in REQUIRED_CARD_KEYS if key not in card]
    if missing:
        raise ValueError(f"card of {name!r} lacks {missing}")
    X, y = _as_matrix(X), _as_labels(y)
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"{name}: X has {X.shape[0]} rows but y has {y.shape[0]} labels")
    if X_test is not None:
        X_test, y_test = _as_matrix(X_test), _as_labels(y_test)
        if X_test.shape[1] != X.shape[1] or X_test.shape[0] != y_test.shape[0]:
            raise ValueError(f"{name}: test split shapes {X_test.shape}, {y_test.shape}")
    card = {k: (np.asarray(v, dtype=str) if k in ARRAY_META else v) for k, v in card.items()}
    meta = {"name": name, **card, **statistics(X, y, X_test, y_test)}
    return Dataset(name=name, X=X, y=y, meta=meta, X_test=X_test, y_test=y_test)


def _as_matrix(X):
    if issparse(X):
        import scipy.sparse as sp

        X = sp.csr_matrix(X, dtype=np.float64)
        X.sum_duplicates()  # canonical CSR: sorted indices, no duplicates
        return X
    return np.ascontiguousarray(X, dtype=np.float64)


def _as_labels(y) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"labels must be 1-D, got shape {y.shape}")
    if y.dtype.kind in "OSU":
        return y.astype(str)  # unicode array: storable without pickle
    if y.dtype.kind in "iub":
        return y.astype(np.int64)
    return y
