"""20news-8's three constructions (``preprocess``), on a small fake 20news-bydate archive.

Each rule is checked against words planted in the fake posts: a stop word must vanish, inflected
forms must meet in one Porter stem, a stem in exactly 2 documents must be dropped at the
default threshold of 3 and kept at 2, and the tf-idf option must give unit rows.
"""

from __future__ import annotations

import numpy as np
import pytest

from olearn.datasets import newsgroups
from tests.datasets_fakes import make_20news


def _archive(tmp_path):
    posts = {}
    for g, group in enumerate(newsgroups.GROUPS_8):
        posts[("train", group)] = [
            # "running"/"runs"/"run" -> one Porter stem "run"; "the"/"and" are stop words
            f"the runners were running and runs run group{g} topic{g}"
            for _ in range(3)
        ]
        # "rarity" appears in exactly 2 posts of the whole corpus (group 0 only)
        posts[("test", group)] = ["rarity rarity filler" if g == 0 else "filler"] * 2
    return {newsgroups.ARCHIVE: make_20news(tmp_path / newsgroups.ARCHIVE, posts)}


def _vocabulary(ds):
    return set(ds.meta["feature_names"].tolist())


def test_ucd_construction_removes_stop_words_stems_and_drops_rare_terms(tmp_path):
    paths = _archive(tmp_path)
    ds = newsgroups.build_20news8(paths, n_samples=40)  # 5 posts per group: every post
    vocab = _vocabulary(ds)
    assert "the" not in vocab and "and" not in vocab  # stop words removed
    assert "run" in vocab and "running" not in vocab and "runs" not in vocab  # stemmed
    assert "runner" in vocab  # Porter keeps the agent noun apart
    assert "rariti" not in vocab  # 2 documents < min_df=3
    kept = newsgroups.build_20news8(paths, n_samples=40, min_df=2)
    assert "rariti" in _vocabulary(kept)
    # raw counts: "running", "runs" and "run" all count towards "run": 3 per training post
    column = kept.X[:, kept.meta["feature_names"].tolist().index("run")].toarray().ravel()
    assert sorted(set(column.tolist())) == [0.0, 3.0]
    assert ds.meta["options"]["preprocess"] == "ucd" and ds.meta["options"]["min_df"] == 3
    assert "60%" in ds.meta["notes"] and "class sizes" in ds.meta["notes"]


def test_plain_construction_is_the_old_one(tmp_path):
    paths = _archive(tmp_path)
    ds = newsgroups.build_20news8(paths, n_samples=40, preprocess="plain", min_df=2)
    vocab = _vocabulary(ds)
    assert {"the", "running", "runs", "run", "rarity"} <= vocab  # nothing removed or stemmed
    assert ds.meta["options"]["min_df"] == 2
    assert (
        newsgroups.build_20news8(paths, n_samples=40, preprocess="plain").meta["options"]["min_df"]
        == 4
    )


def test_tfidf_construction_has_unit_rows_over_the_ucd_vocabulary(tmp_path):
    paths = _archive(tmp_path)
    counts = newsgroups.build_20news8(paths, n_samples=40)
    tfidf = newsgroups.build_20news8(paths, n_samples=40, preprocess="tfidf")
    assert _vocabulary(tfidf) == _vocabulary(counts)
    norms = np.sqrt(np.asarray(tfidf.X.multiply(tfidf.X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, 1.0)
    assert np.array_equal(tfidf.X.nonzero()[1], counts.X.nonzero()[1])  # same support


@pytest.mark.parametrize("bad", [{"preprocess": "porter"}, {"min_df": 0}])
def test_bad_options_are_refused(tmp_path, bad):
    with pytest.raises(ValueError):
        newsgroups.build_20news8(_archive(tmp_path), n_samples=40, **bad)
