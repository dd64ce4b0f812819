"""Parsed datasets cached as ``.npz`` (no pickle) plus a ``.card.json`` sidecar.

File ``<name>-p<parser version>-<options hash>.npz`` holds the arrays (dense ``X`` or the
CSR triplet ``X_data, X_indices, X_indptr, X_shape``; the same for ``X_test``; labels as
int64 or unicode arrays), the static card as JSON, and the sizes of the archives it came
from.  A cached file is used only if those sizes still match the archives present (an
absent archive is not held against it: the cache then works offline).  Statistics are
recomputed from the arrays on reading, so cached and fresh cards are identical.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings
import zipfile
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from olearn.datasets._base import ARRAY_META, STATISTICS_KEYS, Dataset, make_dataset


def cache_key(name: str, parser_version: int, options: dict) -> str:
    """File stem for ``name`` parsed by ``parser_version`` with ``options``."""
    blob = json.dumps(options, sort_keys=True, default=list)
    digest = hashlib.sha256(blob.encode()).hexdigest()[:12]
    return f"{name}-p{parser_version}-{digest}"


def write(path: Path, ds: Dataset, sources: dict[str, int]) -> None:
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
        _atomic(path, lambda f: np.savez(f, **arrays))
    except OSError as exc:
        warnings.warn(f"could not cache {ds.name} in {path.parent}: {exc}", stacklevel=3)
        return
    write_card(path, ds, sources)


def write_card(path: Path, ds: Dataset, sources: dict[str, int]) -> None:
    """Store the card of ``ds`` (with the archive sizes) beside ``path``; warn, never fail."""
    sidecar = card_to_json({**ds.meta, "sources": sources})
    try:
        _atomic(card_path(path), lambda f: f.write(sidecar.encode()))
    except OSError as exc:
        warnings.warn(
            f"could not write the card of {ds.name} in {path.parent}: {exc}", stacklevel=3
        )


def read(path: Path, sources_now: dict[str, int]) -> Dataset | None:
    """The cached dataset at ``path``, or None if absent, stale or unreadable."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as f:
            sources = json.loads(str(f["sources"]))
            if any(sources.get(k) != v for k, v in sources_now.items()):
                return None
            card = json.loads(str(f["card"]))
            for key in ARRAY_META:
                if key in f:
                    card[key] = f[key]
            X, y = _matrix_from(f, "X"), f["y"]
            X_test = _matrix_from(f, "X_test") if "y_test" in f else None
            y_test = f["y_test"] if "y_test" in f else None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        warnings.warn(f"ignoring unreadable cache file {path}: {exc}", stacklevel=3)
        return None
    return make_dataset(card.pop("name", path.stem), X, y, card, X_test, y_test)


def read_card(path: Path, sources_now: dict[str, int]) -> dict | None:
    """The card stored beside ``path``, or None if absent, unreadable or stale (same rule as
    :func:`read`: the archive sizes recorded must match those present)."""
    try:
        meta = card_from_json(card_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    sources = meta.pop("sources", {})
    if any(sources.get(k) != v for k, v in sources_now.items()) or not path.is_file():
        return None
    return meta


def card_path(path: Path) -> Path:
    return path.with_suffix(".card.json")


def card_to_json(meta: dict) -> str:
    """JSON of a card without its arrays; class-count dicts as ``[label, count]`` pairs so
    integer labels stay integers."""
    out = {k: v for k, v in meta.items() if k not in ARRAY_META}
    for key in ("class_counts", "test_class_counts"):
        if key in out:
            out[key] = [[label, count] for label, count in out[key].items()]
    return json.dumps(out, indent=1, ensure_ascii=False)


def card_from_json(text: str) -> dict:
    meta = json.loads(text)
    for key in ("class_counts", "test_class_counts"):
        if key in meta:
            meta[key] = {label: count for label, count in meta[key]}
    return meta


def _matrix_arrays(prefix: str, X) -> dict:
    if sp.issparse(X):
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
    shape = tuple(int(s) for s in f[f"{prefix}_shape"])
    triplet = (f[f"{prefix}_data"], f[f"{prefix}_indices"], f[f"{prefix}_indptr"])
    return sp.csr_matrix(triplet, shape=shape)


def _atomic(path: Path, write_to) -> None:
    """Write through ``write_to(file)`` into a temp file, then rename onto ``path``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            write_to(f)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
