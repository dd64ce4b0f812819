"""Damaged stores for ``tests/test_fuzz_stores.py``: the damage, and a driver that reads a
damaged store every way there is, run in a subprocess (a crash is its return code).

``python -m tests.store_damage PRISTINE WORK CASES.json`` copies the store ``PRISTINE`` to
``WORK`` once per case, damages one file keeping its size (``damage``), with ``crafted`` also
rewrites the manifest to match the damaged file (sizes, SHA-256, checksum: a hostile store, so
only the structure checks stand in the way), then tries ``open_store``, every chunk,
``to_arrays``, ``PAClassifier().fit`` and parameter mixing with one and two shards.  It
prints one JSON line per case: the case, each attempt's outcome (``"ok"`` or ``[exception
type, message]``) and whether the store's files were unchanged by the attempts.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import numpy as np

KINDS = ("random", "random-body", "swap", "bit", "zeros", "zeros-body", "ones", "ones-body")
PARTS = ("data", "indices", "indptr", "labels")


def _body(raw: bytes) -> int:
    """Where a .npy file's array starts (after its header); 0 for another file."""
    if not raw.startswith(b"\x93NUMPY"):
        return 0
    size = raw[8] | raw[9] << 8  # version 1.0: a 2-byte little-endian header length
    return 10 + size


def damage(raw: bytes, kind: str, seed: int) -> bytes:
    """``raw`` damaged in place (same size): random bytes (everywhere, or only after a .npy
    header), two different bytes swapped, a bit flipped in the middle, all 0 / all 0xFF
    (everywhere, or after the header)."""
    rng = np.random.default_rng(seed)
    data = bytearray(raw)
    start = _body(raw) if kind.endswith("-body") or kind == "swap" else 0
    if start >= len(data):  # an empty array: damage the header instead
        start = 0
    if kind.startswith("random"):
        data[start:] = rng.bytes(len(data) - start)
    elif kind == "swap":
        for i in rng.permutation(np.arange(start, len(data))):
            j = int(rng.integers(start, len(data)))
            if data[i] != data[j]:
                data[i], data[j] = data[j], data[i]
                break
    elif kind == "bit":
        data[len(data) // 2] ^= 1 << int(rng.integers(8))
    elif kind.startswith("zeros"):
        data[start:] = bytes(len(data) - start)
    elif kind.startswith("ones"):
        data[start:] = b"\xff" * (len(data) - start)
    else:
        raise ValueError(kind)
    assert len(data) == len(raw) and bytes(data) != raw, (kind, len(raw))
    return bytes(data)


def recompute(store: Path) -> None:
    """Rewrite the manifest of ``store`` to match its files as they are now (sizes, SHA-256,
    checksum): what a hostile store, or a hand edit, looks like to the reader."""
    from olearn.datasets import store as stores

    file = store / stores.MANIFEST
    manifest = json.loads(file.read_text())
    for i, chunk in enumerate(manifest["chunks"]):
        for part in PARTS:
            raw = (store / f"chunk-{i:05d}.{part}.npy").read_bytes()
            chunk["bytes"][part] = len(raw)
            chunk["sha256"][part] = hashlib.sha256(raw).hexdigest()
    write_manifest(store, manifest)


def write_manifest(store: Path, manifest) -> None:
    """Write ``manifest`` (any JSON value) with its checksum recomputed when it is a dict."""
    from olearn.datasets import store as stores

    if isinstance(manifest, dict):
        manifest["checksum"] = stores._sha256(stores._canonical(manifest))
    (store / stores.MANIFEST).write_text(json.dumps(manifest))


def _files(store: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(store.iterdir())}


def _attempt(fn):
    try:
        fn()
        return "ok"
    except Exception as exc:  # the outcome is the point: the test judges it
        return [type(exc).__name__, str(exc)]


def attempts(path: Path) -> dict:
    """Every way of reading the store at ``path``: outcome of each."""
    from olearn.datasets.store import open_store
    from olearn.distributed import ParameterMixingClassifier
    from olearn.estimators import PAClassifier

    def chunks():
        store = open_store(path)
        for i in range(store.n_chunks):
            store.chunk(i)

    def mixing(n_shards):
        def run():
            ipm = ParameterMixingClassifier(
                PAClassifier(), epochs=1, client="serial", n_shards=n_shards
            )
            ipm.fit(open_store(path))

        return run

    return {
        "open_store": _attempt(lambda: open_store(path)),
        "chunks": _attempt(chunks),
        "to_arrays": _attempt(lambda: open_store(path).to_arrays()),
        "fit": _attempt(lambda: PAClassifier().fit(open_store(path))),
        "mixing-1": _attempt(mixing(1)),
        "mixing-2": _attempt(mixing(2)),
    }


def run(pristine: Path, work: Path, cases: list) -> None:
    for seed, case in enumerate(cases):
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(pristine, work)
        file = work / case["file"]
        print(json.dumps({"starting": case}), flush=True)
        file.write_bytes(damage(file.read_bytes(), case["kind"], seed))
        if case["crafted"]:
            recompute(work)
        before = _files(work)
        outcomes = attempts(work)
        print(json.dumps({"case": case, "outcomes": outcomes,
                          "unchanged": _files(work) == before}), flush=True)  # fmt: skip
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    run(Path(sys.argv[1]), Path(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text()))
