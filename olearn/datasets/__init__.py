"""Datasets: embedded toys, the seeds' real corpora (downloaded, parsed, cached), uploads.

>>> from olearn import datasets
>>> ds = datasets.load("toy-separable", n_samples=60, margin=0.3)
>>> ds.X.shape, ds.meta["n_classes"]
((60, 2), 3)
>>> "usps" in datasets.names("real")
True

Public API: :func:`load`, :func:`names`, :func:`card`, :func:`fetch`, :func:`read_upload`,
:func:`check_options` (an option's value converted to its declared type, or a clear error),
the :class:`Dataset` container and the :class:`DatasetUnavailable` error; :func:`data_home`
and :func:`cache_dir` say where archives and parsed matrices live.

Real datasets go ``archive in the data folder (else downloaded) -> parse -> .npz cache``;
the cache key holds the dataset name, its parser version and every option, and a cached
file is reused only while the archives it came from keep their content (SHA-256).  A damaged
archive raises :class:`ArchiveCorrupt` (a :class:`DatasetUnavailable`) naming the file and
the fix; it never loads as a smaller corpus.
"""

from __future__ import annotations

import importlib
import os
import tarfile
import warnings
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from olearn.datasets import _cards, _paths, _status
from olearn.datasets._archive import corrupt, file_sha256
from olearn.datasets._errors import ArchiveCorrupt, DatasetUnavailable
from olearn.datasets._housekeeping import archive_usage, cache_usage, clean_cache
from olearn.datasets._paths import cache_dir, data_home
from olearn.datasets._registry import KINDS, SPECS, DatasetSpec, spec

if TYPE_CHECKING:
    from olearn.datasets._base import Dataset

__all__ = [
    "ArchiveCorrupt",
    "Dataset",
    "DatasetUnavailable",
    "archive_usage",
    "cache_dir",
    "cache_usage",
    "card",
    "check_options",
    "clean_cache",
    "data_home",
    "fetch",
    "load",
    "names",
    "read_upload",
]


def names(kind: str | None = None) -> list[str]:
    """Registered dataset names, optionally of one ``kind``.

    Parameters
    ----------
    kind : {"toy", "embedded", "real", "pairs", "sgd"}, optional
        ``toy``: 2-D generators; ``embedded``: bundled (digits); ``real``: the seed 000
        corpora (usps, 20news-8, reuters-20); ``pairs``: binary document pairs (seed 002);
        ``sgd``: hashed one-vs-rest sets (seed 004).

    Examples
    --------
    >>> names("toy")
    ['toy-blobs', 'toy-separable', 'toy-xor', 'toy-moons', 'toy-drift']
    """
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; choose one of {KINDS}")
    return [name for name, s in SPECS.items() if kind is None or s.kind == kind]


def load(
    name: str,
    data_home: str | os.PathLike | None = None,
    *,
    download: bool = True,
    progress: bool = True,
    **options,
) -> Dataset:
    """Load a dataset by name.

    Parameters
    ----------
    name : str
        One of :func:`names`.
    data_home : str or path-like, optional
        Folder of the archives; default ``$OLEARN_DATA``, else ``~/olearn_data``.
    download : bool, default=True
        Download a missing archive from its public URL (else raise DatasetUnavailable).
    progress : bool, default=True
        Show a tqdm bar while downloading.
    **options
        The dataset's options (``n_samples``, ``noise``, ``margin``, ``random_state`` for
        toys; ``min_df``... for corpora), converted to their declared types
        (:func:`check_options`: ``"no"`` is False for a boolean); unknown options and values
        of the wrong type raise ValueError.

    Returns
    -------
    Dataset
        ``X`` (dense or CSR float64), ``y``, ``meta`` (the card), ``X_test``/``y_test``.

    Raises
    ------
    DatasetUnavailable
        When an archive is absent and cannot be downloaded (the message names the file, its
        URL and the folder).

    Examples
    --------
    >>> ds = load("toy-xor", n_samples=40, random_state=1)
    >>> ds.X.shape, sorted(ds.meta["class_counts"])
    ((40, 2), [0, 1])
    """
    from olearn.datasets import _cache
    from olearn.datasets._options import check_options

    s = spec(name)
    opts = check_options(s, options)
    if not s.files:
        return s.function()(**s.fixed, **opts)
    home = _paths.data_home(data_home)
    path = _cache_file(s, opts, home)
    if path is not None:
        sources = _sources(s, home)
        cached = _cache.read(path, sources)
        if cached is not None:
            if _cards.read_card(path, sources) is None:  # sidecar lost or from old code
                _cache.write_card(path, cached, sources)
            return cached
    from olearn.datasets._download import ensure_file  # the network stack: only now

    paths = {f: ensure_file(f, data_home, download=download, progress=progress) for f in s.files}
    try:
        with _status.parsing(name, s.files):
            ds = s.function()(paths, **s.fixed, **opts)
    except ArchiveCorrupt as exc:
        if not hasattr(exc, "path"):
            raise
        raise corrupt(exc.path, exc.reason, dataset=name) from exc
    except (EOFError, OSError, tarfile.TarError, zlib.error, UnicodeDecodeError) as exc:
        raise DatasetUnavailable(
            f"{name}: could not read {', '.join(s.files)} in {home} ({exc!r}). The file is "
            f"damaged or not the expected archive: delete it and run "
            f"`python -m olearn datasets fetch {name}` (or olearn.datasets.fetch)."
        ) from exc
    if path is not None:
        _cache.write(path, ds, _sources(s, home))
    return ds


def card(name: str, data_home: str | os.PathLike | None = None, *, build: bool = False) -> dict:
    """The dataset card of ``name`` with its default options.

    Always cheap by default: the cached card (the ``.card.json`` sidecar written beside the
    parsed ``.npz``) when there is one, else the static part (title, source, url, licence,
    notes, ``paper_table``) without sizes.  With ``build=True`` a dataset whose archives are
    in the data folder but which is not cached yet is parsed (and cached) first.  Nothing is
    ever downloaded: with an archive absent, ``downloaded`` is False and ``missing`` lists
    the absent files.  Toys and digits are generated (cheap) and always have sizes.

    Returns
    -------
    dict
        ``name, kind, title, source, url, licence, notes``, ``paper_table`` where the seed
        prints sizes, ``files`` (archives used), ``downloaded``, and, once built,
        ``n_samples, n_features, n_classes, class_counts, nnz, density, nnz_per_row,
        n_test``.

    Examples
    --------
    >>> card("toy-blobs")["n_samples"]
    200
    """
    s = spec(name)
    head = {"name": name, "kind": s.kind, "files": list(s.files)}
    home = _paths.data_home(data_home)
    if not s.files:
        return {**head, "downloaded": True, **_generated_card(s, home)}
    path = _cache_file(s, dict(s.defaults), home, create=False)
    stored = None if path is None else _cards.read_card(path, _sources(s, home))
    missing = [f for f in s.files if not (home / f).is_file()]
    if stored is not None:
        return {**head, **stored, "downloaded": not missing, "missing": missing}
    if not missing and build:
        return {**head, "downloaded": True, **_meta(load(name, home, download=False))}
    return {**head, **s.static_card(), "downloaded": not missing, "missing": missing}


def fetch(
    name: str, data_home: str | os.PathLike | None = None, *, progress: bool = True
) -> list[Path]:
    """Download the archives ``name`` needs into the data folder (if absent); their paths.

    Embedded datasets need none (returns ``[]``).  ``python -m olearn datasets fetch NAME``.
    """
    from olearn.datasets._download import ensure_file

    s = spec(name)
    return [ensure_file(f, data_home, download=True, progress=progress) for f in s.files]


def _cache_file(s: DatasetSpec, opts: dict, home: Path, create: bool = True) -> Path | None:
    """The cache file of ``s`` with ``opts``, or None (with a warning) when no cache folder
    can be made (read-only, a file in the way): loading then works without a cache."""
    try:
        folder = _paths.cache_dir(home, create=create)
    except OSError as exc:
        warnings.warn(
            f"no cache for {s.name}: the cache folder cannot be created ({exc}); parsing "
            "from the archives every time. Set OLEARN_CACHE to a writable folder.",
            stacklevel=3,
        )
        return None
    return folder / f"{_cards.cache_key(s.name, s.parser_version, opts)}.npz"


def _sources(s: DatasetSpec, home: Path) -> dict[str, str]:
    """``{file: sha256 of its bytes}`` of the archives present (absent ones are not held
    against a cache): a repaired or replaced archive invalidates what was parsed from it.
    Their digests are remembered in the cache folder (:func:`._cards.archive_digests`)."""
    present = [home / f for f in s.files if (home / f).is_file()]
    if not present:
        return {}
    try:
        folder = _paths.cache_dir(home, create=False)
        folder = folder if folder.is_dir() else None
    except OSError:
        folder = None
    return _cards.archive_digests(present, folder, file_sha256)


def _generated_card(s: DatasetSpec, home: Path) -> dict:
    """The card of a generated dataset (toys, digits): the one stored in the cache folder
    while its generator's source is unchanged, else computed (numpy) and stored there if the
    folder exists (made by the first dataset parsed)."""
    path = _cache_file(s, dict(s.defaults), home, create=False)
    sources = {"generator": _cards.generator_digest(s.builder)}
    if path is not None:
        stored = _cards.read_card(path, sources, data=False)
        if stored is not None:
            return stored
    meta = _meta(load(s.name))
    if path is not None and path.parent.is_dir():  # (a card creates no folder)
        try:
            _cards.write_card(path, meta, sources)
        except OSError:
            pass  # a read-only cache: computed every time
    return meta


def _meta(ds: Dataset) -> dict:
    from olearn.datasets._base import ARRAY_META

    return {k: v for k, v in ds.meta.items() if k not in ARRAY_META}


# imported on first use: ``import olearn.datasets`` (listing names, reading a card, the
# CLI's parser) loads neither numpy nor scipy, nor scikit-learn's svmlight reader (uploads)
_LAZY = {
    "Dataset": "olearn.datasets._base",
    "check_options": "olearn.datasets._options",
    "read_upload": "olearn.datasets.upload",
}


def __getattr__(attr: str):
    """The names of :data:`_LAZY`, imported on first use."""
    if attr in _LAZY:
        return getattr(importlib.import_module(_LAZY[attr]), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
