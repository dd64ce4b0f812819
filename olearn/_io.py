"""Atomic file writes: a temp file in the target's folder, flushed, then ``os.replace``.

A reader never sees a half-written file: either the previous content or the new one.  On a
full disk or any other failure the temp file is removed and the previous file is untouched.
:func:`atomic_write_many` stages every file first and renames only when all were written, so
the outputs of one run are never mixed with those of an earlier run by a failure midway.

Files are created with the process umask (``0o666 & ~umask``, as ``open`` would), not the
``0600`` of :func:`tempfile.mkstemp`, so a lecturer's shared results or cache folder stays
readable by the group.  The umask is read from ``/proc/self/status`` where there is one
(``os.umask`` can only be read by setting it: process-global, not thread-safe), else once
at import.

A writer killed mid-write (SIGKILL, power cut) cannot remove its temp file.  Temp names are
therefore recognisable, ``.<name>.olearn-<host>-<pid>-<random><suffix>``, and every write
first removes, in the folder it writes into, the stale temp files this user owns: those whose
writer process (same host) is dead, and any older than :data:`STALE_SECONDS` (an hour: a
writer on another host, or a pid reused since).  Temp files of the old form
(``.<name>.<random>.tmp``) are removed after the hour too.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     d = pathlib.Path(folder)
...     atomic_write_text(d / "a.txt", "hello")
...     atomic_write_many({d / "a.txt": b"one", d / "b.txt": b"two"})
...     (d / "a.txt").read_text(), sorted(p.name for p in d.iterdir())
('one', ['a.txt', 'b.txt'])
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO

STALE_SECONDS = 3600.0
_HOST = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:16] or "host"
# .<target>.olearn-<host>-<pid>-<8 random chars from mkstemp><suffix>
_TEMP_NAME = re.compile(r"^\..+\.olearn-(?P<host>[A-Za-z0-9]+)-(?P<pid>\d+)-\w{8}\.\w+$")
_LEGACY_TEMP_NAME = re.compile(r"^\..+\.[a-z0-9_]{8}\.(tmp|part)$")  # mkstemp, before the tag


def _umask_from_proc() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _umask_at_import() -> int:
    found = _umask_from_proc()
    if found is None:  # no /proc: set and restore once, while importing (one thread)
        found = os.umask(0o022)
        os.umask(found)
    return found


_UMASK_AT_IMPORT = _umask_at_import()


def current_umask() -> int:
    """The process umask: live from ``/proc/self/status``, else the one at import."""
    found = _umask_from_proc()
    return _UMASK_AT_IMPORT if found is None else found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True  # exists under another user, or cannot tell: keep the file
    return True


def _is_stale(name: str, st: os.stat_result, now: float) -> bool:
    old = now - st.st_mtime > STALE_SECONDS
    match = _TEMP_NAME.match(name)
    if match is None:
        return old and _LEGACY_TEMP_NAME.match(name) is not None
    return old or (match["host"] == _HOST and not _alive(int(match["pid"])))


def remove_stale_temp_files(folder: str | os.PathLike) -> list[Path]:
    """Remove the stale temp files of interrupted writers in ``folder`` (rules in the
    module docstring); only files this user owns.  Never raises; the removed paths."""
    removed: list[Path] = []
    now = time.time()
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith("."):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if not entry.is_file(follow_symlinks=False) or (uid is not None and st.st_uid != uid):
                continue
            if _is_stale(entry.name, st, now):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


_CLEANED: dict[str, float] = {}  # folder -> when this process last cleaned it
_CLEANED_LOCK = threading.Lock()
_CLEAN_EVERY_SECONDS = 60.0


def _clean_once_in_a_while(folder: Path) -> None:
    key, now = str(folder), time.monotonic()
    with _CLEANED_LOCK:
        if now - _CLEANED.get(key, -_CLEAN_EVERY_SECONDS) < _CLEAN_EVERY_SECONDS:
            return
        _CLEANED[key] = now
    remove_stale_temp_files(folder)


def _temp_beside(path: Path, suffix: str = ".tmp") -> tuple[int, Path]:
    _clean_once_in_a_while(path.parent)
    fd, name = tempfile.mkstemp(
        prefix=f".{path.name[:100]}.olearn-{_HOST}-{os.getpid()}-", suffix=suffix, dir=path.parent
    )
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o666 & ~current_umask())  # mkstemp's 0600 -> what open() gives
    except OSError:
        os.close(fd)
        os.unlink(name)
        raise
    return fd, Path(name)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, suffix: str = ".tmp") -> Iterator[Path]:
    """The path of an empty temp file beside ``path``; on a clean exit it replaces ``path``
    (for writers that need a path, or a check of the file before it takes the name).

    Raises
    ------
    OSError
        If the folder cannot be written (read-only, missing, full disk...); ``path`` is then
        unchanged and no temp file is left behind (also when the body raises).
    """
    path = Path(path)
    fd, tmp = _temp_beside(path, suffix)
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike) -> Iterator[IO[bytes]]:
    """Open a binary temp file beside ``path``; on a clean exit it replaces ``path``.

    Raises
    ------
    OSError
        As :func:`atomic_path`.
    """
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        yield f
        f.flush()
        os.fsync(f.fileno())


def atomic_write(path: str | os.PathLike, write_to: Callable[[IO[bytes]], object]) -> None:
    """Write ``path`` atomically through ``write_to(binary_file)``."""
    with atomic_open(path) as f:
        write_to(f)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    atomic_write(path, lambda f: f.write(data))


def atomic_write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically."""
    atomic_write_bytes(path, text.encode(encoding))


def atomic_write_many(files: Mapping[str | os.PathLike, bytes]) -> None:
    """Write several files as one unit: all temp files first, then all renames.

    If any write fails (full disk...), every temp file is removed and no target changes.
    The renames themselves need no space, so once they start the whole set lands.
    """
    staged: list[tuple[Path, Path]] = []
    try:
        for target, data in files.items():
            target = Path(target)
            fd, tmp = _temp_beside(target)
            staged.append((tmp, target))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        for tmp, target in staged:
            os.replace(tmp, target)
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
