"""Uploads: label column by name priority, legacy encodings, `|` delimiters, comment lines,
nested compression (issue 22, items 4 and 8 and the unclear upload errors).

Expected values come from the text written, not from a parse: each file is built from
Python rows and encoded with Python's codecs."""

from __future__ import annotations

import bz2
import gzip
import io
import tarfile
import zipfile

import numpy as np
import pytest

from olearn.datasets.upload import read_upload

COORDS = [(i, 10 * i + 1) for i in range(12)]


def _text(header: str | None, labels, sep: str = ",") -> str:
    lines = [header] if header else []
    lines += [sep.join([str(x), str(y), str(lab)]) for (x, y), lab in zip(COORDS, labels)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", ["label", "class", "Target", "LABEL"])
def test_an_explicit_label_column_wins_over_y(name):
    """Before: ``y`` (a coordinate) was the label because it comes first."""
    labels = [i % 3 for i in range(12)]
    ds = read_upload(_text(f"x,y,{name}", labels).encode(), "xy.csv")
    np.testing.assert_array_equal(ds.X, np.array(COORDS, dtype=float))
    np.testing.assert_array_equal(ds.y, labels)
    assert f"labels from {name!r}" in ds.meta["notes"]


def test_string_class_labels_beside_a_y_column():
    """Before: refused with a "non-numeric feature" message about the class column."""
    labels = ["cat", "dog"] * 6
    ds = read_upload(_text("x,y,class", labels).encode(), "xy.csv")
    np.testing.assert_array_equal(ds.X, np.array(COORDS, dtype=float))
    assert ds.y.tolist() == labels


def test_y_is_still_the_label_when_nothing_else_is_named():
    ds = read_upload(b"a,b,y\n" + b"1,2,0\n3,4,1\n" * 6, "ab.csv")
    assert ds.X.shape == (12, 2) and sorted(ds.meta["class_counts"]) == [0, 1]


LABELS_JA = ["犬", "猫", "ｶﾀｶﾅ", "きつね"] * 3


@pytest.mark.parametrize(
    ("codec", "bom", "seen"),
    [
        ("cp932", b"", "cp932 (Shift-JIS)"),  # before: mojibake labels (Latin-1)
        ("utf-8", b"\xef\xbb\xbf", "utf-8 (BOM)"),
        ("utf-16-le", b"\xff\xfe", "utf-16-le (BOM)"),  # before: "non-numeric value 'ÿþa'"
        ("utf-16-be", b"\xfe\xff", "utf-16-be (BOM)"),
        ("utf-32-le", b"\xff\xfe\x00\x00", "utf-32-le (BOM)"),
        ("utf-32-be", b"\x00\x00\xfe\xff", "utf-32-be (BOM)"),
        ("utf-16-le", b"", "utf-16-le (no BOM)"),
        ("utf-8", b"", "utf-8"),
    ],
    ids=["cp932", "utf8-bom", "utf16le", "utf16be", "utf32le", "utf32be", "utf16-nobom", "utf8"],
)
def test_legacy_encodings_give_the_labels_written(codec, bom, seen):
    text = _text("x,y,label", LABELS_JA).replace("\n", "\r\n")  # as Excel writes it
    ds = read_upload(bom + text.encode(codec), "ja.csv")
    assert ds.y.tolist() == LABELS_JA
    np.testing.assert_array_equal(ds.X, np.array(COORDS, dtype=float))
    assert seen in ds.meta["notes"]


def test_latin1_that_is_not_cp932_stays_latin1_and_can_be_forced():
    # 'é,' is not valid cp932; ñ and ö are cp932 lead bytes of Private Use characters
    labels = ["café", "señor", "Köln"] * 4
    ds = read_upload(_text(None, labels).encode("latin-1"), "fr.csv")
    assert ds.y.tolist() == labels and "latin-1" in ds.meta["notes"]
    ambiguous = ["Genève", "Málaga"] * 6  # valid cp932 too: read as cp932, overridable
    data = _text(None, ambiguous).encode("latin-1")
    ds = read_upload(data, "ch.csv")
    assert ds.y.tolist() == [w.encode("latin-1").decode("cp932") for w in ambiguous]
    assert "cp932" in ds.meta["notes"]
    assert read_upload(data, "ch.csv", encoding="latin-1").y.tolist() == ambiguous


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfe" + "a,1\n".encode("utf-16-le") + b"\x00", "not valid utf-16-le text"),
        (b"\xef\xbb\xbfa,\xff\n", "not valid utf-8 text .* UTF-8 byte-order mark"),
        (b"a,1\x00,2\n" * 12, "not a text file"),
    ],
    ids=["odd-utf16", "bad-utf8-bom", "nul"],
)
def test_text_that_does_not_decode_names_the_encoding(data, message):
    with pytest.raises(ValueError, match=message):
        read_upload(data, "bad.csv")


def test_an_unknown_forced_encoding_is_refused():
    with pytest.raises(ValueError, match="unknown encoding 'klingon'"):
        read_upload(b"1,2\n", "x.csv", encoding="klingon")


def test_pipe_separated_csv():
    """Before: "needs a label column" (no delimiter split the lines)."""
    ds = read_upload(_text("x|y|label", [0, 1] * 6, sep="|").encode(), "pipe.csv")
    np.testing.assert_array_equal(ds.X, np.array(COORDS, dtype=float))
    assert "pipe-separated" in ds.meta["notes"]


def test_comment_lines_are_skipped_in_csv_and_svmlight():
    """Before: a leading ``#`` line became a one-column first row ("needs a label column")."""
    csv_data = "# exported by hand\n" + _text("x,y,label", [0, 1] * 6)
    csv_data = csv_data.replace("\n6,", "\n  # a note\n6,")
    ds = read_upload(csv_data.encode(), "c.csv")
    np.testing.assert_array_equal(ds.X, np.array(COORDS, dtype=float))
    svm = "# a header comment\n" + "".join(f"{i % 2} 1:{i} 3:2 # row {i}\n" for i in range(12))
    ds = read_upload(svm.encode(), "c.txt")
    assert ds.meta["format"] == "svmlight" and ds.X.shape == (12, 3)
    assert ds.X[5, 0] == 5


def test_a_ragged_row_after_a_comment_keeps_its_line_number():
    data = "# c\nx,y,label\n" + "1,2,0\n" * 11 + "1,2\n"
    with pytest.raises(ValueError, match=r"row 13 \(line 14\) has 2 cells"):
        read_upload(data.encode(), "r.csv")


def _zip(data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("data.csv", data)
    return buf.getvalue()


def _tar(data: bytes) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("data.csv")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


PLAIN = _text("x,y,label", [0, 1] * 6).encode()


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        # before: "needs a label column"
        (gzip.compress(gzip.compress(PLAIN)), "d.csv.gz", "compressed twice \\(gzip inside gzip"),
        (gzip.compress(bz2.compress(PLAIN)), "d.csv.gz", "compressed twice \\(bzip2 inside gzip"),
        (_zip(PLAIN), "d.zip", "is a ZIP archive .* CSV UTF-8"),
        (gzip.compress(_zip(PLAIN)), "d.zip.gz", "holds a ZIP archive .* inside gzip"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100), "d.xls", "an Excel .xls workbook"),
        (PLAIN, "d.csv.gz", "named like a gzip file but its content is not gzip"),
        (gzip.compress(_tar(PLAIN)), "d.tar.gz", "holds a tar archive inside gzip"),
    ],
    ids=["gz-in-gz", "bz2-in-gz", "zip", "zip-in-gz", "xls", "not-gz", "tar-gz"],
)
def test_nested_or_unsupported_compression_is_refused_clearly(data, name, message):
    with pytest.raises(ValueError, match=message):
        read_upload(data, name)


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress])
def test_compression_is_recognised_by_content(compress):
    ds = read_upload(compress(PLAIN), "no-suffix.csv")
    np.testing.assert_array_equal(ds.X, np.array(COORDS, dtype=float))


@pytest.mark.parametrize("text", ["犬,1\n", "a,1\n", "ab\n"])
def test_short_text_without_nul_bytes_is_not_taken_for_utf16(text):
    from olearn.datasets._decode import open_upload

    for codec in ("cp932", "utf-8"):
        assert open_upload(text.encode(codec), "s.csv", max_bytes=99).data == text.encode()
