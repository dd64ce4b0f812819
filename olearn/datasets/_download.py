"""Find a canonical archive in the data folder, or download and verify it.

Downloads stream (``urllib``, https) into a temporary file beside the target, with a tqdm
progress bar, are verified by :func:`verify_archive` (full streaming decompression in
bounded chunks: CRC, every tar header and member, the end marker; SHA-256 where a
``.sha256`` / ``.members.sha256`` list is known), and only then renamed into place
(``os.replace``, atomic on one file system).  A failed or partial download never leaves
a file under the canonical name.

``URLS`` (from :mod:`olearn.datasets._urls`) maps each file name to its canonical public
URL.  Tests point entries at a local server with ``monkeypatch.setitem(URLS, ...)``; the
loaders themselves never change.
"""

from __future__ import annotations

import http.client
import os
import urllib.error
import urllib.request
from pathlib import Path

from olearn._io import atomic_path
from olearn.datasets import _archive
from olearn.datasets._errors import DatasetUnavailable
from olearn.datasets._paths import _data_home, data_home_origin, is_writable_dir
from olearn.datasets._urls import URLS

CHUNK_BYTES = 1 << 16
TIMEOUT_SECONDS = 60.0


def ensure_file(
    filename: str, data_home=None, *, download: bool = True, progress: bool = True
) -> Path:
    """The path of ``filename`` in the data folder, downloading it first if absent.

    Raises
    ------
    DatasetUnavailable
        If the file is absent and ``download`` is False, the folder is read-only, the
        download fails (offline, HTTP error) or the downloaded file fails verification.
    """
    home = _data_home(data_home)
    path = home / filename
    if path.is_file():
        return path
    url = URLS.get(filename, "(no known URL)")
    origin = data_home_origin(data_home)
    if home.exists() and not home.is_dir():
        raise DatasetUnavailable(
            f"the data folder {home} (from {origin}) is a file, not a folder, so {filename} "
            f"cannot be there. Set OLEARN_DATA (or pass data_home=) to the folder holding the "
            f"archives, or move that file away so the folder can be created."
        )
    where = _describe_folder(home, origin)
    if not download:
        raise DatasetUnavailable(
            f"{filename} is not in {home}{where} and download=False. Download it from {url} "
            f"into {home} (or call olearn.datasets.fetch), or set OLEARN_DATA to a folder "
            "that has it."
        )
    if filename not in URLS:
        raise DatasetUnavailable(f"{filename} is not in {home}{where} and has no download URL.")
    if not _can_write_into(home):
        raise DatasetUnavailable(
            f"{filename} is not in {home}{where}, and that folder is read-only so it cannot "
            f"be downloaded there from {url}. Pass data_home= (or set OLEARN_DATA) to a "
            f"writable folder, or put the file in {home} by hand."
        )
    download_file(url, path, progress=progress)
    return path


def _describe_folder(home: Path, origin: str) -> str:
    """`` (from $OLEARN_DATA; it does not exist)`` / ``...; it holds none of olearn's
    archives)``: what a reader needs to see a wrong OLEARN_DATA at once ("" if the folder
    holds some archive)."""
    if not home.exists():
        return f" (from {origin}; that folder does not exist)"
    try:
        present = {p.name for p in home.iterdir()} & set(URLS)
    except OSError:
        return f" (from {origin}; that folder cannot be listed)"
    if present:
        return ""
    return (
        f" (from {origin}; that folder holds none of olearn's archives "
        f"{sorted(URLS)}: is it the right folder?)"
    )


def _can_write_into(home: Path) -> bool:
    for candidate in (home, *home.parents):
        if candidate.exists():
            return is_writable_dir(candidate)
    return False


def download_file(url: str, dest: Path, *, progress: bool = True) -> Path:
    """Stream ``url`` into ``dest``: temp file, verification, then atomic rename.

    Raises
    ------
    DatasetUnavailable
        On any network error, a truncated body, or a failed verification; the message
        names the file, the URL and the folder.
    """
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(dest, suffix=".part") as tmp:
        with open(tmp, "wb") as out:
            try:
                _stream(url, out, dest.name, progress)
            except (OSError, urllib.error.URLError, http.client.HTTPException) as exc:
                reason = getattr(exc, "reason", None) or exc
                raise DatasetUnavailable(
                    f"{dest.name} is not in {dest.parent} and could not be downloaded from "
                    f"{url} ({reason}). Are you offline? Download it by hand into "
                    f"{dest.parent}, or set OLEARN_DATA to a folder that has it."
                ) from exc
            out.flush()
            os.fsync(out.fileno())
        try:
            verify_archive(tmp, dest.name)
        except DatasetUnavailable as exc:
            raise DatasetUnavailable(
                f"{dest.name} downloaded from {url} failed verification ({exc}); "
                f"nothing was written to {dest.parent}."
            ) from exc
    return dest


def _stream(url: str, out, label: str, progress: bool) -> None:
    from tqdm.auto import tqdm  # here: importing the data layer need not load tqdm (asyncio)

    with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        received = 0
        with tqdm(
            total=total,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            desc=f"downloading {label}",
            disable=not progress,
        ) as bar:
            while chunk := response.read(CHUNK_BYTES):
                out.write(chunk)
                received += len(chunk)
                bar.update(len(chunk))
    if total is not None and received != total:
        raise OSError(f"connection closed after {received} of {total} bytes")


def verify_archive(path: Path, name: str) -> None:
    """Check an archive's integrity by decompressing it completely, in bounded chunks.

    ``name``'s suffix picks the check (:mod:`olearn.datasets._archive`): ``.tar.gz``: every
    header, every member read to its end, the end marker and the gzip CRC; ``.bz2``/``.gz``:
    decompressed to the end (CRC), not empty.  Where known, SHA-256 too: a ``<name>.sha256``
    file (``sha256sum`` format) beside the *target* location (``path``'s folder) for the
    whole file, and for ``<stem>.tar.gz`` a ``<stem>.members.sha256`` list for each member.

    Raises
    ------
    ArchiveCorrupt
        (a :class:`DatasetUnavailable`, so an OSError and a ValueError) on a corrupt,
        truncated, empty or mismatching archive; the message names the file.
    """
    path = Path(path)
    expected_file = _archive.read_members_sha256(path.parent / f"{name}.sha256")
    if expected_file:
        digest = _archive.file_sha256(path)
        if digest not in expected_file.values():
            raise _archive.corrupt(path, f"sha256 {digest} differs from {name}.sha256")
    if name.endswith((".tar.gz", ".tgz")):
        stem = name.removesuffix(".tar.gz").removesuffix(".tgz")
        expected = _archive.read_members_sha256(path.parent / f"{stem}.members.sha256")
        digests = tar_member_sha256(path)
        if expected is not None:
            try:
                check_members(digests, expected)
            except ValueError as exc:
                raise _archive.corrupt(path, str(exc)) from None
    elif name.endswith((".bz2", ".gz")):
        _archive.drain_compressed(path, name)


tar_member_sha256 = _archive.tar_member_sha256
read_members_sha256 = _archive.read_members_sha256


def check_members(digests: dict[str, str], expected: dict[str, str]) -> None:
    """Raise ValueError unless every listed member is present with the listed sha256."""
    missing = sorted(set(expected) - set(digests))
    wrong = sorted(m for m in expected if m in digests and digests[m] != expected[m])
    if missing or wrong:
        raise ValueError(f"members missing: {missing[:5]}, sha256 mismatch: {wrong[:5]}")
