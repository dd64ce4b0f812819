"""The data layer's exceptions, apart from the :class:`~olearn.datasets._base.Dataset`
container: raising or catching them imports neither numpy nor scipy (``olearn list``, the
downloader, the archive checks)."""


class DatasetUnavailable(OSError, ValueError):
    """A dataset file is not in the data folder and cannot be downloaded or verified.

    Subclasses both :class:`OSError` and :class:`ValueError` (like
    :class:`io.UnsupportedOperation`), so either ``except`` catches it.
    """


class ArchiveCorrupt(DatasetUnavailable):
    """An archive in the data folder is damaged (bad CRC, truncated, invalid tar header,
    wrong checksum, empty).  The message names the file and how to replace it."""
