"""Uploads: good svmlight and CSV files parse to the values written; every bad input is a
ValueError that says what is wrong."""

from __future__ import annotations

import bz2
import gzip
import io

import numpy as np
import pytest
import scipy.sparse as sp

from olearn.datasets import read_upload


def _csv(rows, header=None) -> bytes:
    lines = ([",".join(header)] if header else []) + [",".join(map(str, r)) for r in rows]
    return ("\n".join(lines) + "\n").encode()


ROWS = [[0.5 * i, -1.25 * i, i % 3] for i in range(12)]  # two features, label last


def test_csv_with_header_label_named_anywhere():
    rows = [[r[2], r[0], r[1]] for r in ROWS]
    ds = read_upload(_csv(rows, ["Class", "a", "b"]), "data.csv")
    np.testing.assert_array_equal(ds.X, np.array([[r[0], r[1]] for r in ROWS]))
    np.testing.assert_array_equal(ds.y, [r[2] for r in ROWS])
    assert ds.name == "upload:data.csv" and ds.y.dtype == np.int64
    assert "'Class'" in ds.meta["notes"]


def test_csv_without_header_label_last_or_chosen():
    ds = read_upload(_csv(ROWS), "plain.csv")
    np.testing.assert_array_equal(ds.X, np.array([r[:2] for r in ROWS]))
    np.testing.assert_array_equal(ds.y, [r[2] for r in ROWS])
    first = read_upload(_csv([[r[2], r[0], r[1]] for r in ROWS]), "first.csv", label_column=0)
    np.testing.assert_array_equal(first.y, [r[2] for r in ROWS])
    named = read_upload(_csv(ROWS, ["a", "b", "c"]), "named.csv", label_column="a")
    np.testing.assert_array_equal(named.y, [r[0] for r in ROWS])  # 0.5*i: non-integral
    assert named.y.dtype.kind == "f"


def test_csv_string_labels_tsv_and_compressed():
    rows = [[1.0, 2.0, "cat" if i % 2 else "dog"] for i in range(10)]
    ds = read_upload(_csv(rows, ["x1", "x2", "label"]), "pets.csv")
    assert ds.meta["class_counts"] == {"cat": 5, "dog": 5}
    tsv = _csv(rows).replace(b",", b"\t")
    assert read_upload(tsv, "pets.tsv").meta["class_counts"] == {"cat": 5, "dog": 5}
    assert read_upload(gzip.compress(_csv(ROWS)), "p.csv.gz").X.shape == (12, 2)
    assert read_upload(io.BytesIO(bz2.compress(_csv(ROWS))), "p.csv.bz2").X.shape == (12, 2)


def test_svmlight_good():
    lines = [
        f"{1 if i % 2 else -1} 1:{i} 4:0.5" if i % 3 else f"{1 if i % 2 else -1} 2:7"
        for i in range(12)
    ]
    ds = read_upload("\n".join(lines).encode(), "train.libsvm")
    assert sp.issparse(ds.X) and ds.X.shape == (12, 4)  # 1-based indices detected
    assert ds.X[1, 0] == 1 and ds.X[1, 3] == 0.5 and ds.X[0, 1] == 7
    assert ds.meta["class_counts"] == {-1: 6, 1: 6}
    # the format is sniffed when the name says nothing
    assert read_upload("\n".join(lines).encode(), "train.txt").meta["format"] == "svmlight"


@pytest.mark.parametrize(
    ("content", "name", "kwargs", "message"),
    [
        (b"", "empty.csv", {}, "empty"),
        (b"\n  \n", "blank.svm", {}, "empty"),
        (b"a,b,label\n", "header-only.csv", {}, "no data rows"),
        (_csv(ROWS) + b"1,2\n", "ragged.csv", {}, "row 13 has 2 cells"),
        (_csv(ROWS, ["a", "b", "y"]) + b"1,2,3,4\n", "ragged2.csv", {}, "row 14 has 4 cells"),
        (_csv(ROWS[:-1] + [["x", 1, 1]]), "text.csv", {}, "non-numeric value 'x' at row 12"),
        (_csv(ROWS[:-1] + [["", 1, 1]]), "hole.csv", {}, "empty cell at row 12"),
        (_csv(ROWS[:-1] + [["nan", 1, 1]]), "nan.csv", {}, "NaN or infinite"),
        (_csv(ROWS[:-1] + [["inf", 1, 1]]), "inf.csv", {}, "NaN or infinite"),
        (b"1 1:nan 2:1\n-1 1:1\n" * 6, "nan.svm", {}, "NaN or infinite"),
        (_csv([[i, 1.0, 0] for i in range(12)]), "one.csv", {}, "single class"),
        (
            _csv([[i, 1.0, i] for i in range(12)]),
            "many.csv",
            {"max_classes": 10},
            "more than 10",
        ),
        (_csv(ROWS[:5]), "few.csv", {}, "5 rows; at least 10"),
        (_csv([[1], [2]]), "onecol.csv", {}, "at least one feature"),
        (b"1 1:2 x:3\n" * 12, "bad.svm", {}, "could not be parsed as LIBSVM"),
        (b"\x1f\x8b\x08 not really gzip", "broken.csv.gz", {}, "could not be decompressed"),
        (_csv(ROWS, ["a", "b", "c"]), "h.csv", {"label_column": "label"}, "no column 'label'"),
        (_csv(ROWS), "plain.csv", {"label_column": "label"}, "has no header row"),
        (_csv(ROWS), "plain.csv", {"label_column": 5}, "outside the 3 columns"),
        (_csv(ROWS), "big.csv", {"max_bytes": 20}, "larger than the limit"),
        (gzip.compress(_csv(ROWS * 50)), "bomb.csv.gz", {"max_bytes": 2000}, "decompresses"),
    ],
)
def test_bad_uploads(content, name, kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        read_upload(content, name, **kwargs)


def test_file_like_over_the_limit_is_not_read_whole():
    class Endless(io.RawIOBase):
        served = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            n = len(buffer)
            buffer[:n] = b"1" * n
            self.served += n
            return n

    stream = Endless()
    with pytest.raises(ValueError, match="larger than the limit"):
        read_upload(io.BufferedReader(stream), "endless.csv", max_bytes=1000)
    assert stream.served < 100_000


def test_bad_arguments():
    with pytest.raises(ValueError, match="fmt"):
        read_upload(_csv(ROWS), "x.csv", fmt="excel")
    with pytest.raises(ValueError, match="expected bytes"):
        read_upload(12, "x.csv")
