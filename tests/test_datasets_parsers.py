"""Selection and featurisation rules of the corpus loaders, on small fake archives.

Each rule is checked against facts planted in the fake documents (which document should be
kept, which token should or should not become a feature, where a hashed token must land),
not against a previous output.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.utils import murmurhash3_32

from olearn.datasets import hashed, livedoor, newsgroups, pairs, reuters
from olearn.datasets._text import japanese_char_ngrams, stratified_split
from tests.datasets_fakes import make_20news, make_livedoor, make_reuters, reuters_doc


def _reuters(tmp_path, docs):
    return {reuters.ARCHIVE: make_reuters(tmp_path / reuters.ARCHIVE, docs)}


def test_reuters_selection_rules(tmp_path):
    docs = [
        reuters_doc(1, ["gold"], "GOLD &amp; SILVER", "kept single topic"),
        reuters_doc(2, ["gold", "acq"], "two of the 20", "dropped by both rules"),
        reuters_doc(3, ["earn", "bop"], "earn plus other", "kept only by among20"),
        reuters_doc(4, [], "no topic", "dropped"),
        reuters_doc(5, ["acq"], "brief title only", None),
        reuters_doc(6, ["gold"], "GOLD &amp; SILVER", "kept single topic"),  # duplicate of 1
        reuters_doc(7, ["bop"], "not one of the 20", "dropped"),
        reuters_doc(8, ["crude"], "M\xfcnchen oil", "latin-1 byte", split="NOT-USED"),
    ]
    paths = _reuters(tmp_path, docs)
    corpus = reuters.read_reuters(paths[reuters.ARCHIVE])
    assert corpus.newid.tolist() == list(range(1, 9))
    assert corpus.texts[0] == "GOLD & SILVER\nkept single topic"  # entities, no signature
    assert corpus.texts[7].startswith("M\xfcnchen")

    def kept(**kw):
        idx, labels = reuters.select_single_topic(corpus, reuters.TOPICS_20, **kw)
        return corpus.newid[idx].tolist(), labels.tolist()

    assert kept() == ([1, 8], ["gold", "crude"])
    assert kept(single="among20") == ([1, 3, 8], ["gold", "earn", "crude"])
    assert kept(dedupe=False) == ([1, 6, 8], ["gold", "gold", "crude"])
    assert kept(require_body=False) == ([1, 5, 8], ["gold", "acq", "crude"])
    with pytest.raises(ValueError, match="single"):
        kept(single="first")
    ds = reuters.build_reuters20(paths)
    assert ds.y.tolist() == ["gold", "crude"]
    assert "GOLD" in ds.meta["feature_names"] and "gold" not in ds.meta["feature_names"]


def test_livedoor_skips_url_date_and_column_tags(tmp_path):
    path = make_livedoor(
        tmp_path / livedoor.ARCHIVE,
        {
            "sports-watch": [("【Sports Watch】野球の話", "本文です。")],
            "it-life-hack": [("新製品", "ＩＴの本文")],
        },
    )
    corpus = livedoor.read_livedoor(path)
    assert corpus.categories.tolist() == ["it-life-hack", "sports-watch"]
    texts = corpus.texts(strip_brackets=True)
    assert texts[1].startswith(" 野球の話") and "Sports" not in texts[1]
    assert "http" not in "".join(texts) and "2012" not in "".join(texts)
    assert "Sports Watch" in corpus.texts(strip_brackets=False)[1]
    grams = japanese_char_ngrams(texts[0])
    assert "it" in grams and "ｉ" not in grams  # NFKC folds full-width letters


def _fake_news(tmp_path, per_group=20):
    posts = {}
    for split in ("train", "test"):
        for g, group in enumerate(("sci.space", "sci.med", "comp.graphics", "rec.autos")):
            posts[(split, group)] = [
                f"common words here and unique{split}{g}x{i} plus more filler text tokens"
                for i in range(per_group)
            ]
    return make_20news(tmp_path / newsgroups.ARCHIVE, posts)


def test_pair_vocabulary_comes_from_training_documents_only(tmp_path):
    paths = {newsgroups.ARCHIVE: _fake_news(tmp_path)}
    ds = pairs.build_pair(paths, pair="pair-20news-space-med", n_train=16, n_test=32, min_df=1)
    assert ds.X.shape[0] == 16 and ds.X_test.shape[0] == 32
    assert np.bincount(ds.y == 1).tolist() == [8, 8]  # +1 / -1 balanced
    assert np.bincount(ds.y_test == 1).tolist() == [16, 16]
    assert set(np.unique(ds.X.data)) == {1.0} and set(np.unique(ds.X_test.data)) == {1.0}
    vocab = set(ds.meta["feature_names"].tolist())
    uniques = {t for t in vocab if t.startswith("unique")}
    assert len(uniques) == 16  # exactly one planted token per training document ...
    assert {int(t.split("x")[0][-1]) for t in uniques} == {0, 1}  # from the two groups only
    # no test document's planted token is a feature: each test row holds only shared words
    shared = ds.X[
        :, [k for k, t in enumerate(ds.meta["feature_names"]) if not t.startswith("unique")]
    ]
    assert ds.X_test.sum(axis=1).A1.tolist() == [shared.shape[1]] * 32
    common = ds.meta["feature_names"].tolist().index("common")
    assert ds.X[:, common].toarray().ravel().tolist() == [1.0] * 16
    with pytest.raises(ValueError, match="needs"):
        pairs.build_pair(paths, pair="pair-20news-space-med", n_train=400, n_test=800)


def test_pair_min_df_counts_training_documents(tmp_path):
    paths = {newsgroups.ARCHIVE: _fake_news(tmp_path)}
    ds = pairs.build_pair(paths, pair="pair-20news-space-med", n_train=16, n_test=32, min_df=2)
    df = np.asarray((ds.X > 0).sum(axis=0)).ravel()
    assert df.min() >= 2  # every kept term is in >= 2 training documents
    assert not any(t.startswith("unique") for t in ds.meta["feature_names"])


def test_hashed_tokens_land_where_murmurhash_says(tmp_path):
    news = _fake_news(tmp_path, per_group=3)
    ldcc = make_livedoor(
        tmp_path / livedoor.ARCHIVE,
        {
            "smax": [("スマホ", "新機種")] * 2,
            "peachy": [("恋愛", "話題")] * 2,
        },
    )
    paths = {newsgroups.ARCHIVE: news, livedoor.ARCHIVE: ldcc}
    X, y, sources = hashed._pool("sgd-balanced", paths, "gold")
    assert X.shape == (24 + 4, 2**20)
    np.testing.assert_allclose(np.sqrt(X.multiply(X).sum(axis=1)).A1, 1.0)  # unit L2 rows
    index = abs(murmurhash3_32("common", seed=0)) % 2**20  # sklearn's rule: |signed hash| mod n
    assert np.all(X[sources == "20news"][:, index].toarray() > 0)
    single = hashed.hash_texts(["zebra zebra"], japanese=False)
    assert single.nnz == 2  # "zebra" and the bigram "zebra zebra"
    assert single[0, abs(murmurhash3_32("zebra", seed=0)) % 2**20] > 0
    # +1: comp.*/sci.* groups and smax; -1: rec.autos and peachy
    groups = newsgroups.read_20news(news).groups
    expected = [g.startswith(("comp.", "sci.")) for g in groups] + [False, False, True, True]
    assert (y == 1).tolist() == expected


def test_hashed_rare_positives_are_the_topic(tmp_path):
    docs = [
        reuters_doc(i + 1, ["gold"] if i % 5 == 0 else ["earn"], f"t{i}", f"b{i}")
        for i in range(20)
    ]
    paths = {
        newsgroups.ARCHIVE: _fake_news(tmp_path, per_group=3),
        reuters.ARCHIVE: make_reuters(tmp_path / reuters.ARCHIVE, docs),
        livedoor.ARCHIVE: make_livedoor(tmp_path / livedoor.ARCHIVE, {"smax": [("ab", "cd")]}),
    }
    ds = hashed.build_hashed(paths, name="sgd-rare", test_fraction=0.25)
    assert ds.X.shape[0] + ds.X_test.shape[0] == 24 + 20 + 1
    assert int((ds.y == 1).sum() + (ds.y_test == 1).sum()) == 4  # NEWID 1, 6, 11, 16
    assert ds.X_test.shape[0] == round(0.25 * 45)


@pytest.mark.parametrize("seed", range(5))
def test_stratified_split_shares_and_disjointness(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, size=int(rng.integers(20, 200)))
    n_test = int(rng.integers(1, y.size // 2))
    n_train = y.size - n_test - int(rng.integers(0, y.size // 4))
    train, test = stratified_split(y, n_train, n_test, np.random.default_rng(seed))
    assert train.size == n_train and test.size == n_test
    assert not set(train) & set(test)
    counts = np.bincount(y, minlength=4)
    for label in range(4):  # each class within one document of its exact proportional share
        assert abs((y[test] == label).sum() - n_test * counts[label] / y.size) <= 1.5
        assert abs((y[train] == label).sum() - n_train * counts[label] / y.size) <= 1.5
    everything, _ = stratified_split(y, y.size, 0, np.random.default_rng(0))
    assert sorted(everything) == list(range(y.size))
