"""Where archives live (the data folder) and where parsed matrices are cached.

- data folder: the ``data_home`` argument, else ``$OLEARN_DATA``, else ``~/olearn_data``.
- cache: ``$OLEARN_CACHE``, else ``<data folder>/.olearn_cache`` if that can be written,
  else the user cache folder (``$XDG_CACHE_HOME/olearn``, default ``~/.cache/olearn``).

"Can be written" honours the permission bits even when running as root: a data folder
shipped read-only (``r-x``, as in CI) is never written into, although root could.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def data_home(data_home: str | os.PathLike | None = None) -> Path:
    """The folder holding the canonical archives.

    Parameters
    ----------
    data_home : str or path-like, optional
        Explicit folder; default ``$OLEARN_DATA``, else ``~/olearn_data``.

    Returns
    -------
    pathlib.Path
        The folder (not created here).
    """
    return _data_home(data_home)


def data_home_origin(value: str | os.PathLike | None = None) -> str:
    """Where the data folder comes from, for messages: the argument, ``$OLEARN_DATA`` or
    the default."""
    if value is not None:
        return "the data_home argument"
    if os.environ.get("OLEARN_DATA"):
        return "$OLEARN_DATA"
    return "the default (no $OLEARN_DATA set)"


def _data_home(value: str | os.PathLike | None) -> Path:
    if value is None:
        value = os.environ.get("OLEARN_DATA") or "~/olearn_data"
    return Path(value).expanduser()


def cache_dir(data_home: str | os.PathLike | None = None, *, create: bool = True) -> Path:
    """The folder for parsed ``.npz`` matrices and their cards.

    Parameters
    ----------
    data_home : str or path-like, optional
        The data folder whose ``.olearn_cache`` subfolder is preferred when writable.
    create : bool, default=True
        Create the folder if needed (False: only say where it is or would be).

    Returns
    -------
    pathlib.Path
    """
    env = os.environ.get("OLEARN_CACHE")
    beside_data = _data_home(data_home) / ".olearn_cache"
    if env:
        path = Path(env).expanduser()
    elif _can_create(beside_data):
        path = beside_data
    else:
        path = Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser() / "olearn"
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def is_writable_dir(path: Path) -> bool:
    """True if ``path`` is a directory we may write into (permission bits, then access)."""
    try:
        st = path.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or not os.access(path, os.W_OK | os.X_OK):
        return False
    if not hasattr(os, "geteuid"):  # Windows: os.access is all there is
        return True
    if st.st_uid == os.geteuid():
        return bool(st.st_mode & stat.S_IWUSR)
    if st.st_gid in (os.getegid(), *os.getgroups()):
        return bool(st.st_mode & stat.S_IWGRP)
    return bool(st.st_mode & stat.S_IWOTH)


def _can_create(path: Path) -> bool:
    """True if ``path`` exists as a writable folder or its nearest existing parent is one."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return is_writable_dir(candidate)
    return False
