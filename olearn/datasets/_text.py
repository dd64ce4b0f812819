"""Text helpers shared by the corpus loaders: tokenisers and seeded stratified splits.

- English: scikit-learn's analyzer (lowercase, token pattern ``(?u)\\b\\w\\w+\\b``, optional
  word bigrams joined by a space, exactly as ``CountVectorizer``/``HashingVectorizer``).
- Japanese: no dictionary.  NFKC normalisation (full-width ASCII to half-width), lowercase,
  whitespace removed, then character n-grams within each line (never across lines).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer


def english_analyzer(ngram_range: tuple[int, int] = (1, 1), lowercase: bool = True) -> Callable:
    """scikit-learn's word analyzer: ``text -> list of tokens (and n-grams)``."""
    return CountVectorizer(ngram_range=ngram_range, lowercase=lowercase).build_analyzer()


def strip_newsgroup_header(text: str) -> str:
    """Drop a Usenet post's header block: everything before the first blank line.

    The same rule as scikit-learn's ``fetch_20newsgroups(remove=('headers',))``.
    """
    return text.partition("\n\n")[2]


def japanese_char_ngrams(text: str, ngram_range: tuple[int, int] = (1, 2)) -> list[str]:
    """Character n-grams of Japanese text, per line, after NFKC and whitespace removal.

    Examples
    --------
    >>> japanese_char_ngrams("ＡＢ 野球\\n東京")
    ['a', 'b', '野', '球', 'ab', 'b野', '野球', '東', '京', '東京']
    """
    lo, hi = ngram_range
    grams: list[str] = []
    for line in unicodedata.normalize("NFKC", text).lower().splitlines():
        line = "".join(line.split())
        for n in range(lo, hi + 1):
            grams.extend(line[i : i + n] for i in range(len(line) - n + 1))
    return grams


def largest_remainder(total: int, sizes: np.ndarray) -> np.ndarray:
    """Split ``total`` into integers proportional to ``sizes`` (Hamilton's method).

    Ties in the fractional parts go to the earlier entry.

    Examples
    --------
    >>> largest_remainder(10, np.array([5, 3, 2])).tolist()
    [5, 3, 2]
    >>> largest_remainder(7, np.array([1, 1, 1])).tolist()
    [3, 2, 2]
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    quota = total * sizes / sizes.sum()
    out = np.floor(quota).astype(np.int64)
    order = np.argsort(-(quota - out), kind="stable")
    out[order[: total - out.sum()]] += 1
    return out


def stratified_split(
    y: np.ndarray, n_train: int, n_test: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Seeded stratified draw of ``n_train`` + ``n_test`` disjoint indices.

    Each class gets its proportional share of both parts (:func:`largest_remainder`, in
    sorted label order); within a class the documents are taken from one random
    permutation, train first.  Both index arrays are returned in random order.
    """
    labels, counts = np.unique(y, return_counts=True)
    if n_train + n_test > y.size:
        raise ValueError(f"cannot draw {n_train} + {n_test} from {y.size} documents")
    train_k = largest_remainder(n_train, counts)
    test_k = largest_remainder(n_test, counts)
    train, test = [], []
    for label, a, b in zip(labels, train_k, test_k):
        members = rng.permutation(np.flatnonzero(y == label))
        if a + b > members.size:
            raise ValueError(f"class {label!r} has {members.size} documents, needs {a + b}")
        train.append(members[:a])
        test.append(members[a : a + b])
    return rng.permutation(np.concatenate(train)), rng.permutation(np.concatenate(test))
