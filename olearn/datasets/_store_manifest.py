"""The store manifest's schema (:mod:`olearn.datasets.store`), checked completely when read.

A manifest is JSON written by the converter; a hand-edited one (its checksum recomputed) or a
hostile one must end in a ValueError naming the file and the field, never a TypeError,
KeyError, RecursionError or IndexError further on.  So, before anything reads a field:

- the nesting depth is bounded before parsing (:data:`MAX_DEPTH`; the schema's own is 4), so
  neither ``json.loads`` nor the checksum's ``json.dumps`` can recurse without bound;
- every field is checked: its presence, its type (``bool`` is not an ``int`` here), its
  range, and, for the chunks, that their sizes can hold the rows and non-zeros they claim.
  The chunk files' sizes are compared with the disk by ``open_store``; with these bounds a
  manifest cannot claim more rows or non-zeros than its files can hold.

>>> parse_manifest('{"a": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}', "m.json")
Traceback (most recent call last):
...
ValueError: m.json: JSON nested deeper than 8 levels (a store manifest has 4); damaged or edited: convert again
"""  # noqa: E501

from __future__ import annotations

import json
import re

import numpy as np

PARTS = ("data", "indices", "indptr", "labels")
MAX_DEPTH = 8
KINDS = {  # options of each conversion kind: name -> accepted types (None: JSON null)
    "svmlight": {"n_features": (int, None), "zero_based": (bool,)},
    "csv": {"label_column": (int,), "delimiter": (str,)},
    "texts": {"n_features": (int,), "japanese": (bool,)},
    "arrays": {"n_features": (int,)},
}
TOP = ("format", "version", "source", "options", "n_features", "label_kind", "classes",
       "chunks", "complete", "checksum")  # fmt: skip
INT64 = (-(2**63), 2**63 - 1)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_HEX64 = re.compile(r"[0-9a-f]{64}")
_DAMAGED = "damaged or edited: convert again"


class _Bad(ValueError):
    """A field that breaks the schema (turned into the file's message by parse_manifest)."""


def depth(text: str) -> int:
    """The deepest nesting of ``[`` / ``{`` in JSON ``text`` (brackets inside strings not
    counted), without parsing it: O(len(text)), vectorised."""
    brackets = re.sub(r"[^\[\]{}]", "", _STRING.sub("", text)).encode()
    if not brackets:
        return 0
    codes = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1)
    return int(np.cumsum(steps).max())


def parse_manifest(text: str, file) -> dict:
    """The manifest in ``text`` as a dict (ValueError naming ``file`` if it is not JSON, is
    nested too deep, or is not an object); its fields are checked by :func:`check_manifest`."""
    if depth(text) > MAX_DEPTH:
        raise ValueError(
            f"{file}: JSON nested deeper than {MAX_DEPTH} levels (a store manifest has 4); "
            f"{_DAMAGED}"
        )
    try:
        manifest = json.loads(text)
    except (ValueError, RecursionError) as err:  # RecursionError: unreachable after depth()
        raise ValueError(f"{file}: not a readable store manifest ({err}); {_DAMAGED}") from None
    if not isinstance(manifest, dict):
        raise ValueError(f"{file}: not an olearn store manifest (not a JSON object)")
    return manifest


def check_manifest(manifest: dict, file) -> None:
    """Raise ValueError naming ``file`` and the first field that breaks the schema (module
    docstring); ``format``, ``version`` and ``checksum`` are the caller's."""
    try:
        _check(manifest)
    except _Bad as err:
        raise ValueError(f"{file}: {err}; {_DAMAGED}") from None


def _int(value, name: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"{name} must be an integer, got {_show(value)}")
    if value < lo or (hi is not None and value > hi):
        raise _Bad(f"{name} = {value} is outside [{lo}, {'inf' if hi is None else hi}]")
    return value


def _dict(value, name: str, keys) -> dict:
    if not isinstance(value, dict):
        raise _Bad(f"{name} must be an object, got {_show(value)}")
    missing = [k for k in keys if k not in value]
    extra = sorted(k for k in value if k not in keys)
    if missing or extra:
        what = [f"lacks {missing}"] * bool(missing) + [f"has unknown {extra}"] * bool(extra)
        raise _Bad(f"{name} {' and '.join(what)}")
    return value


def _show(value) -> str:
    text = json.dumps(value)
    return f"{type(value).__name__} {text[:40]}{'...' if len(text) > 40 else ''}"


def _check(m: dict) -> None:
    _dict(m, "the manifest", TOP)
    source = _dict(m["source"], "source", ("path", "size", "mtime_ns"))
    if not isinstance(source["path"], str):
        raise _Bad(f"source.path must be a string, got {_show(source['path'])}")
    _int(source["size"], "source.size")
    _int(source["mtime_ns"], "source.mtime_ns", lo=INT64[0], hi=INT64[1])
    _check_options(m["options"])
    _int(m["n_features"], "n_features", hi=INT64[1])
    if not isinstance(m["complete"], bool):
        raise _Bad(f"complete must be true or false, got {_show(m['complete'])}")
    if not isinstance(m["chunks"], list):
        raise _Bad(f"chunks must be a list, got {_show(m['chunks'])}")
    kind = m["label_kind"]
    if kind not in ("int", "str") and not (kind is None and not m["chunks"]):
        raise _Bad(f"label_kind must be 'int' or 'str', got {_show(kind)}")
    rows = _check_chunks(m["chunks"], kind)
    _check_classes(m["classes"], kind, rows)
    if m["complete"] and m["chunks"] and m["n_features"] < 1:
        raise _Bad("n_features = 0 in a converted store (a store needs a feature)")


def _check_options(options) -> None:
    kind = options.get("kind") if isinstance(options, dict) else None
    if not (isinstance(kind, str) and kind in KINDS):
        got = options.get("kind") if isinstance(options, dict) else options
        raise _Bad(f"options.kind must be one of {sorted(KINDS)}, got {_show(got)}")
    fields = KINDS[options["kind"]]
    optional = ("labels",) if options["kind"] != "arrays" else ()
    _dict({k: v for k, v in options.items() if k not in optional}, "options",
          ("kind", "chunk_rows", *fields))  # fmt: skip
    _int(options["chunk_rows"], "options.chunk_rows", lo=1)
    for name, types in fields.items():
        value = options[name]
        ok = (value is None and None in types) or any(
            isinstance(value, t) and (t is bool or not isinstance(value, bool))
            for t in types
            if t is not None
        )
        if not ok:
            raise _Bad(f"options.{name} has the wrong type: {_show(value)}")
    if "labels" in options and options["labels"] != "str":
        raise _Bad(f"options.labels must be 'str' when given, got {_show(options['labels'])}")


def _check_chunks(chunks: list, kind) -> int:
    """Check every chunk entry; returns the rows of them all."""
    rows, offset = 0, 0
    for i, chunk in enumerate(chunks):
        name = f"chunks[{i}]"
        _dict(chunk, name, ("rows", "nnz", "end_offset", "bytes", "sha256"))
        n = _int(chunk["rows"], f"{name}.rows", lo=1)
        nnz = _int(chunk["nnz"], f"{name}.nnz")
        end = _int(chunk["end_offset"], f"{name}.end_offset", lo=offset)
        sizes = _dict(chunk["bytes"], f"{name}.bytes", PARTS)
        for part in PARTS:
            _int(sizes[part], f"{name}.bytes.{part}")
        sums = _dict(chunk["sha256"], f"{name}.sha256", PARTS)
        for part in PARTS:
            if not (isinstance(sums[part], str) and _HEX64.fullmatch(sums[part])):
                raise _Bad(f"{name}.sha256.{part} is not a SHA-256 hex digest")
        # the least each file needs for what the chunk claims: 4-byte indices, one 4-byte
        # character or an 8-byte integer per label (headers come on top)
        least = {"data": 8 * nnz, "indices": 4 * nnz, "indptr": 4 * (n + 1),
                 "labels": (8 if kind == "int" else 4) * n}  # fmt: skip
        for part, need in least.items():
            if sizes[part] < need:
                raise _Bad(
                    f"{name}.bytes.{part} = {sizes[part]} cannot hold the {n} rows and {nnz} "
                    "non-zeros the chunk claims"
                )
        rows, offset = rows + n, end
    return rows


def _check_classes(classes, kind, rows: int) -> None:
    if not isinstance(classes, list):
        raise _Bad(f"classes must be a list, got {_show(classes)}")
    if len(classes) > rows or (rows and not classes):
        raise _Bad(f"classes lists {len(classes)} labels for {rows} rows")
    for c in classes:
        if kind == "int":
            _int(c, "a class", lo=INT64[0], hi=INT64[1])
        elif not isinstance(c, str):
            raise _Bad(f"a class of a store of text labels is {_show(c)}")
    if any(a >= b for a, b in zip(classes, classes[1:])):
        raise _Bad("classes are not sorted and distinct")
