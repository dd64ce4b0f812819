"""The .npz cache, the cache-folder rules, cards and the registry API, on small fake archives."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import datasets
from olearn.datasets import _cache, _cards, reuters
from olearn.datasets._base import ARRAY_META
from tests.datasets_fakes import make_reuters, reuters_doc

TOPICS = ["earn", "acq", "gold", "crude"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A data folder holding a fake Reuters archive; no OLEARN_CACHE; user cache in tmp."""
    monkeypatch.delenv("OLEARN_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "data"
    folder.mkdir()
    docs = [
        reuters_doc(
            i + 1,
            [TOPICS[i % 4]],
            f"Title {i}",
            f"body number {i} about {TOPICS[i % 4]} and word{i}",
        )
        for i in range(12)
    ]
    make_reuters(folder / reuters.ARCHIVE, docs)
    return folder


def _count_builds(monkeypatch):
    calls = []
    original = reuters.build_reuters20

    def counting(*args, **kwargs):
        calls.append(kwargs)
        return original(*args, **kwargs)

    monkeypatch.setattr(reuters, "build_reuters20", counting)
    return calls


def _same(a, b):
    assert a.name == b.name
    assert (a.X != b.X).nnz == 0 if sp.issparse(a.X) else np.array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert {k: v for k, v in a.meta.items() if k not in ARRAY_META} == {
        k: v for k, v in b.meta.items() if k not in ARRAY_META
    }
    for key in ("feature_names", "members"):
        assert a.meta[key].dtype.kind == b.meta[key].dtype.kind == "U"
        np.testing.assert_array_equal(a.meta[key], b.meta[key])


def test_second_load_reads_the_npz(home, monkeypatch):
    calls = _count_builds(monkeypatch)
    first = datasets.load("reuters-20", home)
    assert len(calls) == 1
    cached = list((home / ".olearn_cache").glob("reuters-20-p*.npz"))
    assert len(cached) == 1  # writable data folder: cache beside the data
    with np.load(cached[0], allow_pickle=False) as f:  # no pickle anywhere
        assert "X_data" in f and "y" in f
    second = datasets.load("reuters-20", home)
    assert len(calls) == 1  # no re-parse
    _same(first, second)
    assert second.meta["class_counts"] == {"acq": 3, "crude": 3, "earn": 3, "gold": 3}


def test_options_are_part_of_the_key_and_unknown_options_refused(home, monkeypatch):
    calls = _count_builds(monkeypatch)
    a = datasets.load("reuters-20", home)
    b = datasets.load("reuters-20", home, lowercase=True)
    assert len(calls) == 2 and calls[1]["lowercase"] is True
    assert "Title" in a.meta["feature_names"] and "title" in b.meta["feature_names"]
    with pytest.raises(ValueError, match="no option"):
        datasets.load("reuters-20", home, lowercase_please=True)
    with pytest.raises(ValueError, match="unknown dataset"):
        datasets.load("reuters-21", home)


def test_stale_or_corrupt_cache_is_rebuilt(home, monkeypatch):
    calls = _count_builds(monkeypatch)
    datasets.load("reuters-20", home)
    archive = home / reuters.ARCHIVE
    docs = [reuters_doc(i + 1, [TOPICS[i % 2]], f"T{i}", f"other text {i}") for i in range(6)]
    make_reuters(archive, docs)  # a different archive (different size)
    assert datasets.card("reuters-20", home, build=False)["downloaded"] is True
    assert "n_samples" not in datasets.card("reuters-20", home, build=False)  # stale card
    ds = datasets.load("reuters-20", home)
    assert len(calls) == 2 and ds.meta["n_samples"] == 6
    assert datasets.card("reuters-20", home)["n_samples"] == 6  # cached again: full card
    (npz,) = (home / ".olearn_cache").glob("reuters-20-p*.npz")
    npz.write_bytes(b"not a zip file")
    with pytest.warns(UserWarning, match="unreadable cache"):
        again = datasets.load("reuters-20", home)
    assert len(calls) == 3 and again.meta["n_samples"] == 6


def test_read_only_data_folder_caches_elsewhere(home, tmp_path, monkeypatch):
    calls = _count_builds(monkeypatch)
    home.chmod(0o555)
    try:
        datasets.load("reuters-20", home)
        datasets.load("reuters-20", home)
        assert len(calls) == 1
        assert not (home / ".olearn_cache").exists()  # nothing written into the data folder
        assert list((tmp_path / "xdg" / "olearn").glob("reuters-20-p*.npz"))
    finally:
        home.chmod(0o755)


def test_olearn_cache_wins(home, tmp_path, monkeypatch):
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path / "elsewhere"))
    datasets.load("reuters-20", home)
    assert list((tmp_path / "elsewhere").glob("reuters-20-p*.npz"))
    assert not (home / ".olearn_cache").exists()


def test_cache_works_offline_once_built(home, monkeypatch):
    first = datasets.load("reuters-20", home)
    (home / reuters.ARCHIVE).unlink()  # archive gone, download impossible
    monkeypatch.setattr(reuters, "build_reuters20", lambda *a, **k: pytest.fail("re-parsed"))
    _same(first, datasets.load("reuters-20", home, download=False))


def test_card_cached_absent_and_built(home, tmp_path):
    absent = datasets.card("usps", tmp_path / "empty")  # no archive, no download
    assert absent["downloaded"] is False
    assert absent["missing"] == ["usps.bz2", "usps.t.bz2"]
    assert "ESL" in absent["notes"] and absent["paper_table"]["n_samples"] == 7291
    assert "n_samples" not in absent
    static = datasets.card("reuters-20", home)  # default: cheap, never parses
    assert static["downloaded"] is True and static["missing"] == [] and "n_samples" not in static
    built = datasets.card("reuters-20", home, build=True)  # archive present: parsed, cached
    assert built["downloaded"] is True and built["n_samples"] == 12
    for key in (
        "n_samples",
        "n_features",
        "n_classes",
        "class_counts",
        "nnz",
        "density",
        "source",
        "licence",
        "url",
        "notes",
        "paper_table",
    ):
        assert key in built, key
    assert built["density"] == pytest.approx(built["nnz"] / (12 * built["n_features"]))
    sidecar = next((home / ".olearn_cache").glob("reuters-20-p*.card.json"))
    assert json.loads(sidecar.read_text())["n_samples"] == 12
    sidecar.unlink()  # a lost sidecar is rewritten by the next (cached) load
    datasets.load("reuters-20", home)
    assert json.loads(sidecar.read_text())["n_samples"] == 12
    (home / reuters.ARCHIVE).unlink()
    offline = datasets.card("reuters-20", home)  # cached card, archive gone
    assert offline["n_samples"] == 12 and offline["downloaded"] is False
    toy = datasets.card("toy-moons")
    assert toy["kind"] == "toy" and toy["n_classes"] == 2 and toy["n_samples"] == 200


def test_names_by_kind():
    everything = datasets.names()
    kinds = {k: datasets.names(k) for k in ("toy", "embedded", "real", "pairs", "sgd")}
    assert sorted(sum(kinds.values(), [])) == sorted(everything)
    assert kinds["real"] == ["usps", "20news-8", "reuters-20"]
    assert kinds["embedded"] == ["digits"]
    assert kinds["sgd"] == ["sgd-balanced", "sgd-rare"]
    assert len(kinds["pairs"]) >= 4 and all(n.startswith("pair-") for n in kinds["pairs"])
    with pytest.raises(ValueError, match="unknown kind"):
        datasets.names("images")


def test_card_json_keeps_integer_labels():
    ds = datasets.load("toy-blobs", n_samples=30)
    meta = _cards.card_from_json(_cards.card_to_json(ds.meta))
    assert meta["class_counts"] == ds.meta["class_counts"]
    assert all(isinstance(k, int) for k in meta["class_counts"])


def test_cache_write_failure_only_warns(tmp_path):
    ds = datasets.load("toy-xor", n_samples=20)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _cache.write(locked / "x.npz", ds, {})
        if not caught:  # root ignores permission bits: the write then simply succeeded
            assert (locked / "x.npz").exists()
        else:
            assert "could not cache" in str(caught[0].message)
    finally:
        locked.chmod(0o755)


@pytest.mark.parametrize("name", datasets.names())
def test_every_card_without_archives(name, tmp_path):
    card = datasets.card(name, tmp_path / "nothing-here", build=False)
    assert not (tmp_path / "nothing-here").exists()  # a card creates no folder
    for key in ("name", "kind", "title", "source", "url", "licence", "notes", "downloaded"):
        assert card[key] not in (None, ""), key
    if card["kind"] in ("toy", "embedded"):
        assert card["downloaded"] is True and card["n_samples"] > 0
    else:
        assert card["downloaded"] is False and card["missing"] == card["files"]
        assert "paper_table" in card


def test_damaged_archive_in_the_data_folder(home):
    archive = home / reuters.ARCHIVE
    archive.write_bytes(archive.read_bytes()[:300])  # truncated gzip
    with pytest.raises(datasets.DatasetUnavailable, match="reuters21578.tar.gz") as info:
        datasets.load("reuters-20", home)
    assert "fetch reuters-20" in str(info.value) and str(home) in str(info.value)
