"""Atomic file writes: a temp file in the target's folder, flushed, then ``os.replace``.

A reader never sees a half-written file: either the previous content or the new one.  On a
full disk or any other failure the temp file is removed and the previous file is untouched.
:func:`atomic_write_many` stages every file first and renames only when all were written, so
the outputs of one run are never mixed with those of an earlier run by a failure midway.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(d / "a.txt", "hello")
>>> (d / "a.txt").read_text()
'hello'
>>> atomic_write_many({d / "a.txt": b"one", d / "b.txt": b"two"})
>>> sorted(p.name for p in d.iterdir())
['a.txt', 'b.txt']
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO


def _temp_beside(path: Path, suffix: str = ".tmp") -> tuple[int, Path]:
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
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
