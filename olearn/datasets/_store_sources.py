"""Line sources for :mod:`olearn.datasets.store`: a text file read ``chunk_rows`` data lines
at a time, each group parsed into one CSR chunk.

A source is a file of one example per line (svmlight, CSV, or ``label<TAB>text``); blank
lines and ``#`` comments are skipped.  :func:`line_groups` yields ``(lines, end_offset,
first_line_number)``: the byte offset after a group is what a resumed conversion seeks to.
Each parser turns a group into ``(X: csr_matrix, labels: ndarray)`` and raises ValueError
naming the file and line on bad input.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file


def line_groups(path: Path, chunk_rows: int, start: int = 0) -> Iterator[tuple[list, int, int]]:
    """Groups of ``chunk_rows`` data lines of ``path`` from byte ``start``: ``(lines, end,
    first)``, ``end`` the offset just after the group, ``first`` its first line's number
    (counted from ``start``: exact for a fresh conversion, relative after a resume)."""
    lines: list[bytes] = []
    with open(path, "rb") as f:
        f.seek(start)
        offset, number, first = start, 0, 1
        for raw in f:
            offset += len(raw)
            number += 1
            text = raw.strip()
            if not text or text.startswith(b"#"):
                continue
            if not lines:
                first = number
            lines.append(raw)
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"{path}: line {number} is not UTF-8 text") from None
            if len(lines) == chunk_rows:
                yield lines, offset, first
                lines = []
        if lines:
            yield lines, offset, first


def _labels(cells: list[str], kind: str | None, where: str) -> tuple[np.ndarray, str]:
    """Labels as int64 when every one is an integer, else text; ``kind`` ("int"/"str") is the
    store's, fixed by its first chunk: a later chunk must agree."""
    try:
        values = np.array([int(c) for c in cells], dtype=np.int64)
        found = "int"
    except ValueError:
        values, found = np.array(cells, dtype=str), "str"
    if kind == "int" and found == "str":
        bad = next(c for c in cells if not _is_int(c))
        raise ValueError(
            f"{where}: label {bad!r} is not an integer, but the earlier labels were; a store's "
            "labels are all integers or all text (convert with labels='str')"
        )
    if kind == "str" and found == "int":
        values = np.array(cells, dtype=str)
    return values, kind or found


def _is_int(cell: str) -> bool:
    try:
        int(cell)
        return True
    except ValueError:
        return False


def parse_svmlight(lines: list, n_features: int | None, zero_based: bool, where: str):
    """One group of ``label index:value ...`` lines (scikit-learn's parser).  Labels must be
    integers (``+1``, ``3``, ``3.0``): a class label, not a regression target."""
    try:
        X, y = load_svmlight_file(
            io.BytesIO(b"".join(lines)), dtype=np.float64, zero_based=zero_based
        )
    except ValueError as err:
        raise ValueError(f"{where}: not LIBSVM/svmlight ('label index:value ...'): {err}") from None
    if X.nnz and X.indices.min() < 0:
        raise ValueError(f"{where}: feature index 0 with zero_based=False (LIBSVM counts from 1)")
    if not np.all(np.isfinite(y)) or not np.all(y == np.round(y)):
        raise ValueError(f"{where}: svmlight labels must be integers (class labels)")
    width = X.shape[1] if n_features is None else n_features
    if X.shape[1] > width:
        raise ValueError(
            f"{where}: feature index {X.shape[1] - (0 if zero_based else 1)} is beyond "
            f"n_features={n_features}"
        )
    return _csr(X, width), y.astype(np.int64)


def parse_csv(lines: list, label_column: int, delimiter: str, kind: str | None, where: str):
    """One group of CSV rows: numbers, the label in column ``label_column``."""
    rows = [line.decode("utf-8").rstrip("\r\n").split(delimiter) for line in lines]
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"{where}: row {i + 1} has {len(row)} cells, the first {width}")
    if not -width <= label_column < width:
        raise ValueError(f"{where}: label_column={label_column} but rows have {width} cells")
    column = label_column % width
    from olearn._budget import require

    require(len(rows) * width * 8, f"{where}: a CSV chunk of {len(rows):,} x {width:,} numbers "
            "(read dense; a smaller chunk_rows needs less)")  # fmt: skip
    labels = [row.pop(column).strip() for row in rows]
    try:
        dense = np.array(rows, dtype=np.float64)
    except ValueError:
        raise ValueError(f"{where}: a feature is not a number (a header? comment it: #)") from None
    if not np.all(np.isfinite(dense)):
        raise ValueError(f"{where}: a feature is NaN or infinite")
    y, kind = _labels(labels, kind, where)
    return sp.csr_matrix(dense), y, kind


def parse_texts(lines: list, n_features: int, japanese: bool, kind: str | None, where: str):
    """One group of ``label<TAB>text`` lines, hashed (:func:`olearn.datasets.hashed.hash_texts`)."""
    from olearn.datasets.hashed import hash_texts

    labels, texts = [], []
    for i, line in enumerate(lines):
        label, tab, text = line.decode("utf-8").rstrip("\r\n").partition("\t")
        if not tab:
            raise ValueError(f"{where}: line {i + 1} has no TAB (expected 'label<TAB>text')")
        labels.append(label.strip())
        texts.append(text)
    y, kind = _labels(labels, kind, where)
    return hash_texts(texts, japanese, n_features), y, kind


def _csr(X, width: int) -> sp.csr_matrix:
    X = sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], width))
    X.sum_duplicates()  # canonical: sorted indices, no duplicates
    return X
