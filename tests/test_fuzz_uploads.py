"""Fuzzing uploads: every input ends in a correct Dataset or a ValueError (issue 12).

Random bytes, structured CSV and svmlight files (random delimiters, headers, line endings,
huge integer labels, comments) whose parse is checked value by value, and structured files
with random byte edits.  Issue 22: CSV files in random encodings (UTF-8 with and without a
BOM, UTF-16/32 with a BOM, UTF-16 without one, cp932) with Japanese labels, delimiters
including ``|``, ``#`` comment lines anywhere, a ``y`` column beside ``label``, and zero,
one or two layers of gzip/bzip2 (two: refused), checked value by value, and with edits.
``python -m tests.fuzz_report`` prints the outcome counts.
"""

from __future__ import annotations

import bz2
import codecs
import gzip

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from olearn.datasets.upload import read_upload
from tests.fuzz_support import FUZZ, record

NAMES = ("data.csv", "data.tsv", "data.svm", "data.txt", "data", "data.csv.gz")


def _check(ds) -> None:
    """Invariants of any Dataset read_upload returns."""
    n, d = ds.X.shape
    assert n == ds.y.shape[0] >= 10 and d >= 1
    values = ds.X.data if sp.issparse(ds.X) else ds.X
    assert np.isfinite(values).all()
    assert 2 <= ds.meta["n_classes"] <= 1000
    assert ds.y.dtype.kind in "iufU"


def _outcome(suite: str, data: bytes, name: str, **kwargs):
    try:
        ds = read_upload(data, name, **kwargs)
    except ValueError as exc:
        assert str(exc)  # a message, never empty
        record(suite, "ValueError")
        return None
    _check(ds)
    record(suite, "Dataset")
    return ds


@settings(FUZZ, max_examples=500)
@given(data=st.binary(max_size=600), name=st.sampled_from(NAMES))
def test_random_bytes(data, name):
    if name.endswith(".gz"):
        data = gzip.compress(data)
    _outcome("uploads: random bytes", data, name)


_FLOAT = st.floats(allow_nan=False, allow_infinity=False, width=64)
_INT_LABEL = st.integers(min_value=-(2**70), max_value=2**70)
_WORD = st.text(alphabet="abcdefghxyz_", min_size=1, max_size=6)


@st.composite
def csv_files(draw):
    n = draw(st.integers(10, 25))
    d = draw(st.integers(1, 4))
    X = draw(st.lists(st.lists(_FLOAT, min_size=d, max_size=d), min_size=n, max_size=n))
    kind = draw(st.sampled_from([_INT_LABEL, _WORD]))
    pool = draw(st.lists(kind, min_size=2, max_size=5, unique_by=str))
    y = [pool[i % len(pool)] for i in range(n)]
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    header = draw(st.booleans())
    lines = [delimiter.join([f"f{k}" for k in range(d)] + ["label"])] if header else []
    lines += [delimiter.join([repr(v) for v in row] + [str(lab)]) for row, lab in zip(X, y)]
    return (newline.join(lines) + newline).encode(), np.array(X), y


@settings(FUZZ, max_examples=150)
@given(csv_files())
def test_structured_csv_parses_exactly(case):
    data, X, y = case
    ds = _outcome("uploads: structured CSV", data, "data.csv")
    assert ds is not None
    distinct = {str(v) for v in y}
    np.testing.assert_array_equal(ds.X, X)
    assert ds.meta["n_classes"] == len(distinct)  # exact: huge integers never merge
    assert [str(v) for v in ds.y] == [str(v) for v in y]


@st.composite
def svmlight_files(draw):
    n = draw(st.integers(10, 25))
    rows = []
    for _ in range(n):
        idx = sorted(draw(st.sets(st.integers(1, 12), min_size=1, max_size=5)))
        rows.append({i: draw(_FLOAT.filter(lambda v: v != 0)) for i in idx})
    pool = draw(st.lists(_INT_LABEL, min_size=2, max_size=4, unique=True))
    y = [pool[i % len(pool)] for i in range(n)]
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    comment = draw(st.booleans())
    lines = ["# a comment line"] if comment else []
    for lab, row in zip(y, rows):
        pairs = " ".join(f"{i}:{v!r}" for i, v in row.items())
        lines.append(f"{lab:+d} {pairs}" + ("  # trailing" if comment else ""))
    return (newline.join(lines) + newline).encode(), rows, y


@settings(FUZZ, max_examples=150)
@given(svmlight_files())
def test_structured_svmlight_parses_exactly(case):
    data, rows, y = case
    ds = _outcome("uploads: structured svmlight", data, "data.txt")
    assert ds is not None
    width = max(max(r) for r in rows)
    expected = np.zeros((len(rows), width))
    for k, row in enumerate(rows):
        for i, v in row.items():
            expected[k, i - 1] = v
    np.testing.assert_array_equal(ds.X.toarray(), expected)
    assert [int(v) for v in ds.y] == y  # exact beyond 2**53 and int64


@settings(FUZZ, max_examples=300)
@given(
    case=st.one_of(csv_files(), svmlight_files()),
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.binary(min_size=0, max_size=3)), max_size=4),
    name=st.sampled_from(NAMES[:5]),
)
def test_structured_files_with_random_edits(case, edits, name):
    data = bytearray(case[0])
    for position, replacement in edits:
        at = position % (len(data) + 1)
        data[at : at + 1] = replacement
    _outcome("uploads: edited files", bytes(data), name)


_JA_WORD = st.text(alphabet="abxyz犬猫狐ｶﾀ駅ー", min_size=1, max_size=5)
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-be+bom", "utf-32", "utf-16-le", "cp932")
_COMPRESS = {"gzip": (gzip.compress, ".gz"), "bzip2": (bz2.compress, ".bz2")}


def _encode(text: str, encoding: str) -> bytes:
    if encoding == "utf-16-be+bom":
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    return text.encode(encoding)


@st.composite
def encoded_csv_files(draw):
    """``(bytes, name, X, labels, encoding, layers)`` of a CSV as a lecturer's tools write it."""
    n = draw(st.integers(10, 20))
    d = draw(st.integers(1, 3))
    X = draw(st.lists(st.lists(_FLOAT, min_size=d, max_size=d), min_size=n, max_size=n))
    pool = draw(st.lists(_JA_WORD, min_size=2, max_size=4, unique=True))
    y = [pool[i % len(pool)] for i in range(n)]
    delimiter = draw(st.sampled_from([",", ";", "\t", "|"]))
    names = [f"f{k}" for k in range(d)]
    if d >= 2 and draw(st.booleans()):
        names[1] = "y"  # a coordinate called y: the label column must still win
    lines = [delimiter.join([*names, "label"])] if draw(st.booleans()) else []
    lines += [delimiter.join([repr(v) for v in row] + [lab]) for row, lab in zip(X, y)]
    for _ in range(draw(st.integers(0, 3))):  # comment lines anywhere, header included
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(st.sampled_from(["# 作成: Excel", "  # note", "#"])))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    encoding = draw(st.sampled_from(ENCODINGS))
    data = _encode(newline.join(lines) + newline, encoding)
    layers = draw(st.lists(st.sampled_from(sorted(_COMPRESS)), max_size=2))
    name = "data.csv"
    for layer in layers:
        data = _COMPRESS[layer][0](data)
    if layers and draw(st.booleans()):
        name += _COMPRESS[layers[-1]][1]
    return data, name, np.array(X), y, encoding, layers


def _valid_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@settings(FUZZ, max_examples=250)
@given(encoded_csv_files())
def test_encoded_csv_parses_exactly(case):
    data, name, X, y, encoding, layers = case
    suite = "uploads: encodings/delimiters/comments/compression"
    if len(layers) == 2:
        with pytest.raises(ValueError, match=f"compressed twice \\({layers[0]} inside {layers[1]}"):
            read_upload(data, name)
        record(suite, "ValueError: compressed twice")
        return
    ds = read_upload(data, name)
    _check(ds)
    np.testing.assert_array_equal(ds.X, X)
    plain = gzip.decompress(data) if layers == ["gzip"] else data
    plain = bz2.decompress(data) if layers == ["bzip2"] else plain
    if encoding == "cp932" and _valid_utf8(plain):  # e.g. half-width kana pairs: ambiguous
        assert "utf-8" in ds.meta["notes"]
        record(suite, "Dataset (cp932 that is also valid UTF-8: read as UTF-8)")
        return
    assert ds.y.tolist() == y
    record(suite, "Dataset, exact")


@settings(FUZZ, max_examples=200)
@given(
    case=encoded_csv_files(),
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.binary(min_size=0, max_size=3)), max_size=4),
)
def test_encoded_files_with_random_edits(case, edits):
    data = bytearray(case[0])
    for position, replacement in edits:
        at = position % (len(data) + 1)
        data[at : at + 1] = replacement
    _outcome("uploads: encoded files, edited", bytes(data), case[1])
