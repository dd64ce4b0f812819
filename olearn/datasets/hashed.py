"""Large sparse one-vs-rest sets with hashed features for the SGD-SVM seed (004).

Seed 004 (Ono, McAllester, Sasaki) used two binary sets that are not public (Table 1):
(1) clinical-trial protocols vs a MeSH category: 1,363,944 dimensions, 261 non-zeros per
row, 54 % positives, 68,684 / 7,632 train / test; (2) an LSHTC3 class: 2,085,164
dimensions, 47 non-zeros per row, 0.25 % positives, 411,197 / 45,689.  We mirror their
*shape* (about 2^20 hashed dimensions, one balanced and one rare positive class, a 10 %
held-out test split) from the public corpora in the data folder:

- ``sgd-balanced``: 20 Newsgroups (all 18,846 posts, headers stripped) + livedoor news (all
  7,367 articles, Japanese).  +1 = technology: the groups ``comp.*``, ``sci.*`` and
  ``misc.forsale`` and the livedoor categories ``it-life-hack``, ``kaden-channel`` (home
  appliances) and ``smax`` (smartphones); -1 = everything else.  Both corpora hold both
  labels, so the source language does not give the label away.
- ``sgd-rare``: 20 Newsgroups + Reuters-21578 (all 21,577 documents with a text) + livedoor.
  +1 = Reuters documents whose TOPICS include ``gold`` (135 documents, 0.28 %); -1 = the rest.

Features: scikit-learn's ``HashingVectorizer`` with ``n_features = 2**20``,
``alternate_sign=False``: English lowercase word unigrams + bigrams, Japanese character
bigrams (:func:`olearn.datasets._text.japanese_char_ngrams`; no dictionary: the usual
indexing unit of Japanese retrieval, and half the cost of 1- and 2-grams), term
frequencies, each row scaled to unit L2 norm (``norm="l2"``).  Split: seeded stratified
(:func:`olearn.datasets._text.stratified_split`), ``test_fraction = 0.1`` held out as
``X_test``.  Labels +1 / -1 (int64).  Documents without any token (32 20news posts whose body
is empty once the header is stripped, one empty Reuters item) are left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from olearn.citations import cite
from olearn.datasets import livedoor, newsgroups, reuters
from olearn.datasets._base import Dataset, make_dataset
from olearn.datasets._text import japanese_char_ngrams, stratified_split, strip_newsgroup_header

if TYPE_CHECKING:  # imported when the sets are built: their cards (olearn list) need no scipy
    import scipy.sparse as sp

N_FEATURES = 2**20
TECH_GROUPS = ("comp.", "sci.", "misc.forsale")  # 20news group prefixes labelled +1
TECH_LIVEDOOR = ("it-life-hack", "kaden-channel", "smax")
SEED_TABLE_1 = {
    "sgd-balanced": {
        "source": f"{cite('004')}, Table 1, data (1) (MeSH)",
        "n_features": 1363944,
        "nnz_per_row": 261,
        "positive_share": 0.54,
        "n_samples": 68684,
        "n_test": 7632,
    },
    "sgd-rare": {
        "source": f"{cite('004')}, Table 1, data (2) (LSHTC3)",
        "n_features": 2085164,
        "nnz_per_row": 47,
        "positive_share": 0.0025,
        "n_samples": 411197,
        "n_test": 45689,
    },
}
FILES = {
    "sgd-balanced": (newsgroups.ARCHIVE, livedoor.ARCHIVE),
    "sgd-rare": (newsgroups.ARCHIVE, reuters.ARCHIVE, livedoor.ARCHIVE),
}


def _japanese_bigrams(text: str) -> list[str]:
    return japanese_char_ngrams(text, (2, 2))


def hash_texts(texts: list[str], japanese: bool, n_features: int = N_FEATURES) -> sp.csr_matrix:
    """Hashed, L2-normalised term frequencies of ``texts`` (module docstring)."""
    from sklearn.feature_extraction.text import (
        HashingVectorizer,
    )

    if japanese:
        vectorizer = HashingVectorizer(
            n_features=n_features,
            analyzer=_japanese_bigrams,
            alternate_sign=False,
            norm="l2",
            dtype=np.float64,
        )
    else:
        vectorizer = HashingVectorizer(
            n_features=n_features,
            ngram_range=(1, 2),
            alternate_sign=False,
            norm="l2",
            dtype=np.float64,
        )
    return vectorizer.transform(texts).tocsr()


def _pool(name: str, paths: dict[str, Path], positive_topic: str):
    """``(X, y, sources)``: every document of the pooled corpora, hashed, labelled +1/-1."""
    blocks, labels, sources = [], [], []
    news = newsgroups.read_20news(paths[newsgroups.ARCHIVE])
    blocks.append(hash_texts([strip_newsgroup_header(t) for t in news.texts], japanese=False))
    if name == "sgd-balanced":
        labels.append(np.array([g.startswith(TECH_GROUPS) for g in news.groups]))
    else:
        labels.append(np.zeros(len(news.texts), dtype=bool))
    sources.append(np.full(len(news.texts), "20news"))
    if name == "sgd-rare":
        corpus = reuters.read_reuters(paths[reuters.ARCHIVE])
        keep = [i for i, t in enumerate(corpus.texts) if t.strip()]
        blocks.append(hash_texts([corpus.texts[i] for i in keep], japanese=False))
        labels.append(np.array([positive_topic in corpus.topics[i] for i in keep]))
        sources.append(np.full(len(keep), "reuters"))
    ldcc = livedoor.read_livedoor(paths[livedoor.ARCHIVE])
    blocks.append(hash_texts(ldcc.texts(strip_brackets=True), japanese=True))
    if name == "sgd-balanced":
        labels.append(np.isin(ldcc.categories, TECH_LIVEDOOR))
    else:
        labels.append(np.zeros(len(ldcc.names), dtype=bool))
    sources.append(np.full(len(ldcc.names), "livedoor"))
    import scipy.sparse as sp

    X = sp.vstack(blocks, format="csr")
    y = np.where(np.concatenate(labels), 1, -1).astype(np.int64)
    keep = X.getnnz(axis=1) > 0  # documents without a single token (empty posts) are dropped
    return X[keep], y[keep], np.concatenate(sources)[keep]


def build_hashed(
    paths: dict[str, Path],
    *,
    name: str,
    test_fraction: float = 0.1,
    positive_topic: str = "gold",
    random_state: int = 0,
) -> Dataset:
    """``sgd-balanced`` or ``sgd-rare`` (module docstring), with a stratified test split."""
    if name not in SEED_TABLE_1:
        raise ValueError(f"unknown hashed set {name!r}; choose one of {sorted(SEED_TABLE_1)}")
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must be in (0, 1), got {test_fraction}")
    X, y, sources = _pool(name, paths, positive_topic)
    if (y == 1).sum() < 2:
        raise ValueError(f"{name}: fewer than 2 positive documents (topic {positive_topic!r}?)")
    n_test = int(round(test_fraction * y.size))
    rng = np.random.default_rng(random_state)
    train, test = stratified_split(y, y.size - n_test, n_test, rng)
    positives = (
        "20news comp.*, sci.*, misc.forsale + livedoor it-life-hack, kaden-channel, smax "
        "(technology)"
        if name == "sgd-balanced"
        else f"Reuters-21578 documents whose TOPICS include {positive_topic!r}"
    )
    counts = {s: int((sources == s).sum()) for s in np.unique(sources)}
    card = {
        **static_card(name),
        "notes": static_card(name)["notes"]
        + (
            f" Pool: {counts}; +1 = {positives}. Seeded stratified split "
            f"(numpy default_rng({random_state})): {n_test} test documents "
            f"({test_fraction:.0%})."
        ),
        "options": {
            "test_fraction": test_fraction,
            "random_state": random_state,
            **({"positive_topic": positive_topic} if name == "sgd-rare" else {}),
        },
        "positive_share": float((y == 1).mean()),
    }
    return make_dataset(name, X[train], y[train], card, X[test], y[test])


def static_card(name: str) -> dict:
    """The card fields known without the archives."""
    from olearn.datasets._urls import URLS  # the same dict, without the network stack

    corpora = {newsgroups.ARCHIVE: newsgroups, reuters.ARCHIVE: reuters, livedoor.ARCHIVE: livedoor}
    files = FILES[name]
    return {
        "title": (
            "Hashed one-vs-rest, balanced (technology vs rest)"
            if name == "sgd-balanced"
            else "Hashed one-vs-rest, rare positive (Reuters 'gold' vs rest)"
        ),
        "source": "; ".join(corpora[f].SOURCE for f in files),
        "url": " ; ".join(URLS[f] for f in files),
        "licence": " | ".join(corpora[f].LICENCE for f in files),
        "notes": (
            f"Mirrors the shape of the non-public data of {cite('004')}: HashingVectorizer 2^20 "
            "features, "
            "alternate_sign=False, English word 1-2-grams, Japanese character bigrams, term "
            "frequencies with unit-L2 rows; labels +1/-1; 10% held-out test split."
        ),
        "paper_table": SEED_TABLE_1[name],
    }
