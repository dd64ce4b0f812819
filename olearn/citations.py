"""The five sources olearn was built from, cited by their authors and year, never by the
internal numbers ("000".."004") the project files them under.

A UI string names a source by a token, ``[[000]]``; :func:`olearn.teaching.strings.t`
replaces it with :func:`cite` in the page's language, so a citation is written once, here;
the reproductions' printed summaries and the dataset cards (English) call :func:`cite`.  A
plain module at the package's top, like the registry: every layer may read it.
:func:`references` is the full list the sidebar's *References* shows.  Where a source's copy
states no year, none is invented: "n.d." (as ``CITATION.cff`` and the README's *Sources*).

>>> cite("000", "en"), cite("000", "ja"), cite("004", "en")
('Matsushima et al. 2010', 'Matsushima ら 2010', 'Ono et al. n.d.')
>>> expand("SPA ([[000]], Table 2)", "en")
'SPA (Matsushima et al. 2010, Table 2)'
"""

from __future__ import annotations

import re
from typing import NamedTuple


class Source(NamedTuple):
    short: tuple[str, str]  # the citation in a sentence: (English, Japanese)
    full: str  # the reference list's entry (titles as published, Japanese ones too)


SOURCES: dict[str, Source] = {
    "000": Source(
        ("Matsushima et al. 2010", "Matsushima ら 2010"),
        "S. Matsushima, N. Shimizu, K. Yoshida, T. Ninomiya, H. Nakagawa. Exact "
        "Passive-Aggressive Algorithm for Multiclass Classification Using Support Class. SDM "
        "2010 (Japanese version: サポートクラスによる Passive-Aggressive アルゴリズムの"
        "多クラス化).",
    ),
    "001": Source(
        ("@kazoo04 2012", "@kazoo04 2012"),
        "@kazoo04. オンライン線形分類器とSCW (online linear classifiers and SCW). Blog "
        "Sideswipe, Machine Learning Advent Calendar 2012, 20 December 2012; presenting J. "
        "Wang, P. Zhao, S. C. H. Hoi, Exact Soft Confidence-Weighted Learning, ICML 2012.",
    ),
    "002": Source(
        ("Ikegami et al. n.d.", "Ikegami ら (年不明)"),
        "H. Ikegami, T. Obata, M. Kobayashi, Y. Sakashita. 雑音の分散を考慮した確率分類"
        "ベクターマシンによる自動分類法 (automatic classification by a probabilistic "
        "classification vector machine with a noise variance). No year given; extends H. "
        "Chen, P. Tiňo, X. Yao, Probabilistic Classification Vector Machines, IEEE TNN 20(6), "
        "2009.",
    ),
    "003": Source(
        ("a note on Crammer & Singer 2001", "Crammer & Singer 2001 の解説ノート"),
        "A web note (no author named) deriving K. Crammer, Y. Singer, On the Algorithmic "
        "Implementation of Multiclass Kernel-based Vector Machines, JMLR 2:265-292, 2001.",
    ),
    "004": Source(
        ("Ono et al. n.d.", "Ono ら (年不明)"),
        "M. Ono, D. McAllester, Y. Sasaki. 大規模文書分類のための SGD SVM の高速化 "
        "(Acceleration of SGD SVMs for Large-Scale Text Classification). No year given.",
    ),
}
TOKEN = re.compile(r"\[\[(\d{3})\]\]")
FILED = re.compile(r"\b[Ss]eed (00[0-4])\b")  # how olearn once named a source in its texts


def cite(source: str, lang: str = "en") -> str:
    """Source ``source``'s citation in a sentence, in ``lang``."""
    en, ja = SOURCES[source].short
    return ja if lang == "ja" else en


def expand(text: str, lang: str = "en") -> str:
    """``text`` with every ``[[NNN]]`` token replaced by :func:`cite`."""
    return TOKEN.sub(lambda m: cite(m.group(1), lang), text) if "[[" in text else text


def references() -> list[str]:
    """The reference list: each source's citation and its full entry."""
    return [f"**{cite(key)}**: {source.full}" for key, source in SOURCES.items()]


def cited(value):
    """``value`` (text, or a card's dict of them) with every "seed NNN" of an older olearn
    (a dataset card cached before the citations) written as its citation.

    >>> cited({"source": "seed 000 Table 3", "n": 3})
    {'source': 'Matsushima et al. 2010 Table 3', 'n': 3}
    """
    if isinstance(value, str):
        return FILED.sub(lambda m: cite(m.group(1)), value)
    if isinstance(value, dict):
        return {k: cited(v) for k, v in value.items()}
    return value
