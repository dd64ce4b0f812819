"""Fuzzing archives and cache files: damage at random offsets ends in the intact result or
a documented error, never a smaller corpus or a traceback of another type (issue 12).

- ``.tar.gz`` (a fake Reuters archive): a flipped byte or a truncation anywhere ->
  the very same member texts, or :class:`ArchiveCorrupt` (loading and ``verify_archive``);
- ``.tar.gz`` with a damaged *tar* header inside a valid gzip stream (CRC right) -> error;
- ``.tar.gz`` whose member headers lie about their sizes (a random size field, checksum
  made right again, or a sparse map declaring a random expanded size) -> the same texts
  when the lie is the truth, else :class:`ArchiveCorrupt`, in bounded memory;
- ``.bz2`` (a fake USPS file) -> the same arrays, or :class:`ArchiveCorrupt`;
- a cache ``.npz`` truncated or with a flipped byte -> the same dataset or a cache miss
  (``None`` with a warning).

``python -m tests.fuzz_report`` prints the outcome counts.
"""

from __future__ import annotations

import atexit
import bz2
import gzip
import hashlib
import io
import shutil
import tarfile
import tempfile
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from olearn.datasets import ArchiveCorrupt, _archive, _cache, _download, reuters, usps
from olearn.datasets._archive import read_tar_texts
from olearn.datasets._base import make_dataset
from tests.datasets_fakes import make_reuters, reuters_doc
from tests.fuzz_support import FUZZ, record

TOPICS = ["earn", "acq", "gold", "crude"]
WORK = Path(tempfile.mkdtemp(prefix="olearn-fuzz-"))
atexit.register(shutil.rmtree, WORK, True)  # nothing left behind, even when only collected


def _reuters_bytes() -> bytes:
    docs = [
        reuters_doc(i + 1, [TOPICS[i % 4]], f"Title {i}", f"body {i} on {TOPICS[i % 4]} x{i}")
        for i in range(40)
    ]
    return make_reuters(WORK / "good.tar.gz", docs).read_bytes()


GOOD_TAR = _reuters_bytes()
GOOD_TEXTS = read_tar_texts(WORK / "good.tar.gz", reuters._is_sgml, "latin-1")
RAW_TAR = gzip.decompress(GOOD_TAR)
GOOD_SVM = b"".join(f"{1 + i % 10} 1:{i / 7:g} 3:-{i % 5}\n".encode() for i in range(60))
GOOD_USPS = bz2.compress(GOOD_SVM)
(WORK / "good.bz2").write_bytes(GOOD_USPS)


def _damage(good: bytes, offset: int, xor: int, truncate: bool) -> bytes:
    if truncate:
        return good[: offset % len(good)]
    data = bytearray(good)
    data[offset % len(data)] ^= xor
    return bytes(data)


def _tar_outcome(suite: str, path: Path, name: str) -> None:
    try:
        texts = read_tar_texts(path, reuters._is_sgml, "latin-1")
    except ArchiveCorrupt as exc:
        assert str(path) in str(exc) and "Delete it" in str(exc)
        with pytest.raises(ArchiveCorrupt):
            _download.verify_archive(path, name)
        record(suite, "ArchiveCorrupt")
        return
    assert texts == GOOD_TEXTS  # a harmless byte (gzip mtime, OS...): the same corpus
    _download.verify_archive(path, name)
    record(suite, "intact")


@settings(FUZZ, max_examples=600)
@given(
    offset=st.integers(0, len(GOOD_TAR) - 1),
    xor=st.integers(1, 255),
    truncate=st.booleans(),
)
def test_tar_gz_damaged_anywhere(offset, xor, truncate):
    path = WORK / reuters.ARCHIVE
    path.write_bytes(_damage(GOOD_TAR, offset, xor, truncate))
    _tar_outcome("archives: .tar.gz bytes", path, reuters.ARCHIVE)


@settings(FUZZ, max_examples=600)
@given(offset=st.integers(0, len(RAW_TAR) - 1), xor=st.integers(1, 255))
def test_tar_damaged_under_a_valid_gzip(offset, xor):
    path = WORK / reuters.ARCHIVE
    path.write_bytes(gzip.compress(_damage(RAW_TAR, offset, xor, False), mtime=0))
    try:
        texts = read_tar_texts(path, reuters._is_sgml, "latin-1")
    except ArchiveCorrupt:
        record("archives: tar inside valid gzip", "ArchiveCorrupt")
        return
    # a byte of member data (no CRC inside tar) or of an unused header field changes
    # nothing structural: every member is still there, in order, with its length
    assert [name for name, _ in texts] == [name for name, _ in GOOD_TEXTS]
    assert [len(t) for _, t in texts] == [len(t) for _, t in GOOD_TEXTS]
    record("archives: tar inside valid gzip", "all members, same sizes")


def _header_offsets(raw: bytes) -> list[int]:
    return [m.offset for m in tarfile.open(fileobj=io.BytesIO(raw), mode="r:")]


HEADERS = _header_offsets(RAW_TAR)


def _with_size(raw: bytes, header: int, size: int) -> bytes:
    """``raw`` with the size field of the header at ``header`` set to ``size`` (octal, or
    GNU base-256 past 8 GiB) and the header checksum recomputed: only the size lies."""
    block = bytearray(raw[header : header + tarfile.BLOCKSIZE])
    if size < 8**11:
        block[124:136] = b"%011o\0" % size
    else:
        block[124:136] = b"\x80" + size.to_bytes(11, "big")
    block[148:156] = b" " * 8
    block[148:156] = b"%06o\0 " % sum(block)
    return raw[:header] + bytes(block) + raw[header + tarfile.BLOCKSIZE :]


LISTED = "".join(f"{hashlib.sha256(t.encode('latin-1')).hexdigest()}  {n}\n" for n, t in GOOD_TEXTS)


@settings(FUZZ, max_examples=300)
@given(
    member=st.integers(0, len(HEADERS) - 1),
    size=st.one_of(st.integers(0, 1 << 16), st.integers(0, 1 << 40)),
    sparse_size=st.one_of(
        st.none(), st.integers(0, 1 << 16), st.integers(_archive.MAX_MEMBER_BYTES + 1, 1 << 40)
    ),
    listed=st.booleans(),
)
def test_member_sizes_that_lie(member, size, sparse_size, listed):
    """Size fields (or a sparse member's expanded size) drawn at random, with or without a
    ``members.sha256`` list: the very texts or ArchiveCorrupt (without a list, also a
    shorter or NUL-padded one when the lie lands on a block boundary: tar cannot tell), and memory
    never beyond a few MiB whatever the declared size."""
    suite = "archives: lying member sizes" + (", listed" if listed else "")
    folder = WORK / ("listed" if listed else "unlisted")
    folder.mkdir(exist_ok=True)
    path = folder / reuters.ARCHIVE
    if listed:
        (folder / "reuters21578.members.sha256").write_text(LISTED)
    if sparse_size is None:
        raw = _with_size(RAW_TAR, HEADERS[member], size)
    else:
        info = tarfile.TarInfo("reut2-000.sgm")
        info.pax_headers = {"GNU.sparse.map": "0,0", "GNU.sparse.size": str(sparse_size)}
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:", format=tarfile.PAX_FORMAT) as tar:
            tar.addfile(info, io.BytesIO(b""))
        raw = buf.getvalue()
    path.write_bytes(gzip.compress(raw, mtime=0))
    declared = size if sparse_size is None else sparse_size
    tracemalloc.start()
    try:
        texts = read_tar_texts(path, reuters._is_sgml, "latin-1")
    except ArchiveCorrupt as exc:
        texts, big = None, "expands to" in str(exc)
        assert big == (declared > _archive.MAX_MEMBER_BYTES)
        record(suite, "ArchiveCorrupt: over the cap" if big else "ArchiveCorrupt: damaged")
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 8 * 2**20 + 4 * len(RAW_TAR) + 3 * min(declared, 1 << 16)
    if texts is None:
        return
    assert sparse_size is None or not listed  # a list never lets a foreign member through
    if texts == GOOD_TEXTS:
        record(suite, "intact (the size told the truth)")
    elif sparse_size is not None:
        assert [len(t) for _, t in texts] == [sparse_size]
        record(suite, "sparse member within the cap, read")
    else:  # without a list tar cannot tell: whole members skipped, or zero padding and
        # end marker swallowed into the last member (its text then ends in NULs)
        good = dict(GOOD_TEXTS)
        assert not listed and all(good.get(n) == t.rstrip("\0") for n, t in texts)
        record(suite, "members skipped or NUL-padded (tar cannot tell without a list)")


@settings(FUZZ, max_examples=400)
@given(
    offset=st.integers(0, len(GOOD_USPS) - 1),
    xor=st.integers(1, 255),
    truncate=st.booleans(),
)
def test_bz2_damaged_anywhere(offset, xor, truncate):
    path = WORK / usps.TRAIN
    path.write_bytes(_damage(GOOD_USPS, offset, xor, truncate))
    try:
        X, y = usps.read_usps_file(path)
    except ArchiveCorrupt:
        record("archives: .bz2 bytes", "ArchiveCorrupt")
        return
    X0, y0 = usps.read_usps_file(WORK / "good.bz2")
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    record("archives: .bz2 bytes", "intact")


def _cache_bytes() -> tuple[bytes, object]:
    rng = np.random.default_rng(0)
    X = sp.random(30, 8, density=0.3, random_state=rng, format="csr")
    y = np.array(["a", "b", "c"] * 10)
    card = {"title": "t", "source": "s", "url": "u", "licence": "l", "notes": "n"}
    ds = make_dataset("fuzz", X, y, {**card, "feature_names": [f"w{i}" for i in range(8)]})
    path = WORK / "cache.npz"
    _cache.write(path, ds, {"archive": "0" * 64})
    return path.read_bytes(), ds


GOOD_CACHE, CACHED = _cache_bytes()


@settings(FUZZ, max_examples=600)
@given(
    offset=st.integers(0, len(GOOD_CACHE) - 1),
    xor=st.integers(1, 255),
    truncate=st.booleans(),
)
def test_cache_file_damaged_anywhere(offset, xor, truncate):
    path = WORK / "cache.npz"
    path.write_bytes(_damage(GOOD_CACHE, offset, xor, truncate))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ds = _cache.read(path, {"archive": "0" * 64})
    if ds is None:
        assert any("unreadable cache file" in str(w.message) for w in caught)
        record("cache: .npz bytes", "miss (rebuilt), warned")
        return
    assert (ds.X != CACHED.X).nnz == 0
    np.testing.assert_array_equal(ds.y, CACHED.y)
    record("cache: .npz bytes", "intact")


def test_fake_archive_is_what_the_fuzzers_think():
    """The fixtures above are meaningful: several members, a loadable corpus."""
    names = [m.name for m in tarfile.open(fileobj=io.BytesIO(GOOD_TAR), mode="r:gz")]
    assert len(names) == 3 and len(GOOD_TEXTS) == 2
    assert usps.read_usps_file(WORK / "good.bz2")[0].shape == (60, 256)
