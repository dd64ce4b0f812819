"""Every visible word of the app in Japanese: each page of ``olearn.app.frame.PAGES`` is
rendered headless with ``?lang=ja`` and every text it shows is collected (markdown, captions,
headers, alerts, widget labels and option labels, tab and expander labels, page links,
dataframe headers, plotly titles / axis titles / annotations / legend names / bar texts).

A text passes when, after removing

- every string the translation table produced for ``ja`` during the run (``t()`` is
  instrumented: its table returns Japanese strings that record what they were formatted
  into),
- the registry's algorithm and dataset names,
- numbers, symbols and one-letter (formula) names,

no English word is left except an explicit allow-list of proper nouns and notations.  Any
other word bypassed the translation table.  A second test checks that every key has both
languages (non-empty, same placeholders) and that a Japanese entry identical to the English
one holds no English word.
"""

from __future__ import annotations

import json
import re
import string

import pandas as pd
import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

import olearn.teaching.strings as strings_mod  # noqa: E402
from olearn import datasets, registry  # noqa: E402
from olearn.app.frame import PAGES  # noqa: E402
from olearn.citations import SOURCES, cite  # noqa: E402
from tests.app_renders import render  # noqa: E402

# Proper nouns, library and notation names that stay as they are in Japanese text.
ALLOWED = set(
    """
    Matsushima Shimizu Yoshida Ninomiya Nakagawa Crammer Singer Dredze Pereira Koby Wang
    Zhao Hoi Chen Tipping Ono Shalev Shwartz Pegasos et al SDM ICML NIPS JMLR KDD quadprog
    scikit learn sklearn LIBLINEAR LIBSVM liblinear numba River VW Vowpal Wabbit Plotly
    plotly Streamlit PNG SVG HTML CSV URL JSON CPU GPU MB GB KB ms USPS Reuters Newsgroups MNIST
    digits livedoor ldcc news dokujo sports movie topic it acq earn space med autos
    motorcycles baseball graphics mac motor politics UCI toy blobs separable xor moons drift
    sgd balanced rare pair PA SPA CW AROW SCW SVM PCVM SGD EM QP KKT Perc Maxent RVM PAC II
    III IV MAP log exp max min argmax sign diag tr det th hard cap erf erfc sqrt nnz tsushin
    life hack watch enter sci rec gold English Language Pr PageDown PageUp
    """.split()
)
# table columns quoted verbatim (citations, licences): their cells are not translated
VERBATIM_COLUMNS = {"home.col.source", "home.col.licence"}


def _names() -> set[str]:
    names = {spec.name for spec in registry.ALGORITHMS} | {spec.key for spec in registry.ALGORITHMS}
    names |= set(datasets.names())
    # the sources' citations and the reference list: bibliographic text, quoted as published
    names |= {source.full for source in SOURCES.values()}
    names |= {cite(key, lang) for key in SOURCES for lang in ("en", "ja")}
    return names


# --- what a page shows ----------------------------------------------------------------------


def _plotly_texts(spec: dict) -> list[str]:
    out: list[str] = []
    layout = spec.get("layout", {})

    def title_of(obj) -> None:
        title = obj.get("title") if isinstance(obj, dict) else None
        if isinstance(title, dict):
            title = title.get("text")
        if isinstance(title, str):
            out.append(title)

    title_of(layout)
    for name, value in layout.items():
        if re.fullmatch(r"[xy]axis\d*|coloraxis|legend", name) and isinstance(value, dict):
            title_of(value)
            if isinstance(value.get("ticktext"), list):
                out += [str(v) for v in value["ticktext"]]
    for ann in layout.get("annotations", []) or []:
        if isinstance(ann.get("text"), str):
            out.append(ann["text"])
    for trace in spec.get("data", []):
        if trace.get("showlegend", True) is not False and isinstance(trace.get("name"), str):
            out.append(trace["name"])
        for field in ("text", "texttemplate"):
            value = trace.get(field)
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, list):
                out += [v for v in value if isinstance(v, str)]
        title_of(trace.get("colorbar", {}) or {})
    for frame in spec.get("frames", []) or []:
        out += _plotly_texts({"data": frame.get("data", []), "layout": frame.get("layout", {})})
    return out


def visible_texts(at: AppTest) -> list[tuple[str, str]]:
    """(where, text) for every text the page shows."""
    found: list[tuple[str, str]] = []

    def add(where: str, value) -> None:
        if isinstance(value, str) and value.strip():
            found.append((where, value))

    for kind in ("markdown", "caption", "title", "header", "subheader", "text"):
        for el in getattr(at, kind):
            add(kind, el.value)
    for kind in ("info", "warning", "success", "error"):
        for el in getattr(at, kind):
            add(kind, el.value)
    for kind in (
        "button",
        "selectbox",
        "radio",
        "multiselect",
        "slider",
        "select_slider",
        "number_input",
        "toggle",
        "checkbox",
        "text_input",
        "text_area",
    ):
        for el in getattr(at, kind):
            add(f"{kind} label", el.label)
            add(f"{kind} help", getattr(el, "help", None))
            for option in getattr(el, "options", []) or []:
                add(f"{kind} option", str(option))
    for kind in ("tabs", "expander"):
        for el in getattr(at, kind):
            add(kind, el.label)
    for el in at.metric:
        add("metric", el.label)
    verbatim = {strings_mod.t(key, "ja") for key in VERBATIM_COLUMNS}
    for el in [*at.dataframe, *at.table]:
        frame = el.value
        if frame.index.name is not None:  # a static table indexed by its first column
            frame = frame.reset_index()
        for col in frame.columns:
            add("dataframe column", str(col))
            if str(col) in verbatim or not is_text(frame[col]):
                continue
            for cell in frame[col].dropna().unique()[:50]:
                add(f"dataframe cell [{col}]", str(cell))
    for kind in ("page_link", "download_button", "file_uploader", "link_button"):
        for el in at.get(kind):
            add(kind, getattr(el.proto, "label", ""))
            add(f"{kind} help", getattr(el.proto, "help", ""))
    for el in at.get("plotly_chart"):
        for text in _plotly_texts(json.loads(el.proto.spec)):
            add("plotly", text)
    return found


def is_text(column) -> bool:
    """Whether a column holds text: object or string dtype (pandas 3 reads strings as
    ``str``, not ``object``; a check for ``object`` alone would skip every text cell)."""
    return column.dtype == object or pd.api.types.is_string_dtype(column.dtype)


_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
_MARKUP = re.compile(r"<[^>]+>|:material/[a-z_]+:|\$[^$]*\$|`[^`]*`|\*\*|__|https?://\S+")


def english_left(text: str, produced: set[str], names: set[str]) -> list[str]:
    """The English words of ``text`` not accounted for by a Japanese translation, a
    registry name, a notation or the allow-list."""
    rest = _MARKUP.sub(" ", text)
    for piece in sorted((p for p in produced | names if p), key=len, reverse=True):
        if piece in rest:  # whole words only: the key "pa" must not eat "params"
            rest = re.sub(rf"(?<![A-Za-z]){re.escape(piece)}(?![A-Za-z])", " ", rest)
    words = _WORD.findall(rest)
    return [w for w in words if w not in ALLOWED and w.strip(string.punctuation) not in ALLOWED]


PAGE_FILES = [f"pages/{p.key}.py" for p in PAGES]


# states beyond each page's default that show other texts (URL parameters of that page)
STATES = [
    *[("pages/lesson.py", {"step": str(i)}) for i in range(2, 9)],
    ("pages/spa.py", {"scenario": "printed-I", "rule": "SPA-I", "C": "0.3", "step": "7"}),
    ("pages/spa.py", {"scenario": "printed-II", "rule": "SPA-II", "step": "6"}),
    ("pages/spa.py", {"scenario": "pa-failure", "step": "7"}),
    ("pages/compare.py", {"data": "digits", "run": "1", "max": "300", "folds": "2"}),
]


def _leaks(page: str, query: dict) -> list[str]:
    at, produced = render(page, query, "ja")  # (tests/app_renders.py: rendered once)
    assert not at.exception, [e.value for e in at.exception]
    names = _names()
    leaks = []
    for where, text in visible_texts(at):
        words = english_left(text, produced, names)
        if words:
            leaks.append(f"{where}: {text[:90]!r} -> {sorted(set(words))}")
    return leaks


@pytest.mark.parametrize("page", PAGE_FILES)
def test_every_visible_word_of_the_page_is_japanese(page):
    leaks = _leaks(page, {})
    assert not leaks, "English bypassing the translation table:\n" + "\n".join(leaks)


@pytest.mark.parametrize("page,query", STATES, ids=lambda v: str(v))
def test_every_visible_word_of_other_states_is_japanese(page, query):
    leaks = _leaks(page, query)
    assert not leaks, "English bypassing the translation table:\n" + "\n".join(leaks)


def test_the_check_flags_an_untranslated_word():
    """The checker itself: an English sentence fails, its translation passes."""
    produced = {"特徴 1"}
    assert english_left("feature 1", produced, set()) == ["feature"]
    assert english_left("特徴 1", produced, set()) == []
    assert english_left("SPA-I τ = 0.3, Q_u", produced, {"SPA-I"}) == []
    assert english_left("params", produced, {"pa"}) == ["params"]


@pytest.mark.parametrize("key", sorted(strings_mod.STRINGS))
def test_every_key_has_both_languages(key):
    en, ja = strings_mod.STRINGS[key]
    assert en.strip() and ja.strip(), key
    fields = lambda s: sorted(f for _, f, _, _ in string.Formatter().parse(s) if f)  # noqa: E731
    assert fields(en) == fields(ja), key
    if en == ja:  # the same text in both: only notation, names, numbers and fields allowed
        assert english_left(re.sub(r"\{\w+\}", "", ja), set(), _names()) == [], key
