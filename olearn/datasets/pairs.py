"""Binary document pairs for the PCVM seed (002): 400 training and 800 test documents,
binary word presence, labels +1 / -1.

Seed 002 (Ikegami et al.) classified pairs of categories of the CD-Mainichi Shimbun 1994
corpus (Cu. culture, Ec. economy, Sp. sports, In. international, En. entertainment; Table 1:
Cu./Ec., Cu./Sp., Ec./In., En./In.), N = 400 training and 800 test documents, each document
a 0/1 vector of word presence.  That corpus is not public.  We build the same kind of task:

- from the Japanese livedoor news corpus (the closest public Japanese news corpus), four
  pairs that mirror the seed's *in spirit only* -- livedoor has no culture, economy or
  international desk, so the mapping is an analogy, stated on each card:

  ========================  =======  ====================================================
  name                      seed     categories (+1 / -1)
  ========================  =======  ====================================================
  pair-ldcc-dokujo-it       Cu./Ec.  dokujo-tsushin (women's lifestyle and culture column)
                                     / it-life-hack (IT business and products)
  pair-ldcc-dokujo-sports   Cu./Sp.  dokujo-tsushin / sports-watch
  pair-ldcc-it-topic        Ec./In.  it-life-hack / topic-news (general and foreign news)
  pair-ldcc-movie-topic     En./In.  movie-enter (film and entertainment) / topic-news
  ========================  =======  ====================================================

- and three English pairs: ``pair-20news-space-med`` (sci.space / sci.med),
  ``pair-20news-autos-motorcycles`` (rec.autos / rec.motorcycles) and
  ``pair-reuters-acq-earn`` (single-topic Reuters-21578 acq / earn, the rule of
  ``reuters-20``).

Rule (defaults are options): documents with fewer than ``min_tokens=10`` tokens (near-empty
posts, whose presence vector could be all zero) are set aside; from each category draw
``(n_train + n_test) / 2`` documents without replacement
(``numpy.random.default_rng(random_state)``), then split them with the
seeded stratified split (:func:`olearn.datasets._text.stratified_split`): 200 + 200 training
and 400 + 400 test documents.  The vocabulary is fitted **on the 400 training documents
only** (no test leakage): terms present in at least ``min_df=2`` of them; each document is
the 0/1 presence vector of those terms (test terms outside it are dropped).  Tokens: English
as scikit-learn's ``CountVectorizer`` (lowercase words of 2+ word characters; 20news headers
stripped); Japanese character 1- and 2-grams per line after NFKC (no dictionary), title and
body only (URL and date lines skipped, ``【...】`` column tags removed).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from olearn.citations import cite
from olearn.datasets import livedoor, newsgroups, reuters
from olearn.datasets._base import Dataset, make_dataset
from olearn.datasets._text import japanese_char_ngrams, stratified_split, strip_newsgroup_header


@dataclass(frozen=True)
class PairSpec:
    """One pair: ``corpus`` ("ldcc", "20news" or "reuters"), the ``positive`` (+1) and
    ``negative`` (-1) categories, and the seed 002 pair it mirrors (or "")."""

    corpus: str
    positive: str
    negative: str
    seed_pair: str = ""
    analogy: str = ""


PAIRS: dict[str, PairSpec] = {
    "pair-ldcc-dokujo-it": PairSpec(
        "ldcc",
        "dokujo-tsushin",
        "it-life-hack",
        "Cu./Ec.",
        "culture ~ dokujo-tsushin (lifestyle and culture column for single women); "
        "economy ~ it-life-hack (IT business, products and services)",
    ),
    "pair-ldcc-dokujo-sports": PairSpec(
        "ldcc",
        "dokujo-tsushin",
        "sports-watch",
        "Cu./Sp.",
        "culture ~ dokujo-tsushin; sports ~ sports-watch (a direct match)",
    ),
    "pair-ldcc-it-topic": PairSpec(
        "ldcc",
        "it-life-hack",
        "topic-news",
        "Ec./In.",
        "economy ~ it-life-hack; international ~ topic-news (general news, much of it about "
        "China and Korea)",
    ),
    "pair-ldcc-movie-topic": PairSpec(
        "ldcc",
        "movie-enter",
        "topic-news",
        "En./In.",
        "entertainment ~ movie-enter (films, actors); international ~ topic-news",
    ),
    "pair-20news-space-med": PairSpec("20news", "sci.space", "sci.med"),
    "pair-20news-autos-motorcycles": PairSpec("20news", "rec.autos", "rec.motorcycles"),
    "pair-reuters-acq-earn": PairSpec("reuters", "acq", "earn"),
}
ARCHIVES = {"ldcc": livedoor.ARCHIVE, "20news": newsgroups.ARCHIVE, "reuters": reuters.ARCHIVE}


def _documents(corpus: str, path: Path, categories: tuple[str, str]):
    """``(texts, labels, ids)`` of every document of the two categories, in member order
    (``ids``: archive member names, or ``NEWID=<n>`` for Reuters)."""
    if corpus == "ldcc":
        c = livedoor.read_livedoor(path)
        keep = np.flatnonzero(np.isin(c.categories, categories))
        texts = c.texts(strip_brackets=True)
        return [texts[i] for i in keep], c.categories[keep], np.array(c.names)[keep]
    if corpus == "20news":
        c = newsgroups.read_20news(path)
        keep = np.flatnonzero(np.isin(c.groups, categories))
        texts = [strip_newsgroup_header(c.texts[i]) for i in keep]
        return texts, c.groups[keep], np.array(c.names)[keep]
    c = reuters.read_reuters(path)
    keep, labels = reuters.select_single_topic(c, categories, "overall")
    return [c.texts[i] for i in keep], labels, np.array([f"NEWID={c.newid[i]}" for i in keep])


def build_pair(
    paths: dict[str, Path],
    *,
    pair: str,
    n_train: int = 400,
    n_test: int = 800,
    min_df: int = 2,
    min_tokens: int = 10,
    random_state: int = 0,
) -> Dataset:
    """One binary pair (module docstring): ``X`` 400 x M 0/1, ``y`` in {+1, -1}, test split."""
    from sklearn.feature_extraction.text import (
        CountVectorizer,
    )

    spec = PAIRS[pair]
    if n_train < 2 or n_test < 2 or n_train % 2 or n_test % 2:
        raise ValueError(f"n_train and n_test must be even and >= 2, got {n_train}, {n_test}")
    texts, cats, ids = _documents(
        spec.corpus, paths[ARCHIVES[spec.corpus]], (spec.positive, spec.negative)
    )
    if spec.corpus == "ldcc":
        vectorizer = CountVectorizer(
            analyzer=japanese_char_ngrams, binary=True, min_df=min_df, dtype=np.float64
        )
    else:
        vectorizer = CountVectorizer(binary=True, min_df=min_df, dtype=np.float64)
    analyzer = vectorizer.build_analyzer()
    long_enough = np.array([len(analyzer(t)) >= min_tokens for t in texts])
    rng = np.random.default_rng(random_state)
    per_class = (n_train + n_test) // 2
    drawn = []
    for category in (spec.positive, spec.negative):
        members = np.flatnonzero((cats == category) & long_enough)
        if members.size < per_class:
            raise ValueError(f"{category} has {members.size} documents, needs {per_class}")
        drawn.append(np.sort(rng.choice(members, size=per_class, replace=False)))
    drawn = np.concatenate(drawn)
    y_all = np.where(cats[drawn] == spec.positive, 1, -1).astype(np.int64)
    train, test = stratified_split(y_all, n_train, n_test, rng)  # 200 + 200 / 400 + 400
    X = vectorizer.fit_transform([texts[i] for i in drawn[train]])  # vocabulary: training only
    X_test = vectorizer.transform([texts[i] for i in drawn[test]])
    card = {
        **static_card(pair),
        "notes": static_card(pair)["notes"]
        + (
            f" Documents with fewer than {min_tokens} tokens are never drawn."
            f" Drawn: {per_class} per category (numpy default_rng({random_state})), seeded "
            f"stratified split {n_train} train / {n_test} test; vocabulary = terms in >= "
            f"{min_df} training documents (test documents never seen); binary presence. "
            f"Test rows with no training term: {int((X_test.getnnz(axis=1) == 0).sum())}."
        ),
        "options": {
            "n_train": n_train,
            "n_test": n_test,
            "min_df": min_df,
            "min_tokens": min_tokens,
            "random_state": random_state,
        },
        "feature_names": vectorizer.get_feature_names_out().astype(str),
        "members": ids[drawn[train]],
        "test_members": ids[drawn[test]],
    }
    return make_dataset(pair, X, y_all[train], card, X_test, y_all[test])


def static_card(pair: str) -> dict:
    """The card fields known without the archive."""
    from olearn.datasets._urls import URLS  # the same dict, without the network stack

    spec = PAIRS[pair]
    corpus = {"ldcc": livedoor, "20news": newsgroups, "reuters": reuters}[spec.corpus]
    tokens = (
        "character 1-2-grams (Japanese, no dictionary)"
        if spec.corpus == "ldcc"
        else "lowercase words"
    )
    mirror = (
        f" Mirrors the {spec.seed_pair} pair of {cite('002')} by analogy only: {spec.analogy}."
        if spec.seed_pair
        else " An English pair of the same form (no seed counterpart)."
    )
    return {
        "title": f"Document pair {spec.positive} (+1) vs {spec.negative} (-1)",
        "source": corpus.SOURCE,
        "url": URLS[ARCHIVES[spec.corpus]],
        "licence": corpus.LICENCE,
        "notes": f"Binary presence of {tokens}; labels +1 = {spec.positive}, "
        f"-1 = {spec.negative}.{mirror}",
        "positive": spec.positive,
        "negative": spec.negative,
        "seed_pair": spec.seed_pair,
        "paper_table": {
            "source": f"{cite('002')}, section 3",
            "n_samples": 400,
            "n_test": 800,
            "features": "binary word presence",
            **({"pair": spec.seed_pair} if spec.seed_pair else {}),
        },
    }
