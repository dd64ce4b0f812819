"""Text helpers shared by the corpus loaders: tokenisers and seeded stratified splits.

- English: the loaders call scikit-learn's ``CountVectorizer``/``HashingVectorizer`` directly
  (lowercase, token pattern ``(?u)\\b\\w\\w+\\b``, optional word bigrams joined by a space);
  :class:`StemmedWords` adds stop-word removal and Porter stemming (``snowballstemmer``).
- Japanese: no dictionary.  NFKC normalisation (full-width ASCII to half-width), lowercase,
  whitespace removed, then character n-grams within each line (never across lines).
"""

from __future__ import annotations

import operator
import re
import unicodedata

import numpy as np

WORD = re.compile(r"(?u)\b\w\w+\b")  # scikit-learn's default token pattern


class StemmedWords:
    """Analyzer: lowercase words of 2+ word characters, stop words dropped, Porter-stemmed.

    Stop words are scikit-learn's ``ENGLISH_STOP_WORDS`` (318 words), removed *before*
    stemming; stems come from the Snowball project's ``porter`` algorithm (M. F. Porter,
    1980), which is what "stemmed" meant for the UCD document collections.  Each distinct word
    is stemmed once (memoised), so a corpus costs one call per vocabulary word.

    Examples
    --------
    >>> StemmedWords()("The riders were Running and generalizations")
    ['rider', 'run', 'gener']
    """

    def __init__(self, algorithm: str = "porter"):
        import snowballstemmer
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

        self.algorithm = algorithm
        self._stop = ENGLISH_STOP_WORDS
        self._stemmer = snowballstemmer.stemmer(algorithm)
        self._memo: dict[str, str] = {}

    def __call__(self, text: str) -> list[str]:
        memo, stem, stop = self._memo, self._stemmer.stemWord, self._stop
        out = []
        for word in WORD.findall(text.lower()):
            if word in stop:
                continue
            stemmed = memo.get(word)
            if stemmed is None:
                stemmed = memo[word] = stem(word)
            out.append(stemmed)
        return out


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
            if n == 1:
                grams.extend(line)
            elif n == 2:
                grams.extend(map(operator.add, line, line[1:]))  # same as line[i:i+2], faster
            else:
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

    Each class gets its proportional share of the ``n_train + n_test`` documents drawn
    (:func:`largest_remainder`, in sorted label order), and of those its proportional share
    of the test part; so no class is ever asked for more documents than it has, even when
    everything is drawn.  Within a class the documents are taken from one random
    permutation, train first.  Both index arrays are returned in random order.

    Examples
    --------
    >>> y = np.array([0] * 6 + [1] * 4)
    >>> train, test = stratified_split(y, 5, 5, np.random.default_rng(0))
    >>> np.bincount(y[train]).tolist(), np.bincount(y[test]).tolist()
    ([3, 2], [3, 2])
    """
    labels, counts = np.unique(y, return_counts=True)
    if n_train < 0 or n_test < 0 or n_train + n_test > y.size:
        raise ValueError(f"cannot draw {n_train} + {n_test} from {y.size} documents")
    total_k = largest_remainder(n_train + n_test, counts)  # <= counts: quota <= count
    test_k = largest_remainder(n_test, total_k)  # <= total_k, so train_k >= 0
    train_k = total_k - test_k
    train, test = [], []
    for label, a, b in zip(labels, train_k, test_k):
        members = rng.permutation(np.flatnonzero(y == label))
        train.append(members[:a])
        test.append(members[a : a + b])
    return rng.permutation(np.concatenate(train)), rng.permutation(np.concatenate(test))
