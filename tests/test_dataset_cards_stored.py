"""The cards ``olearn list`` and Home read are JSON, read without numpy (issue 32, item 2):
a generated dataset's card (the toys, digits) is stored once with its generator's digest,
and the archives' digests are remembered while a file is unchanged
(:mod:`olearn.datasets._cards`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from olearn import datasets
from olearn.datasets import _cards
from olearn.datasets._archive import file_sha256


def test_archive_digests_are_remembered_until_the_file_changes(tmp_path):
    archive = tmp_path / "a.tar.gz"
    archive.write_bytes(b"first")
    calls = []

    def digest(path):
        calls.append(path.name)
        return file_sha256(path)

    first = _cards.archive_digests([archive], tmp_path, digest)
    assert first == {"a.tar.gz": file_sha256(archive)} and calls == ["a.tar.gz"]
    assert _cards.archive_digests([archive], tmp_path, digest) == first
    assert calls == ["a.tar.gz"]  # remembered: not hashed again
    st = archive.stat()
    archive.write_bytes(b"other")  # same size; its old times put back by hand
    os.utime(archive, ns=(st.st_atime_ns, st.st_mtime_ns))
    changed = _cards.archive_digests([archive], tmp_path, digest)
    assert changed == {"a.tar.gz": file_sha256(archive)} != first  # the change time moved
    assert calls == ["a.tar.gz", "a.tar.gz"]
    (tmp_path / _cards.DIGESTS).write_text("{not json")  # a damaged memo: hashed again
    assert _cards.archive_digests([archive], tmp_path, digest) == changed
    assert _cards.archive_digests([archive], None, digest) == changed  # no folder: hashed
    assert len(calls) == 4


def test_a_generated_card_is_stored_then_read_and_recomputed_when_its_generator_changes(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path / "absent"))
    fresh = datasets.card("toy-blobs")
    assert not (tmp_path / "absent").exists()  # a card makes no folder: nothing stored
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path))
    assert datasets.card("toy-blobs") == fresh
    (stored,) = tmp_path.glob("toy-blobs-*.card.json")
    assert datasets.card("toy-blobs") == fresh  # read back, the same card
    meta = json.loads(stored.read_text())
    meta["n_samples"] = 7  # a card that is not what the generator now makes...
    meta["sources"]["generator"] = "an older generator"  # ...stored by older code
    stored.write_text(json.dumps(meta))
    assert datasets.card("toy-blobs") == fresh  # recomputed
    meta = json.loads(stored.read_text())
    meta["n_samples"] = 7  # the same edit under the current generator's digest is read
    stored.write_text(json.dumps(meta))
    assert datasets.card("toy-blobs")["n_samples"] == 7


def test_the_generator_digest_covers_the_generator_and_the_cards_statistics(tmp_path, monkeypatch):
    """A change to the toys' module or to the module computing a card's statistics makes a
    stored card stale (each source file stood in for by a copy, then edited)."""
    import importlib.util

    real = importlib.util.find_spec
    copies = {}
    for module in ("olearn.datasets.toy", "olearn.datasets._base"):
        copies[module] = tmp_path / f"{module}.py"
        copies[module].write_bytes(Path(real(module).origin).read_bytes())

    def find_spec(name, *args):
        spec = real(name, *args)
        if name in copies:
            spec = importlib.util.spec_from_file_location(name, copies[name])
        return spec

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    first = _cards.generator_digest("olearn.datasets.toy:make_toy")
    assert first and first == _cards.generator_digest("olearn.datasets.toy:make_toy")
    seen = {first}
    for module in copies:
        copies[module].write_text(copies[module].read_text() + "\n# edited\n")
        seen.add(_cards.generator_digest("olearn.datasets.toy:make_toy"))
    assert len(seen) == 3
    copies["olearn.datasets._base"].unlink()
    assert _cards.generator_digest("olearn.datasets.toy:make_toy") == ""  # nothing matches
