"""Reading a store chunk's files without trusting them (:mod:`olearn.datasets.store`).

A chunk is four ``.npy`` files memory-mapped as they are.  A file damaged on disk but of its
recorded size passes ``open_store``'s size check; read as it was, a damaged ``indptr`` or
``indices`` then made scipy's C code or a kernel read and write out of bounds (SIGSEGV,
``free(): invalid pointer``).  So a chunk is read in three steps, each refusing with a
:class:`ValueError` that names the store, the chunk, the file and what is wrong, ending in
"damaged; convert again":

1. the first time a :class:`Store` reads a chunk, each file's SHA-256 against the manifest
   (damage that leaves a valid structure, e.g. a flipped bit in a value, is found only so);
2. each ``.npy`` header, parsed from at most :data:`MAX_HEADER` bytes and checked: dtype
   (float64 values; int32 or int64 indices and indptr, the same; int64 or text labels, as the
   manifest's ``label_kind``), shape (the manifest's ``nnz`` / ``rows``) and file size;
3. at every read, the arrays' structure in one pass (:func:`olearn.kernels.sparse.csr_problem`:
   indptr from 0, non-decreasing, to nnz; indices in ``[0, n_features)``; finite values) and
   the labels against the manifest's classes, before scipy or numpy indexes them.

Step 1 is once per :class:`Store` object, since a verified file is the converter's own bytes;
steps 2 and 3 stand alone, and keep a store whose manifest was rewritten to match hostile
files (checksums recomputed) from crashing the process.
"""

from __future__ import annotations

import hashlib
import mmap
import os
from pathlib import Path

import numpy as np

MAX_HEADER = 1024  # bytes of a .npy header (the converter's take 128)
INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


class Damaged(ValueError):
    """A chunk file that is not what the manifest describes (message: module docstring)."""


def sha256_file(path: Path) -> str:
    """SHA-256 of a file, hashed from a memory map (no copy in this process's heap)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return hashlib.sha256(b"").hexdigest()
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as view:
            return hashlib.sha256(view).hexdigest()


def read_part(file: Path, length: int, dtypes) -> np.ndarray:
    """The 1-D array of ``length`` items in ``.npy`` file ``file``, memory-mapped read-only,
    after its header is checked: version 1.0 or 2.0 within :data:`MAX_HEADER` bytes, C order,
    a dtype accepted by ``dtypes(dtype) -> bool``, shape ``(length,)`` and a file size of
    exactly the header plus the data.  Raises :class:`Damaged` (the caller adds where)."""
    fmt = np.lib.format
    try:
        with open(file, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(min(size, MAX_HEADER))
    except OSError as err:
        raise Damaged(f"cannot be read ({err.strerror or err})") from None
    try:
        stream = _Head(head)
        version = fmt.read_magic(stream)
        read = {(1, 0): fmt.read_array_header_1_0, (2, 0): fmt.read_array_header_2_0}.get(version)
        if read is None:
            raise ValueError(f"npy format version {version}")
        shape, fortran, dtype = read(stream, max_header_size=MAX_HEADER)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError, OverflowError) as e:
        raise Damaged(f"not a readable .npy header ({_short(e)})") from None
    if not dtypes(dtype):
        raise Damaged(f"holds {dtype}, not the store's type")
    if fortran or shape != (length,):
        raise Damaged(f"holds shape {shape}, the manifest {length} items")
    offset = stream.tell()
    if size != offset + length * dtype.itemsize:
        raise Damaged(f"is {size} bytes, its header says {offset + length * dtype.itemsize}")
    if length == 0:
        empty = np.empty(0, dtype)
        empty.flags.writeable = False
        return empty
    return np.memmap(file, dtype=dtype, mode="r", offset=offset, shape=(length,))


class _Head:
    """A file-like view of a header's bytes (numpy's readers call ``read`` and ``tell``)."""

    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def read(self, n: int = -1) -> bytes:
        end = len(self.data) if n < 0 else self.pos + n
        out = self.data[self.pos : end]
        self.pos += len(out)
        return out

    def tell(self) -> int:
        return self.pos


def _short(err: BaseException) -> str:
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= 80 else text[:77] + "..."


def float64(dtype: np.dtype) -> bool:
    return dtype == np.float64 and dtype.isnative


def index_type(dtype: np.dtype) -> bool:
    return dtype in INDEX_DTYPES and dtype.isnative


def label_type(kind: str):
    """The labels' dtype test for a store of ``kind`` ("int": int64; "str": text)."""
    if kind == "int":
        return lambda dtype: dtype == np.int64 and dtype.isnative
    return lambda dtype: dtype.kind == "U" and dtype.isnative
