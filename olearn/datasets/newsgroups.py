"""20 Newsgroups ("bydate" version) and the seed-000-like 8-group subset ``20news-8``.

Source: ``20news-bydate.tar.gz`` (J. Rennie's 18,846-post "bydate" archive, the one
scikit-learn uses), members ``20news-bydate-{train,test}/<group>/<id>``, read as latin-1.

``20news-8`` stands in for the "ol-8-1" section of UCD's Machine Learning Group datasets
used in seed 000 (Table 3: 8 classes, 2,586 documents, 9,971 features), which is not
available any more.  Rule (all defaults are options):

1. groups: rec.autos, rec.sport.baseball, comp.graphics, comp.sys.mac.hardware, sci.med,
   rec.motorcycles, talk.politics.misc ("politics"; ``politics="talk.politics.guns"`` is
   the alternative), sci.space;
2. pool train and test; in the group order above, draw ``n_samples // 8`` posts per group
   (the first ``n_samples % 8`` groups one more) without replacement with
   ``numpy.random.default_rng(random_state)``, from each group's posts sorted by member
   name; then shuffle all drawn posts with the same generator;
3. strip the header block (``remove=('headers',)`` in scikit-learn): the headers name the
   newsgroup, which would give the label away;
4. bag of words: scikit-learn's ``CountVectorizer`` (lowercase, ``(?u)\\b\\w\\w+\\b``),
   terms in at least ``min_df=4`` of the 2,586 posts; raw counts, CSR float64.

This gives 2,586 x 10,398 (nnz 301,625), 4 % more features than the seed's 9,971.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer

from olearn.datasets._base import Dataset, make_dataset
from olearn.datasets._corpus import iter_tar_texts, memo_by_file
from olearn.datasets._text import strip_newsgroup_header

ARCHIVE = "20news-bydate.tar.gz"
GROUPS_8 = (
    "rec.autos",
    "rec.sport.baseball",
    "comp.graphics",
    "comp.sys.mac.hardware",
    "sci.med",
    "rec.motorcycles",
    "talk.politics.misc",
    "sci.space",
)
SOURCE = (
    "K. Lang, NewsWeeder: Learning to filter netnews, ICML 1995; "
    "20news-bydate archive by J. Rennie (qwone.com/~jason/20Newsgroups)"
)
LICENCE = "No licence stated by the distributor; Usenet posts, used for research"


@dataclass(frozen=True)
class NewsCorpus:
    """All 18,846 posts, sorted by member name: ``names[i]``, ``groups[i]``, ``splits[i]``
    (``"train"``/``"test"``) and ``texts[i]`` (full post, headers included)."""

    names: tuple[str, ...]
    groups: np.ndarray
    splits: np.ndarray
    texts: tuple[str, ...]


def _is_post(name: str) -> bool:
    parts = name.split("/")
    return len(parts) == 3 and parts[0].startswith("20news-bydate-")


@memo_by_file
def read_20news(path: Path) -> NewsCorpus:
    """Read every post of ``20news-bydate.tar.gz`` (latin-1)."""
    posts = dict(iter_tar_texts(path, _is_post, "latin-1"))
    if not posts:
        raise ValueError(f"{path} holds no 20news-bydate-*/<group>/<id> files")
    names = tuple(sorted(posts))
    split_of = {"20news-bydate-train": "train", "20news-bydate-test": "test"}
    return NewsCorpus(
        names=names,
        groups=np.array([n.split("/")[1] for n in names]),
        splits=np.array([split_of.get(n.split("/")[0], "?") for n in names]),
        texts=tuple(posts[n] for n in names),
    )


def build_20news8(
    paths: dict[str, Path],
    *,
    n_samples: int = 2586,
    politics: str = "talk.politics.misc",
    remove_headers: bool = True,
    min_df: int = 4,
    random_state: int = 0,
) -> Dataset:
    """The 8-group subset (module docstring); labels are the group names."""
    if politics not in ("talk.politics.misc", "talk.politics.guns"):
        raise ValueError(
            f"politics must be talk.politics.misc or talk.politics.guns, got {politics!r}"
        )
    corpus = read_20news(paths[ARCHIVE])
    groups = tuple(politics if g == "talk.politics.misc" else g for g in GROUPS_8)
    rng = np.random.default_rng(random_state)
    chosen = []
    for i, group in enumerate(groups):
        members = np.flatnonzero(corpus.groups == group)  # sorted by member name
        k = n_samples // len(groups) + (i < n_samples % len(groups))
        if k > members.size:
            raise ValueError(f"{group} has {members.size} posts, cannot draw {k}")
        chosen.append(np.sort(rng.choice(members, size=k, replace=False)))
    order = rng.permutation(np.concatenate(chosen))
    texts = [corpus.texts[i] for i in order]
    if remove_headers:
        texts = [strip_newsgroup_header(t) for t in texts]
    vectorizer = CountVectorizer(min_df=min_df, dtype=np.float64)
    X = vectorizer.fit_transform(texts)
    card = {
        **static_card(),
        "notes": (
            f"Groups {', '.join(groups)}; {n_samples} posts drawn from train+test, "
            f"{n_samples // len(groups)} or {n_samples // len(groups) + 1} per group "
            f"(numpy default_rng({random_state})), shuffled. Headers "
            f"{'stripped (everything before the first blank line)' if remove_headers else 'kept'}"
            f"; lowercase words of 2+ word characters; vocabulary: terms in >= {min_df} of "
            f"these posts; raw counts. Stands in for UCD's 'ol-8-1' (no longer available)."
        ),
        "options": {
            "n_samples": n_samples,
            "politics": politics,
            "remove_headers": remove_headers,
            "min_df": min_df,
            "random_state": random_state,
        },
        "members": [corpus.names[i] for i in order],
        "feature_names": vectorizer.get_feature_names_out().astype(str),
    }
    return make_dataset("20news-8", X, corpus.groups[order], card)


def static_card() -> dict:
    """The card fields known without the archive."""
    from olearn.datasets._download import URLS

    return {
        "title": "20 Newsgroups, 8 groups (seed 000 'ol-8-1'-like subset)",
        "source": SOURCE,
        "url": URLS[ARCHIVE],
        "licence": LICENCE,
        "notes": "8 groups (autos, baseball, graphics, mac, med, motorcycles, politics, space) "
        "sampled from the bydate archive; bag-of-words counts.",
        "paper_table": {
            "source": "seed 000 Table 3",
            "n_classes": 8,
            "n_samples": 2586,
            "n_features": 9971,
        },
    }
