"""Dataset options are checked against their builder's declared types (issue 22, item 7):
``remove_headers=no`` used to be a truthy string (headers stripped, card saying 'no')."""

from __future__ import annotations

import numpy as np
import pytest

from olearn import datasets
from olearn.datasets import newsgroups
from tests.datasets_fakes import make_20news


@pytest.fixture
def home(tmp_path, monkeypatch):
    posts = {
        (split, group): [f"plain words about {group} number {i}" for i in range(3)]
        for split in ("train", "test")
        for group in newsgroups.GROUPS_8
    }
    make_20news(tmp_path / newsgroups.ARCHIVE, posts)
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path / "cache"))
    return tmp_path


@pytest.mark.parametrize("word", ["no", "No", "off", "OFF", "false", "0", 0, False])
def test_a_false_word_keeps_the_headers(home, word):
    """Reference: the same load with the Python value False; the fake posts' headers
    ("From:", "Subject:") hold words that only a kept header contributes."""
    common = {"n_samples": 40, "min_df": 1}
    kept = datasets.load("20news-8", home, download=False, remove_headers=False, **common)
    stripped = datasets.load("20news-8", home, download=False, remove_headers=True, **common)
    assert "subject" in kept.meta["feature_names"]
    assert "subject" not in stripped.meta["feature_names"]
    ds = datasets.load("20news-8", home, download=False, remove_headers=word, **common)
    assert ds.meta["options"]["remove_headers"] is False  # the card records the value used
    np.testing.assert_array_equal(ds.meta["feature_names"], kept.meta["feature_names"])
    assert (ds.X != kept.X).nnz == 0


@pytest.mark.parametrize("word", ["yes", "On", "TRUE", "1", 1])
def test_a_true_word_is_true(word):
    assert datasets.check_options("20news-8", {"remove_headers": word})["remove_headers"] is True


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("20news-8", {"remove_headers": "maybe"}, "remove_headers must be a boolean: one of"),
        ("20news-8", {"remove_headers": 0.0}, "yes/no, on/off, 1/0 .*, got 0.0"),
        ("20news-8", {"remove_headers": 2}, "must be a boolean"),
        ("20news-8", {"n_samples": "many"}, "n_samples must be an integer, got 'many'"),
        ("20news-8", {"n_samples": 2.5}, "n_samples must be an integer"),
        ("20news-8", {"n_samples": True}, "n_samples must be an integer"),
        ("20news-8", {"min_df": "x"}, "min_df must be an integer or none"),
        ("20news-8", {"politics": 3}, "politics must be text"),
        ("20news-8", {"remove_header": False}, "no option\\(s\\) \\['remove_header'\\]"),
        ("toy-blobs", {"noise": "loud"}, "noise must be a number"),
        ("toy-blobs", {"noise": "nan"}, "noise must be a number"),
        ("toy-blobs", {"n_samples": None}, "n_samples must be an integer, got None"),
        ("sgd-rare", {"test_fraction": "inf"}, "test_fraction must be a number"),
    ],
)
def test_wrong_types_and_unknown_options_are_refused(name, options, message):
    with pytest.raises(ValueError, match=message):
        datasets.check_options(name, options)
    if name.startswith("toy"):
        with pytest.raises(ValueError, match=message):
            datasets.load(name, **options)


def test_values_are_converted_to_their_declared_types():
    opts = datasets.check_options(
        "toy-blobs", {"n_samples": "60", "noise": "0.25", "random_state": "None"}
    )
    assert opts["n_samples"] == 60 and isinstance(opts["n_samples"], int)
    assert opts["noise"] == 0.25 and opts["random_state"] is None
    assert datasets.check_options("20news-8", {"min_df": "none"})["min_df"] is None
    assert datasets.check_options("toy-blobs", {"n_samples": np.int64(7)})["n_samples"] == 7
    ds = datasets.load("toy-blobs", n_samples="60", noise="0.25")
    assert ds.X.shape == (60, 2)
