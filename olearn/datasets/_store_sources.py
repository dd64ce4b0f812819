"""Line sources for :mod:`olearn.datasets.store`: a text file read ``chunk_rows`` data lines
at a time, each group parsed into one CSR chunk.

A source is a file of one example per line (svmlight, CSV, or ``label<TAB>text``); blank
lines and ``#`` comments are skipped.  :func:`line_groups` yields :class:`Group` s: the lines,
their numbers and the byte offset after them (what a resumed conversion seeks to).  Each
parser turns a group into ``(X: csr_matrix, labels: ndarray, label kind)`` and raises
ValueError naming the file and the line on bad input.  What a conversion refuses, where a
later pass would fail without a place or learn something else than the file says:

- a NaN or infinite feature value (training would stop on it, chunks later);
- a feature index scikit-learn's svmlight reader cannot hold (above :data:`INDEX_LIMIT`);
- a CSV whose lines are a single cell (another delimiter: the labels would be whole lines
  and the store would have no feature), or whose later lines have another width;
- labels that cannot all be kept apart as the store's label kind (below).

Labels (the upload parser's reading, :mod:`olearn.datasets.upload`): a label that spells an
integer exactly (``3``, ``+3``, ``3.0``, ``1e20``; at most 100 characters and 100 digits)
is that integer.  A chunk whose labels are all integers within int64 is stored as int64;
integers beyond int64 keep their exact digits as text (``1e20`` and ``-1e20`` stay two
classes, as 10**19 and 3 * 10**19 do in an upload); other CSV / text labels are the stripped
text.  A store's label kind is fixed by its first chunk (a conversion streams), so a later
chunk that cannot be stored as the first was is refused by line; ``labels="str"`` stores text
from the start.
"""

from __future__ import annotations

import decimal
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file

INDEX_LIMIT = 2**31 - 1  # scikit-learn's svmlight reader holds an index in a C int
INT64 = (-(2**63), 2**63 - 1)
_INTEGER = re.compile(r"\s*[+-]?\d+\s*")  # as the upload's
_LONGEST_LABEL = 100  # characters (and digits) of a label read as a number


@dataclass(frozen=True)
class Group:
    """Data lines of one chunk: the raw ``lines``, each line's number in the file, counted
    from byte ``start`` (exact for a fresh conversion, relative to where a resumed one
    started), and ``end``, the byte offset after the group."""

    source: Path
    start: int
    lines: list
    numbers: list
    end: int

    def at(self, k: int) -> str:
        """Where line ``k`` of the group is, for a message."""
        after = f" after byte {self.start}, where the conversion resumed" if self.start else ""
        return f"{self.source}, line {self.numbers[k]}{after}"

    def __str__(self) -> str:
        after = f" after byte {self.start}" if self.start else ""
        return f"{self.source}, data lines {self.numbers[0]}-{self.numbers[-1]}{after}"


def line_groups(path: Path, chunk_rows: int, start: int = 0) -> Iterator[Group]:
    """Groups of ``chunk_rows`` data lines of ``path`` from byte ``start``."""
    lines: list[bytes] = []
    numbers: list[int] = []
    with open(path, "rb") as f:
        f.seek(start)
        offset, number = start, 0
        for raw in f:
            offset += len(raw)
            number += 1
            text = raw.strip()
            if not text or text.startswith(b"#"):
                continue
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"{path}: line {number} is not UTF-8 text") from None
            lines.append(raw)
            numbers.append(number)
            if len(lines) == chunk_rows:
                yield Group(path, start, lines, numbers, offset)
                lines, numbers = [], []
        if lines:
            yield Group(path, start, lines, numbers, offset)


# ----------------------------------------------------------------------------- labels


def exact_integer(token: str) -> int | None:
    """The integer ``token`` spells exactly (``"3"``, ``"+3"``, ``"3.0"``, ``"1e20"``), or
    None (not a number, not integral, or longer than 100 characters or digits).

    >>> [exact_integer(t) for t in ("+3", " 3.0", "1e20", "2.5", "nan", "1e999")]
    [3, 3, 100000000000000000000, None, None, None]
    """
    if len(token) > _LONGEST_LABEL:
        return None
    if _INTEGER.fullmatch(token):
        return int(token)
    try:
        value = decimal.Decimal(token.strip())
    except decimal.InvalidOperation:
        return None
    if not value.is_finite() or value.adjusted() >= _LONGEST_LABEL:
        return None
    return int(value) if value == value.to_integral_value() else None


def _in_int64(value: int) -> bool:
    return INT64[0] <= value <= INT64[1]


def _mismatch(group: Group, k: int, label: str) -> ValueError:
    return ValueError(
        f"{group.at(k)}: label {label[:40]!r} is not an integer within int64, but the store's "
        "first labels were, so they are stored as int64; a store's labels are all int64 or "
        "all text: convert with labels='str' (olearn store convert --labels str)"
    )


def _labels(cells: list[str], kind: str | None, group: Group) -> tuple[np.ndarray, str]:
    """CSV / text labels (module docstring): int64 when every one is an integer within int64
    (and the store's ``kind`` is not "str"), else the text; ``kind`` ("int" / "str" / None:
    no chunk yet) is the store's."""
    value = {c: exact_integer(c) for c in set(cells)}
    if kind != "str" and all(v is not None and _in_int64(v) for v in value.values()):
        return np.array([value[c] for c in cells], dtype=np.int64), "int"
    if kind == "int":
        k = next(k for k, c in enumerate(cells) if value[c] is None or not _in_int64(value[c]))
        raise _mismatch(group, k, cells[k])
    return np.array(cells, dtype=str), "str"


def _svmlight_labels(group: Group, kind: str | None) -> tuple[np.ndarray, str]:
    """Each line's first token, read exactly (scikit-learn reads labels as float64, which
    merges 1e20 with 1e20 + 1 and overflows int64): int64, or the exact digits as text."""
    tokens = [line.split(b"#", 1)[0].split(None, 1)[0].decode() for line in group.lines]
    value = {t: exact_integer(t) for t in set(tokens)}
    bad = next((k for k, t in enumerate(tokens) if value[t] is None), None)
    if bad is not None:
        raise ValueError(
            f"{group.at(bad)}: label {tokens[bad][:40]!r} is not an integer (svmlight class "
            "labels are integers such as 3, -1, +1 or 3.0, of at most 100 digits)"
        )
    ints = [value[t] for t in tokens]
    if kind != "str" and all(_in_int64(v) for v in value.values()):
        return np.array(ints, dtype=np.int64), "int"
    if kind == "int":
        k = next(k for k, v in enumerate(ints) if not _in_int64(v))
        raise _mismatch(group, k, tokens[k])
    return np.array([str(v) for v in ints], dtype=str), "str"


# ----------------------------------------------------------------------------- parsers


def _line_of(X: sp.csr_matrix, p: int) -> int:
    """The row (line of its group) of stored entry ``p`` of X."""
    return int(np.searchsorted(X.indptr, p, side="right")) - 1


def parse_svmlight(group: Group, n_features: int | None, zero_based: bool, kind: str | None):
    """One group of ``label index:value ...`` lines (scikit-learn's parser for the features,
    our exact reading for the labels: module docstring)."""
    y, kind = _svmlight_labels(group, kind)
    try:
        X, _ = load_svmlight_file(
            io.BytesIO(b"".join(group.lines)), dtype=np.float64, zero_based=zero_based
        )
    except OverflowError:
        raise ValueError(_too_large(group)) from None
    except ValueError as err:
        raise ValueError(f"{group}: not LIBSVM/svmlight ('label index:value ...'): {err}") from None
    if X.shape[0] != len(group.lines):
        raise ValueError(f"{group}: {X.shape[0]} rows read from {len(group.lines)} lines")
    base = 0 if zero_based else 1
    if X.nnz and X.indices.min() < 0:
        row = _line_of(X, int(np.argmax(X.indices < 0)))
        raise ValueError(
            f"{group.at(row)}: feature index 0 with zero_based=False (LIBSVM counts from 1)"
        )
    width = X.shape[1] if n_features is None else n_features
    if X.shape[1] > width:
        p = int(np.argmax(X.indices >= width))
        raise ValueError(
            f"{group.at(_line_of(X, p))}: feature index {int(X.indices[p]) + base} is beyond "
            f"n_features={n_features}"
        )
    finite = np.isfinite(X.data)
    if not finite.all():
        p = int(np.argmin(finite))
        raise ValueError(
            f"{group.at(_line_of(X, p))}: feature {int(X.indices[p]) + base} is {X.data[p]}; "
            "a store's values must be finite numbers"
        )
    return _csr(X, width), y, kind


def _too_large(group: Group) -> str:
    """Where the number scikit-learn's reader could not hold is (an index beyond a C int)."""
    for k, line in enumerate(group.lines):
        for token in line.split(b"#", 1)[0].split()[1:]:
            index, colon, _ = token.partition(b":")
            if colon and index.isdigit() and (len(index) > 10 or int(index) > INDEX_LIMIT):
                return (
                    f"{group.at(k)}: feature index {index.decode()[:40]} is beyond "
                    f"{INDEX_LIMIT:,}, the largest a store takes (scikit-learn's svmlight "
                    "reader holds an index in 32 bits); renumber the features"
                )
    return f"{group}: a number too large for scikit-learn's svmlight reader (beyond 32 bits)"


def parse_csv(
    group: Group, label_column: int, delimiter: str, kind: str | None, n_features: int | None
):
    """One group of CSV rows: numbers, the label in column ``label_column``; every row with
    the cells of the store's first (``n_features`` + 1 once a chunk is stored)."""
    rows = [line.decode("utf-8").rstrip("\r\n").split(delimiter) for line in group.lines]
    width = len(rows[0]) if n_features is None else n_features + 1
    for k, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(
                f"{group.at(k)} has {len(row)} cells, the file's first data line {width}"
            )
    if width < 2:
        raise ValueError(
            f"{group.at(0)} is a single cell with delimiter {delimiter!r}: a CSV store needs a "
            f"label and at least one feature{_other_delimiter(group, delimiter)}"
        )
    if not -width <= label_column < width:
        raise ValueError(f"{group}: label_column={label_column} but rows have {width} cells")
    column = label_column % width
    from olearn._budget import require

    require(len(rows) * width * 8, f"{group}: a CSV chunk of {len(rows):,} x {width:,} numbers "
            "(read dense; a smaller chunk_rows needs less)")  # fmt: skip
    labels = [row.pop(column).strip() for row in rows]
    try:
        dense = np.array(rows, dtype=np.float64)
    except ValueError:
        raise ValueError(_not_a_number(group, rows, column, delimiter)) from None
    finite = np.isfinite(dense)
    if not finite.all():
        k, c = np.argwhere(~finite)[0]
        raise ValueError(
            f"{group.at(int(k))}, column {c + (c >= column) + 1}: {rows[k][c].strip()!r} is "
            "NaN or infinite; a store's values must be finite numbers"
        )
    y, kind = _labels(labels, kind, group)
    return sp.csr_matrix(dense), y, kind


def _not_a_number(group: Group, rows: list, column: int, delimiter: str) -> str:
    for k, row in enumerate(rows):
        for c, cell in enumerate(row):
            try:
                float(cell)
            except ValueError:
                where = f"{group.at(k)}, column {c + (c >= column) + 1}"
                return (
                    f"{where}: {cell.strip()[:40]!r} is not a number (a header? comment it "
                    f"with #){_other_delimiter(group, delimiter)}"
                )
    return f"{group}: a feature is not a number"


def _other_delimiter(group: Group, delimiter: str) -> str:
    """A hint naming the delimiter the upload parser would sniff, when it is another one."""
    from olearn.datasets._decode import DELIMITER_NAMES, sniff_delimiter

    sample = b"".join(group.lines[:20])
    found = sniff_delimiter(sample)
    cells = len(group.lines[0].decode("utf-8").split(found))
    if found == delimiter or cells < 2:
        return ""
    return (
        f"; the {DELIMITER_NAMES[found]} ({found!r}) splits the lines into {cells} cells: "
        f"convert with delimiter={found!r} (--delimiter {DELIMITER_NAMES[found]})"
    )


def parse_texts(group: Group, n_features: int, japanese: bool, kind: str | None):
    """One group of ``label<TAB>text`` lines, hashed (:func:`olearn.datasets.hashed.hash_texts`)."""
    from olearn.datasets.hashed import hash_texts

    labels, texts = [], []
    for k, line in enumerate(group.lines):
        label, tab, text = line.decode("utf-8").rstrip("\r\n").partition("\t")
        if not tab:
            raise ValueError(f"{group.at(k)} has no TAB (expected 'label<TAB>text')")
        labels.append(label.strip())
        texts.append(text)
    y, kind = _labels(labels, kind, group)
    return hash_texts(texts, japanese, n_features), y, kind


def _csr(X, width: int) -> sp.csr_matrix:
    X = sp.csr_matrix((X.data, X.indices, X.indptr), shape=(X.shape[0], width))
    X.sum_duplicates()  # canonical: sorted indices, no duplicates
    return X
