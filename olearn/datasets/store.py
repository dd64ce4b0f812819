"""An out-of-core binary store: a stream converted once into chunked, memory-mapped CSR.

Parsing text, not learning, bounds an online learner on a large file (issue 19 measured 45k
rows/s for svmlight text against ~1M rows/s for a linear update).  So the text is converted
once, and every later pass reads binary chunks.

Layout of a store folder::

    manifest.json                  what the store holds (below), written last, atomically
    chunk-00000.data.npy           float64 (nnz,)     one chunk: CSR of up to chunk_rows rows
    chunk-00000.indices.npy        int32   (nnz,)     (int64 from 2**31 non-zeros a chunk)
    chunk-00000.indptr.npy         int32   (rows+1,)
    chunk-00000.labels.npy         int64 or text (rows,)
    chunk-00001....

The manifest holds the format and version, the source (path, size, modification time) and
the conversion options, ``n_features``, the label kind and the sorted ``classes``, per chunk
its rows, non-zeros, the source offset after it and the SHA-256 of each file, and
``checksum``: the SHA-256 of the manifest's own canonical JSON without that field.

Atomic and resumable: a chunk's four files are written together (:func:`olearn._io.
atomic_write_many`), then the manifest is rewritten (``complete: false``) to list it.  An
interrupted conversion (Ctrl-C, a kill, a full disk) leaves a valid partial manifest; the same
call again checks the chunks it lists (SHA-256), drops any file it does not list, seeks the
source to the offset after the last listed chunk and goes on: the finished store is identical
to one converted without interruption (the same files, byte for byte).  A converted store
(``complete: true``) for the same source and options is returned as is.

Reading: :func:`open_store` checks the manifest (its checksum and every field,
:mod:`olearn.datasets._store_manifest`; every file's presence and size); :meth:`Store.verify`
checks every chunk's SHA-256.  :meth:`Store.chunks` yields ``(X, y)`` per chunk, X a CSR matrix
over memory maps: memory is bounded by one chunk.  A chunk is checked before anything indexes
it (:mod:`olearn.datasets._store_read`: its SHA-256 at the store's first read of it, its
``.npy`` headers and CSR structure at every read): a damaged one is a ValueError ending in
"damaged; convert again", never a crash.  Every online estimator's ``fit`` / ``partial_fit`` /
``learn_stream`` takes a store in place of ``X`` (y omitted).

>>> import tempfile, pathlib, numpy as np
>>> with tempfile.TemporaryDirectory() as folder:
...     src = pathlib.Path(folder, "train.svm")
...     _ = src.write_text("1 1:0.5 3:1\\n2 2:1\\n1 1:1\\n")
...     store = convert_svmlight(src, pathlib.Path(folder, "train.store"), chunk_rows=2)
...     [(X.shape, y.tolist()) for X, y in store.chunks()]
[((2, 3), [1, 2]), ((1, 3), [1])]
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import numpy as np
import scipy.sparse as sp

from olearn._budget import require
from olearn._io import atomic_write_many, atomic_write_text
from olearn.datasets import _store_read as reading
from olearn.datasets import _store_sources as sources
from olearn.datasets._store_manifest import check_manifest, parse_manifest

FORMAT = "olearn-csr-store"
VERSION = 1
MANIFEST = "manifest.json"
PARTS = ("data", "indices", "indptr", "labels")
DEFAULT_CHUNK_ROWS = 65_536

__all__ = [
    "Store",
    "convert_csv",
    "convert_svmlight",
    "convert_texts",
    "open_store",
    "write_store",
]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _canonical(manifest: dict) -> bytes:
    body = {k: v for k, v in manifest.items() if k != "checksum"}
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def _chunk_name(i: int, part: str) -> str:
    return f"chunk-{i:05d}.{part}.npy"


@dataclass
class Store:
    """A converted store, read chunk by chunk (:func:`open_store` makes one).

    Attributes: ``path``, ``manifest`` (the dict), ``n_rows``, ``n_features``, ``nnz``,
    ``n_chunks``, ``classes`` (sorted labels), ``progress`` (True: :meth:`chunks` shows a tqdm
    bar; estimators read the store through :meth:`chunks`), ``sha256_on_read`` (True: a chunk's
    files are checked against their SHA-256 the first time this store reads it).
    """

    path: Path
    manifest: dict
    progress: bool = False
    sha256_on_read: bool = True
    _verified: set = field(default_factory=set, repr=False, compare=False)  # chunks hashed

    @property
    def n_rows(self) -> int:
        return sum(c["rows"] for c in self.manifest["chunks"])

    @property
    def nnz(self) -> int:
        return sum(c["nnz"] for c in self.manifest["chunks"])

    @property
    def n_features(self) -> int:
        return int(self.manifest["n_features"])

    @property
    def n_chunks(self) -> int:
        return len(self.manifest["chunks"])

    @property
    def shape(self) -> tuple[int, int]:
        return self.n_rows, self.n_features

    @property
    def classes(self) -> np.ndarray:
        kind = np.int64 if self.manifest["label_kind"] == "int" else str
        return np.array(self.manifest["classes"], dtype=kind)

    def __len__(self) -> int:
        return self.n_rows

    def __repr__(self) -> str:
        return (
            f"Store({str(self.path)!r}: {self.n_rows:,} rows x {self.n_features:,} features, "
            f"{self.nnz:,} non-zeros in {self.n_chunks} chunks, {len(self.classes)} classes)"
        )

    def chunk(self, i: int) -> tuple[sp.csr_matrix, np.ndarray]:
        """Chunk ``i`` as ``(X, y)``: X a CSR matrix over read-only memory maps.

        The chunk is checked first (:mod:`olearn.datasets._store_read`: its files' SHA-256 the
        first time this store reads it, unless ``sha256_on_read`` is False, then at every read
        the ``.npy`` headers and the CSR structure, in one pass); a damaged chunk raises
        ValueError ("damaged; convert again").
        """
        from olearn.kernels.sparse import CSR_PROBLEMS, csr_problem  # numba: not at import

        entry = self.manifest["chunks"][i]
        rows, nnz = entry["rows"], entry["nnz"]
        if self.sha256_on_read and i not in self._verified:
            for part in PARTS:
                self._check_sha256(i, part)
            self._verified.add(i)
        kind = self.manifest["label_kind"]
        expected = {
            "data": (nnz, reading.float64),
            "indices": (nnz, reading.index_type),
            "indptr": (rows + 1, reading.index_type),
            "labels": (rows, reading.label_type(kind)),
        }
        arrays = {part: self._part(i, part, *expected[part]) for part in PARTS}
        data, indices, indptr, labels = (arrays[part] for part in PARTS)
        if indices.dtype != indptr.dtype:
            self._damaged(i, "indptr", f"holds {indptr.dtype}, the indices {indices.dtype}")
        problem = csr_problem(indptr, indices, data, self.n_features)
        if problem:
            part = "indptr" if problem <= 4 else ("indices", "data")[problem - 5]
            self._damaged(i, part, CSR_PROBLEMS[problem])
        if not np.all(np.isin(labels, self.classes)):
            self._damaged(i, "labels", "holds a label that is not among the store's classes")
        X = sp.csr_matrix((data, indices, indptr), shape=(rows, self.n_features), copy=False)
        return X, np.asarray(labels)

    def _part(self, i: int, part: str, length: int, dtypes) -> np.ndarray:
        try:
            return reading.read_part(self.path / _chunk_name(i, part), length, dtypes)
        except reading.Damaged as err:
            self._damaged(i, part, str(err))

    def _check_sha256(self, i: int, part: str) -> None:
        file = self.path / _chunk_name(i, part)
        try:
            digest = reading.sha256_file(file)
        except OSError as err:
            self._damaged(i, part, f"cannot be read ({err.strerror or err})")
        if digest != self.manifest["chunks"][i]["sha256"][part]:
            self._damaged(i, part, "checksum mismatch")

    def _damaged(self, i: int, part: str, what: str) -> NoReturn:
        raise ValueError(
            f"store {self.path}: chunk {i}, file {_chunk_name(i, part)}: {what}; "
            "damaged; convert again"
        )

    def chunks(self, progress: bool | None = None) -> Iterator[tuple[sp.csr_matrix, np.ndarray]]:
        """Every chunk in order, as :meth:`chunk` (a tqdm bar of rows with ``progress``)."""
        show = self.progress if progress is None else progress
        bar = None
        if show:
            from tqdm.auto import tqdm

            bar = tqdm(total=self.n_rows, unit="row", unit_scale=True, desc=self.path.name)
        try:
            for i in range(self.n_chunks):
                X, y = self.chunk(i)
                yield X, y
                if bar is not None:
                    bar.update(X.shape[0])
        finally:
            if bar is not None:
                bar.close()

    def chunk_order(self, rng) -> np.ndarray:
        """The chunks' indices, permuted by ``rng`` (None: in order)."""
        n = self.n_chunks
        return np.arange(n) if rng is None else rng.permutation(n)

    def verify(self) -> None:
        """Raise ValueError unless every chunk file has the SHA-256 the manifest records."""
        for i in range(self.n_chunks):
            for part in PARTS:
                self._check_sha256(i, part)
            self._verified.add(i)

    def to_arrays(self) -> tuple[sp.csr_matrix, np.ndarray]:
        """The whole store in memory (checked against the memory budget first)."""
        require(self.nnz * 12 + self.n_rows * 16, f"the store {self.path} in memory")
        parts = list(self.chunks(progress=False))
        X = sp.vstack([X for X, _ in parts], format="csr")
        return X, np.concatenate([y for _, y in parts])


def _read_manifest(path: Path) -> dict | None:
    """The manifest of the store at ``path`` (None if there is none), checked completely
    (:mod:`olearn.datasets._store_manifest`): ValueError naming the file and the field."""
    file = path / MANIFEST
    if not file.exists():
        return None
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, ValueError) as err:
        raise ValueError(f"{file}: not a readable store manifest ({err}); convert again") from None
    manifest = parse_manifest(text, file)
    if manifest.get("format") != FORMAT:
        raise ValueError(f"{file}: not an olearn store manifest (if it was one: damaged or "
                         "edited; convert again)")  # fmt: skip
    if manifest.get("version") != VERSION:
        version = repr(manifest.get("version"))[:40]
        raise ValueError(f"{file}: store version {version}, need {VERSION}; convert again")
    if manifest.get("checksum") != _sha256(_canonical(manifest)):
        raise ValueError(
            f"{file}: manifest checksum mismatch (damaged or edited); convert again "
            "(overwrite=True)"
        )
    check_manifest(manifest, file)
    return manifest


def open_store(
    path: str | os.PathLike, progress: bool = False, verify: bool | None = None
) -> Store:
    """Open a converted store (ValueError if it is not one, or is incomplete or damaged).

    The manifest (its checksum and every field) and every chunk file's presence and size are
    checked now.  The files' SHA-256: ``verify=None`` (default) checks each chunk's the first
    time the store reads the chunk (a full read of it, once: ~0.1 s per 100 MB); ``True``
    every file now; ``False`` never (for a store known intact and read once: the structure
    checks of every read still refuse a damage that could crash the process, but a value
    damaged into another finite value is then read as it is).
    """
    path = Path(path)
    manifest = _read_manifest(path)
    if manifest is None:
        raise ValueError(f"{path} is not an olearn store (no {MANIFEST}); convert a file first")
    if not manifest.get("complete"):
        raise ValueError(
            f"{path}: the conversion was interrupted; run the same conversion again to resume it"
        )
    for i, entry in enumerate(manifest["chunks"]):
        for part in PARTS:
            file = path / _chunk_name(i, part)
            if not file.exists() or file.stat().st_size != entry["bytes"][part]:
                raise ValueError(f"{file}: missing or of the wrong size (damaged); convert again")
    store = Store(path, manifest, progress, sha256_on_read=verify is not False)
    if verify:
        store.verify()
    return store


# ----------------------------------------------------------------------------- writing


@dataclass
class _Writer:
    """Writes chunks and the journal manifest of one conversion."""

    dest: Path
    manifest: dict

    def add(self, X: sp.csr_matrix, y: np.ndarray, end_offset: int) -> None:
        i = len(self.manifest["chunks"])
        # scipy's own choice (int32 below 2**31 non-zeros and columns): a memory map of that
        # dtype is used as it is, never copied to convert its indices
        index = np.int32 if X.nnz < 2**31 - 1 and X.shape[1] <= 2**31 else np.int64
        arrays = {
            "data": np.ascontiguousarray(X.data, dtype=np.float64),
            "indices": np.ascontiguousarray(X.indices, dtype=index),
            "indptr": np.ascontiguousarray(X.indptr, dtype=index),
            "labels": np.ascontiguousarray(y),
        }
        blobs = {part: _npy(a) for part, a in arrays.items()}
        atomic_write_many({self.dest / _chunk_name(i, p): b for p, b in blobs.items()})
        classes = set(self.manifest["classes"]) | set(y.tolist())
        self.manifest["classes"] = sorted(classes)
        self.manifest["n_features"] = max(self.manifest["n_features"], int(X.shape[1]))
        self.manifest["chunks"].append(
            {
                "rows": int(X.shape[0]),
                "nnz": int(X.nnz),
                "end_offset": int(end_offset),
                "bytes": {p: len(b) for p, b in blobs.items()},
                "sha256": {p: _sha256(b) for p, b in blobs.items()},
            }
        )
        self.save()

    def save(self) -> None:
        self.manifest["checksum"] = _sha256(_canonical(self.manifest))
        text = json.dumps(self.manifest, indent=1, sort_keys=True)
        atomic_write_text(self.dest / MANIFEST, text + "\n")


def _source_id(source: Path) -> dict:
    st = source.stat()
    return {"path": str(source.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _begin(dest: Path, source: dict, options: dict, overwrite: bool) -> _Writer:
    """A writer for ``dest``: fresh, resumed from a partial manifest of the same conversion,
    or (complete, same conversion) None-equivalent handled by the caller."""
    dest.mkdir(parents=True, exist_ok=True)
    old = None if overwrite else _read_manifest(dest)
    if old is not None and not old["chunks"] and not old["complete"]:
        old = None  # a conversion refused before its first chunk: nothing to keep
    if old is not None and (old["source"] != source or old["options"] != options):
        raise ValueError(
            f"{dest} holds a store of another source or other options ({old['source']['path']}, "
            f"{old['options']}); choose another folder, or pass overwrite=True to replace it"
        )
    fresh = old is None
    if fresh:
        old = {
            "format": FORMAT,
            "version": VERSION,
            "source": source,
            "options": options,
            "n_features": int(options.get("n_features") or 0),
            "label_kind": None,
            "classes": [],
            "chunks": [],
            "complete": False,
        }
    writer = _Writer(dest, old)
    if not old["complete"]:
        Store(dest, old).verify()  # the chunks a resume keeps must be intact
    keep = {_chunk_name(i, p) for i in range(len(old["chunks"])) for p in PARTS}
    for file in dest.glob("chunk-*.npy"):  # written by an interrupted run, never listed
        if file.name not in keep:
            file.unlink()
    if fresh or not (dest / MANIFEST).exists():
        writer.save()
    return writer


def _check_chunk_rows(chunk_rows: int) -> int:
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive int, got {chunk_rows!r}")
    return chunk_rows


def _check_plain_text(source: Path) -> None:
    """ValueError for a compressed file or a binary format (the uploads' checks,
    :mod:`olearn.datasets._decode`): a conversion seeks into its source to resume."""
    from olearn.datasets._decode import _compression, _refuse_unsupported

    with open(source, "rb") as f:
        head = f.read(512)
    _refuse_unsupported(head, str(source))
    compression = _compression(head)
    if compression:
        raise ValueError(
            f"{source} is compressed ({compression}); decompress it first (a conversion reads "
            "plain UTF-8 text, and seeks into it to resume)"
        )


_FEATURE = {"svmlight": "an 'index:value' pair", "csv": "a cell besides the label",
            "texts": "a hashed term"}  # fmt: skip


def _labels_option(labels: str) -> dict:
    """The manifest's option for ``labels`` ("auto": none, so stores converted before the
    option existed keep their options)."""
    if labels not in ("auto", "str"):
        raise ValueError(f"labels must be 'auto' or 'str', got {labels!r}")
    return {"labels": "str"} if labels == "str" else {}


def _convert(source: Path, dest, options: dict, parse, overwrite: bool, progress: bool) -> Store:
    source, dest = Path(source), Path(dest)
    if not source.is_file():
        raise ValueError(f"{source}: no such file")
    _check_plain_text(source)
    chunk_rows = _check_chunk_rows(options["chunk_rows"])
    writer = _begin(dest, _source_id(source), options, overwrite)
    manifest = writer.manifest
    if not manifest["complete"]:
        chunks = manifest["chunks"]
        start = chunks[-1]["end_offset"] if chunks else 0
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=source.stat().st_size, initial=start, unit="B", unit_scale=True)
        try:
            for group in sources.line_groups(source, chunk_rows, start):
                kind = manifest["label_kind"] or options.get("labels")
                width = manifest["n_features"] if manifest["chunks"] else None
                X, y, manifest["label_kind"] = parse(group, kind, width)
                writer.add(X, y, group.end)
                if bar is not None:
                    bar.update(group.end - bar.n)
        finally:
            if bar is not None:
                bar.close()
        if not manifest["chunks"]:
            raise ValueError(f"{source} has no data lines")
        pairs = any(c["nnz"] for c in manifest["chunks"])
        if manifest["n_features"] < 1 or (options["kind"] == "svmlight" and not pairs):
            raise ValueError(
                f"{source}: no line has a feature (for {options['kind']}: "
                f"{_FEATURE[options['kind']]}); a store needs at least one"
            )
        manifest["complete"] = True
        writer.save()
    return open_store(dest)


def convert_svmlight(
    source: str | os.PathLike,
    dest: str | os.PathLike,
    *,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    n_features: int | None = None,
    zero_based: bool = False,
    labels: str = "auto",
    overwrite: bool = False,
    progress: bool = False,
) -> Store:
    """Convert a LIBSVM/svmlight file (``label index:value ...``) into a store at ``dest``.

    ``zero_based=False`` (LIBSVM's convention) reads index 1 as the first column; it is not
    guessed per chunk, which could read two chunks of one file differently.  ``n_features``
    fixes the width (a larger index is an error); None takes the largest index seen; an index
    is at most 2**31 - 1 (scikit-learn's reader).  Labels must be integers, read exactly:
    int64, or their exact digits as text beyond int64 (``labels="str"``: text from the start;
    :mod:`olearn.datasets._store_sources`).  NaN or infinite values are refused by line.
    Returns the :class:`Store`; resumes an interrupted conversion into the same ``dest``
    (module docstring).
    """
    if n_features is not None and (not isinstance(n_features, int) or n_features < 1):
        raise ValueError(f"n_features must be a positive int or None, got {n_features!r}")
    options = {"kind": "svmlight", "chunk_rows": chunk_rows, "n_features": n_features,
               "zero_based": bool(zero_based), **_labels_option(labels)}  # fmt: skip

    def parse(group, kind, width):
        return sources.parse_svmlight(group, n_features, bool(zero_based), kind)

    return _convert(source, dest, options, parse, overwrite, progress)


def convert_csv(
    source: str | os.PathLike,
    dest: str | os.PathLike,
    *,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    label_column: int = 0,
    delimiter: str = ",",
    labels: str = "auto",
    overwrite: bool = False,
    progress: bool = False,
) -> Store:
    """Convert a headerless CSV file of numbers (the label in column ``label_column``, a
    negative index counts from the end) into a store.  Labels are integers if the first
    chunk's are all integers within int64, else text (``labels="str"``: text from the
    start); a ``#`` line is a comment.  The ``delimiter`` is not sniffed (a conversion reads
    every chunk alike); lines of a single cell, other widths or NaN / infinite values are
    refused by line, naming the delimiter that splits them when another one does."""
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise ValueError(f"delimiter must be one character, got {delimiter!r}")
    options = {"kind": "csv", "chunk_rows": chunk_rows, "label_column": int(label_column),
               "delimiter": delimiter, **_labels_option(labels)}  # fmt: skip

    def parse(group, kind, width):
        return sources.parse_csv(group, int(label_column), delimiter, kind, width)

    return _convert(source, dest, options, parse, overwrite, progress)


def convert_texts(
    source: str | os.PathLike,
    dest: str | os.PathLike,
    *,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    n_features: int = 2**20,
    japanese: bool = False,
    labels: str = "auto",
    overwrite: bool = False,
    progress: bool = False,
) -> Store:
    """Convert a text corpus, one ``label<TAB>text`` document a line, into a store of hashed,
    L2-normalised term frequencies (:func:`olearn.datasets.hashed.hash_texts`: words and word
    bigrams, or Japanese character bigrams) of width ``n_features``; labels as
    :func:`convert_csv`'s."""
    if not isinstance(n_features, int) or n_features < 1:
        raise ValueError(f"n_features must be a positive int, got {n_features!r}")
    options = {"kind": "texts", "chunk_rows": chunk_rows, "n_features": n_features,
               "japanese": bool(japanese), **_labels_option(labels)}  # fmt: skip

    def parse(group, kind, width):
        return sources.parse_texts(group, n_features, bool(japanese), kind)

    return _convert(source, dest, options, parse, overwrite, progress)


def write_store(X, y, dest: str | os.PathLike, *, chunk_rows: int = DEFAULT_CHUNK_ROWS) -> Store:
    """A store of in-memory ``(X, y)`` (tests, benchmarks, shards): rewritten each call."""
    X = sp.csr_matrix(X, dtype=np.float64)
    X.sum_duplicates()
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y has shape {y.shape}, X has {X.shape[0]} rows")
    chunk_rows = _check_chunk_rows(chunk_rows)
    fits = y.dtype.kind == "i" or (y.dtype.kind == "u" and y.max(initial=0) < 2**63)
    kind = "int" if fits else "str"  # uint64 beyond int64: the exact digits, not a wrap
    y = y.astype(np.int64 if kind == "int" else str)
    options = {"kind": "arrays", "chunk_rows": chunk_rows, "n_features": int(X.shape[1])}
    source = {"path": "<arrays>", "size": int(X.nnz), "mtime_ns": 0}
    writer = _begin(Path(dest), source, options, overwrite=True)
    writer.manifest["label_kind"] = kind
    for start in range(0, X.shape[0], chunk_rows):
        stop = min(start + chunk_rows, X.shape[0])
        writer.add(X[start:stop], y[start:stop], stop)
    writer.manifest["complete"] = True
    writer.save()
    return open_store(dest)
