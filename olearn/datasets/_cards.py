"""The cache's cards, read without numpy: what ``olearn list`` and Home read.

A card (``<stem>.card.json``) sits beside its parsed ``<stem>.npz`` (:mod:`olearn.datasets._cache`)
and records the SHA-256 of the archives it came from; a generated dataset's card (the toys,
digits) records its generator's instead, the digest of the builder module's source, and has
no ``.npz``.  The archives' digests are remembered on disk too (:func:`archive_digests`), while
a file's size, times and inode stay the same, so that listing the datasets does not hash every
archive again.  Nothing here imports numpy: reading a card is a JSON file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

from olearn._io import atomic_write
from olearn.citations import cited

ARRAY_META = ("feature_names", "members", "test_members")  # card entries held as str arrays
DIGESTS = "archive-digests.json"  # the remembered archive digests, in the cache folder


def cache_key(name: str, parser_version: int, options: dict) -> str:
    """File stem for ``name`` parsed by ``parser_version`` with ``options``."""
    blob = json.dumps(options, sort_keys=True, default=list)
    digest = hashlib.sha256(blob.encode()).hexdigest()[:12]
    return f"{name}-p{parser_version}-{digest}"


def card_path(path: Path) -> Path:
    return path.with_suffix(".card.json")


def read_card(path: Path, sources_now: dict[str, str], *, data: bool = True) -> dict | None:
    """The card stored beside ``path``, or None if absent, unreadable or stale: the digests
    it records must match ``sources_now`` and, with ``data`` (a parsed dataset's card), the
    ``.npz`` must be there too (the same rule as :func:`olearn.datasets._cache.read`)."""
    try:
        meta = card_from_json(card_path(path).read_text(encoding="utf-8"))
        sources = meta.pop("sources", {})
        if not isinstance(sources, dict):
            return None
    except (OSError, ValueError, TypeError, AttributeError, KeyError):
        return None
    if any(sources.get(k) != v for k, v in sources_now.items()):
        return None
    if data and not path.is_file():
        return None
    return cited(meta)


def write_card(path: Path, meta: dict, sources: dict[str, str]) -> None:
    """Store ``meta`` (with ``sources``) as the card beside ``path``; raises OSError."""
    sidecar = card_to_json({**meta, "sources": sources})
    atomic_write(card_path(path), lambda f: f.write(sidecar.encode()))


def card_to_json(meta: dict) -> str:
    """JSON of a card without its arrays; class-count dicts as ``[label, count]`` pairs so
    integer labels stay integers."""
    out = {k: v for k, v in meta.items() if k not in ARRAY_META}
    for key in ("class_counts", "test_class_counts"):
        if key in out:
            out[key] = [[label, count] for label, count in out[key].items()]
    return json.dumps(out, indent=1, ensure_ascii=False)


def card_from_json(text: str) -> dict:
    meta = json.loads(text)
    for key in ("class_counts", "test_class_counts"):
        if key in meta:
            meta[key] = {label: count for label, count in meta[key]}
    return meta


# the code a generated card is computed by besides its generator: the card's statistics
CARD_CODE = ("olearn.datasets._base",)


def generator_digest(builder: str) -> str:
    """SHA-256 of the source files of builder ``"module:function"`` and of
    :data:`CARD_CODE` (found, not imported): a generated dataset's card is stale once its
    generator's code, or the code computing the card, changes.  ``""`` when one is not
    found as a file (then nothing stored matches)."""
    h = hashlib.sha256()
    for module in (builder.partition(":")[0], *CARD_CODE):
        origin = getattr(importlib.util.find_spec(module), "origin", None)
        if not origin or not Path(origin).is_file():
            return ""
        h.update(hashlib.sha256(Path(origin).read_bytes()).digest())
    return h.hexdigest()


def archive_digests(paths: list[Path], folder: Path | None, digest) -> dict[str, str]:
    """``{path name: digest(path)}``, the digests remembered in ``folder``'s
    :data:`DIGESTS` while a file's size, modification and change times and inode are the
    ones recorded (a replaced, repaired or touched file is hashed again; a change time
    cannot be set back by hand).  ``folder`` None, or a memo that cannot be read or written,
    only costs the hashing."""
    memo: dict = {}
    memo_path = None if folder is None else folder / DIGESTS
    if memo_path is not None:
        try:
            memo = json.loads(memo_path.read_text(encoding="utf-8"))
            if not isinstance(memo, dict):
                memo = {}
        except (OSError, ValueError):
            memo = {}
    out: dict[str, str] = {}
    changed = False
    for path in paths:
        st = path.stat()
        key = str(path.resolve())
        stamp = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        known = memo.get(key)
        if isinstance(known, list) and len(known) == 5 and known[:4] == stamp:
            out[path.name] = known[4]
            continue
        out[path.name] = digest(path)
        memo[key] = [*stamp, out[path.name]]
        changed = True
    if changed and memo_path is not None:
        text = json.dumps(memo, indent=0)
        try:
            atomic_write(memo_path, lambda f: f.write(text.encode()))
        except OSError:
            pass
    return out
