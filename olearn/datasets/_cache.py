"""Parsed datasets cached as ``.npz`` (no pickle) plus a ``.card.json`` sidecar.

File ``<name>-p<parser version>-<options hash>.npz`` holds the arrays (dense ``X`` or the
CSR triplet ``X_data, X_indices, X_indptr, X_shape``; the same for ``X_test``; labels as
int64 or unicode arrays), the static card as JSON, and the SHA-256 of the archives it came
from.  A cached file is used only if those digests still match the archives present (an
absent archive is not held against it: the cache then works offline), so a repaired archive
is parsed again.  Statistics are recomputed from the arrays on reading, so cached and fresh
cards are identical.

Robustness: files are written atomically (:mod:`olearn._io`); a cache file that cannot be
read for any reason (empty, truncated, crafted: wrong keys, dtypes, shapes, an invalid CSR
structure) is a cache miss with a warning, and the dataset is parsed again.
"""

from __future__ import annotations

import json
import struct
import warnings
import zipfile
import zlib
from pathlib import Path

import numpy as np

from olearn._io import atomic_write
from olearn.citations import cited
from olearn.datasets import _cards
from olearn.datasets._base import ARRAY_META, STATISTICS_KEYS, Dataset, issparse, make_dataset


def write(path: Path, ds: Dataset, sources: dict[str, str]) -> None:
    """Store ``ds`` at ``path`` (``.npz``) and its card beside it; warn, never fail."""
    static = {k: v for k, v in ds.meta.items() if k not in STATISTICS_KEYS and k not in ARRAY_META}
    arrays = {
        "y": ds.y,
        "card": np.array(json.dumps(static)),
        "sources": np.array(json.dumps(sources)),
    }
    arrays.update(_matrix_arrays("X", ds.X))
    if ds.X_test is not None:
        arrays.update(_matrix_arrays("X_test", ds.X_test))
        arrays["y_test"] = ds.y_test
    for key in ARRAY_META:
        if key in ds.meta:
            arrays[key] = np.asarray(ds.meta[key], dtype=str)
    try:
        atomic_write(path, lambda f: np.savez(f, **arrays))
    except OSError as exc:
        warnings.warn(f"could not cache {ds.name} in {path.parent}: {exc}", stacklevel=3)
        return
    write_card(path, ds, sources)


def write_card(path: Path, ds: Dataset, sources: dict[str, str]) -> None:
    """Store the card of ``ds`` (with the archive digests) beside ``path``; warn, never fail."""
    try:
        _cards.write_card(path, ds.meta, sources)
    except OSError as exc:
        warnings.warn(
            f"could not write the card of {ds.name} in {path.parent}: {exc}", stacklevel=3
        )


# Everything reading a damaged or crafted .npz was seen to raise (0-byte file: EOFError;
# wrong member types: AttributeError/TypeError; bad shapes: ValueError/IndexError; flipped
# zip flag bits: NotImplementedError, "encrypted" RuntimeError), found by
# tests/test_fuzz_archives.py.
_UNREADABLE = (
    OSError,
    EOFError,
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
    NotImplementedError,
    RuntimeError,
    ArithmeticError,
    struct.error,
    zipfile.BadZipFile,
    zlib.error,
    MemoryError,
)


def read(path: Path, sources_now: dict[str, str]) -> Dataset | None:
    """The cached dataset at ``path``, or None if absent, stale or unreadable (a warning
    then says why; the caller parses the archives again and rewrites the file)."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as f:
            sources = json.loads(str(f["sources"]))
            if not isinstance(sources, dict):
                raise ValueError("'sources' is not a mapping")
            if any(sources.get(k) != v for k, v in sources_now.items()):
                return None
            card = json.loads(str(f["card"]))
            if not isinstance(card, dict):
                raise ValueError("'card' is not a mapping")
            for key in ARRAY_META:
                if key in f:
                    card[key] = f[key]
            X, y = _matrix_from(f, "X"), f["y"]
            X_test = _matrix_from(f, "X_test") if "y_test" in f else None
            y_test = f["y_test"] if "y_test" in f else None
        card = cited(card)  # a card cached by an older olearn named its sources by number
        return make_dataset(str(card.pop("name", path.stem)), X, y, card, X_test, y_test)
    except _UNREADABLE as exc:
        warnings.warn(
            f"ignoring unreadable cache file {path} ({type(exc).__name__}: {exc}); "
            "parsing the archives again",
            stacklevel=3,
        )
        return None


def _matrix_arrays(prefix: str, X) -> dict:
    if issparse(X):
        return {
            f"{prefix}_data": X.data,
            f"{prefix}_indices": X.indices,
            f"{prefix}_indptr": X.indptr,
            f"{prefix}_shape": np.array(X.shape),
        }
    return {prefix: X}


def _matrix_from(f, prefix: str):
    if prefix in f:
        return f[prefix]
    import scipy.sparse as sp  # only a sparse matrix needs it: a dense card reads without

    shape = tuple(int(s) for s in f[f"{prefix}_shape"])
    triplet = (f[f"{prefix}_data"], f[f"{prefix}_indices"], f[f"{prefix}_indptr"])
    X = sp.csr_matrix(triplet, shape=shape)
    X.check_format(full_check=True)  # O(nnz): indices in range, indptr monotone
    return X
