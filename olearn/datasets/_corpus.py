"""In-process memo for parsed corpora, keyed by the archive's path, size, mtime, inode and
ctime (a file replaced or rewritten in place, even with the same size and mtime, is read
again).

Several datasets (20news-8, the document pairs, the hashed sets) read the same archive;
within one process it is read once.  Only the last archive of each reader is kept.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path

from olearn.datasets._archive import read_tar_texts


def memo_by_file(reader: Callable) -> Callable:
    """Decorate ``reader(path)`` so repeated calls on an unchanged file reuse the result."""

    @functools.lru_cache(maxsize=1)
    def cached(path: str, size: int, mtime_ns: int, inode: int, ctime_ns: int):
        return reader(Path(path))

    @functools.wraps(reader)
    def wrapper(path):
        st = Path(path).stat()
        key = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
        return cached(str(Path(path).resolve()), *key)

    wrapper.cache_clear = cached.cache_clear
    return wrapper


def iter_tar_texts(
    path: Path, wanted: Callable[[str], bool], encoding: str
) -> Iterator[tuple[str, str]]:
    """``(member name, text)`` of each regular file of the ``.tar.gz`` at ``path`` whose
    member name passes ``wanted``, decoded with ``encoding``, in archive order.

    The archive is read and verified to its end (CRC, every tar header, end marker) before
    the first text is returned: a damaged archive raises
    :class:`~olearn.datasets._base.ArchiveCorrupt` instead of giving a partial corpus.
    """
    return iter(read_tar_texts(path, wanted, encoding))
