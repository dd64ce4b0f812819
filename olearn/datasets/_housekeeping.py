"""What the data folder and the parse cache hold, and cleaning them (``olearn datasets``).

Only olearn's own files are counted or removed, recognised by name: in the cache folder the
parsed matrices ``<dataset>-p<parser version>-<12 hex digits>.npz`` and their ``.card.json``
sidecars (:mod:`olearn.datasets._cache`), plus stale temp files of interrupted writes
(:func:`olearn._io.remove_stale_temp_files`); in the data folder the canonical archives the
registry names.  ``$OLEARN_CACHE`` may point at a folder holding other files: they are never
touched.  Cleaning the cache never removes an archive; archives go only with ``archives=True``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from olearn._io import remove_stale_temp_files
from olearn.datasets import _paths
from olearn.datasets._registry import SPECS

_CACHE_NAME = re.compile(r"^(?P<name>.+)-p\d+-[0-9a-f]{12}\.(npz|card\.json)$")


@dataclass(frozen=True)
class Usage:
    """Files of one kind in one folder: ``files`` maps each path to its size in bytes."""

    folder: Path
    origin: str
    files: dict[Path, int] = field(default_factory=dict)

    @property
    def n_bytes(self) -> int:
        return sum(self.files.values())

    def by_dataset(self) -> dict[str, tuple[int, int]]:
        """``{dataset: (n_files, n_bytes)}`` (cache files only; archives are their own name)."""
        out: dict[str, tuple[int, int]] = {}
        for path, size in self.files.items():
            match = _CACHE_NAME.match(path.name)
            name = match["name"] if match else path.name
            n, total = out.get(name, (0, 0))
            out[name] = (n + 1, total + size)
        return dict(sorted(out.items()))


def archive_names() -> list[str]:
    """Every archive file a registry dataset reads, once, sorted."""
    return sorted({f for s in SPECS.values() for f in s.files})


def cache_origin(folder: Path, data_home: str | os.PathLike | None = None) -> str:
    """Why the cache is in ``folder``, for messages."""
    if os.environ.get("OLEARN_CACHE"):
        return "$OLEARN_CACHE"
    if folder == _paths.data_home(data_home) / ".olearn_cache":
        return "beside the archives"
    return "the user cache folder: the data folder cannot be written"


def cache_usage(data_home: str | os.PathLike | None = None) -> Usage:
    """The parse cache's folder and olearn's files in it (nothing is created)."""
    folder = _paths.cache_dir(data_home, create=False)
    files: dict[Path, int] = {}
    for path in _listing(folder):
        if _CACHE_NAME.match(path.name):
            files[path] = _size(path)
    return Usage(folder, cache_origin(folder, data_home), files)


def archive_usage(data_home: str | os.PathLike | None = None) -> Usage:
    """The data folder and the registry's archives present in it."""
    folder = _paths.data_home(data_home)
    files = {folder / f: _size(folder / f) for f in archive_names() if (folder / f).is_file()}
    return Usage(folder, _paths.data_home_origin(data_home), files)


def clean_cache(
    data_home: str | os.PathLike | None = None, *, archives: bool = False
) -> list[Usage]:
    """Remove the parse cache's files (and, only with ``archives=True``, the downloaded
    archives); what was removed, as :class:`Usage` records (cache first).

    A file that cannot be removed raises OSError naming it, after the others are removed.
    """
    targets = [cache_usage(data_home)]
    if archives:
        targets.append(archive_usage(data_home))
    removed, failed = [], []
    for usage in targets:
        gone: dict[Path, int] = {}
        for path, size in usage.files.items():
            try:
                path.unlink()
                gone[path] = size
            except FileNotFoundError:
                continue
            except OSError as exc:
                failed.append(f"{path} ({exc.strerror or exc})")
        removed.append(Usage(usage.folder, usage.origin, gone))
    for path in remove_stale_temp_files(targets[0].folder):
        removed[0].files[path] = 0
    if failed:
        raise OSError(f"could not remove {len(failed)} file(s): " + "; ".join(failed))
    return removed


def _listing(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.is_file())
    except OSError:  # absent, not a folder, unreadable: nothing of ours to show
        return []


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
