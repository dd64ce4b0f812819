"""Read and verify compressed archives by streaming full decompression, in bounded chunks.

One mechanism for every archive the data layer touches (loading a corpus, verifying a
download, keying the cache):

- ``.tar.gz``: :func:`iter_tar` walks the members and, after the last one, reads the rest
  of the stream: it must be the end-of-archive marker (zero blocks), and reaching the end of
  the gzip stream checks its CRC-32 and length.  A damaged header anywhere is an error:
  Python's ``tarfile`` alone stops silently at an invalid header after the first one, which
  loaded a corrupted Reuters archive as a smaller corpus.
- ``.bz2`` / ``.gz``: decompressed to the end (block and stream CRCs); an archive that
  decompresses to nothing is an error.
- SHA-256: of the whole file (:func:`file_sha256`, memoised per path, size and mtime) and of
  each tar member (:func:`tar_member_sha256`), both in ``CHUNK_BYTES`` chunks: memory stays
  bounded whatever the member sizes.  Where a ``<stem>.members.sha256`` list lies beside a
  ``.tar.gz``, :func:`read_tar_texts` parses only the members it lists, each checked against
  its digest as it is read.
- Size caps, checked before anything is read whole: a tar member may not declare more than
  :data:`MAX_MEMBER_BYTES` (256 MiB) nor the members of one archive more than
  :data:`MAX_ARCHIVE_BYTES` (2 GiB); a ``.bz2``/``.gz`` file may not decompress to more than
  ``MAX_MEMBER_BYTES`` (counted as it streams).  The real files' largest decompressed member
  is ``usps.bz2`` (14,063,928 bytes; the largest tar member, ``reut2-017.sgm``, has 1,546,911)
  and the largest archive's members total 35,855,003 bytes (20news-bydate, 50,288,640 bytes
  of tar with its headers): the caps are ~19x and ~40-60x above them, while a 130-byte
  sparse tar or a 4 MB gzip bomb that expands to gigabytes is refused at its header (a
  sparse member's header gives its expanded size).

Every integrity failure raises :class:`ArchiveCorrupt` naming the file and how to replace it.
"""

from __future__ import annotations

import bz2
import functools
import gzip
import hashlib
import os
import tarfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from olearn.datasets._errors import ArchiveCorrupt
from olearn.datasets._urls import URLS

CHUNK_BYTES = 1 << 20
MAX_MEMBER_BYTES = 256 * 2**20
MAX_ARCHIVE_BYTES = 2 * 2**30
_NOT_CORRUPTION = (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError)
_DAMAGE = (OSError, EOFError, zlib.error, tarfile.TarError, ValueError)


def corrupt(path: Path, reason: str, dataset: str | None = None) -> ArchiveCorrupt:
    """The error for a damaged ``path``: what is wrong and how to replace the file.

    ``dataset`` (a registry name using the file) makes the fetch command exact.
    """
    path = Path(path)
    url = URLS.get(path.name)
    if url:
        command = f"python -m olearn datasets fetch {dataset or '<dataset>'}"
        fix = f"Delete it and run `{command}` (it downloads {url} again)"
    else:
        fix = "Delete it"
    exc = ArchiveCorrupt(
        f"{path} is damaged ({reason}). {fix}, or put an intact copy in {path.parent}."
    )
    exc.path, exc.reason = path, reason
    return exc


class _CheckedTarInfo(tarfile.TarInfo):
    """A TarInfo whose damaged header ends the walk with an error, wherever it is.

    ``tarfile`` turns an invalid, empty or truncated header after the first member into a
    silent end of the archive; re-raising it as ``SubsequentHeaderError`` makes
    ``TarFile.next`` raise ``ReadError`` instead.  A zero block (the end marker) still ends
    the walk normally; :func:`iter_tar` then checks what follows it.
    """

    @classmethod
    def fromtarfile(cls, tarfile_):
        try:
            return super().fromtarfile(tarfile_)
        except (tarfile.EOFHeaderError, tarfile.SubsequentHeaderError):
            raise
        except tarfile.HeaderError as exc:
            what = "stream ends without the end-of-archive marker" if not str(exc) else exc
            raise tarfile.SubsequentHeaderError(
                f"invalid tar header at byte {tarfile_.offset}: {what}"
            ) from None


def _check_tail(stream: IO[bytes]) -> None:
    """After the first zero block: only zeros (>= one more block) up to the end of the
    stream, whose end checks the gzip CRC-32 and length."""
    zeros = 0
    while chunk := stream.read(CHUNK_BYTES):
        if chunk.count(0) != len(chunk):
            raise tarfile.ReadError("data after the end-of-archive marker")
        zeros += len(chunk)
    if zeros < tarfile.BLOCKSIZE:
        raise tarfile.ReadError("stream ends inside the end-of-archive marker")


class _Member:
    """A member's reader whose decompression errors become :class:`ArchiveCorrupt` (they
    surface in the caller's ``read``, outside :func:`iter_tar`'s frame)."""

    def __init__(self, path: Path, stream: IO[bytes]) -> None:
        self._path, self._stream = path, stream

    def read(self, size: int = -1) -> bytes:
        try:
            return self._stream.read(size)
        except _NOT_CORRUPTION:
            raise
        except _DAMAGE as exc:
            raise corrupt(self._path, f"{type(exc).__name__}: {exc}") from exc


def iter_tar(path: Path) -> Iterator[tuple[tarfile.TarInfo, IO[bytes]]]:
    """``(member, reader)`` for each regular file of the ``.tar.gz`` at ``path``, in order.

    Read each ``reader`` (or not) before asking for the next member.  The walk ends only
    after the whole stream was decompressed and checked, so an archive consumed to the end
    without an error is intact.

    Raises
    ------
    ArchiveCorrupt
        Bad gzip header/CRC/length, truncation, an invalid tar header anywhere, data after
        the end marker, an archive without members.
    FileNotFoundError, PermissionError
        As ``open`` (not corruption).
    """
    path = Path(path)
    try:
        with tarfile.open(path, "r:gz", tarinfo=_CheckedTarInfo) as archive:
            n_files = total = 0
            while (member := archive.next()) is not None:
                if member.isfile():
                    n_files += 1
                    total += member.size
                    _check_sizes(path, member, total)
                    yield member, _Member(path, archive.extractfile(member))
            _check_tail(archive.fileobj)
        if n_files == 0:
            raise tarfile.ReadError("the archive holds no files")
    except _NOT_CORRUPTION:
        raise
    except ArchiveCorrupt:
        raise
    except _DAMAGE as exc:
        raise corrupt(path, f"{type(exc).__name__}: {exc}") from exc


def _check_sizes(path: Path, member: tarfile.TarInfo, total: int) -> None:
    """Refuse a member (or an archive) declaring more than the caps, before reading it."""
    what = "a sparse member" if member.issparse() else "member"
    if member.size > MAX_MEMBER_BYTES:
        raise corrupt(
            path,
            f"{what} {member.name[:80]!r} expands to {member.size:,} bytes, over the "
            f"{MAX_MEMBER_BYTES:,} any real corpus file needs (a decompression bomb?)",
        )
    if total > MAX_ARCHIVE_BYTES:
        raise corrupt(
            path,
            f"its members expand to more than {MAX_ARCHIVE_BYTES:,} bytes (at "
            f"{member.name[:80]!r}), over what any real corpus needs (a decompression bomb?)",
        )


def members_list(path: Path) -> dict[str, str] | None:
    """``{member: sha256}`` from the ``<stem>.members.sha256`` list beside the ``.tar.gz``
    at ``path``, or None if there is none."""
    stem = path.name.removesuffix(".tar.gz").removesuffix(".tgz")
    return read_members_sha256(path.parent / f"{stem}.members.sha256")


def read_members_sha256(path: Path) -> dict[str, str] | None:
    """Parse a ``sha256sum`` listing (``<hex>  <name>`` lines), or None if absent."""
    if not path.is_file():
        return None
    expected = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            digest, _, member = line.strip().partition(" ")
            expected[member.strip().lstrip("*")] = digest.lower()
    return expected


def read_tar_texts(
    path: Path, wanted: Callable[[str], bool], encoding: str
) -> list[tuple[str, str]]:
    """``(member name, text)`` of each regular file whose name passes ``wanted``, decoded
    with ``encoding``, in archive order; returned only once the whole archive is verified
    (so a damaged archive never yields a partial corpus or garbage text).

    With a ``<stem>.members.sha256`` list beside the archive, only the members it lists are
    parsed, each must match its digest, and every listed member ``wanted`` accepts must be
    there (a size field that lies by exactly some members' length makes tar skip them).
    Sizes are capped (module docstring).
    """
    path = Path(path)
    listed = members_list(path)
    out = []
    for member, reader in iter_tar(path):
        if not wanted(member.name) or (listed is not None and member.name not in listed):
            continue
        data = _read_capped(reader, path, member.name)
        if listed is not None and hashlib.sha256(data).hexdigest() != listed[member.name]:
            raise corrupt(path, f"member {member.name!r} differs from its listed sha256")
        out.append((member.name, data.decode(encoding)))
    missing = [] if listed is None else sorted(set(filter(wanted, listed)) - {n for n, _ in out})
    if missing:
        raise corrupt(path, f"listed members missing: {missing[:5]}")
    return out


def _capped_chunks(reader: IO[bytes], path: Path, name: str) -> Iterator[bytes]:
    """``reader``'s content in ``CHUNK_BYTES`` chunks, refusing past ``MAX_MEMBER_BYTES``."""
    total = 0
    while chunk := reader.read(CHUNK_BYTES):
        total += len(chunk)
        if total > MAX_MEMBER_BYTES:
            raise corrupt(
                path,
                f"{name} expands to more than {MAX_MEMBER_BYTES:,} bytes, over what any real "
                "corpus file needs (a decompression bomb?)",
            )
        yield chunk


def _read_capped(reader: IO[bytes], path: Path, name: str) -> bytes:
    """All of ``reader``, refusing past ``MAX_MEMBER_BYTES`` (never held whole beyond it)."""
    return b"".join(_capped_chunks(reader, path, name))


def tar_member_sha256(path: Path) -> dict[str, str]:
    """``{member name: sha256}`` of every regular file, each read in ``CHUNK_BYTES`` chunks."""
    digests = {}
    for member, reader in iter_tar(path):
        digests[member.name] = _sha256_of(reader)
    return digests


def _opener(name: str) -> Callable[[Path], IO[bytes]]:
    return bz2.open if name.endswith(".bz2") else gzip.open


def _decompressed(path: Path, name: str, consume: Callable[[Iterator[bytes]], Any]) -> Any:
    """``consume`` applied to the capped chunks of the ``.bz2``/``.gz`` file ``path`` (its
    format from ``name``'s suffix); damage is :class:`ArchiveCorrupt`."""
    try:
        with _opener(name)(path, "rb") as f:
            return consume(_capped_chunks(f, path, name))
    except ArchiveCorrupt:
        raise
    except _NOT_CORRUPTION:
        raise
    except _DAMAGE as exc:
        raise corrupt(path, f"{type(exc).__name__}: {exc}") from exc


def read_compressed(path: Path) -> bytes:
    """The whole decompressed content of a ``.bz2``/``.gz`` file, CRC-checked.

    Raises
    ------
    ArchiveCorrupt
        Damaged, truncated, or decompressing to nothing.
    """
    path = Path(path)
    data = _decompressed(path, path.name, b"".join)
    if not data:
        raise corrupt(path, "it decompresses to nothing")
    return data


def drain_compressed(path: Path, name: str | None = None) -> int:
    """Decompress a ``.bz2``/``.gz`` file to the end in chunks (CRC-checked); its length.
    ``name`` (default: the file's) picks the format by its suffix.

    Raises
    ------
    ArchiveCorrupt
        Damaged, truncated, or decompressing to nothing.
    """
    path = Path(path)
    total = _decompressed(path, name or path.name, lambda chunks: sum(map(len, chunks)))
    if total == 0:
        raise corrupt(path, "it decompresses to nothing")
    return total


def _sha256_of(stream: IO[bytes]) -> str:
    digest = hashlib.sha256()
    while chunk := stream.read(CHUNK_BYTES):
        digest.update(chunk)
    return digest.hexdigest()


@functools.lru_cache(maxsize=64)
def _file_sha256(path: str, size: int, mtime_ns: int, inode: int, ctime_ns: int) -> str:
    with open(path, "rb") as f:
        return _sha256_of(f)


def file_sha256(path: str | os.PathLike) -> str:
    """SHA-256 (hex) of the file's bytes, read in chunks; memoised while the file's size,
    mtime, inode and ctime stay the same (a replaced or repaired file is hashed again)."""
    path = Path(path).resolve()
    st = path.stat()
    return _file_sha256(str(path), st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
