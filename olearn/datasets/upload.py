"""Read a user's uploaded file (LIBSVM/svmlight or CSV) into a validated :class:`Dataset`.

Rules (every violation is a ``ValueError`` that says what is wrong and where):

- size: at most ``max_bytes`` (50 MiB) as uploaded and, for ``.gz``/``.bz2`` uploads
  (decompressed here), after decompression too;
- format: ``fmt="auto"`` reads ``.csv``/``.tsv`` as CSV, ``.svm``/``.libsvm``/``.svmlight`` as
  svmlight, and anything else as svmlight if its first data line looks like
  ``label index:value ...``, else as CSV (comma, or tab for ``.tsv``/tab-separated text);
- svmlight: scikit-learn's ``load_svmlight_file`` (indices 0- or 1-based, detected), CSR;
- CSV: a header row is recognised when the first row has a non-numeric cell above a numeric
  one (so a text label column alone does not make a header); the label
  column is ``label_column`` (a header name, or a position such as 0 or -1) or, by default,
  the header column named ``label``, ``class``, ``target`` or ``y`` (any case) if there is
  one, else the **last** column; every other column is a numeric feature (dense float64);
  all rows must have the same number of cells;
- values: no missing cells, no NaN or infinity;
- labels: integers when every label is an integral number, floats when they are other
  numbers, else strings; at least 2 classes, at most
  ``max_classes`` (1000);
- rows: at least ``min_rows`` (10, the fold count of the seed-000 protocol);
  features: at least 1, at most ``max_features`` (2^24).
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import re
import zlib

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file

from olearn.datasets._base import Dataset, make_dataset

MAX_BYTES = 50 * 1024 * 1024
MAX_CLASSES = 1000
MAX_FEATURES = 2**24
MIN_ROWS = 10
LABEL_NAMES = ("label", "class", "target", "y")
_SVMLIGHT_LINE = re.compile(r"^\s*[^\s:#]+(\s+(qid:\S+\s+)?\d+:\S+)+\s*(#.*)?$")


def read_upload(
    data,
    filename: str,
    *,
    max_bytes: int = MAX_BYTES,
    label_column: str | int | None = None,
    fmt: str = "auto",
    max_classes: int = MAX_CLASSES,
    min_rows: int = MIN_ROWS,
) -> Dataset:
    """Parse and validate an uploaded svmlight or CSV file (rules in the module docstring).

    Parameters
    ----------
    data : bytes or binary file-like
        The file's content (e.g. Streamlit's ``UploadedFile``).
    filename : str
        Its name: picks the format and names the dataset ``"upload:<filename>"``.
    max_bytes : int, default=50 MiB
    label_column : str or int, optional
        CSV only: header name or column position of the labels.
    fmt : {"auto", "csv", "svmlight"}, default="auto"
    max_classes : int, default=1000
    min_rows : int, default=10

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        Too large, empty, unparsable, ragged, non-numeric, NaN/inf, < 2 or > ``max_classes``
        classes, fewer than ``min_rows`` rows.

    Examples
    --------
    >>> ds = read_upload(b"a,b,label\\n" + b"1,2,0\\n3,4,1\\n" * 5, "tiny.csv")
    >>> ds.name, ds.X.shape, ds.meta["class_counts"]
    ('upload:tiny.csv', (10, 2), {0: 5, 1: 5})
    >>> ds = read_upload(b"+1 1:0.5 3:1\\n-1 2:2\\n" * 5, "tiny.svm")
    >>> ds.X.shape, sorted(ds.meta["class_counts"])
    ((10, 3), [-1, 1])
    """
    if fmt not in ("auto", "csv", "svmlight"):
        raise ValueError(f"fmt must be 'auto', 'csv' or 'svmlight', got {fmt!r}")
    raw = _read_bytes(data, filename, max_bytes)
    lower = filename.lower()
    if lower.endswith(".gz") or lower.endswith(".bz2"):
        raw = _decompress(raw, filename, max_bytes)
        lower = lower.rsplit(".", 1)[0]
    if not raw.strip():
        raise ValueError(f"{filename} is empty")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    if fmt == "auto":
        if lower.endswith((".csv", ".tsv")):
            fmt = "csv"
        elif lower.endswith((".svm", ".libsvm", ".svmlight")):
            fmt = "svmlight"
        else:
            fmt = _sniff(text)
    if fmt == "svmlight":
        X, y, how = _parse_svmlight(raw, filename)
    else:
        delimiter = "\t" if lower.endswith(".tsv") or _first_line(text).count("\t") else ","
        X, y, how = _parse_csv(text, filename, delimiter, label_column)
    y = _labels(y, filename, max_classes)
    n, d = X.shape
    if n < min_rows:
        raise ValueError(f"{filename} has {n} rows; at least {min_rows} are needed")
    if d < 1:
        raise ValueError(f"{filename} has no feature columns (only labels)")
    if d > MAX_FEATURES:
        raise ValueError(f"{filename} has {d} features; at most {MAX_FEATURES} are supported")
    values = X.data if sp.issparse(X) else X
    if not np.all(np.isfinite(values)):
        bad = np.flatnonzero(~np.isfinite(values.ravel()))
        where = (
            "" if sp.issparse(X) else f" (first at row {bad[0] // d + 1}, feature {bad[0] % d + 1})"
        )
        raise ValueError(f"{filename} has {bad.size} NaN or infinite feature values{where}")
    card = {
        "title": f"Uploaded file {filename}",
        "source": "uploaded by the user",
        "url": "upload",
        "licence": "unknown (the uploader's data)",
        "notes": how,
        "format": fmt,
    }
    return make_dataset(f"upload:{filename}", X, y, card)


def _read_bytes(data, filename: str, max_bytes: int) -> bytes:
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
    elif hasattr(data, "read"):
        raw = data.read(max_bytes + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
    else:
        raise ValueError(f"upload {filename}: expected bytes or a binary file, got {type(data)}")
    if len(raw) > max_bytes:
        raise ValueError(f"{filename} is larger than the limit of {max_bytes / 2**20:.0f} MiB")
    return raw


def _decompress(raw: bytes, filename: str, max_bytes: int) -> bytes:
    opener = gzip.open if filename.lower().endswith(".gz") else bz2.open
    try:
        with opener(io.BytesIO(raw), "rb") as f:
            out = f.read(max_bytes + 1)
    except (OSError, EOFError, ValueError, zlib.error) as exc:
        raise ValueError(f"{filename} could not be decompressed: {exc}") from exc
    if len(out) > max_bytes:
        raise ValueError(
            f"{filename} decompresses to more than the limit of {max_bytes / 2**20:.0f} MiB"
        )
    return out


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return line
    return ""


def _sniff(text: str) -> str:
    return "svmlight" if _SVMLIGHT_LINE.match(_first_line(text)) else "csv"


def _parse_svmlight(raw: bytes, filename: str):
    try:
        X, y = load_svmlight_file(io.BytesIO(raw), dtype=np.float64)
    except (ValueError, IndexError, TypeError, RuntimeError) as exc:
        raise ValueError(
            f"{filename} could not be parsed as LIBSVM/svmlight ('label index:value ...' per "
            f"line): {exc}"
        ) from exc
    how = "LIBSVM/svmlight format (indices base detected automatically); CSR matrix."
    return X.tocsr(), y, how


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _looks_like_header(rows: list[list[str]]) -> bool:
    """A header: the first row has a non-numeric cell above a numeric one (or is the only
    row, or is all text while the second row is not)."""
    first = [_is_number(c) for c in rows[0]]
    if all(first):
        return False
    if len(rows) == 1:
        return True
    second = [_is_number(c) for c in rows[1]]
    return any(not a and b for a, b in zip(first, second))


def _parse_csv(text: str, filename: str, delimiter: str, label_column):
    try:
        rows = [
            row
            for row in csv.reader(io.StringIO(text), delimiter=delimiter)
            if any(cell.strip() for cell in row)
        ]
    except csv.Error as exc:
        raise ValueError(f"{filename} could not be parsed as CSV: {exc}") from exc
    if not rows:
        raise ValueError(f"{filename} is empty")
    header = None
    if _looks_like_header(rows):
        header, rows = [c.strip() for c in rows[0]], rows[1:]
    if not rows:
        raise ValueError(f"{filename} has a header but no data rows")
    width = len(header) if header is not None else len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            line = i + 1 + (header is not None)
            raise ValueError(
                f"{filename}: row {line} has {len(row)} cells but "
                f"{'the header has' if header is not None else 'row 1 has'} {width} (ragged rows)"
            )
    if width < 2:
        raise ValueError(f"{filename} needs a label column and at least one feature column")
    j = _label_index(label_column, header, width, filename)
    cells = np.array(rows, dtype=str)
    y = np.char.strip(cells[:, j])
    features = np.delete(cells, j, axis=1)
    names = None if header is None else [h for k, h in enumerate(header) if k != j]
    try:
        X = np.char.strip(features).astype(np.float64)
    except ValueError:
        X = None
    if X is None:
        for r, row in enumerate(features):
            for c, cell in enumerate(row):
                if not _is_number(cell):
                    col = names[c] if names else f"feature {c + 1}"
                    what = (
                        "an empty cell" if not cell.strip() else f"non-numeric value {str(cell)!r}"
                    )
                    raise ValueError(
                        f"{filename}: {what} at row {r + 1 + (header is not None)}, column "
                        f"{col!r}; features must be numbers"
                    )
    label_name = header[j] if header is not None else f"column {j + 1} of {width}"
    how = (
        f"CSV ({'tab' if delimiter == chr(9) else 'comma'}-separated, "
        f"{'with' if header is not None else 'without'} header); labels from {label_name!r}, "
        f"{width - 1} numeric feature columns; dense matrix."
    )
    return X, y, how


def _label_index(label_column, header, width: int, filename: str) -> int:
    if label_column is None:
        if header is not None:
            for k, h in enumerate(header):
                if h.lower() in LABEL_NAMES:
                    return k
        return width - 1
    if isinstance(label_column, str):
        if header is None:
            raise ValueError(
                f"{filename} has no header row, so label_column={label_column!r} "
                "cannot be found; pass a column position (0 or -1)"
            )
        if label_column not in header:
            raise ValueError(f"{filename} has no column {label_column!r}; columns: {header}")
        return header.index(label_column)
    k = int(label_column)
    if not -width <= k < width:
        raise ValueError(f"label_column={k} is outside the {width} columns of {filename}")
    return k % width


def _labels(y: np.ndarray, filename: str, max_classes: int) -> np.ndarray:
    y = np.asarray(y)
    if y.dtype.kind in "US":
        if np.any(np.char.str_len(y) == 0):
            raise ValueError(f"{filename} has rows with an empty label")
        try:
            numeric = y.astype(np.float64)
        except ValueError:
            numeric = None
    else:
        numeric = y.astype(np.float64)
    if numeric is not None:
        if not np.all(np.isfinite(numeric)):
            raise ValueError(f"{filename} has NaN or infinite labels")
        integral = np.all(numeric == np.round(numeric))
        y = numeric.astype(np.int64) if integral else numeric
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(
            f"{filename} has a single class ({classes[0]!r}); a classifier needs at least 2"
        )
    if classes.size > max_classes:
        hint = (
            " (the labels look continuous: is this a regression target?)"
            if numeric is not None and y.dtype.kind == "f"
            else ""
        )
        raise ValueError(
            f"{filename} has {classes.size} classes; at most {max_classes} are supported{hint}"
        )
    return y
