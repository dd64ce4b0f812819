"""The livedoor news corpus (RONDHUIT, ``ldcc-20140209.tar.gz``): Japanese, 9 categories.

Members ``text/<category>/<category>-<article id>.txt`` (UTF-8): line 1 the article URL,
line 2 its ISO date, line 3 the title, then the body.  ``LICENSE.txt`` files are skipped.
The reader keeps title and body only (URL and date would identify the article, not its
topic) and, with ``strip_brackets=True`` (the default of every olearn loader), drops the
``【...】`` spans of the title: there they name the column or series (``【Sports Watch】`` on
487 of 900 sports titles), which would give the category away.  Footers inside the body
("関連リンク", product boxes) are kept as they are (the licence is CC BY-ND: the corpus is
used, never redistributed modified).

Japanese is tokenised without a dictionary: character n-grams per line
(:func:`olearn.datasets._text.japanese_char_ngrams`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from olearn.datasets._corpus import iter_tar_texts, memo_by_file

ARCHIVE = "ldcc-20140209.tar.gz"
CATEGORIES = (
    "dokujo-tsushin",
    "it-life-hack",
    "kaden-channel",
    "livedoor-homme",
    "movie-enter",
    "peachy",
    "smax",
    "sports-watch",
    "topic-news",
)
SOURCE = (
    "livedoor news corpus, RONDHUIT Co., Ltd. (articles of NHN Japan's livedoor news, "
    "collected September 2012)"
)
LICENCE = (
    "Creative Commons Attribution-NoDerivs 2.1 Japan (each category's LICENSE.txt names the "
    "credit); 'livedoor' is a registered trademark of NHN Japan"
)
_BRACKETS = re.compile(r"【[^】]*】")


@dataclass(frozen=True)
class LivedoorCorpus:
    """All 7,367 articles sorted by member name: ``names[i]``, ``categories[i]``,
    ``titles[i]`` and ``bodies[i]``."""

    names: tuple[str, ...]
    categories: np.ndarray
    titles: tuple[str, ...]
    bodies: tuple[str, ...]

    def texts(self, strip_brackets: bool = True) -> list[str]:
        """Title + body of every article (URL and date lines skipped)."""
        titles = [_BRACKETS.sub(" ", t) for t in self.titles] if strip_brackets else self.titles
        return [f"{t}\n{b}" for t, b in zip(titles, self.bodies)]


def split_article(text: str) -> tuple[str, str]:
    """``(title, body)`` of one article: line 1 (URL) and line 2 (date) are skipped.

    Examples
    --------
    >>> split_article("http://news.livedoor.com/article/detail/1/\\n2012-09-01T00:00:00+0900\\n"
    ...               "【Sports Watch】見出し\\n本文。\\n")
    ('【Sports Watch】見出し', '本文。')
    """
    lines = text.split("\n")
    return (lines[2] if len(lines) > 2 else ""), "\n".join(lines[3:]).strip()


def _is_article(name: str) -> bool:
    parts = name.split("/")
    return (
        len(parts) == 3
        and parts[1] in CATEGORIES
        and parts[2].startswith(parts[1] + "-")
        and parts[2].endswith(".txt")
    )


@memo_by_file
def read_livedoor(path: Path) -> LivedoorCorpus:
    """Read every article of ``ldcc-20140209.tar.gz`` (UTF-8)."""
    articles = dict(iter_tar_texts(path, _is_article, "utf-8"))
    if not articles:
        raise ValueError(f"{path} holds no text/<category>/<category>-<id>.txt articles")
    names = tuple(sorted(articles))
    split = [split_article(articles[n]) for n in names]
    return LivedoorCorpus(
        names=names,
        categories=np.array([n.split("/")[1] for n in names]),
        titles=tuple(s[0] for s in split),
        bodies=tuple(s[1] for s in split),
    )
