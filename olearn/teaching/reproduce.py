"""The Reproduce page: the registered reproductions, each run through its own module
(``olearn.experiments.reproduction``), quick by default."""

from __future__ import annotations

import functools
import importlib.util
import re
import string
from collections.abc import Callable

import pandas as pd

from olearn.experiments.reproduction import REPRODUCTIONS, ReproResult, reproduction
from olearn.teaching import strings


def catalogue() -> pd.DataFrame:
    """id, title, seed, whether its module exists in this build (``available``) and whether
    it runs on embedded data alone, without ``$OLEARN_DATA`` or the internet (``offline``).

    >>> cat = catalogue().set_index("id")
    >>> bool(cat.loc["matsushima-table4", "available"]), cat["offline"].sum() >= 1
    (True, np.True_)
    """
    from olearn.datasets import names

    embedded = {*names("toy"), *names("embedded")}
    rows = []
    for id_, module in REPRODUCTIONS.items():
        present = importlib.util.find_spec(module) is not None
        title = seed = ""
        offline = False
        if present:
            mod = reproduction(id_)
            title, seed = getattr(mod, "TITLE", ""), getattr(mod, "SEED", "")
            datasets = tuple(getattr(mod, "DATASETS", ()))
            offline = bool(datasets) and set(datasets) <= embedded
        rows.append(
            {"id": id_, "title": title, "seed": seed, "available": present, "offline": offline}
        )
    return pd.DataFrame(rows)


def first_shown(cat: pd.DataFrame) -> str:
    """The reproduction the page opens on: the first that runs offline (a lecture hall's),
    else the first.

    >>> first_shown(catalogue())
    'matsushima-digits'
    """
    offline = [i for i, ok in zip(cat["id"], cat["offline"]) if ok]
    return (offline or list(cat["id"]))[0]


def run(id_: str, quick: bool = True, progress: Callable | None = None) -> ReproResult:
    """Run reproduction ``id_`` (``progress(done, total, message)``); a clear error when the
    module is not in this build or its data is missing."""
    if id_ not in REPRODUCTIONS:
        raise ValueError(f"unknown reproduction {id_!r}; known: {sorted(REPRODUCTIONS)}")
    if importlib.util.find_spec(REPRODUCTIONS[id_]) is None:
        raise ValueError(f"the reproduction {id_!r} is not implemented in this build yet")
    return reproduction(id_).run(quick=bool(quick), progress=progress)


# Long runs start only on a click: a link may name them but never starts them.
LINK_STARTS = ("quick",)


def start_mode(clicked: str | None, previous: str | None, linked: str | None) -> str | None:
    """Which run to show: a click wins, then the run already shown, then a link's quick mode
    (a link's ``mode=full`` is only offered: the full run starts on a click).

    >>> start_mode(None, None, "full") is None, start_mode(None, None, "quick")
    (True, 'quick')
    >>> start_mode("full", None, "quick"), start_mode(None, "full", None)
    ('full', 'full')
    """
    if clicked:
        return clicked
    if previous:
        return previous
    return linked if linked in LINK_STARTS else None


def extra_tables(result: ReproResult) -> list[tuple[str, pd.DataFrame]]:
    """The result's further tables to show, claims first (``ReproResult.tables``)."""
    order = sorted(result.tables, key=lambda name: (name != "claims", name))
    return [(name, result.tables[name]) for name in order if len(result.tables[name])]


def numeric_pairs(result: ReproResult) -> pd.DataFrame:
    """The rows of the result's table with both a paper value and ours, as numbers (the last
    epochs only, when the table lists several)."""
    tab = result.table.copy()
    if "epochs" in tab:
        tab = tab[tab["epochs"] == tab["epochs"].max()]
    for col in ("paper", "ours"):
        tab[col] = pd.to_numeric(tab[col], errors="coerce")
    return tab.dropna(subset=["paper", "ours"])


# --- the tables in the page's language -------------------------------------------------------
#
# The English of a ``rep.col.*`` key is the column's name, that of a ``rep.val.*`` key a cell
# value as a reproduction writes it, that of a ``rep.pat.*`` key a cell pattern whose {fields}
# match any text (olearn.teaching.strings.reproduce).  Names of algorithms and datasets, and
# numbers, match nothing and stay as they are.


@functools.cache
def _values() -> dict[str, str]:
    """English cell value -> its ``rep.val.*`` key."""
    return {en: key for key, (en, _) in strings.STRINGS.items() if key.startswith("rep.val.")}


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern, str], ...]:
    """(regex, key) of every ``rep.pat.*`` key, in the order written: each literal part of
    the English matched exactly, each {field} as a named group of any text."""
    out = []
    for key, (en, _) in strings.STRINGS.items():
        if key.startswith("rep.pat."):
            parts = string.Formatter().parse(en)
            regex = "".join(
                re.escape(lit) + (f"(?P<{f}>.+?)" if f else "") for lit, f, _, _ in parts
            )
            out.append((re.compile(regex), key))
    return tuple(out)


def cell(value, lang: str):
    """One cell in ``lang``: a known value translated whole, else the first pattern that
    matches all of it, its fields translated in turn; anything else (names, numbers, other
    types) as it is.

    >>> cell("same direction, not significant", "ja")
    '同じ向き (有意でない)'
    >>> cell("diagnostic: Perc within 1 point of PA (mistakes only)", "ja")
    '診断: Perc と PA (mistakes only) の誤り率の差が 1 ポイント以内'
    >>> cell("SPA-II below Maxent and SVM", "ja"), cell("7.12 vs 7.19", "ja")
    ('SPA-II の誤り率が Maxent と SVM より低い', '7.12 対 7.19')
    >>> cell("SPA-II", "ja"), cell(4.46, "ja"), cell("does not reproduce", "en")
    ('SPA-II', 4.46, 'does not reproduce')
    """
    if lang == "en" or not isinstance(value, str):
        return value
    key = _values().get(value)
    if key is not None:
        return strings.t(key, lang)
    for regex, key in _patterns():
        match = regex.fullmatch(value)
        if match:
            fields = {k: cell(v, lang) for k, v in match.groupdict().items()}
            return strings.t(key, lang, **fields)
    return value


def _is_text(column: pd.Series) -> bool:
    return column.dtype == object or pd.api.types.is_string_dtype(column.dtype)


def localized_cells(frame: pd.DataFrame, lang: str) -> pd.DataFrame:
    """``frame`` with its text cells in ``lang`` (:func:`cell`); the columns, the numbers and
    the rows as they are.  English: ``frame`` itself."""
    if lang == "en":
        return frame
    out = frame.copy()
    for name in out.columns:
        if _is_text(out[name]):
            seen = {v: cell(v, lang) for v in {v for v in out[name] if isinstance(v, str)}}
            out[name] = [seen.get(v, v) if isinstance(v, str) else v for v in out[name]]
    return out


def column_name(column: str, lang: str) -> str:
    """A result column's header in ``lang`` (``rep.col.<column>``; its own name when the
    table has no entry for it)."""
    key = f"rep.col.{column}"
    return strings.t(key, lang) if key in strings.STRINGS else column


def localized(frame: pd.DataFrame, lang: str) -> pd.DataFrame:
    """A result table as the page shows it in ``lang``: the headers through ``rep.col.*``,
    the text cells through :func:`cell`, every number untouched.  English: ``frame`` itself
    (the CSV always keeps the original columns and values).

    >>> frame = pd.DataFrame({"dataset": ["usps"], "claim": ["SPA below PA"], "ours": [1.5],
    ...                       "verdict": ["reproduces"]})
    >>> ja = localized(frame, "ja")
    >>> ja.columns.tolist()
    ['データセット', '主張', '本実装', '判定']
    >>> ja.iloc[0, [0, 1, 3]].tolist(), ja.iloc[0, 2]
    (['usps', 'SPA の誤り率が PA より低い', '再現する'], np.float64(1.5))
    >>> localized(frame, "en") is frame
    True
    """
    if lang == "en":
        return frame
    return localized_cells(frame, lang).rename(columns=lambda c: column_name(str(c), lang))
