"""Archives in the data folder: decompression bombs and sparse members are refused at their
header, never read whole; members outside a checksum list are not parsed (issue 22, item 12).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
import tracemalloc
from pathlib import Path

import pytest

from olearn.datasets import ArchiveCorrupt, _archive, _download, reuters, usps
from tests.datasets_fakes import make_reuters, reuters_doc

DATA = Path("/work/shared/data")


def _sparse_tar(path: Path, real_size: int) -> Path:
    """A PAX sparse (0.1) member declaring ``real_size`` bytes with no data stored: the
    whole archive gzips to ~200 bytes, ``tarfile`` expands it to zeros."""
    info = tarfile.TarInfo("reut2-000.sgm")
    info.size = 0
    info.pax_headers = {"GNU.sparse.map": "0,0", "GNU.sparse.size": str(real_size)}
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        tar.addfile(info, io.BytesIO(b""))
    return path


def _lying_tar(path: Path, declared: int, stored: int) -> Path:
    """A member whose header declares ``declared`` bytes followed by ``stored`` zero bytes
    (a gzip bomb when ``declared`` is huge: zeros compress ~1000:1)."""
    info = tarfile.TarInfo("reut2-000.sgm")
    info.size = declared
    header = info.tobuf(tarfile.GNU_FORMAT)
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(header)
        for _ in range(stored // 2**20):
            f.write(bytes(2**20))
    return path


def _peak(call) -> tuple[object, int]:
    tracemalloc.start()
    try:
        try:
            result = call()
        except ArchiveCorrupt as exc:
            result = exc
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_sparse_member_declaring_gigabytes_is_refused_at_its_header(tmp_path):
    path = _sparse_tar(tmp_path / reuters.ARCHIVE, 8 * 2**30)
    assert path.stat().st_size < 300
    err, peak = _peak(lambda: _archive.read_tar_texts(path, reuters._is_sgml, "latin-1"))
    assert isinstance(err, ArchiveCorrupt), err
    assert "sparse member 'reut2-000.sgm' expands to 8,589,934,592 bytes" in str(err)
    assert str(path) in str(err) and peak < 4 * 2**20
    with pytest.raises(ArchiveCorrupt, match="sparse member"):
        _download.verify_archive(path, reuters.ARCHIVE)


def test_a_member_whose_header_claims_gigabytes_is_refused_before_reading(tmp_path):
    path = _lying_tar(tmp_path / reuters.ARCHIVE, declared=5 * 2**30, stored=2 * 2**20)
    err, peak = _peak(lambda: _archive.read_tar_texts(path, reuters._is_sgml, "latin-1"))
    assert isinstance(err, ArchiveCorrupt)
    assert "expands to 5,368,709,120 bytes" in str(err) and "bomb" in str(err)
    assert peak < 2 * 2**20  # not even the 2 MiB stored were read


def test_a_gzip_bomb_is_refused_past_the_cap_in_bounded_memory(tmp_path, monkeypatch):
    """A ``.gz`` file has no trustworthy size: it is counted as it streams and refused one
    chunk past the cap (here lowered to 4 MiB, the bomb expands to 64 MiB)."""
    monkeypatch.setattr(_archive, "MAX_MEMBER_BYTES", 4 * 2**20)
    path = tmp_path / "usps.gz"
    with gzip.open(path, "wb", compresslevel=1) as f:
        for _ in range(64):
            f.write(bytes(2**20))
    err, peak = _peak(lambda: _archive.read_compressed(path))
    assert isinstance(err, ArchiveCorrupt) and "more than 4,194,304 bytes" in str(err)
    assert peak < 3 * 4 * 2**20
    with pytest.raises(ArchiveCorrupt, match="more than 4,194,304 bytes"):
        _archive.drain_compressed(path)


def test_members_outside_the_checksum_list_are_not_parsed(tmp_path):
    docs = [reuters_doc(i + 1, ["earn"], f"T{i}", f"body {i}") for i in range(4)]
    path = make_reuters(tmp_path / reuters.ARCHIVE, docs)
    listed = {
        n: hashlib.sha256(t.encode("latin-1")).hexdigest()
        for n, t in _archive.read_tar_texts(path, lambda n: True, "latin-1")
    }
    # plant a member the list does not know, then list only the original ones
    with tarfile.open(path, "r:gz") as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar}
    members["reut2-999.sgm"] = reuters_doc(99, ["gold"], "planted", "planted").encode()
    with tarfile.open(path, "w:gz") as tar:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    lines = "".join(f"{d}  {n}\n" for n, d in listed.items())
    (tmp_path / "reuters21578.members.sha256").write_text(lines)
    names = [n for n, _ in _archive.read_tar_texts(path, reuters._is_sgml, "latin-1")]
    assert names == ["reut2-000.sgm", "reut2-001.sgm"]
    # a listed member that differs from its digest is refused, not parsed
    listed["reut2-001.sgm"] = "0" * 64
    (tmp_path / "reuters21578.members.sha256").write_text(
        "".join(f"{d}  {n}\n" for n, d in listed.items())
    )
    with pytest.raises(ArchiveCorrupt, match="reut2-001.sgm' differs from its listed sha256"):
        _archive.read_tar_texts(path, reuters._is_sgml, "latin-1")


@pytest.mark.skipif(not (DATA / usps.TRAIN).is_file(), reason="real data folder absent")
def test_the_caps_are_far_above_the_real_corpora():
    """The caps' margins hold against the real files (docstring of _archive): usps.bz2, the
    largest single member, is drained; a .tar.gz's size field (ISIZE, its last 4 bytes)
    bounds all its members together, so no member is near the cap either."""
    assert _archive.drain_compressed(DATA / usps.TRAIN) * 10 < _archive.MAX_MEMBER_BYTES
    for name in ("20news-bydate.tar.gz", "reuters21578.tar.gz", "ldcc-20140209.tar.gz"):
        if (DATA / name).is_file():
            with open(DATA / name, "rb") as f:
                f.seek(-4, 2)
                tar_bytes = int.from_bytes(f.read(4), "little")
            assert tar_bytes * 5 < _archive.MAX_MEMBER_BYTES
            assert tar_bytes * 40 < _archive.MAX_ARCHIVE_BYTES
