"""Open and decode an uploaded text file: the one place every upload path goes through.

:func:`open_upload` turns what a user uploaded into UTF-8 bytes with ``\\n`` line endings
(:class:`UploadText`), or raises a ``ValueError`` that names the file, what is wrong and how
to fix it:

- size: at most ``max_bytes`` as uploaded and, once decompressed, again;
- compression: recognised by its magic bytes, whatever the name: one layer of gzip or bzip2
  is undone; a second layer inside it (a ``.gz`` of a ``.gz``), ZIP, tar, xz, zstd and
  7-Zip archives and Excel workbooks are refused with what to do instead; a name ending in ``.gz``
  or ``.bz2`` whose content is not compressed that way is refused too;
- encoding: a byte-order mark decides (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE: the mark is
  dropped); without one, UTF-16 text is recognised by its NUL bytes (ASCII-range text in
  the first 4 KiB), else UTF-8 if the whole file is valid UTF-8, else **cp932** (Shift-JIS
  as Excel saves it on a Japanese Windows) if the whole file is valid cp932 without
  Private Use characters, else Latin-1 (never fails).  ``encoding=`` forces one instead
  (strict).  Latin-1 text with accented letters can also be valid cp932 ("Genève") and is
  then read as cp932: :attr:`UploadText.encoding` says which was used (the dataset card
  shows it) and ``encoding="latin-1"`` overrides.
  Anything but UTF-8 is transcoded to UTF-8 in 1 MiB chunks (peak: the file plus at most
  twice it);
- binary content (a NUL byte in the decoded text) is refused;
- lines: ``\\r\\n`` and a lone ``\\r`` become ``\\n``; lines whose first non-blank character
  is ``#`` are comments (:func:`data_lines`, :func:`csv_lines`);
- CSV delimiters: :func:`sniff_delimiter` picks among tab, ``;``, ``,`` and ``|``.

>>> text = open_upload("x,y\\r\\n1,2\\r\\n".encode("utf-16"), "a.csv", max_bytes=99)
>>> text.data, text.encoding
(b'x,y\\n1,2\\n', 'utf-16-le (BOM)')
>>> open_upload("犬,1\\n".encode("cp932"), "j.csv", max_bytes=99).data.decode()
'犬,1\\n'
>>> sniff_delimiter(b"# made by hand\\na|b|c\\n1|2|3\\n")
'|'
"""

from __future__ import annotations

import bz2
import codecs
import csv
import gzip
import io
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

DELIMITERS = ("\t", ";", ",", "|")  # sniffing order
DELIMITER_NAMES = {"\t": "tab", ";": "semicolon", ",": "comma", "|": "pipe"}
COMMENT = "#"
CHUNK_BYTES = 1 << 20
# An upload's largest size, as sent and once decompressed: read_upload's default and, from
# here (no numpy to import for one number), the app server's upload limit (olearn app)
MAX_BYTES = 50 * 1024 * 1024

_BOMS = (  # longest first: the UTF-32 LE mark begins with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_COMPRESSED = {"gzip": (b"\x1f\x8b",), "bzip2": (b"BZh",)}
_REFUSED = (  # magic bytes -> what it is and what to upload instead
    (b"PK\x03\x04", "a ZIP archive (or an Excel .xlsx workbook)"),
    (b"PK\x05\x06", "an empty ZIP archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Excel .xls workbook (or another Office file)"),
    (b"\xfd7zXZ\x00", "an xz-compressed file"),
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
)
_SUFFIX_COMPRESSION = {".gz": "gzip", ".bz2": "bzip2"}
# cp932's lead bytes 0xF0-0xF9 (Latin-1's n-tilde, o-umlaut...) give Private Use characters,
# which Japanese text does not hold: such a file is not cp932
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


@dataclass(frozen=True)
class UploadText:
    """An upload, decoded.

    Attributes
    ----------
    data : bytes
        The text as UTF-8, without a byte-order mark, lines ending in ``\\n``.
    encoding : str
        What it was decoded from, e.g. ``"utf-8"``, ``"utf-16-le (BOM)"``, ``"cp932"``.
    compression : str or None
        ``"gzip"`` or ``"bzip2"`` if it was decompressed.
    name : str
        The file name in lower case without a compression suffix (picks the format).
    """

    data: bytes
    encoding: str
    compression: str | None
    name: str

    @property
    def notes(self) -> str:
        """One sentence for the dataset card."""
        how = f"{self.compression}-compressed " if self.compression else ""
        return f"Read as {how}text in {self.encoding}."


def open_upload(data, filename: str, *, max_bytes: int, encoding: str | None = None) -> UploadText:
    """Read, decompress and decode an upload (rules in the module docstring).

    Parameters
    ----------
    data : bytes or binary file-like
    filename : str
    max_bytes : int
        Limit on the upload and on its decompressed content.
    encoding : str, optional
        Decode with this codec (strictly) instead of detecting one.

    Raises
    ------
    ValueError
        Too large, empty, compressed twice or in an unsupported way, not valid text in
        the encoding found or given, binary.
    """
    raw = _read_bytes(data, filename, max_bytes)
    name = filename.lower()
    compression = _compression(raw)
    named = next((c for s, c in _SUFFIX_COMPRESSION.items() if name.endswith(s)), None)
    if named is not None:
        name = name.rsplit(".", 1)[0]
        if compression != named:
            raise ValueError(
                f"{filename} is named like a {named} file but its content is not "
                f"{named}-compressed; rename it without the suffix, or compress it again"
            )
    _refuse_unsupported(raw, filename)
    if compression is not None:
        raw = _decompress(raw, compression, filename, max_bytes)
        inner = _compression(raw)
        if inner is not None:
            raise ValueError(
                f"{filename} is compressed twice ({inner} inside {compression}); decompress "
                "it until it is plain text and upload that (or compress the text only once)"
            )
        _refuse_unsupported(raw, filename, inside=compression)
    if not re.search(rb"\S", raw):
        raise ValueError(f"{filename} is empty")
    raw, used = _to_utf8(raw, filename, encoding)
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise ValueError(
            f"{filename} is not a text file (a NUL byte at byte {nul} of its text); upload "
            "CSV or LIBSVM/svmlight text"
        )
    if not re.search(rb"\S", raw):
        raise ValueError(f"{filename} is empty")
    if b"\r" in raw:  # \r\n and lone \r (old Mac) -> \n: one copy, then a single rule
        raw = re.sub(rb"\r\n?", b"\n", raw)
    return UploadText(raw, used, compression, name)


def _read_bytes(data, filename: str, max_bytes: int) -> bytes:
    if isinstance(data, bytes):
        raw = data
    elif isinstance(data, bytearray | memoryview):
        raw = bytes(data)
    elif hasattr(data, "read"):
        raw = data.read(max_bytes + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
    else:
        raise ValueError(f"upload {filename}: expected bytes or a binary file, got {type(data)}")
    if len(raw) > max_bytes:
        raise ValueError(f"{filename} is larger than the limit of {max_bytes / 2**20:.0f} MiB")
    return raw


def _compression(raw: bytes) -> str | None:
    for kind, magics in _COMPRESSED.items():
        if raw.startswith(magics):
            return kind
    return None


def _refuse_unsupported(raw: bytes, filename: str, inside: str | None = None) -> None:
    found = [what for magic, what in _REFUSED if raw.startswith(magic)]
    if raw[257:262] == b"ustar":  # a tar header's magic field
        found.append("a tar archive")
    if found:
        where = f"holds {found[0]} inside {inside}" if inside else f"is {found[0]}"
        raise ValueError(
            f"{filename} {where}, not text; extract or save the data as CSV (Excel: "
            "File > Save As > CSV UTF-8) or LIBSVM/svmlight text and upload that "
            "(plain, or compressed once with gzip or bzip2)"
        )


def _decompress(raw: bytes, compression: str, filename: str, max_bytes: int) -> bytes:
    opener = gzip.open if compression == "gzip" else bz2.open
    try:
        with opener(io.BytesIO(raw), "rb") as f:
            out = f.read(max_bytes + 1)
    except (OSError, EOFError, ValueError, zlib.error) as exc:
        raise ValueError(f"{filename} could not be decompressed ({compression}): {exc}") from exc
    if len(out) > max_bytes:
        raise ValueError(
            f"{filename} decompresses to more than the limit of {max_bytes / 2**20:.0f} MiB"
        )
    return out


def _to_utf8(raw: bytes, filename: str, encoding: str | None) -> tuple[bytes, str]:
    """``raw`` as UTF-8 without a BOM, and the name of the encoding it came from."""
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise ValueError(f"unknown encoding {encoding!r} for {filename}") from None
        return _transcode(raw, encoding, filename, why=f"encoding={encoding!r} was given"), (
            f"{encoding} (given)"
        )
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            body = raw[len(bom) :]
            why = f"it starts with a {codec.upper()} byte-order mark"
            out = body if codec == "utf-8" and _valid(body, "utf-8") else None
            if out is None:
                out = _transcode(body, codec, filename, why=why)
            return out, f"{codec} (BOM)"
    utf16 = _utf16_without_bom(raw)
    if utf16:
        why = "its NUL bytes look like UTF-16 without a byte-order mark"
        return _transcode(raw, utf16, filename, why=why), f"{utf16} (no BOM)"
    if _valid(raw, "utf-8"):
        return raw, "utf-8"
    if _valid(raw, "cp932", refuse=_PRIVATE_USE):
        return _transcode(raw, "cp932", filename, why=""), "cp932 (Shift-JIS)"
    return _transcode(raw, "latin-1", filename, why=""), "latin-1 (neither UTF-8 nor cp932)"


def _valid(raw: bytes, codec: str, refuse: re.Pattern | None = None) -> bool:
    """True if all of ``raw`` decodes with ``codec`` (in 1 MiB chunks, nothing kept) to
    text without a character ``refuse`` matches."""
    decoder = codecs.getincrementaldecoder(codec)()
    try:
        for start in range(0, len(raw), CHUNK_BYTES):
            text = decoder.decode(raw[start : start + CHUNK_BYTES])
            if refuse is not None and refuse.search(text):
                return False
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _transcode(raw: bytes, codec: str, filename: str, why: str) -> bytes:
    decoder = codecs.getincrementaldecoder(codec)()
    out = io.BytesIO()
    start = 0
    try:
        for start in range(0, len(raw), CHUNK_BYTES):
            out.write(decoder.decode(raw[start : start + CHUNK_BYTES]).encode("utf-8"))
        out.write(decoder.decode(b"", final=True).encode("utf-8"))
    except UnicodeDecodeError as exc:
        at = start + exc.start if exc.object is not None else start
        raise ValueError(
            f"{filename} is not valid {codec} text (at byte {at}), which was expected "
            f"because {why}; save it again as UTF-8 (Excel: File > Save As > CSV UTF-8)"
        ) from None
    except UnicodeEncodeError:  # a lone surrogate from UTF-16/32
        raise ValueError(
            f"{filename} holds an unpaired UTF-16 surrogate ({why}); save it again as UTF-8"
        ) from None
    return out.getvalue()


def _utf16_without_bom(raw: bytes) -> str | None:
    """``utf-16-le``/``-be`` if the first 4 KiB look like UTF-16 of mostly ASCII-range text:
    NUL bytes in at least a third of the odd (LE) or even (BE) positions, and at least 95%
    of all NULs there."""
    head = raw[:4096]
    if len(head) < 4:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    third = max(1, len(head) // 6)  # a third of the odd (or even) positions, at least 1
    if odd >= third and even <= odd // 20:  # and 95% of the NULs there
        return "utf-16-le"
    if even >= third and odd <= even // 20:
        return "utf-16-be"
    return None


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith(COMMENT)


def data_lines(data: bytes, limit: int | None = None) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of the non-blank, non-comment lines of UTF-8 ``data``,
    streamed (at most ``limit`` of them)."""
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="\n")
    count = 0
    for number, line in enumerate(stream, 1):
        if line.strip() and not _is_comment(line):
            yield number, line
            count += 1
            if limit is not None and count >= limit:
                return


def csv_lines(data: bytes) -> Iterator[str]:
    """The lines of UTF-8 ``data`` for :func:`csv.reader`, comment lines blanked (so the
    reader's line numbers stay those of the file).  A line starting with ``#`` inside a
    quoted multi-line cell is blanked too: write such cells on one line."""
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")
    for line in stream:
        yield "\n" if _is_comment(line) else line


def sniff_delimiter(data: bytes) -> str:
    """The first of tab, ``;``, ``,``, ``|`` that splits the first 20 data lines into the
    same number (> 1) of cells; ``,`` if none does (the CSV reader's errors then say what is
    wrong)."""
    sample = "".join(line for _, line in data_lines(data, 20))
    for delimiter in DELIMITERS:
        try:
            widths = {len(row) for row in csv.reader(io.StringIO(sample), delimiter=delimiter)}
        except csv.Error:
            continue
        if len(widths) == 1 and widths.pop() > 1:
            return delimiter
    return ","
