"""Read a user's uploaded file (LIBSVM/svmlight or CSV) into a validated :class:`Dataset`.

Rules (every violation is a ``ValueError`` that says what is wrong and where: row and line,
column):

- opening and decoding (:mod:`olearn.datasets._decode`, the one place for it): size at most
  ``max_bytes`` (50 MiB) as uploaded and after decompression; one layer of gzip/bzip2
  undone (recognised by content), nested compression, ZIP and Excel files refused; the
  encoding from a byte-order mark (UTF-8, UTF-16, UTF-32), else UTF-8, else cp932
  (Shift-JIS), else Latin-1, or ``encoding=``; line endings ``\\n``, ``\\r\\n`` or ``\\r``;
  lines starting with ``#`` are comments;
- format: ``fmt="auto"`` reads ``.csv``/``.tsv`` as CSV, ``.svm``/``.libsvm``/``.svmlight`` as
  svmlight, and anything else as svmlight if its first data line looks like
  ``label index:value ...``, else as CSV;
- svmlight: scikit-learn's ``load_svmlight_file`` (indices 0- or 1-based, detected), CSR;
  feature indices at most ``max_features``;
- CSV: the delimiter is sniffed among tab, ``;``, ``,`` and ``|`` (the first, in that order,
  that splits the first lines into the same number (> 1) of cells; ``.tsv``: tab); a header
  row is recognised when the first row has a non-numeric cell above a numeric one (so a text
  label column alone does not make a header); the label column is ``label_column`` (a header
  name, or a position such as 0 or -1) or, by default, the header column named ``label``,
  ``class``, ``target`` or ``y`` (any case; the first of these names that is there, so
  ``x,y,label`` takes ``label``), else the **last** column; every
  other column is a numeric feature (dense float64); all rows have the same number of cells;
- values: no missing cells, no NaN or infinity;
- labels, exact: integers when every label is an integral number (int64; integers beyond
  int64 keep their exact decimal digits as strings, so 10**19 and 3 * 10**19 stay two
  classes), floats when they are other numbers (strings if float64 would merge two of
  them), else the stripped strings (also when a label is a numeral of more than 100 digits,
  written out or as an exponent such as ``1e9999999``); at least 2 classes, at most
  ``max_classes`` (1000);
- rows: at least ``min_rows`` (10, the fold count of the seed-000 protocol);
  features: at least 1, at most ``max_features`` (2^24).

Memory: the file is parsed as a stream (one row at a time, features straight into a float64
buffer, labels as small integer codes of at most ``max_classes`` distinct strings), so the
peak memory of :func:`read_upload` is at most ``MEMORY_FACTOR`` (32) times the (decompressed)
file size plus 2 MiB.  The terms: 8 bytes per number, where each number takes at least 2
bytes of the file (<= 4x); 4 bytes per row code and 8 per int64 label (<= 3x, a row takes
at least 4 bytes); string labels only while ``rows x longest label`` stays within the file
size + 256 Ki characters (else a ValueError; <= 4x + 1 MiB); one copy of the text (line
endings; text not in UTF-8 is transcoded, so its size here is the UTF-8 one, at most twice
the file); and the rows being parsed (the first two, for the header test, then one at a
time) as Python strings, at most ~23 bytes per byte of those rows (2-character cells).
Cells beyond 128 KiB are refused by the CSV reader.  ``tests/test_datasets_reliability.py``
measures the peak with ``tracemalloc`` on adversarial files (5-25x).
"""

from __future__ import annotations

import array
import csv
import decimal
import io
import math
import re

import numpy as np
import scipy.sparse as sp

from olearn.datasets._base import Dataset, make_dataset
from olearn.datasets._decode import (
    DELIMITER_NAMES,
    MAX_BYTES,
    csv_lines,
    data_lines,
    open_upload,
    sniff_delimiter,
)

MAX_CLASSES = 1000
MAX_FEATURES = 2**24
MIN_ROWS = 10
MEMORY_FACTOR = 32  # peak bytes <= MEMORY_FACTOR * file size + MEMORY_SLACK (docstring)
MEMORY_SLACK = 2 * 2**20
LABEL_NAMES = ("label", "class", "target", "y")  # by priority: x,y,label takes label
_SVMLIGHT_LINE = re.compile(r"^\s*[^\s:#]+(\s+(qid:\S+\s+)?\d+:\S+)+\s*(#.*)?$")
_INTEGER = re.compile(r"\s*[+-]?\d+\s*")


def read_upload(
    data,
    filename: str,
    *,
    max_bytes: int = MAX_BYTES,
    label_column: str | int | None = None,
    fmt: str = "auto",
    max_classes: int = MAX_CLASSES,
    min_rows: int = MIN_ROWS,
    encoding: str | None = None,
) -> Dataset:
    """Parse and validate an uploaded svmlight or CSV file (rules in the module docstring).

    Peak memory is bounded by ``MEMORY_FACTOR`` (32) x the (decompressed) file size + 2 MiB.

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
    encoding : str, optional
        Decode the text with this codec instead of detecting it (e.g. ``"latin-1"`` for a
        file the detection reads as cp932).

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        Too large, empty, compressed twice, not text, unparsable, ragged, non-numeric,
        NaN/inf, < 2 or > ``max_classes`` classes, fewer than ``min_rows`` rows; the message
        names the row/line and column.

    Examples
    --------
    >>> ds = read_upload(b"a,b,label\\n" + b"1,2,0\\n3,4,1\\n" * 5, "tiny.csv")
    >>> ds.name, ds.X.shape, ds.meta["class_counts"]
    ('upload:tiny.csv', (10, 2), {0: 5, 1: 5})
    >>> ds = read_upload(b"+1 1:0.5 3:1\\n-1 2:2\\n" * 5, "tiny.svm")
    >>> ds.X.shape, sorted(ds.meta["class_counts"])
    ((10, 3), [-1, 1])
    >>> read_upload(b"a;b;y\\r1,5;2;x\\r3;4;z\\r" * 5, "eu.csv")
    Traceback (most recent call last):
    ...
    ValueError: eu.csv: non-numeric value '1,5' at row 2, column 'a' (a decimal comma? use '.'); features must be numbers
    """  # noqa: E501
    if fmt not in ("auto", "csv", "svmlight"):
        raise ValueError(f"fmt must be 'auto', 'csv' or 'svmlight', got {fmt!r}")
    text = open_upload(data, filename, max_bytes=max_bytes, encoding=encoding)
    raw, lower = text.data, text.name
    if fmt == "auto":
        if lower.endswith((".csv", ".tsv")):
            fmt = "csv"
        elif lower.endswith((".svm", ".libsvm", ".svmlight")):
            fmt = "svmlight"
        else:
            fmt = _sniff(raw)
    if fmt == "svmlight":
        X, codes, classes, how = _parse_svmlight(raw, filename, max_classes)
    else:
        delimiter = "\t" if lower.endswith(".tsv") else sniff_delimiter(raw)
        X, codes, classes, how = _parse_csv(raw, filename, delimiter, label_column, max_classes)
    y = _labels(codes, classes, filename, max_classes, len(raw))
    n, d = X.shape
    if n < min_rows:
        raise ValueError(f"{filename} has {n} rows; at least {min_rows} are needed")
    if d < 1:
        raise ValueError(f"{filename} has no feature columns (only labels)")
    if d > MAX_FEATURES:
        raise ValueError(f"{filename} has {d} features; at most {MAX_FEATURES} are supported")
    values = X.data if sp.issparse(X) else X.reshape(-1)
    finite = np.isfinite(values)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        where = (
            "" if sp.issparse(X) else f" (first at row {bad[0] // d + 1}, feature {bad[0] % d + 1})"
        )
        raise ValueError(f"{filename} has {bad.size} NaN or infinite feature values{where}")
    del finite
    card = {
        "title": f"Uploaded file {filename}",
        "source": "uploaded by the user",
        "url": "upload",
        "licence": "unknown (the uploader's data)",
        "notes": f"{how} {text.notes}",
        "format": fmt,
    }
    return make_dataset(f"upload:{filename}", X, y, card)


def _sniff(raw: bytes) -> str:
    first = next((line for _, line in data_lines(raw, 1)), "")
    return "svmlight" if _SVMLIGHT_LINE.match(first) else "csv"


# ---------------------------------------------------------------------------- svmlight


def _parse_svmlight(raw: bytes, filename: str, max_classes: int):
    """CSR matrix from scikit-learn's reader; labels taken from our own scan of each line's
    first token (exact: scikit-learn reads them as float64)."""
    codes, classes, n_lines = array.array("i"), {}, 0
    for number, line in data_lines(raw):
        token = line.split("#", 1)[0].split(None, 1)
        if not token:
            continue
        label = token[0]
        _add_label(label, codes, classes, max_classes, filename, f"line {number}")
        n_lines += 1
    if n_lines == 0:
        raise ValueError(
            f"{filename} has no data lines (only comments or blank lines); LIBSVM/svmlight "
            "expects 'label index:value ...' per line"
        )
    # imported here: the Compare page imports this module for MAX_BYTES and a CSV upload
    # reads without it; neither need import scikit-learn (1.4-2 s on 2 cores)
    from sklearn.datasets import load_svmlight_file

    try:
        X, y_float = load_svmlight_file(io.BytesIO(raw), dtype=np.float64)
    except (ValueError, IndexError, TypeError, RuntimeError, OverflowError) as exc:
        problem = _svmlight_problem(raw, filename)  # where, in words
        raise ValueError(
            problem
            or f"{filename} could not be parsed as LIBSVM/svmlight ('label index:value ...' "
            f"per line): {exc}"
        ) from None
    if y_float.shape[0] != len(codes):
        raise ValueError(
            f"{filename} could not be parsed as LIBSVM/svmlight: {y_float.shape[0]} rows read "
            f"but {len(codes)} data lines"
        )
    how = "LIBSVM/svmlight format (indices base detected automatically); CSR matrix."
    return X.tocsr(), codes, classes, how


_PAIR = re.compile(r"(\d+):(\S+)$")


def _svmlight_problem(raw: bytes, filename: str) -> str | None:
    """The first malformed line (its number, the bad pair, its column), or None.

    Checks what scikit-learn's reader reports without a place or not at all: a token that
    is not ``index:value``, an index beyond ``MAX_FEATURES``, a label or value that is not
    a number.
    """
    for number, line in data_lines(raw):
        tokens = line.split("#", 1)[0].split()
        if not tokens:
            continue
        if not _is_number(tokens[0]):
            return (
                f"{filename} could not be parsed as LIBSVM/svmlight: line {number}: label "
                f"{tokens[0][:40]!r} is not a number"
            )
        pos = line.index(tokens[0]) + len(tokens[0])
        for k, token in enumerate(tokens[1:]):
            start = line.index(token, pos)
            pos = start + len(token)
            if k == 0 and token.startswith("qid:"):
                continue
            match = _PAIR.match(token)
            where = (
                f"{filename} could not be parsed as LIBSVM/svmlight: line {number}, "
                f"column {start + 1}"
            )
            if match is None or not _is_number(match.group(2)):
                return (
                    f"{where}: {token[:40]!r} is not an 'index:value' pair "
                    "(LIBSVM/svmlight: 'label index:value ...' per line)"
                )
            if len(match.group(1)) > 9 or int(match.group(1)) > MAX_FEATURES:
                return (
                    f"{where}: feature index {match.group(1)[:40]} is larger than the "
                    f"{MAX_FEATURES} supported"
                )
    return None


# ---------------------------------------------------------------------------- CSV


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


def _csv_rows(raw: bytes, delimiter: str, filename: str):
    """``(row number, line number, cells)`` of the non-blank, non-comment rows, streamed."""
    reader = csv.reader(csv_lines(raw), delimiter=delimiter)
    number = 0
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                number += 1
                yield number, reader.line_num, row
    except csv.Error as exc:
        raise ValueError(
            f"{filename} could not be parsed as CSV at line {reader.line_num + 1}: {exc}"
        ) from None


def _parse_csv(raw: bytes, filename: str, delimiter: str, label_column, max_classes: int):
    rows = _csv_rows(raw, delimiter, filename)
    head = _take(rows, 2)
    if not head:
        raise ValueError(f"{filename} is empty")
    header = None
    if _looks_like_header([row for _, _, row in head]):
        header = [c.strip() for c in head[0][2]]
    width = len(header) if header is not None else len(head[0][2])
    body = head[1:] if header is not None else head
    del head  # the rows live on only in ``body``, which the loop empties as it goes
    if width < 2:
        raise ValueError(
            f"{filename} has a single column: no tab, ';', ',' or '|' splits its first lines "
            "into the same number of cells. A CSV needs a label column and at least one "
            "feature column, separated by one of these"
        )
    j = _label_index(label_column, header, width, filename)
    names = None if header is None else [h for k, h in enumerate(header) if k != j]
    features = array.array("d")
    codes, classes = array.array("i"), {}
    for number, line, row in _chain(body, rows):
        where = f"row {number}" if number == line else f"row {number} (line {line})"
        if len(row) != width:
            raise ValueError(
                f"{filename}: {where} has {len(row)} cells but "
                f"{'the header has' if header is not None else 'row 1 has'} {width} (ragged rows)"
            )
        _add_label(row.pop(j).strip(), codes, classes, max_classes, filename, where)
        try:
            features.extend(map(float, row))  # the row minus its label, in place
        except ValueError:
            _raise_cell(row, names, filename, where)
    n = len(codes)
    if n == 0:
        raise ValueError(f"{filename} has a header but no data rows")
    X = np.frombuffer(features, dtype=np.float64).reshape(n, width - 1)  # no copy, writable
    label_name = header[j] if header is not None else f"column {j + 1} of {width}"
    how = (
        f"CSV ({DELIMITER_NAMES.get(delimiter, repr(delimiter))}-separated, "
        f"{'with' if header is not None else 'without'} header); labels from {label_name!r}, "
        f"{width - 1} numeric feature columns; dense matrix."
    )
    return X, codes, classes, how


def _take(iterator, k: int) -> list:
    out = []
    for item in iterator:
        out.append(item)
        if len(out) == k:
            break
    return out


def _chain(first: list, rest):
    """``first``'s items (removed from it as they are yielded, so no row is held twice),
    then ``rest``'s."""
    while first:
        yield first.pop(0)
    yield from rest


def _raise_cell(cells: list[str], names, filename: str, where: str) -> None:
    for c, cell in enumerate(cells):
        if not _is_number(cell):
            col = names[c] if names else f"feature {c + 1}"
            if not cell.strip():
                what = "an empty cell"
            else:
                what = f"non-numeric value {cell.strip()[:40]!r}"
            hint = " (a decimal comma? use '.')" if re.fullmatch(r"\s*-?\d+,\d+\s*", cell) else ""
            raise ValueError(
                f"{filename}: {what} at {where}, column {col!r}{hint}; features must be numbers"
            )


def _label_index(label_column, header, width: int, filename: str) -> int:
    if label_column is None:
        lowered = [h.lower() for h in header or ()]
        for name in LABEL_NAMES:  # by priority, not by position
            if name in lowered:
                return lowered.index(name)
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


# ---------------------------------------------------------------------------- labels


def _add_label(
    label: str, codes: array.array, classes: dict, max_classes: int, filename: str, where: str
) -> None:
    """Append the code of ``label``; at most ``max_classes`` distinct strings are kept."""
    if not label:
        raise ValueError(f"{filename} has an empty label at {where}")
    code = classes.get(label)
    if code is None:
        if len(classes) >= max_classes:
            numeric = all(_is_number(c) for c in classes)
            hint = " (the labels look continuous: is this a regression target?)" if numeric else ""
            raise ValueError(
                f"{filename} has more than {max_classes} classes (the {max_classes + 1}th "
                f"distinct label is at {where}); at most {max_classes} are supported{hint}"
            )
        code = classes[label] = len(classes)
    codes.append(code)


def _label_values(names: list[str], filename: str) -> np.ndarray:
    """The value of each distinct label string, exactly (module docstring)."""
    if any(len(s) > 100 for s in names):  # no arithmetic on giant numerals: keep the text
        return np.array(names, dtype=str)
    if all(_INTEGER.fullmatch(s) for s in names):
        ints = [int(s) for s in names]
    else:
        try:
            exact = [decimal.Decimal(s.strip()) for s in names]
        except decimal.InvalidOperation:
            return np.array(names, dtype=str)
        if not all(v.is_finite() for v in exact):
            raise ValueError(f"{filename} has NaN or infinite labels")
        if any(v.adjusted() > 100 for v in exact):  # 1e9999999: its digits would never end
            return np.array(names, dtype=str)
        if not all(v == v.to_integral_value() for v in exact):
            floats = [float(v) for v in exact]
            if not all(math.isfinite(f) for f in floats):
                raise ValueError(f"{filename} has labels too large for a float: {names[:3]}")
            if len(set(floats)) < len(set(exact)):  # float64 would merge two labels
                return np.array([str(v) for v in exact], dtype=str)
            return np.array(floats, dtype=np.float64)
        ints = [int(v) for v in exact]
    if all(-(2**63) <= v < 2**63 for v in ints):
        return np.array(ints, dtype=np.int64)
    return np.array([str(v) for v in ints], dtype=str)  # exact digits beyond int64


def _labels(
    codes: array.array, classes: dict, filename: str, max_classes: int, n_bytes: int
) -> np.ndarray:
    names = list(classes)  # in code order
    values = _label_values(names, filename)
    n = len(codes)
    # a fixed-width str array costs 4 bytes x longest label per row: keep it <= 4 x the
    # file + 1 MiB (module docstring)
    if values.dtype.kind == "U" and n * (values.dtype.itemsize // 4) > n_bytes + 2**18:
        raise ValueError(
            f"{filename}: its {n} rows with labels up to {values.dtype.itemsize // 4} "
            "characters long would take more memory than the file; shorten the labels"
        )
    y = values[np.frombuffer(codes, dtype=np.int32)]
    n_classes = np.unique(values).size
    if n_classes < 2:
        raise ValueError(
            f"{filename} has a single class ({names[0]!r}); a classifier needs at least 2"
        )
    if n_classes > max_classes:
        raise ValueError(f"{filename} has {n_classes} classes; at most {max_classes} are supported")
    return y
