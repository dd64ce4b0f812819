"""The UI strings, English and Japanese (the seeds' language), one module per page or area.

Every visible sentence of the app comes from :data:`STRINGS` through :func:`t`; a test checks
that each entry has both languages with the same ``{placeholders}``.  Each module under this
package holds one area's ``STRINGS`` (key -> (English, Japanese)); they are merged here, and a
key defined twice is an error.

>>> t("lang.name", "ja")
'日本語'
>>> t("spa.sub.scores.title", "ja")
'スコア'
"""

from __future__ import annotations

import importlib

LANGS = ("en", "ja")

# the areas, in the order their keys were written (one module each)
AREAS = (
    "frame",
    "spa",
    "playground",
    "home",
    "compare",
    "reproduce",
    "cw",
    "cs_svm",
    "pcvm",
    "sgd",
    "lesson",
    "classroom",
)


def _merge() -> dict[str, tuple[str, str]]:
    merged: dict[str, tuple[str, str]] = {}
    for area in AREAS:
        table = importlib.import_module(f"{__name__}.{area}").STRINGS
        clash = merged.keys() & table.keys()
        if clash:
            raise RuntimeError(f"UI string keys defined twice ({area}): {sorted(clash)}")
        merged.update(table)
    return merged


# key -> (English, Japanese)
STRINGS: dict[str, tuple[str, str]] = _merge()


def t(key: str, lang: str = "en", **fmt) -> str:
    """The string ``key`` in ``lang`` ("en" or "ja"), formatted with ``fmt``.

    Unknown languages fall back to English; an unknown key raises ``KeyError`` (a typo must
    not reach the screen silently).  A source's token ``[[000]]`` becomes its citation
    (authors and year, :func:`olearn.citations.cite`).
    """
    en, ja = STRINGS[key]
    text = ja if lang == "ja" else en
    if "[[" in text:  # a source named by its token: its citation (olearn.citations)
        from olearn.citations import expand

        text = expand(text, lang)
    return text.format(**fmt) if fmt else text


def num(v: float, digits: int = 4) -> str:
    """A number as a lecturer would write it: ``num(0.3333333) == '0.3333'``, ``num(2.0) == '2'``.

    >>> num(0.3333333), num(2.0), num(-1e-17)
    ('0.3333', '2', '0')
    """
    v = float(v)
    if abs(v) < 1e-12:
        v = 0.0
    return f"{v:.{digits}g}"
