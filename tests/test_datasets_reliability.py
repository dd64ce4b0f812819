"""Regression tests for the data-side defects of issue 12, one (or more) per defect.

Each test failed on the code before the fix (checked against commit 171e83d); the comment
above it says what it used to do.  Small fake archives only (tests/datasets_fakes.py).
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import os
import tarfile
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from olearn import datasets
from olearn.datasets import _cache, _download, reuters, upload
from olearn.datasets._base import DatasetUnavailable
from olearn.experiments import report
from olearn.experiments.reproduction import ReproResult
from tests.datasets_fakes import make_reuters, reuters_doc

TOPICS = ["earn", "acq", "gold", "crude"]


def _docs(n: int, word: str = "word") -> list[str]:
    return [
        reuters_doc(i + 1, [TOPICS[i % 4]], f"Title {i}", f"body {i} about {TOPICS[i % 4]} {word}")
        for i in range(n)
    ]


def _tar_members(docs_per_file: list[list[str]]) -> dict[str, bytes]:
    head = '<!DOCTYPE lewis SYSTEM "lewis.dtd">\n'
    return {
        f"reut2-{k:03d}.sgm": (head + "".join(docs)).encode("latin-1")
        for k, docs in enumerate(docs_per_file)
    }


def _raw_tar(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.delenv("OLEARN_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


def _broken_header_archive(path: Path) -> int:
    """A fake Reuters archive in 4 members whose 3rd tar header is damaged, recompressed
    as *valid* gzip (right CRC): only the tar structure is wrong.  Returns the intact
    number of single-topic documents (40)."""
    raw = bytearray(_raw_tar(_tar_members([_docs(40)[k::4] for k in range(4)])))
    offsets = [m.offset for m in tarfile.open(fileobj=io.BytesIO(bytes(raw))).getmembers()]
    raw[offsets[2] + 10] ^= 0x55  # inside the member name: the header checksum now fails
    path.write_bytes(gzip.compress(bytes(raw)))
    return 40


# Before: tarfile stopped silently at the bad header -> 20 of 40 documents, no error.
def test_broken_tar_header_is_an_error_not_a_smaller_corpus(home):
    _broken_header_archive(home / reuters.ARCHIVE)
    with pytest.raises(DatasetUnavailable, match=r"reuters21578\.tar\.gz is damaged") as e:
        datasets.load("reuters-20", home, download=False)
    assert "invalid tar header" in str(e.value)
    assert "python -m olearn datasets fetch reuters-20" in str(e.value)  # the fix, exact
    assert isinstance(e.value, OSError) and isinstance(e.value, ValueError)  # app guard
    assert type(e.value).__name__ == "ArchiveCorrupt"


# Before: corrupted deflate data reached the SGML parser (KeyError: 'NEWID', or fewer docs).
def test_corrupted_compressed_bytes_never_reach_the_parser(home):
    path = home / reuters.ARCHIVE
    make_reuters(path, _docs(60))
    good = path.read_bytes()
    for offset in range(30, len(good) - 8, max(1, (len(good) - 38) // 40)):
        damaged = bytearray(good)
        damaged[offset] ^= 0xFF
        path.write_bytes(bytes(damaged))
        with pytest.raises(DatasetUnavailable, match="is damaged"):
            datasets.load("reuters-20", home, download=False)


# Before: verify_archive passed the same broken-header archive (it read 2 of 4 members).
def test_verify_archive_catches_a_broken_tar_header(tmp_path):
    _broken_header_archive(tmp_path / reuters.ARCHIVE)
    with pytest.raises((DatasetUnavailable, ValueError)):
        _download.verify_archive(tmp_path / reuters.ARCHIVE, reuters.ARCHIVE)


# Before: tar_member_sha256 read each member whole (a 24 MiB member -> >= 24 MiB peak).
def test_verify_archive_reads_members_in_bounded_chunks(tmp_path):
    big = bytes(range(256)) * (24 * 4096)  # 24 MiB, compresses to ~100 KB
    path = tmp_path / "big.tar.gz"
    path.write_bytes(gzip.compress(_raw_tar({"big.bin": big}), compresslevel=1))
    tracemalloc.start()
    try:
        digests = _download.tar_member_sha256(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(digests) == 1
    assert peak < 8 * 2**20  # chunks of 1 MiB, not the 24 MiB member


# Before: the cache was keyed on the archive's size: a same-size repaired archive kept the
# old parse.
def test_cache_is_keyed_by_archive_content(home):
    path = home / reuters.ARCHIVE
    make_reuters(path, _docs(12, "alpha"))
    first = datasets.load("reuters-20", home)
    mtime = path.stat().st_mtime_ns
    size = path.stat().st_size
    for word in ("bravo", "delta", "gamma", "kappa", "sigma", "omega"):  # same length
        make_reuters(path, _docs(12, word))
        if path.stat().st_size == size:
            break
    assert path.stat().st_size == size
    os.utime(path, ns=(mtime, mtime))
    second = datasets.load("reuters-20", home)
    assert "alpha" in first.meta["feature_names"]
    assert "alpha" not in second.meta["feature_names"] and word in second.meta["feature_names"]


def test_known_sha256_is_checked_in_chunks(tmp_path):
    # "where known": a sha256sum line beside the archive pins the whole file's bytes.
    path = make_reuters(tmp_path / reuters.ARCHIVE, _docs(8))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    listing = tmp_path / f"{reuters.ARCHIVE}.sha256"
    listing.write_text(f"{digest}  {reuters.ARCHIVE}\n")
    _download.verify_archive(path, reuters.ARCHIVE)
    listing.write_text(f"{'0' * 64}  {reuters.ARCHIVE}\n")
    with pytest.raises(DatasetUnavailable, match="sha256 .* differs"):
        _download.verify_archive(path, reuters.ARCHIVE)


def test_download_urls_are_https():
    # Before: 20news and Reuters were plain http.
    assert all(url.startswith("https://") for url in _download.URLS.values())


def _craft(path: Path, **replace) -> None:
    """Rewrite the cache file at ``path`` with some arrays replaced (sources kept, so the
    file is not merely stale)."""
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f}
    if "card" in replace:
        arrays = {"sources": arrays["sources"]}
    np.savez(path, **{**arrays, **replace})


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(b""),  # before: EOFError traceback
        lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),  # truncated
        lambda p: np.savez(p, sources=np.array(1), card=np.array(2)),  # before: AttributeError
        lambda p: np.savez(p, sources=np.array("[1]"), card=np.array("{}")),  # TypeError
        lambda p: _craft(p, card=np.array('{"title": 1}'), y=np.array([1])),  # KeyError
        lambda p: _craft(p, X=np.zeros((3, 2)), y=np.array([1, 2])),  # rows != labels
        lambda p: _craft(p, X_shape=np.array([-1, 5])),  # bad CSR shape
    ],
    ids=["empty", "truncated", "non-json", "json-list", "missing-arrays", "shapes", "csr"],
)
def test_unreadable_cache_file_is_a_miss_that_is_rebuilt(home, damage):
    make_reuters(home / reuters.ARCHIVE, _docs(12))
    first = datasets.load("reuters-20", home)
    (cached,) = (home / ".olearn_cache").glob("reuters-20-*.npz")
    damage(cached)
    with pytest.warns(UserWarning, match="unreadable cache file"):
        again = datasets.load("reuters-20", home)
    np.testing.assert_array_equal(again.y, first.y)
    assert _cache.read(cached, datasets._sources(datasets.spec("reuters-20"), home)) is not None


def test_cache_with_an_invalid_csr_structure_is_a_miss(home):
    # Before: a crafted cache with column indices beyond n_features loaded as a Dataset.
    make_reuters(home / reuters.ARCHIVE, _docs(12))
    datasets.load("reuters-20", home)
    (cached,) = (home / ".olearn_cache").glob("reuters-20-*.npz")
    with np.load(cached, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f}
    arrays["X_indices"] = arrays["X_indices"] + 10**6
    np.savez(cached, **arrays)
    with pytest.warns(UserWarning, match="unreadable cache file"):
        datasets.load("reuters-20", home)


# Before: a file where the cache folder should be stopped loading (FileExistsError).
def test_cache_folder_that_cannot_be_created_degrades_to_no_cache(home, tmp_path, monkeypatch):
    make_reuters(home / reuters.ARCHIVE, _docs(12))
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file in the way")
    monkeypatch.setenv("OLEARN_CACHE", str(blocker / "cache"))
    with pytest.warns(UserWarning, match="no cache for reuters-20"):
        ds = datasets.load("reuters-20", home)
    assert ds.meta["n_samples"] == 12
    card = datasets.card("reuters-20", home)  # a card still answers, from the static part
    assert card["title"]


def _usps_files(home: Path, train: bytes) -> None:
    (home / "usps.bz2").write_bytes(bz2.compress(train))
    (home / "usps.t.bz2").write_bytes(bz2.compress(b"1 1:0.5\n2 2:0.5\n"))


# Before: an empty usps.bz2 gave a 0-row dataset, and it was cached.
def test_empty_usps_is_an_error_and_nothing_is_cached(home):
    _usps_files(home, b"")
    with pytest.raises(DatasetUnavailable, match=r"usps\.bz2 is damaged.*nothing"):
        datasets.load("usps", home, download=False)
    assert not list((home / ".olearn_cache").glob("usps-*.npz"))


# Before: scikit-learn's own "ValueError: invalid literal for int() ..." without the file.
def test_usps_that_is_not_svmlight_is_a_clear_error(home):
    _usps_files(home, b"<html>Not found</html>\n")
    with pytest.raises(ValueError, match=r"usps\.bz2 is damaged \(not LIBSVM"):
        datasets.load("usps", home, download=False)


def _result(tag: str) -> ReproResult:
    import pandas as pd

    table = pd.DataFrame({"dataset": ["d"], "algorithm": ["PA"], "paper": [1.0], "ours": [2.0]})
    runs = [{"dataset": "d", "algorithm": "PA", "fold": 0, "error": 1.0, "tag": tag}]
    return ReproResult(id="r", title=tag, table=table, summary=tag, details={"runs": runs})


# Before: files were written in place, one after the other: a failure on the 3rd left a
# truncated file and a mix of two runs.
def test_results_are_written_as_one_unit(tmp_path, monkeypatch):
    first = report.write_all(_result("first run"), tmp_path)
    before = {p.name: p.read_bytes() for p in first}
    assert len(before) == 5
    real_fdopen, opened = os.fdopen, []

    def failing_fdopen(fd, *args, **kwargs):
        opened.append(fd)
        if len(opened) == 3:
            os.close(fd)
            raise OSError(28, "No space left on device")
        return real_fdopen(fd, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", failing_fdopen)
    with pytest.raises(OSError, match="No space"):
        report.write_all(_result("second run"), tmp_path)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no temp left
    second = report.write_all(_result("second run"), tmp_path)
    assert all(b"second run" in p.read_bytes() for p in second if p.suffix != ".csv")


# ---------------------------------------------------------------------------- uploads


def _peak(data: bytes, name: str) -> tuple[int, str]:
    tracemalloc.start()
    try:
        try:
            upload.read_upload(data, name)
            outcome = "ok"
        except ValueError as exc:
            outcome = str(exc)
        return tracemalloc.get_traced_memory()[1], outcome
    finally:
        tracemalloc.stop()


NASTY = {
    # before: 37x the file (one Python str per cell, then a fixed-width str array)
    "short-rows.csv": b"1,0\n2,1\n" * 40_000,
    # before: np.array(rows, dtype=str) -> every cell as wide as the longest (GiBs)
    "long-cell.csv": b"1,2,0\n3,4,1\n" * 2000 + b"5," + b"7" * 100_000 + b",1\n",
    "long-label.csv": b"1,0\n2,1\n" * 100_000 + b"3," + b"x" * 30_000 + b"\n",
    "wide.csv": (b",".join([b"12"] * 50_000) + b"\n") * 2,
    "emoji.csv": "😀,x\n".encode() + b"1,0\n2,1\n" * 20_000,
    "short.svm": b"1 1:1\n2 2:1\n" * 20_000,
}


@pytest.mark.parametrize("name", sorted(NASTY))
def test_upload_memory_is_bounded_by_the_stated_factor(name):
    data = NASTY[name]
    peak, outcome = _peak(data, name)
    bound = 32 * len(data) + 2 * 2**20  # the bound stated in upload's docstring
    assert peak <= bound, (peak / len(data), outcome)
    assert (upload.MEMORY_FACTOR, upload.MEMORY_SLACK) == (32, 2 * 2**20)


# Before: labels went through float64 (2**53 + 1 == 2**53) and int64 (10**19 overflowed).
@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        ([10**19, 3 * 10**19], ["10000000000000000000", "30000000000000000000"]),
        ([2**53, 2**53 + 1], [2**53, 2**53 + 1]),
        (["1e19", "3e19"], ["10000000000000000000", "30000000000000000000"]),
        (["0.1", "0.10000000000000000001"], ["0.1", "0.10000000000000000001"]),
        # before: int() of 10**99999 raised Python's digit limit, of 10**9999999 ran for ever
        (["1e99999", "0"], ["1e99999", "0"]),
        (["1e9999999", "-1E+400"], ["1e9999999", "-1E+400"]),
    ],
)
def test_labels_are_exact(labels, expected):
    csv_data = b"".join(f"{i},{labels[i % 2]}\n".encode() for i in range(12))
    svm_data = b"".join(f"{labels[i % 2]} 1:{i + 1}\n".encode() for i in range(12))
    for name, data in [("l.csv", csv_data), ("l.svm", svm_data)]:
        ds = upload.read_upload(data, name)
        assert ds.meta["n_classes"] == 2
        assert sorted(ds.meta["class_counts"]) == sorted(expected)


@pytest.mark.parametrize(
    ("data", "name", "shape"),
    [
        (b"a;b;label\n" + b"1.5;2;x\n3;4;y\n" * 6, "semi.csv", (12, 2)),  # before: ragged
        (b"1.5\t2\tx\n3\t4\ty\n" * 6, "tabs.txt", (12, 2)),
        (b"a,b,label\r" + b"1,2,x\r3,4,y\r" * 6, "old-mac.csv", (12, 2)),
        (b"1 1:0.5 2:1\r-1 2:2\r" * 6, "old-mac.txt", (12, 2)),  # before: one line, 1 row
    ],
)
def test_delimiters_and_line_endings(data, name, shape):
    ds = upload.read_upload(data, name)
    assert ds.X.shape == shape and ds.meta["n_classes"] == 2


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        # before: IndexError from scikit-learn
        (b"# only\n# comments\n", "c.svm", "no data lines"),
        # before: OverflowError from scikit-learn
        (b"1 1:1\n-1 4294967296:1\n" * 6, "o.svm", "line 2, column 4: feature index 4294967296"),
        (b"1 1:1\n-1 1:1 2\n" * 6, "p.svm", "line 2, column 8: '2' is not an 'index:value'"),
        (b"a,b,y\n" + b"1,2,0\n" * 5 + b"1,2,5,3\n", "r.csv", "row 7 has 4 cells"),
        (b"a;b;y\n1,5;2;0\n", "eu.csv", "'1,5' at row 2, column 'a' \\(a decimal comma"),
        (b'x,y\n1,a\n\n\n2,b\n3,"c\nd"\n5,6,7\n', "q.csv", "row 5 \\(line 8\\) has 3 cells"),
    ],
)
def test_upload_errors_say_what_and_where(data, name, message):
    with pytest.raises(ValueError, match=message):
        upload.read_upload(data, name)
