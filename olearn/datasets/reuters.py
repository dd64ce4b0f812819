"""Reuters-21578 (Distribution 1.0) and the seed-000-like 20-topic set ``reuters-20``.

Source: ``reuters21578.tar.gz`` (UCI KDD archive), members ``reut2-000.sgm`` ...
``reut2-021.sgm``: 21,578 ``<REUTERS>`` documents in SGML, read as latin-1 (one 0xFC byte in
reut2-017 breaks UTF-8).  The SGML is regular enough for a small regular-expression reader:
each document's ``<TOPICS>`` ``<D>`` entries, its ``<TITLE>`` and its ``<BODY>`` (``TYPE="BRIEF"``
documents have a title only; ``TYPE="UNPROC"`` ones an unmarked text, taken whole); the
character entities ``&lt; &gt; &amp; &#N;`` are decoded.

``reuters-20`` stands in for seed 000's "Reuters" (Table 3: 20 classes acq ... trade, 7,800
documents, 34,488 features; the paper only says the collection was "shaped into a 20-class
problem").  Rule (all defaults are options):

1. documents whose ``<TOPICS>`` hold **exactly one topic overall** and that topic is one of the
   20 (``single="overall"``).  The alternative ``single="among20"`` keeps documents with exactly
   one of the 20 topics whatever other topics they carry (more documents, further from 7,800);
2. every split of the collection (``LEWISSPLIT`` TRAIN, TEST and NOT-USED) is pooled: the seed
   cross-validates over one pool;
3. text = title + body, with the trailing ``Reuter`` signature removed; documents without a
   body (``TYPE="BRIEF"`` title-only items, ``require_body=True``) are dropped, and so are
   exact duplicate texts after the first (``dedupe=True``: copies would sit on both sides of
   a CV fold);
4. bag of words: scikit-learn's ``CountVectorizer`` with token pattern ``(?u)\\b\\w\\w+\\b``,
   **case kept** (``lowercase=False``: case-folding gives 27,472 features, far below the seed's
   34,488), every term of these documents (``min_df=1``); raw counts, CSR float64.

Sizes with the defaults: 8,066 documents x 36,407 features (seed: 7,800 x 34,488).  For the
record (case kept): without dropping duplicates 8,135; keeping briefs and duplicates 8,874
x 36,602; ``single="among20"`` 8,905 x 38,873; case-folded vocabulary 27,469 features.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from olearn.citations import cite
from olearn.datasets._base import Dataset, make_dataset
from olearn.datasets._corpus import iter_tar_texts, memo_by_file

ARCHIVE = "reuters21578.tar.gz"
TOPICS_20 = (
    "acq",
    "alum",
    "cocoa",
    "coffee",
    "copper",
    "cpi",
    "crude",
    "earn",
    "gnp",
    "gold",
    "grain",
    "interest",
    "jobs",
    "money-fx",
    "money-supply",
    "reserves",
    "rubber",
    "ship",
    "sugar",
    "trade",
)  # seed 000 Table 3, in its order (alphabetical)
SOURCE = (
    "D. D. Lewis, Reuters-21578 text categorization test collection, Distribution 1.0 "
    "(Reuters Ltd. and Carnegie Group, Inc.), UCI KDD archive"
)
LICENCE = (
    "Copyright Reuters Ltd.; Reuters Ltd. and Carnegie Group, Inc. allow free distribution for "
    "research purposes only. Cite as 'Reuters-21578, Distribution 1.0'."
)
PAPER_TABLE = {
    "source": f"{cite('000')}, Table 3",
    "n_classes": 20,
    "n_samples": 7800,
    "n_features": 34488,
}

_DOC = re.compile(r"<REUTERS\b([^>]*)>(.*?)</REUTERS>", re.S)
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_TOPICS = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.S)
_D = re.compile(r"<D>(.*?)</D>", re.S)
_TEXT = re.compile(r"<TEXT\b[^>]*>(.*?)</TEXT>", re.S)
_TITLE = re.compile(r"<TITLE>(.*?)</TITLE>", re.S)
_BODY = re.compile(r"<BODY>(.*?)</BODY>", re.S)
_TAG = re.compile(r"<[^>]+>")
_SIGNATURE = re.compile(r"\s*reuter\s*(&#3;)?\s*$", re.I)


@dataclass(frozen=True)
class ReutersCorpus:
    """All 21,578 documents in NEWID order: ``newid[i]``, ``lewissplit[i]``, ``topics[i]``
    (tuple of topic strings, possibly empty), ``texts[i]`` (title + body) and
    ``has_body[i]`` (False for title-only ``TYPE="BRIEF"`` items)."""

    newid: np.ndarray
    lewissplit: np.ndarray
    topics: tuple[tuple[str, ...], ...]
    texts: tuple[str, ...]
    has_body: np.ndarray


def _clean(fragment: str) -> str:
    """Drop tags and control-character entities, decode the rest."""
    fragment = re.sub(r"&#\d+;", " ", fragment)  # &#2; &#3; ... are control characters
    return html.unescape(_TAG.sub(" ", fragment))


def parse_sgml(text: str) -> list[tuple[int, str, tuple[str, ...], str, bool]]:
    """``(newid, lewissplit, topics, title + body, has body)`` for each ``<REUTERS>`` element.

    Examples
    --------
    >>> doc = ('<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" NEWID="7"><TOPICS><D>gold</D>'
    ...        '</TOPICS><TEXT><TITLE>GOLD &amp; SILVER</TITLE><BODY>Up.\\n Reuter\\n&#3;'
    ...        '</BODY></TEXT></REUTERS>')
    >>> parse_sgml(doc)
    [(7, 'TRAIN', ('gold',), 'GOLD & SILVER\\nUp.', True)]
    """
    out = []
    for attrs, inner in _DOC.findall(text):
        attr = dict(_ATTR.findall(attrs))
        topics_block = _TOPICS.search(inner)
        topics = tuple(_D.findall(topics_block.group(1))) if topics_block else ()
        text_block = _TEXT.search(inner)
        body_text = text_block.group(1) if text_block else ""
        title = _TITLE.search(body_text)
        body = _BODY.search(body_text)
        if title is None and body is None:  # TYPE="UNPROC": unmarked text
            parts = [body_text]
        else:
            parts = [title.group(1) if title else "", body.group(1) if body else ""]
        parts = [_clean(p).strip() for p in parts]
        parts[-1] = _SIGNATURE.sub("", parts[-1])
        out.append(
            (
                int(attr["NEWID"]),
                attr.get("LEWISSPLIT", ""),
                topics,
                "\n".join(p for p in parts if p),
                bool(parts[-1]),
            )
        )
    return out


def _is_sgml(name: str) -> bool:
    base = name.rsplit("/", 1)[-1]
    return base.startswith("reut2-") and base.endswith(".sgm")


@memo_by_file
def read_reuters(path: Path) -> ReutersCorpus:
    """Read every document of ``reuters21578.tar.gz`` (latin-1), sorted by NEWID."""
    files = iter_tar_texts(path, _is_sgml, "latin-1")
    docs = [doc for _, text in files for doc in parse_sgml(text)]
    if not docs:
        raise ValueError(f"{path} holds no reut2-*.sgm files")
    docs.sort(key=lambda d: d[0])
    return ReutersCorpus(
        newid=np.array([d[0] for d in docs], dtype=np.int64),
        lewissplit=np.array([d[1] for d in docs]),
        topics=tuple(d[2] for d in docs),
        texts=tuple(d[3] for d in docs),
        has_body=np.array([d[4] for d in docs]),
    )


def select_single_topic(
    corpus: ReutersCorpus,
    topics: tuple[str, ...] = TOPICS_20,
    single: str = "overall",
    *,
    require_body: bool = True,
    dedupe: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the documents kept (NEWID order) and their one label among ``topics``.

    ``single="overall"``: exactly one topic in ``<TOPICS>``, and it is in ``topics``;
    ``single="among20"``: exactly one of ``topics`` (other topics allowed).  Documents with
    an empty text are always dropped; ``require_body`` drops title-only documents
    (``TYPE="BRIEF"``), ``dedupe`` every exact repeat of an earlier text.
    """
    if single not in ("overall", "among20"):
        raise ValueError(f"single must be 'overall' or 'among20', got {single!r}")
    wanted = set(topics)
    keep, labels, seen = [], [], set()
    for i, (doc_topics, text, body) in enumerate(zip(corpus.topics, corpus.texts, corpus.has_body)):
        hits = [t for t in doc_topics if t in wanted]
        if len(hits) != 1 or (single == "overall" and len(doc_topics) != 1):
            continue
        if not text.strip() or (require_body and not body):
            continue
        if dedupe:
            if text in seen:
                continue
            seen.add(text)
        keep.append(i)
        labels.append(hits[0])
    return np.array(keep, dtype=np.int64), np.array(labels)


def build_reuters20(
    paths: dict[str, Path],
    *,
    single: str = "overall",
    require_body: bool = True,
    dedupe: bool = True,
    lowercase: bool = False,
    min_df: int = 1,
) -> Dataset:
    """The 20-topic single-label set (module docstring); labels are the topic names."""
    from sklearn.feature_extraction.text import (
        CountVectorizer,
    )

    corpus = read_reuters(paths[ARCHIVE])
    keep, labels = select_single_topic(
        corpus, TOPICS_20, single, require_body=require_body, dedupe=dedupe
    )
    vectorizer = CountVectorizer(min_df=min_df, lowercase=lowercase, dtype=np.float64)
    X = vectorizer.fit_transform([corpus.texts[i] for i in keep])
    rule = (
        "exactly one TOPICS label overall, and it is one of the 20"
        if single == "overall"
        else "exactly one of the 20 topics among its TOPICS labels (others allowed)"
    )
    card = {
        **static_card(),
        "notes": (
            f"Documents (all LEWISSPLIT parts pooled, NEWID order) with {rule}"
            f"{'; title-only briefs dropped' if require_body else ''}"
            f"{'; exact duplicate texts dropped' if dedupe else ''}. Text = TITLE + BODY "
            f"(signature 'Reuter' removed), read as latin-1; words of 2+ word characters, "
            f"{'lowercased' if lowercase else 'case kept'}; vocabulary: terms in >= {min_df} of "
            f"these documents; raw counts. {cite('000')} says only that it 'shaped' "
            "Reuters-21578 "
            "into 20 classes, so this rule is ours, chosen to land near its sizes."
        ),
        "options": {
            "single": single,
            "require_body": require_body,
            "dedupe": dedupe,
            "lowercase": lowercase,
            "min_df": min_df,
        },
        "members": [f"NEWID={corpus.newid[i]}" for i in keep],
        "feature_names": vectorizer.get_feature_names_out().astype(str),
    }
    return make_dataset("reuters-20", X, labels, card)


def static_card() -> dict:
    """The card fields known without the archive."""
    from olearn.datasets._urls import URLS  # the same dict, without the network stack

    return {
        "title": f"Reuters-21578, 20 single-topic classes ({cite('000')}, Table 3)",
        "source": SOURCE,
        "url": URLS[ARCHIVE],
        "licence": LICENCE,
        "notes": "Single-topic documents of the 20 topics acq ... trade; bag-of-words counts.",
        "paper_table": PAPER_TABLE,
    }
