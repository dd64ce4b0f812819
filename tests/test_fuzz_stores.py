"""Fuzzing stores (issue 30, items 1 and 15): a damaged store is refused when it is read,
never crashes the process, and the attempt leaves its files as they were.

- every file of a chunk and the manifest, damaged keeping its size (``tests/store_damage.py``:
  random bytes, swapped bytes, a flipped bit, all 0, all 0xFF), then opened, read chunk by
  chunk and whole, fitted and mixed with one and two shards, in a child process (a crash is
  its exit status): always "damaged; convert again" (the SHA-256 the store checks on its
  first read of a chunk); and the same damage with the manifest rewritten to match it (a
  hostile store: only the structure checks stand in the way): a result or a ValueError;
- the manifest, edited with its checksum recomputed: every field removed, every field given
  every wrong type, nesting bombs, random JSON at random places: always a ValueError naming
  the manifest, never a TypeError, KeyError, RecursionError or IndexError.

``python -m tests.fuzz_report`` prints the outcome counts of the in-process suites.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from olearn.datasets.store import open_store, write_store
from tests.fuzz_support import FUZZ, record
from tests.store_damage import KINDS, PARTS, write_manifest

ROOT = Path(__file__).resolve().parents[1]


def _pristine(folder: Path, labels: str) -> Path:
    """A store of 2 chunks (60 rows x 12 features, 3 classes) with int or text labels."""
    rng = np.random.default_rng(0)
    X = sp.random(60, 12, density=0.3, format="csr", random_state=1)
    y = (X @ rng.normal(size=(12, 3))).argmax(axis=1)
    y = np.asarray(y).ravel() if labels == "int" else np.array(["ham", "spam", "eggs"])[y]
    return write_store(X, y, folder / f"pristine-{labels}", chunk_rows=30).path


@pytest.mark.parametrize("labels", ["int", "str"])
def test_a_damaged_store_is_refused_in_a_child_process_never_a_crash(tmp_path, labels):
    pristine = _pristine(tmp_path, labels)
    cases = [
        {"file": f"chunk-00001.{part}.npy", "kind": kind, "crafted": crafted}
        for part in PARTS
        for kind in KINDS
        for crafted in (False, True)
    ] + [{"file": "manifest.json", "kind": kind, "crafted": False} for kind in KINDS]
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    work = tmp_path / "work"
    proc = subprocess.run(
        [sys.executable, "-m", "tests.store_damage", str(pristine), str(work),
         str(tmp_path / "cases.json")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    started = [line["starting"] for line in lines if "starting" in line]
    assert proc.returncode == 0, (
        f"exit {proc.returncode} (negative: killed by a signal) in case {started[-1:]}\n"
        f"{proc.stderr[-3000:]}"
    )
    results = [line for line in lines if "case" in line]
    assert len(results) == len(cases)
    for result in results:
        case, outcomes = result["case"], result["outcomes"]
        assert result["unchanged"], case  # reading never writes
        for attempt, outcome in outcomes.items():
            where = (case, attempt, outcome)
            if case["crafted"]:  # a hostile store whose manifest matches its files
                assert outcome == "ok" or outcome[0] == "ValueError", where
                record("store damage, manifest matching", "ok" if outcome == "ok" else "refused")
                continue
            if attempt == "open_store" and case["file"] != "manifest.json":
                assert outcome == "ok", where  # sizes only: the damage is found when read
                continue
            kind, message = outcome  # never "ok": the damage is always found
            assert kind == "ValueError" and str(work) in message, where
            assert "convert again" in message, where
            if case["file"] != "manifest.json":
                assert message.endswith("damaged; convert again"), where
                assert "chunk 1" in message and case["file"] in message, where
            record("store damage", "refused")
    # the structure checks did refuse hostile stores that the checksum no longer would
    refused = [r for r in results if r["case"]["crafted"] and r["outcomes"]["chunks"] != "ok"]
    assert {r["case"]["file"].split(".")[1] for r in refused} == set(PARTS)


# --------------------------------------------------------------------- the manifest


@pytest.fixture(scope="module")
def good_store():
    folder = Path(tempfile.mkdtemp(prefix="olearn-store-fuzz-"))
    path = _pristine(folder, "int")
    yield path, json.loads((path / "manifest.json").read_text())
    shutil.rmtree(folder, ignore_errors=True)


WRONG = [None, True, False, 0, -1, 2**70, 1.5, float("nan"), "x", "", [], [1, "a"], {},
         {"a": 1}]  # fmt: skip
NESTED = json.loads("[" * 10 + "1" + "]" * 10)  # deeper than any manifest field
BOMB = "[" * 100_000 + "]" * 100_000


def _paths(value, prefix=()):
    """Every path (tuple of keys / indices) into a JSON value, the value's own first."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:2]):
            yield from _paths(item, (*prefix, i))


def _set(manifest, path, value=None, remove=False):
    out = copy.deepcopy(manifest)
    target = out
    for key in path[:-1]:
        target = target[key]
    if remove:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


def _outcome(store: Path, manifest, suite: str, raw: str | None = None) -> str:
    """Open the store with ``manifest`` (or the ``raw`` text) and read it all: the outcome;
    only a result or a ValueError naming the store may come out."""
    if raw is None:
        write_manifest(store, manifest)
        raw = (store / "manifest.json").read_text()
    else:
        (store / "manifest.json").write_text(raw)
    try:
        opened = open_store(store)
        opened.to_arrays()
        outcome = "ok"
    except ValueError as exc:
        assert str(store) in str(exc), exc
        outcome = "refused"
    record(suite, outcome)
    return outcome


@pytest.fixture
def store_copy(good_store, tmp_path):
    path, manifest = good_store
    dest = tmp_path / "s"
    shutil.copytree(path, dest)
    return dest, manifest


def test_every_manifest_field_removed_or_of_every_wrong_type_is_refused(store_copy):
    store, manifest = store_copy
    outcomes = []
    for path in list(_paths(manifest))[1:]:
        if path == ("checksum",):
            continue
        outcomes.append(_outcome(store, _set(manifest, path, remove=True), "manifest fields"))
        for value in [*WRONG, NESTED]:
            outcomes.append(_outcome(store, _set(manifest, path, value), "manifest fields"))
    assert outcomes.count("refused") > 0.9 * len(outcomes)


def test_nesting_bombs_and_wrong_documents_are_refused(store_copy):
    store, manifest = store_copy
    for raw in [BOMB, "{" + '"a":{' * 50_000 + "}" * 50_001, json.dumps({**manifest,
                "chunks": json.loads("[" * 500 + "]" * 500)}), "[]", "1", "null", '"x"',
                "{", "", "\x00" * 50, json.dumps(manifest)[:-10]]:  # fmt: skip
        assert _outcome(store, None, "manifest documents", raw=raw) == "refused"
    # a nested value with its checksum right (json.dumps of it recurses too)
    deep = _set(manifest, ("source", "path"), json.loads("[" * 900 + "]" * 900))
    assert _outcome(store, deep, "manifest documents") == "refused"
    # the text of a field may hold brackets: that is not nesting
    fine = _set(manifest, ("source", "path"), "[" * 1000)
    assert _outcome(store, fine, "manifest documents") == "ok"


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)


@FUZZ
@given(data=st.data())
def test_random_json_anywhere_in_the_manifest_is_refused_or_read(good_store, data):
    path, manifest = good_store
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder, "s")
        shutil.copytree(path, store)
        where = data.draw(st.sampled_from(list(_paths(manifest))[1:]))
        _outcome(store, _set(manifest, where, data.draw(_json)), "manifest random JSON")
